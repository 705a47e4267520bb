//! Targets: a particle pulled towards a world-space point that the engine sets
//! each frame (animation, IK, dragging a corpse by the hand).
//!
//! A target is a zero-length XPBD distance constraint to a moving point,
//! `C = |x - t|`, with a cap on its multiplier: `|lambda| <= F h^2`, so the
//! correction it applies in one substep is at most `F h^2 w` (the distance a
//! force `F` moves a mass `1/w` from rest in time `h`). Physics keeps the last
//! word: a weak or capped target lets a hit push the particle off the pose and
//! pulls it back afterwards (the Doom 3 "Armed Mine" motors, shared/seeds/001).
//!
//! The target point is interpolated across the substeps of a step, from where
//! it was at the end of the previous step to the new position, so a new
//! animation frame never lands as one jump ("or the simulation will see a big
//! jump", Jolt's skinning).
//!
//! A pinned particle (inverse mass 0) cannot be pulled; a target on it moves it
//! kinematically instead: it is placed on the interpolated point every substep.

use crate::particles::ParticlesMut;
use glam::Vec3;

/// A target for one particle of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    /// Particle index within the body.
    pub particle: u32,
    /// World-space position for the end of the next step.
    pub position: Vec3,
    /// XPBD compliance; 0 = as stiff as the solver allows.
    pub compliance: f32,
    /// Newtons; 0 or +inf = unlimited.
    pub max_force: f32,
}

/// A body's targets, sorted by particle.
#[derive(Clone, Debug, Default)]
pub struct TargetSet {
    pub particle: Vec<u32>,
    /// Where the point was at the end of the last step.
    pub from: Vec<Vec3>,
    /// Where it must be at the end of the next step.
    pub to: Vec<Vec3>,
    pub compliance: Vec<f32>,
    /// Newtons, `f32::INFINITY` when unlimited.
    pub max_force: Vec<f32>,
    /// This substep's interpolated point.
    current: Vec<Vec3>,
    lambda: Vec<f32>,
}

impl TargetSet {
    pub fn len(&self) -> usize {
        self.particle.len()
    }

    /// Sets or replaces targets (validated by the caller). A replaced target
    /// keeps its `from`, so the motion towards the new point is interpolated.
    pub fn set(&mut self, targets: &[Target]) {
        for t in targets {
            let max_force = if t.max_force == 0.0 { f32::INFINITY } else { t.max_force };
            match self.particle.binary_search(&t.particle) {
                Ok(k) => {
                    self.to[k] = t.position;
                    self.compliance[k] = t.compliance;
                    self.max_force[k] = max_force;
                }
                Err(k) => {
                    self.particle.insert(k, t.particle);
                    self.from.insert(k, t.position);
                    self.to.insert(k, t.position);
                    self.compliance.insert(k, t.compliance);
                    self.max_force.insert(k, max_force);
                    self.current.insert(k, t.position);
                    self.lambda.insert(k, 0.0);
                }
            }
        }
    }

    pub fn clear(&mut self) {
        *self = TargetSet::default();
    }

    /// Rebuilds a set from a snapshot (validated by the caller).
    pub fn from_parts(
        particle: Vec<u32>,
        from: Vec<Vec3>,
        to: Vec<Vec3>,
        compliance: Vec<f32>,
        max_force: Vec<f32>,
    ) -> Self {
        let n = particle.len();
        TargetSet { current: to.clone(), lambda: vec![0.0; n], particle, from, to, compliance, max_force }
    }

    /// Interpolates this substep's points (`substep` of `substeps`, 0-based),
    /// resets the multipliers and places kinematic (pinned) particles.
    pub fn begin_substep(&mut self, p: &mut ParticlesMut, substep: u32, substeps: u32) {
        // s reaches exactly 1 at the last substep, and from*(1-s) + to*s is then exactly `to`.
        let s = (substep + 1) as f32 / substeps as f32;
        for k in 0..self.len() {
            self.current[k] = self.from[k] * (1.0 - s) + self.to[k] * s;
            self.lambda[k] = 0.0;
            let i = self.particle[k] as usize;
            if p.inv_mass[i] == 0.0 {
                p.set_position(i, self.current[k]);
            }
        }
    }

    /// One projection pass. `h2` is the substep length squared.
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32, h2: f32) {
        for k in 0..self.len() {
            let i = self.particle[k] as usize;
            let w = p.inv_mass[i];
            let d = p.position(i) - self.current[k];
            let len = d.length();
            if w == 0.0 || len < 1e-12 {
                continue;
            }
            let alpha_tilde = self.compliance[k] * inv_h2;
            let dlambda = (-len - alpha_tilde * self.lambda[k]) / (w + alpha_tilde);
            // lambda <= 0 pulls towards the point; its size is capped by F h^2.
            let lambda = (self.lambda[k] + dlambda).max(-self.max_force[k] * h2);
            let applied = lambda - self.lambda[k];
            self.lambda[k] = lambda;
            p.set_position(i, p.position(i) + d * (w * applied / len));
        }
    }

    /// The step is over: the points now start where they ended.
    pub fn end_step(&mut self) {
        self.from.copy_from_slice(&self.to);
    }
}
