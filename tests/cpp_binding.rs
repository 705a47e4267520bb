//! The C++ wrapper `bindings/cpp/sinew.hpp`: compiled with the system C++
//! compiler and with the other of g++ / clang++, at `-std=c++17` and
//! `-std=c++20` with `-Wall -Wextra -Werror -pedantic`, with exceptions off
//! (`-fno-exceptions`) and on (`SINEW_CPP_EXCEPTIONS`), linked against the
//! library cargo built, and run: `tests/cpp/wrapper_check.cpp` checks every
//! wrapper call's numbers and codes (frame attachments and a skinned cloth
//! in 30 m/s wind included), `tests/cpp/value_on_error.cpp` that
//! `Expected::value()` on a failure throws or aborts in every build mode,
//! `examples_c/cpp_rope.cpp` and `examples_c/cpp_ragdoll.cpp` are the
//! examples users copy from, and the README's C++ example runs.
//!
//! A plain `cargo test` covers every compiler, standard and error mode in
//! pairs (each compiler with both standards, each standard in both modes);
//! `SINEW_LONG_TESTS=1` (`.ci/run`) builds the full product and runs the
//! wrapper check under valgrind. A missing second compiler is a visible skip,
//! and a failure when `CI` is set.

mod common;

use common::{compiler, have, header_functions, lib_dir, long_tests, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C++ compilers to test with: the one the `cc` crate picks, plus
/// clang++ or g++ (whichever that one is not) when installed.
fn compilers(test: &str) -> Vec<(String, PathBuf)> {
    let tool = compiler(true);
    assert!(!tool.is_like_msvc(), "the C++ harness supports GCC and Clang only");
    let mut list = vec![("default".to_string(), tool.path().to_path_buf())];
    let other = if tool.is_like_clang() { "g++" } else { "clang++" };
    if have(other) {
        list.push((other.to_string(), PathBuf::from(other)));
    } else {
        common::missing_tool(test, other);
    }
    list
}

/// Compiles one C++ source with the given compiler, standard and extra flags
/// (no -g: debug info cost a second a build, and only valgrind reads it).
fn build_cpp(compiler: &Path, source: &Path, std: &str, extra: &[&str], exe: &Path) {
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"])
        .args(extra)
        .arg("-I")
        .arg(root().join("include"))
        .arg("-I")
        .arg(root().join("bindings/cpp"))
        .arg(source)
        .arg("-L")
        .arg(&lib)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-o")
        .arg(exe);
    run(&mut cmd);
}

/// (tag, standard, flags): both standards, exceptions off and on.
const VARIANTS: [(&str, &str, &[&str]); 4] = [
    ("cxx17", "c++17", &["-fno-exceptions"]),
    ("cxx20_exc", "c++20", &["-DSINEW_CPP_EXCEPTIONS"]),
    ("cxx20", "c++20", &["-fno-exceptions"]),
    ("cxx17_exc", "c++17", &["-DSINEW_CPP_EXCEPTIONS"]),
];

/// The variants compiler `k` (0 the default, 1 the other) builds: all of
/// them in a long run; else two, chosen so the pair of compilers covers
/// every variant and each compiler both standards and both modes.
fn variants_for(k: usize) -> Vec<(&'static str, &'static str, &'static [&'static str])> {
    if long_tests() { VARIANTS.to_vec() } else { VARIANTS[2 * k..2 * k + 2].to_vec() }
}

#[test]
fn wrapper_check_passes_with_every_compiler_standard_and_error_mode() {
    let out = common::out_dir("cpp");
    let source = root().join("tests/cpp/wrapper_check.cpp");
    let compilers = compilers("cpp_binding::wrapper_check_passes_with_every_compiler_standard_and_error_mode");
    // With one compiler, it builds every variant.
    let one = compilers.len() == 1;
    for (k, (name, cxx)) in compilers.iter().enumerate() {
        let variants = if one { VARIANTS.to_vec() } else { variants_for(k) };
        for (tag, std, extra) in variants {
            let exe = out.join(format!("wrapper_check_{name}_{tag}"));
            build_cpp(cxx, &source, std, extra, &exe);
            let text = run(&mut Command::new(&exe));
            assert!(text.contains("all checks passed"), "{name} {tag}:\n{text}");
            assert!(text.contains("quaternion helpers checked"), "{name} {tag}:\n{text}");
            assert!(text.contains("largest length error"), "{name} {tag}:\n{text}");
            assert!(text.contains("cloth, joints and sleep checked"), "{name} {tag}:\n{text}");
            assert!(text.contains("frames and skin checked"), "{name} {tag}:\n{text}");
            // <span> exists in C++20 libraries; the overloads must then be compiled in.
            if std == "c++20" {
                assert!(text.contains("std::span overloads checked"), "{name} {tag}: no span overloads\n{text}");
            }
            if extra.contains(&"-DSINEW_CPP_EXCEPTIONS") {
                assert!(text.contains("exceptions mode checked"), "{name} {tag}:\n{text}");
            }
        }
    }
}

#[test]
fn wrapper_check_is_clean_under_valgrind() {
    let test = "cpp_binding::wrapper_check_is_clean_under_valgrind";
    if !common::long_run_under_valgrind(test, "valgrind over the C++ wrapper check") {
        return;
    }
    let out = common::out_dir("cpp");
    let exe = out.join("wrapper_check_valgrind");
    let cxx = compiler(true).path().to_path_buf();
    // -g: valgrind's reports name lines.
    build_cpp(&cxx, &root().join("tests/cpp/wrapper_check.cpp"), "c++17", &["-g"], &exe);
    let text = run(common::memcheck().arg(&exe));
    assert!(text.contains("all checks passed"), "{text}");
}

/// `Expected<T>::value()` on a failed call, with and without NDEBUG: with
/// exceptions on (plain, and in SINEW_CPP_EXCEPTIONS mode) it throws
/// sinew::Error, with them off it prints the code and message and aborts.
#[test]
#[cfg(unix)]
fn value_on_a_failure_throws_or_aborts_in_every_build_mode() {
    use std::os::unix::process::ExitStatusExt as _;
    let out = common::out_dir("cpp");
    let source = root().join("tests/cpp/value_on_error.cpp");
    let cxx = compiler(true).path().to_path_buf();
    for (tag, flags) in [
        ("noexc_debug", &["-fno-exceptions"][..]),
        ("noexc_release", &["-fno-exceptions", "-DNDEBUG", "-O2"]),
        ("exc_release", &["-DNDEBUG", "-O2"]),
        ("sinew_exc", &["-DSINEW_CPP_EXCEPTIONS"]),
    ] {
        let exe = out.join(format!("value_on_error_{tag}"));
        build_cpp(&cxx, &source, "c++17", flags, &exe);
        let output = Command::new(&exe).output().expect("run value_on_error");
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        if tag.starts_with("noexc") {
            assert_eq!(output.status.signal(), Some(6), "{tag}: not aborted: {:?}\n{stdout}{stderr}", output.status);
            assert!(
                stderr
                    .contains("Expected::value() on a failed call: SINEW_RESULT_INVALID_ARGUMENT: sinew_world_create:"),
                "{tag}: {stderr}"
            );
        } else {
            assert!(output.status.success(), "{tag}: {:?}\n{stdout}{stderr}", output.status);
            assert!(stdout.contains("threw sinew::Error SINEW_RESULT_INVALID_ARGUMENT"), "{tag}: {stdout}");
        }
    }
}

/// The examples users copy from: each with both compilers, at C++17 with
/// one and C++20 with the other (both standards with each in a long run).
/// Returns each run's output.
fn run_cpp_example(test: &str, file: &str, verdict: &str) -> Vec<String> {
    let out = common::out_dir("cpp");
    let source = root().join("examples_c").join(file);
    let stem = file.trim_end_matches(".cpp");
    let compilers = compilers(test);
    let mut outputs = Vec::new();
    for (k, (name, cxx)) in compilers.iter().enumerate() {
        let standards: &[&str] = if long_tests() || compilers.len() == 1 {
            &["c++17", "c++20"]
        } else {
            [&["c++17"][..], &["c++20"][..]][k]
        };
        for std in standards {
            let exe = out.join(format!("{stem}_{name}_{}", std.replace("++", "xx")));
            build_cpp(cxx, &source, std, &[], &exe);
            let text = run(&mut Command::new(&exe));
            println!("{name} {std}:\n{text}");
            assert!(text.contains(verdict), "{name} {std}:\n{text}");
            outputs.push(text);
        }
    }
    outputs
}

#[test]
fn cpp_rope_example_swings_rigidly_and_replays() {
    let test = "cpp_binding::cpp_rope_example_swings_rigidly_and_replays";
    for text in
        run_cpp_example(test, "cpp_rope.cpp", "ok: the rope swings rigidly and the snapshot replays bit for bit")
    {
        assert!(text.contains("largest stick error"), "{text}");
    }
}

#[test]
fn cpp_ragdoll_example_turns_takes_a_hit_and_recovers() {
    let test = "cpp_binding::cpp_ragdoll_example_turns_takes_a_hit_and_recovers";
    for text in
        run_cpp_example(test, "cpp_ragdoll.cpp", "ok: the figure turned with its animation, took the hit and recovered")
    {
        assert!(text.contains("pushed") && text.contains("hit in the chest"), "{text}");
    }
}

/// The README's C++ example (the first ```cpp block after "## Examples"),
/// in a main(), compiles without a warning and runs.
#[test]
fn readme_cpp_example_compiles_and_runs() {
    let source = common::readme_program("cpp");
    let out = common::out_dir("cpp");
    let src = out.join("readme_example.cpp");
    std::fs::write(&src, source).unwrap();
    let exe = out.join("readme_example");
    build_cpp(compiler(true).path(), &src, "c++17", &[], &exe);
    let text = run(&mut Command::new(&exe));
    assert!(text.contains("readme example done"), "{text}");
}

/// Adding a C function means adding a wrapper method: this fails until then.
#[test]
fn every_c_function_is_wrapped() {
    let hpp = std::fs::read_to_string(root().join("bindings/cpp/sinew.hpp")).unwrap();
    let missing: Vec<String> = header_functions()
        .into_iter()
        .filter(|f| !hpp.contains(&format!("::{f}(")) && !hpp.contains(&format!("::{f})")))
        .collect();
    // The readbacks go through a function pointer: `&::sinew_body_read_positions`.
    let missing: Vec<String> = missing.into_iter().filter(|f| !hpp.contains(&format!("&::{f}"))).collect();
    assert!(missing.is_empty(), "bindings/cpp/sinew.hpp never calls {missing:?}");
}
