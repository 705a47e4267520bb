//! Triangle colliders in the world: a triangle mesh (with its BVH, built once
//! at creation in the mesh's own frame) or a heightfield, placed by a frame.
//!
//! The shapes stay in their local frame; particles are brought into it. The
//! broad phase lists, once per step, the triangles each particle (and each
//! stick) may reach in the step; a relaxation pass then tests a particle
//! against its own few triangles only. A triangle has no inside, so a
//! particle's side comes from where it started the substep, in the frame the
//! collider had then (`triangle::point_contact`): a particle that crossed a
//! triangle during the substep is put back, which is what stops tunnelling.

use super::heightfield::Heightfield;
use super::triangle;
use super::trimesh::TriMesh;
use glam::{Mat3, Quat, Vec3};
use std::sync::Arc;

/// The least contact radius against triangles (m): a particle of radius 0
/// that lands exactly on a triangle's plane on its way through could not
/// tell, next substep, which side it came from; with this skin it rests 1 mm
/// off the side it came from, beyond `triangle::point_contact`'s side bias.
const SKIN: f32 = 1e-3;

/// The triangles of a mesh or a heightfield, in their local frame.
#[derive(Debug, Clone)]
pub enum Triangles {
    Mesh(Arc<TriMesh>),
    Field(Arc<Heightfield>),
}

impl Triangles {
    #[inline(always)]
    pub fn triangle(&self, k: u32) -> [Vec3; 3] {
        match self {
            Triangles::Mesh(m) => m.triangle(k),
            Triangles::Field(f) => f.triangle(k),
        }
    }

    /// Triangle `k`'s unit normal (`t` its corners).
    #[inline(always)]
    pub fn normal(&self, k: u32, t: &[Vec3; 3]) -> Vec3 {
        match self {
            Triangles::Mesh(m) => m.normal(k),
            Triangles::Field(_) => triangle::normal(t),
        }
    }

    /// Heightfields are solid below: one-sided.
    pub fn one_sided(&self) -> bool {
        matches!(self, Triangles::Field(_))
    }

    /// Appends the triangles a local box may touch. A heightfield is solid
    /// to any depth, so a box under its surface still finds the triangles
    /// above it.
    pub fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        match self {
            Triangles::Mesh(m) => m.query(lo, hi, out),
            Triangles::Field(f) => f.query(lo, hi.with_y(f32::MAX), out),
        }
    }

    /// The local box around the triangles (a heightfield's solid below is
    /// not in it: see [`Soup::world_bounds`]).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        match self {
            Triangles::Mesh(m) => m.bounds(),
            Triangles::Field(f) => f.bounds(),
        }
    }

    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<(f32, u32, Vec3)> {
        match self {
            Triangles::Mesh(m) => m.raycast(origin, dir, max_t),
            Triangles::Field(f) => f.raycast(origin, dir, max_t),
        }
    }
}

/// A placed mesh or heightfield for one substep.
#[derive(Debug, Clone)]
pub struct Soup {
    pub triangles: Triangles,
    /// The frame during the substep.
    pub position: Vec3,
    pub rotation: Mat3,
    /// Its inverse (world to local).
    pub inverse: Mat3,
    /// The frame at the start of the substep (where particles' starting
    /// points are read).
    pub start_position: Vec3,
    pub start_inverse: Mat3,
    pub source: u32,
}

impl Soup {
    pub fn new(triangles: Triangles, position: Vec3, rotation: Quat, start: (Vec3, Quat), source: u32) -> Self {
        let r = Mat3::from_quat(rotation);
        Soup {
            triangles,
            position,
            rotation: r,
            inverse: r.transpose(),
            start_position: start.0,
            start_inverse: Mat3::from_quat(start.1).transpose(),
            source,
        }
    }

    #[inline(always)]
    pub fn to_local(&self, x: Vec3) -> Vec3 {
        self.inverse * (x - self.position)
    }

    #[inline(always)]
    pub fn start_to_local(&self, x: Vec3) -> Vec3 {
        self.start_inverse * (x - self.start_position)
    }

    /// The local box around a world box, in the frame during the substep.
    pub fn local_box(&self, lo: Vec3, hi: Vec3) -> (Vec3, Vec3) {
        let (c, e) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let m = self.inverse;
        let extent = Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs()) * e;
        let lc = self.to_local(c);
        (lc - extent, lc + extent)
    }

    /// The world box around the shape; a heightfield's reaches to infinity
    /// on the side its solid extends to (its local -Y, turned).
    pub fn world_bounds(&self) -> (Vec3, Vec3) {
        let (lo, hi) = self.triangles.bounds();
        let (c, e) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let m = self.rotation;
        let extent = Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs()) * e;
        let wc = self.position + m * c;
        let (mut lo, mut hi) = (wc - extent, wc + extent);
        if self.triangles.one_sided() {
            let down = -m.y_axis;
            for i in 0..3 {
                if down[i] < -1e-6 {
                    lo[i] = f32::NEG_INFINITY;
                } else if down[i] > 1e-6 {
                    hi[i] = f32::INFINITY;
                }
            }
        }
        (lo, hi)
    }

    /// The contact of a particle of radius `r` now at `x`, which started the
    /// substep at `start`, with triangle `k`: world push direction and depth.
    #[inline(always)]
    pub fn point_contact(&self, k: u32, x: Vec3, start: Vec3, r: f32) -> Option<(Vec3, f32)> {
        self.local_point_contact(k, self.to_local(x), self.start_to_local(start), r)
            .map(|(n, d)| (self.rotation * n, d))
    }

    /// [`Soup::point_contact`] in the local frame (`x` from `to_local`,
    /// `start` from `start_to_local`), for a particle tested against several
    /// triangles: the push direction is local too.
    #[inline(always)]
    pub fn local_point_contact(&self, k: u32, x: Vec3, start: Vec3, r: f32) -> Option<(Vec3, f32)> {
        let t = self.triangles.triangle(k);
        let n = self.triangles.normal(k, &t);
        triangle::point_contact_with_normal(x, start, r.max(SKIN), &t, n, self.triangles.one_sided())
    }

    /// The contact of a stick with triangle `k` (see
    /// `triangle::segment_contact`), direction in world space.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn segment_contact(&self, k: u32, a: Vec3, b: Vec3, a0: Vec3, b0: Vec3, r: f32) -> Option<(f32, Vec3, f32)> {
        let t = self.triangles.triangle(k);
        let (la, lb) = (self.to_local(a), self.to_local(b));
        let (la0, lb0) = (self.start_to_local(a0), self.start_to_local(b0));
        triangle::segment_contact(la, lb, la0, lb0, r.max(SKIN), &t, self.triangles.one_sided())
            .map(|(s, n, d)| (s, self.rotation * n, d))
    }

    /// A world ray against the triangles: `(t, world normal facing the ray)`.
    pub fn raycast(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Option<(f32, Vec3)> {
        let (t, _, n) = self.triangles.raycast(self.to_local(origin), self.inverse * dir, max_t)?;
        Some((t, self.rotation * n))
    }
}

/// Per body and per nearby triangle collider: the triangles each particle
/// (and each collision stick) may reach this step, as ranges into one list.
#[derive(Debug, Clone, Default)]
pub struct SoupCandidates {
    /// Index into `Prepared::soups`.
    pub soup: u32,
    /// Particle `i`'s triangles are `tris[start[i]..start[i + 1]]`.
    pub start: Vec<u32>,
    pub tris: Vec<u32>,
    /// Stick `j`'s triangles are `stick_tris[stick_start[j]..stick_start[j + 1]]`.
    pub stick_start: Vec<u32>,
    pub stick_tris: Vec<u32>,
    /// Every triangle the body's bounds may reach (for points that are not
    /// particles: a rigid body's collision spheres; empty for other bodies).
    pub all: Vec<u32>,
}

impl SoupCandidates {
    #[inline(always)]
    pub fn of_particle(&self, i: usize) -> &[u32] {
        &self.tris[self.start[i] as usize..self.start[i + 1] as usize]
    }

    #[inline(always)]
    pub fn of_stick(&self, j: usize) -> &[u32] {
        &self.stick_tris[self.stick_start[j] as usize..self.stick_start[j + 1] as usize]
    }
}
