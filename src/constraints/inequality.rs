//! Inequality distance constraints (Jakobsen, "Articulated bodies":
//! `|x2 - x1| > 100`, enforced only when violated): two particles kept at least
//! `min` and at most `max` apart. A ragdoll keeps its knees apart and its
//! elbows out of its torso with minimums, and its joints within their swing
//! cones and hinge ranges with maximums to reference points of the parent bone.

#[cfg(test)]
use crate::particles::ParticlesMut;

/// Particles `a` and `b` of a body kept between `min` and `max` apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inequality {
    pub a: u32,
    pub b: u32,
    pub min: f32,
    pub max: f32,
}

/// Projects every constraint once, in order; pairs within their range are
/// untouched. The correction is split by inverse mass (momentum is kept).
/// A ragdoll's separations run this arithmetic in SIMD lanes
/// (`ragdoll::pass`); this is the reference its tests check.
#[cfg(test)]
pub fn project(set: &[Inequality], p: &mut ParticlesMut) {
    for s in set {
        let (a, b) = (s.a as usize, s.b as usize);
        let d = p.position(b) - p.position(a);
        let len2 = d.length_squared();
        let target = if len2 < s.min * s.min {
            s.min
        } else if len2 > s.max * s.max {
            s.max
        } else {
            continue;
        };
        let (wa, wb) = (p.inv_mass[a], p.inv_mass[b]);
        let w = wa + wb;
        if w == 0.0 || len2 < 1e-12 {
            continue;
        }
        let len = len2.sqrt();
        let push = d * ((target - len) / (len * w));
        p.set_position(a, p.position(a) - push * wa);
        p.set_position(b, p.position(b) + push * wb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;
    use glam::Vec3;

    #[test]
    fn only_pairs_out_of_range_move_and_by_mass() {
        let mut store = Particles::default();
        store
            .append(&[Vec3::ZERO, Vec3::new(0.1, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.0, 9.0, 0.0)], |i| {
                [1.0, 3.0, 1.0, 1.0][i]
            });
        let mut p = store.view(0..16);
        let set = [
            Inequality { a: 0, b: 1, min: 0.5, max: f32::INFINITY },
            Inequality { a: 0, b: 2, min: 1.0, max: 6.0 },
            Inequality { a: 2, b: 3, min: 0.0, max: 2.0 },
        ];
        project(&set, &mut p);
        assert!(((p.position(1) - p.position(0)).length() - 0.5).abs() < 1e-6);
        // The lighter particle (inverse mass 3) moved three times as far.
        assert!((p.position(1).x - 0.1 - 3.0 * -p.position(0).x).abs() < 1e-6);
        assert!(((p.position(3) - p.position(2)).length() - 2.0).abs() < 1e-5);
        // Within range: untouched (the last pair moved particle 2 along y only).
        assert_eq!(p.position(2).x, 5.0);
    }
}
