//! Who runs the parallel parts of a step: the calling thread alone, a pool
//! of threads the world owns, or the engine's job system (task callbacks,
//! in `ffi`).
//!
//! A parallel part is a range of items (chunks of a batch of sticks); every
//! item is computed the same way whichever worker takes it, so the results
//! do not depend on the worker count.
//!
//! The step's parts write particles through raw pointers and make a `&mut`
//! body per island, so they are sound only if no item runs twice at once.
//! That is the [`Workers`] contract (an `unsafe trait`), and the step does
//! not take it on trust either: it runs its parts through
//! [`run_claimed`](trait.Workers.html#method.run_claimed), where every range
//! claims its items before it runs, so a range handed out twice is refused
//! instead of racing, and a part with items left over fails the step.

use parking_lot::{Condvar, Mutex};
use std::cell::Cell;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::thread::JoinHandle;

/// The body of a parallel part: a range of items and the worker index
/// (below [`Workers::count`]).
pub type Task<'a> = dyn Fn(Range<u32>, u32) + Sync + 'a;

/// Runs the items of a parallel part, on one or more threads, and returns
/// when all are done.
///
/// # Safety
///
/// Code that calls [`Workers::run`] may rely on this, for every call
/// `run(items, min_range, task)`:
///
/// - `count()` is at least 1 and never changes.
/// - `task` is called with ranges inside `0..items` that together hold every
///   item exactly once (so no item runs twice, at once or one after the
///   other), and ranges running at the same time have distinct worker
///   indices below `count()`.
/// - Every call of `task` has returned before `run` returns, and `task` is
///   not called after that. A panic in `task` reaches the caller of `run`
///   once the other ranges are over.
///
/// sinew's own step checks the second at run time as well (see
/// [`run_claimed`](trait.Workers.html#method.run_claimed)); the third it
/// cannot (the task may be gone by then).
pub unsafe trait Workers: Send + Sync + std::fmt::Debug {
    /// How many workers may run items at once (at least 1).
    fn count(&self) -> u32;
    /// Runs `task` over `0..items`, in ranges of at least `min_range` items
    /// (except the last), and waits for it. A panic in `task` reaches the caller.
    fn run(&self, items: u32, min_range: u32, task: &Task);
}

thread_local! {
    /// The claim bits of the part this thread runs through `run_claimed`,
    /// kept between parts so that a warm step allocates nothing.
    static CLAIMS: Cell<Vec<AtomicU64>> = const { Cell::new(Vec::new()) };
}

/// Sets the claim bits of `range` in `bits`: true when every one of them was
/// clear, i.e. no other range holds any of its items.
fn claim(bits: &[AtomicU64], range: Range<u32>) -> bool {
    let mut free = true;
    let (first, last) = (range.start / 64, (range.end - 1) / 64);
    for word in first..=last {
        let lo = if word == first { range.start % 64 } else { 0 };
        let hi = if word == last { (range.end - 1) % 64 } else { 63 };
        let mask = (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
        // Relaxed: the claim orders nothing; a range's writes are published
        // by the workers' own completion (the contract's "returned before").
        free &= bits[word as usize].fetch_or(mask, Ordering::Relaxed) & mask == 0;
    }
    free
}

impl dyn Workers + '_ {
    /// [`Workers::run`] with the contract checked: each range claims its
    /// items (atomically, before it runs) and runs only if none was claimed
    /// before, on a worker index below `count()`; afterwards every item must
    /// have run. A range handed out twice, out of bounds or on a bad worker
    /// index does not run, and `run_claimed` then panics (a step fails with
    /// it, and an FFI world is poisoned) instead of letting two ranges race.
    pub fn run_claimed(&self, items: u32, min_range: u32, task: &Task) {
        if items == 0 {
            return;
        }
        let words = items.div_ceil(64) as usize;
        let mut bits = CLAIMS.with(Cell::take); // empty in a nested part: it gets its own
        if bits.len() < words {
            bits.resize_with(words, || AtomicU64::new(0));
        }
        let bits_now = &bits[..words];
        bits_now.iter().for_each(|b| b.store(0, Ordering::Relaxed));
        let count = self.count();
        let ran = AtomicU64::new(0);
        let refused = AtomicBool::new(false);
        self.run(items, min_range, &|range: Range<u32>, worker: u32| {
            if range.start > range.end || range.end > items || worker >= count {
                refused.store(true, Ordering::Relaxed);
            } else if !range.is_empty() {
                if claim(bits_now, range.clone()) {
                    let n = range.len() as u64;
                    task(range, worker);
                    ran.fetch_add(n, Ordering::Relaxed);
                } else {
                    refused.store(true, Ordering::Relaxed);
                }
            }
        });
        CLAIMS.with(|c| c.set(bits));
        let ran = ran.into_inner();
        if refused.into_inner() {
            panic!(
                "the workers handed out a range twice, out of bounds or on a worker index past {count} \
                 (refused before it ran); {ran} of {items} items ran"
            );
        }
        if ran != u64::from(items) {
            panic!("the workers ran {ran} of {items} items: a range was left out");
        }
    }
}

/// The calling thread alone.
#[derive(Debug, Default)]
pub struct Serial;

// SAFETY: one call of the task over the whole range, on worker 0, before returning.
unsafe impl Workers for Serial {
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
///
/// One part at a time: a pool shared by several worlds (clones share their
/// pool) or a part started from inside a task runs on the calling thread
/// alone while another part holds the pool, so callers never wait for each
/// other and a nested part cannot deadlock.
#[derive(Debug)]
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// Held by the caller whose part the threads serve.
    running: Mutex<()>,
}

#[derive(Debug)]
struct Shared {
    /// The number of the last job published (0: none yet). Only a hint
    /// that tells idle threads to look at `job`; never wraps.
    epoch: AtomicU64,
    /// The next range start of the current job.
    next: AtomicU64,
    /// Items of the current job whose range has finished.
    done: AtomicU32,
    /// Pool threads holding a copy of the current job: they attach under
    /// the `job` lock while it is published, and `next` and `done` are reset
    /// for a new job only once all have let go, so a thread never takes a
    /// range of a job other than the one whose task it holds.
    attached: AtomicU32,
    job: Mutex<Option<Job>>,
    wake: Condvar,
    shutdown: AtomicBool,
    /// A task panicked on a pool thread during the current job.
    panicked: AtomicBool,
}

/// The current job; `task` is valid while any of its ranges is unfinished.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u64,
    task: *const Task<'static>,
    items: u32,
    range: u32,
}

// SAFETY: the task is Sync, and it outlives every use: `Pool::run` does not
// return before every range taken from its job has finished, and only a
// thread attached to the job can take one (see `Shared::attached`).
unsafe impl Send for Job {}

impl Pool {
    /// A pool of `count` workers (the caller and `count - 1` threads).
    pub fn new(count: u32) -> Pool {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            next: AtomicU64::new(0),
            done: AtomicU32::new(0),
            attached: AtomicU32::new(0),
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
        Pool { shared, threads, running: Mutex::new(()) }
    }
}

/// Spins, then yields, until `ready`.
fn wait_until(ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        spins += 1;
        if spins < SPIN {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

impl Shared {
    fn serve(&self, worker: u32) {
        let mut last = 0u64;
        loop {
            let mut spins = 0;
            let job = loop {
                if self.shutdown.load(Ordering::Acquire) {
                    return;
                }
                if self.epoch.load(Ordering::Acquire) != last {
                    let slot = self.job.lock();
                    match *slot {
                        Some(job) if job.number != last => {
                            // Under the lock: see `attached`.
                            self.attached.fetch_add(1, Ordering::Relaxed);
                            break job;
                        }
                        Some(job) => last = job.number,
                        None => last = self.epoch.load(Ordering::Acquire), // already over
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
            self.attached.fetch_sub(1, Ordering::Release);
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
            // Never wraps: it passes `items` at most once per taker.
            let start = self.next.fetch_add(u64::from(job.range), Ordering::Relaxed);
            if start >= u64::from(job.items) {
                return;
            }
            let start = start as u32;
            let end = start.saturating_add(job.range).min(job.items);
            let _count = Count(self, end - start);
            // SAFETY: see `Job`: this range is counted only once it is over,
            // and `next` belongs to `job` while this thread is attached to it.
            let task = unsafe { &*job.task };
            task(start..end, worker);
        }
    }
}

// SAFETY: ranges are taken from one counter (`next`, reset per job only
// once no thread holds the previous job), so each item runs once; pool
// thread `k` is worker `k`, the caller worker 0; `run` waits until every
// taken range has counted in `done` (even one that panicked) and re-raises
// a panic; a part that cannot have the pool runs on the caller alone.
unsafe impl Workers for Pool {
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
        // The pool serves one part at a time: another world's part (clones
        // share a pool) or one started from a task runs here alone.
        let running = self.running.try_lock();
        if helpers == 0 || range >= items || running.is_none() {
            task(0..items, 0);
            return;
        }
        let shared = &*self.shared;
        // SAFETY: only the lifetime is erased; this function waits below
        // until no range of the job is running any more.
        let task_ptr: *const Task<'static> = unsafe { std::mem::transmute(task as *const Task) };
        let number = shared.epoch.load(Ordering::Relaxed) + 1; // only the holder of `running` publishes
        let job = Job { number, task: task_ptr, items, range };
        // Threads still holding the last job found it empty; they let go
        // before its counters start over.
        wait_until(|| shared.attached.load(Ordering::Acquire) == 0);
        shared.next.store(0, Ordering::Relaxed);
        shared.done.store(0, Ordering::Relaxed);
        {
            let mut slot = shared.job.lock();
            *slot = Some(job);
            shared.epoch.store(number, Ordering::Release);
            shared.wake.notify_all();
        }
        // A panic here must still wait for the ranges others took, then go on up.
        let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| shared.take_ranges(job, 0)));
        wait_until(|| shared.done.load(Ordering::Acquire) >= items);
        *shared.job.lock() = None;
        let theirs = shared.panicked.swap(false, Ordering::AcqRel);
        drop(running);
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

    /// Issue 29: two callers sharing a pool overlapped, and the second's job
    /// replaced the first's while a thread still ran it (a use after free).
    #[test]
    fn overlapping_callers_each_run_every_item_once() {
        let pool = Pool::new(3);
        std::thread::scope(|s| {
            for caller in 0..3u64 {
                let pool = &pool;
                s.spawn(move || {
                    for round in 0..300u64 {
                        let items = 50 + (round % 7) as u32;
                        let hits: Vec<AtomicU32> = (0..items).map(|_| AtomicU32::new(0)).collect();
                        let sum = AtomicU64::new(0);
                        let dyn_pool: &dyn Workers = pool;
                        dyn_pool.run_claimed(items, 1, &|r: Range<u32>, _| {
                            for i in r {
                                hits[i as usize].fetch_add(1, Ordering::Relaxed);
                                sum.fetch_add(caller * 1000 + u64::from(i), Ordering::Relaxed);
                            }
                        });
                        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
                        let expected = u64::from(items) * caller * 1000 + u64::from(items) * u64::from(items - 1) / 2;
                        assert_eq!(sum.load(Ordering::Relaxed), expected);
                    }
                });
            }
        });
    }

    /// A part started from inside a task (on the caller or on a pool
    /// thread) runs on that thread alone: no deadlock, every item once.
    #[test]
    fn a_nested_run_runs_inline() {
        let pool = Pool::new(3);
        let outer: &dyn Workers = &pool;
        let hits: Vec<AtomicU32> = (0..40 * 30).map(|_| AtomicU32::new(0)).collect();
        outer.run_claimed(40, 1, &|r: Range<u32>, _| {
            for i in r {
                outer.run_claimed(30, 1, &|inner: Range<u32>, w: u32| {
                    assert_eq!(w, 0, "a nested part runs on its caller alone");
                    for j in inner {
                        hits[(i * 30 + j) as usize].fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
    }

    /// Hands out one range twice (on two threads at once) and leaves
    /// another out, as a broken job system might.
    #[derive(Debug)]
    struct Hostile;

    // SAFETY: not at all, on purpose: `run_claimed` must catch it.
    unsafe impl Workers for Hostile {
        fn count(&self) -> u32 {
            2
        }
        fn run(&self, items: u32, _min_range: u32, task: &Task) {
            let half = items / 2;
            std::thread::scope(|s| {
                s.spawn(|| task(0..half, 1));
                task(0..half, 0);
            });
        }
    }

    #[test]
    fn a_range_handed_out_twice_is_refused_before_it_runs() {
        let hostile: &dyn Workers = &Hostile;
        let hits: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            hostile.run_claimed(64, 1, &|r: Range<u32>, _| {
                for i in r {
                    hits[i as usize].fetch_add(1, Ordering::Relaxed);
                }
            });
        }));
        let message = *r.expect_err("caught").downcast::<String>().unwrap();
        assert!(message.contains("twice"), "{message}");
        // The duplicate never ran: no item ran twice.
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) <= 1));
        assert_eq!(hits.iter().map(|h| h.load(Ordering::Relaxed)).sum::<u32>(), 32);
    }

    /// Leaves items out, or runs past the end, or on a worker index past the count.
    #[derive(Debug)]
    struct Sloppy(u32);

    // SAFETY: not at all, on purpose: `run_claimed` must catch it.
    unsafe impl Workers for Sloppy {
        fn count(&self) -> u32 {
            2
        }
        fn run(&self, items: u32, _min_range: u32, task: &Task) {
            match self.0 {
                0 => task(0..items - 1, 0),
                1 => task(0..items + 1, 0),
                _ => task(0..items, 2),
            }
        }
    }

    #[test]
    fn missing_out_of_bounds_and_bad_worker_ranges_fail_the_part() {
        for (kind, expected) in [(0, "left out"), (1, "out of bounds"), (2, "worker index")] {
            let sloppy: &dyn Workers = &Sloppy(kind);
            let ran = AtomicU32::new(0);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sloppy.run_claimed(10, 1, &|r: Range<u32>, _| {
                    ran.fetch_add(r.len() as u32, Ordering::Relaxed);
                });
            }));
            let message = *r.expect_err("caught").downcast::<String>().unwrap();
            assert!(message.contains(expected), "{message}");
            assert_eq!(ran.load(Ordering::Relaxed), if kind == 0 { 9 } else { 0 });
        }
    }

    #[test]
    fn claims_cover_word_edges() {
        let bits: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
        assert!(claim(&bits, 0..1));
        assert!(claim(&bits, 63..65));
        assert!(claim(&bits, 65..192));
        assert!(claim(&bits, 1..63));
        assert!(!claim(&bits, 64..65));
        assert!(bits.iter().all(|b| b.load(Ordering::Relaxed) == u64::MAX));
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
