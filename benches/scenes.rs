//! The benchmark harness: each scene side by side with
//! the naive textbook loop, in the same process, medians of timed runs.
//!
//! `cargo bench` runs every scene; `cargo bench -- quick` only the small ones.
//! Scenes are built through the C ABI, as an engine would.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or
//! points to a live local or array holding at least the count passed, or is
//! one of the deliberately bad pointers (NULL with a count, misaligned) that
//! the API checks and refuses before it reads or writes through it.

use sinew::ffi::*;
use std::hint::black_box;
use std::time::Instant;

const DT: f32 = 1.0 / 60.0;

// ---- the naive reference ----------------------------------------------------

/// Jakobsen's loop, written plainly: array-of-structs, scalar, one Verlet
/// step, `passes` Gauss-Seidel passes over the sticks in build order with the
/// mass-weighted projection and a true square root, then a ground clamp.
struct Naive {
    x: Vec<[f32; 3]>,
    old: Vec<[f32; 3]>,
    inv_mass: Vec<f32>,
    sticks: Vec<Stick>,
}

impl Naive {
    fn step(&mut self, passes: usize) {
        let g = -9.81 * DT * DT;
        for i in 0..self.x.len() {
            if self.inv_mass[i] == 0.0 {
                continue;
            }
            let (x, o) = (self.x[i], self.old[i]);
            self.old[i] = x;
            self.x[i] = [2.0 * x[0] - o[0], 2.0 * x[1] - o[1] + g, 2.0 * x[2] - o[2]];
        }
        for _ in 0..passes {
            for &(a, b, rest) in &self.sticks {
                let (wa, wb) = (self.inv_mass[a], self.inv_mass[b]);
                if wa + wb == 0.0 {
                    continue;
                }
                let d = [self.x[b][0] - self.x[a][0], self.x[b][1] - self.x[a][1], self.x[b][2] - self.x[a][2]];
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if len == 0.0 {
                    continue;
                }
                let k = (len - rest) / (len * (wa + wb));
                for (c, dc) in d.iter().enumerate() {
                    self.x[a][c] += wa * k * dc;
                    self.x[b][c] -= wb * k * dc;
                }
            }
        }
        for p in &mut self.x {
            p[1] = p[1].max(-100.0);
        }
    }
}

// ---- scenes -----------------------------------------------------------------

/// A stick: particles a, b and the rest length.
type Stick = (usize, usize, f32);

/// The sticks-N sheet: positions, inverse masses, sticks.
fn sheet(n: usize) -> (Vec<[f32; 3]>, Vec<f32>, Vec<Stick>) {
    let at = |r: usize, c: usize| r * n + c;
    let x: Vec<[f32; 3]> = (0..n * n).map(|i| [(i % n) as f32 * 0.1, -((i / n) as f32) * 0.1, 0.0]).collect();
    let w = (0..n * n).map(|i| if i < n { 0.0 } else { 1.0 }).collect();
    let mut s = Vec::new();
    let d = 0.1 * std::f32::consts::SQRT_2;
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n {
                s.push((at(r, c), at(r, c + 1), 0.1));
            }
            if r + 1 < n {
                s.push((at(r, c), at(r + 1, c), 0.1));
            }
            if r + 1 < n && c + 1 < n {
                s.push((at(r, c), at(r + 1, c + 1), d));
                s.push((at(r, c + 1), at(r + 1, c), d));
            }
            if c + 2 < n {
                s.push((at(r, c), at(r, c + 2), 0.2));
            }
            if r + 2 < n {
                s.push((at(r, c), at(r + 2, c), 0.2));
            }
        }
    }
    (x, w, s)
}

fn mean_stretch(x: &[[f32; 3]], sticks: &[Stick]) -> f64 {
    let sum: f64 = sticks
        .iter()
        .map(|&(a, b, rest)| {
            let d = [x[b][0] - x[a][0], x[b][1] - x[a][1], x[b][2] - x[a][2]];
            f64::from(((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - rest).abs() / rest)
        })
        .sum();
    sum / sticks.len() as f64
}

fn ok(r: SinewResult) {
    if r != SINEW_RESULT_OK {
        let mut buf = [0u8; 512];
        let n = unsafe { sinew_last_error_message(buf.as_mut_ptr() as *mut std::ffi::c_char, buf.len()) };
        panic!("sinew call failed: {}", String::from_utf8_lossy(&buf[..n.min(511)]));
    }
}

/// A world through the C ABI; sleep off so every step is timed at full work.
/// Destroys a scene's world, asserting it never recovered: a recovery in
/// a sane scene is a bug, and its timings would be wrong.
fn destroy(w: *mut SinewWorld) {
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    assert_eq!(recoveries, 0, "a bench scene recovered a non-finite island");
    unsafe { sinew_world_destroy(w) };
}

fn world(substeps: u32, iterations: u32, damping: f32) -> *mut SinewWorld {
    world_on(substeps, iterations, damping, SINEW_SIMD_AUTO, 1)
}

/// A world at a SIMD level with `workers` threads (the built-in pool).
fn world_on(substeps: u32, iterations: u32, damping: f32, simd: u32, workers: u32) -> *mut SinewWorld {
    let mut def = sinew_default_world_def();
    def.simd_level = simd;
    def.worker_count = workers;
    def.substeps = substeps;
    def.iterations = iterations;
    def.damping = damping;
    def.sleep_speed = 0.0;
    if std::env::var("NOAIR").is_ok() {
        def.air_density = 0.0;
    }
    let mut w = std::ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut w) });
    let ground = SinewVec3 { x: 0.0, y: 1.0, z: 0.0 };
    let mut c = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(w, ground, -100.0, 0.5, &mut c) });
    w
}

fn read(w: *mut SinewWorld, body: SinewBodyId, n: usize) -> Vec<[f32; 3]> {
    let mut out = vec![SinewVec3::default(); n];
    let mut count = 0;
    ok(unsafe { sinew_body_read_positions(w, body, out.as_mut_ptr(), n as u32, &mut count) });
    out.iter().map(|v| [v.x, v.y, v.z]).collect()
}

/// Median milliseconds per step of `step`, over `runs` runs of `steps` steps
/// after `warm` warm-up steps.
fn time(mut step: impl FnMut(), warm: usize, runs: usize, steps: usize) -> f64 {
    for _ in 0..warm {
        step();
    }
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..steps {
                step();
            }
            start.elapsed().as_secs_f64() * 1e3 / steps as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[runs / 2]
}

/// Steps a scene to 220 steps in total (for the stretch figure), timing a
/// part of them: (ms/step, stretch).
fn run_sheet_naive(n: usize, runs: usize) -> (f64, f64) {
    let (x, w, s) = sheet(n);
    let mut naive = Naive { old: x.clone(), x, inv_mass: w, sticks: s };
    let steps = 220 / (runs + 2);
    let ms = time(|| naive.step(10), 220 - runs * steps, runs, steps);
    (ms, mean_stretch(&naive.x, &naive.sticks))
}

fn run_sheet_sinew(n: usize, split: (u32, u32), simd: u32, workers: u32, runs: usize) -> (f64, f64) {
    let (x, inv, s) = sheet(n);
    let w = world_on(split.0, split.1, 0.0, simd, workers);
    let pos: Vec<SinewVec3> = x.iter().map(|p| SinewVec3 { x: p[0], y: p[1], z: p[2] }).collect();
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(w, pos.as_ptr(), inv.as_ptr(), pos.len() as u32, &mut body) });
    let sticks: Vec<SinewDistanceConstraint> = s
        .iter()
        .map(|&(a, b, rest)| SinewDistanceConstraint { a: a as u32, b: b as u32, rest_length: rest, compliance: 0.0 })
        .collect();
    ok(unsafe { sinew_body_add_distance_constraints(w, body, sticks.as_ptr(), sticks.len() as u32) });
    let steps = 220 / (runs + 2);
    let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 220 - runs * steps, runs, steps);
    let stretch = mean_stretch(&read(w, body, n * n), &s);
    destroy(w);
    (ms, stretch)
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {cores} cores; best SIMD level: {}", level_name(best_level()))
}

/// The best SIMD level of this machine, as sinew reports it.
fn best_level() -> u32 {
    let w = world(1, 1, 0.0);
    let mut level = 0;
    ok(unsafe { sinew_world_get_simd_level(w, &mut level) });
    destroy(w);
    level
}

fn level_name(level: u32) -> &'static str {
    match level {
        SINEW_SIMD_SCALAR => "scalar",
        SINEW_SIMD_SSE2 => "SSE2",
        SINEW_SIMD_AVX2 => "AVX2",
        SINEW_SIMD_AVX512 => "AVX-512",
        _ => "?",
    }
}

fn sticks_scene(n: usize, runs: usize) {
    let (_, _, s) = sheet(n);
    let projections = s.len() as f64 * 10.0;
    println!("\n### sticks-{n}: {} particles, {} sticks, 10 passes per step\n", n * n, s.len());
    println!("| solver | split | ms/step | M projections/s | mean stretch after 220 steps | speed vs naive |");
    println!("|---|---|---:|---:|---:|---:|");
    let (naive_ms, naive_stretch) = run_sheet_naive(n, runs);
    let row = |name: &str, split: &str, ms: f64, stretch: f64| {
        println!(
            "| {name} | {split} | {ms:.3} | {:.1} | {:.2e} | {:.2}x |",
            projections / ms / 1e3,
            stretch,
            naive_ms / ms
        );
    };
    row("naive textbook loop", "1 x 10", naive_ms, naive_stretch);
    let best = best_level();
    for level in SINEW_SIMD_SCALAR..=best {
        let (ms, stretch) = run_sheet_sinew(n, (1, 10), level, 1, runs);
        row(&format!("sinew, {}, 1 worker", level_name(level)), "1 x 10", ms, stretch);
    }
    let (ms, stretch) = run_sheet_sinew(n, (1, 10), best, 2, runs);
    row(&format!("sinew, {}, 2 workers", level_name(best)), "1 x 10", ms, stretch);
    let (ms, stretch) = run_sheet_sinew(n, (10, 1), best, 1, runs);
    row(&format!("sinew, {}, 1 worker", level_name(best)), "10 x 1", ms, stretch);
}

fn cloth_scene(n: u32, runs: usize) {
    let defaults = sinew_default_world_def();
    let w = world(defaults.substeps, defaults.iterations, defaults.damping);
    let mut def = sinew_default_cloth_grid_def();
    def.columns = n;
    def.rows = n;
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_cloth_create_grid(w, &def, &mut body) });
    let steps = 220 / (runs + 2);
    let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 220 - runs * steps, runs, steps);
    let (_, _, structural) = sheet(n as usize);
    let structural: Vec<_> = structural.into_iter().filter(|s| s.2 < 0.15).collect();
    let stretch = mean_stretch(&read(w, body, (n * n) as usize), &structural);
    // The naive loop on the same sheet at the same number of passes per step.
    let passes = (defaults.substeps * defaults.iterations) as usize;
    let (x, inv, s) = sheet(n as usize);
    let mut naive = Naive { old: x.clone(), x, inv_mass: inv, sticks: s };
    let naive_ms = time(|| naive.step(passes), 220 - runs * steps, runs, steps);
    println!(
        "| cloth-{n} | {} x {} | {ms:.3} | {stretch:.2e} | {naive_ms:.3} | {:.2}x |",
        defaults.substeps,
        defaults.iterations,
        naive_ms / ms
    );
    destroy(w);
}

/// ms/step of an `n x n` grid cloth at the library's defaults (sleep off)
/// with bending `mode`, at SIMD `level`, one worker.
fn bending_ms(n: u32, mode: u32, level: u32, runs: usize) -> f64 {
    let defaults = sinew_default_world_def();
    let w = world_on(defaults.substeps, defaults.iterations, defaults.damping, level, 1);
    let mut def = sinew_default_cloth_grid_def();
    def.columns = n;
    def.rows = n;
    def.bend_mode = mode;
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_cloth_create_grid(w, &def, &mut body) });
    let steps = 220 / (runs + 2);
    let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 220 - runs * steps, runs, steps);
    destroy(w);
    ms
}

/// The dihedral bends' SIMD batches: the same cloth with dihedral bending
/// and, for reference, with bend sticks, at every SIMD level.
fn bending_scene(n: u32, runs: usize) {
    let defaults = sinew_default_world_def();
    println!(
        "\n### bending-{n}: sinew_cloth_create_grid {n}x{n}, {} x {}, one worker, by bend mode and SIMD level\n",
        defaults.substeps, defaults.iterations
    );
    println!("| bend mode | SIMD level | ms/step | speed vs scalar |");
    println!("|---|---|---:|---:|");
    for (mode, name) in [(SINEW_BEND_DIHEDRAL, "dihedral"), (SINEW_BEND_DISTANCE, "bend sticks")] {
        let scalar = bending_ms(n, mode, SINEW_SIMD_SCALAR, runs);
        println!("| {name} | scalar | {scalar:.3} | 1.00x |");
        for level in SINEW_SIMD_SCALAR + 1..=best_level() {
            let ms = bending_ms(n, mode, level, runs);
            println!("| {name} | {} | {ms:.3} | {:.2}x |", level_name(level), scalar / ms);
        }
    }
}

fn readback_scene(n: u32) {
    let w = world(8, 1, 0.01);
    let mut def = sinew_default_cloth_grid_def();
    def.columns = n;
    def.rows = n;
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_cloth_create_grid(w, &def, &mut body) });
    let count = (n * n) as usize;
    let mut out = vec![SinewVec3::default(); count];
    let mut got = 0;
    let us = time(
        || {
            ok(unsafe { sinew_body_read_positions(w, body, out.as_mut_ptr(), count as u32, &mut got) });
            black_box(&out);
        },
        100,
        9,
        200,
    ) * 1e3;
    let mut vb = vec![0f32; count * 6];
    let us_vb = time(
        || {
            let base = vb.as_mut_ptr() as *mut u8;
            ok(unsafe {
                sinew_cloth_write_vertices(w, body, base, 24, base.wrapping_add(12), 24, count as u32, &mut got)
            });
            black_box(&vb);
        },
        20,
        9,
        50,
    ) * 1e3;
    // The floor: a plain copy of the same bytes between two caller buffers,
    // timed the same way.
    let from = vec![SinewVec3::default(); count];
    let mut to = vec![SinewVec3::default(); count];
    let us_copy = time(
        || {
            to.copy_from_slice(black_box(&from));
            black_box(&to);
        },
        100,
        9,
        200,
    ) * 1e3;
    let bytes = (count * 12) as f64;
    println!("\n### readback-{n}: {count} particles\n");
    println!("| call | us/call | GB/s | vs memcpy |");
    println!("|---|---:|---:|---:|");
    println!("| sinew_body_read_positions | {us:.1} | {:.2} | {:.2}x |", bytes / us / 1e3, us / us_copy);
    println!("| memcpy of the same bytes (copy_from_slice) | {us_copy:.1} | {:.2} | 1.00x |", bytes / us_copy / 1e3);
    println!(
        "| sinew_cloth_write_vertices (positions + normals, stride 24) | {us_vb:.1} | {:.2} | |",
        2.0 * bytes / us_vb / 1e3
    );
    destroy(w);
}

/// Figure `f`'s spot on the ground of a square grid 2 m apart holding `k`.
fn grid_spot(f: usize, k: usize) -> sinew::Vec3 {
    let side = grid_side(k);
    sinew::Vec3::new(2.0 * (f % side) as f32, 0.0, 2.0 * (f / side) as f32)
}

/// Figures per row of the square grid of `k`.
fn grid_side(k: usize) -> usize {
    (k as f64).sqrt().ceil() as usize
}

/// The small push every dropped figure gets: 0.5 m/s across the ground, each
/// its own way.
fn push(f: usize) -> sinew::Vec3 {
    let a = f as f32 * 0.7;
    sinew::Vec3::new(a.cos(), 0.0, a.sin()) * 0.5
}

/// Height the ragdolls scene drops its figures from.
const DROP: f32 = 0.3;

/// The textbook Hitman stick figure, `../shared/bench/naive_ragdoll.h`
/// ported as it is: velocity-less Verlet, 16 bone sticks, 14 torso braces, 6
/// minimum-distance limits, projection onto the ground with friction through
/// the previous position; scalar, array of structs.
struct Hitman {
    x: [[f32; 3]; 17],
    old: [[f32; 3]; 17],
    sticks: Vec<(usize, usize, f32, bool)>,
}

impl Hitman {
    /// Standing on the ground at `at` (`at.y` above it), moving at `v`.
    fn new(at: sinew::Vec3, v: sinew::Vec3, substeps: usize) -> Hitman {
        #[rustfmt::skip]
        const P: [[f32; 3]; 17] = [
            [0.0, 1.75, 0.0], [0.0, 1.50, 0.0], [0.0, 1.25, 0.0], [0.0, 0.95, 0.0],
            [0.20, 1.45, 0.0], [-0.20, 1.45, 0.0], [0.22, 1.15, 0.0], [-0.22, 1.15, 0.0],
            [0.24, 0.88, 0.0], [-0.24, 0.88, 0.0], [0.10, 0.92, 0.0], [-0.10, 0.92, 0.0],
            [0.10, 0.50, 0.0], [-0.10, 0.50, 0.0], [0.10, 0.08, 0.0], [-0.10, 0.08, 0.0],
            [0.10, 0.03, 0.18],
        ];
        const BONES: [(usize, usize); 16] = [
            (0, 1),
            (1, 2),
            (2, 3),
            (1, 4),
            (1, 5),
            (4, 6),
            (5, 7),
            (6, 8),
            (7, 9),
            (3, 10),
            (3, 11),
            (10, 12),
            (11, 13),
            (12, 14),
            (13, 15),
            (14, 16),
        ];
        const BRACES: [(usize, usize); 14] = [
            (4, 5),
            (10, 11),
            (4, 10),
            (5, 11),
            (4, 11),
            (5, 10),
            (2, 4),
            (2, 5),
            (2, 10),
            (2, 11),
            (0, 4),
            (0, 5),
            (15, 16),
            (12, 16),
        ];
        const LIMITS: [(usize, usize); 6] = [(4, 8), (5, 9), (10, 14), (11, 15), (12, 13), (8, 9)];
        let h = DT / substeps as f32;
        let x = P.map(|p| [at.x + p[0], at.y + p[1], at.z + p[2]]);
        let old = x.map(|p| [p[0] - v.x * h, p[1] - v.y * h, p[2] - v.z * h]);
        let length = |a: usize, b: usize| {
            let d = sinew::Vec3::from(x[b]) - sinew::Vec3::from(x[a]);
            d.length()
        };
        let mut sticks = Vec::with_capacity(36);
        for &(a, b) in BONES.iter().chain(&BRACES) {
            sticks.push((a, b, length(a, b), false));
        }
        for &(a, b) in &LIMITS {
            sticks.push((a, b, 0.3 * length(a, b), true));
        }
        Hitman { x, old, sticks }
    }

    /// `naive_ragdoll_step`: one 1/60 s step of `substeps` substeps.
    fn step(&mut self, substeps: usize, friction: f32) {
        let (h, g, r) = (DT / substeps as f32, -9.81f32, 0.05f32);
        for _ in 0..substeps {
            for k in 0..17 {
                let t = self.x[k];
                self.x[k][0] += 0.99 * (self.x[k][0] - self.old[k][0]);
                self.x[k][1] += 0.99 * (self.x[k][1] - self.old[k][1]) + g * h * h;
                self.x[k][2] += 0.99 * (self.x[k][2] - self.old[k][2]);
                self.old[k] = t;
            }
            for &(a, b, rest, min_only) in &self.sticks {
                let d = [self.x[b][0] - self.x[a][0], self.x[b][1] - self.x[a][1], self.x[b][2] - self.x[a][2]];
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if len <= 0.0 || (min_only && len >= rest) {
                    continue;
                }
                let diff = 0.5 * (len - rest) / len;
                for (c, dc) in d.iter().enumerate() {
                    self.x[a][c] += dc * diff;
                    self.x[b][c] -= dc * diff;
                }
            }
            for k in 0..17 {
                if self.x[k][1] < r {
                    self.x[k][1] = r;
                    self.old[k][0] += friction * (self.x[k][0] - self.old[k][0]);
                    self.old[k][2] += friction * (self.x[k][2] - self.old[k][2]);
                }
            }
        }
    }
}

/// How the ragdolls scene's figures are driven.
#[derive(Clone, Copy, PartialEq)]
enum Figures {
    /// Limp, dropped from `DROP` with a small push.
    Limp,
    /// Standing on the ground, motors holding their standing pose.
    Motors,
}

/// The ragdolls scene of `../shared/BENCHMARKS.md` through the C ABI: `k`
/// humanoids in a grid 2 m apart on a plane, 60 Hz, the library's defaults
/// (8 x 1, sleep off), one world of `workers`.
fn ragdolls_world(
    k: usize,
    figures: Figures,
    workers: u32,
) -> (*mut SinewWorld, Vec<(SinewBodyId, Vec<SinewTransform>)>) {
    let defaults = sinew_default_world_def();
    let w = world_on(defaults.substeps, defaults.iterations, defaults.damping, SINEW_SIMD_AUTO, workers);
    let mut c = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(w, SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 0.0, 0.5, &mut c) });
    let mut figures_out = Vec::with_capacity(k);
    for f in 0..k {
        let lift = if figures == Figures::Limp { DROP } else { 0.0 };
        let root = SinewTransform {
            position: (grid_spot(f, k) + sinew::Vec3::Y * lift).into(),
            rotation: sinew::Quat::IDENTITY.into(),
        };
        let mut body = SinewBodyId::default();
        ok(unsafe { sinew_ragdoll_create_humanoid(w, root, 1.8, &mut body) });
        let mut pose = Vec::new();
        match figures {
            Figures::Limp => {
                let mut n = 0;
                ok(unsafe { sinew_body_particle_count(w, body, &mut n) });
                let v = vec![SinewVec3::from(push(f)); n as usize];
                ok(unsafe { sinew_body_set_velocities(w, body, 0, v.as_ptr(), n) });
            }
            Figures::Motors => {
                pose = vec![SinewTransform::default(); 17];
                let mut n = 0;
                ok(unsafe { sinew_ragdoll_read_bones(w, body, pose.as_mut_ptr(), 17, &mut n) });
                ok(unsafe { sinew_ragdoll_set_motor_strength(w, body, 0.5, 2000.0) });
                // Standing on their motors alone: the pelvis is driven too.
                ok(unsafe { sinew_ragdoll_set_motor_root_motion(w, body, 1) });
            }
        }
        figures_out.push((body, pose));
    }
    (w, figures_out)
}

/// ms per step of the ragdolls scene over its first 5 s (300 steps), each
/// run from a fresh world; the median of `runs`. Motors get their targets
/// every frame, as a game sets them from its animation.
fn ragdolls_ms(k: usize, figures: Figures, workers: u32, runs: usize) -> f64 {
    let mut per_run: Vec<f64> = (0..runs)
        .map(|_| {
            let (w, bodies) = ragdolls_world(k, figures, workers);
            let start = Instant::now();
            for _ in 0..300 {
                for (body, pose) in &bodies {
                    if !pose.is_empty() {
                        ok(unsafe { sinew_ragdoll_set_motor_targets(w, *body, pose.as_ptr(), pose.len() as u32) });
                    }
                }
                ok(unsafe { sinew_world_step(w, DT) });
            }
            let ms = start.elapsed().as_secs_f64() * 1e3 / 300.0;
            let mut recoveries = 0;
            ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
            assert_eq!(recoveries, 0, "the ragdolls scene set off the recovery");
            destroy(w);
            ms
        })
        .collect();
    per_run.sort_by(f64::total_cmp);
    per_run[runs / 2]
}

/// The stages of a `SinewProfile`, named, in the step's order.
fn stages(p: &SinewProfile) -> [(&'static str, f32); 17] {
    [
        ("prepare", p.prepare),
        ("broad phase", p.broad_phase),
        ("predict", p.predict),
        ("constraints", p.constraints),
        ("ragdoll contacts (per pass)", p.ragdoll_contacts),
        ("bones: fit, rigid (per pass)", p.bones),
        ("joints: points, cones, hinges (per pass)", p.joints),
        ("separations (per pass)", p.separations),
        ("twists (per pass)", p.twists),
        ("contacts", p.contacts),
        ("bone lengths", p.bone_lengths),
        ("couplings", p.couplings),
        ("velocities, friction", p.velocities),
        ("bone motion, joint friction", p.bone_motion),
        ("motors", p.motors),
        ("rigid bodies", p.rigid_bodies),
        ("finish: recovery check, sleep", p.finish),
    ]
}

/// Microseconds per ragdoll per step in each stage of the ragdolls scene
/// (`sinew_world_get_profile`, one worker, the first 5 s), then the step.
fn ragdolls_breakdown(k: usize, figures: Figures) -> Vec<(&'static str, f64)> {
    let (w, bodies) = ragdolls_world(k, figures, 1);
    ok(unsafe { sinew_world_set_profiling(w, 1) });
    let mut sums = vec![0.0f64; 17];
    let mut step = 0.0;
    for _ in 0..300 {
        for (body, pose) in &bodies {
            if !pose.is_empty() {
                ok(unsafe { sinew_ragdoll_set_motor_targets(w, *body, pose.as_ptr(), pose.len() as u32) });
            }
        }
        ok(unsafe { sinew_world_step(w, DT) });
        let mut p = SinewProfile::default();
        ok(unsafe { sinew_world_get_profile(w, &mut p) });
        for (sum, (_, ms)) in sums.iter_mut().zip(stages(&p)) {
            *sum += f64::from(ms);
        }
        step += f64::from(p.step);
    }
    destroy(w);
    let per = |ms: f64| ms * 1e3 / (300.0 * k as f64);
    let mut rows: Vec<(&'static str, f64)> =
        stages(&SinewProfile::default()).iter().zip(&sums).map(|(&(n, _), &ms)| (n, per(ms))).collect();
    rows.push(("step (wall, profiled)", per(step)));
    rows
}

/// ms per step of `k` Hitman figures beside one another, dropped and pushed
/// as the limp humanoids are, over the first 5 s; the median of `runs`.
fn hitman_ms(k: usize, runs: usize) -> f64 {
    let substeps = sinew_default_world_def().substeps as usize;
    let mut per_run: Vec<f64> = (0..runs)
        .map(|_| {
            let mut figures: Vec<Hitman> =
                (0..k).map(|f| Hitman::new(grid_spot(f, k) + sinew::Vec3::Y * DROP, push(f), substeps)).collect();
            let start = Instant::now();
            for _ in 0..300 {
                for figure in &mut figures {
                    figure.step(substeps, 0.5);
                }
            }
            let ms = start.elapsed().as_secs_f64() * 1e3 / 300.0;
            assert!(figures.iter().all(|f| f.x.iter().flatten().all(|c| c.is_finite())));
            black_box(&figures);
            ms
        })
        .collect();
    per_run.sort_by(f64::total_cmp);
    per_run[runs / 2]
}

fn ragdolls_scene(k: usize, runs: usize) {
    let naive_ms = hitman_ms(k, runs.max(3));
    let mut rows = vec![("limp, 1 worker", ragdolls_ms(k, Figures::Limp, 1, runs))];
    rows.push(("limp, 2 workers", ragdolls_ms(k, Figures::Limp, 2, runs)));
    rows.push(("motors holding a pose, 1 worker", ragdolls_ms(k, Figures::Motors, 1, runs)));
    rows.push(("motors holding a pose, 2 workers", ragdolls_ms(k, Figures::Motors, 2, runs)));
    println!(
        "\n### ragdolls-{k}: humanoids 2 m apart on a plane, dropped limp from {DROP} m with a 0.5 m/s push, or standing on motors (strength 0.5, 2000 N, targets every frame); the library's defaults (sleep off), mean over the first 5 s\n"
    );
    println!("| solver | ms/step | us per ragdoll per step | x stick figure |");
    println!("|---|---:|---:|---:|");
    println!(
        "| textbook stick figure (naive_ragdoll.h: 17 particles, 36 sticks, 8 substeps) | {naive_ms:.3} | {:.2} | 1.00x |",
        naive_ms * 1e3 / k as f64
    );
    for (label, ms) in rows {
        println!("| sinew, {label} | {ms:.3} | {:.1} | {:.1}x |", ms * 1e3 / k as f64, ms / naive_ms);
    }
    println!(
        "\nPer stage (`sinew_world_get_profile`, 1 worker), us per ragdoll per step; the passes' stages run {} times a substep:\n",
        sinew::RAGDOLL_PASSES
    );
    println!("| stage | limp | motors holding a pose |");
    println!("|---|---:|---:|");
    let (limp, motors) = (ragdolls_breakdown(k, Figures::Limp), ragdolls_breakdown(k, Figures::Motors));
    for ((name, a), (_, b)) in limp.iter().zip(&motors) {
        if *a > 0.0 || *b > 0.0 {
            println!("| {name} | {a:.1} | {b:.1} |");
        }
    }
}

/// ms per step over the first 5 s of `k` limp humanoids and a 4 m, 40 x 40
/// cloth on the ground, one thread (the median of `runs`): `piled` drops
/// them lying across one another in a column over the cloth (each then
/// collides with the others and the cloth), otherwise they lie 2.5 m apart
/// beside it; and the contacts between bodies read back after the last step.
fn pile_ms(k: usize, piled: bool, runs: usize) -> (f64, usize) {
    let defaults = sinew_default_world_def();
    let mut contacts = 0;
    let mut per_run: Vec<f64> = (0..runs)
        .map(|_| {
            let w = world(defaults.substeps, defaults.iterations, defaults.damping);
            let mut c = SinewColliderId::default();
            ok(unsafe { sinew_collider_create_plane(w, SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 0.0, 0.5, &mut c) });
            let mut def = sinew_default_cloth_grid_def();
            (def.columns, def.rows, def.spacing, def.pin_flags, def.plane) = (40, 40, 0.1, 0, SINEW_GRID_PLANE_XZ);
            def.transform.position = SinewVec3 { x: -2.0, y: 0.02, z: -2.0 };
            let mut body = SinewBodyId::default();
            ok(unsafe { sinew_cloth_create_grid(w, &def, &mut body) });
            let side = grid_side(k);
            for f in 0..k {
                let lying = sinew::Quat::from_rotation_y(f as f32 * 0.9)
                    * sinew::Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
                let at = if piled {
                    sinew::Vec3::new(0.0, 0.3 + 0.3 * f as f32, 0.9)
                } else {
                    sinew::Vec3::new(4.0 + 2.5 * (f % side) as f32, 0.3, 2.5 * (f / side) as f32)
                };
                // `at` is where the feet would stand: lying, they point along -Z of the turn.
                let root = SinewTransform { position: at.into(), rotation: lying.into() };
                ok(unsafe { sinew_ragdoll_create_humanoid(w, root, 1.8, &mut body) });
            }
            let start = Instant::now();
            for _ in 0..300 {
                ok(unsafe { sinew_world_step(w, DT) });
            }
            let ms = start.elapsed().as_secs_f64() * 1e3 / 300.0;
            let mut all = 0;
            ok(unsafe { sinew_world_read_contacts(w, std::ptr::null_mut(), 0, &mut all) });
            let mut read = vec![SinewContact::default(); all as usize];
            ok(unsafe { sinew_world_read_contacts(w, read.as_mut_ptr(), all, &mut all) });
            contacts = read.iter().filter(|c| c.other_body.index1 != 0).count();
            destroy(w);
            ms
        })
        .collect();
    per_run.sort_by(f64::total_cmp);
    (per_run[runs / 2], contacts)
}

fn pile_scene(k: usize, runs: usize) {
    let (apart, apart_contacts) = pile_ms(k, false, runs);
    let (piled, piled_contacts) = pile_ms(k, true, runs);
    println!(
        "\n### pile-{k}: {k} limp humanoids and a 40 x 40 cloth on the ground, the library's defaults (sleep off), mean over the first 5 s, 1 worker\n"
    );
    println!("| scene | ms/step | us per ragdoll | contacts between bodies at 5 s | cost vs apart |");
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| apart (2.5 m) beside the cloth | {apart:.3} | {:.1} | {apart_contacts} | 1.00x |",
        apart * 1e3 / k as f64
    );
    println!(
        "| piled on the cloth | {piled:.3} | {:.1} | {piled_contacts} | {:.2}x |",
        piled * 1e3 / k as f64,
        piled / apart
    );
}

/// The terrain's height at (x, z), metres.
fn terrain_height(x: f32, z: f32) -> f32 {
    0.3 * (x * 0.7).sin() * (z * 0.5).cos() + 0.1 * (x * 2.3 + z * 1.7).sin()
}

/// `n` points spread over the middle 40 m of the terrain, `r` above its
/// surface (a particle of radius `r` resting on it).
fn on_terrain(n: usize, r: f32) -> Vec<[f32; 3]> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..n)
        .map(|i| {
            let (x, z) =
                (-20.0 + 40.0 * (i % side) as f32 / side as f32, -20.0 + 40.0 * (i / side) as f32 / side as f32);
            [x, terrain_height(x, z) + r, z]
        })
        .collect()
}

/// A rolling terrain of 2 n^2 triangles over `size` metres: vertices and
/// indices.
fn terrain_mesh(n: u32, size: f32) -> (Vec<SinewVec3>, Vec<u32>) {
    let height = terrain_height;
    let step = size / n as f32;
    let mut v = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            let (x, z) = (c as f32 * step - size / 2.0, r as f32 * step - size / 2.0);
            v.push(SinewVec3 { x, y: height(x, z), z });
        }
    }
    let mut idx = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let k = r * (n + 1) + c;
            idx.extend([k, k + n + 1, k + 1, k + 1, k + n + 1, k + n + 2]);
        }
    }
    (v, idx)
}

fn mesh_collider(w: *mut SinewWorld, v: &[SinewVec3], idx: &[u32]) -> SinewColliderId {
    let mut def = sinew_default_collider_def();
    def.shape = SINEW_SHAPE_MESH;
    def.points = v.as_ptr();
    def.point_count = v.len() as u32;
    def.indices = idx.as_ptr();
    def.index_count = idx.len() as u32;
    let mut c = SinewColliderId::default();
    ok(unsafe { sinew_collider_create(w, &def, &mut c) });
    c
}

/// The textbook narrow phase: a particle against every triangle of the
/// mesh, closest point by projection and edges, pushed out when nearer than
/// its radius. Returns the pushes (so the work is not optimised away).
fn naive_mesh_pass(x: &mut [[f32; 3]], v: &[SinewVec3], idx: &[u32], r: f32) -> usize {
    use sinew::Vec3;
    let mut pushes = 0;
    for p in x.iter_mut() {
        let mut q = Vec3::from(*p);
        for t in idx.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|k| Vec3::new(v[k as usize].x, v[k as usize].y, v[k as usize].z));
            let n = (b - a).cross(c - a).normalize();
            let s = n.dot(q - a);
            let on = q - n * s;
            let inside = [(a, b), (b, c), (c, a)].iter().all(|&(e0, e1)| (e1 - e0).cross(on - e0).dot(n) >= 0.0);
            if inside && s.abs() < r {
                q += n * (r - s);
                pushes += 1;
            }
        }
        *p = q.into();
    }
    pushes
}

/// terrain-100k: a 100k-triangle mesh collider: BVH build time (the
/// collider's creation), and a 64 x 64 cloth with 20 ropes resting on it
/// against the same scene on a plane; particles resting on the mesh, each
/// particle-pass of a whole sinew step beside the naive narrow phase's
/// (every particle against every triangle).
fn terrain_scene(runs: usize) {
    let (v, idx) = terrain_mesh(224, 60.0); // 100,352 triangles
    let tris = idx.len() / 3;
    let mut build: Vec<f64> = (0..runs.max(3))
        .map(|_| {
            let w = world(8, 1, 0.01);
            let start = Instant::now();
            mesh_collider(w, &v, &idx);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            destroy(w);
            ms
        })
        .collect();
    build.sort_by(f64::total_cmp);
    let build_ms = build[build.len() / 2];

    // The same bodies over the mesh and over a plane at the terrain's mean.
    let scene = |mesh: bool| {
        let w = world(8, 1, 0.01);
        if mesh {
            mesh_collider(w, &v, &idx);
        } else {
            let mut c = SinewColliderId::default();
            ok(unsafe { sinew_collider_create_plane(w, SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 0.0, 0.5, &mut c) });
        }
        let mut grid = sinew_default_cloth_grid_def();
        grid.columns = 64;
        grid.rows = 64;
        grid.spacing = 0.05;
        grid.pin_flags = 0;
        grid.transform.position = SinewVec3 { x: -1.6, y: 1.0, z: -1.6 };
        grid.transform.rotation =
            SinewQuat { x: -std::f32::consts::FRAC_1_SQRT_2, y: 0.0, z: 0.0, w: std::f32::consts::FRAC_1_SQRT_2 };
        let mut cloth = SinewBodyId::default();
        ok(unsafe { sinew_cloth_create_grid(w, &grid, &mut cloth) });
        let mut particles = 64 * 64;
        for k in 0..20 {
            let links = 12u32;
            let pos: Vec<SinewVec3> = (0..links)
                .map(|i| SinewVec3 {
                    x: 3.0 + (k % 5) as f32 * 1.5 + i as f32 * 0.15,
                    y: 1.5,
                    z: -3.0 + (k / 5) as f32 * 1.5,
                })
                .collect();
            let mut rope = SinewBodyId::default();
            ok(unsafe { sinew_body_create_particles(w, pos.as_ptr(), std::ptr::null(), links, &mut rope) });
            let sticks: Vec<SinewDistanceConstraint> = (0..links - 1)
                .map(|i| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 })
                .collect();
            ok(unsafe { sinew_body_add_distance_constraints(w, rope, sticks.as_ptr(), sticks.len() as u32) });
            let caps: Vec<SinewCollisionStick> =
                (0..links - 1).map(|i| SinewCollisionStick { a: i, b: i + 1, radius: 0.03 }).collect();
            ok(unsafe { sinew_body_add_collision_sticks(w, rope, caps.as_ptr(), caps.len() as u32) });
            ok(unsafe { sinew_body_set_particle_radius(w, rope, 0.03) });
            particles += links as usize;
        }
        let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 90, runs, 20);
        destroy(w);
        (ms, particles)
    };
    let (mesh_ms, particles) = scene(true);
    let (plane_ms, _) = scene(false);

    // Like with like: particles resting on the mesh, each side's cost per
    // particle and pass, warmed, the median of `runs`. Sinew's is a whole
    // step over free particles (collision with its broad phase, and the
    // integration besides: an upper bound on its collision's cost); the
    // naive one is its narrow phase alone, over 64 of the same kind of
    // particles (its cost per particle does not depend on how many).
    let r = 0.02;
    let resting = on_terrain(1024, r);
    let w = world(8, 1, 0.01);
    mesh_collider(w, &v, &idx);
    let pos: Vec<SinewVec3> = resting.iter().map(|p| SinewVec3 { x: p[0], y: p[1], z: p[2] }).collect();
    let mut loose = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(w, pos.as_ptr(), std::ptr::null(), pos.len() as u32, &mut loose) });
    ok(unsafe { sinew_body_set_particle_radius(w, loose, r) });
    let passes = 8.0; // substeps x iterations of `world(8, 1, ..)`
    let step_ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 30, runs, 10);
    destroy(w);
    let sinew_us = step_ms * 1e3 / (resting.len() as f64 * passes);
    let sample: Vec<[f32; 3]> = on_terrain(64, r);
    let naive_ms = time(
        || {
            black_box(naive_mesh_pass(&mut sample.clone(), &v, &idx, r));
        },
        1,
        runs,
        1,
    );
    let naive_us = naive_ms * 1e3 / sample.len() as f64;

    println!("\n### terrain-100k: a {tris}-triangle mesh collider\n");
    println!("| measure | value |");
    println!("|---|---:|");
    println!("| BVH build (sinew_collider_create), ms (median of {}) | {build_ms:.1} |", build.len());
    println!("| cloth 64x64 + 20 ropes with sticks ({particles} particles) on the mesh, ms/step | {mesh_ms:.3} |");
    println!("| the same on a plane, ms/step | {plane_ms:.3} |");
    println!("| 1024 particles resting on the mesh: a whole step per particle-pass, us | {sinew_us:.4} |");
    println!("| naive narrow phase (every triangle) per particle-pass, us | {naive_us:.1} |");
    println!("| speed vs naive (medians of {runs}, both warmed) | {:.0}x |", naive_us / sinew_us);
}

/// A layer of 16,384 free particles (128 x 128, 5 cm apart) falling through
/// a field of 48 colliders (spheres, boxes and capsules on a 4 x 4 grid,
/// every one a candidate of the body) onto the plane: each substep tests
/// every particle against every shape. Timed at each SIMD level: the
/// collision pass tests a vector of particles against a shape's bound at a
/// time and only near ones exactly (collision/near.rs); the scalar level is
/// the textbook particle-by-shape loop. Bits are the same at every level.
fn collide_ms(level: u32, runs: usize) -> (f64, u32) {
    let w = world_on(8, 1, 0.01, level, 1);
    let mut c = SinewColliderId::default();
    let v = |x: f32, y: f32, z: f32| SinewVec3 { x, y, z };
    for i in 0..4 {
        for j in 0..4 {
            let (x, z) = (-4.5 + 3.0 * i as f32, -4.5 + 3.0 * j as f32);
            ok(unsafe { sinew_collider_create_sphere(w, v(x, 1.0, z), 0.6, 0.5, &mut c) });
            let at = SinewTransform { position: v(x + 1.0, 0.5, z + 1.0), rotation: sinew::Quat::IDENTITY.into() };
            ok(unsafe { sinew_collider_create_box(w, at, v(0.4, 0.4, 0.4), 0.5, &mut c) });
            ok(unsafe {
                sinew_collider_create_capsule(w, v(x - 0.8, 0.3, z + 1.0), v(x, 0.3, z + 1.8), 0.25, 0.5, &mut c)
            });
        }
    }
    let x: Vec<SinewVec3> =
        (0..128 * 128).map(|k| v(-3.2 + 0.05 * (k % 128) as f32, 2.5, -3.2 + 0.05 * (k / 128) as f32)).collect();
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(w, x.as_ptr(), std::ptr::null(), x.len() as u32, &mut body) });
    let steps = 120 / (runs + 2);
    let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 120 - runs * steps, runs, steps);
    let mut contacts = 0;
    ok(unsafe { sinew_world_read_contacts(w, std::ptr::null_mut(), 0, &mut contacts) });
    destroy(w);
    (ms, contacts)
}

fn collide_scene(runs: usize) {
    println!("\n### collide: 16,384 free particles through 48 shapes and a plane, 8 substeps\n");
    println!("| solver | ms/step | contacts at the end | speed vs scalar |");
    println!("|---|---:|---:|---:|");
    let (scalar, _) = collide_ms(SINEW_SIMD_SCALAR, runs);
    for level in SINEW_SIMD_SCALAR..=best_level() {
        let (ms, contacts) = collide_ms(level, runs);
        println!("| sinew, {}, 1 worker | {ms:.3} | {contacts} | {:.2}x |", level_name(level), scalar / ms);
    }
}

// ---- cloth a character wears (issue 32) -------------------------------------

/// Structural edges of a `cols x rows` grid (rest = spacing).
fn grid_edges(cols: usize, rows: usize, spacing: f32) -> Vec<Stick> {
    let mut e = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols {
                e.push((i, i + 1, spacing));
            }
            if r + 1 < rows {
                e.push((i, i + cols, spacing));
            }
        }
    }
    e
}

fn worst_edge(x: &[[f32; 3]], edges: &[Stick]) -> f64 {
    edges
        .iter()
        .map(|&(a, b, rest)| {
            let d = [x[b][0] - x[a][0], x[b][1] - x[a][1], x[b][2] - x[a][2]];
            f64::from(((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - rest).abs() / rest)
        })
        .fold(0.0, f64::max)
}

fn fastest(w: *mut SinewWorld, body: SinewBodyId, n: usize) -> f32 {
    let mut out = vec![SinewVec3::default(); n];
    let mut count = 0;
    ok(unsafe { sinew_body_read_velocities(w, body, out.as_mut_ptr(), n as u32, &mut count) });
    out.iter().map(|v| (v.x * v.x + v.y * v.y + v.z * v.z).sqrt()).fold(0.0, f32::max)
}

/// What a wear scene measured.
struct Wear {
    mean_ms: f64,
    worst_ms: f64,
    still_ms: f64,
    worst_edge: f64,
    speed: f32,
    /// Seconds from the end of the motion to sleep (None: never).
    asleep_after: Option<f32>,
}

/// Runs a wear scene: `motion(w, t)` drives it for `moving` seconds, then
/// it is left alone until `total`; the last second's steps are the "still"
/// timing. The world has the library's defaults (sleep on).
fn wear_run(
    grid: SinewClothGridDef,
    attach_top: bool,
    setup: impl FnOnce(*mut SinewWorld, SinewBodyId),
    mut motion: impl FnMut(*mut SinewWorld, SinewBodyId, f32),
    moving: f32,
    total: f32,
) -> Wear {
    let mut def = sinew_default_world_def();
    def.simd_level = SINEW_SIMD_AUTO;
    def.worker_count = 1;
    let mut w = std::ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut w) });
    let mut c = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(w, SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 0.0, 0.5, &mut c) });
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_cloth_create_grid(w, &grid, &mut body) });
    let n = (grid.columns * grid.rows) as usize;
    if attach_top {
        let top: Vec<u32> = (0..grid.columns).collect();
        let mut f = 0;
        ok(unsafe { sinew_body_attach_to_frame(w, body, top.as_ptr(), top.len() as u32, grid.transform, &mut f) });
    }
    setup(w, body);
    let steps = (total / DT).round() as usize;
    let moving_steps = (moving / DT).round() as usize;
    let (mut sum, mut worst, mut still) = (0.0, 0.0f64, Vec::new());
    let mut asleep_after = None;
    for s in 0..steps {
        if s < moving_steps {
            motion(w, body, s as f32 * DT);
        }
        let start = Instant::now();
        ok(unsafe { sinew_world_step(w, DT) });
        let ms = start.elapsed().as_secs_f64() * 1e3;
        sum += ms;
        worst = worst.max(ms);
        if s + 60 >= steps {
            still.push(ms);
        }
        let mut sleeping = 0;
        ok(unsafe { sinew_body_is_sleeping(w, body, &mut sleeping) });
        if sleeping == 1 && asleep_after.is_none() && s >= moving_steps {
            asleep_after = Some((s + 1 - moving_steps) as f32 * DT);
        } else if sleeping == 0 {
            asleep_after = None;
        }
    }
    still.sort_by(f64::total_cmp);
    let edges = grid_edges(grid.columns as usize, grid.rows as usize, grid.spacing);
    let r = Wear {
        mean_ms: sum / steps as f64,
        worst_ms: worst,
        still_ms: still[still.len() / 2],
        worst_edge: worst_edge(&read(w, body, n), &edges),
        speed: fastest(w, body, n),
        asleep_after,
    };
    destroy(w);
    r
}

fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn quat(q: sinew::Quat) -> SinewQuat {
    SinewQuat { x: q.x, y: q.y, z: q.z, w: q.w }
}

/// The apron: 16 x 19, 0.5 m wide, top row on a frame at 1 m, a leg capsule
/// behind it swinging +-60 degrees at 2 Hz for 3 s; 30 s in all.
fn apron(self_collision: bool) -> Wear {
    let mut g = sinew_default_cloth_grid_def();
    (g.columns, g.rows, g.spacing) = (16, 19, 0.5 / 15.0);
    g.transform.position = v3(-0.25, 1.0, 0.0);
    g.self_collision = self_collision as u32;
    let leg = std::cell::Cell::new(SinewColliderId::default());
    let hip = v3(0.0, 1.0, -0.12);
    let at = |angle: f32| {
        let r = sinew::Quat::from_rotation_x(-angle);
        let mid = sinew::Vec3::new(hip.x, hip.y, hip.z) + r * sinew::Vec3::new(0.0, -0.425, 0.0);
        SinewTransform { position: v3(mid.x, mid.y, mid.z), rotation: quat(r) }
    };
    wear_run(
        g,
        true,
        |w, _| {
            let mut c = SinewColliderId::default();
            ok(unsafe {
                sinew_collider_create_capsule(w, v3(0.0, 0.425, 0.0), v3(0.0, -0.425, 0.0), 0.07, 0.5, &mut c)
            });
            ok(unsafe { sinew_collider_set_transform(w, c, at(0.0)) });
            leg.set(c);
        },
        |w, _, t| {
            let angle = 60f32.to_radians() * (std::f32::consts::TAU * 2.0 * (t + DT)).sin();
            ok(unsafe { sinew_collider_set_transform(w, leg.get(), at(angle)) });
        },
        3.0,
        30.0,
    )
}

/// The strip: 10 x 100, 2 m long, hanging 0.5 m above the ground, dropped;
/// 12 s in all.
fn strip(self_collision: bool) -> Wear {
    let mut g = sinew_default_cloth_grid_def();
    (g.columns, g.rows, g.spacing) = (10, 100, 2.0 / 99.0);
    g.transform.position = v3(-0.1, 2.5, 0.0);
    g.pin_flags = 0;
    g.self_collision = self_collision as u32;
    wear_run(g, false, |_, _| {}, |_, _, _| {}, 0.0, 12.0)
}

/// The cape: 64 x 64, 1.5 m, top row on a frame that runs a circle of 2 m
/// radius at 2 m/s, turning with it, for 5 s; 12 s in all.
fn cape(self_collision: bool) -> Wear {
    let mut g = sinew_default_cloth_grid_def();
    (g.columns, g.rows, g.spacing) = (64, 64, 1.5 / 63.0);
    g.transform.position = v3(-0.75, 1.8, 2.0);
    g.self_collision = self_collision as u32;
    wear_run(
        g,
        true,
        |_, _| {},
        |w, body, t| {
            let a = (t + DT) * 1.0; // 2 m/s on a 2 m circle
            let r = sinew::Quat::from_rotation_y(a);
            let p = r * sinew::Vec3::new(-0.75, 1.8, 2.0);
            let f = SinewTransform { position: v3(p.x, p.y, p.z), rotation: quat(r) };
            ok(unsafe { sinew_body_set_frame(w, body, 0, f) });
        },
        5.0,
        12.0,
    )
}

/// The tablecloth: 32 x 32, 2 m, laid flat 0.4 m above a 1 x 0.8 x 1 m box
/// table standing on the ground, dropped; 15 s in all.
fn tablecloth(self_collision: bool) -> Wear {
    let mut g = sinew_default_cloth_grid_def();
    (g.columns, g.rows, g.spacing) = (32, 32, 2.0 / 31.0);
    g.transform.position = v3(-1.0, 1.2, -1.0);
    g.plane = SINEW_GRID_PLANE_XZ;
    g.pin_flags = 0;
    g.self_collision = self_collision as u32;
    let table = |w: *mut SinewWorld, _| {
        let mut c = SinewColliderId::default();
        let at = SinewTransform { position: v3(0.0, 0.4, 0.0), rotation: quat(sinew::Quat::IDENTITY) };
        ok(unsafe { sinew_collider_create_box(w, at, v3(0.5, 0.4, 0.5), 0.5, &mut c) });
    };
    wear_run(g, false, table, |_, _, _| {}, 0.0, 15.0)
}

/// The default 64 x 64, 1.5 m cloth hung by its two top corners; 10 s.
fn two_corners(self_collision: bool) -> Wear {
    let mut g = sinew_default_cloth_grid_def();
    (g.columns, g.rows, g.spacing) = (64, 64, 1.5 / 63.0);
    g.transform.position = v3(-0.75, 2.0, 0.0);
    g.pin_flags = SINEW_PIN_TOP_LEFT | SINEW_PIN_TOP_RIGHT;
    g.self_collision = self_collision as u32;
    wear_run(g, false, |_, _| {}, |_, _, _| {}, 0.0, 10.0)
}

fn wear_scene() {
    println!("\n### wear: cloth on a character, self-collision on and off (library defaults, sleep on)\n");
    println!(
        "| scene | self-collision | mean ms/step | worst ms/step | ms/step, last second | worst edge at the end | fastest particle, m/s | asleep after the motion, s |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    type Scene = fn(bool) -> Wear;
    let scenes: [(&str, Scene); 5] = [
        ("apron 16x19, leg swing", apron),
        ("strip 10x100, dropped", strip),
        ("cape 64x64, running", cape),
        ("tablecloth 32x32 on a box table", tablecloth),
        ("two corners 64x64, hanging", two_corners),
    ];
    // WEAR=apron (strip, cape, tablecloth, two) runs one scene.
    let only = std::env::var("WEAR").unwrap_or_default();
    for (name, scene) in scenes {
        if !name.starts_with(only.as_str()) {
            continue;
        }
        let mut means = [0.0; 2];
        for (k, on) in [false, true].into_iter().enumerate() {
            let r = scene(on);
            means[k] = r.mean_ms;
            let asleep = r.asleep_after.map_or("never".to_string(), |s| format!("{s:.2}"));
            println!(
                "| {name} | {} | {:.3} | {:.3} | {:.3} | {:.2} % | {:.3} | {asleep} |",
                if on { "on" } else { "off" },
                r.mean_ms,
                r.worst_ms,
                r.still_ms,
                r.worst_edge * 100.0,
                r.speed
            );
        }
        println!("| {name}: cost of self-collision | | {:.2}x | | | | | |", means[1] / means[0]);
    }
}

/// The positions of the many-bodies scene: a `side` x `side` grid 0.3 m
/// apart, 1 m above the ground (far enough apart that no two particles
/// meet, so the same particles as separate bodies or one body move alike).
fn debris_positions(side: usize) -> Vec<SinewVec3> {
    (0..side * side).map(|i| SinewVec3 { x: (i % side) as f32 * 0.3, y: 1.0, z: (i / side) as f32 * 0.3 }).collect()
}

/// ms per step of the particles of `debris_positions(side)` falling onto
/// the ground plane at y = 0 at the library's defaults (sleep off, 1
/// worker), as `side * side` one-particle bodies (`separate`) or one body:
/// the median of `runs` runs of 20 steps after 40 steps (they land at
/// about 0.45 s, so the timed steps are at rest on the plane).
fn debris_ms(side: usize, separate: bool, runs: usize) -> f64 {
    let defaults = sinew_default_world_def();
    let w = world(defaults.substeps, defaults.iterations, defaults.damping);
    let mut c = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(w, SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, 0.0, 0.5, &mut c) });
    let pos = debris_positions(side);
    let mut body = SinewBodyId::default();
    if separate {
        for p in &pos {
            ok(unsafe { sinew_body_create_particles(w, p, std::ptr::null(), 1, &mut body) });
        }
    } else {
        ok(unsafe { sinew_body_create_particles(w, pos.as_ptr(), std::ptr::null(), pos.len() as u32, &mut body) });
    }
    let ms = time(|| ok(unsafe { sinew_world_step(w, DT) }), 40, runs, 20);
    destroy(w);
    ms
}

fn debris_scene(side: usize, runs: usize) {
    let n = side * side;
    let one = debris_ms(side, false, runs);
    let many = debris_ms(side, true, runs);
    println!(
        "\n### debris-{n}: {n} particles 0.3 m apart falling onto a plane, as one body or as {n} one-particle bodies, the library's defaults (sleep off), 1 worker\n"
    );
    println!("| scene | ms/step | us per particle | cost vs one body |");
    println!("|---|---:|---:|---:|");
    println!("| one body of {n} particles | {one:.3} | {:.3} | 1.00x |", one * 1e3 / n as f64);
    println!("| {n} one-particle bodies | {many:.3} | {:.3} | {:.2}x |", many * 1e3 / n as f64, many / one);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let quick = args.iter().any(|a| a == "quick");
    // Scene names on the command line pick scenes (`cargo bench --bench scenes -- sticks ragdolls`).
    let named: Vec<&str> = args.iter().map(String::as_str).filter(|a| *a != "quick").collect();
    let want = |scene: &str| named.is_empty() || named.contains(&scene);
    println!("## sinew benchmarks\n\n{}", machine());
    let sizes: &[usize] = if quick { &[32, 64] } else { &[32, 64, 128, 256] };
    let runs = if quick { 3 } else { 7 };
    if want("sticks") {
        for &n in sizes {
            sticks_scene(n, runs);
        }
    }
    if want("cloth") {
        println!(
            "\n### cloth-N: sinew_cloth_create_grid at the library's defaults (sleep off), naive loop at the same passes\n"
        );
        println!("| scene | substeps x iterations | ms/step | structural stretch | naive ms/step | speed vs naive |");
        println!("|---|---|---:|---:|---:|---:|");
        for &n in sizes {
            cloth_scene(n as u32, runs);
        }
    }
    if want("bending") {
        bending_scene(if quick { 64 } else { 128 }, runs);
    }
    if want("readback") {
        readback_scene(128);
    }
    if want("ragdolls") {
        // Each run is 5 s of simulated time from a fresh world.
        ragdolls_scene(100, 3);
        if !quick {
            ragdolls_scene(1000, 1);
        }
    }
    if want("pile") {
        pile_scene(20, if quick { 1 } else { 3 });
    }
    if want("terrain") {
        terrain_scene(runs);
    }
    if want("collide") {
        collide_scene(runs);
    }
    if want("wear") {
        wear_scene();
    }
    if want("debris") {
        debris_scene(100, runs);
    }
}
