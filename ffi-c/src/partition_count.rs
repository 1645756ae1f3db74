//! The partition count of a topic. Every function that takes one validates
//! it with the checks here, so a count is passed as a plain `int64_t`.

use pulsar_routing_core::PartitionCount;

use crate::error::pulsar_routing_status;

/// The largest partition count: Java holds partition counts in an `int`.
pub const PULSAR_ROUTING_PARTITION_COUNT_MAX: i64 = 2147483647;

/// Checks a partition count: valid counts are 1 to
/// `PULSAR_ROUTING_PARTITION_COUNT_MAX`.
///
/// Returns `OK`, `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_partition_count_validate(
    num_partitions: i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        try_ok!(PartitionCount::from_i64(num_partitions));
        pulsar_routing_status::Ok
    }
}

/// `x % num_partitions`: how a router reduces a key's 31-bit hash.
///
/// - `partition_out`: receives the result on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE` or `PARTITION_COUNT_TOO_LARGE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partition_count_reduce(
    num_partitions: i64,
    x: u32,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `partition_out`.
        unsafe { count_into(num_partitions, partition_out, |n| n.reduce(x)) }
    }
}

/// Java's `signSafeMod(x, num_partitions)` for a valid count: the floor
/// modulo, so a negative `x` (a wrapped round-robin counter) still lands in
/// `0 <= result < num_partitions`.
///
/// - `partition_out`: receives the result on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE` or `PARTITION_COUNT_TOO_LARGE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partition_count_sign_safe_mod(
    num_partitions: i64,
    x: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `partition_out`.
        unsafe { count_into(num_partitions, partition_out, |n| n.sign_safe_mod(x)) }
    }
}

/// The body of a function of a checked partition count: `f` of the
/// count, written to `out`. Returns `OK`, `NULL_PARAMETER` or the count's
/// error.
///
/// # Safety
/// A non-NULL `out` is valid for writing a `uint32_t`.
unsafe fn count_into(
    num_partitions: i64,
    out: *mut u32,
    f: impl FnOnce(PartitionCount) -> u32,
) -> pulsar_routing_status {
    let out = try_out!(out);
    let n = try_ok!(PartitionCount::from_i64(num_partitions));
    out.write(f(n));
    pulsar_routing_status::Ok
}
