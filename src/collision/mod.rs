//! Collisions by projection (Jakobsen, "Collision and contact handling by
//! projection"): an offending particle is moved the shortest way out of the
//! collider, inside the relaxation loop, so contacts and constraints are
//! satisfied together; the Verlet scheme turns the move into the right velocity
//! (restitution 0). The penetration removed is remembered per particle for the
//! friction stage ([`friction`]).
//!
//! Colliders are kept as (shape in a local frame, transform). Once per step
//! each is prepared in world space and a broad phase lists, per body, the
//! colliders its bounding box may reach this step; the narrow phase of each
//! relaxation pass walks only those candidates, one shape kind at a time (no
//! branching on kind in the loop).

pub mod bvh;
pub mod capsule;
pub mod cuboid;
pub mod friction;
pub mod heightfield;
pub mod plane;
pub mod sphere;
pub mod triangle;
pub mod trimesh;

use crate::particles::ParticlesMut;
use friction::ContactsMut;
use glam::{Quat, Vec3};

/// A collider's shape in its local frame.
#[derive(Debug, Clone, Copy, PartialEq)]
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
}

/// A static or engine-moved collider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collider {
    pub shape: ColliderShape,
    pub position: Vec3,
    pub rotation: Quat,
    pub friction: f32,
}

/// What every prepared (world-space) shape provides.
pub trait Shape {
    /// May a particle inside the box `lo..hi` touch the shape?
    fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool;
    /// For a point with radius `r`: the outward normal and the penetration
    /// depth (> 0) when the point is inside, `None` otherwise.
    fn contact(&self, p: Vec3, r: f32) -> Option<(Vec3, f32)>;
    /// Coulomb coefficient.
    fn friction(&self) -> f32;
}

impl Collider {
    /// This collider alone in world space (for tests outside the step).
    pub fn prepared(&self) -> Prepared {
        let mut one = Prepared::default();
        self.prepare(&mut one);
        one
    }

    /// Adds this collider, in world space, to the lists of the step.
    fn prepare(&self, out: &mut Prepared) {
        let (pos, rot, mu) = (self.position, self.rotation, self.friction);
        match self.shape {
            ColliderShape::Plane { normal, offset } => out.planes.push(plane::Plane::new(pos, rot, normal, offset, mu)),
            ColliderShape::Sphere { radius } => out.spheres.push(sphere::Sphere::new(pos, radius, mu)),
            ColliderShape::Box { half_extents } => out.boxes.push(cuboid::Cuboid::new(pos, rot, half_extents, mu)),
            ColliderShape::Capsule { a, b, radius } => {
                out.capsules.push(capsule::Capsule::new(pos + rot * a, pos + rot * b, radius, mu))
            }
        }
    }
}

/// Every collider of the world in world space, one list per kind, for one step.
#[derive(Default, Debug, Clone)]
pub struct Prepared {
    pub planes: Vec<plane::Plane>,
    pub spheres: Vec<sphere::Sphere>,
    pub boxes: Vec<cuboid::Cuboid>,
    pub capsules: Vec<capsule::Capsule>,
}

impl Prepared {
    /// May a point inside `lo..hi` touch any of the shapes?
    pub fn overlaps(&self, lo: Vec3, hi: Vec3) -> bool {
        self.planes.iter().any(|s| s.overlaps(lo, hi))
            || self.spheres.iter().any(|s| s.overlaps(lo, hi))
            || self.boxes.iter().any(|s| s.overlaps(lo, hi))
            || self.capsules.iter().any(|s| s.overlaps(lo, hi))
    }

    /// Rebuilds the lists from the colliders, in the given (deterministic) order.
    pub fn rebuild<'a>(&mut self, colliders: impl Iterator<Item = &'a Collider>) {
        self.planes.clear();
        self.spheres.clear();
        self.boxes.clear();
        self.capsules.clear();
        for c in colliders {
            c.prepare(self);
        }
    }
}

/// The colliders one body may touch this step: indices into [`Prepared`].
#[derive(Default, Debug, Clone)]
pub struct Candidates {
    pub planes: Vec<u32>,
    pub spheres: Vec<u32>,
    pub boxes: Vec<u32>,
    pub capsules: Vec<u32>,
}

impl Candidates {
    /// Broad phase: the shapes whose region overlaps the body's swept bounds.
    pub fn find(&mut self, prepared: &Prepared, lo: Vec3, hi: Vec3) {
        fn pick<S: Shape>(out: &mut Vec<u32>, shapes: &[S], lo: Vec3, hi: Vec3) {
            out.clear();
            out.extend((0..shapes.len() as u32).filter(|&k| shapes[k as usize].overlaps(lo, hi)));
        }
        pick(&mut self.planes, &prepared.planes, lo, hi);
        pick(&mut self.spheres, &prepared.spheres, lo, hi);
        pick(&mut self.boxes, &prepared.boxes, lo, hi);
        pick(&mut self.capsules, &prepared.capsules, lo, hi);
    }

    pub fn is_empty(&self) -> bool {
        self.planes.is_empty() && self.spheres.is_empty() && self.boxes.is_empty() && self.capsules.is_empty()
    }
}

/// One collision pass over a body's particles against its candidates, with
/// one radius for all (`radii` empty) or one per particle (negative: the
/// particle does not collide).
pub fn project(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: f32,
    radii: &[f32],
    candidates: &Candidates,
    prepared: &Prepared,
) {
    if radii.is_empty() {
        project_all(p, contacts, |_| radius, candidates, prepared);
    } else {
        project_all(p, contacts, |i| radii.get(i).copied().unwrap_or(0.0), candidates, prepared);
    }
}

fn project_all(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: impl Fn(usize) -> f32 + Copy,
    candidates: &Candidates,
    prepared: &Prepared,
) {
    project_kind(p, contacts, radius, &candidates.planes, &prepared.planes);
    project_kind(p, contacts, radius, &candidates.spheres, &prepared.spheres);
    project_kind(p, contacts, radius, &candidates.boxes, &prepared.boxes);
    project_kind(p, contacts, radius, &candidates.capsules, &prepared.capsules);
}

fn project_kind<S: Shape>(
    p: &mut ParticlesMut,
    contacts: &mut ContactsMut,
    radius: impl Fn(usize) -> f32,
    candidates: &[u32],
    shapes: &[S],
) {
    for &k in candidates {
        let shape = &shapes[k as usize];
        for i in 0..p.len() {
            let r = radius(i);
            if p.inv_mass[i] == 0.0 || r < 0.0 {
                continue;
            }
            let x = p.position(i);
            if let Some((normal, depth)) = shape.contact(x, r) {
                p.set_position(i, x + normal * depth);
                contacts.record(i, normal, depth, shape.friction());
            }
        }
    }
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
