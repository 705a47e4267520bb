//! The `_d` queries and pushes: the contact readback, ray casts, the
//! nearest particle, impulses at a point, explosions and the cloth's vertex
//! write with world positions in double precision (`SinewVec3d`), for
//! engines with large worlds. Each is its `f32` sibling with positions in
//! `f64`: same validation, same errors, same threading. A query point is
//! taken into each body's or collider's frame exactly (see
//! `src/far_query.rs`), so a query 10 km out finds what the same query
//! finds at the origin, and every position read back is the exact world
//! position, not one rounded to `f32` world coordinates.

use super::boundary::{Failure, SinewWorld, checked_out, checked_ref, optional_out, read_into, world_ref};
use super::types::*;
use crate::{BodyId, Contact, DVec3, RayHit};

/// A contact of the last step with its point in double precision
/// (`sinew_world_read_contacts_d`): `SinewContact`'s fields, the point last
/// (after 4 bytes of padding, where a double aligns). 80 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewContactd {
    /// The body.
    pub body: SinewBodyId,
    /// The particle's index within the body (between bodies: the body's
    /// particle nearest the contact).
    pub particle: u32,
    /// The collider it touched last (possibly destroyed since the step);
    /// the null id (0) for a contact between bodies.
    pub collider: SinewColliderId,
    /// The surface's unit normal, out of the collider (between bodies: out
    /// of the other body, into `body`).
    pub normal: SinewVec3,
    /// The deepest push-out of one substep, metres.
    pub depth: f32,
    /// The fastest approach along the normal during the step, m/s (>= 0).
    pub speed: f32,
    /// The other body of a contact between bodies (possibly destroyed
    /// since the step); the null id (0) for a contact with a collider.
    pub other_body: SinewBodyId,
    /// The other body's particle nearest the contact (0 with a collider).
    pub other_particle: u32,
    /// Where the particle's sphere meets the surface (between bodies: where
    /// `body`'s surface meets the other's), at the end of the step: world
    /// space, metres, exact (the body's frame plus the point in it).
    pub point: SinewVec3d,
}

impl SinewContactd {
    fn new(c: Contact, point: DVec3) -> Self {
        SinewContactd {
            body: c.body.into(),
            particle: c.particle,
            collider: c.collider.into(),
            normal: c.normal.into(),
            depth: c.depth,
            speed: c.speed,
            other_body: c.other_body.into(),
            other_particle: c.other_particle,
            point: point.into(),
        }
    }
}

/// Where a ray met a body, the point in double precision
/// (`sinew_world_raycast_d`): `SinewRayHit`'s fields, the point last. 80
/// bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewRayHitd {
    /// 1 when the ray hit a body; 0 (and the rest zero) when it missed.
    pub hit: SinewBool,
    /// The body hit.
    pub body: SinewBodyId,
    /// The particles (indices within the body) carrying the hit point, with
    /// their barycentric weights, as in `SinewRayHit`.
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
    /// The surface normal there, facing the ray.
    pub normal: SinewVec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
    /// The hit point, world space: the ray's origin plus its direction
    /// times `distance`, in double precision.
    pub point: SinewVec3d,
}

impl SinewRayHitd {
    fn new(h: RayHit, point: DVec3) -> Self {
        SinewRayHitd {
            hit: 1,
            body: h.body.into(),
            particle_a: h.particles[0],
            particle_b: h.particles[1],
            particle_c: h.particles[2],
            weight_a: h.weights[0],
            weight_b: h.weights[1],
            weight_c: h.weights[2],
            particle_count: h.particle_count,
            normal: h.normal.into(),
            distance: h.distance,
            point: point.into(),
        }
    }
}

/// Where a ray met a collider, the point in double precision
/// (`sinew_world_raycast_colliders_d`): `SinewColliderHit`'s fields, the
/// point last (after 4 bytes of padding). 56 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewColliderHitd {
    /// 1 when the ray hit a collider; 0 (and the rest zero) when it missed.
    pub hit: SinewBool,
    /// The collider hit.
    pub collider: SinewColliderId,
    /// The surface normal there (out of a solid shape; facing the ray for a
    /// mesh's triangle).
    pub normal: SinewVec3,
    /// Distance from the ray's origin, metres.
    pub distance: f32,
    /// The hit point, world space: the ray's origin plus its direction
    /// times `distance`, in double precision.
    pub point: SinewVec3d,
}

/// The particle nearest a point, its place in double precision
/// (`sinew_world_nearest_particle_d`): `SinewParticleHit`'s fields, the
/// position last (after 4 bytes of padding). 48 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewParticleHitd {
    /// 1 when a particle was within reach; 0 (and the rest zero) otherwise.
    pub hit: SinewBool,
    /// The particle's body.
    pub body: SinewBodyId,
    /// Its index within the body.
    pub particle: u32,
    /// Its distance from the query point, metres (computed in double
    /// precision, rounded once).
    pub distance: f32,
    /// Where it is: world space, exact.
    pub position: SinewVec3d,
}

const _: () = assert!(size_of::<SinewContactd>() == 80);
const _: () = assert!(size_of::<SinewRayHitd>() == 80);
const _: () = assert!(size_of::<SinewColliderHitd>() == 56);
const _: () = assert!(size_of::<SinewParticleHitd>() == 48);

/// `sinew_world_read_contacts` with each contact's point in double
/// precision (world space, exact: the body's frame plus the point in it, not
/// rounded to `f32` world coordinates). Same contacts, same order.
///
/// - `out`: `capacity` contacts, or NULL with capacity 0 to ask for the count.
/// - `out_count`: optional (NULL = not wanted); receives the count.
///
/// Errors: `NULL_ARGUMENT` (world; `out` NULL with a capacity),
/// `BUFFER_TOO_SMALL` (nothing written, the count stored). Threading: read
/// lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_read_contacts_d(
    world: *const SinewWorld,
    out: *mut SinewContactd,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_world_read_contacts_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let all: Vec<SinewContactd> = w.contacts_f64().map(|(c, p)| SinewContactd::new(c, p)).collect();
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, count, all.into_iter()) }
        })
    })
}

/// `sinew_world_raycast` from an origin in double precision: the ray meets
/// each body in the body's frame (its origin there rounded once, at the
/// scale of its distance from the body), so a ray 10 km out hits as the
/// same ray at the world's origin; the hit point is the origin plus
/// `direction * distance` in double precision. The nearest hit within
/// `max_distance` (metres; `INFINITY` is allowed) among bodies on a layer in
/// `mask` goes to `*out_hit`; a miss is not an error (`out_hit->hit` 0).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf origin or one
/// beyond +-1e15 m, a NaN/inf or zero direction, `max_distance` <= 0 or
/// NaN). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_raycast_d(
    world: *const SinewWorld,
    origin: SinewVec3d,
    direction: SinewVec3,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewRayHitd,
) -> SinewResult {
    ffi_boundary!("sinew_world_raycast_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit = world.read(|w| Ok(w.raycast_f64(origin.into(), direction.into(), max_distance, mask)?))?;
        *out = hit.map(|(h, p)| SinewRayHitd::new(h, p)).unwrap_or_default();
        Ok(())
    })
}

/// `sinew_world_raycast_colliders` from an origin in double precision: a
/// collider placed with the `_d` calls meets the ray in its own frame (its
/// shape exact), one placed in `f32` in the frame of the grid point nearest
/// the ray's origin; the hit point is the origin plus
/// `direction * distance` in double precision. `hit` 0 on a miss.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf origin or one
/// beyond +-1e15 m, a NaN/inf or zero direction, `max_distance` <= 0 or
/// NaN). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_raycast_colliders_d(
    world: *const SinewWorld,
    origin: SinewVec3d,
    direction: SinewVec3,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewColliderHitd,
) -> SinewResult {
    ffi_boundary!("sinew_world_raycast_colliders_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit =
            world.read(|w| Ok(w.raycast_colliders_f64(origin.into(), direction.into(), max_distance, mask)?))?;
        *out = hit
            .map(|(h, p)| SinewColliderHitd {
                hit: 1,
                collider: h.collider.into(),
                normal: h.normal.into(),
                distance: h.distance,
                point: p.into(),
            })
            .unwrap_or_default();
        Ok(())
    })
}

/// `sinew_world_nearest_particle` to a point in double precision: the
/// particle nearest `point` within `max_distance` (metres; `INFINITY`
/// allowed) among bodies on a layer in `mask`, distances computed in double
/// precision, its exact world position into `*out_hit` (`hit` 0 when none is
/// that close). Ties go to the earlier body and particle.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` (NaN/inf point or one beyond
/// +-1e15 m, `max_distance` <= 0 or NaN). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_nearest_particle_d(
    world: *const SinewWorld,
    point: SinewVec3d,
    max_distance: f32,
    mask: u32,
    out_hit: *mut SinewParticleHitd,
) -> SinewResult {
    ffi_boundary!("sinew_world_nearest_particle_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hit` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_hit, "out_hit") }?;
        let hit = world.read(|w| Ok(w.nearest_particle_f64(point.into(), max_distance, mask)?))?;
        *out = hit
            .map(|(h, p)| SinewParticleHitd {
                hit: 1,
                body: h.body.into(),
                particle: h.particle,
                distance: h.distance,
                position: p.into(),
            })
            .unwrap_or_default();
        Ok(())
    })
}

/// `sinew_body_apply_hit_impulse` for a hit from `sinew_world_raycast_d`:
/// an impulse (newton seconds) at the hit, each of its particles gaining
/// `weight * impulse / mass` of velocity; a rigid body takes it as a rigid
/// body at `hit->point` (as `sinew_rigid_apply_impulse_d`), taken into its
/// frame exactly. `hit` is read during the call only. Wakes the body.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID` (the hit's body is gone);
/// `INVALID_ARGUMENT` (a hit with `hit` 0, a particle count outside 1..=3,
/// a particle out of range, a weight outside [0, 1], NaN/inf impulse, a
/// rigid body's NaN/inf point or one beyond +-1e15 m). Nothing changes on
/// error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_apply_hit_impulse_d(
    world: *mut SinewWorld,
    hit: *const SinewRayHitd,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_body_apply_hit_impulse_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `hit` is NULL or valid for reads (the `ffi` contract).
        let h = unsafe { checked_ref(hit, "hit") }?;
        if h.hit != 1 {
            return Err(Failure::invalid("hit.hit is not 1: the ray missed"));
        }
        let point = DVec3::from(h.point);
        let core = RayHit {
            body: BodyId::from(h.body),
            particles: [h.particle_a, h.particle_b, h.particle_c],
            weights: [h.weight_a, h.weight_b, h.weight_c],
            particle_count: h.particle_count,
            point: point.as_vec3(),
            normal: h.normal.into(),
            distance: h.distance,
        };
        world.write(|w| Ok(w.apply_hit_impulse_f64(&core, point, impulse.into())?))
    })
}

/// `sinew_ragdoll_apply_impulse` at a world point in double precision: an
/// impulse (N s, world space) at `point` of a bone, spread over the bone's
/// particles by the point's weights along it (the point taken into the
/// ragdoll's frame exactly). Wakes it.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a bone out of range, NaN/inf, a point beyond +-1e15 m. Nothing
/// changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_apply_impulse_d(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bone: u32,
    point: SinewVec3d,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_apply_impulse_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.apply_bone_impulse_f64(BodyId::from(ragdoll), bone, point.into(), impulse.into())?))
    })
}

/// `sinew_rigid_apply_impulse` at a world point in double precision: an
/// impulse (newton seconds) at `point`, as to a rigid body (its momentum
/// changes by `impulse`, its angular momentum about its centre of mass by
/// `(point - centre) x impulse`), the point taken into the body's frame
/// exactly. Wakes the body.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (NaN/inf, a point beyond +-1e15 m). Nothing changes on error.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_apply_impulse_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    point: SinewVec3d,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_apply_impulse_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.apply_rigid_impulse_f64(BodyId::from(body), point.into(), impulse.into())?))
    })
}

/// `sinew_world_explode` about a centre in double precision: every free
/// particle within `radius` of `center` gains the velocity
/// `strength / max(d, 0.1 m)^2` (m/s) away from it, `d` and the direction
/// computed in double precision from the particle's exact world position.
/// Pinned particles stay; the bodies touched wake up. `out_count` (may be
/// NULL) receives how many particles were pushed.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a centre beyond
/// +-1e15 m, a negative strength or radius (nothing is changed). Threading:
/// write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_explode_d(
    world: *mut SinewWorld,
    center: SinewVec3d,
    strength: f32,
    radius: f32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_world_explode_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { optional_out(out_count, "out_count") }?;
        let n = world.write(|w| Ok(w.explode_f64(center.into(), strength, radius)?))?;
        if let Some(out) = out {
            *out = n;
        }
        Ok(())
    })
}

/// `sinew_cloth_write_vertices` with positions in double precision: writes
/// a cloth's positions (3 doubles, world space, exact) and normals (3
/// floats) per engine vertex (before welding) straight into a vertex buffer:
/// vertex `k`'s position at `positions + k * position_stride` bytes and its
/// normal at `normals + k * normal_stride`. Either pointer may be NULL to
/// skip it; no alignment is required. `capacity` is in vertices;
/// `positions == NULL && normals == NULL && capacity == 0` asks for the
/// count. A too small capacity writes nothing and returns `BUFFER_TOO_SMALL`
/// with the count in `*out_count` (which may be NULL).
///
/// Errors: `NULL_ARGUMENT` (world; both buffers NULL with a non-zero
/// capacity), `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT` (a position
/// stride below 24 or a normal stride below 12, or one so large the buffer
/// would pass the address space), `BUFFER_TOO_SMALL`. Threading: read lock.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_cloth_write_vertices_d(
    world: *const SinewWorld,
    body: SinewBodyId,
    positions: *mut u8,
    position_stride: usize,
    normals: *mut u8,
    normal_stride: usize,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_write_vertices_d", {
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe {
            super::cloth::write_vertices(
                world,
                body,
                (positions, position_stride),
                (normals, normal_stride),
                capacity,
                out_count,
                |w, b, i| w.world_position_f64(b, i).to_array(),
            )
        }
    })
}
