//! Plane collider: the solid half-space `dot(n, x) < offset`.

use super::{Shape, near::Bound};
use glam::{Quat, Vec3};

#[derive(Debug, Clone, Copy)]
pub struct Plane {
    pub normal: Vec3,
    pub offset: f32,
    /// Index of its collider in `Prepared::sources`.
    pub source: u32,
}

impl Plane {
    /// The local plane moved by the transform.
    pub fn new(position: Vec3, rotation: Quat, normal: Vec3, offset: f32, source: u32) -> Self {
        let normal = rotation * normal;
        Plane { normal, offset: offset + normal.dot(position), source }
    }
}

impl Shape for Plane {
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        // The box corner deepest along -n.
        let corner = Vec3::select(self.normal.cmpge(Vec3::ZERO), lo, hi);
        self.normal.dot(corner) < self.offset
    }

    #[inline(always)]
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        let s = self.normal.dot(p) - self.offset;
        (s < r).then_some((self.normal, r - s))
    }

    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)> {
        super::ray::plane(origin, dir, 1.0, self.normal, self.offset + r)
    }

    fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.offset
    }

    fn source(&self) -> u32 {
        self.source
    }

    fn bound(&self) -> Bound {
        Bound::HalfSpace { normal: self.normal, offset: self.offset }
    }
}
