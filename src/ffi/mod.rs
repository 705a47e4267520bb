//! The C ABI: a thin shell over the core (`include/sinew.h` is generated from
//! these files by cbindgen).
//!
//! Every exported function runs inside [`ffi_boundary!`](boundary), which
//! catches panics and records the thread-local error message; it validates
//! pointers and plain-struct inputs, locks the world, calls one core method and
//! maps the error. No physics here.
//!
//! Conventions (the README's "API conventions"): results are `SinewResult` codes, outputs are
//! written only on success, `NULL` with a count of 0 is an empty array, ids are
//! values whose generation is unique in the process, enum-like inputs arrive as
//! `uint32_t` and are checked.
//!
//! Safety, for every `unsafe extern "C"` function here (the `ffi` contract
//! the `// SAFETY:` comments cite): a non-NULL pointer must be valid for the
//! reads or writes its documentation states (a world from
//! `sinew_world_create` not yet destroyed; arrays of at least the given
//! count), and a buffer the call writes must not overlap any other pointer
//! argument of the call (as if each were `restrict`: sinew holds the output
//! as `&mut` while it reads the inputs). NULL, misalignment, bad ids and
//! bad values are checked and refused. Callbacks (the engine's task system)
//! must not unwind into sinew.
#![allow(clippy::missing_safety_doc)]

#[macro_use]
pub mod boundary;
pub mod body;
pub mod cloth;
pub mod collider;
pub mod double;
pub mod double_query;
pub mod errors;
pub mod joint;
pub mod query;
pub mod ragdoll;
pub mod rigid;
pub mod skeleton;
pub mod tasks;
pub mod types;
pub mod world;

pub use body::*;
pub use boundary::SinewWorld;
pub use cloth::*;
pub use collider::*;
pub use double::*;
pub use double_query::*;
pub use errors::*;
pub use joint::*;
pub use query::*;
pub use ragdoll::*;
pub use rigid::*;
pub use skeleton::*;
pub use types::*;
pub use world::*;

/// Test hooks for the panic boundary (feature `test-hooks`, which only the
/// tests enable); not part of the C ABI.
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub mod testing {
    use super::boundary::{SinewWorld, world_ref};
    use super::types::SinewResult;

    /// Panics inside a write-locked call on `world`, through the same boundary
    /// as every exported function.
    ///
    /// # Safety
    /// `world` is NULL or a live world.
    pub unsafe fn panic_inside_step(world: *mut SinewWorld) -> SinewResult {
        ffi_boundary!("panic_inside_step", {
            // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
            let world = unsafe { world_ref(world) }?;
            world.write(|_| -> Result<(), _> { panic!("deliberate test panic") })
        })
    }
}
