//! Which particles ride on which node: pins listed per engine vertex, grouped
//! into one sinew frame attachment per node.

/// Groups pinned vertices by the node they ride on. `vertices[i]` rides on
/// `nodes[i]` when that is given and not `None`, else on `default_node`; a
/// vertex with no node at all is left out (it stays pinned where it is).
/// Vertices become particles through `vertex_map` (welded duplicates appear
/// once per group). Groups keep the order in which their node first appears;
/// particles within a group are sorted. Errors on a vertex out of range.
pub fn group<K: Clone + PartialEq>(
    vertices: &[i32],
    nodes: &[Option<K>],
    default_node: Option<&K>,
    vertex_map: &[u32],
) -> Result<Vec<(K, Vec<u32>)>, String> {
    let mut groups: Vec<(K, Vec<u32>)> = Vec::new();
    for (i, &v) in vertices.iter().enumerate() {
        let particle = usize::try_from(v)
            .ok()
            .and_then(|v| vertex_map.get(v))
            .ok_or_else(|| format!("pin_vertices[{i}] = {v} is not a vertex (the cloth has {})", vertex_map.len()))?;
        let node = nodes.get(i).cloned().flatten().or_else(|| default_node.cloned());
        let Some(node) = node else { continue };
        match groups.iter_mut().find(|(k, _)| *k == node) {
            Some((_, list)) => list.push(*particle),
            None => groups.push((node, vec![*particle])),
        }
    }
    for (_, list) in &mut groups {
        list.sort_unstable();
        list.dedup();
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_group_by_node_with_the_default_for_the_rest() {
        // Vertices 0..6 on particles 0,1,2,0,1,3 (3 welded onto 0, 4 onto 1).
        let map = [0, 1, 2, 0, 1, 3];
        let groups = group(&[5, 0, 3, 1, 2], &[Some("hand"), None, None, Some("hand")], Some(&"pole"), &map).unwrap();
        assert_eq!(groups, vec![("hand", vec![1, 3]), ("pole", vec![0, 2])]);
    }

    #[test]
    fn without_a_default_unnamed_pins_stay_in_place() {
        let groups = group(&[0, 1], &[None, Some(7)], None, &[0, 1]).unwrap();
        assert_eq!(groups, vec![(7, vec![1])]);
    }

    #[test]
    fn out_of_range_vertices_are_refused() {
        assert!(group::<u8>(&[2], &[], None, &[0, 1]).unwrap_err().contains("pin_vertices[0] = 2"));
        assert!(group::<u8>(&[-1], &[], None, &[0, 1]).is_err());
    }
}
