//! Which hash a producer applies to message keys (Java's `HashingScheme`).

use core::ffi::c_char;

use pulsar_routing_core::HashingScheme;

use crate::error::{enum_from_c, enum_to_c, pulsar_routing_status};

/// A hashing scheme: one of the `PULSAR_ROUTING_HASHING_SCHEME_*` values.
///
/// An integer rather than a C enum so that every function can reject an
/// unknown value with `PULSAR_ROUTING_STATUS_UNKNOWN_HASHING_SCHEME`
/// instead of trusting it.
pub type pulsar_routing_hashing_scheme = u32;

/// `String.hashCode() & 0x7fffffff` over the UTF-16 code units of the key:
/// Java's `HashingScheme.JavaStringHash`, the Java client's default.
pub const PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING: pulsar_routing_hashing_scheme = 0;

/// MurmurHash3 x86_32, seed 0, over the UTF-8 bytes of the key, masked to 31
/// bits: Java's `HashingScheme.Murmur3_32Hash`, the one scheme on which the
/// Java, C++ and Go clients agree for every key.
pub const PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32: pulsar_routing_hashing_scheme = 1;

/// The core schemes, each at the index of its C value.
const SCHEMES: [HashingScheme; 2] = [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash];

/// The core scheme for a C value.
pub(crate) fn scheme_from_c(
    scheme: pulsar_routing_hashing_scheme,
) -> Result<HashingScheme, pulsar_routing_status> {
    enum_from_c(
        &SCHEMES,
        scheme,
        pulsar_routing_status::UnknownHashingScheme,
    )
}

/// Parses a hashing scheme name: `"java_string"` or `"murmur3_32"`, or Java's
/// enum constant names `"JavaStringHash"` and `"Murmur3_32Hash"`.
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `scheme_out`: receives the scheme on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_HASHING_SCHEME` (also for
/// bytes that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `scheme_out` must be valid
/// for writing a `pulsar_routing_hashing_scheme`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_hashing_scheme_from_name(
    name: *const u8,
    len: usize,
    scheme_out: *mut pulsar_routing_hashing_scheme,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let name = try_slice!(name, len);
        let out = try_out!(scheme_out);
        // No scheme has a name that is not UTF-8.
        let Ok(name) = core::str::from_utf8(name) else {
            return pulsar_routing_status::UnknownHashingScheme;
        };
        let scheme: HashingScheme = try_ok!(name.parse());
        out.write(enum_to_c(&SCHEMES, scheme));
        pulsar_routing_status::Ok
    }
}

/// The short name of a hashing scheme, `"java_string"` or `"murmur3_32"`, as
/// a static NUL-terminated string; NULL for an unknown value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_hashing_scheme_name(
    scheme: pulsar_routing_hashing_scheme,
) -> *const c_char {
    ffi_panic_boundary! {
        scheme_from_c(scheme).map_or(core::ptr::null(), |s| s.c_name().as_ptr())
    }
}

/// Hashes a key string under a scheme: the 31-bit value that every router
/// reduces modulo the partition count for `key(String)`.
///
/// - `key`, `len`: the key's UTF-8 bytes, without a NUL terminator; `key`
///   must not be NULL, even when `len` is 0 (the empty key hashes to 0).
/// - `hash_out`: receives the hash, in `0..=0x7fffffff`, on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_HASHING_SCHEME` or
/// `INVALID_UTF8`. Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hash_out` must be valid for
/// writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_hashing_scheme_hash(
    scheme: pulsar_routing_hashing_scheme,
    key: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(hash_out);
        let scheme = try_ok!(scheme_from_c(scheme));
        let key = try_utf8!(key);
        out.write(scheme.hash_str(key));
        pulsar_routing_status::Ok
    }
}
