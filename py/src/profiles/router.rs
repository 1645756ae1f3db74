//! Every client's whole router ([`PyProfileRouter`]), keyless state
//! machine included.
//!
//! Each object keeps its core state behind a lock, so one can be shared
//! between threads; every call is one step of the state machine.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use pulsar_routing::profiles::{ProfileRouter, ProfileSeed};
use pulsar_routing_owned::profiles::ProfileOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::partition_count;
use crate::lock;
use crate::profiles::{config_error, profile_options, route_error, with_message};

/// Unix epoch nanoseconds, what the clients' clocks read.
fn epoch_ns() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => i64::try_from(since.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_nanos()).map_or(i64::MIN, |ns| -ns),
    }
}

/// A Java `int` as its unsigned bits: random numbers are accepted from
/// `-2**31` (Java's `nextInt()` range) up to `2**32 - 1` (C's unsigned).
pub(crate) fn int_bits(value: i64, what: &str) -> PyResult<u32> {
    if let Ok(v) = u32::try_from(value) {
        return Ok(v);
    }
    i32::try_from(value).map(|v| v as u32).map_err(|_| {
        PyValueError::new_err(format!("{what} must be in [-2**31, 2**32), got {value}"))
    })
}

/// One producer's router of any client (`"java"`, `"go"`, `"cpp"`,
/// `"python"`, `"pulsar-rs"`, `"dotpulsar"`), keyless state machine
/// included: Java's time slots or counter, Go's and C++'s count, size and
/// time switching, pulsar-rs's next index, DotPulsar's `int` counter, or
/// the single partition.
///
/// The options are those of `profile_partition`, plus the producer's
/// batching settings (each `None` keeps the client's default) and the
/// client's random choices: `start` (Java's `startPtnIdx` or single
/// partition, Go's and C++'s cursor or single partition, pulsar-rs's last
/// index or single partition, DotPulsar's single partition; in
/// `[-2**31, 2**32)`, a negative Java `int` taken as its bits) and
/// `created_ns`, when the producer was created (Unix epoch nanoseconds).
/// `lazy_start_partitioned_producers` (C++ and Python only) models the
/// start message that producer routes at creation: keyless round robin
/// shifts by one message.
#[pyclass(frozen, module = "pulsar_routing", name = "ProfileRouter")]
pub(crate) struct PyProfileRouter(Mutex<ProfileRouter>);

#[pymethods]
impl PyProfileRouter {
    #[new]
    #[pyo3(signature = (
        profile = "java", *, scheme = None, mode = None, unsigned_char = false,
        boost = None, boost_1_74_x86_64 = false, batching = None, batching_max_messages = None,
        batching_max_bytes = None, batching_max_publish_delay_ns = None,
        partition_switch_frequency = None, lazy_start_partitioned_producers = false, start = 0,
        created_ns = 0,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        profile: &str,
        scheme: Option<&str>,
        mode: Option<&str>,
        unsigned_char: bool,
        boost: Option<&str>,
        boost_1_74_x86_64: bool,
        batching: Option<bool>,
        batching_max_messages: Option<u32>,
        batching_max_bytes: Option<u32>,
        batching_max_publish_delay_ns: Option<i64>,
        partition_switch_frequency: Option<i32>,
        lazy_start_partitioned_producers: bool,
        start: i64,
        created_ns: i64,
    ) -> PyResult<Self> {
        let start = int_bits(start, "start")?;
        let (profile, options) = profile_options(profile, scheme, mode, boost, boost_1_74_x86_64)?;
        let options = ProfileOptions {
            unsigned_char,
            batching,
            batching_max_messages,
            batching_max_bytes,
            batching_max_publish_delay_ns,
            partition_switch_frequency,
            lazy_start: lazy_start_partitioned_producers,
            ..options
        };
        let config = options.config(profile);
        let router = ProfileRouter::new(profile, &config, ProfileSeed { start, created_ns })
            .map_err(|e| config_error(e.to_string()))?;
        Ok(Self(Mutex::new(router)))
    }

    /// Routes one message and advances the keyless state: `key` is `str`,
    /// `bytes` or `None`; `ordering_key` only Go routes by; `payload_len`
    /// Go's and C++'s batching routers count; `now_ns` (Unix epoch
    /// nanoseconds) is the time of the send, `None` reading the system
    /// clock.
    ///
    /// Raises `ProfileRouteError` where the client cannot route the message
    /// or its producer fails the send.
    #[pyo3(signature = (
        key, num_partitions, *, now_ns = None, payload_len = 0, ordering_key = None,
    ))]
    fn route(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        num_partitions: i64,
        now_ns: Option<i64>,
        payload_len: u64,
        ordering_key: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u32> {
        let n = partition_count(py, num_partitions)?;
        with_message(key, ordering_key, payload_len, |message| {
            let now = now_ns.unwrap_or_else(epoch_ns);
            lock(&self.0).route(message, n, now).map_err(route_error)
        })
    }

    /// The client (`"java"`, `"go"`, ...).
    #[getter]
    fn profile(&self) -> &'static str {
        lock(&self.0).profile().name()
    }

    fn __repr__(&self) -> String {
        format!("ProfileRouter({:?})", lock(&self.0).profile().name())
    }
}
