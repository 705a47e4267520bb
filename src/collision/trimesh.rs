//! Static triangle mesh collider: an indexed triangle list with a bounding
//! volume hierarchy ([`super::bvh`]) over its triangles. Triangles are
//! two-sided: a particle is kept on the side it came from
//! ([`super::triangle::point_contact`]). Everything here is in the mesh's
//! local frame.

use super::bvh::Bvh;
use super::triangle;
use crate::error::{Error, Result, finite_vec};
use glam::Vec3;

/// The most triangles a mesh may hold: the hierarchy indexes its nodes (up to
/// twice the triangles) with u32.
const MAX_TRIANGLES: usize = (u32::MAX / 2) as usize;

#[derive(Debug, Clone, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    /// Non-degenerate triangles only; a triangle's id is its index here.
    triangles: Vec<[u32; 3]>,
    /// Each triangle's unit normal (the contact tests need it every pass).
    normals: Vec<Vec3>,
    bvh: Bvh,
}

impl TriMesh {
    /// A mesh from a vertex list and a triangle list (three indices each).
    /// Degenerate (zero-area) triangles are dropped, so triangle ids count
    /// the kept ones.
    pub fn new(vertices: &[Vec3], indices: &[u32]) -> Result<TriMesh> {
        if vertices.is_empty() {
            return Err(Error::invalid_argument("TriMesh: the vertex list is empty"));
        }
        if indices.is_empty() {
            return Err(Error::invalid_argument("TriMesh: the index list is empty"));
        }
        if !indices.len().is_multiple_of(3) {
            return Err(Error::invalid_argument(format!(
                "TriMesh: {} indices is not a multiple of 3 (three per triangle)",
                indices.len()
            )));
        }
        if vertices.len() > u32::MAX as usize {
            return Err(Error::limit(format!("TriMesh: {} vertices, more than u32 indices reach", vertices.len())));
        }
        if indices.len() / 3 > MAX_TRIANGLES {
            return Err(Error::limit(format!(
                "TriMesh: {} triangles, more than the {MAX_TRIANGLES} allowed",
                indices.len() / 3
            )));
        }
        for (k, &v) in vertices.iter().enumerate() {
            // The message is built only for the offending vertex.
            if finite_vec(v, "").is_err() {
                finite_vec(v, &format!("TriMesh vertex {k}"))?;
            }
        }
        if let Some(k) = indices.iter().position(|&i| i as usize >= vertices.len()) {
            return Err(Error::invalid_argument(format!(
                "TriMesh index {k} (triangle {}) is {}, but there are only {} vertices",
                k / 3,
                indices[k],
                vertices.len()
            )));
        }
        let corners = |tri: [u32; 3]| tri.map(|i| vertices[i as usize]);
        let triangles: Vec<[u32; 3]> = indices
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .filter(|&tri| triangle::normal(&corners(tri)) != Vec3::ZERO)
            .collect();
        if triangles.is_empty() {
            return Err(Error::invalid_argument(format!(
                "TriMesh: all {} triangles are degenerate (zero area)",
                indices.len() / 3
            )));
        }
        let boxes: Vec<(Vec3, Vec3)> = triangles
            .iter()
            .map(|&tri| {
                let [a, b, c] = corners(tri);
                (a.min(b).min(c), a.max(b).max(c))
            })
            .collect();
        let normals = triangles.iter().map(|&tri| triangle::normal(&corners(tri))).collect();
        Ok(TriMesh { vertices: vertices.to_vec(), triangles, normals, bvh: Bvh::build(&boxes) })
    }

    /// Triangle `k`'s unit normal (of its winding).
    #[inline]
    pub fn normal(&self, k: u32) -> Vec3 {
        self.normals[k as usize]
    }

    /// The corners of triangle `k`, in winding order.
    #[inline]
    pub fn triangle(&self, k: u32) -> [Vec3; 3] {
        self.triangles[k as usize].map(|i| self.vertices[i as usize])
    }

    pub fn triangle_count(&self) -> u32 {
        self.triangles.len() as u32
    }

    /// Appends the ids of the triangles whose bounds overlap `lo..hi`, in a
    /// fixed order.
    pub fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        self.bvh.query(lo, hi, out);
    }

    /// The nearest triangle along `origin + t dir`, `t` in `[0, max_t]`, from
    /// either face: `(t, triangle id, unit normal facing the origin)`.
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<(f32, u32, Vec3)> {
        let (k, t) = self.bvh.raycast(origin, dir, max_t, |k, best| {
            triangle::ray(origin, dir, best, &self.triangle(k)).map(|(t, _)| t)
        })?;
        let n = triangle::normal(&self.triangle(k));
        Some((t, k, if n.dot(dir) > 0.0 { -n } else { n }))
    }

    /// The box around every triangle.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.bvh.bounds()
    }

    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The kept triangles' indices, three per triangle: with [`TriMesh::vertices`]
    /// it rebuilds the same mesh (snapshots).
    pub fn indices(&self) -> &[u32] {
        self.triangles.as_flattened()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// A 2 x 2 m floor at y = 0 in two triangles sharing the diagonal x = z,
    /// wound to face +Y.
    fn floor() -> TriMesh {
        let v = [
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
        ];
        TriMesh::new(&v, &[0, 2, 1, 0, 3, 2]).unwrap()
    }

    /// Jakobsen's projection against every candidate triangle in turn, as the
    /// solver's collision pass will do.
    fn project(mesh: &TriMesh, start: Vec3, mut p: Vec3, r: f32) -> Vec3 {
        let mut ids = Vec::new();
        mesh.query(start.min(p) - Vec3::splat(r), start.max(p) + Vec3::splat(r), &mut ids);
        for &k in &ids {
            if let Some((dir, depth)) = triangle::point_contact(p, start, r, &mesh.triangle(k), false) {
                p += dir * depth;
            }
        }
        p
    }

    #[test]
    fn particle_at_200_m_per_s_does_not_tunnel() {
        let mesh = floor();
        assert_eq!(mesh.triangle_count(), 2);
        // 0.4 m in one 2 ms substep, through either triangle and exactly over the diagonal.
        for (x, z) in [(0.5, -0.3), (-0.5, 0.3), (0.25, 0.25), (-0.7, -0.7)] {
            for r in [0.0, 0.05] {
                let p = project(&mesh, Vec3::new(x, 0.2, z), Vec3::new(x, -0.2, z), r);
                assert!((p.y - r).abs() < 1e-6, "({x}, {z}) r {r}: {p}");
                assert_eq!((p.x, p.z), (x, z));
            }
        }
        // And from below (two-sided).
        let p = project(&mesh, Vec3::new(0.5, -0.2, 0.1), Vec3::new(0.5, 0.2, 0.1), 0.05);
        assert!((p.y + 0.05).abs() < 1e-6, "{p}");
        // Beside the floor it falls on.
        let p = project(&mesh, Vec3::new(1.5, 0.2, 0.0), Vec3::new(1.5, -0.2, 0.0), 0.05);
        assert_eq!(p, Vec3::new(1.5, -0.2, 0.0));
    }

    #[test]
    fn raycast_hits_the_right_triangle() {
        let mesh = floor();
        // Triangle 0 is the half x > z, triangle 1 the half x < z.
        let (t, k, n) = mesh.raycast(Vec3::new(0.5, 1.0, -0.5), Vec3::new(0.0, -2.0, 0.0), 10.0).unwrap();
        assert_eq!((t, k, n), (0.5, 0, Vec3::Y));
        let (t, k, n) = mesh.raycast(Vec3::new(-0.5, -3.0, 0.5), Vec3::Y, 10.0).unwrap();
        assert_eq!((t, k, n), (3.0, 1, -Vec3::Y));
        assert!(mesh.raycast(Vec3::new(-0.5, -3.0, 0.5), Vec3::Y, 2.0).is_none());
        assert!(mesh.raycast(Vec3::new(1.5, 1.0, 0.0), -Vec3::Y, 10.0).is_none());
        assert!(mesh.raycast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 10.0).is_none());
    }

    /// A bumpy 24 x 24 grid of quads, with the diagonal alternating.
    fn terrain() -> TriMesh {
        let n = 25;
        let mut v = Vec::new();
        for j in 0..n {
            for i in 0..n {
                let (x, z) = (i as f32 * 0.5, j as f32 * 0.5);
                v.push(Vec3::new(x, (x * 1.3).sin() * 0.4 + (z * 0.7).cos() * 0.6, z));
            }
        }
        let mut idx = Vec::new();
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                let (a, b, c, d) = (j * n + i, j * n + i + 1, (j + 1) * n + i, (j + 1) * n + i + 1);
                if (i + j) % 2 == 0 {
                    idx.extend([a, c, d, a, d, b]);
                } else {
                    idx.extend([a, c, b, b, c, d]);
                }
            }
        }
        TriMesh::new(&v, &idx).unwrap()
    }

    #[test]
    fn query_and_raycast_equal_brute_force() {
        let mesh = terrain();
        assert_eq!(mesh.triangle_count(), 24 * 24 * 2);
        let mut seed = 5u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut out = Vec::new();
        let mut hits = 0;
        for _ in 0..200 {
            let lo = Vec3::new(next() * 14.0 - 1.0, next() * 3.0 - 1.5, next() * 14.0 - 1.0);
            let hi = lo + Vec3::new(next(), next(), next()) * 2.0;
            out.clear();
            mesh.query(lo, hi, &mut out);
            out.sort_unstable();
            let brute: Vec<u32> = (0..mesh.triangle_count())
                .filter(|&k| {
                    let [a, b, c] = mesh.triangle(k);
                    super::super::boxes_overlap(lo, hi, a.min(b).min(c), a.max(b).max(c))
                })
                .collect();
            assert_eq!(out, brute);

            let origin = Vec3::new(next() * 14.0 - 1.0, next() * 4.0 - 1.0, next() * 14.0 - 1.0);
            let dir = Vec3::new(next() - 0.5, next() - 0.6, next() - 0.5);
            let got = mesh.raycast(origin, dir, 20.0);
            let brute = (0..mesh.triangle_count())
                .filter_map(|k| triangle::ray(origin, dir, 20.0, &mesh.triangle(k)).map(|(t, _)| t))
                .fold(None, |best: Option<f32>, t| Some(best.map_or(t, |b| b.min(t))));
            assert_eq!(got.map(|g| g.0), brute);
            if let Some((t, k, n)) = got {
                assert_eq!(triangle::ray(origin, dir, 20.0, &mesh.triangle(k)).map(|h| h.0), Some(t));
                assert!(n.dot(dir) < 0.0);
                hits += 1;
            }
        }
        assert!(hits > 50, "{hits}");
    }

    #[test]
    fn degenerate_triangles_are_dropped_and_indices_rebuild_the_mesh() {
        let v = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::X * 2.0];
        // A collinear triangle, a real one, a repeated vertex.
        let mesh = TriMesh::new(&v, &[0, 1, 3, 0, 2, 1, 2, 2, 1]).unwrap();
        assert_eq!(mesh.triangle_count(), 1);
        assert_eq!(mesh.indices(), [0, 2, 1]);
        assert_eq!(mesh.triangle(0), [Vec3::ZERO, Vec3::Z, Vec3::X]);
        assert_eq!(mesh.bounds(), (Vec3::ZERO, Vec3::new(1.0, 0.0, 1.0)));
        let again = TriMesh::new(mesh.vertices(), mesh.indices()).unwrap();
        assert_eq!((again.vertices(), again.indices()), (mesh.vertices(), mesh.indices()));
    }

    #[test]
    fn bad_input_is_refused_with_the_offending_item_named() {
        let v = [Vec3::ZERO, Vec3::X, Vec3::Z];
        let refuse = |vertices: &[Vec3], indices: &[u32], names: &str| {
            let e = TriMesh::new(vertices, indices).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidArgument);
            assert!(e.message.contains(names), "{}", e.message);
        };
        refuse(&[], &[0, 1, 2], "vertex list is empty");
        refuse(&v, &[], "index list is empty");
        refuse(&v, &[0, 1, 2, 0], "4 indices");
        refuse(&v, &[0, 2, 1, 0, 1, 3], "index 5 (triangle 1) is 3");
        refuse(&[Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Z], &[0, 1, 2], "vertex 1");
        refuse(&[Vec3::ZERO, Vec3::X, Vec3::new(0.0, 0.0, 1e20)], &[0, 1, 2], "vertex 2");
        refuse(&v, &[0, 1, 1, 2, 2, 2], "all 2 triangles are degenerate");
    }
}
