//! `SinewWorld3D`: owns a `sinew::World` and steps it in `_physics_process`
//! with the physics delta.

use super::{SinewCloth3D, SinewCollider3D, SinewRagdoll3D};
use crate::pose::{to_vec3, to_vector3};
use godot::classes::{Engine, INode3D, Node3D};
use godot::prelude::*;
use sinew::{World, WorldSettings};

/// A sinew simulation. Cloths, ragdolls and colliders below it (or pointing
/// at it with `world_path`) join it.
#[derive(GodotClass)]
#[class(base = Node3D)]
pub struct SinewWorld3D {
    /// m/s^2.
    #[export]
    #[var(set)]
    gravity: Vector3,
    /// Wind every cloth feels, m/s.
    #[export]
    #[var(set)]
    wind: Vector3,
    /// Substeps per physics frame; read when the world is created (the
    /// first cloth or collider joins), later changes are ignored.
    #[export(range = (1.0, 64.0, 1.0, or_greater))]
    substeps: i32,
    /// Relaxation passes per substep; read when the world is created.
    #[export(range = (1.0, 16.0, 1.0, or_greater))]
    iterations: i32,
    /// Fraction of velocity lost per second; read when the world is created.
    #[export(range = (0.0, 1.0, 0.001))]
    damping: f32,
    /// kg/m^3, 0 turns aerodynamics off; read when the world is created.
    #[export(range = (0.0, 2.0, 0.01, or_greater))]
    air_density: f32,
    world: Option<World>,
    cloths: Vec<Gd<SinewCloth3D>>,
    colliders: Vec<Gd<SinewCollider3D>>,
    ragdolls: Vec<Gd<SinewRagdoll3D>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for SinewWorld3D {
    fn init(base: Base<Node3D>) -> Self {
        let d = WorldSettings::default();
        SinewWorld3D {
            gravity: to_vector3(d.gravity),
            wind: Vector3::ZERO,
            substeps: d.substeps as i32,
            iterations: d.iterations as i32,
            damping: d.damping,
            air_density: d.air_density,
            world: None,
            cloths: Vec::new(),
            colliders: Vec::new(),
            ragdolls: Vec::new(),
            base,
        }
    }

    fn ready(&mut self) {
        // Run after ordinary nodes (priority 0), so pins and colliders moved
        // in their own _physics_process are read this frame, not the next.
        self.base_mut().set_physics_process_priority(100);
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        self.cloths.retain(|c| c.is_instance_valid());
        self.colliders.retain(|c| c.is_instance_valid());
        self.ragdolls.retain(|r| r.is_instance_valid());
        if self.cloths.is_empty() && self.colliders.is_empty() && self.ragdolls.is_empty() {
            return;
        }
        self.sinew_mut();
        let world = self.world.as_mut().expect("created above");
        for c in &mut self.colliders {
            c.bind_mut().sync(world);
        }
        for c in &mut self.cloths {
            c.bind_mut().before_step(world);
        }
        for r in &mut self.ragdolls {
            r.bind_mut().before_step(world);
        }
        // sinew accepts [1e-6, 1] s; a hitch longer than a second is cut.
        if let Err(e) = world.step((delta as f32).clamp(1e-6, 1.0)) {
            godot_error!("SinewWorld3D: step failed: {e}");
            return;
        }
        for c in &mut self.cloths {
            c.bind_mut().after_step(world);
        }
        for r in &mut self.ragdolls {
            r.bind_mut().after_step(world);
        }
    }

    fn exit_tree(&mut self) {
        self.cloths.clear();
        self.colliders.clear();
        self.ragdolls.clear();
        self.world = None;
    }
}

#[godot_api]
impl SinewWorld3D {
    #[func]
    fn set_gravity(&mut self, gravity: Vector3) {
        self.gravity = gravity;
        if let Some(w) = &mut self.world
            && let Err(e) = w.set_gravity(to_vec3(gravity))
        {
            godot_error!("SinewWorld3D.gravity: {e}");
        }
    }

    #[func]
    fn set_wind(&mut self, wind: Vector3) {
        self.wind = wind;
        if let Some(w) = &mut self.world
            && let Err(e) = w.set_wind(to_vec3(wind))
        {
            godot_error!("SinewWorld3D.wind: {e}");
        }
    }

    /// Steps taken so far.
    #[func]
    fn get_step_count(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.step_count() as i64)
    }

    /// The world's settings from the exported properties.
    fn settings(&self) -> WorldSettings {
        WorldSettings {
            gravity: to_vec3(self.gravity),
            wind: to_vec3(self.wind),
            substeps: self.substeps.max(0) as u32,
            iterations: self.iterations.max(0) as u32,
            damping: self.damping,
            air_density: self.air_density,
            ..WorldSettings::default()
        }
    }

    /// The sinew world, created from the exported settings on first use (a
    /// bad setting is reported and the defaults are used instead).
    pub(crate) fn sinew_mut(&mut self) -> &mut World {
        if self.world.is_none() {
            let world = World::new(self.settings()).unwrap_or_else(|e| {
                godot_error!("SinewWorld3D: {e}; using the default settings");
                World::new(WorldSettings::default()).expect("the defaults are valid")
            });
            self.world = Some(world);
        }
        self.world.as_mut().expect("just created")
    }

    pub(crate) fn register_cloth(&mut self, cloth: Gd<SinewCloth3D>) {
        if !self.cloths.contains(&cloth) {
            self.cloths.push(cloth);
        }
    }

    pub(crate) fn register_collider(&mut self, collider: Gd<SinewCollider3D>) {
        if !self.colliders.contains(&collider) {
            self.colliders.push(collider);
        }
    }

    pub(crate) fn register_ragdoll(&mut self, ragdoll: Gd<SinewRagdoll3D>) {
        if !self.ragdolls.contains(&ragdoll) {
            self.ragdolls.push(ragdoll);
        }
    }

    /// Forgets a ragdoll; `body` is destroyed if it was built.
    pub(crate) fn unregister_ragdoll(&mut self, ragdoll: &Gd<SinewRagdoll3D>, body: Option<sinew::BodyId>) {
        self.ragdolls.retain(|r| r != ragdoll);
        if let (Some(w), Some(b)) = (&mut self.world, body) {
            let _ = w.destroy_body(b);
        }
    }

    /// Forgets a cloth; `body` is destroyed if it was built.
    pub(crate) fn unregister_cloth(&mut self, cloth: &Gd<SinewCloth3D>, body: Option<sinew::BodyId>) {
        self.cloths.retain(|c| c != cloth);
        if let (Some(w), Some(b)) = (&mut self.world, body) {
            let _ = w.destroy_body(b);
        }
    }

    /// Forgets a collider; `id` is destroyed if it was created.
    pub(crate) fn unregister_collider(&mut self, collider: &Gd<SinewCollider3D>, id: Option<sinew::ColliderId>) {
        self.colliders.retain(|c| c != collider);
        if let (Some(w), Some(id)) = (&mut self.world, id) {
            let _ = w.destroy_collider(id);
        }
    }
}
