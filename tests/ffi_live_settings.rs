//! The settings a live world takes through the C API (substeps, iterations,
//! sleeping, SIMD level, worker count), and the constraint counts read back
//! (`sinew_world_constraint_count`, `sinew_body_constraint_count`): what the
//! samples app's panel changes and shows while a scene runs.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): each world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or points
//! to a live local.

use sinew::ffi::*;
use std::ptr;

const DT: f32 = 1.0 / 60.0;
const SENTINEL: u32 = 0xDEAD_BEEF;
/// Counted by `max_constraints` for the humanoid preset (sinew.h).
const HUMANOID_CONSTRAINTS: u32 = 236;

#[track_caller]
fn ok(code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_OK);
}

fn world(def: SinewWorldDef) -> *mut SinewWorld {
    let mut w = ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut w) });
    w
}

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// A ground plane, a humanoid standing on it and a triangle of three
/// particles joined by three sticks.
fn scene(w: *mut SinewWorld) -> (SinewBodyId, SinewBodyId) {
    let mut ground = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_plane(w, v(0.0, 1.0, 0.0), 0.0, 0.8, &mut ground) });
    let root = SinewTransform { position: v(0.0, 0.0, 0.0), rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 } };
    let mut doll = SinewBodyId::default();
    ok(unsafe { sinew_ragdoll_create_humanoid(w, root, 1.8, &mut doll) });
    let points = [v(2.0, 1.0, 0.0), v(2.5, 1.0, 0.0), v(2.0, 1.5, 0.0)];
    let mut triangle = SinewBodyId::default();
    ok(unsafe { sinew_body_create_particles(w, points.as_ptr(), ptr::null(), 3, &mut triangle) });
    let sticks =
        [(0, 1), (1, 2), (2, 0)].map(|(a, b)| SinewDistanceConstraint { a, b, rest_length: -1.0, compliance: 0.0 });
    ok(unsafe { sinew_body_add_distance_constraints(w, triangle, sticks.as_ptr(), 3) });
    (doll, triangle)
}

fn world_constraints(w: *const SinewWorld) -> u32 {
    let mut n = SENTINEL;
    ok(unsafe { sinew_world_constraint_count(w, &mut n) });
    n
}

fn body_constraints(w: *const SinewWorld, body: SinewBodyId) -> Result<u32, SinewResult> {
    let mut n = SENTINEL;
    let code = unsafe { sinew_body_constraint_count(w, body, &mut n) };
    if code == SINEW_RESULT_OK {
        Ok(n)
    } else {
        assert_eq!(n, SENTINEL, "a refused call wrote its output");
        Err(code)
    }
}

fn hash(w: *const SinewWorld) -> u64 {
    let mut h = 0;
    ok(unsafe { sinew_world_state_hash(w, &mut h) });
    h
}

fn get_def(w: *const SinewWorld) -> SinewWorldDef {
    let mut def = sinew_default_world_def();
    ok(unsafe { sinew_world_get_def(w, &mut def) });
    def
}

fn recoveries(w: *const SinewWorld) -> u64 {
    let mut n = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut n) });
    n
}

#[test]
fn constraint_counts_match_what_the_scene_built() {
    let w = world(sinew_default_world_def());
    assert_eq!(world_constraints(w), 0);
    let (doll, triangle) = scene(w);
    assert_eq!(body_constraints(w, doll), Ok(HUMANOID_CONSTRAINTS));
    assert_eq!(body_constraints(w, triangle), Ok(3));
    assert_eq!(world_constraints(w), HUMANOID_CONSTRAINTS + 3);
    // Stepping (contacts come and go) changes no count.
    for _ in 0..30 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    assert_eq!(world_constraints(w), HUMANOID_CONSTRAINTS + 3);

    // A destroyed body: its id is stale, its constraints are gone.
    ok(unsafe { sinew_body_destroy(w, triangle) });
    assert_eq!(body_constraints(w, triangle), Err(SINEW_RESULT_INVALID_ID));
    assert_eq!(world_constraints(w), HUMANOID_CONSTRAINTS);
    // A null id, and a live id of another world.
    assert_eq!(body_constraints(w, SinewBodyId::default()), Err(SINEW_RESULT_INVALID_ID));
    let other = world(sinew_default_world_def());
    let (foreign, _) = scene(other);
    assert_eq!(body_constraints(w, foreign), Err(SINEW_RESULT_INVALID_ID));
    assert_eq!(body_constraints(other, foreign), Ok(HUMANOID_CONSTRAINTS));

    // NULL world, NULL output.
    let mut n = SENTINEL;
    assert_eq!(unsafe { sinew_world_constraint_count(ptr::null(), &mut n) }, SINEW_RESULT_NULL_ARGUMENT);
    assert_eq!(unsafe { sinew_world_constraint_count(w, ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);
    assert_eq!(unsafe { sinew_body_constraint_count(ptr::null(), doll, &mut n) }, SINEW_RESULT_NULL_ARGUMENT);
    assert_eq!(unsafe { sinew_body_constraint_count(w, doll, ptr::null_mut()) }, SINEW_RESULT_NULL_ARGUMENT);
    assert_eq!(n, SENTINEL, "a refused call wrote its output");
    assert_eq!((recoveries(w), recoveries(other)), (0, 0));
    unsafe {
        sinew_world_destroy(w);
        sinew_world_destroy(other);
    }
}

#[test]
fn live_settings_are_refused_out_of_range_and_change_nothing() {
    let w = world(sinew_default_world_def());
    scene(w);
    let before = (hash(w), get_def(w));
    let refused = [
        ("substeps 0", unsafe { sinew_world_set_substeps(w, 0) }),
        ("substeps 1025", unsafe { sinew_world_set_substeps(w, 1025) }),
        ("iterations 0", unsafe { sinew_world_set_iterations(w, 0) }),
        ("iterations 1025", unsafe { sinew_world_set_iterations(w, 1025) }),
        ("sleep speed NaN", unsafe { sinew_world_set_sleep(w, f32::NAN, 1.0) }),
        ("sleep time -1", unsafe { sinew_world_set_sleep(w, 0.02, -1.0) }),
        ("sleep time inf", unsafe { sinew_world_set_sleep(w, 0.02, f32::INFINITY) }),
        ("SIMD level 5", unsafe { sinew_world_set_simd_level(w, 5) }),
        ("workers 0", unsafe { sinew_world_set_worker_count(w, 0) }),
        ("workers 65", unsafe { sinew_world_set_worker_count(w, 65) }),
    ];
    for (what, code) in refused {
        assert_eq!(code, SINEW_RESULT_INVALID_ARGUMENT, "{what}");
    }
    let after = (hash(w), get_def(w));
    assert_eq!(after.0, before.0);
    assert!(after.1 == before.1, "a refused setter changed the def");
    let nulls = [
        unsafe { sinew_world_set_substeps(ptr::null_mut(), 4) },
        unsafe { sinew_world_set_iterations(ptr::null_mut(), 2) },
        unsafe { sinew_world_set_sleep(ptr::null_mut(), 0.0, 1.0) },
        unsafe { sinew_world_set_simd_level(ptr::null_mut(), SINEW_SIMD_SCALAR) },
        unsafe { sinew_world_set_worker_count(ptr::null_mut(), 2) },
    ];
    assert!(nulls.iter().all(|&c| c == SINEW_RESULT_NULL_ARGUMENT), "{nulls:?}");
    unsafe { sinew_world_destroy(w) };
}

/// A world changed live steps to the same bits as one created with those
/// settings; the def and the SIMD level read back what was set.
#[test]
fn live_settings_take_effect_from_the_next_step() {
    let def = SinewWorldDef { substeps: 3, iterations: 2, sleep_speed: 0.0, ..sinew_default_world_def() };
    let made = world(def);
    scene(made);
    let changed = world(sinew_default_world_def());
    scene(changed);
    ok(unsafe { sinew_world_set_substeps(changed, 3) });
    ok(unsafe { sinew_world_set_iterations(changed, 2) });
    ok(unsafe { sinew_world_set_sleep(changed, 0.0, 1.0) });
    ok(unsafe { sinew_world_set_simd_level(changed, SINEW_SIMD_SCALAR) });
    ok(unsafe { sinew_world_set_worker_count(changed, 2) });
    let got = get_def(changed);
    assert_eq!((got.substeps, got.iterations, got.sleep_speed, got.sleep_time), (3, 2, 0.0, 1.0));
    assert_eq!((got.simd_level, got.worker_count), (SINEW_SIMD_SCALAR, 2));
    let mut level = SENTINEL;
    ok(unsafe { sinew_world_get_simd_level(changed, &mut level) });
    assert_eq!(level, SINEW_SIMD_SCALAR);
    for frame in 0..90 {
        ok(unsafe { sinew_world_step(made, DT) });
        ok(unsafe { sinew_world_step(changed, DT) });
        assert_eq!(hash(made), hash(changed), "frame {frame}");
        if frame == 45 {
            // Back to one worker and the best SIMD: the same bits still.
            ok(unsafe { sinew_world_set_worker_count(changed, 1) });
            ok(unsafe { sinew_world_set_simd_level(changed, SINEW_SIMD_AUTO) });
        }
    }
    assert_eq!((recoveries(made), recoveries(changed)), (0, 0));
    unsafe {
        sinew_world_destroy(made);
        sinew_world_destroy(changed);
    }
}

/// Sleeping turned off wakes the bodies asleep; turned on, they fall asleep again.
#[test]
fn sleeping_turned_off_wakes_every_body() {
    let def = SinewWorldDef { sleep_time: 0.2, ..sinew_default_world_def() };
    let w = world(def);
    let (doll, _) = scene(w);
    let asleep = |w: *const SinewWorld| {
        let mut s = SENTINEL;
        ok(unsafe { sinew_body_is_sleeping(w, doll, &mut s) });
        s == 1
    };
    ok(unsafe { sinew_body_set_sleeping(w, doll, 1) });
    assert!(asleep(w));
    ok(unsafe { sinew_world_set_sleep(w, 0.0, 0.2) });
    assert!(!asleep(w), "sleep_speed 0 left a body asleep");
    for _ in 0..120 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    assert!(!asleep(w), "a body fell asleep with sleeping off");
    ok(unsafe { sinew_world_set_sleep(w, 10.0, 0.2) });
    for _ in 0..30 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    assert!(asleep(w), "with a high sleep speed the humanoid did not fall asleep");
    assert_eq!(recoveries(w), 0);
    unsafe { sinew_world_destroy(w) };
}
