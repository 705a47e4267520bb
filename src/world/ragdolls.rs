//! The world's ragdoll calls: creation (the builders are `ragdoll`'s and
//! [`Skeleton`]'s), the bones' readback, poses, impulses and motors.

use crate::body::Body;
use crate::error::{Error, Result, finite_vec, positive, unit_rotation};
use crate::pool::BodyId;
use crate::ragdoll::motor::{Motors, bone_length, check_cap, check_strength, world_pose};
use crate::ragdoll::{BoneShape, Ragdoll, RagdollDef, Skeleton, build, placed, skeleton};
use crate::world::World;
use glam::{Quat, Vec3};
use std::sync::Arc;

impl World {
    /// Creates a ragdoll from a skeleton at its rest pose, at rest (see
    /// [`Skeleton::new`] for what is refused). Each call builds the
    /// skeleton anew; to make many ragdolls of one, build it once and use
    /// [`World::create_ragdoll_from`].
    pub fn create_ragdoll(&mut self, def: &RagdollDef) -> Result<BodyId> {
        let skeleton = Skeleton::new(def)?;
        self.add_ragdoll(&skeleton, None)
    }

    /// Creates a ragdoll of `skeleton`, at rest, in its rest pose moved by
    /// (`position`, `rotation`): a bone whose rest transform is `(x, q)`
    /// starts at `(position + rotation x, rotation q)`. The ragdoll holds
    /// the skeleton (shares it with every other ragdoll of it).
    ///
    /// Refused: NaN/inf, a zero rotation; the world's caps.
    pub fn create_ragdoll_from(&mut self, skeleton: &Arc<Skeleton>, position: Vec3, rotation: Quat) -> Result<BodyId> {
        finite_vec(position, "position")?;
        let rotation = unit_rotation(rotation, "rotation")?;
        self.add_ragdoll(skeleton, Some((position, rotation)))
    }

    /// A ragdoll of `skeleton`, at its rest pose moved by `placement`.
    fn add_ragdoll(&mut self, skeleton: &Arc<Skeleton>, placement: Option<(Vec3, Quat)>) -> Result<BodyId> {
        self.insert_made(crate::ragdoll::body(skeleton, placement))
    }

    /// Creates the ready human figure ([`crate::HUMANOID_BONES`]), standing on `position`
    /// (between its feet) facing the frame's +Z, `height` metres tall. The
    /// humanoids of one height share one [`Skeleton::humanoid`], built by
    /// the first and kept while one of them lives, so a crowd of them steps
    /// together in SIMD lanes.
    pub fn create_humanoid(&mut self, position: Vec3, rotation: Quat, height: f32) -> Result<BodyId> {
        finite_vec(position, "at.position")?;
        let rotation = unit_rotation(rotation, "at.rotation")?;
        skeleton::check_height(height)?;
        let key = height.to_bits();
        self.humanoids.retain(|(_, s)| s.strong_count() > 0);
        let skeleton = match self.humanoids.iter().find_map(|(h, s)| (*h == key).then(|| s.upgrade()).flatten()) {
            Some(s) => s,
            None => {
                let s = Skeleton::humanoid(height)?;
                self.humanoids.push((key, Arc::downgrade(&s)));
                s
            }
        };
        self.add_ragdoll(&skeleton, Some((position, rotation)))
    }

    pub(crate) fn ragdoll(&self, id: BodyId) -> Result<(&Body, &Ragdoll)> {
        let body = self.body(id)?;
        match &body.ragdoll {
            Some(r) => Ok((body, r)),
            None => Err(Error::wrong_kind(format!("body is a {:?} body, not a ragdoll", body.kind))),
        }
    }

    /// The ragdoll body, woken.
    fn ragdoll_body_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        self.ragdoll(id)?;
        let body = self.bodies.get_mut(id.into()).expect("checked");
        body.wake();
        Ok(body)
    }

    /// The head and tail particle of a bone (indices within the body, e.g.
    /// for `create_joint`).
    pub fn ragdoll_bone_particles(&self, id: BodyId, bone: u32) -> Result<(u32, u32)> {
        self.ragdoll(id)?.1.bone_particles(bone)
    }

    /// The skeleton a ragdoll is made of (to make more ragdolls of it with
    /// [`World::create_ragdoll_from`]).
    pub fn ragdoll_skeleton(&self, id: BodyId) -> Result<&Arc<Skeleton>> {
        Ok(&self.ragdoll(id)?.1.skeleton)
    }

    /// Number of bones.
    pub fn ragdoll_bone_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.ragdoll(id)?.1.bone_count() as u32)
    }

    /// The index of the first bone called `name`, if any.
    pub fn ragdoll_find_bone(&self, id: BodyId, name: &str) -> Result<Option<u32>> {
        Ok(self.ragdoll(id)?.1.skeleton.def.bones.iter().position(|b| b.name == name).map(|i| i as u32))
    }

    /// Each bone's shape (see [`BoneShape`]), in bone order. A ragdoll's
    /// other particles (a limb's roll particle, a hinge's two axis
    /// particles) carry its motion and do not collide; the bones' capsules,
    /// from head to tail, are its surface.
    pub fn ragdoll_bone_shapes(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = BoneShape> + '_> {
        let (_, r) = self.ragdoll(id)?;
        let Skeleton { def, built, .. } = &*r.skeleton;
        Ok(def.bones.iter().enumerate().map(move |(b, bone)| {
            let tail = build::tail_of(def, b).expect("checked at creation");
            let length = (tail - bone.position).length();
            let (head, tail) = (built.heads[b], built.tails[b]);
            BoneShape { parent: bone.parent, head, tail, length, radius: bone.radius, mass: bone.mass }
        }))
    }

    /// Each bone's world transform (head, rotation), in bone order.
    pub fn ragdoll_bones(&self, id: BodyId) -> Result<impl ExactSizeIterator<Item = (Vec3, Quat)> + '_> {
        let (body, r) = self.ragdoll(id)?;
        Ok((0..r.bone_count()).map(move |b| {
            let head = self.world_position(body, r.skeleton.built.heads[b] as usize);
            (head, r.clusters.world_rotation(b).normalize())
        }))
    }

    /// Teleports the ragdoll to a pose (one world transform per bone, the
    /// head and the frame). With `previous` (the pose `dt` seconds earlier,
    /// e.g. the animation's last two frames) the particles keep that motion;
    /// without it the ragdoll is at rest.
    pub fn set_ragdoll_pose(
        &mut self,
        id: BodyId,
        pose: &[(Vec3, Quat)],
        previous: Option<(&[(Vec3, Quat)], f32)>,
    ) -> Result<()> {
        self.set_ragdoll_pose_in(id, pose, previous, false)
    }

    /// [`World::set_ragdoll_pose`]; with `in_frame`, the positions are
    /// already in the body's frame (`World::set_ragdoll_pose_f64`).
    pub(crate) fn set_ragdoll_pose_in(
        &mut self,
        id: BodyId,
        pose: &[(Vec3, Quat)],
        previous: Option<(&[(Vec3, Quat)], f32)>,
        in_frame: bool,
    ) -> Result<()> {
        let now = self.checked_pose(id, pose, "bones")?;
        let before = match previous {
            Some((prev, dt)) => {
                positive(dt, "dt")?;
                Some((self.checked_pose(id, prev, "previous")?, dt))
            }
            None => None,
        };
        let (first, origin, r) = {
            let (body, r) = self.ragdoll(id)?;
            (body.first, if in_frame { Vec3::ZERO } else { body.origin }, r)
        };
        // In the body's frame (the step moves the frame along if the pose
        // is far from it).
        let local = |pose: &[(Vec3, Quat)]| pose.iter().map(|&(x, q)| (x - origin, q)).collect::<Vec<_>>();
        let now_x = placed(r, &local(&now));
        let prev_x = before.as_ref().map(|(prev, dt)| (placed(r, &local(prev)), *dt));
        let rotations: Vec<Quat> =
            now.iter().enumerate().map(|(b, &(_, q))| (q * r.clusters.frame[b].conjugate()).normalize()).collect();
        for (i, &x) in now_x.iter().enumerate() {
            let v = prev_x.as_ref().map_or(Vec3::ZERO, |(px, dt)| (x - px[i]) / *dt);
            self.particles.set_position(first + i, x);
            self.particles.set_velocity(first + i, v);
        }
        let body = self.ragdoll_body_mut(id)?;
        body.ragdoll.as_mut().expect("checked").clusters.rotation = rotations;
        Ok(())
    }

    /// An impulse (N s) at a world point of a bone, spread over the bone's
    /// two particles by the point's barycentric weights along it (Jakobsen,
    /// "Rigid bodies": `p = c1 x1 + c2 x2`): particle `i` gains velocity
    /// `c_i w_i J`, so the momentum added is exactly `J`.
    pub fn apply_bone_impulse(&mut self, id: BodyId, bone: u32, point: Vec3, impulse: Vec3) -> Result<()> {
        finite_vec(point, "point")?;
        self.apply_bone_impulse_in(id, bone, |origin| point - origin, impulse)
    }

    /// [`World::apply_bone_impulse`] at the point `local(origin)` in the
    /// body's frame (`origin` being the frame's, `Body::origin`), the point
    /// checked by the caller.
    pub(crate) fn apply_bone_impulse_in(
        &mut self,
        id: BodyId,
        bone: u32,
        local: impl FnOnce(Vec3) -> Vec3,
        impulse: Vec3,
    ) -> Result<()> {
        finite_vec(impulse, "impulse")?;
        let (first, head, tail, origin) = {
            let (body, r) = self.ragdoll(id)?;
            let (head, tail) = r.bone_particles(bone)?;
            (body.first, head as usize, tail as usize, body.origin)
        };
        let point = local(origin);
        let (a, b) = (self.particles.position(first + head), self.particles.position(first + tail));
        let ab = b - a;
        let t =
            if ab.length_squared() > 1e-12 { ((point - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.5 };
        for (i, c) in [(head, 1.0 - t), (tail, t)] {
            let w = self.particles.inv_mass[first + i];
            let dv = impulse * (c * w);
            let v = self.particles.velocity(first + i);
            self.particles.set_velocity(first + i, v + dv);
        }
        self.ragdoll_body_mut(id)?;
        Ok(())
    }
}

impl World {
    /// A pose for ragdoll `id` (`what`, for the message): a finite
    /// position and a rotation, normalised, per bone.
    fn checked_pose(&self, id: BodyId, pose: &[(Vec3, Quat)], what: &str) -> Result<Vec<(Vec3, Quat)>> {
        let n = self.ragdoll(id)?.1.bone_count();
        if pose.len() != n {
            return Err(Error::invalid_argument(format!(
                "{what} has {} transforms; the ragdoll has {n} bones",
                pose.len()
            )));
        }
        pose.iter()
            .enumerate()
            .map(|(b, &(x, q))| {
                Ok((
                    finite_vec(x, &format!("{what}[{b}].position"))?,
                    unit_rotation(q, &format!("{what}[{b}].rotation"))?,
                ))
            })
            .collect()
    }

    fn motors_mut(&mut self, id: BodyId) -> Result<&mut Motors> {
        Ok(&mut self.ragdoll_body_mut(id)?.ragdoll.as_mut().expect("checked").motors)
    }

    /// Sets the motors' target pose: one world transform per bone (head and
    /// frame, bone order), as the animation outputs it each frame. The
    /// motors drive each bone's orientation relative to its parent towards
    /// the target's, and with root motion the root's position and
    /// orientation; the next step reaches the new targets by interpolation
    /// from the last ones. Wakes the ragdoll.
    ///
    /// Refused: a count other than the bone count, NaN/inf, a zero rotation.
    pub fn set_ragdoll_motor_targets(&mut self, id: BodyId, pose: &[(Vec3, Quat)]) -> Result<()> {
        let pose = self.checked_pose(id, pose, "bones")?;
        let origin = self.body(id)?.origin;
        let local: Vec<(Vec3, Quat)> = pose.iter().map(|&(x, q)| (x - origin, q)).collect();
        self.motors_mut(id)?.set_targets(&local);
        Ok(())
    }

    /// [`World::set_ragdoll_motor_targets`] with the positions already in
    /// the body's frame (`World::set_ragdoll_motor_targets_f64`).
    pub(crate) fn set_ragdoll_motor_targets_in_frame(&mut self, id: BodyId, pose: &[(Vec3, Quat)]) -> Result<()> {
        let pose = self.checked_pose(id, pose, "bones")?;
        self.motors_mut(id)?.set_targets(&pose);
        Ok(())
    }

    /// As [`World::set_ragdoll_motor_targets`], with each bone given
    /// relative to its parent's frame (an animation's local pose: position
    /// of the head in the parent's frame, rotation relative to the parent's)
    /// and the root in world space.
    pub fn set_ragdoll_motor_targets_local(&mut self, id: BodyId, pose: &[(Vec3, Quat)]) -> Result<()> {
        let local = self.checked_pose(id, pose, "bones")?;
        let world = world_pose(&self.ragdoll(id)?.1.skeleton.parents, &local);
        for (b, &(x, _)) in world.iter().enumerate() {
            finite_vec(x, &format!("the world position of bones[{b}]"))?;
        }
        let origin = self.body(id)?.origin;
        let world: Vec<(Vec3, Quat)> = world.iter().map(|&(x, q)| (x - origin, q)).collect();
        self.motors_mut(id)?.set_targets(&world);
        Ok(())
    }

    /// Every bone's motor: `strength` in [0, 1] (0 limp, 1 follows the
    /// pose; the fraction of the error removed per 1/60 s) and `max_force`
    /// in newtons (0 or +inf = unlimited): the root's position drive is
    /// capped at `max_force` and each bone's orientation drive at
    /// `max_force` times the bone's length (the force at its tail). Changes
    /// are blended across the next step. Wakes the ragdoll.
    pub fn set_ragdoll_motor_strength(&mut self, id: BodyId, strength: f32, max_force: f32) -> Result<()> {
        let strength = check_strength(strength)?;
        let cap = check_cap(max_force, "max_force")?;
        let lengths: Vec<f32> = {
            let r = self.ragdoll(id)?.1;
            (0..r.bone_count()).map(|b| bone_length(r, b)).collect()
        };
        let m = self.motors_mut(id)?;
        m.strength.fill(strength);
        m.max_force.fill(cap);
        for (t, l) in m.max_torque.iter_mut().zip(lengths) {
            *t = cap * l;
        }
        Ok(())
    }

    /// One bone's motor: `strength` in [0, 1], `max_force` (newtons, on the
    /// position: only the root's is driven) and `max_torque` (newton metres,
    /// on the orientation), 0 or +inf = unlimited. Wakes the ragdoll.
    ///
    /// Refused: a bone out of range, a strength outside [0, 1], NaN, a
    /// negative cap.
    pub fn set_ragdoll_bone_motor(
        &mut self,
        id: BodyId,
        bone: u32,
        strength: f32,
        max_force: f32,
        max_torque: f32,
    ) -> Result<()> {
        self.ragdoll(id)?.1.bone_particles(bone)?;
        let strength = check_strength(strength)?;
        let (force, torque) = (check_cap(max_force, "max_force")?, check_cap(max_torque, "max_torque")?);
        let m = self.motors_mut(id)?;
        let b = bone as usize;
        m.strength[b] = strength;
        m.max_force[b] = force;
        m.max_torque[b] = torque;
        Ok(())
    }

    /// Root motion: whether the motors drive the root's position and
    /// orientation in world space (off by default: an opt-in); off, only the joints are
    /// driven and the body moves freely as a whole. Wakes the ragdoll.
    pub fn set_ragdoll_root_motion(&mut self, id: BodyId, on: bool) -> Result<()> {
        self.motors_mut(id)?.root_motion = on;
        Ok(())
    }

    /// The motors of a ragdoll (targets, strengths, caps).
    /// (Their targets are in the body's frame: add [`World::body_origin`].)
    pub fn ragdoll_motors(&self, id: BodyId) -> Result<&Motors> {
        Ok(&self.ragdoll(id)?.1.motors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldSettings;

    #[test]
    fn ragdolls_of_a_skeleton_share_its_tables_and_keep_their_own_state() {
        let skeleton = Skeleton::humanoid(1.8).unwrap();
        let mut w = World::new(WorldSettings::default()).unwrap();
        let a = w.create_ragdoll_from(&skeleton, Vec3::ZERO, Quat::IDENTITY).unwrap();
        let b = w.create_ragdoll_from(&skeleton, Vec3::X * 2.0, Quat::from_rotation_y(1.0)).unwrap();
        let (ra, rb) = (w.ragdoll(a).unwrap().1, w.ragdoll(b).unwrap().1);
        let (ca, cb) = (&ra.clusters, &rb.clusters);
        assert!(Arc::ptr_eq(&ca.start, &cb.start) && Arc::ptr_eq(&ca.particle, &cb.particle));
        assert!(Arc::ptr_eq(&ca.rest, &cb.rest) && Arc::ptr_eq(&ca.frame, &cb.frame));
        assert!(!std::ptr::eq(ca.rotation.as_ptr(), cb.rotation.as_ptr()));
        assert_eq!(cb.rotation[0], Quat::from_rotation_y(1.0));
    }
}
