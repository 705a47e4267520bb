//! A ragdoll's relaxation pass, a ragdoll per lane: up to 16 ragdolls of
//! one skeleton at once, each stage across them.
//!
//! ```text
//! pass (lanes: ragdolls of one skeleton):
//!   fits          each bone's cluster to the rigid placement of its rest
//!                 shape that fits it best (shape matching)
//!   joints        distance ranges between points fixed in two bones       constraints/rigid_point.rs
//!   separations   joint particles of bones apart kept apart              constraints/inequality.rs
//!   twists        each child's twist about its bone within its range     constraints/angle_limit.rs
//! ```
//!
//! The fits, for the ragdolls in lanes, bone by bone:
//!
//! ```text
//!   w_i   = m_i (a pinned member weighs PINNED_MASS)
//!   c, c0 = centres of mass now and at rest, from the first member
//!   A     = sum w_i (x_i - c) (r_i - c0)^T
//!   q     = the rotation of A, turned from last pass's (Mueller et al. 2016)
//!   x_i  += c + R(q) (r_i - c0) - x_i        every free member
//! ```
//!
//! The joints as `constraints::rigid_point` states them, a bone's turn by
//! a correction as XPBD's (Mueller et al. 2020): `q <- normalize(q + 1/2 [w,
//! 0] q)` for the turn `w`, its members turned alike.
//!
//! Written once over `Lanes` (see `simd`), so a ragdoll gets the same bits
//! alone or beside others and at every SIMD level: the particles and the
//! bones' rotations are copied into lanes, by (particle, lane), for the
//! pass and back after it. The extraction's turn is the axis-angle one of
//! `shape_match::extract_rotation` with its sine and cosine as polynomials
//! (libm's have no vector twin), its iterations masked per lane; the
//! separations are `inequality::project`'s arithmetic, lane by lane. The
//! twists are `angle_limit::project`'s steps with `atan2`, sine and cosine
//! as polynomials, and a bone held by one particle turning with the
//! inverse inertia the joints use (its rest one, turned); in a held
//! ragdoll, the side of a twist towards the pin weighs the chain of bones
//! to it (`Pass::hold`: the lanes only, the scalar reference has no pins).

use super::build::Built;
use crate::constraints::shape_match::{ClusterSet, RestInertia, weight};
use crate::exec::simd::atan2;
use crate::exec::simd::{Kernel, Lanes, V3, load_n, store_n};
use crate::particles::ParticlesMut;
use crate::profile::{Clock, Stage};
use glam::{DVec3, Quat, Vec3};
use std::time::Instant;

/// Most ragdolls in one pass (the widest lanes).
pub(crate) const LANES: usize = 16;

/// As `shape_match`: iterations, the largest turn of one, the turn after
/// which it stops.
const EXTRACT_ITERATIONS: usize = 8;
const MAX_TURN: f32 = 1.0;
const CONVERGED_TURN: f32 = 1.0e-5;
const _: () = assert!(MAX_TURN <= 1.0, "sin_cos_half holds for half-turns up to 0.5");
/// As `rigid_point`: errors below this (metres) are left alone.
const MIN_ERROR: f32 = 1.0e-7;
/// As `angle_limit`: twist errors below this (radians) are left alone.
const MIN_TWIST: f32 = 1.0e-5;

/// Per particle and lane: x, y, z, inverse mass and weight (its mass; a
/// pinned one weighs `PINNED_MASS`).
const PARTICLE: usize = 5;
/// Per bone and lane: mass, rest centre (3), inverse rest inertia (9, by
/// columns; zero when held) and how it moves (see [`FREE`]).
const BONE: usize = 14;
/// How a bone moves: free, turning about its one pinned member, held.
const FREE: f32 = 0.0;
const PIVOT: f32 = 1.0;
const HELD: f32 = 2.0;

/// What a pass keeps in lanes, kept by each worker so a warm step
/// allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// By (particle, [`PARTICLE`] values, lane).
    particles: Vec<f32>,
    /// By (bone, x y z w, lane).
    rotations: Vec<f32>,
    /// By (bone, [`BONE`] values, lane).
    bones: Vec<f32>,
    /// Each bone's pivot particle by (bone, lane), where it has one.
    pivots: Vec<u32>,
    /// Each twist's side of its ragdoll's pin by (twist, lane): see
    /// [`UNHELD`].
    sides: Vec<f32>,
    /// Each lane's pin: its first bone that holds a pinned particle, and
    /// that particle.
    holders: Vec<u32>,
    pins: Vec<u32>,
    /// By (bone, lane): the holder and the bones above it.
    above: Vec<bool>,
    /// Per bone of one lane: a pinned particle among it and those below it.
    holding: Vec<bool>,
}

/// Where a twist's joint is from its ragdoll's pin: none pinned, the pin
/// among the child's bones and those below it, the pin elsewhere.
const UNHELD: f32 = 0.0;
const PIN_BELOW: f32 = 1.0;
const PIN_ABOVE: f32 = 2.0;

/// One relaxation pass of up to [`LANES`] ragdolls of one skeleton.
pub(crate) struct Pass<'a, 'p> {
    pub built: &'a Built,
    /// Each bone's parent.
    pub parents: &'a [Option<u32>],
    /// Each ragdoll's clusters (its rotations and rest inertias).
    pub clusters: [Option<&'a mut ClusterSet>; LANES],
    pub views: [Option<&'a mut ParticlesMut<'p>>; LANES],
    /// Lanes in use, from the first.
    pub used: usize,
    pub scratch: &'a mut Scratch,
    pub clock: &'a mut Clock,
    pub t: Option<Instant>,
}

impl Kernel for Pass<'_, '_> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let mut first = 0;
        while first < self.used {
            let n = V::W.min(self.used - first);
            self.load::<V>(first, n);
            for k in 0..self.built.clusters.len() {
                self.fit::<V>(k);
            }
            self.t = self.clock.lap(Stage::Bones, self.t);
            for s in 0..self.built.points.len() {
                self.point::<V>(s);
            }
            self.t = self.clock.lap(Stage::Joints, self.t);
            for s in 0..self.built.inequalities.len() {
                self.separate::<V>(s);
            }
            self.t = self.clock.lap(Stage::Separations, self.t);
            for s in 0..self.built.twists.len() {
                self.twist::<V>(s);
            }
            self.store::<V>(first, n);
            self.t = self.clock.lap(Stage::Twists, self.t);
            first += V::W;
        }
    }
}

/// A bone as one rigid body, in each lane (see `rigid_point::Rigid`).
struct Rigid<V: Lanes> {
    /// Its centre of mass, or the pinned member it turns about.
    center: V3<V>,
    rest_center: V3<V>,
    /// Its rotation, by columns.
    r: [V3<V>; 3],
    inv_mass: V,
    /// World inverse inertia, by columns.
    inv_inertia: [V3<V>; 3],
    /// 1 where it moves (free or turning about a pivot), else 0.
    moves: V,
}

impl<V: Lanes> Rigid<V> {
    #[inline(always)]
    fn point(&self, rest: Vec3) -> V3<V> {
        self.center.add(apply(&self.r, splat::<V>(rest).sub(self.rest_center)))
    }

    #[inline(always)]
    fn inv_mass_at(&self, x: V3<V>, n: V3<V>) -> V {
        let rn = x.sub(self.center).cross(n);
        self.inv_mass.add(rn.dot(apply(&self.inv_inertia, rn)))
    }
}

impl Pass<'_, '_> {
    /// Copies the ragdolls of lanes `first..first + n` in (a lane past
    /// them repeats the last).
    #[inline(always)]
    fn load<V: Lanes>(&mut self, first: usize, n: usize) {
        let w = V::W;
        let lane = |l: usize| first + l.min(n - 1);
        // Its particles, not the padding after them.
        let particles = self.built.positions.len();
        let bones = self.built.clusters.len();
        // Every value is written below, for every lane: no clearing.
        let s = &mut *self.scratch;
        s.particles.resize(particles * PARTICLE * w, 0.0);
        s.rotations.resize(bones * 4 * w, 0.0);
        s.bones.resize(bones * BONE * w, 0.0);
        s.pivots.resize(bones * w, 0);
        s.sides.resize(self.built.twists.len() * w, UNHELD);
        s.holders.resize(w, 0);
        s.pins.resize(w, 0);
        s.above.resize(bones * w, false);
        for l in 0..w {
            let p = self.views[lane(l)].as_deref().expect("a lane in use");
            let (x, y, z, inv) = (&p.x[..particles], &p.y[..particles], &p.z[..particles], &p.inv_mass[..particles]);
            for (i, to) in s.particles.chunks_exact_mut(PARTICLE * w).enumerate() {
                for (c, v) in [x[i], y[i], z[i], inv[i], weight(inv[i])].into_iter().enumerate() {
                    to[c * w + l] = v;
                }
            }
            let clusters = self.clusters[lane(l)].as_deref().expect("a lane in use");
            for (q, to) in clusters.rotation.iter().zip(s.rotations.chunks_exact_mut(4 * w)) {
                for (c, v) in q.to_array().into_iter().enumerate() {
                    to[c * w + l] = v;
                }
            }
            let bones = clusters.rest_inertia.iter().zip(s.bones.chunks_exact_mut(BONE * w));
            for (k, (rest, to)) in bones.enumerate() {
                for (v, value) in bone_values(rest).into_iter().enumerate() {
                    to[v * w + l] = value;
                }
                let pivot = rest.pivot.map_or(clusters.start[k] as usize, |m| m as usize);
                s.pivots[k * w + l] = clusters.particle[pivot];
            }
            held_chains(s, self.built, self.parents, l, inv, clusters);
        }
    }

    /// Copies the positions and rotations of lanes `first..first + n` out,
    /// and takes the pass's rounding drift out of a free ragdoll's
    /// velocity (see [`undrift`]).
    #[inline(always)]
    fn store<V: Lanes>(&mut self, first: usize, n: usize) {
        let (w, particles) = (V::W, self.built.positions.len());
        let s = &*self.scratch;
        for l in 0..n {
            let p = self.views[first + l].as_deref_mut().expect("a lane in use");
            // The positions written back, and the pass's mass-weighted net
            // move for [`undrift`] (`None` with a pinned particle).
            let (mut mass, mut moved) = (0.0f64, Some(DVec3::ZERO));
            let (x, y, z) = (&mut p.x[..particles], &mut p.y[..particles], &mut p.z[..particles]);
            for (((from, x), y), z) in s.particles.chunks_exact(PARTICLE * w).zip(x).zip(y).zip(z) {
                let [nx, ny, nz, inv, m]: [f32; PARTICLE] = std::array::from_fn(|c| from[c * w + l]);
                if let Some(sum) = moved.as_mut().filter(|_| inv > 0.0) {
                    let m = f64::from(m);
                    mass += m;
                    *sum += (Vec3::new(nx, ny, nz).as_dvec3() - Vec3::new(*x, *y, *z).as_dvec3()) * m;
                } else {
                    moved = None;
                }
                (*x, *y, *z) = (nx, ny, nz);
            }
            if let Some(moved) = moved {
                undrift(p, particles, (moved / mass).as_vec3());
            }
            let clusters = self.clusters[first + l].as_deref_mut().expect("a lane in use");
            for (q, from) in clusters.rotation.iter_mut().zip(s.rotations.chunks_exact(4 * w)) {
                *q = Quat::from_xyzw(from[l], from[w + l], from[2 * w + l], from[3 * w + l]);
            }
        }
    }

    /// Particle `i`'s position, weight and inverse mass in each lane.
    #[inline(always)]
    fn member<V: Lanes>(&self, i: usize) -> (V3<V>, V, V) {
        let [x, y, z, inv_mass, w] = load_n::<V, PARTICLE>(&self.scratch.particles, i * PARTICLE * V::W);
        (V3 { x, y, z }, w, inv_mass)
    }

    /// Writes particle `i`'s position in each lane.
    #[inline(always)]
    fn set<V: Lanes>(&mut self, i: usize, x: V3<V>) {
        store_n(&mut self.scratch.particles, i * PARTICLE * V::W, [x.x, x.y, x.z]);
    }

    /// Bone `k`'s rotation in each lane (x, y, z, w).
    #[inline(always)]
    fn rotation<V: Lanes>(&self, k: usize) -> [V; 4] {
        load_n(&self.scratch.rotations, k * 4 * V::W)
    }

    /// Bone `k`'s world rotation in each lane: its rotation times its frame.
    #[inline(always)]
    fn world_rotation<V: Lanes>(&self, k: usize) -> [V; 4] {
        multiply(self.rotation::<V>(k), quat(self.built.clusters.frame[k]))
    }

    #[inline(always)]
    fn set_rotation<V: Lanes>(&mut self, k: usize, q: [V; 4]) {
        store_n(&mut self.scratch.rotations, k * 4 * V::W, q);
    }

    /// Value `c` of bone `k`'s [`BONE`] in each lane.
    #[inline(always)]
    fn bone<V: Lanes>(&self, k: usize, c: usize) -> V {
        load_n::<V, 1>(&self.scratch.bones, (k * BONE + c) * V::W)[0]
    }

    /// Values `c..c + 3` of bone `k`'s [`BONE`] in each lane.
    #[inline(always)]
    fn bone3<V: Lanes>(&self, k: usize, c: usize) -> V3<V> {
        let [x, y, z] = load_n(&self.scratch.bones, (k * BONE + c) * V::W);
        V3 { x, y, z }
    }

    /// Bone `k` as a rigid body now.
    #[inline(always)]
    fn rigid<V: Lanes>(&self, k: usize) -> Rigid<V> {
        let c = &self.built.clusters;
        let members = c.members(k);
        let origin = self.member::<V>(c.particle[members.start] as usize).0;
        let mut sum = splat::<V>(Vec3::ZERO);
        for m in members {
            let (x, w, _) = self.member::<V>(c.particle[m] as usize);
            sum = sum.add(x.sub(origin).scale(w));
        }
        let mass = self.bone::<V>(k, 0);
        let now = origin.add(sum.div(mass));
        let how = self.bone::<V>(k, 13);
        let mut idx = [0u32; 16];
        for (l, idx) in idx.iter_mut().enumerate().take(V::W) {
            *idx = (self.scratch.pivots[k * V::W + l] * (PARTICLE * V::W) as u32) + l as u32;
        }
        let base = self.scratch.particles.as_ptr();
        // SAFETY: every pivot is a particle of the body: its x, y and z in
        // lane `l` are at the indices above plus 0, W and 2 W.
        let pivot = unsafe {
            let w = V::W;
            V3 { x: V::gather(base, &idx), y: V::gather(base.add(w), &idx), z: V::gather(base.add(2 * w), &idx) }
        };
        let is_pivot = how.eq(V::splat(PIVOT));
        let free = how.eq(V::splat(FREE));
        let r = matrix(self.rotation::<V>(k));
        let inv: [V3<V>; 3] = [self.bone3(k, 4), self.bone3(k, 7), self.bone3(k, 10)];
        // R I^-1 R^T, by columns.
        let ri = [apply(&r, inv[0]), apply(&r, inv[1]), apply(&r, inv[2])];
        let inv_inertia = [
            apply(&ri, V3 { x: r[0].x, y: r[1].x, z: r[2].x }),
            apply(&ri, V3 { x: r[0].y, y: r[1].y, z: r[2].y }),
            apply(&ri, V3 { x: r[0].z, y: r[1].z, z: r[2].z }),
        ];
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        Rigid {
            center: V3::select(is_pivot, pivot, now),
            rest_center: self.bone3(k, 1),
            r,
            inv_mass: V::select(free, one.div(mass), zero),
            inv_inertia,
            moves: V::select(how.eq(V::splat(HELD)), zero, one),
        }
    }

    /// Moves bone `k`'s members for the correction `push` at `x` where
    /// `on` is 1 (see `rigid_point::Rigid::apply`; the turn as XPBD's).
    #[inline(always)]
    fn shove<V: Lanes>(&mut self, k: usize, body: &Rigid<V>, x: V3<V>, push: V3<V>, on: V) {
        let zero = V::splat(0.0);
        let on = V::select(body.moves.gt(zero), on, zero);
        if !V::any(on.gt(zero)) {
            return;
        }
        let shift = push.scale(body.inv_mass);
        let w = apply(&body.inv_inertia, x.sub(body.center).cross(push)).scale(V::splat(0.5));
        let one = V::splat(1.0);
        let length = w.dot(w).add(one).sqrt();
        let turn = [w.x.div(length), w.y.div(length), w.z.div(length), one.div(length)];
        let m = matrix(turn);
        let c = &self.built.clusters;
        for member in c.members(k) {
            let i = c.particle[member] as usize;
            let (at, _, inv_mass) = self.member::<V>(i);
            let moved = body.center.add(shift).add(apply(&m, at.sub(body.center)));
            self.set(i, V3::select(V::select(inv_mass.gt(zero), on, zero).gt(zero), moved, at));
        }
        self.turn_rotation(k, [w.x, w.y, w.z, one], on.gt(zero));
    }

    /// Bone `k`'s rotation turned by `by` (`normalize(by q)`) where `on`.
    #[inline(always)]
    fn turn_rotation<V: Lanes>(&mut self, k: usize, by: [V; 4], on: V::M) {
        let q = self.rotation::<V>(k);
        let [x, y, z, w] = multiply(by, q);
        let length = x.mul(x).add(y.mul(y)).add(z.mul(z)).add(w.mul(w)).sqrt();
        let q = [
            V::select(on, x.div(length), q[0]),
            V::select(on, y.div(length), q[1]),
            V::select(on, z.div(length), q[2]),
            V::select(on, w.div(length), q[3]),
        ];
        self.set_rotation(k, q);
    }

    /// Fits bone `k` (see the module's header).
    #[inline(always)]
    fn fit<V: Lanes>(&mut self, k: usize) {
        let c = &self.built.clusters;
        let members = c.members(k);
        let m0 = members.start;
        let origin: V3<V> = self.member(c.particle[m0] as usize).0;
        let rest_origin = c.rest[m0];
        let zero = V::splat(0.0);
        // Centres of mass now and at rest, from the first member.
        let (mut mass, mut center, mut rest_center) = (zero, splat(Vec3::ZERO), splat(Vec3::ZERO));
        for m in members.clone() {
            let (x, w, _) = self.member::<V>(c.particle[m] as usize);
            mass = mass.add(w);
            center = center.add(x.sub(origin).scale(w));
            rest_center = rest_center.add(splat(c.rest[m] - rest_origin).scale(w));
        }
        let (center, rest_center) = (center.div(mass), rest_center.div(mass));
        // The shape-matching matrix, by columns.
        let mut a = [splat(Vec3::ZERO); 3];
        for m in members.clone() {
            let (x, w, _) = self.member::<V>(c.particle[m] as usize);
            let d = x.sub(origin).sub(center).scale(w);
            let r = splat(c.rest[m] - rest_origin).sub(rest_center);
            a[0] = a[0].add(d.scale(r.x));
            a[1] = a[1].add(d.scale(r.y));
            a[2] = a[2].add(d.scale(r.z));
        }
        let q = extract(&a, self.rotation::<V>(k));
        self.set_rotation(k, q);
        let r = matrix(q);
        // Every free member to its goal, moved by the difference. The
        // moves keep the momentum only up to the rounding of the centres
        // (1e-7 of a member's offset from the first, every pass: a drift
        // of a falling body's centre of mass by 1.4 mm in 2 s); of a
        // cluster without pinned members, the moves' own momentum, small
        // and so summed to within 1e-7 of itself, is taken back.
        let step = Step { origin, center, rest_origin, rest_center, r };
        let (mut momentum, mut held) = (splat(Vec3::ZERO), zero);
        for m in members.clone() {
            let (_, dx, w, free) = step.of(self, m);
            momentum = momentum.add(V3::select(free, dx.scale(w), splat(Vec3::ZERO)));
            held = V::select(free, held, V::splat(1.0));
        }
        let back = V3::select(held.gt(zero), splat(Vec3::ZERO), momentum.div(mass));
        for m in members {
            let (x, dx, _, free) = step.of(self, m);
            self.set(c.particle[m] as usize, V3::select(free, x.add(dx.sub(back)), x));
        }
    }

    /// Range `s` of the joints (see `rigid_point::project`).
    #[inline(always)]
    fn point<V: Lanes>(&mut self, s: usize) {
        let range = self.built.points[s];
        let (a, b) = (range.a as usize, range.b as usize);
        let (ra, rb) = (self.rigid::<V>(a), self.rigid::<V>(b));
        let (xa, xb) = (ra.point(range.ra), rb.point(range.rb));
        let d = xb.sub(xa);
        let len = d.dot(d).sqrt();
        let (min, max) = (V::splat(range.min), V::splat(range.max));
        let clamped = V::select(len.lt(min), min, V::select(len.gt(max), max, len));
        let error = len.sub(clamped);
        let (zero, one, tiny) = (V::splat(0.0), V::splat(1.0), V::splat(MIN_ERROR));
        let on = V::select(tiny.le(error.abs()), V::select(tiny.le(len), one, zero), zero);
        if !V::any(on.gt(zero)) {
            return;
        }
        let n = d.div(V::select(on.gt(zero), len, one));
        let w = ra.inv_mass_at(xa, n).add(rb.inv_mass_at(xb, n));
        let on = V::select(w.eq(zero), zero, on);
        let push = n.scale(error.div(V::select(on.gt(zero), w, one)));
        self.shove(a, &ra, xa, push, on);
        self.shove(b, &rb, xb, push.neg(), on);
    }

    /// Separation `s` (see `inequality::project`, whose arithmetic this is).
    #[inline(always)]
    fn separate<V: Lanes>(&mut self, s: usize) {
        let sep = self.built.inequalities[s];
        let (a, b) = (sep.a as usize, sep.b as usize);
        let ((xa, _, wa), (xb, _, wb)) = (self.member::<V>(a), self.member::<V>(b));
        let d = xb.sub(xa);
        let len2 = d.dot(d);
        let (min, max) = (V::splat(sep.min), V::splat(sep.max));
        let (short, long) = (len2.lt(min.mul(min)), len2.gt(max.mul(max)));
        let target = V::select(short, min, max);
        let w = wa.add(wb);
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        let on = V::select(V::or(short, long), one, zero);
        let on = V::select(V::or(w.eq(zero), len2.lt(V::splat(1e-12))), zero, on).gt(zero);
        if !V::any(on) {
            return;
        }
        let len = len2.sqrt();
        let push = d.scale(target.sub(len).div(len.mul(w)));
        self.set(a, V3::select(on, xa.sub(push.scale(wa)), xa));
        self.set(b, V3::select(on, xb.add(push.scale(wb)), xb));
    }

    /// Twist limit `s` (see `angle_limit::project`, whose steps these are):
    /// the child and its parent turn about the child's bone, in inverse
    /// proportion to their inertias about it, until the twist is in range.
    #[inline(always)]
    fn twist<V: Lanes>(&mut self, s: usize) {
        let l = self.built.twists[s];
        let (c, q) = (l.child as usize, l.parent as usize);
        let (qp, qc) = (self.world_rotation::<V>(q), self.world_rotation::<V>(c));
        let d = multiply(multiply(quat(l.rest_relative.conjugate()), conjugate(qp)), qc);
        // The twist of `d` (short way round) about +Y; none where `d` has
        // no part about +Y (`swing_twist`).
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        let flip = V::select(d[3].lt(zero), one.neg(), one);
        let (y, w) = (d[1].mul(flip), d[3].mul(flip));
        let about = y.mul(y).add(w.mul(w));
        let norm = d[0].mul(d[0]).add(d[1].mul(d[1])).add(d[2].mul(d[2])).add(d[3].mul(d[3]));
        let twist = V::select(about.gt(norm.mul(V::splat(1.0e-18))), atan2(y, w).mul(V::splat(2.0)), zero);
        let error = twist.max(V::splat(l.min)).min(V::splat(l.max)).sub(twist);
        let (head, _, _) = self.member::<V>(l.head as usize);
        let (tail, _, _) = self.member::<V>(l.tail as usize);
        let along = tail.sub(head);
        let length = along.dot(along).sqrt();
        let on = V::select(error.abs().lt(V::splat(MIN_TWIST)), zero, V::select(length.gt(zero), one, zero));
        if !V::any(on.gt(zero)) {
            return;
        }
        let axis = along.div(V::select(length.gt(zero), length, one));
        let (mut ac, mut ap) = (self.axial::<V>(c, head, axis), self.axial::<V>(q, head, axis));
        self.hold::<V>(s, &mut ac, &mut ap, axis);
        // The child's share, I_p / (I_c + I_p); all of it when the parent
        // cannot turn, none when the child cannot; none turns where neither
        // can, or where an inertia overflowed (a NaN share).
        let (child, parent) = (ac.turns.gt(zero), ap.turns.gt(zero));
        let both = ap.inertia.div(ac.inertia.add(ap.inertia));
        let share = V::select(child, V::select(parent, both, one), zero);
        let valid = V::select(zero.le(share), V::select(share.le(one), on, zero), zero);
        let on = V::select(V::or(child, parent), valid, zero);
        self.turn_about::<V>(c, &ac, head, axis, error.mul(share), V::select(child, on, zero));
        let on = V::select(parent, V::select(share.lt(one), on, zero), zero);
        self.turn_about::<V>(q, &ap, head, axis, error.mul(one.sub(share)).neg(), on);
    }

    /// Twist `s`'s side towards a held ragdoll's pin, where that side's bone
    /// does not hold the pin itself: its inertia is that of its chain of
    /// bones to the pin about the line through the pin along `axis`, since
    /// the bone cannot turn without that chain (the joints and hinges on
    /// the way carry its turn to the pin). Weighed alone (a thigh about its
    /// own axis: four particles, two off it), the thigh of a body held by
    /// its ankle took nearly all of the hip's twist, which sat at its limit
    /// as the body fell, and the body gained up to 114 J (issue 31).
    #[inline(always)]
    fn hold<V: Lanes>(&self, s: usize, ac: &mut Axial<V>, ap: &mut Axial<V>, axis: V3<V>) {
        let w = V::W;
        let sides = &self.scratch.sides[s * w..(s + 1) * w];
        if sides.iter().all(|&side| side == UNHELD) {
            return;
        }
        let limit = self.built.twists[s];
        let mut lanes = [[0.0f32; LANES]; 3];
        store_n(&mut lanes.as_flattened_mut()[..3 * w], 0, [axis.x, axis.y, axis.z]);
        let mut chain = [0.0f32; LANES];
        for (l, &side) in sides.iter().enumerate().filter(|&(_, &side)| side != UNHELD) {
            let from = if side == PIN_BELOW { limit.child } else { limit.parent };
            let axis = Vec3::new(lanes.as_flattened()[l], lanes.as_flattened()[w + l], lanes.as_flattened()[2 * w + l]);
            chain[l] = self.chain_inertia(w, l, from as usize, axis);
        }
        let (side, chain) = (V::from_slice(sides), V::from_slice(&chain));
        let (below, above) = (side.eq(V::splat(PIN_BELOW)), side.eq(V::splat(PIN_ABOVE)));
        ac.inertia = V::select(below, V::select(ac.pivot, ac.inertia, chain), ac.inertia);
        ap.inertia = V::select(above, V::select(ap.pivot, ap.inertia, chain), ap.inertia);
    }

    /// Lane `l` (of `w`): the inertia about the line through its pin along
    /// `axis` of the bones from `from` to the pin's holder (up from each to
    /// the first bone above the holder), each with its members.
    fn chain_inertia(&self, w: usize, l: usize, from: usize, axis: Vec3) -> f32 {
        let (s, c) = (&*self.scratch, &self.built.clusters);
        let at = |i: usize, v: usize| s.particles[(i * PARTICLE + v) * w + l];
        let position = |i: usize| Vec3::new(at(i, 0), at(i, 1), at(i, 2));
        let pin = position(s.pins[l] as usize);
        let bone = |k: usize| {
            c.members(k).map(|m| c.particle[m] as usize).fold(0.0, |sum, i| {
                let r = (position(i) - pin).reject_from_normalized(axis);
                sum + r.length_squared() * at(i, 4)
            })
        };
        let (mut inertia, mut k) = (0.0f32, from);
        while !s.above[k * w + l] {
            inertia += bone(k);
            k = self.parents[k].expect("the root is above every holder") as usize;
        }
        let (meet, mut k) = (k, s.holders[l] as usize);
        loop {
            inertia += bone(k);
            if k == meet {
                return inertia;
            }
            k = self.parents[k].expect("the meeting bone is above the holder") as usize;
        }
    }

    /// How bone `k` takes a turn about `axis` through `head` (see
    /// `angle_limit::Axial`).
    #[inline(always)]
    fn axial<V: Lanes>(&self, k: usize, head: V3<V>, axis: V3<V>) -> Axial<V> {
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        let how = self.bone::<V>(k, 13);
        // Free: its inertia about the bone's line.
        let mut inertia = zero;
        let c = &self.built.clusters;
        for m in c.members(k) {
            let (x, w, _) = self.member::<V>(c.particle[m] as usize);
            let r = x.sub(head);
            let r = r.sub(axis.scale(r.dot(axis)));
            inertia = inertia.add(r.dot(r).mul(w));
        }
        let free_turns = V::select(how.eq(V::splat(FREE)), V::select(inertia.gt(zero), one, zero), zero);
        let is_pivot = how.eq(V::splat(PIVOT));
        let mut axial = Axial { inertia, turns: free_turns, pivot: is_pivot, center: head, along: axis };
        if V::any(is_pivot) {
            // Held by one particle: about its pivot, along `I^-1 axis`.
            let body = self.rigid::<V>(k);
            let along = apply(&body.inv_inertia, axis);
            let w = axis.dot(along);
            let pivot_turns = V::select(w.gt(zero), V::select(w.le(V::splat(f32::MAX)), one, zero), zero);
            let safe = V::select(pivot_turns.gt(zero), w, one);
            axial.inertia = V::select(is_pivot, one.div(safe), inertia);
            axial.turns = V::select(is_pivot, pivot_turns, free_turns);
            axial.center = body.center;
            axial.along = along.div(safe);
        }
        axial
    }

    /// Turns bone `k` by `angle` about `axis` through `head`, or about its
    /// pivot, as `how` says, where `on` is 1 (see `angle_limit::turn_about`);
    /// its rotation turns alike. A free bone is shifted back after, so its
    /// centre of mass stays; pinned members stay.
    #[inline(always)]
    fn turn_about<V: Lanes>(&mut self, k: usize, how: &Axial<V>, head: V3<V>, axis: V3<V>, angle: V, on: V) {
        let (zero, one) = (V::splat(0.0), V::splat(1.0));
        if !V::any(on.gt(zero)) {
            return;
        }
        let around = V3::select(how.pivot, how.center, head);
        let v = V3::select(how.pivot, how.along, axis).scale(angle);
        let theta = v.dot(v).sqrt();
        let (s, c) = sin_cos(theta.mul(V::splat(0.5)));
        let unit = v.div(V::select(theta.gt(zero), theta, one)).scale(s);
        let r = [unit.x, unit.y, unit.z, c];
        let m = matrix(r);
        let clusters = &self.built.clusters;
        let (mut mass, mut moved) = (zero, splat::<V>(Vec3::ZERO));
        for member in clusters.members(k) {
            let i = clusters.particle[member] as usize;
            let (x, w, inv_mass) = self.member::<V>(i);
            let free = V::select(inv_mass.gt(zero), on, zero).gt(zero);
            let to = around.add(apply(&m, x.sub(around)));
            self.set(i, V3::select(free, to, x));
            mass = mass.add(V::select(free, w, zero));
            moved = moved.add(V3::select(free, to.sub(x).scale(w), splat(Vec3::ZERO)));
        }
        let back = V::select(how.pivot, zero, V::select(mass.gt(zero), on, zero)).gt(zero);
        if V::any(back) {
            let shift = moved.div(V::select(back, mass, one));
            for member in clusters.members(k) {
                let i = clusters.particle[member] as usize;
                let (x, _, _) = self.member::<V>(i);
                self.set(i, V3::select(back, x.sub(shift), x));
            }
        }
        self.turn_rotation(k, r, on.gt(zero));
    }
}

/// Takes the pass's rounding drift, `delta`, out of the velocity of the
/// ragdoll whose first `particles` are in `p`.
///
/// Every stage of a pass (fits, joints, separations, twists) moves the
/// ragdoll's parts against each other and keeps its centre of mass in
/// exact arithmetic. Rounding does not: each fit's centre and each position
/// it writes are rounded, and the centre of mass moves by a sum of
/// roundings, `delta` (summed in `f64` by [`Pass::store`]), which the
/// velocity read from the positions (`solver::integrate::update_velocities`)
/// takes as momentum, `M delta / h`. A limp humanoid drifting at 1 m/s in
/// zero gravity, free of every other stage, had its momentum 10.6 % off
/// after 10 s at 32 substeps. So `-delta` goes into each particle's
/// residual column, what rounding took from the moves (see
/// `ParticlesMut::move_by`): the velocities get the moves the pass made in
/// exact arithmetic, to their sum. A uniform change carries no angular
/// momentum about the centre of mass. A ragdoll with a pinned particle is
/// left alone: its pin pushes on it.
fn undrift(p: &mut ParticlesMut, particles: usize, delta: Vec3) {
    for (e, d) in [(&mut *p.ex, delta.x), (&mut *p.ey, delta.y), (&mut *p.ez, delta.z)] {
        for e in &mut e[..particles] {
            *e -= d;
        }
    }
}

/// Lane `l`'s pin, and each twist's side of it (see [`Pass::hold`]);
/// `inv` the ragdoll's particles' inverse masses, `w` the lanes. With
/// several pins, the first bone's that holds one.
fn held_chains(s: &mut Scratch, built: &Built, parents: &[Option<u32>], l: usize, inv: &[f32], clusters: &ClusterSet) {
    let (bones, w) = (clusters.len(), s.pins.len());
    let pinned = |k: usize| clusters.members(k).find(|&m| inv[clusters.particle[m] as usize] == 0.0);
    // A bone with a pinned member turns about it or not at all: the rest
    // inertias tell an unheld ragdoll without a look at its particles.
    let maybe = clusters.rest_inertia.iter().any(|r| r.pivot.is_some() || r.inv_inertia.is_none());
    let Some((holder, m)) = (0..bones).filter(|_| maybe).find_map(|k| pinned(k).map(|m| (k, m))) else {
        for t in 0..built.twists.len() {
            s.sides[t * w + l] = UNHELD;
        }
        return;
    };
    (s.holders[l], s.pins[l]) = (holder as u32, clusters.particle[m]);
    s.holding.clear();
    s.holding.resize(bones, false);
    for k in (0..bones).filter(|&k| pinned(k).is_some()) {
        let mut b = Some(k as u32);
        while let Some(at) = b.filter(|&at| !s.holding[at as usize]) {
            s.holding[at as usize] = true;
            b = parents[at as usize];
        }
    }
    for k in 0..bones {
        s.above[k * w + l] = false;
    }
    let mut b = Some(holder as u32);
    while let Some(at) = b {
        s.above[at as usize * w + l] = true;
        b = parents[at as usize];
    }
    for (t, limit) in built.twists.iter().enumerate() {
        s.sides[t * w + l] = if s.holding[limit.child as usize] { PIN_BELOW } else { PIN_ABOVE };
    }
}

/// A bone's [`BONE`] values: mass, rest centre, inverse rest inertia by
/// columns (zero when held), how it moves.
#[inline(always)]
fn bone_values(rest: &RestInertia) -> [f32; BONE] {
    let how = match (rest.inv_inertia, rest.pivot) {
        (None, _) => HELD,
        (Some(_), Some(_)) => PIVOT,
        (Some(_), None) => FREE,
    };
    let (c, m) = (rest.rest_center, rest.inv_inertia.unwrap_or(glam::Mat3::ZERO).to_cols_array());
    [rest.mass, c.x, c.y, c.z, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], how]
}

/// `v` in every lane.
#[inline(always)]
pub(super) fn splat<V: Lanes>(v: Vec3) -> V3<V> {
    V3 { x: V::splat(v.x), y: V::splat(v.y), z: V::splat(v.z) }
}

/// `q` (x, y, z, w) in every lane.
#[inline(always)]
pub(super) fn quat<V: Lanes>(q: Quat) -> [V; 4] {
    [V::splat(q.x), V::splat(q.y), V::splat(q.z), V::splat(q.w)]
}

/// The conjugate of `q` (x, y, z, w).
#[inline(always)]
pub(super) fn conjugate<V: Lanes>(q: [V; 4]) -> [V; 4] {
    [q[0].neg(), q[1].neg(), q[2].neg(), q[3]]
}

/// How a bone takes a turn about a line, in each lane (see
/// `angle_limit::Axial`).
struct Axial<V: Lanes> {
    /// Its inertia about the line.
    inertia: V,
    /// 1 where it can turn, else 0.
    turns: V,
    /// Where it turns about its pivot (`center`) in the direction `along`
    /// (`I^-1 axis / (axis . I^-1 axis)`) rather than about the line.
    pivot: V::M,
    center: V3<V>,
    along: V3<V>,
}

/// A cluster's fit: where each member goes.
struct Step<V> {
    origin: V3<V>,
    center: V3<V>,
    rest_origin: Vec3,
    rest_center: V3<V>,
    r: [V3<V>; 3],
}

impl<V: Lanes> Step<V> {
    /// Member `m`'s position, move to its goal, weight, and whether it is free.
    #[inline(always)]
    fn of(&self, pass: &Pass, m: usize) -> (V3<V>, V3<V>, V, V::M) {
        let c = &pass.built.clusters;
        let (x, w, inv_mass) = pass.member::<V>(c.particle[m] as usize);
        let local = splat::<V>(c.rest[m] - self.rest_origin).sub(self.rest_center);
        let r = &self.r;
        let goal = apply(r, local);
        (x, goal.sub(x.sub(self.origin).sub(self.center)), w, inv_mass.gt(V::splat(0.0)))
    }
}

/// `m v` for the matrix `m` by columns.
#[inline(always)]
pub(super) fn apply<V: Lanes>(m: &[V3<V>; 3], v: V3<V>) -> V3<V> {
    m[0].scale(v.x).add(m[1].scale(v.y)).add(m[2].scale(v.z))
}

/// The quaternion product `a b` (x, y, z, w).
#[inline(always)]
pub(super) fn multiply<V: Lanes>(a: [V; 4], b: [V; 4]) -> [V; 4] {
    let ([ax, ay, az, aw], [x, y, z, w]) = (a, b);
    [
        aw.mul(x).add(ax.mul(w)).add(ay.mul(z)).sub(az.mul(y)),
        aw.mul(y).sub(ax.mul(z)).add(ay.mul(w)).add(az.mul(x)),
        aw.mul(z).add(ax.mul(y)).sub(ay.mul(x)).add(az.mul(w)),
        aw.mul(w).sub(ax.mul(x)).sub(ay.mul(y)).sub(az.mul(z)),
    ]
}

/// The rotation matrix of unit quaternion `q` (x, y, z, w), by columns, as
/// glam's `Mat3::from_quat`.
#[inline(always)]
fn matrix<V: Lanes>(q: [V; 4]) -> [V3<V>; 3] {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x.add(x), y.add(y), z.add(z));
    let (xx, xy, xz) = (x.mul(x2), x.mul(y2), x.mul(z2));
    let (yy, yz, zz) = (y.mul(y2), y.mul(z2), z.mul(z2));
    let (wx, wy, wz) = (w.mul(x2), w.mul(y2), w.mul(z2));
    let one = V::splat(1.0);
    [
        V3 { x: one.sub(yy.add(zz)), y: xy.add(wz), z: xz.sub(wy) },
        V3 { x: xy.sub(wz), y: one.sub(xx.add(zz)), z: yz.add(wx) },
        V3 { x: xz.add(wy), y: yz.sub(wx), z: one.sub(xx.add(yy)) },
    ]
}

/// The rotation closest to `a` (columns), found by turning `q` (Mueller,
/// Bender, Chentanez, Macklin 2016): `omega = sum_k r_k x a_k / |sum_k r_k
/// . a_k|` until the turn is negligible, each lane on its own.
#[inline(always)]
fn extract<V: Lanes>(a: &[V3<V>; 3], mut q: [V; 4]) -> [V; 4] {
    let (zero, one) = (V::splat(0.0), V::splat(1.0));
    // 1 while a lane still turns, else 0.
    let mut active = one;
    for _ in 0..EXTRACT_ITERATIONS {
        let r = matrix(q);
        let torque = r[0].cross(a[0]).add(r[1].cross(a[1])).add(r[2].cross(a[2]));
        let alignment = r[0].dot(a[0]).add(r[1].dot(a[1])).add(r[2].dot(a[2])).abs();
        let omega = torque.div(alignment.add(V::splat(1.0e-9)));
        let angle = omega.dot(omega).sqrt();
        // Converged; or an `a` beyond f32 (a non-finite turn): the
        // rotation stays as it was rather than become NaN.
        let turns = V::splat(1.0e-7).le(angle);
        let finite = angle.le(V::splat(f32::MAX));
        active = V::select(turns, V::select(finite, active, zero), zero);
        let on = active.gt(zero);
        if !V::any(on) {
            break;
        }
        let (s, c) = sin_cos_half(angle.min(V::splat(MAX_TURN)).mul(V::splat(0.5)));
        let axis = omega.div(V::select(on, angle, one)).scale(s);
        let turned = multiply([axis.x, axis.y, axis.z, c], q);
        let length = turned[0]
            .mul(turned[0])
            .add(turned[1].mul(turned[1]))
            .add(turned[2].mul(turned[2]))
            .add(turned[3].mul(turned[3]))
            .sqrt();
        for (q, t) in q.iter_mut().zip(turned) {
            *q = V::select(on, t.div(length), *q);
        }
        // A turn this small was the last that mattered.
        active = V::select(angle.lt(V::splat(CONVERGED_TURN)), zero, active);
    }
    q
}

/// `(sin h, cos h)` for `0 <= h <= 0.5` (half a turn of at most
/// `MAX_TURN`): their Taylor series to h^9 and h^8, whose first terms left
/// out are below 3e-10 there, under f32's rounding.
#[inline(always)]
fn sin_cos_half<V: Lanes>(h: V) -> (V, V) {
    let h2 = h.mul(h);
    let s = V::splat(1.0 / 362_880.0)
        .mul(h2)
        .sub(V::splat(1.0 / 5_040.0))
        .mul(h2)
        .add(V::splat(1.0 / 120.0))
        .mul(h2)
        .sub(V::splat(1.0 / 6.0))
        .mul(h2)
        .mul(h)
        .add(h);
    let c = V::splat(1.0 / 40_320.0)
        .mul(h2)
        .sub(V::splat(1.0 / 720.0))
        .mul(h2)
        .add(V::splat(1.0 / 24.0))
        .mul(h2)
        .sub(V::splat(0.5))
        .mul(h2)
        .add(V::splat(1.0));
    (s, c)
}

/// `(sin h, cos h)` for `0 <= h <= pi`: [`sin_cos_half`] of `h / 4`
/// (within its series' reach, below 3e-8 there), doubled twice.
#[inline(always)]
fn sin_cos<V: Lanes>(h: V) -> (V, V) {
    let (mut s, mut c) = sin_cos_half(h.min(V::splat(std::f32::consts::PI)).mul(V::splat(0.25)));
    for _ in 0..2 {
        (s, c) = (s.mul(c).mul(V::splat(2.0)), c.mul(c).sub(s.mul(s)));
    }
    (s, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;
    use crate::ragdoll::Skeleton;
    use std::sync::Arc;

    /// A humanoid's particles pulled towards its middle, so that most of
    /// its joints and separations act, and its clusters.
    fn crumpled() -> (Arc<Skeleton>, Particles, ClusterSet) {
        let skeleton = Skeleton::humanoid(1.8).unwrap();
        let built = &skeleton.built;
        let middle = built.positions.iter().sum::<Vec3>() / built.positions.len() as f32;
        let wobble = |i: f32| Vec3::new(i.sin(), (0.3 * i).cos(), (1.7 * i).sin()) * 0.03;
        let x: Vec<Vec3> =
            built.positions.iter().enumerate().map(|(i, &x)| middle + (x - middle) * 0.4 + wobble(i as f32)).collect();
        let mut store = Particles::default();
        store.append(&x, |i| built.inv_masses[i]);
        let mut clusters = built.clusters.clone();
        clusters.update_rest_inertia(&store.view(0..x.len()));
        (skeleton, store, clusters)
    }

    /// Runs `stage` on one ragdoll in one lane, between the copies in and out.
    fn alone(built: &Built, clusters: &mut ClusterSet, p: &mut ParticlesMut, stage: impl FnOnce(&mut Pass)) {
        let (mut scratch, mut clock) = (Scratch::default(), Clock::default());
        let mut pass = Pass {
            built,
            // Its ragdolls are not held: no parents asked for.
            parents: &[],
            clusters: std::array::from_fn(|_| None),
            views: std::array::from_fn(|_| None),
            used: 1,
            scratch: &mut scratch,
            clock: &mut clock,
            t: None,
        };
        pass.clusters[0] = Some(clusters);
        pass.views[0] = Some(p);
        pass.load::<f32>(0, 1);
        stage(&mut pass);
        pass.store::<f32>(0, 1);
    }

    #[test]
    fn separations_in_lanes_are_the_scalar_ones_bit_for_bit() {
        let (skeleton, mut a, mut clusters) = crumpled();
        let (built, n) = (&skeleton.built, skeleton.built.positions.len());
        let mut b = a.clone();
        let before = a.x.clone();
        let mut pa = a.view(0..n);
        crate::constraints::inequality::project(&built.inequalities, &mut pa);
        let mut pb = b.view(0..n);
        alone(built, &mut clusters, &mut pb, |pass| {
            (0..built.inequalities.len()).for_each(|s| pass.separate::<f32>(s))
        });
        let moved = (0..n).filter(|&i| pa.x[i] != before[i]).count();
        assert!(moved > 10, "only {moved} particles moved");
        for i in 0..n {
            assert_eq!([pa.x[i], pa.y[i], pa.z[i]].map(f32::to_bits), [pb.x[i], pb.y[i], pb.z[i]].map(f32::to_bits));
        }
    }

    #[test]
    fn joints_in_lanes_move_the_centre_of_mass_as_the_scalar_reference_and_follow_it() {
        let (skeleton, mut a, clusters) = crumpled();
        let (built, n) = (&skeleton.built, skeleton.built.positions.len());
        let mut b = a.clone();
        let (mut ca, mut cb) = (clusters.clone(), clusters);
        let mut pa = a.view(0..n);
        let mass: Vec<f32> = pa.inv_mass.iter().map(|w| 1.0 / w).collect();
        let centre =
            |p: &ParticlesMut| (0..n).map(|i| p.position(i) * mass[i]).sum::<Vec3>() / mass.iter().sum::<f32>();
        let before = centre(&pa);
        crate::constraints::rigid_point::project(&built.points, &mut ca, &mut pa);
        let mut pb = b.view(0..n);
        alone(built, &mut cb, &mut pb, |pass| (0..built.points.len()).for_each(|s| pass.point::<f32>(s)));
        let apart = (0..n).map(|i| pa.position(i).distance(pb.position(i))).fold(0.0, f32::max);
        let (lanes, scalar) = (centre(&pb) - before, centre(&pa) - before);
        eprintln!("lanes {apart} m from the reference; centre moved {lanes} (reference {scalar})");
        // Shared joint particles count in both bones' masses, so the
        // joints move a body's centre a little whichever way they run
        // (3.6e-4 m here, far from rigid); the lanes move it as the
        // reference does. Their first-order turns land within 1.3 mm of
        // its exact ones on this crumpled pose.
        assert!((lanes - scalar).length() < 1e-5, "the centre of mass moved {lanes}, the reference's {scalar}");
        assert!(apart < 2e-3, "{apart} m from the scalar reference");
    }

    #[test]
    fn twists_in_lanes_land_where_the_scalar_reference_does() {
        let (skeleton, mut a, clusters) = crumpled();
        let (built, n) = (&skeleton.built, skeleton.built.positions.len());
        // Every child twisted 0.8 rad past its parent about its bone.
        let (mut ca, mut cb) = (clusters.clone(), clusters);
        for t in &built.twists {
            let turn = Quat::from_axis_angle(
                (built.positions[t.tail as usize] - built.positions[t.head as usize]).normalize(),
                0.8,
            );
            for c in [&mut ca, &mut cb] {
                c.rotation[t.child as usize] = turn * c.rotation[t.child as usize];
            }
        }
        let mut b = a.clone();
        let before: Vec<f32> = built.twists.iter().map(|t| t.twist(&ca)).collect();
        let mut pa = a.view(0..n);
        crate::constraints::angle_limit::project(&built.twists, &mut ca, &mut pa);
        let mut pb = b.view(0..n);
        alone(built, &mut cb, &mut pb, |pass| (0..built.twists.len()).for_each(|s| pass.twist::<f32>(s)));
        let outside = |t: &crate::constraints::angle_limit::TwistLimit, x: f32| (x - x.clamp(t.min, t.max)).abs();
        let limited = built.twists.iter().zip(&before).filter(|(t, x)| outside(t, **x) > 0.1).count();
        assert!(limited >= 3, "only {limited} twists out of range");
        let apart = (0..n).map(|i| pa.position(i).distance(pb.position(i))).fold(0.0, f32::max);
        let turned = (0..ca.len()).map(|k| ca.rotation[k].angle_between(cb.rotation[k])).fold(0.0, f32::max);
        eprintln!("{limited} twists out of range; lanes {apart} m and {turned} rad from the reference");
        assert!(apart < 1e-5 && turned < 1e-4, "{apart} m, {turned} rad from the scalar reference");
    }

    #[test]
    fn sine_and_cosine_up_to_half_a_turn_match_libm() {
        for k in 0..=1000 {
            let h = k as f32 * std::f32::consts::PI / 1000.0;
            let (s, c) = sin_cos::<f32>(h);
            assert!((s - h.sin()).abs() <= 4e-7 && (c - h.cos()).abs() <= 4e-7, "{h}: {s} {c}");
        }
    }

    #[test]
    fn sine_and_cosine_of_half_turns_match_libm() {
        for k in 0..=1000 {
            let h = k as f32 * 0.0005;
            let (s, c) = sin_cos_half::<f32>(h);
            assert!((s - h.sin()).abs() <= 1.2e-7 && (c - h.cos()).abs() <= 1.2e-7, "{h}: {s} {c}");
        }
    }

    #[test]
    fn extraction_recovers_a_rotation_from_a_stretched_matrix() {
        let truth = Quat::from_euler(glam::EulerRot::XYZ, 0.7, -0.4, 1.1);
        let m = glam::Mat3::from_quat(truth) * glam::Mat3::from_diagonal(Vec3::new(1.3, 0.8, 1.1));
        let col = |v: Vec3| V3 { x: v.x, y: v.y, z: v.z };
        let a = [col(m.x_axis), col(m.y_axis), col(m.z_axis)];
        let mut q = [0.0, 0.0, 0.0, 1.0];
        for _ in 0..10 {
            q = extract::<f32>(&a, q);
        }
        let found = Quat::from_xyzw(q[0], q[1], q[2], q[3]);
        assert!(found.angle_between(truth) < 1e-4, "{found:?} against {truth:?}");
    }
}
