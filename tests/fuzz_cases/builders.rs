//! `builders`: colliders (box, sphere, capsule, convex hull, plane, triangle
//! mesh, heightfield, compound), mesh cloth, rigid bodies and ragdolls built
//! through the C API from definitions the fuzzer's bytes fill in, into a
//! world where a small cloth falls on whatever is built. Every call returns
//! a defined code (no panic, caught or not); a refused one changes nothing;
//! after an accepted one the world steps; at the end its positions are
//! finite and its snapshot restores into a world that steps on alike.
//!
//! Values are drawn mostly on a coarse grid near the origin (so meshes,
//! hulls and skeletons are often valid and get built and stepped) and now
//! and then from the hostile set of the call grammar (NaN, infinities, huge).
//!
//! SAFETY, for every `unsafe` block in this file: the world is from
//! `sinew_world_create` and destroyed once at the end; every pointer in a
//! def is NULL or points into a vector held in [`Keep`] until the call
//! returns, holding at least the count the def claims.

use super::ffi_calls::{Rng, State, check_world, defined, hash, last_error};
use sinew::ffi::*;
use std::ffi::CStr;
use std::ptr;

/// Builds per input.
const MAX_BUILDS: usize = 6;

/// Buffers a def points into, kept alive until its call returns.
#[derive(Default)]
struct Keep {
    vecs: Vec<Vec<SinewVec3>>,
    u32s: Vec<Vec<u32>>,
    f32s: Vec<Vec<f32>>,
    bytes: Vec<Vec<u8>>,
    defs: Vec<Vec<SinewColliderDef>>,
}

impl Keep {
    /// A pointer to `v`'s data (NULL now and then when `v` is not empty, to
    /// check that a missing array is refused).
    fn vecs(&mut self, v: Vec<SinewVec3>, rng: &mut Rng) -> *const SinewVec3 {
        let p = if !v.is_empty() && rng.chance(32) { ptr::null() } else { v.as_ptr() };
        self.vecs.push(v);
        p
    }
    fn u32s(&mut self, v: Vec<u32>) -> *const u32 {
        let p = v.as_ptr();
        self.u32s.push(v);
        p
    }
    fn f32s(&mut self, v: Vec<f32>) -> *const f32 {
        let p = v.as_ptr();
        self.f32s.push(v);
        p
    }
}

/// A coordinate: usually on a 1/32 m grid within 4 m of the origin.
fn coord(rng: &mut Rng) -> f32 {
    if rng.chance(16) { rng.float() } else { (rng.below(256) as f32 - 128.0) / 32.0 }
}

/// A size, mass or coefficient: usually in [0, 4) on a 1/64 grid.
fn amount(rng: &mut Rng) -> f32 {
    if rng.chance(16) { rng.float() } else { rng.below(256) as f32 / 64.0 }
}

fn point(rng: &mut Rng) -> SinewVec3 {
    SinewVec3 { x: coord(rng), y: coord(rng), z: coord(rng) }
}

fn extents(rng: &mut Rng) -> SinewVec3 {
    SinewVec3 { x: amount(rng), y: amount(rng), z: amount(rng) }
}

/// A unit rotation, now and then a hostile quaternion.
fn rotation(rng: &mut Rng) -> SinewQuat {
    if rng.chance(8) { rng.quat() } else { rng.sane_transform().rotation }
}

fn transform(rng: &mut Rng) -> SinewTransform {
    SinewTransform { position: point(rng), rotation: rotation(rng) }
}

/// How many points: usually a few, now and then past the hull's limit.
fn point_count(rng: &mut Rng) -> usize {
    if rng.chance(32) { 250 + rng.below(10) as usize } else { rng.below(24) as usize }
}

fn material(rng: &mut Rng) -> SinewMaterial {
    if rng.chance(4) {
        SinewMaterial {
            friction: amount(rng),
            dynamic_friction: amount(rng),
            restitution: amount(rng) / 4.0,
            combine: rng.below(6) as u32,
        }
    } else {
        sinew_default_collider_def().material
    }
}

/// A collider def of any shape; compounds get children (nested ones, which
/// are refused, while `depth` allows).
fn collider_def(rng: &mut Rng, keep: &mut Keep, depth: u32) -> SinewColliderDef {
    let mut def = sinew_default_collider_def();
    if rng.chance(64) {
        def.internal_cookie = 0;
    }
    def.shape = if rng.chance(16) { rng.small() } else { rng.below(8) as u32 };
    def.transform = transform(rng);
    def.material = material(rng);
    match def.shape {
        SINEW_SHAPE_BOX => def.half_extents = extents(rng),
        SINEW_SHAPE_SPHERE => def.radius = amount(rng),
        SINEW_SHAPE_CAPSULE => (def.radius, def.half_height) = (amount(rng), amount(rng)),
        SINEW_SHAPE_PLANE => (def.normal, def.offset) = (point(rng), coord(rng)),
        SINEW_SHAPE_CONVEX | SINEW_SHAPE_MESH => {
            let n = point_count(rng);
            let points: Vec<SinewVec3> = (0..n).map(|_| point(rng)).collect();
            def.point_count = n as u32;
            def.points = keep.vecs(points, rng);
            if def.shape == SINEW_SHAPE_MESH {
                // Indices mostly in range, one past the end now and then.
                let count = rng.below(48) as usize;
                let indices: Vec<u32> = (0..count).map(|_| rng.below(n as u64 + 1) as u32).collect();
                def.index_count = count as u32;
                def.indices = keep.u32s(indices);
            }
        }
        SINEW_SHAPE_HEIGHTFIELD => {
            (def.columns, def.rows) = (rng.below(9) as u32, rng.below(9) as u32);
            // As many heights as columns x rows: the C API cannot check a
            // shorter array (a caller that lies about a size is outside the
            // contract).
            let n = (def.columns * def.rows) as usize;
            let heights: Vec<f32> = (0..n).map(|_| coord(rng)).collect();
            def.heights = keep.f32s(heights);
            (def.cell_size_x, def.cell_size_z) = (amount(rng), amount(rng));
        }
        SINEW_SHAPE_COMPOUND if depth > 0 => {
            let n = rng.below(4) as usize;
            let children: Vec<SinewColliderDef> = (0..n).map(|_| collider_def(rng, keep, depth - 1)).collect();
            def.child_count = n as u32;
            def.children = if n > 0 && rng.chance(32) { ptr::null() } else { children.as_ptr() };
            keep.defs.push(children);
        }
        _ => {}
    }
    def
}

/// A mesh cloth: random triangles over a few vertices (often non-manifold:
/// edges shared by three triangles, repeated corners), or a grid sheet.
fn cloth_def(rng: &mut Rng, keep: &mut Keep) -> SinewClothMeshDef {
    let mut def = sinew_default_cloth_mesh_def();
    if rng.chance(64) {
        def.internal_cookie = 0;
    }
    let (vertices, indices) = if rng.chance(2) {
        let side = 2 + rng.below(5) as u32;
        let mut verts: Vec<SinewVec3> = (0..side * side)
            .map(|k| SinewVec3 { x: (k % side) as f32 * 0.2, y: 0.0, z: (k / side) as f32 * 0.2 })
            .collect();
        let mut indices = Vec::new();
        for r in 0..side - 1 {
            for c in 0..side - 1 {
                let k = r * side + c;
                indices.extend_from_slice(&[k, k + 1, k + side, k + 1, k + side + 1, k + side]);
            }
        }
        // A few vertices moved, a few indices changed.
        for _ in 0..rng.below(3) {
            let at = rng.below(verts.len() as u64) as usize;
            verts[at] = point(rng);
        }
        for _ in 0..rng.below(3) {
            let at = rng.below(indices.len() as u64) as usize;
            indices[at] = rng.below(verts.len() as u64 + 1) as u32;
        }
        (verts, indices)
    } else {
        let n = 3 + rng.below(30) as usize;
        let verts: Vec<SinewVec3> = (0..n).map(|_| point(rng)).collect();
        let count = 3 * rng.below(16) as usize;
        let indices: Vec<u32> = (0..count).map(|_| rng.below(n as u64 + 1) as u32).collect();
        (verts, indices)
    };
    let n = vertices.len();
    def.vertex_count = n as u32;
    def.triangle_count = (indices.len() / 3) as u32;
    def.vertices = keep.vecs(vertices, rng);
    def.indices = keep.u32s(indices);
    if rng.chance(3) {
        let inv: Vec<f32> = (0..n).map(|_| if rng.chance(4) { amount(rng) } else { 1.0 }).collect();
        def.inv_masses = keep.f32s(inv);
    }
    if rng.chance(2) {
        let pins: Vec<u8> = (0..n).map(|_| rng.below(4) as u8 / 2).collect();
        def.pin_mask = pins.as_ptr();
        keep.bytes.push(pins);
    }
    def.transform = SinewTransform { position: SinewVec3 { x: 0.0, y: 1.5, z: 0.0 }, ..transform(rng) };
    if rng.chance(2) {
        (def.weld_tolerance, def.mass, def.tether_scale) = (amount(rng) / 16.0, amount(rng), amount(rng));
        (def.stretch_compliance, def.bend_compliance) = (amount(rng) / 64.0, amount(rng) / 64.0);
        (def.bend_mode, def.tether_mode) = (rng.below(4) as u32, rng.below(4) as u32);
        (def.thickness, def.drag, def.lift) = (amount(rng) / 16.0, amount(rng), amount(rng));
        (def.self_collision, def.cloth_collision) = (rng.below(3) as u32, rng.below(3) as u32);
    }
    def
}

fn rigid_def(rng: &mut Rng, keep: &mut Keep) -> SinewRigidDef {
    let mut def = sinew_default_rigid_def();
    if rng.chance(64) {
        def.internal_cookie = 0;
    }
    def.shape = if rng.chance(16) { rng.small() } else { rng.below(4) as u32 };
    def.model = if rng.chance(16) { rng.small() } else { rng.below(2) as u32 };
    def.transform = transform(rng);
    def.half_extents = extents(rng);
    (def.radius, def.half_height) = (amount(rng), amount(rng));
    if def.shape == SINEW_SHAPE_CONVEX {
        let n = point_count(rng);
        let points: Vec<SinewVec3> = (0..n).map(|_| point(rng)).collect();
        def.point_count = n as u32;
        def.points = keep.vecs(points, rng);
    }
    if rng.chance(2) {
        (def.mass, def.stiffness) = (amount(rng), amount(rng) / 4.0);
        (def.particle_radius, def.friction) = (amount(rng) / 16.0, amount(rng));
    }
    def
}

/// A skeleton: a tree of bones (parents before children, usually), each a
/// short offset from its parent, with hostile fields now and then.
fn bones(rng: &mut Rng) -> Vec<SinewBoneDef> {
    const NAMES: [&CStr; 5] = [c"pelvis", c"bone", c"bone", c"\xc3\x28", c""];
    let n = if rng.chance(64) { 1025 } else { rng.below(12) as usize };
    let mut bones: Vec<SinewBoneDef> = Vec::with_capacity(n);
    for b in 0..n {
        let mut bone = sinew_default_bone_def();
        bone.parent = match (b, rng.chance(16)) {
            (0, false) => -1,
            (_, false) => rng.below(b as u64) as i32,
            (_, true) => [-2, b as i32, b as i32 + 1, i32::MAX][rng.below(4) as usize],
        };
        let from = if b == 0 || bone.parent < 0 || bone.parent as usize >= b {
            SinewVec3 { x: 0.0, y: 1.0, z: 0.0 }
        } else {
            bones[bone.parent as usize].rest.position
        };
        let d = point(rng);
        let s = 0.125;
        bone.rest = SinewTransform {
            position: SinewVec3 { x: from.x + d.x * s, y: from.y + d.y * s, z: from.z + d.z * s },
            rotation: rotation(rng),
        };
        if rng.chance(2) {
            (bone.length, bone.radius, bone.mass) = (amount(rng) / 4.0, amount(rng) / 16.0, amount(rng));
        }
        bone.limit_type = if rng.chance(16) { rng.small() } else { rng.below(2) as u32 };
        if rng.chance(2) {
            (bone.swing, bone.twist_min, bone.twist_max) = (coord(rng), coord(rng), coord(rng));
            (bone.hinge_axis, bone.hinge_min, bone.hinge_max) = (point(rng), coord(rng), coord(rng));
        }
        if rng.chance(4) {
            bone.name = NAMES[rng.below(5) as usize].as_ptr();
        }
        bones.push(bone);
    }
    bones
}

/// One build; returns its code and the body made, if any.
fn build(w: *mut SinewWorld, rng: &mut Rng) -> (SinewResult, Option<SinewBodyId>) {
    let mut keep = Keep::default();
    let mut body = SinewBodyId::default();
    let mut collider = SinewColliderId::default();
    unsafe {
        match rng.below(5) {
            0 | 1 => {
                let def = collider_def(rng, &mut keep, 2);
                (sinew_collider_create(w, &def, &mut collider), None)
            }
            2 => {
                let def = cloth_def(rng, &mut keep);
                (sinew_cloth_create(w, &def, &mut body), Some(body))
            }
            3 => {
                let def = rigid_def(rng, &mut keep);
                (sinew_rigid_create(w, &def, &mut body), Some(body))
            }
            _ => {
                if rng.chance(8) {
                    let height = amount(rng);
                    return (sinew_ragdoll_create_humanoid(w, transform(rng), height, &mut body), Some(body));
                }
                let bones = bones(rng);
                let mut def = sinew_default_ragdoll_def();
                def.bones = if !bones.is_empty() && rng.chance(32) { ptr::null() } else { bones.as_ptr() };
                def.bone_count = bones.len() as u32;
                if rng.chance(64) {
                    def.internal_cookie = 0;
                }
                (sinew_ragdoll_create(w, &def, &mut body), Some(body))
            }
        }
    }
}

pub fn run(data: &[u8]) {
    let mut rng = Rng::from_bytes(data);
    // At most one shape-matched lattice of the largest size (1,736
    // particles): two or three of them spawned inside each other make a step
    // take seconds (contacts between bodies, found by this target; not a
    // crash, a cost to fix with the pile-ups of issue 25), and a fuzzer
    // needs inputs that run in milliseconds.
    let def = SinewWorldDef { max_particles: 2_500, max_constraints: 16_000, ..sinew_default_world_def() };
    let mut w = ptr::null_mut();
    let mut s = State::default();
    unsafe {
        assert_eq!(sinew_world_create(&def, &mut w), SINEW_RESULT_OK);
        // A floor below everything, and a small cloth that falls on what is built.
        let mut floor = SinewColliderId::default();
        let up = SinewVec3 { x: 0.0, y: 1.0, z: 0.0 };
        assert_eq!(sinew_collider_create_plane(w, up, -3.0, 0.5, &mut floor), SINEW_RESULT_OK);
        let mut grid = sinew_default_cloth_grid_def();
        (grid.columns, grid.rows, grid.spacing, grid.pin_flags) = (5, 5, 0.4, 0);
        grid.plane = SINEW_GRID_PLANE_XZ;
        grid.transform.position = SinewVec3 { x: -1.0, y: 2.0, z: -1.0 };
        let mut cloth = SinewBodyId::default();
        assert_eq!(sinew_cloth_create_grid(w, &grid, &mut cloth), SINEW_RESULT_OK);
        s.bodies.push(cloth);
    }
    for k in 0..MAX_BUILDS {
        if rng.exhausted() {
            break;
        }
        let before = hash(w);
        let (code, body) = build(w, &mut rng);
        assert!(defined(code), "build {k} returned {code}: {}", last_error());
        if code != SINEW_RESULT_OK {
            assert_eq!(hash(w), before, "build {k} returned {code} but changed the world");
            continue;
        }
        s.bodies.extend(body);
        for _ in 0..2 {
            let r = unsafe { sinew_world_step(w, 1.0 / 60.0) };
            assert_eq!(r, SINEW_RESULT_OK, "after build {k}: {}", last_error());
        }
    }
    if let Err(e) = check_world(w, &s) {
        panic!("after the builds: {e}");
    }
    unsafe { sinew_world_destroy(w) };
}
