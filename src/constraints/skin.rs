//! Skin constraints for character cloth (what engines call max distance and
//! backstop): each particle has a skinned position `s` and normal `n` that the
//! engine's animation computes every frame; the particle may move at most
//! `max_distance` from `s`, and never more than `backstop` behind the skinned
//! surface, `dot(x - s, n) >= -backstop`, so a cape cannot pass into the body
//! it hangs on however hard the wind pushes. Skinned positions and normals are
//! interpolated across the substeps like targets. Both limits are one-sided
//! projections of the particle alone: the skin is animation, not physics. A
//! pinned particle with a finite max distance is placed on its skinned
//! position instead (it cannot be moved by projections).

use crate::particles::ParticlesMut;
use glam::{Quat, Vec3};

/// Per-particle skin data of a body (empty until the engine sets a skin).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkinSet {
    /// Skinned positions at the end of the last step.
    pub from: Vec<Vec3>,
    /// Skinned positions for the end of the next step.
    pub to: Vec<Vec3>,
    /// Skinned normals (unit) at the end of the last step.
    pub normal_from: Vec<Vec3>,
    /// Skinned normals (unit) for the end of the next step.
    pub normal_to: Vec<Vec3>,
    /// Metres; +inf = no limit.
    pub max_distance: Vec<f32>,
    /// Metres behind the surface; +inf = no backstop.
    pub backstop: Vec<f32>,
    current: Vec<Vec3>,
    current_normal: Vec<Vec3>,
}

impl SkinSet {
    /// Moves every point by `-by`: the body's frame moved by `by`.
    pub fn shift(&mut self, by: Vec3) {
        for v in [&mut self.from, &mut self.to, &mut self.current] {
            v.iter_mut().for_each(|x| *x -= by);
        }
    }

    /// Carries every point and normal by the rigid motion `x -> turn x + by`
    /// (a teleport, `World::teleport`): nothing is interpolated across it.
    pub fn carry(&mut self, turn: Quat, by: Vec3) {
        for v in [&mut self.from, &mut self.to, &mut self.current] {
            v.iter_mut().for_each(|x| *x = turn * *x + by);
        }
        for v in [&mut self.normal_from, &mut self.normal_to, &mut self.current_normal] {
            v.iter_mut().for_each(|n| *n = turn * *n);
        }
    }

    /// Whether the engine has given a skin.
    pub fn is_active(&self) -> bool {
        !self.to.is_empty()
    }

    /// Sets the skin for the end of the next step; the first skin starts
    /// where it is (nothing to interpolate from).
    pub fn set(&mut self, positions: Vec<Vec3>, normals: Vec<Vec3>) {
        let n = positions.len();
        if self.to.len() != n {
            self.from = positions.clone();
            self.normal_from = normals.clone();
        }
        if self.max_distance.len() != n {
            self.max_distance = vec![f32::INFINITY; n];
            self.backstop = vec![f32::INFINITY; n];
        }
        self.to = positions;
        self.normal_to = normals;
    }

    /// Interpolates this substep's skin (`substep` of `substeps`).
    pub fn begin_substep(&mut self, substep: u32, substeps: u32) {
        self.interpolate((substep + 1) as f32 / substeps as f32);
    }

    /// Holds the skin where the step starts, for the rounds that move no
    /// time (a settle): what the last substep of the last step left, and
    /// what a skin just given or restored from a snapshot never had.
    pub fn begin_still(&mut self) {
        self.interpolate(0.0);
    }

    /// The skin a fraction `s` of the way through the step.
    fn interpolate(&mut self, s: f32) {
        let n = self.to.len();
        self.current.resize(n, Vec3::ZERO);
        self.current_normal.resize(n, Vec3::ZERO);
        for i in 0..n {
            self.current[i] = self.from[i] * (1.0 - s) + self.to[i] * s;
            self.current_normal[i] =
                (self.normal_from[i] * (1.0 - s) + self.normal_to[i] * s).try_normalize().unwrap_or(self.normal_to[i]);
        }
    }

    /// Places each pinned particle (inverse mass 0) that has a finite max
    /// distance at this substep's skinned position: the skin moves it, as a
    /// frame moves its pins. Without this a pin mask overrode the skin: a
    /// skirt's pinned waist stayed where it was created while its skin ran
    /// off with the character, 25 m of stretch and no error (issue 32).
    pub fn place_pinned(&self, p: &mut ParticlesMut) {
        for i in 0..self.to.len() {
            if p.inv_mass[i] == 0.0 && self.max_distance[i].is_finite() {
                p.set_position(i, self.current[i]);
            }
        }
    }

    /// One projection pass.
    pub fn project(&self, p: &mut ParticlesMut) {
        for i in 0..self.to.len() {
            if p.inv_mass[i] == 0.0 {
                continue;
            }
            let (s, n) = (self.current[i], self.current_normal[i]);
            let mut x = p.position(i);
            let behind = (x - s).dot(n) + self.backstop[i];
            if behind < 0.0 {
                x -= n * behind;
            }
            let d = x - s;
            let m = self.max_distance[i];
            if d.length_squared() > m * m {
                x = s + d * (m / d.length());
            }
            p.set_position(i, x);
        }
    }

    /// The step is over: the skin now starts where it ended.
    pub fn end_step(&mut self) {
        if self.is_active() {
            self.from.copy_from_slice(&self.to);
            self.normal_from.copy_from_slice(&self.normal_to);
        }
    }

    /// Rebuilds a set from a snapshot (validated by the caller).
    pub fn from_parts(
        from: Vec<Vec3>,
        to: Vec<Vec3>,
        nf: Vec<Vec3>,
        nt: Vec<Vec3>,
        max: Vec<f32>,
        back: Vec<f32>,
    ) -> Self {
        SkinSet {
            from,
            to,
            normal_from: nf,
            normal_to: nt,
            max_distance: max,
            backstop: back,
            current: Vec::new(),
            current_normal: Vec::new(),
        }
    }
}
