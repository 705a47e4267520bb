//! Version, result names and the thread-local error message.

use super::boundary::last_error;
use super::types::*;
use std::ffi::c_char;

/// ABI version of this header and library; bumped on any incompatible change.
pub const SINEW_ABI_VERSION: u32 = 1;
/// Library version, major.
pub const SINEW_VERSION_MAJOR: u32 = 0;
/// Library version, minor.
pub const SINEW_VERSION_MINOR: u32 = 1;
/// Library version, patch.
pub const SINEW_VERSION_PATCH: u32 = 0;

/// The ABI version the library was built with. Compare it with
/// `SINEW_ABI_VERSION` from the header you compiled against; a mismatch means
/// the header and the library do not belong together.
///
/// Never fails; thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_abi_version() -> u32 {
    SINEW_ABI_VERSION
}

/// The name of a result code, e.g. `"SINEW_RESULT_INVALID_ID"`, or
/// `"SINEW_RESULT_UNKNOWN"` for a value that is not a code.
///
/// Returns a static NUL-terminated string (never NULL, never freed). Never
/// fails; thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_result_name(result: SinewResult) -> *const c_char {
    let name: &'static [u8] = match result {
        SINEW_RESULT_OK => b"SINEW_RESULT_OK\0",
        SINEW_RESULT_NULL_ARGUMENT => b"SINEW_RESULT_NULL_ARGUMENT\0",
        SINEW_RESULT_INVALID_ID => b"SINEW_RESULT_INVALID_ID\0",
        SINEW_RESULT_INVALID_ARGUMENT => b"SINEW_RESULT_INVALID_ARGUMENT\0",
        SINEW_RESULT_BUFFER_TOO_SMALL => b"SINEW_RESULT_BUFFER_TOO_SMALL\0",
        SINEW_RESULT_WRONG_KIND => b"SINEW_RESULT_WRONG_KIND\0",
        SINEW_RESULT_WORLD_LOCKED => b"SINEW_RESULT_WORLD_LOCKED\0",
        SINEW_RESULT_POISONED => b"SINEW_RESULT_POISONED\0",
        SINEW_RESULT_PANIC => b"SINEW_RESULT_PANIC\0",
        SINEW_RESULT_LIMIT_EXCEEDED => b"SINEW_RESULT_LIMIT_EXCEEDED\0",
        SINEW_RESULT_INCOMPATIBLE => b"SINEW_RESULT_INCOMPATIBLE\0",
        _ => b"SINEW_RESULT_UNKNOWN\0",
    };
    name.as_ptr().cast()
}

/// Copies the message of the last failed sinew call on this thread (UTF-8)
/// into `buffer`, with `snprintf` semantics: at most `capacity - 1` bytes and
/// a terminating NUL are written, and the full length of the message (without
/// the NUL) is returned, so a return value `>= capacity` means it was cut.
/// `buffer` may be NULL when `capacity` is 0 (a length query); a NULL `buffer`
/// with a non-zero capacity writes nothing.
///
/// The message is thread-local and stays until the next failed call on the
/// same thread (successful calls leave it alone); it is empty before any
/// failure. Never fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sinew_last_error_message(buffer: *mut c_char, capacity: usize) -> usize {
    let message = last_error();
    let bytes = message.as_bytes();
    if !buffer.is_null() && capacity > 0 {
        let n = bytes.len().min(capacity - 1);
        // SAFETY: the caller provides `capacity` writable bytes at `buffer`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.cast::<u8>(), n);
            *buffer.add(n) = 0;
        }
    }
    bytes.len()
}
