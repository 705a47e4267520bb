//! The showcase's software renderer: a perspective camera, a tiled ground
//! with the bodies' shadows on it, and a painter's algorithm (back to front by
//! view depth) over flat-shaded triangles, capsules and balls, rasterised
//! with tiny-skia.
//!
//! Shading is Lambert with one directional light and an ambient term; faces
//! far from the camera fade into the sky. Shadows are the primitives projected
//! along the light onto the ground plane, drawn opaque into their own layer
//! and laid over the ground once, so overlapping shadows do not darken twice.

use sinew::{Quat, Vec3};
use tiny_skia::{Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Rect, Stroke, Transform};

/// A colour, each channel in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgb(pub f32, pub f32, pub f32);

impl Rgb {
    /// From `0xRRGGBB`.
    pub const fn hex(v: u32) -> Rgb {
        Rgb(((v >> 16) & 0xff) as f32 / 255.0, ((v >> 8) & 0xff) as f32 / 255.0, (v & 0xff) as f32 / 255.0)
    }

    /// Every channel times `k`, clamped to 1.
    pub fn scale(self, k: f32) -> Rgb {
        Rgb((self.0 * k).min(1.0), (self.1 * k).min(1.0), (self.2 * k).min(1.0))
    }

    /// `t` of the way to `other`.
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        Rgb(self.0 + (other.0 - self.0) * t, self.1 + (other.1 - self.1) * t, self.2 + (other.2 - self.2) * t)
    }

    /// 8-bit RGBA, opaque.
    pub fn rgba8(self) -> [u8; 4] {
        let q = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
        [q(self.0), q(self.1), q(self.2), 255]
    }

    fn paint(self) -> Paint<'static> {
        let [r, g, b, a] = self.rgba8();
        let mut paint = Paint::default();
        paint.set_color_rgba8(r, g, b, a);
        paint.anti_alias = true;
        paint
    }
}

/// The background: what a blank picture is filled with.
pub const SKY: Rgb = Rgb::hex(0xd4e4f0);
const GROUND_LIGHT: Rgb = Rgb::hex(0xc9c4b8);
const GROUND_DARK: Rgb = Rgb::hex(0xb5afa2);
const GROUND_TILE: f32 = 0.5;
/// Half the side of the ground drawn around the camera's target, metres.
const GROUND_REACH: f32 = 16.0;
const SHADOW_OPACITY: f32 = 0.3;
const AMBIENT: f32 = 0.42;
const DIFFUSE: f32 = 0.62;
/// Nothing nearer the eye than this is drawn (metres).
const NEAR: f32 = 0.05;

/// Towards the light: above, a little to the left and in front of the usual
/// camera (which looks along -Z), so shadows fall behind and to the right.
fn light() -> Vec3 {
    Vec3::new(-0.35, 1.0, 0.45).normalize()
}

fn lambert(normal: Vec3) -> f32 {
    AMBIENT + DIFFUSE * normal.dot(light()).max(0.0)
}

/// A pinhole camera looking from `eye` at a target, Y up.
#[derive(Debug, Clone, Copy)]
pub struct Camera {
    eye: Vec3,
    target: Vec3,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
    /// Pixels per unit of `x / z` in view space.
    focal: f32,
    cx: f32,
    cy: f32,
}

impl Camera {
    /// A camera for a `width` x `height` picture with a vertical field of
    /// view of `fov_y_deg` degrees.
    pub fn new(eye: Vec3, target: Vec3, fov_y_deg: f32, width: u32, height: u32) -> Camera {
        let forward = (target - eye).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let focal = 0.5 * height as f32 / (0.5 * fov_y_deg.to_radians()).tan();
        Camera { eye, target, right, up, forward, focal, cx: 0.5 * width as f32, cy: 0.5 * height as f32 }
    }

    /// View space: x right, y up, z the depth in front of the eye.
    fn view(&self, p: Vec3) -> Vec3 {
        let d = p - self.eye;
        Vec3::new(d.dot(self.right), d.dot(self.up), d.dot(self.forward))
    }

    /// Pixel coordinates of a view-space point in front of the eye.
    fn screen(&self, v: Vec3) -> (f32, f32) {
        (self.cx + self.focal * v.x / v.z, self.cy - self.focal * v.y / v.z)
    }

    /// Pixel coordinates and depth, or `None` behind the near plane.
    fn project(&self, p: Vec3) -> Option<(f32, f32, f32)> {
        let v = self.view(p);
        (v.z > NEAR).then(|| {
            let (x, y) = self.screen(v);
            (x, y, v.z)
        })
    }
}

/// Fraction of the way to the sky colour at a depth.
fn fog(depth: f32) -> f32 {
    ((depth - 6.0) / GROUND_REACH).clamp(0.0, 1.0)
}

/// What a frame shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Prim {
    /// A triangle, counter-clockwise seen from its front. `back: None` makes
    /// it one-sided (culled from behind, as a face of a closed solid);
    /// otherwise its back shows in that colour (cloth). `normal` shades it
    /// instead of its face's (a cloth's mean vertex normal: smoother).
    Tri { p: [Vec3; 3], color: Rgb, back: Option<Rgb>, normal: Option<Vec3> },
    /// A round-ended tube (a bone, a rope's link), drawn as a thick line;
    /// `outline` draws a dark rim around it.
    Capsule { a: Vec3, b: Vec3, radius: f32, color: Rgb, outline: bool },
    /// A ball drawn as a shaded disc.
    Ball { c: Vec3, radius: f32, color: Rgb },
}

/// A frame's primitives, in any order, each with a depth bias (metres).
#[derive(Debug, Clone, Default)]
pub struct Picture {
    pub prims: Vec<(Prim, f32)>,
    /// The bias of what is added next: colliders sort a little farther than
    /// they are, so cloth lying on them is drawn over them.
    pub bias: f32,
}

/// Pieces of at most this many metres: big faces sort badly in the painter's
/// algorithm.
const PIECE: f32 = 0.15;

impl Picture {
    fn push(&mut self, prim: Prim) {
        self.prims.push((prim, self.bias));
    }

    pub fn tri(&mut self, p: [Vec3; 3], color: Rgb, back: Option<Rgb>) {
        self.push(Prim::Tri { p, color, back, normal: None });
    }

    /// A one-sided triangle of a closed solid around `inside`, turned to face
    /// away from it.
    fn solid_tri(&mut self, mut p: [Vec3; 3], inside: Vec3, color: Rgb) {
        let normal = (p[1] - p[0]).cross(p[2] - p[0]);
        if normal.dot(p[0] - inside) < 0.0 {
            p.swap(1, 2);
        }
        self.tri(p, color, None);
    }

    /// A box of half sizes `half` placed by `position` and `rotation`, its
    /// faces cut into pieces for sorting.
    pub fn cuboid(&mut self, position: Vec3, rotation: Quat, half: Vec3, color: Rgb) {
        for axis in 0..3 {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let (nu, nv) = (pieces(2.0 * half[u]), pieces(2.0 * half[v]));
            for sign in [-1.0f32, 1.0] {
                let corner = |i: usize, j: usize| {
                    let mut local = Vec3::ZERO;
                    local[axis] = sign * half[axis];
                    local[u] = half[u] * (2.0 * i as f32 / nu as f32 - 1.0);
                    local[v] = half[v] * (2.0 * j as f32 / nv as f32 - 1.0);
                    position + rotation * local
                };
                for i in 0..nu {
                    for j in 0..nv {
                        let q = [corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)];
                        self.solid_tri([q[0], q[1], q[2]], position, color);
                        self.solid_tri([q[0], q[2], q[3]], position, color);
                    }
                }
            }
        }
    }

    /// A faceted ball (latitude-longitude) whose facets turn with `rotation`.
    pub fn sphere(&mut self, position: Vec3, rotation: Quat, radius: f32, color: Rgb) {
        let stacks = pieces(std::f32::consts::PI * radius).max(8);
        let slices = 2 * stacks - 2;
        let point = |i: usize, j: usize| {
            let theta = std::f32::consts::PI * i as f32 / stacks as f32;
            let phi = std::f32::consts::TAU * j as f32 / slices as f32;
            let local = Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
            position + rotation * (local * radius)
        };
        for i in 0..stacks {
            for j in 0..slices {
                let q = [point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)];
                // Stripes of two shades show the ball turn.
                let c = if (j / 2) % 2 == 0 { color } else { color.scale(0.8) };
                if i > 0 {
                    self.solid_tri([q[0], q[2], q[3]], position, c);
                }
                if i + 1 < stacks {
                    self.solid_tri([q[0], q[1], q[2]], position, c);
                }
            }
        }
    }

    /// A capsule between `a` and `b`, cut into pieces for sorting unless it
    /// has an outline (which would show at the cuts).
    pub fn capsule(&mut self, a: Vec3, b: Vec3, radius: f32, color: Rgb, outline: bool) {
        let n = if outline { 1 } else { pieces((b - a).length()) };
        for k in 0..n {
            let (s, t) = (k as f32 / n as f32, (k + 1) as f32 / n as f32);
            self.push(Prim::Capsule { a: a.lerp(b, s), b: a.lerp(b, t), radius, color, outline });
        }
    }

    pub fn ball(&mut self, c: Vec3, radius: f32, color: Rgb) {
        self.push(Prim::Ball { c, radius, color });
    }

    /// A two-sided triangle mesh (cloth) over `points` with their `normals`,
    /// each triangle in the colour `color(k)` of its index, its back a little
    /// darker.
    pub fn mesh(&mut self, points: &[Vec3], normals: &[Vec3], triangles: &[[u32; 3]], color: impl Fn(usize) -> Rgb) {
        for (k, t) in triangles.iter().enumerate() {
            let c = color(k);
            let normal = t.iter().map(|&i| normals[i as usize]).sum::<Vec3>().try_normalize();
            self.push(Prim::Tri { p: t.map(|i| points[i as usize]), color: c, back: Some(c.scale(0.82)), normal });
        }
    }
}

fn pieces(length: f32) -> usize {
    ((length / PIECE).ceil() as usize).max(1)
}

fn polygon(points: &[(f32, f32)]) -> Option<Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(points[0].0, points[0].1);
    for &(x, y) in &points[1..] {
        pb.line_to(x, y);
    }
    pb.close();
    pb.finish()
}

fn line(a: (f32, f32), b: (f32, f32)) -> Option<Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    // A zero-length line draws nothing; a hair of length draws its caps.
    pb.line_to(b.0 + if a == b { 0.01 } else { 0.0 }, b.1);
    pb.finish()
}

fn stroke(width: f32) -> Stroke {
    Stroke { width, line_cap: LineCap::Round, ..Stroke::default() }
}

/// Keeps the part of a view-space polygon in front of the near plane
/// (Sutherland-Hodgman against one plane).
fn clip_near(poly: &[Vec3]) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for (k, &a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        let (ina, inb) = (a.z > NEAR, b.z > NEAR);
        if ina {
            out.push(a);
        }
        if ina != inb {
            out.push(a.lerp(b, (NEAR - a.z) / (b.z - a.z)));
        }
    }
    out
}

/// Sky, and the ground plane at height `ground` as tiles of two shades:
/// drawn once per scene, since the camera does not move.
pub fn backdrop(camera: &Camera, width: u32, height: u32, ground: Option<f32>) -> Pixmap {
    let mut pixmap = Pixmap::new(width, height).expect("a picture of non-zero size");
    let [r, g, b, a] = SKY.rgba8();
    pixmap.fill(Color::from_rgba8(r, g, b, a));
    let Some(y) = ground else { return pixmap };
    let n = (2.0 * GROUND_REACH / GROUND_TILE) as i32;
    let origin = (camera.target.x / GROUND_TILE).round() as i32 - n / 2;
    let origin_z = (camera.target.z / GROUND_TILE).round() as i32 - n / 2;
    for i in origin..origin + n {
        for j in origin_z..origin_z + n {
            let (x0, z0) = (i as f32 * GROUND_TILE, j as f32 * GROUND_TILE);
            let (x1, z1) = (x0 + GROUND_TILE, z0 + GROUND_TILE);
            let corners = [Vec3::new(x0, y, z0), Vec3::new(x1, y, z0), Vec3::new(x1, y, z1), Vec3::new(x0, y, z1)];
            let view: Vec<Vec3> = corners.iter().map(|&p| camera.view(p)).collect();
            let clipped = clip_near(&view);
            if clipped.len() < 3 {
                continue;
            }
            let depth = camera.view(Vec3::new(x0 + 0.5 * GROUND_TILE, y, z0 + 0.5 * GROUND_TILE)).z;
            let tone = if (i + j).rem_euclid(2) == 0 { GROUND_LIGHT } else { GROUND_DARK };
            let color = tone.mix(SKY, fog(depth.max(0.0)));
            let screen: Vec<(f32, f32)> = clipped.iter().map(|&v| camera.screen(v)).collect();
            if let Some(path) = polygon(&screen) {
                let paint = color.paint();
                pixmap.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
                // A hairline of the same colour closes the seams anti-aliasing
                // leaves between neighbours.
                pixmap.stroke_path(&path, &paint, &stroke(0.6), Transform::identity(), None);
            }
        }
    }
    pixmap
}

/// Draws a frame: the backdrop, the shadows on the ground (if any), then the
/// primitives back to front.
pub fn render(backdrop: &Pixmap, camera: &Camera, ground: Option<f32>, picture: &Picture) -> Pixmap {
    let mut pixmap = backdrop.clone();
    if let Some(y) = ground {
        let shadows = shadow_layer(camera, backdrop.width(), backdrop.height(), y, picture);
        let paint = PixmapPaint { opacity: SHADOW_OPACITY, ..PixmapPaint::default() };
        pixmap.draw_pixmap(0, 0, shadows.as_ref(), &paint, Transform::identity(), None);
    }
    let mut order: Vec<(f32, &Prim)> = picture
        .prims
        .iter()
        .map(|(prim, bias)| {
            let centre = match *prim {
                Prim::Tri { p, .. } => (p[0] + p[1] + p[2]) / 3.0,
                Prim::Capsule { a, b, .. } => 0.5 * (a + b),
                Prim::Ball { c, .. } => c,
            };
            (camera.view(centre).z + bias, prim)
        })
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (depth, prim) in order {
        draw(&mut pixmap, camera, depth, prim);
    }
    pixmap
}

fn draw(pixmap: &mut Pixmap, camera: &Camera, depth: f32, prim: &Prim) {
    let id = Transform::identity();
    let fade = fog(depth);
    match *prim {
        Prim::Tri { p, color, back, normal } => {
            let Some(s) = p.iter().map(|&q| camera.project(q)).collect::<Option<Vec<_>>>() else { return };
            let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
            let mut normal = normal.unwrap_or(face);
            let mut color = color;
            if face.dot(camera.eye - p[0]) < 0.0 {
                let Some(back) = back else { return };
                normal = -normal;
                color = back;
            }
            let shade = color.scale(lambert(normal)).mix(SKY, fade);
            let Some(path) = polygon(&[(s[0].0, s[0].1), (s[1].0, s[1].1), (s[2].0, s[2].1)]) else { return };
            let paint = shade.paint();
            pixmap.fill_path(&path, &paint, FillRule::Winding, id, None);
            pixmap.stroke_path(&path, &paint, &stroke(0.6), id, None);
        }
        Prim::Capsule { a, b, radius, color, outline } => {
            let (Some(sa), Some(sb)) = (camera.project(a), camera.project(b)) else { return };
            let width = (2.0 * radius * camera.focal / (0.5 * (sa.2 + sb.2))).max(1.0);
            let axis = (b - a).normalize_or_zero();
            // The brightest line along a lit cylinder faces the light's part
            // across its axis.
            let across = (light() - axis * light().dot(axis)).length();
            let shade = color.scale(AMBIENT + DIFFUSE * 0.8 * across).mix(SKY, fade);
            let (pa, pb) = ((sa.0, sa.1), (sb.0, sb.1));
            let Some(path) = line(pa, pb) else { return };
            if outline {
                let rim = color.scale(0.35).mix(SKY, fade);
                pixmap.stroke_path(&path, &rim.paint(), &stroke(width + 1.5), id, None);
            }
            pixmap.stroke_path(&path, &shade.paint(), &stroke(width), id, None);
            if width > 4.0 {
                // A highlight on the lit side, across the tube's screen axis.
                let lit = screen_light(camera);
                let dir = Vec3::new(pb.0 - pa.0, pb.1 - pa.1, 0.0).normalize_or_zero();
                let off = (lit - dir * lit.dot(dir)).normalize_or_zero() * 0.22 * width;
                let hl = line((pa.0 + off.x, pa.1 + off.y), (pb.0 + off.x, pb.1 + off.y));
                let glow = color.mix(Rgb(1.0, 1.0, 1.0), 0.35).mix(SKY, fade);
                if let Some(hl) = hl {
                    pixmap.stroke_path(&hl, &glow.paint(), &stroke(0.3 * width), id, None);
                }
            }
        }
        Prim::Ball { c, radius, color } => {
            let Some((x, y, z)) = camera.project(c) else { return };
            let r = (radius * camera.focal / z).max(0.75);
            let rim = color.scale(0.35).mix(SKY, fade);
            let body = color.scale(AMBIENT + 0.5 * DIFFUSE).mix(SKY, fade);
            let glow = color.mix(Rgb(1.0, 1.0, 1.0), 0.3).mix(SKY, fade);
            let lit = screen_light(camera) * 0.35 * r;
            for (cx, cy, rr, col) in [(x, y, r + 0.75, rim), (x, y, r, body), (x + lit.x, y + lit.y, 0.45 * r, glow)] {
                if let Some(path) = PathBuilder::from_circle(cx, cy, rr) {
                    pixmap.fill_path(&path, &col.paint(), FillRule::Winding, id, None);
                }
            }
        }
    }
}

/// The light's direction on screen (y down), unit.
fn screen_light(camera: &Camera) -> Vec3 {
    Vec3::new(light().dot(camera.right), -light().dot(camera.up), 0.0).normalize_or_zero()
}

/// The primitives' shadows on the plane at height `ground`, opaque.
fn shadow_layer(camera: &Camera, width: u32, height: u32, ground: f32, picture: &Picture) -> Pixmap {
    let mut layer = Pixmap::new(width, height).expect("a picture of non-zero size");
    let mut paint = Paint::default();
    paint.set_color_rgba8(20, 24, 32, 255);
    paint.anti_alias = true;
    let l = light();
    // Along the light down to the plane; points below it cast nothing.
    let drop = |p: Vec3| (p.y >= ground - 0.01).then(|| p - l * ((p.y - ground) / l.y));
    let on_screen = |p: Vec3| drop(p).and_then(|q| camera.project(q));
    let id = Transform::identity();
    for (prim, _) in &picture.prims {
        match *prim {
            Prim::Tri { p, .. } => {
                let Some(s) = p.iter().map(|&q| on_screen(q)).collect::<Option<Vec<_>>>() else { continue };
                if let Some(path) = polygon(&[(s[0].0, s[0].1), (s[1].0, s[1].1), (s[2].0, s[2].1)]) {
                    layer.fill_path(&path, &paint, FillRule::Winding, id, None);
                    layer.stroke_path(&path, &paint, &stroke(0.6), id, None);
                }
            }
            Prim::Capsule { a, b, radius, .. } => {
                let (Some(sa), Some(sb)) = (on_screen(a), on_screen(b)) else { continue };
                let width = (2.0 * radius * camera.focal / (0.5 * (sa.2 + sb.2))).max(1.0);
                if let Some(path) = line((sa.0, sa.1), (sb.0, sb.1)) {
                    layer.stroke_path(&path, &paint, &stroke(width), id, None);
                }
            }
            Prim::Ball { c, radius, .. } => {
                let Some((x, y, z)) = on_screen(c) else { continue };
                if let Some(path) = PathBuilder::from_circle(x, y, (radius * camera.focal / z).max(0.75)) {
                    layer.fill_path(&path, &paint, FillRule::Winding, id, None);
                }
            }
        }
    }
    layer
}

/// A filled rectangle in pixels (labels' backing).
pub fn panel(pixmap: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, color: Rgb, opacity: f32) {
    let (Some(rect), Some(fill)) = (Rect::from_xywh(x, y, w, h), Color::from_rgba(color.0, color.1, color.2, opacity))
    else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color(fill);
    pixmap.fill_rect(rect, &paint, Transform::identity(), None);
}
