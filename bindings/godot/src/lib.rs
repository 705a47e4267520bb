//! sinew in Godot 4: a GDExtension with `SinewWorld3D`, `SinewCloth3D`,
//! `SinewRagdoll3D` and `SinewCollider3D`, over the sinew core's Rust API
//! (not its C ABI).
//!
//! The engine-facing nodes live in [`nodes`]; everything that can be checked
//! without a Godot binary (transform and shape conversion, the vertex-buffer
//! bytes, winding, pin grouping, the ragdoll's bone mapping, fitting and
//! offsets) is plain Rust in the other modules, with unit tests.
//!
//! World positions cross to sinew in `f64` ([`pose`] converts Godot's
//! `real`), so with the `double-precision` feature (Godot's large-world
//! builds) a scene far from the origin is as exact as one at it.

pub mod nodes;
pub mod pins;
pub mod pose;
pub mod ragdoll;
pub mod shape;
pub mod stream;
pub mod surface;

use godot::prelude::*;

struct SinewExtension;

// The entry symbol is `gdext_rust_init` (addons/sinew/sinew.gdextension).
#[gdextension]
unsafe impl ExtensionLibrary for SinewExtension {}
