//! Godot `Shape3D` resources -> sinew collider shapes.
//!
//! The shape is described by plain numbers ([`GodotShape`]) read from the
//! resource, then converted with the node's global scale baked in, since
//! sinew's collider frames carry no scale:
//!
//! | Godot | sinew |
//! |---|---|
//! | `SphereShape3D { radius }` | `Sphere { radius * max |scale| }` |
//! | `BoxShape3D { size }` (full size) | `Box { half_extents: size / 2 * |scale| }` |
//! | `CapsuleShape3D { radius, height }` along local Y, `height` counting both caps | `Capsule { a: (0, -l, 0), b: (0, l, 0), radius }` with `l = height/2 - radius` |
//! | `WorldBoundaryShape3D { plane: (normal, d) }`, solid below the plane | `Plane { normal, offset: d }` |
//!
//! A non-uniformly scaled sphere or capsule is not a sphere or capsule any
//! more; the largest scale is used, as a conservative (larger) shape.

use sinew::{ColliderShape, Vec3};

/// A Godot shape's defining numbers, in its local frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GodotShape {
    /// `SphereShape3D.radius`.
    Sphere { radius: f32 },
    /// `BoxShape3D.size`: full extents.
    Box { size: Vec3 },
    /// `CapsuleShape3D`: along local Y; `height` is the total height, caps included.
    Capsule { radius: f32, height: f32 },
    /// `WorldBoundaryShape3D.plane`: the points with `dot(normal, x) = d`; the
    /// solid side is behind the normal.
    WorldBoundary { normal: Vec3, d: f32 },
}

/// Converts a Godot shape, scaled by the node's global scale, to sinew's
/// shape in the unscaled frame. Errors name what is wrong.
pub fn to_collider_shape(shape: GodotShape, scale: Vec3) -> Result<ColliderShape, String> {
    let s = scale.abs();
    if !s.is_finite() || s.min_element() <= 0.0 {
        return Err(format!("the collider's global scale must be finite and non-zero, got {scale}"));
    }
    match shape {
        GodotShape::Sphere { radius } => {
            if !(radius.is_finite() && radius > 0.0) {
                return Err(format!("SphereShape3D.radius must be > 0, got {radius}"));
            }
            Ok(ColliderShape::Sphere { radius: radius * s.max_element() })
        }
        GodotShape::Box { size } => {
            if !(size.is_finite() && size.min_element() > 0.0) {
                return Err(format!("BoxShape3D.size must be > 0 on every axis, got {size}"));
            }
            Ok(ColliderShape::Box { half_extents: size * 0.5 * s })
        }
        GodotShape::Capsule { radius, height } => {
            if !(radius.is_finite() && radius > 0.0 && height.is_finite()) {
                return Err(format!("CapsuleShape3D needs radius > 0 and a finite height, got {radius}, {height}"));
            }
            let r = radius * s.x.max(s.z);
            // Godot keeps height >= 2 * radius; a shorter one is a sphere.
            let half_segment = (0.5 * height * s.y - r).max(0.0);
            Ok(ColliderShape::Capsule {
                a: Vec3::new(0.0, -half_segment, 0.0),
                b: Vec3::new(0.0, half_segment, 0.0),
                radius: r,
            })
        }
        GodotShape::WorldBoundary { normal, d } => {
            let n = normal.try_normalize().filter(|_| normal.is_finite() && d.is_finite());
            let Some(n) = n else {
                return Err(format!(
                    "WorldBoundaryShape3D.plane needs a non-zero normal and finite d, got {normal}, {d}"
                ));
            };
            // Scaling the frame by S moves the plane's point n*d to S*n*d and
            // turns its normal into S^-1 n (normals transform by the inverse
            // transpose); keep the signed scale so a mirror flips the plane.
            let n_scaled = (n / scale).normalize();
            let point = scale * (n * d / normal.length());
            Ok(ColliderShape::Plane { normal: n_scaled, offset: n_scaled.dot(point) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() <= 1e-6
    }

    #[test]
    fn godot_capsule_height_counts_both_caps() {
        // radius 0.5, height 2: the straight part is 1 m long, from y = -0.5 to 0.5.
        let c = to_collider_shape(GodotShape::Capsule { radius: 0.5, height: 2.0 }, Vec3::ONE).unwrap();
        let ColliderShape::Capsule { a, b, radius } = c else { panic!("{c:?}") };
        assert!(close(a, Vec3::new(0.0, -0.5, 0.0)) && close(b, Vec3::new(0.0, 0.5, 0.0)));
        assert_eq!(radius, 0.5);
        // The tips are where Godot's are: half the height from the centre.
        assert!((b.y + radius - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_capsule_no_taller_than_its_caps_is_a_sphere() {
        let c = to_collider_shape(GodotShape::Capsule { radius: 0.3, height: 0.6 }, Vec3::ONE).unwrap();
        assert_eq!(c, ColliderShape::Capsule { a: Vec3::ZERO, b: Vec3::ZERO, radius: 0.3 });
        let c = to_collider_shape(GodotShape::Capsule { radius: 0.3, height: 0.1 }, Vec3::ONE).unwrap();
        assert_eq!(c, ColliderShape::Capsule { a: Vec3::ZERO, b: Vec3::ZERO, radius: 0.3 });
    }

    #[test]
    fn scaled_capsule_scales_radius_by_xz_and_height_by_y() {
        let c = to_collider_shape(GodotShape::Capsule { radius: 0.5, height: 3.0 }, Vec3::new(2.0, 2.0, 1.0)).unwrap();
        // radius 1, total height 6: segment from -2 to 2.
        assert_eq!(
            c,
            ColliderShape::Capsule { a: Vec3::new(0.0, -2.0, 0.0), b: Vec3::new(0.0, 2.0, 0.0), radius: 1.0 }
        );
    }

    #[test]
    fn box_size_is_full_extents() {
        let c = to_collider_shape(GodotShape::Box { size: Vec3::new(2.0, 4.0, 6.0) }, Vec3::ONE).unwrap();
        assert_eq!(c, ColliderShape::Box { half_extents: Vec3::new(1.0, 2.0, 3.0) });
        let c = to_collider_shape(GodotShape::Box { size: Vec3::ONE }, Vec3::new(-2.0, 1.0, 0.5)).unwrap();
        assert_eq!(c, ColliderShape::Box { half_extents: Vec3::new(1.0, 0.5, 0.25) });
    }

    #[test]
    fn sphere_takes_the_largest_scale() {
        let c = to_collider_shape(GodotShape::Sphere { radius: 0.5 }, Vec3::new(1.0, 3.0, 2.0)).unwrap();
        assert_eq!(c, ColliderShape::Sphere { radius: 1.5 });
    }

    #[test]
    fn world_boundary_is_a_plane_with_d_as_offset() {
        // Godot's default WorldBoundaryShape3D: Plane(Vector3.UP, 0).
        let c = to_collider_shape(GodotShape::WorldBoundary { normal: Vec3::Y, d: 0.0 }, Vec3::ONE).unwrap();
        assert_eq!(c, ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 });
        let c = to_collider_shape(GodotShape::WorldBoundary { normal: Vec3::new(0.0, 2.0, 0.0), d: 1.5 }, Vec3::ONE)
            .unwrap();
        // An unnormalised Godot plane (2y = 1.5) is the plane y = 0.75.
        let ColliderShape::Plane { normal, offset } = c else { panic!() };
        assert!(close(normal, Vec3::Y) && (offset - 0.75).abs() < 1e-6, "{c:?}");
    }

    #[test]
    fn scaled_world_boundary_moves_and_tilts_like_the_scaled_frame() {
        // x + y = sqrt(2) * 1 (unit normal, d = 1); scale x by 2: the plane
        // through S * (n d) with normal S^-1 n.
        let n = Vec3::new(1.0, 1.0, 0.0).normalize();
        let c = to_collider_shape(GodotShape::WorldBoundary { normal: n, d: 1.0 }, Vec3::new(2.0, 1.0, 1.0)).unwrap();
        let ColliderShape::Plane { normal, offset } = c else { panic!() };
        // Points on the original plane, scaled, lie on the new one.
        for p in [n, n + Vec3::new(1.0, -1.0, 0.0), n + Vec3::Z * 3.0] {
            let q = p * Vec3::new(2.0, 1.0, 1.0);
            assert!((normal.dot(q) - offset).abs() < 1e-6, "{p} -> {q}");
        }
        assert!((normal.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn bad_shapes_are_refused_with_a_reason() {
        assert!(to_collider_shape(GodotShape::Sphere { radius: 0.0 }, Vec3::ONE).unwrap_err().contains("radius"));
        assert!(to_collider_shape(GodotShape::Box { size: Vec3::new(1.0, 0.0, 1.0) }, Vec3::ONE).is_err());
        assert!(to_collider_shape(GodotShape::WorldBoundary { normal: Vec3::ZERO, d: 0.0 }, Vec3::ONE).is_err());
        assert!(
            to_collider_shape(GodotShape::Sphere { radius: 1.0 }, Vec3::new(1.0, 0.0, 1.0))
                .unwrap_err()
                .contains("scale")
        );
    }
}
