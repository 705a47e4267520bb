//! One step of the world, as a stage list.
//!
//! ```text
//! step(dt):
//!   prepare colliders in world space                      (once per step)
//!   for each body:
//!     broad phase: colliders its swept bounds may reach   (once per step)
//!     for each of `substeps` substeps, h = dt / substeps:
//!       predict         Verlet, gravity, damping, time-corrected   integrate.rs
//!       targets         interpolate, place kinematic particles     constraints/target.rs
//!       for each of `iterations` relaxation passes:
//!         targets       pull towards the animated points
//!         distances     sticks, batch by batch                     constraints/distance.rs
//!         collisions    project out of the candidates              collision/
//!       velocities      no relative velocity along rigid sticks    constraints/distance.rs
//!       friction        through x_prev, never reversing            collision/friction.rs
//! ```
//!
//! Bodies do not interact with each other yet, so each body runs all its
//! substeps while its particles are in cache; a body is the unit a worker
//! thread would take. The order of every loop is fixed, which makes a step
//! deterministic.

pub mod batches;
pub mod integrate;

use crate::body::Body;
use crate::collision::friction::{self, ContactsMut};
use crate::collision::{self, Prepared};
use crate::particles::ParticlesMut;
use crate::world::World;
use glam::Vec3;

/// Constants of one step, hoisted out of the loops.
struct StepContext {
    substeps: u32,
    iterations: u32,
    h: f32,
    h2: f32,
    inv_h2: f32,
    /// The previous substep's length, for the first prediction.
    h_prev: f32,
    gravity: Vec3,
    /// Velocity factor per substep: (1 - damping)^h.
    damping: f32,
}

impl StepContext {
    fn new(world: &World, dt: f32) -> Self {
        let s = &world.settings;
        let h = dt / s.substeps as f32;
        let damping = (1.0 - f64::from(s.damping)).powf(f64::from(h)) as f32;
        StepContext {
            substeps: s.substeps,
            iterations: s.iterations,
            h,
            h2: h * h,
            inv_h2: 1.0 / (h * h),
            h_prev: world.last_h,
            gravity: s.gravity,
            damping,
        }
    }
}

/// Advances the world by `dt` (validated by the caller).
pub(crate) fn step(world: &mut World, dt: f32) {
    let ctx = StepContext::new(world, dt);
    world.prepared.rebuild(world.colliders.iter().map(|(_, c)| c));
    world.contacts.resize(world.particles.len());
    let World { particles, bodies, prepared, contacts, .. } = world;
    for body in bodies.values_mut() {
        let range = body.range();
        let mut p = particles.view(range.clone());
        let mut c = contacts.view(range);
        broad_phase(body, &p, prepared, &ctx, dt);
        solve_body(body, &mut p, &mut c, prepared, &ctx);
    }
    world.last_dt = dt;
    world.last_h = ctx.h;
    world.steps += 1;
}

/// The substeps of one body.
fn solve_body(body: &mut Body, p: &mut ParticlesMut, c: &mut ContactsMut, prepared: &Prepared, ctx: &StepContext) {
    let collide = !body.candidates.is_empty();
    for substep in 0..ctx.substeps {
        let h_prev = if substep == 0 { ctx.h_prev } else { ctx.h };
        let velocity_scale = ctx.damping * (ctx.h / h_prev);
        integrate::predict(p, velocity_scale, ctx.gravity * (ctx.h * (h_prev + ctx.h) * 0.5));
        body.targets.begin_substep(p, substep, ctx.substeps);
        body.distances.begin_substep();
        c.clear();
        for _ in 0..ctx.iterations {
            body.targets.project(p, ctx.inv_h2, ctx.h2);
            body.distances.project(p, ctx.inv_h2);
            if collide {
                collision::project(p, c, body.radius, &body.candidates, prepared);
            }
        }
        body.distances.project_velocities(p, ctx.inv_h2);
        if collide {
            friction::apply(p, c);
        }
    }
    body.targets.end_step();
}

/// Lists the colliders the body may reach during this step: its bounds now,
/// extrapolated by its velocity over `dt`, and its targets' points, widened by
/// what gravity, its particle radius and constraint corrections may add.
fn broad_phase(body: &mut Body, p: &ParticlesMut, prepared: &Prepared, ctx: &StepContext, dt: f32) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let ahead = dt / ctx.h_prev;
    for i in 0..body.count {
        let x = p.position(i);
        let later = x + (x - p.previous(i)) * ahead;
        lo = lo.min(x).min(later);
        hi = hi.max(x).max(later);
    }
    for &t in &body.targets.to {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    let margin = body.radius + ctx.gravity.length() * dt * dt + 0.05 + 0.25 * (hi - lo).max_element().min(1.0);
    body.candidates.find(prepared, lo - margin, hi + margin);
}
