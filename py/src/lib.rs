//! The native module `pulsar_routing._pulsar_routing`: a thin layer over the
//! `pulsar-routing` core. The public package `pulsar_routing` re-exports it.
//!
//! Arguments are checked and converted with the GIL held; long inputs are
//! then hashed with it released. Every error is a core error turned into the
//! matching exception class, with the core's (Java's) message.

// One module per core module, named after it; the rest is this binding's
// own plumbing (byte input, batches, Arrow, exceptions).
mod arrow;
mod batch;
mod buffers;
mod bundles;
mod crc32;
mod errors;
mod java_string_hash;
mod kafka;
mod key_counts;
mod key_shared;
mod lookup;
mod murmur3;
mod profiles;
mod router;
mod routing_key;
mod sender;
mod sign_safe_mod;
mod topic_name;

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;

/// Locks an object's state, going on after a panic in another holder: a
/// panic is a bug already reported as an exception, and the core's states
/// stay valid values between its calls.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Apache Pulsar's routing (key to partition, topic to bundle, message to
/// Key_Shared consumer), byte-for-byte as the Java client and broker compute
/// it.
// `gil_used = true` until the thread tests also run on a free-threaded
// interpreter: they only run with a GIL today.
#[pymodule(gil_used = true)]
mod _pulsar_routing {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::batch::partitions_for_keys;
    #[pymodule_export]
    use crate::bundles::{
        PyBundleRange, PyNamespaceBundles, default_boundaries, parse_boundary, topic_bundle,
        validate_full_range,
    };
    #[pymodule_export]
    use crate::crc32::{PyCrc32, crc32};
    #[pymodule_export]
    use crate::errors::KeyCountsError;
    #[pymodule_export]
    use crate::errors::{
        BundleError, ConsumerAssignError, IllegalPartitionIndexError, KafkaPartitionError,
        KeySharedPolicyError, PartitionCountError, ProfileConfigError, ProfileRouteError,
        PulsarRoutingError, RoutingConfigError, SelectorConfigError, TopicNameError,
        UnknownHashingSchemeError,
    };
    #[pymodule_export]
    use crate::errors::{
        CoalescingTableFullError, LookupFailedError, LookupTimeoutError, RedirectLoopError,
        TooManyRedirectsError, TooManyRequestsError, TopicLookupError,
    };
    #[pymodule_export]
    use crate::errors::{
        ProducerQueueIsFullError, SenderConfigError, SenderError, SenderNotReadyError,
    };
    #[pymodule_export]
    use crate::java_string_hash::{
        java_lossy_utf8, java_string_hash, java_string_hash_bytes, java_string_hashcode,
        java_string_hashcode_bytes,
    };
    #[pymodule_export]
    use crate::kafka::{
        PyKafkaBuiltInPartitioner, PyKafkaJavaClientPartitioner, PyKafkaMurmur2Hasher,
        PyLibrdkafkaProducer, kafka_fnv1a, kafka_murmur2, kafka_partition,
        kafka_partition_load_stats, kafka_partitions, kafka_to_positive,
        librdkafka_default_sticky_linger_ms, librdkafka_partition, librdkafka_random_partition,
    };
    #[pymodule_export]
    use crate::key_counts::PyKeyCounts;
    #[pymodule_export]
    use crate::key_shared::{
        PyAutoSplitSelector, PyConsistentHashingSelector, PyExclusiveSelector, PyImpact,
        ring_point, sticky_key, sticky_key_hash, sticky_key_hashes, validate_sticky_ranges,
    };
    #[pymodule_export]
    use crate::lookup::PyMetadataCoalescer;
    #[pymodule_export]
    use crate::lookup::{
        PyBackoff, PyLookupAction, PyLookupCoalescer, PyLookupThrottle,
        PyPartitionedMetadataLookup, PyTopicLookup, producer_start_topics,
    };
    #[pymodule_export]
    use crate::murmur3::{PyMurmur3Hasher, murmur3_32, murmur3_32_raw};
    #[pymodule_export]
    use crate::profiles::{
        PyProfileRouter, boost_hash_1_74_x86_64_raw, cpp_partition_index,
        cpp_partitioned_producer_check, go_atoi, go_partition_index, profile_key_hash,
        profile_key_hash_name, profile_partition, profile_partitions,
    };
    #[pymodule_export]
    use crate::router::{
        PyCustomRouter, PyMessageRoutingMode, PyRoundRobinRouter, PySinglePartitionRouter,
        check_partition, partition_switch_ms, resolve_routing_mode,
    };
    #[pymodule_export]
    use crate::routing_key::{partition_for_key, partition_for_key_bytes, routing_key_hash};
    #[pymodule_export]
    use crate::sender::{
        PyPendingQueue, PyReadiness, PySenderConfig, PySenderGate, py_required_max_pending_messages,
    };
    #[pymodule_export]
    use crate::sign_safe_mod::sign_safe_mod;
    #[pymodule_export]
    use crate::topic_name::{PyTopicName, get_partition_index};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add(
            "__version__",
            crate::pep440_version(env!("CARGO_PKG_VERSION")),
        )?;
        m.add(
            "NONE_KEY",
            pyo3::types::PyBytes::new(m.py(), pulsar_routing::key_shared::NONE_KEY),
        )?;
        m.add("KAFKA_MURMUR2_SEED", pulsar_routing::kafka::MURMUR2_SEED)?;
        m.add(
            "DivisionByZeroError",
            crate::errors::division_by_zero_type(m.py())?,
        )?;
        Ok(())
    }
}

/// Cargo's SemVer pre-release tags written the PEP 440 way
/// (`1.2.0-alpha.1` becomes `1.2.0a1`, `-rc.2` becomes `rc2`), so that pip
/// and `importlib.metadata` agree with `__version__`.
fn pep440_version(cargo: &str) -> String {
    let Some((release, pre)) = cargo.split_once('-') else {
        return cargo.to_owned();
    };
    let (tag, number) = pre.split_once('.').unwrap_or((pre, "0"));
    let tag = match tag {
        "alpha" => "a",
        "beta" => "b",
        "rc" => "rc",
        // Anything else has no PEP 440 spelling; a local label keeps it.
        _ => return format!("{release}+{}", pre.replace(['-', '.'], "_")),
    };
    format!("{release}{tag}{number}")
}
