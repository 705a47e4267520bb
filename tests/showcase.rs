//! The showcase (`examples/showcase/`, the README's first command) in its
//! quick variant: every scene runs on the library's defaults and writes its
//! GIF; the GIFs, the contact sheet and the stills decode, have the sizes the
//! showcase promises, are not blank, and the scenes move from frame to frame.
//!
//! The example's modules are compiled into this test as they are, so what
//! runs here is the example's code, not a copy.

#[path = "../examples/showcase/app.rs"]
mod app;
#[path = "../examples/showcase/encode.rs"]
mod encode;
#[path = "../examples/showcase/label.rs"]
mod label;
#[path = "../examples/showcase/render.rs"]
mod render;
#[path = "../examples/showcase/scenes.rs"]
mod scenes;

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// More than this fraction of a picture must differ from the sky.
const MIN_CONTENT: f64 = 0.05;
/// At least this many distinct colours: shading, not a flat fill.
const MIN_COLORS: usize = 8;
/// Consecutive frames differ in at least this fraction of their pixels.
const MIN_MOTION: f64 = 0.005;
/// The README's stills stay small.
const MAX_STILL_BYTES: u64 = 60_000;

/// Opaque RGBA pictures of a GIF, and its size.
fn gif_frames(path: &Path) -> ((u32, u32), Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(File::open(path).unwrap()).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let size = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap_or_else(|e| panic!("{path:?}: {e}")) {
        assert_eq!((u32::from(frame.width), u32::from(frame.height)), size, "{path:?}: a partial frame");
        frames.push(frame.buffer.to_vec());
    }
    (size, frames)
}

/// A PNG as RGBA, and its size.
fn png_pixels(path: &Path) -> ((u32, u32), Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::BufReader::new(File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    assert_eq!(info.color_type, png::ColorType::Rgba, "{path:?}");
    buf.truncate(info.buffer_size());
    ((info.width, info.height), buf)
}

fn pixels(rgba: &[u8]) -> impl Iterator<Item = [u8; 3]> + '_ {
    rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]])
}

/// Checks that a picture shows something: enough of it is not sky, in
/// enough colours.
fn assert_not_blank(what: &str, rgba: &[u8]) {
    let [r, g, b, _] = render::SKY.rgba8();
    let far = |p: [u8; 3]| p[0].abs_diff(r) as u32 + p[1].abs_diff(g) as u32 + p[2].abs_diff(b) as u32 > 24;
    let total = rgba.len() / 4;
    let content = pixels(rgba).filter(|&p| far(p)).count() as f64 / total as f64;
    let colors: HashSet<[u8; 3]> = pixels(rgba).collect();
    assert!(content > MIN_CONTENT, "{what}: only {:.1} % of the picture is not sky", 100.0 * content);
    assert!(colors.len() >= MIN_COLORS, "{what}: only {} colours", colors.len());
}

fn changed(a: &[u8], b: &[u8]) -> f64 {
    pixels(a).zip(pixels(b)).filter(|(p, q)| p != q).count() as f64 / (a.len() / 4) as f64
}

#[test]
fn the_quick_showcase_writes_every_picture_and_the_scenes_move() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("showcase");
    let _ = std::fs::remove_dir_all(&out);
    let stills = out.join("stills");
    let start = Instant::now();
    let report = app::run(&app::Options { quick: true, out: out.clone(), stills: Some(stills.clone()) }).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    println!("quick showcase: {seconds:.1} s");

    let expected = scenes::all().len();
    assert_eq!(report.scenes.len(), expected);
    let names: HashSet<&str> = report.scenes.iter().map(|s| s.name).collect();
    assert_eq!(names.len(), expected, "scene names must be distinct: {names:?}");
    let size = app::frame_size(true);
    for scene in &report.scenes {
        let c = &scene.counts;
        assert!(c.particles > 0 && c.constraints() > 0, "{}: {c:?}", scene.name);
        assert!(scene.ms_per_step.is_finite() && scene.ms_per_step > 0.0, "{}: {} ms", scene.name, scene.ms_per_step);

        assert_eq!(scene.gif, out.join(format!("{}.gif", scene.name)));
        let (gif_size, frames) = gif_frames(&scene.gif);
        assert_eq!(gif_size, size, "{}", scene.name);
        assert_eq!(frames.len() as u32, app::QUICK_FRAMES, "{}", scene.name);
        assert_eq!(scene.frames, app::QUICK_FRAMES, "{}", scene.name);
        for (k, frame) in frames.iter().enumerate() {
            assert_eq!(frame.len() as u32, 4 * size.0 * size.1);
            assert_not_blank(&format!("{} frame {k}", scene.name), frame);
        }
        let motion: Vec<f64> = frames.windows(2).map(|pair| changed(&pair[0], &pair[1])).collect();
        println!("{}: {:.1} ms per step; pixels changed between frames: {motion:.3?}", scene.name, scene.ms_per_step);
        for (k, m) in motion.iter().enumerate() {
            assert!(*m > MIN_MOTION, "{}: frames {k} and {} are alike ({m:.4} of pixels changed)", scene.name, k + 1);
        }

        let still = scene.still.as_ref().expect("stills were asked for");
        assert_eq!(*still, stills.join(format!("{}.png", scene.name)));
        let bytes = std::fs::metadata(still).unwrap().len();
        assert!(bytes < MAX_STILL_BYTES, "{still:?} is {bytes} bytes");
        let (still_size, rgba) = png_pixels(still);
        assert_eq!(still_size, app::STILL_SIZE, "{still:?}");
        assert_not_blank(&format!("{} still", scene.name), &rgba);
    }

    assert_eq!(report.sheet, out.join("showcase.png"));
    let (sheet_size, rgba) = png_pixels(&report.sheet);
    assert_eq!(sheet_size, app::sheet_size(true, expected as u32));
    assert_not_blank("contact sheet", &rgba);
}
