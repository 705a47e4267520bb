//! The engine's job system (`enqueue_task`/`finish_task` in the world def)
//! through the C ABI, with ranges run on real threads: a well-behaved engine
//! gives the bits of one thread; one that hands a range out twice (and
//! leaves another out, so the item count still adds up) fails the step
//! with `PANIC` instead of racing; `sinew_world_destroy` from inside a task
//! or task callback is refused and the step goes on (issue 29).

use sinew::ffi::*;
use std::ffi::{c_char, c_void};
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

type TaskFn = unsafe extern "C" fn(u32, u32, u32, *mut c_void);

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Splits a part in three ranges, one per thread.
    Good,
    /// Runs the first range on two threads at once and leaves the second out.
    Duplicate,
    /// As `Good`, and tries to destroy the world from both callbacks (user
    /// code runs nowhere else during a step).
    Destroy,
}

struct Engine {
    mode: Mode,
    world: AtomicPtr<SinewWorld>,
    parts: AtomicU32,
    /// Destroys refused (the world was still valid afterwards).
    refused: AtomicU32,
}

/// A task context the engine's threads may share.
#[derive(Clone, Copy)]
struct Context(*mut c_void);
// SAFETY: sinew's task context is made for the engine's threads.
unsafe impl Send for Context {}
// SAFETY: as above.
unsafe impl Sync for Context {}

impl Context {
    /// The pointer (a method, so that a closure captures the whole `Context`).
    fn get(self) -> *mut c_void {
        self.0
    }
}

impl Engine {
    fn try_destroy(&self) {
        if self.mode == Mode::Destroy {
            let world = self.world.load(Ordering::Acquire);
            // SAFETY: the world is alive (it is stepping); sinew refuses it.
            unsafe { sinew_world_destroy(world) };
            // SAFETY: as above; still there if refused.
            let mut hash = 0;
            let code = unsafe { sinew_world_state_hash(world, &mut hash) };
            assert_eq!(code, SINEW_RESULT_WORLD_LOCKED, "the world answers as a stepping world");
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
    }
}

unsafe extern "C" fn enqueue(
    task: Option<TaskFn>,
    items: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    // SAFETY: `user_context` is the test's `Engine`, alive while the world is.
    let engine = unsafe { &*(user_context as *const Engine) };
    let task = task.expect("a task");
    let context = Context(task_context);
    engine.parts.fetch_add(1, Ordering::Relaxed);
    engine.try_destroy();
    let third = items.div_ceil(3).max(min_range);
    let mut ranges: Vec<(u32, u32, u32)> =
        (0..3).map(|k| ((k * third).min(items), ((k + 1) * third).min(items), k)).collect();
    if engine.mode == Mode::Duplicate && ranges[1].0 < ranges[1].1 && ranges[1].1 - ranges[1].0 == third {
        // The first range twice (on workers 0 and 1), the second never:
        // `third` items too many and `third` too few, so the count adds up.
        ranges[1] = (ranges[0].0, ranges[0].1, 1);
    }
    std::thread::scope(|s| {
        for &(start, end, worker) in &ranges {
            if start < end {
                s.spawn(move || {
                    // SAFETY: sinew's task and context, during its part.
                    unsafe { task(start, end, worker, context.get()) }
                });
            }
        }
    });
    // Every range has run: NULL, or a handle for `finish_task` to try again.
    if engine.mode == Mode::Destroy { user_context } else { ptr::null_mut() }
}

unsafe extern "C" fn finish(task: *mut c_void, user_context: *mut c_void) {
    assert_eq!(task, user_context);
    // SAFETY: as in `enqueue`.
    unsafe { &*(user_context as *const Engine) }.try_destroy();
}

fn last_error() -> String {
    let mut buf = [0u8; 512];
    // SAFETY: the buffer holds 512 bytes.
    let len = unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) };
    String::from_utf8_lossy(&buf[..len.min(511)]).into_owned()
}

/// A 32x32 cloth with three workers, scalar kernels (one stick per chunk:
/// every batch is large enough to split), stepped 10 times; the step
/// results, the state hash (None once the world is poisoned) and the first
/// failed step's message. `relive`: the worker count is set to 1 and back
/// to 3 on the live world before the cloth is made.
fn cloth(engine: Option<&Engine>, relive: bool) -> (Vec<SinewResult>, Option<u64>, String) {
    let mut def = sinew_default_world_def();
    def.simd_level = SINEW_SIMD_SCALAR;
    def.worker_count = 3;
    if let Some(e) = engine {
        def.enqueue_task = Some(enqueue);
        def.finish_task = Some(finish);
        def.user_task_context = e as *const Engine as *mut c_void;
    }
    let mut world = ptr::null_mut();
    // SAFETY: plain calls with live locals.
    unsafe {
        assert_eq!(sinew_world_create(&def, &mut world), SINEW_RESULT_OK);
        if let Some(e) = engine {
            e.world.store(world, Ordering::Release);
        }
        if relive {
            assert_eq!(sinew_world_set_worker_count(world, 1), SINEW_RESULT_OK);
            assert_eq!(sinew_world_set_worker_count(world, 3), SINEW_RESULT_OK);
            let mut def = sinew_default_world_def();
            assert_eq!(sinew_world_get_def(world, &mut def), SINEW_RESULT_OK);
            assert_eq!(def.worker_count, 3);
            assert_eq!(def.enqueue_task.is_some(), engine.is_some(), "the callbacks stay");
        }
        let mut grid = sinew_default_cloth_grid_def();
        grid.columns = 32;
        grid.rows = 32;
        let mut body = SinewBodyId::default();
        assert_eq!(sinew_cloth_create_grid(world, &grid, &mut body), SINEW_RESULT_OK);
        let mut first_error = String::new();
        let steps = (0..10)
            .map(|_| {
                let r = sinew_world_step(world, 1.0 / 60.0);
                if r != SINEW_RESULT_OK && first_error.is_empty() {
                    first_error = last_error();
                }
                r
            })
            .collect();
        let mut hash = 0;
        let hash = (sinew_world_state_hash(world, &mut hash) == SINEW_RESULT_OK).then_some(hash);
        sinew_world_destroy(world);
        (steps, hash, first_error)
    }
}

fn engine(mode: Mode) -> Engine {
    Engine { mode, world: AtomicPtr::new(ptr::null_mut()), parts: AtomicU32::new(0), refused: AtomicU32::new(0) }
}

#[test]
fn an_engine_on_three_threads_gives_the_bits_of_one() {
    let (steps, alone, _) = cloth(None, false);
    assert!(steps.iter().all(|&r| r == SINEW_RESULT_OK));
    let good = engine(Mode::Good);
    let (steps, hash, message) = cloth(Some(&good), false);
    assert!(steps.iter().all(|&r| r == SINEW_RESULT_OK), "{message}");
    assert!(good.parts.load(Ordering::Relaxed) > 0, "the engine got work");
    assert_eq!(hash, alone);
}

/// Issue 29: a range run twice ran before anything checked it, and a range
/// run twice plus one left out added up to the item count unnoticed.
#[test]
fn a_range_handed_out_twice_fails_the_step_before_it_runs() {
    let bad = engine(Mode::Duplicate);
    let (steps, hash, message) = cloth(Some(&bad), false);
    assert_eq!(steps[0], SINEW_RESULT_PANIC, "{message}");
    assert!(message.contains("twice") && message.contains("refused before it ran"), "{message}");
    assert!(steps[1..].iter().all(|&r| r == SINEW_RESULT_POISONED));
    assert_eq!(hash, None, "the world is poisoned");
}

/// Issue 29: destroying the world from inside its own step freed it under
/// the step (a use after free).
#[test]
fn destroying_the_world_from_inside_its_step_is_refused() {
    let (_, alone, _) = cloth(None, false);
    let destroyer = engine(Mode::Destroy);
    let (steps, hash, message) = cloth(Some(&destroyer), false);
    assert!(steps.iter().all(|&r| r == SINEW_RESULT_OK), "{message}");
    let parts = destroyer.parts.load(Ordering::Relaxed);
    assert!(parts > 0 && destroyer.refused.load(Ordering::Relaxed) == 2 * parts);
    assert_eq!(hash, alone, "the refused destroys changed nothing");
}

/// `sinew_world_set_worker_count` on a world with the engine's callbacks
/// keeps them: the engine still gets the parallel parts, with the bits of
/// one thread.
#[test]
fn an_engine_keeps_its_callbacks_when_the_worker_count_changes_live() {
    let (_, alone, _) = cloth(None, false);
    let good = engine(Mode::Good);
    let (steps, hash, message) = cloth(Some(&good), true);
    assert!(steps.iter().all(|&r| r == SINEW_RESULT_OK), "{message}");
    assert!(good.parts.load(Ordering::Relaxed) > 0, "the engine got work after the change");
    assert_eq!(hash, alone);
}
