//! Who runs the parallel parts of a step: the calling thread alone, a pool
//! of threads the world owns, or the engine's job system (task callbacks,
//! in `ffi`).
//!
//! A parallel part is a range of items (chunks of a batch of sticks); every
//! item is computed the same way whichever worker takes it, so the results
//! do not depend on the worker count.

use parking_lot::{Condvar, Mutex};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::thread::JoinHandle;

/// The body of a parallel part: a range of items and the worker index
/// (below [`Workers::count`]).
pub type Task<'a> = dyn Fn(Range<u32>, u32) + Sync + 'a;

/// Runs the items of a parallel part, on one or more threads, and returns
/// when all are done.
pub trait Workers: Send + Sync + std::fmt::Debug {
    /// How many workers may run items at once (at least 1).
    fn count(&self) -> u32;
    /// Runs `task` over `0..items`, in ranges of at least `min_range` items
    /// (except the last), and waits for it. A panic in `task` reaches the caller.
    fn run(&self, items: u32, min_range: u32, task: &Task);
}

/// The calling thread alone.
#[derive(Debug, Default)]
pub struct Serial;

impl Workers for Serial {
    fn count(&self) -> u32 {
        1
    }
    fn run(&self, items: u32, _min_range: u32, task: &Task) {
        if items > 0 {
            task(0..items, 0);
        }
    }
}

/// How many times an idle pool thread checks for work before it sleeps: a
/// step runs parallel parts back to back, and waking a sleeping thread costs
/// tens of microseconds. Short, so a busy machine gets its core back.
const SPIN: u32 = 2_000;

/// A pool of `count - 1` threads owned by a world; the calling thread is worker 0.
///
/// The caller never waits for a thread to wake up: it takes ranges itself
/// like the others and then waits only for ranges already taken. A thread
/// that wakes late finds nothing left and goes back to sleep, so on a machine
/// with fewer free cores than workers a part costs about what it costs serially.
#[derive(Debug)]
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

#[derive(Debug)]
struct Shared {
    /// The job's number (high 32 bits) and its next range start (low 32):
    /// a range is taken only from the job its taker read, so a thread that
    /// read an old job can never take a range of a new one.
    cursor: AtomicU64,
    /// Items of the current job whose range has finished.
    done: AtomicU32,
    job: Mutex<Option<Job>>,
    wake: Condvar,
    shutdown: AtomicBool,
    /// A task panicked on a pool thread during the current job.
    panicked: AtomicBool,
}

/// The current job; `task` is valid while any of its ranges is unfinished.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u32,
    task: *const Task<'static>,
    items: u32,
    range: u32,
}

// SAFETY: the task is Sync, and `Pool::run` does not return (so the task
// outlives every use) before every range taken from its job has finished.
unsafe impl Send for Job {}

impl Pool {
    /// A pool of `count` workers (the caller and `count - 1` threads).
    pub fn new(count: u32) -> Pool {
        let shared = Arc::new(Shared {
            cursor: AtomicU64::new(0),
            done: AtomicU32::new(0),
            job: Mutex::new(None),
            wake: Condvar::new(),
            shutdown: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
        });
        let threads = (1..count.max(1))
            .map(|worker| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("sinew-worker-{worker}"))
                    .spawn(move || shared.serve(worker))
                    .expect("spawn a sinew worker thread")
            })
            .collect();
        Pool { shared, threads }
    }
}

impl Shared {
    fn serve(&self, worker: u32) {
        let mut last = 0u32;
        loop {
            let mut spins = 0;
            let job = loop {
                if self.shutdown.load(Ordering::Acquire) {
                    return;
                }
                let number = (self.cursor.load(Ordering::Acquire) >> 32) as u32;
                if number != last {
                    let job = *self.job.lock();
                    match job {
                        Some(job) if job.number == number => break job,
                        _ => last = number, // already over
                    }
                    continue;
                }
                if spins < SPIN {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    let mut slot = self.job.lock();
                    let stale = slot.is_none_or(|j| j.number == last);
                    if !self.shutdown.load(Ordering::Acquire) && stale {
                        self.wake.wait(&mut slot);
                    }
                    spins = 0;
                }
            };
            last = job.number;
            // A panic is reported by the range it happened in (see
            // `take_ranges`); the thread lives on for the next job.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.take_ranges(job, worker)));
        }
    }

    /// Takes ranges of `job` until none is left; each taken range counts in
    /// `done` when it is over (also when its task panics).
    fn take_ranges(&self, job: Job, worker: u32) {
        /// A range's count; a range whose task panics raises `panicked`
        /// before it counts, so the caller, which reads the flag once every
        /// range has counted, cannot miss it (raised after the count, it
        /// was missed and blamed on the next job: a flaky test found it).
        struct Count<'a>(&'a Shared, u32);
        impl Drop for Count<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.panicked.store(true, Ordering::Release);
                }
                self.0.done.fetch_add(self.1, Ordering::AcqRel);
            }
        }
        loop {
            let mut cur = self.cursor.load(Ordering::Acquire);
            let start = loop {
                let (number, start) = ((cur >> 32) as u32, cur as u32);
                if number != job.number || start >= job.items {
                    return;
                }
                let next = (u64::from(number) << 32) | u64::from(start.saturating_add(job.range));
                match self.cursor.compare_exchange_weak(cur, next, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => break start,
                    Err(now) => cur = now,
                }
            };
            let end = start.saturating_add(job.range).min(job.items);
            let _count = Count(self, end - start);
            // SAFETY: see `Job`: this range is counted only once it is over.
            let task = unsafe { &*job.task };
            task(start..end, worker);
        }
    }
}

impl Workers for Pool {
    fn count(&self) -> u32 {
        self.threads.len() as u32 + 1
    }

    fn run(&self, items: u32, min_range: u32, task: &Task) {
        if items == 0 {
            return;
        }
        let helpers = self.threads.len() as u32;
        // About four ranges per worker, so a slow thread holds the others up
        // by at most a quarter of its share.
        let range = items.div_ceil((helpers + 1) * 4).max(min_range).max(1);
        if helpers == 0 || range >= items {
            task(0..items, 0);
            return;
        }
        // SAFETY: only the lifetime is erased; this function waits below
        // until no range of the job is running any more.
        let task_ptr: *const Task<'static> = unsafe { std::mem::transmute(task as *const Task) };
        let number = ((self.shared.cursor.load(Ordering::Acquire) >> 32) as u32).wrapping_add(1).max(1);
        let job = Job { number, task: task_ptr, items, range };
        self.shared.done.store(0, Ordering::Release);
        {
            let mut slot = self.shared.job.lock();
            *slot = Some(job);
            self.shared.cursor.store(u64::from(number) << 32, Ordering::Release);
            self.shared.wake.notify_all();
        }
        // A panic here must still wait for the ranges others took, then go on up.
        let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.shared.take_ranges(job, 0)));
        let mut spins = 0u32;
        while self.shared.done.load(Ordering::Acquire) < items {
            spins += 1;
            if spins < SPIN {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        *self.shared.job.lock() = None;
        let theirs = self.shared.panicked.swap(false, Ordering::AcqRel);
        if let Err(p) = mine {
            std::panic::resume_unwind(p);
        }
        if theirs {
            panic!("a task panicked on a sinew worker thread");
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        {
            let _slot = self.shared.job.lock();
            self.shared.shutdown.store(true, Ordering::Release);
            self.shared.wake.notify_all();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The workers a world starts with: serial, or a pool for `count > 1`.
pub fn built_in(count: u32) -> Arc<dyn Workers> {
    if count > 1 { Arc::new(Pool::new(count)) } else { Arc::new(Serial) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_runs_once_on_any_worker_count() {
        for count in [1, 2, 3, 8] {
            let pool = built_in(count);
            for items in [0u32, 1, 7, 1000] {
                let hits: Vec<AtomicU32> = (0..items).map(|_| AtomicU32::new(0)).collect();
                let max_worker = AtomicU32::new(0);
                pool.run(items, 3, &|r: Range<u32>, w: u32| {
                    max_worker.fetch_max(w, Ordering::Relaxed);
                    for i in r {
                        hits[i as usize].fetch_add(1, Ordering::Relaxed);
                    }
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "count {count}, items {items}");
                assert!(max_worker.load(Ordering::Relaxed) < count);
            }
        }
    }

    #[test]
    fn many_jobs_back_to_back() {
        let pool = Pool::new(2);
        let sum = AtomicU64::new(0);
        for _ in 0..2000 {
            pool.run(64, 1, &|r: Range<u32>, _| {
                sum.fetch_add(r.map(u64::from).sum::<u64>(), Ordering::Relaxed);
            });
        }
        assert_eq!(sum.load(Ordering::Relaxed), 2000 * (63 * 64 / 2));
    }

    #[test]
    fn a_panic_in_a_task_reaches_the_caller_and_the_pool_goes_on() {
        let pool = Pool::new(2);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.run(100, 1, &|r: Range<u32>, _| assert!(!r.contains(&0) && !r.contains(&99), "boom"));
        }));
        assert!(r.is_err());
        let n = AtomicU32::new(0);
        pool.run(10, 1, &|r: Range<u32>, _| {
            n.fetch_add(r.len() as u32, Ordering::Relaxed);
        });
        assert_eq!(n.load(Ordering::Relaxed), 10);
    }
}
