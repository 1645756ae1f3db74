//! Standard padded Base64, which is what Java's `keyBytes()` stores (and the
//! routers hash) as the key of a message.

use pulsar_routing_core::{base64_len, encode_base64};

use crate::error::pulsar_routing_status;

/// The length of the padded Base64 text of `len` bytes: `4 * ceil(len / 3)`,
/// saturating at `SIZE_MAX` for lengths no buffer can have.
///
/// Cannot fail. Thread-safe; allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_base64_len(len: usize) -> usize {
    ffi_panic_boundary! { base64_len(len) }
}

/// Writes the padded standard Base64 text of `bytes` (Java's
/// `Base64.getEncoder().encodeToString`, the key `keyBytes()` stores).
///
/// - `bytes`, `len`: the bytes; `bytes` must not be NULL, even when `len` is
///   0.
/// - `buf`, `buf_len`: the output buffer, at least
///   `pulsar_routing_base64_len(len)` bytes; `buf` must not be NULL, even
///   when `buf_len` is 0. No NUL terminator is written.
/// - `written`: on success, the number of bytes written to `buf`.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length
/// (the one out-parameter written on failure). Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `bytes` must point to `len` readable bytes, `buf` must be valid for
/// writing `buf_len` bytes and not overlap `bytes`, and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_encode_base64(
    bytes: *const u8,
    len: usize,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let bytes = try_slice!(bytes, len);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let needed = base64_len(bytes.len());
        try_fits!(buf, written, needed);
        match encode_base64(bytes, buf.prefix(needed)) {
            Some(n) => written.write(n),
            // The buffer was sized by base64_len, which is what the core
            // checks against.
            None => unreachable!("base64 buffer sized by base64_len"),
        }
        pulsar_routing_status::Ok
    }
}
