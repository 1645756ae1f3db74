//! The hash functions, one-shot and streaming, and `sign_safe_mod`.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::buffers::{ByteInput, DETACH_MIN_BYTES, detach_above};
use crate::errors::IntoPyException;
use crate::keys::JavaString;
use crate::lock;

/// Hashes `data`: a `str` as Java's `getBytes(UTF_8)`, anything else as the
/// raw bytes of its buffer.
pub(crate) fn hash_text_or_bytes<T: Send>(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    hash: impl Fn(&[u8]) -> T + Send,
) -> PyResult<T> {
    if let Ok(text) = data.cast::<PyString>() {
        let text = JavaString::new(text)?;
        let utf8 = text.utf8();
        let bytes: &[u8] = &utf8;
        return Ok(detach_above(py, bytes.len(), DETACH_MIN_BYTES, move || {
            hash(bytes)
        }));
    }
    hash_bytes(py, data, hash)
}

/// Hashes the raw bytes of a buffer (`bytes`, `bytearray`, `memoryview`,
/// a C-contiguous numpy array, ...).
fn hash_bytes<T: Send>(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    hash: impl Fn(&[u8]) -> T + Send,
) -> PyResult<T> {
    let input = ByteInput::get(data)?;
    let bytes = input.as_bytes();
    Ok(detach_above(py, bytes.len(), DETACH_MIN_BYTES, move || {
        hash(bytes)
    }))
}

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

/// CRC-32/IEEE, unsigned: the broker's namespace-bundle hash. A `str` (a
/// topic name) is hashed as its UTF-8 bytes, like Guava's
/// `hashString(name, UTF_8)`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn crc32(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_text_or_bytes(py, data, pulsar_routing::crc32)
}

/// Pulsar's `JavaStringHash.makeHash(String)`: `s.hashCode() & 0x7fffffff`.
#[pyfunction]
#[pyo3(signature = (s, /))]
pub(crate) fn java_string_hash(s: &Bound<'_, PyString>) -> PyResult<u32> {
    Ok(JavaString::new(s)?.hash(pulsar_routing::HashingScheme::JavaStringHash))
}

/// Java's `String.hashCode()`, signed.
#[pyfunction]
#[pyo3(signature = (s, /))]
pub(crate) fn java_string_hashcode(s: &Bound<'_, PyString>) -> PyResult<i32> {
    Ok(JavaString::new(s)?.hashcode())
}

/// `JavaStringHash.makeHash(byte[])`: the bytes decoded as Java decodes
/// UTF-8, then hashed.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn java_string_hash_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<u32> {
    hash_bytes(py, data, pulsar_routing::java_string_hash_bytes)
}

/// `new String(bytes, UTF_8).hashCode()`, signed.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn java_string_hashcode_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<i32> {
    hash_bytes(py, data, pulsar_routing::java_string_hashcode_bytes)
}

/// `new String(bytes, UTF_8)`: Java's decoding, which replaces malformed
/// input with U+FFFD differently from Python's `errors="replace"`.
#[pyfunction]
#[pyo3(signature = (data, /))]
pub(crate) fn java_lossy_utf8(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
    hash_bytes(py, data, |bytes| {
        pulsar_routing::java_lossy_utf8(bytes).collect()
    })
}

/// Java's `MathUtils.signSafeMod(long dividend, int divisor)`.
#[pyfunction]
#[pyo3(signature = (dividend, divisor, /))]
pub(crate) fn sign_safe_mod(py: Python<'_>, dividend: i64, divisor: i32) -> PyResult<i32> {
    pulsar_routing::sign_safe_mod(dividend, divisor).map_err(|e| e.into_py_exception(py))
}

/// Feeds a buffer to the hasher in `state`, with the GIL released for long
/// inputs. The lock is taken and dropped inside the released section, so a
/// thread waiting for it never holds the lock while it waits for the GIL.
fn update_locked<H: Send>(
    py: Python<'_>,
    state: &Mutex<H>,
    data: &Bound<'_, PyAny>,
    update: impl Fn(&mut H, &[u8]) + Send,
) -> PyResult<()> {
    let input = ByteInput::get(data)?;
    let bytes = input.as_bytes();
    detach_above(py, bytes.len(), DETACH_MIN_BYTES, move || {
        update(&mut lock(state), bytes);
    });
    Ok(())
}

/// Streaming MurmurHash3 x86_32 (seed 0): any chunking gives the one-shot
/// result. Shareable between threads; each `update` is atomic.
#[pyclass(frozen, module = "pulsar_routing", name = "Murmur3Hasher")]
pub(crate) struct PyMurmur3Hasher {
    // Frozen with a lock inside, so that the object can be shared between
    // threads and updated with the GIL released.
    state: Mutex<pulsar_routing::Murmur3Hasher>,
}

#[pymethods]
impl PyMurmur3Hasher {
    #[new]
    #[pyo3(signature = (data = None, /))]
    fn new(py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let hasher = Self {
            state: Mutex::new(pulsar_routing::Murmur3Hasher::new()),
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

    /// The 31-bit (Pulsar-masked) hash of everything fed so far.
    fn finalize(&self) -> u32 {
        lock(&self.state).finalize()
    }

    /// The raw 32-bit hash of everything fed so far, unsigned.
    fn finalize_raw(&self) -> u32 {
        lock(&self.state).finalize_raw()
    }

    /// An independent hasher with the same input so far.
    fn copy(&self) -> Self {
        Self {
            state: Mutex::new(*lock(&self.state)),
        }
    }
}

impl PyMurmur3Hasher {
    fn feed(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        update_locked(py, &self.state, data, |hasher, bytes| {
            hasher.update(bytes);
        })
    }
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
