//! One triangle `[a, b, c]` as a collider piece, for meshes and heightfields:
//! closest point (Ericson, "Real-Time Collision Detection" 5.1.5), ray
//! intersection (Moeller and Trumbore, "Fast, Minimum Storage Ray/Triangle
//! Intersection", 1997), and the projection contacts of a particle and of a
//! stick (a capsule between two particles).
//!
//! A triangle has no inside, so a contact cannot be read from where a particle
//! is alone: one that crossed the triangle during the substep is caught from
//! where it started (`start`) and pushed back to the side it came from,
//! Jakobsen's projection made continuous along the substep's motion. The front
//! is the side of the winding normal `(b - a) x (c - a)`. A heightfield's
//! triangles are one-sided (solid behind): the push is always to the front.

use super::segment::closest_segment_segment;
use super::{ball_contact, closest_on_segment};
use glam::Vec3;

/// Twice the area over the longest edge squared (the height over the longest
/// edge, relative) below which a triangle is degenerate: f32 cross products
/// carry a relative error near 1e-7, so a thinner normal is noise.
const DEGENERATE: f32 = 1e-6;

/// How far behind a two-sided surface a particle may start and still count on
/// its front: a particle resting on it with `r = 0` sits at `s = 0 +- rounding`.
const SIDE_BIAS: f32 = 1e-4;

/// Crossing tests reach at least this far beyond a triangle's edges, as a
/// fraction of its longest edge and at most [`MAX_EDGE_MARGIN`] metres, so a
/// particle crossing exactly over an edge shared by two triangles is caught
/// by at least one of them despite rounding. (An absolute 1 mm reached over
/// a whole millimetre-scale scene: a bone pushed onto the plane of a cloth
/// triangle it was beside, through the ground.)
const EDGE_MARGIN: f32 = 1e-3;

/// The edge margin of triangles longer than 1 m (metres).
const MAX_EDGE_MARGIN: f32 = 1e-3;

/// How far crossing tests reach beyond the edges of `t` for a body of
/// radius `r`.
fn edge_margin(t: &[Vec3; 3], r: f32) -> f32 {
    r.max(edge_reach(t))
}

/// How far beyond its edges a triangle's tests reach besides the radius
/// (see [`edge_margin`]).
pub(crate) fn edge_reach(t: &[Vec3; 3]) -> f32 {
    let [a, b, c] = *t;
    let longest2 = (b - a).length_squared().max((c - a).length_squared()).max((c - b).length_squared());
    MAX_EDGE_MARGIN.min(EDGE_MARGIN * longest2.sqrt())
}

/// The unit normal of the winding, `(b - a) x (c - a)` normalised; zero for a
/// degenerate (zero-area, collinear or sliver below [`DEGENERATE`]) triangle.
pub fn normal(t: &[Vec3; 3]) -> Vec3 {
    let [a, b, c] = *t;
    let (ab, ac, bc) = (b - a, c - a, c - b);
    let scale2 = ab.length_squared().max(ac.length_squared()).max(bc.length_squared());
    if scale2 == 0.0 || !scale2.is_finite() {
        return Vec3::ZERO;
    }
    // Divided before squaring: |ab x ac|^2 of a 1e15 m triangle overflows f32.
    let m = ab.cross(ac) / scale2;
    let len = m.length();
    if len > DEGENERATE { m / len } else { Vec3::ZERO }
}

/// The point of the triangle closest to `p`.
///
/// Ericson 5.1.5 by its direct method: project on the plane, keep the
/// projection if it is inside, else take the nearest of the three edges. The
/// optimised Voronoi-region form computes barycentrics from differences of
/// dot products, which cancel catastrophically on slivers; the edge tests here
/// are signed areas against the unit normal. A degenerate triangle is its
/// edges.
pub fn closest_point(p: Vec3, t: &[Vec3; 3]) -> Vec3 {
    let n = normal(t);
    if n == Vec3::ZERO {
        return closest_on_edges(p, t);
    }
    closest_in_plane(p - n * n.dot(p - t[0]), t, n)
}

/// The point of the triangle closest to `q`, a point of its plane; `n` is the
/// triangle's unit normal. (For `p` off the plane, the edge point nearest to
/// its projection is also the one nearest to `p`, by Pythagoras.)
fn closest_in_plane(q: Vec3, t: &[Vec3; 3], n: Vec3) -> Vec3 {
    let [a, b, c] = *t;
    let inside =
        n.dot((b - a).cross(q - a)) >= 0.0 && n.dot((c - b).cross(q - b)) >= 0.0 && n.dot((a - c).cross(q - c)) >= 0.0;
    if inside { q } else { closest_on_edges(q, t) }
}

/// The nearest point to `p` on the three edges, first edge first on ties.
fn closest_on_edges(p: Vec3, t: &[Vec3; 3]) -> Vec3 {
    let mut best = t[0];
    let mut best_d2 = f32::INFINITY;
    for k in 0..3 {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let ab = b - a;
        let len2 = ab.length_squared();
        let c = closest_on_segment(p, a, ab, if len2 > 0.0 { 1.0 / len2 } else { 0.0 });
        let d2 = (p - c).length_squared();
        if d2 < best_d2 {
            (best, best_d2) = (c, d2);
        }
    }
    best
}

/// Is `q` (a point of the plane) within `margin` of the triangle?
fn within(q: Vec3, t: &[Vec3; 3], n: Vec3, margin: f32) -> bool {
    (closest_in_plane(q, t, n) - q).length_squared() <= margin * margin
}

/// +1 for the front, -1 for the back: the side a particle that starts at
/// signed distance `s0` belongs to. Biased to the front by half the radius so a
/// particle resting on the surface never flips.
#[inline]
fn side(s0: f32, r: f32, one_sided: bool) -> f32 {
    if one_sided || s0 > -(0.5 * r + SIDE_BIAS) { 1.0 } else { -1.0 }
}

/// The contact of a particle of radius `r >= 0`, now at `p` and at `start` when
/// the substep began, with the triangle: the unit push direction and the depth
/// (> 0) that move it out, or `None`.
///
/// The particle belongs to the side `start` is on (the front if `one_sided`).
/// On that side it touches when closer than `r`; on the other side it is
/// pushed back through the plane when its path crossed the triangle, or when it
/// is over the triangle and could have come through this substep (always, if
/// `one_sided`: solid behind).
#[cfg(test)]
pub fn point_contact(p: Vec3, start: Vec3, r: f32, t: &[Vec3; 3], one_sided: bool) -> Option<(Vec3, f32)> {
    point_contact_with_normal(p, start, r, t, normal(t), one_sided)
}

/// [`point_contact`] with the triangle's [`normal`] already known (meshes
/// keep theirs).
#[inline]
pub fn point_contact_with_normal(
    p: Vec3,
    start: Vec3,
    r: f32,
    t: &[Vec3; 3],
    n: Vec3,
    one_sided: bool,
) -> Option<(Vec3, f32)> {
    if n == Vec3::ZERO {
        // No plane, no sides: a segment (or a point) with thickness r.
        return ball_contact(p, closest_on_edges(p, t), r, Vec3::Y);
    }
    let a = t[0];
    let (s0, s1) = (n.dot(start - a), n.dot(p - a));
    let sigma = side(s0, r, one_sided);
    let out = n * sigma;
    if sigma * s1 >= r {
        // Farther from the plane than r: farther from the triangle too.
        return None;
    }
    if sigma * s1 >= 0.0 {
        return ball_contact(p, closest_in_plane(p - n * s1, t, n), r, out);
    }
    let margin = edge_margin(t, r);
    // Where start->p meets the plane; a start already behind (within the
    // bias) is its own crossing point.
    let u = if sigma * s0 > 0.0 { s0 / (s0 - s1) } else { 0.0 };
    let x = start + (p - start) * u;
    let crossed = within(x - n * n.dot(x - a), t, n, margin);
    let over = within(p - n * s1, t, n, margin) && (one_sided || s1.abs() <= r + (p - start).length());
    (crossed || over).then_some((out, r - sigma * s1))
}

/// The contact of a stick (a capsule of radius `r`) between particles now at
/// `a`, `b` and at `a0`, `b0` when the substep began: `(s, dir, depth)`, such
/// that moving the stick's point `a + s (b - a)` by `dir * depth` resolves it.
///
/// The stick belongs to the side its midpoint started on. When it is through
/// the triangle, it is pushed back along the normal from its deepest wrong-side
/// end over the triangle, else from where it crosses the plane, else (both ends
/// behind, beyond the edges, the stick spanning the triangle) from the deepest
/// point over it. Otherwise it touches when the segment comes within `r`.
pub fn segment_contact(
    a: Vec3,
    b: Vec3,
    a0: Vec3,
    b0: Vec3,
    r: f32,
    t: &[Vec3; 3],
    one_sided: bool,
) -> Option<(f32, Vec3, f32)> {
    let n = normal(t);
    if n == Vec3::ZERO {
        return segment_closest(a, b, t, r, Vec3::Y);
    }
    let sigma = side(n.dot((a0 + b0) * 0.5 - t[0]), r, one_sided);
    segment_contact_on_side(a, b, a0, b0, r, t, n, sigma, one_sided)
}

/// [`segment_contact`] with the triangle's unit [`normal`] `n` (not zero)
/// and the side the stick belongs to (`sigma`, +1 for the front, -1 for the
/// back) already known: a moving triangle's (a cloth's) side is kept for a
/// whole step, as its plane turns under the stick.
#[allow(clippy::too_many_arguments)] // a stick's two ends twice, then the triangle
pub fn segment_contact_on_side(
    a: Vec3,
    b: Vec3,
    a0: Vec3,
    b0: Vec3,
    r: f32,
    t: &[Vec3; 3],
    n: Vec3,
    sigma: f32,
    one_sided: bool,
) -> Option<(f32, Vec3, f32)> {
    let o = t[0];
    let out = n * sigma;
    // Signed distances, positive on the stick's side.
    let (sa, sb) = (sigma * n.dot(a - o), sigma * n.dot(b - o));
    let margin = edge_margin(t, r);
    let reach = |sx: f32, x: Vec3, x0: Vec3| one_sided || -sx <= r + (x - x0).length();

    let mut deepest: Option<(f32, f32)> = None;
    for (u, x, x0, sx) in [(0.0, a, a0, sa), (1.0, b, b0, sb)] {
        if sx < 0.0 && deepest.is_none_or(|(_, d)| sx < d) && reach(sx, x, x0) && within(x - out * sx, t, n, margin) {
            deepest = Some((u, sx));
        }
    }
    if let Some((u, sx)) = deepest {
        return Some((u, out, r - sx));
    }

    if (sa < 0.0) != (sb < 0.0) {
        let u = sa / (sa - sb);
        let x = a + (b - a) * u;
        let q = x - n * n.dot(x - o);
        let c = closest_in_plane(q, t, n);
        let e2 = (c - q).length_squared();
        if e2 <= margin * margin {
            // Crossing beyond an edge (inside the margin only): a stick lying
            // across the edge of a thin wall rests on that edge. Its contact
            // wins over a push through the plane, which would shove it off to
            // one side, when clear (farther than r / 10: a direction, not noise).
            if e2 > 0.0 {
                let edge = segment_closest(a, b, t, r, out);
                if edge.is_some_and(|(_, _, depth)| depth < 0.9 * r) {
                    return edge;
                }
            }
            let depth = r - sigma * n.dot(x - o);
            if depth > 0.0 {
                return Some((u, out, depth));
            }
        }
    }

    if sa < 0.0 && sb < 0.0 {
        // Both ends behind and beyond the edges, yet the stick may span the
        // triangle (a long stick falling flat across a thin beam): clip its
        // shadow on the plane by the edges moved out by the margin.
        let (mut u0, mut u1) = (0.0f32, 1.0f32);
        for k in 0..3 {
            let (e0, e1) = (t[k], t[(k + 1) % 3]);
            // Inward in-plane normal of the edge (n x edge points inside).
            let m = n.cross(e1 - e0).normalize_or_zero();
            let (f0, df) = (m.dot(a - e0) + margin, m.dot(b - a));
            if df.abs() <= f32::MIN_POSITIVE {
                if f0 < 0.0 {
                    return segment_closest(a, b, t, r, out);
                }
            } else if df > 0.0 {
                u0 = u0.max(-f0 / df);
            } else {
                u1 = u1.min(-f0 / df);
            }
        }
        if u0 <= u1 {
            let (xa, xb) = (a + (b - a) * u0, a + (b - a) * u1);
            let (s0, s1) = (sigma * n.dot(xa - o), sigma * n.dot(xb - o));
            let (u, x, sx) = if s1 < s0 { (u1, xb, s1) } else { (u0, xa, s0) };
            if reach(sx, x, a0 + (b0 - a0) * u) {
                return Some((u, out, r - sx));
            }
        }
    }
    segment_closest(a, b, t, r, out)
}

/// Segment against triangle by closest points (the segment does not pierce
/// the triangle): the least of segment-edge and end-triangle distances,
/// a contact when under `r`. `(s, dir, depth)` as [`segment_contact`].
fn segment_closest(a: Vec3, b: Vec3, t: &[Vec3; 3], r: f32, fallback: Vec3) -> Option<(f32, Vec3, f32)> {
    let mut best = (f32::INFINITY, 0.0, Vec3::ZERO);
    for k in 0..3 {
        let (s, _, ps, pt) = closest_segment_segment(a, b, t[k], t[(k + 1) % 3]);
        let d = ps - pt;
        if d.length_squared() < best.0 {
            best = (d.length_squared(), s, d);
        }
    }
    for (s, x) in [(0.0, a), (1.0, b)] {
        let d = x - closest_point(x, t);
        if d.length_squared() < best.0 {
            best = (d.length_squared(), s, d);
        }
    }
    let (d2, s, d) = best;
    if d2 >= r * r {
        return None;
    }
    let dist = d2.sqrt();
    let dir = if dist > 1e-12 { d / dist } else { fallback };
    Some((s, dir, r - dist))
}

/// Ray `origin + t dir`, `t` in `[0, max_t]`, against both faces (Moeller and
/// Trumbore 1997): `t` in units of `|dir|` and the unit normal facing the
/// ray's origin. A ray within 1e-7 rad of the plane misses.
pub fn ray(origin: Vec3, dir: Vec3, max_t: f32, t: &[Vec3; 3]) -> Option<(f32, Vec3)> {
    let [a, b, c] = *t;
    let (e1, e2) = (b - a, c - a);
    let pv = dir.cross(e2);
    let det = e1.dot(pv);
    // det = -dir . (e1 x e2): relative to both lengths it is the cosine.
    let nn = e1.cross(e2);
    if det.abs() <= 1e-7 * dir.length() * nn.length() || det.is_nan() {
        return None;
    }
    let inv = 1.0 / det;
    let sv = origin - a;
    let u = sv.dot(pv) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let qv = sv.cross(e1);
    let v = dir.dot(qv) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let hit = e2.dot(qv) * inv;
    if !(0.0..=max_t).contains(&hit) {
        return None;
    }
    let n = nn.normalize();
    Some((hit, if n.dot(dir) > 0.0 { -n } else { n }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::collision::test_rng::Lcg;

    /// Floor-like triangle at y = 0, front +Y.
    const FLOOR: [Vec3; 3] = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 2.0), Vec3::new(2.0, 0.0, 0.0)];

    fn close(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    #[test]
    fn normal_follows_winding_and_is_zero_when_degenerate() {
        assert_eq!(normal(&FLOOR), Vec3::Y);
        assert_eq!(normal(&[FLOOR[0], FLOOR[2], FLOOR[1]]), -Vec3::Y);
        let line = [Vec3::ZERO, Vec3::X, Vec3::X * 3.0];
        assert_eq!(normal(&line), Vec3::ZERO);
        assert_eq!(normal(&[Vec3::ONE; 3]), Vec3::ZERO);
        // Height 1e-8 over a 1 m edge: below the f32 noise floor.
        assert_eq!(normal(&[Vec3::ZERO, Vec3::X, Vec3::new(0.5, 1e-8, 0.0)]), Vec3::ZERO);
        // Height 1e-4: thin but real.
        assert!(close(normal(&[Vec3::ZERO, Vec3::X, Vec3::new(0.5, 1e-4, 0.0)]), Vec3::Z, 1e-6));
        // Huge triangles do not overflow.
        let big = [Vec3::splat(-1e15), Vec3::new(1e15, -1e15, -1e15), Vec3::new(-1e15, -1e15, 1e15)];
        assert!(close(normal(&big), -Vec3::Y, 1e-6));
    }

    #[test]
    fn closest_point_by_region() {
        let t = FLOOR;
        // Face, vertices, edges.
        assert_eq!(closest_point(Vec3::new(0.5, 3.0, 0.5), &t), Vec3::new(0.5, 0.0, 0.5));
        assert_eq!(closest_point(Vec3::new(-1.0, 1.0, -1.0), &t), t[0]);
        assert_eq!(closest_point(Vec3::new(3.0, -1.0, -0.5), &t), t[2]);
        assert_eq!(closest_point(Vec3::new(-0.1, 0.0, 3.0), &t), t[1]);
        assert_eq!(closest_point(Vec3::new(1.0, 2.0, -4.0), &t), Vec3::new(1.0, 0.0, 0.0));
        assert!(close(closest_point(Vec3::new(2.0, 0.0, 2.0), &t), Vec3::new(1.0, 0.0, 1.0), 1e-6));
    }

    #[test]
    fn closest_point_is_no_farther_than_any_sample() {
        let mut rng = Lcg(7);
        for _ in 0..300 {
            let t = [rng.centered(2.0), rng.centered(2.0), rng.centered(2.0)];
            let p = rng.centered(3.0);
            let c = closest_point(p, &t);
            let d = (p - c).length();
            // c lies on the triangle: its distance to the triangle's plane and its
            // barycentric coordinates.
            let n = normal(&t);
            assert!(n.dot(c - t[0]).abs() < 1e-4);
            for i in 0..=40 {
                for j in 0..=(40 - i) {
                    let (u, v) = (i as f32 / 40.0, j as f32 / 40.0);
                    let q = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                    assert!(d <= (p - q).length() + 1e-4, "{p} {t:?}: {c} beaten by {q}");
                }
            }
        }
    }

    #[test]
    fn closest_point_on_degenerate_and_sliver_triangles() {
        // Collinear, with the far vertex last: the closest point is on a-c.
        let line = [Vec3::ZERO, Vec3::X, Vec3::X * 3.0];
        assert_eq!(closest_point(Vec3::new(2.0, 1.0, 0.0), &line), Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(closest_point(Vec3::new(5.0, 0.0, 0.0), &line), Vec3::X * 3.0);
        let point = [Vec3::ONE; 3];
        assert_eq!(closest_point(Vec3::ZERO, &point), Vec3::ONE);
        // A 1000:1e-2 sliver: results finite and on the triangle.
        let sliver = [Vec3::ZERO, Vec3::new(1000.0, 0.0, 0.0), Vec3::new(500.0, 1e-2, 0.0)];
        for p in [Vec3::new(400.0, 0.5, 0.2), Vec3::new(400.0, -0.5, 0.2), Vec3::new(500.0, 0.0005, 1.0)] {
            let c = closest_point(p, &sliver);
            assert!(c.is_finite());
            assert!(c.y >= -1e-6 && c.y <= 1e-2 + 1e-6 && c.z.abs() < 1e-4, "{c}");
            assert!((c.x - p.x).abs() < 1e-2, "{c}");
        }
    }

    #[test]
    fn point_touching_from_either_side() {
        let r = 0.1;
        // 0.06 above the face: pushed up by 0.04.
        let p = Vec3::new(0.5, 0.06, 0.5);
        let (dir, depth) = point_contact(p, p, r, &FLOOR, false).unwrap();
        assert_eq!(dir, Vec3::Y);
        assert!((depth - 0.04).abs() < 1e-6);
        // The same below a two-sided triangle: pushed down.
        let (dir, depth) = point_contact(-p, -p, r, &[-FLOOR[0], -FLOOR[1], -FLOOR[2]], false).unwrap();
        assert_eq!(dir, -Vec3::Y);
        assert!((depth - 0.04).abs() < 1e-6);
        // Beside an edge: pushed away from the edge, not along the normal.
        let p = Vec3::new(1.0, 0.05, -0.05);
        let (dir, depth) = point_contact(p, p, r, &FLOOR, false).unwrap();
        assert!(close(dir, Vec3::new(0.0, 1.0, -1.0).normalize(), 1e-5));
        assert!((depth - (0.1 - 0.05 * 2f32.sqrt())).abs() < 1e-6);
        // Out of reach.
        assert!(point_contact(Vec3::new(0.5, 0.2, 0.5), Vec3::new(0.5, 0.2, 0.5), r, &FLOOR, false).is_none());
        assert!(point_contact(Vec3::new(3.0, -0.05, 3.0), Vec3::new(3.0, 0.05, 3.0), r, &FLOOR, false).is_none());
    }

    #[test]
    fn point_tunnelling_at_200_m_per_s_is_pushed_back() {
        // 0.4 m in one 2 ms substep; both sides of a two-sided triangle.
        for (start, p, up) in [(0.2, -0.2, 1.0), (-0.2, 0.2, -1.0)] {
            for r in [0.0, 0.05] {
                let s = Vec3::new(0.4, start, 0.3);
                let x = Vec3::new(0.5, p, 0.4);
                let (dir, depth) = point_contact(x, s, r, &FLOOR, false).unwrap();
                assert_eq!(dir, Vec3::Y * up);
                let moved = x + dir * depth;
                assert!((moved.y - up * r).abs() < 1e-6, "{moved}");
            }
        }
    }

    #[test]
    fn point_crossing_a_shared_edge_is_caught() {
        // Two triangles sharing the diagonal x = z of a quad.
        let quad = [
            [Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0)],
            [Vec3::ZERO, Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 0.0)],
        ];
        let mut rng = Lcg(3);
        for _ in 0..200 {
            let u = rng.next();
            let e = rng.next() * 1e-6 - 0.5e-6;
            let start = Vec3::new(u + e, 0.3, u);
            let p = Vec3::new(u, -0.3, u - e);
            for r in [0.0, 0.02] {
                let hits = quad.iter().filter(|t| point_contact(p, start, r, t, false).is_some()).count();
                assert!(hits >= 1, "{start} -> {p}");
            }
        }
    }

    #[test]
    fn resting_particle_with_zero_radius_never_flips() {
        // Rounding left it 5e-5 behind the front face: stays on the front.
        let p = Vec3::new(0.5, -5e-5, 0.5);
        let (dir, depth) = point_contact(p, p, 0.0, &FLOOR, false).unwrap();
        assert_eq!(dir, Vec3::Y);
        assert!((depth - 5e-5).abs() < 1e-9);
        // Exactly on the surface: no contact, no flip.
        let p = Vec3::new(0.5, 0.0, 0.5);
        assert!(point_contact(p, p, 0.0, &FLOOR, false).is_none());
        // Really behind (beyond the bias), still: belongs to the back, at rest.
        let p = Vec3::new(0.5, -0.3, 0.5);
        assert!(point_contact(p, p, 0.0, &FLOOR, false).is_none());
    }

    #[test]
    fn one_sided_pushes_to_the_front_from_any_depth() {
        let p = Vec3::new(0.5, -10.0, 0.5);
        let (dir, depth) = point_contact(p, p, 0.05, &FLOOR, true).unwrap();
        assert_eq!(dir, Vec3::Y);
        assert!((depth - 10.05).abs() < 1e-5);
        // Two-sided, the same particle at rest belongs to the back.
        assert!(point_contact(p, p, 0.05, &FLOOR, false).is_none());
        // Behind but beside the triangle (beyond the margin): nothing.
        let p = Vec3::new(-0.5, -0.5, -0.5);
        assert!(point_contact(p, p, 0.05, &FLOOR, true).is_none());
    }

    #[test]
    fn stick_falling_flat_through_is_pushed_back_from_its_deepest_end() {
        let r = 0.02;
        let (a0, b0) = (Vec3::new(0.2, 0.3, 0.2), Vec3::new(0.8, 0.2, 0.2));
        let (a, b) = (Vec3::new(0.2, -0.1, 0.2), Vec3::new(0.8, -0.2, 0.2));
        let (s, dir, depth) = segment_contact(a, b, a0, b0, r, &FLOOR, false).unwrap();
        assert_eq!((s, dir), (1.0, Vec3::Y));
        assert!((depth - 0.22).abs() < 1e-6);
    }

    #[test]
    fn stick_piercing_is_pushed_from_the_crossing_point() {
        let r = 0.02;
        // End b goes through near the edge z = 0 and comes out beyond it.
        let (a0, b0) = (Vec3::new(0.5, 0.5, 0.5), Vec3::new(0.5, 0.1, -0.1));
        let (a, b) = (Vec3::new(0.5, 0.3, 0.5), Vec3::new(0.5, -0.1, -0.1));
        let (s, dir, depth) = segment_contact(a, b, a0, b0, r, &FLOOR, false).unwrap();
        assert_eq!(dir, Vec3::Y);
        assert!((s - 0.75).abs() < 1e-6 && (depth - r).abs() < 1e-6, "{s} {depth}");
    }

    #[test]
    fn long_stick_falling_across_a_thin_beam_is_caught() {
        // A 0.1 m wide beam along z; the stick spans it along x, both ends beyond.
        let beam = [Vec3::new(-0.05, 0.0, -1.0), Vec3::new(-0.05, 0.0, 1.0), Vec3::new(0.05, 0.0, -1.0)];
        let (a0, b0) = (Vec3::new(-1.0, 0.3, -0.5), Vec3::new(1.0, 0.2, -0.5));
        let (a, b) = (Vec3::new(-1.0, -0.1, -0.5), Vec3::new(1.0, -0.2, -0.5));
        let (s, dir, depth) = segment_contact(a, b, a0, b0, 0.01, &beam, false).unwrap();
        assert_eq!(dir, Vec3::Y);
        // The deepest point over the beam widened by the margin (r): where the
        // slanted edge, moved out by 0.01, crosses z = -0.5, at x = 0.0350125.
        assert!((s - 0.517_506).abs() < 1e-4, "{s}");
        let y = a.y + (b.y - a.y) * s;
        assert!((depth - (0.01 - y)).abs() < 1e-6);
    }

    #[test]
    fn stick_reaching_around_an_edge_is_pushed_only_if_its_end_came_through() {
        // a in front beside the triangle, b behind under it, joined round the
        // edge x + z = 2 (0.3 m under it at the closest).
        let (a, b) = (Vec3::new(3.0, 0.5, 3.0), Vec3::new(0.5, -0.5, 0.5));
        assert!(segment_contact(a, b, a, b, 0.05, &FLOOR, false).is_none());
        // The same b having just come down through the face: pushed back up.
        let b0 = Vec3::new(0.5, 0.1, 0.5);
        let (s, dir, depth) = segment_contact(a, b, a, b0, 0.05, &FLOOR, false).unwrap();
        assert_eq!((s, dir), (1.0, Vec3::Y));
        assert!((depth - 0.55).abs() < 1e-6);
    }

    #[test]
    fn stick_touching_an_edge_or_face() {
        let r = 0.05;
        // Across the edge z = 0 at 0.03 below it and beside: pushed away from the edge.
        let (a, b) = (Vec3::new(0.0, -0.03, -0.03), Vec3::new(2.0, -0.03, -0.03));
        let (s, dir, depth) = segment_contact(a, b, a, b, r, &FLOOR, false).unwrap();
        assert!((0.0..=1.0).contains(&s));
        assert!(close(dir, Vec3::new(0.0, -1.0, -1.0).normalize(), 1e-5), "{dir}");
        assert!((depth - (r - 0.03 * 2f32.sqrt())).abs() < 1e-6);
        // Hovering 0.04 above the face: pushed up by 0.01 from an end.
        let (a, b) = (Vec3::new(0.2, 0.04, 0.2), Vec3::new(0.6, 0.04, 0.6));
        let (_, dir, depth) = segment_contact(a, b, a, b, r, &FLOOR, false).unwrap();
        assert_eq!(dir, Vec3::Y);
        assert!((depth - 0.01).abs() < 1e-6);
        // Clear of it.
        let (a, b) = (Vec3::new(0.2, 0.06, 0.2), Vec3::new(0.6, 0.2, 0.6));
        assert!(segment_contact(a, b, a, b, r, &FLOOR, false).is_none());
    }

    #[test]
    fn stick_draped_over_a_thin_wall_rests_on_its_top_edge() {
        // A vertical two-sided wall in the plane x = 0, top edge at y = 1.
        let wall = [Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 1.0, 0.0)];
        let top = [Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, -1.0)];
        let r = 0.05;
        for t in [&wall, &top] {
            let (a, b) = (Vec3::new(-0.5, 1.03, 0.0), Vec3::new(0.6, 1.03, 0.0));
            let (s, dir, depth) = segment_contact(a, b, a, b, r, t, false).unwrap();
            assert!(close(dir, Vec3::Y, 1e-5), "{dir}");
            assert!((depth - 0.02).abs() < 1e-5 && (s - 0.5 / 1.1).abs() < 1e-4, "{s} {depth}");
        }
    }

    #[test]
    fn one_sided_stick_below_is_pushed_up() {
        let (a, b) = (Vec3::new(0.2, -3.0, 0.2), Vec3::new(0.6, -2.0, 0.6));
        let (s, dir, depth) = segment_contact(a, b, a, b, 0.01, &FLOOR, true).unwrap();
        assert_eq!((s, dir), (0.0, Vec3::Y));
        assert!((depth - 3.01).abs() < 1e-5);
        assert!(segment_contact(a, b, a, b, 0.01, &FLOOR, false).is_none());
    }

    #[test]
    fn ray_hits_both_faces_with_the_normal_facing_the_origin() {
        let (t, n) = ray(Vec3::new(0.5, 2.0, 0.5), Vec3::new(0.0, -2.0, 0.0), 10.0, &FLOOR).unwrap();
        assert_eq!((t, n), (1.0, Vec3::Y));
        let (t, n) = ray(Vec3::new(0.5, -3.0, 0.5), Vec3::Y, 10.0, &FLOOR).unwrap();
        assert_eq!((t, n), (3.0, -Vec3::Y));
        // Beyond max_t, behind the origin, beside, parallel, degenerate.
        assert!(ray(Vec3::new(0.5, -3.0, 0.5), Vec3::Y, 2.9, &FLOOR).is_none());
        assert!(ray(Vec3::new(0.5, 1.0, 0.5), Vec3::Y, 10.0, &FLOOR).is_none());
        assert!(ray(Vec3::new(1.5, 1.0, 1.5), -Vec3::Y, 10.0, &FLOOR).is_none());
        assert!(ray(Vec3::new(-1.0, 0.0, 0.5), Vec3::X, 10.0, &FLOOR).is_none());
        assert!(ray(Vec3::new(1.5, 1.0, 0.0), -Vec3::Y, 10.0, &[Vec3::ZERO, Vec3::X, Vec3::X * 2.0]).is_none());
    }

    #[test]
    fn ray_agrees_with_closest_point() {
        // Where the ray says it hits is on the triangle.
        let mut rng = Lcg(11);
        let mut hits = 0;
        for _ in 0..500 {
            let t = [rng.centered(1.0), rng.centered(1.0), rng.centered(1.0)];
            // Aimed near the triangle's centre: most hit, some graze past.
            let o = rng.centered(2.0);
            let d = (t[0] + t[1] + t[2]) / 3.0 + rng.centered(0.5) - o;
            if let Some((h, n)) = ray(o, d, 10.0, &t) {
                hits += 1;
                let x = o + d * h;
                assert!((closest_point(x, &t) - x).length() < 1e-4);
                assert!(n.dot(d) <= 0.0 && (n.length() - 1.0).abs() < 1e-5);
            }
        }
        assert!(hits > 100, "{hits}");
    }
}
