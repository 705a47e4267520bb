use sinew::ffi::*;
use std::ptr;
fn msg() -> String {
    let n = unsafe { sinew_last_error_message(ptr::null_mut(), 0) };
    let mut b = vec![0u8; n + 1];
    unsafe { sinew_last_error_message(b.as_mut_ptr().cast(), b.len()) };
    b.truncate(n);
    String::from_utf8(b).unwrap()
}
fn world() -> (*mut SinewWorld, SinewBodyId) {
    let def = sinew_default_world_def();
    let mut w = ptr::null_mut();
    assert_eq!(unsafe { sinew_world_create(&def, &mut w) }, 0);
    let pos = [SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }, SinewVec3 { x: 1.0, y: 1.0, z: 0.0 }];
    let mut b = SinewBodyId::default();
    assert_eq!(unsafe { sinew_body_create_particles(w, pos.as_ptr(), ptr::null(), 2, &mut b) }, 0);
    let c = SinewDistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 };
    assert_eq!(unsafe { sinew_body_add_distance_constraints(w, b, &c, 1) }, 0);
    (w, b)
}
fn dump(w: *mut SinewWorld, b: SinewBodyId, label: &str) {
    let mut p = [SinewVec3::default(); 2];
    let mut v = [SinewVec3::default(); 2];
    unsafe {
        sinew_body_read_positions(w, b, p.as_mut_ptr(), 2, ptr::null_mut());
        sinew_body_read_velocities(w, b, v.as_mut_ptr(), 2, ptr::null_mut());
    }
    let mut size = 0;
    unsafe { sinew_world_snapshot(w, ptr::null_mut(), 0, &mut size) };
    let mut img = vec![0u8; size];
    unsafe { sinew_world_snapshot(w, img.as_mut_ptr(), size, &mut size) };
    let r = unsafe { sinew_world_restore(w, img.as_ptr(), size) };
    println!("{label}: pos {p:?} vel {v:?} restore-own-snapshot={r} {}", if r != 0 { msg() } else { String::new() });
}
#[test]
fn probe() {
    for dt in [f32::MAX, 1e30, 1e20, 1e10, f32::MIN_POSITIVE, 1e-40, 1e-20] {
        let (w, b) = world();
        unsafe { sinew_world_step(w, 1.0 / 60.0) };
        let r = unsafe { sinew_world_step(w, dt) };
        dump(w, b, &format!("dt={dt:e} r={r}"));
        let r2 = unsafe { sinew_world_step(w, 1.0 / 60.0) };
        dump(w, b, &format!("   then 1/60 r={r2}"));
        let off = SinewVec3 { x: 0.1, y: 0.0, z: 0.0 };
        let r3 = unsafe { sinew_body_move_particles(w, b, 0, &off, 1) };
        dump(w, b, &format!("   move r={r3}"));
        unsafe { sinew_world_destroy(w) };
    }
    // is_valid on NULL world overwrites the last error?
    unsafe { sinew_world_step(ptr::null_mut(), f32::NAN) };
    println!("before: {}", msg());
    unsafe { sinew_body_is_valid(ptr::null(), SinewBodyId::default()) };
    println!("after is_valid(NULL): {}", msg());
    unsafe { sinew_collider_is_valid(ptr::null(), SinewColliderId::default()) };
    println!("after collider_is_valid(NULL): {}", msg());
    // capsule with huge ends
    let (w, _b) = world();
    let mut c = SinewColliderId::default();
    let big = SinewVec3 { x: f32::MAX, y: 0.0, z: 0.0 };
    let r = unsafe { sinew_collider_create_capsule(w, big, big, 1.0, 0.0, &mut c) };
    let mut t = SinewTransform::default();
    unsafe { sinew_collider_get_transform(w, c, &mut t) };
    println!("capsule MAX r={r} transform {t:?}");
    // huge but finite positions
    let huge = SinewVec3 { x: 3e38, y: 3e38, z: 0.0 };
    let r = unsafe { sinew_body_set_positions(w, _b, 0, &huge, 1) };
    let r2 = unsafe { sinew_world_step(w, 1.0 / 60.0) };
    dump(w, _b, &format!("huge pos r={r} step={r2}"));
    unsafe { sinew_world_destroy(w) };
}
