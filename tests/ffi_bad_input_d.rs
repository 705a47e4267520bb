//! Bad input for every `_d` export (the double-precision path, issue 27),
//! in `tests/ffi_bad_input.rs`'s way: NULL worlds and pointers, NULL arrays
//! with a count, null, stale and foreign ids, the wrong kind of body, NaN,
//! +-inf and values beyond +-1e15 m in every double and float parameter,
//! out-of-range indices and enum values, zero quaternions, too small
//! buffers.
//!
//! Every refused call is checked as there ([`refused`]): the documented
//! `SinewResult`, no output written (outputs are pre-filled with
//! sentinels), the world's state hash unchanged, and a
//! `sinew_last_error_message` that starts with the function's name.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or
//! points to a live local or array holding at least the count passed, or is
//! one of the deliberately bad pointers (NULL with a count) that the API
//! checks and refuses before it reads or writes through it.

use sinew::ffi::*;
use std::ffi::{CStr, c_char};
use std::ptr;

const DT: f32 = 1.0 / 60.0;
/// Refused wherever a world position in double precision is taken.
const BAD_F64: [f64; 5] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e16, -1e300];
const BAD_F32: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

const BODY_SENTINEL: SinewBodyId = SinewBodyId { index1: 0xDEAD, generation: 0xBEEF };
const COLLIDER_SENTINEL: SinewColliderId = SinewColliderId { index1: 0xDEAD, generation: 0xBEEF };
const U32_SENTINEL: u32 = 0xDEAD_BEEF;
const VEC_SENTINEL: SinewVec3d = SinewVec3d { x: 42.0, y: -42.0, z: 4242.0 };
const TRANSFORM_SENTINEL: SinewTransformd =
    SinewTransformd { position: VEC_SENTINEL, rotation: SinewQuat { x: 7.0, y: 7.0, z: 7.0, w: 7.0 } };
const IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
const ZERO_QUAT: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 };
/// Far out: where the `_d` calls matter.
const FAR: f64 = 10_000.0;

fn d(x: f64, y: f64, z: f64) -> SinewVec3d {
    SinewVec3d { x, y, z }
}

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// `base` with one component replaced, for each component and bad value.
fn bad_vectors(base: SinewVec3d) -> Vec<SinewVec3d> {
    let mut out = Vec::new();
    for bad in BAD_F64 {
        out.push(SinewVec3d { x: bad, ..base });
        out.push(SinewVec3d { y: bad, ..base });
        out.push(SinewVec3d { z: bad, ..base });
    }
    out
}

/// `base` with a bad position or rotation.
fn bad_transforms(base: SinewTransformd) -> Vec<SinewTransformd> {
    let mut out: Vec<SinewTransformd> =
        bad_vectors(base.position).into_iter().map(|position| SinewTransformd { position, ..base }).collect();
    for bad in BAD_F32 {
        for k in 0..4 {
            let mut q = [base.rotation.x, base.rotation.y, base.rotation.z, base.rotation.w];
            q[k] = bad;
            let rotation = SinewQuat { x: q[0], y: q[1], z: q[2], w: q[3] };
            out.push(SinewTransformd { rotation, ..base });
        }
    }
    out.push(SinewTransformd { rotation: ZERO_QUAT, ..base });
    out
}

fn result_name(code: SinewResult) -> String {
    // SAFETY: sinew_result_name returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sinew_result_name(code)) }.to_str().expect("ASCII").to_owned()
}

fn last_error() -> String {
    let len = unsafe { sinew_last_error_message(ptr::null_mut(), 0) };
    let mut buf = vec![0xAAu8; len + 1];
    assert_eq!(unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) }, len);
    buf.truncate(len);
    String::from_utf8(buf).expect("the message is UTF-8")
}

/// Records a failure of another function, so that a message starting with
/// `function` afterwards comes from the call under test.
fn prime_error() {
    assert_eq!(unsafe { sinew_world_state_hash(ptr::null(), ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);
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

/// Runs `call`, which must be refused with `expected`, leave `world`'s state
/// hash as it was and leave a message naming `function`.
#[track_caller]
fn refused(world: *const SinewWorld, function: &str, expected: SinewResult, call: impl FnOnce() -> SinewResult) {
    prime_error();
    let before = state_hash(world);
    let code = call();
    let message = last_error();
    assert_eq!(
        code,
        expected,
        "{function} returned {} instead of {} (message {message:?})",
        result_name(code),
        result_name(expected)
    );
    assert_eq!(state_hash(world), before, "{function} returned {} but changed the world", result_name(code));
    assert!(
        message.starts_with(&format!("{function}: ")) && message.len() > function.len() + 2,
        "{function} returned {} with the last error message {message:?}",
        result_name(code)
    );
}

/// An accepted call that must change the state hash.
#[track_caller]
fn changes(world: *const SinewWorld, call: impl FnOnce() -> SinewResult) {
    let before = state_hash(world);
    ok(call());
    assert_ne!(state_hash(world), before, "an accepted call left the state hash unchanged");
}

/// A world destroyed on drop, with some of everything far out: a particle
/// body of 4 with a frame, a humanoid, a rigid box, a box collider, stepped.
struct Scene {
    w: *mut SinewWorld,
    particles: SinewBodyId,
    ragdoll: SinewBodyId,
    rigid: SinewBodyId,
    collider: SinewColliderId,
    /// A destroyed body and collider, their slots empty.
    dead_body: SinewBodyId,
    dead_collider: SinewColliderId,
    skeleton: *mut SinewSkeleton,
}

impl Scene {
    fn new() -> Self {
        let mut w = ptr::null_mut();
        ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut w) });
        let mut collider = COLLIDER_SENTINEL;
        let floor = SinewTransformd { position: d(FAR, -0.5, -FAR), rotation: IDENTITY };
        ok(unsafe { sinew_collider_create_box_d(w, floor, v(5.0, 0.5, 5.0), 0.5, &mut collider) });
        let mut dead_collider = COLLIDER_SENTINEL;
        ok(unsafe { sinew_collider_create_sphere_d(w, d(FAR, 3.0, -FAR), 0.5, 0.5, &mut dead_collider) });
        ok(unsafe { sinew_collider_destroy(w, dead_collider) });
        let p: Vec<SinewVec3d> = (0..4).map(|i| d(FAR + 0.5 * f64::from(i), 1.0, -FAR)).collect();
        let mut particles = BODY_SENTINEL;
        ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 4, &mut particles) });
        let mut frame = U32_SENTINEL;
        let at = SinewTransformd { position: d(FAR, 1.0, -FAR), rotation: IDENTITY };
        ok(unsafe { sinew_body_attach_to_frame_d(w, particles, [0u32].as_ptr(), 1, at, &mut frame) });
        assert_eq!(frame, 0);
        let mut dead_body = BODY_SENTINEL;
        ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 1, &mut dead_body) });
        ok(unsafe { sinew_body_destroy(w, dead_body) });
        let mut ragdoll = BODY_SENTINEL;
        let root = SinewTransformd { position: d(FAR + 2.0, 0.0, -FAR), rotation: IDENTITY };
        ok(unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, &mut ragdoll) });
        let mut rigid = BODY_SENTINEL;
        ok(unsafe { sinew_rigid_create_d(w, &sinew_default_rigid_def(), d(FAR - 2.0, 1.0, -FAR), &mut rigid) });
        let mut skeleton = ptr::null_mut();
        ok(unsafe { sinew_skeleton_create_humanoid(1.8, &mut skeleton) });
        ok(unsafe { sinew_world_step(w, DT) });
        Scene { w, particles, ragdoll, rigid, collider, dead_body, dead_collider, skeleton }
    }

    /// A body id of another world, in a slot live in this one.
    fn foreign(&self) -> (SinewBodyId, SinewColliderId, *mut SinewWorld) {
        let mut other = ptr::null_mut();
        ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut other) });
        let mut b = BODY_SENTINEL;
        ok(unsafe { sinew_body_create_particles_d(other, [d(0.0, 0.0, 0.0)].as_ptr(), ptr::null(), 1, &mut b) });
        let mut c = COLLIDER_SENTINEL;
        ok(unsafe { sinew_collider_create_sphere_d(other, d(0.0, 0.0, 0.0), 1.0, 0.5, &mut c) });
        (b, c, other)
    }

    fn bad_bodies(&self) -> Vec<SinewBodyId> {
        let (foreign, _, other) = self.foreign();
        unsafe { sinew_world_destroy(other) };
        vec![SinewBodyId::default(), self.dead_body, foreign, SinewBodyId { index1: u32::MAX, generation: 1 }]
    }

    fn bad_colliders(&self) -> Vec<SinewColliderId> {
        let (_, foreign, other) = self.foreign();
        unsafe { sinew_world_destroy(other) };
        vec![SinewColliderId::default(), self.dead_collider, foreign, SinewColliderId { index1: 77, generation: 3 }]
    }
}

impl Drop for Scene {
    /// Every test's world ends with zero recoveries (checked unless the
    /// test already failed).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            ok(unsafe { sinew_world_step(self.w, DT) });
            let mut r = u64::MAX;
            ok(unsafe { sinew_world_recovery_count(self.w, &mut r) });
            assert_eq!(r, 0, "the world recovered from a bad step");
        }
        unsafe { sinew_skeleton_destroy(self.skeleton) };
        unsafe { sinew_world_destroy(self.w) };
    }
}

#[test]
fn d_body_calls_refuse_bad_input_and_change_nothing() {
    let s = Scene::new();
    let (w, b) = (s.w, s.particles);
    let good = [d(FAR, 2.0, -FAR), d(FAR + 0.5, 2.0, -FAR)];
    let pose = SinewTransformd { position: d(FAR, 1.5, -FAR), rotation: IDENTITY };

    // create_particles_d: NULL world, NULL positions with a count, NULL
    // out, count 0, bad positions, bad inverse masses.
    let name = "sinew_body_create_particles_d";
    let mut out = BODY_SENTINEL;
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    refused(w, name, null_arg, || unsafe {
        sinew_body_create_particles_d(ptr::null_mut(), good.as_ptr(), ptr::null(), 2, &mut out)
    });
    refused(w, name, null_arg, || unsafe { sinew_body_create_particles_d(w, ptr::null(), ptr::null(), 2, &mut out) });
    refused(w, name, null_arg, || unsafe {
        sinew_body_create_particles_d(w, good.as_ptr(), ptr::null(), 2, ptr::null_mut())
    });
    refused(w, name, invalid, || unsafe { sinew_body_create_particles_d(w, ptr::null(), ptr::null(), 0, &mut out) });
    for bad in bad_vectors(good[1]) {
        let p = [good[0], bad];
        refused(w, name, invalid, || unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 2, &mut out) });
    }
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        let m = [1.0, bad];
        refused(w, name, invalid, || unsafe {
            sinew_body_create_particles_d(w, good.as_ptr(), m.as_ptr(), 2, &mut out)
        });
    }
    assert_eq!(out, BODY_SENTINEL, "{name} wrote out_body although it failed");

    // set_positions_d: ids, NULL, ranges, bad values.
    let name = "sinew_body_set_positions_d";
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_body_set_positions_d(w, id, 0, good.as_ptr(), 2) });
    }
    refused(w, name, null_arg, || unsafe { sinew_body_set_positions_d(ptr::null_mut(), b, 0, good.as_ptr(), 2) });
    refused(w, name, null_arg, || unsafe { sinew_body_set_positions_d(w, b, 0, ptr::null(), 2) });
    for first in [3, 4, u32::MAX] {
        refused(w, name, invalid, || unsafe { sinew_body_set_positions_d(w, b, first, good.as_ptr(), 2) });
    }
    for bad in bad_vectors(good[1]) {
        let p = [good[0], bad];
        refused(w, name, invalid, || unsafe { sinew_body_set_positions_d(w, b, 0, p.as_ptr(), 2) });
    }

    // set_targets_d.
    let name = "sinew_body_set_targets_d";
    let target = SinewTargetd { particle: 1, compliance: 0.0, max_force: 0.0, position: good[0] };
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_body_set_targets_d(w, id, &target, 1) });
    }
    refused(w, name, null_arg, || unsafe { sinew_body_set_targets_d(ptr::null_mut(), b, &target, 1) });
    refused(w, name, null_arg, || unsafe { sinew_body_set_targets_d(w, b, ptr::null(), 1) });
    let mut bad_targets: Vec<SinewTargetd> =
        bad_vectors(good[0]).into_iter().map(|position| SinewTargetd { position, ..target }).collect();
    bad_targets.push(SinewTargetd { particle: 4, ..target });
    bad_targets.push(SinewTargetd { particle: u32::MAX, ..target });
    for bad in BAD_F32.into_iter().chain([-1.0]) {
        bad_targets.push(SinewTargetd { compliance: bad, ..target });
        if !(bad == f32::INFINITY) {
            bad_targets.push(SinewTargetd { max_force: bad, ..target });
        }
    }
    for bad in bad_targets {
        // A good target before it: nothing is set when one is refused.
        let both = [target, bad];
        refused(w, name, invalid, || unsafe { sinew_body_set_targets_d(w, b, both.as_ptr(), 2) });
    }

    // attach_to_frame_d, set_frame_d.
    let name = "sinew_body_attach_to_frame_d";
    let mut frame = U32_SENTINEL;
    let one = [2u32];
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_body_attach_to_frame_d(w, id, one.as_ptr(), 1, pose, &mut frame)
        });
    }
    refused(w, name, null_arg, || unsafe {
        sinew_body_attach_to_frame_d(ptr::null_mut(), b, one.as_ptr(), 1, pose, &mut frame)
    });
    refused(w, name, null_arg, || unsafe { sinew_body_attach_to_frame_d(w, b, ptr::null(), 1, pose, &mut frame) });
    refused(w, name, null_arg, || unsafe {
        sinew_body_attach_to_frame_d(w, b, one.as_ptr(), 1, pose, ptr::null_mut())
    });
    refused(w, name, invalid, || unsafe { sinew_body_attach_to_frame_d(w, b, ptr::null(), 0, pose, &mut frame) });
    refused(w, name, invalid, || unsafe { sinew_body_attach_to_frame_d(w, b, [4u32].as_ptr(), 1, pose, &mut frame) });
    for bad in bad_transforms(pose) {
        refused(w, name, invalid, || unsafe { sinew_body_attach_to_frame_d(w, b, one.as_ptr(), 1, bad, &mut frame) });
    }
    assert_eq!(frame, U32_SENTINEL, "{name} wrote out_frame although it failed");
    let name = "sinew_body_set_frame_d";
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_body_set_frame_d(w, id, 0, pose) });
    }
    refused(w, name, null_arg, || unsafe { sinew_body_set_frame_d(ptr::null_mut(), b, 0, pose) });
    refused(w, name, invalid, || unsafe { sinew_body_set_frame_d(w, b, 1, pose) });
    for bad in bad_transforms(pose) {
        refused(w, name, invalid, || unsafe { sinew_body_set_frame_d(w, b, 0, bad) });
    }

    // teleport_d.
    let name = "sinew_body_teleport_d";
    let to = SinewTransformd { position: d(-FAR, 1.0, FAR), rotation: IDENTITY };
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_body_teleport_d(w, id, pose, to, 0) });
    }
    refused(w, name, null_arg, || unsafe { sinew_body_teleport_d(ptr::null_mut(), b, pose, to, 0) });
    refused(w, name, invalid, || unsafe { sinew_body_teleport_d(w, b, pose, to, 2) });
    for bad in bad_transforms(pose) {
        refused(w, name, invalid, || unsafe { sinew_body_teleport_d(w, b, bad, to, 0) });
        refused(w, name, invalid, || unsafe { sinew_body_teleport_d(w, b, pose, bad, 1) });
    }
    // A destination whose frame would leave the coordinate range.
    let edge = SinewTransformd { position: d(9.99e14, 0.0, 0.0), rotation: IDENTITY };
    let from = SinewTransformd { position: d(-9.99e14, 0.0, 0.0), rotation: IDENTITY };
    refused(w, name, invalid, || unsafe { sinew_body_teleport_d(w, b, from, edge, 0) });

    // get_bounds_d and read_positions_d: ids, NULL world; outputs unwritten.
    let (mut lo, mut hi) = (VEC_SENTINEL, VEC_SENTINEL);
    for id in s.bad_bodies() {
        refused(w, "sinew_body_get_bounds_d", SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_body_get_bounds_d(w, id, &mut lo, &mut hi)
        });
        let mut buf = [VEC_SENTINEL; 4];
        let mut count = U32_SENTINEL;
        refused(w, "sinew_body_read_positions_d", SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_body_read_positions_d(w, id, buf.as_mut_ptr(), 4, &mut count)
        });
        assert_eq!((buf, count), ([VEC_SENTINEL; 4], U32_SENTINEL));
    }
    refused(w, "sinew_body_get_bounds_d", null_arg, || unsafe {
        sinew_body_get_bounds_d(ptr::null(), b, &mut lo, &mut hi)
    });
    assert_eq!((lo, hi), (VEC_SENTINEL, VEC_SENTINEL));

    // Good input changes the world; the bounds are where the body is.
    changes(w, || unsafe { sinew_body_set_positions_d(w, b, 2, good.as_ptr(), 2) });
    changes(w, || unsafe { sinew_body_set_targets_d(w, b, &target, 1) });
    changes(w, || unsafe { sinew_body_set_frame_d(w, b, 0, pose) });
    ok(unsafe { sinew_body_get_bounds_d(w, b, &mut lo, ptr::null_mut()) });
    ok(unsafe { sinew_body_get_bounds_d(w, b, &mut lo, &mut hi) });
    assert!(lo.x <= FAR && hi.x >= FAR + 0.5 && lo.z <= -FAR && hi.z >= -FAR, "{lo:?} {hi:?}");
    changes(w, || unsafe { sinew_body_teleport_d(w, b, pose, to, 1) });
    ok(unsafe { sinew_world_step(w, DT) });
    let mut r = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut r) });
    assert_eq!(r, 0);
}

#[test]
fn d_readback_protocol() {
    let s = Scene::new();
    let (w, b) = (s.w, s.particles);
    let name = "sinew_body_read_positions_d";
    let mut count = U32_SENTINEL;
    ok(unsafe { sinew_body_read_positions_d(w, b, ptr::null_mut(), 0, &mut count) });
    assert_eq!(count, 4);
    ok(unsafe { sinew_body_read_positions_d(w, b, ptr::null_mut(), 0, ptr::null_mut()) });
    let mut count = U32_SENTINEL;
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_body_read_positions_d(w, b, ptr::null_mut(), 4, &mut count)
    });
    assert_eq!(count, U32_SENTINEL);
    for capacity in [0, 1, 3] {
        let mut buf = [VEC_SENTINEL; 8];
        let mut count = U32_SENTINEL;
        refused(w, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
            sinew_body_read_positions_d(w, b, buf.as_mut_ptr(), capacity, &mut count)
        });
        assert_eq!((buf, count), ([VEC_SENTINEL; 8], 4));
    }
    let mut buf = [VEC_SENTINEL; 8];
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_body_read_positions_d(ptr::null(), b, buf.as_mut_ptr(), 8, &mut count)
    });
    let mut buf = [VEC_SENTINEL; 8];
    ok(unsafe { sinew_body_read_positions_d(w, b, buf.as_mut_ptr(), 8, &mut count) });
    assert_eq!(count, 4);
    assert_eq!(buf[4..], [VEC_SENTINEL; 4]);
    // Exact: what the f32 readback rounds.
    let mut f = [v(0.0, 0.0, 0.0); 4];
    ok(unsafe { sinew_body_read_positions(w, b, f.as_mut_ptr(), 4, ptr::null_mut()) });
    for (i, (x, y)) in buf[..4].iter().zip(&f).enumerate() {
        assert_eq!([x.x as f32, x.y as f32, x.z as f32], [y.x, y.y, y.z]);
        // Where they were made (a step moved them down only): measured 0
        // (the bounds were 3 and 1 m); 1e-6 m is room to round an offset.
        let (along, across) = (x.x - (FAR + 0.5 * i as f64), x.z + FAR);
        eprintln!("particle {i} 10 km out: {along:e} m along, {across:e} m across from where it was made");
        assert!(along.abs() < 1e-6 && across.abs() < 1e-6, "{x:?}");
    }

    // Bounds of a lone particle 10 km out, radius 0: its exact place, not
    // the millimetre a world f32 rounds to there.
    let odd = [d(FAR + 0.123456789, 1.0 / 3.0, -FAR - 0.987654321)];
    let mut one = BODY_SENTINEL;
    ok(unsafe { sinew_body_create_particles_d(w, odd.as_ptr(), ptr::null(), 1, &mut one) });
    let (mut lo, mut hi, mut x) = (VEC_SENTINEL, VEC_SENTINEL, [VEC_SENTINEL]);
    ok(unsafe { sinew_body_get_bounds_d(w, one, &mut lo, &mut hi) });
    ok(unsafe { sinew_body_read_positions_d(w, one, x.as_mut_ptr(), 1, ptr::null_mut()) });
    assert_eq!((lo, hi), (x[0], x[0]));
    let off = [x[0].x - odd[0].x, x[0].z - odd[0].z];
    eprintln!("a lone particle 10 km out: {:e} and {:e} m off its place", off[0], off[1]);
    // Measured 2.0e-9 and 7.3e-9 m (the bound was 1e-6): 1.2e-7 is half an
    // ulp of an offset up to 2 m from its frame's grid point (ORIGIN_GRID, 4 m).
    assert!(off[0].abs() < 1.2e-7 && off[1].abs() < 1.2e-7, "{x:?}");

    // Bones: the same protocol, and the wrong kind.
    let name = "sinew_ragdoll_read_bones_d";
    let mut n = U32_SENTINEL;
    ok(unsafe { sinew_ragdoll_read_bones_d(w, s.ragdoll, ptr::null_mut(), 0, &mut n) });
    assert!(n > 10);
    let mut bones = vec![TRANSFORM_SENTINEL; n as usize + 1];
    let mut count = U32_SENTINEL;
    refused(w, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
        sinew_ragdoll_read_bones_d(w, s.ragdoll, bones.as_mut_ptr(), n - 1, &mut count)
    });
    assert_eq!(count, n);
    assert!(bones.iter().all(|&t| t == TRANSFORM_SENTINEL));
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_ragdoll_read_bones_d(w, s.ragdoll, ptr::null_mut(), n, &mut count)
    });
    for id in [s.particles, s.rigid] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || unsafe {
            sinew_ragdoll_read_bones_d(w, id, bones.as_mut_ptr(), n, &mut count)
        });
    }
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_ragdoll_read_bones_d(w, id, bones.as_mut_ptr(), n, &mut count)
        });
    }
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_ragdoll_read_bones_d(ptr::null(), s.ragdoll, bones.as_mut_ptr(), n, &mut count)
    });
    assert!(bones.iter().all(|&t| t == TRANSFORM_SENTINEL));
    ok(unsafe { sinew_ragdoll_read_bones_d(w, s.ragdoll, bones.as_mut_ptr(), n + 1, &mut count) });
    assert_eq!(bones[n as usize], TRANSFORM_SENTINEL);
    // Made at FAR + 2, stepped once: measured 0 m along x (the bound was 1 m).
    assert!((bones[0].position.x - FAR - 2.0).abs() < 1e-6, "{:?}", bones[0]);

    // The rigid transform.
    let name = "sinew_rigid_read_transform_d";
    let mut t = TRANSFORM_SENTINEL;
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_rigid_read_transform_d(w, id, &mut t) });
    }
    for id in [s.particles, s.ragdoll] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || unsafe { sinew_rigid_read_transform_d(w, id, &mut t) });
    }
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_rigid_read_transform_d(ptr::null(), s.rigid, &mut t)
    });
    refused(w, name, SINEW_RESULT_NULL_ARGUMENT, || unsafe {
        sinew_rigid_read_transform_d(w, s.rigid, ptr::null_mut())
    });
    assert_eq!(t, TRANSFORM_SENTINEL);
    ok(unsafe { sinew_rigid_read_transform_d(w, s.rigid, &mut t) });
    // Made at FAR - 2, stepped once: measured 0 m along x (the bound was 0.1 m).
    assert!((t.position.x - FAR + 2.0).abs() < 1e-6, "{t:?}");
}

#[test]
fn d_collider_calls_refuse_bad_input_and_change_nothing() {
    let s = Scene::new();
    let (w, c) = (s.w, s.collider);
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    let at = d(FAR, 4.0, -FAR);
    let pose = SinewTransformd { position: at, rotation: IDENTITY };
    let mut out = COLLIDER_SENTINEL;

    // Creation: NULL world, NULL out, bad places, sizes, friction.
    type Create<'a> = Box<dyn Fn(*mut SinewWorld, *mut SinewColliderId) -> SinewResult + 'a>;
    let creators: Vec<(&str, Create)> = vec![
        (
            "sinew_collider_create_plane_d",
            Box::new(|w, o| unsafe { sinew_collider_create_plane_d(w, v(0.0, 1.0, 0.0), FAR, 0.5, o) }),
        ),
        (
            "sinew_collider_create_sphere_d",
            Box::new(|w, o| unsafe { sinew_collider_create_sphere_d(w, at, 0.5, 0.5, o) }),
        ),
        (
            "sinew_collider_create_box_d",
            Box::new(|w, o| unsafe { sinew_collider_create_box_d(w, pose, v(1.0, 1.0, 1.0), 0.5, o) }),
        ),
        (
            "sinew_collider_create_capsule_d",
            Box::new(|w, o| unsafe { sinew_collider_create_capsule_d(w, at, d(FAR, 5.0, -FAR), 0.3, 0.5, o) }),
        ),
        (
            "sinew_collider_create_d",
            Box::new(|w, o| unsafe { sinew_collider_create_d(w, &sinew_default_collider_def(), at, o) }),
        ),
    ];
    for (name, create) in &creators {
        refused(w, name, null_arg, || create(ptr::null_mut(), &mut out));
        refused(w, name, null_arg, || create(w, ptr::null_mut()));
    }
    for bad in BAD_F64 {
        let name = "sinew_collider_create_plane_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_plane_d(w, v(0.0, 1.0, 0.0), bad, 0.5, &mut out) });
    }
    for bad in BAD_F32.into_iter().chain([0.0]) {
        let name = "sinew_collider_create_plane_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_plane_d(w, v(0.0, bad, 0.0), 1.0, 0.5, &mut out) });
        let name = "sinew_collider_create_sphere_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_sphere_d(w, at, bad, 0.5, &mut out) });
        let name = "sinew_collider_create_box_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_box_d(w, pose, v(1.0, bad, 1.0), 0.5, &mut out) });
        let name = "sinew_collider_create_capsule_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_capsule_d(w, at, at, bad, 0.5, &mut out) });
    }
    for bad in BAD_F32.into_iter().chain([-1.0]) {
        let name = "sinew_collider_create_sphere_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_sphere_d(w, at, 0.5, bad, &mut out) });
        let name = "sinew_collider_create_plane_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_plane_d(w, v(0.0, 1.0, 0.0), FAR, bad, &mut out) });
    }
    for bad in bad_vectors(at) {
        let name = "sinew_collider_create_sphere_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_sphere_d(w, bad, 0.5, 0.5, &mut out) });
        let name = "sinew_collider_create_capsule_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_capsule_d(w, at, bad, 0.3, 0.5, &mut out) });
        let name = "sinew_collider_create_d";
        refused(w, name, invalid, || unsafe {
            sinew_collider_create_d(w, &sinew_default_collider_def(), bad, &mut out)
        });
    }
    for bad in bad_transforms(pose) {
        let name = "sinew_collider_create_box_d";
        refused(w, name, invalid, || unsafe { sinew_collider_create_box_d(w, bad, v(1.0, 1.0, 1.0), 0.5, &mut out) });
    }
    // A def without its cookie, a bad shape.
    let zeroed = SinewColliderDef { internal_cookie: 0, ..sinew_default_collider_def() };
    refused(w, "sinew_collider_create_d", invalid, || unsafe { sinew_collider_create_d(w, &zeroed, at, &mut out) });
    let unknown = SinewColliderDef { shape: 99, ..sinew_default_collider_def() };
    refused(w, "sinew_collider_create_d", invalid, || unsafe { sinew_collider_create_d(w, &unknown, at, &mut out) });
    refused(w, "sinew_collider_create_d", null_arg, || unsafe {
        sinew_collider_create_d(w, ptr::null(), at, &mut out)
    });
    assert_eq!(out, COLLIDER_SENTINEL, "a refused create wrote out_collider");

    // Moving and reading: ids, NULL, bad transforms.
    let mut t = TRANSFORM_SENTINEL;
    for id in s.bad_colliders() {
        let invalid_id = SINEW_RESULT_INVALID_ID;
        refused(w, "sinew_collider_set_transform_d", invalid_id, || unsafe {
            sinew_collider_set_transform_d(w, id, pose)
        });
        refused(w, "sinew_collider_get_transform_d", invalid_id, || unsafe {
            sinew_collider_get_transform_d(w, id, &mut t)
        });
    }
    refused(w, "sinew_collider_set_transform_d", null_arg, || unsafe {
        sinew_collider_set_transform_d(ptr::null_mut(), c, pose)
    });
    refused(w, "sinew_collider_get_transform_d", null_arg, || unsafe {
        sinew_collider_get_transform_d(ptr::null(), c, &mut t)
    });
    refused(w, "sinew_collider_get_transform_d", null_arg, || unsafe {
        sinew_collider_get_transform_d(w, c, ptr::null_mut())
    });
    assert_eq!(t, TRANSFORM_SENTINEL);
    for bad in bad_transforms(pose) {
        refused(w, "sinew_collider_set_transform_d", invalid, || unsafe { sinew_collider_set_transform_d(w, c, bad) });
    }

    // Good input: every creator makes one; a far transform reads back exact.
    for (_, create) in &creators {
        let mut id = COLLIDER_SENTINEL;
        changes(w, || create(w, &mut id));
        assert_ne!(id, COLLIDER_SENTINEL);
    }
    let exact = SinewTransformd { position: d(FAR + 0.123456789, 1.0 / 3.0, -FAR - 0.987654321), rotation: IDENTITY };
    changes(w, || unsafe { sinew_collider_set_transform_d(w, c, exact) });
    ok(unsafe { sinew_collider_get_transform_d(w, c, &mut t) });
    for (a, b) in [(t.position.x, exact.position.x), (t.position.y, exact.position.y), (t.position.z, exact.position.z)]
    {
        // Measured 2.0e-9 to 9.9e-9 m, and after the restore: the f32 offset
        // from its frame's grid point rounds; 1e-7 is under an ulp of 2 m.
        assert!((a - b).abs() < 1e-7, "{t:?} read back for {exact:?}");
    }
    // Moved a kilometre in one call: it takes a new grid point, still exact.
    let jump = SinewTransformd { position: d(FAR + 1_000.25, 0.5, -FAR), rotation: IDENTITY };
    changes(w, || unsafe { sinew_collider_set_transform_d(w, c, jump) });
    ok(unsafe { sinew_collider_get_transform_d(w, c, &mut t) });
    assert_eq!(t.position, jump.position);
    ok(unsafe { sinew_world_step(w, DT) });
    let mut r = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut r) });
    assert_eq!(r, 0);
}

#[test]
fn d_builders_and_world_calls_refuse_bad_input_and_change_nothing() {
    let s = Scene::new();
    let w = s.w;
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    let root = SinewTransformd { position: d(-FAR, 0.0, FAR), rotation: IDENTITY };
    let mut out = BODY_SENTINEL;

    // Humanoid and skeleton ragdolls.
    let name = "sinew_ragdoll_create_humanoid_d";
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_humanoid_d(ptr::null_mut(), root, 1.8, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, ptr::null_mut()) });
    for bad in bad_transforms(root) {
        refused(w, name, invalid, || unsafe { sinew_ragdoll_create_humanoid_d(w, bad, 1.8, &mut out) });
    }
    for bad in BAD_F32.into_iter().chain([0.0, -1.0, 1e6]) {
        refused(w, name, invalid, || unsafe { sinew_ragdoll_create_humanoid_d(w, root, bad, &mut out) });
    }
    let name = "sinew_ragdoll_create_from_skeleton_d";
    let k = s.skeleton;
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_from_skeleton_d(ptr::null_mut(), k, root, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_from_skeleton_d(w, ptr::null(), root, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_from_skeleton_d(w, k, root, ptr::null_mut()) });
    for bad in bad_transforms(root) {
        refused(w, name, invalid, || unsafe { sinew_ragdoll_create_from_skeleton_d(w, k, bad, &mut out) });
    }

    // Motor targets: count, kind, ids, values.
    let name = "sinew_ragdoll_set_motor_targets_d";
    let mut n = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, s.ragdoll, &mut n) });
    let mut pose = vec![SinewTransformd::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, s.ragdoll, pose.as_mut_ptr(), n, ptr::null_mut()) });
    let r = s.ragdoll;
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_set_motor_targets_d(ptr::null_mut(), r, pose.as_ptr(), n) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_set_motor_targets_d(w, r, ptr::null(), n) });
    refused(w, name, invalid, || unsafe { sinew_ragdoll_set_motor_targets_d(w, r, pose.as_ptr(), n - 1) });
    for id in [s.particles, s.rigid] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || unsafe {
            sinew_ragdoll_set_motor_targets_d(w, id, pose.as_ptr(), n)
        });
    }
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_ragdoll_set_motor_targets_d(w, id, pose.as_ptr(), n)
        });
    }
    for bad in bad_transforms(pose[3]) {
        let mut p = pose.clone();
        p[3] = bad;
        refused(w, name, invalid, || unsafe { sinew_ragdoll_set_motor_targets_d(w, r, p.as_ptr(), n) });
    }
    changes(w, || unsafe { sinew_ragdoll_set_motor_targets_d(w, r, pose.as_ptr(), n) });

    // Local motor targets: the same refusals.
    let name = "sinew_ragdoll_set_motor_targets_local_d";
    let local =
        |w, id, p: &[SinewTransformd], n| unsafe { sinew_ragdoll_set_motor_targets_local_d(w, id, p.as_ptr(), n) };
    refused(w, name, null_arg, || local(ptr::null_mut(), r, &pose, n));
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_set_motor_targets_local_d(w, r, ptr::null(), n) });
    refused(w, name, invalid, || local(w, r, &pose, n - 1));
    for id in [s.particles, s.rigid] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || local(w, id, &pose, n));
    }
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || local(w, id, &pose, n));
    }
    for k in [0, 3] {
        for bad in bad_transforms(pose[k]) {
            let mut p = pose.clone();
            p[k] = bad;
            refused(w, name, invalid, || local(w, r, &p, n));
        }
    }
    // Finite parts whose composition is not: refused, nothing set.
    let mut huge = pose.clone();
    for b in huge.iter_mut().skip(1) {
        b.position = d(9e14, 0.0, 0.0);
    }
    refused(w, name, invalid, || local(w, r, &huge, n));

    // Rigid bodies and cloth grids: defs, places.
    let rdef = sinew_default_rigid_def();
    let gdef = SinewClothGridDef { columns: 3, rows: 3, ..sinew_default_cloth_grid_def() };
    let at = d(-FAR, 2.0, FAR);
    let name = "sinew_rigid_create_d";
    refused(w, name, null_arg, || unsafe { sinew_rigid_create_d(ptr::null_mut(), &rdef, at, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_rigid_create_d(w, ptr::null(), at, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_rigid_create_d(w, &rdef, at, ptr::null_mut()) });
    let zeroed = SinewRigidDef { internal_cookie: 0, ..rdef };
    refused(w, name, invalid, || unsafe { sinew_rigid_create_d(w, &zeroed, at, &mut out) });
    let massless = SinewRigidDef { mass: 0.0, ..rdef };
    refused(w, name, invalid, || unsafe { sinew_rigid_create_d(w, &massless, at, &mut out) });
    let turned = SinewRigidDef { transform: SinewTransform { rotation: ZERO_QUAT, ..rdef.transform }, ..rdef };
    refused(w, name, invalid, || unsafe { sinew_rigid_create_d(w, &turned, at, &mut out) });
    let name2 = "sinew_cloth_create_grid_d";
    refused(w, name2, null_arg, || unsafe { sinew_cloth_create_grid_d(ptr::null_mut(), &gdef, at, &mut out) });
    refused(w, name2, null_arg, || unsafe { sinew_cloth_create_grid_d(w, ptr::null(), at, &mut out) });
    refused(w, name2, null_arg, || unsafe { sinew_cloth_create_grid_d(w, &gdef, at, ptr::null_mut()) });
    let zeroed = SinewClothGridDef { internal_cookie: 0, ..gdef };
    refused(w, name2, invalid, || unsafe { sinew_cloth_create_grid_d(w, &zeroed, at, &mut out) });
    let thin = SinewClothGridDef { columns: 1, ..gdef };
    refused(w, name2, invalid, || unsafe { sinew_cloth_create_grid_d(w, &thin, at, &mut out) });
    for bad in bad_vectors(at) {
        refused(w, name, invalid, || unsafe { sinew_rigid_create_d(w, &rdef, bad, &mut out) });
        refused(w, name2, invalid, || unsafe { sinew_cloth_create_grid_d(w, &gdef, bad, &mut out) });
    }
    assert_eq!(out, BODY_SENTINEL, "a refused create wrote out_body");

    // The origin shift.
    let name = "sinew_world_shift_origin_d";
    refused(w, name, null_arg, || unsafe { sinew_world_shift_origin_d(ptr::null_mut(), d(4.0, 0.0, 0.0)) });
    for bad in bad_vectors(d(4.0, 0.0, 0.0)) {
        refused(w, name, invalid, || unsafe { sinew_world_shift_origin_d(w, bad) });
    }

    // Good input builds, far out; the shift moves everything by the offset.
    for create in [
        &(|o| unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, o) }) as &dyn Fn(*mut SinewBodyId) -> SinewResult,
        &|o| unsafe { sinew_ragdoll_create_from_skeleton_d(w, k, root, o) },
        &|o| unsafe { sinew_rigid_create_d(w, &rdef, at, o) },
        &|o| unsafe { sinew_cloth_create_grid_d(w, &gdef, at, o) },
    ] {
        let mut id = BODY_SENTINEL;
        changes(w, || create(&mut id));
        let (mut lo, mut hi) = (VEC_SENTINEL, VEC_SENTINEL);
        ok(unsafe { sinew_body_get_bounds_d(w, id, &mut lo, &mut hi) });
        // Built there, not at the origin: each body's extent (0.21 to 0.97 m) within 3 m.
        assert!(lo.x > -FAR - 3.0 && hi.x < -FAR + 3.0 && lo.z > FAR - 3.0 && hi.z < FAR + 3.0, "{lo:?} {hi:?}");
    }
    let mut before = [VEC_SENTINEL; 4];
    ok(unsafe { sinew_body_read_positions_d(w, s.particles, before.as_mut_ptr(), 4, ptr::null_mut()) });
    let mut c0 = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_collider_get_transform_d(w, s.collider, &mut c0) });
    let offset = d(FAR, 0.0, -FAR);
    changes(w, || unsafe { sinew_world_shift_origin_d(w, offset) });
    let mut after = [VEC_SENTINEL; 4];
    ok(unsafe { sinew_body_read_positions_d(w, s.particles, after.as_mut_ptr(), 4, ptr::null_mut()) });
    for (a, b) in after.iter().zip(&before) {
        assert_eq!([a.x + offset.x, a.y + offset.y, a.z + offset.z], [b.x, b.y, b.z], "on the grid: exact");
    }
    let mut c1 = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_collider_get_transform_d(w, s.collider, &mut c1) });
    assert_eq!(c1.position, d(c0.position.x - FAR, c0.position.y, c0.position.z + FAR));
    ok(unsafe { sinew_world_step(w, DT) });
    let mut r = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut r) });
    assert_eq!(r, 0);
}

/// A snapshot keeps the far colliders' grid points: restored, the world
/// steps on bit for bit, and the collider reads back exact.
#[test]
fn a_snapshot_keeps_far_colliders_exact() {
    let s = Scene::new();
    let w = s.w;
    let exact = SinewTransformd { position: d(FAR + 0.123456789, -0.5, -FAR), rotation: IDENTITY };
    ok(unsafe { sinew_collider_set_transform_d(w, s.collider, exact) });
    ok(unsafe { sinew_world_step(w, DT) });
    let mut size = 0;
    ok(unsafe { sinew_world_snapshot(w, ptr::null_mut(), 0, &mut size) });
    let mut image = vec![0u8; size];
    ok(unsafe { sinew_world_snapshot(w, image.as_mut_ptr(), size, &mut size) });
    let mut copy = ptr::null_mut();
    ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut copy) });
    ok(unsafe { sinew_world_restore(copy, image.as_ptr(), size) });
    assert_eq!(state_hash(copy), state_hash(w));
    let mut t = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_collider_get_transform_d(copy, s.collider, &mut t) });
    assert!((t.position.x - exact.position.x).abs() < 1e-7, "{t:?}");
    for _ in 0..30 {
        ok(unsafe { sinew_world_step(w, DT) });
        ok(unsafe { sinew_world_step(copy, DT) });
    }
    assert_eq!(state_hash(copy), state_hash(w));
    let mut r = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(copy, &mut r) });
    assert_eq!(r, 0);
    unsafe { sinew_world_destroy(copy) };
}

#[test]
fn d_pose_skin_mesh_and_def_calls_refuse_bad_input_and_change_nothing() {
    let s = Scene::new();
    let w = s.w;
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    let r = s.ragdoll;

    // set_pose_d: NULL, count, kind, ids, values, dt.
    let name = "sinew_ragdoll_set_pose_d";
    let mut n = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, r, &mut n) });
    let mut pose = vec![SinewTransformd::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, r, pose.as_mut_ptr(), n, ptr::null_mut()) });
    let (p, none) = (pose.as_ptr(), ptr::null::<SinewTransformd>());
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_set_pose_d(ptr::null_mut(), r, p, none, n, DT) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_set_pose_d(w, r, ptr::null(), none, n, DT) });
    refused(w, name, invalid, || unsafe { sinew_ragdoll_set_pose_d(w, r, p, none, n - 1, DT) });
    for id in [s.particles, s.rigid] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || unsafe { sinew_ragdoll_set_pose_d(w, id, p, none, n, DT) });
    }
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe { sinew_ragdoll_set_pose_d(w, id, p, none, n, DT) });
    }
    for bad in bad_transforms(pose[2]) {
        let mut q = pose.clone();
        q[2] = bad;
        refused(w, name, invalid, || unsafe { sinew_ragdoll_set_pose_d(w, r, q.as_ptr(), none, n, DT) });
        // The same in `previous`, and far away: the frame must not move.
        let far: Vec<SinewTransformd> = pose
            .iter()
            .map(|b| SinewTransformd { position: d(b.position.x - 2.0 * FAR, b.position.y, b.position.z), ..*b })
            .collect();
        refused(w, name, invalid, || unsafe { sinew_ragdoll_set_pose_d(w, r, far.as_ptr(), q.as_ptr(), n, DT) });
    }
    for bad in BAD_F32.into_iter().chain([0.0, -DT]) {
        refused(w, name, invalid, || unsafe { sinew_ragdoll_set_pose_d(w, r, p, p, n, bad) });
    }
    changes(w, || unsafe { sinew_ragdoll_set_pose_d(w, r, p, none, n, 0.0) });

    // A mesh cloth, its skin.
    let verts = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)];
    let tri = [0u32, 1, 2];
    let mesh = SinewClothMeshDef {
        vertices: verts.as_ptr(),
        vertex_count: 3,
        indices: tri.as_ptr(),
        triangle_count: 1,
        ..sinew_default_cloth_mesh_def()
    };
    let at = d(FAR, 2.0, -FAR + 3.0);
    let mut out = BODY_SENTINEL;
    let name = "sinew_cloth_create_d";
    refused(w, name, null_arg, || unsafe { sinew_cloth_create_d(ptr::null_mut(), &mesh, at, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_cloth_create_d(w, ptr::null(), at, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_cloth_create_d(w, &mesh, at, ptr::null_mut()) });
    let no_vertices = SinewClothMeshDef { vertices: ptr::null(), ..mesh };
    refused(w, name, null_arg, || unsafe { sinew_cloth_create_d(w, &no_vertices, at, &mut out) });
    let zeroed = SinewClothMeshDef { internal_cookie: 0, ..mesh };
    refused(w, name, invalid, || unsafe { sinew_cloth_create_d(w, &zeroed, at, &mut out) });
    let out_of_range = [0u32, 1, 3];
    let bad_index = SinewClothMeshDef { indices: out_of_range.as_ptr(), ..mesh };
    refused(w, name, invalid, || unsafe { sinew_cloth_create_d(w, &bad_index, at, &mut out) });
    for bad in bad_vectors(at) {
        refused(w, name, invalid, || unsafe { sinew_cloth_create_d(w, &mesh, bad, &mut out) });
    }
    assert_eq!(out, BODY_SENTINEL);
    let mut cloth = BODY_SENTINEL;
    changes(w, || unsafe { sinew_cloth_create_d(w, &mesh, at, &mut cloth) });

    let name = "sinew_cloth_set_skin_d";
    let skin = [at, d(at.x + 1.0, at.y, at.z), d(at.x, at.y, at.z + 1.0)];
    let up = [v(0.0, 1.0, 0.0); 3];
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || unsafe {
            sinew_cloth_set_skin_d(w, id, skin.as_ptr(), up.as_ptr(), 3)
        });
    }
    for id in [s.particles, s.ragdoll] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || unsafe {
            sinew_cloth_set_skin_d(w, id, skin.as_ptr(), up.as_ptr(), 3)
        });
    }
    refused(w, name, null_arg, || unsafe {
        sinew_cloth_set_skin_d(ptr::null_mut(), cloth, skin.as_ptr(), up.as_ptr(), 3)
    });
    refused(w, name, null_arg, || unsafe { sinew_cloth_set_skin_d(w, cloth, ptr::null(), up.as_ptr(), 3) });
    refused(w, name, null_arg, || unsafe { sinew_cloth_set_skin_d(w, cloth, skin.as_ptr(), ptr::null(), 3) });
    refused(w, name, invalid, || unsafe { sinew_cloth_set_skin_d(w, cloth, skin.as_ptr(), up.as_ptr(), 2) });
    for bad in bad_vectors(skin[1]) {
        let p = [skin[0], bad, skin[2]];
        refused(w, name, invalid, || unsafe { sinew_cloth_set_skin_d(w, cloth, p.as_ptr(), up.as_ptr(), 3) });
    }
    for bad in BAD_F32.into_iter().map(|b| v(0.0, b, 0.0)).chain([v(0.0, 0.0, 0.0)]) {
        let n = [up[0], bad, up[2]];
        refused(w, name, invalid, || unsafe { sinew_cloth_set_skin_d(w, cloth, skin.as_ptr(), n.as_ptr(), 3) });
    }
    changes(w, || unsafe { sinew_cloth_set_skin_d(w, cloth, skin.as_ptr(), up.as_ptr(), 3) });

    // A ragdoll from a def relative to an origin.
    let name = "sinew_ragdoll_create_d";
    let mut bones = [sinew_default_bone_def(), SinewBoneDef { parent: 0, ..sinew_default_bone_def() }];
    bones[0].length = 0.3;
    bones[1].rest.position = v(0.0, 0.3, 0.0);
    bones[1].length = 0.3;
    let def = SinewRagdollDef { bones: bones.as_ptr(), bone_count: 2, ..sinew_default_ragdoll_def() };
    let origin = d(-FAR, 1.0, FAR);
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_d(ptr::null_mut(), &def, origin, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_d(w, ptr::null(), origin, &mut out) });
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_create_d(w, &def, origin, ptr::null_mut()) });
    let zeroed = SinewRagdollDef { internal_cookie: 0, ..def };
    refused(w, name, invalid, || unsafe { sinew_ragdoll_create_d(w, &zeroed, origin, &mut out) });
    let empty = SinewRagdollDef { bone_count: 0, ..def };
    refused(w, name, invalid, || unsafe { sinew_ragdoll_create_d(w, &empty, origin, &mut out) });
    let mut bad_bones = bones;
    bad_bones[1].parent = 5;
    let bad_parent = SinewRagdollDef { bones: bad_bones.as_ptr(), ..def };
    refused(w, name, invalid, || unsafe { sinew_ragdoll_create_d(w, &bad_parent, origin, &mut out) });
    for bad in bad_vectors(origin) {
        refused(w, name, invalid, || unsafe { sinew_ragdoll_create_d(w, &def, bad, &mut out) });
    }
    assert_eq!(out, BODY_SENTINEL);
    let mut limb = BODY_SENTINEL;
    changes(w, || unsafe { sinew_ragdoll_create_d(w, &def, origin, &mut limb) });
    let mut t = [TRANSFORM_SENTINEL; 2];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, limb, t.as_mut_ptr(), 2, ptr::null_mut()) });
    assert_eq!(t[0].position, origin, "bone 0 at the def's rest (0) from the origin");
    for _ in 0..10 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    assert_eq!(recoveries, 0);
}

#[test]
fn d_query_and_push_calls_refuse_bad_input_and_change_nothing() {
    let s = Scene::new();
    let w = s.w;
    let null_arg = SINEW_RESULT_NULL_ARGUMENT;
    let invalid = SINEW_RESULT_INVALID_ARGUMENT;
    let mut cloth = BODY_SENTINEL;
    let gdef = SinewClothGridDef { columns: 3, rows: 3, ..sinew_default_cloth_grid_def() };
    ok(unsafe { sinew_cloth_create_grid_d(w, &gdef, d(FAR - 4.0, 2.0, -FAR), &mut cloth) });
    for _ in 0..10 {
        ok(unsafe { sinew_world_step(w, DT) });
    }

    // The contact readback: NULL, too small.
    let name = "sinew_world_read_contacts_d";
    let mut n = U32_SENTINEL;
    refused(w, name, null_arg, || unsafe { sinew_world_read_contacts_d(ptr::null(), ptr::null_mut(), 0, &mut n) });
    refused(w, name, null_arg, || unsafe { sinew_world_read_contacts_d(w, ptr::null_mut(), 1, &mut n) });
    assert_eq!(n, U32_SENTINEL, "{name} wrote out_count although it failed");
    ok(unsafe { sinew_world_read_contacts_d(w, ptr::null_mut(), 0, &mut n) });
    assert!(n > 1, "the scene has contacts: {n}");
    let sentinel = SinewContactd { particle: U32_SENTINEL, point: VEC_SENTINEL, ..SinewContactd::default() };
    let mut few = vec![sentinel; n as usize - 1];
    let mut needed = 0;
    refused(w, name, SINEW_RESULT_BUFFER_TOO_SMALL, || unsafe {
        sinew_world_read_contacts_d(w, few.as_mut_ptr(), n - 1, &mut needed)
    });
    assert_eq!(needed, n, "{name} stores the count needed");
    assert!(few.iter().all(|c| *c == sentinel), "{name} wrote into a too small buffer");

    // Ray casts and the nearest particle: NULL, bad origins, directions,
    // reaches.
    let origin = d(FAR, 3.0, -FAR);
    let down = v(0.0, -1.0, 0.0);
    let bad_directions: Vec<SinewVec3> =
        BAD_F32.iter().map(|&b| v(0.0, b, 0.0)).chain([v(0.0, 0.0, 0.0), v(1e-30, 0.0, 0.0)]).collect();
    let bad_reaches = [f32::NAN, 0.0, -1.0, f32::NEG_INFINITY];
    let name = "sinew_world_raycast_d";
    let sentinel = SinewRayHitd { hit: 7, point: VEC_SENTINEL, ..SinewRayHitd::default() };
    let mut hit = sentinel;
    refused(w, name, null_arg, || unsafe { sinew_world_raycast_d(ptr::null(), origin, down, 10.0, !0, &mut hit) });
    refused(w, name, null_arg, || unsafe { sinew_world_raycast_d(w, origin, down, 10.0, !0, ptr::null_mut()) });
    for bad in bad_vectors(origin) {
        refused(w, name, invalid, || unsafe { sinew_world_raycast_d(w, bad, down, 10.0, !0, &mut hit) });
    }
    for &bad in &bad_directions {
        refused(w, name, invalid, || unsafe { sinew_world_raycast_d(w, origin, bad, 10.0, !0, &mut hit) });
    }
    for bad in bad_reaches {
        refused(w, name, invalid, || unsafe { sinew_world_raycast_d(w, origin, down, bad, !0, &mut hit) });
    }
    assert_eq!(hit, sentinel, "{name} wrote out_hit although it failed");
    let name = "sinew_world_raycast_colliders_d";
    let sentinel = SinewColliderHitd { hit: 7, point: VEC_SENTINEL, ..SinewColliderHitd::default() };
    let mut chit = sentinel;
    let cast = |o, dir, reach, out| unsafe { sinew_world_raycast_colliders_d(w, o, dir, reach, !0, out) };
    refused(w, name, null_arg, || unsafe {
        sinew_world_raycast_colliders_d(ptr::null(), origin, down, 10.0, !0, &mut chit)
    });
    refused(w, name, null_arg, || cast(origin, down, 10.0, ptr::null_mut()));
    for bad in bad_vectors(origin) {
        refused(w, name, invalid, || cast(bad, down, 10.0, &mut chit));
    }
    for &bad in &bad_directions {
        refused(w, name, invalid, || cast(origin, bad, 10.0, &mut chit));
    }
    for bad in bad_reaches {
        refused(w, name, invalid, || cast(origin, down, bad, &mut chit));
    }
    assert_eq!(chit, sentinel, "{name} wrote out_hit although it failed");
    ok(cast(origin, down, 10.0, &mut chit));
    assert_eq!((chit.hit, chit.collider), (1, s.collider), "the floor, 3 m down");
    assert_eq!(chit.point, d(FAR, 0.0, -FAR));
    let name = "sinew_world_nearest_particle_d";
    let sentinel = SinewParticleHitd { hit: 7, position: VEC_SENTINEL, ..SinewParticleHitd::default() };
    let mut phit = sentinel;
    refused(w, name, null_arg, || unsafe { sinew_world_nearest_particle_d(ptr::null(), origin, 1.0, !0, &mut phit) });
    refused(w, name, null_arg, || unsafe { sinew_world_nearest_particle_d(w, origin, 1.0, !0, ptr::null_mut()) });
    for bad in bad_vectors(origin) {
        refused(w, name, invalid, || unsafe { sinew_world_nearest_particle_d(w, bad, 1.0, !0, &mut phit) });
    }
    for bad in bad_reaches {
        refused(w, name, invalid, || unsafe { sinew_world_nearest_particle_d(w, origin, bad, !0, &mut phit) });
    }
    assert_eq!(phit, sentinel, "{name} wrote out_hit although it failed");

    // Impulses at a hit: one on the particles (the body of 4), one on the
    // rigid box, whose point is used.
    let name = "sinew_body_apply_hit_impulse_d";
    let push = v(0.0, 1.0, 0.5);
    let mut on_particle = SinewRayHitd::default();
    ok(unsafe { sinew_body_set_particle_radius(w, s.particles, 0.1) });
    let above = |x: f64| d(x, 3.0, -FAR);
    ok(unsafe { sinew_world_raycast_d(w, above(FAR + 1.0), down, 10.0, !0, &mut on_particle) });
    assert_eq!((on_particle.hit, on_particle.body, on_particle.particle_a), (1, s.particles, 2));
    let mut on_rigid = SinewRayHitd::default();
    ok(unsafe { sinew_world_raycast_d(w, above(FAR - 2.0), down, 10.0, !0, &mut on_rigid) });
    assert_eq!((on_rigid.hit, on_rigid.body), (1, s.rigid));
    let apply = |h: &SinewRayHitd, j| unsafe { sinew_body_apply_hit_impulse_d(w, h, j) };
    refused(w, name, null_arg, || unsafe { sinew_body_apply_hit_impulse_d(ptr::null_mut(), &on_particle, push) });
    refused(w, name, null_arg, || unsafe { sinew_body_apply_hit_impulse_d(w, ptr::null(), push) });
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || apply(&SinewRayHitd { body: id, ..on_particle }, push));
    }
    let mut bad_hits = vec![
        SinewRayHitd { hit: 0, ..on_particle },
        SinewRayHitd { particle_count: 0, ..on_particle },
        SinewRayHitd { particle_count: 4, ..on_particle },
        SinewRayHitd { particle_a: 4, ..on_particle },
        SinewRayHitd { particle_a: u32::MAX, ..on_particle },
    ];
    for bad in BAD_F32.into_iter().chain([-0.5, 1.5]) {
        bad_hits.push(SinewRayHitd { weight_a: bad, ..on_particle });
    }
    bad_hits.extend(bad_vectors(on_rigid.point).into_iter().map(|point| SinewRayHitd { point, ..on_rigid }));
    for bad in &bad_hits {
        refused(w, name, invalid, || apply(bad, push));
    }
    for bad in BAD_F32 {
        refused(w, name, invalid, || apply(&on_particle, v(0.0, bad, 0.0)));
        refused(w, name, invalid, || apply(&on_rigid, v(bad, 0.0, 0.0)));
    }
    changes(w, || apply(&on_particle, push));
    changes(w, || apply(&on_rigid, push));

    // Impulses at a point of a bone, of a rigid body.
    let r = s.ragdoll;
    let mut bones = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, r, &mut bones) });
    let mut pose = vec![SinewTransformd::default(); bones as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, r, pose.as_mut_ptr(), bones, ptr::null_mut()) });
    let at_bone = pose[3].position;
    let name = "sinew_ragdoll_apply_impulse_d";
    let bone_push = |id, bone, p, j| unsafe { sinew_ragdoll_apply_impulse_d(w, id, bone, p, j) };
    refused(w, name, null_arg, || unsafe { sinew_ragdoll_apply_impulse_d(ptr::null_mut(), r, 3, at_bone, push) });
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || bone_push(id, 3, at_bone, push));
    }
    for id in [s.particles, s.rigid, cloth] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || bone_push(id, 3, at_bone, push));
    }
    for bone in [bones, u32::MAX] {
        refused(w, name, invalid, || bone_push(r, bone, at_bone, push));
    }
    for bad in bad_vectors(at_bone) {
        refused(w, name, invalid, || bone_push(r, 3, bad, push));
    }
    for bad in BAD_F32 {
        refused(w, name, invalid, || bone_push(r, 3, at_bone, v(0.0, 0.0, bad)));
    }
    changes(w, || bone_push(r, 3, at_bone, push));
    let name = "sinew_rigid_apply_impulse_d";
    let mut t = TRANSFORM_SENTINEL;
    ok(unsafe { sinew_rigid_read_transform_d(w, s.rigid, &mut t) });
    let corner = d(t.position.x + 0.25, t.position.y, t.position.z);
    let rigid_push = |id, p, j| unsafe { sinew_rigid_apply_impulse_d(w, id, p, j) };
    refused(w, name, null_arg, || unsafe { sinew_rigid_apply_impulse_d(ptr::null_mut(), s.rigid, corner, push) });
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || rigid_push(id, corner, push));
    }
    for id in [s.particles, s.ragdoll, cloth] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || rigid_push(id, corner, push));
    }
    for bad in bad_vectors(corner) {
        refused(w, name, invalid, || rigid_push(s.rigid, bad, push));
    }
    for bad in BAD_F32 {
        refused(w, name, invalid, || rigid_push(s.rigid, corner, v(bad, 0.0, 0.0)));
    }
    changes(w, || rigid_push(s.rigid, corner, push));

    // The explosion.
    let name = "sinew_world_explode_d";
    let center = d(FAR + 1.0, 0.5, -FAR);
    let mut pushed = U32_SENTINEL;
    let blast = |c, strength, radius, out| unsafe { sinew_world_explode_d(w, c, strength, radius, out) };
    refused(w, name, null_arg, || unsafe { sinew_world_explode_d(ptr::null_mut(), center, 1.0, 3.0, &mut pushed) });
    for bad in bad_vectors(center) {
        refused(w, name, invalid, || blast(bad, 1.0, 3.0, &mut pushed));
    }
    for bad in BAD_F32.into_iter().chain([-1.0]) {
        refused(w, name, invalid, || blast(center, bad, 3.0, &mut pushed));
        refused(w, name, invalid, || blast(center, 1.0, bad, &mut pushed));
    }
    assert_eq!(pushed, U32_SENTINEL, "{name} wrote out_count although it failed");
    changes(w, || blast(center, 1.0, 3.0, &mut pushed));
    assert!(pushed >= 4, "{name}: the body of 4 is within 3 m: {pushed}");

    // The cloth's vertices in double precision: NULL, ids, kind, strides,
    // too small.
    let name = "sinew_cloth_write_vertices_d";
    let mut buffer = vec![0xA5u8; 9 * 36];
    let (p, nrm) = (buffer.as_mut_ptr(), buffer[24..].as_mut_ptr());
    let mut count = U32_SENTINEL;
    let write = |id, ps, ns, cap, out| unsafe { sinew_cloth_write_vertices_d(w, id, p, ps, nrm, ns, cap, out) };
    refused(w, name, null_arg, || unsafe {
        sinew_cloth_write_vertices_d(ptr::null(), cloth, p, 36, nrm, 36, 9, &mut count)
    });
    refused(w, name, null_arg, || unsafe {
        sinew_cloth_write_vertices_d(w, cloth, ptr::null_mut(), 36, ptr::null_mut(), 36, 9, &mut count)
    });
    for id in s.bad_bodies() {
        refused(w, name, SINEW_RESULT_INVALID_ID, || write(id, 36, 36, 9, &mut count));
    }
    for id in [s.particles, s.ragdoll, s.rigid] {
        refused(w, name, SINEW_RESULT_WRONG_KIND, || write(id, 36, 36, 9, &mut count));
    }
    for (ps, ns) in [(23, 36), (12, 36), (0, 36), (36, 11), (usize::MAX, 36), (36, usize::MAX / 2)] {
        refused(w, name, invalid, || write(cloth, ps, ns, 9, &mut count));
    }
    assert_eq!(count, U32_SENTINEL, "{name} wrote out_count although it failed");
    refused(w, name, SINEW_RESULT_BUFFER_TOO_SMALL, || write(cloth, 36, 36, 8, &mut count));
    assert_eq!(count, 9, "{name} stores the count needed");
    assert!(buffer.iter().all(|&b| b == 0xA5), "{name} wrote into a too small buffer");
    // Positions alone at stride 24: the particles' exact places.
    let mut alone = [VEC_SENTINEL; 9];
    ok(unsafe {
        sinew_cloth_write_vertices_d(w, cloth, alone.as_mut_ptr().cast(), 24, ptr::null_mut(), 0, 9, ptr::null_mut())
    });
    let mut x = [VEC_SENTINEL; 9];
    ok(unsafe { sinew_body_read_positions_d(w, cloth, x.as_mut_ptr(), 9, ptr::null_mut()) });
    assert_eq!(alone, x);
    // Measured 0 to 0.2 m along x (three columns 0.1 m apart).
    assert!(x.iter().all(|p| (p.x - (FAR - 4.0)).abs() < 1.0), "{x:?}");
}
