//! Coulomb friction (Jakobsen, "Handling friction", on the stored velocity): a particle
//! sliding on a plane stops after v0^2 / (2 mu g), never moves backwards, and
//! stays stopped; without friction it keeps sliding.

use sinew::{ColliderShape, Quat, Vec3, World, WorldSettings};

/// Slides a particle resting on y = 0 at `v0` m/s along +x; returns the x
/// positions after each step.
fn slide(mu: f32, v0: f32, steps: usize) -> Vec<f32> {
    let settings = WorldSettings { damping: 0.0, ..Default::default() };
    let mut world = World::new(settings).unwrap();
    world
        .create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 }, Vec3::ZERO, Quat::IDENTITY, mu)
        .unwrap();
    let body = world.create_particles(&[Vec3::ZERO], None).unwrap();
    let dt = 1.0 / 60.0;
    world.move_particles(body, 0, &[Vec3::new(v0 * dt, 0.0, 0.0)]).unwrap();
    (0..steps)
        .map(|_| {
            world.step(dt).unwrap();
            let x = world.positions(body).unwrap().next().unwrap();
            // Measured 0 at every step; 1e-6 is rounding room (8 ulp at 1 m), none is allowed.
            assert!(x.y >= -1e-6, "sank into the plane: {x}");
            x.x
        })
        .collect()
}

#[test]
fn sliding_particle_stops_at_the_coulomb_distance() {
    let (mu, v0, g) = (0.5f32, 2.0f32, 9.81f32);
    let xs = slide(mu, v0, 120);
    let expected = v0 * v0 / (2.0 * mu * g);
    // The move itself puts the particle v0*dt ahead before the first step;
    // the slide starts there.
    let travelled = *xs.last().unwrap() - v0 / 60.0;
    let error = (travelled - expected).abs() / expected;
    let stop_step = xs.windows(2).position(|w| w[1] == w[0]).expect("it stops");
    println!(
        "friction mu {mu}, v0 {v0} m/s: stopped after {travelled:.4} m in {:.3} s (Coulomb: {expected:.4} m in {:.3} s), error {:.2} %",
        (stop_step + 1) as f32 / 60.0,
        v0 / (mu * g),
        error * 100.0
    );
    // Measured 0.018 % (the bound was 3 %).
    assert!(error < 1e-3, "stop distance error {:.3} %", error * 100.0);
    assert!(xs.windows(2).all(|w| w[1] >= w[0]), "friction reversed the motion");
    assert!(xs[stop_step..].iter().all(|&x| x == xs[stop_step]), "it did not stay stopped");
}

#[test]
fn frictionless_plane_keeps_the_speed() {
    let xs = slide(0.0, 2.0, 60);
    let speed = (xs[59] - xs[29]) / (30.0 / 60.0);
    println!("frictionless: speed {speed} m/s, {:e} off 2 m/s", (speed - 2.0).abs());
    assert!((speed - 2.0).abs() < 1e-4, "speed {speed}"); // measured 2.5e-5
}

/// A particle started 1 mm inside the floor is pushed out without that
/// push counting as an impact: it slides as Coulomb says, as one started
/// exactly on the floor does (the push-out used to take 0.44 m/s off).
#[test]
fn a_push_out_of_an_initial_penetration_takes_no_friction() {
    let (mu, v0, g, t) = (0.3f32, 3.0f32, 9.81f32, 0.5f32);
    let speed_after = |depth: f32| {
        let mut world = World::new(WorldSettings { damping: 0.0, ..Default::default() }).unwrap();
        world
            .create_collider(ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 }, Vec3::ZERO, Quat::IDENTITY, mu)
            .unwrap();
        let body = world.create_particles(&[Vec3::new(0.0, -depth, 0.0)], None).unwrap();
        world.set_velocities(body, 0, &[Vec3::new(v0, 0.0, 0.0)]).unwrap();
        for _ in 0..30 {
            world.step(1.0 / 60.0).unwrap();
        }
        assert_eq!(world.recovery_count(), 0);
        world.velocities(body).unwrap().next().unwrap().x
    };
    let coulomb = v0 - mu * g * t;
    let (inside, touching) = (speed_after(0.001), speed_after(0.0));
    println!(
        "slide after {t} s: {inside:.4} m/s from 1 mm inside, {touching:.4} from the surface, Coulomb {coulomb:.4}"
    );
    // Measured 4.2e-3 m/s.
    assert!((touching - coulomb).abs() < 0.02, "from the surface: {touching} against {coulomb}");
    // Measured 0 (the same bits); 1e-5 m/s is 80 ulp at 1.5 m/s, and it took 0.44 m/s before.
    assert!((inside - touching).abs() < 1e-5, "the push-out took {} m/s", touching - inside);
}
