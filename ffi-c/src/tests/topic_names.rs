//! The topic-name functions, called the way C would: NULLs, unknown rules,
//! rejected names (status and Java's message), short buffers, and every
//! derived name against the core.

use core::ffi::CStr;
use core::ptr::{null, null_mut};

use crate::error::pulsar_routing_status as S;
use crate::text::pulsar_routing_str;
use crate::topic_name::*;
use pulsar_routing_core::topic_name::{TopicName, TopicNameError, TopicNameRules};

const V4: pulsar_routing_topic_name_rules = PULSAR_ROUTING_TOPIC_NAME_RULES_V4;
const MASTER: pulsar_routing_topic_name_rules = PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER;
const PULSAR_4_2: pulsar_routing_topic_name_rules = PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2;

/// Each C value with the core rules it stands for.
const ALL_RULES: [(pulsar_routing_topic_name_rules, TopicNameRules); 3] = [
    (V4, TopicNameRules::V4),
    (MASTER, TopicNameRules::Master),
    (PULSAR_4_2, TopicNameRules::Pulsar4_2),
];
const USIZE_SENTINEL: usize = 0x5eed;
const FILL: u8 = 0xa5;

/// What a `pulsar_routing_topic_name` holds before a call that must not
/// write it.
fn sentinel() -> pulsar_routing_topic_name {
    let junk = pulsar_routing_str {
        data: 0x10 as *const u8,
        len: 7,
    };
    pulsar_routing_topic_name {
        input: 0x20 as *const u8,
        input_len: 9,
        rules: 77,
        domain: 88,
        partition_index: -99,
        tenant: junk,
        cluster: junk,
        namespace_portion: junk,
        local_name: junk,
        segment_descriptor: junk,
        canonical_len: 5,
    }
}

fn parse(
    name: &str,
    rules: pulsar_routing_topic_name_rules,
) -> Result<pulsar_routing_topic_name, S> {
    let mut topic = sentinel();
    // SAFETY: a live name and a live out-parameter.
    let status =
        unsafe { pulsar_routing_topic_name_parse(name.as_ptr(), name.len(), rules, &mut topic) };
    if status == S::Ok {
        Ok(topic)
    } else {
        assert_eq!(topic, sentinel(), "written on failure: {name:?}");
        Err(status)
    }
}

/// The text of a `pulsar_routing_str`.
fn text(s: pulsar_routing_str) -> Option<&'static str> {
    // SAFETY: the parts point into the tests' live inputs or to static
    // strings; the tests keep the inputs alive while they look.
    unsafe { s.bytes() }.map(|b| core::str::from_utf8(b).unwrap())
}

type TextFn =
    unsafe extern "C" fn(*const pulsar_routing_topic_name, *mut u8, usize, *mut usize) -> S;

/// Calls a text function with an exact, a short and a NULL buffer, and
/// returns the text.
fn call_text(f: impl Fn(*mut u8, usize, *mut usize) -> S) -> Result<String, S> {
    let mut buf = vec![FILL; 512];
    let mut written = USIZE_SENTINEL;
    let status = f(buf.as_mut_ptr(), buf.len(), &mut written);
    if status != S::Ok {
        assert_eq!(written, USIZE_SENTINEL, "written on failure");
        assert!(buf.iter().all(|&b| b == FILL), "buffer written on failure");
        return Err(status);
    }
    let needed = written;
    assert!(
        buf[needed..].iter().all(|&b| b == FILL),
        "wrote past the text"
    );
    let result = String::from_utf8(buf[..needed].to_vec()).unwrap();
    // One byte short: the length needed, and the buffer untouched.
    if needed > 0 {
        let mut short = vec![FILL; needed - 1];
        let mut again = USIZE_SENTINEL;
        // The short buffer may be empty: pass a live pointer anyway.
        let mut one = [FILL];
        let ptr = if short.is_empty() {
            one.as_mut_ptr()
        } else {
            short.as_mut_ptr()
        };
        assert_eq!(f(ptr, needed - 1, &mut again), S::BufferTooSmall);
        assert_eq!(again, needed);
        assert!(short.iter().all(|&b| b == FILL) && one[0] == FILL);
    }
    // An exact buffer is enough.
    let mut exact = vec![FILL; needed.max(1)];
    let mut again = USIZE_SENTINEL;
    assert_eq!(f(exact.as_mut_ptr(), needed, &mut again), S::Ok);
    assert_eq!(&exact[..needed], result.as_bytes());
    // NULL buffer and NULL length.
    assert_eq!(f(null_mut(), 0, &mut again), S::NullParameter);
    assert_eq!(f(exact.as_mut_ptr(), needed, null_mut()), S::NullParameter);
    Ok(result)
}

fn call_topic_text(f: TextFn, topic: &pulsar_routing_topic_name) -> Result<String, S> {
    // SAFETY: a live topic struct (whose input the caller keeps alive) and
    // the buffers of `call_text`.
    call_text(|buf, len, written| unsafe { f(topic, buf, len, written) })
}

const NAMES: &[&str] = &[
    "my-topic",
    "my-topic-partition-3",
    "tenant/ns/a b-partition-0-partition-12",
    "persistent://tenant/cluster/ns/a b",
    "non-persistent://t/ns/x?y#%é",
    "PERSISTENT://t/ns/x-partition-7",
    "persistent://t/ns/a/b/c",
    "topic://t/ns/parent/child",
    "segment://t/ns/parent/0000-ffff-3",
    "x/",
];

#[test]
fn parse_matches_the_core() {
    for &name in NAMES {
        for (rules, core_rules) in ALL_RULES {
            let what = format!("{name:?} under {core_rules:?}");
            let expected = TopicName::parse_with(name, core_rules);
            let topic = match (parse(name, rules), expected) {
                (Ok(topic), Ok(expected)) => (topic, expected),
                (Err(status), Err(e)) => {
                    assert_eq!(status, S::from(e), "{what}");
                    continue;
                }
                (got, expected) => panic!("{what}: {got:?} but the core says {expected:?}"),
            };
            let (topic, expected) = topic;
            assert_eq!(topic.input, name.as_ptr(), "{what}");
            assert_eq!(topic.input_len, name.len(), "{what}");
            assert_eq!(topic.rules, rules, "{what}");
            let domain = pulsar_routing_topic_domain_name(topic.domain);
            // SAFETY: a static NUL-terminated string.
            let domain = unsafe { CStr::from_ptr(domain) }.to_str().unwrap();
            assert_eq!(domain, expected.domain().as_str(), "{what}");
            assert_eq!(topic.partition_index, expected.partition_index(), "{what}");
            assert_eq!(text(topic.tenant), Some(expected.tenant()), "{what}");
            assert_eq!(text(topic.cluster), expected.cluster(), "{what}");
            assert_eq!(
                text(topic.namespace_portion),
                Some(expected.namespace_portion()),
                "{what}"
            );
            assert_eq!(
                text(topic.local_name),
                Some(expected.local_name()),
                "{what}"
            );
            assert_eq!(
                text(topic.segment_descriptor),
                expected.segment_descriptor(),
                "{what}"
            );
            assert_eq!(topic.canonical_len, expected.canonical_len(), "{what}");

            let fns: [(TextFn, String); 6] = [
                (pulsar_routing_topic_name_to_string, expected.to_string()),
                (
                    pulsar_routing_topic_name_namespace,
                    expected.namespace().to_string(),
                ),
                (
                    pulsar_routing_topic_name_partitioned_topic_name,
                    expected.partitioned_topic_name().to_string(),
                ),
                (
                    pulsar_routing_topic_name_lookup_name,
                    expected.lookup_name().to_string(),
                ),
                (
                    pulsar_routing_topic_name_persistence_naming,
                    expected.persistence_naming().to_string(),
                ),
                (
                    pulsar_routing_topic_name_encoded_local_name,
                    expected.encoded_local_name().to_string(),
                ),
            ];
            for (f, want) in fns {
                assert_eq!(call_topic_text(f, &topic), Ok(want), "{what}");
            }
            for (include_domain, want) in [
                (true, expected.rest_path()),
                (false, expected.rest_path_without_domain()),
            ] {
                assert_eq!(
                    // SAFETY: a live topic and the buffers of `call_text`.
                    call_text(|b, l, w| unsafe {
                        pulsar_routing_topic_name_rest_path(&topic, include_domain, b, l, w)
                    }),
                    Ok(want.to_string()),
                    "{what}"
                );
            }
            let mut crc = 0xdead_beef;
            // SAFETY: a live topic and out-parameter.
            unsafe {
                assert_eq!(pulsar_routing_topic_name_crc32(&topic, &mut crc), S::Ok);
                assert_eq!(crc, expected.crc32(), "{what}");
                for index in [-1, 0, 3, 7, i32::MAX, i32::MIN] {
                    let mut crc = 0xdead_beef;
                    let status = pulsar_routing_topic_name_partition_crc32(&topic, index, &mut crc);
                    let name = call_text(|b, l, w| {
                        pulsar_routing_topic_name_partition(&topic, index, b, l, w)
                    });
                    match expected.partition(index) {
                        Ok(partition) => {
                            assert_eq!((status, crc), (S::Ok, partition.crc32()), "{what}");
                            assert_eq!(name, Ok(partition.to_string()), "{what}");
                        }
                        Err(e) => {
                            assert_eq!(status, S::from(e), "{what}");
                            assert_eq!(status, S::TopicNameInvalidSegmentDescriptor);
                            assert_eq!(crc, 0xdead_beef);
                            assert_eq!(name, Err(status));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn short_names_point_to_static_defaults() {
    let topic = parse("x", V4).unwrap();
    assert_eq!(text(topic.tenant), Some("public"));
    assert_eq!(text(topic.namespace_portion), Some("default"));
    assert_eq!(text(topic.local_name), Some("x"));
    assert_eq!(topic.local_name.data, topic.input);
    assert_eq!(
        topic.cluster,
        pulsar_routing_str {
            data: null(),
            len: 0
        }
    );
    assert_eq!(topic.domain, PULSAR_ROUTING_TOPIC_DOMAIN_PERSISTENT);
}

#[test]
fn rejected_names_give_their_status_and_javas_message() {
    let cases: &[(&str, pulsar_routing_topic_name_rules, S)] = &[
        ("a/b", V4, S::TopicNameInvalidShortName),
        ("kafka://t/ns/x", V4, S::TopicNameInvalidDomain),
        ("persistent:///ns/x", V4, S::TopicNameInvalidNamespaceFormat),
        ("persistent://t!/ns/x", V4, S::TopicNameInvalidNamedEntity),
        ("persistent://t/ns/ ", V4, S::TopicNameBlankLocalName),
        ("persistent://t", V4, S::TopicNameInvalid),
        ("a//b", MASTER, S::TopicNameInvalid),
        ("persistent://t/c/ns/x", MASTER, S::TopicNameV1Unsupported),
        (
            "segment://t/ns/x",
            MASTER,
            S::TopicNameSegmentWithoutDescriptor,
        ),
        (
            "segment://t/ns/x/bad",
            MASTER,
            S::TopicNameInvalidSegmentDescriptor,
        ),
        ("topic://t/ns/x", V4, S::TopicNameInvalidDomain),
        (
            "persistent://t/c/ns/x",
            PULSAR_4_2,
            S::TopicNameV1Unsupported,
        ),
        ("segment://t/ns/x", PULSAR_4_2, S::TopicNameInvalidDomain),
        ("kafka://t/c/ns/x", PULSAR_4_2, S::TopicNameV1Unsupported),
    ];
    for &(name, rules, status) in cases {
        assert_eq!(parse(name, rules), Err(status), "{name:?}");
        let core_rules = ALL_RULES
            .iter()
            .find_map(|&(c, core)| (c == rules).then_some(core))
            .expect("a known C value");
        let java = TopicName::parse_with(name, core_rules)
            .unwrap_err()
            .to_string();
        // SAFETY: a live name and the buffers of `call_text`.
        let message = call_text(|b, l, w| unsafe {
            pulsar_routing_topic_name_error_message(name.as_ptr(), name.len(), rules, b, l, w)
        });
        assert_eq!(message, Ok(java), "{name:?}");
        // The text functions and the bundle lookup refuse a struct whose
        // input no longer parses.
        let forged = pulsar_routing_topic_name {
            input: name.as_ptr(),
            input_len: name.len(),
            rules,
            ..sentinel()
        };
        assert_eq!(
            call_topic_text(pulsar_routing_topic_name_to_string, &forged),
            Err(status)
        );
    }
    // Exactly Java's text, e.g. for the domain.
    let mut buf = [0u8; 64];
    let mut written = USIZE_SENTINEL;
    // SAFETY: live locals.
    unsafe {
        assert_eq!(
            pulsar_routing_topic_name_error_message(
                b"kafka://t/ns/x".as_ptr(),
                14,
                V4,
                buf.as_mut_ptr(),
                64,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&buf[..written], b"Invalid topic domain: 'kafka'");
        // A valid name has no message.
        written = USIZE_SENTINEL;
        buf.fill(FILL);
        assert_eq!(
            pulsar_routing_topic_name_error_message(
                b"my-topic".as_ptr(),
                8,
                V4,
                buf.as_mut_ptr(),
                64,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(written, 0);
        assert!(buf.iter().all(|&b| b == FILL));
    }
}

#[test]
fn bad_arguments() {
    let mut topic = sentinel();
    let mut written = USIZE_SENTINEL;
    let mut buf = [FILL; 16];
    let mut index = -7;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        // NULL wins over everything, even with a length of 0.
        assert_eq!(
            pulsar_routing_topic_name_parse(null(), 0, 99, &mut topic),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_topic_name_parse(b"x".as_ptr(), 1, V4, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_topic_name_parse(b"\xff".as_ptr(), 1, 99, &mut topic),
            S::InvalidUtf8
        );
        for rules in [3, 99, u32::MAX] {
            assert_eq!(
                pulsar_routing_topic_name_parse(b"x".as_ptr(), 1, rules, &mut topic),
                S::UnknownTopicNameRules
            );
            assert_eq!(
                pulsar_routing_topic_name_error_message(
                    b"a/b".as_ptr(),
                    3,
                    rules,
                    buf.as_mut_ptr(),
                    16,
                    &mut written
                ),
                S::UnknownTopicNameRules
            );
        }
        assert_eq!(topic, sentinel());
        assert_eq!(
            pulsar_routing_topic_name_error_message(
                null(),
                0,
                V4,
                buf.as_mut_ptr(),
                16,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_topic_name_error_message(
                b"a/b".as_ptr(),
                3,
                V4,
                null_mut(),
                0,
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_topic_name_error_message(
                b"\xff".as_ptr(),
                1,
                V4,
                buf.as_mut_ptr(),
                16,
                &mut written
            ),
            S::InvalidUtf8
        );
        assert_eq!(written, USIZE_SENTINEL);

        // The text functions: NULL struct, NULL input inside it, and a
        // struct whose rules are not a known value.
        let name = "my-topic";
        let good = parse(name, V4).unwrap();
        for topic in [
            null(),
            &pulsar_routing_topic_name {
                input: null(),
                input_len: 0,
                ..good
            },
        ] {
            assert_eq!(
                pulsar_routing_topic_name_to_string(topic, buf.as_mut_ptr(), 16, &mut written),
                S::NullParameter
            );
            let mut crc = 0xdead_beef;
            assert_eq!(
                pulsar_routing_topic_name_crc32(topic, &mut crc),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_topic_name_partition_crc32(topic, 1, &mut crc),
                S::NullParameter
            );
            assert_eq!(crc, 0xdead_beef);
        }
        let bad_rules = pulsar_routing_topic_name { rules: 5, ..good };
        assert_eq!(
            pulsar_routing_topic_name_namespace(&bad_rules, buf.as_mut_ptr(), 16, &mut written),
            S::UnknownTopicNameRules
        );
        assert_eq!(
            pulsar_routing_topic_name_crc32(&good, null_mut()),
            S::NullParameter
        );
        assert_eq!(written, USIZE_SENTINEL);
        assert!(buf.iter().all(|&b| b == FILL));

        // getPartitionIndex.
        assert_eq!(
            pulsar_routing_get_partition_index(null(), 0, &mut index),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_get_partition_index(b"x".as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_get_partition_index(b"\xff".as_ptr(), 1, &mut index),
            S::InvalidUtf8
        );
        assert_eq!(index, -7);
        for (text, expected) in [
            ("x-partition-3", 3),
            ("x-partition-01", -1),
            ("x-partition-+1", -1),
            ("x-partition-2147483648", -1),
            ("x-partition-1-partition-2", 2),
            ("x-partition-١٢", 12),
            ("x", -1),
        ] {
            assert_eq!(
                pulsar_routing_get_partition_index(text.as_ptr(), text.len(), &mut index),
                S::Ok
            );
            assert_eq!(index, expected, "{text:?}");
            assert_eq!(index, pulsar_routing_core::get_partition_index(text));
        }
    }
    assert!(pulsar_routing_topic_domain_name(4).is_null());
    assert!(pulsar_routing_topic_domain_name(u32::MAX).is_null());
}

#[test]
fn every_core_error_has_its_status() {
    let errors = [
        (
            TopicNameError::InvalidShortName { name: "a/b" },
            S::TopicNameInvalidShortName,
        ),
        (
            TopicNameError::InvalidDomain { domain: "d" },
            S::TopicNameInvalidDomain,
        ),
        (
            TopicNameError::InvalidNamespaceFormat {
                tenant: "",
                cluster: None,
                namespace: "ns",
            },
            S::TopicNameInvalidNamespaceFormat,
        ),
        (
            TopicNameError::InvalidNamedEntity { name: "t!" },
            S::TopicNameInvalidNamedEntity,
        ),
        (
            TopicNameError::BlankLocalName {
                prefix: "",
                name: "x",
            },
            S::TopicNameBlankLocalName,
        ),
        (
            TopicNameError::InvalidTopicName {
                name: "x",
                rules: TopicNameRules::V4,
            },
            S::TopicNameInvalid,
        ),
        (
            TopicNameError::V1NameUnsupported { name: "x" },
            S::TopicNameV1Unsupported,
        ),
        (
            TopicNameError::SegmentWithoutDescriptor { name: "x" },
            S::TopicNameSegmentWithoutDescriptor,
        ),
        (
            TopicNameError::InvalidSegmentDescriptor {
                name: "x",
                descriptor: "d",
                partition: None,
            },
            S::TopicNameInvalidSegmentDescriptor,
        ),
    ];
    for (error, status) in errors {
        assert_eq!(S::from(error), status);
        assert!((400..500).contains(&(status as u32)));
    }
}
