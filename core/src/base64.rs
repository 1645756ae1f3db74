//! Standard, padded Base64 (RFC 4648 section 4), produced in small stack
//! chunks so that `keyBytes` keys can be hashed without allocating.
//!
//! Java's `Base64.getEncoder()` is exactly this alphabet with `=` padding and
//! no line breaks.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Output chunk size: a multiple of 4, small enough for any stack.
const CHUNK: usize = 64;

#[inline(always)]
fn encode_group(input: [u8; 3]) -> [u8; 4] {
    let n = (u32::from(input[0]) << 16) | (u32::from(input[1]) << 8) | u32::from(input[2]);
    [
        ALPHABET[(n >> 18) as usize & 63],
        ALPHABET[(n >> 12) as usize & 63],
        ALPHABET[(n >> 6) as usize & 63],
        ALPHABET[n as usize & 63],
    ]
}

/// Calls `sink` with consecutive pieces of the Base64 text of `bytes`; their
/// concatenation is the whole text. The empty input produces no call.
pub(crate) fn for_each_base64_chunk(bytes: &[u8], mut sink: impl FnMut(&[u8])) {
    let mut out = [0u8; CHUNK];
    let mut used = 0;
    let mut groups = bytes.chunks_exact(3);
    for group in &mut groups {
        let quad = encode_group([group[0], group[1], group[2]]);
        out[used..used + 4].copy_from_slice(&quad);
        used += 4;
        if used == CHUNK {
            sink(&out);
            used = 0;
        }
    }
    let quad = match *groups.remainder() {
        [a] => {
            let q = encode_group([a, 0, 0]);
            Some([q[0], q[1], b'=', b'='])
        }
        [a, b] => {
            let q = encode_group([a, b, 0]);
            Some([q[0], q[1], q[2], b'='])
        }
        _ => None,
    };
    if let Some(quad) = quad {
        // `used` is below CHUNK here and a multiple of 4, so 4 more fit.
        out[used..used + 4].copy_from_slice(&quad);
        used += 4;
    }
    if used > 0 {
        sink(&out[..used]);
    }
}

/// The length of the padded Base64 text of `len` bytes.
#[must_use]
pub const fn base64_len(len: usize) -> usize {
    // Saturates instead of overflowing for lengths no slice can have.
    len.div_ceil(3).saturating_mul(4)
}

/// Writes the padded standard Base64 text of `bytes` (what Java's
/// `keyBytes()` stores as the key) into `out`, returning its length, or
/// `None` if `out` is shorter than [`base64_len`]`(bytes.len())`.
///
/// ```
/// let mut buf = [0u8; 8];
/// let n = pulsar_routing::encode_base64(b"hello", &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"aGVsbG8=");
/// ```
#[must_use]
pub fn encode_base64(bytes: &[u8], out: &mut [u8]) -> Option<usize> {
    let need = base64_len(bytes.len());
    let dest = out.get_mut(..need)?;
    let mut at = 0;
    for_each_base64_chunk(bytes, |chunk| {
        dest[at..at + chunk.len()].copy_from_slice(chunk);
        at += chunk.len();
    });
    Some(at)
}
