//! `BundleRange` on arbitrary text and bounds.
//!
//! - `parse` never panics, and on ASCII text agrees with a transcription of
//!   the broker's `getBundle(namespace, range)`: `split("_")`, `Long.decode`
//!   of each part, Guava's `Range.range` and `NamespaceBundle`'s checks.
//! - A parsed range is one `new` accepts; its name parses back to it when
//!   both bounds are non-negative, and is rejected otherwise (a negative
//!   `long` prints as 16 hex digits, beyond `Long.decode`).
//! - `new` accepts exactly the non-empty ranges, and `includes`,
//!   `upper_closed`, `can_split` and `key` follow their definitions.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::bundles::{BoundErrorKind, BundleError, BundleRange, FULL_UPPER_BOUND};
use pulsar_routing_fuzz::reference::{self, DecodeError};

const FULL: i64 = FULL_UPPER_BOUND as i64;

/// Pieces of bundle range strings: every radix prefix, signs, bounds at
/// the edges of the hash space and of `long`, and digits Java reads but
/// ASCII parsers do not.
const FRAGMENTS: &[&str] = &[
    "_",
    "0x",
    "0X",
    "#",
    "0",
    "-",
    "+",
    "00000000",
    "40000000",
    "ffffffff",
    "FFFFFFFF",
    "100000000",
    "7fffffffffffffff",
    "8000000000000000",
    "0x00000000_0x40000000",
    "0xc0000000_0xffffffff",
    "9",
    "8",
    "7",
    " ",
    "\u{661}",
    "\u{ff11}",
    "\u{ff41}",
    "\u{1d7cf}",
];

#[derive(Arbitrary, Debug)]
enum Token {
    Fragment(u8),
    Hex(u64),
    Decimal(i64),
    Octal(u32),
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct Input {
    text: Vec<Token>,
    lower: i64,
    upper: i64,
    /// Pick bounds near the hash space's edges instead of anywhere in `long`.
    near_edges: bool,
    hashes: Vec<u32>,
}

fn build(tokens: &[Token]) -> String {
    let mut text = String::new();
    for token in tokens {
        match token {
            Token::Fragment(i) => text.push_str(FRAGMENTS[usize::from(*i) % FRAGMENTS.len()]),
            Token::Hex(n) => text.push_str(&format!("{n:x}")),
            Token::Decimal(n) => text.push_str(&n.to_string()),
            Token::Octal(n) => text.push_str(&format!("{n:o}")),
            Token::Text(s) => text.push_str(s),
        }
    }
    text
}

fuzz_target!(|input: Input| {
    let text = build(&input.text);
    let parsed = BundleRange::parse(&text);
    match parsed {
        Ok(range) => check_parsed(range, &input.hashes),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if text.is_ascii() {
        check_against_java(&text, parsed);
    }

    let (lower, upper) = if input.near_edges {
        // -2..=1 and 0xfffffffd..=0x100000000 are where the checks bite.
        let near = |v: i64| match v.rem_euclid(8) {
            k @ 0..=3 => k - 2,
            k => FULL - 6 + k,
        };
        (near(input.lower), near(input.upper))
    } else {
        (input.lower, input.upper)
    };
    check_new(lower, upper, &input.hashes);
});

fn check_parsed(range: BundleRange, hashes: &[u32]) {
    assert_eq!(BundleRange::new(range.lower(), range.upper()), Ok(range));
    check_range(range, hashes);
    let name = range.to_string();
    if range.lower() >= 0 && range.upper() >= 0 {
        assert_eq!(BundleRange::parse(&name), Ok(range), "{name}");
        if range.upper() <= FULL {
            assert_eq!(name.len(), "0x00000000_0x00000000".len(), "{name}");
        }
    } else {
        assert!(BundleRange::parse(&name).is_err(), "{name}");
    }
}

/// `NamespaceBundleFactory.getBundle(String, String)`, for ASCII text:
///
/// ```java
/// checkArgument(bundleRange.contains("_"), "Invalid bundle range");
/// String[] boundaries = bundleRange.split("_");
/// Long lowerEndpoint = Long.decode(boundaries[0]);
/// Long upperEndpoint = Long.decode(boundaries[1]);
/// Range<Long> hashRange = Range.range(lowerEndpoint, BoundType.CLOSED, upperEndpoint,
///         (upperEndpoint.equals(NamespaceBundles.FULL_UPPER_BOUND)) ? BoundType.CLOSED : BoundType.OPEN);
/// return getBundle(NamespaceName.get(namespace), hashRange);  // non-empty
/// ```
fn java_get_bundle(text: &str) -> Result<(i64, i64), JavaError> {
    if !text.contains('_') {
        return Err(JavaError::InvalidBundleRange);
    }
    let parts = reference::java_split(text, '_');
    let lower = reference::long_decode(parts.first().ok_or(JavaError::NoLowerPart)?)
        .map_err(JavaError::Decode)?;
    let upper = reference::long_decode(parts.get(1).ok_or(JavaError::NoUpperPart)?)
        .map_err(JavaError::Decode)?;
    if lower > upper {
        return Err(JavaError::InvalidRange);
    }
    if lower == upper && upper != FULL {
        return Err(JavaError::EmptyRange);
    }
    Ok((lower, upper))
}

/// What Java throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JavaError {
    InvalidBundleRange,
    /// `ArrayIndexOutOfBoundsException` on `boundaries[0]`.
    NoLowerPart,
    /// `ArrayIndexOutOfBoundsException` on `boundaries[1]`.
    NoUpperPart,
    Decode(DecodeError),
    InvalidRange,
    EmptyRange,
}

fn check_against_java(text: &str, ours: Result<BundleRange, BundleError>) {
    let java = java_get_bundle(text);
    let ours_bounds = ours.map(|r| (r.lower(), r.upper()));
    assert_eq!(
        ours_bounds.ok(),
        java.ok(),
        "{text:?}: {ours:?} vs Java {java:?}"
    );
    let (Err(ours), Err(java)) = (ours, java) else {
        return;
    };
    let expected = match java {
        JavaError::InvalidBundleRange => BundleError::InvalidBundleRange,
        JavaError::NoLowerPart => BundleError::MissingLowerBound,
        JavaError::NoUpperPart => BundleError::MissingUpperBound,
        JavaError::Decode(e) => BundleError::InvalidBound(match e {
            DecodeError::Empty => BoundErrorKind::Empty,
            DecodeError::SignInWrongPosition => BoundErrorKind::SignInWrongPosition,
            DecodeError::NotALong => BoundErrorKind::NotALong,
        }),
        JavaError::InvalidRange => match ours {
            BundleError::InvalidRange { .. } => ours,
            _ => panic!("{text:?}: {ours:?} where Java says the range is inverted"),
        },
        JavaError::EmptyRange => BundleError::EmptyRange,
    };
    // With one part only, like `zz_`, Java decodes that part first and
    // throws its NumberFormatException before noticing the missing upper.
    assert_eq!(
        ours, expected,
        "{text:?}: error differs from Java's {java:?}"
    );
}

fn check_new(lower: i64, upper: i64, hashes: &[u32]) {
    let made = BundleRange::new(lower, upper);
    let valid = lower < upper || (lower == upper && upper == FULL);
    assert_eq!(made.is_ok(), valid, "new({lower}, {upper}) = {made:?}");
    match made {
        Ok(range) => {
            assert_eq!((range.lower(), range.upper()), (lower, upper));
            check_range(range, hashes);
        }
        Err(e) => {
            let expected = if lower > upper {
                BundleError::InvalidRange { lower, upper }
            } else {
                BundleError::EmptyRange
            };
            assert_eq!(e, expected);
            assert!(!e.to_string().is_empty());
        }
    }
}

/// `includes`, `upper_closed`, `can_split` and `key` by their definitions,
/// at the bounds, next to them, and at the fuzzer's hashes.
fn check_range(range: BundleRange, hashes: &[u32]) {
    let (lower, upper) = (i128::from(range.lower()), i128::from(range.upper()));
    assert_eq!(range.upper_closed(), range.upper() == FULL);
    // Java's `canSplitBundle`: `upper - lower` in a wrapping `long`.
    assert_eq!(
        range.can_split(),
        range.upper().wrapping_sub(range.lower()) > 1
    );
    let edges = [lower - 1, lower, lower + 1, upper - 1, upper, upper + 1];
    let edges = edges.into_iter().filter_map(|h| u32::try_from(h).ok());
    for hash in edges.chain(hashes.iter().copied()).chain([0, u32::MAX]) {
        let h = i128::from(hash);
        let inside = lower <= h && (h < upper || (range.upper_closed() && h == upper));
        assert_eq!(range.includes(hash), inside, "{range} includes {hash:#x}");
    }
    assert_eq!(range.key("t/ns").to_string(), format!("t/ns/{range}"));
    // `%08x` of a Java long: a negative bound prints its two's complement.
    assert_eq!(
        range.to_string(),
        format!(
            "0x{:08x}_0x{:08x}",
            range.lower() as u64,
            range.upper() as u64
        )
    );
}
