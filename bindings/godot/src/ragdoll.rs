//! `SinewRagdoll3D`'s logic without Godot objects: Godot's humanoid bone
//! names mapped to sinew's preset, the preset fitted to a skeleton, the bind
//! offsets, and the pose conversions both ways.
//!
//! Fitting: the ragdoll is sinew's humanoid preset (`RagdollDef::humanoid`)
//! with its own rest pose, arms at its sides, because its joint limits are
//! given about that rest; it is turned to face where the skeleton faces (its
//! left from the legs and arms, its up from the spine: so "knees bend
//! backwards" holds whatever the skeleton's orientation) and scaled to the
//! legs' length (masses and radii with it). It is then *posed* like the
//! skeleton's rest (T-pose, A-pose): each bone takes its preset turn
//! relative to its posed parent, then the shortest arc that points its +Y
//! from its head to the next bone's head (spine to chest, upper arm to
//! forearm, ...), so a joint changes by the least rotation and gains no
//! twist its limits would fight; leaves (head, hands, feet) keep their turn
//! relative to the parent; heads go down the chain from the hips with the
//! preset's proportions. The Unity binding's `RagdollRig` does the same.
//!
//! Offsets: with `frame` a sinew bone's world transform (head, rotation),
//! `offset = frame_posed⁻¹ · bone_rest` (Godot's affine `Transform3D`, so
//! scale and the bone's own axes go into it). Then, every frame,
//! `motor target = animated bone · offset⁻¹` and
//! `bone = simulated frame · offset`; at the rest pose the second gives back
//! the skeleton's global rests (a test checks it to 1e-4).
//!
//! Far from the world's origin: the preset is fitted relative to the hips'
//! rest place ([`Fit::origin`], `f64`), built there with
//! `World::create_ragdoll_f64`, and every head goes to and from sinew in
//! `f64`, so a skeleton 10 km out is fitted, posed and read back as one at
//! the origin (in a double-precision build; a single one has `f32`'s
//! millimetre there).

use crate::pose::{Pose, compose, decompose, to_dvec3};
use glam::DVec3;
use godot::builtin::Transform3D;
use sinew::{BodyId, Quat, RagdollDef, Vec3, World};

/// Godot's `SkeletonProfileHumanoid` names of sinew's preset bones, in
/// sinew's bone order (pelvis, spine, chest, neck, head, upper_arm_l,
/// lower_arm_l, hand_l, upper_arm_r, ..., foot_r). Godot's humanoid faces +Z
/// with its left side at +X, as sinew's preset does; `UpperChest`,
/// shoulders, toes and fingers are not simulated (they ride on their
/// parents).
pub const PROFILE_BONES: [&str; 17] = [
    "Hips",
    "Spine",
    "Chest",
    "Neck",
    "Head",
    "LeftUpperArm",
    "LeftLowerArm",
    "LeftHand",
    "RightUpperArm",
    "RightLowerArm",
    "RightHand",
    "LeftUpperLeg",
    "LeftLowerLeg",
    "LeftFoot",
    "RightUpperLeg",
    "RightLowerLeg",
    "RightFoot",
];

/// The bone whose head each preset bone's tail reaches (`None`: a leaf).
const TAILS: [Option<usize>; 17] = [
    Some(1),
    Some(2),
    Some(3),
    Some(4),
    None,
    Some(6),
    Some(7),
    None,
    Some(9),
    Some(10),
    None,
    Some(12),
    Some(13),
    None,
    Some(15),
    Some(16),
    None,
];

/// The preset's upper leg + lower leg length at 1.8 m (0.43 + 0.41).
const PRESET_LEG: f32 = 0.84;
/// The height the preset's proportions are given for.
const PRESET_HEIGHT: f32 = 1.8;

/// The skeleton bone name of each sinew bone: a non-empty entry of
/// `overrides` (index = sinew bone) replaces the profile name.
pub fn bone_names(overrides: &[String]) -> Vec<String> {
    PROFILE_BONES
        .iter()
        .enumerate()
        .map(|(b, name)| match overrides.get(b) {
            Some(o) if !o.is_empty() => o.clone(),
            _ => (*name).to_string(),
        })
        .collect()
}

/// Skeleton bone indices of `names`, `find` returning -1 for an unknown
/// name (as `Skeleton3D.find_bone`); every missing name is listed.
pub fn find_bones(names: &[String], find: impl Fn(&str) -> i32) -> Result<Vec<usize>, String> {
    let found: Vec<i32> = names.iter().map(|n| find(n)).collect();
    let missing: Vec<String> =
        names.iter().zip(&found).filter(|(_, i)| **i < 0).map(|(n, _)| format!("\"{n}\"")).collect();
    if !missing.is_empty() {
        return Err(format!("the skeleton has no bone {} (set bone_names)", missing.join(", ")));
    }
    let mut seen = std::collections::HashSet::new();
    for (n, &i) in names.iter().zip(&found) {
        if !seen.insert(i) {
            return Err(format!("bone \"{n}\" is named twice in bone_names"));
        }
    }
    Ok(found.into_iter().map(|i| i as usize).collect())
}

/// Each bone's global transform from local ones (`parents[i]` < 0 for a
/// root), whatever order the bones are in. A parent index out of range or
/// a cycle is an error.
pub fn globals_from_locals(parents: &[i32], locals: &[Transform3D]) -> Result<Vec<Transform3D>, String> {
    let n = parents.len();
    if locals.len() != n {
        return Err(format!("{} local poses for {n} bones", locals.len()));
    }
    let mut globals: Vec<Option<Transform3D>> = vec![None; n];
    let mut chain = Vec::new();
    for start in 0..n {
        // Walk up to a computed ancestor (or a root), then back down.
        let mut at = start;
        chain.clear();
        while globals[at].is_none() {
            chain.push(at);
            if chain.len() > n {
                return Err(format!("bone {start}'s parents form a cycle"));
            }
            let p = parents[at];
            if p < 0 {
                break;
            }
            at = usize::try_from(p).ok().filter(|&p| p < n).ok_or(format!("bone {at} has parent {p} of {n}"))?;
        }
        for &b in chain.iter().rev() {
            let g = match parents[b] {
                p if p < 0 => locals[b],
                p => globals[p as usize].expect("parent computed first") * locals[b],
            };
            globals[b] = Some(g);
        }
    }
    Ok(globals.into_iter().map(|g| g.expect("all computed")).collect())
}

/// New local poses when some bones get new global ones: `driven` holds
/// (bone, new global); other bones keep their local pose and ride on their
/// parents. Returns every bone's local pose.
pub fn locals_from_globals(
    parents: &[i32],
    locals: &[Transform3D],
    driven: &[(usize, Transform3D)],
) -> Result<Vec<Transform3D>, String> {
    let n = parents.len();
    let mut target: Vec<Option<Transform3D>> = vec![None; n];
    for &(b, g) in driven {
        *target.get_mut(b).ok_or(format!("driven bone {b} of {n}"))? = Some(g);
    }
    // A driven bone's local = (its parent's new global)⁻¹ · its new global:
    // take the globals with the driven bones' locals replaced, in an order
    // where parents come first.
    let mut out = locals.to_vec();
    let order = parent_first_order(parents)?;
    let mut globals = vec![Transform3D::IDENTITY; n];
    for b in order {
        let parent = (parents[b] >= 0).then(|| globals[parents[b] as usize]);
        if let Some(g) = target[b] {
            out[b] = match parent {
                Some(pg) => pg.affine_inverse() * g,
                None => g,
            };
            globals[b] = g;
        } else {
            globals[b] = match parent {
                Some(pg) => pg * out[b],
                None => out[b],
            };
        }
    }
    Ok(out)
}

/// Bone indices with every parent before its children.
fn parent_first_order(parents: &[i32]) -> Result<Vec<usize>, String> {
    let n = parents.len();
    let mut depth = vec![0usize; n];
    for (b, d) in depth.iter_mut().enumerate() {
        let mut at = b;
        while parents[at] >= 0 {
            at = parents[at] as usize;
            if at >= n || *d > n {
                return Err(format!("bone {b}'s parents form a cycle or leave the skeleton"));
            }
            *d += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&b| depth[b]);
    Ok(order)
}

/// The rotation whose X, Y, Z are the character's left, up and forward,
/// from the heads of the bones (sinew's order): left from the right to the
/// left upper leg and upper arm, up from the hips to the chest.
fn facing(heads: &[Vec3]) -> Result<Quat, String> {
    let up = (heads[2] - heads[0]).try_normalize().ok_or("Hips and Chest are at the same place")?;
    let left = (heads[11] - heads[14]) + (heads[5] - heads[8]);
    let x = (left - up * left.dot(up))
        .try_normalize()
        .ok_or("cannot tell left from right: the legs and arms are not apart")?;
    let z = x.cross(up);
    Ok(Quat::from_mat3(&glam::Mat3::from_cols(x, up, z)).normalize())
}

/// sinew's humanoid fitted to a skeleton: its definition and the pose
/// that matches the skeleton's rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The world place the definition is relative to: the hips' rest.
    pub origin: DVec3,
    /// The preset, facing where the skeleton faces, scaled to its legs,
    /// relative to `origin` (give both to `World::create_ragdoll_f64`).
    pub def: RagdollDef,
    /// Each bone's world transform (head, rotation) posed like the
    /// skeleton's rest: give it to `World::set_ragdoll_pose_f64`.
    pub pose: Vec<(DVec3, Quat)>,
}

/// Fits sinew's humanoid to a skeleton: `rest` holds the world-space rest
/// transform of the skeleton bone of each sinew bone (sinew's order).
///
/// The ragdoll keeps the preset's own rest (arms at its sides), because the
/// preset's joint limits are given about that rest; it is then *posed* like
/// the skeleton: each bone takes its preset turn relative to its posed
/// parent, then the shortest arc that points its +Y from its head to the
/// next bone's head (leaves keep their turn relative to the parent); heads
/// are placed down the chain from the hips with the preset's proportions
/// (scaled to the legs' length).
pub fn fit_humanoid(rest: &[Transform3D]) -> Result<Fit, String> {
    if rest.len() != PROFILE_BONES.len() {
        return Err(format!("{} rest transforms for the {} humanoid bones", rest.len(), PROFILE_BONES.len()));
    }
    // Heads relative to the hips, so the fit is done at the body's size.
    let origin = to_dvec3(rest[0].origin);
    let heads: Vec<Vec3> = rest.iter().map(|t| (to_dvec3(t.origin) - origin).as_vec3()).collect();
    let leg = |hip: usize| heads[hip].distance(heads[hip + 1]) + heads[hip + 1].distance(heads[hip + 2]);
    let scale = (leg(11) + leg(14)) / (2.0 * PRESET_LEG);
    if !(scale.is_finite() && scale > 1e-3) {
        return Err(format!("the legs are {} m long", leg(11)));
    }
    let turn = facing(&heads)?;
    // The preset stands on its feet: put its pelvis on the hips.
    let def = RagdollDef::humanoid(Vec3::ZERO, turn, PRESET_HEIGHT * scale);
    let shift = heads[0] - def.bones[0].position;
    let def = RagdollDef::humanoid(shift, turn, PRESET_HEIGHT * scale);
    let mut pose: Vec<(Vec3, Quat)> = Vec::with_capacity(def.bones.len());
    for (b, bone) in def.bones.iter().enumerate() {
        let (head, mut rotation) = match bone.parent {
            None => (heads[0], bone.rotation),
            Some(parent) => {
                // The preset's place and turn relative to the parent, on the posed parent.
                let parent = parent as usize;
                let p = &def.bones[parent];
                let (ph, pq) = pose[parent];
                let local = p.rotation.inverse() * (bone.position - p.position);
                (ph + pq * local, pq * (p.rotation.inverse() * bone.rotation))
            }
        };
        if let Some(t) = TAILS[b] {
            let d = heads[t] - heads[b];
            let length = d.length();
            if length.is_nan() || length <= 1e-4 {
                return Err(format!("{} and {} are at the same place", PROFILE_BONES[b], PROFILE_BONES[t]));
            }
            // From the turn the parent's pose predicts: the arc is then the
            // least change of the joint, with no twist the limits would fight.
            rotation = Quat::from_rotation_arc(rotation * Vec3::Y, d / length) * rotation;
        }
        pose.push((head, rotation.normalize()));
    }
    let pose = pose.into_iter().map(|(head, rotation)| (origin + head.as_dvec3(), rotation)).collect();
    Ok(Fit { origin, def, pose })
}

/// Creates the fitted ragdoll in `world`, posed at `start` (each bone's
/// world transform) or, when sinew refuses that, at the fitted rest pose
/// (the error is returned beside the body).
pub fn build(world: &mut World, fit: &Fit, start: &[(DVec3, Quat)]) -> sinew::Result<(BodyId, Option<sinew::Error>)> {
    let body = world.create_ragdoll_f64(&fit.def, fit.origin)?;
    match world.set_ragdoll_pose_f64(body, start, None) {
        Ok(()) => Ok((body, None)),
        Err(e) => {
            world.set_ragdoll_pose_f64(body, &fit.pose, None)?;
            Ok((body, Some(e)))
        }
    }
}

/// A sinew bone's world transform as Godot's (no scale).
pub fn frame(position: DVec3, rotation: Quat) -> Transform3D {
    compose(&Pose { position, rotation, scale: Vec3::ONE })
}

/// The bind offsets of a fitted ragdoll: one per bone.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    offsets: Vec<Transform3D>,
    inverse: Vec<Transform3D>,
}

impl Rig {
    /// `pose`: the fitted pose ([`Fit::pose`]) of the world-space rest
    /// transforms `rest`.
    pub fn new(pose: &[(DVec3, Quat)], rest: &[Transform3D]) -> Rig {
        let offsets: Vec<Transform3D> =
            pose.iter().zip(rest).map(|(&(p, q), r)| frame(p, q).affine_inverse() * *r).collect();
        let inverse = offsets.iter().map(|o| o.affine_inverse()).collect();
        Rig { offsets, inverse }
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// True without bones.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The motor target of bone `b` (head, rotation) from its animated
    /// world transform.
    pub fn target(&self, b: usize, animated: &Transform3D) -> (DVec3, Quat) {
        let p = decompose(&(*animated * self.inverse[b]));
        (p.position, p.rotation)
    }

    /// The world transform of bone `b`'s Godot bone from sinew's frame.
    pub fn bone(&self, b: usize, position: DVec3, rotation: Quat) -> Transform3D {
        frame(position, rotation) * self.offsets[b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::{REAL_IS_F64, to_quaternion, to_vec3, to_vector3};
    use godot::builtin::{Basis, Vector3};
    use sinew::{World, WorldSettings};
    use std::f32::consts::{FRAC_PI_2, PI};

    /// A Godot-like humanoid in skeleton space (facing +Z, left at +X,
    /// arms out in a T-pose), with a root, an upper chest, shoulders and
    /// toes sinew does not simulate, and bone axes turned every which way.
    fn skeleton() -> (Vec<&'static str>, Vec<i32>, Vec<Transform3D>) {
        #[rustfmt::skip]
        let bones: [(&str, i32, [f32; 3]); 24] = [
            ("Root", -1, [0.0, 0.0, 0.0]),
            ("Hips", 0, [0.0, 1.0, 0.02]),
            ("Spine", 1, [0.0, 1.1, 0.0]),
            ("Chest", 2, [0.0, 1.25, 0.0]),
            ("UpperChest", 3, [0.0, 1.38, 0.01]),
            ("Neck", 4, [0.0, 1.5, 0.0]),
            ("Head", 5, [0.0, 1.6, 0.02]),
            ("LeftShoulder", 4, [0.05, 1.45, 0.0]),
            ("LeftUpperArm", 7, [0.17, 1.45, 0.0]),
            // The left arm straight, the right elbow bent 4 degrees at rest.
            ("LeftLowerArm", 8, [0.45, 1.45, 0.0]),
            ("LeftHand", 9, [0.7, 1.45, 0.0]),
            ("RightShoulder", 4, [-0.05, 1.45, 0.0]),
            ("RightUpperArm", 11, [-0.17, 1.45, 0.0]),
            ("RightLowerArm", 12, [-0.45, 1.45, -0.01]),
            ("RightHand", 13, [-0.7, 1.45, 0.0]),
            ("LeftUpperLeg", 1, [0.1, 0.95, 0.0]),
            ("LeftLowerLeg", 15, [0.1, 0.52, 0.01]),
            ("LeftFoot", 16, [0.1, 0.1, 0.0]),
            ("LeftToes", 17, [0.1, 0.02, 0.15]),
            ("RightUpperLeg", 1, [-0.1, 0.95, 0.0]),
            ("RightLowerLeg", 19, [-0.1, 0.52, 0.01]),
            ("RightFoot", 20, [-0.1, 0.1, 0.0]),
            ("RightToes", 21, [-0.1, 0.02, 0.15]),
            ("Tail", 1, [0.0, 0.9, -0.1]),
        ];
        let globals: Vec<Transform3D> = bones
            .iter()
            .enumerate()
            .map(|(i, &(_, _, p))| {
                let axis = Vec3::new(i as f32 + 1.0, 1.0, 2.0 - i as f32).normalize();
                let basis = Basis::from_quaternion(to_quaternion(Quat::from_axis_angle(axis, 0.4 * i as f32)));
                Transform3D::new(basis, to_vector3(Vec3::from(p)))
            })
            .collect();
        let parents: Vec<i32> = bones.iter().map(|b| b.1).collect();
        let locals = globals
            .iter()
            .zip(&parents)
            .map(|(g, &p)| if p < 0 { *g } else { globals[p as usize].affine_inverse() * *g })
            .collect();
        (bones.iter().map(|b| b.0).collect(), parents, locals)
    }

    /// The skeleton node: turned half a turn (facing world -Z), moved, scaled 1.5.
    fn skeleton_node() -> Transform3D {
        skeleton_node_at(Vector3::new(3.0, 0.5, -2.0))
    }

    /// The skeleton node of [`skeleton_node`] with its origin at `at`.
    fn skeleton_node_at(at: Vector3) -> Transform3D {
        let basis = Basis::from_quaternion(to_quaternion(Quat::from_rotation_y(PI))).scaled(Vector3::splat(1.5));
        Transform3D::new(basis, at)
    }

    fn max_diff(a: &Transform3D, b: &Transform3D) -> f32 {
        let (ca, cb) = (a.basis.to_cols(), b.basis.to_cols());
        let mut d = to_vec3(a.origin - b.origin).abs().max_element();
        for k in 0..3 {
            d = d.max(to_vec3(ca[k] - cb[k]).abs().max_element());
        }
        d
    }

    fn find<'a>(names: &'a [&str]) -> impl Fn(&str) -> i32 + 'a {
        move |n| names.iter().position(|x| *x == n).map_or(-1, |i| i as i32)
    }

    /// Everything a SinewRagdoll3D computes when it is built.
    struct Fitted {
        parents: Vec<i32>,
        locals: Vec<Transform3D>,
        bones: Vec<usize>,
        world_rest: Vec<Transform3D>,
        rig: Rig,
        world: World,
        body: sinew::BodyId,
    }

    fn fitted() -> Fitted {
        fitted_at(skeleton_node())
    }

    /// What `SinewRagdoll3D::build` does, for the skeleton node `node` at its rest pose.
    fn fitted_at(node: Transform3D) -> Fitted {
        let (names, parents, locals) = skeleton();
        let bones = find_bones(&bone_names(&[]), find(&names)).unwrap();
        let globals = globals_from_locals(&parents, &locals).unwrap();
        let world_rest: Vec<Transform3D> = bones.iter().map(|&i| node * globals[i]).collect();
        let fit = fit_humanoid(&world_rest).unwrap();
        let rig = Rig::new(&fit.pose, &world_rest);
        let start: Vec<(DVec3, Quat)> = world_rest.iter().enumerate().map(|(b, t)| rig.target(b, t)).collect();
        let mut world = World::new(WorldSettings::default()).unwrap();
        let (body, refused) = build(&mut world, &fit, &start).unwrap();
        assert!(refused.is_none(), "{refused:?}");
        Fitted { parents, locals, bones, world_rest, rig, world, body }
    }

    #[test]
    fn profile_names_map_to_sinew_bones_with_overrides() {
        assert_eq!(PROFILE_BONES.len(), sinew::HUMANOID_BONES.len());
        // Same order as the preset: left before right, *_l is Left*.
        for (godot, sinew) in PROFILE_BONES.iter().zip(sinew::HUMANOID_BONES) {
            assert_eq!(godot.starts_with("Left"), sinew.ends_with("_l"), "{godot} {sinew}");
            assert_eq!(godot.starts_with("Right"), sinew.ends_with("_r"), "{godot} {sinew}");
        }
        let (names, _, _) = skeleton();
        let mut overrides = vec![String::new(); 3];
        overrides[2] = "UpperChest".into();
        let chosen = bone_names(&overrides);
        assert_eq!(chosen[2], "UpperChest");
        assert_eq!(chosen[1], "Spine");
        assert_eq!(find_bones(&chosen, find(&names)).unwrap()[2], 4);
        let mut bad = bone_names(&[]);
        bad[4] = "Skull".into();
        bad[7] = "Paw".into();
        let e = find_bones(&bad, find(&names)).unwrap_err();
        assert!(e.contains("\"Skull\", \"Paw\""), "{e}");
        let mut twice = bone_names(&[]);
        twice[1] = "Hips".into();
        assert!(find_bones(&twice, find(&names)).unwrap_err().contains("twice"));
    }

    #[test]
    fn locals_and_globals_convert_both_ways_in_any_bone_order() {
        let (_, parents, locals) = skeleton();
        let globals = globals_from_locals(&parents, &locals).unwrap();
        assert!(max_diff(&globals[3], &(globals[2] * locals[3])) < 1e-6);
        // Bones listed children first come out the same.
        let n = parents.len();
        let rev_parents: Vec<i32> = parents.iter().rev().map(|&p| if p < 0 { p } else { (n - 1) as i32 - p }).collect();
        let rev_locals: Vec<Transform3D> = locals.iter().rev().copied().collect();
        let rev = globals_from_locals(&rev_parents, &rev_locals).unwrap();
        for b in 0..n {
            assert!(max_diff(&rev[n - 1 - b], &globals[b]) < 1e-6);
        }
        // Driving every bone with its own global gives the locals back.
        let driven: Vec<(usize, Transform3D)> = globals.iter().copied().enumerate().collect();
        let back = locals_from_globals(&parents, &locals, &driven).unwrap();
        for b in 0..n {
            assert!(max_diff(&back[b], &locals[b]) < 1e-5, "bone {b}");
        }
        assert!(globals_from_locals(&[1, 0], &[Transform3D::IDENTITY; 2]).unwrap_err().contains("cycle"));
    }

    #[test]
    fn the_fitted_preset_faces_the_skeleton_and_keeps_its_limits() {
        let f = fitted();
        let def_bones: Vec<(DVec3, Quat)> = f.world.ragdoll_bones_f64(f.body).unwrap().collect();
        // The skeleton node faces world -Z: so does the fitted pelvis (tilted
        // 11 degrees: the skeleton's spine starts 2 cm behind the hips), and
        // its left is world -X.
        let pelvis = def_bones[0].1;
        assert!((pelvis * Vec3::Z).dot(Vec3::NEG_Z) > 0.97, "{:?}", pelvis * Vec3::Z);
        assert!((pelvis * Vec3::X).dot(Vec3::NEG_X) > 0.999, "{:?}", pelvis * Vec3::X);
        assert!((def_bones[5].0.x - 3.0) < -0.1, "upper_arm_l at x {}", def_bones[5].0.x);
        // The pelvis on the hips, bones pointing where the skeleton's do.
        assert!((def_bones[0].0 - to_dvec3(f.world_rest[0].origin)).length() < 1e-4);
        for (b, &(_, rotation)) in def_bones.iter().enumerate() {
            if let Some(t) = TAILS[b] {
                let d = to_vec3(f.world_rest[t].origin - f.world_rest[b].origin).normalize();
                assert!((rotation * Vec3::Y - d).length() < 1e-4, "bone {b}");
            }
        }
        // Masses scale with the cube of the size: legs 1.5 times the preset's.
        let def = fit_humanoid(&f.world_rest).unwrap().def;
        let preset = RagdollDef::humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8);
        let s = def.bones[0].mass / preset.bones[0].mass;
        // Each leg: hip to knee 0.43 m and knee to ankle 0.42 m, both 1 cm off vertical.
        let legs = 1.5 * (0.43f32.hypot(0.01) + 0.42f32.hypot(0.01)) / PRESET_LEG;
        assert!((s - legs.powi(3)).abs() < 1e-3 * s, "mass scale {s}, legs {legs}");
        assert_eq!(def.bones[12].limit, preset.bones[12].limit, "the knee keeps the preset's hinge");
    }

    #[test]
    fn rest_pose_read_back_through_the_offsets_is_the_skeletons_rest() {
        let f = fitted();
        let node = skeleton_node();
        let globals = globals_from_locals(&f.parents, &f.locals).unwrap();
        let mut worst = 0.0f32;
        let mut driven = Vec::new();
        for (b, (head, rotation)) in f.world.ragdoll_bones_f64(f.body).unwrap().enumerate() {
            let bone = f.rig.bone(b, head, rotation);
            worst = worst.max(max_diff(&bone, &f.world_rest[b]));
            // And in skeleton space, as the node writes it.
            let in_skeleton = node.affine_inverse() * bone;
            worst = worst.max(max_diff(&in_skeleton, &globals[f.bones[b]]));
            driven.push((f.bones[b], in_skeleton));
        }
        assert!(worst < 1e-4, "rest read back {worst} off");
        let locals = locals_from_globals(&f.parents, &f.locals, &driven).unwrap();
        for (b, (l, r)) in locals.iter().zip(&f.locals).enumerate() {
            assert!(max_diff(l, r) < 1e-4, "local pose of bone {b} off by {}", max_diff(l, r));
        }
        // The rest pose as motor targets is the ragdoll's own rest.
        for (b, (head, rotation)) in f.world.ragdoll_bones_f64(f.body).unwrap().enumerate() {
            let (p, q) = f.rig.target(b, &f.world_rest[b]);
            assert!((p - head).length() < 1e-4 && q.dot(rotation).abs() > 1.0 - 1e-6, "bone {b}");
        }
    }

    /// How far the bones and the centre of mass of `moved` (the skeleton
    /// node of `near` moved by `by`) fall in 1 s from where those of `near`
    /// fall (worst bone, centre of mass), and how far its start is from
    /// `near`'s moved by `by`.
    fn fall_apart(by: Vector3) -> (f64, f64, f64) {
        let near_node = skeleton_node();
        let (mut near, mut moved) = (fitted_at(near_node), fitted_at(skeleton_node_at(near_node.origin + by)));
        let shift = to_dvec3(near_node.origin + by) - to_dvec3(near_node.origin);
        let bones = |f: &Fitted| f.world.ragdoll_bones_f64(f.body).unwrap().collect::<Vec<_>>();
        let (near0, moved0) = (bones(&near), bones(&moved));
        let start =
            (0..near0.len()).map(|b| (moved0[b].0 - near0[b].0 - shift).abs().max_element()).fold(0.0, f64::max);
        let (c_near0, c_moved0) = (centre_of_mass(&near), centre_of_mass(&moved));
        for _ in 0..60 {
            near.world.step(1.0 / 60.0).unwrap();
            moved.world.step(1.0 / 60.0).unwrap();
        }
        let (near1, moved1) = (bones(&near), bones(&moved));
        let bone = (0..near0.len())
            .map(|b| ((moved1[b].0 - moved0[b].0) - (near1[b].0 - near0[b].0)).abs().max_element())
            .fold(0.0, f64::max);
        let fall_near = centre_of_mass(&near) - c_near0;
        assert!(-fall_near.y > 4.0, "the near ragdoll fell {} m", -fall_near.y);
        let com = ((centre_of_mass(&moved) - c_moved0) - fall_near).abs().max_element();
        (bone, com, start)
    }

    /// The centre of mass of a ragdoll's particles, in `f64`.
    fn centre_of_mass(f: &Fitted) -> DVec3 {
        let (mut sum, mut mass) = (DVec3::ZERO, 0.0);
        for (x, &w) in f.world.positions_f64(f.body).unwrap().zip(f.world.inv_masses(f.body).unwrap()) {
            let m = 1.0 / f64::from(w);
            sum += x * m;
            mass += m;
        }
        sum / mass
    }

    #[test]
    fn a_skeleton_10_km_out_is_fitted_read_back_and_falls_as_one_at_the_origin() {
        // 10 km out along x and z, a whole number of the core's 4 m grid
        // steps away, so both ragdolls keep (nearly) the same offsets from
        // their grid points. Godot computes the bones' rest in `real`: in a
        // double build the far skeleton is the near one moved, to f64's
        // rounding; in a single one it is rounded to f32's millimetre at
        // 10 km before sinew sees it.
        let far = skeleton_node_at(skeleton_node().origin + Vector3::new(10_000.0, 0.0, -10_000.0));
        let f = fitted_at(far);
        let mut rest = 0.0f32;
        for (b, (head, rotation)) in f.world.ragdoll_bones_f64(f.body).unwrap().enumerate() {
            rest = rest.max(max_diff(&f.rig.bone(b, head, rotation), &f.world_rest[b]));
        }
        let (bone, com, start) = fall_apart(Vector3::new(10_000.0, 0.0, -10_000.0));
        eprintln!(
            "10 km out (real is f{}): rest read back {rest:.2e} m off, start {start:.2e} m off the near one's; \
             1 s fall off the near one's: a bone {bone:.2e} m, the centre of mass {com:.2e} m",
            if REAL_IS_F64 { 64 } else { 32 },
        );
        // Where double precision shows: the fit, the start and the read-back.
        let (rest_bar, start_bar) = if REAL_IS_F64 { (1e-6, 1e-6) } else { (1e-2, 1e-2) };
        assert!(rest < rest_bar, "rest read back {rest} m off");
        assert!(start <= start_bar, "the far ragdoll starts {start} m off the near one");
        // The fall is no finer a test: the ragdoll carries a one-ulp
        // difference of its start through a second of joint limits and
        // motors to a tenth of a millimetre, centre of mass too (at the
        // origin, moved by (4, 0, -4) m, one grid step: a bone 5e-4 m, the
        // centre of mass 1.5e-4 m; by (4, 0, 0) m: 0, the offsets round
        // alike). So the bars are those of that spread.
        assert!(bone <= 2e-3, "a far bone falls {bone} m off the near one's");
        assert!(com <= 1e-3, "the far centre of mass falls {com} m off the near one's");
    }

    #[test]
    fn an_animated_elbow_bend_reaches_the_skeleton_through_the_motors() {
        let mut f = fitted();
        let node = skeleton_node();
        // Animate: the left forearm (out along skeleton +X) bends 90 degrees
        // forward (its hand towards skeleton +Z): about skeleton -Y at the elbow.
        let elbow = f.bones[6];
        let mut animated = f.locals.clone();
        let bend = Basis::from_quaternion(to_quaternion(Quat::from_rotation_y(-FRAC_PI_2)));
        let globals = globals_from_locals(&f.parents, &f.locals).unwrap();
        let g = globals[elbow];
        let turned = Transform3D::new(bend * g.basis, g.origin);
        let parent = f.parents[elbow] as usize;
        animated[elbow] = globals[parent].affine_inverse() * turned;
        let posed = globals_from_locals(&f.parents, &animated).unwrap();
        let hand = to_vec3(posed[f.bones[7]].origin - posed[f.bones[6]].origin);
        assert!(hand.z > 0.2 && hand.x.abs() < 0.02, "the hand goes forward: {hand:?}");

        let targets: Vec<(DVec3, Quat)> =
            f.bones.iter().enumerate().map(|(b, &i)| f.rig.target(b, &(node * posed[i]))).collect();
        // The figure hangs in a world without a floor: its place is animated
        // too (root motion, an opt-in), so the bones can be compared locally.
        f.world.set_ragdoll_root_motion(f.body, true).unwrap();
        for _ in 0..60 {
            f.world.set_ragdoll_motor_targets_f64(f.body, &targets).unwrap();
            f.world.step(1.0 / 60.0).unwrap();
        }
        let driven: Vec<(usize, Transform3D)> = f
            .world
            .ragdoll_bones_f64(f.body)
            .unwrap()
            .enumerate()
            .map(|(b, (head, rotation))| (f.bones[b], node.affine_inverse() * f.rig.bone(b, head, rotation)))
            .collect();
        let locals = locals_from_globals(&f.parents, &f.locals, &driven).unwrap();
        let angle =
            |a: &Transform3D, b: &Transform3D| decompose(a).rotation.angle_between(decompose(b).rotation).to_degrees();
        let forearm = angle(&locals[elbow], &animated[elbow]);
        let worst = f.bones.iter().map(|&i| angle(&locals[i], &animated[i])).fold(0.0, f32::max);
        eprintln!("elbow bend after 1 s: forearm {forearm:.4} deg off, worst bone {worst:.4} deg");
        assert!(forearm < 1.0, "the forearm's local rotation is {forearm} degrees off the animation");
        assert!(worst < 1.0, "a bone is {worst} degrees off the animation");
    }

    #[test]
    fn degenerate_skeletons_are_refused() {
        let f = fitted();
        let mut rest = f.world_rest.clone();
        rest[3] = rest[2];
        assert!(fit_humanoid(&rest).unwrap_err().contains("Chest and Neck"));
        assert!(fit_humanoid(&rest[..5]).is_err());
        let same = vec![Transform3D::IDENTITY; 17];
        assert!(fit_humanoid(&same).is_err());
    }
}
