//! A rigid body's velocities after the passes, replaced by the rigid motion
//! with the same momentum and angular momentum: `v_i = v + omega x r_i`,
//! `omega = I^-1 L`, with `I` the particles' own inertia
//! (`ClusterSet::rigid_mass_properties`).
//!
//! **The inertia.** The ragdoll bones' stage (`ragdoll::motion`) adds a
//! floor to the inertia (`shape_match::LINE_INERTIA`, 1e-4 of the largest
//! `m r^2`) so that a bone on a line stays invertible. Turned by that
//! inertia, a body's angular momentum shrank by the floor's share every
//! substep: a cube spinning at 12 rad/s in zero gravity with no damping
//! fell to 5.8 rad/s in 10 s at 8 substeps (480 substeps a second). A rigid
//! body, a tetrahedron or a lattice, is not on a line, so its inertia is
//! used as it is; one whose inertia is degenerate all the same (a
//! shape-matched capsule's particles on its axis) keeps the floor.
//!
//! **The angular momentum.** Read as `sum m r_i x v_i` at the substep's end
//! it is short of the body's: the particles were predicted along the
//! tangent, `x' + v h`, and pulled back onto the body's shape (to the
//! rotation `atan(omega h)` instead of `omega h`), so the velocity
//! `(x - x') / h` is a chord and its moment about the end positions `L
//! cos(atan(omega h))`. A shape-matched cube lost `omega^2 h^2 / 2` of its
//! spin a substep: 12 rad/s fell to 2.4 in 10 s at one substep. So the
//! angular momentum is carried over: the body's at the substep's start
//! (`start_turn`, from the rigid velocities the last substep left, about
//! the start positions) plus the moments of the velocity changes the passes
//! made about the end positions,
//!
//! ```text
//! L = sum m r'_i x v'_i + sum m r_i x (v_i - v'_i)
//!   = sum m r_i x v_i - sum m (r_i - r'_i) x v'_i
//! ```
//!
//! (primes at the start, `v'_i = u + omega' x r'_i`). The fit's pulls,
//! which carry no moment about the positions they make, add nothing to it,
//! so a lattice turning freely keeps `L` to rounding; contacts and friction
//! add their moments. A tetrahedron is left to the first form
//! (`start = 0`): its sticks' pulls, each along its stick as it was, do
//! carry a moment about the end positions, and with its sticks' velocity
//! stage the first form was measured to keep its spin (12 rad/s to 12.0
//! over 10 s at 1, 8 and 32 substeps; the second form doubled it).
//!
//! **The momentum.** The shape's projections (sticks, fit) keep the centre
//! of mass in exact arithmetic, but each move of a particle is rounded to
//! its position's f32 ulp (3e-8 m at 0.5 m), and the velocity read from
//! positions divides that by `h`: a free spinning cube's momentum random
//! walked, and its centre drifted 3 mm in 10 s at 8 substeps, 2 to 9 cm at
//! 32. So the centre's net move by those projections (`Carry::drift`,
//! summed in `f64`) is taken out of the body's velocity: it stays a
//! rounding of its position and does not become a speed.

use crate::constraints::shape_match::{ClusterSet, rigid_inertia_about, weight};
use crate::particles::ParticlesMut;
use glam::{DVec3, Mat3, Vec3};

/// What a rigid body's velocity stage carries over the passes of a
/// substep (see the module's docs).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Carry {
    /// A shape-matched body's turn as the substep started (`omega h`, from
    /// [`start_turn`]); zero for a tetrahedron.
    pub turn: Vec3,
    /// How far the shape's own projections moved the centre of mass this
    /// substep: nothing but their rounding, which is not a velocity.
    pub drift: Vec3,
}

/// A rigid body's motion over the substep: its centre of mass, the
/// centre's displacement and the turn (radians, as a vector).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Motion {
    pub center: Vec3,
    pub displacement: Vec3,
    pub turn: Vec3,
}

impl Motion {
    /// The displacement of the body's point `q`.
    pub fn at(&self, q: Vec3) -> Vec3 {
        self.displacement + self.turn.cross(q - self.center)
    }
}

/// Whether cluster `k` turns freely (no pinned member).
fn free(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> bool {
    clusters.members(k).all(|m| p.inv_mass[clusters.particle[m] as usize] > 0.0)
}

/// The inverse of an inertia tensor; `None` for none.
fn invert(inertia: Mat3) -> Option<Mat3> {
    (inertia.determinant().abs() >= 1.0e-30).then(|| inertia.inverse()).filter(|i| i.is_finite())
}

/// The centre of mass of cluster `k`, summed in `f64` so that the
/// difference of two is the particles' net move to f32's rounding. Each
/// position counts what rounding took from the substep's moves (the
/// residual of `ParticlesMut::move_by`), as the velocities will: a move
/// kept whole is not a rounding of the centre, and taking it out of the
/// velocity as one would count it twice.
pub(crate) fn center_f64(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> DVec3 {
    let (mut mass, mut sum) = (0.0f64, DVec3::ZERO);
    for m in clusters.members(k) {
        let i = clusters.particle[m] as usize;
        let w = f64::from(weight(p.inv_mass[i]));
        mass += w;
        let lost = DVec3::new(f64::from(p.ex[i]), f64::from(p.ey[i]), f64::from(p.ez[i]));
        sum += (p.position(i).as_dvec3() + lost) * w;
    }
    sum / mass
}

/// Cluster `k`'s turn over the substep (`omega h`) as its particles'
/// velocities give it, about their substep-start positions: call after the
/// prediction, when those are the previous positions and the velocities
/// are the ones predicted with. Zero for a cluster that does not turn.
pub(crate) fn start_turn(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> Vec3 {
    if !free(clusters, k, p) {
        return Vec3::ZERO;
    }
    let members = clusters.members(k);
    let origin = p.previous(clusters.particle[members.start] as usize);
    let (mut mass, mut center, mut displacement) = (0.0f32, Vec3::ZERO, Vec3::ZERO);
    for m in members.clone() {
        let i = clusters.particle[m] as usize;
        let w = weight(p.inv_mass[i]);
        mass += w;
        center += (p.previous(i) - origin) * w;
        displacement += p.displacement(i) * w;
    }
    center = origin + center / mass;
    displacement /= mass;
    let at = |m: usize| {
        let i = clusters.particle[m] as usize;
        (weight(p.inv_mass[i]), p.previous(i) - center)
    };
    let Some(inv_inertia) = invert(rigid_inertia_about(members.clone().map(at)).1) else {
        return Vec3::ZERO;
    };
    let mut momentum = Vec3::ZERO;
    for m in members {
        let i = clusters.particle[m] as usize;
        momentum += (p.previous(i) - center).cross(p.displacement(i) - displacement) * weight(p.inv_mass[i]);
    }
    inv_inertia * momentum
}

/// The rigid motion with the momentum and the angular momentum (see the
/// module's docs) of cluster `k`'s particles, with what the substep carried
/// (`carry`); `None` for a cluster with a pinned member (it does not turn
/// freely) or without inertia.
pub(crate) fn motion(clusters: &ClusterSet, k: usize, carry: Carry, p: &ParticlesMut) -> Option<Motion> {
    let start = carry.turn;
    if !free(clusters, k, p) {
        return None;
    }
    let members = clusters.members(k);
    // Sums relative to the first member, so they stay small wherever the
    // body is.
    let origin = p.position(clusters.particle[members.start] as usize);
    let (mut mass, mut center, mut was, mut displacement) = (0.0f32, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
    for m in members.clone() {
        let i = clusters.particle[m] as usize;
        let w = weight(p.inv_mass[i]);
        mass += w;
        center += (p.position(i) - origin) * w;
        was += (p.previous(i) - origin) * w;
        displacement += p.displacement(i) * w;
    }
    let (center, was) = (origin + center / mass, origin + was / mass);
    displacement = displacement / mass - carry.drift;
    let at = |m: usize| {
        let i = clusters.particle[m] as usize;
        (weight(p.inv_mass[i]), p.position(i) - center)
    };
    let inv_inertia = invert(rigid_inertia_about(members.clone().map(at)).1)?;
    let mut momentum = Vec3::ZERO;
    for m in members {
        let i = clusters.particle[m] as usize;
        let (r, r_was) = (p.position(i) - center, p.previous(i) - was);
        let moment = r.cross(p.displacement(i) - displacement) - (r - r_was).cross(start.cross(r_was));
        momentum += moment * weight(p.inv_mass[i]);
    }
    Some(Motion { center, displacement, turn: inv_inertia * momentum })
}

/// Replaces cluster `k`'s velocities by its rigid motion (see the module's
/// docs); `carry` as for [`motion`].
pub fn rigidify(clusters: &ClusterSet, k: usize, carry: Carry, p: &mut ParticlesMut) {
    let Some(m) = motion(clusters, k, carry, p) else { return };
    for member in clusters.members(k) {
        let i = clusters.particle[member] as usize;
        p.set_displacement(i, m.at(p.position(i)));
    }
}
