//! Contacts between bodies of an island: a ragdoll on a ragdoll, a cloth on
//! a character, a crate on either.
//!
//! Each body collides through its pieces:
//!
//! - **balls**: a particle and its radius (the particles of a particle body,
//!   a cloth's vertices with its thickness);
//! - **sticks**: the capsule around two particles (a ragdoll's bone
//!   capsules, a chain's collision sticks);
//! - **the solid** of a rigid body (its box, ball, capsule or convex hull
//!   where its fit puts it), as against another rigid body (`rigid::pairs`);
//! - **triangles** of a cloth, as thick as its vertices, against sticks
//!   only: a capsule fits between the vertices of a sheet whose cells are
//!   wider than it, so a ragdoll on a coarse cloth would fall through it
//!   and a limb poke through a cloth draped on it. The stick meets the
//!   triangle as it meets a collider's (closest points, or its end pushed
//!   back through the plane to the side it was on when the step began), and
//!   the triangle's share is spread over its vertices by the barycentric
//!   weights of its point, as any point's (below).
//!
//! A ragdoll collides through its sticks alone (its joint particles sit inside
//! them), a rigid body through its solid alone. Two rigid bodies meet in
//! `rigid::pairs`, two cloths in `cloth::self_collision`; every other pair of
//! bodies whose layers meet collides here.
//!
//! Once per step the pieces of two bodies that may meet during the step are
//! listed: where the bodies' swept bounds overlap, each piece whose swept box
//! reaches into the overlap, paired with the other body's pieces whose boxes
//! touch its own; each piece of the side with more keeps the nearest few of
//! all those it is paired with in the island, so a pile of bodies spawned
//! into each other lists as many contacts as it has pieces, not as the
//! square of its bodies. Every relaxation pass then pushes each listed pair apart
//! along the line between its closest points, by the depth (what the
//! approach does not explain at most `MAX_PUSH_SPEED h` a substep and
//! without a velocity: see [`project`]), shared by the
//! two sides in proportion to their inverse masses at the contact: a point
//! `p = sum c_i x_i` of particles moves as in Jakobsen's embedded-point
//! response (`w = sum c_i^2 w_i`, `dx_i = c_i w_i lambda n`), a rigid body as a
//! rigid body (`w = 1/M + (r x n) . I^-1 (r x n)`, Mueller et al. 2020); with
//! `lambda = depth / (w_a + w_b)` the two sides' momenta change by equal and
//! opposite amounts. Friction, in the velocity stage, takes the relative
//! tangential motion at the contact away by `mu * depth` at most (never
//! reversing it), through the same response; `mu` is the geometric mean of
//! the two bodies' coefficients.
//!
//! A piece joined to the other body by a joint (a cape's pinned corner at a
//! shoulder, a rope's end at a plank) does not collide with the pieces of the
//! particle it is joined to (or with the solid it is joined to): the joint
//! holds it there. A body may also pass through chosen bones of a ragdoll
//! (`World::set_ignored_bones`: a cape through the shoulders and chest it
//! hangs from) and still collide with the others.

use crate::body::Body;
use crate::collision::friction::{ContactsMut, MAX_PUSH_SPEED};
use crate::collision::segment;
use crate::collision::triangle;
use crate::constraints::joint::Resolved;
use crate::particles::ParticlesMut;
use crate::rigid::Rigid;
use crate::rigid::pairs::{self, Frame};
use glam::Vec3;

/// Two sticks count as parallel within this squared sine of their angle
/// (about 6 degrees).
const PARALLEL: f32 = 0.01;

/// What each end of two nearly parallel sticks' overlap weighs beyond its
/// depth, as a share of their radii (see [`capsules`]).
const EVEN: f32 = 1.0e-3;

/// The most pieces of the other bodies of its island one piece is kept off
/// in a step (the nearest).
const MAX_PAIRS_PER_PIECE: usize = 8;

/// Coulomb coefficient of a body without a material of its own.
pub(crate) const DEFAULT_FRICTION: f32 = 0.5;

/// What of a body collides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece {
    /// A particle (index within the body).
    Ball(u32),
    /// The capsule around two particles.
    Stick(u32, u32),
    /// A cloth's triangle (its three vertices), as thick as its vertices'
    /// radius: it collides with sticks only (a vertex does with the rest).
    Triangle(u32, u32, u32),
    /// A rigid body's solid.
    Solid,
}

/// Two pieces of two bodies that may meet this step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Island members; `b` holds the solid when there is one.
    pub a: u32,
    pub b: u32,
    pub piece_a: Piece,
    pub piece_b: Piece,
    /// Radii of the two pieces (metres; 0 for a solid, which has its own).
    pub radius_a: f32,
    pub radius_b: f32,
    pub friction: f32,
    /// The current substep's push-out (summed over the passes), its
    /// direction (into `a`), where along each stick, and the point.
    pub depth: f32,
    pub normal: Vec3,
    pub s_a: f32,
    pub s_b: f32,
    /// The weights of the point of a triangle piece (either side), and the
    /// side of its plane the stick it meets belongs to for the step (+1
    /// the front: see [`triangle::segment_contact_on_side`]).
    pub tri: [f32; 3],
    pub side: f32,
    pub at: Vec3,
    /// The deepest push-out of a substep this step, and the fastest
    /// approach along the normal (m/s, >= 0), for the readback.
    pub step_depth: f32,
    pub speed: f32,
    /// How far this substep's passes have taken out the penetration its
    /// pieces' approach does not explain, without a velocity (at most
    /// `MAX_PUSH_SPEED h`: see [`project`]).
    pub shifted: f32,
}

impl Contact {
    /// Whether one of its pieces is a triangle.
    fn with_triangle(&self) -> bool {
        matches!((self.piece_a, self.piece_b), (Piece::Triangle(..), _) | (_, Piece::Triangle(..)))
    }
}

/// Two bodies that touched during a step, for the contact readback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    /// The island (its index in the step) and the contact's place in its
    /// list: the readback's order.
    pub island: u32,
    pub order: u32,
    /// Body slots, and the particle of each nearest the contact (within
    /// the body).
    pub body_a: u32,
    pub particle_a: u32,
    pub body_b: u32,
    pub particle_b: u32,
    /// World space: where `a`'s surface meets `b`'s, the normal into `a`.
    pub point: Vec3,
    /// The same point in the island's frame (`at`) and that frame's
    /// origin, for the readback in `f64` (`point` is their sum, rounded).
    pub at: Vec3,
    pub frame: Vec3,
    pub normal: Vec3,
    pub depth: f32,
    pub speed: f32,
}

/// Buffers of [`find`], kept between steps.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    /// Swept boxes of the pieces of each side that reach the overlap.
    near_a: Vec<Near>,
    near_b: Vec<Near>,
    /// Joined particles of the island, `(member, particle, member,
    /// particle)` both ways round, sorted.
    joined: Vec<(u32, u32, u32, u32)>,
    /// One piece's candidates: squared distance of the boxes' centres (x2),
    /// the other piece and its radius.
    kept: Vec<(f32, Piece, f32)>,
    /// Each listed contact's distance (as in `kept`); where each member's
    /// pieces start in `nearest`, and the contacts each piece keeps.
    apart: Vec<f32>,
    base: Vec<usize>,
    nearest: Vec<Nearest>,
    /// The contacts with triangles, moved after the others.
    triangles: Vec<Contact>,
}

/// A piece that may meet the other body: its radius, swept box and its
/// place among its body's pieces (balls, then sticks).
type Near = (Piece, f32, Vec3, Vec3, u32);

/// The contacts (places in the list) a piece keeps with the other bodies of
/// its island, the nearest [`MAX_PAIRS_PER_PIECE`] of those listed.
#[derive(Debug, Default, Clone, Copy)]
struct Nearest {
    len: u32,
    at: [u32; MAX_PAIRS_PER_PIECE],
}

/// Whether a body collides with other bodies here, and how.
fn kind(b: &Body) -> Option<Kind> {
    if b.rigid.is_some() {
        Some(Kind::Solid)
    } else if b.ragdoll.is_some() {
        (!b.sticks.is_empty()).then_some(Kind::Sticks)
    } else {
        Some(Kind::Balls)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Particles (and any collision sticks).
    Balls,
    /// Collision sticks only.
    Sticks,
    Solid,
}

/// Whether two bodies of an island collide here (rather than in a pair
/// stage of their own kind, or not at all).
pub fn collide(a: &Body, b: &Body) -> bool {
    let (Some(ka), Some(kb)) = (kind(a), kind(b)) else { return false };
    let cloths = a.cloth.is_some() && b.cloth.is_some();
    !(cloths || ka == Kind::Solid && kb == Kind::Solid) && a.filter.meets(&b.filter)
}

/// How far a body's pieces reach beyond its particles (metres).
pub fn reach(b: &Body) -> f32 {
    let r = b.radii.iter().fold(b.radius, |m, &r| m.max(r));
    b.sticks.iter().fold(r, |m, s| m.max(s.radius))
}

fn body_friction(b: &Body) -> f32 {
    match (&b.rigid, &b.material) {
        (Some(r), _) => r.def.friction,
        (None, Some(m)) => m.friction,
        (None, None) => DEFAULT_FRICTION,
    }
}

fn ball_radius(b: &Body, i: usize) -> f32 {
    if b.radii.is_empty() { b.radius } else { b.radii[i] }
}

/// The box swept by particles `ids` from now to where their velocity takes
/// them in `ahead` seconds, grown by `grow`.
fn swept(p: &ParticlesMut, ids: &[u32], ahead: f32, grow: f32) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for &i in ids {
        let x = p.position(i as usize);
        let later = x + p.velocity(i as usize) * ahead;
        (lo, hi) = (lo.min(x).min(later), hi.max(x).max(later));
    }
    (lo - grow, hi + grow)
}

fn overlap(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

/// The pieces of `body` whose swept boxes (grown by their radius and
/// `slack`) reach into `region`; a cloth's triangles too when `triangles`
/// (the other body has sticks).
fn pieces_near(
    body: &Body,
    p: &ParticlesMut,
    region: (Vec3, Vec3),
    ahead: f32,
    slack: f32,
    triangles: bool,
    out: &mut Vec<Near>,
) {
    out.clear();
    match kind(body) {
        Some(Kind::Solid) => {
            let (lo, hi) = body.bounds;
            out.push((Piece::Solid, 0.0, lo - body.radius - slack, hi + body.radius + slack, 0));
        }
        Some(k) => {
            if k == Kind::Balls {
                for i in 0..body.count {
                    let r = ball_radius(body, i);
                    if r < 0.0 {
                        continue; // collides with nothing
                    }
                    let (lo, hi) = swept(p, &[i as u32], ahead, r + slack);
                    if overlap((lo, hi), region) {
                        out.push((Piece::Ball(i as u32), r, lo, hi, i as u32));
                    }
                }
            }
            for (k, s) in body.sticks.iter().enumerate() {
                let (lo, hi) = swept(p, &[s.a, s.b], ahead, s.radius + slack);
                if overlap((lo, hi), region) {
                    out.push((Piece::Stick(s.a, s.b), s.radius, lo, hi, (body.count + k) as u32));
                }
            }
            if let (true, Some(cloth)) = (triangles, &body.cloth) {
                let first = body.count + body.sticks.len();
                for (k, &[i, j, l]) in cloth.triangles.iter().enumerate() {
                    let r = [i, j, l].iter().fold(0.0f32, |m, &v| m.max(ball_radius(body, v as usize)));
                    if [i, j, l].iter().any(|&v| ball_radius(body, v as usize) < 0.0) {
                        continue; // a vertex that collides with nothing
                    }
                    let (lo, hi) = swept(p, &[i, j, l], ahead, r + slack);
                    if overlap((lo, hi), region) {
                        out.push((Piece::Triangle(i, j, l), r, lo, hi, (first + k) as u32));
                    }
                }
            }
        }
        None => {}
    }
}

/// The particles of a piece (a solid: none listed, see [`joined`]).
fn particles_of(piece: Piece) -> ([u32; 3], usize) {
    match piece {
        Piece::Ball(i) => ([i, i, i], 1),
        Piece::Stick(a, b) => ([a, b, b], 2),
        Piece::Triangle(a, b, c) => ([a, b, c], 3),
        Piece::Solid => ([0, 0, 0], 0),
    }
}

/// The pieces of a body that collide with others here: its particles and
/// sticks, and a cloth's triangles.
fn piece_count(b: &Body) -> usize {
    b.count + b.sticks.len() + b.cloth.as_ref().map_or(0, |c| c.triangles.len())
}

/// Whether a body has sticks (its pieces meet a cloth's triangles).
fn has_sticks(b: &Body) -> bool {
    b.rigid.is_none() && !b.sticks.is_empty()
}

/// Whether two pieces are a pair this module collides: a triangle meets
/// sticks only.
fn pairable(a: Piece, b: Piece) -> bool {
    match (a, b) {
        (Piece::Triangle(..), Piece::Stick(..)) | (Piece::Stick(..), Piece::Triangle(..)) => true,
        (Piece::Triangle(..), _) | (_, Piece::Triangle(..)) => false,
        _ => true,
    }
}

/// Whether a joint holds a particle of piece `pa` of member `a` to a
/// particle of piece `pb` of member `b` (to any particle of `b`, for a solid).
fn joined(joined: &[(u32, u32, u32, u32)], a: u32, pa: Piece, b: u32, pb: Piece) -> bool {
    if joined.is_empty() {
        return false;
    }
    let (ia, na) = particles_of(pa);
    let (ib, nb) = particles_of(pb);
    ia[..na].iter().any(|&i| {
        let lo = joined.partition_point(|&j| j < (a, i, b, 0));
        let hi = joined.partition_point(|&j| j <= (a, i, b, u32::MAX));
        if pb == Piece::Solid { lo < hi } else { joined[lo..hi].iter().any(|j| ib[..nb].contains(&j.3)) }
    })
}

/// Whether a stick of radius `r_stick` could reach more than half of a
/// triangle's thickness `r` past its face between its vertices, which keep
/// it `r + r_stick` off (true for pieces other than triangles). A point of
/// the triangle is at most its circumradius `D` from the nearest vertex, so
/// the stick's axis stays `sqrt((r + r_stick)^2 - D^2)` off the face: on a
/// sheet finer than the stick the vertices do the work alone (a torso on
/// a 5 cm cape), and the triangles are not listed.
fn fits_through(p: &ParticlesMut, piece: Piece, r: f32, r_stick: f32) -> bool {
    let Piece::Triangle(i, j, k) = piece else { return true };
    let [a, b, c] = [i, j, k].map(|i| p.position(i as usize));
    let area2 = (b - a).cross(c - a).length_squared(); // (2 area)^2
    let edges = (b - a).length_squared() * (c - b).length_squared() * (a - c).length_squared();
    let reach = r + r_stick;
    // D^2 = edges / (4 area)^2 = edges / (4 area2); the stick gets past
    // the half thickness when sqrt(reach^2 - D^2) < r_stick - r / 2.
    let off = r_stick - 0.5 * r;
    off <= 0.0 || edges > (reach * reach - off * off) * 4.0 * area2
}

/// Whether `piece` of member `a` is a triangle with a corner held by a
/// joint to member `b`: it does not collide with `b` (a cape's corner
/// triangles at the shoulders it hangs from, pressed by the wind into the
/// capsules around the joint, jittered against the joint's hold).
fn held(joins: &[(u32, u32, u32, u32)], a: u32, piece: Piece, b: u32) -> bool {
    matches!(piece, Piece::Triangle(..)) && joined(joins, a, piece, b, Piece::Solid)
}

/// A bone a body passes through: (island, member, the ragdoll's member,
/// the head and tail of the bone's stick).
pub type Ignored = (u32, u32, u32, u32, u32);

/// Whether member `body` passes through `piece` of member `other` (one
/// island's list, sorted).
fn ignores(ignored: &[Ignored], body: u32, other: u32, piece: Piece) -> bool {
    let Piece::Stick(head, tail) = piece else { return false };
    ignored.binary_search_by(|i| (i.1, i.2, i.3, i.4).cmp(&(body, other, head, tail))).is_ok()
}

/// Whether a piece cannot move (every particle of it pinned).
fn pinned(p: &ParticlesMut, piece: Piece) -> bool {
    let (ids, n) = particles_of(piece);
    n > 0 && ids[..n].iter().all(|&i| p.inv_mass[i as usize] == 0.0)
}

/// Lists the pieces of the island's body pairs `pairs` (member indices)
/// that may meet during the step (`ahead` = its length, s; `slack` what
/// gravity and corrections may add to a move); `joints` are the island's
/// joints, `ignored` the bones its bodies pass through.
#[allow(clippy::too_many_arguments)] // the island's parts, borrowed separately
pub fn find(
    island: &[&mut Body],
    views: &[ParticlesMut],
    pairs: impl IntoIterator<Item = (u32, u32)>,
    joints: &[(u32, Resolved)],
    ignored: &[Ignored],
    ahead: f32,
    slack: f32,
    out: &mut Vec<Contact>,
    scratch: &mut Scratch,
) {
    out.clear();
    let mut pairs = pairs.into_iter().peekable();
    if pairs.peek().is_none() {
        return;
    }
    let Scratch { near_a, near_b, joined: joins, kept, apart, base, nearest, triangles } = scratch;
    apart.clear();
    base.clear();
    let mut pieces = 0;
    for body in island {
        base.push(pieces);
        pieces += piece_count(body);
    }
    nearest.clear();
    nearest.resize(pieces, Nearest::default());
    let mut dropped = false;
    joins.clear();
    for (_, j) in joints {
        joins.push((j.body_a, j.a, j.body_b, j.b));
        joins.push((j.body_b, j.b, j.body_a, j.a));
    }
    joins.sort_unstable();
    for (a, b) in pairs {
        // The solid, if any, is side b.
        let (a, b) = if island[a as usize].rigid.is_some() { (b, a) } else { (a, b) };
        let (ba, bb) = (&*island[a as usize], &*island[b as usize]);
        let (pa, pb) = (&views[a as usize], &views[b as usize]);
        let grow = |body: &Body| reach(body) + slack;
        let (ga, gb) = (grow(ba), grow(bb));
        let region = ((ba.bounds.0 - ga).max(bb.bounds.0 - gb), (ba.bounds.1 + ga).min(bb.bounds.1 + gb));
        if !region.0.cmple(region.1).all() {
            continue;
        }
        pieces_near(ba, pa, region, ahead, slack, has_sticks(bb), near_a);
        if near_a.is_empty() {
            continue;
        }
        pieces_near(bb, pb, region, ahead, slack, has_sticks(ba), near_b);
        // Side a is the one with more pieces (a cloth's vertices against a
        // ragdoll's capsules): each of its pieces keeps the nearest few of
        // the other's (below). A solid stays side b.
        let (a, b, ba, bb, pa, pb) = if near_b.len() > near_a.len() && bb.rigid.is_none() {
            std::mem::swap(near_a, near_b);
            (b, a, bb, ba, pb, pa)
        } else {
            (a, b, ba, bb, pa, pb)
        };
        // The other side's pieces along x, each of this side's scanning
        // only those whose boxes start before its own ends.
        near_b.sort_unstable_by(|p, q| p.2.x.total_cmp(&q.2.x).then(key(p.0).cmp(&key(q.0))));
        let friction = (body_friction(ba) * body_friction(bb)).sqrt();
        for &(piece_a, radius_a, alo, ahi, slot) in near_a.iter() {
            kept.clear();
            for &(piece_b, radius_b, blo, bhi, _) in near_b.iter() {
                if blo.x > ahi.x {
                    break;
                }
                if !overlap((alo, ahi), (blo, bhi)) || !pairable(piece_a, piece_b) {
                    continue;
                }
                if (pinned(pa, piece_a) && pinned(pb, piece_b)) || radius_a + radius_b <= 0.0 && piece_b != Piece::Solid
                {
                    continue;
                }
                if !fits_through(pa, piece_a, radius_a, radius_b)
                    || !fits_through(pb, piece_b, radius_b, radius_a)
                    || joined(joins, a, piece_a, b, piece_b)
                    || held(joins, a, piece_a, b)
                    || held(joins, b, piece_b, a)
                    || ignores(ignored, a, b, piece_b)
                    || ignores(ignored, b, a, piece_a)
                {
                    continue;
                }
                let apart = ((alo + ahi) - (blo + bhi)).length_squared();
                kept.push((apart, piece_b, radius_b));
            }
            // Two bodies spawned into each other (two particle clouds at one
            // place) would pair every piece with every other: keep the
            // nearest few of each piece.
            if kept.len() > MAX_PAIRS_PER_PIECE {
                kept.select_nth_unstable_by(MAX_PAIRS_PER_PIECE, |p, q| {
                    p.0.total_cmp(&q.0).then(key(p.1).cmp(&key(q.1)))
                });
                kept.truncate(MAX_PAIRS_PER_PIECE);
                kept.sort_unstable_by_key(|k| key(k.1));
            }
            let start = out.len();
            out.extend(kept.iter().map(|&(_, piece_b, radius_b)| Contact {
                a,
                b,
                piece_a,
                piece_b,
                radius_a,
                radius_b,
                friction,
                depth: 0.0,
                normal: Vec3::Y,
                s_a: 0.0,
                s_b: 0.0,
                tri: [1.0, 0.0, 0.0],
                side: side_of(pa, piece_a, pb, piece_b),
                at: Vec3::ZERO,
                step_depth: 0.0,
                speed: 0.0,
                shifted: 0.0,
            }));
            apart.extend(kept.iter().map(|k| k.0));
            let keeps = &mut nearest[base[a as usize] + slot as usize];
            for at in start..out.len() {
                dropped |= keep_nearest(keeps, out, apart, at);
            }
        }
    }
    if dropped {
        out.retain(|c| c.a != u32::MAX);
    }
    // The contacts with triangles last, in their order: the passes that
    // leave them out ([`project`]) stop before them.
    triangles.clear();
    triangles.extend(out.iter().filter(|c| c.with_triangle()));
    if !triangles.is_empty() {
        out.retain(|c| !c.with_triangle());
        out.extend_from_slice(triangles);
    }
}

/// Where contact `c`'s pieces touch, `(s_a, s_b, normal into a, depth)`;
/// `center` is the centre of mass of `b` when it is a solid.
/// `near` keeps the last cloth triangle read, while nothing moves it.
fn touch(
    island: &[&mut Body],
    pa: &ParticlesMut,
    pb: &ParticlesMut,
    center: Vec3,
    c: &Contact,
    near: &mut Option<LastTriangle>,
) -> Option<Hit> {
    let ea = ends(pa, c.piece_a);
    if c.piece_b == Piece::Solid {
        let rb = solid(island[c.b as usize]);
        match c.piece_a {
            Piece::Ball(_) => pairs::touch(rb, pb, center, ea.0, c.radius_a).map(|(n, d)| (0.0, 0.0, n, d, c.tri)),
            _ => pairs::touch_stick(rb, pb, center, ea.0, ea.1, c.radius_a).map(|(s, n, d)| (s, 0.0, n, d, c.tri)),
        }
    } else if let Piece::Triangle(i, j, k) = c.piece_a {
        let Piece::Stick(a, b) = c.piece_b else { return None };
        // The stick's push, turned into a's.
        let t = triangle_now(near, c.a, [i, j, k], pa);
        let (s, tri, n, depth) = stick_triangle(pb, (a, b), t, c.radius_a + c.radius_b, c.side)?;
        Some((tri[0], s, -n, depth, tri))
    } else if let Piece::Triangle(i, j, k) = c.piece_b {
        let Piece::Stick(a, b) = c.piece_a else { return None };
        let t = triangle_now(near, c.b, [i, j, k], pb);
        let (s, tri, n, depth) = stick_triangle(pa, (a, b), t, c.radius_a + c.radius_b, c.side)?;
        Some((s, tri[0], n, depth, tri))
    } else {
        // Coincident centres: apart the way they came from.
        let fallback = || {
            (pa.previous(ends_first(c.piece_a)) - pb.previous(ends_first(c.piece_b))).try_normalize().unwrap_or(Vec3::Y)
        };
        capsules(ea, c.radius_a, ends(pb, c.piece_b), c.radius_b, fallback).map(|(s, t, n, d)| (s, t, n, d, c.tri))
    }
}

/// `(s_a, s_b, normal into a, depth, weights of a triangle's point)` of a
/// contact that touches.
type Hit = (f32, f32, Vec3, f32, [f32; 3]);

/// A cloth triangle as [`stick_triangle`] reads it in a pass: its corners,
/// their mean motion over the substep, its bounding ball (centre and
/// radius), its unit normal (zero for a sliver) and the reach of its edges
/// ([`triangle::edge_reach`]).
#[derive(Clone, Copy)]
struct TriangleNow {
    t: [Vec3; 3],
    moved: Vec3,
    centre: Vec3,
    spread: f32,
    n: Vec3,
    edge: f32,
}

/// The last triangle read in a pass (its body and particles) and what was
/// read: the sticks near a triangle are listed one after another.
type LastTriangle = (u32, [u32; 3], TriangleNow);

/// Triangle `tri` of body `body` (particles `pt`) now: from `near` when it
/// is the one read last (and nothing moved since: the pass forgets it
/// after each push), else read and kept there.
fn triangle_now<'a>(
    near: &'a mut Option<LastTriangle>,
    body: u32,
    tri: [u32; 3],
    pt: &ParticlesMut,
) -> &'a TriangleNow {
    if !matches!(near, Some((b, k, _)) if *b == body && *k == tri) {
        let t = tri.map(|i| pt.position(i as usize));
        let moved = (0..3).map(|k| t[k] - pt.previous(tri[k] as usize)).sum::<Vec3>() / 3.0;
        let centre = (t[0] + t[1] + t[2]) / 3.0;
        let spread = t.iter().fold(0.0f32, |m, &v| m.max(v.distance_squared(centre))).sqrt();
        let now = TriangleNow { t, moved, centre, spread, n: triangle::normal(&t), edge: triangle::edge_reach(&t) };
        *near = Some((body, tri, now));
    }
    &near.as_ref().expect("just read").2
}

/// A stick (particles `stick` of `ps`) against a cloth's triangle
/// (particles `tri` of `pt`) with `r` their radii summed, the stick on
/// `side` of the plane: `(s, weights of the triangle's point, the stick's
/// push direction, depth)`, or `None` apart.
///
/// The stick against the triangle as against a collider's
/// ([`triangle::segment_contact_on_side`]: closest points, or the deepest
/// end pushed back through the plane), the triangle's motion over the
/// substep taken out of the stick's so its reach tests see their relative
/// motion; the triangle's point is the one nearest the stick's.
fn stick_triangle(
    ps: &ParticlesMut,
    (a, b): (u32, u32),
    &TriangleNow { t, moved, centre, spread, n, edge }: &TriangleNow,
    r: f32,
    side: f32,
) -> Option<(f32, [f32; 3], Vec3, f32)> {
    let (xa, xb) = (ps.position(a as usize), ps.position(b as usize));
    let (a0, b0) = (ps.previous(a as usize) + moved, ps.previous(b as usize) + moved);
    // Apart when the stick is farther from the triangle's bounding ball
    // than the reach of the tests below (`r`, or `r` and the stick's motion
    // behind the plane), as most listed pairs are in most passes (a limb
    // lying on a sheet is near the plane of every triangle around it).
    let motion = xa.distance_squared(a0).max(xb.distance_squared(b0)).sqrt();
    let reach = spread + 2.0 * r + motion + 1e-3;
    let ab = xb - xa;
    let len2 = ab.length_squared();
    let along = if len2 > 0.0 { ((centre - xa).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    if centre.distance_squared(xa + ab * along) > reach * reach {
        return None;
    }
    if n == Vec3::ZERO {
        return None; // a sliver: its vertices collide as balls
    }
    // Both ends on the stick's side, `r` or more from the plane: every
    // point of it is as far from the triangle (a limb lying on a sheet is
    // near many triangles, over most of them).
    if side * n.dot(xa - t[0]) >= r && side * n.dot(xb - t[0]) >= r {
        return None;
    }
    // Both ends beyond one edge, farther out than the test below reaches
    // (the triangle's margin, at least `r`; the slack covers rounding):
    // every point of the stick is, and it would find nothing. A limb lying
    // on a sheet is as near the planes of the triangles beside it as of
    // those under it.
    let beyond = r.max(edge) * (1.0 + 1e-4) + 1e-6;
    for k in 0..3 {
        let (e0, e1) = (t[k], t[(k + 1) % 3]);
        // The edge's inward normal in the plane, |edge| long.
        let m = n.cross(e1 - e0);
        let reach = beyond * m.length();
        if m.dot(xa - e0) < -reach && m.dot(xb - e0) < -reach {
            return None;
        }
    }
    let (s, dir, depth) = triangle::segment_contact_on_side(xa, xb, a0, b0, r, &t, n, side, false)?;
    Some((s, barycentric(triangle::closest_point(xa.lerp(xb, s), &t), &t), dir, depth))
}

/// The barycentric weights of a point of the triangle `t` (clamped to it,
/// summing to 1).
fn barycentric(q: Vec3, t: &[Vec3; 3]) -> [f32; 3] {
    let (e0, e1, d) = (t[1] - t[0], t[2] - t[0], q - t[0]);
    let (d00, d01, d11) = (e0.dot(e0), e0.dot(e1), e1.dot(e1));
    let (d20, d21) = (d.dot(e0), d.dot(e1));
    let denom = d00 * d11 - d01 * d01;
    if denom <= 1e-12 * d00 * d11 || denom <= 0.0 {
        return [1.0 / 3.0; 3];
    }
    let v = ((d11 * d20 - d01 * d21) / denom).clamp(0.0, 1.0);
    let w = ((d00 * d21 - d01 * d20) / denom).clamp(0.0, 1.0 - v);
    [1.0 - v - w, v, w]
}

/// Enters contact `at` of `out` (ranked by its distance `apart[at]`, then
/// the other body and piece) among its piece's nearest; the one that falls
/// out, if any, is marked (`a = u32::MAX`) and `true` returned. Each pair
/// of bodies keeps that many per piece already, but a piece in a pile of
/// `k` bodies spawned into each other would keep `k` times as many: the
/// contacts, and the passes' cost, would grow as the square of the bodies.
fn keep_nearest(keeps: &mut Nearest, out: &mut [Contact], apart: &[f32], at: usize) -> bool {
    let at = at as u32;
    if (keeps.len as usize) < MAX_PAIRS_PER_PIECE {
        keeps.at[keeps.len as usize] = at;
        keeps.len += 1;
        return false;
    }
    let rank = |k: u32| (apart[k as usize], out[k as usize].b, key(out[k as usize].piece_b));
    let cmp = |p: (f32, u32, (u32, u32, u32, u32)), q: (f32, u32, (u32, u32, u32, u32))| {
        p.0.total_cmp(&q.0).then((p.1, p.2).cmp(&(q.1, q.2)))
    };
    let far = (0..MAX_PAIRS_PER_PIECE).max_by(|&i, &j| cmp(rank(keeps.at[i]), rank(keeps.at[j]))).expect("full");
    if cmp(rank(at), rank(keeps.at[far])).is_lt() {
        out[keeps.at[far] as usize].a = u32::MAX;
        keeps.at[far] = at;
    } else {
        out[at as usize].a = u32::MAX;
    }
    true
}

/// A piece's place in a fixed order (ties of the sorts above).
fn key(piece: Piece) -> (u32, u32, u32, u32) {
    match piece {
        Piece::Ball(i) => (0, i, 0, 0),
        Piece::Stick(a, b) => (1, a, b, 0),
        Piece::Solid => (2, 0, 0, 0),
        Piece::Triangle(a, b, c) => (3, a, b, c),
    }
}

/// The side of a triangle's plane a stick belongs to for the step (+1 the
/// front, the winding normal's), for a triangle piece met by a stick (1
/// for other pairs): the side its point nearest the triangle is on at the
/// step's start. A
/// stick pressed into a sheet during the step is pushed back to the side
/// it came from even past the sheet's middle, as a collider's triangle
/// does with the side a stick starts a substep on; the sheet moves too, so
/// its side is read once where the last step left it.
fn side_of(pa: &ParticlesMut, piece_a: Piece, pb: &ParticlesMut, piece_b: Piece) -> f32 {
    let (tri, stick) = match (piece_a, piece_b) {
        (Piece::Triangle(i, j, k), Piece::Stick(a, b)) => ((pa, [i, j, k]), (pb, a, b)),
        (Piece::Stick(a, b), Piece::Triangle(i, j, k)) => ((pb, [i, j, k]), (pa, a, b)),
        _ => return 1.0,
    };
    let t = tri.1.map(|i| tri.0.position(i as usize));
    let (a, b) = (stick.0.position(stick.1 as usize), stick.0.position(stick.2 as usize));
    // The stick's point nearest the triangle's centre: a long stick's
    // middle may be past the plane of a small tilted triangle by its end.
    let centre = (t[0] + t[1] + t[2]) / 3.0;
    let ab = b - a;
    let len2 = ab.length_squared();
    let along = if len2 > 0.0 { ((centre - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    if triangle::normal(&t).dot(a + ab * along - centre) < 0.0 { -1.0 } else { 1.0 }
}

/// Forgets the last substep's push-outs.
pub fn begin_substep(contacts: &mut [Contact]) {
    for c in contacts {
        c.depth = 0.0;
        c.shifted = 0.0;
    }
}

/// The ends of a piece now (a ball's twice).
fn ends(p: &ParticlesMut, piece: Piece) -> (Vec3, Vec3) {
    match piece {
        Piece::Ball(i) => (p.position(i as usize), p.position(i as usize)),
        Piece::Stick(a, b) => (p.position(a as usize), p.position(b as usize)),
        Piece::Triangle(a, ..) => (p.position(a as usize), p.position(a as usize)),
        Piece::Solid => (Vec3::ZERO, Vec3::ZERO),
    }
}

/// `(s_a, s_b, normal into a, depth)` of two capsules (a ball is a capsule
/// of one point) that touch.
fn capsules(
    a: (Vec3, Vec3),
    ra: f32,
    b: (Vec3, Vec3),
    rb: f32,
    fallback: impl FnOnce() -> Vec3,
) -> Option<(f32, f32, Vec3, f32)> {
    // Apart when their bounding balls are: every point of a segment is
    // within half its length of its middle. Most listed pairs are apart in
    // most passes, and this is a tenth of the search below; the margin
    // covers this test's rounding, so it answers only where the search
    // would.
    let (half_a, half_b) = (0.5 * (a.1 - a.0).length(), 0.5 * (b.1 - b.0).length());
    let reach = half_a + half_b + ra + rb;
    let gap = ((a.0 + a.1) - (b.0 + b.1)) * 0.5;
    let gap2 = gap.length_squared();
    if gap2 > (reach * (1.0 + 1e-4) + 1e-6).powi(2) {
        return None;
    }
    // Apart along the line between their middles (a separating axis, `g =
    // gap / |gap|`): each segment covers half its extent along it either
    // side of its middle, so they are apart when `|gap| - (|da.g| +
    // |db.g|) / 2 > ra + rb`, here times `|gap|`. Two limbs side by side
    // pass the balls' test and fail this one.
    let gap_len = gap2.sqrt();
    let cover = 0.5 * ((a.1 - a.0).dot(gap).abs() + (b.1 - b.0).dot(gap).abs());
    if gap2 - cover > ((ra + rb) * gap_len) * (1.0 + 1e-4) + 1e-4 * (gap2 + cover) + 1e-12 {
        return None;
    }
    let (mut s, mut t, mut x, mut y) = segment::closest_segment_segment(a.0, a.1, b.0, b.1);
    let (da, db) = (a.1 - a.0, b.1 - b.0);
    let (la, lb) = (da.length_squared(), db.length_squared());
    if la > 0.0 && lb > 0.0 && da.cross(db).length_squared() < PARALLEL * la * lb {
        // Nearly parallel (one lying along the other): the closest points
        // are anywhere along the overlap, and the ends the search returns
        // jump from one end to the other as they move. A point of the
        // overlap between its ends instead, each end weighing its depth
        // squared (and a hair more, so that two ends apart give the
        // middle): the middle when the two lie evenly, the deeper end when
        // one is tilted onto the other (6 degrees are 4.5 cm over a 0.43 m
        // thigh), and a contact that moves as smoothly as they do.
        let (u, v) = ((b.0 - a.0).dot(da) / la, (b.1 - a.0).dot(da) / la);
        let (lo, hi) = (u.min(v).max(0.0), u.max(v).min(1.0));
        if lo <= hi {
            let r = ra + rb;
            let weight = |s: f32| {
                let x = a.0 + da * s;
                let t = ((x - b.0).dot(db) / lb).clamp(0.0, 1.0);
                ((r - x.distance(b.0 + db * t)).max(0.0) + EVEN * r).powi(2)
            };
            let (w_lo, w_hi) = (weight(lo), weight(hi));
            s = (lo * w_lo + hi * w_hi) / (w_lo + w_hi);
            x = a.0 + da * s;
            t = ((x - b.0).dot(db) / lb).clamp(0.0, 1.0);
            y = b.0 + db * t;
        }
    }
    let d = x - y;
    let (dist2, r) = (d.length_squared(), ra + rb);
    if dist2 >= r * r {
        return None;
    }
    let dist = dist2.sqrt();
    let n = if dist > 1e-9 { d / dist } else { fallback() };
    Some((s, t, n, r - dist))
}

/// A piece's particles with the weights of one of its points.
type Weights = ([u32; 3], [f32; 3], usize);

/// The piece's particles with their weights for the point at `s` along it
/// (a triangle: with weights `tri`).
fn weights(piece: Piece, s: f32, tri: [f32; 3]) -> Weights {
    match piece {
        Piece::Ball(i) => ([i, i, i], [1.0, 0.0, 0.0], 1),
        Piece::Stick(a, b) => ([a, b, b], [1.0 - s, s, 0.0], 2),
        Piece::Triangle(a, b, c) => ([a, b, c], tri, 3),
        Piece::Solid => ([0, 0, 0], [0.0, 0.0, 0.0], 0),
    }
}

/// `sum c_i^2 w_i`: the inverse mass of a piece at the point with weights `c`.
fn inv_mass(p: &ParticlesMut, (ids, c, n): Weights) -> f32 {
    (0..n).map(|k| c[k] * c[k] * p.inv_mass[ids[k] as usize]).sum()
}

/// How [`move_piece`] moves a piece.
#[derive(Clone, Copy, PartialEq)]
enum Move {
    /// Its positions (a push-out: a velocity once the velocities are read).
    Position,
    /// Its positions and substep-start positions alike: a move without a
    /// velocity (a lodged penetration's fix).
    Shift,
    /// The substep's displacement (friction, in the velocity stage).
    Displacement,
}

/// Moves a piece's point (weights `c`) by `push / w_total`'s share: each
/// particle by `c_i w_i push`, as `how` says.
fn move_piece(p: &mut ParticlesMut, (ids, c, n): Weights, push: Vec3, how: Move) {
    for k in 0..n {
        let i = ids[k] as usize;
        let dx = push * (c[k] * p.inv_mass[i]);
        match how {
            Move::Displacement => p.add_displacement(i, dx),
            Move::Position => p.set_position(i, p.position(i) + dx),
            Move::Shift => p.shift(i, dx),
        }
    }
}

fn solid(body: &Body) -> &Rigid {
    body.rigid.as_deref().expect("a solid is a rigid body")
}

/// One pass over the contacts; `frames` is scratch. With `triangles`
/// false, a cloth's triangles are left for a later pass: the passes between
/// a ragdoll's own (`solver`) take the contacts of its sticks with balls
/// and solids, the pass after them those with triangles too (a sheet
/// under a pile lists thousands, each costing a segment-triangle search).
///
/// Of a contact's penetration, what its pieces' approach since the substep
/// began (`x - x'` along the normal) explains is pushed out at once, which
/// cancels that approach as any contact does; the rest (bodies spawned into
/// each other, what the last substep's passes left, what another contact's
/// fix moved a piece into) is taken out by at most `MAX_PUSH_SPEED h` a
/// substep and without a velocity (positions and substep-start positions
/// moved alike, as `rigid::pairs` takes out a lodged penetration). Pushed
/// out at once, it was a velocity of `depth / h`, and the velocity stage's
/// cap at each contact did not hold it: twelve particle clouds spawned
/// into each other flew apart at 19 to 25 m/s at 8 substeps (76 at 32), the
/// fix of one contact pushing pieces into others.
pub fn project(
    island: &mut [&mut Body],
    views: &mut [ParticlesMut],
    contacts: &mut [Contact],
    frames: &mut Vec<Frame>,
    supports: Option<&[ContactsMut]>,
) {
    let contacts = if supports.is_some() {
        contacts
    } else {
        let others = contacts.partition_point(|c| !c.with_triangle());
        &mut contacts[..others]
    };
    if contacts.is_empty() {
        return;
    }
    if contacts.iter().any(|c| c.piece_b == Piece::Solid) {
        pairs::frames_now(island, views, frames);
    }
    let mut near = None;
    for c in contacts.iter_mut() {
        let (a, b) = (c.a as usize, c.b as usize);
        let (pa, pb) = pairs::two(views, a, b);
        let center = if c.piece_b == Piece::Solid { frames[b].center } else { Vec3::ZERO };
        let Some((s_a, s_b, n, inside, tri)) = touch(island, pa, pb, center, c, &mut near) else { continue };
        let wa_ids = weights(c.piece_a, s_a, tri);
        // How far the pieces moved into each other since the substep began
        // (`x - x'`, which a fix without a velocity leaves alone): a solid
        // by its centre of mass.
        let moved_b = match c.piece_b {
            Piece::Solid => solid_moved(solid(island[b]), pb),
            piece => moved_since(pb, weights(piece, s_b, tri)),
        };
        let approach = (-n.dot(moved_since(pa, wa_ids) - moved_b)).max(0.0);
        let fresh = inside.min(approach);
        let fixed = (inside - fresh).min(MAX_PUSH_SPEED * pa.h - c.shifted).max(0.0);
        c.shifted += fixed;
        let depth = fresh + fixed;
        if depth <= 0.0 {
            continue;
        }
        near = None; // the pieces move
        if c.depth == 0.0 {
            // The approach before this substep's pushes: the velocities are
            // still those the substep began with.
            let vb = match c.piece_b {
                Piece::Solid => mean_velocity(solid(island[b]), pb),
                piece => velocity(pb, weights(piece, s_b, tri)),
            };
            c.speed = c.speed.max(-(velocity(pa, wa_ids) - vb).dot(n));
        }
        let q = match c.piece_a {
            Piece::Triangle(..) => point(pa, wa_ids),
            piece => {
                let ea = ends(pa, piece);
                ea.0.lerp(ea.1, s_a)
            }
        } - n * c.radius_a;
        let wa_ids = ground_held(c.piece_a, wa_ids, supports.map(|s| &s[a]), n);
        let wa = inv_mass(pa, wa_ids);
        let w = if c.piece_b == Piece::Solid {
            let fb = &mut frames[b];
            let w = wa + pairs::inv_mass_at(fb, q, n);
            if w <= 0.0 {
                continue;
            }
            let rb = solid(island[b]);
            pairs::shove(rb, fb, pb, q, -n * (fresh / w), false);
            if fixed > 0.0 {
                pairs::shift_at(rb, fb, pb, q, -n * (fixed / w));
            }
            w
        } else {
            let wb_ids = ground_held(c.piece_b, weights(c.piece_b, s_b, tri), supports.map(|s| &s[b]), -n);
            let w = wa + inv_mass(pb, wb_ids);
            if w <= 0.0 {
                continue;
            }
            move_piece(pb, wb_ids, -n * (fresh / w), Move::Position);
            if fixed > 0.0 {
                move_piece(pb, wb_ids, -n * (fixed / w), Move::Shift);
            }
            w
        };
        move_piece(pa, wa_ids, n * (fresh / w), Move::Position);
        if fixed > 0.0 {
            move_piece(pa, wa_ids, n * (fixed / w), Move::Shift);
        }
        c.depth += depth;
        c.normal = n;
        c.s_a = s_a;
        c.s_b = s_b;
        c.tri = tri;
        c.at = q;
    }
}

/// A triangle's weights with those of its vertices that a collider pushed
/// against `push` this substep made 0: held, they do not give way, and the
/// other piece takes the whole push. A sheet lying on the ground under a
/// body gave way to it, into the ground, whose push in the next pass went
/// back into the body: the two ended 2.3 cm into each other, the sheet
/// 1.3 cm under the ground (tests/torture.rs, ragdolls piled on cloth).
/// (Shock propagation, Guendelman et al. 2003, for one layer.)
fn ground_held(piece: Piece, w: Weights, supports: Option<&ContactsMut>, push: Vec3) -> Weights {
    let (Piece::Triangle(..), Some(s)) = (piece, supports) else { return w };
    let (ids, mut c, n) = w;
    for k in 0..n {
        let i = ids[k] as usize;
        if (s.depth[i] > 0.0 || s.step_depth[i] > 0.0) && push.dot(Vec3::new(s.nx[i], s.ny[i], s.nz[i])) < 0.0 {
            c[k] = 0.0;
        }
    }
    (ids, c, n)
}

/// The first particle of a piece (for a fallback direction).
fn ends_first(piece: Piece) -> usize {
    particles_of(piece).0[0] as usize
}

/// Where a piece's point with weights `c` is.
fn point(p: &ParticlesMut, (ids, c, n): Weights) -> Vec3 {
    (0..n).map(|k| p.position(ids[k] as usize) * c[k]).sum()
}

/// The displacement over the substep of a piece's point with weights `c`.
fn moved(p: &ParticlesMut, (ids, c, n): Weights) -> Vec3 {
    (0..n).map(|k| p.displacement(ids[k] as usize) * c[k]).sum()
}

/// How far a piece's point with weights `c` moved since the substep began.
fn moved_since(p: &ParticlesMut, (ids, c, n): Weights) -> Vec3 {
    (0..n).map(|k| (p.position(ids[k] as usize) - p.previous(ids[k] as usize)) * c[k]).sum()
}

/// How far a rigid body's centre of mass moved since the substep began.
fn solid_moved(r: &Rigid, p: &ParticlesMut) -> Vec3 {
    let (mut m, mut moved) = (0.0, Vec3::ZERO);
    for &i in r.clusters.particle.iter() {
        let (i, w) = (i as usize, p.inv_mass[i as usize]);
        if w > 0.0 {
            (m, moved) = (m + 1.0 / w, moved + (p.position(i) - p.previous(i)) / w);
        }
    }
    if m > 0.0 { moved / m } else { Vec3::ZERO }
}

/// The velocity of a piece's point with weights `c`.
fn velocity(p: &ParticlesMut, (ids, c, n): Weights) -> Vec3 {
    (0..n).map(|k| p.velocity(ids[k] as usize) * c[k]).sum()
}

/// The mass-weighted mean velocity of a rigid body's particles.
fn mean_velocity(r: &Rigid, p: &ParticlesMut) -> Vec3 {
    let (mut m, mut mv) = (0.0, Vec3::ZERO);
    for &i in r.clusters.particle.iter() {
        let w = p.inv_mass[i as usize];
        if w > 0.0 {
            (m, mv) = (m + 1.0 / w, mv + p.velocity(i as usize) / w);
        }
    }
    if m > 0.0 { mv / m } else { Vec3::ZERO }
}

/// The friction stage of the contacts (after the velocities are updated),
/// and the cap on the speed their push-outs give.
pub fn friction(island: &[&mut Body], views: &mut [ParticlesMut], contacts: &mut [Contact]) {
    for c in contacts.iter_mut() {
        if c.depth <= 0.0 {
            continue;
        }
        c.step_depth = c.step_depth.max(c.depth);
        let (a, b) = (c.a as usize, c.b as usize);
        let (pa, pb) = pairs::two(views, a, b);
        let h = pa.h;
        let wa_ids = weights(c.piece_a, c.s_a, c.tri);
        let wa = inv_mass(pa, wa_ids);
        let relative = |pa: &ParticlesMut, pb: &ParticlesMut| {
            let moved_b = if c.piece_b == Piece::Solid {
                let m = crate::ragdoll::motion::motion(&solid(island[b]).clusters, 0, pb);
                m.as_ref().map_or(Vec3::ZERO, |m| m.displacement + m.turn.cross(c.at - m.center))
            } else {
                moved(pb, weights(c.piece_b, c.s_b, c.tri))
            };
            moved(pa, wa_ids) - moved_b
        };
        let cut =
            crate::collision::friction::tangential_cut(relative(pa, pb), c.normal, c.friction, c.friction, c.depth);
        take_back(island, pa, pb, c, wa, cut);
        // The speed apart the push-outs gave beyond `MAX_PUSH_SPEED` is taken
        // back through the same response, as between rigid bodies
        // (`rigid::pairs::friction`): a ragdoll's limb lodged under a crate
        // sliding off a pile was pushed out in one substep and threw the
        // crate up at 12 m/s (the showcase's pile).
        let excess = crate::collision::friction::push_excess(c.normal.dot(relative(pa, pb)), 0.0, h);
        take_back(island, pa, pb, c, wa, c.normal * excess);
    }
}

/// Takes the relative displacement `cut` of contact `c`'s piece `a` against
/// its piece `b` away, shared through their responses (`wa`: a's inverse
/// mass at the contact).
fn take_back(island: &[&mut Body], pa: &mut ParticlesMut, pb: &mut ParticlesMut, c: &Contact, wa: f32, cut: Vec3) {
    let len = cut.length();
    if len <= 1.0e-12 {
        return;
    }
    let t = cut / len;
    let wa_ids = weights(c.piece_a, c.s_a, c.tri);
    if c.piece_b == Piece::Solid {
        let r = solid(island[c.b as usize]);
        let mut f = pairs::frame(r, pb);
        let w = wa + pairs::inv_mass_at(&f, c.at, t);
        if w <= 0.0 {
            return;
        }
        pairs::shove(r, &mut f, pb, c.at, cut / w, true);
        move_piece(pa, wa_ids, -cut / w, Move::Displacement);
    } else {
        let wb_ids = weights(c.piece_b, c.s_b, c.tri);
        let w = wa + inv_mass(pb, wb_ids);
        if w <= 0.0 {
            return;
        }
        move_piece(pb, wb_ids, cut / w, Move::Displacement);
        move_piece(pa, wa_ids, -cut / w, Move::Displacement);
    }
}

/// The particle of a piece nearest the point (a rigid body: of all its
/// particles).
fn nearest(body: &Body, p: &ParticlesMut, piece: Piece, point: Vec3) -> u32 {
    let (ids, n) = particles_of(piece);
    let all: &[u32] = match (piece, &body.rigid) {
        (Piece::Solid, Some(r)) => &r.clusters.particle,
        _ => &ids[..n],
    };
    let distance = |i: u32| p.position(i as usize).distance_squared(point);
    all.iter().copied().min_by(|&i, &j| distance(i).total_cmp(&distance(j))).unwrap_or(0)
}

/// Appends the island's contacts that touched this step to `out`, in world
/// space (`origin`: the island's frame); `slots` are its members' body
/// slots. The contacts number its bodies from `first` (its place in a
/// pack of islands).
#[allow(clippy::too_many_arguments)] // the island's parts, borrowed separately
pub fn record(
    island_index: u32,
    slots: &[u32],
    island: &[&mut Body],
    views: &[ParticlesMut],
    contacts: &[Contact],
    first: u32,
    origin: Vec3,
    out: &mut Vec<Touch>,
) {
    // Room for every stored contact, so that more of them touching in a
    // later step does not allocate (the store itself is kept).
    out.reserve(contacts.len());
    for (k, c) in contacts.iter().enumerate() {
        if c.step_depth <= 0.0 {
            continue;
        }
        let (a, b) = ((c.a - first) as usize, (c.b - first) as usize);
        out.push(Touch {
            island: island_index,
            order: k as u32,
            body_a: slots[a],
            particle_a: nearest(island[a], &views[a], c.piece_a, c.at),
            body_b: slots[b],
            particle_b: nearest(island[b], &views[b], c.piece_b, c.at),
            point: c.at + origin,
            at: c.at,
            frame: origin,
            normal: c.normal,
            depth: c.step_depth,
            speed: c.speed,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::test_rng::Rng;

    /// The first tests of two capsules (bounding balls, the axis between
    /// their middles) turn away no pair that touches: 100,000 random pairs
    /// of sticks and balls, near the origin and 2.6 km out (not nearly
    /// parallel ones, whose contact is the overlap's middle).
    #[test]
    fn capsules_that_touch_pass_the_first_tests() {
        let mut rng = Rng(11);
        let (mut touching, mut found) = (0, 0);
        for k in 0..100_000 {
            let far = if k % 2 == 0 { Vec3::ZERO } else { Vec3::new(900.0, -40.0, 2500.0) };
            let a0 = far + rng.vec() * 0.6;
            let a1 = if k % 7 == 0 { a0 } else { a0 + rng.vec() * 0.5 };
            let b0 = far + rng.vec() * 0.6;
            let b1 = if k % 5 == 0 { b0 } else { b0 + rng.vec() * 0.5 };
            let (ra, rb) = (0.02 + 0.1 * rng.next().abs(), 0.02 + 0.1 * rng.next().abs());
            let (da, db) = (a1 - a0, b1 - b0);
            if da.cross(db).length_squared() < 2.0 * PARALLEL * da.length_squared() * db.length_squared() {
                continue; // nearly parallel: decided at the overlap's middle, by design
            }
            let (_, _, x, y) = segment::closest_segment_segment(a0, a1, b0, b1);
            if x.distance(y) < (ra + rb) * 0.999 {
                touching += 1;
                let hit = capsules((a0, a1), ra, (b0, b1), rb, || Vec3::Y);
                assert!(hit.is_some(), "pair {k}: {a0} {a1} ({ra}) and {b0} {b1} ({rb}) touch, turned away");
                found += 1;
            }
        }
        assert!(touching > 2_000, "only {touching} touching pairs");
        assert_eq!(found, touching);
    }

    /// Two nearly parallel sticks (within `PARALLEL`): one tilted onto the
    /// other meets it at the deeper end, as deep as the exact closest points
    /// say; two lying evenly meet at the overlap's middle. A thigh tilted 5
    /// degrees onto another, touching 2 cm deep at one end, was met at the
    /// middle of their overlap 0.2 cm deep, and stayed 1.9 cm inside it
    /// for seconds in a pile of humanoids (tests/bodies.rs).
    #[test]
    fn nearly_parallel_sticks_meet_where_they_are_deepest() {
        for far in [Vec3::ZERO, Vec3::new(900.0, -40.0, 2500.0)] {
            let (r, length, tilt) = (0.07, 0.43, 5.0f32.to_radians());
            let a = (far, far + Vec3::X * length);
            for (k, gap) in [0.12f32, 0.10, 0.135].into_iter().enumerate() {
                let b0 = far + Vec3::new(0.0, gap, 0.0);
                let b = if k % 2 == 0 {
                    (b0, b0 + Vec3::new(tilt.cos(), tilt.sin(), 0.0) * length)
                } else {
                    (b0 + Vec3::new(tilt.cos(), tilt.sin(), 0.0) * length, b0)
                };
                let (_, _, x, y) = segment::closest_segment_segment(a.0, a.1, b.0, b.1);
                let exact = 2.0 * r - x.distance(y);
                let (s, _, _, depth) = capsules(a, r, b, r, || Vec3::Y).expect("they touch");
                assert!(
                    depth > 0.97 * exact && depth <= exact + 1e-4,
                    "gap {gap} at {far}: depth {depth}, exactly {exact}"
                );
                assert!(s < 0.05, "gap {gap} at {far}: met at {s} along, not at the deep end");
            }
            let b = (far + Vec3::new(0.1, 0.12, 0.0), far + Vec3::new(0.3, 0.12, 0.0));
            let (s, _, _, depth) = capsules(a, r, b, r, || Vec3::Y).expect("they touch");
            assert!((s - 0.2 / length).abs() < 1e-4 && (depth - 0.02).abs() < 1e-4, "even: met at {s}, {depth} deep");
        }
    }
}
