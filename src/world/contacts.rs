//! The world's contact readback (see `collision::readback`): the last
//! step's contacts, walked in body order.

use crate::collision::readback::Contact;
use crate::pool::{BodyId, ColliderId, Handle};
use crate::world::World;
use glam::{DVec3, Vec3};

impl World {
    /// The contacts of the last step, in body order and particle order (a
    /// rigid body's collision points after its particles, reported at their
    /// heaviest particle), then the contacts between bodies, one per pair
    /// of pieces that touched (a particle's ball, a collision stick, a rigid
    /// body's solid), in the step's order. A sleeping body has none; a body
    /// created since the last step has none.
    pub fn contacts(&self) -> impl Iterator<Item = Contact> + '_ {
        self.contacts_f64().map(|(c, _)| c)
    }

    /// [`World::contacts`], each with its point in `f64` world space, exact
    /// (the frame's origin plus the point in it; `Contact::point` is that
    /// rounded to `f32` world coordinates).
    pub fn contacts_f64(&self) -> impl Iterator<Item = (Contact, DVec3)> + '_ {
        let c = &self.contacts;
        let sources = &self.prepared.last().sources;
        let collider = move |k: u32| sources.get(k as usize).map_or(ColliderId::default(), |s| s.id);
        self.bodies
            .iter()
            .flat_map(move |(h, b)| {
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
                        let local = |k: usize| self.particles.position(b.first + e.particles[k] as usize).as_dvec3();
                        let center_f64: DVec3 = (0..4).map(|k| local(k) * f64::from(e.weights[k])).sum();
                        let exact = b.origin.as_dvec3() + center_f64 - pc.normal[j].as_dvec3() * f64::from(r.radius);
                        let contact = Contact {
                            body: id,
                            particle: e.particles[heaviest],
                            collider: collider(pc.source[j]),
                            other_body: BodyId::default(),
                            other_particle: 0,
                            point: center - pc.normal[j] * r.radius,
                            normal: pc.normal[j],
                            depth,
                            speed: pc.step_speed[j],
                        };
                        Some((contact, exact))
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
                        let x = self.particles.position(k).as_dvec3();
                        let exact = b.origin.as_dvec3() + x - normal.as_dvec3() * f64::from(r);
                        let contact = Contact {
                            body: id,
                            particle: i as u32,
                            collider: collider(c.source[k]),
                            other_body: BodyId::default(),
                            other_particle: 0,
                            point: self.world_position(b, i) - normal * r,
                            normal,
                            depth,
                            speed: c.step_speed[k],
                        };
                        Some((contact, exact))
                    })
                    .chain(points)
            })
            .chain(self.touches.iter().map(move |t| {
                let id = |slot: u32| {
                    let generation = self.bodies.slots.get(slot as usize).map_or(0, |s| s.generation);
                    BodyId::from(Handle { index1: slot + 1, generation })
                };
                let contact = Contact {
                    body: id(t.body_a),
                    particle: t.particle_a,
                    collider: ColliderId::default(),
                    other_body: id(t.body_b),
                    other_particle: t.particle_b,
                    point: t.point,
                    normal: t.normal,
                    depth: t.depth,
                    speed: t.speed,
                };
                (contact, t.frame.as_dvec3() + t.at.as_dvec3())
            }))
    }

    /// How many contacts [`World::contacts`] yields.
    pub fn contact_count(&self) -> usize {
        self.contacts().count()
    }
}
