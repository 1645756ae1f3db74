//! Unicode decimal digits (general category Nd), which Java's integer
//! parsing accepts wherever it accepts `0`-`9`: `Integer.parseInt("١٢")` is
//! 12, so `x-partition-١٢` is partition 12 to the broker.

/// The first code point (digit zero) of every run of ten Nd digits in the
/// Basic Multilingual Plane, per Unicode 13.0 (Java 17's `Character`
/// tables, which printed the golden vectors). Java parses numbers one UTF-16
/// unit at a time, so digits outside the BMP, being surrogate pairs, are
/// never digits to it and are left out.
const ZEROS: [u32; 37] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
];

/// The value 0..=9 of a BMP Unicode decimal digit, or `None` for any other char.
pub(crate) fn decimal_digit_value(c: char) -> Option<u32> {
    let c = u32::from(c);
    // The run whose zero is the last one not above `c`.
    let run = match ZEROS.binary_search(&c) {
        Ok(i) => i,
        Err(0) => return None,
        Err(i) => i - 1,
    };
    let offset = c - ZEROS[run];
    (offset < 10).then_some(offset)
}

#[cfg(test)]
mod tests {
    use super::decimal_digit_value;

    #[test]
    fn runs_are_sorted_and_disjoint() {
        assert!(super::ZEROS.windows(2).all(|w| w[1] - w[0] >= 10));
    }

    #[test]
    fn digits_and_non_digits() {
        assert_eq!(decimal_digit_value('7'), Some(7));
        assert_eq!(decimal_digit_value('\u{662}'), Some(2)); // ARABIC-INDIC DIGIT TWO
        assert_eq!(decimal_digit_value('\u{ff19}'), Some(9)); // FULLWIDTH DIGIT NINE
        // Outside the BMP: a surrogate pair to Java, so not a digit.
        assert_eq!(decimal_digit_value('\u{1d7ff}'), None);
        assert_eq!(decimal_digit_value('a'), None);
        assert_eq!(decimal_digit_value('\u{2f}'), None);
        assert_eq!(decimal_digit_value('\u{3a}'), None);
        assert_eq!(decimal_digit_value('\u{16ac0}'), None); // Tangsa: Unicode 14, after Java 17
    }
}
