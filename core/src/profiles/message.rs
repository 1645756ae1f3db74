//! A message as every client profile sees it: the partition key, the
//! ordering key and the payload size.

/// The partition key of a message, set through a client's key API.
///
/// | client | [`ProfileKey::Str`] | [`ProfileKey::Bytes`] | empty key |
/// |---|---|---|---|
/// | Java | `key(s)`: hash of `s` | `keyBytes(b)`: hash of the Base64 text | a key (hash of `""`) |
/// | Go | `Key: s` | `Key: string(b)`: hash of the bytes | no key |
/// | C++ | `setPartitionKey(s)` | `setPartitionKey(std::string(b))`: hash of the bytes | a key |
/// | Python | `partition_key=s` | not accepted (`str` only) | no key (`if partition_key:`) |
/// | pulsar-rs | `partition_key: Some(s)` | not accepted (`String` only) | a key |
/// | DotPulsar | `Key = s`: hash of its UTF-8 bytes | `KeyBytes = b`: hash of the bytes | no key |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProfileKey<'a> {
    /// No partition key.
    #[default]
    None,
    /// A key string.
    Str(&'a str),
    /// A binary key.
    Bytes(&'a [u8]),
}

impl<'a> ProfileKey<'a> {
    /// The key as the bytes a byte-oriented client hashes (UTF-8 for a
    /// string), or `None` without a key.
    #[must_use]
    pub const fn bytes(&self) -> Option<&'a [u8]> {
        match *self {
            Self::None => None,
            Self::Str(s) => Some(s.as_bytes()),
            Self::Bytes(b) => Some(b),
        }
    }
}

/// A message to route: what any client's router reads of it.
///
/// ```
/// use pulsar_routing::profiles::{ProfileKey, ProfileMessage};
/// let msg = ProfileMessage::keyed("user-42").with_ordering_key(b"session-7");
/// assert_eq!(msg.key, ProfileKey::Str("user-42"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProfileMessage<'a> {
    /// The partition key.
    pub key: ProfileKey<'a>,
    /// The ordering key, if set. Only Go routes by it (before the key);
    /// the others use it for Key_Shared dispatch only.
    pub ordering_key: Option<&'a [u8]>,
    /// The payload size in bytes: Go's and C++'s batching-aware keyless
    /// routers count it (each truncates it to 32 bits).
    pub payload_len: u64,
}

impl<'a> ProfileMessage<'a> {
    /// A message without any key.
    #[must_use]
    pub const fn keyless(payload_len: u64) -> Self {
        Self {
            key: ProfileKey::None,
            ordering_key: None,
            payload_len,
        }
    }

    /// A message with a string partition key and an empty payload.
    #[must_use]
    pub const fn keyed(key: &'a str) -> Self {
        Self {
            key: ProfileKey::Str(key),
            ordering_key: None,
            payload_len: 0,
        }
    }

    /// The same message with an ordering key.
    #[must_use]
    pub const fn with_ordering_key(self, ordering_key: &'a [u8]) -> Self {
        Self {
            ordering_key: Some(ordering_key),
            ..self
        }
    }

    /// The same message with a payload of `payload_len` bytes.
    #[must_use]
    pub const fn with_payload_len(self, payload_len: u64) -> Self {
        Self {
            payload_len,
            ..self
        }
    }
}
