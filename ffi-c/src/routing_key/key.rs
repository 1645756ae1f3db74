//! A message's partition key as the Java producer sets it, and the
//! partition a keyed message goes to.

use core::ptr;

use pulsar_routing_core::{
    HashingScheme, PartitionCount, PartitionCountError, RoutingKey, java_string_hash, murmur3_32,
    partition_for_key_bytes,
};

use crate::error::pulsar_routing_status;
use crate::routing_key::{pulsar_routing_hashing_scheme, scheme_from_c};

/// What kind of key a `pulsar_routing_key` holds: one of the
/// `PULSAR_ROUTING_KEY_KIND_*` values.
pub type pulsar_routing_key_kind = u32;

/// No partition key (Java: no key, `key(null)` or `keyBytes(null)`): the
/// router's keyless rule places the message. `data` and `len` are ignored
/// and may be NULL and 0.
pub const PULSAR_ROUTING_KEY_KIND_NONE: pulsar_routing_key_kind = 0;

/// A key string (Java: `key(String)`): `data` holds its UTF-8 bytes. The
/// empty string is a key, which hashes to 0.
pub const PULSAR_ROUTING_KEY_KIND_STRING: pulsar_routing_key_kind = 1;

/// A binary key (Java: `keyBytes(byte[])`): `data` holds the raw bytes, and
/// the routers hash their padded standard Base64 text, as Java does.
pub const PULSAR_ROUTING_KEY_KIND_BYTES: pulsar_routing_key_kind = 2;

/// A key string held as UTF-16 code units (Java: `key(String)`, the string
/// as Java holds it): `data` is the address of the first `uint16_t` unit,
/// cast to `const uint8_t *`, and `len` the number of **units**, not bytes.
/// The units may hold lone surrogates, which no UTF-8 key can: the
/// JavaStringHash scheme hashes the units as `String.hashCode()` does, and
/// Murmur3_32Hash hashes their UTF-8 form with `?` for each lone surrogate,
/// as `getBytes(UTF_8)` does. `data` must be aligned for `uint16_t`
/// (`MISALIGNED_POINTER` otherwise).
pub const PULSAR_ROUTING_KEY_KIND_UTF16: pulsar_routing_key_kind = 3;

/// A message's partition key, borrowed from the caller.
///
/// Build it in place, e.g.
/// `pulsar_routing_key key = {PULSAR_ROUTING_KEY_KIND_STRING, (const uint8_t *)"user-42", 7};`.
/// For every kind but `PULSAR_ROUTING_KEY_KIND_NONE`, `data` must not be
/// NULL, even when `len` is 0, and must stay valid and unchanged during the
/// call that receives the key. For `PULSAR_ROUTING_KEY_KIND_UTF16` it
/// points to `len` aligned `uint16_t` units.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_key {
    /// One of the `PULSAR_ROUTING_KEY_KIND_*` values.
    pub kind: pulsar_routing_key_kind,
    /// The key's bytes, not NUL-terminated, or for
    /// `PULSAR_ROUTING_KEY_KIND_UTF16` its `uint16_t` units. Unused for
    /// `PULSAR_ROUTING_KEY_KIND_NONE`.
    pub data: *const u8,
    /// The number of bytes at `data`, or of units for
    /// `PULSAR_ROUTING_KEY_KIND_UTF16`.
    pub len: usize,
}

impl pulsar_routing_key {
    /// The core key this C key describes.
    ///
    /// # Safety
    /// For the STRING and BYTES kinds, a non-NULL `data` points to `len`
    /// bytes, and for the UTF16 kind a non-NULL, aligned `data` points to
    /// `len` `u16`s, that stay unchanged during `'a`.
    pub(crate) unsafe fn to_core<'a>(self) -> Result<RoutingKey<'a>, pulsar_routing_status> {
        let bytes = || {
            // SAFETY: this function's contract.
            unsafe { crate::ffi::slice_from_raw(self.data, self.len) }
                .ok_or(pulsar_routing_status::NullParameter)
        };
        match self.kind {
            PULSAR_ROUTING_KEY_KIND_NONE => Ok(RoutingKey::None),
            PULSAR_ROUTING_KEY_KIND_STRING => core::str::from_utf8(bytes()?)
                .map(RoutingKey::Key)
                .map_err(|_| pulsar_routing_status::InvalidUtf8),
            PULSAR_ROUTING_KEY_KIND_BYTES => Ok(RoutingKey::KeyBytes(bytes()?)),
            PULSAR_ROUTING_KEY_KIND_UTF16 => {
                let units = self.data.cast::<u16>();
                // NULL counts as aligned; it is rejected just below.
                if !units.is_aligned() {
                    return Err(pulsar_routing_status::MisalignedPointer);
                }
                // SAFETY: this function's contract; the alignment was just
                // checked.
                unsafe { crate::ffi::slice_from_raw(units, self.len) }
                    .map(RoutingKey::KeyUtf16)
                    .ok_or(pulsar_routing_status::NullParameter)
            }
            _ => Err(pulsar_routing_status::UnknownKeyKind),
        }
    }

    /// The C view of a core key, for the custom router's callback.
    pub(crate) fn from_core(key: RoutingKey<'_>) -> Self {
        let (kind, data, len) = match key {
            RoutingKey::None => (PULSAR_ROUTING_KEY_KIND_NONE, ptr::null(), 0),
            RoutingKey::Key(text) => (PULSAR_ROUTING_KEY_KIND_STRING, text.as_ptr(), text.len()),
            RoutingKey::KeyBytes(bytes) => {
                (PULSAR_ROUTING_KEY_KIND_BYTES, bytes.as_ptr(), bytes.len())
            }
            RoutingKey::KeyUtf16(units) => (
                PULSAR_ROUTING_KEY_KIND_UTF16,
                units.as_ptr().cast::<u8>(),
                units.len(),
            ),
        };
        Self { kind, data, len }
    }

    /// The 31-bit hash a router reduces for this key: the hash of the key
    /// string, or of the Base64 text of the key bytes.
    ///
    /// - `key`: the key; see `pulsar_routing_key` for its rules.
    /// - `hash_out`: receives the hash, in `0..=0x7fffffff`, on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` (`key.data` NULL for a STRING, BYTES
    /// or UTF16 key), `UNKNOWN_KEY_KIND`, `INVALID_UTF8` (a STRING key that
    /// is not UTF-8), `MISALIGNED_POINTER` (a UTF16 key's `data`),
    /// `UNKNOWN_HASHING_SCHEME`, or `NO_KEY` for a NONE key.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `key.data` must be as `pulsar_routing_key` describes, and `hash_out`
    /// valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_key_hash(
        key: pulsar_routing_key,
        scheme: pulsar_routing_hashing_scheme,
        hash_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(hash_out);
            // SAFETY: the caller's contract on `key.data`.
            let key = try_ok!(unsafe { key.to_core() });
            let scheme = try_ok!(scheme_from_c(scheme));
            out.write(try_ok!(key.hash(scheme).ok_or(pulsar_routing_status::NoKey)));
            pulsar_routing_status::Ok
        }
    }

    /// The partition a keyed message goes to, as every Java router computes
    /// it: the key's hash modulo `num_partitions`.
    ///
    /// - `key`: the key; see `pulsar_routing_key` for its rules.
    /// - `num_partitions`: the topic's partition count, 1 to 2147483647.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_KEY_KIND`, `INVALID_UTF8`,
    /// `MISALIGNED_POINTER`,
    /// `UNKNOWN_HASHING_SCHEME`, `PARTITION_COUNT_ZERO`,
    /// `PARTITION_COUNT_NEGATIVE`, `PARTITION_COUNT_TOO_LARGE`, or `NO_KEY`
    /// for a NONE key. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `key.data` must be as `pulsar_routing_key` describes, and
    /// `partition_out` valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_key_partition(
        key: pulsar_routing_key,
        scheme: pulsar_routing_hashing_scheme,
        num_partitions: i64,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key.data`.
            let key = try_ok!(unsafe { key.to_core() });
            let scheme = try_ok!(scheme_from_c(scheme));
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            out.write(try_ok!(key.partition(scheme, n).ok_or(pulsar_routing_status::NoKey)));
            pulsar_routing_status::Ok
        }
    }
}

/// The partition of a message sent with `key(key)`: the key's hash under
/// `scheme` modulo `num_partitions`, as every Java router computes it.
///
/// - `key`, `len`: the key's UTF-8 bytes, without a NUL terminator; `key`
///   must not be NULL, even when `len` is 0 (the empty key goes to 0).
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition on success.
///
/// Bytes that are not UTF-8: `PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32`
/// hashes the bytes as they are, without looking at them, and gives the
/// partition the C++ client gives for the same `std::string`;
/// `PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING` hashes UTF-16 units, which
/// only text has, and returns `INVALID_UTF8` (a Java `String` cannot hold
/// such bytes; `pulsar_routing_java_string_hash_bytes` decodes them as
/// `new String(bytes, UTF_8)` would).
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8` (JavaStringHash only),
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
/// `PARTITION_COUNT_TOO_LARGE` or `UNKNOWN_HASHING_SCHEME`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `partition_out` must be
/// valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partition_for_key(
    key: *const u8,
    len: usize,
    num_partitions: i64,
    scheme: pulsar_routing_hashing_scheme,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    // The hot call, Murmur3 with good arguments, is one test per argument,
    // the hash and a divide, with its own panic boundary that has nothing
    // to record. Everything else (JavaStringHash, and every error with its
    // message for `pulsar_routing_last_error_message`) is a tail call to
    // the full path: its frame and its thread-local writes would otherwise
    // cost the hot call a prologue and register saves.
    if scheme == crate::routing_key::PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32
        && !key.is_null()
        && !partition_out.is_null()
        && let Ok(n) = one_shot_count(num_partitions)
    {
        return ffi_panic_boundary! {
            let key = try_slice!(key, len);
            let out = try_out!(partition_out);
            // One key, one count: the divide instruction is cheaper than the
            // multiplier `PartitionCount` would compute for its fast
            // reduction (itself a 64-bit divide), and gives the same
            // remainder.
            out.write(murmur3_32(key) % n);
            pulsar_routing_status::Ok
        };
    }
    // SAFETY: the same arguments, under the same contract.
    unsafe { partition_for_key_checked(key, len, num_partitions, scheme, partition_out) }
}

/// `pulsar_routing_partition_for_key` with every check in the documented
/// order: JavaStringHash keys, and every failure.
#[cold]
#[inline(never)]
unsafe fn partition_for_key_checked(
    key: *const u8,
    len: usize,
    num_partitions: i64,
    scheme: pulsar_routing_hashing_scheme,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(partition_out);
        let scheme = scheme_from_c(scheme);
        // The key comes first in parameter order, but whether its bytes are
        // wrong depends on the scheme: only JavaStringHash decodes them.
        let java = matches!(scheme, Ok(HashingScheme::JavaStringHash));
        let text = if java { Some(try_utf8!(key)) } else { None };
        let n = try_ok!(one_shot_count(num_partitions));
        let hash = match (try_ok!(scheme), text) {
            (HashingScheme::JavaStringHash, Some(text)) => java_string_hash(text),
            _ => murmur3_32(key),
        };
        out.write(hash % n);
        pulsar_routing_status::Ok
    }
}

/// `num_partitions` checked as [`PartitionCount::from_i64`] checks it (the
/// same errors), without computing the multiplier that only pays off when
/// one count reduces many hashes.
#[inline]
pub(crate) const fn one_shot_count(num_partitions: i64) -> Result<u32, PartitionCountError> {
    if num_partitions < 0 {
        Err(PartitionCountError::Negative)
    } else if num_partitions == 0 {
        Err(PartitionCountError::Zero)
    } else if num_partitions > PartitionCount::MAX as i64 {
        Err(PartitionCountError::TooLarge)
    } else {
        Ok(num_partitions as u32)
    }
}

/// The partition of a message sent with `keyBytes(key)`: the hash of the
/// padded standard Base64 text of the bytes, modulo `num_partitions`, as the
/// Java client computes it.
///
/// - `key`, `len`: the raw key bytes; `key` must not be NULL, even when
///   `len` is 0.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE`, `PARTITION_COUNT_TOO_LARGE` or
/// `UNKNOWN_HASHING_SCHEME`. Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `partition_out` must be
/// valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partition_for_key_bytes(
    key: *const u8,
    len: usize,
    num_partitions: i64,
    scheme: pulsar_routing_hashing_scheme,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(partition_out);
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        let scheme = try_ok!(scheme_from_c(scheme));
        out.write(partition_for_key_bytes(key, n, scheme));
        pulsar_routing_status::Ok
    }
}
