//! cargo fuzz target `snapshot_restore`: its body is `tests/fuzz_cases/snapshot_restore.rs`, which
//! `tests/fuzz_regressions.rs` also runs on the committed corpus.
#![no_main]

#[allow(dead_code)] // the other targets' bodies
#[path = "../../tests/fuzz_cases/mod.rs"]
mod fuzz_cases;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_cases::snapshot_restore::run(data));
