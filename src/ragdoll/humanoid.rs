//! The ready human figure of `sinew_ragdoll_create_humanoid`.
//!
//! Seventeen bones, in this order (the header lists it too):
//!
//! ```text
//!  0 pelvis        1 spine        2 chest        3 neck         4 head
//!  5 upper_arm_l   6 lower_arm_l  7 hand_l
//!  8 upper_arm_r   9 lower_arm_r 10 hand_r
//! 11 upper_leg_l  12 lower_leg_l 13 foot_l
//! 14 upper_leg_r  15 lower_leg_r 16 foot_r
//! ```
//!
//! It stands on its placement's origin (between its feet; the root bone is
//! the pelvis), faces the placement's +Z,
//! with its left side towards +X and arms hanging at its sides. Every bone runs
//! along its local +Y (up the torso, down the limbs, forward along the feet).
//! Proportions are those of a 1.8 m, 76 kg adult, scaled by `height` (mass by
//! its cube). Limits are a living body's: knees bend backwards only and
//! elbows forwards only (0 to 145 degrees), the spine and neck turn a little,
//! shoulders and hips swing widely with a bounded twist.

use super::{BoneDef, RagdollDef};
use crate::constraints::angle_limit::Limit;
use glam::{Quat, Vec3};

/// Bone names in order.
pub const BONES: [&str; 17] = [
    "pelvis",
    "spine",
    "chest",
    "neck",
    "head",
    "upper_arm_l",
    "lower_arm_l",
    "hand_l",
    "upper_arm_r",
    "lower_arm_r",
    "hand_r",
    "upper_leg_l",
    "lower_leg_l",
    "foot_l",
    "upper_leg_r",
    "lower_leg_r",
    "foot_r",
];

/// (parent, head in the reference frame, rotation, length, radius, mass, limit).
type Row = (i32, [f32; 3], Quat, f32, f32, f32, Limit);

/// The height the proportions below are given for.
const REFERENCE_HEIGHT: f32 = 1.8;

fn ball(swing_deg: f32, twist_deg: f32) -> Limit {
    Limit::Ball { swing: swing_deg.to_radians(), twist_min: -twist_deg.to_radians(), twist_max: twist_deg.to_radians() }
}

fn hinge(axis: Vec3, max_deg: f32) -> Limit {
    Limit::Hinge { axis, min: 0.0, max: max_deg.to_radians() }
}

/// The figure's definition, standing on `position` (between its feet) and
/// scaled to `height`.
pub fn def(position: Vec3, rotation: Quat, height: f32) -> RagdollDef {
    let s = height / REFERENCE_HEIGHT;
    let m = s * s * s;
    let up = Quat::IDENTITY;
    // Down the limbs: +Y turned to -Y about Z (local +X is then world -X).
    let down = Quat::from_rotation_z(std::f32::consts::PI);
    // Along the foot: forward and a little down.
    let foot = Quat::from_rotation_arc(Vec3::Y, Vec3::new(0.0, -0.05, 0.18).normalize());
    // A knee turns the shin's tail backwards: about world +X = local -X of a
    // down bone; an elbow turns the forearm's forwards: local +X.
    let knee = hinge(Vec3::NEG_X, 145.0);
    let elbow = hinge(Vec3::X, 145.0);
    let free = Limit::FREE;
    #[rustfmt::skip]
    let table: [Row; 17] = [
        (-1, [0.0, 0.95, 0.0], up, 0.13, 0.12, 11.0, free),
        (0, [0.0, 1.08, 0.0], up, 0.17, 0.11, 10.0, ball(20.0, 20.0)),
        (1, [0.0, 1.25, 0.0], up, 0.20, 0.13, 14.0, ball(20.0, 20.0)),
        (2, [0.0, 1.45, 0.0], up, 0.10, 0.05, 1.5, ball(30.0, 35.0)),
        (3, [0.0, 1.55, 0.0], up, 0.23, 0.10, 5.0, ball(30.0, 35.0)),
        (2, [0.18, 1.42, 0.0], down, 0.30, 0.045, 2.2, ball(120.0, 60.0)),
        (5, [0.18, 1.12, 0.0], down, 0.26, 0.04, 1.4, elbow),
        (6, [0.18, 0.86, 0.0], down, 0.18, 0.035, 0.5, ball(50.0, 15.0)),
        (2, [-0.18, 1.42, 0.0], down, 0.30, 0.045, 2.2, ball(120.0, 60.0)),
        (8, [-0.18, 1.12, 0.0], down, 0.26, 0.04, 1.4, elbow),
        (9, [-0.18, 0.86, 0.0], down, 0.18, 0.035, 0.5, ball(50.0, 15.0)),
        (0, [0.1, 0.93, 0.0], down, 0.43, 0.07, 8.5, ball(70.0, 30.0)),
        (11, [0.1, 0.50, 0.0], down, 0.41, 0.05, 3.5, knee),
        (12, [0.1, 0.09, 0.0], foot, 0.187, 0.04, 1.2, ball(30.0, 10.0)),
        (0, [-0.1, 0.93, 0.0], down, 0.43, 0.07, 8.5, ball(70.0, 30.0)),
        (14, [-0.1, 0.50, 0.0], down, 0.41, 0.05, 3.5, knee),
        (15, [-0.1, 0.09, 0.0], foot, 0.187, 0.04, 1.2, ball(30.0, 10.0)),
    ];
    let bones = table
        .iter()
        .zip(BONES)
        .map(|(&(parent, head, r, length, radius, mass, limit), name)| BoneDef {
            name: name.to_string(),
            parent: u32::try_from(parent).ok(),
            position: position + rotation * (Vec3::from(head) * s),
            rotation: (rotation * r).normalize(),
            length: length * s,
            radius: radius * s,
            mass: mass * m,
            limit,
        })
        .collect();
    RagdollDef { bones }
}
