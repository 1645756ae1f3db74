//! `SinglePartitionMessageRouterImpl`.

use pulsar_routing_core::{PartitionCount, SinglePartitionRouter};

use crate::error::pulsar_routing_status;
use crate::ffi::{BoxCastable, free_box, to_boxed_mut_ptr};
use crate::routing_key::pulsar_routing_key;
use crate::routing_key::{pulsar_routing_hashing_scheme, scheme_from_c};

/// Java's `SinglePartitionMessageRouterImpl`, as an opaque heap handle:
/// keyed messages by the key's hash, as every router; keyless messages
/// always to one fixed partition.
///
/// The router is immutable: one router can be shared by any number of
/// threads.
pub struct pulsar_routing_single_partition_router {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_single_partition_router {
    type RustType = SinglePartitionRouter;
}

impl pulsar_routing_single_partition_router {
    /// Creates a router, as Java's `SinglePartitionMessageRouterImpl(
    /// partitionIndex, scheme)` does.
    ///
    /// - `scheme`: the hashing scheme for keyed messages.
    /// - `partition_index`: the partition of keyless messages. Java picks it
    ///   at random in `0 <= index < num_partitions` when the producer is
    ///   created. It is checked per message, against the partition count of
    ///   that call.
    /// - `router_out`: on success, receives the new router, which the caller
    ///   owns and must release with
    ///   `pulsar_routing_single_partition_router_free`.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_HASHING_SCHEME`.
    /// Thread-safe. Allocates the router.
    ///
    /// # Safety
    /// `router_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_single_partition_router_new(
        scheme: pulsar_routing_hashing_scheme,
        partition_index: i32,
        router_out: *mut *mut pulsar_routing_single_partition_router,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(router_out);
            let scheme = try_ok!(scheme_from_c(scheme));
            out.write(to_boxed_mut_ptr(SinglePartitionRouter::new(scheme, partition_index)));
            pulsar_routing_status::Ok
        }
    }

    /// Chooses the partition of a message.
    ///
    /// - `router`: a router from `pulsar_routing_single_partition_router_new`.
    /// - `key`: the message's key; see `pulsar_routing_key`.
    /// - `num_partitions`: the topic's current partition count, 1 to
    ///   2147483647.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_KEY_KIND`, `INVALID_UTF8`,
    /// `MISALIGNED_POINTER`,
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE`, or `ILLEGAL_PARTITION_INDEX` when a
    /// keyless message would go to a fixed index outside
    /// `0 <= index < num_partitions` (where the Java producer fails the
    /// send).
    ///
    /// Thread-safe: any number of threads may route through one router at
    /// once. Allocates nothing.
    ///
    /// # Safety
    /// `router` must be a live router from
    /// `pulsar_routing_single_partition_router_new`, `key.data` as
    /// `pulsar_routing_key` describes, and `partition_out` valid for writing
    /// a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_single_partition_router_choose_partition(
        router: *const pulsar_routing_single_partition_router,
        key: pulsar_routing_key,
        num_partitions: i64,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let router = try_box_ref!(router);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key.data`.
            let key = try_ok!(unsafe { key.to_core() });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            out.write(try_ok!(router.choose_partition(key, n)));
            pulsar_routing_status::Ok
        }
    }

    /// Releases a router. NULL is a no-op.
    ///
    /// No other thread may be using the router, and it must not be used or
    /// freed again afterwards.
    ///
    /// # Safety
    /// `router` must be NULL or a router from
    /// `pulsar_routing_single_partition_router_new` that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_single_partition_router_free(
        router: *mut pulsar_routing_single_partition_router,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `router`.
            unsafe { free_box(router) }
        }
    }
}
