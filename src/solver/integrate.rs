//! Prediction and the velocities a substep leaves: leapfrog (Verlet in
//! velocity form), time-corrected.
//!
//! The stored velocity `v` is the last substep's, the mean over it: the
//! velocity half a substep ago. With damping factor `d`, acceleration `a`,
//! the last substep's length `h_prev` and this one's `h`:
//!
//! ```text
//! v' = d v + a (h_prev + h) / 2          kick to the middle of this substep
//! x' = x + v' h                          drift
//! ```
//!
//! With a constant `h` and `d = 1` this is Jakobsen's `x' = 2x - x* + a h^2`.
//! A body at rest (created, put to sleep, recovered) has its velocity as of
//! now, not half a substep ago: `h_prev = 0`, so its first kick is `a h / 2`.
//! Then the scheme is exact for constant acceleration in exact arithmetic:
//! `x(t) = x0 + v0 t + a t^2 / 2` at every substep's end, and the velocity
//! read back (the mean over the last substep) is `v0 + a (t - h / 2)`,
//! whatever `h` is and however it changes between steps. (Started with
//! `x_prev = x`, Verlet leads by `a h t / 2`: 1 cm after 1 s at 8 x 60 Hz.)
//! Pinned particles (inverse mass 0) do not move: only the engine moves
//! them, and their velocity is what that move was.
//!
//! After the passes, the velocity takes only what they moved the particle
//! by (`update_velocities`): `v += ((x - x_pred) + e) / h`, where `e` is
//! what rounding took from the moves made through
//! `ParticlesMut::move_by` (the prediction zeroes it). A particle no pass
//! touched keeps its velocity bit for bit, instead of re-reading it from
//! two large positions (see `particles`).

use crate::particles::ParticlesMut;
use glam::Vec3;

/// `x_prev <- x`, then the kick and the drift above, for every particle of
/// the range; `kick` is `a (h_prev + h) / 2`, `h` this substep's length.
///
/// One coordinate at a time, pinned particles computed and then masked
/// rather than skipped: the loops have no branch and the compiler runs them
/// on whole vectors (the same operations per particle, so the same bits).
pub fn predict(p: &mut ParticlesMut, damping: f32, kick: Vec3, h: f32) {
    let w = &*p.inv_mass;
    for (x, px, v, a) in [
        (&mut *p.x, &mut *p.px, &mut *p.vx, kick.x),
        (&mut *p.y, &mut *p.py, &mut *p.vy, kick.y),
        (&mut *p.z, &mut *p.pz, &mut *p.vz, kick.z),
    ] {
        for (((x, px), v), &w) in x.iter_mut().zip(px.iter_mut()).zip(v.iter_mut()).zip(w) {
            let now = *x;
            let moving = w > 0.0;
            let vel = if moving { *v * damping + a } else { 0.0 };
            let next = now + vel * h;
            *px = now;
            *v = vel;
            *x = if moving { next } else { now };
        }
    }
    for e in [&mut *p.ex, &mut *p.ey, &mut *p.ez] {
        e.fill(0.0);
    }
}

/// Adds the kick of forces `f` (N, one per particle of the body from its
/// first) over `k` seconds: `v += f w k`. Before [`predict`], which then
/// damps it with the rest of the velocity.
pub fn kick_forces(p: &mut ParticlesMut, forces: &[Vec3], k: f32) {
    for (i, f) in forces.iter().enumerate() {
        let s = p.inv_mass[i] * k;
        p.set_velocity(i, p.velocity(i) + *f * s);
    }
}

/// `v += ((x - x_pred) + e) / h`, with `x_pred = x_prev + v h` recomputed
/// as [`predict`] computed it (the same operations, so the same bits) and
/// `e` what rounding took from the passes' moves: the velocity takes the
/// substep's corrections and nothing else. `x - x_pred` is exact (the two
/// are within a factor of two, Sterbenz), so with `e` the velocity gets
/// the moves as computed, not as rounded to the position's ulp. A pinned
/// particle (`v = 0` after the prediction) gets `(x - x_prev) / h`, the
/// engine's move of it.
pub fn update_velocities(p: &mut ParticlesMut) {
    let (h, inv_h) = (p.h, p.inv_h);
    for (x, px, v, e) in
        [(&*p.x, &*p.px, &mut *p.vx, &*p.ex), (&*p.y, &*p.py, &mut *p.vy, &*p.ey), (&*p.z, &*p.pz, &mut *p.vz, &*p.ez)]
    {
        for (((&x, &px), v), &e) in x.iter().zip(px).zip(v.iter_mut()).zip(e) {
            let predicted = px + *v * h;
            *v += ((x - predicted) + e) * inv_h;
        }
    }
}
