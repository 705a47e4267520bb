//! The bytes `RenderingServer.mesh_surface_update_vertex_region` takes.
//!
//! Since Godot 4.2 an uncompressed surface's vertex buffer holds two streams
//! one after the other (`servers/rendering_server.cpp`,
//! `mesh_surface_make_offsets_from_format`):
//!
//! ```text
//! [ position 0 | position 1 | ... ]  12-byte float3 each (the "vertex" stream)
//! [ n0 (t0) | n1 (t1) | ... ]         at offset 12 * vertex_count (the "normal/tangent" stream)
//! ```
//!
//! A normal is octahedral-encoded into two unsigned 16-bit values, x in the
//! low half (`Vector3::octahedron_encode`, scaled by 65535 and clamped, as
//! `SoftBodyRenderingServerHandler::set_normal` stores it); a tangent, when the
//! format has one, takes the next 4 bytes, which are left untouched here.
//! Colours and UVs live in another buffer (the attribute stream), so a
//! position+normal update never disturbs them.
//!
//! The offsets are asked from the RenderingServer at run time
//! (`mesh_surface_get_format_offset` and the stride getters); [`Layout::godot_4_2`]
//! is what they return for the surfaces this crate builds, and what the tests
//! check the packing against.

use sinew::Vec3;

/// Where positions and normals go in a surface's vertex buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Vertices of the surface.
    pub vertex_count: usize,
    /// Byte offset of the first position (0).
    pub position_offset: usize,
    /// Bytes from one position to the next (12 for float3).
    pub position_stride: usize,
    /// Byte offset of the first normal, if the surface has normals.
    pub normal_offset: Option<usize>,
    /// Bytes from one normal to the next (4, or 8 with tangents).
    pub normal_stride: usize,
}

impl Layout {
    /// An uncompressed 3D surface in Godot 4.2+: float3 positions, then
    /// octahedral normals (followed by their tangents when `has_tangent`).
    pub fn godot_4_2(vertex_count: usize, has_normal: bool, has_tangent: bool) -> Layout {
        Layout {
            vertex_count,
            position_offset: 0,
            position_stride: 12,
            normal_offset: has_normal.then_some(12 * vertex_count),
            normal_stride: if has_tangent { 8 } else { 4 },
        }
    }

    /// Bytes of the region written: through the last normal (or position).
    pub fn region_len(&self) -> usize {
        let n = self.vertex_count;
        if n == 0 {
            return 0;
        }
        let positions = self.position_offset + (n - 1) * self.position_stride + 12;
        match self.normal_offset {
            Some(o) => positions.max(o + (n - 1) * self.normal_stride + 4),
            None => positions,
        }
    }
}

/// Godot's octahedral normal encoding: the unit normal projected on the
/// octahedron |x| + |y| + |z| = 1, the lower half folded over the upper, mapped
/// from [-1, 1] to [0, 1] and stored as two 16-bit unsigned values (x low).
/// A zero vector encodes as +Z would be undefined in Godot; it gives +Z here.
pub fn octahedral_encode(n: Vec3) -> u32 {
    let l1 = n.x.abs() + n.y.abs() + n.z.abs();
    let n = if l1 > 0.0 && l1.is_finite() { n / l1 } else { Vec3::Z };
    let sign = |v: f32| if v >= 0.0 { 1.0 } else { -1.0 };
    let (ox, oy) = if n.z >= 0.0 { (n.x, n.y) } else { ((1.0 - n.y.abs()) * sign(n.x), (1.0 - n.x.abs()) * sign(n.y)) };
    // (uint16_t)CLAMP(v * 65535, 0, 65535): truncation, as in Godot.
    let q = |o: f32| ((o * 0.5 + 0.5) * 65535.0).clamp(0.0, 65535.0) as u32;
    q(ox) | (q(oy) << 16)
}

/// The inverse of [`octahedral_encode`] (Godot's `Vector3::octahedron_decode`),
/// normalised.
pub fn octahedral_decode(v: u32) -> Vec3 {
    let fx = (v & 0xFFFF) as f32 / 65535.0 * 2.0 - 1.0;
    let fy = (v >> 16) as f32 / 65535.0 * 2.0 - 1.0;
    let mut n = Vec3::new(fx, fy, 1.0 - fx.abs() - fy.abs());
    let t = (-n.z).clamp(0.0, 1.0);
    n.x += if n.x >= 0.0 { -t } else { t };
    n.y += if n.y >= 0.0 { -t } else { t };
    n.normalize()
}

/// Writes positions (and normals, when the layout has them) for each engine
/// vertex into `out`, which must be at least `layout.region_len()` bytes.
/// `vertex_map[k]` is the particle of engine vertex `k`; `positions` and
/// `normals` are per particle.
pub fn pack(layout: &Layout, vertex_map: &[u32], positions: &[Vec3], normals: &[Vec3], out: &mut [u8]) {
    debug_assert_eq!(vertex_map.len(), layout.vertex_count);
    debug_assert!(out.len() >= layout.region_len());
    for (k, &p) in vertex_map.iter().enumerate() {
        let x = positions[p as usize];
        let at = layout.position_offset + k * layout.position_stride;
        for (i, c) in [x.x, x.y, x.z].into_iter().enumerate() {
            out[at + 4 * i..at + 4 * i + 4].copy_from_slice(&c.to_le_bytes());
        }
        if let Some(o) = layout.normal_offset {
            let at = o + k * layout.normal_stride;
            out[at..at + 4].copy_from_slice(&octahedral_encode(normals[p as usize]).to_le_bytes());
        }
    }
}

/// The box around `positions` grown by `margin` on every side, as (min, max);
/// `None` for no positions.
pub fn bounds(positions: impl IntoIterator<Item = Vec3>, margin: f32) -> Option<(Vec3, Vec3)> {
    let mut it = positions.into_iter();
    let first = it.next()?;
    let (lo, hi) = it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    Some((lo - margin, hi + margin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octahedral_encodings_of_the_axes_are_godots() {
        // 0.5 * 65535 = 32767.5, truncated to 32767 (0x7FFF).
        assert_eq!(octahedral_encode(Vec3::Z), 0x7FFF_7FFF);
        assert_eq!(octahedral_encode(Vec3::X), 0x7FFF_FFFF);
        assert_eq!(octahedral_encode(Vec3::NEG_X), 0x7FFF_0000);
        assert_eq!(octahedral_encode(Vec3::Y), 0xFFFF_7FFF);
        assert_eq!(octahedral_encode(Vec3::NEG_Y), 0x0000_7FFF);
        // The lower hemisphere folds: -Z lands on the corner (1, 1).
        assert_eq!(octahedral_encode(Vec3::NEG_Z), 0xFFFF_FFFF);
        // (1, 1, 1)/sqrt(3): projected to (1/3, 1/3) -> 2/3 * 65535 = 43690.
        assert_eq!(octahedral_encode(Vec3::ONE.normalize()), (43690 << 16) | 43690);
        // Length does not matter.
        assert_eq!(octahedral_encode(Vec3::X * 5.0), octahedral_encode(Vec3::X));
    }

    #[test]
    fn octahedral_round_trip_is_within_16_bit_precision() {
        let mut worst = 0.0f32;
        for i in 0..64 {
            for j in 0..32 {
                let (phi, theta) = (i as f32 * 0.0982, j as f32 * 0.0982);
                let n = Vec3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
                worst = worst.max(octahedral_decode(octahedral_encode(n)).distance(n));
            }
        }
        // Truncation to 16 bits moves a point of the octahedron by up to
        // 2/65535 = 3.1e-5 per axis; the map back to the sphere stretches
        // that by up to about 4 near the folds.
        assert!(worst < 2e-4, "worst error {worst}");
        assert!(worst > 1e-5, "16 bits cannot be exact: {worst}");
        assert_eq!(octahedral_decode(octahedral_encode(Vec3::NEG_Z)), Vec3::NEG_Z);
    }

    #[test]
    fn godot_4_2_layout_puts_normals_after_all_positions() {
        let l = Layout::godot_4_2(100, true, false);
        assert_eq!((l.position_offset, l.position_stride, l.normal_offset, l.normal_stride), (0, 12, Some(1200), 4));
        assert_eq!(l.region_len(), 1600);
        let t = Layout::godot_4_2(100, true, true);
        assert_eq!((t.normal_offset, t.normal_stride, t.region_len()), (Some(1200), 8, 1200 + 99 * 8 + 4));
        assert_eq!(Layout::godot_4_2(3, false, false).region_len(), 36);
        assert_eq!(Layout::godot_4_2(0, true, false).region_len(), 0);
    }

    #[test]
    fn pack_writes_little_endian_float3_positions_and_encoded_normals() {
        let positions = [Vec3::new(1.0, 2.0, 3.0), Vec3::new(-0.5, 0.25, 8.0)];
        let normals = [Vec3::Z, Vec3::NEG_X];
        // Three engine vertices, the third welded onto particle 0.
        let map = [0, 1, 0];
        let layout = Layout::godot_4_2(3, true, false);
        let mut out = vec![0xAAu8; layout.region_len()];
        pack(&layout, &map, &positions, &normals, &mut out);
        let f = |at: usize| f32::from_le_bytes(out[at..at + 4].try_into().unwrap());
        let u = |at: usize| u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
        assert_eq!([f(0), f(4), f(8)], [1.0, 2.0, 3.0]);
        assert_eq!([f(12), f(16), f(20)], [-0.5, 0.25, 8.0]);
        assert_eq!([f(24), f(28), f(32)], [1.0, 2.0, 3.0]);
        assert_eq!([u(36), u(40), u(44)], [0x7FFF_7FFF, 0x7FFF_0000, 0x7FFF_7FFF]);
        // Byte order: 1.0f32 is 00 00 80 3F.
        assert_eq!(&out[0..4], &[0x00, 0x00, 0x80, 0x3F]);
    }

    #[test]
    fn pack_leaves_tangents_alone() {
        let layout = Layout::godot_4_2(2, true, true);
        let mut out = vec![0xAAu8; layout.region_len()];
        pack(&layout, &[0, 1], &[Vec3::ZERO, Vec3::ONE], &[Vec3::Y, Vec3::Y], &mut out);
        // Normal 0 at 24, tangent 0 at 28 (untouched), normal 1 at 32.
        assert_eq!(u32::from_le_bytes(out[24..28].try_into().unwrap()), 0xFFFF_7FFF);
        assert_eq!(&out[28..32], &[0xAA; 4]);
        assert_eq!(u32::from_le_bytes(out[32..36].try_into().unwrap()), 0xFFFF_7FFF);
    }

    #[test]
    fn a_welded_mesh_cloth_streams_each_engine_vertex_from_its_particle() {
        use sinew::{ClothOptions, MeshDef, Quat, World, WorldSettings};
        // Two triangles of a quad with the shared edge's vertices duplicated
        // (a UV seam): 6 engine vertices, 4 particles.
        let v = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let tris = [[0, 1, 2], [3, 4, 5]];
        let pinned = [false, false, true, false, false, true]; // the corner (0, 1)
        let mut world = World::new(WorldSettings::default()).unwrap();
        let def = MeshDef {
            position: Vec3::new(0.0, 2.0, 0.0),
            rotation: Quat::IDENTITY,
            vertices: &v,
            triangles: &tris,
            weld_tolerance: 1e-5,
            inv_masses: None,
            pinned: Some(&pinned),
            options: ClothOptions::default(),
        };
        let id = world.create_cloth_mesh(&def).unwrap();
        for _ in 0..30 {
            world.step(1.0 / 60.0).unwrap();
        }
        let map = world.cloth_vertex_map(id).unwrap().to_vec();
        assert_eq!(map.len(), 6);
        assert_eq!((map[1], map[2]), (map[3], map[5]), "the seam is welded");
        let positions: Vec<Vec3> = world.positions(id).unwrap().collect();
        let normals = world.cloth_normals(id).unwrap();
        let layout = Layout::godot_4_2(6, true, false);
        let mut out = vec![0u8; layout.region_len()];
        pack(&layout, &map, &positions, &normals, &mut out);
        for (k, &p) in map.iter().enumerate() {
            let f = |i: usize| f32::from_le_bytes(out[12 * k + 4 * i..12 * k + 4 * i + 4].try_into().unwrap());
            assert_eq!(Vec3::new(f(0), f(1), f(2)), positions[p as usize]);
            let n = u32::from_le_bytes(out[72 + 4 * k..76 + 4 * k].try_into().unwrap());
            assert!(octahedral_decode(n).distance(normals[p as usize]) < 2e-4);
        }
        // The quad swings down about its pinned corner.
        assert!(positions[map[4] as usize].y < 3.0 - 0.05, "{:?}", positions[map[4] as usize]);
        assert_eq!(positions[map[2] as usize], Vec3::new(0.0, 3.0, 0.0));
    }

    #[test]
    fn bounds_grow_by_the_margin() {
        let pts = [Vec3::new(1.0, -2.0, 0.5), Vec3::new(-1.0, 3.0, 0.0), Vec3::new(0.0, 0.0, 4.0)];
        let (lo, hi) = bounds(pts, 0.1).unwrap();
        assert!((lo - Vec3::new(-1.1, -2.1, -0.1)).abs().max_element() < 1e-6);
        assert!((hi - Vec3::new(1.1, 3.1, 4.1)).abs().max_element() < 1e-6);
        assert_eq!(bounds([], 0.1), None);
    }
}
