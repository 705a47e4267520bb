//! What a renderer reads back: per-vertex normals and bounds.

use crate::particles::Particles;
use glam::Vec3;

/// Area-weighted vertex normals of the particles `first..first + count`: the
/// sum of the incident triangles' cross products (twice their area times
/// their normal), normalised. A particle on no triangle, or whose triangles
/// cancel out, gets the normal of the first triangle that has one, else +Y, so
/// every normal has unit length.
pub fn normals(p: &Particles, first: usize, count: usize, triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let mut sum = vec![Vec3::ZERO; count];
    let mut fallback = None;
    for t in triangles {
        let [a, b, c] = t.map(|i| p.position(first + i as usize));
        let n = (b - a).cross(c - a);
        if fallback.is_none() {
            fallback = n.try_normalize();
        }
        t.iter().for_each(|&i| sum[i as usize] += n);
    }
    let fallback = fallback.unwrap_or(Vec3::Y);
    sum.into_iter().map(|n| n.try_normalize().unwrap_or(fallback)).collect()
}

/// The axis-aligned box around the particles `first..first + count`, grown by
/// `radius`.
pub fn bounds(p: &Particles, first: usize, count: usize, radius: f32) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for i in first..first + count {
        let x = p.position(i);
        lo = lo.min(x);
        hi = hi.max(x);
    }
    (lo - radius, hi + radius)
}
