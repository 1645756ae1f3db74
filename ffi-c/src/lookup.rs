//! Topic lookup as sans-IO state machines: the topic lookup driver, the
//! partitioned-metadata step, the coalescing table and the per-connection
//! throttle. The caller does the I/O and reports what happened with the
//! time in milliseconds; each call returns the next action.
//!
//! Thread-safety differs by handle:
//! - the topic lookup (`pulsar_routing_topic_lookup`) and the metadata
//!   lookup (`pulsar_routing_partitioned_metadata`) return actions whose
//!   strings point into the handle, replaced by the next call on it: one
//!   thread at a time per handle (the caller serialises the calls; the
//!   handle may move between threads), and the action's strings stay valid
//!   until the next call on the same handle or its `_free`;
//! - the coalescing tables and the throttle return no strings: their
//!   functions are safe to call from several threads on the same handle,
//!   except `_free`.

use core::ffi::{CStr, c_char};
use std::ffi::CString;
use std::sync::Mutex;

use pulsar_routing_core::lookup::{
    Admission, AttemptError, Backoff, CoalesceError, LookupAction, LookupError, LookupOptions,
    LookupResponse, LookupThrottle, MetadataOptions, PartitionedMetadataLookup, ServerError,
};
use pulsar_routing_owned::lookup::{
    ActionParts, ArgumentError, MetadataEvent, OwnedLookupAction, OwnedLookupKey,
    OwnedMetadataAction, OwnedMetadataKey, OwnedTopicLookup, Waiting, lookup_timeout, metadata_key,
    optional_server_error, profile_of_code, response_type_of_code, topic_lookup,
};

use crate::error::{pulsar_routing_status, status_from};
use crate::ffi::{
    BoxCastable, Out, OutBuf, free_box, lock, slice_from_raw, to_boxed_mut_ptr, write_display,
};

/// A lookup profile: one of the `PULSAR_ROUTING_LOOKUP_PROFILE_*` values.
pub type pulsar_routing_lookup_profile = u32;
/// The Java client (and the C++ client, which is the same).
pub const PULSAR_ROUTING_LOOKUP_PROFILE_JAVA: pulsar_routing_lookup_profile = 0;
/// The Go client: a fixed 20 responses, no properties after a redirect,
/// and the service URL as the physical address with
/// `proxy_through_service_url`.
pub const PULSAR_ROUTING_LOOKUP_PROFILE_GO: pulsar_routing_lookup_profile = 1;

/// What an action asks: one of the `PULSAR_ROUTING_LOOKUP_ACTION_*` values.
pub type pulsar_routing_lookup_action_kind = u32;
/// Send a `LOOKUP` (topic lookup) to `logical_address` over a connection
/// to `physical_address`.
pub const PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP: pulsar_routing_lookup_action_kind = 0;
/// Call `_on_retry_timer` at `at_ms`; `error` is why the attempt failed.
pub const PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT: pulsar_routing_lookup_action_kind = 1;
/// Done: the topic lookup found `logical_address` / `physical_address`;
/// the metadata lookup found `partitions`.
pub const PULSAR_ROUTING_LOOKUP_ACTION_DONE: pulsar_routing_lookup_action_kind = 2;
/// Failed for good with `error`.
pub const PULSAR_ROUTING_LOOKUP_ACTION_FAILED: pulsar_routing_lookup_action_kind = 3;
/// The event was not expected now; nothing changed.
pub const PULSAR_ROUTING_LOOKUP_ACTION_IGNORED: pulsar_routing_lookup_action_kind = 4;
/// (Metadata lookup) connect to `physical_address`, then call
/// `_on_connected` with the broker's PIP-344 flag.
pub const PULSAR_ROUTING_LOOKUP_ACTION_CONNECT: pulsar_routing_lookup_action_kind = 5;
/// (Metadata lookup) send `PARTITIONED_METADATA` with
/// `metadata_auto_creation`.
pub const PULSAR_ROUTING_LOOKUP_ACTION_SEND_PARTITIONED_METADATA:
    pulsar_routing_lookup_action_kind = 6;

/// A topic lookup's options. `pulsar_routing_lookup_options_default` gives
/// the Java client's defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_lookup_options {
    /// Use `brokerServiceUrlTls`.
    pub use_tls: bool,
    /// `maxLookupRedirects` (20); 0 for no limit.
    pub max_redirects: u32,
    /// A `PULSAR_ROUTING_LOOKUP_PROFILE_*` value.
    pub profile: pulsar_routing_lookup_profile,
    /// `operationTimeoutMs` (30000).
    pub operation_timeout_ms: u64,
    /// `lookupTimeoutMs`; 0 means the operation timeout.
    pub lookup_timeout_ms: u64,
    /// Retry retriable failures with backoff until the deadline (true).
    pub retry: bool,
    /// Fail an attempt redirected back to an address already asked with the
    /// same authoritative flag: an opt-in heuristic (false, the default, is
    /// the clients' exact behaviour: redirect until the limit).
    pub detect_redirect_loops: bool,
    /// The seed of the backoff jitter.
    pub jitter_seed: u64,
}

/// A `CommandLookupTopicResponse`. Strings are NUL-terminated UTF-8, or
/// NULL when the field is absent.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_lookup_response {
    /// `response`: 0 Redirect, 1 Connect, 2 Failed, -1 (or any other
    /// value) absent.
    pub response: i32,
    /// `brokerServiceUrl`, or NULL.
    pub broker_service_url: *const c_char,
    /// `brokerServiceUrlTls`, or NULL.
    pub broker_service_url_tls: *const c_char,
    /// `authoritative`.
    pub authoritative: bool,
    /// `proxy_through_service_url`.
    pub proxy_through_service_url: bool,
    /// `error` (a `ServerError` code), or -1 when absent.
    pub error: i32,
    /// `message`, or NULL.
    pub message: *const c_char,
}

/// What to do next. The strings belong to the handle that returned the
/// action and stay valid until the next call on that handle (or its
/// `_free`): copy them to keep them longer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_lookup_action {
    /// A `PULSAR_ROUTING_LOOKUP_ACTION_*` value.
    pub kind: pulsar_routing_lookup_action_kind,
    /// SEND_LOOKUP: the broker asked; DONE: the broker that owns the
    /// topic. Otherwise NULL.
    pub logical_address: *const c_char,
    /// SEND_LOOKUP, CONNECT, DONE: where to connect. Otherwise NULL.
    pub physical_address: *const c_char,
    /// SEND_LOOKUP: the request's flag; DONE: the last response's.
    pub authoritative: bool,
    /// SEND_LOOKUP: send the lookup properties.
    pub send_properties: bool,
    /// DONE: connect through the proxy (`physical_address`).
    pub use_proxy: bool,
    /// SEND_PARTITIONED_METADATA: `metadata_auto_creation_enabled`.
    pub metadata_auto_creation: bool,
    /// Redirects followed in the attempt.
    pub redirects: u32,
    /// The attempt, from 1.
    pub attempt: u32,
    /// RETRY_AT: when to call `_on_retry_timer`.
    pub at_ms: u64,
    /// RETRY_AT: the backoff delay.
    pub delay_ms: u64,
    /// DONE (metadata lookup): the partition count; 0 for a
    /// non-partitioned topic.
    pub partitions: u32,
    /// RETRY_AT: why the attempt failed; FAILED: why the lookup did
    /// (`LOOKUP_DEADLINE_EXCEEDED` after the timeout); otherwise OK.
    pub error: pulsar_routing_status,
    /// The `ServerError` code behind `error` (the last attempt's, for a
    /// deadline), or -1.
    pub server_error: i32,
    /// Why the driver took this action, in words (NUL-terminated UTF-8,
    /// never NULL): the same text in every binding, e.g. `"redirect 1 to
    /// pulsar://broker-2:6650, with the response's authoritative=True"`,
    /// with the broker's message after a server error (its NUL bytes, if
    /// any, dropped). Belongs to the handle, like the addresses.
    pub reason: *const c_char,
}

// The status of an attempt error: a `From`, so that `try_ok!` records
// the error's full message for `pulsar_routing_last_error_message`.
status_from! {
    AttemptError {
        AttemptError::Server(_) => Self::LookupServerError,
        AttemptError::EmptyResponse => Self::LookupEmptyResponse,
        AttemptError::MissingBrokerUrl { .. } => Self::LookupMissingBrokerUrl,
        AttemptError::TooManyRedirects { .. } => Self::LookupTooManyRedirects,
        AttemptError::GoRedirectLimit => Self::LookupGoRedirectLimit,
        AttemptError::RedirectLoop { .. } => Self::LookupRedirectLoop,
        AttemptError::AddressTooLong { .. } => Self::LookupAddressTooLong,
        AttemptError::ConnectionFailed => Self::LookupConnectionFailed,
        AttemptError::RequestTimeout => Self::LookupRequestTimeout,
        AttemptError::TooManyRequests { .. } => Self::LookupTooManyRequests,
        AttemptError::FeatureNotSupported => Self::LookupFeatureNotSupported,
        _ => Self::Panic,
    }
    LookupError {
        LookupError::Attempt(a) => Self::from(a),
        LookupError::DeadlineExceeded { .. } => Self::LookupDeadlineExceeded,
        _ => Self::Panic,
    }
    // What the C functions read that names nothing the lookup knows; only
    // the codes occur here.
    ArgumentError {
        ArgumentError::UnknownProfileCode(_) => Self::UnknownLookupProfile,
        ArgumentError::UnknownServerErrorCode(_) => Self::UnknownServerError,
        ArgumentError::UnknownEvent(_) => Self::LookupUnknownEvent,
        _ => Self::Panic,
    }
}

/// The C form of an action of either driver: its kind's code and fields,
/// the attempt and the error behind it (`OK` and -1 for none), its
/// strings kept in `strings`.
fn c_action(
    action: &impl ActionParts,
    strings: &mut ActionStrings,
) -> pulsar_routing_lookup_action {
    let (flat, e) = (action.flat_action(), action.explanation_of());
    strings.logical = flat.logical_address.map(c_string);
    strings.physical = flat.physical_address.map(c_string);
    strings.reason = c_string(e.reason());
    pulsar_routing_lookup_action {
        kind: flat.kind.code(),
        logical_address: c_ptr(strings.logical.as_ref()),
        physical_address: c_ptr(strings.physical.as_ref()),
        authoritative: flat.authoritative,
        send_properties: flat.send_properties,
        use_proxy: flat.use_proxy,
        metadata_auto_creation: flat.metadata_auto_creation,
        redirects: flat.redirects,
        attempt: e.attempt(),
        at_ms: flat.at_ms.unwrap_or(0),
        delay_ms: flat.delay_ms.unwrap_or(0),
        partitions: flat.partitions.unwrap_or(0),
        error: e.error().map_or(pulsar_routing_status::Ok, Into::into),
        server_error: e.server_error().map_or(-1, ServerError::code),
        reason: strings.reason.as_ptr(),
    }
}

/// The strings of a handle's last action, which its pointers point into.
#[derive(Default)]
pub(crate) struct ActionStrings {
    logical: Option<CString>,
    physical: Option<CString>,
    reason: CString,
}

/// The string's pointer, or NULL for none.
fn c_ptr(s: Option<&CString>) -> *const c_char {
    s.map_or(core::ptr::null(), |s| s.as_ptr())
}

/// The Java client's defaults: no TLS, 20 redirects, the Java profile,
/// 30 s operation timeout, retries and loop detection on, seed 0.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `options_out` must be valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_options_default(
    options_out: *mut pulsar_routing_lookup_options,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(options_out);
        let d = LookupOptions::default();
        out.ok(pulsar_routing_lookup_options {
            use_tls: d.use_tls,
            max_redirects: d.max_redirects,
            profile: PULSAR_ROUTING_LOOKUP_PROFILE_JAVA,
            operation_timeout_ms: d.operation_timeout_ms,
            lookup_timeout_ms: 0,
            retry: d.retry,
            detect_redirect_loops: d.detect_redirect_loops,
            jitter_seed: d.jitter_seed,
        })
    }
}

impl pulsar_routing_lookup_options {
    fn to_core(self) -> Result<LookupOptions, pulsar_routing_status> {
        Ok(LookupOptions {
            use_tls: self.use_tls,
            max_redirects: self.max_redirects,
            profile: profile_of_code(self.profile)?,
            operation_timeout_ms: self.operation_timeout_ms,
            lookup_timeout_ms: lookup_timeout(self.lookup_timeout_ms),
            retry: self.retry,
            detect_redirect_loops: self.detect_redirect_loops,
            jitter_seed: self.jitter_seed,
        })
    }
}

/// A NUL-terminated optional string, or an error status.
///
/// # Safety
/// `p` is NULL or a valid NUL-terminated string for `'a`.
unsafe fn opt_cstr<'a>(p: *const c_char) -> Result<Option<&'a str>, pulsar_routing_status> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL, so NUL-terminated and valid by the contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map(Some)
        .map_err(|_| pulsar_routing_status::InvalidUtf8)
}

/// A required NUL-terminated string: NULL is `NULL_PARAMETER`.
///
/// # Safety
/// As for [`opt_cstr`].
unsafe fn req_cstr<'a>(p: *const c_char) -> Result<&'a str, pulsar_routing_status> {
    // SAFETY: by this function's contract.
    unsafe { opt_cstr(p) }?.ok_or(pulsar_routing_status::NullParameter)
}

/// Copies a string for C, dropping the impossible interior NULs.
fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

/// A topic lookup driver. Made by `pulsar_routing_topic_lookup_new`,
/// released with `pulsar_routing_topic_lookup_free`.
///
/// Not thread-safe: one thread at a time per handle. Each call returns an
/// action whose `logical_address` and `physical_address` point into the
/// handle, and the next call on the handle replaces them; so the caller
/// serialises the calls on a handle (it may hand the handle to another
/// thread between calls) and copies the strings it keeps. They stay valid
/// until the next call on the same handle or its `_free`. Different
/// handles are independent.
pub struct pulsar_routing_topic_lookup {
    _private: [u8; 0],
}

/// A driver and the strings of its last action.
pub(crate) type Driver<D> = Mutex<(D, ActionStrings)>;

impl BoxCastable for pulsar_routing_topic_lookup {
    type RustType = Driver<OwnedTopicLookup>;
}

/// The one path of both drivers' events: checks `handle` and
/// `action_out` (before `f` reads anything of the caller's), runs `f` on
/// the locked driver and writes the action it returns to `action_out`; a
/// status `f` returns instead is the call's.
///
/// # Safety
/// `handle` is NULL or a live handle, `action_out` NULL or valid for
/// writing.
unsafe fn act<H, D, A: ActionParts>(
    handle: *const H,
    action_out: *mut pulsar_routing_lookup_action,
    f: impl FnOnce(&mut D) -> Result<A, pulsar_routing_status>,
) -> pulsar_routing_status
where
    H: BoxCastable<RustType = Driver<D>>,
{
    let handle = try_box_ref!(handle);
    let out = try_out!(action_out);
    // A poisoned lock means an earlier call panicked: the state is still
    // memory-safe, and the status of that call said so.
    let mut inner = lock(handle);
    let (driver, strings) = &mut *inner;
    let action = try_ok!(f(driver));
    out.ok(c_action(&action, strings))
}

/// [`act`] for a topic lookup event, which cannot fail.
///
/// # Safety
/// As for [`act`].
unsafe fn drive(
    lookup: *const pulsar_routing_topic_lookup,
    action_out: *mut pulsar_routing_lookup_action,
    f: impl for<'a> FnOnce(&'a mut OwnedTopicLookup) -> LookupAction<'a>,
) -> pulsar_routing_status {
    // SAFETY: by this function's contract.
    unsafe { act(lookup, action_out, |l| Ok(OwnedLookupAction::drive(l, f))) }
}

/// A topic lookup starting at `service_address` (NUL-terminated UTF-8),
/// keeping up to `chain_capacity` hops of its redirect chain (21 holds a
/// whole chain of the default 20 redirects; a shorter one only limits loop
/// detection and `_chain_*`).
///
/// `options` may be NULL for the defaults. On success `*lookup_out`
/// receives a handle the caller owns and frees with
/// `pulsar_routing_topic_lookup_free`.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`, `UNKNOWN_LOOKUP_PROFILE`
/// or `LOOKUP_ADDRESS_TOO_LONG`. Thread-safe; allocates the handle.
///
/// # Safety
/// `service_address` must be a valid NUL-terminated string, `options` NULL
/// or valid for reading, `lookup_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_new(
    service_address: *const c_char,
    options: *const pulsar_routing_lookup_options,
    chain_capacity: usize,
    lookup_out: *mut *mut pulsar_routing_topic_lookup,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(lookup_out);
        // SAFETY: NULL or valid by the contract.
        let service = try_ok!(unsafe { req_cstr(service_address) });
        // SAFETY: NULL or valid for reading by the contract.
        let options = match unsafe { options.as_ref() } {
            Some(o) => try_ok!(o.to_core()),
            None => LookupOptions::default(),
        };
        let lookup = try_ok!(topic_lookup(service, options, chain_capacity));
        let handle = Mutex::new((lookup, ActionStrings::default()));
        out.ok(to_boxed_mut_ptr::<pulsar_routing_topic_lookup>(handle))
    }
}

/// Frees a topic lookup; NULL does nothing.
/// Releases the handle and everything it owns. Not thread-safe: no other
/// call on the handle may run at the same time.
///
/// # Safety
/// `lookup` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_free(
    lookup: *mut pulsar_routing_topic_lookup,
) {
    ffi_panic_boundary! {
        // SAFETY: NULL or a live handle by the contract.
        unsafe { free_box(lookup) }
    }
}

/// Starts the lookup at `now_ms`: the action is the first SEND_LOOKUP.
///
/// Returns `OK` or `NULL_PARAMETER`; a lookup error is reported in the
/// action, not the status.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_start(
    lookup: *const pulsar_routing_topic_lookup,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: by the contract.
        unsafe { drive(lookup, action_out, |l| l.start(now_ms)) }
    }
}

/// Reports the broker's response to the request out, at `now_ms`.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8` (a string field) or
/// `UNKNOWN_SERVER_ERROR` (an `error` code outside 0..25, other than -1);
/// the lookup's own errors are in the action.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle, `response` valid for reading with valid
/// or NULL strings, `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_on_response(
    lookup: *const pulsar_routing_topic_lookup,
    response: *const pulsar_routing_lookup_response,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let event = |l: &mut OwnedTopicLookup| {
            // SAFETY: NULL or valid for reading by the contract.
            let r = unsafe { response.as_ref() };
            let r = r.ok_or(pulsar_routing_status::NullParameter)?;
            let error = optional_server_error(r.error)?;
            // SAFETY: each string is NULL or valid by the contract.
            let (url, tls, message) = unsafe {
                let url = opt_cstr(r.broker_service_url)?;
                (url, opt_cstr(r.broker_service_url_tls)?, opt_cstr(r.message)?)
            };
            let response = LookupResponse {
                response: response_type_of_code(r.response),
                broker_service_url: url,
                broker_service_url_tls: tls,
                authoritative: r.authoritative,
                proxy_through_service_url: r.proxy_through_service_url,
                error,
                message,
            };
            Ok(OwnedLookupAction::drive(l, |l| l.on_response(&response, now_ms)))
        };
        // SAFETY: by the contract; `act` checks every pointer before the
        // event reads the response.
        unsafe { act(lookup, action_out, event) }
    }
}

/// Reports that the connection for the request out failed, at `now_ms`.
///
/// Returns `OK` or `NULL_PARAMETER`.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_on_connection_failed(
    lookup: *const pulsar_routing_topic_lookup,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: by the contract.
        unsafe { drive(lookup, action_out, |l| l.on_connection_failed(now_ms)) }
    }
}

/// Reports that the request out timed out, at `now_ms`.
///
/// Returns `OK` or `NULL_PARAMETER`.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_on_request_timeout(
    lookup: *const pulsar_routing_topic_lookup,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: by the contract.
        unsafe { drive(lookup, action_out, |l| l.on_request_timeout(now_ms)) }
    }
}

/// Reports that the connection's lookup throttle rejected the request
/// (`pulsar_routing_lookup_throttle_acquire` gave `LOOKUP_TOO_MANY_REQUESTS`)
/// with its counts (`pulsar_routing_lookup_throttle_counts`), at `now_ms`.
///
/// Returns `OK` or `NULL_PARAMETER`.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_on_throttled(
    lookup: *const pulsar_routing_topic_lookup,
    in_flight: u32,
    queued: u32,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let error = AttemptError::TooManyRequests { in_flight, queued };
        // SAFETY: by the contract.
        unsafe { drive(lookup, action_out, |l| l.on_attempt_error(error, now_ms)) }
    }
}

/// Reports that the retry timer of a RETRY_AT action fired, at `now_ms`.
///
/// Returns `OK` or `NULL_PARAMETER`.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_topic_lookup`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `lookup` must be a live handle and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_on_retry_timer(
    lookup: *const pulsar_routing_topic_lookup,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: by the contract.
        unsafe { drive(lookup, action_out, |l| l.on_retry_timer(now_ms)) }
    }
}

/// Writes the text of the lookup's error (UTF-8, no NUL) to `buf`: the
/// failure once failed, else the last attempt's error, else nothing; with
/// the broker's message after `": "` for a server error. Its length goes
/// to `*written`.
///
/// Returns `OK`, `NULL_PARAMETER` or `BUFFER_TOO_SMALL` (with the length
/// needed in `*written`).
/// Not thread-safe on one handle: one thread at a time, like the calls
/// that drive it. The handle stays the caller's (borrowed); the text is
/// copied into `buf`.
///
/// # Safety
/// `lookup` must be a live handle, `buf` valid for `len` bytes, `written`
/// valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_error_message(
    lookup: *const pulsar_routing_topic_lookup,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let handle = try_box_ref!(lookup);
        let buf: OutBuf<'_> = try_out_buf!(buf, len);
        let written = try_out!(written);
        let text = lock(handle).0.explain_error().map(|e| e.to_string());
        write_display(text.unwrap_or_default(), buf, written)
    }
}

/// The number of hops in the current (or last) attempt's redirect chain,
/// the service address first.
///
/// Returns `OK` or `NULL_PARAMETER`.
/// Not thread-safe on one handle: one thread at a time, like the calls
/// that drive it. The handle stays the caller's (borrowed).
///
/// # Safety
/// `lookup` must be a live handle and `len_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_chain_len(
    lookup: *const pulsar_routing_topic_lookup,
    len_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let handle = try_box_ref!(lookup);
        let out = try_out!(len_out);
        out.ok(lock(handle).0.chain().count())
    }
}

/// Writes hop `index` of the redirect chain: its address (UTF-8, no NUL)
/// to `buf` with its length in `*written`, and the authoritative flag the
/// request carried to `*authoritative_out`.
///
/// Returns `OK`, `NULL_PARAMETER`, `BUFFER_TOO_SMALL` or
/// `LOOKUP_HOP_INDEX_OUT_OF_RANGE` for an index at or past
/// `pulsar_routing_topic_lookup_chain_len`.
/// Not thread-safe on one handle: one thread at a time, like the calls
/// that drive it. The handle stays the caller's (borrowed); the text is
/// copied into `buf`.
///
/// # Safety
/// `lookup` must be a live handle, `buf` valid for `len` bytes, the
/// out-parameters valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_lookup_chain_hop(
    lookup: *const pulsar_routing_topic_lookup,
    index: usize,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
    authoritative_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let handle = try_box_ref!(lookup);
        let buf: OutBuf<'_> = try_out_buf!(buf, len);
        let written = try_out!(written);
        let auth = try_out!(authoritative_out);
        let inner = lock(handle);
        let Some(hop) = inner.0.chain().nth(index) else {
            return pulsar_routing_status::LookupHopIndexOutOfRange;
        };
        let status = write_display(hop.address, buf, written);
        if status == pulsar_routing_status::Ok {
            auth.write(hop.authoritative);
        }
        status
    }
}

/// Partitioned-metadata options. Defaults: 30 s, auto-creation on, no
/// fallback.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_metadata_options {
    /// `operationTimeoutMs`.
    pub operation_timeout_ms: u64,
    /// `lookupTimeoutMs`: the time budget, and half the backoff's
    /// mandatory stop; 0 means the
    /// operation timeout.
    pub lookup_timeout_ms: u64,
    /// `metadataAutoCreationEnabled`.
    pub metadata_auto_creation: bool,
    /// `useFallbackForNonPIP344Brokers`.
    pub use_fallback_for_non_pip344: bool,
    /// The seed of the backoff jitter.
    pub jitter_seed: u64,
}

/// The partitioned-metadata step before a producer starts. Made by
/// `pulsar_routing_partitioned_metadata_new`, released with
/// `pulsar_routing_partitioned_metadata_free`.
///
/// Not thread-safe: one thread at a time per handle, as for
/// `pulsar_routing_topic_lookup`: a CONNECT action's `physical_address`
/// points into the handle and stays valid until the next call on the same
/// handle or its `_free`.
pub struct pulsar_routing_partitioned_metadata {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_partitioned_metadata {
    type RustType = Driver<PartitionedMetadataLookup>;
}

/// A metadata lookup at `service_address` (NUL-terminated UTF-8);
/// `options` may be NULL for the defaults.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8` or
/// `LOOKUP_ADDRESS_TOO_LONG`. Thread-safe; allocates the handle.
///
/// # Safety
/// `service_address` must be a valid NUL-terminated string, `options` NULL
/// or valid for reading, `metadata_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partitioned_metadata_new(
    service_address: *const c_char,
    options: *const pulsar_routing_metadata_options,
    metadata_out: *mut *mut pulsar_routing_partitioned_metadata,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(metadata_out);
        // SAFETY: NULL or valid by the contract.
        let service = try_ok!(unsafe { req_cstr(service_address) });
        // SAFETY: NULL or valid for reading by the contract.
        let options = match unsafe { options.as_ref() } {
            Some(o) => MetadataOptions {
                operation_timeout_ms: o.operation_timeout_ms,
                lookup_timeout_ms: lookup_timeout(o.lookup_timeout_ms),
                metadata_auto_creation: o.metadata_auto_creation,
                use_fallback_for_non_pip344: o.use_fallback_for_non_pip344,
                jitter_seed: o.jitter_seed,
            },
            None => MetadataOptions::default(),
        };
        let m = try_ok!(PartitionedMetadataLookup::new(service, options));
        let handle = Mutex::new((m, ActionStrings::default()));
        out.ok(to_boxed_mut_ptr::<pulsar_routing_partitioned_metadata>(handle))
    }
}

/// Frees a metadata lookup; NULL does nothing.
/// Releases the handle and everything it owns. Not thread-safe: no other
/// call on the handle may run at the same time.
///
/// # Safety
/// `metadata` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partitioned_metadata_free(
    metadata: *mut pulsar_routing_partitioned_metadata,
) {
    ffi_panic_boundary! {
        // SAFETY: NULL or a live handle by the contract.
        unsafe { free_box(metadata) }
    }
}

/// An event of a partitioned-metadata lookup: one of the
/// `PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_*` values. (Not the sender
/// gate's `pulsar_routing_metadata_event`.)
pub type pulsar_routing_partitioned_metadata_event = u32;
/// `start`.
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START:
    pulsar_routing_partitioned_metadata_event = 0;
/// The connection is up; `flag` is the broker's PIP-344 feature flag
/// (`supports_get_partitioned_metadata_without_auto_creation`).
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED:
    pulsar_routing_partitioned_metadata_event = 1;
/// A `Success` response with `partitions`.
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_SUCCESS:
    pulsar_routing_partitioned_metadata_event = 2;
/// A `Failed` response, or one without a response type: `server_error`
/// (-1 for none: Java's "Empty lookup response", `LOOKUP_EMPTY_RESPONSE`)
/// and the broker's `message`.
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED:
    pulsar_routing_partitioned_metadata_event = 3;
/// The connection failed.
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTION_FAILED:
    pulsar_routing_partitioned_metadata_event = 4;
/// The retry timer of a RETRY_AT fired (ignored before its `at_ms`).
pub const PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_RETRY_TIMER:
    pulsar_routing_partitioned_metadata_event = 5;

/// Feeds one event (a `PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_*`
/// value) to the metadata lookup at `now_ms` and writes the next action
/// (CONNECT, SEND_PARTITIONED_METADATA, RETRY_AT, DONE with `partitions`,
/// FAILED or IGNORED). `flag` is read by CONNECTED, `partitions` by
/// SUCCESS, `server_error` and `message` by FAILED. `message` is the
/// broker's text, `message_len` bytes of UTF-8 (not NUL-terminated,
/// copied during the call), or NULL with `message_len` 0 for none;
/// `pulsar_routing_partitioned_metadata_error_message` reports it.
///
/// Returns `OK`, `NULL_PARAMETER` (also for a NULL `message` with a
/// non-zero `message_len`), `INVALID_UTF8`, `UNKNOWN_SERVER_ERROR` or
/// `LOOKUP_UNKNOWN_EVENT`; the lookup's own errors are in the action.
/// Not thread-safe on one handle: one thread at a time (see
/// `pulsar_routing_partitioned_metadata`). The handle stays the caller's
/// (borrowed); the action's strings belong to the handle and stay valid
/// until the next call on the same handle or its `_free`.
///
/// # Safety
/// `metadata` must be a live handle, `message` NULL or valid for
/// `message_len` bytes, and `action_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partitioned_metadata_on_event(
    metadata: *const pulsar_routing_partitioned_metadata,
    event: pulsar_routing_partitioned_metadata_event,
    flag: bool,
    partitions: u32,
    server_error: i32,
    message: *const u8,
    message_len: usize,
    now_ms: u64,
    action_out: *mut pulsar_routing_lookup_action,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let on = |m: &mut PartitionedMetadataLookup| {
            let message = if message.is_null() && message_len == 0 {
                None
            } else {
                // SAFETY: NULL or valid for `message_len` bytes by the contract.
                let bytes = unsafe { slice_from_raw(message, message_len) };
                let bytes = bytes.ok_or(pulsar_routing_status::NullParameter)?;
                let text = core::str::from_utf8(bytes);
                Some(text.map_err(|_| pulsar_routing_status::InvalidUtf8)?)
            };
            // The event codes are the owned layer's (`MetadataEvent::of_code`).
            let error = optional_server_error(server_error)?;
            let event = MetadataEvent::of_code(event, flag, partitions, error, message)?;
            Ok(OwnedMetadataAction::on(m, event, now_ms))
        };
        // SAFETY: by the contract; `act` checks every pointer before `on`
        // reads the message.
        unsafe { act(metadata, action_out, on) }
    }
}

/// Writes the text of the metadata lookup's error (UTF-8, no NUL) to
/// `buf`: the failure once failed, else the last attempt's error, else
/// nothing; with the broker's message (the FAILED event's `message`) after
/// `": "` for a server error. Its length goes to `*written`.
///
/// Returns `OK`, `NULL_PARAMETER` or `BUFFER_TOO_SMALL` (with the length
/// needed in `*written`). Not thread-safe on one handle: one thread at a
/// time, like the calls that drive it. The handle stays the caller's
/// (borrowed); the text is copied into `buf`.
///
/// # Safety
/// `metadata` must be a live handle, `buf` valid for `len` bytes,
/// `written` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_partitioned_metadata_error_message(
    metadata: *const pulsar_routing_partitioned_metadata,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let handle = try_box_ref!(metadata);
        let buf: OutBuf<'_> = try_out_buf!(buf, len);
        let written = try_out!(written);
        let text = lock(handle).0.explain_error().map(|e| e.to_string());
        write_display(text.unwrap_or_default(), buf, written)
    }
}

/// Writes the topic of the `index`-th lookup of a producer start (UTF-8,
/// no NUL) to `buf`: `topic` itself for 0 partitions, else
/// `<topic>-partition-<index>`. Its length goes to `*written`.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`, `BUFFER_TOO_SMALL` or
/// `ILLEGAL_PARTITION_INDEX` (`index >= max(1, partitions)`). Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `topic` must point to `topic_len` bytes, `buf` be valid for `len` bytes
/// and `written` for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_producer_start_topic(
    topic: *const u8,
    topic_len: usize,
    partitions: u32,
    index: u32,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let topic = try_utf8!(try_slice!(topic, topic_len));
        let buf: OutBuf<'_> = try_out_buf!(buf, len);
        let written = try_out!(written);
        let plan = pulsar_routing_core::lookup::ProducerStartPlan { partitions };
        if index >= plan.lookup_count() {
            return pulsar_routing_status::IllegalPartitionIndex;
        }
        write_display(plan.topic_for(topic, index), buf, written)
    }
}

/// The table of lookups in flight. Made by
/// `pulsar_routing_lookup_coalescer_new`, released with `_free`. Safe to
/// call from several threads except `_free`.
pub struct pulsar_routing_lookup_coalescer {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_lookup_coalescer {
    type RustType = Table<OwnedLookupKey>;
}

/// A coalescing table with `capacity` slots (different lookups in flight).
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates the handle.
///
/// # Safety
/// `coalescer_out` must be valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_coalescer_new(
    capacity: usize,
    coalescer_out: *mut *mut pulsar_routing_lookup_coalescer,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(coalescer_out);
        let table = Mutex::new(Waiting::new(capacity));
        out.ok(to_boxed_mut_ptr::<pulsar_routing_lookup_coalescer>(table))
    }
}

/// Frees a coalescing table; NULL does nothing.
/// Releases the handle and everything it owns. Not thread-safe: no other
/// call on the handle may run at the same time.
///
/// # Safety
/// `coalescer` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_coalescer_free(
    coalescer: *mut pulsar_routing_lookup_coalescer,
) {
    ffi_panic_boundary! {
        // SAFETY: NULL or a live handle by the contract.
        unsafe { free_box(coalescer) }
    }
}

/// Reads a key from C: `topic` and `count` NUL-terminated property names
/// and values (the arrays may be NULL when `count` is 0).
///
/// # Safety
/// As the exported functions' contracts say.
unsafe fn read_key(
    topic: *const c_char,
    names: *const *const c_char,
    values: *const *const c_char,
    count: usize,
) -> Result<OwnedLookupKey, pulsar_routing_status> {
    // SAFETY: NULL or a valid string by the contract.
    let topic = unsafe { req_cstr(topic) }?;
    if count > 0 && (names.is_null() || values.is_null()) {
        return Err(pulsar_routing_status::NullParameter);
    }
    let mut props = Vec::new();
    for i in 0..count {
        // SAFETY: both arrays hold `count` valid string pointers by the
        // contract.
        let (n, v) = unsafe { (req_cstr(*names.add(i))?, req_cstr(*values.add(i))?) };
        props.push((n.to_owned(), v.to_owned()));
    }
    Ok(OwnedLookupKey::new(topic, props))
}

/// Joins the lookup of (`topic`, properties): `*leader_out` is true when
/// the caller must start it, false when it is already in flight; the
/// waiters, this one included, go to `*waiters_out`.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
/// `LOOKUP_COALESCING_TABLE_FULL` or `LOOKUP_TOO_MANY_WAITERS`. Safe to call
/// from several threads. The handle stays the caller's (borrowed); the
/// key is copied.
///
/// # Safety
/// `coalescer` must be a live handle; `topic` a valid string; `names` and
/// `values` NULL (with `count` 0) or arrays of `count` valid strings; the
/// out-parameters valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_coalescer_join(
    coalescer: *const pulsar_routing_lookup_coalescer,
    topic: *const c_char,
    names: *const *const c_char,
    values: *const *const c_char,
    count: usize,
    leader_out: *mut bool,
    waiters_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let table = try_box_ref!(coalescer);
        let leader = try_out!(leader_out);
        let waiters = try_out!(waiters_out);
        // SAFETY: by the contract.
        let key = try_ok!(unsafe { read_key(topic, names, values, count) });
        join(table, key, leader, waiters)
    }
}

/// The lookup of (`topic`, properties) completed: removes it and writes
/// how many waiters to complete with its result to `*waiters_out` (0 if it
/// was not in flight).
///
/// Returns `OK`, `NULL_PARAMETER` or `INVALID_UTF8`. Safe to call from
/// several threads. The handle stays the caller's (borrowed); the key is
/// copied.
///
/// # Safety
/// As for `pulsar_routing_lookup_coalescer_join`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_coalescer_complete(
    coalescer: *const pulsar_routing_lookup_coalescer,
    topic: *const c_char,
    names: *const *const c_char,
    values: *const *const c_char,
    count: usize,
    waiters_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let table = try_box_ref!(coalescer);
        let waiters = try_out!(waiters_out);
        // SAFETY: by the contract.
        let key = try_ok!(unsafe { read_key(topic, names, values, count) });
        complete(table, &key, waiters)
    }
}

/// A coalescing table, where only the number of waiters matters.
pub(crate) type Table<K> = Mutex<Waiting<K, ()>>;

/// Joins `key`'s lookup in `table`, writing the outputs on success.
fn join<K: PartialEq>(
    table: &Table<K>,
    key: K,
    leader: Out<'_, bool>,
    waiters: Out<'_, u32>,
) -> pulsar_routing_status {
    match lock(table).join(key, ()) {
        Ok((is_leader, n)) => {
            leader.write(is_leader);
            waiters.ok(n)
        }
        Err(CoalesceError::TableFull { .. }) => pulsar_routing_status::LookupCoalescingTableFull,
        Err(_) => pulsar_routing_status::LookupTooManyWaiters,
    }
}

/// Completes `key`'s lookup in `table`, writing how many waited on it.
fn complete<K: PartialEq>(
    table: &Table<K>,
    key: &K,
    waiters: Out<'_, u32>,
) -> pulsar_routing_status {
    let n = lock(table).complete(key).len();
    waiters.ok(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The table of partitioned-metadata requests in flight, keyed by (topic,
/// `metadata_auto_creation`, `use_fallback_for_non_pip344`) as Java's
/// `InProgressDeduplicationDecoratorLookupService` keys them. Made by
/// `pulsar_routing_lookup_metadata_coalescer_new`, released with `_free`.
/// Safe to call from several threads except `_free`.
pub struct pulsar_routing_lookup_metadata_coalescer {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_lookup_metadata_coalescer {
    type RustType = Table<OwnedMetadataKey>;
}

/// A partitioned-metadata coalescing table with `capacity` slots
/// (different requests in flight; capped at 2^20). A capacity of 0 makes
/// every `_join` fail with `LOOKUP_COALESCING_TABLE_FULL`.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates the handle,
/// which the caller owns and releases with
/// `pulsar_routing_lookup_metadata_coalescer_free`.
///
/// # Safety
/// `coalescer_out` must be valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_metadata_coalescer_new(
    capacity: usize,
    coalescer_out: *mut *mut pulsar_routing_lookup_metadata_coalescer,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(coalescer_out);
        let table = Mutex::new(Waiting::new(capacity));
        out.ok(to_boxed_mut_ptr::<pulsar_routing_lookup_metadata_coalescer>(table))
    }
}

/// Frees a metadata coalescing table; NULL does nothing.
/// Releases the handle and everything it owns. Not thread-safe: no other
/// call on the handle may run at the same time.
///
/// # Safety
/// `coalescer` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_metadata_coalescer_free(
    coalescer: *mut pulsar_routing_lookup_metadata_coalescer,
) {
    ffi_panic_boundary! {
        // SAFETY: NULL or a live handle by the contract.
        unsafe { free_box(coalescer) }
    }
}

/// Joins the partitioned-metadata request for (`topic`,
/// `metadata_auto_creation`, `use_fallback_for_non_pip344`): `*leader_out`
/// is true when the caller must send it, false when it is already in
/// flight; the waiters, this one included, go to `*waiters_out`. Out
/// parameters are written only on `OK`.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
/// `LOOKUP_COALESCING_TABLE_FULL` or `LOOKUP_TOO_MANY_WAITERS`. Safe to call
/// from several threads. The handle stays the caller's (borrowed); `topic`
/// is copied.
///
/// # Safety
/// `coalescer` must be a live handle; `topic` a valid NUL-terminated
/// string; the out-parameters valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_metadata_coalescer_join(
    coalescer: *const pulsar_routing_lookup_metadata_coalescer,
    topic: *const c_char,
    metadata_auto_creation: bool,
    use_fallback_for_non_pip344: bool,
    leader_out: *mut bool,
    waiters_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let table = try_box_ref!(coalescer);
        let leader = try_out!(leader_out);
        let waiters = try_out!(waiters_out);
        // SAFETY: NULL or a valid string by the contract.
        let topic = try_ok!(unsafe { req_cstr(topic) });
        let key = metadata_key(topic, metadata_auto_creation, use_fallback_for_non_pip344);
        join(table, key, leader, waiters)
    }
}

/// The partitioned-metadata request for (`topic`, `metadata_auto_creation`,
/// `use_fallback_for_non_pip344`) completed: removes it and writes how
/// many waiters to complete with its result to `*waiters_out` (0 if it
/// was not in flight).
///
/// Returns `OK`, `NULL_PARAMETER` or `INVALID_UTF8`. Safe to call from
/// several threads. The handle stays the caller's (borrowed).
///
/// # Safety
/// As for `pulsar_routing_lookup_metadata_coalescer_join`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_metadata_coalescer_complete(
    coalescer: *const pulsar_routing_lookup_metadata_coalescer,
    topic: *const c_char,
    metadata_auto_creation: bool,
    use_fallback_for_non_pip344: bool,
    waiters_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let table = try_box_ref!(coalescer);
        let waiters = try_out!(waiters_out);
        // SAFETY: NULL or a valid string by the contract.
        let topic = try_ok!(unsafe { req_cstr(topic) });
        let key = metadata_key(topic, metadata_auto_creation, use_fallback_for_non_pip344);
        complete(table, &key, waiters)
    }
}

/// A connection's lookup throttle. Made by
/// `pulsar_routing_lookup_throttle_new`, released with `_free`. Safe to
/// call from several threads except `_free`.
pub struct pulsar_routing_lookup_throttle {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_lookup_throttle {
    type RustType = Mutex<LookupThrottle>;
}

/// A throttle allowing `concurrent_lookup_requests` in flight (Java: 5000)
/// and `max_lookup_requests` in all (50000).
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates the handle.
///
/// # Safety
/// `throttle_out` must be valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_new(
    concurrent_lookup_requests: u32,
    max_lookup_requests: u32,
    throttle_out: *mut *mut pulsar_routing_lookup_throttle,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(throttle_out);
        out.ok(to_boxed_mut_ptr::<pulsar_routing_lookup_throttle>(Mutex::new(
            LookupThrottle::new(concurrent_lookup_requests, max_lookup_requests),
        )))
    }
}

/// Frees a throttle; NULL does nothing.
/// Releases the handle and everything it owns. Not thread-safe: no other
/// call on the handle may run at the same time.
///
/// # Safety
/// `throttle` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_free(
    throttle: *mut pulsar_routing_lookup_throttle,
) {
    ffi_panic_boundary! {
        // SAFETY: NULL or a live handle by the contract.
        unsafe { free_box(throttle) }
    }
}

/// Admits a new lookup: on `OK`, `*send_now_out` is true to send it now,
/// false when it waits in the queue. Beyond both limits the status is
/// `LOOKUP_TOO_MANY_REQUESTS` and `*send_now_out` is not written;
/// `pulsar_routing_lookup_throttle_counts` then gives the counts for
/// `pulsar_routing_topic_lookup_on_throttled`.
///
/// Returns `OK`, `NULL_PARAMETER` or `LOOKUP_TOO_MANY_REQUESTS`. Safe to
/// call from several threads. The handle stays the caller's (borrowed).
///
/// # Safety
/// `throttle` must be a live handle and `send_now_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_acquire(
    throttle: *const pulsar_routing_lookup_throttle,
    send_now_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let t = try_box_ref!(throttle);
        let send_now = try_out!(send_now_out);
        let admission = try_ok!(lock(t).try_acquire());
        send_now.ok(admission == Admission::SendNow)
    }
}

/// Writes the requests in flight to `*in_flight_out` and those waiting in
/// the queue to `*queued_out` (both written on `OK` only). Another
/// thread's call may change them right after; read after a refused
/// `_acquire`, they are the counts Java reports in its
/// `TooManyRequestsException`.
///
/// Returns `OK` or `NULL_PARAMETER`. Safe to call from several threads.
/// The handle stays the caller's (borrowed).
///
/// # Safety
/// `throttle` must be a live handle and the out-parameters valid for
/// writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_counts(
    throttle: *const pulsar_routing_lookup_throttle,
    in_flight_out: *mut u32,
    queued_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let t = try_box_ref!(throttle);
        let in_flight = try_out!(in_flight_out);
        let queued = try_out!(queued_out);
        let t = lock(t);
        in_flight.write(t.in_flight());
        queued.ok(t.queued())
    }
}

/// A lookup in flight completed: `*send_queued_out` is true when the
/// oldest queued lookup must now be sent.
///
/// Returns `OK` or `NULL_PARAMETER`. Safe to call from several threads.
/// The handle stays the caller's (borrowed).
///
/// # Safety
/// `throttle` must be a live handle and `send_queued_out` valid for
/// writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_release(
    throttle: *const pulsar_routing_lookup_throttle,
    send_queued_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let t = try_box_ref!(throttle);
        let out = try_out!(send_queued_out);
        out.ok(lock(t).release())
    }
}

/// A queued lookup was abandoned before it was sent (its caller gave up):
/// `*cancelled_out` is false when none was queued.
///
/// Returns `OK` or `NULL_PARAMETER`. Safe to call from several threads.
/// The handle stays the caller's (borrowed).
///
/// # Safety
/// `throttle` must be a live handle and `cancelled_out` valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_lookup_throttle_cancel_queued(
    throttle: *const pulsar_routing_lookup_throttle,
    cancelled_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let t = try_box_ref!(throttle);
        let out = try_out!(cancelled_out);
        out.ok(lock(t).cancel_queued())
    }
}

/// The Java client's `Backoff` (`initial` doubling up to `max`, cut once so
/// that the delays handed out since the first stay within
/// `mandatory_stop`), for an embedder that schedules its own retries; the
/// lookup drivers already use one inside. Caller-allocated and opaque:
/// initialise it with `pulsar_routing_backoff_init`. It holds no pointers,
/// so it may be copied; one backoff must not be used by two threads at
/// once.
#[repr(C)]
pub struct pulsar_routing_backoff {
    _opaque: [u64; 6],
}

inline_castable!(pulsar_routing_backoff => Backoff);

/// Initialises `backoff`: Java's producer uses 100 ms, 60000 ms and twice
/// the lookup timeout.
///
/// Returns `OK` or `NULL_PARAMETER`. Writes `backoff` only: thread-safe as
/// long as no other thread uses it. Allocates nothing.
///
/// # Safety
/// `backoff` must be valid for writing a `pulsar_routing_backoff`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_backoff_init(
    backoff: *mut pulsar_routing_backoff,
    initial_ms: u64,
    max_ms: u64,
    mandatory_stop_ms: u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        if backoff.is_null() {
            return pulsar_routing_status::NullParameter;
        }
        // SAFETY: non-NULL, and the caller's contract makes it writable.
        unsafe { crate::ffi::inline_init(backoff, Backoff::new(initial_ms, max_ms, mandatory_stop_ms)) };
        pulsar_routing_status::Ok
    }
}

/// The next delay at `now_ms`, into `*delay_ms_out`. `random` stands for
/// Java's `Random.nextInt(delay / 10)`: the delay is lowered by
/// `random % (delay / 10)` when it is above 10 ms; pass 0 for none.
///
/// Returns `OK` or `NULL_PARAMETER`. Not thread-safe for one backoff.
/// Allocates nothing.
///
/// # Safety
/// `backoff` must be an initialised backoff and `delay_ms_out` valid for
/// writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_backoff_next(
    backoff: *mut pulsar_routing_backoff,
    now_ms: u64,
    random: u32,
    delay_ms_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let b: &mut Backoff = try_inline_mut!(backoff);
        let out = try_out!(delay_ms_out);
        out.ok(b.next(now_ms, random))
    }
}

/// Starts `backoff` over from its initial delay (Java's `reset()`).
///
/// Returns `OK` or `NULL_PARAMETER`. Not thread-safe for one backoff.
/// Allocates nothing.
///
/// # Safety
/// `backoff` must be an initialised backoff.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_backoff_reset(
    backoff: *mut pulsar_routing_backoff,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let b: &mut Backoff = try_inline_mut!(backoff);
        b.reset();
        pulsar_routing_status::Ok
    }
}
