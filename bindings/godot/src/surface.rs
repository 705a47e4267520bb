//! The render surface of a cloth: vertices, UVs and the index buffer in
//! Godot's winding, and the conversion of a Godot mesh's triangles to
//! sinew's.
//!
//! Godot's front faces are clockwise (`RenderingServer` culls
//! counter-clockwise ones by default); sinew's triangles are
//! counter-clockwise seen from the front, which is where its normals point.
//! Reversing each triangle keeps the same front side in both.
//!
//! Vertex buffers hold `f32` positions even in Godot's double builds, so the
//! cloth's vertices are written relative to its body's origin (a grid point
//! near the cloth, [`render_positions`]) and the node is placed there: the
//! far part of every position travels in the node's transform, in `real`.

use glam::DVec3;
use sinew::{BodyId, Vec3, World};

/// A Godot index buffer (clockwise triangles; empty for a non-indexed
/// surface of `vertex_count` vertices) as sinew triangles (counter-clockwise).
/// Errors on a count that is not a multiple of 3 or a bad index.
pub fn godot_to_sinew_triangles(indices: &[i32], vertex_count: usize) -> Result<Vec<[u32; 3]>, String> {
    let flat: Vec<i32> = if indices.is_empty() { (0..vertex_count as i32).collect() } else { indices.to_vec() };
    if !flat.len().is_multiple_of(3) || flat.is_empty() {
        return Err(format!("a triangle surface needs a multiple of 3 indices, got {}", flat.len()));
    }
    if let Some(&bad) = flat.iter().find(|&&i| i < 0 || i as usize >= vertex_count) {
        return Err(format!("index {bad} out of range ({vertex_count} vertices)"));
    }
    Ok(flat.chunks_exact(3).map(|t| [t[0] as u32, t[2] as u32, t[1] as u32]).collect())
}

/// sinew triangles (counter-clockwise) as a Godot index buffer (clockwise).
pub fn sinew_to_godot_indices(triangles: &[[u32; 3]]) -> Vec<i32> {
    triangles.iter().flat_map(|t| [t[0] as i32, t[2] as i32, t[1] as i32]).collect()
}

/// The frame a cloth's render mesh is written in, and each particle's
/// position in it: the body's origin (a grid point near the cloth, exact in
/// `f32` and in `f64`) and the particles relative to it, which is how the
/// core keeps them (no rounding at world scale). Returns the origin; `out`
/// is refilled.
pub fn render_positions(world: &World, body: BodyId, out: &mut Vec<Vec3>) -> sinew::Result<DVec3> {
    let origin = world.body_origin(body)?.as_dvec3();
    out.clear();
    out.extend(world.positions_f64(body)?.map(|p| (p - origin).as_vec3()));
    Ok(origin)
}

/// UVs of a sinew grid's vertices (vertex `r * columns + c`): u along the
/// columns, v down the rows, both from 0 to 1.
pub fn grid_uvs(columns: u32, rows: u32) -> Vec<[f32; 2]> {
    let (cu, rv) = ((columns.max(2) - 1) as f32, (rows.max(2) - 1) as f32);
    (0..rows).flat_map(|r| (0..columns).map(move |c| [c as f32 / cu, r as f32 / rv])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::{REAL_IS_F64, decompose, from_dvec3, to_dvec3};
    use godot::builtin::{Basis, Transform3D, Vector3};
    use sinew::{GridDef, WorldSettings};

    #[test]
    fn winding_round_trips_and_reverses() {
        let tris = [[0, 1, 2], [2, 1, 3]];
        let godot = sinew_to_godot_indices(&tris);
        assert_eq!(godot, vec![0, 2, 1, 2, 3, 1]);
        assert_eq!(godot_to_sinew_triangles(&godot, 4).unwrap(), tris);
        // Non-indexed: consecutive vertices.
        assert_eq!(godot_to_sinew_triangles(&[], 3).unwrap(), vec![[0, 2, 1]]);
    }

    #[test]
    fn bad_index_buffers_are_refused() {
        assert!(godot_to_sinew_triangles(&[0, 1], 3).is_err());
        assert!(godot_to_sinew_triangles(&[0, 1, 3], 3).unwrap_err().contains("index 3"));
        assert!(godot_to_sinew_triangles(&[0, -1, 2], 3).is_err());
        assert!(godot_to_sinew_triangles(&[], 0).is_err());
    }

    #[test]
    fn godot_triangles_of_a_grid_are_clockwise_seen_from_its_normal() {
        let mut world = World::new(WorldSettings::default()).unwrap();
        let id = world.create_cloth_grid(&GridDef { columns: 4, rows: 3, pins: 0, ..GridDef::default() }).unwrap();
        let positions: Vec<Vec3> = world.positions(id).unwrap().collect();
        let normals = world.cloth_normals(id).unwrap();
        let indices = sinew_to_godot_indices(world.cloth_triangles(id).unwrap());
        assert_eq!(indices.len(), 3 * 2 * 3 * 2);
        for t in indices.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| positions[i as usize]);
            // Seen from the side the normal points to, a clockwise triangle's
            // (b - a) x (c - a) points away from the viewer.
            let n = normals[t[0] as usize];
            assert!((b - a).cross(c - a).dot(n) < 0.0, "{t:?}");
        }
        // The grid faces +Z in its frame, so a camera at +Z sees the front.
        assert!(normals.iter().all(|n| (*n - Vec3::Z).length() < 1e-6));
    }

    /// What `SinewCloth3D` does for a grid cloth on a node with transform
    /// `t`: where Godot draws its vertices (world space, `f64`) when built
    /// and after 60 physics frames.
    fn grid_cloth_on(t: &Transform3D) -> (Vec<DVec3>, Vec<DVec3>) {
        let mut world = World::new(WorldSettings::default()).unwrap();
        let pose = decompose(t);
        let def = GridDef { columns: 5, rows: 4, spacing: 0.1, pins: 0, rotation: pose.rotation, ..GridDef::default() };
        let body = world.create_cloth_grid_f64(&def, pose.position).unwrap();
        let before = rendered(&world, body);
        for _ in 0..60 {
            world.step(1.0 / 60.0).unwrap();
        }
        (before, rendered(&world, body))
    }

    /// Where Godot draws the cloth's vertices: the node, placed at the
    /// render origin in `real` (a grid point, exact in either precision),
    /// plus each vertex in the node's frame.
    fn rendered(world: &World, body: BodyId) -> Vec<DVec3> {
        let mut local = Vec::new();
        let origin = render_positions(world, body, &mut local).unwrap();
        let node = from_dvec3(origin);
        assert_eq!(to_dvec3(node), origin);
        local.iter().map(|p| to_dvec3(node) + p.as_dvec3()).collect()
    }

    #[test]
    fn a_cloth_10_km_out_renders_where_its_node_is_and_falls_as_one_at_the_origin() {
        // A node turned about Y, 0.123 456 789 m past a point of the core's
        // 4 m grid, and the same node 10 km out (a whole number of grid
        // steps): in a double build both cloths have the same offsets from
        // their grid points, so they move the same to the bit. A single
        // build rounds the far node's place to f32's 1 mm first, and the
        // fluttering cloth (air drag) carries that difference on.
        let basis = Basis::from_axis_angle(Vector3::UP, 0.5);
        let near = Transform3D::new(basis, from_dvec3(DVec3::new(1.123_456_789, 2.0, -0.75)));
        let far = Transform3D::new(basis, near.origin + Vector3::new(10_000.0, 0.0, -10_000.0));
        let (near0, near1) = grid_cloth_on(&near);
        let (far0, far1) = grid_cloth_on(&far);
        // The first vertex is the node's origin: it comes back where Godot
        // put it (to the f32 rounding of its offset from the body's grid
        // point in a double build; at f32's 1 mm at 10 km in a single one).
        let placed = (far0[0] - to_dvec3(far.origin)).abs().max_element();
        let moved = to_dvec3(far.origin) - to_dvec3(near.origin);
        let mut worst_rest = 0.0f64;
        let mut worst_fall = 0.0f64;
        for k in 0..near0.len() {
            worst_rest = worst_rest.max((far0[k] - near0[k] - moved).abs().max_element());
            worst_fall = worst_fall.max(((far1[k] - far0[k]) - (near1[k] - near0[k])).abs().max_element());
        }
        let fell = near0[0].y - near1[0].y;
        eprintln!(
            "cloth 10 km out (real is f{}): node origin back {placed:.2e} m off, shape {worst_rest:.2e} m, 1 s fall {worst_fall:.2e} m off the origin's ({fell:.3} m)",
            if REAL_IS_F64 { 64 } else { 32 }
        );
        assert!(fell > 4.0, "the near cloth fell {fell} m");
        let (place_bar, fall_bar) = if REAL_IS_F64 { (1e-6, 1e-6) } else { (1e-3, 1e-2) };
        assert!(placed <= place_bar, "the far cloth's first vertex is {placed} m from its node");
        assert!(worst_rest <= place_bar, "the far cloth's shape is {worst_rest} m off the near one's");
        assert!(worst_fall <= fall_bar, "the far cloth's fall is {worst_fall} m off the near one's");
    }

    #[test]
    fn grid_uvs_span_the_unit_square_in_vertex_order() {
        let uv = grid_uvs(3, 2);
        assert_eq!(uv, vec![[0.0, 0.0], [0.5, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 1.0], [1.0, 1.0]]);
    }
}
