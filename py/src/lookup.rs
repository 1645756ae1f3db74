//! Topic lookup, driveable step by step: each event returns a
//! `LookupAction` saying what the client does next and why.

use std::collections::HashMap;
use std::sync::Mutex;

use pulsar_routing::lookup::{
    Admission, AttemptError, CoalesceError, LookupAction, LookupError, LookupOptions,
    LookupProfile, LookupResponse, LookupThrottle, LookupType, MetadataAction, MetadataOptions,
    PartitionedMetadataLookup, PartitionedMetadataResponse, ProducerStartPlan, ServerError,
};
use pulsar_routing_owned::lookup::{
    Coalescer, Explanation, FlatAction, OwnedLookupAction, OwnedLookupKey, OwnedMetadataAction,
    OwnedMetadataKey, OwnedTopicLookup, coalescer, topic_lookup,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{
    CoalescingTableFullError, LookupFailedError, LookupTimeoutError, RedirectLoopError,
    TooManyRedirectsError, TooManyRequestsError, TopicLookupError,
};
use crate::lock;

/// A short name for each attempt error, the `kind` of actions and
/// exceptions.
fn attempt_kind(e: AttemptError) -> &'static str {
    match e {
        AttemptError::Server(_) => "server_error",
        AttemptError::EmptyResponse => "empty_response",
        AttemptError::MissingBrokerUrl { .. } => "missing_broker_url",
        AttemptError::TooManyRedirects { .. } => "too_many_redirects",
        AttemptError::GoRedirectLimit => "go_redirect_limit",
        AttemptError::RedirectLoop { .. } => "redirect_loop",
        AttemptError::AddressTooLong { .. } => "address_too_long",
        AttemptError::ConnectionFailed => "connection_failed",
        AttemptError::RequestTimeout => "request_timeout",
        AttemptError::TooManyRequests { .. } => "too_many_requests",
        AttemptError::FeatureNotSupported => "feature_not_supported",
        _ => "unknown",
    }
}

/// The text of a failure, with the broker's message after a server error.
fn error_text(e: LookupError, server_message: &str) -> String {
    e.with_server_message(server_message).to_string()
}

fn set(
    err: &PyErr,
    py: Python<'_>,
    name: &str,
    value: impl for<'py> IntoPyObject<'py>,
) -> PyResult<()> {
    err.value(py).setattr(name, value)
}

/// The exception for a lookup failure.
fn lookup_exception(
    py: Python<'_>,
    error: LookupError,
    server_message: &str,
    chain: &[(String, bool)],
) -> PyResult<PyErr> {
    match error {
        LookupError::DeadlineExceeded {
            attempts,
            elapsed_ms,
            last,
        } => {
            let err = LookupTimeoutError::new_err(error_text(error, server_message));
            set(&err, py, "kind", "deadline_exceeded")?;
            set(&err, py, "attempts", attempts)?;
            set(&err, py, "elapsed_ms", elapsed_ms)?;
            let last = last.map(|a| error_text(LookupError::Attempt(a), server_message));
            set(&err, py, "last_error", last)?;
            Ok(err)
        }
        LookupError::Attempt(a) => attempt_exception(py, a, server_message, chain),
        _ => Ok(TopicLookupError::new_err(error.to_string())),
    }
}

fn attempt_exception(
    py: Python<'_>,
    a: AttemptError,
    server_message: &str,
    chain: &[(String, bool)],
) -> PyResult<PyErr> {
    let text = error_text(LookupError::Attempt(a), server_message);
    let err = match a {
        AttemptError::Server(e) => {
            let err = LookupFailedError::new_err(text);
            set(&err, py, "server_error", e.name())?;
            set(&err, py, "server_message", server_message)?;
            err
        }
        AttemptError::TooManyRedirects { limit } => {
            let err = TooManyRedirectsError::new_err(text);
            set(&err, py, "limit", limit)?;
            err
        }
        AttemptError::GoRedirectLimit => {
            let err = TooManyRedirectsError::new_err(text);
            set(
                &err,
                py,
                "limit",
                pulsar_routing::lookup::GO_LOOKUP_MAX_REDIRECT,
            )?;
            err
        }
        AttemptError::RedirectLoop { .. } => {
            let err = RedirectLoopError::new_err(text);
            set(&err, py, "chain", chain.to_vec())?;
            err
        }
        AttemptError::TooManyRequests { in_flight, queued } => {
            let err = TooManyRequestsError::new_err(text);
            set(&err, py, "in_flight", in_flight)?;
            set(&err, py, "queued", queued)?;
            err
        }
        _ => TopicLookupError::new_err(text),
    };
    set(&err, py, "kind", attempt_kind(a))?;
    Ok(err)
}

/// What the client does next, and why.
///
/// `kind` is "send_lookup", "retry_at", "done", "failed", "ignored" (topic
/// lookup), or "connect", "send_partitioned_metadata", "retry_at", "done",
/// "failed", "ignored" (partitioned metadata). The other attributes apply
/// to some kinds and are None (or False/0) otherwise; `reason` says why in
/// words.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupAction")]
#[derive(Clone, Debug, Default)]
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
    lookup_error: Option<LookupErrorBox>,
}

/// The error behind a "failed" or "retry_at" action, to rebuild its
/// exception.
#[derive(Clone, Copy, Debug)]
struct LookupErrorBox(LookupError);

#[pymethods]
impl PyLookupAction {
    /// The exception this action stands for ("failed": the failure;
    /// "retry_at": the attempt's error), or None.
    fn exception(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(LookupErrorBox(e)) = self.lookup_error else {
            return Ok(None);
        };
        let msg = self.server_message.as_deref().unwrap_or("");
        Ok(Some(
            lookup_exception(py, e, msg, &self.chain)?
                .into_value(py)
                .into_any(),
        ))
    }

    /// Raises the exception of a "failed" action; does nothing otherwise.
    fn raise_for_error(&self, py: Python<'_>) -> PyResult<()> {
        match self.lookup_error {
            Some(LookupErrorBox(e)) if self.kind == "failed" => Err(lookup_exception(
                py,
                e,
                self.server_message.as_deref().unwrap_or(""),
                &self.chain,
            )?),
            _ => Ok(()),
        }
    }

    fn __repr__(&self) -> String {
        let mut fields = Vec::new();
        match self.kind {
            "send_lookup" => {
                fields.push(format!(
                    "to={:?}",
                    self.logical_address.as_deref().unwrap_or("")
                ));
                if self.physical_address != self.logical_address {
                    fields.push(format!(
                        "via={:?}",
                        self.physical_address.as_deref().unwrap_or("")
                    ));
                }
                fields.push(format!("authoritative={}", py_bool(self.authoritative)));
                if !self.send_properties {
                    fields.push("send_properties=False".into());
                }
                fields.push(format!("attempt={}", self.attempt));
                fields.push(format!("redirects={}", self.redirects));
            }
            "retry_at" => {
                fields.push(format!("at_ms={}", self.at_ms.unwrap_or(0)));
                fields.push(format!("delay_ms={}", self.delay_ms.unwrap_or(0)));
                fields.push(format!("error={:?}", self.error.as_deref().unwrap_or("")));
            }
            "done" => match self.partitions {
                Some(p) => fields.push(format!("partitions={p}")),
                None => {
                    fields.push(format!(
                        "logical={:?}",
                        self.logical_address.as_deref().unwrap_or("")
                    ));
                    fields.push(format!(
                        "physical={:?}",
                        self.physical_address.as_deref().unwrap_or("")
                    ));
                    fields.push(format!("use_proxy={}", py_bool(self.use_proxy)));
                    fields.push(format!("authoritative={}", py_bool(self.authoritative)));
                }
            },
            "failed" => fields.push(format!("error={:?}", self.error.as_deref().unwrap_or(""))),
            "connect" => fields.push(format!(
                "to={:?}",
                self.physical_address.as_deref().unwrap_or("")
            )),
            "send_partitioned_metadata" => fields.push(format!(
                "metadata_auto_creation={}",
                py_bool(self.metadata_auto_creation)
            )),
            _ => fields.push(format!("reason={:?}", self.reason)),
        }
        format!("LookupAction.{}({})", self.kind, fields.join(", "))
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn chain_of(l: &OwnedTopicLookup) -> Vec<(String, bool)> {
    l.chain()
        .map(|h| (h.address.as_str().to_owned(), h.authoritative))
        .collect()
}

impl PyLookupAction {
    /// The fields every action has: the attempt, the error, the reason.
    fn new(e: &Explanation, chain: Vec<(String, bool)>) -> Self {
        let error = e.error();
        let server = match error.and_then(LookupError::attempt_error) {
            Some(AttemptError::Server(s)) => Some(s.name()),
            _ => None,
        };
        Self {
            kind: "ignored",
            attempt: e.attempt(),
            error: e.error_text(),
            error_kind: error.map(|e| match e {
                LookupError::Attempt(x) => attempt_kind(x),
                _ => "deadline_exceeded",
            }),
            server_error: server,
            server_message: e.server_message().map(str::to_owned),
            chain,
            reason: e.reason().to_owned(),
            lookup_error: error.map(LookupErrorBox),
            ..Self::default()
        }
    }

    /// The Python form of a flat action and its explanation.
    fn from_flat(flat: FlatAction<'_>, e: &Explanation, chain: Vec<(String, bool)>) -> Self {
        Self {
            kind: flat.kind.name(),
            logical_address: flat.logical_address.map(str::to_owned),
            physical_address: flat.physical_address.map(str::to_owned),
            authoritative: flat.authoritative,
            send_properties: flat.send_properties,
            use_proxy: flat.use_proxy,
            metadata_auto_creation: flat.metadata_auto_creation,
            redirects: flat.redirects,
            at_ms: flat.at_ms,
            delay_ms: flat.delay_ms,
            partitions: flat.partitions,
            ..Self::new(e, chain)
        }
    }

    fn from_lookup(a: &OwnedLookupAction, chain: Vec<(String, bool)>) -> Self {
        Self::from_flat(a.flat(), a.explanation(), chain)
    }

    fn from_metadata(a: &OwnedMetadataAction) -> Self {
        Self::from_flat(a.flat(), a.explanation(), Vec::new())
    }
}

fn server_error(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<ServerError>> {
    let Some(value) = value else { return Ok(None) };
    if let Ok(code) = value.extract::<i32>() {
        return ServerError::from_code(code)
            .map(Some)
            .ok_or_else(|| PyValueError::new_err(format!("unknown ServerError code {code}")));
    }
    let name: String = value.extract()?;
    ServerError::from_name(&name)
        .map(Some)
        .ok_or_else(|| PyValueError::new_err(format!("unknown ServerError {name:?}")))
}

/// One topic lookup, driven step by step (Java's
/// `BinaryProtoLookupService.getBroker` with the producer's retries).
///
/// Feed it events with the time in milliseconds; every method returns the
/// `LookupAction` the client takes next. Thread-safe (a lock serialises
/// the calls). `profile` is "java" (Java/C++, the default) or "go".
/// `detect_redirect_loops=False` gives Java's exact behaviour (it has no
/// loop detection and redirects until `max_redirects`).
#[pyclass(frozen, module = "pulsar_routing", name = "TopicLookup")]
pub(crate) struct PyTopicLookup {
    inner: Mutex<OwnedTopicLookup>,
}

impl PyTopicLookup {
    fn drive(
        &self,
        f: impl for<'a> FnOnce(&'a mut OwnedTopicLookup) -> LookupAction<'a>,
    ) -> PyLookupAction {
        let mut l = lock(&self.inner);
        let action = OwnedLookupAction::drive(&mut l, f);
        PyLookupAction::from_lookup(&action, chain_of(&l))
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
        detect_redirect_loops = true,
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
        let profile = LookupProfile::from_name(profile).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown lookup profile {profile:?}: expected \"java\" or \"go\""
            ))
        })?;
        let options = LookupOptions {
            use_tls,
            max_redirects,
            profile,
            operation_timeout_ms,
            lookup_timeout_ms,
            retry,
            detect_redirect_loops,
            jitter_seed,
        };
        let lookup = topic_lookup(service_address, options, chain_capacity)
            .map_err(|e| TopicLookupError::new_err(e.to_string()))?;
        Ok(Self {
            inner: Mutex::new(lookup),
        })
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
        let response = match kind {
            None => None,
            Some("redirect") => Some(LookupType::Redirect),
            Some("connect") => Some(LookupType::Connect),
            Some("failed") => Some(LookupType::Failed),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "unknown lookup response {other:?}: expected \"connect\", \"redirect\" or \"failed\""
                )));
            }
        };
        let r = LookupResponse {
            response,
            broker_service_url,
            broker_service_url_tls,
            authoritative,
            proxy_through_service_url,
            error: server_error(error)?,
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
        chain_of(&lock(&self.inner))
    }

    /// Whether the lookup ended.
    #[getter]
    fn is_finished(&self) -> bool {
        lock(&self.inner).is_finished()
    }

    /// Attempts made.
    #[getter]
    fn attempts(&self) -> u32 {
        lock(&self.inner).attempts()
    }

    /// The deadline, once started.
    #[getter]
    fn deadline_ms(&self) -> Option<u64> {
        lock(&self.inner).deadline_ms()
    }

    /// The last Failed response's message.
    #[getter]
    fn server_message(&self) -> String {
        lock(&self.inner).server_message().to_owned()
    }
}

/// The partitioned-metadata step before a producer starts
/// (`getPartitionedTopicMetadata` with its retries), step by step.
/// Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "PartitionedMetadataLookup")]
pub(crate) struct PyPartitionedMetadataLookup {
    inner: Mutex<PartitionedMetadataLookup>,
}

impl PyPartitionedMetadataLookup {
    fn drive(
        &self,
        f: impl for<'a> FnOnce(&'a mut PartitionedMetadataLookup) -> MetadataAction<'a>,
    ) -> PyLookupAction {
        PyLookupAction::from_metadata(&OwnedMetadataAction::drive(&mut lock(&self.inner), f))
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
        let m = PartitionedMetadataLookup::new(service_address, options)
            .map_err(|e| TopicLookupError::new_err(e.to_string()))?;
        Ok(Self {
            inner: Mutex::new(m),
        })
    }

    /// Starts at `now_ms`.
    fn start(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|m| m.start(now_ms))
    }

    /// Connected; `supports_pip344` is the broker's feature flag.
    fn on_connected(&self, supports_pip344: bool, now_ms: u64) -> PyLookupAction {
        self.drive(|m| m.on_connected(supports_pip344, now_ms))
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
                error: server_error(Some(e))?,
                message,
            },
        };
        Ok(self.drive(|m| m.on_response(&r, now_ms)))
    }

    /// The connection failed.
    fn on_connection_failed(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|m| m.on_connection_failed(now_ms))
    }

    /// The retry timer fired.
    fn on_retry_timer(&self, now_ms: u64) -> PyLookupAction {
        self.drive(|m| m.on_retry_timer(now_ms))
    }

    /// Whether it ended.
    #[getter]
    fn is_finished(&self) -> bool {
        lock(&self.inner).is_finished()
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

/// Lookups in flight under some key, and the Python objects waiting on
/// each: what both coalescers share, whatever their key.
struct Waiting<K> {
    table: Coalescer<K>,
    /// The waiters of each slot's lookup, in join order.
    waiters: HashMap<usize, Vec<Py<PyAny>>>,
}

impl<K: PartialEq> Waiting<K> {
    fn new(capacity: usize) -> Mutex<Self> {
        Mutex::new(Self {
            table: coalescer(capacity),
            waiters: HashMap::new(),
        })
    }

    fn join(&mut self, py: Python<'_>, key: K, waiter: Option<Py<PyAny>>) -> PyResult<bool> {
        join_waiter(py, self.table.join(key), &mut self.waiters, waiter)
    }

    /// Removes the lookup of `key` and returns its waiters (empty if none
    /// was in flight).
    fn complete(&mut self, key: &K) -> Vec<Py<PyAny>> {
        let Some(slot) = self.table.find(key) else {
            return Vec::new();
        };
        let _ = self.table.complete(key);
        self.waiters.remove(&slot).unwrap_or_default()
    }
}

/// The table of lookups in flight (Java's
/// `InProgressDeduplicationDecoratorLookupService`): concurrent requests
/// for the same (topic, properties) share one lookup; the entry goes when
/// it completes. Bounded by `capacity`; thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupCoalescer")]
pub(crate) struct PyLookupCoalescer {
    inner: Mutex<Waiting<OwnedLookupKey>>,
}

fn key(topic: &str, properties: Option<HashMap<String, String>>) -> OwnedLookupKey {
    OwnedLookupKey {
        topic: topic.to_owned(),
        properties: properties.unwrap_or_default().into_iter().collect(),
    }
}

#[pymethods]
impl PyLookupCoalescer {
    #[new]
    #[pyo3(signature = (capacity = 1024))]
    fn new(capacity: usize) -> Self {
        Self {
            inner: Waiting::new(capacity),
        }
    }

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
        lock(&self.inner).join(py, key(topic, properties), waiter)
    }

    /// The lookup completed: removes it and returns its waiters, in join
    /// order, to complete with the one result (empty if none was in
    /// flight).
    #[pyo3(signature = (topic, properties = None))]
    fn complete(&self, topic: &str, properties: Option<HashMap<String, String>>) -> Vec<Py<PyAny>> {
        lock(&self.inner).complete(&key(topic, properties))
    }

    fn __len__(&self) -> usize {
        lock(&self.inner).table.len()
    }

    /// The number of slots.
    #[getter]
    fn capacity(&self) -> usize {
        lock(&self.inner).table.capacity()
    }
}

/// The partitioned-metadata requests in flight (Java's
/// `InProgressDeduplicationDecoratorLookupService.getPartitionedTopicMetadata`):
/// concurrent requests for the same (topic, `metadata_auto_creation`,
/// `use_fallback_for_non_pip344`) share one request; the entry goes when it
/// completes. Bounded by `capacity`; thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "MetadataCoalescer")]
pub(crate) struct PyMetadataCoalescer {
    inner: Mutex<Waiting<OwnedMetadataKey>>,
}

#[pymethods]
impl PyMetadataCoalescer {
    #[new]
    #[pyo3(signature = (capacity = 1024))]
    fn new(capacity: usize) -> Self {
        Self {
            inner: Waiting::new(capacity),
        }
    }

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
        let k = (
            topic.to_owned(),
            metadata_auto_creation,
            use_fallback_for_non_pip344,
        );
        lock(&self.inner).join(py, k, waiter)
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
        let k = (
            topic.to_owned(),
            metadata_auto_creation,
            use_fallback_for_non_pip344,
        );
        lock(&self.inner).complete(&k)
    }

    fn __len__(&self) -> usize {
        lock(&self.inner).table.len()
    }

    /// The number of slots.
    #[getter]
    fn capacity(&self) -> usize {
        lock(&self.inner).table.capacity()
    }
}

/// Records `waiter` for the slot `joined` names, or turns the table's
/// error into the Python exception.
fn join_waiter(
    py: Python<'_>,
    joined: Result<pulsar_routing::lookup::Joined, CoalesceError>,
    waiters: &mut HashMap<usize, Vec<Py<PyAny>>>,
    waiter: Option<Py<PyAny>>,
) -> PyResult<bool> {
    match joined {
        Ok(j) => {
            let list = waiters.entry(j.slot()).or_default();
            if j.is_leader() {
                list.clear();
            }
            list.push(waiter.unwrap_or_else(|| py.None()));
            Ok(j.is_leader())
        }
        Err(CoalesceError::TableFull { capacity }) => {
            let err = CoalescingTableFullError::new_err(
                CoalesceError::TableFull { capacity }.to_string(),
            );
            set(&err, py, "kind", "coalescing_table_full")?;
            set(&err, py, "capacity", capacity)?;
            Err(err)
        }
        Err(e) => Err(TopicLookupError::new_err(e.to_string())),
    }
}

/// A connection's lookup throttle (`ClientCnx`): `concurrent_lookup_requests`
/// in flight, up to `max_lookup_requests` in all. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "LookupThrottle")]
pub(crate) struct PyLookupThrottle {
    inner: Mutex<LookupThrottle>,
}

#[pymethods]
impl PyLookupThrottle {
    #[new]
    #[pyo3(signature = (concurrent_lookup_requests = 5_000, max_lookup_requests = 50_000))]
    fn new(concurrent_lookup_requests: u32, max_lookup_requests: u32) -> Self {
        Self {
            inner: Mutex::new(LookupThrottle::new(
                concurrent_lookup_requests,
                max_lookup_requests,
            )),
        }
    }

    /// Admits a lookup: "send_now" or "queued"; raises TooManyRequestsError
    /// beyond both limits.
    fn acquire(&self, py: Python<'_>) -> PyResult<&'static str> {
        let mut t = lock(&self.inner);
        match t.try_acquire() {
            Ok(Admission::SendNow) => Ok("send_now"),
            Ok(Admission::Queued) => Ok("queued"),
            Err(e) => Err(attempt_exception(py, e, "", &[])?),
        }
    }

    /// A lookup in flight completed: True when the oldest queued one must
    /// now be sent.
    fn release(&self) -> bool {
        lock(&self.inner).release()
    }

    /// A queued lookup was abandoned before it was sent: False when none
    /// was queued.
    fn cancel_queued(&self) -> bool {
        lock(&self.inner).cancel_queued()
    }

    /// Lookups in flight.
    #[getter]
    fn in_flight(&self) -> u32 {
        lock(&self.inner).in_flight()
    }

    /// Lookups queued.
    #[getter]
    fn queued(&self) -> u32 {
        lock(&self.inner).queued()
    }
}

/// The Java client's `Backoff` (initial 100 ms doubling to 60 s, cut once
/// at the mandatory stop, lowered by up to 10% at random), with the clock
/// and the randomness as arguments. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "Backoff")]
pub(crate) struct PyBackoff {
    inner: Mutex<pulsar_routing::lookup::Backoff>,
}

#[pymethods]
impl PyBackoff {
    #[new]
    #[pyo3(signature = (initial_ms = 100, max_ms = 60_000, mandatory_stop_ms = 60_000))]
    fn new(initial_ms: u64, max_ms: u64, mandatory_stop_ms: u64) -> Self {
        Self {
            inner: Mutex::new(pulsar_routing::lookup::Backoff::new(
                initial_ms,
                max_ms,
                mandatory_stop_ms,
            )),
        }
    }

    /// The next delay at `now_ms`; `random` stands for Java's
    /// `Random.nextInt(current / 10)` (the delay is lowered by
    /// `random % (current // 10)`), 0 for no jitter.
    #[pyo3(signature = (now_ms, random = 0))]
    fn next(&self, now_ms: u64, random: u32) -> u64 {
        lock(&self.inner).next(now_ms, random)
    }

    /// Starts over from the initial delay.
    fn reset(&self) {
        lock(&self.inner).reset();
    }
}
