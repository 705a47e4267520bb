//! Queries and pushes with world positions in double precision, for
//! engines with large worlds: the Rust side of the C `_d` query calls (ray
//! casts, the nearest particle, impulses at a point, explosions).
//!
//! As in `far.rs`, nothing is rounded at world scale: a query point given
//! in `f64` is taken into each body's frame (`Body::origin`) or collider's
//! (`Collider::origin`) by an exact subtraction and one rounding to `f32`
//! at the scale of its distance from that body, and what comes back (a hit
//! point, a particle's place) is the frame's origin plus the point in it,
//! in `f64`. A query 10 km out thus meets a scene as the same query meets
//! it at the origin.

use crate::error::Result;
use crate::far::{finite_dvec, grid_point};
use crate::pool::BodyId;
use crate::query::{ColliderHit, ParticleHit, RayHit, check_query, unit_direction};
use crate::world::World;
use glam::{DVec3, Vec3};

/// The `f32` direction and reach of a query in `f64`, checked as the `f32`
/// queries check them (the origin by [`finite_dvec`]).
fn checked(origin: DVec3, direction: Vec3, max_distance: f32) -> Result<(DVec3, Vec3, f32)> {
    let origin = finite_dvec(origin, "origin")?;
    let max = check_query(Vec3::ZERO, max_distance)?;
    Ok((origin, unit_direction(direction)?, max))
}

impl World {
    /// [`World::raycast`] from an origin in `f64`: the ray meets each body
    /// in the body's frame, its origin there rounded once; the hit's point
    /// is `origin + direction * distance` in `f64` (`RayHit::point` holds
    /// it rounded to `f32`).
    pub fn raycast_f64(
        &self,
        origin: DVec3,
        direction: Vec3,
        max_distance: f32,
        mask: u32,
    ) -> Result<Option<(RayHit, DVec3)>> {
        let (origin, dir, max) = checked(origin, direction, max_distance)?;
        let hit = self.raycast_in(|frame| (origin - frame.as_dvec3()).as_vec3(), Vec3::ZERO, dir, max, mask);
        Ok(hit.map(|h| {
            let point = origin + dir.as_dvec3() * f64::from(h.distance);
            (RayHit { point: point.as_vec3(), ..h }, point)
        }))
    }

    /// [`World::raycast_colliders`] from an origin in `f64`: a collider
    /// placed in `f64` meets the ray in its own frame (its shape exact, the
    /// ray's origin there rounded once), one placed in `f32` in the frame of
    /// the grid point nearest the ray's origin; the hit's point is
    /// `origin + direction * distance` in `f64`.
    pub fn raycast_colliders_f64(
        &self,
        origin: DVec3,
        direction: Vec3,
        max_distance: f32,
        mask: u32,
    ) -> Result<Option<(ColliderHit, DVec3)>> {
        let (origin, dir, max) = checked(origin, direction, max_distance)?;
        let near = grid_point(origin);
        let frame = |c: &crate::collision::Collider| {
            let at = if c.origin == Vec3::ZERO { near } else { c.origin };
            (at, (origin - at.as_dvec3()).as_vec3())
        };
        let hit = self.raycast_colliders_in(frame, dir, max, mask);
        Ok(hit.map(|h| {
            let point = origin + dir.as_dvec3() * f64::from(h.distance);
            (ColliderHit { point: point.as_vec3(), ..h }, point)
        }))
    }

    /// [`World::nearest_particle`] to a point in `f64`: each particle's
    /// place is its frame's origin plus its position there, in `f64`, and
    /// so is its distance (reported rounded to `f32`); ties go to the
    /// earlier body and particle. The particle's place comes back exact.
    pub fn nearest_particle_f64(
        &self,
        point: DVec3,
        max_distance: f32,
        mask: u32,
    ) -> Result<Option<(ParticleHit, DVec3)>> {
        let point = finite_dvec(point, "point")?;
        let max = f64::from(check_query(Vec3::ZERO, max_distance)?);
        let mut best: Option<(BodyId, u32, DVec3, f64)> = None;
        for (h, body) in self.bodies.iter() {
            if body.filter.layer & mask == 0 {
                continue;
            }
            for i in 0..body.count {
                let position = self.world_position_f64(body, i);
                let distance = position.distance(point);
                if distance <= best.map_or(max, |b| b.3) && best.is_none_or(|b| distance < b.3) {
                    best = Some((BodyId::from(h), i as u32, position, distance));
                }
            }
        }
        Ok(best.map(|(body, particle, position, distance)| {
            let hit = ParticleHit { body, particle, position: position.as_vec3(), distance: distance as f32 };
            (hit, position)
        }))
    }

    /// [`World::apply_hit_impulse`] for a hit whose point is in `f64` (a
    /// rigid body takes the impulse there, as [`World::apply_rigid_impulse_f64`]).
    pub fn apply_hit_impulse_f64(&mut self, hit: &RayHit, point: DVec3, impulse: Vec3) -> Result<()> {
        self.apply_hit_impulse_at(hit, Some(point), impulse)
    }

    /// [`World::apply_rigid_impulse`] at a world point in `f64`, taken into
    /// the body's frame exactly (rounded once at the body's size).
    pub fn apply_rigid_impulse_f64(&mut self, id: BodyId, point: DVec3, impulse: Vec3) -> Result<()> {
        let point = finite_dvec(point, "point")?;
        self.apply_rigid_impulse_in(id, |origin| (point - origin.as_dvec3()).as_vec3(), impulse)
    }

    /// [`World::apply_bone_impulse`] at a world point in `f64`, taken into
    /// the body's frame exactly (rounded once at the body's size).
    pub fn apply_bone_impulse_f64(&mut self, id: BodyId, bone: u32, point: DVec3, impulse: Vec3) -> Result<()> {
        let point = finite_dvec(point, "point")?;
        self.apply_bone_impulse_in(id, bone, |origin| (point - origin.as_dvec3()).as_vec3(), impulse)
    }

    /// [`World::explode`] about a centre in `f64`: each particle's offset
    /// from it is computed in `f64` (its frame's origin plus its position,
    /// less the centre) and rounded once.
    pub fn explode_f64(&mut self, center: DVec3, strength: f32, radius: f32) -> Result<u32> {
        let center = finite_dvec(center, "center")?;
        self.explode_from(|origin, x| (origin.as_dvec3() + x.as_dvec3() - center).as_vec3(), strength, radius)
    }

    /// Particle `i` of `body` in world space, in `f64` (exact).
    pub(crate) fn world_position_f64(&self, body: &crate::body::Body, i: usize) -> DVec3 {
        body.origin.as_dvec3() + self.particles.position(body.first + i).as_dvec3()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::finite_vec;

    /// The f32 query paths, now through `raycast_in` and friends, are
    /// unchanged at the origin, and the f64 ones agree with them there.
    #[test]
    fn the_f64_queries_agree_with_the_f32_ones_at_the_origin() {
        let mut w = World::new(Default::default()).expect("world");
        let b = w.create_particles(&[Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0)], None).expect("body");
        w.set_particle_radius(b, 0.1).expect("radius");
        let o = Vec3::new(0.0, 1.0, -5.0);
        let f = w.raycast(o, Vec3::Z, f32::INFINITY, u32::MAX).unwrap().expect("a hit");
        let (d, p) = w.raycast_f64(o.as_dvec3(), Vec3::Z, f32::INFINITY, u32::MAX).unwrap().expect("a hit");
        assert_eq!((f.body, f.distance, f.particles), (d.body, d.distance, d.particles));
        assert!((p - f.point.as_dvec3()).length() < 1e-6);
        let n = w.nearest_particle(Vec3::new(0.9, 1.0, 0.0), 1.0, u32::MAX).unwrap().expect("near");
        let (m, x) = w.nearest_particle_f64(DVec3::new(0.9, 1.0, 0.0), 1.0, u32::MAX).unwrap().expect("near");
        assert_eq!((n.body, n.particle, n.position), (m.body, m.particle, m.position));
        assert_eq!(x, DVec3::new(1.0, 1.0, 0.0));
        assert!(finite_vec(m.position, "p").is_ok());
    }
}
