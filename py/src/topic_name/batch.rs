//! Many topic names at once, from a list, a numpy array or a pyarrow array
//! (through [`map_keys`]): parsed and hashed (CRC-32 of the canonical name,
//! the broker's bundle hash) with the GIL released for long inputs.

use pulsar_routing::PartitionCount;
use pulsar_routing::topic_name::{TopicName, TopicNameRules};
use pulsar_routing_owned::topic_name::{partition_hashes, per_partition};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::batch::{KeyBatch, KeyRef, map_keys};
use crate::errors::topic_name_error;
use crate::topic_name::PyTopicName;

/// Topics to `hash` of each parsed name; a null topic has no output. The
/// input is an iterable of `str`, `TopicName` and `None`, a one-dimensional
/// numpy array of dtype `U`, `O` or `T`, or a pyarrow `Array`/`ChunkedArray`
/// of `string` or `large_string`.
struct TopicHashes<F> {
    rules: TopicNameRules,
    hash: F,
}

impl<T, F> TopicHashes<F>
where
    F: Fn(TopicName<'_>) -> PyResult<T>,
{
    /// Here, rather than in a struct literal, so that `hash` is inferred
    /// to take a name of any lifetime.
    fn new(rules: TopicNameRules, hash: F) -> Self {
        Self { rules, hash }
    }
}

impl<T, F> KeyBatch for TopicHashes<F>
where
    T: Clone + Send + Sync,
    F: Fn(TopicName<'_>) -> PyResult<T> + Sync,
{
    type Out = Option<T>;
    const WHAT: &'static str = "topics";
    const ONE_KEY: &'static str = "topics must be a collection of topic names, not one name";
    const BYTES: bool = false;
    const OBJECTS: &'static str = "str, TopicName or None";
    const SURROGATES: bool = false;

    fn key(&self, index: usize, key: KeyRef<'_>) -> PyResult<Option<T>> {
        match key {
            KeyRef::None => Ok(None),
            KeyRef::Text(text) => {
                let topic = TopicName::parse_with(text, self.rules).map_err(topic_name_error)?;
                (self.hash)(topic).map(Some)
            }
            // Not taken: `SURROGATES` and `BYTES` are off.
            KeyRef::Utf16(_) => Err(PyValueError::new_err(format!(
                "topics[{index}] holds a lone surrogate"
            ))),
            KeyRef::Bytes(_) => Err(PyTypeError::new_err("topics must be text")),
        }
    }

    fn is_one_key(&self, obj: &Bound<'_, PyAny>) -> bool {
        obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyTopicName>()
    }

    /// A `TopicName` object, parsed with its own rules.
    fn other_object(&self, _index: usize, obj: &Bound<'_, PyAny>) -> Option<PyResult<Option<T>>> {
        let topic = obj.cast::<PyTopicName>().ok()?;
        Some(topic.get().parsed().and_then(&self.hash).map(Some))
    }

    /// What Python says of a `str` it cannot encode as UTF-8.
    fn surrogate_object(&self, _index: usize, text: &Bound<'_, PyString>) -> PyErr {
        match text.to_str() {
            Err(err) => err,
            Ok(_) => PyValueError::new_err("topic name holds a lone surrogate"),
        }
    }

    fn not_scalar_value(&self, index: usize, cp: u32) -> PyErr {
        PyValueError::new_err(format!(
            "topics[{index}] holds {cp:#x}, which is not a Unicode scalar value \
             (a topic name cannot hold a lone surrogate)"
        ))
    }
}

/// The bundle hash of every topic (CRC-32 of its canonical name), in order,
/// or `None` for a null one. With `partitions`, each topic stands for its
/// partitions `0..n` (Java's `getPartition(i)` names), hashed one after the
/// other: `n` entries per topic.
pub(crate) fn topic_hashes(
    py: Python<'_>,
    topics: &Bound<'_, PyAny>,
    rules: TopicNameRules,
    partitions: Option<PartitionCount>,
) -> PyResult<Vec<Option<u32>>> {
    let Some(n) = partitions else {
        return map_keys(
            py,
            topics,
            &TopicHashes::new(rules, |topic| Ok(topic.crc32())),
        );
    };
    let batch = TopicHashes::new(rules, |topic| {
        partition_hashes(&topic, n).map_err(topic_name_error)
    });
    Ok(per_partition(map_keys(py, topics, &batch)?, n))
}
