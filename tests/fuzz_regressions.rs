//! The coverage-guided fuzz targets' inputs, replayed in plain `cargo test`
//! (no nightly toolchain, no cargo-fuzz) through the same code the targets
//! run (`tests/fuzz_cases/`): every minimised seed of `fuzz/corpus/<target>/`,
//! the snapshot seeds of `fuzz/seeds/snapshot_restore/`, and every input that
//! once crashed a target, kept in `tests/fuzz_regressions/<target>/` (named
//! for what broke). Each must pass its target's checks.
//!
//! `cargo test --test fuzz_regressions -- --ignored write_snapshot_seeds`
//! rewrites the snapshot seeds from `tests/fuzz_cases/scenes.rs`.

mod common;
mod fuzz_cases;

use fuzz_cases::{builders, calls, scenes, snapshot_restore};
use std::path::PathBuf;

/// The files of `dirs` (relative to the repository), sorted.
fn inputs(dirs: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(common::root().join(dir)) else { continue };
        files.extend(entries.map(|e| e.expect("a directory entry").path()).filter(|p| p.is_file()));
    }
    files.sort();
    files
}

/// Runs `run` on every input of `target`; fails naming each one that failed.
fn replay(target: &str, extra: &[&str], run: fn(&[u8])) -> usize {
    let corpus = format!("fuzz/corpus/{target}");
    let crashes = format!("tests/fuzz_regressions/{target}");
    let mut dirs = vec![corpus.as_str(), crashes.as_str()];
    dirs.extend_from_slice(extra);
    let files = inputs(&dirs);
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("an input file");
            std::panic::catch_unwind(|| run(&bytes)).is_err()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target}: {} of {} inputs fail: {failed:?}", failed.len(), files.len());
    println!("{target}: {} inputs pass", files.len());
    files.len()
}

#[test]
fn snapshot_restore_inputs_pass() {
    let n = replay("snapshot_restore", &["fuzz/seeds/snapshot_restore"], snapshot_restore::run);
    assert!(n >= scenes::all().len(), "the snapshot seeds are missing");
}

#[test]
fn ffi_calls_inputs_pass() {
    replay("ffi_calls", &[], calls::run);
}

#[test]
fn builders_inputs_pass() {
    replay("builders", &[], builders::run);
}

/// The library's own snapshots are canonical: restored and written again
/// they are the same bytes. (Images it did not write may not be: see
/// `tests/fuzz_cases/snapshot_restore.rs`.)
#[test]
fn every_scene_snapshot_restores_to_the_same_bytes_and_passes_the_restore_checks() {
    for (name, w) in scenes::all() {
        let image = w.snapshot();
        let mut copy = sinew::World::new(sinew::WorldSettings::default()).expect("a world");
        copy.restore(&image).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(copy.snapshot() == image, "{name}: a restored snapshot writes other bytes");
        assert!(snapshot_restore::restore(&image), "{name}: refused");
        snapshot_restore::run(&image);
    }
}

/// Writes the snapshot seeds (run by hand; ids differ from run to run).
#[test]
#[ignore = "writes fuzz/seeds/snapshot_restore/; run by hand"]
fn write_snapshot_seeds() {
    let dir = common::root().join("fuzz/seeds/snapshot_restore");
    std::fs::create_dir_all(&dir).expect("the seed directory");
    for (name, w) in scenes::all() {
        std::fs::write(dir.join(format!("{name}.snap")), w.snapshot()).expect("a seed file");
    }
}
