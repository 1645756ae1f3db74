//! Routing by a user function (Java's `MessageRoutingMode.CustomPartition`).

use core::ffi::c_void;

use pulsar_routing_core::{CustomRouter, PartitionCount};

use crate::error::pulsar_routing_status;
use crate::ffi::{BoxCastable, free_box, to_boxed_mut_ptr};
use crate::routing_key::pulsar_routing_key;

/// A custom router's function: Java's `MessageRouter.choosePartition(msg,
/// metadata)`.
///
/// It receives the `context` given to `pulsar_routing_custom_router_new`,
/// the message's key exactly as the caller passed it to
/// `pulsar_routing_custom_router_choose_partition` (for a NONE key, `data`
/// is NULL and `len` 0; the key's bytes are valid only during the call), and
/// the partition count, 1 to 2147483647. It returns the partition, which is
/// then checked to be in `0 <= partition < num_partitions`.
///
/// It must not unwind (C++ exceptions, `longjmp`) through the caller.
pub type pulsar_routing_custom_router_callback = Option<
    unsafe extern "C" fn(context: *mut c_void, key: pulsar_routing_key, num_partitions: u32) -> i32,
>;

/// A router that asks a user function, as an opaque heap handle, and checks
/// its answer the way the Java producer does, so that a bad function gives
/// `PULSAR_ROUTING_STATUS_ILLEGAL_PARTITION_INDEX` instead of a message on a
/// partition that does not exist.
pub struct pulsar_routing_custom_router {
    _private: [u8; 0],
}

/// What the handle holds: the function and its context.
pub(crate) struct CustomCallback {
    callback: unsafe extern "C" fn(*mut c_void, pulsar_routing_key, u32) -> i32,
    context: *mut c_void,
}

impl BoxCastable for pulsar_routing_custom_router {
    type RustType = CustomCallback;
}

impl pulsar_routing_custom_router {
    /// Creates a custom router.
    ///
    /// - `callback`: the routing function; must not be NULL.
    /// - `context`: passed to every call of `callback`; may be NULL. The
    ///   router only stores it: the caller keeps ownership and must keep it
    ///   valid for as long as the router is used.
    /// - `router_out`: on success, receives the new router, which the caller
    ///   owns and must release with `pulsar_routing_custom_router_free`.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe. Allocates the router.
    ///
    /// # Safety
    /// `router_out` must be valid for writing a pointer; `callback` must be
    /// safe to call with `context` whenever the router is used.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_custom_router_new(
        callback: pulsar_routing_custom_router_callback,
        context: *mut c_void,
        router_out: *mut *mut pulsar_routing_custom_router,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(router_out);
            let Some(callback) = callback else {
                return pulsar_routing_status::NullParameter;
            };
            out.write(to_boxed_mut_ptr(CustomCallback { callback, context }));
            pulsar_routing_status::Ok
        }
    }

    /// Chooses the partition of a message by calling the router's function,
    /// once, and checking its answer.
    ///
    /// - `router`: a router from `pulsar_routing_custom_router_new`.
    /// - `key`: the message's key; see `pulsar_routing_key`. It is validated
    ///   before the function is called.
    /// - `num_partitions`: the topic's current partition count, 1 to
    ///   2147483647.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_KEY_KIND`, `INVALID_UTF8`,
    /// `MISALIGNED_POINTER`,
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE` (in these cases the function is not
    /// called), or `ILLEGAL_PARTITION_INDEX` when the function's answer is
    /// outside `0 <= partition < num_partitions`.
    ///
    /// Thread-safety is the function's: one router may be used by several
    /// threads at once if its function may be called concurrently with its
    /// context. Allocates nothing.
    ///
    /// # Safety
    /// `router` must be a live router from `pulsar_routing_custom_router_new`,
    /// `key.data` as `pulsar_routing_key` describes, and `partition_out`
    /// valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_custom_router_choose_partition(
        router: *const pulsar_routing_custom_router,
        key: pulsar_routing_key,
        num_partitions: i64,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let CustomCallback { callback, context } = *try_box_ref!(router);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key.data`.
            let key = try_ok!(unsafe { key.to_core() });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            let router = CustomRouter::new(|key, n: PartitionCount| {
                // SAFETY: `_new`'s contract makes `callback` safe to call
                // with `context`; the key's bytes outlive the call.
                i64::from(unsafe { callback(context, pulsar_routing_key::from_core(key), n.get()) })
            });
            out.write(try_ok!(router.choose_partition(key, n)));
            pulsar_routing_status::Ok
        }
    }

    /// Releases a router; the context is not touched. NULL is a no-op.
    ///
    /// No other thread may be using the router, and it must not be used or
    /// freed again afterwards.
    ///
    /// # Safety
    /// `router` must be NULL or a router from
    /// `pulsar_routing_custom_router_new` that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_custom_router_free(
        router: *mut pulsar_routing_custom_router,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `router`.
            unsafe { free_box(router) }
        }
    }
}
