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

use crate::particles::ParticlesMut;
use glam::Vec3;

/// A body's dihedral constraints, one per interior edge, in build order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BendSet {
    /// `[x1, x2, x3, x4]`: the two wing vertices, then the edge.
    pub quad: Vec<[u32; 4]>,
    /// Rest angle, radians.
    pub rest: Vec<f32>,
    pub compliance: Vec<f32>,
    lambda: Vec<f32>,
}

/// The dihedral angle and its four gradients.
#[inline(always)]
fn angle_and_gradients(x: [Vec3; 4]) -> Option<(f32, [Vec3; 4])> {
    let [x1, x2, x3, x4] = x;
    let e = x4 - x3;
    let elen = e.length();
    let n1 = (x1 - x3).cross(x1 - x4);
    let n2 = (x2 - x4).cross(x2 - x3);
    let (l1, l2) = (n1.length_squared(), n2.length_squared());
    if elen < 1e-9 || l1 < 1e-18 || l2 < 1e-18 {
        return None;
    }
    let ehat = e / elen;
    // This sign of the angle matches the gradients below.
    let theta = -n1.cross(n2).dot(ehat).atan2(n1.dot(n2));
    let (m1, m2) = (n1 / l1, n2 / l2);
    let u1 = m1 * elen;
    let u2 = m2 * elen;
    let u3 = m1 * (x1 - x4).dot(ehat) + m2 * (x2 - x4).dot(ehat);
    let u4 = -(m1 * (x1 - x3).dot(ehat) + m2 * (x2 - x3).dot(ehat));
    Some((theta, [u1, u2, u3, u4]))
}

/// The dihedral angle of four points (radians), for building rest angles.
pub fn angle(x: [Vec3; 4]) -> f32 {
    angle_and_gradients(x).map_or(0.0, |(t, _)| t)
}

impl BendSet {
    /// Number of bend constraints.
    pub fn len(&self) -> usize {
        self.quad.len()
    }

    /// Appends constraints (rest angles already measured).
    pub fn push(&mut self, quad: [u32; 4], rest: f32, compliance: f32) {
        self.quad.push(quad);
        self.rest.push(rest);
        self.compliance.push(compliance);
        self.lambda.push(0.0);
    }

    /// Rebuilds a set from a snapshot (validated by the caller).
    pub fn from_parts(quad: Vec<[u32; 4]>, rest: Vec<f32>, compliance: Vec<f32>) -> Self {
        let lambda = vec![0.0; quad.len()];
        BendSet { quad, rest, compliance, lambda }
    }

    pub fn begin_substep(&mut self) {
        self.lambda.fill(0.0);
    }

    /// One Gauss-Seidel pass.
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32) {
        for k in 0..self.quad.len() {
            let q = self.quad[k].map(|i| i as usize);
            let x = q.map(|i| p.position(i));
            let Some((theta, u)) = angle_and_gradients(x) else { continue };
            let w = q.map(|i| p.inv_mass[i]);
            let denom: f32 = (0..4).map(|j| w[j] * u[j].length_squared()).sum::<f32>();
            let alpha_tilde = self.compliance[k] * inv_h2;
            if denom + alpha_tilde <= 0.0 {
                continue;
            }
            // The angle wraps at +-pi; take the short way round to the rest angle.
            let mut c = theta - self.rest[k];
            if c > std::f32::consts::PI {
                c -= std::f32::consts::TAU;
            } else if c < -std::f32::consts::PI {
                c += std::f32::consts::TAU;
            }
            let dlambda = (-c - alpha_tilde * self.lambda[k]) / (denom + alpha_tilde);
            self.lambda[k] += dlambda;
            for j in 0..4 {
                if w[j] > 0.0 {
                    p.set_position(q[j], x[j] + u[j] * (w[j] * dlambda));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    #[test]
    fn gradients_match_finite_differences() {
        let x =
            [Vec3::new(0.3, 0.9, 0.2), Vec3::new(0.4, -0.8, 0.5), Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.1, 0.0)];
        let (theta, u) = angle_and_gradients(x).unwrap();
        let h = 1e-3;
        for j in 0..4 {
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let mut a = x;
                let mut b = x;
                a[j] += axis * h;
                b[j] -= axis * h;
                let numeric = (angle(a) - angle(b)) / (2.0 * h);
                assert!((numeric - u[j].dot(axis)).abs() < 2e-3, "vertex {j} {axis}: {numeric} vs {}", u[j].dot(axis));
            }
        }
        assert!(theta.abs() > 0.1);
    }

    #[test]
    fn a_bent_hinge_returns_to_its_rest_angle() {
        // Flat rest, then fold the wing up; rigid projection restores it.
        let flat = [Vec3::new(0.5, 1.0, 0.0), Vec3::new(0.5, -1.0, 0.0), Vec3::ZERO, Vec3::X];
        let mut set = BendSet::default();
        set.push([0, 1, 2, 3], angle(flat), 0.0);
        let mut store = Particles::default();
        let mut bent = flat;
        bent[0] = Vec3::new(0.5, 0.7, 0.7);
        store.append(&bent, |i| if i < 2 { 1.0 } else { 0.0 });
        let n = store.len();
        let mut p = store.view(0..n);
        for _ in 0..20 {
            set.begin_substep();
            set.project(&mut p, 1.0);
        }
        let now = [p.position(0), p.position(1), p.position(2), p.position(3)];
        assert!(angle(now).abs() < 1e-3, "{}", angle(now));
    }
}
