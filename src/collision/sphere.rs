//! Sphere collider.

use super::{Shape, ball_contact, boxes_overlap, near::Bound};
use glam::Vec3;

#[derive(Debug, Clone, Copy)]
pub struct Sphere {
    pub center: Vec3,
    pub radius: f32,
    /// Index of its collider in `Prepared::sources`.
    pub source: u32,
}

impl Sphere {
    pub fn new(center: Vec3, radius: f32, source: u32) -> Self {
        Sphere { center, radius, source }
    }
}

impl Shape for Sphere {
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        boxes_overlap(lo, hi, self.center - self.radius, self.center + self.radius)
    }

    #[inline(always)]
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        ball_contact(p, self.center, self.radius + r, Vec3::Y)
    }

    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)> {
        super::ray::sphere(origin, dir, 1.0, self.center, self.radius + r)
    }

    fn distance(&self, p: Vec3) -> f32 {
        p.distance(self.center) - self.radius
    }

    fn source(&self) -> u32 {
        self.source
    }

    fn bound(&self) -> Bound {
        Bound::Ball { center: self.center, radius: self.radius }
    }
}
