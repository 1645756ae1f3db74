//! The sticky key: the bytes of a message that Key_Shared dispatch hashes
//! (`Commands.resolveStickyKey`).

use core::fmt;

use super::storage::decimal;
use crate::murmur3::{Murmur3Hasher, murmur3_32};

/// The key of a message that has no ordering key, no partition key and no
/// producer name or sequence id.
pub const NONE_KEY: &[u8] = b"NONE_KEY";

/// The key fields of a message's metadata, as the broker reads them.
///
/// ```
/// use pulsar_routing::key_shared::{MessageKeys, StickyKey};
/// let keys = MessageKeys {
///     partition_key: Some(b"aGVsbG8="),
///     partition_key_b64_encoded: true,
///     producer_name: Some(b"producer-1"),
///     sequence_id: Some(7),
///     ..MessageKeys::default()
/// };
/// assert_eq!(keys.sticky_key(), StickyKey::Base64(b"aGVsbG8="));
/// let mut buf = [0u8; 16];
/// let n = keys.sticky_key().write_to(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"hello");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MessageKeys<'a> {
    /// `ordering_key`, set by `TypedMessageBuilder.orderingKey`.
    pub ordering_key: Option<&'a [u8]>,
    /// `partition_key`: the UTF-8 bytes of the key string (its Base64 text
    /// when [`MessageKeys::partition_key_b64_encoded`]).
    pub partition_key: Option<&'a [u8]>,
    /// `partition_key_b64_encoded`, set by `keyBytes(...)`.
    pub partition_key_b64_encoded: bool,
    /// `producer_name`.
    pub producer_name: Option<&'a [u8]>,
    /// `sequence_id`.
    pub sequence_id: Option<u64>,
}

impl<'a> MessageKeys<'a> {
    /// The sticky key: the first of the ordering key, the partition key, the
    /// `producerName-sequenceId` fallback (since 4.0) and [`NONE_KEY`].
    #[must_use]
    pub const fn sticky_key(&self) -> StickyKey<'a> {
        if let Some(key) = self.ordering_key {
            StickyKey::Key(key)
        } else if let Some(key) = self.partition_key {
            if self.partition_key_b64_encoded {
                StickyKey::Base64(key)
            } else {
                StickyKey::Key(key)
            }
        } else if let (Some(producer_name), Some(sequence_id)) =
            (self.producer_name, self.sequence_id)
        {
            StickyKey::ProducerSequence {
                producer_name,
                sequence_id,
            }
        } else {
            StickyKey::None
        }
    }
}

/// A resolved sticky key, borrowed from the message: hashing it streams its
/// parts, so no key is ever built in memory.
///
/// ```
/// use pulsar_routing::key_shared::{KeyHashRange, StickyKey};
/// use pulsar_routing::murmur3_32;
/// let key = StickyKey::ProducerSequence { producer_name: b"p", sequence_id: 42 };
/// assert_eq!(key.murmur3(), murmur3_32(b"p-42"));
/// assert_eq!(KeyHashRange::CONSISTENT_HASHING.slot(&key), murmur3_32(b"p-42") % 65535 + 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StickyKey<'a> {
    /// Bytes hashed as they are: an ordering key, or a partition key's
    /// UTF-8 bytes.
    Key(&'a [u8]),
    /// A partition key set with `keyBytes()`: its Base64 text, decoded with
    /// Java's strict decoder before hashing. Text Java cannot decode makes
    /// the broker fall back to [`NONE_KEY`] (`peekStickyKey`), and so does
    /// this.
    Base64(&'a [u8]),
    /// The fallback for key-less messages: `producerName + "-" + sequenceId`,
    /// the sequence id printed as Java's signed `long`.
    ProducerSequence {
        /// The producer name's UTF-8 bytes.
        producer_name: &'a [u8],
        /// The sequence id (a protobuf `uint64`, which Java reads as `long`).
        sequence_id: u64,
    },
    /// [`NONE_KEY`].
    #[default]
    None,
}

impl StickyKey<'_> {
    /// Calls `sink` with consecutive pieces of the key's bytes; their
    /// concatenation is the key the broker hashes.
    pub fn for_each_chunk(&self, mut sink: impl FnMut(&[u8])) {
        match *self {
            Self::Key(bytes) => sink(bytes),
            Self::Base64(text) => {
                if decode_base64_chunks(text, |_| {}).is_ok() {
                    let _ = decode_base64_chunks(text, sink);
                } else {
                    sink(NONE_KEY);
                }
            }
            Self::ProducerSequence {
                producer_name,
                sequence_id,
            } => {
                sink(producer_name);
                sink(b"-");
                let signed = sequence_id as i64;
                if signed < 0 {
                    sink(b"-");
                }
                let mut buf = [0u8; 20];
                sink(decimal(signed.unsigned_abs(), &mut buf));
            }
            Self::None => sink(NONE_KEY),
        }
    }

    /// The number of bytes of the key.
    #[must_use]
    pub fn len(&self) -> usize {
        let mut n = 0usize;
        self.for_each_chunk(|c| n = n.saturating_add(c.len()));
        n
    }

    /// True for an empty key (`key("")` or an empty ordering key).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies the key's bytes into `out`, returning their number, or `None`
    /// when `out` is shorter than [`StickyKey::len`] (nothing is written
    /// then).
    #[must_use]
    pub fn write_to(&self, out: &mut [u8]) -> Option<usize> {
        let need = self.len();
        let dest = out.get_mut(..need)?;
        let mut at = 0;
        self.for_each_chunk(|chunk| {
            if let Some(d) = dest.get_mut(at..at + chunk.len()) {
                d.copy_from_slice(chunk);
            }
            at += chunk.len();
        });
        Some(at)
    }

    /// Pulsar's 31-bit Murmur3 of the key (`Murmur3_32Hash.makeHash`).
    #[must_use]
    #[inline]
    pub fn murmur3(&self) -> u32 {
        // Plain keys are every message's hot path: keep that arm small
        // enough to inline, so that a caller's key never has to be spilled
        // to memory, and leave decoding and chunking out of line.
        match *self {
            Self::Key(bytes) => crate::murmur3::murmur3_32_call(bytes),
            _ => self.murmur3_of_chunks(),
        }
    }

    /// [`StickyKey::murmur3`] of the keys that need decoding or chunking.
    #[inline(never)]
    fn murmur3_of_chunks(&self) -> u32 {
        match *self {
            Self::Key(bytes) => murmur3_32(bytes),
            Self::Base64(text) => {
                let mut hasher = Murmur3Hasher::new();
                match decode_base64_chunks(text, |chunk| {
                    hasher.update(chunk);
                }) {
                    Ok(()) => hasher.finalize(),
                    Err(_) => murmur3_32(NONE_KEY),
                }
            }
            _ => {
                let mut hasher = Murmur3Hasher::new();
                self.for_each_chunk(|chunk| {
                    hasher.update(chunk);
                });
                hasher.finalize()
            }
        }
    }

    /// Why a [`StickyKey::Base64`] key is not valid Base64 for Java (and so
    /// hashes as [`NONE_KEY`]); `None` for valid text and other keys.
    #[must_use]
    pub fn base64_error(&self) -> Option<InvalidBase64> {
        match *self {
            Self::Base64(text) => decode_base64_chunks(text, |_| {}).err(),
            _ => None,
        }
    }
}

/// Why Java's `Base64.getDecoder().decode` rejects a text, with its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidBase64 {
    /// A single character: "Input byte[] should at least have 2 bytes for
    /// base64 bytes".
    TooShort,
    /// A byte outside the alphabet (and not `=`).
    IllegalCharacter(u8),
    /// Misplaced or missing padding.
    WrongEndingUnit,
    /// A final unit of a single character.
    NotEnoughBits,
    /// Text after the padding, at this index.
    IncorrectEndingByte(usize),
}

impl fmt::Display for InvalidBase64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooShort => {
                f.write_str("Input byte[] should at least have 2 bytes for base64 bytes")
            }
            // Java prints the signed byte in hex, so bytes >= 0x80 come out
            // negative.
            Self::IllegalCharacter(b) if b >= 0x80 => {
                write!(f, "Illegal base64 character -{:x}", 256 - u32::from(b))
            }
            Self::IllegalCharacter(b) => write!(f, "Illegal base64 character {b:x}"),
            Self::WrongEndingUnit => f.write_str("Input byte array has wrong 4-byte ending unit"),
            Self::NotEnoughBits => f.write_str("Last unit does not have enough valid bits"),
            Self::IncorrectEndingByte(at) => {
                write!(f, "Input byte array has incorrect ending byte at {at}")
            }
        }
    }
}

impl core::error::Error for InvalidBase64 {}

const fn base64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some((c - b'A') as u32),
        b'a'..=b'z' => Some((c - b'a') as u32 + 26),
        b'0'..=b'9' => Some((c - b'0') as u32 + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Java's basic (RFC 4648) decoder, `decode0`, streamed in stack chunks:
/// padding is optional, but when present it must be complete, and nothing
/// may follow it; unused low bits are not checked.
fn decode_base64_chunks(text: &[u8], mut sink: impl FnMut(&[u8])) -> Result<(), InvalidBase64> {
    if text.len() == 1 {
        return Err(InvalidBase64::TooShort);
    }
    let mut out = [0u8; 64];
    let mut used = 0usize;
    let mut bits = 0u32;
    let mut shift = 18i32;
    let mut at = 0usize;
    while let Some(&c) = text.get(at) {
        at += 1;
        match base64_value(c) {
            Some(v) => {
                bits |= v << shift;
                shift -= 6;
                if shift < 0 {
                    if used + 3 > out.len() {
                        sink(out.get(..used).unwrap_or(&[]));
                        used = 0;
                    }
                    if let Some(d) = out.get_mut(used..used + 3) {
                        d.copy_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
                    }
                    used += 3;
                    shift = 18;
                    bits = 0;
                }
            }
            None if c == b'=' => {
                // "xx=" needs a second '='; "=" at a unit start is an error;
                // "x=" is caught below as a dangling single character.
                let missing_second = shift == 6
                    && match text.get(at) {
                        Some(&b'=') => {
                            at += 1;
                            false
                        }
                        Some(_) => {
                            at += 1;
                            true
                        }
                        None => true,
                    };
                if missing_second || shift == 18 {
                    return Err(InvalidBase64::WrongEndingUnit);
                }
                break;
            }
            None => return Err(InvalidBase64::IllegalCharacter(c)),
        }
    }
    let tail: &[u8] = match shift {
        6 => &[(bits >> 16) as u8],
        0 => &[(bits >> 16) as u8, (bits >> 8) as u8],
        12 => return Err(InvalidBase64::NotEnoughBits),
        _ => &[],
    };
    if at < text.len() {
        return Err(InvalidBase64::IncorrectEndingByte(at));
    }
    if used + tail.len() > out.len() {
        sink(out.get(..used).unwrap_or(&[]));
        used = 0;
    }
    if let Some(d) = out.get_mut(used..used + tail.len()) {
        d.copy_from_slice(tail);
    }
    used += tail.len();
    if used > 0 {
        sink(out.get(..used).unwrap_or(&[]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;
    use std::vec::Vec;

    use super::*;

    fn decode(text: &str) -> Result<Vec<u8>, InvalidBase64> {
        let mut v = Vec::new();
        decode_base64_chunks(text.as_bytes(), |c| v.extend_from_slice(c)).map(|()| v)
    }

    #[test]
    fn decodes_like_java() {
        assert_eq!(decode("").unwrap(), b"");
        assert_eq!(decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode("aGVsbA==").unwrap(), b"hell");
        assert_eq!(decode("aGVsbA").unwrap(), b"hell");
        assert_eq!(decode("AAEC/w==").unwrap(), [0, 1, 2, 255]);
        assert_eq!(decode("a"), Err(InvalidBase64::TooShort));
        assert_eq!(decode("aGVsbA="), Err(InvalidBase64::WrongEndingUnit));
        assert_eq!(decode("aGVsbA=x"), Err(InvalidBase64::WrongEndingUnit));
        assert_eq!(decode("aGVs="), Err(InvalidBase64::WrongEndingUnit));
        assert_eq!(decode("aGVsb"), Err(InvalidBase64::NotEnoughBits));
        assert_eq!(decode("aGVsb="), Err(InvalidBase64::NotEnoughBits));
        assert_eq!(
            decode("aGVsbG8=x"),
            Err(InvalidBase64::IncorrectEndingByte(8))
        );
        assert_eq!(
            decode("aGV.bG8="),
            Err(InvalidBase64::IllegalCharacter(b'.'))
        );
        assert_eq!(
            InvalidBase64::IllegalCharacter(0xc3).to_string(),
            "Illegal base64 character -3d"
        );
        let long: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut text = [0u8; 1336];
        let n = crate::encode_base64(&long, &mut text).unwrap();
        let mut v = Vec::new();
        decode_base64_chunks(&text[..n], |c| v.extend_from_slice(c)).unwrap();
        assert_eq!(v, long);
    }

    #[test]
    fn resolution_order() {
        let all = MessageKeys {
            ordering_key: Some(b"o"),
            partition_key: Some(b"p"),
            partition_key_b64_encoded: false,
            producer_name: Some(b"n"),
            sequence_id: Some(1),
        };
        assert_eq!(all.sticky_key(), StickyKey::Key(b"o"));
        let no_order = MessageKeys {
            ordering_key: None,
            ..all
        };
        assert_eq!(no_order.sticky_key(), StickyKey::Key(b"p"));
        let fallback = MessageKeys {
            partition_key: None,
            ..no_order
        };
        let mut buf = [0u8; 32];
        let n = fallback.sticky_key().write_to(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"n-1");
        let no_seq = MessageKeys {
            sequence_id: None,
            ..fallback
        };
        assert_eq!(no_seq.sticky_key(), StickyKey::None);
        let n = StickyKey::ProducerSequence {
            producer_name: b"x",
            sequence_id: u64::MAX,
        }
        .write_to(&mut buf)
        .unwrap();
        assert_eq!(&buf[..n], b"x--1");
        assert_eq!(StickyKey::Base64(b"!!").murmur3(), murmur3_32(NONE_KEY));
        assert_eq!(StickyKey::Base64(b"!!").len(), 8);
        assert_eq!(
            StickyKey::Base64(b"aGVsbG8=").murmur3(),
            murmur3_32(b"hello")
        );
    }
}
