//! CRC-32/IEEE, the broker's bundle hash, one-shot and streaming; and the
//! shells every hash function and streaming hasher class shares.

/// Declares one-shot hash functions of a `str` (its UTF-8) or any
/// C-contiguous buffer, each over a core function of bytes.
macro_rules! one_shot_hash {
    ($($(#[$doc:meta])* fn $name:ident = $hash:path;)*) => {$(
        $(#[$doc])*
        #[pyo3::pyfunction]
        #[pyo3(signature = (data, /))]
        pub(crate) fn $name(
            py: pyo3::Python<'_>,
            data: &pyo3::Bound<'_, pyo3::PyAny>,
        ) -> pyo3::PyResult<u32> {
            $crate::buffers::hash_text_or_bytes(py, data, $hash)
        }
    )*};
}

/// Declares a streaming hasher class over `buffers::Streaming`: `new`
/// takes the class's own arguments, then an optional first chunk; `update`
/// feeds more and returns the hasher; `copy` forks it. Each class adds
/// only what differs: its `finalize` methods.
macro_rules! streaming_hasher {
    (
        $(#[$attr:meta])*
        $name:ident($hasher:ty), new($($arg:ident: $arg_ty:ty),*), feeding $what:literal;
        $($methods:tt)*
    ) => {
        $(#[$attr])*
        pub(crate) struct $name($crate::buffers::Streaming<$hasher>);

        #[pyo3::pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = ($($arg,)* data = None, /))]
            fn new(
                py: pyo3::Python<'_>,
                $($arg: $arg_ty,)*
                data: Option<&pyo3::Bound<'_, pyo3::PyAny>>,
            ) -> pyo3::PyResult<Self> {
                $crate::buffers::Streaming::new(py, <$hasher>::new($($arg),*), data).map(Self)
            }

            #[doc = concat!("Feeds more bytes (", $what, "); returns the hasher.")]
            #[pyo3(signature = (data, /))]
            fn update<'py>(
                slf: &pyo3::Bound<'py, Self>,
                data: &pyo3::Bound<'py, pyo3::PyAny>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, Self>> {
                slf.get().0.feed(slf.py(), data)?;
                Ok(slf.clone())
            }

            /// An independent hasher with the same input so far.
            fn copy(&self) -> Self {
                Self(self.0.copy())
            }

            $($methods)*
        }
    };
}

pub(crate) use {one_shot_hash, streaming_hasher};

one_shot_hash! {
    /// CRC-32/IEEE, unsigned: the broker's namespace-bundle hash. A `str` (a
    /// topic name) is hashed as its UTF-8 bytes, like Guava's
    /// `hashString(name, UTF_8)`.
    fn crc32 = pulsar_routing::crc32;
}

streaming_hasher! {
    /// Streaming CRC-32/IEEE: any chunking gives the one-shot result. Shareable
    /// between threads; each `update` is atomic.
    #[pyo3::pyclass(frozen, module = "pulsar_routing", name = "Crc32")]
    PyCrc32(pulsar_routing::Crc32), new(), feeding "any C-contiguous buffer";
    /// The CRC of everything fed so far, unsigned.
    fn finalize(&self) -> u32 { self.0.get().finalize() }
}
