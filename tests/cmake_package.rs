//! The CMake package (`bindings/cmake/sinewConfig.cmake` + version file) and
//! the pkg-config files: `examples_c/CMakeLists.txt` is configured with
//! `find_package(sinew CONFIG REQUIRED)` from the repository layout (cargo's
//! target folder) and from a staged install prefix, built, and its programs
//! run and checked. When cmake (or pkg-config) is not installed each test
//! prints a `SKIPPED` line (and fails when `CI` is set); `.ci/run` installs
//! them.

mod common;

use common::{compiler, have, lib_dir, root, run, shared_name, stage_prefix};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cmake_missing(test: &str) -> bool {
    if have("cmake") {
        return false;
    }
    common::missing_tool(&format!("cmake_package::{test}"), "cmake");
    true
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = common::out_dir("cmake").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Configures and builds examples_c/ in `build`; returns cmake's configure output.
fn configure_and_build(build: &Path, args: &[String], envs: &[(&str, &Path)]) -> String {
    let mut configure = Command::new("cmake");
    configure.arg("-S").arg(root().join("examples_c")).arg("-B").arg(build).args(args).env_remove("CARGO_TARGET_DIR");
    for (k, v) in envs {
        configure.env(k, v);
    }
    let text = run(&mut configure);
    run(Command::new("cmake").arg("--build").arg(build).args(["-j", "2"]));
    text
}

/// Runs a built program as a user would: from its own rpath, without the
/// LD_LIBRARY_PATH cargo sets for tests.
fn run_plain(exe: &Path) -> String {
    run(Command::new(exe).env_remove("LD_LIBRARY_PATH"))
}

fn run_examples(build: &Path, with_static: bool) {
    let text = run_plain(&build.join("hello_particles"));
    assert!(text.contains("ok: the rope hangs draped over the ball"), "{text}");
    let text = run_plain(&build.join("smoke_test"));
    assert!(text.contains("all checks passed"), "{text}");
    let text = run_plain(&build.join("cpp_rope"));
    assert!(text.contains("ok: the rope swings rigidly"), "{text}");
    if with_static {
        let exe = build.join("smoke_test_static");
        let text = run_plain(&exe);
        assert!(text.contains("all checks passed"), "{text}");
        // Linked statically: the program does not load libsinew at all.
        let ldd = run(Command::new("ldd").arg(&exe).env_remove("LD_LIBRARY_PATH"));
        assert!(!ldd.contains("libsinew"), "smoke_test_static loads libsinew:\n{ldd}");
    }
}

#[test]
fn cmake_finds_the_cargo_build_in_the_repository() {
    if cmake_missing("cmake_finds_the_cargo_build_in_the_repository") {
        return;
    }
    let lib = lib_dir();
    // lib is <cargo target dir>/<profile>; the package searches
    // $CARGO_TARGET_DIR/<profile> before the checkout's target/.
    let (target, profile) = (lib.parent().unwrap(), lib.file_name().unwrap().to_str().unwrap());
    let build = fresh_dir("repo");
    let text = configure_and_build(
        &build,
        &[
            format!("-Dsinew_DIR={}", root().join("bindings/cmake").display()),
            format!("-DSINEW_CARGO_PROFILE={profile}"),
        ],
        &[("CARGO_TARGET_DIR", target)],
    );
    assert!(text.contains(&format!("sinew 0.1.0: libraries in {}", lib.display())), "{text}");
    run_examples(&build, cfg!(target_os = "linux"));
}

#[test]
fn cmake_finds_an_install_prefix() {
    if cmake_missing("cmake_finds_an_install_prefix") {
        return;
    }
    let dir = fresh_dir("prefix");
    let prefix = dir.join("usr");
    stage_prefix(&prefix);
    let build = dir.join("build");
    let text = configure_and_build(&build, &[format!("-DCMAKE_PREFIX_PATH={}", prefix.display())], &[]);
    assert!(text.contains(&format!("libraries in {}", prefix.join("lib").display())), "{text}");
    run_examples(&build, cfg!(target_os = "linux"));
    // The executables run from the prefix's library, not the build's.
    let ldd = run(Command::new("ldd").arg(build.join("hello_particles")).env_remove("LD_LIBRARY_PATH"));
    assert!(ldd.contains(&prefix.join("lib").join(shared_name()).display().to_string()), "{ldd}");
}

#[test]
fn cmake_reports_a_missing_library_and_a_wrong_version() {
    if cmake_missing("cmake_reports_a_missing_library_and_a_wrong_version") {
        return;
    }
    let dir = fresh_dir("failures");
    std::fs::write(
        dir.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\nproject(probe C)\nfind_package(sinew ${{WANT}} CONFIG REQUIRED PATHS \"{}\" NO_DEFAULT_PATH)\n",
            root().join("bindings/cmake").display()
        ),
    )
    .unwrap();
    let probe = |want: &str, lib_dir: &Path| {
        let out = Command::new("cmake")
            .arg("-S")
            .arg(&dir)
            .arg("-B")
            .arg(dir.join(format!("build-{want}")))
            .arg(format!("-DWANT={want}"))
            .arg(format!("-DSINEW_LIBRARY_DIR={}", lib_dir.display()))
            .output()
            .expect("run cmake");
        (
            out.status.success(),
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        )
    };
    let (ok, text) = probe("0.1", &lib_dir());
    assert!(ok, "0.1 must be accepted:\n{text}");
    let (ok, text) = probe("0.2", &lib_dir());
    assert!(!ok && text.contains("0.1.0"), "0.2 must be refused (0.x minors are incompatible):\n{text}");
    let (ok, text) = probe("1.0", &lib_dir());
    assert!(!ok, "1.0 must be refused:\n{text}");
    let (ok, text) = probe("0.1", &dir);
    assert!(!ok && text.contains("cargo build --release"), "an empty library folder must fail with advice:\n{text}");
}

#[test]
fn package_versions_match_cargo() {
    let version = env!("CARGO_PKG_VERSION");
    let cmake = std::fs::read_to_string(root().join("bindings/cmake/sinewConfigVersion.cmake")).unwrap();
    assert!(
        cmake.contains(&format!("set(PACKAGE_VERSION \"{version}\")")),
        "sinewConfigVersion.cmake is not {version}"
    );
    for pc in ["bindings/cmake/sinew.pc", "bindings/cmake/install/sinew.pc"] {
        let text = std::fs::read_to_string(root().join(pc)).unwrap();
        assert!(text.lines().any(|l| l == format!("Version: {version}")), "{pc} is not {version}");
    }
}

/// Compiles hello_particles.c with the flags pkg-config gives, runs it.
fn build_with_pkg_config(pc_path: &Path, defines: &[String], exe: &Path) {
    let pkg_config = |what: &[&str]| {
        run(Command::new("pkg-config").env("PKG_CONFIG_PATH", pc_path).args(defines).args(what).arg("sinew"))
    };
    let flags = pkg_config(&["--cflags", "--libs"]);
    let libdir = pkg_config(&["--variable=libdir"]).trim().to_string();
    assert!(Path::new(&libdir).join(shared_name()).exists(), "pkg-config's libdir {libdir} has no library");
    let mut cmd = compiler(false).to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg(root().join("examples_c/hello_particles.c"))
        .args(flags.split_whitespace())
        .arg("-lm")
        .arg(format!("-Wl,-rpath,{libdir}"))
        .arg("-o")
        .arg(exe);
    run(&mut cmd);
    let text = run_plain(exe);
    assert!(text.contains("ok: the rope hangs draped over the ball"), "{text}");
}

#[test]
fn pkg_config_works_from_the_repository_and_an_install_prefix() {
    if !have("pkg-config") {
        common::missing_tool("cmake_package::pkg_config_works_from_the_repository_and_an_install_prefix", "pkg-config");
        return;
    }
    let dir = fresh_dir("pkg-config");
    let lib = lib_dir();
    let (target, profile) = (lib.parent().unwrap(), lib.file_name().unwrap().to_str().unwrap());
    build_with_pkg_config(
        &root().join("bindings/cmake"),
        &[
            format!("--define-variable=cargo_target_dir={}", target.display()),
            format!("--define-variable=profile={profile}"),
        ],
        &dir.join("hello_repo"),
    );
    let prefix = dir.join("usr");
    stage_prefix(&prefix);
    build_with_pkg_config(&prefix.join("lib/pkgconfig"), &[], &dir.join("hello_prefix"));
}
