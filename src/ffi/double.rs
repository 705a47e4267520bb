//! The `_d` calls: the world positions of every family's calls in double
//! precision (`SinewVec3d`, `SinewTransformd`), for engines with large
//! worlds. Each is its `f32` sibling with positions in `f64`: same
//! validation, same errors, same threading; the core keeps what they place
//! relative to a grid point near it (see `src/far.rs`), so nothing an
//! engine passes in or reads out is rounded to `f32` world coordinates.

use super::boundary::{
    Failure, SinewWorld, checked_out, checked_ref, checked_slice, optional_out, read_into, world_ref,
};
use super::cloth::{SinewClothGridDef, SinewClothMeshDef, create_mesh, grid_def_of};
use super::collider::SinewColliderDef;
use super::ragdoll::{SinewRagdollDef, ragdoll_def_of};
use super::rigid::{SinewRigidDef, rigid_def_of};
use super::skeleton::{SinewSkeleton, skeleton_ref};
use super::types::*;
use crate::collision::{ColliderShape, Filter};
use crate::{BodyId, DVec3, Quat, Target, Vec3};

/// A target for one particle, its position in double precision
/// (`sinew_body_set_targets_d`): `SinewTarget`'s fields, the position last
/// (after 4 bytes of padding, where a double aligns). 40 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewTargetd {
    /// Particle index within the body.
    pub particle: u32,
    /// XPBD compliance, >= 0; 0 = as stiff as the solver allows.
    pub compliance: f32,
    /// Newtons, >= 0; 0 or +inf = unlimited (a hard pin when compliance is 0).
    pub max_force: f32,
    /// World-space target for the end of the next step, metres.
    pub position: SinewVec3d,
}

fn dvecs(v: &[SinewVec3d]) -> Vec<DVec3> {
    v.iter().map(|&p| p.into()).collect()
}

fn transform_d(p: DVec3, q: Quat) -> SinewTransformd {
    SinewTransformd { position: p.into(), rotation: q.into() }
}

// ---- bodies -------------------------------------------------------------

/// `sinew_body_create_particles` with world positions in double precision:
/// each particle is kept to `f32` rounding of its offset from the body's
/// centre, however far from the world's origin.
///
/// - `positions`: `count` world-space positions, read during the call only.
/// - `inv_masses`: `count` inverse masses (1/kg, >= 0; 0 pins), or NULL for all 1.
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for count 0, NaN/inf or
/// positions beyond +-1e15 m, negative or NaN inverse masses;
/// `LIMIT_EXCEEDED` (`max_particles`, `max_bodies`). Nothing is created on
/// an error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_create_particles_d(
    world: *mut SinewWorld,
    positions: *const SinewVec3d,
    inv_masses: *const f32,
    count: u32,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_body_create_particles_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let positions = dvecs(unsafe { checked_slice(positions, count as usize, "positions") }?);
        let inv_masses = if inv_masses.is_null() {
            None
        } else {
            // SAFETY: `inv_masses` is NULL or valid for reads of `count` elements (the `ffi` contract).
            Some(unsafe { checked_slice(inv_masses, count as usize, "inv_masses") }?)
        };
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let id = world.write(|w| Ok(w.create_particles_f64(&positions, inv_masses)?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_body_set_positions` with world positions in double precision:
/// teleports particles `first .. first + count`, keeping their velocities.
/// When the new positions take the body away from the point it is kept
/// relative to, that point first moves to the body's new place (exactly),
/// so the body stays as precise as near the origin.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a range
/// outside the body or NaN/inf (nothing is changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_positions_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    positions: *const SinewVec3d,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_positions_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let v = dvecs(unsafe { checked_slice(positions, count as usize, "positions") }?);
        world.write(|w| Ok(w.set_positions_f64(body.into(), first, &v)?))
    })
}

/// `sinew_body_read_positions` in double precision: copies a body's particle
/// positions (world space, particle order, exact) into `out`, which holds
/// `capacity` vectors. `out == NULL && capacity == 0` asks for the count. A
/// too small buffer gets nothing: `BUFFER_TOO_SMALL`, with the needed count
/// in `*out_count`. `out_count` may be NULL.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `BUFFER_TOO_SMALL`. Threading: read
/// lock (parallel with other reads).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_read_positions_d(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut SinewVec3d,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_read_positions_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let positions = w.positions_f64(BodyId::from(body))?.map(SinewVec3d::from);
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, positions) }
        })
    })
}

/// `sinew_body_set_targets` with each target's world position in double
/// precision: sets or replaces targets; a target stays until replaced (same
/// particle) or cleared.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a particle
/// out of range, NaN/inf, a negative compliance or max_force (nothing is
/// changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_targets_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    targets: *const SinewTargetd,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_targets_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `targets` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let t = unsafe { checked_slice(targets, count as usize, "targets") }?;
        let core: Vec<Target> = t
            .iter()
            .map(|t| Target {
                particle: t.particle,
                position: Vec3::ZERO,
                compliance: t.compliance,
                max_force: t.max_force,
            })
            .collect();
        let positions: Vec<DVec3> = t.iter().map(|t| t.position.into()).collect();
        world.write(|w| Ok(w.set_targets_f64(body.into(), &core, &positions)?))
    })
}

/// `sinew_body_attach_to_frame` with the frame's world position in double
/// precision: pins `count` particles of a body to a frame the engine moves;
/// they become kinematic and keep their current place in the frame.
///
/// - `particles`: `count` particle indices, read during the call only.
/// - `out_frame`: receives the frame's index within the body, written only
///   on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` (count 0, an
/// index out of range, NaN/inf, a zero quaternion; nothing is changed);
/// `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_attach_to_frame_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    particles: *const u32,
    count: u32,
    frame: SinewTransformd,
    out_frame: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_attach_to_frame_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `particles` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let particles = unsafe { checked_slice(particles, count as usize, "particles") }?;
        // SAFETY: `out_frame` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_frame, "out_frame") }?;
        let (p, q) = (frame.position.into(), frame.rotation.into());
        *out = world.write(|w| Ok(w.attach_to_frame_f64(body.into(), particles, p, q)?))?;
        Ok(())
    })
}

/// `sinew_body_set_frame` with the frame's world position in double
/// precision: its particles reach their points in it at the end of the next
/// step, interpolated across the substeps.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (frame index out
/// of range, NaN/inf, a zero quaternion; nothing is changed). Threading:
/// write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_frame_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    frame: u32,
    transform: SinewTransformd,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_frame_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let (p, q) = (transform.position.into(), transform.rotation.into());
        world.write(|w| Ok(w.set_frame_f64(body.into(), frame, p, q)?))
    })
}

/// `sinew_body_teleport` with both transforms' positions in double
/// precision: carries the whole body by the rigid motion that takes `from`
/// to `to`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for NaN/inf, a
/// zero quaternion, `velocity_mode` not a `SINEW_TELEPORT_*` value, or a
/// destination beyond the world's coordinate range (nothing is changed).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_teleport_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    from: SinewTransformd,
    to: SinewTransformd,
    velocity_mode: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_teleport_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let zero = match velocity_mode {
            super::body::SINEW_TELEPORT_KEEP_VELOCITY => false,
            super::body::SINEW_TELEPORT_ZERO_VELOCITY => true,
            v => return Err(Failure::invalid(format!("velocity_mode {v} is not a SINEW_TELEPORT_* value"))),
        };
        let (from, to) = ((from.position.into(), from.rotation.into()), (to.position.into(), to.rotation.into()));
        world.write(|w| Ok(w.teleport_f64(body.into(), from, to, zero)?))
    })
}

/// `sinew_body_get_bounds` in double precision: the world-space box around
/// a body's particles, grown by its particle radius. Either output may be
/// NULL.
///
/// Errors: `NULL_ARGUMENT` (world), `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_get_bounds_d(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_min: *mut SinewVec3d,
    out_max: *mut SinewVec3d,
) -> SinewResult {
    ffi_boundary!("sinew_body_get_bounds_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_min` is NULL or valid for writes (the `ffi` contract).
        let lo = unsafe { optional_out(out_min, "out_min") }?;
        // SAFETY: `out_max` is NULL or valid for writes (the `ffi` contract).
        let hi = unsafe { optional_out(out_max, "out_max") }?;
        let (a, b) = world.read(|w| Ok(w.body_bounds_f64(body.into())?))?;
        if let Some(lo) = lo {
            *lo = a.into();
        }
        if let Some(hi) = hi {
            *hi = b.into();
        }
        Ok(())
    })
}

// ---- colliders ------------------------------------------------------------

/// A collider with one Coulomb coefficient placed at `position`, `rotation`.
fn create_collider(
    world: *mut SinewWorld,
    shape: ColliderShape,
    position: DVec3,
    rotation: Quat,
    friction: f32,
    out: *mut SinewColliderId,
) -> Result<(), Failure> {
    // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
    let world = unsafe { world_ref(world) }?;
    // SAFETY: `out` is NULL or valid for writes (the `ffi` contract).
    let out = unsafe { checked_out(out, "out_collider") }?;
    let id = world.write(|w| Ok(w.create_collider_at_f64(shape, position, rotation, friction)?))?;
    *out = id.into();
    Ok(())
}

/// `sinew_collider_create_plane` with the plane's place in double
/// precision: the solid half-space `dot(normal, x) < offset`. Unlike the
/// `f32` call, the plane's frame starts at the point `normal * offset`
/// (normal normalised) with no rotation, the shape's own offset 0, so that
/// `sinew_collider_set_transform_d` moves it from there.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a zero or NaN normal,
/// NaN/inf offset or one beyond +-1e15 m, negative/NaN friction;
/// `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_plane_d(
    world: *mut SinewWorld,
    normal: SinewVec3,
    offset: f64,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_plane_d", {
        // The core's check, which also makes the normal unit.
        let shape = crate::collision::checked_shape(ColliderShape::Plane { normal: normal.into(), offset: 0.0 }, true)?;
        let ColliderShape::Plane { normal: unit, .. } = shape else { unreachable!("a plane stays a plane") };
        // A NaN/inf offset makes the point non-finite: refused by the core.
        let at = unit.as_dvec3() * offset;
        create_collider(world, shape, at, Quat::IDENTITY, friction, out_collider)
    })
}

/// `sinew_collider_create_sphere` with the centre in double precision.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_sphere_d(
    world: *mut SinewWorld,
    center: SinewVec3d,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_sphere_d", {
        let shape = ColliderShape::Sphere { radius };
        create_collider(world, shape, center.into(), Quat::IDENTITY, friction, out_collider)
    })
}

/// `sinew_collider_create_box` with the centre in double precision: an
/// oriented box centred on `transform.position`, `half_extents` along its
/// rotated axes.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a zero rotation,
/// half extents <= 0, negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_box_d(
    world: *mut SinewWorld,
    transform: SinewTransformd,
    half_extents: SinewVec3,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_box_d", {
        let shape = ColliderShape::Box { half_extents: half_extents.into() };
        let (p, q) = (transform.position.into(), transform.rotation.into());
        create_collider(world, shape, p, q, friction, out_collider)
    })
}

/// `sinew_collider_create_capsule` with the segment's ends in double
/// precision. Its frame is the segment's midpoint with no rotation.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction, a segment longer than the world's coordinate range;
/// `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_capsule_d(
    world: *mut SinewWorld,
    a: SinewVec3d,
    b: SinewVec3d,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_capsule_d", {
        let (a, b) = (DVec3::from(a), DVec3::from(b));
        if !(a.is_finite() && b.is_finite()) {
            return Err(Failure::invalid(format!("a and b must be finite, got {a} and {b}")));
        }
        let mid = (a + b) * 0.5;
        let shape = ColliderShape::Capsule { a: (a - mid).as_vec3(), b: (b - mid).as_vec3(), radius };
        create_collider(world, shape, mid, Quat::IDENTITY, friction, out_collider)
    })
}

/// `sinew_collider_create` with the frame's position in double precision:
/// a collider of any shape from `def` (from `sinew_default_collider_def()`,
/// read during the call only), placed at `position` and
/// `def->transform.rotation` (`def->transform.position` is ignored). For a
/// level's terrain, meshes and heightfields far from the origin.
///
/// Errors: those of `sinew_collider_create`, and `INVALID_ARGUMENT` for
/// `position` NaN/inf or beyond +-1e15 m. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_d(
    world: *mut SinewWorld,
    def: *const SinewColliderDef,
    position: SinewVec3d,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_collider` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_collider, "out_collider") }?;
        let shape = super::collider::shape_of(d, true)?;
        let material = d.material.to_core()?;
        let filter = Filter { layer: d.layer, mask: d.mask };
        let (p, q) = (position.into(), d.transform.rotation.into());
        let id = world.write(|w| Ok(w.create_collider_f64(shape, p, q, material, filter)?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_collider_set_transform` with the position in double precision:
/// places a collider's frame; the engine moves kinematic colliders with this
/// every frame. The collider is kept relative to a grid point near it, so
/// contacts with it are as exact 10 km out as at the origin.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for NaN/inf or a
/// zero rotation (nothing is changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_set_transform_d(
    world: *mut SinewWorld,
    collider: SinewColliderId,
    transform: SinewTransformd,
) -> SinewResult {
    ffi_boundary!("sinew_collider_set_transform_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let (p, q) = (transform.position.into(), transform.rotation.into());
        world.write(|w| Ok(w.set_collider_transform_f64(collider.into(), p, q)?))
    })
}

/// A collider's frame, its position in double precision (exact).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_get_transform_d(
    world: *const SinewWorld,
    collider: SinewColliderId,
    out_transform: *mut SinewTransformd,
) -> SinewResult {
    ffi_boundary!("sinew_collider_get_transform_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_transform` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_transform, "out_transform") }?;
        let (p, q) = world.read(|w| Ok(w.collider_transform_f64(collider.into())?))?;
        *out = transform_d(p, q);
        Ok(())
    })
}

// ---- ragdolls ---------------------------------------------------------------

/// `sinew_ragdoll_create_humanoid` placed in double precision: the figure
/// is built as at the world's origin and its frame then moved, exactly, to
/// the grid point nearest `at`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a zero rotation,
/// a height out of range; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create_humanoid_d(
    world: *mut SinewWorld,
    at: SinewTransformd,
    height: f32,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create_humanoid_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let (p, q) = (at.position.into(), at.rotation.into());
        let id = world.write(|w| Ok(w.create_humanoid_f64(p, q, height)?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_ragdoll_create_from_skeleton` placed in double precision.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a handle that is not a
/// live skeleton, NaN/inf or a zero rotation in `at`; `LIMIT_EXCEEDED`.
/// Threading: write lock on the world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create_from_skeleton_d(
    world: *mut SinewWorld,
    skeleton: *const SinewSkeleton,
    at: SinewTransformd,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create_from_skeleton_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `skeleton` is NULL or a handle from this library (the `ffi` contract).
        let s = unsafe { skeleton_ref(skeleton) }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let (p, q) = (at.position.into(), at.rotation.into());
        let id = world.write(|w| Ok(w.create_ragdoll_from_f64(&s.skeleton, p, q)?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_ragdoll_read_bones` in double precision: each bone's world
/// transform (head position, exact, and frame; bone order of the def) into
/// `out`, which holds `capacity` transforms. `out == NULL && capacity == 0`
/// asks for the count; a too small buffer gets nothing: `BUFFER_TOO_SMALL`,
/// with the needed count in `*out_count`. `out_count` may be NULL.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `BUFFER_TOO_SMALL`.
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_read_bones_d(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    out: *mut SinewTransformd,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_read_bones_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let bones = w.ragdoll_bones_f64(BodyId::from(ragdoll))?.map(|(p, q)| transform_d(p, q));
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, bones) }
        })
    })
}

/// `sinew_ragdoll_set_motor_targets` with each bone's world position in
/// double precision: the motors' target pose, one transform per bone (bone
/// order), as the animation outputs it each frame.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a count other than the bone count, NaN/inf, a zero rotation
/// (nothing is changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_targets_d(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransformd,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_targets_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let t = unsafe { checked_slice(bones, count as usize, "bones") }?;
        let pose: Vec<(DVec3, Quat)> = t.iter().map(|t| (t.position.into(), t.rotation.into())).collect();
        world.write(|w| Ok(w.set_ragdoll_motor_targets_f64(ragdoll.into(), &pose)?))
    })
}

/// `sinew_ragdoll_create` with the def's rest transforms relative to
/// `origin`, given in double precision: a bone whose def position is `x`
/// starts at `origin + x`. An engine with large worlds gives its skeleton's
/// bind pose relative to the character (or any point near it) and the
/// character's place here.
///
/// Errors: those of `sinew_ragdoll_create`, and `INVALID_ARGUMENT` for
/// `origin` NaN/inf or beyond +-1e15 m. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create_d(
    world: *mut SinewWorld,
    def: *const SinewRagdollDef,
    origin: SinewVec3d,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let def = ragdoll_def_of(d)?;
        let id = world.write(|w| Ok(w.create_ragdoll_f64(&def, origin.into())?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_ragdoll_set_pose` with each bone's world position in double
/// precision: teleports the ragdoll to a pose (one transform per bone; with
/// `previous`, the pose `dt` seconds earlier, it keeps that motion). A pose
/// far from where the ragdoll was is kept to the ragdoll's own size.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a count other than the bone count, NaN/inf, a zero rotation, `dt` <= 0
/// with `previous`. Nothing changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_pose_d(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransformd,
    previous: *const SinewTransformd,
    count: u32,
    dt: f32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_pose_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let pose = |t: &[SinewTransformd]| t.iter().map(|t| (t.position.into(), t.rotation.into())).collect();
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let now: Vec<(DVec3, Quat)> = pose(unsafe { checked_slice(bones, count as usize, "bones") }?);
        let before: Option<Vec<(DVec3, Quat)>> = if previous.is_null() {
            None
        } else {
            // SAFETY: `previous` is NULL or valid for reads of `count` elements (the `ffi` contract).
            Some(pose(unsafe { checked_slice(previous, count as usize, "previous") }?))
        };
        world.write(|w| Ok(w.set_ragdoll_pose_f64(BodyId::from(ragdoll), &now, before.as_deref().map(|p| (p, dt)))?))
    })
}

/// `sinew_ragdoll_set_motor_targets_local` with positions in double
/// precision: the target pose in the animation's local space, each bone's
/// head position and rotation in its parent's frame, the root (bone 0) in
/// world space.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a count other than the bone count, NaN/inf, a zero rotation. Nothing
/// changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_targets_local_d(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransformd,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_targets_local_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let t = unsafe { checked_slice(bones, count as usize, "bones") }?;
        let pose: Vec<(DVec3, Quat)> = t.iter().map(|t| (t.position.into(), t.rotation.into())).collect();
        world.write(|w| Ok(w.set_ragdoll_motor_targets_local_f64(ragdoll.into(), &pose)?))
    })
}

// ---- rigid bodies and cloth -----------------------------------------------------

/// `sinew_rigid_create` placed in double precision: a rigid body from `def`
/// (from `sinew_default_rigid_def()`, read during the call only) at
/// `position` and `def->transform.rotation` (`def->transform.position` is
/// ignored), built as at the world's origin and moved exactly.
///
/// Errors: those of `sinew_rigid_create`, and `INVALID_ARGUMENT` for
/// `position` NaN/inf or beyond +-1e15 m. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_create_d(
    world: *mut SinewWorld,
    def: *const SinewRigidDef,
    position: SinewVec3d,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_create_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let def = rigid_def_of(d)?;
        let id = world.write(|w| Ok(w.create_rigid_f64(&def, position.into())?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_rigid_read_transform` in double precision: where the rigid body's
/// shape frame is now (position exact to the fit's rounding at the body's
/// size; unit rotation).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a rigid body).
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_read_transform_d(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_transform: *mut SinewTransformd,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_read_transform_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_transform` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_transform, "out_transform") }?;
        let (p, q) = world.read(|w| Ok(w.rigid_transform_f64(BodyId::from(body))?))?;
        *out = transform_d(p, q);
        Ok(())
    })
}

/// `sinew_cloth_create_grid` placed in double precision: a cloth from `def`
/// (from `sinew_default_cloth_grid_def()`, read during the call only) with
/// its top-left vertex at `position` and `def->transform.rotation`
/// (`def->transform.position` is ignored), built as at the world's origin
/// and moved exactly.
///
/// Errors: those of `sinew_cloth_create_grid`, and `INVALID_ARGUMENT` for
/// `position` NaN/inf or beyond +-1e15 m. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_create_grid_d(
    world: *mut SinewWorld,
    def: *const SinewClothGridDef,
    position: SinewVec3d,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_create_grid_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let grid = grid_def_of(d)?;
        let id = world.write(|w| Ok(w.create_cloth_grid_f64(&grid, position.into())?))?;
        *out = id.into();
        Ok(())
    })
}

/// `sinew_cloth_create` placed in double precision: a cloth from a triangle
/// mesh (`def` from `sinew_default_cloth_mesh_def()`, its arrays read during
/// the call only) whose frame is at `position` and `def->transform.rotation`
/// (`def->transform.position` is ignored), built as at the world's origin
/// and moved exactly.
///
/// Errors: those of `sinew_cloth_create`, and `INVALID_ARGUMENT` for
/// `position` NaN/inf or beyond +-1e15 m. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_create_d(
    world: *mut SinewWorld,
    def: *const SinewClothMeshDef,
    position: SinewVec3d,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_create_d", { create_mesh(world, def, out_body, Some(position.into())) })
}

/// `sinew_cloth_set_skin` with the skinned positions in double precision:
/// per engine vertex, where the character's skinning puts it (world
/// space) and its normal, for max distances and backstops.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (count differs from the vertex count, NaN/inf, a zero normal). Nothing
/// changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_skin_d(
    world: *mut SinewWorld,
    body: SinewBodyId,
    positions: *const SinewVec3d,
    normals: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_skin_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let p = dvecs(unsafe { checked_slice(positions, count as usize, "positions") }?);
        // SAFETY: `normals` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let n: Vec<Vec3> =
            unsafe { checked_slice(normals, count as usize, "normals") }?.iter().map(|&v| v.into()).collect();
        world.write(|w| Ok(w.set_cloth_skin_f64(body.into(), &p, &n)?))
    })
}

// ---- world ---------------------------------------------------------------------

/// `sinew_world_shift_origin` with the offset in double precision: moves
/// the world's origin to `offset` (in the coordinates used until now).
/// Nothing moves and velocities stay. Bodies and colliders move to the new
/// coordinates exactly when the offset is a multiple of 4 m (else to the
/// rounding of their own size): a collider placed in `f32` is from then on
/// kept relative to a grid point, as one placed with the `_d` calls.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf or an offset
/// beyond +-1e15 m (nothing is changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_shift_origin_d(world: *mut SinewWorld, offset: SinewVec3d) -> SinewResult {
    ffi_boundary!("sinew_world_shift_origin_d", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.shift_origin_f64(offset.into())?))
    })
}
