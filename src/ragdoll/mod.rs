//! Ragdolls (Jakobsen, "Articulated bodies"): an engine's skeleton as
//! particles at the joints, one rigid cluster per bone, angular limits per
//! joint and separations against self-intersection; bone transforms read back
//! from the clusters' fitted frames.
//!
//! A bone's world transform is its head particle and its cluster's rotation
//! times the bone's rest rotation, so at creation it is exactly the rest
//! transform the engine gave and the engine's skinning (bone = frame * bind
//! offset) shows no snap.

pub mod build;
pub mod humanoid;
pub mod lengths;
pub mod motion;
pub mod motor;
mod pass;
pub mod skeleton;
mod spin;
mod velocity;

use crate::body::{Body, BodyKind, Made};
use crate::constraints::angle_limit::Limit;
use crate::constraints::shape_match::ClusterSet;
use crate::error::{Error, Result};
use crate::exec::simd::SimdLevel;
use crate::particles::ParticlesMut;
use crate::profile::{Clock, Stage};
use crate::solver::integrate;
use glam::{DVec3, Quat, Vec3};
use motor::Motors;
use pass::Pass;
pub use skeleton::Skeleton;
use std::sync::Arc;
use std::time::Instant;
use velocity::Velocities;

/// Most bones a ragdoll may have.
pub const MAX_BONES: usize = 1024;

/// Relaxation passes of a ragdoll per pass of the world: its bones are stiff
/// and share particles, and few passes a substep leave them soft where a
/// limb lands. Measured over 30 random limp drops of 0.5 to 3 m
/// (tests/ragdoll.rs), before bone lengths were solved exactly after the
/// passes (`lengths`): the worst bone length error in any frame, its mean
/// over the drops, and the worst limit violation were 11.8 %, 2.5 % and 5.2
/// degrees with two passes; 6.7 %, 1.7 % and 2.1 degrees with three; 5.8 %,
/// 1.4 % and 1.8 degrees with four. Three keep every joint well within its
/// limits and stop a landing limb's momentum; `lengths` then takes the bone
/// errors to 0.9 %, 0.4 % on average.
pub const PASSES: u32 = 3;

/// Rate (1/s) at which joint friction takes relative turning away between a
/// bone and its parent (see `motion`): a limp body comes to rest in about
/// three seconds instead of swinging on.
pub const JOINT_FRICTION: f32 = 20.0;

/// One bone of a skeleton, in the engine's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneDef {
    /// For lookups by name; may be empty.
    pub name: String,
    /// An earlier bone, or `None` for the root (bone 0, and only it).
    pub parent: Option<u32>,
    /// Rest transform in world space: the head and the bone's frame. The
    /// bone runs along its local +Y.
    pub position: Vec3,
    /// See `position`.
    pub rotation: Quat,
    /// Metres along +Y to the tail; 0 = up to the first child's head.
    pub length: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// Kilograms, > 0.
    pub mass: f32,
    /// Range of motion relative to the parent (ignored for the root).
    pub limit: Limit,
}

/// A skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct RagdollDef {
    /// In order: a parent before its children, the root first.
    pub bones: Vec<BoneDef>,
}

impl RagdollDef {
    /// The ready human figure (bones in [`crate::HUMANOID_BONES`]), standing on `position`
    /// facing the frame's +Z, `height` metres tall.
    pub fn humanoid(position: Vec3, rotation: Quat, height: f32) -> RagdollDef {
        humanoid::def(position, rotation, height)
    }
}

/// A bone's shape, for an engine to draw or query its capsule, which runs
/// from its head particle to its tail particle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneShape {
    /// The parent bone; `None` for the root.
    pub parent: Option<u32>,
    /// Head and tail particle: indices within the body, as
    /// `World::positions` reads them.
    pub head: u32,
    /// See `head`.
    pub tail: u32,
    /// Rest length from head to tail, metres.
    pub length: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// Kilograms.
    pub mass: f32,
}

/// The ragdoll part of a ragdoll body: its skeleton, shared, and its own
/// state.
#[derive(Debug, Clone, PartialEq)]
pub struct Ragdoll {
    /// What it is made of; shared by every ragdoll of the skeleton.
    pub skeleton: Arc<Skeleton>,
    /// Bone `b` is cluster `b`: the skeleton's members and rest shapes,
    /// this ragdoll's rotations and masses.
    pub clusters: ClusterSet,
    /// Drives towards the animation's pose (see `motor`).
    pub motors: Motors,
    /// The angular momentum as the substep started (see `spin`): set after
    /// the prediction, read with the velocities, as `rigid::Rigid::carry`.
    pub(crate) spin: Option<DVec3>,
}

/// What a ragdoll's substep works in besides its state, kept by each
/// worker so a warm step allocates nothing; any ragdoll may use it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// The bone-length solver's (see `lengths`).
    lengths: lengths::Scratch,
    /// Each bone's motion and its members' arms (see `motion`).
    motions: Vec<Option<motion::Motion>>,
    arms: motion::Arms,
    /// The motors' (see `motor`).
    motors: motor::Scratch,
    /// The passes' lanes (see `pass`).
    pass: pass::Scratch,
    /// The velocity stage's lanes (see `velocity`).
    velocity: velocity::Scratch,
}

impl Ragdoll {
    /// A ragdoll of `skeleton` in its rest pose, limp.
    pub(crate) fn new(skeleton: &Arc<Skeleton>) -> Ragdoll {
        Ragdoll {
            skeleton: skeleton.clone(),
            clusters: skeleton.built.clusters.clone(),
            motors: Motors::new(skeleton.bone_count()),
            spin: None,
        }
    }

    /// The start of a substep, after the prediction: keeps the body's
    /// angular momentum as it starts (see `spin`).
    pub(crate) fn begin_substep(&mut self, p: &ParticlesMut) {
        self.spin = spin::start(p, self.skeleton.built.positions.len());
    }

    /// Reads the velocities from what the passes moved
    /// (`integrate::update_velocities`), giving back the angular momentum
    /// that reading them from the end positions loses when nothing touched
    /// the body this substep (`free`; see `spin`).
    pub(crate) fn update_velocities(&self, p: &mut ParticlesMut, free: bool) {
        let n = self.skeleton.built.positions.len();
        let lost = self.spin.filter(|_| free).and_then(|start| spin::lost(p, n, start));
        integrate::update_velocities(p);
        if let Some(lost) = lost {
            spin::give_back(p, n, lost);
        }
    }

    /// Before the step's substeps: the bones' masses and rest inertias for
    /// the particles' inverse masses now (pins and `set_inv_masses` change
    /// them between steps, never within one).
    pub fn begin_step(&mut self, p: &ParticlesMut) {
        self.clusters.update_rest_inertia(p);
    }

    /// The bone lengths put back exactly after the passes (see `lengths`);
    /// `contact(i)` is the normal of the surface particle `i` was pushed
    /// out of this substep, if any.
    pub(crate) fn restore_lengths(
        &self,
        p: &mut ParticlesMut,
        scratch: &mut Scratch,
        contact: impl Fn(usize) -> Option<Vec3>,
    ) {
        self.skeleton.built.lengths.restore(&mut scratch.lengths, p, contact);
    }

    /// The velocity stage of substep `substep` of `substeps`, of length `h`
    /// (see `motion` and `motor`). Times its stages from `t` on; returns
    /// when it ended.
    #[allow(clippy::too_many_arguments)] // the substep, the scratch and the clock
    pub(crate) fn project_velocities_alone(
        &mut self,
        p: &mut ParticlesMut,
        h: f32,
        steps: (u32, u32),
        scratch: &mut Scratch,
        clock: &mut Clock,
        t: Option<Instant>,
    ) -> Option<Instant> {
        let Scratch { motions, arms, motors, .. } = scratch;
        motion::rigidify_keeping(&self.clusters, p, motions, arms);
        let skeleton = &*self.skeleton;
        let parents = skeleton.parents.iter().copied();
        let k = 1.0 - (-JOINT_FRICTION * h).exp();
        motion::joint_friction(&self.clusters, parents, k, motions, arms, p.inv_h);
        let t = clock.lap(Stage::BoneMotion, t);
        let root = skeleton.built.heads[0];
        self.motors.drive(motors, &self.clusters, &skeleton.parents, root, motions, arms, p, h, steps);
        arms.store(p);
        clock.lap(Stage::Motors, t)
    }

    /// The box around the bones' capsules, in the body's frame.
    pub(crate) fn capsule_bounds(&self, p: impl Fn(u32) -> Vec3) -> (Vec3, Vec3) {
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        let Skeleton { def, built, .. } = &*self.skeleton;
        for (b, bone) in def.bones.iter().enumerate() {
            for x in [p(built.heads[b]), p(built.tails[b])] {
                lo = lo.min(x - Vec3::splat(bone.radius));
                hi = hi.max(x + Vec3::splat(bone.radius));
            }
        }
        (lo, hi)
    }

    /// Number of bones.
    pub fn bone_count(&self) -> usize {
        self.skeleton.bone_count()
    }

    /// The head and tail particle of a bone; an index out of range is refused.
    pub fn bone_particles(&self, bone: u32) -> Result<(u32, u32)> {
        let b = bone as usize;
        if b >= self.bone_count() {
            return Err(Error::invalid_argument(format!("bone {bone} is out of range ({} bones)", self.bone_count())));
        }
        Ok((self.skeleton.built.heads[b], self.skeleton.built.tails[b]))
    }
}

/// A ragdoll body of `skeleton`, at rest, in its rest pose moved by
/// `placement` (see `World::create_ragdoll_from`).
pub(crate) fn body(skeleton: &Arc<Skeleton>, placement: Option<(Vec3, Quat)>) -> Made {
    let built = &skeleton.built;
    let positions: Vec<Vec3> = match placement {
        None => built.positions.clone(),
        Some((at, turn)) => built.positions.iter().map(|&x| at + turn * x).collect(),
    };
    let mut body = Body::new(BodyKind::Ragdoll, 0, positions.len());
    body.radius = built.radii.iter().copied().fold(0.0, f32::max);
    body.radii = built.radii.clone();
    body.sticks = skeleton.sticks.clone();
    let mut ragdoll = Ragdoll::new(skeleton);
    if let Some((_, turn)) = placement {
        ragdoll.clusters.rotation.fill(turn);
    }
    body.ragdoll = Some(Box::new(ragdoll));
    Made { positions, inv_mass: built.inv_masses.clone(), constraints: skeleton.constraint_count(), body }
}

/// One relaxation pass of every ragdoll among `bodies` (its particles in
/// the same place of `views`): bones rigid, joints within their limits,
/// parts apart, twists within theirs. The ragdolls of one skeleton take
/// the pass together, a ragdoll per SIMD lane (see `pass`); each gets the
/// bits it would alone. Times its stages from `t` on; returns when it ended.
pub(crate) fn project_pass(
    bodies: &mut [&mut Body],
    views: &mut [ParticlesMut],
    simd: SimdLevel,
    scratch: &mut Scratch,
    clock: &mut Clock,
    mut t: Option<Instant>,
) -> Option<Instant> {
    let mut all = bodies.iter_mut().zip(views.iter_mut()).filter(|(b, _)| b.ragdoll.is_some()).peekable();
    while let Some((body, p)) = all.next() {
        let r = body.ragdoll.as_mut().expect("filtered");
        let skeleton = r.skeleton.clone();
        let mut pass = Pass {
            built: &skeleton.built,
            parents: &skeleton.parents,
            clusters: std::array::from_fn(|_| None),
            views: std::array::from_fn(|_| None),
            used: 1,
            scratch: &mut scratch.pass,
            clock: &mut *clock,
            t,
        };
        pass.clusters[0] = Some(&mut r.clusters);
        pass.views[0] = Some(p);
        while pass.used < pass::LANES {
            let same = |(b, _): &(&mut &mut Body, &mut ParticlesMut)| {
                b.ragdoll.as_ref().is_some_and(|o| Arc::ptr_eq(&o.skeleton, &skeleton))
            };
            let Some((body, p)) = all.next_if(same) else { break };
            pass.clusters[pass.used] = Some(&mut body.ragdoll.as_mut().expect("filtered").clusters);
            pass.views[pass.used] = Some(p);
            pass.used += 1;
        }
        // The narrowest lanes that hold them (the same bits at any width).
        crate::exec::simd::dispatch(SimdLevel::holding(pass.used).min(simd), &mut pass);
        t = pass.t;
    }
    t
}

/// The velocity stage of every ragdoll among `bodies` (its particles in
/// the same place of `views`) at the end of substep `steps.0` of
/// `steps.1`, of length `h`: bones moved rigidly, joint friction, motors.
/// The ragdolls of one skeleton take it together, a ragdoll per SIMD lane
/// (see `velocity`), each getting the bits it would alone; a ragdoll held
/// by a pinned particle takes it alone, its bones turning about their
/// pivots (see `motion`). Times its stages from `t` on; returns when it
/// ended.
#[allow(clippy::too_many_arguments)] // the bodies, the substep, the scratch and the clock
pub(crate) fn project_velocities(
    bodies: &mut [&mut Body],
    views: &mut [ParticlesMut],
    h: f32,
    steps: (u32, u32),
    simd: SimdLevel,
    scratch: &mut Scratch,
    clock: &mut Clock,
    mut t: Option<Instant>,
) -> Option<Instant> {
    // Its particles, not the padding after them.
    let pinned = |r: &Ragdoll, p: &ParticlesMut| p.inv_mass[..r.skeleton.built.positions.len()].contains(&0.0);
    let mut all = bodies.iter_mut().zip(views.iter_mut()).filter(|(b, _)| b.ragdoll.is_some()).peekable();
    while let Some((body, p)) = all.next() {
        let r = body.ragdoll.as_mut().expect("filtered");
        if pinned(r, p) {
            t = r.project_velocities_alone(p, h, steps, scratch, clock, t);
            continue;
        }
        let skeleton = r.skeleton.clone();
        let mut v = Velocities {
            built: &skeleton.built,
            parents: &skeleton.parents,
            ragdolls: [None; pass::LANES],
            views: std::array::from_fn(|_| None),
            used: 1,
            h,
            steps,
            friction: 1.0 - (-JOINT_FRICTION * h).exp(),
            scratch: &mut scratch.velocity,
            clock: &mut *clock,
            t,
        };
        v.ragdolls[0] = Some((&r.clusters, &r.motors));
        v.views[0] = Some(p);
        while v.used < pass::LANES {
            let same = |(b, p): &(&mut &mut Body, &mut ParticlesMut)| {
                b.ragdoll.as_ref().is_some_and(|o| Arc::ptr_eq(&o.skeleton, &skeleton) && !pinned(o, p))
            };
            let Some((body, p)) = all.next_if(same) else { break };
            let r = body.ragdoll.as_ref().expect("filtered");
            v.ragdolls[v.used] = Some((&r.clusters, &r.motors));
            v.views[v.used] = Some(p);
            v.used += 1;
        }
        // The narrowest lanes that hold them (the same bits at any width).
        crate::exec::simd::dispatch(SimdLevel::holding(v.used).min(simd), &mut v);
        t = v.t;
    }
    t
}

/// Where every particle of the ragdoll is when its bones have the world
/// transforms `pose`: each particle follows the first bone that holds it.
pub(crate) fn placed(r: &Ragdoll, pose: &[(Vec3, Quat)]) -> Vec<Vec3> {
    let count = r.clusters.particle.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut out = vec![None; count];
    for (b, &(head, rotation)) in pose.iter().enumerate() {
        let rest_head = r.skeleton.def.bones[b].position;
        let turn = rotation * r.clusters.frame[b].conjugate();
        for m in r.clusters.members(b) {
            let i = r.clusters.particle[m] as usize;
            if out[i].is_none() {
                out[i] = Some(head + turn * (r.clusters.rest[m] - rest_head));
            }
        }
    }
    out.into_iter().map(|x| x.expect("every particle is in a bone")).collect()
}
