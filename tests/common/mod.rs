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
            // target/debug holds the dev and the test profile's outputs; the test
            // profile is this executable's: optimised (opt-level 2), it reuses the
            // dependencies `cargo test` built, and the C, C++ and C# programs run
            // (under valgrind too) several times faster than on a dev build.
            "debug" => {
                cmd.args(["--profile", "test"]);
            }
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

/// Whether the long runs are on: `SINEW_LONG_TESTS=1` (`.ci/run` sets it).
/// They are valgrind over every C and C++ program, the long fuzz and the
/// thread stress at full length; a plain `cargo test` leaves them out and
/// says so (see [`skip_long`]).
pub fn long_tests() -> bool {
    std::env::var_os("SINEW_LONG_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Prints one line on the process's real stdout. `cargo test` captures
/// `print!` and `eprint!` of passing tests and shows nothing of them, but
/// not writes to the stdout handle: this line shows up in the run's output.
pub fn note(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A tool a test needs is not installed: fails the test when `CI` is set
/// (CI must install it; `.ci/run` does), else prints
/// `SKIPPED <test>: <tool> not installed, ...` where `cargo test` shows it.
/// The caller then skips what needs the tool (the whole test, or a part).
pub fn missing_tool(test: &str, tool: &str) {
    let line = format!("SKIPPED {test}: {tool} not installed, what needs it did not run (`.ci/run` installs it)");
    assert!(std::env::var_os("CI").is_none(), "{line}; CI is set, so this fails instead");
    note(&line);
}

/// A long run left out of a plain `cargo test`: prints
/// `SKIPPED <test>: long run, set SINEW_LONG_TESTS=1` where `cargo test`
/// shows it. The caller returns (or takes its short path) after this.
pub fn skip_long(test: &str, what: &str) {
    note(&format!("SKIPPED {test}: {what} is a long run; SINEW_LONG_TESTS=1 runs it (`.ci/run` does)"));
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

/// The first fenced code block in `lang` (```c or ```cpp) after the
/// README's "## Examples" heading, made a whole program: its `#include`
/// lines, then the rest inside `main`, which ends by printing
/// "readme example done". The tests compile and run it (the ```rust block
/// runs as a doc-test).
pub fn readme_program(lang: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = readme.find("\n## Examples").expect("README has an \"## Examples\" section");
    let fence = format!("\n```{lang}\n");
    let start =
        examples + readme[examples..].find(&fence).unwrap_or_else(|| panic!("no ```{lang} block")) + fence.len();
    let end = start + readme[start..].find("\n```").expect("the block ends");
    let (includes, body): (Vec<&str>, Vec<&str>) = readme[start..end].lines().partition(|l| l.starts_with("#include"));
    let (stdio, main, done) = match lang {
        "c" => ("<stdio.h>", "int main(void)", "puts(\"readme example done\");"),
        _ => ("<cstdio>", "int main()", "std::puts(\"readme example done\");"),
    };
    format!(
        "{}\n#include {stdio}\n{main} {{\n{}\n    {done}\n    return 0;\n}}\n",
        includes.join("\n"),
        body.join("\n")
    )
}

/// valgrind's memcheck with the options every test uses: fails (exit 99)
/// on an invalid access, an uninitialised read or a definite leak.
pub fn memcheck() -> Command {
    let mut cmd = Command::new("valgrind");
    cmd.args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite"]);
    cmd
}

/// Whether a long run under valgrind goes ahead: not without
/// `SINEW_LONG_TESTS` ([`skip_long`]) nor without valgrind
/// ([`missing_tool`], a failure when `CI` is set).
pub fn long_run_under_valgrind(test: &str, what: &str) -> bool {
    if !long_tests() {
        skip_long(test, what);
        return false;
    }
    if !have("valgrind") {
        missing_tool(test, "valgrind");
        return false;
    }
    true
}
