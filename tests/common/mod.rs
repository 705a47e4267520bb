//! Helpers shared by the tests that build programs against the C library
//! (C examples, the C++ wrapper, the CMake package, the C# layer): where the
//! built library is, the system compiler, running a command.
//!
//! Each test file uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folder holding libsinew.so and libsinew.a, brought up to date first.
///
/// `cargo test` builds the library only as an rlib for the tests, so the C
/// libraries in target/<profile>/ are whatever the last `cargo build` left
/// there, possibly from older sources. The first call in a test process runs
/// `cargo build --lib` for the same target folder, profile and target triple
/// as this test executable (a no-op when the library is current); cargo's own
/// lock on the build folder serialises test processes that do it at once.
pub fn lib_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        // <target dir>[/<triple>]/<profile folder>/deps/<test executable>
        let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/..").to_path_buf();
        let profile_folder = profile_dir.file_name().and_then(|n| n.to_str()).expect("profile folder").to_string();
        let mut target_dir = profile_dir.parent().expect("target dir").to_path_buf();
        let triple = env!("SINEW_BUILD_TARGET");
        let cross = target_dir.file_name().is_some_and(|n| n == triple);
        if cross {
            target_dir.pop();
        }
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(root()).args(["build", "--lib", "--target-dir"]).arg(&target_dir);
        match profile_folder.as_str() {
            // The dev and test profiles share target/debug; a dev build puts the libraries there.
            "debug" => {}
            "release" => {
                cmd.arg("--release");
            }
            other => {
                cmd.args(["--profile", other]);
            }
        }
        if cross {
            cmd.args(["--target", triple]);
        }
        run(&mut cmd);
        for name in [shared_name(), "libsinew.a"] {
            assert!(profile_dir.join(name).exists(), "{name} not built in {}", profile_dir.display());
        }
        profile_dir
    })
    .clone()
}

/// The file name of the shared library on this platform.
pub fn shared_name() -> &'static str {
    if cfg!(target_os = "macos") { "libsinew.dylib" } else { "libsinew.so" }
}

/// A scratch folder for one test file's outputs, beside the library.
pub fn out_dir(name: &str) -> PathBuf {
    let dir = lib_dir().join(name);
    std::fs::create_dir_all(&dir).expect("create output folder");
    dir
}

/// The system compiler as the `cc` crate finds it (honours CC / CXX).
pub fn compiler(cpp: bool) -> cc::Tool {
    let target = env!("SINEW_BUILD_TARGET");
    cc::Build::new()
        .cpp(cpp)
        .target(target)
        .host(target)
        .opt_level(0)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler()
}

pub fn copy(from: &Path, to_dir: &Path) {
    std::fs::create_dir_all(to_dir).unwrap();
    std::fs::copy(from, to_dir.join(from.file_name().unwrap()))
        .unwrap_or_else(|e| panic!("copy {} to {}: {e}", from.display(), to_dir.display()));
}

/// Stages an install prefix as a packager would lay it out: include/,
/// lib/, lib/cmake/sinew/, lib/pkgconfig/ (the CMake package tests and the
/// samples app build against it).
pub fn stage_prefix(prefix: &Path) {
    copy(&root().join("include/sinew.h"), &prefix.join("include"));
    copy(&root().join("bindings/cpp/sinew.hpp"), &prefix.join("include"));
    copy(&lib_dir().join(shared_name()), &prefix.join("lib"));
    copy(&lib_dir().join("libsinew.a"), &prefix.join("lib"));
    copy(&root().join("bindings/cmake/sinewConfig.cmake"), &prefix.join("lib/cmake/sinew"));
    copy(&root().join("bindings/cmake/sinewConfigVersion.cmake"), &prefix.join("lib/cmake/sinew"));
    copy(&root().join("bindings/cmake/install/sinew.pc"), &prefix.join("lib/pkgconfig"));
}

/// Runs a command, panics with its output unless it succeeds, returns
/// stdout followed by stderr.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{text}", out.status);
    text
}

/// Whether `tool --version` runs.
pub fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Names of the functions `include/sinew.h` declares (cbindgen puts each
/// declaration's first line at column 0: `type name(`).
pub fn header_functions() -> Vec<String> {
    let header = std::fs::read_to_string(root().join("include/sinew.h")).expect("include/sinew.h");
    let functions: Vec<String> = header
        .lines()
        .filter(|l| {
            !l.starts_with(' ') && !l.starts_with('#') && !l.starts_with('*') && l.contains("sinew_") && l.contains('(')
        })
        .filter_map(|l| l.split('(').next()?.split_whitespace().last())
        .map(|f| f.trim_start_matches('*').to_string())
        .collect();
    assert!(functions.len() >= 30, "found only {functions:?}");
    functions
}
