//! MurmurHash3 x86_32 with seed 0: Pulsar's `Murmur3_32Hash`, one-shot and
//! streaming.

use pulsar_routing_core::{Murmur3Hasher, murmur3_32, murmur3_32_raw};

use crate::error::pulsar_routing_status;

/// Pulsar's `Murmur3_32Hash` of `data`: MurmurHash3 x86_32, seed 0, masked
/// to 31 bits, as the Java client computes it for routing.
///
/// - `data`, `len`: the bytes; `data` must not be NULL, even when `len` is 0.
/// - `hash_out`: receives the hash, in `0..=0x7fffffff`, on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `data` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_murmur3_32(
    data: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `data` and `hash_out`.
        unsafe { crate::crc32::hash_into(data, len, hash_out, murmur3_32) }
    }
}

/// The raw MurmurHash3 x86_32 (seed 0) of `data`, all 32 bits (Java's
/// `Murmur3_32Hash.makeRawHash`, as an unsigned number).
///
/// - `data`, `len`: the bytes; `data` must not be NULL, even when `len` is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `data` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_murmur3_32_raw(
    data: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `data` and `hash_out`.
        unsafe { crate::crc32::hash_into(data, len, hash_out, murmur3_32_raw) }
    }
}

/// Streaming MurmurHash3 x86_32 (seed 0) state, allocated by the caller: on
/// the stack, inside another struct, anywhere. There is no heap allocation
/// and no free function; dropping it is just forgetting it.
///
/// Its size (32 bytes) and alignment (that of `uint64_t`) are part of
/// the ABI; its contents
/// are private. Initialise it with `pulsar_routing_murmur3_hasher_init`
/// before any other use. Copying an initialised hasher (assignment or
/// `memcpy`) forks the stream. One hasher must not be used by two threads at
/// once; distinct hashers are independent.
#[repr(C)]
pub struct pulsar_routing_murmur3_hasher {
    _opaque: [u64; 4],
}

inline_castable!(pulsar_routing_murmur3_hasher => Murmur3Hasher);

impl pulsar_routing_murmur3_hasher {
    /// Initialises (or resets) `hasher` to the state with no input.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Allocates nothing. Writes `hasher`
    /// only: not thread-safe for that hasher, independent of all others.
    ///
    /// # Safety
    /// `hasher` must be valid for writing a `pulsar_routing_murmur3_hasher`;
    /// it may be uninitialised.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_murmur3_hasher_init(
        hasher: *mut pulsar_routing_murmur3_hasher,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher`.
            unsafe { crate::crc32::init_into(hasher, Murmur3Hasher::new()) }
        }
    }

    /// Feeds `len` more bytes. Any chunking gives the same hash as
    /// `pulsar_routing_murmur3_32_raw` over the concatenation.
    ///
    /// Returns `OK` or `NULL_PARAMETER` (`hasher` or `data` NULL; `data` must
    /// not be NULL even when `len` is 0), and then leaves the state unchanged.
    /// Allocates nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_murmur3_hasher_init` and not be in use by another
    /// thread; `data` must point to `len` readable bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_murmur3_hasher_update(
        hasher: *mut pulsar_routing_murmur3_hasher,
        data: *const u8,
        len: usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let data = try_slice!(data, len);
            try_inline_mut!(hasher).update(data);
            pulsar_routing_status::Ok
        }
    }

    /// The 31-bit (Pulsar-masked) hash of everything fed so far, as
    /// `pulsar_routing_murmur3_32` gives; the hasher can go on.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Allocates nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_murmur3_hasher_init` and not be modified by another
    /// thread meanwhile; `hash_out` must be valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_murmur3_hasher_finalize(
        hasher: *const pulsar_routing_murmur3_hasher,
        hash_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher` and `hash_out`.
            unsafe { crate::crc32::finalize_into(hasher, hash_out, Murmur3Hasher::finalize) }
        }
    }

    /// The raw 32-bit hash of everything fed so far, as
    /// `pulsar_routing_murmur3_32_raw` gives; the hasher can go on.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Allocates nothing.
    ///
    /// # Safety
    /// As for `pulsar_routing_murmur3_hasher_finalize`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_murmur3_hasher_finalize_raw(
        hasher: *const pulsar_routing_murmur3_hasher,
        hash_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher` and `hash_out`.
            unsafe { crate::crc32::finalize_into(hasher, hash_out, Murmur3Hasher::finalize_raw) }
        }
    }
}
