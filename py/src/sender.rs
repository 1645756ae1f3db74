//! The Kafka producer's sender readiness gate and the Pulsar producer's
//! pending queue, driveable step by step: every event and time comes from
//! the caller, so a trace replays exactly.

use pulsar_routing::sender::{
    Jitter, MaxPendingMessagesNegative, NodeId, PendingQueue, QueueFull, Readiness, SenderConfig,
    SenderConfigError as CoreConfigError, SenderError as CoreSenderError,
    required_max_pending_messages,
};
use pulsar_routing_owned::sender::{self as owned, SenderGate};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{
    IntoPyException, ProducerQueueIsFullError, SenderConfigError, SenderError, SenderNotReadyError,
    exception_from, with_attr,
};

exception_from! {
    CoreConfigError => SenderConfigError,
    MaxPendingMessagesNegative => SenderConfigError,
    owned::UnknownName => PyValueError,
}

impl IntoPyException for QueueFull {
    fn into_py_exception(self, py: Python<'_>) -> PyErr {
        let err = ProducerQueueIsFullError::new_err(self.to_string());
        with_attr(py, err, "would_block", self == QueueFull::WouldBlock)
    }
}

impl IntoPyException for CoreSenderError {
    fn into_py_exception(self, py: Python<'_>) -> PyErr {
        let CoreSenderError::NotReady(readiness) = self else {
            return SenderError::new_err(self.to_string());
        };
        let err = SenderNotReadyError::new_err(self.to_string());
        match Py::new(py, PyReadiness(readiness)) {
            Ok(readiness) => with_attr(py, err, "readiness", readiness),
            Err(new_failed) => new_failed,
        }
    }
}

/// The Python exception of a core error, as every method of this module
/// raises it.
fn lift<T, E: IntoPyException>(py: Python<'_>, result: Result<T, E>) -> PyResult<T> {
    result.map_err(|e| e.into_py_exception(py))
}

/// A uniform draw in `[0, 1)` as the ±20% jitter; 0.5 is none.
fn jitter(unit: f64) -> Jitter {
    Jitter::from_unit(unit)
}

/// The producer settings the readiness gate reads, with Kafka's defaults,
/// checked as `KafkaProducer` checks them (`SenderConfigError` with Kafka's
/// message otherwise).
#[pyclass(frozen, module = "pulsar_routing", name = "SenderConfig")]
#[derive(Clone, Copy)]
pub(crate) struct PySenderConfig(SenderConfig);

#[pymethods]
impl PySenderConfig {
    #[new]
    #[pyo3(signature = (
        max_in_flight = 5,
        enable_idempotence = true,
        *,
        reconnect_backoff_ms = 50,
        reconnect_backoff_max_ms = 1000,
        metadata_max_age_ms = 300_000,
        retry_backoff_ms = 100,
        retry_backoff_max_ms = 1000,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        max_in_flight: i64,
        enable_idempotence: bool,
        reconnect_backoff_ms: u64,
        reconnect_backoff_max_ms: u64,
        metadata_max_age_ms: u64,
        retry_backoff_ms: u64,
        retry_backoff_max_ms: u64,
    ) -> PyResult<Self> {
        let inner = lift(py, SenderConfig::new(max_in_flight, enable_idempotence))?
            .with_reconnect_backoff(reconnect_backoff_ms, reconnect_backoff_max_ms)
            .with_metadata_max_age(metadata_max_age_ms)
            .with_retry_backoff(retry_backoff_ms, retry_backoff_max_ms);
        Ok(Self(inner))
    }

    /// `max.in.flight.requests.per.connection`.
    #[getter]
    fn max_in_flight(&self) -> u32 {
        self.0.max_in_flight()
    }

    /// `enable.idempotence`.
    #[getter]
    fn enable_idempotence(&self) -> bool {
        self.0.idempotence()
    }

    /// True when `max_in_flight` is 1.
    #[getter]
    fn strict_ordering(&self) -> bool {
        self.0.strict_ordering()
    }

    /// `reconnect.backoff.ms`.
    #[getter]
    fn reconnect_backoff_ms(&self) -> u64 {
        self.0.reconnect_backoff().initial_ms()
    }

    /// `reconnect.backoff.max.ms`.
    #[getter]
    fn reconnect_backoff_max_ms(&self) -> u64 {
        self.0.reconnect_backoff().max_ms()
    }

    /// `metadata.max.age.ms`.
    #[getter]
    fn metadata_max_age_ms(&self) -> u64 {
        self.0.metadata_max_age_ms()
    }

    /// `retry.backoff.ms`.
    #[getter]
    fn retry_backoff_ms(&self) -> u64 {
        self.0.refresh_backoff().initial_ms()
    }

    /// `retry.backoff.max.ms`.
    #[getter]
    fn retry_backoff_max_ms(&self) -> u64 {
        self.0.refresh_backoff().max_ms()
    }

    /// The reconnect backoff after `attempts` failures, with the jitter
    /// draw `jitter` in `[0, 1)` (0.5: none).
    #[pyo3(signature = (attempts, jitter = 0.5))]
    fn reconnect_backoff(&self, attempts: u32, jitter: f64) -> u64 {
        self.0
            .reconnect_backoff()
            .backoff(attempts, self::jitter(jitter))
    }

    fn __repr__(&self) -> String {
        let c = &self.0;
        format!(
            "SenderConfig(max_in_flight={}, enable_idempotence={}, reconnect_backoff_ms={}, reconnect_backoff_max_ms={}, metadata_max_age_ms={}, retry_backoff_ms={}, retry_backoff_max_ms={})",
            c.max_in_flight(),
            if c.idempotence() { "True" } else { "False" },
            c.reconnect_backoff().initial_ms(),
            c.reconnect_backoff().max_ms(),
            c.metadata_max_age_ms(),
            c.refresh_backoff().initial_ms(),
            c.refresh_backoff().max_ms(),
        )
    }
}

/// A node's readiness: `reason` is `"ready"` or the first check it failed
/// (`"initiate_connect"`, `"reconnect_backoff"`, `"connecting"`,
/// `"throttled"`, `"in_flight_full"`, `"metadata_due"`, `"unknown_node"`),
/// with the details behind it. `str()` says it in a sentence.
#[pyclass(frozen, module = "pulsar_routing", name = "Readiness")]
pub(crate) struct PyReadiness(Readiness);

#[pymethods]
impl PyReadiness {
    /// The node id.
    #[getter]
    fn node(&self) -> i32 {
        self.0.node.0
    }

    /// `"ready"` or the first failed check.
    #[getter]
    fn reason(&self) -> &'static str {
        self.0.reason.name()
    }

    /// True when every check passed.
    #[getter]
    fn is_ready(&self) -> bool {
        self.0.is_ready()
    }

    /// The connection state: `"NOT_CONNECTED"`, `"CONNECTING"`,
    /// `"AUTHENTICATING"` or `"READY"`.
    #[getter]
    fn state(&self) -> &'static str {
        self.0.state.name()
    }

    /// Requests in flight on the node's connection.
    #[getter]
    fn in_flight(&self) -> u32 {
        self.0.in_flight
    }

    /// `max.in.flight.requests.per.connection`.
    #[getter]
    fn max_in_flight(&self) -> u32 {
        self.0.max_in_flight
    }

    /// The metadata's age in milliseconds.
    #[getter]
    fn metadata_age_ms(&self) -> u64 {
        self.0.metadata_age_ms
    }

    /// A metadata refresh was requested (rather than expired).
    #[getter]
    fn metadata_update_requested(&self) -> bool {
        self.0.metadata_update_requested
    }

    /// The reconnect backoff or throttle left, in milliseconds.
    #[getter]
    fn backoff_remaining_ms(&self) -> u64 {
        self.0.backoff_remaining_ms
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let r = &self.0;
        format!(
            "Readiness(node={}, reason='{}', state='{}', in_flight={}/{}, metadata_age_ms={}, backoff_remaining_ms={})",
            r.node.0,
            r.reason.name(),
            r.state.name(),
            r.in_flight,
            r.max_in_flight,
            r.metadata_age_ms,
            r.backoff_remaining_ms
        )
    }
}

/// The Kafka producer's sender readiness gate over a fixed set of nodes,
/// driven step by step: report each connection, produce and metadata event
/// with its time (ms), ask `ready()` why a batch would or would not leave.
/// Jitter draws are floats in `[0, 1)`; 0.5 means no jitter.
///
/// Not thread-safe: one thread at a time.
#[pyclass(module = "pulsar_routing", name = "SenderGate")]
pub(crate) struct PySenderGate {
    gate: SenderGate,
}

#[pymethods]
impl PySenderGate {
    #[new]
    #[pyo3(signature = (nodes, config = None))]
    fn new(
        py: Python<'_>,
        nodes: Vec<i32>,
        config: Option<PyRef<'_, PySenderConfig>>,
    ) -> PyResult<Self> {
        let config = config.map_or_else(SenderConfig::default, |c| c.0);
        let gate = lift(py, SenderGate::new(config, nodes))?;
        Ok(Self { gate })
    }

    /// The configuration.
    #[getter]
    fn config(&self) -> PySenderConfig {
        PySenderConfig(*self.gate.config())
    }

    /// The node ids.
    #[getter]
    fn nodes(&self) -> Vec<i32> {
        self.gate.nodes().iter().map(|n| n.id().0).collect()
    }

    /// `NetworkClient.ready(node, now)`: the readiness; on
    /// `"initiate_connect"` the node moves to `CONNECTING`.
    fn ready(&mut self, node: i32, now_ms: u64) -> PyReadiness {
        PyReadiness(self.gate.ready(NodeId(node), now_ms))
    }

    /// The readiness, without side effects.
    fn check(&self, node: i32, now_ms: u64) -> PyReadiness {
        PyReadiness(self.gate.check(NodeId(node), now_ms))
    }

    /// `Sender.sendProducerData`'s filter: runs `ready` on each node of
    /// `nodes`, removes the unready ones from the list in place, and
    /// returns every node's readiness in the original order.
    fn filter_ready(
        &mut self,
        nodes: &Bound<'_, PyList>,
        now_ms: u64,
    ) -> PyResult<Vec<PyReadiness>> {
        let mut ids: Vec<i32> = nodes.extract()?;
        let mut all = Vec::with_capacity(ids.len());
        let kept = self.gate.filter_ready(&mut ids, now_ms, |r| {
            all.push(PyReadiness(*r));
        });
        nodes.del_slice(0, nodes.len())?;
        for id in ids.into_iter().take(kept) {
            nodes.append(id)?;
        }
        Ok(all)
    }

    /// Reports a connection event: `"connect"`, `"connected"`,
    /// `"authenticated"`, `"disconnected"` or `"authentication_failed"`.
    #[pyo3(signature = (node, event, now_ms, jitter = 0.5))]
    fn connection_event(
        &mut self,
        py: Python<'_>,
        node: i32,
        event: &str,
        now_ms: u64,
        jitter: f64,
    ) -> PyResult<()> {
        let event = lift(py, owned::connection_event(event))?;
        lift(
            py,
            self.gate
                .connection_event(NodeId(node), event, now_ms, self::jitter(jitter)),
        )
    }

    /// The broker throttles the node until `until_ms`.
    fn throttle(&mut self, py: Python<'_>, node: i32, until_ms: u64) -> PyResult<()> {
        lift(py, self.gate.throttle(NodeId(node), until_ms))
    }

    /// Sends a produce request to the node; raises `SenderNotReadyError`
    /// (with the `readiness`) when it does not pass the gate.
    fn send(&mut self, py: Python<'_>, node: i32, now_ms: u64) -> PyResult<PyReadiness> {
        lift(py, self.gate.send(NodeId(node), now_ms)).map(PyReadiness)
    }

    /// The node answered a produce request: `"success"`,
    /// `"not_leader_or_follower"` (forces a metadata refresh) or
    /// `"other_error"`.
    #[pyo3(signature = (node, outcome = "success"))]
    fn response(&mut self, py: Python<'_>, node: i32, outcome: &str) -> PyResult<()> {
        let outcome = lift(py, owned::produce_outcome(outcome))?;
        lift(py, self.gate.response(NodeId(node), outcome))
    }

    /// `metadata.requestUpdate()`.
    fn request_metadata_update(&mut self) {
        self.gate.request_metadata_update();
    }

    /// A metadata request went out.
    fn metadata_fetch_started(&mut self) {
        self.gate.metadata_fetch_started();
    }

    /// The metadata response arrived.
    #[pyo3(signature = (now_ms, jitter = 0.5))]
    fn metadata_updated(&mut self, now_ms: u64, jitter: f64) {
        self.gate.metadata_updated(now_ms, self::jitter(jitter));
    }

    /// The metadata request failed.
    #[pyo3(signature = (now_ms, jitter = 0.5))]
    fn metadata_failed(&mut self, now_ms: u64, jitter: f64) {
        self.gate.metadata_failed(now_ms, self::jitter(jitter));
    }

    /// `metadata.timeToNextUpdate(now)`.
    fn time_to_next_metadata_update(&self, now_ms: u64) -> u64 {
        self.gate.time_to_next_metadata_update(now_ms)
    }

    /// True while a metadata refresh is due (no produce request leaves).
    fn is_metadata_update_due(&self, now_ms: u64) -> bool {
        self.gate.is_metadata_update_due(now_ms)
    }

    /// The node's connection state name.
    fn connection_state(&self, py: Python<'_>, node: i32) -> PyResult<&'static str> {
        let node = lift(py, self.gate.node(NodeId(node)))?;
        Ok(node.connection().state().name())
    }

    /// The node's requests in flight.
    fn in_flight(&self, py: Python<'_>, node: i32) -> PyResult<u32> {
        let node = lift(py, self.gate.node(NodeId(node)))?;
        Ok(node.in_flight().count())
    }

    /// The producer metrics, by their Kafka names: `connection-count`,
    /// `connection-creation-total`, `in-flight-requests-count` and
    /// `metadata-age` (seconds, a float, as Java reports it).
    fn counters<'py>(&self, py: Python<'py>, now_ms: u64) -> PyResult<Bound<'py, PyDict>> {
        let c = self.gate.counters(now_ms);
        let d = PyDict::new(py);
        d.set_item("connection-count", c.connection_count)?;
        d.set_item("connection-creation-total", c.connection_creation_total)?;
        d.set_item("in-flight-requests-count", c.in_flight_requests_count)?;
        #[allow(clippy::cast_precision_loss)]
        d.set_item("metadata-age", c.metadata_age_ms as f64 / 1000.0)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SenderGate {} nodes, max_in_flight={}>",
            self.gate.nodes().len(),
            self.gate.config().max_in_flight()
        )
    }
}

/// A Pulsar producer's pending-message queue: `maxPendingMessages` (0: no
/// limit, the default since Pulsar 2.10) and `blockIfQueueFull`.
#[pyclass(module = "pulsar_routing", name = "PendingQueue")]
pub(crate) struct PyPendingQueue(PendingQueue);

#[pymethods]
impl PyPendingQueue {
    #[new]
    #[pyo3(signature = (max_pending_messages = 0, block_if_queue_full = false))]
    fn new(py: Python<'_>, max_pending_messages: i64, block_if_queue_full: bool) -> PyResult<Self> {
        lift(
            py,
            PendingQueue::new(max_pending_messages, block_if_queue_full),
        )
        .map(Self)
    }

    /// `"ok"`, or what a send would do now: `"would_block"` or
    /// `"would_fail"`.
    fn check(&self) -> &'static str {
        match self.0.check() {
            Ok(()) => "ok",
            Err(QueueFull::WouldBlock) => "would_block",
            Err(QueueFull::WouldFail) => "would_fail",
        }
    }

    /// `canEnqueueRequest`: one more message enters, or
    /// `ProducerQueueIsFullError` (its `would_block` says which case).
    fn try_enqueue(&mut self, py: Python<'_>) -> PyResult<()> {
        lift(py, self.0.try_enqueue())
    }

    /// `n` messages were acknowledged or failed.
    #[pyo3(signature = (n = 1))]
    fn complete(&mut self, n: u32) {
        self.0.complete(n);
    }

    /// Messages in the queue.
    #[getter]
    fn pending(&self) -> u32 {
        self.0.pending()
    }

    /// `maxPendingMessages`.
    #[getter]
    fn max_pending_messages(&self) -> u32 {
        self.0.max_pending_messages()
    }

    /// `blockIfQueueFull`.
    #[getter]
    fn block_if_queue_full(&self) -> bool {
        self.0.block_if_queue_full()
    }

    fn __repr__(&self) -> String {
        let block = self.0.block_if_queue_full();
        format!(
            "PendingQueue(pending={}, max_pending_messages={}, block_if_queue_full={})",
            self.0.pending(),
            self.0.max_pending_messages(),
            if block { "True" } else { "False" }
        )
    }
}

/// The smallest `maxPendingMessages` that absorbs a reconnect:
/// `ceil(peak_rate_per_sec * reconnect_window_ms / 1000)`.
#[pyfunction(name = "required_max_pending_messages")]
pub(crate) fn py_required_max_pending_messages(
    peak_rate_per_sec: u64,
    reconnect_window_ms: u64,
) -> u64 {
    required_max_pending_messages(peak_rate_per_sec, reconnect_window_ms)
}
