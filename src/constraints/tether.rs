//! Tethers (long-range attachments, Kim, Chentanez, Mueller 2012): a free
//! particle may not get farther from its anchor, a pinned particle, than the
//! tether's length. An inequality on one particle: `C = |x - a| - L <= 0`; when
//! violated the particle is put back on the sphere of radius `L` around the
//! anchor. The anchor is pinned (inverse mass 0), so the correction is the
//! whole violation: a particle with one tether is exact after one pass,
//! whatever the order, which is why a long cloth hanging from its top edge
//! does not over-stretch at low iteration counts. A particle may have a
//! tether to each of a few pin groups (cloth/build.rs): its tethers are
//! stored one after the other and met in turn; at rest the spheres meet, so
//! the last one projected holds exactly and the others within what it moved.

use crate::particles::ParticlesMut;

/// A body's tethers: a few per free particle, consecutive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TetherSet {
    /// The constrained particle (index within the body).
    pub particle: Vec<u32>,
    /// Its anchor (a pinned particle of the body).
    pub anchor: Vec<u32>,
    /// Metres: the farthest the particle may be from the anchor.
    pub length: Vec<f32>,
}

impl TetherSet {
    pub fn len(&self) -> usize {
        self.particle.len()
    }

    /// One projection pass.
    pub fn project(&self, p: &mut ParticlesMut) {
        for k in 0..self.len() {
            let (i, a) = (self.particle[k] as usize, self.anchor[k] as usize);
            if p.inv_mass[i] == 0.0 {
                continue;
            }
            let anchor = p.position(a);
            let d = p.position(i) - anchor;
            let len2 = d.length_squared();
            let l = self.length[k];
            if len2 > l * l {
                p.set_position(i, anchor + d * (l / len2.sqrt()));
            }
        }
    }

    /// The largest `|x - a| / L - 1` over the tethers (0 when all hold).
    pub fn max_violation(&self, p: &ParticlesMut) -> f32 {
        (0..self.len())
            .map(|k| {
                let d = (p.position(self.particle[k] as usize) - p.position(self.anchor[k] as usize)).length();
                d / self.length[k] - 1.0
            })
            .fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;
    use glam::Vec3;

    #[test]
    fn a_stretched_tether_puts_the_particle_on_its_sphere() {
        let mut store = Particles::default();
        store.append(
            &[Vec3::ZERO, Vec3::new(3.0, 4.0, 0.0), Vec3::new(0.5, 0.0, 0.0)],
            |i| if i == 0 { 0.0 } else { 1.0 },
        );
        let n = store.len();
        let mut p = store.view(0..n);
        let t = TetherSet { particle: vec![1, 2], anchor: vec![0, 0], length: vec![2.5, 1.0] };
        assert!((t.max_violation(&p) - 1.0).abs() < 1e-6);
        t.project(&mut p);
        assert!((p.position(1) - Vec3::new(1.5, 2.0, 0.0)).length() < 1e-6);
        // A slack tether does nothing.
        assert_eq!(p.position(2), Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(t.max_violation(&p), 0.0);
    }
}
