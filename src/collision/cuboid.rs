//! Box collider (an oriented box; `box` is a Rust keyword, hence the name).
//!
//! A point outside is pushed from the closest point of the box; a point inside
//! leaves through the nearest face.

use super::{Shape, boxes_overlap, near::Bound};
use glam::{Mat3, Quat, Vec3};

#[derive(Debug, Clone, Copy)]
pub struct Cuboid {
    pub center: Vec3,
    /// Columns are the box's axes in world space.
    pub axes: Mat3,
    pub half: Vec3,
    /// Index of its collider in `Prepared::sources`.
    pub source: u32,
}

impl Cuboid {
    pub fn new(center: Vec3, rotation: Quat, half: Vec3, source: u32) -> Self {
        Cuboid { center, axes: Mat3::from_quat(rotation), half, source }
    }

    /// The world half-size of the oriented box: `|R| half`.
    #[inline(always)]
    pub fn extent(&self) -> Vec3 {
        let m = self.axes;
        Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs()) * self.half
    }
}

impl Shape for Cuboid {
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        let extent = self.extent();
        boxes_overlap(lo, hi, self.center - extent, self.center + extent)
    }

    #[inline(always)]
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        let q = self.axes.transpose() * (p - self.center);
        let clamped = q.clamp(-self.half, self.half);
        let outside = q - clamped;
        let dist2 = outside.length_squared();
        if dist2 > 0.0 {
            if dist2 >= r * r {
                return None;
            }
            let dist = dist2.sqrt();
            return Some((self.axes * (outside / dist), r - dist));
        }
        // Inside: leave through the face with the least way to go.
        let room = self.half - q.abs();
        let axis = if room.x <= room.y && room.x <= room.z {
            0
        } else if room.y <= room.z {
            1
        } else {
            2
        };
        let sign = if q[axis] < 0.0 { -1.0 } else { 1.0 };
        Some((self.axes.col(axis) * sign, room[axis] + r))
    }

    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)> {
        super::ray::cuboid(origin, dir, 1.0, self.center, self.axes, self.half + r)
    }

    fn distance(&self, p: Vec3) -> f32 {
        let q = self.axes.transpose() * (p - self.center);
        let outside = q - q.clamp(-self.half, self.half);
        if outside != Vec3::ZERO { outside.length() } else { -(self.half - q.abs()).min_element() }
    }

    fn source(&self) -> u32 {
        self.source
    }

    fn bound(&self) -> Bound {
        Bound::Ball { center: self.center, radius: self.half.length() }
    }

    fn near_bound(&self) -> Bound {
        Bound::Aabb { center: self.center, extent: self.extent() }
    }
}
