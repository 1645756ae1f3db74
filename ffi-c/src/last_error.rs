//! The full message of the last failure on each thread.
//!
//! A status code names a kind of failure; Java's message often quotes the
//! values involved ("Illegal partition index chosen by the message routing
//! policy: 5"). Every failure that comes from a core error records that
//! error's `Display` here, so a C or C++ caller gets the same text as Rust
//! and Python, without a second copy of any message in this crate. (Go
//! cannot use it: a goroutine may change threads between two cgo calls.)

use core::cell::RefCell;
use core::fmt;

use crate::error::pulsar_routing_status;
use crate::ffi::{Out, OutBuf, write_display};

/// The longest message kept; a longer one (a topic name of kilobytes
/// quoted in its error) is not kept, and the status's own message stands in.
const CAPACITY: usize = 4096;

struct LastError {
    status: pulsar_routing_status,
    /// Set by `fail` during the call that is returning, so that `settle`
    /// keeps the core's text instead of the status's own.
    fresh: bool,
    len: usize,
    text: [u8; CAPACITY],
}

thread_local! {
    // A const initialiser and no destructor: no allocation, no lazy set-up.
    static LAST: RefCell<LastError> = const {
        RefCell::new(LastError {
            status: pulsar_routing_status::Ok,
            fresh: false,
            len: 0,
            text: [0; CAPACITY],
        })
    };
}

/// Appends into the fixed buffer, failing once it is full.
struct Writer<'a> {
    text: &'a mut [u8; CAPACITY],
    len: usize,
}

impl fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).filter(|&end| end <= CAPACITY);
        let end = end.ok_or(fmt::Error)?;
        self.text[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The status of `error`, after recording its message as this thread's
/// last failure: what `try_ok!` returns for every failed core call.
pub(crate) fn fail<E>(error: E) -> pulsar_routing_status
where
    E: fmt::Display,
    pulsar_routing_status: From<E>,
{
    keep(&error);
    let status = pulsar_routing_status::from(error);
    with_last(|last| last.status = status);
    status
}

/// Called by the panic boundary when an exported function returns a
/// failure: unless `fail` recorded this very status during the call, the
/// status's own message is recorded, so that no earlier call's message is
/// ever handed out for this one. Successful calls never get here, which
/// keeps the thread-local out of every hot path.
pub(crate) fn settle(status: pulsar_routing_status) {
    let recorded = with_last(|last| {
        let recorded = last.fresh && last.status == status;
        last.fresh = false;
        recorded
    });
    if recorded != Some(true) {
        keep(&status);
        with_last(|last| {
            last.status = status;
            last.fresh = false;
        });
    }
}

/// Writes `text` into the slot, marking it fresh; a text past the capacity
/// is not kept (the status's own message then stands in).
fn keep(text: &dyn fmt::Display) {
    with_last(|last| {
        let mut writer = Writer {
            text: &mut last.text,
            len: 0,
        };
        let fits = fmt::write(&mut writer, format_args!("{text}")).is_ok();
        last.len = if fits { writer.len } else { 0 };
        last.fresh = true;
    });
}

/// Runs `f` on this thread's slot; `None` during thread teardown (the
/// slot is gone) or re-entry (a `Display` that calls back into the
/// library), when the message is simply not kept.
fn with_last<T>(f: impl FnOnce(&mut LastError) -> T) -> Option<T> {
    LAST.try_with(|last| last.try_borrow_mut().ok().map(|mut last| f(&mut last)))
        .ok()
        .flatten()
}

/// Writes the full message of the last failure on the calling thread, if
/// that failure returned `status`: Java's text with the values it quotes,
/// e.g. `Illegal partition index chosen by the message routing policy: 5`,
/// the same as the Rust and Python APIs give. Otherwise (another status,
/// no failure yet, or a message longer than 4096 bytes) it writes
/// `pulsar_routing_status_message(status)`.
///
/// Call it right after the failing call, on the same thread: any later
/// failure replaces the message. Successful calls leave it alone.
///
/// - `status`: the status the failing call returned.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required
/// length. Thread-safe (each thread has its own last failure); allocates
/// nothing.
///
/// # Safety
/// `buf` must be valid for writing `buf_len` bytes and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_last_error_message(
    status: u32,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        write_last(status, buf, written)
    }
}

fn write_last(status: u32, buf: OutBuf<'_>, written: Out<'_, usize>) -> pulsar_routing_status {
    let static_message = pulsar_routing_status::from_code(status)
        .map_or("unknown status code", |s| {
            s.message().to_str().unwrap_or_default()
        });
    let last = LAST.try_with(|last| {
        let last = last.try_borrow().ok()?;
        // The kept text is whole UTF-8: it was written from `str`s.
        let text = core::str::from_utf8(&last.text[..last.len]).ok()?;
        (last.status as u32 == status && !text.is_empty()).then(|| {
            // Copied out so that the slot is not borrowed while writing.
            let mut copy = [0u8; CAPACITY];
            copy[..text.len()].copy_from_slice(text.as_bytes());
            (copy, text.len())
        })
    });
    match last.ok().flatten() {
        Some((copy, len)) => {
            let text = core::str::from_utf8(&copy[..len]).unwrap_or(static_message);
            write_display(text, buf, written)
        }
        None => write_display(static_message, buf, written),
    }
}
