//! The world's cloth calls: creation (the builders are `cloth`'s), the
//! readback an engine's renderer needs, and a cloth's settings.

use crate::body::Body;
use crate::cloth::build::{GridDef, MeshDef};
use crate::cloth::{Cloth, render};
use crate::error::{Error, Result, finite_vec, limit_ok, non_negative};
use crate::pool::BodyId;
use crate::world::World;
use glam::Vec3;

impl World {
    /// Creates a cloth from a grid definition.
    pub fn create_cloth_grid(&mut self, def: &GridDef) -> Result<BodyId> {
        let def = crate::cloth::check_grid(def)?;
        // Refused before building: a grid of up to 2^30 vertices would
        // otherwise be allocated in full only to be turned away.
        let vertices = def.columns as usize * def.rows as usize;
        if !limit_ok(self.settings.max_particles, self.particle_count, vertices) {
            return Err(Error::limit(format!(
                "max_particles is {}: {} particles exist, a {} x {} grid adds {vertices}",
                self.settings.max_particles, self.particle_count, def.columns, def.rows
            )));
        }
        let made = crate::cloth::grid_body(def)?;
        self.insert_made(made)
    }

    /// Creates a cloth from a triangle mesh, welding vertices closer than the
    /// tolerance. Degenerate triangles (repeated or welded indices, no area)
    /// are left out; their vertices still map to particles.
    pub fn create_cloth_mesh(&mut self, def: &MeshDef) -> Result<BodyId> {
        let made = crate::cloth::mesh_body(def)?;
        self.insert_made(made)
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

    /// Sets a cloth's XPBD compliances (m/N, each finite and >= 0) from the
    /// next step on: its edges take `stretch`, a grid's diagonals `shear`,
    /// its bending (sticks or dihedral angles) `bend`, each as if the cloth
    /// had been created with them (the same values in the same places, so
    /// the steps that follow are bit for bit those of such a cloth). A
    /// snapshot keeps them. Refused, changing nothing, for a cloth whose
    /// sticks were added to after creation (it no longer knows which is
    /// which kind).
    pub fn set_cloth_compliance(&mut self, id: BodyId, stretch: f32, shear: f32, bend: f32) -> Result<()> {
        non_negative(stretch, "stretch_compliance")?;
        non_negative(shear, "shear_compliance")?;
        non_negative(bend, "bend_compliance")?;
        let (body, cloth) = self.cloth(id)?;
        let Some(recipe) = cloth.recipe.as_deref() else {
            return Err(Error::invalid_argument(
                "this cloth's sticks were added to after creation: which are stretch, shear or bend is not known",
            ));
        };
        // Rebuilt through the code that built it: the sticks come out in the
        // same order, with the compliances a cloth created with them has.
        let mut recipe = recipe.clone();
        let options = match &mut recipe {
            crate::cloth::Recipe::Grid(g) => &mut g.options,
            crate::cloth::Recipe::Mesh(m) => &mut m.options,
        };
        (options.stretch_compliance, options.shear_compliance, options.bend_compliance) = (stretch, shear, bend);
        let made = recipe.body()?.body;
        let (d, e) = (&body.distances, &made.distances);
        if d.a != e.a || d.b != e.b || body.bends.quad != made.bends.quad {
            return Err(Error::invalid_argument("this cloth's sticks are no longer those it was built with"));
        }
        let body = self.cloth_body_mut(id)?;
        body.distances.compliance = made.distances.compliance;
        body.bends.compliance = made.bends.compliance;
        body.cloth.as_mut().expect("checked").recipe = Some(Box::new(recipe));
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
