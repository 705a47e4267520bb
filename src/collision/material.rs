//! Surface materials: static and dynamic Coulomb friction and restitution,
//! per collider and (optionally) per body, and the rule that combines them.
//!
//! A body without a material of its own takes the collider's coefficients as
//! they are; a body with one meets each collider under that collider's
//! combine rule (as PhysX and Unity do: average by default).

/// How a collider's coefficient and a body's are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum Combine {
    /// (a + b) / 2.
    #[default]
    Average = 0,
    /// min(a, b).
    Min = 1,
    /// a * b.
    Multiply = 2,
    /// max(a, b).
    Max = 3,
}

impl Combine {
    pub(crate) fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::Average),
            1 => Some(Self::Min),
            2 => Some(Self::Multiply),
            3 => Some(Self::Max),
            _ => None,
        }
    }

    #[inline(always)]
    fn apply(self, a: f32, b: f32) -> f32 {
        match self {
            Combine::Average => 0.5 * (a + b),
            Combine::Min => a.min(b),
            Combine::Multiply => a * b,
            Combine::Max => a.max(b),
        }
    }
}

/// Friction and restitution of a surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Static Coulomb coefficient: a contact whose tangential motion over a
    /// substep is within `friction * depth` stops.
    pub friction: f32,
    /// Dynamic (sliding) Coulomb coefficient: otherwise the tangential
    /// motion shrinks by `dynamic_friction * depth`.
    pub dynamic_friction: f32,
    /// Fraction of the approach speed given back along the normal, in [0, 1].
    pub restitution: f32,
    /// How the collider's coefficients meet a body's (the collider's rule
    /// wins; a body's own rule is not used).
    pub combine: Combine,
}

impl Material {
    /// One Coulomb coefficient for sliding and sticking, no bounce.
    pub fn coulomb(friction: f32) -> Self {
        Material { friction, dynamic_friction: friction, restitution: 0.0, combine: Combine::Average }
    }

    /// The coefficients a contact of this (collider) material with a body of
    /// material `body` uses: (static, dynamic, restitution).
    #[inline(always)]
    pub fn against(&self, body: Option<&Material>) -> (f32, f32, f32) {
        match body {
            None => (self.friction, self.dynamic_friction, self.restitution),
            Some(b) => (
                self.combine.apply(self.friction, b.friction),
                self.combine.apply(self.dynamic_friction, b.dynamic_friction),
                self.combine.apply(self.restitution, b.restitution),
            ),
        }
    }

    /// Checks the coefficients (finite, >= 0, restitution <= 1).
    pub(crate) fn validate(&self, what: &str) -> crate::Result<()> {
        use crate::error::{Error, non_negative};
        non_negative(self.friction, &format!("{what}.friction"))?;
        non_negative(self.dynamic_friction, &format!("{what}.dynamic_friction"))?;
        non_negative(self.restitution, &format!("{what}.restitution"))?;
        if self.restitution > 1.0 {
            return Err(Error::invalid_argument(format!(
                "{what}.restitution must be in [0, 1], got {}",
                self.restitution
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_without_material_takes_the_colliders() {
        let m = Material { friction: 0.8, dynamic_friction: 0.5, restitution: 0.3, combine: Combine::Max };
        assert_eq!(m.against(None), (0.8, 0.5, 0.3));
    }

    #[test]
    fn the_colliders_rule_combines() {
        let body = Material { friction: 0.2, dynamic_friction: 0.1, restitution: 1.0, combine: Combine::Max };
        let mut m = Material { friction: 0.8, dynamic_friction: 0.5, restitution: 0.0, combine: Combine::Average };
        assert_eq!(m.against(Some(&body)), (0.5, 0.3, 0.5));
        m.combine = Combine::Min;
        assert_eq!(m.against(Some(&body)), (0.2, 0.1, 0.0));
        m.combine = Combine::Multiply;
        let (s, d, e) = m.against(Some(&body));
        assert!((s - 0.16).abs() < 1e-7 && (d - 0.05).abs() < 1e-7 && e == 0.0);
        m.combine = Combine::Max;
        assert_eq!(m.against(Some(&body)), (0.8, 0.5, 1.0));
    }
}
