//! Particle rigid bodies (Jakobsen, "Rigid bodies"; shape matching after
//! Mueller et al. 2005): a solid made of particles, in one of two models.
//!
//! - **Tetrahedron.** Four particles and six rigid sticks carry the body; the
//!   collision shape is embedded in it. Every collision point is a fixed
//!   barycentric combination `c = sum w_k x_k` of the four particles
//!   (precomputed at creation), and a push-out `d` of the point is spread
//!   over them as the article's cube-in-tetrahedron does:
//!   `dx_k = w_k m_k^-1 d / sum_j w_j^2 m_j^-1`, which moves the point by
//!   exactly `d`. The tetrahedron is placed so that its four equal masses
//!   have the second moments of the solid shape (`build`): it turns and
//!   tumbles with the shape's inertia, not the much larger inertia of a
//!   tetrahedron around the shape.
//! - **Shape-matched.** The shape is filled with particles on a lattice, one
//!   collision sphere each, and one cluster pulls them to the best rigid fit
//!   of their rest shape (`constraints::shape_match`) with a stiffness.
//!
//! Both collide through their collision points (spheres of one radius)
//! against colliders (`contact`) and against other rigid bodies' points
//! (`pairs`), with Coulomb friction. A body's transform is read from its
//! cluster's fit: the centre of mass and the rotation since creation.

pub mod build;
pub mod contact;
pub mod motion;
pub mod pairs;

use crate::body::{Body, BodyKind, Made};
use crate::collision::friction::push_excess;
use crate::collision::{Candidates, Material, Prepared};
use crate::constraints::distance::DistanceSet;
use crate::constraints::shape_match::{ClusterSet, weight};
use crate::error::{Error, Result, finite_vec, non_negative, positive, unit_rotation};
use crate::exec::simd::SimdLevel;
use crate::exec::workers::Serial;
use crate::particles::ParticlesMut;
use glam::{DVec3, Quat, Vec3};

/// Relaxation passes of a rigid body per pass of the world (contacts, then
/// its shape), as for ragdolls: one pass a substep leaves a tetrahedron
/// visibly soft where it lands.
pub const PASSES: u32 = 2;

/// Most particles along one axis of a shape-matched lattice.
pub const MAX_LATTICE: usize = 16;

/// Most points of a convex shape.
pub const MAX_CONVEX_POINTS: usize = 256;

/// A rigid body's solid shape, in its local frame.
#[derive(Debug, Clone, PartialEq)]
pub enum RigidShape {
    /// A box centred on the origin.
    Box {
        /// Half the size along each local axis, > 0.
        half_extents: Vec3,
    },
    /// A ball centred on the origin.
    Sphere {
        /// Metres, > 0.
        radius: f32,
    },
    /// A capsule around the local Y axis, centred on the origin.
    Capsule {
        /// Half the length of the inner segment, >= 0.
        half_height: f32,
        /// Metres, > 0.
        radius: f32,
    },
    /// The convex hull of points (for mass, treated as their bounding box).
    Convex {
        /// 1..=256 points.
        points: Vec<Vec3>,
    },
}

/// How the body is made of particles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RigidModel {
    /// Four particles, six rigid sticks, the shape embedded.
    Tetrahedron,
    /// A lattice of particles held by one shape-matching cluster.
    ShapeMatched {
        /// Fraction of the way to the rigid fit per substep, in (0, 1];
        /// 1 is rigid.
        stiffness: f32,
    },
}

/// Everything `create_rigid` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidDef {
    /// The solid, in the body's local frame.
    pub shape: RigidShape,
    /// Tetrahedron or shape-matched particles.
    pub model: RigidModel,
    /// Where the shape's local frame is in the world.
    pub position: Vec3,
    /// See `position`.
    pub rotation: Quat,
    /// Kilograms, > 0.
    pub mass: f32,
    /// Radius of the collision spheres of a box or convex shape in metres,
    /// not negative; 0 = half the box's smallest half size (a tenth of a
    /// convex shape's); at most the smallest half size. The spheres sit inside the
    /// shape, touching its faces. Spheres and capsules use their own radius
    /// (a shape-matched sphere is filled with spheres of this radius).
    pub particle_radius: f32,
    /// Coulomb coefficient against other rigid bodies (the pair uses the
    /// geometric mean of both); colliders bring their own.
    pub friction: f32,
}

impl RigidDef {
    /// A 1 kg body of `shape` at the origin: a rigid tetrahedron, automatic
    /// radius, friction 0.5.
    pub fn new(shape: RigidShape) -> Self {
        RigidDef {
            shape,
            model: RigidModel::Tetrahedron,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            mass: 1.0,
            particle_radius: 0.0,
            friction: 0.5,
        }
    }
}

/// A collision point: `sum weights[k] * x[particles[k]]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Embedded {
    pub particles: [u32; 4],
    pub weights: [f32; 4],
}

impl Embedded {
    /// Where the point is now.
    #[inline(always)]
    pub fn position(&self, p: &ParticlesMut) -> Vec3 {
        let mut c = Vec3::ZERO;
        for k in 0..4 {
            c += p.position(self.particles[k] as usize) * self.weights[k];
        }
        c
    }

    /// The point's displacement over the substep, `x - x'`.
    #[inline(always)]
    pub fn displacement(&self, p: &ParticlesMut) -> Vec3 {
        let mut c = Vec3::ZERO;
        for k in 0..4 {
            let i = self.particles[k] as usize;
            c += (p.position(i) - p.previous(i)) * self.weights[k];
        }
        c
    }

    /// The point's displacement `v h` by its velocity, for the stages after
    /// the passes (friction), where the velocity is the state.
    #[inline(always)]
    pub fn velocity_displacement(&self, p: &ParticlesMut) -> Vec3 {
        let mut c = Vec3::ZERO;
        for k in 0..4 {
            let i = self.particles[k] as usize;
            c += p.displacement(i) * self.weights[k];
        }
        c
    }

    /// `sum w_k^2 m_k^-1`: the point's generalised inverse mass.
    #[inline(always)]
    pub fn inv_mass(&self, p: &ParticlesMut) -> f32 {
        (0..4).map(|k| self.weights[k] * self.weights[k] * p.inv_mass[self.particles[k] as usize]).sum()
    }

    /// Moves the particles so the point moves by `delta` (Jakobsen's
    /// barycentric response); `w` is [`Embedded::inv_mass`], > 0.
    #[inline(always)]
    pub fn displace(&self, p: &mut ParticlesMut, delta: Vec3, w: f32) {
        for k in 0..4 {
            let i = self.particles[k] as usize;
            let s = self.weights[k] * p.inv_mass[i] / w;
            if s != 0.0 {
                p.set_position(i, p.position(i) + delta * s);
            }
        }
    }

    /// Changes the point's displacement over the substep by `delta` (a
    /// velocity change, as friction makes).
    #[inline(always)]
    pub fn add_displacement(&self, p: &mut ParticlesMut, delta: Vec3, w: f32) {
        for k in 0..4 {
            let i = self.particles[k] as usize;
            let s = self.weights[k] * p.inv_mass[i] / w;
            if s != 0.0 {
                p.add_displacement(i, delta * s);
            }
        }
    }
}

/// The rigid part of a rigid body.
#[derive(Debug, Clone, PartialEq)]
pub struct Rigid {
    /// Collision points, spheres of `radius`.
    pub points: Vec<Embedded>,
    pub radius: f32,
    /// One cluster over every particle: the transform readback, and the
    /// shape of a shape-matched body.
    pub clusters: ClusterSet,
    /// The shape's origin relative to the rest centre of mass, in the rest
    /// frame (world axes at creation).
    pub origin: Vec3,
    /// Push-outs from colliders this substep, per point.
    pub contacts: contact::PointContacts,
    /// What the velocity stage carries over this substep's passes.
    pub carry: motion::Carry,
    /// The definition it was built from.
    pub def: RigidDef,
}

impl Rigid {
    /// Fraction of the way to the fit per projection, for a shape-matched
    /// body that does `passes` projections a substep; `None` for a
    /// tetrahedron (its sticks hold it).
    fn projection_stiffness(&self, passes: u32) -> Option<f32> {
        match self.def.model {
            RigidModel::Tetrahedron => None,
            RigidModel::ShapeMatched { stiffness } if stiffness >= 1.0 => Some(1.0),
            RigidModel::ShapeMatched { stiffness } => Some(1.0 - (1.0 - stiffness).powf(1.0 / passes as f32)),
        }
    }

    /// Whether the body is meant to stay rigid (its velocities are made
    /// rigid after each substep).
    pub fn is_rigid(&self) -> bool {
        match self.def.model {
            RigidModel::Tetrahedron => true,
            RigidModel::ShapeMatched { stiffness } => stiffness >= 1.0,
        }
    }

    /// The start of a substep, after the prediction: clears the contacts
    /// and keeps a shape-matched body's turn as it starts (see `motion`).
    pub fn begin_substep(&mut self, p: &ParticlesMut) {
        self.contacts.clear();
        let turn = match self.def.model {
            RigidModel::Tetrahedron => Vec3::ZERO,
            RigidModel::ShapeMatched { .. } => motion::start_turn(&self.clusters, 0, p),
        };
        self.carry = motion::Carry { turn, drift: Vec3::ZERO };
    }

    /// One collision pass of the points against the body's candidates.
    pub fn collide(&mut self, p: &mut ParticlesMut, candidates: &Candidates, prepared: &Prepared) {
        if !candidates.is_empty() {
            self.contacts.project(&self.points, self.radius, p, candidates, prepared);
        }
    }

    /// One relaxation pass: collisions, then the shape (the sticks of a
    /// tetrahedron, the cluster of a shape-matched body; `passes` such
    /// passes are made per substep).
    pub fn project(
        &mut self,
        p: &mut ParticlesMut,
        sticks: &mut DistanceSet,
        candidates: &Candidates,
        prepared: &Prepared,
        inv_h2: f32,
        passes: u32,
    ) {
        self.collide(p, candidates, prepared);
        let before = self.shape_center(p);
        match self.projection_stiffness(passes) {
            // Six sticks: too few to fill vector lanes.
            None => sticks.project(p, inv_h2, SimdLevel::Scalar, &Serial),
            Some(alpha) => self.clusters.project_rigid_by(0, p, alpha),
        }
        self.shape_moved(before, p);
    }

    /// The centre of mass before a projection of the body's shape (see
    /// [`Rigid::shape_moved`]).
    pub(crate) fn shape_center(&self, p: &ParticlesMut) -> DVec3 {
        motion::center_f64(&self.clusters, 0, p)
    }

    /// Keeps how far a projection of the body's shape (its sticks or its
    /// fit) moved its centre of mass from `before`: rounding, which the
    /// velocity stage does not take for a velocity (see `motion`).
    pub(crate) fn shape_moved(&mut self, before: DVec3, p: &ParticlesMut) {
        self.carry.drift += (self.shape_center(p) - before).as_vec3();
    }

    /// The friction stage against colliders (see `contact`): a rigid body's
    /// at its contact points, through its rigid response; a soft one's at
    /// its points' centres, spread over their particles.
    pub fn friction(&mut self, p: &mut ParticlesMut, prepared: &Prepared, body: Option<&Material>, h: f32) {
        let mut contacts = std::mem::take(&mut self.contacts);
        if self.is_rigid() {
            contacts.friction_rigid(self, p, prepared, body, h);
        } else {
            contacts.friction(&self.points, p, prepared, body, h);
        }
        self.contacts = contacts;
    }

    /// The end of the velocity stage (after friction): rigid velocities for a
    /// rigid body, the push-out speed capped; the fit is brought up to date
    /// for the readback.
    pub fn finish_substep(&mut self, p: &mut ParticlesMut, h: f32) {
        if self.is_rigid() {
            motion::rigidify(&self.clusters, 0, self.carry, p);
        }
        self.cap_push_speed(p, h);
        self.clusters.fit_rigid(0, p);
    }

    /// Takes back, through the rigid response at each touching point, the
    /// speed away from the surface that the push-out gave beyond
    /// `MAX_PUSH_SPEED`.
    fn cap_push_speed(&mut self, p: &mut ParticlesMut, h: f32) {
        let c = &self.contacts;
        let mut frame: Option<pairs::Frame> = None;
        for (j, e) in self.points.iter().enumerate() {
            if c.depth[j] <= 0.0 {
                continue;
            }
            let n = c.normal[j];
            let apart = n.dot(e.velocity_displacement(p) - c.surface[j]);
            let excess = push_excess(apart, 0.0, h);
            if excess <= 0.0 {
                continue;
            }
            let f = frame.get_or_insert_with(|| pairs::frame(self, p));
            let q = e.position(p) - n * self.radius;
            let w = pairs::inv_mass_at(f, q, n);
            if w > 0.0 {
                pairs::shove(self, f, p, q, -n * (excess / w), true);
            }
        }
    }

    /// Where the solid's local frame is, in the body's frame: the fit's
    /// centre of mass and rotation (`x(i)` = particle `i`'s position and
    /// inverse mass).
    pub(crate) fn placement(&self, x: impl Fn(usize) -> (Vec3, f32)) -> (Vec3, Quat) {
        let center = self.center(x);
        let turn = self.clusters.rotation[0];
        (center + turn * self.origin, self.clusters.world_rotation(0).normalize())
    }

    /// The ray `origin + t dir` (body frame, `dir` of unit length) against
    /// the solid where its fit puts it: the entry `t <= max_t` and the
    /// outward normal there. A box, ball or capsule is met as that shape
    /// (the slabs, sphere and cylinder of `collision::ray`); a convex solid as
    /// the union of its collision spheres, which is how it collides.
    /// `None` on a miss or from inside.
    pub(crate) fn raycast(
        &self,
        x: impl Fn(usize) -> (Vec3, f32) + Copy,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
    ) -> Option<(f32, Vec3)> {
        use crate::collision::ray;
        let (at, rotation) = self.placement(x);
        // In the solid's frame, where its shape is axis-aligned at the origin.
        let to_local = rotation.conjugate();
        let (o, d) = (to_local * (origin - at), to_local * dir);
        let hit = match &self.def.shape {
            RigidShape::Box { half_extents } => {
                ray::cuboid(o, d, max_t, Vec3::ZERO, glam::Mat3::IDENTITY, *half_extents)
            }
            RigidShape::Sphere { radius } => ray::sphere(o, d, max_t, Vec3::ZERO, *radius),
            RigidShape::Capsule { half_height, radius } => {
                ray::capsule(o, d, max_t, -Vec3::Y * *half_height, Vec3::Y * *half_height, *radius)
            }
            RigidShape::Convex { .. } => {
                let point = |e: &Embedded| (0..4).map(|k| x(e.particles[k] as usize).0 * e.weights[k]).sum::<Vec3>();
                return self.points.iter().filter_map(|e| ray::sphere(origin, dir, max_t, point(e), self.radius)).fold(
                    None,
                    |best: Option<(f32, Vec3)>, hit| match best {
                        Some(b) if b.0 <= hit.0 => Some(b),
                        _ => Some(hit),
                    },
                );
            }
        };
        hit.map(|(t, n)| (t, rotation * n))
    }

    /// Centre of mass now (pinned particles weigh [`weight`]).
    pub(crate) fn center(&self, p: impl Fn(usize) -> (Vec3, f32)) -> Vec3 {
        let (mut mass, mut sum) = (0.0f32, Vec3::ZERO);
        let origin = p(self.clusters.particle[0] as usize).0;
        for &i in self.clusters.particle.iter() {
            let (x, inv_mass) = p(i as usize);
            let w = weight(inv_mass);
            mass += w;
            sum += (x - origin) * w;
        }
        origin + sum / mass
    }
}

fn check_def(def: &RigidDef) -> Result<RigidDef> {
    let mut def = def.clone();
    match &def.shape {
        RigidShape::Box { half_extents } => {
            finite_vec(*half_extents, "half_extents")?;
            if !half_extents.cmpgt(Vec3::ZERO).all() {
                return Err(Error::invalid_argument(format!("half_extents must be > 0, got {half_extents}")));
            }
        }
        RigidShape::Sphere { radius } => {
            positive(*radius, "radius")?;
        }
        RigidShape::Capsule { half_height, radius } => {
            non_negative(*half_height, "half_height")?;
            positive(*radius, "radius")?;
        }
        RigidShape::Convex { points } => {
            if points.is_empty() || points.len() > MAX_CONVEX_POINTS {
                return Err(Error::invalid_argument(format!(
                    "a convex shape needs 1..={MAX_CONVEX_POINTS} points, got {}",
                    points.len()
                )));
            }
            for (k, &q) in points.iter().enumerate() {
                finite_vec(q, &format!("points[{k}]"))?;
            }
        }
    }
    if let RigidModel::ShapeMatched { stiffness } = def.model
        && !(stiffness.is_finite() && stiffness > 0.0 && stiffness <= 1.0)
    {
        return Err(Error::invalid_argument(format!("stiffness must be in (0, 1], got {stiffness}")));
    }
    finite_vec(def.position, "position")?;
    def.rotation = unit_rotation(def.rotation, "rotation")?;
    positive(def.mass, "mass")?;
    non_negative(def.particle_radius, "particle_radius")?;
    non_negative(def.friction, "friction")?;
    let size = build::extent(&def.shape);
    if !(size.is_finite() && size <= 1.0e3) {
        return Err(Error::invalid_argument(format!("the shape must fit in 1000 m, its extent is {size}")));
    }
    Ok(def)
}

/// Checks a definition and builds the rigid body of it, at rest (see
/// `World::create_rigid` for what is refused).
pub(crate) fn body(def: &RigidDef) -> Result<Made> {
    let def = check_def(def)?;
    let built = build::build(&def);
    let mut body = Body::new(BodyKind::Rigid, 0, built.positions.len());
    // The body's bounds are its particles' grown by this, so it must
    // reach every collision sphere: a tetrahedron's corners lie inside
    // the shape, its collision points around them.
    let reach = built
        .points
        .iter()
        .map(|e| {
            let c: Vec3 = (0..4).map(|k| built.positions[e.particles[k] as usize] * e.weights[k]).sum();
            (c - built.center).length()
        })
        .fold(0.0, f32::max);
    body.radius = match def.model {
        RigidModel::Tetrahedron => reach + built.radius,
        // Its points lie near their particles (`build::lattice_masses`).
        RigidModel::ShapeMatched { .. } => {
            let off = |(k, e): (usize, &Embedded)| {
                let c: Vec3 = (0..4).map(|j| built.positions[e.particles[j] as usize] * e.weights[j]).sum();
                (c - built.positions[k]).length()
            };
            built.radius + built.points.iter().enumerate().map(off).fold(0.0, f32::max)
        }
    };
    // The particles do not collide as particles: the points do.
    body.radii = vec![-1.0; built.positions.len()];
    if !built.sticks.is_empty() {
        let n = body.count;
        body.distances.extend(&built.sticks, crate::particles::padded(n));
    }
    let mut clusters = ClusterSet::default();
    let members: Vec<(u32, Vec3)> = built.positions.iter().enumerate().map(|(i, &x)| (i as u32, x)).collect();
    clusters.push(&members, def.rotation);
    let n_points = built.points.len();
    // Its sticks and the one shape-matching cluster.
    let constraints = built.sticks.len() + 1;
    let inv_mass = vec![built.inv_mass; built.positions.len()];
    body.rigid = Some(Box::new(Rigid {
        points: built.points,
        radius: built.radius,
        clusters,
        origin: def.position - built.center,
        contacts: contact::PointContacts::new(n_points),
        carry: motion::Carry::default(),
        def,
    }));
    Ok(Made { positions: built.positions, inv_mass, constraints, body })
}
