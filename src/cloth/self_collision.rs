//! Cloth against cloth: a vertex keeps its thickness from the triangles of its
//! own cloth (self-collision) and of other cloths of its island.
//!
//! Once per step a spatial hash of the triangles' swept boxes lists the
//! (vertex, triangle) pairs that may meet during the step, with the side of
//! the triangle the vertex belongs on. Every relaxation pass then keeps each
//! listed vertex on its side, at least `thickness` from the triangle's plane
//! while it is over the triangle, moving the vertex and the triangle's
//! corners by their inverse masses and barycentric weights (Jakobsen's
//! embedded-point response). Keeping the side is what stops a fast fold from
//! passing through: a vertex found beyond the plane is put back, not pushed
//! on through.
//!
//! What issue 32 added, so that a tangle comes undone and a pile comes to
//! rest (an apron tangled by a swinging leg stayed crumpled at 250 % stretch
//! and 30 m/s; a strip piled on itself moved at 26 m/s after 6 s):
//!
//! - side memory, repaired: a pair keeps the side it had in the last step
//!   (kept with the vertex's cloth as [`Side`]s: state, saved in snapshots),
//!   unless the vertex and its neighbours are clearly on the other side of
//!   the triangle (half a thickness on average), when it takes theirs: a
//!   vertex poked through a layer goes back with its neighbours instead of
//!   being held there while the cloth's sticks fight the contact. A new
//!   pair takes its neighbourhood's side; none when that is within a quarter
//!   thickness of the plane (cloth crumpled flat on itself has no side).
//! - contacts that do not bounce: a vertex that comes within the thickness
//!   during a substep stops at it; one that began the substep within it (a
//!   pile pressed together, a tangle being undone) is held where it was and
//!   moved out at [`RECOVERY_SPEED`], and that move leaves no velocity (the
//!   substep's start moves with it). Pushed out in
//!   one go, a depth `d` became a velocity `d / h`: 10 m/s and more.
//! - friction between layers, as against colliders ([`LAYER_FRICTION`]).
//! - bounded cost: each triangle is boxed and hashed once a step, each
//!   vertex tests a triangle once however many cells they share, and keeps
//!   at most [`MAX_PAIRS_PER_VERTEX`] pairs (the nearest), found once a step
//!   and reused by every substep.
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
    /// Its vertices' sides of the triangles they were paired with in the
    /// last step (the side memory).
    pub sides: &'a [Side],
}

/// A pair's side, remembered from one step to the next with the cloth of
/// its vertex. State, not scratch: the next step's search reads it, so a
/// snapshot saves it (issue 25: kept in the solver's per-worker scratch
/// instead, keyed by places in an island, it was lost by a restore and read
/// by the next island the worker stepped).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Side {
    pub vertex: u32,
    /// The slot of the triangle's body in the world's body pool.
    pub body: u32,
    pub triangle: [u32; 3],
    /// +1 or -1 (a pair beside its triangle, side 0, is not remembered).
    pub side: f32,
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
    /// Swept box of every triangle of the island's members, in member order.
    boxes: Vec<(Vec3, Vec3)>,
    /// Where each member's triangles start in `boxes`.
    first_triangle: Vec<u32>,
    /// (hashed cell, triangle in `boxes`) entries, in triangle order.
    entries: Vec<(u32, u32)>,
    /// The entries' triangles by cell (a counting sort of `entries`: in
    /// triangle order within a cell); cell `h` is `bucket_start[h]..[h + 1]`.
    slots: Vec<u32>,
    cursor: Vec<u32>,
    bucket_start: Vec<u32>,
    /// Per triangle in `boxes`: the last vertex search that met it (plus one),
    /// so a triangle in several cells is tested once per vertex.
    seen: Vec<u32>,
    kept: Vec<(f32, u32, Pair)>,
    /// The island's side memory as pairs (its members' [`Side`]s), sorted
    /// by [`key`].
    previous: Vec<Pair>,
    /// (body slot, member) of each member, sorted: where a remembered
    /// triangle's body is in the island.
    member_of: Vec<(u32, u32)>,
}

const HASH_BITS_MAX: u32 = 22;
/// The most triangles one vertex is kept off in a step (the nearest).
const MAX_PAIRS_PER_VERTEX: usize = 8;
/// The most cells a box covers along an axis in the hash, minus one.
const MAX_SPAN: i32 = 3;
/// Barycentric slack: a vertex over a triangle's edge still counts, so it
/// cannot slip between two neighbouring triangles.
const EDGE_SLACK: f32 = 0.02;
/// Coulomb coefficient between layers of cloth: the tangential motion a
/// contact removes is at most this times its push (Jakobsen's friction,
/// `collision/friction.rs`, applied per pair).
const LAYER_FRICTION: f32 = 0.4;

fn cell_hash(c: [i32; 3], mask: u32) -> u32 {
    let h = (c[0] as u32).wrapping_mul(73_856_093)
        ^ (c[1] as u32).wrapping_mul(19_349_663)
        ^ (c[2] as u32).wrapping_mul(83_492_791);
    h & mask
}

/// The box of particles `ids` swept from where they are to where the
/// current velocity takes them in `ahead` seconds, grown by `grow`.
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

/// The mean signed distance of `x` and its neighbours `ring` from the plane
/// through `a` with unit normal `n`: which side a vertex and the cloth
/// around it are on. A vertex poked through a layer while its neighbours
/// stayed is put back on their side (`PairFinder::find`): one-sided contacts
/// whose side is read from the vertex alone hold such a poke for good while
/// the cloth's sticks fight them (issue 32: an apron tangled by a swinging
/// leg stayed crumpled at 250 % stretch and 30 m/s for 27 s).
fn neighbourhood_distance(p: &ParticlesMut, x: Vec3, ring: &[u32], a: Vec3, n: Vec3) -> f32 {
    let sum: f32 = ring.iter().map(|&u| n.dot(p.position(u as usize) - a)).sum();
    (sum + n.dot(x - a)) / (ring.len() + 1) as f32
}

/// The identity of a pair, to find it again in the next step.
fn key(p: &Pair) -> (u32, u32, u32, [u32; 3]) {
    (p.vertex_body, p.vertex, p.triangle_body, p.triangle)
}

impl PairFinder {
    /// Turns the members' side memory into `previous`: remembered pairs
    /// whose triangle's body is in the island, keyed by island indices.
    fn recall(&mut self, members: &[Member], slots: &[u32]) {
        self.member_of.clear();
        self.member_of.extend(slots.iter().enumerate().map(|(k, &slot)| (slot, k as u32)));
        self.member_of.sort_unstable();
        self.previous.clear();
        for m in members {
            for s in m.sides {
                let Ok(at) = self.member_of.binary_search_by_key(&s.body, |&(slot, _)| slot) else { continue };
                self.previous.push(Pair {
                    vertex_body: m.body,
                    vertex: s.vertex,
                    triangle_body: self.member_of[at].1,
                    triangle: s.triangle,
                    side: s.side,
                    thickness: m.thickness,
                });
            }
        }
        self.previous.sort_unstable_by_key(key);
    }

    /// Lists the pairs of the island's cloths for this step. `ahead` is
    /// the step's length `dt`: how far the velocities reach.
    ///
    /// Cost: one box per triangle and per vertex, hashed once; a triangle
    /// met in several cells is tested once per vertex (`seen`), and each
    /// vertex keeps at most [`MAX_PAIRS_PER_VERTEX`] pairs, so the passes
    /// cost at most that many projections per vertex however the cloth
    /// piles up.
    ///
    /// `slots` are the body slots of the island's bodies, by island index
    /// (`Member::body`), to find the triangles of the members' side memory.
    pub fn find(&mut self, views: &[ParticlesMut], members: &[Member], slots: &[u32], ahead: f32, out: &mut Vec<Pair>) {
        out.clear();
        self.recall(members, slots);
        // Triangles' boxes are not grown: each vertex's box is, by its
        // thickness, which is the reach of a pair.
        let grow = members.iter().map(|m| m.thickness).fold(0.0, f32::max);
        self.boxes.clear();
        self.first_triangle.clear();
        for m in members {
            self.first_triangle.push(self.boxes.len() as u32);
            let p = &views[m.body as usize];
            self.boxes.extend(m.triangles.iter().map(|t| swept(p, t, ahead, 0.0)));
        }
        let triangle_count = self.boxes.len();
        if triangle_count == 0 {
            return;
        }
        // Cell size: the mean extent of the triangles' swept boxes, so a box
        // covers a few cells whatever the speed.
        let extent_sum: f64 = self.boxes.iter().map(|(lo, hi)| f64::from((*hi - *lo).max_element())).sum();
        let cell = ((extent_sum / triangle_count as f64) as f32).max(grow).max(1e-6);
        let inv_cell = 1.0 / cell;
        let bits = (usize::BITS - (2 * triangle_count).leading_zeros()).min(HASH_BITS_MAX);
        let mask = (1u32 << bits) - 1;
        let cell_of = |x: Vec3| (x * inv_cell).floor().to_array().map(|c| c as i32);

        // Every cell each triangle's swept box covers (boxes larger than
        // MAX_SPAN cells a side are clamped: such a triangle is torn or
        // flying apart, and its pairs are the least of the step's worries).
        self.entries.clear();
        for (k, (lo, hi)) in self.boxes.iter().enumerate() {
            let (a, b) = (cell_of(*lo), cell_of(*hi));
            for x in a[0]..=b[0].min(a[0].saturating_add(MAX_SPAN)) {
                for y in a[1]..=b[1].min(a[1].saturating_add(MAX_SPAN)) {
                    for z in a[2]..=b[2].min(a[2].saturating_add(MAX_SPAN)) {
                        self.entries.push((cell_hash([x, y, z], mask), k as u32));
                    }
                }
            }
        }
        // By cell, counting (a comparison sort of the entries was 9 % of a
        // running 64 x 64 cape's step).
        self.bucket_start.clear();
        self.bucket_start.resize(mask as usize + 2, 0);
        for e in &self.entries {
            self.bucket_start[e.0 as usize + 1] += 1;
        }
        for i in 1..self.bucket_start.len() {
            self.bucket_start[i] += self.bucket_start[i - 1];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.bucket_start);
        self.slots.clear();
        self.slots.resize(self.entries.len(), 0);
        for &(h, k) in &self.entries {
            let at = &mut self.cursor[h as usize];
            self.slots[*at as usize] = k;
            *at += 1;
        }
        self.seen.clear();
        self.seen.resize(triangle_count, 0);
        let mut search = 0u32;

        for (vi, vm) in members.iter().enumerate() {
            if !vm.self_collision && !vm.cloth_collision {
                continue;
            }
            let pv = &views[vm.body as usize];
            let count = vm.neighbour_start.len() - 1;
            for i in 0..count as u32 {
                search += 1;
                let (lo, hi) = swept(pv, &[i], ahead, vm.thickness);
                let (a, b) = (cell_of(lo), cell_of(hi));
                let near = &vm.neighbours
                    [vm.neighbour_start[i as usize] as usize..vm.neighbour_start[i as usize + 1] as usize];
                let x = pv.position(i as usize);
                let reach = vm.thickness + grow + pv.velocity(i as usize).length() * ahead;
                self.kept.clear();
                for cx in a[0]..=b[0].min(a[0].saturating_add(MAX_SPAN)) {
                    for cy in a[1]..=b[1].min(a[1].saturating_add(MAX_SPAN)) {
                        for cz in a[2]..=b[2].min(a[2].saturating_add(MAX_SPAN)) {
                            let h = cell_hash([cx, cy, cz], mask) as usize;
                            let bucket = self.bucket_start[h] as usize..self.bucket_start[h + 1] as usize;
                            for &g in &self.slots[bucket] {
                                if std::mem::replace(&mut self.seen[g as usize], search) == search {
                                    continue;
                                }
                                let (tlo, thi) = self.boxes[g as usize];
                                if !(lo.cmple(thi).all() && tlo.cmple(hi).all()) {
                                    continue;
                                }

                                let ti = self.first_triangle.partition_point(|&f| f <= g) - 1;
                                let tm = &members[ti];
                                let same = ti == vi;
                                let enabled = if same {
                                    vm.self_collision
                                } else {
                                    vm.cloth_collision && tm.cloth_collision && vm.filter.meets(&tm.filter)
                                };
                                if !enabled {
                                    continue;
                                }
                                let t = tm.triangles[(g - self.first_triangle[ti]) as usize];
                                if same && t.iter().any(|&c| c == i || near.contains(&c)) {
                                    continue;
                                }
                                let pt = &views[tm.body as usize];
                                let [xa, xb, xc] = t.map(|c| pt.position(c as usize));
                                let n = (xb - xa).cross(xc - xa);
                                // A vertex beside the triangle has no side of it yet
                                // (0): its plane's side means nothing there (a corner
                                // landing by a corner was below a tilted triangle's
                                // plane and above the triangle, and its pair pushed it
                                // through the layer at 21 m/s; tests/cloth.rs). It takes
                                // one in the first pass that finds it over the triangle.
                                let over =
                                    barycentric(x, xa, xb, xc).is_some_and(|u| u.iter().all(|&u| u >= -EDGE_SLACK));
                                let mut gap = x.distance(xa).min(x.distance(xb)).min(x.distance(xc));
                                let mut pair = Pair {
                                    vertex_body: vm.body,
                                    vertex: i,
                                    triangle_body: tm.body,
                                    triangle: t,
                                    side: 0.0,
                                    thickness: vm.thickness,
                                };
                                let len = n.length();
                                if over && len > 0.0 {
                                    let n = n / len;
                                    gap = n.dot(x - xa).abs();
                                    if gap > reach + (thi - tlo).max_element() {
                                        continue; // over it but far from its plane
                                    }
                                    // The side: the one remembered from the last
                                    // step unless the vertex and its neighbours
                                    // are clearly on the other (a repair); for a
                                    // new pair, the neighbourhood's, unless that
                                    // is within a quarter thickness of the plane
                                    // (a layer crumpled flat on itself: no side,
                                    // no pair).
                                    let m = neighbourhood_distance(pv, x, if same { near } else { &[] }, xa, n);
                                    let remembered = self
                                        .previous
                                        .binary_search_by_key(&key(&pair), key)
                                        .map_or(0.0, |k| self.previous[k].side);
                                    pair.side = if remembered != 0.0 && m * remembered > -0.5 * vm.thickness {
                                        remembered
                                    } else if m.abs() >= 0.25 * vm.thickness {
                                        m.signum()
                                    } else {
                                        continue;
                                    };
                                }
                                self.kept.push((gap, g, pair));
                            }
                        }
                    }
                }
                // Piles (many layers, many cloths created in one place) would
                // pair every vertex with every triangle: keep the nearest few,
                // in the triangles' order.
                if self.kept.len() > MAX_PAIRS_PER_VERTEX {
                    self.kept
                        .select_nth_unstable_by(MAX_PAIRS_PER_VERTEX, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                    self.kept.truncate(MAX_PAIRS_PER_VERTEX);
                }
                self.kept.sort_unstable_by_key(|k| k.1);
                out.extend(self.kept.drain(..).map(|(_, _, pair)| pair));
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

/// One pass over the pairs of an island (see the module's notes).
///
/// Friction: the vertex's motion over the substep relative to the
/// triangle's point under it loses its tangential part, up to
/// [`LAYER_FRICTION`] times the push.
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
        // Far on its side: nothing to do (most pairs, most passes), found
        // without a square root.
        let raw = (x - a).dot(n) * pair.side;
        if raw > 0.0 && raw * raw >= pair.thickness * pair.thickness * n.length_squared() {
            continue;
        }
        let len = n.length();
        if len < 1e-12 {
            continue;
        }
        let Some(bary) = barycentric(x, a, b, c) else { continue };
        if bary.iter().any(|&u| u < -EDGE_SLACK) {
            continue;
        }
        let (p0, [a0, b0, c0]) = (views[vb].previous(i), t.map(|c| views[tb].previous(c)));
        if pair.side == 0.0 {
            // Over the triangle now: the side it was on when this substep
            // began (its positions then), if it was over it then too.
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
        // Where the vertex was from the plane when the substep began: a
        // contact it came into this substep stops at the thickness; one it
        // was already in (a pile's layers resting within a thickness, a
        // tangle) recovers at RECOVERY_SPEED, so the push is not turned
        // into a separating velocity of depth / h.
        let n0 = (b0 - a0).cross(c0 - a0);
        let len0 = n0.length();
        let dist0 = if len0 > 1e-12 { (p0 - a0).dot(n0) * (pair.side / len0) } else { pair.thickness };
        let recovery = RECOVERY_SPEED * views[vb].h;
        let target = (dist0 + recovery).min(pair.thickness);
        let push = target - dist;
        if push <= 0.0 {
            continue;
        }
        let lambda = push / denom;
        // The relative tangential motion over the substep, after the push.
        let under = |q: [Vec3; 3]| q[0] * bary[0] + q[1] * bary[1] + q[2] * bary[2];
        let x_new = x + n * (wv * lambda);
        let corners = [a, b, c];
        let moved_corners: [Vec3; 3] = std::array::from_fn(|k| corners[k] - n * (wt[k] * bary[k] * lambda));
        let rel = (x_new - p0) - (under(moved_corners) - under([a0, b0, c0]));
        let tangential = rel - n * n.dot(rel);
        let slide = tangential.length();
        let limit = LAYER_FRICTION * push;
        let f = if slide > limit { limit / slide } else { 1.0 };
        let mu = tangential * (f / denom);
        views[vb].set_position(i, x_new - mu * wv);
        for k in 0..3 {
            views[tb].set_position(t[k], moved_corners[k] + mu * (wt[k] * bary[k]));
        }
        // The recovery beyond where the substep began moves the substep's
        // start too, so it leaves no velocity: layers a pile presses closer
        // than the thickness part without bouncing, and stay still enough
        // to sleep (pushed back as velocity, the bottom layer of a piled
        // strip fought the ground at 0.4 m/s for good).
        let recovered = target - dist.max(dist0);
        if recovered > 0.0 {
            let r = n * (recovered / denom);
            views[vb].set_previous(i, p0 + r * wv);
            for k in 0..3 {
                let q = views[tb].previous(t[k]);
                views[tb].set_previous(t[k], q - r * (wt[k] * bary[k]));
            }
        }
    }
}

/// How fast (m/s) a vertex that began the substep within a thickness of a
/// triangle, or beyond it, is moved out.
const RECOVERY_SPEED: f32 = 0.5;

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
