//! The exception hierarchy, and the conversion of every core error into it.
//!
//! Each message is the core error's `Display`, which carries Java's wording,
//! so no text is written twice.

use pulsar_routing::bundles::BundleError as CoreBundleError;
use pulsar_routing::key_shared::{
    AssignError, ConfigError, KeySharedPolicyError as CoreKeySharedPolicyError, UnknownSelectorKind,
};
use pulsar_routing::topic_name::{TopicNameError as CoreTopicNameError, TopicNameRules};
use pulsar_routing::{
    DivisionByZero, HashingScheme, PartitionCount, RouteError, UnknownHashingScheme,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// Declares each exception class: `Name(Base): "docstring";`, the class
/// living in the `pulsar_routing` module.
macro_rules! exceptions {
    ($($name:ident($base:ty): $doc:literal;)+) => {$(
        create_exception!(pulsar_routing, $name, $base, $doc);
    )+};
}

exceptions! {
    PulsarRoutingError(PyValueError): "Base class of every error raised by pulsar_routing for a bad value.";
    PartitionCountError(PulsarRoutingError): "The number of partitions is not in 1..=2147483647.";
    IllegalPartitionIndexError(PulsarRoutingError): "A router chose a partition outside [0, num_partitions): where the Java producer fails the send.\n\n\
        The chosen value is in the attribute `partition` (an int, or whatever a custom router returned).";
    RoutingConfigError(PulsarRoutingError): "An inconsistent producer routing configuration, rejected as the Java builder does.";
    UnknownHashingSchemeError(PulsarRoutingError): "The hashing scheme is not \"java_string\" or \"murmur3_32\".";

    TopicNameError(PulsarRoutingError): "A topic name Java's TopicName.get rejects (an IllegalArgumentException there), with Java's message.";
    BundleError(PulsarRoutingError): "An invalid bundle layout, range, split or lookup, with the broker's message where it has one.";

    ConsumerAssignError(PulsarRoutingError): "A Key_Shared selector refused a consumer: the broker's ConsumerAssignException, with its message.\n\n\
        The attribute `java_class` is \"ConsumerAssignException\" for the broker's errors, and None for\n\
        this package's own (a consumer id added twice).";
    SelectorConfigError(PulsarRoutingError): "A Key_Shared selector that cannot be built (Java's IllegalArgumentException message where it has one), or an unknown selector name.";
    KeySharedPolicyError(PulsarRoutingError): "Sticky hash ranges the Java client's KeySharedPolicy rejects, with its IllegalArgumentException message.";

    ProfileConfigError(PulsarRoutingError): "A client profile, hashing scheme, routing mode or Kafka partitioner that is unknown, or that the client does not have.";
    ProfileRouteError(PulsarRoutingError): "A key the client cannot route: BoostHash of an unknown Boost build (not reproducible), or a key the client cannot be given.";
    KafkaPartitionError(PulsarRoutingError): "A Kafka sticky partitioner could not place a record: load statistics of the wrong shape or overflowed, an available partition beyond the partition count, or librdkafka's sticky partition unassigned or unknown (its message).";

    SenderConfigError(PulsarRoutingError): "A producer configuration the Kafka client refuses at build time (its ConfigException message), or a negative Pulsar maxPendingMessages.";
    SenderError(PulsarRoutingError): "A sender gate event that does not apply: an unknown or repeated node, a connection event invalid in the node's state, or a response with no request in flight.";
    SenderNotReadyError(SenderError): "A produce request to a node that does not pass the readiness gate; nothing was sent.\n\n\
        The attribute `readiness` is the Readiness that says why.";
    ProducerQueueIsFullError(PulsarRoutingError): "The Pulsar producer's pending queue holds maxPendingMessages messages: Java's ProducerQueueIsFullError.\n\n\
        The attribute `would_block` is True with blockIfQueueFull (the send would block) and False when it would fail.";

    TopicLookupError(PulsarRoutingError): "A topic lookup failed, or a lookup table or throttle refused a request.\n\n\
        The attribute `kind` names the failure (\"server_error\", \"too_many_redirects\", \"redirect_loop\",\n\
        \"deadline_exceeded\", \"too_many_requests\", \"connection_failed\", ...).";
    LookupFailedError(TopicLookupError): "The broker answered the lookup with Failed: `server_error` is the ServerError name and\n\
        `server_message` the broker's message.";
    TooManyRedirectsError(TopicLookupError): "More redirects than the limit: Java's LookupException \"Too many redirects: N\" (`limit` is N).";
    RedirectLoopError(TopicLookupError): "The lookup was redirected back to an address it had asked with the same authoritative flag;\n\
        `chain` is the list of (address, authoritative) hops.";
    LookupTimeoutError(TopicLookupError): "The lookup timeout passed: `attempts`, `elapsed_ms`, and `last_error` (the last attempt's message or None).";
    TooManyRequestsError(TopicLookupError): "The connection's lookup throttle is full (Java's TooManyRequestsException): `in_flight` and `queued`.";
    CoalescingTableFullError(TopicLookupError): "The table of lookups in flight has no free slot: `capacity`.";

    KeyCountsError(PulsarRoutingError): "KeyCounts refused a weight (negative, NaN or infinite), or weights that are not one per key.";
}

/// `DivisionByZeroError` derives from both `PulsarRoutingError` and the
/// builtin `ZeroDivisionError`, so `except ZeroDivisionError` catches it as
/// it catches Python's own `%`. `create_exception!` takes one base only, so
/// the class is built once by calling `type(...)`.
static DIVISION_BY_ZERO: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub(crate) fn division_by_zero_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DIVISION_BY_ZERO
        .get_or_try_init(py, || {
            let bases = PyTuple::new(
                py,
                [
                    py.get_type::<PulsarRoutingError>(),
                    py.get_type::<PyZeroDivisionError>(),
                ],
            )?;
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", "pulsar_routing")?;
            namespace.set_item(
                "__doc__",
                "sign_safe_mod was given a divisor of 0, where Java throws ArithmeticException.",
            )?;
            let class = py
                .get_type::<PyType>()
                .call1(("DivisionByZeroError", bases, namespace))?;
            Ok(class.cast_into::<PyType>()?.unbind())
        })
        .map(|class| class.bind(py))
}

/// Converts a core error into the matching Python exception.
pub(crate) trait IntoPyException {
    fn into_py_exception(self, py: Python<'_>) -> PyErr;
}

/// Maps each core error whose exception carries only its message, the
/// error's `Display`, to its exception class: `CoreType => Class`.
macro_rules! exception_from {
    ($($ty:ty => $class:ident),+ $(,)?) => {$(
        impl $crate::errors::IntoPyException for $ty {
            fn into_py_exception(self, _py: pyo3::Python<'_>) -> pyo3::PyErr {
                $class::new_err(self.to_string())
            }
        }
    )+};
}

pub(crate) use exception_from;

exception_from! {
    pulsar_routing::PartitionCountError => PartitionCountError,
    UnknownHashingScheme => UnknownHashingSchemeError,
    pulsar_routing::RoutingConfigError => RoutingConfigError,
    CoreTopicNameError<'_> => TopicNameError,
    CoreBundleError => BundleError,
    ConfigError => SelectorConfigError,
    UnknownSelectorKind => SelectorConfigError,
    CoreKeySharedPolicyError => KeySharedPolicyError,
}

/// `err` with its attribute `name` set to `value`, or the error that
/// setting it raised.
pub(crate) fn with_attr<'py>(
    py: Python<'py>,
    err: PyErr,
    name: &str,
    value: impl IntoPyObject<'py>,
) -> PyErr {
    match err.value(py).setattr(name, value) {
        Ok(()) => err,
        Err(setattr_failed) => setattr_failed,
    }
}

impl IntoPyException for RouteError {
    fn into_py_exception(self, py: Python<'_>) -> PyErr {
        let RouteError::IllegalPartitionIndex(partition) = self else {
            // `RouteError` is non-exhaustive: a future variant still gets its
            // own message and the base class until it has a class here.
            return PulsarRoutingError::new_err(self.to_string());
        };
        let Ok(partition) = partition.into_pyobject(py);
        illegal_partition_index(py, self.to_string(), partition.as_any())
    }
}

impl IntoPyException for DivisionByZero {
    fn into_py_exception(self, py: Python<'_>) -> PyErr {
        match division_by_zero_type(py) {
            Ok(class) => PyErr::from_type(class.clone(), self.to_string()),
            Err(err) => err,
        }
    }
}

impl IntoPyException for AssignError {
    fn into_py_exception(self, py: Python<'_>) -> PyErr {
        let err = ConsumerAssignError::new_err(self.to_string());
        with_attr(py, err, "java_class", self.java_class())
    }
}

/// A `TopicNameError` for a core error, without the GIL (for work that runs
/// with it released; the exception object is made when it is raised).
pub(crate) fn topic_name_error(err: CoreTopicNameError<'_>) -> PyErr {
    TopicNameError::new_err(err.to_string())
}

/// A `BundleError` for a core error, without the GIL.
pub(crate) fn bundle_error(err: CoreBundleError) -> PyErr {
    BundleError::new_err(err.to_string())
}

/// An `IllegalPartitionIndexError` with `message`, carrying the bad value.
pub(crate) fn illegal_partition_index(
    py: Python<'_>,
    message: String,
    partition: &Bound<'_, PyAny>,
) -> PyErr {
    with_attr(
        py,
        IllegalPartitionIndexError::new_err(message),
        "partition",
        partition,
    )
}

/// Validates a partition count given as any Python int.
pub(crate) fn partition_count(py: Python<'_>, n: i64) -> PyResult<PartitionCount> {
    PartitionCount::from_i64(n).map_err(|e| e.into_py_exception(py))
}

/// Parses a scheme name (`"java_string"`, `"murmur3_32"`, or Java's enum
/// constant names).
pub(crate) fn hashing_scheme(py: Python<'_>, name: &str) -> PyResult<HashingScheme> {
    name.parse()
        .map_err(|e: UnknownHashingScheme| e.into_py_exception(py))
}

/// Parses a topic-name rule set by the core's name for it: `"4.2"` (the
/// 4.2 release, the default), `"v4"` (an older 4.x line) or `"master"` (5.0
/// development).
pub(crate) fn topic_name_rules(name: &str) -> PyResult<TopicNameRules> {
    name.parse().map_err(|_| {
        PulsarRoutingError::new_err(format!(
            "unknown topic name rules {name:?}: expected \"4.2\", \"v4\" or \"master\""
        ))
    })
}

/// The Python name of a rule set, the inverse of [`topic_name_rules`].
pub(crate) const fn rules_name(rules: TopicNameRules) -> &'static str {
    rules.name()
}
