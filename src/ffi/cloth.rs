//! `sinew_cloth_*`: cloth from a grid or a triangle mesh, and what a renderer
//! reads back.

use super::boundary::{Failure, SinewWorld, checked_out, checked_ref, checked_slice, read_into, world_ref};
use super::types::*;
use crate::body::Body;
use crate::{BendMode, BodyId, ClothOptions, GridDef, MeshDef, TetherMode, Vec3, World};

/// Grid pin flag: the top-left vertex (particle 0).
pub const SINEW_PIN_TOP_LEFT: u32 = 1;
/// Grid pin flag: the top-right vertex (particle `columns - 1`).
pub const SINEW_PIN_TOP_RIGHT: u32 = 2;
/// Grid pin flag: the whole top row (particles `0..columns`).
pub const SINEW_PIN_TOP_EDGE: u32 = 4;

/// No tethers.
pub const SINEW_TETHER_NONE: u32 = 0;
/// Tethers by straight-line distance to the nearest pinned vertex of each of
/// the (up to 4) nearest groups of pinned vertices (default).
pub const SINEW_TETHER_EUCLIDEAN: u32 = 1;
/// Tethers by shortest path along the cloth's edges to the nearest pinned
/// vertex of each of the (up to 4) nearest pin groups: looser, right for
/// cloth that wraps around a character.
pub const SINEW_TETHER_GEODESIC: u32 = 2;

/// Bending by a stick across each interior edge (default).
pub const SINEW_BEND_DISTANCE: u32 = 0;
/// Bending by the dihedral angle across each interior edge: bends only,
/// folds sharper; `bend_compliance` is then in rad/(N m).
pub const SINEW_BEND_DIHEDRAL: u32 = 1;

/// Grid plane: the grid lies in its transform's local XY plane, +X along
/// columns, -Y along rows, facing +Z: a curtain (default).
pub const SINEW_GRID_PLANE_XY: u32 = 0;
/// Grid plane: the grid lies flat in its transform's local XZ plane, +X along
/// columns, +Z along rows, facing +Y: a tablecloth or a mat on the floor.
pub const SINEW_GRID_PLANE_XZ: u32 = 1;

/// A rectangular cloth. Fill from `sinew_default_cloth_grid_def()`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewClothGridDef {
    /// The grid lies in this frame's local XY plane, +X along columns, -Y
    /// along rows, origin at the top-left vertex (or in its XZ plane: see
    /// `plane`). Default: identity (a curtain hanging in the world XY plane,
    /// facing +Z).
    pub transform: SinewTransform,
    /// Vertices along X, >= 2; default 16.
    pub columns: u32,
    /// Vertices along Y, >= 2; default 16. Particle `r * columns + c` is
    /// column `c` of row `r`.
    pub rows: u32,
    /// Metres between neighbours, > 0; default 0.1.
    pub spacing: f32,
    /// Total mass, kg, > 0; default 1.
    pub mass: f32,
    /// XPBD compliance (m/N, >= 0) of the edges; default 0 (inextensible).
    pub stretch_compliance: f32,
    /// XPBD compliance of the quads' diagonals; default 1e-6.
    pub shear_compliance: f32,
    /// XPBD compliance of the bending sticks (distance-two neighbours);
    /// default 1e-3. Larger is floppier.
    pub bend_compliance: f32,
    /// `SINEW_BEND_*`; default `SINEW_BEND_DISTANCE`.
    pub bend_mode: u32,
    /// `SINEW_PIN_*` flags; default `SINEW_PIN_TOP_EDGE`.
    pub pin_flags: u32,
    /// `SINEW_TETHER_*`; default `SINEW_TETHER_EUCLIDEAN`. Tethers keep each
    /// free vertex within `tether_scale` times its rest distance from the
    /// nearest pinned vertex of each nearby pin group (pinned vertices joined
    /// by edges are one group: a pinned top edge is one, two pinned corners
    /// are two), so a cloth does not over-stretch under its weight.
    pub tether_mode: u32,
    /// At least 1; default 1.
    pub tether_scale: f32,
    /// Collision radius of the vertices, metres, >= 0; default 0.01.
    pub thickness: f32,
    /// Aerodynamic drag coefficient, >= 0; default 1.
    pub drag: f32,
    /// Aerodynamic lift coefficient, >= 0; default 0.3.
    pub lift: f32,
    /// Vertices keep `thickness` from this cloth's own triangles; default 0.
    pub self_collision: SinewBool,
    /// Vertices keep `thickness` from other cloths that also set this; default 0.
    pub cloth_collision: SinewBool,
    /// `SINEW_GRID_PLANE_*`: the plane of `transform` the grid lies in;
    /// default `SINEW_GRID_PLANE_XY`. `SINEW_GRID_PLANE_XZ` lays it flat
    /// (rows along +Z, facing +Y) with no rotation to work out.
    pub plane: u32,
    /// Set by `sinew_default_cloth_grid_def`; do not touch.
    pub internal_cookie: u32,
}

/// A cloth from an engine's triangle mesh. Fill from
/// `sinew_default_cloth_mesh_def()`, then set the arrays.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewClothMeshDef {
    /// The frame the vertices are given in; default identity.
    pub transform: SinewTransform,
    /// `vertex_count` positions in the frame above; read during the call only.
    pub vertices: *const SinewVec3,
    /// At least 1.
    pub vertex_count: u32,
    /// `3 * triangle_count` vertex indices, counter-clockwise seen from the
    /// front (the side normals point to).
    pub indices: *const u32,
    /// At least 1. Degenerate triangles (repeated or welded indices, no area)
    /// are dropped.
    pub triangle_count: u32,
    /// Vertices closer than this (metres, >= 0) become one particle, as a
    /// mesh split at UV seams needs; default 1e-5; 0 welds only equal positions.
    pub weld_tolerance: f32,
    /// `vertex_count` inverse masses (1/kg, >= 0, 0 pins), or NULL (default)
    /// to spread `mass` by area.
    pub inv_masses: *const f32,
    /// `vertex_count` bytes, non-zero pins the vertex, or NULL (default).
    pub pin_mask: *const u8,
    /// Total mass, kg, > 0; default 1 (ignored with `inv_masses`).
    pub mass: f32,
    /// XPBD compliance of the edges; default 0.
    pub stretch_compliance: f32,
    /// XPBD compliance of the sticks across interior edges; default 1e-3.
    pub bend_compliance: f32,
    /// `SINEW_BEND_*`; default `SINEW_BEND_DISTANCE`.
    pub bend_mode: u32,
    /// `SINEW_TETHER_*`; default `SINEW_TETHER_EUCLIDEAN`.
    pub tether_mode: u32,
    /// At least 1; default 1.
    pub tether_scale: f32,
    /// Collision radius, metres; default 0.01.
    pub thickness: f32,
    /// Drag coefficient; default 1.
    pub drag: f32,
    /// Lift coefficient; default 0.3.
    pub lift: f32,
    /// Self-collision; default 0.
    pub self_collision: SinewBool,
    /// Collision with other cloths; default 0.
    pub cloth_collision: SinewBool,
    /// Set by `sinew_default_cloth_mesh_def`; do not touch.
    pub internal_cookie: u32,
}

const GRID_COOKIE: u32 = 0x534E_4347; // "SNCG"
const MESH_COOKIE: u32 = 0x534E_434D; // "SNCM"

fn boolean(v: SinewBool, what: &str) -> Result<bool, Failure> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::invalid(format!("{what} must be 0 or 1, got {v}"))),
    }
}

/// The material fields both defs share, checked where they are enums or
/// booleans (the core checks the values).
macro_rules! options_of {
    ($d:expr, $shear:expr) => {
        ClothOptions {
            mass: $d.mass,
            stretch_compliance: $d.stretch_compliance,
            shear_compliance: $shear,
            bend_compliance: $d.bend_compliance,
            bend: bend_mode($d.bend_mode)?,
            tethers: tether_mode($d.tether_mode)?,
            tether_scale: $d.tether_scale,
            thickness: $d.thickness,
            drag: $d.drag,
            lift: $d.lift,
            self_collision: boolean($d.self_collision, "self_collision")?,
            cloth_collision: boolean($d.cloth_collision, "cloth_collision")?,
        }
    };
}

fn bend_mode(v: u32) -> Result<BendMode, Failure> {
    BendMode::from_u32(v).ok_or_else(|| Failure::invalid(format!("bend_mode {v} is not a SINEW_BEND_* value")))
}

fn tether_mode(v: u32) -> Result<TetherMode, Failure> {
    TetherMode::from_u32(v).ok_or_else(|| Failure::invalid(format!("tether_mode {v} is not a SINEW_TETHER_* value")))
}

/// The default grid def (see the field docs), with its cookie. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_cloth_grid_def() -> SinewClothGridDef {
    let d = GridDef::default();
    let o = d.options;
    SinewClothGridDef {
        transform: SinewTransform { position: d.position.into(), rotation: d.rotation.into() },
        columns: d.columns,
        rows: d.rows,
        spacing: d.spacing,
        mass: o.mass,
        stretch_compliance: o.stretch_compliance,
        shear_compliance: o.shear_compliance,
        bend_compliance: o.bend_compliance,
        bend_mode: o.bend as u32,
        pin_flags: d.pins,
        tether_mode: o.tethers as u32,
        tether_scale: o.tether_scale,
        thickness: o.thickness,
        drag: o.drag,
        lift: o.lift,
        self_collision: o.self_collision as SinewBool,
        cloth_collision: o.cloth_collision as SinewBool,
        plane: SINEW_GRID_PLANE_XY,
        internal_cookie: GRID_COOKIE,
    }
}

/// Creates a rectangular cloth (a body of kind cloth; every `sinew_body_*`
/// call applies to it).
///
/// - `def`: from `sinew_default_cloth_grid_def()`, read during the call only.
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a def without its cookie
/// (zero-initialised), columns or rows < 2, spacing <= 0, mass <= 0, NaN/inf,
/// negative compliances, unknown pin bits, bend or tether mode or plane, tether_scale < 1;
/// `LIMIT_EXCEEDED` (the world's `max_particles`, `max_bodies`,
/// `max_constraints`: its sticks, bends and tethers). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_create_grid(
    world: *mut SinewWorld,
    def: *const SinewClothGridDef,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_create_grid", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let grid = grid_def_of(d)?;
        let id = world.write(|w| Ok(w.create_cloth_grid(&grid)?))?;
        *out = id.into();
        Ok(())
    })
}

/// The default mesh def (see the field docs; the arrays are NULL and the
/// counts 0, to be set), with its cookie. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_cloth_mesh_def() -> SinewClothMeshDef {
    let o = ClothOptions::default();
    SinewClothMeshDef {
        transform: SinewTransform { position: Vec3::ZERO.into(), rotation: crate::Quat::IDENTITY.into() },
        vertices: std::ptr::null(),
        vertex_count: 0,
        indices: std::ptr::null(),
        triangle_count: 0,
        weld_tolerance: 1e-5,
        inv_masses: std::ptr::null(),
        pin_mask: std::ptr::null(),
        mass: o.mass,
        stretch_compliance: o.stretch_compliance,
        bend_compliance: o.bend_compliance,
        bend_mode: o.bend as u32,
        tether_mode: o.tethers as u32,
        tether_scale: o.tether_scale,
        thickness: o.thickness,
        drag: o.drag,
        lift: o.lift,
        self_collision: 0,
        cloth_collision: 0,
        internal_cookie: MESH_COOKIE,
    }
}

/// Creates a cloth from a triangle mesh: welds vertices within
/// `weld_tolerance` into particles (keeping a map, so
/// `sinew_cloth_write_vertices` writes per original vertex), builds stretch
/// sticks on the edges, bending sticks across interior edges and tethers from
/// the pinned vertices. A welded particle takes the smallest inverse mass of
/// its vertices and is pinned when any of them is.
///
/// Errors: `NULL_ARGUMENT` (def, out_body, or a required array); `INVALID_ARGUMENT`
/// for a def without its cookie, no vertices or triangles, an index out of
/// range, NaN/inf, negative values, every triangle degenerate;
/// `LIMIT_EXCEEDED` (the world's `max_particles`, `max_bodies`,
/// `max_constraints`: its sticks, bends and tethers). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_create(
    world: *mut SinewWorld,
    def: *const SinewClothMeshDef,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_create", { create_mesh(world, def, out_body, None) })
}

/// `sinew_cloth_create` and its `_d` sibling (`at`: the position that
/// takes the def's place, in double precision).
pub(super) fn create_mesh(
    world: *mut SinewWorld,
    def: *const SinewClothMeshDef,
    out_body: *mut SinewBodyId,
    at: Option<crate::DVec3>,
) -> Result<(), Failure> {
    // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
    let world = unsafe { world_ref(world) }?;
    // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
    let d = unsafe { checked_ref(def, "def") }?;
    // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
    let out = unsafe { checked_out(out_body, "out_body") }?;
    if d.internal_cookie != MESH_COOKIE {
        return Err(Failure::invalid("def was not made by sinew_default_cloth_mesh_def() (zero-initialised?)"));
    }
    let n = d.vertex_count as usize;
    // SAFETY: `d.vertices` is NULL or valid for reads of `n` elements (the `ffi` contract).
    let vertices = unsafe { checked_slice(d.vertices, n, "def.vertices") }?;
    let triangles =
        (d.triangle_count as usize).checked_mul(3).ok_or_else(|| Failure::invalid("triangle_count is too large"))?;
    // SAFETY: `d.indices` is NULL or valid for reads of `triangles` elements (the `ffi` contract).
    let indices = unsafe { checked_slice(d.indices, triangles, "def.indices") }?;
    let inv_masses = if d.inv_masses.is_null() {
        None
    } else {
        // SAFETY: `d.inv_masses` is NULL or valid for reads of `n` elements (the `ffi` contract).
        Some(unsafe { checked_slice(d.inv_masses, n, "def.inv_masses") }?)
    };
    let pinned: Option<Vec<bool>> = if d.pin_mask.is_null() {
        None
    } else {
        // SAFETY: `d.pin_mask` is NULL or valid for reads of `n` elements (the `ffi` contract).
        Some(unsafe { checked_slice(d.pin_mask, n, "def.pin_mask") }?.iter().map(|&b| b != 0).collect())
    };
    let vertices: Vec<Vec3> = vertices.iter().map(|&v| v.into()).collect();
    let triangles: Vec<[u32; 3]> = indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
    let mesh = MeshDef {
        position: d.transform.position.into(),
        rotation: d.transform.rotation.into(),
        vertices: &vertices,
        triangles: &triangles,
        weld_tolerance: d.weld_tolerance,
        inv_masses,
        pinned: pinned.as_deref(),
        options: options_of!(d, 0.0),
    };
    let id = world.write(|w| match at {
        None => Ok(w.create_cloth_mesh(&mesh)?),
        Some(at) => Ok(w.create_cloth_mesh_f64(&mesh, at)?),
    })?;
    *out = id.into();
    Ok(())
}

/// Copies a cloth's vertex normals into `out`: one unit vector per particle
/// (the order of `sinew_body_read_positions`), area-weighted over the
/// incident triangles, on the side from which the triangles wind
/// counter-clockwise (a grid's local +Z at rest). Readback protocol of
/// `sinew_body_read_positions`.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a cloth),
/// `BUFFER_TOO_SMALL`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_read_normals(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut SinewVec3,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_read_normals", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { super::boundary::optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let normals = w.cloth_normals(body.into())?;
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, normals.into_iter().map(SinewVec3::from)) }
        })
    })
}

/// The number of vertices the engine gave (before welding); a grid's is its
/// particle count.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_vertex_count(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_vertex_count", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = world.read(|w| Ok(w.cloth_vertex_count(body.into())?))?;
        Ok(())
    })
}

/// Copies the particle index of each engine vertex (before welding) into
/// `out`; readback protocol of `sinew_body_read_positions`.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `BUFFER_TOO_SMALL`.
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_read_vertex_map(
    world: *const SinewWorld,
    body: SinewBodyId,
    out: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_read_vertex_map", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { super::boundary::optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let map = w.cloth_vertex_map(body.into())?;
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, map.iter().copied()) }
        })
    })
}

/// Writes a cloth's positions and normals per engine vertex (before welding)
/// straight into a vertex buffer: vertex `k`'s position (3 floats) at
/// `positions + k * position_stride` bytes and its normal at
/// `normals + k * normal_stride`. Interleaved layouts pass the same buffer
/// with an offset (`normals = positions + 12`, both strides 24); separate
/// streams pass stride 12. Either pointer may be NULL to skip it; no
/// alignment is required. `capacity` is in vertices;
/// `positions == NULL && normals == NULL && capacity == 0` asks for the count.
/// A too small capacity writes nothing and returns `BUFFER_TOO_SMALL` with
/// the count in `*out_count` (which may be NULL).
///
/// Errors: `NULL_ARGUMENT` (world; both buffers NULL with a non-zero
/// capacity), `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT` (a stride below 12,
/// or so large the buffer would pass the address space), `BUFFER_TOO_SMALL`.
/// Threading: read lock.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_cloth_write_vertices(
    world: *const SinewWorld,
    body: SinewBodyId,
    positions: *mut u8,
    position_stride: usize,
    normals: *mut u8,
    normal_stride: usize,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_write_vertices", {
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe {
            write_vertices(world, body, (positions, position_stride), (normals, normal_stride), capacity, out_count, {
                |w: &World, b: &Body, i: usize| w.world_position(b, i).to_array()
            })
        }
    })
}

/// `sinew_cloth_write_vertices` and its `_d` twin: each engine vertex's
/// position, `position_of(world, body, particle)` (an array of 3 floats or
/// doubles, its size the least position stride), and normal (3 floats).
///
/// # Safety
/// The `ffi` contract of `sinew_cloth_write_vertices`.
pub(super) unsafe fn write_vertices<P: Copy>(
    world: *const SinewWorld,
    body: SinewBodyId,
    (positions, position_stride): (*mut u8, usize),
    (normals, normal_stride): (*mut u8, usize),
    capacity: u32,
    out_count: *mut u32,
    position_of: impl Fn(&World, &Body, usize) -> P,
) -> Result<(), Failure> {
    // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
    let world = unsafe { world_ref(world) }?;
    // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
    let out_count = unsafe { super::boundary::optional_out(out_count, "out_count") }?;
    for (p, stride, least, what) in
        [(positions, position_stride, size_of::<P>(), "position_stride"), (normals, normal_stride, 12, "normal_stride")]
    {
        if !p.is_null() {
            if stride < least {
                return Err(Failure::invalid(format!("{what} must be >= {least} bytes, got {stride}")));
            }
            if stride.checked_mul(capacity as usize).is_none_or(|b| b > isize::MAX as usize) {
                return Err(Failure::invalid(format!("{what} * capacity overflows")));
            }
        }
    }
    world.read(|w| {
        let id = BodyId::from(body);
        let (b, cloth) = w.cloth(id)?;
        let n = cloth.vertex_map.len();
        if positions.is_null() && normals.is_null() && capacity != 0 {
            return Err(Failure::null("positions and normals (with a non-zero capacity)"));
        }
        // The count, on success and with `BUFFER_TOO_SMALL` only.
        if let Some(c) = out_count {
            *c = n as u32;
        }
        if positions.is_null() && normals.is_null() {
            return Ok(());
        }
        if (capacity as usize) < n {
            return Err(Failure::new(
                SINEW_RESULT_BUFFER_TOO_SMALL,
                format!("the buffer holds {capacity} vertices, {n} are needed"),
            ));
        }
        if !positions.is_null() {
            for (k, &i) in cloth.vertex_map.iter().enumerate() {
                // SAFETY: the caller provides `capacity >= n` elements of
                // `position_stride >= size_of::<P>()` bytes at `positions`;
                // the product was checked above.
                unsafe { (positions.add(k * position_stride) as *mut P).write_unaligned(position_of(w, b, i as usize)) }
            }
        }
        if !normals.is_null() {
            let nv = w.cloth_normals(id)?;
            for (k, &i) in cloth.vertex_map.iter().enumerate() {
                // SAFETY: as for the positions, with `normal_stride >= 12`.
                unsafe { (normals.add(k * normal_stride) as *mut [f32; 3]).write_unaligned(nv[i as usize].to_array()) }
            }
        }
        Ok(())
    })
}

/// The world-space axis-aligned box around a body's particles, grown by its
/// particle radius (a cloth's thickness): what an engine sets as the mesh's
/// culling bounds. Either output may be NULL.
///
/// Errors: `NULL_ARGUMENT` (world), `INVALID_ID`. Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_body_get_bounds(
    world: *const SinewWorld,
    body: SinewBodyId,
    out_min: *mut SinewVec3,
    out_max: *mut SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_body_get_bounds", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_min` is NULL or valid for writes (the `ffi` contract).
        let lo = unsafe { super::boundary::optional_out(out_min, "out_min") }?;
        // SAFETY: `out_max` is NULL or valid for writes (the `ffi` contract).
        let hi = unsafe { super::boundary::optional_out(out_max, "out_max") }?;
        let (a, b) = world.read(|w| Ok(w.body_bounds(body.into())?))?;
        if let Some(lo) = lo {
            *lo = a.into();
        }
        if let Some(hi) = hi {
            *hi = b.into();
        }
        Ok(())
    })
}

/// Sets this cloth's own wind (m/s), added to the world's.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (NaN/inf). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_wind(
    world: *mut SinewWorld,
    body: SinewBodyId,
    wind: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_wind", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_cloth_wind(body.into(), wind.into())?))
    })
}

/// Sets a cloth's drag and lift coefficients (>= 0).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_aerodynamics(
    world: *mut SinewWorld,
    body: SinewBodyId,
    drag: f32,
    lift: f32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_aerodynamics", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_cloth_aerodynamics(body.into(), drag, lift)?))
    })
}

/// Sets a live cloth's XPBD compliances (m/N, each finite and >= 0), from
/// the next step on: `stretch` for its edges, `shear` for a grid's
/// diagonals (a mesh cloth has none), `bend` for its bending sticks or
/// dihedral angles, as `stretch_compliance`, `shear_compliance` and
/// `bend_compliance` of its creation def. The cloth then steps exactly as
/// one created with these values; `sinew_world_snapshot` keeps them. Wakes
/// the cloth. The world keeps nothing of the caller's.
///
/// Errors (nothing is changed): `NULL_ARGUMENT` (`world` is NULL),
/// `INVALID_ID` (a destroyed or foreign body), `WRONG_KIND` (not a cloth),
/// `INVALID_ARGUMENT` (NaN, inf or negative; or a cloth given more sticks
/// with `sinew_body_add_distance_constraints`, whose kinds it no longer
/// knows). Threading: write lock (not during a step or a callback).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_compliance(
    world: *mut SinewWorld,
    body: SinewBodyId,
    stretch: f32,
    shear: f32,
    bend: f32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_compliance", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_cloth_compliance(body.into(), stretch, shear, bend)?))
    })
}

/// Turns a cloth's self-collision and its collision with other cloths on (1)
/// or off (0).
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (a flag other than 0 or 1). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_collision(
    world: *mut SinewWorld,
    body: SinewBodyId,
    self_collision: SinewBool,
    cloth_collision: SinewBool,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_collision", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let (s, c) = (boolean(self_collision, "self_collision")?, boolean(cloth_collision, "cloth_collision")?);
        world.write(|w| Ok(w.set_cloth_collision(body.into(), s, c)?))
    })
}

/// Sets the skinned pose of a character cloth for the end of the next step
/// (interpolated across its substeps): per engine vertex (the mesh's
/// vertices, before welding), the position the animation puts it at and the
/// surface normal pointing out of the body it covers. Max distances and
/// backstops (`sinew_cloth_set_max_distances`) are measured from it. Call it
/// every frame after animation; the first call starts the skin where it is.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (count differs from `sinew_cloth_vertex_count`, NaN/inf, a zero normal).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_skin(
    world: *mut SinewWorld,
    body: SinewBodyId,
    positions: *const SinewVec3,
    normals: *const SinewVec3,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_skin", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `positions` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let p = unsafe { checked_slice(positions, count as usize, "positions") }?;
        // SAFETY: `normals` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let n = unsafe { checked_slice(normals, count as usize, "normals") }?;
        let p: Vec<Vec3> = p.iter().map(|&v| v.into()).collect();
        let n: Vec<Vec3> = n.iter().map(|&v| v.into()).collect();
        world.write(|w| Ok(w.set_cloth_skin(body.into(), &p, &n)?))
    })
}

/// Sets, per engine vertex, how far a cloth particle may move from its
/// skinned position (`max_distances`, metres, >= 0; `INFINITY` = no limit;
/// 0 = skinned rigidly) and how far behind the skinned surface it may go
/// (`backstops`, metres, >= 0, or NULL for none): a cape never passes into
/// the character. Needs a skin (`sinew_cloth_set_skin`) first. Welded
/// vertices take the smallest value. A pinned vertex (a pin flag, a pin mask,
/// inverse mass 0) with a finite max distance follows its skinned position
/// exactly, overriding a frame it is attached to; one with `INFINITY` stays
/// where its pin or frame puts it.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `INVALID_ARGUMENT`
/// (no skin yet, count differs from the vertex count, NaN or negative).
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_cloth_set_max_distances(
    world: *mut SinewWorld,
    body: SinewBodyId,
    max_distances: *const f32,
    backstops: *const f32,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_cloth_set_max_distances", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `max_distances` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let m = unsafe { checked_slice(max_distances, count as usize, "max_distances") }?;
        let b = if backstops.is_null() {
            None
        } else {
            // SAFETY: `backstops` is NULL or valid for reads of `count` elements (the `ffi` contract).
            Some(unsafe { checked_slice(backstops, count as usize, "backstops") }?)
        };
        world.write(|w| Ok(w.set_cloth_max_distances(body.into(), m, b)?))
    })
}

/// The core def a C grid def describes (its values are checked by the core).
pub(super) fn grid_def_of(d: &SinewClothGridDef) -> Result<GridDef, Failure> {
    if d.internal_cookie != GRID_COOKIE {
        return Err(Failure::invalid("def was not made by sinew_default_cloth_grid_def() (zero-initialised?)"));
    }
    let grid = GridDef {
        position: d.transform.position.into(),
        rotation: d.transform.rotation.into(),
        columns: d.columns,
        rows: d.rows,
        spacing: d.spacing,
        pins: d.pin_flags,
        options: options_of!(d, d.shear_compliance),
    };
    let grid = match d.plane {
        SINEW_GRID_PLANE_XY => grid,
        SINEW_GRID_PLANE_XZ => grid.in_xz_plane(),
        v => return Err(Failure::invalid(format!("plane {v} is not a SINEW_GRID_PLANE_* value"))),
    };
    Ok(grid)
}
