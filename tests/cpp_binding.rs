//! The C++ wrapper `bindings/cpp/sinew.hpp`: compiled with the system C++
//! compiler and with the other of g++ / clang++ when it is installed, at
//! `-std=c++17` and `-std=c++20` with `-Wall -Wextra -Werror -pedantic`, with
//! exceptions off (`-fno-exceptions`) and on (`SINEW_CPP_EXCEPTIONS`), linked
//! against the library cargo built, and run: `tests/cpp/wrapper_check.cpp`
//! checks every wrapper call's numbers and codes (frame attachments and a
//! skinned cloth in 30 m/s wind included), `examples_c/cpp_rope.cpp` is
//! the example users copy from.

mod common;

use common::{compiler, have, header_functions, lib_dir, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C++ compilers to test with: the one the `cc` crate picks, plus
/// clang++ or g++ (whichever that one is not) when installed.
fn compilers() -> Vec<(String, PathBuf)> {
    let tool = compiler(true);
    assert!(!tool.is_like_msvc(), "the C++ harness supports GCC and Clang only");
    let mut list = vec![("default".to_string(), tool.path().to_path_buf())];
    let other = if tool.is_like_clang() { "g++" } else { "clang++" };
    if have(other) {
        list.push((other.to_string(), PathBuf::from(other)));
    } else {
        eprintln!("{other} not installed: the C++ wrapper is checked with {} only", tool.path().display());
    }
    list
}

/// Compiles one C++ source with the given compiler, standard and extra flags.
fn build_cpp(compiler: &Path, source: &Path, std: &str, extra: &[&str], exe: &Path) {
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g"])
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

fn variants() -> [(&'static str, &'static str, &'static [&'static str]); 4] {
    [
        ("cxx17", "c++17", &["-fno-exceptions"]),
        ("cxx20", "c++20", &["-fno-exceptions"]),
        ("cxx17_exc", "c++17", &["-DSINEW_CPP_EXCEPTIONS"]),
        ("cxx20_exc", "c++20", &["-DSINEW_CPP_EXCEPTIONS"]),
    ]
}

#[test]
fn wrapper_check_passes_with_every_compiler_standard_and_error_mode() {
    let out = common::out_dir("cpp");
    let source = root().join("tests/cpp/wrapper_check.cpp");
    for (name, cxx) in compilers() {
        for (tag, std, extra) in variants() {
            let exe = out.join(format!("wrapper_check_{name}_{tag}"));
            build_cpp(&cxx, &source, std, extra, &exe);
            let text = run(&mut Command::new(&exe));
            assert!(text.contains("all checks passed"), "{name} {tag}:\n{text}");
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
    if !have("valgrind") {
        eprintln!("valgrind not installed: skipped");
        return;
    }
    let out = common::out_dir("cpp");
    let exe = out.join("wrapper_check_valgrind");
    let cxx = compiler(true).path().to_path_buf();
    build_cpp(&cxx, &root().join("tests/cpp/wrapper_check.cpp"), "c++17", &[], &exe);
    let text = run(Command::new("valgrind")
        .args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite"])
        .arg(&exe));
    assert!(text.contains("all checks passed"), "{text}");
}

#[test]
fn cpp_rope_example_swings_rigidly_and_replays() {
    let out = common::out_dir("cpp");
    let source = root().join("examples_c/cpp_rope.cpp");
    for (name, cxx) in compilers() {
        for std in ["c++17", "c++20"] {
            let exe = out.join(format!("cpp_rope_{name}_{}", std.replace("++", "xx")));
            build_cpp(&cxx, &source, std, &[], &exe);
            let text = run(&mut Command::new(&exe));
            assert!(text.contains("largest stick error"), "{name} {std}:\n{text}");
            assert!(text.contains("ok: the rope swings rigidly and the snapshot replays bit for bit"), "{text}");
        }
    }
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
