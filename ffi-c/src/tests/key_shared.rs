//! The Key_Shared functions, called the way C would: NULLs, unknown enum
//! values, bad ranges and configs, short buffers (left untouched), wrong
//! selector kinds, every core error's status and message, and every answer
//! against the core selectors, side by side.

use core::ffi::CStr;
use core::ptr::{null, null_mut};

use crate::error::{pulsar_routing_status as S, pulsar_routing_status_message};
use crate::key_shared::selector::*;
use crate::key_shared::sticky_key::*;
use crate::key_shared::*;
use crate::text::pulsar_routing_str;
use pulsar_routing_core::key_shared::{
    AssignError, AutoSplitConfig, AutoSplitSelector, ConfigError, ConsistentHashingConfig,
    ConsistentHashingSelector, DEFAULT_HASH_RANGE_SIZE, DEFAULT_POINTS, ExclusiveConfig,
    ExclusiveMode, ExclusiveSelector, HashRange, InvalidBase64, KeyHashRange, KeySharedPolicyError,
    MessageKeys, SelectorKind, StickyKey, UnknownSelectorKind, ring_point, validate_sticky_ranges,
};

const U32_SENTINEL: u32 = 0xdead_beef;
const U64_SENTINEL: u64 = 0x0bad_cafe_dead_beef;
const I64_SENTINEL: i64 = -0x5a5a_5a5a;
const USIZE_SENTINEL: usize = 0x5eed;
const RANGE_SENTINEL: pulsar_routing_hash_range = pulsar_routing_hash_range {
    start: -77,
    end: -88,
};
const RECORD_SENTINEL: pulsar_routing_assignment = pulsar_routing_assignment {
    start: -1,
    end: -2,
    consumer: U64_SENTINEL,
};

fn range(start: i32, end: i32) -> pulsar_routing_hash_range {
    pulsar_routing_hash_range { start, end }
}

fn text(s: &[u8]) -> pulsar_routing_str {
    pulsar_routing_str {
        data: s.as_ptr(),
        len: s.len(),
    }
}

const ABSENT: pulsar_routing_str = pulsar_routing_str {
    data: null(),
    len: 0,
};

fn message(
    ordering_key: Option<&[u8]>,
    partition_key: Option<&[u8]>,
    b64: bool,
    producer_name: Option<&[u8]>,
    sequence_id: Option<u64>,
) -> pulsar_routing_message_keys {
    pulsar_routing_message_keys {
        ordering_key: ordering_key.map_or(ABSENT, text),
        partition_key: partition_key.map_or(ABSENT, text),
        producer_name: producer_name.map_or(ABSENT, text),
        sequence_id: sequence_id.unwrap_or(0),
        partition_key_b64_encoded: b64,
        has_sequence_id: sequence_id.is_some(),
    }
}

fn message_text(status: S) -> &'static str {
    // SAFETY: the function returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(pulsar_routing_status_message(status as u32)) }
        .to_str()
        .unwrap()
}

// --- a safe wrapper over a selector handle ------------------------------------

/// A live selector handle, freed on drop.
struct Handle(*mut pulsar_routing_selector);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live handle from a constructor, freed once.
        unsafe { pulsar_routing_selector_free(self.0) }
    }
}

fn new_with(make: impl FnOnce(*mut *mut pulsar_routing_selector) -> S) -> Result<Handle, S> {
    let mut out = 0x1234 as *mut pulsar_routing_selector;
    match make(&mut out) {
        S::Ok => {
            assert!(!out.is_null());
            Ok(Handle(out))
        }
        status => {
            assert_eq!(out as usize, 0x1234, "out-parameter written on failure");
            Err(status)
        }
    }
}

fn auto_split(range_size: i32, max_consumers: u32) -> Result<Handle, S> {
    let config = pulsar_routing_auto_split_config {
        range_size,
        max_consumers,
    };
    // SAFETY: a live out-parameter.
    new_with(|out| unsafe { pulsar_routing_selector_new_auto_split(config, out) })
}

fn consistent(
    points: u32,
    range_max: u32,
    max_consumers: u32,
    name_bytes: u32,
) -> Result<Handle, S> {
    let config = pulsar_routing_consistent_hashing_config {
        points,
        range_max,
        max_consumers,
        name_bytes,
    };
    // SAFETY: a live out-parameter.
    new_with(|out| unsafe { pulsar_routing_selector_new_consistent_hashing(config, out) })
}

fn exclusive(max_consumers: u32, max_ranges: u32, mode: u32) -> Result<Handle, S> {
    let config = pulsar_routing_exclusive_config {
        max_consumers,
        max_ranges,
        mode,
    };
    // SAFETY: a live out-parameter.
    new_with(|out| unsafe { pulsar_routing_selector_new_exclusive(config, out) })
}

type Triple = (i32, i32, u64);

fn triples(records: &[pulsar_routing_assignment]) -> Vec<Triple> {
    records
        .iter()
        .map(|r| (r.start, r.end, r.consumer))
        .collect()
}

fn core_triples(
    it: impl Iterator<Item = pulsar_routing_core::key_shared::Assignment>,
) -> Vec<Triple> {
    it.map(|a| a.as_tuple()).collect()
}

fn core_impact(i: pulsar_routing_core::key_shared::Impact<'_>) -> (Vec<Triple>, Vec<Triple>) {
    let side = |it: pulsar_routing_core::key_shared::ImpactRanges<'_>| {
        it.map(|(c, r)| (r.start, r.end, c)).collect()
    };
    (side(i.removed()), side(i.added()))
}

/// Calls a `(buf, buf_len, written)` function the C way: first with a
/// buffer one short (which must be left untouched), then with the size it
/// asked for.
fn read_records<T: Copy + PartialEq + core::fmt::Debug>(
    sentinel: T,
    mut call: impl FnMut(*mut T, usize, *mut usize) -> S,
) -> Result<Vec<T>, S> {
    let mut written = USIZE_SENTINEL;
    let mut probe = [sentinel; 1];
    let needed = match call(probe.as_mut_ptr(), 0, &mut written) {
        S::Ok => {
            assert_eq!(written, 0);
            assert_eq!(probe[0], sentinel, "an empty result wrote the buffer");
            return Ok(Vec::new());
        }
        S::BufferTooSmall => written,
        status => {
            assert_eq!(written, USIZE_SENTINEL, "written set on {status:?}");
            return Err(status);
        }
    };
    assert_eq!(probe[0], sentinel, "a short buffer was written");
    let mut short = vec![sentinel; needed - 1];
    let mut short_written = USIZE_SENTINEL;
    assert_eq!(
        call(short.as_mut_ptr(), short.len(), &mut short_written),
        S::BufferTooSmall
    );
    assert_eq!(short_written, needed);
    assert!(
        short.iter().all(|r| *r == sentinel),
        "a short buffer was written"
    );
    let mut buf = vec![sentinel; needed + 1];
    let mut got = USIZE_SENTINEL;
    assert_eq!(call(buf.as_mut_ptr(), buf.len(), &mut got), S::Ok);
    assert_eq!(got, needed);
    assert_eq!(buf[needed], sentinel, "wrote past the result");
    buf.truncate(needed);
    Ok(buf)
}

fn read_text(call: impl FnMut(*mut u8, usize, *mut usize) -> S) -> Result<String, S> {
    read_records(0xa5u8, call).map(|bytes| String::from_utf8(bytes).unwrap())
}

impl Handle {
    fn ptr(&self) -> *const pulsar_routing_selector {
        self.0
    }

    fn add(&self, consumer: u64) -> S {
        // SAFETY: a live handle used by this thread only.
        unsafe { pulsar_routing_selector_add(self.0, consumer) }
    }

    fn add_named(&self, consumer: u64, name: &str) -> S {
        // SAFETY: as above, and a live name.
        unsafe { pulsar_routing_selector_add_named(self.0, consumer, name.as_ptr(), name.len()) }
    }

    fn add_ranges(&self, consumer: u64, ranges: Option<&[pulsar_routing_hash_range]>) -> S {
        let (ptr, len) = ranges.map_or((null(), 7), |r| (r.as_ptr(), r.len()));
        // SAFETY: as above, and a live (or NULL) range array.
        unsafe { pulsar_routing_selector_add_ranges(self.0, consumer, ptr, len) }
    }

    fn remove(&self, consumer: u64) -> S {
        // SAFETY: a live handle used by this thread only.
        unsafe { pulsar_routing_selector_remove(self.0, consumer) }
    }

    fn reserve(&self, capacity: pulsar_routing_selector_capacity) -> S {
        // SAFETY: a live handle used by this thread only.
        unsafe { pulsar_routing_selector_reserve(self.0, capacity) }
    }

    fn capacity(&self) -> pulsar_routing_selector_capacity {
        let mut out = pulsar_routing_selector_capacity::default();
        assert_eq!(
            // SAFETY: a live handle and out-parameter.
            unsafe { pulsar_routing_selector_get_capacity(self.0, &mut out) },
            S::Ok
        );
        out
    }

    fn select(&self, slot: u32) -> Result<u64, S> {
        let mut out = U64_SENTINEL;
        // SAFETY: a live handle and out-parameter.
        match unsafe { pulsar_routing_selector_select(self.0, slot, &mut out) } {
            S::Ok => Ok(out),
            status => {
                assert_eq!(out, U64_SENTINEL);
                Err(status)
            }
        }
    }

    fn select_key(&self, key: &[u8]) -> Result<u64, S> {
        let mut out = U64_SENTINEL;
        // SAFETY: a live handle, key and out-parameter.
        match unsafe {
            pulsar_routing_selector_select_key(self.0, key.as_ptr(), key.len(), &mut out)
        } {
            S::Ok => Ok(out),
            status => {
                assert_eq!(out, U64_SENTINEL);
                Err(status)
            }
        }
    }

    fn select_message(&self, keys: &pulsar_routing_message_keys) -> Result<u64, S> {
        let mut out = U64_SENTINEL;
        // SAFETY: a live handle, keys and out-parameter.
        match unsafe { pulsar_routing_selector_select_message(self.0, keys, &mut out) } {
            S::Ok => Ok(out),
            status => {
                assert_eq!(out, U64_SENTINEL);
                Err(status)
            }
        }
    }

    fn assignments(&self) -> Vec<Triple> {
        // SAFETY: a live handle; the buffers come from `read_records`.
        let records = read_records(RECORD_SENTINEL, |buf, len, written| unsafe {
            pulsar_routing_selector_assignments(self.0, buf, len, written)
        });
        triples(&records.unwrap())
    }

    fn consumer_ranges(&self) -> Vec<Triple> {
        // SAFETY: as above.
        let records = read_records(RECORD_SENTINEL, |buf, len, written| unsafe {
            pulsar_routing_selector_consumer_ranges(self.0, buf, len, written)
        });
        triples(&records.unwrap())
    }

    fn ranges_of(&self, consumer: u64) -> Vec<(i32, i32)> {
        // SAFETY: as above.
        let records = read_records(RANGE_SENTINEL, |buf, len, written| unsafe {
            pulsar_routing_selector_ranges_of(self.0, consumer, buf, len, written)
        });
        records.unwrap().iter().map(|r| (r.start, r.end)).collect()
    }

    fn impact(&self) -> (Vec<Triple>, Vec<Triple>) {
        let (mut removed_n, mut added_n) = (USIZE_SENTINEL, USIZE_SENTINEL);
        let mut probe = [RECORD_SENTINEL; 1];
        let mut probe2 = [RECORD_SENTINEL; 1];
        // SAFETY: a live handle; empty buffers.
        let status = unsafe {
            pulsar_routing_selector_last_impact(
                self.0,
                probe.as_mut_ptr(),
                0,
                &mut removed_n,
                probe2.as_mut_ptr(),
                0,
                &mut added_n,
            )
        };
        assert!(status == S::Ok || status == S::BufferTooSmall);
        assert_eq!(status == S::Ok, removed_n == 0 && added_n == 0);
        assert_eq!([probe[0], probe2[0]], [RECORD_SENTINEL; 2]);
        let mut removed = vec![RECORD_SENTINEL; removed_n];
        let mut added = vec![RECORD_SENTINEL; added_n];
        let (mut r, mut a) = (USIZE_SENTINEL, USIZE_SENTINEL);
        // SAFETY: as above, with buffers of the sizes asked for.
        let status = unsafe {
            pulsar_routing_selector_last_impact(
                self.0,
                removed.as_mut_ptr(),
                removed.len(),
                &mut r,
                added.as_mut_ptr(),
                added.len(),
                &mut a,
            )
        };
        assert_eq!(status, S::Ok);
        assert_eq!((r, a), (removed_n, added_n));
        (triples(&removed), triples(&added))
    }

    fn last_error(&self) -> String {
        // SAFETY: a live handle; the buffers come from `read_text`.
        read_text(|buf, len, written| unsafe {
            pulsar_routing_selector_last_error_message(self.0, buf, len, written)
        })
        .unwrap()
    }

    fn len(&self) -> usize {
        let mut n = USIZE_SENTINEL;
        assert_eq!(
            // SAFETY: a live handle and out-parameter.
            unsafe { pulsar_routing_selector_len(self.0, &mut n) },
            S::Ok
        );
        n
    }

    fn contains(&self, consumer: u64) -> bool {
        let mut b = false;
        assert_eq!(
            // SAFETY: a live handle and out-parameter.
            unsafe { pulsar_routing_selector_contains(self.0, consumer, &mut b) },
            S::Ok
        );
        b
    }

    fn kind(&self) -> u32 {
        let mut k = U32_SENTINEL;
        assert_eq!(
            // SAFETY: a live handle and out-parameter.
            unsafe { pulsar_routing_selector_get_kind(self.0, &mut k) },
            S::Ok
        );
        k
    }

    fn key_hash_range(&self) -> pulsar_routing_hash_range {
        let mut r = RANGE_SENTINEL;
        assert_eq!(
            // SAFETY: a live handle and out-parameter.
            unsafe { pulsar_routing_selector_key_hash_range(self.0, &mut r) },
            S::Ok
        );
        r
    }

    fn name_index(&self, consumer: u64) -> Result<i64, S> {
        let mut i = I64_SENTINEL;
        // SAFETY: a live handle and out-parameter.
        match unsafe { pulsar_routing_selector_name_index(self.0, consumer, &mut i) } {
            S::Ok => Ok(i),
            status => {
                assert_eq!(i, I64_SENTINEL);
                Err(status)
            }
        }
    }

    fn ring_points(&self, consumer: u64) -> Result<Vec<u32>, S> {
        // SAFETY: a live handle; the buffers come from `read_records`.
        read_records(U32_SENTINEL, |buf, len, written| unsafe {
            pulsar_routing_selector_ring_points(self.0, consumer, buf, len, written)
        })
    }
}

// --- statuses ---------------------------------------------------------------------

#[test]
fn every_core_error_has_its_status_and_message() {
    let with_values: &[S] = &[
        S::NoMoreRange,
        S::HashRangeStartAfterEnd,
        S::OwnHashRangesConflict,
        S::HashRangeConflict,
        S::DuplicateConsumer,
        S::ConsumerCapacity,
        S::RangeCapacity,
        S::StorageTooSmall,
        S::StickyRangeOutOfBounds,
        S::StickyRangesOverlap,
        S::Base64IllegalCharacter,
        S::Base64IncorrectEndingByte,
    ];
    let check = |status: S, display: String, java: Option<&str>| {
        assert!((600..700).contains(&(status as u32)), "{status:?}");
        let fixed = message_text(status);
        if status == S::DuplicateConsumer {
            assert_eq!(display.replace(" 7 ", " "), fixed);
        } else if with_values.contains(&status) {
            // The static text is the message up to the values it quotes.
            assert!(
                display.starts_with(fixed),
                "{status:?}: {display:?} vs {fixed:?}"
            );
            assert!(display.len() > fixed.len(), "{status:?}");
        } else {
            assert_eq!(fixed, display, "{status:?}");
        }
        let class = pulsar_routing_key_shared_error_class(status as u32);
        let class = (!class.is_null()).then(|| {
            // SAFETY: a non-NULL result is a static C string.
            unsafe { CStr::from_ptr(class) }.to_str().unwrap()
        });
        assert_eq!(class, java, "{status:?}");
    };
    let r = HashRange::new(5, 1);
    let config_errors = [
        (ConfigError::RangeSizeTooSmall, S::RangeSizeTooSmall),
        (
            ConfigError::RangeSizeNotPowerOfTwo,
            S::RangeSizeNotPowerOfTwo,
        ),
        (ConfigError::RangeEndBeforeStart, S::RangeEndBeforeStart),
        (ConfigError::KeyHashRangeTooLarge, S::KeyHashRangeTooLarge),
        (ConfigError::CapacityTooLarge, S::SelectorCapacityTooLarge),
        (ConfigError::CannotGrowInto, S::CannotGrowInto),
        (
            ConfigError::StorageTooSmall { needed: 9, got: 2 },
            S::StorageTooSmall,
        ),
    ];
    for (e, status) in config_errors {
        assert_eq!(S::from(e), status);
        let java = matches!(
            e,
            ConfigError::RangeSizeTooSmall
                | ConfigError::RangeSizeNotPowerOfTwo
                | ConfigError::RangeEndBeforeStart
        )
        .then_some("IllegalArgumentException");
        check(status, e.to_string(), java);
    }
    let assign_errors = [
        (
            AssignError::NoMoreRange {
                assigned_consumers: 3,
            },
            S::NoMoreRange,
        ),
        (AssignError::MissingKeySharedMeta, S::MissingKeySharedMeta),
        (AssignError::EmptyRanges, S::EmptyHashRanges),
        (
            AssignError::StartAfterEnd { range: r },
            S::HashRangeStartAfterEnd,
        ),
        (
            AssignError::LegacyStartAfterEnd,
            S::LegacyHashRangeStartAfterEnd,
        ),
        (
            AssignError::OwnRangesConflict { range: r, next: r },
            S::OwnHashRangesConflict,
        ),
        (
            AssignError::RangeConflict { consumer: 7 },
            S::HashRangeConflict,
        ),
        (
            AssignError::DuplicateConsumer { consumer: 7 },
            S::DuplicateConsumer,
        ),
        (
            AssignError::ConsumerCapacity { max_consumers: 2 },
            S::ConsumerCapacity,
        ),
        (AssignError::NameCapacity, S::NameCapacity),
        (
            AssignError::RangeCapacity { max_ranges: 2 },
            S::RangeCapacity,
        ),
    ];
    for (e, status) in assign_errors {
        assert_eq!(S::from(e), status);
        check(status, e.to_string(), e.java_class());
    }
    let policy_errors = [
        (
            KeySharedPolicyError::RangeEndBeforeStart,
            S::StickyRangeEndBeforeStart,
        ),
        (KeySharedPolicyError::EmptyRanges, S::StickyRangesEmpty),
        (
            KeySharedPolicyError::OutOfBounds { range: r },
            S::StickyRangeOutOfBounds,
        ),
        (
            KeySharedPolicyError::Overlap { range: r, other: r },
            S::StickyRangesOverlap,
        ),
    ];
    for (e, status) in policy_errors {
        assert_eq!(S::from(e), status);
        check(status, e.to_string(), Some("IllegalArgumentException"));
    }
    let base64_errors = [
        (InvalidBase64::TooShort, S::Base64TooShort),
        (
            InvalidBase64::IllegalCharacter(b'.'),
            S::Base64IllegalCharacter,
        ),
        (InvalidBase64::WrongEndingUnit, S::Base64WrongEndingUnit),
        (InvalidBase64::NotEnoughBits, S::Base64NotEnoughBits),
        (
            InvalidBase64::IncorrectEndingByte(8),
            S::Base64IncorrectEndingByte,
        ),
    ];
    for (e, status) in base64_errors {
        assert_eq!(S::from(e), status);
        check(status, e.to_string(), Some("IllegalArgumentException"));
    }
    assert_eq!(S::from(UnknownSelectorKind), S::UnknownSelectorKind);
    assert_eq!(
        message_text(S::UnknownSelectorKind),
        UnknownSelectorKind.to_string()
    );
    for status in [S::Ok, S::NoConsumer, S::ConsumerNotFound, S::InvalidUtf8] {
        assert!(pulsar_routing_key_shared_error_class(status as u32).is_null());
    }
    assert!(pulsar_routing_key_shared_error_class(12345).is_null());
}

// --- kinds, slots, sticky keys -----------------------------------------------------

#[test]
fn selector_kinds() {
    let kinds = [
        (
            PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT,
            SelectorKind::AutoSplit,
        ),
        (
            PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING,
            SelectorKind::ConsistentHashing,
        ),
        (
            PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE,
            SelectorKind::Exclusive,
        ),
    ];
    for (c, kind) in kinds {
        // The kind table is indexed by the C values.
        assert_eq!(kind_from_c(c), Ok(kind));
        assert_eq!(kind_to_c(kind), c);
        let name = pulsar_routing_selector_kind_name(c);
        // SAFETY: a static C string.
        let name = unsafe { CStr::from_ptr(name) }.to_str().unwrap();
        assert_eq!(name, kind.name());
        let mut parsed = U32_SENTINEL;
        // SAFETY: live name and out-parameter.
        let status = unsafe {
            pulsar_routing_selector_kind_from_name(name.as_ptr(), name.len(), &mut parsed)
        };
        assert_eq!((status, parsed), (S::Ok, c));
        let mut r = RANGE_SENTINEL;
        assert_eq!(
            // SAFETY: a live out-parameter.
            unsafe { pulsar_routing_selector_kind_key_hash_range(c, &mut r) },
            S::Ok
        );
        let expected = kind.key_hash_range();
        assert_eq!(
            (r.start as u32, r.end as u32),
            (expected.start(), expected.end())
        );
    }
    assert!(pulsar_routing_selector_kind_name(3).is_null());
    let mut parsed = U32_SENTINEL;
    let mut r = RANGE_SENTINEL;
    // SAFETY: live arguments, or NULLs the functions reject.
    unsafe {
        for bad in [&b"AutoSplit"[..], b"", b"\xff"] {
            assert_eq!(
                pulsar_routing_selector_kind_from_name(bad.as_ptr(), bad.len(), &mut parsed),
                S::UnknownSelectorKind
            );
        }
        assert_eq!(
            pulsar_routing_selector_kind_from_name(null(), 0, &mut parsed),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_selector_kind_from_name(b"exclusive".as_ptr(), 9, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_selector_kind_key_hash_range(3, &mut r),
            S::UnknownSelectorKind
        );
        assert_eq!(
            pulsar_routing_selector_kind_key_hash_range(0, null_mut()),
            S::NullParameter
        );
    }
    assert_eq!(parsed, U32_SENTINEL);
    assert_eq!(r, RANGE_SENTINEL);
    // The header's constants are the core's.
    assert_eq!(
        PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS,
        DEFAULT_POINTS
    );
    assert_eq!(PULSAR_ROUTING_DEFAULT_RANGE_SIZE, DEFAULT_HASH_RANGE_SIZE);
    assert_eq!(
        PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX,
        KeyHashRange::CONSISTENT_HASHING.end()
    );
    assert_eq!(
        PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX,
        KeyHashRange::CLASSIC_CONSISTENT_HASHING.end()
    );
}

const KEYS: [&[u8]; 8] = [
    b"",
    b"NONE_KEY",
    b"order-17",
    b"\x00\xff\x80 binary",
    "ключ-😀".as_bytes(),
    b"a",
    b"user-42",
    b"a much longer key, longer than a block or two of murmur3 input",
];

#[test]
fn slots() {
    let ranges = [
        (range(0, 65535), KeyHashRange::AUTO_SPLIT),
        (range(1, 65535), KeyHashRange::CONSISTENT_HASHING),
        (
            range(1, 2_147_483_646),
            KeyHashRange::CLASSIC_CONSISTENT_HASHING,
        ),
        (range(0, 1), KeyHashRange::new(0, 1).unwrap()),
        (range(5, 5), KeyHashRange::new(5, 5).unwrap()),
        (
            range(1, i32::MAX),
            KeyHashRange::new(1, i32::MAX as u32).unwrap(),
        ),
    ];
    for key in KEYS {
        for (c, core) in ranges {
            let mut slot = U32_SENTINEL;
            assert_eq!(
                // SAFETY: live key and out-parameter.
                unsafe { pulsar_routing_slot_of(key.as_ptr(), key.len(), c, &mut slot) },
                S::Ok
            );
            assert_eq!(slot, core.slot_of(key), "{key:?} in {core:?}");
        }
        for kind in 0..3 {
            let mut slot = U32_SENTINEL;
            assert_eq!(
                // SAFETY: live key and out-parameter.
                unsafe { pulsar_routing_sticky_key_hash(key.as_ptr(), key.len(), kind, &mut slot) },
                S::Ok
            );
            let core = kind_from_c(kind).unwrap().key_hash_range();
            assert_eq!(slot, core.slot_of(key));
        }
    }
    // Batches.
    let strs: Vec<pulsar_routing_str> = KEYS.iter().map(|k| text(k)).collect();
    let core = KeyHashRange::CONSISTENT_HASHING;
    // SAFETY: live arrays; the buffers come from `read_records`.
    let got = read_records(U32_SENTINEL, |buf, len, written| unsafe {
        pulsar_routing_slots_of(
            strs.as_ptr(),
            strs.len(),
            range(1, 65535),
            buf,
            len,
            written,
        )
    })
    .unwrap();
    let expected: Vec<u32> = KEYS.iter().map(|k| core.slot_of(k)).collect();
    assert_eq!(got, expected);

    // Bad ranges, NULLs; nothing written.
    let bad_ranges = [
        (range(2, 1), S::RangeEndBeforeStart),
        (range(-1, 5), S::KeyHashRangeTooLarge),
        (range(i32::MIN, i32::MAX), S::KeyHashRangeTooLarge),
        (range(0, i32::MAX), S::KeyHashRangeTooLarge),
        (range(i32::MAX, i32::MIN), S::RangeEndBeforeStart),
    ];
    let mut slot = U32_SENTINEL;
    let mut slots = [U32_SENTINEL; 8];
    let mut written = USIZE_SENTINEL;
    let mut point = U32_SENTINEL;
    let key = b"k";
    // SAFETY: live arguments, or NULLs the functions reject.
    unsafe {
        for (r, status) in bad_ranges {
            assert_eq!(
                pulsar_routing_slot_of(key.as_ptr(), 1, r, &mut slot),
                status
            );
            assert_eq!(
                pulsar_routing_slots_of(
                    strs.as_ptr(),
                    strs.len(),
                    r,
                    slots.as_mut_ptr(),
                    8,
                    &mut written
                ),
                status
            );
            assert_eq!(
                pulsar_routing_ring_point(key.as_ptr(), 1, 0, 0, r, &mut point),
                status
            );
        }
        assert_eq!(
            pulsar_routing_slot_of(null(), 0, range(0, 65535), &mut slot),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_slot_of(key.as_ptr(), 1, range(0, 65535), null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sticky_key_hash(key.as_ptr(), 1, 3, &mut slot),
            S::UnknownSelectorKind
        );
        assert_eq!(
            pulsar_routing_sticky_key_hash(null(), 0, 0, &mut slot),
            S::NullParameter
        );
        // NULL wins over a bad range.
        assert_eq!(
            pulsar_routing_slot_of(null(), 0, range(2, 1), &mut slot),
            S::NullParameter
        );
        let with_null = [text(b"x"), ABSENT];
        assert_eq!(
            pulsar_routing_slots_of(
                with_null.as_ptr(),
                2,
                range(0, 65535),
                slots.as_mut_ptr(),
                8,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_slots_of(
                null(),
                0,
                range(0, 65535),
                slots.as_mut_ptr(),
                8,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_slots_of(
                strs.as_ptr(),
                1,
                range(0, 65535),
                null_mut(),
                8,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_slots_of(
                strs.as_ptr(),
                1,
                range(0, 65535),
                slots.as_mut_ptr(),
                8,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_ring_point(null(), 0, 0, 0, range(1, 65535), &mut point),
            S::NullParameter
        );
    }
    assert_eq!(slot, U32_SENTINEL);
    assert_eq!(point, U32_SENTINEL);
    assert_eq!(written, USIZE_SENTINEL);
    assert!(slots.iter().all(|&s| s == U32_SENTINEL));
}

#[test]
fn ring_points_match_the_core() {
    for (name, index) in [
        (&b"c1"[..], 0),
        (b"c1", 1),
        (b"consumer-\xc3\xa9", 7),
        (b"", 0),
    ] {
        for r in [range(1, 65535), range(1, 2_147_483_646), range(0, 9)] {
            for i in [0, 1, 99, 1000] {
                let mut point = U32_SENTINEL;
                // SAFETY: live name and out-parameter.
                let status = unsafe {
                    pulsar_routing_ring_point(name.as_ptr(), name.len(), index, i, r, &mut point)
                };
                assert_eq!(status, S::Ok);
                let core = r.to_key_hash_range().unwrap();
                assert_eq!(point, ring_point(name, index, i, core));
            }
        }
    }
    let mut point = 0;
    // SAFETY: live arguments.
    let status =
        unsafe { pulsar_routing_ring_point(b"c1".as_ptr(), 2, 0, 0, range(1, 65535), &mut point) };
    assert_eq!((status, point), (S::Ok, 34662), "the spec's example");
}

fn sticky_key_of(keys: &pulsar_routing_message_keys) -> Result<Vec<u8>, S> {
    // SAFETY: live keys; the buffers come from `read_records`.
    read_records(0xa5u8, |buf, len, written| unsafe {
        pulsar_routing_message_keys_sticky_key(keys, buf, len, written)
    })
}

#[test]
fn message_keys() {
    let cases: Vec<(pulsar_routing_message_keys, MessageKeys<'_>)> = vec![
        (
            message(Some(b"o"), Some(b"p"), false, Some(b"n"), Some(1)),
            MessageKeys {
                ordering_key: Some(b"o"),
                partition_key: Some(b"p"),
                partition_key_b64_encoded: false,
                producer_name: Some(b"n"),
                sequence_id: Some(1),
            },
        ),
        (
            message(Some(b""), Some(b"p"), false, None, None),
            MessageKeys {
                ordering_key: Some(b""),
                partition_key: Some(b"p"),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, Some(b"aGVsbG8="), true, Some(b"n"), Some(1)),
            MessageKeys {
                partition_key: Some(b"aGVsbG8="),
                partition_key_b64_encoded: true,
                producer_name: Some(b"n"),
                sequence_id: Some(1),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, Some(b"aGV.bG8="), true, None, None),
            MessageKeys {
                partition_key: Some(b"aGV.bG8="),
                partition_key_b64_encoded: true,
                ..MessageKeys::default()
            },
        ),
        (
            message(None, Some(b"aGVsbG8="), false, None, None),
            MessageKeys {
                partition_key: Some(b"aGVsbG8="),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, None, true, Some(b"producer-1"), Some(u64::MAX)),
            MessageKeys {
                partition_key_b64_encoded: true,
                producer_name: Some(b"producer-1"),
                sequence_id: Some(u64::MAX),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, None, false, Some(b"producer-1"), None),
            MessageKeys {
                producer_name: Some(b"producer-1"),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, None, false, None, Some(5)),
            MessageKeys {
                sequence_id: Some(5),
                ..MessageKeys::default()
            },
        ),
        (
            message(None, None, false, None, None),
            MessageKeys::default(),
        ),
    ];
    for (c, core) in &cases {
        let key = core.sticky_key();
        let mut expected = vec![0u8; key.len()];
        assert_eq!(key.write_to(&mut expected), Some(key.len()));
        assert_eq!(sticky_key_of(c).unwrap(), expected, "{core:?}");
        let mut hash = U32_SENTINEL;
        let mut slot = U32_SENTINEL;
        // SAFETY: live keys and out-parameters.
        unsafe {
            assert_eq!(pulsar_routing_message_keys_murmur3(c, &mut hash), S::Ok);
            assert_eq!(
                pulsar_routing_message_keys_slot(c, range(1, 65535), &mut slot),
                S::Ok
            );
        }
        assert_eq!(hash, key.murmur3());
        assert_eq!(slot, KeyHashRange::CONSISTENT_HASHING.slot(&key));
        // SAFETY: live keys.
        let check = unsafe { pulsar_routing_message_keys_check(c) };
        // SAFETY: live keys; the buffers come from `read_text`.
        let message = read_text(|buf, len, written| unsafe {
            pulsar_routing_message_keys_error_message(c, buf, len, written)
        })
        .unwrap();
        match key.base64_error() {
            Some(e) => {
                assert_eq!(check, S::from(e));
                assert_eq!(message, e.to_string());
            }
            None => {
                assert_eq!(check, S::Ok);
                assert_eq!(message, "");
            }
        }
    }
    // The fallback and the invalid Base64 key, spelled out.
    assert_eq!(sticky_key_of(&cases[5].0).unwrap(), b"producer-1--1");
    assert_eq!(sticky_key_of(&cases[3].0).unwrap(), b"NONE_KEY");
    assert_eq!(sticky_key_of(&cases[2].0).unwrap(), b"hello");
    assert_eq!(
        // SAFETY: live keys.
        unsafe { pulsar_routing_message_keys_check(&cases[3].0) },
        S::Base64IllegalCharacter
    );

    // NULLs: the struct, a field with a length, the outputs.
    let mut bad = message(None, None, false, None, None);
    bad.producer_name = pulsar_routing_str {
        data: null(),
        len: 3,
    };
    let good = message(Some(b"k"), None, false, None, None);
    let mut buf = [0xa5u8; 16];
    let mut written = USIZE_SENTINEL;
    let mut hash = U32_SENTINEL;
    // SAFETY: live arguments, or NULLs the functions reject.
    unsafe {
        for keys in [null(), &bad as *const _] {
            assert_eq!(
                pulsar_routing_message_keys_sticky_key(keys, buf.as_mut_ptr(), 16, &mut written),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_message_keys_murmur3(keys, &mut hash),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_message_keys_slot(keys, range(0, 65535), &mut hash),
                S::NullParameter
            );
            assert_eq!(pulsar_routing_message_keys_check(keys), S::NullParameter);
            assert_eq!(
                pulsar_routing_message_keys_error_message(keys, buf.as_mut_ptr(), 16, &mut written),
                S::NullParameter
            );
        }
        assert_eq!(
            pulsar_routing_message_keys_sticky_key(&good, null_mut(), 16, &mut written),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_message_keys_sticky_key(&good, buf.as_mut_ptr(), 16, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_message_keys_murmur3(&good, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_message_keys_slot(&good, range(9, 8), &mut hash),
            S::RangeEndBeforeStart
        );
        assert_eq!(
            pulsar_routing_message_keys_error_message(&good, buf.as_mut_ptr(), 16, null_mut()),
            S::NullParameter
        );
    }
    assert_eq!(written, USIZE_SENTINEL);
    assert_eq!(hash, U32_SENTINEL);
    assert_eq!(buf, [0xa5u8; 16]);
}

#[test]
fn sticky_range_validation() {
    let cases: [&[pulsar_routing_hash_range]; 7] = [
        &[range(0, 32767), range(32768, 65535)],
        &[],
        &[range(0, 10), range(5, 65536)],
        &[range(0, 10), range(20, 15)],
        &[range(-1, 10)],
        &[range(0, 10), range(11, 20), range(3, 4)],
        &[range(65535, 65535)],
    ];
    for ranges in cases {
        let core: Vec<HashRange> = ranges
            .iter()
            .map(|r| HashRange::new(r.start, r.end))
            .collect();
        let expected = validate_sticky_ranges(&core);
        let ptr = ranges.as_ptr();
        // SAFETY: a live array.
        let status = unsafe { pulsar_routing_validate_sticky_ranges(ptr, ranges.len()) };
        // SAFETY: a live array; the buffers come from `read_text`.
        let message = read_text(|buf, len, written| unsafe {
            pulsar_routing_validate_sticky_ranges_error_message(
                ptr,
                ranges.len(),
                buf,
                len,
                written,
            )
        })
        .unwrap();
        match expected {
            Ok(()) => assert_eq!((status, message.as_str()), (S::Ok, "")),
            Err(e) => assert_eq!((status, message), (S::from(e), e.to_string())),
        }
    }
    let mut written = USIZE_SENTINEL;
    let mut buf = [0u8; 4];
    let one = [range(0, 1)];
    // SAFETY: NULLs the functions reject.
    unsafe {
        assert_eq!(
            pulsar_routing_validate_sticky_ranges(null(), 0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_validate_sticky_ranges_error_message(
                null(),
                0,
                buf.as_mut_ptr(),
                4,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_validate_sticky_ranges_error_message(
                one.as_ptr(),
                1,
                null_mut(),
                4,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_validate_sticky_ranges_error_message(
                one.as_ptr(),
                1,
                buf.as_mut_ptr(),
                4,
                null_mut()
            ),
            S::NullParameter
        );
    }
    assert_eq!(written, USIZE_SENTINEL);
}

// --- selectors ----------------------------------------------------------------------

#[test]
fn constructors_and_storage_words() {
    // AutoSplit range sizes, with Java's messages.
    for (size, status) in [
        (-4, S::RangeSizeTooSmall),
        (0, S::RangeSizeTooSmall),
        (1, S::RangeSizeTooSmall),
        (3, S::RangeSizeNotPowerOfTwo),
        (65535, S::RangeSizeNotPowerOfTwo),
    ] {
        assert_eq!(auto_split(size, 4).err(), Some(status));
        let mut words = USIZE_SENTINEL;
        let config = pulsar_routing_auto_split_config {
            range_size: size,
            max_consumers: 4,
        };
        assert_eq!(
            // SAFETY: a live out-parameter.
            unsafe { pulsar_routing_auto_split_config_storage_words(config, &mut words) },
            status
        );
        assert_eq!(words, USIZE_SENTINEL);
    }
    for size in [2, 4, 65536, 1 << 30] {
        let config = pulsar_routing_auto_split_config {
            range_size: size,
            max_consumers: 4,
        };
        let mut words = USIZE_SENTINEL;
        assert_eq!(
            // SAFETY: a live out-parameter.
            unsafe { pulsar_routing_auto_split_config_storage_words(config, &mut words) },
            S::Ok
        );
        assert_eq!(
            words,
            AutoSplitConfig::new(4)
                .with_range_size(size)
                .storage_words()
                .unwrap()
        );
    }
    assert!(auto_split(2, 0).is_ok());
    assert_eq!(
        auto_split(65536, u32::MAX).err(),
        Some(S::SelectorCapacityTooLarge)
    );
    // Consistent hashing ranges and capacities.
    assert_eq!(
        consistent(100, 0, 4, 64).err(),
        Some(S::RangeEndBeforeStart)
    );
    assert_eq!(
        consistent(100, 1 << 31, 4, 64).err(),
        Some(S::KeyHashRangeTooLarge)
    );
    assert_eq!(
        consistent(u32::MAX, 65535, u32::MAX, 0).err(),
        Some(S::SelectorCapacityTooLarge)
    );
    let c = pulsar_routing_consistent_hashing_config {
        points: 100,
        range_max: 65535,
        max_consumers: 10,
        name_bytes: 640,
    };
    let mut words = USIZE_SENTINEL;
    assert_eq!(
        // SAFETY: a live out-parameter.
        unsafe { pulsar_routing_consistent_hashing_config_storage_words(c, &mut words) },
        S::Ok
    );
    assert_eq!(
        words,
        ConsistentHashingConfig::new(10).storage_words().unwrap()
    );
    // Exclusive modes.
    assert_eq!(exclusive(4, 4, 2).err(), Some(S::UnknownExclusiveMode));
    let e = pulsar_routing_exclusive_config {
        max_consumers: 4,
        max_ranges: 8,
        mode: PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730,
    };
    assert_eq!(
        // SAFETY: a live out-parameter.
        unsafe { pulsar_routing_exclusive_config_storage_words(e, &mut words) },
        S::Ok
    );
    assert_eq!(
        words,
        ExclusiveConfig::new(4, 8)
            .with_mode(ExclusiveMode::LegacyPre24730)
            .storage_words()
            .unwrap()
    );
    let mut words = USIZE_SENTINEL;
    // SAFETY: a live out-parameter, or NULLs the functions reject.
    unsafe {
        assert_eq!(
            pulsar_routing_exclusive_config_storage_words(
                pulsar_routing_exclusive_config { mode: 9, ..e },
                &mut words
            ),
            S::UnknownExclusiveMode
        );
        assert_eq!(
            pulsar_routing_exclusive_config_storage_words(e, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_consistent_hashing_config_storage_words(c, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_auto_split_config_storage_words(
                pulsar_routing_auto_split_config {
                    range_size: 4,
                    max_consumers: 1
                },
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_selector_new_auto_split(
                pulsar_routing_auto_split_config {
                    range_size: 4,
                    max_consumers: 1
                },
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_selector_new_consistent_hashing(c, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_selector_new_exclusive(e, null_mut()),
            S::NullParameter
        );
        pulsar_routing_selector_free(null_mut());
    }
    assert_eq!(words, USIZE_SENTINEL);
}

#[test]
fn every_selector_function_rejects_null() {
    let sel = auto_split(65536, 4).unwrap();
    assert_eq!(sel.add(1), S::Ok);
    let mut u64_out = U64_SENTINEL;
    let mut u32_out = U32_SENTINEL;
    let mut i64_out = I64_SENTINEL;
    let mut usize_out = USIZE_SENTINEL;
    let mut usize_out2 = USIZE_SENTINEL;
    let mut bool_out = false;
    let mut range_out = RANGE_SENTINEL;
    let mut cap = pulsar_routing_selector_capacity {
        max_consumers: 77,
        ..Default::default()
    };
    let mut records = [RECORD_SENTINEL; 4];
    let mut records2 = [RECORD_SENTINEL; 4];
    let mut ranges = [RANGE_SENTINEL; 4];
    let mut points = [U32_SENTINEL; 4];
    let mut bytes = [0xa5u8; 4];
    let mut u64s = [U64_SENTINEL; 4];
    let key = b"k";
    let keys = [text(key)];
    let msgs = [message(Some(key), None, false, None, None)];
    let s = sel.ptr();
    let n: *const pulsar_routing_selector = null();
    let m: *mut pulsar_routing_selector = null_mut();
    // SAFETY: every call passes at least one NULL, which is rejected before
    // anything is read; the rest are live.
    unsafe {
        let calls: Vec<(&str, S)> = vec![
            (
                "get_kind",
                pulsar_routing_selector_get_kind(n, &mut u32_out),
            ),
            (
                "get_kind out",
                pulsar_routing_selector_get_kind(s, null_mut()),
            ),
            (
                "key_hash_range",
                pulsar_routing_selector_key_hash_range(n, &mut range_out),
            ),
            (
                "key_hash_range out",
                pulsar_routing_selector_key_hash_range(s, null_mut()),
            ),
            ("len", pulsar_routing_selector_len(n, &mut usize_out)),
            ("len out", pulsar_routing_selector_len(s, null_mut())),
            (
                "contains",
                pulsar_routing_selector_contains(n, 1, &mut bool_out),
            ),
            (
                "contains out",
                pulsar_routing_selector_contains(s, 1, null_mut()),
            ),
            (
                "get_capacity",
                pulsar_routing_selector_get_capacity(n, &mut cap),
            ),
            (
                "get_capacity out",
                pulsar_routing_selector_get_capacity(s, null_mut()),
            ),
            ("reserve", pulsar_routing_selector_reserve(m, cap)),
            ("add", pulsar_routing_selector_add(m, 1)),
            (
                "add_named",
                pulsar_routing_selector_add_named(m, 2, key.as_ptr(), 1),
            ),
            (
                "add_named name",
                pulsar_routing_selector_add_named(sel.0, 2, null(), 0),
            ),
            (
                "add_ranges",
                pulsar_routing_selector_add_ranges(m, 2, null(), 0),
            ),
            ("remove", pulsar_routing_selector_remove(m, 1)),
            ("select", pulsar_routing_selector_select(n, 1, &mut u64_out)),
            (
                "select out",
                pulsar_routing_selector_select(s, 1, null_mut()),
            ),
            (
                "select_key",
                pulsar_routing_selector_select_key(n, key.as_ptr(), 1, &mut u64_out),
            ),
            (
                "select_key key",
                pulsar_routing_selector_select_key(s, null(), 0, &mut u64_out),
            ),
            (
                "select_key out",
                pulsar_routing_selector_select_key(s, key.as_ptr(), 1, null_mut()),
            ),
            (
                "select_message",
                pulsar_routing_selector_select_message(n, &msgs[0], &mut u64_out),
            ),
            (
                "select_message keys",
                pulsar_routing_selector_select_message(s, null(), &mut u64_out),
            ),
            (
                "select_message out",
                pulsar_routing_selector_select_message(s, &msgs[0], null_mut()),
            ),
            (
                "select_keys",
                pulsar_routing_selector_select_keys(
                    n,
                    keys.as_ptr(),
                    1,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_keys keys",
                pulsar_routing_selector_select_keys(
                    s,
                    null(),
                    0,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_keys a key",
                pulsar_routing_selector_select_keys(
                    s,
                    [ABSENT].as_ptr(),
                    1,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_keys out",
                pulsar_routing_selector_select_keys(
                    s,
                    keys.as_ptr(),
                    1,
                    0,
                    null_mut(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_keys written",
                pulsar_routing_selector_select_keys(
                    s,
                    keys.as_ptr(),
                    1,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    null_mut(),
                ),
            ),
            (
                "select_messages",
                pulsar_routing_selector_select_messages(
                    n,
                    msgs.as_ptr(),
                    1,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_messages messages",
                pulsar_routing_selector_select_messages(
                    s,
                    null(),
                    0,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_messages out",
                pulsar_routing_selector_select_messages(
                    s,
                    msgs.as_ptr(),
                    1,
                    0,
                    null_mut(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "select_messages written",
                pulsar_routing_selector_select_messages(
                    s,
                    msgs.as_ptr(),
                    1,
                    0,
                    u64s.as_mut_ptr(),
                    4,
                    null_mut(),
                ),
            ),
            (
                "assignments",
                pulsar_routing_selector_assignments(n, records.as_mut_ptr(), 4, &mut usize_out),
            ),
            (
                "assignments buf",
                pulsar_routing_selector_assignments(s, null_mut(), 0, &mut usize_out),
            ),
            (
                "assignments written",
                pulsar_routing_selector_assignments(s, records.as_mut_ptr(), 4, null_mut()),
            ),
            (
                "consumer_ranges",
                pulsar_routing_selector_consumer_ranges(n, records.as_mut_ptr(), 4, &mut usize_out),
            ),
            (
                "consumer_ranges buf",
                pulsar_routing_selector_consumer_ranges(s, null_mut(), 0, &mut usize_out),
            ),
            (
                "consumer_ranges written",
                pulsar_routing_selector_consumer_ranges(s, records.as_mut_ptr(), 4, null_mut()),
            ),
            (
                "ranges_of",
                pulsar_routing_selector_ranges_of(n, 1, ranges.as_mut_ptr(), 4, &mut usize_out),
            ),
            (
                "ranges_of buf",
                pulsar_routing_selector_ranges_of(s, 1, null_mut(), 0, &mut usize_out),
            ),
            (
                "ranges_of written",
                pulsar_routing_selector_ranges_of(s, 1, ranges.as_mut_ptr(), 4, null_mut()),
            ),
            (
                "last_impact",
                pulsar_routing_selector_last_impact(
                    n,
                    records.as_mut_ptr(),
                    4,
                    &mut usize_out,
                    records2.as_mut_ptr(),
                    4,
                    &mut usize_out2,
                ),
            ),
            (
                "last_impact removed",
                pulsar_routing_selector_last_impact(
                    s,
                    null_mut(),
                    4,
                    &mut usize_out,
                    records2.as_mut_ptr(),
                    4,
                    &mut usize_out2,
                ),
            ),
            (
                "last_impact removed_written",
                pulsar_routing_selector_last_impact(
                    s,
                    records.as_mut_ptr(),
                    4,
                    null_mut(),
                    records2.as_mut_ptr(),
                    4,
                    &mut usize_out2,
                ),
            ),
            (
                "last_impact added",
                pulsar_routing_selector_last_impact(
                    s,
                    records.as_mut_ptr(),
                    4,
                    &mut usize_out,
                    null_mut(),
                    4,
                    &mut usize_out2,
                ),
            ),
            (
                "last_impact added_written",
                pulsar_routing_selector_last_impact(
                    s,
                    records.as_mut_ptr(),
                    4,
                    &mut usize_out,
                    records2.as_mut_ptr(),
                    4,
                    null_mut(),
                ),
            ),
            (
                "name_index",
                pulsar_routing_selector_name_index(n, 1, &mut i64_out),
            ),
            (
                "name_index out",
                pulsar_routing_selector_name_index(s, 1, null_mut()),
            ),
            (
                "ring_points",
                pulsar_routing_selector_ring_points(n, 1, points.as_mut_ptr(), 4, &mut usize_out),
            ),
            (
                "ring_points buf",
                pulsar_routing_selector_ring_points(s, 1, null_mut(), 4, &mut usize_out),
            ),
            (
                "ring_points written",
                pulsar_routing_selector_ring_points(s, 1, points.as_mut_ptr(), 4, null_mut()),
            ),
            (
                "last_error_message",
                pulsar_routing_selector_last_error_message(
                    n,
                    bytes.as_mut_ptr(),
                    4,
                    &mut usize_out,
                ),
            ),
            (
                "last_error_message buf",
                pulsar_routing_selector_last_error_message(s, null_mut(), 4, &mut usize_out),
            ),
            (
                "last_error_message written",
                pulsar_routing_selector_last_error_message(s, bytes.as_mut_ptr(), 4, null_mut()),
            ),
        ];
        for (what, status) in calls {
            assert_eq!(status, S::NullParameter, "{what}");
        }
    }
    assert_eq!(u64_out, U64_SENTINEL);
    assert_eq!(u32_out, U32_SENTINEL);
    assert_eq!(i64_out, I64_SENTINEL);
    assert_eq!((usize_out, usize_out2), (USIZE_SENTINEL, USIZE_SENTINEL));
    assert!(!bool_out);
    assert_eq!(range_out, RANGE_SENTINEL);
    assert_eq!(cap.max_consumers, 77);
    assert_eq!(records, [RECORD_SENTINEL; 4]);
    assert_eq!(records2, [RECORD_SENTINEL; 4]);
    assert_eq!(ranges, [RANGE_SENTINEL; 4]);
    assert_eq!(points, [U32_SENTINEL; 4]);
    assert_eq!(bytes, [0xa5u8; 4]);
    assert_eq!(u64s, [U64_SENTINEL; 4]);
    // Nothing reached the selector.
    assert_eq!(sel.len(), 1);
    assert_eq!(sel.last_error(), "");
    assert_eq!(sel.capacity().max_consumers, 4);
}

#[test]
fn auto_split_against_the_core() {
    let config = AutoSplitConfig::new(64).with_range_size(16);
    let mut core =
        AutoSplitSelector::new(config, vec![0u32; config.storage_words().unwrap()]).unwrap();
    let sel = auto_split(16, 2).unwrap();
    assert_eq!(sel.kind(), PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT);
    assert_eq!(sel.key_hash_range(), range(0, 15));
    assert_eq!(sel.select(3), Err(S::NoConsumer));
    assert_eq!(sel.impact(), (vec![], vec![]));
    let ops: &[(bool, u64)] = &[
        (true, 1),
        (true, 2),
        (true, 3),
        (false, 2),
        (true, 4),
        (true, 5),
        (false, 9),
        (true, 6),
        (false, 1),
        (true, 7),
        (true, 8),
        (true, 9),
        (true, 10),
        (true, 11),
        (true, 12),
        (true, 13),
        (true, 14),
        (true, 15),
        (true, 16),
        (true, 17),
        (true, 18),
        (false, 18),
    ];
    for &(add, id) in ops {
        let (status, expected_impact) = if add {
            // Room for 2 consumers: the selector grows on its own.
            let status = sel.add(id);
            match core.add(id) {
                Ok(i) => (status, Some(core_impact(i))),
                Err(e) => {
                    assert_eq!(status, S::from(e));
                    assert_eq!(sel.last_error(), e.to_string());
                    (status, None)
                }
            }
        } else {
            let status = sel.remove(id);
            (status, Some(core_impact(core.remove(id))))
        };
        match expected_impact {
            Some(impact) => {
                assert_eq!(status, S::Ok, "op {add} {id}");
                assert_eq!(sel.last_error(), "");
                assert_eq!(sel.impact(), impact);
            }
            None => assert_eq!(sel.impact(), (vec![], vec![])),
        }
        assert_eq!(sel.assignments(), core_triples(core.assignments()));
        assert_eq!(sel.consumer_ranges(), core_triples(core.consumer_ranges()));
        assert_eq!(sel.len(), core.len());
        for slot in 0..20 {
            assert_eq!(sel.select(slot).ok(), core.select(slot), "slot {slot}");
        }
        for c in 0..20 {
            assert_eq!(sel.contains(c), core.contains(c));
            let expected: Vec<(i32, i32)> = core
                .consumer_ranges()
                .filter(|a| a.consumer == c)
                .map(|a| (a.range.start, a.range.end))
                .collect();
            assert_eq!(sel.ranges_of(c), expected);
        }
    }
    // 16 slots: the 17th consumer is Java's error, with its count.
    assert_eq!(sel.len(), 15);
    assert_eq!(sel.add(99), S::Ok);
    assert_eq!(sel.add(100), S::NoMoreRange);
    assert_eq!(
        sel.last_error(),
        "No more range can assigned to new consumer, assigned consumers 16"
    );
    assert_eq!(sel.add(5), S::DuplicateConsumer);
    assert_eq!(sel.last_error(), "consumer 5 is already in the selector");
    // Names are ignored; the other kinds' functions do not apply.
    assert_eq!(sel.remove(5), S::Ok);
    assert_eq!(sel.last_error(), "");
    assert_eq!(sel.add_named(5, "whatever"), S::Ok);
    assert_eq!(
        sel.add_ranges(6, Some(&[range(0, 1)])),
        S::WrongSelectorKind
    );
    assert_eq!(sel.name_index(5), Err(S::WrongSelectorKind));
    assert_eq!(sel.ring_points(5), Err(S::WrongSelectorKind));
    // Slots above the range: no consumer (Java's ceiling is null).
    assert_eq!(sel.select(17), Err(S::NoConsumer));
    assert_eq!(sel.select(u32::MAX), Err(S::NoConsumer));
}

#[test]
fn consistent_hashing_against_the_core() {
    for (points, range_max) in [(100, 65535), (1, 65535), (7, 2_147_483_646), (0, 65535)] {
        let config = ConsistentHashingConfig::new(64)
            .with_points(points)
            .with_range_max(range_max);
        let mut core =
            ConsistentHashingSelector::new(config, vec![0u32; config.storage_words().unwrap()])
                .unwrap();
        let sel = consistent(points, range_max, 1, 4).unwrap();
        assert_eq!(sel.kind(), PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING);
        assert_eq!(sel.key_hash_range(), range(1, range_max as i32));
        let ops: &[(bool, u64, &str)] = &[
            (true, 1, "c1"),
            (true, 2, "c1"),
            (true, 3, "consumer-three"),
            (false, 1, ""),
            (true, 4, "c1"),
            (true, 5, "ünïcödé"),
            (false, 42, ""),
            (true, 6, ""),
            (false, 3, ""),
            (true, 7, "c1"),
        ];
        for &(add, id, name) in ops {
            if add {
                assert_eq!(sel.add_named(id, name), S::Ok);
                let impact = core_impact(core.add(id, name).unwrap());
                assert_eq!(sel.impact(), impact);
                let index = core.name_index(id).map_or(-1, i64::from);
                assert_eq!(sel.name_index(id), Ok(index));
                let expected: Vec<u32> = core.consumer_points(id).collect();
                assert_eq!(sel.ring_points(id).unwrap(), expected);
            } else {
                assert_eq!(sel.remove(id), S::Ok);
                assert_eq!(sel.impact(), core_impact(core.remove(id)));
                assert_eq!(sel.name_index(id), Err(S::ConsumerNotFound));
                assert_eq!(sel.ring_points(id), Err(S::ConsumerNotFound));
            }
            assert_eq!(sel.assignments(), core_triples(core.assignments()));
            assert_eq!(sel.consumer_ranges(), core_triples(core.consumer_ranges()));
            for slot in [
                0,
                1,
                2,
                100,
                30000,
                65534,
                65535,
                65536,
                range_max,
                u32::MAX,
            ] {
                assert_eq!(sel.select(slot).ok(), core.select(slot), "slot {slot}");
            }
            for key in KEYS {
                assert_eq!(
                    sel.select_key(key).ok(),
                    core.select_key(&StickyKey::Key(key))
                );
            }
        }
        let cap = sel.capacity();
        assert!(cap.max_consumers >= 5 && cap.name_bytes > 4 && cap.max_ranges == 0);
        assert_eq!(sel.add(9), S::WrongSelectorKind);
        assert_eq!(sel.add_ranges(9, None), S::WrongSelectorKind);
        assert_eq!(sel.add_named(2, "again"), S::DuplicateConsumer);
        assert_eq!(sel.last_error(), "consumer 2 is already in the selector");
        assert_eq!(
            sel.impact(),
            (vec![], vec![]),
            "a failed add empties the impact"
        );
    }
}

#[test]
fn exclusive_against_the_core() {
    for (mode, core_mode) in [
        (
            PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT,
            ExclusiveMode::Current,
        ),
        (
            PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730,
            ExclusiveMode::LegacyPre24730,
        ),
    ] {
        let config = ExclusiveConfig::new(64, 256).with_mode(core_mode);
        let mut core =
            ExclusiveSelector::new(config, vec![0u32; config.storage_words().unwrap()]).unwrap();
        let sel = exclusive(1, 1, mode).unwrap();
        assert_eq!(sel.kind(), PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE);
        assert_eq!(sel.key_hash_range(), range(0, 65535));
        let ops: Vec<(bool, u64, Option<Vec<pulsar_routing_hash_range>>)> = vec![
            (true, 1, Some(vec![range(0, 9999), range(20000, 29999)])),
            (true, 2, Some(vec![range(9000, 12000)])),
            (true, 3, None),
            (true, 4, Some(vec![])),
            (true, 5, Some(vec![range(40000, 30000)])),
            (
                true,
                6,
                Some(vec![range(30000, 35000), range(34000, 36000)]),
            ),
            (
                true,
                7,
                Some(vec![
                    range(50000, 50000),
                    range(60000, 70000),
                    range(-5, -1),
                ]),
            ),
            (true, 8, Some(vec![range(10000, 19999)])),
            (false, 1, None),
            (true, 2, Some(vec![range(9000, 12000)])),
            (false, 77, None),
        ];
        for (add, id, ranges) in &ops {
            if *add {
                // Room for 1 consumer and 1 range: the selector grows.
                let status = sel.add_ranges(*id, ranges.as_deref());
                let core_ranges: Option<Vec<HashRange>> = ranges
                    .as_ref()
                    .map(|r| r.iter().map(|r| HashRange::new(r.start, r.end)).collect());
                match core.add(*id, core_ranges.as_deref()) {
                    Ok(impact) => {
                        assert_eq!((status, sel.last_error().as_str()), (S::Ok, ""));
                        assert_eq!(sel.impact(), core_impact(impact), "{id}");
                    }
                    Err(e) => {
                        assert_eq!(status, S::from(e), "{id}");
                        assert_eq!(sel.last_error(), e.to_string());
                        assert_eq!(sel.impact(), (vec![], vec![]));
                    }
                }
            } else {
                assert_eq!(sel.remove(*id), S::Ok);
                assert_eq!(sel.impact(), core_impact(core.remove(*id)));
            }
            assert_eq!(sel.assignments(), core_triples(core.assignments()));
            assert_eq!(sel.consumer_ranges(), core_triples(core.consumer_ranges()));
            for slot in [0, 1, 9999, 10000, 15000, 20000, 50000, 65535, 65536, 75535] {
                assert_eq!(sel.select(slot).ok(), core.select(slot), "slot {slot}");
            }
        }
        assert_eq!(sel.add(9), S::WrongSelectorKind);
        assert_eq!(sel.add_named(9, "c9"), S::WrongSelectorKind);
    }
    // The messages, spelled out.
    let sel = exclusive(4, 16, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT).unwrap();
    assert_eq!(sel.add_ranges(1, None), S::MissingKeySharedMeta);
    assert_eq!(
        sel.last_error(),
        "Must specify key shared meta for consumer."
    );
    assert_eq!(sel.add_ranges(1, Some(&[])), S::EmptyHashRanges);
    assert_eq!(
        sel.add_ranges(1, Some(&[range(10, 5)])),
        S::HashRangeStartAfterEnd
    );
    assert_eq!(
        sel.last_error(),
        "Fixed hash range start > end for range: [10,5]"
    );
    assert_eq!(
        sel.add_ranges(1, Some(&[range(0, 100), range(50, 200)])),
        S::OwnHashRangesConflict
    );
    assert_eq!(
        sel.last_error(),
        "Consumer's own ranges conflict: [0,100] overlaps with [50,200]"
    );
    assert_eq!(sel.add_ranges(1, Some(&[range(0, 100)])), S::Ok);
    assert_eq!(
        sel.add_ranges(2, Some(&[range(100, 100)])),
        S::HashRangeConflict
    );
    assert_eq!(
        sel.last_error(),
        "Range conflict with consumer Consumer{consumerId=1}"
    );
}

#[test]
fn select_batches_and_messages() {
    let sel = consistent(100, 65535, 8, 512).unwrap();
    for (id, name) in [(1, "a"), (2, "b"), (3, "c")] {
        assert_eq!(sel.add_named(id, name), S::Ok);
    }
    let strs: Vec<pulsar_routing_str> = KEYS.iter().map(|k| text(k)).collect();
    // SAFETY: live arrays; the buffers come from `read_records`.
    let got = read_records(U64_SENTINEL, |buf, len, written| unsafe {
        pulsar_routing_selector_select_keys(
            sel.ptr(),
            strs.as_ptr(),
            strs.len(),
            u64::MAX,
            buf,
            len,
            written,
        )
    })
    .unwrap();
    let expected: Vec<u64> = KEYS.iter().map(|k| sel.select_key(k).unwrap()).collect();
    assert_eq!(got, expected);
    let messages: Vec<pulsar_routing_message_keys> = KEYS
        .iter()
        .map(|k| message(None, Some(k), false, Some(b"p"), Some(3)))
        .collect();
    // SAFETY: as above.
    let got = read_records(U64_SENTINEL, |buf, len, written| unsafe {
        pulsar_routing_selector_select_messages(
            sel.ptr(),
            messages.as_ptr(),
            messages.len(),
            u64::MAX,
            buf,
            len,
            written,
        )
    })
    .unwrap();
    assert_eq!(got, expected);
    for m in &messages {
        let key = sticky_key_of(m).unwrap();
        assert_eq!(sel.select_message(m), sel.select_key(&key));
    }
    let fallback = message(None, None, false, Some(b"p"), Some(3));
    assert_eq!(sel.select_message(&fallback), sel.select_key(b"p-3"));
    let none = message(None, None, false, None, None);
    assert_eq!(sel.select_message(&none), sel.select_key(b"NONE_KEY"));

    // A message with a bad field fails the batch before anything is written.
    let mut bad = messages.clone();
    bad[5].ordering_key = pulsar_routing_str {
        data: null(),
        len: 1,
    };
    let mut out = [U64_SENTINEL; 8];
    let mut written = USIZE_SENTINEL;
    // SAFETY: live arrays.
    let status = unsafe {
        pulsar_routing_selector_select_messages(
            sel.ptr(),
            bad.as_ptr(),
            8,
            0,
            out.as_mut_ptr(),
            8,
            &mut written,
        )
    };
    assert_eq!(status, S::NullParameter);
    assert_eq!((out, written), ([U64_SENTINEL; 8], USIZE_SENTINEL));
    // SAFETY: live arrays.
    let status =
        unsafe { pulsar_routing_selector_select_message(sel.ptr(), &bad[5], out.as_mut_ptr()) };
    assert_eq!(status, S::NullParameter);

    // An empty selector: every key gets the caller's marker.
    let empty = exclusive(1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT).unwrap();
    // SAFETY: live arrays.
    let status = unsafe {
        pulsar_routing_selector_select_keys(
            empty.ptr(),
            strs.as_ptr(),
            8,
            12345,
            out.as_mut_ptr(),
            8,
            &mut written,
        )
    };
    assert_eq!((status, written), (S::Ok, 8));
    assert_eq!(out, [12345; 8]);
    assert_eq!(empty.select_message(&none), Err(S::NoConsumer));
    assert_eq!(empty.select_key(b"x"), Err(S::NoConsumer));
}

#[test]
fn impact_buffers_too_small() {
    let sel = auto_split(65536, 4).unwrap();
    assert_eq!(sel.add(1), S::Ok);
    assert_eq!(sel.add(2), S::Ok);
    let (removed, added) = sel.impact();
    assert_eq!(removed, [(0, 32768, 1)]);
    assert_eq!(added, [(0, 32768, 2)]);
    let mut r = [RECORD_SENTINEL; 1];
    let mut a = [RECORD_SENTINEL; 0];
    let (mut rn, mut an) = (USIZE_SENTINEL, USIZE_SENTINEL);
    // SAFETY: live buffers of the lengths given.
    let status = unsafe {
        pulsar_routing_selector_last_impact(
            sel.ptr(),
            r.as_mut_ptr(),
            1,
            &mut rn,
            a.as_mut_ptr(),
            0,
            &mut an,
        )
    };
    // The added list does not fit: neither is written, both counts are.
    assert_eq!((status, rn, an), (S::BufferTooSmall, 1, 1));
    assert_eq!(r, [RECORD_SENTINEL]);
}

#[test]
fn adds_grow_and_reserve_pre_allocates() {
    let sel = exclusive(1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT).unwrap();
    assert_eq!(
        sel.capacity(),
        pulsar_routing_selector_capacity {
            max_consumers: 1,
            name_bytes: 0,
            max_ranges: 1
        }
    );
    // Past the room it was made with, an add grows the selector, as the
    // Python binding does (the shared policy: at least double, at least
    // what the add needs).
    assert_eq!(sel.add_ranges(1, Some(&[range(0, 1), range(5, 6)])), S::Ok);
    assert_eq!(sel.capacity().max_ranges, 3);
    assert_eq!(sel.add_ranges(2, Some(&[range(10, 11)])), S::Ok);
    assert_eq!(sel.capacity().max_consumers, 2);
    assert_eq!(sel.last_error(), "");
    // Smaller or zero requests change nothing.
    assert_eq!(
        sel.reserve(pulsar_routing_selector_capacity::default()),
        S::Ok
    );
    assert_eq!(sel.capacity().max_ranges, 3);
    assert_eq!(
        sel.reserve(pulsar_routing_selector_capacity {
            max_consumers: 0,
            name_bytes: 999,
            max_ranges: 8
        }),
        S::Ok
    );
    assert_eq!(
        sel.capacity(),
        pulsar_routing_selector_capacity {
            max_consumers: 2,
            name_bytes: 0,
            max_ranges: 8
        }
    );
    assert_eq!(
        sel.reserve(pulsar_routing_selector_capacity {
            max_consumers: u32::MAX,
            name_bytes: 0,
            max_ranges: 0
        }),
        S::SelectorCapacityTooLarge
    );
    assert_eq!(
        sel.last_error(),
        "selector capacity too large for 32-bit handles or this address space"
    );
    // The failed reserve kept everything.
    assert_eq!(sel.assignments(), [(0, 1, 1), (5, 6, 1), (10, 11, 2)]);
    assert_eq!(sel.capacity().max_consumers, 2);
    assert_eq!(sel.select(5), Ok(1));
    assert_eq!(sel.select(11), Ok(2));
    assert_eq!(sel.select(7), Err(S::NoConsumer));

    // A grown AutoSplit selector keeps its history and its last impact.
    let sel = auto_split(65536, 1).unwrap();
    assert_eq!(sel.add(1), S::Ok);
    assert_eq!(sel.add(2), S::Ok);
    assert_eq!(sel.capacity().max_consumers, 2);
    let impact = sel.impact();
    assert_eq!(
        sel.reserve(pulsar_routing_selector_capacity {
            max_consumers: 100,
            ..Default::default()
        }),
        S::Ok
    );
    assert_eq!(sel.impact(), impact);
    assert_eq!(sel.assignments(), [(0, 32768, 2), (32769, 65536, 1)]);
}

/// Java's exclusive selector reports no impact; C reports what moved,
/// which for the current rules is the declared ranges themselves (sorted,
/// clipped to the slots `[0, 65535]`): derived here from the declaration.
#[test]
fn exclusive_impact_is_the_declared_ranges() {
    let sel = exclusive(4, 16, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT).unwrap();
    let declared = [range(20000, 29999), range(60000, 70000), range(0, 9999)];
    assert_eq!(sel.add_ranges(1, Some(&declared)), S::Ok);
    let owned = |c: u64, ranges: &[(i32, i32)]| -> Vec<Triple> {
        ranges.iter().map(|&(s, e)| (s, e, c)).collect()
    };
    let of_1 = owned(1, &[(0, 9999), (20000, 29999), (60000, 65535)]);
    assert_eq!(sel.impact(), (vec![], of_1.clone()));
    // Adjacent ranges of one consumer merge, as in the other selectors.
    assert_eq!(
        sel.add_ranges(2, Some(&[range(10000, 10099), range(10100, 10199)])),
        S::Ok
    );
    assert_eq!(sel.impact(), (vec![], owned(2, &[(10000, 10199)])));
    assert_eq!(sel.remove(1), S::Ok);
    assert_eq!(sel.impact(), (of_1, vec![]));
    // Legacy rules: the gap between a consumer's ranges is delivered to it,
    // and moves with it.
    let legacy = exclusive(4, 16, PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730).unwrap();
    assert_eq!(
        legacy.add_ranges(1, Some(&[range(0, 100), range(200, 300)])),
        S::Ok
    );
    assert_eq!(legacy.impact(), (vec![], owned(1, &[(0, 300)])));
    assert_eq!(legacy.add_ranges(2, Some(&[range(140, 160)])), S::Ok);
    assert_eq!(
        legacy.impact(),
        (owned(1, &[(101, 199)]), owned(2, &[(140, 160)]))
    );
}

/// A pseudo-random walk of adds and removes, side by side with the core,
/// starting from the smallest capacities so that the selectors grow often,
/// on their own and through reserve.
#[test]
fn random_walks_agree_with_the_core() {
    let mut state = 0x5eed_u64;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let ch_config = ConsistentHashingConfig::new(64).with_points(20);
    let mut ch_core =
        ConsistentHashingSelector::new(ch_config, vec![0u32; ch_config.storage_words().unwrap()])
            .unwrap();
    let ch = consistent(20, 65535, 1, 1).unwrap();
    let as_config = AutoSplitConfig::new(64).with_range_size(64);
    let mut as_core =
        AutoSplitSelector::new(as_config, vec![0u32; as_config.storage_words().unwrap()]).unwrap();
    let asp = auto_split(64, 1).unwrap();
    let names = ["a", "b", "a", "c", "a", "bb"];
    for step in 0..400 {
        let id = next(24);
        let grow = |sel: &Handle| {
            let cap = sel.capacity();
            sel.reserve(pulsar_routing_selector_capacity {
                max_consumers: cap.max_consumers + 1,
                name_bytes: cap.name_bytes + 3,
                max_ranges: 0,
            })
        };
        if next(3) < 2 {
            let name = names[next(names.len() as u64) as usize];
            if step % 7 == 0 {
                assert_eq!(grow(&ch), S::Ok);
                assert_eq!(grow(&asp), S::Ok);
            }
            let status = ch.add_named(id, name);
            assert_eq!(
                status,
                ch_core
                    .add(id, name)
                    .map(|_| ())
                    .map_or_else(S::from, |()| S::Ok)
            );
            let status = asp.add(id);
            assert_eq!(
                status,
                as_core.add(id).map(|_| ()).map_or_else(S::from, |()| S::Ok)
            );
        } else {
            assert_eq!(ch.remove(id), S::Ok);
            ch_core.remove(id);
            assert_eq!(asp.remove(id), S::Ok);
            as_core.remove(id);
        }
        assert_eq!(
            ch.impact(),
            core_impact(ch_core.last_impact()),
            "step {step}"
        );
        assert_eq!(
            ch.assignments(),
            core_triples(ch_core.assignments()),
            "step {step}"
        );
        assert_eq!(
            asp.impact(),
            core_impact(as_core.last_impact()),
            "step {step}"
        );
        assert_eq!(
            asp.assignments(),
            core_triples(as_core.assignments()),
            "step {step}"
        );
    }
}

/// The header promises that a selector no thread mutates may be read by
/// any number of threads: the handle's contents are `Sync` (no interior
/// mutability), and may move between threads.
#[test]
fn a_selector_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<crate::key_shared::selector::Selector>();
}

/// The mode table is indexed by the C values, so each header constant must
/// land on the rules it documents, and the first value past it be refused.
#[test]
fn exclusive_mode_table_matches_the_header_constants() {
    let config = |mode| pulsar_routing_exclusive_config {
        max_consumers: 1,
        max_ranges: 1,
        mode,
    };
    let mut words = USIZE_SENTINEL;
    // SAFETY: a live out-parameter.
    let status = unsafe { pulsar_routing_exclusive_config_storage_words(config(2), &mut words) };
    assert_eq!(status, S::UnknownExclusiveMode);
    assert_eq!(words, USIZE_SENTINEL, "written only on success");
    // The legacy rules keep more per range (see the storage words' docs).
    let legacy_words = |mode| {
        let mut words = USIZE_SENTINEL;
        // SAFETY: a live out-parameter.
        let status =
            unsafe { pulsar_routing_exclusive_config_storage_words(config(mode), &mut words) };
        assert_eq!(status, S::Ok);
        words
    };
    assert!(
        legacy_words(PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730)
            > legacy_words(PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT)
    );
}
