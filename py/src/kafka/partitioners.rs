//! Kafka's keyless state machines: the Java client's built-in sticky
//! partitioner, the Java producer's whole decision and librdkafka's sticky
//! producer path. Each keeps its core state behind a lock, so one object
//! can be shared between threads; every call is one step.

use std::sync::Mutex;

use pulsar_routing::kafka::{
    BuiltInPartitioner, JavaClientPartitioner, KafkaError, LibrdkafkaPartitioner,
    LibrdkafkaProducer, PartitionLoadStats, RdRandom, StickyChoice,
};
use pulsar_routing_owned::kafka::{Draw, LoadInput, availability, pair_load};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{KafkaPartitionError, ProfileConfigError, partition_count};
use crate::lock;
use crate::profiles::{client_key, int_bits, parse};

fn kafka_error(err: KafkaError) -> PyErr {
    match err {
        KafkaError::InvalidStickyBatchSize(_) | KafkaError::StickyLingerOutOfRange(_) => {
            ProfileConfigError::new_err(err.to_string())
        }
        _ => KafkaPartitionError::new_err(err.to_string()),
    }
}

/// The draw a sticky partitioner makes, from Python values; the queue sizes
/// are copied, since building the load statistics rewrites them.
struct Choice {
    random: u32,
    available: Option<Vec<u32>>,
    load: Option<(Vec<i32>, Vec<u32>)>,
    load_length: Option<usize>,
}

impl Choice {
    fn new(
        random: i64,
        available: Option<Vec<u32>>,
        queue_sizes: Option<Vec<i32>>,
        partition_ids: Option<Vec<u32>>,
        load_length: Option<usize>,
    ) -> PyResult<Self> {
        let load = pair_load(queue_sizes, partition_ids)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self {
            random: int_bits(random, "random")?,
            available,
            load,
            load_length,
        })
    }

    /// Runs `f` with the core's choice.
    fn with<R>(
        &mut self,
        f: impl FnOnce(&StickyChoice<'_>) -> Result<R, KafkaError>,
    ) -> PyResult<R> {
        let draw = Draw {
            random: self.random,
            available: self.available.as_deref(),
            load: self
                .load
                .as_mut()
                .map(|(q, ids)| LoadInput::new(q, ids, self.load_length)),
        };
        f(&draw.build().map_err(kafka_error)?).map_err(kafka_error)
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
pub(crate) struct PyKafkaBuiltInPartitioner(Mutex<BuiltInPartitioner>);

#[pymethods]
impl PyKafkaBuiltInPartitioner {
    /// Raises `ProfileConfigError` for a size below 1, as Java throws.
    #[new]
    #[pyo3(signature = (sticky_batch_size, /))]
    fn new(sticky_batch_size: i32) -> PyResult<Self> {
        Ok(Self(Mutex::new(
            BuiltInPartitioner::new(sticky_batch_size).map_err(kafka_error)?,
        )))
    }

    /// The partitioner `KafkaProducer` builds from `batch.size`:
    /// `max(1, batch_size)`.
    #[staticmethod]
    #[pyo3(signature = (batch_size = 16384))]
    fn for_batch_size(batch_size: i32) -> Self {
        Self(Mutex::new(BuiltInPartitioner::for_batch_size(batch_size)))
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
        choice.with(|c| lock(&self.0).peek_partition(n, c))
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
        choice.with(|c| lock(&self.0).update_partition_info(appended_bytes, enable_switch, n, c))
    }

    /// The byte threshold for switching.
    #[getter]
    fn sticky_batch_size(&self) -> i32 {
        lock(&self.0).sticky_batch_size()
    }

    /// `(partition, bytes produced to it)`, or `None` before the first draw.
    #[getter]
    fn current(&self) -> Option<(u32, i32)> {
        lock(&self.0).current()
    }

    fn __repr__(&self) -> String {
        format!(
            "KafkaBuiltInPartitioner({})",
            lock(&self.0).sticky_batch_size()
        )
    }
}

/// The Java `KafkaProducer`'s whole partition choice for one topic (no
/// explicit partition, no `partitioner.class`): a record with a key (even
/// an empty one) goes to `toPositive(murmur2(key)) % n` unless
/// `ignore_keys`; a keyless one to the built-in sticky partition, its
/// bytes counting towards the switch.
#[pyclass(frozen, module = "pulsar_routing", name = "KafkaJavaClientPartitioner")]
pub(crate) struct PyKafkaJavaClientPartitioner(Mutex<JavaClientPartitioner>);

#[pymethods]
impl PyKafkaJavaClientPartitioner {
    #[new]
    #[pyo3(signature = (batch_size = 16384, *, ignore_keys = false))]
    fn new(batch_size: i32, ignore_keys: bool) -> Self {
        let partitioner = JavaClientPartitioner::new(batch_size, ignore_keys);
        Self(Mutex::new(partitioner))
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
        let key = client_key(key, &"key")?.bytes();
        let mut choice = Choice::new(random, available, queue_sizes, partition_ids, load_length)?;
        choice.with(|c| lock(&self.0).append(key, appended_bytes, enable_switch, n, c))
    }

    /// The sticky partitioner's `(partition, bytes)`, or `None`.
    #[getter]
    fn current(&self) -> Option<(u32, i32)> {
        lock(&self.0).sticky().current()
    }

    fn __repr__(&self) -> String {
        format!(
            "KafkaJavaClientPartitioner({})",
            lock(&self.0).sticky().sticky_batch_size()
        )
    }
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
pub(crate) struct PyLibrdkafkaProducer(Mutex<LibrdkafkaProducer>);

#[pymethods]
impl PyLibrdkafkaProducer {
    /// Raises `ProfileConfigError` for an unknown partitioner or a linger
    /// outside `0..=900000`.
    #[new]
    #[pyo3(signature = (partitioner = "consistent_random", sticky_linger_ms = 10))]
    fn new(partitioner: &str, sticky_linger_ms: i64) -> PyResult<Self> {
        let producer = LibrdkafkaProducer::new(
            parse::<LibrdkafkaPartitioner>(partitioner)?,
            sticky_linger_ms,
        )
        .map_err(kafka_error)?;
        Ok(Self(Mutex::new(producer)))
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
        let key = client_key(key, &"key")?.bytes();
        let random = rd_random(random, second_random)?;
        lock(&self.0)
            .partition(key, n, now_us, random, availability(available.as_deref()))
            .map_err(kafka_error)
    }

    /// The configured partitioner's name.
    #[getter]
    fn partitioner(&self) -> &'static str {
        lock(&self.0).partitioner().name()
    }

    /// The current sticky partition, or `None`.
    #[getter]
    fn sticky_partition(&self) -> Option<u32> {
        lock(&self.0).sticky_partition()
    }

    fn __repr__(&self) -> String {
        format!(
            "LibrdkafkaProducer({:?})",
            lock(&self.0).partitioner().name()
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
    let availability = availability(available.as_deref());
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
    let partitioner = parse::<LibrdkafkaPartitioner>(partitioner)?;
    let key = client_key(key, &"key")?.bytes();
    let random = rd_random(random, second_random)?;
    Ok(partitioner.partition(key, n, random, availability(available.as_deref())))
}

/// `sticky.partitioning.linger.ms` when unset:
/// `min(900000, int(2 * linger_ms))`.
#[pyfunction]
#[pyo3(signature = (linger_ms = 5.0, /))]
pub(crate) fn librdkafka_default_sticky_linger_ms(linger_ms: f64) -> i64 {
    pulsar_routing::kafka::default_sticky_linger_ms(linger_ms)
}
