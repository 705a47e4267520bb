//! Aerodynamics per triangle: drag and lift from the air moving past it.
//!
//! For a triangle of area `A` and unit normal `n` moving at `v` (the mean of
//! its vertices' velocities) through air of density `rho` blowing at `w`, the
//! relative velocity is `u = v - w`, `u_hat = u / |u|`, and with `n` turned to
//! face the flow (`cos = n . u_hat >= 0`, `sin = |n - cos u_hat|`) and
//! `q = rho |u|^2 A / 2` (dynamic pressure times area):
//!
//! ```text
//! drag = -q C_d cos u_hat                       (against the flow, by projected area)
//! lift = -q C_l cos (n - cos u_hat)             (across the flow, |.| = q C_l cos sin)
//! ```
//!
//! A third of the force goes to each vertex. Forces are computed every
//! substep from the velocities the last one left, and a vertex's velocity
//! change in one substep is capped at its own speed through the air: drag
//! can stop a particle relative to the air, never throw it back. Computed
//! once per step and capped over the whole step, as before, a force held
//! for a frame overshot the cloth's motion in strong wind.
//!
//! A cloth exactly edge-on to the flow feels no force (`cos = 0`), and a
//! flag in its own plane would stay flat forever; real cloth flutters from
//! the vortices it sheds. A small push along the triangle's winding normal,
//! `q_wind C_l FLUTTER max(0, 1 - cos / EDGE_ON)` with `q_wind` the wind's
//! own dynamic pressure times area (none in still air), breaks the symmetry
//! deterministically; it is gone once the triangle is turned a degree out of
//! the flow (`cos = EDGE_ON`), where lift and drag take over. (Pushing
//! every triangle that way, `q C_l FLUTTER (1 - cos)`, held a flag on one
//! side of the wind; scaled by the relative flow instead of the wind's it
//! kept a cloth settling in still air from coming to rest.)

use crate::particles::ParticlesMut;
use glam::Vec3;

/// The air a cloth moves through, for one step.
#[derive(Debug, Clone, Copy)]
pub struct Air {
    pub wind: Vec3,
    pub density: f32,
    pub drag: f32,
    pub lift: f32,
}

impl Air {
    /// Whether the forces can be non-zero at all.
    pub fn active(&self) -> bool {
        self.density > 0.0 && (self.drag > 0.0 || self.lift > 0.0)
    }
}

/// The push along the winding normal of a triangle edge-on to the flow, as
/// a fraction of its lift (see the module's docs).
const FLUTTER: f32 = 0.02;
/// The `cos` (to the flow) below which that push acts.
const EDGE_ON: f32 = 0.02;

/// The aerodynamic acceleration of every particle for a substep of `h`,
/// from its velocities, written into `accel` (one vector per particle),
/// limited as the module's docs say.
pub fn accelerations(p: &ParticlesMut, triangles: &[[u32; 3]], air: &Air, h: f32, accel: &mut Vec<Vec3>) {
    accel.clear();
    accel.resize(p.len(), Vec3::ZERO);
    for t in triangles {
        let [a, b, c] = t.map(|i| i as usize);
        let (xa, xb, xc) = (p.position(a), p.position(b), p.position(c));
        let v = (p.velocity(a) + p.velocity(b) + p.velocity(c)) * (1.0 / 3.0);
        let u = v - air.wind;
        let speed2 = u.length_squared();
        let cross = (xb - xa).cross(xc - xa);
        let twice_area = cross.length();
        if speed2 < 1e-12 || twice_area < 1e-12 {
            continue;
        }
        let u_hat = u / speed2.sqrt();
        let winding = cross / twice_area;
        let (mut n, mut cos) = (winding, winding.dot(u_hat));
        if cos < 0.0 {
            n = -n;
            cos = -cos;
        }
        let q = 0.5 * air.density * speed2 * (0.5 * twice_area);
        // The push scales with the wind's own pressure: cloth moving
        // through still air (settling, sliding over itself) gets none.
        let edge_on = (1.0 - cos / EDGE_ON).max(0.0);
        let gust = 0.5 * air.density * air.wind.length_squared() * (0.5 * twice_area);
        let flutter = winding * (air.lift * FLUTTER * edge_on * (gust / q));
        let share = (flutter - (u_hat * (air.drag * cos) + (n - u_hat * cos) * (air.lift * cos))) * (q / 3.0);
        accel[a] += share;
        accel[b] += share;
        accel[c] += share;
    }
    for (i, f) in accel.iter_mut().enumerate() {
        let w = p.inv_mass[i];
        *f *= w;
        let through_air = (p.velocity(i) - air.wind).length();
        let dv = f.length() * h;
        if dv > through_air {
            *f *= through_air / dv;
        }
    }
}

/// Adds `accel * h^2` to the predicted positions of one substep.
pub fn apply(p: &mut ParticlesMut, accel: &[Vec3], h2: f32) {
    for (i, a) in accel.iter().enumerate() {
        if *a != Vec3::ZERO {
            p.set_position(i, p.position(i) + *a * h2);
        }
    }
}
