//! `ffi_calls`: the random-call grammar of `tests/ffi_calls/mod.rs` with the
//! fuzzer's bytes for its choices: up to 64 calls against two worlds, each
//! with a defined code and a refused call changing neither world; then the
//! world's snapshot restores into a fresh world that hashes alike, both step
//! on alike, and every position is finite.

use super::ffi_calls::*;
use sinew::ffi::*;
use std::ptr;

/// Calls per input: enough for a sequence to build up state, few enough
/// that one input runs in milliseconds.
const MAX_CALLS: usize = 64;

pub fn run(data: &[u8]) {
    let mut rng = Rng::from_bytes(data);
    // Small caps: a fuzzer's input that spawns humanoids stays fast, and the
    // LIMIT_EXCEEDED paths are near.
    let def = SinewWorldDef { max_particles: 2_000, max_constraints: 8_000, ..sinew_default_world_def() };
    let (mut w, mut other) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: `def` and the out-pointers are live locals.
    unsafe {
        assert_eq!(sinew_world_create(&def, &mut w), SINEW_RESULT_OK);
        assert_eq!(sinew_world_create(&def, &mut other), SINEW_RESULT_OK);
    }
    let mut s = State::default();
    for k in 0..MAX_CALLS {
        if rng.exhausted() {
            break;
        }
        if let Err(e) = checked_call(w, other, &mut s, &mut rng) {
            panic!("call {k}: {e}");
        }
    }
    if let Err(e) = check_world(w, &s) {
        panic!("after the calls (last arm {}): {e}", s.arm);
    }
    // SAFETY: both worlds are from `sinew_world_create`, destroyed once.
    unsafe {
        sinew_world_destroy(w);
        sinew_world_destroy(other);
    }
}
