//! CRC-32/IEEE: the hash the broker uses to place a topic in a namespace
//! bundle, one-shot and streaming; and the bodies every one-shot hash and
//! streaming hasher shares, whose entry points only name what they hash.

use pulsar_routing_core::{Crc32, crc32};

use crate::error::pulsar_routing_status;
use crate::ffi::InlineCastable;

/// The body of a one-shot hash: `hash` of the `len` elements at `data`,
/// written to `out`. Returns `OK` or `NULL_PARAMETER`.
///
/// # Safety
/// The calling entry point's contract: a non-NULL `data` points to `len`
/// readable elements and a non-NULL `out` is valid for writing.
#[inline]
pub(crate) unsafe fn hash_into<T, R>(
    data: *const T,
    len: usize,
    out: *mut R,
    hash: impl FnOnce(&[T]) -> R,
) -> pulsar_routing_status {
    let data = try_slice!(data, len);
    try_out!(out).write(hash(data));
    pulsar_routing_status::Ok
}

/// The body of a streaming hasher's `_init`: `hasher` set to `state`.
/// Returns `OK` or `NULL_PARAMETER`.
///
/// # Safety
/// `hasher` is NULL or valid for writing a `C`.
pub(crate) unsafe fn init_into<C: InlineCastable>(
    hasher: *mut C,
    state: C::RustType,
) -> pulsar_routing_status {
    // SAFETY: this function's contract.
    if unsafe { crate::ffi::inline_init(hasher, state) } {
        pulsar_routing_status::Ok
    } else {
        pulsar_routing_status::NullParameter
    }
}

/// The body of a streaming hasher's `_finalize`: what `finalize` reads
/// from the state, written to `out`. Returns `OK` or `NULL_PARAMETER`.
///
/// # Safety
/// The calling entry point's contract: a non-NULL `hasher` was initialised
/// and is not modified meanwhile, a non-NULL `out` is valid for writing.
#[inline]
pub(crate) unsafe fn finalize_into<C: InlineCastable, R>(
    hasher: *const C,
    out: *mut R,
    finalize: impl FnOnce(&C::RustType) -> R,
) -> pulsar_routing_status {
    let out = try_out!(out);
    out.write(finalize(try_inline_ref!(hasher)));
    pulsar_routing_status::Ok
}

/// CRC-32/IEEE (zlib's `crc32`, Guava's `Hashing.crc32()`) of `data`: the
/// broker's bundle hash of a topic name's UTF-8 bytes.
///
/// - `data`, `len`: the bytes; `data` must not be NULL, even when `len` is 0.
/// - `crc_out`: receives the CRC on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `data` must point to `len` readable bytes and `crc_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_crc32(
    data: *const u8,
    len: usize,
    crc_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `data` and `crc_out`.
        unsafe { crate::crc32::hash_into(data, len, crc_out, crc32) }
    }
}

/// Streaming CRC-32/IEEE state, allocated by the caller: on the stack,
/// inside another struct, anywhere. There is no heap allocation and no free
/// function; dropping it is just forgetting it.
///
/// Its size (32 bytes) and alignment (that of `uint64_t`) are part of
/// the ABI; its contents
/// are private. Initialise it with `pulsar_routing_crc32_hasher_init` before
/// any other use. Copying an initialised hasher (assignment or `memcpy`)
/// forks the stream. One hasher must not be used by two threads at once;
/// distinct hashers are independent.
#[repr(C)]
pub struct pulsar_routing_crc32_hasher {
    _opaque: [u64; 4],
}

inline_castable!(pulsar_routing_crc32_hasher => Crc32);

impl pulsar_routing_crc32_hasher {
    /// Initialises (or resets) `hasher` to the state with no input.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Allocates nothing. Writes `hasher`
    /// only: not thread-safe for that hasher, independent of all others.
    ///
    /// # Safety
    /// `hasher` must be valid for writing a `pulsar_routing_crc32_hasher`;
    /// it may be uninitialised.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_crc32_hasher_init(
        hasher: *mut pulsar_routing_crc32_hasher,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher`.
            unsafe { crate::crc32::init_into(hasher, Crc32::new()) }
        }
    }

    /// Feeds `len` more bytes. Any chunking gives the same CRC as
    /// `pulsar_routing_crc32` over the concatenation.
    ///
    /// Returns `OK` or `NULL_PARAMETER` (`hasher` or `data` NULL; `data` must
    /// not be NULL even when `len` is 0), and then leaves the state unchanged.
    /// Allocates nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_crc32_hasher_init` and not be in use by another
    /// thread; `data` must point to `len` readable bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_crc32_hasher_update(
        hasher: *mut pulsar_routing_crc32_hasher,
        data: *const u8,
        len: usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let data = try_slice!(data, len);
            try_inline_mut!(hasher).update(data);
            pulsar_routing_status::Ok
        }
    }

    /// The CRC of everything fed so far; the hasher can go on.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Allocates nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_crc32_hasher_init` and not be modified by another
    /// thread meanwhile; `crc_out` must be valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_crc32_hasher_finalize(
        hasher: *const pulsar_routing_crc32_hasher,
        crc_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher` and `crc_out`.
            unsafe { crate::crc32::finalize_into(hasher, crc_out, Crc32::finalize) }
        }
    }
}
