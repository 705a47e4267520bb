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

/// Joins the bodies of one class (cloths that collide with cloths, rigid
/// bodies) whose swept bounds, grown by their radii, overlap.
fn join_touching(sets: &mut Sets, bodies: &Pool<Body>, class: fn(&Body) -> bool) {
    let n = bodies.slots.len() as u32;
    let members: Vec<u32> = (0..n).filter(|&i| bodies.slots[i as usize].value.as_ref().is_some_and(class)).collect();
    for (k, &a) in members.iter().enumerate() {
        for &b in &members[k + 1..] {
            let (ba, bb) = (bodies.slots[a as usize].value.as_ref(), bodies.slots[b as usize].value.as_ref());
            let (ba, bb) = (ba.expect("live"), bb.expect("live"));
            let grow = ba.radius + bb.radius;
            let ((alo, ahi), (blo, bhi)) = (ba.bounds, bb.bounds);
            if (alo - grow).cmple(bhi).all() && blo.cmple(ahi + grow).all() {
                sets.union(a, b);
            }
        }
    }
}

/// Groups the live bodies into islands (slot indices); wakes islands with an
/// awake member and leaves out the ones asleep. Bodies' `bounds` must be
/// current.
pub(crate) fn build(bodies: &mut Pool<Body>, joints: &Pool<Joint>) -> Vec<Vec<u32>> {
    let n = bodies.slots.len();
    let mut sets = Sets { parent: (0..n as u32).collect() };
    for (_, j) in joints.iter() {
        sets.union(j.body_a.index1 - 1, j.body_b.index1 - 1);
    }
    join_touching(&mut sets, bodies, colliding_cloth);
    join_touching(&mut sets, bodies, rigid);
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut group_of = vec![u32::MAX; n];
    for i in 0..n as u32 {
        if bodies.slots[i as usize].value.is_none() {
            continue;
        }
        let r = sets.root(i) as usize;
        if group_of[r] == u32::MAX {
            group_of[r] = groups.len() as u32;
            groups.push(Vec::new());
        }
        groups[group_of[r] as usize].push(i);
    }
    groups.retain(|g| {
        let awake = g.iter().any(|&i| !bodies.slots[i as usize].value.as_ref().expect("live").sleeping);
        if awake {
            for &i in g {
                bodies.slots[i as usize].value.as_mut().expect("live").wake_if_asleep();
            }
        }
        awake
    });
    groups
}
