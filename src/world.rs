//! The world: owns particles, bodies and colliders; the public Rust API.
//!
//! Every method validates its input completely before it changes anything, so
//! a refused call leaves the world as it was.

use crate::body::{Body, BodyKind, Made, check_particles, grid_origin};
use crate::collision::friction::Contacts;
use crate::collision::{Collider, ColliderShape, CollisionStick, Filter, Material, StepColliders, checked_transform};
use crate::constraints::distance::{DistanceConstraint, DistanceMethod};
use crate::constraints::frame::FrameAttachment;
use crate::constraints::joint::Joint;
use crate::constraints::target::Target;
use crate::error::{Error, Result, finite, finite_vec, limit_ok, non_negative, positive, unit_rotation};
use crate::exec::Exec;
use crate::particles::{Columns, Particles, padded};
use crate::pool::{BodyId, ColliderId, JointId, Pool};
use crate::solver::Scratch;
use glam::{DVec3, Quat, Vec3};

mod cloths;
mod contacts;
mod ragdolls;
mod rigids;

/// The largest accepted `substeps` and `iterations`.
pub(crate) const MAX_SUBSTEPS: u32 = 1024;
/// The largest accepted `iterations`.
pub(crate) const MAX_ITERATIONS: u32 = 1024;
/// The shortest accepted step, seconds.
pub(crate) const MIN_DT: f32 = 1e-6;
/// The longest accepted step, seconds.
pub(crate) const MAX_DT: f32 = 1.0;
/// The dt assumed for velocities before the first step (1/60 s).
pub(crate) const DEFAULT_DT: f32 = 1.0 / 60.0;

/// Settings of a world (the C `SinewWorldDef`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldSettings {
    /// m/s^2, default (0, -9.81, 0).
    pub gravity: Vec3,
    /// Fraction of velocity lost per second, in [0, 1].
    pub damping: f32,
    /// Substeps per step, 1..=1024.
    pub substeps: u32,
    /// Relaxation passes per substep, 1..=1024.
    pub iterations: u32,
    /// Most particles the world may hold (padding excluded); 0 = no limit.
    pub max_particles: u32,
    /// Most bodies; 0 = no limit.
    pub max_bodies: u32,
    /// Most colliders; 0 = no limit.
    pub max_colliders: u32,
    /// Most constraints (see [`World::constraint_count`] for what counts);
    /// 0 = no limit.
    pub max_constraints: u32,
    /// Wind velocity (m/s) every cloth feels.
    pub wind: Vec3,
    /// Air density (kg/m^3, default 1.2); 0 turns aerodynamics off.
    pub air_density: f32,
    /// A body slower than this (m/s) everywhere for `sleep_time` falls
    /// asleep; 0 disables sleeping.
    pub sleep_speed: f32,
    /// Seconds of stillness before sleep.
    pub sleep_time: f32,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            damping: 0.01,
            substeps: 8,
            iterations: 1,
            max_particles: 0,
            max_bodies: 0,
            max_colliders: 0,
            max_constraints: 0,
            wind: Vec3::ZERO,
            air_density: 1.2,
            sleep_speed: 0.02,
            sleep_time: 1.0,
        }
    }
}

impl WorldSettings {
    pub(crate) fn validate(&self) -> Result<()> {
        finite_vec(self.gravity, "gravity")?;
        if !(self.damping.is_finite() && (0.0..=1.0).contains(&self.damping)) {
            return Err(Error::invalid_argument(format!("damping must be in [0, 1], got {}", self.damping)));
        }
        if !(1..=MAX_SUBSTEPS).contains(&self.substeps) {
            return Err(Error::invalid_argument(format!(
                "substeps must be in 1..={MAX_SUBSTEPS}, got {}",
                self.substeps
            )));
        }
        finite_vec(self.wind, "wind")?;
        non_negative(self.air_density, "air_density")?;
        non_negative(self.sleep_speed, "sleep_speed")?;
        non_negative(self.sleep_time, "sleep_time")?;
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(Error::invalid_argument(format!(
                "iterations must be in 1..={MAX_ITERATIONS}, got {}",
                self.iterations
            )));
        }
        Ok(())
    }
}

/// A simulation world: particles, bodies made of them (free particles with
/// sticks, cloth, ragdolls, rigid bodies), joints between bodies, and
/// colliders, advanced by [`World::step`]. This is the whole Rust API; the C
/// functions of `include/sinew.h` are thin calls into it.
///
/// Every method validates its input completely before it changes anything:
/// a refused call returns an [`Error`] and leaves the world as it was.
/// Positions are in world space, metres; times in seconds; masses in kg.
///
/// # Particles and sticks
///
/// A pendulum: particle 0 pinned (inverse mass 0), a rigid stick to a 1 kg
/// particle 1 m away, let go level with the pin. A second later it has
/// swung through the bottom and nearly up to the other side.
///
/// ```
/// use sinew::{DistanceConstraint, Vec3, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default())?;
/// let rope = world.create_particles(&[Vec3::ZERO, Vec3::X], Some(&[0.0, 1.0]))?;
/// // rest_length < 0: the current distance; compliance 0: rigid.
/// let stick = DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 };
/// world.add_distance_constraints(rope, &[stick])?;
/// for _ in 0..60 {
///     world.step(1.0 / 60.0)?;
/// }
/// let bob = world.positions(rope)?.nth(1).unwrap();
/// assert!((bob.length() - 1.0).abs() < 1e-3, "the stick holds: {bob}");
/// assert!(bob.x < -0.9 && bob.y < 0.0, "it swung over: {bob}");
/// # Ok::<(), sinew::Error>(())
/// ```
///
/// # Cloth
///
/// A grid ([`GridDef`](crate::GridDef): 16 x 16 vertices 0.1 m apart, top
/// edge pinned by default) hangs as a curtain; laid flat with
/// [`GridDef::in_xz_plane`](crate::GridDef::in_xz_plane), unpinned, it drapes
/// over a ball. [`World::create_cloth_mesh`] takes an engine's mesh instead.
///
/// ```
/// use sinew::{ColliderShape, GridDef, Quat, Vec3, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default())?;
/// world.create_collider(ColliderShape::Sphere { radius: 0.3 }, Vec3::ZERO, Quat::IDENTITY, 0.5)?;
/// let def = GridDef { position: Vec3::new(-0.75, 0.5, -0.75), pins: 0, ..GridDef::default() };
/// let cloth = world.create_cloth_grid(&def.in_xz_plane())?;
/// for _ in 0..120 {
///     world.step(1.0 / 60.0)?;
/// }
/// let lowest = world.positions(cloth)?.map(|p| p.y).fold(f32::INFINITY, f32::min);
/// let highest = world.positions(cloth)?.map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
/// assert!(highest > 0.25 && highest < 0.35, "the middle rests on the ball: {highest}");
/// assert!(lowest < 0.0, "the corners hang down: {lowest}");
/// let normals = world.cloth_normals(cloth)?; // one per particle, for rendering
/// assert_eq!(normals.len(), 256);
/// # Ok::<(), sinew::Error>(())
/// ```
///
/// # Ragdolls
///
/// [`World::create_humanoid`] builds the 17-bone preset (bone names and
/// order in [`HUMANOID_BONES`](crate::HUMANOID_BONES)) standing on the
/// point between its feet, facing +Z; [`World::create_ragdoll`] builds one
/// from an engine's skeleton ([`RagdollDef`](crate::RagdollDef)). Without
/// motor targets a ragdoll is limp.
///
/// ```
/// use sinew::{ColliderShape, Quat, Vec3, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default())?;
/// let floor = ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 };
/// world.create_collider(floor, Vec3::ZERO, Quat::IDENTITY, 0.8)?;
/// let doll = world.create_humanoid(Vec3::new(0.0, 0.5, 0.0), Quat::IDENTITY, 1.8)?;
/// let chest = world.ragdoll_find_bone(doll, "chest")?.unwrap();
/// let (at, _) = world.ragdoll_bones(doll)?.nth(chest as usize).unwrap();
/// world.apply_bone_impulse(doll, chest, at, Vec3::new(0.0, 0.0, -20.0))?; // a shove
/// for _ in 0..180 {
///     world.step(1.0 / 60.0)?;
/// }
/// // Each bone's world transform (head position, frame), for the skeleton.
/// let bones: Vec<(Vec3, Quat)> = world.ragdoll_bones(doll)?.collect();
/// assert_eq!(bones.len(), 17);
/// assert!(bones.iter().all(|(p, _)| p.y > -0.01 && p.y < 0.6), "it fell and lies on the floor");
/// # Ok::<(), sinew::Error>(())
/// ```
///
/// # Motors
///
/// Each frame, give the animation's pose as motor targets (world space, one
/// transform per bone; [`World::set_ragdoll_motor_targets_local`] takes
/// local ones); the motors drive the bones towards it with a strength (0
/// limp, 1 animated) and force and torque caps, so a hit still pushes the
/// body off the pose and the motors pull it back. The root's place is
/// driven only with root motion on ([`World::set_ragdoll_root_motion`]);
/// by default the body stands on its motors as physics lets it.
///
/// ```
/// use sinew::{ColliderShape, Quat, Vec3, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default())?;
/// let floor = ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 };
/// world.create_collider(floor, Vec3::ZERO, Quat::IDENTITY, 0.8)?;
/// let doll = world.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8)?;
/// let pose: Vec<(Vec3, Quat)> = world.ragdoll_bones(doll)?.collect(); // stand as built
/// world.set_ragdoll_motor_strength(doll, 0.3, 1000.0)?; // firm, at most 1000 N per bone
/// world.set_ragdoll_root_motion(doll, true)?; // its place is animated too (an opt-in)
/// let head = world.ragdoll_find_bone(doll, "head")?.unwrap();
/// for _ in 0..120 {
///     world.set_ragdoll_motor_targets(doll, &pose)?;
///     world.step(1.0 / 60.0)?;
/// }
/// let (held, _) = world.ragdoll_bones(doll)?.nth(head as usize).unwrap();
/// assert!(held.distance(pose[head as usize].0) < 0.05, "the motors hold the head: {held}");
/// # Ok::<(), sinew::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct World {
    pub(crate) settings: WorldSettings,
    pub(crate) particles: Particles,
    pub(crate) bodies: Pool<Body>,
    pub(crate) colliders: Pool<Collider>,
    pub(crate) joints: Pool<Joint>,
    /// Real (unpadded) particles of all bodies.
    pub(crate) particle_count: usize,
    /// The last step's dt (DEFAULT_DT before the first step).
    pub(crate) last_dt: f32,
    pub(crate) steps: u64,
    /// Islands put back after a step went non-finite.
    pub(crate) recoveries: u64,
    /// Scratch of the step.
    pub(crate) prepared: StepColliders,
    pub(crate) contacts: Contacts,
    /// The last step's contacts between bodies, for the readback.
    pub(crate) touches: Vec<crate::collision::bodies::Touch>,
    pub(crate) scratch: Scratch,
    /// Whether steps time their stages, and the last step's times.
    pub(crate) profiling: bool,
    pub(crate) profile: crate::profile::Profile,
    /// How steps run (SIMD level, workers): never part of the state, kept
    /// across a restore.
    pub(crate) execution: Exec,
    /// The humanoid skeletons `create_humanoid` made, by height (its
    /// bits), while a ragdoll holds them.
    pub(crate) humanoids: Vec<(u32, std::sync::Weak<crate::Skeleton>)>,
}

/// Checks that a pair of particle indices of a body of `count` particles
/// names two different particles (`what` names the pair in the message).
fn check_pair(a: u32, b: u32, count: usize, what: impl Fn() -> String) -> Result<()> {
    if a as usize >= count || b as usize >= count {
        return Err(Error::invalid_argument(format!(
            "{}: particle index ({a}, {b}) out of range (the body has {count})",
            what()
        )));
    }
    if a == b {
        return Err(Error::invalid_argument(format!("{}: a and b are both {a}", what())));
    }
    Ok(())
}

impl World {
    /// Creates an empty world.
    pub fn new(settings: WorldSettings) -> Result<World> {
        settings.validate()?;
        Ok(World {
            settings,
            particles: Particles::default(),
            bodies: Pool::default(),
            colliders: Pool::default(),
            joints: Pool::default(),
            particle_count: 0,
            last_dt: DEFAULT_DT,
            steps: 0,
            recoveries: 0,
            profiling: false,
            profile: Default::default(),
            prepared: StepColliders::default(),
            contacts: Contacts::default(),
            touches: Vec::new(),
            scratch: Scratch::default(),
            execution: Exec::default(),
            humanoids: Vec::new(),
        })
    }

    /// How the world's steps run.
    pub fn execution(&self) -> &Exec {
        &self.execution
    }

    /// Chooses how the world's steps run (the SIMD level is capped by the
    /// machine's); the results do not change by a bit.
    pub fn set_execution(&mut self, execution: Exec) {
        self.execution = Exec { simd: execution.simd.available(), ..execution };
    }

    /// The settings the world runs with.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Changes gravity (m/s^2) from the next step on.
    pub fn set_gravity(&mut self, gravity: Vec3) -> Result<()> {
        self.settings.gravity = finite_vec(gravity, "gravity")?;
        self.wake_all();
        Ok(())
    }

    /// Changes the wind every cloth feels (m/s) from the next step on.
    pub fn set_wind(&mut self, wind: Vec3) -> Result<()> {
        self.settings.wind = finite_vec(wind, "wind")?;
        self.wake_all();
        Ok(())
    }

    /// Changes the substeps per step (1..=1024) from the next step on, as a
    /// different `dt` would: velocities carry over.
    pub fn set_substeps(&mut self, substeps: u32) -> Result<()> {
        WorldSettings { substeps, ..self.settings }.validate()?;
        self.settings.substeps = substeps;
        Ok(())
    }

    /// Changes the relaxation passes per substep (1..=1024) from the next
    /// step on.
    pub fn set_iterations(&mut self, iterations: u32) -> Result<()> {
        WorldSettings { iterations, ..self.settings }.validate()?;
        self.settings.iterations = iterations;
        Ok(())
    }

    /// Changes when bodies fall asleep (see [`WorldSettings::sleep_speed`]),
    /// from the next step on; `sleep_speed` 0 turns sleeping off and wakes
    /// every body. A body asleep stays asleep until touched or moved.
    pub fn set_sleep(&mut self, sleep_speed: f32, sleep_time: f32) -> Result<()> {
        WorldSettings { sleep_speed, sleep_time, ..self.settings }.validate()?;
        self.settings.sleep_speed = sleep_speed;
        self.settings.sleep_time = sleep_time;
        if sleep_speed == 0.0 {
            self.wake_all();
        }
        Ok(())
    }

    fn wake_all(&mut self) {
        self.bodies.values_mut().for_each(Body::wake);
    }

    /// Wakes a body (a no-op for a stale id).
    pub(crate) fn wake(&mut self, id: BodyId) {
        if let Some(b) = self.bodies.get_mut(id.into()) {
            b.wake();
        }
    }

    /// Whether a body is asleep.
    pub fn is_sleeping(&self, id: BodyId) -> Result<bool> {
        Ok(self.body(id)?.sleeping)
    }

    /// Wakes a body up, or puts it to sleep now (velocities zeroed).
    pub fn set_sleeping(&mut self, id: BodyId, sleeping: bool) -> Result<()> {
        let range = self.body(id)?.range();
        if sleeping {
            for i in range {
                self.particles.set_velocity(i, Vec3::ZERO);
            }
            let b = self.body_mut(id)?;
            b.sleeping = true;
            b.h_prev = 0.0;
        } else {
            self.body_mut(id)?.wake();
        }
        Ok(())
    }

    /// Advances the world by `dt` seconds (`substeps` substeps); `dt` in
    /// [1e-6, 1] s: beyond, h^2 and 1/h^2 leave f32's comfortable range.
    pub fn step(&mut self, dt: f32) -> Result<()> {
        // The header's range, in plain numbers ("got 2", not "got 2e0");
        // NaN is outside it.
        if !(MIN_DT..=MAX_DT).contains(&dt) {
            return Err(Error::invalid_argument(format!("dt must be in [{MIN_DT}, {MAX_DT}] seconds, got {dt}")));
        }
        crate::solver::step(self, dt);
        Ok(())
    }

    /// Moves the world's origin to `offset` (in today's coordinates): from
    /// now on every position, the bodies', the colliders' and every target,
    /// is relative to it. Nothing moves; velocities stay. For engines that
    /// keep their scene near the camera (a floating origin): a body's own
    /// precision does not need it (see `Body::origin`), but the engine's
    /// `f32` positions do. An offset on the 4 m grid moves bodies, and
    /// colliders placed in `f64` ([`World::create_collider_f64`]), exactly;
    /// colliders placed in `f32` keep `f32` world positions, which round to
    /// the new coordinates' ulp ([`World::shift_origin_f64`] does not).
    pub fn shift_origin(&mut self, offset: Vec3) -> Result<()> {
        finite_vec(offset, "offset")?;
        let World { bodies, particles, colliders, .. } = self;
        for body in bodies.values_mut() {
            // The frame's new place, exactly in f64, and the grid point
            // nearest to it; the particles take the difference.
            let o = body.origin.as_dvec3() - offset.as_dvec3();
            let grid = f64::from(crate::body::ORIGIN_GRID);
            // (As f32: beyond 6.7e7 m a grid point rounds to a coarser one.)
            let g = ((o / grid).round() * grid).as_vec3();
            let by = (g.as_dvec3() - o).as_vec3();
            body.reframe(g, by, particles.frame_columns(body.range()));
        }
        for c in colliders.values_mut() {
            if c.origin == Vec3::ZERO {
                c.position -= offset;
                c.prev_position -= offset;
            } else {
                // Kept relative to a grid point (placed in f64): the point
                // moves as a body's frame does, the positions take the rest.
                let o = c.origin.as_dvec3() - offset.as_dvec3();
                let grid = f64::from(crate::body::ORIGIN_GRID);
                let g = ((o / grid).round() * grid).as_vec3();
                let by = (o - g.as_dvec3()).as_vec3();
                c.position += by;
                c.prev_position += by;
                c.origin = g;
            }
        }
        Ok(())
    }

    /// Teleports a body: every particle, target, skin point and motor goal
    /// is carried by the rigid motion that takes the frame `from` to the
    /// frame `to` (world space; a character's transform before and after a
    /// respawn), at once, with nothing swept in between. Velocities turn
    /// with the motion, or become zero with `zero_velocity`. Wakes the body.
    ///
    /// Why not `set_positions` and `set_frame`: a frame's pins are
    /// interpolated across the next step's substeps, so a 10 m jump drags
    /// the cloth behind them (issue 32: 695 m/s and 217 % stretch for a
    /// cape).
    pub fn teleport(&mut self, id: BodyId, from: (Vec3, Quat), to: (Vec3, Quat), zero_velocity: bool) -> Result<()> {
        let from_p = finite_vec(from.0, "from.position")?.as_dvec3();
        let from_q = unit_rotation(from.1, "from.rotation")?;
        let to_p = finite_vec(to.0, "to.position")?.as_dvec3();
        let to_q = unit_rotation(to.1, "to.rotation")?;
        self.teleport_checked(id, (from_p, from_q), (to_p, to_q), zero_velocity)
    }

    /// [`World::teleport`] with the transforms' positions in `f64`.
    pub fn teleport_f64(
        &mut self,
        id: BodyId,
        from: (DVec3, Quat),
        to: (DVec3, Quat),
        zero_velocity: bool,
    ) -> Result<()> {
        let from_p = crate::far::finite_dvec(from.0, "from.position")?;
        let from_q = unit_rotation(from.1, "from.rotation")?;
        let to_p = crate::far::finite_dvec(to.0, "to.position")?;
        let to_q = unit_rotation(to.1, "to.rotation")?;
        self.teleport_checked(id, (from_p, from_q), (to_p, to_q), zero_velocity)
    }

    fn teleport_checked(
        &mut self,
        id: BodyId,
        (from_p, from_q): (DVec3, Quat),
        (to_p, to_q): (DVec3, Quat),
        zero_velocity: bool,
    ) -> Result<()> {
        let body = self.body(id)?;
        let turn = (to_q * from_q.conjugate()).normalize();
        // World x = origin + l goes to to_p + turn (origin - from_p) + turn l:
        // the constant part in f64, the body's new frame the grid point
        // nearest to it, the particles keeping the difference.
        let t = glam::DQuat::from_array(turn.to_array().map(f64::from));
        let c = to_p + t * (body.origin.as_dvec3() - from_p);
        let grid = f64::from(crate::body::ORIGIN_GRID);
        let origin = ((c / grid).round() * grid).as_vec3();
        if !(origin.is_finite() && origin.abs().max_element() <= crate::error::MAX_COORDINATE) {
            return Err(Error::invalid_argument(format!(
                "the teleport would put the body at {c}, beyond +-{:e} m",
                crate::error::MAX_COORDINATE
            )));
        }
        let by = (c - origin.as_dvec3()).as_vec3();
        let range = body.range();
        let count = body.count;
        let mut p = self.particles.view(range);
        for i in 0..count {
            p.set_position(i, turn * p.position(i) + by);
            let v = if zero_velocity { Vec3::ZERO } else { turn * p.velocity(i) };
            p.set_velocity(i, v);
        }
        let body = self.bodies.get_mut(id.into()).expect("checked");
        body.targets.carry(turn, by);
        body.skin.carry(turn, by);
        if let Some(r) = &mut body.ragdoll {
            r.motors.carry(turn, by);
            r.clusters.rotation.iter_mut().for_each(|q| *q = (turn * *q).normalize());
        }
        if let Some(r) = &mut body.rigid {
            r.clusters.rotation.iter_mut().for_each(|q| *q = (turn * *q).normalize());
        }
        body.origin = origin;
        if zero_velocity {
            body.h_prev = 0.0;
        }
        body.wake();
        Ok(())
    }

    /// How many times a step went non-finite (or out of the coordinate
    /// range) for some island and the island was put back to its state before
    /// that step, at rest. A healthy world keeps this at 0.
    pub fn recovery_count(&self) -> u64 {
        self.recoveries
    }

    /// Times every stage of the coming steps (`on`), or stops timing
    /// (the default). Reading the clock costs a few tens of nanoseconds
    /// per stage per island.
    pub fn set_profiling(&mut self, on: bool) {
        self.profiling = on;
        self.profile = Default::default();
    }

    /// Where the last step's time went, stage by stage (all zero when not
    /// profiling; see [`World::set_profiling`]).
    pub fn profile(&self) -> &crate::Profile {
        &self.profile
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    // ---- bodies ---------------------------------------------------------

    pub(crate) fn body(&self, id: BodyId) -> Result<&Body> {
        self.bodies.get(id.into()).ok_or_else(|| {
            Error::invalid_id(format!(
                "body {{index1: {}, generation: {}}} is not a live body of this world",
                id.index1, id.generation
            ))
        })
    }

    /// The body, woken: whatever changes it may set it moving.
    pub(crate) fn body_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        self.body(id)?;
        let body = self.bodies.get_mut(id.into()).expect("checked above");
        body.wake();
        Ok(body)
    }

    /// Creates a body of free particles at rest. `inv_masses` of `None` means
    /// all 1 (1 kg each); 0 pins a particle.
    pub fn create_particles(&mut self, positions: &[Vec3], inv_masses: Option<&[f32]>) -> Result<BodyId> {
        if let Some(w) = inv_masses {
            debug_assert_eq!(w.len(), positions.len());
            for (i, &w) in w.iter().enumerate() {
                non_negative(w, &format!("inv_masses[{i}]"))?;
            }
        }
        self.add_body(BodyKind::Particles, positions, |i| inv_masses.map_or(1.0, |w| w[i]))
    }

    /// Adds a body of `kind` with particles at rest (inverse masses checked
    /// by the caller).
    pub(crate) fn add_body(
        &mut self,
        kind: BodyKind,
        positions: &[Vec3],
        inv_mass: impl Fn(usize) -> f32,
    ) -> Result<BodyId> {
        check_particles(positions, &inv_mass)?;
        if !limit_ok(self.settings.max_particles, self.particle_count, positions.len()) {
            return Err(Error::limit(format!(
                "max_particles is {}: {} particles exist, {} more requested",
                self.settings.max_particles,
                self.particle_count,
                positions.len()
            )));
        }
        if !limit_ok(self.settings.max_bodies, self.bodies.len(), 1) {
            return Err(Error::limit(format!("max_bodies ({}) reached", self.settings.max_bodies)));
        }
        if self.particles.len().checked_add(padded(positions.len())).is_none_or(|n| n > u32::MAX as usize) {
            return Err(Error::limit("the world's particle store would exceed 2^32 entries"));
        }
        let first = self.particles.len();
        let mut body = Body::new(kind, first, positions.len());
        let (lo, hi) = positions.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(l, h), &p| (l.min(p), h.max(p)));
        body.origin = grid_origin((lo + hi) * 0.5);
        let local: Vec<Vec3> = positions.iter().map(|&p| p - body.origin).collect();
        let handle = self.bodies.insert(body).ok_or_else(|| Error::limit("no body slot left"))?;
        self.particles.append(&local, inv_mass);
        self.particle_count += positions.len();
        Ok(handle.into())
    }

    /// Places a body its kind's builder made: counted against the world's
    /// caps, given its particles and a frame, held.
    pub(crate) fn insert_made(&mut self, made: Made) -> Result<BodyId> {
        self.check_constraint_limit(made.constraints)?;
        let inv_mass = &made.inv_mass;
        let id = self.add_body(made.body.kind, &made.positions, |i| inv_mass[i])?;
        let body = self.bodies.get_mut(id.into()).expect("just created");
        let (first, count, origin) = (body.first, body.count, body.origin);
        *body = Body { first, count, origin, ..made.body };
        Ok(id)
    }

    /// Destroys a body and its constraints; later bodies' particles move down
    /// in the store (their ids and particle indices are unchanged).
    pub fn destroy_body(&mut self, id: BodyId) -> Result<()> {
        let range = self.body(id)?.range();
        let body = self.bodies.remove(id.into()).expect("checked above");
        self.particles.remove(range.clone());
        self.contacts.remove(range.clone());
        let slot = id.index1 - 1;
        for b in self.bodies.values_mut() {
            b.ignored.retain(|&(other, _)| other != id);
            // The slot may take another body: no side memory of its triangles.
            if let Some(c) = &mut b.cloth {
                c.sides.retain(|s| s.body != slot);
            }
        }
        let dead: Vec<JointId> =
            self.joints.iter().filter(|(_, j)| j.body_a == id || j.body_b == id).map(|(h, _)| h.into()).collect();
        for j in dead {
            self.destroy_joint(j).expect("listed above");
        }
        self.particle_count -= body.count;
        for b in self.bodies.values_mut() {
            if b.first > range.start {
                b.first -= range.len();
            }
        }
        Ok(())
    }

    /// True for a live body of this world.
    pub fn is_valid_body(&self, id: BodyId) -> bool {
        self.bodies.contains(id.into())
    }

    /// Live bodies, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.bodies.iter().map(|(h, _)| h.into())
    }

    /// Number of particles of a body.
    pub fn particle_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.body(id)?.count as u32)
    }

    /// Which builder made the body.
    pub fn body_kind(&self, id: BodyId) -> Result<BodyKind> {
        Ok(self.body(id)?.kind)
    }

    /// Constraints in the world, as `max_constraints` counts them: every
    /// body's sticks (user, cloth stretch and shear, a tetrahedron's),
    /// bends, tethers and collision sticks, a ragdoll's bone clusters, joint
    /// limits and separations, a rigid body's shape-matching cluster, and
    /// the joints between particles. Targets, frames, skin distances and
    /// contacts are per particle or per step and do not count.
    pub fn constraint_count(&self) -> usize {
        self.bodies.iter().map(|(_, b)| b.constraint_count()).sum::<usize>() + self.joints.len()
    }

    /// A body's share of [`World::constraint_count`]: its sticks, bends,
    /// tethers, collision sticks, bone clusters, joint limits and
    /// separations, shape cluster; not the joints it takes part in.
    pub fn body_constraint_count(&self, id: BodyId) -> Result<usize> {
        Ok(self.body(id)?.constraint_count())
    }

    /// Refuses `adding` more constraints beyond `max_constraints` (nothing
    /// changes on refusal: every creator checks before it builds).
    pub(crate) fn check_constraint_limit(&self, adding: usize) -> Result<()> {
        let existing = self.constraint_count();
        if !limit_ok(self.settings.max_constraints, existing, adding) {
            return Err(Error::limit(format!(
                "max_constraints is {}: {existing} constraints exist, {adding} more requested",
                self.settings.max_constraints
            )));
        }
        Ok(())
    }

    /// Number of distance constraints of a body.
    pub fn distance_constraint_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.body(id)?.distances.len() as u32)
    }

    fn check_range(count: usize, first: u32, n: usize, what: &str) -> Result<()> {
        let end = (first as usize).checked_add(n);
        if end.is_none_or(|e| e > count) {
            return Err(Error::invalid_argument(format!(
                "{what}: particles {first}..{first}+{n} are out of range (the body has {count})"
            )));
        }
        Ok(())
    }

    /// Adds sticks between particles of a body. A negative rest length takes
    /// the current distance.
    pub fn add_distance_constraints(&mut self, id: BodyId, constraints: &[DistanceConstraint]) -> Result<()> {
        let body = self.body(id)?;
        let count = body.count;
        let mut resolved = Vec::with_capacity(constraints.len());
        for (k, c) in constraints.iter().enumerate() {
            check_pair(c.a, c.b, count, || format!("constraints[{k}]"))?;
            finite(c.rest_length, &format!("constraints[{k}].rest_length"))?;
            non_negative(c.compliance, &format!("constraints[{k}].compliance"))?;
            let rest_length = if c.rest_length < 0.0 {
                let p = &self.particles;
                (p.position(body.first + c.b as usize) - p.position(body.first + c.a as usize)).length()
            } else {
                c.rest_length
            };
            resolved.push(DistanceConstraint { rest_length, ..*c });
        }
        if constraints.is_empty() {
            return Ok(());
        }
        if body.distances.len().checked_add(resolved.len()).is_none_or(|n| n > u32::MAX as usize) {
            return Err(Error::limit("more than 2^32 - 1 distance constraints in one body"));
        }
        self.check_constraint_limit(resolved.len())?;
        let body = self.body_mut(id)?;
        let padded_count = padded(body.count);
        body.distances.extend(&resolved, padded_count);
        if let Some(cloth) = &mut body.cloth {
            // The sticks are no longer what the cloth's recipe builds.
            cloth.recipe = None;
        }
        Ok(())
    }

    /// Chooses how the body's sticks compute their length.
    pub fn set_distance_method(&mut self, id: BodyId, method: DistanceMethod) -> Result<()> {
        self.body_mut(id)?.distances.method = method;
        Ok(())
    }

    /// Collision radius of every particle of a body (metres, >= 0).
    pub fn set_particle_radius(&mut self, id: BodyId, radius: f32) -> Result<()> {
        non_negative(radius, "radius")?;
        self.body_mut(id)?.radius = radius;
        Ok(())
    }

    /// Adds collision sticks to a body: capsules of a radius around the
    /// segments between two of its particles, which collide with colliders
    /// along their whole length (a rope's links, a limb).
    pub fn add_collision_sticks(&mut self, id: BodyId, sticks: &[CollisionStick]) -> Result<()> {
        let body = self.body(id)?;
        let count = body.count;
        for (k, c) in sticks.iter().enumerate() {
            check_pair(c.a, c.b, count, || format!("sticks[{k}]"))?;
            positive(c.radius, &format!("sticks[{k}].radius"))?;
        }
        if body.sticks.len().checked_add(sticks.len()).is_none_or(|n| n > u32::MAX as usize) {
            return Err(Error::limit("more than 2^32 - 1 collision sticks in one body"));
        }
        self.check_constraint_limit(sticks.len())?;
        self.body_mut(id)?.sticks.extend_from_slice(sticks);
        Ok(())
    }

    /// Number of collision sticks of a body.
    pub fn collision_stick_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.body(id)?.sticks.len() as u32)
    }

    /// Sets or replaces targets; a target stays until replaced or cleared.
    pub fn set_targets(&mut self, id: BodyId, targets: &[Target]) -> Result<()> {
        self.check_targets(id, targets)?;
        let body = self.body_mut(id)?;
        let local: Vec<Target> = targets.iter().map(|t| Target { position: t.position - body.origin, ..*t }).collect();
        body.targets.set(&local);
        Ok(())
    }

    fn check_targets(&self, id: BodyId, targets: &[Target]) -> Result<()> {
        let count = self.body(id)?.count;
        for (k, t) in targets.iter().enumerate() {
            if t.particle as usize >= count {
                return Err(Error::invalid_argument(format!(
                    "targets[{k}].particle {} out of range (the body has {count})",
                    t.particle
                )));
            }
            finite_vec(t.position, &format!("targets[{k}].position"))?;
            non_negative(t.compliance, &format!("targets[{k}].compliance"))?;
            if t.max_force.is_nan() || t.max_force < 0.0 {
                return Err(Error::invalid_argument(format!(
                    "targets[{k}].max_force must be >= 0 (0 or +inf = unlimited), got {}",
                    t.max_force
                )));
            }
        }
        Ok(())
    }

    /// [`World::set_targets`] with positions already in the body's frame
    /// (validated here like the world's).
    pub(crate) fn set_targets_local(&mut self, id: BodyId, targets: &[Target]) -> Result<()> {
        self.check_targets(id, targets)?;
        self.body_mut(id)?.targets.set(targets);
        Ok(())
    }

    /// Pins `particles` of a body to the frame at `position`, `rotation`:
    /// they become kinematic (inverse mass 0) and keep their current place in
    /// the frame; [`World::set_frame`] moves them. Returns the frame's index
    /// within the body. A particle attached twice follows the later frame.
    pub fn attach_to_frame(&mut self, id: BodyId, particles: &[u32], position: Vec3, rotation: Quat) -> Result<u32> {
        self.attach_to_frame_with(
            id,
            particles,
            rotation,
            |origin| Ok(finite_vec(position, "frame.position")? - origin),
        )
    }

    /// [`World::attach_to_frame`] with the frame's position already in the
    /// body's frame.
    pub(crate) fn attach_to_frame_local(
        &mut self,
        id: BodyId,
        particles: &[u32],
        local: Vec3,
        rotation: Quat,
    ) -> Result<u32> {
        self.attach_to_frame_with(id, particles, rotation, |_| finite_vec(local, "frame.position"))
    }

    /// `local(origin)`: the frame's position in the body's frame at `origin`.
    fn attach_to_frame_with(
        &mut self,
        id: BodyId,
        particles: &[u32],
        rotation: Quat,
        local: impl FnOnce(Vec3) -> Result<Vec3>,
    ) -> Result<u32> {
        let body = self.body(id)?;
        for (k, &i) in particles.iter().enumerate() {
            if i as usize >= body.count {
                return Err(Error::invalid_argument(format!(
                    "particles[{k}] = {i} out of range (the body has {})",
                    body.count
                )));
            }
        }
        if particles.is_empty() {
            return Err(Error::invalid_argument("a frame attachment needs at least one particle"));
        }
        let (first, origin) = (body.first, body.origin);
        let position = local(origin)?;
        let rotation = unit_rotation(rotation, "frame.rotation")?;
        let points: Vec<Vec3> = particles.iter().map(|&i| self.particles.position(first + i as usize)).collect();
        if body.frames.len() >= u32::MAX as usize {
            return Err(Error::limit("too many frames on one body"));
        }
        for &i in particles {
            self.particles.inv_mass[first + i as usize] = 0.0;
        }
        // In the body's frame: its points, and the frame's place.
        let frame = FrameAttachment::new(particles, &points, position, rotation);
        let targets: Vec<Target> = frame
            .points(position, rotation)
            .map(|(i, p)| Target { particle: i, position: p, compliance: 0.0, max_force: 0.0 })
            .collect();
        let body = self.body_mut(id)?;
        body.targets.set(&targets);
        body.frames.push(frame);
        Ok(body.frames.len() as u32 - 1)
    }

    /// Moves a frame of a body: its particles reach their points in it by the
    /// end of the next step, interpolated across the substeps.
    pub fn set_frame(&mut self, id: BodyId, frame: u32, position: Vec3, rotation: Quat) -> Result<()> {
        self.set_frame_with(id, frame, rotation, |origin| Ok(finite_vec(position, "frame.position")? - origin))
    }

    /// [`World::set_frame`] with the frame's position already in the body's
    /// frame.
    pub(crate) fn set_frame_local(&mut self, id: BodyId, frame: u32, local: Vec3, rotation: Quat) -> Result<()> {
        self.set_frame_with(id, frame, rotation, |_| finite_vec(local, "frame.position"))
    }

    /// `local(origin)`: the frame's position in the body's frame at `origin`.
    fn set_frame_with(
        &mut self,
        id: BodyId,
        frame: u32,
        rotation: Quat,
        local: impl FnOnce(Vec3) -> Result<Vec3>,
    ) -> Result<()> {
        let body = self.body(id)?;
        let n = body.frames.len();
        if frame as usize >= n {
            return Err(Error::invalid_argument(format!("frame {frame} out of range (the body has {n})")));
        }
        let position = local(body.origin)?;
        let rotation = unit_rotation(rotation, "frame.rotation")?;
        let body = self.body_mut(id)?;
        let targets: Vec<Target> = body.frames[frame as usize]
            .points(position, rotation)
            .map(|(i, p)| Target { particle: i, position: p, compliance: 0.0, max_force: 0.0 })
            .collect();
        body.targets.set(&targets);
        Ok(())
    }

    /// Removes every target of a body.
    pub fn clear_targets(&mut self, id: BodyId) -> Result<()> {
        self.body_mut(id)?.targets.clear();
        Ok(())
    }

    /// Number of targets of a body.
    pub fn target_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.body(id)?.targets.len() as u32)
    }

    pub(crate) fn check_vectors(&self, id: BodyId, first: u32, values: &[Vec3], what: &str) -> Result<usize> {
        let body = self.body(id)?;
        Self::check_range(body.count, first, values.len(), what)?;
        for (k, v) in values.iter().enumerate() {
            finite_vec(*v, &format!("{what}[{k}]"))?;
        }
        Ok(body.first + first as usize)
    }

    /// Teleports particles `first..` to `positions`, keeping their velocities.
    pub fn set_positions(&mut self, id: BodyId, first: u32, positions: &[Vec3]) -> Result<()> {
        let start = self.check_vectors(id, first, positions, "positions")?;
        self.wake(id);
        let origin = self.body(id)?.origin;
        let p = &mut self.particles;
        for (k, &to) in positions.iter().enumerate() {
            p.set_position(start + k, to - origin);
        }
        Ok(())
    }

    /// Jakobsen's motion control: moves particles by `offsets` now and adds
    /// `offset / dt` to their velocities, `dt` being the last step's.
    pub fn move_particles(&mut self, id: BodyId, first: u32, offsets: &[Vec3]) -> Result<()> {
        let start = self.check_vectors(id, first, offsets, "offsets")?;
        self.wake(id);
        let inv_dt = 1.0 / self.last_dt;
        let p = &mut self.particles;
        for (k, &o) in offsets.iter().enumerate() {
            let i = start + k;
            p.set_position(i, p.position(i) + o);
            p.set_velocity(i, p.velocity(i) + o * inv_dt);
        }
        Ok(())
    }

    /// Changes inverse masses of particles `first..` (0 pins, > 0 frees).
    pub fn set_inv_masses(&mut self, id: BodyId, first: u32, inv_masses: &[f32]) -> Result<()> {
        let body = self.body(id)?;
        Self::check_range(body.count, first, inv_masses.len(), "inv_masses")?;
        for (k, &w) in inv_masses.iter().enumerate() {
            non_negative(w, &format!("inv_masses[{k}]"))?;
        }
        let start = body.first + first as usize;
        self.particles.inv_mass[start..start + inv_masses.len()].copy_from_slice(inv_masses);
        self.wake(id);
        Ok(())
    }

    /// Positions of a body's particles, in order.
    pub fn positions(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = Vec3> + '_> {
        let body = self.body(id)?;
        let (p, origin) = (&self.particles, body.origin);
        Ok((body.first..body.first + body.count).map(move |i| origin + p.position(i)))
    }

    /// Where the body's frame is (see `Body::origin`): what its
    /// particles, targets and motor goals are kept relative to.
    pub fn body_origin(&self, id: BodyId) -> Result<Vec3> {
        Ok(self.body(id)?.origin)
    }

    /// Particle `i` of `body` in world space: its frame's origin added,
    /// rounded once.
    pub(crate) fn world_position(&self, body: &Body, i: usize) -> Vec3 {
        body.origin + self.particles.position(body.first + i)
    }

    /// Positions of a body's particles in double precision: exact, however
    /// far from the origin (the `f32` ones round to the world's ulp there).
    pub fn positions_f64(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = DVec3> + '_> {
        let body = self.body(id)?;
        let (p, origin) = (&self.particles, body.origin.as_dvec3());
        Ok((body.first..body.first + body.count).map(move |i| origin + p.position(i).as_dvec3()))
    }

    /// Positions of a body's particles as columns, for a bulk readback in
    /// the world's SIMD level.
    pub(crate) fn position_columns(&self, id: BodyId) -> Result<Columns<'_>> {
        let body = self.body(id)?;
        Ok(Columns::of(&self.particles, body.first..body.first + body.count, body.origin, self.execution.simd))
    }

    /// Velocities of a body's particles (m/s): each the mean over the last
    /// substep, that is the velocity half a substep ago (see
    /// `solver::integrate`); what `set_velocities` set, before a step.
    pub fn velocities(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = Vec3> + '_> {
        let body = self.body(id)?;
        let p = &self.particles;
        Ok((body.first..body.first + body.count).map(move |i| p.velocity(i)))
    }

    /// Sets the velocities (m/s) of particles `first..` (a pinned
    /// particle's is ignored: only the engine moves it).
    pub fn set_velocities(&mut self, id: BodyId, first: u32, velocities: &[Vec3]) -> Result<()> {
        let start = self.check_vectors(id, first, velocities, "velocities")?;
        self.wake(id);
        for (k, &v) in velocities.iter().enumerate() {
            self.particles.set_velocity(start + k, v);
        }
        Ok(())
    }

    /// Adds `forces` (N) to particles `first..` for the next step: each
    /// particle accelerates by `force * inv_mass` over every substep of it,
    /// as under gravity. Forces add up until that step, which clears them.
    pub fn apply_forces(&mut self, id: BodyId, first: u32, forces: &[Vec3]) -> Result<()> {
        self.check_vectors(id, first, forces, "forces")?;
        self.wake(id);
        let body = self.body_mut(id)?;
        if body.forces.is_empty() {
            body.forces.resize(body.count, Vec3::ZERO);
        }
        for (f, &add) in body.forces[first as usize..].iter_mut().zip(forces) {
            *f += add;
        }
        Ok(())
    }

    /// Inverse masses of a body's particles.
    pub fn inv_masses(&self, id: BodyId) -> Result<&[f32]> {
        let body = self.body(id)?;
        Ok(&self.particles.inv_mass[body.first..body.first + body.count])
    }

    /// Mean relative stretch |C|/rest over the body's sticks.
    pub fn mean_stretch(&mut self, id: BodyId) -> Result<f32> {
        let range = self.body(id)?.range();
        let body = self.bodies.get(id.into()).expect("checked");
        let view = self.particles.view(range);
        Ok(body.distances.mean_relative_error(&view))
    }

    // ---- colliders ------------------------------------------------------

    pub(crate) fn collider_error(id: ColliderId) -> Error {
        Error::invalid_id(format!(
            "collider {{index1: {}, generation: {}}} is not a live collider of this world",
            id.index1, id.generation
        ))
    }

    /// Creates a collider with one Coulomb coefficient, on the default
    /// layer, colliding with everything. Its shape is given in a local frame
    /// placed by `position` and `rotation` (normalised here).
    pub fn create_collider(
        &mut self,
        shape: ColliderShape,
        position: Vec3,
        rotation: Quat,
        friction: f32,
    ) -> Result<ColliderId> {
        let friction = non_negative(friction, "friction")?;
        self.create_collider_with(shape, position, rotation, Material::coulomb(friction), Filter::default())
    }

    /// Creates a collider with a full material and a collision filter.
    pub fn create_collider_with(
        &mut self,
        shape: ColliderShape,
        position: Vec3,
        rotation: Quat,
        material: Material,
        filter: Filter,
    ) -> Result<ColliderId> {
        let collider = Collider::checked(shape, position, rotation, material, filter)?;
        if !limit_ok(self.settings.max_colliders, self.colliders.len(), 1) {
            return Err(Error::limit(format!("max_colliders ({}) reached", self.settings.max_colliders)));
        }
        self.wake_touching(&collider);
        let h = self.colliders.insert(collider).ok_or_else(|| Error::limit("no collider slot left"))?;
        Ok(h.into())
    }

    pub(crate) fn collider_mut(&mut self, id: ColliderId) -> Result<&mut Collider> {
        self.colliders.get_mut(id.into()).ok_or_else(|| Self::collider_error(id))
    }

    /// Changes a collider's friction and restitution.
    pub fn set_collider_material(&mut self, id: ColliderId, material: Material) -> Result<()> {
        self.collider_mut(id)?;
        material.validate("material")?;
        self.collider_mut(id)?.material = material;
        let c = self.colliders.get(id.into()).expect("checked").clone();
        self.wake_touching(&c);
        Ok(())
    }

    /// A collider's material.
    pub fn collider_material(&self, id: ColliderId) -> Result<Material> {
        Ok(self.colliders.get(id.into()).ok_or_else(|| Self::collider_error(id))?.material)
    }

    /// Changes a collider's collision layers and mask.
    pub fn set_collider_filter(&mut self, id: ColliderId, filter: Filter) -> Result<()> {
        self.collider_mut(id)?.filter = filter;
        let c = self.colliders.get(id.into()).expect("checked").clone();
        self.wake_touching(&c);
        Ok(())
    }

    /// Gives a body its own friction and restitution (`None`: the colliders'
    /// as they are), met with each collider's by that collider's rule.
    pub fn set_body_material(&mut self, id: BodyId, material: Option<Material>) -> Result<()> {
        self.body(id)?;
        if let Some(m) = &material {
            m.validate("material")?;
        }
        self.body_mut(id)?.material = material;
        Ok(())
    }

    /// Changes a body's collision layers and mask: against colliders, and
    /// between cloths (cloth collision) and between rigid bodies.
    pub fn set_body_filter(&mut self, id: BodyId, filter: Filter) -> Result<()> {
        self.body_mut(id)?.filter = filter;
        Ok(())
    }

    /// Lets body `id` pass through bones `bones` of `ragdoll` (indices in
    /// its bone order) while it still collides with the ragdoll's others: a
    /// cape joined to a character's shoulders ignores the shoulders and the
    /// upper chest and is kept off the back by the rest. Replaces the bones
    /// of that ragdoll the body ignored before (`[]`: none). Refused, with
    /// nothing changed, for a ragdoll and itself (its self-collision is its
    /// own) or a bone out of range. Wakes both bodies.
    pub fn set_ignored_bones(&mut self, id: BodyId, ragdoll: BodyId, bones: &[u32]) -> Result<()> {
        self.body(id)?;
        let count = self.ragdoll_bone_count(ragdoll)?;
        if id == ragdoll {
            return Err(Error::invalid_argument("a ragdoll's own bones meet by its self-collision, not this list"));
        }
        if let Some(&bone) = bones.iter().find(|&&bone| bone >= count) {
            return Err(Error::invalid_argument(format!("bone {bone} out of range: the ragdoll has {count}")));
        }
        let body = self.body_mut(id)?;
        body.ignored.retain(|&(other, _)| other != ragdoll);
        body.ignored.extend(bones.iter().map(|&bone| (ragdoll, bone)));
        body.ignored.sort_unstable_by_key(|&(other, bone)| (other.index1, other.generation, bone));
        body.ignored.dedup();
        self.body_mut(ragdoll)?;
        Ok(())
    }

    /// The bones of `ragdoll` body `id` ignores (see
    /// [`World::set_ignored_bones`]), in increasing order.
    pub fn ignored_bones(&self, id: BodyId, ragdoll: BodyId) -> Result<impl Iterator<Item = u32> + '_> {
        self.ragdoll(ragdoll)?;
        Ok(self.body(id)?.ignored.iter().filter(move |&&(other, _)| other == ragdoll).map(|&(_, bone)| bone))
    }

    /// Moves a collider's frame.
    pub fn set_collider_transform(&mut self, id: ColliderId, position: Vec3, rotation: Quat) -> Result<()> {
        if !self.colliders.contains(id.into()) {
            return Err(Self::collider_error(id));
        }
        let (position, rotation) = checked_transform(position, rotation)?;
        let c = self.colliders.get_mut(id.into()).expect("checked above");
        c.position = if c.origin == Vec3::ZERO { position } else { position - c.origin };
        c.rotation = rotation;
        let c = c.clone();
        // Its sweep over the next step: from where it was to where it is.
        self.wake_touching(&Collider { position: c.prev_position, rotation: c.prev_rotation, ..c.clone() });
        self.wake_touching(&c);
        Ok(())
    }

    /// A collider's frame.
    pub fn collider_transform(&self, id: ColliderId) -> Result<(Vec3, Quat)> {
        let c = self.colliders.get(id.into()).ok_or_else(|| Self::collider_error(id))?;
        Ok((c.world_position(), c.rotation))
    }

    /// Destroys a collider.
    pub fn destroy_collider(&mut self, id: ColliderId) -> Result<()> {
        let c = self.colliders.remove(id.into()).ok_or_else(|| Self::collider_error(id))?;
        self.wake_touching(&c);
        Ok(())
    }

    /// Wakes the sleeping bodies whose bounds the collider reaches.
    pub(crate) fn wake_touching(&mut self, collider: &Collider) {
        let shape = collider.prepared();
        for b in self.bodies.values_mut().filter(|b| b.sleeping && b.filter.meets(&collider.filter)) {
            let grow = b.radius + 0.05;
            if shape.overlaps(b.origin + b.bounds.0 - grow, b.origin + b.bounds.1 + grow) {
                b.wake();
            }
        }
    }

    // ---- joints ---------------------------------------------------------

    /// Joins a particle of one body to a particle of another (or the same)
    /// body: a two-way distance constraint solved with both bodies. A
    /// negative rest length takes the current distance.
    pub fn create_joint(&mut self, joint: Joint) -> Result<JointId> {
        let (a, b) = (self.body(joint.body_a)?, self.body(joint.body_b)?);
        Self::check_range(a.count, joint.particle_a, 1, "particle_a")?;
        Self::check_range(b.count, joint.particle_b, 1, "particle_b")?;
        if joint.body_a == joint.body_b && joint.particle_a == joint.particle_b {
            return Err(Error::invalid_argument("a joint needs two different particles"));
        }
        finite(joint.rest_length, "rest_length")?;
        non_negative(joint.compliance, "compliance")?;
        self.check_constraint_limit(1)?;
        let rest_length = if joint.rest_length < 0.0 {
            let xa = self.particles.position(a.first + joint.particle_a as usize);
            let xb = self.particles.position(b.first + joint.particle_b as usize);
            (xa - xb + (a.origin - b.origin)).length()
        } else {
            joint.rest_length
        };
        let h = self.joints.insert(Joint { rest_length, ..joint }).ok_or_else(|| Error::limit("no joint slot left"))?;
        self.wake(joint.body_a);
        self.wake(joint.body_b);
        Ok(h.into())
    }

    /// Destroys a joint.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<()> {
        let j = self.joints.remove(id.into()).ok_or_else(|| {
            Error::invalid_id(format!(
                "joint {{index1: {}, generation: {}}} is not a live joint of this world",
                id.index1, id.generation
            ))
        })?;
        self.wake(j.body_a);
        self.wake(j.body_b);
        Ok(())
    }

    /// True for a live joint of this world.
    pub fn is_valid_joint(&self, id: JointId) -> bool {
        self.joints.contains(id.into())
    }

    /// The world-space box around a body's particles, grown by its particle
    /// radius; a ragdoll's, around its bones' capsules.
    pub fn body_bounds(&self, id: BodyId) -> Result<(Vec3, Vec3)> {
        let (origin, lo, hi) = self.body_bounds_in_frame(id)?;
        Ok((origin + lo, origin + hi))
    }

    /// [`World::body_bounds`] in the body's frame, and the frame's origin.
    pub(crate) fn body_bounds_in_frame(&self, id: BodyId) -> Result<(Vec3, Vec3, Vec3)> {
        let b = self.body(id)?;
        let (lo, hi) = match &b.ragdoll {
            // Its bones' capsules: its other particles carry its motion and
            // do not collide (they may lie below the floor it rests on).
            Some(r) => r.capsule_bounds(|i| self.particles.position(b.first + i as usize)),
            None => crate::cloth::render::bounds(&self.particles, b.first, b.count, b.radius),
        };
        Ok((b.origin, lo, hi))
    }

    /// True for a live collider of this world.
    pub fn is_valid_collider(&self, id: ColliderId) -> bool {
        self.colliders.contains(id.into())
    }

    // ---- state ----------------------------------------------------------

    /// A hash of everything that decides the future: particles (x, x_prev,
    /// inverse mass), constraints, targets, colliders, settings, id slots, and
    /// the last substep length. Equal hashes mean equal futures, bit for bit.
    /// Id generations are left out, so twin worlds built alike hash alike.
    pub fn state_hash(&self) -> u64 {
        crate::snapshot::state_hash(self)
    }

    /// A versioned, checksummed binary image of the whole world: bodies of
    /// every kind (cloths, ragdolls and rigid bodies as the definitions they
    /// are rebuilt from, plus their state), colliders, joints, settings, ids.
    pub fn snapshot(&self) -> Vec<u8> {
        crate::snapshot::write(self)
    }

    /// Replaces the world's state with a snapshot's. On error the world is
    /// unchanged.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<()> {
        let restored = crate::snapshot::read(bytes)?;
        let execution = self.execution.clone();
        *self = restored;
        self.execution = execution;
        Ok(())
    }
}
