//! Byte input from Python: `bytes` as it is, anything else through the
//! buffer protocol, the way `hashlib` takes it.

use std::sync::{Mutex, MutexGuard};

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::marker::Ungil;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::lock;
use crate::routing_key::JavaString;

/// Inputs at least this many bytes long are hashed with the GIL released.
/// Below it, releasing and re-taking the GIL costs more than the hash
/// (`hashlib` uses the same cut-off).
pub(crate) const DETACH_MIN_BYTES: usize = 2048;

/// Runs `work` with the GIL released when `size` reaches `threshold`, and
/// with it held otherwise.
pub(crate) fn detach_above<T, F>(py: Python<'_>, size: usize, threshold: usize, work: F) -> T
where
    F: Ungil + FnOnce() -> T,
    T: Ungil,
{
    if size >= threshold {
        py.detach(work)
    } else {
        work()
    }
}

/// A C-contiguous buffer export, read as its raw bytes.
pub(crate) struct ExportedBytes(PyUntypedBuffer);

impl ExportedBytes {
    /// Exports the buffer of `obj`.
    ///
    /// Raises `TypeError` for an object without the buffer protocol and
    /// `BufferError` for a strided one, as `hashlib` does.
    pub(crate) fn get(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let buffer = PyUntypedBuffer::get(obj)?;
        if buffer.is_c_contiguous() {
            Ok(Self(buffer))
        } else {
            Err(PyBufferError::new_err("buffer is not C-contiguous"))
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        let len = self.0.len_bytes();
        if len == 0 {
            // An empty export may carry a dangling or null pointer.
            return &[];
        }
        // SAFETY: the exporter guarantees that `buf` points to `len_bytes`
        // readable bytes for as long as the export is held, and the export
        // lives in `self`, which the returned slice borrows. The buffer was
        // checked to be C-contiguous, so those bytes are one block. While it
        // is exported the owner cannot resize or free it (bytearray, numpy
        // and pyarrow all refuse). What the export cannot stop is another
        // thread writing into a mutable buffer (a bytearray, a writable numpy
        // array) while this one reads it; `hashlib` reads buffers the same
        // way and leaves that race to the caller, who then gets an
        // unspecified hash. The bytes are only ever read as plain `u8`
        // values, so no invariant rests on their content.
        unsafe { std::slice::from_raw_parts(self.0.buf_ptr().cast::<u8>(), len) }
    }
}

/// `bytes`, borrowed directly, or any other buffer, exported.
pub(crate) enum ByteInput<'a, 'py> {
    /// Immutable, and needs no export (nor its allocation).
    Bytes(&'a Bound<'py, PyBytes>),
    Exported(ExportedBytes),
}

impl<'a, 'py> ByteInput<'a, 'py> {
    pub(crate) fn get(obj: &'a Bound<'py, PyAny>) -> PyResult<Self> {
        match obj.cast::<PyBytes>() {
            Ok(bytes) => Ok(Self::Bytes(bytes)),
            Err(_) => ExportedBytes::get(obj).map(Self::Exported),
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Bytes(bytes) => bytes.as_bytes(),
            Self::Exported(exported) => exported.as_bytes(),
        }
    }
}

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
pub(crate) fn hash_bytes<T: Send>(
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

/// A core streaming hasher as a Python object's state: behind a lock, so
/// the object can be shared between threads and fed with the GIL released.
pub(crate) trait Feed: Clone + Send {
    /// Whether a `str` is fed as its UTF-8 (Kafka's `StringSerializer`);
    /// otherwise only buffers are taken.
    const TEXT: bool;
    /// Appends `bytes` to the input.
    fn feed(&mut self, bytes: &[u8]);
}

/// Implements [`Feed`] by the core hasher's own `update`, for hashers that
/// take text (`true`) or buffers only (`false`).
macro_rules! feed_by_update {
    ($($hasher:ty => $text:literal,)*) => {$(
        impl Feed for $hasher {
            const TEXT: bool = $text;
            fn feed(&mut self, bytes: &[u8]) {
                self.update(bytes);
            }
        }
    )*};
}

feed_by_update! {
    pulsar_routing::Murmur3Hasher => false,
    pulsar_routing::Crc32 => false,
    pulsar_routing::kafka::Murmur2Hasher => true,
}

/// The state of every streaming hasher class.
pub(crate) struct Streaming<H>(Mutex<H>);

impl<H: Feed> Streaming<H> {
    /// `hasher`, fed `data` first when given.
    pub(crate) fn new(
        py: Python<'_>,
        hasher: H,
        data: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let state = Self(Mutex::new(hasher));
        if let Some(data) = data {
            state.feed(py, data)?;
        }
        Ok(state)
    }

    /// Feeds `data`, with the GIL released for long inputs. The lock is
    /// taken and dropped inside the released section, so a thread waiting
    /// for it never holds the lock while it waits for the GIL.
    pub(crate) fn feed(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let feed = |bytes: &[u8]| lock(&self.0).feed(bytes);
        if H::TEXT {
            hash_text_or_bytes(py, data, feed)
        } else {
            hash_bytes(py, data, feed)
        }
    }

    /// The hasher, locked.
    pub(crate) fn get(&self) -> MutexGuard<'_, H> {
        lock(&self.0)
    }

    /// An independent copy with the same input so far.
    pub(crate) fn copy(&self) -> Self {
        Self(Mutex::new(self.get().clone()))
    }
}
