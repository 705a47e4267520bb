//! The samples app (`examples_cpp/samples/`): built with CMake through
//! `find_package(sinew)` against a staged install prefix, then run headless
//! under its own Xvfb server with the real OpenGL path (Mesa's software
//! renderer). Every scene renders at two frame counts; each screenshot must
//! hold a picture (not one flat colour), the two must differ (the scene
//! moves), and the app must report every position finite and the world's
//! recovery counter at zero (it also exits non-zero otherwise). The later
//! run is long enough for the scene's physical outcome, which the app checks
//! and reports (`outcome=ok`: the stack fell, the bridge held both crates,
//! the crowd went down the stairs, ...), except the crowd's by default (300
//! frames of 54 ragdolls). A third run drives the mouse's code path
//! (`--interact`: pick along a ray at the first body, pull it up, throw a
//! ball along the ray) and must change the picture; it also changes the
//! panel's live settings (substeps, iterations, SIMD level, workers,
//! sleeping, the cloth compliances) on the running world and puts them
//! back, and each must be taken and read back as set.
//!
//! By default the first two runs render only their last frame (the
//! software renderer is slower than the physics) and the interacted run is
//! made for two scenes; `SINEW_LONG_TESTS=1` makes it for every scene, with
//! more frames and the crowd's outcome. Without Xvfb, cmake, pkg-config or
//! the SDL2, GLEW and Dear ImGui development packages the test is skipped
//! with a line on stdout, except under `CI` (set by .ci/run's environment),
//! where it fails.

mod common;

use common::{have, out_dir, root, run, stage_prefix};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Scenes whose interacted run is made without SINEW_LONG_TESTS: cloth on a
/// powered ragdoll, and rigid bodies.
const INTERACT_SCENES: [&str; 2] = ["wardrobe", "stack"];
/// The earlier run's frames, by default and in the long run.
const EARLY: u32 = 2;
const EARLY_LONG: u32 = 8;
/// The later run's frames at least (more where the scene's outcome needs them).
const LATE: u32 = 30;
const LATE_LONG: u32 = 40;
/// The crowd's later run by default: its outcome needs 300 frames of 54
/// ragdolls (13 s of CPU), left to the long run.
const CROWD_LATE: u32 = 20;
const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;

/// Why the app cannot be built and run here, if it cannot.
fn missing_tools() -> Option<String> {
    let mut missing = Vec::new();
    if !have("cmake") {
        missing.push("cmake".to_string());
    }
    if !have("pkg-config") {
        missing.push("pkg-config".to_string());
    } else {
        for module in ["sdl2", "glew", "imgui"] {
            let found = Command::new("pkg-config").args(["--exists", module]).status().is_ok_and(|s| s.success());
            if !found {
                missing.push(format!("pkg-config module {module}"));
            }
        }
    }
    if find_in_path("Xvfb").is_none() {
        missing.push("Xvfb".to_string());
    }
    if missing.is_empty() { None } else { Some(missing.join(", ")) }
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Skips visibly (written to stdout directly, which cargo's capture does not
/// hold back), or fails under CI, which installs everything.
fn skip_or_fail(reason: &str) {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(!ci, "samples app: {reason} missing under CI (.ci/run installs them)");
    let line = format!(
        "samples_app: SKIPPED, {reason} missing (apt-get install cmake pkg-config xvfb libsdl2-dev libglew-dev libimgui-dev)\n"
    );
    let _ = std::io::stdout().write_all(line.as_bytes());
}

/// An Xvfb server on a free display, killed when dropped.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Xvfb {
        // -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("Xvfb's stdout")).read_line(&mut line).expect("read Xvfb's display");
        let number = line.trim();
        assert!(!number.is_empty() && number.chars().all(|c| c.is_ascii_digit()), "Xvfb gave no display: {line:?}");
        Xvfb { display: format!(":{number}"), child }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Stages the install prefix and builds the app against it; returns the executable.
fn build_app() -> PathBuf {
    let dir = out_dir("samples_app");
    let prefix = dir.join("usr");
    let _ = std::fs::remove_dir_all(&prefix);
    stage_prefix(&prefix);
    let build = dir.join("build");
    let _ = std::fs::remove_file(build.join("CMakeCache.txt"));
    let configure = run(Command::new("cmake")
        .arg("-S")
        .arg(root().join("examples_cpp/samples"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
        .arg("-DSINEW_SAMPLES_WERROR=ON")
        // Compiles in half the time of Release, and keeps the wrapper's asserts.
        .arg("-DCMAKE_BUILD_TYPE=Debug")
        .env_remove("CARGO_TARGET_DIR"));
    assert!(configure.contains(&format!("libraries in {}", prefix.join("lib").display())), "{configure}");
    run(Command::new("cmake").arg("--build").arg(&build).args(["-j", "2"]));
    build.join("sinew_samples")
}

/// What the app printed about a run.
#[derive(Debug)]
struct Report {
    finite: bool,
    recoveries: u64,
    /// `sinew_world_constraint_count` at the end, as the panel shows it.
    constraints: u32,
    physics_ms: f64,
    render_ms: f64,
    /// The scene's physical outcome: "ok", "fail", "early" (fewer frames
    /// than it needs) or "none"; the frames it needs; what was measured.
    outcome: String,
    outcome_frames: u32,
    outcome_what: String,
    grabbed: bool,
    thrown: bool,
    /// With `--interact`: the panel's world settings changed live went
    /// through their setters and read back as set.
    live: bool,
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"))
}

/// Runs `scene` for `frames` frames into `png`, as a user would (the
/// library from the executable's rpath).
fn run_scene(exe: &Path, display: &str, scene: &str, frames: u32, png: &Path, extra: &[&str]) -> Report {
    let out = Command::new(exe)
        .args(extra)
        .args(["--scene", scene, "--frames", &frames.to_string(), "--screenshot"])
        .arg(png)
        .args(["--width", &WIDTH.to_string(), "--height", &HEIGHT.to_string()])
        .env("DISPLAY", display)
        .env_remove("LD_LIBRARY_PATH")
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .output()
        .expect("run the samples app");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let line = text.lines().find(|l| l.starts_with(&format!("scene={scene} "))).unwrap_or_else(|| {
        panic!("{scene} ({frames} frames) printed no report ({}):\n{text}", out.status);
    });
    let report = Report {
        finite: field(line, "finite") == "1",
        recoveries: field(line, "recoveries").parse().expect("recoveries"),
        constraints: field(line, "constraints").parse().expect("constraints"),
        physics_ms: field(line, "physics_ms").parse().expect("physics_ms"),
        render_ms: field(line, "render_ms").parse().expect("render_ms"),
        outcome: field(line, "outcome").to_string(),
        outcome_frames: field(line, "outcome_frames").parse().expect("outcome_frames"),
        outcome_what: field(line, "outcome_what").replace('_', " "),
        grabbed: field(line, "grabbed") == "1",
        thrown: field(line, "thrown") == "1",
        live: field(line, "live") == "1",
    };
    assert!(out.status.success(), "{scene} ({frames} frames) failed ({}):\n{text}", out.status);
    report
}

/// RGB pixels of a screenshot.
fn pixels(png: &Path) -> Vec<[u8; 3]> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).expect("screenshot")));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!((info.width, info.height), (WIDTH, HEIGHT), "{}", png.display());
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", png.display());
    buf[..info.buffer_size()].chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}

/// Fails unless the picture has content: many distinct colours, and no single
/// colour covering most of it (a cleared but undrawn frame is one colour).
fn assert_not_blank(png: &Path) {
    let px = pixels(png);
    let mut counts = std::collections::HashMap::new();
    for p in &px {
        *counts.entry(*p).or_insert(0usize) += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    assert!(counts.len() >= 64, "{}: only {} colours", png.display(), counts.len());
    assert!(most * 2 < px.len(), "{}: one colour covers {most} of {} pixels", png.display(), px.len());
}

/// The share of pixels that differ by more than a little between two pictures.
fn changed_share(a: &Path, b: &Path) -> f64 {
    let (pa, pb) = (pixels(a), pixels(b));
    let changed = pa.iter().zip(&pb).filter(|(x, y)| x.iter().zip(y.iter()).any(|(u, v)| u.abs_diff(*v) > 8)).count();
    changed as f64 / pa.len() as f64
}

#[test]
fn samples_app_renders_its_scenes_headless() {
    if let Some(reason) = missing_tools() {
        skip_or_fail(&reason);
        return;
    }
    let exe = build_app();
    let listed = run(Command::new(&exe).arg("--list").env_remove("LD_LIBRARY_PATH"));
    let all: Vec<&str> = listed.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(all.len() >= 13, "the app lists too few scenes:\n{listed}");
    let long = std::env::var("SINEW_LONG_TESTS").is_ok_and(|v| v == "1");
    for scene in INTERACT_SCENES {
        assert!(all.contains(&scene), "no scene {scene} in:\n{listed}");
    }
    let xvfb = Xvfb::start();
    let shots = out_dir("samples_app").join("shots");
    std::fs::create_dir_all(&shots).unwrap();
    let physics_only: &[&str] = &["--render-last"];
    let early_frames = if long { EARLY_LONG } else { EARLY };
    let mut outcomes = Vec::new();
    for &scene in &all {
        let early = shots.join(format!("{scene}_early.png"));
        let late = shots.join(format!("{scene}_late.png"));
        let a = run_scene(&exe, &xvfb.display, scene, early_frames, &early, physics_only);
        assert!(a.outcome_frames > 0, "{scene}: the scene checks no outcome: {a:?}");
        let late_frames = match (long, scene) {
            (false, "crowd") => CROWD_LATE,
            (false, _) => LATE.max(a.outcome_frames),
            (true, _) => LATE_LONG.max(a.outcome_frames),
        };
        let b = run_scene(&exe, &xvfb.display, scene, late_frames, &late, physics_only);
        let mut runs = vec![(a, early_frames), (b, late_frames)];
        if long || INTERACT_SCENES.contains(&scene) {
            // The mouse's path: a body picked by a ray and pulled up, a ball thrown along the ray.
            let poked = shots.join(format!("{scene}_{LATE_LONG}_interact.png"));
            let reference = shots.join(format!("{scene}_{LATE_LONG}.png"));
            let r = run_scene(&exe, &xvfb.display, scene, LATE_LONG, &reference, physics_only);
            let c = run_scene(&exe, &xvfb.display, scene, LATE_LONG, &poked, &["--interact"]);
            assert!(
                c.grabbed && c.thrown,
                "{scene}: the ray at the first body grabbed nothing, or no ball was thrown: {c:?}"
            );
            assert!(c.live, "{scene}: a live setter was refused, or the world did not read back what was set: {c:?}");
            assert!(changed_share(&reference, &poked) > 0.002, "{scene}: pulling and throwing changed nothing");
            runs.push((r, LATE_LONG));
            runs.push((c, LATE_LONG));
        }
        for (r, frames) in &runs {
            assert!(r.finite, "{scene}: a non-finite position after {frames} frames");
            assert_eq!(r.recoveries, 0, "{scene}: the world recovered from a blow-up within {frames} frames");
            assert!(r.constraints > 0, "{scene}: the world reads back no constraints after {frames} frames");
            assert_ne!(r.outcome, "fail", "{scene}: after {frames} frames: {}", r.outcome_what);
        }
        let b = &runs[1].0;
        if late_frames >= b.outcome_frames {
            assert_eq!(b.outcome, "ok", "{scene}: no outcome after {late_frames} frames: {b:?}");
            outcomes.push(scene);
        }
        assert_not_blank(&early);
        assert_not_blank(&late);
        let share = changed_share(&early, &late);
        assert!(
            share > 0.002,
            "{scene}: frames {early_frames} and {late_frames} look the same ({:.3} % of pixels changed)",
            share * 100.0
        );
        println!(
            "{scene}: {late_frames} frames, physics {:.2} ms/frame, render {:.0} ms, {} constraints, \
             {:.1} % of pixels moved, outcome {}: {}",
            b.physics_ms,
            b.render_ms,
            b.constraints,
            share * 100.0,
            b.outcome,
            b.outcome_what
        );
    }
    // Every scene's outcome is checked, the crowd's in the long run.
    assert!(outcomes.len() + usize::from(!long) >= all.len(), "outcomes checked: {outcomes:?}");
}
