//! CRC-32/IEEE, the broker's bundle hash, one-shot and streaming.

use std::sync::Mutex;

use pyo3::prelude::*;

use crate::buffers::{hash_text_or_bytes, update_locked};
use crate::lock;

/// CRC-32/IEEE, unsigned: the broker's namespace-bundle hash. A `str` (a
/// topic name) is hashed as its UTF-8 bytes, like Guava's
/// `hashString(name, UTF_8)`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn crc32(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, pulsar_routing::crc32)
}

/// Streaming CRC-32/IEEE: any chunking gives the one-shot result. Shareable
/// between threads; each `update` is atomic.
#[pyclass(frozen, module = "pulsar_routing", name = "Crc32")]
pub(crate) struct PyCrc32 {
    state: Mutex<pulsar_routing::Crc32>,
}

#[pymethods]
impl PyCrc32 {
    #[new]
    #[pyo3(signature = (data = None, /))]
    fn new(py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let hasher = Self {
            state: Mutex::new(pulsar_routing::Crc32::new()),
        };
        if let Some(data) = data {
            hasher.feed(py, data)?;
        }
        Ok(hasher)
    }

    /// Feeds more bytes (any C-contiguous buffer); returns the hasher.
    #[pyo3(signature = (data, /))]
    fn update<'py>(slf: &Bound<'py, Self>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        slf.get().feed(slf.py(), data)?;
        Ok(slf.clone())
    }

    /// The CRC of everything fed so far, unsigned.
    fn finalize(&self) -> u32 {
        lock(&self.state).finalize()
    }

    /// An independent hasher with the same input so far.
    fn copy(&self) -> Self {
        Self {
            state: Mutex::new(lock(&self.state).clone()),
        }
    }
}

impl PyCrc32 {
    fn feed(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        update_locked(py, &self.state, data, |hasher, bytes| {
            hasher.update(bytes);
        })
    }
}
