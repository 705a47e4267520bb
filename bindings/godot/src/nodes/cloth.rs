//! `SinewCloth3D`: a MeshInstance3D whose vertices are a sinew cloth.
//!
//! Like Godot's SoftBody3D (`SoftBodyRenderingServerHandler`), the node turns
//! top-level once the cloth is built, keeps a mesh of its own, and each
//! frame rewrites the surface's vertex buffer with
//! `RenderingServer.mesh_surface_update_vertex_region` (positions, then
//! octahedral normals: [`crate::stream`]) and sets a custom AABB so culling
//! follows the cloth. Unlike SoftBody3D its transform is not the identity
//! but a translation to the body's origin, a grid point near the cloth, and
//! the vertices are relative to it ([`crate::surface::render_positions`]):
//! vertex buffers are `f32` even in a double build, the node's transform is
//! `real`. The cloth is built, pinned and read in `f64` (`*_f64` calls).

use super::{SinewWorld3D, find_world};
use crate::pins;
use crate::pose::{decompose, from_dvec3, to_vec3, to_vector3, transform_offset};
use crate::stream::{self, Layout};
use crate::surface::{godot_to_sinew_triangles, grid_uvs, render_positions, sinew_to_godot_indices};
use glam::DVec3;
use godot::builtin::RealConv;
use godot::classes::mesh::{ArrayFormat, ArrayType, PrimitiveType};
use godot::classes::{
    ArrayMesh, Engine, IMeshInstance3D, Material, Mesh, MeshInstance3D, Node, Node3D, RenderingServer,
};
use godot::obj::{EngineBitfield, EngineEnum};
use godot::prelude::*;
use sinew::{BodyId, ClothOptions, GridDef, MeshDef, Quat, Vec3, World};

/// A cloth built from a grid (`columns` x `rows`, `spacing` apart, in the
/// node's XY plane from its origin along +X and -Y, facing +Z) or from the
/// first surface of the node's mesh (`from_mesh`; vertices closer than
/// `weld_tolerance` become one particle). Pinned vertices stay where they
/// are, or ride on `pin_node` / the nodes in `pin_vertex_nodes`.
#[derive(GodotClass)]
#[class(tool, base = MeshInstance3D)]
pub struct SinewCloth3D {
    /// The `SinewWorld3D`; empty: the nearest ancestor.
    #[export]
    world_path: NodePath,
    /// Build from the first surface of `mesh` instead of a grid.
    #[export]
    from_mesh: bool,
    #[export(range = (2.0, 128.0, 1.0, or_greater))]
    columns: i32,
    #[export(range = (2.0, 128.0, 1.0, or_greater))]
    rows: i32,
    /// Metres between grid neighbours.
    #[export(range = (0.001, 1.0, 0.001, or_greater))]
    spacing: f32,
    /// Grid vertices to pin.
    #[export(flags = (TopLeft = 1, TopRight = 2, TopEdge = 4))]
    pins: u32,
    /// Metres; mesh vertices closer than this are welded.
    #[export(range = (0.0, 0.01, 0.00001, or_greater))]
    weld_tolerance: f32,
    /// Kilograms, the whole cloth.
    #[export(range = (0.001, 100.0, 0.001, or_greater))]
    mass: f32,
    /// XPBD compliance of the edges, m/N (0 = inextensible).
    #[export(range = (0.0, 0.01, 0.000001, or_greater))]
    stretch_compliance: f32,
    /// XPBD compliance of bending.
    #[export(range = (0.0, 1.0, 0.0001, or_greater))]
    bend_compliance: f32,
    /// Metres kept from colliders and, with self collision, from itself.
    #[export(range = (0.0, 0.1, 0.001, or_greater))]
    thickness: f32,
    #[export(range = (0.0, 4.0, 0.01, or_greater))]
    drag: f32,
    #[export(range = (0.0, 4.0, 0.01, or_greater))]
    lift: f32,
    #[export]
    self_collision: bool,
    /// This cloth's own wind (m/s), added to the world's.
    #[export]
    #[var(set)]
    wind: Vector3,
    /// The node the pinned vertices ride on (grid pins and `pin_vertices`
    /// without a node of their own); empty: they stay where they are.
    #[export(node_path = ("Node3D"))]
    pin_node: NodePath,
    /// More vertices to pin (engine vertex indices of the surface).
    #[export]
    pin_vertices: PackedInt32Array,
    /// Optional, per entry of `pin_vertices`: the node that vertex rides on
    /// (an empty path uses `pin_node`).
    #[export]
    pin_vertex_nodes: Array<NodePath>,
    world_node: Option<Gd<SinewWorld3D>>,
    state: Option<ClothState>,
    /// Building failed; not tried again.
    failed: bool,
    wind_changed: bool,
    base: Base<MeshInstance3D>,
}

/// What exists once the cloth is built.
struct ClothState {
    body: BodyId,
    /// The particle of each surface vertex.
    vertex_map: Vec<u32>,
    /// Nodes the pinned particles ride on, their sinew frame index, and the
    /// transform last given to sinew (unchanged frames are not re-sent, so a
    /// still cloth can fall asleep).
    frames: Vec<(Gd<Node3D>, u32, Transform3D)>,
    mesh: Gd<ArrayMesh>,
    layout: Layout,
    /// Where the node stands: the body's origin when last streamed.
    origin: DVec3,
    /// Particle positions relative to `origin`.
    positions: Vec<Vec3>,
    bytes: Vec<u8>,
}

#[godot_api]
impl IMeshInstance3D for SinewCloth3D {
    fn init(base: Base<MeshInstance3D>) -> Self {
        let grid = GridDef::default();
        let o = ClothOptions::default();
        SinewCloth3D {
            world_path: NodePath::default(),
            from_mesh: false,
            columns: grid.columns as i32,
            rows: grid.rows as i32,
            spacing: grid.spacing,
            pins: grid.pins,
            weld_tolerance: 1e-5,
            mass: o.mass,
            stretch_compliance: o.stretch_compliance,
            bend_compliance: o.bend_compliance,
            thickness: o.thickness,
            drag: o.drag,
            lift: o.lift,
            self_collision: o.self_collision,
            wind: Vector3::ZERO,
            pin_node: NodePath::default(),
            pin_vertices: PackedInt32Array::new(),
            pin_vertex_nodes: Array::new(),
            world_node: None,
            state: None,
            failed: false,
            wind_changed: false,
            base,
        }
    }

    fn ready(&mut self) {
        if Engine::singleton().is_editor_hint() {
            if !self.from_mesh {
                self.show_grid_preview();
            }
            return;
        }
        let me = self.base().clone().upcast::<Node>();
        match find_world(&me, &self.world_path) {
            Some(mut w) => {
                w.bind_mut().register_cloth(self.to_gd());
                self.world_node = Some(w);
            }
            None => {
                godot_error!("SinewCloth3D {}: no SinewWorld3D (set world_path or add it below one)", me.get_name())
            }
        }
    }

    fn exit_tree(&mut self) {
        if let Some(mut w) = self.world_node.take().filter(|w| w.is_instance_valid()) {
            let me = self.to_gd();
            w.bind_mut().unregister_cloth(&me, self.state.take().map(|s| s.body));
        }
    }
}

#[godot_api]
impl SinewCloth3D {
    #[func]
    fn set_wind(&mut self, wind: Vector3) {
        self.wind = wind;
        self.wind_changed = true;
    }

    /// True once the cloth exists in sinew (after the world's first physics frame).
    #[func]
    fn is_built(&self) -> bool {
        self.state.is_some()
    }

    /// Particle positions in world space (empty before the cloth is built).
    #[func]
    fn get_particle_positions(&self) -> PackedVector3Array {
        let Some(s) = &self.state else { return PackedVector3Array::new() };
        s.positions.iter().map(|&p| from_dvec3(s.origin + p.as_dvec3())).collect()
    }

    fn options(&self) -> ClothOptions {
        ClothOptions {
            mass: self.mass,
            stretch_compliance: self.stretch_compliance,
            bend_compliance: self.bend_compliance,
            thickness: self.thickness,
            drag: self.drag,
            lift: self.lift,
            self_collision: self.self_collision,
            ..ClothOptions::default()
        }
    }

    fn grid_def(&self, position: Vec3, rotation: Quat) -> GridDef {
        GridDef {
            position,
            rotation,
            columns: self.columns.max(0) as u32,
            rows: self.rows.max(0) as u32,
            spacing: self.spacing,
            pins: self.pins,
            options: self.options(),
        }
    }

    /// In the editor: the grid as a static mesh, so it can be placed.
    fn show_grid_preview(&mut self) {
        let mut world = match World::new(Default::default()) {
            Ok(w) => w,
            Err(_) => return,
        };
        let Ok(id) = world.create_cloth_grid(&self.grid_def(Vec3::ZERO, Quat::IDENTITY)) else { return };
        let positions: Vec<Vec3> = world.positions(id).map(|p| p.collect()).unwrap_or_default();
        let normals = world.cloth_normals(id).unwrap_or_default();
        let indices = sinew_to_godot_indices(world.cloth_triangles(id).unwrap_or_default());
        let uvs = grid_uvs(self.columns as u32, self.rows as u32);
        let material = self.current_material();
        let mesh = surface_mesh(&positions, &normals, &uvs, &indices, material);
        self.base_mut().set_mesh(&mesh);
    }

    /// The material of the current mesh's first surface, kept on the cloth's mesh.
    fn current_material(&self) -> Option<Gd<Material>> {
        let mesh = self.base().get_mesh()?;
        if mesh.get_surface_count() < 1 {
            return None;
        }
        mesh.surface_get_material(0)
    }

    /// Creates the sinew body, the render mesh and the frame attachments.
    fn build(&mut self, world: &mut World) -> Result<ClothState, String> {
        let t = self.base().get_global_transform();
        let pose = decompose(&t);
        let material = self.current_material();
        // Surface vertices (engine order), their UVs, the Godot index buffer,
        // and the pinned vertices that ride on pin_node by default.
        let (body, uvs, indices, mut pinned): (BodyId, Vec<[f32; 2]>, Vec<i32>, Vec<i32>) = if self.from_mesh {
            let mesh: Gd<Mesh> = self.base().get_mesh().ok_or("from_mesh is on but the node has no mesh")?;
            if mesh.get_surface_count() < 1 {
                return Err("the mesh has no surface".into());
            }
            let arrays = mesh.surface_get_arrays(0);
            let vertices: PackedVector3Array = arrays
                .at(ArrayType::VERTEX.ord() as usize)
                .try_to()
                .map_err(|e| format!("surface 0 has no vertex array: {e}"))?;
            let indices: PackedInt32Array = arrays.at(ArrayType::INDEX.ord() as usize).try_to().unwrap_or_default();
            let uvs: PackedVector2Array = arrays.at(ArrayType::TEX_UV.ord() as usize).try_to().unwrap_or_default();
            let n = vertices.len();
            // Relative to the node's origin; the far part goes in `f64` below.
            let offsets: Vec<Vec3> = vertices.as_slice().iter().map(|&v| transform_offset(&t, to_vec3(v))).collect();
            let triangles = godot_to_sinew_triangles(indices.as_slice(), n)?;
            let mut mask = vec![false; n];
            for (i, &v) in self.pin_vertices.as_slice().iter().enumerate() {
                *usize::try_from(v)
                    .ok()
                    .and_then(|v| mask.get_mut(v))
                    .ok_or(format!("pin_vertices[{i}] = {v} is not a vertex of the surface ({n} vertices)"))? = true;
            }
            let def = MeshDef {
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                vertices: &offsets,
                triangles: &triangles,
                weld_tolerance: self.weld_tolerance,
                inv_masses: None,
                pinned: Some(&mask),
                options: self.options(),
            };
            let body = world.create_cloth_mesh_f64(&def, pose.position).map_err(|e| e.to_string())?;
            let uvs = if uvs.len() == n {
                uvs.as_slice().iter().map(|v| [v.x.as_f32(), v.y.as_f32()]).collect()
            } else {
                Vec::new()
            };
            let godot_indices = if indices.is_empty() { Vec::new() } else { indices.as_slice().to_vec() };
            (body, uvs, godot_indices, Vec::new())
        } else {
            let body = world
                .create_cloth_grid_f64(&self.grid_def(Vec3::ZERO, pose.rotation), pose.position)
                .map_err(|e| e.to_string())?;
            let grid_pinned: Vec<i32> = world
                .inv_masses(body)
                .map_err(|e| e.to_string())?
                .iter()
                .enumerate()
                .filter(|(_, w)| **w == 0.0)
                .map(|(i, _)| i as i32)
                .collect();
            for &v in self.pin_vertices.as_slice() {
                let count = world.particle_count(body).map_err(|e| e.to_string())?;
                if v < 0 || v as u32 >= count {
                    let _ = world.destroy_body(body);
                    return Err(format!("pin_vertices: {v} is not a vertex of the grid ({count})"));
                }
                world.set_inv_masses(body, v as u32, &[0.0]).map_err(|e| e.to_string())?;
            }
            let indices = sinew_to_godot_indices(world.cloth_triangles(body).map_err(|e| e.to_string())?);
            (body, grid_uvs(self.columns as u32, self.rows as u32), indices, grid_pinned)
        };
        let vertex_map = world.cloth_vertex_map(body).map_err(|e| e.to_string())?.to_vec();

        // Frames: one per node that pinned vertices ride on.
        let mut frames = Vec::new();
        let mut vertices: Vec<i32> = self.pin_vertices.as_slice().to_vec();
        let mut nodes: Vec<Option<NodePath>> =
            self.pin_vertex_nodes.iter_shared().map(|p| if p.is_empty() { None } else { Some(p) }).collect();
        nodes.resize(vertices.len(), None);
        vertices.append(&mut pinned);
        let default_node = (!self.pin_node.is_empty()).then(|| self.pin_node.clone());
        let groups = pins::group(&vertices, &nodes, default_node.as_ref(), &vertex_map);
        let groups = match groups {
            Ok(g) => g,
            Err(e) => {
                let _ = world.destroy_body(body);
                return Err(e);
            }
        };
        for (path, particles) in groups {
            let Some(node) = self.base().get_node_or_null(&path).and_then(|n| n.try_cast::<Node3D>().ok()) else {
                godot_warn!("SinewCloth3D: pin node {path} is not a Node3D; its vertices stay where they are");
                continue;
            };
            let t = node.get_global_transform();
            let p = decompose(&t);
            let frame =
                world.attach_to_frame_f64(body, &particles, p.position, p.rotation).map_err(|e| e.to_string())?;
            frames.push((node, frame, t));
        }

        // The render mesh, relative to the body's origin, and where its bytes go.
        let mut positions = Vec::new();
        let origin = render_positions(world, body, &mut positions).map_err(|e| e.to_string())?;
        let normals = world.cloth_normals(body).map_err(|e| e.to_string())?;
        let vertex_positions: Vec<Vec3> = vertex_map.iter().map(|&p| positions[p as usize]).collect();
        let vertex_normals: Vec<Vec3> = vertex_map.iter().map(|&p| normals[p as usize]).collect();
        let mesh = surface_mesh(&vertex_positions, &vertex_normals, &uvs, &indices, material);
        let layout = layout_of(&mesh, vertex_map.len())?;
        let mut base = self.base_mut();
        base.set_mesh(&mesh);
        base.set_as_top_level(true);
        base.set_global_transform(Transform3D::new(Basis::IDENTITY, from_dvec3(origin)));
        drop(base);
        let bytes = vec![0; layout.region_len()];
        Ok(ClothState { body, vertex_map, frames, mesh, layout, origin, positions, bytes })
    }

    /// Builds on the first frame, then moves the pins. Called by the world before each step.
    pub(crate) fn before_step(&mut self, world: &mut World) {
        if self.state.is_none() && !self.failed {
            match self.build(world) {
                Ok(s) => {
                    self.state = Some(s);
                    self.wind_changed = true;
                }
                Err(e) => {
                    godot_error!("SinewCloth3D {}: {e}", self.base().get_name());
                    self.failed = true;
                }
            }
        }
        let Some(s) = &mut self.state else { return };
        for (node, frame, last) in &mut s.frames {
            if !node.is_instance_valid() {
                continue;
            }
            let t = node.get_global_transform();
            if t == *last {
                continue;
            }
            *last = t;
            let p = decompose(&t);
            if let Err(e) = world.set_frame_f64(s.body, *frame, p.position, p.rotation) {
                godot_error!("SinewCloth3D: {e}");
            }
        }
        if std::mem::take(&mut self.wind_changed)
            && let Err(e) = world.set_cloth_wind(s.body, to_vec3(self.wind))
        {
            godot_error!("SinewCloth3D.wind: {e}");
        }
    }

    /// Streams positions and normals to the RenderingServer, and moves the
    /// node when the body's origin moved (the core moves it by a grid step
    /// when the cloth strays more than one from it). Called by the world
    /// after each step.
    pub(crate) fn after_step(&mut self, world: &World) {
        let Some(s) = &mut self.state else { return };
        let Ok(normals) = world.cloth_normals(s.body) else { return };
        let Ok(origin) = render_positions(world, s.body, &mut s.positions) else { return };
        stream::pack(&s.layout, &s.vertex_map, &s.positions, &normals, &mut s.bytes);
        let rid = s.mesh.get_rid();
        let mut rs = RenderingServer::singleton();
        rs.mesh_surface_update_vertex_region(rid, 0, 0, &PackedByteArray::from(&s.bytes[..]));
        if let Ok((lo, hi)) = world.body_bounds_f64(s.body) {
            let (lo, hi) = ((lo - origin).as_vec3(), (hi - origin).as_vec3());
            rs.mesh_set_custom_aabb(rid, Aabb::new(to_vector3(lo), to_vector3(hi - lo)));
        }
        if std::mem::replace(&mut s.origin, origin) != origin {
            // The vertices moved back by what the node moves on: no
            // interpolation between the old place and the new one.
            let mut base = self.base_mut();
            base.set_global_transform(Transform3D::new(Basis::IDENTITY, from_dvec3(origin)));
            base.reset_physics_interpolation();
        }
    }
}

/// An uncompressed triangle surface: vertices, normals, optional UVs and
/// index buffer (Godot winding), with `material`.
fn surface_mesh(
    positions: &[Vec3],
    normals: &[Vec3],
    uvs: &[[f32; 2]],
    indices: &[i32],
    material: Option<Gd<Material>>,
) -> Gd<ArrayMesh> {
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    let v: PackedVector3Array = positions.iter().map(|&p| to_vector3(p)).collect();
    let n: PackedVector3Array = normals.iter().map(|&p| to_vector3(p)).collect();
    arrays.set(ArrayType::VERTEX.ord() as usize, &v.to_variant());
    arrays.set(ArrayType::NORMAL.ord() as usize, &n.to_variant());
    if !uvs.is_empty() {
        let uv: PackedVector2Array =
            uvs.iter().map(|&[u, v]| Vector2::new(real::from_f32(u), real::from_f32(v))).collect();
        arrays.set(ArrayType::TEX_UV.ord() as usize, &uv.to_variant());
    }
    if !indices.is_empty() {
        arrays.set(ArrayType::INDEX.ord() as usize, &PackedInt32Array::from(indices).to_variant());
    }
    let mut mesh = ArrayMesh::new_gd();
    // No compression flags: positions stay float3 (Layout::godot_4_2).
    mesh.add_surface_from_arrays(PrimitiveType::TRIANGLES, &arrays);
    if let Some(m) = material {
        mesh.surface_set_material(0, &m);
    }
    mesh
}

/// Where the RenderingServer keeps positions and normals of the mesh's first surface.
fn layout_of(mesh: &Gd<ArrayMesh>, vertex_count: usize) -> Result<Layout, String> {
    let format: ArrayFormat = mesh.surface_get_format(0);
    let bits = format.ord();
    use godot::classes::rendering_server::ArrayFormat as RsFormat;
    if bits & ArrayFormat::FLAG_COMPRESS_ATTRIBUTES.ord() != 0 || bits & ArrayFormat::FLAG_USE_2D_VERTICES.ord() != 0 {
        return Err("the cloth surface is compressed or 2D".into());
    }
    let rs = RenderingServer::singleton();
    let f = RsFormat::from_ord(bits);
    let n = vertex_count as i32;
    let position_stride = rs.mesh_surface_get_format_vertex_stride(f, n) as usize;
    let has_normal = bits & ArrayFormat::NORMAL.ord() != 0;
    let layout = Layout {
        vertex_count,
        position_offset: rs.mesh_surface_get_format_offset(f, n, ArrayType::VERTEX.ord()) as usize,
        position_stride,
        normal_offset: has_normal.then(|| rs.mesh_surface_get_format_offset(f, n, ArrayType::NORMAL.ord()) as usize),
        normal_stride: rs.mesh_surface_get_format_normal_tangent_stride(f, n) as usize,
    };
    if position_stride != 12 {
        return Err(format!("unexpected position stride {position_stride} (float3 is 12)"));
    }
    let expected = Layout::godot_4_2(vertex_count, has_normal, bits & ArrayFormat::TANGENT.ord() != 0);
    if layout != expected {
        godot_warn!(
            "SinewCloth3D: surface layout {layout:?} differs from Godot 4.2's {expected:?}; using the server's"
        );
    }
    Ok(layout)
}
