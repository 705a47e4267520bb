//! Ray casts against the collider shapes, for anti-tunnelling and queries.
//!
//! A ray is `origin + t * dir` for `t` in `[0, max_t]`; `dir` need not be of
//! unit length, so `t` is in units of `|dir|` (a particle's move this step
//! with `max_t = 1`). A particle of radius `r` is a swept sphere: the caller
//! grows the shape by `r` (`radius + r`, `offset + r`, `half + r`).
//!
//! Each cast returns the entry `t` and the unit outward normal there, or
//! `None` on a miss or when the origin is already strictly inside (the
//! discrete contact handles that). A tangent ray hits where it touches; a
//! ray starting on the surface hits at `t = 0` if it heads in.
//! Sources: Ericson, "Real-Time Collision Detection", 5.3.1 (plane), 5.3.2
//! (sphere), 5.3.3 (slabs), 5.3.7 (cylinder).

use glam::{Mat3, Vec3};

/// Against the ball at `center` of `radius`.
pub fn sphere(origin: Vec3, dir: Vec3, max_t: f32, center: Vec3, radius: f32) -> Option<(f32, Vec3)> {
    // |m + t dir|^2 = radius^2 with m = origin - center:
    // a t^2 + 2 b t + c = 0.
    let m = origin - center;
    let (a, b, c) = (dir.dot(dir), m.dot(dir), m.dot(m) - radius * radius);
    if c < 0.0 || b >= 0.0 || a == 0.0 {
        return None;
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    if t > max_t {
        return None;
    }
    Some((t, (m + dir * t).normalize_or(-dir.normalize())))
}

/// Against the capsule of `radius` around `c0 c1`: the first entry into its
/// side (a cylinder) or into either end ball.
pub fn capsule(origin: Vec3, dir: Vec3, max_t: f32, c0: Vec3, c1: Vec3, radius: f32) -> Option<(f32, Vec3)> {
    let d = c1 - c0;
    let dd = d.dot(d);
    let inv_dd = if dd > 0.0 { 1.0 / dd } else { 0.0 };
    let m = origin - c0;
    if (m - d * (m.dot(d) * inv_dd).clamp(0.0, 1.0)).length_squared() < radius * radius {
        return None;
    }
    let mut best: Option<(f32, Vec3)> = None;
    // Side: the infinite cylinder (Ericson 5.3.7), dir and m with the axis
    // part removed, scaled by dd: a t^2 + 2 b t + c = 0.
    let (md, nd) = (m.dot(d), dir.dot(d));
    let a = dd * dir.dot(dir) - nd * nd;
    if a > 1e-12 * dd * dir.dot(dir) {
        let b = dd * m.dot(dir) - nd * md;
        let c = dd * (m.dot(m) - radius * radius) - md * md;
        let disc = b * b - a * c;
        if disc >= 0.0 {
            let t = (-b - disc.sqrt()) / a;
            let along = md + t * nd;
            // Only the entry between the end discs; beyond them the balls decide.
            if t >= 0.0 && t <= max_t && (0.0..=dd).contains(&along) {
                let hit = origin + dir * t;
                best = Some((t, (hit - (c0 + d * (along * inv_dd))).normalize_or(-dir.normalize())));
            }
        }
    }
    for end in [c0, c1] {
        let ball = sphere(origin, dir, max_t, end, radius);
        if ball.is_some_and(|(t, _)| best.is_none_or(|(first, _)| t < first)) {
            best = ball;
        }
    }
    best
}

/// Against the solid half-space `dot(normal, x) < offset` (unit normal).
pub fn plane(origin: Vec3, dir: Vec3, max_t: f32, normal: Vec3, offset: f32) -> Option<(f32, Vec3)> {
    let (dist, denom) = (normal.dot(origin) - offset, normal.dot(dir));
    if dist < 0.0 || denom >= 0.0 {
        return None;
    }
    let t = dist / -denom;
    (t <= max_t).then_some((t, normal))
}

/// Against the box at `center` with axes the columns of `axes` and half
/// extents `half` (slabs in the box frame, Ericson 5.3.3).
pub fn cuboid(origin: Vec3, dir: Vec3, max_t: f32, center: Vec3, axes: Mat3, half: Vec3) -> Option<(f32, Vec3)> {
    let to_box = axes.transpose();
    let (o, v) = (to_box * (origin - center), to_box * dir);
    if o.abs().cmplt(half).all() {
        return None;
    }
    let (mut t_enter, mut t_exit) = (f32::NEG_INFINITY, max_t);
    let mut normal = Vec3::ZERO;
    for i in 0..3 {
        if v[i] == 0.0 {
            // Parallel to this slab: inside it or never.
            if o[i].abs() > half[i] {
                return None;
            }
            continue;
        }
        let (near, far) = ((-half[i] * v[i].signum() - o[i]) / v[i], (half[i] * v[i].signum() - o[i]) / v[i]);
        if near > t_enter {
            t_enter = near;
            // Entering the face that looks back along the ray.
            normal = axes.col(i) * -v[i].signum();
        }
        t_exit = t_exit.min(far);
    }
    // t_enter < 0: the ray starts on the surface and slides along it or leaves.
    if t_enter < 0.0 || t_enter > t_exit {
        return None;
    }
    Some((t_enter, normal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn close(hit: Option<(f32, Vec3)>, t: f32, n: Vec3) -> bool {
        hit.is_some_and(|(ht, hn)| (ht - t).abs() < 1e-5 && hn.distance(n) < 1e-5)
    }

    #[test]
    fn sphere_hits_misses_and_grazes() {
        let (c, radius) = (Vec3::new(1.0, 2.0, 3.0), 0.5);
        let o = c - Vec3::new(5.0, 0.0, 0.0);
        // 4.5 m to the surface, 2.25 in units of |dir| = 2.
        assert!(close(sphere(o, Vec3::X * 2.0, 10.0, c, radius), 2.25, -Vec3::X));
        assert_eq!(sphere(o, Vec3::X * 2.0, 2.0, c, radius), None);
        assert_eq!(sphere(o + Vec3::Y * 0.6, Vec3::X, 10.0, c, radius), None);
        assert_eq!(sphere(o, -Vec3::X, 10.0, c, radius), None);
        assert_eq!(sphere(c + Vec3::Y * 0.1, Vec3::X, 10.0, c, radius), None);
        // Tangent at (1, 2.5, 3) after 5 m; 0.1 mm higher misses.
        assert!(close(sphere(o + Vec3::Y * 0.5, Vec3::X, 10.0, c, radius), 5.0, Vec3::Y));
        assert_eq!(sphere(o + Vec3::Y * 0.5001, Vec3::X, 10.0, c, radius), None);
        // On the surface heading in: t = 0.
        assert!(close(sphere(c - Vec3::X * 0.5, Vec3::X, 1.0, c, radius), 0.0, -Vec3::X));
        // Oblique: from (0, 0, 5) straight down onto the ball at the origin
        // offset 0.3 sideways enters at height 0.4.
        assert!(close(
            sphere(Vec3::new(0.3, 0.0, 5.0), -Vec3::Z, 10.0, Vec3::ZERO, 0.5),
            4.6,
            Vec3::new(0.6, 0.0, 0.8)
        ));
    }

    #[test]
    fn capsule_hits_its_side_and_its_ends() {
        let (c0, c1, radius) = (-Vec3::Z, Vec3::Z, 0.5);
        // Side.
        assert!(close(capsule(Vec3::new(-5.0, 0.0, 0.3), Vec3::X, 10.0, c0, c1, radius), 4.5, -Vec3::X));
        assert!(close(capsule(Vec3::new(-5.0, 0.0, 0.3), Vec3::X * 0.5, 10.0, c0, c1, radius), 9.0, -Vec3::X));
        // Top ball, on the axis and off it: enters at z = 1 + sqrt(0.25 - 0.09) = 1.4.
        assert!(close(capsule(Vec3::new(0.0, 0.0, 5.0), -Vec3::Z, 10.0, c0, c1, radius), 3.5, Vec3::Z));
        assert!(close(
            capsule(Vec3::new(0.3, 0.0, 5.0), -Vec3::Z, 10.0, c0, c1, radius),
            3.6,
            Vec3::new(0.6, 0.0, 0.8)
        ));
        // Along the axis from below, beside it: the bottom ball.
        let h = (0.25f32 - 0.04).sqrt();
        let hit = capsule(Vec3::new(0.2, 0.0, -5.0), Vec3::Z, 10.0, c0, c1, radius);
        assert!(close(hit, 4.0 - h, Vec3::new(0.2, 0.0, -h) / 0.5), "{hit:?}");
        // Inside, missing, leaving, too short.
        assert_eq!(capsule(Vec3::new(0.1, 0.0, 0.5), Vec3::X, 10.0, c0, c1, radius), None);
        assert_eq!(capsule(Vec3::new(-5.0, 0.6, 0.0), Vec3::X, 10.0, c0, c1, radius), None);
        assert_eq!(capsule(Vec3::new(-5.0, 0.0, 0.0), -Vec3::X, 10.0, c0, c1, radius), None);
        assert_eq!(capsule(Vec3::new(-5.0, 0.0, 0.0), Vec3::X, 4.0, c0, c1, radius), None);
        // Grazing the side at y = 0.5, and 0.1 mm beyond it.
        assert!(close(capsule(Vec3::new(-5.0, 0.5, 0.0), Vec3::X, 10.0, c0, c1, radius), 5.0, Vec3::Y));
        assert_eq!(capsule(Vec3::new(-5.0, 0.5001, 0.0), Vec3::X, 10.0, c0, c1, radius), None);
        // A point-like capsule is a ball.
        assert!(close(
            capsule(Vec3::new(-5.0, 0.0, 0.0), Vec3::X, 10.0, Vec3::ZERO, Vec3::ZERO, radius),
            4.5,
            -Vec3::X
        ));
    }

    #[test]
    fn plane_hits_from_the_open_side_only() {
        let (n, offset) = (Vec3::Y, 1.0);
        assert!(close(plane(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.3, -4.0, 0.0), 1.0, n, offset), 0.5, n));
        assert_eq!(plane(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, -4.0, 0.0), 0.4, n, offset), None);
        assert_eq!(plane(Vec3::new(0.0, 3.0, 0.0), Vec3::X, 10.0, n, offset), None);
        assert_eq!(plane(Vec3::new(0.0, 3.0, 0.0), Vec3::Y, 10.0, n, offset), None);
        assert_eq!(plane(Vec3::new(0.0, 0.5, 0.0), -Vec3::Y, 10.0, n, offset), None);
        // On the surface: heading in hits at once, sliding along does not.
        assert!(close(plane(Vec3::new(0.0, 1.0, 0.0), -Vec3::Y, 1.0, n, offset), 0.0, n));
        assert_eq!(plane(Vec3::new(0.0, 1.0, 0.0), Vec3::X, 1.0, n, offset), None);
        // Tilted: x + y >= sqrt(2), from the origin's far side.
        let tilt = Vec3::new(1.0, 1.0, 0.0).normalize();
        assert!(close(plane(Vec3::new(3.0, 3.0, 0.0), -Vec3::X, 10.0, tilt, 2f32.sqrt()), 4.0, tilt));
    }

    #[test]
    fn cuboid_slabs() {
        let (center, rot, half) = (Vec3::new(1.0, -2.0, 0.5), Quat::from_rotation_y(0.6), Vec3::new(1.0, 0.5, 0.25));
        let axes = Mat3::from_quat(rot);
        let at = |p: Vec3| center + rot * p;
        // In the box frame from (-3, 0.1, 0.1) along +x: the -x face after 2 m.
        assert!(close(
            cuboid(at(Vec3::new(-3.0, 0.1, 0.1)), rot * Vec3::X * 4.0, 1.0, center, axes, half),
            0.5,
            rot * -Vec3::X
        ));
        // Obliquely onto the top face: y = 0.5 reached after 1.5 units.
        let hit = cuboid(at(Vec3::new(0.2, 2.0, 0.0)), rot * Vec3::new(0.1, -1.0, 0.0), 10.0, center, axes, half);
        assert!(close(hit, 1.5, rot * Vec3::Y), "{hit:?}");
        assert_eq!(cuboid(at(Vec3::new(0.2, 0.1, 0.0)), Vec3::X, 10.0, center, axes, half), None);
        assert_eq!(cuboid(at(Vec3::new(-3.0, 0.6, 0.0)), rot * Vec3::X, 10.0, center, axes, half), None);
        assert_eq!(cuboid(at(Vec3::new(-3.0, 0.0, 0.0)), rot * -Vec3::X, 10.0, center, axes, half), None);
        assert_eq!(cuboid(at(Vec3::new(-3.0, 0.0, 0.0)), rot * Vec3::X, 1.9, center, axes, half), None);
        // Axis-aligned grazing along the top face (touching hits), and 0.1 mm above it.
        let (c, axes, half) = (Vec3::ZERO, Mat3::IDENTITY, Vec3::new(1.0, 0.5, 0.25));
        assert!(close(cuboid(Vec3::new(-3.0, 0.5, 0.0), Vec3::X, 10.0, c, axes, half), 2.0, -Vec3::X));
        assert_eq!(cuboid(Vec3::new(-3.0, 0.5001, 0.0), Vec3::X, 10.0, c, axes, half), None);
        // Through a corner diagonally: enters where all three slabs overlap.
        let hit = cuboid(Vec3::new(-2.0, -1.5, -1.25), Vec3::ONE, 10.0, c, axes, half);
        assert!(hit.is_some_and(|(t, _)| (t - 1.0).abs() < 1e-6), "{hit:?}");
        // On the face heading in: t = 0.
        assert!(close(cuboid(Vec3::new(-1.0, 0.0, 0.0), Vec3::X, 1.0, c, axes, half), 0.0, -Vec3::X));
    }
}
