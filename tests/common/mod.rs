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

/// A folder holding libsinew.so and libsinew.a: target/<profile>/ when cargo
/// already put them there, else a build of the library (same sources) in a
/// target folder of its own, made once per test binary.
pub fn lib_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        let dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/..").to_path_buf();
        if dir.join(shared_name()).exists() && dir.join("libsinew.a").exists() {
            return dir;
        }
        let target = dir.join("c-lib");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        run(Command::new(cargo).current_dir(root()).args(["build", "--lib", "--target-dir"]).arg(&target));
        let built = target.join("debug");
        assert!(built.join(shared_name()).exists(), "{} not built in {}", shared_name(), built.display());
        built
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
