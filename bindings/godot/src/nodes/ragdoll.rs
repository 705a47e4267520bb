//! `SinewRagdoll3D`: an active ragdoll as a `SkeletonModifier3D` (Godot
//! 4.3+), the child of the `Skeleton3D` it drives.
//!
//! Godot runs a skeleton's modifiers after its AnimationMixer, each frame
//! (`_process_modification`). There this node reads the animated pose of
//! the 17 mapped bones as the motors' targets and writes the simulated pose
//! back (rotations, and the hips' position). The world steps in its own
//! `_physics_process`: before the step it hands sinew the latest targets and
//! motor settings (`before_step`), after it copies the simulated bones out
//! (`after_step`), so the modifier never touches the world. The fitting,
//! offsets and pose conversion are [`crate::ragdoll`]. Heads go to and from
//! sinew in `f64` (`*_f64` calls), so a double-precision build keeps a
//! ragdoll far from the origin exact.

use super::{SinewWorld3D, find_world};
use crate::pose::{decompose, from_dvec3, to_quaternion};
use crate::ragdoll::{Rig, bone_names, find_bones, fit_humanoid, locals_from_globals};
use glam::DVec3;
use godot::classes::{Engine, ISkeletonModifier3D, Node, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use sinew::{BodyId, Quat, World};

/// sinew's humanoid ragdoll on the parent `Skeleton3D`, fitted to the
/// skeleton's rest pose when the world first steps (see [`crate::ragdoll`]). `strength` blends from
/// limp (0) to following the animation (1); `max_force` (newtons, 0 =
/// unlimited) caps the drive; `root_motion` drives the hips' place too.
/// Bones are found by Godot's humanoid profile names (`Hips`, `Spine`,
/// `Chest`, `Neck`, `Head`, `LeftUpperArm`, ...; see `bone_names`).
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D)]
pub struct SinewRagdoll3D {
    /// The `SinewWorld3D`; empty: the nearest ancestor.
    #[export]
    world_path: NodePath,
    /// The skeleton's bone for each of sinew's 17 bones, in sinew's order
    /// (Hips, Spine, Chest, Neck, Head, LeftUpperArm, LeftLowerArm,
    /// LeftHand, RightUpperArm, RightLowerArm, RightHand, LeftUpperLeg,
    /// LeftLowerLeg, LeftFoot, RightUpperLeg, RightLowerLeg, RightFoot); an
    /// empty or missing entry uses that profile name. Read when built.
    #[export]
    bone_names: PackedStringArray,
    /// 0 limp .. 1 follows the animation.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set)]
    strength: f32,
    /// Newtons (at the bones' tips, and on the hips' position); 0 = unlimited.
    #[export(range = (0.0, 5000.0, 1.0, or_greater))]
    #[var(set)]
    max_force: f32,
    /// Drive the hips' position and orientation (off by default); off: only the joints (the
    /// body falls and tumbles as physics takes it).
    #[export]
    #[var(set)]
    root_motion: bool,
    world_node: Option<Gd<SinewWorld3D>>,
    state: Option<RagdollState>,
    /// Building failed; not tried again.
    failed: bool,
    motor_changed: bool,
    /// The animated pose as motor targets, from the last modification.
    targets: Vec<(DVec3, Quat)>,
    targets_fresh: bool,
    /// The simulated bones after the last step.
    simulated: Vec<(DVec3, Quat)>,
    base: Base<SkeletonModifier3D>,
}

/// What exists once the ragdoll is built.
struct RagdollState {
    body: BodyId,
    rig: Rig,
    /// The skeleton bone of each sinew bone.
    bones: Vec<usize>,
    /// Every skeleton bone's parent (-1 for roots).
    parents: Vec<i32>,
}

#[godot_api]
impl ISkeletonModifier3D for SinewRagdoll3D {
    fn init(base: Base<SkeletonModifier3D>) -> Self {
        SinewRagdoll3D {
            world_path: NodePath::default(),
            bone_names: PackedStringArray::new(),
            strength: 1.0,
            max_force: 0.0,
            root_motion: false,
            world_node: None,
            state: None,
            failed: false,
            motor_changed: true,
            targets: Vec::new(),
            targets_fresh: false,
            simulated: Vec::new(),
            base,
        }
    }

    fn ready(&mut self) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        let me = self.base().clone().upcast::<Node>();
        match find_world(&me, &self.world_path) {
            Some(mut w) => {
                w.bind_mut().register_ragdoll(self.to_gd());
                self.world_node = Some(w);
            }
            None => {
                godot_error!("SinewRagdoll3D {}: no SinewWorld3D (set world_path or add it below one)", me.get_name())
            }
        }
    }

    fn exit_tree(&mut self) {
        if let Some(mut w) = self.world_node.take().filter(|w| w.is_instance_valid()) {
            let me = self.to_gd();
            w.bind_mut().unregister_ragdoll(&me, self.state.take().map(|s| s.body));
        }
        self.simulated.clear();
        self.targets.clear();
    }

    /// After the animation: its pose becomes the targets, the simulated pose goes onto the bones.
    fn process_modification(&mut self) {
        let Some(s) = &self.state else { return };
        let Some(mut skeleton) = self.base().get_skeleton() else { return };
        let node = skeleton.get_global_transform();
        self.targets.clear();
        for (b, &i) in s.bones.iter().enumerate() {
            let animated = node * skeleton.get_bone_global_pose(i as i32);
            self.targets.push(s.rig.target(b, &animated));
        }
        self.targets_fresh = true;
        if self.simulated.len() != s.bones.len() {
            return;
        }
        let to_skeleton = node.affine_inverse();
        let driven: Vec<(usize, Transform3D)> = self
            .simulated
            .iter()
            .enumerate()
            .map(|(b, &(head, rotation))| (s.bones[b], to_skeleton * s.rig.bone(b, head, rotation)))
            .collect();
        let locals: Vec<Transform3D> = (0..s.parents.len()).map(|i| skeleton.get_bone_pose(i as i32)).collect();
        let locals = match locals_from_globals(&s.parents, &locals, &driven) {
            Ok(l) => l,
            Err(e) => {
                godot_error!("SinewRagdoll3D: {e}");
                return;
            }
        };
        // Rotations only, and the hips' place: the skeleton keeps its bone lengths.
        for (b, &i) in s.bones.iter().enumerate() {
            let p = decompose(&locals[i]);
            skeleton.set_bone_pose_rotation(i as i32, to_quaternion(p.rotation));
            if b == 0 {
                skeleton.set_bone_pose_position(i as i32, from_dvec3(p.position));
            }
        }
    }
}

#[godot_api]
impl SinewRagdoll3D {
    #[func]
    fn set_strength(&mut self, strength: f32) {
        self.strength = strength.clamp(0.0, 1.0);
        self.motor_changed = true;
    }

    #[func]
    fn set_max_force(&mut self, max_force: f32) {
        self.max_force = max_force.max(0.0);
        self.motor_changed = true;
    }

    #[func]
    fn set_root_motion(&mut self, root_motion: bool) {
        self.root_motion = root_motion;
        self.motor_changed = true;
    }

    /// True once the ragdoll exists in sinew (after the world's first physics frame).
    #[func]
    fn is_built(&self) -> bool {
        self.state.is_some()
    }

    /// The simulated bones' world transforms in sinew's order (empty before the first step).
    #[func]
    fn get_simulated_bones(&self) -> Array<Transform3D> {
        self.simulated.iter().map(|&(p, q)| crate::ragdoll::frame(p, q)).collect()
    }

    /// Fits the preset to the skeleton's rest pose and creates the ragdoll,
    /// placed at the skeleton's current pose.
    fn build(&mut self, world: &mut World) -> Result<RagdollState, String> {
        let skeleton: Gd<Skeleton3D> =
            self.base().get_skeleton().ok_or("not the child of a Skeleton3D (a SkeletonModifier3D must be)")?;
        let overrides: Vec<String> = self.bone_names.as_slice().iter().map(|s| s.to_string()).collect();
        let bones = find_bones(&bone_names(&overrides), |n| skeleton.find_bone(n))?;
        let parents: Vec<i32> = (0..skeleton.get_bone_count()).map(|i| skeleton.get_bone_parent(i)).collect();
        let node = skeleton.get_global_transform();
        let rest: Vec<Transform3D> = bones.iter().map(|&i| node * skeleton.get_bone_global_rest(i as i32)).collect();
        let fit = fit_humanoid(&rest)?;
        let rig = Rig::new(&fit.pose, &rest);
        // Start where the animation is (or else at the skeleton's rest), so
        // nothing jumps on the first frame.
        let pose: Vec<(DVec3, Quat)> = bones
            .iter()
            .enumerate()
            .map(|(b, &i)| rig.target(b, &(node * skeleton.get_bone_global_pose(i as i32))))
            .collect();
        let (body, refused) = crate::ragdoll::build(world, &fit, &pose).map_err(|e| e.to_string())?;
        if let Some(e) = refused {
            godot_warn!("SinewRagdoll3D: starting at the skeleton's rest pose ({e})");
        }
        Ok(RagdollState { body, rig, bones, parents })
    }

    /// Builds on the first frame, then hands sinew the motor settings and
    /// targets. Called by the world before each step.
    pub(crate) fn before_step(&mut self, world: &mut World) {
        if self.state.is_none() && !self.failed {
            match self.build(world) {
                Ok(s) => {
                    self.state = Some(s);
                    self.motor_changed = true;
                }
                Err(e) => {
                    godot_error!("SinewRagdoll3D {}: {e}", self.base().get_name());
                    self.failed = true;
                }
            }
        }
        let Some(s) = &self.state else { return };
        if std::mem::take(&mut self.motor_changed) {
            let r = world
                .set_ragdoll_motor_strength(s.body, self.strength, self.max_force)
                .and_then(|_| world.set_ragdoll_root_motion(s.body, self.root_motion));
            if let Err(e) = r {
                godot_error!("SinewRagdoll3D: {e}");
            }
        }
        if std::mem::take(&mut self.targets_fresh)
            && let Err(e) = world.set_ragdoll_motor_targets_f64(s.body, &self.targets)
        {
            godot_error!("SinewRagdoll3D: {e}");
        }
    }

    /// Copies the simulated bones out. Called by the world after each step.
    pub(crate) fn after_step(&mut self, world: &World) {
        let Some(s) = &self.state else { return };
        if let Ok(bones) = world.ragdoll_bones_f64(s.body) {
            self.simulated.clear();
            self.simulated.extend(bones);
        }
    }
}
