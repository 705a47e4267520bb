//! Islands: bodies that must be stepped together because something couples
//! them within a relaxation pass: a joint between their particles, or
//! contact: two bodies that collide with each other (two cloths, two rigid
//! bodies, any two of other kinds whose layers meet) whose swept bounds
//! overlap.
//! Everything else is an island of one body, which runs all its substeps while
//! its particles are in cache.
//!
//! An island with one awake body wakes entirely; an island whose bodies all
//! sleep is skipped. Islands come out ordered by their lowest body slot, and
//! bodies in slot order, so the step's order is fixed.

use crate::body::Body;
use crate::collision::bodies;
use crate::constraints::joint::Joint;
use crate::pool::Pool;
use glam::Vec3;

/// The most bodies in a pack of islands of plain bodies (see [`Units`]):
/// enough that the unit's setup is paid once for many one-particle bodies,
/// few enough that the packs still spread over the workers and keep a
/// small working set across their substeps. (benches/scenes.rs debris:
/// 16, 32 and 64 measured alike on a loaded 2-core machine.)
pub(crate) const PLAIN_PACK: usize = 32;

/// The most particles a plain body may have to share a pack: a larger body
/// is its own unit's work already.
pub(crate) const PLAIN_PACK_PARTICLES: usize = 16;

/// The key of the packs of plain bodies (a skeleton's key is its address,
/// never 1).
pub(crate) const PLAIN_KEY: usize = 1;

/// Union-find over body slots.
#[derive(Debug, Default, Clone)]
struct Sets {
    parent: Vec<u32>,
}

impl Sets {
    fn root(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let up = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = up;
            i = up;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        // The lower slot becomes the root: deterministic.
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.parent[hi as usize] = lo;
    }
}

fn colliding_cloth(b: &Body) -> bool {
    b.cloth.as_ref().is_some_and(|c| c.cloth_collision)
}

fn rigid(b: &Body) -> bool {
    b.rigid.is_some()
}

/// The step's islands: `members[ranges[k]]` are the body slots of island
/// `k`. Kept between steps so building them allocates nothing once warm.
#[derive(Debug, Default, Clone)]
pub(crate) struct Islands {
    members: Vec<u32>,
    ranges: Vec<std::ops::Range<usize>>,
    sets: Sets,
    /// Scratch: each slot's island; island sizes; the sweep's boxes (their
    /// low x and slot).
    island_of: Vec<u32>,
    sizes: Vec<usize>,
    sweep: Vec<Swept>,
    /// Pairs of body slots that collide with each other this step
    /// (`collision::bodies`), lower slot first.
    contacts: Vec<(u32, u32)>,
}

impl Islands {
    /// How many islands.
    pub(crate) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The body slots of island `k`.
    pub(crate) fn get(&self, k: usize) -> &[u32] {
        &self.members[self.ranges[k].clone()]
    }

    /// The pairs of bodies (slots) that may collide with each other this
    /// step; some may be in islands left out, asleep.
    pub(crate) fn contacts(&self) -> &[(u32, u32)] {
        &self.contacts
    }

    /// The islands, each a list of body slots.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u32]> {
        self.ranges.iter().map(|r| &self.members[r.clone()])
    }
}

/// A body as the sweep sees it: its swept bounds in world space (each
/// body's are in its own frame), grown by what any coupling below grows
/// them by; how far its pieces reach beyond its particles; its slot.
#[derive(Debug, Clone, Copy)]
struct Swept {
    lo: Vec3,
    hi: Vec3,
    reach: f32,
    slot: u32,
}

impl Swept {
    fn new(b: &Body, slot: u32, slack: f32) -> Swept {
        let reach = bodies::reach(b);
        let g = b.radius.max(reach + slack);
        Swept { lo: b.bounds.0 + b.origin - g, hi: b.bounds.1 + b.origin + g, reach, slot }
    }
}

/// Joins the bodies that meet within a pass: two cloths that collide with
/// cloths, two rigid bodies, whose swept bounds grown by their radii
/// overlap; and two bodies that collide with each other
/// ([`bodies::collide`]) whose bounds grown by their pieces' reach and
/// `slack` overlap (those pairs are listed in `contacts`). One sort and
/// sweep along x over the bodies' boxes, so the search grows with the
/// bodies and the pairs found, not with the square of the bodies.
fn join_touching(
    sets: &mut Sets,
    sweep: &mut Vec<Swept>,
    contacts: &mut Vec<(u32, u32)>,
    bodies: &Pool<Body>,
    slack: f32,
) {
    let live = |i: u32| bodies.slots[i as usize].value.as_ref().expect("live");
    sweep.clear();
    sweep.extend(
        (0..bodies.slots.len() as u32)
            .filter_map(|i| Some(Swept::new(bodies.slots[i as usize].value.as_ref()?, i, slack))),
    );
    sweep.sort_unstable_by(|a, b| a.lo.x.total_cmp(&b.lo.x).then(a.slot.cmp(&b.slot)));
    contacts.clear();
    for (k, a) in sweep.iter().enumerate() {
        let ba = live(a.slot);
        for b in &sweep[k + 1..] {
            if b.lo.x > a.hi.x || b.lo.x.is_nan() {
                break;
            }
            if !(a.lo.cmple(b.hi).all() && b.lo.cmple(a.hi).all()) {
                continue;
            }
            let bb = live(b.slot);
            // In world space: each body's bounds are in its own frame.
            let ((lo_a, hi_a), (lo_b, hi_b)) = (ba.bounds, bb.bounds);
            let (lo_a, hi_a, lo_b, hi_b) = (lo_a + ba.origin, hi_a + ba.origin, lo_b + bb.origin, hi_b + bb.origin);
            let near = |grow: f32| (lo_a - grow).cmple(hi_b).all() && lo_b.cmple(hi_a + grow).all();
            let same_class = (colliding_cloth(ba) && colliding_cloth(bb)) || (rigid(ba) && rigid(bb));
            if same_class && near(ba.radius + bb.radius) {
                sets.union(a.slot, b.slot);
            }
            if bodies::collide(ba, bb) && near(a.reach + b.reach + 2.0 * slack) {
                sets.union(a.slot, b.slot);
                contacts.push((a.slot.min(b.slot), a.slot.max(b.slot)));
            }
        }
    }
}

/// Groups the live bodies into islands (slot indices, into `out`); wakes
/// islands with an awake member and leaves out the ones asleep. Bodies'
/// `bounds` must be current.
pub(crate) fn build(bodies: &mut Pool<Body>, joints: &Pool<Joint>, slack: f32, out: &mut Islands) {
    let n = bodies.slots.len();
    let Islands { members, ranges, sets, island_of, sizes, sweep, contacts } = out;
    sets.parent.clear();
    sets.parent.extend(0..n as u32);
    for (_, j) in joints.iter() {
        sets.union(j.body_a.index1 - 1, j.body_b.index1 - 1);
    }
    join_touching(sets, sweep, contacts, bodies, slack);
    // Islands numbered by their lowest slot, members in slot order: a
    // counting sort over the roots.
    island_of.clear();
    island_of.resize(n, u32::MAX);
    sizes.clear();
    for i in 0..n {
        if bodies.slots[i].value.is_none() {
            continue;
        }
        let r = sets.root(i as u32) as usize;
        if island_of[r] == u32::MAX {
            island_of[r] = sizes.len() as u32;
            sizes.push(0);
        }
        sizes[island_of[r] as usize] += 1;
    }
    ranges.clear();
    let mut at = 0;
    for size in sizes.iter_mut() {
        ranges.push(at..at);
        at += *size;
    }
    members.clear();
    members.resize(at, 0);
    for i in 0..n {
        if bodies.slots[i].value.is_some() {
            let k = island_of[sets.root(i as u32) as usize] as usize;
            members[ranges[k].end] = i as u32;
            ranges[k].end += 1;
        }
    }
    ranges.retain(|r| {
        let g = &members[r.clone()];
        let awake = g.iter().any(|&i| !bodies.slots[i as usize].value.as_ref().expect("live").sleeping);
        if awake {
            for &i in g {
                bodies.slots[i as usize].value.as_mut().expect("live").wake_if_asleep();
            }
        }
        awake
    });
}

/// The step's units of work: an island, or a *pack* of islands whose
/// bodies are all ragdolls of the same skeleton (no joints, no ignored
/// bones; bodies of one island may touch), up to a SIMD level's lanes of
/// ragdolls in all; or a pack of islands of small plain bodies (particles
/// without sticks, see [`PLAIN_PACK`]), which share the unit's setup and
/// each stage's call instead of paying them once per body (issue 31). A
/// pack's ragdolls share every loop of the step, bone after bone across
/// them: islands are independent, and the contacts
/// between an island's bodies touch only its own, so each island computes
/// the bits it would alone, while one's chain of dependent arithmetic
/// overlaps another's (the lanes of issue 21's layout by bone and ragdoll).
///
/// Units come out ordered by their first island; a pack's islands in
/// island order. Kept between steps so building them allocates nothing
/// once warm.
#[derive(Debug, Default, Clone)]
pub(crate) struct Units {
    /// Islands of unit `u` are `islands[start[u]..start[u + 1]]`.
    start: Vec<usize>,
    islands: Vec<u32>,
    /// Scratch: each island's unit; the packs still open (skeleton, unit,
    /// ragdolls in it); where each unit fills next.
    unit_of: Vec<u32>,
    open: Vec<(usize, u32, u32)>,
    cursor: Vec<usize>,
}

impl Units {
    /// Groups islands `0..count`; `pack(k)` is, when island `k` may share
    /// a pack, the pack's key (a ragdoll's skeleton, or the plain bodies'),
    /// the island's number of bodies and how many bodies a pack of that key
    /// holds at most.
    pub(crate) fn build(&mut self, count: usize, pack: impl Fn(usize) -> Option<(usize, u32, usize)>) {
        self.unit_of.clear();
        self.open.clear();
        let mut units = 0u32;
        for k in 0..count {
            let mut new = || {
                units += 1;
                units - 1
            };
            let unit = match pack(k).filter(|&(_, n, cap)| n as usize <= cap) {
                None => new(),
                Some((key, n, cap)) => match self.open.iter_mut().find(|o| o.0 == key) {
                    Some(o) if (o.2 + n) as usize <= cap => {
                        o.2 += n;
                        o.1
                    }
                    Some(o) => {
                        *o = (key, new(), n);
                        o.1
                    }
                    None => {
                        let unit = new();
                        self.open.push((key, unit, n));
                        unit
                    }
                },
            };
            self.unit_of.push(unit);
        }
        self.start.clear();
        self.start.resize(units as usize + 1, 0);
        for &u in &self.unit_of {
            self.start[u as usize + 1] += 1;
        }
        for u in 0..units as usize {
            self.start[u + 1] += self.start[u];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.start[..units as usize]);
        self.islands.clear();
        self.islands.resize(count, 0);
        for (k, &u) in self.unit_of.iter().enumerate() {
            self.islands[self.cursor[u as usize]] = k as u32;
            self.cursor[u as usize] += 1;
        }
    }

    /// How many units.
    pub(crate) fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// The islands of unit `u`.
    pub(crate) fn get(&self, u: usize) -> &[u32] {
        &self.islands[self.start[u]..self.start[u + 1]]
    }
}
