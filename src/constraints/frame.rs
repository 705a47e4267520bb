//! Frame attachments: particles pinned to points of a frame (a bone, a pole,
//! a moving platform) that the engine moves each frame. Each attached particle
//! keeps its position in the frame's local space from the moment it was
//! attached; moving the frame turns those points into hard targets on pinned
//! (kinematic) particles, so they follow the frame interpolated across the
//! substeps (constraints/target.rs) and the rest of the body is dragged along.

use glam::{Quat, Vec3};

/// Particles of a body held at fixed points of one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameAttachment {
    /// Particle indices within the body.
    pub particles: Vec<u32>,
    /// Their points in the frame's local space.
    pub local: Vec<Vec3>,
}

impl FrameAttachment {
    /// Attaches particles at world positions `points` to the frame placed at
    /// `position`, `rotation` (unit).
    pub fn new(particles: &[u32], points: &[Vec3], position: Vec3, rotation: Quat) -> Self {
        let inverse = rotation.conjugate();
        let local = points.iter().map(|&p| inverse * (p - position)).collect();
        FrameAttachment { particles: particles.to_vec(), local }
    }

    /// The world-space points for the frame placed at `position`, `rotation`.
    pub fn points(&self, position: Vec3, rotation: Quat) -> impl Iterator<Item = (u32, Vec3)> + '_ {
        self.particles.iter().zip(&self.local).map(move |(&i, &l)| (i, position + rotation * l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_the_frame() {
        let (p0, r0) = (Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.4));
        let pts = [Vec3::new(1.5, 2.0, 3.0), Vec3::new(1.0, 1.0, 3.0)];
        let f = FrameAttachment::new(&[4, 7], &pts, p0, r0);
        for ((i, q), (k, p)) in f.points(p0, r0).zip([4u32, 7].into_iter().zip(pts)) {
            assert_eq!(i, k);
            assert!(q.distance(p) < 1e-6);
        }
        let r1 = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let moved: Vec<_> = f.points(Vec3::ZERO, r1 * r0).map(|(_, q)| q).collect();
        // Distances between attached points are kept.
        assert!((moved[0].distance(moved[1]) - pts[0].distance(pts[1])).abs() < 1e-6);
    }
}
