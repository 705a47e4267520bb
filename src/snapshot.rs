//! Snapshots and the state hash: one serialisation, two sinks.
//!
//! The image is little-endian:
//!
//! ```text
//! magic "SNEW" | format u32 | payload length u64 | FNV-1a-64 of payload | payload
//! payload: settings, clocks, body pool (slots, bodies, free list),
//!          particle store, collider pool (slots, colliders, free list),
//!          joint pool (slots, joints, free list),
//!          tagged extensions (max_constraints, ignored bones, cloth sides)
//! ```
//!
//! Reading validates everything (counts against the bytes left, indices,
//! ranges, finiteness) into a new [`World`], so a refused image changes
//! nothing. The state hash streams the same payload through FNV-1a without
//! building it.

use crate::body::{Body, BodyKind, Made};
use crate::cloth::build::{BendMode, ClothOptions, GridDef, TetherMode};
use crate::cloth::{Cloth, MeshRecipe, Recipe};
use crate::collision::{
    Collider, ColliderShape, CollisionStick, Combine, CompoundChild, Filter, Material, checked_transform,
};
use crate::constraints::angle_limit::Limit;
use crate::constraints::bend::BendSet;
use crate::constraints::distance::{DistanceMethod, DistanceSet};
use crate::constraints::frame::FrameAttachment;
use crate::constraints::joint::Joint;
use crate::constraints::skin::SkinSet;
use crate::constraints::target::TargetSet;
use crate::constraints::tether::TetherSet;
use crate::error::{Error, Result};
use crate::hash::{Fnv64, fnv64};
use crate::particles::{LANES, Particles, padded};
use crate::pool::{BodyId, ColliderId};
use crate::pool::{Pool, Slot};
use crate::ragdoll::motor::Motors;
use crate::ragdoll::{BoneDef, Ragdoll, RagdollDef, Skeleton};
use crate::rigid::{RigidDef, RigidModel, RigidShape};
use crate::world::{World, WorldSettings};
use glam::{Quat, Vec3};
use std::sync::Arc;

const MAGIC: &[u8; 4] = b"SNEW";
/// Bumped whenever the payload layout changes.
pub(crate) const FORMAT_VERSION: u32 = 4;
const HEADER: usize = 4 + 4 + 8 + 8;
/// Tag of the `max_constraints` extension after the joints.
const EXT_MAX_CONSTRAINTS: u32 = 1;
/// Tag of the list of bones bodies pass through (`World::set_ignored_bones`).
const EXT_IGNORED_BONES: u32 = 2;
/// Tag of the cloths' side memory (`cloth::self_collision::Side`).
const EXT_CLOTH_SIDES: u32 = 3;
/// Tag of the grid points colliders placed in `f64` are kept relative to
/// (`Collider::origin`).
const EXT_COLLIDER_ORIGINS: u32 = 4;

/// Where the payload goes: a byte vector or a hasher.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
    /// Whether id generations are written. They are process-wide unique, so
    /// twin worlds built alike have different ones; they decide nothing about
    /// the future, and the state hash leaves them out.
    fn with_generations(&self) -> bool {
        true
    }
    fn u32(&mut self, v: u32) {
        self.put(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.put(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    fn len(&mut self, n: usize) {
        self.u32(n as u32);
    }
    fn u32s(&mut self, vs: &[u32]) {
        self.len(vs.len());
        vs.iter().for_each(|&v| self.u32(v));
    }
    fn f32s(&mut self, vs: &[f32]) {
        self.len(vs.len());
        vs.iter().for_each(|&v| self.f32(v));
    }
    fn vec3s(&mut self, vs: &[Vec3]) {
        self.len(vs.len());
        vs.iter().for_each(|&v| self.vec3(v));
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl Sink for Fnv64 {
    fn put(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
    }
    fn with_generations(&self) -> bool {
        false
    }
}

fn write_payload(w: &World, s: &mut impl Sink) {
    let st = &w.settings;
    s.vec3(st.gravity);
    s.f32(st.damping);
    s.u32(st.substeps);
    s.u32(st.iterations);
    s.u32(st.max_particles);
    s.u32(st.max_bodies);
    s.u32(st.max_colliders);
    s.vec3(st.wind);
    s.f32(st.air_density);
    s.f32(st.sleep_speed);
    s.f32(st.sleep_time);
    s.f32(w.last_dt);
    s.u64(w.steps);
    s.u64(w.recoveries);

    write_pool(s, &w.bodies, write_body);

    let p = &w.particles;
    for a in [&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.inv_mass] {
        s.f32s(a);
    }

    write_pool(s, &w.colliders, write_collider);

    write_pool(s, &w.joints, write_joint);

    // Settings and state added after format 3 follow as tagged extensions,
    // each written only when set, so the images and state hashes of worlds
    // without them are those of format 3.
    if st.max_constraints != 0 {
        s.u32(EXT_MAX_CONSTRAINTS);
        s.u32(st.max_constraints);
    }
    let ignored = w.bodies.iter().map(|(_, b)| b.ignored.len()).sum::<usize>();
    if ignored != 0 {
        s.u32(EXT_IGNORED_BONES);
        s.len(ignored);
        for (h, b) in w.bodies.iter() {
            for &(ragdoll, bone) in &b.ignored {
                write_id(s, h.into());
                write_id(s, ragdoll);
                s.u32(bone);
            }
        }
    }
    let sides = w.bodies.iter().filter_map(|(_, b)| b.cloth.as_ref()).map(|c| c.sides.len()).sum::<usize>();
    if sides != 0 {
        s.u32(EXT_CLOTH_SIDES);
        s.len(sides);
        for (h, b) in w.bodies.iter() {
            for side in b.cloth.iter().flat_map(|c| &c.sides) {
                write_id(s, h.into());
                s.u32(side.vertex);
                let slot = &w.bodies.slots[side.body as usize];
                write_id(s, BodyId { index1: side.body + 1, generation: slot.generation });
                side.triangle.iter().for_each(|&i| s.u32(i));
                s.f32(side.side);
            }
        }
    }
    let far = w.colliders.iter().filter(|(_, c)| c.origin != Vec3::ZERO).count();
    if far != 0 {
        s.u32(EXT_COLLIDER_ORIGINS);
        s.len(far);
        for (h, c) in w.colliders.iter().filter(|(_, c)| c.origin != Vec3::ZERO) {
            let id = ColliderId::from(h);
            s.u32(id.index1);
            if s.with_generations() {
                s.u32(id.generation);
            }
            s.vec3(c.origin);
        }
    }
}

/// Reads the list [`write_payload`] wrote after `EXT_COLLIDER_ORIGINS`:
/// each entry a live collider and the grid point its positions are
/// relative to.
fn read_collider_origins(r: &mut Reader, world: &mut World) -> Result<()> {
    let n = r.len(20)?;
    for _ in 0..n {
        let id = ColliderId { index1: r.u32()?, generation: r.u32()? };
        let origin = r.vec3()?;
        if origin.abs().max_element() > crate::error::MAX_COORDINATE || origin != crate::body::grid_origin(origin) {
            return Err(bad("a collider's origin is not a grid point within range"));
        }
        let c = world.colliders.get_mut(id.into()).ok_or_else(|| bad("a collider origin names a missing collider"))?;
        c.origin = origin;
    }
    Ok(())
}

/// Reads the list [`write_payload`] wrote after `EXT_CLOTH_SIDES`: each
/// entry a live cloth, one of its vertices, another live cloth (or the
/// same) and one of its triangles, and a side (+1 or -1).
fn read_cloth_sides(r: &mut Reader, world: &mut World) -> Result<()> {
    let n = r.len(36)?;
    for _ in 0..n {
        let body = BodyId { index1: r.u32()?, generation: r.u32()? };
        let vertex = r.u32()?;
        let other = BodyId { index1: r.u32()?, generation: r.u32()? };
        let triangle = [r.u32()?, r.u32()?, r.u32()?];
        let side = r.f32()?;
        // Corners within the other cloth (a memory only ever matches a pair
        // the search found, so nothing indexes with them).
        let count = world.bodies.get(other.into()).filter(|b| b.cloth.is_some()).map(|b| b.count);
        if !count.is_some_and(|n| triangle.iter().all(|&i| (i as usize) < n)) {
            return Err(bad("a cloth's side memory names a missing cloth or triangle"));
        }
        if side != 1.0 && side != -1.0 {
            return Err(bad("a cloth's side memory holds a side other than +1 or -1"));
        }
        let b = world.bodies.get_mut(body.into()).filter(|b| (vertex as usize) < b.count);
        let cloth =
            b.and_then(|b| b.cloth.as_mut()).ok_or_else(|| bad("a cloth's side memory names a missing vertex"))?;
        let body = other.index1 - 1;
        cloth.sides.push(crate::cloth::self_collision::Side { vertex, body, triangle, side });
    }
    Ok(())
}

fn write_id(s: &mut impl Sink, id: BodyId) {
    s.u32(id.index1);
    if s.with_generations() {
        s.u32(id.generation);
    }
}

/// Reads the list [`write_payload`] wrote after `EXT_IGNORED_BONES`: each
/// entry a live body, another that is a ragdoll, and one of its bones.
fn read_ignored_bones(r: &mut Reader, world: &mut World) -> Result<()> {
    let n = r.len(20)?;
    for _ in 0..n {
        let body = BodyId { index1: r.u32()?, generation: r.u32()? };
        let ragdoll = BodyId { index1: r.u32()?, generation: r.u32()? };
        let bone = r.u32()?;
        let bones = world.bodies.get(ragdoll.into()).and_then(|b| b.ragdoll.as_ref()).map(|d| d.bone_count());
        if body == ragdoll || (bone as usize) >= bones.unwrap_or(0) {
            return Err(bad("an ignored bone names a missing ragdoll or bone"));
        }
        let b = world.bodies.get_mut(body.into()).ok_or_else(|| bad("an ignored bone names a missing body"))?;
        b.ignored.push((ragdoll, bone));
    }
    for b in world.bodies.values_mut() {
        b.ignored.sort_unstable_by_key(|&(other, bone)| (other.index1, other.generation, bone));
        b.ignored.dedup();
    }
    Ok(())
}

/// A pool: slot count, then per slot its generation (not in the hash), a
/// live flag and the object; then the free list.
fn write_pool<T, S: Sink>(s: &mut S, pool: &Pool<T>, write: impl Fn(&T, &mut S)) {
    s.len(pool.slots.len());
    for slot in &pool.slots {
        if s.with_generations() {
            s.u32(slot.generation);
        }
        match &slot.value {
            None => s.u32(0),
            Some(v) => {
                s.u32(1);
                write(v, s);
            }
        }
    }
    s.u32s(&pool.free);
}

fn write_joint(j: &Joint, s: &mut impl Sink) {
    for id in [j.body_a, j.body_b] {
        write_id(s, id);
    }
    s.u32(j.particle_a);
    s.u32(j.particle_b);
    s.f32(j.rest_length);
    s.f32(j.compliance);
}

fn write_body(b: &Body, s: &mut impl Sink) {
    s.u32(b.kind as u32);
    s.u32(b.first as u32);
    s.u32(b.count as u32);
    s.f32(b.radius);
    let d = &b.distances;
    s.u32(d.method as u32);
    // A cloth still as built stores its recipe instead of what it builds.
    let recipe = b.cloth.as_ref().and_then(|c| c.recipe.as_deref());
    match recipe {
        Some(rec) => {
            s.u32(1);
            write_recipe(rec, s);
        }
        None => {
            s.u32(0);
            s.u32s(&d.a);
            s.u32s(&d.b);
            s.f32s(&d.rest);
            s.f32s(&d.compliance);
            s.len(d.batches.len());
            for r in &d.batches {
                s.u32(r.start as u32);
                s.u32(r.end as u32);
            }
        }
    }
    let t = &b.targets;
    s.u32s(&t.particle);
    s.vec3s(&t.from);
    s.vec3s(&t.to);
    s.f32s(&t.compliance);
    s.f32s(&t.max_force);
    if recipe.is_none() {
        let d = &b.bends;
        s.len(d.quad.len());
        d.quad.iter().flatten().for_each(|&i| s.u32(i));
        s.f32s(&d.rest);
        s.f32s(&d.compliance);
        let t = &b.tethers;
        s.u32s(&t.particle);
        s.u32s(&t.anchor);
        s.f32s(&t.length);
    }
    let k = &b.skin;
    for v in [&k.from, &k.to, &k.normal_from, &k.normal_to] {
        s.vec3s(v);
    }
    s.f32s(&k.max_distance);
    s.f32s(&k.backstop);
    s.len(b.frames.len());
    for f in &b.frames {
        s.u32s(&f.particles);
        s.vec3s(&f.local);
    }
    s.u32(b.sleeping as u32);
    s.f32(b.still_time);
    s.f32(b.h_prev);
    s.vec3s(&b.forces);
    s.vec3(b.origin);
    match &b.material {
        None => s.u32(0),
        Some(m) => {
            s.u32(1);
            for v in [m.friction, m.dynamic_friction, m.restitution] {
                s.f32(v);
            }
        }
    }
    s.u32(b.filter.layer);
    s.u32(b.filter.mask);
    s.len(b.sticks.len());
    for c in &b.sticks {
        s.u32(c.a);
        s.u32(c.b);
        s.f32(c.radius);
    }
    match &b.cloth {
        None => s.u32(0),
        Some(c) => {
            s.u32(1);
            if recipe.is_none() {
                s.len(c.triangles.len());
                c.triangles.iter().flatten().for_each(|&i| s.u32(i));
                s.u32s(&c.vertex_map);
            }
            s.f32(c.drag);
            s.f32(c.lift);
            s.vec3(c.wind);
            s.u32(c.self_collision as u32);
            s.u32(c.cloth_collision as u32);
        }
    }
    // A ragdoll or a rigid body stores its definition (rebuilt on restore
    // through the same checks and code) and its bones' warm-started
    // rotations, which decide the next fits.
    if let Some(rd) = &b.ragdoll {
        write_ragdoll_def(&rd.skeleton.def, s);
        write_quats(&rd.clusters.rotation, s);
        write_motors(&rd.motors, s);
    }
    if let Some(rg) = &b.rigid {
        write_rigid_def(&rg.def, s);
        write_quats(&rg.clusters.rotation, s);
    }
}

/// A ragdoll's motors: flags, targets (from, to), strengths and caps.
fn write_motors(m: &Motors, s: &mut impl Sink) {
    s.u32(m.active as u32);
    s.u32(m.root_motion as u32);
    for pose in [&m.from, &m.to] {
        s.len(pose.len());
        for &(x, q) in pose.iter() {
            s.vec3(x);
            write_quat(q, s);
        }
    }
    for v in [&m.strength_from, &m.strength, &m.max_force, &m.max_torque] {
        s.f32s(v);
    }
}

fn write_quats(qs: &[Quat], s: &mut impl Sink) {
    s.len(qs.len());
    qs.iter().for_each(|&q| write_quat(q, s));
}

fn write_ragdoll_def(d: &RagdollDef, s: &mut impl Sink) {
    s.len(d.bones.len());
    for b in &d.bones {
        s.len(b.name.len());
        b.name.bytes().for_each(|c| s.u32(u32::from(c)));
        s.u32(b.parent.map_or(u32::MAX, |p| p));
        s.vec3(b.position);
        write_quat(b.rotation, s);
        for v in [b.length, b.radius, b.mass] {
            s.f32(v);
        }
        match b.limit {
            Limit::Ball { swing, twist_min, twist_max } => {
                s.u32(0);
                for v in [swing, twist_min, twist_max] {
                    s.f32(v);
                }
            }
            Limit::Hinge { axis, min, max } => {
                s.u32(1);
                s.vec3(axis);
                s.f32(min);
                s.f32(max);
            }
        }
    }
}

fn write_rigid_def(d: &RigidDef, s: &mut impl Sink) {
    match &d.shape {
        RigidShape::Box { half_extents } => {
            s.u32(0);
            s.vec3(*half_extents);
        }
        RigidShape::Sphere { radius } => {
            s.u32(1);
            s.f32(*radius);
        }
        RigidShape::Capsule { half_height, radius } => {
            s.u32(2);
            s.f32(*half_height);
            s.f32(*radius);
        }
        RigidShape::Convex { points } => {
            s.u32(3);
            s.vec3s(points);
        }
    }
    match d.model {
        RigidModel::Tetrahedron => s.u32(0),
        RigidModel::ShapeMatched { stiffness } => {
            s.u32(1);
            s.f32(stiffness);
        }
    }
    s.vec3(d.position);
    write_quat(d.rotation, s);
    for v in [d.mass, d.particle_radius, d.friction] {
        s.f32(v);
    }
}

fn write_options(o: &ClothOptions, s: &mut impl Sink) {
    for v in [o.mass, o.stretch_compliance, o.shear_compliance, o.bend_compliance] {
        s.f32(v);
    }
    s.u32(o.bend as u32);
    s.u32(o.tethers as u32);
    for v in [o.tether_scale, o.thickness, o.drag, o.lift] {
        s.f32(v);
    }
    s.u32(o.self_collision as u32);
    s.u32(o.cloth_collision as u32);
}

fn write_quat(q: Quat, s: &mut impl Sink) {
    [q.x, q.y, q.z, q.w].iter().for_each(|&v| s.f32(v));
}

fn write_recipe(r: &Recipe, s: &mut impl Sink) {
    match r {
        Recipe::Grid(g) => {
            s.u32(0);
            s.vec3(g.position);
            write_quat(g.rotation, s);
            s.u32(g.columns);
            s.u32(g.rows);
            s.f32(g.spacing);
            s.u32(g.pins);
            write_options(&g.options, s);
        }
        Recipe::Mesh(m) => {
            s.u32(1);
            s.vec3(m.position);
            write_quat(m.rotation, s);
            s.vec3s(&m.vertices);
            s.len(m.triangles.len());
            m.triangles.iter().flatten().for_each(|&i| s.u32(i));
            s.f32(m.weld_tolerance);
            match &m.inv_masses {
                None => s.u32(0),
                Some(w) => {
                    s.u32(1);
                    s.f32s(w);
                }
            }
            match &m.pinned {
                None => s.u32(0),
                Some(p) => {
                    s.u32(1);
                    s.len(p.len());
                    p.iter().for_each(|&b| s.u32(b as u32));
                }
            }
            write_options(&m.options, s);
        }
    }
}

/// A collider's shape: a tag, then its numbers; meshes, heightfields and
/// hulls as the inputs they are rebuilt from (the same code builds the same
/// BVH and planes on restore).
fn write_shape(shape: &ColliderShape, s: &mut impl Sink) {
    match shape {
        ColliderShape::Plane { normal, offset } => {
            s.u32(0);
            s.vec3(*normal);
            s.f32(*offset);
        }
        ColliderShape::Sphere { radius } => {
            s.u32(1);
            s.f32(*radius);
        }
        ColliderShape::Box { half_extents } => {
            s.u32(2);
            s.vec3(*half_extents);
        }
        ColliderShape::Capsule { a, b, radius } => {
            s.u32(3);
            s.vec3(*a);
            s.vec3(*b);
            s.f32(*radius);
        }
        ColliderShape::Convex(h) => {
            s.u32(4);
            s.vec3s(&h.points);
        }
        ColliderShape::Mesh(m) => {
            s.u32(5);
            s.vec3s(m.vertices());
            s.u32s(m.indices());
        }
        ColliderShape::Heightfield(f) => {
            s.u32(6);
            s.u32(f.columns());
            s.u32(f.rows());
            let (x, z) = f.cell_size();
            s.f32(x);
            s.f32(z);
            s.f32s(f.heights());
        }
        ColliderShape::Compound(parts) => {
            s.u32(7);
            s.len(parts.len());
            for p in parts.iter() {
                write_shape(&p.shape, s);
                s.vec3(p.position);
                write_quat(p.rotation, s);
            }
        }
    }
}

fn write_collider(c: &Collider, s: &mut impl Sink) {
    write_shape(&c.shape, s);
    s.vec3(c.position);
    write_quat(c.rotation, s);
    s.vec3(c.prev_position);
    write_quat(c.prev_rotation, s);
    let m = &c.material;
    for v in [m.friction, m.dynamic_friction, m.restitution] {
        s.f32(v);
    }
    s.u32(m.combine as u32);
    s.u32(c.filter.layer);
    s.u32(c.filter.mask);
}

/// The state hash (see [`World::state_hash`]).
pub fn state_hash(w: &World) -> u64 {
    let mut h = Fnv64::new();
    h.u32(FORMAT_VERSION);
    write_payload(w, &mut h);
    h.finish()
}

/// The snapshot image.
pub fn write(w: &World) -> Vec<u8> {
    let mut payload = Vec::new();
    write_payload(w, &mut payload);
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv64(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

// ---- reading ------------------------------------------------------------

fn bad(what: impl Into<String>) -> Error {
    Error::incompatible(format!("snapshot rejected: {}", what.into()))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| bad("truncated"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn f32(&mut self) -> Result<f32> {
        let v = f32::from_bits(self.u32()?);
        // +inf is the one non-finite value a world stores (unlimited max_force).
        if v.is_nan() || v == f32::NEG_INFINITY {
            return Err(bad("a NaN or -inf value"));
        }
        Ok(v)
    }
    fn finite(&mut self) -> Result<f32> {
        let v = self.f32()?;
        if v.is_finite() { Ok(v) } else { Err(bad("a non-finite value")) }
    }
    fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.finite()?, self.finite()?, self.finite()?))
    }
    /// A count of items of `item_size` bytes each, checked against what is left.
    fn len(&mut self, item_size: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(item_size) > self.bytes.len() - self.at {
            return Err(bad("a count larger than the image"));
        }
        Ok(n)
    }
    fn u32s(&mut self) -> Result<Vec<u32>> {
        let n = self.len(4)?;
        (0..n).map(|_| self.u32()).collect()
    }
    fn f32s(&mut self) -> Result<Vec<f32>> {
        let n = self.len(4)?;
        (0..n).map(|_| self.finite()).collect()
    }
    fn vec3s(&mut self) -> Result<Vec<Vec3>> {
        let n = self.len(12)?;
        (0..n).map(|_| self.vec3()).collect()
    }
}

/// Reads and validates an image into a new world.
pub fn read(bytes: &[u8]) -> Result<World> {
    if bytes.len() < HEADER || &bytes[0..4] != MAGIC {
        return Err(bad("not a sinew snapshot (bad magic or too short)"));
    }
    let mut r = Reader { bytes, at: 4 };
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(bad(format!("format version {version}, this library reads {FORMAT_VERSION}")));
    }
    let len = r.u64()?;
    let checksum = r.u64()?;
    if len != (bytes.len() - HEADER) as u64 {
        return Err(bad(format!("payload is {} bytes, header says {len}", bytes.len() - HEADER)));
    }
    if fnv64(&bytes[HEADER..]) != checksum {
        return Err(bad("checksum mismatch (corrupted)"));
    }
    let world = read_payload(&mut r)?;
    if r.at != bytes.len() {
        return Err(bad("trailing bytes"));
    }
    Ok(world)
}

fn read_payload(r: &mut Reader) -> Result<World> {
    let settings = WorldSettings {
        gravity: r.vec3()?,
        damping: r.finite()?,
        substeps: r.u32()?,
        iterations: r.u32()?,
        max_particles: r.u32()?,
        max_bodies: r.u32()?,
        max_colliders: r.u32()?,
        max_constraints: 0,
        wind: r.vec3()?,
        air_density: r.finite()?,
        sleep_speed: r.finite()?,
        sleep_time: r.finite()?,
    };
    settings.validate().map_err(|e| bad(e.message))?;
    let mut world = World::new(settings).map_err(|e| bad(e.message))?;
    world.last_dt = r.finite()?;
    if world.last_dt <= 0.0 {
        return Err(bad("non-positive time step"));
    }
    world.steps = r.u64()?;
    world.recoveries = r.u64()?;

    // Ragdolls of one skeleton share it again.
    let mut skeletons = Vec::new();
    world.bodies = read_pool(r, |r| read_body(r, &mut skeletons))?;

    let mut store = Particles::default();
    let arrays: Vec<Vec<f32>> = (0..7).map(|_| r.f32s()).collect::<Result<_>>()?;
    let total = arrays[0].len();
    if arrays.iter().any(|a| a.len() != total) {
        return Err(bad("particle arrays of different lengths"));
    }
    if arrays[6].iter().any(|&w| w < 0.0) {
        return Err(bad("negative inverse mass"));
    }
    let [x, y, z, vx, vy, vz, inv_mass]: [Vec<f32>; 7] = arrays.try_into().expect("7 arrays");
    // Where the substep began: the step overwrites it before reading.
    (store.px, store.py, store.pz) = (x.clone(), y.clone(), z.clone());
    // Scratch of a substep's passes, zeroed by its prediction.
    (store.ex, store.ey, store.ez) = (vec![0.0; total], vec![0.0; total], vec![0.0; total]);
    store.x = x;
    store.y = y;
    store.z = z;
    store.vx = vx;
    store.vy = vy;
    store.vz = vz;
    store.inv_mass = inv_mass;
    check_ranges(&world.bodies, total)?;
    // The padding after each body's particles collides with nothing and
    // moves with nothing because its inverse mass is 0 (the collision
    // passes walk a body's whole lanes): one given mass was a particle with
    // no broad phase, an index out of bounds (found by the fuzzer).
    for (_, b) in world.bodies.iter() {
        if store.inv_mass[b.first + b.count..b.first + padded(b.count)].iter().any(|&w| w != 0.0) {
            return Err(bad("a body's padding particles are not inert (inverse mass 0)"));
        }
    }
    world.particles = store;
    world.particle_count = world.bodies.iter().map(|(_, b)| b.count).sum();

    world.colliders = read_pool(r, read_collider)?;

    world.joints = read_pool(r, |r| read_joint(r, &world))?;

    while r.at < r.bytes.len() {
        match r.u32()? {
            EXT_MAX_CONSTRAINTS => world.settings.max_constraints = r.u32()?,
            EXT_IGNORED_BONES => read_ignored_bones(r, &mut world)?,
            EXT_CLOTH_SIDES => read_cloth_sides(r, &mut world)?,
            EXT_COLLIDER_ORIGINS => read_collider_origins(r, &mut world)?,
            tag => return Err(bad(format!("unknown extension {tag}"))),
        }
    }
    Ok(world)
}

/// Reads what [`write_pool`] wrote.
fn read_pool<T>(r: &mut Reader, mut read: impl FnMut(&mut Reader) -> Result<T>) -> Result<Pool<T>> {
    let n = r.len(8)?;
    let mut slots = Vec::with_capacity(n);
    for _ in 0..n {
        let generation = r.u32()?;
        let value = match r.u32()? {
            0 => None,
            1 => Some(read(r)?),
            _ => return Err(bad("bad slot flag")),
        };
        slots.push(Slot { generation, value });
    }
    let free = r.u32s()?;
    check_free_list(&slots, &free)?;
    Ok(Pool::from_parts(slots, free))
}

/// Reads a body; `skeletons` are those the ragdolls read so far stand on,
/// with the definitions they were read as.
fn read_body(r: &mut Reader, skeletons: &mut Vec<(RagdollDef, Arc<Skeleton>)>) -> Result<Body> {
    let kind = BodyKind::from_u32(r.u32()?).ok_or_else(|| bad("unknown body kind"))?;
    let first = r.u32()? as usize;
    let count = r.u32()? as usize;
    if count == 0 || !first.is_multiple_of(LANES) {
        return Err(bad("bad particle range"));
    }
    // The particle arrays follow the bodies, 7 floats a particle: a count
    // the rest of the image cannot hold is refused before anything is built
    // for it (a recipe rebuilt for a forged count took seconds).
    if count.saturating_mul(7 * 4) > r.bytes.len() - r.at {
        return Err(bad("a particle range larger than the image"));
    }
    let mut body = Body::new(kind, first, count);
    body.radius = r.finite()?;
    let method = DistanceMethod::from_u32(r.u32()?).ok_or_else(|| bad("unknown distance method"))?;
    if body.radius < 0.0 {
        return Err(bad("a negative radius"));
    }
    // A recipe is rebuilt through the same checks and code as at creation.
    let rebuilt = match r.u32()? {
        0 => None,
        1 => {
            let recipe = read_recipe(r)?;
            if let Recipe::Grid(g) = &recipe
                && (g.columns as usize).saturating_mul(g.rows as usize) != count
            {
                return Err(bad("a cloth recipe that does not fit its body"));
            }
            let fail = |e: crate::Error| bad(format!("a cloth recipe: {}", e.message));
            let mut made = recipe.body().and_then(Made::into_checked_body).map_err(fail)?;
            if made.count != count || kind != BodyKind::Cloth {
                return Err(bad("a cloth recipe that does not fit its body"));
            }
            made.distances.method = method;
            Some(made)
        }
        _ => return Err(bad("bad recipe flag")),
    };
    if let Some(made) = &rebuilt {
        body.distances = made.distances.clone();
    } else {
        body.distances = read_distances(r, count, method)?;
    }

    let particle = r.u32s()?;
    let (from, to) = (r.vec3s()?, r.vec3s()?);
    let (compliance, max_force) = (r.f32s_allow_inf()?, r.f32s_allow_inf()?);
    let n = particle.len();
    if from.len() != n || to.len() != n || compliance.len() != n || max_force.len() != n {
        return Err(bad("target arrays of different lengths"));
    }
    if particle.windows(2).any(|w| w[0] >= w[1])
        || particle.iter().any(|&i| i as usize >= count)
        || compliance.iter().any(|&c| !(c.is_finite() && c >= 0.0))
        || max_force.iter().any(|&f| f <= 0.0)
    {
        return Err(bad("a target out of range"));
    }
    body.targets = TargetSet::from_parts(particle, from, to, compliance, max_force);

    if let Some(made) = &rebuilt {
        body.bends = made.bends.clone();
        body.tethers = made.tethers.clone();
    } else {
        let n = r.len(16)?;
        let mut quad = Vec::with_capacity(n);
        for _ in 0..n {
            quad.push([r.u32()?, r.u32()?, r.u32()?, r.u32()?]);
        }
        let (rest, compliance) = (r.f32s()?, r.f32s()?);
        if rest.len() != n
            || compliance.len() != n
            || quad.iter().flatten().any(|&i| i as usize >= count)
            || compliance.iter().any(|&c| c < 0.0)
        {
            return Err(bad("a bending constraint out of range"));
        }
        body.bends = BendSet::from_parts(quad, rest, compliance);
        let (particle, anchor, length) = (r.u32s()?, r.u32s()?, r.f32s()?);
        if anchor.len() != particle.len()
            || length.len() != particle.len()
            || particle.iter().chain(&anchor).any(|&i| i as usize >= count)
            || length.iter().any(|&l| l < 0.0)
        {
            return Err(bad("a tether out of range"));
        }
        body.tethers = TetherSet { particle, anchor, length };
    }
    let (from, to, nf, nt) = (r.vec3s()?, r.vec3s()?, r.vec3s()?, r.vec3s()?);
    let (max, back) = (r.f32s_allow_inf()?, r.f32s_allow_inf()?);
    let m = to.len();
    if (m != 0 && m != count)
        || [from.len(), nf.len(), nt.len(), max.len(), back.len()].iter().any(|&l| l != m)
        || max.iter().chain(&back).any(|&v| v < 0.0)
    {
        return Err(bad("skin arrays out of range"));
    }
    body.skin = SkinSet::from_parts(from, to, nf, nt, max, back);
    let n = r.len(8)?;
    for _ in 0..n {
        let (particles, local) = (r.u32s()?, r.vec3s()?);
        if particles.is_empty() || particles.len() != local.len() || particles.iter().any(|&i| i as usize >= count) {
            return Err(bad("a frame attachment out of range"));
        }
        body.frames.push(FrameAttachment { particles, local });
    }
    body.sleeping = match r.u32()? {
        0 => false,
        1 => true,
        _ => return Err(bad("bad sleep flag")),
    };
    body.still_time = r.finite()?;
    body.h_prev = r.finite()?;
    if body.h_prev < 0.0 {
        return Err(bad("a negative substep length"));
    }
    body.forces = r.vec3s()?;
    if !(body.forces.is_empty() || body.forces.len() == count) {
        return Err(bad("forces for another particle count"));
    }
    body.origin = r.vec3()?;
    if body.origin != crate::body::grid_origin(body.origin) {
        return Err(bad("a body's frame off the grid"));
    }
    body.material = match r.u32()? {
        0 => None,
        1 => {
            let (friction, dynamic_friction, restitution) = (r.finite()?, r.finite()?, r.finite()?);
            let m = Material { friction, dynamic_friction, restitution, combine: Combine::Average };
            m.validate("material").map_err(|e| bad(format!("a body: {}", e.message)))?;
            Some(m)
        }
        _ => return Err(bad("bad material flag")),
    };
    body.filter = Filter { layer: r.u32()?, mask: r.u32()? };
    let n = r.len(12)?;
    for _ in 0..n {
        let stick = CollisionStick { a: r.u32()?, b: r.u32()?, radius: r.finite()? };
        if stick.a as usize >= count || stick.b as usize >= count || stick.a == stick.b || stick.radius <= 0.0 {
            return Err(bad("a collision stick out of range"));
        }
        body.sticks.push(stick);
    }
    let has_cloth = r.u32()?;
    if has_cloth > 1 || (has_cloth == 1) != (kind == BodyKind::Cloth) {
        return Err(bad("cloth data does not match the body kind"));
    }
    if has_cloth == 1 {
        let (triangles, vertex_map) = match &rebuilt {
            Some(made) => {
                let c = made.cloth.as_ref().expect("a cloth");
                (c.triangles.clone(), c.vertex_map.clone())
            }
            None => {
                let n = r.len(12)?;
                let mut triangles = Vec::with_capacity(n);
                for _ in 0..n {
                    triangles.push([r.u32()?, r.u32()?, r.u32()?]);
                }
                (triangles, r.u32s()?)
            }
        };
        let (drag, lift, wind) = (r.finite()?, r.finite()?, r.vec3()?);
        let flags = (r.u32()?, r.u32()?);
        if triangles.iter().flatten().chain(&vertex_map).any(|&i| i as usize >= count)
            || drag < 0.0
            || lift < 0.0
            || flags.0 > 1
            || flags.1 > 1
        {
            return Err(bad("cloth data out of range"));
        }
        let mut cloth = Cloth::new(count, triangles, vertex_map, drag, lift, wind, flags.0 == 1, flags.1 == 1);
        cloth.recipe = rebuilt.and_then(|mut made| made.cloth.take()).and_then(|c| c.recipe);
        body.cloth = Some(Box::new(cloth));
    } else if rebuilt.is_some() {
        return Err(bad("a recipe on a body without cloth data"));
    }
    match kind {
        BodyKind::Ragdoll => {
            // The skeleton through the same checks and builder as at
            // creation, or one an earlier ragdoll stands on.
            let def = read_ragdoll_def(r)?;
            // Sizes first, as for a cloth's recipe, so a forged definition
            // is refused before a skeleton is built for it (1,024 bones took
            // a full build): a ragdoll has a particle per bone and one more
            // (each bone's tail, the root's head), and its image holds per
            // bone a cluster rotation, then its motor's two targets and four
            // numbers.
            let bones = def.bones.len();
            if bones >= count || bones.saturating_mul(16 + 2 * 28 + 4 * 4) > r.bytes.len() - r.at {
                return Err(bad("a ragdoll that does not fit its body"));
            }
            let skeleton = match skeletons.iter().find(|(read, _)| *read == def) {
                Some((_, s)) => s.clone(),
                None => {
                    let s = Skeleton::new(&def).map_err(|e| bad(format!("a ragdoll: {}", e.message)))?;
                    skeletons.push((def, s.clone()));
                    s
                }
            };
            let mut ragdoll = Ragdoll::new(&skeleton);
            read_rotations(r, &mut ragdoll.clusters.rotation)?;
            read_motors(r, &mut ragdoll.motors)?;
            // Its bones' collision sticks first, then any the engine added
            // (`add_collision_sticks`: a world with one refused its own
            // snapshot, found by the ffi_calls fuzz target).
            if skeleton.particle_count() != count || !body.sticks.starts_with(&skeleton.sticks) {
                return Err(bad("a ragdoll that does not fit its body"));
            }
            body.radii = skeleton.built.radii.clone();
            body.ragdoll = Some(Box::new(ragdoll));
        }
        BodyKind::Rigid => {
            let def = read_rigid_def(r)?;
            let fail = |e: crate::Error| bad(format!("a rigid body: {}", e.message));
            let mut made = crate::rigid::body(&def).and_then(Made::into_checked_body).map_err(fail)?;
            let mut rigid = made.rigid.take().expect("a rigid body");
            read_rotations(r, &mut rigid.clusters.rotation)?;
            if made.count != count {
                return Err(bad("a rigid body that does not fit its body"));
            }
            body.radii = made.radii;
            body.rigid = Some(rigid);
        }
        _ => {}
    }
    Ok(body)
}

/// Reads a ragdoll's motors over the rebuilt (default) ones, of the same
/// bone count.
fn read_motors(r: &mut Reader, m: &mut Motors) -> Result<()> {
    let flag = |v: u32| match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad("bad motor flag")),
    };
    m.active = flag(r.u32()?)?;
    m.root_motion = flag(r.u32()?)?;
    let n = m.to.len();
    for pose in [&mut m.from, &mut m.to] {
        if r.len(28)? != n {
            return Err(bad("motor targets that do not fit the ragdoll"));
        }
        for t in pose.iter_mut() {
            let x = r.vec3()?;
            let q = read_quat(r)?;
            if (q.length() - 1.0).abs() > 1e-3 {
                return Err(bad("a motor target rotation that is not unit"));
            }
            *t = (x, q);
        }
    }
    let (strength_from, strength) = (r.f32s()?, r.f32s()?);
    let (max_force, max_torque) = (r.f32s_allow_inf()?, r.f32s_allow_inf()?);
    if [&strength_from, &strength, &max_force, &max_torque].iter().any(|v| v.len() != n)
        || strength_from.iter().chain(&strength).any(|s| !(0.0..=1.0).contains(s))
        || max_force.iter().chain(&max_torque).any(|&f| f.is_nan() || f < 0.0)
    {
        return Err(bad("motor settings out of range"));
    }
    (m.strength_from, m.strength, m.max_force, m.max_torque) = (strength_from, strength, max_force, max_torque);
    Ok(())
}

/// Reads cluster rotations over the rebuilt ones (the same count, unit).
fn read_rotations(r: &mut Reader, into: &mut [Quat]) -> Result<()> {
    let n = r.len(16)?;
    if n != into.len() {
        return Err(bad("cluster rotations that do not fit the body"));
    }
    for q in into.iter_mut() {
        let v = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
        if (v.length() - 1.0).abs() > 1e-3 {
            return Err(bad("a cluster rotation that is not unit"));
        }
        *q = v;
    }
    Ok(())
}

fn read_ragdoll_def(r: &mut Reader) -> Result<RagdollDef> {
    let n = r.len(64)?;
    let mut bones = Vec::with_capacity(n);
    for _ in 0..n {
        let len = r.len(4)?;
        let bytes: Vec<u8> = (0..len).map(|_| r.u32().map(|c| c as u8)).collect::<Result<_>>()?;
        let name = String::from_utf8(bytes).map_err(|_| bad("a bone name that is not UTF-8"))?;
        let parent = match r.u32()? {
            u32::MAX => None,
            p => Some(p),
        };
        let position = r.vec3()?;
        let rotation = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
        let (length, radius, mass) = (r.finite()?, r.finite()?, r.finite()?);
        let limit = match r.u32()? {
            0 => Limit::Ball { swing: r.finite()?, twist_min: r.finite()?, twist_max: r.finite()? },
            1 => Limit::Hinge { axis: r.vec3()?, min: r.finite()?, max: r.finite()? },
            _ => return Err(bad("unknown joint limit")),
        };
        bones.push(BoneDef { name, parent, position, rotation, length, radius, mass, limit });
    }
    Ok(RagdollDef { bones })
}

fn read_rigid_def(r: &mut Reader) -> Result<RigidDef> {
    let shape = match r.u32()? {
        0 => RigidShape::Box { half_extents: r.vec3()? },
        1 => RigidShape::Sphere { radius: r.finite()? },
        2 => RigidShape::Capsule { half_height: r.finite()?, radius: r.finite()? },
        3 => RigidShape::Convex { points: r.vec3s()? },
        _ => return Err(bad("unknown rigid shape")),
    };
    let model = match r.u32()? {
        0 => RigidModel::Tetrahedron,
        1 => RigidModel::ShapeMatched { stiffness: r.finite()? },
        _ => return Err(bad("unknown rigid model")),
    };
    let position = r.vec3()?;
    let rotation = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
    let (mass, particle_radius, friction) = (r.finite()?, r.finite()?, r.finite()?);
    Ok(RigidDef { shape, model, position, rotation, mass, particle_radius, friction })
}

fn read_distances(r: &mut Reader, count: usize, method: DistanceMethod) -> Result<DistanceSet> {
    let (a, b) = (r.u32s()?, r.u32s()?);
    let (rest, compliance) = (r.f32s()?, r.f32s()?);
    let n = a.len();
    if b.len() != n || rest.len() != n || compliance.len() != n {
        return Err(bad("distance arrays of different lengths"));
    }
    if a.iter().chain(&b).any(|&i| i as usize >= count)
        || a.iter().zip(&b).any(|(i, j)| i == j)
        || rest.iter().chain(&compliance).any(|&v| v < 0.0)
    {
        return Err(bad("a distance constraint out of range"));
    }
    let nb = r.len(8)?;
    let mut batches = Vec::with_capacity(nb);
    let mut end = 0usize;
    for _ in 0..nb {
        let (s, e) = (r.u32()? as usize, r.u32()? as usize);
        if s != end || e <= s || e > n {
            return Err(bad("distance batches do not tile the constraints"));
        }
        batches.push(s..e);
        end = e;
    }
    if end != n {
        return Err(bad("distance batches do not tile the constraints"));
    }
    Ok(DistanceSet::from_parts(a, b, rest, compliance, batches, method))
}

fn read_quat(r: &mut Reader) -> Result<Quat> {
    Ok(Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?))
}

fn read_options(r: &mut Reader) -> Result<ClothOptions> {
    let (mass, stretch_compliance, shear_compliance, bend_compliance) =
        (r.finite()?, r.finite()?, r.finite()?, r.finite()?);
    let bend = BendMode::from_u32(r.u32()?).ok_or_else(|| bad("unknown bend mode"))?;
    let tethers = TetherMode::from_u32(r.u32()?).ok_or_else(|| bad("unknown tether mode"))?;
    let (tether_scale, thickness, drag, lift) = (r.finite()?, r.finite()?, r.finite()?, r.finite()?);
    let flag = |v: u32| match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad("bad cloth flag")),
    };
    let (self_collision, cloth_collision) = (flag(r.u32()?)?, flag(r.u32()?)?);
    Ok(ClothOptions {
        mass,
        stretch_compliance,
        shear_compliance,
        bend_compliance,
        bend,
        tethers,
        tether_scale,
        thickness,
        drag,
        lift,
        self_collision,
        cloth_collision,
    })
}

fn read_recipe(r: &mut Reader) -> Result<Recipe> {
    match r.u32()? {
        0 => Ok(Recipe::Grid(GridDef {
            position: r.vec3()?,
            rotation: read_quat(r)?,
            columns: r.u32()?,
            rows: r.u32()?,
            spacing: r.finite()?,
            pins: r.u32()?,
            options: read_options(r)?,
        })),
        1 => {
            let (position, rotation, vertices) = (r.vec3()?, read_quat(r)?, r.vec3s()?);
            let n = r.len(12)?;
            let mut triangles = Vec::with_capacity(n);
            for _ in 0..n {
                triangles.push([r.u32()?, r.u32()?, r.u32()?]);
            }
            let weld_tolerance = r.finite()?;
            let inv_masses = match r.u32()? {
                0 => None,
                1 => Some(r.f32s()?),
                _ => return Err(bad("bad recipe flag")),
            };
            let pinned = match r.u32()? {
                0 => None,
                1 => {
                    let n = r.len(4)?;
                    Some((0..n).map(|_| r.u32().map(|v| v != 0)).collect::<Result<Vec<bool>>>()?)
                }
                _ => return Err(bad("bad recipe flag")),
            };
            for (what, len) in
                [("inv_masses", inv_masses.as_ref().map(Vec::len)), ("pin mask", pinned.as_ref().map(Vec::len))]
            {
                if len.is_some_and(|l| l != vertices.len()) {
                    return Err(bad(format!("a mesh recipe's {what} does not match its vertices")));
                }
            }
            let options = read_options(r)?;
            Ok(Recipe::Mesh(MeshRecipe {
                position,
                rotation,
                vertices,
                triangles,
                weld_tolerance,
                inv_masses,
                pinned,
                options,
            }))
        }
        _ => Err(bad("unknown recipe kind")),
    }
}

impl Reader<'_> {
    fn f32s_allow_inf(&mut self) -> Result<Vec<f32>> {
        let n = self.len(4)?;
        (0..n).map(|_| self.f32()).collect()
    }
}

/// Reads what [`write_shape`] wrote (checked again by `create_collider`).
fn read_shape(r: &mut Reader, depth: u32) -> Result<ColliderShape> {
    let fail = |e: crate::Error| bad(format!("a collider shape: {}", e.message));
    Ok(match r.u32()? {
        0 => ColliderShape::Plane { normal: r.vec3()?, offset: r.finite()? },
        1 => ColliderShape::Sphere { radius: r.finite()? },
        2 => ColliderShape::Box { half_extents: r.vec3()? },
        3 => ColliderShape::Capsule { a: r.vec3()?, b: r.vec3()?, radius: r.finite()? },
        4 => ColliderShape::convex(&r.vec3s()?).map_err(fail)?,
        5 => {
            let vertices = r.vec3s()?;
            ColliderShape::mesh(&vertices, &r.u32s()?).map_err(fail)?
        }
        6 => {
            let (columns, rows, x, z) = (r.u32()?, r.u32()?, r.finite()?, r.finite()?);
            ColliderShape::heightfield(columns, rows, x, z, &r.f32s()?).map_err(fail)?
        }
        7 if depth == 0 => {
            let n = r.len(4)?;
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let shape = read_shape(r, depth + 1)?;
                let position = r.vec3()?;
                let rotation = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
                parts.push(CompoundChild { shape, position, rotation });
            }
            ColliderShape::compound(parts)
        }
        _ => return Err(bad("unknown collider shape")),
    })
}

fn read_collider(r: &mut Reader) -> Result<Collider> {
    let shape = read_shape(r, 0)?;
    let position = r.vec3()?;
    let rotation = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
    let prev_position = r.vec3()?;
    let prev_rotation = Quat::from_xyzw(r.finite()?, r.finite()?, r.finite()?, r.finite()?);
    let (friction, dynamic_friction, restitution) = (r.finite()?, r.finite()?, r.finite()?);
    let combine = Combine::from_u32(r.u32()?).ok_or_else(|| bad("unknown combine rule"))?;
    let material = Material { friction, dynamic_friction, restitution, combine };
    let filter = Filter { layer: r.u32()?, mask: r.u32()? };
    // Re-validate through the same rules as creation (the previous frame too).
    let fail = |e: crate::Error| bad(format!("a collider: {}", e.message));
    let mut collider = Collider::checked(shape, prev_position, prev_rotation, material, filter).map_err(fail)?;
    (collider.position, collider.rotation) = checked_transform(position, rotation).map_err(fail)?;
    Ok(collider)
}

fn read_joint(r: &mut Reader, world: &World) -> Result<Joint> {
    let mut ids = [BodyId::NULL; 2];
    for id in &mut ids {
        *id = BodyId { index1: r.u32()?, generation: r.u32()? };
    }
    let joint = Joint {
        body_a: ids[0],
        body_b: ids[1],
        particle_a: r.u32()?,
        particle_b: r.u32()?,
        rest_length: r.finite()?,
        compliance: r.finite()?,
    };
    let count = |id: BodyId| world.bodies.get(id.into()).map(|b| b.count);
    let ok = |id: BodyId, i: u32| count(id).is_some_and(|n| (i as usize) < n);
    if !ok(joint.body_a, joint.particle_a)
        || !ok(joint.body_b, joint.particle_b)
        || joint.rest_length < 0.0
        || joint.compliance < 0.0
    {
        return Err(bad("a joint names a missing body or particle"));
    }
    Ok(joint)
}

fn check_free_list<T>(slots: &[Slot<T>], free: &[u32]) -> Result<()> {
    let mut listed = vec![false; slots.len()];
    for &i in free {
        let slot = slots.get(i as usize).ok_or_else(|| bad("free list out of range"))?;
        if slot.value.is_some() || std::mem::replace(&mut listed[i as usize], true) {
            return Err(bad("free list names a live or repeated slot"));
        }
    }
    if slots.iter().zip(&listed).any(|(s, &l)| s.value.is_none() != l) {
        return Err(bad("a dead slot missing from the free list"));
    }
    if slots.iter().any(|s| s.value.is_some() && s.generation == 0) {
        return Err(bad("a live slot with generation 0"));
    }
    Ok(())
}

/// Bodies' particle ranges must tile the store exactly, in some order.
fn check_ranges(bodies: &Pool<Body>, total: usize) -> Result<()> {
    let mut ranges: Vec<(usize, usize)> = bodies.iter().map(|(_, b)| (b.first, padded(b.count))).collect();
    ranges.sort_unstable();
    let mut end = 0;
    for (first, len) in ranges {
        if first != end {
            return Err(bad("body particle ranges do not tile the store"));
        }
        end = first + len;
    }
    if end != total {
        return Err(bad("body particle ranges do not tile the store"));
    }
    Ok(())
}
