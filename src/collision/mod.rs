//! Collisions by projection (Jakobsen, "Collision and contact handling by
//! projection"): an offending particle is moved the shortest way out of the
//! collider, inside the relaxation loop, so contacts and constraints are
//! satisfied together; the Verlet scheme turns the move into the velocity
//! (restitution, when a material asks for it, is given back after the
//! passes). Each push also takes its friction (`friction`), and is
//! remembered per particle for the contact readback (`readback`).
//!
//! Colliders are kept as (shape in a local frame, transform). Once per step
//! (once per substep for colliders the engine moved: they go from their last
//! frame to their new one across the substeps) each is prepared in world
//! space, and a broad phase lists, per body, the colliders its swept bounds
//! may reach, and for triangle meshes and heightfields (kept in their own
//! frame, the mesh's BVH built once at creation) the triangles each particle
//! and each collision stick may reach. The narrow phase of each relaxation
//! pass walks only those candidates, one shape kind at a time (no branching
//! on kind in the loop); a particle or stick that moved farther than its
//! radius is first swept from where the substep started (anti-tunnelling).
//! Collision sticks (`stick`) are capsules between two particles, pushed with
//! Jakobsen's barycentric weights.

pub mod bodies;
pub mod bvh;
pub mod capsule;
pub mod convex;
pub mod cuboid;
pub mod friction;
pub mod heightfield;
pub mod hull;
pub mod material;
pub mod near;
pub mod plane;
pub mod ray;
pub mod readback;
pub mod segment;
pub mod soup;
pub mod sphere;
pub mod stick;
#[cfg(test)]
mod test_rng;
pub mod triangle;
pub mod trimesh;

use crate::error::{Error, Result, finite, finite_vec, positive, unit_rotation};
use crate::particles::ParticlesMut;
use crate::pool::ColliderId;
use friction::ContactsMut;
use glam::{Quat, Vec3};
pub use material::{Combine, Material};
use soup::{Soup, SoupCandidates, Triangles};
use std::sync::Arc;
pub use stick::CollisionStick;

/// A collider's shape in its local frame.
#[derive(Debug, Clone, PartialEq)]
pub enum ColliderShape {
    /// The solid half-space `dot(normal, x) < offset` (normal of unit length).
    Plane {
        /// Outward unit normal.
        normal: Vec3,
        /// Signed distance of the surface from the frame's origin along the normal.
        offset: f32,
    },
    /// A ball centred on the frame's origin.
    Sphere {
        /// Radius in metres.
        radius: f32,
    },
    /// A box centred on the frame's origin, aligned with its axes.
    Box {
        /// Half the box's size along each local axis.
        half_extents: Vec3,
    },
    /// A capsule around the segment `a`-`b` of the local frame.
    Capsule {
        /// Segment end.
        a: Vec3,
        /// Segment end.
        b: Vec3,
        /// Radius in metres.
        radius: f32,
    },
    /// The convex hull of a point set (at most 256 points).
    Convex(Arc<shapes::ConvexShape>),
    /// A triangle mesh (two-sided triangles), with its BVH built once.
    Mesh(Arc<shapes::TriMesh>),
    /// A heightfield, solid below its surface.
    Heightfield(Arc<shapes::Heightfield>),
    /// Several shapes in one collider, each placed in its frame (no nested
    /// compounds); they share the collider's material and filter.
    Compound(Arc<[CompoundChild]>),
}

/// A part of a compound collider.
#[derive(Debug, Clone, PartialEq)]
pub struct CompoundChild {
    /// The part's shape (not a compound).
    pub shape: ColliderShape,
    /// Where its frame is in the compound's frame.
    pub position: Vec3,
    /// Its rotation in the compound's frame.
    pub rotation: Quat,
}

/// The shared shape data of meshes and heightfields (opaque to users: built
/// by [`ColliderShape::mesh`] and [`ColliderShape::heightfield`]).
pub mod shapes {
    pub use super::heightfield::Heightfield;
    pub use super::hull::ConvexShape;
    pub use super::trimesh::TriMesh;
}

impl ColliderShape {
    /// The convex hull of 4 to 256 points (local frame), not all in a plane.
    pub fn convex(points: &[Vec3]) -> crate::Result<ColliderShape> {
        Ok(ColliderShape::Convex(Arc::new(hull::ConvexShape::new(points)?)))
    }

    /// Several shapes in one collider. Checked when the collider is created.
    pub fn compound(children: Vec<CompoundChild>) -> ColliderShape {
        ColliderShape::Compound(children.into())
    }

    /// A triangle mesh from vertices (local frame) and three indices per
    /// triangle; degenerate triangles are dropped, a BVH is built.
    pub fn mesh(vertices: &[Vec3], indices: &[u32]) -> crate::Result<ColliderShape> {
        Ok(ColliderShape::Mesh(Arc::new(trimesh::TriMesh::new(vertices, indices)?)))
    }

    /// A heightfield of `columns` x `rows` heights (row-major): vertex
    /// (c, r) at `(c * cell_x, heights[r * columns + c], r * cell_z)` of the
    /// local frame, solid below.
    pub fn heightfield(
        columns: u32,
        rows: u32,
        cell_x: f32,
        cell_z: f32,
        heights: &[f32],
    ) -> crate::Result<ColliderShape> {
        Ok(ColliderShape::Heightfield(Arc::new(heightfield::Heightfield::new(columns, rows, cell_x, cell_z, heights)?)))
    }
}

/// Every collision layer: the default mask.
pub const ALL_LAYERS: u32 = u32::MAX;
/// The layer a body or collider is on unless told otherwise.
pub const DEFAULT_LAYER: u32 = 1;

/// Which layers a body or collider is on, and which layers it collides with:
/// a body and a collider meet when each one's mask holds a layer of the
/// other (Box2D's category/mask rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filter {
    /// Layer bits this object is on.
    pub layer: u32,
    /// Layer bits this object collides with.
    pub mask: u32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { layer: DEFAULT_LAYER, mask: ALL_LAYERS }
    }
}

impl Filter {
    /// Whether two objects collide.
    #[inline(always)]
    pub fn meets(&self, other: &Filter) -> bool {
        self.layer & other.mask != 0 && other.layer & self.mask != 0
    }
}

/// A static or engine-moved collider.
#[derive(Debug, Clone, PartialEq)]
pub struct Collider {
    pub shape: ColliderShape,
    /// Where the frame is, relative to `origin`.
    pub position: Vec3,
    pub rotation: Quat,
    /// The frame at the end of the last step (relative to `origin`): a step
    /// moves the collider from there to `position`/`rotation`, across its
    /// substeps.
    pub prev_position: Vec3,
    /// The point (on the body grid, `body::ORIGIN_GRID`, so exact in `f32`)
    /// its positions are kept relative to: 0 for a collider placed in world
    /// `f32`, the grid point nearest to it for one placed in `f64` (the
    /// `_d` calls), so that one 10 km out is exact to its own size, not to
    /// the 1 mm of a world `f32`, and meets a body in the body's frame with
    /// nothing rounded at world scale (see `prepare`).
    pub origin: Vec3,
    pub prev_rotation: Quat,
    pub material: Material,
    pub filter: Filter,
}

/// What a contact needs to know of the collider it touched: its id (for the
/// contact readback), material, filter, and how its surface moves.
#[derive(Debug, Clone, Copy)]
pub struct Source {
    pub id: ColliderId,
    pub material: Material,
    pub filter: Filter,
    /// The frame's origin at the end of the step.
    pub center: Vec3,
    /// Velocity of the frame's origin over the step (m/s).
    pub velocity: Vec3,
    /// Angular velocity over the step (rad/s).
    pub angular: Vec3,
}

impl Source {
    /// How far the surface point at `x` moves in `h` seconds.
    #[inline(always)]
    pub fn surface_displacement(&self, x: Vec3, h: f32) -> Vec3 {
        (self.velocity + self.angular.cross(x - self.center)) * h
    }

    #[inline(always)]
    pub fn moves(&self) -> bool {
        self.velocity != Vec3::ZERO || self.angular != Vec3::ZERO
    }
}

/// What every prepared (world-space) shape provides.
pub trait Shape {
    /// May a particle inside the box `lo..hi` touch the shape?
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool;
    /// For a point with radius `r`: the outward normal and the penetration
    /// depth (> 0) when the point is inside, `None` otherwise.
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)>;
    /// A point of radius `r` moving from `origin` by `dir` (t in [0, 1]):
    /// where it first touches the shape, `(t, outward normal)`; `None` when
    /// it misses or starts inside (anti-tunnelling: a fast particle is swept
    /// from where it started the substep, Jakobsen's line test).
    fn sweep(&self, origin: Vec3, dir: Vec3, r: f32) -> Option<(f32, Vec3)>;
    /// Signed distance of a point from the surface (negative inside): a
    /// convex function, minimised along a stick to find where it is nearest.
    fn distance(&self, p: Vec3) -> f32;
    /// Index of the collider in [`Prepared::sources`].
    fn source(&self) -> u32;
    /// What the shape lies within, for a cheap first test of many
    /// particles (see `near`).
    fn bound(&self) -> near::Bound {
        near::Bound::Everywhere
    }
    /// The tightest bound the first test of many particles against the
    /// shape may take (`bound` unless the shape says better).
    fn near_bound(&self) -> near::Bound {
        self.bound()
    }
}

impl Collider {
    /// A collider that has not moved, with a single Coulomb coefficient.
    pub fn new(shape: ColliderShape, position: Vec3, rotation: Quat, material: Material, filter: Filter) -> Self {
        let origin = Vec3::ZERO;
        Collider {
            shape,
            position,
            rotation,
            prev_position: position,
            prev_rotation: rotation,
            material,
            filter,
            origin,
        }
    }

    /// The frame's position in world space (rounded once to `f32`).
    pub fn world_position(&self) -> Vec3 {
        if self.origin == Vec3::ZERO { self.position } else { self.origin + self.position }
    }

    /// The frame's position in world space, exact.
    pub fn world_position_f64(&self) -> glam::DVec3 {
        self.origin.as_dvec3() + self.position.as_dvec3()
    }

    /// This collider alone in world space, where it is now (for tests and
    /// wake checks outside the step).
    pub fn prepared(&self) -> Prepared {
        self.prepared_at(Vec3::ZERO)
    }

    /// [`Collider::prepared`] in the frame at `offset` from the world's (a
    /// grid point, for the queries in `f64`: see `prepare`).
    pub fn prepared_at(&self, offset: Vec3) -> Prepared {
        let mut one = Prepared::default();
        self.prepare(ColliderId::default(), 1.0, 1.0, 1.0, offset, true, &mut one);
        one
    }

    /// Whether the last `set_transform` moved it since the last step.
    pub fn moved(&self) -> bool {
        self.position != self.prev_position || self.rotation != self.prev_rotation
    }

    /// Adds this collider to the lists of the step, in the frame at
    /// `offset` from the world's (a body's, see `Body::origin`), at the
    /// fraction `frac` of the way from its previous frame to its current one
    /// (`dt` is the step's length, for its velocity); its shapes only when
    /// `shapes`, its source always (so sources keep their indices).
    #[allow(clippy::too_many_arguments)]
    fn prepare(
        &self,
        id: ColliderId,
        frac: f32,
        start_frac: f32,
        dt: f32,
        offset: Vec3,
        shapes: bool,
        out: &mut Prepared,
    ) {
        let (pos, rot) = self.frame_at(frac);
        // Grid points are exact and so is their difference: a collider kept
        // relative to one meets a body's frame with one rounding, at the
        // scale of its distance from the body (the world-`f32` path, origin
        // 0, keeps its bits: `pos - offset`).
        let shift = if self.origin == Vec3::ZERO { -offset } else { self.origin - offset };
        let pos = if self.origin == Vec3::ZERO { pos - offset } else { pos + shift };
        let turn = self.rotation * self.prev_rotation.inverse();
        let (axis, angle) = turn.to_axis_angle();
        let angle = if angle > std::f32::consts::PI { angle - std::f32::consts::TAU } else { angle };
        let source = out.sources.len() as u32;
        out.sources.push(Source {
            id,
            material: self.material,
            filter: self.filter,
            center: pos,
            velocity: (self.position - self.prev_position) / dt,
            angular: if angle != 0.0 { axis * (angle / dt) } else { Vec3::ZERO },
        });
        if shapes {
            let (start, start_rot) = self.frame_at(start_frac);
            let start = if self.origin == Vec3::ZERO { start - offset } else { start + shift };
            prepare_shape(&self.shape, (pos, rot), (start, start_rot), source, out);
        }
    }

    /// The frame at the fraction `frac` of the way from the previous frame
    /// to the current one.
    fn frame_at(&self, frac: f32) -> (Vec3, Quat) {
        if frac >= 1.0 {
            (self.position, self.rotation)
        } else {
            (self.prev_position.lerp(self.position, frac), self.prev_rotation.slerp(self.rotation, frac))
        }
    }
}

/// Adds a shape, in world space at `frame` (and `start`, its frame when the
/// substep began), to the step's lists.
fn prepare_shape(shape: &ColliderShape, frame: (Vec3, Quat), start: (Vec3, Quat), source: u32, out: &mut Prepared) {
    let (pos, rot) = frame;
    match shape {
        ColliderShape::Plane { normal, offset } => {
            out.planes.push(plane::Plane::new(pos, rot, *normal, *offset, source))
        }
        ColliderShape::Sphere { radius } => out.spheres.push(sphere::Sphere::new(pos, *radius, source)),
        ColliderShape::Box { half_extents } => out.boxes.push(cuboid::Cuboid::new(pos, rot, *half_extents, source)),
        ColliderShape::Capsule { a, b, radius } => {
            out.capsules.push(capsule::Capsule::new(pos + rot * *a, pos + rot * *b, *radius, source))
        }
        ColliderShape::Convex(h) => out.convexes.push(hull::Hull::new(h.clone(), pos, rot, source)),
        ColliderShape::Mesh(m) => out.soups.push(Soup::new(Triangles::Mesh(m.clone()), pos, rot, start, source)),
        ColliderShape::Heightfield(f) => {
            out.soups.push(Soup::new(Triangles::Field(f.clone()), pos, rot, start, source))
        }
        ColliderShape::Compound(children) => {
            for c in children.iter() {
                let place = |(p, r): (Vec3, Quat)| (p + r * c.position, r * c.rotation);
                prepare_shape(&c.shape, place(frame), place(start), source, out);
            }
        }
    }
}

/// Every collider of the world in world space, one list per kind, for one
/// substep (or a whole step when nothing moves).
#[derive(Default, Debug, Clone)]
pub struct Prepared {
    pub planes: Vec<plane::Plane>,
    pub spheres: Vec<sphere::Sphere>,
    pub boxes: Vec<cuboid::Cuboid>,
    pub capsules: Vec<capsule::Capsule>,
    pub convexes: Vec<hull::Hull>,
    /// Meshes and heightfields.
    pub soups: Vec<Soup>,
    pub sources: Vec<Source>,
}

impl Prepared {
    /// May a point inside `lo..hi` touch any of the shapes?
    pub fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        self.planes.iter().any(|s| s.overlaps(lo, hi))
            || self.spheres.iter().any(|s| s.overlaps(lo, hi))
            || self.boxes.iter().any(|s| s.overlaps(lo, hi))
            || self.capsules.iter().any(|s| s.overlaps(lo, hi))
            || self.convexes.iter().any(|s| s.overlaps(lo, hi))
            || self.soups.iter().any(|s| {
                let (a, b) = s.world_bounds();
                boxes_overlap(lo, hi, a, b)
            })
    }

    /// Rebuilds the lists from the colliders, in the given (deterministic)
    /// order, at the fraction `frac` of the step of length `dt`, in the frame
    /// at `offset`; with `selected`, the shapes of the selected colliders
    /// only (by their order).
    pub fn rebuild<'a>(
        &mut self,
        colliders: impl Iterator<Item = (ColliderId, &'a Collider)>,
        frac: f32,
        start_frac: f32,
        dt: f32,
        offset: Vec3,
        selected: Option<&[bool]>,
    ) {
        self.planes.clear();
        self.spheres.clear();
        self.boxes.clear();
        self.capsules.clear();
        self.convexes.clear();
        self.soups.clear();
        self.sources.clear();
        for (k, (id, c)) in colliders.enumerate() {
            let shapes = selected.is_none_or(|s| s[k]);
            c.prepare(id, frac, start_frac, dt, offset, shapes, self);
        }
    }
}

/// The colliders of one step in world space: at its start, and at the end
/// of each substep when some collider moves (an engine-moved collider goes
/// from its last frame to its new one across the substeps); one list when
/// none moves.
#[derive(Default, Debug, Clone)]
pub struct StepColliders {
    pub start: Prepared,
    /// One per substep, or a single one when no collider moves.
    pub at: Vec<Prepared>,
}

impl StepColliders {
    /// Prepares the step's colliders, in pool order.
    pub fn rebuild(&mut self, colliders: &crate::pool::Pool<Collider>, substeps: u32, dt: f32) {
        self.rebuild_in(colliders, substeps, dt, Vec3::ZERO, None);
    }

    /// The step's colliders `world` (prepared by [`StepColliders::rebuild`])
    /// in the frame at `offset`, with the shapes only of those that reach
    /// into the world-space box `lo..hi` at the step's start or end; the
    /// sources all, in the same order, so a contact's source is the same
    /// index in both. `selected` is scratch.
    #[allow(clippy::too_many_arguments)]
    pub fn rebuild_near(
        &mut self,
        colliders: &crate::pool::Pool<Collider>,
        substeps: u32,
        dt: f32,
        world: &StepColliders,
        offset: Vec3,
        (lo, hi): (Vec3, Vec3),
        selected: &mut Vec<bool>,
    ) {
        selected.clear();
        selected.resize(world.last().sources.len(), false);
        for p in [world.first(), world.last()] {
            fn mark<S: Shape>(shapes: &[S], lo: Vec3, hi: Vec3, out: &mut [bool]) {
                for s in shapes.iter().filter(|s| s.overlaps(lo, hi)) {
                    out[s.source() as usize] = true;
                }
            }
            mark(&p.planes, lo, hi, selected);
            mark(&p.spheres, lo, hi, selected);
            mark(&p.boxes, lo, hi, selected);
            mark(&p.capsules, lo, hi, selected);
            mark(&p.convexes, lo, hi, selected);
            for s in &p.soups {
                let (a, b) = s.world_bounds();
                if boxes_overlap(lo, hi, a, b) {
                    selected[s.source as usize] = true;
                }
            }
        }
        self.rebuild_in(colliders, substeps, dt, offset, Some(selected));
    }

    fn rebuild_in(
        &mut self,
        colliders: &crate::pool::Pool<Collider>,
        substeps: u32,
        dt: f32,
        offset: Vec3,
        selected: Option<&[bool]>,
    ) {
        let moving = colliders.iter().any(|(_, c)| c.moved());
        let n = if moving { substeps as usize } else { 1 };
        self.at.resize_with(n, Prepared::default);
        let all = || colliders.iter().map(|(h, c)| (ColliderId::from(h), c));
        if moving {
            self.start.rebuild(all(), 0.0, 0.0, dt, offset, selected);
            for (k, at) in self.at.iter_mut().enumerate() {
                at.rebuild(all(), (k + 1) as f32 / substeps as f32, k as f32 / substeps as f32, dt, offset, selected);
            }
        } else {
            self.at[0].rebuild(all(), 1.0, 1.0, dt, offset, selected);
        }
    }

    /// Whether the colliders differ from substep to substep.
    pub fn moving(&self) -> bool {
        self.at.len() > 1
    }

    /// The colliders at the start of the step.
    pub fn first(&self) -> &Prepared {
        if self.moving() { &self.start } else { &self.at[0] }
    }

    /// The colliders during substep `k`.
    pub fn substep(&self, k: u32) -> &Prepared {
        if self.moving() { &self.at[k as usize] } else { &self.at[0] }
    }

    /// The colliders at the end of the step (also what the contact readback
    /// reads the collider ids from).
    pub fn last(&self) -> &Prepared {
        self.at.last().unwrap_or(&self.start)
    }
}

/// The colliders one body may touch this step: indices into [`Prepared`].
#[derive(Default, Debug, Clone)]
pub struct Candidates {
    pub planes: Vec<u32>,
    pub spheres: Vec<u32>,
    pub boxes: Vec<u32>,
    pub capsules: Vec<u32>,
    pub convexes: Vec<u32>,
    /// Triangle colliders near the body, with each particle's triangles.
    pub soups: Vec<SoupCandidates>,
    /// How many of `soups` are in use this step (the rest keep their
    /// allocations for later steps).
    pub soup_count: usize,
}

impl Candidates {
    /// Broad phase: the shapes whose region overlaps the body's swept bounds
    /// at the start or the end of the step, and whose filter meets the
    /// body's.
    pub fn find(&mut self, start: &Prepared, end: &Prepared, lo: Vec3, hi: Vec3, filter: Filter) {
        fn pick<S: Shape>(out: &mut Vec<u32>, a: &[S], b: &[S], sources: &[Source], lo: Vec3, hi: Vec3, f: Filter) {
            out.clear();
            out.extend((0..a.len() as u32).filter(|&k| {
                let k = k as usize;
                f.meets(&sources[a[k].source() as usize].filter) && (a[k].overlaps(lo, hi) || b[k].overlaps(lo, hi))
            }));
        }
        let s = &end.sources;
        pick(&mut self.planes, &start.planes, &end.planes, s, lo, hi, filter);
        pick(&mut self.spheres, &start.spheres, &end.spheres, s, lo, hi, filter);
        pick(&mut self.boxes, &start.boxes, &end.boxes, s, lo, hi, filter);
        pick(&mut self.capsules, &start.capsules, &end.capsules, s, lo, hi, filter);
        pick(&mut self.convexes, &start.convexes, &end.convexes, s, lo, hi, filter);
    }

    /// Broad phase for meshes and heightfields near the body: each
    /// particle's triangles (its swept box grown by its radius and `margin`),
    /// each collision stick's, and, when `whole` (a rigid body's collision
    /// points are not particles), all of the body's.
    #[allow(clippy::too_many_arguments)]
    pub fn find_soups(
        &mut self,
        start: &Prepared,
        end: &Prepared,
        lo: Vec3,
        hi: Vec3,
        filter: Filter,
        boxes: &[(Vec3, Vec3)],
        sticks: &[CollisionStick],
        whole: bool,
    ) {
        self.soup_count = 0;
        for (k, (a, b)) in start.soups.iter().zip(&end.soups).enumerate() {
            if !filter.meets(&end.sources[b.source as usize].filter) {
                continue;
            }
            let ((a0, a1), (b0, b1)) = (a.world_bounds(), b.world_bounds());
            if !boxes_overlap(lo, hi, a0, a1) && !boxes_overlap(lo, hi, b0, b1) {
                continue;
            }
            if self.soups.len() == self.soup_count {
                self.soups.push(SoupCandidates::default());
            }
            let c = &mut self.soups[self.soup_count];
            self.soup_count += 1;
            c.soup = k as u32;
            // The triangles an (swept, grown) world box may reach at the
            // step's start or end frame.
            let query = |lo: Vec3, hi: Vec3, out: &mut Vec<u32>| {
                let from = out.len();
                for s in [a, b] {
                    let (l, h) = s.local_box(lo, hi);
                    s.triangles.query(l, h, out);
                    if std::ptr::eq(a, b) {
                        break;
                    }
                }
                if !std::ptr::eq(a, b) {
                    out[from..].sort_unstable();
                    let mut keep = from;
                    for i in from..out.len() {
                        if i == from || out[i] != out[keep - 1] {
                            out[keep] = out[i];
                            keep += 1;
                        }
                    }
                    out.truncate(keep);
                }
            };
            c.all.clear();
            if whole {
                query(lo, hi, &mut c.all);
            }
            c.start.clear();
            c.tris.clear();
            c.start.push(0);
            for &(l, h) in boxes {
                if l.x <= h.x {
                    query(l, h, &mut c.tris);
                }
                c.start.push(c.tris.len() as u32);
            }
            c.stick_start.clear();
            c.stick_tris.clear();
            c.stick_start.push(0);
            for s in sticks {
                let (pa, pb) = (boxes[s.a as usize], boxes[s.b as usize]);
                query(pa.0.min(pb.0) - s.radius, pa.1.max(pb.1) + s.radius, &mut c.stick_tris);
                c.stick_start.push(c.stick_tris.len() as u32);
            }
        }
    }

    /// The triangle colliders in use this step.
    pub fn soups(&self) -> &[SoupCandidates] {
        &self.soups[..self.soup_count]
    }

    pub fn is_empty(&self) -> bool {
        self.planes.is_empty()
            && self.spheres.is_empty()
            && self.boxes.is_empty()
            && self.capsules.is_empty()
            && self.convexes.is_empty()
            && self.soup_count == 0
    }
}

/// What a collision pass needs besides the shapes: the substep's length
/// and the body's own material.
#[derive(Clone, Copy)]
pub struct PassContext<'a> {
    pub prepared: &'a Prepared,
    pub h: f32,
    pub inv_h: f32,
    pub material: Option<&'a Material>,
    /// Take friction at each push (true), or leave it to the friction
    /// stage after the passes (`friction::finish`), through `x_prev`: a
    /// ragdoll's bones are rigid clusters whose velocities are made rigid
    /// after that stage, and cuts of single joint particles inside the
    /// passes fight the bones' fits (a limp drop then took 5 s to rest
    /// instead of 1).
    pub friction_at_push: bool,
    /// The lanes of the first test of many particles against a shape.
    pub simd: crate::exec::simd::SimdLevel,
}

/// One collision pass over a body's particles against its candidates, with
/// one radius for all (`radii` empty) or one per particle (negative: the
/// particle does not collide).
///
/// Each push-out also takes friction off the particle's motion over the
/// substep (relative to the surface), in proportion to the depth pushed
/// (Macklin et al. 2014: friction as a position correction inside the
/// projection loop, so later passes reconcile it with the constraints and a
/// particle held by static friction does not creep).
pub fn project(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: f32,
    radii: &[f32],
    candidates: &Candidates,
    ctx: &PassContext,
) {
    if radii.is_empty() {
        project_all(p, contacts, |_| radius, radius, candidates, ctx);
    } else {
        let largest = radii.iter().fold(0.0, |m: f32, &r| m.max(r));
        project_all(p, contacts, |i| radii.get(i).copied().unwrap_or(0.0), largest, candidates, ctx);
    }
}

/// One collision pass of a body: its particles, then its collision sticks.
pub fn project_body(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: f32,
    radii: &[f32],
    sticks: &[CollisionStick],
    candidates: &Candidates,
    ctx: &PassContext,
) {
    project(p, contacts, radius, radii, candidates, ctx);
    if !sticks.is_empty() {
        stick::project(p, contacts, sticks, candidates, ctx);
    }
}

/// As `project`, `largest` the largest of the radii.
fn project_all(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: impl Fn(usize) -> f32 + Copy,
    largest: f32,
    candidates: &Candidates,
    ctx: &PassContext,
) {
    let prepared = ctx.prepared;
    // Thin shapes first swept (planes are solid to any depth: never passed).
    sweep_kind(p, contacts, radius, largest, &candidates.spheres, &prepared.spheres, ctx);
    sweep_kind(p, contacts, radius, largest, &candidates.boxes, &prepared.boxes, ctx);
    sweep_kind(p, contacts, radius, largest, &candidates.capsules, &prepared.capsules, ctx);
    sweep_kind(p, contacts, radius, largest, &candidates.convexes, &prepared.convexes, ctx);
    project_kind(p, contacts, radius, largest, &candidates.planes, &prepared.planes, ctx);
    project_kind(p, contacts, radius, largest, &candidates.spheres, &prepared.spheres, ctx);
    project_kind(p, contacts, radius, largest, &candidates.boxes, &prepared.boxes, ctx);
    project_kind(p, contacts, radius, largest, &candidates.capsules, &prepared.capsules, ctx);
    project_kind(p, contacts, radius, largest, &candidates.convexes, &prepared.convexes, ctx);
    for c in candidates.soups() {
        let soup = &prepared.soups[c.soup as usize];
        for i in 0..p.len() {
            let r = radius(i);
            if inert(p, i, r) {
                continue;
            }
            let tris = c.of_particle(i);
            if tris.is_empty() {
                continue;
            }
            // In the soup's frame once per particle; after a push the local
            // point is brought up to date.
            let start = soup.start_to_local(p.previous(i));
            let mut local = soup.to_local(p.position(i));
            for &k in tris {
                if let Some((n, depth)) = soup.local_point_contact(k, local, start, r) {
                    let x = p.position(i);
                    push(p, contacts, i, x, soup.rotation * n, depth, soup.source, ctx);
                    local = soup.to_local(p.position(i));
                }
            }
        }
    }
}

/// A particle that does not collide: pinned (kinematic), or of negative
/// radius (a ragdoll's reference particles).
#[inline(always)]
fn inert(p: &ParticlesMut, i: usize, r: f32) -> bool {
    p.inv_mass[i] == 0.0 || r < 0.0
}

/// How far behind its start (m) a fast particle's sweep begins.
const SWEEP_BACKOFF: f32 = 1e-4;

/// Anti-tunnelling: a particle that moved farther than its radius this
/// substep is swept from where it started against the candidates of one
/// kind; if its path entered a shape, it is pushed back out along the
/// normal at the entry, as a contact (so a particle at 200 m/s stops on a
/// 1 cm board instead of passing it between two substeps).
fn sweep_kind<S: Shape>(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: impl Fn(usize) -> f32,
    largest: f32,
    candidates: &[u32],
    shapes: &[S],
    ctx: &PassContext,
) {
    if candidates.is_empty() {
        return;
    }
    let bound = |k: usize| shapes[candidates[k] as usize].bound();
    near::each_sweeping(ctx.simd, p, candidates.len(), bound, largest, |p, i| {
        let r = radius(i);
        if inert(p, i, r) {
            return;
        }
        let (x, start) = (p.position(i), p.previous(i));
        let moved = x - start;
        let len2 = moved.length_squared();
        if len2 <= r * r {
            return;
        }
        // Swept from a hair behind the start: a particle resting on a
        // surface (pushed there by the last substep) starts exactly on it,
        // where rounding could read it as leaving.
        let back = moved * (SWEEP_BACKOFF / len2.sqrt());
        let (origin, dir) = (start - back, moved + back);
        let mut first: Option<(f32, Vec3, u32)> = None;
        for &k in candidates {
            let shape = &shapes[k as usize];
            // Sweeps are costly; most shapes are nowhere near the path.
            if !shape.bound().may_sweep(origin, dir, r) {
                continue;
            }
            if let Some((t, n)) = shape.sweep(origin, dir, r)
                && first.is_none_or(|(best, _, _)| t < best)
            {
                first = Some((t, n, shape.source()));
            }
        }
        if let Some((t, n, source)) = first {
            let depth = n.dot(origin + dir * t - x);
            if depth > 0.0 {
                push(p, contacts, i, x, n, depth, source, ctx);
            }
        }
    });
}

/// Every particle against each candidate of one kind, the particles near
/// it picked a vector at a time (see `near`).
fn project_kind<S: Shape>(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: impl Fn(usize) -> f32,
    largest: f32,
    candidates: &[u32],
    shapes: &[S],
    ctx: &PassContext,
) {
    for &k in candidates {
        let shape = &shapes[k as usize];
        near::each_near(ctx.simd, p, shape.near_bound(), largest, |p, i| {
            let r = radius(i);
            if inert(p, i, r) {
                return;
            }
            let x = p.position(i);
            if let Some((normal, depth)) = shape.contact(x, r) {
                push(p, contacts, i, x, normal, depth, shape.source(), ctx);
            }
        });
    }
}

/// Moves particle `i` (now at `x`) out by `normal * depth`, takes the
/// friction of that push off its motion, and records the contact.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn push(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    i: usize,
    x: Vec3,
    normal: Vec3,
    depth: f32,
    source: u32,
    ctx: &PassContext,
) {
    let prev = p.previous(i);
    let out = x + normal * depth;
    let s = &ctx.prepared.sources[source as usize];
    let surface = if s.moves() { s.surface_displacement(out, ctx.h) } else { Vec3::ZERO };
    // A push beyond what this substep's motion brought in undoes a
    // penetration the particle already had (teleported or created inside,
    // or left by an earlier substep): it moves `x_prev` too, so resolving it
    // adds no velocity (a particle put 3 m under a terrain would otherwise
    // leave it at 3 m per substep), and it is no impact, so friction takes
    // only the part that stops this substep's motion (Coulomb: the cut is
    // at most mu times the normal impulse; a box started 1 mm inside the
    // floor lost 0.44 m/s of its slide to the push-out).
    let came_in = (-normal.dot(x - prev - surface)).max(0.0);
    if ctx.friction_at_push {
        let (mu_s, mu_d, _) = s.material.against(ctx.material);
        let cut = friction::tangential_cut(out - prev - surface, normal, mu_s, mu_d, depth.min(came_in));
        p.set_position(i, out - cut);
    } else {
        p.set_position(i, out);
    }
    if depth > came_in {
        p.set_previous(i, prev + normal * (depth - came_in));
    }
    contacts.record(i, normal, depth, source, normal.dot(x - prev - surface) * ctx.inv_h);
}

/// Closest point to `p` on the segment `a + t*ab`, `t` in [0, 1].
#[inline(always)]
pub(crate) fn closest_on_segment(p: Vec3, a: Vec3, ab: Vec3, inv_len2: f32) -> Vec3 {
    let t = ((p - a).dot(ab) * inv_len2).clamp(0.0, 1.0);
    a + ab * t
}

/// The contact of a point with a ball at `c` of radius `r`; `fallback` is the
/// normal used when the point sits exactly on the centre.
#[inline(always)]
pub(crate) fn ball_contact(p: Vec3, c: Vec3, r: f32, fallback: Vec3) -> Option<(Vec3, f32)> {
    let d = p - c;
    let dist2 = d.length_squared();
    if dist2 >= r * r {
        return None;
    }
    let dist = dist2.sqrt();
    let normal = if dist > 1e-12 { d / dist } else { fallback };
    Some((normal, r - dist))
}

/// Does the box `lo..hi` overlap the box `a..b`?
#[inline(always)]
pub(crate) fn boxes_overlap(lo: Vec3, hi: Vec3, a: Vec3, b: Vec3) -> bool {
    lo.cmple(b).all() && a.cmple(hi).all()
}

/// Checks a collider shape's numbers (a compound's parts too; `top` is false
/// for a part, which may not be a compound itself).
pub(crate) fn checked_shape(shape: ColliderShape, top: bool) -> Result<ColliderShape> {
    Ok(match shape {
        ColliderShape::Plane { normal, offset } => {
            let normal = finite_vec(normal, "normal")?;
            let len = normal.length();
            if !(len > 1e-6 && len.is_finite()) {
                return Err(Error::invalid_argument(format!("normal must be non-zero, got {normal}")));
            }
            // Already unit (within 1e-6): kept as given, as `unit_rotation`
            // does, so a normal read back from a snapshot and checked again
            // keeps its bits (dividing by a length of 1 - 6e-8 did not).
            let normal = if (len - 1.0).abs() <= 1e-6 { normal } else { normal / len };
            ColliderShape::Plane { normal, offset: finite(offset, "offset")? }
        }
        ColliderShape::Sphere { radius } => ColliderShape::Sphere { radius: positive(radius, "radius")? },
        ColliderShape::Box { half_extents } => {
            finite_vec(half_extents, "half_extents")?;
            if !half_extents.cmpgt(Vec3::ZERO).all() {
                return Err(Error::invalid_argument(format!("half_extents must be > 0, got {half_extents}")));
            }
            ColliderShape::Box { half_extents }
        }
        ColliderShape::Capsule { a, b, radius } => ColliderShape::Capsule {
            a: finite_vec(a, "a")?,
            b: finite_vec(b, "b")?,
            radius: positive(radius, "radius")?,
        },
        ColliderShape::Convex(_) | ColliderShape::Mesh(_) | ColliderShape::Heightfield(_) => shape,
        ColliderShape::Compound(children) => {
            if !top {
                return Err(Error::invalid_argument("a compound's part cannot be a compound"));
            }
            if children.is_empty() {
                return Err(Error::invalid_argument("a compound needs at least one part"));
            }
            let mut parts = Vec::with_capacity(children.len());
            for (k, c) in children.iter().enumerate() {
                let shape = checked_shape(c.shape.clone(), false)
                    .map_err(|e| Error::new(e.kind, format!("part {k}: {}", e.message)))?;
                let position = finite_vec(c.position, &format!("part {k}: position"))?;
                let rotation = unit_rotation(c.rotation, &format!("part {k}: rotation"))?;
                parts.push(CompoundChild { shape, position, rotation });
            }
            ColliderShape::Compound(parts.into())
        }
    })
}

impl Collider {
    /// Checks a collider's definition and makes it, not yet moved: the
    /// rules of `World::create_collider_with`, which a snapshot's colliders
    /// are read through too.
    pub(crate) fn checked(
        shape: ColliderShape,
        position: Vec3,
        rotation: Quat,
        material: Material,
        filter: Filter,
    ) -> Result<Collider> {
        let shape = checked_shape(shape, true)?;
        let position = finite_vec(position, "position")?;
        let rotation = unit_rotation(rotation, "rotation")?;
        material.validate("material")?;
        Ok(Collider::new(shape, position, rotation, material, filter))
    }
}

/// Checks a collider's new frame (`World::set_collider_transform`): a
/// finite position, the rotation normalised.
pub(crate) fn checked_transform(position: Vec3, rotation: Quat) -> Result<(Vec3, Quat)> {
    Ok((finite_vec(position, "transform.position")?, unit_rotation(rotation, "transform.rotation")?))
}
