//! Plain C types of the ABI and their conversions to the core's.

use crate::{BodyId, ColliderId, DVec3, ErrorKind, JointId, Quat, Vec3};

/// A boolean as a `uint32_t`: 0 is false, 1 is true (no C `bool` in the ABI).
pub type SinewBool = u32;

/// A 32-bit signed result code; the values below are never renumbered.
pub type SinewResult = i32;
/// Success.
pub const SINEW_RESULT_OK: SinewResult = 0;
/// A required pointer was NULL.
pub const SINEW_RESULT_NULL_ARGUMENT: SinewResult = 1;
/// A body or collider id that is null, destroyed, or from another world.
pub const SINEW_RESULT_INVALID_ID: SinewResult = 2;
/// NaN/inf, an out-of-range index or enum value, a bad def (cookie).
pub const SINEW_RESULT_INVALID_ARGUMENT: SinewResult = 3;
/// A readback buffer is too small; the needed count was stored.
pub const SINEW_RESULT_BUFFER_TOO_SMALL: SinewResult = 4;
/// The call does not apply to this kind of body.
pub const SINEW_RESULT_WRONG_KIND: SinewResult = 5;
/// The world is busy in a way that cannot be waited for.
pub const SINEW_RESULT_WORLD_LOCKED: SinewResult = 6;
/// An earlier panic left this world unusable; destroy it.
pub const SINEW_RESULT_POISONED: SinewResult = 7;
/// sinew panicked inside this call (a bug in sinew); the panic was contained.
pub const SINEW_RESULT_PANIC: SinewResult = 8;
/// A configured or addressable limit was reached.
pub const SINEW_RESULT_LIMIT_EXCEEDED: SinewResult = 9;
/// A snapshot of another version, or a corrupted one.
pub const SINEW_RESULT_INCOMPATIBLE: SinewResult = 10;

/// Maps a core error category to its code.
pub(crate) fn result_of(kind: ErrorKind) -> SinewResult {
    match kind {
        ErrorKind::InvalidId => SINEW_RESULT_INVALID_ID,
        ErrorKind::InvalidArgument => SINEW_RESULT_INVALID_ARGUMENT,
        ErrorKind::LimitExceeded => SINEW_RESULT_LIMIT_EXCEEDED,
        ErrorKind::WrongKind => SINEW_RESULT_WRONG_KIND,
        ErrorKind::Incompatible => SINEW_RESULT_INCOMPATIBLE,
    }
}

/// A vector in metres (or m/s, m/s^2): 12 bytes, like Unity's `Vector3`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewVec3 {
    /// X.
    pub x: f32,
    /// Y (up by convention).
    pub y: f32,
    /// Z.
    pub z: f32,
}

/// A rotation quaternion, x, y, z, w (Unity's and glm's order).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewQuat {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Z.
    pub z: f32,
    /// W (1 for the identity).
    pub w: f32,
}

/// A rigid transform: rotation, then translation.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewTransform {
    /// World-space position.
    pub position: SinewVec3,
    /// Rotation; normalised by sinew on input, must not be zero.
    pub rotation: SinewQuat,
}

/// A world position in double precision, metres: for engines with large
/// worlds (Godot's double builds, Unreal's large world coordinates), where
/// an `f32` 10 km out is rounded to 1 mm. Used by the `_d` calls. 24 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewVec3d {
    /// X.
    pub x: f64,
    /// Y (up by convention).
    pub y: f64,
    /// Z.
    pub z: f64,
}

/// A rigid transform with its position in double precision (the `_d`
/// calls): rotation, then translation.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewTransformd {
    /// World-space position, metres.
    pub position: SinewVec3d,
    /// Rotation; normalised by sinew on input, must not be zero.
    pub rotation: SinewQuat,
}

/// A ragdoll bone's shape (`sinew_ragdoll_read_bone_shapes`): enough for an
/// engine to draw or query its capsule, which runs from its head particle
/// to its tail particle with `radius`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewBoneShape {
    /// The parent bone, -1 for the root.
    pub parent: i32,
    /// The head and tail particles (indices within the body, as
    /// `sinew_body_read_positions` reads them).
    pub head_particle: u32,
    /// See `head_particle`.
    pub tail_particle: u32,
    /// Rest length from head to tail, metres.
    pub length: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// Kilograms.
    pub mass: f32,
}

/// Where a step's time went (`sinew_world_get_profile`), in milliseconds:
/// the step's wall time, then each stage summed over the world's groups of
/// coupled bodies and its workers (with two workers the stages can add up
/// to more than `step`). Stages a scene does not have read 0.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewProfile {
    /// The whole `sinew_world_step`.
    pub step: f32,
    /// Colliders, swept bounds, body frames, islands, joints resolved.
    pub prepare: f32,
    /// The colliders and bodies each body may reach this step.
    pub broad_phase: f32,
    /// Forces, gravity, damping, wind, kinematic targets, skins placed.
    pub predict: f32,
    /// Each body's own constraints: targets, sticks, bending, tethers, skin.
    pub constraints: f32,
    /// A ragdoll's contacts with the colliders before each of its passes.
    pub ragdoll_contacts: f32,
    /// A ragdoll's bones made rigid (shape matching).
    pub bones: f32,
    /// Its joints held together and within their hinge and cone ranges.
    pub joints: f32,
    /// Its parts kept apart.
    pub separations: f32,
    /// Its joints' twist limits.
    pub twists: f32,
    /// Contacts with the colliders after the passes; rigid bodies' shapes.
    pub contacts: f32,
    /// A ragdoll's bone lengths, solved exactly.
    pub bone_lengths: f32,
    /// Two-way joints, cloth pairs, contacts between bodies, rigid pairs.
    pub couplings: f32,
    /// Velocities from the moves, and friction.
    pub velocities: f32,
    /// A ragdoll's bones moved as rigid bodies, and its joint friction.
    pub bone_motion: f32,
    /// Motors towards the animated pose.
    pub motors: f32,
    /// Rigid bodies' motions.
    pub rigid_bodies: f32,
    /// The recovery check, sleep, the contact readback.
    pub finish: f32,
}

impl From<&crate::Profile> for SinewProfile {
    fn from(p: &crate::Profile) -> Self {
        use crate::Stage as S;
        let ms = |s: S| (p.get(s) * 1e3) as f32;
        SinewProfile {
            step: (p.step * 1e3) as f32,
            prepare: ms(S::Prepare),
            broad_phase: ms(S::BroadPhase),
            predict: ms(S::Predict),
            constraints: ms(S::Constraints),
            ragdoll_contacts: ms(S::RagdollContacts),
            bones: ms(S::Bones),
            joints: ms(S::Joints),
            separations: ms(S::Separations),
            twists: ms(S::Twists),
            contacts: ms(S::Contacts),
            bone_lengths: ms(S::BoneLengths),
            couplings: ms(S::Couplings),
            velocities: ms(S::Velocities),
            bone_motion: ms(S::BoneMotion),
            motors: ms(S::Motors),
            rigid_bodies: ms(S::RigidBodies),
            finish: ms(S::Finish),
        }
    }
}

/// A body of a world; all zero is the null id.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinewBodyId {
    /// Slot index + 1 (0 = null).
    pub index1: u32,
    /// Generation, unique in the process.
    pub generation: u32,
}

/// A collider of a world; all zero is the null id.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinewColliderId {
    /// Slot index + 1 (0 = null).
    pub index1: u32,
    /// Generation, unique in the process.
    pub generation: u32,
}

/// A joint between particles of two bodies; all zero is the null id.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinewJointId {
    /// Slot index + 1 (0 = null).
    pub index1: u32,
    /// Generation, unique in the process.
    pub generation: u32,
}

const _: () = assert!(size_of::<SinewVec3>() == 12);
const _: () = assert!(size_of::<SinewQuat>() == 16);
const _: () = assert!(size_of::<SinewTransform>() == 28);
const _: () = assert!(size_of::<SinewVec3d>() == 24);
const _: () = assert!(size_of::<SinewTransformd>() == 40);
const _: () = assert!(size_of::<super::double::SinewTargetd>() == 40);
const _: () = assert!(size_of::<SinewBodyId>() == 8);
const _: () = assert!(size_of::<SinewColliderId>() == 8);

impl From<SinewVec3> for Vec3 {
    fn from(v: SinewVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}
impl From<Vec3> for SinewVec3 {
    fn from(v: Vec3) -> SinewVec3 {
        SinewVec3 { x: v.x, y: v.y, z: v.z }
    }
}
impl From<SinewVec3d> for DVec3 {
    fn from(v: SinewVec3d) -> DVec3 {
        DVec3::new(v.x, v.y, v.z)
    }
}
impl From<DVec3> for SinewVec3d {
    fn from(v: DVec3) -> SinewVec3d {
        SinewVec3d { x: v.x, y: v.y, z: v.z }
    }
}
impl From<SinewQuat> for Quat {
    fn from(q: SinewQuat) -> Quat {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}
impl From<Quat> for SinewQuat {
    fn from(q: Quat) -> SinewQuat {
        SinewQuat { x: q.x, y: q.y, z: q.z, w: q.w }
    }
}
impl From<SinewBodyId> for BodyId {
    fn from(id: SinewBodyId) -> BodyId {
        BodyId { index1: id.index1, generation: id.generation }
    }
}
impl From<BodyId> for SinewBodyId {
    fn from(id: BodyId) -> SinewBodyId {
        SinewBodyId { index1: id.index1, generation: id.generation }
    }
}
impl From<SinewColliderId> for ColliderId {
    fn from(id: SinewColliderId) -> ColliderId {
        ColliderId { index1: id.index1, generation: id.generation }
    }
}
impl From<ColliderId> for SinewColliderId {
    fn from(id: ColliderId) -> SinewColliderId {
        SinewColliderId { index1: id.index1, generation: id.generation }
    }
}
impl From<SinewJointId> for JointId {
    fn from(id: SinewJointId) -> JointId {
        JointId { index1: id.index1, generation: id.generation }
    }
}
impl From<JointId> for SinewJointId {
    fn from(id: JointId) -> SinewJointId {
        SinewJointId { index1: id.index1, generation: id.generation }
    }
}
