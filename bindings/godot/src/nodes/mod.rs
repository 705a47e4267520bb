//! The Godot classes. Each physics frame `SinewWorld3D` drives the others in
//! a fixed order, so only the world ever reaches into them (never the other
//! way round while the world is bound):
//!
//! ```text
//! SinewWorld3D::physics_process(delta)
//!   1. colliders: push global transforms (re-create when the scaled shape changed)
//!   2. cloths: build on their first frame; push the pin nodes' transforms (set_frame)
//!      ragdolls: build on their first frame; push motor settings and the targets
//!      their last modification read from the animation
//!   3. World::step(delta)
//!   4. cloths: stream positions + normals to the RenderingServer, set the custom AABB
//!      ragdolls: copy the simulated bones out
//!
//! Skeleton3D (after its AnimationMixer, each frame)
//!   SinewRagdoll3D::process_modification: animated pose -> targets;
//!   simulated bones -> bone poses
//! ```
//!
//! Cloths, ragdolls and colliders find their world through `world_path`, or as their
//! nearest `SinewWorld3D` ancestor, and register with it in `ready`.

mod cloth;
mod collider;
mod ragdoll;
mod world;

pub use cloth::SinewCloth3D;
pub use collider::SinewCollider3D;
pub use ragdoll::SinewRagdoll3D;
pub use world::SinewWorld3D;

use godot::classes::Node;
use godot::prelude::*;

/// The world at `path` (relative to `from`), or else the nearest
/// `SinewWorld3D` ancestor of `from`.
fn find_world(from: &Gd<Node>, path: &NodePath) -> Option<Gd<SinewWorld3D>> {
    if !path.is_empty() {
        return from.get_node_or_null(path).and_then(|n| n.try_cast::<SinewWorld3D>().ok());
    }
    let mut at = from.get_parent();
    while let Some(node) = at {
        match node.try_cast::<SinewWorld3D>() {
            Ok(world) => return Some(world),
            Err(node) => at = node.get_parent(),
        }
    }
    None
}
