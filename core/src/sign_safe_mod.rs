//! Java's `MathUtils.signSafeMod`, the reduction every Pulsar router applies.

use core::fmt;

/// `signSafeMod(dividend, divisor)` exactly as the Java client computes it:
/// `m = (int)(dividend % divisor)` with Java's truncating `%` on `long`, then
/// `m + divisor` when `m` is negative.
///
/// For a positive divisor this is the floor modulo, in `[0, divisor)`. For a
/// negative divisor Java's arithmetic gives values in `(2 * divisor, 0]`
/// (`signSafeMod(-1, -3) == -4`); they are reproduced, never used for routing.
///
/// # Errors
/// [`DivisionByZero`] when `divisor` is 0, where Java throws
/// `ArithmeticException: / by zero`.
///
/// ```
/// use pulsar_routing::sign_safe_mod;
/// assert_eq!(sign_safe_mod(-7, 3), Ok(2));
/// assert_eq!(sign_safe_mod(-1, -3), Ok(-4));
/// assert!(sign_safe_mod(5, 0).is_err());
/// ```
pub const fn sign_safe_mod(dividend: i64, divisor: i32) -> Result<i32, DivisionByZero> {
    if divisor == 0 {
        return Err(DivisionByZero);
    }
    // `wrapping_rem` keeps Java's `Long.MIN_VALUE % -1 == 0`, and the
    // remainder's magnitude is below |divisor|, so the cast is lossless.
    let m = dividend.wrapping_rem(divisor as i64) as i32;
    Ok(if m < 0 { m.wrapping_add(divisor) } else { m })
}

/// The divisor of [`sign_safe_mod`] was zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DivisionByZero;

impl fmt::Display for DivisionByZero {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The text of Java's ArithmeticException.
        f.write_str("/ by zero")
    }
}

impl core::error::Error for DivisionByZero {}
