//! Every exported function, called the way C would: with NULLs, unknown enum
//! values and out-of-range numbers, each giving its documented status without
//! writing any out-parameter; and once with good arguments, agreeing with
//! the core crate.

use core::ffi::{CStr, c_void};
use core::ptr::{null, null_mut};
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::base64::*;
use crate::crc32::*;
use crate::error::{pulsar_routing_status as S, pulsar_routing_status_message};
use crate::java_string_hash::*;
use crate::murmur3::*;
use crate::partition_count::*;
use crate::router::custom::*;
use crate::router::mode::*;
use crate::router::round_robin::*;
use crate::router::single_partition::*;
use crate::router::*;
use crate::routing_key::*;
use crate::sign_safe_mod::*;
use pulsar_routing_core as core_api;
use pulsar_routing_core::{
    DivisionByZero, HashingScheme, PartitionCount, PartitionCountError, RouteError,
    RoutingConfigError, RoutingKey, UnknownHashingScheme,
};

/// What every out-parameter holds before a call that must not write it.
const U32_SENTINEL: u32 = 0xdead_beef;
const I32_SENTINEL: i32 = -0x2152_4111;
const I64_SENTINEL: i64 = 0x0bad_cafe_dead_beef;
const USIZE_SENTINEL: usize = 0x5eed;

const JAVA: pulsar_routing_hashing_scheme = PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING;
const MURMUR: pulsar_routing_hashing_scheme = PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32;
const UNKNOWN_SCHEME: pulsar_routing_hashing_scheme = 2;

/// Partition counts that every function must reject, with their status.
const BAD_COUNTS: [(i64, S); 5] = [
    (0, S::PartitionCountZero),
    (-1, S::PartitionCountNegative),
    (i64::MIN, S::PartitionCountNegative),
    (2_147_483_648, S::PartitionCountTooLarge),
    (i64::MAX, S::PartitionCountTooLarge),
];

const NO_KEY: pulsar_routing_key = pulsar_routing_key {
    kind: PULSAR_ROUTING_KEY_KIND_NONE,
    data: null(),
    len: 0,
};

fn key_str(text: &str) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_STRING,
        data: text.as_ptr(),
        len: text.len(),
    }
}

fn key_bytes(bytes: &[u8]) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_BYTES,
        data: bytes.as_ptr(),
        len: bytes.len(),
    }
}

fn key_utf16(units: &[u16]) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_UTF16,
        data: units.as_ptr().cast(),
        len: units.len(),
    }
}

/// Storage for a misaligned UTF-16 key, which is never read.
static UNITS: [u16; 4] = [0x6b; 4];

/// Keys every keyed function must reject, with their status.
fn bad_keys() -> [(pulsar_routing_key, S); 7] {
    let key = |kind, data: *const u8, len| pulsar_routing_key { kind, data, len };
    [
        (
            key(PULSAR_ROUTING_KEY_KIND_UTF16, null(), 0),
            S::NullParameter,
        ),
        (
            key(
                PULSAR_ROUTING_KEY_KIND_UTF16,
                UNITS.as_ptr().cast::<u8>().wrapping_add(1),
                1,
            ),
            S::MisalignedPointer,
        ),
        // NULL is rejected even for an empty key.
        (
            key(PULSAR_ROUTING_KEY_KIND_STRING, null(), 0),
            S::NullParameter,
        ),
        (
            key(PULSAR_ROUTING_KEY_KIND_BYTES, null(), 3),
            S::NullParameter,
        ),
        (key(4, b"k".as_ptr(), 1), S::UnknownKeyKind),
        // The kind decides whether `data` is used at all.
        (key(u32::MAX, null(), 0), S::UnknownKeyKind),
        (
            key(PULSAR_ROUTING_KEY_KIND_STRING, b"\xff".as_ptr(), 1),
            S::InvalidUtf8,
        ),
    ]
}

fn message(status: u32) -> &'static str {
    let text = pulsar_routing_status_message(status);
    assert!(!text.is_null());
    // SAFETY: the function returns static NUL-terminated strings.
    unsafe { CStr::from_ptr(text) }.to_str().unwrap()
}

#[test]
fn status_codes_are_unique_and_stable() {
    assert_eq!(S::Ok as u32, 0);
    let mut codes: Vec<u32> = S::all().map(|s| s as u32).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), S::all().count(), "duplicate status codes");
    for status in S::all() {
        assert_eq!(S::from_code(status as u32), Some(status));
        assert_eq!(message(status as u32), status.message().to_str().unwrap());
    }
    for unknown in [
        15,
        99,
        104,
        201,
        304,
        409,
        523,
        602,
        617,
        631,
        644,
        655,
        712,
        732,
        800,
        u32::MAX,
    ] {
        assert_eq!(S::from_code(unknown), None);
        assert_eq!(message(unknown), "unknown status code");
    }
}

#[test]
fn messages_are_the_core_texts() {
    let code = |s: S| message(s as u32);
    assert_eq!(
        code(S::PartitionCountZero),
        PartitionCountError::Zero.to_string()
    );
    assert_eq!(
        code(S::PartitionCountNegative),
        PartitionCountError::Negative.to_string()
    );
    assert_eq!(
        code(S::PartitionCountTooLarge),
        PartitionCountError::TooLarge.to_string()
    );
    assert_eq!(code(S::DivisionByZero), DivisionByZero.to_string());
    assert_eq!(
        code(S::UnknownHashingScheme),
        UnknownHashingScheme.to_string()
    );
    for (status, error) in [
        (
            S::CustomModeWithoutRouter,
            RoutingConfigError::CustomModeWithoutRouter,
        ),
        (
            S::RouterWithoutCustomMode,
            RoutingConfigError::RouterWithoutCustomMode,
        ),
        (
            S::SwitchFrequencyTooSmall,
            RoutingConfigError::SwitchFrequencyTooSmall,
        ),
        (
            S::BatchDelayTooSmall,
            RoutingConfigError::BatchDelayTooSmall,
        ),
    ] {
        assert_eq!(code(status), error.to_string());
        assert_eq!(S::from(error), status);
    }
    // Java appends the index, which only the caller knows.
    assert_eq!(
        format!("{}: -7", code(S::IllegalPartitionIndex)),
        RouteError::IllegalPartitionIndex(-7).to_string()
    );
}

/// Each one-shot byte hash: NULL input (even empty), NULL output, and the
/// core's value.
#[test]
fn byte_hashes() {
    type Hash = unsafe extern "C" fn(*const u8, usize, *mut u32) -> S;
    type Expected = fn(&[u8]) -> u32;
    let cases: [(Hash, Expected); 4] = [
        (pulsar_routing_murmur3_32, core_api::murmur3_32),
        (pulsar_routing_murmur3_32_raw, core_api::murmur3_32_raw),
        (pulsar_routing_crc32, core_api::crc32),
        (
            pulsar_routing_java_string_hash_bytes,
            core_api::java_string_hash_bytes,
        ),
    ];
    for (hash, expected) in cases {
        let mut out = U32_SENTINEL;
        // SAFETY: every pointer is NULL or a live local of the right type.
        unsafe {
            assert_eq!(hash(null(), 0, &mut out), S::NullParameter);
            assert_eq!(hash(null(), 5, &mut out), S::NullParameter);
            assert_eq!(out, U32_SENTINEL);
            assert_eq!(hash(b"hello".as_ptr(), 5, null_mut()), S::NullParameter);
            for data in [&b""[..], b"hello", b"\xed\xa0\x80!", b"persistent://a/b/c"] {
                assert_eq!(hash(data.as_ptr(), data.len(), &mut out), S::Ok);
                assert_eq!(out, expected(data));
            }
        }
    }
    let mut code = I32_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_java_string_hashcode_bytes(null(), 0, &mut code),
            S::NullParameter
        );
        assert_eq!(code, I32_SENTINEL);
        assert_eq!(
            pulsar_routing_java_string_hashcode_bytes(b"x".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode_bytes(b"\xffab".as_ptr(), 3, &mut code),
            S::Ok
        );
        assert_eq!(code, core_api::java_string_hashcode_bytes(b"\xffab"));
    }
}

#[test]
fn string_hashes_need_utf8() {
    let mut out = U32_SENTINEL;
    let mut code = I32_SENTINEL;
    let bad = b"ab\xc0";
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_java_string_hash(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hash(b"a".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        // NULL wins over invalid UTF-8: pointers are checked first.
        assert_eq!(
            pulsar_routing_java_string_hash(bad.as_ptr(), 3, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hash(bad.as_ptr(), 3, &mut out),
            S::InvalidUtf8
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode(null(), 0, &mut code),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode(b"a".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode(bad.as_ptr(), 3, &mut code),
            S::InvalidUtf8
        );
        assert_eq!((out, code), (U32_SENTINEL, I32_SENTINEL));

        let text = "polygenelubricants😀";
        assert_eq!(
            pulsar_routing_java_string_hash(text.as_ptr(), text.len(), &mut out),
            S::Ok
        );
        assert_eq!(out, core_api::java_string_hash(text));
        assert_eq!(
            pulsar_routing_java_string_hashcode(text.as_ptr(), text.len(), &mut code),
            S::Ok
        );
        assert_eq!(code, core_api::java_string_hashcode(text));
        assert_eq!(
            pulsar_routing_java_string_hashcode(b"polygenelubricants".as_ptr(), 18, &mut code),
            S::Ok
        );
        assert_eq!(code, i32::MIN);
    }
}

#[test]
fn utf16_hashes() {
    let units: Vec<u16> = "a😀".encode_utf16().chain([0xd800]).collect();
    let mut out = U32_SENTINEL;
    let mut code = I32_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_java_string_hash_utf16(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hash_utf16(units.as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode_utf16(null(), 0, &mut code),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode_utf16(units.as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!((out, code), (U32_SENTINEL, I32_SENTINEL));
        assert_eq!(
            pulsar_routing_java_string_hash_utf16(units.as_ptr(), units.len(), &mut out),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_java_string_hashcode_utf16(units.as_ptr(), units.len(), &mut code),
            S::Ok
        );
    }
    assert_eq!(out, core_api::java_string_hash_utf16(&units));
    assert_eq!(code, core_api::java_string_hashcode_utf16(&units));
}

#[test]
fn hasher_state_sizes_are_pinned() {
    // Part of the ABI: C allocates these. Changing them is a breaking change.
    assert_eq!(size_of::<pulsar_routing_murmur3_hasher>(), 32);
    assert_eq!(
        align_of::<pulsar_routing_murmur3_hasher>(),
        align_of::<u64>()
    );
    assert_eq!(size_of::<pulsar_routing_crc32_hasher>(), 32);
    assert_eq!(align_of::<pulsar_routing_crc32_hasher>(), align_of::<u64>());
    // kind (padded to a word), data, len.
    assert_eq!(size_of::<pulsar_routing_key>(), 3 * size_of::<usize>());
}

#[test]
fn murmur3_hasher() {
    let data = b"persistent://public/default/my-topic";
    let mut hasher = core::mem::MaybeUninit::<pulsar_routing_murmur3_hasher>::uninit();
    let h = hasher.as_mut_ptr();
    let (mut out, mut raw) = (U32_SENTINEL, U32_SENTINEL);
    // SAFETY: every pointer is NULL, a live local, or the hasher after init.
    unsafe {
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_init(null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_init(h),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(
                null_mut(),
                data.as_ptr(),
                3
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(h, null(), 0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(null(), &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(h, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize_raw(
                null(),
                &mut raw
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize_raw(
                h,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!((out, raw), (U32_SENTINEL, U32_SENTINEL));
        // The failed updates fed nothing.
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(h, &mut out),
            S::Ok
        );
        assert_eq!(out, core_api::murmur3_32(b""));

        for chunk in data.chunks(5) {
            assert_eq!(
                pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(
                    h,
                    chunk.as_ptr(),
                    chunk.len()
                ),
                S::Ok
            );
        }
        // A byte copy forks the stream, as the header promises.
        let mut fork = h.read();
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(
                &mut fork,
                b"x".as_ptr(),
                1
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(h, &mut out),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize_raw(h, &mut raw),
            S::Ok
        );
        assert_eq!(out, core_api::murmur3_32(data));
        assert_eq!(raw, core_api::murmur3_32_raw(data));
        assert_eq!(
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(&fork, &mut out),
            S::Ok
        );
        assert_eq!(out, core_api::murmur3_32(&[&data[..], b"x"].concat()));
    }
}

#[test]
fn crc32_hasher() {
    let data = b"persistent://public/default/my-topic";
    let mut hasher = core::mem::MaybeUninit::<pulsar_routing_crc32_hasher>::uninit();
    let h = hasher.as_mut_ptr();
    let mut out = U32_SENTINEL;
    // SAFETY: every pointer is NULL, a live local, or the hasher after init.
    unsafe {
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_init(null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_init(h),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_update(
                null_mut(),
                data.as_ptr(),
                3
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_update(h, null(), 0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_finalize(null(), &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_finalize(h, null_mut()),
            S::NullParameter
        );
        assert_eq!(out, U32_SENTINEL);
        for chunk in data.chunks(7) {
            assert_eq!(
                pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_update(
                    h,
                    chunk.as_ptr(),
                    chunk.len()
                ),
                S::Ok
            );
        }
        assert_eq!(
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_finalize(h, &mut out),
            S::Ok
        );
    }
    assert_eq!(out, 732_775_927);
}

#[test]
fn panics_become_a_status() {
    // Every byte 0xff is a Murmur3Hasher whose pending-byte count is 255,
    // which its `update` indexes with and panics on. (Any bytes are a valid
    // Rust value of that type, so this is a library bug, not UB: exactly
    // what the boundary is for.)
    let mut garbage = pulsar_routing_murmur3_hasher_from_bytes([0xff; 32]);
    // SAFETY: the pointers are live locals.
    let status = unsafe {
        pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(
            &mut garbage,
            b"abc".as_ptr(),
            3,
        )
    };
    assert_eq!(status, S::Panic);
}

fn pulsar_routing_murmur3_hasher_from_bytes(bytes: [u8; 32]) -> pulsar_routing_murmur3_hasher {
    // SAFETY: the struct is 32 bytes of plain integers (pinned above), so
    // any bytes are a valid value.
    unsafe { core::mem::transmute(bytes) }
}

#[test]
fn lossy_utf8_buffer() {
    let input = b"\xed\xa0\x80!";
    let expected: String = core_api::java_lossy_utf8(input).collect();
    assert_eq!(expected, "\u{fffd}!");
    let mut buf = [0xaau8; 16];
    let mut written = USIZE_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right size.
    unsafe {
        assert_eq!(
            pulsar_routing_java_lossy_utf8(null(), 0, buf.as_mut_ptr(), 16, &mut written),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_lossy_utf8(input.as_ptr(), 4, null_mut(), 0, &mut written),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_java_lossy_utf8(input.as_ptr(), 4, buf.as_mut_ptr(), 16, null_mut()),
            S::NullParameter
        );
        assert_eq!(written, USIZE_SENTINEL);
        // Too short: only the required length is written.
        assert_eq!(
            pulsar_routing_java_lossy_utf8(input.as_ptr(), 4, buf.as_mut_ptr(), 3, &mut written),
            S::BufferTooSmall
        );
        assert_eq!(written, expected.len());
        assert_eq!(buf, [0xaa; 16]);
        assert_eq!(
            pulsar_routing_java_lossy_utf8(
                input.as_ptr(),
                4,
                buf.as_mut_ptr(),
                expected.len(),
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&buf[..written], expected.as_bytes());
        assert_eq!(buf[written], 0xaa, "wrote past the decoded text");
        // Empty input into an empty (but non-NULL) buffer.
        assert_eq!(
            pulsar_routing_java_lossy_utf8(b"".as_ptr(), 0, buf.as_mut_ptr(), 0, &mut written),
            S::Ok
        );
        assert_eq!(written, 0);
    }
}

#[test]
fn base64_buffer() {
    let mut buf = [0xaau8; 16];
    let mut written = USIZE_SENTINEL;
    assert_eq!(pulsar_routing_base64_len(5), 8);
    assert_eq!(pulsar_routing_base64_len(0), 0);
    assert_eq!(
        pulsar_routing_base64_len(usize::MAX),
        core_api::base64_len(usize::MAX)
    );
    // SAFETY: every pointer is NULL or a live local of the right size.
    unsafe {
        assert_eq!(
            pulsar_routing_encode_base64(null(), 0, buf.as_mut_ptr(), 16, &mut written),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_encode_base64(b"hello".as_ptr(), 5, null_mut(), 16, &mut written),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_encode_base64(b"hello".as_ptr(), 5, buf.as_mut_ptr(), 16, null_mut()),
            S::NullParameter
        );
        assert_eq!(written, USIZE_SENTINEL);
        assert_eq!(
            pulsar_routing_encode_base64(b"hello".as_ptr(), 5, buf.as_mut_ptr(), 7, &mut written),
            S::BufferTooSmall
        );
        assert_eq!(written, 8);
        assert_eq!(buf, [0xaa; 16]);
        assert_eq!(
            pulsar_routing_encode_base64(b"hello".as_ptr(), 5, buf.as_mut_ptr(), 8, &mut written),
            S::Ok
        );
        assert_eq!(&buf[..written], b"aGVsbG8=");
        assert_eq!(buf[8], 0xaa);
    }
}

#[test]
fn sign_safe_mod_and_partition_counts() {
    let mut out = I32_SENTINEL;
    let mut partition = U32_SENTINEL;
    assert_eq!(
        PULSAR_ROUTING_PARTITION_COUNT_MAX,
        i64::from(PartitionCount::MAX)
    );
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_sign_safe_mod(5, 3, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sign_safe_mod(5, 0, &mut out),
            S::DivisionByZero
        );
        assert_eq!(out, I32_SENTINEL);
        for (dividend, divisor, expected) in [(-7, 3, 2), (-1, -3, -4), (i64::MIN, -1, 0)] {
            assert_eq!(
                pulsar_routing_sign_safe_mod(dividend, divisor, &mut out),
                S::Ok
            );
            assert_eq!(out, expected);
        }

        for (n, status) in BAD_COUNTS {
            assert_eq!(pulsar_routing_partition_count_validate(n), status);
            assert_eq!(
                pulsar_routing_partition_count_reduce(n, 7, &mut partition),
                status
            );
            assert_eq!(
                pulsar_routing_partition_count_sign_safe_mod(n, -7, &mut partition),
                status
            );
            assert_eq!(pulsar_routing_check_partition(0, n, &mut partition), status);
        }
        assert_eq!(
            pulsar_routing_partition_count_reduce(12, 7, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_partition_count_sign_safe_mod(12, 7, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_check_partition(0, 12, null_mut()),
            S::NullParameter
        );
        for bad in [-1, 12, i64::MAX, i64::MIN] {
            assert_eq!(
                pulsar_routing_check_partition(bad, 12, &mut partition),
                S::IllegalPartitionIndex
            );
        }
        assert_eq!(partition, U32_SENTINEL);

        assert_eq!(pulsar_routing_partition_count_validate(1), S::Ok);
        assert_eq!(
            pulsar_routing_partition_count_validate(PULSAR_ROUTING_PARTITION_COUNT_MAX),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_partition_count_reduce(12, 100, &mut partition),
            S::Ok
        );
        assert_eq!(partition, 4);
        assert_eq!(
            pulsar_routing_partition_count_sign_safe_mod(12, -1, &mut partition),
            S::Ok
        );
        assert_eq!(partition, 11);
        assert_eq!(
            pulsar_routing_check_partition(11, 12, &mut partition),
            S::Ok
        );
        assert_eq!(partition, 11);
    }
}

#[test]
fn hashing_schemes() {
    let mut scheme = U32_SENTINEL;
    let mut hash = U32_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        for (name, expected) in [
            ("java_string", JAVA),
            ("JavaStringHash", JAVA),
            ("murmur3_32", MURMUR),
            ("Murmur3_32Hash", MURMUR),
        ] {
            assert_eq!(
                pulsar_routing_hashing_scheme_from_name(name.as_ptr(), name.len(), &mut scheme),
                S::Ok
            );
            assert_eq!(scheme, expected);
        }
        scheme = U32_SENTINEL;
        for bad in [&b"murmur3"[..], b"", b"\xff"] {
            assert_eq!(
                pulsar_routing_hashing_scheme_from_name(bad.as_ptr(), bad.len(), &mut scheme),
                S::UnknownHashingScheme
            );
        }
        assert_eq!(
            pulsar_routing_hashing_scheme_from_name(null(), 0, &mut scheme),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_hashing_scheme_from_name(b"java_string".as_ptr(), 11, null_mut()),
            S::NullParameter
        );
        assert_eq!(scheme, U32_SENTINEL);

        for (c, core_scheme) in [
            (JAVA, HashingScheme::JavaStringHash),
            (MURMUR, HashingScheme::Murmur3_32Hash),
        ] {
            let name = CStr::from_ptr(pulsar_routing_hashing_scheme_name(c));
            assert_eq!(name.to_str().unwrap(), core_scheme.name());
            assert_eq!(
                pulsar_routing_hashing_scheme_hash(c, b"user-42".as_ptr(), 7, &mut hash),
                S::Ok
            );
            assert_eq!(hash, core_scheme.hash_str("user-42"));
        }
        assert!(pulsar_routing_hashing_scheme_name(UNKNOWN_SCHEME).is_null());
        assert!(pulsar_routing_hashing_scheme_name(u32::MAX).is_null());

        hash = U32_SENTINEL;
        assert_eq!(
            pulsar_routing_hashing_scheme_hash(UNKNOWN_SCHEME, b"k".as_ptr(), 1, &mut hash),
            S::UnknownHashingScheme
        );
        assert_eq!(
            pulsar_routing_hashing_scheme_hash(JAVA, null(), 0, &mut hash),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_hashing_scheme_hash(JAVA, b"k".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_hashing_scheme_hash(MURMUR, b"\xc3".as_ptr(), 1, &mut hash),
            S::InvalidUtf8
        );
        assert_eq!(hash, U32_SENTINEL);
    }
}

#[test]
fn key_hash_and_partition() {
    let mut out = U32_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type, and
    // every key's data is NULL or live.
    unsafe {
        for (key, status) in bad_keys() {
            assert_eq!(
                pulsar_routing_key::pulsar_routing_key_hash(key, JAVA, &mut out),
                status
            );
            assert_eq!(
                pulsar_routing_key::pulsar_routing_key_partition(key, JAVA, 12, &mut out),
                status
            );
        }
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_hash(NO_KEY, JAVA, &mut out),
            S::NoKey
        );
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_partition(NO_KEY, JAVA, 12, &mut out),
            S::NoKey
        );
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_hash(key_str("k"), UNKNOWN_SCHEME, &mut out),
            S::UnknownHashingScheme
        );
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_partition(
                key_str("k"),
                UNKNOWN_SCHEME,
                12,
                &mut out
            ),
            S::UnknownHashingScheme
        );
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_hash(key_str("k"), JAVA, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_partition(key_str("k"), JAVA, 12, null_mut()),
            S::NullParameter
        );
        for (n, status) in BAD_COUNTS {
            assert_eq!(
                pulsar_routing_key::pulsar_routing_key_partition(key_str("k"), JAVA, n, &mut out),
                status
            );
        }
        assert_eq!(out, U32_SENTINEL);

        let binary = b"\x00\xff\xfe binary";
        for scheme in [JAVA, MURMUR] {
            let core_scheme = if scheme == JAVA {
                HashingScheme::JavaStringHash
            } else {
                HashingScheme::Murmur3_32Hash
            };
            let n = PartitionCount::new(7).unwrap();
            for (key, core_key) in [
                (key_str("user-42"), RoutingKey::Key("user-42")),
                (key_str(""), RoutingKey::Key("")),
                (key_bytes(binary), RoutingKey::KeyBytes(binary)),
                (key_bytes(b""), RoutingKey::KeyBytes(b"")),
                (
                    key_utf16(LONE_SURROGATES),
                    RoutingKey::KeyUtf16(LONE_SURROGATES),
                ),
                (key_utf16(&[]), RoutingKey::KeyUtf16(&[])),
            ] {
                assert_eq!(
                    pulsar_routing_key::pulsar_routing_key_hash(key, scheme, &mut out),
                    S::Ok
                );
                assert_eq!(Some(out), core_key.hash(core_scheme));
                assert_eq!(
                    pulsar_routing_key::pulsar_routing_key_partition(key, scheme, 7, &mut out),
                    S::Ok
                );
                assert_eq!(Some(out), core_key.partition(core_scheme, n));
            }
        }
    }
}

/// A Java string no UTF-8 key can hold: `k`, a lone high surrogate, `é`, a
/// lone low surrogate.
const LONE_SURROGATES: &[u16] = &[0x6b, 0xd800, 0xe9, 0xdc00];

unsafe extern "C" fn echo_utf16(context: *mut c_void, key: pulsar_routing_key, n: u32) -> i32 {
    // SAFETY: the test passes a live `(kind, data, len)` slot as context.
    let seen = unsafe { &mut *context.cast::<(u32, *const u8, usize)>() };
    *seen = (key.kind, key.data, key.len);
    (n - 1) as i32
}

/// A UTF-16 key routes as its string does, lone surrogates included, in
/// every router, and reaches a custom router's function unchanged.
#[test]
fn utf16_keys() {
    let text = "ключ-😀 user-42";
    let units: Vec<u16> = text.encode_utf16().collect();
    // SAFETY: every pointer is a live local of the right type; the routers
    // are freed once.
    unsafe {
        for scheme in [JAVA, MURMUR] {
            let (mut from_text, mut from_units) = (U32_SENTINEL, U32_SENTINEL);
            assert_eq!(
                pulsar_routing_key::pulsar_routing_key_hash(key_str(text), scheme, &mut from_text),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_key::pulsar_routing_key_hash(
                    key_utf16(&units),
                    scheme,
                    &mut from_units
                ),
                S::Ok
            );
            assert_eq!(from_text, from_units);

            let mut rr = null_mut();
            let mut single = null_mut();
            assert_eq!(
                pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                    scheme, 0, true, 10, &mut rr
                ),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_new(
                    scheme,
                    0,
                    &mut single
                ),
                S::Ok
            );
            for key in [key_utf16(&units), key_utf16(LONE_SURROGATES)] {
                let mut expected = U32_SENTINEL;
                assert_eq!(
                    pulsar_routing_key::pulsar_routing_key_partition(
                        key,
                        scheme,
                        11,
                        &mut expected
                    ),
                    S::Ok
                );
                let (mut a, mut b) = (U32_SENTINEL, U32_SENTINEL);
                assert_eq!(
                    pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                        rr, key, 11, 0, &mut a
                    ),
                    S::Ok
                );
                assert_eq!(
                    pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(
                        single, key, 11, &mut b
                    ),
                    S::Ok
                );
                assert_eq!((a, b), (expected, expected));
            }
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(rr);
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_free(
                single,
            );
        }
        // Murmur3 hashes `?` for a lone surrogate, as getBytes(UTF_8) does.
        let mut h = U32_SENTINEL;
        assert_eq!(
            pulsar_routing_key::pulsar_routing_key_hash(key_utf16(LONE_SURROGATES), MURMUR, &mut h),
            S::Ok
        );
        assert_eq!(h, core_api::murmur3_32("k?é?".as_bytes()));

        let mut seen: (u32, *const u8, usize) = (0, null(), 0);
        let mut custom = null_mut();
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                Some(echo_utf16),
                (&raw mut seen).cast(),
                &mut custom
            ),
            S::Ok
        );
        let mut p = U32_SENTINEL;
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                custom,
                key_utf16(LONE_SURROGATES),
                3,
                &mut p
            ),
            S::Ok
        );
        assert_eq!(p, 2);
        assert_eq!(
            seen,
            (
                PULSAR_ROUTING_KEY_KIND_UTF16,
                LONE_SURROGATES.as_ptr().cast::<u8>(),
                LONE_SURROGATES.len()
            )
        );
        pulsar_routing_custom_router::pulsar_routing_custom_router_free(custom);
    }
}

#[test]
fn partition_for_key_and_bytes() {
    let mut out = U32_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        for f in [
            pulsar_routing_partition_for_key,
            pulsar_routing_partition_for_key_bytes,
        ] {
            assert_eq!(f(null(), 0, 12, JAVA, &mut out), S::NullParameter);
            assert_eq!(f(b"k".as_ptr(), 1, 12, JAVA, null_mut()), S::NullParameter);
            assert_eq!(
                f(b"k".as_ptr(), 1, 12, UNKNOWN_SCHEME, &mut out),
                S::UnknownHashingScheme
            );
            for (n, status) in BAD_COUNTS {
                assert_eq!(f(b"k".as_ptr(), 1, n, JAVA, &mut out), status);
            }
        }
        assert_eq!(
            pulsar_routing_partition_for_key(b"\xff".as_ptr(), 1, 12, JAVA, &mut out),
            S::InvalidUtf8
        );
        assert_eq!(out, U32_SENTINEL);

        let n = PartitionCount::new(12).unwrap();
        assert_eq!(
            pulsar_routing_partition_for_key(b"user-42".as_ptr(), 7, 12, JAVA, &mut out),
            S::Ok
        );
        assert_eq!(
            out,
            core_api::partition_for_key("user-42", n, HashingScheme::JavaStringHash)
        );
        // Bytes need not be UTF-8: their Base64 text is what gets hashed.
        assert_eq!(
            pulsar_routing_partition_for_key_bytes(b"\xff".as_ptr(), 1, 12, MURMUR, &mut out),
            S::Ok
        );
        assert_eq!(
            out,
            core_api::partition_for_key_bytes(b"\xff", n, HashingScheme::Murmur3_32Hash)
        );
    }
}

#[test]
fn round_robin_router() {
    let sentinel = 0x1000 as *mut pulsar_routing_round_robin_router;
    let mut router = sentinel;
    let mut out = U32_SENTINEL;
    // SAFETY: every pointer is NULL, a live local, or a live router; every
    // key's data is NULL or live.
    unsafe {
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                JAVA,
                0,
                false,
                1,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                UNKNOWN_SCHEME,
                0,
                false,
                1,
                &mut router
            ),
            S::UnknownHashingScheme
        );
        assert_eq!(router, sentinel);
        pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(null_mut());

        // Without batching, starting where Java's int counter wraps.
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                JAVA,
                2_147_483_645,
                false,
                0,
                &mut router
            ),
            S::Ok
        );
        // Failed calls must not consume counter values.
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                null(),
                NO_KEY,
                3,
                0,
                &mut out
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                router,
                NO_KEY,
                3,
                0,
                null_mut()
            ),
            S::NullParameter
        );
        for (key, status) in bad_keys() {
            assert_eq!(
                pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(router, key, 3, 0, &mut out),
                status
            );
        }
        for (n, status) in BAD_COUNTS {
            assert_eq!(
                pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(router, NO_KEY, n, 0, &mut out),
                status
            );
        }
        assert_eq!(out, U32_SENTINEL);
        let picks: Vec<u32> = (0..6)
            .map(|_| {
                assert_eq!(
                    pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                        router, NO_KEY, 3, 0, &mut out
                    ),
                    S::Ok
                );
                out
            })
            .collect();
        assert_eq!(picks, [2, 0, 1, 1, 2, 0]);
        pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(router);

        // With batching: the time slot, offset by the start index; keys by hash.
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                JAVA,
                5,
                true,
                10,
                &mut router
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                router, NO_KEY, 12, 1_000, &mut out
            ),
            S::Ok
        );
        assert_eq!(out, (100 + 5) % 12);
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                router,
                key_str("user-42"),
                12,
                1_000,
                &mut out
            ),
            S::Ok
        );
        assert_eq!(out, core_api::java_string_hash("user-42") % 12);
        pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(router);
    }
}

#[test]
fn single_partition_router() {
    let sentinel = 0x1000 as *mut pulsar_routing_single_partition_router;
    let mut router = sentinel;
    let mut out = U32_SENTINEL;
    // SAFETY: every pointer is NULL, a live local, or a live router; every
    // key's data is NULL or live.
    unsafe {
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_new(
                JAVA,
                3,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_new(
                UNKNOWN_SCHEME,
                3,
                &mut router
            ),
            S::UnknownHashingScheme
        );
        assert_eq!(router, sentinel);
        pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_free(
            null_mut(),
        );

        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_new(
                MURMUR,
                3,
                &mut router
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(null(), NO_KEY, 5, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(router, NO_KEY, 5, null_mut()),
            S::NullParameter
        );
        for (key, status) in bad_keys() {
            assert_eq!(
                pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(router, key, 5, &mut out),
                status
            );
        }
        for (n, status) in BAD_COUNTS {
            assert_eq!(
                pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(
                    router, NO_KEY, n, &mut out
                ),
                status
            );
        }
        // The fixed index is checked against each call's count.
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(router, NO_KEY, 3, &mut out),
            S::IllegalPartitionIndex
        );
        assert_eq!(out, U32_SENTINEL);
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(router, NO_KEY, 5, &mut out),
            S::Ok
        );
        assert_eq!(out, 3);
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(
                router,
                key_str("k1"),
                3,
                &mut out
            ),
            S::Ok
        );
        assert_eq!(out, core_api::murmur3_32(b"k1") % 3);
        pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_free(router);
    }
}

/// One call of the test callback: key kind, key bytes, whether the key
/// pointer was NULL, and the partition count.
type Call = (u32, Vec<u8>, bool, u32);

/// What the test callback saw, and what it answers.
struct CallbackState {
    calls: AtomicUsize,
    answer: i32,
    seen: std::sync::Mutex<Vec<Call>>,
}

unsafe extern "C" fn record_and_answer(
    context: *mut c_void,
    key: pulsar_routing_key,
    num_partitions: u32,
) -> i32 {
    // SAFETY: the tests pass a live CallbackState as the context.
    let state = unsafe { &*context.cast::<CallbackState>() };
    state.calls.fetch_add(1, Ordering::Relaxed);
    let bytes = if key.data.is_null() {
        Vec::new()
    } else {
        // SAFETY: the router passes the caller's live key bytes.
        unsafe { core::slice::from_raw_parts(key.data, key.len) }.to_vec()
    };
    state
        .seen
        .lock()
        .unwrap()
        .push((key.kind, bytes, key.data.is_null(), num_partitions));
    state.answer
}

unsafe extern "C" fn always_zero(_: *mut c_void, _: pulsar_routing_key, _: u32) -> i32 {
    0
}

#[test]
fn custom_router() {
    let sentinel = 0x1000 as *mut pulsar_routing_custom_router;
    let mut router = sentinel;
    let mut out = U32_SENTINEL;
    let mut state = CallbackState {
        calls: AtomicUsize::new(0),
        answer: 4,
        seen: Default::default(),
    };
    let context = (&raw mut state).cast::<c_void>();
    // SAFETY: every pointer is NULL, a live local, or a live router; the
    // context outlives the router; every key's data is NULL or live.
    unsafe {
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                None,
                context,
                &mut router
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                Some(record_and_answer),
                context,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(router, sentinel);
        pulsar_routing_custom_router::pulsar_routing_custom_router_free(null_mut());

        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                Some(record_and_answer),
                context,
                &mut router
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                null(),
                NO_KEY,
                5,
                &mut out
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                router,
                NO_KEY,
                5,
                null_mut()
            ),
            S::NullParameter
        );
        for (key, status) in bad_keys() {
            assert_eq!(
                pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                    router, key, 5, &mut out
                ),
                status
            );
        }
        for (n, status) in BAD_COUNTS {
            assert_eq!(
                pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                    router, NO_KEY, n, &mut out
                ),
                status
            );
        }
        assert_eq!(
            state.calls.load(Ordering::Relaxed),
            0,
            "called on bad input"
        );
        assert_eq!(out, U32_SENTINEL);

        // The key reaches the function as given; the answer is checked.
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                router,
                key_str("k"),
                5,
                &mut out
            ),
            S::Ok
        );
        assert_eq!(out, 4);
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                router,
                key_bytes(b"\xff"),
                5,
                &mut out
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                router, NO_KEY, 5, &mut out
            ),
            S::Ok
        );
        out = U32_SENTINEL;
        for answer in [5, -1, i32::MIN, i32::MAX] {
            state.answer = answer;
            assert_eq!(
                pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                    router, NO_KEY, 5, &mut out
                ),
                S::IllegalPartitionIndex
            );
        }
        assert_eq!(out, U32_SENTINEL);
        pulsar_routing_custom_router::pulsar_routing_custom_router_free(router);

        // A NULL context is the caller's business.
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                Some(always_zero),
                null_mut(),
                &mut router
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                router, NO_KEY, 1, &mut out
            ),
            S::Ok
        );
        assert_eq!(out, 0);
        pulsar_routing_custom_router::pulsar_routing_custom_router_free(router);
    }
    let seen = state.seen.into_inner().unwrap();
    assert_eq!(seen.len(), 7);
    assert_eq!(
        seen[0],
        (PULSAR_ROUTING_KEY_KIND_STRING, b"k".to_vec(), false, 5)
    );
    assert_eq!(
        seen[1],
        (PULSAR_ROUTING_KEY_KIND_BYTES, b"\xff".to_vec(), false, 5)
    );
    assert_eq!(seen[2], (PULSAR_ROUTING_KEY_KIND_NONE, Vec::new(), true, 5));
}

#[test]
fn routing_configuration() {
    use pulsar_routing_core::MessageRoutingMode as M;
    let mut mode = U32_SENTINEL;
    let mut switch_ms = I64_SENTINEL;
    let rr = PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION;
    let single = PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION;
    let custom = PULSAR_ROUTING_MESSAGE_ROUTING_MODE_CUSTOM_PARTITION;
    let c_of = |m: Option<M>| match m {
        None => (false, 99),
        Some(M::RoundRobinPartition) => (true, rr),
        Some(M::SinglePartition) => (true, single),
        Some(M::CustomPartition) => (true, custom),
    };
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_resolve_routing_mode(false, 0, false, null_mut()),
            S::NullParameter
        );
        for bad in [3, u32::MAX] {
            assert_eq!(
                pulsar_routing_resolve_routing_mode(true, bad, false, &mut mode),
                S::UnknownRoutingMode
            );
        }
        assert_eq!(mode, U32_SENTINEL);
        // Every combination agrees with the core, status or mode.
        for m in [
            None,
            Some(M::RoundRobinPartition),
            Some(M::SinglePartition),
            Some(M::CustomPartition),
        ] {
            for custom_set in [false, true] {
                let (set, value) = c_of(m);
                let status = pulsar_routing_resolve_routing_mode(set, value, custom_set, &mut mode);
                match core_api::resolve_routing_mode(m, custom_set) {
                    Ok(resolved) => {
                        assert_eq!(status, S::Ok);
                        assert_eq!(mode, c_of(Some(resolved)).1);
                    }
                    Err(e) => assert_eq!(status, S::from(e)),
                }
            }
        }

        assert_eq!(
            pulsar_routing_partition_switch_ms(10, 1_000, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_partition_switch_ms(0, 1_000, &mut switch_ms),
            S::SwitchFrequencyTooSmall
        );
        assert_eq!(
            pulsar_routing_partition_switch_ms(10, 999, &mut switch_ms),
            S::BatchDelayTooSmall
        );
        assert_eq!(switch_ms, I64_SENTINEL);
        for (frequency, delay, expected) in [(10, 1_000, 10), (3, 1_500, 4)] {
            assert_eq!(
                pulsar_routing_partition_switch_ms(frequency, delay, &mut switch_ms),
                S::Ok
            );
            assert_eq!(switch_ms, expected);
        }
    }
}
/// Every status has a message, and none was cut: the core's texts are
/// rendered into fixed static slots, which would give an empty string for
/// one that did not fit.
#[test]
fn every_status_has_a_whole_message() {
    for status in S::all() {
        let text = status.message().to_str().unwrap();
        assert!(!text.is_empty(), "{status:?} has no message");
        // Rendering twice gives the same static string.
        assert_eq!(status.message().as_ptr(), status.message().as_ptr());
    }
}

/// `pulsar_routing_last_error_message(status, ...)`, as a `String`.
pub(super) fn last_error(status: S) -> String {
    let mut buf = [0u8; 256];
    let mut written = usize::MAX;
    // SAFETY: live buffers.
    let got = unsafe {
        crate::last_error::pulsar_routing_last_error_message(
            status as u32,
            buf.as_mut_ptr(),
            buf.len(),
            &mut written,
        )
    };
    assert_eq!(got, S::Ok);
    String::from_utf8(buf[..written].to_vec()).unwrap()
}

/// A failed call leaves Java's whole message, values quoted, for its
/// thread; asked about another status, or before any failure, the static
/// message stands in; a later failure replaces it.
#[test]
fn last_error_message_is_javas_with_its_values() {
    const SENTINEL: u32 = 0xdead_beef;
    let mut out = SENTINEL;
    // SAFETY: a live out-parameter.
    let status = unsafe { pulsar_routing_check_partition(5, 4, &mut out) };
    assert_eq!((status, out), (S::IllegalPartitionIndex, SENTINEL));
    assert_eq!(
        last_error(status),
        pulsar_routing_core::RouteError::IllegalPartitionIndex(5).to_string()
    );
    assert_eq!(
        last_error(status),
        "Illegal partition index chosen by the message routing policy: 5"
    );
    // Another status: its static message.
    assert_eq!(
        last_error(S::PartitionCountZero),
        S::PartitionCountZero.message().to_str().unwrap()
    );
    // SAFETY: as above.
    let status = unsafe { pulsar_routing_check_partition(0, 0, &mut out) };
    assert_eq!(status, S::PartitionCountZero);
    assert_eq!(
        last_error(S::IllegalPartitionIndex),
        S::IllegalPartitionIndex.message().to_str().unwrap()
    );
    // Each thread keeps its own.
    let other = std::thread::spawn(|| last_error(S::PartitionCountZero))
        .join()
        .unwrap();
    assert_eq!(other, S::PartitionCountZero.message().to_str().unwrap());
    // A short buffer gets the length needed.
    let mut written = 0usize;
    let mut tiny = [0u8; 2];
    // SAFETY: live buffers.
    let got = unsafe {
        crate::last_error::pulsar_routing_last_error_message(
            S::PartitionCountZero as u32,
            tiny.as_mut_ptr(),
            tiny.len(),
            &mut written,
        )
    };
    assert_eq!(got, S::BufferTooSmall);
    assert_eq!(
        written,
        pulsar_routing_core::PartitionCountError::Zero
            .to_string()
            .len()
    );
}
