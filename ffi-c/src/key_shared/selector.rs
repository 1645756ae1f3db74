//! The three broker selectors behind one opaque heap handle,
//! `pulsar_routing_selector`: a `pulsar_routing_owned::key_shared::Selector`,
//! which owns the selector's storage and grows it on demand, so C grows
//! exactly as Python does. This file converts C values and maps errors.

use pulsar_routing_core::key_shared::{
    AutoSplitConfig, Capacity, ConsistentHashingConfig, ExclusiveConfig, ExclusiveMode, HashRange,
    SelectorConfig, SelectorKind, StickyKey,
};
use pulsar_routing_owned::key_shared::{Error, RingError, Selector as OwnedSelector};

use super::sticky_key::{pulsar_routing_message_keys, read_sticky_key};
use super::{
    core_ranges, kind_to_c, pulsar_routing_assignment, pulsar_routing_exclusive_mode,
    pulsar_routing_hash_range, pulsar_routing_selector_kind, put, write_error, write_values,
};
use crate::error::{enum_from_c, pulsar_routing_status, status_from};
use crate::ffi::{BoxCastable, Out, OutBuf, free_box, to_boxed_mut_ptr};
use crate::text::pulsar_routing_str;

/// The size and rules of an AutoSplit selector
/// (`HashRangeAutoSplitStickyKeyConsumerSelector`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_auto_split_config {
    /// Java's range size: a power of two, at least 2; the broker uses
    /// `PULSAR_ROUTING_DEFAULT_RANGE_SIZE` (65536). The selector's slots are
    /// `[0, range_size - 1]`, and its last range is reported as ending at
    /// `range_size`, as Java does.
    pub range_size: i32,
    /// How many consumers the selector has room for when made; it grows
    /// past that on demand. At most `range_size` can ever be assigned.
    pub max_consumers: u32,
}

/// The size and rules of a consistent-hashing selector
/// (`ConsistentHashingStickyKeyConsumerSelector`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_consistent_hashing_config {
    /// Ring points per consumer; the broker's default is
    /// `PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS` (100). With 0,
    /// consumers get no points and no slot has a consumer.
    pub points: u32,
    /// The top slot: `PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX` (65535)
    /// with the default dispatcher,
    /// `PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX` with the Classic
    /// one. The slots are `[1, range_max]`.
    pub range_max: u32,
    /// How many consumers the selector has room for when made; it grows
    /// past that on demand.
    pub max_consumers: u32,
    /// Bytes for the names of the live consumers (their UTF-8 lengths,
    /// summed) when made; 64 per consumer is generous. Grows on demand.
    pub name_bytes: u32,
}

/// The size and rules of an exclusive (sticky ranges) selector
/// (`HashRangeExclusiveStickyKeyConsumerSelector`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_exclusive_config {
    /// How many consumers the selector has room for when made; it grows
    /// past that on demand.
    pub max_consumers: u32,
    /// How many declared ranges, over all consumers, it has room for when
    /// made; it grows past that on demand.
    pub max_ranges: u32,
    /// A `PULSAR_ROUTING_EXCLUSIVE_MODE_*` value.
    pub mode: pulsar_routing_exclusive_mode,
}

/// What a selector has room for. Each kind uses some of the fields:
/// `max_consumers` all of them, `name_bytes` consistent hashing, and
/// `max_ranges` the exclusive selector; the others are 0 in
/// `pulsar_routing_selector_get_capacity` and ignored by
/// `pulsar_routing_selector_reserve`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_selector_capacity {
    /// Consumers.
    pub max_consumers: u32,
    /// Bytes of consumer names (consistent hashing).
    pub name_bytes: u32,
    /// Declared ranges, over all consumers (exclusive).
    pub max_ranges: u32,
}

/// A Key_Shared selector: which consumer of a subscription receives each
/// slot, as the broker's selector of its kind decides, with the broker's
/// snapshots and the impact of every add and remove (for the exclusive
/// selector, which Java gives none, the slots that actually moved). An
/// opaque heap handle.
///
/// Made by `pulsar_routing_selector_new_auto_split`,
/// `_new_consistent_hashing` or `_new_exclusive`; released with
/// `pulsar_routing_selector_free`. It holds its storage, which starts with
/// the room its configuration asks for and grows on demand, with the same
/// policy as the Python binding: an add that needs more room moves the
/// selector into bigger storage (at least twice the room) and succeeds, so
/// C and Python give the same answer to the same calls. (Before 0.2 such an
/// add failed with `CONSUMER_CAPACITY`, `NAME_CAPACITY` or
/// `RANGE_CAPACITY`; those now come only when the room needed no longer
/// fits 32 bits, and `OUT_OF_MEMORY` when allocation fails.)
/// `pulsar_routing_selector_reserve` makes room ahead of time, so that the
/// adds it covers allocate nothing.
///
/// Consumers are `uint64_t` ids of the caller's choosing; the broker
/// identifies consumers by instance, and the ids stand for the instances.
///
/// Threads: the functions taking a `const pulsar_routing_selector *`
/// (select, assignments, impact, ...) only read it, and any number of
/// threads may call them at once. Adding, removing, reserving and freeing
/// need the selector to themselves: no other call on the same selector may
/// run at the same time.
pub struct pulsar_routing_selector {
    _private: [u8; 0],
}

/// What the handle holds: the selector, and the error of the last add,
/// remove or reserve that reached it.
pub(crate) struct Selector {
    inner: OwnedSelector,
    last_error: Option<Error>,
}

impl BoxCastable for pulsar_routing_selector {
    type RustType = Selector;
}

status_from! {
    Error {
        Error::Assign(e) => e.into(),
        Error::Config(e) => e.into(),
        Error::OutOfMemory => Self::OutOfMemory,
    }
    RingError {
        RingError::WrongKind => Self::WrongSelectorKind,
        RingError::NotFound => Self::ConsumerNotFound,
    }
}

/// The core mode of a C value: the modes at the index of their C value.
fn mode_from_c(
    mode: pulsar_routing_exclusive_mode,
) -> Result<ExclusiveMode, pulsar_routing_status> {
    let modes = [ExclusiveMode::Current, ExclusiveMode::LegacyPre24730];
    enum_from_c(&modes, mode, pulsar_routing_status::UnknownExclusiveMode)
}

impl pulsar_routing_auto_split_config {
    const fn to_core(self) -> SelectorConfig {
        SelectorConfig::AutoSplit(
            AutoSplitConfig::new(self.max_consumers).with_range_size(self.range_size),
        )
    }
}

impl pulsar_routing_consistent_hashing_config {
    const fn to_core(self) -> SelectorConfig {
        SelectorConfig::ConsistentHashing(
            ConsistentHashingConfig::new(self.max_consumers)
                .with_points(self.points)
                .with_range_max(self.range_max)
                .with_name_bytes(self.name_bytes),
        )
    }
}

impl pulsar_routing_exclusive_config {
    fn to_core(self) -> Result<SelectorConfig, pulsar_routing_status> {
        Ok(SelectorConfig::Exclusive(
            ExclusiveConfig::new(self.max_consumers, self.max_ranges)
                .with_mode(mode_from_c(self.mode)?),
        ))
    }
}

impl pulsar_routing_selector_capacity {
    const fn from_core(c: Capacity) -> Self {
        Self {
            max_consumers: c.max_consumers,
            name_bytes: c.name_bytes,
            max_ranges: c.max_ranges,
        }
    }

    const fn to_core(self) -> Capacity {
        Capacity {
            max_consumers: self.max_consumers,
            name_bytes: self.name_bytes,
            max_ranges: self.max_ranges,
        }
    }
}

impl Selector {
    /// Records the outcome of an operation that reached the selector.
    fn record<T>(&mut self, result: Result<T, Error>) -> pulsar_routing_status {
        self.last_error = result.err();
        self.last_error
            .map_or(pulsar_routing_status::Ok, Into::into)
    }

    /// Adds a consumer when `applies` (the add function fits the
    /// selector's kind), and records the outcome.
    fn add_if(
        &mut self,
        applies: fn(SelectorKind) -> bool,
        consumer: u64,
        name: &[u8],
        ranges: Option<&[HashRange]>,
    ) -> pulsar_routing_status {
        if !applies(self.inner.kind()) {
            return pulsar_routing_status::WrongSelectorKind;
        }
        let result = self.inner.add(consumer, name, ranges).map(|_| ());
        self.record(result)
    }
}

/// Writes the records `each` yields into `buf`, after counting them:
/// BUFFER_TOO_SMALL (with the count in `written`, `buf` untouched) when
/// they do not fit.
fn write_records<T: Copy + Default, I: IntoIterator<Item: Into<T>>>(
    buf: OutBuf<'_, T>,
    written: Out<'_, usize>,
    each: impl Fn() -> I,
) -> pulsar_routing_status {
    write_values(buf, written, each().into_iter().count(), each())
}

/// Writes the consumer that receives a slot, or returns NO_CONSUMER.
fn write_consumer(out: Out<'_, u64>, consumer: Option<u64>) -> pulsar_routing_status {
    consumer.map_or(pulsar_routing_status::NoConsumer, |c| put(out, c))
}

/// Boxes a new selector for the C caller.
fn new_handle(
    config: SelectorConfig,
    out: Out<'_, *mut pulsar_routing_selector>,
) -> pulsar_routing_status {
    out.write(to_boxed_mut_ptr::<pulsar_routing_selector>(Selector {
        inner: try_ok!(OwnedSelector::new(config)),
        last_error: None,
    }));
    pulsar_routing_status::Ok
}

/// The number of `uint32_t` words of storage an AutoSplit selector with
/// this configuration holds (4 bytes each): about `6 * max_consumers +
/// range_size` (the flat slot table that makes a lookup one read), plus the
/// id index. `pulsar_routing_selector_new_auto_split` allocates them.
///
/// - `words_out`: receives the number on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_SIZE_TOO_SMALL`,
/// `RANGE_SIZE_NOT_POWER_OF_TWO` or `SELECTOR_CAPACITY_TOO_LARGE`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `words_out` must be valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_auto_split_config_storage_words(
    config: pulsar_routing_auto_split_config,
    words_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(words_out);
        put(out, try_ok!(config.to_core().storage_words()))
    }
}

/// The number of `uint32_t` words of storage a consistent-hashing selector
/// with this configuration holds (4 bytes each): with `C` consumers and
/// `P` points, about `2 * C * P + 2 * min(C * P, range_max) + 8 * C +
/// name_bytes / 4`, plus `2 * (range_max + 1)` for the default range (the
/// flat table of each slot's consumer id that makes a lookup one read) and
/// the id index. 10,000
/// consumers with 100 points and 64-byte names take about 10 MB.
/// `pulsar_routing_selector_new_consistent_hashing` allocates them.
///
/// - `words_out`: receives the number on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_END_BEFORE_START` (`range_max` 0),
/// `KEY_HASH_RANGE_TOO_LARGE` (`range_max` above 2147483647) or
/// `SELECTOR_CAPACITY_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `words_out` must be valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_consistent_hashing_config_storage_words(
    config: pulsar_routing_consistent_hashing_config,
    words_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(words_out);
        put(out, try_ok!(config.to_core().storage_words()))
    }
}

/// The number of `uint32_t` words of storage an exclusive selector with
/// this configuration holds (4 bytes each): `4 * max_consumers +
/// 12 * max_ranges + 65536` (the flat slot table; `8 * max_ranges` is the
/// last impact), plus the id index and, with the legacy rules,
/// `28 * max_ranges + 16` more.
/// `pulsar_routing_selector_new_exclusive` allocates them.
///
/// - `words_out`: receives the number on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_EXCLUSIVE_MODE` or
/// `SELECTOR_CAPACITY_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `words_out` must be valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_exclusive_config_storage_words(
    config: pulsar_routing_exclusive_config,
    words_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(words_out);
        put(out, try_ok!(try_ok!(config.to_core()).storage_words()))
    }
}

/// Creates an empty AutoSplit selector (`new
/// HashRangeAutoSplitStickyKeyConsumerSelector(range_size, true)`): each
/// consumer owns one contiguous range; a new consumer takes the lower half
/// of the biggest range (ties: the lowest); a removed consumer's range goes
/// to the owner of the next higher range (the top range: to the range
/// below). Names do not matter.
///
/// - `config`: the range size (checked with Java's messages) and the
///   consumer room to start with.
/// - `selector_out`: on success, receives the new selector, which the
///   caller owns and must release with `pulsar_routing_selector_free`.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_SIZE_TOO_SMALL`,
/// `RANGE_SIZE_NOT_POWER_OF_TWO`, `SELECTOR_CAPACITY_TOO_LARGE` or
/// `OUT_OF_MEMORY`. Thread-safe. Allocates the selector and its storage
/// (`pulsar_routing_auto_split_config_storage_words`).
///
/// # Safety
/// `selector_out` must be valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_new_auto_split(
    config: pulsar_routing_auto_split_config,
    selector_out: *mut *mut pulsar_routing_selector,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        new_handle(config.to_core(), try_out!(selector_out))
    }
}

/// Creates an empty consistent-hashing selector (`new
/// ConsistentHashingStickyKeyConsumerSelector(points, true, range_max)`),
/// the broker's default for `AUTO_SPLIT` mode: each consumer puts `points`
/// points on a ring of slots `[1, range_max]`, hashed from its name and
/// name index; a slot goes to the owner of the first point at or after it,
/// wrapping around. On a collision the first owner keeps the point and
/// later ones queue.
///
/// - `config`: points, range and the room to start with.
/// - `selector_out`: on success, receives the new selector, which the
///   caller owns and must release with `pulsar_routing_selector_free`.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_END_BEFORE_START` (`range_max`
/// 0), `KEY_HASH_RANGE_TOO_LARGE`, `SELECTOR_CAPACITY_TOO_LARGE` or
/// `OUT_OF_MEMORY`. Thread-safe. Allocates the selector and its storage
/// (`pulsar_routing_consistent_hashing_config_storage_words`).
///
/// # Safety
/// `selector_out` must be valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_new_consistent_hashing(
    config: pulsar_routing_consistent_hashing_config,
    selector_out: *mut *mut pulsar_routing_selector,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        new_handle(config.to_core(), try_out!(selector_out))
    }
}

/// Creates an empty exclusive (sticky ranges) selector, the broker's
/// `STICKY` mode: each consumer declares its ranges, which may not overlap
/// another consumer's; a slot in no declared range has no consumer (with
/// the legacy rules, the gaps between one consumer's ranges are its own).
/// The broker does not check bounds; `pulsar_routing_validate_sticky_ranges`
/// is the client's check.
///
/// - `config`: the room to start with, and the rules.
/// - `selector_out`: on success, receives the new selector, which the
///   caller owns and must release with `pulsar_routing_selector_free`.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_EXCLUSIVE_MODE`,
/// `SELECTOR_CAPACITY_TOO_LARGE` or `OUT_OF_MEMORY`. Thread-safe.
/// Allocates the selector and its storage
/// (`pulsar_routing_exclusive_config_storage_words`).
///
/// # Safety
/// `selector_out` must be valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_new_exclusive(
    config: pulsar_routing_exclusive_config,
    selector_out: *mut *mut pulsar_routing_selector,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(selector_out);
        new_handle(try_ok!(config.to_core()), out)
    }
}

/// Releases a selector and its storage. NULL is a no-op.
///
/// No other thread may be using the selector, and it must not be used or
/// freed again afterwards.
///
/// # Safety
/// `selector` must be NULL or a selector from a
/// `pulsar_routing_selector_new_*` function that has not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_free(selector: *mut pulsar_routing_selector) {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `selector`.
        unsafe { free_box(selector) }
    }
}

/// The kind of a selector.
///
/// - `kind_out`: receives a `PULSAR_ROUTING_SELECTOR_KIND_*` value on
///   success.
///
/// Returns `OK` or `NULL_PARAMETER`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector and `kind_out` valid for writing a
/// `pulsar_routing_selector_kind`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_get_kind(
    selector: *const pulsar_routing_selector,
    kind_out: *mut pulsar_routing_selector_kind,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        put(try_out!(kind_out), kind_to_c(selector.inner.kind()))
    }
}

/// The slots a selector hashes sticky keys into: `[0, range_size - 1]` for
/// AutoSplit, `[1, range_max]` for consistent hashing, `[0, 65535]` for
/// exclusive. Pass it to `pulsar_routing_slot_of` or
/// `pulsar_routing_message_keys_slot`.
///
/// - `range_out`: receives the range on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector and `range_out` valid for writing a
/// `pulsar_routing_hash_range`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_key_hash_range(
    selector: *const pulsar_routing_selector,
    range_out: *mut pulsar_routing_hash_range,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let out = try_out!(range_out);
        put(out, pulsar_routing_hash_range::from_key_hash_range(selector.inner.key_hash_range()))
    }
}

/// The number of consumers in a selector.
///
/// - `len_out`: receives the number on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector and `len_out` valid for writing a
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_len(
    selector: *const pulsar_routing_selector,
    len_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        put(try_out!(len_out), selector.inner.len())
    }
}

/// Whether a consumer is in a selector.
///
/// - `contains_out`: receives the answer on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector and `contains_out` valid for writing
/// a `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_contains(
    selector: *const pulsar_routing_selector,
    consumer: u64,
    contains_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        put(try_out!(contains_out), selector.inner.contains(consumer))
    }
}

/// What a selector has room for; see `pulsar_routing_selector_capacity`.
///
/// - `capacity_out`: receives the capacities on success (0 for the fields
///   the selector's kind does not use).
///
/// Returns `OK` or `NULL_PARAMETER`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector and `capacity_out` valid for writing
/// a `pulsar_routing_selector_capacity`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_get_capacity(
    selector: *const pulsar_routing_selector,
    capacity_out: *mut pulsar_routing_selector_capacity,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let capacity = pulsar_routing_selector_capacity::from_core(selector.inner.capacity());
        put(try_out!(capacity_out), capacity)
    }
}

/// Makes room ahead of time: moves the selector into new storage with at
/// least `capacity` (each field the selector's kind uses, kept at least at
/// its current value), keeping its consumers, assignments, history (which
/// decides what later adds and removes do) and last impact. A no-op,
/// allocating nothing, when the selector already has that room.
///
/// Adds grow the selector on their own; reserving is an optional
/// pre-allocation, so that the adds it covers allocate nothing (e.g. on a
/// path that must not allocate).
///
/// Returns `OK`, `NULL_PARAMETER`, `SELECTOR_CAPACITY_TOO_LARGE` or
/// `OUT_OF_MEMORY`; on failure the selector is unchanged. Needs the
/// selector to itself. Allocates the new storage and frees the old.
///
/// # Safety
/// `selector` must be a live selector that no other thread uses during the
/// call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_reserve(
    selector: *mut pulsar_routing_selector,
    capacity: pulsar_routing_selector_capacity,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_mut!(selector);
        let result = selector.inner.reserve(capacity.to_core());
        selector.record(result)
    }
}

/// Adds a consumer to an AutoSplit selector: it takes the lower half of the
/// biggest range (ties: the lowest), and the last impact says what moved.
///
/// Returns `OK`, `NULL_PARAMETER`, `WRONG_SELECTOR_KIND` (a consistent
/// hashing selector needs a name: `pulsar_routing_selector_add_named`; an
/// exclusive one ranges: `_add_ranges`), `DUPLICATE_CONSUMER`,
/// `NO_MORE_RANGE` (Java's: every range is one slot wide) or
/// `OUT_OF_MEMORY` (`CONSUMER_CAPACITY` only past 32-bit room). A failed
/// add changes nothing but the last error
/// (`pulsar_routing_selector_last_error_message`) and empties the last
/// impact. Needs the selector to itself; allocates only when the selector
/// has no room left (see `pulsar_routing_selector`).
///
/// # Safety
/// `selector` must be a live selector that no other thread uses during the
/// call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_add(
    selector: *mut pulsar_routing_selector,
    consumer: u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_mut!(selector);
        selector.add_if(|k| k == SelectorKind::AutoSplit, consumer, &[], None)
    }
}

/// Adds a named consumer to a consistent-hashing selector (its ring points
/// hash the name and its name index, the smallest index not used by a live
/// consumer with the same name), or to an AutoSplit selector, which ignores
/// names. The last impact says what moved: on a consistent-hashing add,
/// only the new consumer gains.
///
/// - `name`, `name_len`: the consumer name's UTF-8 bytes (Java hashes
///   `String.getBytes()`; brokers run with UTF-8, and any bytes are
///   accepted); `name` must not be NULL, even when `name_len` is 0.
///
/// Returns `OK`, `NULL_PARAMETER`, `WRONG_SELECTOR_KIND` (an exclusive
/// selector: `pulsar_routing_selector_add_ranges`), `DUPLICATE_CONSUMER`,
/// `OUT_OF_MEMORY` (`CONSUMER_CAPACITY` and `NAME_CAPACITY` only past
/// 32-bit room), and for AutoSplit `NO_MORE_RANGE`. A failed add changes
/// nothing but the last error and empties the last impact. Needs the
/// selector to itself; allocates only when the selector has no room left.
///
/// # Safety
/// `selector` must be a live selector that no other thread uses during the
/// call, and `name` must point to `name_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_add_named(
    selector: *mut pulsar_routing_selector,
    consumer: u64,
    name: *const u8,
    name_len: usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_mut!(selector);
        let name = try_slice!(name, name_len);
        selector.add_if(|k| k != SelectorKind::Exclusive, consumer, name, None)
    }
}

/// Adds a consumer with its declared sticky ranges to an exclusive
/// selector, checked as the broker checks them, in its order: a
/// `KeySharedMeta` is present, the ranges are not empty, then, sorted by
/// start, each has `start <= end` and does not overlap the next, then none
/// overlaps another consumer's range. The broker does not check bounds.
///
/// - `ranges`, `num_ranges`: the declared ranges, in the consumer's order.
///   **NULL is a consumer that sent no `KeySharedMeta`** (`num_ranges` is
///   then ignored), which the broker refuses with
///   `MISSING_KEY_SHARED_META`; a non-NULL pointer with `num_ranges` 0 is
///   an empty list (`EMPTY_HASH_RANGES`).
///
/// Returns `OK`, `NULL_PARAMETER` (`selector` only), `WRONG_SELECTOR_KIND`,
/// `DUPLICATE_CONSUMER`, the broker's `MISSING_KEY_SHARED_META`,
/// `EMPTY_HASH_RANGES`, `HASH_RANGE_START_AFTER_END`,
/// `OWN_HASH_RANGES_CONFLICT` and `HASH_RANGE_CONFLICT` (legacy rules:
/// `LEGACY_HASH_RANGE_START_AFTER_END` and `HASH_RANGE_CONFLICT`), then
/// `OUT_OF_MEMORY` (`CONSUMER_CAPACITY` and `RANGE_CAPACITY` only past
/// 32-bit room). Java's messages quote ranges and consumers:
/// `pulsar_routing_selector_last_error_message` writes them. A failed add
/// changes nothing but the last error and empties the last impact.
///
/// Java's exclusive selector reports no impact; this one's last impact is
/// what actually moved: the consumer's declared ranges, in slot order,
/// clipped to the slots `[0, 65535]` and merged when adjacent (legacy
/// rules: also the gaps it is delivered, and those another consumer
/// loses). Needs the selector to itself; allocates only when the selector
/// has no room left.
///
/// # Safety
/// `selector` must be a live selector that no other thread uses during the
/// call, and `ranges` NULL or pointing to `num_ranges` readable
/// `pulsar_routing_hash_range`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_add_ranges(
    selector: *mut pulsar_routing_selector,
    consumer: u64,
    ranges: *const pulsar_routing_hash_range,
    num_ranges: usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_mut!(selector);
        // SAFETY: the caller's contract on `ranges`; NULL is "no meta".
        let ranges = unsafe { crate::ffi::slice_from_raw(ranges, num_ranges) }.map(core_ranges);
        selector.add_if(|k| k == SelectorKind::Exclusive, consumer, &[], ranges)
    }
}

/// Removes a consumer; an unknown consumer is a no-op (as in the broker),
/// which empties the last impact. The last impact says what moved.
///
/// Returns `OK` or `NULL_PARAMETER`. Clears the last error. Needs the
/// selector to itself; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no other thread uses during the
/// call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_remove(
    selector: *mut pulsar_routing_selector,
    consumer: u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_mut!(selector);
        selector.inner.remove(consumer);
        selector.record(Ok(()))
    }
}

/// The consumer that receives slot `slot` (Java's `select(hash)`): the
/// AutoSplit owner of the smallest range end at or above it; the owner of
/// the first ring point at or after it, wrapping around; or the exclusive
/// consumer whose declared range contains it (Java reduces it modulo 65536
/// first).
///
/// - `consumer_out`: receives the consumer on success.
///
/// Returns `OK`, `NULL_PARAMETER`, or `NO_CONSUMER` when nobody owns the
/// slot (an empty selector, a gap between sticky ranges, an AutoSplit slot
/// above the range size, a consistent-hashing selector with 0 points);
/// `*consumer_out` is then not written. Reads the selector only: any number
/// of threads may select at once. O(1) for the default ranges; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, and `consumer_out` valid for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_select(
    selector: *const pulsar_routing_selector,
    slot: u32,
    consumer_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let out = try_out!(consumer_out);
        write_consumer(out, selector.inner.select(slot))
    }
}

/// The consumer that receives a sticky key: its slot in the selector's key
/// hash range, then `pulsar_routing_selector_select`.
///
/// - `key`, `len`: the sticky key's bytes (already resolved; for a
///   message's fields use `pulsar_routing_selector_select_message`); `key`
///   must not be NULL, even when `len` is 0.
/// - `consumer_out`: receives the consumer on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `NO_CONSUMER`. Reads the selector only;
/// allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `key` must point to `len` readable bytes, and `consumer_out` must
/// be valid for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_select_key(
    selector: *const pulsar_routing_selector,
    key: *const u8,
    len: usize,
    consumer_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let key = try_slice!(key, len);
        let out = try_out!(consumer_out);
        write_consumer(out, selector.inner.select_key(&StickyKey::Key(key)))
    }
}

/// The consumer that receives a message: its sticky key (see
/// `pulsar_routing_message_keys`), its slot, then
/// `pulsar_routing_selector_select`. The key is streamed, never built.
///
/// - `keys`: the message's key fields.
/// - `consumer_out`: receives the consumer on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `NO_CONSUMER`. Reads the selector only;
/// allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `keys` must point to a readable `pulsar_routing_message_keys`
/// whose fields are as it describes, and `consumer_out` must be valid for
/// writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_select_message(
    selector: *const pulsar_routing_selector,
    keys: *const pulsar_routing_message_keys,
    consumer_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        let out = try_out!(consumer_out);
        write_consumer(out, selector.inner.select_key(&key))
    }
}

/// `pulsar_routing_selector_select_key` for many sticky keys at once.
///
/// - `keys`, `num_keys`: the sticky keys' bytes; `keys` must not be NULL,
///   even when `num_keys` is 0, and no key's `data` may be NULL.
/// - `no_consumer`: the value written for a key that no consumer owns;
///   choose one that is not a consumer id (e.g. `UINT64_MAX`).
/// - `consumers`, `consumers_len`: the output, one consumer per key, in
///   order; `consumers` must not be NULL, even when `consumers_len` is 0.
/// - `written`: on success, the number of consumers written (`num_keys`).
///
/// Returns `OK`, `NULL_PARAMETER` (also for a key with a NULL `data`), or
/// `BUFFER_TOO_SMALL`, in which case nothing is written to `consumers` and
/// `*written` receives `num_keys`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `keys` must point to `num_keys` readable `pulsar_routing_str`s,
/// each `data` to its `len` bytes, `consumers` must be valid for writing
/// `consumers_len` `uint64_t`s, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_select_keys(
    selector: *const pulsar_routing_selector,
    keys: *const pulsar_routing_str,
    num_keys: usize,
    no_consumer: u64,
    consumers: *mut u64,
    consumers_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let keys = try_slice!(keys, num_keys);
        let consumers = try_out_buf!(consumers, consumers_len);
        let written = try_out!(written);
        if keys.iter().any(|k| k.data.is_null()) {
            return pulsar_routing_status::NullParameter;
        }
        let select = |key: &pulsar_routing_str| {
            // SAFETY: the caller's contract on each key; none is NULL.
            let key = unsafe { key.bytes() }.unwrap_or_default();
            selector.inner.select_key(&StickyKey::Key(key)).unwrap_or(no_consumer)
        };
        write_values(consumers, written, keys.len(), keys.iter().map(select))
    }
}

/// `pulsar_routing_selector_select_message` for many messages at once.
///
/// - `messages`, `num_messages`: the messages' key fields; `messages` must
///   not be NULL, even when `num_messages` is 0. Every message is checked
///   (a NULL field with a length is `NULL_PARAMETER`) before anything is
///   written.
/// - `no_consumer`: the value written for a message that no consumer owns;
///   choose one that is not a consumer id (e.g. `UINT64_MAX`).
/// - `consumers`, `consumers_len`: the output, one consumer per message, in
///   order; `consumers` must not be NULL, even when `consumers_len` is 0.
/// - `written`: on success, the number of consumers written
///   (`num_messages`).
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `consumers` and `*written` receives
/// `num_messages`. Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `messages` must point to `num_messages` readable
/// `pulsar_routing_message_keys` whose fields are as it describes,
/// `consumers` must be valid for writing `consumers_len` `uint64_t`s, and
/// `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_select_messages(
    selector: *const pulsar_routing_selector,
    messages: *const pulsar_routing_message_keys,
    num_messages: usize,
    no_consumer: u64,
    consumers: *mut u64,
    consumers_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let messages = try_slice!(messages, num_messages);
        let consumers = try_out_buf!(consumers, consumers_len);
        let written = try_out!(written);
        for message in messages {
            // SAFETY: the caller's contract on each message's fields.
            try_ok!(unsafe { message.to_core() });
        }
        let select = |message: &pulsar_routing_message_keys| {
            // SAFETY: as above; every message was checked, so none fails.
            let keys = unsafe { message.to_core() }.ok()?;
            selector.inner.select_key(&keys.sticky_key())
        };
        let consumers_of = messages.iter().map(|m| select(m).unwrap_or(no_consumer));
        write_values(consumers, written, messages.len(), consumers_of)
    }
}

/// Writes a selector's snapshot, exactly as the broker reports it
/// (`getKeyHashRangeAssignments`, `ConsumerHashAssignmentsSnapshot`): the
/// `(start, end, consumer)` assignments in slot order. AutoSplit's last
/// range ends at the range size (65536), as Java's does; consistent
/// hashing joins consecutive points of one consumer and gives the slots
/// after the last point to the first point's owner; exclusive lists the
/// declared ranges (legacy rules: the stored bounds paired two by two).
///
/// - `buf`, `buf_len`: the output array; `buf` must not be NULL, even when
///   `buf_len` is 0.
/// - `written`: on success, the number of assignments written.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the number needed.
/// Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `buf` must be valid for writing `buf_len`
/// `pulsar_routing_assignment`s, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_assignments(
    selector: *const pulsar_routing_selector,
    buf: *mut pulsar_routing_assignment,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        write_records(buf, written, || selector.inner.assignments())
    }
}

/// Writes every consumer's ranges as the broker's stats report them
/// (`getConsumerKeyHashRanges`): each consumer's snapshot ranges merged
/// when adjacent, in slot order (group them by consumer as needed). With
/// the exclusive legacy rules, the paired bounds, unmerged.
///
/// - `buf`, `buf_len`: the output array; `buf` must not be NULL, even when
///   `buf_len` is 0.
/// - `written`: on success, the number of records written.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the number needed.
/// Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `buf` must be valid for writing `buf_len`
/// `pulsar_routing_assignment`s, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_consumer_ranges(
    selector: *const pulsar_routing_selector,
    buf: *mut pulsar_routing_assignment,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        write_records(buf, written, || selector.inner.consumer_ranges())
    }
}

/// Writes one consumer's ranges, as `pulsar_routing_selector_consumer_ranges`
/// reports them, in slot order; none for a consumer that is not in the
/// selector or owns no slot.
///
/// - `buf`, `buf_len`: the output array; `buf` must not be NULL, even when
///   `buf_len` is 0.
/// - `written`: on success, the number of ranges written.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the number needed.
/// Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `buf` must be valid for writing `buf_len`
/// `pulsar_routing_hash_range`s, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_ranges_of(
    selector: *const pulsar_routing_selector,
    consumer: u64,
    buf: *mut pulsar_routing_hash_range,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let ranges = || selector.inner.consumer_ranges().filter(move |a| a.consumer == consumer);
        write_records(buf, written, || ranges().map(|a| pulsar_routing_hash_range::from_core(a.range)))
    }
}

/// Writes the impact of the selector's last add or remove (Java's
/// `ImpactedConsumersResult`, the diff of the snapshots before and after):
/// the ranges each consumer lost and those each gained, in slot order;
/// filtered to one consumer, a list is that consumer's ranges sorted and
/// merged, as Java's map holds them. In the broker, `removed` ranges of the
/// other consumers become draining hashes.
///
/// Empty after a failed add, after removing an unknown consumer, and
/// before any change. Java's exclusive selector reports no impact; this
/// one reports the slots that actually moved (see
/// `pulsar_routing_selector_add_ranges`).
///
/// - `removed`, `removed_len`: the output for the ranges that left their
///   consumer; `removed` must not be NULL, even when `removed_len` is 0.
/// - `removed_written`: on success, the number of records in `removed`.
/// - `added`, `added_len`, `added_written`: the same for the ranges a
///   consumer gained.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL` when either list
/// does not fit: then nothing is written to either array, and **both**
/// `*removed_written` and `*added_written` receive the number their list
/// needs. Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `removed` and `added` must be valid for writing `removed_len` and
/// `added_len` `pulsar_routing_assignment`s, and the `_written` pointers
/// for a `size_t` each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_last_impact(
    selector: *const pulsar_routing_selector,
    removed: *mut pulsar_routing_assignment,
    removed_len: usize,
    removed_written: *mut usize,
    added: *mut pulsar_routing_assignment,
    added_len: usize,
    added_written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let removed = try_out_buf!(removed, removed_len);
        let removed_written = try_out!(removed_written);
        let added = try_out_buf!(added, added_len);
        let added_written = try_out!(added_written);
        let impact = selector.inner.last_impact();
        let (removed_needed, added_needed) = (impact.removed().len(), impact.added().len());
        if removed_needed > removed.capacity() || added_needed > added.capacity() {
            removed_written.write(removed_needed);
            added_written.write(added_needed);
            return pulsar_routing_status::BufferTooSmall;
        }
        // Both lists fit (checked above), so the first write is OK too.
        let _ = write_values(removed, removed_written, removed_needed, impact.removed());
        write_values(added, added_written, added_needed, impact.added())
    }
}

/// A consistent-hashing consumer's name index: the smallest index that no
/// other live consumer with its name used when it joined (0 for the first,
/// 1 for a second consumer of the same name, ...).
///
/// - `index_out`: receives the index on success, or -1 when the selector
///   has 0 points (Java then tracks no index).
///
/// Returns `OK`, `NULL_PARAMETER`, `WRONG_SELECTOR_KIND` (not consistent
/// hashing) or `CONSUMER_NOT_FOUND`. Reads the selector only; allocates
/// nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, and `index_out` valid for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_name_index(
    selector: *const pulsar_routing_selector,
    consumer: u64,
    index_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let out = try_out!(index_out);
        let ring = try_ok!(selector.inner.ring_of(consumer).map_err(pulsar_routing_status::from));
        put(out, ring.name_index(consumer).map_or(-1, i64::from))
    }
}

/// Writes a consistent-hashing consumer's ring points, for point indexes
/// `0` to `points - 1` (so `points` values, some possibly equal: a consumer
/// can collide with itself); see `pulsar_routing_ring_point`.
///
/// - `buf`, `buf_len`: the output array; `buf` must not be NULL, even when
///   `buf_len` is 0.
/// - `written`: on success, the number of points written (`points`, or 0
///   with 0 points).
///
/// Returns `OK`, `NULL_PARAMETER`, `WRONG_SELECTOR_KIND`,
/// `CONSUMER_NOT_FOUND`, or `BUFFER_TOO_SMALL`, in which case nothing is
/// written to `buf` and `*written` receives the number needed. Reads the
/// selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `buf` must be valid for writing `buf_len` `uint32_t`s, and
/// `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_ring_points(
    selector: *const pulsar_routing_selector,
    consumer: u64,
    buf: *mut u32,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let ring = try_ok!(selector.inner.ring_of(consumer).map_err(pulsar_routing_status::from));
        write_records(buf, written, || ring.consumer_points(consumer))
    }
}

/// Writes the full message of the error of the selector's last add, remove
/// or reserve: Java's `ConsumerAssignException` message with its values
/// (`No more range can assigned to new consumer, assigned consumers 3`,
/// `Fixed hash range start > end for range: [10,5]`, ...), or this
/// library's for its own checks. `HASH_RANGE_CONFLICT` ends with
/// `Consumer{consumerId=N}`, where the broker prints its `Consumer`
/// (subscription, id, name, address).
///
/// Calls rejected before they reach the selector (`NULL_PARAMETER`,
/// `WRONG_SELECTOR_KIND`) do not change the last error; a successful add,
/// remove or reserve clears it.
///
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written; 0 when the last
///   operation succeeded (nothing is written to `buf`).
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length.
/// Reads the selector only; allocates nothing.
///
/// # Safety
/// `selector` must be a live selector that no thread mutates during the
/// call, `buf` must be valid for writing `buf_len` bytes, and `written` for
/// a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_selector_last_error_message(
    selector: *const pulsar_routing_selector,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let selector = try_box_ref!(selector);
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        write_error(selector.last_error, buf, written)
    }
}
