//! Compiles the C programs of `examples_c/` against the real header and the
//! library cargo built for these tests, with the system C compiler
//! (`-std=c99 -Wall -Wextra -Werror -pedantic`), and runs them; checks that
//! the header compiles as C++11 and that the README's C example compiles
//! and runs. With `SINEW_LONG_TESTS=1` (`.ci/run` sets it) every example
//! also runs under valgrind's memcheck; a plain `cargo test` says it left
//! that out.

mod common;

use common::{compiler, header_functions, lib_dir, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    common::out_dir("examples_c")
}

/// The C examples and what each prints when its own checks pass.
const EXAMPLES: [(&str, &str); 6] = [
    ("smoke_test", "all checks passed"),
    ("hello_particles", "ok: the rope hangs draped over the ball"),
    ("flag", "ok: the flag flies"),
    ("terrain", "ok: nothing sank more than 1 cm"),
    ("ragdoll", "ok: the figure tumbled down the stairs"),
    ("motors", "ok: the figure held its pose, took the hit and recovered"),
];

/// Compiles and links one C source against the shared library.
fn build_c_file(source: &Path, exe: &Path) {
    let tool = compiler(false);
    if tool.is_like_msvc() {
        panic!("the C example harness supports GCC and Clang only");
    }
    let lib = lib_dir();
    let mut cmd = tool.to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"])
        .arg("-I")
        .arg(root().join("include"))
        .arg(source)
        .arg("-L")
        .arg(&lib)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lm")
        .arg("-o")
        .arg(exe);
    run(&mut cmd);
}

/// Compiles one example of `examples_c/`.
fn build_c(name: &str) -> PathBuf {
    let exe = out_dir().join(name);
    build_c_file(&root().join("examples_c").join(format!("{name}.c")), &exe);
    exe
}

/// Builds and runs one example, checks its verdict line, returns its output.
fn run_example(name: &str) -> String {
    let (_, verdict) = EXAMPLES.iter().find(|(n, _)| *n == name).expect("an example of EXAMPLES");
    let text = run(&mut Command::new(build_c(name)));
    assert!(text.contains(verdict), "{name}:\n{text}");
    text
}

/// Every example under valgrind's memcheck (a long run: minutes), two at a
/// time; fails on an invalid access, an uninitialised read or a definite leak.
#[test]
fn every_c_example_is_clean_under_valgrind() {
    if !common::long_run_under_valgrind(
        "c_examples::every_c_example_is_clean_under_valgrind",
        "valgrind over the C examples",
    ) {
        return;
    }
    let exes: Vec<(&str, &str, PathBuf)> = EXAMPLES.iter().map(|&(n, v)| (n, v, build_c(n))).collect();
    std::thread::scope(|s| {
        for pair in exes.chunks(exes.len().div_ceil(2)) {
            s.spawn(move || {
                for (name, verdict, exe) in pair {
                    let text = run(common::memcheck().arg(exe));
                    assert!(text.contains(verdict), "{name} under valgrind:\n{text}");
                }
            });
        }
    });
}

#[test]
fn smoke_test_exercises_every_function() {
    run_example("smoke_test");
}

#[test]
fn hello_particles_rope_drapes_over_the_ball() {
    let text = run_example("hello_particles");
    assert!(text.contains("t = 6 s"), "{text}");
}

#[test]
fn flag_flies_in_the_wind() {
    let text = run_example("flag");
    assert!(text.contains("t = 4.0 s"), "{text}");
}

#[test]
fn terrain_holds_particles_and_a_chain() {
    println!("{}", run_example("terrain"));
}

#[test]
fn ragdoll_tumbles_down_the_stairs() {
    let text = run_example("ragdoll");
    assert!(text.contains("t = 8 s"), "{text}");
}

#[test]
fn motors_hold_a_pose_take_a_hit_and_recover() {
    println!("{}", run_example("motors"));
}

/// The README's C example (the first ```c block after "## Examples"), in a
/// main(), compiles without a warning and runs.
#[test]
fn readme_c_example_compiles_and_runs() {
    let source = common::readme_program("c");
    let src = out_dir().join("readme_example.c");
    std::fs::write(&src, source).unwrap();
    let exe = out_dir().join("readme_example");
    build_c_file(&src, &exe);
    let text = run(&mut Command::new(&exe));
    assert!(text.contains("readme example done"), "{text}");
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
