//! A body: a contiguous range of particles and the constraints among them.

use crate::cloth::Cloth;
use crate::collision::{Candidates, CollisionStick, Filter, Material};
use crate::constraints::bend::BendSet;
use crate::constraints::distance::DistanceSet;
use crate::constraints::frame::FrameAttachment;
use crate::constraints::skin::SkinSet;
use crate::constraints::target::TargetSet;
use crate::constraints::tether::TetherSet;
use crate::error::{Error, Result, finite_vec};
use crate::particles::padded;
use crate::pool::BodyId;
use crate::ragdoll::Ragdoll;
use crate::rigid::Rigid;
use glam::Vec3;
use std::ops::Range;

/// What built a body; calls meant for another kind return `WrongKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum BodyKind {
    /// A raw particle set with user constraints.
    Particles = 0,
    /// A cloth from a grid or a triangle mesh.
    Cloth = 1,
    /// A ragdoll from a skeleton.
    Ragdoll = 2,
    /// A particle rigid body (tetrahedron or shape-matched).
    Rigid = 3,
}

impl BodyKind {
    pub(crate) fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::Particles),
            1 => Some(Self::Cloth),
            2 => Some(Self::Ragdoll),
            3 => Some(Self::Rigid),
            _ => None,
        }
    }
}

/// Spacing of the points a body's particles are kept relative to, metres:
/// a power of two, so every such point is exact in `f32`, a world position
/// `origin + local` is rounded once, and moving a body's frame from one
/// point to another is exact (see [`Body::origin`]).
pub const ORIGIN_GRID: f32 = 4.0;

/// The grid point nearest to `center`.
pub fn grid_origin(center: Vec3) -> Vec3 {
    (center * (1.0 / ORIGIN_GRID)).round() * ORIGIN_GRID
}

/// Topology and per-instance state of one body.
#[derive(Debug, Clone)]
pub struct Body {
    pub kind: BodyKind,
    /// Where the body's frame is: its particles, targets, skin and motor
    /// goals are kept relative to it, so their precision is that of the
    /// body's size, not of its distance from the world's origin (in world
    /// `f32` a particle 1 km out rounds to 6e-5 m, more than a substep's
    /// `g h^2`). A grid point ([`ORIGIN_GRID`]) near the body, moved along
    /// when the body strays from it; 0 near the world's origin.
    pub origin: Vec3,
    /// First particle in the world's store (a multiple of `LANES`).
    pub first: usize,
    /// Real particles; the range is padded beyond them.
    pub count: usize,
    /// Collision radius of every particle of the body, metres.
    pub radius: f32,
    /// Per-particle collision radii (a ragdoll's bones differ); empty means
    /// `radius` for all.
    pub radii: Vec<f32>,
    pub distances: DistanceSet,
    pub targets: TargetSet,
    pub tethers: TetherSet,
    /// Dihedral bending.
    pub bends: BendSet,
    /// Max distance and backstop from the engine's skinned pose.
    pub skin: SkinSet,
    /// Particles pinned to engine-moved frames.
    pub frames: Vec<FrameAttachment>,
    /// Triangles, aerodynamics and render data of a cloth body.
    pub cloth: Option<Box<Cloth>>,
    /// Bones, limits and readback of a ragdoll body.
    pub ragdoll: Option<Box<Ragdoll>>,
    /// Collision points and fit of a rigid body.
    pub rigid: Option<Box<Rigid>>,
    /// Asleep: skipped by the step until something wakes it.
    pub sleeping: bool,
    /// Seconds the body has been slower than the world's sleep speed.
    pub still_time: f32,
    /// The length of the substep its velocities are the mean over (they
    /// are half of it old), or 0 when they are as of now: created, put to
    /// sleep or recovered (see `solver::integrate`).
    pub h_prev: f32,
    /// Forces for the next step (N, one per particle; empty when none):
    /// applied over each of its substeps, then cleared.
    pub forces: Vec<Vec3>,
    /// Capsules between pairs of particles that collide along their length.
    pub sticks: Vec<CollisionStick>,
    /// The body's own surface (combined with each collider's by the
    /// collider's rule); `None` takes the colliders' as they are.
    pub material: Option<Material>,
    /// Collision layers of the body and the layers it collides with.
    pub filter: Filter,
    /// Bones of other bodies (a ragdoll, a bone index) this body passes
    /// through, sorted (`World::set_ignored_bones`).
    pub ignored: Vec<(BodyId, u32)>,
    /// Broad-phase result of the current step.
    pub candidates: Candidates,
    /// Swept bounds of the current step (particles, not grown by the radius).
    pub bounds: (Vec3, Vec3),
}

impl Body {
    pub fn new(kind: BodyKind, first: usize, count: usize) -> Self {
        Body {
            kind,
            first,
            count,
            radius: 0.0,
            radii: Vec::new(),
            distances: DistanceSet::default(),
            targets: TargetSet::default(),
            tethers: TetherSet::default(),
            bends: BendSet::default(),
            frames: Vec::new(),
            skin: SkinSet::default(),
            cloth: None,
            ragdoll: None,
            rigid: None,
            sleeping: false,
            still_time: 0.0,
            h_prev: 0.0,
            forces: Vec::new(),
            origin: Vec3::ZERO,
            sticks: Vec::new(),
            material: None,
            filter: Filter::default(),
            ignored: Vec::new(),
            candidates: Candidates::default(),
            bounds: (Vec3::ZERO, Vec3::ZERO),
        }
    }

    /// The constraints this body adds to its world's `max_constraints`
    /// count (see `World::constraint_count`).
    pub fn constraint_count(&self) -> usize {
        let own = self.distances.len() + self.bends.len() + self.tethers.len() + self.sticks.len();
        let ragdoll = self.ragdoll.as_ref().map_or(0, |r| r.skeleton.joint_constraint_count());
        own + ragdoll + self.rigid.as_ref().map_or(0, |r| r.clusters.len())
    }

    /// The body's range of the store, padding included.
    pub fn range(&self) -> Range<usize> {
        self.first..self.first + padded(self.count)
    }

    /// The range a step works on: the real particles alone when nothing of
    /// the body walks whole lanes of its range (no sticks or bends, not a
    /// cloth, ragdoll or rigid body), else [`Body::range`]. The padding is
    /// inert (inverse mass 0, never in contact, its velocity 0 and its
    /// position moved only with the frame, `x_prev` with it), and every
    /// per-particle loop of the step treats each particle alone, so either
    /// range gives the real particles the same bits; the shorter spares a
    /// small body's stages the idle lanes (a one-particle body's 15 of 16).
    pub fn step_range(&self) -> Range<usize> {
        if self.is_plain() { self.first..self.first + self.count } else { self.range() }
    }

    /// Particles alone: no sticks or bends, not a cloth, ragdoll or rigid
    /// body (targets, tethers, skin, frames, forces and collision sticks
    /// may be there: they index its real particles one at a time).
    pub fn is_plain(&self) -> bool {
        self.distances.len() == 0
            && self.bends.len() == 0
            && self.cloth.is_none()
            && self.ragdoll.is_none()
            && self.rigid.is_none()
    }
}

impl Body {
    /// Moves the body's frame to `origin` (a grid point): everything kept
    /// in the frame moves by the difference (exact itself: grid points are
    /// multiples of a power of two, see [`ORIGIN_GRID`]), each coordinate
    /// rounded once to its new place; `x` are the particles' positions and
    /// where their substep began, column by column.
    pub fn move_frame(&mut self, origin: Vec3, x: [&mut [f32]; 6]) {
        let by = origin - self.origin;
        if by != Vec3::ZERO {
            self.reframe(origin, by, x);
        }
    }

    /// Puts the frame at `origin` and moves everything kept in it by `-by`.
    pub fn reframe(&mut self, origin: Vec3, by: Vec3, x: [&mut [f32]; 6]) {
        for (k, a) in x.into_iter().enumerate() {
            let d = by[k % 3];
            a.iter_mut().for_each(|v| *v -= d);
        }
        self.targets.shift(by);
        self.skin.shift(by);
        if let Some(r) = &mut self.ragdoll {
            r.motors.shift(by);
        }
        self.bounds = (self.bounds.0 - by, self.bounds.1 - by);
        self.origin = origin;
    }

    /// Wakes the body up; its sleep clock starts again.
    pub fn wake(&mut self) {
        self.sleeping = false;
        self.still_time = 0.0;
    }

    /// Wakes a sleeping body; an awake one keeps its sleep clock.
    pub fn wake_if_asleep(&mut self) {
        if self.sleeping {
            self.wake();
        }
    }
}

/// A body as its kind's builder makes it, before a world holds it: where
/// its particles start (world space) and their inverse masses, how many
/// constraints it counts against `max_constraints`, and the body with its
/// constraints and its kind's part. Its particle range and frame are the
/// world's to give (`World::insert_made`).
#[derive(Debug)]
pub(crate) struct Made {
    pub positions: Vec<Vec3>,
    pub inv_mass: Vec<f32>,
    pub constraints: usize,
    pub body: Body,
}

impl Made {
    /// The body alone, its particles checked as a world checks them before
    /// holding it (a snapshot's body takes its particles from the image).
    pub(crate) fn into_checked_body(self) -> Result<Body> {
        check_particles(&self.positions, |i| self.inv_mass[i])?;
        Ok(self.body)
    }
}

/// The checks of a new body's particles that need no world: at least one,
/// at most 2^32 - 1, finite positions and inverse masses.
pub(crate) fn check_particles(positions: &[Vec3], inv_mass: impl Fn(usize) -> f32) -> Result<()> {
    if positions.is_empty() {
        return Err(Error::invalid_argument("a body needs at least one particle (count was 0)"));
    }
    if u32::try_from(positions.len()).is_err() {
        return Err(Error::limit("more than 2^32 - 1 particles in one body"));
    }
    for (i, p) in positions.iter().enumerate() {
        finite_vec(*p, &format!("positions[{i}]"))?;
    }
    // Builders derive inverse masses from a mass (a rigid body's 4 / m, a
    // cloth's n / m): a positive mass too small to invert gave +inf, which
    // the step turns into NaN and a snapshot cannot hold (found by fuzzing).
    if let Some(i) = (0..positions.len()).find(|&i| !inv_mass(i).is_finite()) {
        return Err(Error::invalid_argument(format!(
            "particle {i}'s inverse mass is {}: a mass too small to invert",
            inv_mass(i)
        )));
    }
    Ok(())
}
