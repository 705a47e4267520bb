//! Constraint kinds, one per file: SoA storage, build-time preparation and the
//! projection kernel.

pub mod bend;
pub mod distance;
pub mod frame;
pub mod joint;
pub mod skin;
pub mod target;
pub mod tether;
