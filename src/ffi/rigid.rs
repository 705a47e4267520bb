//! `sinew_rigid_*`: particle rigid bodies (a tetrahedron with an embedded
//! shape, or a shape-matched lattice), their transform, impulses.

use super::boundary::{Failure, SinewWorld, checked_out, checked_ref, checked_slice, world_ref};
use super::collider::{SINEW_SHAPE_BOX, SINEW_SHAPE_CAPSULE, SINEW_SHAPE_CONVEX, SINEW_SHAPE_SPHERE};
use super::types::*;
use crate::{BodyId, Quat, RigidDef, RigidModel, RigidShape, Vec3};

/// Rigid model: four particles and six rigid sticks carry the body; the
/// shape's collision spheres are fixed barycentric combinations of them
/// (Jakobsen's cube in a tetrahedron). The tetrahedron is placed so that it
/// has the solid shape's inertia.
pub const SINEW_RIGID_TETRAHEDRON: u32 = 0;
/// Rigid model: the shape filled with particles (one collision sphere each)
/// held by shape matching with `stiffness`.
pub const SINEW_RIGID_SHAPE_MATCHED: u32 = 1;

/// A rigid body. Fill from `sinew_default_rigid_def()`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewRigidDef {
    /// Where the shape's local frame is, world space. Default identity.
    pub transform: SinewTransform,
    /// `SINEW_SHAPE_*`; default `SINEW_SHAPE_BOX`.
    pub shape: u32,
    /// Box: half the size along each local axis, > 0; default (0.5, 0.5, 0.5).
    pub half_extents: SinewVec3,
    /// Sphere and capsule: metres, > 0; default 0.5.
    pub radius: f32,
    /// Capsule: half the inner segment along local Y, >= 0; default 0.5.
    pub half_height: f32,
    /// Convex: `point_count` local points (1..=256); read during the call
    /// only. May be NULL for other shapes.
    pub points: *const SinewVec3,
    /// See `points`.
    pub point_count: u32,
    /// `SINEW_RIGID_*`; default `SINEW_RIGID_TETRAHEDRON`.
    pub model: u32,
    /// Kilograms, > 0; default 1.
    pub mass: f32,
    /// Shape-matched: fraction of the way to the rigid fit per substep, in
    /// (0, 1]; 1 (default) is rigid, less is a soft body.
    pub stiffness: f32,
    /// Radius of the collision spheres of a box or convex shape in metres,
    /// not negative; 0 (default) = half the box's smallest half size (a
    /// tenth of a convex shape's bounding box); at most the smallest half
    /// size. A shape-matched lattice is spaced twice this.
    pub particle_radius: f32,
    /// Coulomb coefficient against other rigid bodies (a pair uses the
    /// geometric mean); colliders bring their own. Default 0.5.
    pub friction: f32,
    /// Set by `sinew_default_rigid_def`; do not touch.
    pub internal_cookie: u32,
}

const RIGID_COOKIE: u32 = 0x534E_5247; // "SNRG"

/// The default rigid def (see the field docs): a 1 kg, 1 m box, a rigid
/// tetrahedron. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_rigid_def() -> SinewRigidDef {
    SinewRigidDef {
        transform: SinewTransform { position: Vec3::ZERO.into(), rotation: Quat::IDENTITY.into() },
        shape: SINEW_SHAPE_BOX,
        half_extents: Vec3::splat(0.5).into(),
        radius: 0.5,
        half_height: 0.5,
        points: std::ptr::null(),
        point_count: 0,
        model: SINEW_RIGID_TETRAHEDRON,
        mass: 1.0,
        stiffness: 1.0,
        particle_radius: 0.0,
        friction: 0.5,
        internal_cookie: RIGID_COOKIE,
    }
}

/// Creates a rigid body at rest (a body of kind rigid). It collides with
/// colliders and with other rigid bodies through its collision spheres, and
/// sleeps like any body.
///
/// - `def`: from `sinew_default_rigid_def()`; read during the call only
///   (points included).
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT` (also `points` NULL for a convex shape with
/// points); `INVALID_ARGUMENT` for a def without its cookie, an unknown
/// shape or model, NaN/inf, sizes <= 0 (a capsule's `half_height` may be 0),
/// a shape larger than 1000 m, 0 or more than 256 convex points, a mass
/// <= 0, a stiffness outside (0, 1], a negative radius or friction, a zero
/// rotation; `LIMIT_EXCEEDED` for the world's caps. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_create(
    world: *mut SinewWorld,
    def: *const SinewRigidDef,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_create", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let def = rigid_def_of(d)?;
        let id = world.write(|w| Ok(w.create_rigid(&def)?))?;
        *out = id.into();
        Ok(())
    })
}

/// The rigid body's world transform: where its shape's local frame is now
/// (from the best rigid fit of its particles; unit rotation).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a rigid body).
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_read_transform(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_transform: *mut SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_read_transform", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_transform` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_transform, "out_transform") }?;
        let (p, q) = world.read(|w| Ok(w.rigid_transform(BodyId::from(body))?))?;
        *out = SinewTransform { position: p.into(), rotation: q.into() };
        Ok(())
    })
}

/// An impulse (newton seconds) at a world point, as to a rigid body: its
/// momentum changes by `impulse`, its angular momentum about its centre of
/// mass by `(point - centre) x impulse`. Wakes the body.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (NaN/inf). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_rigid_apply_impulse(
    world: *mut SinewWorld,
    body: SinewBodyId,
    point: SinewVec3,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_rigid_apply_impulse", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.apply_rigid_impulse(BodyId::from(body), point.into(), impulse.into())?))
    })
}

/// The core def a C def describes (its values are checked by the core).
pub(super) fn rigid_def_of(d: &SinewRigidDef) -> Result<RigidDef, Failure> {
    if d.internal_cookie != RIGID_COOKIE {
        return Err(Failure::invalid("def was not made by sinew_default_rigid_def() (zero-initialised?)"));
    }
    let shape = match d.shape {
        SINEW_SHAPE_BOX => RigidShape::Box { half_extents: d.half_extents.into() },
        SINEW_SHAPE_SPHERE => RigidShape::Sphere { radius: d.radius },
        SINEW_SHAPE_CAPSULE => RigidShape::Capsule { half_height: d.half_height, radius: d.radius },
        SINEW_SHAPE_CONVEX => {
            if d.point_count as usize > crate::rigid::MAX_CONVEX_POINTS {
                return Err(Failure::invalid(format!(
                    "a convex shape has at most {} points, got {}",
                    crate::rigid::MAX_CONVEX_POINTS,
                    d.point_count
                )));
            }
            // SAFETY: `d.points` is NULL or valid for reads of `d.point_count` elements (the `ffi` contract).
            let points = unsafe { checked_slice(d.points, d.point_count as usize, "def.points") }?;
            RigidShape::Convex { points: points.iter().map(|&p| p.into()).collect() }
        }
        s => return Err(Failure::invalid(format!("def.shape {s} is not a SINEW_SHAPE_* value"))),
    };
    let model = match d.model {
        SINEW_RIGID_TETRAHEDRON => RigidModel::Tetrahedron,
        SINEW_RIGID_SHAPE_MATCHED => RigidModel::ShapeMatched { stiffness: d.stiffness },
        m => return Err(Failure::invalid(format!("def.model {m} is not a SINEW_RIGID_* value"))),
    };
    let def = RigidDef {
        shape,
        model,
        position: d.transform.position.into(),
        rotation: d.transform.rotation.into(),
        mass: d.mass,
        particle_radius: d.particle_radius,
        friction: d.friction,
    };
    Ok(def)
}
