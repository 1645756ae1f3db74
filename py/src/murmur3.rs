//! Pulsar's `Murmur3_32Hash`, one-shot and streaming.

use crate::crc32::{one_shot_hash, streaming_hasher};

one_shot_hash! {
    /// Pulsar's `Murmur3_32Hash`: MurmurHash3 x86_32 (seed 0) masked to 31 bits.
    /// A `str` is hashed as its UTF-8 bytes, like Java's `makeHash(String)`.
    fn murmur3_32 = pulsar_routing::murmur3_32;
    /// The raw MurmurHash3 x86_32 (seed 0), as an unsigned 32-bit number.
    fn murmur3_32_raw = pulsar_routing::murmur3_32_raw;
}

streaming_hasher! {
    /// Streaming MurmurHash3 x86_32 (seed 0): any chunking gives the one-shot
    /// result. Shareable between threads; each `update` is atomic.
    #[pyo3::pyclass(frozen, module = "pulsar_routing", name = "Murmur3Hasher")]
    PyMurmur3Hasher(pulsar_routing::Murmur3Hasher), new(), feeding "any C-contiguous buffer";
    /// The 31-bit (Pulsar-masked) hash of everything fed so far.
    fn finalize(&self) -> u32 { self.0.get().finalize() }
    /// The raw 32-bit hash of everything fed so far, unsigned.
    fn finalize_raw(&self) -> u32 { self.0.get().finalize_raw() }
}
