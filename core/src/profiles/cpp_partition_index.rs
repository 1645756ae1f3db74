//! pulsar-client-cpp's `TopicName::getPartitionIndex`, which
//! `TopicName::init` applies to the local name.

const PARTITION_SUFFIX: &str = "-partition-";

/// C's `isspace` in the C locale.
const fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `std::stoi(text)`: `strtol` base 10 on the C string (which ends at the
/// first NUL), failing (`std::invalid_argument`, `std::out_of_range`) when
/// no digit is read or the value is outside `int`.
fn stoi(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    let c_string = bytes
        .iter()
        .position(|&b| b == 0)
        .map_or(bytes, |nul| &bytes[..nul]);
    let mut rest = c_string;
    while let Some((&b, tail)) = rest.split_first()
        && is_c_space(b)
    {
        rest = tail;
    }
    let negative = match rest.first() {
        Some(b'-') => {
            rest = &rest[1..];
            true
        }
        Some(b'+') => {
            rest = &rest[1..];
            false
        }
        _ => false,
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut value = 0i64;
    for &b in &rest[..digits] {
        // Past the `int` range the answer is out_of_range whatever follows,
        // so stop before `i64` could overflow.
        value = value * 10 + i64::from(b - b'0');
        if value > i64::from(i32::MAX) + 1 {
            return None;
        }
    }
    let value = if negative { -value } else { value };
    i32::try_from(value).ok()
}

/// `TopicName::getPartitionIndex(localName)`: -1 unless the name contains
/// `-partition-`; otherwise `std::stoi` of the text after the **last `-`**,
/// or -1 when `stoi` throws.
///
/// Unlike Java, `-partition-00` gives 0, `-partition--2` gives 2 and
/// `-partition-5abc` gives 5 (`stoi` stops at the first non-digit and skips
/// leading spaces). The C++ client calls it on the local name only.
///
/// ```
/// use pulsar_routing::profiles::cpp_partition_index;
/// assert_eq!(cpp_partition_index("x-partition-00"), 0);  // Java: -1
/// assert_eq!(cpp_partition_index("x-partition--2"), 2);  // Java: -1
/// assert_eq!(cpp_partition_index("x-partition-5abc"), 5); // Java: -1
/// assert_eq!(cpp_partition_index("x-partition-"), -1);
/// assert_eq!(cpp_partition_index("x-partition-2147483648"), -1);
/// ```
#[must_use]
pub fn cpp_partition_index(local_name: &str) -> i32 {
    if !local_name.contains(PARTITION_SUFFIX) {
        return -1;
    }
    let after_dash = local_name.rsplit_once('-').map_or("", |(_, after)| after);
    stoi(after_dash).unwrap_or(-1)
}
