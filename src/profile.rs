//! Where a step's time goes, stage by stage (as Box2D's `b2Profile`), for an
//! engine's debug overlay and for the benches' breakdowns. Off by default:
//! when on, each stage of each island reads the clock twice (a few tens of
//! nanoseconds), which a ragdoll's many short stages would feel.

use std::time::Instant;

/// The stages a step is timed in, in the order the step runs them (see
/// `solver`'s stage list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Colliders in world space, swept bounds, frames, islands, joints
    /// resolved: the step's set-up before the islands run.
    Prepare,
    /// Per island: the colliders near it, the candidates each body may
    /// reach, the pairs of bodies, cloth and rigid pieces that may meet.
    BroadPhase,
    /// Forces, gravity and damping; wind; kinematic targets and skins placed.
    Predict,
    /// A body's own constraints: targets, sticks, bending, tethers, skin.
    Constraints,
    /// A ragdoll's contacts with the colliders before each of its passes.
    RagdollContacts,
    /// Its bones made rigid (shape matching).
    Bones,
    /// Its joints held together and within their hinge and cone ranges.
    Joints,
    /// Its parts kept apart (separations).
    Separations,
    /// Its joints' twist limits.
    Twists,
    /// Contacts with the colliders after the passes; a rigid body's shape.
    Contacts,
    /// A ragdoll's bone lengths, solved exactly.
    BoneLengths,
    /// Two-way joints, cloth pairs, contacts between bodies, rigid pairs.
    Couplings,
    /// Velocities from the moves, friction.
    Velocities,
    /// A ragdoll's bones moved as rigid bodies, and its joint friction.
    BoneMotion,
    /// Motors towards the animated pose.
    Motors,
    /// Rigid bodies' motions and fits.
    RigidBodies,
    /// The recovery check, sleep, the contact readback.
    Finish,
}

impl Stage {
    /// Number of stages.
    pub const COUNT: usize = Stage::Finish as usize + 1;

    /// Every stage, in order.
    pub const ALL: [Stage; Stage::COUNT] = [
        Stage::Prepare,
        Stage::BroadPhase,
        Stage::Predict,
        Stage::Constraints,
        Stage::RagdollContacts,
        Stage::Bones,
        Stage::Joints,
        Stage::Separations,
        Stage::Twists,
        Stage::Contacts,
        Stage::BoneLengths,
        Stage::Couplings,
        Stage::Velocities,
        Stage::BoneMotion,
        Stage::Motors,
        Stage::RigidBodies,
        Stage::Finish,
    ];

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Prepare => "prepare",
            Stage::BroadPhase => "broad phase",
            Stage::Predict => "predict",
            Stage::Constraints => "constraints",
            Stage::RagdollContacts => "ragdoll contacts",
            Stage::Bones => "bones (fit)",
            Stage::Joints => "joints",
            Stage::Separations => "separations",
            Stage::Twists => "twists",
            Stage::Contacts => "contacts",
            Stage::BoneLengths => "bone lengths",
            Stage::Couplings => "couplings",
            Stage::Velocities => "velocities, friction",
            Stage::BoneMotion => "bone motion",
            Stage::Motors => "motors",
            Stage::RigidBodies => "rigid bodies",
            Stage::Finish => "finish",
        }
    }
}

/// Seconds spent in each stage of the last step, summed over islands and
/// workers (so with two workers their sum can exceed the step's wall time).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Profile {
    /// The step's wall time.
    pub step: f64,
    /// Indexed by `Stage as usize`.
    pub stages: [f64; Stage::COUNT],
}

impl Profile {
    /// Seconds in `stage`.
    pub fn get(&self, stage: Stage) -> f64 {
        self.stages[stage as usize]
    }

    /// Each stage with its seconds, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Stage, f64)> + '_ {
        Stage::ALL.iter().map(|&s| (s, self.get(s)))
    }
}

/// A worker's stopwatch over the stages; does nothing when off.
#[derive(Debug, Clone, Default)]
pub(crate) struct Clock {
    on: bool,
    pub(crate) seconds: [f64; Stage::COUNT],
}

impl Clock {
    /// Zeroed, timing or not.
    pub(crate) fn reset(&mut self, on: bool) {
        self.on = on;
        self.seconds = [0.0; Stage::COUNT];
    }

    /// Now, when timing.
    #[inline]
    pub(crate) fn start(&self) -> Option<Instant> {
        self.on.then(Instant::now)
    }

    /// Adds the time since `start` to `stage`, and starts again (the next
    /// stage's start).
    #[inline]
    pub(crate) fn lap(&mut self, stage: Stage, start: Option<Instant>) -> Option<Instant> {
        let t = start?;
        let now = Instant::now();
        self.seconds[stage as usize] += (now - t).as_secs_f64();
        Some(now)
    }
}
