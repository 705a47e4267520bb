//! Sticks against colliders: a collision stick is a capsule of a radius
//! around the segment between two particles of a body (a ragdoll's limb, a
//! rope's link), so a stick lying across a thin bar whose ends miss it still
//! collides (Jakobsen, "Collision detection": a point inside the stick at
//! `p = c1 x1 + c2 x2` is pushed out and the push is spread over the two
//! particles with those weights, `segment::barycentric_push`).
//!
//! Friction is taken at the push as for particles, at the contact point,
//! and spread the same way.

use super::friction::{ContactsMut, tangential_cut};
use super::segment;
use super::{Candidates, PassContext, Shape};
use crate::particles::ParticlesMut;
use glam::Vec3;

/// A capsule of `radius` around the segment between particles `a` and `b`
/// of one body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollisionStick {
    /// First particle, an index within the body.
    pub a: u32,
    /// Second particle.
    pub b: u32,
    /// Metres, > 0.
    pub radius: f32,
}

/// One collision pass over a body's collision sticks.
pub fn project(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    sticks: &[CollisionStick],
    candidates: &Candidates,
    ctx: &PassContext,
) {
    let prepared = ctx.prepared;
    for (j, s) in sticks.iter().enumerate() {
        let (ia, ib) = (s.a as usize, s.b as usize);
        if p.inv_mass[ia] == 0.0 && p.inv_mass[ib] == 0.0 {
            continue;
        }
        let r = s.radius;
        sweep(p, contacts, ia, ib, r, &candidates.spheres, &prepared.spheres, ctx);
        sweep(p, contacts, ia, ib, r, &candidates.boxes, &prepared.boxes, ctx);
        sweep(p, contacts, ia, ib, r, &candidates.capsules, &prepared.capsules, ctx);
        sweep(p, contacts, ia, ib, r, &candidates.convexes, &prepared.convexes, ctx);
        for &k in &candidates.planes {
            let shape = &prepared.planes[k as usize];
            let (a, b) = (p.position(ia), p.position(ib));
            if let Some(hit) = segment::vs_plane(a, b, r, shape.normal, shape.offset) {
                push(p, contacts, ia, ib, hit, shape.source(), ctx);
            }
        }
        for &k in &candidates.spheres {
            let shape = &prepared.spheres[k as usize];
            let (a, b) = (p.position(ia), p.position(ib));
            if let Some(hit) = segment::vs_sphere(a, b, r, shape.center, shape.radius) {
                push(p, contacts, ia, ib, hit, shape.source(), ctx);
            }
        }
        for &k in &candidates.boxes {
            let shape = &prepared.boxes[k as usize];
            let (a, b) = (p.position(ia), p.position(ib));
            // Most of a body's boxes are far from most of its sticks (a
            // crowd on stairs: 95 % of the exact tests missed).
            if !shape.near_bound().may_touch_segment(a, b, r) {
                continue;
            }
            if let Some(hit) = segment::vs_box(a, b, r, shape.center, shape.axes, shape.half) {
                push(p, contacts, ia, ib, hit, shape.source(), ctx);
            }
        }
        for &k in &candidates.capsules {
            let shape = &prepared.capsules[k as usize];
            let (a, b) = (p.position(ia), p.position(ib));
            if !shape.near_bound().may_touch_segment(a, b, r) {
                continue;
            }
            if let Some(hit) = segment::vs_capsule(a, b, r, shape.a, shape.a + shape.ab, shape.radius) {
                push(p, contacts, ia, ib, hit, shape.source(), ctx);
            }
        }
        for &k in &candidates.convexes {
            let shape = &prepared.convexes[k as usize];
            let (a, b) = (p.position(ia), p.position(ib));
            if let Some(hit) = shape.segment_contact(a, b, r) {
                push(p, contacts, ia, ib, hit, shape.source(), ctx);
            }
        }
        for c in candidates.soups() {
            let soup = &prepared.soups[c.soup as usize];
            for &k in c.of_stick(j) {
                let (a, b) = (p.position(ia), p.position(ib));
                let (a0, b0) = (p.previous(ia), p.previous(ib));
                if let Some(hit) = soup.segment_contact(k, a, b, a0, b0, r) {
                    push(p, contacts, ia, ib, hit, soup.source, ctx);
                }
            }
        }
    }
}

/// Anti-tunnelling for a stick that moved farther than its radius this
/// substep: the point of the stick nearest each shape where the substep
/// began is swept from there to where that point is now; if it entered the
/// shape on the way, the stick is pushed back out at that point (a stick
/// falling fast across a thin bar).
#[allow(clippy::too_many_arguments)]
fn sweep<S: Shape>(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    ia: usize,
    ib: usize,
    r: f32,
    candidates: &[u32],
    shapes: &[S],
    ctx: &PassContext,
) {
    if candidates.is_empty() {
        return;
    }
    let (a0, b0) = (p.previous(ia), p.previous(ib));
    let moved = (p.position(ia) - a0).length_squared().max((p.position(ib) - b0).length_squared());
    if moved <= r * r {
        return;
    }
    for &k in candidates {
        let shape = &shapes[k as usize];
        let s = segment::minimise(|s| shape.distance(a0.lerp(b0, s)), 0.0, 1.0);
        let (a, b) = (p.position(ia), p.position(ib));
        let (from, to) = (a0.lerp(b0, s), a.lerp(b, s));
        let len = (to - from).length();
        if len <= r {
            continue;
        }
        // From a hair behind, as for particles (`collision::SWEEP_BACKOFF`).
        let from = from - (to - from) * (super::SWEEP_BACKOFF / len);
        if let Some((t, n)) = shape.sweep(from, to - from, r) {
            let depth = n.dot(from + (to - from) * t - to);
            if depth > 0.0 {
                push(p, contacts, ia, ib, (s, n, depth), shape.source(), ctx);
            }
        }
    }
}

/// Moves the stick's point at `s` by `dir * depth`, spread over its two
/// particles by their weights and inverse masses; takes the push's friction
/// off the point's motion the same way; records the contact on both
/// particles in proportion to their weights.
#[inline(always)]
fn push(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    ia: usize,
    ib: usize,
    (s, dir, depth): (f32, Vec3, f32),
    source: u32,
    ctx: &PassContext,
) {
    let (w1, w2) = (p.inv_mass[ia], p.inv_mass[ib]);
    let (a, b) = (p.position(ia), p.position(ib));
    let (da, db) = segment::barycentric_push(s, w1, w2, dir * depth);
    let (a, b) = (a + da, b + db);
    let (a0, b0) = (p.previous(ia), p.previous(ib));
    let src = &ctx.prepared.sources[source as usize];
    let point = a.lerp(b, s);
    let surface = if src.moves() { src.surface_displacement(point, ctx.h) } else { Vec3::ZERO };
    let moved_before = (a - da - a0).lerp(b - db - b0, s) - surface;
    let (a, b) = if ctx.friction_at_push {
        let (mu_s, mu_d, _) = src.material.against(ctx.material);
        let moved = (a - a0).lerp(b - b0, s) - surface;
        let cut = tangential_cut(moved, dir, mu_s, mu_d, depth);
        let (ca, cb) = segment::barycentric_push(s, w1, w2, -cut);
        (a + ca, b + cb)
    } else {
        (a, b)
    };
    p.set_position(ia, a);
    p.set_position(ib, b);
    let approach = dir.dot(moved_before) * ctx.inv_h;
    if w1 > 0.0 {
        contacts.record(ia, dir, depth * (1.0 - s), source, approach);
    }
    if w2 > 0.0 {
        contacts.record(ib, dir, depth * s, source, approach);
    }
}
