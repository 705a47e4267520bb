//! Generational id pool (free list), used for bodies and colliders.
//!
//! An id is `{index1, generation}`: the slot index plus one (so an all-zero id
//! is null) and the generation the slot had when the object was created.
//! Generations come from one process-wide counter, so an id from another world,
//! or one destroyed long ago, never matches a live object (Box2D v3 checks ids
//! the same way in `b2Body_IsValid`).

use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_GENERATION: AtomicU32 = AtomicU32::new(1);

/// A fresh process-wide unique generation; never 0 (0 marks a null id).
fn next_generation() -> u32 {
    loop {
        let g = NEXT_GENERATION.fetch_add(1, Ordering::Relaxed);
        if g != 0 {
            return g;
        }
    }
}

/// After a snapshot is restored (maybe in another process), make sure the
/// counter is past every generation it brought in.
pub(crate) fn reserve_generation(g: u32) {
    NEXT_GENERATION.fetch_max(g.wrapping_add(1).max(1), Ordering::Relaxed);
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name {
            /// Slot index + 1; 0 means null.
            pub index1: u32,
            /// The slot's generation when the object was created.
            pub generation: u32,
        }
        impl $name {
            /// The null id.
            pub const NULL: $name = $name { index1: 0, generation: 0 };
            /// True for the all-zero id.
            pub fn is_null(self) -> bool {
                self.index1 == 0
            }
        }
        impl From<Handle> for $name {
            fn from(h: Handle) -> Self {
                $name { index1: h.index1, generation: h.generation }
            }
        }
        impl From<$name> for Handle {
            fn from(id: $name) -> Self {
                Handle { index1: id.index1, generation: id.generation }
            }
        }
    };
}

id_type!(
    /// A body of a [`World`](crate::World).
    BodyId
);
id_type!(
    /// A collider of a [`World`](crate::World).
    ColliderId
);
id_type!(
    /// A joint between particles of two bodies of a [`World`](crate::World).
    JointId
);

/// The untyped id the pool hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Handle {
    pub index1: u32,
    pub generation: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct Slot<T> {
    pub generation: u32,
    pub value: Option<T>,
}

/// Objects in slots; destroyed slots go on a LIFO free list.
#[derive(Clone, Debug)]
pub(crate) struct Pool<T> {
    pub slots: Vec<Slot<T>>,
    pub free: Vec<u32>,
    live: usize,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { slots: Vec::new(), free: Vec::new(), live: 0 }
    }
}

impl<T> Pool<T> {
    /// Rebuilds a pool from serialized slots (snapshot restore).
    pub fn from_parts(slots: Vec<Slot<T>>, free: Vec<u32>) -> Self {
        let live = slots.iter().filter(|s| s.value.is_some()).count();
        for s in &slots {
            reserve_generation(s.generation);
        }
        Pool { slots, free, live }
    }

    pub fn len(&self) -> usize {
        self.live
    }

    /// Stores `value` and returns its handle. The caller checks limits first;
    /// `u32::MAX - 1` slots is the addressable limit.
    pub fn insert(&mut self, value: T) -> Option<Handle> {
        let generation = next_generation();
        let index = match self.free.pop() {
            Some(i) => {
                let slot = &mut self.slots[i as usize];
                slot.generation = generation;
                slot.value = Some(value);
                i
            }
            None => {
                let i = u32::try_from(self.slots.len()).ok().filter(|&i| i < u32::MAX - 1)?;
                self.slots.push(Slot { generation, value: Some(value) });
                i
            }
        };
        self.live += 1;
        Some(Handle { index1: index + 1, generation })
    }

    fn slot_index(&self, h: Handle) -> Option<usize> {
        let i = (h.index1 as usize).checked_sub(1)?;
        let slot = self.slots.get(i)?;
        (slot.generation == h.generation && slot.value.is_some()).then_some(i)
    }

    pub fn contains(&self, h: Handle) -> bool {
        self.slot_index(h).is_some()
    }

    pub fn get(&self, h: Handle) -> Option<&T> {
        let i = self.slot_index(h)?;
        self.slots[i].value.as_ref()
    }

    pub fn get_mut(&mut self, h: Handle) -> Option<&mut T> {
        let i = self.slot_index(h)?;
        self.slots[i].value.as_mut()
    }

    pub fn remove(&mut self, h: Handle) -> Option<T> {
        let i = self.slot_index(h)?;
        let value = self.slots[i].value.take();
        self.free.push(i as u32);
        self.live -= 1;
        value
    }

    /// Live objects in slot order (deterministic).
    pub fn iter(&self) -> impl Iterator<Item = (Handle, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.value.as_ref().map(|v| (Handle { index1: i as u32 + 1, generation: s.generation }, v))
        })
    }

    /// Live objects in slot order, mutable.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|s| s.value.as_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_and_foreign_ids_are_rejected() {
        let mut a: Pool<u8> = Pool::default();
        let mut b: Pool<u8> = Pool::default();
        let ha = a.insert(1).unwrap();
        let hb = b.insert(2).unwrap();
        assert_eq!(ha.index1, hb.index1, "same slot in both pools");
        assert!(a.get(hb).is_none(), "an id of another pool never matches");
        assert_eq!(a.remove(ha), Some(1));
        let ha2 = a.insert(3).unwrap();
        assert_eq!(ha2.index1, ha.index1, "slot reused");
        assert!(a.get(ha).is_none(), "stale id");
        assert_eq!(a.get(ha2), Some(&3));
        assert!(a.get(Handle { index1: 0, generation: 0 }).is_none());
        assert!(a.get(Handle { index1: 99, generation: ha2.generation }).is_none());
        assert_eq!(a.len(), 1);
    }
}
