//! Properties of topic-name parsing that must hold for every input, not
//! just the golden rows.

use std::hash::{BuildHasher, RandomState};

use proptest::prelude::*;
use pulsar_routing::crc32;
use pulsar_routing::topic_name::{TopicDomain, TopicName, TopicNameRules, get_partition_index};

/// A tenant, cluster or namespace: what `NamedEntity.checkName` accepts.
fn entity() -> impl Strategy<Value = String> {
    "[-=:.a-zA-Z0-9_]{1,8}"
}

/// A local name without `/`: spaces, URL-special and non-ASCII characters,
/// partition suffixes, anything but blank.
fn local_name() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z0-9]{1,4}",
        Just("-partition-".to_owned()),
        (0..20u32).prop_map(|n| n.to_string()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        "[-_.:%?#=+*~]",
        "[é日😀٣\u{a0}\u{3000}]",
    ];
    proptest::collection::vec(piece, 1..6)
        .prop_map(|pieces| pieces.concat())
        .prop_filter("a local name is not blank", |s| {
            !s.chars()
                .all(|c| c.is_whitespace() && c != '\u{a0}' && c != '\u{85}')
        })
}

/// A local name that may hold `/` (V1 names, scalable topics), never
/// starting with one, so no part of the path before it is empty.
fn slashed_local_name() -> impl Strategy<Value = String> {
    (local_name(), proptest::collection::vec(local_name(), 0..3)).prop_map(|(first, rest)| {
        std::iter::once(first)
            .chain(rest)
            .collect::<Vec<_>>()
            .join("/")
    })
}

/// `persistent` or `non-persistent` in any letter case.
fn classic_domain() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("persistent"), Just("non-persistent")],
        any::<u64>(),
    )
        .prop_map(|(domain, case)| {
            domain
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if case >> (i % 64) & 1 == 1 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect()
        })
}

/// Every rule set.
const ALL_RULES: [TopicNameRules; 3] = [
    TopicNameRules::Pulsar4_2,
    TopicNameRules::V4,
    TopicNameRules::Master,
];

/// Names every rule set accepts: short names and V2 full names.
fn common_name() -> impl Strategy<Value = String> {
    prop_oneof![
        local_name(),
        (entity(), entity(), local_name()).prop_map(|(t, ns, l)| format!("{t}/{ns}/{l}")),
        (classic_domain(), entity(), entity(), local_name())
            .prop_map(|(d, t, ns, l)| format!("{d}://{t}/{ns}/{l}")),
    ]
}

/// Names only the v4 rules accept: V1 names with a cluster, and short names
/// with empty parts.
fn v4_name() -> impl Strategy<Value = String> {
    prop_oneof![
        common_name(),
        (
            classic_domain(),
            entity(),
            entity(),
            entity(),
            slashed_local_name()
        )
            .prop_map(|(d, t, c, ns, l)| format!("{d}://{t}/{c}/{ns}/{l}")),
        (local_name(), 0..3usize, 0..3usize)
            .prop_map(|(l, before, after)| format!(
                "{}{l}{}",
                "/".repeat(before),
                "/".repeat(after)
            ))
            .prop_filter("a short name has no `://`", |s| !s.contains("://")),
    ]
}

/// A valid segment descriptor: `<start>-<end>-<id>`.
fn descriptor() -> impl Strategy<Value = String> {
    (0..=0xffffu32, 0..=0xffffu32, 0..1000u64).prop_map(|(a, b, id)| {
        let (start, end) = (a.min(b), a.max(b));
        format!("{start:04x}-{end:04x}-{id}")
    })
}

/// Names only the master rules accept: scalable topics and segments.
fn master_name() -> impl Strategy<Value = String> {
    prop_oneof![
        common_name(),
        (entity(), entity(), slashed_local_name())
            .prop_map(|(t, ns, l)| format!("topic://{t}/{ns}/{l}")),
        (entity(), entity(), slashed_local_name(), descriptor())
            .prop_map(|(t, ns, l, d)| format!("segment://{t}/{ns}/{l}/{d}")),
    ]
}

/// Valid names, each with the rules it is valid under.
fn valid_name() -> impl Strategy<Value = (String, TopicNameRules)> {
    prop_oneof![
        v4_name().prop_map(|s| (s, TopicNameRules::V4)),
        master_name().prop_map(|s| (s, TopicNameRules::Master)),
        common_name().prop_map(|s| (s, TopicNameRules::Pulsar4_2)),
    ]
}

/// Text made of the pieces topic names are made of, in any order.
fn name_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("://"),
        Just("/"),
        Just("persistent"),
        Just("PERSISTENT"),
        Just("non-persistent"),
        Just("topic"),
        Just("segment"),
        Just("-partition-"),
        Just("0000-ffff-1"),
        Just("t"),
        Just("ns"),
        Just(" "),
        Just("1"),
        Just("01"),
        Just("-"),
        Just("\u{661}"),
        Just("\u{17f}"),
        Just("é"),
        Just("@"),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

fn assert_same(a: &TopicName<'_>, b: &TopicName<'_>) {
    assert_eq!(a.to_string(), b.to_string());
    assert_eq!(a.domain(), b.domain());
    assert_eq!(a.tenant(), b.tenant());
    assert_eq!(a.cluster(), b.cluster());
    assert_eq!(a.namespace_portion(), b.namespace_portion());
    assert_eq!(a.local_name(), b.local_name());
    assert_eq!(a.segment_descriptor(), b.segment_descriptor());
    assert_eq!(a.partition_index(), b.partition_index());
    assert_eq!(a.is_persistent(), b.is_persistent());
    assert_eq!(a, b);
    let hasher = RandomState::new();
    assert_eq!(hasher.hash_one(a), hasher.hash_one(b));
}

/// Every view of a name, written out, so that a panic anywhere shows.
fn exercise(topic: &TopicName<'_>, index: i32) {
    let _ = (
        topic.to_string(),
        topic.namespace().to_string(),
        topic.partitioned_topic_name().to_string(),
        topic.lookup_name().to_string(),
        topic.persistence_naming().to_string(),
        topic.rest_path().to_string(),
        topic.rest_path_without_domain().to_string(),
        topic.encoded_local_name().to_string(),
        topic.crc32(),
    );
    if let Ok(partition) = topic.partition(index) {
        let _ = (
            partition.to_string(),
            partition.crc32(),
            partition.partition_index(),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn displayed_names_parse_back_to_the_same_topic((name, rules) in valid_name()) {
        let topic = TopicName::parse_with(&name, rules)
            .unwrap_or_else(|e| panic!("{name:?} under {rules:?}: {e}"));
        let canonical = topic.to_string();
        let again = TopicName::parse_with(&canonical, rules)
            .unwrap_or_else(|e| panic!("{canonical:?} under {rules:?}: {e}"));
        assert_same(&topic, &again);
        prop_assert_eq!(topic, canonical.as_str());
        prop_assert_eq!(topic.canonical_len(), canonical.len());
    }

    #[test]
    fn short_names_equal_their_full_form(name in common_name()) {
        for rules in ALL_RULES {
            let topic = TopicName::parse_with(&name, rules).expect("valid under every rule set");
            if !name.contains("://") {
                let full = format!("persistent://{}/{}/{}", topic.tenant(), topic.namespace_portion(), topic.local_name());
                assert_same(&topic, &TopicName::parse_with(&full, rules).expect("full form"));
            }
        }
    }

    #[test]
    fn crc32_streams_the_canonical_name((name, rules) in valid_name(), index in -3..40i32) {
        let topic = TopicName::parse_with(&name, rules).expect("valid name");
        prop_assert_eq!(topic.crc32(), crc32(topic.to_string().as_bytes()));
        let mut pieces = String::new();
        topic.for_each_piece(|piece| pieces.push_str(piece));
        prop_assert_eq!(&pieces, &topic.to_string());
        if let Ok(partition) = topic.partition(index) {
            let text = partition.to_string();
            prop_assert_eq!(partition.crc32(), crc32(text.as_bytes()));
            prop_assert_eq!(partition, text.as_str());
            // A segment's index comes from its parent's local name, which is
            // not at the end of the name.
            if topic.segment_descriptor().is_none() {
                prop_assert_eq!(partition.partition_index(), get_partition_index(&text));
            }
            // The partition's name is a valid topic with that index.
            let reparsed = TopicName::parse_with(&text, rules).expect("partition names parse");
            prop_assert_eq!(reparsed.partition_index(), partition.partition_index());
            prop_assert_eq!(reparsed, text.as_str());
        }
    }

    #[test]
    fn partitioned_name_strips_the_suffix((name, rules) in valid_name(), index in 0..1000i32) {
        let topic = TopicName::parse_with(&name, rules).expect("valid name");
        if let Ok(partition) = topic.partition(index) {
            let text = partition.to_string();
            let reparsed = TopicName::parse_with(&text, rules).expect("partition names parse");
            prop_assert_eq!(reparsed.partition_index(), index);
            let parent = reparsed.partitioned_topic_name().to_string();
            prop_assert_eq!(format!("{parent}-partition-{index}"), text);
        }
    }

    #[test]
    fn parsing_never_panics(text in any::<String>(), index in any::<i32>()) {
        for rules in ALL_RULES {
            match TopicName::parse_with(&text, rules) {
                Ok(topic) => exercise(&topic, index),
                Err(e) => { let _ = e.to_string(); }
            }
        }
        let _ = get_partition_index(&text);
    }

    #[test]
    fn parsing_name_like_text_never_panics(text in name_like(), index in -2..5i32) {
        for rules in ALL_RULES {
            match TopicName::parse_with(&text, rules) {
                Ok(topic) => exercise(&topic, index),
                Err(e) => { let _ = e.to_string(); }
            }
        }
    }

    /// 4.2.4's bytecode differs from master only in its domains and in
    /// reading the domain after splitting, so the two can only disagree on
    /// a name whose domain is not one of 4.2's.
    #[test]
    fn pulsar_4_2_is_master_for_its_own_domains(text in name_like(), index in -2..5i32) {
        let own_domain = text.split_once("://").is_none_or(|(domain, _)| {
            TopicDomain::parse(domain, TopicNameRules::Pulsar4_2).is_some()
        });
        if !own_domain {
            return Ok(());
        }
        let answer = |rules| match TopicName::parse_with(&text, rules) {
            Ok(topic) => {
                let partition = topic.partition(index).map(|p| p.to_string());
                Ok((topic.to_string(), partition.map_err(|e| e.to_string())))
            }
            Err(e) => Err(e.to_string()),
        };
        prop_assert_eq!(answer(TopicNameRules::Pulsar4_2), answer(TopicNameRules::Master));
    }

    #[test]
    fn partition_index_reads_back_every_int(n in 0..=i32::MAX, prefix in "[a-z-]{0,8}") {
        prop_assert_eq!(get_partition_index(&format!("x-partition-{n}")), n);
        prop_assert_eq!(get_partition_index(&format!("{prefix}-partition-{n}")), n);
        // Java rejects a sign and leading zeros.
        prop_assert_eq!(get_partition_index(&format!("x-partition-0{n}")), -1);
        prop_assert_eq!(get_partition_index(&format!("x-partition-+{n}")), -1);
        prop_assert_eq!(get_partition_index(&format!("x-partition--{n}")), -1);
    }

    #[test]
    fn partition_index_reads_unicode_digits(n in 0..=i32::MAX, zero in prop::sample::select(vec![
        0x30u32, 0x660, 0x6f0, 0x966, 0xe50, 0x1040, 0xff10,
    ])) {
        let digits: String = n
            .to_string()
            .bytes()
            .map(|d| char::from_u32(zero + u32::from(d - b'0')).expect("a digit"))
            .collect();
        prop_assert_eq!(get_partition_index(&format!("x-partition-{digits}")), n);
    }
}

#[test]
fn partition_index_edges() {
    assert_eq!(get_partition_index("x-partition-2147483647"), i32::MAX);
    assert_eq!(get_partition_index("x-partition-2147483648"), -1);
    assert_eq!(get_partition_index("x-partition-99999999999999999999"), -1);
    assert_eq!(get_partition_index("x-partition-0"), 0);
    assert_eq!(get_partition_index("x-partition--0"), -1);
    assert_eq!(get_partition_index("x-partition-"), -1);
    // Digits outside the Basic Multilingual Plane are two UTF-16 units each,
    // and Java's parser reads units: not a number.
    assert_eq!(get_partition_index("x-partition-\u{1d7cf}"), -1);
}

#[test]
fn short_names_whose_length_matches_a_three_part_name_keep_the_default_namespace() {
    // Found by the topic_name fuzz target: 15 slashes and one character is
    // as long as "public/default/0", but Java drops the empty parts.
    for name in [
        "///////////////0",
        "0///////////////",
        "//////////////0/",
        "///////////////01",
    ] {
        let topic = TopicName::parse_with(name, TopicNameRules::V4).unwrap();
        let canonical = topic.to_string();
        assert!(
            canonical.starts_with("persistent://public/default/"),
            "{name}: {canonical}"
        );
        assert_eq!(
            topic.crc32(),
            pulsar_routing::crc32(canonical.as_bytes()),
            "{name}"
        );
    }
}
