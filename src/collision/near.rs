//! Which of a body's particles may touch a shape, a vector of them at a time.
//!
//! A collision pass tests every particle of a body against every candidate
//! shape, and most are nowhere near it (a cape against the character's
//! capsules, a sheet falling past a box). Each shape says what it lies
//! within ([`Bound`]: a half-space or a ball); a chunk of the level's lanes
//! (4, 8 or 16 particles, straight from the SoA columns) is tested against
//! that bound, and only a chunk where some lane may touch goes on to the
//! shape's exact scalar test, particle by particle. The bound is looser than
//! the shape, with slack for rounding, so a skipped chunk is one the exact
//! test would have skipped too, and every level gives the bits of the scalar
//! loop (a particle's collision with one shape depends on that particle
//! only, so which are tested together changes nothing).

use crate::exec::simd::{self, Kernel, Lanes, SimdLevel};
use crate::particles::ParticlesMut;
use glam::Vec3;

/// What a shape is known to lie within.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// The solid half-space `normal . x < offset` (unit normal).
    HalfSpace { normal: Vec3, offset: f32 },
    /// Everything within `radius` of `center`.
    Ball { center: Vec3, radius: f32 },
    /// Everything within `extent` of `center` along each world axis (an
    /// axis-aligned box: a long box or capsule's ball holds much more).
    Aabb { center: Vec3, extent: Vec3 },
    /// Nothing known: every particle goes to the exact test.
    Everywhere,
}

impl Bound {
    /// May a point of radius `r` moving from `origin` by `dir` touch what is
    /// inside the bound? (The segment's own ball against the bound's; a
    /// half-space is solid to any depth, so anything may.)
    #[inline(always)]
    pub fn may_sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> bool {
        match *self {
            Bound::Ball { center, radius } => {
                let half = dir * 0.5;
                let reach = (radius + r + half.length()) * (1.0 + SLACK) + SLACK;
                (origin + half - center).length_squared() < reach * reach
            }
            Bound::Aabb { center, extent } => {
                let (lo, hi) = (origin.min(origin + dir), origin.max(origin + dir));
                let reach = (extent + r) * (1.0 + SLACK) + SLACK;
                (lo - center).cmplt(reach).all() && (center - hi).cmplt(reach).all()
            }
            Bound::HalfSpace { .. } | Bound::Everywhere => true,
        }
    }

    /// May a stick of radius `r` from `a` to `b` touch what is inside the
    /// bound? (Its box against the bound's for an [`Bound::Aabb`]; true
    /// for the others.)
    #[inline(always)]
    pub fn may_touch_segment(&self, a: Vec3, b: Vec3, r: f32) -> bool {
        match *self {
            Bound::Aabb { .. } => self.may_sweep(a, b - a, r),
            _ => true,
        }
    }
}

/// Relative slack of the bound's test, far above the rounding of the few
/// operations it takes.
const SLACK: f32 = 1.0e-4;

/// Calls `exact(p, i)` for the particles `i` of `p` that may be within
/// `radius` of the shape inside `bound` (every one whose chunk may), in
/// particle order.
pub fn each_near(
    level: SimdLevel,
    p: &mut ParticlesMut,
    bound: Bound,
    radius: f32,
    exact: impl FnMut(&mut ParticlesMut, usize),
) {
    let mut kernel = Near { p, bound, radius, exact };
    if matches!(bound, Bound::Everywhere) || !radius.is_finite() {
        kernel.all(0);
    } else {
        simd::dispatch(level, &mut kernel);
    }
}

/// Calls `exact(p, i)` for the particles `i` of `p` whose motion this
/// substep (`x' -> x`, widened by `radius`, the largest of theirs) may
/// reach one of the `count` shapes inside `bound(0..count)`; lanes of
/// particles that cannot are skipped (particles that did not move far
/// enough to sweep at all are the exact test's to skip).
pub fn each_sweeping(
    level: SimdLevel,
    p: &mut ParticlesMut,
    count: usize,
    bound: impl Fn(usize) -> Bound,
    radius: f32,
    exact: impl FnMut(&mut ParticlesMut, usize),
) {
    let mut kernel = Sweeping { p, count, bound, radius, exact };
    if !radius.is_finite() || (0..count).any(|k| !matches!((kernel.bound)(k), Bound::Ball { .. })) {
        for i in 0..kernel.p.len() {
            (kernel.exact)(kernel.p, i);
        }
    } else {
        simd::dispatch(level, &mut kernel);
    }
}

struct Sweeping<'a, 'b, B, F> {
    p: &'a mut ParticlesMut<'b>,
    count: usize,
    bound: B,
    radius: f32,
    exact: F,
}

impl<B: Fn(usize) -> Bound, F: FnMut(&mut ParticlesMut, usize)> Kernel for Sweeping<'_, '_, B, F> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let n = self.p.len();
        let whole = n - n % V::W;
        let half = V::splat(0.5);
        for start in (0..whole).step_by(V::W) {
            let p = &self.p;
            let (x, y, z, px, py, pz) = (
                V::from_slice(&p.x[start..]),
                V::from_slice(&p.y[start..]),
                V::from_slice(&p.z[start..]),
                V::from_slice(&p.px[start..]),
                V::from_slice(&p.py[start..]),
                V::from_slice(&p.pz[start..]),
            );
            // The path's middle and half its length, widened by the
            // particles' radius, the sweep's back-off and slack.
            let (mx, my, mz) = (x.add(px).mul(half), y.add(py).mul(half), z.add(pz).mul(half));
            let (dx, dy, dz) = (x.sub(px), y.sub(py), z.sub(pz));
            let length = dx.mul(dx).add(dy.mul(dy)).add(dz.mul(dz)).sqrt();
            let widen = length.mul(half).add(V::splat(self.radius + 2.0 * SLACK));
            let mut hit = V::splat(1.0).lt(V::splat(0.0));
            for k in 0..self.count {
                let Bound::Ball { center, radius } = (self.bound)(k) else { unreachable!("checked: balls only") };
                let (cx, cy, cz) = (mx.sub(V::splat(center.x)), my.sub(V::splat(center.y)), mz.sub(V::splat(center.z)));
                let d2 = cx.mul(cx).add(cy.mul(cy)).add(cz.mul(cz));
                let reach = widen.add(V::splat(radius)).mul(V::splat(1.0 + SLACK));
                hit = V::or(hit, d2.lt(reach.mul(reach)));
            }
            if !V::any(hit) {
                continue;
            }
            let mut lanes = [0.0f32; 16];
            // SAFETY: 16 >= W values.
            unsafe { V::select(hit, V::splat(1.0), V::splat(0.0)).store(lanes.as_mut_ptr()) };
            for (l, &h) in lanes.iter().enumerate().take(V::W) {
                if h != 0.0 {
                    (self.exact)(self.p, start + l);
                }
            }
        }
        for i in whole..n {
            (self.exact)(self.p, i);
        }
    }
}

struct Near<'a, 'b, F> {
    p: &'a mut ParticlesMut<'b>,
    bound: Bound,
    radius: f32,
    exact: F,
}

impl<F: FnMut(&mut ParticlesMut, usize)> Near<'_, '_, F> {
    /// The exact test for particles `start..`.
    fn all(&mut self, start: usize) {
        for i in start..self.p.len() {
            (self.exact)(self.p, i);
        }
    }
}

impl<F: FnMut(&mut ParticlesMut, usize)> Kernel for Near<'_, '_, F> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let n = self.p.len();
        let whole = n - n % V::W;
        let r = self.radius;
        for start in (0..whole).step_by(V::W) {
            let p = &self.p;
            let (x, y, z) = (V::from_slice(&p.x[start..]), V::from_slice(&p.y[start..]), V::from_slice(&p.z[start..]));
            let may = match self.bound {
                Bound::HalfSpace { normal, offset } => {
                    // Inside when normal . x - offset < r; the slack covers
                    // rounding relative to the coordinates' size.
                    let s = x.mul(V::splat(normal.x)).add(y.mul(V::splat(normal.y))).add(z.mul(V::splat(normal.z)));
                    let size = x.abs().add(y.abs()).add(z.abs()).add(V::splat(offset.abs() + r + 1.0));
                    s.lt(V::splat(offset + r).add(size.mul(V::splat(SLACK))))
                }
                Bound::Ball { center, radius } => {
                    let (dx, dy, dz) =
                        (x.sub(V::splat(center.x)), y.sub(V::splat(center.y)), z.sub(V::splat(center.z)));
                    let d2 = dx.mul(dx).add(dy.mul(dy)).add(dz.mul(dz));
                    let reach = (radius + r) * (1.0 + SLACK) + SLACK;
                    d2.lt(V::splat(reach * reach))
                }
                Bound::Aabb { center, extent } => {
                    let reach = (extent + r) * (1.0 + SLACK) + SLACK;
                    // Inside on every axis: the largest of the three
                    // excesses below 0.
                    let ex = x.sub(V::splat(center.x)).abs().sub(V::splat(reach.x));
                    let ey = y.sub(V::splat(center.y)).abs().sub(V::splat(reach.y));
                    let ez = z.sub(V::splat(center.z)).abs().sub(V::splat(reach.z));
                    ex.max(ey).max(ez).lt(V::splat(0.0))
                }
                Bound::Everywhere => V::splat(0.0).eq(V::splat(0.0)),
            };
            if V::any(may) {
                for i in start..start + V::W {
                    (self.exact)(self.p, i);
                }
            }
        }
        self.all(whole);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::particles::Particles;

    /// Which particles of a scattered cloud each level sends to the exact
    /// test: all those within reach, at every level.
    #[test]
    fn every_particle_within_reach_is_tested_at_every_level() {
        let n = 203; // not a multiple of any lane count
        let x: Vec<Vec3> = (0..n)
            .map(|i| {
                let t = i as f32;
                Vec3::new((t * 0.37).sin() * 3.0, (t * 0.71).cos() * 3.0, (t * 0.13).sin() * 3.0)
            })
            .collect();
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        let r = 0.1;
        let plane = Vec3::new(0.6, 0.8, 0.0);
        let center = Vec3::new(1.0, -0.5, 0.2);
        let half_space = move |x: Vec3| plane.dot(x) + 1.0 < r;
        let ball = move |x: Vec3| x.distance(center) < 1.2 + r;
        let extent = Vec3::new(2.5, 0.4, 1.0);
        let aabb = move |x: Vec3| ((x - center).abs() - extent).max_element() < r;
        let bounds: [(Bound, &dyn Fn(Vec3) -> bool); 3] = [
            (Bound::HalfSpace { normal: plane, offset: -1.0 }, &half_space),
            (Bound::Ball { center, radius: 1.2 }, &ball),
            (Bound::Aabb { center, extent }, &aabb),
        ];
        for (bound, inside) in bounds {
            let within: Vec<usize> = (0..n).filter(|&i| inside(x[i])).collect();
            assert!(!within.is_empty() && within.len() < n / 2, "{bound:?}: {} within", within.len());
            for level in SimdLevel::all_available() {
                let mut p = store.view(0..n);
                let mut tested = Vec::new();
                each_near(level, &mut p, bound, r, |_, i| tested.push(i));
                assert!(within.iter().all(|i| tested.contains(i)), "{level:?} {bound:?} skipped a particle in reach");
                assert!(tested.windows(2).all(|w| w[0] < w[1]), "{level:?}: out of order");
                if level != SimdLevel::Scalar {
                    continue;
                }
                // One lane at a time the bound is the test itself.
                assert_eq!(tested, within, "{bound:?}");
            }
        }
    }

    /// Particles moving up to 0.5 m in a substep past two balls: every one
    /// whose path passes within reach of either is tested, at every level.
    #[test]
    fn every_path_within_reach_is_tested_at_every_level() {
        let n = 211;
        let wave = |i: usize, k: f32| ((i as f32) * k).sin();
        let x: Vec<Vec3> = (0..n).map(|i| Vec3::new(wave(i, 0.37), wave(i, 0.71), wave(i, 0.13)) * 3.0).collect();
        let moved: Vec<Vec3> = (0..n).map(|i| Vec3::new(wave(i, 1.1), wave(i, 0.3), wave(i, 2.3)) * 0.3).collect();
        let mut store = Particles::default();
        store.append(&x, |_| 1.0);
        for i in 0..n {
            store.px[i] = x[i].x - moved[i].x;
            store.py[i] = x[i].y - moved[i].y;
            store.pz[i] = x[i].z - moved[i].z;
        }
        let balls = [(Vec3::new(1.0, -0.5, 0.2), 0.8), (Vec3::new(-1.5, 1.0, -1.0), 0.5)];
        let r = 0.05;
        // The segment's distance from a ball's centre, exactly.
        let reaches = |i: usize| {
            balls.iter().any(|&(c, radius)| {
                let (a, d) = (x[i] - moved[i], moved[i]);
                let t = ((c - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
                (a + d * t).distance(c) < radius + r
            })
        };
        let within: Vec<usize> = (0..n).filter(|&i| reaches(i)).collect();
        assert!(!within.is_empty() && within.len() < n / 2, "{} paths within reach", within.len());
        for level in SimdLevel::all_available() {
            let mut p = store.view(0..n);
            let mut tested = Vec::new();
            let bound = |k: usize| Bound::Ball { center: balls[k].0, radius: balls[k].1 };
            each_sweeping(level, &mut p, balls.len(), bound, r, |_, i| tested.push(i));
            assert!(within.iter().all(|i| tested.contains(i)), "{level:?} skipped a path in reach");
            assert!(tested.len() < n, "{level:?} tested every particle");
            assert!(tested.windows(2).all(|w| w[0] < w[1]), "{level:?}: out of order");
        }
    }
}
