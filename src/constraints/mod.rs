//! Constraint kinds, one per file: SoA storage, build-time preparation and the
//! projection kernel.

pub mod angle_limit;
pub mod bend;
pub mod distance;
pub mod frame;
pub mod inequality;
pub mod joint;
pub mod rigid_point;
pub mod shape_match;
pub mod skin;
pub mod target;
pub mod tether;
pub mod tree;
