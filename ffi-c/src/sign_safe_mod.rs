//! Java's `MathUtils.signSafeMod`, the reduction every Pulsar router applies.

use pulsar_routing_core::sign_safe_mod;

use crate::error::pulsar_routing_status;

/// `signSafeMod(dividend, divisor)` exactly as the Java client computes it:
/// `m = (int)(dividend % divisor)` with Java's truncating `%` on `long`,
/// then `m + divisor` when `m` is negative. For a positive divisor that is
/// the floor modulo, in `0 <= result < divisor`; negative divisors give
/// Java's values too (`signSafeMod(-1, -3)` is -4).
///
/// - `result_out`: receives the result on success.
///
/// Returns `OK`, `NULL_PARAMETER`, or `DIVISION_BY_ZERO` when `divisor` is 0
/// (where Java throws `ArithmeticException: / by zero`). Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `result_out` must be valid for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sign_safe_mod(
    dividend: i64,
    divisor: i32,
    result_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(result_out);
        out.write(try_ok!(sign_safe_mod(dividend, divisor)));
        pulsar_routing_status::Ok
    }
}
