//! A convex hull collider placed in the world: the hull stays in its local
//! frame (`convex::ConvexHull`), points and sticks are brought into it.

use super::convex::ConvexHull;
use super::{Shape, boxes_overlap, near::Bound, segment};
use glam::{Mat3, Quat, Vec3};
use std::sync::Arc;

/// A convex collider's shape: the hull and the points it was built from
/// (a snapshot stores those, so a restore builds the same hull bit for bit).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexShape {
    pub hull: ConvexHull,
    pub points: Vec<Vec3>,
}

impl ConvexShape {
    pub fn new(points: &[Vec3]) -> crate::Result<ConvexShape> {
        Ok(ConvexShape { hull: ConvexHull::from_points(points)?, points: points.to_vec() })
    }
}

#[derive(Debug, Clone)]
pub struct Hull {
    pub shape: Arc<ConvexShape>,
    pub position: Vec3,
    pub rotation: Mat3,
    pub inverse: Mat3,
    /// The world box around it.
    pub lo: Vec3,
    pub hi: Vec3,
    pub source: u32,
}

impl Hull {
    pub fn new(shape: Arc<ConvexShape>, position: Vec3, rotation: Quat, source: u32) -> Self {
        let r = Mat3::from_quat(rotation);
        let (lo, hi) = shape.hull.bounds();
        let (c, e) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let extent = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs()) * e;
        let wc = position + r * c;
        Hull { shape, position, rotation: r, inverse: r.transpose(), lo: wc - extent, hi: wc + extent, source }
    }

    #[inline(always)]
    fn to_local(&self, x: Vec3) -> Vec3 {
        self.inverse * (x - self.position)
    }

    /// The contact of a stick of radius `r` between `a` and `b`.
    pub fn segment_contact(&self, a: Vec3, b: Vec3, r: f32) -> Option<(f32, Vec3, f32)> {
        segment::vs_convex(self.to_local(a), self.to_local(b), r, &self.shape.hull)
            .map(|(s, n, d)| (s, self.rotation * n, d))
    }

    /// A world ray against the hull grown by `r`: `(t, outward normal)`.
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32, r: f32) -> Option<(f32, Vec3)> {
        let (t, n) = self.shape.hull.raycast(self.to_local(origin), self.inverse * dir, max_t, r)?;
        Some((t, self.rotation * n))
    }
}

impl Shape for Hull {
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        boxes_overlap(lo, hi, self.lo, self.hi)
    }

    #[inline(always)]
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        self.shape.hull.contact(self.to_local(p), r).map(|(n, d)| (self.rotation * n, d))
    }

    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)> {
        self.raycast(origin, dir, 1.0, r)
    }

    fn distance(&self, p: Vec3) -> f32 {
        self.shape.hull.signed_distance(self.to_local(p)).0
    }

    fn source(&self) -> u32 {
        self.source
    }

    fn bound(&self) -> Bound {
        Bound::Ball { center: (self.lo + self.hi) * 0.5, radius: (self.hi - self.lo).length() * 0.5 }
    }

    fn near_bound(&self) -> Bound {
        Bound::Aabb { center: (self.lo + self.hi) * 0.5, extent: (self.hi - self.lo) * 0.5 }
    }
}
