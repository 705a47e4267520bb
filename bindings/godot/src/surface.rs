//! The render surface of a cloth: vertices, UVs and the index buffer in
//! Godot's winding, and the conversion of a Godot mesh's triangles to
//! sinew's.
//!
//! Godot's front faces are clockwise (`RenderingServer` culls
//! counter-clockwise ones by default); sinew's triangles are
//! counter-clockwise seen from the front, which is where its normals point.
//! Reversing each triangle keeps the same front side in both.

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

/// UVs of a sinew grid's vertices (vertex `r * columns + c`): u along the
/// columns, v down the rows, both from 0 to 1.
pub fn grid_uvs(columns: u32, rows: u32) -> Vec<[f32; 2]> {
    let (cu, rv) = ((columns.max(2) - 1) as f32, (rows.max(2) - 1) as f32);
    (0..rows).flat_map(|r| (0..columns).map(move |c| [c as f32 / cu, r as f32 / rv])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::{GridDef, Vec3, World, WorldSettings};

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

    #[test]
    fn grid_uvs_span_the_unit_square_in_vertex_order() {
        let uv = grid_uvs(3, 2);
        assert_eq!(uv, vec![[0.0, 0.0], [0.5, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 1.0], [1.0, 1.0]]);
    }
}
