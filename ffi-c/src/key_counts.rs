//! Distinct keys and their summed weights (the owned crate's `key_counts`
//! module), behind one opaque heap handle, `pulsar_routing_key_counts`:
//! the exact sample a capacity plan starts from, counted by the same table
//! as in Python, so that every binding plans from the same counts. This
//! file converts C values and maps errors.

use pulsar_routing_core::batch::KeyOffsets;
use pulsar_routing_owned::key_counts::{KeyCounts, KeyCountsError};

use crate::error::{pulsar_routing_status, status_from};
use crate::ffi::{BoxCastable, free_box, to_boxed_mut_ptr};

/// Distinct keys with their summed weights, and the summed weight of
/// keyless rows: what a capacity plan reads from a key log. An opaque heap
/// handle.
///
/// Made by `pulsar_routing_key_counts_new`, released with
/// `pulsar_routing_key_counts_free`. Keys are bytes, compared as bytes
/// (UTF-8 or not); each distinct key is stored once. The sorted output
/// (`pulsar_routing_key_counts_write_sorted`) is in byte order, as
/// `memcmp` orders keys, a key before the longer keys it begins, so that
/// it does not depend on the order of the rows.
///
/// Weights are finite numbers of at least 0 (a row's message count, bytes,
/// or rate); a negative, NaN or infinite weight is refused with
/// `KEY_COUNTS_INVALID_WEIGHT` and adds nothing.
///
/// Threads: the functions taking a `const pulsar_routing_key_counts *`
/// (`_len`, `_rows`, `_total_key_bytes`, `_keyless_weight`,
/// `_write_sorted`) only read it, and any number of threads may call them
/// at once. Adding and freeing need the counts to themselves: no other call
/// on the same counts may run at the same time.
///
/// Memory: the adds allocate as the table grows (each distinct key's bytes
/// once, plus about 24 bytes of index per key); like every Rust
/// allocation, a failed one aborts the process.
pub struct pulsar_routing_key_counts {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_key_counts {
    type RustType = KeyCounts;
}

status_from! {
    // The C batch takes `count` weights by contract, so only the C++ and
    // Go wrappers, which check their vectors' lengths, report
    // WEIGHTS_LENGTH.
    KeyCountsError {
        KeyCountsError::InvalidWeight { .. } => Self::KeyCountsInvalidWeight,
        KeyCountsError::WeightsLength { .. } => Self::KeyCountsWeightsLength,
        KeyCountsError::TooManyKeys => Self::KeyCountsTooManyKeys,
        KeyCountsError::OutputLength => Self::KeyCountsOutputLength,
        KeyCountsError::KeyTooLong => Self::KeyCountsKeyTooLong,
        _ => Self::Panic,
    }
}

/// Creates empty counts.
///
/// - `out`: on success, receives the new counts, which the caller owns and
///   must release with `pulsar_routing_key_counts_free`.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe. Allocates the handle.
///
/// # Safety
/// `out` must be valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_new(
    out: *mut *mut pulsar_routing_key_counts,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(out);
        out.write(to_boxed_mut_ptr::<pulsar_routing_key_counts>(KeyCounts::new()));
        pulsar_routing_status::Ok
    }
}

/// Releases counts. NULL is a no-op.
///
/// No other thread may be using the counts, and they must not be used or
/// freed again afterwards.
///
/// # Safety
/// `counts` must be NULL or counts from `pulsar_routing_key_counts_new`
/// that have not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_free(counts: *mut pulsar_routing_key_counts) {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `counts`.
        unsafe { free_box(counts) }
    }
}

/// Adds one row: `weight` more for the key `key[0 .. len]` (any bytes; the
/// empty key is a key like any other, not a keyless row).
///
/// - `counts`: counts from `pulsar_routing_key_counts_new`.
/// - `key`, `len`: the key's bytes, copied if the key is new. `key` must
///   not be NULL, even when `len` is 0.
/// - `weight`: a finite number of at least 0 (1 counts rows).
///
/// Returns `OK`, `NULL_PARAMETER`, `KEY_COUNTS_INVALID_WEIGHT` (`weight 0
/// is not a finite number of at least 0`), `KEY_COUNTS_TOO_MANY_KEYS`
/// (past 4294967295 distinct keys) or `KEY_COUNTS_KEY_TOO_LONG` (a key of
/// 4 GiB or more); a failed call adds nothing.
///
/// Not thread-safe on the same counts: the caller has them to itself.
/// Allocates when the key is new and the table is full.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no other thread uses during the call, and `key` must point to `len`
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_add(
    counts: *mut pulsar_routing_key_counts,
    key: *const u8,
    len: usize,
    weight: f64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_mut!(counts);
        let key = try_slice!(key, len);
        try_ok!(counts.add(key, weight));
        pulsar_routing_status::Ok
    }
}

/// Adds one keyless row (a message without a key) of `weight`. Keyless
/// rows count in `_rows` and `_keyless_weight`, not as a key.
///
/// Returns `OK`, `NULL_PARAMETER` or `KEY_COUNTS_INVALID_WEIGHT` (a
/// negative, NaN or infinite `weight`; nothing is added then).
///
/// Not thread-safe on the same counts: the caller has them to itself.
/// Allocates nothing.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no other thread uses during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_add_keyless(
    counts: *mut pulsar_routing_key_counts,
    weight: f64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_mut!(counts);
        try_ok!(counts.add_keyless(weight));
        pulsar_routing_status::Ok
    }
}

/// Adds every key of a batch, laid out as Arrow lays out a string column,
/// as `pulsar_routing_partitions_for_keys` takes it: one row per key, in
/// one call.
///
/// - `counts`: counts from `pulsar_routing_key_counts_new`.
/// - `data`: the keys' bytes, back to back; it holds `offsets[count]`
///   bytes. Must not be NULL, even when every key is empty.
/// - `offsets`: `count + 1` offsets into `data`: key `i` is
///   `data[offsets[i] .. offsets[i + 1]]`. They never decrease;
///   `offsets[0]` need not be 0 (a slice of a column). Must not be NULL,
///   even when `count` is 0.
/// - `count`: the number of keys; 0 adds nothing and succeeds.
/// - `weights`: NULL for a weight of 1 per key, or `count` weights, each a
///   finite number of at least 0.
///
/// Returns `OK`, `NULL_PARAMETER`, `BATCH_NO_OFFSETS` (`count` is
/// `SIZE_MAX`), `BATCH_OFFSET_DECREASES`, `BATCH_OFFSET_PAST_END`,
/// `KEY_COUNTS_INVALID_WEIGHT`, `KEY_COUNTS_TOO_MANY_KEYS` or
/// `KEY_COUNTS_KEY_TOO_LONG`, checked in that order; right after a
/// failure, `pulsar_routing_last_error_message` names the first bad offset
/// or weight (`weight 3 is not a finite number of at least 0`). Bad offsets
/// or weights add nothing; on `KEY_COUNTS_TOO_MANY_KEYS` and
/// `KEY_COUNTS_KEY_TOO_LONG` the keys before the one refused have been
/// added.
///
/// Not thread-safe on the same counts: the caller has them to itself.
/// Allocates as the table grows; borrows its inputs for the call only.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no other thread uses during the call; `offsets` must point to `count +
/// 1` readable `size_t`s, `data` to `offsets[count]` readable bytes, and a
/// non-NULL `weights` to `count` readable `double`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_add_batch(
    counts: *mut pulsar_routing_key_counts,
    data: *const u8,
    offsets: *const usize,
    count: usize,
    weights: *const f64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_mut!(counts);
        if data.is_null() || offsets.is_null() {
            return pulsar_routing_status::NullParameter;
        }
        let Some(offsets_len) = count.checked_add(1) else {
            // No array has `SIZE_MAX + 1` elements.
            return pulsar_routing_status::BatchNoOffsets;
        };
        let offsets = try_slice!(offsets, offsets_len);
        // The last offset ends the data, so nothing past it is read.
        let data = try_slice!(data, offsets[count]);
        let keys = try_ok!(KeyOffsets::new(data, offsets));
        let weights = if weights.is_null() {
            None
        } else {
            Some(try_slice!(weights, count))
        };
        try_ok!(counts.add_batch(keys, weights));
        pulsar_routing_status::Ok
    }
}

/// The number of distinct keys (keyless rows not counted).
///
/// Returns `OK` or `NULL_PARAMETER`; `out` is written on success only.
/// Thread-safe with the other reads of the same counts, not with an add.
/// Allocates nothing.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no add changes during the call, and `out` valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_len(
    counts: *const pulsar_routing_key_counts,
    out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_ref!(counts);
        try_out!(out).write(counts.len());
        pulsar_routing_status::Ok
    }
}

/// The rows added, keyless ones included (a refused call adds none).
///
/// Returns `OK` or `NULL_PARAMETER`; `out` is written on success only.
/// Thread-safe with the other reads of the same counts, not with an add.
/// Allocates nothing.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no add changes during the call, and `out` valid for writing a
/// `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_rows(
    counts: *const pulsar_routing_key_counts,
    out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_ref!(counts);
        try_out!(out).write(counts.rows());
        pulsar_routing_status::Ok
    }
}

/// The bytes of all distinct keys together: the `data_len` that
/// `pulsar_routing_key_counts_write_sorted` needs.
///
/// Returns `OK` or `NULL_PARAMETER`; `out` is written on success only.
/// Thread-safe with the other reads of the same counts, not with an add.
/// Allocates nothing.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no add changes during the call, and `out` valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_total_key_bytes(
    counts: *const pulsar_routing_key_counts,
    out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_ref!(counts);
        try_out!(out).write(counts.total_key_bytes());
        pulsar_routing_status::Ok
    }
}

/// The summed weight of the keyless rows: `*present_out` is false and
/// `*weight_out` 0 when no keyless row was added (a keyless row of weight
/// 0 makes it present with 0).
///
/// Returns `OK` or `NULL_PARAMETER` (neither output is written then).
/// Thread-safe with the other reads of the same counts, not with an add.
/// Allocates nothing.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no add changes during the call, `weight_out` valid for writing a
/// `double` and `present_out` a `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_keyless_weight(
    counts: *const pulsar_routing_key_counts,
    weight_out: *mut f64,
    present_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_ref!(counts);
        let weight_out = try_out!(weight_out);
        let present_out = try_out!(present_out);
        let keyless = counts.keyless_weight();
        weight_out.write(keyless.unwrap_or(0.0));
        present_out.write(keyless.is_some());
        pulsar_routing_status::Ok
    }
}

/// The distinct keys and their weights in byte order, in Arrow's layout:
/// the keys' bytes back to back in `data`, key `i` being
/// `data[offsets[i] .. offsets[i + 1]]` (`offsets[0]` is 0), and its summed
/// weight `weights[i]`.
///
/// - `data`, `data_len`: exactly `_total_key_bytes` bytes. `data` may be
///   NULL only when `data_len` is 0.
/// - `offsets`, `offsets_len`: exactly `_len + 1` offsets. Must not be
///   NULL.
/// - `weights`, `weights_len`: exactly `_len` weights. Must not be NULL,
///   even when `weights_len` is 0.
///
/// Returns `OK`, `NULL_PARAMETER` or `KEY_COUNTS_OUTPUT_LENGTH` (a buffer
/// of another length). A failed call writes nothing.
///
/// Thread-safe with the other reads of the same counts, not with an add.
/// Allocates (and frees before returning) one 12-byte sort entry per key.
///
/// # Safety
/// `counts` must be live counts from `pulsar_routing_key_counts_new` that
/// no add changes during the call; a non-NULL `data` must be valid for
/// writing `data_len` bytes, `offsets` for `offsets_len` `uint64_t`s and
/// `weights` for `weights_len` `double`s, none overlapping another.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_key_counts_write_sorted(
    counts: *const pulsar_routing_key_counts,
    data: *mut u8,
    data_len: usize,
    offsets: *mut u64,
    offsets_len: usize,
    weights: *mut f64,
    weights_len: usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let counts = try_box_ref!(counts);
        // Empty key data has no buffer to point to in many callers (an
        // empty vector's data() may be NULL).
        let data = if data.is_null() && data_len == 0 {
            None
        } else {
            Some(try_out_buf!(data, data_len))
        };
        let offsets = try_out_buf!(offsets, offsets_len);
        let weights = try_out_buf!(weights, weights_len);
        // Checked here, before `prefix` initialises the buffers, so that a
        // refused call writes nothing at all.
        try_ok!(counts.check_output_lengths(data_len, offsets_len, weights_len));
        let data = match data {
            Some(data) => data.prefix(data_len),
            None => &mut [],
        };
        try_ok!(counts.write_sorted(
            data,
            offsets.prefix(offsets_len),
            weights.prefix(weights_len),
        ));
        pulsar_routing_status::Ok
    }
}
