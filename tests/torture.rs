//! The torture suite (issue 25): scenes an engine's worst frames make, each
//! stepped while after every step the test checks that
//!
//! - every position and velocity is finite and no island needed a recovery;
//! - nothing went through a surface the scene says must hold (worst depth
//!   printed, bound stated per scene);
//! - the energy (kinetic + gravity's potential) never exceeds the start's
//!   plus the work the scene's drivers did, with a stated tolerance;
//! - memory is flat: a counting allocator (this thread's; the steps run
//!   serially) sees no allocation in `step` over the second half of the
//!   run, or else no more live bytes in it than in the first half (contact
//!   buffers grow to a high-water mark when contacts first reach it);
//! - a snapshot taken halfway restores into a fresh world that steps on, with
//!   the same drivers and steps, to the original's state hash at every step.
//!
//! `cargo test` runs a short form (a few hundred steps a scene; the file
//! took 6.3 s in the test profile on 2 shared cores); `SINEW_TORTURE_LONG=1`
//! runs 10,000 steps of each (`.ci/run` does when the variable is set).
//! Every figure is printed on one line per scene.
//!
//! Not here yet: two scenes of issue 25's list fail these checks (ropes
//! jointed 4 m to a ragdoll under dt changing every step between 1e-4 and
//! 0.1 s, here only in part: light ropes of 2, 3, 5 and 10 particles
//! holding heavy particles; a chain alternating 1:10^4 masses): issue 25
//! tracks them with what each measures, and each comes here with its fix.

mod common;

use sinew::{
    BodyId, ClothOptions, ColliderId, ColliderShape, DistanceConstraint, GridDef, Joint, MeshDef, Quat, RagdollDef,
    RigidDef, RigidModel, RigidShape, Vec3, World, WorldSettings,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::f32::consts::FRAC_PI_2;
use std::ptr;

// ---------------------------------------------------------------------------
// Memory: this thread's allocations and live bytes while `COUNTING` is on.

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

struct Counting;

fn on_alloc(size: usize) {
    // `try_with`: a thread being torn down has no thread-locals left.
    let _ = COUNTING.try_with(|c| {
        if c.get() {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
            LIVE.with(|l| l.set(l.get() + size as i64));
        }
    });
}

fn on_dealloc(size: usize) {
    let _ = COUNTING.try_with(|c| {
        if c.get() {
            LIVE.with(|l| l.set(l.get() - size as i64));
        }
    });
}

// SAFETY: forwards to the system allocator; the bookkeeping (const
// thread-locals without destructors) allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        on_alloc(layout.size());
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        on_dealloc(layout.size());
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        on_dealloc(layout.size());
        on_alloc(new_size);
        // SAFETY: the caller's contract, passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` with this thread's allocations counted; returns what it
/// returned and how many allocations it made.
fn counted<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, ALLOCATIONS.with(Cell::get) - before)
}

// ---------------------------------------------------------------------------
// The harness.

/// Steps of each scene: 10,000 with `SINEW_TORTURE_LONG` set, else `short`.
fn steps(short: u64) -> u64 {
    let long = std::env::var_os("SINEW_TORTURE_LONG").is_some_and(|v| !v.is_empty() && v != "0");
    if long { 10_000 } else { short }
}

fn sixtieth(_: u64) -> f32 {
    1.0 / 60.0
}

/// One scene: a world, the state its drivers keep (cloned with the world
/// for the snapshot's copy), its step sequence, its drivers and its checks.
struct Scene<S: Clone> {
    name: &'static str,
    world: World,
    state: S,
    dt: fn(u64) -> f32,
    /// Called before step `k` (moves colliders, shoots, creates and destroys).
    drive: fn(&mut World, &mut S, u64),
    /// How far (m) the worst particle is behind a surface that must hold.
    depth: fn(&World, &S) -> f32,
    /// The bound on that depth.
    margin: f32,
    /// Energy (J) the drivers put in up to step `k` (kinematic walls, shots).
    work: fn(&S, u64) -> f64,
    /// Energy tolerance: a fraction of the start's total kinetic and
    /// potential magnitude plus an absolute J. A physical limit (never above
    /// the reference plus the work) with room to round: every scene measures
    /// below it (its largest excess, printed, is negative).
    energy_tolerance: (f64, f64),
}

/// Kinetic plus gravitational potential energy of every body (pinned
/// particles, inverse mass 0, carry none), with each body's energy listed.
///
/// The third figure is how far the readback can overstate it: a velocity
/// read back is the mean over the last substep of `h` s, half a substep
/// old, which gravity's `g h / 2` can separate from the end's: the sum of
/// `m |v| |g| h / 2`.
fn energies(w: &World, h: f64, out: &mut Vec<(BodyId, f64)>) -> (f64, f64, f64) {
    out.clear();
    let g = w.settings().gravity.as_dvec3();
    let (mut total, mut magnitude, mut lag) = (0.0, 0.0, 0.0);
    for b in w.bodies() {
        let mut e = 0.0;
        let inv = w.inv_masses(b).unwrap();
        for ((x, v), &im) in w.positions_f64(b).unwrap().zip(w.velocities(b).unwrap()).zip(inv) {
            if im > 0.0 {
                let m = 1.0 / f64::from(im);
                let (kinetic, potential) = (0.5 * m * v.as_dvec3().length_squared(), -m * g.dot(x));
                e += kinetic + potential;
                magnitude += kinetic + potential.abs();
                lag += m * v.as_dvec3().length() * g.length() * h / 2.0;
            }
        }
        out.push((b, e));
        total += e;
    }
    (total, magnitude, lag)
}

fn all_finite(w: &World) -> bool {
    w.bodies()
        .all(|b| w.positions(b).unwrap().all(|p| p.is_finite()) && w.velocities(b).unwrap().all(|v| v.is_finite()))
}

/// What a run measured.
#[derive(Debug, Default)]
struct Report {
    worst_depth: f32,
    /// Most the energy rose above the reference plus the work done (J; < 0
    /// when it always stayed below).
    worst_energy_excess: f64,
    /// The tolerance it was checked against (J).
    tolerance: f64,
    /// Fastest particle seen (m/s).
    fastest: f32,
    /// The kind of body it belonged to.
    fastest_kind: Option<sinew::BodyKind>,
    /// Steps that needed a recovery.
    recoveries: u64,
    /// Allocations in `step` over the second half.
    late_allocations: u64,
    /// Live bytes, most in the first and in the second half.
    live_first: i64,
    live_second: i64,
    seconds: f64,
    /// The first breach of each check, in words.
    failures: Vec<String>,
}

impl Report {
    /// Keeps the first breach of the check `what` (the text before ':').
    fn fail(&mut self, message: String) {
        let what = message.split(':').next().unwrap_or_default().to_string();
        if !self.failures.iter().any(|f| f.starts_with(&what)) {
            self.failures.push(message);
        }
    }
}

/// Steps `scene` for `n` steps with every check after every step, to the
/// end (or the first non-finite state); prints the figures and returns
/// them, with the first breach of each check in `failures`.
fn run<S: Clone>(mut scene: Scene<S>, n: u64) -> Report {
    let start = std::time::Instant::now();
    let mut report = Report { worst_energy_excess: f64::NEG_INFINITY, ..Report::default() };
    let name = scene.name;
    let w = &mut scene.world;
    let mut listed = Vec::new();
    let (e0, magnitude, _) = energies(w, 0.0, &mut listed);
    let tolerance = scene.energy_tolerance.0 * magnitude + scene.energy_tolerance.1;
    report.tolerance = tolerance;
    // The reference energy: the start's, plus every body's at its creation,
    // less every body's last before its destruction (the others only trade
    // energy with it, or lose it).
    let mut reference = e0;
    let mut previous: Vec<(BodyId, f64)> = listed.clone();
    let half = n / 2;
    let mut copy: Option<(World, S)> = None;
    let mut hashes = Vec::with_capacity((n - half) as usize);
    report.live_first = i64::MIN;
    report.live_second = i64::MIN;
    let mut stepped = n;
    for k in 0..n {
        if k == half {
            let image = w.snapshot();
            let mut restored = World::new(WorldSettings::default()).unwrap();
            restored.restore(&image).unwrap();
            assert_eq!(restored.state_hash(), w.state_hash(), "{name}: the restored copy hashes differently");
            copy = Some((restored, scene.state.clone()));
        }
        let dt = (scene.dt)(k);
        // The drivers' creations are counted in the live bytes, not in the
        // allocations: a created body is bound to allocate.
        counted(|| (scene.drive)(w, &mut scene.state, k));
        let recovered = w.recovery_count();
        let (result, made) = counted(|| w.step(dt));
        result.unwrap();
        if k >= half {
            report.late_allocations += made;
            hashes.push(w.state_hash());
        }
        let live = LIVE.with(Cell::get);
        if k < half {
            report.live_first = report.live_first.max(live);
        } else {
            report.live_second = report.live_second.max(live);
        }
        if !all_finite(w) {
            report.fail(format!("non-finite: at step {k} (dt {dt} s)"));
            stepped = k + 1;
            break;
        }
        if w.recovery_count() > recovered {
            report.recoveries += 1;
            report.fail(format!("recovery: the first at step {k} (dt {dt} s)"));
        }
        let depth = (scene.depth)(w, &scene.state);
        report.worst_depth = report.worst_depth.max(depth);
        if depth > scene.margin {
            report.fail(format!(
                "tunnelling: {depth:.4} m through a surface at step {k} (dt {dt} s), bound {}",
                scene.margin
            ));
        }
        let h = f64::from(dt) / f64::from(w.settings().substeps);
        let (e, _, lag) = energies(w, h, &mut listed);
        for &(b, eb) in &listed {
            if !previous.iter().any(|&(p, _)| p == b) {
                reference += eb;
            }
        }
        for &(b, eb) in &previous {
            if !listed.iter().any(|&(p, _)| p == b) {
                reference -= eb;
            }
        }
        std::mem::swap(&mut previous, &mut listed);
        let (fastest, kind) = w
            .bodies()
            .map(|b| (w.velocities(b).unwrap().map(Vec3::length).fold(0.0, f32::max), w.body_kind(b).ok()))
            .fold((0.0, None), |a, b| if b.0 > a.0 { b } else { a });
        if fastest > report.fastest {
            (report.fastest, report.fastest_kind) = (fastest, kind);
        }
        let excess = e - lag - reference - (scene.work)(&scene.state, k);
        report.worst_energy_excess = report.worst_energy_excess.max(excess);
        if excess > tolerance {
            report.fail(format!(
                "energy: {e:.4} J at step {k} (dt {dt} s), {excess:.4} J over the reference {reference:.4} J plus \
                 the work done (tolerance {tolerance:.4} J), fastest particle {fastest:.1} m/s ({kind:?})"
            ));
        }
    }
    // Memory: no allocation in the steps of the second half, or (contact
    // buffers grow to their high-water mark when contacts first reach it)
    // no more live bytes in it than in the first.
    if report.late_allocations > 0 && report.live_second > report.live_first {
        report.fail(format!(
            "memory: {} allocations in the second half, live bytes grew from {} to {}",
            report.late_allocations, report.live_first, report.live_second
        ));
    }
    // The copy restored halfway steps on to the same hash at every step.
    let (mut restored, mut state) = copy.expect("a copy was taken");
    for (k, hash) in (half..stepped).zip(hashes) {
        (scene.drive)(&mut restored, &mut state, k);
        restored.step((scene.dt)(k)).unwrap();
        if restored.state_hash() != hash {
            report.fail(format!("snapshot: the copy restored at step {half} left the original at step {k}"));
            break;
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    common::note(&format!(
        "torture {name}: {stepped} steps, worst depth {:.2e} m (bound {:.0e}), energy at most {:.3e} J over the \
         reference plus work (tolerance {:.3e} J), fastest {:.3e} m/s ({:?}), {} recoveries, {} allocations in the second \
         half, live bytes at most {} / {} (first / second half), {:.2} s",
        report.worst_depth,
        scene.margin,
        report.worst_energy_excess,
        report.tolerance,
        report.fastest,
        report.fastest_kind,
        report.recoveries,
        report.late_allocations,
        report.live_first,
        report.live_second,
        report.seconds
    ));
    report
}

/// Runs `scene` and fails the test on any breach.
fn torture<S: Clone>(scene: Scene<S>, n: u64) {
    let name = scene.name;
    let report = run(scene, n);
    assert!(report.failures.is_empty(), "{name}:\n  {}", report.failures.join("\n  "));
}

fn no_drive<S>(_: &mut World, _: &mut S, _: u64) {}

fn no_work<S>(_: &S, _: u64) -> f64 {
    0.0
}

fn floor(w: &mut World, height: f32) -> ColliderId {
    let plane = ColliderShape::Plane { normal: Vec3::Y, offset: height };
    w.create_collider(plane, Vec3::ZERO, Quat::IDENTITY, 0.6).unwrap()
}

/// How far the lowest particle of the world is below `height`.
fn below(w: &World, height: f32) -> f32 {
    w.bodies().flat_map(|b| w.positions(b).unwrap()).map(|p| height - p.y).fold(f32::NEG_INFINITY, f32::max)
}

fn below_ground<S>(w: &World, _: &S) -> f32 {
    below(w, 0.0)
}

/// A scene left to itself at 60 Hz over a floor at 0 that nothing may go
/// through, no work done on it.
fn on_the_ground(name: &'static str, world: World) -> Scene<()> {
    Scene {
        name,
        world,
        state: (),
        dt: sixtieth,
        drive: no_drive,
        depth: below_ground,
        // Nothing goes through the ground: measured 0 (never below) in each
        // scene that uses it; 1 cm is the limit's room, not a measurement.
        margin: 0.01,
        work: no_work,
        energy_tolerance: (0.01, 1.0),
    }
}

fn world() -> World {
    World::new(WorldSettings::default()).unwrap()
}

// ---------------------------------------------------------------------------
// The scenes.

/// Six humanoids dropped lying across each other onto a cloth on the ground.
/// What must hold the ground: the humanoids' bone capsules (their lowest
/// points) and the cloth's particles. A humanoid's hinge partners (a
/// particle beside each knee and elbow, half the bone's length out along
/// the hinge's axis, colliding with nothing) are not measured: a knee
/// lying with its axis upright has one 8 cm under the ground, as it should.
#[test]
fn ragdolls_piled_on_cloth() {
    let mut w = world();
    floor(&mut w, 0.0);
    let def = GridDef { position: Vec3::new(-1.2, 0.02, -1.2), columns: 24, rows: 24, pins: 0, ..GridDef::default() };
    let cloth = w.create_cloth_grid(&def.in_xz_plane()).unwrap();
    let lying = Quat::from_rotation_x(-FRAC_PI_2);
    let mut dolls = Vec::new();
    for k in 0..6 {
        let at = Vec3::new(0.1 * (k % 2) as f32, 0.4 + 0.45 * k as f32, -0.8);
        let turn = Quat::from_rotation_y(0.7 * k as f32) * lying;
        // The preset's bones, for their radii.
        dolls.push((w.create_humanoid(at, turn, 1.8).unwrap(), RagdollDef::humanoid(at, turn, 1.8)));
    }
    let scene = Scene {
        name: "ragdolls piled on cloth",
        world: w,
        state: (cloth, dolls),
        dt: sixtieth,
        drive: no_drive,
        depth: |w, (cloth, dolls)| {
            let cloth = w.positions(*cloth).unwrap().map(|p| -p.y).fold(f32::NEG_INFINITY, f32::max);
            let bones = dolls.iter().flat_map(|(b, def)| {
                let x: Vec<Vec3> = w.positions(*b).unwrap().collect();
                (0..def.bones.len() as u32).map(move |k| {
                    let (h, t) = w.ragdoll_bone_particles(*b, k).unwrap();
                    def.bones[k as usize].radius - x[h as usize].y.min(x[t as usize].y)
                })
            });
            bones.fold(cloth, f32::max)
        },
        // Measured 6.5 mm.
        margin: 0.01,
        work: no_work,
        energy_tolerance: (0.01, 1.0),
    };
    torture(scene, steps(240));
}

/// Where the crushing boxes are at step `k`: the gap between them closes
/// from 0.5 m at 0.5 m/s down to 4 mm, holds, opens, and again (a 4 s cycle).
fn crush_gap(k: u64) -> f32 {
    let t = (k % 240) as f32 / 60.0;
    let closing = (0.5 - 0.5 * t).max(0.004);
    if t < 3.0 { closing } else { 0.004 + 0.5 * (t - 3.0) }
}

/// The lower box's top face and the upper box's bottom face.
const CRUSH_FLOOR: f32 = 0.5;
const CRUSH_SPEED: f64 = 0.5;

#[derive(Clone)]
struct Crusher {
    upper: ColliderId,
    cloth: BodyId,
}

/// A cloth lying on a box while another comes down on it and crushes it to
/// 4 mm (less than its thickness), then lifts, every 4 s.
#[test]
fn cloth_crushed_between_closing_boxes() {
    let mut w = world();
    floor(&mut w, 0.0);
    let slab = ColliderShape::Box { half_extents: Vec3::new(1.0, 0.25, 1.0) };
    w.create_collider(slab.clone(), Vec3::new(0.0, CRUSH_FLOOR - 0.25, 0.0), Quat::IDENTITY, 0.6).unwrap();
    let upper = w.create_collider(slab, Vec3::new(0.0, CRUSH_FLOOR + 0.5 + 0.25, 0.0), Quat::IDENTITY, 0.6).unwrap();
    let def = GridDef {
        position: Vec3::new(-0.4, CRUSH_FLOOR + 0.05, -0.4),
        columns: 17,
        rows: 17,
        spacing: 0.05,
        pins: 0,
        ..GridDef::default()
    };
    let cloth = w.create_cloth_grid(&def.in_xz_plane()).unwrap();
    fn drive(w: &mut World, s: &mut Crusher, k: u64) {
        let y = CRUSH_FLOOR + crush_gap(k) + 0.25;
        w.set_collider_transform(s.upper, Vec3::new(0.0, y, 0.0), Quat::IDENTITY).unwrap();
    }
    fn depth(w: &World, s: &Crusher) -> f32 {
        let (at, _) = w.collider_transform(s.upper).unwrap();
        let top = at.y - 0.25;
        w.positions(s.cloth)
            .unwrap()
            .filter(|p| p.x.abs() < 1.0 && p.z.abs() < 1.0)
            .map(|p| (CRUSH_FLOOR - p.y).max(p.y - top))
            .fold(f32::NEG_INFINITY, f32::max)
    }
    // Each particle can at most bounce off the moving wall: (2 v)^2 / 2 per
    // kg, the cloth weighs 1 kg.
    fn work(_: &Crusher, _: u64) -> f64 {
        0.5 * (2.0 * CRUSH_SPEED).powi(2)
    }
    let scene = Scene {
        name: "cloth crushed between closing boxes",
        world: w,
        state: Crusher { upper, cloth },
        dt: sixtieth,
        drive,
        depth,
        // Measured 6.0 mm (the cloth held at 4 mm, less than its thickness).
        margin: 0.01,
        work,
        energy_tolerance: (0.01, 0.01),
    };
    torture(scene, steps(480));
}

#[derive(Clone)]
struct Shots {
    mesh: BodyId,
    slab: BodyId,
}

const SHOT_SPEED: f32 = 300.0;
const SHOT_EVERY: u64 = 60;
const WALL_X: f32 = 2.0;
const SLAB_HALF: f32 = 0.005;

fn shot_start(k: u32) -> Vec3 {
    Vec3::new(0.0, 0.25 * (k % 4) as f32 - 0.4, 0.25 * (k / 4) as f32 - 0.4)
}

/// The shots' velocities: straight at the wall and up to 45 degrees off.
fn shot_velocity(k: u32) -> Vec3 {
    let off = 0.2 * (k % 5) as f32;
    Vec3::new(1.0, 0.3 * off, -off).normalize() * SHOT_SPEED
}

/// Particles shot at 300 m/s at a wall of two triangles (no thickness) and
/// at a 1 cm box, again every second.
#[test]
fn particles_at_300_m_per_s_through_thin_walls() {
    let mut w = world();
    floor(&mut w, -3.0);
    let quad =
        [Vec3::new(0.0, -3.0, -3.0), Vec3::new(0.0, 3.0, -3.0), Vec3::new(0.0, 3.0, 3.0), Vec3::new(0.0, -3.0, 3.0)];
    let mesh = ColliderShape::mesh(&quad, &[0, 1, 2, 0, 2, 3]).unwrap();
    w.create_collider(mesh, Vec3::new(WALL_X, 0.0, 0.0), Quat::IDENTITY, 0.3).unwrap();
    let slab = ColliderShape::Box { half_extents: Vec3::new(SLAB_HALF, 3.0, 3.0) };
    w.create_collider(slab, Vec3::new(WALL_X, 0.0, 20.0), Quat::IDENTITY, 0.3).unwrap();
    let starts: Vec<Vec3> = (0..16).map(shot_start).collect();
    let mesh_shots = w.create_particles(&starts, None).unwrap();
    let slab_starts: Vec<Vec3> = starts.iter().map(|p| *p + Vec3::Z * 20.0).collect();
    let slab_shots = w.create_particles(&slab_starts, None).unwrap();
    fn drive(w: &mut World, s: &mut Shots, k: u64) {
        if k.is_multiple_of(SHOT_EVERY) {
            for (body, dz) in [(s.mesh, 0.0), (s.slab, 20.0)] {
                let starts: Vec<Vec3> = (0..16).map(|i| shot_start(i) + Vec3::Z * dz).collect();
                let velocities: Vec<Vec3> = (0..16).map(shot_velocity).collect();
                w.set_positions(body, 0, &starts).unwrap();
                w.set_velocities(body, 0, &velocities).unwrap();
            }
        }
    }
    fn depth(w: &World, s: &Shots) -> f32 {
        let mesh = w.positions(s.mesh).unwrap().map(|p| p.x - WALL_X);
        let slab = w.positions(s.slab).unwrap().map(|p| p.x - (WALL_X - SLAB_HALF));
        mesh.chain(slab).fold(f32::NEG_INFINITY, f32::max)
    }
    // Each shot gives 32 particles of 1 kg 300 m/s from where they are: their
    // energy before it (at most the last shot's, they only lose it) is gone.
    fn work(_: &Shots, k: u64) -> f64 {
        let shots = (k / SHOT_EVERY + 1) as f64;
        shots * 32.0 * (0.5 * f64::from(SHOT_SPEED).powi(2) + 9.81 * 3.5)
    }
    let scene = Scene {
        name: "particles at 300 m/s at thin walls",
        world: w,
        state: Shots { mesh: mesh_shots, slab: slab_shots },
        dt: sixtieth,
        drive,
        depth,
        // Nothing goes through a wall: measured 0 (never past it); 1 mm is room.
        margin: 1e-3,
        work,
        energy_tolerance: (1e-3, 1.0),
    };
    torture(scene, steps(240));
}

/// Issue 25's extreme mass ratio, 1:10^4 on one stick: a 1 kg particle and
/// a 10 t one on a rigid 1.02 m stick, dropped tilted onto the ground; and
/// a 1 kg particle hung from a pin with a 1 t one on a stick below it,
/// swinging down from level. Not yet: the hung pair at 1:10^4 gains 18.7
/// kJ (4 % of its energy) by step 139 and reaches 160 m/s, as a chain of
/// such masses blows up (issue 25: the tree solve's Newton steps where a
/// light particle lies straight between a pin and a heavy one); 1:10^2
/// and 1:10^3 hold.
#[test]
fn extreme_mass_ratio_on_one_stick() {
    let mut w = world();
    floor(&mut w, 0.0);
    let stick = w.create_particles(&[Vec3::new(5.0, 0.5, 0.0), Vec3::new(5.2, 1.5, 0.0)], Some(&[1.0, 1e-4])).unwrap();
    w.add_distance_constraints(stick, &[DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 }])
        .unwrap();
    let hung = w
        .create_particles(
            &[Vec3::new(-3.0, 3.0, 0.0), Vec3::new(-2.6, 3.0, 0.0), Vec3::new(-1.6, 3.0, 0.0)],
            Some(&[0.0, 1.0, 1e-3]),
        )
        .unwrap();
    let sticks = [
        DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 },
        DistanceConstraint { a: 1, b: 2, rest_length: -1.0, compliance: 0.0 },
    ];
    w.add_distance_constraints(hung, &sticks).unwrap();
    torture(on_the_ground("1:10^4 masses on one stick, 1:10^3 hung from a pin", w), steps(300));
}

/// Sticks of rest length zero (each starts satisfied: a stick that starts
/// violated is a shove, not a torture): three coincident particles joined
/// by them, a hanging chain of coincident pairs, and a zero-length joint.
#[test]
fn zero_length_sticks() {
    let mut w = world();
    floor(&mut w, 0.0);
    let n = 12;
    // Pairs of coincident particles, the pairs 0.1 m apart.
    let points: Vec<Vec3> =
        (0..n).map(|i| Vec3::new(0.0, 3.0 - 0.1 * (i / 2) as f32, 0.1 * (i / 2 % 3) as f32)).collect();
    let masses: Vec<f32> = (0..n).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
    let chain = w.create_particles(&points, Some(&masses)).unwrap();
    let sticks: Vec<DistanceConstraint> = (0..n - 1)
        .map(|i| DistanceConstraint {
            a: i,
            b: i + 1,
            rest_length: if i % 2 == 0 { 0.0 } else { -1.0 },
            compliance: 0.0,
        })
        .collect();
    w.add_distance_constraints(chain, &sticks).unwrap();
    let same = w.create_particles(&[Vec3::new(2.0, 1.0, 0.0); 3], None).unwrap();
    let zero = |a, b| DistanceConstraint { a, b, rest_length: 0.0, compliance: 0.0 };
    w.add_distance_constraints(same, &[zero(0, 1), zero(1, 2), zero(0, 2)]).unwrap();
    // A zero-length joint from the chain's end to a particle on it.
    let end = points[n as usize - 1];
    let hung = w.create_particles(&[end], None).unwrap();
    let joint =
        Joint { body_a: chain, particle_a: n - 1, body_b: hung, particle_b: 0, rest_length: 0.0, compliance: 0.0 };
    w.create_joint(joint).unwrap();
    torture(on_the_ground("zero-length sticks", w), steps(300));
}

/// A humanoid, a cloth on two corners, a rigid box and a particle chain at
/// `scale` (1 is metres) from `origin`, over a floor at the origin's height.
fn mixed(origin: Vec3, scale: f32) -> World {
    let mut w = world();
    // Sleep at the scene's scale (2 cm/s would put a millimetre scene to
    // sleep as it starts to fall).
    w.set_sleep(0.02 * scale, 1.0).unwrap();
    let plane = ColliderShape::Plane { normal: Vec3::Y, offset: origin.y };
    w.create_collider(plane, Vec3::ZERO, Quat::IDENTITY, 0.6).unwrap();
    let lying = Quat::from_rotation_x(-FRAC_PI_2);
    w.create_humanoid(origin + Vec3::new(0.0, 0.3, 0.0) * scale, lying, 1.8 * scale).unwrap();
    let options = ClothOptions { thickness: 0.01 * scale, ..ClothOptions::default() };
    let def = GridDef {
        position: origin + Vec3::new(-0.6, 0.6, 0.4) * scale,
        columns: 12,
        rows: 12,
        spacing: 0.1 * scale,
        pins: sinew::PIN_TOP_LEFT | sinew::PIN_TOP_RIGHT,
        options,
        ..GridDef::default()
    };
    w.create_cloth_grid(&def.in_xz_plane()).unwrap();
    let def = RigidDef {
        position: origin + Vec3::new(1.0, 1.0, 0.0) * scale,
        rotation: Quat::from_rotation_z(0.4),
        particle_radius: 0.0,
        ..RigidDef::new(RigidShape::Box { half_extents: Vec3::splat(0.2 * scale) })
    };
    w.create_rigid(&def).unwrap();
    let points: Vec<Vec3> = (0..8).map(|i| origin + Vec3::new(-1.0 - 0.1 * i as f32, 1.0, 0.0) * scale).collect();
    let chain = w.create_particles(&points, None).unwrap();
    let sticks: Vec<DistanceConstraint> =
        (0..7).map(|i| DistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
    w.add_distance_constraints(chain, &sticks).unwrap();
    w
}

/// The mixed scene at a millimetre's scale: a 1.8 mm humanoid, a 1.1 mm
/// cloth.
#[test]
fn a_1_mm_scene() {
    fn depth(w: &World, _: &()) -> f32 {
        below(w, 0.0)
    }
    let scene = Scene {
        name: "1 mm scene",
        world: mixed(Vec3::ZERO, 1e-3),
        state: (),
        dt: sixtieth,
        drive: no_drive,
        depth,
        // Nothing goes through the ground: measured 0; 1e-5 m is 1 % of the scene.
        margin: 1e-5,
        work: no_work,
        energy_tolerance: (0.01, 1e-9),
    };
    torture(scene, steps(300));
}

const FAR: Vec3 = Vec3::new(1e4, 0.0, 1e4);

/// The mixed scene 10 km from the origin.
#[test]
fn a_scene_10_km_out() {
    fn depth(w: &World, _: &()) -> f32 {
        below(w, FAR.y)
    }
    let scene = Scene {
        name: "10 km out",
        world: mixed(FAR, 1.0),
        state: (),
        dt: sixtieth,
        drive: no_drive,
        depth,
        // Nothing goes through the ground: measured 0; 1 cm is room.
        margin: 0.01,
        work: no_work,
        energy_tolerance: (0.01, 1.0),
    };
    torture(scene, steps(300));
}

/// A deterministic dt for step `k` between 1e-4 and 0.1 s, log-uniform (an
/// engine's hitches, a long frame then short ones): splitmix64 of the step.
fn hitch_dt(k: u64) -> f32 {
    let mut z = k.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let u = (z >> 40) as f32 / (1u64 << 24) as f32;
    1e-4 * 1000f32.powf(u)
}

/// How far the lowest point of what collides is below `height`: the bone
/// capsules of each ragdoll (`def` its preset, for the radii; the hinge
/// partners, colliding with nothing, are left out), the collision spheres
/// of each rigid box of half extent `half` (spheres of radius `half / 2`,
/// the default, inside its faces: its corners are rounded), and the
/// particles of every other body.
fn colliding_below(w: &World, height: f32, def: &RagdollDef, half: f32) -> f32 {
    let mut worst = f32::NEG_INFINITY;
    for b in w.bodies() {
        let x: Vec<Vec3> = w.positions(b).unwrap().collect();
        let lowest = match w.body_kind(b).unwrap() {
            sinew::BodyKind::Ragdoll => (0..def.bones.len() as u32)
                .map(|k| {
                    let (h, t) = w.ragdoll_bone_particles(b, k).unwrap();
                    x[h as usize].y.min(x[t as usize].y) - def.bones[k as usize].radius
                })
                .fold(f32::INFINITY, f32::min),
            sinew::BodyKind::Rigid => {
                let (at, turn) = w.rigid_transform(b).unwrap();
                let r = half / 2.0;
                let sign = |k: u32, bit: u32| if k >> bit & 1 == 0 { -1.0 } else { 1.0 };
                let centre = |k: u32| Vec3::new(sign(k, 0), sign(k, 1), sign(k, 2)) * (half - r);
                (0..8).map(|k| (at + turn * centre(k)).y - r).fold(f32::INFINITY, f32::min)
            }
            _ => x.iter().map(|p| p.y).fold(f32::INFINITY, f32::min),
        };
        worst = worst.max(height - lowest);
    }
    worst
}

/// The fastest a particle of `w` can move when nothing does work on the
/// scene and its particles stay above the ground at 0: all the energy
/// gravity can release (the start's kinetic and potential energy, less the
/// least potential, every particle on the ground: 0), plus the energy
/// check's `tolerance`, in its lightest particle.
fn speed_bound(w: &World, tolerance: f64) -> f32 {
    let start = energies(w, 0.0, &mut Vec::new()).0;
    let heaviest_inv = w.bodies().flat_map(|b| w.inv_masses(b).unwrap().to_vec()).fold(0.0, f32::max);
    let lightest = 1.0 / f64::from(heaviest_inv);
    (2.0 * (start + tolerance) / lightest).sqrt() as f32
}

/// The mixed scene with dt changing every step between 1e-4 and 0.1 s (a
/// long step, then short ones: what the long one left unconverged used to
/// become velocity over the short `h`, 11 J gained at step 7 and the cloth
/// at 1,646 m/s). What must hold the ground: the humanoid's bone capsules,
/// the box's collision spheres, the cloth and the chain. No particle faster
/// than all the energy gravity can release in the lightest one.
#[test]
fn dt_changing_every_step() {
    let lying = Quat::from_rotation_x(-FRAC_PI_2);
    let w = mixed(Vec3::ZERO, 1.0);
    let bound = speed_bound(&w, 0.01 * energies(&w, 0.0, &mut Vec::new()).1 + 1.0);
    let scene = Scene {
        name: "dt 1e-4..0.1 s every step",
        world: w,
        state: RagdollDef::humanoid(Vec3::new(0.0, 0.3, 0.0), lying, 1.8),
        dt: hitch_dt,
        drive: no_drive,
        depth: |w, def| colliding_below(w, 0.0, def, 0.2),
        // Measured 9.5e-4 m (the bound was 1e-2).
        margin: 3e-3,
        work: no_work,
        energy_tolerance: (0.01, 1.0),
    };
    let report = run(scene, steps(600));
    common::note(&format!("torture dt 1e-4..0.1 s every step: speed bound {bound:.1} m/s"));
    assert!(report.failures.is_empty(), "mixed:\n  {}", report.failures.join("\n  "));
    // A physical limit (measured 11.7 m/s against 563): see `speed_bound`.
    assert!(report.fastest < bound, "mixed: a particle at {} m/s, bound {bound} m/s", report.fastest);
}

/// Light ropes of `lengths` particles (0.1 kg, rigid 0.1 m sticks), each
/// pinned at its far end and holding a 70 kg particle through a rigid joint
/// 4 m long (from level: the weights swing down), `origin` out.
fn jointed_ropes(lengths: &[u32], origin: Vec3) -> World {
    let mut w = world();
    floor(&mut w, origin.y);
    for (k, &n) in lengths.iter().enumerate() {
        let z = 2.0 * k as f32;
        let points: Vec<Vec3> = (0..n).map(|i| origin + Vec3::new(-2.0 - 0.1 * i as f32, 6.0, z)).collect();
        let inv: Vec<f32> = (0..n).map(|i| if i == n - 1 { 0.0 } else { 10.0 }).collect();
        let rope = w.create_particles(&points, Some(&inv)).unwrap();
        let sticks: Vec<DistanceConstraint> =
            (0..n - 1).map(|i| DistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
        w.add_distance_constraints(rope, &sticks).unwrap();
        let weight = w.create_particles(&[origin + Vec3::new(2.0, 6.0, z + 0.5)], Some(&[1.0 / 70.0])).unwrap();
        let joint =
            Joint { body_a: rope, particle_a: 0, body_b: weight, particle_b: 0, rest_length: -1.0, compliance: 0.0 };
        w.create_joint(joint).unwrap();
    }
    w
}

/// Issue 25's ropes jointed rigidly at long distances: two light ropes (2
/// and 3 particles), under dt changing every step between 1e-4 and 0.1 s.
/// Before the joints' velocity stage (joint.rs) the weight on the
/// 2-particle rope alone gained 89 kJ; the same pendulum as one body kept
/// its energy. Not yet here (issue 25): a humanoid hanging in place of the
/// weights still gains energy.
#[test]
fn ropes_jointed_rigidly_at_long_distances() {
    let name = "light ropes holding 70 kg through 4 m joints, dt 1e-4..0.1 s";
    torture(jointed_ropes_scene(name, &[2, 3], Vec3::ZERO, (0.01, 1.0)), steps(600));
}

/// The same with ropes of 5 and 10 particles, at the origin and 1 km out.
/// While the joints' passes moved the joint alone after the rope's exact
/// solve, the two did not converge together: 38 kJ over the start at step
/// 96, the weights through the ground. The joint is now solved inside the
/// rope's solve (`DistanceSet::solve_joined`).
#[test]
fn longer_ropes_jointed_rigidly_at_long_distances() {
    for origin in [Vec3::ZERO, Vec3::new(1000.0, 0.0, 1000.0)] {
        let name = "ropes of 5 and 10 particles holding 70 kg through 4 m joints, dt 1e-4..0.1 s";
        // No gain: 1 J of the 8.3 kJ the weights can release (measured
        // -0.03 J at most, at both places).
        torture(jointed_ropes_scene(name, &[5, 10], origin, (0.0, 1.0)), steps(600));
    }
}

/// The scene of [`jointed_ropes`] under hitching steps: nothing reaches
/// the ground (the weights swing 1.5 m above it), energy within `tolerance`.
fn jointed_ropes_scene(name: &'static str, lengths: &[u32], origin: Vec3, tolerance: (f64, f64)) -> Scene<()> {
    Scene {
        name,
        world: jointed_ropes(lengths, origin),
        state: (),
        dt: hitch_dt,
        drive: no_drive,
        depth: below_ground,
        margin: 0.01,
        work: no_work,
        energy_tolerance: tolerance,
    }
}

/// The bodies of the churn scene, one slot per kind, `None` while destroyed.
#[derive(Clone, Default)]
struct Churn {
    bodies: [Option<BodyId>; 7],
    joint: Option<sinew::JointId>,
    collider: Option<ColliderId>,
}

/// Creates body `kind` (particles with sticks, grid cloth, mesh cloth,
/// humanoid, a two-bone ragdoll, tetrahedral and shape-matched rigid
/// bodies) at a place of its own above the floor.
fn create_kind(w: &mut World, kind: usize) -> BodyId {
    let at = Vec3::new(1.5 * kind as f32 - 4.5, 1.0, 0.0);
    match kind {
        0 => {
            let p = w.create_particles(&[at, at + Vec3::X * 0.3, at + Vec3::Y * 0.3], None).unwrap();
            let stick = |a, b| DistanceConstraint { a, b, rest_length: -1.0, compliance: 0.0 };
            w.add_distance_constraints(p, &[stick(0, 1), stick(1, 2), stick(0, 2)]).unwrap();
            p
        }
        1 => {
            let def = GridDef { position: at, columns: 6, rows: 6, pins: 0, ..GridDef::default() };
            w.create_cloth_grid(&def.in_xz_plane()).unwrap()
        }
        2 => {
            let vertices = [Vec3::ZERO, Vec3::X * 0.5, Vec3::new(0.5, 0.0, 0.5), Vec3::Z * 0.5];
            let triangles = [[0, 2, 1], [0, 3, 2]];
            let def = MeshDef {
                position: at,
                rotation: Quat::IDENTITY,
                vertices: &vertices,
                triangles: &triangles,
                weld_tolerance: 0.0,
                inv_masses: None,
                pinned: None,
                options: ClothOptions::default(),
            };
            w.create_cloth_mesh(&def).unwrap()
        }
        3 => w.create_humanoid(at, Quat::from_rotation_x(-FRAC_PI_2), 1.8).unwrap(),
        4 => {
            let bone = |parent: Option<u32>, y: f32| sinew::BoneDef {
                name: String::new(),
                parent,
                position: at + Vec3::Y * y,
                rotation: Quat::IDENTITY,
                length: 0.3,
                radius: 0.05,
                mass: 2.0,
                limit: sinew::Limit::Ball { swing: 0.8, twist_min: -0.3, twist_max: 0.3 },
            };
            w.create_ragdoll(&sinew::RagdollDef { bones: vec![bone(None, 0.0), bone(Some(0), 0.3)] }).unwrap()
        }
        _ => {
            let model = if kind == 5 { RigidModel::Tetrahedron } else { RigidModel::ShapeMatched { stiffness: 1.0 } };
            let def = RigidDef {
                position: at,
                model,
                ..RigidDef::new(RigidShape::Box { half_extents: Vec3::new(0.2, 0.1, 0.15) })
            };
            w.create_rigid(&def).unwrap()
        }
    }
}

/// Every body kind, a joint and a collider created, destroyed and created
/// again between steps: at step k, kind k % 9 is destroyed if it lives,
/// else created.
#[test]
fn every_kind_created_destroyed_and_recreated() {
    let mut w = world();
    floor(&mut w, 0.0);
    fn drive(w: &mut World, s: &mut Churn, k: u64) {
        let slot = (k / 7 % 9) as usize;
        if !k.is_multiple_of(7) {
            return;
        }
        match slot {
            0..7 => match s.bodies[slot].take() {
                Some(b) => w.destroy_body(b).unwrap(),
                None => s.bodies[slot] = Some(create_kind(w, slot)),
            },
            7 => match s.joint.take() {
                // Gone already if one of its bodies was destroyed.
                Some(j) if !w.is_valid_joint(j) => {}
                Some(j) => w.destroy_joint(j).unwrap(),
                None => {
                    if let (Some(a), Some(b)) = (s.bodies[0], s.bodies[1]) {
                        let joint = Joint {
                            body_a: a,
                            particle_a: 0,
                            body_b: b,
                            particle_b: 0,
                            rest_length: 2.0,
                            compliance: 0.0,
                        };
                        s.joint = Some(w.create_joint(joint).unwrap());
                    }
                }
            },
            _ => match s.collider.take() {
                Some(c) => w.destroy_collider(c).unwrap(),
                None => {
                    let ball = ColliderShape::Sphere { radius: 0.3 };
                    s.collider = Some(w.create_collider(ball, Vec3::new(0.0, 0.3, 1.0), Quat::IDENTITY, 0.5).unwrap());
                }
            },
        }
    }
    let scene = Scene {
        name: "every kind created, destroyed, re-created",
        world: w,
        state: Churn::default(),
        dt: sixtieth,
        drive,
        depth: below_ground,
        // Nothing goes through the ground: measured 0; 1 cm is room.
        margin: 0.01,
        work: no_work,
        energy_tolerance: (0.01, 1.0),
    };
    torture(scene, steps(378));
}

/// The engine of [`creating_and_destroying_inside_a_steps_callbacks_is_refused`]:
/// runs each task inline and, every time sinew hands it one, tries to
/// create and destroy bodies and colliders on the stepping world.
struct Meddler {
    world: std::sync::atomic::AtomicPtr<sinew::ffi::SinewWorld>,
    /// A body and a collider that live between steps, for the destroys.
    body: std::sync::Mutex<sinew::ffi::SinewBodyId>,
    collider: std::sync::Mutex<sinew::ffi::SinewColliderId>,
    attempts: std::sync::atomic::AtomicU32,
    /// Calls answered other than `SINEW_RESULT_WORLD_LOCKED`.
    answered: std::sync::Mutex<Vec<sinew::ffi::SinewResult>>,
}

unsafe extern "C" fn meddle(
    task: Option<unsafe extern "C" fn(u32, u32, u32, *mut std::ffi::c_void)>,
    items: u32,
    _min_range: u32,
    task_context: *mut std::ffi::c_void,
    user_context: *mut std::ffi::c_void,
) -> *mut std::ffi::c_void {
    use sinew::ffi::*;
    use std::sync::atomic::Ordering;
    // SAFETY: `user_context` is the test's `Meddler`, alive while the world is.
    let m = unsafe { &*(user_context as *const Meddler) };
    let world = m.world.load(Ordering::Acquire);
    let at = SinewVec3 { x: 3.0, y: 1.0, z: 0.0 };
    let pose = SinewTransform { position: at, rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 } };
    let (mut body, mut collider) = (SinewBodyId::default(), SinewColliderId::default());
    let grid = sinew_default_cloth_grid_def();
    // SAFETY: live locals; the world is alive (it is stepping) and refuses them.
    let codes = unsafe {
        [
            sinew_body_create_particles(world, &at, ptr::null(), 1, &mut body),
            sinew_cloth_create_grid(world, &grid, &mut body),
            sinew_ragdoll_create_humanoid(world, pose, 1.8, &mut body),
            sinew_collider_create_sphere(world, at, 0.5, 0.5, &mut collider),
            sinew_body_destroy(world, *m.body.lock().unwrap()),
            sinew_collider_destroy(world, *m.collider.lock().unwrap()),
        ]
    };
    m.attempts.fetch_add(codes.len() as u32, Ordering::Relaxed);
    m.answered.lock().unwrap().extend(codes.into_iter().filter(|&c| c != SINEW_RESULT_WORLD_LOCKED));
    // SAFETY: sinew's task and context, all of its items at once.
    unsafe { task.expect("a task")(0, items, 0, task_context) };
    ptr::null_mut()
}

unsafe extern "C" fn meddled(_: *mut std::ffi::c_void, _: *mut std::ffi::c_void) {}

/// Every body kind and a collider created and destroyed from inside a
/// step's callbacks (the engine's task callbacks, the only user code that
/// runs during a step) through the C ABI: each call is refused with
/// `SINEW_RESULT_WORLD_LOCKED` and changes nothing; between steps the same
/// calls churn the world. The world steps to the same state hash as one
/// without the engine's meddling, finite and without recoveries.
#[test]
fn creating_and_destroying_inside_a_steps_callbacks_is_refused() {
    use sinew::ffi::*;
    use std::sync::atomic::Ordering;
    let meddler = Meddler {
        world: std::sync::atomic::AtomicPtr::new(ptr::null_mut()),
        body: std::sync::Mutex::new(SinewBodyId::default()),
        collider: std::sync::Mutex::new(SinewColliderId::default()),
        attempts: std::sync::atomic::AtomicU32::new(0),
        answered: std::sync::Mutex::new(Vec::new()),
    };
    let n = steps(120) as u32;
    let mut hashes = Vec::new();
    for meddling in [false, true] {
        let mut def = sinew_default_world_def();
        def.simd_level = SINEW_SIMD_SCALAR;
        def.worker_count = 2;
        if meddling {
            def.enqueue_task = Some(meddle);
            def.finish_task = Some(meddled);
            def.user_task_context = &meddler as *const Meddler as *mut std::ffi::c_void;
        }
        let mut world = ptr::null_mut();
        let mut trail = Vec::new();
        // SAFETY: plain calls with live locals; the world outlives them.
        unsafe {
            assert_eq!(sinew_world_create(&def, &mut world), SINEW_RESULT_OK);
            meddler.world.store(world, Ordering::Release);
            let mut floor = SinewColliderId::default();
            let up = SinewVec3 { x: 0.0, y: 1.0, z: 0.0 };
            assert_eq!(sinew_collider_create_plane(world, up, 0.0, 0.5, &mut floor), SINEW_RESULT_OK);
            let mut grid = sinew_default_cloth_grid_def();
            grid.columns = 32;
            grid.rows = 32;
            let mut cloth = SinewBodyId::default();
            assert_eq!(sinew_cloth_create_grid(world, &grid, &mut cloth), SINEW_RESULT_OK);
            for k in 0..n {
                // Between steps: a body and a collider made, the last ones destroyed.
                let mut body = meddler.body.lock().unwrap();
                let mut collider = meddler.collider.lock().unwrap();
                if k % 2 == 0 {
                    let at = SinewVec3 { x: -3.0, y: 1.0, z: 0.0 };
                    let pose = SinewTransform { position: at, rotation: SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 } };
                    assert_eq!(sinew_ragdoll_create_humanoid(world, pose, 1.8, &mut *body), SINEW_RESULT_OK);
                    let beside = SinewVec3 { x: -3.0, y: 0.3, z: 2.0 };
                    assert_eq!(sinew_collider_create_sphere(world, beside, 0.3, 0.5, &mut *collider), SINEW_RESULT_OK);
                } else {
                    assert_eq!(sinew_body_destroy(world, *body), SINEW_RESULT_OK);
                    assert_eq!(sinew_collider_destroy(world, *collider), SINEW_RESULT_OK);
                }
                drop((body, collider));
                assert_eq!(sinew_world_step(world, 1.0 / 60.0), SINEW_RESULT_OK);
                let mut hash = 0;
                assert_eq!(sinew_world_state_hash(world, &mut hash), SINEW_RESULT_OK);
                trail.push(hash);
            }
            let mut recoveries = 0;
            assert_eq!(sinew_world_recovery_count(world, &mut recoveries), SINEW_RESULT_OK);
            assert_eq!(recoveries, 0);
            sinew_world_destroy(world);
        }
        hashes.push(trail);
    }
    let attempts = meddler.attempts.load(Ordering::Relaxed);
    assert!(attempts > 0, "the engine got no task");
    assert_eq!(*meddler.answered.lock().unwrap(), Vec::<SinewResult>::new(), "calls inside the step not refused");
    assert_eq!(hashes[0], hashes[1], "the refused calls changed the world");
    common::note(&format!(
        "torture callbacks: {n} steps, {attempts} creates and destroys inside the steps, all refused"
    ));
}
