//! Contact readback: what touched what in the last step, polled by the
//! engine for sounds and effects (Box2D v3's contact events: arrays, no
//! callbacks).
//!
//! Nothing is stored for it: the friction stage keeps, per particle, the
//! deepest push of the step, the last collider and normal, and the fastest
//! approach; the readback walks those arrays in body order.

use crate::pool::{BodyId, ColliderId};
use crate::world::World;
use glam::Vec3;

/// A particle that touched a collider during the last step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The body.
    pub body: BodyId,
    /// The particle's index within the body.
    pub particle: u32,
    /// The collider it touched last (it may have been destroyed since).
    pub collider: ColliderId,
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

impl World {
    /// The contacts of the last step, in body order and particle order (a
    /// rigid body's collision points after its particles, reported at their
    /// heaviest particle). A sleeping body has none; a body created since
    /// the last step has none.
    pub fn contacts(&self) -> impl Iterator<Item = Contact> + '_ {
        let c = &self.contacts;
        let sources = &self.prepared.last().sources;
        let collider = move |k: u32| sources.get(k as usize).map_or(ColliderId::default(), |s| s.id);
        self.bodies.iter().flat_map(move |(h, b)| {
            let id = BodyId::from(h);
            let points = b.rigid.iter().filter(move |_| !b.sleeping).flat_map(move |r| {
                let pc = &r.contacts;
                r.points.iter().enumerate().filter_map(move |(j, e)| {
                    let depth = *pc.step_depth.get(j)?;
                    if depth <= 0.0 {
                        return None;
                    }
                    let at = |k: usize| self.world_position(b, e.particles[k] as usize);
                    let center: Vec3 = (0..4).map(|k| at(k) * e.weights[k]).sum();
                    let heaviest = (0..4).fold(0, |m, k| if e.weights[k] > e.weights[m] { k } else { m });
                    Some(Contact {
                        body: id,
                        particle: e.particles[heaviest],
                        collider: collider(pc.source[j]),
                        point: center - pc.normal[j] * r.radius,
                        normal: pc.normal[j],
                        depth,
                        speed: pc.step_speed[j],
                    })
                })
            });
            (0..b.count)
                .filter_map(move |i| {
                    let k = b.first + i;
                    let depth = *c.step_depth.get(k)?;
                    if depth <= 0.0 || b.sleeping {
                        return None;
                    }
                    let normal = Vec3::new(c.nx[k], c.ny[k], c.nz[k]);
                    let r = if b.radii.is_empty() { b.radius } else { b.radii[i].max(0.0) };
                    Some(Contact {
                        body: id,
                        particle: i as u32,
                        collider: collider(c.source[k]),
                        point: self.world_position(b, i) - normal * r,
                        normal,
                        depth,
                        speed: c.step_speed[k],
                    })
                })
                .chain(points)
        })
    }

    /// How many contacts [`World::contacts`] yields.
    pub fn contact_count(&self) -> usize {
        self.contacts().count()
    }
}
