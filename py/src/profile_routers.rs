//! The keyless state machines: every client's whole router
//! ([`PyProfileRouter`]), Kafka's built-in sticky partitioner, the Java
//! Kafka producer's decision and librdkafka's sticky producer path.
//!
//! Each object keeps its core state behind a lock, so one can be shared
//! between threads; every call is one step of the state machine.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use pulsar_routing::kafka::{
    Availability, BuiltInPartitioner, JavaClientPartitioner, KafkaError, LibrdkafkaPartitioner,
    LibrdkafkaProducer, PartitionLoadStats, RdRandom, StickyChoice,
};
use pulsar_routing::profiles::{ProfileMessage, ProfileRouter, ProfileSeed};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{KafkaPartitionError, ProfileConfigError, partition_count};
use crate::lock;
use crate::profiles::{ClientKey, config_error, profile_config, route_error};

/// Unix epoch nanoseconds, what the clients' clocks read.
fn epoch_ns() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => i64::try_from(since.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_nanos()).map_or(i64::MIN, |ns| -ns),
    }
}

fn kafka_error(err: KafkaError) -> PyErr {
    match err {
        KafkaError::InvalidStickyBatchSize(_) | KafkaError::StickyLingerOutOfRange(_) => {
            ProfileConfigError::new_err(err.to_string())
        }
        _ => KafkaPartitionError::new_err(err.to_string()),
    }
}

/// A Java `int` as its unsigned bits: random numbers are accepted from
/// `-2**31` (Java's `nextInt()` range) up to `2**32 - 1` (C's unsigned).
fn int_bits(value: i64, what: &str) -> PyResult<u32> {
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
#[pyclass(frozen, module = "pulsar_routing", name = "ProfileRouter")]
pub(crate) struct PyProfileRouter {
    inner: Mutex<ProfileRouter>,
}

#[pymethods]
impl PyProfileRouter {
    #[new]
    #[pyo3(signature = (
        profile = "java", *, scheme = None, mode = None, unsigned_char = false,
        boost_1_74_x86_64 = false, batching = None, batching_max_messages = None,
        batching_max_bytes = None, batching_max_publish_delay_ns = None,
        partition_switch_frequency = None, start = 0, created_ns = 0,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        profile: &str,
        scheme: Option<&str>,
        mode: Option<&str>,
        unsigned_char: bool,
        boost_1_74_x86_64: bool,
        batching: Option<bool>,
        batching_max_messages: Option<u32>,
        batching_max_bytes: Option<u32>,
        batching_max_publish_delay_ns: Option<i64>,
        partition_switch_frequency: Option<i32>,
        start: i64,
        created_ns: i64,
    ) -> PyResult<Self> {
        let start = int_bits(start, "start")?;
        let (profile, mut config) =
            profile_config(profile, scheme, mode, unsigned_char, boost_1_74_x86_64)?;
        let b = &mut config.batching;
        b.enabled = batching.unwrap_or(b.enabled);
        b.max_messages = batching_max_messages.unwrap_or(b.max_messages);
        b.max_bytes = batching_max_bytes.unwrap_or(b.max_bytes);
        b.max_publish_delay_ns = batching_max_publish_delay_ns.unwrap_or(b.max_publish_delay_ns);
        b.partition_switch_frequency =
            partition_switch_frequency.unwrap_or(b.partition_switch_frequency);
        let router = ProfileRouter::new(profile, &config, ProfileSeed { start, created_ns })
            .map_err(|e| config_error(e.to_string()))?;
        Ok(Self {
            inner: Mutex::new(router),
        })
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
        let key = ClientKey::extract(key, &"key")?;
        let ordering = match ordering_key {
            Some(obj) if !obj.is_none() => Some(ClientKey::extract(obj, &"ordering_key")?),
            _ => None,
        };
        let message = ProfileMessage {
            key: key.profile_key(),
            ordering_key: ordering.as_ref().and_then(ClientKey::kafka_bytes),
            payload_len,
        };
        let now = now_ns.unwrap_or_else(epoch_ns);
        lock(&self.inner)
            .route(&message, n, now)
            .map_err(route_error)
    }

    /// The client (`"java"`, `"go"`, ...).
    #[getter]
    fn profile(&self) -> &'static str {
        lock(&self.inner).profile().name()
    }

    fn __repr__(&self) -> String {
        format!("ProfileRouter({:?})", lock(&self.inner).profile().name())
    }
}

/// The draw a sticky partitioner makes, from Python values; the queue sizes
/// are copied, since building the load statistics rewrites them.
struct Choice {
    random: u32,
    available: Option<Vec<u32>>,
    load: Option<(Vec<i32>, Vec<u32>, usize)>,
}

impl Choice {
    fn new(
        random: i64,
        available: Option<Vec<u32>>,
        queue_sizes: Option<Vec<i32>>,
        partition_ids: Option<Vec<u32>>,
        load_length: Option<usize>,
    ) -> PyResult<Self> {
        let load = match (queue_sizes, partition_ids) {
            (None, None) => None,
            (Some(queues), Some(ids)) => {
                let length = load_length.unwrap_or(queues.len());
                Some((queues, ids, length))
            }
            _ => {
                return Err(PyValueError::new_err(
                    "queue_sizes and partition_ids go together",
                ));
            }
        };
        Ok(Self {
            random: int_bits(random, "random")?,
            available,
            load,
        })
    }

    /// Runs `f` with the core's choice.
    fn with<R>(
        &mut self,
        f: impl FnOnce(&StickyChoice<'_>) -> Result<R, KafkaError>,
    ) -> PyResult<R> {
        let load = match &mut self.load {
            Some((queues, ids, length)) => {
                PartitionLoadStats::build(queues, ids, *length).map_err(kafka_error)?
            }
            None => None,
        };
        let choice = StickyChoice {
            random: self.random,
            availability: self
                .available
                .as_deref()
                .map_or(Availability::All, Availability::Only),
            load,
        };
        f(&choice).map_err(kafka_error)
    }
}

/// Kafka's Java-client sticky partitioner for keyless records
/// (`BuiltInPartitioner`, KIP-794) of one topic.
///
/// A keyless record sticks to one partition until `sticky_batch_size`
/// bytes were appended with switching allowed, or twice that in any case;
/// then a partition is drawn from `random` (Java's `nextInt()`): uniformly
/// over `available` (all partitions when `None`), or weighted by the queue
/// lengths when `queue_sizes` and `partition_ids` (adaptive partitioning)
/// are given.
#[pyclass(frozen, module = "pulsar_routing", name = "KafkaBuiltInPartitioner")]
pub(crate) struct PyKafkaBuiltInPartitioner {
    inner: Mutex<BuiltInPartitioner>,
}

#[pymethods]
impl PyKafkaBuiltInPartitioner {
    /// Raises `ProfileConfigError` for a size below 1, as Java throws.
    #[new]
    #[pyo3(signature = (sticky_batch_size, /))]
    fn new(sticky_batch_size: i32) -> PyResult<Self> {
        Ok(Self {
            inner: Mutex::new(BuiltInPartitioner::new(sticky_batch_size).map_err(kafka_error)?),
        })
    }

    /// The partitioner `KafkaProducer` builds from `batch.size`:
    /// `max(1, batch_size)`.
    #[staticmethod]
    #[pyo3(signature = (batch_size = 16384))]
    fn for_batch_size(batch_size: i32) -> Self {
        Self {
            inner: Mutex::new(BuiltInPartitioner::for_batch_size(batch_size)),
        }
    }

    /// `peekCurrentPartitionInfo`: the partition the next keyless record
    /// goes to, drawing one if none was drawn yet.
    #[pyo3(signature = (
        num_partitions, random, *, available = None, queue_sizes = None,
        partition_ids = None, load_length = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn peek_partition(
        &self,
        py: Python<'_>,
        num_partitions: i64,
        random: i64,
        available: Option<Vec<u32>>,
        queue_sizes: Option<Vec<i32>>,
        partition_ids: Option<Vec<u32>>,
        load_length: Option<usize>,
    ) -> PyResult<u32> {
        let n = partition_count(py, num_partitions)?;
        let mut choice = Choice::new(random, available, queue_sizes, partition_ids, load_length)?;
        choice.with(|c| lock(&self.inner).peek_partition(n, c))
    }

    /// `updatePartitionInfo` after a keyless record of `appended_bytes`
    /// bytes: the new partition if it switched, else `None`.
    #[pyo3(signature = (
        appended_bytes, enable_switch, num_partitions, random, *, available = None,
        queue_sizes = None, partition_ids = None, load_length = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn update_partition_info(
        &self,
        py: Python<'_>,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: i64,
        random: i64,
        available: Option<Vec<u32>>,
        queue_sizes: Option<Vec<i32>>,
        partition_ids: Option<Vec<u32>>,
        load_length: Option<usize>,
    ) -> PyResult<Option<u32>> {
        let n = partition_count(py, num_partitions)?;
        let mut choice = Choice::new(random, available, queue_sizes, partition_ids, load_length)?;
        choice
            .with(|c| lock(&self.inner).update_partition_info(appended_bytes, enable_switch, n, c))
    }

    /// The byte threshold for switching.
    #[getter]
    fn sticky_batch_size(&self) -> i32 {
        lock(&self.inner).sticky_batch_size()
    }

    /// `(partition, bytes produced to it)`, or `None` before the first draw.
    #[getter]
    fn current(&self) -> Option<(u32, i32)> {
        lock(&self.inner).current()
    }

    fn __repr__(&self) -> String {
        format!(
            "KafkaBuiltInPartitioner({})",
            lock(&self.inner).sticky_batch_size()
        )
    }
}

/// The Java `KafkaProducer`'s whole partition choice for one topic (no
/// explicit partition, no `partitioner.class`): a record with a key (even
/// an empty one) goes to `toPositive(murmur2(key)) % n` unless
/// `ignore_keys`; a keyless one to the built-in sticky partition, its
/// bytes counting towards the switch.
#[pyclass(frozen, module = "pulsar_routing", name = "KafkaJavaClientPartitioner")]
pub(crate) struct PyKafkaJavaClientPartitioner {
    inner: Mutex<JavaClientPartitioner>,
}

#[pymethods]
impl PyKafkaJavaClientPartitioner {
    #[new]
    #[pyo3(signature = (batch_size = 16384, *, ignore_keys = false))]
    fn new(batch_size: i32, ignore_keys: bool) -> Self {
        Self {
            inner: Mutex::new(JavaClientPartitioner::new(batch_size, ignore_keys)),
        }
    }

    /// The partition a record with `key` (`str` as its UTF-8 bytes,
    /// `bytes`, or `None` for a `null` key) and `appended_bytes` bytes is
    /// appended to. `random` and the other draw options are read only when
    /// this record draws a sticky partition.
    #[pyo3(signature = (
        key, appended_bytes, enable_switch, num_partitions, random, *, available = None,
        queue_sizes = None, partition_ids = None, load_length = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn append(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: i64,
        random: i64,
        available: Option<Vec<u32>>,
        queue_sizes: Option<Vec<i32>>,
        partition_ids: Option<Vec<u32>>,
        load_length: Option<usize>,
    ) -> PyResult<u32> {
        let n = partition_count(py, num_partitions)?;
        let key = ClientKey::extract(key, &"key")?;
        let mut choice = Choice::new(random, available, queue_sizes, partition_ids, load_length)?;
        choice.with(|c| {
            lock(&self.inner).append(key.kafka_bytes(), appended_bytes, enable_switch, n, c)
        })
    }

    /// The sticky partitioner's `(partition, bytes)`, or `None`.
    #[getter]
    fn current(&self) -> Option<(u32, i32)> {
        lock(&self.inner).sticky().current()
    }

    fn __repr__(&self) -> String {
        format!(
            "KafkaJavaClientPartitioner({})",
            lock(&self.inner).sticky().sticky_batch_size()
        )
    }
}

fn librdkafka_partitioner(name: &str) -> PyResult<LibrdkafkaPartitioner> {
    name.parse().map_err(|e| config_error(format!("{e}")))
}

fn rd_random(random: i64, second_random: Option<i64>) -> PyResult<RdRandom> {
    let first = int_bits(random, "random")?;
    let second = match second_random {
        Some(second) => int_bits(second, "second_random")?,
        None => first,
    };
    Ok(RdRandom { first, second })
}

/// librdkafka's producer-side choice for one topic: a `None` key (or an
/// empty one under `consistent_random`) goes to the sticky partition,
/// re-drawn every `sticky_linger_ms` or at once when it has no leader
/// (unless the partitioner is `random`); other keys to the partitioner.
#[pyclass(frozen, module = "pulsar_routing", name = "LibrdkafkaProducer")]
pub(crate) struct PyLibrdkafkaProducer {
    inner: Mutex<LibrdkafkaProducer>,
}

#[pymethods]
impl PyLibrdkafkaProducer {
    /// Raises `ProfileConfigError` for an unknown partitioner or a linger
    /// outside `0..=900000`.
    #[new]
    #[pyo3(signature = (partitioner = "consistent_random", sticky_linger_ms = 10))]
    fn new(partitioner: &str, sticky_linger_ms: i64) -> PyResult<Self> {
        let producer =
            LibrdkafkaProducer::new(librdkafka_partitioner(partitioner)?, sticky_linger_ms)
                .map_err(kafka_error)?;
        Ok(Self {
            inner: Mutex::new(producer),
        })
    }

    /// The partition of a message with `key` produced at `now_us`
    /// (librdkafka's monotonic clock, microseconds). `random` (and
    /// `second_random`, defaulting to it) are `rand_r` draws, read only for
    /// a random partition; `available` lists the partitions with a leader
    /// (`None`: all).
    ///
    /// Raises `KafkaPartitionError` when no sticky partition was drawn yet
    /// (`now_us` within the linger of the clock's origin) or it is beyond a
    /// shrunk topic.
    #[pyo3(signature = (
        key, num_partitions, now_us, random, *, second_random = None, available = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn partition(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        num_partitions: i64,
        now_us: i64,
        random: i64,
        second_random: Option<i64>,
        available: Option<Vec<u32>>,
    ) -> PyResult<u32> {
        let n = partition_count(py, num_partitions)?;
        let key = ClientKey::extract(key, &"key")?;
        let random = rd_random(random, second_random)?;
        let availability = available
            .as_deref()
            .map_or(Availability::All, Availability::Only);
        lock(&self.inner)
            .partition(key.kafka_bytes(), n, now_us, random, availability)
            .map_err(kafka_error)
    }

    /// The configured partitioner's name.
    #[getter]
    fn partitioner(&self) -> &'static str {
        lock(&self.inner).partitioner().name()
    }

    /// The current sticky partition, or `None`.
    #[getter]
    fn sticky_partition(&self) -> Option<u32> {
        lock(&self.inner).sticky_partition()
    }

    fn __repr__(&self) -> String {
        format!(
            "LibrdkafkaProducer({:?})",
            lock(&self.inner).partitioner().name()
        )
    }
}

/// Kafka's `updatePartitionLoadStats`: the cumulative frequency table of
/// the first `length` queue sizes (all by default), or `None` where Java
/// switches adaptive partitioning off.
#[pyfunction]
#[pyo3(signature = (queue_sizes, partition_ids, length = None))]
pub(crate) fn kafka_partition_load_stats(
    mut queue_sizes: Vec<i32>,
    partition_ids: Vec<u32>,
    length: Option<usize>,
) -> PyResult<Option<Vec<i32>>> {
    let length = length.unwrap_or(queue_sizes.len());
    let stats =
        PartitionLoadStats::build(&mut queue_sizes, &partition_ids, length).map_err(kafka_error)?;
    Ok(stats.map(|s| s.cumulative_frequency_table().to_vec()))
}

/// `rd_kafka_msg_partitioner_random`: `random % n`, or `second_random % n`
/// when that partition is not in `available`.
#[pyfunction]
#[pyo3(signature = (num_partitions, random, *, second_random = None, available = None))]
pub(crate) fn librdkafka_random_partition(
    py: Python<'_>,
    num_partitions: i64,
    random: i64,
    second_random: Option<i64>,
    available: Option<Vec<u32>>,
) -> PyResult<u32> {
    let n = partition_count(py, num_partitions)?;
    let random = rd_random(random, second_random)?;
    let availability = available
        .as_deref()
        .map_or(Availability::All, Availability::Only);
    Ok(pulsar_routing::kafka::random_partition(
        n,
        random,
        availability,
    ))
}

/// The exported `rd_kafka_msg_partitioner_<name>` function with its random
/// draws given: the keyed partition, or `librdkafka_random_partition`
/// where it picks at random. `None` is librdkafka's `NULL` key.
#[pyfunction]
#[pyo3(signature = (
    key, num_partitions, partitioner, random, *, second_random = None, available = None,
))]
pub(crate) fn librdkafka_partition(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    num_partitions: i64,
    partitioner: &str,
    random: i64,
    second_random: Option<i64>,
    available: Option<Vec<u32>>,
) -> PyResult<u32> {
    let n = partition_count(py, num_partitions)?;
    let partitioner = librdkafka_partitioner(partitioner)?;
    let key = ClientKey::extract(key, &"key")?;
    let random = rd_random(random, second_random)?;
    let availability = available
        .as_deref()
        .map_or(Availability::All, Availability::Only);
    Ok(partitioner.partition(key.kafka_bytes(), n, random, availability))
}

/// `sticky.partitioning.linger.ms` when unset:
/// `min(900000, int(2 * linger_ms))`.
#[pyfunction]
#[pyo3(signature = (linger_ms = 5.0, /))]
pub(crate) fn librdkafka_default_sticky_linger_ms(linger_ms: f64) -> i64 {
    pulsar_routing::kafka::default_sticky_linger_ms(linger_ms)
}
