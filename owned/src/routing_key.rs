//! Keys and hashing schemes as the bindings hand them over: the schemes'
//! numeric codes, and the UTF-8 bytes Java writes for a `String` that may
//! hold lone surrogates.

use pulsar_routing::HashingScheme;

/// The hashing schemes in the order of their numeric codes (the C ABI's
/// `PULSAR_ROUTING_HASHING_SCHEME_*`): a scheme's code is its index.
pub const HASHING_SCHEMES: [HashingScheme; 2] =
    [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash];

/// The scheme with numeric code `code`, or `None` for an unknown code.
#[must_use]
pub fn hashing_scheme_from_code(code: u32) -> Option<HashingScheme> {
    HASHING_SCHEMES.get(code as usize).copied()
}

/// The numeric code of `scheme`: its index in [`HASHING_SCHEMES`].
#[must_use]
pub const fn hashing_scheme_code(scheme: HashingScheme) -> u32 {
    match scheme {
        HashingScheme::JavaStringHash => 0,
        HashingScheme::Murmur3_32Hash => 1,
    }
}

/// Java's `getBytes(UTF_8)` of a `String`'s UTF-16 units: each lone
/// surrogate is written as `?`, which is what `decode_utf16` reports as an
/// error, one unit at a time. (The core applies the same rule when it
/// hashes a UTF-16 key, but does not expose the bytes themselves.)
#[must_use]
pub fn java_utf8(units: &[u16]) -> Vec<u8> {
    char::decode_utf16(units.iter().copied())
        .map(|c| c.unwrap_or('?'))
        .collect::<String>()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_indices() {
        for (code, scheme) in HASHING_SCHEMES.iter().enumerate() {
            assert_eq!(hashing_scheme_code(*scheme) as usize, code);
            assert_eq!(hashing_scheme_from_code(code as u32), Some(*scheme));
        }
        assert_eq!(hashing_scheme_from_code(2), None);
    }

    #[test]
    fn lone_surrogates_become_question_marks() {
        // "a", a lone high surrogate, then U+1F600 as a pair.
        assert_eq!(
            java_utf8(&[0x61, 0xd800, 0xd83d, 0xde00]),
            "a?\u{1f600}".as_bytes()
        );
    }
}
