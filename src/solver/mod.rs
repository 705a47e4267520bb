//! One step of the world, as a stage list.
//!
//! ```text
//! step(dt):
//!   prepare colliders in world space                      (once per step)
//!   bounds of every body, swept over the step             (once per step)
//!   frames: a body that strayed from its origin moves it  body.rs
//!   islands: bodies coupled by joints or cloth contact    island.rs
//!     (its bodies then share one frame)
//!   units: an island, or a pack of islands of ragdolls     island.rs
//!     of one skeleton alone (a ragdoll per SIMD lane), or
//!     of small plain bodies (one-particle debris)
//!   for each unit (each stage across its bodies):
//!     colliders in each island's frame, near it
//!     broad phase: colliders each body may reach          (once per step)
//!     cloth pairs: vertex-triangle pairs that may meet     cloth/self_collision.rs
//!       (on the sides their cloths remember from the last step)
//!     settle          after a long step: the island's passes    (positions only)
//!     for each of `substeps` substeps, h = dt / substeps:
//!       inherited       after a change of step: the passes from the
//!                       substep's start with no motion, undone; what
//!                       they moved is taken out of the velocities
//!       predict         leapfrog: forces, gravity, damping          integrate.rs
//!       wind            drag and lift from the velocities          cloth/aero.rs
//!       targets         interpolate, place kinematic particles     constraints/target.rs
//!       for each of `iterations` relaxation passes:
//!         per body:
//!           targets     pull towards the animated points
//!           distances   sticks, batch by batch                     constraints/distance.rs
//!                       (sticks that form a forest: solved exactly) constraints/tree.rs
//!           bending     dihedral angles                            constraints/bend.rs
//!           tethers     no farther from the anchor than L          constraints/tether.rs
//!           skin        max distance, backstop (character cloth)   constraints/skin.rs
//!           ragdoll     PASSES x (collisions, then in SIMD lanes:
//!                       rigid bones, joint limits, separations,
//!                       twists)                                    ragdoll/pass.rs
//!                       collisions, then bone lengths solved exactly,
//!                       contacts held across their surfaces        ragdoll/lengths.rs
//!           rigid body  PASSES x (point collisions, sticks or
//!                       cluster), point collisions                 rigid/
//!           collisions  project out of the candidates              collision/
//!         joints        two-way links between bodies; one with an  constraints/joint.rs
//!                       end in a rope solved with the rope's sticks
//!                       as one more stick of its forest            constraints/tree.rs
//!         cloth pairs   keep vertices off triangles
//!         rigid pairs   bottom-up, each body lifted onto the one below;
//!                       then spheres of one rigid body in another's
//!                       solid                                      rigid/pairs.rs
//!       velocities      what the passes moved, over h, less the    integrate.rs
//!                       inherited corrections
//!                       no relative velocity along rigid sticks    constraints/distance.rs
//!                       nor along rigid joints to a rope, the rope
//!                       weighed as a whole                         constraints/joint.rs
//!       friction        through x_prev, never reversing            collision/friction.rs
//!                       (particles, rigid points, rigid pairs)
//!       bones           rigid motions, joint friction              ragdoll/motion.rs
//!       motors          joints' turns towards the animated pose    ragdoll/motor.rs
//!       rigid bodies    rigid motions, fit for the readback        rigid/
//!     cloth sides       each pair's side, kept with its vertex's cloth (state)
//!     recovery          an island gone non-finite returns to its last good state
//!     internal friction cloth: velocity off its rigid motion      cloth/internal_friction.rs
//!                       loses at most a dt (once a step)
//!     sleep             an island still for `sleep_time` stops
//! ```
//!
//! An island of one body runs all its substeps while its particles are in
//! cache; an island is the unit a worker thread would take. The order of
//! every loop is fixed, which makes a step deterministic.

pub mod integrate;
pub mod island;

// The execution layer's modules and `Exec` lived here; their old paths
// stay for users of the Rust API.
pub use crate::exec::Exec;
pub use crate::exec::{batches, workers};

use crate::body::{Body, ORIGIN_GRID, grid_origin};
use crate::cloth::aero::{self, Air};
use crate::cloth::internal_friction;
use crate::cloth::self_collision::{self, Member, Pair, PairFinder, Side};
use crate::collision::friction::{self, ContactsMut, MAX_PUSH_SPEED, SharedContacts};
use crate::collision::{self, Candidates, Collider, Material, PassContext, Prepared, StepColliders, bodies};
use crate::constraints::joint::{self, Resolved};
use crate::error::{MAX_COORDINATE, MAX_SPEED};
use crate::exec::workers::{Serial, Workers};
use crate::particles::{Particles, ParticlesMut, SharedParticles};
use crate::pool::Pool;
use crate::profile::{Clock, Profile, Stage};
use crate::ragdoll::{self, PASSES};
use crate::rigid::{self, pairs};
use crate::world::World;
use glam::{Quat, Vec3};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Constants of one step, hoisted out of the loops.
struct StepContext {
    dt: f32,
    substeps: u32,
    iterations: u32,
    h: f32,
    h2: f32,
    inv_h2: f32,
    gravity: Vec3,
    /// Velocity factor per substep: (1 - damping)^h.
    damping: f32,
    wind: Vec3,
    air_density: f32,
    sleep_speed: f32,
    sleep_time: f32,
    exec: Exec,
}

impl StepContext {
    /// What gravity and a pass's corrections may add to a move over the
    /// step beyond the velocities (metres): the broad phases' margin.
    fn slack(&self) -> f32 {
        self.gravity.length() * self.dt * self.dt + 0.05
    }

    fn new(world: &World, dt: f32) -> Self {
        let s = &world.settings;
        let h = dt / s.substeps as f32;
        let damping = (1.0 - f64::from(s.damping)).powf(f64::from(h)) as f32;
        StepContext {
            dt,
            substeps: s.substeps,
            iterations: s.iterations,
            h,
            h2: h * h,
            inv_h2: 1.0 / (h * h),
            gravity: s.gravity,
            damping,
            wind: s.wind,
            air_density: s.air_density,
            sleep_speed: s.sleep_speed,
            sleep_time: s.sleep_time,
            exec: world.execution.clone(),
        }
    }
}

/// Scratch kept between steps so a step does not allocate once warm.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    /// The step's joints, tagged with their island.
    joints: Vec<(u32, Resolved)>,
    /// (island, index in it) of each body slot, this step.
    island_of: Vec<(u32, u32)>,
    islands: island::Islands,
    /// Each body slot's body, this step (0: no body).
    bodies: Vec<usize>,
    /// Where each island's joints start in `joints`.
    joint_start: Vec<usize>,
    /// Pairs of bodies that may collide (island, member, member), and
    /// where each island's start.
    body_pairs: Vec<(u32, u32, u32)>,
    pair_start: Vec<usize>,
    /// Bones bodies pass through (island, member, the ragdoll's member,
    /// the bone's head and tail), sorted, and where each island's start.
    ignored: Vec<bodies::Ignored>,
    ignore_start: Vec<usize>,
    /// The islands grouped into units of work (packs of islands of
    /// ragdolls).
    units: island::Units,
    /// One per worker: what stepping an island needs.
    locals: Vec<parking_lot::Mutex<Local>>,
}

/// A copy of a world starts with empty scratch.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

/// What stepping one island needs, kept so a warm step allocates nothing.
/// Each worker has its own.
#[derive(Default, Debug, Clone)]
struct Local {
    /// Aerodynamic accelerations of the substep, per island member.
    aero: Vec<Vec<Vec3>>,
    finder: PairFinder,
    /// The cloth pairs of the island being stepped. Scratch like the rest:
    /// what the next step needs of them (their sides) is kept with the
    /// cloths (see [`remember_sides`]), never read from here by another
    /// step or island.
    pairs: Vec<Pair>,
    /// The island's positions before its step, for recovery.
    backup: Vec<f32>,
    /// Its ragdoll and rigid cluster rotations before its step, likewise.
    backup_rotations: Vec<Quat>,
    /// Collision points of two rigid bodies that may meet this step.
    rigid_pairs: Vec<pairs::Pair>,
    /// Pieces of two bodies that may meet this step, and the search's buffers.
    body_contacts: Vec<bodies::Contact>,
    body_scratch: bodies::Scratch,
    /// The contacts between bodies of the islands this worker stepped.
    touches: Vec<bodies::Touch>,
    /// Rigid bodies seen as rigid bodies, per island member, for one pass.
    frames: Vec<pairs::Frame>,
    /// The rigid pairs' patch leaders, for their friction.
    leaders: pairs::Leaders,
    /// The rigid pairs bottom-up, for shock propagation.
    rigid_order: Vec<u32>,
    /// A ragdoll's substep scratch.
    ragdoll: ragdoll::Scratch,
    /// Swept boxes of one body's particles, for the triangle broad phase.
    boxes: Vec<(Vec3, Vec3)>,
    island: Lists<&'static mut Body>,
    views: Lists<ParticlesMut<'static>>,
    cviews: Lists<ContactsMut<'static>>,
    members: Lists<Member<'static>>,
    ranges: Vec<std::ops::Range<usize>>,
    order: Vec<usize>,
    rigid_scratch: pairs::Scratch,
    /// The colliders in the frame of each island of a unit away from the
    /// world's origin, and which of them are near it.
    colliders: Vec<StepColliders>,
    selected: Vec<bool>,
    /// Each body's colliders, this unit.
    placed: Lists<&'static StepColliders>,
    /// The stages' times, when the world is profiled.
    clock: Clock,
    /// Positions before a settling round (see [`settle`]).
    settled: Vec<Vec3>,
    /// What a substep's passes moved its start by, with no motion (see
    /// [`inherited_corrections`]).
    inherited: Vec<Vec3>,
    /// The cluster rotations at a substep's start, likewise.
    turns: Vec<Quat>,
    /// The island's bodies' candidate colliders, set aside meanwhile.
    candidates: Vec<Candidates>,
    /// The sizes of the unit's islands, in order (one island, or a pack).
    sizes: Vec<u32>,
    /// Per body of the unit, as its island decides: settled after a long
    /// step; its inherited corrections taken out of the velocities; its
    /// step's length changed.
    long: Vec<bool>,
    split: Vec<bool>,
    changed: Vec<bool>,
    /// The islands still settling (see [`settle`]).
    active: Vec<bool>,
    /// The bodies a contact between bodies pushed this substep.
    touched: Vec<bool>,
}

/// An emptied list of borrows, kept between steps for its allocation (see
/// [`recycle`]). A copy of a world starts without one.
struct Lists<T>(Vec<T>);

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists(Vec::new())
    }
}

impl<T> Clone for Lists<T> {
    fn clone(&self) -> Self {
        Lists::default()
    }
}

impl<T> std::fmt::Debug for Lists<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lists(capacity {})", self.0.capacity())
    }
}

/// An emptied `Vec`'s allocation, reused for elements of the same size and
/// alignment: here the same type under another lifetime, so the per-island
/// lists can wait in the scratch between steps. Collecting an emptied
/// `vec::IntoIter` through `map` into such a `Vec` keeps its buffer (the
/// standard library collects in place); tests/no_alloc.rs would see it if not.
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| unreachable!("the vector was emptied")).collect()
}

/// Advances the world by `dt` (validated by the caller).
pub(crate) fn step(world: &mut World, dt: f32) {
    let start = Instant::now();
    let mut prepare = Clock::default();
    prepare.reset(world.profiling);
    let t = prepare.start();
    let ctx = StepContext::new(world, dt);
    world.prepared.rebuild(&world.colliders, ctx.substeps, dt);
    world.contacts.resize(world.particles.len());
    for body in world.bodies.values_mut() {
        body.bounds = swept_bounds(body, &world.particles, dt);
        // Positions stay near their frame's origin, so their precision is
        // that of the body's size: a body that strayed by more than a grid
        // spacing takes the grid point nearest to it.
        let center = (body.bounds.0 + body.bounds.1) * 0.5;
        if !body.sleeping && center.abs().max_element() > ORIGIN_GRID {
            let origin = grid_origin(body.origin + center);
            body.move_frame(origin, world.particles.frame_columns(body.range()));
        }
    }
    let mut islands = std::mem::take(&mut world.scratch.islands);
    island::build(&mut world.bodies, &world.joints, ctx.slack(), &mut islands);
    // The bodies of an island, coupled within a pass, share its first
    // body's frame.
    for members in islands.iter() {
        let origin = world.bodies.slots[members[0] as usize].value.as_ref().expect("live").origin;
        for &i in &members[1..] {
            let body = world.bodies.slots[i as usize].value.as_mut().expect("live");
            body.move_frame(origin, world.particles.frame_columns(body.range()));
        }
    }
    #[cfg(feature = "test-hooks")]
    crate::test_hooks::step_checkpoint();
    let World { particles, bodies, joints, colliders, prepared, contacts, scratch, recoveries, .. } = world;

    // Every joint resolved once, its bodies as indices into its island, in
    // island order; each island then takes its run.
    scratch.island_of.clear();
    scratch.island_of.resize(bodies.slots.len(), (u32::MAX, 0));
    for (k, members) in islands.iter().enumerate() {
        for (m, &slot) in members.iter().enumerate() {
            scratch.island_of[slot as usize] = (k as u32, m as u32);
        }
    }
    let mut resolved = std::mem::take(&mut scratch.joints);
    resolved.clear();
    for (_, j) in joints.iter() {
        let ((island, a), (_, b)) =
            (scratch.island_of[j.body_a.index1 as usize - 1], scratch.island_of[j.body_b.index1 as usize - 1]);
        if island != u32::MAX {
            let r = Resolved {
                body_a: a,
                a: j.particle_a,
                body_b: b,
                b: j.particle_b,
                rest: j.rest_length,
                compliance: j.compliance,
                lambda: 0.0,
            };
            resolved.push((island, r));
        }
    }
    resolved.sort_by_key(|&(island, _)| island); // stable: joint order within an island

    scratch.joint_start.clear();
    scratch.joint_start.extend((0..=islands.len()).map(|k| resolved.partition_point(|&(i, _)| (i as usize) < k)));
    // Likewise the pairs of bodies that may collide with each other.
    let body_pairs = &mut scratch.body_pairs;
    body_pairs.clear();
    for &(a, b) in islands.contacts() {
        let ((island, a), (_, b)) = (scratch.island_of[a as usize], scratch.island_of[b as usize]);
        if island != u32::MAX {
            body_pairs.push((island, a, b));
        }
    }
    body_pairs.sort_by_key(|&(island, _, _)| island); // stable: the sweep's order within an island
    scratch.pair_start.clear();
    scratch.pair_start.extend((0..=islands.len()).map(|k| body_pairs.partition_point(|&(i, _, _)| (i as usize) < k)));
    // And the bones bodies pass through (`World::set_ignored_bones`) of
    // ragdolls in their islands.
    let ignored = &mut scratch.ignored;
    ignored.clear();
    for (slot, s) in bodies.slots.iter().enumerate() {
        let Some(body) = &s.value else { continue };
        for &(other, bone) in &body.ignored {
            let Some(r) = bodies.get(other.into()).and_then(|o| o.ragdoll.as_ref()) else { continue };
            let ((island, member), (island_b, member_b)) =
                (scratch.island_of[slot], scratch.island_of[other.index1 as usize - 1]);
            if island != u32::MAX && island == island_b && (bone as usize) < r.bone_count() {
                let built = &r.skeleton.built;
                ignored.push((island, member, member_b, built.heads[bone as usize], built.tails[bone as usize]));
            }
        }
    }
    ignored.sort_unstable();
    scratch.ignore_start.clear();
    scratch.ignore_start.extend((0..=islands.len()).map(|k| ignored.partition_point(|i| (i.0 as usize) < k)));
    // Islands of ragdolls of one skeleton alone step in packs, by skeleton,
    // and islands of small plain bodies in packs of their own.
    let lanes = ctx.exec.simd.lanes();
    let packs = |k: usize| {
        let members = islands.get(k);
        let body = |i: &u32| bodies.slots[*i as usize].value.as_ref().expect("live");
        let skeleton = |i: &u32| body(i).ragdoll.as_ref().map(|r| Arc::as_ptr(&r.skeleton) as usize);
        let plain = |i: &u32| {
            let b = body(i);
            b.is_plain() && b.count <= island::PLAIN_PACK_PARTICLES
        };
        let key = match skeleton(&members[0]) {
            Some(key) => members.iter().all(|i| skeleton(i) == Some(key)).then_some((key, lanes)),
            None => members.iter().all(plain).then_some((island::PLAIN_KEY, island::PLAIN_PACK)),
        }?;
        let alone = scratch.joint_start[k] == scratch.joint_start[k + 1]
            && scratch.ignore_start[k] == scratch.ignore_start[k + 1];
        alone.then_some((key.0, members.len() as u32, key.1))
    };
    scratch.units.build(islands.len(), packs);
    scratch.bodies.clear();
    scratch.bodies.extend(bodies.slots.iter_mut().map(|s| s.value.as_mut().map_or(0, |b| b as *mut Body as usize)));
    let workers = &*ctx.exec.workers;
    let count = workers.count() as usize;
    if scratch.locals.len() != count {
        scratch.locals.resize_with(count, Default::default);
    }
    for l in scratch.locals.iter_mut() {
        let l = l.get_mut();
        l.touches.clear();
        l.clock.reset(world.profiling);
    }
    prepare.lap(Stage::Prepare, t);
    let shared = Shared {
        particles: particles.shared(),
        contacts: contacts.shared(),
        bodies: &scratch.bodies,
        joints: resolved.as_mut_ptr() as usize,
        joint_start: &scratch.joint_start,
        body_pairs: &scratch.body_pairs,
        pair_start: &scratch.pair_start,
        ignored: &scratch.ignored,
        ignore_start: &scratch.ignore_start,
        islands: &islands,
        colliders,
        prepared,
        ctx: &ctx,
    };
    // Units in parallel when no one unit holds most of the work (then
    // each runs its stick batches alone); otherwise one unit after
    // another, each splitting its large batches across the workers. Either
    // way every island computes the same bits.
    let units = &scratch.units;
    let particles_of = |u: usize| {
        let slots = units.get(u).iter().flat_map(|&k| islands.get(k as usize));
        slots.map(|&i| bodies.slots[i as usize].value.as_ref().map_or(0, |b| b.count)).sum::<usize>()
    };
    let (total, largest) = (0..units.len()).map(particles_of).fold((0, 0), |(t, l), n| (t + n, l.max(n)));
    let recovered = AtomicU64::new(0);
    if count > 1 && units.len() > 1 && largest * 2 <= total {
        let locals = &scratch.locals;
        workers.run_claimed(units.len() as u32, 1, &|range, worker| {
            let mut local = locals[worker as usize].try_lock().expect("one task per worker index at a time");
            for u in range {
                // SAFETY: islands hold disjoint bodies, particles and joints,
                // a unit holds each island once and `run_claimed` runs each
                // unit once (a range handed out twice is refused before it runs).
                let n = unsafe { shared.step_unit(units.get(u as usize), &mut local, &Serial) };
                recovered.fetch_add(n, Ordering::Relaxed);
            }
        });
    } else {
        let mut local = scratch.locals[0].lock();
        for u in 0..units.len() {
            // SAFETY: one unit at a time.
            let n = unsafe { shared.step_unit(units.get(u), &mut local, workers) };
            recovered.fetch_add(n, Ordering::Relaxed);
        }
    }
    *recoveries += recovered.load(Ordering::Relaxed);
    // The contacts between bodies, in island order whichever worker took
    // which island.
    world.touches.clear();
    world.touches.reserve(scratch.locals.iter_mut().map(|l| l.get_mut().touches.capacity()).sum());
    for l in scratch.locals.iter_mut() {
        world.touches.extend_from_slice(&l.get_mut().touches);
    }
    world.touches.sort_unstable_by_key(|t| (t.island, t.order));
    scratch.islands = islands;
    scratch.joints = resolved;
    for c in world.colliders.values_mut() {
        c.prev_position = c.position;
        c.prev_rotation = c.rotation;
    }
    world.last_dt = dt;
    world.steps += 1;
    if world.profiling {
        let mut stages = prepare.seconds;
        for l in world.scratch.locals.iter_mut() {
            stages.iter_mut().zip(l.get_mut().clock.seconds).for_each(|(s, t)| *s += t);
        }
        world.profile = Profile { step: start.elapsed().as_secs_f64(), stages };
    }
}

/// What the islands of a step share; each takes its own bodies, particle
/// ranges and joints through it.
struct Shared<'a> {
    particles: SharedParticles,
    contacts: SharedContacts,
    /// Each body slot's body as an address (0: none).
    bodies: &'a [usize],
    /// The step's resolved joints (address of the first), by island.
    joints: usize,
    joint_start: &'a [usize],
    /// The step's pairs of bodies that may collide (island, member,
    /// member), by island.
    body_pairs: &'a [(u32, u32, u32)],
    pair_start: &'a [usize],
    /// The bones bodies pass through, by island.
    ignored: &'a [bodies::Ignored],
    ignore_start: &'a [usize],
    islands: &'a island::Islands,
    colliders: &'a Pool<Collider>,
    prepared: &'a StepColliders,
    ctx: &'a StepContext,
}

impl Shared<'_> {
    /// Steps the islands of a unit (see [`island::Units`]); returns how
    /// many went non-finite and were put back.
    ///
    /// # Safety
    /// No other thread steps these islands meanwhile (islands own disjoint
    /// bodies, particle ranges and joints, so different islands may run at once).
    unsafe fn step_unit(&self, unit: &[u32], local: &mut Local, workers: &dyn Workers) -> u64 {
        let ctx = self.ctx;
        let mut island: Vec<&mut Body> = recycle(std::mem::take(&mut local.island).0);
        for &k in unit {
            let members = self.islands.get(k as usize).iter();
            // SAFETY: the island's bodies are its own (the caller's
            // contract), live for the step.
            island.extend(members.map(|&i| unsafe { &mut *(self.bodies[i as usize] as *mut Body) }));
        }
        // The runs of joints and ignored bones are the first island's: a
        // pack's islands have none.
        let k = unit[0] as usize;
        let (from, to) = (self.joint_start[k], self.joint_start[k + 1]);
        // SAFETY: as above, for the island's run of the joints.
        let island_joints =
            unsafe { std::slice::from_raw_parts_mut((self.joints as *mut (u32, Resolved)).add(from), to - from) };
        local.ranges.clear();
        local.ranges.extend(island.iter().map(|b| b.step_range()));
        let mut views = recycle(std::mem::take(&mut local.views).0);
        let mut cviews = recycle(std::mem::take(&mut local.cviews).0);
        // SAFETY: as above, for the islands' particle ranges.
        unsafe {
            self.particles.views(&local.ranges, ctx.h, &mut local.order, &mut views);
            self.contacts.views(&local.ranges, &mut local.order, &mut cviews);
        }
        cviews.iter_mut().for_each(ContactsMut::clear_step);
        island.iter_mut().filter_map(|b| b.rigid.as_mut()).for_each(|r| r.contacts.clear_step());
        // The colliders in each island's frame: the world's as they are at
        // the world's origin, else those near the island, moved into it.
        let mut near = std::mem::take(&mut local.colliders);
        // Grown, never shrunk: units of other sizes follow (packs, lone
        // islands), and an entry dropped here would allocate again.
        if near.len() < unit.len() {
            near.resize_with(unit.len(), Default::default);
        }
        let mut at = 0;
        for (&k, near) in unit.iter().zip(near.iter_mut()) {
            let bodies = &island[at..at + self.islands.get(k as usize).len()];
            at += bodies.len();
            let origin = bodies[0].origin;
            if origin != Vec3::ZERO {
                let reach = ctx.gravity.length() * ctx.dt * ctx.dt + 0.05 + 0.25;
                let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
                for b in bodies {
                    let r = b.radii.iter().fold(b.radius, |m, &r| m.max(r)) + reach;
                    (lo, hi) = (lo.min(b.bounds.0 - r), hi.max(b.bounds.1 + r));
                }
                let world = (origin + lo, origin + hi);
                near.rebuild_near(
                    self.colliders,
                    ctx.substeps,
                    ctx.dt,
                    self.prepared,
                    origin,
                    world,
                    &mut local.selected,
                );
            }
        }
        let mut placed: Vec<&StepColliders> = recycle(std::mem::take(&mut local.placed).0);
        placed.extend(island.iter().map(|_| self.prepared));
        let mut at = 0;
        for (&k, near) in unit.iter().zip(near.iter()) {
            let n = self.islands.get(k as usize).len();
            if island[at].origin != Vec3::ZERO {
                placed[at..at + n].fill(near);
            }
            at += n;
        }
        let t = local.clock.start();
        for ((body, p), prepared) in island.iter_mut().zip(views.iter()).zip(placed.iter()) {
            broad_phase(body, p, prepared, ctx, &mut local.boxes);
        }
        find_cloth_pairs(&island, self.islands.get(k), &views, ctx, local);
        pairs::find(&island, &views, ctx.dt, &mut local.rigid_pairs, &mut local.rigid_scratch);
        // Each island's body pairs, by its members' places in the unit: its
        // contacts come out in island order, each island's as alone.
        let firsts = unit.iter().scan(0, |at, &k| {
            let first = *at;
            *at += self.islands.get(k as usize).len() as u32;
            Some((k as usize, first))
        });
        let body_pairs = firsts.flat_map(|(k, first)| {
            self.body_pairs[self.pair_start[k]..self.pair_start[k + 1]]
                .iter()
                .map(move |&(_, a, b)| (a + first, b + first))
        });
        let (contacts, scratch) = (&mut local.body_contacts, &mut local.body_scratch);
        let ignored = &self.ignored[self.ignore_start[k]..self.ignore_start[k + 1]];
        bodies::find(&island, &views, body_pairs, island_joints, ignored, ctx.dt, ctx.slack(), contacts, scratch);
        save(&views, &mut local.backup);
        save_rotations(&island, &mut local.backup_rotations);
        local.clock.lap(Stage::BroadPhase, t);
        local.sizes.clear();
        local.sizes.extend(unit.iter().map(|&k| self.islands.get(k as usize).len() as u32));
        solve_island(&mut island, &mut views, &mut cviews, island_joints, &placed, ctx, local, workers);
        // The first island's slots: a pack holds no cloth, so no pairs.
        remember_sides(&mut island, self.islands.get(k), &local.pairs);
        let t = local.clock.start();
        local.placed = Lists(recycle(placed));
        local.colliders = near;
        // Each island of the unit on its own: recovery, sleep, contacts.
        let mut recovered = 0;
        let (mut at, mut saved, mut turned, mut touched) = (0, 0, 0, 0);
        for &k in unit {
            let members = self.islands.get(k as usize);
            let range = at..at + members.len();
            at = range.end;
            let contacts = touched..touched + local.body_contacts[touched..].partition_point(|c| (c.a as usize) < at);
            touched = contacts.end;
            let first = range.start as u32;
            let (island, views, cviews) = (&mut island[range.clone()], &mut views[range.clone()], &mut cviews[range]);
            let backup = saved..saved + views.iter().map(|p| 6 * p.len()).sum::<usize>();
            let rotations = turned..turned + cluster_rotations(island).map(<[Quat]>::len).sum::<usize>();
            (saved, turned) = (backup.end, rotations.end);
            let backup = &local.backup[backup];
            let bad = !sane(views, island) || !rotations_sane(island);
            if bad {
                recover(views, backup);
                recover_rotations(island, &local.backup_rotations[rotations]);
                island.iter_mut().for_each(|b| b.h_prev = 0.0);
                recovered += 1;
            }
            if !bad {
                // Once a step, not a substep: the cost stays off the passes.
                for (body, p) in island.iter().zip(views.iter_mut()) {
                    if body.cloth.is_some() {
                        internal_friction::apply(p, internal_friction::INTERNAL_FRICTION * ctx.dt);
                    }
                }
            }
            let asleep = update_sleep(island, views, cviews, backup, ctx);
            if !bad && !asleep {
                let origin = island[0].origin;
                let contacts = &local.body_contacts[contacts];
                bodies::record(k, members, island, views, contacts, first, origin, &mut local.touches);
            }
        }
        local.clock.lap(Stage::Finish, t);
        local.views = Lists(recycle(views));
        local.cviews = Lists(recycle(cviews));
        local.island = Lists(recycle(island));
        recovered
    }
}

/// A unit's bodies in a step, and what every pass over them shares: each
/// body's particles, contacts and colliders, the step's context, the
/// workers, the ragdolls' scratch and the stage clock.
struct Unit<'s, 'b> {
    bodies: &'s mut [&'b mut Body],
    views: &'s mut [ParticlesMut<'b>],
    cviews: &'s mut [ContactsMut<'b>],
    /// Each body's colliders.
    colliders: &'s [&'s StepColliders],
    ctx: &'s StepContext,
    /// Shape projections of a rigid body per substep (its stiffness is per
    /// substep).
    rigid_passes: u32,
    /// Whether any body is a ragdoll (a unit without skips their stages).
    ragdolls: bool,
    workers: &'s dyn Workers,
    scratch: &'s mut ragdoll::Scratch,
    clock: &'s mut Clock,
    /// When the last timed stage ended.
    t: Option<Instant>,
}

impl Unit<'_, '_> {
    /// Ends the timing of `stage`.
    fn lap(&mut self, stage: Stage) {
        self.t = self.clock.lap(stage, self.t);
    }
}

/// The substeps of one unit: an island, or a pack of islands (see
/// [`island::Units`]); `colliders` are each body's.
#[allow(clippy::too_many_arguments)] // the island's parts, borrowed separately
fn solve_island<'b>(
    island: &mut [&'b mut Body],
    views: &mut [ParticlesMut<'b>],
    cviews: &mut [ContactsMut<'b>],
    joints: &mut [(u32, Resolved)],
    colliders: &[&StepColliders],
    ctx: &StepContext,
    local: &mut Local,
    workers: &dyn Workers,
) {
    let Local {
        aero: accel,
        pairs,
        rigid_pairs,
        body_contacts,
        frames,
        leaders,
        rigid_order,
        clock,
        settled,
        inherited,
        turns,
        candidates,
        sizes,
        long,
        split,
        changed,
        active,
        touched,
        ragdoll: scratch,
        ..
    } = local;
    let t = clock.start();
    if accel.len() < island.len() {
        accel.resize_with(island.len(), Vec::new); // grown only, as the colliders in `step_unit`
    }
    for (body, p) in island.iter_mut().zip(views.iter()) {
        if let Some(ragdoll) = &mut body.ragdoll {
            ragdoll.begin_step(p);
        }
    }
    // Bodies in contact with each other make a second round of their
    // rigid shapes' projections.
    let rounds = if rigid_pairs.is_empty() { 1 } else { 2 };
    // Each island of the unit decides for its bodies (a pack's islands are
    // independent, and which islands share a pack depends on the lanes'
    // width: a decision for the whole pack gave a ragdoll other bits at
    // another SIMD level, or restored from a snapshot).
    let per_island = |flag: &mut Vec<bool>, of: &dyn Fn(&Body) -> bool| {
        flag.clear();
        let mut at = 0;
        for &n in sizes.iter() {
            let r = at..at + n as usize;
            let on = island[r.clone()].iter().any(|b| of(b));
            flag.extend(r.map(|_| on));
            at += n as usize;
        }
    };
    // The corrections of inherited error are taken out of the velocities
    // after a long step, and after any change of step whose inherited error
    // would give more than a push-out may (a long step's error outlives the
    // short step after it when the passes converge slowly). A step as long
    // as the last, or a body's first, is stepped as ever.
    per_island(long, &|b| b.h_prev > SETTLE_RATIO * ctx.h);
    per_island(changed, &|b| b.h_prev > 0.0 && b.h_prev != ctx.h);
    split.clear();
    split.extend_from_slice(long);
    let ragdolls = island.iter().any(|b| b.ragdoll.is_some());
    let mut u = Unit {
        bodies: island,
        views,
        cviews,
        colliders,
        ctx,
        rigid_passes: rigid::PASSES * ctx.iterations * rounds,
        ragdolls,
        workers,
        scratch,
        clock,
        t,
    };
    // What couples the bodies, for every pass of the step.
    let mut links = Links { joints, pairs, rigid_pairs, body_contacts, frames, leaders, order: rigid_order };
    if long.contains(&true) {
        settle(&mut u, &mut links, (sizes, long, active), settled, turns);
    }
    for substep in 0..ctx.substeps {
        u.lap(Stage::Predict);
        if split.contains(&true) || (substep == 0 && changed.contains(&true)) {
            inherited_corrections(&mut u, &mut links, substep, settled, inherited, turns, candidates);
            // An island whose inherited corrections would give more than a
            // push-out may keeps them out for the rest of the step.
            let fix = MAX_PUSH_SPEED * ctx.h;
            let (mut body, mut at) = (0, 0);
            for &n in sizes.iter() {
                let bodies = body..body + n as usize;
                let count: usize = u.views[bodies.clone()].iter().map(|p| p.len()).sum();
                let asks = split[body] || (substep == 0 && changed[body]);
                if asks && inherited[at..at + count].iter().any(|d| d.length_squared() > fix * fix) {
                    split[bodies].fill(true);
                }
                body += n as usize;
                at += count;
            }
        }
        let all = u.bodies.iter_mut().zip(u.views.iter_mut()).zip(u.cviews.iter_mut()).zip(accel.iter_mut());
        for (((body, p), c), a) in all {
            // Half the last substep and half this one; a body whose
            // velocity is as of now (h_prev = 0) gets half this one.
            let h_prev = if substep == 0 { body.h_prev } else { ctx.h };
            let kick = (h_prev + ctx.h) * 0.5;
            if !body.forces.is_empty() {
                integrate::kick_forces(p, &body.forces, kick);
            }
            // Drag and lift from the velocities the last substep left.
            a.clear();
            if let Some(cloth) = &body.cloth {
                let air =
                    Air { wind: ctx.wind + cloth.wind, density: ctx.air_density, drag: cloth.drag, lift: cloth.lift };
                if air.active() {
                    aero::accelerations(p, &cloth.triangles, &air, ctx.h, a);
                }
            }
            integrate::predict(p, ctx.damping, ctx.gravity * kick, ctx.h);
            aero::apply(p, a, ctx.h2);
            body.targets.begin_substep(p, substep, ctx.substeps);
            if body.skin.is_active() {
                body.skin.begin_substep(substep, ctx.substeps);
                body.skin.place_pinned(p);
            }
            body.distances.begin_substep();
            body.bends.begin_substep();
            if let Some(r) = &mut body.rigid {
                r.begin_substep(p);
            }
            if let Some(r) = &mut body.ragdoll {
                r.begin_substep(p);
            }
            c.clear();
        }
        joint::begin_substep(links.joints);
        pairs::begin_substep(links.rigid_pairs);
        bodies::begin_substep(links.body_contacts);
        u.lap(Stage::Predict);
        for _ in 0..ctx.iterations {
            relax(&mut u, &mut links, substep, true);
        }
        let mut at = 0;
        touched.clear();
        if u.ragdolls {
            touched.resize(u.bodies.len(), false);
            for k in links.body_contacts.iter().filter(|k| k.depth > 0.0) {
                (touched[k.a as usize], touched[k.b as usize]) = (true, true);
            }
        }
        let all = u.bodies.iter_mut().zip(u.views.iter_mut()).zip(u.cviews.iter_mut());
        for (b, ((body, p), c)) in all.enumerate() {
            match &body.ragdoll {
                Some(r) => r.update_velocities(p, !touched[b] && !c.depth.iter().any(|&d| d > 0.0)),
                None => integrate::update_velocities(p),
            }
            if split[b] {
                let inv_h = 1.0 / ctx.h;
                for i in 0..p.len() {
                    p.set_velocity(i, p.velocity(i) - inherited[at + i] * inv_h);
                }
            }
            at += p.len();
            body.distances.project_velocities(p, ctx.inv_h2, ctx.exec.simd, workers);
            let prepared = u.colliders[b].substep(substep);
            if !body.candidates.is_empty() {
                friction::finish(p, c, prepared, body.material.as_ref(), ctx.gravity, ctx.h, body.ragdoll.is_some());
            }
            if let Some(r) = &mut body.rigid
                && links.rigid_pairs.is_empty()
            {
                r.friction(p, prepared, body.material.as_ref(), ctx.h);
            }
        }
        if !links.joints.is_empty() {
            joint::project_velocities(u.views, &mut BodyRopes(u.bodies), links.joints, ctx.inv_h2);
        }
        pairs::friction(u.bodies, u.views, links.rigid_pairs, links.frames, links.leaders, ctx.h);
        if !links.rigid_pairs.is_empty() {
            // Rigid bodies against colliders after their pairs, so a body
            // resting on the ground holds against what the pairs' friction
            // gave it in this substep: taken before, a long box under a
            // sliding box kept `mu m g h / M` for the next substep (8 mm/s
            // at one substep of 1/60 s) and moved 3.7 mm while the slide
            // lasted (0.2 mm after).
            for (b, (body, p)) in u.bodies.iter_mut().zip(u.views.iter_mut()).enumerate() {
                if let Some(r) = &mut body.rigid {
                    r.friction(p, u.colliders[b].substep(substep), body.material.as_ref(), ctx.h);
                }
            }
        }
        bodies::friction(u.bodies, u.views, links.body_contacts);
        u.lap(Stage::Velocities);
        if u.ragdolls {
            let steps = (substep, ctx.substeps);
            u.t = ragdoll::project_velocities(u.bodies, u.views, ctx.h, steps, ctx.exec.simd, u.scratch, u.clock, u.t);
        }
        for (body, p) in u.bodies.iter_mut().zip(u.views.iter_mut()) {
            if let Some(r) = &mut body.rigid {
                r.finish_substep(p, ctx.h);
                u.t = u.clock.lap(Stage::RigidBodies, u.t);
            }
        }
    }
    for body in u.bodies.iter_mut() {
        body.h_prev = ctx.h;
        body.forces.clear();
        body.targets.end_step();
        body.skin.end_step();
        if let Some(ragdoll) = &mut body.ragdoll {
            ragdoll.motors.end_step();
        }
    }
    u.lap(Stage::Finish);
}

/// The island's bodies as the joint stage sees them: their sticks.
struct BodyRopes<'a, 'b>(&'a mut [&'b mut Body]);

impl joint::Ropes for BodyRopes<'_, '_> {
    fn distances(&mut self, body: usize) -> &mut crate::constraints::distance::DistanceSet {
        &mut self.0[body].distances
    }
}

/// What couples the bodies of an island within a pass.
struct Links<'a> {
    joints: &'a mut [(u32, Resolved)],
    /// Cloth vertex-triangle pairs.
    pairs: &'a mut [Pair],
    rigid_pairs: &'a mut [pairs::Pair],
    body_contacts: &'a mut [bodies::Contact],
    frames: &'a mut Vec<pairs::Frame>,
    leaders: &'a mut pairs::Leaders,
    /// Scratch: the rigid pairs bottom-up.
    order: &'a mut Vec<u32>,
}

/// One relaxation pass of `substep` over a unit: each body's constraints
/// (its targets' pulls only when `targets`), its ragdoll passes, its
/// contacts, then what couples the bodies.
fn relax(u: &mut Unit, links: &mut Links, substep: u32, targets: bool) {
    let ctx = u.ctx;
    // Bodies that touch each other take their ragdoll passes in turn,
    // each followed by the contacts between them, so the bones' fits
    // take those in as they take the ground's; a body alone runs its
    // passes at once.
    let interleave = !links.body_contacts.is_empty();
    for (body, p) in u.bodies.iter_mut().zip(u.views.iter_mut()) {
        constraints_pass(body, p, ctx, targets, u.workers);
    }
    u.lap(Stage::Constraints);
    // The ragdoll passes of every body at once, stage by stage
    // across them: bodies apart are independent (each gets the bits
    // it would alone); bodies that touch take the contacts between
    // them after each pass.
    for _ in 0..PASSES {
        if u.ragdolls {
            ragdoll_passes(u, substep);
        }
        if interleave {
            bodies::project(u.bodies, u.views, links.body_contacts, links.frames, None);
            u.lap(Stage::Couplings);
        }
    }
    let all = u.bodies.iter_mut().zip(u.views.iter_mut()).zip(u.cviews.iter_mut());
    for (b, ((body, p), c)) in all.enumerate() {
        let material = body.material;
        let pass = pass_context(&material, body.ragdoll.is_some(), u.colliders[b].substep(substep), ctx);
        u.t = contacts_pass(body, p, c, &pass, ctx, u.rigid_passes, u.scratch, u.clock, u.t);
    }
    joint::project(u.views, &mut BodyRopes(u.bodies), links.joints, ctx.inv_h2);
    self_collision::project(u.views, links.pairs);
    bodies::project(u.bodies, u.views, links.body_contacts, links.frames, Some(u.cviews));
    if !links.rigid_pairs.is_empty() {
        // Rigid bodies in contact: first bottom-up, each body lifted onto
        // the one it rests on; then each pass the pairs, then every body's
        // collisions and shape, so stacks converge.
        let up = -ctx.gravity.normalize_or_zero();
        pairs::propagate(u.bodies, u.views, links.rigid_pairs, links.frames, links.order, up, ctx.h);
        for pass in 0..rigid::PASSES {
            pairs::project(u.bodies, u.views, links.rigid_pairs, links.frames, ctx.h, pass % 2 == 1);
            for (b, (body, p)) in u.bodies.iter_mut().zip(u.views.iter_mut()).enumerate() {
                let Body { rigid, candidates, distances, .. } = &mut **body;
                if let Some(r) = rigid {
                    let prepared = u.colliders[b].substep(substep);
                    r.project(p, distances, candidates, prepared, ctx.inv_h2, u.rigid_passes);
                }
            }
        }
    }
    u.lap(Stage::Couplings);
}

/// What the passes of a substep move its start by when nothing moves:
/// the correction of the error the substep inherits (`out`, per particle
/// of the island), which must not become velocity. Run before the predict,
/// from the substep's start with `x_prev = x`, and then undone: the
/// substep's own passes make the correction again, with the motion's, and
/// the velocity stage takes this one back out.
///
/// Why the difference of two runs and not a positions-only settle: passes
/// that do not converge (a taut rope holding a heavy body, a cloth's long
/// range) leave error a settle cannot remove, which the substep's passes
/// then turn into velocity at the error over `h`. The passes are nearly
/// linear in the start, so the substep's correction less this one is the
/// motion's, converged or not: the split impulse of position solvers.
/// Without the contacts, whose push-outs cap their own speed (see the
/// call).
///
/// Measured (tests/torture.rs, the mixed scene under dt changing every
/// step between 1e-4 and 0.1 s): before, 11 J gained at step 7 and the
/// pinned cloth at 1,646 m/s; after, never above the start's energy and
/// 6.9 m/s at most. It costs `iterations` passes more per substep, only
/// in steps whose `h` differs from the last.
fn inherited_corrections(
    u: &mut Unit,
    links: &mut Links,
    substep: u32,
    start: &mut Vec<Vec3>,
    out: &mut Vec<Vec3>,
    turns: &mut Vec<Quat>,
    candidates: &mut Vec<Candidates>,
) {
    start.clear();
    save_rotations(u.bodies, turns);
    start.extend(u.views.iter().flat_map(|p| (0..p.len()).map(|i| p.position(i))));
    begin_still_substep(u, links);
    // Without the contacts: a push-out of what the substep inherits caps
    // its own speed (`friction::MAX_PUSH_SPEED`), and which contacts hold
    // differs between a run with motion and one without (a particle resting
    // on the ground is pushed in one, not in the other), which would count
    // the difference as motion.
    candidates.clear();
    candidates.extend(u.bodies.iter_mut().map(|b| std::mem::take(&mut b.candidates)));
    let mut constraints = Links {
        joints: &mut *links.joints,
        pairs: &mut [],
        rigid_pairs: &mut [],
        body_contacts: &mut [],
        frames: &mut *links.frames,
        leaders: &mut *links.leaders,
        order: &mut *links.order,
    };
    for _ in 0..u.ctx.iterations {
        relax(u, &mut constraints, substep, false);
    }
    for (b, c) in u.bodies.iter_mut().zip(candidates.drain(..)) {
        b.candidates = c;
    }
    out.clear();
    let mut at = 0;
    for (p, c) in u.views.iter_mut().zip(u.cviews.iter_mut()) {
        for i in 0..p.len() {
            out.push(p.position(i) - start[at + i]);
            p.set_position(i, start[at + i]);
        }
        at += p.len();
        c.clear();
    }
    recover_rotations(u.bodies, turns);
}

/// A substep this many times shorter than a body's last one (a long
/// frame, a hitch, then short ones again) has its island settled first
/// (see [`settle`]) and its inherited corrections taken out of the
/// velocities (see [`inherited_corrections`]).
const SETTLE_RATIO: f32 = 2.0;
/// Most rounds of a settling, and the largest move (m) of a round that ends it.
const SETTLE_ROUNDS: usize = 30;
const SETTLE_TOLERANCE: f32 = 1.0e-4;

/// Settles an island after a long step, before the substeps of a short
/// one: its passes (constraints, ragdolls, rigid bodies, contacts, joints
/// and the couplings between its bodies, without the targets' pulls),
/// round after round, moving positions only (the predict that follows
/// starts each substep's displacement from here, so no move of these
/// counts as velocity), as a pre-stabilisation does.
///
/// With long substeps a resting body comes to rest where its few passes
/// balance a large `g h^2` against the ground: lower than with short ones
/// (7 mm for a humanoid lying down after 0.5 s at 32 substeps, 3.4 cm at
/// 8), its limbs off their limits and lengths, a tetrahedral crate tilted
/// with its sticks strained. The next short substep then made up the
/// difference within one substep, at the difference over `h`: the humanoid
/// left the ground at 3.5 to 11 m/s and rose 0.45 to 2.4 m (one step of
/// 0.5 or 1 s after 1/60 s frames, 8 or 32 substeps), the crate tipped
/// over. It ends when a round moves no particle by more than
/// `SETTLE_TOLERANCE`. Ropes, cloth and joints are settled with the rest
/// of their island: their sticks too are left strained by a long step. What
/// a settle cannot converge (a cloth's long range, a taut rope holding a
/// heavy body) is left to [`inherited_corrections`].
fn settle(
    u: &mut Unit,
    links: &mut Links,
    (sizes, long, active): (&[u32], &[bool], &mut Vec<bool>),
    before: &mut Vec<Vec3>,
    turns: &mut Vec<Quat>,
) {
    // Its rounds move positions only, from where the particles are, and
    // take in only their own pushes. The passes read a substep's motion as
    // `x - x_prev` and the bone lengths read the substep's push-outs, and
    // both still held the long step's last substep (`x_prev` where it
    // began, the contacts what it pushed): not state, so a world restored
    // from a snapshot (`x_prev = x`, no contacts) settled differently
    // (found by the fuzz driver).
    // The multipliers start once: the rounds are one substep's passes,
    // as many as it takes, with no motion in it.
    begin_still_substep(u, links);
    // Each island of the unit settles as it would alone: one that did not
    // take a long step, or has settled, has each later round undone.
    active.clear();
    active.extend_from_slice(long);
    for _ in 0..SETTLE_ROUNDS {
        if !active.contains(&true) {
            break;
        }
        before.clear();
        before.extend(u.views.iter().flat_map(|p| (0..p.len()).map(|i| p.position(i))));
        save_rotations(u.bodies, turns);
        relax(u, links, 0, false);
        u.cviews.iter_mut().for_each(ContactsMut::clear);
        let (mut body, mut at, mut turned) = (0, 0, 0);
        for &n in sizes {
            let bodies = body..body + n as usize;
            let count: usize = u.views[bodies.clone()].iter().map(|p| p.len()).sum();
            let turning: usize = cluster_rotations(&u.bodies[bodies.clone()]).map(<[Quat]>::len).sum();
            if active[body] {
                let mut moved = 0.0f32;
                let mut k = at;
                for p in &u.views[bodies.clone()] {
                    for i in 0..p.len() {
                        moved = moved.max((p.position(i) - before[k]).length_squared());
                        k += 1;
                    }
                }
                if moved <= SETTLE_TOLERANCE * SETTLE_TOLERANCE {
                    active[bodies.clone()].fill(false);
                }
            } else {
                let mut k = at;
                for p in &mut u.views[bodies.clone()] {
                    for i in 0..p.len() {
                        p.set_position(i, before[k]);
                        k += 1;
                    }
                }
                recover_rotations(&mut u.bodies[bodies.clone()], &turns[turned..turned + turning]);
            }
            body += n as usize;
            at += count;
            turned += turning;
        }
    }
}

/// Starts a substep with no motion in it, for passes that move positions
/// only (a settle, the inherited corrections): each particle's start is
/// where it is, no contact yet, every multiplier at zero.
fn begin_still_substep(u: &mut Unit, links: &mut Links) {
    for (p, c) in u.views.iter_mut().zip(u.cviews.iter_mut()) {
        for (px, x) in [(&mut *p.px, &*p.x), (&mut *p.py, &*p.y), (&mut *p.pz, &*p.z)] {
            px.copy_from_slice(x);
        }
        c.clear();
    }
    for body in u.bodies.iter_mut() {
        body.distances.begin_substep();
        body.bends.begin_substep();
        if body.skin.is_active() {
            body.skin.begin_still();
        }
    }
    joint::begin_substep(links.joints);
    pairs::begin_substep(links.rigid_pairs);
    bodies::begin_substep(links.body_contacts);
}

/// What a body's contacts with the colliders need in a pass.
fn pass_context<'a>(
    material: &'a Option<Material>,
    ragdoll: bool,
    prepared: &'a Prepared,
    ctx: &StepContext,
) -> PassContext<'a> {
    PassContext {
        prepared,
        h: ctx.h,
        inv_h: 1.0 / ctx.h,
        material: material.as_ref(),
        friction_at_push: !ragdoll,
        simd: ctx.exec.simd,
    }
}

/// A body's own constraints, one relaxation pass; its targets' pulls when
/// `targets`.
fn constraints_pass(body: &mut Body, p: &mut ParticlesMut, ctx: &StepContext, targets: bool, workers: &dyn Workers) {
    if targets {
        body.targets.project(p, ctx.inv_h2, ctx.h2, ctx.exec.simd);
    }
    // A rigid body's sticks are its shape: what they move its centre by is
    // rounding (see `rigid::motion`).
    let shape = body.rigid.as_ref().map(|r| r.shape_center(p));
    body.distances.project(p, ctx.inv_h2, ctx.exec.simd, workers);
    if let (Some(r), Some(before)) = (&mut body.rigid, shape) {
        r.shape_moved(before, p);
    }
    body.bends.project(p, ctx.inv_h2, ctx.exec.simd);
    body.tethers.project(p);
    if body.skin.is_active() {
        body.skin.project(p);
    }
}

/// One ragdoll pass of `substep` of each ragdoll of the unit: its contacts
/// with the colliders before it, so the bones' fits take them in, then its
/// bones, limits, separations and twists (see `ragdoll::project_pass`),
/// each stage across the ragdolls.
fn ragdoll_passes(u: &mut Unit, substep: u32) {
    let all = u.bodies.iter_mut().zip(u.views.iter_mut()).zip(u.cviews.iter_mut());
    for (b, ((body, p), c)) in all.enumerate() {
        let Body { ragdoll, candidates, radius, radii, sticks, material, .. } = &**body;
        if ragdoll.is_some() && !candidates.is_empty() {
            let pass = pass_context(material, true, u.colliders[b].substep(substep), u.ctx);
            collision::project_body(p, c, *radius, radii, sticks, candidates, &pass);
        }
    }
    u.lap(Stage::RagdollContacts);
    u.t = ragdoll::project_pass(u.bodies, u.views, u.ctx.exec.simd, u.scratch, u.clock, u.t);
}

/// A body's contacts with the colliders at the end of a pass (a rigid body
/// its passes, contacts before each and once after), then a ragdoll's
/// bone lengths. Times its stages from `t` on, and returns when it ended.
#[allow(clippy::too_many_arguments)] // a body's parts, and the clock
fn contacts_pass(
    body: &mut Body,
    p: &mut ParticlesMut,
    c: &mut ContactsMut,
    pass: &PassContext,
    ctx: &StepContext,
    rigid_passes: u32,
    scratch: &mut ragdoll::Scratch,
    clock: &mut Clock,
    mut t: Option<Instant>,
) -> Option<Instant> {
    if let Some(r) = &mut body.rigid {
        for _ in 0..rigid::PASSES {
            r.project(p, &mut body.distances, &body.candidates, pass.prepared, ctx.inv_h2, rigid_passes);
        }
        r.collide(p, &body.candidates, pass.prepared);
    } else if !body.candidates.is_empty() {
        collision::project_body(p, c, body.radius, &body.radii, &body.sticks, &body.candidates, pass);
    }
    if let Some(ragdoll) = &mut body.ragdoll {
        // Bone lengths exactly, the ground holding what it pushed this
        // substep across its surface.
        t = clock.lap(Stage::Contacts, t);
        let c = &*c;
        ragdoll.restore_lengths(p, scratch, |i| (c.depth[i] > 0.0).then(|| c.normal(i)));
        clock.lap(Stage::BoneLengths, t)
    } else {
        clock.lap(Stage::Contacts, t)
    }
}

/// Copies the island's positions and velocities: per body, its columns
/// `x, y, z, vx, vy, vz` one after the other.
fn save(views: &[ParticlesMut], out: &mut Vec<f32>) {
    out.clear();
    for p in views {
        for a in [&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz] {
            out.extend_from_slice(a);
        }
    }
}

/// Whether every position of the island is finite and within the world's
/// coordinate range (in world space: its bodies' frames added).
fn sane(views: &[ParticlesMut], island: &[&mut Body]) -> bool {
    // A fold instead of `all`: without the early exit the compiler checks
    // whole vectors at a time (34 us -> ~5 us on sticks-128's 16,384
    // particles); the answer is the same.
    // Velocities too: a NaN there (the fuzz test left one after a
    // ragdoll's step, its position still finite) would be saved in
    // snapshots and poison the next step.
    let ok = |a: &[f32], limit: f32| a.iter().fold(true, |ok, v| ok & (v.abs() <= limit)); // false for NaN and inf
    let v = MAX_SPEED;
    views.iter().zip(island).all(|(p, b)| {
        let x = MAX_COORDINATE - b.origin.abs();
        ok(p.x, x.x) && ok(p.y, x.y) && ok(p.z, x.z) && ok(p.vx, v) && ok(p.vy, v) && ok(p.vz, v)
    })
}

/// The cluster rotations of the island's ragdolls and rigid bodies: state a
/// step changes besides positions, which recovery must put back too (a NaN
/// rotation left behind reads back as NaN bones and makes the world's
/// snapshot unreadable; found by the fuzz driver).
fn cluster_rotations<'a>(island: &'a [&mut Body]) -> impl Iterator<Item = &'a [Quat]> + 'a {
    island.iter().flat_map(|b| {
        let ragdoll = b.ragdoll.as_ref().map(|r| r.clusters.rotation.as_slice());
        let rigid = b.rigid.as_ref().map(|r| r.clusters.rotation.as_slice());
        ragdoll.into_iter().chain(rigid)
    })
}

fn save_rotations(island: &[&mut Body], out: &mut Vec<Quat>) {
    out.clear();
    cluster_rotations(island).for_each(|r| out.extend_from_slice(r));
}

fn rotations_sane(island: &[&mut Body]) -> bool {
    cluster_rotations(island).all(|r| r.iter().all(|q| q.is_finite()))
}

fn recover_rotations(island: &mut [&mut Body], saved: &[Quat]) {
    let mut at = 0;
    for b in island.iter_mut() {
        let ragdoll = b.ragdoll.as_mut().map(|r| r.clusters.rotation.as_mut_slice());
        let rigid = b.rigid.as_mut().map(|r| r.clusters.rotation.as_mut_slice());
        for r in ragdoll.into_iter().chain(rigid) {
            r.copy_from_slice(&saved[at..at + r.len()]);
            at += r.len();
        }
    }
}

/// Recovery from a step that went non-finite (or out of range): every body
/// of the island goes back to where it was before the step, at rest.
fn recover(views: &mut [ParticlesMut], saved: &[f32]) {
    let mut at = 0;
    for p in views.iter_mut() {
        let n = p.len();
        for a in [&mut *p.x, &mut *p.y, &mut *p.z, &mut *p.vx, &mut *p.vy, &mut *p.vz] {
            a.copy_from_slice(&saved[at..at + n]);
            at += n;
        }
        for a in [&mut *p.vx, &mut *p.vy, &mut *p.vz] {
            a.fill(0.0);
        }
    }
}

/// Lists the vertex-triangle pairs of the island's colliding cloths
/// (`slots`: its bodies' places in the world's pool).
fn find_cloth_pairs(
    island: &[&mut Body],
    slots: &[u32],
    views: &[ParticlesMut],
    ctx: &StepContext,
    scratch: &mut Local,
) {
    let mut members: Vec<Member> = recycle(std::mem::take(&mut scratch.members).0);
    members.extend(island.iter().enumerate().filter_map(|(k, b)| {
        let c = b.cloth.as_ref()?;
        (c.self_collision || c.cloth_collision).then_some(Member {
            body: k as u32,
            triangles: &c.triangles,
            neighbour_start: &c.neighbour_start,
            neighbours: &c.neighbours,
            thickness: b.radius,
            self_collision: c.self_collision,
            cloth_collision: c.cloth_collision,
            filter: b.filter,
            sides: &c.sides,
        })
    }));
    if members.is_empty() {
        scratch.pairs.clear();
    } else {
        scratch.finder.find(views, &members, slots, ctx.dt, &mut scratch.pairs);
    }
    scratch.members = Lists(recycle(members));
}

/// Keeps the sides the passes left the island's cloth pairs with each
/// pair's vertex's cloth, for the next step's search (the side memory: see
/// `cloth::self_collision`). State of the bodies, not of the worker that
/// stepped them, so a snapshot or a clone carries it and no other island
/// reads it.
fn remember_sides(island: &mut [&mut Body], slots: &[u32], pairs: &[Pair]) {
    for body in island.iter_mut() {
        if let Some(c) = &mut body.cloth {
            c.sides.clear();
        }
    }
    for p in pairs.iter().filter(|p| p.side != 0.0) {
        let cloth = island[p.vertex_body as usize].cloth.as_mut().expect("a pair's vertex is a cloth's");
        let body = slots[p.triangle_body as usize];
        cloth.sides.push(Side { vertex: p.vertex, body, triangle: p.triangle, side: p.side });
    }
}

/// The body's particles now and where their velocity takes them by the end
/// of the step (`ahead` = dt), and its targets' points.
fn swept_bounds(body: &Body, p: &Particles, ahead: f32) -> (Vec3, Vec3) {
    let range = body.first..body.first + body.count;
    let (mut lo, mut hi) = match lane_bounds(p, range.clone(), ahead) {
        Some(bounds) => bounds,
        None => {
            let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            for i in range {
                let x = p.position(i);
                let later = x + p.velocity(i) * ahead;
                lo = lo.min(x).min(later);
                hi = hi.max(x).max(later);
            }
            (lo, hi)
        }
    };
    for &t in &body.targets.to {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    (lo, hi)
}

/// The bounds of [`swept_bounds`]'s particle loop, column by column in 16
/// independent lanes, or `None` when a value is NaN. Without NaN the
/// minimum and maximum do not depend on the order they are taken in (only
/// the sign of a zero may, which no use of the bounds can see: they are
/// compared and widened by a positive margin). With a NaN they do, and the
/// caller takes them in particle order. Why: the particle-order loop is one
/// chain of dependent compares; on sticks-128 (16,384 particles) it took
/// ~75 us per step, 3% of the step once the stick passes were fast.
fn lane_bounds(p: &Particles, range: std::ops::Range<usize>, ahead: f32) -> Option<(Vec3, Vec3)> {
    const W: usize = 16;
    // glam's, which compile to single min/max instructions.
    let min = |a: f32, b: f32| if a < b { a } else { b };
    let max = |a: f32, b: f32| if a > b { a } else { b };
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    let mut nan = false;
    for (k, (x, vx)) in [(&p.x, &p.vx), (&p.y, &p.vy), (&p.z, &p.vz)].into_iter().enumerate() {
        let (x, vx) = (&x[range.clone()], &vx[range.clone()]);
        let (mut l, mut h) = ([f32::INFINITY; W], [f32::NEG_INFINITY; W]);
        let mut lanes = |x: &[f32], vx: &[f32]| {
            for (j, (&v, &speed)) in x.iter().zip(vx).enumerate() {
                let later = v + speed * ahead; // NaN whenever v is: one check covers both
                nan |= later.is_nan();
                l[j] = min(min(l[j], v), later);
                h[j] = max(max(h[j], v), later);
            }
        };
        let (xs, vxs) = (x.chunks_exact(W), vx.chunks_exact(W));
        let (x_tail, vx_tail) = (xs.remainder(), vxs.remainder());
        xs.zip(vxs).for_each(|(x, vx)| lanes(x, vx));
        lanes(x_tail, vx_tail);
        lo[k] = l.into_iter().fold(lo[k], min);
        hi[k] = h.into_iter().fold(hi[k], max);
    }
    (!nan).then(|| (Vec3::from(lo), Vec3::from(hi)))
}

/// Lists the colliders the body may reach during this step: its swept
/// bounds, widened by what gravity, its particle radius and constraint
/// corrections may add; and for meshes and heightfields, the triangles of
/// each particle and each collision stick (their swept boxes, widened alike).
fn broad_phase(
    body: &mut Body,
    p: &ParticlesMut,
    colliders: &StepColliders,
    ctx: &StepContext,
    boxes: &mut Vec<(Vec3, Vec3)>,
) {
    let (lo, hi) = body.bounds;
    let dt = ctx.dt;
    let slack = ctx.slack();
    let max_radius = body.radii.iter().fold(body.radius, |m, &r| m.max(r));
    let margin = max_radius + slack + 0.25 * (hi - lo).max_element().min(1.0);
    let (first, last) = (colliders.first(), colliders.last());
    body.candidates.find(first, last, lo - margin, hi + margin, body.filter);
    body.candidates.soup_count = 0;
    if last.soups.is_empty() {
        return;
    }
    let ahead = dt;
    boxes.clear();
    for i in 0..body.count {
        let r = if body.radii.is_empty() { body.radius } else { body.radii[i] };
        if r < 0.0 || p.inv_mass[i] == 0.0 {
            boxes.push((Vec3::INFINITY, Vec3::NEG_INFINITY)); // collides with nothing
            continue;
        }
        let x = p.position(i);
        let later = x + p.velocity(i) * ahead;
        let grow = r + slack;
        boxes.push((x.min(later) - grow, x.max(later) + grow));
    }
    let whole = body.rigid.is_some();
    body.candidates.find_soups(first, last, lo - margin, hi + margin, body.filter, boxes, &body.sticks, whole);
}

/// Sleep: when every particle of every body of the island has moved slower
/// than `sleep_speed` for `sleep_time`, the island stops (velocities zeroed)
/// until something wakes it. True when it fell asleep.
///
/// How fast a particle moved is measured over the step, from where it began
/// the step (`start`, the island's saved state: see [`save`]), not read from
/// its velocity: a particle held in place by constraints that disagree (a
/// pile's bottom layer between the ground and the cloth pressing on it)
/// ends each step where it was with a velocity the last of them left, and a
/// cloth piled on itself never slept (issue 32: 0.3 m/s standing still).
fn update_sleep(
    island: &mut [&mut Body],
    views: &mut [ParticlesMut],
    cviews: &mut [ContactsMut],
    start: &[f32],
    ctx: &StepContext,
) -> bool {
    if ctx.sleep_speed <= 0.0 {
        return false;
    }
    let reach = ctx.sleep_speed * ctx.dt;
    let limit2 = reach * reach;
    let mut all_still = true;
    let mut at = 0;
    for (body, p) in island.iter_mut().zip(views.iter()) {
        let n = p.len();
        let (x0, y0, z0) = (&start[at..at + n], &start[at + n..at + 2 * n], &start[at + 2 * n..at + 3 * n]);
        at += 6 * n;
        let moved = |i: usize| p.position(i) - Vec3::new(x0[i], y0[i], z0[i]);
        let still = (0..body.count).all(|i| moved(i).length_squared() <= limit2);
        body.still_time = if still { body.still_time + ctx.dt } else { 0.0 };
        all_still &= body.still_time >= ctx.sleep_time;
    }
    if all_still {
        for ((body, p), c) in island.iter_mut().zip(views.iter_mut()).zip(cviews.iter_mut()) {
            c.clear_step();
            if let Some(r) = &mut body.rigid {
                r.contacts.clear_step();
            }
            body.sleeping = true;
            body.h_prev = 0.0;
            for i in 0..body.count {
                p.set_velocity(i, Vec3::ZERO);
            }
        }
    }
    all_still
}
