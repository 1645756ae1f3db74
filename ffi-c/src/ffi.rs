//! Turning C pointers into Rust values: the NULL checks every exported
//! function makes, and the two ownership models of its types.
//!
//! - Heap handles (the routers, the Key_Shared selectors) are opaque C
//!   types whose pointers are really `Box<RustType>`; [`BoxCastable`] ties
//!   each to its Rust type, so a handle can only be borrowed or freed as
//!   what it is.
//! - Caller-allocated state (the streaming hashers) is a C struct of fixed
//!   size whose bytes hold the Rust value; [`InlineCastable`] ties each to
//!   its Rust type and [`inline_castable!`] checks at compile time that it
//!   fits.
//!
//! The `try_*!` macros return `PULSAR_ROUTING_STATUS_NULL_PARAMETER` (or the
//! error's status) from the enclosing exported body. Exported functions
//! check every pointer before any value, so NULL_PARAMETER wins over other
//! errors as the README promises, and nothing happens before all checks pass. Their `unsafe` blocks
//! rely on the contract in every exported function's `# Safety` section:
//! a non-NULL pointer is valid for the access its documentation describes.

use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;

use crate::error::pulsar_routing_status;

/// An opaque C handle type whose pointers are `Box<Self::RustType>`.
pub(crate) trait BoxCastable {
    type RustType;
}

/// Moves `value` to the heap and returns it as the C handle type.
pub(crate) fn to_boxed_mut_ptr<C: BoxCastable>(value: C::RustType) -> *mut C {
    Box::into_raw(Box::new(value)).cast()
}

/// Borrows the value behind a handle, or `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or came from [`to_boxed_mut_ptr`] for the same `C` and has
/// not been freed, and stays so for `'a`.
pub(crate) unsafe fn box_ref<'a, C: BoxCastable>(ptr: *const C) -> Option<&'a C::RustType> {
    // SAFETY: by this function's contract a non-NULL `ptr` is a live
    // `Box<C::RustType>`, which is only ever shared from here on.
    unsafe { ptr.cast::<C::RustType>().as_ref() }
}

/// Mutably borrows the value behind a handle, or `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or came from [`to_boxed_mut_ptr`] for the same `C`, has
/// not been freed, and nothing else accesses it during `'a`.
pub(crate) unsafe fn box_mut<'a, C: BoxCastable>(ptr: *mut C) -> Option<&'a mut C::RustType> {
    // SAFETY: by this function's contract a non-NULL `ptr` is a live
    // `Box<C::RustType>` that only this borrow uses during `'a`.
    unsafe { ptr.cast::<C::RustType>().as_mut() }
}

/// Drops the value behind a handle; NULL is a no-op.
///
/// # Safety
/// `ptr` is NULL, or came from [`to_boxed_mut_ptr`] for the same `C`, has
/// not been freed, and is not used by anything else after this call.
pub(crate) unsafe fn free_box<C: BoxCastable>(ptr: *mut C) {
    if !ptr.is_null() {
        // SAFETY: by this function's contract `ptr` is a `Box<C::RustType>`
        // that nobody else uses any more.
        drop(unsafe { Box::from_raw(ptr.cast::<C::RustType>()) });
    }
}

/// A caller-allocated C struct whose bytes hold a `Self::RustType`.
///
/// # Safety
/// Implement only through [`inline_castable!`], which proves at compile time
/// that the C struct is large and aligned enough and that the Rust type needs
/// no drop (C discards and copies the struct without telling us).
pub(crate) unsafe trait InlineCastable {
    type RustType;
}

/// Implements [`InlineCastable`] for `$c` holding a `$rust`, with the
/// compile-time checks that make it sound.
macro_rules! inline_castable {
    ($c:ty => $rust:ty) => {
        const _: () = {
            assert!(::core::mem::size_of::<$rust>() <= ::core::mem::size_of::<$c>());
            assert!(::core::mem::align_of::<$rust>() <= ::core::mem::align_of::<$c>());
            assert!(!::core::mem::needs_drop::<$rust>());
        };
        // SAFETY: the assertions above are the trait's requirements.
        unsafe impl $crate::ffi::InlineCastable for $c {
            type RustType = $rust;
        }
    };
}

/// Locks a handle's state; a panic while it was held left the state
/// unspecified (as the PANIC status documents) but memory-safe.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Writes a fresh value into caller-allocated state. Returns false for NULL.
///
/// # Safety
/// `ptr` is NULL or valid for writing a `C`.
pub(crate) unsafe fn inline_init<C: InlineCastable>(ptr: *mut C, value: C::RustType) -> bool {
    if ptr.is_null() {
        return false;
    }
    // SAFETY: `ptr` is valid for writing a `C`, which is large and aligned
    // enough for a `C::RustType` (InlineCastable). `write` does not read or
    // drop the old, possibly uninitialised, bytes.
    unsafe { ptr.cast::<C::RustType>().write(value) };
    true
}

/// Mutably borrows initialised caller-allocated state, or `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or points to a `C` initialised by [`inline_init`] (or a
/// byte copy of one) that nothing else accesses during `'a`.
pub(crate) unsafe fn inline_mut<'a, C: InlineCastable>(ptr: *mut C) -> Option<&'a mut C::RustType> {
    // SAFETY: by this function's contract a non-NULL `ptr` holds a valid,
    // unaliased `C::RustType`.
    unsafe { ptr.cast::<C::RustType>().as_mut() }
}

/// Borrows initialised caller-allocated state, or `None` for NULL.
///
/// # Safety
/// `ptr` is NULL, or points to a `C` initialised by [`inline_init`] (or a
/// byte copy of one) that nothing mutates during `'a`.
pub(crate) unsafe fn inline_ref<'a, C: InlineCastable>(ptr: *const C) -> Option<&'a C::RustType> {
    // SAFETY: by this function's contract a non-NULL `ptr` holds a valid
    // `C::RustType` that is only shared during `'a`.
    unsafe { ptr.cast::<C::RustType>().as_ref() }
}

/// A borrowed input array, or `None` for NULL (whatever the length).
///
/// # Safety
/// `ptr` is NULL, or points to `len` initialised, aligned `T`s that nothing
/// mutates during `'a`.
pub(crate) unsafe fn slice_from_raw<'a, T>(ptr: *const T, len: usize) -> Option<&'a [T]> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, so valid for `len` elements by this function's
    // contract.
    Some(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// A borrowed work array that the call may reorder, or `None` for NULL
/// (whatever the length).
///
/// # Safety
/// `ptr` is NULL, or points to `len` initialised, aligned `T`s that nothing
/// else accesses during `'a`.
pub(crate) unsafe fn slice_from_raw_mut<'a, T>(ptr: *mut T, len: usize) -> Option<&'a mut [T]> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-NULL, so valid and unaliased for `len` elements by this
    // function's contract.
    Some(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// A checked, non-NULL out-parameter, written at most once, on success.
pub(crate) struct Out<'a, T> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<T> Out<'_, T> {
    /// `None` for NULL.
    ///
    /// # Safety
    /// `ptr` is NULL or valid for writing a `T` during the lifetime.
    pub(crate) unsafe fn new(ptr: *mut T) -> Option<Self> {
        NonNull::new(ptr).map(|ptr| Self {
            ptr,
            _borrow: PhantomData,
        })
    }

    /// Stores the result. Consumes the out-parameter, so it is written once.
    pub(crate) fn write(self, value: T) {
        // SAFETY: `new`'s contract makes `ptr` valid for a write; `write`
        // neither reads nor drops the old, possibly uninitialised, value.
        unsafe { self.ptr.as_ptr().write(value) }
    }

    /// Stores the result and returns `OK`: the last step of a call that
    /// succeeded.
    pub(crate) fn ok(self, value: T) -> pulsar_routing_status {
        self.write(value);
        pulsar_routing_status::Ok
    }
}

/// A checked, non-NULL output buffer of the caller's, which may be
/// uninitialised memory: bytes by default, or other plain values (`u32`
/// boundaries, `u64` counts, `#[repr(C)]` records).
pub(crate) struct OutBuf<'a, T = u8> {
    ptr: NonNull<T>,
    capacity: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<'a, T: Copy + Default> OutBuf<'a, T> {
    /// `None` for NULL (whatever the length).
    ///
    /// # Safety
    /// `ptr` is NULL or valid for writing `capacity` aligned `T`s during
    /// `'a`.
    pub(crate) unsafe fn new(ptr: *mut T, capacity: usize) -> Option<Self> {
        NonNull::new(ptr).map(|ptr| Self {
            ptr,
            capacity,
            _borrow: PhantomData,
        })
    }

    /// The buffer's length in elements, as the caller gave it.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The first `len` elements, set to `T::default()` first so that Rust
    /// never sees uninitialised memory. Only the elements the result will
    /// occupy are touched.
    ///
    /// # Panics
    /// If `len` exceeds the capacity; callers check it first.
    pub(crate) fn prefix(self, len: usize) -> &'a mut [T] {
        assert!(len <= self.capacity, "buffer length checked by the caller");
        let ptr = self.ptr.as_ptr();
        // SAFETY: `new`'s contract makes the first `capacity >= len`
        // elements writable and exclusively ours for `'a`; `write` does not
        // read or drop the old, possibly uninitialised, values, and after
        // the loop all `len` are initialised.
        unsafe {
            for i in 0..len {
                ptr.add(i).write(T::default());
            }
            core::slice::from_raw_parts_mut(ptr, len)
        }
    }
}

/// Fails the build unless two `#[repr(C)]` structs have the same size,
/// alignment and offsets of the fields named, so that an array of one can
/// be read as an array of the other.
macro_rules! assert_same_layout {
    ($a:ty, $b:ty, $($field:ident),+) => {
        const _: () = {
            assert!(size_of::<$a>() == size_of::<$b>());
            assert!(align_of::<$a>() == align_of::<$b>());
            $(assert!(::core::mem::offset_of!($a, $field) == ::core::mem::offset_of!($b, $field));)+
        };
    };
}

/// Checks that a result of `needed` elements fits in `buf`: otherwise
/// writes `needed` to `written` and returns `BUFFER_TOO_SMALL` from the
/// enclosing exported body, leaving `buf` untouched.
macro_rules! try_fits {
    ($buf:expr, $written:expr, $needed:expr) => {{
        let needed: usize = $needed;
        if needed > $buf.capacity() {
            $written.write(needed);
            return $crate::error::pulsar_routing_status::BufferTooSmall;
        }
    }};
}

/// Counts the bytes a `Display` value writes.
struct Counter(usize);

impl fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = self.0.saturating_add(s.len());
        Ok(())
    }
}

/// Writes into a byte slice that was sized by [`Counter`].
struct SliceWriter<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl fmt::Write for SliceWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.at.checked_add(s.len()).ok_or(fmt::Error)?;
        self.out
            .get_mut(self.at..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.at = end;
        Ok(())
    }
}

/// Writes the text of `value` (UTF-8, no NUL terminator) to `buf` and its
/// length to `written`, without allocating: one pass measures it, a second
/// writes it. A short buffer gives `BUFFER_TOO_SMALL`, with the length
/// needed in `written` and `buf` untouched.
pub(crate) fn write_display(
    value: impl fmt::Display,
    buf: OutBuf<'_>,
    written: Out<'_, usize>,
) -> pulsar_routing_status {
    let mut counter = Counter(0);
    // Counting cannot fail; a value whose Display fails is a bug.
    fmt::write(&mut counter, format_args!("{value}")).expect("Display into a counter");
    let needed = counter.0;
    if needed > buf.capacity() {
        written.write(needed);
        return pulsar_routing_status::BufferTooSmall;
    }
    let mut writer = SliceWriter {
        out: buf.prefix(needed),
        at: 0,
    };
    // The text is the same as the one just counted, so it fits.
    fmt::write(&mut writer, format_args!("{value}")).expect("Display sized by the counter");
    written.write(writer.at);
    pulsar_routing_status::Ok
}

/// `(ptr, len)` as a slice, or returns NULL_PARAMETER when `ptr` is NULL.
macro_rules! try_slice {
    ($ptr:expr, $len:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL input
        // pointer valid for `len` elements, unchanged during the call.
        match unsafe { $crate::ffi::slice_from_raw($ptr, $len) } {
            Some(slice) => slice,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// `(ptr, len)` as a mutable work array, or returns NULL_PARAMETER when
/// `ptr` is NULL.
macro_rules! try_slice_mut {
    ($ptr:expr, $len:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL work
        // array valid and unaliased for `len` elements during the call.
        match unsafe { $crate::ffi::slice_from_raw_mut($ptr, $len) } {
            Some(slice) => slice,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// Checked bytes as UTF-8 text, or returns INVALID_UTF8.
macro_rules! try_utf8 {
    ($bytes:expr) => {
        match ::core::str::from_utf8($bytes) {
            Ok(text) => text,
            Err(_) => return $crate::error::pulsar_routing_status::InvalidUtf8,
        }
    };
}

/// A checked out-parameter, or returns NULL_PARAMETER.
macro_rules! try_out {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL
        // out-parameter valid for a write.
        match unsafe { $crate::ffi::Out::new($ptr) } {
            Some(out) => out,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// A checked output buffer (bytes or other elements), or returns
/// NULL_PARAMETER.
macro_rules! try_out_buf {
    ($ptr:expr, $len:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL output
        // buffer valid for writing `len` elements.
        match unsafe { $crate::ffi::OutBuf::new($ptr, $len) } {
            Some(buf) => buf,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// The value behind a heap handle, or returns NULL_PARAMETER.
macro_rules! try_box_ref {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL handle
        // one that its `_new` returned and that was not freed.
        match unsafe { $crate::ffi::box_ref($ptr) } {
            Some(value) => value,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// The value behind a heap handle, mutably, or returns NULL_PARAMETER.
macro_rules! try_box_mut {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL handle
        // one that its `_new` returned, that was not freed, and that no other
        // thread uses during the call.
        match unsafe { $crate::ffi::box_mut($ptr) } {
            Some(value) => value,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// The value in initialised caller-allocated state, or returns
/// NULL_PARAMETER.
macro_rules! try_inline_mut {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL state
        // pointer one initialised by its `_init`, unshared during the call.
        match unsafe { $crate::ffi::inline_mut($ptr) } {
            Some(value) => value,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// Shared-borrow version of [`try_inline_mut!`].
macro_rules! try_inline_ref {
    ($ptr:expr) => {
        // SAFETY: the exported function's contract makes a non-NULL state
        // pointer one initialised by its `_init`, not mutated during the call.
        match unsafe { $crate::ffi::inline_ref($ptr) } {
            Some(value) => value,
            None => return $crate::error::pulsar_routing_status::NullParameter,
        }
    };
}

/// The `Ok` value, or returns the error's status.
macro_rules! try_ok {
    ($result:expr) => {
        match $result {
            Ok(value) => value,
            Err(e) => return $crate::last_error::fail(e),
        }
    };
}

/// The `Ok` value of a bundle operation with an output buffer, or returns
/// the error's status; `BufferTooSmall` also writes the length needed to
/// `$written`, as every buffer function does.
macro_rules! try_bundle {
    ($result:expr, $written:expr) => {
        match $result {
            Ok(value) => value,
            Err(::pulsar_routing_core::bundles::BundleError::BufferTooSmall { needed }) => {
                $written.write(needed);
                return $crate::error::pulsar_routing_status::BufferTooSmall;
            }
            Err(e) => return $crate::last_error::fail(e),
        }
    };
}
