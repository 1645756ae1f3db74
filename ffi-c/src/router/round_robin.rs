//! `RoundRobinPartitionMessageRouterImpl`, the Java client's default router.

use pulsar_routing_core::{PartitionCount, RoundRobinRouter};

use crate::error::pulsar_routing_status;
use crate::ffi::{BoxCastable, free_box, to_boxed_mut_ptr};
use crate::routing_key::pulsar_routing_key;
use crate::routing_key::{pulsar_routing_hashing_scheme, scheme_from_c};

/// Java's default router (`RoundRobinPartitionMessageRouterImpl`), as an
/// opaque heap handle.
///
/// - A keyed message goes to the key's hash modulo the partition count.
/// - With batching, a keyless message goes to
///   `signSafeMod(now_ms / partition_switch_ms + start_partition_index, n)`.
/// - Without batching, a keyless message takes the next value of a wrapping
///   32-bit counter that starts at `start_partition_index`.
///
/// The counter is atomic: one router can be shared by any number of
/// threads without locking.
pub struct pulsar_routing_round_robin_router {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_round_robin_router {
    type RustType = RoundRobinRouter;
}

impl pulsar_routing_round_robin_router {
    /// Creates a router, as Java's `RoundRobinPartitionMessageRouterImpl(
    /// scheme, startPtnIdx, isBatchingEnabled, partitionSwitchMs)` does.
    ///
    /// - `scheme`: the hashing scheme for keyed messages.
    /// - `start_partition_index`: Java picks it at random in
    ///   `0 <= start < num_partitions` when the producer is created; pass
    ///   your own random number.
    /// - `batching_enabled`, `partition_switch_ms`: with batching, keyless
    ///   messages switch partition every `partition_switch_ms` milliseconds
    ///   of wall-clock time (clamped to at least 1, as Java does; see
    ///   `pulsar_routing_partition_switch_ms`); without, `partition_switch_ms`
    ///   is ignored.
    /// - `router_out`: on success, receives the new router, which the caller
    ///   owns and must release with
    ///   `pulsar_routing_round_robin_router_free`.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_HASHING_SCHEME`.
    /// Thread-safe. Allocates the router.
    ///
    /// # Safety
    /// `router_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_round_robin_router_new(
        scheme: pulsar_routing_hashing_scheme,
        start_partition_index: i32,
        batching_enabled: bool,
        partition_switch_ms: i64,
        router_out: *mut *mut pulsar_routing_round_robin_router,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(router_out);
            let scheme = try_ok!(scheme_from_c(scheme));
            let router = RoundRobinRouter::new(
                scheme,
                start_partition_index,
                batching_enabled,
                partition_switch_ms,
            );
            out.write(to_boxed_mut_ptr(router));
            pulsar_routing_status::Ok
        }
    }

    /// Chooses the partition of a message.
    ///
    /// - `router`: a router from `pulsar_routing_round_robin_router_new`.
    /// - `key`: the message's key; see `pulsar_routing_key`.
    /// - `num_partitions`: the topic's current partition count, 1 to
    ///   2147483647.
    /// - `now_ms`: the current time in Unix epoch milliseconds; read only for
    ///   a keyless message with batching enabled.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_KEY_KIND`, `INVALID_UTF8`,
    /// `MISALIGNED_POINTER`,
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
    /// `PARTITION_COUNT_TOO_LARGE`. A call that fails does not advance the
    /// keyless counter.
    ///
    /// Thread-safe: any number of threads may route through one router at
    /// once. Allocates nothing.
    ///
    /// # Safety
    /// `router` must be a live router from
    /// `pulsar_routing_round_robin_router_new`, `key.data` as
    /// `pulsar_routing_key` describes, and `partition_out` valid for writing
    /// a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_round_robin_router_choose_partition(
        router: *const pulsar_routing_round_robin_router,
        key: pulsar_routing_key,
        num_partitions: i64,
        now_ms: i64,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let router = try_box_ref!(router);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key.data`.
            let key = try_ok!(unsafe { key.to_core() });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            out.write(router.choose_partition(key, n, now_ms));
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
    /// `pulsar_routing_round_robin_router_new` that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_round_robin_router_free(
        router: *mut pulsar_routing_round_robin_router,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `router`.
            unsafe { free_box(router) }
        }
    }
}
