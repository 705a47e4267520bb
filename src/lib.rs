//! sinew: cloth, ragdolls and animation-driven particle physics for game engines.
//!
//! The method is Thomas Jakobsen's "Advanced Character Physics" (Hitman, 2001):
//! velocity-less Verlet particles, constraints and collisions satisfied by
//! projection, Gauss-Seidel relaxation. Stiffness is given as XPBD compliance
//! (Macklin et al. 2016) so it does not change with the iteration count or the
//! time step.
//!
//! The crate is two layers:
//! - the core ([`World`] and the modules below it): safe Rust, no FFI types,
//!   with [`exec`] (SIMD lanes, colouring, workers) at its bottom;
//! - [`ffi`]: the C ABI shell (`include/sinew.h`), which validates, locks,
//!   calls one core method and maps the error.
//!
//! A step reads as a stage list: see [`solver`].
//!
//! Start at [`World`]: its docs show particles, cloth, ragdolls and motors
//! in short examples that run as doc-tests.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// Every `unsafe` block states its invariant in a `// SAFETY:` comment (CI's
// clippy runs with -D warnings); `exec/simd.rs`'s intrinsic wrappers share one.
#![warn(clippy::undocumented_unsafe_blocks)]

mod body;
mod cloth;
mod collision;
mod constraints;
mod error;
pub mod exec;
mod explosion;
mod far;
mod far_query;
mod hash;
mod particles;
mod pool;
mod profile;
mod query;
mod ragdoll;
mod rigid;
mod snapshot;
pub mod solver;
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub mod test_hooks;
mod world;

pub mod ffi;

pub use body::BodyKind;
pub use cloth::build::{
    BendMode, ClothOptions, GridDef, MeshDef, PIN_TOP_EDGE, PIN_TOP_LEFT, PIN_TOP_RIGHT, TetherMode,
};
pub use collision::readback::Contact;
pub use collision::{
    ALL_LAYERS, ColliderShape, CollisionStick, Combine, CompoundChild, DEFAULT_LAYER, Filter, Material,
};
pub use constraints::angle_limit::Limit;
pub use constraints::distance::{DistanceConstraint, DistanceMethod};
pub use constraints::joint::Joint;
pub use constraints::target::Target;
pub use error::{Error, ErrorKind, Result};
// The SIMD module's old path, kept for users of the Rust API.
pub use exec::Exec;
#[doc(no_inline)]
pub use exec::simd;
pub use exec::simd::SimdLevel;
pub use pool::{BodyId, ColliderId, JointId};
pub use profile::{Profile, Stage};
pub use query::{ColliderHit, ParticleHit, RayHit};
pub use ragdoll::humanoid::BONES as HUMANOID_BONES;
pub use ragdoll::motor::Motors;
pub use ragdoll::{BoneDef, BoneShape, PASSES as RAGDOLL_PASSES, RagdollDef, Skeleton};
pub use rigid::{RigidDef, RigidModel, RigidShape};
pub use world::{World, WorldSettings};

/// Re-exported math types used by the Rust API.
pub use glam::{DVec3, Quat, Vec3};

/// The README's Rust example, run as a doc-test (its other blocks are C,
/// C++ and shell, which rustdoc leaves alone).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
