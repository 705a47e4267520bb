//! Joints: a distance constraint between particles of two bodies, solved in
//! the same relaxation loop as the bodies' own constraints and weighted by
//! both particles' inverse masses, so the coupling is two-way: a cape pinned
//! to a ragdoll's shoulders pulls the ragdoll back as the ragdoll drags it.
//! Bodies joined this way form one island and are stepped together.
//!
//! A joint is XPBD with compliance `alpha` (0 = rigid); a rest length of 0
//! makes the two particles one point (a pin to a particle).

use crate::particles::ParticlesMut;
use crate::pool::BodyId;

/// A joint as the engine described it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Joint {
    /// First body.
    pub body_a: BodyId,
    /// Particle index within the first body.
    pub particle_a: u32,
    /// Second body.
    pub body_b: BodyId,
    /// Particle index within the second body.
    pub particle_b: u32,
    /// Metres (>= 0).
    pub rest_length: f32,
    /// XPBD compliance (m/N); 0 is rigid.
    pub compliance: f32,
}

/// A joint resolved for one step: bodies as indices into the island.
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    pub body_a: u32,
    pub a: u32,
    pub body_b: u32,
    pub b: u32,
    pub rest: f32,
    pub compliance: f32,
    pub lambda: f32,
}

/// Resets the multipliers at the start of a substep (joints tagged with
/// their island).
pub fn begin_substep(joints: &mut [(u32, Resolved)]) {
    joints.iter_mut().for_each(|(_, j)| j.lambda = 0.0);
}

/// One XPBD pass over an island's joints.
pub fn project(views: &mut [ParticlesMut], joints: &mut [(u32, Resolved)], inv_h2: f32) {
    for (_, j) in joints {
        let (ba, bb) = (j.body_a as usize, j.body_b as usize);
        let (a, b) = (j.a as usize, j.b as usize);
        let (wa, wb) = (views[ba].inv_mass[a], views[bb].inv_mass[b]);
        let alpha_tilde = j.compliance * inv_h2;
        if wa + wb + alpha_tilde == 0.0 {
            continue;
        }
        let (xa, xb) = (views[ba].position(a), views[bb].position(b));
        let d = xb - xa;
        let len = d.length();
        if len < 1e-12 {
            continue;
        }
        let n = d / len;
        let c = len - j.rest;
        let dlambda = (-c - alpha_tilde * j.lambda) / (wa + wb + alpha_tilde);
        j.lambda += dlambda;
        views[ba].set_position(a, xa - n * (wa * dlambda));
        views[bb].set_position(b, xb + n * (wb * dlambda));
    }
}
