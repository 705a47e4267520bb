//! Motors: a ragdoll driven towards the animation's pose with a limited
//! torque, physics keeping the last word (the Doom 3 "Armed Mine" motor
//! joints of "Armed Mine: animation-driven physics in Doom 3").
//!
//! Each bone with a parent has a ball-and-socket motor drive: with `R_p`,
//! `R_c` the world rotations of parent and child and `T_p`, `T_c` their
//! targets, the child is where it should be when `R_c = R_p T_p^-1 T_c`, and
//! the world-space error is the rotation vector `eps` of
//! `(R_p T_p^-1 T_c) R_c^-1`. As in the article the motor is a velocity
//! constraint: over the next substep the relative turn of child and parent
//! becomes `r eps` (`c = r eps / dt`), `r` being the fraction of the error
//! removed per substep. It acts as a couple (an angular impulse `L` on the
//! child and `-L` on the parent, split by their inverse inertias as the
//! joint friction of `motion.rs` is), so a ragdoll cannot turn itself in the
//! air, and the accumulated `|L|` is clamped to `tau_max h^2` (the article's
//! `[-tau_max, tau_max]` bounds on lambda, in the units of a position step).
//! The root bone has a world-space drive of its orientation and head
//! position alike ("root motion"; off, the root is free), its push clamped to
//! `F_max h^2`.
//!
//! The couples of a skeleton share bones, so they are solved by a few
//! Gauss-Seidel sweeps from the root to the leaves, each joint's lambda
//! accumulated and clamped as in any sequential-impulse solver.
//!
//! Targets and strengths are interpolated across the substeps of a step,
//! from where they were at the end of the previous step ("or the simulation
//! will see a big jump", Jolt's skinning): a new animation frame or a new
//! strength never lands at once. `strength` is the fraction of the error
//! removed per 1/60 s; per substep of length `h` that is
//! `r = 1 - (1 - strength)^(60 h)`, so a strength means the same at any
//! substep count, 1 is a hard drive and 0 none.

use super::motion::{self, Arms, Motion, add_turn};
use super::{Ragdoll, build};
use crate::constraints::shape_match::ClusterSet;
use crate::error::{Error, Result};
use crate::particles::ParticlesMut;
use glam::{Mat3, Quat, Vec3};

/// Gauss-Seidel sweeps over the skeleton's motors per substep. Measured on
/// a full-strength humanoid tracking a pose gliding at 1 m/s: 12.6 mm RMS
/// with one sweep, 2.8 mm with two, 0.5 mm with four; with one it also
/// settles 1.6 cm off the pose after a shove.
pub(crate) const SWEEPS: usize = 4;

/// The time `strength` is a fraction of the error per (seconds).
const STRENGTH_PERIOD: f32 = 1.0 / 60.0;

/// The motor state of a ragdoll (per bone, in bone order).
#[derive(Debug, Clone, PartialEq)]
pub struct Motors {
    /// Targets were set: the motors act (strength permitting).
    pub active: bool,
    /// The root's position and orientation are driven in world space.
    pub root_motion: bool,
    /// Target (head, world rotation) at the end of the last step.
    pub from: Vec<(Vec3, Quat)>,
    /// Target for the end of the next step.
    pub to: Vec<(Vec3, Quat)>,
    /// Strength at the end of the last step, in [0, 1].
    pub strength_from: Vec<f32>,
    /// Strength for the end of the next step.
    pub strength: Vec<f32>,
    /// Newtons on the root's position; `f32::INFINITY` when unlimited.
    pub max_force: Vec<f32>,
    /// Newton metres on the bone's orientation; `f32::INFINITY` when
    /// unlimited.
    pub max_torque: Vec<f32>,
}

/// The motors' per-substep scratch, each worker's: each bone's rate,
/// target rotation, error and accumulated impulse. Every entry is written
/// before it is read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    rate: Vec<f32>,
    goal: Vec<Quat>,
    error: Vec<Vec3>,
    lambda: Vec<Vec3>,
    /// Each joint's `(I_c^-1 + I_p^-1)^-1`; the root's `I`.
    gain: Vec<Mat3>,
}

impl Scratch {
    /// Sized for `n` bones.
    fn fit(&mut self, n: usize) {
        self.rate.resize(n, 0.0);
        self.goal.resize(n, Quat::IDENTITY);
        self.error.resize(n, Vec3::ZERO);
        self.lambda.resize(n, Vec3::ZERO);
        self.gain.resize(n, Mat3::ZERO);
    }

    /// Adds `delta` to bone `b`'s accumulated angular impulse, clamped to
    /// `cap` in size; returns what was added after the clamp.
    fn accumulate(&mut self, b: usize, delta: Vec3, cap: f32) -> Vec3 {
        let before = self.lambda[b];
        self.lambda[b] = clamp(before + delta, cap);
        self.lambda[b] - before
    }
}

impl Motors {
    /// Motors of `n` bones: no targets yet, full strength, unlimited force,
    /// root motion off.
    pub fn new(n: usize) -> Self {
        Motors {
            active: false,
            root_motion: false,
            from: vec![(Vec3::ZERO, Quat::IDENTITY); n],
            to: vec![(Vec3::ZERO, Quat::IDENTITY); n],
            strength_from: vec![1.0; n],
            strength: vec![1.0; n],
            max_force: vec![f32::INFINITY; n],
            max_torque: vec![f32::INFINITY; n],
        }
    }

    /// Moves every target by `-by`: the body's frame moved by `by`.
    pub fn shift(&mut self, by: Vec3) {
        for v in [&mut self.from, &mut self.to] {
            v.iter_mut().for_each(|(x, _)| *x -= by);
        }
    }

    /// Carries the goals by the rigid motion `x -> turn x + by` (a teleport).
    pub fn carry(&mut self, turn: Quat, by: Vec3) {
        for v in [&mut self.from, &mut self.to] {
            v.iter_mut().for_each(|(x, q)| (*x, *q) = (turn * *x + by, (turn * *q).normalize()));
        }
    }

    /// Sets the target pose in the body's frame (validated by the caller). The first
    /// targets start where they are; later ones are reached by interpolation
    /// from the last step's.
    pub fn set_targets(&mut self, pose: &[(Vec3, Quat)]) {
        self.to.copy_from_slice(pose);
        if !self.active {
            self.from.copy_from_slice(pose);
            self.strength_from.copy_from_slice(&self.strength);
            self.active = true;
        }
    }

    /// The step is over: targets and strengths now start where they ended.
    pub fn end_step(&mut self) {
        self.from.copy_from_slice(&self.to);
        self.strength_from.copy_from_slice(&self.strength);
    }

    /// What the motors aim at over the next substep (substep `substep + 1`
    /// of `substeps`, length `h`), into `scratch`: each bone's rate (zero
    /// where it is not driven) and target rotation, and the root's head
    /// error, which it returns. `None` when no targets were set.
    pub(crate) fn targets(
        &self,
        scratch: &mut Scratch,
        parents: &[Option<u32>],
        root_head: Vec3,
        h: f32,
        (substep, substeps): (u32, u32),
    ) -> Option<Vec3> {
        if !self.active {
            return None;
        }
        // The next substep ends at s; past the step's end the targets hold.
        let s = ((substep + 2) as f32 / substeps as f32).min(1.0);
        let exponent = h / STRENGTH_PERIOD;
        scratch.fit(parents.len());
        for (b, goal) in scratch.goal.iter_mut().enumerate() {
            *goal = self.from[b].1.lerp(self.to[b].1, s);
        }
        let mut root_error = Vec3::ZERO;
        // The last strength's rate: bones mostly share one strength, and
        // `powf` was a third of the motors' set-up.
        let mut last = (f32::NAN, 0.0);
        for (b, parent) in parents.iter().enumerate() {
            let strength = self.strength_from[b] * (1.0 - s) + self.strength[b] * s;
            if strength != last.0 {
                last = (strength, 1.0 - (1.0 - strength).powf(exponent));
            }
            let driven = parent.is_some() || self.root_motion;
            scratch.rate[b] = if driven && strength > 0.0 { last.1 } else { 0.0 };
            scratch.lambda[b] = Vec3::ZERO;
            if parent.is_none() && scratch.rate[b] != 0.0 {
                let head = self.from[b].0 * (1.0 - s) + self.to[b].0 * s;
                root_error = head - root_head;
            }
        }
        Some(root_error)
    }

    /// [`Motors::targets`], and each driven bone's rotation error: the
    /// rotation vector of `(R_p T_p^-1 T_c) R_c^-1` (the root's `T R^-1`).
    pub(crate) fn goals(
        &self,
        scratch: &mut Scratch,
        clusters: &ClusterSet,
        parents: &[Option<u32>],
        root_head: Vec3,
        h: f32,
        steps: (u32, u32),
    ) -> Option<Vec3> {
        let root_error = self.targets(scratch, parents, root_head, h, steps)?;
        for (b, parent) in parents.iter().enumerate() {
            if scratch.rate[b] == 0.0 {
                continue;
            }
            let wanted = match *parent {
                None => scratch.goal[b],
                Some(q) => {
                    clusters.world_rotation(q as usize) * (scratch.goal[q as usize].conjugate() * scratch.goal[b])
                }
            };
            scratch.error[b] = rotation_vector(wanted * clusters.world_rotation(b).conjugate());
        }
        Some(root_error)
    }

    /// Bone `b`'s rate and target rotation as [`Motors::targets`] left them
    /// in `scratch`.
    pub(crate) fn target(scratch: &Scratch, b: usize) -> (f32, Quat) {
        (scratch.rate[b], scratch.goal[b])
    }

    /// The velocity stage of the motors at the end of substep `substep` (of
    /// `substeps`, length `h`): sets each joint's relative turn over the next
    /// substep towards the targets for its end.
    ///
    /// `motions` are the bones' rigid motions the velocity stage found
    /// before (`motion::rigidify_keeping`): positions do not move in a
    /// velocity stage, so each bone's centre, mass and inertia are still
    /// theirs, and only its momentum is read again after each couple
    /// (`motion::moving`). Finding the whole motion again each time was 90 %
    /// of a powered humanoid's motor stage.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn drive(
        &self,
        scratch: &mut Scratch,
        clusters: &ClusterSet,
        parents: &[Option<u32>],
        root_head: u32,
        motions: &[Option<Motion>],
        arms: &mut Arms,
        p: &ParticlesMut,
        h: f32,
        steps: (u32, u32),
    ) {
        let head = p.position(root_head as usize);
        let Some(root_error) = self.goals(scratch, clusters, parents, head, h, steps) else { return };
        let h2 = h * h;
        // Each joint's `(I_c^-1 + I_p^-1)^-1` and the root's `I`, which
        // the sweeps do not change; zero where a bone has no motion, or its
        // parent none.
        for (b, parent) in parents.iter().enumerate() {
            let child = motions[b].as_ref().filter(|_| scratch.rate[b] > 0.0);
            scratch.gain[b] = match (child, parent.map(|q| motions[q as usize].as_ref())) {
                (Some(m), None) => m.inv_inertia.inverse(),
                (Some(c), Some(Some(q))) => {
                    let sum: Mat3 = c.inv_inertia + q.inv_inertia;
                    if sum.determinant().abs() < 1.0e-30 { Mat3::ZERO } else { sum.inverse() }
                }
                _ => Mat3::ZERO,
            };
        }
        let mut root_push = Vec3::ZERO;
        for _ in 0..SWEEPS {
            for (b, parent) in parents.iter().enumerate() {
                let (rate, gain) = (scratch.rate[b], scratch.gain[b]);
                if gain == Mat3::ZERO {
                    continue;
                }
                let torque_cap = self.max_torque[b] * h2;
                match *parent {
                    None => {
                        let m = motions[b].as_ref().expect("a gain has a motion");
                        let (displacement, now) = motion::moving(clusters, b, m, arms, h);
                        let applied = scratch.accumulate(b, gain * (scratch.error[b] * rate - now), torque_cap);
                        let turn = m.inv_inertia * applied;
                        add_turn(clusters, b, arms, turn, p.inv_h);
                        // The head's displacement over the next substep, now.
                        let head = p.position(root_head as usize);
                        let moving = displacement + (now + turn).cross(head - m.center);
                        let wanted = root_push + (root_error * rate - moving) * m.mass;
                        let push = clamp(wanted, self.max_force[b] * h2);
                        arms.shift(clusters, b, (push - root_push) / m.mass, p.inv_h);
                        root_push = push;
                    }
                    Some(q) => {
                        let q = q as usize;
                        let (c, pm) = (motions[b].as_ref().expect("a gain"), motions[q].as_ref().expect("a gain"));
                        let relative =
                            motion::moving(clusters, b, c, arms, h).1 - motion::moving(clusters, q, pm, arms, h).1;
                        let applied = scratch.accumulate(b, gain * (scratch.error[b] * rate - relative), torque_cap);
                        add_turn(clusters, b, arms, c.inv_inertia * applied, p.inv_h);
                        add_turn(clusters, q, arms, -(pm.inv_inertia * applied), p.inv_h);
                    }
                }
            }
        }
    }
}

/// `v` shortened to at most `cap` (an infinite cap leaves it).
fn clamp(v: Vec3, cap: f32) -> Vec3 {
    let len = v.length();
    if len > cap { v * (cap / len) } else { v }
}

/// The rotation vector (axis times angle, the short way round) of `q`.
fn rotation_vector(q: Quat) -> Vec3 {
    let q = if q.w < 0.0 { -q } else { q };
    q.normalize().to_scaled_axis()
}

/// World transforms of a pose given bone by bone relative to the parent
/// (the root in world space), by forward kinematics.
pub fn world_pose(parents: &[Option<u32>], local: &[(Vec3, Quat)]) -> Vec<(Vec3, Quat)> {
    let mut out: Vec<(Vec3, Quat)> = Vec::with_capacity(local.len());
    for (parent, &(x, q)) in parents.iter().zip(local) {
        out.push(match *parent {
            None => (x, q),
            Some(p) => {
                let (px, pq) = out[p as usize];
                (px + pq * x, (pq * q).normalize())
            }
        });
    }
    out
}

pub(crate) fn check_strength(strength: f32) -> Result<f32> {
    if !(0.0..=1.0).contains(&strength) {
        return Err(Error::invalid_argument(format!("strength must be in [0, 1], got {strength}")));
    }
    Ok(strength)
}

/// A force or torque cap: >= 0, 0 or +inf for none.
pub(crate) fn check_cap(v: f32, what: &str) -> Result<f32> {
    if v.is_nan() || v < 0.0 {
        return Err(Error::invalid_argument(format!("{what} must be >= 0 (0 or +inf = unlimited), got {v}")));
    }
    Ok(if v == 0.0 { f32::INFINITY } else { v })
}

/// Each bone's length, head to tail.
pub(crate) fn bone_length(r: &Ragdoll, b: usize) -> f32 {
    build::tail_of(&r.skeleton.def, b).map_or(0.0, |t| (t - r.skeleton.def.bones[b].position).length())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_pose_composes_parent_frames() {
        let parents = [None, Some(0), Some(1)];
        let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let local = [(Vec3::new(1.0, 0.0, 0.0), turn), (Vec3::Y, Quat::IDENTITY), (Vec3::Y, turn)];
        let world = world_pose(&parents, &local);
        // The root turned +Y to -X, so each child's +Y offset runs along -X.
        assert!((world[1].0 - Vec3::new(0.0, 0.0, 0.0)).length() < 1e-6, "{:?}", world[1]);
        assert!((world[2].0 - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-6, "{:?}", world[2]);
        assert!(world[2].1.angle_between(turn * turn) < 1e-3); // acos near 1: f32 gives ~3e-4
    }

    #[test]
    fn the_rotation_vector_takes_the_short_way() {
        let q = Quat::from_rotation_y(0.3);
        assert!((rotation_vector(-q) - Vec3::Y * 0.3).length() < 1e-6);
    }
}
