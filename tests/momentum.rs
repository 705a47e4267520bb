//! A spinning, drifting stick of unequal masses in zero gravity.
//!
//! Linear momentum is conserved exactly (every projection is mass-weighted
//! and equal and opposite), so the centre of mass moves on a straight line at
//! constant speed. Angular momentum is conserved too: sticks are corrected
//! along their direction at the start of the substep (SHAKE), which keeps the
//! motion across the stick; projecting along the current direction, as plain
//! position-based dynamics does, loses about 4 % of it over these 10 s.

use sinew::{DistanceConstraint, Vec3, World, WorldSettings};

struct Spin {
    /// Largest distance of the centre of mass from its analytic line, metres.
    com_error: f32,
    /// Relative angular momentum lost over the run.
    angular_loss: f32,
    /// Largest error of the stick's length, metres.
    length_error: f32,
}

fn spin(substeps: u32, seconds: f32, drift: Vec3) -> Spin {
    let settings = WorldSettings { gravity: Vec3::ZERO, damping: 0.0, substeps, ..Default::default() };
    let mut world = World::new(settings).unwrap();
    let masses = [1.0f32, 3.0];
    let body = world
        .create_particles(&[Vec3::new(-0.75, 0.0, 0.0), Vec3::new(0.25, 0.0, 0.0)], Some(&[1.0, 1.0 / 3.0]))
        .unwrap();
    world
        .add_distance_constraints(body, &[DistanceConstraint { a: 0, b: 1, rest_length: -1.0, compliance: 0.0 }])
        .unwrap();
    // Spin about the centre of mass (the origin) at 2 rad/s about z, drift along +x and +z.
    let dt = 1.0 / 60.0;
    let omega = Vec3::new(0.0, 0.0, 2.0);
    let start: Vec<Vec3> = world.positions(body).unwrap().collect();
    let offsets: Vec<Vec3> = start.iter().map(|&r| (omega.cross(r) + drift) * dt).collect();
    world.move_particles(body, 0, &offsets).unwrap();
    let com0: Vec3 = world.positions(body).unwrap().zip(masses).map(|(x, m)| x * m).sum::<Vec3>() / 4.0;

    let angular = |world: &World| {
        let x: Vec<Vec3> = world.positions(body).unwrap().collect();
        let v: Vec<Vec3> = world.velocities(body).unwrap().collect();
        let com: Vec3 = x.iter().zip(masses).map(|(x, m)| *x * m).sum::<Vec3>() / 4.0;
        let l: Vec3 = x.iter().zip(&v).zip(masses).map(|((x, v), m)| (*x - com).cross(*v * m)).sum();
        (com, l, (x[1] - x[0]).length())
    };
    let (_, l0, _) = angular(&world);
    let steps = (seconds / dt) as usize;
    let (mut com_error, mut length_error, mut l_end) = (0.0f32, 0.0f32, l0);
    for k in 1..=steps {
        world.step(dt).unwrap();
        let (com, l, len) = angular(&world);
        let expected = com0 + drift * (k as f32 * dt);
        com_error = com_error.max((com - expected).length());
        length_error = length_error.max((len - 1.0).abs());
        l_end = l;
    }
    assert_eq!(world.recovery_count(), 0);
    Spin { com_error, angular_loss: 1.0 - l_end.z / l0.z, length_error }
}

#[test]
fn spinning_stick_pair_conserves_momentum() {
    let s = spin(8, 10.0, Vec3::new(0.5, 0.0, 0.2));
    // Near the origin, so that f32 rounding (below) does not hide the trend.
    let coarse = spin(8, 10.0, Vec3::ZERO);
    let fine = spin(32, 10.0, Vec3::ZERO);
    println!(
        "spinning stick, 10 s at 2 rad/s: centre of mass off its line by {:.2e} m (travelled 5.4 m), \
         stick length error {:.1e} m, angular momentum lost {:.2} % (without drift: {:.2} % at 8 substeps, {:.2} % at 32)",
        s.com_error,
        s.length_error,
        s.angular_loss * 100.0,
        coarse.angular_loss * 100.0,
        fine.angular_loss * 100.0
    );
    println!(
        "angular momentum lost: {:e} drifting, {:e} at 8 substeps, {:e} at 32",
        s.angular_loss, coarse.angular_loss, fine.angular_loss
    );
    // Exact in real arithmetic; in f32 the velocity x - x_prev carries the
    // rounding of positions (ulp(x) / h per substep), a random walk: measured
    // 3.9e-5 m (the bound was 1e-2, for the few mm it once walked).
    assert!(s.com_error < 1e-4, "linear momentum not conserved: centre of mass off by {} m", s.com_error);
    assert!(s.length_error < 2e-6, "stick length error {}", s.length_error); // measured 5.4e-7
    for (what, loss) in
        [("drifting", s.angular_loss), ("8 substeps", coarse.angular_loss), ("32 substeps", fine.angular_loss)]
    {
        // Measured 2.6e-6 to 7.2e-5 (at 32 substeps), each a gain; the bound was 2e-3.
        assert!(loss.abs() < 2e-4, "{what}: angular momentum changed by {:.3} %", loss * 100.0);
    }
}
