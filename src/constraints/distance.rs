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
//! has it backwards (shared/seeds/README.md, erratum); the test
//! `stick_projection_sign` pins it.
//!
//! [`DistanceMethod::SqrtApprox`] replaces `|d|` with one Newton step of the
//! square root from the rest length, `|d| ~ (d.d + r^2) / (2r)`, which is the
//! article's "sqrt approximation" when masses are equal: no square root, exact
//! at rest length and increasingly wrong away from it.

use crate::particles::ParticlesMut;
use crate::solver::batches::colour;
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
const MIN_LENGTH: f32 = 1e-12;
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
    pub method: DistanceMethod,
}

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
        let col = colour(&pairs, particle_count);
        let permute = |v: &[u32]| col.order.iter().map(|&k| v[k as usize]).collect::<Vec<_>>();
        let permute_f = |v: &[f32]| col.order.iter().map(|&k| v[k as usize]).collect::<Vec<_>>();
        self.a = permute(&self.a);
        self.b = permute(&self.b);
        self.rest = permute_f(&self.rest);
        self.compliance = permute_f(&self.compliance);
        self.lambda = vec![0.0; self.a.len()];
        self.batches = col.batches;
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
        DistanceSet { a, b, rest, compliance, lambda, batches, method }
    }

    /// XPBD: multipliers start from zero each substep.
    pub fn begin_substep(&mut self) {
        self.lambda.fill(0.0);
    }

    /// One Gauss-Seidel pass over every batch, in order.
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32) {
        for batch in self.batches.clone() {
            match self.method {
                DistanceMethod::Exact => self.project_exact(p, inv_h2, batch),
                DistanceMethod::SqrtApprox => self.project_approx(p, inv_h2, batch),
            }
        }
    }

    #[inline(always)]
    fn project_exact(&mut self, p: &mut ParticlesMut, inv_h2: f32, range: Range<usize>) {
        for c in range {
            let (i, j) = (self.a[c] as usize, self.b[c] as usize);
            let (dx, dy, dz) = (p.x[j] - p.x[i], p.y[j] - p.y[i], p.z[j] - p.z[i]);
            let len2 = dx * dx + dy * dy + dz * dz;
            let len = len2.sqrt();
            let (wi, wj) = (p.inv_mass[i], p.inv_mass[j]);
            let alpha_tilde = self.compliance[c] * inv_h2;
            if len < MIN_LENGTH || wi + wj + alpha_tilde == 0.0 {
                continue;
            }
            // The correction moves along the stick's direction at the start of
            // the substep, d0 = x_prev_j - x_prev_i (SHAKE), scaled as g = d0 / |d|,
            // rather than along d: a stick turning while it is corrected keeps
            // its sideways motion, so a pendulum does not lose (omega h)^2 of its
            // velocity every substep. When the stick turned by more than 60
            // degrees in one substep, d itself is used.
            let (ex, ey, ez) = (p.px[j] - p.px[i], p.py[j] - p.py[i], p.pz[j] - p.pz[i]);
            let along = dx * ex + dy * ey + dz * ez;
            let (gx, gy, gz, n_dot_g) = if along > 0.5 * len * (ex * ex + ey * ey + ez * ez).sqrt() {
                (ex / len, ey / len, ez / len, along / len2)
            } else {
                (dx / len, dy / len, dz / len, 1.0)
            };
            let dlambda = (-(len - self.rest[c]) - alpha_tilde * self.lambda[c]) / ((wi + wj) * n_dot_g + alpha_tilde);
            self.lambda[c] += dlambda;
            apply(p, i, j, wi, wj, dlambda, gx, gy, gz);
        }
    }

    #[inline(always)]
    fn project_approx(&mut self, p: &mut ParticlesMut, inv_h2: f32, range: Range<usize>) {
        for c in range {
            let rest = self.rest[c];
            if rest < MIN_APPROX_REST {
                self.project_exact(p, inv_h2, c..c + 1);
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
            apply(p, i, j, wi, wj, dlambda / len, dx, dy, dz);
        }
    }

    /// The velocity stage (RATTLE's second half): removes the relative
    /// velocity along each stick in proportion `(w1 + w2) / (w1 + w2 +
    /// alpha_tilde)`, i.e. fully for a rigid stick, whose length cannot change,
    /// and hardly at all for a soft one, whose stretching is real motion.
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
    pub fn project_velocities(&mut self, p: &mut ParticlesMut, inv_h2: f32) {
        for batch in self.batches.clone() {
            for c in batch {
                let (i, j) = (self.a[c] as usize, self.b[c] as usize);
                let (dx, dy, dz) = (p.x[j] - p.x[i], p.y[j] - p.y[i], p.z[j] - p.z[i]);
                let len2 = dx * dx + dy * dy + dz * dz;
                let (wi, wj) = (p.inv_mass[i], p.inv_mass[j]);
                let w = wi + wj;
                let alpha_tilde = self.compliance[c] * inv_h2;
                if len2 < MIN_LENGTH * MIN_LENGTH || w == 0.0 {
                    continue;
                }
                // Relative displacement of this substep along d (times |d|).
                let rvx = (p.x[j] - p.px[j]) - (p.x[i] - p.px[i]);
                let rvy = (p.y[j] - p.py[j]) - (p.y[i] - p.py[i]);
                let rvz = (p.z[j] - p.pz[j]) - (p.z[i] - p.pz[i]);
                let along = (rvx * dx + rvy * dy + rvz * dz) / len2;
                let s = along / (w + alpha_tilde);
                // v_i += wi s d, v_j -= wj s d, through x_prev.
                p.px[i] -= wi * s * dx;
                p.py[i] -= wi * s * dy;
                p.pz[i] -= wi * s * dz;
                p.px[j] += wj * s * dx;
                p.py[j] += wj * s * dy;
                p.pz[j] += wj * s * dz;
            }
        }
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

/// Moves both particles along `d` by `s = dlambda / |d|`, weighted by inverse mass.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn apply(p: &mut ParticlesMut, i: usize, j: usize, wi: f32, wj: f32, s: f32, dx: f32, dy: f32, dz: f32) {
    let (si, sj) = (wi * s, wj * s);
    p.x[i] -= si * dx;
    p.y[i] -= si * dy;
    p.z[i] -= si * dz;
    p.x[j] += sj * dx;
    p.y[j] += sj * dy;
    p.z[j] += sj * dz;
}

#[cfg(test)]
mod tests {
    use super::*;
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
        set.project(&mut view, 3600.0);
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
}
