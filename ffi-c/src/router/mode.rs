//! Producer configuration that decides which router is built, with the Java
//! builder's validation and messages.

use pulsar_routing_core::{MessageRoutingMode, partition_switch_ms, resolve_routing_mode};

use crate::error::{enum_from_c, enum_to_c, pulsar_routing_status};

/// A producer's routing mode (Java's `MessageRoutingMode`): one of the
/// `PULSAR_ROUTING_MESSAGE_ROUTING_MODE_*` values.
pub type pulsar_routing_message_routing_mode = u32;

/// Keyed by hash, keyless round-robin: `pulsar_routing_round_robin_router`.
/// Java's default.
pub const PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION:
    pulsar_routing_message_routing_mode = 0;

/// Keyed by hash, keyless to one fixed partition:
/// `pulsar_routing_single_partition_router`.
pub const PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION:
    pulsar_routing_message_routing_mode = 1;

/// A user-supplied router: `pulsar_routing_custom_router`.
pub const PULSAR_ROUTING_MESSAGE_ROUTING_MODE_CUSTOM_PARTITION:
    pulsar_routing_message_routing_mode = 2;

/// The core modes, each at the index of its C value.
const MODES: [MessageRoutingMode; 3] = [
    MessageRoutingMode::RoundRobinPartition,
    MessageRoutingMode::SinglePartition,
    MessageRoutingMode::CustomPartition,
];

/// Decides the routing mode from what the producer builder was given, as
/// Java's `ProducerBuilderImpl` does.
///
/// - `mode_set`, `mode`: whether a mode was set explicitly, and which; `mode`
///   is ignored when `mode_set` is false.
/// - `custom_router_set`: whether a custom router was supplied.
/// - `mode_out`: receives the resolved mode on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_ROUTING_MODE`,
/// `CUSTOM_MODE_WITHOUT_ROUTER` or `ROUTER_WITHOUT_CUSTOM_MODE`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `mode_out` must be valid for writing a
/// `pulsar_routing_message_routing_mode`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_resolve_routing_mode(
    mode_set: bool,
    mode: pulsar_routing_message_routing_mode,
    custom_router_set: bool,
    mode_out: *mut pulsar_routing_message_routing_mode,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(mode_out);
        let unknown = pulsar_routing_status::UnknownRoutingMode;
        let mode = if mode_set { Some(try_ok!(enum_from_c(&MODES, mode, unknown))) } else { None };
        out.write(enum_to_c(&MODES, try_ok!(resolve_routing_mode(mode, custom_router_set))));
        pulsar_routing_status::Ok
    }
}

/// The batching round-robin router's switch interval in milliseconds, from
/// the producer settings `roundRobinRouterBatchingPartitionSwitchFrequency`
/// and `batchingMaxPublishDelay` (in microseconds), as Java computes it:
/// `max(1, frequency * delay_us / 1000)`. Java's defaults (10, 1000 us)
/// give 10.
///
/// - `switch_ms_out`: receives the interval on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `SWITCH_FREQUENCY_TOO_SMALL` (below 1)
/// or `BATCH_DELAY_TOO_SMALL` (below 1 ms). Thread-safe; allocates nothing.
///
/// # Safety
/// `switch_ms_out` must be valid for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partition_switch_ms(
    frequency: i32,
    max_publish_delay_us: i64,
    switch_ms_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(switch_ms_out);
        out.write(try_ok!(partition_switch_ms(frequency, max_publish_delay_us)));
        pulsar_routing_status::Ok
    }
}
