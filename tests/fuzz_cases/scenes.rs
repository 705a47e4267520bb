//! Small worlds holding every body kind and every piece of state a snapshot
//! carries (particles with sticks, targets, frames and collision sticks;
//! grid and mesh cloth with skins and max distances; a cloth folded on
//! itself, with its side memory; a humanoid with motors and a custom
//! hinged ragdoll; tetrahedral and shape-matched rigid bodies;
//! colliders of every shape; joints; ignored bones; a sleeping body; a
//! constraint cap), each stepped a few frames so velocities are not zero.
//! Their snapshots seed the `snapshot_restore` corpus
//! (`tests/fuzz_regressions.rs` writes them on request).

use sinew::*;

fn world(max_constraints: u32) -> World {
    World::new(WorldSettings { max_constraints, ..WorldSettings::default() }).expect("settings")
}

fn stepped(mut w: World, frames: u32) -> World {
    for _ in 0..frames {
        w.step(1.0 / 60.0).expect("a scene steps");
    }
    w
}

fn particles() -> World {
    let mut w = world(0);
    let p = [Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.5, 2.0, 0.0), Vec3::new(1.0, 2.0, 0.0), Vec3::new(1.0, 2.5, 0.0)];
    let id = w.create_particles(&p, Some(&[0.0, 1.0, 1.0, 2.0])).expect("particles");
    let sticks = [
        DistanceConstraint { a: 0, b: 1, rest_length: 0.5, compliance: 0.0 },
        DistanceConstraint { a: 1, b: 2, rest_length: 0.5, compliance: 1e-4 },
    ];
    w.add_distance_constraints(id, &sticks).expect("sticks");
    w.add_collision_sticks(id, &[CollisionStick { a: 1, b: 2, radius: 0.05 }]).expect("collision sticks");
    w.set_targets(id, &[Target { particle: 3, position: Vec3::new(1.0, 3.0, 0.0), compliance: 1e-3, max_force: 50.0 }])
        .expect("targets");
    w.attach_to_frame(id, &[0], Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY).expect("a frame");
    w.set_particle_radius(id, 0.03).expect("radius");
    w.set_body_filter(id, Filter { layer: 2, mask: 3 }).expect("filter");
    stepped(w, 5)
}

fn cloth() -> World {
    let mut w = world(0);
    let grid = GridDef { columns: 4, rows: 4, spacing: 0.2, position: Vec3::new(0.0, 2.0, 0.0), ..GridDef::default() };
    let id = w.create_cloth_grid(&grid).expect("grid cloth");
    w.set_cloth_wind(id, Vec3::new(0.0, 0.0, 2.0)).expect("wind");
    let skin: Vec<Vec3> = w.positions(id).expect("cloth").collect();
    w.set_cloth_skin(id, &skin, &vec![Vec3::Z; skin.len()]).expect("skin");
    w.set_cloth_max_distances(id, &vec![0.3; skin.len()], Some(&vec![0.05; skin.len()])).expect("max distances");
    let vertices = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.0, 1.0)];
    let mesh = MeshDef {
        position: Vec3::new(2.0, 1.0, 0.0),
        rotation: Quat::IDENTITY,
        vertices: &vertices,
        triangles: &[[0, 1, 2], [1, 3, 2]],
        weld_tolerance: 0.0,
        inv_masses: None,
        pinned: Some(&[true, false, false, false]),
        options: ClothOptions::default(),
    };
    w.create_cloth_mesh(&mesh).expect("mesh cloth");
    stepped(w, 5)
}

/// A self-colliding cloth pinned by its first row, folded onto a floor:
/// its vertices remember which side of which triangle they were kept on.
fn folded_cloth() -> World {
    let mut w = world(0);
    let plane = ColliderShape::Plane { normal: Vec3::Y, offset: 1.4 };
    w.create_collider(plane, Vec3::ZERO, Quat::IDENTITY, 0.6).expect("a floor");
    let options = ClothOptions { self_collision: true, ..ClothOptions::default() };
    let rotation = Quat::from_rotation_x(0.3);
    let grid =
        GridDef { columns: 10, rows: 11, position: Vec3::new(0.0, 2.0, 0.0), rotation, options, ..GridDef::default() };
    w.create_cloth_grid(&grid).expect("grid cloth");
    stepped(w, 40)
}

fn ragdolls() -> World {
    let mut w = world(0);
    let doll = w.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8).expect("humanoid");
    let pose: Vec<(Vec3, Quat)> = w.ragdoll_bones(doll).expect("bones").collect();
    w.set_ragdoll_motor_strength(doll, 0.3, 500.0).expect("motors");
    w.set_ragdoll_motor_targets(doll, &pose).expect("motor targets");
    let bone = |name: &str, parent, y, limit| BoneDef {
        name: name.into(),
        parent,
        position: Vec3::new(2.0, y, 0.0),
        rotation: Quat::IDENTITY,
        length: 0.3,
        radius: 0.05,
        mass: 1.0,
        limit,
    };
    let hinge = Limit::Hinge { axis: Vec3::X, min: -1.0, max: 0.5 };
    let ball = Limit::Ball { swing: 0.6, twist_min: -0.3, twist_max: 0.3 };
    let def = RagdollDef {
        bones: vec![bone("root", None, 1.0, ball), bone("mid", Some(0), 1.3, hinge), bone("tip", Some(1), 1.6, ball)],
    };
    w.create_ragdoll(&def).expect("a custom ragdoll");
    stepped(w, 5)
}

fn rigids() -> World {
    let mut w = world(0);
    let at = |x: f32, shape, model| RigidDef {
        model,
        position: Vec3::new(x, 1.0, 0.0),
        rotation: Quat::from_rotation_y(0.3),
        ..RigidDef::new(shape)
    };
    let hull = vec![Vec3::ZERO, Vec3::X * 0.3, Vec3::Y * 0.3, Vec3::Z * 0.3, Vec3::splat(0.2)];
    w.create_rigid(&at(0.0, RigidShape::Box { half_extents: Vec3::splat(0.2) }, RigidModel::Tetrahedron))
        .expect("a box");
    w.create_rigid(&at(1.0, RigidShape::Sphere { radius: 0.2 }, RigidModel::ShapeMatched { stiffness: 1.0 }))
        .expect("a ball");
    w.create_rigid(&at(2.0, RigidShape::Capsule { half_height: 0.2, radius: 0.1 }, RigidModel::Tetrahedron))
        .expect("a capsule");
    w.create_rigid(&at(3.0, RigidShape::Convex { points: hull }, RigidModel::ShapeMatched { stiffness: 1.0 }))
        .expect("a hull");
    stepped(w, 5)
}

fn colliders() -> World {
    let mut w = world(0);
    let q = Quat::from_rotation_z(0.2);
    w.create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 }, Vec3::ZERO, Quat::IDENTITY, 0.5)
        .expect("a plane");
    w.create_collider(ColliderShape::Sphere { radius: 0.5 }, Vec3::new(0.0, 1.0, 0.0), q, 0.5).expect("a sphere");
    w.create_collider(ColliderShape::Box { half_extents: Vec3::splat(0.3) }, Vec3::new(1.0, 0.3, 0.0), q, 0.5)
        .expect("a box");
    let capsule = ColliderShape::Capsule { a: Vec3::ZERO, b: Vec3::X, radius: 0.1 };
    w.create_collider(capsule, Vec3::new(2.0, 0.1, 0.0), q, 0.5).expect("a capsule");
    let hull = ColliderShape::convex(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).expect("hull");
    w.create_collider(hull.clone(), Vec3::new(3.0, 0.0, 0.0), q, 0.5).expect("a convex");
    let mesh = ColliderShape::mesh(&[Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.2, 1.0)], &[0, 1, 2, 1, 3, 2])
        .expect("mesh");
    w.create_collider(mesh, Vec3::new(-2.0, 0.5, 0.0), Quat::IDENTITY, 0.5).expect("a mesh");
    let field = ColliderShape::heightfield(3, 3, 0.5, 0.5, &[0.0, 0.1, 0.0, 0.2, 0.3, 0.1, 0.0, 0.1, 0.0])
        .expect("heightfield");
    w.create_collider(field, Vec3::new(0.0, 0.0, 2.0), Quat::IDENTITY, 0.5).expect("a heightfield");
    let children = vec![
        CompoundChild { shape: ColliderShape::Sphere { radius: 0.2 }, position: Vec3::X, rotation: Quat::IDENTITY },
        CompoundChild { shape: hull, position: Vec3::ZERO, rotation: q },
    ];
    let id = w
        .create_collider(ColliderShape::compound(children), Vec3::new(0.0, 1.0, -2.0), Quat::IDENTITY, 0.5)
        .expect("a compound");
    let material = Material { friction: 0.7, dynamic_friction: 0.5, restitution: 0.2, combine: Combine::Max };
    w.set_collider_material(id, material).expect("material");
    w.set_collider_filter(id, Filter { layer: 4, mask: 5 }).expect("filter");
    w.create_particles(&[Vec3::new(0.0, 1.8, 0.0), Vec3::new(1.0, 1.0, 0.0)], None).expect("particles");
    stepped(w, 5)
}

fn joints() -> World {
    let mut w = world(20_000);
    let doll = w.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8).expect("humanoid");
    let rope: Vec<Vec3> = (0..4).map(|k| Vec3::new(0.0, 3.0 - 0.25 * k as f32, 0.0)).collect();
    let rope = w.create_particles(&rope, Some(&[0.0, 1.0, 1.0, 1.0])).expect("rope");
    let sticks: Vec<DistanceConstraint> =
        (0..3).map(|k| DistanceConstraint { a: k, b: k + 1, rest_length: 0.25, compliance: 0.0 }).collect();
    w.add_distance_constraints(rope, &sticks).expect("sticks");
    w.create_joint(Joint {
        body_a: rope,
        particle_a: 3,
        body_b: doll,
        particle_b: 0,
        rest_length: 0.5,
        compliance: 0.0,
    })
    .expect("a joint");
    w.set_ignored_bones(rope, doll, &[0, 1]).expect("ignored bones");
    let resting = w.create_particles(&[Vec3::new(3.0, 0.0, 0.0)], None).expect("a particle");
    w.set_sleeping(resting, true).expect("sleep");
    stepped(w, 5)
}

/// Every scene, by name.
pub fn all() -> Vec<(&'static str, World)> {
    vec![
        ("particles", particles()),
        ("cloth", cloth()),
        ("folded_cloth", folded_cloth()),
        ("ragdolls", ragdolls()),
        ("rigids", rigids()),
        ("colliders", colliders()),
        ("joints", joints()),
    ]
}
