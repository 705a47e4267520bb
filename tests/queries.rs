//! Queries: ray casts against bodies (particles, collision sticks, cloth
//! triangles) with the hit's particles and weights, impulses at a hit,
//! ray casts against colliders, the nearest particle, and bad queries.
//!
//! A query's figures are exact or within a few ulp (printed as measured in
//! the comments); the bounds are 4 ulp of the value checked (2e-6 for a
//! length under 8 m, 5e-7 for a unit normal or a weight) where the measured
//! error is 0, so that a change in the order of a sum is not a failure.

use sinew::{
    ClothOptions, ColliderShape, CollisionStick, ErrorKind, Filter, GridDef, Quat, RigidDef, RigidModel, RigidShape,
    Vec3, World, WorldSettings,
};

fn world() -> World {
    World::new(WorldSettings { gravity: Vec3::ZERO, sleep_speed: 0.0, ..Default::default() }).unwrap()
}

#[test]
fn rays_hit_particles_sticks_and_cloth_with_their_weights() {
    let mut w = world();
    let ball = w.create_particles(&[Vec3::new(0.0, 0.0, 5.0)], None).unwrap();
    w.set_particle_radius(ball, 0.5).unwrap();
    let rod = w.create_particles(&[Vec3::new(-1.0, 3.0, 5.0), Vec3::new(3.0, 3.0, 5.0)], None).unwrap();
    w.add_collision_sticks(rod, &[CollisionStick { a: 0, b: 1, radius: 0.1 }]).unwrap();
    let def = GridDef {
        position: Vec3::new(-1.0, 7.0, 6.0),
        columns: 3,
        rows: 3,
        spacing: 1.0,
        pins: 0,
        options: ClothOptions::default(),
        ..GridDef::default()
    };
    let cloth = w.create_cloth_grid(&def).unwrap();

    // The particle: straight along +z from the origin, 4.5 m to its surface.
    let hit = w.raycast(Vec3::ZERO, Vec3::Z * 3.0, f32::INFINITY, u32::MAX).unwrap().unwrap();
    assert_eq!((hit.body, hit.particle_count, hit.particles[0]), (ball, 1, 0));
    assert!((hit.distance - 4.5).abs() < 2e-6 && (hit.normal + Vec3::Z).length() < 5e-7, "{hit:?}"); // measured 0, 0

    // The stick, a quarter of the way from its first particle.
    let hit = w.raycast(Vec3::new(0.0, 3.0, 0.0), Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!((hit.body, hit.particle_count, hit.particles[..2].to_vec()), (rod, 2, vec![0, 1]));
    assert!((hit.weights[0] - 0.75).abs() < 5e-7 && (hit.weights[1] - 0.25).abs() < 5e-7, "{hit:?}"); // measured 0
    assert!((hit.distance - 4.9).abs() < 5e-6, "{hit:?}"); // measured 1.4e-6 (3 ulp)

    // The cloth (its grid hangs in the XY plane at z = 6): weights that
    // rebuild the hit point from its triangle's corners.
    let origin = Vec3::new(-0.3, 6.2, 0.0);
    let hit = w.raycast(origin, Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!((hit.body, hit.particle_count), (cloth, 3));
    let ps: Vec<Vec3> = w.positions(cloth).unwrap().collect();
    let rebuilt: Vec3 = (0..3).map(|k| ps[hit.particles[k] as usize] * hit.weights[k]).sum();
    assert!((rebuilt - hit.point).length() < 2e-6, "{rebuilt} vs {}", hit.point); // measured 6e-8; 4 ulp at 6 m
    assert!((hit.weights.iter().sum::<f32>() - 1.0).abs() < 5e-7, "{hit:?}"); // measured 0
    assert!((hit.point - Vec3::new(-0.3, 6.2, 6.0)).length() < 2e-6, "{hit:?}"); // measured 0

    // Misses: beyond max_distance, off to the side, and a mask without the
    // bodies' layer.
    assert_eq!(w.raycast(Vec3::ZERO, Vec3::Z, 4.0, u32::MAX).unwrap(), None);
    assert_eq!(w.raycast(Vec3::new(10.0, 0.0, 0.0), Vec3::Z, 100.0, u32::MAX).unwrap(), None);
    w.set_body_filter(ball, Filter { layer: 2, mask: u32::MAX }).unwrap();
    assert_eq!(w.raycast(Vec3::ZERO, Vec3::Z, 100.0, 1).unwrap(), None);
    assert!(w.raycast(Vec3::ZERO, Vec3::Z, 100.0, 2).unwrap().is_some());
}

#[test]
fn an_impulse_at_a_hit_adds_its_momentum_where_it_hit() {
    let mut w = world();
    let inv = [1.0, 0.5]; // 1 kg and 2 kg
    let rod = w.create_particles(&[Vec3::new(-1.0, 0.0, 5.0), Vec3::new(3.0, 0.0, 5.0)], Some(&inv)).unwrap();
    w.add_collision_sticks(rod, &[CollisionStick { a: 0, b: 1, radius: 0.1 }]).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let hit = w.raycast(Vec3::ZERO, Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    let j = Vec3::new(0.0, 0.0, 3.0);
    w.apply_hit_impulse(&hit, j).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let v: Vec<Vec3> = w.velocities(rod).unwrap().collect();
    let momentum = v[0] * 1.0 + v[1] * 2.0;
    assert!((momentum - j).length() < 1e-3, "momentum {momentum}");
    // Hit a quarter of the way along: the near end takes 3/4 of the impulse
    // (measured 3.8e-4 and 6.3e-5 m/s short: the default damping, 1 % a
    // second, takes 1.7e-4 of each velocity in a frame).
    assert!((v[0].z - 0.75 * 3.0).abs() < 1e-3 && (v[1].z - 0.25 * 3.0 / 2.0).abs() < 3e-4, "{v:?}");
    let bad = sinew::RayHit { particle_count: 4, ..hit };
    assert_eq!(w.apply_hit_impulse(&bad, j).unwrap_err().kind, ErrorKind::InvalidArgument);
    let bad = sinew::RayHit { particles: [7, 0, 0], ..hit };
    assert_eq!(w.apply_hit_impulse(&bad, j).unwrap_err().kind, ErrorKind::InvalidArgument);
}

/// Rays at rigid bodies of both models, at the origin and 1 km from it: the
/// face of a crate at the distance and with the normal of the box where
/// the body is (straight, turned 30 degrees, after it has flown and spun a
/// while), a ball and a capsule on their surfaces, a miss just beside the
/// crate, and the mask.
#[test]
fn rays_hit_rigid_bodies_where_they_are() {
    for offset in [Vec3::ZERO, Vec3::new(1000.0, 0.0, -1000.0)] {
        for model in [RigidModel::Tetrahedron, RigidModel::ShapeMatched { stiffness: 1.0 }] {
            let mut w = world();
            let h = Vec3::new(0.5, 0.4, 0.3);
            let mut def = RigidDef::new(RigidShape::Box { half_extents: h });
            def.model = model;
            def.position = offset + Vec3::new(0.0, 0.0, 5.0);
            let crate_ = w.create_rigid(&def).unwrap();
            w.step(1.0 / 60.0).unwrap();
            let ray = |w: &World, from: Vec3, dir: Vec3| w.raycast(offset + from, dir, 100.0, u32::MAX).unwrap();
            let hit = ray(&w, Vec3::ZERO, Vec3::Z).unwrap();
            assert_eq!((hit.body, hit.particle_count), (crate_, 1), "{model:?}");
            // Measured 0 for each, at 1 km too; 2.5e-4 m is 4 ulp at 1 km.
            assert!((hit.distance - 4.7).abs() < 2e-6 && (hit.normal + Vec3::Z).length() < 5e-7, "{model:?}: {hit:?}");
            assert!((hit.point - (offset + Vec3::new(0.0, 0.0, 4.7))).length() < 2.5e-4, "{model:?}: {hit:?}");
            // From above, near a corner; beside the crate; the wrong layer.
            let hit = ray(&w, Vec3::new(0.45, 3.0, 5.25), -Vec3::Y).unwrap();
            assert!((hit.distance - 2.6).abs() < 2e-6 && (hit.normal - Vec3::Y).length() < 5e-7, "{model:?}: {hit:?}"); // 0, 0
            assert_eq!(ray(&w, Vec3::new(0.51, 0.0, 0.0), Vec3::Z), None, "{model:?}");
            assert_eq!(ray(&w, Vec3::new(0.0, 0.0, 6.0), Vec3::Z), None, "{model:?}: behind it");
            w.set_body_filter(crate_, Filter { layer: 2, mask: u32::MAX }).unwrap();
            assert_eq!(w.raycast(offset, Vec3::Z, 100.0, 1).unwrap(), None);
            assert!(w.raycast(offset, Vec3::Z, 100.0, 2).unwrap().is_some());

            // Turned 30 degrees about Y: the ray enters the -z face, whose
            // normal has turned with it, 0.3 / cos 30 before the centre.
            let turn = Quat::from_rotation_y(30f32.to_radians());
            def.rotation = turn;
            def.position = offset + Vec3::new(3.0, 0.0, 5.0);
            w.create_rigid(&def).unwrap();
            w.step(1.0 / 60.0).unwrap();
            let hit = ray(&w, Vec3::new(3.0, 0.0, 0.0), Vec3::Z).unwrap();
            let want = 5.0 - 0.3 / 30f32.to_radians().cos();
            assert!((hit.distance - want).abs() < 2e-6, "{model:?}: {hit:?} vs {want}"); // measured 4.8e-7
            assert!((hit.normal - turn * -Vec3::Z).length() < 1e-5, "{model:?}: {hit:?}"); // measured 2.5e-6

            // Thrown and spinning: the ray finds the box where the readback
            // says it is.
            w.apply_rigid_impulse(crate_, offset + Vec3::new(0.5, 0.0, 5.0), Vec3::new(0.0, 0.3, 0.2)).unwrap();
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
            let (x, q) = w.rigid_transform(crate_).unwrap();
            let from = x - q * Vec3::Z * 2.0;
            let hit = w.raycast(from, q * Vec3::Z, 100.0, 2).unwrap().unwrap();
            assert!((hit.distance - 1.7).abs() < 5e-5, "{model:?}: {hit:?}"); // measured 1.4e-5
            assert!((hit.normal - q * -Vec3::Z).length() < 5e-7, "{model:?}: {hit:?}"); // measured 0

            for (shape, surface) in [
                (RigidShape::Sphere { radius: 0.4 }, 0.4),
                (RigidShape::Capsule { half_height: 0.5, radius: 0.2 }, 0.2),
            ] {
                let mut def = RigidDef::new(shape);
                def.model = model;
                def.position = offset + Vec3::new(-3.0, 0.0, 5.0);
                def.rotation = Quat::from_rotation_z(1.0);
                let mut w = world();
                w.create_rigid(&def).unwrap();
                w.step(1.0 / 60.0).unwrap();
                let hit = ray(&w, Vec3::new(-3.0, 0.0, 0.0), Vec3::Z).unwrap();
                assert!((hit.distance - (5.0 - surface)).abs() < 1e-5, "{model:?}: {hit:?}"); // measured 2.4e-6
                assert!((hit.normal + Vec3::Z).length() < 5e-6, "{model:?}: {hit:?}"); // measured 8.7e-7
                assert_eq!(w.recovery_count(), 0);
            }
            assert_eq!(w.recovery_count(), 0);
        }
    }
}

/// An impulse at a ray's hit on a crate acts as on a rigid body at the hit
/// point: the same as `apply_rigid_impulse` there, so the crate also turns.
#[test]
fn an_impulse_at_a_hit_on_a_crate_pushes_and_turns_it() {
    let make = || {
        let mut w = world();
        let def = RigidDef {
            position: Vec3::new(0.0, 0.0, 5.0),
            mass: 2.0,
            ..RigidDef::new(RigidShape::Box { half_extents: Vec3::splat(0.5) })
        };
        let body = w.create_rigid(&def).unwrap();
        w.step(1.0 / 60.0).unwrap();
        (w, body)
    };
    let (mut a, body) = make();
    let (mut b, twin) = make();
    let hit = a.raycast(Vec3::new(0.25, 0.0, 0.0), Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!(hit.body, body);
    let j = Vec3::new(0.0, 0.0, 1.0);
    a.apply_hit_impulse(&hit, j).unwrap();
    b.apply_rigid_impulse(twin, hit.point, j).unwrap();
    a.step(1.0 / 60.0).unwrap();
    b.step(1.0 / 60.0).unwrap();
    let (xa, qa) = a.rigid_transform(body).unwrap();
    assert_eq!((xa, qa), b.rigid_transform(twin).unwrap());
    // A 2 kg unit cube hit 0.25 m off its centre: v = j / m = 0.5 m/s and
    // w = r x j / I = 0.25 / (1/3) = 0.75 rad/s, for one frame.
    let (moved, turned) = (xa.z - 5.0, qa.angle_between(Quat::IDENTITY));
    eprintln!(
        "crate after the impulse: moved {moved:.6e} m (want {:.6e}), turned {turned:.6e} rad (want 1.25e-2)",
        0.5 / 60.0
    );
    assert!((moved - 0.5 / 60.0).abs() < 5e-6, "moved {moved}"); // measured 1.1e-6 (2 ulp at 5 m)
    assert!((turned - 0.75 / 60.0).abs() < 5e-5, "turned {turned}"); // measured 1.3e-5
}

#[test]
fn rays_hit_colliders() {
    let mut w = world();
    let floor = w
        .create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 }, Vec3::ZERO, Quat::IDENTITY, 0.5)
        .unwrap();
    let crate_ = w
        .create_collider(
            ColliderShape::Box { half_extents: Vec3::splat(0.5) },
            Vec3::new(0.0, 0.5, 4.0),
            Quat::IDENTITY,
            0.5,
        )
        .unwrap();
    let tri = [Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 2.0, -1.0)];
    let wall =
        w.create_collider(ColliderShape::mesh(&tri, &[0, 1, 2]).unwrap(), Vec3::ZERO, Quat::IDENTITY, 0.5).unwrap();
    let hit = w.raycast_colliders(Vec3::new(0.0, 0.5, 0.0), Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!(hit.collider, crate_);
    assert!((hit.distance - 3.5).abs() < 2e-6 && (hit.normal + Vec3::Z).length() < 5e-7, "{hit:?}"); // measured 0, 0
    let hit = w.raycast_colliders(Vec3::new(0.0, 0.5, 0.0), -Vec3::Z, 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!(hit.collider, wall);
    assert!((hit.distance - 1.0).abs() < 5e-7 && (hit.normal - Vec3::Z).length() < 5e-7, "{hit:?}"); // measured 0, 0
    let hit =
        w.raycast_colliders(Vec3::new(5.0, 2.0, 0.0), Vec3::new(0.0, -1.0, 0.0), 100.0, u32::MAX).unwrap().unwrap();
    assert_eq!(hit.collider, floor);
    assert!((hit.point - Vec3::new(5.0, 0.0, 0.0)).length() < 2e-6, "{hit:?}"); // measured 0
    assert_eq!(w.raycast_colliders(Vec3::new(5.0, 2.0, 0.0), Vec3::Y, 100.0, u32::MAX).unwrap(), None);
}

#[test]
fn the_nearest_particle_is_found_for_picking() {
    let mut w = world();
    let a = w.create_particles(&[Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)], None).unwrap();
    let b = w.create_particles(&[Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.9, 0.3, 0.0)], None).unwrap();
    let hit = w.nearest_particle(Vec3::new(1.0, 0.2, 0.0), 1.0, u32::MAX).unwrap().unwrap();
    assert_eq!((hit.body, hit.particle), (b, 1));
    assert!((hit.distance - (0.01f32 + 0.01).sqrt()).abs() < 1.5e-7, "{hit:?}"); // measured 3e-8 (2 ulp)
    let hit = w.nearest_particle(Vec3::new(-0.1, 0.0, 0.0), 1.0, u32::MAX).unwrap().unwrap();
    assert_eq!((hit.body, hit.particle), (a, 0));
    assert_eq!(w.nearest_particle(Vec3::new(10.0, 0.0, 0.0), 1.0, u32::MAX).unwrap(), None);
}

#[test]
fn bad_queries_are_refused() {
    let w = world();
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    for e in [
        w.raycast(nan, Vec3::Z, 1.0, 1).unwrap_err(),
        w.raycast(Vec3::ZERO, Vec3::ZERO, 1.0, 1).unwrap_err(),
        w.raycast(Vec3::ZERO, nan, 1.0, 1).unwrap_err(),
        w.raycast(Vec3::ZERO, Vec3::Z, 0.0, 1).unwrap_err(),
        w.raycast(Vec3::ZERO, Vec3::Z, f32::NAN, 1).unwrap_err(),
        w.raycast_colliders(Vec3::ZERO, Vec3::ZERO, 1.0, 1).unwrap_err(),
        w.nearest_particle(nan, 1.0, 1).unwrap_err(),
        w.nearest_particle(Vec3::ZERO, -1.0, 1).unwrap_err(),
    ] {
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{}", e.message);
    }
}
