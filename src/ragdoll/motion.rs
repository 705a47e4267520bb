//! A ragdoll's velocities after the relaxation passes, seen bone by bone as
//! rigid motions.
//!
//! Position corrections of a Verlet scheme are also velocity changes, and
//! bones whose clusters share particles pull on each other in turns, so after
//! the passes a bone's particles move a little apart from any rigid motion.
//! Two velocity stages follow (all displacements over the substep, `x - x'`):
//!
//! - **Rigid bones.** Each bone's particle velocities are replaced by the
//!   rigid motion with the same linear and angular momentum,
//!   `v_i = v + omega x r_i` with `omega = I^-1 L`. What is removed is
//!   deformation the clusters undo anyway; left in, it is energy pumped in by
//!   the corrections (the same reasoning as the sticks' velocity stage).
//!   `I` has the `LINE_INERTIA` floor `F` (`shape_match::line_inertia`),
//!   which keeps it invertible and a limb's roll (its roll particle a few
//!   centimetres off its axis) slow. Turned by `(I + F)^-1 L`, a bone kept
//!   `I (I + F)^-1` of its angular momentum every substep, about `F / I`
//!   short, and a limp body tumbling through the air slowed down the more
//!   substeps it took. One step of iterative refinement takes that bias out
//!   to second order:
//!
//!   ```text
//!   omega_0 = (I + F)^-1 L,    omega = omega_0 + (I + F)^-1 (L - I omega_0)
//!   ```
//!
//!   `F` is a multiple of the identity, so it shares `I`'s principal axes:
//!   about one of moment `I_a`, with `f = F / I_a`, `omega` is `(1 -
//!   (f / (1 + f))^2) L_a / I_a`, short of the exact turn, never over it:
//!   the projection still takes energy out and never puts it in. The
//!   couples below keep the floored inverse (`Motion::inv_inertia`).
//! - **Joint friction.** Each joint exchanges an angular impulse (a couple)
//!   between child and parent that takes a fraction of their relative angular
//!   velocity away: `tau = k (I_c^-1 + I_p^-1)^-1 (omega_c - omega_p)`. A couple
//!   changes neither momentum nor angular momentum; a body turning as a whole
//!   (a ragdoll tumbling through the air) has no relative motion and is left
//!   alone. Without it a limp limb hanging in the air swings for a long time,
//!   as a frictionless pendulum would.
//!
//! Both stages use each bone's members with their full masses; a joint's
//! particle, shared by two bones, takes both bones' changes. Both keep linear
//! and angular momentum exactly (each change sums to zero momentum within its
//! cluster, and the couples cancel in pairs).

use crate::constraints::shape_match::{ClusterSet, line_inertia, weight};
use crate::particles::ParticlesMut;
use glam::{Mat3, Vec3};

/// A cluster's motion over the substep: centre of mass, its displacement,
/// the turn (radians, as a vector), its mass and the inverse of its inertia.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Motion {
    pub center: Vec3,
    pub mass: f32,
    pub displacement: Vec3,
    pub turn: Vec3,
    pub inv_inertia: Mat3,
}

/// The rigid motion with the momentum and angular momentum of cluster `k`'s
/// particles; `None` for a cluster with a pinned member (it does not turn
/// freely) or no inertia.
pub(crate) fn motion(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> Option<Motion> {
    let members = clusters.members(k);
    let origin = p.position(clusters.particle[members.start] as usize);
    let (mut mass, mut center) = (0.0f32, Vec3::ZERO);
    for m in members.clone() {
        let i = clusters.particle[m] as usize;
        if p.inv_mass[i] == 0.0 {
            return None;
        }
        let w = weight(p.inv_mass[i]);
        mass += w;
        center += (p.position(i) - origin) * w;
    }
    center /= mass;
    // One sweep for the momenta and the inertia about the centre: `sum w r
    // x (d - d_mean) = sum w r x d - (sum w r) x d_mean`. The inertia of
    // the particles as they are, not the rest inertia turned by the last
    // fit: `lengths` moves the joints after the fits, and a limb's inertia
    // about its own axis is small, so a rest inertia turned by a slightly
    // stale rotation reads the limb's swing as a fast spin.
    let (mut sum, mut moment, mut arm_sum) = (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
    let (mut inertia, mut extent) = (Mat3::ZERO, 0.0f32);
    for m in members {
        let i = clusters.particle[m] as usize;
        let w = weight(p.inv_mass[i]);
        let r = p.position(i) - origin - center;
        let d = p.displacement(i) * w;
        sum += d;
        moment += r.cross(d);
        arm_sum += r * w;
        let r2 = r.length_squared();
        inertia += (Mat3::from_diagonal(Vec3::splat(r2)) - Mat3::from_cols(r * r.x, r * r.y, r * r.z)) * w;
        extent = extent.max(r2);
    }
    let displacement = sum / mass;
    let momentum = moment - arm_sum.cross(displacement);
    let floored = inertia + line_inertia(mass, extent);
    let inv_inertia = (floored.determinant().abs() >= 1.0e-30).then(|| floored.inverse()).filter(|i| i.is_finite())?;
    // The floor's bias refined away (see the module's docs).
    let turn = inv_inertia * momentum;
    let turn = turn + inv_inertia * (momentum - inertia * turn);
    Some(Motion { center: center + origin, mass, displacement, turn, inv_inertia })
}

/// Each cluster member's weight and arm (its position from its cluster's
/// centre of mass), by member, as [`rigidify_keeping`] found them: the
/// positions do not move in a velocity stage, so the stage's couples read
/// and turn the bones from these alone. The couples work on a copy of the
/// body's velocities, by particle, put back by [`Arms::store`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Arms {
    weight: Vec<f32>,
    arm: Vec<Vec3>,
    /// By cluster: `sum w a`, zero up to rounding.
    arm_sum: Vec<Vec3>,
    /// By particle.
    velocity: Vec<Vec3>,
}

impl Arms {
    /// Cluster `k`'s members as they are, about its centre `m`.
    fn measure(&mut self, clusters: &ClusterSet, k: usize, m: &Motion, p: &ParticlesMut) {
        let mut sum = Vec3::ZERO;
        for member in clusters.members(k) {
            let i = clusters.particle[member] as usize;
            let (w, a) = (weight(p.inv_mass[i]), p.position(i) - m.center);
            (self.weight[member], self.arm[member]) = (w, a);
            sum += a * w;
        }
        self.arm_sum[k] = sum;
    }

    /// The body's velocities, as the couples changed them.
    pub(crate) fn store(&self, p: &mut ParticlesMut) {
        for (i, &v) in self.velocity.iter().enumerate() {
            p.set_velocity(i, v);
        }
    }

    /// Adds the displacement `d` (over the substep of length `1 / inv_h`)
    /// to every member of cluster `k`.
    pub(crate) fn shift(&mut self, clusters: &ClusterSet, k: usize, d: Vec3, inv_h: f32) {
        for m in clusters.members(k) {
            self.velocity[clusters.particle[m] as usize] += d * inv_h;
        }
    }
}

/// Cluster `k`'s displacement and turn over the substep of length `h` now,
/// `known` being what [`motion`] found for it earlier in the same velocity
/// stage: the positions have not moved since, so its centre, mass, inertia
/// and its members' arms are kept and only their velocities are summed
/// again, in one sweep: `sum w a x (v - v_mean) = sum w a x v - (sum w a) x
/// v_mean`.
pub(crate) fn moving(clusters: &ClusterSet, k: usize, known: &Motion, arms: &Arms, h: f32) -> (Vec3, Vec3) {
    let (mut sum, mut moment) = (Vec3::ZERO, Vec3::ZERO);
    for m in clusters.members(k) {
        let v = arms.velocity[clusters.particle[m] as usize] * arms.weight[m];
        sum += v;
        moment += arms.arm[m].cross(v);
    }
    let displacement = sum * (h / known.mass);
    let momentum = moment * h - arms.arm_sum[k].cross(displacement);
    (displacement, known.inv_inertia * momentum)
}

/// Adds the turn `turn x r` to cluster `k`'s displacements over the
/// substep (of length `1 / inv_h`), `r` each member's arm.
pub(crate) fn add_turn(clusters: &ClusterSet, k: usize, arms: &mut Arms, turn: Vec3, inv_h: f32) {
    let turn = turn * inv_h;
    for m in clusters.members(k) {
        arms.velocity[clusters.particle[m] as usize] += turn.cross(arms.arm[m]);
    }
}

/// The rigid motion of cluster `k` turning about its one pinned member
/// (a body held by one particle: see `shape_match::RestInertia`): the
/// pinned particle's displacement and the turn with the angular momentum
/// about it of the other members' displacements relative to it. `None` for
/// a cluster with no pinned member or more than one, or no inertia.
pub(crate) fn pivot_motion(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> Option<Motion> {
    let pivot = clusters.particle[clusters.pivot(k, p).ok()??] as usize;
    let (center, displacement) = (p.position(pivot), p.displacement(pivot));
    let (mut mass, mut momentum) = (0.0f32, Vec3::ZERO);
    for m in clusters.members(k) {
        let i = clusters.particle[m] as usize;
        if p.inv_mass[i] > 0.0 {
            let w = weight(p.inv_mass[i]);
            mass += w;
            momentum += (p.position(i) - center).cross(p.displacement(i) - displacement) * w;
        }
    }
    let inertia = clusters.free_inertia(k, p, center);
    let inv_inertia = (inertia.determinant().abs() >= 1.0e-30).then(|| inertia.inverse()).filter(|i| i.is_finite())?;
    Some(Motion { center, mass, displacement, turn: inv_inertia * momentum, inv_inertia })
}

/// Gives cluster `k`'s particles the rigid motion `m`.
fn apply_motion(clusters: &ClusterSet, k: usize, m: &Motion, p: &mut ParticlesMut) {
    for member in clusters.members(k) {
        let i = clusters.particle[member] as usize;
        if p.inv_mass[i] > 0.0 {
            let x = p.position(i);
            let rigid = m.displacement + m.turn.cross(x - m.center);
            p.set_displacement(i, rigid);
        }
    }
}

/// Replaces each cluster's velocities by its rigid motion, cluster by
/// cluster, keeping each cluster's motion in `motions` (`None` where
/// [`motion`] has none) and its members' arms and the body's velocities
/// in `arms` for the couples that follow.
pub(crate) fn rigidify_keeping(
    clusters: &ClusterSet,
    p: &mut ParticlesMut,
    motions: &mut Vec<Option<Motion>>,
    arms: &mut Arms,
) {
    motions.clear();
    arms.weight.resize(clusters.particle.len(), 0.0);
    arms.arm.resize(clusters.particle.len(), Vec3::ZERO);
    arms.arm_sum.resize(clusters.len(), Vec3::ZERO);
    for k in 0..clusters.len() {
        let m = motion(clusters, k, p);
        motions.push(m);
        if let Some(m) = &m {
            arms.measure(clusters, k, m, p);
        }
        if let Some(m) = m.or_else(|| pivot_motion(clusters, k, p)) {
            apply_motion(clusters, k, &m, p);
        }
    }
    arms.velocity.clear();
    arms.velocity.extend((0..p.len()).map(|i| p.velocity(i)));
}

/// Takes the fraction `k` of every joint's relative angular velocity away by
/// couples between child and parent (the `b`-th parent is bone `b`'s).
///
/// The bones' motions are those `rigidify_keeping` just found, each turn
/// updated by the couples applied to its bone: 17 motions a substep for a
/// humanoid instead of two per joint. What a couple does to a neighbour
/// through a shared joint particle is left to the next substep's fit; with
/// `k` a few percent a substep that changes the damping, not its sign.
pub(crate) fn joint_friction(
    clusters: &ClusterSet,
    parents: impl Iterator<Item = Option<u32>>,
    k: f32,
    motions: &mut [Option<Motion>],
    arms: &mut Arms,
    inv_h: f32,
) {
    if k <= 0.0 {
        return;
    }
    for (child, parent) in parents.enumerate() {
        let Some(parent) = parent else { continue };
        let parent = parent as usize;
        let (Some(c), Some(q)) = (motions[child], motions[parent]) else { continue };
        let sum = c.inv_inertia + q.inv_inertia;
        if sum.determinant().abs() < 1.0e-30 {
            continue;
        }
        let couple = sum.inverse() * ((c.turn - q.turn) * k);
        let (turn_c, turn_q) = (-(c.inv_inertia * couple), q.inv_inertia * couple);
        add_turn(clusters, child, arms, turn_c, inv_h);
        add_turn(clusters, parent, arms, turn_q, inv_h);
        motions[child].as_mut().expect("some").turn += turn_c;
        motions[parent].as_mut().expect("some").turn += turn_q;
    }
}
