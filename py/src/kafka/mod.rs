//! Kafka's keyed partitioners: murmur2, FNV-1a, the Java client's rule and
//! librdkafka's partitioners, one key or many, and the streaming murmur2.

mod partitioners;

pub(crate) use partitioners::*;

use numpy::PyArray1;
use pulsar_routing::kafka::{fnv1a, murmur2, to_positive};
use pulsar_routing_owned::kafka::KeyedPartitioner;
use pyo3::prelude::*;

use crate::buffers::{ByteInput, DETACH_MIN_BYTES, detach_above, hash_text_or_bytes};
use crate::crc32::streaming_hasher;
use crate::errors::{PulsarRoutingError, partition_count};
use crate::profiles::{NO_KEY, client_key, parse, route_all};

/// Kafka's murmur2 (seed 0x9747b28c) as an unsigned 32-bit number; a `str`
/// is hashed as its UTF-8 bytes (`StringSerializer`).
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn kafka_murmur2(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, murmur2)
}

/// Kafka's `Utils.toPositive`: the hash with its sign bit cleared.
#[pyfunction]
#[pyo3(signature = (hash, /))]
pub(crate) fn kafka_to_positive(hash: u32) -> u32 {
    to_positive(hash)
}

/// FNV-1a (32-bit), librdkafka's and Sarama's.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn kafka_fnv1a(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, fnv1a)
}

/// The partition a Kafka producer sends a key to: `"java"` is the Java
/// client (`toPositive(murmur2(key)) % n`), any other name a librdkafka
/// partitioner. `None` as the key is a `null` key; `None` comes back where
/// the producer would pick at random or stick to a partition.
#[pyfunction]
#[pyo3(signature = (key, num_partitions, partitioner = "java"))]
pub(crate) fn kafka_partition(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    num_partitions: i64,
    partitioner: &str,
) -> PyResult<Option<u32>> {
    let n = partition_count(py, num_partitions)?;
    let partitioner: KeyedPartitioner = parse(partitioner)?;
    if let Ok(key) = client_key(key, &"key") {
        return Ok(partitioner.partition(key.bytes(), n));
    }
    // Any other buffer (bytearray, memoryview, ...): its raw bytes.
    let input = ByteInput::get(key)?;
    let bytes = input.as_bytes();
    Ok(detach_above(py, bytes.len(), DETACH_MIN_BYTES, || {
        partitioner.partition(Some(bytes), n)
    }))
}

/// `kafka_partition` of every key, as an int32 numpy array; -1 where the
/// producer would pick at random or stick to a partition.
#[pyfunction]
#[pyo3(signature = (keys, num_partitions, partitioner = "java"))]
pub(crate) fn kafka_partitions<'py>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
    num_partitions: i64,
    partitioner: &str,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let n = partition_count(py, num_partitions)?;
    let partitioner: KeyedPartitioner = parse(partitioner)?;
    route_all(py, keys, |key| {
        Ok(partitioner
            .partition(key.bytes(), n)
            .map_or(NO_KEY, |p| p as i32))
    })
}

streaming_hasher! {
    /// Streaming Kafka murmur2 for a key that arrives in pieces. MurmurHash2
    /// seeds with the total length, so it is given first (`total_len`), and
    /// `finalize` raises `PulsarRoutingError` until exactly that many bytes
    /// were fed. A `str` is fed as its UTF-8 (`StringSerializer`). Shareable
    /// between threads; each `update` is atomic.
    #[pyclass(frozen, module = "pulsar_routing", name = "KafkaMurmur2Hasher")]
    PyKafkaMurmur2Hasher(pulsar_routing::kafka::Murmur2Hasher), new(total_len: u64),
        feeding "`str`, or any C-contiguous buffer";
    /// `kafka_murmur2` of everything fed so far.
    fn finalize(&self) -> PyResult<u32> {
        let done = self.0.get().finalize();
        done.map_err(|e| PulsarRoutingError::new_err(e.to_string()))
    }
}
