//! A ragdoll's velocity stage, a ragdoll per lane: up to 16 ragdolls of
//! one skeleton at once, none of them held by a pinned particle (those
//! take `motion`'s and `motor`'s scalar stage, which turns a bone about its
//! pivot).
//!
//! ```text
//! velocities (lanes: ragdolls of one skeleton, after the substep's passes):
//!   rigid bones      each bone's velocities to the rigid motion            motion.rs
//!                    with their momentum and angular momentum
//!   joint friction   a couple per joint taking a fraction of its           motion.rs
//!                    relative turn away
//!   motors           couples per joint (and the root's push) towards       motor.rs
//!                    the targets, SWEEPS Gauss-Seidel sweeps
//! ```
//!
//! The arithmetic is that of `motion` and `motor`, which state it, written
//! over `Lanes` so a ragdoll gets the same bits alone or beside others and
//! at every SIMD level. The bones' motions and their members' arms are
//! found once, by the first stage, and kept in lanes: positions do not move
//! in a velocity stage, so the couples read and turn each bone through its
//! members' velocities alone, as `motion::moving` and `motion::add_turn` do.
//! The motors' rates (from strengths) and target rotations are the scalar
//! `Motors::targets`, per ragdoll, copied in with the particles; the
//! rotation errors are found in lanes, as `Motors::goals` finds them
//! (`atan2` a polynomial, as in `pass`).

use super::build::Built;
use super::motor::{self, Motors, SWEEPS};
use super::pass::{LANES, apply, conjugate, multiply, quat, splat};
use crate::constraints::shape_match::{ClusterSet, LINE_INERTIA, weight};
use crate::exec::simd::{Kernel, Lanes, V3, atan2, load_n, store_n};
use crate::particles::ParticlesMut;
use crate::profile::{Clock, Stage};
use glam::Vec3;
use std::time::Instant;

/// Per particle and lane: position, velocity, weight (its mass).
const PARTICLE: usize = 7;
/// Per bone and lane: whether it has a motion (1 or 0), its mass, centre
/// (3), inverse inertia (9, by columns), `sum w a` of its members' arms
/// (3), turn over the substep (3), the motor's gain (9), accumulated
/// impulse (3), whether the motor drives it (1 or 0), and the motor's
/// rotation error (3).
const BONE: usize = 36;
const HAS: usize = 0;
const MASS: usize = 1;
const CENTER: usize = 2;
const INV_INERTIA: usize = 5;
const ARM_SUM: usize = 14;
const TURN: usize = 17;
const GAIN: usize = 20;
const LAMBDA: usize = 29;
const DRIVES: usize = 32;
const ERROR: usize = 33;
/// Per bone and lane, the motors' goals: rate, target rotation (4, x y z
/// w), torque cap, the root's head error (3) and force cap (the root's row
/// only), and the bone's rotation now (4).
const GOAL: usize = 14;
const RATE: usize = 0;
const TARGET: usize = 1;
const TORQUE: usize = 5;
const ROOT_ERROR: usize = 6;
const FORCE: usize = 9;
const ROTATION: usize = 10;

/// What the stage keeps in lanes, kept by each worker so a warm step
/// allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// By (particle, [`PARTICLE`] values, lane).
    particles: Vec<f32>,
    /// Each member's arm from its bone's centre, by (member, x y z, lane).
    arms: Vec<f32>,
    /// By (bone, [`BONE`] values, lane).
    bones: Vec<f32>,
    /// By (bone, [`GOAL`] values, lane).
    goals: Vec<f32>,
    /// The motors' goals of one ragdoll at a time.
    motor: motor::Scratch,
}

/// The velocity stage of up to [`LANES`] ragdolls of one skeleton.
pub(crate) struct Velocities<'a, 'p> {
    pub built: &'a Built,
    pub parents: &'a [Option<u32>],
    /// Each ragdoll's clusters (its rotations, for the motors' errors) and motors.
    pub ragdolls: [Option<(&'a ClusterSet, &'a Motors)>; LANES],
    pub views: [Option<&'a mut ParticlesMut<'p>>; LANES],
    /// Lanes in use, from the first.
    pub used: usize,
    /// The substep's length, and which substep of how many ends.
    pub h: f32,
    pub steps: (u32, u32),
    /// The fraction of each joint's relative turn its friction takes.
    pub friction: f32,
    pub scratch: &'a mut Scratch,
    pub clock: &'a mut Clock,
    pub t: Option<Instant>,
}

impl Kernel for Velocities<'_, '_> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let mut first = 0;
        while first < self.used {
            let n = V::W.min(self.used - first);
            let driven = self.load::<V>(first, n);
            for k in 0..self.built.clusters.len() {
                self.rigidify::<V>(k);
            }
            if self.friction > 0.0 {
                for (child, parent) in self.parents.iter().enumerate() {
                    if let Some(parent) = *parent {
                        self.joint_friction::<V>(child, parent as usize);
                    }
                }
            }
            self.t = self.clock.lap(Stage::BoneMotion, self.t);
            if driven {
                for b in 0..self.parents.len() {
                    self.error::<V>(b);
                    self.gain::<V>(b);
                }
                let mut root_push = splat::<V>(Vec3::ZERO);
                for _ in 0..SWEEPS {
                    for b in 0..self.parents.len() {
                        self.drive::<V>(b, &mut root_push);
                    }
                }
            }
            self.store::<V>(first, n);
            self.t = self.clock.lap(Stage::Motors, self.t);
            first += V::W;
        }
    }
}

impl Velocities<'_, '_> {
    /// Copies the ragdolls of lanes `first..first + n` in (a lane past
    /// them repeats the last), their motors' goals with them; whether any
    /// motor drives.
    #[inline(always)]
    fn load<V: Lanes>(&mut self, first: usize, n: usize) -> bool {
        let w = V::W;
        let lane = |l: usize| first + l.min(n - 1);
        let particles = self.built.positions.len();
        let (bones, members) = (self.parents.len(), self.built.clusters.particle.len());
        let root_head = self.built.heads[0] as usize;
        // Every value is written before it is read (the particles and
        // goals below, the rest by the stages): no clearing.
        let s = &mut *self.scratch;
        s.particles.resize(particles * PARTICLE * w, 0.0);
        s.arms.resize(members * 3 * w, 0.0);
        s.bones.resize(bones * BONE * w, 0.0);
        s.goals.resize(bones * GOAL * w, 0.0);
        let mut driven = false;
        for l in 0..w {
            let p = self.views[lane(l)].as_deref().expect("a lane in use");
            let (x, y, z) = (&p.x[..particles], &p.y[..particles], &p.z[..particles]);
            let (vx, vy, vz, inv) =
                (&p.vx[..particles], &p.vy[..particles], &p.vz[..particles], &p.inv_mass[..particles]);
            for (i, to) in s.particles.chunks_exact_mut(PARTICLE * w).enumerate() {
                let values = [x[i], y[i], z[i], vx[i], vy[i], vz[i], weight(inv[i])];
                for (c, v) in values.into_iter().enumerate() {
                    to[c * w + l] = v;
                }
            }
            let (clusters, motors) = self.ragdolls[lane(l)].expect("a lane in use");
            let head = p.position(root_head);
            let Some(root_error) = motors.targets(&mut s.motor, self.parents, head, self.h, self.steps) else {
                // No targets: no rate, no drive.
                for b in 0..bones {
                    s.goals[(b * GOAL + RATE) * w + l] = 0.0;
                }
                continue;
            };
            let h2 = self.h * self.h;
            for (b, rotation) in clusters.rotation.iter().enumerate() {
                let (rate, target) = Motors::target(&s.motor, b);
                driven |= rate > 0.0;
                let force = if b == 0 { motors.max_force[b] * h2 } else { 0.0 };
                let torque = motors.max_torque[b] * h2;
                let (t, r, q) = (target, root_error, rotation);
                let values = [rate, t.x, t.y, t.z, t.w, torque, r.x, r.y, r.z, force, q.x, q.y, q.z, q.w];
                let to = &mut s.goals[b * GOAL * w..(b + 1) * GOAL * w];
                for (c, v) in values.into_iter().enumerate() {
                    to[c * w + l] = v;
                }
            }
        }
        driven
    }

    /// Copies the velocities of lanes `first..first + n` out.
    #[inline(always)]
    fn store<V: Lanes>(&mut self, first: usize, n: usize) {
        let w = V::W;
        let (s, particles) = (&*self.scratch, self.built.positions.len());
        for l in 0..n {
            let p = self.views[first + l].as_deref_mut().expect("a lane in use");
            let (vx, vy, vz) = (&mut p.vx[..particles], &mut p.vy[..particles], &mut p.vz[..particles]);
            for (i, from) in s.particles.chunks_exact(PARTICLE * w).enumerate() {
                (vx[i], vy[i], vz[i]) = (from[3 * w + l], from[4 * w + l], from[5 * w + l]);
            }
        }
    }

    /// Particle `i`'s position, velocity and weight in each lane.
    #[inline(always)]
    fn particle<V: Lanes>(&self, i: usize) -> (V3<V>, V3<V>, V) {
        let [x, y, z, vx, vy, vz, w] = load_n::<V, PARTICLE>(&self.scratch.particles, i * PARTICLE * V::W);
        (V3 { x, y, z }, V3 { x: vx, y: vy, z: vz }, w)
    }

    /// Writes particle `i`'s velocity in each lane.
    #[inline(always)]
    fn set_velocity<V: Lanes>(&mut self, i: usize, v: V3<V>) {
        store_n(&mut self.scratch.particles, (i * PARTICLE + 3) * V::W, [v.x, v.y, v.z]);
    }

    /// Member `m`'s arm in each lane.
    #[inline(always)]
    fn arm<V: Lanes>(&self, m: usize) -> V3<V> {
        let [x, y, z] = load_n(&self.scratch.arms, m * 3 * V::W);
        V3 { x, y, z }
    }

    /// Value `c` of bone `k`'s [`BONE`] in each lane.
    #[inline(always)]
    fn bone<V: Lanes>(&self, k: usize, c: usize) -> V {
        load_n::<V, 1>(&self.scratch.bones, (k * BONE + c) * V::W)[0]
    }

    #[inline(always)]
    fn bone3<V: Lanes>(&self, k: usize, c: usize) -> V3<V> {
        let [x, y, z] = load_n(&self.scratch.bones, (k * BONE + c) * V::W);
        V3 { x, y, z }
    }

    /// Values `c..c + 9` of bone `k`'s [`BONE`], a matrix by columns.
    #[inline(always)]
    fn bone_matrix<V: Lanes>(&self, k: usize, c: usize) -> [V3<V>; 3] {
        let [xx, xy, xz, yx, yy, yz, zx, zy, zz] = load_n(&self.scratch.bones, (k * BONE + c) * V::W);
        [V3 { x: xx, y: xy, z: xz }, V3 { x: yx, y: yy, z: yz }, V3 { x: zx, y: zy, z: zz }]
    }

    #[inline(always)]
    fn set_bone<V: Lanes>(&mut self, k: usize, c: usize, v: V) {
        store_n(&mut self.scratch.bones, (k * BONE + c) * V::W, [v]);
    }

    #[inline(always)]
    fn set_bone3<V: Lanes>(&mut self, k: usize, c: usize, v: V3<V>) {
        self.set_bone(k, c, v.x);
        self.set_bone(k, c + 1, v.y);
        self.set_bone(k, c + 2, v.z);
    }

    #[inline(always)]
    fn set_bone_matrix<V: Lanes>(&mut self, k: usize, c: usize, m: &[V3<V>; 3]) {
        for (j, column) in m.iter().enumerate() {
            self.set_bone3(k, c + 3 * j, *column);
        }
    }

    /// Value `c` of bone `k`'s [`GOAL`] in each lane.
    #[inline(always)]
    fn goal<V: Lanes>(&self, k: usize, c: usize) -> V {
        load_n::<V, 1>(&self.scratch.goals, (k * GOAL + c) * V::W)[0]
    }

    /// Bone `k`'s velocities to its rigid motion (see `motion::motion` and
    /// `motion::rigidify_keeping`), its motion and its members' arms kept.
    #[inline(always)]
    fn rigidify<V: Lanes>(&mut self, k: usize) {
        let c = &self.built.clusters;
        let members = c.members(k);
        let origin = self.particle::<V>(c.particle[members.start] as usize).0;
        let zero = V::splat(0.0);
        let (mut mass, mut center) = (zero, splat::<V>(Vec3::ZERO));
        for m in members.clone() {
            let (x, _, w) = self.particle::<V>(c.particle[m] as usize);
            mass = mass.add(w);
            center = center.add(x.sub(origin).scale(w));
        }
        let center = center.div(mass);
        let h = V::splat(self.h);
        let (mut sum, mut moment, mut arm_sum) = (splat::<V>(Vec3::ZERO), splat(Vec3::ZERO), splat(Vec3::ZERO));
        // The inertia's diagonal and the three below it, and the extent.
        let (mut diagonal, mut off, mut extent) = (splat::<V>(Vec3::ZERO), splat::<V>(Vec3::ZERO), zero);
        for m in members.clone() {
            let (x, v, w) = self.particle::<V>(c.particle[m] as usize);
            let r = x.sub(origin).sub(center);
            self.set_arm(m, r);
            let d = v.scale(h).scale(w);
            sum = sum.add(d);
            moment = moment.add(r.cross(d));
            arm_sum = arm_sum.add(r.scale(w));
            let r2 = r.dot(r);
            let square = V3 { x: r.x.mul(r.x), y: r.y.mul(r.y), z: r.z.mul(r.z) };
            diagonal = diagonal.add(V3 { x: r2, y: r2, z: r2 }.sub(square).scale(w));
            off = off.sub(V3 { x: r.y.mul(r.z), y: r.x.mul(r.z), z: r.x.mul(r.y) }.scale(w));
            extent = extent.max(r2);
        }
        let displacement = sum.div(mass);
        let momentum = moment.sub(arm_sum.cross(displacement));
        let line = V::splat(LINE_INERTIA).mul(mass).mul(extent.max(V::splat(1.0e-8)));
        let matrix = |d: V3<V>| {
            [V3 { x: d.x, y: off.z, z: off.y }, V3 { x: off.z, y: d.y, z: off.x }, V3 { x: off.y, y: off.x, z: d.z }]
        };
        let (inv_inertia, has) = inverse(&matrix(diagonal.add(V3 { x: line, y: line, z: line })));
        // The floor's bias refined away, as `motion::motion`.
        let turn = apply(&inv_inertia, momentum);
        let turn = turn.add(apply(&inv_inertia, momentum.sub(apply(&matrix(diagonal), turn))));
        let has_v = V::select(has, V::splat(1.0), zero);
        self.set_bone(k, HAS, has_v);
        self.set_bone(k, MASS, mass);
        self.set_bone3(k, CENTER, origin.add(center));
        self.set_bone_matrix(k, INV_INERTIA, &inv_inertia);
        self.set_bone3(k, ARM_SUM, arm_sum);
        self.set_bone3(k, TURN, turn);
        if !V::any(has) {
            return;
        }
        let inv_h = V::splat(1.0 / self.h);
        for m in members {
            let i = c.particle[m] as usize;
            let (_, v, _) = self.particle::<V>(i);
            let rigid = displacement.add(turn.cross(self.arm(m))).scale(inv_h);
            self.set_velocity(i, V3::select(has, rigid, v));
        }
    }

    #[inline(always)]
    fn set_arm<V: Lanes>(&mut self, m: usize, r: V3<V>) {
        store_n(&mut self.scratch.arms, m * 3 * V::W, [r.x, r.y, r.z]);
    }

    /// Bone `k`'s displacement and turn over the substep now, from its
    /// members' velocities (see `motion::moving`).
    #[inline(always)]
    fn moving<V: Lanes>(&self, k: usize) -> (V3<V>, V3<V>) {
        let c = &self.built.clusters;
        let (mut sum, mut moment) = (splat::<V>(Vec3::ZERO), splat::<V>(Vec3::ZERO));
        for m in c.members(k) {
            let (_, v, w) = self.particle::<V>(c.particle[m] as usize);
            let v = v.scale(w);
            sum = sum.add(v);
            moment = moment.add(self.arm::<V>(m).cross(v));
        }
        let h = V::splat(self.h);
        let displacement = sum.scale(h.div(self.bone(k, MASS)));
        let momentum = moment.scale(h).sub(self.bone3::<V>(k, ARM_SUM).cross(displacement));
        (displacement, apply(&self.bone_matrix(k, INV_INERTIA), momentum))
    }

    /// Adds the turn `turn x a` over the substep to bone `k`'s members'
    /// velocities, `a` each member's arm (see `motion::add_turn`).
    #[inline(always)]
    fn add_turn<V: Lanes>(&mut self, k: usize, turn: V3<V>) {
        let turn = turn.scale(V::splat(1.0 / self.h));
        let c = &self.built.clusters;
        for m in c.members(k) {
            let i = c.particle[m] as usize;
            let (_, v, _) = self.particle::<V>(i);
            self.set_velocity(i, v.add(turn.cross(self.arm(m))));
        }
    }

    /// Adds the displacement `d` over the substep to bone `k`'s members.
    #[inline(always)]
    fn shift<V: Lanes>(&mut self, k: usize, d: V3<V>) {
        let d = d.scale(V::splat(1.0 / self.h));
        let c = &self.built.clusters;
        for m in c.members(k) {
            let i = c.particle[m] as usize;
            let (_, v, _) = self.particle::<V>(i);
            self.set_velocity(i, v.add(d));
        }
    }

    /// The friction of the joint between `child` and `parent` (see
    /// `motion::joint_friction`).
    #[inline(always)]
    fn joint_friction<V: Lanes>(&mut self, child: usize, parent: usize) {
        let zero = V::splat(0.0);
        let both = self.bone::<V>(child, HAS).mul(self.bone(parent, HAS));
        if !V::any(both.gt(zero)) {
            return;
        }
        let (ic, ip) = (self.bone_matrix::<V>(child, INV_INERTIA), self.bone_matrix::<V>(parent, INV_INERTIA));
        let (sum, invertible) = inverse(&[ic[0].add(ip[0]), ic[1].add(ip[1]), ic[2].add(ip[2])]);
        let on = V::select(invertible, both, zero).gt(zero);
        if !V::any(on) {
            return;
        }
        let (tc, tp) = (self.bone3::<V>(child, TURN), self.bone3::<V>(parent, TURN));
        let couple = apply(&sum, tc.sub(tp).scale(V::splat(self.friction)));
        let none = splat::<V>(Vec3::ZERO);
        let turn_c = V3::select(on, apply(&ic, couple).neg(), none);
        let turn_p = V3::select(on, apply(&ip, couple), none);
        self.add_turn(child, turn_c);
        self.add_turn(parent, turn_p);
        self.set_bone3(child, TURN, tc.add(turn_c));
        self.set_bone3(parent, TURN, tp.add(turn_p));
    }

    /// Value `c..c + 4` of bone `k`'s [`GOAL`], a quaternion (x y z w).
    #[inline(always)]
    fn goal_quat<V: Lanes>(&self, k: usize, c: usize) -> [V; 4] {
        load_n(&self.scratch.goals, (k * GOAL + c) * V::W)
    }

    /// Bone `k`'s world rotation now: its rotation times its frame.
    #[inline(always)]
    fn world_rotation<V: Lanes>(&self, k: usize) -> [V; 4] {
        multiply(self.goal_quat::<V>(k, ROTATION), quat(self.built.clusters.frame[k]))
    }

    /// Bone `b`'s motor's rotation error (see `Motors::goals`): the
    /// rotation vector, the short way round, of `(R_p T_p^-1 T_c) R_c^-1`,
    /// the root's `T R^-1`; zero where the motor does not drive it.
    #[inline(always)]
    fn error<V: Lanes>(&mut self, b: usize) {
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        let target = self.goal_quat::<V>(b, TARGET);
        let wanted = match self.parents[b] {
            None => target,
            Some(q) => {
                let q = q as usize;
                multiply(self.world_rotation(q), multiply(conjugate(self.goal_quat(q, TARGET)), target))
            }
        };
        let d = multiply(wanted, conjugate(self.world_rotation(b)));
        let flip = V::select(d[3].lt(zero), one.neg(), one);
        let length = d[0].mul(d[0]).add(d[1].mul(d[1])).add(d[2].mul(d[2])).add(d[3].mul(d[3])).sqrt();
        let scale = flip.div(length);
        let v = V3 { x: d[0].mul(scale), y: d[1].mul(scale), z: d[2].mul(scale) };
        let w = d[3].mul(scale);
        // As glam's `to_scaled_axis`: none below 1e-8.
        let s = v.dot(v).sqrt();
        let turns = V::splat(1.0e-8).le(s);
        let angle = atan2(s, w).mul(V::splat(2.0));
        let per = V::select(turns, angle.div(V::select(turns, s, one)), zero);
        let driven = self.goal::<V>(b, RATE).gt(zero);
        self.set_bone3(b, ERROR, V3::select(driven, v.scale(per), splat(Vec3::ZERO)));
    }

    /// Bone `b`'s motor gain: `(I_c^-1 + I_p^-1)^-1` for a joint, the
    /// root's `I`; none where the motor does not drive it or a bone has no
    /// motion (see `Motors::drive`). Its impulse starts at zero.
    #[inline(always)]
    fn gain<V: Lanes>(&mut self, b: usize) {
        let zero = V::splat(0.0);
        let mut on = V::select(self.goal::<V>(b, RATE).gt(zero), self.bone(b, HAS), zero);
        let inv = self.bone_matrix::<V>(b, INV_INERTIA);
        let (gain, invertible) = match self.parents[b] {
            None => inverse(&inv),
            Some(q) => {
                let q = q as usize;
                on = on.mul(self.bone(q, HAS));
                let ip = self.bone_matrix::<V>(q, INV_INERTIA);
                inverse(&[inv[0].add(ip[0]), inv[1].add(ip[1]), inv[2].add(ip[2])])
            }
        };
        let on = V::select(invertible, on, zero);
        self.set_bone(b, DRIVES, on);
        let none = splat::<V>(Vec3::ZERO);
        let on = on.gt(zero);
        let gain = [V3::select(on, gain[0], none), V3::select(on, gain[1], none), V3::select(on, gain[2], none)];
        self.set_bone_matrix(b, GAIN, &gain);
        self.set_bone3(b, LAMBDA, none);
    }

    /// One sweep's step of bone `b`'s motor (see `Motors::drive`):
    /// `root_push` is the root's accumulated push.
    #[inline(always)]
    fn drive<V: Lanes>(&mut self, b: usize, root_push: &mut V3<V>) {
        let zero = V::splat(0.0);
        let on = self.bone::<V>(b, DRIVES).gt(zero);
        if !V::any(on) {
            return;
        }
        let none = splat::<V>(Vec3::ZERO);
        let rate = self.goal::<V>(b, RATE);
        let error = self.bone3::<V>(b, ERROR).scale(rate);
        let (gain, cap) = (self.bone_matrix::<V>(b, GAIN), self.goal::<V>(b, TORQUE));
        let inv = self.bone_matrix::<V>(b, INV_INERTIA);
        match self.parents[b] {
            None => {
                let (displacement, now) = self.moving::<V>(b);
                let applied = V3::select(on, self.accumulate(b, apply(&gain, error.sub(now)), cap), none);
                let turn = V3::select(on, apply(&inv, applied), none);
                self.add_turn(b, turn);
                let head = self.particle::<V>(self.built.heads[0] as usize).0;
                let center = self.bone3::<V>(b, CENTER);
                let moving = displacement.add(now.add(turn).cross(head.sub(center)));
                let mass = self.bone::<V>(b, MASS);
                let root_error = V3 {
                    x: self.goal(b, ROOT_ERROR),
                    y: self.goal(b, ROOT_ERROR + 1),
                    z: self.goal(b, ROOT_ERROR + 2),
                };
                let wanted = root_push.add(root_error.scale(rate).sub(moving).scale(mass));
                let push = V3::select(on, clamp(wanted, self.goal(b, FORCE)), *root_push);
                self.shift(b, push.sub(*root_push).div(mass));
                *root_push = push;
            }
            Some(q) => {
                let q = q as usize;
                let relative = self.moving::<V>(b).1.sub(self.moving::<V>(q).1);
                let applied = V3::select(on, self.accumulate(b, apply(&gain, error.sub(relative)), cap), none);
                let ip = self.bone_matrix::<V>(q, INV_INERTIA);
                self.add_turn(b, V3::select(on, apply(&inv, applied), none));
                self.add_turn(q, V3::select(on, apply(&ip, applied).neg(), none));
            }
        }
    }

    /// Adds `delta` to bone `b`'s accumulated impulse, clamped to `cap` in
    /// size; returns what was added after the clamp.
    #[inline(always)]
    fn accumulate<V: Lanes>(&mut self, b: usize, delta: V3<V>, cap: V) -> V3<V> {
        let before = self.bone3::<V>(b, LAMBDA);
        let after = clamp(before.add(delta), cap);
        self.set_bone3(b, LAMBDA, after);
        after.sub(before)
    }
}

/// `v` shortened to at most `cap` in each lane (an infinite cap leaves it).
#[inline(always)]
fn clamp<V: Lanes>(v: V3<V>, cap: V) -> V3<V> {
    let length = v.dot(v).sqrt();
    let long = length.gt(cap);
    v.scale(V::select(long, cap.div(V::select(long, length, V::splat(1.0))), V::splat(1.0)))
}

/// The inverse of the symmetric matrix `m` (by columns) and where it is
/// one: its determinant at least 1e-30 in size and every entry finite. The
/// inverse's columns are the cofactors', as glam's `Mat3::inverse`.
#[inline(always)]
fn inverse<V: Lanes>(m: &[V3<V>; 3]) -> ([V3<V>; 3], V::M) {
    let (c0, c1, c2) = (m[1].cross(m[2]), m[2].cross(m[0]), m[0].cross(m[1]));
    let det = m[2].dot(c2);
    let one = V::splat(1.0);
    let invertible = V::splat(1.0e-30).le(det.abs());
    let scale = one.div(V::select(invertible, det, one));
    let inv = [c0.scale(scale), c1.scale(scale), c2.scale(scale)];
    let big = V::splat(f32::MAX);
    let mut finite = V::select(invertible, one, V::splat(0.0));
    for column in &inv {
        for v in [column.x, column.y, column.z] {
            finite = V::select(v.abs().le(big), finite, V::splat(0.0));
        }
    }
    (inv, finite.gt(V::splat(0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;
    use crate::ragdoll::{Skeleton, motion};
    use glam::Quat;

    #[test]
    fn the_stage_in_lanes_gives_the_scalar_stages_velocities() {
        let skeleton = Skeleton::humanoid(1.8).unwrap();
        let built = &skeleton.built;
        let n = built.positions.len();
        // Bones bent a little off their rest, every particle moving its own
        // way, the motors driving towards a pose turned from this one, one
        // bone's torque capped and the root's force.
        let wobble = |i: f32| Vec3::new(i.sin(), (0.3 * i).cos(), (1.7 * i).sin());
        let x: Vec<Vec3> = built.positions.iter().enumerate().map(|(i, &x)| x + wobble(i as f32) * 0.01).collect();
        let mut store = Particles::default();
        store.append(&x, |i| built.inv_masses[i]);
        let h = 1.0 / 480.0;
        let mut clusters = built.clusters.clone();
        for k in 0..clusters.len() {
            clusters.rotation[k] = Quat::from_rotation_z(0.05 * k as f32);
        }
        {
            let mut p = store.view(0..n);
            for i in 0..n {
                p.set_velocity(i, wobble(3.0 + i as f32) * 2.0);
            }
        }
        let mut motors = Motors::new(clusters.len());
        let pose: Vec<(Vec3, Quat)> = (0..clusters.len())
            .map(|b| (x[built.heads[b] as usize], Quat::from_rotation_x(0.3) * clusters.world_rotation(b)))
            .collect();
        motors.set_targets(&pose);
        motors.strength = vec![0.5; clusters.len()];
        motors.root_motion = true;
        (motors.max_torque[3], motors.max_force[0]) = (2.0, 300.0);
        let steps = (2, 8);
        let friction = 1.0 - (-super::super::JOINT_FRICTION * h).exp();

        let mut a = store.clone();
        let mut pa = a.view(0..n);
        (pa.h, pa.inv_h) = (h, 1.0 / h);
        let (mut motions, mut arms, mut scratch) = (Vec::new(), motion::Arms::default(), motor::Scratch::default());
        motion::rigidify_keeping(&clusters, &mut pa, &mut motions, &mut arms);
        motion::joint_friction(&clusters, skeleton.parents.iter().copied(), friction, &mut motions, &mut arms, 1.0 / h);
        let root = built.heads[0];
        motors.drive(&mut scratch, &clusters, &skeleton.parents, root, &motions, &mut arms, &pa, h, steps);
        arms.store(&mut pa);

        let mut b = store.clone();
        let mut pb = b.view(0..n);
        (pb.h, pb.inv_h) = (h, 1.0 / h);
        let (mut lanes, mut clock) = (Scratch::default(), Clock::default());
        let mut stage = Velocities {
            built,
            parents: &skeleton.parents,
            ragdolls: [None; LANES],
            views: std::array::from_fn(|_| None),
            used: 1,
            h,
            steps,
            friction,
            scratch: &mut lanes,
            clock: &mut clock,
            t: None,
        };
        stage.ragdolls[0] = Some((&clusters, &motors));
        stage.views[0] = Some(&mut pb);
        stage.run::<f32>();

        let before = store.view(0..n);
        let changed = (0..n).map(|i| (pa.velocity(i) - before.velocity(i)).length()).fold(0.0, f32::max);
        let apart = (0..n).map(|i| (pa.velocity(i) - pb.velocity(i)).length()).fold(0.0, f32::max);
        eprintln!("the stage changed velocities by up to {changed} m/s; lanes {apart} m/s from the scalar stages");
        assert!(changed > 0.5, "the stages changed velocities by only {changed} m/s");
        assert!(apart < 1e-4, "{apart} m/s from the scalar stages");
    }
}
