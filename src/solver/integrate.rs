//! Verlet prediction, time-corrected.
//!
//! With the velocity of the last substep `v = (x - x_prev) / h_prev`, damping
//! factor `d` and acceleration `a`:
//!
//! ```text
//! v' = d * v + a * (h_prev + h) / 2        (velocity at the next half step)
//! x' = x + v' * h
//!    = x + (x - x_prev) * d * h / h_prev + a * h * (h_prev + h) / 2
//! ```
//!
//! With a constant `h` and `d = 1` this is Jakobsen's `x' = 2x - x* + a h^2`;
//! the time correction keeps it exact for constant acceleration when `h`
//! changes between steps (the plain `a h^2` of "time-corrected Verlet" is not).
//! Pinned particles (inverse mass 0) do not move: only the engine moves them.

use crate::particles::ParticlesMut;
use glam::Vec3;

/// `x_prev <- x`, `x <- x'` for every particle of the range.
///
/// One coordinate at a time, and a pinned particle's `x` stored back rather
/// than skipped: the loops have no branch and the compiler runs them on
/// whole vectors (the same operations per particle, so the same bits).
pub fn predict(p: &mut ParticlesMut, velocity_scale: f32, displacement: Vec3) {
    let w = &*p.inv_mass;
    for (x, px, a) in [
        (&mut *p.x, &mut *p.px, displacement.x),
        (&mut *p.y, &mut *p.py, displacement.y),
        (&mut *p.z, &mut *p.pz, displacement.z),
    ] {
        for ((x, px), &w) in x.iter_mut().zip(px.iter_mut()).zip(w) {
            let now = *x;
            let next = now + (now - *px) * velocity_scale + a;
            *px = now;
            *x = if w > 0.0 { next } else { now };
        }
    }
}
