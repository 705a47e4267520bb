//! Explosions (Jakobsen, "Motion control"): every particle near a point is
//! pushed away from it, inversely proportional to its squared distance.

use crate::error::{Error, Result, finite_vec, non_negative};
use crate::world::World;
use glam::Vec3;

/// Distances below this count as this (metres): a particle on the centre
/// would otherwise get an infinite push.
pub const MIN_DISTANCE: f32 = 0.1;

impl World {
    /// Pushes every free particle within `radius` of `center` away from it:
    /// its velocity gains `strength / max(d, 0.1 m)^2` (m/s) along the line
    /// from the centre, `d` being its distance; a particle on the centre is
    /// pushed up (+Y). Pinned particles do not move. The bodies touched wake
    /// up. Returns how many particles were pushed.
    pub fn explode(&mut self, center: Vec3, strength: f32, radius: f32) -> Result<u32> {
        let center = finite_vec(center, "center")?;
        self.explode_from(|origin, x| origin + x - center, strength, radius)
    }

    /// [`World::explode`] with each particle's offset from the centre given
    /// by `from_center(origin, x)` (`origin` its body's frame, `x` its
    /// position in it), the centre checked by the caller.
    pub(crate) fn explode_from(
        &mut self,
        from_center: impl Fn(Vec3, Vec3) -> Vec3,
        strength: f32,
        radius: f32,
    ) -> Result<u32> {
        non_negative(strength, "strength")?;
        non_negative(radius, "radius")?;
        if !(strength.is_finite() && radius.is_finite()) {
            return Err(Error::invalid_argument(format!(
                "strength and radius must be finite, got {strength} and {radius}"
            )));
        }
        let mut pushed = 0u32;
        let World { bodies, particles, .. } = self;
        for body in bodies.values_mut() {
            let mut touched = false;
            for i in body.first..body.first + body.count {
                let d = from_center(body.origin, particles.position(i));
                let dist = d.length();
                if dist > radius || particles.inv_mass[i] == 0.0 {
                    continue;
                }
                let away = if dist > 1.0e-6 { d / dist } else { Vec3::Y };
                let dv = away * (strength / dist.max(MIN_DISTANCE).powi(2));
                particles.set_velocity(i, particles.velocity(i) + dv);
                touched = true;
                pushed = pushed.saturating_add(1);
            }
            if touched {
                body.wake();
            }
        }
        Ok(pushed)
    }
}
