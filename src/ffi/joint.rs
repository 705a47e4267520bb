//! `sinew_joint_*`: two-way links between particles of two bodies.

use super::boundary::{SinewWorld, checked_out, world_ref};
use super::types::*;
use crate::Joint;

/// Joins particle `particle_a` of `body_a` to particle `particle_b` of
/// `body_b` with a distance constraint solved in the same relaxation loop as
/// both bodies and weighted by both particles' masses: the coupling is
/// two-way (a cape pinned to a ragdoll's shoulders tugs at the ragdoll).
/// Joined bodies are stepped together and sleep together.
///
/// - `rest_length`: metres; 0 makes the particles one point; < 0 takes their
///   current distance.
/// - `compliance`: XPBD compliance (m/N), >= 0; 0 is rigid.
/// - `out_joint`: receives the id, written only on success. Destroying
///   either body destroys the joint.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID` (a body); `INVALID_ARGUMENT` (a
/// particle index out of range, the same particle twice, NaN/inf, negative
/// compliance); `LIMIT_EXCEEDED` (the world's `max_constraints`: a joint
/// counts as one). Threading: write lock.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_joint_create(
    world: *mut SinewWorld,
    body_a: SinewBodyId,
    particle_a: u32,
    body_b: SinewBodyId,
    particle_b: u32,
    rest_length: f32,
    compliance: f32,
    out_joint: *mut SinewJointId,
) -> SinewResult {
    ffi_boundary!("sinew_joint_create", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_joint` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_joint, "out_joint") }?;
        let joint =
            Joint { body_a: body_a.into(), particle_a, body_b: body_b.into(), particle_b, rest_length, compliance };
        let id = world.write(|w| Ok(w.create_joint(joint)?))?;
        *out = id.into();
        Ok(())
    })
}

/// Destroys a joint; the bodies it joined go on separately.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_joint_destroy(world: *mut SinewWorld, joint: SinewJointId) -> SinewResult {
    ffi_boundary!("sinew_joint_destroy", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.destroy_joint(joint.into())?))
    })
}

/// 1 when `joint` is a live joint of `world`, else 0 (also for a NULL or
/// poisoned world). Never fails. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_joint_is_valid(world: *const SinewWorld, joint: SinewJointId) -> SinewBool {
    let mut valid = 0;
    let _ = ffi_boundary!("sinew_joint_is_valid", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        valid = world.read(|w| Ok(w.is_valid_joint(joint.into()) as SinewBool))?;
        Ok(())
    });
    valid
}
