//! Keys as the bindings hand them over: the UTF-8 bytes Java writes for a
//! `String` that may hold lone surrogates.

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
    fn lone_surrogates_become_question_marks() {
        // "a", a lone high surrogate, then U+1F600 as a pair.
        assert_eq!(
            java_utf8(&[0x61, 0xd800, 0xd83d, 0xde00]),
            "a?\u{1f600}".as_bytes()
        );
    }
}
