//! Joints: a distance constraint between particles of two bodies, solved in
//! the same relaxation loop as the bodies' own constraints and weighted by
//! both particles' inverse masses, so the coupling is two-way: a cape pinned
//! to a ragdoll's shoulders pulls the ragdoll back as the ragdoll drags it.
//! Bodies joined this way form one island and are stepped together.
//!
//! A joint is XPBD with compliance `alpha` (0 = rigid); a rest length of 0
//! makes the two particles one point (a pin to a particle).
//!
//! A joint between two bodies with an end in a rope, a body whose sticks
//! form a forest solved exactly (tree.rs), is solved with the rope's sticks
//! as one more stick of the forest to the other end (`project`).
//!
//! The velocity stage (`project_velocities`) takes the relative velocity
//! along a rigid joint out where an end lies in a rope, a body whose sticks
//! form a forest solved exactly (tree.rs), as the rope's own velocity stage
//! does along its sticks. That end is weighed by its generalised inverse
//! mass through the rope (the sticks held to first order, Baraff 1996's
//! system as tree.rs solves it),
//!
//! ```text
//! w~ = u^T (W - W J^T (J W J^T + alpha_tilde)^-1 J W) u
//! ```
//!
//! for the direction `u` at the end, and the change moves the whole rope's
//! velocities by its response (`StickTree::response`): the joint sees the
//! rope as the body it is, not its end's particle (0 where the rope holds
//! the end taut against its pin).

use super::distance::DistanceSet;
use crate::particles::ParticlesMut;
use crate::pool::BodyId;

/// Each body's sticks, by its index in the island (the joint stage's view
/// of the bodies, which this layer does not know).
pub trait Ropes {
    fn distances(&mut self, body: usize) -> &mut DistanceSet;
}

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

/// One XPBD pass over an island's joints. A joint between two bodies with
/// an end in a rope is solved with that rope's sticks, exactly, as one
/// more stick of its forest to the other end (`DistanceSet::solve_joined`;
/// an end in a second rope is weighed by its own mass, and that rope
/// answers in its own passes).
///
/// Why: a pass that moved the joint alone and then the rope alone did not
/// converge where a light rope held a heavy body: the rope's exact solve
/// put its end back without the weight, the joint moved the light end
/// nearly all the way, and so on. Ropes of 5 and 10 particles of 0.1 kg
/// holding 70 kg through 4 m joints under dt changing every step between
/// 1e-4 and 0.1 s reached 38 kJ over their start at step 96 and went
/// through the ground; moving the whole rope by its first-order response
/// to the joint (as the velocity stage does) was worse, the response is
/// linear and the moves are not small. Solved together they keep their
/// energy (tests/torture.rs).
pub fn project(views: &mut [ParticlesMut], ropes: &mut dyn Ropes, joints: &mut [(u32, Resolved)], inv_h2: f32) {
    'joints: for (_, j) in joints {
        let (ba, bb) = (j.body_a as usize, j.body_b as usize);
        let (a, b) = (j.a as usize, j.b as usize);
        if ba != bb {
            for (rope, r, other, o) in [(ba, a, bb, b), (bb, b, ba, a)] {
                let end = (views[other].position(o), views[other].previous(o), views[other].inv_mass[o]);
                let set = ropes.distances(rope);
                if let Some(moved) =
                    set.solve_joined(&mut views[rope], r, end, j.rest, j.compliance, &mut j.lambda, inv_h2)
                {
                    views[other].move_by(o, moved);
                    continue 'joints;
                }
            }
        }
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

/// The velocity stage of rigid joints with an end in a rope: no relative
/// velocity along a joint whose compliance is below its ends' inverse
/// masses (as `DistanceSet::project_velocities` does for a body's sticks),
/// a rope end weighed through its rope, the rope's velocities changed by
/// its response; joints with no rope end are left as the passes made them.
/// Why: a heavy body hanging on a light rope through a joint kept a
/// velocity along the joint that the rope's own velocity stage did not see,
/// and the next substep's passes turned it back into error over `h`. A 70
/// kg particle on a 4 m joint from a pinned 0.1 kg rope gained 89 kJ under
/// dt changing every step between 1e-4 and 0.1 s (623 J on a 1 kg rope);
/// the same pendulum as one body kept its energy, and so does the joined
/// one now (tests/torture.rs). Weighed by the end's own mass (no response)
/// it still gained 8.6 kJ.
pub fn project_velocities(views: &mut [ParticlesMut], ropes: &mut dyn Ropes, joints: &[(u32, Resolved)], inv_h2: f32) {
    for (_, j) in joints {
        let (ba, bb) = (j.body_a as usize, j.body_b as usize);
        let (a, b) = (j.a as usize, j.b as usize);
        let (wa, wb) = (views[ba].inv_mass[a], views[bb].inv_mass[b]);
        let alpha_tilde = j.compliance * inv_h2;
        if wa + wb == 0.0 || alpha_tilde > wa + wb {
            continue;
        }
        let d = views[bb].position(b) - views[ba].position(a);
        let len = d.length();
        if len < 1e-6 {
            continue;
        }
        let n = d / len;
        let mut through = |body: usize, i: usize, w: f32| -> (f32, bool) {
            if ba == bb || w == 0.0 {
                return (w, false);
            }
            match ropes.distances(body).joint_response(&views[body], i, n, inv_h2) {
                Some(w) => (w, true),
                None => (w, false),
            }
        };
        let (wa, rope_a) = through(ba, a, wa);
        let (wb, rope_b) = through(bb, b, wb);
        // Joints with no rope end keep the velocities the passes gave them.
        if !(rope_a || rope_b) || wa + wb <= 0.0 {
            continue;
        }
        let dlambda = -n.dot(views[bb].velocity(b) - views[ba].velocity(a)) / (wa + wb);
        if rope_a {
            ropes.distances(ba).apply_joint_response(&mut views[ba], -dlambda, true);
        } else {
            let v = views[ba].velocity(a) - n * (wa * dlambda);
            views[ba].set_velocity(a, v);
        }
        if rope_b {
            ropes.distances(bb).apply_joint_response(&mut views[bb], dlambda, true);
        } else {
            let v = views[bb].velocity(b) + n * (wb * dlambda);
            views[bb].set_velocity(b, v);
        }
    }
}
