//! Many keys routed in one call (the core's `batch` module), laid out as
//! Arrow lays out a string column: one byte buffer and `count + 1` offsets.
//! One call per batch is what makes routing from Go (one cgo call instead
//! of one per key) and from C++ or Arrow columns cheap.

use pulsar_routing_core::batch::{BatchError, KeyOffsets};
// The owned batch is the core's, in AVX2 lanes when the CPU has them.
use pulsar_routing_core::{HashingScheme, PartitionCount};
use pulsar_routing_owned::batch::partitions_for_keys;

use crate::error::pulsar_routing_status;
use crate::routing_key::{pulsar_routing_hashing_scheme, scheme_from_c};

/// The partition of every key of a batch, as `pulsar_routing_partition_for_key`
/// computes it one key at a time.
///
/// - `data`: the keys' bytes, back to back; it holds `offsets[count]`
///   bytes. Must not be NULL, even when every key is empty.
/// - `offsets`: `count + 1` offsets into `data`, Arrow's string layout:
///   key `i` is `data[offsets[i] .. offsets[i + 1]]`. They never decrease;
///   `offsets[0]` need not be 0 (a slice of a column). Must not be NULL,
///   even when `count` is 0 (it then holds one offset).
/// - `count`: the number of keys. 0 is a valid, empty batch: `OK`, and
///   nothing is written.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partitions_out`: `count` entries, receiving the partition of each key
///   on success. Must not be NULL, even when `count` is 0, and must not
///   overlap the inputs.
///
/// Bytes that are not UTF-8, as for the single call: Murmur3_32Hash hashes
/// them as they are (the C++ client's answer for the same `std::string`),
/// JavaStringHash refuses the batch with `INVALID_UTF8`.
///
/// Returns `OK`, `NULL_PARAMETER`, `BATCH_NO_OFFSETS` (`count` is
/// `SIZE_MAX`, so there cannot be `count + 1` offsets),
/// `BATCH_OFFSET_DECREASES`, `BATCH_OFFSET_PAST_END` (an offset above the
/// last one, which ends the data), `INVALID_UTF8` (JavaStringHash only),
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
/// `PARTITION_COUNT_TOO_LARGE` or `UNKNOWN_HASHING_SCHEME`, checked in that
/// order. A failed call writes nothing to `partitions_out`; right after it,
/// `pulsar_routing_last_error_message` names the first bad offset or key
/// (`key 3 is not valid UTF-8`). Thread-safe; allocates nothing; borrows
/// its inputs for the call only.
///
/// # Safety
/// `offsets` must point to `count + 1` readable `size_t`s, `data` to
/// `offsets[count]` readable bytes, and `partitions_out` must be valid for
/// writing `count` `uint32_t`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partitions_for_keys(
    data: *const u8,
    offsets: *const usize,
    count: usize,
    num_partitions: i64,
    scheme: pulsar_routing_hashing_scheme,
    partitions_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        if data.is_null() {
            return pulsar_routing_status::NullParameter;
        }
        let out = try_out_buf!(partitions_out, count);
        let Some(offsets_len) = count.checked_add(1) else {
            // No array has `SIZE_MAX + 1` elements.
            return pulsar_routing_status::BatchNoOffsets;
        };
        let offsets = try_slice!(offsets, offsets_len);
        // The last offset ends the data, so nothing past it is read.
        let data = try_slice!(data, offsets[count]);
        let keys = try_ok!(KeyOffsets::new(data, offsets));
        let scheme = scheme_from_c(scheme);
        // The core checks the text too, but only after `out` is zeroed for
        // it: checked here first, a refused batch writes nothing at all.
        if scheme == Ok(HashingScheme::JavaStringHash)
            && let Some(index) = keys.first_invalid_utf8()
        {
            return crate::last_error::fail(BatchError::InvalidUtf8 { index });
        }
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        let scheme = try_ok!(scheme);
        try_ok!(partitions_for_keys(keys, n, scheme, out.prefix(count)));
        pulsar_routing_status::Ok
    }
}
