//! Every client's whole router, keyless state machine included: the
//! producer configuration a profile is built from
//! ([`pulsar_routing_profile_config`]), keyed routing under any such
//! configuration (C++'s unsigned-`char` `JavaStringHash` among them), and
//! the [`pulsar_routing_profile_router`] handle over the core's
//! `ProfileRouter`.

use std::sync::Mutex;

use pulsar_routing_core::PartitionCount;
use pulsar_routing_core::profiles::{
    CharSignedness, ClientProfile, ProfileConfig, ProfileKeying, ProfileMode, ProfileRouter,
    ProfileSeed,
};

use pulsar_routing_owned::profiles::ProfileOptions;

use crate::error::{enum_to_c, pulsar_routing_status};
use crate::ffi::{BoxCastable, free_box, lock, to_boxed_mut_ptr};
use crate::profiles::{
    default_config, hash_to_c, keyed_partition, message_from_c, mode_from_c, profile_from_c,
    profile_to_c, pulsar_routing_client_hashing_scheme, pulsar_routing_client_profile,
    pulsar_routing_profile_hash, pulsar_routing_profile_mode, scheme_from_c, scheme_to_c,
};
use crate::routing_key::pulsar_routing_key;

/// How a producer of some client is configured for routing (the core's
/// `ProfileConfig`). Fill it with `pulsar_routing_profile_config_default`,
/// then change what the producer sets.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_profile_config {
    /// The hashing scheme option, a `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_*`
    /// value (`BOOST_1_33`, `BOOST_1_62`, `BOOST_1_81` and `BOOST_1_82` name
    /// the generation of the Boost the C++ or Python client was built with).
    pub scheme: pulsar_routing_client_hashing_scheme,
    /// The routing mode, a `PULSAR_ROUTING_PROFILE_MODE_*` value.
    pub mode: pulsar_routing_profile_mode,
    /// C++ and Python: true where the platform's `char` is unsigned (e.g.
    /// AArch64 Linux), which changes C++'s `JavaStringHash` and the
    /// `BoostHash` of Boost before 1.81 for non-ASCII keys. False (x86-64)
    /// by default.
    pub char_unsigned: bool,
    /// Whether batching is enabled (Java, Go and C++ keyless routing read
    /// it; Python's default is off).
    pub batching_enabled: bool,
    /// `batchingMaxMessages`: Go and C++ switch partition after this many.
    pub batching_max_messages: u32,
    /// `batchingMaxBytes` / `BatchingMaxSize` /
    /// `batchingMaxAllowedSizeInBytes`.
    pub batching_max_bytes: u32,
    /// `batchingMaxPublishDelay` in nanoseconds (Java reads it in
    /// microseconds, C++ in milliseconds, each truncating).
    pub batching_max_publish_delay_ns: i64,
    /// Java's `roundRobinRouterBatchingPartitionSwitchFrequency`.
    pub partition_switch_frequency: i32,
    /// C++ and Python: `lazyStartPartitionedProducers` (false by default).
    /// The producer routes a one-byte keyless start message at creation,
    /// which shifts keyless round robin by one message; other profiles give
    /// `PROFILE_OPTION_UNSUPPORTED`.
    pub lazy_start: bool,
}

impl pulsar_routing_profile_config {
    fn from_core(config: &ProfileConfig) -> Self {
        Self {
            scheme: scheme_to_c(config.scheme, config.boost),
            mode: enum_to_c(&ProfileMode::ALL, config.mode),
            char_unsigned: matches!(config.char_signedness, CharSignedness::Unsigned),
            batching_enabled: config.batching.enabled,
            batching_max_messages: config.batching.max_messages,
            batching_max_bytes: config.batching.max_bytes,
            batching_max_publish_delay_ns: config.batching.max_publish_delay_ns,
            partition_switch_frequency: config.batching.partition_switch_frequency,
            lazy_start: config.lazy_start,
        }
    }

    /// The core profile of a C value, and this configuration for it: every
    /// field laid over the client's defaults.
    pub(crate) fn with_profile(
        self,
        profile: pulsar_routing_client_profile,
    ) -> Result<(ClientProfile, ProfileConfig), pulsar_routing_status> {
        let profile = profile_from_c(profile)?;
        let (scheme, boost) = scheme_from_c(self.scheme)?;
        let options = ProfileOptions {
            scheme: Some(scheme),
            boost,
            mode: Some(mode_from_c(self.mode)?),
            unsigned_char: self.char_unsigned,
            batching: Some(self.batching_enabled),
            batching_max_messages: Some(self.batching_max_messages),
            batching_max_bytes: Some(self.batching_max_bytes),
            batching_max_publish_delay_ns: Some(self.batching_max_publish_delay_ns),
            partition_switch_frequency: Some(self.partition_switch_frequency),
            lazy_start: self.lazy_start,
        };
        Ok((profile, options.config(profile)))
    }
}

/// A configuration behind a C pointer, or returns NULL_PARAMETER.
macro_rules! try_config {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL config
        // pointer valid for reading one, unchanged during the call.
        match unsafe { $ptr.as_ref() } {
            Some(config) => *config,
            None => return pulsar_routing_status::NullParameter,
        }
    };
}

/// Writes what a producer of `profile` uses when nothing is configured:
/// its default scheme (`JAVA_STRING` for Java and Go, `BOOST` for C++ and
/// Python, `MURMUR3_32` for pulsar-rs and DotPulsar), mode `DEFAULT`,
/// signed `char`, and its batching defaults (Java: on, 1000 messages,
/// 128 KiB, 1 ms, switching every 10 delays; Go and C++: on, 1000
/// messages, 128 KiB, 10 ms; Python: as C++ but off; pulsar-rs and
/// DotPulsar: off).
///
/// - `config_out`: receives the configuration on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_CLIENT_PROFILE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `config_out` must be valid for writing a `pulsar_routing_profile_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_config_default(
    profile: pulsar_routing_client_profile,
    config_out: *mut pulsar_routing_profile_config,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(config_out);
        let config = try_ok!(default_config(profile));
        out.ok(pulsar_routing_profile_config::from_core(&config))
    }
}

/// The exact key hash a producer of `profile` configured with `config`
/// applies to keys (e.g. `CPP_JAVA_STRING_UNSIGNED_CHAR` for C++ with
/// `JAVA_STRING` and `char_unsigned`).
///
/// - `config`: the producer's configuration (only its scheme, mode,
///   `char_unsigned` and Boost build matter here).
/// - `hash_out`: receives a `PULSAR_ROUTING_PROFILE_HASH_*` value on
///   success.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_CLIENT_PROFILE`,
/// `UNKNOWN_CLIENT_HASHING_SCHEME`, `UNKNOWN_PROFILE_MODE`,
/// `PROFILE_SCHEME_UNSUPPORTED` or `PYTHON_SCHEME_NOT_SELECTABLE`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `config` must be valid for reading a `pulsar_routing_profile_config` and
/// `hash_out` for writing a `pulsar_routing_profile_hash`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_keying_hash(
    profile: pulsar_routing_client_profile,
    config: *const pulsar_routing_profile_config,
    hash_out: *mut pulsar_routing_profile_hash,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let config = try_config!(config);
        let out = try_out!(hash_out);
        let (profile, config) = try_ok!(config.with_profile(profile));
        let keying = try_ok!(ProfileKeying::new(profile, &config));
        out.ok(hash_to_c(keying.hash()))
    }
}

/// The partition a producer of `profile` configured with `config` sends a
/// keyed message to (the core's `ProfileKeying::partition`): as
/// `pulsar_routing_profile_partition`, with every setting of the
/// configuration, among them C++'s and Python's `char_unsigned`.
///
/// - `config`: the producer's configuration.
/// - `key`, `ordering_key`, `ordering_key_len`, `num_partitions`,
///   `partition_out`: as for `pulsar_routing_profile_partition` (NULL
///   `ordering_key` with length 0: no ordering key).
///
/// Returns `OK`; `NO_KEY` when the client routes the message as a keyless
/// one; `NULL_PARAMETER` (`config`, `partition_out`, a key's `data`, or a
/// NULL `ordering_key` with a non-zero length); `UNKNOWN_CLIENT_PROFILE`,
/// `UNKNOWN_CLIENT_HASHING_SCHEME`, `UNKNOWN_PROFILE_MODE`,
/// `UNKNOWN_KEY_KIND`, `PROFILE_KEY_KIND_UNSUPPORTED`, `INVALID_UTF8`,
/// `PROFILE_SCHEME_UNSUPPORTED`, `PYTHON_SCHEME_NOT_SELECTABLE`,
/// `BOOST_HASH_NOT_REPRODUCIBLE`, `PROFILE_BYTES_KEY_UNSUPPORTED`,
/// `PROFILE_ILLEGAL_PARTITION` (C++'s and Python's `short` cast above
/// 32767 partitions, as for `pulsar_routing_profile_partition`),
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `config` must be valid for reading a `pulsar_routing_profile_config`,
/// `key.data` as `pulsar_routing_key` describes, a non-NULL `ordering_key`
/// must point to `ordering_key_len` readable bytes, and `partition_out` must
/// be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_keying_partition(
    profile: pulsar_routing_client_profile,
    config: *const pulsar_routing_profile_config,
    key: pulsar_routing_key,
    ordering_key: *const u8,
    ordering_key_len: usize,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let config = try_config!(config);
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `key.data` and `ordering_key`.
        let message = try_ok!(unsafe { message_from_c(key, ordering_key, ordering_key_len, 0) });
        let (profile, config) = try_ok!(config.with_profile(profile));
        keyed_partition(profile, &config, &message, num_partitions, out)
    }
}

/// One producer's router of any client (the core's `ProfileRouter`), as an
/// opaque heap handle: keyed messages as the client hashes them, keyless
/// ones through the client's own state machine (Java's time slots or
/// counter, Go's and C++'s count, size and time switching, pulsar-rs's
/// next index, DotPulsar's `int` counter, or the single partition).
///
/// The state is behind a lock: one router can be shared by any number of
/// threads, each route being one step of the state machine.
pub struct pulsar_routing_profile_router {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_profile_router {
    type RustType = Mutex<ProfileRouter>;
}

impl pulsar_routing_profile_router {
    /// Creates the router a producer of `profile` builds for `config`,
    /// starting from the client's random choices and creation time.
    ///
    /// - `config`: the producer's configuration (see
    ///   `pulsar_routing_profile_config_default`).
    /// - `start`: the router's random start, which the client draws from
    ///   its own random source: Java's `startPtnIdx` or single partition
    ///   (`nextInt(n)`, taken as an `int`); Go's cursor (`rand.Uint32()`)
    ///   or single partition (`Intn(n)`); C++'s and Python's cursor (in
    ///   `[0, INT_MAX]`) or single partition; pulsar-rs's last used index
    ///   or single partition; DotPulsar's single partition (its round robin
    ///   ignores it).
    /// - `created_ns`: when the producer was created, in Unix epoch
    ///   nanoseconds (Go's and C++'s batching routers time their first
    ///   switch from it).
    /// - `router_out`: on success, receives the new router, which the
    ///   caller owns and must release with
    ///   `pulsar_routing_profile_router_free`.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_CLIENT_PROFILE`,
    /// `UNKNOWN_CLIENT_HASHING_SCHEME`, `UNKNOWN_PROFILE_MODE`,
    /// `PROFILE_SCHEME_UNSUPPORTED`, `PYTHON_SCHEME_NOT_SELECTABLE`, or
    /// Java's builder checks `BATCH_DELAY_TOO_SMALL` (a delay below 1 ms)
    /// and `SWITCH_FREQUENCY_TOO_SMALL` (a frequency below 1), which Java
    /// applies whether batching is on or not. Thread-safe. Allocates the
    /// router.
    ///
    /// # Safety
    /// `config` must be valid for reading a `pulsar_routing_profile_config`
    /// and `router_out` for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_profile_router_new(
        profile: pulsar_routing_client_profile,
        config: *const pulsar_routing_profile_config,
        start: u32,
        created_ns: i64,
        router_out: *mut *mut pulsar_routing_profile_router,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let config = try_config!(config);
            let out = try_out!(router_out);
            let (profile, config) = try_ok!(config.with_profile(profile));
            let seed = ProfileSeed { start, created_ns };
            let router = try_ok!(ProfileRouter::new(profile, &config, seed));
            out.ok(to_boxed_mut_ptr::<Self>(Mutex::new(router)))
        }
    }

    /// Routes one message, advancing the router's keyless state as the
    /// client does.
    ///
    /// - `router`: a router from `pulsar_routing_profile_router_new`.
    /// - `key`: the partition key (NONE, STRING or BYTES; see
    ///   `pulsar_routing_key`).
    /// - `ordering_key`, `ordering_key_len`: the ordering key, which only
    ///   Go routes by; NULL (with length 0) means none.
    /// - `payload_len`: the payload size in bytes, which Go's and C++'s
    ///   batching routers count.
    /// - `num_partitions`: the topic's partition count, 1 to 2147483647.
    /// - `now_ns`: the time of the send, in Unix epoch nanoseconds (Java and
    ///   C++ read it in milliseconds, rounded down; Go in nanoseconds).
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` (`router`, `partition_out`, a key's
    /// `data`, or a NULL `ordering_key` with a non-zero length),
    /// `UNKNOWN_KEY_KIND`, `PROFILE_KEY_KIND_UNSUPPORTED`, `INVALID_UTF8`,
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE`, `BOOST_HASH_NOT_REPRODUCIBLE` (a key
    /// under an unknown BoostHash; the state is unchanged),
    /// `PROFILE_BYTES_KEY_UNSUPPORTED` (Python, pulsar-rs), or
    /// `PROFILE_ILLEGAL_PARTITION` where the client's producer fails the
    /// send (a single partition at or above `num_partitions`, C++ above
    /// 32767 partitions, DotPulsar's counter past `int.MaxValue`).
    ///
    /// Thread-safe: calls on one router are serialised by its lock.
    /// Allocates nothing.
    ///
    /// # Safety
    /// `router` must be a live router from
    /// `pulsar_routing_profile_router_new`, `key.data` as
    /// `pulsar_routing_key` describes, a non-NULL `ordering_key` must point
    /// to `ordering_key_len` readable bytes, and `partition_out` must be
    /// valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe extern "C" fn pulsar_routing_profile_router_route(
        router: *const pulsar_routing_profile_router,
        key: pulsar_routing_key,
        ordering_key: *const u8,
        ordering_key_len: usize,
        payload_len: u64,
        num_partitions: i64,
        now_ns: i64,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let router = try_box_ref!(router);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key.data` and `ordering_key`.
            let message = try_ok!(unsafe {
                message_from_c(key, ordering_key, ordering_key_len, payload_len)
            });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            // A panic while the lock was held left the state unspecified,
            // as the PANIC status documents; it is still memory-safe.
            let mut router = lock(router);
            out.ok(try_ok!(router.route(&message, n, now_ns)))
        }
    }

    /// The client a router models.
    ///
    /// - `profile_out`: receives a `PULSAR_ROUTING_CLIENT_PROFILE_*` value.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `router` must be a live router from
    /// `pulsar_routing_profile_router_new`, and `profile_out` valid for
    /// writing a `pulsar_routing_client_profile`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_profile_router_profile(
        router: *const pulsar_routing_profile_router,
        profile_out: *mut pulsar_routing_client_profile,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let router = try_box_ref!(router);
            let out = try_out!(profile_out);
            let profile = lock(router).profile();
            out.ok(profile_to_c(profile))
        }
    }

    /// Releases a router. NULL is a no-op.
    ///
    /// No other thread may be using the router, and it must not be used or
    /// freed again afterwards.
    ///
    /// # Safety
    /// `router` must be NULL or a router from
    /// `pulsar_routing_profile_router_new` that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_profile_router_free(
        router: *mut pulsar_routing_profile_router,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `router`.
            unsafe { free_box(router) }
        }
    }
}
