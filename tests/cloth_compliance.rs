//! `sinew_cloth_set_compliance`: a live cloth's stretch, shear and bend
//! compliances changed between steps (issue 23, the samples app's sliders).
//! Set before the first step, a cloth then steps bit for bit as one created
//! with the values (grid and mesh cloths, distance and dihedral bending);
//! set on a hanging cloth, it changes how far the cloth stretches, to what a
//! cloth created so settles at; a snapshot carries the values.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer points to a
//! live local or array holding at least the count passed.

use sinew::ffi::*;
use std::ptr;

const DT: f32 = 1.0 / 60.0;
const COLUMNS: u32 = 10;
const ROWS: u32 = 12;
const SPACING: f32 = 0.1;

#[track_caller]
fn ok(code: SinewResult) {
    assert_eq!(code, SINEW_RESULT_OK);
}

struct World(*mut SinewWorld);

impl World {
    fn new() -> World {
        let mut w = ptr::null_mut();
        ok(unsafe { sinew_world_create(&sinew_default_world_def(), &mut w) });
        World(w)
    }
    fn steps(&self, n: u32) {
        for _ in 0..n {
            ok(unsafe { sinew_world_step(self.0, DT) });
        }
    }
    fn positions(&self, body: SinewBodyId) -> Vec<SinewVec3> {
        let mut n = 0;
        ok(unsafe { sinew_body_particle_count(self.0, body, &mut n) });
        let mut out = vec![SinewVec3 { x: 0.0, y: 0.0, z: 0.0 }; n as usize];
        ok(unsafe { sinew_body_read_positions(self.0, body, out.as_mut_ptr(), n, &mut n) });
        out
    }
    fn snapshot(&self) -> Vec<u8> {
        let mut size = 0;
        ok(unsafe { sinew_world_snapshot(self.0, ptr::null_mut(), 0, &mut size) });
        let mut image = vec![0u8; size];
        ok(unsafe { sinew_world_snapshot(self.0, image.as_mut_ptr(), size, &mut size) });
        image
    }
}

impl Drop for World {
    fn drop(&mut self) {
        unsafe { sinew_world_destroy(self.0) };
    }
}

/// A curtain pinned along its top edge, without tethers (they would cap
/// the stretch), with the given compliances and bending mode.
fn curtain(w: &World, compliance: [f32; 3], bend_mode: u32) -> SinewBodyId {
    let def = SinewClothGridDef {
        columns: COLUMNS,
        rows: ROWS,
        spacing: SPACING,
        mass: 1.0,
        stretch_compliance: compliance[0],
        shear_compliance: compliance[1],
        bend_compliance: compliance[2],
        bend_mode,
        pin_flags: SINEW_PIN_TOP_EDGE,
        tether_mode: SINEW_TETHER_NONE,
        ..sinew_default_cloth_grid_def()
    };
    let mut body = SinewBodyId { index1: 0, generation: 0 };
    ok(unsafe { sinew_cloth_create_grid(w.0, &def, &mut body) });
    // A push sideways so shear and bending have something to resist.
    let v: Vec<SinewVec3> =
        (0..COLUMNS * ROWS).map(|i| SinewVec3 { x: 0.0, y: 0.0, z: (i % 7) as f32 * 0.3 }).collect();
    ok(unsafe { sinew_body_set_velocities(w.0, body, 0, v.as_ptr(), v.len() as u32) });
    body
}

/// A mesh cloth: a 6 x 6 vertex sheet of two triangles a quad, its top row pinned.
fn sheet(w: &World, compliance: [f32; 3], bend_mode: u32) -> SinewBodyId {
    let n = 6u32;
    let vertices: Vec<SinewVec3> =
        (0..n * n).map(|i| SinewVec3 { x: (i % n) as f32 * 0.1, y: 2.0 - (i / n) as f32 * 0.1, z: 0.0 }).collect();
    let mut indices = Vec::new();
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            let (a, b, d, e) = (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1);
            indices.extend([a, d, e, a, e, b]);
        }
    }
    let pins: Vec<u8> = (0..n * n).map(|i| u8::from(i < n)).collect();
    let def = SinewClothMeshDef {
        vertices: vertices.as_ptr(),
        vertex_count: vertices.len() as u32,
        indices: indices.as_ptr(),
        triangle_count: indices.len() as u32 / 3,
        pin_mask: pins.as_ptr(),
        mass: 0.5,
        stretch_compliance: compliance[0],
        bend_compliance: compliance[2],
        bend_mode,
        tether_mode: SINEW_TETHER_NONE,
        ..sinew_default_cloth_mesh_def()
    };
    let mut body = SinewBodyId { index1: 0, generation: 0 };
    ok(unsafe { sinew_cloth_create(w.0, &def, &mut body) });
    let v: Vec<SinewVec3> = (0..n * n).map(|i| SinewVec3 { x: 0.0, y: 0.0, z: (i % 5) as f32 * 0.4 }).collect();
    ok(unsafe { sinew_body_set_velocities(w.0, body, 0, v.as_ptr(), v.len() as u32) });
    body
}

fn bits(p: &[SinewVec3]) -> Vec<[u32; 3]> {
    p.iter().map(|v| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]).collect()
}

/// Mean length of the vertical edges over the spacing: 1 unstretched.
fn stretch(p: &[SinewVec3]) -> f32 {
    let at = |r: u32, c: u32| p[(r * COLUMNS + c) as usize];
    let mut sum = 0.0;
    for r in 0..ROWS - 1 {
        for c in 0..COLUMNS {
            let (a, b) = (at(r, c), at(r + 1, c));
            sum += ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt();
        }
    }
    sum / ((ROWS - 1) * COLUMNS) as f32 / SPACING
}

const SOFT: [f32; 3] = [2e-2, 1e-2, 5e-1];

/// Set before the first step, the compliances give the steps of a cloth
/// created with them, bit for bit.
#[test]
fn set_compliance_steps_as_a_cloth_created_with_it() {
    type Make = fn(&World, [f32; 3], u32) -> SinewBodyId;
    for (what, make) in [("grid", curtain as Make), ("mesh", sheet as Make)] {
        for bend_mode in [SINEW_BEND_DISTANCE, SINEW_BEND_DIHEDRAL] {
            let created = World::new();
            let a = make(&created, SOFT, bend_mode);
            let set = World::new();
            let b = make(&set, [0.0, 1e-6, 1e-3], bend_mode);
            ok(unsafe { sinew_cloth_set_compliance(set.0, b, SOFT[0], SOFT[1], SOFT[2]) });
            created.steps(60);
            set.steps(60);
            let (pa, pb) = (created.positions(a), set.positions(b));
            assert_eq!(bits(&pa), bits(&pb), "{what}, bend mode {bend_mode}: set live differs from created so");
            // And not what the old compliances give.
            let stiff = World::new();
            let c = make(&stiff, [0.0, 1e-6, 1e-3], bend_mode);
            stiff.steps(60);
            assert_ne!(bits(&stiff.positions(c)), bits(&pb), "{what}, bend mode {bend_mode}: the setter did nothing");
        }
    }
}

/// A stiff curtain hanging still, made soft live, stretches to what a
/// curtain created soft settles at; made stiff again, it shortens back.
#[test]
fn a_hanging_curtain_stretches_when_made_soft_live() {
    let live = World::new();
    let body = curtain(&live, [0.0, 1e-6, 1e-3], SINEW_BEND_DISTANCE);
    live.steps(240);
    let stiff = stretch(&live.positions(body));
    ok(unsafe { sinew_cloth_set_compliance(live.0, body, SOFT[0], SOFT[1], SOFT[2]) });
    live.steps(240);
    let soft_live = stretch(&live.positions(body));

    let created = World::new();
    let other = curtain(&created, SOFT, SINEW_BEND_DISTANCE);
    created.steps(480);
    let soft_created = stretch(&created.positions(other));

    ok(unsafe { sinew_cloth_set_compliance(live.0, body, 0.0, 1e-6, 1e-3) });
    live.steps(240);
    let stiff_again = stretch(&live.positions(body));
    println!(
        "mean vertical edge / spacing: stiff {stiff:.5}, made soft live {soft_live:.5}, \
         created soft {soft_created:.5}, stiff again {stiff_again:.5}"
    );
    // Measured: stiff 1.00088, soft live 1.04777, created soft 1.04732, stiff again 1.00087.
    assert!(stiff < 1.002, "a stiff curtain stretched {stiff}");
    assert!(soft_live > stiff + 0.02, "made soft live it stretched {soft_live} (stiff: {stiff})");
    assert!(
        (soft_live - soft_created).abs() < 0.05 * (soft_created - stiff),
        "made soft live {soft_live}, created soft {soft_created}"
    );
    assert!((stiff_again - stiff).abs() < 0.002 * (soft_live - stiff), "stiff again {stiff_again}, stiff {stiff}");
}

/// A snapshot taken after the change restores a cloth with the new
/// compliances: the restored world steps bit for bit as the original.
#[test]
fn a_snapshot_keeps_the_compliances_set_live() {
    let w = World::new();
    let body = curtain(&w, [0.0, 1e-6, 1e-3], SINEW_BEND_DIHEDRAL);
    w.steps(30);
    ok(unsafe { sinew_cloth_set_compliance(w.0, body, SOFT[0], SOFT[1], SOFT[2]) });
    w.steps(5);
    let image = w.snapshot();
    let restored = World::new();
    ok(unsafe { sinew_world_restore(restored.0, image.as_ptr(), image.len()) });
    w.steps(60);
    restored.steps(60);
    assert_eq!(bits(&w.positions(body)), bits(&restored.positions(body)));
    // Restored into a world created stiff, the image's compliances win.
    let stiff = World::new();
    let c = curtain(&stiff, [0.0, 1e-6, 1e-3], SINEW_BEND_DIHEDRAL);
    stiff.steps(95);
    assert_ne!(bits(&stiff.positions(c)), bits(&w.positions(body)));
}
