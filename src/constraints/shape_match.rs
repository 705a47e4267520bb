//! Shape matching (Mueller et al. 2005, "Meshless deformations based on shape
//! matching"): a cluster of particles is pulled to the rigid
//! placement of its rest shape that fits it best.
//!
//! With masses `m_i`, rest offsets `r_i` from the rest centre of mass and
//! current offsets `d_i = x_i - c` from the current one,
//!
//! ```text
//! A     = sum m_i d_i r_i^T          the shape-matching matrix
//! R     = rotation part of A         (polar decomposition)
//! g_i   = c + R r_i                  the goal of particle i
//! ```
//!
//! Moving every particle to its goal is the mass-weighted closest rigid
//! placement of the cluster: linear momentum is kept and the cluster is exactly
//! rigid afterwards, however it is shaped (collinear clusters keep their
//! previous roll).
//!
//! The rotation is extracted as in Mueller, Bender, Chentanez, Macklin 2016,
//! "A Robust Method to Extract the Rotational Part of Deformations": starting
//! from the previous step's rotation, `R` turns by
//! `omega = sum_k r_k x a_k / |sum_k r_k . a_k|` (columns of `R` and `A`) until
//! the turn is negligible. It never leaves the rotations (no reflections), is
//! continuous from frame to frame, and is defined for flat and collinear
//! clusters, unlike the 2D atan2 average of the seed article (its erratum).

use crate::particles::ParticlesMut;
use glam::{DVec3, Mat3, Quat, Vec3};
use std::sync::Arc;

/// Turns of the rotation extraction per projection (it starts from the last
/// rotation, so few are needed).
#[cfg(test)]
const EXTRACT_ITERATIONS: usize = 8;
/// Largest turn of one extraction iteration (radians): far from the fit the
/// step `omega` overshoots (its denominator goes to 0 at 90 degrees).
const MAX_TURN: f32 = 1.0;
/// The extraction stops after a turn smaller than this (radians; 10 um at
/// the end of a 1 m bone): the next would be below the f32 rounding of the
/// sums. It used to go on until a turn fell below 1e-7, which the rounding
/// rarely allows: 83 % of a ragdoll's fits ran all `EXTRACT_ITERATIONS`,
/// turning 1e-7 to 1e-5 rad back and forth, and extraction was 38 % of the
/// ragdoll's step. Now fits take 2.8 iterations on average instead of 6.8,
/// with the same bone lengths, limits and rest times over 30 random drops
/// (tests/ragdoll.rs) and the same spin of an impulsed box (tests/rigid.rs).
#[cfg(test)]
const CONVERGED_TURN: f32 = 1.0e-5;
/// Inertia given to a cluster about its own line, relative to its largest.
pub(crate) const LINE_INERTIA: f32 = 1.0e-4;
/// A rigid body's inertia whose determinant is below this share of
/// `(trace / 3)^3` is taken as degenerate (see
/// [`ClusterSet::rigid_mass_properties`]): a smallest moment about 1e-6 of
/// the others, far below any solid's (the flattest tetrahedron's is 0.04 of
/// its largest) and above a line's, which is f32 rounding (1e-7).
const RIGID_INERTIA: f32 = 1.0e-6;
/// Weight of a pinned particle (inverse mass 0) in the fit.
pub(crate) const PINNED_MASS: f32 = 1.0e6;
/// Smallest inverse mass the fits and cluster moves use: no particle weighs
/// more than a pinned one. The C ABI accepts any inverse mass >= 0, and one
/// of 1e-38 (1e38 kg) overflowed the fit's f32 sums to infinity and the
/// rotation to NaN (found by the fuzz driver).
pub(crate) const MIN_INV_MASS: f32 = 1.0 / PINNED_MASS;

/// A body's clusters, members stored flat (CSR).
///
/// The members, their rest positions and the rest frames are shared by
/// every clone (copied only when a clone adds a cluster): the ragdolls of
/// one [`Skeleton`](crate::Skeleton) hold one copy of them. The rotations
/// and rest inertias are each body's own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterSet {
    /// Members of cluster `k` are `start[k]..start[k + 1]`.
    pub start: Arc<Vec<u32>>,
    /// Particle of each member, an index within the body.
    pub particle: Arc<Vec<u32>>,
    /// Rest position of each member.
    pub rest: Arc<Vec<Vec3>>,
    /// Each cluster's rotation from its rest shape (state, warm start).
    pub rotation: Vec<Quat>,
    /// Each cluster's rest frame: its world frame is `rotation * frame`.
    pub frame: Arc<Vec<Quat>>,
    /// Each cluster's mass and inverse inertia in its rest frame, from
    /// [`ClusterSet::update_rest_inertia`]; empty when not kept, and then
    /// taken from the particles at each use.
    pub rest_inertia: Vec<RestInertia>,
}

/// A cluster's mass and inverse inertia tensor about its centre of mass, in
/// its rest frame. Its members keep their rest offsets up to the solver's
/// tolerance, so the tensor now is `R I_rest^-1 R^T` for the cluster's
/// rotation `R`: a rotated constant instead of a sum over the members and a
/// 3x3 inverse at every use.
///
/// A cluster with one pinned member (a ragdoll held by one particle) is a
/// body on a ball joint: it cannot move, but it turns about the pinned
/// particle, its *pivot*, with the inertia of its other members about it.
/// Held as immovable, the bones hung from it and the clusters' fits fought
/// over the shared joint particles and pumped energy into the body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RestInertia {
    pub mass: f32,
    /// The centre of mass of the rest shape; a pivot's rest position.
    pub rest_center: Vec3,
    /// About `rest_center`; `None` for a cluster with two or more pinned
    /// members (it does not turn freely) or without inertia.
    pub inv_inertia: Option<Mat3>,
    /// The member a cluster with one pinned member turns about.
    pub pivot: Option<u32>,
}

/// How cluster `k` can move now (see [`ClusterSet::mobility`]).
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Mobility {
    /// Its centre of mass, or its pivot, in the world and at rest.
    pub center: Vec3,
    pub rest_center: Vec3,
    /// 0 for a held cluster.
    pub inv_mass: f32,
    /// About `center`; zero for a cluster that cannot turn.
    pub inv_inertia: Mat3,
}

/// A cluster's current fit, relative to its first member.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// Centre of mass now.
    pub center: Vec3,
    /// Centre of mass of the rest shape.
    pub rest_center: Vec3,
}

impl ClusterSet {
    /// Adds a cluster over `members` (body particle, rest position) with a
    /// rest frame; returns its index.
    pub fn push(&mut self, members: &[(u32, Vec3)], frame: Quat) -> u32 {
        let start = Arc::make_mut(&mut self.start);
        if start.is_empty() {
            start.push(0);
        }
        let (particle, rest) = (Arc::make_mut(&mut self.particle), Arc::make_mut(&mut self.rest));
        for &(i, r) in members {
            particle.push(i);
            rest.push(r);
        }
        start.push(particle.len() as u32);
        self.rotation.push(Quat::IDENTITY);
        Arc::make_mut(&mut self.frame).push(frame);
        (self.rotation.len() - 1) as u32
    }

    /// Number of clusters.
    pub fn len(&self) -> usize {
        self.rotation.len()
    }

    /// The member range of cluster `k`.
    pub fn members(&self, k: usize) -> std::ops::Range<usize> {
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// Projects every cluster once, in order (the ragdolls' bones take
    /// theirs in lanes: `ragdoll::fits`).
    #[cfg(test)]
    pub fn project(&mut self, p: &mut ParticlesMut) {
        for k in 0..self.len() {
            self.project_one_by(k, p, 1.0);
        }
    }

    /// Moves the members of cluster `k` the fraction `alpha` of the way to
    /// their goals (1: all the way); pinned members stay.
    ///
    /// Offsets are taken from the first member and the move is added as a
    /// difference, so a cluster that already fits is not touched: rewriting
    /// absolute positions would round them every pass, and in a Verlet
    /// scheme that rounding becomes a velocity (a drift far from the origin).
    #[cfg(test)]
    pub fn project_one_by(&mut self, k: usize, p: &mut ParticlesMut, alpha: f32) {
        self.project_one_with(k, p, alpha, extract_rotation);
    }

    /// As [`ClusterSet::project_one_by`], for a rigid body: the rotation
    /// fitted to convergence ([`extract_rotation_exact`]).
    pub fn project_rigid_by(&mut self, k: usize, p: &mut ParticlesMut, alpha: f32) {
        self.project_one_with(k, p, alpha, extract_rotation_exact);
    }

    fn project_one_with(&mut self, k: usize, p: &mut ParticlesMut, alpha: f32, extract: Extract) {
        let members = self.members(k);
        let fit = self.fit_with(k, p, extract);
        let r = self.rotation[k];
        let origin = p.position(self.particle[members.start] as usize);
        let rest_origin = self.rest[members.start];
        for m in members {
            let i = self.particle[m] as usize;
            if p.inv_mass[i] > 0.0 {
                let now = p.position(i) - origin - fit.center;
                let goal = r * (self.rest[m] - rest_origin - fit.rest_center);
                p.set_position(i, p.position(i) + (goal - now) * alpha);
            }
        }
    }

    /// The centres of mass of cluster `k` now and at rest, relative to its
    /// first member.
    pub fn centers(&self, k: usize, p: &ParticlesMut) -> Fit {
        let members = self.members(k);
        let origin = p.position(self.particle[members.start] as usize);
        let rest_origin = self.rest[members.start];
        // Sums in f64: the projection moves every member by its offset from
        // these centres, and a total mass off by f32 rounding (1e-6 over a
        // few hundred members) would shift the centre of mass by that much of
        // its distance from the first member every pass: a steady drift of
        // the body's momentum while it turns.
        let (mut mass, mut center, mut rest_center) = (0.0f64, DVec3::ZERO, DVec3::ZERO);
        for m in members.clone() {
            let i = self.particle[m] as usize;
            let w = f64::from(weight(p.inv_mass[i]));
            mass += w;
            center += (p.position(i) - origin).as_dvec3() * w;
            rest_center += (self.rest[m] - rest_origin).as_dvec3() * w;
        }
        Fit { center: (center / mass).as_vec3(), rest_center: (rest_center / mass).as_vec3() }
    }

    /// The centre of mass of cluster `k` now and at rest (world and rest
    /// coordinates). With the rest inertia kept the rest centre is kept too
    /// and the sum is in `f32` (a bone's few members: no drift to fear, see
    /// `centers`). For `rigid_point`'s reference.
    #[cfg(test)]
    pub fn center_now_and_rest(&self, k: usize, p: &ParticlesMut) -> (Vec3, Vec3) {
        let members = self.members(k);
        let origin = p.position(self.particle[members.start] as usize);
        let Some(rest) = self.rest_inertia.get(k) else {
            let fit = self.centers(k, p);
            return (origin + fit.center, self.rest[members.start] + fit.rest_center);
        };
        let mut center = Vec3::ZERO;
        for m in members {
            let i = self.particle[m] as usize;
            center += (p.position(i) - origin) * weight(p.inv_mass[i]);
        }
        (origin + center / rest.mass, rest.rest_center)
    }

    /// Updates the rotation of a rigid body's cluster `k` to the best fit
    /// of the particles (see [`ClusterSet::project_rigid_by`]) and returns
    /// the centres, relative to the first member.
    pub fn fit_rigid(&mut self, k: usize, p: &ParticlesMut) -> Fit {
        self.fit_with(k, p, extract_rotation_exact)
    }

    /// Updates the rotation of cluster `k` to the best fit of the particles
    /// by `extract` and returns the centres, relative to the first member.
    fn fit_with(&mut self, k: usize, p: &ParticlesMut, extract: Extract) -> Fit {
        let members = self.members(k);
        let origin = p.position(self.particle[members.start] as usize);
        let rest_origin = self.rest[members.start];
        let Fit { center, rest_center } = self.centers(k, p);
        let mut a = Mat3::ZERO;
        for m in members {
            let i = self.particle[m] as usize;
            let w = weight(p.inv_mass[i]);
            let d = (p.position(i) - origin - center) * w;
            let r = self.rest[m] - rest_origin - rest_center;
            a.x_axis += d * r.x;
            a.y_axis += d * r.y;
            a.z_axis += d * r.z;
        }
        self.rotation[k] = extract(&a, self.rotation[k]);
        Fit { center, rest_center }
    }

    /// Mass and inertia tensor of cluster `k` about `center`. A cluster on a
    /// line has no inertia about it: a little (`LINE_INERTIA` of the largest
    /// `m r^2`) keeps the inverse finite, and its roll is then not turned
    /// (the ragdolls' velocity stage sums the same in `ragdoll::motion`).
    #[cfg(test)]
    pub(crate) fn mass_properties(&self, k: usize, p: &ParticlesMut, center: Vec3) -> (f32, Mat3) {
        let members = self.members(k).map(|m| {
            let i = self.particle[m] as usize;
            (weight(p.inv_mass[i]), p.position(i) - center)
        });
        let mass = self.members(k).map(|m| weight(p.inv_mass[self.particle[m] as usize])).sum();
        (mass, inertia_about(members))
    }

    /// Mass and inertia tensor of cluster `k` about `center` as a rigid
    /// body's: without the `LINE_INERTIA` floor, which turned by the rigid
    /// velocity stage every substep shrank a body's angular momentum by its
    /// share (a cube spinning freely at 12 rad/s slowed to 5.8 rad/s in 10 s
    /// at 8 substeps). A cluster whose inertia is degenerate all the same
    /// (on a line: a capsule's shape-matched particles) keeps the floor.
    pub(crate) fn rigid_mass_properties(&self, k: usize, p: &ParticlesMut, center: Vec3) -> (f32, Mat3) {
        let members = self.members(k).map(|m| {
            let i = self.particle[m] as usize;
            (weight(p.inv_mass[i]), p.position(i) - center)
        });
        rigid_inertia_about(members)
    }

    /// The inertia tensor of cluster `k`'s free members about `center` (a
    /// pivot's pinned member sits at its centre, and its `PINNED_MASS`
    /// would swamp the `LINE_INERTIA` floor).
    pub(crate) fn free_inertia(&self, k: usize, p: &ParticlesMut, center: Vec3) -> Mat3 {
        let free = self.members(k).map(|m| self.particle[m] as usize).filter(|&i| p.inv_mass[i] > 0.0);
        inertia_about(free.map(|i| (weight(p.inv_mass[i]), p.position(i) - center)))
    }

    /// The member of cluster `k` it turns about when exactly one is pinned
    /// (see [`RestInertia`]); `Err(())` for two or more.
    pub(crate) fn pivot(&self, k: usize, p: &ParticlesMut) -> Result<Option<usize>, ()> {
        let mut pinned = self.members(k).filter(|&m| p.inv_mass[self.particle[m] as usize] == 0.0);
        match (pinned.next(), pinned.next()) {
            (None, _) => Ok(None),
            (Some(m), None) => Ok(Some(m)),
            _ => Err(()),
        }
    }

    /// Keeps every cluster's mass and rest inertia (see [`RestInertia`]) for
    /// the particles' inverse masses now; call again when they change.
    pub fn update_rest_inertia(&mut self, p: &ParticlesMut) {
        self.rest_inertia.clear();
        for k in 0..self.len() {
            let members = self.members(k);
            let pivot = self.pivot(k, p);
            let turns = pivot.is_ok();
            let (mut mass, mut center) = (0.0f32, Vec3::ZERO);
            for m in members.clone() {
                let w = weight(p.inv_mass[self.particle[m] as usize]);
                mass += w;
                center += self.rest[m] * w;
            }
            let (center, pivot) = match pivot {
                Ok(Some(m)) => (self.rest[m], Some(m as u32)),
                _ => (center / mass, None),
            };
            let free = members.filter(|&m| p.inv_mass[self.particle[m] as usize] > 0.0);
            let inertia =
                inertia_about(free.map(|m| (weight(p.inv_mass[self.particle[m] as usize]), self.rest[m] - center)));
            let inv_inertia = (turns && inertia.determinant().abs() >= 1.0e-30).then(|| inertia.inverse());
            self.rest_inertia.push(RestInertia { mass, rest_center: center, inv_inertia, pivot });
        }
    }

    /// How cluster `k` moves now: free about its centre of mass
    /// (`center_now` from [`ClusterSet::center_now_and_rest`]), turning
    /// about its pivot, or held.
    #[cfg(test)]
    pub(crate) fn mobility(&self, k: usize, p: &ParticlesMut, center_now: Vec3, rest_center: Vec3) -> Mobility {
        let held = Mobility { center: center_now, rest_center, inv_mass: 0.0, inv_inertia: Mat3::ZERO };
        if let Some(rest) = self.rest_inertia.get(k) {
            let r = Mat3::from_quat(self.rotation[k]);
            let Some(inv) = rest.inv_inertia else { return held };
            let inv_inertia = r * inv * r.transpose();
            return match rest.pivot {
                Some(m) => Mobility {
                    center: p.position(self.particle[m as usize] as usize),
                    rest_center: rest.rest_center,
                    inv_mass: 0.0,
                    inv_inertia,
                },
                None => Mobility { center: center_now, rest_center, inv_mass: 1.0 / rest.mass, inv_inertia },
            };
        }
        let (center, rest_center, inv_mass) = match self.pivot(k, p) {
            Err(()) => return held,
            Ok(Some(m)) => (p.position(self.particle[m] as usize), self.rest[m], 0.0),
            Ok(None) => (center_now, rest_center, 1.0 / self.mass_properties(k, p, center_now).0),
        };
        let inertia = self.free_inertia(k, p, center);
        if inertia.determinant().abs() < 1.0e-30 {
            return held;
        }
        Mobility { center, rest_center, inv_mass, inv_inertia: inertia.inverse() }
    }

    /// World rotation of cluster `k`'s frame.
    pub fn world_rotation(&self, k: usize) -> Quat {
        self.rotation[k] * self.frame[k]
    }
}

/// The inertia tensor of masses `w` at offsets `r` from their centre, with
/// the `LINE_INERTIA` floor (see [`line_inertia`]).
fn inertia_about(members: impl Iterator<Item = (f32, Vec3)>) -> Mat3 {
    let (inertia, mass, extent) = exact_inertia_about(members);
    inertia + line_inertia(mass, extent)
}

/// The `LINE_INERTIA` floor for a mass whose largest squared offset from
/// its centre is `extent`.
pub(crate) fn line_inertia(mass: f32, extent: f32) -> Mat3 {
    Mat3::from_diagonal(Vec3::splat(LINE_INERTIA * mass * extent.max(1.0e-8)))
}

/// The inertia tensor `sum m (r^2 1 - r r^T)` of `(m, r)`, their mass and
/// largest `r^2`.
fn exact_inertia_about(members: impl Iterator<Item = (f32, Vec3)>) -> (Mat3, f32, f32) {
    let (mut mass, mut inertia, mut extent) = (0.0f32, Mat3::ZERO, 0.0f32);
    for (w, r) in members {
        let r2 = r.length_squared();
        inertia += (Mat3::from_diagonal(Vec3::splat(r2)) - Mat3::from_cols(r * r.x, r * r.y, r * r.z)) * w;
        mass += w;
        extent = extent.max(r2);
    }
    (inertia, mass, extent)
}

/// Mass and inertia tensor of `(m, r)` as a rigid body's (see
/// [`ClusterSet::rigid_mass_properties`]).
pub(crate) fn rigid_inertia_about(members: impl Iterator<Item = (f32, Vec3)>) -> (f32, Mat3) {
    let (inertia, mass, extent) = exact_inertia_about(members);
    // Degenerate: its determinant below `RIGID_INERTIA` of what three equal
    // moments of its trace would give.
    let mean = (inertia.x_axis.x + inertia.y_axis.y + inertia.z_axis.z) / 3.0;
    if inertia.determinant() >= RIGID_INERTIA * mean * mean * mean {
        return (mass, inertia);
    }
    (mass, inertia + line_inertia(mass, extent))
}

pub(crate) fn weight(inv_mass: f32) -> f32 {
    if inv_mass > 0.0 { 1.0 / inv_mass.max(MIN_INV_MASS) } else { PINNED_MASS }
}

/// The rotation closest to `a`, found by turning `q` (Mueller et al. 2016).
#[cfg(test)]
pub fn extract_rotation(a: &Mat3, mut q: Quat) -> Quat {
    for _ in 0..EXTRACT_ITERATIONS {
        let r = Mat3::from_quat(q);
        let torque = r.x_axis.cross(a.x_axis) + r.y_axis.cross(a.y_axis) + r.z_axis.cross(a.z_axis);
        let alignment = (r.x_axis.dot(a.x_axis) + r.y_axis.dot(a.y_axis) + r.z_axis.dot(a.z_axis)).abs();
        let omega = torque / (alignment + 1.0e-9);
        let angle = omega.length();
        // Converged; or an `a` beyond f32 (a non-finite turn): the rotation
        // stays as it was rather than become NaN.
        if !(angle >= 1.0e-7 && angle.is_finite()) {
            break;
        }
        q = (Quat::from_axis_angle(omega / angle, angle.min(MAX_TURN)) * q).normalize();
        // A turn this small was the last that mattered.
        if angle < CONVERGED_TURN {
            break;
        }
    }
    q
}

/// A rotation extraction: the rotation closest to `a`, from `q`.
type Extract = fn(&Mat3, Quat) -> Quat;

/// Newton steps of [`extract_rotation_exact`] at most.
const EXACT_ITERATIONS: usize = 8;
/// [`extract_rotation_exact`] takes Newton steps once a turn is below this
/// (radians); farther, the Hessian below need not be positive.
const NEWTON_TURN: f32 = 0.1;

/// The rotation closest to `a`, found by turning `q` to convergence, for a
/// rigid body's fit.
///
/// [`extract_rotation`]'s step `omega = sum r_k x a_k / |sum r_k . a_k|`
/// turns a cluster with equal second moments by 2/3 of the way (`a = s R`:
/// the torque is `2 s theta`, the denominator `3 s`), so its fit, warm
/// started from the last substep's, stops short of the particles by up to
/// half its last turn (`CONVERGED_TURN`). The goals then lag the body every
/// projection, and that lag is taken from its spin: a shape-matched cube
/// spinning freely at 12 rad/s stopped within 10 s at 32 substeps.
///
/// Here the step is Newton's: the fit `tr(R^T A)` has the gradient `tau =
/// sum r_k x a_k` and, near its maximum, the Hessian `tr(B) 1 - B` with
/// `B` the symmetric part of `A R^T` (the particles' second moments: the
/// Hessian is their inertia tensor), so `omega = (tr(B) 1 - B)^-1 tau`
/// converges quadratically. Far from the fit, or where that Hessian is
/// degenerate (a cluster on a line), the step is [`extract_rotation`]'s.
pub fn extract_rotation_exact(a: &Mat3, mut q: Quat) -> Quat {
    for _ in 0..EXACT_ITERATIONS {
        let r = Mat3::from_quat(q);
        let torque = r.x_axis.cross(a.x_axis) + r.y_axis.cross(a.y_axis) + r.z_axis.cross(a.z_axis);
        let alignment = (r.x_axis.dot(a.x_axis) + r.y_axis.dot(a.y_axis) + r.z_axis.dot(a.z_axis)).abs();
        let mut omega = torque / (alignment + 1.0e-9);
        if omega.length() < NEWTON_TURN {
            let b = *a * r.transpose();
            let b = (b + b.transpose()) * 0.5;
            let trace = b.x_axis.x + b.y_axis.y + b.z_axis.z;
            let hessian = Mat3::from_diagonal(Vec3::splat(trace)) - b;
            let mean = trace * (2.0 / 3.0);
            if hessian.determinant() >= RIGID_INERTIA * mean * mean * mean {
                let newton = hessian.inverse() * torque;
                if newton.is_finite() && newton.length() < 2.0 * NEWTON_TURN {
                    omega = newton;
                }
            }
        }
        let angle = omega.length();
        // Every turn is taken, however small: stopping at a turn below 1e-7
        // rad (`extract_rotation` stops at 1e-7) always left the fit on the
        // same side of the particles, and a freely spinning lattice gained
        // 9 % in 10 s at 32 substeps (1e-7 of a 6e-3 rad turn a
        // projection). An `a` beyond f32 (a non-finite turn) leaves the
        // rotation as it was rather than make it NaN.
        if !(angle > 0.0 && angle.is_finite()) {
            break;
        }
        q = (Quat::from_axis_angle(omega / angle, angle.min(MAX_TURN)) * q).normalize();
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    #[test]
    fn extraction_recovers_a_rotation_from_a_stretched_matrix() {
        let truth = Quat::from_euler(glam::EulerRot::XYZ, 0.7, -0.4, 1.1);
        let a = Mat3::from_quat(truth) * Mat3::from_diagonal(Vec3::new(2.0, 0.5, 1.3));
        let mut q = Quat::IDENTITY;
        for _ in 0..20 {
            q = extract_rotation(&a, q);
        }
        assert!(q.angle_between(truth) < 1e-4, "{q:?} vs {truth:?}");
    }

    #[test]
    fn a_flat_cluster_has_one_rotation() {
        // Three particles, rotated and translated: the fit finds the rotation
        // (a flat cluster still fixes all three axes) and the goals are exact.
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let truth = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize(), 0.9);
        let moved: Vec<Vec3> = rest.iter().map(|&r| truth * r + Vec3::new(3.0, -1.0, 2.0)).collect();
        let mut store = Particles::default();
        store.append(&moved, |_| 1.0);
        let mut p = store.view(0..16);
        let mut set = ClusterSet::default();
        set.push(&[(0, rest[0]), (1, rest[1]), (2, rest[2])], Quat::IDENTITY);
        // Warm-started fits converge to the rotation; projecting then leaves
        // the rigid cluster where it is.
        for _ in 0..10 {
            set.fit_with(0, &p, extract_rotation);
        }
        set.project(&mut p);
        assert!(set.rotation[0].angle_between(truth) < 1e-4, "{:?} vs {truth:?}", set.rotation[0]);
        for (i, m) in moved.iter().enumerate() {
            assert!((p.position(i) - *m).length() < 1e-5, "{i} moved");
        }
    }

    #[test]
    fn projection_makes_a_cluster_rigid_and_keeps_momentum() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let bent = [Vec3::new(0.1, 0.0, 0.0), Vec3::new(1.3, 0.2, 0.0), Vec3::new(0.0, 0.8, 0.1), Vec3::Z];
        let mut store = Particles::default();
        store.append(&bent, |i| [1.0, 0.5, 2.0, 1.0][i]);
        let mut p = store.view(0..16);
        let mass = |p: &ParticlesMut| -> Vec3 { (0..4).map(|i| p.position(i) / p.inv_mass[i]).sum() };
        let before = mass(&p);
        let mut set = ClusterSet::default();
        set.push(&[(0, rest[0]), (1, rest[1]), (2, rest[2]), (3, rest[3])], Quat::IDENTITY);
        set.project(&mut p);
        // Rigid: every pairwise distance is the rest one.
        for a in 0..4 {
            for b in 0..4 {
                let d = (p.position(a) - p.position(b)).length();
                assert!((d - (rest[a] - rest[b]).length()).abs() < 1e-5);
            }
        }
        // The mass-weighted centre did not move.
        assert!((mass(&p) - before).length() < 1e-5);
    }
}
