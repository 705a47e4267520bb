//! A heavy weight on a light rope (issue 31, item 8): 100 kg on twenty 0.1
//! kg particles joined by rigid sticks, hanging from a pinned anchor and
//! swinging from the horizontal. The rope must keep its length at the
//! default settings, and no iteration count may add energy.

use sinew::{DistanceConstraint, Vec3, World, WorldSettings};

const LIGHT: usize = 20;
const SEGMENT: f32 = 0.1;
const LIGHT_KG: f64 = 0.1;
const HEAVY_KG: f64 = 100.0;

struct Run {
    /// Worst (path length - rest length) / rest length of the whole rope.
    stretch: f64,
    /// Worst single stick's relative stretch.
    worst_stick: f64,
    /// Most energy above the start's (J): kinetic + potential.
    gain: f64,
    recoveries: u64,
}

/// The anchor (pinned), `LIGHT` light particles and the weight, in a line
/// along `dir` from `origin`; stepped at 60 Hz for `seconds`.
fn rope(settings: WorldSettings, origin: Vec3, dir: Vec3, seconds: f32) -> Run {
    let mut world = World::new(settings).unwrap();
    let n = LIGHT + 2;
    let positions: Vec<Vec3> = (0..n).map(|k| origin + dir * (SEGMENT * k as f32)).collect();
    let mut inv = vec![(1.0 / LIGHT_KG) as f32; n];
    inv[0] = 0.0;
    inv[n - 1] = (1.0 / HEAVY_KG) as f32;
    let body = world.create_particles(&positions, Some(&inv)).unwrap();
    let sticks: Vec<DistanceConstraint> = (0..n - 1)
        .map(|k| DistanceConstraint { a: k as u32, b: k as u32 + 1, rest_length: SEGMENT, compliance: 0.0 })
        .collect();
    world.add_distance_constraints(body, &sticks).unwrap();
    let mass: Vec<f64> = inv.iter().map(|&w| if w == 0.0 { 0.0 } else { 1.0 / f64::from(w) }).collect();
    let g = -f64::from(settings.gravity.y);
    let o = origin.as_dvec3();
    let energy = |w: &World| {
        let x: Vec<_> = w.positions_f64(body).unwrap().map(|x| x - o).collect();
        let v: Vec<_> = w.velocities(body).unwrap().collect();
        let e: f64 = (0..n).map(|k| mass[k] * (0.5 * v[k].as_dvec3().length_squared() + g * x[k].y)).sum();
        (e, x)
    };
    let (e0, _) = energy(&world);
    let rest = SEGMENT as f64 * (n - 1) as f64;
    let mut run = Run { stretch: 0.0, worst_stick: 0.0, gain: f64::NEG_INFINITY, recoveries: 0 };
    let dt = 1.0 / 60.0;
    for _ in 0..(seconds / dt) as usize {
        world.step(dt).unwrap();
        let (e, x) = energy(&world);
        let lengths: Vec<f64> = x.windows(2).map(|p| (p[1] - p[0]).length()).collect();
        let path: f64 = lengths.iter().sum();
        run.stretch = run.stretch.max((path - rest) / rest);
        run.worst_stick = lengths.iter().fold(run.worst_stick, |m, &l| m.max((l - SEGMENT as f64) / SEGMENT as f64));
        run.gain = run.gain.max(e - e0);
    }
    run.recoveries = world.recovery_count();
    run
}

/// 100 kg on twenty 0.1 kg particles, hanging and swinging from the
/// horizontal at the defaults (8 substeps x 1 pass): the rope keeps its
/// length. Relaxed stick by stick it stretched 81 % hanging and 116 %
/// swinging; the sticks form a chain, solved exactly (constraints/tree.rs).
#[test]
fn a_heavy_weight_keeps_its_rope_length() {
    for (name, dir) in [("hanging", Vec3::NEG_Y), ("swinging", Vec3::X)] {
        let r = rope(WorldSettings::default(), Vec3::ZERO, dir, 10.0);
        println!(
            "{name} at the defaults: rope stretch {:.2} %, worst stick {:.2} %, energy gain {:.3} J",
            r.stretch * 100.0,
            r.worst_stick * 100.0,
            r.gain
        );
        assert_eq!(r.recoveries, 0);
        // Measured 0.13 % and 0.56 % swinging (the bounds were 10 %).
        assert!(r.stretch < 0.01, "{name}: the rope stretched {:.2} %", r.stretch * 100.0);
        assert!(r.worst_stick < 0.03, "{name}: a stick stretched {:.2} %", r.worst_stick * 100.0);
    }
}

/// Iterations 1..8 at 1, 2, 3, 4, 8 and 32 substeps, at the origin and 1 km
/// from it: kinetic plus potential energy never rises above the start's
/// (gravity supplies nothing more), and the rope keeps its length. It rose
/// by up to 17.6 kJ, the weight swinging above the anchor, when each pass
/// moved the sticks along their direction at the substep's start (SHAKE)
/// however far they had turned; by 18 J at 3 substeps x 1 and 359 J at 4 x
/// 1 while the tree solve's Newton steps after the first repeated its
/// linearisation (tree.rs `kkt_step`).
#[test]
fn more_iterations_add_no_energy() {
    let (mut worst, mut most_stretch) = (f64::NEG_INFINITY, [0.0f64; 6]);
    for origin in [Vec3::ZERO, Vec3::new(1000.0, 0.0, 1000.0)] {
        for (s, substeps) in [1, 2, 3, 4, 8, 32].into_iter().enumerate() {
            for iterations in 1..=8 {
                for dir in [Vec3::NEG_Y, Vec3::X] {
                    let settings = WorldSettings { substeps, iterations, ..Default::default() };
                    let r = rope(settings, origin, dir, 10.0);
                    assert_eq!(r.recoveries, 0);
                    // Measured 2.4e-4 J at most, of 2 kJ (m g L); the bound
                    // was 1 J.
                    assert!(
                        r.gain < 1e-3,
                        "{substeps} x {iterations} at {origin}, from {dir}: energy rose by {:.1} J",
                        r.gain
                    );
                    // Swinging: 0.29 % at most, at 3 x 3 (hanging 0.000 %).
                    // With the linearisation repeated: at 1 x 1 1,856 %,
                    // 2 x 1 517 %, 3 x 1 412 %, 4 x 1 82 %.
                    assert!(
                        r.stretch < 0.01,
                        "{substeps} x {iterations} at {origin}, from {dir}: stretch {:.2} %",
                        r.stretch * 100.0
                    );
                    worst = worst.max(r.gain);
                    most_stretch[s] = most_stretch[s].max(r.stretch);
                }
            }
        }
    }
    println!("most energy above the start over iterations 1..8: {worst:.3e} J");
    println!("largest stretch at 1, 2, 3, 4, 8 and 32 substeps: {most_stretch:.4?}");
}
