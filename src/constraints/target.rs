//! Targets: a particle pulled towards a world-space point that the engine sets
//! each frame (animation, IK, dragging a corpse by the hand).
//!
//! A target is a zero-length XPBD distance constraint to a moving point,
//! `C = |x - t|`, with a cap on its multiplier: `|lambda| <= F h^2`, so the
//! correction it applies in one substep is at most `F h^2 w` (the distance a
//! force `F` moves a mass `1/w` from rest in time `h`). Physics keeps the last
//! word: a weak or capped target lets a hit push the particle off the pose and
//! pulls it back afterwards (the motors of "Armed Mine: animation-driven physics in Doom 3").
//!
//! The target point is interpolated across the substeps of a step, from where
//! it was at the end of the previous step to the new position, so a new
//! animation frame never lands as one jump ("or the simulation will see a big
//! jump", Jolt's skinning).
//!
//! A pinned particle (inverse mass 0) cannot be pulled; a target on it moves it
//! kinematically instead: it is placed on the interpolated point every substep.

use crate::exec::simd::{self, Kernel, Lanes, SimdLevel};
use crate::particles::ParticlesMut;
use glam::{Quat, Vec3};

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

    /// Moves every point by `-by`: the body's frame moved by `by`.
    pub fn shift(&mut self, by: Vec3) {
        for v in [&mut self.from, &mut self.to, &mut self.current] {
            v.iter_mut().for_each(|x| *x -= by);
        }
    }

    /// Carries every point by the rigid motion `x -> turn x + by` (a
    /// teleport): the targets' motion is not swept across it.
    pub fn carry(&mut self, turn: Quat, by: Vec3) {
        for v in [&mut self.from, &mut self.to, &mut self.current] {
            v.iter_mut().for_each(|x| *x = turn * *x + by);
        }
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
    ///
    /// Targets are on distinct particles (the set is sorted by particle), so
    /// they are independent and go a vector at a time (see [`Pull`]); every
    /// level computes each one with the same operations as the scalar one.
    pub fn project(&mut self, p: &mut ParticlesMut, inv_h2: f32, h2: f32, level: SimdLevel) {
        if self.particle.is_empty() {
            return;
        }
        simd::dispatch(level, &mut Pull { set: self, p, inv_h2, h2 });
    }

    /// The step is over: the points now start where they ended.
    pub fn end_step(&mut self) {
        self.from.copy_from_slice(&self.to);
    }
}

/// One pass of a set's targets, `W` of them at a time: positions, inverse
/// masses and the interpolated points gathered, the capped XPBD update in
/// lanes, positions scattered back. A lane whose particle is pinned or on its
/// point keeps its position and multiplier (a select, not a branch); the
/// last chunk's spare lanes repeat its last target and are not written.
struct Pull<'a, 'b, 'c> {
    set: &'a mut TargetSet,
    p: &'b mut ParticlesMut<'c>,
    inv_h2: f32,
    h2: f32,
}

impl Kernel for Pull<'_, '_, '_> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let n = self.set.particle.len();
        let current = self.set.current.as_ptr() as *const f32;
        let (zero, tiny) = (V::splat(0.0), V::splat(1e-12));
        let (inv_h2, h2) = (V::splat(self.inv_h2), V::splat(self.h2));
        for start in (0..n).step_by(V::W) {
            let lanes = (n - start).min(V::W);
            // Particle indices, and the points' x of each lane (y and z
            // follow it); spare lanes repeat the last target.
            let (mut idx, mut at) = ([0u32; 16], [0u32; 16]);
            let mut values = [[0.0f32; 16]; 3];
            for l in 0..V::W {
                let k = start + l.min(lanes - 1);
                idx[l] = self.set.particle[k];
                at[l] = 3 * k as u32;
                values[0][l] = self.set.compliance[k];
                values[1][l] = self.set.lambda[k];
                values[2][l] = self.set.max_force[k];
            }
            let at_y = at.map(|i| i + 1);
            let at_z = at.map(|i| i + 2);
            // SAFETY: every index is a particle of the view (the set's
            // particles are checked against the body when set) or a float of
            // `current` (3 per target); the value arrays hold 16 floats.
            let (x, y, z, w, tx, ty, tz, compliance, lambda, max_force) = unsafe {
                let p = &self.p;
                (
                    V::gather(p.x.as_ptr(), &idx),
                    V::gather(p.y.as_ptr(), &idx),
                    V::gather(p.z.as_ptr(), &idx),
                    V::gather(p.inv_mass.as_ptr(), &idx),
                    V::gather(current, &at),
                    V::gather(current, &at_y),
                    V::gather(current, &at_z),
                    V::load(values[0].as_ptr()),
                    V::load(values[1].as_ptr()),
                    V::load(values[2].as_ptr()),
                )
            };
            let (dx, dy, dz) = (x.sub(tx), y.sub(ty), z.sub(tz));
            let len = dx.mul(dx).add(dy.mul(dy)).add(dz.mul(dz)).sqrt();
            let alpha_tilde = compliance.mul(inv_h2);
            let dlambda = len.neg().sub(alpha_tilde.mul(lambda)).div(w.add(alpha_tilde));
            // lambda <= 0 pulls towards the point; its size is capped by F h^2.
            let wanted = lambda.add(dlambda);
            let cap = max_force.mul(h2).neg();
            let capped = V::select(wanted.gt(cap), wanted, cap);
            let skip = V::or(w.eq(zero), len.lt(tiny));
            let new_lambda = V::select(skip, lambda, capped);
            let scale = w.mul(new_lambda.sub(lambda)).div(len);
            let (nx, ny, nz) = (
                V::select(skip, x, x.add(dx.mul(scale))),
                V::select(skip, y, y.add(dy.mul(scale))),
                V::select(skip, z, z.add(dz.mul(scale))),
            );
            let mut out = [0.0f32; 16];
            // SAFETY: as above; only the first `lanes` lanes are written,
            // each to a distinct particle.
            unsafe {
                nx.scatter(self.p.x.as_mut_ptr(), &idx, lanes);
                ny.scatter(self.p.y.as_mut_ptr(), &idx, lanes);
                nz.scatter(self.p.z.as_mut_ptr(), &idx, lanes);
                new_lambda.store(out.as_mut_ptr());
            }
            self.set.lambda[start..start + lanes].copy_from_slice(&out[..lanes]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    /// 37 targets (not a multiple of any lane count) on every other particle
    /// of 80: stiff, soft, capped, on a pinned particle, one already on its
    /// point. Each level gives the bits of the textbook one-by-one loop.
    #[test]
    fn a_vector_of_targets_moves_each_particle_as_one_at_a_time_would() {
        let n = 80;
        let x: Vec<Vec3> =
            (0..n).map(|i| Vec3::new((i as f32 * 0.7).sin(), i as f32 * 0.01, (i as f32).cos())).collect();
        let inv = |i: usize| if i.is_multiple_of(13) { 0.0 } else { 0.5 + (i % 5) as f32 };
        let targets: Vec<Target> = (0..37)
            .map(|k| {
                let i = 2 * k;
                let on_point = k == 7;
                Target {
                    particle: i as u32,
                    position: if on_point { x[i] } else { x[i] + Vec3::new(0.3, -0.2 * k as f32 / 37.0, 0.1) },
                    compliance: [0.0, 1e-4, 1e-2][k % 3],
                    max_force: [0.0, 5.0, 200.0, f32::INFINITY][k % 4],
                }
            })
            .collect();
        let (inv_h2, h2) = (480.0f32 * 480.0, 1.0 / (480.0f32 * 480.0));
        // The textbook loop.
        let mut expected = x.clone();
        let mut lambda = vec![0.0f32; targets.len()];
        // A pinned particle is placed on its point (kinematic).
        for t in targets.iter().filter(|t| inv(t.particle as usize) == 0.0) {
            expected[t.particle as usize] = t.position;
        }
        for _ in 0..3 {
            for (k, t) in targets.iter().enumerate() {
                let i = t.particle as usize;
                let w = inv(i);
                let d = expected[i] - t.position;
                let len = d.length();
                if w == 0.0 || len < 1e-12 {
                    continue;
                }
                let cap = if t.max_force == 0.0 { f32::INFINITY } else { t.max_force };
                let alpha_tilde = t.compliance * inv_h2;
                let dlambda = (-len - alpha_tilde * lambda[k]) / (w + alpha_tilde);
                let next = (lambda[k] + dlambda).max(-cap * h2);
                expected[i] += d * (w * (next - lambda[k]) / len);
                lambda[k] = next;
            }
        }
        for level in SimdLevel::all_available() {
            let mut set = TargetSet::default();
            set.set(&targets);
            let mut store = Particles::default();
            store.append(&x, inv);
            let mut p = store.view(0..n);
            set.begin_substep(&mut p, 0, 1);
            for _ in 0..3 {
                set.project(&mut p, inv_h2, h2, level);
            }
            for (i, e) in expected.iter().enumerate() {
                assert_eq!(
                    p.position(i).to_array().map(f32::to_bits),
                    e.to_array().map(f32::to_bits),
                    "{level:?} particle {i}"
                );
            }
            assert_eq!(
                set.lambda.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
                lambda.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
            );
        }
    }
}
