//! `sinew_collider_*`: static or engine-moved collision shapes.

use super::boundary::{Failure, SinewWorld, checked_out, checked_ref, checked_slice, world_ref};
use super::types::*;
use crate::{ColliderShape, Combine, CompoundChild, Filter, Material, Quat, Vec3};

/// Shape: a box of `half_extents` (colliders and rigid bodies).
pub const SINEW_SHAPE_BOX: u32 = 0;
/// Shape: a ball of `radius` (colliders and rigid bodies).
pub const SINEW_SHAPE_SPHERE: u32 = 1;
/// Shape: a capsule of `radius` around the local Y segment
/// `-half_height..half_height` (colliders and rigid bodies).
pub const SINEW_SHAPE_CAPSULE: u32 = 2;
/// Shape: the convex hull of `points` (colliders and rigid bodies; a rigid
/// body's mass is spread as over their bounding box).
pub const SINEW_SHAPE_CONVEX: u32 = 3;
/// Collider shape: the solid half-space `dot(normal, x) < offset` of the
/// local frame.
pub const SINEW_SHAPE_PLANE: u32 = 4;
/// Collider shape: a static triangle mesh, `points` as vertices and
/// `indices` three per triangle (two-sided; a BVH is built at creation).
pub const SINEW_SHAPE_MESH: u32 = 5;
/// Collider shape: a heightfield, `columns` x `rows` `heights` (row-major),
/// vertex (c, r) at `(c * cell_size_x, heights[r * columns + c], r *
/// cell_size_z)` of the local frame; solid below the surface.
pub const SINEW_SHAPE_HEIGHTFIELD: u32 = 6;
/// Collider shape: `child_count` `children` (defs of any other shape, their
/// transforms relative to this collider's frame; their materials and
/// filters are ignored: the compound's own apply).
pub const SINEW_SHAPE_COMPOUND: u32 = 7;

/// Combine rule: (collider + body) / 2.
pub const SINEW_COMBINE_AVERAGE: u32 = 0;
/// Combine rule: the smaller coefficient.
pub const SINEW_COMBINE_MIN: u32 = 1;
/// Combine rule: the product.
pub const SINEW_COMBINE_MULTIPLY: u32 = 2;
/// Combine rule: the larger coefficient.
pub const SINEW_COMBINE_MAX: u32 = 3;

/// Every collision layer: the default mask of bodies and colliders.
pub const SINEW_LAYER_ALL: u32 = 0xFFFF_FFFF;
/// The layer bodies and colliders are on by default.
pub const SINEW_LAYER_DEFAULT: u32 = 1;

/// The surface of a collider, or of a body (which then meets each
/// collider's by the collider's `combine` rule; a body without one takes the
/// collider's coefficients as they are). Zero-initialised is valid: no
/// friction, no bounce.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewMaterial {
    /// Static Coulomb coefficient, >= 0: a contact sliding less than this
    /// allows sticks.
    pub friction: f32,
    /// Sliding Coulomb coefficient, >= 0 (usually <= `friction`).
    pub dynamic_friction: f32,
    /// Fraction of the approach speed given back, in [0, 1]; contacts slower
    /// than 0.5 m/s never bounce.
    pub restitution: f32,
    /// `SINEW_COMBINE_*`: how this collider's coefficients meet a body's.
    /// Ignored in a body's material.
    pub combine: u32,
}

impl SinewMaterial {
    pub(crate) fn to_core(self) -> Result<Material, Failure> {
        let combine = Combine::from_u32(self.combine).ok_or_else(|| {
            Failure::invalid(format!("material.combine {} is not a SINEW_COMBINE_* value", self.combine))
        })?;
        Ok(Material {
            friction: self.friction,
            dynamic_friction: self.dynamic_friction,
            restitution: self.restitution,
            combine,
        })
    }
}

impl From<Material> for SinewMaterial {
    fn from(m: Material) -> Self {
        SinewMaterial {
            friction: m.friction,
            dynamic_friction: m.dynamic_friction,
            restitution: m.restitution,
            combine: m.combine as u32,
        }
    }
}

/// A collider of any shape. Fill from `sinew_default_collider_def()`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewColliderDef {
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
    /// Plane: the outward normal in the local frame (normalised here);
    /// default (0, 1, 0).
    pub normal: SinewVec3,
    /// Plane: the surface's distance from the frame's origin along the
    /// normal; default 0.
    pub offset: f32,
    /// Convex: 4..=256 points (their hull); mesh: the vertices. Local frame;
    /// read during the call only. NULL when `point_count` is 0.
    pub points: *const SinewVec3,
    /// See `points`.
    pub point_count: u32,
    /// Mesh: three vertex indices per triangle; read during the call only.
    pub indices: *const u32,
    /// See `indices` (a multiple of 3).
    pub index_count: u32,
    /// Heightfield: `columns * rows` heights, row-major; read during the
    /// call only.
    pub heights: *const f32,
    /// Heightfield: vertices along local X, >= 2.
    pub columns: u32,
    /// Heightfield: vertices along local Z, >= 2.
    pub rows: u32,
    /// Heightfield: metres between columns, > 0; default 1.
    pub cell_size_x: f32,
    /// Heightfield: metres between rows, > 0; default 1.
    pub cell_size_z: f32,
    /// Compound: the parts (defs from `sinew_default_collider_def()`, not
    /// compounds themselves); read during the call only.
    pub children: *const SinewColliderDef,
    /// See `children`.
    pub child_count: u32,
    /// The surface; default friction 0.5 (static and dynamic), no
    /// restitution, `SINEW_COMBINE_AVERAGE`.
    pub material: SinewMaterial,
    /// Layer bits the collider is on; default `SINEW_LAYER_DEFAULT`. A body
    /// and a collider collide when each one's mask holds a layer of the other.
    pub layer: u32,
    /// Layer bits it collides with; default `SINEW_LAYER_ALL`.
    pub mask: u32,
    /// Set by `sinew_default_collider_def`; do not touch.
    pub internal_cookie: u32,
}

const COLLIDER_COOKIE: u32 = 0x534E_434C; // "SNCL"

/// A collider def with the defaults above (a 1 m box at the origin).
/// Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_collider_def() -> SinewColliderDef {
    SinewColliderDef {
        transform: SinewTransform { position: Vec3::ZERO.into(), rotation: Quat::IDENTITY.into() },
        shape: SINEW_SHAPE_BOX,
        half_extents: Vec3::splat(0.5).into(),
        radius: 0.5,
        half_height: 0.5,
        normal: Vec3::Y.into(),
        offset: 0.0,
        points: std::ptr::null(),
        point_count: 0,
        indices: std::ptr::null(),
        index_count: 0,
        heights: std::ptr::null(),
        columns: 0,
        rows: 0,
        cell_size_x: 1.0,
        cell_size_z: 1.0,
        children: std::ptr::null(),
        child_count: 0,
        material: Material::coulomb(0.5).into(),
        layer: SINEW_LAYER_DEFAULT,
        mask: SINEW_LAYER_ALL,
        internal_cookie: COLLIDER_COOKIE,
    }
}

/// The core shape a def describes (its values are checked by the core);
/// `top` is false for a compound's part.
pub(super) fn shape_of(d: &SinewColliderDef, top: bool) -> Result<ColliderShape, Failure> {
    if d.internal_cookie != COLLIDER_COOKIE {
        return Err(Failure::invalid("def was not made by sinew_default_collider_def() (zero-initialised?)"));
    }
    Ok(match d.shape {
        SINEW_SHAPE_BOX => ColliderShape::Box { half_extents: d.half_extents.into() },
        SINEW_SHAPE_SPHERE => ColliderShape::Sphere { radius: d.radius },
        SINEW_SHAPE_CAPSULE => {
            if !(d.half_height.is_finite() && d.half_height >= 0.0) {
                return Err(Failure::invalid(format!("half_height must be finite and >= 0, got {}", d.half_height)));
            }
            let axis = Vec3::Y * d.half_height;
            ColliderShape::Capsule { a: -axis, b: axis, radius: d.radius }
        }
        SINEW_SHAPE_PLANE => ColliderShape::Plane { normal: d.normal.into(), offset: d.offset },
        SINEW_SHAPE_CONVEX => {
            // SAFETY: `d.points` is NULL or valid for reads of `d.point_count` elements (the `ffi` contract).
            let points = unsafe { checked_slice(d.points, d.point_count as usize, "def.points") }?;
            let points: Vec<Vec3> = points.iter().map(|&p| p.into()).collect();
            ColliderShape::convex(&points)?
        }
        SINEW_SHAPE_MESH => {
            // SAFETY: `d.points` is NULL or valid for reads of `d.point_count` elements (the `ffi` contract).
            let points = unsafe { checked_slice(d.points, d.point_count as usize, "def.points") }?;
            // SAFETY: `d.indices` is NULL or valid for reads of `d.index_count as usize` elements (the `ffi` contract).
            let indices = unsafe { checked_slice(d.indices, d.index_count as usize, "def.indices") }?;
            let points: Vec<Vec3> = points.iter().map(|&p| p.into()).collect();
            ColliderShape::mesh(&points, indices)?
        }
        SINEW_SHAPE_HEIGHTFIELD => {
            let n = (d.columns as usize)
                .checked_mul(d.rows as usize)
                .ok_or_else(|| Failure::invalid("columns * rows overflows"))?;
            // SAFETY: `d.heights` is NULL or valid for reads of `n` elements (the `ffi` contract).
            let heights = unsafe { checked_slice(d.heights, n, "def.heights") }?;
            ColliderShape::heightfield(d.columns, d.rows, d.cell_size_x, d.cell_size_z, heights)?
        }
        SINEW_SHAPE_COMPOUND if top => {
            // SAFETY: `d.children` is NULL or valid for reads of `d.child_count` elements (the `ffi` contract).
            let parts = unsafe { checked_slice(d.children, d.child_count as usize, "def.children") }?;
            let mut children = Vec::with_capacity(parts.len());
            for (k, c) in parts.iter().enumerate() {
                let shape =
                    shape_of(c, false).map_err(|f| Failure::new(f.code, format!("children[{k}]: {}", f.message)))?;
                children.push(CompoundChild {
                    shape,
                    position: c.transform.position.into(),
                    rotation: c.transform.rotation.into(),
                });
            }
            ColliderShape::compound(children)
        }
        SINEW_SHAPE_COMPOUND => return Err(Failure::invalid("a compound's part cannot be a compound")),
        s => return Err(Failure::invalid(format!("def.shape {s} is not a SINEW_SHAPE_* value"))),
    })
}

/// Creates a collider of any shape, with a material and a collision filter.
/// Its frame starts at `def->transform`; `sinew_collider_set_transform`
/// moves it, and a moved collider carries what rests on it (its surface
/// velocity enters friction).
///
/// - `def`: from `sinew_default_collider_def()`; read during the call only.
/// - `out_collider`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT` (also `points`, `indices`, `heights` or
/// `children` NULL with a non-zero count); `INVALID_ARGUMENT` for a def (or
/// a part's def) without its cookie, an unknown shape or combine rule,
/// NaN/inf, sizes <= 0, a zero normal or rotation, a negative friction, a
/// restitution outside [0, 1], a hull of fewer than 4 points or flat, a mesh
/// that is empty, has an index count not a multiple of 3, an index out of
/// range or only degenerate triangles, a heightfield under 2 x 2, a compound
/// that is empty or nests a compound; `LIMIT_EXCEEDED` for a hull of more
/// than 256 points and the world's collider cap. Threading: write lock (a
/// mesh's BVH is built inside the call: about 27 ms for 100k triangles on
/// one core of a 2-core EPYC).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create(
    world: *mut SinewWorld,
    def: *const SinewColliderDef,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_collider` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_collider, "out_collider") }?;
        let shape = shape_of(d, true)?;
        let material = d.material.to_core()?;
        let filter = Filter { layer: d.layer, mask: d.mask };
        let (position, rotation) = (d.transform.position.into(), d.transform.rotation.into());
        let id = world.write(|w| Ok(w.create_collider_with(shape, position, rotation, material, filter)?))?;
        *out = id.into();
        Ok(())
    })
}

/// Changes a collider's material (friction, restitution, combine rule).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `INVALID_ARGUMENT` (NaN/inf,
/// negative friction, restitution outside [0, 1], unknown combine rule).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_set_material(
    world: *mut SinewWorld,
    collider: SinewColliderId,
    material: SinewMaterial,
) -> SinewResult {
    ffi_boundary!("sinew_collider_set_material", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let material = material.to_core()?;
        world.write(|w| Ok(w.set_collider_material(collider.into(), material)?))
    })
}

/// A collider's material.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_get_material(
    world: *const SinewWorld,
    collider: SinewColliderId,
    out_material: *mut SinewMaterial,
) -> SinewResult {
    ffi_boundary!("sinew_collider_get_material", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_material` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_material, "out_material") }?;
        *out = world.read(|w| Ok(w.collider_material(collider.into())?))?.into();
        Ok(())
    })
}

/// Puts a collider on the layers `layer` and lets it collide with the
/// layers in `mask`: a body and a collider collide when each one's mask
/// holds a layer of the other. Any bits are valid (0 collides with nothing).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_set_filter(
    world: *mut SinewWorld,
    collider: SinewColliderId,
    layer: u32,
    mask: u32,
) -> SinewResult {
    ffi_boundary!("sinew_collider_set_filter", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_collider_filter(collider.into(), Filter { layer, mask })?))
    })
}

fn create(
    world: *mut SinewWorld,
    shape: ColliderShape,
    position: Vec3,
    rotation: Quat,
    friction: f32,
    out: *mut SinewColliderId,
) -> Result<(), super::boundary::Failure> {
    // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
    let world = unsafe { world_ref(world) }?;
    // SAFETY: `out` is NULL or valid for writes (the `ffi` contract).
    let out = unsafe { checked_out(out, "out_collider") }?;
    let id = world.write(|w| Ok(w.create_collider(shape, position, rotation, friction)?))?;
    *out = id.into();
    Ok(())
}

/// Creates a plane collider: the solid half-space `dot(normal, x) < offset`
/// (particles are kept on the side the normal points to). `normal` is
/// normalised; its frame starts as the identity, so `sinew_collider_set_transform`
/// moves the plane as a rigid object. `friction` is Coulomb's coefficient, >= 0.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a zero or NaN normal,
/// NaN/inf offset, negative/NaN friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_plane(
    world: *mut SinewWorld,
    normal: SinewVec3,
    offset: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_plane", {
        let shape = ColliderShape::Plane { normal: normal.into(), offset };
        create(world, shape, Vec3::ZERO, Quat::IDENTITY, friction, out_collider)
    })
}

/// Creates a sphere collider; its frame is `center` with no rotation.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_sphere(
    world: *mut SinewWorld,
    center: SinewVec3,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_sphere", {
        create(world, ColliderShape::Sphere { radius }, center.into(), Quat::IDENTITY, friction, out_collider)
    })
}

/// Creates an oriented box collider centred on `transform.position`, with
/// `half_extents` along its rotated axes.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a zero rotation,
/// half extents <= 0, negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_box(
    world: *mut SinewWorld,
    transform: SinewTransform,
    half_extents: SinewVec3,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_box", {
        let shape = ColliderShape::Box { half_extents: half_extents.into() };
        create(world, shape, transform.position.into(), transform.rotation.into(), friction, out_collider)
    })
}

/// Creates a capsule collider around the segment `a`-`b` (world space);
/// `a == b` makes a sphere. Its frame is the segment's midpoint with no
/// rotation, so `sinew_collider_set_transform` moves the capsule rigidly.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, radius <= 0,
/// negative friction; `LIMIT_EXCEEDED`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_create_capsule(
    world: *mut SinewWorld,
    a: SinewVec3,
    b: SinewVec3,
    radius: f32,
    friction: f32,
    out_collider: *mut SinewColliderId,
) -> SinewResult {
    ffi_boundary!("sinew_collider_create_capsule", {
        let (a, b) = (Vec3::from(a), Vec3::from(b));
        // Non-finite ends are refused by the core; the midpoint is then irrelevant.
        let mid = (a + b) * 0.5;
        let mid = if mid.is_finite() { mid } else { Vec3::ZERO };
        let shape = ColliderShape::Capsule { a: a - mid, b: b - mid, radius };
        create(world, shape, mid, Quat::IDENTITY, friction, out_collider)
    })
}

/// Places a collider's frame (see each `create` for where a frame starts):
/// the engine moves kinematic colliders with this every frame. The rotation is
/// normalised.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ID`; `INVALID_ARGUMENT` for NaN/inf or a
/// zero rotation. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_set_transform(
    world: *mut SinewWorld,
    collider: SinewColliderId,
    transform: SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_collider_set_transform", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| {
            Ok(w.set_collider_transform(collider.into(), transform.position.into(), transform.rotation.into())?)
        })
    })
}

/// A collider's frame.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_get_transform(
    world: *const SinewWorld,
    collider: SinewColliderId,
    out_transform: *mut SinewTransform,
) -> SinewResult {
    ffi_boundary!("sinew_collider_get_transform", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_transform` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_transform, "out_transform") }?;
        let (p, q) = world.read(|w| Ok(w.collider_transform(collider.into())?))?;
        *out = SinewTransform { position: p.into(), rotation: q.into() };
        Ok(())
    })
}

/// 1 when `collider` is a live collider of `world`, else 0 (also for a NULL
/// or poisoned world). Never fails. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_is_valid(world: *const SinewWorld, collider: SinewColliderId) -> SinewBool {
    let mut valid = 0;
    let _ = ffi_boundary!("sinew_collider_is_valid", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        valid = world.read(|w| Ok(w.is_valid_collider(collider.into()) as SinewBool))?;
        Ok(())
    });
    valid
}

/// Destroys a collider; its id becomes invalid.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_collider_destroy(world: *mut SinewWorld, collider: SinewColliderId) -> SinewResult {
    ffi_boundary!("sinew_collider_destroy", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.destroy_collider(collider.into())?))
    })
}
