//! The client profiles and Kafka partitioners through the C API: NULLs,
//! unknown values and bad counts give their status without writing any
//! out-parameter, and good arguments agree with the core crate.

use core::ffi::CStr;
use core::ptr::{null, null_mut};

use crate::error::pulsar_routing_status as S;
use crate::kafka::*;
use crate::profiles::*;
use crate::routing_key::*;
use pulsar_routing_core::kafka::{self as core_kafka, LibrdkafkaPartitioner};
use pulsar_routing_core::profiles::{
    ClientHashingScheme, ClientProfile, KeyHash, ProfileConfig, ProfileKeying, ProfileMessage,
    ProfileMode,
};
use pulsar_routing_core::{PartitionCount, crc32};

const SENTINEL: u32 = 0xdead_beef;
const SENTINEL64: u64 = 0xdead_beef_dead_beef;

fn key_str(text: &str) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_STRING,
        data: text.as_ptr(),
        len: text.len(),
    }
}

fn name(ptr: *const core::ffi::c_char) -> Option<&'static str> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the library returns static NUL-terminated strings.
    Some(unsafe { CStr::from_ptr(ptr) }.to_str().unwrap())
}

/// `pulsar_routing_profile_partition` with a string key and no ordering key.
fn route(profile: u32, scheme: u32, mode: u32, key: &str, n: i64) -> (S, u32) {
    let mut out = SENTINEL;
    // SAFETY: a live key and out-parameter.
    let status = unsafe {
        pulsar_routing_profile_partition(
            profile,
            scheme,
            mode,
            key_str(key),
            null(),
            0,
            n,
            &mut out,
        )
    };
    (status, out)
}

#[test]
fn profile_names_round_trip() {
    for (i, profile) in ClientProfile::ALL.into_iter().enumerate() {
        let c = u32::try_from(i).unwrap();
        assert_eq!(
            name(pulsar_routing_client_profile_name(c)),
            Some(profile.name())
        );
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_client_profile_from_name(
                profile.name().as_ptr(),
                profile.name().len(),
                &mut out,
            )
        };
        assert_eq!((status, out), (S::Ok, c));
        let mut scheme = SENTINEL;
        // SAFETY: a live out-parameter.
        let status = unsafe { pulsar_routing_client_profile_default_scheme(c, &mut scheme) };
        assert_eq!(status, S::Ok);
        let expected = ProfileConfig::client_default(profile).scheme.name();
        assert_eq!(
            name(pulsar_routing_client_hashing_scheme_name(scheme)),
            Some(expected)
        );
    }
    assert_eq!(name(pulsar_routing_client_profile_name(6)), None);
    let mut out = SENTINEL;
    // SAFETY: live buffers; NULLs are rejected.
    unsafe {
        assert_eq!(
            pulsar_routing_client_profile_from_name(b"rust".as_ptr(), 4, &mut out),
            S::UnknownClientProfile
        );
        assert_eq!(
            pulsar_routing_client_profile_from_name(b"\xff".as_ptr(), 1, &mut out),
            S::UnknownClientProfile
        );
        assert_eq!(
            pulsar_routing_client_profile_from_name(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_client_profile_from_name(b"go".as_ptr(), 2, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_client_profile_default_scheme(99, &mut out),
            S::UnknownClientProfile
        );
        assert_eq!(
            pulsar_routing_client_profile_default_scheme(0, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_client_profile_from_name(b"pulsar_rs".as_ptr(), 9, &mut out),
            S::Ok
        );
    }
    assert_eq!(out, PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS);
}

#[test]
fn scheme_and_hash_names_round_trip() {
    for (c, text) in [
        (0, "java_string"),
        (1, "murmur3_32"),
        (2, "boost"),
        (3, "boost_1_62"),
        (4, "boost_1_33"),
        (5, "boost_1_81"),
        (6, "boost_1_82"),
    ] {
        assert_eq!(
            name(pulsar_routing_client_hashing_scheme_name(c)),
            Some(text)
        );
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_client_hashing_scheme_from_name(text.as_ptr(), text.len(), &mut out)
        };
        assert_eq!((status, out), (S::Ok, c));
    }
    for scheme in ClientHashingScheme::ALL {
        assert!(name(pulsar_routing_client_hashing_scheme_name(scheme as u32)).is_some());
    }
    assert_eq!(name(pulsar_routing_client_hashing_scheme_name(7)), None);
    // Any Boost release names its generation; the earlier name still parses.
    for (text, c) in [
        (
            "boost_1_74_x86_64",
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
        ),
        (
            "boost_1_74",
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
        ),
        (
            "boost_1_55",
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33,
        ),
        (
            "boost_1_84",
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82,
        ),
    ] {
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_client_hashing_scheme_from_name(text.as_ptr(), text.len(), &mut out)
        };
        assert_eq!((status, out), (S::Ok, c), "{text}");
    }
    for text in [
        "boost_1_32",
        "boost_1_92",
        "boost_1_",
        "boost_1_7x",
        "boost_2_0",
    ] {
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_client_hashing_scheme_from_name(text.as_ptr(), text.len(), &mut out)
        };
        assert_eq!(
            (status, out),
            (S::UnknownClientHashingScheme, SENTINEL),
            "{text}"
        );
    }
    for (i, hash) in KeyHash::ALL.into_iter().enumerate() {
        let c = u32::try_from(i).unwrap();
        assert_eq!(name(pulsar_routing_profile_hash_name(c)), Some(hash.name()));
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_profile_hash_from_name(hash.name().as_ptr(), hash.name().len(), &mut out)
        };
        assert_eq!((status, out), (S::Ok, c));
    }
    assert_eq!(name(pulsar_routing_profile_hash_name(13)), None);
    let mut out = SENTINEL;
    // SAFETY: live buffers; NULLs are rejected.
    unsafe {
        assert_eq!(
            pulsar_routing_client_hashing_scheme_from_name(b"md5".as_ptr(), 3, &mut out),
            S::UnknownClientHashingScheme
        );
        assert_eq!(
            pulsar_routing_client_hashing_scheme_from_name(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_profile_hash_from_name(b"md5".as_ptr(), 3, &mut out),
            S::UnknownProfileHash
        );
        assert_eq!(
            pulsar_routing_profile_hash_from_name(b"md5".as_ptr(), 3, null_mut()),
            S::NullParameter
        );
    }
    assert_eq!(out, SENTINEL);
}

#[test]
fn profile_hash_bytes_agree_with_the_core() {
    let key = b"polygenelubricants";
    for (i, hash) in KeyHash::ALL.into_iter().enumerate() {
        let mut out = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_profile_hash_bytes(
                u32::try_from(i).unwrap(),
                key.as_ptr(),
                key.len(),
                &mut out,
            )
        };
        match hash.hash_bytes(key) {
            Ok(expected) => assert_eq!((status, out), (S::Ok, expected), "{hash}"),
            Err(_) => assert_eq!((status, out), (S::BoostHashNotReproducible, SENTINEL)),
        }
    }
    let mut out = SENTINEL;
    // SAFETY: live buffers; NULLs are rejected.
    unsafe {
        assert_eq!(
            pulsar_routing_profile_hash_bytes(13, key.as_ptr(), 1, &mut out),
            S::UnknownProfileHash
        );
        assert_eq!(
            pulsar_routing_profile_hash_bytes(0, null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_profile_hash_bytes(0, key.as_ptr(), 1, null_mut()),
            S::NullParameter
        );
    }
    assert_eq!(out, SENTINEL);
}

#[test]
fn profile_partition_agrees_with_the_core() {
    let keys = [
        "",
        "a",
        "user-42",
        "polygenelubricants",
        "ключ",
        "customer-000042",
    ];
    let schemes = [
        (0, ClientHashingScheme::JavaStringHash),
        (1, ClientHashingScheme::Murmur3_32Hash),
        (2, ClientHashingScheme::BoostHash),
    ];
    for (p, profile) in ClientProfile::ALL.into_iter().enumerate() {
        for (m, mode) in ProfileMode::ALL.into_iter().enumerate() {
            for (c, scheme) in schemes {
                let config = ProfileConfig::client_default(profile)
                    .with_scheme(scheme)
                    .with_mode(mode);
                for key in keys {
                    for n in [1, 3, 12, 32768] {
                        let got = route(p as u32, c, m as u32, key, n);
                        let expected = ProfileKeying::new(profile, &config)
                            .map_err(S::from)
                            .and_then(|k| {
                                k.partition(
                                    &ProfileMessage::keyed(key),
                                    PartitionCount::from_i64(n).unwrap(),
                                )
                                .map_err(S::from)
                            });
                        let expected = match expected {
                            Ok(Some(partition)) => (S::Ok, partition),
                            Ok(None) => (S::NoKey, SENTINEL),
                            Err(status) => (status, SENTINEL),
                        };
                        assert_eq!(got, expected, "{profile} {mode} {scheme} {key:?} {n}");
                    }
                }
            }
        }
    }
}

#[test]
fn profile_partition_documented_cases() {
    const JAVA: u32 = PULSAR_ROUTING_CLIENT_PROFILE_JAVA;
    const GO: u32 = PULSAR_ROUTING_CLIENT_PROFILE_GO;
    const PYTHON: u32 = PULSAR_ROUTING_CLIENT_PROFILE_PYTHON;
    const DEFAULT: u32 = PULSAR_ROUTING_PROFILE_MODE_DEFAULT;
    // The core's example: Java and Go disagree on "customer-000042".
    assert_eq!(route(JAVA, 0, DEFAULT, "customer-000042", 10), (S::Ok, 1));
    assert_eq!(route(GO, 0, DEFAULT, "customer-000042", 10), (S::Ok, 9));
    // Go: the empty key is no key.
    assert_eq!(route(GO, 0, DEFAULT, "", 10), (S::NoKey, SENTINEL));
    // Python: BoostHash is the current wheel's (Boost 1.82 and later),
    // JavaStringHash not chosen; C++ refuses BoostHash of an unnamed Boost.
    let wheel = KeyHash::CppBoostHash1_82.hash_str("k").unwrap() % 10;
    assert_eq!(route(PYTHON, 2, DEFAULT, "k", 10), (S::Ok, wheel));
    assert_eq!(route(PYTHON, 6, DEFAULT, "k", 10), (S::Ok, wheel));
    assert_eq!(
        route(PULSAR_ROUTING_CLIENT_PROFILE_CPP, 2, DEFAULT, "k", 10),
        (S::BoostHashNotReproducible, SENTINEL)
    );
    assert_eq!(
        route(PYTHON, 0, DEFAULT, "k", 10),
        (S::PythonSchemeNotSelectable, SENTINEL)
    );
    assert_eq!(
        route(JAVA, 2, DEFAULT, "k", 10),
        (S::ProfileSchemeUnsupported, SENTINEL)
    );
    // The pinned Boost 1.74 build is reproduced.
    let expected = PartitionCount::new(10)
        .unwrap()
        .reduce(pulsar_routing_core::profiles::boost_hash_1_74_x86_64(b"k"));
    assert_eq!(route(PYTHON, 3, DEFAULT, "k", 10), (S::Ok, expected));
    // Go routes by the ordering key first.
    let (mut with, mut without) = (SENTINEL, SENTINEL);
    let ordering = b"session-7";
    // SAFETY: live keys and out-parameters.
    unsafe {
        assert_eq!(
            pulsar_routing_profile_partition(
                GO,
                0,
                DEFAULT,
                key_str(""),
                ordering.as_ptr(),
                ordering.len(),
                1000,
                &mut with
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_profile_partition(
                GO,
                0,
                DEFAULT,
                key_str("session-7"),
                null(),
                0,
                1000,
                &mut without
            ),
            S::Ok
        );
    }
    assert_eq!(with, without);
}

/// Expected status, profile, scheme, mode, key, ordering key and its
/// length, partition count, out-parameter.
type Case = (
    S,
    u32,
    u32,
    u32,
    pulsar_routing_key,
    *const u8,
    usize,
    i64,
    *mut u32,
);

/// C++ and Python cast the routed partition to a 16-bit `short`: at
/// 100,000 partitions, `hash % n` of 83783 is sent to 18247 and a negative
/// `short` fails the send. The one-shot call says the same as the router.
#[test]
fn profile_partition_applies_the_cpp_short_cast() {
    let n = PartitionCount::new(100_000).unwrap();
    let key_for = |target: u32| {
        (0u32..)
            .map(|i| format!("key-{i}"))
            .find(|k| n.reduce(pulsar_routing_core::murmur3_32(k.as_bytes())) == target)
            .unwrap()
    };
    let (delivered, refused) = (key_for(83_783), key_for(40_000));
    for profile in [
        PULSAR_ROUTING_CLIENT_PROFILE_CPP,
        PULSAR_ROUTING_CLIENT_PROFILE_PYTHON,
    ] {
        let murmur = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32;
        let mode = PULSAR_ROUTING_PROFILE_MODE_DEFAULT;
        assert_eq!(
            route(profile, murmur, mode, &delivered, 100_000),
            (S::Ok, 18_247)
        );
        assert_eq!(
            route(profile, murmur, mode, &refused, 100_000),
            (S::ProfileIllegalPartition, SENTINEL)
        );
    }
}

#[test]
fn profile_partition_rejects_bad_arguments() {
    let good = key_str("k");
    let mut out = SENTINEL;
    let units = [0x6bu16];
    let cases: [Case; 13] = [
        (S::NullParameter, 0, 0, 0, good, null(), 0, 3, null_mut()),
        (S::NullParameter, 0, 0, 0, good, null(), 1, 3, &mut out),
        (
            S::NullParameter,
            0,
            0,
            0,
            pulsar_routing_key {
                kind: PULSAR_ROUTING_KEY_KIND_STRING,
                data: null(),
                len: 0,
            },
            null(),
            0,
            3,
            &mut out,
        ),
        (
            S::UnknownKeyKind,
            0,
            0,
            0,
            pulsar_routing_key {
                kind: 9,
                data: null(),
                len: 0,
            },
            null(),
            0,
            3,
            &mut out,
        ),
        (
            S::ProfileKeyKindUnsupported,
            0,
            0,
            0,
            pulsar_routing_key {
                kind: PULSAR_ROUTING_KEY_KIND_UTF16,
                data: units.as_ptr().cast(),
                len: 1,
            },
            null(),
            0,
            3,
            &mut out,
        ),
        (
            S::InvalidUtf8,
            0,
            0,
            0,
            pulsar_routing_key {
                kind: PULSAR_ROUTING_KEY_KIND_STRING,
                data: b"\xff".as_ptr(),
                len: 1,
            },
            null(),
            0,
            3,
            &mut out,
        ),
        (
            S::UnknownClientProfile,
            6,
            0,
            0,
            good,
            null(),
            0,
            3,
            &mut out,
        ),
        (
            S::UnknownClientHashingScheme,
            0,
            7,
            0,
            good,
            null(),
            0,
            3,
            &mut out,
        ),
        (S::UnknownProfileMode, 0, 0, 3, good, null(), 0, 3, &mut out),
        (S::PartitionCountZero, 0, 0, 0, good, null(), 0, 0, &mut out),
        (
            S::PartitionCountNegative,
            0,
            0,
            0,
            good,
            null(),
            0,
            -1,
            &mut out,
        ),
        (
            S::PartitionCountTooLarge,
            0,
            0,
            0,
            good,
            null(),
            0,
            1 << 31,
            &mut out,
        ),
        (
            S::ProfileBytesKeyUnsupported,
            PULSAR_ROUTING_CLIENT_PROFILE_PYTHON,
            1,
            0,
            pulsar_routing_key {
                kind: PULSAR_ROUTING_KEY_KIND_BYTES,
                data: b"k".as_ptr(),
                len: 1,
            },
            null(),
            0,
            3,
            &mut out,
        ),
    ];
    for (i, (expected, profile, scheme, mode, key, ordering, ordering_len, n, out_ptr)) in
        cases.into_iter().enumerate()
    {
        // SAFETY: every non-NULL pointer is live.
        let status = unsafe {
            pulsar_routing_profile_partition(
                profile,
                scheme,
                mode,
                key,
                ordering,
                ordering_len,
                n,
                out_ptr,
            )
        };
        assert_eq!(status, expected, "case {i}");
    }
    assert_eq!(out, SENTINEL);
}

#[test]
fn partition_indexes() {
    let mut go = i64::MIN;
    let mut cpp = i32::MIN;
    // SAFETY: live buffers; NULLs are rejected.
    unsafe {
        let t = b"x-partition--1";
        assert_eq!(
            pulsar_routing_go_partition_index(t.as_ptr(), t.len(), &mut go),
            S::Ok
        );
        assert_eq!(go, 1);
        let t = b"x-partition-5abc";
        assert_eq!(
            pulsar_routing_cpp_partition_index(t.as_ptr(), t.len(), &mut cpp),
            S::Ok
        );
        assert_eq!(cpp, 5);
        go = i64::MIN;
        assert_eq!(
            pulsar_routing_go_partition_index(t.as_ptr(), t.len(), &mut go),
            S::GoAtoiSyntax
        );
        let t = b"x-partition-99999999999999999999";
        assert_eq!(
            pulsar_routing_go_partition_index(t.as_ptr(), t.len(), &mut go),
            S::GoAtoiRange
        );
        assert_eq!(go, i64::MIN);
        let t = b"plain";
        assert_eq!(
            pulsar_routing_go_partition_index(t.as_ptr(), t.len(), &mut go),
            S::Ok
        );
        assert_eq!(go, -1);
        assert_eq!(
            pulsar_routing_go_partition_index(null(), 0, &mut go),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_go_partition_index(t.as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_go_partition_index(b"\xff".as_ptr(), 1, &mut go),
            S::InvalidUtf8
        );
        cpp = i32::MIN;
        assert_eq!(
            pulsar_routing_cpp_partition_index(null(), 0, &mut cpp),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_cpp_partition_index(t.as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_cpp_partition_index(b"\xff".as_ptr(), 1, &mut cpp),
            S::InvalidUtf8
        );
        assert_eq!(cpp, i32::MIN);
    }
}

#[test]
fn kafka_hashes_agree_with_the_core() {
    for key in [
        &b""[..],
        b"a",
        b"user-42",
        b"\x00\xff\x80 twenty-one bytes!!",
    ] {
        let (mut m, mut f, mut p) = (SENTINEL, SENTINEL, SENTINEL);
        // SAFETY: live buffers.
        unsafe {
            assert_eq!(
                pulsar_routing_kafka_murmur2(key.as_ptr(), key.len(), &mut m),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_kafka_fnv1a(key.as_ptr(), key.len(), &mut f),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_kafka_partition_for_key(key.as_ptr(), key.len(), 12, &mut p),
                S::Ok
            );
        }
        assert_eq!(m, core_kafka::murmur2(key));
        assert_eq!(f, core_kafka::fnv1a(key));
        assert_eq!(
            p,
            core_kafka::partition_for_key(key, PartitionCount::new(12).unwrap())
        );
    }
    assert_eq!(pulsar_routing_kafka_to_positive(0xffff_ffff), 0x7fff_ffff);
    assert_eq!(pulsar_routing_kafka_to_positive(5), 5);
    let mut out = SENTINEL;
    // SAFETY: NULLs and bad counts are rejected.
    unsafe {
        assert_eq!(
            pulsar_routing_kafka_murmur2(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_murmur2(b"k".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_fnv1a(null(), 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_fnv1a(b"k".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_partition_for_key(null(), 0, 3, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_partition_for_key(b"k".as_ptr(), 1, 3, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_kafka_partition_for_key(b"k".as_ptr(), 1, 0, &mut out),
            S::PartitionCountZero
        );
        assert_eq!(
            pulsar_routing_kafka_partition_for_key(b"k".as_ptr(), 1, -3, &mut out),
            S::PartitionCountNegative
        );
    }
    assert_eq!(out, SENTINEL);
}

#[test]
fn librdkafka_partitioners() {
    for (i, partitioner) in LibrdkafkaPartitioner::ALL.into_iter().enumerate() {
        let c = u32::try_from(i).unwrap();
        assert_eq!(
            name(pulsar_routing_librdkafka_partitioner_name(c)),
            Some(partitioner.name())
        );
        let mut parsed = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe {
            pulsar_routing_librdkafka_partitioner_from_name(
                partitioner.name().as_ptr(),
                partitioner.name().len(),
                &mut parsed,
            )
        };
        assert_eq!((status, parsed), (S::Ok, c));
        let n = PartitionCount::new(7).unwrap();
        for key in [None, Some(&b""[..]), Some(b"user-42")] {
            let (ptr, len) = key.map_or((null(), 0), |k| (k.as_ptr(), k.len()));
            let (mut keyed, mut drawn) = (SENTINEL, SENTINEL);
            // SAFETY: live buffers; a NULL key is librdkafka's NULL key.
            let (status, drawn_status) = unsafe {
                (
                    pulsar_routing_librdkafka_partition_for_key(c, ptr, len, 7, &mut keyed),
                    pulsar_routing_librdkafka_partition(c, ptr, len, 7, 12, &mut drawn),
                )
            };
            match partitioner.partition_for_key(key, n) {
                Some(p) => assert_eq!((status, keyed), (S::Ok, p)),
                None => assert_eq!((status, keyed), (S::LibrdkafkaRandomPartition, SENTINEL)),
            }
            assert_eq!(drawn_status, S::Ok);
            assert_eq!(
                drawn,
                partitioner.partition(
                    key,
                    n,
                    core_kafka::RdRandom::one(12),
                    core_kafka::Availability::All
                )
            );
        }
    }
    // consistent_random hashes a key with CRC-32.
    let mut out = SENTINEL;
    // SAFETY: live buffers.
    unsafe {
        assert_eq!(
            pulsar_routing_librdkafka_partition_for_key(
                PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
                b"user-42".as_ptr(),
                7,
                10,
                &mut out
            ),
            S::Ok
        );
    }
    assert_eq!(out, crc32(b"user-42") % 10);
    assert_eq!(name(pulsar_routing_librdkafka_partitioner_name(7)), None);
    let mut out = SENTINEL;
    // SAFETY: NULLs and bad values are rejected.
    unsafe {
        assert_eq!(
            pulsar_routing_librdkafka_partition_for_key(1, null(), 1, 3, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition_for_key(1, null(), 0, 3, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition_for_key(7, null(), 0, 3, &mut out),
            S::UnknownLibrdkafkaPartitioner
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition_for_key(1, null(), 0, 0, &mut out),
            S::PartitionCountZero
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition(1, null(), 1, 3, 0, &mut out),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition(1, null(), 0, 3, 0, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition(7, null(), 0, 3, 0, &mut out),
            S::UnknownLibrdkafkaPartitioner
        );
        assert_eq!(
            pulsar_routing_librdkafka_partition(1, null(), 0, 1 << 31, 0, &mut out),
            S::PartitionCountTooLarge
        );
        assert_eq!(
            pulsar_routing_librdkafka_partitioner_from_name(b"crc".as_ptr(), 3, &mut out),
            S::UnknownLibrdkafkaPartitioner
        );
        assert_eq!(
            pulsar_routing_librdkafka_partitioner_from_name(null(), 0, &mut out),
            S::NullParameter
        );
    }
    assert_eq!(out, SENTINEL);
}

#[test]
fn new_statuses_use_the_core_messages() {
    use pulsar_routing_core::kafka::UnknownLibrdkafkaPartitioner;
    use pulsar_routing_core::profiles::{
        BoostHashNotReproducible, UnknownClientProfile, UnknownProfileMode,
    };
    let msg = |s: S| s.message().to_str().unwrap().to_owned();
    assert_eq!(
        msg(S::UnknownClientProfile),
        UnknownClientProfile.to_string()
    );
    assert_eq!(msg(S::UnknownProfileMode), UnknownProfileMode.to_string());
    assert_eq!(
        msg(S::BoostHashNotReproducible),
        BoostHashNotReproducible.to_string()
    );
    assert_eq!(
        msg(S::UnknownLibrdkafkaPartitioner),
        UnknownLibrdkafkaPartitioner.to_string()
    );
    for status in S::all() {
        let code = status as u32;
        if (700..800).contains(&code) {
            assert!(!msg(status).is_empty());
        }
    }
}

// ---------------------------------------------------------------------
// The keyless state machines: `pulsar_routing_profile_router`, the
// configuration it is built from, and Kafka's sticky partitioners.
// ---------------------------------------------------------------------

mod stateful {
    use core::ptr::{null, null_mut};

    use super::{SENTINEL, SENTINEL64, key_str};
    use crate::error::pulsar_routing_status as S;
    use crate::kafka::PULSAR_ROUTING_KAFKA_MURMUR2_SEED;
    use crate::kafka::sticky::*;
    use crate::profiles::router::*;
    use crate::profiles::*;
    use crate::routing_key::*;
    use pulsar_routing_core::PartitionCount;
    use pulsar_routing_core::kafka::{
        self as core_kafka, Availability, BuiltInPartitioner, JavaClientPartitioner,
        LibrdkafkaPartitioner, LibrdkafkaProducer, PartitionLoadStats, RdRandom, StickyChoice,
    };
    use pulsar_routing_core::profiles::{
        BoostHashGeneration, CharSignedness, ClientProfile, KeyHash, ProfileConfig, ProfileKey,
        ProfileMessage, ProfileMode, ProfileRouter, ProfileSeed,
    };

    type Router = pulsar_routing_profile_router;
    type BuiltIn = pulsar_routing_kafka_built_in_partitioner;
    type JavaClient = pulsar_routing_kafka_java_client_partitioner;
    type RdProducer = pulsar_routing_librdkafka_producer;

    const NONE: pulsar_routing_key = pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_NONE,
        data: null(),
        len: 0,
    };

    fn default_config(profile: u32) -> pulsar_routing_profile_config {
        let mut config = pulsar_routing_profile_config {
            scheme: 99,
            mode: 99,
            char_unsigned: true,
            batching_enabled: false,
            batching_max_messages: 0,
            batching_max_bytes: 0,
            batching_max_publish_delay_ns: 0,
            partition_switch_frequency: 0,
            lazy_start: true,
        };
        // SAFETY: a live out-parameter.
        let status = unsafe { pulsar_routing_profile_config_default(profile, &mut config) };
        assert_eq!(status, S::Ok);
        config
    }

    fn uniform(random: u32) -> pulsar_routing_kafka_sticky_choice {
        pulsar_routing_kafka_sticky_choice {
            random,
            available: null(),
            available_len: 0,
            queue_sizes: null_mut(),
            queue_sizes_len: 0,
            partition_ids: null(),
            partition_ids_len: 0,
            load_length: 0,
        }
    }

    #[test]
    fn config_default_is_the_core_default() {
        for (i, profile) in ClientProfile::ALL.into_iter().enumerate() {
            let c = default_config(u32::try_from(i).unwrap());
            let core = ProfileConfig::client_default(profile);
            let (scheme, _) = crate::profiles::scheme_from_c(c.scheme).unwrap();
            assert_eq!(scheme, core.scheme);
            assert_eq!(mode_from_c(c.mode).unwrap(), core.mode);
            assert!(!c.char_unsigned);
            assert_eq!(c.batching_enabled, core.batching.enabled);
            assert_eq!(c.batching_max_messages, core.batching.max_messages);
            assert_eq!(c.batching_max_bytes, core.batching.max_bytes);
            assert_eq!(
                c.batching_max_publish_delay_ns,
                core.batching.max_publish_delay_ns
            );
            assert_eq!(
                c.partition_switch_frequency,
                core.batching.partition_switch_frequency
            );
        }
        let mut config = default_config(0);
        let before = config.scheme;
        // SAFETY: NULL and a live out-parameter.
        unsafe {
            assert_eq!(
                pulsar_routing_profile_config_default(0, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_profile_config_default(6, &mut config),
                S::UnknownClientProfile
            );
        }
        assert_eq!(config.scheme, before);
    }

    /// C++ with unsigned `char`: the keyed partition through the C API is
    /// the core's `CppJavaStringHashUnsignedChar`, which differs from the
    /// signed one for a non-ASCII key.
    #[test]
    fn keying_partition_takes_the_unsigned_char_option() {
        let key = "clé-ü";
        let n = PartitionCount::new(97).unwrap();
        let mut config = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
        config.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING;
        let route = |config: &pulsar_routing_profile_config| {
            let mut out = SENTINEL;
            // SAFETY: live arguments.
            let status = unsafe {
                pulsar_routing_profile_keying_partition(
                    PULSAR_ROUTING_CLIENT_PROFILE_CPP,
                    config,
                    key_str(key),
                    null(),
                    0,
                    97,
                    &mut out,
                )
            };
            assert_eq!(status, S::Ok);
            out
        };
        let signed = route(&config);
        config.char_unsigned = true;
        let unsigned = route(&config);
        assert_eq!(
            signed,
            n.reduce(
                KeyHash::CppJavaStringHash
                    .hash_bytes(key.as_bytes())
                    .unwrap()
            )
        );
        assert_eq!(
            unsigned,
            n.reduce(
                KeyHash::CppJavaStringHashUnsignedChar
                    .hash_bytes(key.as_bytes())
                    .unwrap()
            )
        );
        assert_ne!(signed, unsigned, "the key was chosen so that they differ");
        let mut hash = SENTINEL;
        // SAFETY: live arguments.
        let status = unsafe {
            pulsar_routing_profile_keying_hash(
                PULSAR_ROUTING_CLIENT_PROFILE_CPP,
                &config,
                &mut hash,
            )
        };
        assert_eq!(
            (status, hash),
            (
                S::Ok,
                PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING_UNSIGNED_CHAR
            )
        );
        // And the core agrees that the config resolves to that hash.
        let core = ProfileConfig {
            char_signedness: CharSignedness::Unsigned,
            ..ProfileConfig::client_default(ClientProfile::Cpp)
                .with_scheme(pulsar_routing_core::profiles::ClientHashingScheme::JavaStringHash)
        };
        assert_eq!(
            pulsar_routing_core::profiles::ProfileKeying::new(ClientProfile::Cpp, &core)
                .unwrap()
                .hash(),
            KeyHash::CppJavaStringHashUnsignedChar
        );
    }

    #[test]
    fn keying_rejects_bad_arguments() {
        let config = default_config(0);
        let mut bad_scheme = config;
        bad_scheme.scheme = 7;
        let mut bad_mode = config;
        bad_mode.mode = 3;
        let mut out = SENTINEL;
        let mut hash = SENTINEL;
        // SAFETY: NULLs and live arguments.
        unsafe {
            let part = |profile, config: *const _, key, ok: *const u8, ok_len, n, out| {
                pulsar_routing_profile_keying_partition(profile, config, key, ok, ok_len, n, out)
            };
            assert_eq!(
                part(0, null(), key_str("k"), null(), 0, 3, &mut out),
                S::NullParameter
            );
            assert_eq!(
                part(0, &config, key_str("k"), null(), 0, 3, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                part(0, &config, key_str("k"), null(), 2, 3, &mut out),
                S::NullParameter
            );
            let null_key = pulsar_routing_key {
                kind: PULSAR_ROUTING_KEY_KIND_STRING,
                data: null(),
                len: 0,
            };
            assert_eq!(
                part(0, &config, null_key, null(), 0, 3, &mut out),
                S::NullParameter
            );
            assert_eq!(
                part(6, &config, key_str("k"), null(), 0, 3, &mut out),
                S::UnknownClientProfile
            );
            assert_eq!(
                part(0, &bad_scheme, key_str("k"), null(), 0, 3, &mut out),
                S::UnknownClientHashingScheme
            );
            assert_eq!(
                part(0, &bad_mode, key_str("k"), null(), 0, 3, &mut out),
                S::UnknownProfileMode
            );
            for (n, status) in [
                (0, S::PartitionCountZero),
                (-1, S::PartitionCountNegative),
                (1 << 31, S::PartitionCountTooLarge),
            ] {
                assert_eq!(
                    part(0, &config, key_str("k"), null(), 0, n, &mut out),
                    status
                );
            }
            assert_eq!(part(0, &config, NONE, null(), 0, 3, &mut out), S::NoKey);
            let cpp = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
            assert_eq!(
                part(2, &cpp, key_str("k"), null(), 0, 3, &mut out),
                S::BoostHashNotReproducible
            );
            let mut python = default_config(PULSAR_ROUTING_CLIENT_PROFILE_PYTHON);
            python.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING;
            assert_eq!(
                part(3, &python, key_str("k"), null(), 0, 3, &mut out),
                S::PythonSchemeNotSelectable
            );
            assert_eq!(
                pulsar_routing_profile_keying_hash(0, null(), &mut hash),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_profile_keying_hash(0, &config, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_profile_keying_hash(6, &config, &mut hash),
                S::UnknownClientProfile
            );
            assert_eq!(
                pulsar_routing_profile_keying_hash(0, &bad_scheme, &mut hash),
                S::UnknownClientHashingScheme
            );
            assert_eq!(
                pulsar_routing_profile_keying_hash(4, &config, &mut hash),
                S::ProfileSchemeUnsupported
            );
        }
        assert_eq!((out, hash), (SENTINEL, SENTINEL));
    }

    /// Every profile in every mode, with batching thresholds small enough
    /// to switch: the handle routes exactly as the core's `ProfileRouter`
    /// built from the same configuration and seed, message by message.
    #[test]
    fn profile_router_follows_the_core_router() {
        let keys = ["", "user-1", "user-2"];
        for (i, profile) in ClientProfile::ALL.into_iter().enumerate() {
            let c_profile = u32::try_from(i).unwrap();
            for (m, mode) in ProfileMode::ALL.into_iter().enumerate() {
                let mut config = default_config(c_profile);
                config.mode = u32::try_from(m).unwrap();
                if matches!(profile, ClientProfile::Cpp | ClientProfile::Python) {
                    config.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32;
                }
                config.batching_enabled = true;
                config.batching_max_messages = 3;
                config.batching_max_bytes = 250;
                config.batching_max_publish_delay_ns = 2_000_000;
                let (_, core_config) = config.with_profile(c_profile).unwrap();
                let seed = ProfileSeed {
                    start: 5,
                    created_ns: 1_000_000_000,
                };
                let mut core = ProfileRouter::new(profile, &core_config, seed).unwrap();
                let mut router = null_mut();
                // SAFETY: live arguments.
                let status = unsafe {
                    Router::pulsar_routing_profile_router_new(
                        c_profile,
                        &config,
                        seed.start,
                        seed.created_ns,
                        &mut router,
                    )
                };
                assert_eq!(status, S::Ok, "{profile} {mode}");
                let mut got_profile = SENTINEL;
                // SAFETY: a live router.
                let status = unsafe {
                    Router::pulsar_routing_profile_router_profile(router, &mut got_profile)
                };
                assert_eq!((status, got_profile), (S::Ok, c_profile));
                for step in 0u32..60 {
                    let n = 1 + i64::from(step % 7);
                    let now_ns = 1_000_000_000 + i64::from(step) * 700_000;
                    let payload = u64::from(step * 37 % 120);
                    let key = keys.get((step % 5) as usize).copied();
                    let c_key = key.map_or(NONE, key_str);
                    let mut out = SENTINEL;
                    // SAFETY: a live router and key.
                    let status = unsafe {
                        Router::pulsar_routing_profile_router_route(
                            router,
                            c_key,
                            null(),
                            0,
                            payload,
                            n,
                            now_ns,
                            &mut out,
                        )
                    };
                    let message = ProfileMessage {
                        key: key.map_or(ProfileKey::None, ProfileKey::Str),
                        ordering_key: None,
                        payload_len: payload,
                    };
                    let expected =
                        core.route(&message, PartitionCount::from_i64(n).unwrap(), now_ns);
                    match expected {
                        Ok(p) => assert_eq!((status, out), (S::Ok, p), "{profile} {mode} {step}"),
                        Err(e) => assert_eq!((status, out), (S::from(e), SENTINEL)),
                    }
                }
                // SAFETY: the router, freed once.
                unsafe { Router::pulsar_routing_profile_router_free(router) };
            }
        }
    }

    #[test]
    fn profile_router_rejects_bad_arguments() {
        let config = default_config(0);
        let mut router = null_mut();
        // SAFETY: NULLs and live arguments.
        unsafe {
            assert_eq!(
                Router::pulsar_routing_profile_router_new(0, null(), 0, 0, &mut router),
                S::NullParameter
            );
            assert_eq!(
                Router::pulsar_routing_profile_router_new(0, &config, 0, 0, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                Router::pulsar_routing_profile_router_new(6, &config, 0, 0, &mut router),
                S::UnknownClientProfile
            );
            let mut java = config;
            java.batching_max_publish_delay_ns = 999_999;
            assert_eq!(
                Router::pulsar_routing_profile_router_new(0, &java, 0, 0, &mut router),
                S::BatchDelayTooSmall
            );
            java = config;
            java.partition_switch_frequency = 0;
            assert_eq!(
                Router::pulsar_routing_profile_router_new(0, &java, 0, 0, &mut router),
                S::SwitchFrequencyTooSmall
            );
            assert!(router.is_null());
            Router::pulsar_routing_profile_router_free(null_mut());

            let mut single = config;
            single.mode = PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION;
            assert_eq!(
                Router::pulsar_routing_profile_router_new(0, &single, 7, 0, &mut router),
                S::Ok
            );
            let mut out = SENTINEL;
            let route = |router, key, ok: *const u8, ok_len, n, out| {
                Router::pulsar_routing_profile_router_route(router, key, ok, ok_len, 0, n, 0, out)
            };
            assert_eq!(
                route(null(), NONE, null(), 0, 3, &mut out),
                S::NullParameter
            );
            assert_eq!(
                route(router, NONE, null(), 0, 3, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                route(router, NONE, null(), 1, 3, &mut out),
                S::NullParameter
            );
            for (n, status) in [
                (0, S::PartitionCountZero),
                (-1, S::PartitionCountNegative),
                (1 << 31, S::PartitionCountTooLarge),
            ] {
                assert_eq!(route(router, NONE, null(), 0, n, &mut out), status);
            }
            // Java's single partition 7 on a topic of 3: the send fails.
            assert_eq!(
                route(router, NONE, null(), 0, 3, &mut out),
                S::ProfileIllegalPartition
            );
            assert_eq!(out, SENTINEL);
            assert_eq!(route(router, NONE, null(), 0, 8, &mut out), S::Ok);
            assert_eq!(out, 7);
            assert_eq!(
                Router::pulsar_routing_profile_router_profile(null(), &mut out),
                S::NullParameter
            );
            assert_eq!(
                Router::pulsar_routing_profile_router_profile(router, null_mut()),
                S::NullParameter
            );
            Router::pulsar_routing_profile_router_free(router);
        }
    }

    /// The sticky partitioner's sequence is the core's, for a run of
    /// appends that switches several times, uniform or over an
    /// availability list.
    #[test]
    fn built_in_partitioner_follows_the_core() {
        let available = [1u32, 4, 5];
        for availability in [None, Some(&available[..])] {
            let mut core = BuiltInPartitioner::new(100).unwrap();
            let mut handle = null_mut();
            // SAFETY: live arguments.
            let status =
                unsafe { BuiltIn::pulsar_routing_kafka_built_in_partitioner_new(100, &mut handle) };
            assert_eq!(status, S::Ok);
            let n = PartitionCount::new(6).unwrap();
            for step in 0u32..40 {
                let random = step.wrapping_mul(2_654_435_761);
                let mut choice = uniform(random);
                let core_choice = StickyChoice {
                    random,
                    availability: availability.map_or(Availability::All, Availability::Only),
                    load: None,
                };
                if let Some(ids) = availability {
                    choice.available = ids.as_ptr();
                    choice.available_len = ids.len();
                }
                let mut peeked = SENTINEL;
                // SAFETY: a live handle and choice.
                let status = unsafe {
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_peek_partition(
                        handle,
                        6,
                        choice,
                        &mut peeked,
                    )
                };
                assert_eq!(
                    (status, peeked),
                    (S::Ok, core.peek_partition(n, &core_choice).unwrap())
                );
                let bytes = 30 + (step as i32 % 4) * 10;
                let enable = step % 3 != 0;
                let (mut switched, mut next) = (false, SENTINEL);
                // SAFETY: as above.
                let status = unsafe {
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_update_partition_info(
                        handle,
                        bytes,
                        enable,
                        6,
                        uniform(random ^ 0x5555),
                        &mut switched,
                        &mut next,
                    )
                };
                let expected = core
                    .update_partition_info(
                        bytes,
                        enable,
                        n,
                        &StickyChoice::uniform(random ^ 0x5555),
                    )
                    .unwrap();
                assert_eq!(status, S::Ok);
                assert_eq!(switched, expected.is_some());
                if let Some(p) = expected {
                    assert_eq!(next, p);
                }
                let (mut drawn, mut partition, mut produced) = (false, SENTINEL, -1);
                // SAFETY: as above.
                let status = unsafe {
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_current(
                        handle,
                        &mut drawn,
                        &mut partition,
                        &mut produced,
                    )
                };
                assert_eq!(status, S::Ok);
                assert_eq!(core.current(), drawn.then_some((partition, produced)));
            }
            // SAFETY: freed once.
            unsafe { BuiltIn::pulsar_routing_kafka_built_in_partitioner_free(handle) };
        }
    }

    /// Adaptive partitioning: the queue sizes become Kafka's cumulative
    /// frequency table in place (the example in Kafka's comments, as the
    /// core documents it: 0 3 1 becomes 4 5 8), and a draw through the C
    /// choice picks what the core picks from the same table.
    #[test]
    fn load_stats_and_weighted_draws() {
        let mut queues = [0, 3, 1];
        let ids = [0u32, 1, 2];
        let mut enabled = false;
        // SAFETY: live arrays.
        let status = unsafe {
            pulsar_routing_kafka_partition_load_stats(
                queues.as_mut_ptr(),
                3,
                ids.as_ptr(),
                3,
                3,
                &mut enabled,
            )
        };
        let mut expected = [0, 3, 1];
        let stats = PartitionLoadStats::build(&mut expected, &ids, 3).unwrap();
        assert!(stats.is_some());
        assert_eq!((status, enabled, queues), (S::Ok, true, expected));
        // All equal and none excluded: adaptive partitioning is off and the
        // array is untouched.
        let mut equal = [2, 2, 2];
        // SAFETY: live arrays.
        let status = unsafe {
            pulsar_routing_kafka_partition_load_stats(
                equal.as_mut_ptr(),
                3,
                ids.as_ptr(),
                3,
                3,
                &mut enabled,
            )
        };
        assert_eq!((status, enabled, equal), (S::Ok, false, [2, 2, 2]));
        let mut bad = enabled;
        // SAFETY: NULLs and live arrays.
        unsafe {
            let stats = |q: *mut i32, ql, i: *const u32, il, len, out| {
                pulsar_routing_kafka_partition_load_stats(q, ql, i, il, len, out)
            };
            assert_eq!(
                stats(null_mut(), 0, ids.as_ptr(), 3, 0, &mut bad),
                S::NullParameter
            );
            assert_eq!(
                stats(equal.as_mut_ptr(), 3, null(), 0, 0, &mut bad),
                S::NullParameter
            );
            assert_eq!(
                stats(equal.as_mut_ptr(), 3, ids.as_ptr(), 3, 0, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                stats(equal.as_mut_ptr(), 2, ids.as_ptr(), 3, 2, &mut bad),
                S::KafkaLoadStatsShape
            );
            assert_eq!(
                stats(equal.as_mut_ptr(), 3, ids.as_ptr(), 3, 4, &mut bad),
                S::KafkaLoadStatsShape
            );
        }
        assert_eq!(bad, enabled);

        for random in [0u32, 1, 3, 4, 5, 7, 0x8000_0004, u32::MAX] {
            let mut c_queues = [0, 3, 1];
            let mut core_queues = [0, 3, 1];
            let choice = pulsar_routing_kafka_sticky_choice {
                queue_sizes: c_queues.as_mut_ptr(),
                queue_sizes_len: 3,
                partition_ids: ids.as_ptr(),
                partition_ids_len: 3,
                load_length: 3,
                ..uniform(random)
            };
            let mut handle = null_mut();
            let mut got = SENTINEL;
            // SAFETY: live arguments.
            unsafe {
                assert_eq!(
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_for_batch_size(
                        0,
                        &mut handle
                    ),
                    S::Ok
                );
                assert_eq!(
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_peek_partition(
                        handle, 3, choice, &mut got
                    ),
                    S::Ok
                );
                let mut size = 0;
                assert_eq!(
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(
                        handle, &mut size
                    ),
                    S::Ok
                );
                assert_eq!(
                    size,
                    BuiltInPartitioner::for_batch_size(0).sticky_batch_size()
                );
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_free(handle);
            }
            let load = PartitionLoadStats::build(&mut core_queues, &ids, 3).unwrap();
            let core_choice = StickyChoice {
                random,
                availability: Availability::All,
                load,
            };
            let mut core = BuiltInPartitioner::for_batch_size(0);
            let n = PartitionCount::new(3).unwrap();
            assert_eq!(
                got,
                core.peek_partition(n, &core_choice).unwrap(),
                "{random}"
            );
        }
    }

    #[test]
    fn built_in_partitioner_rejects_bad_arguments() {
        let mut handle = null_mut();
        let mut out = SENTINEL;
        let mut switched = false;
        // SAFETY: NULLs and live arguments.
        unsafe {
            assert_eq!(
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_new(1, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_for_batch_size(1, null_mut()),
                S::NullParameter
            );
            for size in [0, -1, i32::MIN] {
                assert_eq!(
                    BuiltIn::pulsar_routing_kafka_built_in_partitioner_new(size, &mut handle),
                    S::KafkaInvalidStickyBatchSize
                );
            }
            assert!(handle.is_null());
            BuiltIn::pulsar_routing_kafka_built_in_partitioner_free(null_mut());
            assert_eq!(
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_new(10, &mut handle),
                S::Ok
            );
            let peek = |h, n, c, o| {
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_peek_partition(h, n, c, o)
            };
            assert_eq!(peek(null(), 3, uniform(0), &mut out), S::NullParameter);
            assert_eq!(peek(handle, 3, uniform(0), null_mut()), S::NullParameter);
            let null_available = pulsar_routing_kafka_sticky_choice {
                available_len: 1,
                ..uniform(0)
            };
            assert_eq!(peek(handle, 3, null_available, &mut out), S::NullParameter);
            let half_load = pulsar_routing_kafka_sticky_choice {
                partition_ids: [0u32].as_ptr(),
                partition_ids_len: 1,
                ..uniform(0)
            };
            assert_eq!(peek(handle, 3, half_load, &mut out), S::NullParameter);
            for (n, status) in [
                (0, S::PartitionCountZero),
                (-1, S::PartitionCountNegative),
                (1 << 31, S::PartitionCountTooLarge),
            ] {
                assert_eq!(peek(handle, n, uniform(0), &mut out), status);
            }
            let beyond = [9u32];
            let out_of_range = pulsar_routing_kafka_sticky_choice {
                available: beyond.as_ptr(),
                available_len: 1,
                ..uniform(0)
            };
            assert_eq!(
                peek(handle, 3, out_of_range, &mut out),
                S::KafkaPartitionOutOfRange
            );
            let mut queues = [0, 1];
            let shape = pulsar_routing_kafka_sticky_choice {
                queue_sizes: queues.as_mut_ptr(),
                queue_sizes_len: 2,
                partition_ids: [0u32].as_ptr(),
                partition_ids_len: 1,
                load_length: 1,
                ..uniform(0)
            };
            assert_eq!(peek(handle, 3, shape, &mut out), S::KafkaLoadStatsShape);
            assert_eq!(out, SENTINEL);
            let update = |h, c, s, o| {
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_update_partition_info(
                    h, 5, true, 3, c, s, o,
                )
            };
            assert_eq!(
                update(null(), uniform(0), &mut switched, &mut out),
                S::NullParameter
            );
            assert_eq!(
                update(handle, uniform(0), null_mut(), &mut out),
                S::NullParameter
            );
            assert_eq!(
                update(handle, uniform(0), &mut switched, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                update(handle, null_available, &mut switched, &mut out),
                S::NullParameter
            );
            // Before the first peek nothing is counted.
            assert_eq!(update(handle, uniform(0), &mut switched, &mut out), S::Ok);
            assert!(!switched);
            let mut size = 0;
            assert_eq!(
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(
                    null(),
                    &mut size
                ),
                S::NullParameter
            );
            assert_eq!(
                BuiltIn::pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(
                    handle,
                    null_mut()
                ),
                S::NullParameter
            );
            let (mut drawn, mut produced) = (true, 0);
            let current =
                |h, d, p, b| BuiltIn::pulsar_routing_kafka_built_in_partitioner_current(h, d, p, b);
            assert_eq!(
                current(null(), &mut drawn, &mut out, &mut produced),
                S::NullParameter
            );
            assert_eq!(
                current(handle, null_mut(), &mut out, &mut produced),
                S::NullParameter
            );
            assert_eq!(
                current(handle, &mut drawn, null_mut(), &mut produced),
                S::NullParameter
            );
            assert_eq!(
                current(handle, &mut drawn, &mut out, null_mut()),
                S::NullParameter
            );
            assert_eq!(current(handle, &mut drawn, &mut out, &mut produced), S::Ok);
            assert!(!drawn);
            assert_eq!(out, SENTINEL);
            BuiltIn::pulsar_routing_kafka_built_in_partitioner_free(handle);
        }
    }

    /// The Java producer: the core's own doc sequence, and a longer mixed
    /// run, through the handle.
    #[test]
    fn java_client_partitioner_follows_the_core() {
        for ignore_keys in [false, true] {
            let mut core = JavaClientPartitioner::new(200, ignore_keys);
            let mut handle = null_mut();
            // SAFETY: live arguments.
            let status = unsafe {
                JavaClient::pulsar_routing_kafka_java_client_partitioner_new(
                    200,
                    ignore_keys,
                    &mut handle,
                )
            };
            assert_eq!(status, S::Ok);
            let n = PartitionCount::new(5).unwrap();
            let keys: [Option<&[u8]>; 4] = [None, Some(b""), Some(b"user-1"), None];
            for step in 0u32..50 {
                let key = keys[(step % 4) as usize];
                let (ptr, len) = key.map_or((null(), 0), |k| (k.as_ptr(), k.len()));
                let bytes = 40 + (step as i32 % 3) * 25;
                let random = step.wrapping_mul(0x9e37_79b9);
                let mut out = SENTINEL;
                // SAFETY: live arguments.
                let status = unsafe {
                    JavaClient::pulsar_routing_kafka_java_client_partitioner_append(
                        handle,
                        ptr,
                        len,
                        bytes,
                        step % 2 == 0,
                        5,
                        uniform(random),
                        &mut out,
                    )
                };
                let expected = core
                    .append(key, bytes, step % 2 == 0, n, &StickyChoice::uniform(random))
                    .unwrap();
                assert_eq!((status, out), (S::Ok, expected));
                let (mut drawn, mut partition, mut produced) = (false, SENTINEL, -1);
                // SAFETY: live arguments.
                let status = unsafe {
                    JavaClient::pulsar_routing_kafka_java_client_partitioner_current(
                        handle,
                        &mut drawn,
                        &mut partition,
                        &mut produced,
                    )
                };
                assert_eq!(status, S::Ok);
                assert_eq!(
                    core.sticky().current(),
                    drawn.then_some((partition, produced))
                );
            }
            // SAFETY: NULLs and the live handle, freed once.
            unsafe {
                let mut out = SENTINEL;
                let append = |h, k: *const u8, l, c, o| {
                    JavaClient::pulsar_routing_kafka_java_client_partitioner_append(
                        h, k, l, 1, true, 5, c, o,
                    )
                };
                assert_eq!(
                    append(null(), null(), 0, uniform(0), &mut out),
                    S::NullParameter
                );
                assert_eq!(
                    append(handle, null(), 0, uniform(0), null_mut()),
                    S::NullParameter
                );
                assert_eq!(
                    append(handle, null(), 3, uniform(0), &mut out),
                    S::NullParameter
                );
                let null_available = pulsar_routing_kafka_sticky_choice {
                    available_len: 2,
                    ..uniform(0)
                };
                assert_eq!(
                    append(handle, null(), 0, null_available, &mut out),
                    S::NullParameter
                );
                for (n, status) in [
                    (0, S::PartitionCountZero),
                    (-1, S::PartitionCountNegative),
                    (1 << 31, S::PartitionCountTooLarge),
                ] {
                    assert_eq!(
                        JavaClient::pulsar_routing_kafka_java_client_partitioner_append(
                            handle,
                            null(),
                            0,
                            1,
                            true,
                            n,
                            uniform(0),
                            &mut out
                        ),
                        status
                    );
                }
                assert_eq!(out, SENTINEL);
                let (mut d, mut p, mut b) = (false, 0, 0);
                let current = |h, d, p, b| {
                    JavaClient::pulsar_routing_kafka_java_client_partitioner_current(h, d, p, b)
                };
                assert_eq!(current(null(), &mut d, &mut p, &mut b), S::NullParameter);
                assert_eq!(
                    current(handle, null_mut(), &mut p, &mut b),
                    S::NullParameter
                );
                assert_eq!(
                    current(handle, &mut d, null_mut(), &mut b),
                    S::NullParameter
                );
                assert_eq!(
                    current(handle, &mut d, &mut p, null_mut()),
                    S::NullParameter
                );
                assert_eq!(
                    JavaClient::pulsar_routing_kafka_java_client_partitioner_new(
                        1,
                        false,
                        null_mut()
                    ),
                    S::NullParameter
                );
                JavaClient::pulsar_routing_kafka_java_client_partitioner_free(handle);
                JavaClient::pulsar_routing_kafka_java_client_partitioner_free(null_mut());
            }
        }
    }

    /// librdkafka's producer path, every partitioner, with availability
    /// changes and a clock that crosses the linger: the handle is the
    /// core's producer.
    #[test]
    fn librdkafka_producer_follows_the_core() {
        let down = [0u32, 2, 3];
        for (i, partitioner) in LibrdkafkaPartitioner::ALL.into_iter().enumerate() {
            let c = u32::try_from(i).unwrap();
            let mut core = LibrdkafkaProducer::new(partitioner, 10).unwrap();
            let mut handle = null_mut();
            // SAFETY: live arguments.
            let status =
                unsafe { RdProducer::pulsar_routing_librdkafka_producer_new(c, 10, &mut handle) };
            assert_eq!(status, S::Ok);
            let mut got = SENTINEL;
            // SAFETY: live arguments.
            let status = unsafe {
                RdProducer::pulsar_routing_librdkafka_producer_partitioner(handle, &mut got)
            };
            assert_eq!((status, got), (S::Ok, c));
            let n = PartitionCount::new(4).unwrap();
            let keys: [Option<&[u8]>; 3] = [None, Some(b""), Some(b"k-9")];
            for step in 0u32..40 {
                let key = keys[(step % 3) as usize];
                let (ptr, len) = key.map_or((null(), 0), |k| (k.as_ptr(), k.len()));
                let now_us = 5_000 + i64::from(step) * 3_700;
                let (first, second) = (step * 7 + 1, step * 13 + 2);
                let available = (step % 5 == 4).then_some(&down[..]);
                let (aptr, alen) = available.map_or((null(), 0), |a| (a.as_ptr(), a.len()));
                let mut out = SENTINEL;
                // SAFETY: live arguments.
                let status = unsafe {
                    RdProducer::pulsar_routing_librdkafka_producer_partition(
                        handle, ptr, len, 4, now_us, first, second, aptr, alen, &mut out,
                    )
                };
                let expected = core.partition(
                    key,
                    n,
                    now_us,
                    RdRandom { first, second },
                    available.map_or(Availability::All, Availability::Only),
                );
                match expected {
                    Ok(p) => assert_eq!((status, out), (S::Ok, p), "{partitioner} {step}"),
                    Err(e) => assert_eq!((status, out), (S::from(e), SENTINEL)),
                }
                let (mut drawn, mut sticky) = (false, SENTINEL);
                // SAFETY: live arguments.
                let status = unsafe {
                    RdProducer::pulsar_routing_librdkafka_producer_sticky_partition(
                        handle,
                        &mut drawn,
                        &mut sticky,
                    )
                };
                assert_eq!(status, S::Ok);
                assert_eq!(core.sticky_partition(), drawn.then_some(sticky));
            }
            // SAFETY: freed once.
            unsafe { RdProducer::pulsar_routing_librdkafka_producer_free(handle) };
        }
    }

    #[test]
    fn librdkafka_producer_rejects_bad_arguments() {
        let mut handle = null_mut();
        let mut out = SENTINEL;
        // SAFETY: NULLs and live arguments.
        unsafe {
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_new(0, 10, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_new(7, 10, &mut handle),
                S::UnknownLibrdkafkaPartitioner
            );
            for linger in [-1, 900_001, i64::MIN] {
                assert_eq!(
                    RdProducer::pulsar_routing_librdkafka_producer_new(2, linger, &mut handle),
                    S::LibrdkafkaStickyLingerOutOfRange
                );
            }
            assert!(handle.is_null());
            RdProducer::pulsar_routing_librdkafka_producer_free(null_mut());
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_new(2, 10, &mut handle),
                S::Ok
            );
            let part = |h, k: *const u8, l, n, now, a: *const u32, al, o| {
                RdProducer::pulsar_routing_librdkafka_producer_partition(
                    h, k, l, n, now, 1, 2, a, al, o,
                )
            };
            assert_eq!(
                part(null(), null(), 0, 4, 0, null(), 0, &mut out),
                S::NullParameter
            );
            assert_eq!(
                part(handle, null(), 0, 4, 0, null(), 0, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                part(handle, null(), 1, 4, 0, null(), 0, &mut out),
                S::NullParameter
            );
            assert_eq!(
                part(handle, null(), 0, 4, 0, null(), 1, &mut out),
                S::NullParameter
            );
            for (n, status) in [
                (0, S::PartitionCountZero),
                (-1, S::PartitionCountNegative),
                (1 << 31, S::PartitionCountTooLarge),
            ] {
                assert_eq!(
                    part(handle, null(), 0, n, 20_000, null(), 0, &mut out),
                    status
                );
            }
            // Within the linger of the clock's origin: nothing drawn yet.
            assert_eq!(
                part(handle, null(), 0, 4, 10_000, null(), 0, &mut out),
                S::LibrdkafkaStickyPartitionUnassigned
            );
            // Drawn on an 8-partition topic (1 % 8) at 20 ms; then the topic
            // shrinks to 1 partition, and the next message's clock (10 ms)
            // does not let the expedited re-draw happen: the stale partition
            // is unknown.
            assert_eq!(
                part(handle, null(), 0, 8, 20_000, null(), 0, &mut out),
                S::Ok
            );
            let mut shrunk = SENTINEL;
            let status = RdProducer::pulsar_routing_librdkafka_producer_partition(
                handle,
                null(),
                0,
                1,
                10_000,
                1,
                2,
                null(),
                0,
                &mut shrunk,
            );
            let mut core =
                LibrdkafkaProducer::new(LibrdkafkaPartitioner::ConsistentRandom, 10).unwrap();
            let _ = core.partition(
                None,
                PartitionCount::new(8).unwrap(),
                20_000,
                RdRandom {
                    first: 1,
                    second: 2,
                },
                Availability::All,
            );
            let expected = core.partition(
                None,
                PartitionCount::new(1).unwrap(),
                10_000,
                RdRandom {
                    first: 1,
                    second: 2,
                },
                Availability::All,
            );
            assert_eq!(expected.map_err(S::from), Err(status));
            assert_eq!(status, S::LibrdkafkaUnknownPartition);
            assert_eq!(shrunk, SENTINEL);
            let (mut d, mut p) = (false, 0);
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_sticky_partition(
                    null(),
                    &mut d,
                    &mut p
                ),
                S::NullParameter
            );
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_sticky_partition(
                    handle,
                    null_mut(),
                    &mut p
                ),
                S::NullParameter
            );
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_sticky_partition(
                    handle,
                    &mut d,
                    null_mut()
                ),
                S::NullParameter
            );
            let mut which = SENTINEL;
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_partitioner(null(), &mut which),
                S::NullParameter
            );
            assert_eq!(
                RdProducer::pulsar_routing_librdkafka_producer_partitioner(handle, null_mut()),
                S::NullParameter
            );
            RdProducer::pulsar_routing_librdkafka_producer_free(handle);
        }
    }

    #[test]
    fn librdkafka_random_draws_and_linger() {
        let available = [0u32, 2];
        for n in 1..6i64 {
            let count = PartitionCount::from_i64(n).unwrap();
            for (first, second) in [(5, 6), (0, 1), (u32::MAX, 3)] {
                for list in [None, Some(&available[..]), Some(&[][..])] {
                    let (ptr, len) = list.map_or((null(), 0), |a| (a.as_ptr(), a.len()));
                    let availability = list.map_or(Availability::All, Availability::Only);
                    let mut out = SENTINEL;
                    // SAFETY: live arguments.
                    let status = unsafe {
                        pulsar_routing_librdkafka_random_partition(
                            n, first, second, ptr, len, &mut out,
                        )
                    };
                    let draws = RdRandom { first, second };
                    assert_eq!(
                        (status, out),
                        (
                            S::Ok,
                            core_kafka::random_partition(count, draws, availability)
                        )
                    );
                    for (i, partitioner) in LibrdkafkaPartitioner::ALL.into_iter().enumerate() {
                        for key in [None, Some(&b""[..]), Some(b"user-42")] {
                            let (kptr, klen) = key.map_or((null(), 0), |k| (k.as_ptr(), k.len()));
                            let mut got = SENTINEL;
                            // SAFETY: live arguments.
                            let status = unsafe {
                                pulsar_routing_librdkafka_partition_with_availability(
                                    u32::try_from(i).unwrap(),
                                    kptr,
                                    klen,
                                    n,
                                    first,
                                    second,
                                    ptr,
                                    len,
                                    &mut got,
                                )
                            };
                            assert_eq!(
                                (status, got),
                                (
                                    S::Ok,
                                    partitioner.partition(key, count, draws, availability)
                                )
                            );
                        }
                    }
                }
            }
        }
        let mut out = SENTINEL;
        let mut linger = -1;
        // SAFETY: NULLs and live arguments.
        unsafe {
            assert_eq!(
                pulsar_routing_librdkafka_random_partition(3, 0, 0, null(), 0, null_mut()),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_librdkafka_random_partition(3, 0, 0, null(), 1, &mut out),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_librdkafka_random_partition(0, 0, 0, null(), 0, &mut out),
                S::PartitionCountZero
            );
            assert_eq!(
                pulsar_routing_librdkafka_random_partition(-1, 0, 0, null(), 0, &mut out),
                S::PartitionCountNegative
            );
            assert_eq!(
                pulsar_routing_librdkafka_random_partition(1 << 31, 0, 0, null(), 0, &mut out),
                S::PartitionCountTooLarge
            );
            let with = |p, k: *const u8, l, n, a: *const u32, al, o| {
                pulsar_routing_librdkafka_partition_with_availability(p, k, l, n, 0, 0, a, al, o)
            };
            assert_eq!(
                with(0, null(), 0, 3, null(), 0, null_mut()),
                S::NullParameter
            );
            assert_eq!(with(0, null(), 1, 3, null(), 0, &mut out), S::NullParameter);
            assert_eq!(with(0, null(), 0, 3, null(), 1, &mut out), S::NullParameter);
            assert_eq!(
                with(7, null(), 0, 3, null(), 0, &mut out),
                S::UnknownLibrdkafkaPartitioner
            );
            assert_eq!(
                with(0, null(), 0, 0, null(), 0, &mut out),
                S::PartitionCountZero
            );
            assert_eq!(
                with(0, null(), 0, -1, null(), 0, &mut out),
                S::PartitionCountNegative
            );
            assert_eq!(
                with(0, null(), 0, 1 << 31, null(), 0, &mut out),
                S::PartitionCountTooLarge
            );
            assert_eq!(out, SENTINEL);
            assert_eq!(
                pulsar_routing_librdkafka_default_sticky_linger_ms(5.0, null_mut()),
                S::NullParameter
            );
            for linger_ms in [5.0, 0.0, 0.4, 1e9, -3.0, f64::NAN] {
                assert_eq!(
                    pulsar_routing_librdkafka_default_sticky_linger_ms(linger_ms, &mut linger),
                    S::Ok
                );
                assert_eq!(linger, core_kafka::default_sticky_linger_ms(linger_ms));
            }
        }
    }

    #[test]
    fn kafka_statuses_use_the_core_messages() {
        use pulsar_routing_core::kafka::KafkaError;
        let msg = |s: S| s.message().to_str().unwrap().to_owned();
        let cases = [
            (
                KafkaError::InvalidStickyBatchSize(0),
                S::KafkaInvalidStickyBatchSize,
            ),
            (
                KafkaError::LoadStatsShape {
                    queue_sizes: 1,
                    partition_ids: 2,
                    length: 3,
                },
                S::KafkaLoadStatsShape,
            ),
            (KafkaError::CorruptLoadStats(-1), S::KafkaCorruptLoadStats),
            (
                KafkaError::PartitionOutOfRange {
                    partition: 9,
                    num_partitions: 3,
                },
                S::KafkaPartitionOutOfRange,
            ),
            (
                KafkaError::UnknownPartition(5),
                S::LibrdkafkaUnknownPartition,
            ),
            (
                KafkaError::StickyPartitionUnassigned,
                S::LibrdkafkaStickyPartitionUnassigned,
            ),
            (
                KafkaError::StickyLingerOutOfRange(-1),
                S::LibrdkafkaStickyLingerOutOfRange,
            ),
        ];
        for (error, status) in cases {
            assert_eq!(S::from(error), status);
            // The C text is the core's without the numbers: every word of
            // it is in the core's message, in order.
            let core = error.to_string();
            let mut rest = core.as_str();
            for word in msg(status)
                .split(' ')
                .filter(|w| !w.is_empty() && !w.contains("num_partitions"))
            {
                let word = word.trim_end_matches(':');
                let at = rest
                    .find(word)
                    .unwrap_or_else(|| panic!("{word:?} not in {core:?}"));
                rest = &rest[at + word.len()..];
            }
        }
    }

    /// The one-shot functions next to the state machines.
    #[test]
    fn one_shot_profile_functions() {
        assert_eq!(PULSAR_ROUTING_KAFKA_MURMUR2_SEED, core_kafka::MURMUR2_SEED);
        let mut out = SENTINEL;
        // SAFETY: NULLs and live out-parameters.
        unsafe {
            let n = 100_000;
            // `(short)70000` is 70000 - 65536 = 4464, which is below n.
            assert_eq!(
                pulsar_routing_cpp_partitioned_producer_check(70_000, n, &mut out),
                S::Ok
            );
            assert_eq!(out, 4464);
            for partition in [35_000, -1, 5] {
                let mut bad = SENTINEL;
                let expected = pulsar_routing_core::profiles::cpp_partitioned_producer_check(
                    partition,
                    PartitionCount::new(5).unwrap(),
                );
                let status = pulsar_routing_cpp_partitioned_producer_check(partition, 5, &mut bad);
                match expected {
                    Ok(p) => assert_eq!((status, bad), (S::Ok, p)),
                    Err(_) => assert_eq!((status, bad), (S::ProfileIllegalPartition, SENTINEL)),
                }
            }
            assert_eq!(
                pulsar_routing_cpp_partitioned_producer_check(0, 3, null_mut()),
                S::NullParameter
            );
            for (n, status) in [
                (0, S::PartitionCountZero),
                (-1, S::PartitionCountNegative),
                (1 << 31, S::PartitionCountTooLarge),
            ] {
                assert_eq!(
                    pulsar_routing_cpp_partitioned_producer_check(0, n, &mut out),
                    status
                );
            }

            let mut raw = 0u64;
            for key in [&b""[..], b"user-42", "cl\u{e9}".as_bytes()] {
                assert_eq!(
                    pulsar_routing_boost_hash_1_74_x86_64_raw(key.as_ptr(), key.len(), &mut raw),
                    S::Ok
                );
                assert_eq!(
                    raw,
                    pulsar_routing_core::profiles::boost_hash_1_74_x86_64_raw(key)
                );
                // BoostHash is the raw value masked to 31 bits.
                assert_eq!(
                    (raw & 0x7fff_ffff) as u32,
                    KeyHash::CppBoostHash1_62.hash_bytes(key).unwrap()
                );
                // The generic entry point agrees, for every generation.
                let mut generic = SENTINEL64;
                assert_eq!(
                    pulsar_routing_boost_hash_raw(
                        PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
                        false,
                        key.as_ptr(),
                        key.len(),
                        &mut generic
                    ),
                    S::Ok
                );
                assert_eq!(generic, raw);
                for (scheme, generation) in [
                    (
                        PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33,
                        BoostHashGeneration::Boost1_33,
                    ),
                    (
                        PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
                        BoostHashGeneration::Boost1_62,
                    ),
                    (
                        PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_81,
                        BoostHashGeneration::Boost1_81,
                    ),
                    (
                        PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82,
                        BoostHashGeneration::Boost1_82,
                    ),
                ] {
                    for (unsigned, signedness) in [
                        (false, CharSignedness::Signed),
                        (true, CharSignedness::Unsigned),
                    ] {
                        assert_eq!(
                            pulsar_routing_boost_hash_raw(
                                scheme,
                                unsigned,
                                key.as_ptr(),
                                key.len(),
                                &mut generic
                            ),
                            S::Ok
                        );
                        assert_eq!(generic, generation.hash_raw(key, signedness));
                    }
                }
            }
            assert_eq!(
                pulsar_routing_boost_hash_1_74_x86_64_raw(null(), 0, &mut raw),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_boost_hash_1_74_x86_64_raw(b"k".as_ptr(), 1, null_mut()),
                S::NullParameter
            );
            let mut untouched = SENTINEL64;
            for (scheme, status) in [
                (
                    PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST,
                    S::BoostHashNotReproducible,
                ),
                (
                    PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32,
                    S::UnknownClientHashingScheme,
                ),
                (99, S::UnknownClientHashingScheme),
            ] {
                assert_eq!(
                    pulsar_routing_boost_hash_raw(scheme, false, b"k".as_ptr(), 1, &mut untouched),
                    status
                );
            }
            assert_eq!(untouched, SENTINEL64);
            assert_eq!(
                pulsar_routing_boost_hash_raw(
                    PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82,
                    false,
                    null(),
                    0,
                    &mut untouched
                ),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_boost_hash_raw(
                    PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82,
                    false,
                    b"k".as_ptr(),
                    1,
                    null_mut()
                ),
                S::NullParameter
            );

            let atoi =
                |text: &[u8], out: *mut i64| pulsar_routing_go_atoi(text.as_ptr(), text.len(), out);
            let mut value = -7i64;
            assert_eq!(atoi(b"+01", &mut value), S::Ok);
            assert_eq!(value, 1);
            assert_eq!(atoi(b"-9223372036854775808", &mut value), S::Ok);
            assert_eq!(value, i64::MIN);
            value = -7;
            assert_eq!(atoi(b"", &mut value), S::GoAtoiSyntax);
            assert_eq!(atoi(b" 1", &mut value), S::GoAtoiSyntax);
            assert_eq!(atoi(b"9223372036854775808", &mut value), S::GoAtoiRange);
            assert_eq!(atoi(b"\xff", &mut value), S::InvalidUtf8);
            assert_eq!(atoi(b"1", null_mut()), S::NullParameter);
            assert_eq!(
                pulsar_routing_go_atoi(null(), 0, &mut value),
                S::NullParameter
            );
            assert_eq!(value, -7);
        }
    }

    /// Streaming murmur2: any chunking of exactly the announced length is
    /// the one-shot hash; any other length is refused.
    #[test]
    fn kafka_murmur2_hasher_streams() {
        use crate::kafka::{
            pulsar_routing_kafka_murmur2, pulsar_routing_kafka_murmur2_hasher as H,
        };
        use core::mem::MaybeUninit;
        let data = b"giberish123456789-and-some-more";
        let mut whole = SENTINEL;
        // SAFETY: live buffers.
        let status = unsafe { pulsar_routing_kafka_murmur2(data.as_ptr(), data.len(), &mut whole) };
        assert_eq!((status, whole), (S::Ok, core_kafka::murmur2(data)));
        for cut in [0, 1, 3, 4, 5, 17, data.len()] {
            let mut hasher = MaybeUninit::<H>::uninit();
            let (head, tail) = data.split_at(cut);
            let mut got = SENTINEL;
            // SAFETY: a live hasher, initialised first, and live buffers.
            unsafe {
                let h = hasher.as_mut_ptr();
                assert_eq!(
                    H::pulsar_routing_kafka_murmur2_hasher_init(h, data.len() as u64),
                    S::Ok
                );
                assert_eq!(
                    H::pulsar_routing_kafka_murmur2_hasher_update(h, head.as_ptr(), head.len()),
                    S::Ok
                );
                if !tail.is_empty() {
                    assert_eq!(
                        H::pulsar_routing_kafka_murmur2_hasher_finalize(h, &mut got),
                        S::KafkaMurmur2LengthMismatch
                    );
                    assert_eq!(got, SENTINEL);
                }
                assert_eq!(
                    H::pulsar_routing_kafka_murmur2_hasher_update(h, tail.as_ptr(), tail.len()),
                    S::Ok
                );
                assert_eq!(
                    H::pulsar_routing_kafka_murmur2_hasher_finalize(h, &mut got),
                    S::Ok
                );
            }
            assert_eq!(got, whole, "cut at {cut}");
        }
        let mut hasher = MaybeUninit::<H>::uninit();
        let mut got = SENTINEL;
        // SAFETY: NULLs and a live hasher.
        unsafe {
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_init(null_mut(), 0),
                S::NullParameter
            );
            let h = hasher.as_mut_ptr();
            assert_eq!(H::pulsar_routing_kafka_murmur2_hasher_init(h, 0), S::Ok);
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_update(null_mut(), b"".as_ptr(), 0),
                S::NullParameter
            );
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_update(h, null(), 0),
                S::NullParameter
            );
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_finalize(null(), &mut got),
                S::NullParameter
            );
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_finalize(h, null_mut()),
                S::NullParameter
            );
            assert_eq!(got, SENTINEL);
            assert_eq!(
                H::pulsar_routing_kafka_murmur2_hasher_finalize(h, &mut got),
                S::Ok
            );
            assert_eq!(got, core_kafka::murmur2(b""));
        }
        assert_eq!(
            S::from(core_kafka::Murmur2LengthMismatch {
                declared: 1,
                fed: 2
            }),
            S::KafkaMurmur2LengthMismatch
        );
    }
}
