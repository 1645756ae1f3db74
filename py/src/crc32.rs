//! CRC-32/IEEE, the broker's bundle hash, one-shot and streaming.

use pyo3::prelude::*;

use crate::buffers::{Streaming, hash_text_or_bytes};

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
pub(crate) struct PyCrc32(Streaming<pulsar_routing::Crc32>);

#[pymethods]
impl PyCrc32 {
    #[new]
    #[pyo3(signature = (data = None, /))]
    fn new(py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Streaming::new(py, pulsar_routing::Crc32::new(), data).map(Self)
    }

    /// Feeds more bytes (any C-contiguous buffer); returns the hasher.
    #[pyo3(signature = (data, /))]
    fn update<'py>(slf: &Bound<'py, Self>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        slf.get().0.feed(slf.py(), data)?;
        Ok(slf.clone())
    }

    /// The CRC of everything fed so far, unsigned.
    fn finalize(&self) -> u32 {
        self.0.get().finalize()
    }

    /// An independent hasher with the same input so far.
    fn copy(&self) -> Self {
        Self(self.0.copy())
    }
}
