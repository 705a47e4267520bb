//! A body: a contiguous range of particles and the constraints among them.

use crate::collision::Candidates;
use crate::constraints::distance::DistanceSet;
use crate::constraints::target::TargetSet;
use crate::particles::padded;
use std::ops::Range;

/// What built a body; calls meant for another kind return `WrongKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum BodyKind {
    /// A raw particle set with user constraints.
    Particles = 0,
}

impl BodyKind {
    pub(crate) fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::Particles),
            _ => None,
        }
    }
}

/// Topology and per-instance state of one body.
#[derive(Debug, Clone)]
pub struct Body {
    pub kind: BodyKind,
    /// First particle in the world's store (a multiple of `LANES`).
    pub first: usize,
    /// Real particles; the range is padded beyond them.
    pub count: usize,
    /// Collision radius of every particle of the body, metres.
    pub radius: f32,
    pub distances: DistanceSet,
    pub targets: TargetSet,
    /// Broad-phase result of the current step.
    pub candidates: Candidates,
}

impl Body {
    pub fn new(kind: BodyKind, first: usize, count: usize) -> Self {
        Body {
            kind,
            first,
            count,
            radius: 0.0,
            distances: DistanceSet::default(),
            targets: TargetSet::default(),
            candidates: Candidates::default(),
        }
    }

    /// The body's range of the store, padding included.
    pub fn range(&self) -> Range<usize> {
        self.first..self.first + padded(self.count)
    }
}
