//! The names of the core's enumerations are kept once, as C strings, so
//! that the C ABI can hand them out as static NUL-terminated strings and
//! Rust and Python read the same bytes without the NUL.

use core::ffi::CStr;

/// `name` without its NUL. Every name is an ASCII literal, so the
/// conversion cannot fail; the fallback only keeps this free of panics.
pub(crate) const fn str_of(name: &'static CStr) -> &'static str {
    match core::str::from_utf8(name.to_bytes()) {
        Ok(s) => s,
        Err(_) => "",
    }
}
