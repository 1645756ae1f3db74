//! Key_Shared subscriptions: which consumer receives a message, as the
//! broker computes it, and what moves when consumers join or leave.
//!
//! - [`sticky_key`]: a message's sticky key and its slot;
//! - [`selector`]: the three broker selectors behind one heap handle;
//! - here: the shared types (selector kinds, hash ranges, assignments), the
//!   consistent-hashing ring point, and the client's check of sticky ranges.
//!
//! Nothing here allocates except a selector's constructors,
//! `pulsar_routing_selector_reserve`, and an add that outgrows the
//! selector's room.

pub mod selector;
pub mod sticky_key;

use core::ffi::c_char;
use core::fmt::Display;
use core::mem::{align_of, offset_of, size_of};

use pulsar_routing_core::key_shared::{
    Assignment, HashRange, KeyHashRange, SelectorKind, ring_point, validate_sticky_ranges,
};
use pulsar_routing_owned::key_shared::key_hash_range;

use crate::error::{enum_from_c, enum_to_c, pulsar_routing_status};
use crate::ffi::{Out, OutBuf, write_display};

/// A Key_Shared selector kind: one of the `PULSAR_ROUTING_SELECTOR_KIND_*`
/// values. An integer rather than a C enum, so that an unknown value is
/// rejected with `PULSAR_ROUTING_STATUS_UNKNOWN_SELECTOR_KIND`.
pub type pulsar_routing_selector_kind = u32;

/// `"auto_split"`: the range-splitting selector
/// (`HashRangeAutoSplitStickyKeyConsumerSelector`), used in `AUTO_SPLIT` mode
/// when the broker sets `subscriptionKeySharedUseConsistentHashing=false`.
/// Slots `[0, 65535]`, reduced modulo 65536 (0 becomes 1).
pub const PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT: pulsar_routing_selector_kind = 0;

/// `"consistent_hashing"`: the consistent-hashing selector
/// (`ConsistentHashingStickyKeyConsumerSelector`), the broker's default for
/// `AUTO_SPLIT` mode. Slots `[1, 65535]`, reduced modulo 65535 plus 1.
pub const PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING: pulsar_routing_selector_kind = 1;

/// `"exclusive"`: the sticky-ranges selector
/// (`HashRangeExclusiveStickyKeyConsumerSelector`), used in `STICKY` mode.
/// Slots `[0, 65535]`, reduced modulo 65536 (0 becomes 1).
pub const PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE: pulsar_routing_selector_kind = 2;

/// Which broker release's rules an exclusive selector follows: one of the
/// `PULSAR_ROUTING_EXCLUSIVE_MODE_*` values.
pub type pulsar_routing_exclusive_mode = u32;

/// master and 4.0.7+ (PR #24730): a slot belongs to the consumer whose
/// declared range contains it, and to nobody in the gaps.
pub const PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT: pulsar_routing_exclusive_mode = 0;

/// 2.x, 3.x and 4.0.0 to 4.0.6: the slots in the gaps between one
/// consumer's ranges are delivered to it, and its own ranges are not
/// checked against each other.
pub const PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730: pulsar_routing_exclusive_mode = 1;

/// The broker's default number of ring points per consumer
/// (`subscriptionKeySharedConsistentHashingReplicaPoints`).
pub const PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS: u32 = 100;

/// The top slot of consistent hashing with the default (PIP-379)
/// dispatcher: slots `[1, 65535]`.
pub const PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX: u32 = 65535;

/// The top slot of consistent hashing in the Classic persistent dispatcher
/// (`subscriptionKeySharedUseClassicPersistentImplementation=true`): slots
/// `[1, 2147483646]`.
pub const PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX: u32 = 2_147_483_646;

/// The AutoSplit selector's default range size (`DEFAULT_RANGE_SIZE`), and
/// the client's `KeySharedPolicy.DEFAULT_HASH_RANGE_SIZE`: slots
/// `[0, 65535]`.
pub const PULSAR_ROUTING_DEFAULT_RANGE_SIZE: i32 = 65536;

/// An inclusive range of slots, `[start, end]`: Java's `Range` (and the
/// wire's `IntRange`), with its `int` bounds.
///
/// A plain value. As a consumer's declared sticky range it is not checked
/// here: the selector and `pulsar_routing_validate_sticky_ranges` check it
/// with Java's messages. As a selector's key hash range (the slots a key
/// hashes into) it must have `0 <= start <= end` and at most 2147483647
/// slots (`RANGE_END_BEFORE_START`, `KEY_HASH_RANGE_TOO_LARGE`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_hash_range {
    /// The first slot.
    pub start: i32,
    /// The last slot, included.
    pub end: i32,
}

impl pulsar_routing_hash_range {
    pub(crate) const fn from_core(range: HashRange) -> Self {
        Self {
            start: range.start,
            end: range.end,
        }
    }

    pub(crate) const fn from_key_hash_range(range: KeyHashRange) -> Self {
        // Key hash ranges lie within [0, i32::MAX].
        Self {
            start: range.start() as i32,
            end: range.end() as i32,
        }
    }

    /// The range as a selector's key hash range, checked.
    pub(crate) fn to_key_hash_range(self) -> Result<KeyHashRange, pulsar_routing_status> {
        key_hash_range(self.start.into(), self.end.into()).map_err(Into::into)
    }
}

/// The C ranges as core ranges, without copying.
pub(crate) fn core_ranges(ranges: &[pulsar_routing_hash_range]) -> &[HashRange] {
    // The two types must have the same layout: both are `#[repr(C)]`, and
    // this compile-time check keeps them in step.
    const {
        assert!(size_of::<HashRange>() == size_of::<pulsar_routing_hash_range>());
        assert!(align_of::<HashRange>() == align_of::<pulsar_routing_hash_range>());
        assert!(offset_of!(HashRange, start) == offset_of!(pulsar_routing_hash_range, start));
        assert!(offset_of!(HashRange, end) == offset_of!(pulsar_routing_hash_range, end));
    }
    // SAFETY: the two types have the same size, alignment and field offsets
    // (checked at compile time above), and both are two `i32`s, valid for
    // any bits; the slice keeps its length and lifetime.
    unsafe { core::slice::from_raw_parts(ranges.as_ptr().cast::<HashRange>(), ranges.len()) }
}

/// One entry of a selector's snapshot (Java's `HashRangeAssignment`): the
/// consumer that receives the slots `[start, end]`.
///
/// 16 bytes, no padding. Written by `pulsar_routing_selector_assignments`,
/// `_consumer_ranges` and `_last_impact`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_assignment {
    /// The first slot.
    pub start: i32,
    /// The last slot, included.
    pub end: i32,
    /// The consumer, as the caller numbered it when adding it.
    pub consumer: u64,
}

impl From<(u64, HashRange)> for pulsar_routing_assignment {
    fn from((consumer, range): (u64, HashRange)) -> Self {
        Self {
            start: range.start,
            end: range.end,
            consumer,
        }
    }
}

impl From<Assignment> for pulsar_routing_assignment {
    fn from(a: Assignment) -> Self {
        (a.consumer, a.range).into()
    }
}

/// Writes an out-parameter and reports `OK`.
pub(crate) fn put<T>(out: Out<'_, T>, value: T) -> pulsar_routing_status {
    out.write(value);
    pulsar_routing_status::Ok
}

/// Writes the `needed` values into the start of `buf`, or, when they do
/// not fit, `needed` to `written` and BUFFER_TOO_SMALL (`buf` untouched).
pub(crate) fn write_values<T: Copy + Default>(
    buf: OutBuf<'_, T>,
    written: Out<'_, usize>,
    needed: usize,
    values: impl IntoIterator<Item = impl Into<T>>,
) -> pulsar_routing_status {
    try_fits!(buf, written, needed);
    for (slot, value) in buf.prefix(needed).iter_mut().zip(values) {
        *slot = value.into();
    }
    put(written, needed)
}

/// Writes an error's message, or nothing (a length of 0) without one.
pub(crate) fn write_error(
    error: Option<impl Display>,
    buf: OutBuf<'_>,
    written: Out<'_, usize>,
) -> pulsar_routing_status {
    match error {
        Some(e) => write_display(e, buf, written),
        None => put(written, 0),
    }
}

/// The core kinds, each at the index of its C value.
const KINDS: [SelectorKind; 3] = [
    SelectorKind::AutoSplit,
    SelectorKind::ConsistentHashing,
    SelectorKind::Exclusive,
];

/// The core kind of a C value.
pub(crate) fn kind_from_c(
    kind: pulsar_routing_selector_kind,
) -> Result<SelectorKind, pulsar_routing_status> {
    enum_from_c(&KINDS, kind, pulsar_routing_status::UnknownSelectorKind)
}

/// The C value of a core kind: its index in the table.
pub(crate) fn kind_to_c(kind: SelectorKind) -> pulsar_routing_selector_kind {
    enum_to_c(&KINDS, kind)
}

/// Parses a selector kind name: `"auto_split"`, `"consistent_hashing"` or
/// `"exclusive"`.
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `kind_out`: receives the kind on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_SELECTOR_KIND` (also for bytes
/// that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `kind_out` must be valid
/// for writing a `pulsar_routing_selector_kind`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_kind_from_name(
    name: *const u8,
    len: usize,
    kind_out: *mut pulsar_routing_selector_kind,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let name = try_slice!(name, len);
        let out = try_out!(kind_out);
        let Ok(name) = core::str::from_utf8(name) else {
            return pulsar_routing_status::UnknownSelectorKind;
        };
        let kind: SelectorKind = try_ok!(name.parse());
        put(out, kind_to_c(kind))
    }
}

/// The name of a selector kind (`"auto_split"`, `"consistent_hashing"` or
/// `"exclusive"`) as a static NUL-terminated string; NULL for an unknown
/// value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_selector_kind_name(
    kind: pulsar_routing_selector_kind,
) -> *const c_char {
    ffi_panic_boundary! {
        kind_from_c(kind).map_or(core::ptr::null(), |k| k.c_name().as_ptr())
    }
}

/// The slots a selector kind hashes keys into with the broker's default
/// settings: `[0, 65535]` for AutoSplit and Exclusive, `[1, 65535]` for
/// consistent hashing. (The Classic dispatcher's consistent hashing uses
/// `[1, PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX]`; an AutoSplit
/// selector with another range size uses `[0, range_size - 1]`.)
///
/// - `range_out`: receives the range on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_SELECTOR_KIND`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `range_out` must be valid for writing a `pulsar_routing_hash_range`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_kind_key_hash_range(
    kind: pulsar_routing_selector_kind,
    range_out: *mut pulsar_routing_hash_range,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(range_out);
        let kind = try_ok!(kind_from_c(kind));
        put(out, pulsar_routing_hash_range::from_key_hash_range(kind.key_hash_range()))
    }
}

/// The simple name of the Java exception class behind a Key_Shared status,
/// as a static NUL-terminated string: `"ConsumerAssignException"` for the
/// broker's refusals to add a consumer (`NO_MORE_RANGE`,
/// `MISSING_KEY_SHARED_META`, `EMPTY_HASH_RANGES`, the `*HASH_RANGE*`
/// conflicts), `"IllegalArgumentException"` for the selector constructors'
/// checks (`RANGE_SIZE_TOO_SMALL`, `RANGE_SIZE_NOT_POWER_OF_TWO`,
/// `RANGE_END_BEFORE_START`), the client's sticky-range checks
/// (`STICKY_*`) and Java's Base64 decoder (`BASE64_*`).
///
/// Returns NULL for every other code: `OK`, the codes outside 600-699, and
/// this library's own checks (capacities, duplicates, `NO_CONSUMER`, ...),
/// where Java has no exception. The string is static: never free or modify
/// it. Thread-safe; allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_key_shared_error_class(status: u32) -> *const c_char {
    use pulsar_routing_status as S;
    ffi_panic_boundary! {
        match S::from_code(status) {
            Some(
                S::NoMoreRange
                | S::MissingKeySharedMeta
                | S::EmptyHashRanges
                | S::HashRangeStartAfterEnd
                | S::LegacyHashRangeStartAfterEnd
                | S::OwnHashRangesConflict
                | S::HashRangeConflict,
            ) => c"ConsumerAssignException".as_ptr(),
            Some(
                S::RangeSizeTooSmall
                | S::RangeSizeNotPowerOfTwo
                | S::RangeEndBeforeStart
                | S::StickyRangeEndBeforeStart
                | S::StickyRangesEmpty
                | S::StickyRangeOutOfBounds
                | S::StickyRangesOverlap
                | S::Base64TooShort
                | S::Base64IllegalCharacter
                | S::Base64WrongEndingUnit
                | S::Base64NotEnoughBits
                | S::Base64IncorrectEndingByte,
            ) => c"IllegalArgumentException".as_ptr(),
            _ => core::ptr::null(),
        }
    }
}

/// Checks a consumer's sticky ranges as the Java client does before it
/// subscribes (`KeySharedPolicy.stickyHashRange().ranges(...)` then
/// `validate()`), in Java's order: every range has `start <= end`, the list
/// is not empty, then for each range in order its bounds (`[0, 65535]`),
/// then its overlap with each other range. The broker checks none of the
/// bounds; C and C++ clients call this before subscribing to refuse what
/// the Java client refuses.
///
/// - `ranges`, `num_ranges`: the ranges, in the order the consumer declares
///   them; `ranges` must not be NULL, even when `num_ranges` is 0 (which
///   gives `STICKY_RANGES_EMPTY`).
///
/// Returns `OK`, `NULL_PARAMETER`, `STICKY_RANGE_END_BEFORE_START`,
/// `STICKY_RANGES_EMPTY`, `STICKY_RANGE_OUT_OF_BOUNDS` or
/// `STICKY_RANGES_OVERLAP`; `pulsar_routing_validate_sticky_ranges_error_message`
/// writes Java's message, which quotes the ranges. O(n²) like Java's.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `ranges` must point to `num_ranges` readable `pulsar_routing_hash_range`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_validate_sticky_ranges(
    ranges: *const pulsar_routing_hash_range,
    num_ranges: usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let ranges = try_slice!(ranges, num_ranges);
        try_ok!(validate_sticky_ranges(core_ranges(ranges)));
        pulsar_routing_status::Ok
    }
}

/// Writes Java's `IllegalArgumentException` message for sticky ranges that
/// `pulsar_routing_validate_sticky_ranges` rejects, e.g. `Ranges for
/// KeyShared policy with overlap between [0, 10] and [5, 20]`.
///
/// - `ranges`, `num_ranges`: as for `pulsar_routing_validate_sticky_ranges`.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written; 0 when the ranges
///   are valid (nothing is written to `buf`).
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `ranges` must point to `num_ranges` readable `pulsar_routing_hash_range`s,
/// `buf` must be valid for writing `buf_len` bytes, and `written` for a
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_validate_sticky_ranges_error_message(
    ranges: *const pulsar_routing_hash_range,
    num_ranges: usize,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let ranges = try_slice!(ranges, num_ranges);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        write_error(validate_sticky_ranges(core_ranges(ranges)).err(), buf, written)
    }
}

/// Ring point `i` of a consistent-hashing consumer named `name` with name
/// index `name_index`: the slot, in `range`, of the UTF-8 bytes
/// `name + "\0" + name_index + "\0" + i` (Java's
/// `calculateHashForConsumerAndIndex`). A selector gives its consumers'
/// points with `pulsar_routing_selector_ring_points`.
///
/// - `name`, `len`: the consumer name's UTF-8 bytes (any bytes are
///   hashed); `name` must not be NULL, even when `len` is 0.
/// - `range`: the selector's key hash range, `[1, 65535]` by default.
/// - `point_out`: receives the point on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_END_BEFORE_START` or
/// `KEY_HASH_RANGE_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `point_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_ring_point(
    name: *const u8,
    len: usize,
    name_index: u32,
    i: u32,
    range: pulsar_routing_hash_range,
    point_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let name = try_slice!(name, len);
        let out = try_out!(point_out);
        let range = try_ok!(range.to_key_hash_range());
        put(out, ring_point(name, name_index, i, range))
    }
}
