//! After the first steps with a given topology, `World::step` allocates
//! nothing: a global counting allocator counts every thread's allocations
//! while the steps run, the built-in pool's workers too. (Contact
//! buffers, such as a cloth's vertex-triangle candidates, keep their high
//! water mark: they grow only while contacts grow, hence the warm-up.)

use sinew::solver::workers::built_in;
use sinew::{
    ClothOptions, ColliderShape, Exec, GridDef, Quat, RigidDef, RigidShape, SimdLevel, Target, Vec3, World,
    WorldSettings,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

struct Counting;

/// Whether allocations are counted, on any thread: this file holds one test,
/// so nothing else runs while it watches.
static WATCHING: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator; the bookkeeping allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.load(Ordering::SeqCst) {
            COUNT.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.load(Ordering::SeqCst) {
            COUNT.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made on any thread while `f` runs.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.store(0, Ordering::SeqCst);
    WATCHING.store(true, Ordering::SeqCst);
    f();
    WATCHING.store(false, Ordering::SeqCst);
    COUNT.load(Ordering::SeqCst)
}

/// Cloth in the wind over a sphere, a dragged cloth corner, a cloth with
/// dihedral bending, a humanoid, a rigid box and a heightfield floor: every
/// stage of a step has work.
fn scene() -> (World, sinew::BodyId) {
    let settings = WorldSettings { wind: Vec3::new(2.0, 0.0, 1.0), sleep_speed: 0.0, ..WorldSettings::default() };
    let mut w = World::new(settings).unwrap();
    w.create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: -1.0 }, Vec3::ZERO, Quat::IDENTITY, 0.5).unwrap();
    w.create_collider(ColliderShape::Sphere { radius: 0.5 }, Vec3::new(0.8, -0.6, 0.8), Quat::IDENTITY, 0.5).unwrap();
    let heights: Vec<f32> = (0..100).map(|k| 0.1 * ((k * 7) % 5) as f32).collect();
    let field = ColliderShape::heightfield(10, 10, 0.5, 0.5, &heights).unwrap();
    w.create_collider(field, Vec3::new(-3.0, -0.95, -3.0), Quat::IDENTITY, 0.5).unwrap();
    let options = ClothOptions { self_collision: true, ..ClothOptions::default() };
    let cloth = w.create_cloth_grid(&GridDef { columns: 24, rows: 24, spacing: 0.06, options, ..GridDef::default() });
    let cloth = cloth.unwrap();
    let options = ClothOptions { bend: sinew::BendMode::Dihedral, ..ClothOptions::default() };
    let bent = GridDef { position: Vec3::new(0.0, 0.0, 3.0), columns: 16, rows: 16, options, ..GridDef::default() };
    w.create_cloth_grid(&bent).unwrap();
    w.create_humanoid(Vec3::new(-2.0, 0.0, 0.0), Quat::from_rotation_z(1.0), 1.8).unwrap();
    // Two lying one above the other and a crate on them: contacts between
    // bodies.
    let lying = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    w.create_humanoid(Vec3::new(-4.0, -0.85, 0.0), lying, 1.8).unwrap();
    w.create_humanoid(Vec3::new(-4.0, -0.45, 0.1), Quat::from_rotation_y(0.3) * lying, 1.8).unwrap();
    let def = RigidDef {
        position: Vec3::new(-4.0, 0.0, -0.9),
        ..RigidDef::new(RigidShape::Box { half_extents: Vec3::new(0.3, 0.1, 0.2) })
    };
    w.create_rigid(&def).unwrap();
    let def = RigidDef {
        position: Vec3::new(2.0, 0.0, 0.0),
        ..RigidDef::new(RigidShape::Box { half_extents: Vec3::splat(0.2) })
    };
    w.create_rigid(&def).unwrap();
    // Debris: one-particle bodies, which step in packs of islands (some
    // touching each other, some 1 km out).
    for k in 0..40 {
        let far = if k % 4 == 0 { 1000.0 } else { 0.0 };
        let x = Vec3::new(far + 3.0 + 0.2 * (k % 10) as f32, -0.5 + 0.01 * k as f32, 0.3 * (k / 10) as f32);
        for at in [x, x + Vec3::new(0.012, 0.0, 0.0)].into_iter().take(1 + k % 2) {
            let id = w.create_particles(&[at], None).unwrap();
            w.set_particle_radius(id, 0.01).unwrap();
        }
    }
    (w, cloth)
}

#[test]
fn a_warm_step_allocates_nothing() {
    // The counter sees another thread's allocations (spawning it takes a
    // few on this thread, far from 1000).
    let n = allocations(|| {
        std::thread::scope(|s| {
            s.spawn(|| (0..1000).map(|k| std::hint::black_box(vec![k as u8; 64]).len()).sum::<usize>());
        });
    });
    assert!(n >= 1000, "{n} allocations counted of another thread's 1000");
    for (simd, workers) in [(SimdLevel::Scalar, 1), (sinew::simd::best(), 1), (sinew::simd::best(), 2)] {
        let (mut w, cloth) = scene();
        w.set_execution(Exec { simd, workers: built_in(workers) });
        let target = |k: usize| Target {
            particle: 0,
            position: Vec3::new(0.01 * k as f32, 0.1, 0.0),
            compliance: 0.0,
            max_force: 0.0,
        };
        for k in 0..90 {
            w.set_targets(cloth, &[target(k)]).unwrap();
            w.step(1.0 / 60.0).unwrap();
        }
        // Steps like the measured ones first: the self-colliding cloth
        // settles for a while after the drag, and its pair lists may still
        // grow (they keep their largest size, so once is enough). Bodies
        // that meet for the first time grow an island's scratch too (the
        // body-contact pieces, the self-collision members): with a cloth's
        // edges last in a pass such a meeting came after 60 steps (2
        // allocations in the watched 30), so 180.
        for _ in 0..180 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(w.contacts().any(|c| !c.other_body.is_null()), "the scene has no contacts between bodies");
        let n = allocations(|| {
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
        });
        assert_eq!(n, 0, "{n} allocations in 30 warm steps ({simd:?}, {workers} workers)");
        assert_eq!(w.recovery_count(), 0);
    }
}
