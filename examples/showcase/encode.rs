//! Writing pictures: an animated GIF with one palette for all its frames,
//! and indexed-colour PNGs (a flat-shaded picture needs few colours, and the
//! README's stills stay a few tens of KB).

use std::borrow::Cow;
use std::error::Error;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use tiny_skia::Pixmap;

/// A palette quantised (NeuQuant) from sample pixels, and the nearest entry
/// per colour at 6 bits a channel, each found once.
struct Palette {
    quant: color_quant::NeuQuant,
    nearest: Vec<u16>,
}

impl Palette {
    /// From opaque RGBA bytes.
    fn new(colors: usize, sample: &[u8]) -> Palette {
        Palette { quant: color_quant::NeuQuant::new(10, colors, sample), nearest: vec![u16::MAX; 1 << 18] }
    }

    fn rgb(&self) -> Vec<u8> {
        self.quant.color_map_rgb()
    }

    /// One index per RGBA pixel.
    fn indices(&mut self, rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| {
                let key = (usize::from(p[0] >> 2) << 12) | (usize::from(p[1] >> 2) << 6) | usize::from(p[2] >> 2);
                if self.nearest[key] == u16::MAX {
                    self.nearest[key] = self.quant.index_of(p) as u16;
                }
                self.nearest[key] as u8
            })
            .collect()
    }
}

/// Writes an endlessly looping GIF of opaque RGBA frames, `delay` hundredths
/// of a second each. One palette serves every frame (quantised from a sample
/// of them), so colours do not flicker and a still scene gives equal frames.
pub fn gif(path: &Path, (w, h): (u32, u32), frames: &[Vec<u8>], delay: u16) -> Result<(), Box<dyn Error>> {
    let stride = (frames.len() / 6).max(1);
    let sample: Vec<u8> = frames.iter().step_by(stride).flatten().copied().collect();
    let mut palette = Palette::new(256, &sample);
    let (w, h) = (u16::try_from(w)?, u16::try_from(h)?);
    let mut encoder = gif::Encoder::new(BufWriter::new(File::create(path)?), w, h, &palette.rgb())?;
    encoder.set_repeat(gif::Repeat::Infinite)?;
    for rgba in frames {
        let buffer = Cow::Owned(palette.indices(rgba));
        encoder.write_frame(&gif::Frame { width: w, height: h, buffer, delay, ..gif::Frame::default() })?;
    }
    Ok(())
}

/// Writes an opaque picture as an 8-bit indexed PNG of at most `colors`
/// colours.
pub fn png(path: &Path, pixmap: &Pixmap, colors: usize) -> Result<(), Box<dyn Error>> {
    let mut palette = Palette::new(colors, pixmap.data());
    let mut encoder = png::Encoder::new(BufWriter::new(File::create(path)?), pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.rgb());
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&palette.indices(pixmap.data()))?;
    writer.finish()?;
    Ok(())
}
