//! Cloth: bodies built from a grid or a triangle mesh (Jakobsen's "Cloth
//! simulation": particles at the vertices, sticks along the edges), with
//! shear, bending and tethers, wind, collisions of its own triangles, and the
//! readback an engine's renderer needs (per-vertex normals, bounds, positions
//! per original vertex).

pub mod aero;
pub mod build;
pub mod internal_friction;
pub mod render;
pub mod self_collision;

use crate::body::{Body, BodyKind};
use crate::error::{Error, Result, finite_vec, non_negative, positive};
use crate::pool::BodyId;
use crate::world::{World, unit_rotation};
use build::{Built, ClothOptions, GridDef, MeshDef, PIN_ALL};
use glam::Vec3;

/// How a cloth was built, kept so a snapshot can store this instead of the
/// thousands of constraints it produces (rebuilding gives the same bits).
#[derive(Debug, Clone, PartialEq)]
pub enum Recipe {
    /// From [`World::create_cloth_grid`].
    Grid(GridDef),
    /// From [`World::create_cloth_mesh`].
    Mesh(MeshRecipe),
}

/// An owned copy of a [`MeshDef`].
#[derive(Debug, Clone, PartialEq)]
pub struct MeshRecipe {
    pub position: Vec3,
    pub rotation: glam::Quat,
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub weld_tolerance: f32,
    pub inv_masses: Option<Vec<f32>>,
    pub pinned: Option<Vec<bool>>,
    pub options: ClothOptions,
}

impl MeshRecipe {
    /// The definition it copies.
    pub fn def(&self) -> MeshDef<'_> {
        MeshDef {
            position: self.position,
            rotation: self.rotation,
            vertices: &self.vertices,
            triangles: &self.triangles,
            weld_tolerance: self.weld_tolerance,
            inv_masses: self.inv_masses.as_deref(),
            pinned: self.pinned.as_deref(),
            options: self.options,
        }
    }
}

/// The cloth part of a cloth body.
#[derive(Debug, Clone, PartialEq)]
pub struct Cloth {
    /// Triangles over the body's particles, counter-clockwise from the front.
    pub triangles: Vec<[u32; 3]>,
    /// The particle of each vertex the engine gave (identity for grids).
    pub vertex_map: Vec<u32>,
    pub drag: f32,
    pub lift: f32,
    /// This cloth's wind, added to the world's (m/s).
    pub wind: Vec3,
    pub self_collision: bool,
    pub cloth_collision: bool,
    /// Neighbours of each particle (CSR), derived from the triangles.
    pub neighbour_start: Vec<u32>,
    pub neighbours: Vec<u32>,
    /// How it was built, while its sticks, bends, tethers and triangles are
    /// still exactly what that gives (adding sticks to the body drops it).
    pub recipe: Option<Box<Recipe>>,
    /// Which side of which triangle its vertices were kept on in the last
    /// step (see `self_collision`): state the next step reads.
    pub sides: Vec<self_collision::Side>,
}

impl Cloth {
    /// A cloth part over `count` particles; derives the neighbour lists.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        count: usize,
        triangles: Vec<[u32; 3]>,
        vertex_map: Vec<u32>,
        drag: f32,
        lift: f32,
        wind: Vec3,
        self_collision: bool,
        cloth_collision: bool,
    ) -> Self {
        let (neighbour_start, neighbours) = self_collision::neighbours(count, &triangles);
        Cloth {
            triangles,
            vertex_map,
            drag,
            lift,
            wind,
            self_collision,
            cloth_collision,
            neighbour_start,
            neighbours,
            recipe: None,
            sides: Vec::new(),
        }
    }
}

fn check_options(o: &ClothOptions) -> Result<()> {
    positive(o.mass, "mass")?;
    non_negative(o.stretch_compliance, "stretch_compliance")?;
    non_negative(o.shear_compliance, "shear_compliance")?;
    non_negative(o.bend_compliance, "bend_compliance")?;
    if !(o.tether_scale.is_finite() && o.tether_scale >= 1.0) {
        return Err(Error::invalid_argument(format!("tether_scale must be >= 1, got {}", o.tether_scale)));
    }
    non_negative(o.thickness, "thickness")?;
    non_negative(o.drag, "drag")?;
    non_negative(o.lift, "lift")?;
    Ok(())
}

/// Grids beyond this many vertices per side are refused (2^16 x 2^16 would
/// not fit a u32 particle index anyway).
const MAX_GRID_SIDE: u32 = 1 << 15;

impl World {
    /// Creates a cloth from a grid definition.
    pub fn create_cloth_grid(&mut self, def: &GridDef) -> Result<BodyId> {
        finite_vec(def.position, "transform.position")?;
        let rotation = unit_rotation(def.rotation, "transform.rotation")?;
        for (v, what) in [(def.columns, "columns"), (def.rows, "rows")] {
            if !(2..=MAX_GRID_SIDE).contains(&v) {
                return Err(Error::invalid_argument(format!("{what} must be in 2..={MAX_GRID_SIDE}, got {v}")));
            }
        }
        positive(def.spacing, "spacing")?;
        if def.pins & !PIN_ALL != 0 {
            return Err(Error::invalid_argument(format!("pin_flags has unknown bits: {:#x}", def.pins & !PIN_ALL)));
        }
        check_options(&def.options)?;
        let far = def.spacing * def.columns.max(def.rows) as f32;
        if !far.is_finite() || !(def.position.abs().max_element() + far).is_finite() {
            return Err(Error::invalid_argument("the grid's extent is not finite"));
        }
        // Refused before building: a grid of up to 2^30 vertices would
        // otherwise be allocated in full only to be turned away.
        let vertices = def.columns as usize * def.rows as usize;
        if !crate::world::limit_ok(self.settings.max_particles, self.particle_count, vertices) {
            return Err(Error::limit(format!(
                "max_particles is {}: {} particles exist, a {} x {} grid adds {vertices}",
                self.settings.max_particles, self.particle_count, def.columns, def.rows
            )));
        }
        let def = GridDef { rotation, ..*def };
        let built = build::grid(&def);
        self.add_cloth(built, &def.options, Recipe::Grid(def))
    }

    /// Creates a cloth from a triangle mesh, welding vertices closer than the
    /// tolerance. Degenerate triangles (repeated or welded indices, no area)
    /// are left out; their vertices still map to particles.
    pub fn create_cloth_mesh(&mut self, def: &MeshDef) -> Result<BodyId> {
        finite_vec(def.position, "transform.position")?;
        let rotation = unit_rotation(def.rotation, "transform.rotation")?;
        let n = def.vertices.len();
        if n == 0 || def.triangles.is_empty() {
            return Err(Error::invalid_argument(format!(
                "a mesh cloth needs vertices and triangles (got {n} vertices, {} triangles)",
                def.triangles.len()
            )));
        }
        if u32::try_from(n).is_err() {
            return Err(Error::limit("more than 2^32 - 1 vertices"));
        }
        for (i, &v) in def.vertices.iter().enumerate() {
            finite_vec(v, &format!("vertices[{i}]"))?;
        }
        for (k, t) in def.triangles.iter().enumerate() {
            if let Some(&v) = t.iter().find(|&&v| v as usize >= n) {
                return Err(Error::invalid_argument(format!(
                    "triangles[{k}] = {t:?}: index {v} out of range ({n} vertices)"
                )));
            }
        }
        non_negative(def.weld_tolerance, "weld_tolerance")?;
        if let Some(w) = def.inv_masses {
            for (i, &w) in w.iter().enumerate() {
                non_negative(w, &format!("inv_masses[{i}]"))?;
            }
        }
        check_options(&def.options)?;
        let built = build::mesh(&MeshDef { rotation, ..*def });
        if built.triangles.is_empty() {
            return Err(Error::invalid_argument("every triangle of the mesh is degenerate"));
        }
        let recipe = Recipe::Mesh(MeshRecipe {
            position: def.position,
            rotation,
            vertices: def.vertices.to_vec(),
            triangles: def.triangles.to_vec(),
            weld_tolerance: def.weld_tolerance,
            inv_masses: def.inv_masses.map(<[f32]>::to_vec),
            pinned: def.pinned.map(<[bool]>::to_vec),
            options: def.options,
        });
        self.add_cloth(built, &def.options, recipe)
    }

    fn add_cloth(&mut self, built: Built, o: &ClothOptions, recipe: Recipe) -> Result<BodyId> {
        // A mass so small that a vertex's share rounds to nothing gives it an
        // infinite inverse mass (found by the fuzz driver: mass 1.2e-38 kg).
        if let Some(i) = built.inv_mass.iter().position(|w| !w.is_finite()) {
            return Err(Error::invalid_argument(format!(
                "mass {} is too small: vertex {i} would weigh nothing",
                o.mass
            )));
        }
        self.check_constraint_limit(built.sticks.len() + built.bends.len() + built.tethers.len())?;
        let id = self.add_body(BodyKind::Cloth, &built.positions, |i| built.inv_mass[i])?;
        let mut cloth = Cloth::new(
            built.positions.len(),
            built.triangles,
            built.vertex_map,
            o.drag,
            o.lift,
            Vec3::ZERO,
            o.self_collision,
            o.cloth_collision,
        );
        cloth.recipe = Some(Box::new(recipe));
        let body = self.bodies.get_mut(id.into()).expect("just created");
        body.radius = o.thickness;
        body.distances.extend(&built.sticks, crate::particles::padded(body.count));
        body.tethers = built.tethers;
        body.bends = built.bends;
        body.cloth = Some(Box::new(cloth));
        Ok(id)
    }

    pub(crate) fn cloth(&self, id: BodyId) -> Result<(&Body, &Cloth)> {
        let body = self.body(id)?;
        match &body.cloth {
            Some(c) => Ok((body, c)),
            None => Err(Error::wrong_kind(format!("body is a {:?} body, not a cloth", body.kind))),
        }
    }

    /// The cloth body, woken (whatever changes it may set it moving).
    fn cloth_body_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        self.cloth(id)?;
        let body = self.bodies.get_mut(id.into()).expect("checked");
        body.wake();
        Ok(body)
    }

    fn cloth_mut(&mut self, id: BodyId) -> Result<&mut Cloth> {
        Ok(self.cloth_body_mut(id)?.cloth.as_mut().expect("checked"))
    }

    /// Area-weighted unit normals, one per particle (front = counter-clockwise).
    pub fn cloth_normals(&self, id: BodyId) -> Result<Vec<Vec3>> {
        let (body, cloth) = self.cloth(id)?;
        Ok(render::normals(&self.particles, body.first, body.count, &cloth.triangles))
    }

    /// The engine's vertex count (before welding).
    pub fn cloth_vertex_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.cloth(id)?.1.vertex_map.len() as u32)
    }

    /// The particle of each engine vertex.
    pub fn cloth_vertex_map(&self, id: BodyId) -> Result<&[u32]> {
        Ok(&self.cloth(id)?.1.vertex_map)
    }

    /// The cloth's triangles over its particles.
    pub fn cloth_triangles(&self, id: BodyId) -> Result<&[[u32; 3]]> {
        Ok(&self.cloth(id)?.1.triangles)
    }

    /// Sets this cloth's own wind (m/s), added to the world's.
    pub fn set_cloth_wind(&mut self, id: BodyId, wind: Vec3) -> Result<()> {
        let wind = finite_vec(wind, "wind")?;
        self.cloth_mut(id)?.wind = wind;
        Ok(())
    }

    /// Sets the aerodynamic coefficients (>= 0).
    pub fn set_cloth_aerodynamics(&mut self, id: BodyId, drag: f32, lift: f32) -> Result<()> {
        non_negative(drag, "drag")?;
        non_negative(lift, "lift")?;
        let c = self.cloth_mut(id)?;
        c.drag = drag;
        c.lift = lift;
        Ok(())
    }

    /// Turns collision with the cloth's own triangles and with other cloths on or off.
    pub fn set_cloth_collision(&mut self, id: BodyId, self_collision: bool, cloth_collision: bool) -> Result<()> {
        let c = self.cloth_mut(id)?;
        c.self_collision = self_collision;
        c.cloth_collision = cloth_collision;
        Ok(())
    }

    /// Sets the skinned pose the cloth's max distances and backstops refer
    /// to, per engine vertex (unit normals pointing out of the body the cloth
    /// covers), for the end of the next step. Welded vertices: the first one
    /// of each particle is used.
    pub fn set_cloth_skin(&mut self, id: BodyId, positions: &[Vec3], normals: &[Vec3]) -> Result<()> {
        self.set_cloth_skin_in(id, positions, normals, false)
    }

    /// [`World::set_cloth_skin`]; with `in_frame`, the positions are already
    /// in the body's frame (`World::set_cloth_skin_f64`).
    pub(crate) fn set_cloth_skin_in(
        &mut self,
        id: BodyId,
        positions: &[Vec3],
        normals: &[Vec3],
        in_frame: bool,
    ) -> Result<()> {
        let (body, cloth) = self.cloth(id)?;
        let origin = if in_frame { Vec3::ZERO } else { body.origin };
        let n = cloth.vertex_map.len();
        if positions.len() != n || normals.len() != n {
            return Err(Error::invalid_argument(format!(
                "a skin needs one position and one normal per vertex ({n}), got {} and {}",
                positions.len(),
                normals.len()
            )));
        }
        let mut p = vec![Vec3::ZERO; body.count];
        let mut q = vec![Vec3::ZERO; body.count];
        let mut seen = vec![false; body.count];
        for (k, (&x, &nv)) in positions.iter().zip(normals).enumerate() {
            finite_vec(x, &format!("positions[{k}]"))?;
            finite_vec(nv, &format!("normals[{k}]"))?;
            let unit = nv.try_normalize().ok_or_else(|| Error::invalid_argument(format!("normals[{k}] is zero")))?;
            let i = cloth.vertex_map[k] as usize;
            if !std::mem::replace(&mut seen[i], true) {
                p[i] = x - origin;
                q[i] = unit;
            }
        }
        self.cloth_body_mut(id)?.skin.set(p, q);
        Ok(())
    }

    /// Per engine vertex: how far (metres, >= 0, +inf = no limit) a particle
    /// may move from its skinned position, and how far behind the skinned
    /// surface it may go (`None` or +inf = no backstop). Needs a skin first.
    /// Welded vertices: the smallest value wins. A pinned particle with a
    /// finite value follows its skinned position exactly.
    pub fn set_cloth_max_distances(
        &mut self,
        id: BodyId,
        max_distances: &[f32],
        backstops: Option<&[f32]>,
    ) -> Result<()> {
        let (body, cloth) = self.cloth(id)?;
        let n = cloth.vertex_map.len();
        if !body.skin.is_active() {
            return Err(Error::invalid_argument("set a skin (sinew_cloth_set_skin) before max distances"));
        }
        if max_distances.len() != n || backstops.is_some_and(|b| b.len() != n) {
            return Err(Error::invalid_argument(format!("one value per vertex ({n}) is needed")));
        }
        let check = |v: f32, what: &str| {
            if v.is_nan() || v < 0.0 {
                Err(Error::invalid_argument(format!("{what} must be >= 0 (+inf = no limit), got {v}")))
            } else {
                Ok(v)
            }
        };
        let mut max = vec![f32::INFINITY; body.count];
        let mut back = vec![f32::INFINITY; body.count];
        for k in 0..n {
            let i = cloth.vertex_map[k] as usize;
            max[i] = max[i].min(check(max_distances[k], &format!("max_distances[{k}]"))?);
            if let Some(b) = backstops {
                back[i] = back[i].min(check(b[k], &format!("backstops[{k}]"))?);
            }
        }
        let body = self.cloth_body_mut(id)?;
        body.skin.max_distance = max;
        body.skin.backstop = back;
        Ok(())
    }

    /// Largest relative violation of the body's tethers (0 when all hold).
    pub fn max_tether_violation(&mut self, id: BodyId) -> Result<f32> {
        let range = self.body(id)?.range();
        let body = self.bodies.get(id.into()).expect("checked");
        let view = self.particles.view(range);
        Ok(body.tethers.max_violation(&view))
    }

    /// Number of tethers of a body.
    pub fn tether_count(&self, id: BodyId) -> Result<u32> {
        Ok(self.body(id)?.tethers.len() as u32)
    }
}
