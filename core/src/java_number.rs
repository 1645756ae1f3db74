//! Java's integer parsing (`Long.parseLong`, `Long.decode`), reproduced
//! because the broker feeds user text straight into them: bundle range
//! strings go through `Long.decode`, so `#10`, octal `010` and upper-case hex
//! are all valid bundle bounds.

/// The value of `c` as a digit in `radix` (2..=36), as Java's
/// `Character.digit(char, radix)`: ASCII digits and Latin letters, their
/// full-width forms, and the Unicode decimal digits of the BMP. Java's
/// parsers read one UTF-16 unit at a time, so a character outside the BMP
/// (a surrogate pair) is never a digit, even a mathematical one.
pub(crate) fn java_digit(c: char, radix: u32) -> Option<u32> {
    let value = match c {
        '0'..='9' => u32::from(c) - u32::from('0'),
        'a'..='z' => u32::from(c) - u32::from('a') + 10,
        'A'..='Z' => u32::from(c) - u32::from('A') + 10,
        '\u{ff21}'..='\u{ff3a}' => u32::from(c) - 0xff21 + 10,
        '\u{ff41}'..='\u{ff5a}' => u32::from(c) - 0xff41 + 10,
        _ => crate::unicode_digit::decimal_digit_value(c)?,
    };
    (value < radix).then_some(value)
}

/// Why Java's number parsing threw `NumberFormatException`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum JavaNumberError {
    /// `Long.decode("")`.
    Empty,
    /// A sign after the radix prefix, as in `0x-1`.
    SignInWrongPosition,
    /// Not a number in the radix, or out of the `long` range.
    Invalid,
}

/// `Long.parseLong(s, radix)`: an optional sign, then at least one digit.
/// `Integer.parseInt` is this with an `i32` range check.
pub(crate) fn parse_long(s: &str, radix: u32) -> Result<i64, JavaNumberError> {
    match s.as_bytes().first() {
        Some(b'-') => parse_digits(&s[1..], radix, true),
        Some(b'+') => parse_digits(&s[1..], radix, false),
        _ => parse_digits(s, radix, false),
    }
}

/// Digits only, with the sign given separately. Accumulating negatively, as
/// Java does, lets `i64::MIN` parse.
fn parse_digits(digits: &str, radix: u32, negative: bool) -> Result<i64, JavaNumberError> {
    if digits.is_empty() {
        return Err(JavaNumberError::Invalid);
    }
    let mut value: i64 = 0;
    for c in digits.chars() {
        let d = java_digit(c, radix).ok_or(JavaNumberError::Invalid)?;
        value = value
            .checked_mul(i64::from(radix))
            .and_then(|v| v.checked_sub(i64::from(d)))
            .ok_or(JavaNumberError::Invalid)?;
    }
    if negative {
        Ok(value)
    } else {
        value.checked_neg().ok_or(JavaNumberError::Invalid)
    }
}

/// `Long.decode(s)`: an optional sign, then `0x`, `0X` or `#` for hex, a
/// leading `0` (followed by more) for octal, or decimal.
pub(crate) fn decode_long(s: &str) -> Result<i64, JavaNumberError> {
    let (negative, rest) = match s.as_bytes().first() {
        None => return Err(JavaNumberError::Empty),
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        Some(_) => (false, s),
    };
    let (radix, body) = if let Some(b) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X"))
    {
        (16, b)
    } else if let Some(b) = rest.strip_prefix('#') {
        (16, b)
    } else if rest.len() > 1 && rest.starts_with('0') {
        (8, &rest[1..])
    } else {
        (10, rest)
    };
    if body.starts_with('-') || body.starts_with('+') {
        return Err(JavaNumberError::SignInWrongPosition);
    }
    // Java parses the magnitude, and on failure retries with the sign
    // attached; parsing signed in one go gives the same answers.
    parse_digits(body, radix, negative)
}
