//! The execution layer, the lowest in the crate: how kernels run, never
//! what they compute.
//!
//! - [`simd`]: lane widths, target features and run-time dispatch; the only
//!   module that knows an instruction set.
//! - [`batches`]: graph colouring of sticks and bends into particle-disjoint
//!   batches, built once, so a batch runs in lanes or across threads.
//! - [`workers`]: who runs the parallel parts (one thread, a pool, or the
//!   engine's job system), under a contract checked at run time.
//! - [`Exec`]: a world's choice of both, which never changes a bit.
//!
//! It imports nothing else from the crate; every layer above may use it.

pub mod batches;
pub mod simd;
pub mod workers;

use simd::SimdLevel;
use std::sync::Arc;
use workers::{Serial, Workers};

/// How a world's steps run: the SIMD level and the workers. Never part of
/// the state (snapshots leave it alone); every choice gives the same bits.
#[derive(Clone, Debug)]
pub struct Exec {
    /// The kernels' instruction-set level (capped by the machine's).
    pub simd: SimdLevel,
    /// Who runs the parallel parts.
    pub workers: Arc<dyn Workers>,
}

impl Exec {
    /// One thread at `simd`.
    pub fn serial(simd: SimdLevel) -> Exec {
        Exec { simd: simd.available(), workers: Arc::new(Serial) }
    }
}

impl Default for Exec {
    /// The machine's best SIMD level, one thread.
    fn default() -> Self {
        Exec::serial(simd::best())
    }
}
