//! The client profiles and Kafka partitioners through the C API: NULLs,
//! unknown values and bad counts give their status without writing any
//! out-parameter, and good arguments agree with the core crate.

use core::ffi::CStr;
use core::ptr::{null, null_mut};

use crate::error::pulsar_routing_status as S;
use crate::kafka::*;
use crate::key::*;
use crate::profiles::*;
use pulsar_routing_core::kafka::{self as core_kafka, LibrdkafkaPartitioner};
use pulsar_routing_core::profiles::{
    ClientHashingScheme, ClientProfile, KeyHash, ProfileConfig, ProfileKeying, ProfileMessage,
    ProfileMode,
};
use pulsar_routing_core::{PartitionCount, crc32};

const SENTINEL: u32 = 0xdead_beef;

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
        (3, "boost_1_74_x86_64"),
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
    assert_eq!(name(pulsar_routing_client_hashing_scheme_name(4)), None);
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
    assert_eq!(name(pulsar_routing_profile_hash_name(8)), None);
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
            pulsar_routing_profile_hash_bytes(8, key.as_ptr(), 1, &mut out),
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
    // Python: BoostHash cannot be reproduced, JavaStringHash not chosen.
    assert_eq!(
        route(PYTHON, 2, DEFAULT, "k", 10),
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
            4,
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
