//! World positions in double precision, for engines with large worlds
//! (Godot's double builds, Unreal's large world coordinates, Unity with
//! kilometre-wide levels): the Rust side of the C `_d` calls.
//!
//! Bodies keep their particles relative to a grid point near them
//! (`Body::origin`), and colliders placed here keep theirs relative to one
//! too (`Collider::origin`), so precision inside the world is that of a
//! body's size. What is left is the edge: a world `f32` 10 km out is
//! rounded to 1 mm, 2 mm between 16 and 32 km, 8 mm at 100 km. Each call
//! here takes or gives `f64` world positions and splits them into a grid
//! point (exact in `f32`: a multiple of [`ORIGIN_GRID`]) and an offset from
//! it, rounded once to `f32` at the scale of the body's size. A builder
//! (cloth, rigid body, ragdoll) builds its body at the offset, near the
//! world's origin, and the body's frame is then moved to the grid point:
//! moving a frame by a grid step is exact, so the body is what it would be
//! at the world's origin, however far out it stands.

use crate::body::ORIGIN_GRID;
use crate::cloth::build::{GridDef, MeshDef};
use crate::collision::{Collider, ColliderShape, Filter, Material, checked_shape};
use crate::constraints::target::Target;
use crate::error::{Error, MAX_COORDINATE, Result, limit_ok, non_negative, unit_rotation};
use crate::pool::{BodyId, ColliderId};
use crate::ragdoll::{RagdollDef, Skeleton};
use crate::rigid::RigidDef;
use crate::world::World;
use glam::{DVec3, Quat, Vec3};
use std::sync::Arc;

/// Checks a world position given in `f64`: finite, within the world's
/// coordinate range (`MAX_COORDINATE`, as the `f32` calls).
pub(crate) fn finite_dvec(v: DVec3, what: &str) -> Result<DVec3> {
    if v.is_finite() && v.abs().max_element() <= f64::from(MAX_COORDINATE) {
        Ok(v)
    } else {
        Err(Error::invalid_argument(format!("{what} must be finite and within +-{MAX_COORDINATE:e}, got {v}")))
    }
}

/// The grid point nearest to `p` (exact in `f32`), ties upwards: moving
/// `p` by a grid step moves the point by that step, so a scene placed on
/// the grid anywhere is split into the same offsets as at the origin (the
/// `f32` `grid_origin` rounds ties away from zero, which is not so).
pub(crate) fn grid_point(p: DVec3) -> Vec3 {
    let grid = f64::from(ORIGIN_GRID);
    ((p / grid + 0.5).floor() * grid).as_vec3()
}

/// `p` as the grid point nearest to it and the offset from that point,
/// rounded once.
pub(crate) fn split(p: DVec3) -> (Vec3, Vec3) {
    let g = grid_point(p);
    (g, (p - g.as_dvec3()).as_vec3())
}

/// The centre of the box around `points` (0 for none).
fn center(points: impl Iterator<Item = DVec3>) -> DVec3 {
    let (lo, hi) = points.fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(l, h), p| (l.min(p), h.max(p)));
    if lo.is_finite() { (lo + hi) * 0.5 } else { DVec3::ZERO }
}

impl World {
    /// Moves a body just built near the world's origin by the grid step
    /// `by`: its frame moves, nothing in it changes (every particle, target,
    /// skin point and motor goal is kept relative to the frame).
    fn carry_by_grid_step(&mut self, id: BodyId, by: Vec3) {
        let body = self.bodies.get_mut(id.into()).expect("just built");
        // Both grid points: exact in f32, and so is their sum.
        body.origin += by;
    }

    /// Builds a body with `build`, given `at` less the grid point nearest
    /// it, then carries the body to that point (see the module's docs).
    fn build_at(
        &mut self,
        at: DVec3,
        what: &str,
        build: impl FnOnce(&mut World, Vec3) -> Result<BodyId>,
    ) -> Result<BodyId> {
        let (g, local) = split(finite_dvec(at, what)?);
        let id = build(self, local)?;
        self.carry_by_grid_step(id, g);
        Ok(id)
    }

    /// [`World::create_particles`] with world positions in `f64`: each
    /// particle is kept exactly to `f32` rounding of its offset from the
    /// body's centre, however far from the world's origin.
    pub fn create_particles_f64(&mut self, positions: &[DVec3], inv_masses: Option<&[f32]>) -> Result<BodyId> {
        for (i, &p) in positions.iter().enumerate() {
            finite_dvec(p, &format!("positions[{i}]"))?;
        }
        let g = grid_point(center(positions.iter().copied()));
        let local: Vec<Vec3> = positions.iter().map(|&p| (p - g.as_dvec3()).as_vec3()).collect();
        let id = self.create_particles(&local, inv_masses)?;
        self.carry_by_grid_step(id, g);
        Ok(id)
    }

    /// [`World::set_positions`] with world positions in `f64`. When the new
    /// positions take the body away from its frame, the frame first moves to
    /// the grid point nearest the body's new centre (exactly, as a step
    /// moves it), so the offsets stay small.
    pub fn set_positions_f64(&mut self, id: BodyId, first: u32, positions: &[DVec3]) -> Result<()> {
        let body = self.body(id)?;
        let end = (first as usize).checked_add(positions.len());
        if end.is_none_or(|e| e > body.count) {
            return Err(Error::invalid_argument(format!(
                "positions: particles {first}..{first}+{} are out of range (the body has {})",
                positions.len(),
                body.count
            )));
        }
        for (k, &p) in positions.iter().enumerate() {
            finite_dvec(p, &format!("positions[{k}]"))?;
        }
        let (start, count, origin) = (body.first, body.count, body.origin.as_dvec3());
        let first = first as usize;
        let p = &self.particles;
        let after = (0..count).map(|i| match i.checked_sub(first) {
            Some(k) if k < positions.len() => positions[k],
            _ => origin + p.position(start + i).as_dvec3(),
        });
        let g = grid_point(center(after));
        self.wake(id);
        let body = self.bodies.get_mut(id.into()).expect("checked");
        if (g.as_dvec3() - origin).abs().max_element() > f64::from(ORIGIN_GRID) {
            body.move_frame(g, self.particles.frame_columns(body.range()));
        }
        let origin = body.origin.as_dvec3();
        for (k, &to) in positions.iter().enumerate() {
            self.particles.set_position(start + first + k, (to - origin).as_vec3());
        }
        Ok(())
    }

    /// [`World::set_targets`] with each target's world position in `f64`
    /// (`positions[k]` for `targets[k]`, whose own `position` is ignored).
    pub fn set_targets_f64(&mut self, id: BodyId, targets: &[Target], positions: &[DVec3]) -> Result<()> {
        if targets.len() != positions.len() {
            return Err(Error::invalid_argument("one position per target"));
        }
        for (k, &p) in positions.iter().enumerate() {
            finite_dvec(p, &format!("targets[{k}].position"))?;
        }
        let origin = self.body(id)?.origin.as_dvec3();
        // Relative to the frame, then back by the frame's exact point: the
        // core's `position - origin` gives the offset back unrounded.
        let local: Vec<Target> =
            targets.iter().zip(positions).map(|(t, &p)| Target { position: (p - origin).as_vec3(), ..*t }).collect();
        self.set_targets_local(id, &local)
    }

    /// [`World::attach_to_frame`] with the frame's world position in `f64`.
    pub fn attach_to_frame_f64(
        &mut self,
        id: BodyId,
        particles: &[u32],
        position: DVec3,
        rotation: Quat,
    ) -> Result<u32> {
        let position = finite_dvec(position, "frame.position")?;
        let origin = self.body(id)?.origin.as_dvec3();
        self.attach_to_frame_local(id, particles, (position - origin).as_vec3(), rotation)
    }

    /// [`World::set_frame`] with the frame's world position in `f64`.
    pub fn set_frame_f64(&mut self, id: BodyId, frame: u32, position: DVec3, rotation: Quat) -> Result<()> {
        let position = finite_dvec(position, "frame.position")?;
        let origin = self.body(id)?.origin.as_dvec3();
        self.set_frame_local(id, frame, (position - origin).as_vec3(), rotation)
    }

    /// [`World::create_collider_with`] with the frame's world position in
    /// `f64`: the collider is kept relative to the grid point nearest it
    /// (`Collider::origin`), so it is exact to its own size however far
    /// out, and so are the contacts with it.
    pub fn create_collider_f64(
        &mut self,
        shape: ColliderShape,
        position: DVec3,
        rotation: Quat,
        material: Material,
        filter: Filter,
    ) -> Result<ColliderId> {
        let shape = checked_shape(shape, true)?;
        let (origin, local) = split(finite_dvec(position, "position")?);
        let rotation = unit_rotation(rotation, "rotation")?;
        material.validate("material")?;
        if !limit_ok(self.settings.max_colliders, self.colliders.len(), 1) {
            return Err(Error::limit(format!("max_colliders ({}) reached", self.settings.max_colliders)));
        }
        let mut collider = Collider::new(shape, local, rotation, material, filter);
        collider.origin = origin;
        self.wake_touching(&collider);
        let h = self.colliders.insert(collider).ok_or_else(|| Error::limit("no collider slot left"))?;
        Ok(h.into())
    }

    /// [`World::create_collider`] (one Coulomb coefficient, default filter)
    /// with the frame's world position in `f64`.
    pub fn create_collider_at_f64(
        &mut self,
        shape: ColliderShape,
        position: DVec3,
        rotation: Quat,
        friction: f32,
    ) -> Result<ColliderId> {
        let friction = non_negative(friction, "friction")?;
        self.create_collider_f64(shape, position, rotation, Material::coulomb(friction), Filter::default())
    }

    /// [`World::set_collider_transform`] with the world position in `f64`.
    /// A collider moved more than a grid spacing from its grid point takes
    /// the one nearest it (its previous frame is re-expressed there, so the
    /// next step still sweeps it from where it was).
    pub fn set_collider_transform_f64(&mut self, id: ColliderId, position: DVec3, rotation: Quat) -> Result<()> {
        if !self.colliders.contains(id.into()) {
            return Err(Self::collider_error(id));
        }
        let position = finite_dvec(position, "transform.position")?;
        let rotation = unit_rotation(rotation, "transform.rotation")?;
        let c = self.colliders.get_mut(id.into()).expect("checked above");
        let old = c.origin.as_dvec3();
        if (position - old).abs().max_element() > f64::from(ORIGIN_GRID) {
            let g = grid_point(position);
            c.prev_position = (old + c.prev_position.as_dvec3() - g.as_dvec3()).as_vec3();
            c.origin = g;
        }
        c.position = (position - c.origin.as_dvec3()).as_vec3();
        c.rotation = rotation;
        let c = c.clone();
        // Its sweep over the next step: from where it was to where it is.
        self.wake_touching(&Collider { position: c.prev_position, rotation: c.prev_rotation, ..c.clone() });
        self.wake_touching(&c);
        Ok(())
    }

    /// A collider's frame, its position in `f64` (exact).
    pub fn collider_transform_f64(&self, id: ColliderId) -> Result<(DVec3, Quat)> {
        let c = self.colliders.get(id.into()).ok_or_else(|| Self::collider_error(id))?;
        Ok((c.world_position_f64(), c.rotation))
    }

    /// [`World::shift_origin`] with the offset in `f64`: bodies and colliders
    /// placed in `f64` keep their bits relative to their grid points, which
    /// move exactly when the offset is on the grid.
    pub fn shift_origin_f64(&mut self, offset: DVec3) -> Result<()> {
        let offset = finite_dvec(offset, "offset")?;
        let World { bodies, particles, colliders, .. } = self;
        for body in bodies.values_mut() {
            let o = body.origin.as_dvec3() - offset;
            let g = grid_point(o);
            let by = (g.as_dvec3() - o).as_vec3();
            body.reframe(g, by, particles.frame_columns(body.range()));
        }
        for c in colliders.values_mut() {
            let o = c.origin.as_dvec3() - offset;
            let g = grid_point(o);
            let by = o - g.as_dvec3();
            c.position = (c.position.as_dvec3() + by).as_vec3();
            c.prev_position = (c.prev_position.as_dvec3() + by).as_vec3();
            c.origin = g;
        }
        Ok(())
    }

    /// [`World::body_bounds`] in `f64` (the frame's bounds plus its
    /// origin, exact).
    pub fn body_bounds_f64(&self, id: BodyId) -> Result<(DVec3, DVec3)> {
        let (o, lo, hi) = self.body_bounds_in_frame(id)?;
        Ok((o.as_dvec3() + lo.as_dvec3(), o.as_dvec3() + hi.as_dvec3()))
    }

    /// Each bone of a ragdoll as [`World::ragdoll_bones`] gives it, the
    /// head's position in `f64` (exact).
    pub fn ragdoll_bones_f64(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = (DVec3, Quat)> + '_> {
        let (body, r) = self.ragdoll(id)?;
        let origin = body.origin.as_dvec3();
        Ok((0..r.bone_count()).map(move |b| {
            let head = self.particles.position(body.first + r.skeleton.built.heads[b] as usize);
            (origin + head.as_dvec3(), r.clusters.world_rotation(b).normalize())
        }))
    }

    /// [`World::rigid_transform`] with the position in `f64` (exact to the
    /// fit's rounding at the body's size).
    pub fn rigid_transform_f64(&self, id: BodyId) -> Result<(DVec3, Quat)> {
        let (body, r) = self.rigid(id)?;
        let p = &self.particles;
        let (at, rotation) = r.placement(|i| (p.position(body.first + i), p.inv_mass[body.first + i]));
        Ok((body.origin.as_dvec3() + at.as_dvec3(), rotation))
    }

    /// [`World::create_humanoid`] placed at `position` in `f64`.
    pub fn create_humanoid_f64(&mut self, position: DVec3, rotation: Quat, height: f32) -> Result<BodyId> {
        self.build_at(position, "at.position", |w, local| w.create_humanoid(local, rotation, height))
    }

    /// [`World::create_ragdoll_from`] placed at `position` in `f64`.
    pub fn create_ragdoll_from_f64(
        &mut self,
        skeleton: &Arc<Skeleton>,
        position: DVec3,
        rotation: Quat,
    ) -> Result<BodyId> {
        self.build_at(position, "position", |w, local| w.create_ragdoll_from(skeleton, local, rotation))
    }

    /// [`World::create_rigid`] with the def's position replaced by
    /// `position` in `f64`.
    pub fn create_rigid_f64(&mut self, def: &RigidDef, position: DVec3) -> Result<BodyId> {
        self.build_at(position, "position", |w, local| w.create_rigid(&RigidDef { position: local, ..def.clone() }))
    }

    /// [`World::create_cloth_grid`] with the def's position replaced by
    /// `position` in `f64`.
    pub fn create_cloth_grid_f64(&mut self, def: &GridDef, position: DVec3) -> Result<BodyId> {
        self.build_at(position, "transform.position", |w, local| {
            w.create_cloth_grid(&GridDef { position: local, ..*def })
        })
    }

    /// [`World::create_cloth_mesh`] with the def's position replaced by
    /// `position` in `f64`.
    pub fn create_cloth_mesh_f64(&mut self, def: &MeshDef, position: DVec3) -> Result<BodyId> {
        self.build_at(position, "transform.position", |w, local| {
            w.create_cloth_mesh(&MeshDef { position: local, ..*def })
        })
    }

    /// [`World::set_ragdoll_motor_targets`] with each bone's world position
    /// in `f64`.
    pub fn set_ragdoll_motor_targets_f64(&mut self, id: BodyId, pose: &[(DVec3, Quat)]) -> Result<()> {
        for (b, &(x, _)) in pose.iter().enumerate() {
            finite_dvec(x, &format!("bones[{b}].position"))?;
        }
        let origin = self.body(id)?.origin.as_dvec3();
        let local: Vec<(Vec3, Quat)> = pose.iter().map(|&(x, q)| ((x - origin).as_vec3(), q)).collect();
        self.set_ragdoll_motor_targets_in_frame(id, &local)
    }
    /// [`World::set_ragdoll_pose`] with each bone's world position in
    /// `f64`. A pose away from the body's frame (a ragdoll put down
    /// elsewhere) first moves the frame to the grid point nearest it, so
    /// the pose is kept to the ragdoll's own size.
    pub fn set_ragdoll_pose_f64(
        &mut self,
        id: BodyId,
        pose: &[(DVec3, Quat)],
        previous: Option<(&[(DVec3, Quat)], f32)>,
    ) -> Result<()> {
        let n = self.ragdoll(id)?.1.bone_count();
        let mut all: Vec<(&[(DVec3, Quat)], &str)> = vec![(pose, "bones")];
        if let Some((prev, dt)) = previous {
            crate::error::positive(dt, "dt")?;
            all.push((prev, "previous"));
        }
        for (p, what) in &all {
            if p.len() != n {
                return Err(Error::invalid_argument(format!(
                    "{what} has {} transforms; the ragdoll has {n} bones",
                    p.len()
                )));
            }
            for (b, &(x, q)) in p.iter().enumerate() {
                finite_dvec(x, &format!("{what}[{b}].position"))?;
                unit_rotation(q, &format!("{what}[{b}].rotation"))?;
            }
        }
        let g = grid_point(center(pose.iter().map(|&(x, _)| x)));
        let body = self.bodies.get_mut(id.into()).expect("checked");
        if (g.as_dvec3() - body.origin.as_dvec3()).abs().max_element() > f64::from(ORIGIN_GRID) {
            body.move_frame(g, self.particles.frame_columns(body.range()));
        }
        let origin = body.origin.as_dvec3();
        let local = |p: &[(DVec3, Quat)]| p.iter().map(|&(x, q)| ((x - origin).as_vec3(), q)).collect::<Vec<_>>();
        let now = local(pose);
        let before = previous.map(|(p, dt)| (local(p), dt));
        self.set_ragdoll_pose_in(id, &now, before.as_ref().map(|(p, dt)| (p.as_slice(), *dt)), true)
    }

    /// [`World::set_cloth_skin`] with the skinned positions in `f64`.
    pub fn set_cloth_skin_f64(&mut self, id: BodyId, positions: &[DVec3], normals: &[Vec3]) -> Result<()> {
        for (k, &x) in positions.iter().enumerate() {
            finite_dvec(x, &format!("positions[{k}]"))?;
        }
        let origin = self.cloth(id)?.0.origin.as_dvec3();
        let local: Vec<Vec3> = positions.iter().map(|&x| (x - origin).as_vec3()).collect();
        self.set_cloth_skin_in(id, &local, normals, true)
    }

    /// [`World::create_ragdoll`] with the def's rest transforms relative to
    /// `origin` (world = `origin` + the def's), given in `f64`.
    pub fn create_ragdoll_f64(&mut self, def: &RagdollDef, origin: DVec3) -> Result<BodyId> {
        let skeleton = Skeleton::new(def)?;
        self.build_at(origin, "origin", |w, local| w.create_ragdoll_from(&skeleton, local, Quat::IDENTITY))
    }
    /// [`World::set_ragdoll_motor_targets_local`] with the positions in
    /// `f64`: each bone's relative to its parent's frame, the root's (a
    /// bone without a parent) in world space.
    pub fn set_ragdoll_motor_targets_local_f64(&mut self, id: BodyId, pose: &[(DVec3, Quat)]) -> Result<()> {
        let (body, r) = self.ragdoll(id)?;
        let n = r.bone_count();
        if pose.len() != n {
            return Err(Error::invalid_argument(format!(
                "bones has {} transforms; the ragdoll has {n} bones",
                pose.len()
            )));
        }
        let origin = body.origin.as_dvec3();
        let parents = r.skeleton.parents.clone();
        let mut local = Vec::with_capacity(n);
        for (b, (&(x, q), parent)) in pose.iter().zip(&parents).enumerate() {
            finite_dvec(x, &format!("bones[{b}].position"))?;
            let q = unit_rotation(q, &format!("bones[{b}].rotation"))?;
            // The root in the body's frame; the others stay in their parent's.
            let x = if parent.is_none() { x - origin } else { x };
            local.push((x.as_vec3(), q));
        }
        let in_frame = crate::ragdoll::motor::world_pose(&parents, &local);
        for (b, &(x, _)) in in_frame.iter().enumerate() {
            crate::error::finite_vec(x, &format!("the world position of bones[{b}]"))?;
        }
        self.set_ragdoll_motor_targets_in_frame(id, &in_frame)
    }
}
