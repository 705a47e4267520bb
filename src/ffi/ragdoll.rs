//! `sinew_ragdoll_*`: ragdolls from an engine's skeleton or the humanoid
//! preset, bone transforms back, poses, impulses and motors.

use super::boundary::{
    Failure, SinewWorld, checked_out, checked_ref, checked_slice, optional_out, read_into, world_ref,
};
use super::skeleton::{SinewSkeleton, skeleton_ref};
use super::types::*;
use crate::{BodyId, BoneDef, Limit, Quat, RagdollDef, Vec3};
use std::ffi::{CStr, c_char};

/// Joint limit type: a ball joint (swing cone and twist range).
pub const SINEW_LIMIT_BALL: u32 = 0;
/// Joint limit type: a hinge about `hinge_axis` within a range.
pub const SINEW_LIMIT_HINGE: u32 = 1;

/// One bone of a skeleton. Fill from `sinew_default_bone_def()`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewBoneDef {
    /// UTF-8, NUL-terminated, for `sinew_ragdoll_find_bone`; may be NULL.
    /// Read during the create call only.
    pub name: *const c_char,
    /// Index of an earlier bone, or -1 for the root (bone 0, and only it).
    pub parent: i32,
    /// Rest transform in world space: the bone's head and frame. The bone
    /// runs along its local +Y. Default identity.
    pub rest: SinewTransform,
    /// Metres along +Y to the tail; 0 (default) = up to the first child's head.
    pub length: f32,
    /// Collision radius, metres, >= 0; default 0.05.
    pub radius: f32,
    /// Kilograms, > 0; default 1.
    pub mass: f32,
    /// `SINEW_LIMIT_*`; default `SINEW_LIMIT_BALL`. Ignored for the root.
    pub limit_type: u32,
    /// Ball: cone half-angle, radians in [0, pi]; default pi (free).
    pub swing: f32,
    /// Ball: twist range about the bone, radians in [-pi, pi]; default
    /// -pi..pi (free).
    pub twist_min: f32,
    /// See `twist_min`.
    pub twist_max: f32,
    /// Hinge: axis in the bone's frame, non-zero; default +X.
    pub hinge_axis: SinewVec3,
    /// Hinge: angle range from rest about the axis, radians in [-pi, pi];
    /// default 0..pi/2.
    pub hinge_min: f32,
    /// See `hinge_min`.
    pub hinge_max: f32,
}

/// A skeleton. Fill from `sinew_default_ragdoll_def()`, then set the bones.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SinewRagdollDef {
    /// `bone_count` bones, a parent before its children, the root first;
    /// read during the call only.
    pub bones: *const SinewBoneDef,
    /// 1..=1024.
    pub bone_count: u32,
    /// Set by `sinew_default_ragdoll_def`; do not touch.
    pub internal_cookie: u32,
}

const RAGDOLL_COOKIE: u32 = 0x534E_5244; // "SNRD"

/// The default bone (see the field docs): a free ball joint. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_bone_def() -> SinewBoneDef {
    SinewBoneDef {
        name: std::ptr::null(),
        parent: -1,
        rest: SinewTransform { position: Vec3::ZERO.into(), rotation: Quat::IDENTITY.into() },
        length: 0.0,
        radius: 0.05,
        mass: 1.0,
        limit_type: SINEW_LIMIT_BALL,
        swing: std::f32::consts::PI,
        twist_min: -std::f32::consts::PI,
        twist_max: std::f32::consts::PI,
        hinge_axis: Vec3::X.into(),
        hinge_min: 0.0,
        hinge_max: std::f32::consts::FRAC_PI_2,
    }
}

/// The default ragdoll def: no bones yet, with its cookie. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_default_ragdoll_def() -> SinewRagdollDef {
    SinewRagdollDef { bones: std::ptr::null(), bone_count: 0, internal_cookie: RAGDOLL_COOKIE }
}

fn bone_of(b: usize, d: &SinewBoneDef) -> Result<BoneDef, Failure> {
    let name = if d.name.is_null() {
        String::new()
    } else {
        // SAFETY: the caller passes a NUL-terminated string (documented).
        let c = unsafe { CStr::from_ptr(d.name) };
        c.to_str().map_err(|_| Failure::invalid(format!("bones[{b}].name is not UTF-8")))?.to_string()
    };
    let parent = match d.parent {
        -1 => None,
        p if p >= 0 => Some(p as u32),
        p => return Err(Failure::invalid(format!("bones[{b}].parent is {p}: -1 or an earlier bone's index"))),
    };
    let limit = match d.limit_type {
        SINEW_LIMIT_BALL => Limit::Ball { swing: d.swing, twist_min: d.twist_min, twist_max: d.twist_max },
        SINEW_LIMIT_HINGE => Limit::Hinge { axis: d.hinge_axis.into(), min: d.hinge_min, max: d.hinge_max },
        t => return Err(Failure::invalid(format!("bones[{b}].limit_type {t} is not a SINEW_LIMIT_* value"))),
    };
    Ok(BoneDef {
        name,
        parent,
        position: d.rest.position.into(),
        rotation: d.rest.rotation.into(),
        length: d.length,
        radius: d.radius,
        mass: d.mass,
        limit,
    })
}

/// The checked bones of a C definition (`def` is valid for reads).
pub(crate) fn ragdoll_def_of(d: &SinewRagdollDef) -> Result<RagdollDef, Failure> {
    if d.internal_cookie != RAGDOLL_COOKIE {
        return Err(Failure::invalid("def was not made by sinew_default_ragdoll_def() (zero-initialised?)"));
    }
    if d.bone_count as usize > crate::ragdoll::MAX_BONES {
        return Err(Failure::from(crate::Error::limit(format!(
            "a ragdoll has at most {} bones, got {}",
            crate::ragdoll::MAX_BONES,
            d.bone_count
        ))));
    }
    // SAFETY: `d.bones` is NULL or valid for reads of `d.bone_count as usize` elements (the `ffi` contract).
    let bones = unsafe { checked_slice(d.bones, d.bone_count as usize, "def.bones") }?;
    let bones = bones.iter().enumerate().map(|(b, bone)| bone_of(b, bone)).collect::<Result<Vec<_>, _>>()?;
    Ok(RagdollDef { bones })
}

/// Creates a ragdoll from a skeleton, at its rest pose and at rest (a body of
/// kind ragdoll). Particles sit at the joints, each bone is a rigid cluster,
/// limits hold each joint, and joints of bones that do not touch are kept
/// apart. Builds the skeleton on each call: for many ragdolls of one, build
/// it once with `sinew_skeleton_create` and use
/// `sinew_ragdoll_create_from_skeleton` (ragdolls of one skeleton step
/// together in SIMD lanes).
///
/// - `def`: from `sinew_default_ragdoll_def()`, with `bones` set; read
///   during the call only (names included).
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a def without its cookie,
/// no bones, a root other than bone 0, a parent that does not come before its
/// child, NaN/inf, a zero rotation or hinge axis, a negative radius, a mass
/// <= 0, a bone of zero length, an unknown limit type, limits out of range or
/// min > max, a name that is not UTF-8; `LIMIT_EXCEEDED` for more than 1024
/// bones or the world's caps (`max_particles`, `max_bodies`,
/// `max_constraints`). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create(
    world: *mut SinewWorld,
    def: *const SinewRagdollDef,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `def` is NULL or valid for reads (the `ffi` contract).
        let d = unsafe { checked_ref(def, "def") }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let def = ragdoll_def_of(d)?;
        let id = world.write(|w| Ok(w.create_ragdoll(&def)?))?;
        *out = id.into();
        Ok(())
    })
}

/// Creates a ragdoll of a skeleton, at rest, in the skeleton's rest pose
/// moved by `at`: a bone whose rest transform is `(x, q)` starts at
/// `(at.position + at.rotation x, at.rotation q)`. The ragdoll holds the
/// skeleton (shared with every other ragdoll of it) until it is destroyed.
/// Same bones, bone order and behaviour as `sinew_ragdoll_create` with the
/// skeleton's def.
///
/// - `skeleton`: from `sinew_skeleton_create*`; read only.
/// - `out_body`: receives the id, written only on success.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a handle that is not a
/// live skeleton, NaN/inf or a zero rotation in `at`; `LIMIT_EXCEEDED` for
/// the world's caps (`max_particles`, `max_bodies`, `max_constraints`).
/// Threading: write lock on the world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create_from_skeleton(
    world: *mut SinewWorld,
    skeleton: *const SinewSkeleton,
    at: SinewTransform,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create_from_skeleton", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `skeleton` is NULL or a handle from this library (the `ffi` contract).
        let s = unsafe { skeleton_ref(skeleton) }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let id = world.write(|w| Ok(w.create_ragdoll_from(&s.skeleton, at.position.into(), at.rotation.into())?))?;
        *out = id.into();
        Ok(())
    })
}

/// A new handle on the skeleton a ragdoll is made of (one built by
/// `sinew_ragdoll_create` or `sinew_ragdoll_create_humanoid` too), to make
/// more ragdolls of it.
///
/// - `out_skeleton`: receives a handle owned by the caller until
///   `sinew_skeleton_destroy`. Written only on success.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a ragdoll).
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_get_skeleton(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    out_skeleton: *mut *mut SinewSkeleton,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_get_skeleton", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_skeleton` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_skeleton, "out_skeleton") }?;
        let skeleton = world.read(|w| Ok(w.ragdoll_skeleton(BodyId::from(ragdoll))?.clone()))?;
        *out = SinewSkeleton::boxed(skeleton);
        Ok(())
    })
}

/// Creates the ready human figure: 17 bones in this order, with these names:
/// 0 pelvis, 1 spine, 2 chest, 3 neck, 4 head, 5 upper_arm_l, 6 lower_arm_l,
/// 7 hand_l, 8 upper_arm_r, 9 lower_arm_r, 10 hand_r, 11 upper_leg_l,
/// 12 lower_leg_l, 13 foot_l, 14 upper_leg_r, 15 lower_leg_r, 16 foot_r.
/// `at` places the figure: its origin is the point on the ground between
/// the feet (the root, in sinew's terms, is always bone 0, the pelvis, which
/// root motion drives); the figure stands up `at`'s +Y, faces its +Z, left side towards +X, arms at its sides. Every bone
/// runs along its local +Y (up the torso, down the limbs, forward along the
/// feet). `height` (metres, sole to top of head, in (0, 1000]) scales a
/// 1.8 m, 76 kg adult (mass by its cube). Knees and elbows bend one way
/// (0 to 145 degrees); shoulders and hips swing widely with a bounded twist.
///
/// The figures of one height in a world share one skeleton (as
/// `sinew_skeleton_create_humanoid` makes it), built by the first and kept
/// while one of them lives; ragdolls of one skeleton step together in SIMD
/// lanes.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for NaN/inf, a zero rotation,
/// a height out of range; `LIMIT_EXCEEDED` (the world's caps; the figure
/// counts 236 constraints). Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_create_humanoid(
    world: *mut SinewWorld,
    at: SinewTransform,
    height: f32,
    out_body: *mut SinewBodyId,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_create_humanoid", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_body` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_body, "out_body") }?;
        let id = world.write(|w| Ok(w.create_humanoid(at.position.into(), at.rotation.into(), height)?))?;
        *out = id.into();
        Ok(())
    })
}

/// Number of bones of a ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a ragdoll).
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_bone_count(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_bone_count", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_count, "out_count") }?;
        *out = world.read(|w| Ok(w.ragdoll_bone_count(BodyId::from(ragdoll))?))?;
        Ok(())
    })
}

/// Copies each bone's world transform (head position and frame, bone order
/// of the def) into `out`, which holds `capacity` transforms. At creation it
/// is the rest pose given, so an engine's bone = this transform * bind
/// offset shows no snap. `out == NULL && capacity == 0` asks for the count;
/// a too small buffer gets nothing: `BUFFER_TOO_SMALL`, with the needed count
/// in `*out_count`. `out_count` may be NULL. Rotations are unit.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `BUFFER_TOO_SMALL`.
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_read_bones(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    out: *mut SinewTransform,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_read_bones", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let bones = w.ragdoll_bones(BodyId::from(ragdoll))?;
            let bones = bones.map(|(p, q)| SinewTransform { position: p.into(), rotation: q.into() });
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, bones) }
        })
    })
}

/// Copies each bone's shape (parent, head and tail particle, rest length,
/// radius, mass; bone order of the def) into `out`, which holds `capacity`
/// shapes: an engine draws a bone's capsule from its head particle to its
/// tail particle with its radius. A ragdoll's other particles (a limb's roll
/// particle, a hinge's two axis particles) carry its motion, do not collide
/// and may lie outside the capsules (below the floor a body rests on); the
/// capsules are the body's surface, and `sinew_body_get_bounds` of a ragdoll
/// is their box. `out == NULL && capacity == 0` asks for the count; a too
/// small buffer gets nothing: `BUFFER_TOO_SMALL`, with the needed count in
/// `*out_count`. `out_count` may be NULL.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`, `BUFFER_TOO_SMALL`.
/// Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_read_bone_shapes(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    out: *mut SinewBoneShape,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_read_bone_shapes", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `out_count` is NULL or valid for writes (the `ffi` contract).
        let out_count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let shapes = w.ragdoll_bone_shapes(BodyId::from(ragdoll))?.map(|s| SinewBoneShape {
                parent: s.parent.map_or(-1, |p| p as i32),
                head_particle: s.head,
                tail_particle: s.tail,
                length: s.length,
                radius: s.radius,
                mass: s.mass,
            });
            // SAFETY: `out` is NULL or valid for writes of `capacity` elements (the `ffi` contract).
            unsafe { read_into(out, capacity, out_count, shapes) }
        })
    })
}

/// The index of the first bone called `name` (UTF-8, NUL-terminated, read
/// during the call only) into `*out_bone`.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// when no bone has that name (nothing is written). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_find_bone(
    world: *const SinewWorld,
    ragdoll: SinewBodyId,
    name: *const c_char,
    out_bone: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_find_bone", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `name` is NULL or valid for reads (the `ffi` contract).
        let name = unsafe { checked_ref(name, "name") }?;
        // SAFETY: non-NULL and documented NUL-terminated.
        let name = unsafe { CStr::from_ptr(name) }.to_str().map_err(|_| Failure::invalid("name is not UTF-8"))?;
        // SAFETY: `out_bone` is NULL or valid for writes (the `ffi` contract).
        let out = unsafe { checked_out(out_bone, "out_bone") }?;
        let found = world.read(|w| Ok(w.ragdoll_find_bone(BodyId::from(ragdoll), name)?))?;
        *out = found.ok_or_else(|| Failure::invalid(format!("the ragdoll has no bone named {name:?}")))?;
        Ok(())
    })
}

/// Teleports a ragdoll to a pose: `bones` holds one world transform per bone
/// (head and frame, bone order). With `previous` non-NULL (the pose `dt`
/// seconds earlier, e.g. the animation's last two frames) the ragdoll keeps
/// that motion: a character switching from animation to ragdoll carries on
/// moving. With `previous` NULL it is at rest (`dt` is then ignored).
/// Wakes it.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a count other than the bone count, NaN/inf, a zero rotation, `dt` <= 0
/// with `previous`. Nothing changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_pose(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransform,
    previous: *const SinewTransform,
    count: u32,
    dt: f32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_pose", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let now = to_pose(unsafe { checked_slice(bones, count as usize, "bones") }?);
        let before = if previous.is_null() {
            None
        } else {
            // SAFETY: `previous` is NULL or valid for reads of `count` elements (the `ffi` contract).
            Some(to_pose(unsafe { checked_slice(previous, count as usize, "previous") }?))
        };
        world.write(|w| Ok(w.set_ragdoll_pose(BodyId::from(ragdoll), &now, before.as_deref().map(|p| (p, dt)))?))
    })
}

/// An impulse (N s, world space) at a world point of a bone, spread over the
/// bone's particles by the point's weights along it: the momentum added is
/// exactly `impulse`, and a push off the centre turns the body. Wakes it.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a bone out of range or NaN/inf. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_apply_impulse(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bone: u32,
    point: SinewVec3,
    impulse: SinewVec3,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_apply_impulse", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.apply_bone_impulse(BodyId::from(ragdoll), bone, point.into(), impulse.into())?))
    })
}

fn to_pose(t: &[SinewTransform]) -> Vec<(Vec3, Quat)> {
    t.iter().map(|t| (t.position.into(), t.rotation.into())).collect()
}

/// Sets the motors' target pose: `bones` holds one world transform per bone
/// (head and frame, bone order of the def), as the animation outputs it each
/// frame. Motors drive each bone's orientation relative to its parent
/// towards the target's, with a rate and a torque cap from
/// `sinew_ragdoll_set_motor_strength` or `sinew_ragdoll_set_bone_motor`, and
/// with root motion (off by default: `sinew_ragdoll_set_motor_root_motion`)
/// the root's position and orientation.
/// Physics keeps the last word: hits, contacts and joint limits push the body
/// off the pose and the motors pull it back. The next step moves the targets
/// from the last ones to these across its substeps, so a new frame never
/// lands as a jump. Motors act once targets are set (strength 1, unlimited,
/// until changed). `bones` is read during the call only. Wakes the ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND` (not a ragdoll);
/// `INVALID_ARGUMENT` for a count other than the bone count, NaN/inf, a zero
/// rotation. Nothing changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_targets(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransform,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_targets", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let pose = to_pose(unsafe { checked_slice(bones, count as usize, "bones") }?);
        world.write(|w| Ok(w.set_ragdoll_motor_targets(BodyId::from(ragdoll), &pose)?))
    })
}

/// As `sinew_ragdoll_set_motor_targets`, with an animation's local pose: each
/// bone's head position and rotation in its parent's frame, the root (bone
/// 0) in world space. `bones` is read during the call only. Wakes the
/// ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a count other than the bone count, NaN/inf, a zero rotation. Nothing
/// changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_targets_local(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bones: *const SinewTransform,
    count: u32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_targets_local", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        // SAFETY: `bones` is NULL or valid for reads of `count` elements (the `ffi` contract).
        let pose = to_pose(unsafe { checked_slice(bones, count as usize, "bones") }?);
        world.write(|w| Ok(w.set_ragdoll_motor_targets_local(BodyId::from(ragdoll), &pose)?))
    })
}

/// Sets every bone's motor. `strength` in [0, 1]: 0 limp, 1 follows the pose
/// (a hard drive with unlimited force); between, the fraction of the error
/// removed per 1/60 s, whatever the substep count. `max_force` in newtons,
/// 0 (or +inf) = unlimited: the root's position drive is capped at it and
/// each bone's orientation drive at `max_force` times the bone's length (that
/// force at its tail). The change is blended across the next step, so
/// changing strength over a few frames blends between limp and animated
/// without a jump. Wakes the ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a strength outside [0, 1] or NaN, a negative or NaN `max_force`.
/// Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_strength(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    strength: f32,
    max_force: f32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_strength", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_ragdoll_motor_strength(BodyId::from(ragdoll), strength, max_force)?))
    })
}

/// Sets one bone's motor: `strength` in [0, 1] (see
/// `sinew_ragdoll_set_motor_strength`), `max_force` in newtons on its
/// position (only the root's position is driven, by root motion) and
/// `max_torque` in newton metres on its orientation; 0 (or +inf) =
/// unlimited. Wakes the ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for a bone out of range, a strength outside [0, 1], NaN, a negative cap.
/// Nothing changes on error. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_bone_motor(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    bone: u32,
    strength: f32,
    max_force: f32,
    max_torque: f32,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_bone_motor", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        world.write(|w| Ok(w.set_ragdoll_bone_motor(BodyId::from(ragdoll), bone, strength, max_force, max_torque)?))
    })
}

/// Root motion: `enabled` 1 drives the root bone's position and orientation
/// to its target in world space, so a character stands (or walks) on its
/// motors alone, wherever the ground is; 0 (the default) leaves them free,
/// only the joints being driven (the body keeps its shape and moves as
/// physics takes it: it falls when the floor under it goes). Wakes the
/// ragdoll.
///
/// Errors: `NULL_ARGUMENT`, `INVALID_ID`, `WRONG_KIND`; `INVALID_ARGUMENT`
/// for `enabled` other than 0 or 1. Threading: write lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_ragdoll_set_motor_root_motion(
    world: *mut SinewWorld,
    ragdoll: SinewBodyId,
    enabled: SinewBool,
) -> SinewResult {
    ffi_boundary!("sinew_ragdoll_set_motor_root_motion", {
        // SAFETY: `world` is NULL or a world from `sinew_world_create` (the `ffi` contract).
        let world = unsafe { world_ref(world) }?;
        let on = match enabled {
            0 => false,
            1 => true,
            v => return Err(Failure::invalid(format!("enabled must be 0 or 1, got {v}"))),
        };
        world.write(|w| Ok(w.set_ragdoll_root_motion(BodyId::from(ragdoll), on)?))
    })
}
