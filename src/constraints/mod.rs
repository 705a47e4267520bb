//! Constraint kinds, one per file: SoA storage, build-time preparation and the
//! projection kernel.

pub mod distance;
pub mod joint;
pub mod target;
pub mod tether;
