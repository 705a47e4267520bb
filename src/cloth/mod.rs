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

use crate::body::{Body, BodyKind, Made};
use crate::error::{Error, Result, finite_vec, non_negative, positive, unit_rotation};
use build::{Built, ClothOptions, GridDef, MeshDef, PIN_ALL};
use glam::Vec3;

/// How a cloth was built, kept so a snapshot can store this instead of the
/// thousands of constraints it produces (rebuilding gives the same bits).
#[derive(Debug, Clone, PartialEq)]
pub enum Recipe {
    /// From [`World::create_cloth_grid`](crate::World::create_cloth_grid).
    Grid(GridDef),
    /// From [`World::create_cloth_mesh`](crate::World::create_cloth_mesh).
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

/// Checks a grid definition: what `World::create_cloth_grid` refuses
/// before it looks at the world's caps. Returns it with a unit rotation.
pub(crate) fn check_grid(def: &GridDef) -> Result<GridDef> {
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
    Ok(GridDef { rotation, ..*def })
}

/// Builds a cloth body from a grid definition [`check_grid`] returned.
pub(crate) fn grid_body(def: GridDef) -> Result<Made> {
    let built = build::grid(&def);
    made(built, &def.options, Recipe::Grid(def))
}

/// Checks a mesh definition and builds a cloth body of it, welding
/// vertices closer than the tolerance (see `World::create_cloth_mesh`).
pub(crate) fn mesh_body(def: &MeshDef) -> Result<Made> {
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
    made(built, &def.options, recipe)
}

impl Recipe {
    /// Checks the recipe and builds its cloth body again, through the same
    /// code as at creation (a snapshot's cloths are rebuilt so).
    pub(crate) fn body(&self) -> Result<Made> {
        match self {
            Recipe::Grid(g) => grid_body(check_grid(g)?),
            Recipe::Mesh(m) => mesh_body(&m.def()),
        }
    }
}

/// The cloth body of what `build` made.
fn made(built: Built, o: &ClothOptions, recipe: Recipe) -> Result<Made> {
    // A mass so small that a vertex's share rounds to nothing gives it an
    // infinite inverse mass (found by the fuzz driver: mass 1.2e-38 kg).
    if let Some(i) = built.inv_mass.iter().position(|w| !w.is_finite()) {
        return Err(Error::invalid_argument(format!("mass {} is too small: vertex {i} would weigh nothing", o.mass)));
    }
    let count = built.positions.len();
    let constraints = built.sticks.len() + built.bends.len() + built.tethers.len();
    let mut cloth = Cloth::new(
        count,
        built.triangles,
        built.vertex_map,
        o.drag,
        o.lift,
        Vec3::ZERO,
        o.self_collision,
        o.cloth_collision,
    );
    cloth.recipe = Some(Box::new(recipe));
    let mut body = Body::new(BodyKind::Cloth, 0, count);
    body.radius = o.thickness;
    body.distances.extend(&built.sticks, crate::particles::padded(count));
    body.tethers = built.tethers;
    body.bends = built.bends;
    body.cloth = Some(Box::new(cloth));
    Ok(Made { positions: built.positions, inv_mass: built.inv_mass, constraints, body })
}
