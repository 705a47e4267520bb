//! The showcase's scenes. Each builds a world on the library's default
//! settings through sinew's public Rust API, says what happens before each
//! step (wind gusts, a push, a throw), and draws its bodies and colliders.
//! All physics is the library's: a scene only places things and reads
//! positions back.

use crate::render::{Picture, Rgb};
use sinew::{
    BodyId, ClothOptions, ColliderShape, CollisionStick, DistanceConstraint, GridDef, Joint, PIN_TOP_EDGE, Quat,
    RagdollDef, Result, RigidDef, RigidModel, RigidShape, Vec3, World, WorldSettings,
};
use std::f32::consts::FRAC_PI_2;

/// The step every scene takes: 60 Hz.
pub const DT: f32 = 1.0 / 60.0;

/// Where the camera stands and how long the scene runs.
#[derive(Debug, Clone, Copy)]
pub struct Shot {
    pub eye: Vec3,
    pub target: Vec3,
    /// Vertical field of view, degrees.
    pub fov: f32,
    pub seconds: f32,
    /// When the still for the contact sheet is taken, seconds.
    pub still_at: f32,
}

type Before = Box<dyn FnMut(&mut World, u32) -> Result<()>>;
type Draw = Box<dyn Fn(&World, &mut Picture) -> Result<()>>;

/// A world, its camera, and how to move it along and draw it.
pub struct Scene {
    /// File stem of its pictures.
    pub name: &'static str,
    /// One line saying what it shows.
    pub title: &'static str,
    pub shot: Shot,
    /// Height of the ground plane, if the scene has one.
    pub ground: Option<f32>,
    pub world: World,
    /// Colliders, drawn the same every frame.
    statics: Picture,
    colliders: u32,
    joints: u32,
    /// Called before step `n` (from 0).
    before: Before,
    draw: Draw,
}

/// What a scene holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub particles: u32,
    /// Distance constraints (sticks: a cloth's stretch, shear and bend ones).
    pub sticks: u32,
    pub tethers: u32,
    pub joints: u32,
    /// Ragdoll bones: a shape-matched cluster and a joint limit each.
    pub bones: u32,
    /// Shape-matching clusters of rigid bodies.
    pub clusters: u32,
    pub collision_sticks: u32,
    pub colliders: u32,
}

impl Counts {
    /// Every constraint of the scene, counted once each.
    pub fn constraints(&self) -> u32 {
        self.sticks + self.tethers + self.joints + self.bones + self.clusters
    }
}

impl Scene {
    pub fn before_step(&mut self, step: u32) -> Result<()> {
        (self.before)(&mut self.world, step)
    }

    /// This moment's picture.
    pub fn picture(&self) -> Result<Picture> {
        // The bodies sort where they are.
        let mut picture = Picture { bias: 0.0, ..self.statics.clone() };
        (self.draw)(&self.world, &mut picture)?;
        Ok(picture)
    }

    pub fn counts(&self) -> Result<Counts> {
        let w = &self.world;
        let mut c = Counts { joints: self.joints, colliders: self.colliders, ..Counts::default() };
        for id in w.bodies() {
            c.particles += w.particle_count(id)?;
            c.sticks += w.distance_constraint_count(id)?;
            c.tethers += w.tether_count(id)?;
            c.collision_sticks += w.collision_stick_count(id)?;
            match w.body_kind(id)? {
                sinew::BodyKind::Ragdoll => c.bones += w.ragdoll_bone_count(id)?,
                sinew::BodyKind::Rigid if w.distance_constraint_count(id)? == 0 => c.clusters += 1,
                _ => {}
            }
        }
        Ok(c)
    }
}

/// Every scene, in the order of the README.
pub fn all() -> Vec<fn() -> Result<Scene>> {
    vec![flag, curtain, stairs, powered, cape, stack, bridge, chain, pile, blanket]
}

/// Colliders sort this much farther (metres) than they are, so that what
/// rests on them is drawn over them.
const STATIC_BIAS: f32 = 0.05;

/// A world on the library's defaults, and the colliders drawn as they are made.
struct Builder {
    world: World,
    statics: Picture,
    colliders: u32,
    joints: u32,
}

impl Builder {
    fn new() -> Result<Builder> {
        let statics = Picture { bias: STATIC_BIAS, ..Picture::default() };
        Ok(Builder { world: World::new(WorldSettings::default())?, statics, colliders: 0, joints: 0 })
    }

    fn collider(&mut self, shape: ColliderShape, position: Vec3, rotation: Quat, friction: f32) -> Result<()> {
        self.world.create_collider(shape, position, rotation, friction)?;
        self.colliders += 1;
        Ok(())
    }

    /// The plane y = 0 (the renderer draws it as the ground grid).
    fn ground(&mut self) -> Result<()> {
        self.collider(ColliderShape::Plane { normal: Vec3::Y, offset: 0.0 }, Vec3::ZERO, Quat::IDENTITY, 0.6)
    }

    fn block(&mut self, position: Vec3, rotation: Quat, half_extents: Vec3, color: Rgb) -> Result<()> {
        self.collider(ColliderShape::Box { half_extents }, position, rotation, 0.6)?;
        self.statics.cuboid(position, rotation, half_extents, color);
        Ok(())
    }

    fn sphere(&mut self, position: Vec3, radius: f32, color: Rgb) -> Result<()> {
        self.collider(ColliderShape::Sphere { radius }, position, Quat::IDENTITY, 0.6)?;
        self.statics.sphere(position, Quat::IDENTITY, radius, color);
        Ok(())
    }

    fn pole(&mut self, a: Vec3, b: Vec3, radius: f32, color: Rgb) -> Result<()> {
        self.collider(ColliderShape::Capsule { a, b, radius }, Vec3::ZERO, Quat::IDENTITY, 0.6)?;
        self.statics.capsule(a, b, radius, color, false);
        Ok(())
    }

    fn joint(&mut self, body_a: BodyId, particle_a: u32, body_b: BodyId, particle_b: u32) -> Result<()> {
        // A negative rest length keeps the distance they have now.
        let joint = Joint { body_a, particle_a, body_b, particle_b, rest_length: -1.0, compliance: 0.0 };
        self.world.create_joint(joint)?;
        self.joints += 1;
        Ok(())
    }

    /// The scene, standing on the plane y = 0.
    fn finish(self, name: &'static str, title: &'static str, shot: Shot, before: Before, draw: Draw) -> Scene {
        Scene {
            name,
            title,
            shot,
            ground: Some(0.0),
            world: self.world,
            statics: self.statics,
            colliders: self.colliders,
            joints: self.joints,
            before,
            draw,
        }
    }
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn nothing_before() -> Before {
    Box::new(|_, _| Ok(()))
}

/// The grid cell (row, column) a triangle of a grid cloth lies in: the floor
/// of its vertices' mean, whichever diagonal splits the cell.
fn cell(t: [u32; 3], columns: u32) -> (u32, u32) {
    let rows: u32 = t.iter().map(|i| i / columns).sum();
    let cols: u32 = t.iter().map(|i| i % columns).sum();
    (rows / 3, cols / 3)
}

/// A grid cloth, coloured per cell.
fn draw_grid(w: &World, id: BodyId, columns: u32, pic: &mut Picture, color: impl Fn(u32, u32) -> Rgb) -> Result<()> {
    let points: Vec<Vec3> = w.positions(id)?.collect();
    let triangles = w.cloth_triangles(id)?;
    pic.mesh(&points, &w.cloth_normals(id)?, triangles, |k| {
        let (r, c) = cell(triangles[k], columns);
        color(r, c)
    });
    Ok(())
}

const SHIRT: Rgb = Rgb::hex(0x3f6fb5);
const SKIN: Rgb = Rgb::hex(0xe8b48f);
const TROUSERS: Rgb = Rgb::hex(0x3b3f4a);
const SHOES: Rgb = Rgb::hex(0x5a3a28);

/// A humanoid's bones as capsules: shirt, skin, trousers, shoes.
fn draw_humanoid(w: &World, id: BodyId, radii: &[f32], pic: &mut Picture) -> Result<()> {
    let x: Vec<Vec3> = w.positions(id)?.collect();
    for (bone, name) in sinew::HUMANOID_BONES.iter().enumerate() {
        let (head, tail) = w.ragdoll_bone_particles(id, bone as u32)?;
        let color = match *name {
            "neck" | "head" | "lower_arm_l" | "lower_arm_r" | "hand_l" | "hand_r" => SKIN,
            "upper_leg_l" | "upper_leg_r" | "lower_leg_l" | "lower_leg_r" => TROUSERS,
            "foot_l" | "foot_r" => SHOES,
            _ => SHIRT,
        };
        pic.capsule(x[head as usize], x[tail as usize], radii[bone], color, true);
    }
    Ok(())
}

fn bone_radii(def: &RagdollDef) -> Vec<f32> {
    def.bones.iter().map(|b| b.radius).collect()
}

/// A flag pinned along a pole, in gusting wind.
fn flag() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    b.pole(v(-0.05, 0.0, 0.0), v(-0.05, 2.6, 0.0), 0.035, Rgb::hex(0x8a8f96))?;
    b.statics.ball(v(-0.05, 2.65, 0.0), 0.06, Rgb::hex(0xd9b43c));
    // The grid's top edge (its pinned row) turned upright along the pole: the
    // rows run out along +X.
    let (columns, rows) = (14, 22);
    let def = GridDef {
        position: v(0.0, 1.65, 0.0),
        rotation: Quat::from_rotation_z(FRAC_PI_2),
        columns,
        rows,
        spacing: 0.065,
        pins: PIN_TOP_EDGE,
        ..GridDef::default()
    };
    let cloth = b.world.create_cloth_grid(&def)?;
    let before: Before = Box::new(|w, step| {
        let t = step as f32 * DT;
        let gust = 6.0 + 2.5 * (1.3 * t).sin() + 1.2 * (3.7 * t).sin();
        w.set_wind(v(gust, 0.0, 1.5 * (0.8 * t).sin()))
    });
    let bands = [Rgb::hex(0x1f4e9c), Rgb::hex(0xf2f0ea), Rgb::hex(0xc8312f)];
    let draw: Draw =
        Box::new(move |w, pic| draw_grid(w, cloth, columns, pic, |r, _| bands[(r * 3 / (rows - 1)).min(2) as usize]));
    let shot = Shot { eye: v(1.6, 1.5, 3.3), target: v(0.62, 1.5, 0.0), fov: 42.0, seconds: 6.0, still_at: 4.0 };
    Ok(b.finish("flag", "a flag in gusting wind, pinned to a pole", shot, before, draw))
}

/// A curtain dropped flat over a sphere and a box.
fn curtain() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    b.sphere(v(-0.5, 0.45, -0.15), 0.45, Rgb::hex(0xb85c5c))?;
    b.block(v(0.55, 0.3, 0.25), Quat::from_rotation_y(0.6), Vec3::splat(0.3), Rgb::hex(0x5f8fa8))?;
    let columns = 36;
    let options = ClothOptions { self_collision: true, thickness: 0.012, ..ClothOptions::default() };
    let def = GridDef {
        position: v(-1.05, 1.6, -1.05),
        // The grid's plane laid flat: rows run along +Z.
        rotation: Quat::from_rotation_x(-FRAC_PI_2),
        columns,
        rows: 36,
        spacing: 0.06,
        pins: 0,
        options,
    };
    let cloth = b.world.create_cloth_grid(&def)?;
    let (gold, cream) = (Rgb::hex(0xd9a441), Rgb::hex(0xf1e6c8));
    let draw: Draw = Box::new(move |w, pic| {
        draw_grid(w, cloth, columns, pic, |r, c| if (r / 5 + c / 5) % 2 == 0 { gold } else { cream })
    });
    let shot = Shot { eye: v(2.2, 2.3, 3.2), target: v(0.0, 0.45, 0.0), fov: 42.0, seconds: 3.5, still_at: 2.5 };
    Ok(b.finish("curtain", "a curtain falling over a sphere and a box", shot, nothing_before(), draw))
}

/// A humanoid ragdoll shoved down a flight of box stairs: it tumbles to
/// their foot and lies there.
fn stairs() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    // Steep stairs (39 degrees): on a 0.3 m run the figure stopped on the
    // steps, and which step depended on the shove.
    let (steps, rise, run, half_width) = (8, 0.2f32, 0.25f32, 0.8f32);
    let stone = |k: u32| if k.is_multiple_of(2) { Rgb::hex(0xa3abb5) } else { Rgb::hex(0x8f98a3) };
    let top = steps as f32 * rise;
    b.block(v(-0.5, 0.5 * top, 0.0), Quat::IDENTITY, v(0.5, 0.5 * top, half_width), stone(0))?;
    for k in 1..steps {
        let h = (steps - k) as f32 * rise;
        b.block(v((k as f32 - 0.5) * run, 0.5 * h, 0.0), Quat::IDENTITY, v(0.5 * run, 0.5 * h, half_width), stone(k))?;
    }
    // Standing at the top edge, facing down the stairs (+X).
    let (root, facing) = (v(-0.2, top, 0.1), Quat::from_rotation_y(FRAC_PI_2));
    let body = b.world.create_humanoid(root, facing, 1.8)?;
    let radii = bone_radii(&RagdollDef::humanoid(root, facing, 1.8));
    let before: Before = Box::new(move |w, step| {
        if step == 0 {
            // A shove high in the back, and a shin kicked back: a dive.
            let (chest, _) = w.ragdoll_bones(body)?.nth(2).expect("the humanoid has a chest");
            w.apply_bone_impulse(body, 2, chest, v(60.0, 10.0, -4.0))?;
            let (knee, _) = w.ragdoll_bones(body)?.nth(12).expect("the humanoid has a shin");
            w.apply_bone_impulse(body, 12, knee, v(-8.0, 8.0, 0.0))?;
        }
        Ok(())
    });
    let draw: Draw = Box::new(move |w, pic| draw_humanoid(w, body, &radii, pic));
    let shot = Shot { eye: v(4.3, 3.0, 4.1), target: v(0.7, 1.2, 0.0), fov: 45.0, seconds: 5.0, still_at: 0.9 };
    Ok(b.finish("stairs", "a ragdoll tumbling down box stairs", shot, before, draw))
}

/// A powered character: motors drive a humanoid towards the animation's pose
/// every frame (standing, turning from side to side) with a limited force;
/// shoves push it off the pose and the motors pull it back.
fn powered() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let (root, facing) = (v(0.0, 0.0, 0.0), Quat::IDENTITY);
    let body = b.world.create_humanoid(root, facing, 1.8)?;
    let pose: Vec<(Vec3, Quat)> = b.world.ragdoll_bones(body)?.collect();
    b.world.set_ragdoll_motor_targets(body, &pose)?;
    b.world.set_ragdoll_motor_strength(body, 0.3, 2000.0)?;
    // Its place is animated too (root motion, an opt-in).
    b.world.set_ragdoll_root_motion(body, true)?;
    let radii = bone_radii(&RagdollDef::humanoid(root, facing, 1.8));
    let before: Before = Box::new(move |w, step| {
        // The animation's pose every frame, as an engine would send it: the
        // standing pose turning slowly from side to side.
        let turn = Quat::from_rotation_y(0.5 * (1.3 * step as f32 * DT).sin());
        let animated: Vec<(Vec3, Quat)> = pose.iter().map(|&(p, q)| (turn * p, turn * q)).collect();
        w.set_ragdoll_motor_targets(body, &animated)?;
        // Shoves on the chest: from behind, from the side, from the front.
        let shoves = [(60, v(0.0, 0.0, 140.0)), (150, v(130.0, 0.0, 0.0)), (240, v(0.0, 20.0, -140.0))];
        for (at, impulse) in shoves {
            if step == at {
                let (chest, _) = w.ragdoll_bones(body)?.nth(2).expect("the humanoid has a chest");
                w.apply_bone_impulse(body, 2, chest + v(0.0, 0.1, 0.0), impulse)?;
            }
        }
        Ok(())
    });
    let draw: Draw = Box::new(move |w, pic| draw_humanoid(w, body, &radii, pic));
    let shot = Shot { eye: v(2.6, 1.6, 3.2), target: v(0.0, 0.9, 0.0), fov: 45.0, seconds: 5.0, still_at: 1.1 };
    Ok(b.finish(
        "powered",
        "a character following its animation through motors, shoved, recovering",
        shot,
        before,
        draw,
    ))
}

/// A cape joined to a ragdoll's shoulders, in gusting wind. An animated frame
/// holds the ragdoll's torso and head and turns them from side to side, as a
/// character's animation would; the limbs hang free, and a skin that follows
/// the torso keeps the cape off the back.
fn cape() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let turn = |t: f32| Quat::from_rotation_y(0.7 * (0.9 * t).sin());
    let root = v(0.0, 0.01, 0.0);
    let body = b.world.create_humanoid(root, Quat::IDENTITY, 1.8)?;
    let radii = bone_radii(&RagdollDef::humanoid(root, Quat::IDENTITY, 1.8));
    let columns = 11;
    let def = GridDef {
        position: root + v(-0.275, 1.44, -0.14),
        columns,
        rows: 18,
        spacing: 0.055,
        pins: 0,
        options: ClothOptions { drag: 1.5, lift: 0.5, ..ClothOptions::default() },
        ..GridDef::default()
    };
    let cloth = b.world.create_cloth_grid(&def)?;
    // Top corners to the shoulders (the upper arms' heads; the figure's left
    // is its +X), the top middle to the base of the neck.
    let head_of = |bone| b.world.ragdoll_bone_particles(body, bone).map(|(head, _)| head);
    let (left, right, neck, pelvis) = (head_of(5)?, head_of(8)?, head_of(3)?, head_of(0)?);
    let (chest_head, chest_tail) = b.world.ragdoll_bone_particles(body, 2)?;
    let (_, crown) = b.world.ragdoll_bone_particles(body, 4)?;
    b.joint(body, right, cloth, 0)?;
    b.joint(body, left, cloth, columns - 1)?;
    b.joint(body, neck, cloth, columns / 2)?;
    // The cape passes through the bones it is joined at (the upper arms, the
    // neck, and the chest between them), as a character's cape is modelled
    // around them; the others (spine, pelvis, limbs) push it.
    b.world.set_ignored_bones(cloth, body, &[2, 3, 5, 8])?;
    // The torso and head ride the frame, which turns about the figure's root.
    let held = [pelvis, chest_head, chest_tail, left, right, neck, crown];
    let frame = b.world.attach_to_frame(body, &held, root, Quat::IDENTITY)?;
    // The skin: the cape's rest shape turned with the frame, normals out of
    // the back; the cloth may not pass more than 1 cm behind it.
    let rest: Vec<Vec3> = b.world.positions(cloth)?.map(|p| p - root).collect();
    let skin = move |w: &mut World, q: Quat| -> Result<()> {
        let points: Vec<Vec3> = rest.iter().map(|&p| root + q * p).collect();
        w.set_cloth_skin(cloth, &points, &vec![q * Vec3::NEG_Z; points.len()])
    };
    skin(&mut b.world, Quat::IDENTITY)?;
    let n = b.world.cloth_vertex_count(cloth)? as usize;
    b.world.set_cloth_max_distances(cloth, &vec![f32::INFINITY; n], Some(&vec![0.01; n]))?;
    let before: Before = Box::new(move |w, step| {
        let t = step as f32 * DT;
        let gust = 4.5 + 2.5 * (1.7 * t).sin() + 1.0 * (4.3 * t).sin();
        w.set_wind(v(gust, 0.4, -1.5 - 0.8 * (1.1 * t).sin()))?;
        // Where the frame is at the end of this step.
        let q = turn(t + DT);
        w.set_frame(body, frame, root, q)?;
        skin(w, q)
    });
    let (red, dark) = (Rgb::hex(0xb3202f), Rgb::hex(0x7d1520));
    let draw: Draw = Box::new(move |w, pic| {
        draw_humanoid(w, body, &radii, pic)?;
        draw_grid(w, cloth, columns, pic, |r, _| if r == 0 { dark } else { red })
    });
    let shot = Shot { eye: v(1.7, 1.5, 2.4), target: v(0.35, 1.0, -0.3), fov: 45.0, seconds: 5.0, still_at: 4.6 };
    Ok(b.finish("cape", "a cape joined to a ragdoll's shoulders, in gusting wind", shot, before, draw))
}

/// A pyramid of shape-matched boxes knocked over by a heavy ball.
fn stack() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let (h, levels) = (0.17f32, 5);
    let mut boxes = Vec::new();
    for level in 0..levels {
        let count = levels - level;
        for k in 0..count {
            let x = (k as f32 - 0.5 * (count - 1) as f32) * (2.0 * h + 0.01);
            let mut def = RigidDef::new(RigidShape::Box { half_extents: Vec3::splat(h) });
            def.model = RigidModel::ShapeMatched { stiffness: 1.0 };
            def.position = v(x, h + level as f32 * (2.0 * h + 0.01), 0.0);
            def.mass = 3.0;
            boxes.push((b.world.create_rigid(&def)?, (level + k) % 2));
        }
    }
    let radius = 0.25;
    let mut def = RigidDef::new(RigidShape::Sphere { radius });
    def.position = v(-2.6, radius, 0.4);
    def.mass = 20.0;
    let ball = b.world.create_rigid(&def)?;
    let before: Before = Box::new(move |w, step| {
        if step == 30 {
            // Thrown at 7 m/s towards the pyramid's middle.
            let (x, _) = w.rigid_transform(ball)?;
            w.apply_rigid_impulse(ball, x, v(7.0, 2.4, -1.0) * 20.0)?;
        }
        Ok(())
    });
    let woods = [Rgb::hex(0xc99257), Rgb::hex(0xe0b878)];
    let draw: Draw = Box::new(move |w, pic| {
        for &(id, tone) in &boxes {
            let (x, q) = w.rigid_transform(id)?;
            pic.cuboid(x, q, Vec3::splat(h), woods[tone]);
        }
        let (x, q) = w.rigid_transform(ball)?;
        pic.sphere(x, q, radius, Rgb::hex(0x4a4f57));
        Ok(())
    });
    let shot = Shot { eye: v(1.4, 1.7, 4.6), target: v(0.2, 0.55, 0.0), fov: 45.0, seconds: 4.0, still_at: 1.05 };
    Ok(b.finish("stack", "a pyramid of shape-matched boxes knocked over by a ball", shot, before, draw))
}

/// A rope bridge: two deck ropes and two handrails of particles, rigid planks
/// joined to the deck ropes, two crates dropped on it.
fn bridge() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let (n, half_span) = (21usize, 2.0f32);
    let post = Rgb::hex(0x6b4a2f);
    for x in [-half_span - 0.08, half_span + 0.08] {
        for z in [-0.42, 0.42] {
            b.block(v(x, 1.25, z), Quat::IDENTITY, v(0.06, 1.25, 0.06), post)?;
        }
    }
    // Ropes 0 and 1 carry the deck (z = -+0.35), 2 and 3 are handrails; all
    // sag as a parabola, their ends pinned at the posts.
    let sag = |k: usize| {
        let s = 2.0 * k as f32 / (n - 1) as f32 - 1.0;
        1.0 - s * s
    };
    let mut points = Vec::new();
    for (y, dip, z) in [(1.5, 0.35, -0.35), (1.5, 0.35, 0.35), (2.35, 0.2, -0.42), (2.35, 0.2, 0.42)] {
        for k in 0..n {
            points.push(v(-half_span + 2.0 * half_span * k as f32 / (n - 1) as f32, y - dip * sag(k), z));
        }
    }
    let inv_mass: Vec<f32> = (0..4 * n).map(|i| if i % n == 0 || i % n == n - 1 { 0.0 } else { 3.0 }).collect();
    let ropes = b.world.create_particles(&points, Some(&inv_mass))?;
    let at = |rope: usize, k: usize| (rope * n + k) as u32;
    let stick = |a, b| DistanceConstraint { a, b, rest_length: -1.0, compliance: 0.0 };
    let mut sticks = Vec::new();
    for rope in 0..4 {
        sticks.extend((0..n - 1).map(|k| stick(at(rope, k), at(rope, k + 1))));
    }
    // Suspenders from each handrail down to its deck rope.
    for k in (2..n - 2).step_by(2) {
        sticks.push(stick(at(0, k), at(2, k)));
        sticks.push(stick(at(1, k), at(3, k)));
    }
    b.world.add_distance_constraints(ropes, &sticks)?;
    b.world.set_particle_radius(ropes, 0.02)?;
    // A plank over each segment, each of its four particles joined to the two
    // ends of the segment on its side: eight joints hold it square.
    let half = v(0.085, 0.02, 0.42);
    let mut planks = Vec::new();
    for k in 0..n - 1 {
        let corner = |rope, k| points[at(rope, k) as usize];
        let (a0, a1, b0, b1) = (corner(0, k), corner(0, k + 1), corner(1, k), corner(1, k + 1));
        let along = (a1 - a0).normalize();
        let mut def = RigidDef::new(RigidShape::Box { half_extents: half });
        def.position = 0.25 * (a0 + a1 + b0 + b1) + v(0.0, 0.035, 0.0);
        def.rotation = Quat::from_rotation_z(along.y.atan2(along.x));
        def.mass = 1.5;
        // Rough boards: what lands on them stays (a pair's friction is the geometric mean).
        def.friction = 0.9;
        let plank = b.world.create_rigid(&def)?;
        let corners: Vec<Vec3> = b.world.positions(plank)?.collect();
        for (i, c) in corners.iter().enumerate() {
            let rope = if c.z < 0.0 { 0 } else { 1 };
            b.joint(plank, i as u32, ropes, at(rope, k))?;
            b.joint(plank, i as u32, ropes, at(rope, k + 1))?;
        }
        planks.push(plank);
    }
    // Two crates dropped flat onto the middle of the deck from 0.9 and 1.4 m
    // above it. Heavier, higher or tilted, they landed on an edge, tipped the
    // deck and slid off between the hangers.
    let mut crates = Vec::new();
    for (position, half, turn, color) in [
        (v(-0.8, 2.1, 0.0), v(0.2, 0.15, 0.2), Quat::from_rotation_y(0.3), Rgb::hex(0x3d7a4a)),
        (v(0.5, 2.55, 0.0), Vec3::splat(0.15), Quat::from_rotation_y(0.5), Rgb::hex(0xd8b26a)),
    ] {
        let mut def = RigidDef::new(RigidShape::Box { half_extents: half });
        def.position = position;
        def.rotation = turn;
        def.mass = 3.0;
        def.friction = 0.9;
        crates.push((b.world.create_rigid(&def)?, half, color));
    }
    let (rope_color, plank_color) = (Rgb::hex(0xc9a66b), Rgb::hex(0x8c5a32));
    let draw: Draw = Box::new(move |w, pic| {
        let x: Vec<Vec3> = w.positions(ropes)?.collect();
        for s in &sticks {
            pic.capsule(x[s.a as usize], x[s.b as usize], 0.018, rope_color, false);
        }
        for (k, &plank) in planks.iter().enumerate() {
            let (p, q) = w.rigid_transform(plank)?;
            pic.cuboid(p, q, half, if k % 2 == 0 { plank_color } else { plank_color.scale(1.15) });
        }
        for &(id, half, color) in &crates {
            let (p, q) = w.rigid_transform(id)?;
            pic.cuboid(p, q, half, color);
        }
        Ok(())
    });
    let shot = Shot { eye: v(1.3, 3.1, 4.3), target: v(0.0, 1.35, 0.0), fov: 45.0, seconds: 5.0, still_at: 1.4 };
    let title = "a rope bridge: rigid planks joined to ropes of particles, two crates dropped on it";
    Ok(b.finish("bridge", title, shot, nothing_before(), draw))
}

/// Hills of the terrain mesh, metres.
fn hills(x: f32, z: f32) -> f32 {
    0.35 * (1.1 * x).sin() * (0.9 * z).cos() + 0.18 * (1.9 * z + 0.7 * x).sin() - 0.04 * x * x
}

/// How much farther than they are (metres) the terrain's facets sort.
const TERRAIN_BIAS: f32 = 0.25;

/// Chains with collision sticks dropped on a triangle-mesh terrain.
fn chain() -> Result<Scene> {
    let mut b = Builder::new()?;
    // The terrain: a 40 x 40 grid of 8 m, two triangles per cell, standing
    // on the ground plane at its lowest point.
    let (cells, size) = (40u32, 8.0f32);
    let vertex = |i: u32, j: u32| {
        let (x, z) = (size * (i as f32 / cells as f32 - 0.5), size * (j as f32 / cells as f32 - 0.5));
        v(x, hills(x, z), z)
    };
    let mut vertices = Vec::new();
    for j in 0..=cells {
        for i in 0..=cells {
            vertices.push(vertex(i, j));
        }
    }
    let floor = vertices.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let mut indices = Vec::new();
    let index = |i: u32, j: u32| j * (cells + 1) + i;
    for j in 0..cells {
        for i in 0..cells {
            let (v00, v01, v11, v10) = (index(i, j), index(i, j + 1), index(i + 1, j + 1), index(i + 1, j));
            indices.extend([v00, v01, v11, v00, v11, v10]);
        }
    }
    b.collider(ColliderShape::mesh(&vertices, &indices)?, Vec3::ZERO, Quat::IDENTITY, 0.3)?;
    b.collider(ColliderShape::Plane { normal: Vec3::Y, offset: floor }, Vec3::ZERO, Quat::IDENTITY, 0.6)?;
    let top = vertices.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
    let (low, mid, high) = (Rgb::hex(0x4f8a44), Rgb::hex(0x9aa35a), Rgb::hex(0xd8c690));
    // Its facets are large beside the links lying on them: sorted farther.
    b.statics.bias = TERRAIN_BIAS;
    for t in indices.chunks(3) {
        let p = [vertices[t[0] as usize], vertices[t[1] as usize], vertices[t[2] as usize]];
        let y = ((p[0].y + p[1].y + p[2].y) / 3.0 - floor) / (top - floor);
        let c = if y < 0.5 { low.mix(mid, 2.0 * y) } else { mid.mix(high, 2.0 * y - 1.0) };
        b.statics.tri(p, c, None);
    }
    // Three chains of 40 links of 7 cm, dropped one after another in arcs.
    let (links, length, radius) = (40u32, 0.07f32, 0.03f32);
    let mut chains = Vec::new();
    let colors = [Rgb::hex(0xa4abb4), Rgb::hex(0xd1a72e), Rgb::hex(0xb8613a)];
    // On the slopes above the basin at x = -1.8, which keeps them in view (the
    // second, dropped on the hilltop at (0.6, 0.1), slid out of the frame).
    let places = [(v(-0.6, 0.0, -0.5), 0.3, 1.2), (v(-0.3, 0.0, 0.3), 2.2, 2.4), (v(-0.1, 0.0, 0.8), 4.0, 3.6)];
    for ((centre, turn, height), color) in places.into_iter().zip(colors) {
        let points: Vec<Vec3> = (0..=links)
            .map(|i| {
                let s = (i as f32 / links as f32 - 0.5) * links as f32 * length;
                let arc = Quat::from_rotation_y(turn) * v(s, 0.0, 0.3 * (2.0 * s).cos());
                centre + arc + v(0.0, height + 0.2 * (3.0 * s).sin(), 0.0)
            })
            .collect();
        let id = b.world.create_particles(&points, None)?;
        let sticks: Vec<DistanceConstraint> =
            (0..links).map(|i| DistanceConstraint { a: i, b: i + 1, rest_length: -1.0, compliance: 0.0 }).collect();
        b.world.add_distance_constraints(id, &sticks)?;
        b.world.set_particle_radius(id, radius)?;
        let capsules: Vec<CollisionStick> = (0..links).map(|i| CollisionStick { a: i, b: i + 1, radius }).collect();
        b.world.add_collision_sticks(id, &capsules)?;
        chains.push((id, color));
    }
    let draw: Draw = Box::new(move |w, pic| {
        for &(id, color) in &chains {
            let x: Vec<Vec3> = w.positions(id)?.collect();
            for (i, pair) in x.windows(2).enumerate() {
                let c = if i % 2 == 0 { color } else { color.scale(0.78) };
                pic.capsule(pair[0], pair[1], radius, c, true);
            }
        }
        Ok(())
    });
    // 5 s: the first chain still slides at 4 s (0.16 m/s since the
    // velocities keep the stick solve's rounding; 0.009 m/s at 4.5 s, all
    // three asleep by 5.5 s).
    let shot = Shot { eye: v(2.0, 2.3, 2.9), target: v(0.0, 0.3, 0.1), fov: 45.0, seconds: 5.0, still_at: 1.0 };
    let title = "chains with collision sticks falling on a triangle-mesh terrain";
    let mut scene = b.finish("chain", title, shot, nothing_before(), draw);
    scene.ground = Some(floor);
    Ok(scene)
}

/// A humanoid lying on its back, turned `turn` about the vertical, its
/// pelvis at `at`.
fn lying_def(at: Vec3, turn: f32) -> RagdollDef {
    let mut def =
        RagdollDef::humanoid(Vec3::ZERO, Quat::from_rotation_y(turn) * Quat::from_rotation_x(-FRAC_PI_2), 1.8);
    let pelvis = def.bones[0].position;
    def.bones.iter_mut().for_each(|bone| bone.position += at - pelvis);
    def
}

/// Bodies collide with bodies: humanoids dropped one after another onto one
/// spot pile up, and a crate lands on the pile.
fn pile() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let defs: Vec<RagdollDef> =
        (0..4).map(|k| lying_def(v(0.03 * k as f32, 0.6 + 0.1 * k as f32, 0.0), 0.8 * k as f32 - 0.4)).collect();
    let radii = bone_radii(&defs[0]);
    let half = v(0.3, 0.12, 0.22);
    let first = b.world.create_ragdoll(&defs[0])?;
    let bodies = std::rc::Rc::new(std::cell::RefCell::new(vec![first]));
    let crate_id = std::rc::Rc::new(std::cell::Cell::new(None::<BodyId>));
    let (made, made_crate) = (bodies.clone(), crate_id.clone());
    let before: Before = Box::new(move |w, step| {
        let k = made.borrow().len();
        if k < defs.len() && step == (k as u32) * 36 {
            made.borrow_mut().push(w.create_ragdoll(&defs[k])?);
        }
        if step == 170 {
            let mut def = RigidDef::new(RigidShape::Box { half_extents: half });
            (def.position, def.mass) = (v(0.0, 2.0, -0.1), 10.0);
            def.rotation = Quat::from_rotation_y(0.5);
            made_crate.set(Some(w.create_rigid(&def)?));
        }
        Ok(())
    });
    let draw: Draw = Box::new(move |w, pic| {
        for &id in bodies.borrow().iter() {
            draw_humanoid(w, id, &radii, pic)?;
        }
        if let Some(id) = crate_id.get() {
            let (p, q) = w.rigid_transform(id)?;
            pic.cuboid(p, q, half, Rgb::hex(0xb0813f));
        }
        Ok(())
    });
    let shot = Shot { eye: v(2.6, 1.9, 2.6), target: v(0.0, 0.35, 0.0), fov: 45.0, seconds: 5.0, still_at: 4.5 };
    Ok(b.finish(
        "pile",
        "humanoids dropped one after another pile up on each other; a crate dropped on the pile",
        shot,
        before,
        draw,
    ))
}

/// A cloth dropped over a humanoid lying on the ground drapes over it.
fn blanket() -> Result<Scene> {
    let mut b = Builder::new()?;
    b.ground()?;
    let def = lying_def(v(0.0, 0.14, 0.0), FRAC_PI_2);
    let body = b.world.create_ragdoll(&def)?;
    let radii = bone_radii(&def);
    let columns = 28;
    let grid = GridDef {
        position: v(-1.3, 0.9, -0.9),
        columns,
        rows: 24,
        spacing: 0.075,
        pins: 0,
        options: ClothOptions { thickness: 0.01, ..ClothOptions::default() },
        ..GridDef::default()
    }
    .in_xz_plane();
    let cloth = b.world.create_cloth_grid(&grid)?;
    let (wool, stripe) = (Rgb::hex(0x4f7a4a), Rgb::hex(0xc9b458));
    let draw: Draw = Box::new(move |w, pic| {
        draw_humanoid(w, body, &radii, pic)?;
        draw_grid(w, cloth, columns, pic, |r, c| if (r + c) % 8 == 0 { stripe } else { wool })
    });
    let shot = Shot { eye: v(1.2, 2.0, 2.6), target: v(0.0, 0.2, 0.0), fov: 45.0, seconds: 3.0, still_at: 2.8 };
    Ok(b.finish(
        "blanket",
        "a cloth dropped over a humanoid lying on the ground drapes over it",
        shot,
        nothing_before(),
        draw,
    ))
}
