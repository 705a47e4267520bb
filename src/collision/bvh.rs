//! Bounding volume hierarchy over axis-aligned item boxes, built once (for a
//! static triangle mesh) and queried many times.
//!
//! Top-down build splitting the longest axis of the centroid bounds at the
//! median (Ericson, "Real-Time Collision Detection" 6.2.1). Median splits make
//! the depth `ceil(log2(n / 4))`, so fixed stacks of 64 suffice for any u32
//! count and the build needs no recursion. Nodes are stored in preorder: an
//! internal node's left child is the next node, the right child's index is
//! stored (Ericson 6.6.2). The split is a total order (centroid, then item
//! index), so the tree, and every query's output order, depend on the boxes
//! only.

use super::boxes_overlap;
use glam::Vec3;

/// Items per leaf, at most.
const LEAF_SIZE: u32 = 4;

/// Depth of the traversal stacks (the tree's depth is at most 31).
const STACK: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    lo: Vec3,
    hi: Vec3,
    /// Leaf: first slot in `items`. Internal: the right child.
    first: u32,
    /// Leaf: item count (>= 1). Internal: 0.
    count: u32,
}

/// A static hierarchy of item boxes; items are the indices of the boxes given
/// to [`Bvh::build`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bvh {
    nodes: Vec<Node>,
    /// Item indices in leaf order.
    items: Vec<u32>,
    /// Their boxes, in the same order.
    boxes: Vec<(Vec3, Vec3)>,
}

impl Bvh {
    /// Builds the hierarchy over `boxes` (each `(lo, hi)`); empty is allowed.
    /// Iterative, O(n log n).
    pub fn build(boxes: &[(Vec3, Vec3)]) -> Bvh {
        // Node indices reach 2n: keep them in u32.
        assert!(boxes.len() <= (u32::MAX / 2) as usize, "Bvh: {} items is more than u32 indexing allows", boxes.len());
        let n = boxes.len() as u32;
        if n == 0 {
            return Bvh::default();
        }
        let centroids: Vec<Vec3> = boxes.iter().map(|&(lo, hi)| (lo + hi) * 0.5).collect();
        let mut items: Vec<u32> = (0..n).collect();
        let mut nodes: Vec<Node> = Vec::with_capacity((2 * n / LEAF_SIZE + 1) as usize);
        // (start, end, parent of a right child or u32::MAX); a left child is
        // popped right after its parent, so it lands at parent + 1.
        let mut work = vec![(0u32, n, u32::MAX)];
        while let Some((start, end, parent)) = work.pop() {
            let index = nodes.len() as u32;
            if parent != u32::MAX {
                nodes[parent as usize].first = index;
            }
            let range = &mut items[start as usize..end as usize];
            let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
            for &k in range.iter() {
                lo = lo.min(boxes[k as usize].0);
                hi = hi.max(boxes[k as usize].1);
            }
            if end - start <= LEAF_SIZE {
                range.sort_unstable();
                nodes.push(Node { lo, hi, first: start, count: end - start });
                continue;
            }
            let (mut clo, mut chi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
            for &k in range.iter() {
                clo = clo.min(centroids[k as usize]);
                chi = chi.max(centroids[k as usize]);
            }
            let extent = chi - clo;
            let axis = if extent.x >= extent.y && extent.x >= extent.z {
                0
            } else if extent.y >= extent.z {
                1
            } else {
                2
            };
            let half = (end - start) / 2;
            range.select_nth_unstable_by(half as usize, |&i, &j| {
                centroids[i as usize][axis].total_cmp(&centroids[j as usize][axis]).then(i.cmp(&j))
            });
            nodes.push(Node { lo, hi, first: u32::MAX, count: 0 });
            work.push((start + half, end, index));
            work.push((start, start + half, u32::MAX));
        }
        let ordered = items.iter().map(|&k| boxes[k as usize]).collect();
        Bvh { nodes, items, boxes: ordered }
    }

    /// How many items.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// No items?
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The box around every item; inverted (`lo = +inf`, `hi = -inf`, overlapping
    /// nothing) when empty.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.nodes.first().map_or((Vec3::INFINITY, Vec3::NEG_INFINITY), |root| (root.lo, root.hi))
    }

    /// Appends to `out` every item whose box overlaps `lo..hi` (bounds
    /// included), in depth-first left-to-right order. No allocation beyond
    /// growing `out`.
    pub fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; STACK];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let index = stack[top];
            let node = &self.nodes[index as usize];
            if !boxes_overlap(lo, hi, node.lo, node.hi) {
                continue;
            }
            if node.count > 0 {
                let slots = node.first as usize..(node.first + node.count) as usize;
                for (&item, &(a, b)) in self.items[slots.clone()].iter().zip(&self.boxes[slots]) {
                    if boxes_overlap(lo, hi, a, b) {
                        out.push(item);
                    }
                }
            } else {
                // Right below left, so left pops first.
                stack[top] = node.first;
                stack[top + 1] = index + 1;
                top += 2;
            }
        }
    }

    /// The nearest item along the ray `origin + t dir`, `t` in `[0, max_t]`:
    /// nodes are visited front to back by their slab entry, `hit(item, best_t)`
    /// is called for each item of a reached leaf and returns the item's `t` if
    /// it hits it before `best_t` (at `max_t` at the latest). Returns the item
    /// and its `t`; on equal `t`, the first found.
    pub fn raycast(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
        mut hit: impl FnMut(u32, f32) -> Option<f32>,
    ) -> Option<(u32, f32)> {
        let ray = Ray::new(origin, dir);
        let root = self.nodes.first()?;
        let mut stack = [(0u32, 0f32); STACK];
        stack[0] = (0, ray.enter(root.lo, root.hi, max_t)?);
        let mut top = 1;
        let mut best: Option<(u32, f32)> = None;
        let mut best_t = max_t;
        while top > 0 {
            top -= 1;
            let (index, enter) = stack[top];
            if enter > best_t {
                continue;
            }
            let node = &self.nodes[index as usize];
            if node.count > 0 {
                for &item in &self.items[node.first as usize..(node.first + node.count) as usize] {
                    let Some(t) = hit(item, best_t) else { continue };
                    if t < best_t || (best.is_none() && t <= best_t) {
                        best = Some((item, t));
                        best_t = t;
                    }
                }
                continue;
            }
            let (left, right) = (index + 1, node.first);
            let near = |k: u32| {
                let n = &self.nodes[k as usize];
                ray.enter(n.lo, n.hi, best_t).map(|t| (k, t))
            };
            match (near(left), near(right)) {
                (Some(l), Some(r)) => {
                    // The farther below, so the nearer pops first.
                    let (first, second) = if r.1 < l.1 { (r, l) } else { (l, r) };
                    stack[top] = second;
                    stack[top + 1] = first;
                    top += 2;
                }
                (Some(one), None) | (None, Some(one)) => {
                    stack[top] = one;
                    top += 1;
                }
                (None, None) => {}
            }
        }
        best
    }
}

/// A ray prepared for slab tests against boxes (Kay and Kajiya 1986; Ericson
/// 5.3.3).
#[derive(Debug, Clone, Copy)]
pub struct Ray {
    origin: Vec3,
    inv_dir: Vec3,
    /// Axes the ray does not move along: `1 / d` would be infinite and
    /// `0 * inf` NaN, so they are tested by position.
    parallel: glam::BVec3,
}

impl Ray {
    pub fn new(origin: Vec3, dir: Vec3) -> Ray {
        let inv = dir.recip();
        let parallel = glam::BVec3::new(!inv.x.is_finite(), !inv.y.is_finite(), !inv.z.is_finite());
        Ray { origin, inv_dir: Vec3::select(parallel, Vec3::ZERO, inv), parallel }
    }

    /// The `t` at which the ray enters the box `lo..hi` (0 if it starts
    /// inside), or `None` if it misses it within `[0, max_t]`. The exit is
    /// padded by 1e-5 relative so rounding never drops an item lying on a box
    /// face; the caller's exact test decides.
    #[inline]
    pub fn enter(&self, lo: Vec3, hi: Vec3, max_t: f32) -> Option<f32> {
        self.span(lo, hi, max_t).map(|(enter, _)| enter)
    }

    /// The `t` interval `(enter, exit)` of the ray inside the box `lo..hi`,
    /// within `[0, max_t]`, exit padded as in [`Ray::enter`].
    #[inline]
    pub fn span(&self, lo: Vec3, hi: Vec3, max_t: f32) -> Option<(f32, f32)> {
        let t1 = (lo - self.origin) * self.inv_dir;
        let t2 = (hi - self.origin) * self.inv_dir;
        let near = Vec3::select(self.parallel, Vec3::NEG_INFINITY, t1.min(t2));
        let far = Vec3::select(self.parallel, Vec3::INFINITY, t1.max(t2));
        let outside = self.origin.cmplt(lo) | self.origin.cmpgt(hi);
        if (self.parallel & outside).any() {
            return None;
        }
        let enter = near.max_element().max(0.0);
        let exit = far.min_element().min(max_t);
        (enter <= exit * (1.0 + 1e-5)).then_some((enter, exit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::collision::test_rng::Lcg;

    /// `n` random boxes of sizes up to `size` in a cube of `world`.
    fn random_boxes(rng: &mut Lcg, n: usize, world: f32, size: f32) -> Vec<(Vec3, Vec3)> {
        (0..n)
            .map(|_| {
                let lo = rng.vec(world);
                (lo, lo + rng.vec(size))
            })
            .collect()
    }

    fn brute_query(boxes: &[(Vec3, Vec3)], lo: Vec3, hi: Vec3) -> Vec<u32> {
        (0..boxes.len() as u32).filter(|&k| boxes_overlap(lo, hi, boxes[k as usize].0, boxes[k as usize].1)).collect()
    }

    #[test]
    fn query_equals_brute_force() {
        let mut rng = Lcg(1);
        let boxes = random_boxes(&mut rng, 2000, 100.0, 8.0);
        let bvh = Bvh::build(&boxes);
        assert_eq!(bvh.len(), 2000);
        let mut out = Vec::new();
        let mut found = 0;
        for q in 0..300 {
            let lo = rng.vec(110.0) - Vec3::splat(5.0);
            let hi = lo + rng.vec(if q % 10 == 0 { 60.0 } else { 8.0 });
            out.clear();
            bvh.query(lo, hi, &mut out);
            let mut sorted = out.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, brute_query(&boxes, lo, hi));
            found += out.len();
        }
        assert!(found > 1000, "{found}");
        // Touching counts (bounds included).
        let (lo, hi) = boxes[17];
        out.clear();
        bvh.query(hi, hi + Vec3::ONE, &mut out);
        assert!(out.contains(&17));
        out.clear();
        bvh.query(lo - Vec3::ONE, lo, &mut out);
        assert!(out.contains(&17));
    }

    #[test]
    fn query_order_is_deterministic_and_allocation_free() {
        let mut rng = Lcg(2);
        let boxes = random_boxes(&mut rng, 5000, 50.0, 2.0);
        let (a, b) = (Bvh::build(&boxes), Bvh::build(&boxes));
        let (mut x, mut y) = (Vec::with_capacity(5000), Vec::new());
        let (lo, hi) = (Vec3::splat(10.0), Vec3::splat(30.0));
        a.query(lo, hi, &mut x);
        b.query(lo, hi, &mut y);
        assert_eq!(x, y);
        assert!(x.capacity() == 5000 && !x.is_empty());
    }

    #[test]
    fn raycast_equals_brute_force() {
        let mut rng = Lcg(3);
        let boxes = random_boxes(&mut rng, 1500, 100.0, 8.0);
        let bvh = Bvh::build(&boxes);
        let mut hits = 0;
        for k in 0..400 {
            let origin = rng.vec(140.0) - Vec3::splat(20.0);
            let mut dir = rng.vec(2.0) - Vec3::ONE;
            // Some rays along axes (zero components).
            if k % 7 == 0 {
                dir = Vec3::new(dir.x, 0.0, 0.0);
            } else if k % 7 == 1 {
                dir = Vec3::new(0.0, dir.y, dir.z);
            }
            let max_t = 30.0 + rng.next() * 100.0;
            let ray = Ray::new(origin, dir);
            let exact = |item: u32, best: f32| {
                let (lo, hi) = boxes[item as usize];
                ray.span(lo, hi, best).filter(|&(e, x)| e <= x).map(|(e, _)| e)
            };
            let got = bvh.raycast(origin, dir, max_t, exact);
            let brute = (0..boxes.len() as u32).filter_map(|k| exact(k, max_t).map(|t| (k, t))).fold(
                None,
                |best: Option<(u32, f32)>, (k, t)| if best.is_none_or(|b| t < b.1) { Some((k, t)) } else { best },
            );
            assert_eq!(got.map(|g| g.1), brute.map(|b| b.1), "ray {k}");
            if let Some((item, t)) = got {
                assert_eq!(exact(item, max_t), Some(t));
                hits += 1;
            }
        }
        assert!(hits > 100, "{hits}");
    }

    #[test]
    fn empty_and_identical_boxes() {
        let empty = Bvh::build(&[]);
        let mut out = vec![7];
        empty.query(Vec3::splat(-1e30), Vec3::splat(1e30), &mut out);
        assert_eq!(out, [7]);
        assert!(empty.is_empty());
        assert_eq!(empty.len(), 0);
        assert!(empty.raycast(Vec3::ZERO, Vec3::X, 1e30, |_, _| Some(0.0)).is_none());
        let (lo, hi) = empty.bounds();
        assert!(!boxes_overlap(lo, hi, Vec3::splat(-1e30), Vec3::splat(1e30)));
        // All centroids equal: the median split still halves by index.
        let same = vec![(Vec3::ZERO, Vec3::ONE); 1000];
        let bvh = Bvh::build(&same);
        out.clear();
        bvh.query(Vec3::splat(0.5), Vec3::splat(0.5), &mut out);
        out.sort_unstable();
        assert_eq!(out, (0..1000).collect::<Vec<u32>>());
        assert_eq!(bvh.bounds(), (Vec3::ZERO, Vec3::ONE));
    }

    #[test]
    fn builds_100k_items() {
        let mut rng = Lcg(4);
        let boxes = random_boxes(&mut rng, 100_000, 1000.0, 1.0);
        let bvh = Bvh::build(&boxes);
        let (lo, hi) = bvh.bounds();
        let mut out = Vec::new();
        bvh.query(lo, hi, &mut out);
        assert_eq!(out.len(), 100_000);
        out.sort_unstable();
        assert!(out.iter().enumerate().all(|(k, &item)| item == k as u32));
    }
}
