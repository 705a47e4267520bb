//! Queries: the contacts of the last step, ray casts against bodies and
//! colliders, the nearest particle, an impulse at a ray's hit.

use super::boundary::{Failure, SinewWorld, checked_out, checked_ref, optional_out, read_into, world_ref};
use super::types::*;
use crate::{BodyId, ColliderHit, Contact, ParticleHit, RayHit};

/// A particle that touched a collider during the last step, or two bodies
/// that touched each other (then `collider` is the null id and
/// `other_body` is set).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewContact {
    /// The body.
    pub body: SinewBodyId,
    /// The particle's index within the body (between bodies: the body's
    /// particle nearest the contact).
    pub particle: u32,
    /// The collider it touched last (possibly destroyed since the step);
    /// the null id (0) for a contact between bodies.
    pub collider: SinewColliderId,
    /// Where the particle's sphere meets the surface (between bodies: where
    /// `body`'s surface meets the other's), at the end of the step.
    pub point: SinewVec3,
    /// The surface's unit normal, out of the collider (between bodies: out
    /// of the other body, into `body`).
    pub normal: SinewVec3,
    /// The deepest push-out of one substep, metres.
    pub depth: f32,
    /// The fastest approach along the normal during the step, m/s (>= 0):
    /// an impact's strength, for sounds.
    pub speed: f32,
    /// The other body of a contact between bodies (possibly destroyed
    /// since the step); the null id (0) for a contact with a collider.
    pub other_body: SinewBodyId,
    /// The other body's particle nearest the contact (0 with a collider).
    pub other_particle: u32,
}

impl From<Contact> for SinewContact {
    fn from(c: Contact) -> Self {
        SinewContact {
            body: c.body.into(),
            particle: c.particle,
            collider: c.collider.into(),
            point: c.point.into(),
            normal: c.normal.into(),
            depth: c.depth,
            speed: c.speed,
            other_body: c.other_body.into(),
            other_particle: c.other_particle,
        }
    }
}

/// The contacts of the last step: one per particle that touched a collider
/// (its last collider and normal), in body order then particle order, and
/// one per collision point of a rigid body that touched (after the body's
/// particles; `particle` is the point's heaviest particle); then the
/// contacts between bodies, one per pair of their pieces that touched (a
/// particle's ball, a collision stick such as a ragdoll's bone capsule, a
/// rigid body's solid), with `other_body` set.
/// Sleeping bodies report none. Poll it after `sinew_world_step`; no
/// callbacks run during the step.
///
/// - `out`: `capacity` contacts, or NULL with capacity 0 to ask for the count.
/// - `out_count`: optional (NULL = not wanted); receives the count.
///
/// Errors: `NULL_ARGUMENT` (world; `out` NULL with a capacity),
/// `BUFFER_TOO_SMALL` (nothing written, the count stored). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_read_contacts(
    world: *const SinewWorld,
    out: *mut SinewContact,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_world_read_contacts", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let all: Vec<SinewContact> = w.contacts().map(SinewContact::from).collect();
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, count, all.into_iter()) }
        })
    })
}

/// Where a ray met a body (`sinew_world_raycast`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewRayHit {
    /// 1 when the ray hit a body; 0 (and the rest zero) when it missed.
    pub hit: SinewBool,
    /// The body hit.
    pub body: SinewBodyId,
    /// The particles (indices within the body) carrying the hit point, with
    /// their barycentric weights: one for a particle's sphere, two for a
    /// collision stick, three for a cloth triangle (`particle_count`).
    pub particle_a: u32,
    /// See `particle_a`.
    pub particle_b: u32,
    /// See `particle_a`.
    pub particle_c: u32,
    /// Weight of `particle_a` (the weights sum to 1; unused ones are 0).
    pub weight_a: f32,
    /// Weight of `particle_b`.
    pub weight_b: f32,
    /// Weight of `particle_c`.
    pub weight_c: f32,
    /// How many of the particles are used, 1..=3.
    pub particle_count: u32,
    /// The hit point, world space.
    pub point: SinewVec3,
    /// The surface normal there, facing the ray.
    pub normal: SinewVec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
}

impl From<RayHit> for SinewRayHit {
    fn from(h: RayHit) -> Self {
        SinewRayHit {
            hit: 1,
            body: h.body.into(),
            particle_a: h.particles[0],
            particle_b: h.particles[1],
            particle_c: h.particles[2],
            weight_a: h.weights[0],
            weight_b: h.weights[1],
            weight_c: h.weights[2],
            particle_count: h.particle_count,
            point: h.point.into(),
            normal: h.normal.into(),
            distance: h.distance,
        }
    }
}

/// Where a ray met a collider (`sinew_world_raycast_colliders`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewColliderHit {
    /// 1 when the ray hit a collider; 0 (and the rest zero) when it missed.
    pub hit: SinewBool,
    /// The collider hit.
    pub collider: SinewColliderId,
    /// The hit point, world space.
    pub point: SinewVec3,
    /// The surface normal there (out of a solid shape; facing the ray for a
    /// mesh's triangle).
    pub normal: SinewVec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
}

impl From<ColliderHit> for SinewColliderHit {
    fn from(h: ColliderHit) -> Self {
        SinewColliderHit {
            hit: 1,
            collider: h.collider.into(),
            point: h.point.into(),
            normal: h.normal.into(),
            distance: h.distance,
        }
    }
}

/// The particle nearest a point (`sinew_world_nearest_particle`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewParticleHit {
    /// 1 when a particle was within reach; 0 (and the rest zero) otherwise.
    pub hit: SinewBool,
    /// The particle's body.
    pub body: SinewBodyId,
    /// Its index within the body.
    pub particle: u32,
    /// Where it is.
    pub position: SinewVec3,
    /// Its distance from the query point, metres.
    pub distance: f32,
}

impl From<ParticleHit> for SinewParticleHit {
    fn from(h: ParticleHit) -> Self {
        SinewParticleHit {
            hit: 1,
            body: h.body.into(),
            particle: h.particle,
            position: h.position.into(),
            distance: h.distance,
        }
    }
}

/// Casts a ray against the bodies on a layer in `mask`: particles as
/// spheres of their collision radius, collision sticks as capsules, cloth
/// triangles, a rigid body's solid (box, ball, capsule; a convex body's
/// collision spheres) where it is now. The nearest hit within `max_distance`
/// (metres; `INFINITY` is allowed) goes to `*out_hit`, with the particles
/// and weights that carry it (a rigid body: its particle nearest the hit),
/// so a game can shoot a ragdoll, a cloth or a crate and push the hit point
/// (`sinew_body_apply_hit_impulse`). A ray starting inside a solid does not
/// hit it. A miss is not an error: `out_hit->hit` is 0.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf origin or
/// direction, a zero direction, `max_distance` <= 0 or NaN). Threading:
/// read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_raycast(
    world: *const SinewWorld,
    origin: SinewVec3,
    direction: SinewVec3,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewRayHit,
) -> SinewResult {
    ffi_boundary!("sinew_world_raycast", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit = world.read(|w| Ok(w.raycast(origin.into(), direction.into(), max_distance, mask)?))?;
        *out = hit.map(SinewRayHit::from).unwrap_or_default();
        Ok(())
    })
}

/// Casts a ray against the colliders on a layer in `mask`, where they are
/// now: the nearest hit within `max_distance` goes to `*out_hit` (`hit` 0 on
/// a miss). A ray starting inside a solid shape does not hit that shape.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf, a zero direction,
/// `max_distance` <= 0 or NaN). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_raycast_colliders(
    world: *const SinewWorld,
    origin: SinewVec3,
    direction: SinewVec3,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewColliderHit,
) -> SinewResult {
    ffi_boundary!("sinew_world_raycast_colliders", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit = world.read(|w| Ok(w.raycast_colliders(origin.into(), direction.into(), max_distance, mask)?))?;
        *out = hit.map(SinewColliderHit::from).unwrap_or_default();
        Ok(())
    })
}

/// The particle nearest `point` within `max_distance` (metres; `INFINITY`
/// allowed) among bodies on a layer in `mask`, for picking: into `*out_hit`
/// (`hit` 0 when none is that close).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf point,
/// `max_distance` <= 0 or NaN). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_nearest_particle(
    world: *const SinewWorld,
    point: SinewVec3,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewParticleHit,
) -> SinewResult {
    ffi_boundary!("sinew_world_nearest_particle", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit = world.read(|w| Ok(w.nearest_particle(point.into(), max_distance, mask)?))?;
        *out = hit.map(SinewParticleHit::from).unwrap_or_default();
        Ok(())
    })
}

/// An impulse (newton seconds) at a ray hit from `sinew_world_raycast`:
/// each of its particles gains `weight * impulse / mass` of velocity, so the
/// body's momentum grows by `impulse` at the hit point; a rigid body takes
/// it as a rigid body at `hit->point` (as `sinew_rigid_apply_impulse`), so
/// it also turns. Wakes the body.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID` (the hit's body is gone);
/// `INVALID_ARGUMENT` (a hit with `hit` 0, a particle count outside 1..=3,
/// a particle out of range, a weight outside [0, 1], NaN/inf impulse, a
/// rigid body's NaN/inf point).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_apply_hit_impulse(
    world: *mut SinewWorld,
    hit: *const SinewRayHit,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_body_apply_hit_impulse", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `hit` is NULL or valid for reads (the `ffi` contract).
        let h = unsafe { checked_ref(hit, "hit") }?;
        if h.hit != 1 {
            return Err(Failure::invalid("hit.hit is not 1: the ray missed"));
        }
        let core = RayHit {
            body: BodyId::from(h.body),
            particles: [h.particle_a, h.particle_b, h.particle_c],
            weights: [h.weight_a, h.weight_b, h.weight_c],
            particle_count: h.particle_count,
            point: h.point.into(),
            normal: h.normal.into(),
            distance: h.distance,
        };
        world.write(|w| Ok(w.apply_hit_impulse(&core, impulse.into())?))
    })
}
