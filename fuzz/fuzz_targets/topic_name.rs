//! `TopicName` on arbitrary text under every rule set: parsing never
//! panics, and whatever parses validates.
//!
//! - The canonical name (`Display`) is the concatenation of the pieces,
//!   has the advertised length, parses again under the same rules to the
//!   same topic (same name, same components, equal and equally hashed), and
//!   is what the components say it is: the input itself for a full name
//!   under the 4.2 and master rules, `domain://namespace/local` otherwise.
//! - The components are what Java's checks accept: named entities for the
//!   tenant, cluster and namespace, a non-blank local name.
//! - `crc32()` is the CRC-32 of the canonical name, checked against a
//!   bitwise reference, and so is every partition name's.
//! - The derived names (namespace, lookup name, REST paths, persistence
//!   naming, URL-encoded local name, partitioned parent) are rebuilt here
//!   from the components, and `partition(i)` appends `-partition-i` exactly
//!   when Java's `getPartition` does, to a name that parses back with
//!   partition index `i`.
//! - `get_partition_index` on any text is -1 or a number printed in as many
//!   characters as its suffix has, and agrees with a naive reference
//!   whenever that suffix is ASCII.
//!
//! The text is built from tokens, so that the fuzzer reaches the domains,
//! separators, partition suffixes and segment descriptors that random
//! strings would almost never spell.
#![no_main]

use std::hash::{BuildHasher, RandomState};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::topic_name::{TopicDomain, TopicName, TopicNameError, TopicNameRules};
use pulsar_routing::{crc32, get_partition_index};
use pulsar_routing_fuzz::reference;

/// Fragments a topic name is made of, valid and not: whole names, every
/// domain spelling the rules treat differently, separators, named-entity
/// characters, partition suffixes with canonical and non-canonical numbers
/// (Unicode digits, a sign, leading zeros, overflow), segment descriptors,
/// and the whitespace Java and Unicode disagree on.
const FRAGMENTS: &[&str] = &[
    // Whole names of each shape, for the fuzzer to mutate.
    "persistent://public/default/my-topic",
    "persistent://t/cluster/ns/x",
    "non-persistent://t/ns/x-partition-3",
    "topic://t/ns/a/b",
    "segment://t/ns/x/0000-ffff-0",
    "segment://t/ns/x-partition-1/8000-FFFF-12",
    "t/ns/x",
    "persistent://",
    "non-persistent://",
    "topic://",
    "segment://",
    "PERSISTENT://",
    "Non-Persistent://",
    "per\u{17f}istent://",
    "kafka://",
    "://",
    "/",
    "//",
    "public",
    "default",
    "tenant",
    "ns",
    "my-topic",
    "-partition-",
    "-partition-0",
    "-partition-12",
    "0000-ffff-0",
    "8000-FFFF-12",
    "ffff-0000-1",
    "0000-10000-1",
    " ",
    "\t",
    "\u{3000}",
    "\u{a0}",
    "\u{1c}",
    "\u{85}",
    "\u{661}\u{662}",
    "\u{ff11}",
    "\u{1d7cf}",
    "0",
    "01",
    "+1",
    "2147483647",
    "2147483648",
    "-",
    ":",
    "=",
    ".",
    "_",
    "a",
    "é",
    "%",
    "?",
    "+",
    "😀",
];

#[derive(Arbitrary, Debug)]
enum Token {
    Fragment(u8),
    Number(i32),
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// The rule set: 4.2, v4 or master, by this modulo 3.
    rules: u8,
    name: Vec<Token>,
    /// Partitions to ask for, besides -1, 0, the topic's own index and the
    /// `i32` extremes.
    partitions: [i32; 2],
    /// Text for `get_partition_index` alone.
    probe: Vec<Token>,
}

fn build(tokens: &[Token]) -> String {
    let mut text = String::new();
    for token in tokens {
        match token {
            Token::Fragment(i) => text.push_str(FRAGMENTS[usize::from(*i) % FRAGMENTS.len()]),
            Token::Number(n) => text.push_str(&n.to_string()),
            Token::Text(s) => text.push_str(s),
        }
    }
    text
}

fuzz_target!(|input: Input| {
    let rules = match input.rules % 3 {
        0 => TopicNameRules::Pulsar4_2,
        1 => TopicNameRules::V4,
        _ => TopicNameRules::Master,
    };
    let name = build(&input.name);
    check_partition_index(&name);
    check_partition_index(&build(&input.probe));

    let parsed = TopicName::parse_with(&name, rules);
    if rules == TopicNameRules::default() {
        assert_eq!(
            TopicName::parse(&name),
            parsed,
            "parse is parse_with(default)"
        );
    }
    match parsed {
        Ok(topic) => check_topic(&name, &topic, rules, input.partitions),
        Err(e) => check_error(&name, e, rules),
    }
});

/// Every error prints, and the variants the v4 rules lack never come from
/// them; the segment ones only come from the master rules.
fn check_error(name: &str, e: TopicNameError<'_>, rules: TopicNameRules) {
    assert!(!e.to_string().is_empty());
    match e {
        TopicNameError::V1NameUnsupported { .. } => {
            assert_ne!(rules, TopicNameRules::V4, "{e:?} for {name:?}");
        }
        TopicNameError::SegmentWithoutDescriptor { .. }
        | TopicNameError::InvalidSegmentDescriptor { .. } => {
            assert_eq!(rules, TopicNameRules::Master, "{e:?} for {name:?}");
        }
        TopicNameError::InvalidTopicName { rules: r, .. } => assert_eq!(r, rules),
        _ => {}
    }
}

fn check_topic(name: &str, topic: &TopicName<'_>, rules: TopicNameRules, partitions: [i32; 2]) {
    assert_eq!(topic.rules(), rules);
    let display = topic.to_string();
    let mut joined = String::new();
    topic.for_each_piece(|piece| joined.push_str(piece));
    assert_eq!(joined, display, "pieces != Display");
    assert_eq!(topic.canonical_len(), display.len());
    assert!(*topic == display.as_str());

    let hash = reference::crc32(display.as_bytes());
    assert_eq!(
        crc32(display.as_bytes()),
        hash,
        "crc32 differs from the reference"
    );
    assert_eq!(topic.crc32(), hash, "streamed crc32 != crc32 of Display");

    check_components(name, topic, rules, &display);
    check_reparse(topic, rules, &display);
    check_views(topic, &display);
    let own = topic.partition_index();
    for index in [partitions[0], partitions[1], -1, 0, own, i32::MAX, i32::MIN] {
        check_partition(topic, rules, &display, index);
    }
}

/// The namespace as `getNamespace()` prints it.
fn namespace_text(topic: &TopicName<'_>) -> String {
    match topic.cluster() {
        Some(cluster) => format!("{}/{cluster}/{}", topic.tenant(), topic.namespace_portion()),
        None => format!("{}/{}", topic.tenant(), topic.namespace_portion()),
    }
}

fn check_components(name: &str, topic: &TopicName<'_>, rules: TopicNameRules, display: &str) {
    let (tenant, cluster, ns, local) = (
        topic.tenant(),
        topic.cluster(),
        topic.namespace_portion(),
        topic.local_name(),
    );
    for entity in [Some(tenant), cluster, Some(ns)].into_iter().flatten() {
        assert!(
            !entity.is_empty() && reference::is_named_entity(entity),
            "{entity:?} is no named entity"
        );
    }
    assert!(!reference::java_is_blank(local), "blank local name");
    assert_eq!(topic.is_v2(), cluster.is_none());
    assert_eq!(
        topic.is_persistent(),
        topic.domain() != TopicDomain::NonPersistent
    );
    assert_eq!(
        get_partition_index(local),
        topic.partition_index(),
        "the index comes from the local name"
    );
    assert_eq!(topic.is_partitioned(), topic.partition_index() != -1);
    let namespace = namespace_text(topic);
    assert_eq!(topic.namespace().to_string(), namespace);

    let path = format!("{namespace}/{local}");
    match name.split_once("://") {
        Some((domain, rest)) => {
            assert_eq!(TopicDomain::parse(domain, rules), Some(topic.domain()));
            match topic.segment_descriptor() {
                Some(descriptor) => {
                    assert_eq!(topic.domain(), TopicDomain::Segment);
                    assert_eq!(rest, format!("{path}/{descriptor}"));
                }
                None => {
                    assert_ne!(topic.domain(), TopicDomain::Segment);
                    assert_eq!(rest, path);
                }
            }
            match rules {
                // A full name is its own canonical form.
                TopicNameRules::Master | TopicNameRules::Pulsar4_2 => assert_eq!(display, name),
                TopicNameRules::V4 => {
                    assert_eq!(display, format!("{}://{path}", topic.domain().as_str()));
                }
            }
        }
        None => {
            assert_eq!(topic.domain(), TopicDomain::Persistent);
            assert_eq!(topic.segment_descriptor(), None);
            // `tenant/ns/local` (for the v4 rules, any name of three
            // non-empty parts, which is then split again like a full name:
            // `t/c/ns/x//` is a V1 name with local name `x//`), or a
            // one-part name (which the v4 rules may have surrounded with
            // empty parts).
            if rules != TopicNameRules::V4 {
                assert_eq!(cluster, None);
            }
            if name != path {
                assert_eq!(
                    (tenant, cluster, ns),
                    ("public", None, "default"),
                    "{name:?}"
                );
                let parts: Vec<&str> = match rules {
                    TopicNameRules::V4 => name.split('/').filter(|p| !p.is_empty()).collect(),
                    TopicNameRules::Master | TopicNameRules::Pulsar4_2 => name.split('/').collect(),
                };
                assert_eq!(parts, [local], "{name:?}");
            }
            assert_eq!(display, format!("persistent://{path}"));
        }
    }
}

/// The canonical name parses back, under the same rules, to the same topic.
fn check_reparse(topic: &TopicName<'_>, rules: TopicNameRules, display: &str) {
    let again = TopicName::parse_with(display, rules)
        .unwrap_or_else(|e| panic!("the canonical name {display:?} does not parse: {e}"));
    assert_eq!(again.to_string(), display);
    assert_eq!(again.domain(), topic.domain());
    assert_eq!(again.tenant(), topic.tenant());
    assert_eq!(again.cluster(), topic.cluster());
    assert_eq!(again.namespace_portion(), topic.namespace_portion());
    assert_eq!(again.local_name(), topic.local_name());
    assert_eq!(again.segment_descriptor(), topic.segment_descriptor());
    assert_eq!(again.partition_index(), topic.partition_index());
    assert_eq!(again.crc32(), topic.crc32());
    assert_eq!(again, *topic);
    let state = RandomState::new();
    assert_eq!(state.hash_one(again), state.hash_one(topic));
}

fn check_views(topic: &TopicName<'_>, display: &str) {
    let local = topic.local_name();
    let encoded = reference::url_encode(local);
    assert_eq!(topic.encoded_local_name().to_string(), encoded);
    assert_eq!(topic.encoded_local_name().raw(), local);
    let namespace = namespace_text(topic);
    let domain = topic.domain().as_str();
    assert_eq!(
        topic.lookup_name().to_string(),
        format!("{domain}/{namespace}/{encoded}")
    );
    assert_eq!(
        topic.rest_path().to_string(),
        format!("{domain}/{namespace}/{encoded}")
    );
    assert_eq!(
        topic.rest_path_without_domain().to_string(),
        format!("{namespace}/{encoded}")
    );
    let ledger_domain = match topic.domain() {
        TopicDomain::Topic => String::new(),
        _ => format!("{domain}/"),
    };
    let descriptor = topic
        .segment_descriptor()
        .map_or_else(String::new, |d| format!("/{d}"));
    assert_eq!(
        topic.persistence_naming().to_string(),
        format!("{namespace}/{ledger_domain}{encoded}{descriptor}")
    );

    // `getPartitionedTopicName()`: cut at the last `-partition-` of a
    // partition's name, the whole name otherwise.
    let parent = topic.partitioned_topic_name();
    assert_eq!(parent.topic(), *topic);
    let parent_text = parent.to_string();
    let mut joined = String::new();
    parent.for_each_piece(|piece| joined.push_str(piece));
    assert_eq!(joined, parent_text);
    if topic.is_partitioned() {
        let (before, after) = display
            .rsplit_once("-partition-")
            .expect("a partition's name has the suffix");
        assert_eq!(parent_text, before);
        if topic.segment_descriptor().is_none() {
            // The suffix ends the name, and is the index itself.
            assert_eq!(
                get_partition_index(&format!("-partition-{after}")),
                topic.partition_index()
            );
        }
    } else {
        assert_eq!(parent_text, display);
    }
}

/// `getPartition(index)`: the name itself for -1 or a name that already
/// ends with the suffix, else the suffix appended (an error for a segment,
/// whose descriptor would swallow it). The result parses back, with the
/// partition index Java would read from it.
fn check_partition(topic: &TopicName<'_>, rules: TopicNameRules, display: &str, index: i32) {
    let suffix = format!("-partition-{index}");
    let unchanged = index == -1 || display.ends_with(&suffix);
    let partition = match topic.partition(index) {
        Ok(partition) => partition,
        Err(e) => {
            assert!(!unchanged, "partition({index}) of {display:?}: {e}");
            assert!(topic.segment_descriptor().is_some(), "{e:?}");
            assert!(matches!(
                e,
                TopicNameError::InvalidSegmentDescriptor {
                    partition: Some(i),
                    ..
                } if i == index
            ));
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let expected = if unchanged {
        display.to_owned()
    } else {
        assert!(topic.segment_descriptor().is_none());
        format!("{display}{suffix}")
    };
    assert_eq!(partition.to_string(), expected, "partition({index})");
    let mut joined = String::new();
    partition.for_each_piece(|piece| joined.push_str(piece));
    assert_eq!(joined, expected);
    assert!(partition == expected.as_str());
    assert_eq!(partition.topic(), *topic);
    assert_eq!(
        partition.crc32(),
        reference::crc32(expected.as_bytes()),
        "partition crc32"
    );
    let expected_index = match index {
        0.. => index,
        -1 => topic.partition_index(),
        _ => -1,
    };
    assert_eq!(partition.partition_index(), expected_index);

    let again = TopicName::parse_with(&expected, rules)
        .unwrap_or_else(|e| panic!("partition name {expected:?} does not parse: {e}"));
    assert_eq!(again.to_string(), expected);
    assert_eq!(again.partition_index(), expected_index);
    assert_eq!(again.crc32(), partition.crc32());
    // The same name in other pieces: equal, and hashed the same.
    let whole = again.partition(-1).expect("-1 is the name itself");
    assert!(whole == partition);
    let state = RandomState::new();
    assert_eq!(state.hash_one(whole), state.hash_one(partition));
}

/// `getPartitionIndex` on any text: -1, or a non-negative number whose
/// decimal form is as long as the (BMP-digit) suffix it was read from.
fn check_partition_index(text: &str) {
    let index = get_partition_index(text);
    assert!(index >= -1, "{index}");
    let Some((_, suffix)) = text.rsplit_once("-partition-") else {
        assert_eq!(index, -1, "no suffix, no index");
        return;
    };
    if suffix.is_ascii() {
        assert_eq!(
            index,
            reference::partition_index(&format!("-partition-{suffix}")),
            "suffix {suffix:?}"
        );
    }
    if index >= 0 {
        assert_eq!(suffix.chars().count(), index.to_string().len());
        assert!(
            suffix.chars().all(|c| c.is_numeric() && c.len_utf16() == 1),
            "{suffix:?}"
        );
        assert_eq!(get_partition_index(&format!("x-partition-{index}")), index);
    }
}
