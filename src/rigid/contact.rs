//! A rigid body's collision points against colliders.
//!
//! Each point is a sphere at a barycentric combination of particles. A point
//! inside a collider is pushed out the shortest way and the push is spread
//! over its particles (`Embedded::displace`). The push-out is remembered per
//! point, and the friction stage of the substep reduces the tangential
//! motion where the point touches, never reversing it: for a rigid body
//! through its rigid response, by at most `mu` times the push-out's impulse
//! (`PointContacts::friction_rigid`); for a soft one by `mu * depth` at the
//! point's centre, as `collision::friction` does for particles, spread with
//! the same weights.
//!
//! A push-out that leaves the point moving off the surface faster than
//! `collision::friction::MAX_PUSH_SPEED` (a body spawned in the ground, or
//! left deep in it by one long frame and then stepped at short substeps)
//! is slowed to that speed once the body's motion is rigid
//! (`Rigid::finish_substep`): the penetration is fixed, not turned into a
//! launch.

use super::Embedded;
use super::motion::{self, Motion};
use super::pairs;
use crate::collision::friction::tangential_cut;
use crate::collision::{Candidates, Material, Prepared, Shape};
use crate::particles::ParticlesMut;
use glam::Vec3;

/// Per-point contact memory of one substep, and of the step for the
/// contact readback (as `collision::friction::Contacts` for particles).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointContacts {
    pub depth: Vec<f32>,
    pub normal: Vec<Vec3>,
    /// Index into `Prepared::sources` of the collider that pushed last.
    pub source: Vec<u32>,
    /// Most negative normal displacement (m) of the substep met at a push.
    pub approach: Vec<f32>,
    /// Deepest substep push of the step (0: no contact this step).
    pub step_depth: Vec<f32>,
    /// Fastest approach (m/s) of the step.
    pub step_speed: Vec<f32>,
    /// The pushing surface's displacement over the substep (a moving
    /// collider's), for the velocity stage.
    pub surface: Vec<Vec3>,
}

impl PointContacts {
    pub fn new(n: usize) -> Self {
        PointContacts {
            depth: vec![0.0; n],
            normal: vec![Vec3::Y; n],
            source: vec![0; n],
            approach: vec![0.0; n],
            step_depth: vec![0.0; n],
            step_speed: vec![0.0; n],
            surface: vec![Vec3::ZERO; n],
        }
    }

    /// Forgets the last substep's contacts.
    pub fn clear(&mut self) {
        self.depth.fill(0.0);
        self.approach.fill(0.0);
    }

    /// Forgets the last step's record.
    pub fn clear_step(&mut self) {
        self.step_depth.fill(0.0);
        self.step_speed.fill(0.0);
    }

    /// One collision pass of every point against the candidates.
    pub fn project(
        &mut self,
        points: &[Embedded],
        radius: f32,
        p: &mut ParticlesMut,
        candidates: &Candidates,
        prepared: &Prepared,
    ) {
        self.project_kind(points, radius, p, &candidates.planes, &prepared.planes);
        self.project_kind(points, radius, p, &candidates.spheres, &prepared.spheres);
        self.project_kind(points, radius, p, &candidates.boxes, &prepared.boxes);
        self.project_kind(points, radius, p, &candidates.capsules, &prepared.capsules);
        self.project_kind(points, radius, p, &candidates.convexes, &prepared.convexes);
        for c in candidates.soups() {
            let soup = &prepared.soups[c.soup as usize];
            for (j, e) in points.iter().enumerate() {
                let w = e.inv_mass(p);
                if w <= 0.0 {
                    continue;
                }
                for &k in &c.all {
                    let x = e.position(p);
                    if let Some((normal, depth)) = soup.point_contact(k, x, x - e.displacement(p), radius) {
                        self.approach[j] = self.approach[j].min(normal.dot(e.displacement(p)));
                        e.displace(p, normal * depth, w);
                        self.depth[j] += depth;
                        self.normal[j] = normal;
                        self.source[j] = soup.source;
                    }
                }
            }
        }
    }

    fn project_kind<S: Shape>(
        &mut self,
        points: &[Embedded],
        radius: f32,
        p: &mut ParticlesMut,
        candidates: &[u32],
        shapes: &[S],
    ) {
        for &k in candidates {
            let shape = &shapes[k as usize];
            for (j, e) in points.iter().enumerate() {
                let c = e.position(p);
                if let Some((normal, depth)) = shape.contact(c, radius) {
                    let w = e.inv_mass(p);
                    if w <= 0.0 {
                        continue;
                    }
                    self.approach[j] = self.approach[j].min(normal.dot(e.displacement(p)));
                    e.displace(p, normal * depth, w);
                    self.depth[j] += depth;
                    self.normal[j] = normal;
                    self.source[j] = shape.source();
                }
            }
        }
    }

    /// The friction stage: each touching point's tangential motion shrinks
    /// by `mu * depth`, stopping but never reversing. Also keeps the step's
    /// record and the surface's motion (for `Rigid::finish_substep`).
    pub fn friction(
        &mut self,
        points: &[Embedded],
        p: &mut ParticlesMut,
        prepared: &Prepared,
        body: Option<&Material>,
        h: f32,
    ) {
        for (j, e) in points.iter().enumerate() {
            let Some((source, mu_s, mu_d)) = self.touching(j, prepared, body, h) else { continue };
            let depth = self.depth[j];
            let c = e.position(p);
            let surface = if source.moves() { source.surface_displacement(c, h) } else { Vec3::ZERO };
            let n = self.normal[j];
            let cut = tangential_cut(e.velocity_displacement(p) - surface, n, mu_s, mu_d, depth);
            let w = e.inv_mass(p);
            if w > 0.0 && cut != Vec3::ZERO {
                e.add_displacement(p, -cut, w);
            }
            self.surface[j] = surface;
        }
    }

    /// Contact `j`, if it touches this substep: its step's deepest push and
    /// fastest approach recorded, its collider and the static and dynamic
    /// friction against `body`.
    fn touching<'a>(
        &mut self,
        j: usize,
        prepared: &'a Prepared,
        body: Option<&Material>,
        h: f32,
    ) -> Option<(&'a crate::collision::Source, f32, f32)> {
        let depth = self.depth[j];
        if depth <= 0.0 {
            return None;
        }
        self.step_depth[j] = self.step_depth[j].max(depth);
        self.step_speed[j] = self.step_speed[j].max(-self.approach[j] / h);
        let source = &prepared.sources[self.source[j] as usize];
        let (mu_s, mu_d, _) = source.material.against(body);
        Some((source, mu_s, mu_d))
    }

    /// [`PointContacts::friction`] for a rigid body: each touching point's
    /// friction acts where it touches, `q = c - n r` on its sphere, on the
    /// motion of the body there (`rigid::motion`), through the body's
    /// rigid response, as between rigid bodies (`pairs::friction`), and
    /// bounded by `mu` times the push-out's impulse (Coulomb). Taken
    /// at the sphere's centre, through its particles, the friction did not
    /// see the body turn: a ball spinning on the ground span on in place
    /// and a sliding one never rolled, once the spin was no longer damped
    /// away (issue 31, item 6).
    pub(crate) fn friction_rigid(
        &mut self,
        r: &super::Rigid,
        p: &mut ParticlesMut,
        prepared: &Prepared,
        body: Option<&Material>,
        h: f32,
    ) {
        let mut state: Option<(pairs::Frame, Option<Motion>)> = None;
        for (j, e) in r.points.iter().enumerate() {
            let Some((source, mu_s, mu_d)) = self.touching(j, prepared, body, h) else { continue };
            let depth = self.depth[j];
            let n = self.normal[j];
            let q = e.position(p) - n * r.radius;
            let surface = if source.moves() { source.surface_displacement(q, h) } else { Vec3::ZERO };
            self.surface[j] = surface;
            let (f, m) = state.get_or_insert_with(|| (pairs::frame(r, p), motion::motion(&r.clusters, 0, r.carry, p)));
            let Some(m) = m else {
                // Pinned: it does not turn freely; friction as for a soft body.
                let cut = tangential_cut(e.velocity_displacement(p) - surface, n, mu_s, mu_d, depth);
                let w = e.inv_mass(p);
                if w > 0.0 && cut != Vec3::ZERO {
                    e.add_displacement(p, -cut, w);
                }
                continue;
            };
            let moved = m.at(q) - surface;
            let tangential = moved - n * n.dot(moved);
            let len = tangential.length();
            let (w_n, w_t) = (pairs::inv_mass_at(f, q, n), pairs::inv_mass_at(f, q, tangential / len));
            if !(len > 1.0e-12 && w_n > 0.0 && w_t > 0.0) {
                continue;
            }
            // Coulomb: the push-out was the impulse `depth / w_n`, friction's
            // is at most `mu` times it, and moves the point by `w_t` times
            // that (a ball: 7/2 times what the push-out moved it).
            let cut = tangential_cut(moved, n, mu_s, mu_d, depth * w_t / w_n);
            if cut != Vec3::ZERO {
                let push = cut / w_t;
                pairs::shove(r, f, p, q, -push, true);
                // The body's motion after the push, for the next point.
                m.displacement -= push * f.inv_mass;
                m.turn -= f.inv_inertia * (q - f.center).cross(push);
            }
        }
    }
}
