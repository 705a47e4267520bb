//! Verlet is exact for constant acceleration: a falling particle follows the
//! analytic parabola to float precision, also when dt changes between steps
//! (the time correction of solver/integrate.rs), up to f32 rounding.

use sinew::{Vec3, World, WorldSettings};

#[test]
fn free_fall_follows_the_parabola_with_changing_dt() {
    let settings = WorldSettings { damping: 0.0, ..Default::default() };
    let mut world = World::new(settings).unwrap();
    let x0 = Vec3::new(1.0, 2.0, -3.0);
    let body = world.create_particles(&[x0], None).unwrap();
    let g = settings.gravity;
    // A particle created at rest has x_prev = x: zero velocity half a substep
    // before t = 0, i.e. v(t) = g (t + h0/2) with h0 the substep of 1/60 s.
    let h0 = 1.0 / 60.0 / settings.substeps as f64;
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 1.0 / 60.0, 0.05];
    let mut t = 0.0f64;
    let mut worst = 0.0f64;
    for k in 0..60 {
        let dt = dts[k % dts.len()];
        world.step(dt).unwrap();
        t += f64::from(dt);
        let x = world.positions(body).unwrap().next().unwrap();
        let expected_y = f64::from(x0.y) + f64::from(g.y) * (t * t / 2.0 + t * h0 / 2.0);
        let err = (f64::from(x.y) - expected_y).abs();
        let drop = (expected_y - f64::from(x0.y)).abs();
        // Relative to the drop, with 1 cm of slack for the first tiny drops.
        worst = worst.max(err / (drop + 0.01));
        assert_eq!((x.x, x.z), (x0.x, x0.z), "no sideways drift");
    }
    println!("free fall: worst relative error {worst:.2e} over {t:.3} s with dt changing");
    // Exact in real arithmetic; what is left is f32 rounding of x - x_prev,
    // which grows with the distance from the origin (about 1e-4 at 10 m).
    assert!(worst < 2e-4, "relative error {worst}");
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
