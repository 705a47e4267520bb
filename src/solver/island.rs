//! Islands: bodies that must be stepped together because something couples
//! them within a relaxation pass: a joint between their particles, two
//! cloths that collide with each other, or two rigid bodies, whose swept
//! bounds overlap.
//! Everything else is an island of one body, which runs all its substeps while
//! its particles are in cache.
//!
//! An island with one awake body wakes entirely; an island whose bodies all
//! sleep is skipped. Islands come out ordered by their lowest body slot, and
//! bodies in slot order, so the step's order is fixed.

use crate::body::Body;
use crate::constraints::joint::Joint;
use crate::pool::Pool;

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
    /// Scratch: bodies of one class; each slot's island; island sizes.
    class: Vec<u32>,
    island_of: Vec<u32>,
    sizes: Vec<usize>,
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

    /// The islands, each a list of body slots.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u32]> {
        self.ranges.iter().map(|r| &self.members[r.clone()])
    }
}

/// Joins the bodies of one class (cloths that collide with cloths, rigid
/// bodies) whose swept bounds, grown by their radii, overlap.
fn join_touching(sets: &mut Sets, members: &mut Vec<u32>, bodies: &Pool<Body>, class: fn(&Body) -> bool) {
    let n = bodies.slots.len() as u32;
    members.clear();
    members.extend((0..n).filter(|&i| bodies.slots[i as usize].value.as_ref().is_some_and(class)));
    for (k, &a) in members.iter().enumerate() {
        for &b in &members[k + 1..] {
            let (ba, bb) = (bodies.slots[a as usize].value.as_ref(), bodies.slots[b as usize].value.as_ref());
            let (ba, bb) = (ba.expect("live"), bb.expect("live"));
            let grow = ba.radius + bb.radius;
            // In world space: each body's bounds are in its own frame.
            let ((alo, ahi), (blo, bhi)) = (ba.bounds, bb.bounds);
            let (alo, ahi, blo, bhi) = (alo + ba.origin, ahi + ba.origin, blo + bb.origin, bhi + bb.origin);
            if (alo - grow).cmple(bhi).all() && blo.cmple(ahi + grow).all() {
                sets.union(a, b);
            }
        }
    }
}

/// Groups the live bodies into islands (slot indices, into `out`); wakes
/// islands with an awake member and leaves out the ones asleep. Bodies'
/// `bounds` must be current.
pub(crate) fn build(bodies: &mut Pool<Body>, joints: &Pool<Joint>, out: &mut Islands) {
    let n = bodies.slots.len();
    let Islands { members, ranges, sets, class, island_of, sizes } = out;
    sets.parent.clear();
    sets.parent.extend(0..n as u32);
    for (_, j) in joints.iter() {
        sets.union(j.body_a.index1 - 1, j.body_b.index1 - 1);
    }
    join_touching(sets, class, bodies, colliding_cloth);
    join_touching(sets, class, bodies, rigid);
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
