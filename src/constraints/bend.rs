//! Dihedral bending: the angle between the two triangles that share an edge
//! is kept at its rest value, as XPBD with a compliance. The stick across the
//! edge (cloth/build.rs) is the cheap default; it also resists in-plane
//! compression, which real cloth does not, so folds come out rounder than
//! cloth's. The dihedral angle bends only.
//!
//! For the edge `x3 -> x4` with wing vertices `x1` (on the triangle x1 x3 x4)
//! and `x2`, with `e = x4 - x3`, `n1 = (x1 - x3) x (x1 - x4)`,
//! `n2 = (x2 - x4) x (x2 - x3)`, the angle is
//! `theta = atan2((n1 x n2) . e/|e|, n1 . n2)`, and its gradients (Bridson,
//! Marino, Fedkiw 2003, "Simulation of clothing with folds and wrinkles") are
//!
//! ```text
//! u1 = |e| n1 / |n1|^2                     u2 = |e| n2 / |n2|^2
//! u3 = (x1 - x4).e/|e| n1/|n1|^2 + (x2 - x4).e/|e| n2/|n2|^2
//! u4 = -(x1 - x3).e/|e| n1/|n1|^2 - (x2 - x3).e/|e| n2/|n2|^2
//! ```
//!
//! (signs fixed by the finite-difference test below). The atan2 form has no
//! singularity at a flat rest state, where the usual acos form does.
//!
//! The quads are coloured once, when the set is made, into batches in which
//! no two share a particle (exec/batches.rs), and stored in that order.
//! A batch is projected `W` quads at a time by one kernel written over
//! [`Lanes`]: the four particles gathered, the formulas above lane by lane
//! (with [`simd::atan2`], a polynomial, for the angle), the positions
//! scattered back; a degenerate quad or a pinned particle is a select, not
//! a branch. The scalar level runs the same kernel one lane wide, so every
//! level gives the same bits, and [`angle`] (the rest angles) runs it too.

use crate::exec::batches::colour;
use crate::exec::simd::{self, Kernel, Lanes, SimdLevel, V3};
use crate::particles::ParticlesMut;
use glam::Vec3;
use std::f32::consts::{PI, TAU};
use std::ops::Range;

/// Below this edge length (m) a quad has no hinge and is skipped.
const MIN_EDGE: f32 = 1e-9;
/// Below this `|n|^2` (m^4) a wing is flat against the edge and has no normal.
const MIN_NORMAL2: f32 = 1e-18;

/// A body's dihedral constraints, one per interior edge, in batch order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BendSet {
    /// `[x1, x2, x3, x4]`: the two wing vertices, then the edge.
    pub quad: Vec<[u32; 4]>,
    /// Rest angle, radians.
    pub rest: Vec<f32>,
    pub compliance: Vec<f32>,
    lambda: Vec<f32>,
    /// Consecutive ranges of the arrays above whose quads share no particle.
    batches: Vec<Range<usize>>,
    /// The last batch is the colouring's serial tail: its quads may share
    /// particles, so it runs one quad at a time.
    serial_tail: bool,
    /// One past the largest particle index, checked against the view once
    /// per pass so the kernel gathers without bounds checks.
    bound: usize,
}

/// The dihedral angle, its four gradients, and the lanes whose quad is
/// degenerate (no edge or a wing without a normal: angle and gradients are
/// then meaningless and must not be used).
#[inline(always)]
fn angle_and_gradients<V: Lanes>(x: [V3<V>; 4]) -> (V, [V3<V>; 4], V::M) {
    let [x1, x2, x3, x4] = x;
    let e = x4.sub(x3);
    let elen = e.dot(e).sqrt();
    let n1 = x1.sub(x3).cross(x1.sub(x4));
    let n2 = x2.sub(x4).cross(x2.sub(x3));
    let (l1, l2) = (n1.dot(n1), n2.dot(n2));
    let degenerate =
        V::or(elen.lt(V::splat(MIN_EDGE)), V::or(l1.lt(V::splat(MIN_NORMAL2)), l2.lt(V::splat(MIN_NORMAL2))));
    let ehat = e.div(elen);
    // This sign of the angle matches the gradients below.
    let theta = simd::atan2(n1.cross(n2).dot(ehat).neg(), n1.dot(n2));
    let (m1, m2) = (n1.div(l1), n2.div(l2));
    let u1 = m1.scale(elen);
    let u2 = m2.scale(elen);
    let u3 = m1.scale(x1.sub(x4).dot(ehat)).add(m2.scale(x2.sub(x4).dot(ehat)));
    let u4 = m1.scale(x1.sub(x3).dot(ehat)).add(m2.scale(x2.sub(x3).dot(ehat))).neg();
    (theta, [u1, u2, u3, u4], degenerate)
}

/// The dihedral angle of four points (radians), for building rest angles;
/// 0 for a degenerate quad. The kernel's arithmetic at one lane, so a quad
/// at its rest positions measures exactly its rest angle.
pub fn angle(x: [Vec3; 4]) -> f32 {
    let (theta, _, degenerate) = angle_and_gradients::<f32>(x.map(|p| V3 { x: p.x, y: p.y, z: p.z }));
    if degenerate { 0.0 } else { theta }
}

impl BendSet {
    /// Number of bend constraints.
    pub fn len(&self) -> usize {
        self.quad.len()
    }

    /// Makes a set from constraints in any order (rest angles already
    /// measured; a snapshot's are validated by the caller): colours them and
    /// stores them in batch order. A set's own order comes back unchanged
    /// (greedy colouring of colour-sorted input keeps every colour), so a
    /// restored set projects as the original.
    pub fn from_parts(quad: Vec<[u32; 4]>, rest: Vec<f32>, compliance: Vec<f32>) -> Self {
        let bound = quad.iter().flatten().map(|&i| i as usize + 1).max().unwrap_or(0);
        let col = colour(&quad, bound);
        let permuted = |v: &[f32]| col.order.iter().map(|&k| v[k as usize]).collect::<Vec<_>>();
        BendSet {
            quad: col.order.iter().map(|&k| quad[k as usize]).collect(),
            rest: permuted(&rest),
            compliance: permuted(&compliance),
            lambda: vec![0.0; quad.len()],
            batches: col.batches,
            serial_tail: col.serial_tail,
            bound,
        }
    }

    pub fn begin_substep(&mut self) {
        self.lambda.fill(0.0);
    }

    /// One Gauss-Seidel pass over every batch, in order, at `level`. The
    /// quads of a batch share no particle, so projecting them together is
    /// projecting them one after another.
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32, level: SimdLevel) {
        if self.quad.is_empty() {
            return;
        }
        assert!(self.bound <= p.x.len(), "a bend indexes past its body");
        let mut pass = Pass {
            quad: &self.quad,
            rest: &self.rest,
            compliance: &self.compliance,
            lambda: &mut self.lambda,
            batches: &self.batches,
            serial_tail: self.serial_tail,
            x: [p.x.as_mut_ptr(), p.y.as_mut_ptr(), p.z.as_mut_ptr()],
            w: p.inv_mass.as_ptr(),
            inv_h2,
        };
        simd::dispatch(level, &mut pass);
    }
}

/// One pass over a set's batches, as a SIMD kernel.
struct Pass<'s> {
    quad: &'s [[u32; 4]],
    rest: &'s [f32],
    compliance: &'s [f32],
    lambda: &'s mut [f32],
    batches: &'s [Range<usize>],
    serial_tail: bool,
    /// The view's `x`, `y`, `z` columns (at least `bound` long).
    x: [*mut f32; 3],
    /// The view's inverse masses.
    w: *const f32,
    inv_h2: f32,
}

impl Kernel for Pass<'_> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let batches = self.batches;
        for (k, r) in batches.iter().enumerate() {
            if self.serial_tail && k + 1 == batches.len() {
                for c in r.clone() {
                    self.chunk::<f32>(c, c + 1);
                }
            } else {
                let mut c = r.start;
                while c < r.end {
                    self.chunk::<V>(c, r.end);
                    c += V::W;
                }
            }
        }
    }
}

impl Pass<'_> {
    /// Quads `c .. min(c + W, end)` of one batch: XPBD (Macklin, Mueller,
    /// Chentanez 2016, eq. 18) with `C = theta - rest` taken the short way
    /// round. Lanes past `end` repeat its last quad and are not written.
    #[inline(always)]
    fn chunk<V: Lanes>(&mut self, c: usize, end: usize) {
        let n = (end - c).min(V::W);
        let mut k = [0u32; 16];
        let mut q = [[0u32; 16]; 4];
        for l in 0..V::W {
            let at = c + l.min(n - 1);
            k[l] = at as u32;
            let quad = self.quad[at];
            for j in 0..4 {
                q[j][l] = quad[j];
            }
        }
        let [px, py, pz] = self.x;
        // SAFETY: `project` checked every particle index against the view's
        // length, `k` holds indices of the set's arrays, and within a batch
        // (or at one lane) no two lanes write the same element.
        unsafe {
            // No closures here (`array::from_fn`, `map`): they need not be
            // inlined into `dispatch`'s target-feature function, and an
            // intrinsic outside it is a call per operation.
            let x = [gather3(self.x, &q[0]), gather3(self.x, &q[1]), gather3(self.x, &q[2]), gather3(self.x, &q[3])];
            let w = [
                V::gather(self.w, &q[0]),
                V::gather(self.w, &q[1]),
                V::gather(self.w, &q[2]),
                V::gather(self.w, &q[3]),
            ];
            let rest = V::gather(self.rest.as_ptr(), &k);
            let compliance = V::gather(self.compliance.as_ptr(), &k);
            let lambda = V::gather(self.lambda.as_ptr(), &k);

            let (theta, u, degenerate) = angle_and_gradients(x);
            // alpha_tilde = alpha / h^2
            let alpha_tilde = compliance.mul(V::splat(self.inv_h2));
            let denom = w[0]
                .mul(u[0].dot(u[0]))
                .add(w[1].mul(u[1].dot(u[1])))
                .add(w[2].mul(u[2].dot(u[2])))
                .add(w[3].mul(u[3].dot(u[3])))
                .add(alpha_tilde);
            let skip = V::or(degenerate, denom.le(V::splat(0.0)));
            // The angle wraps at +-pi; take the short way round to the rest angle.
            let c = theta.sub(rest);
            let c = V::select(
                c.gt(V::splat(PI)),
                c.sub(V::splat(TAU)),
                V::select(c.lt(V::splat(-PI)), c.add(V::splat(TAU)), c),
            );
            // A hinge folded flat onto itself (|C| near pi: one wing passed
            // through the other, as it may without self-collision) has no
            // side to unfold to: the short way round flips between +pi and
            // -pi with rounding, and a stiff hinge swung its wing by up to
            // pi a projection. The correction is taken from
            // C (pi^2 - C^2) / pi^2: C near rest, continuous, 0 at +-pi.
            let c = c.mul(V::splat(1.0).sub(c.mul(c).mul(V::splat(1.0 / (PI * PI)))));
            let dlambda = c.neg().sub(alpha_tilde.mul(lambda)).div(denom);
            V::select(skip, lambda, lambda.add(dlambda)).scatter(self.lambda.as_mut_ptr(), &k, n);
            let mut moved = x;
            for j in 0..4 {
                let to = x[j].add(u[j].scale(w[j].mul(dlambda)));
                moved[j] = V3::select(skip, x[j], V3::select(w[j].gt(V::splat(0.0)), to, x[j]));
            }
            for j in 0..4 {
                moved[j].x.scatter(px, &q[j], n);
            }
            for j in 0..4 {
                moved[j].y.scatter(py, &q[j], n);
            }
            for j in 0..4 {
                moved[j].z.scatter(pz, &q[j], n);
            }
        }
    }
}

/// A particle's position per lane.
///
/// # Safety
/// Every `idx` lane in bounds of the three columns.
#[inline(always)]
unsafe fn gather3<V: Lanes>(x: [*mut f32; 3], idx: &[u32; 16]) -> V3<V> {
    // SAFETY: the caller's.
    unsafe { V3 { x: V::gather(x[0], idx), y: V::gather(x[1], idx), z: V::gather(x[2], idx) } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    fn lanes(p: Vec3) -> V3<f32> {
        V3 { x: p.x, y: p.y, z: p.z }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let x =
            [Vec3::new(0.3, 0.9, 0.2), Vec3::new(0.4, -0.8, 0.5), Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.1, 0.0)];
        let (theta, u, degenerate) = angle_and_gradients::<f32>(x.map(lanes));
        assert!(!degenerate);
        let h = 1e-3;
        for j in 0..4 {
            let u = Vec3::new(u[j].x, u[j].y, u[j].z);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let mut a = x;
                let mut b = x;
                a[j] += axis * h;
                b[j] -= axis * h;
                let numeric = (angle(a) - angle(b)) / (2.0 * h);
                assert!((numeric - u.dot(axis)).abs() < 2e-3, "vertex {j} {axis}: {numeric} vs {}", u.dot(axis));
            }
        }
        assert!(theta.abs() > 0.1);
        // Near libm's angle (the polynomial atan2 is within 1e-6 rad).
        let (n1, n2) = ((x[0] - x[2]).cross(x[0] - x[3]), (x[1] - x[3]).cross(x[1] - x[2]));
        let libm = -n1.cross(n2).dot((x[3] - x[2]).normalize()).atan2(n1.dot(n2));
        assert!((theta - libm).abs() < 1e-6, "{theta} vs {libm}");
    }

    #[test]
    fn a_bent_hinge_returns_to_its_rest_angle() {
        // Flat rest, then fold the wing up; rigid projection restores it.
        let flat = [Vec3::new(0.5, 1.0, 0.0), Vec3::new(0.5, -1.0, 0.0), Vec3::ZERO, Vec3::X];
        for level in SimdLevel::all_available() {
            let mut set = BendSet::from_parts(vec![[0, 1, 2, 3]], vec![angle(flat)], vec![0.0]);
            let mut store = Particles::default();
            let mut bent = flat;
            bent[0] = Vec3::new(0.5, 0.7, 0.7);
            store.append(&bent, |i| if i < 2 { 1.0 } else { 0.0 });
            let n = store.len();
            let mut p = store.view(0..n);
            for _ in 0..20 {
                set.begin_substep();
                set.project(&mut p, 1.0, level);
            }
            let now = [p.position(0), p.position(1), p.position(2), p.position(3)];
            assert!(angle(now).abs() < 1e-3, "{level:?}: {}", angle(now));
            assert_eq!((p.position(2), p.position(3)), (Vec3::ZERO, Vec3::X), "pinned particles stay");
        }
    }

    /// A `n x n` sheet's particles (flat, then jiggled out of plane with a
    /// few pinned and two made to coincide, so some quads are degenerate) and
    /// its dihedral set, measured flat, with compliances that vary.
    fn jiggled_sheet(n: u32) -> (Particles, BendSet) {
        let at = |r: u32, c: u32| r * n + c;
        let flat: Vec<Vec3> = (0..n * n).map(|k| Vec3::new((k % n) as f32 * 0.1, (k / n) as f32 * 0.1, 0.0)).collect();
        let mut triangles = Vec::new();
        for r in 0..n - 1 {
            for c in 0..n - 1 {
                let (a, b, d, e) = (at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1));
                if (r + c) % 2 == 0 {
                    triangles.extend([[a, b, e], [a, e, d]]);
                } else {
                    triangles.extend([[a, b, d], [b, e, d]]);
                }
            }
        }
        let built = crate::cloth::build::dihedrals(&flat, &triangles, 0.0);
        let compliance = (0..built.len()).map(|k| if k % 3 == 0 { 0.0 } else { 1e-3 * k as f32 }).collect();
        let set = BendSet::from_parts(built.quad.clone(), built.rest.clone(), compliance);
        let mut jiggled: Vec<Vec3> = flat
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let j = ((k * 7919) % 101) as f32 * 1e-3;
                *p + Vec3::new(j * 0.3, -j * 0.2, (j - 0.05) * 2.0)
            })
            .collect();
        jiggled[at(5, 6) as usize] = jiggled[at(5, 5) as usize];
        let mut p = Particles::default();
        p.append(&jiggled, |i| if i % 13 == 0 { 0.0 } else { 1.0 });
        (p, set)
    }

    /// The bits of `p`'s positions after `passes` substeps of two passes.
    fn project_bits(mut p: Particles, mut set: BendSet, level: SimdLevel, passes: usize) -> Vec<u32> {
        let n = p.len();
        for _ in 0..passes {
            let mut view = p.view(0..n);
            set.begin_substep();
            set.project(&mut view, 3600.0, level);
            set.project(&mut view, 3600.0, level);
        }
        [&p.x, &p.y, &p.z].iter().flat_map(|v| v.iter().map(|f| f.to_bits())).collect()
    }

    #[test]
    fn every_simd_level_projects_the_same_bits() {
        let (p, set) = jiggled_sheet(40);
        assert!(set.batches.len() > 1 && !set.serial_tail);
        // Full 16-lane chunks, and tails of every length.
        assert!(set.batches.iter().filter(|b| b.len() >= 32).count() > 4);
        assert!(set.batches.iter().any(|b| b.len() % 16 != 0 && b.len() % 8 != 0 && b.len() % 4 != 0));
        let before: Vec<u32> = [&p.x, &p.y, &p.z].iter().flat_map(|v| v.iter().map(|f| f.to_bits())).collect();
        let results: Vec<(SimdLevel, Vec<u32>)> =
            SimdLevel::all_available().into_iter().map(|l| (l, project_bits(p.clone(), set.clone(), l, 4))).collect();
        for (level, bits) in &results {
            assert!(bits == &results[0].1, "{level:?} differs from scalar");
        }
        assert_ne!(results[0].1, before, "the bends moved the sheet");
        assert!(results[0].1.iter().all(|&b| f32::from_bits(b).is_finite()));
        let pinned = (0..p.len()).step_by(13);
        let m = p.len();
        assert!(pinned.clone().all(|i| (0..3).all(|a| results[0].1[a * m + i] == before[a * m + i])), "pins hold");
    }

    #[test]
    fn quads_beyond_the_colours_run_one_at_a_time_alike_at_every_level() {
        // A fan of 70 hinges around particle 0's edges: every quad shares
        // particle 0, so 6 quads overflow the 64 colours into the serial tail.
        let ring: Vec<Vec3> = (0..72)
            .map(|k| {
                let phi = k as f32 * 0.087;
                Vec3::new(phi.cos(), phi.sin(), 0.1 * (k % 3) as f32)
            })
            .collect();
        let points: Vec<Vec3> = std::iter::once(Vec3::ZERO).chain(ring).collect();
        let quads: Vec<[u32; 4]> = (1..=70).map(|k| [k, k + 2, 0, k + 1]).collect();
        let rest = vec![0.0; quads.len()];
        let set = BendSet::from_parts(quads, rest, vec![1e-4; 70]);
        assert!(set.serial_tail);
        let mut p = Particles::default();
        p.append(&points, |i| if i == 0 { 0.0 } else { 1.0 });
        let results: Vec<Vec<u32>> =
            SimdLevel::all_available().into_iter().map(|l| project_bits(p.clone(), set.clone(), l, 3)).collect();
        assert!(results.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn a_set_in_batch_order_keeps_its_order() {
        let (_, set) = jiggled_sheet(20);
        let again = BendSet::from_parts(set.quad.clone(), set.rest.clone(), set.compliance.clone());
        assert_eq!(again, set);
    }
}
