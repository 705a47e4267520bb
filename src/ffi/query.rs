//! `sinew_world_read_contacts`: what the bodies touched in the last step.

use super::boundary::{SinewWorld, optional_out, read_into, world_ref};
use super::types::*;
use crate::Contact;

/// A particle that touched a collider during the last step.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewContact {
    /// The body.
    pub body: SinewBodyId,
    /// The particle's index within the body.
    pub particle: u32,
    /// The collider it touched last (possibly destroyed since the step).
    pub collider: SinewColliderId,
    /// Where the particle's sphere meets the surface, at the end of the step.
    pub point: SinewVec3,
    /// The surface's unit normal, out of the collider.
    pub normal: SinewVec3,
    /// The deepest push-out of one substep, metres.
    pub depth: f32,
    /// The fastest approach along the normal during the step, m/s (>= 0):
    /// an impact's strength, for sounds.
    pub speed: f32,
}

impl From<Contact> for SinewContact {
    fn from(c: Contact) -> Self {
        SinewContact {
            body: c.body.into(),
            particle: c.particle,
            collider: c.collider.into(),
            point: c.point.into(),
            normal: c.normal.into(),
            depth: c.depth,
            speed: c.speed,
        }
    }
}

/// The contacts of the last step: one per particle that touched a collider
/// (its last collider and normal), in body order then particle order.
/// Sleeping bodies report none. Poll it after `sinew_world_step`; no
/// callbacks run during the step.
///
/// - `out`: `capacity` contacts, or NULL with capacity 0 to ask for the count.
/// - `out_count`: optional (NULL = not wanted); receives the count.
///
/// Errors: `NULL_ARGUMENT` (world; `out` NULL with a capacity),
/// `BUFFER_TOO_SMALL` (nothing written, the count stored). Threading: read lock.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_world_read_contacts(
    world: *const SinewWorld,
    out: *mut SinewContact,
    capacity: u32,
    out_count: *mut u32,
) -> SinewResult {
    ffi_boundary!("sinew_world_read_contacts", {
        let world = unsafe { world_ref(world) }?;
        let count = unsafe { optional_out(out_count, "out_count") }?;
        world.read(|w| {
            let all: Vec<SinewContact> = w.contacts().map(SinewContact::from).collect();
            unsafe { read_into(out, capacity, count, all.into_iter()) }
        })
    })
}
