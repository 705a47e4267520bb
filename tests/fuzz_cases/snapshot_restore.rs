//! `snapshot_restore`: the bytes are a snapshot image given to
//! `World::restore`, as they are and again with the header's length and
//! checksum made to match the payload (else nearly every mutation stops at
//! the checksum). A refused image leaves the world byte for byte as it was;
//! an accepted one re-snapshots to a canonical image (its restore snapshots
//! to the same bytes and hashes alike), steps with finite positions and
//! velocities, and the stepped world's own snapshot is accepted.
//!
//! The format is canonical for what the library writes (the seeds round-trip
//! byte for byte, `tests/fuzz_regressions.rs` checks it) but not for every
//! image it accepts: extensions may come in any order or repeat, and a
//! `max_constraints` of 0 may be written out, which the writer leaves out.
//! So an accepted image is checked to reach a fixed point after one round.

use sinew::{Vec3, World, WorldSettings};

/// Magic, format, payload length, checksum (`src/snapshot.rs`).
const HEADER: usize = 24;

/// FNV-1a, 64 bits: the snapshot's checksum (`src/hash.rs`).
fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// `image` with its header's length and checksum made to match its payload,
/// when they do not already.
pub fn with_header_fixed(image: &[u8]) -> Option<Vec<u8>> {
    if image.len() < HEADER {
        return None;
    }
    let mut fixed = image.to_vec();
    fixed[8..16].copy_from_slice(&((image.len() - HEADER) as u64).to_le_bytes());
    fixed[16..24].copy_from_slice(&fnv64(&image[HEADER..]).to_le_bytes());
    (fixed != image).then_some(fixed)
}

pub fn run(data: &[u8]) {
    restore(data);
    if let Some(fixed) = with_header_fixed(data) {
        restore(&fixed);
    }
}

/// A world with something in it, for a refused restore to leave alone.
fn small_world() -> World {
    let mut w = World::new(WorldSettings::default()).expect("default settings");
    w.create_particles(&[Vec3::Y, Vec3::new(1.0, 2.0, 0.0)], None).expect("two particles");
    w
}

/// Restores `image` over a small world; returns whether it was accepted.
pub fn restore(image: &[u8]) -> bool {
    let mut w = small_world();
    let before = w.snapshot();
    if w.restore(image).is_err() {
        assert!(w.snapshot() == before, "a refused image changed the world");
        return false;
    }
    let once = w.snapshot();
    let mut again = small_world();
    if let Err(e) = again.restore(&once) {
        panic!("an accepted image re-snapshots to one that is refused: {e}");
    }
    assert_eq!(again.state_hash(), w.state_hash(), "an accepted image's re-snapshot hashes differently");
    assert!(again.snapshot() == once, "an accepted image's re-snapshot does not snapshot to itself");
    for _ in 0..2 {
        if let Err(e) = w.step(1.0 / 60.0) {
            panic!("an accepted image does not step: {e}");
        }
    }
    assert_finite(&w);
    let stepped = w.snapshot();
    let mut copy = small_world();
    if let Err(e) = copy.restore(&stepped) {
        panic!("a world restored from an accepted image and stepped snapshots to a refused image: {e}");
    }
    assert_eq!(copy.state_hash(), w.state_hash(), "the stepped world's snapshot hashes differently");
    true
}

/// Every body's positions and velocities are finite.
pub fn assert_finite(w: &World) {
    for id in w.bodies() {
        let positions = w.positions(id).expect("a live body");
        assert!(positions.into_iter().all(|p| p.is_finite()), "a non-finite position");
        let velocities = w.velocities(id).expect("a live body");
        assert!(velocities.into_iter().all(|v| v.is_finite()), "a non-finite velocity");
    }
}
