//! The routing key of a message as the Java client sees it, and the hashing
//! schemes that turn it into a partition.

use core::fmt;
use core::str::FromStr;

use crate::base64::for_each_base64_chunk;
use crate::java_string_hash::{
    java_string_hash, java_string_hash_ascii_bytes, java_string_hash_utf16, java_utf8_of_utf16,
};
use crate::murmur3::{Murmur3Hasher, murmur3_32};
use crate::partition_count::PartitionCount;

/// Which hash a producer applies to message keys (Java's `HashingScheme`).
///
/// Java and Go default to [`HashingScheme::JavaStringHash`]; only
/// [`HashingScheme::Murmur3_32Hash`] gives the same partition in the Java,
/// C++ and Go clients for every key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HashingScheme {
    /// `String.hashCode() & 0x7fffffff` over UTF-16 code units (Java default).
    #[default]
    JavaStringHash,
    /// MurmurHash3 x86_32, seed 0, over UTF-8 bytes, `& 0x7fffffff`.
    Murmur3_32Hash,
}

impl HashingScheme {
    /// The short name used by the C and Python APIs: `"java_string"` or
    /// `"murmur3_32"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`HashingScheme::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::JavaStringHash => c"java_string",
            Self::Murmur3_32Hash => c"murmur3_32",
        }
    }

    /// The 31-bit hash of a key string under this scheme.
    #[must_use]
    #[inline]
    pub fn hash_str(self, key: &str) -> u32 {
        match self {
            Self::JavaStringHash => java_string_hash(key),
            Self::Murmur3_32Hash => murmur3_32(key.as_bytes()),
        }
    }
}

impl fmt::Display for HashingScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashingScheme {
    type Err = UnknownHashingScheme;

    /// Accepts the short names and Java's enum constant names
    /// (`JavaStringHash`, `Murmur3_32Hash`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "java_string" | "JavaStringHash" => Ok(Self::JavaStringHash),
            "murmur3_32" | "Murmur3_32Hash" => Ok(Self::Murmur3_32Hash),
            _ => Err(UnknownHashingScheme),
        }
    }
}

/// The text did not name a [`HashingScheme`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownHashingScheme;

impl fmt::Display for UnknownHashingScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown hashing scheme: expected \"java_string\" or \"murmur3_32\"")
    }
}

impl core::error::Error for UnknownHashingScheme {}

/// A message's partition key, as set through the Java producer API.
///
/// | Java call | value | routed by |
/// |---|---|---|
/// | `key(s)` | [`RoutingKey::Key`] | the hash of `s`; `key("")` is a key, hashed to 0 |
/// | `keyBytes(b)` | [`RoutingKey::KeyBytes`] | the hash of the padded standard Base64 text of `b` |
/// | `key(s)`, `s` as UTF-16 | [`RoutingKey::KeyUtf16`] | as `key(s)`, lone surrogates included |
/// | `key(null)`, `keyBytes(null)`, none | [`RoutingKey::None`] | the router's keyless rule |
///
/// The Java routers ignore the ordering key; only Key_Shared dispatch uses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoutingKey<'a> {
    /// No partition key: round-robin, or the single partition.
    #[default]
    None,
    /// `key(String)`.
    Key(&'a str),
    /// `keyBytes(byte[])`: Java stores `Base64.getEncoder().encodeToString(b)`
    /// as the key, and that text is what gets hashed.
    KeyBytes(&'a [u8]),
    /// `key(String)` for a string held as UTF-16 code units, which, like a
    /// Java `String` (and unlike `&str`), may contain lone surrogates: Murmur3
    /// then hashes `?` in their place, as `getBytes(UTF_8)` does.
    KeyUtf16(&'a [u16]),
}

impl RoutingKey<'_> {
    /// The 31-bit hash the router reduces, or `None` for a keyless message.
    ///
    /// ```
    /// use pulsar_routing::{HashingScheme, RoutingKey, murmur3_32};
    /// let h = RoutingKey::KeyBytes(b"hello").hash(HashingScheme::Murmur3_32Hash);
    /// assert_eq!(h, Some(murmur3_32(b"aGVsbG8=")));
    /// ```
    #[must_use]
    #[inline]
    pub fn hash(&self, scheme: HashingScheme) -> Option<u32> {
        match *self {
            Self::None => None,
            Self::Key(key) => Some(scheme.hash_str(key)),
            Self::KeyBytes(bytes) => Some(hash_base64_of(bytes, scheme)),
            Self::KeyUtf16(units) => Some(match scheme {
                HashingScheme::JavaStringHash => java_string_hash_utf16(units),
                HashingScheme::Murmur3_32Hash => {
                    let mut hasher = Murmur3Hasher::new();
                    java_utf8_of_utf16(units, |chunk| {
                        hasher.update(chunk);
                    });
                    hasher.finalize()
                }
            }),
        }
    }

    /// The partition a keyed message goes to, or `None` without a key.
    #[must_use]
    #[inline]
    pub fn partition(&self, scheme: HashingScheme, num_partitions: PartitionCount) -> Option<u32> {
        self.hash(scheme).map(|h| num_partitions.reduce(h))
    }
}

/// Hashes the Base64 text of `bytes` without materialising it: the text is
/// ASCII, so both schemes can consume it chunk by chunk.
fn hash_base64_of(bytes: &[u8], scheme: HashingScheme) -> u32 {
    match scheme {
        HashingScheme::JavaStringHash => {
            let mut h = 0u32;
            for_each_base64_chunk(bytes, |chunk| h = java_string_hash_ascii_bytes(h, chunk));
            h & crate::murmur3::POSITIVE_MASK
        }
        HashingScheme::Murmur3_32Hash => {
            let mut hasher = Murmur3Hasher::new();
            for_each_base64_chunk(bytes, |chunk| {
                hasher.update(chunk);
            });
            hasher.finalize()
        }
    }
}

/// The partition of a message sent with `key(key)` on a topic with
/// `num_partitions` partitions, as every Java router computes it.
///
/// ```
/// use pulsar_routing::{HashingScheme, PartitionCount, partition_for_key};
/// let n = PartitionCount::new(7)?;
/// assert_eq!(partition_for_key("", n, HashingScheme::JavaStringHash), 0);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[must_use]
#[inline]
pub fn partition_for_key(key: &str, num_partitions: PartitionCount, scheme: HashingScheme) -> u32 {
    num_partitions.reduce(scheme.hash_str(key))
}

/// The partition of a message sent with `keyBytes(key)`: the Base64 text of
/// the bytes is hashed, as the Java client does.
#[must_use]
#[inline]
pub fn partition_for_key_bytes(
    key: &[u8],
    num_partitions: PartitionCount,
    scheme: HashingScheme,
) -> u32 {
    num_partitions.reduce(hash_base64_of(key, scheme))
}
