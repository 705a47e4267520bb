//! `sinew_world_*`: creation, stepping, state hash, snapshots, explosions.

use super::boundary::{
    Failure, SinewWorld, checked_out, checked_ref, checked_slice, optional_out, readback, world_ref,
};
use super::types::*;
use crate::{World, WorldSettings};

/// Stamped by `sinew_default_*_def`; a zero-initialised def lacks it.
pub(crate) const DEF_COOKIE: u32 = 0x53_4E_57_31; // "SNW1"

/// Settings of a new world. Get one from `sinew_default_world_def()`, change
/// what you need, pass it to `sinew_world_create`; a zero-initialised struct
/// is refused.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewWorldDef {
    /// m/s^2; default (0, -9.81, 0).
    pub gravity: SinewVec3,
    /// Fraction of velocity lost per second, in [0, 1]; default 0.01.
    pub damping: f32,
    /// Substeps per `sinew_world_step`, 1..=1024; default 8 (cloth at 60 Hz).
    pub substeps: u32,
    /// Relaxation passes per substep, 1..=1024; default 1.
    pub iterations: u32,
    /// Most particles the world may hold; 0 (default) = no limit.
    pub max_particles: u32,
    /// Most bodies; 0 (default) = no limit.
    pub max_bodies: u32,
    /// Most colliders; 0 (default) = no limit.
    pub max_colliders: u32,
    /// Wind velocity every cloth feels, m/s; default (0, 0, 0).
    pub wind: SinewVec3,
    /// Air density for cloth aerodynamics, kg/m^3, >= 0; default 1.2 (0 = no air).
    pub air_density: f32,
    /// A body (with everything joined to it) slower than this everywhere, m/s,
    /// for `sleep_time` seconds falls asleep and costs nothing until touched,
    /// moved, or its targets, wind or gravity change; default 0.02; 0 = never sleep.
    pub sleep_speed: f32,
    /// Seconds of stillness before sleep, >= 0; default 1.
    pub sleep_time: f32,
    /// Most constraints; 0 (default) = no limit. Counted: sticks (user,
    /// cloth stretch and shear, a rigid tetrahedron's 6), bends, tethers,
    /// collision sticks, joints, a ragdoll's bone clusters, joint limits and
    /// separations (the humanoid counts 236), a rigid body's shape cluster;
    /// not targets, frames, skin distances or contacts.
    pub max_constraints: u32,
    /// Set by `sinew_default_world_def`; do not touch.
    pub internal_cookie: u32,
}

impl From<WorldSettings> for SinewWorldDef {
    fn from(s: WorldSettings) -> Self {
        SinewWorldDef {
            gravity: s.gravity.into(),
            damping: s.damping,
            substeps: s.substeps,
            iterations: s.iterations,
            max_particles: s.max_particles,
            max_bodies: s.max_bodies,
            max_colliders: s.max_colliders,
            wind: s.wind.into(),
            air_density: s.air_density,
            sleep_speed: s.sleep_speed,
            sleep_time: s.sleep_time,
            max_constraints: s.max_constraints,
            internal_cookie: DEF_COOKIE,
        }
    }
}

/// The default world settings, with the cookie that `sinew_world_create`
/// checks. Never fails; thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_world_def() -> SinewWorldDef {
    WorldSettings::default().into()
}

/// Creates a world.
///
/// - `def`: settings from `sinew_default_world_def()`, not NULL; read during the call only.
/// - `out_world`: receives the new world, owned by the caller until
///   `sinew_world_destroy`. Written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a def without the cookie
/// (zero-initialised) or with a value out of range (NaN gravity, substeps 0, ...).
/// Thread-safe.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_create(def: *const SinewWorldDef, out_world: *mut *mut SinewWorld) -> SinewResult {
    ffi_boundary!("sinew_world_create", {
        let def = unsafe { checked_ref(def, "def") }?;
        let out = unsafe { checked_out(out_world, "out_world") }?;
        if def.internal_cookie != DEF_COOKIE {
            return Err(Failure::invalid("def was not initialised by sinew_default_world_def() (zero-initialised?)"));
        }
        let settings = WorldSettings {
            gravity: def.gravity.into(),
            damping: def.damping,
            substeps: def.substeps,
            iterations: def.iterations,
            max_particles: def.max_particles,
            max_bodies: def.max_bodies,
            max_colliders: def.max_colliders,
            wind: def.wind.into(),
            air_density: def.air_density,
            sleep_speed: def.sleep_speed,
            sleep_time: def.sleep_time,
            max_constraints: def.max_constraints,
        };
        let world = World::new(settings)?;
        *out = Box::into_raw(Box::new(SinewWorld::new(world)));
        Ok(())
    })
}

/// Destroys a world with every body and collider in it; ids of the world
/// become invalid. NULL is a no-op. A poisoned world is destroyed too.
///
/// Threading: may run on any thread (a finalizer's), but no other call may be
/// using or start using this world during or after it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_destroy(world: *mut SinewWorld) {
    let _ = ffi_boundary!("sinew_world_destroy", {
        if world.is_null() {
            return Ok(());
        }
        unsafe { world_ref(world) }?;
        // SAFETY: created by Box::into_raw in sinew_world_create, checked above.
        let mut boxed = unsafe { Box::from_raw(world) };
        boxed.forget_magic();
        drop(boxed);
        Ok(())
    });
}

/// Advances the world by `dt` seconds: `substeps` substeps of `dt / substeps`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` unless `dt` is in [1e-6, 1] seconds
/// (NaN and inf included);
/// `POISONED`; `PANIC` (the world is then poisoned).
/// Threading: takes the world's write lock; other calls on the same world wait
/// for the step to finish, different worlds step in parallel.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_step(world: *mut SinewWorld, dt: f32) -> SinewResult {
    ffi_boundary!("sinew_world_step", {
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.step(dt)?))
    })
}

/// Sets gravity (m/s^2) from the next step on.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_gravity(world: *mut SinewWorld, gravity: SinewVec3) -> SinewResult {
    ffi_boundary!("sinew_world_set_gravity", {
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_gravity(gravity.into())?))
    })
}

/// How many times a step went non-finite (or beyond +-1e15 m) for some group
/// of coupled bodies, which sinew then put back to where they were before that
/// step, at rest. A healthy world keeps this at 0; a rising count means the
/// engine feeds inputs the simulation cannot follow (enormous shoves, forces
/// or gravity).
///
/// Errors: `NULL_ARGUMENT`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_recovery_count(world: *const SinewWorld, out_count: *mut u64) -> SinewResult {
    ffi_boundary!("sinew_world_recovery_count", {
        let world = unsafe { world_ref(world) }?;
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = world.read(|w| Ok(w.recovery_count()))?;
        Ok(())
    })
}

/// Sets the wind every cloth feels (m/s) from the next step on; wakes every
/// body.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_wind(world: *mut SinewWorld, wind: SinewVec3) -> SinewResult {
    ffi_boundary!("sinew_world_set_wind", {
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_wind(wind.into())?))
    })
}

/// The world's current settings, as a def (with the cookie, so it can create
/// a world alike).
///
/// Errors: `NULL_ARGUMENT`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_get_def(world: *const SinewWorld, out_def: *mut SinewWorldDef) -> SinewResult {
    ffi_boundary!("sinew_world_get_def", {
        let world = unsafe { world_ref(world) }?;
        let out = unsafe { checked_out(out_def, "out_def") }?;
        *out = world.read(|w| Ok(SinewWorldDef::from(*w.settings())))?;
        Ok(())
    })
}

/// A 64-bit hash of everything that decides the world's future (particle
/// positions and previous positions, masses, constraints, targets, colliders,
/// settings; not the id generations, so twin worlds built alike hash alike).
/// Two worlds with equal hashes step on to equal bits; use it
/// to detect desyncs (lockstep, rollback) and in determinism tests.
///
/// Errors: `NULL_ARGUMENT`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_state_hash(world: *const SinewWorld, out_hash: *mut u64) -> SinewResult {
    ffi_boundary!("sinew_world_state_hash", {
        let world = unsafe { world_ref(world) }?;
        let out = unsafe { checked_out(out_hash, "out_hash") }?;
        *out = world.read(|w| Ok(w.state_hash()))?;
        Ok(())
    })
}

/// Writes a versioned, checksummed image of the whole world (settings,
/// bodies, constraints, targets, colliders, ids) into `buffer`.
///
/// `buffer == NULL && capacity == 0` asks for the size: stores it in
/// `*out_size` and returns `OK`. A too small buffer gets nothing:
/// `BUFFER_TOO_SMALL`, with the needed size in `*out_size`. `out_size` may be
/// NULL. The image is plain bytes owned by the caller.
///
/// Errors: `NULL_ARGUMENT` (world, or buffer NULL with capacity > 0),
/// `BUFFER_TOO_SMALL`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_snapshot(
    world: *const SinewWorld,
    buffer: *mut u8,
    capacity: usize,
    out_size: *mut usize,
) -> SinewResult {
    ffi_boundary!("sinew_world_snapshot", {
        let world = unsafe { world_ref(world) }?;
        let out_size = unsafe { optional_out(out_size, "out_size") }?;
        let image = world.read(|w| Ok(w.snapshot()))?;
        let size = image.len();
        let store = || {
            if let Some(s) = out_size {
                *s = size;
            }
        };
        if let Some(out) = unsafe { readback(buffer, capacity, size, store) }? {
            out.copy_from_slice(&image);
        }
        Ok(())
    })
}

/// Replaces the world's whole state with a snapshot's, made by
/// `sinew_world_snapshot` of this world or another. Ids in the snapshot are
/// valid afterwards; ids created after the snapshot was taken are not.
/// Stepping on gives the same bits as the snapshotted world would have.
///
/// `buffer` is read during the call only; NULL with `size` 0 is an empty image.
///
/// Errors: `NULL_ARGUMENT`; `INCOMPATIBLE` for an image that is truncated,
/// corrupted (checksum) or of another format version. On any error the world
/// is unchanged. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_restore(world: *mut SinewWorld, buffer: *const u8, size: usize) -> SinewResult {
    ffi_boundary!("sinew_world_restore", {
        let world = unsafe { world_ref(world) }?;
        let bytes = unsafe { checked_slice(buffer, size, "buffer") }?;
        world.write(|w| Ok(w.restore(bytes)?))
    })
}

/// An explosion (Jakobsen's motion control): every free particle of every
/// body within `radius` of `center` gains the velocity
/// `strength / max(d, 0.1 m)^2` (m/s) away from the centre, `d` being its
/// distance (a particle on the centre goes up +Y). Pinned particles stay.
/// The bodies touched wake up. `out_count` (may be NULL) receives how many
/// particles were pushed.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf or a negative
/// strength or radius. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_explode(
    world: *mut SinewWorld,
    center: SinewVec3,
    strength: f32,
    radius: f32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_world_explode", {
        let world = unsafe { world_ref(world) }?;
        let out = unsafe { optional_out(out_count, "out_count") }?;
        let n = world.write(|w| Ok(w.explode(center.into(), strength, radius)?))?;
        if let Some(out) = out {
            *out = n;
        }
        Ok(())
    })
}
