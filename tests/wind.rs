//! Cloth in strong wind (issue 31, item 9): a cloth pinned at two corners
//! in 20 m/s wind keeps its edges' lengths, a flag edge-on to the wind
//! starts to wave, and a flag's trailing edge does not flip every frame.

use sinew::{GridDef, PIN_TOP_EDGE, PIN_TOP_LEFT, PIN_TOP_RIGHT, Quat, Vec3, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

/// The worst relative stretch of a grid's structural edges, from read-back
/// positions (particle `r * columns + c`).
fn worst_edge(x: &[Vec3], columns: usize, rows: usize, spacing: f32) -> f32 {
    let mut worst = 0.0f32;
    for r in 0..rows {
        for c in 0..columns {
            let i = r * columns + c;
            if c + 1 < columns {
                worst = worst.max((x[i + 1] - x[i]).length() / spacing - 1.0);
            }
            if r + 1 < rows {
                worst = worst.max((x[i + columns] - x[i]).length() / spacing - 1.0);
            }
        }
    }
    worst
}

/// A 16 x 16 grid of `spacing` pinned at its top corners, facing 20 m/s
/// wind, for 5 s: (peak stretch, steady stretch: the worst of the last 2 s).
fn corners_in_wind(spacing: f32) -> (f32, f32, u64) {
    let mut world = World::new(WorldSettings { wind: Vec3::new(0.0, 0.0, 20.0), ..Default::default() }).unwrap();
    let def = GridDef {
        spacing,
        pins: PIN_TOP_LEFT | PIN_TOP_RIGHT,
        position: Vec3::new(0.0, 2.0, 0.0),
        ..Default::default()
    };
    let cloth = world.create_cloth_grid(&def).unwrap();
    let (mut peak, mut steady) = (0.0f32, 0.0f32);
    let frames = (5.0 / DT) as usize;
    for k in 0..frames {
        world.step(DT).unwrap();
        let x: Vec<Vec3> = world.positions(cloth).unwrap().collect();
        let s = worst_edge(&x, 16, 16, spacing);
        peak = peak.max(s);
        if k >= frames - (2.0 / DT) as usize {
            steady = steady.max(s);
        }
    }
    (peak, steady, world.recovery_count())
}

#[test]
fn strong_wind_stretches_no_edge_beyond_ten_percent() {
    for spacing in [0.1, 0.05] {
        let (peak, steady, recoveries) = corners_in_wind(spacing);
        println!(
            "20 m/s, corners pinned, {spacing} m grid: peak {:.1} %, steady {:.1} %",
            peak * 100.0,
            steady * 100.0
        );
        assert_eq!(recoveries, 0);
        // Measured peaks 8.3 % and 7.1 %, steady 5.5 % and 7.1 %: the ten per cent the test names.
        assert!(peak < 0.1 && steady < 0.1, "{spacing} m: peak {:.1} %, steady {:.1} %", peak * 100.0, steady * 100.0);
    }
}

/// A 22 x 14 flag on a vertical pole (the grid's pinned top row turned
/// upright), edge-on to 20 m/s wind along +X; `tilt` turns it about the
/// pole. Returns the trailing edge's z, frame by frame, and the recoveries.
fn flag(tilt: f32, seconds: f32) -> (Vec<f32>, u64) {
    let mut world = World::new(WorldSettings { wind: Vec3::new(20.0, 0.0, 0.0), ..Default::default() }).unwrap();
    // The grid's +X columns become -Y (down the pole), its -Y rows +X.
    let upright = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let def = GridDef {
        columns: 14,
        rows: 22,
        spacing: 0.1,
        pins: PIN_TOP_EDGE,
        position: Vec3::new(0.0, 3.0, 0.0),
        rotation: Quat::from_rotation_y(tilt) * upright,
        ..Default::default()
    };
    let cloth = world.create_cloth_grid(&def).unwrap();
    let mut z = Vec::new();
    for _ in 0..(seconds / DT) as usize {
        world.step(DT).unwrap();
        let x: Vec<Vec3> = world.positions(cloth).unwrap().collect();
        // The trailing edge's middle vertex (last row, middle column).
        z.push(x[21 * 14 + 7].z);
    }
    (z, world.recovery_count())
}

#[test]
fn a_flat_flag_starts_to_wave() {
    let (z, recoveries) = flag(0.0, 3.0);
    assert_eq!(recoveries, 0);
    let most = z.iter().fold(0.0f32, |m, &z| m.max(z.abs()));
    println!("flat flag, 20 m/s edge-on: trailing edge at most {most:.3} m out of plane");
    assert!(most > 0.05, "the flag stayed flat ({most} m)"); // measured 0.068
}

/// A flag turned 0.02 rad out of the wind: its trailing edge waves, each
/// side held for several frames; before, it crossed the flag's plane with
/// sides held for a frame or two.
#[test]
fn a_flag_trailing_edge_does_not_flip_every_frame() {
    let (z, recoveries) = flag(0.02, 6.0);
    assert_eq!(recoveries, 0);
    // Over the last 4 s: the frames at which the trailing edge changed
    // side, and the shortest stay on one side between two changes.
    let tail = &z[z.len() - 240..];
    let changes: Vec<usize> = (1..tail.len()).filter(|&k| (tail[k - 1] > 0.0) != (tail[k] > 0.0)).collect();
    let shortest = changes.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(usize::MAX);
    let short = changes.windows(2).filter(|w| w[1] - w[0] <= 2).count();
    let most = tail.iter().fold(0.0f32, |m, &z| m.max(z.abs()));
    println!(
        "flag 0.02 rad out of the wind: {} side changes in 240 frames, {short} after 1 or 2 frames, \
         shortest stay {shortest} frames, at most {most:.3} m out of plane",
        changes.len()
    );
    // Measured 5 frames at least.
    assert!(shortest >= 3, "the trailing edge changed side after {shortest} frames ({short} times)");
}
