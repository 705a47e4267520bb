//! Structure-of-arrays particle store.
//!
//! Positions `x, y, z`, velocities `vx, vy, vz` and inverse masses, one
//! `f32` array each: the state. Beside them, `px, py, pz`, where each
//! particle was when the current substep began (Jakobsen's `x*`): the
//! passes of a substep read it (sweeps, SHAKE directions), the step
//! overwrites it first, so it is not state. Scratch too, `ex, ey, ez`:
//! what rounding took from the passes' moves this substep (see
//! [`ParticlesMut::move_by`]).
//!
//! Why velocities are stored and not `(x - x_prev) / h`: the difference of
//! two positions loses what rounding took from each, a position's ulp per
//! substep. Far from the origin that is larger than a substep's `g h^2`
//! (6e-5 m at 1 km against 4e-5 m): a particle there fell 44 % fast, and at
//! 3 km not at all. A stored velocity takes only the substep's own
//! corrections (`solver::integrate::update_velocities`), so a free particle's
//! velocity is exact to its own rounding wherever it is.
//!
//! A body owns a contiguous range that starts on a
//! multiple of [`LANES`] and is padded to a multiple of it with inert
//! particles (inverse mass 0, at the origin), so a wide kernel can walk whole
//! lanes of a body without a tail loop.

use crate::exec::simd::{self, Kernel, Lanes, SimdLevel};
use glam::Vec3;
use std::ops::Range;

/// Padding unit in particles: 16 `f32` = one 64-byte cache line, enough for
/// AVX-512 lanes.
pub(crate) const LANES: usize = 16;

/// Rounds a particle count up to whole lanes.
pub fn padded(count: usize) -> usize {
    count.div_ceil(LANES) * LANES
}

/// Every particle of a world.
#[derive(Clone, Default, Debug)]
pub struct Particles {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub px: Vec<f32>,
    pub py: Vec<f32>,
    pub pz: Vec<f32>,
    /// Velocity over the last substep (m/s).
    pub vx: Vec<f32>,
    pub vy: Vec<f32>,
    pub vz: Vec<f32>,
    pub inv_mass: Vec<f32>,
    /// What rounding took from the moves of this substep's passes (m):
    /// scratch, zeroed by the prediction, read by the velocities.
    pub ex: Vec<f32>,
    pub ey: Vec<f32>,
    pub ez: Vec<f32>,
}

/// A body's range of the store, borrowed for the solver.
pub struct ParticlesMut<'a> {
    pub x: &'a mut [f32],
    pub y: &'a mut [f32],
    pub z: &'a mut [f32],
    pub px: &'a mut [f32],
    pub py: &'a mut [f32],
    pub pz: &'a mut [f32],
    pub vx: &'a mut [f32],
    pub vy: &'a mut [f32],
    pub vz: &'a mut [f32],
    pub inv_mass: &'a mut [f32],
    pub ex: &'a mut [f32],
    pub ey: &'a mut [f32],
    pub ez: &'a mut [f32],
    /// The substep's length and its inverse, for the stages after the
    /// passes that speak of a substep's displacement (`v h`); NaN outside
    /// a step.
    pub h: f32,
    pub inv_h: f32,
}

impl Particles {
    /// Number of stored particles, padding included.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Appends `positions` at rest (x_prev = x) with the given inverse masses,
    /// padded to whole lanes; returns the first index.
    pub fn append(&mut self, positions: &[Vec3], inv_mass: impl Fn(usize) -> f32) -> usize {
        let first = self.len();
        let total = padded(positions.len());
        self.reserve(total);
        for (i, p) in positions.iter().enumerate() {
            self.push(*p, inv_mass(i));
        }
        for _ in positions.len()..total {
            self.push(Vec3::ZERO, 0.0);
        }
        first
    }

    fn reserve(&mut self, n: usize) {
        for v in self.arrays_mut() {
            v.reserve(n);
        }
    }

    fn push(&mut self, p: Vec3, w: f32) {
        self.x.push(p.x);
        self.y.push(p.y);
        self.z.push(p.z);
        self.px.push(p.x);
        self.py.push(p.y);
        self.pz.push(p.z);
        self.vx.push(0.0);
        self.vy.push(0.0);
        self.vz.push(0.0);
        self.inv_mass.push(w);
        self.ex.push(0.0);
        self.ey.push(0.0);
        self.ez.push(0.0);
    }

    fn arrays_mut(&mut self) -> [&mut Vec<f32>; 13] {
        [
            &mut self.x,
            &mut self.y,
            &mut self.z,
            &mut self.px,
            &mut self.py,
            &mut self.pz,
            &mut self.vx,
            &mut self.vy,
            &mut self.vz,
            &mut self.inv_mass,
            &mut self.ex,
            &mut self.ey,
            &mut self.ez,
        ]
    }

    /// Removes a range; later particles move down.
    pub fn remove(&mut self, range: Range<usize>) {
        for v in self.arrays_mut() {
            v.drain(range.clone());
        }
    }

    /// Borrows a range, outside a step (its `h` is NaN).
    pub fn view(&mut self, r: Range<usize>) -> ParticlesMut<'_> {
        self.view_in_substep(r, f32::NAN)
    }

    /// Borrows a range for substeps of length `h`.
    fn view_in_substep(&mut self, r: Range<usize>, h: f32) -> ParticlesMut<'_> {
        ParticlesMut {
            x: &mut self.x[r.clone()],
            y: &mut self.y[r.clone()],
            z: &mut self.z[r.clone()],
            px: &mut self.px[r.clone()],
            py: &mut self.py[r.clone()],
            pz: &mut self.pz[r.clone()],
            vx: &mut self.vx[r.clone()],
            vy: &mut self.vy[r.clone()],
            vz: &mut self.vz[r.clone()],
            inv_mass: &mut self.inv_mass[r.clone()],
            ex: &mut self.ex[r.clone()],
            ey: &mut self.ey[r.clone()],
            ez: &mut self.ez[r],
            h,
            inv_h: 1.0 / h,
        }
    }

    /// A range's positions and substep starts, column by column: what
    /// moves when a body's frame moves (`Body::move_frame`).
    pub fn frame_columns(&mut self, r: Range<usize>) -> [&mut [f32]; 6] {
        let Particles { x, y, z, px, py, pz, .. } = self;
        [&mut x[r.clone()], &mut y[r.clone()], &mut z[r.clone()], &mut px[r.clone()], &mut py[r.clone()], &mut pz[r]]
    }

    /// The arrays as pointers, for islands stepped on several threads.
    pub(crate) fn shared(&mut self) -> SharedParticles {
        let arrays = self.arrays_mut().map(|v| v.as_mut_ptr());
        SharedParticles { arrays, len: self.len() }
    }

    pub fn position(&self, i: usize) -> Vec3 {
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    pub fn set_position(&mut self, i: usize, p: Vec3) {
        self.x[i] = p.x;
        self.y[i] = p.y;
        self.z[i] = p.z;
    }

    pub fn velocity(&self, i: usize) -> Vec3 {
        Vec3::new(self.vx[i], self.vy[i], self.vz[i])
    }

    pub fn set_velocity(&mut self, i: usize, v: Vec3) {
        self.vx[i] = v.x;
        self.vy[i] = v.y;
        self.vz[i] = v.z;
    }
}

/// A range of the store's positions, read as columns for a bulk readback.
pub struct Columns<'a> {
    x: &'a [f32],
    y: &'a [f32],
    z: &'a [f32],
    /// The body's frame: added to each position (`Body::origin`).
    origin: Vec3,
    simd: SimdLevel,
}

impl<'a> Columns<'a> {
    /// Positions `r` of `p` in the frame at `origin`, interleaved at `simd`
    /// when written out in world space.
    pub fn of(p: &'a Particles, r: Range<usize>, origin: Vec3, simd: SimdLevel) -> Self {
        Columns { x: &p.x[r.clone()], y: &p.y[r.clone()], z: &p.z[r], origin, simd }
    }

    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Writes the world positions as `[x, y, z]` triples (an engine's vector
    /// array); `out` holds exactly [`Columns::len`]. In a frame at the
    /// world's origin the values are copied, so the bits are the store's;
    /// elsewhere each is `origin + x`, rounded once.
    ///
    /// Why through [`simd::dispatch`]: the loop is the plain zip of three
    /// columns into triples, which the compiler turns into lane permutes
    /// (two-source shuffles) at the dispatched width. Measured on 16,384
    /// positions (AVX-512 machine, benches/scenes.rs readback-128): the
    /// element-by-element iterator with bounds checks took 29 us (6.7x a
    /// `memcpy` of the same 196 KB); this loop takes 8 us compiled for
    /// SSE2 and 5 us for AVX-512, a `memcpy` 4.6 us.
    pub fn interleave(&self, out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), self.len(), "a readback buffer of the body's count");
        simd::dispatch(self.simd, &mut Interleave { from: self, out });
    }
}

/// [`Columns::interleave`] as a kernel: the loop does not use the lanes, it
/// only needs to be compiled for the level's instruction set.
struct Interleave<'c, 'a> {
    from: &'c Columns<'a>,
    out: &'c mut [[f32; 3]],
}

impl Kernel for Interleave<'_, '_> {
    #[inline(always)]
    fn run<V: Lanes>(&mut self) {
        let Columns { x, y, z, origin, .. } = self.from;
        if *origin == Vec3::ZERO {
            for (o, ((&x, &y), &z)) in self.out.iter_mut().zip(x.iter().zip(*y).zip(*z)) {
                *o = [x, y, z];
            }
        } else {
            let [ox, oy, oz] = origin.to_array();
            for (o, ((&x, &y), &z)) in self.out.iter_mut().zip(x.iter().zip(*y).zip(*z)) {
                *o = [ox + x, oy + y, oz + z];
            }
        }
    }
}

impl ParticlesMut<'_> {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    #[inline(always)]
    pub fn position(&self, i: usize) -> Vec3 {
        Vec3::new(self.x[i], self.y[i], self.z[i])
    }

    #[inline(always)]
    pub fn set_position(&mut self, i: usize, p: Vec3) {
        self.x[i] = p.x;
        self.y[i] = p.y;
        self.z[i] = p.z;
    }

    #[inline(always)]
    pub fn previous(&self, i: usize) -> Vec3 {
        Vec3::new(self.px[i], self.py[i], self.pz[i])
    }

    #[inline(always)]
    pub fn set_previous(&mut self, i: usize, p: Vec3) {
        self.px[i] = p.x;
        self.py[i] = p.y;
        self.pz[i] = p.z;
    }

    #[inline(always)]
    pub fn velocity(&self, i: usize) -> Vec3 {
        Vec3::new(self.vx[i], self.vy[i], self.vz[i])
    }

    #[inline(always)]
    pub fn set_velocity(&mut self, i: usize, v: Vec3) {
        self.vx[i] = v.x;
        self.vy[i] = v.y;
        self.vz[i] = v.z;
    }

    /// The substep's displacement, `v h`: what the stages after the passes
    /// (friction, rigid motions, motors) read, in the units of a move.
    #[inline(always)]
    pub fn displacement(&self, i: usize) -> Vec3 {
        self.velocity(i) * self.h
    }

    /// Adds `d` to the substep's displacement: a velocity change of `d / h`.
    #[inline(always)]
    pub fn add_displacement(&mut self, i: usize, d: Vec3) {
        self.set_velocity(i, self.velocity(i) + d * self.inv_h);
    }

    /// Makes the substep's displacement `d`: a velocity of `d / h`.
    #[inline(always)]
    pub fn set_displacement(&mut self, i: usize, d: Vec3) {
        self.set_velocity(i, d * self.inv_h);
    }

    /// Moves the particle by `d` within a pass, keeping what rounding takes
    /// from the move: the stored position is `x + d` rounded, and the
    /// residual column takes the exact rest (TwoSum), so the velocity
    /// (`solver::integrate::update_velocities`) gets the whole move.
    ///
    /// Why: a pass writes `x + d` rounded to the position's ulp (6e-8 m at
    /// 1.2 m), and the velocity, read as `(x - x_pred) / h`, took ulp / h of
    /// noise each substep (1e-4 m/s at 32 x 60 Hz): a mass on a compliant
    /// stick ended 2.4e-4 of its stretch off its scheme after 1 s
    /// (tests/spring.rs). The position keeps its own rounding, a random
    /// walk of 1e-5 of the stretch. A kernel that writes positions
    /// directly keeps today's rounding; the residual is only what the
    /// moves made through here lost, so nothing is counted twice.
    #[inline(always)]
    pub fn move_by(&mut self, i: usize, d: Vec3) {
        let (x, ex) = simd::two_sum(self.x[i], d.x);
        let (y, ey) = simd::two_sum(self.y[i], d.y);
        let (z, ez) = simd::two_sum(self.z[i], d.z);
        self.set_position(i, Vec3::new(x, y, z));
        self.ex[i] += ex;
        self.ey[i] += ey;
        self.ez[i] += ez;
    }

    /// Moves the particle and its substep-start position by `d`, without a
    /// velocity: both by the move its position actually made
    /// (`(x + d) - x`, exact), which the substep-start position takes
    /// exactly too when it is in the same binade. Moved by `d` each, the
    /// two roundings differed and `x - x'` changed by up to an ulp, a
    /// velocity of ulp / h: two crates pushed apart this way 1 km out at 32
    /// substeps ended with 2e-3 kg m/s of momentum.
    #[inline(always)]
    pub fn shift(&mut self, i: usize, d: Vec3) {
        let x = self.position(i);
        let moved = (x + d) - x;
        self.set_position(i, x + moved);
        self.set_previous(i, self.previous(i) + moved);
    }
}

/// A particle store's arrays as pointers: islands on different threads
/// borrow disjoint ranges of it.
#[derive(Clone, Copy)]
pub(crate) struct SharedParticles {
    arrays: [*mut f32; 13],
    len: usize,
}

// SAFETY: only disjoint ranges are borrowed through it at once (see `views`).
unsafe impl Send for SharedParticles {}
// SAFETY: as above.
unsafe impl Sync for SharedParticles {}

impl SharedParticles {
    /// Borrows the disjoint `ranges` into `out` (cleared first), for
    /// substeps of length `h`.
    ///
    /// # Safety
    /// The store outlives `'a` and is not moved or resized meanwhile; no
    /// other borrow of these ranges is alive during `'a`.
    pub(crate) unsafe fn views<'a>(
        self,
        ranges: &[Range<usize>],
        h: f32,
        order: &mut Vec<usize>,
        out: &mut Vec<ParticlesMut<'a>>,
    ) {
        check_disjoint(ranges, self.len, order);
        out.clear();
        let [x, y, z, px, py, pz, vx, vy, vz, w, ex, ey, ez] = self.arrays;
        for r in ranges {
            // SAFETY: the ranges are disjoint and within every array (checked
            // above); the caller's contract covers other borrows.
            unsafe {
                out.push(ParticlesMut {
                    x: slice_at(x, r),
                    y: slice_at(y, r),
                    z: slice_at(z, r),
                    px: slice_at(px, r),
                    py: slice_at(py, r),
                    pz: slice_at(pz, r),
                    vx: slice_at(vx, r),
                    vy: slice_at(vy, r),
                    vz: slice_at(vz, r),
                    inv_mass: slice_at(w, r),
                    ex: slice_at(ex, r),
                    ey: slice_at(ey, r),
                    ez: slice_at(ez, r),
                    h,
                    inv_h: 1.0 / h,
                });
            }
        }
    }
}

/// Panics unless `ranges` are disjoint and within `0..len` (a bug: bodies
/// own disjoint ranges). `order` is scratch.
pub(crate) fn check_disjoint(ranges: &[Range<usize>], len: usize, order: &mut Vec<usize>) {
    order.clear();
    order.extend(0..ranges.len());
    order.sort_unstable_by_key(|&k| ranges[k].start);
    let mut end = 0;
    for &k in order.iter() {
        let r = &ranges[k];
        assert!(r.start >= end && r.start <= r.end && r.end <= len, "overlapping or out-of-bounds ranges");
        end = r.end;
    }
}

/// `base[r]` as a slice.
///
/// # Safety
/// `r` within the allocation `base` points into, and no other live reference
/// to those elements for `'a`.
pub(crate) unsafe fn slice_at<'a, T>(base: *mut T, r: &Range<usize>) -> &'a mut [T] {
    // SAFETY: the caller's.
    unsafe { std::slice::from_raw_parts_mut(base.add(r.start), r.len()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_positions_are_the_stored_bits_at_every_simd_level() {
        let odd = [f32::from_bits(0x7fc0_1234), -0.0, f32::INFINITY, f32::MIN_POSITIVE / 2.0];
        let mut p = Particles::default();
        let points: Vec<Vec3> = (0..37)
            .map(|i| {
                let v = |k: usize| if (i + k).is_multiple_of(9) { odd[(i + k) % 4] } else { (i * 3 + k) as f32 * 0.37 };
                Vec3::new(v(0), v(1), v(2))
            })
            .collect();
        p.append(&points, |_| 1.0);
        let bits = |v: &[[f32; 3]]| v.iter().flatten().map(|f| f.to_bits()).collect::<Vec<_>>();
        let stored: Vec<u32> = (3..37).flat_map(|i| [p.x[i], p.y[i], p.z[i]]).map(f32::to_bits).collect();
        for level in SimdLevel::all_available() {
            let mut out = vec![[0.0; 3]; 34];
            Columns::of(&p, 3..37, Vec3::ZERO, level).interleave(&mut out);
            assert_eq!(bits(&out), stored, "{level:?}");
            let origin = Vec3::new(-4096.0, 16.0, 1024.0);
            Columns::of(&p, 3..37, origin, level).interleave(&mut out);
            let moved: Vec<u32> = (3..37)
                .flat_map(|i| [p.x[i] + origin.x, p.y[i] + origin.y, p.z[i] + origin.z])
                .map(f32::to_bits)
                .collect();
            assert_eq!(bits(&out), moved, "{level:?}, in a frame away from the origin");
        }
    }

    #[test]
    fn a_move_keeps_what_rounding_takes_from_it() {
        let mut p = Particles::default();
        let start = Vec3::new(1.2, -3000.0, 0.0);
        p.append(&[start], |_| 1.0);
        let mut v = p.view(0..LANES);
        // Moves far below the positions' ulps (1.2e-7 m, 2.4e-4 m), and a
        // move larger than the position (TwoSum needs no order).
        let d = Vec3::new(1.0e-5, 3.0e-9, 0.7);
        for _ in 0..7 {
            v.move_by(0, d);
        }
        let (x, e) = (v.position(0), Vec3::new(v.ex[0], v.ey[0], v.ez[0]));
        for k in 0..3 {
            let kept = f64::from(x[k]) + f64::from(e[k]);
            let exact = f64::from(start[k]) + 7.0 * f64::from(d[k]);
            assert!((kept - exact).abs() <= 1e-12 * exact.abs().max(1.0), "{k}: {kept} against {exact}");
        }
        assert_eq!(v.y[0], -3000.0, "the position keeps its own rounding");
        assert_eq!(v.ex[1..], [0.0; LANES - 1], "only the moved particle");
    }
}
