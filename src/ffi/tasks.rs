//! The engine's job system as sinew's workers: the task callbacks of
//! `SinewWorldDef` (the shape of Box2D v3's `enqueueTask`/`finishTask`).

use super::boundary::{Busy, SinewWorld};
use crate::exec::workers::{Task, Workers};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A range of a parallel part, as sinew hands it to the engine: run items
/// `start .. end` on worker `worker_index` (below the def's `worker_count`)
/// with `task_context`.
pub(crate) type SinewTaskFn =
    Option<unsafe extern "C" fn(start: u32, end: u32, worker_index: u32, task_context: *mut c_void)>;

/// The engine's enqueue callback (see `SinewWorldDef::enqueue_task`).
pub(crate) type SinewEnqueueTaskFn = unsafe extern "C" fn(
    task: SinewTaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void;

/// The engine's finish callback (see `SinewWorldDef::finish_task`).
pub(crate) type SinewFinishTaskFn = unsafe extern "C" fn(user_task: *mut c_void, user_context: *mut c_void);

/// The engine's callbacks, for one world.
#[derive(Debug)]
pub(crate) struct EngineTasks {
    pub(crate) enqueue: SinewEnqueueTaskFn,
    pub(crate) finish: SinewFinishTaskFn,
    pub(crate) user: *mut c_void,
    pub(crate) count: u32,
    /// The world, to mark task threads busy with it.
    pub(crate) world: std::sync::atomic::AtomicUsize,
}

// SAFETY: the engine promises (sinew.h, `SinewWorldDef`) that its callbacks
// and context may be used from whichever thread steps the world.
unsafe impl Send for EngineTasks {}
// SAFETY: as above; sinew calls them from one stepping thread at a time
// (the world's write lock).
unsafe impl Sync for EngineTasks {}

/// What a task range needs: the part's body and the checks of the engine's work.
struct Context<'a> {
    task: &'a Task<'a>,
    items: u32,
    workers: u32,
    world: usize,
    done: AtomicU64,
    failed: AtomicBool,
}

/// The function the engine calls for each range.
///
/// # Safety
/// `task_context` is the one `EngineTasks::run` passed with this function,
/// and its finish callback has not returned yet.
unsafe extern "C" fn run_range(start: u32, end: u32, worker_index: u32, task_context: *mut c_void) {
    // SAFETY: `task_context` is the `Context` that `EngineTasks::run` passed
    // with this function, alive until its finish callback returned.
    let ctx = unsafe { &*(task_context as *const Context) };
    if start > end || end > ctx.items || worker_index >= ctx.workers {
        ctx.failed.store(true, Ordering::Release);
        return;
    }
    let _busy = Busy::enter(ctx.world as *const SinewWorld);
    // No panic may cross the engine's frames: it is caught here and raised
    // again on the stepping thread.
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (ctx.task)(start..end, worker_index)));
    if ran.is_err() {
        ctx.failed.store(true, Ordering::Release);
    }
    ctx.done.fetch_add(u64::from(end - start), Ordering::AcqRel);
}

// SAFETY: the engine promises the contract (`SinewWorldDef::enqueue_task`)
// and is not trusted with it where it can be checked: `run_range` refuses a
// range out of bounds or on a worker index past the count before it touches
// the task, the step runs its parts through `run_claimed`, which refuses a
// range handed out twice before it runs and fails a part with items left
// out, and `run` returns only after `finish_task` (which must wait for every
// range; a task called after that breaks the C contract and cannot be caught).
unsafe impl Workers for EngineTasks {
    fn count(&self) -> u32 {
        self.count
    }

    fn run(&self, items: u32, min_range: u32, task: &Task) {
        if items == 0 {
            return;
        }
        let ctx = Context {
            task,
            items,
            workers: self.count,
            world: self.world.load(Ordering::Acquire),
            done: AtomicU64::new(0),
            failed: AtomicBool::new(false),
        };
        let ctx_ptr = &ctx as *const Context as *mut c_void;
        // SAFETY: the engine's callbacks, per the def's contract; `ctx`
        // outlives them (finish waits for every range).
        unsafe {
            let handle = (self.enqueue)(Some(run_range), items, min_range.max(1), ctx_ptr, self.user);
            if !handle.is_null() {
                (self.finish)(handle, self.user);
            }
        }
        let done = ctx.done.load(Ordering::Acquire);
        if ctx.failed.load(Ordering::Acquire) || done != u64::from(items) {
            // The step cannot go on with a part half done: the world is
            // poisoned (PANIC, then POISONED), as after any internal failure.
            // (A range handed out twice with another left out adds up to
            // `items`: `run_claimed` catches that one.)
            panic!(
                "the engine's task system handed out {done} of {items} items, a range out of bounds or a task that \
                 panicked"
            );
        }
    }
}
