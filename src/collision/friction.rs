//! Friction (Jakobsen, "Handling friction"): a particle pushed out of a
//! collider has its tangential motion reduced in proportion to the
//! penetration removed; the motion is never reversed, only stopped. The cut
//! is taken at each push, off the substep's displacement (`x`), inside the
//! relaxation passes (Macklin et al. 2014, position-level friction), so a
//! particle held by static friction does not creep and later passes
//! reconcile the cut with the constraints.
//!
//! With `d` the depth pushed out this substep (gravity alone gives `g h^2` for
//! a resting particle) the tangential displacement shrinks by `mu * d`, i.e. the
//! velocity by `mu * g * h` per substep: Coulomb's deceleration `mu * g`.
//! Static and dynamic coefficients differ as in Macklin et al. 2014 ("Unified
//! particle physics"): motion within `mu_s * d` stops, more slides with
//! `mu_d`. The motion is measured relative to the collider's surface, so a
//! moving platform carries what rests on it. Restitution, when asked for,
//! gives back a fraction of the approach speed along the normal.

use super::{Material, Prepared};
use crate::particles::ParticlesMut;
use glam::Vec3;

/// Below this approach speed (m/s) a contact does not bounce: a resting
/// particle meets the ground at about `g h` every substep, and giving that
/// back would make it jitter (Box2D's restitution threshold, lower since
/// sinew's substeps are short).
pub const RESTITUTION_THRESHOLD: f32 = 0.5;

/// Fastest a contact leaves what it pushed out moving away along its normal,
/// m/s (beyond a bounce restitution asks for). A push-out removes the
/// penetration where it is found, and a leapfrog step turns every move into
/// velocity: a body spawned half inside another, or left deep in the ground
/// by one long frame and then stepped at short substeps, would leave at
/// depth / h. As Box2D v3 caps it (`b2WorldDef::contactPushMaxVelocity`, 3
/// m/s there) and Jolt bounds it (`mMaxPenetrationDistance`), what the push
/// adds beyond this speed is taken back in the velocity stage: the position
/// is fixed, the speed is not the fix's.
pub(crate) const MAX_PUSH_SPEED: f32 = 1.0;

/// How much of a normal displacement `normal_moved` (m over the substep `h`,
/// positive leaving the surface) is beyond [`MAX_PUSH_SPEED`] or, when
/// restitution asks for a bounce, beyond the bounce's `bounce` (m): what the
/// velocity stage takes back. 0 when within.
#[inline(always)]
pub(crate) fn push_excess(normal_moved: f32, bounce: f32, h: f32) -> f32 {
    (normal_moved - (MAX_PUSH_SPEED * h).max(bounce)).max(0.0)
}

/// A penetration `inside` met in a pass, of which `lodged` was there when
/// the substep began: `(fresh, fixed, keep)`, the push-out of what the
/// substep's approach made, the lodged part's fix this pass (at most `fix`,
/// `MAX_PUSH_SPEED h`, of it a substep: the position fix spread over
/// substeps, as Box2D v3's soft contacts spread it), and the penetration
/// left in.
#[inline(always)]
pub(crate) fn split_push(inside: f32, lodged: f32, fix: f32) -> (f32, f32, f32) {
    let keep = (lodged - fix).max(0.0);
    let fixed = (inside.min(lodged) - keep).max(0.0);
    let fresh = (inside - lodged).max(0.0);
    (fresh, fixed, keep)
}

/// Per-particle contact memory, for the whole world (SoA): what the current
/// substep pushed, and what the step as a whole touched (the readback).
#[derive(Default, Debug, Clone)]
pub struct Contacts {
    /// Push-out summed over the substep's passes.
    pub depth: Vec<f32>,
    pub nx: Vec<f32>,
    pub ny: Vec<f32>,
    pub nz: Vec<f32>,
    /// Index into `Prepared::sources` of the last collider that pushed.
    pub source: Vec<u32>,
    /// Most negative normal speed (m/s) met at a push this substep.
    pub approach: Vec<f32>,
    /// Deepest substep push of the step (0: no contact this step).
    pub step_depth: Vec<f32>,
    /// Fastest approach (m/s, >= 0) of the step.
    pub step_speed: Vec<f32>,
}

/// A body's range of [`Contacts`].
pub struct ContactsMut<'a> {
    pub depth: &'a mut [f32],
    pub nx: &'a mut [f32],
    pub ny: &'a mut [f32],
    pub nz: &'a mut [f32],
    pub source: &'a mut [u32],
    pub approach: &'a mut [f32],
    pub step_depth: &'a mut [f32],
    pub step_speed: &'a mut [f32],
}

impl Contacts {
    /// The float columns.
    fn floats(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.depth,
            &mut self.nx,
            &mut self.ny,
            &mut self.nz,
            &mut self.approach,
            &mut self.step_depth,
            &mut self.step_speed,
        ]
    }

    pub fn resize(&mut self, n: usize) {
        self.floats().into_iter().for_each(|v| v.resize(n, 0.0));
        self.source.resize(n, 0);
    }

    /// Forgets a removed range (a destroyed body): later bodies move down.
    /// The arrays may be shorter than the store (a body made since the
    /// last step): then there is nothing of it to forget.
    pub fn remove(&mut self, range: std::ops::Range<usize>) {
        if range.end > self.source.len() {
            return;
        }
        self.floats().into_iter().for_each(|v| {
            v.drain(range.clone());
        });
        self.source.drain(range);
    }

    /// The arrays as pointers, for islands stepped on several threads.
    pub(crate) fn shared(&mut self) -> SharedContacts {
        let n = self.depth.len();
        let lens = [self.nx.len(), self.ny.len(), self.nz.len(), self.source.len(), self.approach.len()];
        assert!(lens.iter().chain(&[self.step_depth.len(), self.step_speed.len()]).all(|&l| l == n));
        SharedContacts {
            floats: [
                self.depth.as_mut_ptr(),
                self.nx.as_mut_ptr(),
                self.ny.as_mut_ptr(),
                self.nz.as_mut_ptr(),
                self.approach.as_mut_ptr(),
                self.step_depth.as_mut_ptr(),
                self.step_speed.as_mut_ptr(),
            ],
            source: self.source.as_mut_ptr(),
            len: n,
        }
    }
}

/// The contact arrays as pointers: islands on different threads borrow
/// disjoint ranges of them.
#[derive(Clone, Copy)]
pub(crate) struct SharedContacts {
    floats: [*mut f32; 7],
    source: *mut u32,
    len: usize,
}

// SAFETY: only disjoint ranges are borrowed through it at once (see `views`).
unsafe impl Send for SharedContacts {}
// SAFETY: as above.
unsafe impl Sync for SharedContacts {}

impl SharedContacts {
    /// Borrows the disjoint `ranges` into `out` (cleared first).
    ///
    /// # Safety
    /// As `SharedParticles::views`.
    pub(crate) unsafe fn views<'a>(
        self,
        ranges: &[std::ops::Range<usize>],
        order: &mut Vec<usize>,
        out: &mut Vec<ContactsMut<'a>>,
    ) {
        use crate::particles::{check_disjoint, slice_at};
        check_disjoint(ranges, self.len, order);
        out.clear();
        let [depth, nx, ny, nz, approach, step_depth, step_speed] = self.floats;
        for r in ranges {
            // SAFETY: the ranges are disjoint and within every array (checked
            // above); the caller's contract covers other borrows.
            unsafe {
                out.push(ContactsMut {
                    depth: slice_at(depth, r),
                    nx: slice_at(nx, r),
                    ny: slice_at(ny, r),
                    nz: slice_at(nz, r),
                    source: slice_at(self.source, r),
                    approach: slice_at(approach, r),
                    step_depth: slice_at(step_depth, r),
                    step_speed: slice_at(step_speed, r),
                });
            }
        }
    }
}

impl ContactsMut<'_> {
    /// Forgets the last substep's pushes.
    pub fn clear(&mut self) {
        self.depth.fill(0.0);
        self.approach.fill(0.0);
    }

    /// Forgets the last step's record (at the start of a step, and when a
    /// body falls asleep: a sleeping body reports no contacts).
    pub fn clear_step(&mut self) {
        self.step_depth.fill(0.0);
        self.step_speed.fill(0.0);
    }

    /// Adds a push-out; the last contact's normal and collider win.
    #[inline(always)]
    pub fn record(&mut self, i: usize, normal: Vec3, depth: f32, source: u32, approach: f32) {
        self.depth[i] += depth;
        self.nx[i] = normal.x;
        self.ny[i] = normal.y;
        self.nz[i] = normal.z;
        self.source[i] = source;
        self.approach[i] = self.approach[i].min(approach);
    }

    #[inline(always)]
    pub fn normal(&self, i: usize) -> Vec3 {
        Vec3::new(self.nx[i], self.ny[i], self.nz[i])
    }
}

/// What friction takes off a displacement `moved` pressed `depth` into a
/// surface of normal `n`: all of its tangential part when that is within
/// `mu_static * depth` (sticking), else `mu_dynamic * depth` of it
/// (sliding); never more than there is (stopped, never reversed).
#[inline(always)]
pub(crate) fn tangential_cut(moved: Vec3, n: Vec3, mu_static: f32, mu_dynamic: f32, depth: f32) -> Vec3 {
    let tangential = moved - n * n.dot(moved);
    let len = tangential.length();
    if len <= mu_static * depth {
        return tangential;
    }
    let limit = mu_dynamic * depth;
    let keep = if len <= limit { 0.0 } else { 1.0 - limit / len };
    tangential * (1.0 - keep)
}

/// A bounce (Newton's restitution, taken at the moment of contact): a
/// contact of approach speed `approach` (m/s, the substep's mean along the
/// normal, < 0 when closing) that went `depth` beyond the surface this
/// substep, under an acceleration `a_n` along the normal (m/s^2, < 0 into the
/// surface), with restitution `e` and current normal displacement
/// `normal_moved` over the substep `h`: `(push, lift)`, the displacement
/// (velocity times `h`) to add and how far out of the surface to place it.
/// `None` below the threshold, or when it already leaves faster.
///
/// It met the surface `tau = depth / -approach` before the substep's end
/// and left then at `e` times its speed: by the end it is `e depth - (1 +
/// e) g tau^2 / 2` out (`g = -a_n`), with a mean velocity over the substep
/// of `-e approach - (1 + e) g (tau - h / 2)`, which the leapfrog step
/// continues along the rebound's parabola. Left on the surface with `-e
/// approach` it lost `g depth` of energy a bounce and gained or lost up to
/// `g h / 2` of speed: an elastic ball lost 3.3 % of its height a bounce at
/// one substep (issue 27).
#[inline(always)]
pub(crate) fn bounce(approach: f32, e: f32, depth: f32, a_n: f32, normal_moved: f32, h: f32) -> Option<(f32, f32)> {
    if e <= 0.0 || approach > -RESTITUTION_THRESHOLD {
        return None;
    }
    let g = -a_n;
    let fresh = depth.min(-approach * h).max(0.0);
    let tau = fresh / -approach;
    let wanted = (-e * approach - (1.0 + e) * g * (tau - 0.5 * h)) * h;
    let lift = (e * fresh - (1.0 + e) * g * tau * tau * 0.5).max(0.0);
    (wanted > normal_moved).then_some((wanted - normal_moved, lift))
}

/// The end of a substep's contacts: restitution gives a touching particle
/// its bounce (in its velocity), what the push-out gave beyond
/// [`MAX_PUSH_SPEED`] is taken back, and the step's record is kept. Friction
/// was taken at each push inside the passes, unless `friction` asks for it
/// here: then the substep's tangential motion is cut by `mu * depth`
/// (Jakobsen's form, on the velocity; ragdolls).
pub fn finish(
    p: &mut ParticlesMut,
    c: &mut ContactsMut,
    prepared: &Prepared,
    body: Option<&Material>,
    gravity: Vec3,
    h: f32,
    friction: bool,
) {
    for i in 0..p.len() {
        let depth = c.depth[i];
        if depth <= 0.0 {
            continue;
        }
        let source = &prepared.sources[c.source[i] as usize];
        let approach = c.approach[i];
        let (mu_s, mu_d, e) = source.material.against(body);
        let n = c.normal(i);
        let x = p.position(i);
        let surface = if source.moves() { source.surface_displacement(x, h) } else { Vec3::ZERO };
        let moved = p.displacement(i) - surface;
        let mut change = Vec3::ZERO;
        if friction {
            change -= tangential_cut(moved, n, mu_s, mu_d, depth);
        }
        let wanted = bounce(approach, e, depth, n.dot(gravity), n.dot(moved), h);
        if let Some((push, lift)) = wanted {
            change += n * push;
            p.set_position(i, x + n * lift);
        }
        let bounced = wanted.map_or(0.0, |(push, _)| n.dot(moved) + push);
        let excess = push_excess(n.dot(moved + change), bounced, h);
        change -= n * excess;
        if change != Vec3::ZERO {
            p.add_displacement(i, change);
        }
        c.step_depth[i] = c.step_depth[i].max(depth);
        c.step_speed[i] = c.step_speed[i].max(-approach);
    }
}
