//! `KeyCounts`: the owned key counter, fed from pyarrow arrays or Python
//! iterables, read back as Python pairs or as one Arrow array.

use std::sync::Mutex;

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pulsar_routing::batch::KeyOffsets;
use pulsar_routing_owned::key_counts::{
    KeyCounts, KeyCountsError as OwnedError, check_weights, check_weights_len,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use crate::arrow::ArrowValues;
use crate::batch::KeyRef;
use crate::errors::{IntoPyException, KeyCountsError, exception_from};
use crate::lock;

exception_from! {
    OwnedError => KeyCountsError,
}

/// The counter and whether a key came as bytes rather than text, which
/// decides whether the keys come back as `str` or `bytes`.
#[derive(Default)]
struct State {
    counts: KeyCounts,
    bytes: bool,
}

impl State {
    fn add(&mut self, key: KeyRef<'_>, weight: f64) -> PyResult<()> {
        let added = match key {
            KeyRef::None => self.counts.add_keyless(weight),
            KeyRef::Text(text) => self.counts.add(text.as_bytes(), weight),
            KeyRef::Bytes(bytes) => {
                self.bytes = true;
                self.counts.add(bytes, weight)
            }
            // A text key counts as its UTF-8 bytes, which UTF-16 with a
            // lone surrogate does not have.
            KeyRef::Utf16(units) => match String::from_utf16(units) {
                Ok(text) => self.counts.add(text.as_bytes(), weight),
                Err(_) => return Err(PyValueError::new_err("keys must be valid Unicode")),
            },
        };
        added.map_err(owned_error)
    }
}

/// Distinct keys with their summed weights, and the weight of keyless rows.
///
/// Keys are `str` or `bytes` (a `str` counts as its UTF-8 bytes, so `"k"`
/// and `b"k"` are one key); `None` is a keyless row. They come back in byte
/// order. A capacity plan from a key log starts here: count once, then
/// route the distinct keys with ``partitions_for_keys``.
#[pyclass(frozen, module = "pulsar_routing", name = "KeyCounts")]
pub(crate) struct PyKeyCounts(Mutex<State>);

#[pymethods]
impl PyKeyCounts {
    #[new]
    fn new() -> Self {
        Self(Mutex::new(State::default()))
    }

    /// Adds rows: `keys` is a pyarrow `Array` or `ChunkedArray` of string,
    /// large_string, binary or large_binary (nulls are keyless rows), or an
    /// iterable of `str`, `bytes` and `None`; `weights`, one per key, are
    /// finite numbers of at least 0 (1 each when omitted). A refused call
    /// adds nothing.
    #[pyo3(signature = (keys, weights = None))]
    fn add(
        &self,
        py: Python<'_>,
        keys: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let weights = weights.map(weights_of).transpose()?;
        if let Some(weights) = &weights {
            check_weights(weights).map_err(|e| e.into_py_exception(py))?;
        }
        let weight_of = |index: usize| {
            weights
                .as_ref()
                .map_or(Some(1.0), |w| w.get(index).copied())
        };
        if let Some(values) = ArrowValues::export(py, keys, "keys")? {
            check_weights_len(values.len(), weights.as_deref()).map_err(owned_error)?;
            // Every value is checked (offsets, UTF-8) before the first is
            // counted, so a refused array adds nothing. The lock is taken
            // with the GIL released, never held while waiting for it.
            py.detach(|| {
                values.visit(|_| Ok(()))?;
                let mut state = lock(&self.0);
                // Without nulls, each chunk is a batch in Arrow's layout,
                // counted a group of keys at a time.
                if let Some(chunks) = values.without_nulls()? {
                    state.bytes |= values.len() > 0 && !values.is_text();
                    let mut at = 0;
                    for (data, offsets) in &chunks {
                        let keys = KeyOffsets::new(data, offsets).map_err(|err| {
                            PyValueError::new_err(format!("malformed Arrow array: {err}"))
                        })?;
                        let weights = weights.as_deref().and_then(|w| w.get(at..at + keys.len()));
                        at += keys.len();
                        state.counts.add_batch(keys, weights).map_err(owned_error)?;
                    }
                    return Ok(());
                }
                let mut index = 0;
                values.visit(|key| {
                    let weight = weight_of(index).unwrap_or_default();
                    index += 1;
                    state.add(key, weight)
                })
            })
        } else {
            let keys = python_keys(keys)?;
            check_weights_len(keys.len(), weights.as_deref()).map_err(owned_error)?;
            py.detach(|| {
                let mut state = lock(&self.0);
                for (index, key) in keys.iter().enumerate() {
                    let key = match key {
                        Some(Key::Text(text)) => KeyRef::Text(text),
                        Some(Key::Bytes(bytes)) => KeyRef::Bytes(bytes),
                        None => KeyRef::None,
                    };
                    state.add(key, weight_of(index).unwrap_or_default())?;
                }
                Ok(())
            })
        }
    }

    /// Adds one keyless row of `weight`.
    #[pyo3(signature = (weight = 1.0))]
    fn add_keyless(&self, py: Python<'_>, weight: f64) -> PyResult<()> {
        lock(&self.0)
            .counts
            .add_keyless(weight)
            .map_err(|e| e.into_py_exception(py))
    }

    fn __len__(&self) -> usize {
        lock(&self.0).counts.len()
    }

    /// The rows added, keyless ones included.
    #[getter]
    fn rows(&self) -> u64 {
        lock(&self.0).counts.rows()
    }

    /// The summed weight of keyless rows, or None if there was none.
    #[getter]
    fn keyless_weight(&self) -> Option<f64> {
        lock(&self.0).counts.keyless_weight()
    }

    /// The bytes of all distinct keys together.
    #[getter]
    fn total_key_bytes(&self) -> usize {
        lock(&self.0).counts.total_key_bytes()
    }

    /// `(key, weight)` pairs in byte order; keys are `str` unless a key was
    /// added as bytes.
    fn sorted<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let state = lock(&self.0);
        let items = state.counts.sorted().map(|(key, weight)| {
            let key = if state.bytes {
                PyBytes::new(py, key).into_any()
            } else {
                // Every key came as text, so its bytes are UTF-8.
                PyString::new(py, &String::from_utf8_lossy(key)).into_any()
            };
            (key, weight)
        });
        PyList::new(py, items)
    }

    /// The keys in byte order as one pyarrow array (large_string, or
    /// large_binary if a key was added as bytes) and their weights as a
    /// numpy array. Needs pyarrow.
    fn to_arrow<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)> {
        let pyarrow = py.import(intern!(py, "pyarrow"))?;
        let (data, offsets, weights, bytes) = {
            let state = lock(&self.0);
            let (data, offsets, weights) = state.counts.sorted_columns();
            (data, offsets, weights, state.bytes)
        };
        let len = weights.len();
        let data_type = if bytes {
            pyarrow.call_method0(intern!(py, "large_binary"))?
        } else {
            pyarrow.call_method0(intern!(py, "large_string"))?
        };
        // Arrow's 64-bit offsets are signed; no key arena reaches 2^63.
        let offsets: Vec<i64> = offsets.into_iter().map(|o| o as i64).collect();
        let buffer =
            |array: Bound<'py, PyAny>| pyarrow.call_method1(intern!(py, "py_buffer"), (array,));
        let buffers = vec![
            py.None().into_bound(py),
            buffer(offsets.into_pyarray(py).into_any())?,
            buffer(data.into_pyarray(py).into_any())?,
        ];
        let array = pyarrow
            .getattr(intern!(py, "Array"))?
            .call_method1(intern!(py, "from_buffers"), (data_type, len, buffers))?;
        Ok((array, weights.into_pyarray(py)))
    }

    fn __repr__(&self) -> String {
        let state = lock(&self.0);
        format!(
            "KeyCounts(keys={}, rows={}, keyless_weight={:?})",
            state.counts.len(),
            state.counts.rows(),
            state.counts.keyless_weight()
        )
    }
}

/// The weights as floats, copied (a float64 numpy array in one go), so
/// that they can be read with the GIL released.
fn weights_of(weights: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    if let Ok(array) = weights.extract::<PyReadonlyArray1<'_, f64>>()
        && let Ok(slice) = array.as_slice()
    {
        return Ok(slice.to_vec());
    }
    weights.extract::<Vec<f64>>()
}

/// One key of an iterable, copied out of its Python object.
enum Key {
    Text(String),
    Bytes(Vec<u8>),
}

/// The keys of an iterable of `str`, `bytes` and `None`.
fn python_keys(keys: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Key>>> {
    keys.try_iter()?
        .map(|item| {
            let item = item?;
            if item.is_none() {
                Ok(None)
            } else if let Ok(text) = item.cast::<PyString>() {
                Ok(Some(Key::Text(text.to_str()?.to_owned())))
            } else if let Ok(bytes) = item.cast::<PyBytes>() {
                Ok(Some(Key::Bytes(bytes.as_bytes().to_vec())))
            } else {
                Err(PyTypeError::new_err(format!(
                    "keys must be str, bytes or None, not {}",
                    item.get_type().name()?
                )))
            }
        })
        .collect()
}

/// The exception of an owned error, made without the GIL (the rows of an
/// Arrow array are counted with it released).
fn owned_error(err: OwnedError) -> PyErr {
    KeyCountsError::new_err(err.to_string())
}
