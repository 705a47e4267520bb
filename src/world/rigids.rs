//! The world's rigid body calls: creation (the builder is `rigid`'s), the
//! transform readback and impulses.

use crate::body::Body;
use crate::error::{Error, Result, finite_vec};
use crate::pool::BodyId;
use crate::rigid::{Rigid, RigidDef};
use crate::world::World;
use glam::{Quat, Vec3};

impl World {
    /// Creates a rigid body at rest.
    ///
    /// Refused: NaN/inf, sizes <= 0 (a capsule's `half_height` may be 0), a
    /// convex shape of no or more than 256 (`MAX_CONVEX_POINTS`) points, a
    /// shape larger than 1000 m, a mass <= 0, a stiffness outside (0, 1], a
    /// negative radius or friction, a radius larger than the shape.
    pub fn create_rigid(&mut self, def: &RigidDef) -> Result<BodyId> {
        let made = crate::rigid::body(def)?;
        self.insert_made(made)
    }

    pub(crate) fn rigid(&self, id: BodyId) -> Result<(&Body, &Rigid)> {
        let body = self.body(id)?;
        match &body.rigid {
            Some(r) => Ok((body, r)),
            None => Err(Error::wrong_kind(format!("body is a {:?} body, not a rigid body", body.kind))),
        }
    }

    /// The body's world transform: where the shape's local frame is now.
    pub fn rigid_transform(&self, id: BodyId) -> Result<(Vec3, Quat)> {
        let (body, r) = self.rigid(id)?;
        let p = &self.particles;
        let (at, rotation) = r.placement(|i| (p.position(body.first + i), p.inv_mass[body.first + i]));
        Ok((body.origin + at, rotation))
    }

    /// An impulse (N s) at a world point, applied as to a rigid body: the
    /// particles gain `J / M + (I^-1 ((q - c) x J)) x (x_i - c)`, so the
    /// body's momentum changes by `J` and its angular momentum about its
    /// centre by `(q - c) x J`.
    pub fn apply_rigid_impulse(&mut self, id: BodyId, point: Vec3, impulse: Vec3) -> Result<()> {
        finite_vec(point, "point")?;
        self.apply_rigid_impulse_in(id, |origin| point - origin, impulse)
    }

    /// [`World::apply_rigid_impulse`] at the point `local(origin)` in the
    /// body's frame (`origin` being the frame's, `Body::origin`), the point
    /// checked by the caller.
    pub(crate) fn apply_rigid_impulse_in(
        &mut self,
        id: BodyId,
        local: impl FnOnce(Vec3) -> Vec3,
        impulse: Vec3,
    ) -> Result<()> {
        finite_vec(impulse, "impulse")?;
        let range = self.rigid(id)?.0.range();
        let body = self.bodies.get_mut(id.into()).expect("checked");
        body.wake();
        let point = local(body.origin);
        let r = body.rigid.as_ref().expect("checked");
        let mut p = self.particles.view(range);
        let center = r.center(|i| (p.position(i), p.inv_mass[i]));
        let (mass, inertia) = r.clusters.rigid_mass_properties(0, &p, center);
        let turn = if inertia.determinant().abs() > 1.0e-30 {
            inertia.inverse() * (point - center).cross(impulse)
        } else {
            Vec3::ZERO
        };
        for &i in r.clusters.particle.iter() {
            let i = i as usize;
            if p.inv_mass[i] > 0.0 {
                let dv = impulse / mass + turn.cross(p.position(i) - center);
                p.set_velocity(i, p.velocity(i) + dv);
            }
        }
        Ok(())
    }
}
