//! Pulsar's `Murmur3_32Hash`, one-shot and streaming.

use pyo3::prelude::*;

use crate::buffers::{Streaming, hash_text_or_bytes};

/// Pulsar's `Murmur3_32Hash`: MurmurHash3 x86_32 (seed 0) masked to 31 bits.
/// A `str` is hashed as its UTF-8 bytes, like Java's `makeHash(String)`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn murmur3_32(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, pulsar_routing::murmur3_32)
}

/// The raw MurmurHash3 x86_32 (seed 0), as an unsigned 32-bit number.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn murmur3_32_raw(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, pulsar_routing::murmur3_32_raw)
}

/// Streaming MurmurHash3 x86_32 (seed 0): any chunking gives the one-shot
/// result. Shareable between threads; each `update` is atomic.
#[pyclass(frozen, module = "pulsar_routing", name = "Murmur3Hasher")]
pub(crate) struct PyMurmur3Hasher(Streaming<pulsar_routing::Murmur3Hasher>);

#[pymethods]
impl PyMurmur3Hasher {
    #[new]
    #[pyo3(signature = (data = None, /))]
    fn new(py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Streaming::new(py, pulsar_routing::Murmur3Hasher::new(), data).map(Self)
    }

    /// Feeds more bytes (any C-contiguous buffer); returns the hasher.
    #[pyo3(signature = (data, /))]
    fn update<'py>(slf: &Bound<'py, Self>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        slf.get().0.feed(slf.py(), data)?;
        Ok(slf.clone())
    }

    /// The 31-bit (Pulsar-masked) hash of everything fed so far.
    fn finalize(&self) -> u32 {
        self.0.get().finalize()
    }

    /// The raw 32-bit hash of everything fed so far, unsigned.
    fn finalize_raw(&self) -> u32 {
        self.0.get().finalize_raw()
    }

    /// An independent hasher with the same input so far.
    fn copy(&self) -> Self {
        Self(self.0.copy())
    }
}
