//! Namespace bundles: a namespace's layout of hash ranges, the bundle that
//! serves a topic, bundle range names, and the broker's split algorithms.
//!
//! Nothing here allocates. A layout is a caller-allocated
//! `pulsar_routing_bundle_layout`, either the default layout for a number of
//! bundles or a view of the caller's boundary array; arrays in and out are
//! the caller's.

use pulsar_routing_core::bundles::{
    BundleLayout, BundleRange, FlowLimits, TopicLoad, flow_or_qps_equally_divide, parse_boundary,
    range_equally_divide, specified_positions_divide, topic_count_equally_divide,
    validate_full_range,
};

use pulsar_routing_owned::bundles::{SplitPoints, bundle_change, split_into};

use crate::error::pulsar_routing_status;
use crate::ffi::{Out, OutBuf};
use crate::text::pulsar_routing_str;
use crate::topic_name::{parse_topic, pulsar_routing_topic_name_rules};

/// A bundle's hash range (Java's `NamespaceBundle` key range): `[lower,
/// upper)`, or `[lower, 0xffffffff]` when `upper` is `0xffffffff`.
///
/// A plain value: build it in place, or get it from a layout or
/// `pulsar_routing_bundle_range_parse`. Every function that takes one checks
/// it as Java's `NamespaceBundle` does: `lower <= upper` (`INVALID_RANGE`
/// otherwise) and not empty (`EMPTY_RANGE`: `lower == upper`, except the
/// one-hash range `[0xffffffff, 0xffffffff]`). The bounds are Java `long`s,
/// because the broker's range parser accepts values outside the hash space.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_bundle_range {
    /// The inclusive lower bound.
    pub lower: i64,
    /// The upper bound, as the bundle's name prints it: exclusive, unless it
    /// is `0xffffffff`.
    pub upper: i64,
}

impl From<BundleRange> for pulsar_routing_bundle_range {
    fn from(range: BundleRange) -> Self {
        Self {
            lower: range.lower(),
            upper: range.upper(),
        }
    }
}

impl pulsar_routing_bundle_range {
    fn to_core(self) -> Result<BundleRange, pulsar_routing_status> {
        BundleRange::new(self.lower, self.upper).map_err(pulsar_routing_status::from)
    }
}

/// A namespace's bundle layout (Java's `NamespaceBundles`): `k + 1` sorted
/// boundaries making `k` bundles, bundle `i` being `[b[i], b[i+1])` and the
/// last one `[b[k-1], 0xffffffff]`.
///
/// Allocated by the caller (on the stack, inside another struct, anywhere)
/// and set up by `pulsar_routing_bundle_layout_init_default` or
/// `pulsar_routing_bundle_layout_init` before any other use. There is
/// nothing to free. Its size (32 bytes) and alignment (that of `uint64_t`)
/// are part of the ABI; its contents are private. A layout made by
/// `pulsar_routing_bundle_layout_init` refers to the caller's boundary
/// array, which must stay valid and unchanged for as long as the layout (or
/// a copy of it) is used.
///
/// An initialised layout is never modified: any number of threads may use
/// it at once, and copying it is fine.
#[repr(C)]
pub struct pulsar_routing_bundle_layout {
    _opaque: [u64; 4],
}

// The `'static` is the caller's promise to keep the boundaries alive while
// the layout is used (see `pulsar_routing_bundle_layout_init`).
inline_castable!(pulsar_routing_bundle_layout => BundleLayout<'static>);

/// The bundle index `pulsar_routing_bundle_change` reports for a hash that
/// no bundle of the layout owns (below its first boundary): `SIZE_MAX`.
///
/// cbindgen cannot spell `SIZE_MAX`, so the header's definition is written
/// in `ffi-c/cbindgen.toml` (`after_includes`); a test keeps the two equal.
/// cbindgen:ignore
pub const PULSAR_ROUTING_NO_BUNDLE: usize = usize::MAX;

/// Where one hash (one topic) is before and after a layout change, as
/// `pulsar_routing_bundle_layout_compare` reports it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_bundle_change {
    /// The index of its bundle in the first layout, or
    /// `PULSAR_ROUTING_NO_BUNDLE`.
    pub before: usize,
    /// The index of its bundle in the second layout, or
    /// `PULSAR_ROUTING_NO_BUNDLE`.
    pub after: usize,
    /// Whether its bundle's range differs between the two layouts: after a
    /// split, exactly the topics of the split bundle change.
    pub changed: bool,
}

/// One topic's load, as `flow_or_qps_equally_divide` reads it from the
/// topic's stats. The rates come first so that the struct has no padding
/// before its end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct pulsar_routing_topic_load {
    /// `msgRateIn`, messages per second.
    pub msg_rate_in: f64,
    /// `msgRateOut`, messages per second.
    pub msg_rate_out: f64,
    /// `msgThroughputIn`, bytes per second.
    pub msg_throughput_in: f64,
    /// `msgThroughputOut`, bytes per second.
    pub msg_throughput_out: f64,
    /// CRC-32 of the topic's full name (`pulsar_routing_topic_name_crc32`).
    pub hash: u32,
}

/// The broker settings `pulsar_routing_flow_or_qps_equally_divide` splits
/// against. The broker's defaults are 30000, 100 and 10.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_flow_limits {
    /// `loadBalancerNamespaceBundleMaxMsgRate`, messages per second.
    pub max_msg_rate: i32,
    /// `loadBalancerNamespaceBundleMaxBandwidthMbytes`, MiB per second.
    pub max_bandwidth_mbytes: i32,
    /// `flowOrQpsDifferenceThresholdPercentage`.
    pub threshold_percent: i32,
}

/// A copy of the core layout in an initialised
/// `pulsar_routing_bundle_layout`, or returns NULL_PARAMETER.
macro_rules! try_layout {
    ($ptr:expr) => {{
        let layout: &BundleLayout<'static> = try_inline_ref!($ptr);
        *layout
    }};
}

/// Writes what a lookup found, or returns `missing` (with that status's own
/// message) when it found nothing.
fn found<T, F: Into<T>>(
    out: Out<'_, T>,
    value: Option<F>,
    missing: pulsar_routing_status,
) -> pulsar_routing_status {
    value.map_or(missing, |value| out.ok(value.into()))
}

/// Writes a layout's `len + 1` boundaries to the caller's array.
fn write_boundaries(
    layout: &BundleLayout<'_>,
    buf: OutBuf<'_, u32>,
    written: Out<'_, usize>,
) -> pulsar_routing_status {
    let needed = layout.len() + 1;
    try_fits!(buf, written, needed);
    for (slot, boundary) in buf.prefix(needed).iter_mut().zip(layout.boundaries()) {
        *slot = boundary;
    }
    written.ok(needed)
}

// --- layouts -------------------------------------------------------------

impl pulsar_routing_bundle_layout {
    /// Initialises `layout` to the layout the broker gives a namespace
    /// created with `num_bundles` bundles (`PoliciesUtil.getBundles`):
    /// boundaries every `2^32 / num_bundles`, the last forced to
    /// `0xffffffff`. The broker's default is 4. Needs no boundary storage.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `NO_BUNDLES` (for 0). Allocates
    /// nothing. Writes `layout` only: thread-safe as long as no other thread
    /// uses that layout during the call.
    ///
    /// # Safety
    /// `layout` must be valid for writing a `pulsar_routing_bundle_layout`;
    /// it may be uninitialised.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_init_default(
        layout: *mut pulsar_routing_bundle_layout,
        num_bundles: u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            if layout.is_null() {
                return pulsar_routing_status::NullParameter;
            }
            let value = try_ok!(BundleLayout::default_for(num_bundles));
            // SAFETY: the caller's contract on `layout`.
            unsafe { crate::ffi::inline_init(layout, value) };
            pulsar_routing_status::Ok
        }
    }

    /// Initialises `layout` over the caller's boundaries, checked as Java's
    /// `NamespaceBundles` constructor checks them. The layout refers to the
    /// array without copying it.
    ///
    /// - `boundaries`, `len`: `len` boundaries (at least 2), sorted, the
    ///   last `0xffffffff` and no other; `boundaries` must not be NULL, even
    ///   when `len` is 0. **They must stay valid and unchanged for as long
    ///   as the layout is used.**
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `NO_BOUNDARIES`, `TOO_FEW_BOUNDARIES`,
    /// `BOUNDARIES_NOT_SORTED`, `UPPER_ENDPOINT_NOT_EXCLUSIVE` or
    /// `EMPTY_RANGE` (a repeated boundary). Allocates nothing. Writes
    /// `layout` only: thread-safe as long as no other thread uses that
    /// layout during the call.
    ///
    /// # Safety
    /// `layout` must be valid for writing a `pulsar_routing_bundle_layout`,
    /// and `boundaries` must point to `len` readable, aligned `uint32_t`s
    /// that stay valid and unchanged while the layout is used.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_init(
        layout: *mut pulsar_routing_bundle_layout,
        boundaries: *const u32,
        len: usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            if layout.is_null() {
                return pulsar_routing_status::NullParameter;
            }
            // `'static` is the caller's promise that the array outlives
            // every use of the layout (this function's contract).
            let boundaries: &'static [u32] = try_slice!(boundaries, len);
            let value = try_ok!(BundleLayout::new(boundaries));
            // SAFETY: the caller's contract on `layout`.
            unsafe { crate::ffi::inline_init(layout, value) };
            pulsar_routing_status::Ok
        }
    }

    /// Adds an index to an initialised layout, built in the caller's
    /// `table`, so that most later lookups of a hash (or topic) in it read
    /// one table entry instead of binary-searching the boundaries. Worth it
    /// for explicit layouts looked up many times; the default layout
    /// computes its bundles arithmetically and is left unchanged. Answers
    /// are identical with or without the index.
    ///
    /// - `table`, `table_len`: work space of `table_len` `uint32_t`s, used
    ///   as entries of 3 words each, as many as the largest power of two
    ///   (up to 2^20) that fits; fewer than 3 words removes any index.
    ///   `pulsar_routing_bundle_layout_recommended_index_len`
    ///   gives a good length. `table` must not be NULL, even when
    ///   `table_len` is 0. **It must stay valid and unchanged for as long as
    ///   the layout is used**, like the boundaries.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Not thread-safe for `layout`
    /// (it is rewritten): index a layout before sharing it. Allocates
    /// nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout valid for writing, and
    /// `table` must point to `table_len` writable, aligned `uint32_t`s
    /// that nothing else uses while the layout is.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_index(
        layout: *mut pulsar_routing_bundle_layout,
        table: *mut u32,
        table_len: usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let current = try_layout!(layout as *const pulsar_routing_bundle_layout);
            // `'static` is the caller's promise that the table outlives
            // every use of the layout (this function's contract).
            let table: &'static mut [u32] = try_slice_mut!(table, table_len);
            let value = current.indexed(table);
            // SAFETY: the caller's contract on `layout`.
            unsafe { crate::ffi::inline_init(layout, value) };
            pulsar_routing_status::Ok
        }
    }

    /// A table length, in `uint32_t`s, for
    /// `pulsar_routing_bundle_layout_index` that gives about four entries
    /// per bundle: 3 words times the next power of two at or above
    /// `4 * num_bundles`, which is between 1 and 2^20 (12 MiB of table).
    ///
    /// Thread-safe; allocates nothing; never fails.
    #[unsafe(no_mangle)]
    pub extern "C" fn pulsar_routing_bundle_layout_recommended_index_len(
        num_bundles: usize,
    ) -> usize {
        ffi_panic_boundary! { BundleLayout::recommended_index_len(num_bundles) }
    }

    /// The number of bundles of a layout.
    ///
    /// - `len_out`: receives the number, at least 1, on success.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout (see
    /// `pulsar_routing_bundle_layout`) and `len_out` valid for writing a
    /// `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_len(
        layout: *const pulsar_routing_bundle_layout,
        len_out: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            try_out!(len_out).ok(layout.len())
        }
    }

    /// Writes a layout's `len + 1` boundaries.
    ///
    /// - `buf`, `buf_len`: the output array and its length in elements;
    ///   `buf` must not be NULL, even when `buf_len` is 0.
    /// - `written`: on success, the number of boundaries written.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
    /// nothing is written to `buf` and `*written` receives the number of
    /// elements needed. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout, `buf` valid for writing
    /// `buf_len` `uint32_t`s, and `written` valid for writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_boundaries(
        layout: *const pulsar_routing_bundle_layout,
        buf: *mut u32,
        buf_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let buf = try_out_buf!(buf, buf_len);
            let written = try_out!(written);
            write_boundaries(&layout, buf, written)
        }
    }

    /// Bundle `index` of a layout.
    ///
    /// - `range_out`: receives the bundle's range on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `BUNDLE_INDEX_OUT_OF_RANGE`.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout and `range_out` valid for
    /// writing a `pulsar_routing_bundle_range`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_bundle(
        layout: *const pulsar_routing_bundle_layout,
        index: usize,
        range_out: *mut pulsar_routing_bundle_range,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let out = try_out!(range_out);
            found(out, layout.bundle(index), pulsar_routing_status::BundleIndexOutOfRange)
        }
    }

    /// The index of the bundle that owns `hash`.
    ///
    /// A hash of exactly `0xffffffff` maps to the last bundle, whose range
    /// includes it. The broker's own lookup throws
    /// `IndexOutOfBoundsException` there instead; use
    /// `pulsar_routing_bundle_layout_bundle_index_for_hash_java` to get that.
    ///
    /// - `index_out`: receives the bundle's index on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, or `NO_BUNDLE_FOR_HASH` for a hash
    /// below the first boundary (only possible in a layout from
    /// `pulsar_routing_bundle_layout_init` that does not start at 0).
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout and `index_out` valid for
    /// writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_bundle_index_for_hash(
        layout: *const pulsar_routing_bundle_layout,
        hash: u32,
        index_out: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let out = try_out!(index_out);
            found(out, layout.bundle_index_for_hash(hash), pulsar_routing_status::NoBundleForHash)
        }
    }

    /// `pulsar_routing_bundle_layout_bundle_index_for_hash` with the
    /// broker's failure modes (`NamespaceBundles.findBundle`): `0xffffffff`
    /// is `NO_BUNDLE_FOR_HASH` too, as Java throws
    /// `IndexOutOfBoundsException` for it.
    ///
    /// Arguments and statuses as for
    /// `pulsar_routing_bundle_layout_bundle_index_for_hash`. Thread-safe;
    /// allocates nothing.
    ///
    /// # Safety
    /// As for `pulsar_routing_bundle_layout_bundle_index_for_hash`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_bundle_index_for_hash_java(
        layout: *const pulsar_routing_bundle_layout,
        hash: u32,
        index_out: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            try_out!(index_out).ok(try_ok!(layout.bundle_index_for_hash_java(hash)))
        }
    }

    /// The bundle that owns `hash`; see
    /// `pulsar_routing_bundle_layout_bundle_index_for_hash` (`0xffffffff`
    /// maps to the last bundle).
    ///
    /// - `range_out`: receives the bundle's range on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `NO_BUNDLE_FOR_HASH`. Thread-safe;
    /// allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout and `range_out` valid for
    /// writing a `pulsar_routing_bundle_range`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_bundle_for_hash(
        layout: *const pulsar_routing_bundle_layout,
        hash: u32,
        range_out: *mut pulsar_routing_bundle_range,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let out = try_out!(range_out);
            found(out, layout.bundle_for_hash(hash), pulsar_routing_status::NoBundleForHash)
        }
    }

    /// The bundle that serves a topic: the CRC-32 of the topic's canonical
    /// name (streamed, never built), then
    /// `pulsar_routing_bundle_layout_bundle_for_hash`. A partition is its
    /// own topic: pass `x-partition-3`, not `x`.
    ///
    /// - `topic`, `len`: the topic name's UTF-8 bytes, in any form
    ///   `pulsar_routing_topic_name_parse` accepts; `topic` must not be
    ///   NULL, even when `len` is 0.
    /// - `rules`: a `PULSAR_ROUTING_TOPIC_NAME_RULES_*` value.
    /// - `range_out`: receives the bundle's range on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
    /// `UNKNOWN_TOPIC_NAME_RULES`, a `TOPIC_NAME_*` code, or
    /// `NO_BUNDLE_FOR_HASH`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout, `topic` must point to `len`
    /// readable bytes, and `range_out` must be valid for writing a
    /// `pulsar_routing_bundle_range`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_bundle_for_topic(
        layout: *const pulsar_routing_bundle_layout,
        topic: *const u8,
        len: usize,
        rules: pulsar_routing_topic_name_rules,
        range_out: *mut pulsar_routing_bundle_range,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let name = try_slice!(topic, len);
            let out = try_out!(range_out);
            let topic = try_ok!(parse_topic(try_utf8!(name), rules));
            found(out, layout.bundle_for_topic(&topic), pulsar_routing_status::NoBundleForHash)
        }
    }

    /// The position of `bundle` in a layout, checked as Java's
    /// `NamespaceBundles.validateBundle` does.
    ///
    /// - `index_out`: receives the bundle's index on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE` (see
    /// `pulsar_routing_bundle_range`), `BUNDLE_NOT_FOUND` when its lower
    /// bound is not a boundary, or `INVALID_UPPER_BOUNDARY` when its upper
    /// bound is not the next one. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout and `index_out` valid for
    /// writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_validate_bundle(
        layout: *const pulsar_routing_bundle_layout,
        bundle: pulsar_routing_bundle_range,
        index_out: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let out = try_out!(index_out);
            let bundle = try_ok!(bundle.to_core());
            out.ok(try_ok!(layout.validate_bundle(bundle)))
        }
    }

    /// Counts how many of `hashes` (topics' CRC-32s) land in each bundle.
    ///
    /// - `hashes`, `num_hashes`: the hashes; `hashes` must not be NULL, even
    ///   when `num_hashes` is 0.
    /// - `counts`, `counts_len`: the output, one count per bundle; `counts`
    ///   must not be NULL, even when `counts_len` is 0.
    /// - `written`: on success, the number of counts written (the number of
    ///   bundles).
    /// - `unowned_out`: on success, the number of hashes no bundle owns
    ///   (below the first boundary), which are not counted.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
    /// nothing is written to `counts` and `*written` receives the number of
    /// bundles. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout, `hashes` must point to
    /// `num_hashes` readable `uint32_t`s, `counts` must be valid for writing
    /// `counts_len` `uint64_t`s, and `written` and `unowned_out` valid for
    /// writing a `size_t` and a `uint64_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_count_per_bundle(
        layout: *const pulsar_routing_bundle_layout,
        hashes: *const u32,
        num_hashes: usize,
        counts: *mut u64,
        counts_len: usize,
        written: *mut usize,
        unowned_out: *mut u64,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let hashes = try_slice!(hashes, num_hashes);
            let counts = try_out_buf!(counts, counts_len);
            let written = try_out!(written);
            let unowned_out = try_out!(unowned_out);
            try_fits!(counts, written, layout.len());
            // Zeroed by `prefix`: the core adds to the counts.
            let counts = counts.prefix(layout.len());
            let unowned = try_bundle!(
                layout.count_per_bundle(hashes.iter().copied(), counts),
                written
            );
            written.write(layout.len());
            unowned_out.ok(unowned)
        }
    }

    /// The impact of a layout change (a split) on a list of topics: for
    /// each hash, its bundle before and after, and whether that bundle's
    /// range changed.
    ///
    /// - `before`, `after`: two initialised layouts.
    /// - `hashes`, `num_hashes`: the topics' CRC-32s; `hashes` must not be
    ///   NULL, even when `num_hashes` is 0.
    /// - `changes`, `changes_len`: the output, one record per hash, in
    ///   order; `changes` must not be NULL, even when `changes_len` is 0.
    /// - `written`: on success, the number of records written
    ///   (`num_hashes`).
    ///
    /// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
    /// nothing is written to `changes` and `*written` receives
    /// `num_hashes`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `before` and `after` must be initialised layouts, `hashes` must point
    /// to `num_hashes` readable `uint32_t`s, `changes` must be valid for
    /// writing `changes_len` records, and `written` for a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_compare(
        before: *const pulsar_routing_bundle_layout,
        after: *const pulsar_routing_bundle_layout,
        hashes: *const u32,
        num_hashes: usize,
        changes: *mut pulsar_routing_bundle_change,
        changes_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let before = try_layout!(before);
            let after = try_layout!(after);
            let hashes = try_slice!(hashes, num_hashes);
            let changes = try_out_buf!(changes, changes_len);
            let written = try_out!(written);
            try_fits!(changes, written, hashes.len());
            for (slot, &hash) in changes.prefix(hashes.len()).iter_mut().zip(hashes) {
                let change = bundle_change(&before, &after, hash);
                *slot = pulsar_routing_bundle_change {
                    before: change.before.unwrap_or(PULSAR_ROUTING_NO_BUNDLE),
                    after: change.after.unwrap_or(PULSAR_ROUTING_NO_BUNDLE),
                    changed: change.changed,
                };
            }
            written.ok(hashes.len())
        }
    }

    /// Splits bundle `target` at `boundaries`, as the broker's
    /// `NamespaceBundleFactory.splitBundles(target, n + 1, boundaries)`
    /// does after a split algorithm chose them, and writes the new layout's
    /// boundaries; `pulsar_routing_bundle_layout_init` makes a layout of
    /// them. The new bundles are at indexes `i` to `i + n` of the new
    /// layout, `i` being the target's index
    /// (`pulsar_routing_bundle_layout_validate_bundle`). With no
    /// boundaries (`n` = 0) the layout is unchanged.
    ///
    /// - `target`: one of the layout's bundles.
    /// - `boundaries`, `n`: the split points, each strictly inside the
    ///   target. A work array: **the call sorts it in place**, as the
    ///   broker sorts its list. `boundaries` must not be NULL, even when
    ///   `n` is 0.
    /// - `out`, `out_len`: the output array, at least `len + n + 1`
    ///   elements (`len` the layout's number of bundles); `out` must not be
    ///   NULL, even when `out_len` is 0.
    /// - `written`: on success, the number of boundaries written.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE` (for
    /// `target` itself), `CANNOT_SPLIT_FURTHER` (a target of width 1),
    /// `SPLIT_BOUNDARY_OUTSIDE_BUNDLE`, `BUNDLE_NOT_FOUND` or
    /// `INVALID_UPPER_BOUNDARY` (a target that is not one of the layout's
    /// bundles), `EMPTY_RANGE` (a repeated split point), or
    /// `BUFFER_TOO_SMALL`, in which case `*written` receives the number of
    /// elements needed. `out` is written only on success. Thread-safe
    /// (distinct calls need distinct work arrays); allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout, `boundaries` must point to
    /// `n` readable and writable `int64_t`s that nothing else uses during
    /// the call, `out` must be valid for writing `out_len` `uint32_t`s and
    /// not overlap the layout's own boundaries, and `written` must be valid
    /// for writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_split(
        layout: *const pulsar_routing_bundle_layout,
        target: pulsar_routing_bundle_range,
        boundaries: *mut i64,
        n: usize,
        out: *mut u32,
        out_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let boundaries = try_slice_mut!(boundaries, n);
            let out = try_out_buf!(out, out_len);
            let written = try_out!(written);
            let target = try_ok!(target.to_core());
            let points = SplitPoints::At(boundaries);
            let split = split_into(&layout, target, points, out.capacity(), |n| out.prefix(n));
            let split = try_bundle!(split, written);
            written.ok(split.layout.len() + 1)
        }
    }

    /// Splits bundle `target` into `parts` equal parts, as the broker's
    /// `splitBundles(target, parts, null)` does: boundaries every `(upper -
    /// lower) / parts` from the lower bound (so the full range in 4 parts
    /// gives `0x3fffffff, 0x7ffffffe, 0xbffffffd`, not the default
    /// layout's). Writes the new layout's boundaries; the new bundles are
    /// at indexes `i` to `i + parts - 1`, `i` being the target's index.
    ///
    /// - `target`: one of the layout's bundles.
    /// - `parts`: the number of parts, at least 1.
    /// - `out`, `out_len`: the output array, at least `len + parts`
    ///   elements; `out` must not be NULL, even when `out_len` is 0.
    /// - `written`: on success, the number of boundaries written.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE` (for
    /// `target` itself), `CANNOT_SPLIT_FURTHER`, `ZERO_SPLIT_PARTS`,
    /// `BUNDLE_NOT_FOUND`, `INVALID_UPPER_BOUNDARY`, `EMPTY_RANGE` (more
    /// parts than the target has hashes), or `BUFFER_TOO_SMALL`, in which
    /// case `*written` receives the number of elements needed. `out` is
    /// written only on success. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `layout` must be an initialised layout, `out` must be valid for
    /// writing `out_len` `uint32_t`s and not overlap the layout's own
    /// boundaries, and `written` must be valid for writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_layout_split_equally(
        layout: *const pulsar_routing_bundle_layout,
        target: pulsar_routing_bundle_range,
        parts: u32,
        out: *mut u32,
        out_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let layout = try_layout!(layout);
            let out = try_out_buf!(out, out_len);
            let written = try_out!(written);
            let target = try_ok!(target.to_core());
            let points = SplitPoints::Equally(parts);
            let split = split_into(&layout, target, points, out.capacity(), |n| out.prefix(n));
            let split = try_bundle!(split, written);
            written.ok(split.layout.len() + 1)
        }
    }
}

/// Writes the default layout's `num_bundles + 1` boundaries
/// (`PoliciesUtil.getBundles`): `i * (2^32 / num_bundles)`, then
/// `0xffffffff`.
///
/// - `buf`, `buf_len`: the output array and its length in elements; `buf`
///   must not be NULL, even when `buf_len` is 0.
/// - `written`: on success, the number of boundaries written.
///
/// Returns `OK`, `NULL_PARAMETER`, `NO_BUNDLES` (for 0), or
/// `BUFFER_TOO_SMALL`, in which case nothing is written to `buf` and
/// `*written` receives the number of elements needed. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `buf` must be valid for writing `buf_len` `uint32_t`s and `written` for
/// writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_default_boundaries(
    num_bundles: u32,
    buf: *mut u32,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let layout = try_ok!(BundleLayout::default_for(num_bundles));
        write_boundaries(&layout, buf, written)
    }
}

/// Reads one boundary as the broker reads `BundlesData` boundaries
/// (Java's `Long.decode`: `0x…`, `#…`, octal with a leading `0`, decimal),
/// and checks that it lies in the 32-bit hash space.
///
/// - `text`, `len`: UTF-8 text; `text` must not be NULL, even when `len`
///   is 0.
/// - `boundary_out`: receives the boundary on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`, `BOUND_EMPTY`,
/// `BOUND_SIGN_IN_WRONG_POSITION`, `BOUND_NOT_A_LONG` or
/// `BOUNDARY_OUT_OF_RANGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `text` must point to `len` readable bytes and `boundary_out` must be
/// valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_parse_boundary(
    text: *const u8,
    len: usize,
    boundary_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let text = try_slice!(text, len);
        try_out!(boundary_out).ok(try_ok!(parse_boundary(try_utf8!(text))))
    }
}

/// The admin API's check on a boundary list (`validateFullRange`): as a
/// sorted set of strings, it must start with exactly `0x00000000` and end
/// with exactly `0xffffffff`. It compares text, so `0x0` or `0xFFFFFFFF`
/// fail although they are the right numbers.
///
/// - `boundaries`, `len`: the boundary strings; neither `boundaries` nor
///   any element's `data` may be NULL, even for a length of 0.
///
/// Returns `OK` for a full range, `NOT_FULL_RANGE`, `NO_BOUNDARIES` for an
/// empty list, `NULL_PARAMETER` or `INVALID_UTF8`. Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `boundaries` must point to `len` readable `pulsar_routing_str`s, each
/// of whose `data` points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_validate_full_range(
    boundaries: *const pulsar_routing_str,
    len: usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let boundaries = try_slice!(boundaries, len);
        // Every element checked first, so that NULL wins over bad text.
        let text = |s: &pulsar_routing_str| {
            // SAFETY: this function's contract on each element.
            unsafe { s.bytes() }
        };
        if boundaries.iter().any(|s| text(s).is_none()) {
            return pulsar_routing_status::NullParameter;
        }
        let strings = boundaries.iter().filter_map(text).map(core::str::from_utf8);
        if strings.clone().any(|s| s.is_err()) {
            return pulsar_routing_status::InvalidUtf8;
        }
        try_ok!(validate_full_range(strings.filter_map(Result::ok)));
        pulsar_routing_status::Ok
    }
}

// --- ranges --------------------------------------------------------------

impl pulsar_routing_bundle_range {
    /// Parses a bundle range string as the broker's admin API does
    /// (`NamespaceBundleFactory.getBundle(namespace, "lo_hi")`): split on
    /// `_`, each of the first two parts read by Java's `Long.decode` (`0x`,
    /// `0X`, `#`, octal with a leading `0`, decimal), further parts
    /// ignored.
    ///
    /// - `text`, `len`: UTF-8 text, e.g. `0x40000000_0x80000000`; `text`
    ///   must not be NULL, even when `len` is 0.
    /// - `range_out`: receives the range on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`,
    /// `INVALID_BUNDLE_RANGE` (no `_`), `MISSING_LOWER_BOUND`,
    /// `MISSING_UPPER_BOUND` (Java throws `ArrayIndexOutOfBoundsException`
    /// there), `BOUND_EMPTY`, `BOUND_SIGN_IN_WRONG_POSITION`,
    /// `BOUND_NOT_A_LONG`, `INVALID_RANGE` or `EMPTY_RANGE`. Thread-safe;
    /// allocates nothing.
    ///
    /// # Safety
    /// `text` must point to `len` readable bytes and `range_out` must be
    /// valid for writing a `pulsar_routing_bundle_range`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_range_parse(
        text: *const u8,
        len: usize,
        range_out: *mut pulsar_routing_bundle_range,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let text = try_slice!(text, len);
            try_out!(range_out).ok(try_ok!(BundleRange::parse(try_utf8!(text))).into())
        }
    }

    /// Writes a bundle's name, `0x%08x_0x%08x` of its bounds as Java
    /// formats them (the upper bound printed is the exclusive one, e.g.
    /// `0x00000000_0x40000000`; a negative bound prints as its 64-bit two's
    /// complement).
    ///
    /// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even
    ///   when `buf_len` is 0. No NUL terminator is written; 21 bytes suffice
    ///   for bounds in the hash space, 37 for any.
    /// - `written`: on success, the number of bytes written.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE`, `EMPTY_RANGE`, or
    /// `BUFFER_TOO_SMALL`, in which case nothing is written to `buf` and
    /// `*written` receives the required length. Thread-safe; allocates
    /// nothing.
    ///
    /// # Safety
    /// `buf` must be valid for writing `buf_len` bytes and `written` for
    /// writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_range_name(
        range: pulsar_routing_bundle_range,
        buf: *mut u8,
        buf_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let buf = try_out_buf!(buf, buf_len);
            let written = try_out!(written);
            let range = try_ok!(range.to_core());
            crate::ffi::write_display(range, buf, written)
        }
    }

    /// Writes a bundle's key, `namespace/range`, e.g.
    /// `public/default/0x00000000_0x40000000` (Java's
    /// `NamespaceBundle.toString()`). For a topic's bundle, the namespace is
    /// what `pulsar_routing_topic_name_namespace` writes.
    ///
    /// - `namespace`, `namespace_len`: the namespace's UTF-8 bytes; it must
    ///   not be NULL, even when `namespace_len` is 0.
    /// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even
    ///   when `buf_len` is 0. No NUL terminator is written.
    /// - `written`: on success, the number of bytes written.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE`, `EMPTY_RANGE`,
    /// `INVALID_UTF8`, or `BUFFER_TOO_SMALL`, in which case nothing is
    /// written to `buf` and `*written` receives the required length.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `namespace` must point to `namespace_len` readable bytes, `buf` must
    /// be valid for writing `buf_len` bytes and not overlap `namespace`, and
    /// `written` must be valid for writing a `size_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_range_key(
        range: pulsar_routing_bundle_range,
        namespace: *const u8,
        namespace_len: usize,
        buf: *mut u8,
        buf_len: usize,
        written: *mut usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let namespace = try_slice!(namespace, namespace_len);
            let buf = try_out_buf!(buf, buf_len);
            let written = try_out!(written);
            let range = try_ok!(range.to_core());
            let namespace = try_utf8!(namespace);
            crate::ffi::write_display(range.key(namespace), buf, written)
        }
    }

    /// Whether `hash` falls in the bundle (Java's `NamespaceBundle.includes`):
    /// `lower <= hash < upper`, or `hash == 0xffffffff` too when `upper` is
    /// `0xffffffff`.
    ///
    /// - `includes_out`: receives the answer on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE`.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `includes_out` must be valid for writing a `bool`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_range_includes(
        range: pulsar_routing_bundle_range,
        hash: u32,
        includes_out: *mut bool,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            try_out!(includes_out).ok(try_ok!(range.to_core()).includes(hash))
        }
    }

    /// Whether the bundle can be split (Java's `canSplitBundle`): its bounds
    /// are more than 1 apart.
    ///
    /// - `can_split_out`: receives the answer on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE`.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `can_split_out` must be valid for writing a `bool`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_bundle_range_can_split(
        range: pulsar_routing_bundle_range,
        can_split_out: *mut bool,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            try_out!(can_split_out).ok(try_ok!(range.to_core()).can_split())
        }
    }
}

// --- split algorithms ----------------------------------------------------

/// `range_equally_divide`, the broker's default split algorithm: the middle
/// of the bundle, `lower + (upper - lower) / 2`. For the full range this is
/// `0x7fffffff`, not `0x80000000`.
///
/// - `position_out`: receives the split point on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE` or `EMPTY_RANGE`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `position_out` must be valid for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_range_equally_divide(
    bundle: pulsar_routing_bundle_range,
    position_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        try_out!(position_out).ok(range_equally_divide(try_ok!(bundle.to_core())))
    }
}

/// Writes the split points an algorithm chose (none, for no split) to the
/// caller's array.
fn write_positions(
    positions: &[i64],
    out: crate::ffi::OutBuf<'_, i64>,
    written: crate::ffi::Out<'_, usize>,
) -> pulsar_routing_status {
    try_fits!(out, written, positions.len());
    out.prefix(positions.len()).copy_from_slice(positions);
    written.ok(positions.len())
}

/// `topic_count_equally_divide`: halfway between the two middle hashes of
/// the bundle's topics, or no split for fewer than two topics.
///
/// - `topic_hashes`, `len`: the CRC-32s of the topics the bundle owns. A
///   work array: **the call sorts it in place**. It must not be NULL, even
///   when `len` is 0.
/// - `out`, `out_len`: the split points: none or one; `out` must not be
///   NULL, even when `out_len` is 0.
/// - `written`: on success, the number of split points, 0 for no split.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// `*written` receives 1. Thread-safe (distinct calls need distinct work
/// arrays); allocates nothing.
///
/// # Safety
/// `topic_hashes` must point to `len` readable and writable `uint32_t`s
/// that nothing else uses during the call, `out` must be valid for writing
/// `out_len` `int64_t`s, and `written` for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_topic_count_equally_divide(
    topic_hashes: *mut u32,
    len: usize,
    out: *mut i64,
    out_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let hashes = try_slice_mut!(topic_hashes, len);
        let out = try_out_buf!(out, out_len);
        let written = try_out!(written);
        write_positions(topic_count_equally_divide(hashes).as_slice(), out, written)
    }
}

/// `specified_positions_divide` (and, with `force`, its `_force` variant,
/// which the admin "split at positions" uses): the given positions strictly
/// inside the bundle, sorted. Without `force`, a bundle with at most one
/// topic is not split. Duplicates are kept, as the broker keeps them (the
/// split then fails with `EMPTY_RANGE`).
///
/// - `bundle`: the bundle to split.
/// - `positions`, `len`: the requested positions. A work array: **the call
///   reorders it in place**. It must not be NULL, even when `len` is 0.
/// - `owned_topics`: how many topics the bundle owns.
/// - `out`, `out_len`: the split points kept, at most `len`; `out` must not
///   be NULL, even when `out_len` is 0.
/// - `written`: on success, the number of split points, 0 for no split.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_RANGE`, `EMPTY_RANGE`,
/// `NO_SPLIT_POSITIONS` (for `len` 0, whatever the bundle), or
/// `BUFFER_TOO_SMALL`, in which case `*written` receives the number of
/// points. Thread-safe (distinct calls need distinct work arrays);
/// allocates nothing.
///
/// # Safety
/// `positions` must point to `len` readable and writable `int64_t`s that
/// nothing else uses during the call, `out` must be valid for writing
/// `out_len` `int64_t`s and not overlap `positions`, and `written` must be
/// valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_specified_positions_divide(
    bundle: pulsar_routing_bundle_range,
    positions: *mut i64,
    len: usize,
    owned_topics: usize,
    force: bool,
    out: *mut i64,
    out_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let positions = try_slice_mut!(positions, len);
        let out = try_out_buf!(out, out_len);
        let written = try_out!(written);
        let bundle = try_ok!(bundle.to_core());
        let kept = try_ok!(specified_positions_divide(bundle, positions, owned_topics, force));
        write_positions(kept.unwrap_or(&[]), out, written)
    }
}

/// `flow_or_qps_equally_divide`: walking the topics in hash order, a split
/// point wherever adding the next topic would exceed the message rate or
/// bandwidth limit: halfway between the two hashes **plus one**, as the
/// broker computes it. Topics without traffic are skipped; of two topics
/// with the same hash, the later one's load counts. No split when the
/// bundle is within the limits (plus the threshold) or has fewer than two
/// active topics.
///
/// - `owned_topics`: how many topics the bundle owns.
/// - `loads`, `len`: those of them that have stats, in the broker's topic
///   order. A work array: **the call reorders it in place**. It must not be
///   NULL, even when `len` is 0.
/// - `limits`: the broker's settings.
/// - `out`, `out_len`: the split points; at least `len - 1` elements (the
///   most there can be), which the call may overwrite even past the points
///   it reports. `out` must not be NULL, even when `out_len` is 0.
/// - `written`: on success, the number of split points, 0 for no split.
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL` when `out_len` is
/// below `len - 1`, in which case nothing is written to `out` or `loads`
/// and `*written` receives `len - 1`. Thread-safe (distinct calls need
/// distinct work arrays); allocates nothing.
///
/// # Safety
/// `loads` must point to `len` readable and writable records that nothing
/// else uses during the call, `out` must be valid for writing `out_len`
/// `int64_t`s, and `written` must be valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_flow_or_qps_equally_divide(
    owned_topics: usize,
    loads: *mut pulsar_routing_topic_load,
    len: usize,
    limits: pulsar_routing_flow_limits,
    out: *mut i64,
    out_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    // `flow_or_qps_equally_divide` reorders the caller's array in place, so
    // the C struct must have the core type's exact layout; both are
    // `#[repr(C)]`, and this compile-time check keeps them in step.
    assert_same_layout!(
        pulsar_routing_topic_load,
        TopicLoad,
        hash,
        msg_rate_in,
        msg_rate_out,
        msg_throughput_in,
        msg_throughput_out
    );
    ffi_panic_boundary! {
        let loads: &mut [pulsar_routing_topic_load] = try_slice_mut!(loads, len);
        let out = try_out_buf!(out, out_len);
        let written = try_out!(written);
        let most = len.saturating_sub(1);
        try_fits!(out, written, most);
        // SAFETY: the two types have the same size, alignment and field
        // offsets (checked at compile time above), and every bit pattern
        // is valid for both; the borrow is the caller's array, used only
        // through this slice.
        let loads: &mut [TopicLoad] = unsafe {
            core::slice::from_raw_parts_mut(loads.as_mut_ptr().cast::<TopicLoad>(), loads.len())
        };
        let limits = FlowLimits {
            max_msg_rate: limits.max_msg_rate,
            max_bandwidth_mbytes: limits.max_bandwidth_mbytes,
            threshold_percent: limits.threshold_percent,
        };
        let points = try_bundle!(
            flow_or_qps_equally_divide(owned_topics, loads, limits, out.prefix(most)),
            written
        );
        written.ok(points.map_or(0, <[i64]>::len))
    }
}
