//! Java's `String.hashCode()` and Pulsar's `JavaStringHash`, with Java's
//! own UTF-8 decoding.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::buffers::hash_bytes;
use crate::routing_key::JavaString;

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
