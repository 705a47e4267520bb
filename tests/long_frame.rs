//! One long frame (an engine's hitch: loading, a breakpoint, alt-tab) does
//! not launch what rests on the ground (issue 31, item 2). After 20 frames
//! at 1/60 s, one step of 1 s or 0.5 s, then 2 s at 1/60 s: a resting crate
//! of both rigid models and a resting particle body (a square of sticks)
//! rise no more than a few centimetres above where they rested, at 8 and 32
//! substeps, at the origin and 1 km from it, with no recovery. A free projectile is exact whatever the step (free_fall.rs),
//! so what is measured is the contacts.

use sinew::{ColliderShape, DistanceConstraint, Quat, RigidDef, RigidModel, RigidShape, Vec3, World, WorldSettings};

const OFFSETS: [Vec3; 2] = [Vec3::ZERO, Vec3::new(1000.0, 0.0, -1000.0)];

/// Highest rise (m) of any particle of `body` above where it was after the
/// 20 short frames, over the long step and the 2 s after it.
fn rise(w: &mut World, body: sinew::BodyId, long: f32) -> f32 {
    for _ in 0..20 {
        w.step(1.0 / 60.0).unwrap();
    }
    let rest: Vec<Vec3> = w.positions(body).unwrap().collect();
    let highest = |w: &World| w.positions(body).unwrap().zip(&rest).map(|(x, r)| x.y - r.y).fold(0.0f32, f32::max);
    w.step(long).unwrap();
    let mut top = highest(w);
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
        top = top.max(highest(w));
    }
    assert_eq!(w.recovery_count(), 0);
    top
}

fn ground(substeps: u32, offset: Vec3) -> World {
    let mut w = World::new(WorldSettings { substeps, sleep_speed: 0.0, ..WorldSettings::default() }).unwrap();
    let plane = ColliderShape::Plane { normal: Vec3::Y, offset: offset.y };
    w.create_collider(plane, Vec3::ZERO, Quat::IDENTITY, 0.5).unwrap();
    w
}

#[test]
fn a_long_frame_does_not_launch_a_resting_crate() {
    for offset in OFFSETS {
        for substeps in [8, 32] {
            for long in [1.0, 0.5] {
                for model in [RigidModel::Tetrahedron, RigidModel::ShapeMatched { stiffness: 1.0 }] {
                    let mut w = ground(substeps, offset);
                    let mut def = RigidDef::new(RigidShape::Box { half_extents: Vec3::splat(0.5) });
                    def.model = model;
                    def.position = offset + Vec3::new(0.0, 0.5, 0.0);
                    let crate_ = w.create_rigid(&def).unwrap();
                    let top = rise(&mut w, crate_, long);
                    println!("{model:?}, {substeps} substeps, {long} s at {offset}: rose {top:.4} m");
                    // A 1 s step of 8 substeps (h = 1/8 s) leaves the
                    // tetrahedron tilted with its sticks strained; it tipped
                    // over when the frames were short again (a corner rose
                    // 0.78 m, the shape-matched crate 0.04 m) until bodies
                    // were settled after a long step (solver `settle`).
                    // Measured now: 2.2 cm at worst, the shape-matched 0.
                    assert!(top < 0.05, "{model:?}, {substeps} substeps, {long} s at {offset}: rose {top} m");
                }
            }
        }
    }
}

#[test]
fn a_long_frame_does_not_launch_resting_particles() {
    for offset in OFFSETS {
        for substeps in [8, 32] {
            for long in [1.0, 0.5] {
                let mut w = ground(substeps, offset);
                let corners = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
                let square: Vec<Vec3> = corners.iter().map(|&c| offset + c * 0.5 + Vec3::Y * 0.05).collect();
                let body = w.create_particles(&square, None).unwrap();
                let sticks: Vec<DistanceConstraint> = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]
                    .iter()
                    .map(|&(a, b)| DistanceConstraint { a, b, rest_length: -1.0, compliance: 0.0 })
                    .collect();
                w.add_distance_constraints(body, &sticks).unwrap();
                w.set_particle_radius(body, 0.05).unwrap();
                let top = rise(&mut w, body, long);
                println!("particles, {substeps} substeps, {long} s at {offset}: rose {top:.4} m");
                // Measured 0 everywhere; 1e-4 m leaves the rounding at 1 km (ulp 6e-5 m).
                assert!(top < 1e-4, "particles, {substeps} substeps, {long} s at {offset}: rose {top} m");
            }
        }
    }
}

#[test]
fn a_long_frame_does_not_launch_a_lying_ragdoll() {
    // Before the ragdoll was settled after a long step (solver `settle`):
    // it rose 0.62 and 1.50 m at 8 substeps, 0.45 and 2.36 m at 32, leaving
    // the ground at 3.5 to 11 m/s in the first short frame. Measured after:
    // 2 to 9 mm, and then at most 0.004 m/s.
    for offset in OFFSETS {
        for substeps in [8, 32] {
            for long in [1.0, 0.5] {
                let mut w = ground(substeps, offset);
                let lying = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
                let body = w.create_humanoid(offset + Vec3::new(0.0, 0.15, 0.0), lying, 1.8).unwrap();
                for _ in 0..40 {
                    w.step(1.0 / 60.0).unwrap();
                }
                let top = rise(&mut w, body, long);
                let fastest = w.velocities(body).unwrap().map(|v| v.length()).fold(0.0f32, f32::max);
                println!("humanoid, {substeps} substeps, {long} s at {offset}: rose {top:.4} m, then {fastest:.3} m/s");
                assert!(top < 0.02, "humanoid, {substeps} substeps, {long} s at {offset}: rose {top} m");
                assert!(
                    fastest < 0.04,
                    "humanoid, {substeps} substeps, {long} s at {offset}: still moving at {fastest} m/s"
                );
            }
        }
    }
}
