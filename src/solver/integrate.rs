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
pub fn predict(p: &mut ParticlesMut, velocity_scale: f32, displacement: Vec3) {
    for i in 0..p.len() {
        let moving = p.inv_mass[i] > 0.0;
        let (x, y, z) = (p.x[i], p.y[i], p.z[i]);
        let nx = x + (x - p.px[i]) * velocity_scale + displacement.x;
        let ny = y + (y - p.py[i]) * velocity_scale + displacement.y;
        let nz = z + (z - p.pz[i]) * velocity_scale + displacement.z;
        p.px[i] = x;
        p.py[i] = y;
        p.pz[i] = z;
        if moving {
            p.x[i] = nx;
            p.y[i] = ny;
            p.z[i] = nz;
        }
    }
}
