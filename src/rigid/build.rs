//! Particles, sticks and collision points of a rigid body.
//!
//! **The tetrahedron's placement.** Four equal masses `m/4` at
//! `c + S u_k`, with `u_k` the alternate corners `(+-1, +-1, +-1)` of a cube
//! (an even number of minus signs) and `S` diagonal, have the second moments
//! `sum m/4 (S u_k)(S u_k)^T = m S^2`. A solid of mass `m` whose second
//! moments (about its centre, in its local axes) are `m diag(s^2)` is matched
//! by `S = diag(s)`: the tetrahedron then has the solid's inertia tensor
//! exactly, and turns and tumbles as the solid would. For a box of half
//! sizes `h`, `s = h / sqrt(3)`: the tetrahedron sits inside the box and its
//! corners are outside it (their barycentric weights lie outside [0, 1],
//! which the response handles like any other). A very flat shape would give
//! a flat tetrahedron whose sticks hold its orientation badly: no axis of
//! `S` is made shorter than a fifth of the longest.

use super::{Embedded, MAX_LATTICE, RigidDef, RigidModel, RigidShape};
use crate::constraints::distance::DistanceConstraint;
use glam::{IVec3, Mat3, Vec3};
use std::collections::HashMap;

/// Shortest axis of the tetrahedron relative to its longest.
const MIN_TETRA_ASPECT: f32 = 0.2;

/// What `World::create_rigid` places.
pub struct Built {
    /// World positions at creation.
    pub positions: Vec<Vec3>,
    /// Every particle weighs the same.
    pub inv_mass: f32,
    /// The tetrahedron's six sticks (empty for a shape-matched body).
    pub sticks: Vec<DistanceConstraint>,
    pub points: Vec<Embedded>,
    /// Radius of every collision point.
    pub radius: f32,
    /// The centre of mass at creation, world space.
    pub center: Vec3,
}

/// Largest distance of the shape from its local origin, metres.
pub fn extent(shape: &RigidShape) -> f32 {
    match shape {
        RigidShape::Box { half_extents } => half_extents.length(),
        RigidShape::Sphere { radius } => *radius,
        RigidShape::Capsule { half_height, radius } => half_height + radius,
        RigidShape::Convex { points } => points.iter().map(|p| p.length()).fold(0.0, f32::max),
    }
}

/// The bounding box of a convex shape's points.
fn bounds(points: &[Vec3]) -> (Vec3, Vec3) {
    points
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), &p| (lo.min(p), hi.max(p)))
}

/// The collision radius of a box or convex shape: the def's, or chosen.
fn sphere_radius(def: &RigidDef, half_sizes: Vec3, auto: f32) -> f32 {
    let smallest = half_sizes.min_element().max(0.0);
    if def.particle_radius > 0.0 { def.particle_radius.min(smallest) } else { auto.min(smallest) }
}

/// Centres along one axis of half size `h` for spheres of radius `r`: at
/// `+-(h - r)` and, for a lattice, evenly between, about `2 r` apart.
fn axis(h: f32, r: f32, lattice: bool) -> Vec<f32> {
    let inner = (h - r).max(0.0);
    if inner <= 1.0e-6 * h.max(1.0e-6) {
        return vec![0.0];
    }
    let n = if lattice { ((h / r.max(1.0e-9)).round() as usize).clamp(2, MAX_LATTICE) } else { 2 };
    (0..n).map(|k| -inner + 2.0 * inner * k as f32 / (n - 1) as f32).collect()
}

/// Local collision points (or lattice particles), their radius, the local
/// centre of mass and the per-axis root second moments `s` of the solid.
fn local_points(def: &RigidDef) -> (Vec<Vec3>, f32, Vec3, Vec3) {
    let lattice = matches!(def.model, RigidModel::ShapeMatched { .. });
    match &def.shape {
        RigidShape::Box { half_extents: h } => {
            let r = sphere_radius(def, *h, 0.5 * h.min_element());
            let (xs, ys, zs) = (axis(h.x, r, lattice), axis(h.y, r, lattice), axis(h.z, r, lattice));
            let mut out = Vec::with_capacity(xs.len() * ys.len() * zs.len());
            for &z in &zs {
                for &y in &ys {
                    for &x in &xs {
                        out.push(Vec3::new(x, y, z));
                    }
                }
            }
            (out, r, Vec3::ZERO, *h / 3f32.sqrt())
        }
        RigidShape::Sphere { radius: big } => {
            let s = Vec3::splat(big * (0.2f32).sqrt());
            if !lattice {
                return (vec![Vec3::ZERO], *big, Vec3::ZERO, s);
            }
            let r = if def.particle_radius > 0.0 { def.particle_radius.min(*big) } else { 0.5 * big };
            let inner = big - r;
            let ticks = axis(*big, r, true);
            let mut out = Vec::new();
            for &z in &ticks {
                for &y in &ticks {
                    for &x in &ticks {
                        let q = Vec3::new(x, y, z);
                        if q.length() <= inner * (1.0 + 1.0e-5) {
                            out.push(q);
                        }
                    }
                }
            }
            if out.is_empty() {
                out.push(Vec3::ZERO);
            }
            (out, r, Vec3::ZERO, s)
        }
        RigidShape::Capsule { half_height: hh, radius: r } => {
            // Saturating: a capsule far longer than thick (hh / r past usize) gets
            // the most points, as any long one does, instead of overflowing.
            let n =
                if *hh <= 0.0 { 1 } else { ((2.0 * hh / r).ceil() as usize).saturating_add(1).clamp(2, MAX_LATTICE) };
            let out: Vec<Vec3> = (0..n)
                .map(|k| if n == 1 { Vec3::ZERO } else { Vec3::Y * (-hh + 2.0 * hh * k as f32 / (n - 1) as f32) })
                .collect();
            // Second moments of a solid capsule: a cylinder of length 2hh and
            // two half-balls whose centres are at +-hh.
            let pi = std::f32::consts::PI;
            let (vc, vs) = (pi * r * r * 2.0 * hh, 4.0 / 3.0 * pi * r * r * r);
            let yy = (vc * hh * hh / 3.0 + vs * (hh * hh + 0.75 * hh * r + 0.2 * r * r)) / (vc + vs);
            let xx = (vc * r * r / 4.0 + vs * r * r / 5.0) / (vc + vs);
            (out, *r, Vec3::ZERO, Vec3::new(xx.sqrt(), yy.sqrt(), xx.sqrt()))
        }
        RigidShape::Convex { points } => {
            let (lo, hi) = bounds(points);
            let (center, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
            let r = sphere_radius(def, half, 0.1 * half.max_element());
            // Each point moves in by r along every axis it is off-centre on,
            // so the sphere's surface touches where the point was.
            let out = points
                .iter()
                .map(|&q| {
                    let d = q - center;
                    q - Vec3::new(d.x.signum(), d.y.signum(), d.z.signum()) * d.abs().min(Vec3::splat(r))
                })
                .collect();
            (out, r, center, half / 3f32.sqrt())
        }
    }
}

/// Barycentric weights of `q` in the tetrahedron `v`.
fn barycentric(v: &[Vec3; 4], q: Vec3) -> [f32; 4] {
    let m = Mat3::from_cols(v[1] - v[0], v[2] - v[0], v[3] - v[0]);
    let w = m.inverse() * (q - v[0]);
    [1.0 - w.x - w.y - w.z, w.x, w.y, w.z]
}

/// A lattice's particles, placed so that their equal masses have the
/// solid's second moments, and its collision points embedded in them.
///
/// The spheres that fill the shape do not have its mass distribution: the
/// eight spheres of a cube of side `2 h` sit at `+-h/2`, second moments
/// `h^2 / 4` where the solid has `h^2 / 3`, so the cube turned with 3/4 of
/// its inertia (an impulse spun it 33 % too fast). The particles are spread
/// per axis about the centre by `k = s / rms` (`s` the solid's root second
/// moment, `rms` the spheres'), and each sphere, at `(x - c) / k` per axis
/// from the centre, is embedded in its particle and the particle's mirror
/// images across the three axis planes (the lattice is symmetric):
/// `q = x + sum_a alpha_a (x - mirror_a(x))`, `alpha_a = (1/k_a - 1) / 2`.
/// That combination is affine, so it follows the particles however they
/// move. An axis along which every sphere sits at the centre (a capsule's
/// sideways) cannot be spread, and is left.
fn lattice_masses(local: &[Vec3], mean: Vec3, s: Vec3) -> (Vec<Vec3>, Vec<Embedded>) {
    let n = local.len() as f32;
    let rms = (local.iter().map(|&q| (q - mean) * (q - mean)).sum::<Vec3>() / n).map(f32::sqrt);
    let extent = local.iter().map(|&q| (q - mean).abs().max_element()).fold(0.0, f32::max);
    let tiny = 1.0e-5 * extent.max(1.0e-9);
    let k = Vec3::select(rms.cmpgt(Vec3::splat(tiny)), s / rms.max(Vec3::splat(tiny)), Vec3::ONE);
    let particles = local.iter().map(|&q| mean + (q - mean) * k).collect();
    // Each sphere's mirror image across the plane of axis `a` through the
    // centre, found by position: the spheres on a grid far finer than their
    // spacing (1e-4 of the extent; up to 4096 spheres), the mirror's cell
    // and its neighbours searched, since the mirrored position is rounded.
    let quantum = 1.0e-4 * extent.max(1.0e-9);
    let cell = |q: Vec3| ((q - mean) / quantum).round().as_ivec3();
    let grid: HashMap<IVec3, usize> = local.iter().enumerate().map(|(i, &q)| (cell(q), i)).collect();
    let mirror = |i: usize, a: usize| -> usize {
        let mut want = local[i];
        want[a] = 2.0 * mean[a] - want[a];
        let c = cell(want);
        let mut best = (i, 2.0 * quantum);
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(&m) = grid.get(&(c + IVec3::new(dx, dy, dz))) {
                        let d = (local[m] - want).length();
                        if d < best.1 {
                            best = (m, d);
                        }
                    }
                }
            }
        }
        best.0
    };
    let points = (0..local.len())
        .map(|i| {
            let mut e = Embedded { particles: [i as u32; 4], weights: [1.0, 0.0, 0.0, 0.0] };
            for a in 0..3 {
                let m = mirror(i, a);
                if m != i && (local[m] - local[i]).length() > tiny {
                    let alpha = 0.5 * (1.0 / k[a] - 1.0);
                    e.weights[0] += alpha;
                    e.particles[a + 1] = m as u32;
                    e.weights[a + 1] = -alpha;
                }
            }
            e
        })
        .collect();
    (particles, points)
}

/// Places the body (the def is checked).
pub fn build(def: &RigidDef) -> Built {
    let (local, radius, center, s) = local_points(def);
    let to_world = |q: Vec3| def.position + def.rotation * q;
    match def.model {
        RigidModel::ShapeMatched { .. } => {
            let n = local.len();
            let mean = local.iter().copied().sum::<Vec3>() / n as f32;
            let (particles, points) = lattice_masses(&local, mean, s);
            Built {
                positions: particles.iter().map(|&q| to_world(q)).collect(),
                inv_mass: n as f32 / def.mass,
                sticks: Vec::new(),
                points,
                radius,
                center: to_world(mean),
            }
        }
        RigidModel::Tetrahedron => {
            let s = s.max(Vec3::splat(MIN_TETRA_ASPECT * s.max_element()));
            let corners =
                [Vec3::ONE, Vec3::new(1.0, -1.0, -1.0), Vec3::new(-1.0, 1.0, -1.0), Vec3::new(-1.0, -1.0, 1.0)];
            let v = corners.map(|u| center + s * u);
            let points =
                local.iter().map(|&q| Embedded { particles: [0, 1, 2, 3], weights: barycentric(&v, q) }).collect();
            let mut sticks = Vec::with_capacity(6);
            for a in 0..4u32 {
                for b in a + 1..4 {
                    let rest_length = (v[b as usize] - v[a as usize]).length();
                    sticks.push(DistanceConstraint { a, b, rest_length, compliance: 0.0 });
                }
            }
            Built {
                positions: v.iter().map(|&q| to_world(q)).collect(),
                inv_mass: 4.0 / def.mass,
                sticks,
                points,
                radius,
                center: to_world(center),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn second_moments(x: &[Vec3], m: f32) -> Mat3 {
        let c = x.iter().copied().sum::<Vec3>() / x.len() as f32;
        let each = m / x.len() as f32;
        x.iter().fold(Mat3::ZERO, |acc, &p| {
            let d = p - c;
            acc + Mat3::from_cols(d * d.x, d * d.y, d * d.z) * each
        })
    }

    #[test]
    fn a_tetrahedron_has_its_box_s_inertia() {
        let h = Vec3::new(0.5, 0.3, 0.2);
        let mut def = RigidDef::new(RigidShape::Box { half_extents: h });
        def.mass = 6.0;
        def.rotation = Quat::from_rotation_y(0.4);
        let b = build(&def);
        // Second moments of a solid box: m h^2 / 3 per local axis.
        let want = Mat3::from_quat(def.rotation)
            * Mat3::from_diagonal(h * h * (def.mass / 3.0))
            * Mat3::from_quat(def.rotation).transpose();
        let got = second_moments(&b.positions, def.mass);
        for (g, w) in got.to_cols_array().iter().zip(want.to_cols_array()) {
            assert!((g - w).abs() < 1e-5, "{got} vs {want}");
        }
    }

    #[test]
    fn embedded_corners_are_where_the_box_says() {
        let h = Vec3::new(0.5, 0.3, 0.2);
        let mut def = RigidDef::new(RigidShape::Box { half_extents: h });
        def.position = Vec3::new(1.0, 2.0, 3.0);
        def.particle_radius = 0.05;
        let b = build(&def);
        assert_eq!(b.points.len(), 8);
        for e in &b.points {
            let c: Vec3 = (0..4).map(|k| b.positions[e.particles[k] as usize] * e.weights[k]).sum();
            let local = c - def.position;
            assert!((local.abs() - (h - 0.05)).abs().max_element() < 1e-5, "{local}");
            assert!((e.weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn a_shape_matched_box_is_a_lattice_of_touching_spheres() {
        let mut def = RigidDef::new(RigidShape::Box { half_extents: Vec3::new(0.4, 0.2, 0.2) });
        def.model = RigidModel::ShapeMatched { stiffness: 1.0 };
        let b = build(&def);
        // Radius 0.1: four spheres along x, two along y and z, touching.
        assert!((b.radius - 0.1).abs() < 1e-6);
        assert_eq!(b.positions.len(), 4 * 2 * 2);
        let point =
            |e: &Embedded| -> Vec3 { (0..4).map(|k| b.positions[e.particles[k] as usize] * e.weights[k]).sum() };
        assert!((point(&b.points[1]).x - point(&b.points[0]).x - 0.2).abs() < 1e-6);
        // The spheres touch the faces, wherever the particles went.
        for e in &b.points {
            let q = point(e).abs();
            let x_ok = (q.x - 0.1).abs() < 1e-6 || (q.x - 0.3).abs() < 1e-6;
            assert!(x_ok && (q.y - 0.1).abs() < 1e-6 && (q.z - 0.1).abs() < 1e-6, "{q}");
        }
        assert!((b.inv_mass - 16.0).abs() < 1e-5);
    }

    #[test]
    fn a_shape_matched_lattice_has_its_box_s_inertia() {
        let h = Vec3::new(0.4, 0.2, 0.3);
        for radius in [0.0, 0.1, 0.05] {
            let mut def = RigidDef::new(RigidShape::Box { half_extents: h });
            def.model = RigidModel::ShapeMatched { stiffness: 1.0 };
            def.particle_radius = radius;
            def.mass = 6.0;
            let b = build(&def);
            // Second moments of a solid box: m h^2 / 3 per axis, none off
            // the diagonal.
            let want = Mat3::from_diagonal(h * h * (def.mass / 3.0));
            let got = second_moments(&b.positions, def.mass);
            for (g, w) in got.to_cols_array().iter().zip(want.to_cols_array()) {
                assert!((g - w).abs() < 1e-5, "radius {radius}: {got} vs {want}");
            }
        }
    }
}
