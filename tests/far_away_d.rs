//! The double-precision C path (`_d` calls): a scene built, stepped and read
//! back through them 1, 10 and 100 km from the world's origin moves as the
//! same scene at the origin, at 1, 8 and 32 substeps. The far colliders are
//! kept relative to a grid point near them (`Collider::origin`), so a box or
//! capsule placed 10 km out meets a body as it does at the origin, not
//! rounded to the 1 mm of a world `f32` there.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer points to a
//! live local or array holding at least the count passed.

use sinew::ffi::*;
use std::ptr;

const DT: f32 = 1.0 / 60.0;
const IDENTITY: SinewQuat = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };

#[track_caller]
fn ok(code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_OK, "expected OK, got {code}");
}

fn d(x: f64, y: f64, z: f64) -> SinewVec3d {
    SinewVec3d { x, y, z }
}

fn add(a: SinewVec3d, b: [f64; 3]) -> SinewVec3d {
    d(a.x + b[0], a.y + b[1], a.z + b[2])
}

fn sub(a: SinewVec3d, b: SinewVec3d) -> [f64; 3] {
    [a.x - b.x, a.y - b.y, a.z - b.z]
}

/// A rotation of `angle` about the unit `axis`.
fn quat(axis: [f32; 3], angle: f32) -> SinewQuat {
    let (s, c) = (angle * 0.5).sin_cos();
    SinewQuat { x: axis[0] * s, y: axis[1] * s, z: axis[2] * s, w: c }
}

/// Where everything of the scene is after `steps` steps, relative to the
/// scene's offset: the particle, the rigid box's transform, every bone, and
/// the moving capsule's frame; and the world's recoveries.
struct Outcome {
    points: Vec<[f64; 3]>,
    rotations: Vec<[f32; 4]>,
    recoveries: u64,
}

/// A box floor (tilted a little, so things slide), a capsule rail the engine
/// moves, a particle, a rigid box and a humanoid dropped on them, all `at`
/// from the origin, placed, moved and read with the `_d` calls.
fn scene(at: SinewVec3d, substeps: u32, steps: u32) -> Outcome {
    scene_at_level(at, substeps, steps, SINEW_SIMD_AUTO).0
}

/// [`scene`] at a SIMD level (clamped to the CPU's), and the level it ran at.
fn scene_at_level(at: SinewVec3d, substeps: u32, steps: u32, simd_level: u32) -> (Outcome, u32) {
    let def = SinewWorldDef { substeps, simd_level, ..sinew_default_world_def() };
    let mut world = ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut world) });
    let w = world;
    let mut c = SinewColliderId::default();
    let floor = SinewTransformd { position: add(at, [0.0, -0.5, 0.0]), rotation: quat([0.0, 0.0, 1.0], 0.05) };
    ok(unsafe { sinew_collider_create_box_d(w, floor, SinewVec3 { x: 6.0, y: 0.5, z: 6.0 }, 0.4, &mut c) });
    let mut rail = SinewColliderId::default();
    let (ra, rb) = (add(at, [-1.0, 0.2, -2.0]), add(at, [1.0, 0.2, -2.0]));
    ok(unsafe { sinew_collider_create_capsule_d(w, ra, rb, 0.2, 0.5, &mut rail) });

    let mut particle = SinewBodyId::default();
    let p = [add(at, [-2.0, 1.0, 1.0])];
    ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 1, &mut particle) });
    ok(unsafe { sinew_body_set_particle_radius(w, particle, 0.05) });
    // A second particle dropped on the rail.
    let mut on_rail = SinewBodyId::default();
    let p = [add(at, [0.3, 1.0, -2.0])];
    ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 1, &mut on_rail) });
    ok(unsafe { sinew_body_set_particle_radius(w, on_rail, 0.05) });

    let mut rigid = SinewBodyId::default();
    let rdef = SinewRigidDef {
        shape: SINEW_SHAPE_BOX,
        half_extents: SinewVec3 { x: 0.2, y: 0.15, z: 0.25 },
        transform: SinewTransform { position: SinewVec3::default(), rotation: quat([0.6, 0.0, 0.8], 0.7) },
        ..sinew_default_rigid_def()
    };
    ok(unsafe { sinew_rigid_create_d(w, &rdef, add(at, [2.0, 1.2, 0.5]), &mut rigid) });

    let mut ragdoll = SinewBodyId::default();
    let root = SinewTransformd { position: add(at, [0.0, 0.6, 2.0]), rotation: quat([1.0, 0.0, 0.0], 1.4) };
    ok(unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, &mut ragdoll) });

    for k in 0..steps {
        // The rail slides along x and back: an engine-moved collider.
        let s = f64::from(k) * f64::from(DT);
        let shift = 0.5 * (s * 2.0).sin();
        let t = SinewTransformd { position: add(at, [shift, 0.2, -2.0]), rotation: IDENTITY };
        ok(unsafe { sinew_collider_set_transform_d(w, rail, t) });
        ok(unsafe { sinew_world_step(w, DT) });
    }

    let mut points = Vec::new();
    let mut rotations = Vec::new();
    for body in [particle, on_rail] {
        let mut x = [SinewVec3d::default(); 1];
        ok(unsafe { sinew_body_read_positions_d(w, body, x.as_mut_ptr(), 1, ptr::null_mut()) });
        points.push(sub(x[0], at));
    }
    let mut t = SinewTransformd::default();
    ok(unsafe { sinew_rigid_read_transform_d(w, rigid, &mut t) });
    points.push(sub(t.position, at));
    rotations.push([t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w]);
    let mut n = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, ragdoll, &mut n) });
    let mut bones = vec![SinewTransformd::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, ragdoll, bones.as_mut_ptr(), n, ptr::null_mut()) });
    for b in &bones {
        points.push(sub(b.position, at));
        rotations.push([b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w]);
    }
    ok(unsafe { sinew_collider_get_transform_d(w, rail, &mut t) });
    points.push(sub(t.position, at));
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    let mut level = 0;
    ok(unsafe { sinew_world_get_simd_level(w, &mut level) });
    unsafe { sinew_world_destroy(w) };
    (Outcome { points, rotations, recoveries }, level)
}

/// Offsets on the 4 m grid: there the scene is the origin's, bit for bit.
const ON_GRID: [[f64; 3]; 3] = [[1_000.0, 0.0, -1_000.0], [10_000.0, 8.0, -10_000.0], [100_000.0, -40.0, 100_000.0]];

/// Offsets off the grid, each with its twin near the origin (the same
/// offset less a multiple of the 4 m grid): a scene off the grid starts
/// rounded to `f32` at the size of its bodies, so it parts from the one at
/// the origin by that rounding, amplified by the tumbling contacts; but
/// it moves as its twin near the origin does, whatever the distance.
const OFF_GRID: [([f64; 3], [f64; 3]); 3] = [
    ([1_000.3, 0.0, -999.7], [0.3, 0.0, 0.3]),
    ([10_000.123, 7.75, -10_001.5], [0.123, -0.25, -1.5]),
    ([99_998.6, -40.25, 100_002.9], [-1.4, -0.25, 2.9]),
];

fn worst(a: &Outcome, b: &Outcome) -> (f64, f32) {
    let dx = a.points.iter().zip(&b.points).flat_map(|(p, q)| (0..3).map(move |k| (p[k] - q[k]).abs()));
    let dq = a.rotations.iter().zip(&b.rotations).flat_map(|(p, q)| (0..4).map(move |k| (p[k] - q[k]).abs()));
    (dx.fold(0.0, f64::max), dq.fold(0.0, f32::max))
}

#[test]
fn a_scene_far_away_through_the_d_calls_moves_as_at_the_origin() {
    for substeps in [1, 8, 32] {
        let home = scene(d(0.0, 0.0, 0.0), substeps, 90);
        assert_eq!(home.recoveries, 0, "{substeps} substeps");
        // The particle rests on the floor, the rigid box on it, the
        // ragdoll's pelvis near it, the rail's particle on the rail.
        let floor_top = |x: f64| x * 0.05_f64.tan();
        let [x, y, _] = home.points[0];
        assert!((y - floor_top(x)).abs() < 0.1, "{substeps}: the particle at {:?}", home.points[0]);
        assert!(home.points[1][1] > 0.3, "{substeps}: the rail holds its particle: {:?}", home.points[1]);
        assert!(home.points[2][1] < 0.5 && home.points[2][1] > 0.0, "{substeps}: the box at {:?}", home.points[2]);
        for at in ON_GRID {
            let far = scene(d(at[0], at[1], at[2]), substeps, 90);
            assert_eq!(far.recoveries, 0, "{substeps} substeps at {at:?}");
            let (dx, dq) = worst(&home, &far);
            println!("{substeps:2} substeps, {at:?}: {dx:.1e} m, {dq:.1e} apart");
            assert_eq!(far.points, home.points, "{substeps} substeps at {at:?}: on the grid, the same bits");
            assert_eq!(far.rotations, home.rotations, "{substeps} substeps at {at:?}");
        }
        for (at, twin) in OFF_GRID {
            let far = scene(d(at[0], at[1], at[2]), substeps, 90);
            let near = scene(d(twin[0], twin[1], twin[2]), substeps, 90);
            assert_eq!((far.recoveries, near.recoveries), (0, 0), "{substeps} substeps at {at:?}");
            let (dx, dq) = worst(&near, &far);
            let (hx, hq) = worst(&home, &far);
            println!(
                "{substeps:2} substeps, {at:?}: {dx:.1e} m, {dq:.1e} from its twin at {twin:?}; \
                 {hx:.1e} m, {hq:.1e} from the scene at the origin"
            );
            // The offsets differ from the twin's by the f64 rounding of
            // `at - twin` (1e-11 m), far below an f32 ulp of the bodies.
            assert!(dx < 1e-9 && dq < 1e-9, "{substeps} substeps at {at:?}: {dx:e} m, {dq:e} from its twin");
            // The rail is moved by the engine: its place is exact.
            let rail = far.points.len() - 1;
            let e = (0..3).map(|i| (far.points[rail][i] - home.points[rail][i]).abs()).fold(0.0, f64::max);
            assert!(e < 1e-6, "{substeps} substeps at {at:?}: the rail is {e:e} m from the origin's");
        }
    }
}

/// The same drop through the `f32` calls 10 km up rests off the origin's
/// by the rounding of a world `f32` there (half a millimetre); through the
/// `_d` calls it rests at the same height, bit for bit.
#[test]
fn the_d_calls_rest_a_particle_10_km_up_as_at_the_origin() {
    let make = |at: f32| {
        let def = SinewWorldDef { substeps: 8, ..sinew_default_world_def() };
        let mut w = ptr::null_mut();
        ok(unsafe { sinew_world_create(&def, &mut w) });
        let mut c = SinewColliderId::default();
        let floor = SinewTransform { position: SinewVec3 { x: 0.0, y: at - 0.5003, z: 0.0 }, rotation: IDENTITY };
        ok(unsafe { sinew_collider_create_box(w, floor, SinewVec3 { x: 4.0, y: 0.5, z: 4.0 }, 0.4, &mut c) });
        let mut b = SinewBodyId::default();
        let p = [SinewVec3 { x: 0.1, y: at + 1.0, z: 0.0 }];
        ok(unsafe { sinew_body_create_particles(w, p.as_ptr(), ptr::null(), 1, &mut b) });
        for _ in 0..60 {
            ok(unsafe { sinew_world_step(w, DT) });
        }
        let mut x = [SinewVec3d::default()];
        ok(unsafe { sinew_body_read_positions_d(w, b, x.as_mut_ptr(), 1, ptr::null_mut()) });
        let mut r = u64::MAX;
        ok(unsafe { sinew_world_recovery_count(w, &mut r) });
        assert_eq!(r, 0);
        unsafe { sinew_world_destroy(w) };
        x[0].y - f64::from(at)
    };
    let (home, far) = (make(0.0), make(10_000.0));
    println!("resting height through the f32 calls: {home} at the origin, {far} 10 km up");
    // The floor's top at 9999.4997 m rounds to 9999.4995 or .5005 in f32.
    assert!((far - home).abs() > 1e-4, "the f32 calls: {far} 10 km up, {home} at the origin");
    let make_d = |at: f64| {
        let def = SinewWorldDef { substeps: 8, ..sinew_default_world_def() };
        let mut w = ptr::null_mut();
        ok(unsafe { sinew_world_create(&def, &mut w) });
        let mut c = SinewColliderId::default();
        let floor = SinewTransformd { position: d(0.0, at - 0.5003, 0.0), rotation: IDENTITY };
        ok(unsafe { sinew_collider_create_box_d(w, floor, SinewVec3 { x: 4.0, y: 0.5, z: 4.0 }, 0.4, &mut c) });
        let mut b = SinewBodyId::default();
        let p = [d(0.1, at + 1.0, 0.0)];
        ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 1, &mut b) });
        for _ in 0..60 {
            ok(unsafe { sinew_world_step(w, DT) });
        }
        let mut x = [SinewVec3d::default()];
        ok(unsafe { sinew_body_read_positions_d(w, b, x.as_mut_ptr(), 1, ptr::null_mut()) });
        let mut r = u64::MAX;
        ok(unsafe { sinew_world_recovery_count(w, &mut r) });
        assert_eq!(r, 0);
        unsafe { sinew_world_destroy(w) };
        x[0].y - at
    };
    let (home_d, far_d) = (make_d(0.0), make_d(10_000.0));
    println!("through the _d calls: {home_d} at the origin, {far_d} 10 km up");
    assert_eq!(home_d.to_bits(), far_d.to_bits(), "the _d calls: the same height 10 km out");
    assert!((home_d - f64::from(-0.0003f32)).abs() < 1e-3);
}

/// A two-bone ragdoll from a def relative to the scene's origin, a mesh
/// cloth held near its skin, and a humanoid put into a pose 3 m above its
/// place with the pose's motion, all through the `_d` calls, on a box
/// floor: every particle relative to `at` after 1.5 s, and the recoveries.
fn posed_scene(at: SinewVec3d, substeps: u32) -> (Vec<[f64; 3]>, u64) {
    let def = SinewWorldDef { substeps, ..sinew_default_world_def() };
    let mut w = ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut w) });
    let mut c = SinewColliderId::default();
    let floor = SinewTransformd { position: add(at, [0.0, -0.5, 0.0]), rotation: IDENTITY };
    ok(unsafe { sinew_collider_create_box_d(w, floor, SinewVec3 { x: 6.0, y: 0.5, z: 6.0 }, 0.5, &mut c) });

    let mut bones = [sinew_default_bone_def(), SinewBoneDef { parent: 0, ..sinew_default_bone_def() }];
    bones[0].rest.position = SinewVec3 { x: 1.0, y: 1.0, z: 0.0 };
    bones[0].length = 0.3;
    bones[1].rest.position = SinewVec3 { x: 1.0, y: 1.3, z: 0.0 };
    bones[1].length = 0.3;
    let rdef = SinewRagdollDef { bones: bones.as_ptr(), bone_count: 2, ..sinew_default_ragdoll_def() };
    let mut limb = SinewBodyId::default();
    ok(unsafe { sinew_ragdoll_create_d(w, &rdef, at, &mut limb) });

    let verts: Vec<SinewVec3> =
        (0..9).map(|k| SinewVec3 { x: 0.25 * (k % 3) as f32, y: 0.0, z: 0.25 * (k / 3) as f32 }).collect();
    let tris: [u32; 24] = [0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7];
    let mesh = SinewClothMeshDef {
        vertices: verts.as_ptr(),
        vertex_count: 9,
        indices: tris.as_ptr(),
        triangle_count: 8,
        ..sinew_default_cloth_mesh_def()
    };
    let mut cloth = SinewBodyId::default();
    ok(unsafe { sinew_cloth_create_d(w, &mesh, add(at, [-2.0, 1.0, -2.0]), &mut cloth) });
    let skin: Vec<SinewVec3d> =
        verts.iter().map(|p| add(at, [-2.0 + f64::from(p.x), 0.9, -2.0 + f64::from(p.z)])).collect();
    let up = [SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }; 9];
    ok(unsafe { sinew_cloth_set_skin_d(w, cloth, skin.as_ptr(), up.as_ptr(), 9) });
    let max = [0.3f32; 9];
    ok(unsafe { sinew_cloth_set_max_distances(w, cloth, max.as_ptr(), ptr::null(), 9) });

    let mut humanoid = SinewBodyId::default();
    let root = SinewTransformd { position: add(at, [2.0, 0.0, 1.0]), rotation: IDENTITY };
    ok(unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, &mut humanoid) });
    let mut n = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, humanoid, &mut n) });
    let mut pose = vec![SinewTransformd::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, humanoid, pose.as_mut_ptr(), n, ptr::null_mut()) });
    // Lifted 3 m, moving down at 1 m/s.
    let lifted: Vec<SinewTransformd> =
        pose.iter().map(|b| SinewTransformd { position: add(b.position, [0.0, 3.0, 0.0]), ..*b }).collect();
    let before: Vec<SinewTransformd> =
        pose.iter().map(|b| SinewTransformd { position: add(b.position, [0.0, 3.0 + DT as f64, 0.0]), ..*b }).collect();
    ok(unsafe { sinew_ragdoll_set_pose_d(w, humanoid, lifted.as_ptr(), before.as_ptr(), n, DT) });

    for _ in 0..90 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    let mut out = Vec::new();
    for body in [limb, cloth, humanoid] {
        let mut count = 0;
        ok(unsafe { sinew_body_read_positions_d(w, body, ptr::null_mut(), 0, &mut count) });
        let mut x = vec![SinewVec3d::default(); count as usize];
        ok(unsafe { sinew_body_read_positions_d(w, body, x.as_mut_ptr(), count, ptr::null_mut()) });
        out.extend(x.iter().map(|&p| sub(p, at)));
    }
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    unsafe { sinew_world_destroy(w) };
    (out, recoveries)
}

#[test]
fn a_posed_ragdoll_a_def_ragdoll_and_a_skinned_mesh_cloth_far_away_move_as_at_the_origin() {
    for substeps in [1, 8, 32] {
        let (home, recoveries) = posed_scene(d(0.0, 0.0, 0.0), substeps);
        assert_eq!(recoveries, 0, "{substeps} substeps");
        // Everything fell onto the floor (the humanoid from 3 m up).
        let lowest = home.iter().map(|x| x[1]).fold(f64::INFINITY, f64::min);
        let highest = home.iter().map(|x| x[1]).fold(f64::NEG_INFINITY, f64::max);
        assert!(lowest > -0.3 && highest < 1.2, "{substeps} substeps: heights {lowest} .. {highest}");
        for at in ON_GRID {
            let (far, recoveries) = posed_scene(d(at[0], at[1], at[2]), substeps);
            assert_eq!(recoveries, 0, "{substeps} substeps at {at:?}");
            assert_eq!(far, home, "{substeps} substeps at {at:?}: on the grid, the same bits");
        }
        println!("{substeps:2} substeps: posed, def and cloth scenes far away have the origin's bits");
    }
}

/// Every SIMD level this CPU has gives the same bits, at the origin and
/// 10 km out (the scene's contacts, rigid fit and ragdoll lanes included).
#[test]
fn every_simd_level_gives_the_same_bits_far_away() {
    let (reference, _) = scene_at_level(d(0.0, 0.0, 0.0), 8, 60, SINEW_SIMD_SCALAR);
    let mut seen = Vec::new();
    for level in [SINEW_SIMD_SCALAR, SINEW_SIMD_SSE2, SINEW_SIMD_AVX2, SINEW_SIMD_AVX512] {
        for at in [d(0.0, 0.0, 0.0), d(10_000.0, 8.0, -10_000.0)] {
            let (o, ran) = scene_at_level(at, 8, 60, level);
            assert_eq!(o.recoveries, 0);
            assert_eq!(o.points, reference.points, "level {ran} at {at:?}");
            assert_eq!(o.rotations, reference.rotations, "level {ran} at {at:?}");
            seen.push(ran);
        }
    }
    seen.dedup();
    println!("SIMD levels run: {seen:?}");
}

/// A humanoid driven by motors to a pose given in the animation's local
/// space (`sinew_ragdoll_set_motor_targets_local_d`: the root in world
/// space, every other bone in its parent's frame), one arm raised: 10 km
/// out it moves as at the origin, and there as through the `f32` call.
fn motored(at: SinewVec3d, through_f32: bool) -> Vec<[f64; 3]> {
    let mut w = ptr::null_mut();
    ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut w) });
    let mut c = SinewColliderId::default();
    let floor = SinewTransformd { position: add(at, [0.0, -0.5, 0.0]), rotation: IDENTITY };
    ok(unsafe { sinew_collider_create_box_d(w, floor, SinewVec3 { x: 4.0, y: 0.5, z: 4.0 }, 0.5, &mut c) });
    let mut r = SinewBodyId::default();
    ok(unsafe {
        sinew_ragdoll_create_humanoid_d(w, SinewTransformd { position: at, rotation: IDENTITY }, 1.8, &mut r)
    });
    let mut n = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, r, &mut n) });
    let mut bones = vec![SinewTransformd::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, r, bones.as_mut_ptr(), n, ptr::null_mut()) });
    let mut shapes = vec![SinewBoneShape::default(); n as usize];
    ok(unsafe { sinew_ragdoll_read_bone_shapes(w, r, shapes.as_mut_ptr(), n, ptr::null_mut()) });
    // The rest pose in parent frames (f64 maths on f32 rotations).
    let conj = |q: SinewQuat| SinewQuat { x: -q.x, y: -q.y, z: -q.z, w: q.w };
    let mul = |a: SinewQuat, b: SinewQuat| SinewQuat {
        w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    };
    let rotate = |q: SinewQuat, v: [f64; 3]| {
        let (x, y, z, s) = (f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w));
        let t = [2.0 * (y * v[2] - z * v[1]), 2.0 * (z * v[0] - x * v[2]), 2.0 * (x * v[1] - y * v[0])];
        [
            v[0] + s * t[0] + (y * t[2] - z * t[1]),
            v[1] + s * t[1] + (z * t[0] - x * t[2]),
            v[2] + s * t[2] + (x * t[1] - y * t[0]),
        ]
    };
    let mut local: Vec<SinewTransformd> = bones
        .iter()
        .zip(&shapes)
        .map(|(b, s)| {
            if s.parent < 0 {
                return *b;
            }
            let p = bones[s.parent as usize];
            let x = rotate(conj(p.rotation), sub(b.position, p.position));
            SinewTransformd { position: d(x[0], x[1], x[2]), rotation: mul(conj(p.rotation), b.rotation) }
        })
        .collect();
    // Bone 5, the left upper arm: turned 1.2 rad about the body's z.
    local[5].rotation = mul(local[5].rotation, quat([0.0, 0.0, 1.0], 1.2));
    ok(unsafe { sinew_ragdoll_set_motor_strength(w, r, 1.0, 0.0) });
    for _ in 0..60 {
        if through_f32 {
            let f: Vec<SinewTransform> = local
                .iter()
                .map(|t| SinewTransform {
                    position: SinewVec3 { x: t.position.x as f32, y: t.position.y as f32, z: t.position.z as f32 },
                    rotation: t.rotation,
                })
                .collect();
            ok(unsafe { sinew_ragdoll_set_motor_targets_local(w, r, f.as_ptr(), n) });
        } else {
            ok(unsafe { sinew_ragdoll_set_motor_targets_local_d(w, r, local.as_ptr(), n) });
        }
        ok(unsafe { sinew_world_step(w, DT) });
    }
    ok(unsafe { sinew_ragdoll_read_bones_d(w, r, bones.as_mut_ptr(), n, ptr::null_mut()) });
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    assert_eq!(recoveries, 0);
    unsafe { sinew_world_destroy(w) };
    bones.iter().map(|b| sub(b.position, at)).collect()
}

#[test]
fn local_motor_targets_far_away_drive_as_at_the_origin() {
    let home = motored(d(0.0, 0.0, 0.0), false);
    assert_eq!(motored(d(0.0, 0.0, 0.0), true), home, "the _d call at the origin is the f32 call");
    for at in ON_GRID {
        assert_eq!(motored(d(at[0], at[1], at[2]), false), home, "at {at:?}");
    }
    println!("after 1 s: left hand at {:?}, left upper arm at {:?}", home[7], home[5]);
}

/// A ray hit's particles, weights, normal and distance.
type Ray = ([u32; 3], [f32; 3], [f32; 3], f32);

/// What the `_d` queries and pushes answered in [`queried`], relative to the
/// scene's offset: everything exact but the points computed as `origin +
/// direction * distance` or `frame + point - normal * radius` in `f64`,
/// which round at the offset's ulp (1.5e-11 m at 100 km).
#[derive(Debug, PartialEq)]
struct Answers {
    /// Contacts: particle, other particle, touched a body, normal, depth,
    /// speed (bits).
    contacts: Vec<(u32, u32, bool, [f32; 3], f32, f32)>,
    contact_points: Vec<[f64; 3]>,
    /// Ray hits on bodies and colliders: particles, weights, normal,
    /// distance (bits).
    rays: Vec<Ray>,
    ray_points: Vec<[f64; 3]>,
    /// The nearest particle: index, distance, and its place (exact).
    nearest: (u32, f32, [f64; 3]),
    /// How many particles the explosion pushed.
    pushed: u32,
    /// The cloth's vertices from `sinew_cloth_write_vertices_d` (exact) and
    /// their normals, after the pushes.
    vertices: Vec<[f64; 3]>,
    normals: Vec<[f32; 3]>,
    /// Every particle of every body after the pushes and 30 more steps.
    after: Vec<[f64; 3]>,
}

fn bits3(v: SinewVec3) -> [f32; 3] {
    [v.x, v.y, v.z]
}

/// A box floor, a sphere collider, a pair of particles dropped on a rigid
/// box, a humanoid and a cloth pinned at its top edge, all `at` from the
/// origin through the `_d` calls, stepped 45 times; then every `_d` query
/// and push: the contacts, rays at the humanoid, the rigid box, the cloth,
/// the floor and the sphere, the nearest particle, an impulse at each body
/// hit, one at a bone, one at the rigid box, an explosion, the cloth's
/// vertices, and 30 more steps. Query points are `at` plus dyadic offsets,
/// exact in `f64` however far out.
fn queried(at: SinewVec3d) -> Answers {
    let def = SinewWorldDef { substeps: 8, ..sinew_default_world_def() };
    let mut w = ptr::null_mut();
    ok(unsafe { sinew_world_create(&def, &mut w) });
    let mut floor = SinewColliderId::default();
    let t = SinewTransformd { position: add(at, [0.0, -0.5, 0.0]), rotation: IDENTITY };
    ok(unsafe { sinew_collider_create_box_d(w, t, SinewVec3 { x: 6.0, y: 0.5, z: 6.0 }, 0.5, &mut floor) });
    let mut ball = SinewColliderId::default();
    ok(unsafe { sinew_collider_create_sphere_d(w, add(at, [4.0, 0.75, -3.0]), 0.75, 0.5, &mut ball) });

    let mut rigid = SinewBodyId::default();
    let rdef = SinewRigidDef { half_extents: SinewVec3 { x: 0.3, y: 0.2, z: 0.3 }, ..sinew_default_rigid_def() };
    ok(unsafe { sinew_rigid_create_d(w, &rdef, add(at, [2.0, 0.3, 0.5]), &mut rigid) });
    let mut pair = SinewBodyId::default();
    let p = [add(at, [2.0, 0.9, 0.5]), add(at, [2.125, 1.25, 0.5])];
    ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 2, &mut pair) });
    ok(unsafe { sinew_body_set_particle_radius(w, pair, 0.1) });
    let mut doll = SinewBodyId::default();
    let root = SinewTransformd { position: add(at, [0.0, 0.0, 2.0]), rotation: IDENTITY };
    ok(unsafe { sinew_ragdoll_create_humanoid_d(w, root, 1.8, &mut doll) });
    let mut cloth = SinewBodyId::default();
    let gdef = SinewClothGridDef {
        columns: 4,
        rows: 4,
        spacing: 0.25,
        pin_flags: SINEW_PIN_TOP_EDGE,
        ..sinew_default_cloth_grid_def()
    };
    ok(unsafe { sinew_cloth_create_grid_d(w, &gdef, add(at, [-3.0, 2.0, -2.0]), &mut cloth) });
    for _ in 0..45 {
        ok(unsafe { sinew_world_step(w, DT) });
    }

    // The contacts of the last step.
    let mut n = 0;
    ok(unsafe { sinew_world_read_contacts_d(w, ptr::null_mut(), 0, &mut n) });
    let mut cs = vec![SinewContactd::default(); n as usize];
    ok(unsafe { sinew_world_read_contacts_d(w, cs.as_mut_ptr(), n, &mut n) });
    let contacts = cs
        .iter()
        .map(|c| (c.particle, c.other_particle, c.other_body.index1 != 0, bits3(c.normal), c.depth, c.speed))
        .collect();
    let contact_points = cs.iter().map(|c| sub(c.point, at)).collect();

    // Rays: at the humanoid's chest, down on the rigid box, down on the
    // cloth; at the floor and the sphere. Each body hit is pushed.
    let mut rays = Vec::new();
    let mut ray_points = Vec::new();
    let down = SinewVec3 { x: 0.0, y: -1.0, z: 0.0 };
    let tilted = SinewVec3 { x: 0.125, y: -0.0625, z: 1.0 };
    // The humanoid lies where it fell: the ray goes down on its pelvis.
    let mut bones = 0;
    ok(unsafe { sinew_ragdoll_bone_count(w, doll, &mut bones) });
    let mut bone = vec![SinewTransformd::default(); bones as usize];
    ok(unsafe { sinew_ragdoll_read_bones_d(w, doll, bone.as_mut_ptr(), bones, ptr::null_mut()) });
    let over = |p: SinewVec3d| d(p.x, at.y + 3.0, p.z);
    let froms = [over(bone[0].position), add(at, [2.0625, 3.0, 0.4375]), add(at, [-2.625, 1.625, -4.0])];
    for (from, dir) in froms.into_iter().zip([down, down, tilted]) {
        let mut hit = SinewRayHitd::default();
        ok(unsafe { sinew_world_raycast_d(w, from, dir, f32::INFINITY, u32::MAX, &mut hit) });
        assert_eq!(hit.hit, 1, "a ray from {from:?} at {at:?}");
        let particles = [hit.particle_a, hit.particle_b, hit.particle_c];
        rays.push((particles, [hit.weight_a, hit.weight_b, hit.weight_c], bits3(hit.normal), hit.distance));
        ray_points.push(sub(hit.point, at));
        ok(unsafe { sinew_body_apply_hit_impulse_d(w, &hit, SinewVec3 { x: 0.5, y: 1.0, z: -0.25 }) });
    }
    for (from, dir) in [([0.5, 4.0, -0.5], down), ([4.0, 0.875, 0.0], SinewVec3 { x: 0.0, y: 0.0, z: -1.0 })] {
        let mut hit = SinewColliderHitd::default();
        ok(unsafe { sinew_world_raycast_colliders_d(w, add(at, from), dir, 100.0, u32::MAX, &mut hit) });
        assert_eq!(hit.hit, 1, "a ray from {from:?} at {at:?}");
        rays.push(([0; 3], [0.0; 3], bits3(hit.normal), hit.distance));
        ray_points.push(sub(hit.point, at));
    }

    let mut near = SinewParticleHitd::default();
    ok(unsafe { sinew_world_nearest_particle_d(w, add(at, [2.25, 1.0, 0.5]), 2.0, u32::MAX, &mut near) });
    assert_eq!(near.hit, 1);
    let nearest = (near.particle, near.distance, sub(near.position, at));

    // A push at a bone's head (where the bone is) and at the rigid box's
    // corner; an explosion by the humanoid.
    ok(unsafe { sinew_ragdoll_read_bones_d(w, doll, bone.as_mut_ptr(), bones, ptr::null_mut()) });
    ok(unsafe { sinew_ragdoll_apply_impulse_d(w, doll, 2, bone[2].position, SinewVec3 { x: 0.0, y: 0.0, z: 3.0 }) });
    let mut box_at = SinewTransformd::default();
    ok(unsafe { sinew_rigid_read_transform_d(w, rigid, &mut box_at) });
    let corner = add(box_at.position, [0.25, 0.125, 0.25]);
    ok(unsafe { sinew_rigid_apply_impulse_d(w, rigid, corner, SinewVec3 { x: -1.0, y: 2.0, z: 0.5 }) });
    let mut pushed = 0;
    ok(unsafe { sinew_world_explode_d(w, add(at, [-0.5, 0.25, 1.5]), 2.0, 2.5, &mut pushed) });
    assert!(pushed > 0);

    // The cloth's vertices, interleaved: 3 doubles then 3 floats.
    let mut count = 0;
    let none = ptr::null_mut();
    ok(unsafe { sinew_cloth_write_vertices_d(w, cloth, none, 0, none, 0, 0, &mut count) });
    let stride = 36;
    let mut buffer = vec![0u8; stride * count as usize];
    let (p, nrm) = (buffer.as_mut_ptr(), buffer[24..].as_mut_ptr());
    ok(unsafe { sinew_cloth_write_vertices_d(w, cloth, p, stride, nrm, stride, count, ptr::null_mut()) });
    let f64_at = |k: usize| f64::from_le_bytes(buffer[k..k + 8].try_into().expect("8 bytes"));
    let f32_at = |k: usize| f32::from_le_bytes(buffer[k..k + 4].try_into().expect("4 bytes"));
    let vertex = |k: usize| d(f64_at(k * stride), f64_at(k * stride + 8), f64_at(k * stride + 16));
    let vertices: Vec<[f64; 3]> = (0..count as usize).map(|k| sub(vertex(k), at)).collect();
    let normals = (0..count as usize).map(|k| [0, 4, 8].map(|o| f32_at(k * stride + 24 + o))).collect();
    // They are the particles' exact positions (the grid's map is 1:1).
    let mut particles = vec![SinewVec3d::default(); count as usize];
    ok(unsafe { sinew_body_read_positions_d(w, cloth, particles.as_mut_ptr(), count, ptr::null_mut()) });
    assert_eq!((0..count as usize).map(vertex).collect::<Vec<_>>(), particles);

    for _ in 0..30 {
        ok(unsafe { sinew_world_step(w, DT) });
    }
    let mut after = Vec::new();
    for body in [rigid, pair, doll, cloth] {
        let mut count = 0;
        ok(unsafe { sinew_body_read_positions_d(w, body, ptr::null_mut(), 0, &mut count) });
        let mut x = vec![SinewVec3d::default(); count as usize];
        ok(unsafe { sinew_body_read_positions_d(w, body, x.as_mut_ptr(), count, ptr::null_mut()) });
        after.extend(x.iter().map(|&p| sub(p, at)));
    }
    let mut recoveries = u64::MAX;
    ok(unsafe { sinew_world_recovery_count(w, &mut recoveries) });
    assert_eq!(recoveries, 0);
    unsafe { sinew_world_destroy(w) };
    Answers { contacts, contact_points, rays, ray_points, nearest, pushed, vertices, normals, after }
}

fn farthest(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).flat_map(|(p, q)| (0..3).map(move |k| (p[k] - q[k]).abs())).fold(0.0, f64::max)
}

#[test]
fn the_d_queries_and_pushes_far_away_answer_as_at_the_origin() {
    let home = queried(d(0.0, 0.0, 0.0));
    assert!(home.contacts.iter().any(|c| c.2), "a contact between bodies: {:?}", home.contacts);
    assert!(home.contacts.iter().any(|c| !c.2), "a contact with a collider");
    for at in ON_GRID {
        let far = queried(d(at[0], at[1], at[2]));
        let (dc, dr) =
            (farthest(&far.contact_points, &home.contact_points), farthest(&far.ray_points, &home.ray_points));
        println!("{at:?}: {} contacts, points {dc:.1e} m apart; ray hits {dr:.1e} m apart", far.contacts.len());
        // Everything else: the origin's bits.
        assert_eq!(far.contacts, home.contacts, "at {at:?}");
        assert_eq!(far.rays, home.rays, "at {at:?}");
        assert_eq!(far.nearest, home.nearest, "at {at:?}");
        assert_eq!(far.pushed, home.pushed, "at {at:?}");
        assert_eq!(far.vertices, home.vertices, "at {at:?}");
        assert_eq!(far.normals, home.normals, "at {at:?}");
        assert_eq!(far.after, home.after, "at {at:?}: after the pushes");
        // The points computed in f64 at the offset: within its rounding.
        assert!(dc < 1e-9 && dr < 1e-9, "at {at:?}: {dc:e} m, {dr:e} m");
    }
    // Off the grid: as its twin near the origin, to the f64 rounding of
    // the offsets (the scene's own f32 rounding is the twin's).
    for (at, twin) in OFF_GRID {
        let far = queried(d(at[0], at[1], at[2]));
        let near = queried(d(twin[0], twin[1], twin[2]));
        let worst = [
            farthest(&far.contact_points, &near.contact_points),
            farthest(&far.ray_points, &near.ray_points),
            farthest(&far.vertices, &near.vertices),
            farthest(&far.after, &near.after),
            farthest(&[far.nearest.2], &[near.nearest.2]),
        ];
        println!("{at:?}: {:.1e} m from its twin at {twin:?}", worst.iter().copied().fold(0.0, f64::max));
        assert_eq!(
            (far.contacts.len(), far.rays.len(), far.pushed),
            (near.contacts.len(), near.rays.len(), near.pushed)
        );
        for (a, b) in far.rays.iter().zip(&near.rays) {
            assert!((a.3 - b.3).abs() < 1e-5 && a.0 == b.0, "at {at:?}: ray {a:?}, its twin's {b:?}");
        }
        assert!(worst.iter().all(|&e| e < 1e-9), "at {at:?}: {worst:?} m from its twin");
    }
}

/// At the origin the `_d` queries give the `f32` ones' answers; 10 km out
/// the `f32` ray cast's distance is off by the millimetre of a world `f32`
/// there, the `_d` one's is the origin's.
#[test]
fn the_d_ray_cast_is_the_f32_one_at_the_origin_and_stays_so_far_away() {
    let cast = |at: f64| {
        let mut w = ptr::null_mut();
        ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut w) });
        let mut b = SinewBodyId::default();
        let p = [d(at + 0.123, 1.0, 0.0)];
        ok(unsafe { sinew_body_create_particles_d(w, p.as_ptr(), ptr::null(), 1, &mut b) });
        ok(unsafe { sinew_body_set_particle_radius(w, b, 0.1) });
        let dir = SinewVec3 { x: 1.0, y: 0.0, z: 0.0 };
        let mut hd = SinewRayHitd::default();
        ok(unsafe { sinew_world_raycast_d(w, d(at - 1.9993, 1.0, 0.0), dir, f32::INFINITY, u32::MAX, &mut hd) });
        let mut hf = SinewRayHit::default();
        let o = SinewVec3 { x: (at - 1.9993) as f32, y: 1.0, z: 0.0 };
        ok(unsafe { sinew_world_raycast(w, o, dir, f32::INFINITY, u32::MAX, &mut hf) });
        let mut nd = SinewParticleHitd::default();
        ok(unsafe { sinew_world_nearest_particle_d(w, d(at, 1.0, 0.0), 1.0, u32::MAX, &mut nd) });
        let mut nf = SinewParticleHit::default();
        let q = SinewVec3 { x: at as f32, y: 1.0, z: 0.0 };
        ok(unsafe { sinew_world_nearest_particle(w, q, 1.0, u32::MAX, &mut nf) });
        unsafe { sinew_world_destroy(w) };
        assert_eq!((hd.hit, hf.hit, nd.hit, nf.hit), (1, 1, 1, 1));
        (hd.distance, hf.distance, hd.point.x - at, nd.distance, nf.distance, nd.position.x - at)
    };
    let home = cast(0.0);
    println!("at the origin: ray {} (_d) {} (f32); nearest {} (_d) {} (f32)", home.0, home.1, home.3, home.4);
    assert!((home.0 - home.1).abs() < 1e-6 && (home.3 - home.4).abs() < 1e-6, "{home:?}");
    assert!((home.2 - 0.023).abs() < 1e-5 && (home.5 - 0.123).abs() < 1e-7, "{home:?}");
    let far = cast(10_000.0);
    println!("10 km out: ray {} (_d) {} (f32); nearest {} (_d) {} (f32)", far.0, far.1, far.3, far.4);
    assert!((far.0 - home.0).abs() < 1e-6 && (far.2 - home.2).abs() < 1e-9, "{far:?} vs {home:?}");
    assert!((far.3 - home.3).abs() < 1e-6 && (far.5 - home.5).abs() < 1e-9, "{far:?} vs {home:?}");
    assert!((far.1 - home.1).abs() > 1e-4, "the f32 cast 10 km out: {} vs {}", far.1, home.1);
}
