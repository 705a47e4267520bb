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
//! A third of the force goes to each vertex. Forces are computed once per step
//! and applied in each substep. The velocity change a vertex gets in one step
//! is capped at its own speed through the air: drag can stop a particle
//! relative to the air, never throw it back (light cloth in a gale would
//! otherwise oscillate and blow up).

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

/// The aerodynamic acceleration of every particle for the coming step, from
/// the velocities of the last substep, written into
/// `accel` (one vector per particle). Forces change with the cloth's shape
/// and speed, which move little within a step, so they are computed once per
/// step and applied in every substep. The velocity change over the step is
/// capped at the particle's speed through the air.
pub fn accelerations(p: &ParticlesMut, triangles: &[[u32; 3]], air: &Air, dt: f32, accel: &mut Vec<Vec3>) {
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
        let mut n = cross / twice_area;
        let mut cos = n.dot(u_hat);
        if cos < 0.0 {
            n = -n;
            cos = -cos;
        }
        let q = 0.5 * air.density * speed2 * (0.5 * twice_area);
        let share = -(u_hat * (air.drag * cos) + (n - u_hat * cos) * (air.lift * cos)) * (q / 3.0);
        accel[a] += share;
        accel[b] += share;
        accel[c] += share;
    }
    for (i, f) in accel.iter_mut().enumerate() {
        let w = p.inv_mass[i];
        *f *= w;
        let through_air = (p.velocity(i) - air.wind).length();
        let dv = f.length() * dt;
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
