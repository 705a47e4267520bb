//! The core's error type. The C ABI maps [`ErrorKind`] to `SinewResult` codes.

use std::fmt;

/// What went wrong, in the categories the C ABI reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A body or collider id that is null, destroyed, or from another world.
    InvalidId,
    /// NaN/inf, an out-of-range index or enum value, a bad def.
    InvalidArgument,
    /// A configured limit (`max_particles`, ...) or an addressable one.
    LimitExceeded,
    /// A call that does not apply to this kind of body.
    WrongKind,
    /// A snapshot of another version, or a corrupted one.
    Incompatible,
}

/// An error with a message meant for the engine programmer reading a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The category.
    pub kind: ErrorKind,
    /// A human-readable explanation naming the offending argument.
    pub message: String,
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, message: message.into() }
    }
    pub(crate) fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }
    pub(crate) fn invalid_id(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidId, message)
    }
    pub(crate) fn wrong_kind(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::WrongKind, message)
    }
    pub(crate) fn limit(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::LimitExceeded, message)
    }
    pub(crate) fn incompatible(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Incompatible, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Checks that a float entering the core is finite.
pub(crate) fn finite(value: f32, what: &str) -> Result<f32> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::invalid_argument(format!("{what} must be finite, got {value}")))
    }
}

/// The largest coordinate (or vector component) accepted, metres: beyond it
/// the squares of distances come close to `f32::MAX` and a step could
/// overflow. (f32 resolves 0.1 m only up to about 1e6 m anyway.)
pub(crate) const MAX_COORDINATE: f32 = 1e15;

/// Largest speed a step keeps (m/s): beyond it, or non-finite, the island
/// is recovered. As generous as the coordinates.
pub(crate) const MAX_SPEED: f32 = 1e15;

/// Checks that a vector entering the core is finite and within
/// [`MAX_COORDINATE`].
pub(crate) fn finite_vec(v: glam::Vec3, what: &str) -> Result<glam::Vec3> {
    if v.is_finite() && v.abs().max_element() <= MAX_COORDINATE {
        Ok(v)
    } else {
        Err(Error::invalid_argument(format!("{what} must be finite and within +-{MAX_COORDINATE:e}, got {v}")))
    }
}

/// Checks a non-negative finite float (compliance, friction, radius).
pub(crate) fn non_negative(value: f32, what: &str) -> Result<f32> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::invalid_argument(format!("{what} must be finite and >= 0, got {value}")))
    }
}

/// Checks a positive finite float (radius, half extent, dt).
pub(crate) fn positive(value: f32, what: &str) -> Result<f32> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(Error::invalid_argument(format!("{what} must be finite and > 0, got {value}")))
    }
}

/// Whether `adding` more fit under `limit` beside `current` (0 = no limit).
pub(crate) fn limit_ok(limit: u32, current: usize, adding: usize) -> bool {
    limit == 0 || current.saturating_add(adding) <= limit as usize
}

/// Normalises an engine's rotation; a zero or non-finite quaternion is refused.
pub(crate) fn unit_rotation(q: glam::Quat, what: &str) -> Result<glam::Quat> {
    let len = q.length();
    if !q.is_finite() || !len.is_finite() || len < 1e-6 {
        return Err(Error::invalid_argument(format!("{what} must be a finite, non-zero quaternion, got {q}")));
    }
    // Already unit (within 1e-6): kept as given, so normalising is idempotent
    // and a rotation stored in a snapshot rebuilds the same bits.
    if (len - 1.0).abs() <= 1e-6 { Ok(q) } else { Ok(q / len) }
}
