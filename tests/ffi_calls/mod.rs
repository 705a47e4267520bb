//! The grammar of random C-API calls, shared by the seeded driver
//! (`tests/ffi_fuzz.rs`) and the coverage-guided fuzz target
//! (`fuzz/fuzz_targets/ffi_calls.rs`, which includes this file by path):
//! [`call`] makes one call with ids (live, destroyed, foreign, garbage),
//! counts, NaNs, infinities and huge values drawn from an [`Rng`], which is
//! either a xorshift generator from a seed or the fuzzer's bytes.
//! [`checked_call`] and [`check_world`] are the checks both drivers make.
//!
//! SAFETY, for every `unsafe` block in this file without a comment of its
//! own (all are calls into the C API): the world is one from
//! `sinew_world_create` not yet destroyed, and each pointer is NULL or
//! points to a live local or array holding at least the count passed, or is
//! one of the deliberately bad pointers (NULL with a count, misaligned) that
//! the API checks and refuses before it reads or writes through it.

use sinew::ffi::*;
use std::ffi::{CStr, c_char};
use std::ptr;

/// Where the choices come from: xorshift64* from a seed (small,
/// deterministic, good enough to pick calls), or a fuzzer's bytes, read in
/// order (a choice among `n` takes as few bytes as hold `n`), zeros once
/// they run out.
pub struct Rng<'a> {
    state: u64,
    bytes: Option<&'a [u8]>,
}

impl<'a> Rng<'a> {
    /// The xorshift generator from `seed`.
    #[allow(dead_code)] // each driver uses one of the two constructors
    pub fn seeded(seed: u64) -> Rng<'static> {
        Rng { state: seed, bytes: None }
    }
    /// Choices read from `bytes`.
    #[allow(dead_code)]
    pub fn from_bytes(bytes: &'a [u8]) -> Rng<'a> {
        Rng { state: 0, bytes: Some(bytes) }
    }
    /// Whether the bytes are used up (never, for a seeded generator).
    #[allow(dead_code)]
    pub fn exhausted(&self) -> bool {
        self.bytes.is_some_and(|b| b.is_empty())
    }
    /// `n` bytes (at most 8) little-endian, zeros past the end.
    fn take(bytes: &mut &[u8], n: usize) -> u64 {
        let k = n.min(bytes.len());
        let v = bytes[..k].iter().rev().fold(0u64, |v, &b| v << 8 | b as u64);
        *bytes = &bytes[k..];
        v
    }
    pub fn next(&mut self) -> u64 {
        if let Some(bytes) = &mut self.bytes {
            return Self::take(bytes, 8);
        }
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if let Some(bytes) = &mut self.bytes {
            let width = match n {
                0..=0x100 => 1,
                0x101..=0x1_0000 => 2,
                0x1_0001..=0x1_0000_0000 => 4,
                _ => 8,
            };
            return Self::take(bytes, width) % n;
        }
        self.next() % n
    }
    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
    /// A float: usually reasonable, sometimes hostile.
    pub fn float(&mut self) -> f32 {
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
    pub fn vec3(&mut self) -> SinewVec3 {
        SinewVec3 { x: self.float(), y: self.float(), z: self.float() }
    }
    pub fn quat(&mut self) -> SinewQuat {
        if self.chance(3) {
            SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 }
        } else {
            SinewQuat { x: self.float(), y: self.float(), z: self.float(), w: self.float() }
        }
    }
    pub fn transform(&mut self) -> SinewTransform {
        SinewTransform { position: self.vec3(), rotation: self.quat() }
    }
    /// A transform an engine would send: near the origin, any unit rotation.
    pub fn sane_transform(&mut self) -> SinewTransform {
        let mut unit = || self.below(2001) as f32 / 1000.0 - 1.0;
        let (x, y, z, w) = (unit(), unit(), unit(), unit());
        let len = (x * x + y * y + z * z + w * w).sqrt().max(1e-3);
        let position = SinewVec3 { x: unit() * 5.0, y: unit() * 5.0, z: unit() * 5.0 };
        SinewTransform { position, rotation: SinewQuat { x: x / len, y: y / len, z: z / len, w: w / len } }
    }
    /// A double-precision world position: usually kilometres out (a large
    /// world's), sometimes hostile (NaN, inf, beyond 1e15 m).
    pub fn vec3d(&mut self) -> SinewVec3d {
        let mut one = || match self.below(12) {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => -1e16,
            3 => 1e300,
            4 => f64::from(self.float()),
            _ => 10_000.0 * (self.below(21) as f64 - 10.0) + f64::from(self.float()),
        };
        SinewVec3d { x: one(), y: one(), z: one() }
    }
    /// A transform with a double-precision position.
    pub fn transformd(&mut self) -> SinewTransformd {
        SinewTransformd { position: self.vec3d(), rotation: self.quat() }
    }
    pub fn small(&mut self) -> u32 {
        match self.below(10) {
            0 => u32::MAX,
            1 => 0,
            _ => self.below(40) as u32,
        }
    }
}

#[derive(Default)]
pub struct State {
    pub bodies: Vec<SinewBodyId>,
    /// Ragdolls and rigid bodies among `bodies`, so their calls often reach
    /// a body of the right kind.
    ragdolls: Vec<SinewBodyId>,
    rigids: Vec<SinewBodyId>,
    colliders: Vec<SinewColliderId>,
    joints: Vec<SinewJointId>,
    image: Vec<u8>,
    /// Which kind of call the last one was (the arm of `call`), for messages.
    pub arm: u64,
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
    /// Usually one of `of` (a ragdoll, a rigid body), else any body.
    fn body_of(&self, of: &[SinewBodyId], rng: &mut Rng) -> SinewBodyId {
        if !of.is_empty() && !rng.chance(4) { of[rng.below(of.len() as u64) as usize] } else { self.body(rng) }
    }
    fn forget(&mut self, b: SinewBodyId) {
        self.bodies.retain(|x| *x != b);
        self.ragdolls.retain(|x| *x != b);
        self.rigids.retain(|x| *x != b);
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

/// A code the C API may return for hostile input (anything but a caught
/// panic or a poisoned world).
pub fn defined(code: SinewResult) -> bool {
    (SINEW_RESULT_OK..=SINEW_RESULT_INCOMPATIBLE).contains(&code)
        && code != SINEW_RESULT_PANIC
        && code != SINEW_RESULT_POISONED
}

/// One random call; returns its code.
pub fn call(w: *mut SinewWorld, other: *mut SinewWorld, s: &mut State, rng: &mut Rng) -> SinewResult {
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
        s.arm = rng.below(64);
        match s.arm {
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
                    def.plane = rng.below(3) as u32;
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
                    s.forget(b);
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
            6 => match rng.small() % 3 {
                0 => sinew_body_move_particles(world, s.body(rng), rng.small(), vecs.as_ptr(), count),
                1 => sinew_body_set_velocities(world, s.body(rng), rng.small(), vecs.as_ptr(), count),
                _ => sinew_body_apply_forces(world, s.body(rng), rng.small(), vecs.as_ptr(), count),
            },
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
            22 if rng.small().is_multiple_of(4) => {
                let (from, to) = (rng.transform(), rng.transform());
                sinew_body_teleport(world, s.body(rng), from, to, rng.below(3) as u32)
            }
            22 => sinew_body_set_sleeping(world, s.body(rng), rng.below(3) as u32),
            23 if rng.small().is_multiple_of(4) => sinew_world_shift_origin(world, rng.vec3()),
            23 => sinew_world_set_gravity(world, rng.vec3()),
            24 => match rng.below(8) {
                // Live settings, kept small (0 and the bad values refused);
                // a new pool only now and then.
                0 => sinew_world_set_substeps(world, rng.below(20) as u32),
                1 => sinew_world_set_iterations(world, rng.below(6) as u32),
                2 => sinew_world_set_sleep(world, rng.float(), rng.float()),
                3 => sinew_world_set_simd_level(world, rng.below(7) as u32),
                4 if rng.chance(8) => sinew_world_set_worker_count(world, rng.below(5) as u32),
                5 => {
                    let mut n = 0u32;
                    let out = if rng.chance(4) { ptr::null_mut() } else { &mut n as *mut u32 };
                    sinew_world_constraint_count(world, out)
                }
                6 => {
                    let mut n = 0u32;
                    let out = if rng.chance(4) { ptr::null_mut() } else { &mut n as *mut u32 };
                    sinew_body_constraint_count(world, s.body(rng), out)
                }
                _ => sinew_world_set_wind(world, rng.vec3()),
            },
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
            28 => {
                // The same draws either way: the aerodynamics, or now and then the compliances from them.
                let (body, a, b) = (s.body(rng), rng.float(), rng.float());
                if a.to_bits() % 3 == 0 {
                    sinew_cloth_set_compliance(world, body, a, b, a)
                } else {
                    sinew_cloth_set_aerodynamics(world, body, a, b)
                }
            }
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
                if rng.chance(3) {
                    // Bones of a ragdoll (or of anything) a body passes through.
                    let bones: Vec<u32> = (0..cap).map(|_| rng.small()).collect();
                    let p = if rng.chance(8) { ptr::null() } else { bones.as_ptr() };
                    sinew_body_set_ignored_bones(world, s.body(rng), s.body(rng), p, count)
                } else if rng.chance(2) {
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
            39 => {
                let root = if rng.chance(3) { rng.transform() } else { rng.sane_transform() };
                let height = if rng.chance(3) { rng.float() } else { 0.5 + rng.below(20) as f32 * 0.1 };
                let mut id = SinewBodyId::default();
                let r = sinew_ragdoll_create_humanoid(world, root, height, &mut id);
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                    s.ragdolls.push(id);
                }
                r
            }
            40 => {
                let bones = skeleton(rng);
                let mut def = sinew_default_ragdoll_def();
                def.bones = if rng.chance(30) { ptr::null() } else { bones.as_ptr() };
                def.bone_count = bones.len() as u32;
                if rng.chance(30) {
                    def.internal_cookie = 0;
                }
                let mut id = SinewBodyId::default();
                let r = if rng.chance(2) {
                    sinew_ragdoll_create(world, &def, &mut id)
                } else {
                    // Through a skeleton: built from the def, the preset's,
                    // or an existing ragdoll's; released at once or after
                    // its ragdoll is made (which keeps it alive).
                    let mut skeleton: *mut SinewSkeleton = ptr::null_mut();
                    let made = match rng.below(3) {
                        0 => sinew_skeleton_create(&def, &mut skeleton),
                        1 => sinew_skeleton_create_humanoid(rng.float(), &mut skeleton),
                        _ => sinew_ragdoll_get_skeleton(world, s.body_of(&s.ragdolls, rng), &mut skeleton),
                    };
                    if made != SINEW_RESULT_OK {
                        return made;
                    }
                    let mut n = 0;
                    let counted = sinew_skeleton_bone_count(skeleton, &mut n);
                    assert_eq!(counted, SINEW_RESULT_OK);
                    let at = if rng.chance(3) { rng.transform() } else { rng.sane_transform() };
                    let handle = if rng.chance(30) { ptr::null() } else { skeleton as *const SinewSkeleton };
                    let r = sinew_ragdoll_create_from_skeleton(world, handle, at, &mut id);
                    sinew_skeleton_destroy(skeleton);
                    r
                };
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                    s.ragdolls.push(id);
                }
                r
            }
            41 => {
                let mut n = 0;
                sinew_ragdoll_bone_count(world, s.body_of(&s.ragdolls, rng), &mut n)
            }
            42 => {
                let mut c = 0;
                if rng.chance(2) {
                    let mut out = vec![SinewBoneShape::default(); cap];
                    let ptr = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { out.as_mut_ptr() };
                    sinew_ragdoll_read_bone_shapes(world, s.body_of(&s.ragdolls, rng), ptr, count, &mut c)
                } else {
                    let mut out = vec![SinewTransform::default(); cap];
                    let ptr = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { out.as_mut_ptr() };
                    sinew_ragdoll_read_bones(world, s.body_of(&s.ragdolls, rng), ptr, count, &mut c)
                }
            }
            43 => {
                let names = [c"pelvis", c"hand_l", c"", c"no such bone", c"\xff\xfe", c"bone3"];
                let name = names[rng.below(6) as usize];
                let name = if rng.chance(20) { ptr::null() } else { name.as_ptr() };
                let mut bone = 0;
                sinew_ragdoll_find_bone(world, s.body_of(&s.ragdolls, rng), name, &mut bone)
            }
            44..=46 => {
                // A pose: usually the ragdoll's own, moved a little, sometimes
                // with a hostile value or a wrong count.
                let r = s.body_of(&s.ragdolls, rng);
                let pose = pose_near(world, r, rng);
                let n = if rng.chance(8) { (pose.len() as u32).saturating_sub(1) } else { pose.len() as u32 };
                match rng.below(3) {
                    0 => sinew_ragdoll_set_motor_targets(world, r, pose.as_ptr(), n),
                    1 => sinew_ragdoll_set_motor_targets_local(world, r, pose.as_ptr(), n),
                    _ => {
                        let before = pose_near(world, r, rng);
                        let previous =
                            if rng.chance(2) || before.len() < pose.len() { ptr::null() } else { before.as_ptr() };
                        let dt = if rng.chance(4) { rng.float() } else { 1.0 / 60.0 };
                        sinew_ragdoll_set_pose(world, r, pose.as_ptr(), previous, n, dt)
                    }
                }
            }
            47 => {
                let strength = if rng.chance(3) { rng.float() } else { rng.below(11) as f32 / 10.0 };
                let max_force = if rng.chance(2) { rng.float() } else { rng.below(500) as f32 };
                sinew_ragdoll_set_motor_strength(world, s.body_of(&s.ragdolls, rng), strength, max_force)
            }
            48 => {
                let strength = if rng.chance(3) { rng.float() } else { rng.below(11) as f32 / 10.0 };
                sinew_ragdoll_set_bone_motor(
                    world,
                    s.body_of(&s.ragdolls, rng),
                    rng.small(),
                    strength,
                    rng.float(),
                    rng.float(),
                )
            }
            49 => sinew_ragdoll_set_motor_root_motion(world, s.body_of(&s.ragdolls, rng), rng.below(3) as u32),
            50 => sinew_ragdoll_apply_impulse(
                world,
                s.body_of(&s.ragdolls, rng),
                rng.small(),
                rng.vec3(),
                if rng.chance(2) { rng.vec3() } else { SinewVec3 { x: rng.float(), y: 0.0, z: 0.0 } },
            ),
            51 | 52 => {
                let mut def = sinew_default_rigid_def();
                if rng.chance(20) {
                    def.internal_cookie = 0;
                }
                def.shape = if rng.chance(10) { rng.small() } else { rng.below(4) as u32 };
                def.model = if rng.chance(10) { rng.small() } else { rng.below(2) as u32 };
                def.transform = if rng.chance(3) { rng.transform() } else { rng.sane_transform() };
                if rng.chance(3) {
                    def.half_extents = rng.vec3();
                    (def.radius, def.half_height, def.mass) = (rng.float(), rng.float(), rng.float());
                    (def.stiffness, def.particle_radius, def.friction) = (rng.float(), rng.float(), rng.float());
                }
                def.points = if rng.chance(15) { ptr::null() } else { vecs.as_ptr() };
                def.point_count = count;
                let mut id = SinewBodyId::default();
                let r = sinew_rigid_create(world, &def, &mut id);
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                    s.rigids.push(id);
                }
                r
            }
            53 => {
                let mut t = SinewTransform::default();
                sinew_rigid_read_transform(world, s.body_of(&s.rigids, rng), &mut t)
            }
            54 => sinew_rigid_apply_impulse(world, s.body_of(&s.rigids, rng), rng.vec3(), rng.vec3()),
            55 => {
                // A mesh cloth: a small sheet, sometimes with hostile data.
                let side = 2 + rng.below(5) as u32;
                let mut verts: Vec<SinewVec3> = (0..side * side)
                    .map(|k| SinewVec3 { x: (k % side) as f32 * 0.2, y: 2.0, z: (k / side) as f32 * 0.2 })
                    .collect();
                let mut indices = Vec::new();
                for r in 0..side - 1 {
                    for c in 0..side - 1 {
                        let k = r * side + c;
                        indices.extend_from_slice(&[k, k + 1, k + side, k + 1, k + side + 1, k + side]);
                    }
                }
                if rng.chance(3) {
                    let at = rng.below(verts.len() as u64) as usize;
                    verts[at] = rng.vec3();
                }
                if rng.chance(3) {
                    let at = rng.below(indices.len() as u64) as usize;
                    indices[at] = rng.small();
                }
                let inv: Vec<f32> = (0..verts.len()).map(|_| if rng.chance(4) { rng.float() } else { 1.0 }).collect();
                let pins: Vec<u8> = (0..verts.len()).map(|_| rng.below(3) as u8).collect();
                let mut def = sinew_default_cloth_mesh_def();
                if rng.chance(20) {
                    def.internal_cookie = 0;
                }
                def.vertices = if rng.chance(20) { ptr::null() } else { verts.as_ptr() };
                def.vertex_count = verts.len() as u32;
                def.indices = indices.as_ptr();
                def.triangle_count = (indices.len() / 3) as u32 - if rng.chance(5) { 1 } else { 0 };
                def.inv_masses = if rng.chance(2) { ptr::null() } else { inv.as_ptr() };
                def.pin_mask = if rng.chance(2) { ptr::null() } else { pins.as_ptr() };
                if rng.chance(3) {
                    def.transform = rng.transform();
                    (def.weld_tolerance, def.mass, def.tether_scale) = (rng.float(), rng.float(), rng.float());
                    (def.stretch_compliance, def.bend_compliance) = (rng.float(), rng.float());
                    (def.bend_mode, def.tether_mode) = (rng.small(), rng.small());
                    (def.thickness, def.drag, def.lift) = (rng.float(), rng.float(), rng.float());
                    (def.self_collision, def.cloth_collision) = (rng.below(3) as u32, rng.below(3) as u32);
                }
                let mut id = SinewBodyId::default();
                let r = sinew_cloth_create(world, &def, &mut id);
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                }
                r
            }
            56 => {
                let b = s.body(rng);
                match rng.below(6) {
                    0 => {
                        let (mut lo, mut hi) = (SinewVec3::default(), SinewVec3::default());
                        sinew_body_get_bounds(world, b, &mut lo, if rng.chance(10) { ptr::null_mut() } else { &mut hi })
                    }
                    1 => {
                        let mut sleeping = 0;
                        sinew_body_is_sleeping(world, b, &mut sleeping)
                    }
                    2 => sinew_body_read_velocities(world, b, vecs.as_mut_ptr(), count, ptr::null_mut()),
                    3 => {
                        let mut n = 0;
                        sinew_cloth_vertex_count(world, b, &mut n)
                    }
                    4 => {
                        let mut map = vec![0u32; cap];
                        let mut n = 0;
                        sinew_cloth_read_vertex_map(world, b, map.as_mut_ptr(), count, &mut n)
                    }
                    _ => {
                        let valid = sinew_body_is_valid(world, b);
                        if valid > 1 { SINEW_RESULT_PANIC } else { SINEW_RESULT_OK }
                    }
                }
            }
            57 => match rng.below(3) {
                0 => sinew_body_set_distance_method(world, s.body(rng), rng.small()),
                1 => sinew_body_clear_targets(world, s.body(rng)),
                _ => {
                    let j = if s.joints.is_empty() || rng.chance(3) {
                        SinewJointId { index1: rng.small(), generation: rng.next() as u32 }
                    } else {
                        s.joints[rng.below(s.joints.len() as u64) as usize]
                    };
                    let valid = sinew_joint_is_valid(world, j) | sinew_collider_is_valid(world, s.collider(rng));
                    if valid > 1 { SINEW_RESULT_PANIC } else { SINEW_RESULT_OK }
                }
            },
            58 => {
                if rng.chance(2) {
                    let mut m = SinewMaterial::default();
                    sinew_collider_get_material(world, s.collider(rng), &mut m)
                } else {
                    let mut t = SinewTransform::default();
                    sinew_collider_get_transform(world, s.collider(rng), &mut t)
                }
            }
            59 => {
                let mut n = 0u32;
                let out = if rng.chance(2) { ptr::null_mut() } else { &mut n as *mut u32 };
                sinew_world_explode(world, rng.vec3(), rng.float(), rng.float(), out)
            }
            60 => match rng.below(5) {
                0 => {
                    let mut def = SinewWorldDef { substeps: 0, ..sinew_default_world_def() };
                    sinew_world_get_def(world, &mut def)
                }
                1 => {
                    let mut n = 0;
                    if rng.chance(2) {
                        let mut level = 0u32;
                        let out = if rng.chance(4) { ptr::null_mut() } else { &mut level as *mut u32 };
                        sinew_world_get_simd_level(world, out)
                    } else if rng.chance(2) {
                        sinew_world_recovery_count(world, &mut n)
                    } else if rng.chance(2) {
                        // 0, 1, or a bad flag.
                        sinew_world_set_profiling(world, rng.below(3) as u32)
                    } else {
                        let mut profile = SinewProfile::default();
                        let out = if rng.chance(4) { ptr::null_mut() } else { &mut profile as *mut SinewProfile };
                        sinew_world_get_profile(world, out)
                    }
                }
                2 => {
                    let mut h = 0;
                    sinew_world_state_hash(world, &mut h)
                }
                3 => {
                    let name = sinew_result_name(rng.next() as i32 % 16);
                    if name.is_null() || sinew_abi_version() != SINEW_ABI_VERSION {
                        SINEW_RESULT_PANIC
                    } else {
                        SINEW_RESULT_OK
                    }
                }
                _ => {
                    let mut buf = vec![0u8; cap];
                    let p = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { buf.as_mut_ptr().cast::<c_char>() };
                    let len = sinew_last_error_message(p, cap);
                    if cap > 0 && !buf.contains(&0) || len > 1 << 20 { SINEW_RESULT_PANIC } else { SINEW_RESULT_OK }
                }
            },
            61 => {
                // A short-lived third world from a hostile def, or a pruning
                // of the bodies when they pile up.
                if s.bodies.len() > 40 {
                    let b = s.bodies[rng.below(s.bodies.len() as u64) as usize];
                    let r = sinew_body_destroy(w, b);
                    if r == SINEW_RESULT_OK {
                        s.forget(b);
                    }
                    return r;
                }
                let def = world_def(rng);
                let mut third = ptr::null_mut();
                let r = sinew_world_create(if rng.chance(30) { ptr::null() } else { &def }, &mut third);
                if r == SINEW_RESULT_OK {
                    let mut id = SinewBodyId::default();
                    sinew_ragdoll_create_humanoid(third, rng.sane_transform(), 1.8, &mut id);
                    let _ = sinew_world_step(third, 1.0 / 60.0);
                    sinew_world_destroy(third);
                }
                sinew_world_destroy(ptr::null_mut());
                r
            }
            62 => double_call(world, w, s, rng, count, cap),
            _ => sinew_world_step(world, if rng.chance(5) { rng.float() } else { 1.0 / 60.0 }),
        }
    }
}

/// The `_d` calls (double-precision world positions), one at random.
///
/// # Safety
/// As [`call`]'s: `world` and `w` are NULL or live worlds.
unsafe fn double_call(
    world: *mut SinewWorld,
    w: *mut SinewWorld,
    s: &mut State,
    rng: &mut Rng,
    count: u32,
    cap: usize,
) -> SinewResult {
    let mut dvecs: Vec<SinewVec3d> = (0..cap).map(|_| rng.vec3d()).collect();
    let mut transforms: Vec<SinewTransformd> = (0..cap).map(|_| rng.transformd()).collect();
    let keep = |s: &mut State, r: SinewResult, id: SinewBodyId| {
        if r == SINEW_RESULT_OK && world == w {
            s.bodies.push(id);
        }
    };
    unsafe {
        match rng.below(36) {
            0 => {
                let mut id = SinewBodyId::default();
                let r = sinew_body_create_particles_d(world, dvecs.as_ptr(), ptr::null(), count, &mut id);
                keep(s, r, id);
                r
            }
            1 => sinew_body_set_positions_d(world, s.body(rng), rng.small(), dvecs.as_ptr(), count),
            2 => {
                let mut n = 0;
                let out = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { dvecs.as_mut_ptr() };
                sinew_body_read_positions_d(world, s.body(rng), out, count, &mut n)
            }
            3 => {
                let t: Vec<SinewTargetd> = (0..cap)
                    .map(|_| SinewTargetd {
                        particle: rng.small(),
                        compliance: rng.float(),
                        max_force: rng.float(),
                        position: rng.vec3d(),
                    })
                    .collect();
                sinew_body_set_targets_d(world, s.body(rng), t.as_ptr(), count)
            }
            4 => {
                let particles: Vec<u32> = (0..cap).map(|_| rng.small()).collect();
                let mut frame = 0;
                sinew_body_attach_to_frame_d(
                    world,
                    s.body(rng),
                    particles.as_ptr(),
                    count,
                    rng.transformd(),
                    &mut frame,
                )
            }
            5 => sinew_body_set_frame_d(world, s.body(rng), rng.small(), rng.transformd()),
            6 => sinew_body_teleport_d(world, s.body(rng), rng.transformd(), rng.transformd(), rng.below(3) as u32),
            7 => {
                let (mut lo, mut hi) = (SinewVec3d::default(), SinewVec3d::default());
                sinew_body_get_bounds_d(world, s.body(rng), &mut lo, &mut hi)
            }
            8..=12 => {
                let mut c = SinewColliderId::default();
                let r = match rng.below(5) {
                    0 => sinew_collider_create_plane_d(world, rng.vec3(), rng.vec3d().x, rng.float(), &mut c),
                    1 => sinew_collider_create_sphere_d(world, rng.vec3d(), rng.float(), rng.float(), &mut c),
                    2 => sinew_collider_create_box_d(world, rng.transformd(), rng.vec3(), rng.float(), &mut c),
                    3 => sinew_collider_create_capsule_d(
                        world,
                        rng.vec3d(),
                        rng.vec3d(),
                        rng.float(),
                        rng.float(),
                        &mut c,
                    ),
                    _ => {
                        let mut def = sinew_default_collider_def();
                        def.shape = if rng.chance(4) { rng.small() } else { def.shape };
                        sinew_collider_create_d(world, &def, rng.vec3d(), &mut c)
                    }
                };
                if r == SINEW_RESULT_OK && world == w {
                    s.colliders.push(c);
                }
                r
            }
            13 => sinew_collider_set_transform_d(world, s.collider(rng), rng.transformd()),
            14 => {
                let mut t = SinewTransformd::default();
                sinew_collider_get_transform_d(world, s.collider(rng), &mut t)
            }
            15 | 16 => {
                let mut id = SinewBodyId::default();
                let r = if rng.chance(2) {
                    let height = if rng.chance(3) { rng.float() } else { 1.8 };
                    sinew_ragdoll_create_humanoid_d(world, rng.transformd(), height, &mut id)
                } else {
                    let bones = skeleton(rng);
                    let mut def = sinew_default_ragdoll_def();
                    def.bones = bones.as_ptr();
                    def.bone_count = bones.len() as u32;
                    if rng.chance(2) {
                        sinew_ragdoll_create_d(world, &def, rng.vec3d(), &mut id)
                    } else {
                        let mut skeleton: *mut SinewSkeleton = ptr::null_mut();
                        let made = sinew_skeleton_create(&def, &mut skeleton);
                        if made != SINEW_RESULT_OK {
                            return made;
                        }
                        let r = sinew_ragdoll_create_from_skeleton_d(world, skeleton, rng.transformd(), &mut id);
                        sinew_skeleton_destroy(skeleton);
                        r
                    }
                };
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                    s.ragdolls.push(id);
                }
                r
            }
            17 => {
                let mut n = 0;
                let out = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { transforms.as_mut_ptr() };
                sinew_ragdoll_read_bones_d(world, s.body_of(&s.ragdolls, rng), out, count, &mut n)
            }
            18 | 19 => {
                // Usually the ragdoll's own pose moved far away, else noise.
                let r = s.body_of(&s.ragdolls, rng);
                let mut n = 0;
                let mut pose = vec![SinewTransformd::default(); 64];
                if sinew_ragdoll_read_bones_d(world, r, pose.as_mut_ptr(), 64, &mut n) == SINEW_RESULT_OK
                    && !rng.chance(4)
                {
                    pose.truncate(n as usize);
                    let by = rng.vec3d();
                    for b in &mut pose {
                        if by.x.is_finite() && by.x.abs() < 1e6 {
                            b.position.x += by.x;
                        }
                    }
                    transforms = pose;
                }
                let n = transforms.len() as u32;
                if rng.chance(3) {
                    sinew_ragdoll_set_motor_targets_d(world, r, transforms.as_ptr(), n)
                } else if rng.chance(2) {
                    sinew_ragdoll_set_motor_targets_local_d(world, r, transforms.as_ptr(), n)
                } else {
                    let previous = if rng.chance(2) { ptr::null() } else { transforms.as_ptr() };
                    sinew_ragdoll_set_pose_d(world, r, transforms.as_ptr(), previous, n, rng.float())
                }
            }
            20 => {
                let mut def = sinew_default_rigid_def();
                if rng.chance(3) {
                    def.mass = rng.float();
                }
                let mut id = SinewBodyId::default();
                let r = sinew_rigid_create_d(world, &def, rng.vec3d(), &mut id);
                if r == SINEW_RESULT_OK && world == w {
                    s.bodies.push(id);
                    s.rigids.push(id);
                }
                r
            }
            21 => {
                let mut t = SinewTransformd::default();
                sinew_rigid_read_transform_d(world, s.body_of(&s.rigids, rng), &mut t)
            }
            22 | 23 => {
                let mut id = SinewBodyId::default();
                let r = if rng.chance(2) {
                    let mut def = sinew_default_cloth_grid_def();
                    def.columns = 2 + rng.below(6) as u32;
                    def.rows = 2 + rng.below(6) as u32;
                    sinew_cloth_create_grid_d(world, &def, rng.vec3d(), &mut id)
                } else {
                    let verts = [
                        SinewVec3 { x: 0.0, y: 0.0, z: 0.0 },
                        SinewVec3 { x: 0.5, y: 0.0, z: 0.0 },
                        SinewVec3 { x: 0.0, y: 0.0, z: 0.5 },
                    ];
                    let tri = [0u32, 1, if rng.chance(10) { 7 } else { 2 }];
                    let mut def = sinew_default_cloth_mesh_def();
                    def.vertices = verts.as_ptr();
                    def.vertex_count = 3;
                    def.indices = tri.as_ptr();
                    def.triangle_count = 1;
                    sinew_cloth_create_d(world, &def, rng.vec3d(), &mut id)
                };
                keep(s, r, id);
                r
            }
            24 => {
                let normals: Vec<SinewVec3> = (0..cap).map(|_| rng.vec3()).collect();
                sinew_cloth_set_skin_d(world, s.body(rng), dvecs.as_ptr(), normals.as_ptr(), count)
            }
            25 => {
                let mut contacts = vec![SinewContactd::default(); cap];
                let out = if cap == 0 && rng.chance(2) { ptr::null_mut() } else { contacts.as_mut_ptr() };
                let mut n = 0;
                sinew_world_read_contacts_d(world, out, count, &mut n)
            }
            26 | 27 => {
                let mut hit = SinewRayHitd::default();
                let mask = rng.next() as u32;
                let r = sinew_world_raycast_d(world, rng.vec3d(), rng.vec3(), rng.float(), mask, &mut hit);
                if r == SINEW_RESULT_OK && (hit.hit == 1 || rng.chance(3)) {
                    if rng.chance(3) {
                        hit.particle_count = rng.small();
                        hit.weight_a = rng.float();
                    }
                    if rng.chance(3) {
                        hit.point = rng.vec3d();
                    }
                    return sinew_body_apply_hit_impulse_d(world, &hit, rng.vec3());
                }
                r
            }
            28 => {
                let mut hit = SinewColliderHitd::default();
                let mask = rng.next() as u32;
                sinew_world_raycast_colliders_d(world, rng.vec3d(), rng.vec3(), rng.float(), mask, &mut hit)
            }
            29 => {
                let mut hit = SinewParticleHitd::default();
                sinew_world_nearest_particle_d(world, rng.vec3d(), rng.float(), rng.next() as u32, &mut hit)
            }
            30 => {
                sinew_ragdoll_apply_impulse_d(world, s.body_of(&s.ragdolls, rng), rng.small(), rng.vec3d(), rng.vec3())
            }
            31 => sinew_rigid_apply_impulse_d(world, s.body_of(&s.rigids, rng), rng.vec3d(), rng.vec3()),
            32 => {
                let mut n = 0;
                sinew_world_explode_d(world, rng.vec3d(), rng.float(), rng.float(), &mut n)
            }
            33 => {
                let mut bytes = vec![0u8; cap * 36 + 24];
                let stride = [0usize, 12, 23, 24, 36][rng.below(5) as usize];
                let base = bytes.as_mut_ptr();
                let normals = if rng.chance(2) { base.wrapping_add(24) } else { ptr::null_mut() };
                let stride = if stride * cap + 24 > bytes.len() { 24 } else { stride };
                let positions = if rng.chance(5) { ptr::null_mut() } else { base };
                let mut n = 0;
                sinew_cloth_write_vertices_d(world, s.body(rng), positions, stride, normals, stride, count, &mut n)
            }
            _ => {
                // Mostly grid steps, which move nothing exactly.
                let mut by = rng.vec3d();
                if !rng.chance(4) {
                    by = SinewVec3d { x: 4.0 * (by.x / 4.0).round(), y: 0.0, z: 4.0 * (by.z / 4.0).round() };
                }
                sinew_world_shift_origin_d(world, by)
            }
        }
    }
}

/// A skeleton: usually a plausible chain or tree, with now and then one
/// hostile field (a bad parent, NaN, a zero rotation, an unknown limit, a
/// name that is not UTF-8) or a count beyond the bone limit.
fn skeleton(rng: &mut Rng) -> Vec<SinewBoneDef> {
    const NAMES: [&CStr; 4] = [c"bone", c"bone3", c"\xc3\x28", c""];
    let n = match rng.below(20) {
        0 => 0,
        1 => 1025,
        _ => 1 + rng.below(8) as usize,
    };
    let base = rng.sane_transform().position;
    let mut bones: Vec<SinewBoneDef> = (0..n)
        .map(|b| {
            let mut bone = sinew_default_bone_def();
            bone.parent = if b == 0 { -1 } else { rng.below(b as u64) as i32 };
            bone.rest.position = SinewVec3 { x: base.x, y: base.y + 0.3 * b as f32, z: base.z };
            bone.length = if rng.chance(2) { 0.0 } else { 0.3 };
            bone.limit_type = rng.below(2) as u32;
            if rng.chance(3) {
                bone.name = NAMES[rng.below(4) as usize].as_ptr();
            }
            bone
        })
        .collect();
    if !bones.is_empty() && rng.chance(2) {
        let b = rng.below(bones.len() as u64) as usize;
        let root = bones[0].rest.position;
        let bone = &mut bones[b];
        match rng.below(12) {
            0 => bone.parent = [-2, b as i32, b as i32 + 1, i32::MAX][rng.below(4) as usize],
            1 => bone.rest = rng.transform(),
            2 => bone.rest.rotation = SinewQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 },
            3 => bone.length = rng.float(),
            4 => bone.radius = rng.float(),
            5 => bone.mass = rng.float(),
            6 => bone.limit_type = rng.small(),
            7 => (bone.swing, bone.twist_min, bone.twist_max) = (rng.float(), rng.float(), rng.float()),
            8 => (bone.hinge_axis, bone.hinge_min, bone.hinge_max) = (rng.vec3(), rng.float(), rng.float()),
            9 => bone.rest.position = root,
            10 => bone.name = c"\xff".as_ptr(),
            _ => bone.rest.rotation = rng.quat(),
        }
    }
    bones
}

/// A pose for a ragdoll: its bones as they are, nudged, sometimes with one
/// hostile transform; a few random transforms when it has no bones to read.
fn pose_near(world: *mut SinewWorld, ragdoll: SinewBodyId, rng: &mut Rng) -> Vec<SinewTransform> {
    let mut n = 0;
    let mut pose = unsafe {
        if sinew_ragdoll_bone_count(world, ragdoll, &mut n) == SINEW_RESULT_OK {
            let mut pose = vec![SinewTransform::default(); n as usize];
            sinew_ragdoll_read_bones(world, ragdoll, pose.as_mut_ptr(), n, ptr::null_mut());
            pose
        } else {
            (0..rng.below(20)).map(|_| rng.sane_transform()).collect()
        }
    };
    for t in pose.iter_mut() {
        t.position.y += (rng.below(100) as f32 - 50.0) / 100.0;
    }
    if !pose.is_empty() && rng.chance(3) {
        let at = rng.below(pose.len() as u64) as usize;
        pose[at] = rng.transform();
    }
    pose
}

/// A world def: the default with, now and then, one hostile field or no cookie.
fn world_def(rng: &mut Rng) -> SinewWorldDef {
    let mut def = sinew_default_world_def();
    match rng.below(10) {
        0 => def.internal_cookie = 0,
        1 => def.gravity = rng.vec3(),
        2 => (def.damping, def.air_density) = (rng.float(), rng.float()),
        3 => (def.substeps, def.iterations) = (rng.small(), rng.small()),
        4 => (def.max_particles, def.max_bodies, def.max_colliders) = (rng.small(), rng.small(), rng.small()),
        5 => (def.wind, def.sleep_speed, def.sleep_time) = (rng.vec3(), rng.float(), rng.float()),
        6 => def.max_constraints = rng.small(),
        7 => (def.simd_level, def.worker_count) = (rng.small() % 7, rng.small() % 4),
        _ => {}
    }
    def
}

/// The world's state hash.
pub fn hash(world: *mut SinewWorld) -> u64 {
    let mut h = 0;
    unsafe { assert_eq!(sinew_world_state_hash(world, &mut h), SINEW_RESULT_OK) };
    h
}

/// The thread's last error message.
pub fn last_error() -> String {
    let mut buf = [0u8; 512];
    let n = unsafe { sinew_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) };
    String::from_utf8_lossy(&buf[..n.min(511)]).into_owned()
}

/// One [`call`] with the checks every call gets: a defined code, and a
/// refused call changes neither world (the README's API conventions).
pub fn checked_call(
    w: *mut SinewWorld,
    other: *mut SinewWorld,
    s: &mut State,
    rng: &mut Rng,
) -> Result<SinewResult, String> {
    let before = (hash(w), hash(other));
    let code = call(w, other, s, rng);
    if !defined(code) {
        return Err(format!("arm {} returned {code}: {}", s.arm, last_error()));
    }
    if code != SINEW_RESULT_OK && (hash(w), hash(other)) != before {
        return Err(format!("arm {} returned {code} but changed a world", s.arm));
    }
    Ok(code)
}

/// Whatever the calls did to `w`, its snapshot restores into a fresh world
/// that hashes alike (the caller then steps both and compares again).
pub fn restored_copy(w: *mut SinewWorld) -> Result<*mut SinewWorld, String> {
    unsafe {
        let mut size = 0;
        assert_eq!(sinew_world_snapshot(w, ptr::null_mut(), 0, &mut size), SINEW_RESULT_OK);
        let mut image = vec![0u8; size];
        assert_eq!(sinew_world_snapshot(w, image.as_mut_ptr(), size, &mut size), SINEW_RESULT_OK);
        let mut copy = ptr::null_mut();
        assert_eq!(sinew_world_create(&sinew_default_world_def(), &mut copy), SINEW_RESULT_OK);
        let r = sinew_world_restore(copy, image.as_ptr(), image.len());
        if r != SINEW_RESULT_OK {
            sinew_world_destroy(copy);
            return Err(format!("the world's own snapshot is refused: {}", last_error()));
        }
        if hash(copy) != hash(w) {
            sinew_world_destroy(copy);
            return Err("a restored snapshot hashes differently".into());
        }
        Ok(copy)
    }
}

/// The periodic check: `w`'s snapshot restores into a fresh world that
/// hashes alike, `w` keeps stepping, the copy steps on alike, and every
/// body `s` knows has finite positions.
pub fn check_world(w: *mut SinewWorld, s: &State) -> Result<(), String> {
    let copy = restored_copy(w)?;
    unsafe {
        let stepped = sinew_world_step(w, 1.0 / 60.0);
        let copy_stepped = sinew_world_step(copy, 1.0 / 60.0);
        let alike = hash(copy) == hash(w);
        sinew_world_destroy(copy);
        if stepped != SINEW_RESULT_OK || copy_stepped != SINEW_RESULT_OK {
            return Err(format!("the world stopped stepping: {stepped}, {copy_stepped}: {}", last_error()));
        }
        if !alike {
            return Err("the restored snapshot steps on differently".into());
        }
        for &b in &s.bodies {
            let mut n = 0;
            if sinew_body_particle_count(w, b, &mut n) == SINEW_RESULT_OK {
                let mut out = vec![SinewVec3::default(); n as usize];
                assert_eq!(sinew_body_read_positions(w, b, out.as_mut_ptr(), n, ptr::null_mut()), SINEW_RESULT_OK);
                if !out.iter().all(|p| p.x.is_finite() && p.y.is_finite() && p.z.is_finite()) {
                    return Err("a non-finite position".into());
                }
            }
        }
    }
    Ok(())
}
