//! `sinew_world_*`: creation, stepping, state hash, snapshots, explosions.

use super::boundary::{
    Busy, Failure, SinewWorld, checked_out, checked_ref, checked_slice, optional_out, readback, world_ref,
};
use super::tasks::EngineTasks;
use super::types::*;
use crate::exec::Exec;
use crate::exec::simd::SimdLevel;
use crate::exec::workers::{self, Workers};
use crate::{World, WorldSettings};
use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most workers a world may have.
const MAX_WORKERS: u32 = 64;

/// `SinewWorldDef::simd_level`: the best level this CPU has.
pub const SINEW_SIMD_AUTO: u32 = 0;
/// One lane, no vector instructions.
pub const SINEW_SIMD_SCALAR: u32 = 1;
/// 4 lanes (SSE2 on x86-64).
pub const SINEW_SIMD_SSE2: u32 = 2;
/// 8 lanes (AVX2).
pub const SINEW_SIMD_AVX2: u32 = 3;
/// 16 lanes (AVX-512F).
pub const SINEW_SIMD_AVX512: u32 = 4;

/// Stamped by `sinew_default_*_def`; a zero-initialised def lacks it.
pub(crate) const DEF_COOKIE: u32 = 0x53_4E_57_31; // "SNW1"

/// Settings of a new world. Get one from `sinew_default_world_def()`, change
/// what you need, pass it to `sinew_world_create`; a zero-initialised struct
/// is refused.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
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
    /// The kernels' instruction set: `SINEW_SIMD_AUTO` (0, the default: the
    /// best this CPU has), `SINEW_SIMD_SCALAR`, `SINEW_SIMD_SSE2`,
    /// `SINEW_SIMD_AVX2`, `SINEW_SIMD_AVX512`. A level above the CPU's runs at
    /// the CPU's (`sinew_world_get_simd_level` tells). Every level gives the
    /// same bits.
    pub simd_level: u32,
    /// Threads that may work on one step, 1..=64; default 1 (the stepping
    /// thread alone). Without task callbacks, a world with more owns a pool
    /// of `worker_count - 1` threads; with them, the engine's tasks get
    /// worker indices below it. Any count gives the same bits.
    pub worker_count: u32,
    /// Optional (NULL = none; set both or neither): the engine's job system.
    /// During a step sinew calls `enqueue_task(task, item_count, min_range,
    /// task_context, user_task_context)`; the engine must call
    /// `task(start, end, worker_index, task_context)` over ranges that cover
    /// `0 .. item_count` exactly once (ranges of at least `min_range` items
    /// except the last; any split, any order, on up to `worker_count`
    /// threads with distinct `worker_index` below `worker_count`). It returns
    /// a handle that sinew passes to `finish_task`, which must wait until
    /// every range has run; or it runs them all before returning and returns
    /// NULL (then `finish_task` is not called). Both are called only on the
    /// thread that called `sinew_world_step`, during the step. A task calling
    /// a sinew function on the same world gets `SINEW_RESULT_WORLD_LOCKED`;
    /// ranges missing, out of bounds or run twice make the step fail with
    /// `SINEW_RESULT_PANIC` (the world is then poisoned; a range handed out
    /// twice is refused before it runs). The callbacks are plain C functions
    /// and must not unwind into sinew: catch a C++ exception inside them
    /// (and do not `longjmp` out); one that escapes is undefined behaviour.
    // Spelled out, not through a type alias: cbindgen writes an alias inside
    // `Option` as an opaque struct.
    #[allow(clippy::type_complexity)]
    pub enqueue_task: Option<
        unsafe extern "C" fn(
            task: Option<unsafe extern "C" fn(start: u32, end: u32, worker_index: u32, task_context: *mut c_void)>,
            item_count: u32,
            min_range: u32,
            task_context: *mut c_void,
            user_context: *mut c_void,
        ) -> *mut c_void,
    >,
    /// See `enqueue_task`.
    pub finish_task: Option<unsafe extern "C" fn(user_task: *mut c_void, user_context: *mut c_void)>,
    /// Passed to both callbacks as `user_context`; sinew never dereferences it.
    pub user_task_context: *mut c_void,
    /// Set by `sinew_default_world_def`; do not touch.
    pub internal_cookie: u32,
}

/// The execution fields of a def (how steps run, not what they compute).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ExecutionDef {
    simd_level: u32,
    worker_count: u32,
    enqueue_task: EnqueueFn,
    finish_task: FinishFn,
    user_task_context: *mut c_void,
}

// SAFETY: the engine's context pointer is only handed back to the engine.
unsafe impl Send for ExecutionDef {}
// SAFETY: as above.
unsafe impl Sync for ExecutionDef {}

type EnqueueFn = Option<
    unsafe extern "C" fn(
        Option<unsafe extern "C" fn(u32, u32, u32, *mut c_void)>,
        u32,
        u32,
        *mut c_void,
        *mut c_void,
    ) -> *mut c_void,
>;
type FinishFn = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

/// Equal settings, the same callbacks (by address) and context.
impl PartialEq for SinewWorldDef {
    fn eq(&self, o: &Self) -> bool {
        let f = |d: &Self| (d.enqueue_task.map(|f| f as usize), d.finish_task.map(|f| f as usize));
        (self.gravity, self.damping, self.substeps, self.iterations, self.max_particles, self.max_bodies)
            == (o.gravity, o.damping, o.substeps, o.iterations, o.max_particles, o.max_bodies)
            && (self.max_colliders, self.max_constraints, self.wind, self.air_density, self.sleep_speed)
                == (o.max_colliders, o.max_constraints, o.wind, o.air_density, o.sleep_speed)
            && self.sleep_time == o.sleep_time
            && (self.simd_level, self.worker_count, self.user_task_context, self.internal_cookie)
                == (o.simd_level, o.worker_count, o.user_task_context, o.internal_cookie)
            && f(self) == f(o)
    }
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
            simd_level: SINEW_SIMD_AUTO,
            worker_count: 1,
            enqueue_task: None,
            finish_task: None,
            user_task_context: std::ptr::null_mut(),
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
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let def = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_world` is NULL or valid for writes (the `ffi` contract).
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
        let simd = SimdLevel::from_u32(def.simd_level).ok_or_else(|| {
            Failure::invalid(format!("simd_level must be a SINEW_SIMD_* value (0..=4), got {}", def.simd_level))
        })?;
        if !(1..=MAX_WORKERS).contains(&def.worker_count) {
            return Err(Failure::invalid(format!(
                "worker_count must be in 1..={MAX_WORKERS}, got {}",
                def.worker_count
            )));
        }
        let engine = match (def.enqueue_task, def.finish_task) {
            (Some(enqueue), Some(finish)) => Some(Arc::new(EngineTasks {
                enqueue,
                finish,
                user: def.user_task_context,
                count: def.worker_count,
                world: AtomicUsize::new(0),
            })),
            (None, None) => None,
            _ => return Err(Failure::invalid("enqueue_task and finish_task must be set together")),
        };
        let mut world = World::new(settings)?;
        let workers: Arc<dyn Workers> = match &engine {
            Some(e) => e.clone(),
            None => workers::built_in(def.worker_count),
        };
        world.set_execution(Exec { simd, workers });
        let execution = ExecutionDef {
            simd_level: def.simd_level,
            worker_count: def.worker_count,
            enqueue_task: def.enqueue_task,
            finish_task: def.finish_task,
            user_task_context: def.user_task_context,
        };
        let raw = Box::into_raw(Box::new(SinewWorld::new(world, execution)));
        if let Some(e) = engine {
            e.world.store(raw as usize, Ordering::Release);
        }
        *out = raw;
        Ok(())
    })
}

/// Destroys a world with every body and collider in it; ids of the world
/// become invalid. NULL is a no-op. A poisoned world is destroyed too.
///
/// Threading: may run on any thread (a finalizer's), but no other call may be
/// using or start using this world during or after it. From inside one of
/// the world's own steps (a task or task callback) it is refused and the
/// world lives on (`sinew_last_error_message` tells; the step goes on).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_destroy(world: *mut SinewWorld) {
    let _ = ffi_boundary!("sinew_world_destroy", {
        if world.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL, so a world from `sinew_world_create` (the
        // function's contract); the magic check refuses most others.
        let w = unsafe { world_ref(world) }?;
        // The step that runs this task holds the world: freeing it here
        // would pull it from under that step.
        w.refuse_inside_step()?;
        // SAFETY: created by Box::into_raw in sinew_world_create, checked above.
        let mut boxed = unsafe { Box::from_raw(world) };
        boxed.forget_magic();
        drop(boxed);
        Ok(())
    });
}

/// The SIMD level the world's kernels run at (`SINEW_SIMD_SCALAR` ..
/// `SINEW_SIMD_AVX512`): the def's, capped by this CPU's.
///
/// Errors: `NULL_ARGUMENT` (world, out_level); `POISONED`;
/// `WORLD_LOCKED` from inside its own step. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_get_simd_level(world: *const SinewWorld, out_level: *mut u32) -> SinewResult {
    ffi_boundary!("sinew_world_get_simd_level", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_level` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_level, "out_level") }?;
        *out = world.read(|w| Ok(w.execution().simd as u32))?;
        Ok(())
    })
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
        let world_ptr = world;
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| {
            // Callbacks and tasks of this step calling back into this world
            // get WORLD_LOCKED instead of waiting for this very lock.
            let _busy = Busy::enter(world_ptr);
            Ok(w.step(dt)?)
        })
    })
}

/// Sets gravity (m/s^2) from the next step on.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_gravity(world: *mut SinewWorld, gravity: SinewVec3) -> SinewResult {
    ffi_boundary!("sinew_world_set_gravity", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_gravity(gravity.into())?))
    })
}

/// Moves the world's origin to `offset` (world space, in the coordinates
/// used until now): from this call on every position the world takes or
/// gives (particles, colliders, targets, frames, bones, contacts, rays) is
/// relative to the new origin. Nothing moves and velocities stay, so the
/// simulation goes on as it would have. For engines with a floating origin
/// (Unity) or large worlds: each body already keeps its own positions
/// relative to a point near it, so physics is as precise far away as near
/// the origin; this keeps the `f32` values the engine reads and writes
/// small. Bodies move to the new coordinates exactly when the offset is a
/// multiple of 4 m (else to the rounding of their own size), and so do
/// colliders placed with the `_d` calls; other colliders keep `f32` world
/// positions, which round to the new coordinates' ulp
/// (`sinew_world_shift_origin_d` moves them as it moves the bodies).
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf (nothing is
/// changed). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_shift_origin(world: *mut SinewWorld, offset: SinewVec3) -> SinewResult {
    ffi_boundary!("sinew_world_shift_origin", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.shift_origin(offset.into())?))
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = world.read(|w| Ok(w.recovery_count()))?;
        Ok(())
    })
}

/// Times the stages of the coming steps (`enabled` 1) for
/// `sinew_world_get_profile`, or stops (0, the default). Timing reads the
/// clock twice per stage per group of coupled bodies: a few tens of
/// nanoseconds each. Never changes what a step computes.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for `enabled` other than 0
/// or 1. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_profiling(world: *mut SinewWorld, enabled: SinewBool) -> SinewResult {
    ffi_boundary!("sinew_world_set_profiling", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let on = match enabled {
            0 => false,
            1 => true,
            v => return Err(Failure::invalid(format!("enabled must be 0 or 1, got {v}"))),
        };
        world.write(|w| {
            w.set_profiling(on);
            Ok(())
        })
    })
}

/// Where the last step's time went, stage by stage (see `SinewProfile`);
/// all zero when profiling is off (`sinew_world_set_profiling`) or no step
/// has run since it was turned on.
///
/// Errors: `NULL_ARGUMENT`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_get_profile(
    world: *const SinewWorld,
    out_profile: *mut SinewProfile,
) -> SinewResult {
    ffi_boundary!("sinew_world_get_profile", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_profile` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_profile, "out_profile") }?;
        *out = world.read(|w| Ok(SinewProfile::from(w.profile())))?;
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_wind(wind.into())?))
    })
}

/// Sets the substeps per `sinew_world_step` (1..=1024) from the next step
/// on, as a different `dt` would: velocities carry over, nothing is rebuilt.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` out of range (nothing is
/// changed); `POISONED`; `WORLD_LOCKED` from inside its own step.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_substeps(world: *mut SinewWorld, substeps: u32) -> SinewResult {
    ffi_boundary!("sinew_world_set_substeps", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_substeps(substeps)?))
    })
}

/// Sets the relaxation passes per substep (1..=1024) from the next step on.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` out of range (nothing is
/// changed); `POISONED`; `WORLD_LOCKED` from inside its own step.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_iterations(world: *mut SinewWorld, iterations: u32) -> SinewResult {
    ffi_boundary!("sinew_world_set_iterations", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_iterations(iterations)?))
    })
}

/// Sets when bodies fall asleep (the def's `sleep_speed`, m/s, and
/// `sleep_time`, s, both finite and >= 0) from the next step on.
/// `sleep_speed` 0 turns sleeping off and wakes every body; a body already
/// asleep otherwise stays asleep until touched or moved.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf or a negative
/// value (nothing is changed); `POISONED`; `WORLD_LOCKED` from inside its
/// own step. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_sleep(
    world: *mut SinewWorld,
    sleep_speed: f32,
    sleep_time: f32,
) -> SinewResult {
    ffi_boundary!("sinew_world_set_sleep", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_sleep(sleep_speed, sleep_time)?))
    })
}

/// Sets the kernels' instruction set (a `SINEW_SIMD_*` value, as the def's
/// `simd_level`) from the next step on; a level above the CPU's runs at the
/// CPU's (`sinew_world_get_simd_level` tells). Every level gives the same
/// bits.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a value above
/// `SINEW_SIMD_AVX512` (nothing is changed); `POISONED`; `WORLD_LOCKED` from
/// inside its own step. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_simd_level(world: *mut SinewWorld, level: u32) -> SinewResult {
    ffi_boundary!("sinew_world_set_simd_level", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world_ptr = unsafe { world_ref(world) }?;
        let simd = SimdLevel::from_u32(level)
            .ok_or_else(|| Failure::invalid(format!("level must be a SINEW_SIMD_* value (0..=4), got {level}")))?;
        world_ptr.write(|w| {
            let workers = w.execution().workers.clone();
            w.set_execution(Exec { simd, workers });
            world_ptr.execution.lock().simd_level = level;
            Ok(())
        })
    })
}

/// Sets how many threads may work on one step (1..=64, as the def's
/// `worker_count`) from the next step on. Without task callbacks the
/// world's own pool is replaced by one of `count - 1` threads (the old
/// threads end during this call); with them, the engine's tasks get worker
/// indices below `count` from the next step on. Any count gives the same
/// bits.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` out of range (nothing is
/// changed); `POISONED`; `WORLD_LOCKED` from inside its own step.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_set_worker_count(world: *mut SinewWorld, count: u32) -> SinewResult {
    ffi_boundary!("sinew_world_set_worker_count", {
        let raw = world as usize;
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        if !(1..=MAX_WORKERS).contains(&count) {
            return Err(Failure::invalid(format!("count must be in 1..={MAX_WORKERS}, got {count}")));
        }
        world.write(|w| {
            let mut e = world.execution.lock();
            if e.worker_count == count {
                return Ok(());
            }
            let workers: Arc<dyn Workers> = match (e.enqueue_task, e.finish_task) {
                (Some(enqueue), Some(finish)) => Arc::new(EngineTasks {
                    enqueue,
                    finish,
                    user: e.user_task_context,
                    count,
                    world: AtomicUsize::new(raw),
                }),
                _ => workers::built_in(count),
            };
            let simd = w.execution().simd;
            w.set_execution(Exec { simd, workers });
            e.worker_count = count;
            Ok(())
        })
    })
}

/// How many constraints the world holds, as the def's `max_constraints`
/// counts them: every body's sticks (user, cloth stretch and shear, a rigid
/// tetrahedron's 6), bends, tethers and collision sticks, a ragdoll's bone
/// clusters, joint limits and separations (the humanoid counts 236), a rigid
/// body's shape cluster, and the joints between bodies; not targets, frames,
/// skin distances or contacts. For a count per body see
/// `sinew_body_constraint_count`.
///
/// - `out_count`: receives the count, not NULL; written only on success.
///
/// Errors: `NULL_ARGUMENT` (world, out_count); `INVALID_ARGUMENT` for a
/// destroyed world (best effort); `LIMIT_EXCEEDED` beyond `UINT32_MAX`;
/// `POISONED`; `WORLD_LOCKED` from inside its own step. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_constraint_count(world: *const SinewWorld, out_count: *mut u32) -> SinewResult {
    ffi_boundary!("sinew_world_constraint_count", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        let n = world.read(|w| Ok(w.constraint_count()))?;
        *out = u32::try_from(n)
            .map_err(|_| Failure::new(SINEW_RESULT_LIMIT_EXCEEDED, format!("{n} constraints do not fit a uint32_t")))?;
        Ok(())
    })
}

/// The world's current settings, as a def (with the cookie, so it can create
/// a world alike).
///
/// Errors: `NULL_ARGUMENT`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_get_def(world: *const SinewWorld, out_def: *mut SinewWorldDef) -> SinewResult {
    ffi_boundary!("sinew_world_get_def", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_def` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_def, "out_def") }?;
        *out = world.read(|w| {
            let e = *world.execution.lock();
            Ok(SinewWorldDef {
                simd_level: e.simd_level,
                worker_count: e.worker_count,
                enqueue_task: e.enqueue_task,
                finish_task: e.finish_task,
                user_task_context: e.user_task_context,
                ..SinewWorldDef::from(*w.settings())
            })
        })?;
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_hash` is NULL or valid for writes (the `ffi` contract).
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_size` is NULL or valid for writes (the `ffi` contract).
        let out_size = unsafe { optional_out(out_size, "out_size") }?;
        let image = world.read(|w| Ok(w.snapshot()))?;
        let size = image.len();
        let store = || {
            if let Some(s) = out_size {
                *s = size;
            }
        };
        // SAFETY: `buffer` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `buffer` is NULL or valid for reads of `size` elements (the `ffi` contract).
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
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { optional_out(out_count, "out_count") }?;
        let n = world.write(|w| Ok(w.explode(center.into(), strength, radius)?))?;
        if let Some(out) = out {
            *out = n;
        }
        Ok(())
    })
}
