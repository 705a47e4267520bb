//! `sinew_body_*`: particle bodies, sticks, targets, motion control, readback.

use super::boundary::{
    Failure, SinewWorld, checked_out, checked_ref, checked_slice, optional_out, read_into, read_with, vec3s_as_arrays,
    world_ref,
};
use super::collider::{SINEW_COMBINE_AVERAGE, SinewMaterial};
use super::types::*;
use crate::{BodyId, DistanceConstraint, DistanceMethod, Target, Vec3};

/// A stick between two particles of one body (Jakobsen's constraint (C2)).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewDistanceConstraint {
    /// First particle, an index within the body.
    pub a: u32,
    /// Second particle, an index within the body; must differ from `a`.
    pub b: u32,
    /// Metres; < 0 takes the distance at the time the constraint is added.
    pub rest_length: f32,
    /// XPBD compliance (inverse stiffness, m/N), >= 0; 0 = rigid stick.
    pub compliance: f32,
}

/// A target for one particle: where the engine's animation wants it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewTarget {
    /// Particle index within the body.
    pub particle: u32,
    /// World-space target for the end of the next step; interpolated across
    /// its substeps from the previous target.
    pub position: SinewVec3,
    /// XPBD compliance, >= 0; 0 = as stiff as the solver allows.
    pub compliance: f32,
    /// Newtons, >= 0; 0 or +inf = unlimited (a hard pin when compliance is 0).
    /// Caps the correction per substep at `max_force * h^2 / mass`.
    pub max_force: f32,
}

/// Sticks compute their length with a true square root (default).
pub const SINEW_DISTANCE_METHOD_EXACT: u32 = 0;
/// Sticks use Jakobsen's square-root approximation around the rest length:
/// cheaper, exact at rest length, too soft far from it.
pub const SINEW_DISTANCE_METHOD_SQRT_APPROX: u32 = 1;

/// Creates a body of `count` free particles at rest.
///
/// - `positions`: `count` world-space positions, read during the call only.
/// - `inv_masses`: `count` inverse masses (1/kg, >= 0; 0 pins the particle), or
///   NULL for all 1.
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for count 0, NaN/inf positions,
/// negative or NaN inverse masses; `LIMIT_EXCEEDED` (`max_particles`,
/// `max_bodies`). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_create_particles(
    world: *mut SinewWorld,
    positions: *const SinewVec3,
    inv_masses: *const f32,
    count: u32,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_body_create_particles", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let positions = unsafe { checked_slice(positions, count as usize, "positions") }?;
        let inv_masses = if inv_masses.is_null() {
            None
        } else {
            // SAFETY: `inv_masses` is NULL or valid for reads of `count` elements (the `ffi` contract).
            Some(unsafe { checked_slice(inv_masses, count as usize, "inv_masses") }?)
        };
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let positions: Vec<Vec3> = positions.iter().map(|&p| p.into()).collect();
        let id = world.write(|w| Ok(w.create_particles(&positions, inv_masses)?))?;
        *out = id.into();
        Ok(())
    })
}

/// Destroys a body, its particles and constraints. Its id (and copies of it)
/// become invalid; other bodies are unaffected.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_destroy(world: *mut SinewWorld, body: SinewBodyId) -> SinewResult {
    ffi_boundary!("sinew_body_destroy", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.destroy_body(body.into())?))
    })
}

/// 1 when `body` is a live body of `world`, else 0 (also for a NULL or
/// poisoned world). Never fails. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_is_valid(world: *const SinewWorld, body: SinewBodyId) -> SinewBool {
    let mut valid = 0;
    let _ = ffi_boundary!("sinew_body_is_valid", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        valid = world.read(|w| Ok(w.is_valid_body(body.into()) as SinewBool))?;
        Ok(())
    });
    valid
}

/// Pins `count` particles of a body to a frame the engine moves (a bone, a
/// pole, a platform): the particles become kinematic (inverse mass 0) and keep
/// their current place in the frame; `sinew_body_set_frame` moves them, with
/// the motion interpolated across the substeps so the rest of the body is
/// dragged along smoothly. A particle attached twice follows the later frame.
///
/// - `particles`: `count` particle indices, read during the call only.
/// - `frame`: where the frame is now (its rotation is normalised).
/// - `out_frame`: receives the frame's index within the body (0, 1, ...),
///   written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` (count 0, an index
/// out of range, NaN/inf, a zero quaternion); `LIMIT_EXCEEDED`. Threading:
/// write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_attach_to_frame(
    world: *mut SinewWorld,
    body: SinewBodyId,
    particles: *const u32,
    count: u32,
    frame: SinewTransform,
    out_frame: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_attach_to_frame", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `particles` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let particles = unsafe { checked_slice(particles, count as usize, "particles") }?;
        // SAFETY: `out_frame` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_frame, "out_frame") }?;
        let (p, q) = (frame.position.into(), frame.rotation.into());
        *out = world.write(|w| Ok(w.attach_to_frame(body.into(), particles, p, q)?))?;
        Ok(())
    })
}

/// Moves frame `frame` (an index from `sinew_body_attach_to_frame`) of a
/// body: its particles reach their points in it at the end of the next step.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (frame index out
/// of range, NaN/inf, a zero quaternion). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_frame(
    world: *mut SinewWorld,
    body: SinewBodyId,
    frame: u32,
    transform: SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_frame", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let (p, q) = (transform.position.into(), transform.rotation.into());
        world.write(|w| Ok(w.set_frame(body.into(), frame, p, q)?))
    })
}

/// Whether a body is asleep (`*out_sleeping` 1) or awake (0). A body sleeps
/// when it and everything joined to it stayed slower than the world's
/// `sleep_speed` for `sleep_time`; it wakes when a call changes it, a
/// collider moves or appears near it, or the gravity or wind change.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_is_sleeping(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_sleeping: *mut SinewBool,
) -> SinewResult {
    ffi_boundary!("sinew_body_is_sleeping", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_sleeping` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_sleeping, "out_sleeping") }?;
        *out = world.read(|w| Ok(w.is_sleeping(body.into())?))? as SinewBool;
        Ok(())
    })
}

/// Puts a body to sleep now (1; its velocities become zero) or wakes it (0).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (a flag other
/// than 0 or 1). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_sleeping(
    world: *mut SinewWorld,
    body: SinewBodyId,
    sleeping: SinewBool,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_sleeping", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        if sleeping > 1 {
            return Err(Failure::invalid(format!("sleeping must be 0 or 1, got {sleeping}")));
        }
        world.write(|w| Ok(w.set_sleeping(body.into(), sleeping == 1)?))
    })
}

/// The number of particles of a body.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_particle_count(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_particle_count", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = world.read(|w| Ok(w.particle_count(body.into())?))?;
        Ok(())
    })
}

/// How many constraints a body holds, as the world's `max_constraints`
/// counts them (see `sinew_world_constraint_count`): its sticks, bends,
/// tethers, collision sticks, a ragdoll's bone clusters, joint limits and
/// separations (the humanoid counts 236), a rigid body's shape cluster; not
/// the joints it takes part in, nor targets, frames, skin distances or
/// contacts.
///
/// - `out_count`: receives the count, not NULL; written only on success.
///
/// Errors: `NULL_ARGUMENT` (world, out_count); `INVALID_ID` for a null,
/// destroyed or foreign body; `POISONED`; `WORLD_LOCKED` from inside its own
/// step. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_constraint_count(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_constraint_count", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        let n = world.read(|w| Ok(w.body_constraint_count(body.into())?))?;
        *out = u32::try_from(n)
            .map_err(|_| Failure::new(SINEW_RESULT_LIMIT_EXCEEDED, format!("{n} constraints do not fit a uint32_t")))?;
        Ok(())
    })
}

/// Adds sticks between particles of a body. All are checked before any is
/// added. Constraints are re-ordered into particle-disjoint batches for the
/// solver; the call costs time proportional to all the body's sticks.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for an index out
/// of range, `a == b`, NaN/inf rest length, negative or NaN compliance;
/// `LIMIT_EXCEEDED` beyond the world's `max_constraints`. Nothing is added on
/// error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_add_distance_constraints(
    world: *mut SinewWorld,
    body: SinewBodyId,
    constraints: *const SinewDistanceConstraint,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_add_distance_constraints", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `constraints` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let cs = unsafe { checked_slice(constraints, count as usize, "constraints") }?;
        let cs: Vec<DistanceConstraint> = cs
            .iter()
            .map(|c| DistanceConstraint { a: c.a, b: c.b, rest_length: c.rest_length, compliance: c.compliance })
            .collect();
        world.write(|w| Ok(w.add_distance_constraints(body.into(), &cs)?))
    })
}

/// Chooses how a body's sticks compute their length:
/// `SINEW_DISTANCE_METHOD_EXACT` (default) or `SINEW_DISTANCE_METHOD_SQRT_APPROX`.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (unknown method).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_distance_method(
    world: *mut SinewWorld,
    body: SinewBodyId,
    method: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_distance_method", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let method = DistanceMethod::from_u32(method)
            .ok_or_else(|| Failure::invalid(format!("unknown distance method {method}")))?;
        world.write(|w| Ok(w.set_distance_method(body.into(), method)?))
    })
}

/// Sets the collision radius of every particle of a body (metres, >= 0;
/// default 0: particles are points).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_particle_radius(
    world: *mut SinewWorld,
    body: SinewBodyId,
    radius: f32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_particle_radius", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_particle_radius(body.into(), radius)?))
    })
}

/// Sets or replaces targets (one per particle; a later entry for the same
/// particle wins). A target stays until replaced or cleared. A new target
/// starts where it is set; a replaced one moves from its previous position to
/// the new one across the substeps of the next step. A target on a pinned
/// particle (inverse mass 0) moves it kinematically.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for an index out
/// of range, NaN/inf position, negative/NaN compliance or max_force; nothing
/// is changed then. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_targets(
    world: *mut SinewWorld,
    body: SinewBodyId,
    targets: *const SinewTarget,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_targets", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `targets` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let ts = unsafe { checked_slice(targets, count as usize, "targets") }?;
        let ts: Vec<Target> = ts
            .iter()
            .map(|t| Target {
                particle: t.particle,
                position: t.position.into(),
                compliance: t.compliance,
                max_force: t.max_force,
            })
            .collect();
        world.write(|w| Ok(w.set_targets(body.into(), &ts)?))
    })
}

/// Removes every target of a body.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_clear_targets(world: *mut SinewWorld, body: SinewBodyId) -> SinewResult {
    ffi_boundary!("sinew_body_clear_targets", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.clear_targets(body.into())?))
    })
}

fn vectors(v: &[SinewVec3]) -> Vec<Vec3> {
    v.iter().map(|&p| p.into()).collect()
}

/// Teleports particles `first .. first + count` to `positions`, keeping their
/// velocities.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a range
/// outside the body or NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_positions(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    positions: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_positions", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let v = vectors(unsafe { checked_slice(positions, count as usize, "positions") }?);
        world.write(|w| Ok(w.set_positions(body.into(), first, &v)?))
    })
}

/// `sinew_body_teleport`: velocities turn with the motion (a character
/// respawned mid-run keeps its cape's swing).
pub const SINEW_TELEPORT_KEEP_VELOCITY: u32 = 0;
/// `sinew_body_teleport`: velocities become zero (a respawn at rest).
pub const SINEW_TELEPORT_ZERO_VELOCITY: u32 = 1;

/// Teleports a whole body (a respawn, a cut to another place): every
/// particle, pinned or free, and every target, frame pin, skin point and
/// ragdoll motor goal is carried at once by the rigid motion that takes
/// the transform `from` to `to` (world space: the character's transform
/// before and after), with nothing swept in between; velocities turn with
/// the motion (`SINEW_TELEPORT_KEEP_VELOCITY`) or become zero
/// (`SINEW_TELEPORT_ZERO_VELOCITY`). Wakes the body.
///
/// Respawn recipe for a character's cloth: call this with the old and the
/// new transform, then place the frames (`sinew_body_set_frame`), skin
/// (`sinew_cloth_set_skin`) and colliders at the new place as every frame,
/// then step. Moving only the frame (or calling `sinew_body_set_positions`
/// first) makes the next step drag the pins from the old place to the new
/// across its substeps, and the cloth whips.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for NaN/inf, a
/// zero quaternion, `velocity_mode` not a `SINEW_TELEPORT_*` value, or a
/// destination beyond the world's coordinate range (nothing is changed).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_teleport(
    world: *mut SinewWorld,
    body: SinewBodyId,
    from: SinewTransform,
    to: SinewTransform,
    velocity_mode: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_teleport", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let zero = match velocity_mode {
            SINEW_TELEPORT_KEEP_VELOCITY => false,
            SINEW_TELEPORT_ZERO_VELOCITY => true,
            v => return Err(Failure::invalid(format!("velocity_mode {v} is not a SINEW_TELEPORT_* value"))),
        };
        let (from, to) = ((from.position.into(), from.rotation.into()), (to.position.into(), to.rotation.into()));
        world.write(|w| Ok(w.teleport(body.into(), from, to, zero)?))
    })
}

/// Jakobsen's motion control (a hit, a shove): moves particles
/// `first .. first + count` by `offsets` now and adds `offset / dt` to their
/// velocities, `dt` being the last step's (1/60 s before the first step),
/// whatever the substep count.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a range
/// outside the body or NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_move_particles(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    offsets: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_move_particles", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `offsets` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let v = vectors(unsafe { checked_slice(offsets, count as usize, "offsets") }?);
        world.write(|w| Ok(w.move_particles(body.into(), first, &v)?))
    })
}

/// Sets the velocities (m/s, world space) of particles `first .. first +
/// count` to `velocities`, positions unchanged; wakes the body. A pinned
/// particle's (inverse mass 0) is overwritten by the engine's next move of
/// it. What `sinew_body_read_velocities` reads back until the next step.
///
/// Ownership: `velocities` is read during the call only; NULL only with
/// `count` 0. Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a
/// range outside the body or NaN/inf (nothing is changed). Threading: write
/// lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_velocities(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    velocities: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_velocities", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `velocities` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let v = vectors(unsafe { checked_slice(velocities, count as usize, "velocities") }?);
        world.write(|w| Ok(w.set_velocities(body.into(), first, &v)?))
    })
}

/// Adds `forces` (N, world space) to particles `first .. first + count` for
/// the next `sinew_world_step`: each particle accelerates by `force *
/// inverse mass` through every substep of that step, as under gravity (a
/// constant force `F` on mass `m` gives `F t / m` exactly). Forces add up
/// until that step, which clears them; a snapshot keeps them. Wakes the body.
///
/// Ownership: `forces` is read during the call only; NULL only with `count`
/// 0. Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a range
/// outside the body or NaN/inf (nothing is changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_apply_forces(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    forces: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_apply_forces", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `forces` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let f = vectors(unsafe { checked_slice(forces, count as usize, "forces") }?);
        world.write(|w| Ok(w.apply_forces(body.into(), first, &f)?))
    })
}

/// Sets the inverse masses of particles `first .. first + count` (1/kg, >= 0;
/// 0 pins a particle where it is, > 0 releases it).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for a range
/// outside the body or a negative/NaN/inf value. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_inv_masses(
    world: *mut SinewWorld,
    body: SinewBodyId,
    first: u32,
    inv_masses: *const f32,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_inv_masses", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `inv_masses` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let v = unsafe { checked_slice(inv_masses, count as usize, "inv_masses") }?.to_vec();
        world.write(|w| Ok(w.set_inv_masses(body.into(), first, &v)?))
    })
}

/// Which per-particle vector a readback copies.
#[derive(Clone, Copy)]
enum Quantity {
    Positions,
    Velocities,
}

/// Shared by the per-particle vector readbacks.
///
/// # Safety
/// `world` is NULL or a world, `out` NULL or valid for writes of
/// `capacity` vectors, `out_count` NULL or valid for a write.
unsafe fn read_vectors(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut SinewVec3,
    capacity: u32,
    out_count: *mut u32,
    quantity: Quantity,
) -> Result<(), Failure> {
    // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
    let world = unsafe { world_ref(world) }?;
    // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
    let out_count = unsafe { optional_out(out_count, "out_count") }?;
    world.read(|w| {
        let id = BodyId::from(body);
        match quantity {
            Quantity::Positions => {
                let columns = w.position_columns(id)?;
                // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
                unsafe {
                    read_with(out, capacity, out_count, columns.len(), |o| columns.interleave(vec3s_as_arrays(o)))
                }
            }
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            Quantity::Velocities => unsafe {
                read_into(out, capacity, out_count, w.velocities(id)?.map(SinewVec3::from))
            },
        }
    })
}

/// Copies a body's particle positions (world space, particle order) into
/// `out`, which holds `capacity` vectors. `out == NULL && capacity == 0` asks
/// for the count. A too small buffer gets nothing: `BUFFER_TOO_SMALL`, with the
/// needed count in `*out_count`. `out_count` may be NULL.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `BUFFER_TOO_SMALL`. Threading: read
/// lock (parallel with other reads).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_read_positions(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut SinewVec3,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_read_positions", {
        // SAFETY: `world` is NULL or a world, `out` NULL or valid for writes of `capacity` (the `ffi` contract).
        unsafe { read_vectors(world, body, out, capacity, out_count, Quantity::Positions) }
    })
}

/// Copies a body's particle velocities (m/s) into `out`: each the mean over
/// the last substep (the velocity half a substep ago: leapfrog), or what
/// `sinew_body_set_velocities` set since; same protocol as
/// `sinew_body_read_positions`.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `BUFFER_TOO_SMALL`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_read_velocities(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut SinewVec3,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_read_velocities", {
        // SAFETY: `world` is NULL or a world, `out` NULL or valid for writes of `capacity` (the `ffi` contract).
        unsafe { read_vectors(world, body, out, capacity, out_count, Quantity::Velocities) }
    })
}

/// Gives a body its own surface: each collider's coefficients then meet the
/// body's by that collider's combine rule (`material->combine` is ignored).
/// `material` NULL removes it: the body takes the colliders' coefficients as
/// they are (the default).
///
/// Errors: `NULL_ARGUMENT` (world), `INVALID_ID`, `INVALID_ARGUMENT` (NaN/inf,
/// negative friction, restitution outside [0, 1]). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_material(
    world: *mut SinewWorld,
    body: SinewBodyId,
    material: *const SinewMaterial,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_material", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let material = if material.is_null() {
            None
        } else {
            // SAFETY: non-NULL, so valid for reads of a material (the
            // `ffi` contract); `checked_ref` refuses it misaligned before
            // making the reference.
            let m = unsafe { checked_ref(material, "material") }?;
            Some(SinewMaterial { combine: SINEW_COMBINE_AVERAGE, ..*m }.to_core()?)
        };
        world.write(|w| Ok(w.set_body_material(body.into(), material)?))
    })
}

/// Puts a body on the layers `layer` and lets it collide with colliders on
/// the layers in `mask` (a collider's own mask must also hold a layer of the
/// body); the same rule holds between two cloths (cloth collision) and
/// between two rigid bodies. Default: `SINEW_LAYER_DEFAULT`,
/// `SINEW_LAYER_ALL`. Wakes the body.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_collision_filter(
    world: *mut SinewWorld,
    body: SinewBodyId,
    layer: u32,
    mask: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_collision_filter", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_body_filter(body.into(), crate::Filter { layer, mask })?))
    })
}

/// Lets `body` pass through chosen bones of `ragdoll` while it still
/// collides with the ragdoll's other bones: a cape joined to a character's
/// shoulders ignores the shoulder and upper-chest bones and is kept off the
/// back by the rest, with no skin. Replaces the bones of that ragdoll the
/// body ignored before; `count` 0 clears them (it collides with every bone
/// again). Layers and masks (`sinew_body_set_collision_filter`) still decide
/// whether the two bodies collide at all. Destroying either body forgets
/// the list; snapshots keep it. Wakes both bodies.
///
/// - `bones`: `count` bone indices of `ragdoll` (its bone order, see
///   `sinew_ragdoll_find_bone`), read during the call only; NULL when 0.
///   Repeats are allowed.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID` (either body), `WRONG_KIND`
/// (`ragdoll` is not a ragdoll), `INVALID_ARGUMENT` (`body` is `ragdoll`:
/// its own bones meet by its self-collision; a bone out of range). Nothing
/// changes on an error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_set_ignored_bones(
    world: *mut SinewWorld,
    body: SinewBodyId,
    ragdoll: SinewBodyId,
    bones: *const u32,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_set_ignored_bones", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let bones = unsafe { checked_slice(bones, count as usize, "bones") }?;
        world.write(|w| Ok(w.set_ignored_bones(body.into(), ragdoll.into(), bones)?))
    })
}

/// A capsule of `radius` around the segment between two particles of one
/// body: it collides with colliders along its whole length (Jakobsen's
/// sticks against the world), so a rope or a limb lying across a thin bar is
/// held by it even when no particle touches.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewCollisionStick {
    /// First particle, an index within the body.
    pub a: u32,
    /// Second particle, another index within the body.
    pub b: u32,
    /// Metres, > 0.
    pub radius: f32,
}

/// Adds collision sticks to a body (any kind). A stick pushed out of a
/// collider moves its two particles by Jakobsen's barycentric weights.
///
/// - `sticks`: `count` sticks, read during the call only; NULL when 0.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (an index out
/// of range, `a == b`, a radius <= 0 or NaN; nothing is added),
/// `LIMIT_EXCEEDED` (the world's `max_constraints`). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_add_collision_sticks(
    world: *mut SinewWorld,
    body: SinewBodyId,
    sticks: *const SinewCollisionStick,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_body_add_collision_sticks", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `sticks` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let sticks = unsafe { checked_slice(sticks, count as usize, "sticks") }?;
        let sticks: Vec<crate::CollisionStick> =
            sticks.iter().map(|s| crate::CollisionStick { a: s.a, b: s.b, radius: s.radius }).collect();
        world.write(|w| Ok(w.add_collision_sticks(body.into(), &sticks)?))
    })
}
