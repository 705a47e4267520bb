//! Sticks that form a forest (ropes, chains, hair, branching trees) solved
//! exactly each pass, instead of by Gauss-Seidel relaxation.
//!
//! Relaxation converges slowly where masses differ: a 100 kg weight on a
//! rope of 0.1 kg particles hangs 81 % stretched at 8 substeps x 1 pass,
//! as each pass carries the weight's pull one stick up the rope and the
//! light particles give way (issue 31, item 8). The sticks' linearised
//! XPBD system over a tree is solved directly in linear time (Baraff,
//! "Linear-time dynamics using Lagrange multipliers", 1996), as the
//! ragdoll's bone lengths are (ragdoll/lengths.rs):
//!
//! ```text
//! (J W G^T + alpha_tilde) dlambda = -C - alpha_tilde lambda
//! x_a -= w_a dlambda g        x_b += w_b dlambda g        (per stick a -> b)
//! ```
//!
//! `J`'s rows are the sticks' gradients `n = d / |d|`, `G`'s the directions
//! the corrections move along: in a substep's first Newton step the
//! stick's direction at the substep's start (SHAKE, as distance.rs's kernel
//! does, so that a lone stick gives the kernel's bits) where it turned by
//! less than `SHAKE_COS`, the gradient otherwise and in every later step
//! (`SHAKE_COS` says why). Two sticks couple only
//! through a particle they share, so after eliminating the sticks leaf first
//! (post-order) every entry of the factor lives in one small dense block per
//! particle: its sticks to its children, then the one to its parent (no
//! fill). A pinned particle couples nothing (`w = 0`). The velocity stage
//! solves the same system with `G = J` for the velocities along the sticks.
//!
//! The structure is derived from the stick list when it is built or
//! restored (no state of its own); a set with a loop keeps the relaxation.
//! Contacts are not in the solve: a pass makes one Newton step unless a
//! stick is far off (`TRIGGER`). The steps after the first solve the
//! pass's projection with the sticks' curvature (`kkt_step`).
//!
//! A rigid joint from a particle of the forest to another body is solved
//! with it as one more stick to a node past the forest's particles
//! (`WithEnd`, built per jointed particle by `DistanceSet::solve_joined`):
//! moved apart, a rope's solve and the joint's did not converge together
//! where the rope is light and the other end heavy (constraints/joint.rs).

use super::distance::MIN_LENGTH;
use crate::particles::ParticlesMut;
use glam::Vec3;

/// Pivots below this are a stick no particle can serve; it is skipped.
const SINGULAR: f32 = 1.0e-20;

/// Newton steps of a pass at most: one leaves the error of the
/// linearisation, large where light particles turn fast (a rope whipping
/// behind a swinging weight: 16 % at 8 substeps x 1 pass).
const NEWTON_STEPS: usize = 4;

/// Newton steps of a pass at most for a forest with a rigid joint to a
/// heavy body in it (`DistanceSet::solve_joined`): a rope of 5 light
/// particles holding 70 kg through a 4 m joint, swinging, under steps of
/// up to 0.1 s, was left 4 % off after 4 (45 % after 8, then blew up) and
/// converged within 16.
pub(crate) const JOINED_NEWTON_STEPS: usize = 16;

/// The substep (s) for which a pass makes `steps` Newton steps at most
/// (the default 8 substeps at 60 Hz); a substep k times as long makes k
/// times as many (k rounded, at most `LONGER`), so that a frame's budget of
/// Newton steps does not shrink with fewer substeps: the sticks turn k
/// times as far in a substep k times as long, and the steps after a pass's
/// first need more of them to converge from there. Safe only with those
/// steps kept near the pass's start (`kkt_step`): with the first step's
/// linearisation repeated, a 100 kg weight on a light rope (tests/rope.rs)
/// at 2 substeps x 3 passes converged to a far root, the rope folded, and
/// gained 1.7 kJ in a frame.
const H_NEWTON: f32 = 1.0 / 480.0;
const LONGER: f32 = 8.0;

/// How many times `H_NEWTON` the substep is (`inv_h2` is `1 / h^2`),
/// rounded: 1 at 1/480 s and shorter.
fn longer(inv_h2: f32) -> usize {
    ((H_NEWTON * inv_h2.sqrt()).recip().round().clamp(1.0, LONGER) as usize).max(1)
}

/// A Newton step after a pass's first is cut back by halves, `HALVINGS`
/// times at most, until it lowers the l1 merit of the projection (the
/// mass-weighted squared move from the pass's start plus `rho` times the
/// sticks' absolute residuals) by `ARMIJO` of its first-order rate
/// (Nocedal and Wright, "Numerical Optimization", 2006, 18.3 and 18.4).
const ARMIJO: f64 = 1.0e-4;
const HALVINGS: u32 = 8;

/// The Newton steps of a pass are the first step's linearisation again
/// (cheaper, and converging fast from a first step that left the sticks
/// near their lengths, as at the defaults) until one leaves the worst stick
/// more than `WANDERS` of what it was before it; from then on they are
/// `kkt_step`'s.
const WANDERS: f32 = 0.5;

/// The first Newton step of a substep moves a stick along its direction at
/// the substep's start (SHAKE) when it turned by less than this cosine
/// (0.8 degrees), along its gradient otherwise. Why: SHAKE keeps a swinging
/// rope's energy (along the gradient a 1 m pendulum at 8 substeps x 1 pass
/// keeps 83 % of its amplitude over 20 s, SHAKE 100 %), but with the old
/// directions the system is not symmetric, and sticks that turned far make
/// it indefinite: at the kernel's 60 degrees the whipping rope of
/// tests/rope.rs blew up, at 8 degrees (0.99) it gained 1.8 kJ.
const SHAKE_COS: f32 = 0.9999;

/// A pass makes more than one Newton step only when one left a stick off by
/// more than `TRIGGER` of its length, and then stops once every one is
/// within `TOLERANCE`. Why the trigger: a chain resting on a terrain has
/// its sticks nudged by the contacts every pass, and Newton steps that
/// restored them exactly against the contacts kept it sliding (0.22 m/s
/// after the showcase's chain scene, against 0.03 relaxed); the contacts
/// are not in this solve (the ragdoll's lengths.rs holds them across their
/// surfaces).
const TRIGGER: f32 = 5.0e-3;
const TOLERANCE: f32 = 1.0e-6;

/// What a solve reads and moves: a body's particles (`ParticlesMut`), or
/// a rope's with a joint's other end past them (`WithEnd`).
pub trait Nodes {
    fn position(&self, i: usize) -> Vec3;
    fn previous(&self, i: usize) -> Vec3;
    fn inv_mass(&self, i: usize) -> f32;
    fn velocity(&self, i: usize) -> Vec3;
    fn set_velocity(&mut self, i: usize, v: Vec3);
    fn move_by(&mut self, i: usize, d: Vec3);
}

impl Nodes for ParticlesMut<'_> {
    #[inline(always)]
    fn position(&self, i: usize) -> Vec3 {
        ParticlesMut::position(self, i)
    }
    #[inline(always)]
    fn previous(&self, i: usize) -> Vec3 {
        ParticlesMut::previous(self, i)
    }
    #[inline(always)]
    fn inv_mass(&self, i: usize) -> f32 {
        self.inv_mass[i]
    }
    #[inline(always)]
    fn velocity(&self, i: usize) -> Vec3 {
        ParticlesMut::velocity(self, i)
    }
    #[inline(always)]
    fn set_velocity(&mut self, i: usize, v: Vec3) {
        ParticlesMut::set_velocity(self, i, v)
    }
    #[inline(always)]
    fn move_by(&mut self, i: usize, d: Vec3) {
        ParticlesMut::move_by(self, i, d)
    }
}

/// A rope's particles and one node past them, `at`: a rigid joint's end in
/// another body, its position `x` (moved by the solve; `moved` sums the
/// moves), its substep-start position `previous` and inverse mass `w`.
pub struct WithEnd<'a, 'b> {
    pub p: &'a mut ParticlesMut<'b>,
    pub at: usize,
    pub x: Vec3,
    pub previous: Vec3,
    pub w: f32,
    pub moved: Vec3,
}

impl Nodes for WithEnd<'_, '_> {
    #[inline(always)]
    fn position(&self, i: usize) -> Vec3 {
        if i == self.at { self.x } else { self.p.position(i) }
    }
    #[inline(always)]
    fn previous(&self, i: usize) -> Vec3 {
        if i == self.at { self.previous } else { self.p.previous(i) }
    }
    #[inline(always)]
    fn inv_mass(&self, i: usize) -> f32 {
        if i == self.at { self.w } else { self.p.inv_mass[i] }
    }
    // Positions only: the joints' velocity stage weighs the rope through
    // `StickTree::response` (joint.rs).
    fn velocity(&self, i: usize) -> Vec3 {
        if i == self.at { Vec3::ZERO } else { self.p.velocity(i) }
    }
    fn set_velocity(&mut self, i: usize, v: Vec3) {
        if i != self.at {
            self.p.set_velocity(i, v)
        }
    }
    #[inline(always)]
    fn move_by(&mut self, i: usize, d: Vec3) {
        if i == self.at {
            self.x += d;
            self.moved += d;
        } else {
            self.p.move_by(i, d)
        }
    }
}

/// The forest of a body's sticks and the solve's scratch.
#[derive(Clone, Debug, Default)]
pub struct StickTree {
    /// Particles with sticks, children before parents.
    order: Vec<u32>,
    /// Per particle of `order`: where its sticks start in `star`; the last
    /// one of a particle with a parent is the stick to it.
    star_start: Vec<u32>,
    star: Vec<u32>,
    has_parent: Vec<bool>,
    /// Per particle of `order`: where its dense block starts.
    block_start: Vec<u32>,
    // Scratch, per stick and per block.
    n: Vec<Vec3>,
    g: Vec<Vec3>,
    /// No pass of this substep has run yet (see `solve`).
    fresh: bool,
    /// Newton steps of a pass at most (`NEWTON_STEPS` unless set).
    pub steps: usize,
    diag: Vec<f32>,
    rhs: Vec<f32>,
    dlambda: Vec<f32>,
    blocks: Vec<f32>,
    /// Per particle: its move under a unit pull at a joint's end with the
    /// sticks held (see `response`).
    resp: Vec<Vec3>,
    /// The position solve's scratch for the Newton steps after a pass's
    /// first (see `kkt_step`): per stick the pass's multipliers, the first
    /// step's directions and the step's multipliers; per node its move in
    /// the pass, the step's, and the reduced block its children leave it
    /// (3x3 and right-hand side); per particle of `order` its eliminated
    /// rows and the multipliers they hold; the back substitution's values.
    lam_pass: Vec<f64>,
    g0: Vec<Vec3>,
    disp: Vec<[f64; 3]>,
    dx: Vec<[f64; 3]>,
    acc: Vec<[f64; 12]>,
    rows: Vec<f64>,
    row_start: Vec<u32>,
    owned: Vec<u32>,
    owned_start: Vec<u32>,
    dlam: Vec<f64>,
    sol: Vec<f64>,
}

/// What a solve corrects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Positions (the XPBD pass).
    Position,
    /// Velocities along stiff sticks (see `DistanceSet::project_velocities`).
    Velocity,
}

impl StickTree {
    /// The next pass is the substep's first.
    pub fn begin_substep(&mut self) {
        self.fresh = true;
    }

    /// The forest of sticks `a[k] - b[k]`, or `None` when they close a loop.
    pub fn build(a: &[u32], b: &[u32], bound: usize) -> Option<StickTree> {
        if a.is_empty() {
            return None;
        }
        let mut parent: Vec<u32> = (0..bound as u32).collect();
        fn root(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                let up = parent[parent[i as usize] as usize];
                parent[i as usize] = up;
                i = up;
            }
            i
        }
        for (&i, &j) in a.iter().zip(b) {
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            if ri == rj {
                return None;
            }
            parent[ri as usize] = rj;
        }
        // Adjacency, in stick order.
        let mut start = vec![0u32; bound + 1];
        for (&i, &j) in a.iter().zip(b) {
            start[i as usize + 1] += 1;
            start[j as usize + 1] += 1;
        }
        for k in 0..bound {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; 2 * a.len()];
        for (k, (&i, &j)) in a.iter().zip(b).enumerate() {
            for p in [i, j] {
                adj[fill[p as usize] as usize] = k as u32;
                fill[p as usize] += 1;
            }
        }
        // Depth-first from the lowest particle of each tree, post-order.
        let mut tree = StickTree::default();
        let mut up = vec![u32::MAX; bound]; // the stick to the parent
        let mut visited = vec![false; bound];
        let mut stack: Vec<(u32, u32)> = Vec::new(); // (particle, next adjacency slot)
        for r in 0..bound {
            if visited[r] || start[r] == start[r + 1] {
                continue;
            }
            visited[r] = true;
            stack.push((r as u32, start[r]));
            while let Some(&mut (p, ref mut slot)) = stack.last_mut() {
                if *slot < start[p as usize + 1] {
                    let k = adj[*slot as usize];
                    *slot += 1;
                    let q = if a[k as usize] == p { b[k as usize] } else { a[k as usize] };
                    if !visited[q as usize] {
                        visited[q as usize] = true;
                        up[q as usize] = k;
                        stack.push((q, start[q as usize]));
                    }
                } else {
                    stack.pop();
                    tree.star_start.push(tree.star.len() as u32);
                    tree.block_start.push(tree.blocks.len() as u32);
                    let own = &adj[start[p as usize] as usize..start[p as usize + 1] as usize];
                    let to_parent = up[p as usize];
                    tree.star.extend(own.iter().filter(|&&k| k != to_parent));
                    if to_parent != u32::MAX {
                        tree.star.push(to_parent);
                    }
                    tree.has_parent.push(to_parent != u32::MAX);
                    let size = own.len();
                    tree.blocks.resize(tree.blocks.len() + size * size, 0.0);
                    tree.order.push(p);
                }
            }
        }
        tree.star_start.push(tree.star.len() as u32);
        let m = a.len();
        tree.n = vec![Vec3::ZERO; m];
        tree.g = vec![Vec3::ZERO; m];
        tree.diag = vec![0.0; m];
        tree.rhs = vec![0.0; m];
        tree.dlambda = vec![0.0; m];
        tree.resp = vec![Vec3::ZERO; bound];
        tree.lam_pass = vec![0.0; m];
        tree.g0 = vec![Vec3::ZERO; m];
        tree.disp = vec![[0.0; 3]; bound];
        tree.dx = vec![[0.0; 3]; bound];
        tree.acc = vec![[0.0; 12]; bound];
        tree.row_start = vec![0; tree.order.len() + 1];
        tree.owned_start = vec![0; tree.order.len() + 1];
        tree.dlam = vec![0.0; m];
        tree.steps = NEWTON_STEPS;
        Some(tree)
    }

    /// The sticks `(a, b, rest, compliance)` solved in `mode`: for positions
    /// Newton steps until every stick is within `TOLERANCE` of its XPBD
    /// solution (at most `steps` times `longer`), the first a linearised
    /// solve as for velocities, the others on the pass's whole projection
    /// (`kkt_step`), accumulating the multipliers in `lambda`; for
    /// velocities one solve (the system is linear).
    #[allow(clippy::too_many_arguments)] // the set's arrays, borrowed apart
    pub fn solve(
        &mut self,
        mode: Mode,
        (a, b): (&[u32], &[u32]),
        rest: &[f32],
        compliance: &[f32],
        lambda: &mut [f32],
        p: &mut impl Nodes,
        inv_h2: f32,
    ) {
        let steps = if mode == Mode::Position { self.steps * longer(inv_h2) } else { 1 };
        let (mut kkt, mut last) = (false, f32::INFINITY);
        for step in 0..steps {
            let shake = mode == Mode::Position && step == 0 && self.fresh;
            if mode == Mode::Position && step == 1 {
                // The first step's directions, for its moves (see below).
                self.g0.copy_from_slice(&self.g);
            }
            // Each stick's row: gradient, diagonal, right-hand side.
            let mut worst = 0.0f32;
            for k in 0..a.len() {
                let (i, j) = (a[k] as usize, b[k] as usize);
                let w = p.inv_mass(i) + p.inv_mass(j);
                let alpha_tilde = compliance[k] * inv_h2;
                let d = p.position(j) - p.position(i);
                let len2 = d.length_squared();
                let len = len2.sqrt();
                let skip = match mode {
                    Mode::Position => len < MIN_LENGTH || w + alpha_tilde == 0.0,
                    // Soft sticks are left alone (see `project_velocities`).
                    Mode::Velocity => len2 < MIN_LENGTH * MIN_LENGTH || w == 0.0 || alpha_tilde > w,
                };
                if skip {
                    (self.n[k], self.g[k], self.diag[k], self.rhs[k]) = (Vec3::ZERO, Vec3::ZERO, 1.0, 0.0);
                    continue;
                }
                let n = d / len;
                self.n[k] = n;
                let e = p.previous(j) - p.previous(i);
                let along = d.dot(e);
                let (g, n_dot_g) =
                    if shake && along > SHAKE_COS * len * e.length() { (e / len, along / len2) } else { (n, 1.0) };
                self.g[k] = g;
                self.diag[k] = w * n_dot_g + alpha_tilde;
                self.rhs[k] = match mode {
                    Mode::Position => -(len - rest[k]) - alpha_tilde * lambda[k],
                    Mode::Velocity => -n.dot(p.velocity(j) - p.velocity(i)),
                };
                // The residual in metres, against the stick's length.
                worst = worst.max(self.rhs[k].abs() / (w + alpha_tilde) * w / rest[k].max(MIN_LENGTH));
            }
            // The first step is the pass's; more only where it left a
            // stick off by `TRIGGER`, until all are within `TOLERANCE`.
            if mode == Mode::Position && step > 0 && worst < if step == 1 { TRIGGER } else { TOLERANCE } {
                break;
            }
            self.fresh = false;
            if mode == Mode::Position && step == 1 {
                // The pass goes on: its moves and multipliers so far are
                // the first step's (kept for `kkt_step`); the later
                // linearised steps move along the gradients.
                self.disp.fill([0.0; 3]);
                for k in 0..a.len() {
                    let (i, j) = (a[k] as usize, b[k] as usize);
                    let dl = self.dlambda[k];
                    self.lam_pass[k] = f64::from(dl);
                    self.track(i, j, self.g0[k], (p.inv_mass(i) * dl, p.inv_mass(j) * dl));
                }
            }
            if mode == Mode::Position && step > 1 && worst > WANDERS * last {
                kkt = true;
            }
            last = worst;
            if kkt {
                if !self.kkt_step((a, b), rest, compliance, lambda, p, inv_h2) {
                    break;
                }
                continue;
            }
            self.eliminate(a, b, p);
            self.substitute();
            for k in 0..a.len() {
                let (i, j) = (a[k] as usize, b[k] as usize);
                let dl = self.dlambda[k];
                let g = self.g[k];
                // The kernel's order of operations (distance.rs), so that a
                // lone stick gives its positions' bits (`x + -m` is `x - m`);
                // the moves keep what rounding takes of them, for the
                // velocities (`ParticlesMut::move_by`).
                let (si, sj) = (p.inv_mass(i) * dl, p.inv_mass(j) * dl);
                match mode {
                    Mode::Position => {
                        lambda[k] += dl;
                        p.move_by(i, -(g * si));
                        p.move_by(j, g * sj);
                        if step > 0 {
                            self.lam_pass[k] += f64::from(dl);
                            self.track(i, j, g, (si, sj));
                        }
                    }
                    Mode::Velocity => {
                        p.set_velocity(i, p.velocity(i) - g * si);
                        p.set_velocity(j, p.velocity(j) + g * sj);
                    }
                }
            }
        }
    }

    /// Adds a linearised step's moves of a stick's ends (`-g si` and `g
    /// sj`, as `solve` makes them) to the pass's (`disp`).
    #[inline(always)]
    fn track(&mut self, i: usize, j: usize, g: Vec3, (si, sj): (f32, f32)) {
        let (mi, mj) = ((g * si).to_array(), (g * sj).to_array());
        for t in 0..3 {
            self.disp[i][t] -= f64::from(mi[t]);
            self.disp[j][t] += f64::from(mj[t]);
        }
    }

    /// A Newton step of a pass after its first, on the whole projection:
    /// the particles `x` nearest (mass-weighted) their positions at the
    /// pass's start `x0` with the sticks' lengths, a stationary point of
    /// `|x - x0|^2_M / 2` on them:
    ///
    /// ```text
    /// M (x - x0) - J(x)^T lambda = 0        C(x) + alpha_tilde lambda = 0
    /// ```
    ///
    /// `x - x0` and `lambda` are the pass's (`disp`, `lam_pass`). Newton's
    /// matrix has each stick's curvature weighed by its tension,
    /// `K = M + sum max(-lambda, 0) d2C/dx2` (`(I - n n^T) / len` per pair of
    /// ends; compression left out, so that `K` stays positive definite),
    /// and is solved over the tree as `eliminate` does, with a small dense
    /// block per particle: its move, the multipliers it owns (its parent
    /// stick's, and those of its sticks to pinned children), and its
    /// parent's move, which takes the rest as the block's Schur complement.
    /// The step is then cut back until it lowers the merit (`ARMIJO`);
    /// returns false when it did not within `HALVINGS` (the last cut is
    /// taken), and the pass ends there: the sticks cannot all be met (a
    /// rope pinned beyond its length) or the step is lost in rounding.
    ///
    /// Why: the first step's linearisation, repeated from where it left
    /// the particles (what every step did before), is blind to the
    /// sticks' tension: it lets a light particle between taut sticks go
    /// anywhere across them, and from a long substep it wandered for 20 to
    /// 40 steps (a 100 kg weight swinging on twenty 0.1 kg particles at 1
    /// substep, tests/rope.rs: the rope 1,856 % long) or settled on a far
    /// root with the rope folded (a gain of 359 J at 4 substeps x 1 pass,
    /// and with the steps scaled by `longer` 1.7 kJ at 2 x 3). The
    /// curvature stiffens the light particles across their sticks by the
    /// weight's pull, and the merit keeps the steps near `x0`.
    #[cold]
    #[inline(never)]
    fn kkt_step(
        &mut self,
        (a, b): (&[u32], &[u32]),
        rest: &[f32],
        compliance: &[f32],
        lambda: &mut [f32],
        p: &mut impl Nodes,
        inv_h2: f32,
    ) -> bool {
        let sign = |k: usize, c: usize| if b[k] as usize == c { 1.0f64 } else { -1.0 };
        let v = |x: Vec3| [f64::from(x.x), f64::from(x.y), f64::from(x.z)];
        let active = |n: &[Vec3], k: usize| n[k] != Vec3::ZERO;
        for &c in &self.order {
            self.acc[c as usize] = [0.0; 12];
        }
        self.rows.clear();
        self.owned.clear();
        // Leaf first.
        for o in 0..self.order.len() {
            let c = self.order[o] as usize;
            let star = &self.star[self.star_start[o] as usize..self.star_start[o + 1] as usize];
            let wc = p.inv_mass(c);
            let free_c = wc > 0.0;
            let kp = if self.has_parent[o] { Some(star[star.len() - 1] as usize) } else { None };
            let other = |k: usize| if a[k] as usize == c { b[k] as usize } else { a[k] as usize };
            // The multipliers this particle owns.
            self.owned_start[o] = self.owned.len() as u32;
            for &k in star {
                let k = k as usize;
                if !active(&self.n, k) {
                    continue;
                }
                let owns = if Some(k) == kp { free_c } else { p.inv_mass(other(k)) == 0.0 };
                if owns {
                    self.owned.push(k as u32);
                }
            }
            let owned = &self.owned[self.owned_start[o] as usize..];
            let nx = if free_c { 3 } else { 0 };
            let s = nx + owned.len();
            let parent = match kp {
                Some(k) if active(&self.n, k) && p.inv_mass(other(k)) > 0.0 => Some((k, other(k))),
                _ => None,
            };
            let t = if parent.is_some() { 3 } else { 0 };
            let size = s + t;
            let cols = size + 1;
            let base = self.rows.len();
            self.row_start[o] = base as u32;
            self.rows.resize(base + size * cols, 0.0);
            let m = &mut self.rows[base..];
            let at = |r: usize, q: usize| r * cols + q;
            // `c` times (I - n n^T) into the 3x3 at (r0, q0).
            let curvature = |n: [f64; 3], c: f64, out: &mut [f64], r0: usize, q0: usize| {
                for r in 0..3 {
                    for q in 0..3 {
                        let id = if r == q { 1.0 } else { 0.0 };
                        out[(r0 + r) * cols + q0 + q] += c * (id - n[r] * n[q]);
                    }
                }
            };
            if free_c {
                let mc = 1.0 / f64::from(wc);
                let acc = self.acc[c];
                for r in 0..3 {
                    for q in 0..3 {
                        m[at(r, q)] = acc[r * 3 + q] + if r == q { mc } else { 0.0 };
                    }
                    // -(M (x - x0) - J^T lambda), the J^T lambda below.
                    m[at(r, size)] = acc[9 + r] - mc * self.disp[c][r];
                }
                for &k in star {
                    let k = k as usize;
                    if !active(&self.n, k) {
                        continue;
                    }
                    let n = v(self.n[k]);
                    for r in 0..3 {
                        m[at(r, size)] += sign(k, c) * n[r] * self.lam_pass[k];
                    }
                    let tension = (-self.lam_pass[k]).max(0.0);
                    if tension > 0.0 {
                        let len = f64::from((p.position(b[k] as usize) - p.position(a[k] as usize)).length());
                        curvature(n, tension / len, m, 0, 0);
                        if parent.is_some_and(|(kq, _)| kq == k) {
                            curvature(n, -tension / len, m, 0, s);
                            curvature(n, -tension / len, m, s, 0);
                        }
                    }
                }
            }
            for (r, &k) in owned.iter().enumerate() {
                let (k, r) = (k as usize, nx + r);
                let n = v(self.n[k]);
                m[at(r, r)] = -f64::from(compliance[k] * inv_h2);
                m[at(r, size)] = -f64::from(self.rhs[k]);
                if free_c {
                    for q in 0..3 {
                        m[at(r, q)] = -sign(k, c) * n[q];
                        m[at(q, r)] = -sign(k, c) * n[q];
                    }
                }
                if let Some((kq, pp)) = parent
                    && kq == k
                {
                    for q in 0..3 {
                        m[at(r, s + q)] = -sign(k, pp) * n[q];
                        m[at(s + q, r)] = -sign(k, pp) * n[q];
                    }
                }
            }
            // Eliminate the particle's own unknowns.
            for i in 0..s {
                let pivot = m[at(i, i)];
                if pivot.abs() < f64::from(SINGULAR) {
                    for q in 0..cols {
                        m[at(i, q)] = 0.0;
                    }
                    m[at(i, i)] = 1.0;
                    continue;
                }
                for r in i + 1..size {
                    let l = m[at(r, i)] / pivot;
                    if l == 0.0 {
                        continue;
                    }
                    for q in i + 1..cols {
                        m[at(r, q)] -= l * m[at(i, q)];
                    }
                }
            }
            if let Some((_, pp)) = parent {
                let acc = &mut self.acc[pp];
                for r in 0..3 {
                    for q in 0..3 {
                        acc[r * 3 + q] += m[at(s + r, s + q)];
                    }
                    acc[9 + r] += m[at(s + r, size)];
                }
            }
        }
        self.owned_start[self.order.len()] = self.owned.len() as u32;
        // Root first.
        for o in (0..self.order.len()).rev() {
            let c = self.order[o] as usize;
            let star = &self.star[self.star_start[o] as usize..self.star_start[o + 1] as usize];
            let free_c = p.inv_mass(c) > 0.0;
            let kp = if self.has_parent[o] { Some(star[star.len() - 1] as usize) } else { None };
            let other = |k: usize| if a[k] as usize == c { b[k] as usize } else { a[k] as usize };
            let owned = &self.owned[self.owned_start[o] as usize..self.owned_start[o + 1] as usize];
            let nx = if free_c { 3 } else { 0 };
            let s = nx + owned.len();
            let parent = match kp {
                Some(k) if active(&self.n, k) && p.inv_mass(other(k)) > 0.0 => Some(other(k)),
                _ => None,
            };
            let t = if parent.is_some() { 3 } else { 0 };
            let size = s + t;
            let cols = size + 1;
            let m = &self.rows[self.row_start[o] as usize..];
            let sol = &mut self.sol;
            sol.clear();
            sol.resize(size, 0.0);
            if let Some(pp) = parent {
                sol[s..s + 3].copy_from_slice(&self.dx[pp]);
            }
            for i in (0..s).rev() {
                let mut r = m[i * cols + size];
                for q in i + 1..size {
                    r -= m[i * cols + q] * sol[q];
                }
                sol[i] = r / m[i * cols + i];
            }
            self.dx[c] = if free_c { [sol[0], sol[1], sol[2]] } else { [0.0; 3] };
            for (r, &k) in owned.iter().enumerate() {
                self.dlam[k as usize] = sol[nx + r];
            }
        }
        // Backtracking on the l1 merit `|x - x0|^2_M / 2 + rho sum |C +
        // alpha_tilde lambda|`, `rho` large enough that the step descends it
        // (above the multipliers, and twice the objective's rate over the
        // residuals' so that the slope is at most minus the objective's).
        let (mut obj0, mut cons0, mut dot, mut lmax) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for &c in &self.order {
            let c = c as usize;
            let w = p.inv_mass(c);
            if w > 0.0 {
                let m = 1.0 / f64::from(w);
                for t in 0..3 {
                    obj0 += 0.5 * m * self.disp[c][t] * self.disp[c][t];
                    dot += m * self.disp[c][t] * self.dx[c][t];
                }
            }
        }
        for k in 0..a.len() {
            if active(&self.n, k) {
                cons0 += f64::from(self.rhs[k]).abs();
                lmax = lmax.max((self.lam_pass[k] + self.dlam[k]).abs());
            }
        }
        let rho = (2.0 * lmax).max(if cons0 > 0.0 { 2.0 * dot / cons0 } else { 0.0 });
        let phi0 = obj0 + rho * cons0;
        let slope = dot - rho * cons0;
        let mut t = 1.0f64;
        let mut moved = 0.0f64;
        let mut descended = true;
        for halving in 0..=HALVINGS {
            let by = t - moved;
            for &c in &self.order {
                let c = c as usize;
                if p.inv_mass(c) > 0.0 {
                    let d = self.dx[c];
                    p.move_by(c, Vec3::new((d[0] * by) as f32, (d[1] * by) as f32, (d[2] * by) as f32));
                }
            }
            moved = t;
            if halving == HALVINGS {
                descended = false;
                break;
            }
            let mut phi = 0.0f64;
            for &c in &self.order {
                let c = c as usize;
                let w = p.inv_mass(c);
                if w > 0.0 {
                    let m = 1.0 / f64::from(w);
                    for q in 0..3 {
                        let e = self.disp[c][q] + t * self.dx[c][q];
                        phi += 0.5 * m * e * e;
                    }
                }
            }
            for k in 0..a.len() {
                if active(&self.n, k) {
                    let len = f64::from((p.position(b[k] as usize) - p.position(a[k] as usize)).length());
                    let at = f64::from(compliance[k] * inv_h2);
                    phi += rho * (len - f64::from(rest[k]) + at * (f64::from(lambda[k]) + t * self.dlam[k])).abs();
                }
            }
            if phi <= phi0 + ARMIJO * t * slope {
                break;
            }
            t *= 0.5;
        }
        for &c in &self.order {
            let c = c as usize;
            if p.inv_mass(c) > 0.0 {
                for q in 0..3 {
                    self.disp[c][q] += t * self.dx[c][q];
                }
            }
        }
        for (k, l) in lambda.iter_mut().enumerate() {
            if active(&self.n, k) {
                let dl = t * self.dlam[k];
                self.lam_pass[k] += dl;
                *l += dl as f32;
            }
        }
        descended
    }

    /// How the forest answers a unit impulse `u` at particle `r` (a joint's
    /// end, constraints/joint.rs) with its sticks held to first order: the
    /// changes `dx = W (f - J^T mu)` with `(J W J^T + alpha_tilde) mu = J W f`,
    /// `f` the impulse at `r` (Baraff 1996's system, eliminated as `solve`
    /// does, with `G = J` at the current positions; the changes are kept
    /// for `apply_response`). Returns `r`'s generalised inverse mass along
    /// `u`, `u . dx_r`: 0 where the sticks hold it taut against a pin, the
    /// forest's whole inverse mass for a free rope pulled along itself. A
    /// joint that weighs its end by this moves the rope as one body
    /// instead of its end alone (issue 25).
    pub fn response(
        &mut self,
        (a, b): (&[u32], &[u32]),
        compliance: &[f32],
        p: &ParticlesMut,
        r: usize,
        u: Vec3,
        inv_h2: f32,
    ) -> f32 {
        let wr = p.inv_mass[r];
        for k in 0..a.len() {
            let (i, j) = (a[k] as usize, b[k] as usize);
            let w = p.inv_mass[i] + p.inv_mass[j];
            let alpha_tilde = compliance[k] * inv_h2;
            let d = p.position(j) - p.position(i);
            let len = d.length();
            if len < MIN_LENGTH || w + alpha_tilde == 0.0 {
                (self.n[k], self.g[k], self.diag[k], self.rhs[k]) = (Vec3::ZERO, Vec3::ZERO, 1.0, 0.0);
                continue;
            }
            let n = d / len;
            (self.n[k], self.g[k], self.diag[k]) = (n, n, w + alpha_tilde);
            // (J W f)_k: the stick's row is -n at i, +n at j.
            self.rhs[k] = if j == r {
                wr * n.dot(u)
            } else if i == r {
                -wr * n.dot(u)
            } else {
                0.0
            };
        }
        self.eliminate(a, b, p);
        self.substitute();
        self.resp.fill(Vec3::ZERO);
        self.resp[r] = u * wr;
        for k in 0..a.len() {
            let (i, j) = (a[k] as usize, b[k] as usize);
            let m = self.n[k] * self.dlambda[k];
            self.resp[i] += m * p.inv_mass[i];
            self.resp[j] -= m * p.inv_mass[j];
        }
        u.dot(self.resp[r]).clamp(0.0, wr)
    }

    /// Moves every particle by `s` times its move of the last `response`
    /// (`Mode::Position`), or changes its velocity by it (`Mode::Velocity`).
    pub fn apply_response(&self, mode: Mode, p: &mut ParticlesMut, s: f32) {
        for (i, &d) in self.resp.iter().enumerate() {
            if d != Vec3::ZERO {
                match mode {
                    Mode::Position => p.move_by(i, d * s),
                    Mode::Velocity => p.set_velocity(i, p.velocity(i) + d * s),
                }
            }
        }
    }

    /// Leaf first, each particle's block: its child sticks eliminated in
    /// turn, which leaves its parent stick's diagonal and right-hand side
    /// reduced for the parent's block.
    fn eliminate(&mut self, a: &[u32], b: &[u32], p: &impl Nodes) {
        for o in 0..self.order.len() {
            let c = self.order[o] as usize;
            let star = &self.star[self.star_start[o] as usize..self.star_start[o + 1] as usize];
            let size = star.len();
            let s = &mut self.blocks[self.block_start[o] as usize..][..size * size];
            let wc = p.inv_mass(c);
            // sigma: +1 where c is the stick's second end, -1 its first.
            let sign = |k: u32| if b[k as usize] as usize == c { 1.0 } else { -1.0 };
            debug_assert!(star.iter().all(|&k| a[k as usize] as usize == c || b[k as usize] as usize == c));
            for (r, &f) in star.iter().enumerate() {
                for (q, &e) in star.iter().enumerate() {
                    s[r * size + q] = if r == q {
                        self.diag[f as usize]
                    } else {
                        sign(f) * sign(e) * wc * self.n[f as usize].dot(self.g[e as usize])
                    };
                }
            }
            let children = if self.has_parent[o] { size - 1 } else { size };
            for i in 0..children {
                let pivot = s[i * size + i];
                if pivot.abs() < SINGULAR {
                    continue;
                }
                for r in i + 1..size {
                    let l = s[r * size + i] / pivot;
                    if l == 0.0 {
                        continue;
                    }
                    for q in i + 1..size {
                        s[r * size + q] -= l * s[i * size + q];
                    }
                    self.rhs[star[r] as usize] -= l * self.rhs[star[i] as usize];
                }
            }
            if self.has_parent[o] {
                self.diag[star[size - 1] as usize] = s[(size - 1) * size + size - 1];
            }
        }
    }

    /// Root first, each particle's child sticks from their reduced rows,
    /// its parent stick's multiplier known.
    fn substitute(&mut self) {
        for o in (0..self.order.len()).rev() {
            let star = &self.star[self.star_start[o] as usize..self.star_start[o + 1] as usize];
            let size = star.len();
            let s = &self.blocks[self.block_start[o] as usize..][..size * size];
            let children = if self.has_parent[o] { size - 1 } else { size };
            for i in (0..children).rev() {
                let pivot = s[i * size + i];
                let mut r = self.rhs[star[i] as usize];
                for q in i + 1..size {
                    r -= s[i * size + q] * self.dlambda[star[q] as usize];
                }
                self.dlambda[star[i] as usize] = if pivot.abs() < SINGULAR { 0.0 } else { r / pivot };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    #[test]
    fn a_loop_is_not_a_tree() {
        assert!(StickTree::build(&[0, 1, 2], &[1, 2, 0], 3).is_none());
        assert!(StickTree::build(&[0, 1, 1], &[1, 2, 3], 4).is_some());
    }

    #[test]
    fn one_solve_puts_a_branching_tree_back_whatever_the_masses() {
        // A star of three sticks from particle 1 plus a chain, masses 1e4:1.
        let rest_pos =
            [Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 2.0, 0.0)];
        let (a, b) = (vec![0u32, 1, 1, 3], vec![1u32, 2, 3, 4]);
        let rest = vec![1.0f32; 4];
        let mut store = Particles::default();
        store.append(&rest_pos, |i| [0.0, 10.0, 10.0, 10.0, 1.0e-3][i]);
        let n = store.len();
        let mut p = store.view(0..n);
        // Stretch it a little, from the rest pose as the previous positions.
        for i in 0..n {
            p.set_position(i, p.position(i) * 1.02);
        }
        let mut tree = StickTree::build(&a, &b, 5).unwrap();
        let mut lambda = vec![0.0; 4];
        tree.solve(Mode::Position, (&a, &b), &rest, &[0.0; 4], &mut lambda, &mut p, 3600.0);
        for k in 0..4 {
            let len = (p.position(b[k] as usize) - p.position(a[k] as usize)).length();
            assert!((len - 1.0).abs() < 1e-3, "stick {k}: {len}");
        }
    }

    #[test]
    fn the_response_weighs_a_rope_end_by_what_holds_it() {
        // A free stick of 1 kg and 3 kg pulled along itself at the light
        // end moves as one 4 kg body; across itself, as the end alone turns
        // it about the centre of mass (1/m + r^2/I: 1 + 0.75^2 / 0.75).
        let mut store = Particles::default();
        store.append(&[Vec3::ZERO, Vec3::X], |i| [1.0, 1.0 / 3.0][i]);
        let n = store.len();
        let p = store.view(0..n);
        let mut tree = StickTree::build(&[0], &[1], 2).unwrap();
        let along = tree.response((&[0], &[1]), &[0.0], &p, 0, Vec3::X, 3600.0);
        assert!((along - 0.25).abs() < 1e-6, "{along}");
        let across = tree.response((&[0], &[1]), &[0.0], &p, 0, Vec3::Y, 3600.0);
        assert!((across - 1.0).abs() < 1e-6, "{across}");
        // Pinned at 0, the chain 0-1-2 held straight along x: its end cannot
        // move along it; across it, to first order, the sticks do not
        // hold it at all.
        let mut store = Particles::default();
        store.append(&[Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)], |i| [0.0, 1.0, 1.0][i]);
        let n = store.len();
        let p = store.view(0..n);
        let mut tree = StickTree::build(&[0, 1], &[1, 2], 3).unwrap();
        let along = tree.response((&[0, 1], &[1, 2]), &[0.0; 2], &p, 2, Vec3::X, 3600.0);
        assert!(along.abs() < 1e-6, "{along}");
        let across = tree.response((&[0, 1], &[1, 2]), &[0.0; 2], &p, 2, Vec3::Y, 3600.0);
        assert!((across - 1.0).abs() < 1e-6, "{across}");
    }

    #[test]
    fn a_joint_to_a_heavy_end_is_solved_with_the_rope() {
        // A rope 0-1-2 hanging from a pin at 2, light particles of 0.1 kg,
        // and from 0 a joint 4 m long to 70 kg (the node past the rope, 3),
        // straight down. Predicted 2 % long and turned a little (a substep's
        // start), one solve puts the sticks and the joint back together:
        // the weight comes up, the rope straight above it.
        let pin = Vec3::new(0.0, 0.2, 0.0);
        let pose = [Vec3::ZERO, Vec3::new(0.0, 0.1, 0.0), pin, Vec3::new(0.0, -4.0, 0.0)];
        let moved = |x: Vec3| pin + (x - pin) * 1.02 + Vec3::new(0.01, 0.0, 0.0) * (pin.y - x.y);
        let mut store = Particles::default();
        store.append(&pose[..3], |i| [10.0, 10.0, 0.0][i]);
        let n = store.len();
        let mut p = store.view(0..n);
        for (i, &x) in pose[..2].iter().enumerate() {
            p.set_position(i, moved(x));
        }
        let (a, b) = (vec![0u32, 1, 0], vec![1u32, 2, 3]);
        let (rest, compliance) = (vec![0.1, 0.1, 4.0], vec![0.0; 3]);
        let mut tree = StickTree::build(&a, &b, 4).unwrap();
        tree.steps = JOINED_NEWTON_STEPS;
        let w = 1.0 / 70.0;
        let mut nodes = WithEnd { p: &mut p, at: 3, x: moved(pose[3]), previous: pose[3], w, moved: Vec3::ZERO };
        tree.solve(Mode::Position, (&a, &b), &rest, &compliance, &mut [0.0; 3], &mut nodes, 3600.0);
        let x: Vec<Vec3> = (0..4).map(|i| nodes.position(i)).collect();
        for k in 0..3 {
            let len = (x[b[k] as usize] - x[a[k] as usize]).length();
            assert!((len - rest[k]).abs() < 2e-4 * rest[k], "stick {k}: {len}");
        }
        assert_eq!(x[2], pin);
        // 4.2 m below the pin at the start: the weight rose nearly all of
        // the 8.4 cm, the light rope giving it almost nothing.
        assert!((nodes.moved.y - 0.084).abs() < 0.002, "{}", nodes.moved);
    }
}
