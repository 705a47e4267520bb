//! Heightfield collider: a regular grid of heights, solid below the surface.
//!
//! Vertex `(c, r)` (column, row) sits at `(c * cell_x, heights[r * columns + c],
//! r * cell_z)` in the local frame. Each cell is split along its diagonal from
//! `(c, r)` to `(c + 1, r + 1)` into two triangles wound to face +Y, with ids
//! `2 * (r * (columns - 1) + c) + half`: half 0 is the side of `(c, r + 1)`,
//! half 1 the side of `(c + 1, r)`. The triangles are one-sided
//! ([`super::triangle::point_contact`] with `one_sided`): whatever is under the
//! surface is pushed up. Cells are found from coordinates directly, so no
//! hierarchy is needed; rays walk the cells they cross (Amanatides and Woo,
//! "A Fast Voxel Traversal Algorithm for Ray Tracing", 1987, in two dimensions).

use super::bvh::Ray;
use super::triangle;
use crate::error::{Error, MAX_COORDINATE, Result, finite_vec, positive};
use glam::Vec3;

#[derive(Debug, Clone, PartialEq)]
pub struct Heightfield {
    columns: u32,
    rows: u32,
    cell_x: f32,
    cell_z: f32,
    /// Row-major, `rows * columns`.
    heights: Vec<f32>,
    min_height: f32,
    max_height: f32,
}

impl Heightfield {
    /// A `columns x rows` grid of `heights` (row-major) with cells of
    /// `cell_x` by `cell_z` metres.
    pub fn new(columns: u32, rows: u32, cell_x: f32, cell_z: f32, heights: &[f32]) -> Result<Heightfield> {
        if columns < 2 || rows < 2 {
            return Err(Error::invalid_argument(format!(
                "Heightfield: needs at least 2 columns and 2 rows, got {columns} x {rows}"
            )));
        }
        positive(cell_x, "Heightfield cell_x")?;
        positive(cell_z, "Heightfield cell_z")?;
        let cells = (columns as u64 - 1) * (rows as u64 - 1);
        if 2 * cells > u32::MAX as u64 {
            return Err(Error::limit(format!(
                "Heightfield: {columns} x {rows} makes {} triangles, more than u32 ids reach",
                2 * cells
            )));
        }
        let far = Vec3::new((columns - 1) as f32 * cell_x, 0.0, (rows - 1) as f32 * cell_z);
        finite_vec(far, "Heightfield extent (columns - 1) * cell_x, (rows - 1) * cell_z")?;
        let count = columns as usize * rows as usize;
        if heights.len() != count {
            return Err(Error::invalid_argument(format!(
                "Heightfield: {} heights for {columns} x {rows} = {count} vertices",
                heights.len()
            )));
        }
        if let Some(k) = heights.iter().position(|h| !h.is_finite() || h.abs() > MAX_COORDINATE) {
            return Err(Error::invalid_argument(format!(
                "Heightfield height {k} (column {}, row {}) must be finite and within +-{MAX_COORDINATE:e}, got {}",
                k % columns as usize,
                k / columns as usize,
                heights[k]
            )));
        }
        let min_height = heights.iter().copied().fold(f32::INFINITY, f32::min);
        let max_height = heights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        Ok(Heightfield { columns, rows, cell_x, cell_z, heights: heights.to_vec(), min_height, max_height })
    }

    pub fn columns(&self) -> u32 {
        self.columns
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// `(cell_x, cell_z)`, metres.
    pub fn cell_size(&self) -> (f32, f32) {
        (self.cell_x, self.cell_z)
    }

    /// Row-major, `heights[row * columns + column]`.
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    pub fn triangle_count(&self) -> u32 {
        2 * (self.columns - 1) * (self.rows - 1)
    }

    #[inline]
    fn vertex(&self, c: u32, r: u32) -> Vec3 {
        let h = self.heights[r as usize * self.columns as usize + c as usize];
        Vec3::new(c as f32 * self.cell_x, h, r as f32 * self.cell_z)
    }

    /// The corners of triangle `k`, wound to face +Y.
    #[inline]
    pub fn triangle(&self, k: u32) -> [Vec3; 3] {
        let cell = k / 2;
        let (c, r) = (cell % (self.columns - 1), cell / (self.columns - 1));
        let (v00, v11) = (self.vertex(c, r), self.vertex(c + 1, r + 1));
        if k.is_multiple_of(2) { [v00, self.vertex(c, r + 1), v11] } else { [v00, v11, self.vertex(c + 1, r)] }
    }

    /// Appends the ids of the triangles whose bounds overlap `lo..hi` (bounds
    /// included), row by row, column by column, half 0 first. A box wholly
    /// under the surface finds nothing: the solid reaches as deep as a
    /// particle's swept box reaches the surface (caves below stay possible).
    pub fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        let (last_c, last_r) = (self.columns - 2, self.rows - 2);
        if lo.y > self.max_height || hi.y < self.min_height {
            return;
        }
        // One cell of slack each way for rounding; each cell is then tested
        // with exactly the coordinates `triangle` gives.
        let c0 = ((lo.x / self.cell_x).floor() - 1.0).max(0.0);
        let c1 = ((hi.x / self.cell_x).floor() + 1.0).min(last_c as f32);
        let r0 = ((lo.z / self.cell_z).floor() - 1.0).max(0.0);
        let r1 = ((hi.z / self.cell_z).floor() + 1.0).min(last_r as f32);
        if c0 > c1 || r0 > r1 {
            return;
        }
        for r in r0 as u32..=r1 as u32 {
            if r as f32 * self.cell_z > hi.z || (r + 1) as f32 * self.cell_z < lo.z {
                continue;
            }
            for c in c0 as u32..=c1 as u32 {
                if c as f32 * self.cell_x > hi.x || (c + 1) as f32 * self.cell_x < lo.x {
                    continue;
                }
                let row = r as usize * self.columns as usize + c as usize;
                let (h00, h10) = (self.heights[row], self.heights[row + 1]);
                let (h01, h11) =
                    (self.heights[row + self.columns as usize], self.heights[row + self.columns as usize + 1]);
                let k = 2 * (r * (self.columns - 1) + c);
                for (half, h) in [(0, h01), (1, h10)] {
                    let (low, high) = (h00.min(h11).min(h), h00.max(h11).max(h));
                    if low <= hi.y && high >= lo.y {
                        out.push(k + half);
                    }
                }
            }
        }
    }

    /// The box around the surface.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let far = Vec3::new((self.columns - 1) as f32 * self.cell_x, 0.0, (self.rows - 1) as f32 * self.cell_z);
        (Vec3::new(0.0, self.min_height, 0.0), far.with_y(self.max_height))
    }

    /// The surface's height over `(x, z)`, `None` outside the grid.
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let (lo, hi) = self.bounds();
        if !((lo.x..=hi.x).contains(&x) && (lo.z..=hi.z).contains(&z)) {
            return None;
        }
        let (fx, fz) = (x / self.cell_x, z / self.cell_z);
        let c = (fx.floor() as u32).min(self.columns - 2);
        let r = (fz.floor() as u32).min(self.rows - 2);
        let (u, v) = (fx - c as f32, fz - r as f32);
        let h = |dc, dr| self.heights[(r + dr) as usize * self.columns as usize + (c + dc) as usize];
        // The planes of the two halves, interpolated from their corners.
        Some(if v >= u {
            h(0, 0) + (h(1, 1) - h(0, 1)) * u + (h(0, 1) - h(0, 0)) * v
        } else {
            h(0, 0) + (h(1, 0) - h(0, 0)) * u + (h(1, 1) - h(1, 0)) * v
        })
    }

    /// The nearest triangle along `origin + t dir`, `t` in `[0, max_t]`, from
    /// either face: `(t, triangle id, unit normal facing the origin)`.
    ///
    /// Walks the cells under the ray in order of entry (2D DDA), recomputing
    /// each boundary's `t` from the cell index so no error accumulates, and
    /// stops at the first cell entered after the best hit.
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<(f32, u32, Vec3)> {
        let (lo, hi) = self.bounds();
        let (t0, t1) = Ray::new(origin, dir).span(lo, hi, max_t)?;
        let start = origin + dir * t0;
        let (last_c, last_r) = (self.columns - 2, self.rows - 2);
        let mut c = (start.x / self.cell_x).floor().clamp(0.0, last_c as f32) as u32;
        let mut r = (start.z / self.cell_z).floor().clamp(0.0, last_r as f32) as u32;
        // The t at which the ray leaves cell `i` along one axis.
        let exit = |i: u32, o: f32, d: f32, cell: f32| {
            if d > 0.0 {
                ((i + 1) as f32 * cell - o) / d
            } else if d < 0.0 {
                (i as f32 * cell - o) / d
            } else {
                f32::INFINITY
            }
        };
        // The box's exit, padded like the slab test, bounds the walk.
        let end = t1 * (1.0 + 1e-5);
        let mut best: Option<(f32, u32)> = None;
        loop {
            let k = 2 * (r * (self.columns - 1) + c);
            for id in [k, k + 1] {
                let limit = best.map_or(max_t, |b| b.0);
                let hit = triangle::ray(origin, dir, limit, &self.triangle(id));
                if let Some((t, _)) = hit.filter(|h| best.is_none_or(|b| h.0 < b.0)) {
                    best = Some((t, id));
                }
            }
            let (tx, tz) = (exit(c, origin.x, dir.x, self.cell_x), exit(r, origin.z, dir.z, self.cell_z));
            let next = tx.min(tz);
            if !next.is_finite() || next > best.map_or(end, |b| b.0) {
                break;
            }
            if tx <= tz {
                match (dir.x > 0.0, c) {
                    (true, c1) if c1 < last_c => c += 1,
                    (false, c1) if c1 > 0 => c -= 1,
                    _ => break,
                }
            } else {
                match (dir.z > 0.0, r) {
                    (true, r1) if r1 < last_r => r += 1,
                    (false, r1) if r1 > 0 => r -= 1,
                    _ => break,
                }
            }
        }
        let (t, k) = best?;
        let n = triangle::normal(&self.triangle(k));
        Some((t, k, if n.dot(dir) > 0.0 { -n } else { n }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    use crate::collision::test_rng::Lcg;

    fn bumpy(columns: u32, rows: u32, seed: u64) -> Heightfield {
        let mut rng = Lcg(seed);
        let heights: Vec<f32> = (0..columns * rows).map(|_| rng.next() * 2.0 - 1.0).collect();
        Heightfield::new(columns, rows, 0.5, 0.75, &heights).unwrap()
    }

    /// Jakobsen's projection against every candidate triangle in turn.
    fn project(field: &Heightfield, start: Vec3, mut p: Vec3, r: f32) -> Vec3 {
        let mut ids = Vec::new();
        field.query(start.min(p) - Vec3::splat(r), start.max(p) + Vec3::splat(r), &mut ids);
        for &k in &ids {
            if let Some((dir, depth)) = triangle::point_contact(p, start, r, &field.triangle(k), true) {
                p += dir * depth;
            }
        }
        p
    }

    #[test]
    fn layout_ids_and_winding() {
        let field = bumpy(5, 4, 1);
        assert_eq!(field.triangle_count(), 2 * 4 * 3);
        // Triangle 2 * (2 * 4 + 3) + 1: cell column 3, row 2, the half with (4, 2).
        let [a, b, c] = field.triangle(2 * (2 * 4 + 3) + 1);
        let h = field.heights();
        assert_eq!(a, Vec3::new(1.5, h[2 * 5 + 3], 1.5));
        assert_eq!(b, Vec3::new(2.0, h[3 * 5 + 4], 2.25));
        assert_eq!(c, Vec3::new(2.0, h[2 * 5 + 4], 1.5));
        for k in 0..field.triangle_count() {
            assert!(triangle::normal(&field.triangle(k)).y > 0.0, "triangle {k}");
        }
        assert_eq!(field.bounds().1.x, 2.0);
        assert_eq!(field.bounds().1.z, 2.25);
        let again =
            Heightfield::new(field.columns(), field.rows(), field.cell_size().0, field.cell_size().1, field.heights())
                .unwrap();
        assert_eq!(again.triangle(7), field.triangle(7));
    }

    #[test]
    fn particle_under_the_surface_is_pushed_up_to_height_plus_radius() {
        let field = Heightfield::new(3, 3, 1.0, 1.0, &[1.5; 9]).unwrap();
        let r = 0.05;
        // Sunk by less than its radius, at rest.
        let p = project(&field, Vec3::new(1.3, 1.47, 0.7), Vec3::new(1.3, 1.47, 0.7), r);
        assert!((p.y - (1.5 + r)).abs() < 1e-6, "{p}");
        // Through in one substep (200 m/s), over the diagonal too.
        for (x, z) in [(0.3, 1.7), (1.25, 1.25), (1.0, 1.0)] {
            let p = project(&field, Vec3::new(x, 1.7, z), Vec3::new(x, 1.3, z), r);
            assert!((p.y - (1.5 + r)).abs() < 1e-6, "{p}");
        }
        // Deep under it (the contact is one-sided; the query alone does not reach).
        let deep = Vec3::new(0.3, -8.0, 0.4);
        let (dir, depth) = triangle::point_contact(deep, deep, r, &field.triangle(0), true).unwrap();
        assert!(((deep + dir * depth).y - (1.5 + r)).abs() < 1e-5);
        let mut ids = Vec::new();
        field.query(deep - Vec3::splat(r), deep + Vec3::splat(r), &mut ids);
        assert!(ids.is_empty());
    }

    #[test]
    fn sloped_field_gives_the_slope_normal() {
        // h = 0.5 x: rises 1 in 2 along x.
        let heights: Vec<f32> = (0..4 * 3).map(|k| 0.5 * (k % 4) as f32 * 2.0).collect();
        let field = Heightfield::new(4, 3, 2.0, 1.5, &heights).unwrap();
        let slope = Vec3::new(-0.5, 1.0, 0.0).normalize();
        for k in 0..field.triangle_count() {
            assert!((triangle::normal(&field.triangle(k)) - slope).length() < 1e-6);
        }
        assert!((field.height_at(3.3, 1.1).unwrap() - 1.65).abs() < 1e-6);
        let p = Vec3::new(3.3, 1.6, 1.1);
        let (dir, depth) = triangle::point_contact(p, p, 0.1, &field.triangle(2), true).unwrap();
        assert!((dir - slope).length() < 1e-6);
        // The height under p is 1.65: 0.05 below, plus the radius, along the normal.
        assert!((depth - (0.05 * slope.y + 0.1)).abs() < 1e-6, "{depth}");
        let (t, _, n) = field.raycast(Vec3::new(3.3, 5.0, 1.1), -Vec3::Y, 10.0).unwrap();
        assert!((t - (5.0 - 1.65)).abs() < 1e-5 && (n - slope).length() < 1e-6);
    }

    #[test]
    fn height_at_matches_the_triangles() {
        let field = bumpy(6, 5, 2);
        let mut rng = Lcg(9);
        let (_, hi) = field.bounds();
        for _ in 0..500 {
            let (x, z) = (rng.next() * hi.x, rng.next() * hi.z);
            let h = field.height_at(x, z).unwrap();
            let (t, _, _) = field.raycast(Vec3::new(x, 10.0, z), -Vec3::Y, 100.0).unwrap();
            assert!((10.0 - t - h).abs() < 1e-4, "({x}, {z}): {h} vs {}", 10.0 - t);
        }
        assert!(field.height_at(-0.01, 1.0).is_none() && field.height_at(1.0, hi.z + 0.01).is_none());
        assert!(field.height_at(f32::NAN, 1.0).is_none());
        assert!((field.height_at(hi.x, hi.z).unwrap() - field.heights().last().unwrap()).abs() < 1e-6);
    }

    #[test]
    fn query_equals_brute_force() {
        let field = bumpy(13, 9, 3);
        let mut rng = Lcg(4);
        let mut out = Vec::new();
        let mut found = 0;
        for q in 0..400 {
            let lo = Vec3::new(rng.next() * 8.0 - 1.0, rng.next() * 3.0 - 1.5, rng.next() * 8.0 - 1.0);
            let size = if q % 10 == 0 { 6.0 } else { 1.0 };
            let hi = lo + Vec3::new(rng.next(), rng.next(), rng.next()) * size;
            out.clear();
            field.query(lo, hi, &mut out);
            let brute: Vec<u32> = (0..field.triangle_count())
                .filter(|&k| {
                    let [a, b, c] = field.triangle(k);
                    super::super::boxes_overlap(lo, hi, a.min(b).min(c), a.max(b).max(c))
                })
                .collect();
            // Same items, same (ascending id) order.
            assert_eq!(out, brute);
            found += out.len();
        }
        assert!(found > 500, "{found}");
        // Touching an edge of the grid counts; beyond it, nothing.
        out.clear();
        field.query(Vec3::new(6.0, -5.0, 0.0), Vec3::new(7.0, 5.0, 0.1), &mut out);
        assert_eq!(out, [22, 23]);
        out.clear();
        field.query(Vec3::new(6.01, -5.0, 0.0), Vec3::new(7.0, 5.0, 0.1), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn raycast_equals_brute_force() {
        let field = bumpy(11, 8, 5);
        let mut rng = Lcg(6);
        let mut hits = 0;
        for k in 0..600 {
            let origin = Vec3::new(rng.next() * 7.0 - 1.0, rng.next() * 4.0 - 2.0, rng.next() * 7.0 - 1.0);
            let mut dir = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5);
            match k % 5 {
                0 => dir = Vec3::new(0.0, dir.y, 0.0),
                1 => dir.x = 0.0,
                2 => dir.y = 0.0,
                _ => {}
            }
            let max_t = rng.next() * 20.0;
            let got = field.raycast(origin, dir, max_t);
            let brute = (0..field.triangle_count())
                .filter_map(|k| triangle::ray(origin, dir, max_t, &field.triangle(k)).map(|(t, _)| (t, k)))
                .fold(None, |best: Option<(f32, u32)>, h| if best.is_none_or(|b| h.0 < b.0) { Some(h) } else { best });
            assert_eq!(got.map(|g| g.0), brute.map(|b| b.0), "ray {k}: {origin} {dir}");
            if let Some((t, id, n)) = got {
                assert_eq!(triangle::ray(origin, dir, max_t, &field.triangle(id)).map(|h| h.0), Some(t));
                assert!(n.dot(dir) < 0.0);
                hits += 1;
            }
        }
        assert!(hits > 100, "{hits}");
    }

    #[test]
    fn bad_input_is_refused() {
        let refuse = |columns, rows, cx, cz, heights: &[f32], kind, names: &str| {
            let e = Heightfield::new(columns, rows, cx, cz, heights).unwrap_err();
            assert_eq!(e.kind, kind);
            assert!(e.message.contains(names), "{}", e.message);
        };
        let bad = ErrorKind::InvalidArgument;
        refuse(1, 3, 1.0, 1.0, &[0.0; 3], bad, "1 x 3");
        refuse(3, 0, 1.0, 1.0, &[], bad, "3 x 0");
        refuse(2, 2, 0.0, 1.0, &[0.0; 4], bad, "cell_x");
        refuse(2, 2, 1.0, f32::NAN, &[0.0; 4], bad, "cell_z");
        refuse(2, 2, -1.0, 1.0, &[0.0; 4], bad, "cell_x");
        refuse(3, 2, 1.0, 1.0, &[0.0; 5], bad, "5 heights for 3 x 2 = 6");
        refuse(3, 2, 1.0, 1.0, &[0.0, 0.0, 0.0, 0.0, f32::INFINITY, 0.0], bad, "height 4 (column 1, row 1)");
        refuse(2, 2, 1.0, 1.0, &[0.0, f32::NAN, 0.0, 0.0], bad, "height 1");
        refuse(3, 2, 1e15, 1.0, &[0.0; 6], bad, "extent");
        refuse(70_000, 70_000, 1.0, 1.0, &[], ErrorKind::LimitExceeded, "triangles");
    }
}
