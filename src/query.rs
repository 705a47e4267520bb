//! Queries against the bodies: a ray cast that reports which particles were
//! hit and with what weights (so a game can shoot a ragdoll or a cloth and
//! push the hit point, `World::apply_hit_impulse`), and the nearest particle
//! to a point (picking).
//!
//! A body is hit where it collides: its particles as spheres of their
//! collision radius, its collision sticks as capsules, a cloth's triangles
//! (thickened by nothing: a ray meets the surface), and a rigid body's solid
//! where its fit puts it.

use crate::collision::{Collider, Shape, ray, triangle};
use crate::error::{Error, Result, finite_vec};
use crate::pool::{BodyId, ColliderId};
use crate::world::World;
use glam::{DVec3, Vec3};

/// Where a ray met a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// The body hit.
    pub body: BodyId,
    /// The particles (indices within the body) that carry the hit point:
    /// one for a particle, two for a stick, three for a cloth triangle.
    pub particles: [u32; 3],
    /// Their barycentric weights (sum 1; unused ones are 0).
    pub weights: [f32; 3],
    /// How many of `particles` are used.
    pub particle_count: u32,
    /// The hit point, world space.
    pub point: Vec3,
    /// The surface normal there, facing the ray.
    pub normal: Vec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
}

/// The particle nearest a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParticleHit {
    /// The particle's body.
    pub body: BodyId,
    /// Index within the body.
    pub particle: u32,
    /// Where it is.
    pub position: Vec3,
    /// How far from the query point, metres.
    pub distance: f32,
}

/// Where a ray met a collider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColliderHit {
    /// The collider hit.
    pub collider: ColliderId,
    /// The hit point, world space.
    pub point: Vec3,
    /// The surface normal there (out of a solid; facing the ray for a
    /// mesh's triangle).
    pub normal: Vec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
}

/// A ray's unit direction.
pub(crate) fn unit_direction(direction: Vec3) -> Result<Vec3> {
    finite_vec(direction, "direction")?;
    let len = direction.length();
    if !(len > 1e-12 && len.is_finite()) {
        return Err(Error::invalid_argument(format!("direction must be non-zero, got {direction}")));
    }
    Ok(direction / len)
}

pub(crate) fn check_query(origin: Vec3, max_distance: f32) -> Result<f32> {
    finite_vec(origin, "origin")?;
    if max_distance.is_nan() || max_distance <= 0.0 {
        return Err(Error::invalid_argument(format!("max_distance must be > 0, got {max_distance}")));
    }
    Ok(max_distance.min(crate::error::MAX_COORDINATE))
}

impl World {
    /// The nearest body a ray meets within `max_distance` (metres, may be
    /// +inf), among bodies on a layer in `mask`. `direction` need not be
    /// unit, but not zero.
    pub fn raycast(&self, origin: Vec3, direction: Vec3, max_distance: f32, mask: u32) -> Result<Option<RayHit>> {
        let max = check_query(origin, max_distance)?;
        let dir = unit_direction(direction)?;
        Ok(self.raycast_in(|body_origin| origin - body_origin, origin, dir, max, mask))
    }

    /// [`World::raycast`] with the ray's origin in each body's frame given
    /// by `local_origin` (of the frame's origin, `Body::origin`), its unit
    /// direction `dir` and checked reach `max`; a hit's `point` is
    /// `world_origin + dir * distance`.
    pub(crate) fn raycast_in(
        &self,
        local_origin: impl Fn(Vec3) -> Vec3,
        world_origin: Vec3,
        dir: Vec3,
        max: f32,
        mask: u32,
    ) -> Option<RayHit> {
        let mut best: Option<RayHit> = None;
        for (h, body) in self.bodies.iter() {
            if body.filter.layer & mask == 0 {
                continue;
            }
            let id = BodyId::from(h);
            let limit = best.map_or(max, |b| b.distance);
            // The ray in the body's frame; distances and the hit point are
            // the same in both.
            let origin = local_origin(body.origin);
            let x = |i: u32| self.particles.position(body.first + i as usize);
            let mut take = |t: f32, particles: [u32; 3], weights: [f32; 3], count: u32, normal: Vec3| {
                if t < best.map_or(limit, |b| b.distance) {
                    let point = world_origin + dir * t;
                    let distance = t;
                    best =
                        Some(RayHit { body: id, particles, weights, particle_count: count, point, normal, distance });
                }
            };
            for i in 0..body.count as u32 {
                let r = if body.radii.is_empty() { body.radius } else { body.radii[i as usize] };
                if r > 0.0
                    && let Some((t, n)) = ray::sphere(origin, dir, limit, x(i), r)
                {
                    take(t, [i, 0, 0], [1.0, 0.0, 0.0], 1, n);
                }
            }
            for s in &body.sticks {
                let (a, b) = (x(s.a), x(s.b));
                if let Some((t, n)) = ray::capsule(origin, dir, limit, a, b, s.radius) {
                    let ab = b - a;
                    let p = origin + dir * t;
                    let w = if ab.length_squared() > 0.0 {
                        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    take(t, [s.a, s.b, 0], [1.0 - w, w, 0.0], 2, n);
                }
            }
            if let Some(r) = &body.rigid {
                let x = |i: usize| (x(i as u32), self.particles.inv_mass[body.first + i]);
                if let Some((t, n)) = r.raycast(x, origin, dir, limit) {
                    // The particle nearest the hit carries it; an impulse at
                    // a rigid body's hit acts at the point (`apply_hit_impulse`).
                    let p = origin + dir * t;
                    let nearest = (0..body.count as u32)
                        .min_by(|&i, &j| {
                            x(i as usize).0.distance_squared(p).total_cmp(&x(j as usize).0.distance_squared(p))
                        })
                        .unwrap_or(0);
                    take(t, [nearest, 0, 0], [1.0, 0.0, 0.0], 1, n);
                }
            }
            if let Some(cloth) = &body.cloth {
                for tri in &cloth.triangles {
                    let corners = [x(tri[0]), x(tri[1]), x(tri[2])];
                    if let Some((t, n)) = triangle::ray(origin, dir, limit, &corners) {
                        let w = barycentric(origin + dir * t, &corners);
                        take(t, *tri, w, 3, n);
                    }
                }
            }
        }
        best
    }

    /// The nearest collider a ray meets within `max_distance` (metres, may
    /// be +inf), among colliders on a layer in `mask`, where the colliders
    /// are now. A ray starting inside a solid shape does not hit it.
    pub fn raycast_colliders(
        &self,
        origin: Vec3,
        direction: Vec3,
        max_distance: f32,
        mask: u32,
    ) -> Result<Option<ColliderHit>> {
        let max = check_query(origin, max_distance)?;
        let dir = unit_direction(direction)?;
        Ok(self.raycast_colliders_in(|_| (Vec3::ZERO, origin), dir, max, mask))
    }

    /// [`World::raycast_colliders`] with each collider prepared in the frame
    /// at `frame(collider).0` from the world's and the ray's origin given in
    /// that frame (`.1`), its unit direction `dir` and checked reach `max`;
    /// a hit's `point` is the frame's, `origin + dir * distance` there.
    pub(crate) fn raycast_colliders_in(
        &self,
        frame: impl Fn(&Collider) -> (Vec3, Vec3),
        dir: Vec3,
        max: f32,
        mask: u32,
    ) -> Option<ColliderHit> {
        let mut best: Option<ColliderHit> = None;
        for (h, c) in self.colliders.iter() {
            if c.filter.layer & mask == 0 {
                continue;
            }
            let limit = best.map_or(max, |b| b.distance);
            // The sweeps take a segment: t in [0, 1] over `dir * limit`.
            let seg = dir * limit;
            let (offset, origin) = frame(c);
            let one = c.prepared_at(offset);
            let mut hits: Vec<(f32, Vec3)> = Vec::new();
            hits.extend(one.planes.iter().filter_map(|s| s.sweep(origin, seg, 0.0)));
            hits.extend(one.spheres.iter().filter_map(|s| s.sweep(origin, seg, 0.0)));
            hits.extend(one.boxes.iter().filter_map(|s| s.sweep(origin, seg, 0.0)));
            hits.extend(one.capsules.iter().filter_map(|s| s.sweep(origin, seg, 0.0)));
            hits.extend(one.convexes.iter().filter_map(|s| s.sweep(origin, seg, 0.0)));
            hits.extend(one.soups.iter().filter_map(|s| s.raycast(origin, seg, 1.0)));
            for (t, normal) in hits {
                let distance = t * limit;
                if distance <= limit && best.is_none_or(|b| distance < b.distance) {
                    let collider = ColliderId::from(h);
                    best = Some(ColliderHit { collider, point: origin + dir * distance, normal, distance });
                }
            }
        }
        best
    }

    /// The particle nearest `point` within `max_distance` (metres, may be
    /// +inf), among bodies on a layer in `mask`; ties go to the earlier body
    /// and particle.
    pub fn nearest_particle(&self, point: Vec3, max_distance: f32, mask: u32) -> Result<Option<ParticleHit>> {
        let max = check_query(point, max_distance)?;
        let mut best: Option<ParticleHit> = None;
        for (h, body) in self.bodies.iter() {
            if body.filter.layer & mask == 0 {
                continue;
            }
            for i in 0..body.count {
                let position = self.world_position(body, i);
                let distance = position.distance(point);
                if distance <= best.map_or(max, |b| b.distance) && best.is_none_or(|b| distance < b.distance) {
                    best = Some(ParticleHit { body: BodyId::from(h), particle: i as u32, position, distance });
                }
            }
        }
        Ok(best)
    }

    /// An impulse (newton seconds) at a ray hit's point: each particle of the
    /// hit gets `weight * impulse / mass` of velocity, so the body's momentum
    /// grows by `impulse` and the hit point moves as Jakobsen's barycentric
    /// response spreads it; a rigid body takes it as a rigid body at
    /// `hit.point` ([`World::apply_rigid_impulse`]). Wakes the body.
    pub fn apply_hit_impulse(&mut self, hit: &RayHit, impulse: Vec3) -> Result<()> {
        self.apply_hit_impulse_at(hit, None, impulse)
    }

    /// [`World::apply_hit_impulse`], a rigid body's taken at `point_f64`
    /// (world space, `f64`) when given, else at `hit.point`.
    pub(crate) fn apply_hit_impulse_at(&mut self, hit: &RayHit, point_f64: Option<DVec3>, impulse: Vec3) -> Result<()> {
        finite_vec(impulse, "impulse")?;
        let body = self.body(hit.body)?;
        let n = hit.particle_count as usize;
        if !(1..=3).contains(&n) {
            return Err(Error::invalid_argument(format!("hit.particle_count must be 1..=3, got {n}")));
        }
        for k in 0..n {
            if hit.particles[k] as usize >= body.count {
                return Err(Error::invalid_argument(format!(
                    "hit.particles[{k}] = {} out of range (the body has {})",
                    hit.particles[k], body.count
                )));
            }
            let w = hit.weights[k];
            if !(w.is_finite() && (0.0..=1.0).contains(&w)) {
                return Err(Error::invalid_argument(format!("hit.weights[{k}] must be in [0, 1], got {w}")));
            }
        }
        if body.rigid.is_some() {
            return match point_f64 {
                Some(point) => self.apply_rigid_impulse_f64(hit.body, point, impulse),
                None => self.apply_rigid_impulse(hit.body, hit.point, impulse),
            };
        }
        let first = body.first;
        for k in 0..n {
            let i = first + hit.particles[k] as usize;
            let dv = impulse * (hit.weights[k] * self.particles.inv_mass[i]);
            let v = self.particles.velocity(i);
            self.particles.set_velocity(i, v + dv);
        }
        self.wake(hit.body);
        Ok(())
    }
}

/// Barycentric weights of a point on a triangle's plane.
fn barycentric(p: Vec3, t: &[Vec3; 3]) -> [f32; 3] {
    let (v0, v1, v2) = (t[1] - t[0], t[2] - t[0], p - t[0]);
    let (d00, d01, d11, d20, d21) = (v0.dot(v0), v0.dot(v1), v1.dot(v1), v2.dot(v0), v2.dot(v1));
    let denom = d00 * d11 - d01 * d01;
    if denom.abs() < 1e-20 {
        return [1.0, 0.0, 0.0];
    }
    let v = ((d11 * d20 - d01 * d21) / denom).clamp(0.0, 1.0);
    let w = ((d00 * d21 - d01 * d20) / denom).clamp(0.0, 1.0 - v);
    [1.0 - v - w, v, w]
}
