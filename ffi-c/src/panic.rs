//! The panic boundary. Unwinding out of an `extern "C"` function aborts the
//! process, so every exported body runs inside `catch_unwind` and a panic
//! becomes a value the caller can handle.

use core::ffi::c_char;

use crate::error::pulsar_routing_status;

/// What an exported function returns when its body panicked.
pub(crate) trait PanicOrDefault: Sized {
    fn value() -> Self;

    /// What the body returned, on its way out: a failed status records its
    /// message for `pulsar_routing_last_error_message`.
    fn returned(self) -> Self {
        self
    }
}

impl PanicOrDefault for pulsar_routing_status {
    fn value() -> Self {
        crate::last_error::settle(Self::Panic);
        Self::Panic
    }

    fn returned(self) -> Self {
        if self != Self::Ok {
            crate::last_error::settle(self);
        }
        self
    }
}

/// The static-string functions document NULL as their failure value.
impl PanicOrDefault for *const c_char {
    fn value() -> Self {
        core::ptr::null()
    }
}

impl PanicOrDefault for usize {
    fn value() -> Self {
        0
    }
}

/// `pulsar_routing_kafka_to_positive` documents 0.
impl PanicOrDefault for u32 {
    fn value() -> Self {
        0
    }
}

impl PanicOrDefault for () {
    fn value() -> Self {}
}

/// Runs an exported function's body, turning a panic into the return type's
/// [`PanicOrDefault`] value. `return` inside the body returns from the body,
/// which is what the `try_*!` macros rely on.
///
/// `AssertUnwindSafe` is sound here because nothing is observed after a panic
/// except through the objects the caller passed, and the status documents
/// that those are then in an unspecified (but memory-safe) state.
macro_rules! ffi_panic_boundary {
    ( $($body:tt)* ) => {
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| { $($body)* })) {
            Ok(ret) => $crate::panic::PanicOrDefault::returned(ret),
            Err(_) => $crate::panic::PanicOrDefault::value(),
        }
    };
}
