//! Python keys as the Java values they stand for: a `str` is the `String`
//! given to `key()`, `bytes` the array given to `keyBytes()`, `None` no key.

use std::borrow::Cow;

use pulsar_routing::{HashingScheme, PartitionCount, RoutingKey};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffers::ByteInput;
use crate::errors::{hashing_scheme, partition_count};

/// A Python `str` as a Java `String`.
///
/// Both hold UTF-16 code units that need not pair up, so a `str` with a lone
/// surrogate (from `surrogateescape`, say) is still a valid Java key. Rust's
/// `str` cannot hold one, so such a key keeps its UTF-16 units and goes to
/// the core as [`RoutingKey::KeyUtf16`], which hashes it as Java does.
pub(crate) enum JavaString<'a> {
    /// Every `str` without lone surrogates, borrowed as UTF-8.
    Utf8(&'a str),
    /// A `str` with at least one lone surrogate, as Java's UTF-16 units.
    Utf16(Vec<u16>),
}

impl<'a> JavaString<'a> {
    pub(crate) fn new(s: &'a Bound<'_, PyString>) -> PyResult<Self> {
        if let Ok(utf8) = s.to_str() {
            return Ok(Self::Utf8(utf8));
        }
        // Only a lone surrogate makes the UTF-8 conversion fail.
        utf16_units(s).map(Self::Utf16)
    }

    /// The key as the core takes it: `key(this string)`.
    pub(crate) fn routing_key(&self) -> RoutingKey<'_> {
        match self {
            Self::Utf8(s) => RoutingKey::Key(s),
            Self::Utf16(units) => RoutingKey::KeyUtf16(units),
        }
    }

    /// Java's `String.hashCode()`.
    pub(crate) fn hashcode(&self) -> i32 {
        match self {
            Self::Utf8(s) => pulsar_routing::java_string_hashcode(s),
            Self::Utf16(units) => pulsar_routing::java_string_hashcode_utf16(units),
        }
    }

    /// `getBytes(UTF_8)`, for the hashes of raw bytes (`crc32`,
    /// `murmur3_32_raw`): Java writes `?` for each lone surrogate, which is
    /// what `decode_utf16` reports as an error, one unit at a time. (The
    /// core applies the same rule to a `KeyUtf16` key, but does not expose
    /// the bytes themselves.)
    pub(crate) fn utf8(&self) -> Cow<'_, [u8]> {
        match self {
            Self::Utf8(s) => Cow::Borrowed(s.as_bytes()),
            Self::Utf16(units) => Cow::Owned(java_utf8(units)),
        }
    }

    /// The 31-bit hash a router reduces: `makeHash(String)` of the scheme.
    pub(crate) fn hash(&self, scheme: HashingScheme) -> u32 {
        // A key always has a hash; only `RoutingKey::None` has none.
        self.routing_key().hash(scheme).unwrap_or_default()
    }

    /// The partition of a message sent with `key(this string)`.
    pub(crate) fn partition(&self, scheme: HashingScheme, n: PartitionCount) -> u32 {
        self.routing_key().partition(scheme, n).unwrap_or_default()
    }
}

/// The UTF-16 units of a `str`, lone surrogates included, as Java would
/// hold them ("surrogatepass" writes exactly those units).
pub(crate) fn utf16_units(s: &Bound<'_, PyString>) -> PyResult<Vec<u16>> {
    let py = s.py();
    let encoded = s.call_method1(
        intern!(py, "encode"),
        (intern!(py, "utf-16-le"), intern!(py, "surrogatepass")),
    )?;
    Ok(encoded
        .cast::<PyBytes>()?
        .as_bytes()
        .chunks_exact(2)
        .map(|unit| u16::from_le_bytes([unit[0], unit[1]]))
        .collect())
}

pub(crate) use pulsar_routing_owned::routing_key::java_utf8;

/// A message key as the routers take it.
pub(crate) enum Key<'a> {
    None,
    Text(JavaString<'a>),
    Bytes(&'a [u8]),
}

impl<'a> Key<'a> {
    /// `str`, `bytes` or `None`; anything else is a `TypeError` naming
    /// `what`.
    pub(crate) fn extract(
        obj: &'a Bound<'_, PyAny>,
        what: &dyn std::fmt::Display,
    ) -> PyResult<Self> {
        if obj.is_none() {
            Ok(Self::None)
        } else if let Ok(s) = obj.cast::<PyString>() {
            JavaString::new(s).map(Self::Text)
        } else if let Ok(bytes) = obj.cast::<PyBytes>() {
            Ok(Self::Bytes(bytes.as_bytes()))
        } else {
            Err(PyTypeError::new_err(format!(
                "{what} must be str, bytes or None, not {}",
                obj.get_type().name()?
            )))
        }
    }

    /// The key as the core takes it.
    pub(crate) fn routing_key(&self) -> RoutingKey<'_> {
        match self {
            Self::None => RoutingKey::None,
            Self::Text(text) => text.routing_key(),
            Self::Bytes(bytes) => RoutingKey::KeyBytes(bytes),
        }
    }

    /// The 31-bit key hash, or `None` for a message without a key.
    pub(crate) fn hash(&self, scheme: HashingScheme) -> Option<u32> {
        self.routing_key().hash(scheme)
    }
}

/// The partition of a message sent with `key(key)` (Java's
/// `choosePartition` for a keyed message, under every built-in router).
#[pyfunction]
#[pyo3(signature = (key, num_partitions, scheme = "java_string"))]
pub(crate) fn partition_for_key(
    py: Python<'_>,
    key: &Bound<'_, PyString>,
    num_partitions: i64,
    scheme: &str,
) -> PyResult<u32> {
    let (n, scheme) = (
        partition_count(py, num_partitions)?,
        hashing_scheme(py, scheme)?,
    );
    Ok(JavaString::new(key)?.partition(scheme, n))
}

/// The partition of a message sent with `keyBytes(key)`: the Base64 text of
/// the bytes is what gets hashed.
#[pyfunction]
#[pyo3(signature = (key, num_partitions, scheme = "java_string"))]
pub(crate) fn partition_for_key_bytes(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    num_partitions: i64,
    scheme: &str,
) -> PyResult<u32> {
    let (n, scheme) = (
        partition_count(py, num_partitions)?,
        hashing_scheme(py, scheme)?,
    );
    let key = ByteInput::get(key)?;
    Ok(pulsar_routing::partition_for_key_bytes(
        key.as_bytes(),
        n,
        scheme,
    ))
}

/// The 31-bit hash a router reduces for a key (`str` as `key()`, `bytes` as
/// `keyBytes()`).
#[pyfunction]
#[pyo3(signature = (key, scheme = "java_string"))]
pub(crate) fn routing_key_hash(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    scheme: &str,
) -> PyResult<u32> {
    let scheme = hashing_scheme(py, scheme)?;
    Key::extract(key, &"key")?
        .hash(scheme)
        .ok_or_else(|| PyTypeError::new_err("key must be str or bytes, not None"))
}
