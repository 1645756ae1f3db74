//! Topic lookup, driveable step by step: each event returns a
//! `LookupAction` saying what the client does next and why.

use std::collections::HashMap;
use std::sync::Mutex;

use pulsar_routing::lookup::{
    Admission, AttemptError, Backoff, CoalesceError, LookupAction, LookupError, LookupOptions,
    LookupResponse, LookupThrottle, MetadataOptions, PartitionedMetadataLookup,
    PartitionedMetadataResponse, ProducerStartPlan, ServerError,
};
use pulsar_routing_owned::lookup::{
    ActionParts, ArgumentError, ErrorFamily, ErrorField, ErrorReport, MetadataEvent,
    OwnedLookupAction, OwnedLookupKey, OwnedMetadataAction, OwnedMetadataKey, OwnedTopicLookup,
    Waiting, chain, error_kind, metadata_key, profile_named, response_type_named,
    server_error_named, server_error_of_code, topic_lookup,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{
    CoalescingTableFullError, LookupFailedError, LookupTimeoutError, RedirectLoopError,
    TooManyRedirectsError, TooManyRequestsError, TopicLookupError, with_attr,
};
use crate::lock;

/// A lookup error without attributes of its own.
fn lookup_error(e: impl ToString) -> PyErr {
    TopicLookupError::new_err(e.to_string())
}

/// A caller's argument the lookup does not know.
fn argument_error(e: ArgumentError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The exception for a lookup failure, with the attributes its report
/// names; `chain` is the attempt's redirect chain.
fn lookup_exception(
    py: Python<'_>,
    error: LookupError,
    server_message: &str,
    chain: &[(String, bool)],
) -> PyErr {
    let report = ErrorReport::new(error, server_message);
    let mut err = match report.family {
        ErrorFamily::Timeout => LookupTimeoutError::new_err(report.text),
        ErrorFamily::Failed => LookupFailedError::new_err(report.text),
        ErrorFamily::TooManyRedirects => TooManyRedirectsError::new_err(report.text),
        ErrorFamily::RedirectLoop => RedirectLoopError::new_err(report.text),
        ErrorFamily::TooManyRequests => TooManyRequestsError::new_err(report.text),
        ErrorFamily::Other => TopicLookupError::new_err(report.text),
    };
    for (name, value) in report.fields {
        err = match value {
            ErrorField::Number(n) => with_attr(py, err, name, n),
            ErrorField::Text(t) => with_attr(py, err, name, t),
            ErrorField::MaybeText(t) => with_attr(py, err, name, t),
            ErrorField::Chain => with_attr(py, err, name, chain.to_vec()),
        };
    }
    err
}

/// What the client does next, and why.
///
/// `kind` is "send_lookup", "retry_at", "done", "failed", "ignored" (topic
/// lookup), or "connect", "send_partitioned_metadata", "retry_at", "done",
/// "failed", "ignored" (partitioned metadata). The other attributes apply
/// to some kinds and are None (or False/0) otherwise; `reason` says why in
/// words.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupAction")]
#[derive(Clone, Debug)]
pub(crate) struct PyLookupAction {
    #[pyo3(get)]
    kind: &'static str,
    #[pyo3(get)]
    logical_address: Option<String>,
    #[pyo3(get)]
    physical_address: Option<String>,
    #[pyo3(get)]
    authoritative: bool,
    #[pyo3(get)]
    send_properties: bool,
    #[pyo3(get)]
    use_proxy: bool,
    #[pyo3(get)]
    metadata_auto_creation: bool,
    #[pyo3(get)]
    redirects: u32,
    #[pyo3(get)]
    attempt: u32,
    #[pyo3(get)]
    at_ms: Option<u64>,
    #[pyo3(get)]
    delay_ms: Option<u64>,
    #[pyo3(get)]
    partitions: Option<u32>,
    #[pyo3(get)]
    error: Option<String>,
    #[pyo3(get)]
    error_kind: Option<&'static str>,
    #[pyo3(get)]
    server_error: Option<&'static str>,
    #[pyo3(get)]
    server_message: Option<String>,
    #[pyo3(get)]
    chain: Vec<(String, bool)>,
    #[pyo3(get)]
    reason: String,
    /// The repr after `LookupAction.`.
    description: String,
    /// The error behind a "failed" or "retry_at" action, to rebuild its
    /// exception.
    lookup_error: Option<LookupError>,
}

#[pymethods]
impl PyLookupAction {
    /// The exception this action stands for ("failed": the failure;
    /// "retry_at": the attempt's error), or None.
    fn exception(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.exception_of(py).map(|e| e.into_value(py).into_any())
    }

    /// Raises the exception of a "failed" action; does nothing otherwise.
    fn raise_for_error(&self, py: Python<'_>) -> PyResult<()> {
        match self.exception_of(py) {
            Some(e) if self.kind == "failed" => Err(e),
            _ => Ok(()),
        }
    }

    fn __repr__(&self) -> String {
        format!("LookupAction.{}", self.description)
    }
}

impl PyLookupAction {
    /// The Python form of an action of either driver.
    fn new(action: &impl ActionParts, chain: Vec<(String, bool)>) -> Self {
        let (flat, e) = (action.flat_action(), action.explanation_of());
        Self {
            kind: flat.kind.name(),
            logical_address: flat.logical_address.map(str::to_owned),
            physical_address: flat.physical_address.map(str::to_owned),
            authoritative: flat.authoritative,
            send_properties: flat.send_properties,
            use_proxy: flat.use_proxy,
            metadata_auto_creation: flat.metadata_auto_creation,
            redirects: flat.redirects,
            attempt: e.attempt(),
            at_ms: flat.at_ms,
            delay_ms: flat.delay_ms,
            partitions: flat.partitions,
            error: e.error_text(),
            error_kind: e.error().map(error_kind),
            server_error: e.server_error().map(ServerError::name),
            server_message: e.server_message().map(str::to_owned),
            chain,
            reason: e.reason().to_owned(),
            description: flat.describe(e),
            lookup_error: e.error(),
        }
    }

    /// The exception of the error behind the action, if any.
    fn exception_of(&self, py: Python<'_>) -> Option<PyErr> {
        let message = self.server_message.as_deref().unwrap_or("");
        self.lookup_error
            .map(|e| lookup_exception(py, e, message, &self.chain))
    }
}

/// A ServerError given by name or code.
fn server_error(value: &Bound<'_, PyAny>) -> PyResult<ServerError> {
    match value.extract::<i32>() {
        Ok(code) => server_error_of_code(code).map_err(argument_error),
        Err(_) => server_error_named(&value.extract::<String>()?).map_err(argument_error),
    }
}

/// One topic lookup, driven step by step (Java's
/// `BinaryProtoLookupService.getBroker` with the producer's retries).
///
/// Feed it events with the time in milliseconds; every method returns the
/// `LookupAction` the client takes next. Thread-safe (a lock serialises
/// the calls). `profile` is "java" (Java/C++, the default) or "go".
/// `detect_redirect_loops=True` adds an opt-in loop heuristic that no real
/// client has (they redirect until `max_redirects`); the default is the
/// client's exact behaviour.
#[pyclass(frozen, module = "pulsar_routing", name = "TopicLookup")]
pub(crate) struct PyTopicLookup(Mutex<OwnedTopicLookup>);

impl PyTopicLookup {
    fn drive(
        &self,
        f: impl for<'a> FnOnce(&'a mut OwnedTopicLookup) -> LookupAction<'a>,
    ) -> PyLookupAction {
        let mut l = lock(&self.0);
        let action = OwnedLookupAction::drive(&mut l, f);
        PyLookupAction::new(&action, chain(&l))
    }
}

#[pymethods]
impl PyTopicLookup {
    #[new]
    #[pyo3(signature = (
        service_address,
        *,
        use_tls = false,
        max_redirects = 20,
        profile = "java",
        operation_timeout_ms = 30_000,
        lookup_timeout_ms = None,
        retry = true,
        detect_redirect_loops = false,
        jitter_seed = 0,
        chain_capacity = 21,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        service_address: &str,
        use_tls: bool,
        max_redirects: u32,
        profile: &str,
        operation_timeout_ms: u64,
        lookup_timeout_ms: Option<u64>,
        retry: bool,
        detect_redirect_loops: bool,
        jitter_seed: u64,
        chain_capacity: usize,
    ) -> PyResult<Self> {
        let options = LookupOptions {
            use_tls,
            max_redirects,
            profile: profile_named(profile).map_err(argument_error)?,
            operation_timeout_ms,
            lookup_timeout_ms,
            retry,
            detect_redirect_loops,
            jitter_seed,
        };
        let lookup =
            topic_lookup(service_address, options, chain_capacity).map_err(lookup_error)?;
        Ok(Self(Mutex::new(lookup)))
    }

    /// Starts at `now_ms`: the first lookup goes to the service address.
    fn start(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|l| l.start(now_ms))
    }

    /// The broker's response. `kind` is "connect", "redirect", "failed" or
    /// None (absent); `error` a ServerError name or code.
    #[pyo3(signature = (
        kind,
        now_ms,
        *,
        broker_service_url = None,
        broker_service_url_tls = None,
        authoritative = false,
        proxy_through_service_url = false,
        error = None,
        message = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn on_response(
        &self,
        kind: Option<&str>,
        now_ms: u64,
        broker_service_url: Option<&str>,
        broker_service_url_tls: Option<&str>,
        authoritative: bool,
        proxy_through_service_url: bool,
        error: Option<&Bound<'_, PyAny>>,
        message: Option<&str>,
    ) -> PyResult<PyLookupAction> {
        let r = LookupResponse {
            response: response_type_named(kind).map_err(argument_error)?,
            broker_service_url,
            broker_service_url_tls,
            authoritative,
            proxy_through_service_url,
            error: error.map(server_error).transpose()?,
            message,
        };
        Ok(self.drive(|l| l.on_response(&r, now_ms)))
    }

    /// The connection for the request failed.
    fn on_connection_failed(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|l| l.on_connection_failed(now_ms))
    }

    /// The request got no answer in time.
    fn on_request_timeout(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|l| l.on_request_timeout(now_ms))
    }

    /// The connection's lookup throttle refused the request.
    #[pyo3(signature = (now_ms, in_flight = 0, queued = 0))]
    fn on_throttled(&self, now_ms: u64, in_flight: u32, queued: u32) -> PyLookupAction {
        let e = AttemptError::TooManyRequests { in_flight, queued };
        self.drive(|l| l.on_attempt_error(e, now_ms))
    }

    /// The retry timer fired.
    fn on_retry_timer(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|l| l.on_retry_timer(now_ms))
    }

    /// The current attempt's redirect chain: (address, authoritative) hops.
    #[getter]
    fn chain(&self) -> Vec<(String, bool)> {
        chain(&lock(&self.0))
    }

    /// Whether the lookup ended.
    #[getter]
    fn is_finished(&self) -> bool {
        lock(&self.0).is_finished()
    }

    /// Attempts made.
    #[getter]
    fn attempts(&self) -> u32 {
        lock(&self.0).attempts()
    }

    /// The deadline, once started.
    #[getter]
    fn deadline_ms(&self) -> Option<u64> {
        lock(&self.0).deadline_ms()
    }

    /// The last Failed response's message.
    #[getter]
    fn server_message(&self) -> String {
        lock(&self.0).server_message().to_owned()
    }
}

/// The partitioned-metadata step before a producer starts
/// (`getPartitionedTopicMetadata` with its retries), step by step.
/// Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "PartitionedMetadataLookup")]
pub(crate) struct PyPartitionedMetadataLookup(Mutex<PartitionedMetadataLookup>);

impl PyPartitionedMetadataLookup {
    fn on(&self, event: MetadataEvent<'_>, now_ms: u64) -> PyLookupAction {
        let action = OwnedMetadataAction::on(&mut lock(&self.0), event, now_ms);
        PyLookupAction::new(&action, Vec::new())
    }
}

#[pymethods]
impl PyPartitionedMetadataLookup {
    #[new]
    #[pyo3(signature = (
        service_address,
        *,
        operation_timeout_ms = 30_000,
        lookup_timeout_ms = None,
        metadata_auto_creation = true,
        use_fallback_for_non_pip344 = false,
        jitter_seed = 0,
    ))]
    fn new(
        service_address: &str,
        operation_timeout_ms: u64,
        lookup_timeout_ms: Option<u64>,
        metadata_auto_creation: bool,
        use_fallback_for_non_pip344: bool,
        jitter_seed: u64,
    ) -> PyResult<Self> {
        let options = MetadataOptions {
            operation_timeout_ms,
            lookup_timeout_ms,
            metadata_auto_creation,
            use_fallback_for_non_pip344,
            jitter_seed,
        };
        let m = PartitionedMetadataLookup::new(service_address, options).map_err(lookup_error)?;
        Ok(Self(Mutex::new(m)))
    }

    /// Starts at `now_ms`.
    fn start(&self, now_ms: u64) -> PyLookupAction {
        self.on(MetadataEvent::Start, now_ms)
    }

    /// Connected; `supports_pip344` is the broker's feature flag.
    fn on_connected(&self, supports_pip344: bool, now_ms: u64) -> PyLookupAction {
        self.on(MetadataEvent::Connected(supports_pip344), now_ms)
    }

    /// The response: `partitions` on success, or `error` (a ServerError
    /// name or code) and `message` on failure. `failed=True` without an
    /// `error` is a failed (or type-less) response without a code, which
    /// Java reports as "Empty lookup response".
    #[pyo3(signature = (now_ms, *, partitions = 0, error = None, message = None, failed = false))]
    fn on_response(
        &self,
        now_ms: u64,
        partitions: u32,
        error: Option<&Bound<'_, PyAny>>,
        message: Option<&str>,
        failed: bool,
    ) -> PyResult<PyLookupAction> {
        let r = match error {
            None if !failed => PartitionedMetadataResponse::Success { partitions },
            None => PartitionedMetadataResponse::Failed {
                error: None,
                message,
            },
            Some(e) => PartitionedMetadataResponse::Failed {
                error: Some(server_error(e)?),
                message,
            },
        };
        Ok(self.on(MetadataEvent::Response(r), now_ms))
    }

    /// The connection failed.
    fn on_connection_failed(&self, now_ms: u64) -> PyLookupAction {
        self.on(MetadataEvent::ConnectionFailed, now_ms)
    }

    /// The retry timer fired.
    fn on_retry_timer(&self, now_ms: u64) -> PyLookupAction {
        self.on(MetadataEvent::RetryTimer, now_ms)
    }

    /// Whether it ended.
    #[getter]
    fn is_finished(&self) -> bool {
        lock(&self.0).is_finished()
    }
}

/// The topics a producer looks up once the partition count is known: the
/// topic itself for 0 partitions, `<topic>-partition-<i>` otherwise.
#[pyfunction]
pub(crate) fn producer_start_topics(topic: &str, partitions: u32) -> Vec<String> {
    ProducerStartPlan { partitions }
        .topics(topic)
        .map(|t| t.to_string())
        .collect()
}

/// A coalescing table keeping the Python objects that wait on each lookup.
type Table<K> = Mutex<Waiting<K, Py<PyAny>>>;

/// Joins `key`'s lookup in `table` with `waiter` (None when not given):
/// whether the caller leads it; a refusal is the Python exception.
fn join<K: PartialEq>(
    py: Python<'_>,
    table: &Table<K>,
    key: K,
    waiter: Option<Py<PyAny>>,
) -> PyResult<bool> {
    match lock(table).join(key, waiter.unwrap_or_else(|| py.None())) {
        Ok((leader, _)) => Ok(leader),
        Err(e @ CoalesceError::TableFull { capacity }) => {
            let err = CoalescingTableFullError::new_err(e.to_string());
            let err = with_attr(py, err, "kind", "coalescing_table_full");
            Err(with_attr(py, err, "capacity", capacity))
        }
        Err(e) => Err(lookup_error(e)),
    }
}

/// The methods of a coalescing table class: the constructor, `len()` and
/// `capacity` both tables share, around the class's own `join` and
/// `complete`.
macro_rules! coalescer_methods {
    ($class:ident { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (capacity = 1024))]
            fn new(capacity: usize) -> Self {
                Self(Mutex::new(Waiting::new(capacity)))
            }

            $($own)*

            fn __len__(&self) -> usize {
                lock(&self.0).len()
            }

            /// The number of slots.
            #[getter]
            fn capacity(&self) -> usize {
                lock(&self.0).capacity()
            }
        }
    };
}

/// The table of lookups in flight (Java's
/// `InProgressDeduplicationDecoratorLookupService`): concurrent requests
/// for the same (topic, properties) share one lookup; the entry goes when
/// it completes. Bounded by `capacity`; thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupCoalescer")]
pub(crate) struct PyLookupCoalescer(Table<OwnedLookupKey>);

coalescer_methods!(PyLookupCoalescer {
    /// Joins the lookup of (`topic`, `properties`): True when the caller
    /// must start it, False when one is in flight. `waiter` (any object,
    /// e.g. a future) is returned by `complete`.
    #[pyo3(signature = (topic, properties = None, waiter = None))]
    fn join(
        &self,
        py: Python<'_>,
        topic: &str,
        properties: Option<HashMap<String, String>>,
        waiter: Option<Py<PyAny>>,
    ) -> PyResult<bool> {
        join(
            py,
            &self.0,
            OwnedLookupKey::new(topic, properties.unwrap_or_default()),
            waiter,
        )
    }

    /// The lookup completed: removes it and returns its waiters, in join
    /// order, to complete with the one result (empty if none was in
    /// flight).
    #[pyo3(signature = (topic, properties = None))]
    fn complete(&self, topic: &str, properties: Option<HashMap<String, String>>) -> Vec<Py<PyAny>> {
        lock(&self.0).complete(&OwnedLookupKey::new(topic, properties.unwrap_or_default()))
    }
});

/// The partitioned-metadata requests in flight (Java's
/// `InProgressDeduplicationDecoratorLookupService.getPartitionedTopicMetadata`):
/// concurrent requests for the same (topic, `metadata_auto_creation`,
/// `use_fallback_for_non_pip344`) share one request; the entry goes when it
/// completes. Bounded by `capacity`; thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "MetadataCoalescer")]
pub(crate) struct PyMetadataCoalescer(Table<OwnedMetadataKey>);

coalescer_methods!(PyMetadataCoalescer {
    /// Joins the request for (`topic`, `metadata_auto_creation`,
    /// `use_fallback_for_non_pip344`): True when the caller must send it,
    /// False when one is in flight. `waiter` is returned by `complete`.
    #[pyo3(signature = (topic, metadata_auto_creation = true, use_fallback_for_non_pip344 = false, waiter = None))]
    fn join(
        &self,
        py: Python<'_>,
        topic: &str,
        metadata_auto_creation: bool,
        use_fallback_for_non_pip344: bool,
        waiter: Option<Py<PyAny>>,
    ) -> PyResult<bool> {
        let k = metadata_key(topic, metadata_auto_creation, use_fallback_for_non_pip344);
        join(py, &self.0, k, waiter)
    }

    /// The request completed: removes it and returns its waiters, in join
    /// order (empty if none was in flight).
    #[pyo3(signature = (topic, metadata_auto_creation = true, use_fallback_for_non_pip344 = false))]
    fn complete(
        &self,
        topic: &str,
        metadata_auto_creation: bool,
        use_fallback_for_non_pip344: bool,
    ) -> Vec<Py<PyAny>> {
        let k = metadata_key(topic, metadata_auto_creation, use_fallback_for_non_pip344);
        lock(&self.0).complete(&k)
    }
});

/// A connection's lookup throttle (`ClientCnx`): `concurrent_lookup_requests`
/// in flight, up to `max_lookup_requests` in all. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupThrottle")]
pub(crate) struct PyLookupThrottle(Mutex<LookupThrottle>);

#[pymethods]
impl PyLookupThrottle {
    #[new]
    #[pyo3(signature = (concurrent_lookup_requests = 5_000, max_lookup_requests = 50_000))]
    fn new(concurrent_lookup_requests: u32, max_lookup_requests: u32) -> Self {
        let throttle = LookupThrottle::new(concurrent_lookup_requests, max_lookup_requests);
        Self(Mutex::new(throttle))
    }

    /// Admits a lookup: "send_now" or "queued"; raises TooManyRequestsError
    /// beyond both limits.
    fn acquire(&self, py: Python<'_>) -> PyResult<&'static str> {
        let mut t = lock(&self.0);
        match t.try_acquire() {
            Ok(Admission::SendNow) => Ok("send_now"),
            Ok(Admission::Queued) => Ok("queued"),
            Err(e) => Err(lookup_exception(py, LookupError::Attempt(e), "", &[])),
        }
    }

    /// A lookup in flight completed: True when the oldest queued one must
    /// now be sent.
    fn release(&self) -> bool {
        lock(&self.0).release()
    }

    /// A queued lookup was abandoned before it was sent: False when none
    /// was queued.
    fn cancel_queued(&self) -> bool {
        lock(&self.0).cancel_queued()
    }

    /// Lookups in flight.
    #[getter]
    fn in_flight(&self) -> u32 {
        lock(&self.0).in_flight()
    }

    /// Lookups queued.
    #[getter]
    fn queued(&self) -> u32 {
        lock(&self.0).queued()
    }
}

/// The Java client's `Backoff` (initial 100 ms doubling to 60 s, cut once
/// at the mandatory stop, lowered by up to 10% at random), with the clock
/// and the randomness as arguments. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "Backoff")]
pub(crate) struct PyBackoff(Mutex<Backoff>);

#[pymethods]
impl PyBackoff {
    #[new]
    #[pyo3(signature = (initial_ms = 100, max_ms = 60_000, mandatory_stop_ms = 60_000))]
    fn new(initial_ms: u64, max_ms: u64, mandatory_stop_ms: u64) -> Self {
        let backoff = Backoff::new(initial_ms, max_ms, mandatory_stop_ms);
        Self(Mutex::new(backoff))
    }

    /// The next delay at `now_ms`; `random` stands for Java's
    /// `Random.nextInt(current / 10)` (the delay is lowered by
    /// `random % (current // 10)`), 0 for no jitter.
    #[pyo3(signature = (now_ms, random = 0))]
    fn next(&self, now_ms: u64, random: u32) -> u64 {
        lock(&self.0).next(now_ms, random)
    }

    /// Starts over from the initial delay.
    fn reset(&self) {
        lock(&self.0).reset();
    }
}
