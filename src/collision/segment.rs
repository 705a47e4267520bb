//! Stick contacts: the capsule of radius `r` around the segment between two
//! particles, now at `a` and `b`, against the collider shapes.
//!
//! Colliding the particles alone lets a stick slide through a thin bar or
//! board whose width is below the particle spacing. Each test here finds the
//! stick's deepest point, at `a + s (b - a)`, with the direction and depth
//! that move that point out; [`barycentric_push`] shares the move between the
//! two particles (Jakobsen, "Advanced Character Physics", 5 "Rigid bodies").
//!
//! Capsules and spheres use closest points (Ericson, "Real-Time Collision
//! Detection", 5.1.9). For boxes and hulls the signed distance is a convex
//! function of `s`, so a golden-section search with a fixed number of steps
//! finds its minimum (same input, same bits), on the part of the segment that
//! the slabs or planes grown by `r` leave (Ericson 5.3.3, 5.3.8).

use super::ball_contact;
use super::convex::ConvexHull;
use glam::{Mat3, Vec3};

/// Golden-section steps: the bracket shrinks to 0.618^32 = 2e-7 of its length.
const SEARCH_STEPS: usize = 32;
/// Signed distances this close (metres) to the minimum count as the minimum.
const PLATEAU: f32 = 1e-6;
/// Bisection steps for each end of the deepest stretch (2^-20 = 1e-6).
const PLATEAU_STEPS: usize = 20;

/// The closest points of segments `p1 q1` and `p2 q2` (Ericson 5.1.9):
/// `(s, t, c1, c2)` with `c1 = p1 + s (q1 - p1)`, `c2 = p2 + t (q2 - p2)`.
/// Either segment may be a point. The scalar part runs in f64 so nearly
/// parallel segments still get the right `s`.
pub fn closest_segment_segment(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (f32, f32, Vec3, Vec3) {
    let (d1, d2, r) = ((q1 - p1).as_dvec3(), (q2 - p2).as_dvec3(), (p1 - p2).as_dvec3());
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let eps = 1e-24;
    let (s, t) = if a <= eps && e <= eps {
        (0.0, 0.0)
    } else if a <= eps {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= eps {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            // Parallel: any s is as good; take 0 and let t decide.
            let s = if denom > 1e-12 * a * e { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let t = (b * s + f) / e;
            if t < 0.0 {
                ((-c / a).clamp(0.0, 1.0), 0.0)
            } else if t > 1.0 {
                (((b - c) / a).clamp(0.0, 1.0), 1.0)
            } else {
                (s, t)
            }
        }
    };
    let (s, t) = (s as f32, t as f32);
    (s, t, p1 + (q1 - p1) * s, p2 + (q2 - p2) * t)
}

/// A direction perpendicular to both segments, for when they cross.
fn crossing_normal(ab: Vec3, cd: Vec3) -> Vec3 {
    let n = ab.cross(cd);
    if n.length_squared() > 1e-24 {
        n.normalize()
    } else if ab.length_squared() > 0.0 {
        ab.any_orthonormal_vector()
    } else if cd.length_squared() > 0.0 {
        cd.any_orthonormal_vector()
    } else {
        Vec3::Y
    }
}

/// Stick against the ball at `center` of `radius`.
pub fn vs_sphere(a: Vec3, b: Vec3, r: f32, center: Vec3, radius: f32) -> Option<(f32, Vec3, f32)> {
    let ab = b - a;
    let len2 = ab.length_squared();
    let s = if len2 > 0.0 { ((center - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    // Centre on the stick: any direction across it is as short.
    let (n, depth) = ball_contact(a + ab * s, center, radius + r, crossing_normal(ab, Vec3::ZERO))?;
    Some((s, n, depth))
}

/// Stick against the capsule of `radius` around `c0 c1`. A stick lying across
/// a thin bar collides in its middle although both ends are far away.
pub fn vs_capsule(a: Vec3, b: Vec3, r: f32, c0: Vec3, c1: Vec3, radius: f32) -> Option<(f32, Vec3, f32)> {
    let (s, _, x, y) = closest_segment_segment(a, b, c0, c1);
    let (n, depth) = ball_contact(x, y, radius + r, crossing_normal(b - a, c1 - c0))?;
    Some((s, n, depth))
}

/// Stick against the solid half-space `dot(normal, x) < offset`: the deeper
/// end, or the middle when both ends are exactly as deep (a stick lying on
/// the plane is then lifted as a whole).
pub fn vs_plane(a: Vec3, b: Vec3, r: f32, normal: Vec3, offset: f32) -> Option<(f32, Vec3, f32)> {
    let (da, db) = (normal.dot(a) - offset, normal.dot(b) - offset);
    let (s, dist) = if da < db {
        (0.0, da)
    } else if db < da {
        (1.0, db)
    } else {
        (0.5, da)
    };
    (dist < r).then_some((s, normal, r - dist))
}

/// Signed distance of a point `q` of the box frame from the box of `half`
/// extents, with the outward direction in the box frame (as `Cuboid::contact`).
fn box_distance(q: Vec3, half: Vec3) -> (f32, Vec3) {
    let outside = q - q.clamp(-half, half);
    let dist2 = outside.length_squared();
    if dist2 > 0.0 {
        let dist = dist2.sqrt();
        return (dist, outside / dist);
    }
    let room = half - q.abs();
    let axis = if room.x <= room.y && room.x <= room.z {
        0
    } else if room.y <= room.z {
        1
    } else {
        2
    };
    let mut n = Vec3::ZERO;
    n[axis] = if q[axis] < 0.0 { -1.0 } else { 1.0 };
    (-room[axis], n)
}

/// The `s` in `[lo, hi]` minimising the convex `f`: golden-section search
/// with a fixed step count (the ends are tried too, as the minimum is often
/// there), then the middle of the stretch within [`PLATEAU`] of the minimum,
/// found by bisection. A stick lying along a face is flat there: its middle
/// is pushed, so both particles move, and its direction is the face's, not
/// that of an edge the search would drift to.
pub(crate) fn minimise(f: impl Fn(f32) -> f32, lo: f32, hi: f32) -> f32 {
    const INV_PHI: f32 = 0.618_034;
    let (mut l, mut h) = (lo, hi);
    let (mut x1, mut x2) = (h - INV_PHI * (h - l), l + INV_PHI * (h - l));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..SEARCH_STEPS {
        if f1 <= f2 {
            (h, x2, f2) = (x2, x1, f1);
            x1 = h - INV_PHI * (h - l);
            f1 = f(x1);
        } else {
            (l, x1, f1) = (x1, x2, f2);
            x2 = l + INV_PHI * (h - l);
            f2 = f(x2);
        }
    }
    let mut best = if f1 <= f2 { (x1, f1) } else { (x2, f2) };
    for end in [lo, hi] {
        let fe = f(end);
        if fe < best.1 {
            best = (end, fe);
        }
    }
    // The sublevel set of a convex function is an interval: bisect for its ends.
    let flat = |s: f32| f(s) <= best.1 + PLATEAU;
    let edge = |mut out: f32, mut inside: f32| {
        if flat(out) {
            return out;
        }
        for _ in 0..PLATEAU_STEPS {
            let mid = 0.5 * (out + inside);
            if flat(mid) {
                inside = mid;
            } else {
                out = mid;
            }
        }
        inside
    };
    0.5 * (edge(lo, best.0) + edge(hi, best.0))
}

/// Stick against the box at `center` with axes the columns of `axes` and
/// half extents `half`. Exact up to the search's resolution: a stick through
/// a box thinner than the particle spacing is caught.
pub fn vs_box(a: Vec3, b: Vec3, r: f32, center: Vec3, axes: Mat3, half: Vec3) -> Option<(f32, Vec3, f32)> {
    let to_box = axes.transpose();
    let (qa, qb) = (to_box * (a - center), to_box * (b - center));
    let qab = qb - qa;
    // Only where the segment is inside the slabs grown by r can it touch.
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for i in 0..3 {
        let grown = half[i] + r;
        if qab[i] != 0.0 {
            let (u, v) = ((-grown - qa[i]) / qab[i], (grown - qa[i]) / qab[i]);
            (t0, t1) = (t0.max(u.min(v)), t1.min(u.max(v)));
        } else if qa[i].abs() > grown {
            return None;
        }
    }
    if t0 > t1 {
        return None;
    }
    let s =
        outside_box(qa, qab, half, t0, t1).unwrap_or_else(|| minimise(|s| box_distance(qa + qab * s, half).0, t0, t1));
    let (dist, n) = box_distance(qa + qab * s, half);
    (dist < r).then(|| (s, axes * n, r - dist))
}

/// The `s` that [`minimise`] seeks for the distance of `qa + qab s`, `s` in
/// `[t0, t1]`, from the box of `half` extents (box frame), found exactly
/// where the segment stays outside the box: the middle of the stretch
/// within [`PLATEAU`] of the least distance. `None` where the segment
/// reaches into the box (the signed distance inside is left to the search).
///
/// Outside, the squared distance is `sum_i e_i(s)^2` with `e_i` how far
/// coordinate `i` lies beyond its slab, linear in `s` between the points
/// where a coordinate crosses a face's plane: a convex function, quadratic
/// on each of at most seven pieces, so its least value and the stretch near
/// it are the roots of quadratics (in f64). The search took 74 distance
/// evaluations a stick and box, most of a crowd's time on stairs.
fn outside_box(qa: Vec3, qab: Vec3, half: Vec3, t0: f32, t1: f32) -> Option<f32> {
    let mut cuts = [0.0f64; 8];
    let (t0, t1) = (f64::from(t0), f64::from(t1));
    cuts[0] = t0;
    let mut k = 1;
    for i in 0..3 {
        if qab[i] != 0.0 {
            for face in [-half[i], half[i]] {
                let s = f64::from(face - qa[i]) / f64::from(qab[i]);
                if s > t0 && s < t1 {
                    cuts[k] = s;
                    k += 1;
                }
            }
        }
    }
    cuts[k] = t1;
    let cuts = &mut cuts[..=k];
    cuts.sort_unstable_by(f64::total_cmp);
    // Each piece's `g(s) = a s^2 + b s + c`, from the slabs its middle
    // lies beyond.
    let mut pieces = [(0.0f64, 0.0f64, 0.0f64); 7];
    let mut least = (f64::INFINITY, t0);
    for (j, w) in cuts.windows(2).enumerate() {
        let mid = 0.5 * (w[0] + w[1]);
        let (mut a, mut b, mut c) = (0.0, 0.0, 0.0);
        for i in 0..3 {
            let (q0, dq, h) = (f64::from(qa[i]), f64::from(qab[i]), f64::from(half[i]));
            let q = q0 + dq * mid;
            let face = if q > h {
                h
            } else if q < -h {
                -h
            } else {
                continue;
            };
            // (q0 - face + dq s)^2
            a += dq * dq;
            b += 2.0 * dq * (q0 - face);
            c += (q0 - face) * (q0 - face);
        }
        if a == 0.0 && c == 0.0 {
            return None; // this piece is inside the box
        }
        pieces[j] = (a, b, c);
        let s = if a > 0.0 { (-b / (2.0 * a)).clamp(w[0], w[1]) } else { w[0] };
        let g = (a * s + b) * s + c;
        if g < least.0 {
            least = (g, s);
        }
    }
    if least.0 <= 0.0 {
        return None;
    }
    // The stretch where the distance is within PLATEAU of the least: the
    // pieces' sublevel sets of `g <= (d + PLATEAU)^2`, one interval.
    let bound = (least.0.sqrt() + f64::from(PLATEAU)).powi(2);
    let (mut lo, mut hi) = (least.1, least.1);
    for (j, w) in cuts.windows(2).enumerate() {
        let (a, b, c) = pieces[j];
        let (from, to) = if a > 0.0 {
            let disc = b * b - 4.0 * a * (c - bound);
            if disc < 0.0 {
                continue;
            }
            let root = disc.sqrt();
            ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a))
        } else if b != 0.0 {
            let at = (bound - c) / b;
            if b > 0.0 { (f64::NEG_INFINITY, at) } else { (at, f64::INFINITY) }
        } else if c <= bound {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            continue;
        };
        let (from, to) = (from.max(w[0]), to.min(w[1]));
        if from <= to {
            (lo, hi) = (lo.min(from), hi.max(to));
        }
    }
    Some((0.5 * (lo + hi)) as f32)
}

/// Stick against a convex hull; `a` and `b` are in the hull's frame and so
/// is the direction returned.
pub fn vs_convex(a: Vec3, b: Vec3, r: f32, hull: &ConvexHull) -> Option<(f32, Vec3, f32)> {
    let ab = b - a;
    let (t0, t1) = hull.clip(a, ab, r, 0.0, 1.0)?;
    let s = minimise(|s| hull.signed_distance(a + ab * s).0, t0, t1);
    let (dist, n) = hull.signed_distance(a + ab * s);
    (dist < r).then_some((s, n, r - dist))
}

/// Jakobsen's response for a contact at `p = c1 x1 + c2 x2` on a stick
/// (`c1 = 1 - s`, `c2 = s`) that must move by `d`, with inverse masses `w1`,
/// `w2`. Returns the particle moves `(dx1, dx2)`:
///
/// ```text
/// p = c1 x1 + c2 x2,   delta = d
/// lambda = 1 / (c1^2 w1 + c2^2 w2)
/// x1 = x1 + c1 w1 lambda delta
/// x2 = x2 + c2 w2 lambda delta
/// ```
///
/// so `c1 dx1 + c2 dx2 = delta`: the contact point moves by exactly `d`.
/// The article gives the equal-mass form, `lambda = 1 / (c1^2 + c2^2)`;
/// weighting by inverse mass keeps a pinned end (`w = 0`) still.
pub fn barycentric_push(s: f32, w1: f32, w2: f32, d: Vec3) -> (Vec3, Vec3) {
    let (c1, c2) = (1.0 - s, s);
    let denom = c1 * c1 * w1 + c2 * c2 * w2;
    // Both ends pinned, or the contact sits on a pinned end: nothing moves.
    if denom <= 0.0 {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let lambda = 1.0 / denom;
    (d * (c1 * w1 * lambda), d * (c2 * w2 * lambda))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::Shape;
    use crate::collision::cuboid::Cuboid;
    use glam::Quat;

    use crate::collision::test_rng::Rng;

    /// Moves the stick's particles (equal masses) as the contact asks.
    fn resolve(a: Vec3, b: Vec3, (s, n, depth): (f32, Vec3, f32)) -> (Vec3, Vec3) {
        let (da, db) = barycentric_push(s, 1.0, 1.0, n * depth);
        (a + da, b + db)
    }

    /// The first tests of a stick against a box or a capsule (their world
    /// boxes, `Shape::near_bound`) pass every stick the exact test touches,
    /// boxes and capsules turned any way, near and far from the origin.
    #[test]
    fn near_bounds_never_turn_away_a_stick_that_touches() {
        use crate::collision::capsule::Capsule;
        let mut rng = Rng(7);
        let mut touched = 0;
        for k in 0..20_000 {
            let far = if k % 2 == 0 { Vec3::ZERO } else { Vec3::new(900.0, -40.0, 2500.0) };
            let rotation = rng.rotation();
            let half = (rng.vec().abs() * Vec3::new(4.0, 1.0, 2.0)).max(Vec3::splat(0.01));
            let center = far + rng.vec();
            let a = far + rng.vec() * Vec3::new(5.0, 3.0, 4.0);
            let b = a + rng.vec() * 0.5;
            let r = 0.1 + 0.1 * rng.next();
            let cuboid = Cuboid::new(center, rotation, half, 0);
            if vs_box(a, b, r, center, cuboid.axes, half).is_some() {
                touched += 1;
                assert!(cuboid.near_bound().may_touch_segment(a, b, r), "box {k}: turned away a touching stick");
            }
            let capsule = Capsule::new(center - rotation * half, center + rotation * half, half.z, 0);
            if vs_capsule(a, b, r, capsule.a, capsule.a + capsule.ab, capsule.radius).is_some() {
                touched += 1;
                assert!(capsule.near_bound().may_touch_segment(a, b, r), "capsule {k}: turned away a touching stick");
            }
        }
        assert!(touched > 2_000, "only {touched} touching cases");
    }

    #[test]
    fn closest_points_of_segments() {
        // Crossing at right angles, 1 apart.
        let (s, t, c1, c2) =
            closest_segment_segment(-Vec3::X, Vec3::X, Vec3::new(0.5, -1.0, 1.0), Vec3::new(0.5, 1.0, 1.0));
        assert!((s - 0.75).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
        assert!(c1.distance(Vec3::new(0.5, 0.0, 0.0)) < 1e-6 && c2.distance(Vec3::new(0.5, 0.0, 1.0)) < 1e-6);
        // Parallel and overlapping: any pair 1 apart will do.
        let (_, _, c1, c2) =
            closest_segment_segment(Vec3::ZERO, Vec3::X * 2.0, Vec3::new(1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0));
        assert!((c1.distance(c2) - 1.0).abs() < 1e-6);
        // A point against a segment, and two points.
        let (s, t, _, c2) = closest_segment_segment(Vec3::ONE, Vec3::ONE, Vec3::ZERO, Vec3::X * 2.0);
        assert!(s == 0.0 && (t - 0.5).abs() < 1e-6 && c2 == Vec3::X);
        let (s, t, c1, c2) = closest_segment_segment(Vec3::ONE, Vec3::ONE, Vec3::ZERO, Vec3::ZERO);
        assert!(s == 0.0 && t == 0.0 && c1 == Vec3::ONE && c2 == Vec3::ZERO);
        // Nearly parallel (1e-4 rad): the ends at x = 1 are the closest.
        let (s, t, c1, c2) = closest_segment_segment(Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0 - 1e-4, 0.0));
        assert!(s == 1.0 && t == 1.0 && (c1.distance(c2) - (1.0 - 1e-4)).abs() < 1e-6, "{s} {t}");
        // Random pairs against a 201 x 201 grid of samples.
        let mut rng = Rng(1);
        for _ in 0..50 {
            let (p1, q1, p2, q2) = (rng.vec(), rng.vec(), rng.vec(), rng.vec());
            let (s, t, c1, c2) = closest_segment_segment(p1, q1, p2, q2);
            assert!(c1.distance(p1 + (q1 - p1) * s) < 1e-6 && c2.distance(p2 + (q2 - p2) * t) < 1e-6);
            let sampled = (0..=200)
                .flat_map(|i| (0..=200).map(move |j| (i as f32 / 200.0, j as f32 / 200.0)))
                .map(|(u, v)| (p1 + (q1 - p1) * u).distance(p2 + (q2 - p2) * v))
                .fold(f32::INFINITY, f32::min);
            assert!(c1.distance(c2) <= sampled + 1e-6);
        }
    }

    #[test]
    fn a_stick_across_a_thin_bar_is_pushed_off() {
        // Ends 1 m out to either side of a bar of radius 2 cm; the stick's
        // particles (radius 5 mm) never touch it.
        let (c0, c1, radius, r) = (-Vec3::Z, Vec3::Z, 0.02, 0.005);
        let (a, b) = (Vec3::new(-1.0, 0.01, 0.0), Vec3::new(1.0, 0.01, 0.0));
        let bar = crate::collision::capsule::Capsule::new(c0, c1, radius, 0);
        assert!(bar.contact(a, r).is_none() && bar.contact(b, r).is_none());
        let hit = vs_capsule(a, b, r, c0, c1, radius).unwrap();
        assert!((hit.0 - 0.5).abs() < 1e-6 && hit.1.distance(Vec3::Y) < 1e-6 && (hit.2 - 0.015).abs() < 1e-6);
        let (a2, b2) = resolve(a, b, hit);
        assert!(vs_capsule(a2, b2, r, c0, c1, radius).is_none_or(|(_, _, d)| d < 1e-6));
        // Off-centre and through the axis itself: pushed across both.
        let (a, b) = (Vec3::new(-0.6, 0.0, 0.0), Vec3::new(1.4, 0.0, 0.0));
        let (s, n, depth) = vs_capsule(a, b, r, c0, c1, radius).unwrap();
        assert!((s - 0.3).abs() < 1e-6 && n.dot(Vec3::X).abs() < 1e-6 && n.dot(Vec3::Z).abs() < 1e-6);
        assert!((depth - 0.025).abs() < 1e-6);
        // 3 cm above the axis: clear.
        assert_eq!(vs_capsule(a + Vec3::Y * 0.03, b + Vec3::Y * 0.03, r, c0, c1, radius), None);
    }

    #[test]
    fn a_stick_through_a_sphere() {
        let (a, b) = (-Vec3::X, Vec3::X);
        let (s, n, depth) = vs_sphere(a, b, 0.01, Vec3::new(0.2, 0.05, 0.0), 0.1).unwrap();
        assert!((s - 0.6).abs() < 1e-6 && n.distance(-Vec3::Y) < 1e-6 && (depth - 0.06).abs() < 1e-6);
        // Beyond an end, the end is the contact.
        let (s, n, depth) = vs_sphere(a, b, 0.01, Vec3::new(1.05, 0.0, 0.0), 0.1).unwrap();
        assert!(s == 1.0 && n.distance(-Vec3::X) < 1e-6 && (depth - 0.06).abs() < 1e-6);
        assert_eq!(vs_sphere(a, b, 0.01, Vec3::new(0.2, 0.2, 0.0), 0.1), None);
    }

    #[test]
    fn a_stick_into_a_plane_takes_its_deeper_end() {
        let n = Vec3::new(0.0, 1.0, 0.0);
        let (a, b) = (Vec3::new(0.0, -0.1, 0.0), Vec3::new(1.0, 0.05, 0.0));
        assert_eq!(vs_plane(a, b, 0.01, n, 0.0).map(|h| (h.0, h.1)), Some((0.0, n)));
        assert!((vs_plane(a, b, 0.01, n, 0.0).unwrap().2 - 0.11).abs() < 1e-6);
        assert_eq!(vs_plane(b, a, 0.01, n, 0.0).unwrap().0, 1.0);
        // Level: the middle, so both ends rise together.
        let flat = vs_plane(Vec3::new(0.0, -0.02, 0.0), Vec3::new(1.0, -0.02, 0.0), 0.01, n, 0.0).unwrap();
        assert!(flat.0 == 0.5 && (flat.2 - 0.03).abs() < 1e-6);
        assert_eq!(vs_plane(Vec3::new(0.0, 0.02, 0.0), Vec3::new(1.0, 0.05, 0.0), 0.01, n, 0.0), None);
        // A tilted plane with an offset: b is 0.2 below it, a 0.1 above.
        let tilt = Vec3::new(1.0, 1.0, 0.0).normalize();
        let (a, b) = (tilt * 1.1, tilt * 0.8 + Vec3::Z);
        let (s, dir, depth) = vs_plane(a, b, 0.0, tilt, 1.0).unwrap();
        assert!(s == 1.0 && dir == tilt && (depth - 0.2).abs() < 1e-6);
    }

    /// The box's exact signed distance, written apart from `box_distance`.
    fn box_sdf(p: Vec3, center: Vec3, rot: Quat, half: Vec3) -> f32 {
        let q = (rot.inverse() * (p - center)).abs() - half;
        q.max(Vec3::ZERO).length() + q.max_element().min(0.0)
    }

    #[test]
    fn a_stick_through_a_one_centimetre_box_is_caught() {
        let (center, rot, half, r) = (Vec3::new(0.3, 1.0, -0.2), Quat::from_rotation_z(0.4), Vec3::splat(0.005), 0.001);
        let axes = Mat3::from_quat(rot);
        // Ends 1 m out, 2 mm above the cube's centre line.
        let (a, b) = (center + rot * Vec3::new(-1.0, 0.002, 0.001), center + rot * Vec3::new(1.0, 0.002, 0.001));
        let cube = Cuboid::new(center, rot, half, 0);
        assert!(cube.contact(a, r).is_none() && cube.contact(b, r).is_none());
        let hit = vs_box(a, b, r, center, axes, half).unwrap();
        // The middle of the 4 mm where the top face is nearest.
        assert!((hit.0 - 0.5).abs() < 1e-5 && hit.1.distance(rot * Vec3::Y) < 1e-5, "{hit:?}");
        assert!((hit.2 - 0.004).abs() < 1e-5, "{hit:?}");
        let (a2, b2) = resolve(a, b, hit);
        assert!(vs_box(a2, b2, r, center, axes, half).is_none_or(|(_, _, d)| d < 1e-5));
        // Passing 1 mm over the top, within r = 2 mm: touching, pushed up 1 mm.
        let (a, b) = (center + rot * Vec3::new(-1.0, 0.006, 0.0), center + rot * Vec3::new(1.0, 0.006, 0.0));
        let (_, n, depth) = vs_box(a, b, 0.002, center, axes, half).unwrap();
        assert!(n.distance(rot * Vec3::Y) < 1e-5 && (depth - 0.001).abs() < 1e-5, "{n} {depth}");
        assert_eq!(vs_box(a, b, 0.0005, center, axes, half), None);
    }

    #[test]
    fn box_contacts_find_the_deepest_point() {
        let mut rng = Rng(4);
        let mut hits = 0;
        for _ in 0..400 {
            let (center, rot) = (rng.vec() * 0.2, rng.rotation());
            let half = (rng.vec().abs() * 0.5).max(Vec3::splat(0.005));
            let (a, b, r) = (rng.vec() * 0.7, rng.vec() * 0.7, 0.05 * rng.next().abs());
            // 4001 samples along the stick: the search must do at least as well.
            let sampled = (0..=4000)
                .map(|i| box_sdf(a + (b - a) * (i as f32 / 4000.0), center, rot, half))
                .fold(f32::INFINITY, f32::min);
            match vs_box(a, b, r, center, Mat3::from_quat(rot), half) {
                Some((s, n, depth)) => {
                    let found = r - depth;
                    assert!(found <= sampled + 1e-5, "found {found}, sampled {sampled}");
                    assert!((found - box_sdf(a + (b - a) * s, center, rot, half)).abs() < 1e-5);
                    assert!((n.length() - 1.0).abs() < 1e-5 && depth > 0.0);
                    hits += 1;
                }
                None => assert!(sampled >= r - 1e-5, "missed: sampled {sampled} < {r}"),
            }
        }
        assert!(hits > 100, "{hits} contacts");
    }

    /// The exact least distance of a segment outside a box lands where the
    /// golden-section search does: the same distance to 1e-6 m, and on a
    /// stick lying along a face (a flat stretch) the same middle.
    #[test]
    fn outside_a_box_the_exact_minimum_is_the_searched_one() {
        let mut rng = Rng(9);
        let (mut exact, mut flat) = (0, 0);
        for k in 0..4000 {
            let half = (rng.vec().abs() * 0.5).max(Vec3::splat(0.005));
            let (mut qa, mut qb) = (rng.vec() * 0.9, rng.vec() * 0.9);
            if k % 4 == 0 {
                // Lying on the top face, 1 cm above it, part of it past an edge.
                (qa.y, qb.y) = (half.y + 0.01, half.y + 0.01);
            }
            let qab = qb - qa;
            let Some(s) = outside_box(qa, qab, half, 0.0, 1.0) else { continue };
            let searched = minimise(|s| box_distance(qa + qab * s, half).0, 0.0, 1.0);
            let (d, d_searched) = (box_distance(qa + qab * s, half).0, box_distance(qa + qab * searched, half).0);
            assert!(d <= d_searched + 1e-6, "{qa} {qb} {half}: {d} at {s} against {d_searched} at {searched}");
            assert!((d - d_searched).abs() < 1e-6, "{qa} {qb} {half}: {d} against {d_searched}");
            exact += 1;
            if k % 4 == 0 && d < 0.0101 {
                // The middle of the stretch over the face: within the
                // bisection's 2^-20 at each end of it.
                assert!((s - searched).abs() < 1e-5, "{qa} {qb} {half}: s {s} against {searched}");
                flat += 1;
            }
        }
        println!("{exact} outside, {flat} along a face");
        assert!(exact > 2000 && flat > 200, "{exact} outside, {flat} along a face");
    }

    #[test]
    fn hull_contacts_match_the_box_and_find_the_deepest_point() {
        let half = Vec3::new(0.2, 0.005, 0.3);
        let corners: Vec<Vec3> = (0..8)
            .map(|k| half * Vec3::new([-1.0, 1.0][k & 1], [-1.0, 1.0][(k >> 1) & 1], [-1.0, 1.0][k >> 2]))
            .collect();
        let hull = ConvexHull::from_points(&corners).unwrap();
        let mut rng = Rng(6);
        let mut hits = 0;
        for _ in 0..300 {
            let (a, b, r) = (rng.vec() * 0.5, rng.vec() * 0.5, 0.02 * rng.next().abs());
            let boxed = vs_box(a, b, r, Vec3::ZERO, Mat3::IDENTITY, half);
            let hulled = vs_convex(a, b, r, &hull);
            assert_eq!(boxed.is_some(), hulled.is_some(), "{a} {b} {r}: {boxed:?} vs {hulled:?}");
            if let (Some(x), Some(y)) = (boxed, hulled) {
                assert!((x.2 - y.2).abs() < 1e-5, "{x:?} vs {y:?}");
                hits += 1;
            }
        }
        assert!(hits > 50, "{hits} contacts");
        // A random hull, against samples of its own signed distance.
        let cloud: Vec<Vec3> = (0..60).map(|_| rng.vec() * Vec3::new(0.3, 0.1, 0.4)).collect();
        let hull = ConvexHull::from_points(&cloud).unwrap();
        let mut hits = 0;
        for _ in 0..200 {
            let (a, b, r) = (rng.vec() * 0.6, rng.vec() * 0.6, 0.02 * rng.next().abs());
            let sampled = (0..=2000)
                .map(|i| hull.signed_distance(a + (b - a) * (i as f32 / 2000.0)).0)
                .fold(f32::INFINITY, f32::min);
            match vs_convex(a, b, r, &hull) {
                Some((_, _, depth)) => {
                    assert!(r - depth <= sampled + 1e-5);
                    hits += 1;
                }
                None => assert!(sampled >= r - 1e-5),
            }
        }
        assert!(hits > 50, "{hits} contacts");
    }

    #[test]
    fn barycentric_push_moves_the_contact_point_by_exactly_d() {
        let d = Vec3::new(0.1, -0.2, 0.05);
        for (s, w1, w2) in [
            (0.5, 1.0, 1.0),
            (0.3, 1.0, 2.0),
            (0.9, 0.5, 0.0),
            (0.2, 0.0, 1.0),
            (0.0, 1.0, 1.0),
            (1.0, 1.0, 1.0),
            (0.7, 3.0, 0.25),
        ] {
            let (dx1, dx2) = barycentric_push(s, w1, w2, d);
            let moved = dx1 * (1.0 - s) + dx2 * s;
            assert!(moved.distance(d) < 1e-6, "s {s} w {w1} {w2}: {moved}");
            // A pinned end stays.
            assert!((w1 > 0.0 || dx1 == Vec3::ZERO) && (w2 > 0.0 || dx2 == Vec3::ZERO));
        }
        // Equal masses: the article's lambda = 1 / (c1^2 + c2^2).
        let (dx1, dx2) = barycentric_push(0.25, 1.0, 1.0, d);
        let lambda = 1.0 / (0.75f32 * 0.75 + 0.25 * 0.25);
        assert!(dx1.distance(d * 0.75 * lambda) < 1e-6 && dx2.distance(d * 0.25 * lambda) < 1e-6);
        // Nothing can move: both ends pinned, or the contact on a pinned end.
        assert_eq!(barycentric_push(0.5, 0.0, 0.0, d), (Vec3::ZERO, Vec3::ZERO));
        assert_eq!(barycentric_push(0.0, 0.0, 1.0, d), (Vec3::ZERO, Vec3::ZERO));
    }
}
