//! Bone lengths restored exactly, along the skeleton's tree, with the
//! particles in contact held against the surfaces the collisions pushed
//! them out of.
//!
//! Gauss-Seidel passes carry a contact's stop one bone per pass, and a heavy
//! body landing on a light limb (a shin on its ankle, the chest on the neck
//! when the head lands first) compresses the limb for a frame or two before
//! they catch up: relaxation converges slowly where masses differ. The joint
//! particles and the distances between those of one bone (head to tail, head
//! to each socket) form a tree, and a linear system over a tree is solved
//! exactly in linear time (Baraff, "Linear-time dynamics using Lagrange
//! multipliers", 1996). So after the passes and the final collisions each
//! substep makes a few Newton steps on these distances:
//!
//! ```text
//! J W J^T lambda = -C,    dx = W J^T lambda
//! ```
//!
//! the smallest mass-weighted move that puts every distance back, with
//! `W = 0` for pinned particles and `W = w (I - c c^T)` for a particle a
//! collision pushed out of a surface of normal `c` this substep: the ground
//! holds it across the surface and lets it slide along (a foot lying flat,
//! both ends on the floor, still gets its length back). A surface pushes,
//! never pulls: where the solved distances would pull such a particle off
//! it (held there it would drag the body towards the floor), it is freed
//! and the step solved again. Eliminating the distances leaf first
//! (post-order) makes no fill: the ones a distance couples to later all meet
//! at its parent-side particle, so every entry of the factor lives in one
//! small dense block per particle (its distances to its children, then the
//! one to its parent).
//!
//! The solve moves joint particles only; a bone's other particles (its roll
//! particle, a hinge's axis pair) then follow their bone rigidly, turned by
//! the shortest arc from its old head-to-tail axis to its new one (a pair
//! shared by two bones takes the mean of both moves).
//!
//! The moves change positions, not velocities (`x` and `x'` alike, as a
//! split impulse would): what they remove is error the passes left, built up
//! over several substeps, and turned into velocity at once it bounces the
//! body off the ground; with three passes the rest of the solver already
//! stops a landing limb, too slowly for its length but not for its
//! momentum. Measured over 33 drops (tests/ragdoll.rs): the worst bone
//! length error in any frame 6.7 % without this stage and 0.9 % with it;
//! with the moves as velocities the energy rose by up to 1 kJ in a frame.
//!
//! The solve starts only where some bone is off by more than `TRIGGER`: a
//! resting body's small residuals stay with the passes (solved every
//! substep they keep nudging a resting body, and rest comes later).

use crate::particles::ParticlesMut;
use glam::{Quat, Vec3};

/// Solves a Newton step may take to free the contacts that pull.
const RELEASE_ROUNDS: usize = 3;

/// Newton steps a substep; each re-linearises the distances.
const NEWTON_STEPS: usize = 2;

/// The solve starts when some distance is off by more than this (relative),
/// and stops once every one is within `TOLERANCE`.
const TRIGGER: f32 = 5.0e-3;
const TOLERANCE: f32 = 1.0e-4;

/// A pivot below this fraction of its distance's own stiffness is a
/// distance no particle can serve (both ends pinned, or held across
/// surfaces along it): it is skipped.
const SINGULAR: f32 = 1.0e-4;

/// The most a Newton step moves a particle, in units of the largest
/// distance error (see `apply`).
const MAX_MOVE: f32 = 3.0;

/// One distance: `u` on the root's side, `v` on the leaves'.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Distance {
    u: u32,
    v: u32,
    rest: f32,
    /// Its place among `u`'s distances.
    slot: u32,
}

/// The solver's scratch, kept by each worker so a warm step allocates
/// nothing; never part of a ragdoll's state. Between solves `delta` and
/// `moved` are zero; every other entry is written before it is read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    normal: Vec<Vec3>,
    /// Each distance's error, then (solved) its multiplier.
    error: Vec<f32>,
    lambda: Vec<f32>,
    diag: Vec<f32>,
    inv_pivot: Vec<f32>,
    blocks: Vec<f32>,
    w: Vec<f32>,
    /// The normal of each particle's contact (zero for none).
    contact: Vec<Vec3>,
    /// Each particle's move in a Newton step.
    delta: Vec<Vec3>,
    /// Positions before the solve, and the followers' summed moves.
    before: Vec<Vec3>,
    moved: Vec<Vec3>,
}

impl Scratch {
    /// Sized for a tree of `distances` distances over `count` particles
    /// with `blocks` block entries.
    fn fit(&mut self, count: usize, distances: usize, blocks: usize) {
        for v in [&mut self.error, &mut self.lambda, &mut self.diag, &mut self.inv_pivot] {
            v.resize(distances, 0.0);
        }
        self.normal.resize(distances, Vec3::ZERO);
        self.blocks.resize(blocks, 0.0);
        self.w.resize(count, 0.0);
        for v in [&mut self.contact, &mut self.delta, &mut self.before, &mut self.moved] {
            v.resize(count, Vec3::ZERO);
        }
    }

    /// `a . W_q b` (see `Lengths::factor`).
    #[inline(always)]
    fn weigh(&self, q: usize, a: Vec3, b: Vec3) -> f32 {
        let c = self.contact[q];
        self.w[q] * (a.dot(b) - a.dot(c) * b.dot(c))
    }
}

/// A particle that is not at a joint, carried by a bone (`head`, `tail`)
/// with `share` of the bone's move (1 / the bones that hold it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Follower {
    pub head: u32,
    pub tail: u32,
    pub particle: u32,
    pub share: f32,
}

/// The skeleton's distance tree, in the order its distances are
/// eliminated, and its solver (the scratch is the caller's).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lengths {
    /// Particles it spans.
    count: usize,
    /// In elimination order: every distance after those below it.
    distances: Vec<Distance>,
    /// Per particle, `incident[starts[q]..starts[q + 1]]`: its distances to
    /// its children in elimination order, then the one to its parent.
    incident: Vec<u32>,
    starts: Vec<u32>,
    /// Per particle, where its dense block (degree squared) starts.
    block_starts: Vec<u32>,
    /// Entries of all the blocks.
    blocks: usize,
    followers: Vec<Follower>,
}

impl Lengths {
    /// The tree of `edges` (parent-side particle, child-side particle) over
    /// `count` particles at `positions`; every particle has at most one
    /// distance to its parent, and the edges hold no cycle; `followers` are
    /// moved with their bones.
    pub fn new(count: usize, positions: &[Vec3], edges: &[(u32, u32)], followers: Vec<Follower>) -> Lengths {
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut has_parent = vec![false; count];
        for (k, &(u, v)) in edges.iter().enumerate() {
            debug_assert!(!has_parent[v as usize], "particle {v} has two parents");
            has_parent[v as usize] = true;
            children[u as usize].push(k);
        }
        // Post-order from every root: a distance after its subtree's.
        let mut order = Vec::with_capacity(edges.len());
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for root in (0..count).filter(|&q| !has_parent[q]) {
            for &k in children[root].iter().rev() {
                stack.push((k, false));
            }
            while let Some((k, expanded)) = stack.pop() {
                if expanded {
                    order.push(k);
                    continue;
                }
                stack.push((k, true));
                for &c in children[edges[k].1 as usize].iter().rev() {
                    stack.push((c, false));
                }
            }
        }
        debug_assert_eq!(order.len(), edges.len(), "the edges hold a cycle");
        let mut incident: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut distances = Vec::with_capacity(order.len());
        for (e, &k) in order.iter().enumerate() {
            let (u, v) = edges[k];
            let rest = (positions[v as usize] - positions[u as usize]).length();
            distances.push(Distance { u, v, rest, slot: incident[u as usize].len() as u32 });
            incident[u as usize].push(e as u32);
        }
        // The parent distance comes last: it is eliminated after the
        // children's (post-order).
        for (e, d) in distances.iter().enumerate() {
            incident[d.v as usize].push(e as u32);
        }
        let (mut starts, mut block_starts) = (vec![0u32], vec![0u32]);
        for list in &incident {
            starts.push(starts.last().expect("one") + list.len() as u32);
            block_starts.push(block_starts.last().expect("one") + (list.len() * list.len()) as u32);
        }
        let blocks = *block_starts.last().expect("one") as usize;
        starts.pop();
        block_starts.pop();
        Lengths { count, distances, incident: incident.concat(), starts, block_starts, blocks, followers }
    }

    /// Puts every distance back to its rest length. `contact(i)` is the
    /// normal of the surface a collision pushed particle `i` out of this
    /// substep, if any: such a particle moves only along the surface, unless
    /// the distances would pull it off (a surface pushes, never pulls).
    /// Pinned particles do not move.
    pub(crate) fn restore(&self, s: &mut Scratch, p: &mut ParticlesMut, contact: impl Fn(usize) -> Option<Vec3>) {
        if self.distances.is_empty() {
            return;
        }
        s.fit(self.count, self.distances.len(), self.blocks);
        for (q, (w, n)) in s.w.iter_mut().zip(s.contact.iter_mut()).enumerate() {
            *n = contact(q).unwrap_or(Vec3::ZERO);
            *w = p.inv_mass[q];
        }
        let (worst, mut largest) = self.linearise(s, p);
        if worst <= TRIGGER {
            return;
        }
        for (q, x) in s.before.iter_mut().enumerate() {
            *x = p.position(q);
        }
        for step in 0..NEWTON_STEPS {
            if step > 0 {
                let (worst, now) = self.linearise(s, p);
                if worst <= TOLERANCE {
                    break;
                }
                largest = now;
            }
            for _ in 0..RELEASE_ROUNDS {
                self.factor(s);
                self.solve(s);
                if !self.release_pulled(s) {
                    break;
                }
            }
            self.apply(s, p, largest);
        }
        self.follow(s, p);
    }

    /// Frees the held particles in contact that the solved distances pull
    /// off their surfaces; `true` if any was freed (the solve is redone).
    fn release_pulled(&self, s: &mut Scratch) -> bool {
        for (e, d) in self.distances.iter().enumerate() {
            let push = s.normal[e] * s.lambda[e];
            s.delta[d.v as usize] += push;
            s.delta[d.u as usize] -= push;
        }
        let mut freed = false;
        for q in 0..s.w.len() {
            let pull = std::mem::take(&mut s.delta[q]);
            if s.contact[q] != Vec3::ZERO && pull.dot(s.contact[q]) > 0.0 {
                s.contact[q] = Vec3::ZERO;
                freed = true;
            }
        }
        freed
    }

    /// Moves the followers with their bones.
    fn follow(&self, s: &mut Scratch, p: &mut ParticlesMut) {
        for f in &self.followers {
            let (h0, t0) = (s.before[f.head as usize], s.before[f.tail as usize]);
            let (h1, t1) = (p.position(f.head as usize), p.position(f.tail as usize));
            let (Some(a), Some(b)) = ((t0 - h0).try_normalize(), (t1 - h1).try_normalize()) else { continue };
            let i = f.particle as usize;
            let x = s.before[i];
            let to = h1 + Quat::from_rotation_arc(a, b) * (x - h0);
            s.moved[i] += (to - x) * f.share;
        }
        for f in &self.followers {
            let i = f.particle as usize;
            let moved = std::mem::take(&mut s.moved[i]);
            if p.inv_mass[i] > 0.0 {
                shift(p, i, s.before[i] + moved - p.position(i));
            }
        }
    }

    /// Directions and errors; returns the worst relative and the largest
    /// absolute error.
    fn linearise(&self, s: &mut Scratch, p: &ParticlesMut) -> (f32, f32) {
        let (mut worst, mut largest) = (0.0f32, 0.0f32);
        for (e, d) in self.distances.iter().enumerate() {
            let delta = p.position(d.v as usize) - p.position(d.u as usize);
            let length = delta.length();
            let (normal, error) = if length > 1.0e-9 { (delta / length, length - d.rest) } else { (Vec3::ZERO, 0.0) };
            s.normal[e] = normal;
            s.error[e] = error;
            worst = worst.max(error.abs() / d.rest);
            largest = largest.max(error.abs());
        }
        (worst, largest)
    }

    /// `L D L^T` of `J W J^T`, in place: the coupling of two distances
    /// meeting at `q` is `s_a s_b n_a . W_q n_b`, with `W_q = w_q (I - c c^T)`
    /// for a particle held on a surface of normal `c` (free along it, held
    /// across it) and `w_q I` for a free one.
    fn factor(&self, s: &mut Scratch) {
        let Lengths { distances, incident, starts, block_starts, .. } = self;
        for (e, d) in distances.iter().enumerate() {
            let n = s.normal[e];
            s.diag[e] = s.weigh(d.u as usize, n, n) + s.weigh(d.v as usize, n, n);
        }
        for (q, &base) in block_starts.iter().enumerate() {
            let at = at(incident, starts, q);
            let degree = at.len();
            let base = base as usize;
            for a in 0..degree {
                for b in a + 1..degree {
                    let (ea, eb) = (at[a] as usize, at[b] as usize);
                    let sign = side(&distances[ea], q) * side(&distances[eb], q);
                    s.blocks[base + b * degree + a] = sign * s.weigh(q, s.normal[ea], s.normal[eb]);
                }
            }
        }
        for (e, d) in distances.iter().enumerate() {
            let q = d.u as usize;
            let (at, i) = (at(incident, starts, q), d.slot as usize);
            let degree = at.len();
            let base = block_starts[q] as usize;
            let own = s.w[d.u as usize] + s.w[d.v as usize];
            let pivot = s.diag[e];
            if pivot.is_nan() || pivot <= SINGULAR * own {
                s.inv_pivot[e] = 0.0;
                for j in i + 1..degree {
                    s.blocks[base + j * degree + i] = 0.0;
                }
                continue;
            }
            let inv = 1.0 / pivot;
            s.inv_pivot[e] = inv;
            for (j, &f) in at.iter().enumerate().skip(i + 1) {
                let a_je = s.blocks[base + j * degree + i];
                s.diag[f as usize] -= a_je * a_je * inv;
                for k in j + 1..degree {
                    let a_ke = s.blocks[base + k * degree + i];
                    s.blocks[base + k * degree + j] -= a_ke * a_je * inv;
                }
            }
            for j in i + 1..degree {
                s.blocks[base + j * degree + i] *= inv;
            }
        }
    }

    /// `lambda`, through the factor.
    fn solve(&self, s: &mut Scratch) {
        let Lengths { distances, incident, starts, block_starts, .. } = self;
        for (l, e) in s.lambda.iter_mut().zip(&s.error) {
            *l = -e;
        }
        for (e, d) in distances.iter().enumerate() {
            let q = d.u as usize;
            let (at, i) = (at(incident, starts, q), d.slot as usize);
            let base = block_starts[q] as usize;
            let y = s.lambda[e];
            for j in i + 1..at.len() {
                s.lambda[at[j] as usize] -= s.blocks[base + j * at.len() + i] * y;
            }
        }
        for (r, inv) in s.lambda.iter_mut().zip(&s.inv_pivot) {
            *r *= inv;
        }
        for (e, d) in distances.iter().enumerate().rev() {
            let q = d.u as usize;
            let (at, i) = (at(incident, starts, q), d.slot as usize);
            let base = block_starts[q] as usize;
            let mut y = s.lambda[e];
            for j in i + 1..at.len() {
                y -= s.blocks[base + j * at.len() + i] * s.lambda[at[j] as usize];
            }
            s.lambda[e] = y;
        }
    }

    /// `dx = W J^T lambda`.
    ///
    /// Near a singular configuration (a free joint between two held ones
    /// farther apart than its bones reach) the linear step is huge; no
    /// particle is moved more than `MAX_MOVE` times the largest error, the
    /// whole step scaled down alike.
    fn apply(&self, s: &mut Scratch, p: &mut ParticlesMut, largest_error: f32) {
        for (e, d) in self.distances.iter().enumerate() {
            let push = s.normal[e] * s.lambda[e];
            s.delta[d.v as usize] += push;
            s.delta[d.u as usize] -= push;
        }
        for q in 0..s.delta.len() {
            let (c, g) = (s.contact[q], s.delta[q]);
            s.delta[q] = (g - c * c.dot(g)) * s.w[q];
        }
        let largest_move = s.delta.iter().fold(0.0f32, |m, d| m.max(d.length()));
        let scale = if largest_move > MAX_MOVE * largest_error { MAX_MOVE * largest_error / largest_move } else { 1.0 };
        for (i, d) in s.delta.iter_mut().enumerate() {
            if s.w[i] > 0.0 {
                shift(p, i, *d * scale);
            }
            *d = Vec3::ZERO;
        }
    }
}

/// Moves particle `i` by `by` without changing its velocity (see the
/// module's notes).
fn shift(p: &mut ParticlesMut, i: usize, by: Vec3) {
    p.set_position(i, p.position(i) + by);
    p.set_previous(i, p.previous(i) + by);
}

/// The distances meeting at particle `q`: to its children, then to its
/// parent.
fn at<'a>(incident: &'a [u32], starts: &[u32], q: usize) -> &'a [u32] {
    let end = starts.get(q + 1).map_or(incident.len(), |&s| s as usize);
    &incident[starts[q] as usize..end]
}

/// The sign of particle `q` in distance `d`'s gradient.
fn side(d: &Distance, q: usize) -> f32 {
    if d.v as usize == q { 1.0 } else { -1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    /// A small skeleton: a spine 0-1-2 with a head 2-3 and two arms from a
    /// socket 4 (2-4, 4-5) and 6 (2-6, 6-7), a tail 0-8; one follower (9)
    /// on bone 4-5.
    fn skeleton() -> (Vec<Vec3>, Vec<(u32, u32)>, Vec<Follower>) {
        let x = vec![
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 1.3, 0.0),
            Vec3::new(0.0, 1.6, 0.0),
            Vec3::new(0.0, 1.9, 0.0),
            Vec3::new(0.2, 1.55, 0.0),
            Vec3::new(0.2, 1.25, 0.0),
            Vec3::new(-0.2, 1.55, 0.0),
            Vec3::new(-0.2, 1.25, 0.0),
            Vec3::new(0.0, 0.6, 0.0),
            Vec3::new(0.2, 1.4, 0.03),
        ];
        let edges = vec![(0, 1), (1, 2), (2, 3), (2, 4), (4, 5), (2, 6), (6, 7), (0, 8)];
        let followers = vec![Follower { head: 4, tail: 5, particle: 9, share: 1.0 }];
        (x, edges, followers)
    }

    /// The skeleton's particles squashed, stretched and bent: errors of up to
    /// 30 % (a deterministic jiggle).
    fn jiggled(x: &[Vec3]) -> Vec<Vec3> {
        x.iter()
            .enumerate()
            .map(|(i, &p)| {
                let t = i as f32 * 1.7;
                p + Vec3::new(t.sin(), (2.3 * t).cos(), (0.7 * t).sin()) * 0.06
            })
            .collect()
    }

    fn lengths_ok(l: &Lengths, p: &ParticlesMut) -> f32 {
        l.distances
            .iter()
            .map(|d| ((p.position(d.v as usize) - p.position(d.u as usize)).length() - d.rest).abs() / d.rest)
            .fold(0.0, f32::max)
    }

    #[test]
    fn free_particles_get_every_length_back_and_the_centre_of_mass_stays() {
        let (rest, edges, followers) = skeleton();
        let l = Lengths::new(rest.len(), &rest, &edges, followers);
        let x = jiggled(&rest);
        let mut store = Particles::default();
        let masses = [3.0, 2.0, 4.0, 1.0, 0.5, 0.3, 0.5, 0.3, 2.0, 1.0];
        store.append(&x, |i| 1.0 / masses[i]);
        let mut p = store.view(0..rest.len());
        let before = lengths_ok(&l, &p);
        assert!(before > 0.1, "the jiggle must break the lengths ({before})");
        let centre = |p: &ParticlesMut| (0..9).map(|i| p.position(i) * masses[i]).sum::<Vec3>();
        let c0 = centre(&p);
        // Each call is two Newton steps; the error falls quadratically.
        for _ in 0..3 {
            l.restore(&mut Scratch::default(), &mut p, |_| None);
        }
        let after = lengths_ok(&l, &p);
        assert!(after < 2.0 * TOLERANCE, "lengths still off by {after}");
        assert!((centre(&p) - c0).length() < 1e-4, "the joints' centre of mass moved");
        // Velocities are untouched: x and x' moved alike.
        for i in 0..rest.len() {
            assert!((p.position(i) - p.previous(i)).length() < 1e-6, "particle {i} was given a velocity");
        }
    }

    #[test]
    fn a_held_particle_stays_and_the_follower_keeps_its_place_on_its_bone() {
        let (rest, edges, followers) = skeleton();
        let l = Lengths::new(rest.len(), &rest, &edges, followers);
        // Bone 4-5 compressed along its axis by 20 %, the tail (5) on the
        // ground: the socket moves up, the tail stays, the follower slides
        // with the bone.
        let mut x = rest.clone();
        x[5] += Vec3::Y * 0.06;
        x[9] += Vec3::Y * 0.03;
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        let mut p = store.view(0..rest.len());
        for _ in 0..3 {
            l.restore(&mut Scratch::default(), &mut p, |i| (i == 5).then_some(Vec3::Y));
        }
        assert!(lengths_ok(&l, &p) < 2.0 * TOLERANCE);
        // Held across the floor; along it the bone is vertical and pushes
        // it nowhere (rounding aside).
        assert_eq!(p.position(5).y, x[5].y, "the held tail moved across the floor");
        assert!((p.position(5) - x[5]).length() < 1e-4, "the held tail slid: {}", p.position(5));
        let (h, t) = (p.position(4), p.position(5));
        let along = (p.position(9) - h).dot((t - h).normalize());
        let rest_along = (rest[9] - rest[4]).dot((rest[5] - rest[4]).normalize());
        assert!((along - rest_along).abs() < 0.031, "the follower is {along} along its bone, {rest_along} at rest");
    }

    #[test]
    fn a_contact_the_bones_would_pull_off_its_surface_is_let_go() {
        // A two-bone chain 0-1-2 stretched by 10 %, its end (2) touching a
        // floor below it: the bones pull the end up, off the floor, so the
        // floor does not hold it and the chain shortens from both ends.
        let rest = vec![Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 0.5, 0.0), Vec3::ZERO];
        let l = Lengths::new(3, &rest, &[(0, 1), (1, 2)], Vec::new());
        let x = vec![rest[0], rest[1], Vec3::new(0.0, -0.1, 0.0)];
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        let mut p = store.view(0..3);
        l.restore(&mut Scratch::default(), &mut p, |i| (i == 2).then_some(Vec3::Y));
        assert!(p.position(2).y > -0.1 + 1e-3, "the end was held to the floor: {}", p.position(2));
        assert!(p.position(0).y < 1.0 - 1e-3, "the top did not come down: {}", p.position(0));
        // Pressed into the floor instead (the chain squashed), it is held.
        let x = vec![rest[0], rest[1], Vec3::new(0.0, 0.1, 0.0)];
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        let mut p = store.view(0..3);
        l.restore(&mut Scratch::default(), &mut p, |i| (i == 2).then_some(Vec3::Y));
        assert_eq!(p.position(2), x[2]);
        assert!(p.position(0).y > 1.0 + 1e-3);
    }

    #[test]
    fn a_resting_skeleton_within_the_trigger_is_left_alone() {
        let (rest, edges, followers) = skeleton();
        let l = Lengths::new(rest.len(), &rest, &edges, followers);
        let mut x = rest.clone();
        x[3] += Vec3::Y * (0.3 * TRIGGER * 0.5);
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        let mut p = store.view(0..rest.len());
        l.restore(&mut Scratch::default(), &mut p, |_| None);
        assert_eq!(p.position(3), x[3]);
    }

    #[test]
    fn a_bone_lying_on_the_floor_slides_back_to_its_length() {
        // Both ends on the floor (held across it), the bone 10 % short: the
        // ends slide apart along the floor, neither rises nor sinks.
        let rest = vec![Vec3::new(0.0, 0.05, 0.0), Vec3::new(0.4, 0.05, 0.0)];
        let l = Lengths::new(2, &rest, &[(0, 1)], Vec::new());
        let x = vec![Vec3::new(0.02, 0.05, 0.0), Vec3::new(0.38, 0.05, 0.0)];
        let mut store = Particles::default();
        store.append(&x, |i| [1.0, 2.0][i]);
        let mut p = store.view(0..2);
        for _ in 0..2 {
            l.restore(&mut Scratch::default(), &mut p, |_| Some(Vec3::Y));
        }
        assert!(lengths_ok(&l, &p) < 2.0 * TOLERANCE, "still {} off", lengths_ok(&l, &p));
        assert_eq!((p.position(0).y, p.position(1).y), (0.05, 0.05));
        // The lighter end (inverse mass 2) moved twice as far.
        let (a, b) = (0.02 - p.position(0).x, p.position(1).x - 0.38);
        assert!((b - 2.0 * a).abs() < 1e-4, "moves {a} and {b}");
    }
}
