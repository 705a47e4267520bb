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
//! A third of the force goes to each vertex. The velocity change a vertex gets
//! in one substep is capped at its own speed through the air: drag can stop a
//! particle relative to the air, never throw it back (light cloth in a gale
//! would otherwise oscillate and blow up).

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

/// Adds the aerodynamic displacement `F w h^2` of one substep to the predicted
/// positions; the velocity is the predicted one, `(x - x_prev) / h`.
/// `scratch` holds one vector per particle.
pub fn apply(p: &mut ParticlesMut, triangles: &[[u32; 3]], air: &Air, h: f32, scratch: &mut Vec<Vec3>) {
    scratch.clear();
    scratch.resize(p.len(), Vec3::ZERO);
    let inv_h = 1.0 / h;
    for t in triangles {
        let [a, b, c] = t.map(|i| i as usize);
        let (xa, xb, xc) = (p.position(a), p.position(b), p.position(c));
        let v = ((xa - p.previous(a)) + (xb - p.previous(b)) + (xc - p.previous(c))) * (inv_h / 3.0);
        let u = v - air.wind;
        let speed2 = u.length_squared();
        let cross = (xb - xa).cross(xc - xa);
        let twice_area = cross.length();
        if speed2 < 1e-12 || twice_area < 1e-12 {
            continue;
        }
        let speed = speed2.sqrt();
        let u_hat = u / speed;
        let mut n = cross / twice_area;
        let mut cos = n.dot(u_hat);
        if cos < 0.0 {
            n = -n;
            cos = -cos;
        }
        let q = 0.5 * air.density * speed2 * (0.5 * twice_area);
        let force = -(u_hat * (air.drag * cos) + (n - u_hat * cos) * (air.lift * cos)) * q;
        let share = force / 3.0;
        scratch[a] += share;
        scratch[b] += share;
        scratch[c] += share;
    }
    for (i, f) in scratch.iter().enumerate() {
        let w = p.inv_mass[i];
        if w == 0.0 {
            continue;
        }
        // The velocity change, capped at the particle's speed through the air.
        let mut dv = *f * (w * h);
        let through_air = ((p.position(i) - p.previous(i)) * inv_h - air.wind).length();
        let len = dv.length();
        if len > through_air {
            dv *= through_air / len;
        }
        p.set_position(i, p.position(i) + dv * h);
    }
}
