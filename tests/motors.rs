//! Ragdoll motors (issue 6) against numbers: a standing humanoid held on its
//! pose under gravity, sagging under a weak cap, recovering from a shove,
//! tracking a gliding pose, blending strength without a jump; local-space
//! targets; bad input refused; snapshots step on to the same bits; a
//! pinned hand dragging a limp body (IK by pinning); capped particle targets
//! pulling a cloth to its animation until a collider holds it off.
//!
//! The RMS error is over the joint particles (every bone's head and tail)
//! against where the target pose puts them.

use sinew::{BodyId, ColliderShape, ErrorKind, Quat, Vec3, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

type Pose = Vec<(Vec3, Quat)>;

/// A humanoid standing at the origin facing +Z on a floor (friction 0.8),
/// with sleep off; its rest pose.
fn standing() -> (World, BodyId, Pose) {
    standing_in(true)
}

/// As `standing`, with root motion on: the figure's place is animated too
/// (the opt-in of `set_ragdoll_root_motion`), so motors alone keep it up.
fn standing_rooted() -> (World, BodyId, Pose) {
    let (mut w, body, pose) = standing();
    w.set_ragdoll_root_motion(body, true).unwrap();
    (w, body, pose)
}

/// As `standing`, with or without the floor.
fn standing_in(floor: bool) -> (World, BodyId, Pose) {
    let mut w = World::new(WorldSettings { sleep_speed: 0.0, ..WorldSettings::default() }).unwrap();
    if floor {
        let plane = ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 };
        w.create_collider(plane, Vec3::ZERO, Quat::IDENTITY, 0.8).unwrap();
    }
    let body = w.create_humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8).unwrap();
    let pose = w.ragdoll_bones(body).unwrap().collect();
    (w, body, pose)
}

/// Measures joint errors of one humanoid: each joint particle with its bone
/// and whether it is the bone's tail, and each bone's length.
struct Joints {
    at: Vec<(usize, usize, bool)>,
    lengths: Vec<f32>,
}

impl Joints {
    fn of(w: &World, body: BodyId) -> Joints {
        let x: Vec<Vec3> = w.positions(body).unwrap().collect();
        let (mut at, mut lengths) = (Vec::new(), Vec::new());
        for b in 0..w.ragdoll_bone_count(body).unwrap() as usize {
            let (h, t) = w.ragdoll_bone_particles(body, b as u32).unwrap();
            let (h, t) = (h as usize, t as usize);
            lengths.push((x[t] - x[h]).length());
            for (i, tail) in [(h, false), (t, true)] {
                if !at.iter().any(|&(j, _, _)| j == i) {
                    at.push((i, b, tail));
                }
            }
        }
        Joints { at, lengths }
    }

    /// RMS distance (metres) of the joint particles from the pose's joints.
    fn rms(&self, w: &World, body: BodyId, pose: &[(Vec3, Quat)]) -> f32 {
        let x: Vec<Vec3> = w.positions(body).unwrap().collect();
        let sum: f32 = self
            .at
            .iter()
            .map(|&(i, b, tail)| {
                let (head, q) = pose[b];
                let goal = if tail { head + q * Vec3::Y * self.lengths[b] } else { head };
                (x[i] - goal).length_squared()
            })
            .sum();
        (sum / self.at.len() as f32).sqrt()
    }
}

fn moved(pose: &[(Vec3, Quat)], by: Vec3) -> Pose {
    pose.iter().map(|&(x, q)| (x + by, q)).collect()
}

/// Holds the standing pose for two seconds; the worst RMS error of the
/// second second.
fn hold(strength: f32, max_force: f32) -> f32 {
    let (mut w, body, pose) = standing_rooted();
    let j = Joints::of(&w, body);
    w.set_ragdoll_motor_targets(body, &pose).unwrap();
    w.set_ragdoll_motor_strength(body, strength, max_force).unwrap();
    let mut worst = 0.0f32;
    for frame in 0..120 {
        w.step(DT).unwrap();
        if frame >= 60 {
            worst = worst.max(j.rms(&w, body, &pose));
        }
    }
    worst
}

#[test]
fn full_strength_holds_a_standing_pose_and_a_weak_cap_sags() {
    // Measured (8 substeps, 1 iteration): full strength 0.22 mm RMS, half
    // strength 2.0 mm (the bounds were 2 and 10 mm); capped at 0.5 N (0.5 N
    // m on a 1 m bone) the figure folds and topples, 1.1 m RMS. The issue
    // asks for 2 cm and "much larger".
    let held = hold(1.0, 0.0);
    let sagged = hold(1.0, 0.5);
    let half = hold(0.5, 0.0);
    eprintln!("hold: full {held:.5} m, capped at 0.5 N {sagged:.6} m, half strength {half:.5} m RMS");
    assert!(held < 6e-4, "{held}");
    assert!(half < 5e-3, "{half}");
    assert!(sagged > 0.3, "{sagged}");
}

#[test]
fn after_a_shove_on_the_chest_it_returns_to_the_pose() {
    // The chest and everything it carries (neck, head, arms) moved 6 cm
    // forward, with the velocity of that move over a frame (3.6 m/s).
    // Measured: 4.4 cm RMS just after, at most 8.5 cm (full strength), 5.7
    // (half), 9.1 (0.3, capped at 2000 N) as it carries on; back within 3 cm
    // after 0.10, 0.10 and 0.20 s; 0.2, 2.0 and 3.7 mm RMS a second later
    // (the bounds were 2, 10 and 10 mm).
    for (strength, max_force, within, settles) in
        [(1.0, 0.0, 0.15, 6e-4), (0.5, 0.0, 0.15, 5e-3), (0.3, 2000.0, 0.3, 0.01)]
    {
        let (mut w, body, pose) = standing_rooted();
        let j = Joints::of(&w, body);
        w.set_ragdoll_motor_targets(body, &pose).unwrap();
        w.set_ragdoll_motor_strength(body, strength, max_force).unwrap();
        for _ in 0..30 {
            w.step(DT).unwrap();
        }
        let n = w.particle_count(body).unwrap() as usize;
        let mut shove = vec![Vec3::ZERO; n];
        for b in 2..=10 {
            let (h, t) = w.ragdoll_bone_particles(body, b).unwrap();
            shove[h as usize] = Vec3::new(0.0, 0.0, 0.06);
            shove[t as usize] = Vec3::new(0.0, 0.0, 0.06);
        }
        w.move_particles(body, 0, &shove).unwrap();
        let shoved = j.rms(&w, body, &pose);
        let (mut back, mut worst) = (None, shoved);
        for frame in 1..=60 {
            w.step(DT).unwrap();
            let e = j.rms(&w, body, &pose);
            worst = worst.max(e);
            if e < 0.03 && back.is_none() {
                back = Some(frame as f32 * DT);
            }
        }
        let settled = j.rms(&w, body, &pose);
        eprintln!(
            "shove, strength {strength}, max force {max_force}: {shoved:.4} m RMS after it, worst {worst:.4}, \
             within 3 cm after {back:?} s, {settled:.4} m a second later"
        );
        assert!(shoved > 0.04, "the shove moved the pose by {shoved} m RMS only");
        let back = back.expect("never back within 3 cm");
        assert!(back <= within && back < 0.5, "back within 3 cm after {back} s");
        assert!(settled < settles, "strength {strength}: {settled} m RMS a second later");
    }
}

#[test]
fn it_tracks_a_pose_gliding_at_one_metre_per_second() {
    // Measured: 0.5 mm RMS at full strength, feet on the floor (friction
    // 0.8) or hanging in the air (the bound was 5 mm); 2.4 cm at half
    // strength (it lags by v tau). The issue asks for 5 cm.
    for (strength, floor, bound) in [(1.0, true, 0.0015), (1.0, false, 0.0015), (0.5, true, 0.04)] {
        let (mut w, body, pose) = standing_in(floor);
        w.set_ragdoll_root_motion(body, true).unwrap();
        let j = Joints::of(&w, body);
        w.set_ragdoll_motor_strength(body, strength, 0.0).unwrap();
        let mut worst = 0.0f32;
        for frame in 0..120 {
            let target = moved(&pose, Vec3::new(0.0, 0.0, 1.0 * (frame + 1) as f32 * DT));
            w.set_ragdoll_motor_targets(body, &target).unwrap();
            w.step(DT).unwrap();
            if frame >= 30 {
                worst = worst.max(j.rms(&w, body, &target));
            }
        }
        eprintln!("glide s {strength} floor {floor}: worst {worst:.4} m RMS");
        assert!(worst < bound, "strength {strength}, floor {floor}: {worst} m RMS");
    }
}

#[test]
fn strength_blends_between_limp_and_animated_without_a_jump() {
    // Strength 1 -> 0 -> 1 in steps of 0.25 a frame, then held at 1.
    let ramp = [0.75, 0.5, 0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
    let (kick, most) = blend(&ramp);
    // The same without the ramp: limp for seven frames, then full strength.
    let mut hard = [0.0; 17];
    hard[7..].fill(1.0);
    let (hard_kick, hard_most) = blend(&hard);
    eprintln!(
        "blend: a frame's motion at most {most:.4} m, changed by {kick:.4} m; without the ramp {hard_most:.4}, {hard_kick:.4}"
    );
    // Measured: every particle moves at most 2.1 mm a frame and its motion
    // changes by at most 1.8 mm from one frame to the next: less than
    // gravity alone changes it in free fall (g dt^2 = 2.7 mm); it sags 4 mm
    // RMS at the limp moment. Switched without the ramp: 2.7 cm and 2.8 cm.
    let g_dt2 = 9.81 * DT * DT;
    assert!(kick < g_dt2, "{kick}");
    assert!(most < 0.005, "{most}");
    assert!(hard_kick > 5.0 * kick, "{hard_kick} vs {kick}");
}

/// Holds the standing pose half a second, then steps with the strengths
/// given frame by frame; the largest change of a particle's motion from one
/// frame to the next and its largest motion in a frame.
fn blend(strengths: &[f32]) -> (f32, f32) {
    let (mut w, body, pose) = standing_rooted();
    w.set_ragdoll_motor_targets(body, &pose).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let mut last: Vec<Vec3> = w.positions(body).unwrap().collect();
    let mut speed: Vec<Vec3> = vec![Vec3::ZERO; last.len()];
    let (mut kick, mut most) = (0.0f32, 0.0f32);
    for &s in strengths {
        w.set_ragdoll_motor_strength(body, s, 0.0).unwrap();
        w.step(DT).unwrap();
        let x: Vec<Vec3> = w.positions(body).unwrap().collect();
        for i in 0..x.len() {
            let step = x[i] - last[i];
            kick = kick.max((step - speed[i]).length());
            most = most.max(step.length());
            speed[i] = step;
        }
        last = x;
    }
    (kick, most)
}

#[test]
fn motors_refuse_bad_input() {
    let (mut w, body, pose) = standing();
    let kind = |r: sinew::Result<()>| r.unwrap_err().kind;
    assert_eq!(kind(w.set_ragdoll_motor_targets(body, &pose[..16])), ErrorKind::InvalidArgument);
    let mut bad = pose.clone();
    bad[3].0.x = f32::NAN;
    assert_eq!(kind(w.set_ragdoll_motor_targets(body, &bad)), ErrorKind::InvalidArgument);
    assert_eq!(kind(w.set_ragdoll_motor_targets_local(body, &bad)), ErrorKind::InvalidArgument);
    let mut bad = pose.clone();
    bad[5].1 = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    assert_eq!(kind(w.set_ragdoll_motor_targets(body, &bad)), ErrorKind::InvalidArgument);
    for s in [-0.1, 1.5, f32::NAN, f32::INFINITY] {
        assert_eq!(kind(w.set_ragdoll_motor_strength(body, s, 0.0)), ErrorKind::InvalidArgument, "{s}");
        assert_eq!(kind(w.set_ragdoll_bone_motor(body, 1, s, 0.0, 0.0)), ErrorKind::InvalidArgument, "{s}");
    }
    for f in [-1.0, f32::NAN] {
        assert_eq!(kind(w.set_ragdoll_motor_strength(body, 1.0, f)), ErrorKind::InvalidArgument, "{f}");
        assert_eq!(kind(w.set_ragdoll_bone_motor(body, 1, 1.0, f, 0.0)), ErrorKind::InvalidArgument, "{f}");
        assert_eq!(kind(w.set_ragdoll_bone_motor(body, 1, 1.0, 0.0, f)), ErrorKind::InvalidArgument, "{f}");
    }
    assert_eq!(kind(w.set_ragdoll_bone_motor(body, 17, 1.0, 0.0, 0.0)), ErrorKind::InvalidArgument);
    // Nothing above changed the motors: still off, at their defaults.
    let m = w.ragdoll_motors(body).unwrap();
    assert!(!m.active && !m.root_motion && m.strength.iter().all(|&s| s == 1.0));
    let cloth = w.create_particles(&[Vec3::ZERO], None).unwrap();
    assert_eq!(kind(w.set_ragdoll_motor_targets(cloth, &[])), ErrorKind::WrongKind);
    assert_eq!(kind(w.set_ragdoll_motor_strength(cloth, 1.0, 0.0)), ErrorKind::WrongKind);
    assert_eq!(kind(w.set_ragdoll_bone_motor(cloth, 0, 1.0, 0.0, 0.0)), ErrorKind::WrongKind);
    assert_eq!(kind(w.set_ragdoll_root_motion(cloth, false)), ErrorKind::WrongKind);
    w.destroy_body(body).unwrap();
    assert_eq!(kind(w.set_ragdoll_motor_targets(body, &pose)), ErrorKind::InvalidId);
    // Good input: unlimited as 0 or +inf; one bone's motor.
    let (mut w, body, pose) = standing();
    w.set_ragdoll_motor_targets(body, &pose).unwrap();
    w.set_ragdoll_motor_strength(body, 0.5, f32::INFINITY).unwrap();
    w.set_ragdoll_bone_motor(body, 4, 0.25, 10.0, 2.0).unwrap();
    let m = w.ragdoll_motors(body).unwrap();
    assert!(m.active && m.strength[4] == 0.25 && m.max_force[4] == 10.0 && m.max_torque[4] == 2.0);
    assert!(m.max_torque[3].is_infinite() && m.strength[3] == 0.5);
}

#[test]
fn local_targets_are_the_world_pose_relative_to_each_parent() {
    let (mut w, body, pose) = standing();
    let turn = Quat::from_rotation_y(0.4);
    let world: Pose = pose.iter().map(|&(x, q)| (turn * x + Vec3::new(1.0, 0.0, 2.0), turn * q)).collect();
    let parents: Vec<Option<usize>> = sinew::RagdollDef::humanoid(Vec3::ZERO, Quat::IDENTITY, 1.8)
        .bones
        .iter()
        .map(|b| b.parent.map(|p| p as usize))
        .collect();
    let local: Pose = world
        .iter()
        .zip(&parents)
        .map(|(&(x, q), parent)| match *parent {
            None => (x, q),
            Some(p) => {
                let (px, pq) = world[p];
                (pq.conjugate() * (x - px), pq.conjugate() * q)
            }
        })
        .collect();
    w.set_ragdoll_motor_targets_local(body, &local).unwrap();
    // The motors keep their targets in the body's frame.
    let origin = w.body_origin(body).unwrap();
    let motors = w.ragdoll_motors(body).unwrap();
    let off = motors.to.iter().zip(&world).map(|(&(x, _), &(tx, _))| (x + origin - tx).length()).fold(0.0, f32::max);
    let turned = motors.to.iter().zip(&world).map(|(&(_, q), &(_, tq))| q.angle_between(tq)).fold(0.0, f32::max);
    eprintln!("local targets: {off:e} m, {turned:e} rad off the world pose");
    for (b, (&(x, q), &(tx, tq))) in w.ragdoll_motors(body).unwrap().to.iter().zip(&world).enumerate() {
        let x = x + origin;
        // Measured 0 m and 0 rad: the bounds are ulps of composing the
        // frames (an ulp of `angle_between`'s `acos` is ~3e-4 rad).
        assert!((x - tx).length() < 1e-6, "bone {b}: {x} vs {tx}");
        assert!(q.angle_between(tq) < 1e-3, "bone {b}");
    }
}

#[test]
fn a_snapshot_keeps_the_motors_and_steps_on_to_the_same_bits() {
    let (mut w, body, pose) = standing();
    w.set_ragdoll_motor_targets(body, &moved(&pose, Vec3::new(0.0, 0.0, 0.1))).unwrap();
    w.set_ragdoll_motor_strength(body, 0.6, 900.0).unwrap();
    w.set_ragdoll_bone_motor(body, 6, 0.3, 0.0, 4.0).unwrap();
    w.set_ragdoll_root_motion(body, false).unwrap();
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    // Set, not yet stepped: the image holds from and to.
    w.set_ragdoll_motor_targets(body, &moved(&pose, Vec3::new(0.0, 0.0, 0.2))).unwrap();
    w.set_ragdoll_motor_strength(body, 0.8, 900.0).unwrap();
    let image = w.snapshot();
    let mut copy = World::new(WorldSettings::default()).unwrap();
    copy.restore(&image).unwrap();
    assert_eq!(copy.state_hash(), w.state_hash());
    assert_eq!(copy.ragdoll_motors(body).unwrap(), w.ragdoll_motors(body).unwrap());
    for k in 0..30 {
        for world in [&mut w, &mut copy] {
            world.set_ragdoll_motor_targets(body, &moved(&pose, Vec3::new(0.0, 0.0, 0.2 + 0.01 * k as f32))).unwrap();
            world.step(DT).unwrap();
        }
    }
    assert_eq!(copy.state_hash(), w.state_hash(), "the restored motors step on alike");
    // Motors change the state: a world without them does not hash alike.
    let (plain, _, _) = standing();
    assert_ne!(plain.state_hash(), standing_with_targets().state_hash());
}

fn standing_with_targets() -> World {
    let (mut w, body, pose) = standing();
    w.set_ragdoll_motor_targets(body, &pose).unwrap();
    w
}

/// IK by pinning (Jakobsen's corpse dragging): the hand of a limp humanoid
/// pinned (inverse mass 0) and moved by a target drags the body; the hand
/// follows its target exactly while the body trails behind. (A target of
/// compliance 0 on a free hand is exact only at its own projection: the
/// bones' fits after it move the hand by centimetres, so dragging pins.)
#[test]
fn a_dragged_hand_follows_its_target_while_the_body_trails() {
    let (mut w, body, _) = standing();
    // Lying on its back first, limp.
    let lying = lying_pose(&w, body);
    w.set_ragdoll_pose(body, &lying, None).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let hand = w.ragdoll_find_bone(body, "hand_r").unwrap().unwrap();
    let (_, tip) = w.ragdoll_bone_particles(body, hand).unwrap();
    let start = w.positions(body).unwrap().nth(tip as usize).unwrap();
    let pelvis0 = w.ragdoll_bones(body).unwrap().next().unwrap().0;
    w.set_inv_masses(body, tip, &[0.0]).unwrap();
    let (mut worst, speed) = (0f32, 1.0f32);
    for k in 1..=120 {
        let target = start + Vec3::new(speed * k as f32 * DT, 0.0, 0.0);
        let t = sinew::Target { particle: tip, position: target, compliance: 0.0, max_force: 0.0 };
        w.set_targets(body, &[t]).unwrap();
        w.step(DT).unwrap();
        let at = w.positions(body).unwrap().nth(tip as usize).unwrap();
        worst = worst.max((at - target).length());
    }
    let pelvis = w.ragdoll_bones(body).unwrap().next().unwrap().0;
    let dragged = pelvis.x - pelvis0.x;
    println!("dragged hand: worst {:.2e} m off its target; the pelvis followed {dragged:.3} m of 2 m", worst);
    // Measured 0: a pinned particle is placed on its target exactly.
    assert!(worst < 1e-6, "the hand left its target by {worst} m");
    assert!(dragged > 1.0, "the body was not dragged: {dragged} m");
    assert!(dragged < 2.0, "the body should trail the hand");
}

/// The humanoid's pose turned to lie on its back, 0.2 m up.
fn lying_pose(w: &World, body: BodyId) -> Vec<(Vec3, Quat)> {
    let lay = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    w.ragdoll_bones(body).unwrap().map(|(p, q)| (lay * p + Vec3::new(0.0, 0.2, 0.0), lay * q)).collect()
}

/// Skinned cloth with a force cap: a sleeve's particles are pulled towards
/// an animated pose by capped targets; it follows the pose, and a collider
/// standing in the way pushes it off (the cap lets physics win).
#[test]
fn capped_targets_pull_cloth_to_its_animation_and_a_collider_pushes_it_off() {
    let mut w = World::new(WorldSettings { sleep_speed: 0.0, ..WorldSettings::default() }).unwrap();
    let def = sinew::GridDef { columns: 10, rows: 10, spacing: 0.05, pins: 0, ..sinew::GridDef::default() };
    let cloth = w.create_cloth_grid(&def).unwrap();
    let rest: Vec<Vec3> = w.positions(cloth).unwrap().collect();
    // The animation lifts the sleeve at 0.5 m/s; each target may pull with
    // at most 2 N (the cloth's particles weigh 10 g each).
    let pose = |t: f32| rest.iter().map(|&p| p + Vec3::new(0.0, 0.5 * t, 0.0)).collect::<Vec<_>>();
    let set = |w: &mut World, t: f32| {
        let targets: Vec<sinew::Target> = pose(t)
            .into_iter()
            .enumerate()
            .map(|(i, position)| sinew::Target { particle: i as u32, position, compliance: 1e-6, max_force: 2.0 })
            .collect();
        w.set_targets(cloth, &targets).unwrap();
    };
    let rms = |w: &World, t: f32| {
        let p: Vec<Vec3> = w.positions(cloth).unwrap().collect();
        (p.iter().zip(pose(t)).map(|(a, b)| (*a - b).length_squared()).sum::<f32>() / p.len() as f32).sqrt()
    };
    for k in 1..=60 {
        set(&mut w, k as f32 * DT);
        w.step(DT).unwrap();
    }
    let following = rms(&w, 1.0);
    // A ball appears where the sleeve is going: the capped targets cannot
    // pull the cloth through it.
    let centre = rest[55] + Vec3::new(0.0, 0.5 * 1.5, 0.0);
    w.create_collider(ColliderShape::Sphere { radius: 0.1 }, centre, Quat::IDENTITY, 0.3).unwrap();
    let mut inside = 0f32;
    for k in 61..=120 {
        set(&mut w, k as f32 * DT);
        w.step(DT).unwrap();
        for p in w.positions(cloth).unwrap() {
            inside = inside.max(0.1 - (p - centre).length());
        }
    }
    println!(
        "skinned cloth: {following:.2e} m RMS from its animation while free; at most {inside:.2e} m inside the ball, {:.3} m RMS off its pose",
        rms(&w, 2.0)
    );
    // Measured 1.1e-7 m RMS (ulps) and never inside the ball (0 m: the
    // bound is rounding room); held 0.48 m RMS off its pose (the bar was 2 cm).
    assert!(following < 1e-6, "the cloth does not follow its animation: {following} m RMS");
    assert!(inside < 1e-5, "the capped targets pulled the cloth {inside} m into the ball");
    assert!(rms(&w, 2.0) > 0.2, "the ball should hold part of the cloth off its pose");
}

/// Issue 31 item 10: root motion is an opt-in. A humanoid on motors at full
/// strength stands on a box; the box is taken away. With the default (root
/// motion off) the motors hold its shape and it falls as physics takes it;
/// with root motion on it stays where its animation puts it.
#[test]
fn without_root_motion_a_powered_figure_falls_when_its_floor_goes() {
    for rooted in [false, true] {
        let mut w = World::new(WorldSettings { sleep_speed: 0.0, ..WorldSettings::default() }).unwrap();
        let floor = ColliderShape::Box { half_extents: Vec3::new(1.0, 0.5, 1.0) };
        let block = w.create_collider(floor, Vec3::new(0.0, 0.5, 0.0), Quat::IDENTITY, 0.8).unwrap();
        let body = w.create_humanoid(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, 1.8).unwrap();
        let pose: Pose = w.ragdoll_bones(body).unwrap().collect();
        assert!(!w.ragdoll_motors(body).unwrap().root_motion, "root motion is off by default");
        w.set_ragdoll_root_motion(body, rooted).unwrap();
        let mut pelvis = 0.0;
        for frame in 0..120 {
            if frame == 30 {
                w.set_collider_transform(block, Vec3::new(0.0, -50.0, 0.0), Quat::IDENTITY).unwrap();
            }
            w.set_ragdoll_motor_targets(body, &pose).unwrap();
            w.step(DT).unwrap();
            pelvis = w.ragdoll_bones(body).unwrap().next().unwrap().0.y;
        }
        let start = pose[0].0.y;
        eprintln!("root motion {rooted}: pelvis {pelvis} m, animated at {start} m");
        if rooted {
            // Measured 1.7e-4 m off (the bound was 2e-3).
            assert!((pelvis - start).abs() < 5e-4, "held by root motion: pelvis at {pelvis}, animated at {start}");
        } else {
            // 1.5 s of free fall is 11 m.
            assert!(pelvis < start - 5.0, "the floor went and the pelvis is at {pelvis} (started at {start})");
        }
        assert_eq!(w.recovery_count(), 0);
    }
}
