//! Distance constraints ("sticks"): Jakobsen's (C2) with masses, as XPBD.
//!
//! For a stick between particles 1 and 2 with `d = x2 - x1`, `C = |d| - r`
//! and `n = d / |d|`, one projection with compliance `alpha`
//! (Macklin, Mueller, Chentanez 2016, eq. 18):
//!
//! ```text
//! alpha_tilde = alpha / h^2
//! dlambda     = (-C - alpha_tilde * lambda) / (w1 + w2 + alpha_tilde)
//! x1 -= w1 * dlambda * n        x2 += w2 * dlambda * n
//! ```
//!
//! With `alpha = 0` this is exactly Jakobsen's rigid stick. Note the sign: a
//! stretched stick (`C > 0`) gives `dlambda < 0`, which pulls the particles
//! together. The article's exact-sqrt pseudo-code (`x1 -= delta*0.5*diff`)
//! has it backwards (an erratum; Fratarcangeli's slides have the right sign); the test
//! `stick_projection_sign` pins it.
//!
//! [`DistanceMethod::SqrtApprox`] replaces `|d|` with one Newton step of the
//! square root from the rest length, `|d| ~ (d.d + r^2) / (2r)`, which is the
//! article's "sqrt approximation" when masses are equal: no square root, exact
//! at rest length and increasingly wrong away from it.

use super::tree::{JOINED_NEWTON_STEPS, Mode, StickTree, WithEnd};
use crate::exec::batches::colour_sticks;
use crate::exec::simd::{self, Kernel, Lanes, SimdLevel};
use crate::exec::workers::Workers;
use crate::particles::ParticlesMut;
use std::ops::Range;

/// One stick between two particles of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceConstraint {
    /// First particle, an index within the body.
    pub a: u32,
    /// Second particle, an index within the body.
    pub b: u32,
    /// Rest length in metres; negative means "the current distance".
    pub rest_length: f32,
    /// XPBD compliance (m/N); 0 is a rigid stick.
    pub compliance: f32,
}

/// How the length of a stick is computed in the projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum DistanceMethod {
    /// A true square root (the default).
    #[default]
    Exact = 0,
    /// Jakobsen's first-order approximation around the rest length.
    SqrtApprox = 1,
}

impl DistanceMethod {
    /// Converts an ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::Exact),
            1 => Some(Self::SqrtApprox),
            _ => None,
        }
    }
}

/// Below this length a stick has no direction and is skipped this pass
/// (coincident particles; Jakobsen: "dislocate them slightly").
pub(crate) const MIN_LENGTH: f32 = 1e-12;
/// The sqrt approximation divides by the rest length; shorter sticks use the exact form.
const MIN_APPROX_REST: f32 = 1e-6;

/// A body's sticks, stored SoA in batch order.
#[derive(Clone, Debug, Default)]
pub struct DistanceSet {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    pub rest: Vec<f32>,
    pub compliance: Vec<f32>,
    /// Accumulated XPBD multiplier, reset every substep.
    lambda: Vec<f32>,
    /// Particle-disjoint batches over the arrays above.
    pub batches: Vec<Range<usize>>,
    /// Per batch: its sticks share particles (the colouring's serial tail, or
    /// a restored image's), so it runs one stick at a time.
    serial: Vec<bool>,
    /// One past the largest particle index, checked against the view once per
    /// call so the kernels index without bounds checks.
    bound: usize,
    /// Per stick: how many sticks from it on, within its batch, have both
    /// ends one particle after the previous one's (at least 1). A chunk
    /// whose first stick has a run of `W` loads and stores its particles as
    /// whole vectors instead of gathering them.
    run: Vec<u32>,
    /// Per stick that starts a 16-lane chunk of its batch: the `d` of a
    /// [`Blocks`] chunk, or 0.
    blocks: Vec<u8>,
    /// The same for 8-lane chunks.
    blocks8: Vec<u8>,
    /// Per stick that starts a 16-lane chunk of its batch: the `r` of a
    /// [`Runs`] chunk (its first `r` sticks one run, the rest the next), or 0.
    runs: Vec<u8>,
    /// The same for 8-lane chunks.
    runs8: Vec<u8>,
    /// Per stick that starts a 16-lane chunk of its batch: the `r` of a
    /// [`Blocks`] chunk over two runs, or 0.
    block_runs: Vec<u8>,
    /// The same for 8-lane chunks.
    block_runs8: Vec<u8>,
    pub method: DistanceMethod,
    /// The sticks as a forest, solved exactly instead of relaxed (see
    /// `tree`), when they close no loop; derived from the arrays above.
    tree: Option<Box<StickTree>>,
    /// Per particle of the forest jointed rigidly to another body: the
    /// forest with the joint as one more stick (see `solve_joined`), built
    /// when first asked; derived like `tree`.
    joined: Vec<Joined>,
}

/// The forest of a set's sticks plus one to a node past its particles.
#[derive(Clone, Debug)]
struct Joined {
    /// The set's particle at the joint.
    r: u32,
    tree: StickTree,
    a: Vec<u32>,
    b: Vec<u32>,
    // The set's arrays with the joint's row appended, copied in per solve.
    rest: Vec<f32>,
    compliance: Vec<f32>,
    lambda: Vec<f32>,
}

/// Below this many sticks a set runs scalar: its batches are too short to
/// fill vector lanes. The results are the same bits either way.
const MIN_VECTOR_STICKS: usize = 64;
/// A batch of at least this many chunks is split across workers.
const PARALLEL_CHUNKS: usize = 256;
/// Chunks per worker range at the least.
const MIN_RANGE_CHUNKS: u32 = 16;

impl DistanceSet {
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// Appends validated sticks (rest lengths already resolved) and re-colours
    /// the whole set.
    pub fn extend(&mut self, sticks: &[DistanceConstraint], particle_count: usize) {
        self.a.extend(sticks.iter().map(|s| s.a));
        self.b.extend(sticks.iter().map(|s| s.b));
        self.rest.extend(sticks.iter().map(|s| s.rest_length));
        self.compliance.extend(sticks.iter().map(|s| s.compliance));
        let pairs: Vec<[u32; 2]> = self.a.iter().zip(&self.b).map(|(&a, &b)| [a, b]).collect();
        let col = colour_sticks(&pairs, particle_count);
        let permute = |v: &[u32]| col.order.iter().map(|&k| v[k as usize]).collect::<Vec<_>>();
        let permute_f = |v: &[f32]| col.order.iter().map(|&k| v[k as usize]).collect::<Vec<_>>();
        self.a = permute(&self.a);
        self.b = permute(&self.b);
        self.rest = permute_f(&self.rest);
        self.compliance = permute_f(&self.compliance);
        self.lambda = vec![0.0; self.a.len()];
        self.batches = col.batches;
        self.index_batches();
    }

    /// Rebuilds a set from a snapshot's arrays (already validated).
    pub fn from_parts(
        a: Vec<u32>,
        b: Vec<u32>,
        rest: Vec<f32>,
        compliance: Vec<f32>,
        batches: Vec<Range<usize>>,
        method: DistanceMethod,
    ) -> Self {
        let lambda = vec![0.0; a.len()];
        let mut set = DistanceSet { a, b, rest, compliance, lambda, batches, method, ..Default::default() };
        set.index_batches();
        set
    }

    /// Finds the index bound and which batches share particles; sorts each
    /// particle-disjoint batch by its particles and measures the runs of
    /// consecutive ones. The sticks of such a batch are independent, so their
    /// order inside it does not change a bit of the result.
    fn index_batches(&mut self) {
        self.bound = self.a.iter().chain(&self.b).map(|&i| i as usize + 1).max().unwrap_or(0);
        let mut seen = vec![usize::MAX; self.bound];
        self.serial = self
            .batches
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mut shared = false;
                for c in r.clone() {
                    for i in [self.a[c] as usize, self.b[c] as usize] {
                        shared |= seen[i] == k;
                        seen[i] = k;
                    }
                }
                shared
            })
            .collect();
        let mut order: Vec<usize> = (0..self.len()).collect();
        for (r, &serial) in self.batches.iter().zip(&self.serial) {
            if !serial {
                order[r.clone()].sort_by_key(|&c| (self.a[c], self.b[c]));
            }
        }
        let (a, b) = (self.a.clone(), self.b.clone());
        let (rest, compliance, lambda) = (self.rest.clone(), self.compliance.clone(), self.lambda.clone());
        for (to, &from) in order.iter().enumerate() {
            self.a[to] = a[from];
            self.b[to] = b[from];
            self.rest[to] = rest[from];
            self.compliance[to] = compliance[from];
            self.lambda[to] = lambda[from];
        }
        self.blocks = vec![0; self.len()];
        self.blocks8 = vec![0; self.len()];
        for r in &self.batches {
            let mut c = r.start;
            while c + 16 <= r.end {
                self.blocks[c] = self.block_offset(c, 16);
                c += 16;
            }
            let mut c = r.start;
            while c + 8 <= r.end {
                self.blocks8[c] = self.block_offset(c, 8);
                c += 8;
            }
        }
        self.run = vec![1; self.len()];
        for r in &self.batches {
            for c in r.clone().rev().skip(1) {
                if self.a[c + 1] == self.a[c].wrapping_add(1) && self.b[c + 1] == self.b[c].wrapping_add(1) {
                    self.run[c] = self.run[c + 1] + 1;
                }
            }
        }
        let (mut runs, mut runs8) = (vec![0; self.len()], vec![0; self.len()]);
        let (mut block_runs, mut block_runs8) = (vec![0; self.len()], vec![0; self.len()]);
        for (r, &serial) in self.batches.iter().zip(&self.serial) {
            if serial {
                continue;
            }
            for (lanes, runs, block_runs) in [(16, &mut runs, &mut block_runs), (8, &mut runs8, &mut block_runs8)] {
                let mut c = r.start;
                while c + lanes <= r.end {
                    let first = self.run[c] as usize;
                    if first < lanes && self.run[c + first] as usize >= lanes - first {
                        runs[c] = first as u8;
                    }
                    block_runs[c] = self.block_split(c, lanes);
                    c += lanes;
                }
            }
        }
        (self.runs, self.runs8, self.block_runs, self.block_runs8) = (runs, runs8, block_runs, block_runs8);
        self.tree = StickTree::build(&self.a, &self.b, self.bound).map(Box::new);
        self.joined.clear();
    }

    /// The `d` of a [`Blocks`] chunk of `lanes` sticks from `c`, or 0.
    fn block_offset(&self, c: usize, lanes: usize) -> u8 {
        let d = self.b[c].wrapping_sub(self.a[c]) as usize;
        let fits = d.is_power_of_two() && d < lanes && self.blocks_from(c, d, lanes) == lanes;
        if fits { d as u8 } else { 0 }
    }

    /// How many of the `lanes` sticks from `c` follow the [`Blocks`]
    /// pattern of offset `d` from stick `c`'s first particle.
    fn blocks_from(&self, c: usize, d: usize, lanes: usize) -> usize {
        let i0 = self.a[c] as usize;
        (0..lanes)
            .take_while(|&l| {
                let i = i0 + (l / d) * 2 * d + l % d;
                self.a[c + l] as usize == i && self.b[c + l] as usize == i + d
            })
            .count()
    }

    /// The `r` of a [`Blocks`] chunk over two runs of `lanes` sticks from
    /// `c`, or 0: its first `r` sticks (whole blocks of `d`) follow the
    /// pattern from stick `c`, the others the same pattern from stick `c + r`.
    fn block_split(&self, c: usize, lanes: usize) -> u8 {
        let d = self.b[c].wrapping_sub(self.a[c]) as usize;
        if !d.is_power_of_two() || d >= lanes {
            return 0;
        }
        let r = self.blocks_from(c, d, lanes) / d * d;
        let fits = r > 0
            && r < lanes
            && self.b[c + r].wrapping_sub(self.a[c + r]) as usize == d
            && self.blocks_from(c + r, d, lanes - r) == lanes - r;
        if fits { r as u8 } else { 0 }
    }

    /// XPBD: multipliers start from zero each substep.
    pub fn begin_substep(&mut self) {
        self.lambda.fill(0.0);
        if let Some(tree) = &mut self.tree {
            tree.begin_substep();
        }
        self.joined.iter_mut().for_each(|j| j.tree.begin_substep());
    }

    /// One Gauss-Seidel pass over every batch, in order, at `level`; sticks
    /// that form a forest are solved exactly instead (see `tree`).
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32, simd: SimdLevel, workers: &dyn Workers) {
        if self.a.is_empty() {
            return; // most bodies of a crowd of small ones: no call into the kernels
        }
        match self.method {
            DistanceMethod::Exact if self.tree.is_some() => self.solve_tree(Mode::Position, p, inv_h2),
            DistanceMethod::Exact => self.run(Stage::Position, p, inv_h2, simd, workers),
            DistanceMethod::SqrtApprox => {
                for batch in 0..self.batches.len() {
                    self.project_approx(p, inv_h2, self.batches[batch].clone());
                }
            }
        }
    }

    /// Runs a kernel over every batch, in order: vector lanes where the batch
    /// is particle-disjoint, one stick at a time where it is not. A large
    /// disjoint batch is split across the workers by chunks; each chunk is
    /// computed the same way whoever takes it.
    fn run(&mut self, stage: Stage, p: &mut ParticlesMut, inv_h2: f32, simd: SimdLevel, workers: &dyn Workers) {
        if self.len() < MIN_VECTOR_STICKS {
            self.run_as::<true>(stage, p, inv_h2, SimdLevel::Scalar, workers);
        } else {
            self.run_as::<false>(stage, p, inv_h2, simd, workers);
        }
    }

    /// [`DistanceSet::run`] at `level`; `SMALL`: a set run scalar at
    /// every level, whose moves keep what rounding takes of them (see
    /// [`Pass`]).
    fn run_as<const SMALL: bool>(
        &mut self,
        stage: Stage,
        p: &mut ParticlesMut,
        inv_h2: f32,
        level: SimdLevel,
        workers: &dyn Workers,
    ) {
        assert!(self.bound <= p.len(), "a stick indexes past its body");
        let mut lambda = std::mem::take(&mut self.lambda);
        let (raw, lambda_ptr) = (Raw::of(p), Shared(lambda.as_mut_ptr()));
        let set = &*self;
        let pass = |part| Pass::<SMALL> { set, lambda: lambda_ptr, p: raw, inv_h2, stage, part };
        if SMALL || workers.count() == 1 {
            simd::dispatch(level, &mut pass(Part::All));
        } else {
            let w = level.lanes();
            for (k, r) in set.batches.iter().enumerate() {
                let chunks = r.len().div_ceil(w) as u32;
                if set.serial[k] || (chunks as usize) < PARALLEL_CHUNKS {
                    simd::dispatch(level, &mut pass(Part::Batch(k, 0..chunks)));
                } else {
                    workers.run_claimed(chunks, MIN_RANGE_CHUNKS, &|range, _| {
                        simd::dispatch(level, &mut pass(Part::Batch(k, range)));
                    });
                }
            }
        }
        self.lambda = lambda;
    }

    /// The exact projection of stick `c` alone.
    fn run_one(&mut self, c: usize, p: &mut ParticlesMut, inv_h2: f32) {
        assert!(self.bound <= p.len(), "a stick indexes past its body");
        let mut lambda = std::mem::take(&mut self.lambda);
        let (raw, lambda_ptr) = (Raw::of(p), Shared(lambda.as_mut_ptr()));
        let mut pass =
            Pass::<true> { set: self, lambda: lambda_ptr, p: raw, inv_h2, stage: Stage::Position, part: Part::All };
        pass.chunk::<f32>(c, c + 1);
        self.lambda = lambda;
    }

    #[inline(always)]
    fn project_approx(&mut self, p: &mut ParticlesMut, inv_h2: f32, range: Range<usize>) {
        for c in range {
            let rest = self.rest[c];
            if rest < MIN_APPROX_REST {
                self.run_one(c, p, inv_h2);
                continue;
            }
            let (i, j) = (self.a[c] as usize, self.b[c] as usize);
            let (dx, dy, dz) = (p.x[j] - p.x[i], p.y[j] - p.y[i], p.z[j] - p.z[i]);
            // |d| ~ (d.d + r^2) / (2r): one Newton step of sqrt(d.d) from r.
            let len = (dx * dx + dy * dy + dz * dz + rest * rest) / (2.0 * rest);
            let (wi, wj) = (p.inv_mass[i], p.inv_mass[j]);
            let alpha_tilde = self.compliance[c] * inv_h2;
            let denom = wi + wj + alpha_tilde;
            if denom == 0.0 {
                continue;
            }
            let dlambda = (-(len - rest) - alpha_tilde * self.lambda[c]) / denom;
            self.lambda[c] += dlambda;
            let (si, sj) = (wi * dlambda / len, wj * dlambda / len);
            let d = glam::Vec3::new(dx, dy, dz);
            p.move_by(i, -(d * si));
            p.move_by(j, d * sj);
        }
    }

    /// The velocity stage (RATTLE's second half): removes the relative
    /// velocity along each stiff stick in proportion `(w1 + w2) / (w1 + w2 +
    /// alpha_tilde)`: fully for a rigid one, whose length cannot change. A
    /// soft one (`alpha_tilde > w1 + w2`: softer than its ends' inertia over
    /// the substep) is left alone: its stretching is real motion, and its
    /// position pass is already the implicit-Euler spring (the stage damped a
    /// spring 4 cm off its scheme; tests/spring.rs).
    ///
    /// Why: the position pass turns its corrections into velocity (Verlet reads
    /// velocity from positions). When the relaxation has not converged, as with
    /// one pass per substep on a stiff, over-constrained sheet, those corrections
    /// feed back into the next prediction and pump energy in: a 128x128 sheet of
    /// rigid structural, shear and bend sticks at 10 substeps x 1 pass gains
    /// energy without bound (tests/stiff_sheet.rs). A rigid stick's length is
    /// constant, so its ends have no relative velocity along it; projecting that
    /// component away removes exactly the pumped energy and leaves swinging,
    /// folding and free flight alone.
    pub fn project_velocities(&mut self, p: &mut ParticlesMut, inv_h2: f32, simd: SimdLevel, workers: &dyn Workers) {
        if self.a.is_empty() {
            return;
        }
        if self.tree.is_some() {
            self.solve_tree(Mode::Velocity, p, inv_h2);
        } else {
            self.run(Stage::Velocity, p, inv_h2, simd, workers);
        }
    }

    /// A joint's end `r` pulled along `u`: its generalised inverse mass
    /// through the set's forest (`StickTree::response`), or `None` where the
    /// sticks are relaxed (no forest, or `r` outside it).
    pub fn joint_response(&mut self, p: &ParticlesMut, r: usize, u: glam::Vec3, inv_h2: f32) -> Option<f32> {
        if self.method != DistanceMethod::Exact || r >= self.bound || self.bound > p.len() {
            return None;
        }
        let tree = self.tree.as_mut()?;
        Some(tree.response((&self.a, &self.b), &self.compliance, p, r, u, inv_h2))
    }

    /// A joint from the set's particle `r` to a particle of another body
    /// (`end`: its position, substep-start position and inverse mass),
    /// solved exactly with the set's forest as one more stick of it (see
    /// `StickTree::solve`; `lambda` the joint's multiplier). Returns the
    /// other end's move, or `None` where the sticks are relaxed (no forest,
    /// or `r` outside it) and the set is left as it was.
    #[allow(clippy::too_many_arguments)] // a joint's row, spelt out
    pub fn solve_joined(
        &mut self,
        p: &mut ParticlesMut,
        r: usize,
        end: (glam::Vec3, glam::Vec3, f32),
        rest: f32,
        compliance: f32,
        lambda: &mut f32,
        inv_h2: f32,
    ) -> Option<glam::Vec3> {
        if self.method != DistanceMethod::Exact || r >= self.bound || self.bound > p.len() || self.tree.is_none() {
            return None;
        }
        let at = match self.joined.iter().position(|j| j.r as usize == r) {
            Some(at) => at,
            None => {
                let (mut a, mut b) = (self.a.clone(), self.b.clone());
                a.push(r as u32);
                b.push(self.bound as u32);
                let mut tree = StickTree::build(&a, &b, self.bound + 1)?;
                // Built at its first pass of a substep (a restored world
                // builds it where the original had it from the last).
                tree.begin_substep();
                tree.steps = JOINED_NEWTON_STEPS;
                let m = a.len();
                let joined = Joined {
                    r: r as u32,
                    tree,
                    a,
                    b,
                    rest: vec![0.0; m],
                    compliance: vec![0.0; m],
                    lambda: vec![0.0; m],
                };
                self.joined.push(joined);
                self.joined.len() - 1
            }
        };
        let j = &mut self.joined[at];
        let m = self.a.len();
        j.rest[..m].copy_from_slice(&self.rest);
        j.compliance[..m].copy_from_slice(&self.compliance);
        j.lambda[..m].copy_from_slice(&self.lambda);
        (j.rest[m], j.compliance[m], j.lambda[m]) = (rest, compliance, *lambda);
        let (x, previous, w) = end;
        let mut nodes = WithEnd { p, at: self.bound, x, previous, w, moved: glam::Vec3::ZERO };
        j.tree.solve(Mode::Position, (&j.a, &j.b), &j.rest, &j.compliance, &mut j.lambda, &mut nodes, inv_h2);
        self.lambda.copy_from_slice(&j.lambda[..m]);
        *lambda = j.lambda[m];
        Some(nodes.moved)
    }

    /// Moves the forest by `s` times the last `joint_response`'s moves,
    /// or its velocities (`velocity`).
    pub fn apply_joint_response(&self, p: &mut ParticlesMut, s: f32, velocity: bool) {
        if let Some(tree) = &self.tree {
            tree.apply_response(if velocity { Mode::Velocity } else { Mode::Position }, p, s);
        }
    }

    /// The forest's exact solve (see `tree`).
    fn solve_tree(&mut self, mode: Mode, p: &mut ParticlesMut, inv_h2: f32) {
        assert!(self.bound <= p.len(), "a stick indexes past its body");
        let tree = self.tree.as_mut().expect("a forest");
        tree.solve(mode, (&self.a, &self.b), &self.rest, &self.compliance, &mut self.lambda, p, inv_h2);
    }

    /// Mean of |C| / r over sticks with a positive rest length (stretch report).
    pub fn mean_relative_error(&self, p: &ParticlesMut) -> f32 {
        let mut sum = 0.0f64;
        let mut n = 0usize;
        for c in 0..self.len() {
            let r = self.rest[c];
            if r > 0.0 {
                let (i, j) = (self.a[c] as usize, self.b[c] as usize);
                let len = (p.position(j) - p.position(i)).length();
                sum += f64::from((len - r).abs() / r);
                n += 1;
            }
        }
        if n == 0 { 0.0 } else { (sum / n as f64) as f32 }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Position,
    Velocity,
}

/// A pointer shared by the workers of a pass; they write disjoint elements.
#[derive(Clone, Copy)]
struct Shared(*mut f32);

// SAFETY: within a particle-disjoint batch no two chunks write the same
// element, each chunk runs once (`run_claimed` refuses a chunk handed out
// twice before it runs), and batches are separated by `run_claimed` returning.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

/// A body's particle arrays as pointers, for the workers of a pass.
#[derive(Clone, Copy)]
struct Raw {
    x: Shared,
    y: Shared,
    z: Shared,
    px: Shared,
    py: Shared,
    pz: Shared,
    vx: Shared,
    vy: Shared,
    vz: Shared,
    w: Shared,
    ex: Shared,
    ey: Shared,
    ez: Shared,
}

impl Raw {
    fn of(p: &mut ParticlesMut) -> Raw {
        Raw {
            x: Shared(p.x.as_mut_ptr()),
            y: Shared(p.y.as_mut_ptr()),
            z: Shared(p.z.as_mut_ptr()),
            px: Shared(p.px.as_mut_ptr()),
            py: Shared(p.py.as_mut_ptr()),
            pz: Shared(p.pz.as_mut_ptr()),
            vx: Shared(p.vx.as_mut_ptr()),
            vy: Shared(p.vy.as_mut_ptr()),
            vz: Shared(p.vz.as_mut_ptr()),
            w: Shared(p.inv_mass.as_mut_ptr()),
            ex: Shared(p.ex.as_mut_ptr()),
            ey: Shared(p.ey.as_mut_ptr()),
            ez: Shared(p.ez.as_mut_ptr()),
        }
    }
}

/// What a pass covers: every batch, or chunks of one.
#[derive(Clone)]
enum Part {
    All,
    Batch(usize, Range<u32>),
}

/// One pass of a stage over (a part of) a set's batches, as a SIMD kernel.
///
/// `CAPTURE`: the position pass moves the particles through TwoSum and
/// keeps what rounding takes in the residual columns, as
/// `ParticlesMut::move_by` does, so the velocities get the whole moves.
/// Only for sets run scalar at every level (below `MIN_VECTOR_STICKS`),
/// so each set gets the same bits at every level. Why not the lanes: the
/// residuals' loads and stores and TwoSum's six additions per coordinate
/// made cloth-128 at the defaults 16 % slower (8.67 to 10.07 ms a step,
/// best of 3, process CPU time, AVX-512); a cloth's sticks keep today's
/// rounding, through the kernel's code as it was.
struct Pass<'s, const CAPTURE: bool> {
    set: &'s DistanceSet,
    /// The set's multipliers (taken out of it for the pass).
    lambda: Shared,
    p: Raw,
    inv_h2: f32,
    stage: Stage,
    part: Part,
}

impl<const CAPTURE: bool> Kernel for Pass<'_, CAPTURE> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        match self.part.clone() {
            Part::All => {
                for k in 0..self.set.batches.len() {
                    let chunks = self.set.batches[k].len().div_ceil(V::W) as u32;
                    self.batch::<V>(k, 0..chunks);
                }
            }
            Part::Batch(k, chunks) => self.batch::<V>(k, chunks),
        }
    }
}

impl<const CAPTURE: bool> Pass<'_, CAPTURE> {
    /// Chunks `chunks` (of `W` sticks) of batch `k`; a batch that shares
    /// particles runs one stick at a time, whole.
    #[inline(always)]
    fn batch<V: Lanes>(&mut self, k: usize, chunks: Range<u32>) {
        let Range { start, end } = self.set.batches[k];
        if self.set.serial[k] {
            for c in start..end {
                self.chunk::<f32>(c, c + 1);
            }
        } else {
            for m in chunks {
                self.chunk::<V>(start + m as usize * V::W, end);
            }
        }
    }
}

/// The lanes of one chunk: sticks `c .. min(c + W, end)`; lanes past the
/// batch's end repeat its last stick and are not written.
struct Chunk {
    k: [u32; 16],
    i: [u32; 16],
    j: [u32; 16],
    n: usize,
    /// The first stick, when the chunk is full: its sticks' own values
    /// (rest length, compliance, lambda) are then `W` consecutive ones,
    /// loaded and stored whole instead of gathered and scattered.
    full: Option<usize>,
}

impl Chunk {
    #[inline(always)]
    fn new<V: Lanes>(set: &DistanceSet, c: usize, end: usize) -> Self {
        let n = (end - c).min(V::W);
        let full = (V::W > 1 && n == V::W).then_some(c);
        let mut ch = Chunk { k: [0; 16], i: [0; 16], j: [0; 16], n, full };
        for l in 0..V::W {
            let k = c + l.min(n - 1);
            ch.k[l] = k as u32;
            ch.i[l] = set.a[k];
            ch.j[l] = set.b[k];
        }
        ch
    }
}

/// Which index of a stick a lane reads: its first or second particle, or
/// the stick itself.
#[derive(Clone, Copy)]
enum Of {
    I,
    J,
    K,
}

/// How a chunk's lanes reach their data.
trait Access {
    /// SAFETY: the chunk's indices in bounds of `v`.
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V;
    /// SAFETY: as `get`; no two lanes' indices equal, and no other thread
    /// touching them.
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V);
    /// Writes both ends' values.
    ///
    /// SAFETY: as `put`.
    #[inline(always)]
    unsafe fn put_pair<V: Lanes>(&self, v: Shared, i: V, j: V) {
        // SAFETY: the caller's.
        unsafe {
            self.put(Of::I, v, i);
            self.put(Of::J, v, j);
        }
    }
}

// SAFETY (its `unsafe fn`s): the contracts stated on `Access`, the caller's.
impl Access for Chunk {
    #[inline(always)]
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V {
        let idx = match (of, self.full) {
            // SAFETY: the caller's: the chunk's sticks are `c .. c + W`.
            (Of::K, Some(c)) => return unsafe { V::load(v.0.add(c)) },
            (Of::I, _) => &self.i,
            (Of::J, _) => &self.j,
            (Of::K, None) => &self.k,
        };
        // SAFETY: the caller's.
        unsafe { V::gather(v.0, idx) }
    }
    #[inline(always)]
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V) {
        let idx = match (of, self.full) {
            // SAFETY: as above.
            (Of::K, Some(c)) => return unsafe { val.store(v.0.add(c)) },
            (Of::I, _) => &self.i,
            (Of::J, _) => &self.j,
            (Of::K, None) => &self.k,
        };
        // SAFETY: the caller's.
        unsafe { val.scatter(v.0, idx, self.n) }
    }
}

/// A full chunk whose sticks are `(i + l, j + l)`, `k + l`: whole-vector
/// loads and stores.
struct Contiguous {
    i: usize,
    j: usize,
    k: usize,
}

impl Contiguous {
    #[inline(always)]
    fn at(&self, of: Of) -> usize {
        match of {
            Of::I => self.i,
            Of::J => self.j,
            Of::K => self.k,
        }
    }
}

// SAFETY (its `unsafe fn`s): the contracts stated on `Access`, the caller's.
impl Access for Contiguous {
    #[inline(always)]
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V {
        // SAFETY: the caller's: the chunk's last index is `at + W - 1`.
        unsafe { V::load(v.0.add(self.at(of))) }
    }
    #[inline(always)]
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V) {
        // SAFETY: as above.
        unsafe { val.store(v.0.add(self.at(of))) }
    }
}

/// A full chunk that spans two runs of consecutive sticks: its first `r`
/// sticks are `(i[0] + l, j[0] + l)`, the others `(i[1] + l - r, j[1] + l -
/// r)`, and `k + l`. Each array is read and written in two masked pieces.
///
/// Why: a run that ends inside a chunk made that chunk gather and scatter
/// its particles lane by lane. On the sticks-128 sheet (AVX-512) 519 of
/// the 6,070 16-lane chunks were gathered, 287 of them in the diagonal
/// batches, whose runs are ~63 sticks long; timed per batch, a gathered
/// chunk took ~230 ns and a whole-vector one ~30 ns, so the gathered 9%
/// of the chunks took ~44% of the position passes. With this and
/// [`BlockRuns`] a step went from 3.8 to 1.9 ms (best of 5, one worker).
struct Runs {
    i: [usize; 2],
    j: [usize; 2],
    k: usize,
    r: usize,
}

// SAFETY (its `unsafe fn`s): the contracts stated on `Access`, the caller's.
impl Access for Runs {
    #[inline(always)]
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V {
        // SAFETY: the caller's: both runs' indices are in bounds, and the
        // chunk's sticks are `k .. k + W`.
        unsafe {
            match of {
                Of::I => V::load_runs(v.0, self.i[0], self.i[1], self.r),
                Of::J => V::load_runs(v.0, self.j[0], self.j[1], self.r),
                Of::K => V::load(v.0.add(self.k)),
            }
        }
    }
    #[inline(always)]
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V) {
        // SAFETY: as above.
        unsafe {
            match of {
                Of::I => val.store_runs(v.0, self.i[0], self.i[1], self.r),
                Of::J => val.store_runs(v.0, self.j[0], self.j[1], self.r),
                Of::K => val.store(v.0.add(self.k)),
            }
        }
    }
}

/// A full chunk of a batch of sticks `(a, a + d)`, `d` a power of two below `W`, whose
/// first ends come in blocks of `d` consecutive particles every `2d`: its
/// sticks cover the `2W` particles from `i` exactly, loaded as two vectors
/// and split into ends by lane permutes.
struct Blocks {
    i: usize,
    k: usize,
    d: usize,
}

// SAFETY (its `unsafe fn`s): the contracts stated on `Access`, the caller's.
impl Access for Blocks {
    #[inline(always)]
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V {
        // SAFETY: the caller's: the chunk's particles are `i .. i + 2W`.
        unsafe {
            match of {
                Of::K => V::load(v.0.add(self.k)),
                Of::I | Of::J => {
                    let lo = V::load(v.0.add(self.i));
                    let hi = V::load(v.0.add(self.i + V::W));
                    let (a, b) = V::unzip(lo, hi, self.d);
                    if matches!(of, Of::I) { a } else { b }
                }
            }
        }
    }
    #[inline(always)]
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V) {
        debug_assert!(matches!(of, Of::K), "ends are written in pairs");
        // SAFETY: as above.
        unsafe { val.store(v.0.add(self.k)) }
    }
    #[inline(always)]
    unsafe fn put_pair<V: Lanes>(&self, v: Shared, i: V, j: V) {
        let (lo, hi) = V::zip(i, j, self.d);
        // SAFETY: as above.
        unsafe {
            lo.store(v.0.add(self.i));
            hi.store(v.0.add(self.i + V::W));
        }
    }
}

/// A [`Blocks`] chunk over two runs: its first `r` sticks (whole blocks)
/// cover the `2r` particles from `i[0]`, the others the `2(W - r)` from
/// `i[1]`. The `2W` particles are loaded as two vectors in masked pieces,
/// so that position `m` holds particle `i[0] + m` below `2r` and `i[1] + m -
/// 2r` from there, and split into ends by the same permutes.
///
/// Why: on the sticks-128 sheet the second batches of the right and the
/// bend sticks (`d` 1 and 2) hold 63 and 62 sticks per row, so every fourth
/// chunk ends one row and starts the next: 232 gathered chunks.
struct BlockRuns {
    i: [usize; 2],
    k: usize,
    d: usize,
    r: usize,
}

impl BlockRuns {
    /// The (base, second base, split) of the low and the high vector.
    #[inline(always)]
    fn halves(&self, w: usize) -> [(usize, usize, usize); 2] {
        let (r2, [i0, i1]) = (2 * self.r, self.i);
        let high = r2.saturating_sub(w);
        [(i0, i1, r2.min(w)), (i0 + w, i1 + w - r2 + high, high)]
    }
}

// SAFETY (its `unsafe fn`s): the contracts stated on `Access`, the caller's.
impl Access for BlockRuns {
    #[inline(always)]
    unsafe fn get<V: Lanes>(&self, of: Of, v: Shared) -> V {
        let [(a0, b0, r0), (a1, b1, r1)] = self.halves(V::W);
        // SAFETY: the caller's: the chunk's particles are the two runs above.
        unsafe {
            match of {
                Of::K => V::load(v.0.add(self.k)),
                Of::I | Of::J => {
                    let lo = V::load_runs(v.0, a0, b0, r0);
                    let hi = V::load_runs(v.0, a1, b1, r1);
                    let (a, b) = V::unzip(lo, hi, self.d);
                    if matches!(of, Of::I) { a } else { b }
                }
            }
        }
    }
    #[inline(always)]
    unsafe fn put<V: Lanes>(&self, of: Of, v: Shared, val: V) {
        debug_assert!(matches!(of, Of::K), "ends are written in pairs");
        // SAFETY: as above.
        unsafe { val.store(v.0.add(self.k)) }
    }
    #[inline(always)]
    unsafe fn put_pair<V: Lanes>(&self, v: Shared, i: V, j: V) {
        let [(a0, b0, r0), (a1, b1, r1)] = self.halves(V::W);
        let (lo, hi) = V::zip(i, j, self.d);
        // SAFETY: as above.
        unsafe {
            lo.store_runs(v.0, a0, b0, r0);
            hi.store_runs(v.0, a1, b1, r1);
        }
    }
}

/// A particle's three coordinates, per lane.
#[derive(Clone, Copy)]
struct V3<V>([V; 3]);

impl<V: Lanes> V3<V> {
    /// SAFETY: as [`Access::get`].
    #[inline(always)]
    unsafe fn get(at: &impl Access, of: Of, x: Shared, y: Shared, z: Shared) -> Self {
        // SAFETY: per the contract above.
        unsafe { V3([at.get(of, x), at.get(of, y), at.get(of, z)]) }
    }

    /// Writes both ends' coordinates. SAFETY: as [`Access::put`].
    #[inline(always)]
    unsafe fn put_pair(i: Self, j: Self, at: &impl Access, x: Shared, y: Shared, z: Shared) {
        // SAFETY: per the contract above.
        unsafe {
            at.put_pair(x, i.0[0], j.0[0]);
            at.put_pair(y, i.0[1], j.0[1]);
            at.put_pair(z, i.0[2], j.0[2]);
        }
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        V3([self.0[0].sub(o.0[0]), self.0[1].sub(o.0[1]), self.0[2].sub(o.0[2])])
    }

    #[inline(always)]
    fn dot(self, o: Self) -> V {
        self.0[0].mul(o.0[0]).add(self.0[1].mul(o.0[1])).add(self.0[2].mul(o.0[2]))
    }

    /// Not `array::map`: its call is not inlined into the dispatched
    /// kernel, which then runs the lanes outside their instruction set.
    #[inline(always)]
    fn map(self, f: impl Fn(V) -> V) -> Self {
        V3([f(self.0[0]), f(self.0[1]), f(self.0[2])])
    }

    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(V, V) -> V) -> Self {
        V3([f(self.0[0], o.0[0]), f(self.0[1], o.0[1]), f(self.0[2], o.0[2])])
    }
}

/// [`simd::two_sum`] per coordinate: `a + b` rounded, and what rounding took.
#[inline(always)]
fn two_sums<V: Lanes>(a: V3<V>, b: V3<V>) -> (V3<V>, V3<V>) {
    let [(x, ex), (y, ey), (z, ez)] =
        [simd::two_sum(a.0[0], b.0[0]), simd::two_sum(a.0[1], b.0[1]), simd::two_sum(a.0[2], b.0[2])];
    (V3([x, y, z]), V3([ex, ey, ez]))
}

/// Both ends of a chunk's sticks: positions, previous positions, inverse masses.
///
/// SAFETY: as [`Access::get`].
#[inline(always)]
unsafe fn ends<V: Lanes>(at: &impl Access, p: Raw) -> (V3<V>, V3<V>, V3<V>, V3<V>, V, V) {
    // SAFETY: the caller's.
    unsafe {
        (
            V3::get(at, Of::I, p.x, p.y, p.z),
            V3::get(at, Of::J, p.x, p.y, p.z),
            V3::get(at, Of::I, p.px, p.py, p.pz),
            V3::get(at, Of::J, p.px, p.py, p.pz),
            at.get(Of::I, p.w),
            at.get(Of::J, p.w),
        )
    }
}

impl<const CAPTURE: bool> Pass<'_, CAPTURE> {
    /// The sticks `c .. min(c + W, end)` of one particle-disjoint batch.
    #[inline(always)]
    fn chunk<V: Lanes>(&mut self, c: usize, end: usize) {
        // SAFETY: `run` checked the set's bound against the view, `k` is
        // within the set's arrays, and within a batch no two sticks share a
        // particle.
        unsafe {
            let full = V::W > 1 && c + V::W <= end;
            let d = match V::W {
                16 => self.set.blocks[c],
                8 => self.set.blocks8[c],
                _ => 0,
            };
            if full && V::UNZIP && d != 0 {
                let at = Blocks { i: self.set.a[c] as usize, k: c, d: d as usize };
                match self.stage {
                    Stage::Position => self.position::<V, _>(&at),
                    Stage::Velocity => self.velocity::<V, _>(&at),
                }
            } else if full && self.set.run[c] as usize >= V::W {
                let at = Contiguous { i: self.set.a[c] as usize, j: self.set.b[c] as usize, k: c };
                match self.stage {
                    Stage::Position => self.position::<V, _>(&at),
                    Stage::Velocity => self.velocity::<V, _>(&at),
                }
            } else if let Some(r) = match V::W {
                16 if full && V::UNZIP => Some(self.set.block_runs[c] as usize),
                8 if full && V::UNZIP => Some(self.set.block_runs8[c] as usize),
                _ => None,
            }
            .filter(|&r| r != 0)
            {
                let (set, second) = (self.set, c + r);
                let d = set.b[c].wrapping_sub(set.a[c]) as usize;
                let at = BlockRuns { i: [set.a[c] as usize, set.a[second] as usize], k: c, d, r };
                match self.stage {
                    Stage::Position => self.position::<V, _>(&at),
                    Stage::Velocity => self.velocity::<V, _>(&at),
                }
            } else if let Some(r) = match V::W {
                16 if full => Some(self.set.runs[c] as usize),
                8 if full => Some(self.set.runs8[c] as usize),
                _ => None,
            }
            .filter(|&r| r != 0)
            {
                let (set, second) = (self.set, c + r);
                let at = Runs {
                    i: [set.a[c] as usize, set.a[second] as usize],
                    j: [set.b[c] as usize, set.b[second] as usize],
                    k: c,
                    r,
                };
                match self.stage {
                    Stage::Position => self.position::<V, _>(&at),
                    Stage::Velocity => self.velocity::<V, _>(&at),
                }
            } else {
                let at = Chunk::new::<V>(self.set, c, end);
                match self.stage {
                    Stage::Position => self.position::<V, _>(&at),
                    Stage::Velocity => self.velocity::<V, _>(&at),
                }
            }
        }
    }

    /// The position projection of the module's formula.
    ///
    /// SAFETY: see `chunk`.
    #[inline(always)]
    unsafe fn position<V: Lanes, A: Access>(&mut self, at: &A) {
        let (set, p, lambda_of) = (self.set, self.p, self.lambda);
        // SAFETY: the caller's.
        let ((xi, xj, pi, pj, wi, wj), rest, lambda, compliance) = unsafe {
            (
                ends::<V>(at, p),
                at.get::<V>(Of::K, Shared(set.rest.as_ptr() as *mut f32)),
                at.get::<V>(Of::K, lambda_of),
                at.get::<V>(Of::K, Shared(set.compliance.as_ptr() as *mut f32)),
            )
        };
        let alpha_tilde = compliance.mul(V::splat(self.inv_h2));
        let d = xj.sub(xi);
        let len2 = d.dot(d);
        let len = len2.sqrt();
        let w = wi.add(wj);
        let skip = V::or(len.lt(V::splat(MIN_LENGTH)), w.add(alpha_tilde).eq(V::splat(0.0)));
        // The correction moves along the stick's direction at the start of
        // the substep, d0 = x_prev_j - x_prev_i (SHAKE), scaled as g = d0 / |d|,
        // rather than along d: a stick turning while it is corrected keeps
        // its sideways motion, so a pendulum does not lose (omega h)^2 of its
        // velocity every substep. When the stick turned by more than 60
        // degrees in one substep, d itself is used.
        let e = pj.sub(pi);
        let along = d.dot(e);
        let shake = along.gt(V::splat(0.5).mul(len).mul(e.dot(e).sqrt()));
        let g = e.zip(d, |e, d| V::select(shake, e.div(len), d.div(len)));
        let n_dot_g = V::select(shake, along.div(len2), V::splat(1.0));
        let dlambda = len.sub(rest).neg().sub(alpha_tilde.mul(lambda)).div(w.mul(n_dot_g).add(alpha_tilde));
        let (si, sj) = (wi.mul(dlambda), wj.mul(dlambda));
        let new_lambda = V::select(skip, lambda, lambda.add(dlambda));
        if !CAPTURE {
            let new_i = xi.zip(g, |x, g| x.sub(si.mul(g))).zip(xi, |new, old| V::select(skip, old, new));
            let new_j = xj.zip(g, |x, g| x.add(sj.mul(g))).zip(xj, |new, old| V::select(skip, old, new));
            // SAFETY: the caller's.
            unsafe {
                at.put(Of::K, lambda_of, new_lambda);
                V3::put_pair(new_i, new_j, at, p.x, p.y, p.z);
            }
            return;
        }
        // The same moves by TwoSum, keeping what rounding takes of them
        // (see `Pass`): `x + -m` is `x - m`, bit for bit.
        let (moved_i, lost_i) = two_sums(xi, g.map(|g| si.mul(g).neg()));
        let (moved_j, lost_j) = two_sums(xj, g.map(|g| sj.mul(g)));
        let new_i = moved_i.zip(xi, |new, old| V::select(skip, old, new));
        let new_j = moved_j.zip(xj, |new, old| V::select(skip, old, new));
        // SAFETY: the caller's.
        unsafe {
            let ei = V3::<V>::get(at, Of::I, p.ex, p.ey, p.ez);
            let ej = V3::<V>::get(at, Of::J, p.ex, p.ey, p.ez);
            let new_ei = ei.zip(lost_i, |e, l| V::select(skip, e, e.add(l)));
            let new_ej = ej.zip(lost_j, |e, l| V::select(skip, e, e.add(l)));
            at.put(Of::K, lambda_of, new_lambda);
            V3::put_pair(new_i, new_j, at, p.x, p.y, p.z);
            V3::put_pair(new_ei, new_ej, at, p.ex, p.ey, p.ez);
        }
    }

    /// The velocity stage of [`DistanceSet::project_velocities`].
    ///
    /// SAFETY: see `chunk`.
    #[inline(always)]
    unsafe fn velocity<V: Lanes, A: Access>(&mut self, at: &A) {
        let (set, p) = (self.set, self.p);
        // SAFETY: the caller's.
        let ((xi, xj, vi, vj, wi, wj), compliance) = unsafe {
            (
                (
                    V3::<V>::get(at, Of::I, p.x, p.y, p.z),
                    V3::<V>::get(at, Of::J, p.x, p.y, p.z),
                    V3::<V>::get(at, Of::I, p.vx, p.vy, p.vz),
                    V3::<V>::get(at, Of::J, p.vx, p.vy, p.vz),
                    at.get::<V>(Of::I, p.w),
                    at.get::<V>(Of::J, p.w),
                ),
                at.get::<V>(Of::K, Shared(set.compliance.as_ptr() as *mut f32)),
            )
        };
        let d = xj.sub(xi);
        let len2 = d.dot(d);
        let w = wi.add(wj);
        let alpha_tilde = compliance.mul(V::splat(self.inv_h2));
        // Soft sticks are left alone (see `project_velocities`).
        let soft = alpha_tilde.gt(w);
        let skip = V::or(V::or(len2.lt(V::splat(MIN_LENGTH * MIN_LENGTH)), w.eq(V::splat(0.0))), soft);
        // Relative velocity along d (times |d|).
        let rv = vj.sub(vi);
        let along = rv.dot(d).div(len2);
        let s = along.div(w.add(alpha_tilde));
        // v_i += wi s d, v_j -= wj s d.
        let new_i = vi.zip(d, |v, d| v.add(wi.mul(s).mul(d))).zip(vi, |new, old| V::select(skip, old, new));
        let new_j = vj.zip(d, |v, d| v.sub(wj.mul(s).mul(d))).zip(vj, |new, old| V::select(skip, old, new));
        // SAFETY: the caller's.
        unsafe {
            V3::put_pair(new_i, new_j, at, p.vx, p.vy, p.vz);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::workers::Serial;
    use crate::particles::Particles;
    use glam::Vec3;

    fn pair(d: f32) -> Particles {
        let mut p = Particles::default();
        p.append(&[Vec3::ZERO, Vec3::new(d, 0.0, 0.0)], |_| 1.0);
        p
    }

    fn one_pass(store: &mut Particles, rest: f32, method: DistanceMethod) -> f32 {
        let mut set = DistanceSet { method, ..Default::default() };
        set.extend(&[DistanceConstraint { a: 0, b: 1, rest_length: rest, compliance: 0.0 }], store.len());
        let n = store.len();
        let mut view = store.view(0..n);
        set.project(&mut view, 3600.0, SimdLevel::Scalar, &Serial);
        view.x[1] - view.x[0]
    }

    #[test]
    fn stick_projection_sign() {
        // Stretched: pulled together to the rest length, symmetric about the midpoint.
        let mut p = pair(2.0);
        assert_eq!(one_pass(&mut p, 1.0, DistanceMethod::Exact), 1.0);
        assert_eq!((p.x[0], p.x[1]), (0.5, 1.5));
        // Compressed: pushed apart.
        let mut p = pair(0.5);
        assert_eq!(one_pass(&mut p, 1.0, DistanceMethod::Exact), 1.0);
        assert_eq!((p.x[0], p.x[1]), (-0.25, 0.75));
    }

    #[test]
    fn sqrt_approximation_moves_the_right_way_and_is_exact_at_rest() {
        let mut p = pair(1.1);
        let after = one_pass(&mut p, 1.0, DistanceMethod::SqrtApprox);
        assert!(after < 1.1 && (after - 1.0).abs() < 0.01, "{after}");
        let mut p = pair(0.9);
        let after = one_pass(&mut p, 1.0, DistanceMethod::SqrtApprox);
        assert!(after > 0.9 && (after - 1.0).abs() < 0.01, "{after}");
        let mut p = pair(1.0);
        assert_eq!(one_pass(&mut p, 1.0, DistanceMethod::SqrtApprox), 1.0);
    }

    #[test]
    fn pinned_particle_does_not_move() {
        let mut p = Particles::default();
        p.append(&[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)], |i| if i == 0 { 0.0 } else { 1.0 });
        assert_eq!(one_pass(&mut p, 1.0, DistanceMethod::Exact), 1.0);
        assert_eq!(p.x[0], 0.0);
    }

    /// A 40x40 sheet of structural, shear and bend sticks, jiggled.
    fn sheet() -> (Particles, DistanceSet) {
        let n = 40u32;
        let at = |r: u32, c: u32| r * n + c;
        let mut sticks = Vec::new();
        let stick = |a, b| DistanceConstraint { a, b, rest_length: 0.1, compliance: 1e-7 };
        for r in 0..n {
            for c in 0..n {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (0, 2), (2, 0)] {
                    if r + dr < n && c + dc < n {
                        sticks.push(stick(at(r, c), at(r + dr, c + dc)));
                    }
                }
                if r + 1 < n && c >= 1 {
                    sticks.push(stick(at(r, c), at(r + 1, c - 1)));
                }
            }
        }
        let points: Vec<Vec3> = (0..n * n)
            .map(|k| {
                let j = ((k * 7919) % 101) as f32 * 1e-3;
                Vec3::new((k % n) as f32 * 0.1 + j, (k / n) as f32 * 0.1, j * 3.0)
            })
            .collect();
        let mut p = Particles::default();
        p.append(&points, |i| if i % 17 == 0 { 0.0 } else { 1.0 });
        let mut set = DistanceSet::default();
        set.extend(&sticks, p.len());
        (p, set)
    }

    #[test]
    fn a_small_set_keeps_what_rounding_takes_from_its_moves() {
        // Two rigid sticks 1 km out in their frame, each 1e-3 long of its
        // rest length: one batch, each end moved once by 5e-4 m, 8 of its
        // position's ulps (6.1e-5 m).
        let mut store = Particles::default();
        let ends = [0.0, 1.0, 3.0, 4.0].map(|x| Vec3::new(1000.0 + x, 0.0, 0.0));
        store.append(&ends, |_| 1.0);
        let mut set = DistanceSet::default();
        let stick = |a, b| DistanceConstraint { a, b, rest_length: 0.999, compliance: 0.0 };
        set.extend(&[stick(0, 1), stick(2, 3)], store.len());
        let n = store.len();
        let mut view = store.view(0..n);
        set.begin_substep();
        // The small sets' path (these two would be solved as a forest).
        set.run_as::<true>(Stage::Position, &mut view, 3600.0, SimdLevel::Scalar, &Serial);
        let mut rounded = false;
        for (i, sign) in [(0, 1.0), (1, -1.0), (2, 1.0), (3, -1.0)] {
            let moved = f64::from(view.x[i]) - f64::from(ends[i].x);
            let kept = moved + f64::from(view.ex[i]);
            let want = sign * (1.0 - f64::from(0.999f32)) / 2.0;
            assert!((kept - want).abs() < 1e-9, "particle {i}: moved {kept}, not {want}");
            rounded |= (moved - want).abs() > 1e-6;
        }
        assert!(rounded, "the positions themselves keep their rounding");
    }

    #[test]
    fn every_simd_level_projects_the_same_bits() {
        let mut results = Vec::new();
        for level in SimdLevel::all_available() {
            let (mut p, mut set) = sheet();
            assert!(set.blocks.iter().any(|&d| d != 0) && set.blocks8.iter().any(|&d| d != 0));
            assert!(set.run.iter().any(|&r| r >= 16), "some chunks load whole vectors");
            assert!(set.runs.iter().any(|&r| r != 0) && set.runs8.iter().any(|&r| r != 0), "some span two runs");
            assert!(set.block_runs.iter().any(|&r| r != 0) && set.block_runs8.iter().any(|&r| r != 0));
            let n = p.len();
            for _ in 0..3 {
                let mut view = p.view(0..n);
                set.begin_substep();
                set.project(&mut view, 3600.0, level, &Serial);
                set.project(&mut view, 3600.0, level, &Serial);
                set.project_velocities(&mut view, 3600.0, level, &Serial);
            }
            // The residuals too (zero: a set this large keeps the rounding).
            let bits: Vec<u32> = [&p.x, &p.y, &p.z, &p.px, &p.py, &p.pz, &p.vx, &p.vy, &p.vz, &p.ex, &p.ey, &p.ez]
                .iter()
                .flat_map(|v| v.iter().map(|f| f.to_bits()))
                .collect();
            results.push((level, bits));
        }
        for (level, bits) in &results {
            assert!(bits == &results[0].1, "{level:?} differs from scalar");
        }
        let before: Vec<u32> = sheet().0.x.iter().map(|f| f.to_bits()).collect();
        assert_ne!(results[0].1[..before.len()], before[..], "the sticks moved");
    }
}
