//! Godot transforms <-> sinew poses.
//!
//! Godot's `Transform3D` is a 3x3 `Basis` (rotation times scale, possibly
//! skewed) and an origin; sinew places frames (colliders, frame attachments,
//! grids) by a position and a unit quaternion only. A basis is split into
//! rotation and per-axis scale here; the scale is baked into the shape or
//! vertices that need it ([`crate::shape`]), never handed to sinew's frames.
//!
//! Godot's `Basis` stores rows; its columns are the local axes, as in glam's
//! column-major `Mat3`. Both quaternions are (x, y, z, w).

use glam::Mat3;
use godot::builtin::{Basis, Quaternion, Transform3D, Vector3};
use sinew::{Quat, Vec3};

/// A frame placed by position and unit rotation, with the per-axis scale the
/// basis carried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// The origin, metres.
    pub position: Vec3,
    /// Unit quaternion.
    pub rotation: Quat,
    /// Lengths of the basis columns; one is negative for a mirroring basis.
    pub scale: Vec3,
}

/// A Godot vector as sinew's (Godot's `real` is f32 unless built with
/// double precision, which this crate does not enable).
pub fn to_vec3(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A sinew vector as Godot's.
pub fn to_vector3(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

/// A Godot quaternion as sinew's (same component order).
pub fn to_quat(q: Quaternion) -> Quat {
    Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

/// A sinew quaternion as Godot's.
pub fn to_quaternion(q: Quat) -> Quaternion {
    Quaternion::new(q.x, q.y, q.z, q.w)
}

/// The basis as a column-major matrix.
fn to_mat3(b: &Basis) -> Mat3 {
    let [a, bb, c] = b.to_cols();
    Mat3::from_cols(to_vec3(a), to_vec3(bb), to_vec3(c))
}

/// Splits a transform into position, rotation and scale. A skewed basis is
/// orthonormalised (Gram-Schmidt from the X column, as Godot's
/// `orthonormalized` does); a mirroring basis (negative determinant) puts the
/// minus sign on the X scale. A degenerate axis (zero scale) keeps the
/// identity's direction for that axis.
pub fn decompose(t: &Transform3D) -> Pose {
    let m = to_mat3(&t.basis);
    let sign = if m.determinant() < 0.0 { -1.0 } else { 1.0 };
    let x = m.x_axis * sign;
    let ex = x.try_normalize().unwrap_or(Vec3::X);
    let ey = (m.y_axis - ex * ex.dot(m.y_axis)).try_normalize().unwrap_or_else(|| ex.any_orthonormal_vector());
    let ez = ex.cross(ey);
    let rotation = Quat::from_mat3(&Mat3::from_cols(ex, ey, ez)).normalize();
    let scale = Vec3::new(sign * m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
    Pose { position: to_vec3(t.origin), rotation, scale }
}

/// The transform of a pose: basis = rotation * diag(scale).
pub fn compose(p: &Pose) -> Transform3D {
    let m = Mat3::from_quat(p.rotation) * Mat3::from_diagonal(p.scale);
    let basis = Basis::from_cols(to_vector3(m.x_axis), to_vector3(m.y_axis), to_vector3(m.z_axis));
    Transform3D::new(basis, to_vector3(p.position))
}

/// Applies a full transform (scale and skew included) to a point.
pub fn transform_point(t: &Transform3D, p: Vec3) -> Vec3 {
    to_mat3(&t.basis) * p + to_vec3(t.origin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn close(a: Vec3, b: Vec3, eps: f32) -> bool {
        (a - b).abs().max_element() <= eps
    }

    /// q and -q are the same rotation.
    fn same_rotation(a: Quat, b: Quat, eps: f32) -> bool {
        a.dot(b).abs() >= 1.0 - eps
    }

    #[test]
    fn a_quarter_turn_about_y_is_the_known_quaternion() {
        // Basis.from_axis_angle(Vector3.UP, PI/2) in Godot: columns (0,0,-1), (0,1,0), (1,0,0).
        let basis = Basis::from_cols(Vector3::new(0.0, 0.0, -1.0), Vector3::UP, Vector3::new(1.0, 0.0, 0.0));
        let p = decompose(&Transform3D::new(basis, Vector3::new(1.0, 2.0, 3.0)));
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(same_rotation(p.rotation, Quat::from_xyzw(0.0, h, 0.0, h), 1e-6), "{:?}", p.rotation);
        assert!(close(p.scale, Vec3::ONE, 1e-6));
        assert_eq!(p.position, Vec3::new(1.0, 2.0, 3.0));
        // The rotation maps local +X where the basis does.
        assert!(close(p.rotation * Vec3::X, Vec3::new(0.0, 0.0, -1.0), 1e-6));
    }

    #[test]
    fn pose_round_trips_through_transform3d() {
        let rotations = [
            Quat::IDENTITY,
            Quat::from_rotation_x(0.3),
            Quat::from_axis_angle(Vec3::new(1.0, -2.0, 0.5).normalize(), 2.5),
            Quat::from_rotation_z(FRAC_PI_2) * Quat::from_rotation_y(-1.1),
            Quat::from_rotation_y(std::f32::consts::PI), // w = 0
        ];
        for &rotation in &rotations {
            for scale in [Vec3::ONE, Vec3::new(2.0, 0.5, 3.0), Vec3::new(-1.5, 1.0, 0.25)] {
                let pose = Pose { position: Vec3::new(-4.0, 0.5, 7.25), rotation, scale };
                let back = decompose(&compose(&pose));
                assert!(same_rotation(back.rotation, rotation, 1e-6), "{rotation:?} {scale:?} -> {:?}", back.rotation);
                assert!(close(back.scale, scale, 1e-6), "{scale:?} -> {:?}", back.scale);
                assert!(close(back.position, pose.position, 0.0));
                // And the transform of the decomposed pose is the transform we started from.
                let (t0, t1) = (compose(&pose), compose(&back));
                for v in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(0.3, -0.7, 1.1)] {
                    assert!(close(transform_point(&t0, v), transform_point(&t1, v), 1e-6));
                }
            }
        }
    }

    #[test]
    fn quaternions_and_vectors_convert_component_for_component() {
        let q = Quat::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), 1.0);
        let g = to_quaternion(q);
        assert_eq!((g.x, g.y, g.z, g.w), (q.x, q.y, q.z, q.w));
        assert_eq!(to_quat(g), q);
        let v = Vec3::new(1.5, -2.0, 1e-7);
        assert_eq!(to_vec3(to_vector3(v)), v);
    }

    #[test]
    fn a_skewed_basis_keeps_its_x_axis_and_a_right_handed_frame() {
        let basis =
            Basis::from_cols(Vector3::new(2.0, 0.0, 0.0), Vector3::new(1.0, 1.0, 0.0), Vector3::new(0.0, 0.0, 1.0));
        let p = decompose(&Transform3D::new(basis, Vector3::ZERO));
        assert!(close(p.rotation * Vec3::X, Vec3::X, 1e-6));
        assert!(close(p.rotation * Vec3::Y, Vec3::Y, 1e-6));
        assert!((p.rotation.length() - 1.0).abs() < 1e-6);
        assert!(close(p.scale, Vec3::new(2.0, std::f32::consts::SQRT_2, 1.0), 1e-6));
    }

    #[test]
    fn transform_point_applies_scale_rotation_and_origin() {
        let pose = Pose {
            position: Vec3::new(1.0, 0.0, 0.0),
            rotation: Quat::from_rotation_z(FRAC_PI_2),
            scale: Vec3::splat(2.0),
        };
        // (1,0,0) scaled to (2,0,0), turned to (0,2,0), moved to (1,2,0).
        assert!(close(transform_point(&compose(&pose), Vec3::X), Vec3::new(1.0, 2.0, 0.0), 1e-6));
    }
}
