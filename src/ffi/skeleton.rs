//! `sinew_skeleton_*`: skeletons, built once and shared by every ragdoll
//! made from them (`sinew_ragdoll_create_from_skeleton`).

use super::boundary::{Failure, checked_out, checked_ref};
use super::ragdoll::{SinewRagdollDef, ragdoll_def_of};
use super::types::*;
use crate::Skeleton;
use std::sync::Arc;

const SKELETON_MAGIC: u64 = 0x5349_4E45_5753_4B4C; // "SINEWSKL"

/// An opaque skeleton: a ragdoll definition checked and built once, which
/// any number of ragdolls in any number of worlds share. It never changes
/// after creation, so any thread may use it, from many calls at once. Each
/// ragdoll made from it holds it: `sinew_skeleton_destroy` releases the
/// caller's handle, and the skeleton lives on until its last ragdoll is
/// destroyed.
pub struct SinewSkeleton {
    magic: u64,
    pub(crate) skeleton: Arc<Skeleton>,
}

impl SinewSkeleton {
    /// A new handle on `skeleton`, owned by the caller.
    pub(crate) fn boxed(skeleton: Arc<Skeleton>) -> *mut SinewSkeleton {
        Box::into_raw(Box::new(SinewSkeleton { magic: SKELETON_MAGIC, skeleton }))
    }
}

/// A skeleton handle, checked: NULL and a handle that is not a live
/// skeleton are refused (the last only while its memory has not been
/// reused: a best-effort check; using a destroyed handle is undefined
/// behaviour).
///
/// # Safety
/// `skeleton` is NULL or points to memory readable as a `SinewSkeleton`.
pub(crate) unsafe fn skeleton_ref<'a>(skeleton: *const SinewSkeleton) -> Result<&'a SinewSkeleton, Failure> {
    // SAFETY: `skeleton` is NULL or valid for reads (the `ffi` contract).
    let s = unsafe { checked_ref(skeleton, "skeleton") }?;
    if s.magic != SKELETON_MAGIC {
        return Err(Failure::invalid("skeleton is not a live SinewSkeleton (destroyed, or not a skeleton)"));
    }
    Ok(s)
}

/// Checks a ragdoll definition and builds its skeleton once, for
/// `sinew_ragdoll_create_from_skeleton` to make many ragdolls of.
///
/// - `def`: from `sinew_default_ragdoll_def()`, with `bones` set; read
///   during the call only (names included). Its rest transforms are the
///   skeleton's rest pose, which each ragdoll places by its own transform.
/// - `out_skeleton`: receives the new skeleton, owned by the caller until
///   `sinew_skeleton_destroy`. Written only on success.
///
/// Errors: those of `sinew_ragdoll_create` for its def (`NULL_ARGUMENT`,
/// `INVALID_ARGUMENT`, `LIMIT_EXCEEDED` for more than 1024 bones).
/// Thread-safe.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_skeleton_create(
    def: *const SinewRagdollDef,
    out_skeleton: *mut *mut SinewSkeleton,
) -> SinewResult {
    ffi_boundary!("sinew_skeleton_create", {
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_skeleton` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_skeleton, "out_skeleton") }?;
        let skeleton = Skeleton::new(&ragdoll_def_of(d)?)?;
        *out = SinewSkeleton::boxed(skeleton);
        Ok(())
    })
}

/// Builds the ready human figure's skeleton (the bones of
/// `sinew_ragdoll_create_humanoid`), `height` metres tall, standing on the
/// origin (between its feet) facing +Z: a ragdoll of it stands on the
/// origin of the transform it is made at.
///
/// - `out_skeleton`: receives the new skeleton, owned by the caller until
///   `sinew_skeleton_destroy`. Written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a height that is not in
/// (0, 1000]. Thread-safe.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_skeleton_create_humanoid(
    height: f32,
    out_skeleton: *mut *mut SinewSkeleton,
) -> SinewResult {
    ffi_boundary!("sinew_skeleton_create_humanoid", {
        // SAFETY: `out_skeleton` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_skeleton, "out_skeleton") }?;
        *out = SinewSkeleton::boxed(Skeleton::humanoid(height)?);
        Ok(())
    })
}

/// Releases the caller's handle on a skeleton. Ragdolls made from it keep
/// it alive and are unaffected. NULL is a no-op.
///
/// Threading: any thread, but no other call may be using or start using
/// this handle during or after it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_skeleton_destroy(skeleton: *mut SinewSkeleton) {
    let _ = ffi_boundary!("sinew_skeleton_destroy", {
        if skeleton.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL, so a handle from this library (the function's
        // contract); the magic check refuses most others.
        unsafe { skeleton_ref(skeleton) }?;
        // SAFETY: made by Box::into_raw in `SinewSkeleton::boxed`, checked above.
        let mut boxed = unsafe { Box::from_raw(skeleton) };
        boxed.magic = 0;
        drop(boxed);
        Ok(())
    });
}

/// Number of bones of a skeleton.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a handle that is not a
/// live skeleton. Thread-safe.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_skeleton_bone_count(skeleton: *const SinewSkeleton, out_count: *mut u32) -> SinewResult {
    ffi_boundary!("sinew_skeleton_bone_count", {
        // SAFETY: `skeleton` is NULL or a handle from this library (the `ffi` contract).
        let s = unsafe { skeleton_ref(skeleton) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = s.skeleton.bone_count() as u32;
        Ok(())
    })
}
