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

/// Sticks in a direction class below this count are coloured greedily.
const MIN_CLASS: usize = 64;

/// Colours two-particle constraints ("sticks") so that the batches hold long
/// runs of consecutive particles, which vector kernels load and store whole.
///
/// Sticks are grouped by their index offset `b - a` (on a grid, one
/// direction: all horizontal edges, all vertical ones, ...). Within a class,
/// two sticks meet only when their first particles are one offset apart, so
/// the parity of `a / |offset|` splits the class into two particle-disjoint
/// batches whose sticks run in blocks of `|offset|` consecutive particles.
/// Classes of fewer than 64 sticks, classes beyond the 32nd, and sticks that
/// still meet another of their batch (duplicates) are coloured greedily
/// after them.
/// Deterministic: classes come in the order of their first stick.
pub fn colour_sticks(items: &[[u32; 2]], particle_count: usize) -> Colouring {
    use std::collections::HashMap;
    let offset = |s: &[u32; 2]| i64::from(s[1]) - i64::from(s[0]);
    let mut class_of: HashMap<i64, usize> = HashMap::new();
    let mut classes: Vec<(i64, usize)> = Vec::new();
    for s in items {
        let d = offset(s);
        let k = *class_of.entry(d).or_insert_with(|| {
            classes.push((d, 0));
            classes.len() - 1
        });
        classes[k].1 += 1;
    }
    // Two batches per large class; usize::MAX marks "greedy" classes.
    let mut batch_count = 0;
    let mut first_batch = vec![usize::MAX; classes.len()];
    for (k, &(_, count)) in classes.iter().enumerate() {
        if count >= MIN_CLASS && batch_count < MAX_COLOURS as usize {
            first_batch[k] = batch_count;
            batch_count += 2;
        }
    }
    let mut used = vec![0u64; particle_count];
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); batch_count];
    let mut rest = Vec::new();
    for (c, s) in items.iter().enumerate() {
        let d = offset(s);
        let first = first_batch[class_of[&d]];
        if first == usize::MAX || d == 0 {
            rest.push(c as u32);
            continue;
        }
        let low = s[0].min(s[1]) as u64;
        let batch = first + ((low / d.unsigned_abs()) % 2) as usize;
        let bit = 1u64 << batch;
        if (used[s[0] as usize] | used[s[1] as usize]) & bit != 0 {
            rest.push(c as u32);
            continue;
        }
        used[s[0] as usize] |= bit;
        used[s[1] as usize] |= bit;
        members[batch].push(c as u32);
    }
    let mut order = Vec::with_capacity(items.len());
    let mut batches = Vec::new();
    for m in members.iter().filter(|m| !m.is_empty()) {
        batches.push(order.len()..order.len() + m.len());
        order.extend_from_slice(m);
    }
    let rest_items: Vec<[u32; 2]> = rest.iter().map(|&c| items[c as usize]).collect();
    let greedy = colour(&rest_items, particle_count);
    let base = order.len();
    order.extend(greedy.order.iter().map(|&k| rest[k as usize]));
    batches.extend(greedy.batches.iter().map(|r| r.start + base..r.end + base));
    Colouring { order, batches, serial_tail: greedy.serial_tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An n x n grid's structural edges and anti-diagonals, and the main
    /// diagonals when `both_diagonals`.
    fn grid_edges(n: u32, both_diagonals: bool) -> Vec<[u32; 2]> {
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
                    if both_diagonals {
                        edges.push([id(r, c), id(r + 1, c + 1)]);
                    }
                    edges.push([id(r, c + 1), id(r + 1, c)]);
                }
            }
        }
        edges
    }

    #[test]
    fn batches_are_particle_disjoint_and_cover_everything() {
        // A 10x10 grid's structural and shear edges.
        let n = 10u32;
        let edges = grid_edges(n, true);
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

    #[test]
    fn sticks_coloured_by_direction_are_disjoint_and_complete() {
        let n = 20u32;
        let mut edges = grid_edges(n, false);
        edges.push([3, 4]); // a duplicate goes to the greedy batches
        let col = colour_sticks(&edges, (n * n) as usize);
        let mut seen = vec![false; edges.len()];
        for r in &col.batches {
            let mut used = vec![false; (n * n) as usize];
            for &k in &col.order[r.clone()] {
                assert!(!seen[k as usize]);
                seen[k as usize] = true;
                for &p in &edges[k as usize] {
                    assert!(!used[p as usize], "batch shares particle {p}");
                    used[p as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // Three directions, two batches each, then the greedy rest.
        assert!(col.batches.len() >= 7, "{}", col.batches.len());
        // The vertical class: whole rows of consecutive particles.
        let vertical = col
            .batches
            .iter()
            .find(|r| edges[col.order[r.start] as usize][1] - edges[col.order[r.start] as usize][0] == n)
            .expect("a vertical batch");
        assert!(
            col.order[vertical.clone()]
                .windows(2)
                .take(n as usize - 1)
                .all(|w| edges[w[1] as usize][0] == edges[w[0] as usize][0] + 1)
        );
    }
}
