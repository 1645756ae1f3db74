//! The partition routers, the check the Java producer applies to every
//! router's answer, and the producer settings that decide which router is
//! built.
//!
//! Every router routes a keyed message the same way (the key's hash modulo
//! the partition count); they differ for keyless messages. Time and the
//! random start index are arguments: nothing here reads a clock or a random
//! source.

use pulsar_routing_core::{PartitionCount, check_partition};

use crate::error::pulsar_routing_status;

pub mod custom;
pub mod mode;
pub mod round_robin;
pub mod single_partition;

/// The check `PartitionedProducerImpl` applies to every router's answer:
/// `0 <= partition < num_partitions`.
///
/// - `partition_out`: receives `partition` on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE`, `PARTITION_COUNT_TOO_LARGE` or
/// `ILLEGAL_PARTITION_INDEX`. Thread-safe; allocates nothing.
///
/// # Safety
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_check_partition(
    partition: i64,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        out.write(try_ok!(check_partition(partition, n)));
        pulsar_routing_status::Ok
    }
}
