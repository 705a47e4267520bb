//! Contacts between rigid bodies of an island, solved as between rigid
//! bodies (the XPBD rigid-body contact of Mueller et al. 2020, "Detailed
//! Rigid Body Simulation with Extended Position Based Dynamics").
//!
//! A pair is a collision sphere of body `a` against the solid of body `b`:
//! its box, ball or capsule placed at `b`'s current fit (a convex solid is
//! the union of its collision spheres). A sphere inside the solid is pushed
//! out along the solid's surface normal, so a box rests on another box's
//! flat face (spheres on spheres would roll off each other). The push-out of
//! depth `d` at the point `q` is shared by the two bodies as rigid bodies:
//! `lambda = d / (w_a + w_b)`, `w = 1/M + (r x n) . I^-1 (r x n)`, and each
//! body's particles move by the translation `lambda n / M` and the turn
//! `I^-1 (r x lambda n)`. Friction, in the velocity stage, takes the
//! relative tangential motion at `q` away (never reversing it) by an
//! impulse of at most `mu` times the pair's share of its patch's normal
//! impulse (Coulomb; the patch: the two bodies' pairs along one normal,
//! see [`friction`]), through the same rigid response; `mu` is the
//! geometric mean of both bodies'. A penetration a substep starts with is taken out
//! gradually and without a velocity (`project`), and the speed apart along
//! `n` that pushes still give beyond `collision::friction::MAX_PUSH_SPEED`
//! is taken back.
//!
//! Before the shared passes, a body resting on another is lifted (and
//! turned) onto it, bottom-up, the lower one held (`propagate`: shock
//! propagation), so a stack stands at one substep.
//!
//! Candidate pairs are listed once per step: spheres that may reach the other
//! solid's bounding ball during the step. Both directions are listed (a
//! box's corner in the other's face, and the other's corner in its face).

use super::motion;
use super::{Rigid, RigidShape};
use crate::body::Body;
use crate::collision::capsule::Capsule;
use crate::collision::cuboid::Cuboid;
use crate::collision::friction::{MAX_PUSH_SPEED, push_excess, split_push};
use crate::collision::sphere::Sphere;
use crate::collision::{Shape, ball_contact, segment};
use crate::particles::ParticlesMut;
use glam::{Mat3, Vec3};

/// A collision sphere of one body against the solid of another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    /// Island member with the sphere, and the sphere.
    pub a: u32,
    pub point: u32,
    /// Island member with the solid.
    pub b: u32,
    pub friction: f32,
    /// Push-out of the current substep, its direction (into `a`) and where.
    pub depth: f32,
    pub normal: Vec3,
    pub at: Vec3,
    /// Penetration the substep started with (`lodged`), taken out at
    /// `MAX_PUSH_SPEED` at most; and what the last pass left (the next
    /// substep's `lodged`).
    pub lodged: f32,
    pub left: f32,
    /// The first listed pair of the same two bodies the other way round (a
    /// sphere of `b` against the solid of `a`), `u32::MAX` if none: where
    /// [`friction`] looks for the rest of the pair's patch.
    pub mate: u32,
    /// Scratch of the friction stage: the pair whose patch this is (the
    /// patch's first touching pair), the patch's normal impulse and its
    /// count of touching pairs (kept by that first pair), this pair's share
    /// of it (friction's bound over `mu`), and friction's impulse
    /// accumulated over the sweeps (on `b`; `a` gets its opposite).
    pub patch: u32,
    pub sum: f32,
    pub count: u32,
    pub bound: f32,
    pub impulse: Vec3,
    /// Scratch of [`propagate`]: how far (m, along `up`) the lift is to
    /// raise the pair's point (negative: a gap), `-inf` if the pair is not
    /// in the lift, then the impulse that would do it alone; whether it
    /// touches; the lift's impulse at the pair; `r x up` at its point and
    /// `I^-1 (r x up)` of the upper body.
    pub rise: f32,
    pub touching: bool,
    pub lifted: f32,
    pub lever: Vec3,
    pub spin: Vec3,
}

/// A body seen as a rigid body for one pass.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub(crate) center: Vec3,
    pub(crate) inv_mass: f32,
    pub(crate) inv_inertia: Mat3,
    /// Scratch of [`propagate`]: how many bodies this one is above (by
    /// centre) among those it has pairs with.
    pub(crate) supports: u32,
}

impl Pair {
    /// Sphere `point` of member `a` near the solid of member `b`, as the
    /// step lists it: not pushed yet, `left` of a penetration already there.
    fn listed(a: u32, point: u32, b: u32, friction: f32, left: f32) -> Pair {
        Pair {
            a,
            point,
            b,
            friction,
            depth: 0.0,
            normal: Vec3::Y,
            at: Vec3::ZERO,
            lodged: 0.0,
            left,
            mate: u32::MAX,
            patch: 0,
            sum: 0.0,
            count: 0,
            bound: 0.0,
            impulse: Vec3::ZERO,
            rise: 0.0,
            touching: false,
            lifted: 0.0,
            lever: Vec3::ZERO,
            spin: Vec3::ZERO,
        }
    }
}

impl Frame {
    /// A body that does not move (a placeholder for members not rigid).
    pub(crate) fn fixed() -> Frame {
        Frame { center: Vec3::ZERO, inv_mass: 0.0, inv_inertia: Mat3::ZERO, supports: 0 }
    }
}

/// Largest speed of a body's particles (m/s).
fn speed(body: &Body, p: &ParticlesMut) -> f32 {
    (0..body.count).map(|i| p.velocity(i).length()).fold(0.0, f32::max)
}

/// The centre of mass of a rigid body's particles.
fn center(r: &Rigid, p: &ParticlesMut) -> Vec3 {
    r.center(|i| (p.position(i), p.inv_mass[i]))
}

/// The body's solid where its fit puts it: centre of mass `c`, rotation
/// since creation from its cluster.
fn shape_center(r: &Rigid, c: Vec3) -> Vec3 {
    c + r.clusters.rotation[0] * r.origin
}

/// Radius of the ball around the solid's centre that holds it.
fn reach(r: &Rigid) -> f32 {
    super::build::extent(&r.def.shape) + r.origin.length()
}

/// Buffers of [`find`], kept between steps.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    rigid: Vec<usize>,
    centers: Vec<Vec3>,
}

/// Lists the pairs of the island's rigid bodies that may meet during the
/// step (`ahead` = the step's length, s).
pub fn find(island: &[&mut Body], views: &[ParticlesMut], ahead: f32, out: &mut Vec<Pair>, scratch: &mut Scratch) {
    out.clear();
    let Scratch { rigid, centers } = scratch;
    rigid.clear();
    rigid.extend((0..island.len()).filter(|&k| island[k].rigid.is_some()));
    if rigid.len() < 2 {
        return;
    }
    centers.clear();
    centers.extend((0..island.len()).map(|k| island[k].rigid.as_ref().map_or(Vec3::ZERO, |r| center(r, &views[k]))));
    for &a in rigid.iter() {
        let ra = island[a].rigid.as_ref().expect("rigid");
        let motion_a = speed(island[a], &views[a]) * ahead;
        for &b in rigid.iter() {
            if a == b || !island[a].filter.meets(&island[b].filter) {
                continue;
            }
            let rb = island[b].rigid.as_ref().expect("rigid");
            let c = shape_center(rb, centers[b]);
            let limit = reach(rb) + ra.radius + motion_a + speed(island[b], &views[b]) * ahead + 0.01;
            let friction = (ra.def.friction * rb.def.friction).sqrt();
            for (j, e) in ra.points.iter().enumerate() {
                let x = e.position(&views[a]);
                if (x - c).length_squared() < limit * limit {
                    // Already inside (spawned so, or left so by the last
                    // step): a penetration to take out gradually.
                    let left = touch(rb, &views[b], centers[b], x, ra.radius).map_or(0.0, |(_, d)| d);
                    out.push(Pair::listed(a as u32, j as u32, b as u32, friction, left));
                }
            }
        }
    }
    // Each pair's mate: the bodies' pairs are listed together, `a` in
    // ascending order, so the other way round's come first when `a > b`.
    let mut start = 0;
    while start < out.len() {
        let (a, b) = (out[start].a, out[start].b);
        let end = start + out[start..].iter().take_while(|p| p.a == a && p.b == b).count();
        if a > b
            && let Some(m) = out[..start].iter().position(|p| p.a == b && p.b == a)
        {
            out[start..end].iter_mut().for_each(|p| p.mate = m as u32);
            out[m..start].iter_mut().take_while(|p| p.a == b && p.b == a).for_each(|p| p.mate = start as u32);
        }
        start = end;
    }
}

/// Forgets the last substep's push-outs; what it left inside is this
/// substep's lodged penetration.
pub fn begin_substep(pairs: &mut [Pair]) {
    for pair in pairs {
        pair.depth = 0.0;
        pair.lodged = pair.left;
    }
}

/// Two distinct elements of a slice, mutably, in the order asked.
pub(crate) fn two<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

/// The body as a rigid body now; a body with a pinned particle does not
/// move (inverse mass 0).
pub(crate) fn frame(r: &Rigid, p: &ParticlesMut) -> Frame {
    let c = center(r, p);
    let pinned = r.clusters.particle.iter().any(|&i| p.inv_mass[i as usize] == 0.0);
    let (mass, inertia) = r.clusters.rigid_mass_properties(0, p, c);
    if pinned || inertia.determinant().abs() < 1.0e-30 {
        return Frame { center: c, inv_mass: 0.0, inv_inertia: Mat3::ZERO, supports: 0 };
    }
    Frame { center: c, inv_mass: 1.0 / mass, inv_inertia: inertia.inverse(), supports: 0 }
}

/// A pair's height for [`propagate`]'s order: of its bodies' centres `a`
/// and `b` along `up`. A NaN (an island gone non-finite, which the
/// recovery will reset) is made one NaN: a NaN's sign and payload may
/// differ between two evaluations of the same sum (the compiler may swap an
/// addition's operands, and the NaN kept is the first's), and a sort whose
/// keys change between comparisons panics (a random-call fuzz stream did,
/// inside `sinew_world_step`).
fn sort_height(up: Vec3, a: Vec3, b: Vec3) -> f32 {
    let height = up.dot(a + b);
    if height.is_nan() { f32::NAN } else { height }
}

/// `1/M + (r x n) . I^-1 (r x n)` at `q` along `n`.
pub(crate) fn inv_mass_at(f: &Frame, q: Vec3, n: Vec3) -> f32 {
    let rn = (q - f.center).cross(n);
    f.inv_mass + rn.dot(f.inv_inertia * rn)
}

/// Moves the body as a rigid body by the push `push` (lambda n) at `q`.
pub(crate) fn shove(r: &Rigid, f: &mut Frame, p: &mut ParticlesMut, q: Vec3, push: Vec3, previous: bool) {
    let linear = rigid_moves(r, f, p, q, push, |p, i, dx| {
        if previous {
            p.add_displacement(i, dx);
        } else {
            p.set_position(i, p.position(i) + dx);
        }
    });
    if !previous {
        f.center += linear;
    }
}

/// Moves the body by the push `push` (lambda n) as a whole, without a
/// turn, its positions and substep-start positions alike: a move without a
/// velocity (a lodged penetration's fix; `lambda = depth / (1/M_a +
/// 1/M_b)`).
///
/// Without a turn: a turn made here is no velocity, so neither friction nor
/// the velocity stage sees it, and the fixes of a stack's small lodged
/// penetrations, taken corner after corner, turned its boxes by a little
/// every substep and slid them: a stack of ten 1 m boxes at 8 substeps
/// crept 4 cm in 10 s (1.4 cm without the turn).
pub(crate) fn shift(r: &Rigid, f: &mut Frame, p: &mut ParticlesMut, push: Vec3) {
    let q = f.center;
    shift_at(r, f, p, q, push);
}

/// Moves the body as [`shove`] does its positions (the push `push` at
/// `q`, turning it), and its substep-start positions alike: a move without
/// a velocity.
pub(crate) fn shift_at(r: &Rigid, f: &mut Frame, p: &mut ParticlesMut, q: Vec3, push: Vec3) {
    f.center += rigid_moves(r, f, p, q, push, |p, i, dx| {
        p.shift(i, dx);
    });
}

/// Moves the body's positions by `linear` and the turn `turn` about its
/// centre (a velocity); returns the centre's move.
fn turn_moves(r: &Rigid, f: &Frame, p: &mut ParticlesMut, linear: Vec3, turn: Vec3) -> Vec3 {
    for &i in r.clusters.particle.iter() {
        let i = i as usize;
        if p.inv_mass[i] > 0.0 {
            let dx = linear + turn.cross(p.position(i) - f.center);
            p.set_position(i, p.position(i) + dx);
        }
    }
    linear
}

/// Each free particle's move `dx` for the push `push` at `q`, handed to
/// `apply`; returns the centre's move.
fn rigid_moves(
    r: &Rigid,
    f: &Frame,
    p: &mut ParticlesMut,
    q: Vec3,
    push: Vec3,
    mut apply: impl FnMut(&mut ParticlesMut, usize, Vec3),
) -> Vec3 {
    let linear = push * f.inv_mass;
    let turn = f.inv_inertia * (q - f.center).cross(push);
    for &i in r.clusters.particle.iter() {
        let i = i as usize;
        if p.inv_mass[i] > 0.0 {
            let dx = linear + turn.cross(p.position(i) - f.center);
            apply(p, i, dx);
        }
    }
    linear
}

/// Where sphere `x` of radius `radius` touches body `b`'s solid: the normal
/// (out of the solid) and the depth.
pub(crate) fn touch(rb: &Rigid, pb: &ParticlesMut, c: Vec3, x: Vec3, radius: f32) -> Option<(Vec3, f32)> {
    let turn = rb.clusters.rotation[0];
    let origin = c + turn * rb.origin;
    match &rb.def.shape {
        RigidShape::Box { half_extents } => {
            Cuboid::new(origin, turn * rb.def.rotation, *half_extents, 0).contact(x, radius)
        }
        RigidShape::Sphere { radius: big } => Sphere::new(origin, *big, 0).contact(x, radius),
        RigidShape::Capsule { half_height, radius: thick } => {
            let axis = turn * rb.def.rotation * Vec3::Y * *half_height;
            Capsule::new(origin - axis, origin + axis, *thick, 0).contact(x, radius)
        }
        RigidShape::Convex { .. } => rb
            .points
            .iter()
            .filter_map(|e| ball_contact(x, e.position(pb), rb.radius + radius, Vec3::Y))
            .fold(None, |best: Option<(Vec3, f32)>, hit| match best {
                Some(b) if b.1 >= hit.1 => Some(b),
                _ => Some(hit),
            }),
    }
}

/// Where the capsule of radius `radius` around `a b` touches body `b`'s
/// solid: `(s, normal, depth)`, the capsule's point `a + s (b - a)` to be
/// moved along the normal (out of the solid) by the depth.
pub(crate) fn touch_stick(
    rb: &Rigid,
    pb: &ParticlesMut,
    c: Vec3,
    a: Vec3,
    b: Vec3,
    radius: f32,
) -> Option<(f32, Vec3, f32)> {
    let turn = rb.clusters.rotation[0];
    let origin = c + turn * rb.origin;
    match &rb.def.shape {
        RigidShape::Box { half_extents } => {
            segment::vs_box(a, b, radius, origin, Mat3::from_quat(turn * rb.def.rotation), *half_extents)
        }
        RigidShape::Sphere { radius: big } => segment::vs_sphere(a, b, radius, origin, *big),
        RigidShape::Capsule { half_height, radius: thick } => {
            let axis = turn * rb.def.rotation * Vec3::Y * *half_height;
            segment::vs_capsule(a, b, radius, origin - axis, origin + axis, *thick)
        }
        RigidShape::Convex { .. } => rb
            .points
            .iter()
            .filter_map(|e| segment::vs_sphere(a, b, radius, e.position(pb), rb.radius))
            .fold(None, |best: Option<(f32, Vec3, f32)>, hit| match best {
                Some(b) if b.2 >= hit.2 => Some(b),
                _ => Some(hit),
            }),
    }
}

/// The island's rigid bodies as rigid bodies for one pass (a shape-matched
/// body's fit is current, its projection made it; a tetrahedron's is
/// brought up to date); other members get a placeholder.
pub(crate) fn frames_now(island: &mut [&mut Body], views: &[ParticlesMut], frames: &mut Vec<Frame>) {
    for (body, p) in island.iter_mut().zip(views.iter()) {
        if let Some(r) = &mut body.rigid
            && matches!(r.def.model, super::RigidModel::Tetrahedron)
        {
            r.clusters.fit_rigid(0, p);
        }
    }
    frames.clear();
    frames.extend(island.iter().zip(views.iter()).map(|(b, p)| match &b.rigid {
        Some(r) => frame(r, p),
        None => Frame::fixed(),
    }));
}

/// One pass over the pairs; `frames` is scratch, `h` the substep; every
/// other pass (`backwards`) takes them in the reverse order.
///
/// What a sphere's approach during the substep pushed in is pushed out at
/// once (that velocity is cancelled, as any contact does); a penetration
/// the substep started with (`lodged`) is taken out by `MAX_PUSH_SPEED h` a
/// substep at most and without a velocity ([`shift`]; the push-out speed cap
/// of Box2D v3's soft contacts, whose relax iterations take the push speed
/// back), so bodies spawned into each other part at that speed and stop,
/// instead of flying apart at `depth / h`.
///
/// Each push turns the bodies a little, and the next pair meets them so
/// turned: in one fixed order those turns left a net turn and slide every
/// substep, the same each time, and a stack crept. A stack of ten 1 m
/// boxes at 8 substeps had its top 19 mm sideways (a steady 1 cm/s) by
/// the time it fell asleep. Forwards then backwards (symmetric
/// Gauss-Seidel) the order's bias mostly cancels: 7 mm.
pub fn project(
    island: &mut [&mut Body],
    views: &mut [ParticlesMut],
    pairs: &mut [Pair],
    frames: &mut Vec<Frame>,
    h: f32,
    backwards: bool,
) {
    if pairs.is_empty() {
        return;
    }
    frames_now(island, views, frames);
    let island = &*island;
    let n = pairs.len();
    for k in 0..n {
        let pair = &mut pairs[if backwards { n - 1 - k } else { k }];
        let (a, b) = (pair.a as usize, pair.b as usize);
        let (ra, rb) = (island[a].rigid.as_deref().expect("rigid"), island[b].rigid.as_deref().expect("rigid"));
        let (pa, pb) = two(views, a, b);
        let x = ra.points[pair.point as usize].position(pa);
        let Some((normal, inside)) = touch(rb, pb, frames[b].center, x, ra.radius) else {
            pair.left = 0.0;
            continue;
        };
        let (fresh, fixed, keep) = split_push(inside, pair.lodged, MAX_PUSH_SPEED * h);
        pair.left = inside.min(keep);
        let depth = fresh + fixed;
        if depth <= 0.0 {
            continue;
        }
        let q = x - normal * ra.radius;
        let (fa, fb) = two(frames, a, b);
        let w = inv_mass_at(fa, q, normal) + inv_mass_at(fb, q, normal);
        if w <= 0.0 {
            continue;
        }
        let push = normal * (fresh / w);
        shove(ra, fa, pa, q, push, false);
        shove(rb, fb, pb, q, -push, false);
        let w_shift = fa.inv_mass + fb.inv_mass;
        if fixed > 0.0 && w_shift > 0.0 {
            let shift = normal * (fixed / w_shift);
            self::shift(ra, fa, pa, shift);
            self::shift(rb, fb, pb, -shift);
        }
        pair.depth += depth;
        pair.normal = normal;
        pair.at = q;
    }
}

/// Shock propagation, in the spirit of Guendelman, Bridson and Fedkiw
/// 2003 ("Nonconvex rigid bodies with stacking", section 7), made before
/// the shared passes of a relaxation pass: the pairs bottom-up along `up`
/// (against gravity; a pair's height is that of its two bodies' centres),
/// each two bodies' pairs together ([`lift`]), the lower body held and the
/// upper one moved. `order` is scratch.
///
/// Why: the passes share each push between the two bodies, so what the
/// ground pushes the bottom box up by reaches the box above halved, the one
/// above that quartered; the rest is left as penetration and downward
/// speed. With many substeps the passes repeat often enough; at one
/// substep (one iteration) a stack of five 1 m boxes sank 14 mm in its
/// first second (ten: fallen), tilted as the corners' large pushes turned
/// its boxes, and fell over. Lifted first, each box rests on the one below
/// before the shared passes, which are left the small remainder and the
/// balance of the turns. Made after the passes instead, the lift left them
/// their large pushes, whose turns leaned the stacks until they fell.
pub fn propagate(
    island: &mut [&mut Body],
    views: &mut [ParticlesMut],
    pairs: &mut [Pair],
    frames: &mut Vec<Frame>,
    order: &mut Vec<u32>,
    up: Vec3,
    h: f32,
) {
    if pairs.is_empty() || up == Vec3::ZERO {
        return;
    }
    // The fits as the last pass left them: one more fit of a tetrahedron a
    // pass, here, slid a jittered stack of ten with sleep off at 32
    // substeps 1.7 mm in 10 s instead of 0.9 mm.
    frames.clear();
    frames.extend(island.iter().zip(views.iter()).map(|(b, p)| match &b.rigid {
        Some(r) => frame(r, p),
        None => Frame::fixed(),
    }));
    order.clear();
    order.extend(0..pairs.len() as u32);
    // The sum is the same bits either way round, so the pairs of two
    // bodies, of one height, lie together; ties by index keep it total.
    let height = |k: u32| {
        let pair = &pairs[k as usize];
        sort_height(up, frames[pair.a as usize].center, frames[pair.b as usize].center)
    };
    order.sort_unstable_by(|&i, &j| height(i).total_cmp(&height(j)).then(i.cmp(&j)));
    let bodies = |pair: &Pair| (pair.a.min(pair.b), pair.a.max(pair.b));
    let mut k = 0;
    while k < order.len() {
        let (a, b) = bodies(&pairs[order[k] as usize]);
        let end = k + order[k..].iter().take_while(|&&j| bodies(&pairs[j as usize]) == (a, b)).count();
        let (a, b) = (a as usize, b as usize);
        let upper = if up.dot(frames[a].center) > up.dot(frames[b].center) { a } else { b };
        frames[upper].supports += 1;
        k = end;
    }
    let mut k = 0;
    while k < order.len() {
        let of = bodies(&pairs[order[k] as usize]);
        let end = k + order[k..].iter().take_while(|&&j| bodies(&pairs[j as usize]) == of).count();
        lift(island, views, pairs, &order[k..end], frames, up, h);
        k = end;
    }
}

/// Penetration (m) a lift leaves to the shared passes: about a substep's
/// fall `g h^2` at 8 substeps of 1/60 s, which they take out in time. A
/// stack of ten boxes at 32 substeps, lifted by every bit, slid 1.2 mm in
/// 10 s (0.3 mm without lifts, 0.8 mm with this).
const LIFT_SLOP: f32 = 3.0e-5;

/// How far (m) a sphere of the upper body may be above the lower one's
/// surface and still hold the lift's turn (a constraint that keeps it from
/// being turned into the lower body).
const LIFT_REACH: f32 = 0.01;

/// Most sweeps (forwards, then backwards, in turn) of a lift's solve, and
/// the largest move (m) of a pair's point in a sweep that ends it. A box
/// sliding on a box at one substep slid 3 % short with two sweeps, as
/// with 8 to 32 with four.
const LIFT_SWEEPS: usize = 8;
const LIFT_SETTLED: f32 = 1.0e-8;

/// The pairs `group` of two bodies: when every one that touches has the
/// same body on top (its normal within 45 degrees of `up`), that body is
/// moved along `up` and turned about its centre (about axes across `up`),
/// the lower body held, by the smallest move (in the body's mass and
/// inertia) that takes each touching pair out (less [`LIFT_SLOP`]) and
/// turns no sphere within [`LIFT_REACH`] into the lower body: a contact
/// solve of the pairs together (projected Gauss-Seidel over the group's
/// impulses, forwards and backwards, the move applied once). What the
/// substep started with (`lodged`) is lifted as a whole, without a turn
/// and without a velocity, as [`project`] takes it out. A body above more
/// than one body it has pairs with is lifted as a whole, without a turn,
/// by the mean of its touching pairs' lifts.
///
/// Together and once: pushes at the corners one by one turned the upper box
/// a little each time, the same way every substep, and a stack slid (five
/// boxes at one substep: 16 to 24 cm in 6 s); the most of the lifts left
/// each box on its highest corner, and jittered stacks rocked and fell;
/// the least did next to nothing, one corner barely touching.
///
/// With the turn: lifted as a whole by the mean (as before), a box sliding
/// on a box kept the turn its friction gives (friction acts at the contact,
/// below the centre, and pitches the box forward; the contact's push at the
/// leading edge is what turns it back), and at 1 and 8 substeps, where the
/// lift takes nearly all of each substep's penetration, the box rolled over
/// its leading edge, a quarter turn every half second, and slid 1.2 to 1.9
/// m instead of Coulomb's 0.41 (issue 27).
fn lift(
    island: &[&mut Body],
    views: &mut [ParticlesMut],
    pairs: &mut [Pair],
    group: &[u32],
    frames: &mut [Frame],
    up: Vec3,
    h: f32,
) {
    let (mut upper, mut fixed, mut count) = (None, 0.0f32, 0u32);
    for &k in group {
        let pair = &mut pairs[k as usize];
        pair.rise = f32::NEG_INFINITY;
        pair.touching = false;
        let (a, b) = (pair.a as usize, pair.b as usize);
        let (ra, rb) = (island[a].rigid.as_deref().expect("rigid"), island[b].rigid.as_deref().expect("rigid"));
        let x = ra.points[pair.point as usize].position(&views[a]);
        let Some((normal, inside)) = touch(rb, &views[b], frames[b].center, x, ra.radius + LIFT_REACH) else {
            continue;
        };
        let inside = inside - LIFT_REACH;
        let s = normal.dot(up);
        pair.normal = normal;
        pair.at = x - normal * ra.radius;
        if inside <= 0.0 {
            // Near: holds the turn if it is a face under or over the top.
            if s.abs() > std::f32::consts::FRAC_1_SQRT_2 {
                pair.rise = inside / s.abs();
            }
            continue;
        }
        let top = if s > std::f32::consts::FRAC_1_SQRT_2 {
            a
        } else if s < -std::f32::consts::FRAC_1_SQRT_2 {
            b
        } else {
            return;
        };
        if upper.is_some_and(|u| u != top) {
            return;
        }
        upper = Some(top);
        // Along `up`, the lift `l` takes `l |s|` out along the normal.
        let (fresh, fix, _) = split_push(inside, pair.lodged, MAX_PUSH_SPEED * h);
        pair.rise = (fresh + fix) / s.abs();
        pair.touching = true;
        fixed += fix / s.abs();
        count += 1;
    }
    let Some(top) = upper else { return };
    if frames[top].inv_mass <= 0.0 {
        return;
    }
    let on_top = |pair: &Pair| {
        let s = pair.normal.dot(up);
        pair.rise > f32::NEG_INFINITY && (if s > 0.0 { pair.a } else { pair.b }) as usize == top
    };
    let r = island[top].rigid.as_deref().expect("rigid");
    let f = frames[top];
    let mass = 1.0 / f.inv_mass;
    if f.supports > 1 {
        // On more than one body, lifted off each in turn: the turn of one
        // lift, undone by the next, tipped the crates off a rope bridge's
        // planks (the showcase's bridge). As a whole, by the mean.
        let rises = group.iter().map(|&k| &pairs[k as usize]).filter(|p| p.touching).map(|p| p.rise);
        let total = rises.sum::<f32>() / count as f32 - LIFT_SLOP;
        if total.is_nan() || total <= 0.0 {
            return;
        }
        let fixed = (fixed / count as f32).min(total);
        let fresh = total - fixed;
        let f = &mut frames[top];
        if fresh > 0.0 {
            let q = f.center;
            shove(r, f, &mut views[top], q, up * (fresh * mass), false);
        }
        if fixed > 0.0 {
            shift(r, f, &mut views[top], up * (fixed * mass));
        }
        let impulse = total * mass / count as f32;
        for &k in group {
            let pair = &mut pairs[k as usize];
            if pair.touching {
                let (a, b) = (pair.a as usize, pair.b as usize);
                let (q, normal) = (pair.at, pair.normal);
                pair.depth += impulse * (inv_mass_at(&frames[a], q, normal) + inv_mass_at(&frames[b], q, normal));
                pair.lodged = (pair.lodged - fixed * normal.dot(up).abs()).max(0.0);
            }
        }
        return;
    }
    // The lodged part, as a whole and without a velocity: the touching
    // pairs' mean, at most what the most inside one asks.
    let most = group.iter().map(|&k| &pairs[k as usize]).filter(|p| on_top(p)).map(|p| p.rise).fold(0.0, f32::max);
    let fixed = (fixed / count as f32).min(most - LIFT_SLOP).max(0.0);
    // The rest: each pair's impulse `lambda` (along `up`, at `at`) moves
    // the body by `lambda / M` along `up` and turns it by
    // `I^-1 (r x up) lambda`; the point at `at` rises by `dz + turn . (r x
    // up)`, to be at least `rise - LIFT_SLOP - fixed`.
    for &k in group {
        let pair = &mut pairs[k as usize];
        pair.lifted = 0.0;
        if on_top(pair) {
            let rn = (pair.at - f.center).cross(up);
            pair.lever = rn;
            pair.spin = f.inv_inertia * rn;
            pair.rise = (pair.rise - LIFT_SLOP - fixed) / (f.inv_mass + rn.dot(pair.spin));
        } else {
            pair.rise = f32::NEG_INFINITY;
        }
    }
    let (mut dz, mut turn) = (0.0f32, Vec3::ZERO);
    for sweep in 0..LIFT_SWEEPS {
        let mut most = 0.0f32;
        for i in 0..group.len() {
            let k = group[if sweep % 2 == 0 { i } else { group.len() - 1 - i }] as usize;
            let pair = &mut pairs[k];
            if pair.rise == f32::NEG_INFINITY {
                continue;
            }
            // `rise` is now the impulse that would take the pair out alone.
            let w = f.inv_mass + pair.lever.dot(pair.spin);
            let lifted = (pair.lifted + pair.rise - (dz + turn.dot(pair.lever)) / w).max(0.0);
            let step = lifted - pair.lifted;
            pair.lifted = lifted;
            dz += step * f.inv_mass;
            turn += pair.spin * step;
            most = most.max(step.abs() * w);
        }
        if most < LIFT_SETTLED {
            break;
        }
    }
    let f = &mut frames[top];
    if fixed > 0.0 {
        shift(r, f, &mut views[top], up * (fixed * mass));
    }
    if dz != 0.0 || turn != Vec3::ZERO {
        f.center += turn_moves(r, f, &mut views[top], up * dz, turn);
    }
    // Each pair that touches or that the lift pushed: its impulse, for
    // friction's bound (which reads the impulse as `depth / w_n`), and what
    // is left of its lodged penetration.
    let share = fixed * mass / count as f32;
    for &k in group {
        let pair = &mut pairs[k as usize];
        if pair.rise == f32::NEG_INFINITY || !(pair.touching || pair.lifted > 0.0) {
            continue;
        }
        let (a, b) = (pair.a as usize, pair.b as usize);
        let (q, normal) = (pair.at, pair.normal);
        let impulse = pair.lifted + if pair.touching { share } else { 0.0 };
        pair.depth += impulse * (inv_mass_at(&frames[a], q, normal) + inv_mass_at(&frames[b], q, normal));
        pair.lodged = (pair.lodged - fixed * normal.dot(up).abs()).max(0.0);
    }
}

/// The pair's normal, turned to push the lower-indexed of its two bodies,
/// so the pairs of both directions of one flat contact agree.
fn oriented(pair: &Pair) -> Vec3 {
    if pair.a < pair.b { pair.normal } else { -pair.normal }
}

/// Whether pair `j` is the first of a patch that pair `pair` belongs to:
/// the same two bodies, touching, along one normal.
fn leads(pairs: &[Pair], j: usize, pair: &Pair, n: Vec3) -> bool {
    let other = &pairs[j];
    other.depth > 0.0
        && other.patch == j as u32
        && (other.a.min(other.b), other.a.max(other.b)) == (pair.a.min(pair.b), pair.a.max(pair.b))
        && oriented(other).dot(n) >= super::contact::PATCH_COS
}

/// How near a sphere of a body that touches another along a normal must
/// be to touch there too, to share the patch's friction (see
/// [`friction`]): `NEAR` (m), or what `NEAR_SPEED` (m/s) covers in the
/// substep when more. A box resting on a box at one substep leans by about
/// a milliradian (0.7 mm over its half diagonal); spinning, the spheres
/// its lean lifted by more than `NEAR` left the patch, the rest's
/// frictions did not cancel and pushed the lean further: it rose onto an
/// edge (15 cm) and walked 20 cm.
const NEAR: f32 = 1.0e-4;
const NEAR_SPEED: f32 = 0.05;

/// Scratch of [`patches`], by pair: the start of its block (the run of
/// listed pairs of the same two bodies in the same order), and the patch
/// leaders of each block in index order (`head` at the block's start,
/// `next` from each leader; `tail` the last, to append). `u32::MAX`: none.
/// A pair joins the first leader of its block's (or its mate block's) that
/// it fits, so [`leader`] walks the leaders, not the block: walking the
/// block for every pair was quadratic in the pairs of two bodies, and two
/// shape-matched lattices spawned inside each other (thousands of pairs)
/// took 30 to 51 s a step under the fuzzer's instrumentation.
#[derive(Debug, Default, Clone)]
pub struct Leaders {
    start: Vec<u32>,
    head: Vec<u32>,
    next: Vec<u32>,
    tail: Vec<u32>,
}

impl Leaders {
    /// The blocks of `pairs`, with no leaders yet.
    fn reset(&mut self, pairs: &[Pair]) {
        let none = |v: &mut Vec<u32>| {
            v.clear();
            v.resize(pairs.len(), u32::MAX);
        };
        none(&mut self.head);
        none(&mut self.next);
        none(&mut self.tail);
        self.start.clear();
        for (k, p) in pairs.iter().enumerate() {
            let same = k > 0 && pairs[k - 1].a == p.a && pairs[k - 1].b == p.b;
            self.start.push(if same { self.start[k - 1] } else { k as u32 });
        }
    }

    /// Pair `k` leads a patch of its block, after those before it.
    fn push(&mut self, k: usize) {
        let s = self.start[k] as usize;
        match self.tail[s] {
            u32::MAX => self.head[s] = k as u32,
            last => self.next[last as usize] = k as u32,
        }
        self.tail[s] = k as u32;
    }
}

/// The first pair of pair `k`'s patch, among its bodies' pairs either way
/// round: the first leader of the block that [`leads`] it (see
/// [`Leaders`]).
fn leader(pairs: &[Pair], leaders: &Leaders, k: usize) -> Option<usize> {
    let pair = pairs[k];
    let n = oriented(&pair);
    let block = |start: usize| {
        let mut j = leaders.head[start];
        while j != u32::MAX {
            if j as usize != k && leads(pairs, j as usize, &pair, n) {
                return Some(j as usize);
            }
            j = leaders.next[j as usize];
        }
        None
    };
    let own = leaders.start[k] as usize;
    match pair.mate {
        u32::MAX => block(own),
        m if (m as usize) < k => block(m as usize).or_else(|| block(own)),
        m => block(own).or_else(|| block(m as usize)),
    }
}

/// Each touching pair's patch (see [`friction`]) and its share of the
/// patch's normal impulse (`Pair::bound`); a pair in no patch has
/// `patch == u32::MAX`.
fn patches(
    island: &[&mut Body],
    views: &[ParticlesMut],
    pairs: &mut [Pair],
    frames: &[Frame],
    leaders: &mut Leaders,
    h: f32,
) {
    let near = NEAR.max(NEAR_SPEED * h);
    for pair in pairs.iter_mut() {
        pair.patch = u32::MAX;
    }
    leaders.reset(pairs);
    for k in 0..pairs.len() {
        if pairs[k].depth <= 0.0 {
            continue;
        }
        let pair = pairs[k];
        let (fa, fb) = (&frames[pair.a as usize], &frames[pair.b as usize]);
        let w_n = inv_mass_at(fa, pair.at, pair.normal) + inv_mass_at(fb, pair.at, pair.normal);
        // The push-outs were the impulse `depth / w_n`.
        let push = if w_n > 0.0 { pair.depth / w_n } else { 0.0 };
        let first = leader(pairs, leaders, k).unwrap_or(k);
        if first == k {
            pairs[k].sum = 0.0;
            pairs[k].count = 0;
            leaders.push(k);
        }
        pairs[k].patch = first as u32;
        pairs[first].sum += push;
        pairs[first].count += 1;
    }
    // The spheres within `NEAR` of a patch join it without a push of their
    // own: which of a flat contact's spheres the passes pushed is decided
    // by micrometres of tilt, and a box spinning on a box at 32 substeps
    // had two of its four lower spheres pushed (besides the four of the
    // box below), whose frictions, shared alike, did not cancel: it slid
    // 17 cm while it stopped.
    for k in 0..pairs.len() {
        if pairs[k].depth > 0.0 {
            continue;
        }
        let pair = pairs[k];
        let (a, b) = (pair.a as usize, pair.b as usize);
        let (ra, rb) = (island[a].rigid.as_deref().expect("rigid"), island[b].rigid.as_deref().expect("rigid"));
        let x = ra.points[pair.point as usize].position(&views[a]);
        let Some((normal, _)) = touch(rb, &views[b], frames[b].center, x, ra.radius + near) else { continue };
        pairs[k].normal = normal;
        pairs[k].at = x - normal * ra.radius;
        if let Some(first) = leader(pairs, leaders, k) {
            pairs[k].patch = first as u32;
            pairs[first].count += 1;
        }
    }
    for k in 0..pairs.len() {
        if pairs[k].patch != u32::MAX {
            let first = &pairs[pairs[k].patch as usize];
            pairs[k].bound = first.sum / first.count as f32;
        }
    }
}

/// The friction stage of the pairs, and the cap on the speed their
/// push-outs give (`h` the substep).
///
/// Friction is bounded per patch, as against colliders
/// (`contact::PointContacts::patches`): the pairs of two bodies pushed
/// along one normal (either way round: a corner of `a` in `b`'s face, or a
/// corner of `b` in `a`'s) form a flat contact, and each pair's Coulomb
/// bound is `mu` times the patch's normal impulse shared evenly. How one
/// box's weight divides among the corners on another box is statically
/// indeterminate; the passes divide it by visiting order and the last
/// substep's tilt. Bounded each by its own push, a box spinning on a box
/// had its corners' frictions unequal; their net force at the contact,
/// half a box below the centre, tilted it, which loaded one side more the
/// next substep: at 1 and 32 substeps the top box walked 12 to 162 cm,
/// rose onto a corner (7 to 23 cm) and dragged the base box up to 15.5
/// cm. Shared, a spin's frictions cancel and a slide's total is `mu`
/// times the load as before. The pairs are taken one after another, each
/// seeing the motion the last left (Gauss-Seidel), forwards then
/// backwards, each pair's impulse accumulated and bounded as a whole.
pub fn friction(
    island: &[&mut Body],
    views: &mut [ParticlesMut],
    pairs: &mut [Pair],
    frames: &mut Vec<Frame>,
    leaders: &mut Leaders,
    h: f32,
) {
    if pairs.is_empty() {
        return;
    }
    // The bodies as rigid bodies: friction's pushes change their
    // velocities, not their positions, so these hold for the stage.
    frames.clear();
    frames.extend(island.iter().zip(views.iter()).map(|(b, p)| match &b.rigid {
        Some(r) => frame(r, p),
        None => Frame::fixed(),
    }));
    patches(island, views, pairs, frames, leaders, h);
    let count = pairs.len();
    for pair in pairs.iter_mut() {
        pair.impulse = Vec3::ZERO;
    }
    for sweep in 0..2 {
        for k in 0..count {
            let pair = &mut pairs[if sweep == 0 { k } else { count - 1 - k }];
            if pair.patch == u32::MAX {
                continue;
            }
            let (a, b) = (pair.a as usize, pair.b as usize);
            let (ra, rb) = (island[a].rigid.as_deref().expect("rigid"), island[b].rigid.as_deref().expect("rigid"));
            let (pa, pb) = two(views, a, b);
            let (fa, fb) = two(frames, a, b);
            let (ma, mb) =
                (motion::motion(&ra.clusters, 0, ra.carry, pa), motion::motion(&rb.clusters, 0, rb.carry, pb));
            let at = |m: &Option<motion::Motion>| m.as_ref().map_or(Vec3::ZERO, |m| m.at(pair.at));
            let n = pair.normal;
            let moved = at(&ma) - at(&mb);
            let tangential = moved - n * n.dot(moved);
            let len = tangential.length();
            if len > 1.0e-12 {
                let w = inv_mass_at(fa, pair.at, tangential / len) + inv_mass_at(fb, pair.at, tangential / len);
                if w > 0.0 {
                    // Coulomb: the impulse accumulated over the sweeps is at
                    // most `mu` times the pair's share of its patch's normal
                    // impulse.
                    let before = pair.impulse;
                    let mut total = before + tangential / w;
                    let limit = pair.friction * pair.bound;
                    let size = total.length();
                    if size > limit {
                        total *= limit / size;
                    }
                    let push = total - before;
                    if push != Vec3::ZERO {
                        pair.impulse = total;
                        shove(ra, fa, pa, pair.at, -push, true);
                        shove(rb, fb, pb, pair.at, push, true);
                    }
                }
            }
            if sweep > 0 || pair.depth <= 0.0 {
                continue;
            }
            // The speed apart the push-out gave beyond `MAX_PUSH_SPEED`, and
            // what taking out the lodged penetration gave, are taken back
            // through the same response: the fix moves the bodies apart but
            // is not their velocity (as Box2D v3's relax iterations take the
            // soft contact's push speed back).
            let (ma, mb) =
                (motion::motion(&ra.clusters, 0, ra.carry, pa), motion::motion(&rb.clusters, 0, rb.carry, pb));
            let excess = push_excess(n.dot(at(&ma) - at(&mb)), 0.0, h);
            let w = inv_mass_at(fa, pair.at, n) + inv_mass_at(fb, pair.at, n);
            if excess > 0.0 && w > 0.0 {
                let push = n * (excess / w);
                shove(ra, fa, pa, pair.at, -push, true);
                shove(rb, fb, pb, pair.at, push, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_height_has_one_bit_pattern_whatever_the_nans_it_came_from() {
        let (p, q) = (f32::from_bits(0x7fc0_0001), f32::from_bits(0xffc0_0002));
        let (a, b) = (Vec3::new(0.0, p, 0.0), Vec3::new(0.0, q, 0.0));
        let heights = [sort_height(Vec3::Y, a, b), sort_height(Vec3::Y, b, a), sort_height(Vec3::Y, a, Vec3::ONE)];
        assert!(heights.iter().all(|h| h.to_bits() == f32::NAN.to_bits()), "{heights:?}");
        assert_eq!(sort_height(Vec3::Y, Vec3::ONE, Vec3::ONE), 2.0);
    }

    /// The old search: the first pair of pair `k`'s own block and its mate
    /// block, pair by pair, that leads it.
    fn scanned(pairs: &[Pair], k: usize) -> Option<usize> {
        let pair = pairs[k];
        let n = oriented(&pair);
        let block = |start: usize, a: u32, b: u32| {
            let end = start + pairs[start..].iter().take_while(|p| p.a == a && p.b == b).count();
            (start..end).find(|&j| j != k && leads(pairs, j, &pair, n))
        };
        let own = k - pairs[..k].iter().rev().take_while(|p| p.a == pair.a && p.b == pair.b).count();
        match pair.mate {
            u32::MAX => block(own, pair.a, pair.b),
            m if (m as usize) < k => block(m as usize, pair.b, pair.a).or_else(|| block(own, pair.a, pair.b)),
            m => block(own, pair.a, pair.b).or_else(|| block(m as usize, pair.b, pair.a)),
        }
    }

    #[test]
    fn the_leaders_lists_find_the_patches_the_full_scan_found() {
        // Blocks of up to 22 pairs of bodies 0..4 both ways round, listed
        // as `candidates` lists them (by `a`, then `b`), some empty;
        // normals from a few directions either way, two in three touching.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let normals = [Vec3::Y, Vec3::X, Vec3::new(0.6, 0.8, 0.0), Vec3::new(0.0, 0.6, 0.8)];
        for _ in 0..200 {
            let mut pairs = Vec::new();
            for a in 0..4u32 {
                for b in (0..4u32).filter(|&b| b != a) {
                    for _ in 0..2 {
                        if next(3) == 0 {
                            continue;
                        }
                        for _ in 0..next(12) {
                            let normal = normals[next(4) as usize] * if next(2) == 0 { 1.0 } else { -1.0 };
                            let depth = if next(3) == 0 { 0.0 } else { 1e-3 };
                            pairs.push(Pair { depth, normal, patch: u32::MAX, ..Pair::listed(a, 0, b, 0.5, 0.0) });
                        }
                    }
                }
            }
            // Mates as `candidates` sets them: each pair's the first listed
            // pair the other way round.
            for k in 0..pairs.len() {
                let (a, b) = (pairs[k].a, pairs[k].b);
                pairs[k].mate = pairs.iter().position(|p| p.a == b && p.b == a).map_or(u32::MAX, |m| m as u32);
            }
            // `patches`' two loops, with both searches.
            let (mut old, mut new, mut leaders) = (pairs.clone(), pairs.clone(), Leaders::default());
            leaders.reset(&new);
            for touching in [true, false] {
                for k in (0..pairs.len()).filter(|&k| (pairs[k].depth > 0.0) == touching) {
                    let (o, n) = (scanned(&old, k), leader(&new, &leaders, k));
                    assert_eq!(o, n, "pair {k} of {}", pairs.len());
                    if touching {
                        old[k].patch = o.unwrap_or(k) as u32;
                        new[k].patch = n.unwrap_or(k) as u32;
                        if n.is_none() {
                            leaders.push(k);
                        }
                    }
                }
            }
        }
    }
}
