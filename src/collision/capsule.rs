//! Capsule collider: the points within `radius` of the segment `a`-`b`.

use super::{Shape, ball_contact, boxes_overlap, closest_on_segment, near::Bound};
use glam::Vec3;

#[derive(Debug, Clone, Copy)]
pub struct Capsule {
    pub a: Vec3,
    pub ab: Vec3,
    /// 1 / |ab|^2, or 0 for a degenerate segment (the capsule is a sphere at `a`).
    pub inv_len2: f32,
    pub radius: f32,
    /// Index of its collider in `Prepared::sources`.
    pub source: u32,
}

impl Capsule {
    pub fn new(a: Vec3, b: Vec3, radius: f32, source: u32) -> Self {
        let ab = b - a;
        let len2 = ab.length_squared();
        Capsule { a, ab, inv_len2: if len2 > 0.0 { 1.0 / len2 } else { 0.0 }, radius, source }
    }
}

impl Shape for Capsule {
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        let b = self.a + self.ab;
        boxes_overlap(lo, hi, self.a.min(b) - self.radius, self.a.max(b) + self.radius)
    }

    #[inline(always)]
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        let c = closest_on_segment(p, self.a, self.ab, self.inv_len2);
        // On the axis itself any perpendicular direction is as short; pick one.
        let fallback = self.ab.any_orthonormal_vector();
        ball_contact(p, c, self.radius + r, if self.inv_len2 > 0.0 { fallback } else { Vec3::Y })
    }

    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)> {
        super::ray::capsule(origin, dir, 1.0, self.a, self.a + self.ab, self.radius + r)
    }

    fn distance(&self, p: Vec3) -> f32 {
        p.distance(closest_on_segment(p, self.a, self.ab, self.inv_len2)) - self.radius
    }

    fn source(&self) -> u32 {
        self.source
    }

    fn bound(&self) -> Bound {
        Bound::Ball { center: self.a + self.ab * 0.5, radius: self.ab.length() * 0.5 + self.radius }
    }

    fn near_bound(&self) -> Bound {
        Bound::Aabb { center: self.a + self.ab * 0.5, extent: self.ab.abs() * 0.5 + self.radius }
    }
}
