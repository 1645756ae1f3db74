//! A message's sticky key (`Commands.resolveStickyKey`) and its slot in a
//! selector's key hash range.

use pulsar_routing_core::key_shared::{KeyHashRange, MessageKeys, StickyKey};

use super::{
    kind_from_c, pulsar_routing_hash_range, pulsar_routing_selector_kind, put, write_error,
    write_values,
};
use crate::error::pulsar_routing_status;
use crate::text::pulsar_routing_str;

/// The key fields of a message's metadata, as the broker reads them to find
/// the message's sticky key. Borrowed from the caller for one call.
///
/// A field the message does not have is `{NULL, 0}`; a NULL `data` with a
/// non-zero `len` is `NULL_PARAMETER`. An empty key (`{"", 0}`, any
/// non-NULL pointer) is a key.
///
/// The sticky key is the first of: the ordering key; the partition key
/// (Base64-decoded when `partition_key_b64_encoded`, which `keyBytes(...)`
/// sets); `producer_name + "-" + sequence_id` (since 4.0, when both are
/// set); the 8 bytes `NONE_KEY`. A Base64 partition key that Java cannot
/// decode makes the broker hash `NONE_KEY`, and so does this library
/// (`pulsar_routing_message_keys_check` tells).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_message_keys {
    /// `ordering_key`, set by `TypedMessageBuilder.orderingKey`, or
    /// `{NULL, 0}`.
    pub ordering_key: pulsar_routing_str,
    /// `partition_key`: the UTF-8 bytes of the key string, or its Base64
    /// text when `partition_key_b64_encoded`; `{NULL, 0}` for none.
    pub partition_key: pulsar_routing_str,
    /// `producer_name`, or `{NULL, 0}`.
    pub producer_name: pulsar_routing_str,
    /// `sequence_id`, used only when `has_sequence_id`. A protobuf `uint64`
    /// that Java prints as a signed `long`.
    pub sequence_id: u64,
    /// `partition_key_b64_encoded`, set by `keyBytes(...)`.
    pub partition_key_b64_encoded: bool,
    /// Whether the message has a `sequence_id`.
    pub has_sequence_id: bool,
}

/// An optional field: `{NULL, 0}` is absent.
///
/// # Safety
/// A non-NULL `data` points to `len` bytes unchanged during `'a`.
unsafe fn optional<'a>(s: pulsar_routing_str) -> Result<Option<&'a [u8]>, pulsar_routing_status> {
    match (s.data.is_null(), s.len) {
        (true, 0) => Ok(None),
        (true, _) => Err(pulsar_routing_status::NullParameter),
        // SAFETY: this function's contract.
        (false, _) => Ok(unsafe { s.bytes() }),
    }
}

impl pulsar_routing_message_keys {
    /// The core view of the fields.
    ///
    /// # Safety
    /// Every non-NULL `data` points to `len` bytes unchanged during `'a`.
    pub(crate) unsafe fn to_core<'a>(self) -> Result<MessageKeys<'a>, pulsar_routing_status> {
        // SAFETY: this function's contract, for each field.
        let (ordering_key, partition_key, producer_name) = unsafe {
            (
                optional(self.ordering_key)?,
                optional(self.partition_key)?,
                optional(self.producer_name)?,
            )
        };
        Ok(MessageKeys {
            ordering_key,
            partition_key,
            partition_key_b64_encoded: self.partition_key_b64_encoded,
            producer_name,
            sequence_id: self.has_sequence_id.then_some(self.sequence_id),
        })
    }
}

/// The sticky key of the message whose fields `ptr` points to:
/// NULL_PARAMETER for a NULL pointer or a NULL field with a length.
///
/// # Safety
/// `ptr` is NULL or points to a readable struct whose non-NULL fields point
/// to their `len` bytes, all unchanged during `'a`.
pub(crate) unsafe fn read_sticky_key<'a>(
    ptr: *const pulsar_routing_message_keys,
) -> Result<StickyKey<'a>, pulsar_routing_status> {
    // SAFETY: this function's contract.
    match unsafe { ptr.as_ref() } {
        // SAFETY: this function's contract on the fields.
        Some(keys) => unsafe { keys.to_core() }.map(|keys| keys.sticky_key()),
        None => Err(pulsar_routing_status::NullParameter),
    }
}

/// Writes the slot of the `len` key bytes at `key` in the range `range`
/// gives, which is asked for once the pointers are checked.
///
/// # Safety
/// `key` must point to `len` readable bytes and `slot_out` must be valid for
/// writing a `uint32_t`.
unsafe fn write_slot(
    key: *const u8,
    len: usize,
    slot_out: *mut u32,
    range: impl FnOnce() -> Result<KeyHashRange, pulsar_routing_status>,
) -> pulsar_routing_status {
    let key = try_slice!(key, len);
    let out = try_out!(slot_out);
    let range = try_ok!(range());
    put(out, range.slot_of(key))
}

/// The slot of raw sticky-key bytes under a selector kind's default range:
/// Python's `sticky_key_hash(key, selector)`. `murmur3_31(key) % 65536`
/// (0 becomes 1) for AutoSplit and Exclusive, `murmur3_31(key) % 65535 + 1`
/// for consistent hashing.
///
/// - `key`, `len`: the sticky key's bytes (already resolved: the ordering
///   key, the decoded partition key, ...); `key` must not be NULL, even
///   when `len` is 0.
/// - `slot_out`: receives the slot on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_SELECTOR_KIND`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `slot_out` must be valid for
/// writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sticky_key_hash(
    key: *const u8,
    len: usize,
    kind: pulsar_routing_selector_kind,
    slot_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_slot(key, len, slot_out, || Ok(kind_from_c(kind)?.key_hash_range())) }
    }
}

/// The slot of raw sticky-key bytes in an explicit key hash range
/// `[start, end]`: `murmur3_31(key) % (end - start + 1) + start`, 0 becoming
/// 1 (`StickyKeyConsumerSelectorUtils.makeStickyKeyHash`).
///
/// - `key`, `len`: the sticky key's bytes; `key` must not be NULL, even
///   when `len` is 0.
/// - `range`: the selector's key hash range, e.g. `{0, 65535}`,
///   `{1, 65535}` or the Classic dispatcher's `{1, 2147483646}`.
/// - `slot_out`: receives the slot on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_END_BEFORE_START` or
/// `KEY_HASH_RANGE_TOO_LARGE` (a negative start, or more than 2147483647
/// slots). Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `slot_out` must be valid for
/// writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_slot_of(
    key: *const u8,
    len: usize,
    range: pulsar_routing_hash_range,
    slot_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_slot(key, len, slot_out, || range.to_key_hash_range()) }
    }
}

/// `pulsar_routing_slot_of` for many keys at once.
///
/// - `keys`, `num_keys`: the sticky keys' bytes; `keys` must not be NULL,
///   even when `num_keys` is 0, and no key's `data` may be NULL (an empty
///   key is any non-NULL pointer with `len` 0).
/// - `range`: the key hash range.
/// - `slots`, `slots_len`: the output, one slot per key, in order; `slots`
///   must not be NULL, even when `slots_len` is 0.
/// - `written`: on success, the number of slots written (`num_keys`).
///
/// Returns `OK`, `NULL_PARAMETER` (also for a key with a NULL `data`),
/// `RANGE_END_BEFORE_START`, `KEY_HASH_RANGE_TOO_LARGE`, or
/// `BUFFER_TOO_SMALL`, in which case nothing is written to `slots` and
/// `*written` receives `num_keys`. Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to `num_keys` readable `pulsar_routing_str`s, each
/// `data` to its `len` bytes; `slots` must be valid for writing `slots_len`
/// `uint32_t`s and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_slots_of(
    keys: *const pulsar_routing_str,
    num_keys: usize,
    range: pulsar_routing_hash_range,
    slots: *mut u32,
    slots_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let keys = try_slice!(keys, num_keys);
        let slots = try_out_buf!(slots, slots_len);
        let written = try_out!(written);
        if keys.iter().any(|k| k.data.is_null()) {
            return pulsar_routing_status::NullParameter;
        }
        let range = try_ok!(range.to_key_hash_range());
        // SAFETY: the caller's contract on each key; none is NULL.
        let slot = |key: &pulsar_routing_str| range.slot_of(unsafe { key.bytes() }.unwrap_or_default());
        write_values(slots, written, keys.len(), keys.iter().map(slot))
    }
}

/// Writes a message's sticky key: the bytes the broker hashes.
///
/// - `keys`: the message's key fields; see `pulsar_routing_message_keys`.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. No NUL terminator.
/// - `written`: on success, the number of bytes written (0 for an empty
///   key).
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to a readable `pulsar_routing_message_keys` whose
/// fields are as it describes, `buf` must be valid for writing `buf_len`
/// bytes and not overlap the fields, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_message_keys_sticky_key(
    keys: *const pulsar_routing_message_keys,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        let buf = try_out_buf!(buf, buf_len);
        let written = try_out!(written);
        let needed = key.len();
        try_fits!(buf, written, needed);
        match key.write_to(buf.prefix(needed)) {
            Some(n) => put(written, n),
            // The length was just measured; a mismatch is a bug.
            None => pulsar_routing_status::Panic,
        }
    }
}

/// Pulsar's 31-bit Murmur3 of a message's sticky key
/// (`Murmur3_32Hash.makeHash`), which every selector then reduces to a
/// slot. The key is streamed, never built.
///
/// - `keys`: the message's key fields; see `pulsar_routing_message_keys`.
/// - `hash_out`: receives the hash, in `0..=0x7fffffff`, on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to a readable `pulsar_routing_message_keys` whose
/// fields are as it describes, and `hash_out` must be valid for writing a
/// `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_message_keys_murmur3(
    keys: *const pulsar_routing_message_keys,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        put(try_out!(hash_out), key.murmur3())
    }
}

/// The slot of a message's sticky key in a key hash range: its 31-bit
/// Murmur3 modulo the range's size, plus its start, 0 becoming 1.
///
/// - `keys`: the message's key fields; see `pulsar_routing_message_keys`.
/// - `range`: the selector's key hash range
///   (`pulsar_routing_selector_kind_key_hash_range`,
///   `pulsar_routing_selector_key_hash_range`, or explicit).
/// - `slot_out`: receives the slot on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `RANGE_END_BEFORE_START` or
/// `KEY_HASH_RANGE_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to a readable `pulsar_routing_message_keys` whose
/// fields are as it describes, and `slot_out` must be valid for writing a
/// `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_message_keys_slot(
    keys: *const pulsar_routing_message_keys,
    range: pulsar_routing_hash_range,
    slot_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        let out = try_out!(slot_out);
        let range: KeyHashRange = try_ok!(range.to_key_hash_range());
        put(out, range.slot(&key))
    }
}

/// Whether the broker can decode a message's sticky key: `OK`, unless the
/// sticky key is a Base64 partition key (`partition_key_b64_encoded`, no
/// ordering key) that Java's decoder rejects, in which case the broker
/// hashes `NONE_KEY` instead, as every function here does.
///
/// - `keys`: the message's key fields; see `pulsar_routing_message_keys`.
///
/// Returns `OK`, `NULL_PARAMETER`, `BASE64_TOO_SHORT`,
/// `BASE64_ILLEGAL_CHARACTER`, `BASE64_WRONG_ENDING_UNIT`,
/// `BASE64_NOT_ENOUGH_BITS` or `BASE64_INCORRECT_ENDING_BYTE`;
/// `pulsar_routing_message_keys_error_message` writes Java's message.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to a readable `pulsar_routing_message_keys` whose
/// fields are as it describes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_message_keys_check(
    keys: *const pulsar_routing_message_keys,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        match key.base64_error() {
            Some(e) => pulsar_routing_status::from(e),
            None => pulsar_routing_status::Ok,
        }
    }
}

/// Writes Java's `IllegalArgumentException` message for a sticky key that
/// `pulsar_routing_message_keys_check` rejects, e.g. `Illegal base64
/// character 2e`.
///
/// - `keys`: the message's key fields; see `pulsar_routing_message_keys`.
/// - `buf`, `buf_len`: the output buffer; `buf` must not be NULL, even when
///   `buf_len` is 0. UTF-8, no NUL terminator.
/// - `written`: on success, the number of bytes written; 0 when the key is
///   fine (nothing is written to `buf`).
///
/// Returns `OK`, `NULL_PARAMETER`, or `BUFFER_TOO_SMALL`, in which case
/// nothing is written to `buf` and `*written` receives the required length.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `keys` must point to a readable `pulsar_routing_message_keys` whose
/// fields are as it describes, `buf` must be valid for writing `buf_len`
/// bytes, and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_message_keys_error_message(
    keys: *const pulsar_routing_message_keys,
    buf: *mut u8,
    buf_len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `keys`.
        let key = try_ok!(unsafe { read_sticky_key(keys) });
        write_error(key.base64_error(), try_out_buf!(buf, buf_len), try_out!(written))
    }
}
