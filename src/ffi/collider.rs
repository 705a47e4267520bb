//! `sinew_collider_*`: static or engine-moved collision shapes.

use super::boundary::{SinewWorld, checked_out, world_ref};
use super::types::*;
use crate::{ColliderShape, Quat, Vec3};

fn create(
    world: *mut SinewWorld,
    shape: ColliderShape,
    position: Vec3,
    rotation: Quat,
    friction: f32,
    out: *mut SinewColliderId,
) -> Result<(), super::boundary::Failure> {
    let world = unsafe { world_ref(world) }?;
    let out = unsafe { checked_out(out, "out_collider") }?;
    let id = world.write(|w| Ok(w.create_collider(shape, position, rotation, friction)?))?;
    *out = id.into();
    Ok(())
}

/// Creates a plane collider: the solid half-space `dot(normal, x) < offset`
/// (particles are kept on the side the normal points to). `normal` is
/// normalised; its frame starts as the identity, so `sinew_collider_set_transform`
/// moves the plane as a rigid object. `friction` is Coulomb's coefficient, >= 0.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a zero or NaN normal,
/// NaN/inf offset, negative/NaN friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_plane(
    world: *mut SinewWorld,
    normal: SinewVec3,
    offset: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_plane", {
        let shape = ColliderShape::Plane { normal: normal.into(), offset };
        create(world, shape, Vec3::ZERO, Quat::IDENTITY, friction, out_collider)
    })
}

/// Creates a sphere collider; its frame is `center` with no rotation.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_sphere(
    world: *mut SinewWorld,
    center: SinewVec3,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_sphere", {
        create(world, ColliderShape::Sphere { radius }, center.into(), Quat::IDENTITY, friction, out_collider)
    })
}

/// Creates an oriented box collider centred on `transform.position`, with
/// `half_extents` along its rotated axes.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a zero rotation,
/// half extents <= 0, negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_box(
    world: *mut SinewWorld,
    transform: SinewTransform,
    half_extents: SinewVec3,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_box", {
        let shape = ColliderShape::Box { half_extents: half_extents.into() };
        create(world, shape, transform.position.into(), transform.rotation.into(), friction, out_collider)
    })
}

/// Creates a capsule collider around the segment `a`-`b` (world space);
/// `a == b` makes a sphere. Its frame is the segment's midpoint with no
/// rotation, so `sinew_collider_set_transform` moves the capsule rigidly.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_capsule(
    world: *mut SinewWorld,
    a: SinewVec3,
    b: SinewVec3,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_capsule", {
        let (a, b) = (Vec3::from(a), Vec3::from(b));
        // Non-finite ends are refused by the core; the midpoint is then irrelevant.
        let mid = (a + b) * 0.5;
        let mid = if mid.is_finite() { mid } else { Vec3::ZERO };
        let shape = ColliderShape::Capsule { a: a - mid, b: b - mid, radius };
        create(world, shape, mid, Quat::IDENTITY, friction, out_collider)
    })
}

/// Places a collider's frame (see each `create` for where a frame starts):
/// the engine moves kinematic colliders with this every frame. The rotation is
/// normalised.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for NaN/inf or a
/// zero rotation. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_set_transform(
    world: *mut SinewWorld,
    collider: SinewColliderId,
    transform: SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_collider_set_transform", {
        let world = unsafe { world_ref(world) }?;
        world.write(|w| {
            Ok(w.set_collider_transform(collider.into(), transform.position.into(), transform.rotation.into())?)
        })
    })
}

/// A collider's frame.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_get_transform(
    world: *const SinewWorld,
    collider: SinewColliderId,
    out_transform: *mut SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_collider_get_transform", {
        let world = unsafe { world_ref(world) }?;
        let out = unsafe { checked_out(out_transform, "out_transform") }?;
        let (p, q) = world.read(|w| Ok(w.collider_transform(collider.into())?))?;
        *out = SinewTransform { position: p.into(), rotation: q.into() };
        Ok(())
    })
}

/// 1 when `collider` is a live collider of `world`, else 0 (also for a NULL
/// or poisoned world). Never fails. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_is_valid(world: *const SinewWorld, collider: SinewColliderId) -> SinewBool {
    let mut valid = 0;
    let _ = ffi_boundary!("sinew_collider_is_valid", {
        let world = unsafe { world_ref(world) }?;
        valid = world.read(|w| Ok(w.is_valid_collider(collider.into()) as SinewBool))?;
        Ok(())
    });
    valid
}

/// Destroys a collider; its id becomes invalid.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_destroy(world: *mut SinewWorld, collider: SinewColliderId) -> SinewResult {
    ffi_boundary!("sinew_collider_destroy", {
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.destroy_collider(collider.into())?))
    })
}
