//! Deterministic pseudo-random numbers for the geometry unit tests (no rand
//! crate): the same sequence on every machine.

use glam::{Quat, Vec3};

/// Knuth's MMIX linear congruential generator: floats in [0, 1).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A point in [0, scale)^3.
    pub fn vec(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.next(), self.next(), self.next()) * scale
    }

    /// A point in [-scale, scale)^3.
    pub fn centered(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.next() - 0.5, self.next() - 0.5, self.next() - 0.5) * (2.0 * scale)
    }
}

/// xorshift64*: floats in [-1, 1).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u32 << 23) as f32 - 1.0
    }

    pub fn vec(&mut self) -> Vec3 {
        Vec3::new(self.next(), self.next(), self.next())
    }

    pub fn rotation(&mut self) -> Quat {
        Quat::from_axis_angle(self.vec().normalize_or(Vec3::X), 3.0 * self.next())
    }
}
