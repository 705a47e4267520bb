//! Compiles the C programs of `examples_c/` against the real header and the
//! library cargo built for these tests, with the system C compiler
//! (`-std=c99 -Wall -Wextra -Werror -pedantic`), and runs them; under valgrind
//! too when it is installed (CI installs it). Also checks that the header
//! compiles as C++11.

mod common;

use common::{compiler, have, header_functions, lib_dir, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    common::out_dir("examples_c")
}

/// Compiles and links one C example against the shared library.
fn build_c(name: &str) -> PathBuf {
    let tool = compiler(false);
    if tool.is_like_msvc() {
        panic!("the C example harness supports GCC and Clang only");
    }
    let lib = lib_dir();
    let exe = out_dir().join(name);
    let mut cmd = tool.to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"])
        .arg("-I")
        .arg(root().join("include"))
        .arg(root().join("examples_c").join(format!("{name}.c")))
        .arg("-L")
        .arg(&lib)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    run(&mut cmd);
    exe
}

/// Runs the program, under valgrind as well when it is installed.
fn run_checked(exe: &Path) -> String {
    let text = run(&mut Command::new(exe));
    if have("valgrind") {
        run(Command::new("valgrind")
            .args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite"])
            .arg(exe));
    } else {
        eprintln!("valgrind not installed: {} ran without it", exe.display());
    }
    text
}

#[test]
fn smoke_test_exercises_every_function() {
    let exe = build_c("smoke_test");
    let text = run_checked(&exe);
    assert!(text.contains("all checks passed"), "{text}");
}

#[test]
fn hello_particles_rope_drapes_over_the_ball() {
    let exe = build_c("hello_particles");
    let text = run_checked(&exe);
    assert!(text.contains("t = 6 s"), "{text}");
    assert!(text.contains("ok: the rope hangs draped over the ball"), "{text}");
}

#[test]
fn flag_flies_in_the_wind() {
    let exe = build_c("flag");
    let text = run_checked(&exe);
    assert!(text.contains("t = 4.0 s"), "{text}");
    assert!(text.contains("ok: the flag flies"), "{text}");
}

#[test]
fn terrain_holds_particles_and_a_chain() {
    let exe = build_c("terrain");
    let text = run_checked(&exe);
    println!("{text}");
    assert!(text.contains("ok: nothing sank more than 1 cm"), "{text}");
}

#[test]
fn ragdoll_tumbles_down_the_stairs() {
    let exe = build_c("ragdoll");
    let text = run_checked(&exe);
    assert!(text.contains("t = 8 s"), "{text}");
    assert!(text.contains("ok: the figure tumbled down the stairs"), "{text}");
}

#[test]
fn motors_hold_a_pose_take_a_hit_and_recover() {
    let exe = build_c("motors");
    let text = run_checked(&exe);
    println!("{text}");
    assert!(text.contains("ok: the figure held its pose, took the hit and recovered"), "{text}");
}

#[test]
fn every_exported_function_is_called_by_the_smoke_test() {
    let smoke = std::fs::read_to_string(root().join("examples_c/smoke_test.c")).unwrap();
    let functions = header_functions();
    for f in functions {
        assert!(smoke.contains(&format!("{f}(")), "examples_c/smoke_test.c never calls {f}");
    }
}

#[test]
fn header_compiles_as_cpp11() {
    let tool = compiler(true);
    if tool.is_like_msvc() {
        panic!("the C example harness supports GCC and Clang only");
    }
    let src = out_dir().join("header_cpp11.cpp");
    std::fs::write(
        &src,
        "#include \"sinew.h\"\nint main() { SinewWorldDef d = sinew_default_world_def(); return d.substeps > 0 ? 0 : 1; }\n",
    )
    .unwrap();
    let lib = lib_dir();
    let exe = out_dir().join("header_cpp11");
    let mut cmd = tool.to_command();
    cmd.args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(root().join("include"))
        .arg(&src)
        .arg("-L")
        .arg(&lib)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-o")
        .arg(&exe);
    run(&mut cmd);
    run(&mut Command::new(&exe));
}

#[test]
#[cfg(target_os = "linux")]
fn smoke_test_links_the_static_library() {
    let tool = compiler(false);
    let lib = lib_dir();
    let exe = out_dir().join("smoke_test_static");
    let mut cmd = tool.to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(root().join("include"))
        .arg(root().join("examples_c/smoke_test.c"))
        .arg(lib.join("libsinew.a"))
        // What `cargo rustc -- --print native-static-libs` lists for Linux.
        .args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"])
        .arg("-o")
        .arg(&exe);
    run(&mut cmd);
    let text = run(&mut Command::new(&exe));
    assert!(text.contains("all checks passed"), "{text}");
}
