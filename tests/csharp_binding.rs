//! The Unity package's plain-C# layers (`bindings/unity/Runtime/Native`, the
//! generated P/Invoke layer, and `Runtime/Core`, the `World` wrapper) compiled
//! with Mono's `mcs -unsafe` (C# 7.2, stricter than Unity's 7.3, warnings as
//! errors) and run under `mono` against the library cargo built:
//! `tests/csharp/BindingTest.cs` checks struct sizes against Rust's, a pinned
//! pendulum's length, a particle resting on a sphere, readback through raw
//! pointers, snapshots, a grid cloth's normals and its vertices written into
//! an interleaved buffer, a welded mesh, a joint, sleep, particles attached
//! to a moving frame, a skinned cloth held by max distances and backstops in
//! 30 m/s wind, ragdolls (the preset fitted to a T-posed character through
//! `RagdollRig` reads back without a snap; motors bend an elbow and a knee to
//! a target pose in a second, a limp doll does not follow), and the codes
//! and messages of bad input. When Mono is not installed each test prints a
//! `SKIPPED` line (and fails when `CI` is set); `.ci/run` installs
//! mono-mcs and mono-runtime.

mod common;

use common::{have, header_functions, lib_dir, root, run};
use sinew::ffi::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn mono_missing(test: &str) -> bool {
    if have("mcs") && have("mono") {
        return false;
    }
    common::missing_tool(&format!("csharp_binding::{test}"), "Mono (mcs and mono)");
    true
}

/// The C# sources of the package that must compile without UnityEngine.
fn runtime_sources() -> Vec<PathBuf> {
    let mut files = vec![root().join("bindings/unity/Runtime/Native/Native.g.cs")];
    let core = root().join("bindings/unity/Runtime/Core");
    let mut core_files: Vec<PathBuf> = std::fs::read_dir(&core)
        .expect("Runtime/Core")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    core_files.sort();
    files.extend(core_files);
    files
}

fn mcs(args: &[&str], sources: &[PathBuf], out: &Path) {
    run(Command::new("mcs")
        .args(["-unsafe", "-langversion:7.2", "-warnaserror+", "-nologo"])
        .args(args)
        .arg(format!("-out:{}", out.display()))
        .args(sources));
}

#[test]
fn runtime_assembly_compiles_without_unity() {
    if mono_missing("runtime_assembly_compiles_without_unity") {
        return;
    }
    let out = common::out_dir("csharp").join("Sinew.dll");
    mcs(&["-target:library"], &runtime_sources(), &out);
    assert!(out.exists());
}

#[test]
fn binding_test_runs_under_mono() {
    if mono_missing("binding_test_runs_under_mono") {
        return;
    }
    let dir = common::out_dir("csharp");
    let exe = dir.join("BindingTest.exe");
    let mut sources = runtime_sources();
    sources.push(root().join("tests/csharp/BindingTest.cs"));
    mcs(&[], &sources, &exe);
    let sizes = [
        ("SinewVec3", size_of::<SinewVec3>()),
        ("SinewVec3d", size_of::<SinewVec3d>()),
        ("SinewTransformd", size_of::<SinewTransformd>()),
        ("SinewTargetd", size_of::<SinewTargetd>()),
        ("SinewQuat", size_of::<SinewQuat>()),
        ("SinewTransform", size_of::<SinewTransform>()),
        ("SinewBodyId", size_of::<SinewBodyId>()),
        ("SinewColliderId", size_of::<SinewColliderId>()),
        ("SinewDistanceConstraint", size_of::<SinewDistanceConstraint>()),
        ("SinewTarget", size_of::<SinewTarget>()),
        ("SinewWorldDef", size_of::<SinewWorldDef>()),
        ("SinewResult", size_of::<SinewResult>()),
        ("SinewJointId", size_of::<SinewJointId>()),
        ("SinewClothGridDef", size_of::<SinewClothGridDef>()),
        ("SinewClothMeshDef", size_of::<SinewClothMeshDef>()),
        ("SinewMaterial", size_of::<SinewMaterial>()),
        ("SinewColliderDef", size_of::<SinewColliderDef>()),
        ("SinewCollisionStick", size_of::<SinewCollisionStick>()),
        ("SinewContact", size_of::<SinewContact>()),
        ("SinewRayHit", size_of::<SinewRayHit>()),
        ("SinewColliderHit", size_of::<SinewColliderHit>()),
        ("SinewParticleHit", size_of::<SinewParticleHit>()),
        ("SinewContactd", size_of::<SinewContactd>()),
        ("SinewRayHitd", size_of::<SinewRayHitd>()),
        ("SinewColliderHitd", size_of::<SinewColliderHitd>()),
        ("SinewParticleHitd", size_of::<SinewParticleHitd>()),
    ];
    // Mono resolves [DllImport("sinew")] to libsinew.so through the loader's path.
    let text = run(Command::new("mono")
        .arg("--debug")
        .arg(&exe)
        .args(sizes.iter().map(|(name, size)| format!("{name}={size}")))
        .env("LD_LIBRARY_PATH", lib_dir())
        .env("DYLD_LIBRARY_PATH", lib_dir()));
    assert!(text.contains("all checks passed"), "{text}");
    assert!(text.contains("pendulum: largest length error"), "{text}");
    assert!(text.contains("particle on the sphere"), "{text}");
    assert!(text.contains("cloth, joints and sleep checked"), "{text}");
    assert!(text.contains("frames and skin checked"), "{text}");
    assert!(text.contains("ragdoll motors checked"), "{text}");
    assert!(text.contains("double precision checked"), "{text}");
}

/// `SinewCloth`, `SinewRagdoll` and `SinewWorldBehaviour` need UnityEngine; they are compiled
/// against hand-written stand-ins of the Unity API they use
/// (`tests/csharp/UnityStubs.cs`) and the real `Sinew` assembly. This checks
/// the C# and the calls into `Sinew.World`, not Unity's own signatures.
#[test]
fn components_compile_against_unity_api_stubs() {
    if mono_missing("components_compile_against_unity_api_stubs") {
        return;
    }
    let dir = common::out_dir("csharp");
    let sinew = dir.join("SinewForComponents.dll");
    mcs(&["-target:library"], &runtime_sources(), &sinew);
    let components = root().join("bindings/unity/Runtime/Components");
    let sources = [
        root().join("tests/csharp/UnityStubs.cs"),
        components.join("SinewCloth.cs"),
        components.join("SinewWorldBehaviour.cs"),
        components.join("SinewRagdoll.cs"),
    ];
    mcs(&["-target:library", &format!("-r:{}", sinew.display())], &sources, &dir.join("Sinew.Unity.Stubbed.dll"));
}

/// A new C function needs a World method (or a deliberate exclusion here).
#[test]
fn world_wraps_every_c_function() {
    let mut wrapper = String::new();
    for f in runtime_sources().iter().filter(|p| !p.ends_with("Native.g.cs")) {
        wrapper.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let missing: Vec<String> =
        header_functions().into_iter().filter(|f| !wrapper.contains(&format!("Native.{f}("))).collect();
    assert!(missing.is_empty(), "bindings/unity/Runtime/Core never calls {missing:?}");
}

#[test]
fn unity_package_version_matches_cargo() {
    let json = std::fs::read_to_string(root().join("bindings/unity/package.json")).unwrap();
    let line = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(json.contains(&line), "bindings/unity/package.json lacks {line}");
    let asmdef = std::fs::read_to_string(root().join("bindings/unity/Runtime/Sinew.asmdef")).unwrap();
    assert!(
        asmdef.contains("\"allowUnsafeCode\": true") && asmdef.contains("\"noEngineReferences\": true"),
        "{asmdef}"
    );
}
