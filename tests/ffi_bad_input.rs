//! Bad input for every exported function of `sinew::ffi`: NULL worlds and
//! pointers, NULL arrays with a count, null, stale and foreign ids, NaN and
//! +-inf in every float parameter and float field, out-of-range indices,
//! ranges and enum values, zero-initialised defs, zero quaternions, corrupt
//! snapshots.
//!
//! Every refused call is checked four ways ([`refused`]): (a) the documented
//! `SinewResult`, (b) no output written (outputs are pre-filled with sentinels;
//! only `out_count`/`out_size` of `BUFFER_TOO_SMALL` get the needed count),
//! (c) the world's state hash unchanged, (d) a `sinew_last_error_message` that
//! starts with the function's name.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or
//! points to a live local or array holding at least the count passed, or is
//! one of the deliberately bad pointers (NULL with a count, misaligned) that
//! the API checks and refuses before it reads or writes through it.

use sinew::ffi::*;
use std::ffi::{CStr, c_char};
use std::ptr;

const DT: f32 = 1.0 / 60.0;
/// NaN and the infinities, refused wherever a finite float is required.
const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

const BODY_SENTINEL: SinewBodyId = SinewBodyId { index1: 0xDEAD, generation: 0xBEEF };
const COLLIDER_SENTINEL: SinewColliderId = SinewColliderId { index1: 0xDEAD, generation: 0xBEEF };
const U32_SENTINEL: u32 = 0xDEAD_BEEF;
const U64_SENTINEL: u64 = 0xDEAD_BEEF_DEAD_BEEF;
const USIZE_SENTINEL: usize = 0xDEAD_BEEF;
const VEC_SENTINEL: SinewVec3 = SinewVec3 { x: 42.0, y: -42.0, z: 4242.0 };
const TRANSFORM_SENTINEL: SinewTransform =
    SinewTransform { position: VEC_SENTINEL, rotation: SinewQuat { x: 7.0, y: 7.0, z: 7.0, w: 7.0 } };
const IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
const ZERO_QUAT: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 };

type ReadFn = unsafe extern "C" fn(*const SinewWorld, SinewBodyId, *mut SinewVec3, u32, *mut u32) -> SinewResult;
type WriteVectorsFn = unsafe extern "C" fn(*mut SinewWorld, SinewBodyId, u32, *const SinewVec3, u32) -> SinewResult;

const READERS: [(&str, ReadFn); 2] = [
    ("sinew_body_read_positions", sinew_body_read_positions),
    ("sinew_body_read_velocities", sinew_body_read_velocities),
];
const VECTOR_WRITERS: [(&str, WriteVectorsFn); 4] = [
    ("sinew_body_set_positions", sinew_body_set_positions),
    ("sinew_body_move_particles", sinew_body_move_particles),
    ("sinew_body_set_velocities", sinew_body_set_velocities),
    ("sinew_body_apply_forces", sinew_body_apply_forces),
];

// ---- helpers ----------------------------------------------------------------

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// `base` with one component replaced, for each component and non-finite value.
fn non_finite_vectors(base: SinewVec3) -> Vec<SinewVec3> {
    let mut out = Vec::new();
    for bad in NON_FINITE {
        out.push(SinewVec3 { x: bad, ..base });
        out.push(SinewVec3 { y: bad, ..base });
        out.push(SinewVec3 { z: bad, ..base });
    }
    out
}

/// `base` with one component replaced, for each component and non-finite value.
fn non_finite_quats(base: SinewQuat) -> Vec<SinewQuat> {
    let mut out = Vec::new();
    for bad in NON_FINITE {
        out.push(SinewQuat { x: bad, ..base });
        out.push(SinewQuat { y: bad, ..base });
        out.push(SinewQuat { z: bad, ..base });
        out.push(SinewQuat { w: bad, ..base });
    }
    out
}

fn result_name(code: SinewResult) -> String {
    // SAFETY: sinew_result_name returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sinew_result_name(code)) }.to_str().expect("ASCII").to_owned()
}

/// The calling thread's last error message.
fn last_error() -> String {
    let len = unsafe { sinew_last_error_message(ptr::null_mut(), 0) };
    let mut buf = vec![0xAAu8; len + 1];
    assert_eq!(unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) }, len);
    assert_eq!(buf[len], 0, "the message is NUL-terminated");
    buf.truncate(len);
    String::from_utf8(buf).expect("the message is UTF-8")
}

/// Records a failure of a function other than `function`, so that a message
/// starting with `function` afterwards comes from the call under test.
fn prime_error(function: &str) {
    if function == "sinew_world_get_def" {
        assert_eq!(unsafe { sinew_world_state_hash(ptr::null(), ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);
    } else {
        assert_eq!(unsafe { sinew_world_get_def(ptr::null(), ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);
    }
    assert!(!last_error().starts_with(&format!("{function}: ")));
}

#[track_caller]
fn ok(code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_OK, "expected OK, got {} ({:?})", result_name(code), last_error());
}

fn state_hash(world: *const SinewWorld) -> u64 {
    let mut hash = 0;
    ok(unsafe { sinew_world_state_hash(world, &mut hash) });
    hash
}

/// Runs `call`, which must be refused with `expected`: checks the code, that
/// `world` (when not NULL; the world to watch, not necessarily the one
/// passed) kept its state hash, and the last error message. Outputs are
/// checked by the caller.
#[track_caller]
fn refused(world: *const SinewWorld, function: &str, expected: SinewResult, call: impl FnOnce() -> SinewResult) {
    prime_error(function);
    let before = (!world.is_null()).then(|| state_hash(world));
    let code = call();
    let message = last_error();
    assert_eq!(
        code,
        expected,
        "{function} returned {} instead of {} (message {message:?})",
        result_name(code),
        result_name(expected)
    );
    if let Some(before) = before {
        assert_eq!(state_hash(world), before, "{function} returned {} but changed the world", result_name(code));
    }
    assert!(
        message.starts_with(&format!("{function}: ")) && message.len() > function.len() + 2,
        "{function} returned {} with the last error message {message:?}",
        result_name(code)
    );
}

/// An accepted call that must change the state hash: shows that the hash
/// sees what the refused calls would have changed.
#[track_caller]
fn changes(world: &TestWorld, call: impl FnOnce() -> SinewResult) {
    let before = world.hash();
    ok(call());
    assert_ne!(world.hash(), before, "an accepted call left the state hash unchanged");
}

/// A collider `create` that must be refused and must not write its output.
#[track_caller]
fn create_collider_refused(
    world: *const SinewWorld,
    function: &str,
    expected: SinewResult,
    create: impl FnOnce(*mut SinewColliderId) -> SinewResult,
) {
    let mut out = COLLIDER_SENTINEL;
    refused(world, function, expected, || create(&mut out));
    assert_eq!(out, COLLIDER_SENTINEL, "{function} wrote out_collider although it failed");
}

/// A world destroyed on drop.
struct TestWorld(*mut SinewWorld);

impl TestWorld {
    fn new() -> Self {
        Self::with_def(&sinew_default_world_def())
    }

    fn with_def(def: &SinewWorldDef) -> Self {
        let mut world = ptr::null_mut();
        ok(unsafe { sinew_world_create(def, &mut world) });
        assert!(!world.is_null());
        TestWorld(world)
    }

    fn hash(&self) -> u64 {
        state_hash(self.0)
    }

    /// A body of `n` free particles in a row, 0.5 m apart, 1 m up.
    fn body(&self, n: u32) -> SinewBodyId {
        let positions: Vec<SinewVec3> = (0..n).map(|i| v(i as f32 * 0.5, 1.0, 0.0)).collect();
        let mut id = BODY_SENTINEL;
        ok(unsafe { sinew_body_create_particles(self.0, positions.as_ptr(), ptr::null(), n, &mut id) });
        assert_ne!(id, BODY_SENTINEL);
        id
    }

    fn sphere(&self, center: SinewVec3) -> SinewColliderId {
        let mut id = COLLIDER_SENTINEL;
        ok(unsafe { sinew_collider_create_sphere(self.0, center, 0.5, 0.3, &mut id) });
        assert_ne!(id, COLLIDER_SENTINEL);
        id
    }

    fn step(&self) {
        ok(unsafe { sinew_world_step(self.0, DT) });
    }

    fn positions(&self, body: SinewBodyId) -> Vec<SinewVec3> {
        let mut n = 0;
        ok(unsafe { sinew_body_read_positions(self.0, body, ptr::null_mut(), 0, &mut n) });
        let mut out = vec![VEC_SENTINEL; n as usize];
        ok(unsafe { sinew_body_read_positions(self.0, body, out.as_mut_ptr(), n, ptr::null_mut()) });
        out
    }

    fn snapshot(&self) -> Vec<u8> {
        let mut size = 0;
        ok(unsafe { sinew_world_snapshot(self.0, ptr::null_mut(), 0, &mut size) });
        let mut image = vec![0u8; size];
        ok(unsafe { sinew_world_snapshot(self.0, image.as_mut_ptr(), size, &mut size) });
        assert_eq!(size, image.len());
        image
    }
}

impl Drop for TestWorld {
    fn drop(&mut self) {
        unsafe { sinew_world_destroy(self.0) };
    }
}

/// A world with some of everything: two bodies (sticks, a target, a pin), a
/// plane and a sphere, stepped twice.
fn busy_world() -> (TestWorld, SinewBodyId) {
    let w = TestWorld::new();
    let b = w.body(4);
    w.body(2);
    let sticks: Vec<SinewDistanceConstraint> =
        (0..3).map(|i| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
    ok(unsafe { sinew_body_add_distance_constraints(w.0, b, sticks.as_ptr(), 3) });
    let target = SinewTarget { particle: 3, position: v(1.5, 1.2, 0.0), compliance: 1e-4, max_force: 100.0 };
    ok(unsafe { sinew_body_set_targets(w.0, b, &target, 1) });
    ok(unsafe { sinew_body_set_inv_masses(w.0, b, 0, [0.0f32].as_ptr(), 1) });
    let mut plane = COLLIDER_SENTINEL;
    ok(unsafe { sinew_collider_create_plane(w.0, v(0.0, 1.0, 0.0), 0.0, 0.5, &mut plane) });
    w.sphere(v(1.0, 0.0, 0.0));
    w.step();
    w.step();
    (w, b)
}

// ---- limits --------------------------------------------------------------------

/// Constraints a humanoid counts against `max_constraints` (its header docs
/// say so): bone clusters, joint limits, separations, bone capsules.
const HUMANOID_CONSTRAINTS: u32 = 236;
/// A default 3 x 3 cloth grid: stretch and shear sticks, bends, tethers.
const GRID_3X3_CONSTRAINTS: u32 = 32;
/// A default rigid body: a tetrahedron's 6 sticks and its cluster.
const RIGID_CONSTRAINTS: u32 = 7;

fn humanoid(world: *mut SinewWorld, out: &mut SinewBodyId) -> SinewResult {
    let root = SinewTransform { position: v(0.0, 0.0, 0.0), rotation: IDENTITY };
    unsafe { sinew_ragdoll_create_humanoid(world, root, 1.8, out) }
}

fn grid_3x3(world: *mut SinewWorld, out: &mut SinewBodyId) -> SinewResult {
    let def = SinewClothGridDef { columns: 3, rows: 3, ..sinew_default_cloth_grid_def() };
    unsafe { sinew_cloth_create_grid(world, &def, out) }
}

#[test]
fn max_constraints_counts_what_the_builders_make() {
    // A world capped at exactly the count takes the body; one less refuses it.
    let rigid = |world, out: &mut SinewBodyId| unsafe { sinew_rigid_create(world, &sinew_default_rigid_def(), out) };
    for (cap, name) in [
        (HUMANOID_CONSTRAINTS, "sinew_ragdoll_create_humanoid"),
        (GRID_3X3_CONSTRAINTS, "sinew_cloth_create_grid"),
        (RIGID_CONSTRAINTS, "sinew_rigid_create"),
    ] {
        let build = |world, out: &mut SinewBodyId| match name {
            "sinew_ragdoll_create_humanoid" => humanoid(world, out),
            "sinew_cloth_create_grid" => grid_3x3(world, out),
            _ => rigid(world, out),
        };
        let exact = TestWorld::with_def(&SinewWorldDef { max_constraints: cap, ..sinew_default_world_def() });
        let mut id = BODY_SENTINEL;
        ok(build(exact.0, &mut id));
        let short = TestWorld::with_def(&SinewWorldDef { max_constraints: cap - 1, ..sinew_default_world_def() });
        let mut id = BODY_SENTINEL;
        refused(short.0, name, SINEW_RESULT_LIMIT_EXCEEDED, || build(short.0, &mut id));
        assert_eq!(id, BODY_SENTINEL, "{name} wrote out_body although it failed");
    }
}

/// Regression: the largest grid the def allows (32768 x 32768, 2^30
/// vertices, some 100 GB built) was built in full before `max_particles`
/// turned it away; now it is refused up front.
#[test]
fn a_capped_world_refuses_a_huge_grid_before_building_it() {
    let t = TestWorld::with_def(&SinewWorldDef { max_particles: 1000, ..sinew_default_world_def() });
    let def = SinewClothGridDef { columns: 1 << 15, rows: 1 << 15, spacing: 1e-3, ..sinew_default_cloth_grid_def() };
    let mut id = BODY_SENTINEL;
    refused(t.0, "sinew_cloth_create_grid", SINEW_RESULT_LIMIT_EXCEEDED, || unsafe {
        sinew_cloth_create_grid(t.0, &def, &mut id)
    });
    assert_eq!(id, BODY_SENTINEL);
    let def = SinewClothGridDef { columns: 40, rows: 25, ..sinew_default_cloth_grid_def() };
    changes(&t, || unsafe { sinew_cloth_create_grid(t.0, &def, &mut id) });
}

#[test]
fn max_constraints_accepts_exactly_n_and_refuses_the_next() {
    const N: u32 = 10;
    let def = SinewWorldDef { max_constraints: N, ..sinew_default_world_def() };
    let t = TestWorld::with_def(&def);
    let p = t.0;
    let mut got = sinew_default_world_def();
    ok(unsafe { sinew_world_get_def(p, &mut got) });
    assert_eq!(got.max_constraints, N);
    let a = t.body(12);
    let b = t.body(2);
    let stick = |i: u32| SinewDistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 };
    let six: Vec<_> = (0..6).map(stick).collect();
    ok(unsafe { sinew_body_add_distance_constraints(p, a, six.as_ptr(), 6) });
    let capsules = [SinewCollisionStick { a: 0, b: 1, radius: 0.1 }, SinewCollisionStick { a: 1, b: 2, radius: 0.1 }];
    ok(unsafe { sinew_body_add_collision_sticks(p, a, capsules.as_ptr(), 2) });
    let mut joint = SinewJointId::default();
    ok(unsafe { sinew_joint_create(p, a, 11, b, 0, -1.0, 0.0, &mut joint) });
    // 9 of 10: two more are refused as a whole, one more is accepted.
    let two = [stick(7), stick(8)];
    refused(p, "sinew_body_add_distance_constraints", SINEW_RESULT_LIMIT_EXCEEDED, || unsafe {
        sinew_body_add_distance_constraints(p, a, two.as_ptr(), 2)
    });
    changes(&t, || unsafe { sinew_body_add_distance_constraints(p, a, two.as_ptr(), 1) });

    // At N: every kind of constraint is refused and nothing changes.
    let limit = SINEW_RESULT_LIMIT_EXCEEDED;
    refused(p, "sinew_body_add_distance_constraints", limit, || unsafe {
        sinew_body_add_distance_constraints(p, a, &stick(9), 1)
    });
    refused(p, "sinew_body_add_collision_sticks", limit, || unsafe {
        sinew_body_add_collision_sticks(p, a, capsules.as_ptr(), 1)
    });
    let mut j = SinewJointId { index1: 77, generation: 77 };
    refused(p, "sinew_joint_create", limit, || unsafe { sinew_joint_create(p, a, 0, b, 1, -1.0, 0.0, &mut j) });
    assert_eq!(j, SinewJointId { index1: 77, generation: 77 });
    let mut id = BODY_SENTINEL;
    refused(p, "sinew_cloth_create_grid", limit, || grid_3x3(p, &mut id));
    refused(p, "sinew_ragdoll_create_humanoid", limit, || humanoid(p, &mut id));
    let rigid = sinew_default_rigid_def();
    refused(p, "sinew_rigid_create", limit, || unsafe { sinew_rigid_create(p, &rigid, &mut id) });
    let bones = [sinew_default_bone_def(), SinewBoneDef { parent: 0, ..sinew_default_bone_def() }];
    let mut bones = bones;
    bones[0].length = 0.3;
    bones[1].rest.position = v(0.0, 0.3, 0.0);
    bones[1].length = 0.3;
    let ragdoll = SinewRagdollDef { bones: bones.as_ptr(), bone_count: 2, ..sinew_default_ragdoll_def() };
    refused(p, "sinew_ragdoll_create", limit, || unsafe { sinew_ragdoll_create(p, &ragdoll, &mut id) });
    let verts = [v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0), v(0.0, 1.0, 1.0)];
    let tri = [0u32, 1, 2];
    let mesh = SinewClothMeshDef {
        vertices: verts.as_ptr(),
        vertex_count: 3,
        indices: tri.as_ptr(),
        triangle_count: 1,
        ..sinew_default_cloth_mesh_def()
    };
    refused(p, "sinew_cloth_create", limit, || unsafe { sinew_cloth_create(p, &mesh, &mut id) });
    assert_eq!(id, BODY_SENTINEL, "a refused create wrote out_body");
    // Bodies without constraints are still welcome.
    t.body(3);

    // Destroying a joint frees its place; a snapshot keeps the cap.
    ok(unsafe { sinew_joint_destroy(p, joint) });
    let image = t.snapshot();
    let fresh = TestWorld::new();
    ok(unsafe { sinew_world_restore(fresh.0, image.as_ptr(), image.len()) });
    assert_eq!(fresh.hash(), t.hash());
    ok(unsafe { sinew_world_get_def(fresh.0, &mut got) });
    assert_eq!(got.max_constraints, N);
    for w in [&t, &fresh] {
        ok(unsafe { sinew_joint_create(w.0, a, 11, b, 0, -1.0, 0.0, &mut j) });
        refused(w.0, "sinew_joint_create", limit, || unsafe {
            sinew_joint_create(w.0, a, 10, b, 1, -1.0, 0.0, &mut j)
        });
    }
}

// ---- world --------------------------------------------------------------------

#[test]
fn world_create_refuses_bad_defs() {
    let default = sinew_default_world_def();
    assert_eq!(default.gravity, v(0.0, -9.81, 0.0));
    assert_eq!((default.damping, default.substeps, default.iterations), (0.01, 8, 1));
    assert_eq!((default.max_particles, default.max_bodies, default.max_colliders), (0, 0, 0));
    assert_eq!(default.max_constraints, 0, "no constraint cap by default");
    assert_ne!(default.internal_cookie, 0, "the default def carries a cookie");

    let watched = TestWorld::new();
    let world_sentinel = ptr::without_provenance_mut::<SinewWorld>(0xDEAD_0000);
    let create_refused = |def: *const SinewWorldDef, expected: SinewResult| {
        let mut out = world_sentinel;
        refused(watched.0, "sinew_world_create", expected, || unsafe { sinew_world_create(def, &mut out) });
        assert_eq!(out, world_sentinel, "sinew_world_create wrote out_world although it failed");
    };

    create_refused(ptr::null(), SINEW_RESULT_NULL_ARGUMENT);
    refused(watched.0, "sinew_world_create", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_create(&default, ptr::null_mut())
    });
    refused(watched.0, "sinew_world_create", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_create(ptr::null(), ptr::null_mut())
    });

    // A zero-initialised def, and a default one whose cookie was cleared or changed.
    // SAFETY: SinewWorldDef is plain old data; all zero is what C's `= {0}` gives.
    let zeroed: SinewWorldDef = unsafe { std::mem::zeroed() };
    create_refused(&zeroed, SINEW_RESULT_INVALID_ARGUMENT);
    create_refused(&SinewWorldDef { internal_cookie: 0, ..default }, SINEW_RESULT_INVALID_ARGUMENT);
    create_refused(
        &SinewWorldDef { internal_cookie: default.internal_cookie ^ 1, ..default },
        SINEW_RESULT_INVALID_ARGUMENT,
    );
    create_refused(&SinewWorldDef { internal_cookie: u32::MAX, ..default }, SINEW_RESULT_INVALID_ARGUMENT);

    let mut bad_defs = Vec::new();
    for gravity in non_finite_vectors(default.gravity) {
        bad_defs.push(SinewWorldDef { gravity, ..default });
    }
    for damping in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.01, 1.01, -f32::MIN_POSITIVE] {
        bad_defs.push(SinewWorldDef { damping, ..default });
    }
    for wind in non_finite_vectors(default.wind) {
        bad_defs.push(SinewWorldDef { wind, ..default });
    }
    for x in [f32::NAN, f32::INFINITY, -1.0] {
        bad_defs.push(SinewWorldDef { air_density: x, ..default });
        bad_defs.push(SinewWorldDef { sleep_speed: x, ..default });
        bad_defs.push(SinewWorldDef { sleep_time: x, ..default });
    }
    for n in [0, 1025, u32::MAX] {
        bad_defs.push(SinewWorldDef { substeps: n, ..default });
        bad_defs.push(SinewWorldDef { iterations: n, ..default });
    }
    for def in &bad_defs {
        create_refused(def, SINEW_RESULT_INVALID_ARGUMENT);
    }

    // The edges of the ranges are accepted, and get_def returns a def that
    // creates a world alike.
    for def in [
        SinewWorldDef { damping: 0.0, substeps: 1, iterations: 1024, ..default },
        SinewWorldDef { damping: 1.0, substeps: 1024, iterations: 1, max_bodies: 3, ..default },
    ] {
        let w = TestWorld::with_def(&def);
        let mut got = zeroed;
        ok(unsafe { sinew_world_get_def(w.0, &mut got) });
        assert_eq!(got, def);
        assert_eq!(TestWorld::with_def(&got).hash(), w.hash());
    }
}

#[test]
fn world_calls_refuse_bad_input() {
    let (w, _) = busy_world();
    let p = w.0;

    // sinew_world_step
    refused(p, "sinew_world_step", SINEW_RESULT_NULL_ARGUMENT, || unsafe { sinew_world_step(ptr::null_mut(), DT) });
    for dt in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -DT, -f32::MIN_POSITIVE, f32::MIN] {
        refused(p, "sinew_world_step", SINEW_RESULT_INVALID_ARGUMENT, || unsafe { sinew_world_step(p, dt) });
    }

    // sinew_world_set_gravity
    refused(p, "sinew_world_set_gravity", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_set_gravity(ptr::null_mut(), v(0.0, -1.0, 0.0))
    });
    for gravity in non_finite_vectors(v(0.0, -9.81, 0.0)) {
        refused(p, "sinew_world_set_gravity", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
            sinew_world_set_gravity(p, gravity)
        });
    }

    // sinew_world_shift_origin
    refused(p, "sinew_world_shift_origin", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_shift_origin(ptr::null_mut(), v(1.0, 0.0, 0.0))
    });
    for offset in non_finite_vectors(v(4.0, 0.0, -8.0)) {
        refused(p, "sinew_world_shift_origin", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
            sinew_world_shift_origin(p, offset)
        });
    }

    // sinew_world_get_def
    let def_sentinel = SinewWorldDef {
        gravity: VEC_SENTINEL,
        damping: 42.0,
        substeps: U32_SENTINEL,
        iterations: U32_SENTINEL,
        max_particles: U32_SENTINEL,
        max_bodies: U32_SENTINEL,
        max_colliders: U32_SENTINEL,
        wind: VEC_SENTINEL,
        air_density: 42.0,
        sleep_speed: 42.0,
        sleep_time: 42.0,
        max_constraints: U32_SENTINEL,
        simd_level: U32_SENTINEL,
        worker_count: U32_SENTINEL,
        enqueue_task: None,
        finish_task: None,
        user_task_context: ptr::null_mut(),
        internal_cookie: U32_SENTINEL,
    };
    let mut def = def_sentinel;
    refused(p, "sinew_world_get_def", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_get_def(ptr::null(), &mut def)
    });
    assert_eq!(def, def_sentinel, "sinew_world_get_def wrote out_def although it failed");
    refused(p, "sinew_world_get_def", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_get_def(p, ptr::null_mut())
    });

    // sinew_world_state_hash
    let mut hash = U64_SENTINEL;
    refused(p, "sinew_world_state_hash", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_state_hash(ptr::null(), &mut hash)
    });
    assert_eq!(hash, U64_SENTINEL, "sinew_world_state_hash wrote out_hash although it failed");
    refused(p, "sinew_world_state_hash", SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_state_hash(p, ptr::null_mut())
    });
    // A misaligned output is refused and not written.
    let mut raw = [U64_SENTINEL; 2];
    let misaligned = raw.as_mut_ptr().cast::<u8>().wrapping_add(1).cast::<u64>();
    refused(p, "sinew_world_state_hash", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
        sinew_world_state_hash(p, misaligned)
    });
    assert_eq!(raw, [U64_SENTINEL; 2]);

    // sinew_world_destroy(NULL) is a no-op that leaves the last error alone.
    prime_error("sinew_world_destroy");
    let message = last_error();
    unsafe { sinew_world_destroy(ptr::null_mut()) };
    assert_eq!(last_error(), message);

    // The hash sees what the refused calls would have changed.
    changes(&w, || unsafe { sinew_world_step(p, DT) });
    changes(&w, || unsafe { sinew_world_set_gravity(p, v(0.0, -1.0, 0.0)) });
}

/// Regression: a finite `dt` far from a frame time (<= ~1e-19 s with sticks:
/// `1 / h^2` overflows; >= ~1e20 s) used to return OK and leave NaN positions.
/// Either refusing such a `dt` (world unchanged) or staying finite passes.
#[test]
fn world_step_with_an_extreme_finite_dt_is_refused_or_stays_finite() {
    for dt in [f32::MIN_POSITIVE, 1e-20, 1e20, f32::MAX] {
        let (w, b) = busy_world();
        let before = w.hash();
        let code = unsafe { sinew_world_step(w.0, dt) };
        if code != SINEW_RESULT_OK {
            assert_eq!(code, SINEW_RESULT_INVALID_ARGUMENT, "dt {dt:e}");
            assert_eq!(w.hash(), before, "dt {dt:e} was refused but changed the world");
            continue;
        }
        w.step();
        let positions = w.positions(b);
        assert!(
            positions.iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite()),
            "dt {dt:e} was accepted and left non-finite positions: {positions:?}"
        );
        let image = w.snapshot();
        ok(unsafe { sinew_world_restore(w.0, image.as_ptr(), image.len()) });
    }
}

#[test]
fn world_restore_refuses_bad_images() {
    let (w, _) = busy_world();
    let p = w.0;
    let image = w.snapshot();
    w.step();
    let restore = "sinew_world_restore";

    refused(p, restore, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_restore(ptr::null_mut(), image.as_ptr(), image.len())
    });
    refused(p, restore, SINEW_RESULT_NULL_ARGUMENT, || unsafe { sinew_world_restore(p, ptr::null(), image.len()) });
    // NULL with size 0 is an empty image, and an empty image is not a snapshot.
    refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe { sinew_world_restore(p, ptr::null(), 0) });
    refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe { sinew_world_restore(p, image.as_ptr(), 0) });

    // Truncated images.
    for len in [1, 4, 23, 24, 25, image.len() / 2, image.len() - 4, image.len() - 1] {
        refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe { sinew_world_restore(p, image.as_ptr(), len) });
    }
    // Trailing bytes.
    let mut longer = image.clone();
    longer.push(0);
    refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe { sinew_world_restore(p, longer.as_ptr(), longer.len()) });
    // One flipped bit anywhere: magic, format version, length, checksum, payload.
    let step = (image.len() / 61).max(1);
    for at in (0..image.len()).step_by(step).chain([4, 8, 16, 24, image.len() - 1]) {
        for bit in [0x01u8, 0x80] {
            let mut corrupt = image.clone();
            corrupt[at] ^= bit;
            refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe {
                sinew_world_restore(p, corrupt.as_ptr(), corrupt.len())
            });
        }
    }
    // Another format version.
    let mut other_version = image.clone();
    let version = u32::from_le_bytes(image[4..8].try_into().unwrap());
    other_version[4..8].copy_from_slice(&(version + 1).to_le_bytes());
    refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe {
        sinew_world_restore(p, other_version.as_ptr(), other_version.len())
    });
    // Garbage of the right size.
    let garbage: Vec<u8> = (0..image.len()).map(|i| (i * 7 + 3) as u8).collect();
    refused(p, restore, SINEW_RESULT_INCOMPATIBLE, || unsafe {
        sinew_world_restore(p, garbage.as_ptr(), garbage.len())
    });

    // The intact image is accepted.
    changes(&w, || unsafe { sinew_world_restore(p, image.as_ptr(), image.len()) });
    assert_eq!(w.snapshot(), image);
}

// ---- bodies -----------------------------------------------------------------

#[test]
fn bodies_create_refuses_bad_input() {
    let (w, _) = busy_world();
    let p = w.0;
    let create = "sinew_body_create_particles";
    let positions = [v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0), v(2.0, 1.0, 0.0)];
    let inv_masses = [1.0f32, 0.0, 2.0];

    let create_refused =
        |world: *mut SinewWorld, pos: *const SinewVec3, inv: *const f32, count: u32, expected: SinewResult| {
            let mut out = BODY_SENTINEL;
            refused(p, create, expected, || unsafe { sinew_body_create_particles(world, pos, inv, count, &mut out) });
            assert_eq!(out, BODY_SENTINEL, "{create} wrote out_body although it failed");
        };

    create_refused(ptr::null_mut(), positions.as_ptr(), ptr::null(), 3, SINEW_RESULT_NULL_ARGUMENT);
    create_refused(p, ptr::null(), ptr::null(), 3, SINEW_RESULT_NULL_ARGUMENT);
    create_refused(p, ptr::null(), inv_masses.as_ptr(), 3, SINEW_RESULT_NULL_ARGUMENT);
    refused(p, create, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_body_create_particles(p, positions.as_ptr(), inv_masses.as_ptr(), 3, ptr::null_mut())
    });
    // Count 0, with and without arrays.
    create_refused(p, ptr::null(), ptr::null(), 0, SINEW_RESULT_INVALID_ARGUMENT);
    create_refused(p, positions.as_ptr(), inv_masses.as_ptr(), 0, SINEW_RESULT_INVALID_ARGUMENT);
    // A non-finite position in the middle: no body at all.
    for bad in non_finite_vectors(positions[1]) {
        let with_bad = [positions[0], bad, positions[2]];
        create_refused(p, with_bad.as_ptr(), ptr::null(), 3, SINEW_RESULT_INVALID_ARGUMENT);
        create_refused(p, with_bad.as_ptr(), inv_masses.as_ptr(), 3, SINEW_RESULT_INVALID_ARGUMENT);
    }
    // A negative, NaN or infinite inverse mass.
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -f32::MIN_POSITIVE] {
        let with_bad = [1.0, bad, 1.0];
        create_refused(p, positions.as_ptr(), with_bad.as_ptr(), 3, SINEW_RESULT_INVALID_ARGUMENT);
    }

    // Limits: max_bodies and max_particles.
    let limited = TestWorld::with_def(&SinewWorldDef { max_bodies: 1, ..sinew_default_world_def() });
    limited.body(2);
    let mut out = BODY_SENTINEL;
    refused(limited.0, create, SINEW_RESULT_LIMIT_EXCEEDED, || unsafe {
        sinew_body_create_particles(limited.0, positions.as_ptr(), ptr::null(), 1, &mut out)
    });
    assert_eq!(out, BODY_SENTINEL);
    let limited = TestWorld::with_def(&SinewWorldDef { max_particles: 4, ..sinew_default_world_def() });
    limited.body(3);
    refused(limited.0, create, SINEW_RESULT_LIMIT_EXCEEDED, || unsafe {
        sinew_body_create_particles(limited.0, positions.as_ptr(), ptr::null(), 2, &mut out)
    });
    assert_eq!(out, BODY_SENTINEL);
    limited.body(1);

    changes(&w, || unsafe { sinew_body_create_particles(p, positions.as_ptr(), inv_masses.as_ptr(), 3, &mut out) });
    assert_ne!(out, BODY_SENTINEL);
}

/// Every body call with `id`, which is not a live body of `w`: all refused
/// with `INVALID_ID`, nothing written, and `sinew_body_is_valid` says 0.
#[track_caller]
fn body_calls_refuse_id(w: &TestWorld, id: SinewBodyId) {
    let p = w.0;
    let invalid = SINEW_RESULT_INVALID_ID;
    assert_eq!(unsafe { sinew_body_is_valid(p, id) }, 0, "{id:?} is valid");
    refused(p, "sinew_body_destroy", invalid, || unsafe { sinew_body_destroy(p, id) });

    let mut count = U32_SENTINEL;
    refused(p, "sinew_body_particle_count", invalid, || unsafe { sinew_body_particle_count(p, id, &mut count) });
    assert_eq!(count, U32_SENTINEL);

    let add = "sinew_body_add_distance_constraints";
    let stick = SinewDistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 };
    refused(p, add, invalid, || unsafe { sinew_body_add_distance_constraints(p, id, &stick, 1) });
    refused(p, add, invalid, || unsafe { sinew_body_add_distance_constraints(p, id, ptr::null(), 0) });

    refused(p, "sinew_body_set_distance_method", invalid, || unsafe {
        sinew_body_set_distance_method(p, id, SINEW_DISTANCE_METHOD_SQRT_APPROX)
    });
    refused(p, "sinew_body_set_particle_radius", invalid, || unsafe { sinew_body_set_particle_radius(p, id, 0.1) });

    let target = SinewTarget { particle: 0, position: v(0.0, 2.0, 0.0), compliance: 0.0, max_force: 0.0 };
    refused(p, "sinew_body_set_targets", invalid, || unsafe { sinew_body_set_targets(p, id, &target, 1) });
    refused(p, "sinew_body_set_targets", invalid, || unsafe { sinew_body_set_targets(p, id, ptr::null(), 0) });
    refused(p, "sinew_body_clear_targets", invalid, || unsafe { sinew_body_clear_targets(p, id) });

    let one = v(0.0, 3.0, 0.0);
    for (name, write) in VECTOR_WRITERS {
        refused(p, name, invalid, || unsafe { write(p, id, 0, &one, 1) });
        refused(p, name, invalid, || unsafe { write(p, id, 0, ptr::null(), 0) });
    }
    refused(p, "sinew_body_set_inv_masses", invalid, || unsafe { sinew_body_set_inv_masses(p, id, 0, &0.5, 1) });
    refused(p, "sinew_body_set_inv_masses", invalid, || unsafe { sinew_body_set_inv_masses(p, id, 0, ptr::null(), 0) });
    let (home, there) = (
        SinewTransform { position: v(0.0, 0.0, 0.0), rotation: IDENTITY },
        SinewTransform { position: v(10.0, 0.0, 0.0), rotation: IDENTITY },
    );
    refused(p, "sinew_body_teleport", invalid, || unsafe {
        sinew_body_teleport(p, id, home, there, SINEW_TELEPORT_ZERO_VELOCITY)
    });

    for (name, read) in READERS {
        let mut buf = [VEC_SENTINEL; 8];
        let mut count = U32_SENTINEL;
        refused(p, name, invalid, || unsafe { read(p, id, buf.as_mut_ptr(), 8, &mut count) });
        assert_eq!((buf, count), ([VEC_SENTINEL; 8], U32_SENTINEL), "{name} wrote an output although it failed");
        refused(p, name, invalid, || unsafe { read(p, id, ptr::null_mut(), 0, &mut count) });
        assert_eq!(count, U32_SENTINEL, "{name} wrote out_count although it failed");
    }
}

#[test]
fn bodies_refuse_bad_ids() {
    let (a, a0) = busy_world();
    let b = TestWorld::new();
    let b0 = b.body(4);
    assert_eq!(a0.index1, b0.index1, "both worlds have a body in the first slot");

    // Stale: destroyed, its slot reused by a new body; destroyed, slot empty.
    let destroyed = a.body(3);
    ok(unsafe { sinew_body_destroy(a.0, destroyed) });
    let reused = a.body(3);
    assert_eq!(reused.index1, destroyed.index1, "the slot was reused");
    let emptied = a.body(2);
    ok(unsafe { sinew_body_destroy(a.0, emptied) });

    let collider = a.sphere(v(5.0, 0.0, 0.0));
    let bad_ids = [
        SinewBodyId { index1: 0, generation: 0 },
        destroyed,
        emptied,
        b0,
        // A collider id of the same world, taken for a body id.
        SinewBodyId { index1: collider.index1, generation: collider.generation },
        // Forged: right slot, wrong generation; no slot; huge slot.
        SinewBodyId { index1: a0.index1, generation: 0 },
        SinewBodyId { index1: a0.index1, generation: reused.generation },
        SinewBodyId { index1: 0, generation: a0.generation },
        SinewBodyId { index1: u32::MAX, generation: a0.generation },
        SinewBodyId { index1: 1000, generation: a0.generation },
    ];
    for id in bad_ids {
        body_calls_refuse_id(&a, id);
    }
    // Ids of world A are invalid in world B as well.
    for id in [a0, reused] {
        body_calls_refuse_id(&b, id);
    }
    // Destroying twice.
    refused(a.0, "sinew_body_destroy", SINEW_RESULT_INVALID_ID, || unsafe { sinew_body_destroy(a.0, destroyed) });

    // The live bodies were not disturbed.
    for (w, id, n) in [(&a, a0, 4), (&a, reused, 3), (&b, b0, 4)] {
        assert_eq!(unsafe { sinew_body_is_valid(w.0, id) }, 1);
        let mut count = 0;
        ok(unsafe { sinew_body_particle_count(w.0, id, &mut count) });
        assert_eq!(count, n);
    }
}

#[test]
fn bodies_refuse_bad_arguments() {
    let (w, b) = busy_world();
    let p = w.0;
    let null = ptr::null_mut::<SinewWorld>();
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    let add = "sinew_body_add_distance_constraints";
    let set_targets = "sinew_body_set_targets";
    let set_inv = "sinew_body_set_inv_masses";
    let stick = SinewDistanceConstraint { a: 0, b: 2, rest_length: 1.0, compliance: 0.0 };
    let target = SinewTarget { particle: 1, position: v(1.0, 2.0, 0.0), compliance: 1e-3, max_force: 50.0 };
    let one = v(0.0, 3.0, 0.0);

    // A NULL world, for every body call.
    assert_eq!(unsafe { sinew_body_is_valid(ptr::null(), b) }, 0);
    refused(p, "sinew_body_destroy", null_arg, || unsafe { sinew_body_destroy(null, b) });
    let mut count = U32_SENTINEL;
    refused(p, "sinew_body_particle_count", null_arg, || unsafe {
        sinew_body_particle_count(ptr::null(), b, &mut count)
    });
    assert_eq!(count, U32_SENTINEL);
    refused(p, add, null_arg, || unsafe { sinew_body_add_distance_constraints(null, b, &stick, 1) });
    refused(p, "sinew_body_set_distance_method", null_arg, || unsafe { sinew_body_set_distance_method(null, b, 1) });
    refused(p, "sinew_body_set_particle_radius", null_arg, || unsafe { sinew_body_set_particle_radius(null, b, 0.1) });
    refused(p, set_targets, null_arg, || unsafe { sinew_body_set_targets(null, b, &target, 1) });
    refused(p, "sinew_body_clear_targets", null_arg, || unsafe { sinew_body_clear_targets(null, b) });
    for (name, write) in VECTOR_WRITERS {
        refused(p, name, null_arg, || unsafe { write(null, b, 0, &one, 1) });
    }
    refused(p, set_inv, null_arg, || unsafe { sinew_body_set_inv_masses(null, b, 0, &0.5, 1) });
    let home = SinewTransform { position: v(0.0, 0.0, 0.0), rotation: IDENTITY };
    refused(p, "sinew_body_teleport", null_arg, || unsafe {
        sinew_body_teleport(null, b, home, home, SINEW_TELEPORT_KEEP_VELOCITY)
    });
    for (name, read) in READERS {
        let mut buf = [VEC_SENTINEL; 8];
        refused(p, name, null_arg, || unsafe { read(ptr::null(), b, buf.as_mut_ptr(), 8, &mut count) });
        assert_eq!((buf, count), ([VEC_SENTINEL; 8], U32_SENTINEL), "{name} wrote an output although it failed");
    }

    // NULL outputs and NULL arrays with a non-zero count.
    refused(p, "sinew_body_particle_count", null_arg, || unsafe { sinew_body_particle_count(p, b, ptr::null_mut()) });
    refused(p, add, null_arg, || unsafe { sinew_body_add_distance_constraints(p, b, ptr::null(), 1) });
    refused(p, set_targets, null_arg, || unsafe { sinew_body_set_targets(p, b, ptr::null(), 2) });
    for (name, write) in VECTOR_WRITERS {
        refused(p, name, null_arg, || unsafe { write(p, b, 0, ptr::null(), 1) });
    }
    refused(p, set_inv, null_arg, || unsafe { sinew_body_set_inv_masses(p, b, 0, ptr::null(), 1) });

    // sinew_body_add_distance_constraints: indices, a == b, rest length,
    // compliance; alone and after a good stick (which is not added either).
    let mut bad_sticks = vec![
        SinewDistanceConstraint { a: 4, ..stick },
        SinewDistanceConstraint { b: 4, ..stick },
        SinewDistanceConstraint { a: u32::MAX, ..stick },
        SinewDistanceConstraint { b: u32::MAX, ..stick },
        SinewDistanceConstraint { a: 1, b: 1, ..stick },
    ];
    for bad in NON_FINITE {
        bad_sticks.push(SinewDistanceConstraint { rest_length: bad, ..stick });
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -f32::MIN_POSITIVE] {
        bad_sticks.push(SinewDistanceConstraint { compliance: bad, ..stick });
    }
    for bad in bad_sticks {
        refused(p, add, invalid, || unsafe { sinew_body_add_distance_constraints(p, b, &bad, 1) });
        let pair = [stick, bad];
        refused(p, add, invalid, || unsafe { sinew_body_add_distance_constraints(p, b, pair.as_ptr(), 2) });
    }

    // sinew_body_set_distance_method: unknown methods.
    for method in [2, 3, 0x8000_0000, u32::MAX] {
        refused(p, "sinew_body_set_distance_method", invalid, || unsafe {
            sinew_body_set_distance_method(p, b, method)
        });
    }

    // sinew_body_set_particle_radius.
    for radius in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.1, -f32::MIN_POSITIVE] {
        refused(p, "sinew_body_set_particle_radius", invalid, || unsafe {
            sinew_body_set_particle_radius(p, b, radius)
        });
    }

    // sinew_body_set_targets: particle index, position, compliance, max_force;
    // alone and after a good target.
    let mut bad_targets = vec![
        SinewTarget { particle: 4, ..target },
        SinewTarget { particle: u32::MAX, ..target },
        SinewTarget { particle: 0x8000_0000, ..target },
    ];
    for position in non_finite_vectors(target.position) {
        bad_targets.push(SinewTarget { position, ..target });
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0] {
        bad_targets.push(SinewTarget { compliance: bad, ..target });
    }
    // +inf max_force means unlimited (accepted below).
    for bad in [f32::NAN, f32::NEG_INFINITY, -1.0] {
        bad_targets.push(SinewTarget { max_force: bad, ..target });
    }
    for bad in bad_targets {
        refused(p, set_targets, invalid, || unsafe { sinew_body_set_targets(p, b, &bad, 1) });
        let pair = [SinewTarget { particle: 2, ..target }, bad];
        refused(p, set_targets, invalid, || unsafe { sinew_body_set_targets(p, b, pair.as_ptr(), 2) });
    }

    // sinew_body_set_positions, _move_particles, _set_velocities,
    // _apply_forces: ranges (the body
    // has 4 particles; first + count overflows u32 for first = u32::MAX), then
    // non-finite values after a good one.
    let ranges = [(4, 1), (3, 2), (0, 5), (5, 0), (u32::MAX, 0), (u32::MAX, 1), (u32::MAX, 2), (u32::MAX - 1, 3)];
    for (name, write) in VECTOR_WRITERS {
        for (first, n) in ranges {
            let values = vec![v(0.1, 0.0, 0.0); n as usize];
            refused(p, name, invalid, || unsafe { write(p, b, first, values.as_ptr(), n) });
        }
        for bad in non_finite_vectors(v(0.1, 0.2, 0.3)) {
            let values = [v(0.1, 0.0, 0.0), bad];
            refused(p, name, invalid, || unsafe { write(p, b, 1, values.as_ptr(), 2) });
        }
    }

    // sinew_body_set_inv_masses: ranges, then bad values after a good one.
    for (first, n) in ranges {
        let values = vec![0.5f32; n as usize];
        refused(p, set_inv, invalid, || unsafe { sinew_body_set_inv_masses(p, b, first, values.as_ptr(), n) });
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -f32::MIN_POSITIVE] {
        let values = [0.5, bad];
        refused(p, set_inv, invalid, || unsafe { sinew_body_set_inv_masses(p, b, 1, values.as_ptr(), 2) });
    }

    // sinew_body_teleport: non-finite or zero rotations in either transform,
    // an unknown velocity mode, a destination beyond the coordinate range.
    let teleport = "sinew_body_teleport";
    let there = SinewTransform { position: v(10.0, 0.0, 0.0), rotation: IDENTITY };
    let mut bad_poses: Vec<SinewTransform> =
        non_finite_vectors(there.position).into_iter().map(|position| SinewTransform { position, ..there }).collect();
    let mut bad_rotations = non_finite_quats(IDENTITY);
    bad_rotations.push(ZERO_QUAT);
    bad_poses.extend(bad_rotations.into_iter().map(|rotation| SinewTransform { rotation, ..there }));
    for bad in bad_poses {
        refused(p, teleport, invalid, || unsafe {
            sinew_body_teleport(p, b, bad, there, SINEW_TELEPORT_KEEP_VELOCITY)
        });
        refused(p, teleport, invalid, || unsafe { sinew_body_teleport(p, b, home, bad, SINEW_TELEPORT_ZERO_VELOCITY) });
    }
    for mode in [2, 3, u32::MAX] {
        refused(p, teleport, invalid, || unsafe { sinew_body_teleport(p, b, home, there, mode) });
    }
    let far = SinewTransform { position: v(2e15, 0.0, 0.0), rotation: IDENTITY };
    refused(p, teleport, invalid, || unsafe { sinew_body_teleport(p, b, home, far, SINEW_TELEPORT_KEEP_VELOCITY) });

    // The hash sees every change these calls make when accepted.
    changes(&w, || unsafe { sinew_body_teleport(p, b, home, there, SINEW_TELEPORT_KEEP_VELOCITY) });
    changes(&w, || unsafe { sinew_body_teleport(p, b, there, home, SINEW_TELEPORT_ZERO_VELOCITY) });
    changes(&w, || unsafe { sinew_body_add_distance_constraints(p, b, &stick, 1) });
    changes(&w, || unsafe { sinew_body_set_distance_method(p, b, SINEW_DISTANCE_METHOD_SQRT_APPROX) });
    changes(&w, || unsafe { sinew_body_set_particle_radius(p, b, 0.05) });
    changes(&w, || unsafe { sinew_body_set_targets(p, b, &SinewTarget { max_force: f32::INFINITY, ..target }, 1) });
    changes(&w, || unsafe { sinew_body_clear_targets(p, b) });
    changes(&w, || unsafe { sinew_body_set_positions(p, b, 3, &one, 1) });
    changes(&w, || unsafe { sinew_body_move_particles(p, b, 3, &one, 1) });
    changes(&w, || unsafe { sinew_body_set_velocities(p, b, 2, &one, 1) });
    changes(&w, || unsafe { sinew_body_apply_forces(p, b, 1, &one, 1) });
    changes(&w, || unsafe { sinew_body_set_inv_masses(p, b, 3, &0.25, 1) });
    changes(&w, || unsafe { sinew_body_destroy(p, b) });
}

// ---- colliders ----------------------------------------------------------------

#[test]
fn colliders_create_refuses_bad_input() {
    let (w, _) = busy_world();
    let p = w.0;
    let null = ptr::null_mut::<SinewWorld>();
    let (null_arg, invalid) = (SINEW_RESULT_NULL_ARGUMENT, SINEW_RESULT_INVALID_ARGUMENT);
    let up = v(0.0, 1.0, 0.0);
    let center = v(0.0, 2.0, 0.0);
    let pose = SinewTransform { position: center, rotation: IDENTITY };
    let half = v(0.5, 0.25, 1.0);
    let bad_friction = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.5, -f32::MIN_POSITIVE];
    let bad_radius = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -1.0];

    // Plane.
    let name = "sinew_collider_create_plane";
    let plane = |world, normal, offset, friction, out| unsafe {
        sinew_collider_create_plane(world, normal, offset, friction, out)
    };
    create_collider_refused(p, name, null_arg, |out| plane(null, up, 0.0, 0.5, out));
    refused(p, name, null_arg, || plane(p, up, 0.0, 0.5, ptr::null_mut()));
    let mut bad_normals = non_finite_vectors(up);
    bad_normals.push(v(0.0, 0.0, 0.0));
    bad_normals.push(v(0.0, -0.0, 0.0));
    for normal in bad_normals {
        create_collider_refused(p, name, invalid, |out| plane(p, normal, 0.0, 0.5, out));
    }
    for offset in NON_FINITE {
        create_collider_refused(p, name, invalid, |out| plane(p, up, offset, 0.5, out));
    }
    for friction in bad_friction {
        create_collider_refused(p, name, invalid, |out| plane(p, up, 0.0, friction, out));
    }

    // Sphere.
    let name = "sinew_collider_create_sphere";
    let sphere = |world, center, radius, friction, out| unsafe {
        sinew_collider_create_sphere(world, center, radius, friction, out)
    };
    create_collider_refused(p, name, null_arg, |out| sphere(null, center, 0.5, 0.5, out));
    refused(p, name, null_arg, || sphere(p, center, 0.5, 0.5, ptr::null_mut()));
    for c in non_finite_vectors(center) {
        create_collider_refused(p, name, invalid, |out| sphere(p, c, 0.5, 0.5, out));
    }
    for radius in bad_radius {
        create_collider_refused(p, name, invalid, |out| sphere(p, center, radius, 0.5, out));
    }
    for friction in bad_friction {
        create_collider_refused(p, name, invalid, |out| sphere(p, center, 0.5, friction, out));
    }

    // Box.
    let name = "sinew_collider_create_box";
    let cuboid = |world, transform, half_extents, friction, out| unsafe {
        sinew_collider_create_box(world, transform, half_extents, friction, out)
    };
    create_collider_refused(p, name, null_arg, |out| cuboid(null, pose, half, 0.5, out));
    refused(p, name, null_arg, || cuboid(p, pose, half, 0.5, ptr::null_mut()));
    for position in non_finite_vectors(center) {
        create_collider_refused(p, name, invalid, |out| cuboid(p, SinewTransform { position, ..pose }, half, 0.5, out));
    }
    let mut bad_rotations = non_finite_quats(IDENTITY);
    bad_rotations.push(ZERO_QUAT);
    for rotation in bad_rotations {
        create_collider_refused(p, name, invalid, |out| cuboid(p, SinewTransform { rotation, ..pose }, half, 0.5, out));
    }
    let mut bad_halves = non_finite_vectors(half);
    for bad in [0.0, -0.0, -0.5] {
        bad_halves.extend([SinewVec3 { x: bad, ..half }, SinewVec3 { y: bad, ..half }, SinewVec3 { z: bad, ..half }]);
    }
    for h in bad_halves {
        create_collider_refused(p, name, invalid, |out| cuboid(p, pose, h, 0.5, out));
    }
    for friction in bad_friction {
        create_collider_refused(p, name, invalid, |out| cuboid(p, pose, half, friction, out));
    }

    // Capsule.
    let name = "sinew_collider_create_capsule";
    let capsule = |world, a, b, radius, friction, out| unsafe {
        sinew_collider_create_capsule(world, a, b, radius, friction, out)
    };
    let (ca, cb) = (v(-1.0, 1.0, 0.0), v(1.0, 1.0, 0.0));
    create_collider_refused(p, name, null_arg, |out| capsule(null, ca, cb, 0.2, 0.5, out));
    refused(p, name, null_arg, || capsule(p, ca, cb, 0.2, 0.5, ptr::null_mut()));
    for bad in non_finite_vectors(ca) {
        create_collider_refused(p, name, invalid, |out| capsule(p, bad, cb, 0.2, 0.5, out));
        create_collider_refused(p, name, invalid, |out| capsule(p, ca, bad, 0.2, 0.5, out));
    }
    // Ends at opposite infinities: a NaN midpoint.
    let (inf, ninf) = (v(f32::INFINITY, 0.0, 0.0), v(f32::NEG_INFINITY, 0.0, 0.0));
    create_collider_refused(p, name, invalid, |out| capsule(p, inf, ninf, 0.2, 0.5, out));
    for radius in bad_radius {
        create_collider_refused(p, name, invalid, |out| capsule(p, ca, cb, radius, 0.5, out));
    }
    for friction in bad_friction {
        create_collider_refused(p, name, invalid, |out| capsule(p, ca, cb, 0.2, friction, out));
    }

    // max_colliders, for every shape.
    let limited = TestWorld::with_def(&SinewWorldDef { max_colliders: 1, ..sinew_default_world_def() });
    let l = limited.0;
    limited.sphere(center);
    let limit = SINEW_RESULT_LIMIT_EXCEEDED;
    create_collider_refused(l, "sinew_collider_create_plane", limit, |out| plane(l, up, 0.0, 0.5, out));
    create_collider_refused(l, "sinew_collider_create_sphere", limit, |out| sphere(l, center, 0.5, 0.5, out));
    create_collider_refused(l, "sinew_collider_create_box", limit, |out| cuboid(l, pose, half, 0.5, out));
    create_collider_refused(l, "sinew_collider_create_capsule", limit, |out| capsule(l, ca, cb, 0.2, 0.5, out));

    // Good input is accepted.
    let mut out = COLLIDER_SENTINEL;
    changes(&w, || plane(p, v(0.0, 2.0, 0.0), -1.0, 0.0, &mut out));
    changes(&w, || sphere(p, center, 0.5, 0.0, &mut out));
    changes(&w, || {
        cuboid(p, SinewTransform { rotation: SinewQuat { w: 2.0, ..IDENTITY }, ..pose }, half, 1.0, &mut out)
    });
    changes(&w, || capsule(p, ca, ca, 0.2, 0.5, &mut out));
}

#[test]
fn colliders_refuse_bad_ids_and_transforms() {
    let (a, _) = busy_world();
    let b = TestWorld::new();
    let p = a.0;
    let a0 = a.sphere(v(3.0, 0.0, 0.0));
    let b0 = b.sphere(v(3.0, 0.0, 0.0));
    assert_eq!(b0.index1, 1, "b0 sits in a slot that is live in world a");
    let destroyed = a.sphere(v(4.0, 0.0, 0.0));
    ok(unsafe { sinew_collider_destroy(p, destroyed) });
    let reused = a.sphere(v(4.0, 0.0, 0.0));
    assert_eq!(reused.index1, destroyed.index1, "the slot was reused");
    let emptied = a.sphere(v(5.0, 0.0, 0.0));
    ok(unsafe { sinew_collider_destroy(p, emptied) });
    let body = a.body(2);
    let pose = SinewTransform { position: v(1.0, 2.0, 3.0), rotation: IDENTITY };

    // Bad ids, for every collider call.
    let bad_ids = [
        SinewColliderId { index1: 0, generation: 0 },
        destroyed,
        emptied,
        // A collider of another world, in the slot of busy_world's plane.
        b0,
        // A body id of the same world, taken for a collider id.
        SinewColliderId { index1: body.index1, generation: body.generation },
        SinewColliderId { index1: a0.index1, generation: 0 },
        SinewColliderId { index1: a0.index1, generation: reused.generation },
        SinewColliderId { index1: 0, generation: a0.generation },
        SinewColliderId { index1: u32::MAX, generation: a0.generation },
    ];
    for id in bad_ids {
        let invalid = SINEW_RESULT_INVALID_ID;
        assert_eq!(unsafe { sinew_collider_is_valid(p, id) }, 0, "{id:?} is valid");
        refused(p, "sinew_collider_set_transform", invalid, || unsafe { sinew_collider_set_transform(p, id, pose) });
        let mut out = TRANSFORM_SENTINEL;
        refused(p, "sinew_collider_get_transform", invalid, || unsafe {
            sinew_collider_get_transform(p, id, &mut out)
        });
        assert_eq!(out, TRANSFORM_SENTINEL, "sinew_collider_get_transform wrote out_transform although it failed");
        refused(p, "sinew_collider_destroy", invalid, || unsafe { sinew_collider_destroy(p, id) });
    }
    assert_eq!(unsafe { sinew_collider_is_valid(b.0, a0) }, 0);
    refused(b.0, "sinew_collider_destroy", SINEW_RESULT_INVALID_ID, || unsafe { sinew_collider_destroy(b.0, a0) });

    // A NULL world, a NULL output.
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    assert_eq!(unsafe { sinew_collider_is_valid(ptr::null(), a0) }, 0);
    refused(p, "sinew_collider_set_transform", null_arg, || unsafe {
        sinew_collider_set_transform(ptr::null_mut(), a0, pose)
    });
    let mut out = TRANSFORM_SENTINEL;
    refused(p, "sinew_collider_get_transform", null_arg, || unsafe {
        sinew_collider_get_transform(ptr::null(), a0, &mut out)
    });
    assert_eq!(out, TRANSFORM_SENTINEL);
    refused(p, "sinew_collider_get_transform", null_arg, || unsafe {
        sinew_collider_get_transform(p, a0, ptr::null_mut())
    });
    refused(p, "sinew_collider_destroy", null_arg, || unsafe { sinew_collider_destroy(ptr::null_mut(), a0) });

    // Bad transforms: non-finite position or rotation, zero rotation.
    let mut bad_poses: Vec<SinewTransform> =
        non_finite_vectors(pose.position).into_iter().map(|position| SinewTransform { position, ..pose }).collect();
    bad_poses.extend(non_finite_quats(IDENTITY).into_iter().map(|rotation| SinewTransform { rotation, ..pose }));
    bad_poses.push(SinewTransform { rotation: ZERO_QUAT, ..pose });
    bad_poses.push(SinewTransform { rotation: SinewQuat { w: -0.0, ..ZERO_QUAT }, ..pose });
    let mut before = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_collider_get_transform(p, a0, &mut before) });
    for bad in bad_poses {
        refused(p, "sinew_collider_set_transform", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
            sinew_collider_set_transform(p, a0, bad)
        });
    }
    let mut after = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_collider_get_transform(p, a0, &mut after) });
    assert_eq!(after, before);

    // Good input: the rotation comes back normalised; live ids are intact.
    let turned = SinewTransform { rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 2.0 }, ..pose };
    changes(&a, || unsafe { sinew_collider_set_transform(p, a0, turned) });
    ok(unsafe { sinew_collider_get_transform(p, a0, &mut after) });
    assert_eq!(after, pose);
    for (w, id) in [(&a, a0), (&a, reused), (&b, b0)] {
        assert_eq!(unsafe { sinew_collider_is_valid(w.0, id) }, 1);
    }
    changes(&a, || unsafe { sinew_collider_destroy(p, reused) });
}

// ---- readback protocol ----------------------------------------------------------

#[test]
fn readback_protocol_positions_and_velocities() {
    let (w, b) = busy_world();
    let p = w.0;
    let expected = w.positions(b);
    assert_eq!(expected.len(), 4);

    for (name, read) in READERS {
        // A count query, with and without out_count.
        let mut count = U32_SENTINEL;
        ok(unsafe { read(p, b, ptr::null_mut(), 0, &mut count) });
        assert_eq!(count, 4);
        ok(unsafe { read(p, b, ptr::null_mut(), 0, ptr::null_mut()) });

        // NULL out with a non-zero capacity.
        let mut count = U32_SENTINEL;
        refused(p, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe { read(p, b, ptr::null_mut(), 4, &mut count) });
        assert_eq!(count, U32_SENTINEL, "{name} wrote out_count although out was NULL");

        // Too small, including capacity 0 with a buffer: nothing copied, the
        // needed count stored.
        for capacity in [0, 1, 3] {
            let mut buf = [VEC_SENTINEL; 8];
            let mut count = U32_SENTINEL;
            refused(p, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
                read(p, b, buf.as_mut_ptr(), capacity, &mut count)
            });
            assert_eq!(count, 4, "{name} did not store the needed count");
            assert_eq!(buf, [VEC_SENTINEL; 8], "{name} wrote into a too small buffer");
            refused(p, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
                read(p, b, buf.as_mut_ptr(), capacity, ptr::null_mut())
            });
            assert_eq!(buf, [VEC_SENTINEL; 8], "{name} wrote into a too small buffer");
        }

        // A misaligned buffer is refused and not written.
        let mut raw = [U32_SENTINEL; 16];
        let misaligned = raw.as_mut_ptr().cast::<u8>().wrapping_add(1).cast::<SinewVec3>();
        let mut count = U32_SENTINEL;
        refused(p, name, SINEW_RESULT_INVALID_ARGUMENT, || unsafe { read(p, b, misaligned, 4, &mut count) });
        assert_eq!((raw, count), ([U32_SENTINEL; 16], U32_SENTINEL));

        // NULL world.
        let mut buf = [VEC_SENTINEL; 8];
        refused(p, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
            read(ptr::null(), b, buf.as_mut_ptr(), 8, &mut count)
        });
        assert_eq!((buf, count), ([VEC_SENTINEL; 8], U32_SENTINEL));

        // Exactly big enough, and bigger: the count is stored, nothing
        // past it is written.
        for capacity in [4, 8] {
            let mut buf = [VEC_SENTINEL; 8];
            let mut count = U32_SENTINEL;
            ok(unsafe { read(p, b, buf.as_mut_ptr(), capacity, &mut count) });
            assert_eq!(count, 4);
            assert!(buf[..4].iter().all(|q| q.x.is_finite() && q.y.is_finite() && q.z.is_finite()));
            assert!(buf[..4].iter().all(|&q| q != VEC_SENTINEL));
            assert_eq!(buf[4..], [VEC_SENTINEL; 4], "{name} wrote past the body's particles");
            if name == "sinew_body_read_positions" {
                assert_eq!(buf[..4], expected[..]);
            }
        }
    }
}

#[test]
fn readback_protocol_snapshot() {
    let (w, _) = busy_world();
    let p = w.0;
    let name = "sinew_world_snapshot";
    let image = w.snapshot();
    let n = image.len();

    // A size query, with and without out_size.
    let mut size = USIZE_SENTINEL;
    ok(unsafe { sinew_world_snapshot(p, ptr::null_mut(), 0, &mut size) });
    assert_eq!(size, n);
    ok(unsafe { sinew_world_snapshot(p, ptr::null_mut(), 0, ptr::null_mut()) });

    // NULL world; NULL buffer with a non-zero capacity.
    let mut size = USIZE_SENTINEL;
    refused(p, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_snapshot(ptr::null(), ptr::null_mut(), 0, &mut size)
    });
    assert_eq!(size, USIZE_SENTINEL);
    refused(p, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe { sinew_world_snapshot(p, ptr::null_mut(), n, &mut size) });
    assert_eq!(size, USIZE_SENTINEL, "{name} wrote out_size although the buffer was NULL");
    let mut buf = vec![0xA5u8; n + 16];
    refused(p, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_world_snapshot(ptr::null(), buf.as_mut_ptr(), buf.len(), &mut size)
    });
    assert_eq!(size, USIZE_SENTINEL);
    assert!(buf.iter().all(|&x| x == 0xA5));

    // Too small, including capacity 0 with a buffer: nothing written, the
    // needed size stored.
    for capacity in [0, 1, 24, n - 1] {
        let mut size = USIZE_SENTINEL;
        refused(p, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
            sinew_world_snapshot(p, buf.as_mut_ptr(), capacity, &mut size)
        });
        assert_eq!(size, n, "{name} did not store the needed size");
        refused(p, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
            sinew_world_snapshot(p, buf.as_mut_ptr(), capacity, ptr::null_mut())
        });
        assert!(buf.iter().all(|&x| x == 0xA5), "{name} wrote into a too small buffer");
    }

    // Big enough: exactly the image, nothing past it.
    let mut size = USIZE_SENTINEL;
    ok(unsafe { sinew_world_snapshot(p, buf.as_mut_ptr(), buf.len(), &mut size) });
    assert_eq!(size, n);
    assert_eq!(buf[..n], image[..]);
    assert!(buf[n..].iter().all(|&x| x == 0xA5), "{name} wrote past the image");
}

// ---- errors -------------------------------------------------------------------

#[test]
fn errors_version_and_result_names() {
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    let codes = [
        (SINEW_RESULT_OK, 0, "SINEW_RESULT_OK"),
        (SINEW_RESULT_NULL_ARGUMENT, 1, "SINEW_RESULT_NULL_ARGUMENT"),
        (SINEW_RESULT_INVALID_ID, 2, "SINEW_RESULT_INVALID_ID"),
        (SINEW_RESULT_INVALID_ARGUMENT, 3, "SINEW_RESULT_INVALID_ARGUMENT"),
        (SINEW_RESULT_BUFFER_TOO_SMALL, 4, "SINEW_RESULT_BUFFER_TOO_SMALL"),
        (SINEW_RESULT_WRONG_KIND, 5, "SINEW_RESULT_WRONG_KIND"),
        (SINEW_RESULT_WORLD_LOCKED, 6, "SINEW_RESULT_WORLD_LOCKED"),
        (SINEW_RESULT_POISONED, 7, "SINEW_RESULT_POISONED"),
        (SINEW_RESULT_PANIC, 8, "SINEW_RESULT_PANIC"),
        (SINEW_RESULT_LIMIT_EXCEEDED, 9, "SINEW_RESULT_LIMIT_EXCEEDED"),
        (SINEW_RESULT_INCOMPATIBLE, 10, "SINEW_RESULT_INCOMPATIBLE"),
    ];
    for (code, value, name) in codes {
        assert_eq!(code, value, "{name} was renumbered");
        assert_eq!(result_name(code), name);
    }
    for code in [-1, 11, 12, 100, i32::MIN, i32::MAX] {
        assert_eq!(result_name(code), "SINEW_RESULT_UNKNOWN");
    }
    // The same static string every time.
    assert_eq!(sinew_result_name(SINEW_RESULT_PANIC), sinew_result_name(SINEW_RESULT_PANIC));
}

#[test]
fn errors_last_error_message_snprintf() {
    // A fresh thread: no failure yet, so the message is empty.
    std::thread::spawn(|| {
        assert_eq!(unsafe { sinew_last_error_message(ptr::null_mut(), 0) }, 0);
        let mut buf = [0xAAu8; 4];
        assert_eq!(unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) }, 0);
        assert_eq!(buf, [0, 0xAA, 0xAA, 0xAA]);
    })
    .join()
    .unwrap();

    assert_eq!(unsafe { sinew_world_step(ptr::null_mut(), DT) }, SINEW_RESULT_NULL_ARGUMENT);
    let message = last_error();
    let bytes = message.as_bytes();
    let len = bytes.len();
    assert!(message.starts_with("sinew_world_step: ") && len > 20, "{message:?}");

    // NULL/0 is a length query; NULL with a capacity writes nothing.
    assert_eq!(unsafe { sinew_last_error_message(ptr::null_mut(), 0) }, len);
    assert_eq!(unsafe { sinew_last_error_message(ptr::null_mut(), 64) }, len);

    // Any capacity: the full length returned, capacity - 1 bytes and a NUL
    // written, nothing after.
    for capacity in [0, 1, 2, 5, len - 1, len, len + 1, len + 10] {
        let mut buf = vec![0xAAu8; len + 16];
        let got = unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), capacity) };
        assert_eq!(got, len, "capacity {capacity}");
        if capacity == 0 {
            assert!(buf.iter().all(|&x| x == 0xAA), "capacity 0 wrote something");
            continue;
        }
        let n = len.min(capacity - 1);
        assert_eq!(buf[..n], bytes[..n], "capacity {capacity}");
        assert_eq!(buf[n], 0, "capacity {capacity}: no NUL after {n} bytes");
        assert!(buf[n + 1..].iter().all(|&x| x == 0xAA), "capacity {capacity}: wrote past the NUL");
    }
}

#[test]
fn errors_last_error_message_is_thread_local_and_sticky() {
    let w = TestWorld::new();
    refused(w.0, "sinew_world_step", SINEW_RESULT_INVALID_ARGUMENT, || unsafe { sinew_world_step(w.0, f32::NAN) });
    let message = last_error();

    // Successful calls leave it alone.
    let b = w.body(3);
    w.step();
    w.hash();
    assert_eq!(unsafe { sinew_body_is_valid(w.0, b) }, 1);
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    sinew_result_name(SINEW_RESULT_OK);
    sinew_default_world_def();
    assert_eq!(last_error(), message);

    // Another thread's failures do not show here, nor ours there.
    std::thread::spawn(|| {
        assert_eq!(unsafe { sinew_last_error_message(ptr::null_mut(), 0) }, 0);
        let code = unsafe { sinew_body_set_particle_radius(ptr::null_mut(), SinewBodyId::default(), 0.1) };
        assert_eq!(code, SINEW_RESULT_NULL_ARGUMENT);
        assert!(last_error().starts_with("sinew_body_set_particle_radius: "));
    })
    .join()
    .unwrap();
    assert_eq!(last_error(), message);

    // The next failure replaces it.
    let mut id = BODY_SENTINEL;
    refused(w.0, "sinew_body_create_particles", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
        sinew_body_create_particles(w.0, ptr::null(), ptr::null(), 0, &mut id)
    });
    assert_ne!(last_error(), message);
}

/// Regression: a refused `dt` gave "must be finite and > 0" without the
/// header's range, and printed 2 as "2e0".
#[test]
fn a_refused_dt_names_the_range_in_plain_numbers() {
    let w = TestWorld::new();
    for (dt, got) in [(0.0, "got 0"), (2.0, "got 2"), (f32::NAN, "got NaN"), (1e-7, "got 0.0000001")] {
        refused(w.0, "sinew_world_step", SINEW_RESULT_INVALID_ARGUMENT, || unsafe { sinew_world_step(w.0, dt) });
        let message = last_error();
        assert!(message.contains("dt must be in [0.000001, 1] seconds") && message.ends_with(got), "{message:?}");
    }
}

/// `plane` of the grid def: XY (the default) hangs a curtain, XZ lays the
/// same grid flat, rows along +Z and facing +Y; any other value is refused.
#[test]
fn cloth_grid_plane_lays_the_grid_flat_or_is_refused() {
    let w = TestWorld::new();
    let corner = v(1.0, 2.0, 3.0);
    let grid = |plane| SinewClothGridDef {
        columns: 3,
        rows: 4,
        spacing: 0.5,
        pin_flags: 0,
        plane,
        transform: SinewTransform { position: corner, rotation: IDENTITY },
        ..sinew_default_cloth_grid_def()
    };
    assert_eq!(sinew_default_cloth_grid_def().plane, SINEW_GRID_PLANE_XY);
    let read = |body| {
        let mut out = vec![v(0.0, 0.0, 0.0); 12];
        let mut n = 0;
        ok(unsafe { sinew_body_read_positions(w.0, body, out.as_mut_ptr(), 12, &mut n) });
        assert_eq!(n, 12);
        out
    };
    let normals = |body| {
        let mut out = vec![v(0.0, 0.0, 0.0); 12];
        let mut n = 0;
        ok(unsafe { sinew_cloth_read_normals(w.0, body, out.as_mut_ptr(), 12, &mut n) });
        out
    };
    for (plane, row_step, facing) in [
        (SINEW_GRID_PLANE_XY, v(0.0, -0.5, 0.0), v(0.0, 0.0, 1.0)),
        (SINEW_GRID_PLANE_XZ, v(0.0, 0.0, 0.5), v(0.0, 1.0, 0.0)),
    ] {
        let mut body = BODY_SENTINEL;
        ok(unsafe { sinew_cloth_create_grid(w.0, &grid(plane), &mut body) });
        for (i, (p, n)) in read(body).iter().zip(normals(body)).enumerate() {
            let (r, c) = ((i / 3) as f32, (i % 3) as f32);
            let want = v(corner.x + 0.5 * c + r * row_step.x, corner.y + r * row_step.y, corner.z + r * row_step.z);
            let off = ((p.x - want.x).powi(2) + (p.y - want.y).powi(2) + (p.z - want.z).powi(2)).sqrt();
            assert!(off < 1e-6, "plane {plane}: particle {i} at {p:?}, expected {want:?}"); // 0; 4 ulp at 3 m
            let facing_error = (n.x - facing.x).abs() + (n.y - facing.y).abs() + (n.z - facing.z).abs();
            assert!(facing_error < 5e-7, "plane {plane}: normal {n:?}, expected {facing:?}"); // measured 0
        }
    }
    let mut id = BODY_SENTINEL;
    refused(w.0, "sinew_cloth_create_grid", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
        sinew_cloth_create_grid(w.0, &grid(2), &mut id)
    });
    assert!(last_error().contains("plane 2 is not a SINEW_GRID_PLANE_* value"), "{}", last_error());
    assert_eq!(id, BODY_SENTINEL);
}

/// Issue 29: `sinew_body_set_material` made a reference from `material`
/// before it checked its alignment (undefined behaviour even when refused).
/// Now a misaligned material is refused before it is read, and the body
/// keeps the material it had.
#[test]
fn a_misaligned_material_is_refused_before_it_is_read() {
    let w = TestWorld::new();
    let body = w.body(2);
    let good = SinewMaterial { friction: 0.7, dynamic_friction: 0.5, restitution: 0.1, combine: 0 };
    changes(&w, || unsafe { sinew_body_set_material(w.0, body, &good) });
    // Four materials' worth of bytes, the second copy starting one byte in.
    let mut raw = [0u32; 12];
    let misaligned = raw.as_mut_ptr().cast::<u8>().wrapping_add(1).cast::<SinewMaterial>();
    // SAFETY: `raw` holds 48 bytes, the material 16 from byte 1.
    unsafe { misaligned.write_unaligned(SinewMaterial { friction: 0.2, ..good }) };
    refused(w.0, "sinew_body_set_material", SINEW_RESULT_INVALID_ARGUMENT, || unsafe {
        sinew_body_set_material(w.0, body, misaligned)
    });
    assert!(last_error().contains("not aligned"), "{}", last_error());
}

#[test]
fn ignored_bones_refuse_bad_input_and_change_nothing() {
    let (w, body) = busy_world();
    let p = w.0;
    let name = "sinew_body_set_ignored_bones";
    let mut doll = BODY_SENTINEL;
    ok(humanoid(p, &mut doll));
    let mut gone = BODY_SENTINEL;
    ok(humanoid(p, &mut gone));
    ok(unsafe { sinew_body_destroy(p, gone) });
    let other = TestWorld::new();
    let mut foreign = BODY_SENTINEL;
    ok(humanoid(other.0, &mut foreign));
    let (shoulders, far) = ([9u32, 13], [9u32, 17]);
    changes(&w, || unsafe { sinew_body_set_ignored_bones(p, body, doll, shoulders.as_ptr(), 2) });

    let null = SINEW_RESULT_NULL_ARGUMENT;
    refused(ptr::null(), name, null, || unsafe {
        sinew_body_set_ignored_bones(ptr::null_mut(), body, doll, shoulders.as_ptr(), 2)
    });
    refused(p, name, null, || unsafe { sinew_body_set_ignored_bones(p, body, doll, ptr::null(), 2) });
    let invalid_id = SINEW_RESULT_INVALID_ID;
    for id in [SinewBodyId::default(), gone, foreign, SinewBodyId { index1: doll.index1, generation: 0 }] {
        refused(p, name, invalid_id, || unsafe { sinew_body_set_ignored_bones(p, id, doll, shoulders.as_ptr(), 2) });
        refused(p, name, invalid_id, || unsafe { sinew_body_set_ignored_bones(p, body, id, shoulders.as_ptr(), 2) });
    }
    refused(p, name, SINEW_RESULT_WRONG_KIND, || unsafe {
        sinew_body_set_ignored_bones(p, doll, body, shoulders.as_ptr(), 2)
    });
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    refused(p, name, invalid, || unsafe { sinew_body_set_ignored_bones(p, doll, doll, shoulders.as_ptr(), 2) });
    // One bone out of range refuses the whole list: the shoulders stay.
    refused(p, name, invalid, || unsafe { sinew_body_set_ignored_bones(p, body, doll, far.as_ptr(), 2) });
    refused(p, name, invalid, || unsafe { sinew_body_set_ignored_bones(p, body, doll, [u32::MAX].as_ptr(), 1) });

    // The list is in the snapshot: a restored copy hashes alike, and
    // clearing it changes the state.
    let mut size = 0;
    ok(unsafe { sinew_world_snapshot(p, ptr::null_mut(), 0, &mut size) });
    let mut image = vec![0u8; size];
    ok(unsafe { sinew_world_snapshot(p, image.as_mut_ptr(), size, &mut size) });
    let copy = TestWorld::new();
    ok(unsafe { sinew_world_restore(copy.0, image.as_ptr(), image.len()) });
    assert_eq!(copy.hash(), w.hash());
    changes(&w, || unsafe { sinew_body_set_ignored_bones(p, body, doll, ptr::null(), 0) });
    assert_ne!(copy.hash(), w.hash());
}

/// `sinew_cloth_set_compliance` (issue 23: the samples app's compliance
/// sliders) refuses a NULL world, null, stale and foreign ids, a body that
/// is not a cloth, a cloth whose sticks were added to, and NaN, +-inf or a
/// negative value in each of its three compliances; a refused call changes
/// neither the state hash nor the snapshot (which holds the compliances).
#[test]
fn cloth_set_compliance_refuses_bad_input_and_changes_nothing() {
    const F: &str = "sinew_cloth_set_compliance";
    let w = TestWorld::new();
    let other = TestWorld::new();
    let mut cloth = BODY_SENTINEL;
    ok(grid_3x3(w.0, &mut cloth));
    let particles = w.body(3);
    w.step();
    let set = |world: *mut SinewWorld, body: SinewBodyId, s: f32, sh: f32, b: f32| unsafe {
        sinew_cloth_set_compliance(world, body, s, sh, b)
    };
    // Each refusal must leave the image as it was: the compliances are in it.
    let refused_unchanged = |world: *mut SinewWorld, body: SinewBodyId, values: [f32; 3], expected: SinewResult| {
        let image = w.snapshot();
        refused(w.0, F, expected, || set(world, body, values[0], values[1], values[2]));
        assert!(w.snapshot() == image, "{F} returned {} but changed the snapshot", result_name(expected));
    };
    refused_unchanged(ptr::null_mut(), cloth, [0.0, 1e-6, 1e-3], SINEW_RESULT_NULL_ARGUMENT);
    refused_unchanged(w.0, SinewBodyId { index1: 0, generation: 0 }, [0.0, 1e-6, 1e-3], SINEW_RESULT_INVALID_ID);
    refused_unchanged(w.0, BODY_SENTINEL, [0.0, 1e-6, 1e-3], SINEW_RESULT_INVALID_ID);
    refused_unchanged(w.0, particles, [0.0, 1e-6, 1e-3], SINEW_RESULT_WRONG_KIND);
    // A cloth of another world, and one destroyed.
    let mut foreign = BODY_SENTINEL;
    ok(grid_3x3(other.0, &mut foreign));
    refused_unchanged(w.0, foreign, [0.0, 1e-6, 1e-3], SINEW_RESULT_INVALID_ID);
    let mut gone = BODY_SENTINEL;
    ok(grid_3x3(w.0, &mut gone));
    ok(unsafe { sinew_body_destroy(w.0, gone) });
    refused_unchanged(w.0, gone, [0.0, 1e-6, 1e-3], SINEW_RESULT_INVALID_ID);
    for k in 0..3 {
        for bad in NON_FINITE.into_iter().chain([-1e-6, f32::from_bits(0x8000_0001)]) {
            let mut values = [1e-4, 1e-4, 1e-4];
            values[k] = bad;
            refused_unchanged(w.0, cloth, values, SINEW_RESULT_INVALID_ARGUMENT);
            assert!(last_error().contains("compliance must be finite and >= 0"), "{}", last_error());
        }
    }
    // A cloth given more sticks no longer knows which is which kind.
    let mut added = BODY_SENTINEL;
    ok(grid_3x3(w.0, &mut added));
    let stick = SinewDistanceConstraint { a: 0, b: 8, rest_length: -1.0, compliance: 0.0 };
    ok(unsafe { sinew_body_add_distance_constraints(w.0, added, &stick, 1) });
    refused_unchanged(w.0, added, [1e-4, 1e-4, 1e-4], SINEW_RESULT_INVALID_ARGUMENT);
    // Accepted: the image changes (it carries the new compliances), and zero is allowed.
    let image = w.snapshot();
    ok(set(w.0, cloth, 1e-4, 1e-5, 1e-2));
    assert!(w.snapshot() != image, "{F} was accepted but the snapshot did not change");
    ok(set(w.0, cloth, 0.0, 0.0, 0.0));
}
