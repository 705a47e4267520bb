//! A skeleton: what every ragdoll of one kind shares (Jolt's
//! `SoftBodySharedSettings` beside its bodies is the same split).
//!
//! [`Skeleton::new`] checks a [`RagdollDef`] and builds, once, everything a
//! ragdoll of it needs that never changes: its particles at rest, their
//! masses and radii, the bones' clusters (members, rest positions, rest
//! frames), the limits, separations and twists, the bone-length tree and
//! the capsules. Many ragdolls hold it by `Arc`; each keeps only its own
//! state (particles in the world's store, the bones' rotations and masses
//! now, its motors; the solvers' scratch is each worker's). A ragdoll keeps its skeleton
//! alive, so it may be dropped (or `sinew_skeleton_destroy`ed) while
//! ragdolls of it live.

use super::build::{self, Built};
use super::{MAX_BONES, RagdollDef, humanoid};
use crate::collision::CollisionStick;
use crate::constraints::angle_limit::Limit;
use crate::error::{Error, Result, finite_vec, non_negative, positive, unit_rotation};
use glam::{Quat, Vec3};
use std::f32::consts::PI;
use std::sync::Arc;

/// An immutable skeleton many ragdolls share (see the module docs).
#[derive(Debug, PartialEq)]
pub struct Skeleton {
    /// The definition, checked: unit rotations and hinge axes.
    pub(crate) def: RagdollDef,
    /// Each bone's parent.
    pub(crate) parents: Vec<Option<u32>>,
    /// Particles, clusters and constraints at the definition's rest pose.
    pub(crate) built: Built,
    /// The bones' capsules (a bone of radius 0 has none).
    pub(crate) sticks: Vec<CollisionStick>,
}

impl Skeleton {
    /// Checks `def` and builds the skeleton.
    ///
    /// Refused: no bones or more than 1024 (`MAX_BONES`), a root other than
    /// bone 0, a parent that does not come before its child, NaN/inf, a zero
    /// rotation, a negative radius, a mass <= 0, limits out of range, and a
    /// bone of zero length (its `length`, or the distance to its first
    /// child's head along its +Y when `length` is 0).
    pub fn new(def: &RagdollDef) -> Result<Arc<Skeleton>> {
        let def = check_def(def)?;
        let mut tails = Vec::with_capacity(def.bones.len());
        for b in 0..def.bones.len() {
            let tail = build::tail_of(&def, b)
                .ok_or_else(|| Error::invalid_argument(format!("bones[{b}] has length 0 and no child to reach")))?;
            let length = (tail - def.bones[b].position).length();
            if length.is_nan() || length <= 1e-4 || !tail.is_finite() {
                return Err(Error::invalid_argument(format!(
                    "bones[{b}] ({:?}) has zero length: its tail is its head",
                    def.bones[b].name
                )));
            }
            tails.push(tail);
        }
        let built = build::build(&def, &tails);
        // Each bone's capsule collides with the world along its length
        // (Hitman's limbs against a world of triangles), not only at joints.
        let sticks = (0..def.bones.len())
            .filter(|&b| def.bones[b].radius > 0.0 && built.heads[b] != built.tails[b])
            .map(|b| CollisionStick { a: built.heads[b], b: built.tails[b], radius: def.bones[b].radius })
            .collect();
        let parents = def.bones.iter().map(|b| b.parent).collect();
        Ok(Arc::new(Skeleton { def, parents, built, sticks }))
    }

    /// The ready human figure ([`crate::HUMANOID_BONES`]), `height` metres
    /// tall (in (0, 1000]), standing on the origin (between its feet)
    /// facing +Z: a ragdoll of it placed at a transform stands on that
    /// transform's origin.
    pub fn humanoid(height: f32) -> Result<Arc<Skeleton>> {
        check_height(height)?;
        Skeleton::new(&humanoid::def(Vec3::ZERO, Quat::IDENTITY, height))
    }

    /// The definition it was built from, checked (unit rotations and axes).
    pub fn def(&self) -> &RagdollDef {
        &self.def
    }

    /// Number of bones.
    pub fn bone_count(&self) -> usize {
        self.def.bones.len()
    }

    /// Number of particles each ragdoll of it has.
    pub fn particle_count(&self) -> usize {
        self.built.positions.len()
    }

    /// The constraints each ragdoll of it counts against the world's
    /// `max_constraints`: its capsules and its joint constraints.
    pub(crate) fn constraint_count(&self) -> usize {
        self.sticks.len() + self.joint_constraint_count()
    }

    /// Its bones, limits, separations and twists (the capsules are the
    /// body's sticks, counted with the body's own).
    pub(crate) fn joint_constraint_count(&self) -> usize {
        let b = &self.built;
        b.clusters.len() + b.points.len() + b.inequalities.len() + b.twists.len()
    }
}

/// A humanoid's height: in (0, 1000] metres.
pub(crate) fn check_height(height: f32) -> Result<()> {
    positive(height, "height")?;
    if height > 1.0e3 {
        return Err(Error::invalid_argument(format!("height must be at most 1000 m, got {height}")));
    }
    Ok(())
}

fn check_angle(v: f32, lo: f32, hi: f32, what: &str) -> Result<()> {
    if !(v.is_finite() && (lo..=hi).contains(&v)) {
        return Err(Error::invalid_argument(format!("{what} must be in [{lo}, {hi}] radians, got {v}")));
    }
    Ok(())
}

fn check_limit(limit: &Limit, what: &str) -> Result<Limit> {
    match *limit {
        Limit::Ball { swing, twist_min, twist_max } => {
            check_angle(swing, 0.0, PI, &format!("{what}.swing"))?;
            check_angle(twist_min, -PI, PI, &format!("{what}.twist_min"))?;
            check_angle(twist_max, -PI, PI, &format!("{what}.twist_max"))?;
            if twist_min > twist_max {
                return Err(Error::invalid_argument(format!(
                    "{what}: twist_min ({twist_min}) is above twist_max ({twist_max})"
                )));
            }
            Ok(*limit)
        }
        Limit::Hinge { axis, min, max } => {
            finite_vec(axis, &format!("{what}.hinge_axis"))?;
            let len = axis.length();
            if !(len > 1e-6 && len.is_finite()) {
                return Err(Error::invalid_argument(format!("{what}.hinge_axis must not be zero")));
            }
            check_angle(min, -PI, PI, &format!("{what}.hinge_min"))?;
            check_angle(max, -PI, PI, &format!("{what}.hinge_max"))?;
            if min > max {
                return Err(Error::invalid_argument(format!("{what}: hinge_min ({min}) is above hinge_max ({max})")));
            }
            // Already unit (within 1e-6): kept as given, as `unit_rotation`
            // keeps a rotation, so a snapshot's axis rebuilds the same bits
            // (dividing a unit axis by its length moved it by an ulp, and a
            // restored ragdoll hashed differently: found by the builders
            // fuzz target).
            let axis = if (len - 1.0).abs() <= 1e-6 { axis } else { axis / len };
            Ok(Limit::Hinge { axis, min, max })
        }
    }
}

/// Checks a definition and returns it with unit rotations and axes.
fn check_def(def: &RagdollDef) -> Result<RagdollDef> {
    let n = def.bones.len();
    if n == 0 {
        return Err(Error::invalid_argument("a ragdoll needs at least one bone (bone_count was 0)"));
    }
    if n > MAX_BONES {
        return Err(Error::limit(format!("a ragdoll has at most {MAX_BONES} bones, got {n}")));
    }
    let mut out = def.clone();
    for (b, bone) in out.bones.iter_mut().enumerate() {
        let what = format!("bones[{b}]");
        match bone.parent {
            None if b != 0 => {
                return Err(Error::invalid_argument(format!("{what} has no parent; only bone 0 may be the root")));
            }
            Some(_) if b == 0 => {
                return Err(Error::invalid_argument("bones[0] is the root and must have parent -1"));
            }
            Some(p) if p as usize >= b => {
                return Err(Error::invalid_argument(format!(
                    "{what}.parent is {p}: a parent must come before its child"
                )));
            }
            _ => {}
        }
        finite_vec(bone.position, &format!("{what}.rest.position"))?;
        bone.rotation = unit_rotation(bone.rotation, &format!("{what}.rest.rotation"))?;
        non_negative(bone.length, &format!("{what}.length"))?;
        non_negative(bone.radius, &format!("{what}.radius"))?;
        positive(bone.mass, &format!("{what}.mass"))?;
        bone.limit = check_limit(&bone.limit, &format!("{what}.limit"))?;
    }
    Ok(out)
}
