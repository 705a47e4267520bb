//! Friction (Jakobsen, "Handling friction"): after the relaxation passes of a
//! substep, a particle that was pushed out of a collider has its tangential
//! motion reduced in proportion to the penetration removed, by moving `x_prev`
//! (not `x`); the motion is never reversed, only stopped.
//!
//! With `d` the depth pushed out this substep (gravity alone gives `g h^2` for
//! a resting particle) the tangential displacement shrinks by `mu * d`, i.e. the
//! velocity by `mu * g * h` per substep: Coulomb's deceleration `mu * g`.

use crate::particles::ParticlesMut;
use glam::Vec3;

/// Per-particle contact memory of one substep, for the whole world (SoA).
#[derive(Default, Debug, Clone)]
pub struct Contacts {
    pub depth: Vec<f32>,
    pub nx: Vec<f32>,
    pub ny: Vec<f32>,
    pub nz: Vec<f32>,
    pub friction: Vec<f32>,
}

/// A body's range of [`Contacts`].
pub struct ContactsMut<'a> {
    pub depth: &'a mut [f32],
    pub nx: &'a mut [f32],
    pub ny: &'a mut [f32],
    pub nz: &'a mut [f32],
    pub friction: &'a mut [f32],
}

impl Contacts {
    pub fn resize(&mut self, n: usize) {
        for v in [&mut self.depth, &mut self.nx, &mut self.ny, &mut self.nz, &mut self.friction] {
            v.resize(n, 0.0);
        }
    }

    /// Borrows several disjoint ranges at once, in the order given.
    pub fn views(&mut self, ranges: &[std::ops::Range<usize>]) -> Vec<ContactsMut<'_>> {
        use crate::particles::split_disjoint;
        let mut depth = split_disjoint(&mut self.depth, ranges).into_iter();
        let mut nx = split_disjoint(&mut self.nx, ranges).into_iter();
        let mut ny = split_disjoint(&mut self.ny, ranges).into_iter();
        let mut nz = split_disjoint(&mut self.nz, ranges).into_iter();
        let mut friction = split_disjoint(&mut self.friction, ranges).into_iter();
        (0..ranges.len())
            .map(|_| ContactsMut {
                depth: depth.next().expect("one per range"),
                nx: nx.next().expect("one per range"),
                ny: ny.next().expect("one per range"),
                nz: nz.next().expect("one per range"),
                friction: friction.next().expect("one per range"),
            })
            .collect()
    }
}

impl ContactsMut<'_> {
    pub fn clear(&mut self) {
        self.depth.fill(0.0);
    }

    /// Adds a push-out; the last contact's normal and friction win.
    #[inline(always)]
    pub fn record(&mut self, i: usize, normal: Vec3, depth: f32, friction: f32) {
        self.depth[i] += depth;
        self.nx[i] = normal.x;
        self.ny[i] = normal.y;
        self.nz[i] = normal.z;
        self.friction[i] = friction;
    }
}

/// What friction takes off a displacement `moved` pressed `depth` into a
/// surface of normal `n`: its tangential part, shortened by `mu * depth` at
/// most (stopped, never reversed).
#[inline(always)]
pub(crate) fn tangential_cut(moved: Vec3, n: Vec3, mu: f32, depth: f32) -> Vec3 {
    let tangential = moved - n * n.dot(moved);
    let len = tangential.length();
    let limit = mu * depth;
    let keep = if len <= limit { 0.0 } else { 1.0 - limit / len };
    tangential * (1.0 - keep)
}

/// The friction stage of a substep.
pub fn apply(p: &mut ParticlesMut, c: &ContactsMut) {
    for i in 0..p.len() {
        let depth = c.depth[i];
        if depth <= 0.0 {
            continue;
        }
        let n = Vec3::new(c.nx[i], c.ny[i], c.nz[i]);
        let moved = p.position(i) - p.previous(i);
        p.set_previous(i, p.previous(i) + tangential_cut(moved, n, c.friction[i], depth));
    }
}
