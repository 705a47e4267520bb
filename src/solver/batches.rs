//! Graph colouring of constraints into particle-disjoint batches, built once
//! when constraints are added.
//!
//! Greedy first-fit: each constraint takes the lowest colour none of its
//! particles has yet. Within a batch no two constraints share a particle, so a
//! batch can be projected in SIMD lanes or split across threads without write
//! conflicts; batches run one after another (Gauss-Seidel between batches).
//! Constraints that find none of the first 64 colours free go to one final
//! batch that must be projected serially; regular meshes never get there.

use std::ops::Range;

/// Colours beyond this go to the serial tail batch.
const MAX_COLOURS: u32 = 64;

/// A colouring: a permutation of the input and the batch ranges over it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Colouring {
    /// `order[k]` is the input index of the k-th constraint in batch order.
    pub order: Vec<u32>,
    /// Consecutive ranges of `order`, one per colour.
    pub batches: Vec<Range<usize>>,
    /// True when the last batch is the serial tail (its constraints may share particles).
    pub serial_tail: bool,
}

/// Colours constraints that each touch the `K` particles listed in `items`.
/// Deterministic: the input order breaks ties and survives inside each batch.
pub fn colour<const K: usize>(items: &[[u32; K]], particle_count: usize) -> Colouring {
    let mut used = vec![0u64; particle_count];
    let mut colour_of = Vec::with_capacity(items.len());
    let mut counts = vec![0usize; MAX_COLOURS as usize + 1];
    for item in items {
        let taken = item.iter().fold(0u64, |m, &p| m | used[p as usize]);
        let c = (!taken).trailing_zeros().min(MAX_COLOURS);
        if c < MAX_COLOURS {
            for &p in item {
                used[p as usize] |= 1u64 << c;
            }
        }
        colour_of.push(c);
        counts[c as usize] += 1;
    }
    // Counting sort by colour, stable.
    let mut starts = Vec::with_capacity(counts.len());
    let mut acc = 0;
    for &n in &counts {
        starts.push(acc);
        acc += n;
    }
    let mut next = starts.clone();
    let mut order = vec![0u32; items.len()];
    for (i, &c) in colour_of.iter().enumerate() {
        order[next[c as usize]] = i as u32;
        next[c as usize] += 1;
    }
    let batches = counts.iter().zip(&starts).filter(|(n, _)| **n > 0).map(|(&n, &s)| s..s + n).collect();
    Colouring { order, batches, serial_tail: counts[MAX_COLOURS as usize] > 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_particle_disjoint_and_cover_everything() {
        // A 10x10 grid's structural and shear edges.
        let n = 10u32;
        let id = |r: u32, c: u32| r * n + c;
        let mut edges = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if c + 1 < n {
                    edges.push([id(r, c), id(r, c + 1)]);
                }
                if r + 1 < n {
                    edges.push([id(r, c), id(r + 1, c)]);
                }
                if r + 1 < n && c + 1 < n {
                    edges.push([id(r, c), id(r + 1, c + 1)]);
                    edges.push([id(r, c + 1), id(r + 1, c)]);
                }
            }
        }
        let col = colour(&edges, (n * n) as usize);
        assert!(!col.serial_tail);
        let mut seen = vec![false; edges.len()];
        for b in &col.batches {
            let mut touched = std::collections::HashSet::new();
            for &k in &col.order[b.clone()] {
                seen[k as usize] = true;
                for p in edges[k as usize] {
                    assert!(touched.insert(p), "particle {p} twice in one batch");
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // Each particle has degree <= 8, so first-fit needs at most 15 colours.
        assert!(col.batches.len() <= 15, "{} batches", col.batches.len());
    }

    #[test]
    fn a_star_overflows_into_the_serial_tail() {
        let edges: Vec<[u32; 2]> = (1..=70).map(|i| [0, i]).collect();
        let col = colour(&edges, 71);
        assert!(col.serial_tail);
        assert_eq!(col.batches.len(), 65);
        assert_eq!(col.batches.last().unwrap().len(), 6);
    }
}
