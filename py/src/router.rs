//! The partition routers and the producer settings that pick one.

use pulsar_routing_owned::router::{choose_round_robin, illegal_partition_message};
use pyo3::exceptions::PyTypeError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::{PyTraverseError, intern};

use crate::errors::{IntoPyException, hashing_scheme, illegal_partition_index, partition_count};
use crate::routing_key::Key;

/// A random start index, as Java draws one when the producer is created.
/// Java draws it in `[0, numPartitions)`; a router here is built before it
/// sees a partition count, so it draws in `[0, 2**31)`, which gives the same
/// keyless picks as Java's start `s % n`. Python's `random` module is the
/// source, so `random.seed()` makes it reproducible.
fn random_start_index(py: Python<'_>) -> PyResult<i32> {
    py.import(intern!(py, "random"))?
        .call_method1(intern!(py, "randrange"), (1_i64 << 31,))?
        .extract()
}

/// Java's default router (`RoundRobinPartitionMessageRouterImpl`).
///
/// A keyed message goes to `hash(key) % n`. With batching, a keyless message
/// goes to `(now_ms // partition_switch_ms + start) % n`; without, it takes
/// the next value of a wrapping 32-bit counter that starts at `start`. The
/// counter is atomic: one router can be shared between threads.
///
/// `scheme` is `"java_string"` (Java's default) or `"murmur3_32"`;
/// `partition_switch_ms` is clamped to at least 1, and `partition_switch_ms()`
/// computes it from the producer settings as Java does. Java draws the start
/// at random in `[0, numPartitions)` when the producer is created; with
/// `start_partition_index=None` this router draws it in `[0, 2**31)` from
/// Python's `random` module, because it does not know the partition count
/// yet. The keyless picks are then those of Java's start `s % n` (until the
/// counter wraps at `2**31`, which Java reaches later).
#[pyclass(frozen, module = "pulsar_routing", name = "RoundRobinRouter")]
pub(crate) struct PyRoundRobinRouter {
    inner: pulsar_routing::RoundRobinRouter,
}

#[pymethods]
impl PyRoundRobinRouter {
    #[new]
    #[pyo3(signature = (
        scheme = "java_string",
        *,
        start_partition_index = None,
        batching = true,
        partition_switch_ms = 10,
    ))]
    fn new(
        py: Python<'_>,
        scheme: &str,
        start_partition_index: Option<i32>,
        batching: bool,
        partition_switch_ms: i64,
    ) -> PyResult<Self> {
        let scheme = hashing_scheme(py, scheme)?;
        let start = match start_partition_index {
            Some(start) => start,
            None => random_start_index(py)?,
        };
        Ok(Self {
            inner: pulsar_routing::RoundRobinRouter::new(
                scheme,
                start,
                batching,
                partition_switch_ms,
            ),
        })
    }

    /// The partition for a message with `key` (`str`: `key()`, `bytes`:
    /// `keyBytes()`, `None`: no key) on a topic with `num_partitions`
    /// partitions. `now_ms` (Unix epoch milliseconds) is read only for a
    /// keyless message with batching; `None` reads the system clock.
    #[pyo3(signature = (key, num_partitions, *, now_ms = None))]
    fn choose_partition(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        num_partitions: i64,
        now_ms: Option<i64>,
    ) -> PyResult<u32> {
        let n = partition_count(py, num_partitions)?;
        let key = Key::extract(key, &"key")?;
        Ok(choose_round_robin(
            &self.inner,
            key.routing_key(),
            n,
            now_ms,
        ))
    }

    /// The hashing scheme for keyed messages.
    #[getter]
    fn scheme(&self) -> &'static str {
        self.inner.scheme().name()
    }

    /// The start index (the counter's first value, or the batching offset).
    #[getter]
    fn start_partition_index(&self) -> i32 {
        self.inner.start_partition_index()
    }

    /// The switch interval in milliseconds (at least 1), or `None` without
    /// batching.
    #[getter]
    fn partition_switch_ms(&self) -> Option<i64> {
        self.inner.partition_switch_ms()
    }

    fn __repr__(&self) -> String {
        let batching = match self.inner.partition_switch_ms() {
            Some(ms) => format!("batching=True, partition_switch_ms={ms}"),
            None => "batching=False".to_owned(),
        };
        format!(
            "RoundRobinRouter({:?}, start_partition_index={}, {batching})",
            self.inner.scheme().name(),
            self.inner.start_partition_index(),
        )
    }
}

/// `SinglePartitionMessageRouterImpl`: keyed messages by hash, keyless ones
/// always to `partition_index`. Java draws that index at random in
/// `[0, numPartitions)` when the producer is created; pass
/// `random.randrange(num_partitions)` to do the same.
#[pyclass(frozen, module = "pulsar_routing", name = "SinglePartitionRouter")]
pub(crate) struct PySinglePartitionRouter {
    inner: pulsar_routing::SinglePartitionRouter,
}

#[pymethods]
impl PySinglePartitionRouter {
    #[new]
    #[pyo3(signature = (partition_index, scheme = "java_string"))]
    fn new(py: Python<'_>, partition_index: i32, scheme: &str) -> PyResult<Self> {
        let scheme = hashing_scheme(py, scheme)?;
        Ok(Self {
            inner: pulsar_routing::SinglePartitionRouter::new(scheme, partition_index),
        })
    }

    /// The partition for a message with `key`; `now_ms` is accepted so that
    /// every router can be called alike, and ignored.
    ///
    /// Raises `IllegalPartitionIndexError` when a keyless message would go to
    /// a fixed index outside `[0, num_partitions)`.
    #[pyo3(signature = (key, num_partitions, *, now_ms = None))]
    fn choose_partition(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        num_partitions: i64,
        now_ms: Option<i64>,
    ) -> PyResult<u32> {
        let _ = now_ms;
        let n = partition_count(py, num_partitions)?;
        let key = Key::extract(key, &"key")?;
        self.inner
            .choose_partition(key.routing_key(), n)
            .map_err(|e| e.into_py_exception(py))
    }

    /// The hashing scheme for keyed messages.
    #[getter]
    fn scheme(&self) -> &'static str {
        self.inner.scheme().name()
    }

    /// The fixed partition for keyless messages.
    #[getter]
    fn partition_index(&self) -> i32 {
        self.inner.partition_index()
    }

    fn __repr__(&self) -> String {
        format!(
            "SinglePartitionRouter({}, {:?})",
            self.inner.partition_index(),
            self.inner.scheme().name(),
        )
    }
}

/// Routes by a user function `choose(key, num_partitions) -> int`, checked
/// the way the Java producer checks a custom `MessageRouter`.
#[pyclass(frozen, module = "pulsar_routing", name = "CustomRouter")]
pub(crate) struct PyCustomRouter {
    choose: Py<PyAny>,
}

#[pymethods]
impl PyCustomRouter {
    #[new]
    #[pyo3(signature = (choose, /))]
    fn new(choose: &Bound<'_, PyAny>) -> PyResult<Self> {
        if !choose.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "choose must be callable, not {}",
                choose.get_type().name()?
            )));
        }
        Ok(Self {
            choose: choose.clone().unbind(),
        })
    }

    /// Calls `choose(key, num_partitions)` with the key as given and checks
    /// the answer: anything but an int in `[0, num_partitions)` raises
    /// `IllegalPartitionIndexError`. An exception from `choose` propagates.
    /// `now_ms` is accepted so that every router can be called alike, and
    /// ignored.
    #[pyo3(signature = (key, num_partitions, *, now_ms = None))]
    fn choose_partition(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        num_partitions: i64,
        now_ms: Option<i64>,
    ) -> PyResult<u32> {
        let _ = now_ms;
        let n = partition_count(py, num_partitions)?;
        // The same key types as the other routers, checked before the call.
        Key::extract(key, &"key")?;
        let chosen = self.choose.bind(py).call1((key, n.get()))?;
        // The core's check takes an i64; any other answer (a float, None, an
        // int past 64 bits) is just as illegal as Java's out-of-range int,
        // and keeps its repr in the message. Objects with `__index__` (numpy
        // integers) count as ints.
        let Ok(partition) = chosen.extract::<i64>() else {
            return Err(illegal_partition_index(
                py,
                illegal_partition_message(&chosen.repr()?.to_string()),
                &chosen,
            ));
        };
        // The check the core's `CustomRouter` applies to its function's answer
        // (the Python function cannot run inside the core's closure, which
        // has no way to report the exception it may raise).
        pulsar_routing::check_partition(partition, n).map_err(|e| e.into_py_exception(py))
    }

    /// The wrapped function.
    #[getter]
    fn choose(&self, py: Python<'_>) -> Py<PyAny> {
        self.choose.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("CustomRouter({})", self.choose.bind(py).repr()?))
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.choose)
    }
}

/// Java's `MessageRoutingMode`.
#[pyclass(
    frozen,
    eq,
    eq_int,
    hash,
    module = "pulsar_routing",
    name = "MessageRoutingMode"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[expect(
    clippy::enum_variant_names,
    reason = "the names are Java's enum constants"
)]
pub(crate) enum PyMessageRoutingMode {
    /// Keyed by hash, keyless round-robin (`RoundRobinRouter`).
    RoundRobinPartition,
    /// Keyed by hash, keyless to one fixed partition (`SinglePartitionRouter`).
    SinglePartition,
    /// A user-supplied router (`CustomRouter`).
    CustomPartition,
}

impl From<PyMessageRoutingMode> for pulsar_routing::MessageRoutingMode {
    fn from(mode: PyMessageRoutingMode) -> Self {
        match mode {
            PyMessageRoutingMode::RoundRobinPartition => Self::RoundRobinPartition,
            PyMessageRoutingMode::SinglePartition => Self::SinglePartition,
            PyMessageRoutingMode::CustomPartition => Self::CustomPartition,
        }
    }
}

impl From<pulsar_routing::MessageRoutingMode> for PyMessageRoutingMode {
    fn from(mode: pulsar_routing::MessageRoutingMode) -> Self {
        match mode {
            pulsar_routing::MessageRoutingMode::RoundRobinPartition => Self::RoundRobinPartition,
            pulsar_routing::MessageRoutingMode::SinglePartition => Self::SinglePartition,
            pulsar_routing::MessageRoutingMode::CustomPartition => Self::CustomPartition,
        }
    }
}

/// The routing mode a producer builder ends up with, given the mode set
/// explicitly (if any) and whether a custom router was set, with Java's
/// errors for the two inconsistent combinations.
#[pyfunction]
#[pyo3(signature = (mode, custom_router_set))]
pub(crate) fn resolve_routing_mode(
    py: Python<'_>,
    mode: Option<&Bound<'_, PyMessageRoutingMode>>,
    custom_router_set: bool,
) -> PyResult<PyMessageRoutingMode> {
    let mode = mode.map(|mode| (*mode.get()).into());
    pulsar_routing::resolve_routing_mode(mode, custom_router_set)
        .map(PyMessageRoutingMode::from)
        .map_err(|e| e.into_py_exception(py))
}

/// The batching round-robin switch interval in ms from the producer settings
/// `roundRobinRouterBatchingPartitionSwitchFrequency` and
/// `batchingMaxPublishDelay` (in microseconds); the defaults are Java's.
#[pyfunction]
#[pyo3(signature = (frequency = 10, max_publish_delay_us = 1000))]
pub(crate) fn partition_switch_ms(
    py: Python<'_>,
    frequency: i32,
    max_publish_delay_us: i64,
) -> PyResult<i64> {
    pulsar_routing::partition_switch_ms(frequency, max_publish_delay_us)
        .map_err(|e| e.into_py_exception(py))
}

/// The producer's check of a router's answer: returns `partition` if it is
/// in `[0, num_partitions)`, else raises `IllegalPartitionIndexError`.
#[pyfunction]
#[pyo3(signature = (partition, num_partitions))]
pub(crate) fn check_partition(
    py: Python<'_>,
    partition: i64,
    num_partitions: i64,
) -> PyResult<u32> {
    let n = partition_count(py, num_partitions)?;
    pulsar_routing::check_partition(partition, n).map_err(|e| e.into_py_exception(py))
}
