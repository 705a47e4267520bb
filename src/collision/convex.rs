//! Convex hull collider geometry, in the hull's local frame.
//!
//! Built once from at most [`MAX_HULL_POINTS`] points by the incremental
//! algorithm (Ericson, "Real-Time Collision Detection", on computing convex
//! hulls; O'Rourke, "Computational Geometry in C", on hulls in 3D): a starting
//! tetrahedron from extreme points, then each point in input order deletes
//! the triangles it sees and closes the hole with a fan from the horizon.
//! The visibility tests run exactly, in integers on a fine grid: with
//! rounded tests, coplanar points (a box's faces) split the visible region
//! and the mesh folds over itself.
//!
//! Nearly coplanar triangles are then merged into one face (Ericson's chapter
//! on geometrical robustness, coplanar face merging), so a box has 6 planes; each face's polygon is
//! the 2D hull (Andrew's monotone chain) of its vertices, which drops points
//! lying inside a face or on an edge. Queries use the planes (inside: the
//! least-penetrated face) and the faces' polygons, fanned into triangles
//! (outside: the exact closest point, Ericson 5.1.5, on the faces the point
//! is in front of).

use crate::error::{Error, Result, finite_vec};
use glam::{DVec3, Vec3};

/// The most points a hull is built from.
pub const MAX_HULL_POINTS: usize = 256;

/// A point set thinner than this fraction of its size has no volume.
const FLAT_TOLERANCE: f64 = 1e-5;
/// Merging tolerance, as a fraction of the set's size.
const HULL_TOLERANCE: f64 = 1e-6;
/// Grid steps across the set for the exact construction.
const GRID_STEPS: f64 = (1 << 24) as f64;

/// A face for closest points: its plane, and its polygon fanned into
/// triangles whose corners are moved onto the plane, so a merged face is
/// flat. In f64: beside an edge, a vertex and an edge point 1e-4 apart can
/// be as far from `p` to 1e-8; f32 would pick either, turning the direction.
#[derive(Debug, Clone, PartialEq)]
struct Face {
    normal: DVec3,
    offset: f64,
    fan: Vec<[DVec3; 3]>,
}

/// A convex polyhedron: vertices, face planes, face polygons and edges.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Vec3>,
    /// One (unit outward normal n, offset d) per face: inside is `n.x <= d`.
    planes: Vec<(Vec3, f32)>,
    /// Face `k`'s polygon is `loops[face_start[k]..face_start[k + 1]]`,
    /// counter-clockwise seen from outside.
    face_start: Vec<u32>,
    loops: Vec<u16>,
    /// Every edge once, as (lower index, higher index), sorted.
    edges: Vec<[u16; 2]>,
    faces: Vec<Face>,
    lo: Vec3,
    hi: Vec3,
}

/// A triangle of the hull under construction, on the snapped grid: its
/// normal `n` (not unit) and offset `d` are exact integers.
#[derive(Clone, Copy)]
struct BuildFace {
    v: [usize; 3],
    n: [i64; 3],
    d: i128,
    alive: bool,
}

impl BuildFace {
    fn new(q: &[[i64; 3]], a: usize, b: usize, c: usize) -> Self {
        let (e1, e2) = (sub(q[b], q[a]), sub(q[c], q[a]));
        // Components below 2^49: the grid spans 2^24.
        let n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        BuildFace { v: [a, b, c], n, d: dot(n, q[a]), alive: true }
    }

    /// Exactly: is `x` strictly in front of the face's plane?
    fn sees(&self, x: [i64; 3]) -> bool {
        dot(self.n, x) > self.d
    }
}

fn sub(a: [i64; 3], b: [i64; 3]) -> [i64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(n: [i64; 3], x: [i64; 3]) -> i128 {
    (0..3).map(|k| n[k] as i128 * x[k] as i128).sum()
}

impl ConvexHull {
    /// The hull of `points` (local frame). Refuses fewer than 4 or more than
    /// [`MAX_HULL_POINTS`] points, non-finite ones, and sets without volume.
    pub fn from_points(points: &[Vec3]) -> Result<ConvexHull> {
        if points.len() < 4 {
            return Err(Error::invalid_argument(format!(
                "a convex hull needs at least 4 points, got {}",
                points.len()
            )));
        }
        if points.len() > MAX_HULL_POINTS {
            return Err(Error::limit(format!(
                "a convex hull takes at most {MAX_HULL_POINTS} points, got {}",
                points.len()
            )));
        }
        for (i, &p) in points.iter().enumerate() {
            finite_vec(p, &format!("convex hull point {i}"))?;
        }
        let p: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
        let (lo, hi) = p.iter().fold((p[0], p[0]), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let scale = (hi - lo).max_element();
        let max_abs = lo.abs().max(hi.abs()).max_element();
        // The input's own rounding: differences below it carry no information.
        let noise = 4.0 * f32::EPSILON as f64 * max_abs;
        if scale <= 4.0 * noise {
            return Err(Error::invalid_argument(format!(
                "convex hull points are coincident (all within {scale:e} of each other)"
            )));
        }
        let tol = HULL_TOLERANCE * scale + noise;
        let flat = FLAT_TOLERANCE * scale + 10.0 * noise;
        let seed = start_simplex(&p, flat)?;
        // Snapped to a grid of 2^24 steps across the set (the f32 mantissa),
        // the orientation tests are exact in i128, so the hull's topology is
        // always valid, coplanar and repeated points included.
        let step = scale / GRID_STEPS;
        let q: Vec<[i64; 3]> = p.iter().map(|&v| ((v - lo) / step).round().as_i64vec3().to_array()).collect();
        let triangles = grow(&q, seed);
        Ok(Self::from_faces(points, &p, &triangles, tol))
    }

    /// Keeps what the queries need of the merged faces.
    fn from_faces(points: &[Vec3], p: &[DVec3], triangles: &[[usize; 3]], tol: f64) -> ConvexHull {
        let polygons = merge_coplanar(p, triangles, tol);
        // Keep only the points some face polygon uses, in input order.
        let mut used = vec![false; p.len()];
        for (_, _, polygon) in &polygons {
            for &v in polygon {
                used[v] = true;
            }
        }
        let mut index = vec![u16::MAX; p.len()];
        let mut vertices = Vec::new();
        for i in 0..p.len() {
            if used[i] {
                index[i] = vertices.len() as u16;
                vertices.push(points[i]);
            }
        }

        let mut hull = ConvexHull {
            vertices,
            planes: Vec::with_capacity(polygons.len()),
            face_start: vec![0],
            loops: Vec::new(),
            edges: Vec::new(),
            faces: Vec::with_capacity(polygons.len()),
            lo: Vec3::ZERO,
            hi: Vec3::ZERO,
        };
        for (n, on_face, polygon) in &polygons {
            // The offset covers every point merged into the face; the f32
            // plane's is taken along its rounded normal, for the same reason.
            let reach = |n: DVec3| on_face.iter().map(|&v| n.dot(p[v])).fold(f64::NEG_INFINITY, f64::max);
            let (offset, normal) = (reach(*n), n.as_vec3());
            hull.planes.push((normal, reach(normal.as_dvec3()) as f32));
            hull.loops.extend(polygon.iter().map(|&v| index[v]));
            hull.face_start.push(hull.loops.len() as u32);
            for k in 0..polygon.len() {
                let (u, v) = (index[polygon[k]], index[polygon[(k + 1) % polygon.len()]]);
                hull.edges.push([u.min(v), u.max(v)]);
            }
            let flat = |v: usize| p[v] - *n * (n.dot(p[v]) - offset);
            let fan =
                (1..polygon.len() - 1).map(|k| [flat(polygon[0]), flat(polygon[k]), flat(polygon[k + 1])]).collect();
            hull.faces.push(Face { normal: *n, offset, fan });
        }
        hull.edges.sort_unstable();
        hull.edges.dedup();
        let first = hull.vertices[0];
        (hull.lo, hull.hi) = hull.vertices.iter().fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        hull
    }

    /// The hull's corners (each one of the input points).
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// One (unit outward normal n, offset d) per face; inside is `n.x <= d`.
    pub fn planes(&self) -> &[(Vec3, f32)] {
        &self.planes
    }

    /// Face `k`'s polygon: indices into [`Self::vertices`], counter-clockwise
    /// seen from outside.
    pub fn face(&self, k: usize) -> &[u16] {
        &self.loops[self.face_start[k] as usize..self.face_start[k + 1] as usize]
    }

    /// Every edge once, as a pair of vertex indices.
    pub fn edges(&self) -> &[[u16; 2]] {
        &self.edges
    }

    /// The vertex farthest along `dir` (the first one on ties).
    pub fn support(&self, dir: Vec3) -> Vec3 {
        let mut best = self.vertices[0];
        let mut best_dot = best.dot(dir);
        for &v in &self.vertices[1..] {
            let d = v.dot(dir);
            if d > best_dot {
                (best, best_dot) = (v, d);
            }
        }
        best
    }

    /// The hull's axis-aligned bounds (min, max).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        (self.lo, self.hi)
    }

    /// The most positive plane distance and its plane (the first on ties).
    #[inline]
    fn max_plane(&self, p: Vec3) -> (f32, usize) {
        let mut best = (f32::NEG_INFINITY, 0);
        for (k, &(n, d)) in self.planes.iter().enumerate() {
            let s = n.dot(p) - d;
            if s > best.0 {
                best = (s, k);
            }
        }
        best
    }

    /// Exact distance from a point outside (max plane distance `m` > 0, on
    /// plane `k`) to the surface, and the unit direction from it to `p`.
    fn outside(&self, p: Vec3, m: f32, k: usize) -> (f32, Vec3) {
        let p = p.as_dvec3();
        // The closest point lies on a face whose plane `p` is in front of
        // (for a polytope of planes; every other face is skipped). The slack
        // is far above the rounding of `above`, for points on the surface.
        let slack = -1e-12 * (1.0 + p.abs().max_element());
        let mut best = (f64::INFINITY, DVec3::ZERO);
        for face in &self.faces {
            let above = face.normal.dot(p) - face.offset;
            if above < slack {
                continue;
            }
            for &[a, b, c] in &face.fan {
                // Over the face the normal is exact; p - q would lose the
                // digits the two points share.
                let (d2, dir) = match closest_on_triangle(p, a, b, c) {
                    None => (above.max(0.0).powi(2), face.normal),
                    Some(q) => ((p - q).length_squared(), p - q),
                };
                if d2 < best.0 {
                    best = (d2, dir);
                }
            }
        }
        // Rounding can leave no candidate, or one nearer than a plane (a
        // lower bound) allows.
        let dir = best.1.normalize_or_zero().as_vec3();
        if best.0.is_finite() && dir != Vec3::ZERO {
            ((best.0.sqrt() as f32).max(m), dir)
        } else {
            (m, self.planes[k].0)
        }
    }

    /// Signed distance from the surface (negative inside) and the unit
    /// outward direction: inside, the least-penetrated face's normal;
    /// outside, from the closest surface point towards `p`.
    pub fn signed_distance(&self, p: Vec3) -> (f32, Vec3) {
        let (m, k) = self.max_plane(p);
        if m <= 0.0 { (m, self.planes[k].0) } else { self.outside(p, m, k) }
    }

    /// For a point with radius `r`: the outward push direction and the
    /// penetration depth (> 0), as [`super::Shape::contact`].
    pub fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)> {
        let (m, k) = self.max_plane(p);
        // The true distance is at least the largest plane distance.
        if m >= r {
            return None;
        }
        if m <= 0.0 {
            return Some((self.planes[k].0, r - m));
        }
        let (dist, dir) = self.outside(p, m, k);
        (dist < r).then_some((dir, r - dist))
    }

    /// The ray `origin + t * dir` against the hull grown by `r` along its
    /// planes (Cyrus-Beck clipping, Ericson 5.3.8; wider than the rounded
    /// hull at edges, which anti-tunnelling can afford): the entry `t` in
    /// units of `|dir|` and the entry plane's normal. `None` on a miss or
    /// when the origin is already inside.
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32, r: f32) -> Option<(f32, Vec3)> {
        let (mut t_enter, mut t_exit) = (f32::NEG_INFINITY, max_t);
        let mut entry = usize::MAX;
        let mut inside = true;
        for (k, &(n, d)) in self.planes.iter().enumerate() {
            let dist = n.dot(origin) - (d + r);
            let denom = n.dot(dir);
            inside &= dist < 0.0;
            if denom < 0.0 {
                let t = dist / -denom;
                if t > t_enter {
                    (t_enter, entry) = (t, k);
                }
            } else if denom > 0.0 {
                t_exit = t_exit.min(-dist / denom);
            } else if dist > 0.0 {
                return None;
            }
        }
        if inside || entry == usize::MAX || t_enter < 0.0 || t_enter > t_exit {
            return None;
        }
        Some((t_enter, self.planes[entry].0))
    }

    /// The part `[t0, t1]` of `[t_lo, t_hi]` where `origin + t * dir` is
    /// inside every plane moved out by `r` (Cyrus-Beck), or `None`.
    pub fn clip(&self, origin: Vec3, dir: Vec3, r: f32, t_lo: f32, t_hi: f32) -> Option<(f32, f32)> {
        let (mut t0, mut t1) = (t_lo, t_hi);
        for &(n, d) in &self.planes {
            let dist = n.dot(origin) - (d + r);
            let denom = n.dot(dir);
            if denom < 0.0 {
                t0 = t0.max(dist / -denom);
            } else if denom > 0.0 {
                t1 = t1.min(-dist / denom);
            } else if dist > 0.0 {
                return None;
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// Four points spanning a tetrahedron of volume, or why there are none.
fn start_simplex(p: &[DVec3], flat: f64) -> Result<[usize; 4]> {
    // Extremes along the widest axis, then the farthest from their line,
    // then the farthest from their plane.
    let (lo, hi) = p.iter().fold((p[0], p[0]), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let e = hi - lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let arg =
        |key: &dyn Fn(DVec3) -> f64| (0..p.len()).fold(0, |best, i| if key(p[i]) > key(p[best]) { i } else { best });
    let i0 = arg(&|v| -v[axis]);
    let i1 = arg(&|v| v[axis]);
    let line = (p[i1] - p[i0]).normalize();
    let off_line = |v: DVec3| (v - p[i0]).reject_from_normalized(line).length();
    let i2 = arg(&off_line);
    if off_line(p[i2]) <= flat {
        return Err(Error::invalid_argument(format!(
            "convex hull points are collinear (all within {:e} of a line); a hull needs volume",
            off_line(p[i2])
        )));
    }
    let n = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalize();
    let i3 = arg(&|v| n.dot(v - p[i0]).abs());
    let height = n.dot(p[i3] - p[i0]).abs();
    if height <= flat {
        return Err(Error::invalid_argument(format!(
            "convex hull points are flat (all within {height:e} of a plane); a hull needs volume"
        )));
    }
    Ok([i0, i1, i2, i3])
}

/// The incremental hull (beneath-beyond, as O'Rourke's "Computational
/// Geometry in C", ch. 4, on integer coordinates): the seed tetrahedron,
/// then every other point in input order. A point that sees no face
/// strictly is inside or on the hull and changes nothing.
fn grow(q: &[[i64; 3]], [i0, i1, i2, i3]: [usize; 4]) -> Vec<[usize; 3]> {
    // Orient the base so the apex is behind it; the sides follow its edges reversed.
    let (a, b, c) = if BuildFace::new(q, i0, i1, i2).sees(q[i3]) { (i0, i2, i1) } else { (i0, i1, i2) };
    let mut faces = vec![
        BuildFace::new(q, a, b, c),
        BuildFace::new(q, b, a, i3),
        BuildFace::new(q, c, b, i3),
        BuildFace::new(q, a, c, i3),
    ];
    let mut visible: Vec<usize> = Vec::new();
    let mut rim: Vec<(usize, usize)> = Vec::new();
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for i in 0..q.len() {
        if i == i0 || i == i1 || i == i2 || i == i3 {
            continue;
        }
        visible.clear();
        visible.extend((0..faces.len()).filter(|&k| faces[k].alive && faces[k].sees(q[i])));
        if visible.is_empty() {
            continue;
        }
        // The horizon: edges of seen faces whose twin belongs to an unseen one.
        seen.clear();
        for &k in &visible {
            let v = faces[k].v;
            seen.extend([(v[0], v[1]), (v[1], v[2]), (v[2], v[0])]);
            faces[k].alive = false;
        }
        rim.clear();
        rim.extend(seen.iter().filter(|&&(u, v)| !seen.contains(&(v, u))));
        for &(u, v) in &rim {
            faces.push(BuildFace::new(q, u, v, i));
        }
        // Dead faces are dropped now and then to keep the scans short.
        if faces.len() > 4 * MAX_HULL_POINTS {
            faces.retain(|f| f.alive);
        }
    }
    faces.iter().filter(|f| f.alive).map(|f| f.v).collect()
}

/// Groups the hull's triangles into faces (Ericson 12.4): a triangle joins
/// a face when its corners are within `tol` of the face's plane. Returns per
/// face its unit normal, every point merged into it, and its polygon.
fn merge_coplanar(p: &[DVec3], triangles: &[[usize; 3]], tol: f64) -> Vec<(DVec3, Vec<usize>, Vec<usize>)> {
    let area = |t: &[usize; 3]| (p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]);
    // Largest triangles seed the groups, so a sliver never decides a face's plane.
    let mut order: Vec<usize> = (0..triangles.len()).collect();
    order.sort_by(|&i, &j| area(&triangles[j]).length().total_cmp(&area(&triangles[i]).length()).then(i.cmp(&j)));
    let mut group_of = vec![usize::MAX; triangles.len()];
    let mut seeds: Vec<(DVec3, f64)> = Vec::new();
    for &i in &order {
        let t = &triangles[i];
        let n = area(t).normalize_or_zero();
        // Facing the same way too: a tiny triangle can lie near several planes.
        let found =
            seeds.iter().position(|&(sn, sd)| sn.dot(n) > 0.0 && t.iter().all(|&v| (sn.dot(p[v]) - sd).abs() <= tol));
        group_of[i] = found.unwrap_or_else(|| {
            seeds.push((n, n.dot(p[t[0]])));
            seeds.len() - 1
        });
    }
    let mut polygons = Vec::with_capacity(seeds.len());
    for g in 0..seeds.len() {
        let members: Vec<&[usize; 3]> =
            (0..triangles.len()).filter(|&i| group_of[i] == g).map(|i| &triangles[i]).collect();
        // Area-weighted normal: exact for truly coplanar triangles.
        let n = members.iter().map(|t| area(t)).sum::<DVec3>().normalize_or_zero();
        let mut on_face: Vec<usize> = members.iter().flat_map(|t| t.iter().copied()).collect();
        on_face.sort_unstable();
        on_face.dedup();
        let polygon = face_polygon(p, n, &on_face, tol);
        // A sliver thinner than `tol` is no face.
        if polygon.len() >= 3 {
            polygons.push((n, on_face, polygon));
        }
    }
    polygons
}

/// The convex polygon (counter-clockwise seen along `n`) of the points
/// `on_face`, which lie in one plane: Andrew's monotone chain in the plane,
/// dropping points within `tol` of a hull edge.
fn face_polygon(p: &[DVec3], n: DVec3, on_face: &[usize], tol: f64) -> Vec<usize> {
    let u = n.any_orthonormal_vector();
    let w = n.cross(u);
    // (u, w, n) is right-handed, so counter-clockwise in (u, w) is
    // counter-clockwise seen from outside.
    let mut pts: Vec<(f64, f64, usize)> = on_face.iter().map(|&i| (p[i].dot(u), p[i].dot(w), i)).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    // No left turn at `a` on the way from `o` to `b` (within `tol` of the line `o b`, or right of it).
    let not_left = |o: (f64, f64, usize), a: (f64, f64, usize), b: (f64, f64, usize)| {
        let cross = (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
        cross <= tol * (b.0 - o.0).hypot(b.1 - o.1)
    };
    let mut chain: Vec<(f64, f64, usize)> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = chain.len();
        for k in 0..pts.len() {
            let q = if pass == 0 { pts[k] } else { pts[pts.len() - 1 - k] };
            while chain.len() >= start + 2 && not_left(chain[chain.len() - 2], chain[chain.len() - 1], q) {
                chain.pop();
            }
            chain.push(q);
        }
        // Each chain's last point is the other's first.
        chain.pop();
    }
    chain.into_iter().map(|q| q.2).collect()
}

/// The point of triangle `abc` closest to `p` (Ericson 5.1.5, by Voronoi
/// regions), or `None` when it is inside the face (`p`'s projection).
fn closest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Option<DVec3> {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return Some(a);
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return Some(b);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return Some(a + ab * (d1 / (d1 - d3)));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return Some(c);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return Some(a + ac * (d2 / (d2 - d6)));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return Some(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use glam::Quat;

    use crate::collision::test_rng::Rng;

    fn signs() -> impl Iterator<Item = Vec3> {
        (0..8).map(|k| Vec3::new([-1.0, 1.0][k & 1], [-1.0, 1.0][(k >> 1) & 1], [-1.0, 1.0][k >> 2]))
    }

    /// A box's corners, with interior points, face centres and edge midpoints
    /// (on the surface but not corners) put first so the build meets them early.
    fn box_cloud(half: Vec3, rng: &mut Rng) -> Vec<Vec3> {
        let mut points: Vec<Vec3> = (0..20).map(|_| rng.vec() * half * 0.99).collect();
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            points.extend([axis * half, -axis * half]);
        }
        points.extend(signs().map(|s| s * half * Vec3::new(0.0, 1.0, 1.0)));
        points.extend(signs().map(|s| s * half * Vec3::new(1.0, 0.0, 1.0)));
        points.extend(signs().map(|s| s * half));
        points
    }

    /// Exact signed distance from a box centred at the origin.
    fn box_sdf(p: Vec3, half: Vec3) -> f32 {
        let q = p.abs() - half;
        q.max(Vec3::ZERO).length() + q.max_element().min(0.0)
    }

    #[test]
    fn box_corners_give_six_planes_and_eight_vertices() {
        let half = Vec3::new(1.0, 2.0, 0.5);
        let hull = ConvexHull::from_points(&box_cloud(half, &mut Rng(7))).unwrap();
        assert_eq!(hull.planes().len(), 6);
        assert_eq!(hull.vertices().len(), 8);
        assert_eq!(hull.edges().len(), 12);
        for v in hull.vertices() {
            assert_eq!(v.abs(), half, "{v} is not a corner");
        }
        for (k, &(n, d)) in hull.planes().iter().enumerate() {
            let axis = n.abs().max_position();
            assert!((n.abs()[axis] - 1.0).abs() < 1e-6 && (d - half[axis]).abs() < 1e-6, "{n} {d}");
            let face = hull.face(k);
            assert_eq!(face.len(), 4);
            let v: Vec<Vec3> = face.iter().map(|&i| hull.vertices()[i as usize]).collect();
            assert!((v[1] - v[0]).cross(v[2] - v[0]).dot(n) > 0.0, "face {k} is not counter-clockwise");
        }
        assert_eq!(hull.bounds(), (-half, half));
        assert_eq!(hull.support(Vec3::new(1.0, -1.0, 1.0)), half * Vec3::new(1.0, -1.0, 1.0));
    }

    #[test]
    fn points_scattered_over_a_turned_box_surface_merge_into_its_faces() {
        // Points on the faces (coplanar to f32 rounding once turned), then
        // the corners: the faces still come out whole, for 20 turns.
        let mut rng = Rng(13);
        for case in 0..20 {
            let half = Vec3::new(0.4, 0.3, 0.2) * (1 + case) as f32;
            let rot = rng.rotation();
            let mut points: Vec<Vec3> = (0..200)
                .map(|i| {
                    let mut p = rng.vec() * half;
                    p[i % 3] = half[i % 3] * if i % 2 == 0 { 1.0 } else { -1.0 };
                    p
                })
                .collect();
            points.extend(signs().map(|s| s * half));
            let points: Vec<Vec3> = points.iter().map(|&p| rot * p).collect();
            let hull = ConvexHull::from_points(&points).unwrap();
            assert_eq!((hull.planes().len(), hull.vertices().len(), hull.edges().len()), (6, 8, 12), "case {case}");
            for &(n, d) in hull.planes() {
                let local = rot.inverse() * n;
                let axis = local.abs().max_position();
                assert!((local.abs()[axis] - 1.0).abs() < 1e-6 && (d - half[axis]).abs() < 1e-5, "{local} {d}");
            }
            // Without the corners the faces' points make some other solid.
            let queries: Vec<Vec3> = (0..100).map(|_| rng.vec() * half * 2.0).collect();
            check_hull(&ConvexHull::from_points(&points[..200]).unwrap(), &points[..200], &queries);
        }
    }

    #[test]
    fn lattices_prisms_and_repeated_points() {
        // A 5 x 5 x 5 lattice: rows of collinear and sheets of coplanar points.
        let lattice: Vec<Vec3> =
            (0..125).map(|i| Vec3::new((i % 5) as f32, (i / 5 % 5) as f32, (i / 25) as f32) * 0.25).collect();
        let hull = ConvexHull::from_points(&lattice).unwrap();
        assert_eq!((hull.planes().len(), hull.vertices().len(), hull.edges().len()), (6, 8, 12));
        check_hull(&hull, &lattice, &[Vec3::splat(2.0), Vec3::new(-0.3, 0.5, 0.5)]);
        // A turned 12-sided prism: 12 quads and two 12-gons.
        let turn = Quat::from_axis_angle(Vec3::new(1.0, 0.2, -0.4).normalize(), 0.7);
        let prism: Vec<Vec3> = (0..24)
            .map(|i| {
                let angle = (i % 12) as f32 * std::f32::consts::TAU / 12.0;
                turn * Vec3::new(angle.cos() * 0.3, angle.sin() * 0.3, if i < 12 { -0.5 } else { 0.5 })
            })
            .collect();
        let hull = ConvexHull::from_points(&prism).unwrap();
        assert_eq!((hull.planes().len(), hull.vertices().len(), hull.edges().len()), (14, 24, 36));
        let sizes: Vec<usize> = (0..14).map(|k| hull.face(k).len()).collect();
        assert_eq!(sizes.iter().filter(|&&n| n == 12).count(), 2, "{sizes:?}");
        let mut rng = Rng(17);
        let queries: Vec<Vec3> = (0..300).map(|_| rng.vec()).collect();
        check_hull(&hull, &prism, &queries);
        // Every point twice, the copies last: the same hull.
        let twice: Vec<Vec3> = prism.iter().chain(prism.iter()).copied().collect();
        assert_eq!(ConvexHull::from_points(&twice).unwrap(), hull);
    }

    #[test]
    fn signed_distance_matches_a_box_everywhere() {
        let half = Vec3::new(0.5, 0.25, 1.0);
        let rot = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.8);
        let shift = Vec3::new(0.3, -1.2, 0.7);
        let mut rng = Rng(11);
        let points: Vec<Vec3> = box_cloud(half, &mut rng).iter().map(|&p| rot * p + shift).collect();
        let hull = ConvexHull::from_points(&points).unwrap();
        assert_eq!((hull.planes().len(), hull.vertices().len()), (6, 8));
        let mut queries: Vec<Vec3> = (0..2000).map(|_| rng.vec() * half * 2.5).collect();
        // Near the corners and the edges, where the closest feature changes.
        for s in signs() {
            queries.extend((0..50).map(|_| s * half + rng.vec() * 0.02));
            queries.extend((0..50).map(|_| s * half * Vec3::new(rng.next(), 1.0, 1.0) + rng.vec() * 0.02));
            queries.extend((0..50).map(|_| s * half * Vec3::new(1.0, 1.0, rng.next()) + rng.vec() * 0.02));
        }
        let (mut inside, mut outside) = (0, 0);
        for &q in &queries {
            let truth = box_sdf(q, half);
            let (dist, dir) = hull.signed_distance(rot * q + shift);
            assert!((dist - truth).abs() < 1e-5, "at {q}: {dist} vs {truth}");
            assert!((dir.length() - 1.0).abs() < 1e-5);
            if truth > 1e-3 {
                let expect = rot * (q - q.clamp(-half, half)).normalize();
                assert!(dir.distance(expect) < 1e-4, "at {q}: {dir} vs {expect}");
                outside += 1;
            } else if truth < 0.0 {
                inside += 1;
            }
        }
        assert!(inside > 300 && outside > 1000, "{inside} inside, {outside} outside");
    }

    #[test]
    fn a_tetrahedron() {
        let hull = ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
        assert_eq!((hull.vertices().len(), hull.planes().len(), hull.edges().len()), (4, 4, 6));
        let slant = Vec3::ONE / 3f32.sqrt();
        // In front of the slanted face, its foot (1/3, 1/3, 1/3) inside it.
        let (d, n) = hull.signed_distance(Vec3::ONE);
        assert!((d - 2.0 / 3f32.sqrt()).abs() < 1e-6 && n.distance(slant) < 1e-6);
        // Behind the corner at the origin.
        let (d, n) = hull.signed_distance(-Vec3::ONE);
        assert!((d - 3f32.sqrt()).abs() < 1e-6 && n.distance(-slant) < 1e-6);
        // Beside the edge x = y = 0: its closest point is (0, 0, 0.5).
        let (d, n) = hull.signed_distance(Vec3::new(-1.0, -1.0, 0.5));
        assert!((d - 2f32.sqrt()).abs() < 1e-6 && n.distance(Vec3::new(-1.0, -1.0, 0.0) / 2f32.sqrt()) < 1e-6);
        // Inside: the slanted face is nearest, (1 - 0.75) / sqrt(3) away.
        let (d, n) = hull.signed_distance(Vec3::splat(0.25));
        assert!((d + 0.25 / 3f32.sqrt()).abs() < 1e-6 && n.distance(slant) < 1e-6);
        assert_eq!(hull.contact(Vec3::ONE, 1.0), None);
        let (n, depth) = hull.contact(Vec3::ONE, 1.5).unwrap();
        assert!(n.distance(slant) < 1e-6 && (depth - (1.5 - 2.0 / 3f32.sqrt())).abs() < 1e-6);
    }

    /// What any hull must satisfy; `q` are query points for exactness.
    fn check_hull(hull: &ConvexHull, input: &[Vec3], queries: &[Vec3]) {
        for v in hull.vertices() {
            assert!(input.contains(v), "{v} is not an input point");
            for &(n, d) in hull.planes() {
                assert!(n.dot(*v) <= d + 1e-5);
            }
        }
        for &p in input {
            assert!(hull.signed_distance(p).0 <= 1e-5, "{p} is outside the hull by {}", hull.signed_distance(p).0);
        }
        // Euler: V - E + F = 2 for a closed convex polyhedron (Ericson 12.6).
        let (v, e, f) = (hull.vertices().len(), hull.edges().len(), hull.planes().len());
        assert_eq!(v + f, e + 2, "V {v} E {e} F {f}");
        for &p in queries {
            let (dist, dir) = hull.signed_distance(p);
            if dist <= 0.0 {
                continue;
            }
            // Exactness, from two well-conditioned bounds. Weak duality:
            // for any unit u, dist(p) >= u.p - max over the hull of u.x, with
            // equality at the returned direction. And q = p - dist * dir is
            // not outside, so dist(p) <= |p - q| = dist. (The closest point
            // itself is ill-conditioned beside an edge: a vertex and an edge
            // point 1e-4 apart can be as far from p to 1e-8.)
            let dual = dir.dot(p) - hull.support(dir).dot(dir);
            assert!(dist - dual < 1e-5, "at {p}: {dist} but the support along {dir} gives {dual}");
            let q = p - dir * dist;
            let out = hull.planes().iter().map(|&(n, d)| n.dot(q) - d).fold(f32::NEG_INFINITY, f32::max);
            assert!(out < 1e-5, "{q}, {dist} from {p}, is {out} outside the hull");
        }
    }

    #[test]
    fn random_clouds_are_wrapped_exactly() {
        let mut rng = Rng(3);
        for case in 0..20 {
            let stretch = Vec3::new(1.0, 0.5, 2.0) * (case + 1) as f32 * 0.1;
            let count = [8, 30, 100, MAX_HULL_POINTS][case % 4];
            let points: Vec<Vec3> = (0..count).map(|_| rng.vec() * stretch).collect();
            let hull = ConvexHull::from_points(&points).unwrap();
            let queries: Vec<Vec3> = (0..300).map(|_| rng.vec() * stretch * 2.0).collect();
            check_hull(&hull, &points, &queries);
        }
    }

    #[test]
    fn points_on_a_sphere_are_all_kept() {
        let mut rng = Rng(5);
        let points: Vec<Vec3> = (0..200).map(|_| rng.vec().normalize() * 0.3).collect();
        let hull = ConvexHull::from_points(&points).unwrap();
        assert_eq!(hull.vertices().len(), 200);
        // All triangles: E = 3F/2.
        assert_eq!(2 * hull.edges().len(), 3 * hull.planes().len());
        let queries: Vec<Vec3> = (0..300).map(|_| rng.vec()).collect();
        check_hull(&hull, &points, &queries);
    }

    #[test]
    fn contact_agrees_with_signed_distance() {
        let mut rng = Rng(9);
        let points: Vec<Vec3> = (0..40).map(|_| rng.vec()).collect();
        let hull = ConvexHull::from_points(&points).unwrap();
        let (mut hits, mut misses) = (0, 0);
        for _ in 0..1000 {
            let p = rng.vec() * 1.5;
            let (dist, dir) = hull.signed_distance(p);
            match hull.contact(p, 0.1) {
                Some((n, depth)) => {
                    assert!(dist < 0.1 && n == dir && depth == 0.1 - dist);
                    hits += 1;
                }
                None => {
                    assert!(dist >= 0.1);
                    misses += 1;
                }
            }
        }
        assert!(hits > 100 && misses > 100, "{hits} hits, {misses} misses");
    }

    #[test]
    fn raycast_enters_the_grown_planes() {
        let hull = ConvexHull::from_points(&box_cloud(Vec3::ONE, &mut Rng(1))).unwrap();
        // x = -1.1 is reached after 3.9 m, 1.95 in units of |dir| = 2.
        let (t, n) = hull.raycast(Vec3::new(-5.0, 0.2, 0.3), Vec3::new(2.0, 0.0, 0.0), 10.0, 0.1).unwrap();
        assert!((t - 1.95).abs() < 1e-6 && n == -Vec3::X, "{t} {n}");
        assert_eq!(hull.raycast(Vec3::new(-5.0, 0.2, 0.3), Vec3::new(2.0, 0.0, 0.0), 1.9, 0.1), None);
        // Past an edge of the box but within the grown slab: a (conservative) hit.
        let (t, _) = hull.raycast(Vec3::new(-5.0, 1.05, 0.0), Vec3::X, 10.0, 0.1).unwrap();
        assert!((t - 3.9).abs() < 1e-6);
        assert_eq!(hull.raycast(Vec3::new(-5.0, 1.2, 0.0), Vec3::X, 10.0, 0.1), None);
        assert_eq!(hull.raycast(Vec3::new(-5.0, 0.0, 0.0), -Vec3::X, 10.0, 0.1), None);
        assert_eq!(hull.raycast(Vec3::new(0.5, 0.0, 0.0), Vec3::X, 10.0, 0.1), None);
        // Diagonal onto a face: enters y = 1.1 at t = 1.9.
        let (t, n) = hull.raycast(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.1, -1.0, 0.0), 10.0, 0.1).unwrap();
        assert!((t - 1.9).abs() < 1e-6 && n == Vec3::Y);
    }

    #[test]
    fn bad_points_are_refused() {
        let kind_and_text = |points: &[Vec3]| {
            let e = ConvexHull::from_points(points).unwrap_err();
            (e.kind, e.message)
        };
        let (k, m) = kind_and_text(&[Vec3::ZERO, Vec3::X, Vec3::Y]);
        assert!(k == ErrorKind::InvalidArgument && m.contains("at least 4"), "{m}");
        let (k, m) = kind_and_text(&[Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Z]);
        assert!(k == ErrorKind::InvalidArgument && m.contains("point 2"), "{m}");
        let (k, m) = kind_and_text(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::splat(f32::INFINITY)]);
        assert!(k == ErrorKind::InvalidArgument && m.contains("point 3"), "{m}");
        let mut rng = Rng(2);
        let many: Vec<Vec3> = (0..MAX_HULL_POINTS + 1).map(|_| rng.vec()).collect();
        let (k, m) = kind_and_text(&many);
        assert!(k == ErrorKind::LimitExceeded && m.contains("256"), "{m}");
        assert!(ConvexHull::from_points(&many[..MAX_HULL_POINTS]).is_ok());
        let (k, m) = kind_and_text(&[Vec3::ONE; 6]);
        assert!(k == ErrorKind::InvalidArgument && m.contains("coincident"), "{m}");
        let line: Vec<Vec3> = (0..6).map(|i| Vec3::new(1.0, 2.0, 3.0) * i as f32).collect();
        let (k, m) = kind_and_text(&line);
        assert!(k == ErrorKind::InvalidArgument && m.contains("collinear"), "{m}");
        // A tilted square sheet 2e-6 thick for its size of 1: flat.
        let tilt = Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.3);
        let sheet: Vec<Vec3> = (0..30).map(|_| tilt * (rng.vec() * Vec3::new(0.5, 0.5, 1e-6))).collect();
        let (k, m) = kind_and_text(&sheet);
        assert!(k == ErrorKind::InvalidArgument && m.contains("flat"), "{m}");
        // 1e-3 thick is a (thin) solid.
        let slab: Vec<Vec3> = (0..30).map(|_| tilt * (rng.vec() * Vec3::new(0.5, 0.5, 1e-3))).collect();
        let hull = ConvexHull::from_points(&slab).unwrap();
        check_hull(&hull, &slab, &[]);
    }
}
