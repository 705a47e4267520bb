//! The bodies of the coverage-guided fuzz targets. Each `fuzz/fuzz_targets/*.rs`
//! includes this file by path and calls one `run`, and
//! `tests/fuzz_regressions.rs` replays the committed corpora and every crash
//! through the same `run` in plain `cargo test`, so the properties are
//! written once. A `run` panics when a property fails.

#[path = "../ffi_calls/mod.rs"]
pub mod ffi_calls;

pub mod builders;
pub mod calls;
pub mod scenes;
pub mod snapshot_restore;
