//! A borrowed piece of text, as a pointer and a length.

use core::ptr;

/// A piece of UTF-8 text, not NUL-terminated: `len` bytes at `data`.
///
/// As an output (the parts of a `pulsar_routing_topic_name`) it points into
/// the caller's input or to a static string of the library, and a missing
/// part is `{NULL, 0}`. As an input (an array of boundary strings or of
/// sticky keys) `data` must not be NULL, even when `len` is 0; the one
/// exception is a field of a `pulsar_routing_message_keys`, where `{NULL, 0}`
/// is a field the message does not have.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_str {
    /// The first byte, or NULL for a missing part.
    pub data: *const u8,
    /// The number of bytes at `data`.
    pub len: usize,
}

impl pulsar_routing_str {
    /// `{NULL, 0}`: a part that is not there.
    pub(crate) const fn none() -> Self {
        Self {
            data: ptr::null(),
            len: 0,
        }
    }

    /// A view of `text`, which must outlive every use of the result.
    pub(crate) const fn of(text: &str) -> Self {
        Self {
            data: text.as_ptr(),
            len: text.len(),
        }
    }

    /// A view of `text`, or `{NULL, 0}`.
    pub(crate) const fn of_option(text: Option<&str>) -> Self {
        match text {
            Some(text) => Self::of(text),
            None => Self::none(),
        }
    }

    /// The bytes, or `None` for NULL.
    ///
    /// # Safety
    /// A non-NULL `data` points to `len` bytes that stay unchanged during
    /// `'a`.
    pub(crate) unsafe fn bytes<'a>(self) -> Option<&'a [u8]> {
        // SAFETY: this function's contract.
        unsafe { crate::ffi::slice_from_raw(self.data, self.len) }
    }
}
