//! A rigid body's collision points against colliders.
//!
//! Each point is a sphere at a barycentric combination of particles. A point
//! inside a collider is pushed out the shortest way and the push is spread
//! over its particles (`Embedded::displace`). The push-out is remembered per
//! point, and the friction stage of the substep reduces the point's
//! tangential motion by `mu * depth`, never reversing it, exactly as
//! `collision::friction` does for particles, spread with the same weights.
//!
//! A push-out that leaves the point moving off the surface faster than
//! `collision::friction::MAX_PUSH_SPEED` (a body spawned in the ground, or
//! left deep in it by one long frame and then stepped at short substeps)
//! is slowed to that speed once the body's motion is rigid
//! (`Rigid::finish_substep`): the penetration is fixed, not turned into a
//! launch.

use super::Embedded;
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
            let depth = self.depth[j];
            if depth <= 0.0 {
                continue;
            }
            self.step_depth[j] = self.step_depth[j].max(depth);
            self.step_speed[j] = self.step_speed[j].max(-self.approach[j] / h);
            let source = &prepared.sources[self.source[j] as usize];
            let (mu_s, mu_d, _) = source.material.against(body);
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
}
