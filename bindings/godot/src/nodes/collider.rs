//! `SinewCollider3D`: a Godot shape as a sinew collider, following the node
//! (placed in `f64`, so exact far out in a double-precision build).

use super::{SinewWorld3D, find_world};
use crate::pose::{decompose, to_f32, to_vec3};
use crate::shape::{GodotShape, to_collider_shape};
use godot::classes::{BoxShape3D, CapsuleShape3D, INode3D, Node3D, Shape3D, SphereShape3D, WorldBoundaryShape3D};
use godot::prelude::*;
use sinew::{ColliderId, ColliderShape, World};

/// Cloth collides with `shape` (sphere, box, capsule or world boundary),
/// placed by this node's global transform, scale included.
#[derive(GodotClass)]
#[class(base = Node3D)]
pub struct SinewCollider3D {
    #[export]
    shape: Option<Gd<Shape3D>>,
    /// Coulomb friction coefficient (>= 0); read when the collider is
    /// (re)created.
    #[export(range = (0.0, 2.0, 0.01, or_greater))]
    friction: f32,
    /// The `SinewWorld3D`; empty: the nearest ancestor.
    #[export]
    world_path: NodePath,
    world_node: Option<Gd<SinewWorld3D>>,
    id: Option<ColliderId>,
    /// The shape last given to sinew (scale baked in) and its friction.
    current: Option<(ColliderShape, f32)>,
    /// The global transform last given to sinew: an unchanged one is not
    /// re-sent (moving a collider wakes the bodies it touches).
    last_transform: Option<Transform3D>,
    /// The last error reported, so a bad shape is reported once, not every frame.
    last_error: Option<String>,
    base: Base<Node3D>,
}

/// The defining numbers of a supported Godot shape.
fn describe(shape: &Gd<Shape3D>) -> Result<GodotShape, String> {
    if let Ok(s) = shape.clone().try_cast::<SphereShape3D>() {
        return Ok(GodotShape::Sphere { radius: to_f32(s.get_radius()) });
    }
    if let Ok(s) = shape.clone().try_cast::<BoxShape3D>() {
        return Ok(GodotShape::Box { size: to_vec3(s.get_size()) });
    }
    if let Ok(s) = shape.clone().try_cast::<CapsuleShape3D>() {
        return Ok(GodotShape::Capsule { radius: to_f32(s.get_radius()), height: to_f32(s.get_height()) });
    }
    if let Ok(s) = shape.clone().try_cast::<WorldBoundaryShape3D>() {
        let p = s.get_plane();
        return Ok(GodotShape::WorldBoundary { normal: to_vec3(p.normal), d: to_f32(p.d) });
    }
    Err(format!(
        "{} is not supported (SphereShape3D, BoxShape3D, CapsuleShape3D, WorldBoundaryShape3D are)",
        shape.get_class()
    ))
}

#[godot_api]
impl INode3D for SinewCollider3D {
    fn init(base: Base<Node3D>) -> Self {
        SinewCollider3D {
            shape: None,
            friction: 0.5,
            world_path: NodePath::default(),
            world_node: None,
            id: None,
            current: None,
            last_transform: None,
            last_error: None,
            base,
        }
    }

    fn ready(&mut self) {
        if godot::classes::Engine::singleton().is_editor_hint() {
            return;
        }
        let me = self.base().clone().upcast::<godot::classes::Node>();
        match find_world(&me, &self.world_path) {
            Some(mut w) => {
                w.bind_mut().register_collider(self.to_gd());
                self.world_node = Some(w);
            }
            None => {
                godot_error!("SinewCollider3D {}: no SinewWorld3D (set world_path or add it below one)", me.get_name())
            }
        }
    }

    fn exit_tree(&mut self) {
        if let Some(mut w) = self.world_node.take().filter(|w| w.is_instance_valid()) {
            let me = self.to_gd();
            w.bind_mut().unregister_collider(&me, self.id.take());
        }
        self.current = None;
        self.last_transform = None;
    }
}

#[godot_api]
impl SinewCollider3D {
    fn report(&mut self, e: String) {
        if self.last_error.as_ref() != Some(&e) {
            godot_error!("SinewCollider3D {}: {e}", self.base().get_name());
            self.last_error = Some(e);
        }
    }

    /// Pushes the node's transform to sinew, (re)creating the collider when
    /// its shape, scale or friction changed. Called by the world before each step.
    pub(crate) fn sync(&mut self, world: &mut World) {
        let Some(shape) = self.shape.clone() else {
            if let Some(id) = self.id.take() {
                let _ = world.destroy_collider(id);
            }
            self.current = None;
            return;
        };
        let t = self.base().get_global_transform();
        let pose = decompose(&t);
        let wanted = match describe(&shape).and_then(|s| to_collider_shape(s, pose.scale)) {
            Ok(s) => (s, self.friction),
            Err(e) => {
                // An unusable shape collides with nothing.
                if let Some(id) = self.id.take() {
                    let _ = world.destroy_collider(id);
                }
                self.current = None;
                return self.report(e);
            }
        };
        if let Some(id) = self.id.filter(|_| self.current.as_ref() == Some(&wanted)) {
            if self.last_transform == Some(t) {
                return;
            }
            match world.set_collider_transform_f64(id, pose.position, pose.rotation) {
                Ok(()) => self.last_transform = Some(t),
                Err(e) => self.report(e.to_string()),
            }
            return;
        }
        if let Some(id) = self.id.take() {
            let _ = world.destroy_collider(id);
        }
        match world.create_collider_at_f64(wanted.0.clone(), pose.position, pose.rotation, wanted.1) {
            Ok(id) => {
                self.id = Some(id);
                self.current = Some(wanted);
                self.last_transform = Some(t);
                self.last_error = None;
            }
            Err(e) => self.report(e.to_string()),
        }
    }
}
