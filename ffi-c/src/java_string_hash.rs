//! Java's `String.hashCode()` (Pulsar's `JavaStringHash`, the Java client's
//! default) and Java's lossy UTF-8 decoding.

use pulsar_routing_core::{
    java_lossy_utf8, java_string_hash, java_string_hash_bytes, java_string_hash_utf16,
    java_string_hashcode, java_string_hashcode_bytes, java_string_hashcode_utf16,
};

use crate::error::pulsar_routing_status;

/// Pulsar's `JavaStringHash.makeHash(String)`: `key.hashCode() & 0x7fffffff`,
/// over the UTF-16 code units of the key, as the Java routers hash a key.
///
/// - `key`, `len`: the key's UTF-8 bytes, without a NUL terminator; `key`
///   must not be NULL, even when `len` is 0.
/// - `hash_out`: receives the hash, in `0..=0x7fffffff`, on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `INVALID_UTF8` (for arbitrary bytes use
/// `pulsar_routing_java_string_hash_bytes`). Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hash_out` must be valid for
/// writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hash(
    key: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `key` and `hash_out`.
        unsafe { text_hash_into(key, len, hash_out, java_string_hash) }
    }
}

/// Java's `String.hashCode()` of the key, as the signed `int` Java returns.
///
/// Arguments and status codes as for `pulsar_routing_java_string_hash`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hashcode_out` must be valid
/// for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hashcode(
    key: *const u8,
    len: usize,
    hashcode_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `key` and `hashcode_out`.
        unsafe { text_hash_into(key, len, hashcode_out, java_string_hashcode) }
    }
}

/// The body of a hash of a key string: `hash` of the UTF-8 text of the
/// `len` bytes at `key`, written to `out`. Returns `OK`, `NULL_PARAMETER`
/// or `INVALID_UTF8`.
///
/// # Safety
/// A non-NULL `key` points to `len` readable bytes and a non-NULL `out` is
/// valid for writing.
unsafe fn text_hash_into<R>(
    key: *const u8,
    len: usize,
    out: *mut R,
    hash: impl FnOnce(&str) -> R,
) -> pulsar_routing_status {
    let key = try_slice!(key, len);
    let out = try_out!(out);
    out.write(hash(try_utf8!(key)));
    pulsar_routing_status::Ok
}

/// `String.hashCode() & 0x7fffffff` over raw UTF-16 code units, for callers
/// that hold Java strings (which may contain lone surrogates) as `uint16_t`
/// arrays.
///
/// - `units`, `len`: `len` code units (not bytes); `units` must not be NULL,
///   even when `len` is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `units` must point to `len` readable, aligned `uint16_t`s and `hash_out`
/// must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hash_utf16(
    units: *const u16,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `units` and `hash_out`.
        unsafe { crate::crc32::hash_into(units, len, hash_out, java_string_hash_utf16) }
    }
}

/// `String.hashCode()` over raw UTF-16 code units, as Java's signed `int`.
///
/// Arguments and status codes as for
/// `pulsar_routing_java_string_hash_utf16`. Thread-safe; allocates nothing.
///
/// # Safety
/// `units` must point to `len` readable, aligned `uint16_t`s and
/// `hashcode_out` must be valid for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hashcode_utf16(
    units: *const u16,
    len: usize,
    hashcode_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `units` and `hashcode_out`.
        unsafe { crate::crc32::hash_into(units, len, hashcode_out, java_string_hashcode_utf16) }
    }
}

/// Pulsar's `JavaStringHash.makeHash(byte[])`:
/// `new String(bytes, UTF_8).hashCode() & 0x7fffffff`, decoding malformed
/// UTF-8 the way Java does (see `pulsar_routing_java_lossy_utf8`). The
/// routers never take this path; they hash the key string.
///
/// - `bytes`, `len`: any bytes; `bytes` must not be NULL, even when `len`
///   is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `bytes` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hash_bytes(
    bytes: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `bytes` and `hash_out`.
        unsafe { crate::crc32::hash_into(bytes, len, hash_out, java_string_hash_bytes) }
    }
}

/// `new String(bytes, UTF_8).hashCode()`, as Java's signed `int`.
///
/// Arguments and status codes as for
/// `pulsar_routing_java_string_hash_bytes`. Thread-safe; allocates nothing.
///
/// # Safety
/// `bytes` must point to `len` readable bytes and `hashcode_out` must be
/// valid for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_string_hashcode_bytes(
    bytes: *const u8,
    len: usize,
    hashcode_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `bytes` and `hashcode_out`.
        unsafe { crate::crc32::hash_into(bytes, len, hashcode_out, java_string_hashcode_bytes) }
    }
}

/// Decodes `bytes` as `new String(bytes, UTF_8)` does in the JDK and writes
/// the result as UTF-8: each malformed sequence becomes U+FFFD, with Java's
/// rules for how many bytes one replacement covers (an encoded surrogate
/// such as `ED A0 80` is one U+FFFD, where most decoders give three).
///
/// - `bytes`, `len`: any bytes; `bytes` must not be NULL, even when `len`
///   is 0.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. No NUL terminator is written. `3 * len` bytes are
///   always enough.
/// - `written`: on success, the number of bytes written to `buf`.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length
/// (the one out-parameter written on failure). Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `bytes` must point to `len` readable bytes, `buf` must be valid for
/// writing `buf_len` bytes and not overlap `bytes`, and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_java_lossy_utf8(
    bytes: *const u8,
    len: usize,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let bytes = try_slice!(bytes, len);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        // Two passes over the decoder, so that a short buffer is reported
        // before anything is written to it.
        let needed = java_lossy_utf8(bytes).map(char::len_utf8).sum();
        try_fits!(buf, written, needed);
        let out = buf.prefix(needed);
        let mut at = 0;
        for c in java_lossy_utf8(bytes) {
            at += c.encode_utf8(&mut out[at..]).len();
        }
        written.write(at);
        pulsar_routing_status::Ok
    }
}
