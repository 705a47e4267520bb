//! Build script: tells the tests which target they run on (they compile the C
//! examples with the `cc` crate, which needs it). Writes nothing outside OUT_DIR.

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo:rustc-env=SINEW_BUILD_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
