//! From an engine's skeleton to particles and constraints (Jakobsen,
//! "Articulated bodies").
//!
//! Particles sit at the joints, as in the Hitman stick figures: one at the
//! root's head and one at every bone's tail. A bone whose head is a particle
//! of its parent (its tail, or a socket such as a shoulder on the chest)
//! shares it, which makes a ball joint. Each bone is one shape-matching
//! cluster of its particles, so every bone is a rigid body; a bone whose
//! particles all lie on its axis (a limb) gets one more beside it to carry its
//! roll.
//!
//! A hinge shares two more particles, on its axis either side of the joint
//! (Jakobsen: share two particles and the joint is a hinge; a pair keeps the
//! bones' centres of mass on their axes).
//!
//! Limits use points fixed in the bones, not particles (see
//! `constraints::rigid_point`; a particle there would add mass away from the
//! bone): a ball joint's child tail stays within `2 l sin(swing / 2)` of the
//! parent's point where that tail is at rest (the cone), a hinge's within
//! `2 l sin(half / 2)` of the point at the middle of its range. Twist is
//! clamped by `angle_limit`. Separations (minimum distances) keep joints of
//! bones that do not touch at rest out of each other: knees apart, elbows out
//! of the torso.

use super::RagdollDef;
use crate::constraints::angle_limit::{Limit, TwistLimit};
use crate::constraints::inequality::Inequality;
use crate::constraints::rigid_point::PointRange;
use crate::constraints::shape_match::ClusterSet;
use crate::ragdoll::lengths::{Follower, Lengths};
use glam::{Quat, Vec3};
use std::f32::consts::PI;

/// A hinge's axis particles take no part in collisions.
pub(crate) const NO_COLLISION: f32 = -1.0;

/// Heads closer than this to a parent's particle share it (metres, and
/// relative to the bone's length).
const SHARE_ABSOLUTE: f32 = 1.0e-4;
const SHARE_RELATIVE: f32 = 1.0e-3;

/// What a ragdoll's body is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    pub positions: Vec<Vec3>,
    pub inv_masses: Vec<f32>,
    /// Collision radius per particle; negative for none.
    pub radii: Vec<f32>,
    /// Head and tail particle of each bone.
    pub heads: Vec<u32>,
    pub tails: Vec<u32>,
    pub clusters: ClusterSet,
    /// Hinge axes, cones and hinge ranges.
    pub points: Vec<PointRange>,
    /// Separations.
    pub inequalities: Vec<Inequality>,
    pub twists: Vec<TwistLimit>,
    /// Each bone's distances from its head to its other joint particles.
    pub lengths: Lengths,
}

/// Where a bone's tail is: `length` along its local +Y, or up to its first
/// child's head when `length` is 0. `None` for a zero length without a child.
pub fn tail_of(def: &RagdollDef, b: usize) -> Option<Vec3> {
    let bone = &def.bones[b];
    let axis = bone.rotation * Vec3::Y;
    let length = if bone.length > 0.0 {
        bone.length
    } else {
        let child = def.bones.iter().find(|c| c.parent == Some(b as u32))?;
        (child.position - bone.position).dot(axis)
    };
    Some(bone.position + axis * length)
}

/// Builds a checked definition (see `World::create_ragdoll`).
pub fn build(def: &RagdollDef, tails: &[Vec3]) -> Built {
    let n = def.bones.len();
    let mut pts = Points::default();
    let mut heads = vec![0u32; n];
    let mut tail_ids = vec![0u32; n];
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut points = Vec::new();
    let mut twists = Vec::new();
    for (b, bone) in def.bones.iter().enumerate() {
        let close = |a: Vec3, p: Vec3| (a - p).length() <= SHARE_ABSOLUTE + SHARE_RELATIVE * bone.length;
        heads[b] = match bone.parent {
            None => pts.add(bone.position, bone.radius, true),
            Some(p) => {
                let p = p as usize;
                let found = members[p]
                    .iter()
                    .copied()
                    .find(|&i| pts.joint[i as usize] && close(pts.positions[i as usize], bone.position));
                found.unwrap_or_else(|| {
                    let i = pts.add(bone.position, bone.radius, true);
                    members[p].push(i);
                    i
                })
            }
        };
        tail_ids[b] = pts.add(tails[b], bone.radius, true);
        members[b].extend([heads[b], tail_ids[b]]);

        let Some(p) = bone.parent else { continue };
        let p = p as usize;
        let pivot = bone.position;
        let length = (tails[b] - pivot).length();
        let along = (tails[b] - pivot) / length;
        match bone.limit {
            Limit::Ball { swing, twist_min, twist_max } => {
                if swing < PI - 1e-3 {
                    let (a, b) = (p as u32, b as u32);
                    points.push(PointRange {
                        a,
                        b,
                        ra: tails[b as usize],
                        rb: tails[b as usize],
                        min: 0.0,
                        max: chord(length, swing),
                    });
                }
                if twist_min > -PI || twist_max < PI {
                    twists.push(TwistLimit {
                        parent: p as u32,
                        child: b as u32,
                        head: heads[b],
                        tail: tail_ids[b],
                        rest_relative: (def.bones[p].rotation.conjugate() * bone.rotation).normalize(),
                        min: twist_min,
                        max: twist_max,
                    });
                }
            }
            Limit::Hinge { axis, min, max } => {
                let axis = bone.rotation * axis;
                // Two particles on the axis, one each side, shared by both
                // bones: the hinge. A pair keeps the bones' centres of mass
                // where they were (one particle would pull them off their
                // axis and roll them under gravity).
                let width = bone.radius.max(0.5 * length);
                for side in [-1.0, 1.0] {
                    let partner = pts.add(pivot + axis * (width * side), NO_COLLISION, false);
                    members[p].push(partner);
                    members[b].push(partner);
                }
                let half = 0.5 * (max - min);
                if half < PI - 1e-3 {
                    let middle = pivot + Quat::from_axis_angle(axis, 0.5 * (min + max)) * along * length;
                    let (a, c) = (p as u32, b as u32);
                    points.push(PointRange { a, b: c, ra: middle, rb: tails[b], min: 0.0, max: chord(length, half) });
                }
            }
        }
    }

    let Points { mut positions, mut radii, joint } = pts;
    // A bone whose particles are all on its axis (a limb) gets one more, off
    // the axis, so its roll is carried by a particle like the rest of its
    // motion. It sits inside the bone's capsule, half its radius out, with the
    // rest of the radius for collisions.
    for (b, bone) in def.bones.iter().enumerate() {
        let (h, t) = (positions[heads[b] as usize], positions[tail_ids[b] as usize]);
        let axis = (t - h).normalize();
        let off_axis = members[b]
            .iter()
            .any(|&i| (positions[i as usize] - h).reject_from_normalized(axis).length() > 1e-3 * (t - h).length());
        if !off_axis {
            let offset = (0.5 * bone.radius).max(0.05 * (t - h).length());
            positions.push((h + t) * 0.5 + bone.rotation * Vec3::Z * offset);
            radii.push(bone.radius - offset);
            members[b].push((positions.len() - 1) as u32);
        }
    }

    // Mass: each bone's spread evenly over its cluster; a joint's radius: the
    // thinnest bone at it.
    let mut mass = vec![0.0f32; positions.len()];
    for (bone, m) in def.bones.iter().zip(&members) {
        for &i in m {
            mass[i as usize] += bone.mass / m.len() as f32;
            if joint.get(i as usize) == Some(&true) {
                radii[i as usize] = radii[i as usize].min(bone.radius);
            }
        }
    }
    let inv_masses = mass.iter().map(|&m| 1.0 / m).collect();

    let mut clusters = ClusterSet::default();
    for (bone, m) in def.bones.iter().zip(&members) {
        let list: Vec<(u32, Vec3)> = m.iter().map(|&i| (i, positions[i as usize])).collect();
        clusters.push(&list, bone.rotation);
    }

    let inequalities = separations(&positions, &radii, &joint, &members);
    // A joint particle is a bone's head or one bone's tail or socket, so
    // each bone's distances from its head make a tree.
    let is_joint = |i: u32| joint.get(i as usize) == Some(&true);
    let edges: Vec<(u32, u32)> = members
        .iter()
        .zip(&heads)
        .flat_map(|(m, &h)| m.iter().filter(move |&&i| i != h && is_joint(i)).map(move |&i| (h, i)))
        .collect();
    let mut holders = vec![0u32; positions.len()];
    for m in &members {
        for &i in m {
            holders[i as usize] += 1;
        }
    }
    let followers = members
        .iter()
        .enumerate()
        .flat_map(|(b, m)| m.iter().filter(|&&i| !is_joint(i)).map(move |&i| (b, i)))
        .map(|(b, i)| Follower {
            head: heads[b],
            tail: tail_ids[b],
            particle: i,
            share: 1.0 / holders[i as usize] as f32,
        })
        .collect();
    let lengths = Lengths::new(positions.len(), &positions, &edges, followers);
    Built { positions, inv_masses, radii, heads, tails: tail_ids, clusters, points, inequalities, twists, lengths }
}

/// Particles as they are added: position, radius, whether at a joint.
#[derive(Default)]
struct Points {
    positions: Vec<Vec3>,
    radii: Vec<f32>,
    joint: Vec<bool>,
}

impl Points {
    fn add(&mut self, x: Vec3, r: f32, joint: bool) -> u32 {
        self.positions.push(x);
        self.radii.push(r);
        self.joint.push(joint);
        (self.positions.len() - 1) as u32
    }
}

/// The distance between two points `l` from a pivot, `angle` apart.
fn chord(l: f32, angle: f32) -> f32 {
    2.0 * l * (0.5 * angle).sin()
}

/// Pairs of joint particles whose bones neither are the same nor touch
/// (share a particle): kept at least their radii apart, or their rest
/// distance if closer at rest.
fn separations(positions: &[Vec3], radii: &[f32], joint: &[bool], members: &[Vec<u32>]) -> Vec<Inequality> {
    let n = joint.len();
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, m) in members.iter().enumerate() {
        for &i in m.iter().filter(|&&i| (i as usize) < n) {
            at[i as usize].push(b);
        }
    }
    let touching = |a: usize, b: usize| {
        a == b || members[a].iter().any(|&i| (i as usize) < n && joint[i as usize] && members[b].contains(&i))
    };
    let mut out = Vec::new();
    for i in (0..n).filter(|&i| joint[i]) {
        for j in (i + 1..n).filter(|&j| joint[j]) {
            if at[i].iter().any(|&a| at[j].iter().any(|&b| touching(a, b))) {
                continue;
            }
            let min = (radii[i] + radii[j]).min((positions[j] - positions[i]).length());
            if min > 0.0 {
                out.push(Inequality { a: i as u32, b: j as u32, min, max: f32::INFINITY });
            }
        }
    }
    out
}
