//! A rigid body's collision points against colliders.
//!
//! Each point is a sphere at a barycentric combination of particles. A point
//! inside a collider is pushed out the shortest way and the push is spread
//! over its particles (`Embedded::displace`). The push-out is remembered per
//! point, and the friction stage of the substep reduces the tangential
//! motion where the point touches, never reversing it: for a rigid body
//! through its rigid response, by at most `mu` times its share of the
//! push-outs' impulse where it touches (`PointContacts::friction_rigid`,
//! `PointContacts::patches`); for a soft one by `mu * depth` at the
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

/// Points pushed by one collider along normals this close (cosine) share
/// one flat contact.
pub(crate) const PATCH_COS: f32 = 0.9999;

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
    /// Friction's impulse at each point over the substep's sweeps (scratch
    /// of the velocity stage, zeroed by it).
    pub friction: Vec<Vec3>,
    /// Each touching point's share of its patch's normal impulse, friction's
    /// bound there over `mu` (scratch of the velocity stage).
    pub bound: Vec<f32>,
    /// Each touching point's index into `patches` (scratch).
    pub patch: Vec<u32>,
    /// The flat contacts of a rigid body's substep (scratch of the velocity
    /// stage): the points pushed by one collider along one normal, as the
    /// collider's index in `Prepared::sources`, the normal, the sum of
    /// their push-outs' impulses and how many they are. At most one a
    /// point, so it never grows past its first capacity.
    ///
    /// Friction's bound is the patch's normal impulse shared evenly by its
    /// points. How a rigid body's weight divides among more than three
    /// points of one flat contact is not fixed by its motion (statically
    /// indeterminate); the position passes divide it by the order they
    /// visit the points in and by what the body did in the substep before.
    /// Bounded each by its own push, a box spinning on the floor had its
    /// four corners' frictions unequal: they did not cancel, the net force
    /// at the floor tilted the box, which loaded one side more next substep,
    /// and the box rose onto one corner (1.7 cm) and walked 1 to 1.4 cm
    /// while it stopped. Shared, the frictions of a spin cancel and a
    /// slide's total is `mu` times the weight as before.
    pub patches: Vec<(u32, Vec3, f32, u32)>,
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
            friction: vec![Vec3::ZERO; n],
            bound: vec![0.0; n],
            patch: vec![0; n],
            patches: Vec::with_capacity(n),
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
    /// bounded by `mu` times its share of its patch's normal impulse
    /// (Coulomb; see [`PointContacts::patches`]). Taken
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
        self.friction.iter_mut().for_each(|f| *f = Vec3::ZERO);
        let mut rigid = false;
        for (j, e) in r.points.iter().enumerate() {
            let Some((source, mu_s, mu_d)) = self.touching(j, prepared, body, h) else { continue };
            let depth = self.depth[j];
            let n = self.normal[j];
            let q = e.position(p) - n * r.radius;
            let surface = if source.moves() { source.surface_displacement(q, h) } else { Vec3::ZERO };
            self.surface[j] = surface;
            let (_, m) = state.get_or_insert_with(|| (pairs::frame(r, p), motion::motion(&r.clusters, 0, r.carry, p)));
            if m.is_some() {
                rigid = true;
                continue;
            }
            // Pinned: it does not turn freely; friction as for a soft body.
            let cut = tangential_cut(e.velocity_displacement(p) - surface, n, mu_s, mu_d, depth);
            let w = e.inv_mass(p);
            if w > 0.0 && cut != Vec3::ZERO {
                e.add_displacement(p, -cut, w);
            }
        }
        let Some((f, Some(m))) = state.as_mut().filter(|_| rigid) else { return };
        let count = r.points.len();
        // Coulomb's bound at each point: its share of its patch's normal
        // impulse (see `patches`).
        self.patches.clear();
        for j in 0..count {
            if self.depth[j] <= 0.0 {
                continue;
            }
            let (n, source) = (self.normal[j], self.source[j]);
            let q = r.points[j].position(p) - n * r.radius;
            let w_n = pairs::inv_mass_at(f, q, n);
            // The push-out was the impulse `depth / w_n`.
            let push = if w_n > 0.0 { self.depth[j] / w_n } else { 0.0 };
            let same = |&(s, m, _, _): &(u32, Vec3, f32, u32)| s == source && m.dot(n) >= PATCH_COS;
            let k = self.patches.iter().position(same).unwrap_or_else(|| {
                self.patches.push((source, n, 0.0, 0));
                self.patches.len() - 1
            });
            self.patches[k].2 += push;
            self.patches[k].3 += 1;
            self.patch[j] = k as u32;
        }
        for j in 0..count {
            if self.depth[j] > 0.0 {
                let (_, _, push, points) = self.patches[self.patch[j] as usize];
                self.bound[j] = push / points as f32;
            }
        }
        // The touching points one after another, each seeing the motion the
        // last left (Gauss-Seidel), forwards and then backwards, each
        // point's impulse accumulated and bounded as a whole: one sweep in
        // one order left the corners of a box spinning on the floor
        // unequal impulses.
        for sweep in 0..2 {
            for k in 0..count {
                let j = if sweep == 0 { k } else { count - 1 - k };
                if self.depth[j] <= 0.0 {
                    continue;
                }
                let source = &prepared.sources[self.source[j] as usize];
                let (mu_s, mu_d, _) = source.material.against(body);
                let (n, surface) = (self.normal[j], self.surface[j]);
                let q = r.points[j].position(p) - n * r.radius;
                let moved = m.at(q) - surface;
                let tangential = moved - n * n.dot(moved);
                let len = tangential.length();
                let w_t = pairs::inv_mass_at(f, q, tangential / len);
                if !(len > 1.0e-12 && w_t > 0.0) {
                    continue;
                }
                // Coulomb: friction's impulse is at most `mu` times the
                // normal impulse (a ball: it moves the point 7/2 times what
                // the push-out moved it).
                let before = self.friction[j];
                let mut total = before + tangential / w_t;
                let bound = self.bound[j];
                let size = total.length();
                if size > mu_s * bound {
                    total *= mu_d * bound / size;
                }
                let push = total - before;
                if push != Vec3::ZERO {
                    self.friction[j] = total;
                    pairs::shove(r, f, p, q, -push, true);
                    // The body's motion after the push, for the next point.
                    m.displacement -= push * f.inv_mass;
                    m.turn -= f.inv_inertia * (q - f.center).cross(push);
                }
            }
        }
    }
}
