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

    /// A hasher that continues from `crc`, the CRC-32 of some earlier bytes:
    /// feeding it more bytes gives the CRC of the concatenation. With
    /// [`crc32_const`] this starts a hash from a constant prefix for free.
    #[must_use]
    pub fn resume(crc: u32) -> Self {
        Self {
            inner: crc32fast::Hasher::new_with_initial(crc),
        }
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

/// CRC-32/IEEE computed bit by bit in a `const fn`: slow, but evaluated at
/// compile time for constant prefixes such as `persistent://`.
///
/// ```
/// const PREFIX: u32 = pulsar_routing::crc32_const(b"persistent://");
/// assert_eq!(PREFIX, pulsar_routing::crc32(b"persistent://"));
/// ```
#[must_use]
pub const fn crc32_const(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut i = 0;
    while i < data.len() {
        crc ^= data[i] as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        i += 1;
    }
    !crc
}
