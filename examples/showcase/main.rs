//! The README's first command: `cargo run --release --example showcase`.
//!
//! Runs a few scenes on the library's defaults through the C ABI and prints
//! what happens in each, with particle and constraint counts and the time per
//! step. (A rendering showcase with pictures replaces this text one later.)

use sinew::ffi::*;
use std::time::Instant;

fn ok(r: SinewResult) {
    assert_eq!(r, SINEW_RESULT_OK, "sinew call failed with code {r}");
}

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn read(world: *mut SinewWorld, body: SinewBodyId) -> Vec<SinewVec3> {
    let mut n = 0u32;
    unsafe {
        ok(sinew_body_read_positions(world, body, std::ptr::null_mut(), 0, &mut n));
        let mut out = vec![SinewVec3::default(); n as usize];
        ok(sinew_body_read_positions(world, body, out.as_mut_ptr(), n, &mut n));
        out
    }
}

/// Steps `seconds` at 60 Hz, calling `each` once per simulated second; returns ms per step.
fn run(world: *mut SinewWorld, seconds: u32, mut each: impl FnMut(u32)) -> f64 {
    let start = Instant::now();
    for frame in 1..=seconds * 60 {
        unsafe { ok(sinew_world_step(world, 1.0 / 60.0)) };
        if frame % 60 == 0 {
            each(frame / 60);
        }
    }
    start.elapsed().as_secs_f64() * 1000.0 / f64::from(seconds * 60)
}

fn new_world() -> *mut SinewWorld {
    let def = sinew_default_world_def();
    let mut world = std::ptr::null_mut();
    unsafe { ok(sinew_world_create(&def, &mut world)) };
    world
}

fn rope_over_ball() {
    println!("\n== rope: 30 particles pinned at one end fall onto a ball ==");
    let world = new_world();
    let pos: Vec<SinewVec3> = (0..30).map(|i| v(i as f32 * 0.1, 0.0, 0.0)).collect();
    let mut inv = [1.0f32; 30];
    inv[0] = 0.0;
    let mut rope = SinewBodyId::default();
    let sticks: Vec<SinewDistanceConstraint> =
        (0..29).map(|i| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
    let mut ball = SinewColliderId::default();
    unsafe {
        ok(sinew_body_create_particles(world, pos.as_ptr(), inv.as_ptr(), 30, &mut rope));
        ok(sinew_body_add_distance_constraints(world, rope, sticks.as_ptr(), 29));
        ok(sinew_body_set_particle_radius(world, rope, 0.02));
        ok(sinew_collider_create_sphere(world, v(1.0, -1.2, 0.0), 0.5, 0.5, &mut ball));
    }
    println!("30 particles, 29 sticks, 1 sphere collider");
    let ms = run(world, 4, |t| {
        let p = read(world, rope);
        let end = p[29];
        println!("  t = {t} s: free end at ({:+.2}, {:+.2}, {:+.2})", end.x, end.y, end.z);
    });
    println!("  {ms:.3} ms per step");
    unsafe { sinew_world_destroy(world) };
}

fn sheet_on_box() {
    let n = 40u32;
    println!("\n== sheet: a {n}x{n} net of sticks dropped onto a tilted box and the ground ==");
    let world = new_world();
    let pos: Vec<SinewVec3> =
        (0..n * n).map(|k| v((k % n) as f32 * 0.05 - 1.0, 1.5, (k / n) as f32 * 0.05 - 1.0)).collect();
    let id = |r: u32, c: u32| r * n + c;
    let mut sticks = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let mut add =
                |b| sticks.push(SinewDistanceConstraint { a: id(r, c), b, rest_length: -1.0, compliance: 0.0 });
            if c + 1 < n {
                add(id(r, c + 1));
            }
            if r + 1 < n {
                add(id(r + 1, c));
            }
            if r + 1 < n && c + 1 < n {
                add(id(r + 1, c + 1));
            }
        }
    }
    let mut sheet = SinewBodyId::default();
    let (mut ground, mut crate_) = (SinewColliderId::default(), SinewColliderId::default());
    let tilt = SinewQuat { x: 0.0, y: 0.0, z: 0.19509, w: 0.98079 };
    unsafe {
        ok(sinew_body_create_particles(world, pos.as_ptr(), std::ptr::null(), n * n, &mut sheet));
        ok(sinew_body_add_distance_constraints(world, sheet, sticks.as_ptr(), sticks.len() as u32));
        ok(sinew_body_set_particle_radius(world, sheet, 0.01));
        ok(sinew_collider_create_plane(world, v(0.0, 1.0, 0.0), 0.0, 0.6, &mut ground));
        let t = SinewTransform { position: v(0.0, 0.4, 0.0), rotation: tilt };
        ok(sinew_collider_create_box(world, t, v(0.5, 0.4, 0.5), 0.6, &mut crate_));
    }
    println!("{} particles, {} sticks, a plane and a box", n * n, sticks.len());
    let ms = run(world, 4, |t| {
        let p = read(world, sheet);
        let lowest = p.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let highest = p.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        println!("  t = {t} s: sheet spans y {lowest:+.3} .. {highest:+.3} (draped over the 0.8 m box)");
    });
    println!("  {ms:.3} ms per step");
    unsafe { sinew_world_destroy(world) };
}

fn dragged_chain() {
    println!("\n== chain dragged by its head: a hard target (IK by pinning) pulls 10 links around a circle ==");
    let world = new_world();
    let pos: Vec<SinewVec3> = (0..10).map(|i| v(0.0, 1.0, i as f32 * 0.2)).collect();
    let sticks: Vec<SinewDistanceConstraint> =
        (0..9).map(|i| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
    let mut chain = SinewBodyId::default();
    let mut ground = SinewColliderId::default();
    unsafe {
        ok(sinew_body_create_particles(world, pos.as_ptr(), std::ptr::null(), 10, &mut chain));
        ok(sinew_body_add_distance_constraints(world, chain, sticks.as_ptr(), 9));
        ok(sinew_collider_create_plane(world, v(0.0, 1.0, 0.0), 0.0, 0.8, &mut ground));
    }
    println!("10 particles, 9 sticks, 1 target, 1 plane");
    let start = Instant::now();
    for frame in 1..=240u32 {
        let a = frame as f32 / 60.0;
        let head = SinewTarget {
            particle: 0,
            position: v(a.cos() * 1.5, 0.5, a.sin() * 1.5),
            compliance: 0.0,
            max_force: 0.0,
        };
        unsafe {
            ok(sinew_body_set_targets(world, chain, &head, 1));
            ok(sinew_world_step(world, 1.0 / 60.0));
        }
        if frame % 60 == 0 {
            let p = read(world, chain);
            println!(
                "  t = {} s: head ({:+.2}, {:+.2}, {:+.2}), tail ({:+.2}, {:+.2}, {:+.2})",
                frame / 60,
                p[0].x,
                p[0].y,
                p[0].z,
                p[9].x,
                p[9].y,
                p[9].z
            );
        }
    }
    println!("  {:.3} ms per step", start.elapsed().as_secs_f64() * 1000.0 / 240.0);
    unsafe { sinew_world_destroy(world) };
}

fn main() {
    let def = sinew_default_world_def();
    println!(
        "sinew {}.{}.{} (ABI {}): defaults {} substeps x {} iterations at 60 Hz, gravity {:?}, damping {}",
        SINEW_VERSION_MAJOR,
        SINEW_VERSION_MINOR,
        SINEW_VERSION_PATCH,
        sinew_abi_version(),
        def.substeps,
        def.iterations,
        (def.gravity.x, def.gravity.y, def.gravity.z),
        def.damping
    );
    rope_over_ball();
    sheet_on_box();
    dragged_chain();
}
