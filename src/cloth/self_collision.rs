//! Cloth against cloth: a vertex keeps its thickness from the triangles of its
//! own cloth (self-collision) and of other cloths of its island.
//!
//! Once per step a spatial hash of the triangles' swept boxes lists the
//! (vertex, triangle) pairs that may meet during the step, and records on
//! which side of the triangle the vertex starts. Every relaxation pass then
//! keeps each listed vertex on its side, at least `thickness` from the
//! triangle's plane while it is over the triangle, moving the vertex and the
//! triangle's corners by their inverse masses and barycentric weights
//! (Jakobsen's embedded-point response). Remembering the side is what stops a
//! fast fold from passing through: a vertex found beyond the plane is put
//! back, not pushed on through.
//!
//! Triangles that touch the vertex or its direct neighbours are never paired
//! with it: at rest they lie within a thickness of it. Edge-edge contacts are
//! not handled; at cloth resolutions a vertex meets the triangle first.

use crate::collision::Filter;
use crate::particles::ParticlesMut;
use glam::Vec3;

/// One cloth of an island, as the pair finder sees it.
pub struct Member<'a> {
    /// Index of the body in the island.
    pub body: u32,
    pub triangles: &'a [[u32; 3]],
    /// Neighbours of each particle, CSR: `neighbours[start[i]..start[i + 1]]`.
    pub neighbour_start: &'a [u32],
    pub neighbours: &'a [u32],
    pub thickness: f32,
    pub self_collision: bool,
    pub cloth_collision: bool,
    /// Its collision layers: two cloths meet when each one's mask holds a
    /// layer of the other.
    pub filter: Filter,
}

/// A vertex that may meet a triangle this step.
#[derive(Debug, Clone, Copy)]
pub struct Pair {
    pub vertex_body: u32,
    pub vertex: u32,
    pub triangle_body: u32,
    pub triangle: [u32; 3],
    /// +1 or -1: the side of the triangle's front the vertex started on;
    /// 0 while it has been beside the triangle (see `project`).
    pub side: f32,
    pub thickness: f32,
}

/// Per-island scratch for the pair search, kept between steps.
#[derive(Default, Debug, Clone)]
pub struct PairFinder {
    /// (hashed cell, member, triangle) entries, sorted by cell.
    entries: Vec<(u32, u32, u32)>,
    bucket_start: Vec<u32>,
    candidates: Vec<(u32, u32)>,
    kept: Vec<(f32, Pair)>,
}

const HASH_BITS_MAX: u32 = 22;
/// The most triangles one vertex is kept off in a step (the nearest).
const MAX_PAIRS_PER_VERTEX: usize = 16;
/// The most cells a box covers along an axis in the hash, minus one.
const MAX_SPAN: i32 = 7;
/// Barycentric slack: a vertex over a triangle's edge still counts, so it
/// cannot slip between two neighbouring triangles.
const EDGE_SLACK: f32 = 0.02;

fn cell_hash(c: [i32; 3], mask: u32) -> u32 {
    let h = (c[0] as u32).wrapping_mul(73_856_093)
        ^ (c[1] as u32).wrapping_mul(19_349_663)
        ^ (c[2] as u32).wrapping_mul(83_492_791);
    h & mask
}

/// The triangle box swept from the start of the step to where the current
/// velocity takes it by the end, grown by `grow`.
fn swept(p: &ParticlesMut, ids: &[u32], ahead: f32, grow: f32) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for &i in ids {
        let x = p.position(i as usize);
        let later = x + p.velocity(i as usize) * ahead;
        lo = lo.min(x).min(later);
        hi = hi.max(x).max(later);
    }
    (lo - grow, hi + grow)
}

impl PairFinder {
    /// Lists the pairs of the island's cloths for this step. `ahead` is
    /// the step's length `dt`: how far the velocities reach.
    pub fn find(&mut self, views: &[ParticlesMut], members: &[Member], ahead: f32, out: &mut Vec<Pair>) {
        out.clear();
        let grow = members.iter().map(|m| m.thickness).fold(0.0, f32::max);
        // Cell size: the mean extent of the triangles' swept boxes, so a box
        // covers a few cells whatever the speed.
        let (mut extent_sum, mut triangle_count) = (0.0f64, 0usize);
        for m in members {
            let p = &views[m.body as usize];
            for t in m.triangles {
                let (lo, hi) = swept(p, t, ahead, grow);
                extent_sum += f64::from((hi - lo).max_element());
            }
            triangle_count += m.triangles.len();
        }
        if triangle_count == 0 {
            return;
        }
        let cell = ((extent_sum / triangle_count as f64) as f32).max(2.0 * grow).max(1e-6);
        let inv_cell = 1.0 / cell;
        let bits = (usize::BITS - (2 * triangle_count).leading_zeros()).min(HASH_BITS_MAX);
        let mask = (1u32 << bits) - 1;
        let cell_of = |x: Vec3| (x * inv_cell).floor().to_array().map(|c| c as i32);

        // Every cell each triangle's swept box covers (boxes larger than
        // MAX_SPAN cells a side are clamped: such a triangle is torn or
        // flying apart, and its pairs are the least of the step's worries).
        self.entries.clear();
        for (mi, m) in members.iter().enumerate() {
            let p = &views[m.body as usize];
            for (k, t) in m.triangles.iter().enumerate() {
                let (lo, hi) = swept(p, t, ahead, grow);
                let (a, b) = (cell_of(lo), cell_of(hi));
                for x in a[0]..=b[0].min(a[0].saturating_add(MAX_SPAN)) {
                    for y in a[1]..=b[1].min(a[1].saturating_add(MAX_SPAN)) {
                        for z in a[2]..=b[2].min(a[2].saturating_add(MAX_SPAN)) {
                            self.entries.push((cell_hash([x, y, z], mask), mi as u32, k as u32));
                        }
                    }
                }
            }
        }
        self.entries.sort_unstable();
        self.bucket_start.clear();
        self.bucket_start.resize(mask as usize + 2, 0);
        for e in &self.entries {
            self.bucket_start[e.0 as usize + 1] += 1;
        }
        for i in 1..self.bucket_start.len() {
            self.bucket_start[i] += self.bucket_start[i - 1];
        }

        for (vi, vm) in members.iter().enumerate() {
            if !vm.self_collision && !vm.cloth_collision {
                continue;
            }
            let pv = &views[vm.body as usize];
            let count = vm.neighbour_start.len() - 1;
            for i in 0..count as u32 {
                let (lo, hi) = swept(pv, &[i], ahead, vm.thickness);
                let (a, b) = (cell_of(lo), cell_of(hi));
                self.candidates.clear();
                for x in a[0]..=b[0].min(a[0].saturating_add(MAX_SPAN)) {
                    for y in a[1]..=b[1].min(a[1].saturating_add(MAX_SPAN)) {
                        for z in a[2]..=b[2].min(a[2].saturating_add(MAX_SPAN)) {
                            let h = cell_hash([x, y, z], mask) as usize;
                            let bucket = self.bucket_start[h] as usize..self.bucket_start[h + 1] as usize;
                            self.candidates.extend(self.entries[bucket].iter().map(|e| (e.1, e.2)));
                        }
                    }
                }
                self.candidates.sort_unstable();
                self.candidates.dedup();
                let near = &vm.neighbours
                    [vm.neighbour_start[i as usize] as usize..vm.neighbour_start[i as usize + 1] as usize];
                for &(ti, k) in &self.candidates {
                    let tm = &members[ti as usize];
                    let same = ti as usize == vi;
                    let enabled = if same {
                        vm.self_collision
                    } else {
                        vm.cloth_collision && tm.cloth_collision && vm.filter.meets(&tm.filter)
                    };
                    if !enabled {
                        continue;
                    }
                    let t = tm.triangles[k as usize];
                    if same && t.iter().any(|&c| c == i || near.contains(&c)) {
                        continue;
                    }
                    let pt = &views[tm.body as usize];
                    let (tlo, thi) = swept(pt, &t, ahead, grow);
                    if !(lo.cmple(thi).all() && tlo.cmple(hi).all()) {
                        continue;
                    }
                    let [xa, xb, xc] = t.map(|c| pt.position(c as usize));
                    let x = pv.position(i as usize);
                    let n = (xb - xa).cross(xc - xa);
                    // A vertex beside the triangle has no side of it yet
                    // (0): its plane's side means nothing there (a corner
                    // landing by a corner was below a tilted triangle's
                    // plane and above the triangle, and its pair pushed it
                    // through the layer at 21 m/s; tests/cloth.rs). It takes
                    // one in the first pass that finds it over the triangle.
                    let over = barycentric(x, xa, xb, xc).is_some_and(|u| u.iter().all(|&u| u >= -EDGE_SLACK));
                    let side = if !over {
                        0.0
                    } else if n.dot(x - xa) < 0.0 {
                        -1.0
                    } else {
                        1.0
                    };
                    let centre = (xa + xb + xc) / 3.0;
                    self.kept.push((
                        x.distance_squared(centre),
                        Pair {
                            vertex_body: vm.body,
                            vertex: i,
                            triangle_body: tm.body,
                            triangle: t,
                            side,
                            thickness: vm.thickness,
                        },
                    ));
                }
                // Pathological piles (many cloths created in one place) would
                // pair every vertex with every triangle: keep the nearest few.
                if self.kept.len() > MAX_PAIRS_PER_VERTEX {
                    self.kept.select_nth_unstable_by(MAX_PAIRS_PER_VERTEX, |a, b| a.0.total_cmp(&b.0));
                    self.kept.truncate(MAX_PAIRS_PER_VERTEX);
                }
                out.extend(self.kept.drain(..).map(|(_, pair)| pair));
            }
        }
    }
}

/// Barycentric coordinates of the projection of `x` on the triangle's plane;
/// `None` for a degenerate triangle.
#[inline(always)]
fn barycentric(x: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<[f32; 3]> {
    let (e0, e1, d) = (b - a, c - a, x - a);
    let (d00, d01, d11) = (e0.dot(e0), e0.dot(e1), e1.dot(e1));
    let (d20, d21) = (d.dot(e0), d.dot(e1));
    let denom = d00 * d11 - d01 * d01;
    if denom <= 1e-12 * d00 * d11 {
        return None;
    }
    let v = (d11 * d20 - d01 * d21) / denom;
    let w = (d00 * d21 - d01 * d20) / denom;
    Some([1.0 - v - w, v, w])
}

/// One pass over the pairs of an island.
pub fn project(views: &mut [ParticlesMut], pairs: &mut [Pair]) {
    for pair in pairs {
        let (vb, tb) = (pair.vertex_body as usize, pair.triangle_body as usize);
        let i = pair.vertex as usize;
        let wv = views[vb].inv_mass[i];
        let t = pair.triangle.map(|c| c as usize);
        let wt = t.map(|c| views[tb].inv_mass[c]);
        let x = views[vb].position(i);
        let [a, b, c] = t.map(|c| views[tb].position(c));
        let n = (b - a).cross(c - a);
        let len = n.length();
        if len < 1e-12 {
            continue;
        }
        let Some(bary) = barycentric(x, a, b, c) else { continue };
        if bary.iter().any(|&u| u < -EDGE_SLACK) {
            continue;
        }
        if pair.side == 0.0 {
            // Over the triangle now: the side it was on when this substep
            // began (its positions then), if it was over it then too.
            let (p0, [a0, b0, c0]) = (views[vb].previous(i), t.map(|c| views[tb].previous(c)));
            if !barycentric(p0, a0, b0, c0).is_some_and(|u| u.iter().all(|&u| u >= -EDGE_SLACK)) {
                continue;
            }
            pair.side = if (b0 - a0).cross(c0 - a0).dot(p0 - a0) < 0.0 { -1.0 } else { 1.0 };
        }
        let n = n * (pair.side / len);
        let dist = (x - a).dot(n);
        if dist >= pair.thickness {
            continue;
        }
        let denom = wv + wt[0] * bary[0] * bary[0] + wt[1] * bary[1] * bary[1] + wt[2] * bary[2] * bary[2];
        if denom <= 0.0 {
            continue;
        }
        let lambda = (pair.thickness - dist) / denom;
        views[vb].set_position(i, x + n * (wv * lambda));
        for k in 0..3 {
            let p = &mut views[tb];
            p.set_position(t[k], p.position(t[k]) - n * (wt[k] * bary[k] * lambda));
        }
    }
}

/// Neighbour lists (CSR) of `count` particles from triangles.
pub fn neighbours(count: usize, triangles: &[[u32; 3]]) -> (Vec<u32>, Vec<u32>) {
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); count];
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
    }
    let mut start = Vec::with_capacity(count + 1);
    let mut flat = Vec::new();
    start.push(0);
    for mut l in lists {
        l.sort_unstable();
        l.dedup();
        flat.extend(l);
        start.push(flat.len() as u32);
    }
    (start, flat)
}
