//! The C ABI under threads: worlds stepped on different threads are bit-exact
//! with one stepped alone; one world shared by four threads (a stepper, two
//! readers and a writer of targets); stress runs under a watchdog (six
//! threads stepping, reading, setting targets, creating and destroying on
//! one world for 0.5 s, 2 s with `SINEW_LONG_TESTS=1`; four worlds stepping
//! in parallel); and the panic boundary, where a panic poisons its world
//! and only its world.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or
//! points to a live local or array holding at least the count passed, or is
//! one of the deliberately bad pointers (NULL with a count, misaligned) that
//! the API checks and refuses before it reads or writes through it.

mod common;

use sinew::ffi::*;
use std::ffi::c_char;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

const DT: f32 = 1.0 / 60.0;
/// Cloth side, in particles.
const N: u32 = 10;

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn finite(p: &SinewVec3) -> bool {
    p.x.is_finite() && p.y.is_finite() && p.z.is_finite()
}

fn last_error() -> String {
    let len = unsafe { sinew_last_error_message(ptr::null_mut(), 0) };
    let mut buf = vec![0u8; len + 1];
    unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) };
    buf.truncate(len);
    String::from_utf8(buf).expect("UTF-8")
}

#[track_caller]
fn ok(code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_OK, "expected OK, got {code} ({:?})", last_error());
}

/// A world pointer that several threads may use: sinew's world handle is
/// internally locked (read calls share, write calls exclude).
struct Shared(*mut SinewWorld);

// SAFETY: every sinew call on a world takes the world's lock; the world is
// destroyed only after every thread using it has been joined.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    fn get(&self) -> *mut SinewWorld {
        self.0
    }
}

fn create_world() -> *mut SinewWorld {
    let mut world = ptr::null_mut();
    ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut world) });
    world
}

fn state_hash(world: *const SinewWorld) -> u64 {
    let mut hash = 0;
    ok(unsafe { sinew_world_state_hash(world, &mut hash) });
    hash
}

fn read_positions(world: *const SinewWorld, body: SinewBodyId) -> Vec<SinewVec3> {
    let mut out = vec![v(0.0, 0.0, 0.0); (N * N) as usize];
    let mut count = 0;
    ok(unsafe { sinew_body_read_positions(world, body, out.as_mut_ptr(), N * N, &mut count) });
    assert_eq!(count, N * N);
    out
}

/// An N x N cloth 2 m up with two pinned corners and stretch sticks, over a
/// sphere and a ground plane: gravity, sticks, collisions and friction all act.
fn build_cloth(world: *mut SinewWorld) -> SinewBodyId {
    let mut positions = Vec::new();
    let mut inv_masses = Vec::new();
    for j in 0..N {
        for i in 0..N {
            positions.push(v(i as f32 * 0.1, 2.0, j as f32 * 0.1));
            inv_masses.push(if j == 0 && (i == 0 || i == N - 1) { 0.0 } else { 1.0 });
        }
    }
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(world, positions.as_ptr(), inv_masses.as_ptr(), N * N, &mut body) });
    let mut sticks = Vec::new();
    for k in 0..N * N {
        if k % N + 1 < N {
            sticks.push(SinewDistanceConstraint { a: k, b: k + 1, rest_length: -1.0, compliance: 0.0 });
        }
        if k + N < N * N {
            sticks.push(SinewDistanceConstraint { a: k, b: k + N, rest_length: -1.0, compliance: 1e-6 });
        }
    }
    ok(unsafe { sinew_body_add_distance_constraints(world, body, sticks.as_ptr(), sticks.len() as u32) });
    ok(unsafe { sinew_body_set_particle_radius(world, body, 0.01) });
    let mut collider = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_sphere(world, v(0.45, 1.4, 0.6), 0.3, 0.4, &mut collider) });
    ok(unsafe { sinew_collider_create_plane(world, v(0.0, 1.0, 0.0), 0.0, 0.6, &mut collider) });
    body
}

/// Builds the cloth in a new world and steps it, moving a target on the far
/// corner each step; returns the state hash and the positions.
fn simulate(steps: u32, start: Option<&Barrier>) -> (u64, Vec<SinewVec3>) {
    let world = create_world();
    let body = build_cloth(world);
    if let Some(barrier) = start {
        barrier.wait();
    }
    for k in 0..steps {
        let a = k as f32 * 0.05;
        let target = SinewTarget {
            particle: N * N - 1,
            position: v(0.9 + 0.2 * a.cos(), 1.8, 0.9 + 0.2 * a.sin()),
            compliance: 1e-4,
            max_force: 30.0,
        };
        ok(unsafe { sinew_body_set_targets(world, body, &target, 1) });
        ok(unsafe { sinew_world_step(world, DT) });
    }
    let result = (state_hash(world), read_positions(world, body));
    unsafe { sinew_world_destroy(world) };
    result
}

fn bits(positions: &[SinewVec3]) -> Vec<[u32; 3]> {
    positions.iter().map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]).collect()
}

#[test]
fn worlds_stepped_on_two_threads_match_one_stepped_alone() {
    let steps = 120;
    let (alone, alone_positions) = simulate(steps, None);
    assert!(alone_positions.iter().all(finite));
    let (initial, _) = simulate(0, None);
    assert_ne!(alone, initial, "the cloth moved");

    let barrier = Barrier::new(2);
    let results: Vec<(u64, Vec<SinewVec3>)> = thread::scope(|s| {
        let handles: Vec<_> = (0..2).map(|_| s.spawn(|| simulate(steps, Some(&barrier)))).collect();
        handles.into_iter().map(|h| h.join().expect("stepping thread")).collect()
    });
    for (k, (hash, positions)) in results.iter().enumerate() {
        assert_eq!(*hash, alone, "thread {k}: state hash {hash:#018x}, alone {alone:#018x}");
        assert_eq!(bits(positions), bits(&alone_positions), "thread {k}: positions differ in their bits");
    }
}

/// A skeleton handle crossing threads (the handle is `Send` by the
/// API's contract: a skeleton is immutable and thread-safe).
#[derive(Clone, Copy)]
struct SharedSkeleton(*const SinewSkeleton);
// SAFETY: a skeleton never changes after creation; sinew.h lets any thread
// use it, from many calls at once.
unsafe impl Send for SharedSkeleton {}
unsafe impl Sync for SharedSkeleton {}

/// Four ragdolls of `skeleton` in a new world, stepped `steps` times; the
/// state hash. The world and its ragdolls end here.
fn crowd(skeleton: SharedSkeleton, steps: u32) -> u64 {
    let world = create_world();
    let mut ground = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(world, v(0.0, 1.0, 0.0), 0.0, 0.5, &mut ground) });
    for k in 0..4 {
        let at = SinewTransform {
            position: v(2.0 * k as f32, 0.3, 0.0),
            rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 },
        };
        let mut id = SinewBodyId::default();
        ok(unsafe { sinew_ragdoll_create_from_skeleton(world, skeleton.0, at, &mut id) });
    }
    for _ in 0..steps {
        ok(unsafe { sinew_world_step(world, DT) });
    }
    let hash = state_hash(world);
    unsafe { sinew_world_destroy(world) };
    hash
}

#[test]
fn one_skeleton_shared_by_worlds_on_four_threads() {
    let mut skeleton = ptr::null_mut();
    ok(unsafe { sinew_skeleton_create_humanoid(1.8, &mut skeleton) });
    let shared = SharedSkeleton(skeleton);
    let alone = crowd(shared, 30);
    let hashes: Vec<u64> = thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(move || crowd(shared, 30))).collect();
        handles.into_iter().map(|h| h.join().expect("crowd thread")).collect()
    });
    unsafe { sinew_skeleton_destroy(skeleton) };
    for (k, hash) in hashes.iter().enumerate() {
        assert_eq!(*hash, alone, "thread {k}: state hash {hash:#018x}, alone {alone:#018x}");
    }
}

/// Sets the flag when dropped, also when the owning thread panics.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

#[test]
fn one_world_shared_by_four_threads() {
    let world = Shared(create_world());
    let body = build_cloth(world.get());
    let done = AtomicBool::new(false);
    let started = Barrier::new(4);
    let rounds = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];

    thread::scope(|s| {
        // The stepper.
        s.spawn(|| {
            let _done = SetOnDrop(&done);
            started.wait();
            for _ in 0..200 {
                ok(unsafe { sinew_world_step(world.get(), DT) });
            }
        });
        // A reader of positions.
        s.spawn(|| {
            started.wait();
            let mut buf = vec![v(0.0, 0.0, 0.0); (N * N) as usize];
            while !done.load(Ordering::Acquire) {
                let mut count = 0;
                ok(unsafe { sinew_body_read_positions(world.get(), body, buf.as_mut_ptr(), N * N, &mut count) });
                assert_eq!(count, N * N);
                assert!(buf.iter().all(finite), "non-finite positions while stepping");
                rounds[0].fetch_add(1, Ordering::Relaxed);
                thread::yield_now();
            }
        });
        // A reader of the state hash.
        s.spawn(|| {
            started.wait();
            while !done.load(Ordering::Acquire) {
                let mut hash = 0;
                ok(unsafe { sinew_world_state_hash(world.get(), &mut hash) });
                rounds[1].fetch_add(1, Ordering::Relaxed);
                thread::yield_now();
            }
        });
        // A writer of targets: drags the far corner in a circle.
        s.spawn(|| {
            started.wait();
            let mut k = 0u32;
            while !done.load(Ordering::Acquire) {
                let a = k as f32 * 0.1;
                let target = SinewTarget {
                    particle: N * N - 1,
                    position: v(0.9 + 0.2 * a.cos(), 1.8, 0.9 + 0.2 * a.sin()),
                    compliance: 1e-4,
                    max_force: 30.0,
                };
                ok(unsafe { sinew_body_set_targets(world.get(), body, &target, 1) });
                k += 1;
                rounds[2].fetch_add(1, Ordering::Relaxed);
                thread::yield_now();
            }
        });
    });

    for (name, n) in ["read_positions", "state_hash", "set_targets"].iter().zip(&rounds) {
        assert!(n.load(Ordering::Relaxed) > 0, "the {name} thread never ran");
    }
    let positions = read_positions(world.get(), body);
    assert!(positions.iter().all(finite), "non-finite positions after the run");
    unsafe { sinew_world_destroy(world.get()) };
}

/// `code` must be POISONED, with a message naming `function`.
#[track_caller]
fn poisoned(function: &str, code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_POISONED, "{function} on a poisoned world returned {code}");
    let message = last_error();
    assert!(message.starts_with(&format!("{function}: ")), "{function}: last error message {message:?}");
}

#[test]
fn a_panic_poisons_its_world_and_only_its_world() {
    let world = create_world();
    let body = build_cloth(world);
    let mut collider = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_sphere(world, v(5.0, 0.0, 0.0), 0.5, 0.0, &mut collider) });
    let other = create_world();
    let other_body = build_cloth(other);
    ok(unsafe { sinew_world_step(world, DT) });
    ok(unsafe { sinew_world_step(other, DT) });
    let mut image_size = 0;
    ok(unsafe { sinew_world_snapshot(other, ptr::null_mut(), 0, &mut image_size) });
    let mut image = vec![0u8; image_size];
    ok(unsafe { sinew_world_snapshot(other, image.as_mut_ptr(), image.len(), &mut image_size) });

    assert_eq!(unsafe { testing::panic_inside_step(ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);

    // The panic (the hook prints it to stderr) is contained and reported.
    assert_eq!(unsafe { testing::panic_inside_step(world) }, SINEW_RESULT_PANIC);
    let message = last_error();
    assert!(
        message.starts_with("panic_inside_step: ") && message.contains("deliberate test panic"),
        "panic message {message:?}"
    );

    // Every call on the world is now POISONED and writes nothing.
    poisoned("sinew_world_step", unsafe { sinew_world_step(world, DT) });
    poisoned("panic_inside_step", unsafe { testing::panic_inside_step(world) });
    let mut buf = [v(7.0, 7.0, 7.0); 4];
    let mut count = 0xDEAD_BEEF;
    poisoned("sinew_body_read_positions", unsafe {
        sinew_body_read_positions(world, body, buf.as_mut_ptr(), 4, &mut count)
    });
    poisoned("sinew_body_read_positions", unsafe {
        sinew_body_read_positions(world, body, ptr::null_mut(), 0, &mut count)
    });
    poisoned("sinew_body_read_velocities", unsafe {
        sinew_body_read_velocities(world, body, buf.as_mut_ptr(), 4, &mut count)
    });
    assert_eq!((buf, count), ([v(7.0, 7.0, 7.0); 4], 0xDEAD_BEEF));
    let positions = [v(0.0, 1.0, 0.0)];
    let mut new_body = SinewBodyId { index1: 0xDEAD, generation: 0xBEEF };
    poisoned("sinew_body_create_particles", unsafe {
        sinew_body_create_particles(world, positions.as_ptr(), ptr::null(), 1, &mut new_body)
    });
    assert_eq!(new_body, SinewBodyId { index1: 0xDEAD, generation: 0xBEEF });
    poisoned("sinew_body_particle_count", unsafe { sinew_body_particle_count(world, body, &mut count) });
    assert_eq!(count, 0xDEAD_BEEF);
    let mut hash = 0xDEAD_BEEF;
    poisoned("sinew_world_state_hash", unsafe { sinew_world_state_hash(world, &mut hash) });
    assert_eq!(hash, 0xDEAD_BEEF);
    let mut size = 0xDEAD_BEEF;
    poisoned("sinew_world_snapshot", unsafe { sinew_world_snapshot(world, ptr::null_mut(), 0, &mut size) });
    assert_eq!(size, 0xDEAD_BEEF);
    let mut def = sinew_default_world_def();
    def.substeps = 77;
    poisoned("sinew_world_get_def", unsafe { sinew_world_get_def(world, &mut def) });
    assert_eq!(def.substeps, 77);
    poisoned("sinew_world_set_gravity", unsafe { sinew_world_set_gravity(world, v(0.0, -1.0, 0.0)) });
    poisoned("sinew_world_restore", unsafe { sinew_world_restore(world, image.as_ptr(), image.len()) });
    let target = SinewTarget { particle: 0, position: v(0.0, 2.0, 0.0), compliance: 0.0, max_force: 0.0 };
    poisoned("sinew_body_set_targets", unsafe { sinew_body_set_targets(world, body, &target, 1) });
    poisoned("sinew_body_clear_targets", unsafe { sinew_body_clear_targets(world, body) });
    poisoned("sinew_body_set_positions", unsafe { sinew_body_set_positions(world, body, 0, positions.as_ptr(), 1) });
    poisoned("sinew_body_move_particles", unsafe { sinew_body_move_particles(world, body, 0, positions.as_ptr(), 1) });
    poisoned("sinew_body_set_inv_masses", unsafe { sinew_body_set_inv_masses(world, body, 0, &1.0, 1) });
    poisoned("sinew_body_set_particle_radius", unsafe { sinew_body_set_particle_radius(world, body, 0.1) });
    poisoned("sinew_body_set_distance_method", unsafe { sinew_body_set_distance_method(world, body, 1) });
    let stick = SinewDistanceConstraint { a: 0, b: 5, rest_length: -1.0, compliance: 0.0 };
    poisoned("sinew_body_add_distance_constraints", unsafe {
        sinew_body_add_distance_constraints(world, body, &stick, 1)
    });
    poisoned("sinew_body_destroy", unsafe { sinew_body_destroy(world, body) });
    let mut new_collider = SinewColliderId { index1: 0xDEAD, generation: 0xBEEF };
    poisoned("sinew_collider_create_sphere", unsafe {
        sinew_collider_create_sphere(world, v(0.0, 0.0, 0.0), 1.0, 0.0, &mut new_collider)
    });
    assert_eq!(new_collider, SinewColliderId { index1: 0xDEAD, generation: 0xBEEF });
    let pose = SinewTransform { position: v(0.0, 0.0, 0.0), rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 } };
    poisoned("sinew_collider_set_transform", unsafe { sinew_collider_set_transform(world, collider, pose) });
    let mut got = SinewTransform { position: v(7.0, 7.0, 7.0), ..pose };
    poisoned("sinew_collider_get_transform", unsafe { sinew_collider_get_transform(world, collider, &mut got) });
    assert_eq!(got.position, v(7.0, 7.0, 7.0));
    poisoned("sinew_collider_destroy", unsafe { sinew_collider_destroy(world, collider) });
    assert_eq!(unsafe { sinew_body_is_valid(world, body) }, 0);
    assert_eq!(unsafe { sinew_collider_is_valid(world, collider) }, 0);

    // The other world is unaffected.
    let before = state_hash(other);
    ok(unsafe { sinew_world_step(other, DT) });
    assert_ne!(state_hash(other), before);
    assert_eq!(unsafe { sinew_body_is_valid(other, other_body) }, 1);
    assert!(read_positions(other, other_body).iter().all(finite));

    // A poisoned world is still destroyed.
    unsafe { sinew_world_destroy(world) };
    unsafe { sinew_world_destroy(other) };
}

// ---- stress --------------------------------------------------------------------

/// How long each stress test hammers its worlds: 2 s in a long run
/// (`SINEW_LONG_TESTS=1`, `.ci/run`), 0.5 s in a plain `cargo test`.
fn stress() -> Duration {
    if common::long_tests() { Duration::from_secs(2) } else { Duration::from_millis(500) }
}
/// A stress test still running after this has deadlocked.
const WATCHDOG: Duration = Duration::from_secs(120);

/// Runs `work` on its own thread and fails the test if it has not finished
/// within [`WATCHDOG`] (a deadlock); a panic in `work` fails it too.
fn with_watchdog<T: Send + 'static>(name: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let worker = thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let out = work();
            let _ = tx.send(());
            out
        })
        .expect("spawn");
    match rx.recv_timeout(WATCHDOG) {
        Ok(()) => worker.join().expect("the stress thread"),
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{name}: no progress after {WATCHDOG:?}: deadlock (the threads are left hanging)")
        }
    }
}

/// `code` must be OK or one of `allowed`, which the header documents for
/// the situation (a body destroyed by another thread: INVALID_ID).
#[track_caller]
fn ok_or(code: SinewResult, allowed: &[SinewResult], what: &str) {
    assert!(
        code == SINEW_RESULT_OK || allowed.contains(&code),
        "{what} returned {code} ({:?}) under threads",
        last_error()
    );
}

fn humanoid(world: *mut SinewWorld, x: f32) -> SinewBodyId {
    let root = SinewTransform { position: v(x, 0.0, 3.0), rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 } };
    let mut id = SinewBodyId::default();
    ok(unsafe { sinew_ragdoll_create_humanoid(world, root, 1.8, &mut id) });
    id
}

/// A rope of `n` particles with sticks, a collider and a joint to `anchor`:
/// what the creating thread makes and destroys again.
fn make_rope(world: *mut SinewWorld, anchor: SinewBodyId, k: u32) -> (SinewBodyId, SinewColliderId) {
    let n = 2 + k % 7;
    let positions: Vec<SinewVec3> = (0..n).map(|i| v(-2.0 + i as f32 * 0.1, 2.5, k as f32 % 3.0)).collect();
    let mut body = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(world, positions.as_ptr(), ptr::null(), n, &mut body) });
    let sticks: Vec<SinewDistanceConstraint> =
        (0..n - 1).map(|i| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
    ok(unsafe { sinew_body_add_distance_constraints(world, body, sticks.as_ptr(), n - 1) });
    let mut collider = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_sphere(world, v(-2.0, 1.0, 0.0), 0.2, 0.5, &mut collider) });
    let mut joint = SinewJointId::default();
    ok(unsafe { sinew_joint_create(world, body, 0, anchor, 0, -1.0, 0.0, &mut joint) });
    (body, collider)
}

/// Every body's particle count agrees with its readback, positions are
/// finite, and a snapshot restored into a fresh world hashes alike and steps
/// on alike.
fn check_consistent(world: *mut SinewWorld, bodies: &[SinewBodyId]) {
    for &b in bodies {
        if unsafe { sinew_body_is_valid(world, b) } == 0 {
            continue;
        }
        let mut n = 0;
        ok(unsafe { sinew_body_particle_count(world, b, &mut n) });
        let mut out = vec![v(f32::NAN, 0.0, 0.0); n as usize];
        let mut m = 0;
        ok(unsafe { sinew_body_read_positions(world, b, out.as_mut_ptr(), n, &mut m) });
        assert_eq!(m, n, "particle count and readback disagree");
        assert!(out.iter().all(finite), "non-finite positions after the stress");
    }
    let mut size = 0;
    ok(unsafe { sinew_world_snapshot(world, ptr::null_mut(), 0, &mut size) });
    let mut image = vec![0u8; size];
    ok(unsafe { sinew_world_snapshot(world, image.as_mut_ptr(), size, ptr::null_mut()) });
    let copy = create_world();
    ok(unsafe { sinew_world_restore(copy, image.as_ptr(), image.len()) });
    assert_eq!(state_hash(copy), state_hash(world), "the restored snapshot hashes differently");
    ok(unsafe { sinew_world_step(world, DT) });
    ok(unsafe { sinew_world_step(copy, DT) });
    assert_eq!(state_hash(copy), state_hash(world), "the restored snapshot steps on differently");
    unsafe { sinew_world_destroy(copy) };
}

#[test]
fn one_world_stressed_by_six_threads() {
    let counts = with_watchdog("stress-one-world", || {
        let world = Arc::new(Shared(create_world()));
        let cloth = build_cloth(world.get());
        let ragdoll = humanoid(world.get(), 2.0);
        // Bodies made by the creating thread, live or destroyed since.
        let made = Arc::new(Mutex::new(Vec::<SinewBodyId>::new()));
        let deadline = Instant::now() + stress();
        let start = Arc::new(Barrier::new(6));
        // Each thread's closure makes a few C calls and returns how many.
        let spawn = |name: &str, f: Box<dyn Fn(*mut SinewWorld, u64) -> u64 + Send>| {
            let (world, start) = (world.clone(), start.clone());
            let name = name.to_string();
            thread::spawn(move || {
                start.wait();
                let (mut rounds, mut calls) = (0u64, 0u64);
                while Instant::now() < deadline {
                    calls += f(world.get(), rounds);
                    rounds += 1;
                }
                (name, calls)
            })
        };
        let threads = vec![
            spawn(
                "step",
                Box::new(|w, _| {
                    ok(unsafe { sinew_world_step(w, DT) });
                    1
                }),
            ),
            spawn(
                "read",
                Box::new(move |w, k| {
                    let mut buf = vec![v(0.0, 0.0, 0.0); (N * N) as usize];
                    let mut n = 0;
                    ok(unsafe { sinew_body_read_positions(w, cloth, buf.as_mut_ptr(), N * N, &mut n) });
                    assert!(n == N * N && buf.iter().all(finite), "a torn or non-finite read");
                    let mut bones = [SinewTransform::default(); 17];
                    ok(unsafe { sinew_ragdoll_read_bones(w, ragdoll, bones.as_mut_ptr(), 17, ptr::null_mut()) });
                    if k % 8 == 0 {
                        let mut size = 0;
                        ok(unsafe { sinew_world_snapshot(w, ptr::null_mut(), 0, &mut size) });
                        state_hash(w);
                        return 4;
                    }
                    2
                }),
            ),
            spawn(
                "targets",
                Box::new(move |w, k| {
                    let a = k as f32 * 0.1;
                    let target = SinewTarget {
                        particle: N * N - 1,
                        position: v(0.9 + 0.2 * a.cos(), 1.8, 0.9 + 0.2 * a.sin()),
                        compliance: 1e-4,
                        max_force: 30.0,
                    };
                    ok(unsafe { sinew_body_set_targets(w, cloth, &target, 1) });
                    let mut pose = [SinewTransform::default(); 17];
                    ok(unsafe { sinew_ragdoll_read_bones(w, ragdoll, pose.as_mut_ptr(), 17, ptr::null_mut()) });
                    ok(unsafe { sinew_ragdoll_set_motor_targets(w, ragdoll, pose.as_ptr(), 17) });
                    ok(unsafe { sinew_ragdoll_set_motor_strength(w, ragdoll, (k % 11) as f32 / 10.0, 500.0) });
                    4
                }),
            ),
            spawn("create-destroy", {
                let made = made.clone();
                Box::new(move |w, k| {
                    let (body, collider) = make_rope(w, cloth, k as u32);
                    made.lock().unwrap().push(body);
                    // The rope made 8 calls ago goes (its joint with it), and the collider.
                    if k >= 8 {
                        let old = { made.lock().unwrap()[k as usize - 8] };
                        ok(unsafe { sinew_body_destroy(w, old) });
                    }
                    ok(unsafe { sinew_collider_destroy(w, collider) });
                    if k >= 8 { 6 } else { 5 }
                })
            }),
            spawn("stale-ids", {
                let made = made.clone();
                Box::new(move |w, k| {
                    let body = {
                        let made = made.lock().unwrap();
                        if made.is_empty() { cloth } else { made[(k as usize * 7919) % made.len()] }
                    };
                    let stale = &[SINEW_RESULT_INVALID_ID];
                    let mut buf = [v(0.0, 0.0, 0.0); (N * N) as usize];
                    let mut n = 0;
                    ok_or(
                        unsafe { sinew_body_read_positions(w, body, buf.as_mut_ptr(), N * N, &mut n) },
                        stale,
                        "read_positions of a rope",
                    );
                    let nudge = v(0.0, 1e-3, 0.0);
                    ok_or(unsafe { sinew_body_move_particles(w, body, 0, &nudge, 1) }, stale, "move_particles");
                    let mut count = 0;
                    ok_or(unsafe { sinew_body_particle_count(w, body, &mut count) }, stale, "particle_count");
                    3
                })
            }),
            spawn(
                "impulses",
                Box::new(move |w, k| {
                    let push = v(0.0, 0.5, (k % 5) as f32 * 0.1);
                    ok(unsafe { sinew_ragdoll_apply_impulse(w, ragdoll, (k % 17) as u32, v(2.0, 1.0, 3.0), push) });
                    let mut pushed = 0;
                    ok(unsafe { sinew_world_explode(w, v(0.0, 2.0, 0.0), 0.01, 0.5, &mut pushed) });
                    2
                }),
            ),
        ];
        let counts: Vec<(String, u64)> = threads.into_iter().map(|t| t.join().expect("a stress thread")).collect();
        let mut bodies = made.lock().unwrap().clone();
        bodies.extend([cloth, ragdoll]);
        check_consistent(world.get(), &bodies);
        let mut recoveries = 0;
        ok(unsafe { sinew_world_recovery_count(world.get(), &mut recoveries) });
        unsafe { sinew_world_destroy(world.get()) };
        counts
    });
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    println!("{total} C calls in {:?} on one world, by thread: {counts:?}", stress());
    for (name, n) in &counts {
        assert!(*n > 0, "the {name} thread never got a call in");
    }
}

/// The same script (build, step with moving targets, make and destroy
/// bodies) run on `k` worlds: deterministic, so every world ends alike.
fn script(world: *mut SinewWorld, steps: u32) -> u64 {
    let cloth = build_cloth(world);
    let ragdoll = humanoid(world, 2.0);
    let mut ropes = Vec::new();
    for k in 0..steps {
        let a = k as f32 * 0.05;
        let target = SinewTarget {
            particle: N * N - 1,
            position: v(0.9 + 0.2 * a.cos(), 1.8, 0.9 + 0.2 * a.sin()),
            compliance: 1e-4,
            max_force: 30.0,
        };
        ok(unsafe { sinew_body_set_targets(world, cloth, &target, 1) });
        if k % 10 == 0 {
            ropes.push(make_rope(world, ragdoll, k).0);
        }
        if k % 25 == 24 {
            ok(unsafe { sinew_body_destroy(world, ropes.remove(0)) });
        }
        ok(unsafe { sinew_world_step(world, DT) });
    }
    let mut recoveries = 0;
    ok(unsafe { sinew_world_recovery_count(world, &mut recoveries) });
    println!("script: {steps} steps, {recoveries} recoveries");
    state_hash(world)
}

#[test]
fn four_worlds_stepping_in_parallel_end_alike() {
    let (hashes, steps) = with_watchdog("stress-four-worlds", || {
        // Steps for about stress() of wall time, measured on one world first;
        // at most 400: the script's ropes pile up on the ragdoll, so later
        // steps cost many times the first 30 (2000 steps took 70-116 s on
        // two loaded cores, against a 120 s watchdog).
        let world = create_world();
        let t0 = Instant::now();
        let probe = script(world, 30);
        unsafe { sinew_world_destroy(world) };
        let per_step = t0.elapsed() / 30;
        let steps = (stress().as_secs_f64() / per_step.as_secs_f64().max(1e-6)).clamp(60.0, 400.0) as u32;
        let start = Arc::new(Barrier::new(4));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let start = start.clone();
                thread::spawn(move || {
                    let world = create_world();
                    start.wait();
                    let hash = script(world, steps);
                    let mut image = 0;
                    ok(unsafe { sinew_world_snapshot(world, ptr::null_mut(), 0, &mut image) });
                    unsafe { sinew_world_destroy(world) };
                    hash
                })
            })
            .collect();
        let hashes: Vec<u64> = threads.into_iter().map(|t| t.join().expect("a world's thread")).collect();
        let _ = probe;
        (hashes, steps)
    });
    println!("4 worlds x {steps} steps in parallel: {hashes:x?}");
    assert!(hashes.iter().all(|&h| h == hashes[0]), "worlds run alike on different threads differ: {hashes:x?}");
}

/// A panic inside a real step (the `test-hooks` feature arms it): the step
/// returns PANIC, the world is POISONED from then on, and a world stepping
/// on another thread meanwhile carries on, bit for bit as if nothing happened.
#[test]
fn a_panic_inside_a_step_poisons_only_its_world() {
    let steps = 30;
    let (alone, _) = simulate(steps, None);
    let world = create_world();
    build_cloth(world);
    ok(unsafe { sinew_world_step(world, DT) });
    let start = Barrier::new(2);
    let other = thread::scope(|s| {
        let other = s.spawn(|| simulate(steps, Some(&start)));
        start.wait();
        sinew::test_hooks::panic_in_next_step();
        assert_eq!(unsafe { sinew_world_step(world, DT) }, SINEW_RESULT_PANIC);
        let message = last_error();
        assert!(
            message.starts_with("sinew_world_step: ") && message.contains("deliberate test panic inside a step"),
            "{message:?}"
        );
        poisoned("sinew_world_step", unsafe { sinew_world_step(world, DT) });
        let mut hash = 0;
        poisoned("sinew_world_state_hash", unsafe { sinew_world_state_hash(world, &mut hash) });
        other.join().expect("the other world's thread")
    });
    assert_eq!(other.0, alone, "the other world stepped differently while this one panicked");
    unsafe { sinew_world_destroy(world) };
}
