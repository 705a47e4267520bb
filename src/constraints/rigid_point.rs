//! Distance ranges between points fixed in two rigid clusters (a ragdoll's
//! hinge axes, swing cones and hinge ranges).
//!
//! A point of a cluster is not a particle: it is where a rest point lands
//! under the cluster's current fit, `x = c + R (r - r_c)`. The correction is
//! a rigid-body one (as in Mueller et al. 2020, "Detailed rigid body
//! simulation with extended position based dynamics"): along the direction
//! `n`, a point of a cluster of mass `M` and inertia `I` about its centre
//! moves as if it had the inverse mass
//!
//! ```text
//! w = 1/M + (r x n) . I^-1 (r x n)        r = x - c
//! ```
//!
//! and a correction `P` (in mass times metres) moves the cluster by `P / M`
//! and turns it by `I^-1 (r x P)` about its centre. The two points move
//! apart by the distance's error split by `w_a`, `w_b`, so momentum and
//! angular momentum are kept, and the clusters stay rigid. Extra particles
//! in their place (the Jakobsen way) would add mass away from the bone and
//! turn it under gravity.

#[cfg(test)]
use crate::constraints::shape_match::ClusterSet;
#[cfg(test)]
use crate::particles::ParticlesMut;
use glam::Vec3;
#[cfg(test)]
use glam::{Mat3, Quat};

/// Errors below this (metres) are left alone.
#[cfg(test)]
const MIN_ERROR: f32 = 1.0e-7;

/// Points `ra` of cluster `a` and `rb` of cluster `b` (rest positions) kept
/// between `min` and `max` apart; `max = 0` makes them coincide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointRange {
    pub a: u32,
    pub b: u32,
    pub ra: Vec3,
    pub rb: Vec3,
    pub min: f32,
    pub max: f32,
}

/// A cluster as one rigid body, now.
#[cfg(test)]
struct Rigid {
    /// Its centre of mass, or the pinned member it turns about.
    center: Vec3,
    rotation: Quat,
    /// Rest position of the centre.
    rest_center: Vec3,
    inv_mass: f32,
    inv_inertia: Mat3,
}

#[cfg(test)]
impl Rigid {
    /// Cluster `k` as it is now: free, turning about its one pinned member
    /// (inverse mass zero), or held by two (inverse mass and inertia zero).
    ///
    /// Its rotation is the one it has: these ranges run right after the
    /// clusters' projection fitted every rotation, and each correction here
    /// turns the rotation with the particles. Shared joint particles leave a
    /// neighbour a little off its rotation until the next pass's fit; fitting
    /// again at every range instead was two thirds of a ragdoll's cost.
    fn of(clusters: &ClusterSet, k: usize, p: &ParticlesMut) -> Rigid {
        let (center, rest_center) = clusters.center_now_and_rest(k, p);
        let m = clusters.mobility(k, p, center, rest_center);
        let rotation = clusters.rotation[k];
        Rigid {
            center: m.center,
            rotation,
            rest_center: m.rest_center,
            inv_mass: m.inv_mass,
            inv_inertia: m.inv_inertia,
        }
    }

    /// Where the rest point `r` is now.
    fn point(&self, r: Vec3) -> Vec3 {
        self.center + self.rotation * (r - self.rest_center)
    }

    /// Inverse mass of the point `x` along the unit `n`.
    fn inv_mass_at(&self, x: Vec3, n: Vec3) -> f32 {
        let rn = (x - self.center).cross(n);
        self.inv_mass + rn.dot(self.inv_inertia * rn)
    }

    /// Moves the cluster's members for the correction `push` at `x`.
    fn apply(&self, clusters: &mut ClusterSet, k: usize, x: Vec3, push: Vec3, p: &mut ParticlesMut) {
        if self.inv_mass == 0.0 && self.inv_inertia == Mat3::ZERO {
            return;
        }
        let shift = push * self.inv_mass;
        let turn = Quat::from_scaled_axis(self.inv_inertia * (x - self.center).cross(push));
        for m in clusters.members(k) {
            let i = clusters.particle[m] as usize;
            if p.inv_mass[i] > 0.0 {
                let at = p.position(i);
                p.set_position(i, self.center + shift + turn * (at - self.center));
            }
        }
        clusters.rotation[k] = (turn * clusters.rotation[k]).normalize();
    }
}

/// Projects every range once, in order: the scalar statement of the
/// joints of `ragdoll::pass`, which run them in SIMD lanes (its turns as
/// XPBD's first-order ones), kept as the reference its tests check.
#[cfg(test)]
pub fn project(set: &[PointRange], clusters: &mut ClusterSet, p: &mut ParticlesMut) {
    for s in set {
        let (a, b) = (s.a as usize, s.b as usize);
        let (ra, rb) = (Rigid::of(clusters, a, p), Rigid::of(clusters, b, p));
        let (xa, xb) = (ra.point(s.ra), rb.point(s.rb));
        let d = xb - xa;
        let len = d.length();
        let error = len - len.clamp(s.min, s.max);
        if error.abs() < MIN_ERROR || len < MIN_ERROR {
            continue;
        }
        let n = d / len;
        let w = ra.inv_mass_at(xa, n) + rb.inv_mass_at(xb, n);
        if w == 0.0 {
            continue; // both held by pinned particles
        }
        // `a` moves along +n, `b` along -n, by `error` in all.
        let push = n * (error / w);
        ra.apply(clusters, a, xa, push, p);
        rb.apply(clusters, b, xb, -push, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    /// Two boxes (four corners each) as clusters 0 and 1, particles 0..8.
    fn two_boxes(second: Vec3) -> (ClusterSet, Particles) {
        let corners = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let rest: Vec<Vec3> = [Vec3::ZERO, second].iter().flat_map(|&at| corners.map(|c| c * 0.5 + at)).collect();
        let mut store = Particles::default();
        store.append(&rest, |_| 1.0);
        let mut set = ClusterSet::default();
        for k in 0..2 {
            let members: Vec<(u32, Vec3)> = (4 * k..4 * k + 4).map(|i| (i as u32, rest[i])).collect();
            set.push(&members, Quat::IDENTITY);
        }
        (set, store)
    }

    #[test]
    fn two_points_are_brought_together_rigidly_keeping_momentum() {
        let (mut set, mut store) = two_boxes(Vec3::new(2.0, 0.3, 0.0));
        let mut p = store.view(0..16);
        let momentum = |p: &ParticlesMut| (0..8).map(|i| p.position(i)).sum::<Vec3>();
        let m0 = momentum(&p);
        // The +X corner of the first box and the origin corner of the second.
        let joint =
            PointRange { a: 0, b: 1, ra: Vec3::new(0.5, 0.0, 0.0), rb: Vec3::new(2.0, 0.3, 0.0), min: 0.0, max: 0.0 };
        for _ in 0..20 {
            project(&[joint], &mut set, &mut p);
        }
        assert!((p.position(1) - p.position(4)).length() < 1e-4, "{} vs {}", p.position(1), p.position(4));
        // Still rigid, and the centre of mass did not move.
        assert!(((p.position(1) - p.position(0)).length() - 0.5).abs() < 1e-4);
        assert!(((p.position(6) - p.position(5)).length() - 0.5f32.sqrt()).abs() < 1e-4);
        assert!((momentum(&p) - m0).length() < 1e-4);
    }
}
