//! Java's `String.hashCode()`: Pulsar's `JavaStringHash` scheme, the Java
//! client's default.
//!
//! Java hashes UTF-16 code units, not bytes: `h = 31 * h + unit`, wrapping.
//! A character outside the BMP counts as its two surrogates. The C++ and Go
//! clients loop over UTF-8 bytes instead, so they agree with Java only for
//! ASCII keys; those variants belong to the client profiles, not here.

use crate::murmur3::POSITIVE_MASK;

#[inline(always)]
const fn step(h: u32, unit: u32) -> u32 {
    h.wrapping_mul(31).wrapping_add(unit)
}

/// Folds one Unicode scalar value into the hash as its UTF-16 code units.
#[inline(always)]
fn step_char(h: u32, c: char) -> u32 {
    let c = u32::from(c);
    if c < 0x1_0000 {
        step(h, c)
    } else {
        let v = c - 0x1_0000;
        step(step(h, 0xd800 | (v >> 10)), 0xdc00 | (v & 0x3ff))
    }
}

/// Continues an unmasked hash over bytes known to be ASCII, where each byte is
/// its own UTF-16 unit (the Base64 text of `keyBytes` keys).
#[inline]
pub(crate) fn java_string_hash_ascii_bytes(h: u32, ascii: &[u8]) -> u32 {
    let mut blocks = ascii.chunks_exact(8);
    let h = (&mut blocks).fold(h, |h, block| {
        let mut b = [0u8; 8];
        b.copy_from_slice(block);
        step8(h, b)
    });
    blocks
        .remainder()
        .iter()
        .fold(h, |h, &b| step(h, u32::from(b)))
}

/// `String.hashCode()` of `s`, as Java's signed `int`.
///
/// ```
/// assert_eq!(pulsar_routing::java_string_hashcode("polygenelubricants"), i32::MIN);
/// ```
#[must_use]
pub fn java_string_hashcode(s: &str) -> i32 {
    let bytes = s.as_bytes();
    let mut h = 0u32;
    let mut i = 0;
    // One pass: ASCII bytes are their own UTF-16 units, and the rare
    // non-ASCII character is decoded where it starts.
    while let Some(&b) = bytes.get(i) {
        if let Some(block) = bytes
            .get(i..i + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            && u64::from_le_bytes(block) & 0x8080_8080_8080_8080 == 0
        {
            h = step8(h, block);
            i += 8;
        } else if b.is_ascii() {
            h = step(h, u32::from(b));
            i += 1;
        } else {
            // `i` is a char boundary: it only ever advances by whole chars.
            let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            h = step_char(h, c);
            i += c.len_utf8();
        }
    }
    h as i32
}

/// 31^0 ..= 31^8, wrapping: eight steps of `h = 31 * h + c` collapse into
/// `h * 31^8 + sum(c_j * 31^(7 - j))`, whose products are independent, so
/// the hash is no longer one long chain of dependent multiplies.
const POWERS_OF_31: [u32; 9] = {
    let mut p = [1u32; 9];
    let mut i = 1;
    while i < 9 {
        p[i] = p[i - 1].wrapping_mul(31);
        i += 1;
    }
    p
};

#[inline(always)]
fn step8(h: u32, block: [u8; 8]) -> u32 {
    let mut sum = 0u32;
    for (j, &c) in block.iter().enumerate() {
        sum = sum.wrapping_add(u32::from(c).wrapping_mul(POWERS_OF_31[7 - j]));
    }
    h.wrapping_mul(POWERS_OF_31[8]).wrapping_add(sum)
}

/// Pulsar's `JavaStringHash.makeHash(String)`: `s.hashCode() & 0x7fffffff`.
///
/// ```
/// assert_eq!(pulsar_routing::java_string_hash("a"), 97);
/// assert_eq!(pulsar_routing::java_string_hash("😀"), 1772899);
/// ```
#[must_use]
pub fn java_string_hash(s: &str) -> u32 {
    java_string_hashcode(s) as u32 & POSITIVE_MASK
}

/// `String.hashCode()` over raw UTF-16 code units, for callers that hold Java
/// strings (which may contain lone surrogates) as `u16` arrays.
#[must_use]
pub fn java_string_hashcode_utf16(units: &[u16]) -> i32 {
    units.iter().fold(0u32, |h, &u| step(h, u32::from(u))) as i32
}

/// [`java_string_hashcode_utf16`] masked to 31 bits.
#[must_use]
pub fn java_string_hash_utf16(units: &[u16]) -> u32 {
    java_string_hashcode_utf16(units) as u32 & POSITIVE_MASK
}

/// `new String(bytes, UTF_8).hashCode()`: the hash Java computes for bytes
/// that it first decodes, replacing malformed input the way Java does (see
/// [`java_lossy_utf8`]).
#[must_use]
pub fn java_string_hashcode_bytes(bytes: &[u8]) -> i32 {
    java_lossy_utf8(bytes).fold(0u32, step_char) as i32
}

/// Pulsar's `JavaStringHash.makeHash(byte[])`:
/// `new String(bytes, UTF_8).hashCode() & 0x7fffffff`.
///
/// The partition routers never take this path (they hash the key string),
/// but it is public API in the Java client.
#[must_use]
pub fn java_string_hash_bytes(bytes: &[u8]) -> u32 {
    java_string_hashcode_bytes(bytes) as u32 & POSITIVE_MASK
}

/// Feeds `sink` the bytes of Java's `String.getBytes(UTF_8)` for a string
/// held as UTF-16 `units`, in small pieces: valid surrogate pairs become one
/// 4-byte character, and each lone surrogate becomes `?` (0x3F), as Java's
/// encoder replaces it. This is what `Murmur3Hash32.makeHash(String)`
/// hashes for a Java string.
pub fn java_utf8_of_utf16(units: &[u16], mut sink: impl FnMut(&[u8])) {
    let mut buf = [0u8; 64];
    let mut used = 0;
    for decoded in char::decode_utf16(units.iter().copied()) {
        let c = decoded.unwrap_or('?');
        if used + 4 > buf.len() {
            sink(&buf[..used]);
            used = 0;
        }
        used += c.encode_utf8(&mut buf[used..]).len();
    }
    if used > 0 {
        sink(&buf[..used]);
    }
}

/// Decodes `bytes` as UTF-8 the way `new String(bytes, UTF_8)` does in the
/// JDK: each malformed sequence becomes U+FFFD, with Java's own rules for how
/// many bytes one replacement covers.
///
/// This differs from [`core::str::from_utf8`]'s lossy conventions: an encoded
/// surrogate such as `ED A0 80` is one U+FFFD in Java and three in Rust, and a
/// sequence truncated by the end of the input is always a single U+FFFD.
///
/// ```
/// let decoded: Vec<char> = pulsar_routing::java_lossy_utf8(b"\xed\xa0\x80!").collect();
/// assert_eq!(decoded, ['\u{fffd}', '!']);
/// ```
#[must_use]
pub fn java_lossy_utf8(bytes: &[u8]) -> JavaLossyUtf8<'_> {
    JavaLossyUtf8 { rest: bytes }
}

/// Iterator returned by [`java_lossy_utf8`].
#[derive(Clone, Debug)]
pub struct JavaLossyUtf8<'a> {
    rest: &'a [u8],
}

const REPLACEMENT: char = '\u{fffd}';

#[inline(always)]
const fn is_continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

impl Iterator for JavaLossyUtf8<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let (&b1, after) = self.rest.split_first()?;
        // Each arm returns the character and how many bytes it consumed,
        // following the branch structure of the JDK's UTF-8 string decoder.
        let (c, used) = match b1 {
            0x00..=0x7f => (char::from(b1), 1),
            0xc2..=0xdf => match after.first() {
                Some(&b2) if is_continuation(b2) => {
                    let c = (u32::from(b1 & 0x1f) << 6) | u32::from(b2 & 0x3f);
                    (char::from_u32(c).unwrap_or(REPLACEMENT), 2)
                }
                // A bad second byte is re-read as the start of the next char.
                Some(_) => (REPLACEMENT, 1),
                // Truncated by the end of input: one replacement ends it all.
                None => (REPLACEMENT, self.rest.len()),
            },
            0xe0..=0xef => decode3(b1, after, self.rest.len()),
            0xf0..=0xf7 => decode4(b1, after, self.rest.len()),
            // Stray continuation bytes, C0/C1 (always overlong) and F8..FF.
            _ => (REPLACEMENT, 1),
        };
        self.rest = self.rest.get(used..).unwrap_or(&[]);
        Some(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Each char consumes between 1 and 4 bytes.
        (self.rest.len().div_ceil(4), Some(self.rest.len()))
    }
}

/// The E0 lead byte needs A0..BF next, or the sequence would be overlong.
#[inline(always)]
const fn bad_second_of_3(b1: u8, b2: u8) -> bool {
    (b1 == 0xe0 && b2 & 0xe0 == 0x80) || !is_continuation(b2)
}

fn decode3(b1: u8, after: &[u8], remaining: usize) -> (char, usize) {
    match *after {
        [b2, b3, ..] => {
            if bad_second_of_3(b1, b2) {
                (REPLACEMENT, 1)
            } else if !is_continuation(b3) {
                (REPLACEMENT, 2)
            } else {
                let c = (u32::from(b1 & 0x0f) << 12)
                    | (u32::from(b2 & 0x3f) << 6)
                    | u32::from(b3 & 0x3f);
                // An encoded surrogate (ED A0..BF xx) is one replacement for
                // all three bytes: `from_u32` rejects exactly those values.
                (char::from_u32(c).unwrap_or(REPLACEMENT), 3)
            }
        }
        [b2] if bad_second_of_3(b1, b2) => (REPLACEMENT, 1),
        _ => (REPLACEMENT, remaining),
    }
}

/// F0 needs 90..BF next (shorter forms are overlong) and F4 needs 80..8F
/// (anything above is past U+10FFFF); F5..F7 can never start a character.
#[inline(always)]
const fn bad_second_of_4(b1: u8, b2: u8) -> bool {
    b1 > 0xf4
        || (b1 == 0xf0 && !(b2 >= 0x90 && b2 <= 0xbf))
        || (b1 == 0xf4 && b2 & 0xf0 != 0x80)
        || !is_continuation(b2)
}

fn decode4(b1: u8, after: &[u8], remaining: usize) -> (char, usize) {
    match *after {
        [b2, b3, b4, ..] => {
            if bad_second_of_4(b1, b2) {
                (REPLACEMENT, 1)
            } else if !is_continuation(b3) {
                (REPLACEMENT, 2)
            } else if !is_continuation(b4) {
                (REPLACEMENT, 3)
            } else {
                let c = (u32::from(b1 & 0x07) << 18)
                    | (u32::from(b2 & 0x3f) << 12)
                    | (u32::from(b3 & 0x3f) << 6)
                    | u32::from(b4 & 0x3f);
                (char::from_u32(c).unwrap_or(REPLACEMENT), 4)
            }
        }
        // Truncated by the end of the input: Java checks as many bytes as it
        // has, replaces a bad prefix byte by byte, and otherwise emits one
        // replacement for the rest.
        [b2, ..] if bad_second_of_4(b1, b2) => (REPLACEMENT, 1),
        [_, b3] if !is_continuation(b3) => (REPLACEMENT, 2),
        [] if b1 > 0xf4 => (REPLACEMENT, 1),
        _ => (REPLACEMENT, remaining),
    }
}
