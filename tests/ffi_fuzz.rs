//! A property-test driver for the C ABI: random sequences of calls with
//! random ids (live, destroyed, foreign, garbage), counts, NaNs, infinities
//! and huge values, from a fixed seed. Every call must return a defined code
//! (never panic across the boundary, never crash), the world must keep
//! stepping, and no position may become non-finite.
//!
//! `cargo test --test ffi_fuzz` runs a short, fixed sequence; a long run:
//! `SINEW_FUZZ_CALLS=2000000 SINEW_FUZZ_SEED=7 cargo test --release --test ffi_fuzz -- --nocapture`.

use sinew::ffi::*;
use std::ptr;

/// xorshift64*: small, deterministic, good enough to pick calls.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
    /// A float: usually reasonable, sometimes hostile.
    fn float(&mut self) -> f32 {
        match self.below(12) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => 1e20,
            4 => -1e14,
            5 => 0.0,
            6 => -1.0,
            7 => f32::MIN_POSITIVE,
            _ => (self.below(2000) as f32 - 1000.0) / 250.0,
        }
    }
    fn vec3(&mut self) -> SinewVec3 {
        SinewVec3 { x: self.float(), y: self.float(), z: self.float() }
    }
    fn quat(&mut self) -> SinewQuat {
        if self.chance(3) {
            SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }
        } else {
            SinewQuat { x: self.float(), y: self.float(), z: self.float(), w: self.float() }
        }
    }
    fn small(&mut self) -> u32 {
        match self.below(10) {
            0 => u32::MAX,
            1 => 0,
            _ => self.below(40) as u32,
        }
    }
}

struct State {
    bodies: Vec<SinewBodyId>,
    colliders: Vec<SinewColliderId>,
    joints: Vec<SinewJointId>,
    image: Vec<u8>,
}

impl State {
    fn body(&self, rng: &mut Rng) -> SinewBodyId {
        match rng.below(8) {
            0 => SinewBodyId::default(),
            1 => SinewBodyId { index1: rng.below(50) as u32, generation: rng.next() as u32 },
            _ if !self.bodies.is_empty() => self.bodies[rng.below(self.bodies.len() as u64) as usize],
            _ => SinewBodyId::default(),
        }
    }
    fn collider(&self, rng: &mut Rng) -> SinewColliderId {
        match rng.below(6) {
            0 => SinewColliderId::default(),
            1 => SinewColliderId { index1: rng.below(50) as u32, generation: rng.next() as u32 },
            _ if !self.colliders.is_empty() => self.colliders[rng.below(self.colliders.len() as u64) as usize],
            _ => SinewColliderId::default(),
        }
    }
}

fn defined(code: SinewResult) -> bool {
    (SINEW_RESULT_OK..=SINEW_RESULT_INCOMPATIBLE).contains(&code)
        && code != SINEW_RESULT_PANIC
        && code != SINEW_RESULT_POISONED
}

/// One random call; returns its code.
fn call(w: *mut SinewWorld, other: *mut SinewWorld, s: &mut State, rng: &mut Rng) -> SinewResult {
    let world = if rng.chance(40) {
        other
    } else if rng.chance(200) {
        ptr::null_mut()
    } else {
        w
    };
    let n = rng.small();
    // Buffers are always as large as the count claimed (a caller that lies
    // about a buffer's size is outside any C API's contract).
    let cap = if n == u32::MAX { 0 } else { n as usize };
    let mut vecs: Vec<SinewVec3> = (0..cap).map(|_| rng.vec3()).collect();
    let floats: Vec<f32> = (0..cap).map(|_| rng.float()).collect();
    let count = if n == u32::MAX { 0 } else { n };
    unsafe {
        match rng.below(40) {
            0 => {
                let mut id = SinewBodyId::default();
                let r = sinew_body_create_particles(
                    world,
                    vecs.as_ptr(),
                    if rng.chance(2) { ptr::null() } else { floats.as_ptr() },
                    count,
                    &mut id,
                );
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                }
                r
            }
            1 => {
                let mut def = sinew_default_cloth_grid_def();
                def.columns = 2 + rng.below(12) as u32;
                def.rows = 2 + rng.below(12) as u32;
                if rng.chance(3) {
                    def.spacing = rng.float();
                    def.mass = rng.float();
                    def.pin_flags = rng.small();
                    def.tether_mode = rng.small();
                    def.bend_mode = rng.below(3) as u32;
                    def.self_collision = rng.below(3) as u32;
                    def.cloth_collision = rng.below(3) as u32;
                    def.transform.position = rng.vec3();
                }
                let mut id = SinewBodyId::default();
                let r = sinew_cloth_create_grid(world, &def, &mut id);
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                }
                r
            }
            2 => {
                let b = s.body(rng);
                let r = sinew_body_destroy(world, b);
                if r == SINEW_RESULT_OK {
                    s.bodies.retain(|x| *x != b);
                }
                r
            }
            3 => {
                let sticks: Vec<SinewDistanceConstraint> = (0..cap)
                    .map(|_| SinewDistanceConstraint {
                        a: rng.small(),
                        b: rng.small(),
                        rest_length: rng.float(),
                        compliance: rng.float(),
                    })
                    .collect();
                sinew_body_add_distance_constraints(world, s.body(rng), sticks.as_ptr(), count)
            }
            4 => {
                let t: Vec<SinewTarget> = (0..cap)
                    .map(|_| SinewTarget {
                        particle: rng.small(),
                        position: rng.vec3(),
                        compliance: rng.float(),
                        max_force: rng.float(),
                    })
                    .collect();
                sinew_body_set_targets(world, s.body(rng), t.as_ptr(), count)
            }
            5 => sinew_body_set_positions(world, s.body(rng), rng.small(), vecs.as_ptr(), count),
            6 => sinew_body_move_particles(world, s.body(rng), rng.small(), vecs.as_ptr(), count),
            7 => sinew_body_set_inv_masses(world, s.body(rng), rng.small(), floats.as_ptr(), count),
            8 => {
                let mut c = 0;
                sinew_body_read_positions(world, s.body(rng), vecs.as_mut_ptr(), count, &mut c)
            }
            9 => sinew_cloth_read_normals(world, s.body(rng), vecs.as_mut_ptr(), count, ptr::null_mut()),
            10 => {
                let mut bytes = vec![0u8; cap * 28 + 12];
                let stride = [0usize, 11, 12, 28][rng.below(4) as usize];
                let base = bytes.as_mut_ptr();
                let normals = if rng.chance(2) { base.wrapping_add(12) } else { ptr::null_mut() };
                let stride = if stride * cap + 12 > bytes.len() { 12 } else { stride };
                sinew_cloth_write_vertices(
                    world,
                    s.body(rng),
                    base,
                    stride,
                    normals,
                    stride,
                    (cap as u32).min(n),
                    ptr::null_mut(),
                )
            }
            11 => sinew_cloth_set_wind(world, s.body(rng), rng.vec3()),
            12 => sinew_cloth_set_collision(world, s.body(rng), rng.below(3) as u32, rng.below(3) as u32),
            13 => {
                let normals: Vec<SinewVec3> = (0..cap).map(|_| rng.vec3()).collect();
                sinew_cloth_set_skin(world, s.body(rng), vecs.as_ptr(), normals.as_ptr(), count)
            }
            14 => sinew_cloth_set_max_distances(
                world,
                s.body(rng),
                floats.as_ptr(),
                if rng.chance(2) { ptr::null() } else { floats.as_ptr() },
                count,
            ),
            15 => {
                let ids: Vec<u32> = (0..cap).map(|_| rng.small()).collect();
                let mut f = 0;
                sinew_body_attach_to_frame(
                    world,
                    s.body(rng),
                    ids.as_ptr(),
                    count,
                    SinewTransform { position: rng.vec3(), rotation: rng.quat() },
                    &mut f,
                )
            }
            16 => sinew_body_set_frame(
                world,
                s.body(rng),
                rng.small(),
                SinewTransform { position: rng.vec3(), rotation: rng.quat() },
            ),
            17 => {
                let mut id = SinewColliderId::default();
                let r = match rng.below(4) {
                    0 => sinew_collider_create_plane(world, rng.vec3(), rng.float(), rng.float(), &mut id),
                    1 => sinew_collider_create_sphere(world, rng.vec3(), rng.float(), rng.float(), &mut id),
                    2 => sinew_collider_create_box(
                        world,
                        SinewTransform { position: rng.vec3(), rotation: rng.quat() },
                        rng.vec3(),
                        rng.float(),
                        &mut id,
                    ),
                    _ => {
                        sinew_collider_create_capsule(world, rng.vec3(), rng.vec3(), rng.float(), rng.float(), &mut id)
                    }
                };
                if r == SINEW_RESULT_OK && world == w {
                    s.colliders.push(id);
                }
                r
            }
            18 => sinew_collider_set_transform(
                world,
                s.collider(rng),
                SinewTransform { position: rng.vec3(), rotation: rng.quat() },
            ),
            19 => {
                let c = s.collider(rng);
                let r = sinew_collider_destroy(world, c);
                if r == SINEW_RESULT_OK {
                    s.colliders.retain(|x| *x != c);
                }
                r
            }
            20 => {
                let mut j = SinewJointId::default();
                let r = sinew_joint_create(
                    world,
                    s.body(rng),
                    rng.small(),
                    s.body(rng),
                    rng.small(),
                    rng.float(),
                    rng.float(),
                    &mut j,
                );
                if r == SINEW_RESULT_OK && world == w {
                    s.joints.push(j);
                }
                r
            }
            21 => {
                let j = if s.joints.is_empty() || rng.chance(4) {
                    SinewJointId { index1: rng.small(), generation: rng.next() as u32 }
                } else {
                    s.joints[rng.below(s.joints.len() as u64) as usize]
                };
                sinew_joint_destroy(world, j)
            }
            22 => sinew_body_set_sleeping(world, s.body(rng), rng.below(3) as u32),
            23 => sinew_world_set_gravity(world, rng.vec3()),
            24 => sinew_world_set_wind(world, rng.vec3()),
            25 => {
                let mut size = 0;
                let r = sinew_world_snapshot(world, ptr::null_mut(), 0, &mut size);
                if r == SINEW_RESULT_OK && world == w && rng.chance(4) {
                    s.image = vec![0; size];
                    return sinew_world_snapshot(world, s.image.as_mut_ptr(), size, ptr::null_mut());
                }
                r
            }
            26 => {
                // Restore the last image, sometimes damaged.
                let mut image = s.image.clone();
                if !image.is_empty() && rng.chance(2) {
                    let at = rng.below(image.len() as u64) as usize;
                    image[at] ^= 1 << rng.below(8);
                }
                sinew_world_restore(world, image.as_ptr(), image.len())
            }
            27 => sinew_body_set_particle_radius(world, s.body(rng), rng.float()),
            28 => sinew_cloth_set_aerodynamics(world, s.body(rng), rng.float(), rng.float()),
            29 | 30 => {
                // A collider of any shape from random (often hostile) data.
                let mut def = if rng.chance(20) {
                    SinewColliderDef { internal_cookie: 0, ..sinew_default_collider_def() }
                } else {
                    sinew_default_collider_def()
                };
                def.shape = if rng.chance(10) { rng.small() } else { rng.below(8) as u32 };
                def.transform = SinewTransform { position: rng.vec3(), rotation: rng.quat() };
                if rng.chance(2) {
                    def.transform.position = SinewVec3 { x: rng.below(6) as f32 - 3.0, y: -1.0, z: 0.0 };
                }
                def.half_extents = rng.vec3();
                (def.radius, def.half_height, def.offset) = (rng.float(), rng.float(), rng.float());
                def.normal = rng.vec3();
                def.material = SinewMaterial {
                    friction: rng.float(),
                    dynamic_friction: rng.float(),
                    restitution: rng.float(),
                    combine: rng.below(5) as u32,
                };
                let indices: Vec<u32> = (0..cap).map(|_| rng.below(cap as u64 + 2) as u32).collect();
                def.points = if rng.chance(15) { ptr::null() } else { vecs.as_ptr() };
                def.point_count = count;
                def.indices = indices.as_ptr();
                def.index_count = count - count % if rng.chance(4) { 1 } else { 3 };
                let side = rng.below(7) as u32;
                def.heights = floats.as_ptr();
                (def.columns, def.rows) = (side, if side == 0 { 0 } else { (count / side.max(1)).min(side) });
                (def.cell_size_x, def.cell_size_z) = (rng.float(), rng.float());
                let part = def;
                let parts = [part, sinew_default_collider_def()];
                if def.shape == SINEW_SHAPE_COMPOUND {
                    def.children = parts.as_ptr();
                    def.child_count = rng.below(3) as u32;
                }
                let mut c = SinewColliderId::default();
                let r = sinew_collider_create(world, &def, &mut c);
                if r == SINEW_RESULT_OK && world == w {
                    s.colliders.push(c);
                }
                r
            }
            31 => {
                let sticks: Vec<SinewCollisionStick> = (0..cap)
                    .map(|_| SinewCollisionStick { a: rng.small(), b: rng.small(), radius: rng.float() })
                    .collect();
                sinew_body_add_collision_sticks(world, s.body(rng), sticks.as_ptr(), count)
            }
            32 => {
                let m = SinewMaterial {
                    friction: rng.float(),
                    dynamic_friction: rng.float(),
                    restitution: rng.float(),
                    combine: rng.below(5) as u32,
                };
                if rng.chance(2) {
                    sinew_collider_set_material(world, s.collider(rng), m)
                } else {
                    sinew_body_set_material(world, s.body(rng), if rng.chance(3) { ptr::null() } else { &m })
                }
            }
            33 => {
                if rng.chance(2) {
                    sinew_collider_set_filter(world, s.collider(rng), rng.next() as u32, rng.next() as u32)
                } else {
                    sinew_body_set_collision_filter(world, s.body(rng), rng.next() as u32, rng.next() as u32)
                }
            }
            34 | 35 => {
                let mut hit = SinewRayHit::default();
                let r = sinew_world_raycast(world, rng.vec3(), rng.vec3(), rng.float(), rng.next() as u32, &mut hit);
                if r == SINEW_RESULT_OK && (hit.hit == 1 || rng.chance(3)) {
                    if rng.chance(3) {
                        hit.particle_count = rng.small();
                        hit.weight_a = rng.float();
                    }
                    return sinew_body_apply_hit_impulse(world, &hit, rng.vec3());
                }
                r
            }
            36 => {
                let mut hit = SinewColliderHit::default();
                sinew_world_raycast_colliders(world, rng.vec3(), rng.vec3(), rng.float(), rng.next() as u32, &mut hit)
            }
            37 => {
                let mut hit = SinewParticleHit::default();
                sinew_world_nearest_particle(world, rng.vec3(), rng.float(), rng.next() as u32, &mut hit)
            }
            38 => {
                let mut contacts = vec![SinewContact::default(); cap];
                let out = if rng.chance(4) { ptr::null_mut() } else { contacts.as_mut_ptr() };
                sinew_world_read_contacts(world, out, count, ptr::null_mut())
            }
            _ => sinew_world_step(world, if rng.chance(5) { rng.float() } else { 1.0 / 60.0 }),
        }
    }
}

#[test]
fn random_call_sequences_return_defined_codes_and_the_world_keeps_stepping() {
    let calls: u64 = std::env::var("SINEW_FUZZ_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let seed: u64 = std::env::var("SINEW_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED);
    let mut rng = Rng(seed.wrapping_mul(2).wrapping_add(1));
    let def = sinew_default_world_def();
    let (mut w, mut other) = (ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(sinew_world_create(&def, &mut w), SINEW_RESULT_OK);
        assert_eq!(sinew_world_create(&def, &mut other), SINEW_RESULT_OK);
    }
    let mut s = State { bodies: Vec::new(), colliders: Vec::new(), joints: Vec::new(), image: Vec::new() };
    let mut codes = [0u64; 11];
    for k in 0..calls {
        let code = call(w, other, &mut s, &mut rng);
        assert!(defined(code), "call {k} returned {code}");
        codes[code as usize] += 1;
        // Restores may bring back bodies the bookkeeping forgot; ids stay values.
        if k % 500 == 0 {
            unsafe { assert_eq!(sinew_world_step(w, 1.0 / 60.0), SINEW_RESULT_OK, "the world stopped stepping") };
            for &b in &s.bodies {
                let mut n = 0;
                unsafe {
                    if sinew_body_particle_count(w, b, &mut n) == SINEW_RESULT_OK {
                        let mut out = vec![SinewVec3::default(); n as usize];
                        assert_eq!(
                            sinew_body_read_positions(w, b, out.as_mut_ptr(), n, ptr::null_mut()),
                            SINEW_RESULT_OK
                        );
                        assert!(
                            out.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()),
                            "a non-finite position"
                        );
                    }
                }
            }
        }
    }
    println!("{calls} calls from seed {seed:#x}; results by code: {codes:?}");
    assert!(codes[0] > calls / 10, "too few calls succeeded to mean anything: {codes:?}");
    unsafe {
        sinew_world_destroy(w);
        sinew_world_destroy(other);
    }
}
