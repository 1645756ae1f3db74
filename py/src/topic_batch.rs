//! Many topic names at once, from a list, a numpy array or a pyarrow array:
//! parsed and hashed (CRC-32 of the canonical name, the broker's bundle
//! hash) with the GIL released for long inputs.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pulsar_routing::PartitionCount;
use pulsar_routing::topic_name::{TopicName, TopicNameRules};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrow::{ArrowTypes, ArrowValue, DETACH_MIN_VALUES, for_each_arrow_value};
use crate::batch::OBJECT_BATCH;
use crate::buffers::{ExportedBytes, detach_above};
use crate::errors::topic_name_error;
use crate::topics::PyTopicName;

/// One topic of a batch.
#[derive(Clone, Copy)]
pub(crate) enum TopicItem<'a> {
    /// `None`, or an Arrow null.
    Null,
    /// A name to parse.
    Text(&'a str),
    /// A `TopicName` object, parsed with its own rules.
    Parsed(&'a PyTopicName),
}

/// Calls `visit` with every topic of `topics`, in order: an iterable of
/// `str`, `TopicName` and `None`, a one-dimensional numpy array of dtype
/// `U`, `O` or `T`, or a pyarrow `Array`/`ChunkedArray` of `string` or
/// `large_string`. Long inputs are visited with the GIL released.
pub(crate) fn for_each_topic<F>(
    py: Python<'_>,
    topics: &Bound<'_, PyAny>,
    visit: &mut F,
) -> PyResult<()>
where
    F: FnMut(TopicItem<'_>) -> PyResult<()> + Send,
{
    if topics.is_instance_of::<PyString>() || topics.is_instance_of::<PyTopicName>() {
        return Err(PyTypeError::new_err(
            "topics must be a collection of topic names, not one name",
        ));
    }
    if let Ok(array) = topics.cast::<PyUntypedArray>() {
        return numpy_topics(py, array, visit);
    }
    let types = ArrowTypes {
        what: "topics",
        binary: false,
    };
    let is_arrow = for_each_arrow_value(py, topics, types, &mut |value| match value {
        ArrowValue::Null => visit(TopicItem::Null),
        ArrowValue::Text(text) => visit(TopicItem::Text(text)),
        // Not accepted by `types`.
        ArrowValue::Bytes(_) => Err(PyTypeError::new_err("topics must be text")),
    })?;
    if is_arrow {
        return Ok(());
    }
    object_topics(py, topics, visit)
}

/// Any iterable of `str`, `TopicName` and `None`, read in batches: the items
/// of one batch are gathered with the GIL held, then visited (with it
/// released for a full batch) while the batch keeps them alive.
fn object_topics<F>(py: Python<'_>, topics: &Bound<'_, PyAny>, visit: &mut F) -> PyResult<()>
where
    F: FnMut(TopicItem<'_>) -> PyResult<()> + Send,
{
    let mut items = topics.try_iter()?;
    let mut batch = Vec::with_capacity(OBJECT_BATCH);
    let mut first = 0;
    loop {
        batch.clear();
        for item in items.by_ref().take(OBJECT_BATCH) {
            batch.push(item?);
        }
        if batch.is_empty() {
            return Ok(());
        }
        let topics = batch
            .iter()
            .enumerate()
            .map(|(i, item)| topic_item(item, first + i))
            .collect::<PyResult<Vec<TopicItem<'_>>>>()?;
        first += batch.len();
        // `str` objects are immutable, `TopicName` objects frozen, and
        // `batch` holds them all.
        detach_above(py, topics.len(), DETACH_MIN_VALUES, || {
            topics.iter().try_for_each(|&topic| visit(topic))
        })?;
    }
}

fn topic_item<'a>(item: &'a Bound<'_, PyAny>, index: usize) -> PyResult<TopicItem<'a>> {
    if item.is_none() {
        Ok(TopicItem::Null)
    } else if let Ok(text) = item.cast::<PyString>() {
        Ok(TopicItem::Text(text.to_str()?))
    } else if let Ok(topic) = item.cast::<PyTopicName>() {
        Ok(TopicItem::Parsed(topic.get()))
    } else {
        Err(PyTypeError::new_err(format!(
            "topics[{index}] must be str, TopicName or None, not {}",
            item.get_type().name()?
        )))
    }
}

/// A one-dimensional numpy array of dtype `U` (read in place), `O` or `T`.
fn numpy_topics<F>(py: Python<'_>, array: &Bound<'_, PyUntypedArray>, visit: &mut F) -> PyResult<()>
where
    F: FnMut(TopicItem<'_>) -> PyResult<()> + Send,
{
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "topics must be a one-dimensional array, not {}-dimensional",
            array.ndim()
        )));
    }
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind == b'O' || kind == b'T' {
        return object_topics(py, array.as_any(), visit);
    }
    if kind != b'U' {
        return Err(PyTypeError::new_err(format!(
            "topics must be an array of str (dtype U) or objects, not dtype {}",
            dtype.str()?
        )));
    }
    let len = array.len();
    let item_size = dtype.itemsize();
    if len == 0 {
        return Ok(());
    }
    if item_size == 0 {
        // Zero-width items are all empty strings.
        return (0..len).try_for_each(|_| visit(TopicItem::Text("")));
    }
    let contiguous = if array.is_c_contiguous() {
        array.as_any().clone()
    } else {
        py.import(intern!(py, "numpy"))?
            .call_method1(intern!(py, "ascontiguousarray"), (array,))?
    };
    let exported = ExportedBytes::get(&contiguous)?;
    let data = exported.as_bytes();
    if data.len() != len * item_size {
        return Err(PyValueError::new_err("array buffer has an unexpected size"));
    }
    let swapped = dtype.is_native_byteorder() == Some(false);
    detach_above(py, len, DETACH_MIN_VALUES, || {
        // Each item is decoded into one reused string.
        let mut text = String::with_capacity(item_size);
        for (index, item) in data.chunks_exact(item_size).enumerate() {
            let code_points = item.chunks_exact(4).map(|unit| {
                let cp = u32::from_ne_bytes([unit[0], unit[1], unit[2], unit[3]]);
                if swapped { cp.swap_bytes() } else { cp }
            });
            // numpy drops trailing NULs when it hands an item out.
            let end = code_points
                .clone()
                .rposition(|cp| cp != 0)
                .map_or(0, |last| last + 1);
            text.clear();
            for cp in code_points.take(end) {
                let c = char::from_u32(cp).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "topics[{index}] holds {cp:#x}, which is not a Unicode scalar value \
                         (a topic name cannot hold a lone surrogate)"
                    ))
                })?;
                text.push(c);
            }
            visit(TopicItem::Text(&text))?;
        }
        Ok(())
    })
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
    let mut hashes = Vec::with_capacity(topics.len().unwrap_or(0));
    for_each_topic(py, topics, &mut |item| {
        let topic = match item {
            TopicItem::Null => {
                let per_topic = partitions.map_or(1, |n| n.get() as usize);
                hashes.extend(std::iter::repeat_n(None, per_topic));
                return Ok(());
            }
            TopicItem::Text(text) => {
                TopicName::parse_with(text, rules).map_err(topic_name_error)?
            }
            TopicItem::Parsed(topic) => topic.parsed()?,
        };
        match partitions {
            None => hashes.push(Some(topic.crc32())),
            Some(n) => {
                // A partition count is below 2**31, so every index is an int.
                for index in 0..n.get() as i32 {
                    let partition = topic.partition(index).map_err(topic_name_error)?;
                    hashes.push(Some(partition.crc32()));
                }
            }
        }
        Ok(())
    })?;
    Ok(hashes)
}
