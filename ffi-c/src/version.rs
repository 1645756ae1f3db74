//! The library version. The header carries the same version as the
//! `PULSAR_ROUTING_VERSION_*` macros (set in `ffi-c/cbindgen.toml`);
//! `ffi-c/src/tests/version.rs` keeps both equal to Cargo's.

use core::ffi::{CStr, c_char};

/// The version of the library, `"MAJOR.MINOR.PATCH"`, as a static
/// NUL-terminated string.
///
/// Compare it with the header's `PULSAR_ROUTING_VERSION_*` macros to detect
/// a header and library from different releases. There is no ABI stability
/// guarantee between versions.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing; never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_version() -> *const c_char {
    // Inside the function, where cbindgen does not look for constants.
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(version) => version,
            Err(_) => panic!("the crate version contains a NUL byte"),
        };
    ffi_panic_boundary! { VERSION.as_ptr() }
}
