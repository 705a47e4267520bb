//! A property-test driver for the C ABI: random sequences of calls with
//! random ids (live, destroyed, foreign, garbage), counts, NaNs, infinities
//! and huge values, from a fixed seed. Every call must return a defined code
//! (never panic across the boundary, never crash), a refused call must leave
//! both worlds' state hashes as they were, the world must keep stepping, no
//! position may become non-finite, and every 500 calls the world's snapshot
//! must restore into a fresh world that hashes alike and steps on alike.
//!
//! `cargo test --test ffi_fuzz` runs a short, fixed sequence (10,000 calls);
//! `SINEW_LONG_TESTS=1` (`.ci/run`) adds 20,000 calls from another seed and
//! a sequence under valgrind. Longer still:
//! `SINEW_FUZZ_CALLS=2000000 SINEW_FUZZ_SEED=7 cargo test --release --test ffi_fuzz -- --nocapture`.
//! `SINEW_FUZZ_CHECK_EVERY=1` checks the snapshot after every call, to find
//! the call that broke one (messages name the call's arm in `call`).
//!
//! The grammar of the calls is `tests/ffi_calls/mod.rs`, shared with the
//! coverage-guided fuzz target `fuzz/fuzz_targets/ffi_calls.rs`.
//!
//! SAFETY, for every `unsafe` block in this file: the worlds are from
//! `sinew_world_create`, destroyed once at the end.

mod common;
mod ffi_calls;

use ffi_calls::*;
use sinew::ffi::*;
use std::ptr;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn random_call_sequences_return_defined_codes_and_the_world_keeps_stepping() {
    fuzz(env_or("SINEW_FUZZ_CALLS", 10_000), env_or("SINEW_FUZZ_SEED", 0x5EED));
}

/// The long fuzz: 20,000 calls from a second seed (`SINEW_LONG_TESTS=1`).
/// Its world fills with up to 20,000 particles of several hundred bodies
/// spawned into each other, which collide with each other: 20,000 calls take
/// about 75 s of CPU, 50,000 over 10 minutes (each step's cost grows with
/// the pile, its contacts bounded per piece, and the world is hashed around
/// every call).
#[test]
fn a_long_random_call_sequence_returns_defined_codes() {
    if !common::long_tests() {
        common::skip_long("ffi_fuzz::a_long_random_call_sequence_returns_defined_codes", "20,000 fuzz calls");
        return;
    }
    fuzz(20_000, env_or("SINEW_FUZZ_SEED", 0x5EED) ^ 0x10_0000);
}

/// The sequence [`a_short_fuzz_sequence_is_clean_under_valgrind`] runs under
/// valgrind (ignored in a plain run: it is the same as the test above).
#[test]
#[ignore = "run under valgrind by a_short_fuzz_sequence_is_clean_under_valgrind"]
fn fuzz_sequence_for_valgrind() {
    fuzz(env_or("SINEW_FUZZ_CALLS", 5_000), env_or("SINEW_FUZZ_SEED", 0x5EED));
}

/// The stand-in for miri (which needs a nightly toolchain): this test
/// executable runs a short fuzz sequence under valgrind's memcheck, which
/// fails on an invalid read or write, a use of uninitialised memory or a
/// leak, in the Rust code and across the C ABI alike. A long run
/// (`SINEW_LONG_TESTS=1`); fails when valgrind is missing and `CI` is set.
#[test]
fn a_short_fuzz_sequence_is_clean_under_valgrind() {
    let test = "ffi_fuzz::a_short_fuzz_sequence_is_clean_under_valgrind";
    if !common::long_run_under_valgrind(test, "the fuzz sequence under valgrind") {
        return;
    }
    let exe = std::env::current_exe().expect("the test executable");
    let start = std::time::Instant::now();
    // Definite leaks fail; "possibly lost" blocks are the test harness's own
    // (the main thread's handle, kept by std until exit).
    let text = common::run(
        common::memcheck()
            .arg("--show-possibly-lost=no")
            .arg(&exe)
            .args(["fuzz_sequence_for_valgrind", "--exact", "--ignored", "--test-threads=1", "--nocapture"])
            .env("SINEW_FUZZ_CALLS", env_or("SINEW_VALGRIND_FUZZ_CALLS", 5_000).to_string()),
    );
    assert!(text.contains("1 passed"), "{text}");
    println!("{} s under valgrind:\n{text}", start.elapsed().as_secs());
}

/// Runs `calls` random calls from `seed` against two worlds.
fn fuzz(calls: u64, seed: u64) {
    let mut rng = Rng::seeded(seed.wrapping_mul(2).wrapping_add(1));
    // Caps keep long runs quick (shape-matched lattices and humanoids pile up
    // otherwise) and put the LIMIT_EXCEEDED paths in the sequence.
    let def = SinewWorldDef { max_particles: 20_000, max_constraints: 50_000, ..sinew_default_world_def() };
    let (mut w, mut other) = (ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(sinew_world_create(&def, &mut w), SINEW_RESULT_OK);
        assert_eq!(sinew_world_create(&def, &mut other), SINEW_RESULT_OK);
    }
    let mut s = State::default();
    let mut codes = [0u64; 11];
    // Snapshots are checked every `every` calls (1 to find the call that
    // broke one).
    let every = env_or("SINEW_FUZZ_CHECK_EVERY", 500).max(1);
    for k in 0..calls {
        let code = checked_call(w, other, &mut s, &mut rng).unwrap_or_else(|e| panic!("call {k}: {e}"));
        codes[code as usize] += 1;
        if k % 20_000 == 0 && k > 0 {
            println!("{k} calls, {} bodies, results by code: {codes:?}", s.bodies.len());
        }
        // Restores may bring back bodies the bookkeeping forgot; ids stay values.
        if k % every == 0 && k % 500 != 0 {
            let copy = restored_copy(w).unwrap_or_else(|e| panic!("after call {k} (arm {}): {e}", s.arm));
            unsafe { sinew_world_destroy(copy) };
        }
        if k % 500 == 0 {
            check_world(w, &s).unwrap_or_else(|e| panic!("after call {k} (arm {}): {e}", s.arm));
        }
    }
    println!("{calls} calls from seed {seed:#x}; results by code: {codes:?}");
    assert!(codes[0] > calls / 10, "too few calls succeeded to mean anything: {codes:?}");
    unsafe {
        sinew_world_destroy(w);
        sinew_world_destroy(other);
    }
}

/// Functions of `include/sinew.h` the driver does not call, each with the
/// reason. Every other exported function must appear in this file as a call.
const NOT_FUZZED: &[(&str, &str)] = &[];

#[test]
fn every_exported_function_is_called_by_the_fuzz_driver() {
    let grammar = common::root().join("tests/ffi_calls/mod.rs");
    let driver = std::fs::read_to_string(&grammar).expect("tests/ffi_calls/mod.rs");
    let functions = common::header_functions();
    for (name, why) in NOT_FUZZED {
        assert!(functions.iter().any(|f| f == name), "NOT_FUZZED lists {name} ({why}), which the header lacks");
    }
    let missing: Vec<&String> = functions
        .iter()
        .filter(|f| !NOT_FUZZED.iter().any(|(n, _)| n == f) && !driver.contains(&format!("{f}(")))
        .collect();
    assert!(
        missing.is_empty(),
        "tests/ffi_calls/mod.rs never calls {missing:?}; add them to `call` (or to NOT_FUZZED with a reason)"
    );
}
