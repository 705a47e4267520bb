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
//!
//! This module is the one place where Godot's `real` meets sinew's numbers.
//! `real` is `f32`, or `f64` in a double-precision build (the crate's
//! `double-precision` feature, for Godot's large-world builds). Positions go
//! through `f64` ([`to_dvec3`], [`from_dvec3`]) into the core's `_f64`
//! calls, which keep each body relative to a grid point near it: exact in a
//! double build, and in a single one what `f32` gives (an `f32` widens to
//! `f64` exactly). Everything else (directions, rotations, sizes, normals,
//! local offsets) is `f32`, as in the core.

use glam::{DVec3, Mat3};
use godot::builtin::{Basis, Quaternion, RealConv, Transform3D, Vector3, real};
use sinew::{Quat, Vec3};

/// True when Godot's `real` is `f64` (the `double-precision` feature, here
/// or anywhere else in the build: Cargo unifies gdext's features).
pub const REAL_IS_F64: bool = size_of::<real>() == 8;

/// A frame placed by position and unit rotation, with the per-axis scale the
/// basis carried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// The origin, metres, in `f64` (exact from a double build's `real`).
    pub position: DVec3,
    /// Unit quaternion.
    pub rotation: Quat,
    /// Lengths of the basis columns; one is negative for a mirroring basis.
    pub scale: Vec3,
}

/// A Godot position as `f64`: exact, whichever `real` the build has.
pub fn to_dvec3(v: Vector3) -> DVec3 {
    DVec3::new(v.x.as_f64(), v.y.as_f64(), v.z.as_f64())
}

/// An `f64` position as Godot's: exact in a double build, rounded once to
/// `f32` in a single one.
pub fn from_dvec3(v: DVec3) -> Vector3 {
    Vector3::new(real::from_f64(v.x), real::from_f64(v.y), real::from_f64(v.z))
}

/// A Godot vector that is not a world position (a direction, a size, an
/// offset, gravity) as sinew's `f32`.
pub fn to_vec3(v: Vector3) -> Vec3 {
    Vec3::new(v.x.as_f32(), v.y.as_f32(), v.z.as_f32())
}

/// A Godot length (a shape's radius or height) as sinew's `f32`. Generic
/// because its type is not always `real`: gdext types a property from the
/// API description's metadata, `f32` in a single build's, `f64` in a
/// double build's.
pub fn to_f32(x: impl Into<f64>) -> f32 {
    x.into() as f32
}

/// A sinew `f32` vector as Godot's.
pub fn to_vector3(v: Vec3) -> Vector3 {
    Vector3::new(real::from_f32(v.x), real::from_f32(v.y), real::from_f32(v.z))
}

/// A Godot quaternion as sinew's (same component order).
pub fn to_quat(q: Quaternion) -> Quat {
    Quat::from_xyzw(q.x.as_f32(), q.y.as_f32(), q.z.as_f32(), q.w.as_f32())
}

/// A sinew quaternion as Godot's.
pub fn to_quaternion(q: Quat) -> Quaternion {
    Quaternion::new(real::from_f32(q.x), real::from_f32(q.y), real::from_f32(q.z), real::from_f32(q.w))
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
    Pose { position: to_dvec3(t.origin), rotation, scale }
}

/// The transform of a pose: basis = rotation * diag(scale).
pub fn compose(p: &Pose) -> Transform3D {
    let m = Mat3::from_quat(p.rotation) * Mat3::from_diagonal(p.scale);
    let basis = Basis::from_cols(to_vector3(m.x_axis), to_vector3(m.y_axis), to_vector3(m.z_axis));
    Transform3D::new(basis, from_dvec3(p.position))
}

/// Where a full transform (scale and skew included) takes a point, as its
/// offset from the transform's origin: small, so `f32` keeps it.
pub fn transform_offset(t: &Transform3D, p: Vec3) -> Vec3 {
    to_mat3(&t.basis) * p
}

/// Applies a full transform (scale and skew included) to a point.
pub fn transform_point(t: &Transform3D, p: Vec3) -> DVec3 {
    to_dvec3(t.origin) + transform_offset(t, p).as_dvec3()
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
        assert_eq!(p.position, DVec3::new(1.0, 2.0, 3.0));
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
                let pose = Pose { position: DVec3::new(-4.0, 0.5, 7.25), rotation, scale };
                let back = decompose(&compose(&pose));
                assert!(same_rotation(back.rotation, rotation, 1e-6), "{rotation:?} {scale:?} -> {:?}", back.rotation);
                assert!(close(back.scale, scale, 1e-6), "{scale:?} -> {:?}", back.scale);
                assert_eq!(back.position, pose.position);
                // And the transform of the decomposed pose is the transform we started from.
                let (t0, t1) = (compose(&pose), compose(&back));
                for v in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(0.3, -0.7, 1.1)] {
                    assert!(close(transform_offset(&t0, v), transform_offset(&t1, v), 1e-6));
                    assert_eq!(transform_point(&t0, v) - transform_offset(&t0, v).as_dvec3(), pose.position);
                }
            }
        }
    }

    #[test]
    fn quaternions_and_vectors_convert_component_for_component() {
        let q = Quat::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), 1.0);
        let g = to_quaternion(q);
        assert_eq!([g.x, g.y, g.z, g.w].map(|c| c.as_f32()), [q.x, q.y, q.z, q.w]);
        assert_eq!(to_quat(g), q);
        let v = Vec3::new(1.5, -2.0, 1e-7);
        assert_eq!(to_vec3(to_vector3(v)), v);
        let d = DVec3::new(10_000.0, -0.5, 1e-7);
        assert_eq!(to_dvec3(from_dvec3(d)), if REAL_IS_F64 { d } else { d.as_vec3().as_dvec3() });
    }

    #[test]
    fn a_node_10_km_out_round_trips_its_position_through_sinew_and_falls_as_at_the_origin() {
        use sinew::{ColliderShape, World, WorldSettings};
        // 10 km out and 0.123 456 789 m past: f32 keeps 0.123 047 there.
        let far = Transform3D::new(
            Basis::from_axis_angle(Vector3::UP, 0.3),
            from_dvec3(DVec3::new(10_000.123_456_789, 3.0, -10_000.123_456_789)),
        );
        let near = Transform3D::new(far.basis, far.origin - Vector3::new(10_000.0, 0.0, -10_000.0));
        let f32_loses = (to_dvec3(far.origin) - to_dvec3(far.origin).as_vec3().as_dvec3()).abs().max_element();
        if REAL_IS_F64 {
            assert!(f32_loses > 1e-4, "{f32_loses}");
        }
        let mut world = World::new(WorldSettings::default()).unwrap();
        let (pn, pf) = (decompose(&near), decompose(&far));
        let particle_near = world.create_particles_f64(&[pn.position], None).unwrap();
        let particle_far = world.create_particles_f64(&[pf.position], None).unwrap();
        let sphere = ColliderShape::Sphere { radius: 0.5 };
        let collider = world.create_collider_at_f64(sphere, pf.position, pf.rotation, 0.5).unwrap();
        let (at, rotation) = world.collider_transform_f64(collider).unwrap();
        let position = |w: &World, id| w.positions_f64(id).unwrap().next().unwrap();
        // What Godot gets back: the particle and the collider where the node is.
        let back = to_dvec3(from_dvec3(position(&world, particle_far)));
        let off = (back - to_dvec3(far.origin)).abs().max_element();
        let collider_off = (to_dvec3(from_dvec3(at)) - to_dvec3(far.origin)).abs().max_element();
        assert!(rotation.dot(pf.rotation).abs() > 1.0 - 1e-7);
        // Away from the collider: the far particle sits in it.
        world.destroy_collider(collider).unwrap();
        let (n0, f0) = (position(&world, particle_near), position(&world, particle_far));
        for _ in 0..60 {
            world.step(1.0 / 60.0).unwrap();
        }
        let (n1, f1) = (position(&world, particle_near), position(&world, particle_far));
        let fall = ((f1 - f0) - (n1 - n0)).abs().max_element();
        eprintln!(
            "10 km out (real is f{}): f32 would lose {f32_loses:.2e} m; particle back {off:.2e} m off, collider {collider_off:.2e} m, 1 s fall {fall:.2e} m off the near one's ({:.3} m)",
            if REAL_IS_F64 { 64 } else { 32 },
            n0.y - n1.y
        );
        // One rounding of the offset from the core's 4 m grid point: <= 2 m, ulp 2.4e-7.
        assert!(off <= 2.5e-7 && collider_off <= 2.5e-7, "{off} {collider_off}");
        assert!(n0.y - n1.y > 4.0);
        assert!(fall <= 1e-6, "the far particle fell {fall} m differently");
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
            position: DVec3::new(1.0, 0.0, 0.0),
            rotation: Quat::from_rotation_z(FRAC_PI_2),
            scale: Vec3::splat(2.0),
        };
        // (1,0,0) scaled to (2,0,0), turned to (0,2,0), moved to (1,2,0).
        assert!((transform_point(&compose(&pose), Vec3::X) - DVec3::new(1.0, 2.0, 0.0)).abs().max_element() < 1e-6);
    }
}
