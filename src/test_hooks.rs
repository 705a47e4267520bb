//! Test-only hooks, compiled with the non-default `test-hooks` feature (the
//! tests enable it; library builds never carry it): a panic provoked inside
//! a step, to check that the C boundary catches it, reports
//! `SINEW_RESULT_PANIC`, poisons that world and only that world.

use std::cell::Cell;

thread_local! {
    static PANIC_IN_NEXT_STEP: Cell<bool> = const { Cell::new(false) };
}

/// Makes the next step run on this thread panic halfway (after its
/// preparation, before the islands are solved).
pub fn panic_in_next_step() {
    PANIC_IN_NEXT_STEP.with(|p| p.set(true));
}

/// Called by the step: panics once when armed.
pub(crate) fn step_checkpoint() {
    if PANIC_IN_NEXT_STEP.with(|p| p.replace(false)) {
        panic!("deliberate test panic inside a step");
    }
}
