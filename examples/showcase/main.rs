//! The README's first command: `cargo run --release --example showcase`.
//!
//! Runs ten scenes headless on the library's default world settings (a flag
//! in wind, a curtain over a sphere and a box, a ragdoll down stairs, a
//! character following its animation through motors, shoved, a cape on a ragdoll in
//! wind, a box pyramid knocked over, a rope bridge, chains on
//! a mesh terrain, humanoids piling up, a blanket over a body), prints each one's particle and constraint counts and the
//! time per step, and renders them with a small software renderer
//! (`render.rs`): an animated GIF per scene and a contact sheet of stills,
//! `showcase.png`, in `target/showcase/`. The scenes (`scenes.rs`) use only
//! sinew's public Rust API.
//!
//! ```text
//! showcase [--quick] [--out DIR] [--stills DIR]
//!   --quick        the first 2 s of each scene, 8 small frames (what `cargo test` runs)
//!   --out DIR      where to write (default target/showcase, or $SINEW_SHOWCASE_OUT)
//!   --stills DIR   also one small still per scene (the README's docs/showcase)
//! ```

mod app;
mod encode;
mod label;
mod render;
mod scenes;

use std::path::PathBuf;

fn usage() -> ! {
    eprintln!("usage: showcase [--quick] [--out DIR] [--stills DIR]");
    std::process::exit(2);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let default_out = std::env::var_os("SINEW_SHOWCASE_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("showcase"));
    let mut options = app::Options { quick: false, out: default_out, stills: None };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--out" => options.out = args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "--stills" => options.stills = Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let settings = sinew::WorldSettings::default();
    println!(
        "sinew {}: every scene on the default world settings ({} substeps x {} iteration at 60 Hz, gravity {}, \
         damping {}); pictures -> {}",
        env!("CARGO_PKG_VERSION"),
        settings.substeps,
        settings.iterations,
        settings.gravity.y,
        settings.damping,
        options.out.display()
    );
    let report = app::run(&options)?;
    let (w, h) = app::frame_size(options.quick);
    println!("\nWrote {} GIFs of {w}x{h} and the contact sheet {}", report.scenes.len(), report.sheet.display());
    Ok(())
}
