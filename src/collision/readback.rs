//! Contact readback: what touched what in the last step, polled by the
//! engine for sounds and effects (Box2D v3's contact events: arrays, no
//! callbacks).
//!
//! Nothing is stored for it: the friction stage keeps, per particle, the
//! deepest push of the step, the last collider and normal, and the fastest
//! approach; the readback walks those arrays in body order. Contacts
//! between bodies are kept by the step as a list (`bodies::Touch`), one per
//! pair of pieces that touched, and come after.

use crate::pool::{BodyId, ColliderId};
use glam::Vec3;

/// A particle that touched a collider during the last step, or two bodies
/// that touched each other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The body.
    pub body: BodyId,
    /// The particle's index within the body (between bodies: the body's
    /// particle nearest the contact).
    pub particle: u32,
    /// The collider it touched last (it may have been destroyed since); the
    /// null id for a contact between bodies.
    pub collider: ColliderId,
    /// The other body of a contact between bodies (it may have been
    /// destroyed since); the null id for a contact with a collider.
    pub other_body: BodyId,
    /// The other body's particle nearest the contact (0 with a collider).
    pub other_particle: u32,
    /// Where the particle's sphere touches the surface, at the end of the step.
    pub point: Vec3,
    /// The surface normal, out of the collider.
    pub normal: Vec3,
    /// The deepest push-out of a substep (m).
    pub depth: f32,
    /// The fastest approach speed along the normal (m/s, >= 0): an impact's
    /// strength, for sounds.
    pub speed: f32,
}
