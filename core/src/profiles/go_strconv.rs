//! Go's `strconv.Atoi` (64-bit `int`) and the `strconv.Quote` its errors
//! print: pulsar-client-go parses partition indexes with it.

use core::fmt::{self, Write};

/// Why Go's `strconv.Atoi` failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoAtoiErrorKind {
    /// `strconv.ErrSyntax`: "invalid syntax".
    Syntax,
    /// `strconv.ErrRange`: "value out of range" (beyond 64-bit `int`).
    Range,
}

/// Go's `*strconv.NumError` from `Atoi`, printed as Go prints it:
/// `strconv.Atoi: parsing "3abc": invalid syntax`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoAtoiError<'a> {
    /// The text Go tried to parse.
    pub text: &'a str,
    /// What went wrong.
    pub kind: GoAtoiErrorKind,
}

impl fmt::Display for GoAtoiError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.kind {
            GoAtoiErrorKind::Syntax => "invalid syntax",
            GoAtoiErrorKind::Range => "value out of range",
        };
        write!(f, "strconv.Atoi: parsing {}: {reason}", GoQuoted(self.text))
    }
}

impl core::error::Error for GoAtoiError<'_> {}

/// Go's `strconv.Atoi` on a 64-bit platform: an optional sign and ASCII
/// decimal digits, nothing else (no spaces, no underscores, no Unicode
/// digits), within `i64`.
///
/// ```
/// use pulsar_routing::profiles::{GoAtoiErrorKind, go_atoi};
/// assert_eq!(go_atoi("+01"), Ok(1));
/// assert_eq!(go_atoi("").map_err(|e| e.kind), Err(GoAtoiErrorKind::Syntax));
/// assert_eq!(go_atoi("9223372036854775808").map_err(|e| e.kind), Err(GoAtoiErrorKind::Range));
/// ```
///
/// # Errors
/// [`GoAtoiError`] as Go reports it.
pub fn go_atoi(text: &str) -> Result<i64, GoAtoiError<'_>> {
    let err = |kind| GoAtoiError { text, kind };
    let bytes = text.as_bytes();
    let (negative, digits) = match bytes.split_first() {
        None => return Err(err(GoAtoiErrorKind::Syntax)),
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        Some(_) => (false, bytes),
    };
    if bytes.len() < 19 {
        // Go's fast path: at most 18 digits cannot overflow.
        if digits.is_empty() {
            return Err(err(GoAtoiErrorKind::Syntax));
        }
        let mut n = 0i64;
        for &b in digits {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return Err(err(GoAtoiErrorKind::Syntax));
            }
            n = n * 10 + i64::from(d);
        }
        return Ok(if negative { -n } else { n });
    }
    // The slow path, `ParseInt(s, 10, 0)`: `ParseUint` stops at the first
    // overflow (a later bad character is then never seen), then the signed
    // range is checked.
    if digits.is_empty() {
        return Err(err(GoAtoiErrorKind::Syntax));
    }
    let mut n = 0u64;
    let mut overflowed = false;
    for &b in digits {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            // Letters are digits of larger bases, out of range for 10.
            _ => return Err(err(GoAtoiErrorKind::Syntax)),
        };
        match n.checked_mul(10).and_then(|m| m.checked_add(u64::from(d))) {
            Some(m) => n = m,
            None => {
                overflowed = true;
                break;
            }
        }
    }
    let cutoff = 1u64 << 63;
    if overflowed || (!negative && n >= cutoff) || (negative && n > cutoff) {
        return Err(err(GoAtoiErrorKind::Range));
    }
    Ok(if negative {
        (n as i64).wrapping_neg()
    } else {
        n as i64
    })
}

/// Go's `strconv.Quote(text)`, written without allocating.
///
/// Printable characters are kept; `"` and `\` are escaped; control
/// characters become `\n`, `\t`, `\x1f`, `\u0085` and the like. Go's
/// `IsPrint` tables are approximated: spaces other than U+0020, format
/// characters, private-use characters and noncharacters are escaped as Go
/// escapes them, but other code points unassigned in Unicode are written
/// as they are, where Go would escape them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoQuoted<'a>(pub &'a str);

impl fmt::Display for GoQuoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c if go_is_print(c) => f.write_char(c)?,
                '\u{7}' => f.write_str("\\a")?,
                '\u{8}' => f.write_str("\\b")?,
                '\u{c}' => f.write_str("\\f")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\u{b}' => f.write_str("\\v")?,
                c if (c as u32) < 0x20 || c == '\u{7f}' => write!(f, "\\x{:02x}", c as u32)?,
                c if (c as u32) < 0x1_0000 => write!(f, "\\u{:04x}", c as u32)?,
                c => write!(f, "\\U{:08x}", c as u32)?,
            }
        }
        f.write_char('"')
    }
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols
/// and U+0020. Exact up to U+00FF; above, the separators, format,
/// private-use and noncharacter code points are recognised.
fn go_is_print(c: char) -> bool {
    let u = c as u32;
    if u <= 0xff {
        return (0x20..=0x7e).contains(&u) || ((0xa1..=0xff).contains(&u) && u != 0xad);
    }
    const NOT_PRINT: &[(u32, u32)] = &[
        (0x0600, 0x0605),
        (0x061c, 0x061c),
        (0x06dd, 0x06dd),
        (0x070f, 0x070f),
        (0x0890, 0x0891),
        (0x08e2, 0x08e2),
        (0x1680, 0x1680),
        (0x180e, 0x180e),
        (0x2000, 0x200f),
        (0x2028, 0x202f),
        (0x205f, 0x2064),
        (0x2066, 0x206f),
        (0x3000, 0x3000),
        (0xe000, 0xf8ff),
        (0xfdd0, 0xfdef),
        (0xfeff, 0xfeff),
        (0xfff9, 0xfffb),
        (0x110bd, 0x110bd),
        (0x110cd, 0x110cd),
        (0x13430, 0x1343f),
        (0x1bca0, 0x1bca3),
        (0x1d173, 0x1d17a),
        (0xe0001, 0xe0001),
        (0xe0020, 0xe007f),
        (0xf0000, 0x10ffff),
    ];
    // Every plane's last two code points are noncharacters.
    if u & 0xfffe == 0xfffe {
        return false;
    }
    !NOT_PRINT.iter().any(|&(lo, hi)| (lo..=hi).contains(&u))
}
