//! The few Java library behaviours topic-name parsing leans on, reproduced
//! exactly: they decide which names the broker accepts and how it numbers
//! partitions, so "close enough" would route to a different partition.

/// `TopicName.PARTITIONED_TOPIC_SUFFIX`.
pub(super) const PARTITION_SUFFIX: &str = "-partition-";

/// `TopicName.getPartitionIndex(String)`: the partition number at the end
/// of `topic`, or -1 when it does not name a partition.
///
/// The text after the **last** `-partition-` must be what
/// `Integer.parseInt` accepts, non-negative, and as long (in UTF-16 units)
/// as the number printed back. That rejects a sign, leading zeros and
/// overflow, but accepts any Unicode decimal digit in the Basic
/// Multilingual Plane, as Java's `Character.digit` does.
///
/// ```
/// use pulsar_routing::topic_name::get_partition_index;
///
/// assert_eq!(get_partition_index("persistent://t/ns/x-partition-7"), 7);
/// assert_eq!(get_partition_index("x-partition-1-partition-2"), 2);
/// assert_eq!(get_partition_index("x-partition-\u{661}\u{662}"), 12); // Arabic-Indic ١٢
/// assert_eq!(get_partition_index("x-partition-01"), -1);
/// assert_eq!(get_partition_index("x-partition-+1"), -1);
/// assert_eq!(get_partition_index("x-partition-2147483648"), -1);
/// assert_eq!(get_partition_index("my-topic"), -1);
/// ```
#[must_use]
pub fn get_partition_index(topic: &str) -> i32 {
    let Some((_, idx)) = rsplit_once_str(topic, PARTITION_SUFFIX) else {
        return -1;
    };
    let Some(p) = parse_java_integer(idx, 10, i64::from(i32::MIN), i64::from(i32::MAX)) else {
        return -1;
    };
    // `parse_java_integer` kept `p` in the int range.
    let p = p as i32;
    if p < 0 || utf16_len(idx) != decimal_len(p.unsigned_abs()) {
        return -1;
    }
    p
}

/// `haystack.split_once(needle)` by a plain byte scan: `str`'s searcher
/// prepares a Two-Way table on every call, which dominates for the short
/// needles and names here. `needle` must not be empty.
pub(super) fn split_once_str<'h>(haystack: &'h str, needle: &str) -> Option<(&'h str, &'h str)> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let at =
        (0..=h.len().checked_sub(n.len())?).find(|&i| h[i] == first && h[i..].starts_with(n))?;
    // A match of a whole UTF-8 needle starts and ends on char boundaries.
    Some((haystack.get(..at)?, haystack.get(at + n.len()..)?))
}

/// `haystack.rsplit_once(needle)`, by the same byte scan from the end.
pub(super) fn rsplit_once_str<'h>(haystack: &'h str, needle: &str) -> Option<(&'h str, &'h str)> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let at = (0..=h.len().checked_sub(n.len())?)
        .rev()
        .find(|&i| h[i] == first && h[i..].starts_with(n))?;
    Some((haystack.get(..at)?, haystack.get(at + n.len()..)?))
}

/// Java's `Integer.parseInt(s, radix)` (with the `int` bounds) or
/// `Long.parseLong(s, radix)` (with the `long` bounds): an optional sign,
/// then at least one digit, the value within `min..=max`.
pub(super) fn parse_java_integer(s: &str, radix: u32, min: i64, max: i64) -> Option<i64> {
    crate::java_number::parse_long(s, radix)
        .ok()
        .filter(|v| (min..=max).contains(v))
}

/// `String.length()`: UTF-16 code units.
fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// `String.valueOf(n).length()` for a non-negative `n`.
const fn decimal_len(mut n: u32) -> usize {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

/// Commons Lang `StringUtils.isBlank`: empty, or only characters for which
/// `Character.isWhitespace` holds. Java's whitespace is not Unicode's
/// `White_Space`: the no-break spaces (U+00A0, U+2007, U+202F) and U+0085
/// are not blank, the information separators U+001C..U+001F are.
pub(super) fn is_java_blank(s: &str) -> bool {
    s.chars().all(|c| {
        matches!(
            c,
            '\t'..='\r'
                | '\u{1c}'..='\u{20}'
                | '\u{1680}'
                | '\u{2000}'..='\u{2006}'
                | '\u{2008}'..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{205f}'
                | '\u{3000}'
        )
    })
}

/// `String.equalsIgnoreCase` against an all-lower-case ASCII `target`.
///
/// Java compares the upper-case and then the lower-case forms of each
/// character, so a few non-ASCII characters match ASCII letters: `ſ`
/// (U+017F) is an `s`, `ı` (U+0131) and `İ` (U+0130) are an `i`, and the
/// Kelvin sign (U+212A) is a `k`. Each of them is one UTF-16 unit, like the
/// letter it matches, so comparing character by character also compares
/// Java's lengths.
pub(super) fn java_equals_ignore_case(s: &str, target: &str) -> bool {
    let mut chars = s.chars();
    for t in target.bytes() {
        let Some(c) = chars.next() else {
            return false;
        };
        let same = match c {
            '\u{17f}' => t == b's',
            '\u{130}' | '\u{131}' => t == b'i',
            '\u{212a}' => t == b'k',
            _ => c.is_ascii() && c.to_ascii_lowercase() == char::from(t),
        };
        if !same {
            return false;
        }
    }
    chars.next().is_none()
}

/// `NamedEntity.checkName`: the whole name matches `^[-=:.\w]*$`, where
/// `\w` is ASCII only.
pub(super) fn is_named_entity(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'=' | b':' | b'.' | b'_'))
}

/// `String.valueOf(int)` without allocating: the decimal text of an `i32`,
/// readable as a `&str` or byte by byte.
#[derive(Clone, Debug)]
pub(super) struct JavaDecimal {
    buf: [u8; 11],
    start: usize,
}

impl JavaDecimal {
    pub(super) fn new(n: i32) -> Self {
        let mut buf = [0u8; 11];
        let mut start = buf.len();
        let mut magnitude = n.unsigned_abs();
        // Ten digits and a sign at most, so `start` never drops below 0; the
        // checked steps only keep that visible to the compiler.
        loop {
            start = start.saturating_sub(1);
            if let Some(slot) = buf.get_mut(start) {
                *slot = b'0' + (magnitude % 10) as u8;
            }
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        if n < 0 {
            start = start.saturating_sub(1);
            if let Some(slot) = buf.get_mut(start) {
                *slot = b'-';
            }
        }
        Self { buf, start }
    }

    pub(super) fn as_str(&self) -> &str {
        self.buf
            .get(self.start..)
            .and_then(|digits| core::str::from_utf8(digits).ok())
            .unwrap_or("")
    }
}

impl Iterator for JavaDecimal {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        let byte = self.buf.get(self.start).copied()?;
        self.start = self.start.saturating_add(1);
        Some(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_searches_match_str_searches() {
        for hay in [
            "",
            "-",
            "x-partition-",
            "-partition--partition-3",
            "a://b://c",
            "日本-partition-1",
        ] {
            for needle in ["-partition-", "://", "-"] {
                assert_eq!(
                    super::split_once_str(hay, needle),
                    hay.split_once(needle),
                    "{hay} {needle}"
                );
                assert_eq!(
                    super::rsplit_once_str(hay, needle),
                    hay.rsplit_once(needle),
                    "{hay} {needle}"
                );
            }
        }
    }

    #[test]
    fn decimal_text_like_java() {
        extern crate std;
        use std::string::ToString;
        for n in [0, 7, -7, 10, 2147483647, -2147483648, -1] {
            assert_eq!(JavaDecimal::new(n).as_str(), n.to_string());
            assert!(JavaDecimal::new(n).eq(n.to_string().bytes()));
        }
    }

    #[test]
    fn parses_like_java() {
        let int = |s| parse_java_integer(s, 10, i32::MIN.into(), i32::MAX.into());
        assert_eq!(int("+5"), Some(5));
        assert_eq!(int("-0"), Some(0));
        assert_eq!(int("-2147483648"), Some(-2147483648));
        assert_eq!(int("2147483648"), None);
        assert_eq!(int("0000000000000000000000000012"), Some(12));
        assert_eq!(int("+"), None);
        assert_eq!(int(""), None);
        assert_eq!(int("1 "), None);
        assert_eq!(int("\u{ff11}\u{ff12}"), Some(12)); // full-width digits
        assert_eq!(int("\u{1d7cf}"), None); // a digit, but two UTF-16 units
        let hex = |s| parse_java_integer(s, 16, i32::MIN.into(), i32::MAX.into());
        assert_eq!(hex("ffff"), Some(0xffff));
        assert_eq!(hex("FFFF"), Some(0xffff));
        assert_eq!(hex("\u{ff46}"), Some(0xf));
        assert_eq!(hex("g"), None);
    }

    #[test]
    fn blank_is_java_whitespace() {
        assert!(is_java_blank(""));
        assert!(is_java_blank(" \t\n\u{b}\u{c}\r\u{1c}\u{3000}"));
        assert!(!is_java_blank("\u{a0}"));
        assert!(!is_java_blank("\u{85}"));
        assert!(!is_java_blank("\u{2007}"));
        assert!(!is_java_blank(" x "));
    }

    #[test]
    fn ignore_case_has_java_exceptions() {
        assert!(java_equals_ignore_case("PERSISTENT", "persistent"));
        assert!(java_equals_ignore_case(
            "per\u{17f}\u{130}stent",
            "persistent"
        ));
        assert!(!java_equals_ignore_case("persisten", "persistent"));
        assert!(!java_equals_ignore_case("persistentt", "persistent"));
        assert!(!java_equals_ignore_case("non_persistent", "non-persistent"));
    }
}
