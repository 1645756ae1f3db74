//! CRC-32/IEEE: the hash the broker uses to place a topic in a namespace
//! bundle (Guava `Hashing.crc32()`, made unsigned by `padToLong()`).
//!
//! It is not Murmur3, whatever older write-ups say: `NamespaceService` builds
//! its bundle factory with `Hashing.crc32()`, and the default
//! `ConsistentHashingTopicBundleAssigner` calls it directly.

/// CRC-32/IEEE (zlib's `crc32`) of `data`.
///
/// ```
/// assert_eq!(pulsar_routing::crc32(b"persistent://public/default/my-topic"), 732775927);
/// ```
#[must_use]
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// Streaming CRC-32/IEEE: any chunking gives the same result as [`crc32`].
///
/// Topic names are hashed piece by piece (domain, tenant, namespace, local
/// name, partition suffix) without building the full string.
#[derive(Clone, Debug, Default)]
pub struct Crc32 {
    inner: crc32fast::Hasher,
}

impl Crc32 {
    /// A hasher with no input yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds more bytes.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.inner.update(data);
        self
    }

    /// The CRC of everything fed so far; the hasher can go on.
    #[must_use]
    pub fn finalize(&self) -> u32 {
        self.inner.clone().finalize()
    }
}
