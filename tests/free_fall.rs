//! Free fall and constant forces against the integration scheme in exact
//! arithmetic, at several distances from the origin, substep counts and
//! step lengths.
//!
//! The scheme (solver/integrate.rs) is Verlet in leapfrog form with the
//! velocity stored, time-corrected when the substep `h` changes, starting
//! from rest with half a kick. At the end of a substep at time `t`:
//! `x = x0 + a t^2 / 2`, and the velocity read back (the mean over the
//! last substep, of length `h`) is `a (t - h / 2)`. Exact in real
//! arithmetic for constant acceleration, however `h` changes.

use sinew::{Vec3, World, WorldSettings};

/// Distances from the origin a game level spans, metres.
const DISTANCES: [f32; 4] = [0.0, 100.0, 1_000.0, 10_000.0];
const SUBSTEPS: [u32; 3] = [1, 8, 32];

fn world(substeps: u32, gravity: Vec3) -> World {
    World::new(WorldSettings { damping: 0.0, substeps, gravity, ..Default::default() }).unwrap()
}

/// The worst relative errors of position (of the distance fallen) and of
/// velocity over `steps` steps of `dt` from rest, with acceleration `a`
/// from gravity or a force applied before every step.
fn fall(at: Vec3, substeps: u32, dt: f32, steps: u32, by_force: bool) -> (f64, f64) {
    let a = Vec3::new(0.3, -9.81, 0.2);
    let mut w = world(substeps, if by_force { Vec3::ZERO } else { a });
    let mass = 2.5f32;
    let body = w.create_particles(&[at], Some(&[1.0 / mass])).unwrap();
    let h = f64::from(dt) / f64::from(substeps);
    let (mut worst_x, mut worst_v) = (0.0f64, 0.0f64);
    let total = f64::from(dt) * f64::from(steps);
    let mut t = 0.0f64;
    for _ in 0..steps {
        if by_force {
            w.apply_forces(body, 0, &[a * mass]).unwrap();
        }
        w.step(dt).unwrap();
        t += f64::from(dt);
        // In double precision: the f32 reading rounds to the world's ulp
        // (1e-3 m at 10 km), the body's own positions do not.
        let x = w.positions_f64(body).unwrap().next().unwrap();
        let v = w.velocities(body).unwrap().next().unwrap();
        for k in 0..3 {
            let (ak, x0) = (f64::from(a[k]), f64::from(at[k]));
            let fallen = ak * t * t / 2.0;
            // Relative to the whole run's fall.
            let error = (x[k] - x0 - fallen).abs();
            worst_x = worst_x.max(error / (ak * total * total / 2.0).abs());
            let exact_v = ak * (t - h / 2.0);
            worst_v = worst_v.max((f64::from(v[k]) - exact_v).abs() / exact_v.abs());
        }
    }
    assert_eq!(w.recovery_count(), 0);
    (worst_x, worst_v)
}

#[test]
fn free_fall_is_exact_anywhere_at_any_substep_count() {
    for d in DISTANCES {
        for substeps in SUBSTEPS {
            let at = Vec3::new(d, 2.0 + d * 0.25, -d);
            let (x, v) = fall(at, substeps, 1.0 / 60.0, 60, false);
            println!("free fall {d:>6} m, {substeps:>2} substeps: position {x:.1e}, velocity {v:.1e}");
            // Measured 1.4e-5 and 2.6e-5 at most (32 substeps, at any distance).
            assert!(x < 1e-4 && v < 1e-4, "{d} m, {substeps} substeps: position {x:.2e}, velocity {v:.2e}");
        }
    }
}

#[test]
fn a_constant_force_gives_f_t_over_m_anywhere() {
    for d in DISTANCES {
        for substeps in SUBSTEPS {
            let at = Vec3::new(-d, d * 0.5, d);
            let (x, v) = fall(at, substeps, 1.0 / 60.0, 60, true);
            println!("force {d:>6} m, {substeps:>2} substeps: position {x:.1e}, velocity {v:.1e}");
            // Measured 1.4e-5 and 2.6e-5 at most (32 substeps, at any distance).
            assert!(x < 1e-4 && v < 1e-4, "{d} m, {substeps} substeps: position {x:.2e}, velocity {v:.2e}");
        }
    }
}

/// The first step of a new world, at any length, starts from rest: the
/// velocity after it is `g (dt - h / 2)`, not what a 1/60 s step before it
/// would have given (1.5 times as much at dt = 1/120 s).
#[test]
fn the_first_step_at_any_dt_starts_from_rest() {
    for dt in [1.0 / 120.0, 1.0 / 60.0, 1.0 / 30.0] {
        for substeps in SUBSTEPS {
            // The velocity: one step's fall is too small against the
            // coordinates' ulp for a relative position check.
            let (_, v) = fall(Vec3::new(1.0, 2.0, 3.0), substeps, dt, 1, false);
            println!("first step {dt:.4} s, {substeps:>2} substeps: velocity {v:.1e}");
            assert!(v < 1e-6, "dt {dt}, {substeps} substeps: velocity {v:.2e}"); // 3.8e-7 at most
        }
    }
}

#[test]
fn free_fall_follows_the_parabola_with_changing_dt() {
    let settings = WorldSettings { damping: 0.0, ..Default::default() };
    let mut world = World::new(settings).unwrap();
    let x0 = Vec3::new(1.0, 2.0, -3.0);
    let body = world.create_particles(&[x0], None).unwrap();
    let g = settings.gravity;
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 1.0 / 60.0, 0.05];
    let mut t = 0.0f64;
    let mut worst = 0.0f64;
    for k in 0..60 {
        let dt = dts[k % dts.len()];
        world.step(dt).unwrap();
        t += f64::from(dt);
        let x = world.positions(body).unwrap().next().unwrap();
        let expected_y = f64::from(x0.y) + f64::from(g.y) * t * t / 2.0;
        worst = worst.max((f64::from(x.y) - expected_y).abs());
        assert_eq!((x.x, x.z), (x0.x, x0.z), "no sideways drift");
    }
    let drop = f64::from(g.y).abs() * t * t / 2.0;
    println!("free fall: worst error {:.2e} of the drop over {t:.3} s with dt changing", worst / drop);
    // Measured 1.3e-6.
    assert!(worst / drop < 1e-5, "error {worst} m of a {drop} m drop");
}

#[test]
fn set_velocities_reads_back_and_moves_the_particle() {
    let mut w = world(8, Vec3::ZERO);
    let body = w.create_particles(&[Vec3::ZERO, Vec3::X], Some(&[1.0, 0.0])).unwrap();
    let v = Vec3::new(1.5, -2.0, 0.25);
    w.set_velocities(body, 0, &[v]).unwrap();
    assert_eq!(w.velocities(body).unwrap().next().unwrap(), v);
    w.step(0.5).unwrap();
    let x = w.positions(body).unwrap().next().unwrap();
    assert!((x - v * 0.5).length() < 5e-7, "{x}"); // measured 0; 4 ulp at 1 m
    assert_eq!(w.positions(body).unwrap().nth(1).unwrap(), Vec3::X, "a pinned particle stays");
}

#[test]
fn a_pinned_particle_does_not_fall() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    let body = world.create_particles(&[Vec3::ONE], Some(&[0.0])).unwrap();
    for _ in 0..60 {
        world.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(world.positions(body).unwrap().next().unwrap(), Vec3::ONE);
}
