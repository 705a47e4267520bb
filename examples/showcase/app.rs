//! Runs the scenes, times their steps, and writes the pictures: an animated
//! GIF per scene, a contact sheet of stills with captions, and, when asked,
//! one small still per scene (the README's).

use crate::encode;
use crate::label;
use crate::render::{self, Camera, Rgb};
use crate::scenes::{self, Counts, DT, Scene};
use std::error::Error;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tiny_skia::{Pixmap, PixmapPaint, Transform};

/// What to run and where to write.
#[derive(Debug, Clone)]
pub struct Options {
    /// The first seconds only, few frames, small pictures: the variant
    /// `cargo test` runs.
    pub quick: bool,
    /// The folder for the GIFs and the contact sheet.
    pub out: PathBuf,
    /// A folder for one small still per scene.
    pub stills: Option<PathBuf>,
}

/// Width and height in pixels.
pub type Size = (u32, u32);

/// GIF frames and contact-sheet tiles.
pub fn frame_size(quick: bool) -> Size {
    if quick { (150, 100) } else { (480, 320) }
}

/// The README's stills, whatever the variant.
pub const STILL_SIZE: Size = (360, 240);

/// Colours of a still: flat shading needs few, and they keep it small.
const STILL_COLORS: usize = 96;

/// Frames in a quick GIF.
pub const QUICK_FRAMES: u32 = 8;

/// Seconds of each scene the quick variant runs: where everything moves.
pub const QUICK_SECONDS: f32 = 2.0;

/// Tiles per row of the contact sheet for `tiles` tiles: 3 to 5, whichever
/// leaves the fewest empty places in the last row (the wider on a tie). Four
/// columns for eight scenes and the title left two thirds of a row empty.
fn sheet_columns(tiles: u32) -> u32 {
    (3..=5).min_by_key(|&c| (tiles.div_ceil(c) * c - tiles, u32::MAX - c)).expect("a non-empty range")
}

/// The contact sheet's size for `scenes` scenes and a title tile.
pub fn sheet_size(quick: bool, scenes: u32) -> Size {
    let (w, h) = frame_size(quick);
    let columns = sheet_columns(scenes + 1);
    (w * columns, h * (scenes + 1).div_ceil(columns))
}

/// What one scene did and wrote.
#[derive(Debug, Clone)]
pub struct SceneReport {
    pub name: &'static str,
    pub title: &'static str,
    pub counts: Counts,
    pub steps: u32,
    pub ms_per_step: f64,
    pub gif: PathBuf,
    pub frames: u32,
    pub still: Option<PathBuf>,
}

/// Everything a run wrote.
#[derive(Debug, Clone)]
pub struct Report {
    pub scenes: Vec<SceneReport>,
    pub sheet: PathBuf,
}

/// Runs every scene and writes its pictures.
pub fn run(options: &Options) -> Result<Report, Box<dyn Error>> {
    fs::create_dir_all(&options.out)?;
    if let Some(dir) = &options.stills {
        fs::create_dir_all(dir)?;
    }
    let makers = scenes::all();
    let size = frame_size(options.quick);
    let mut tiles = Vec::new();
    let mut reports = Vec::new();
    for make in makers {
        let mut scene = make()?;
        let (report, tile) = film(&mut scene, options)?;
        print_report(&report);
        tiles.push((tile, report.name, report.ms_per_step));
        reports.push(report);
    }
    let sheet_path = options.out.join("showcase.png");
    let sheet = contact_sheet(&tiles, size, sheet_size(options.quick, tiles.len() as u32))?;
    encode::png(&sheet_path, &sheet, 256)?;
    Ok(Report { scenes: reports, sheet: sheet_path })
}

fn print_report(r: &SceneReport) {
    let c = &r.counts;
    let n = |count: u32, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
    println!("\n== {}: {} ==", r.name, r.title);
    println!(
        "  {}; {} ({}, {}, {}, {}, {}); {}; {}",
        n(c.particles, "particle", "particles"),
        n(c.constraints(), "constraint", "constraints"),
        n(c.sticks, "stick", "sticks"),
        n(c.tethers, "tether", "tethers"),
        n(c.joints, "joint", "joints"),
        n(c.bones, "ragdoll bone", "ragdoll bones"),
        n(c.clusters, "shape-matched body", "shape-matched bodies"),
        n(c.collision_sticks, "collision stick", "collision sticks"),
        n(c.colliders, "collider", "colliders"),
    );
    println!("  {:.3} ms per step over {} steps; {} frames -> {}", r.ms_per_step, r.steps, r.frames, r.gif.display());
    if let Some(still) = &r.still {
        println!("  still -> {}", still.display());
    }
}

/// A camera and the scene's backdrop at one picture size.
struct View {
    camera: Camera,
    backdrop: Pixmap,
}

impl View {
    fn new(scene: &Scene, (w, h): Size) -> View {
        let s = scene.shot;
        let camera = Camera::new(s.eye, s.target, s.fov, w, h);
        View { backdrop: render::backdrop(&camera, w, h, scene.ground), camera }
    }

    fn render(&self, scene: &Scene, picture: &render::Picture) -> Pixmap {
        render::render(&self.backdrop, &self.camera, scene.ground, picture)
    }
}

/// Steps a scene to its end, rendering its frames and its stills; returns
/// the report and the contact sheet's tile.
fn film(scene: &mut Scene, options: &Options) -> Result<(SceneReport, Pixmap), Box<dyn Error>> {
    let counts = scene.counts()?;
    let seconds = if options.quick { scene.shot.seconds.min(QUICK_SECONDS) } else { scene.shot.seconds };
    let steps = (seconds / DT).round() as u32;
    // 20 frames a second, or a few spread over the whole run.
    let every = if options.quick { (steps / (QUICK_FRAMES - 1)).max(1) } else { 3 };
    let most = if options.quick { QUICK_FRAMES as usize } else { usize::MAX };
    let still_step = ((scene.shot.still_at / DT).round() as u32).min(steps);
    let size = frame_size(options.quick);
    let movie = View::new(scene, size);
    let still_view = options.stills.as_ref().map(|_| View::new(scene, STILL_SIZE));
    let mut frames = Vec::new();
    let mut tile = None;
    let mut still = None;
    let mut stepping = Duration::ZERO;
    for step in 0..=steps {
        let frame = step % every == 0 && frames.len() < most;
        if frame || step == still_step {
            let picture = scene.picture()?;
            let image = movie.render(scene, &picture);
            if step == still_step {
                tile = Some(image.clone());
                still = still_view.as_ref().map(|v| v.render(scene, &picture));
            }
            if frame {
                frames.push(image.take());
            }
        }
        if step < steps {
            scene.before_step(step)?;
            let start = Instant::now();
            scene.world.step(DT)?;
            stepping += start.elapsed();
        }
    }
    // A recovery in a sane scene is a bug.
    if scene.world.recovery_count() != 0 {
        return Err(format!("{}: {} islands recovered", scene.name, scene.world.recovery_count()).into());
    }
    let gif = options.out.join(format!("{}.gif", scene.name));
    // Frame delays are in hundredths of a second.
    let delay = if options.quick { 20 } else { (100.0 * every as f32 * DT).round() as u16 };
    encode::gif(&gif, size, &frames, delay)?;
    let still_path = match (&options.stills, still) {
        (Some(dir), Some(image)) => {
            let path = dir.join(format!("{}.png", scene.name));
            encode::png(&path, &image, STILL_COLORS)?;
            Some(path)
        }
        _ => None,
    };
    let report = SceneReport {
        name: scene.name,
        title: scene.title,
        counts,
        steps,
        ms_per_step: stepping.as_secs_f64() * 1000.0 / f64::from(steps.max(1)),
        gif,
        frames: frames.len() as u32,
        still: still_path,
    };
    Ok((report, tile.expect("the still step is within the run")))
}

/// The stills side by side with captions (name, ms per step), and a title
/// tile with the world's defaults.
fn contact_sheet(tiles: &[(Pixmap, &str, f64)], (w, h): Size, sheet: Size) -> Result<Pixmap, Box<dyn Error>> {
    let mut out = Pixmap::new(sheet.0, sheet.1).ok_or("empty contact sheet")?;
    let [r, g, b, a] = Rgb::hex(0x23272e).rgba8();
    out.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
    let scale = if w >= 300 { 2.0 } else { 1.0 };
    let bar = 11.0 * scale;
    let columns = sheet_columns(tiles.len() as u32 + 1);
    let place = |k: u32| ((k % columns * w) as f32, (k / columns * h) as f32);
    for (k, (tile, name, ms)) in tiles.iter().enumerate() {
        let (x, y) = place(k as u32);
        out.draw_pixmap(x as i32, y as i32, tile.as_ref(), &PixmapPaint::default(), Transform::identity(), None);
        render::panel(&mut out, x, y + h as f32 - bar, w as f32, bar, Rgb::hex(0x101418), 0.6);
        let caption = format!("{name}  {ms:.2} ms/step");
        label::text(&mut out, x + 2.0 * scale, y + h as f32 - bar + 2.0 * scale, scale, &caption, Rgb(1.0, 1.0, 1.0));
    }
    // The title takes the last row's remaining places, so no empty place is left dark.
    let (x, y) = place(tiles.len() as u32);
    let span = columns - tiles.len() as u32 % columns;
    let w = w * span;
    let settings = sinew::WorldSettings::default();
    let lines = [
        "sinew showcase".to_string(),
        format!(
            "{} substeps x {} iteration{}",
            settings.substeps,
            settings.iterations,
            if settings.iterations == 1 { "" } else { "s" }
        ),
        format!("60 Hz, gravity {:.2}", -settings.gravity.y),
        "library defaults".to_string(),
    ];
    for (k, line) in lines.iter().enumerate() {
        let s = if k == 0 { 2.0 * scale } else { scale };
        let top = y + 0.2 * h as f32 + k as f32 * 14.0 * scale + if k > 0 { 8.0 * scale } else { 0.0 };
        let left = x + 0.5 * (w as f32 - label::width(line, s));
        label::text(&mut out, left, top, s, line, Rgb::hex(0xe8ecf1));
    }
    Ok(out)
}
