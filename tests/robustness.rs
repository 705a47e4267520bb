//! No input makes a position NaN or infinite: degenerate geometry,
//! contradictory constraints, extreme steps and forces. Where a step would go
//! non-finite anyway, the island is put back and the world counts it.

use sinew::{ColliderShape, DistanceConstraint, GridDef, Joint, Quat, Target, Vec3, World, WorldSettings};

fn all_finite(world: &World) -> bool {
    world.bodies().all(|b| {
        world.positions(b).unwrap().all(|p| p.is_finite()) && world.velocities(b).unwrap().all(|v| v.is_finite())
    })
}

#[test]
fn degenerate_and_contradictory_inputs_stay_finite() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    world
        .create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: -2.0 }, Vec3::ZERO, Quat::IDENTITY, 0.5)
        .unwrap();
    // Coincident particles with sticks of zero and non-zero rest length.
    let p = world.create_particles(&[Vec3::ZERO, Vec3::ZERO, Vec3::ZERO], None).unwrap();
    let sticks = [
        DistanceConstraint { a: 0, b: 1, rest_length: 0.0, compliance: 0.0 },
        DistanceConstraint { a: 1, b: 2, rest_length: 0.5, compliance: 0.0 },
        DistanceConstraint { a: 0, b: 2, rest_length: 1.0, compliance: 0.0 },
    ];
    world.add_distance_constraints(p, &sticks).unwrap();
    // A rigid stick whose ends are pulled 10 m apart by hard targets.
    let q = world.create_particles(&[Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.1, 0.0, 0.0)], None).unwrap();
    world
        .add_distance_constraints(q, &[DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 }])
        .unwrap();
    let far = |particle, x: f32| Target { particle, position: Vec3::new(x, 0.0, 0.0), compliance: 0.0, max_force: 0.0 };
    world.set_targets(q, &[far(0, 0.0), far(1, 10.0)]).unwrap();
    // Two pinned particles joined rigidly at the wrong distance, with targets.
    let r = world.create_particles(&[Vec3::new(0.0, 3.0, 0.0), Vec3::new(1.0, 3.0, 0.0)], Some(&[0.0, 0.0])).unwrap();
    world
        .create_joint(Joint { body_a: r, particle_a: 0, body_b: r, particle_b: 1, rest_length: 5.0, compliance: 0.0 })
        .unwrap();
    world.set_targets(r, &[far(0, -3.0)]).unwrap();
    // A stiff cloth, shoved hard.
    let cloth = world.create_cloth_grid(&GridDef::default()).unwrap();
    world.move_particles(cloth, 100, &[Vec3::new(1e5, -1e5, 1e5)]).unwrap();
    for dt in [1.0 / 60.0, 1.0, 1e-6, 0.5, 1.0 / 240.0] {
        for _ in 0..30 {
            world.step(dt).unwrap();
            assert!(all_finite(&world), "non-finite at dt {dt}");
        }
    }
    assert_eq!(world.recovery_count(), 0, "nothing here should have needed a recovery");
}

#[test]
fn a_step_that_would_overflow_is_undone_and_counted() {
    // Gravity at the input limit: one step would carry a falling particle
    // beyond the coordinate range. Each such step is undone and counted.
    let settings = WorldSettings { gravity: Vec3::new(0.0, -1e15, 0.0), ..WorldSettings::default() };
    let mut world = World::new(settings).unwrap();
    let falling = world.create_particles(&[Vec3::ZERO, Vec3::X], None).unwrap();
    world
        .add_distance_constraints(falling, &[DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 }])
        .unwrap();
    let calm = world.create_particles(&[Vec3::new(0.0, 0.0, 50.0)], Some(&[0.0])).unwrap();
    for _ in 0..10 {
        world.step(1.0).unwrap();
        assert!(all_finite(&world));
    }
    // Undone once: put back at rest, the body falls asleep (default
    // sleep speed) and is not stepped again.
    assert_eq!(world.recovery_count(), 1);
    // The other body (its own island) was untouched.
    assert_eq!(world.positions(calm).unwrap().next().unwrap(), Vec3::new(0.0, 0.0, 50.0));
    // The survivor is where it was, at rest (measured 5.0e14 m down).
    assert!(world.positions(falling).unwrap().all(|p| p.abs().max_element() <= 1e15));
    assert!(world.velocities(falling).unwrap().all(|v| v == Vec3::ZERO));
    // Inputs beyond the coordinate range are refused outright.
    assert!(world.set_positions(falling, 0, &[Vec3::new(2e15, 0.0, 0.0)]).is_err());
    assert!(world.move_particles(falling, 0, &[Vec3::new(0.0, -3e15, 0.0)]).is_err());
    assert!(world.set_gravity(Vec3::new(0.0, -1e16, 0.0)).is_err());
    // Snapshots keep the count.
    let mut copy = World::new(WorldSettings::default()).unwrap();
    copy.restore(&world.snapshot()).unwrap();
    assert_eq!(copy.recovery_count(), world.recovery_count());
}

/// Regression (found by the C ABI fuzz driver): inverse masses as small as
/// f32 allows (1e-38: a mass of 1e38 kg) overflowed a bone's or a rigid
/// body's shape-matching sums to infinity; the fitted rotation became NaN,
/// bones and transforms read back NaN and the world's own snapshot was
/// refused on restore.
#[test]
fn enormous_masses_keep_fitted_rotations_finite() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    let ragdoll = world.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8).unwrap();
    let rigid = world
        .create_rigid(&sinew::RigidDef {
            shape: sinew::RigidShape::Box { half_extents: Vec3::splat(0.3) },
            model: sinew::RigidModel::ShapeMatched { stiffness: 1.0 },
            position: Vec3::new(3.0, 1.0, 0.0),
            rotation: Quat::IDENTITY,
            mass: 1.0,
            particle_radius: 0.1,
            friction: 0.5,
        })
        .unwrap();
    for body in [ragdoll, rigid] {
        let n = world.particle_count(body).unwrap() as usize;
        let tiny: Vec<f32> = (0..n).map(|i| if i % 2 == 0 { f32::MIN_POSITIVE } else { 1e-30 }).collect();
        world.set_inv_masses(body, 0, &tiny).unwrap();
    }
    world.apply_rigid_impulse(rigid, Vec3::new(3.0, 1.3, 0.0), Vec3::new(1e15, 0.0, 0.0)).unwrap();
    for _ in 0..30 {
        world.step(1.0 / 60.0).unwrap();
    }
    assert!(all_finite(&world));
    assert!(world.ragdoll_bones(ragdoll).unwrap().all(|(p, q)| p.is_finite() && q.is_finite()), "a NaN bone");
    let (p, q) = world.rigid_transform(rigid).unwrap();
    assert!(p.is_finite() && q.is_finite(), "a NaN rigid transform: {p} {q}");
    let image = world.snapshot();
    let mut copy = World::new(WorldSettings::default()).unwrap();
    copy.restore(&image).expect("the world's own snapshot restores");
    assert_eq!(copy.state_hash(), world.state_hash());
}

/// Regression (found by the C ABI fuzz driver): a step undone for going out
/// of range put the particles back but not the bones' and rigid bodies'
/// fitted rotations, which could be left NaN: bones read back NaN and the
/// world's own snapshot was refused on restore.
#[test]
fn an_undone_step_puts_rotations_back_too() {
    let gravity = Vec3::new(0.0, -1e15, 0.0);
    let settings = WorldSettings { gravity, sleep_speed: 0.0, ..WorldSettings::default() };
    let mut world = World::new(settings).unwrap();
    let ragdoll = world.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8).unwrap();
    let rigid = world
        .create_rigid(&sinew::RigidDef {
            shape: sinew::RigidShape::Box { half_extents: Vec3::splat(0.3) },
            model: sinew::RigidModel::Tetrahedron,
            position: Vec3::new(3.0, 1.0, 0.0),
            rotation: Quat::IDENTITY,
            mass: 1.0,
            particle_radius: 0.0,
            friction: 0.5,
        })
        .unwrap();
    // Kept out of each other's way (at this gravity the step's reach spans
    // the world and would make them one island): each island is undone on
    // its own.
    world.set_body_filter(rigid, sinew::Filter { layer: 2, mask: 2 }).unwrap();
    for _ in 0..5 {
        world.step(1.0).unwrap();
    }
    // The first step falls 5e14 m (in range, kept); the next ones would
    // leave the range and are undone, rotations included. Each island: the
    // 2nd step undone, the 3rd (from rest, 5e14 m more) kept, the 4th and
    // 5th undone.
    // Unit to a few ulp (measured 0 to 6e-8, one ulp).
    let unit = |q: Quat| q.is_finite() && (q.length() - 1.0).abs() <= 4.0 * f32::EPSILON;
    assert!(world.ragdoll_bones(ragdoll).unwrap().all(|(p, q)| p.is_finite() && unit(q)), "a NaN bone");
    let (p, q) = world.rigid_transform(rigid).unwrap();
    assert!(p.is_finite() && unit(q), "a NaN rigid transform: {p} {q}");
    assert_eq!(world.recovery_count(), 6, "two islands, three steps undone each");
    let mut copy = World::new(WorldSettings::default()).unwrap();
    copy.restore(&world.snapshot()).expect("the world's own snapshot restores");
    assert_eq!(copy.state_hash(), world.state_hash());
}

/// Found by the fuzz driver: a cloth of a vanishing mass gave its vertices
/// an infinite inverse mass (and the world a snapshot it refused itself).
#[test]
fn a_cloth_too_light_to_weigh_anything_is_refused() {
    let mut w = World::new(WorldSettings::default()).unwrap();
    let options = sinew::ClothOptions { mass: f32::MIN_POSITIVE, ..sinew::ClothOptions::default() };
    let def = sinew::GridDef { columns: 2, rows: 2, options, ..sinew::GridDef::default() };
    let err = w.create_cloth_grid(&def).unwrap_err();
    assert_eq!(err.kind, sinew::ErrorKind::InvalidArgument);
    assert_eq!(w.bodies().count(), 0);
    let fine = sinew::GridDef { options: sinew::ClothOptions { mass: 1e-6, ..options }, ..def };
    w.create_cloth_grid(&fine).unwrap();
}
