//! The panic boundary, the thread-local error message, the world handle and
//! the pointer checks every exported function shares.

use super::types::*;
use crate::{Error, World};
use parking_lot::{Mutex, RwLock};
use std::any::Any;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// The world this thread is stepping, or running a step's task for.
    static BUSY_WITH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Marks this thread as inside a step of `world` until dropped: calls on
/// that world from here (an engine callback, a task) get `WORLD_LOCKED`
/// instead of waiting for a lock this very step holds.
pub(crate) struct Busy(usize);

impl Busy {
    pub(crate) fn enter(world: *const SinewWorld) -> Busy {
        Busy(BUSY_WITH.with(|b| b.replace(world as usize)))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY_WITH.with(|b| b.set(self.0));
    }
}

/// The message of the last failed call on this thread.
pub(crate) fn last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().clone())
}

fn set_last_error(function: &str, message: &str) {
    LAST_ERROR.with(|e| {
        let mut e = e.borrow_mut();
        e.clear();
        e.push_str(function);
        e.push_str(": ");
        e.push_str(message);
    });
}

/// A refused call: the code to return and the message to record.
#[derive(Debug)]
pub struct Failure {
    pub(crate) code: SinewResult,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: SinewResult, message: impl Into<String>) -> Self {
        Failure { code, message: message.into() }
    }
    pub(crate) fn null(what: &str) -> Self {
        Self::new(SINEW_RESULT_NULL_ARGUMENT, format!("{what} is NULL"))
    }
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new(SINEW_RESULT_INVALID_ARGUMENT, message)
    }
    fn panic(payload: Box<dyn Any + Send>) -> Self {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic payload".into());
        Self::new(SINEW_RESULT_PANIC, format!("internal panic (a bug in sinew, please report it): {text}"))
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::new(result_of(e.kind), e.message)
    }
}

/// Runs the body of an exported function: a panic becomes
/// `SINEW_RESULT_PANIC`, a failure records its message; both return the code.
pub(crate) fn run(function: &str, body: impl FnOnce() -> Result<(), Failure>) -> SinewResult {
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|p| Err(Failure::panic(p)));
    match outcome {
        Ok(()) => SINEW_RESULT_OK,
        Err(f) => {
            set_last_error(function, &f.message);
            f.code
        }
    }
}

/// The one panic boundary of the C ABI: `ffi_boundary!("name", { body })`,
/// where the body evaluates to `Result<(), Failure>`.
macro_rules! ffi_boundary {
    ($name:literal, $body:block) => {
        $crate::ffi::boundary::run($name, || $body)
    };
}

const WORLD_MAGIC: u64 = 0x5349_4E45_5757_4F52; // "SINEWWOR"

/// An opaque world: the core world behind a reader-writer lock.
///
/// Calls that change the world take the write lock and wait for every other
/// call on the world to finish; calls that only read take the read lock and run
/// in parallel with each other. Different worlds never wait for each other.
pub struct SinewWorld {
    magic: u64,
    world: RwLock<World>,
    poisoned: AtomicBool,
    /// The def's execution fields, as given or last set (for
    /// `sinew_world_get_def`); changed only under the world's write lock.
    pub(crate) execution: Mutex<super::world::ExecutionDef>,
}

impl SinewWorld {
    pub(crate) fn new(world: World, execution: super::world::ExecutionDef) -> Self {
        SinewWorld {
            magic: WORLD_MAGIC,
            world: RwLock::new(world),
            poisoned: AtomicBool::new(false),
            execution: Mutex::new(execution),
        }
    }

    pub(crate) fn forget_magic(&mut self) {
        self.magic = 0;
    }

    /// `WORLD_LOCKED` when this thread is inside a step of this world (a
    /// task or task callback): the step holds the world's lock.
    pub(crate) fn refuse_inside_step(&self) -> Result<(), Failure> {
        if BUSY_WITH.with(|b| b.get()) == self as *const SinewWorld as usize {
            return Err(Failure::new(
                SINEW_RESULT_WORLD_LOCKED,
                "called from inside a step of this world (a task or task callback); call it after the step returns",
            ));
        }
        Ok(())
    }

    fn check_poison(&self) -> Result<(), Failure> {
        self.refuse_inside_step()?;
        if self.poisoned.load(Ordering::Acquire) {
            return Err(Failure::new(SINEW_RESULT_POISONED, "an earlier panic left this world unusable; destroy it"));
        }
        Ok(())
    }

    /// Runs `f` with the write lock. A panic inside poisons the world: its
    /// state may be half-changed.
    pub(crate) fn write<R>(&self, f: impl FnOnce(&mut World) -> Result<R, Failure>) -> Result<R, Failure> {
        self.check_poison()?;
        let mut guard = self.world.write();
        match catch_unwind(AssertUnwindSafe(|| f(&mut guard))) {
            Ok(r) => r,
            Err(payload) => {
                self.poisoned.store(true, Ordering::Release);
                Err(Failure::panic(payload))
            }
        }
    }

    /// Runs `f` with the read lock.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&World) -> Result<R, Failure>) -> Result<R, Failure> {
        self.check_poison()?;
        let guard = self.world.read();
        f(&guard)
    }
}

/// A world pointer from C: NULL, misaligned or already destroyed worlds are
/// refused (the last only while its memory has not been reused: a best-effort
/// check; using a destroyed world is undefined behaviour).
///
/// # Safety
/// `world` is NULL or points to memory readable as a `SinewWorld`.
pub(crate) unsafe fn world_ref<'a>(world: *const SinewWorld) -> Result<&'a SinewWorld, Failure> {
    // SAFETY: `world` is NULL or valid for reads (the `ffi` contract).
    let w = unsafe { checked_ref(world, "world") }?;
    if w.magic != WORLD_MAGIC {
        return Err(Failure::invalid("world is not a live SinewWorld (destroyed, or not a world)"));
    }
    Ok(w)
}

/// A required input pointer.
///
/// # Safety
/// `p` is NULL or valid for reads of a `T`.
pub(crate) unsafe fn checked_ref<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    if !p.is_aligned() {
        return Err(Failure::invalid(format!("{what} is not aligned for its type")));
    }
    // SAFETY: non-NULL and aligned (checked), valid for reads (the caller's).
    Ok(unsafe { &*p })
}

/// A required output pointer, written by the caller only on success.
///
/// # Safety
/// `p` is NULL or valid for writes of a `T`.
pub(crate) unsafe fn checked_out<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    if !p.is_aligned() {
        return Err(Failure::invalid(format!("{what} is not aligned for its type")));
    }
    // SAFETY: non-NULL and aligned (checked), valid for writes (the caller's);
    // the caller's buffers do not overlap (the `ffi` contract).
    Ok(unsafe { &mut *p })
}

/// An input array: `NULL` with `count == 0` is empty, otherwise `NULL` is an error.
///
/// # Safety
/// `p` is NULL or valid for reads of `count` `T`s.
pub(crate) unsafe fn checked_slice<'a, T>(p: *const T, count: usize, what: &str) -> Result<&'a [T], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::null(what));
    }
    if !p.is_aligned() {
        return Err(Failure::invalid(format!("{what} is not aligned for its type")));
    }
    if count.checked_mul(size_of::<T>()).is_none_or(|b| b > isize::MAX as usize) {
        return Err(Failure::invalid(format!("{what}: count {count} is too large")));
    }
    // SAFETY: non-NULL, aligned and at most `isize::MAX` bytes (checked),
    // valid for reads of `count` elements (the caller's).
    Ok(unsafe { std::slice::from_raw_parts(p, count) })
}

/// The readback protocol (the README's API conventions): `out == NULL && capacity == 0` asks
/// for the count; a too small buffer gets nothing and `BUFFER_TOO_SMALL`; the
/// count is stored through `store_count` in all three cases and on success.
///
/// Returns `None` for a count query, or the first `needed` elements of `out`.
///
/// # Safety
/// `out` is NULL or valid for writes of `capacity` `T`s.
pub(crate) unsafe fn readback<'a, T>(
    out: *mut T,
    capacity: usize,
    needed: usize,
    store_count: impl FnOnce(),
) -> Result<Option<&'a mut [T]>, Failure> {
    if out.is_null() {
        if capacity != 0 {
            return Err(Failure::null("out (with a non-zero capacity)"));
        }
        store_count();
        return Ok(None);
    }
    if !out.is_aligned() {
        return Err(Failure::invalid("out is not aligned for its type"));
    }
    if capacity < needed {
        store_count();
        return Err(Failure::new(
            SINEW_RESULT_BUFFER_TOO_SMALL,
            format!("the buffer holds {capacity}, {needed} are needed"),
        ));
    }
    store_count();
    // SAFETY: non-NULL and aligned (checked), valid for writes of
    // `capacity >= needed` elements (the caller's), overlapping no other
    // buffer of the call (the `ffi` contract).
    Ok(Some(unsafe { std::slice::from_raw_parts_mut(out, needed) }))
}

/// The readback protocol over a sequence of values: the count goes to
/// `out_count` (when given) in every case [`readback`] stores it, the values
/// into `out` when it holds them all.
///
/// # Safety
/// `out` is NULL or valid for writes of `capacity` `T`s.
pub(crate) unsafe fn read_into<T>(
    out: *mut T,
    capacity: u32,
    out_count: Option<&mut u32>,
    values: impl ExactSizeIterator<Item = T>,
) -> Result<(), Failure> {
    let n = values.len();
    // SAFETY: the caller's.
    unsafe {
        read_with(out, capacity, out_count, n, |out| {
            for (o, v) in out.iter_mut().zip(values) {
                *o = v;
            }
        })
    }
}

/// The readback protocol of [`read_into`] for a writer of `n` values that
/// fills the caller's buffer in bulk (given exactly `n` elements).
///
/// # Safety
/// `out` is NULL or valid for writes of `capacity` `T`s.
pub(crate) unsafe fn read_with<T>(
    out: *mut T,
    capacity: u32,
    out_count: Option<&mut u32>,
    n: usize,
    fill: impl FnOnce(&mut [T]),
) -> Result<(), Failure> {
    let store = || {
        if let Some(c) = out_count {
            *c = n as u32;
        }
    };
    // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
    if let Some(out) = unsafe { readback(out, capacity as usize, n, store) }? {
        fill(out);
    }
    Ok(())
}

/// Vectors as the core's `[x, y, z]` triples, in place.
pub(crate) fn vec3s_as_arrays(v: &mut [SinewVec3]) -> &mut [[f32; 3]] {
    const _: () = assert!(size_of::<SinewVec3>() == size_of::<[f32; 3]>());
    const _: () = assert!(align_of::<SinewVec3>() == align_of::<[f32; 3]>());
    // SAFETY: `SinewVec3` is `repr(C)` of three `f32`s, so it has the size,
    // alignment and field offsets of `[f32; 3]` (asserted above); the
    // borrow is handed over whole.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<[f32; 3]>(), v.len()) }
}

/// An optional output pointer: NULL means "not wanted".
///
/// # Safety
/// `p` is NULL or valid for writes of a `T`.
pub(crate) unsafe fn optional_out<'a, T>(p: *mut T, what: &str) -> Result<Option<&'a mut T>, Failure> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: `p` is NULL or valid for writes (the `ffi` contract).
    unsafe { checked_out(p, what) }.map(Some)
}
