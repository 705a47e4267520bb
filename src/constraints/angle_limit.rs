//! Joint limits. A ball joint keeps the child's bone axis (local +Y) within a
//! cone of its rest direction and its twist about that axis within a range; a
//! hinge turns about one axis within a range.
//!
//! Cones and hinge ranges are inequality distances (see `inequality`) to
//! reference particles of the parent, and a hinge's second shared particle
//! fixes its axis, so those are exact and momentum-keeping. What remains
//! here is the twist of a ball joint. With `Q_p`, `Q_c` the world frames of
//! parent and child clusters and `L` their rest relative rotation, the
//! child's deviation from rest in its own frame is `D = L^-1 Q_p^-1 Q_c`
//! (identity at rest); its twist about +Y (swing-twist decomposition) is
//! clamped into range by turning child and parent about the child's axis
//! (the line from its head to its tail) in inverse proportion to their
//! inertias about it: an equal and opposite angular impulse, so the body's
//! angular momentum about that line stays. Turning the child alone (the
//! parent's share left out, as this did before) put energy in: a chest
//! turned alone drags the shoulder sockets it shares with the arms, the
//! fits pull it back, and over 33 limp drops (tests/ragdoll.rs) the body
//! gained up to 199 J in a frame; with both shares, 3 J at most.

#[cfg(test)]
use crate::constraints::shape_match::{ClusterSet, MIN_INV_MASS};
#[cfg(test)]
use crate::particles::ParticlesMut;
use glam::{Quat, Vec3};
use std::f32::consts::PI;

/// Violations below this (radians) are left alone.
#[cfg(test)]
const MIN_CORRECTION: f32 = 1.0e-5;

/// The range of motion of a joint, in the child's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A ball joint: the bone axis (+Y) stays within `swing` radians of its
    /// rest direction, the twist about it within `twist_min..=twist_max`.
    Ball {
        /// Cone half-angle, radians in [0, pi].
        swing: f32,
        /// Twist range about the bone, radians in [-pi, pi].
        twist_min: f32,
        /// See `twist_min`.
        twist_max: f32,
    },
    /// A hinge about the unit `axis`, at an angle in `min..=max` from rest.
    Hinge {
        /// Unit axis in the child's frame.
        axis: Vec3,
        /// Angle range about it, radians in [-pi, pi].
        min: f32,
        /// See `min`.
        max: f32,
    },
}

impl Limit {
    /// A joint that moves freely.
    pub const FREE: Limit = Limit::Ball { swing: PI, twist_min: -PI, twist_max: PI };

    /// Clamps a deviation from rest into the limit.
    pub fn clamp(&self, d: Quat) -> Quat {
        let d = if d.w < 0.0 { -d } else { d };
        match *self {
            Limit::Ball { swing, twist_min, twist_max } => {
                let (s, t) = swing_twist(d);
                let t_angle = 2.0 * t.y.atan2(t.w);
                let t_clamped = t_angle.clamp(twist_min, twist_max);
                let s_angle = 2.0 * s.w.clamp(-1.0, 1.0).acos();
                let s_clamped = if s_angle > swing {
                    let axis = Vec3::new(s.x, s.y, s.z);
                    let len = axis.length();
                    if len > 1e-9 { Quat::from_axis_angle(axis / len, swing) } else { s }
                } else {
                    s
                };
                if s_clamped == s && t_clamped == t_angle {
                    return d;
                }
                s_clamped * Quat::from_axis_angle(Vec3::Y, t_clamped)
            }
            Limit::Hinge { axis, min, max } => {
                let angle = 2.0 * Vec3::new(d.x, d.y, d.z).dot(axis).atan2(d.w);
                Quat::from_axis_angle(axis, angle.clamp(min, max))
            }
        }
    }

    /// How far (radians) the deviation `d` is outside the limit.
    pub fn violation(&self, d: Quat) -> f32 {
        let c = self.clamp(d);
        let c = if c.dot(d) < 0.0 { -c } else { c };
        c.angle_between(d)
    }
}

/// `d = swing * twist`, twist about +Y, swing about an axis perpendicular to it.
pub fn swing_twist(d: Quat) -> (Quat, Quat) {
    let len = (d.y * d.y + d.w * d.w).sqrt();
    let twist = if len > 1e-9 { Quat::from_xyzw(0.0, d.y / len, 0.0, d.w / len) } else { Quat::IDENTITY };
    (d * twist.conjugate(), twist)
}

/// The twist range of one ball joint between two clusters of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwistLimit {
    pub parent: u32,
    pub child: u32,
    /// The child's head and tail particles: its axis.
    pub head: u32,
    pub tail: u32,
    /// Rest rotation of the child's frame relative to the parent's.
    pub rest_relative: Quat,
    pub min: f32,
    pub max: f32,
}

impl TwistLimit {
    /// The child's twist from rest about its axis (radians).
    #[cfg(test)]
    pub fn twist(&self, clusters: &ClusterSet) -> f32 {
        let qp = clusters.world_rotation(self.parent as usize);
        let qc = clusters.world_rotation(self.child as usize);
        let d = (self.rest_relative.conjugate() * qp.conjugate() * qc).normalize();
        let d = if d.w < 0.0 { -d } else { d };
        let (_, t) = swing_twist(d);
        2.0 * t.y.atan2(t.w)
    }
}

/// Projects every twist limit once, in order: the scalar reference of the
/// passes' twists in lanes (`ragdoll/pass.rs`).
#[cfg(test)]
pub fn project(limits: &[TwistLimit], clusters: &mut ClusterSet, p: &mut ParticlesMut) {
    for l in limits {
        let twist = l.twist(clusters);
        let error = twist.clamp(l.min, l.max) - twist;
        if error.abs() < MIN_CORRECTION {
            continue;
        }
        let head = p.position(l.head as usize);
        let axis = (p.position(l.tail as usize) - head).normalize_or_zero();
        if axis == Vec3::ZERO {
            continue;
        }
        // The child's twist is about its own +Y, which is `axis` in the
        // world. Child and parent turn about the bone's line in inverse
        // proportion to their inertias about it (an equal and opposite
        // angular impulse), each then shifted back so its centre of mass
        // (and the body's momentum) stays.
        let (c, q) = (l.child as usize, l.parent as usize);
        let (ac, ap) = (Axial::of(clusters, c, p, head, axis), Axial::of(clusters, q, p, head, axis));
        // The child's share, w_c / (w_c + w_p) = I_p / (I_c + I_p): in
        // inertias, so a tiny one cannot overflow its inverse.
        let share = match (ac, ap) {
            (None, None) => continue,
            (None, Some(_)) => 0.0,
            (Some(_), None) => 1.0,
            (Some(ac), Some(ap)) => ap.inertia / (ac.inertia + ap.inertia),
        };
        if !(0.0..=1.0).contains(&share) {
            continue; // NaN: an inertia overflowed
        }
        if let Some(ac) = ac {
            turn_about(clusters, c, p, head, axis, error * share, ac);
        }
        if let Some(ap) = ap.filter(|_| share < 1.0) {
            turn_about(clusters, q, p, head, axis, -error * (1.0 - share), ap);
        }
    }
}

/// How cluster `k` takes a turn about the direction `axis`: a free cluster
/// about the line through `head`, then shifted back (so in effect about its
/// centre of mass), with its moment of inertia about that line; a cluster
/// with one pinned member (held by it, see `shape_match::RestInertia`) about
/// its pivot, as a rigid body on a ball joint takes an angular impulse along
/// `axis`: it turns by `I^-1 axis` scaled, and `1 / (axis . I^-1 axis)` is
/// its inertia. `None` for a cluster that cannot turn (two pinned members,
/// or no inertia about the line).
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
struct Axial {
    inertia: f32,
    /// The pivot and the direction it turns in for a turn about `axis`.
    pivot: Option<(Vec3, Vec3)>,
}

#[cfg(test)]
impl Axial {
    fn of(clusters: &ClusterSet, k: usize, p: &ParticlesMut, head: Vec3, axis: Vec3) -> Option<Axial> {
        match clusters.pivot(k, p) {
            Err(()) => None,
            Ok(Some(m)) => {
                let pivot = p.position(clusters.particle[m] as usize);
                let inertia = clusters.free_inertia(k, p, pivot);
                if inertia.determinant().abs() < 1.0e-30 {
                    return None;
                }
                let along = inertia.inverse() * axis;
                let w = axis.dot(along);
                (w > 0.0 && w.is_finite()).then(|| Axial { inertia: 1.0 / w, pivot: Some((pivot, along / w)) })
            }
            Ok(None) => {
                let mut inertia = 0.0f32;
                for m in clusters.members(k) {
                    let i = clusters.particle[m] as usize;
                    let r = (p.position(i) - head).reject_from_normalized(axis);
                    inertia += r.length_squared() / p.inv_mass[i].max(MIN_INV_MASS);
                }
                (inertia > 0.0).then_some(Axial { inertia, pivot: None })
            }
        }
    }
}

/// Turns cluster `k` by `angle` about the direction `axis` as `how` says
/// (see `Axial`); its fitted rotation turns alike. Pinned members stay.
#[cfg(test)]
fn turn_about(
    clusters: &mut ClusterSet,
    k: usize,
    p: &mut ParticlesMut,
    head: Vec3,
    axis: Vec3,
    angle: f32,
    how: Axial,
) {
    let (around, r) = match how.pivot {
        Some((pivot, along)) => (pivot, Quat::from_scaled_axis(along * angle)),
        None => (head, Quat::from_axis_angle(axis, angle)),
    };
    let (mut mass, mut moved) = (0.0f32, Vec3::ZERO);
    for m in clusters.members(k) {
        let i = clusters.particle[m] as usize;
        if p.inv_mass[i] > 0.0 {
            let x = p.position(i);
            let to = around + r * (x - around);
            p.set_position(i, to);
            let inv_mass = p.inv_mass[i].max(MIN_INV_MASS);
            mass += 1.0 / inv_mass;
            moved += (to - x) / inv_mass;
        }
    }
    if mass > 0.0 && how.pivot.is_none() {
        let shift = moved / mass;
        for m in clusters.members(k) {
            let i = clusters.particle[m] as usize;
            p.set_position(i, p.position(i) - shift);
        }
    }
    clusters.rotation[k] = (r * clusters.rotation[k]).normalize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ball_clamps_swing_and_twist_separately() {
        let l = Limit::Ball { swing: 0.5, twist_min: -0.2, twist_max: 0.3 };
        let inside = Quat::from_axis_angle(Vec3::X, 0.4) * Quat::from_axis_angle(Vec3::Y, 0.1);
        assert_eq!(l.clamp(inside), inside);
        assert!(l.violation(inside) < 1e-6);
        let out = Quat::from_axis_angle(Vec3::Z, 0.9) * Quat::from_axis_angle(Vec3::Y, 0.6);
        let c = l.clamp(out);
        let (s, t) = swing_twist(c);
        assert!((2.0 * s.w.acos() - 0.5).abs() < 1e-5);
        assert!((2.0 * t.y.atan2(t.w) - 0.3).abs() < 1e-5);
        // The swing keeps its direction.
        assert!(Vec3::new(s.x, s.y, s.z).normalize().dot(Vec3::Z) > 0.9999);
    }

    #[test]
    fn hinge_keeps_only_its_axis() {
        let l = Limit::Hinge { axis: Vec3::X, min: 0.0, max: 2.0 };
        let bent = Quat::from_axis_angle(Vec3::X, 1.0) * Quat::from_axis_angle(Vec3::Z, 0.2);
        let c = l.clamp(bent);
        let (axis, angle) = c.to_axis_angle();
        assert!(axis.dot(Vec3::X) > 0.9999 && (angle - 1.0).abs() < 0.05);
        // The wrong way is clamped to straight.
        let wrong = Quat::from_axis_angle(Vec3::X, -0.5);
        assert!(l.clamp(wrong).angle_between(Quat::IDENTITY) < 1e-6);
        assert!((l.violation(wrong) - 0.5).abs() < 1e-5);
    }
}
