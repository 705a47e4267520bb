//! The whole ragdoll's angular momentum carried over a substep.
//!
//! A ragdoll's particles are predicted along their velocities, `x' + v' h`,
//! and the passes pull them back onto the bones, so a body turning at
//! `omega` is turned by `atan(omega h)`, not `omega h`: the velocity read
//! back, `(x - x') / h`, is a chord, and its moment about the end positions
//! is `cos(atan(omega h))` of the body's angular momentum. A limp humanoid
//! spun at 3 rad/s in zero gravity kept 61 % of its angular momentum over
//! 10 s at one substep of 1/60 s (tests/spin.rs). The bone lengths stage
//! and the lodged contacts' shifts move positions and substep-start
//! positions alike, without a velocity; read about the positions they
//! make, the velocities' moment changed with them too.
//!
//! So, as `rigid::motion` does for a rigid body, the angular momentum about
//! the centre of mass is carried over: the body's at the substep's start
//! (`L'`, from its start positions and the velocities it was predicted
//! with), plus the moments of the velocity changes the passes made about
//! the end positions,
//!
//! ```text
//! L = L' + sum m r_i x (v_i - v'_i) = sum m r_i x v_i + (L' - sum m r_i x v'_i)
//! ```
//!
//! (`r` from the centre of mass at the end, `v'` before the passes). The
//! bracket, what reading `L` from the end positions lost, goes back as a
//! turn of the whole body about its centre of mass, `I^-1` of it: no
//! momentum, and each bone's stage after it (`motion`) keeps it. The fits'
//! pulls carry no moment about the positions they make.
//!
//! Only in a substep in which nothing touched the body (no collider, no
//! other body): the bone lengths stage puts back what an impact
//! compressed, centimetres, and given back as a turn of the whole body
//! the moment of that move was energy (a limp drop gained 0.30 J in a
//! frame, tests/ragdoll.rs). A body in contact has its spin changed by
//! the contacts far more than by the chord. A ragdoll with a pinned
//! particle is left alone (its pin holds it, and the body's inertia about
//! its centre of mass says nothing about that).

use crate::constraints::shape_match::weight;
use crate::particles::ParticlesMut;
use glam::{DMat3, DVec3};

/// The centre of mass of the first `n` particles at `x(i)`, and `sum m r x
/// v` about it with velocities `v(i)`, in `f64`; `None` with a pinned one.
fn moment(
    p: &ParticlesMut,
    n: usize,
    x: impl Fn(usize) -> DVec3,
    v: impl Fn(usize) -> DVec3,
) -> Option<(DVec3, DVec3)> {
    let (mut mass, mut center) = (0.0f64, DVec3::ZERO);
    for i in 0..n {
        if p.inv_mass[i] == 0.0 {
            return None;
        }
        let m = f64::from(weight(p.inv_mass[i]));
        mass += m;
        center += x(i) * m;
    }
    let center = center / mass;
    Some((center, (0..n).map(|i| (x(i) - center).cross(v(i)) * f64::from(weight(p.inv_mass[i]))).sum()))
}

/// `L'`: the angular momentum of the ragdoll's first `n` particles about
/// their centre of mass as the substep starts. Call after the prediction,
/// when the start positions are the previous ones and the velocities those
/// predicted with.
pub(crate) fn start(p: &ParticlesMut, n: usize) -> Option<DVec3> {
    moment(p, n, |i| p.previous(i).as_dvec3(), |i| p.velocity(i).as_dvec3()).map(|(_, l)| l)
}

/// What reading the angular momentum from the end positions will lose,
/// `L' - sum m r_i x v'_i`, and the centre of mass it is about: call after
/// the passes, before the velocities are read (they are still `v'`).
pub(crate) fn lost(p: &ParticlesMut, n: usize, start: DVec3) -> Option<(DVec3, DVec3)> {
    let (center, moment) = moment(p, n, |i| p.position(i).as_dvec3(), |i| p.velocity(i).as_dvec3())?;
    Some((start - moment, center))
}

/// Gives `lost` back to the first `n` particles as a turn of the whole
/// body about their centre of mass `center` (after the velocities are
/// read; the positions are those [`lost`] read).
pub(crate) fn give_back(p: &mut ParticlesMut, n: usize, (lost, center): (DVec3, DVec3)) {
    let mut inertia = DMat3::ZERO;
    for i in 0..n {
        let r = p.position(i).as_dvec3() - center;
        let m = f64::from(weight(p.inv_mass[i]));
        inertia +=
            (DMat3::from_diagonal(DVec3::splat(r.length_squared())) - DMat3::from_cols(r * r.x, r * r.y, r * r.z)) * m;
    }
    if inertia.determinant().abs() < 1.0e-30 {
        return;
    }
    let omega = inertia.inverse() * lost;
    if !omega.is_finite() {
        return;
    }
    for i in 0..n {
        let r = p.position(i).as_dvec3() - center;
        p.set_velocity(i, p.velocity(i) + omega.cross(r).as_vec3());
    }
}
