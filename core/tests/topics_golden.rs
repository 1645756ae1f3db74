//! Every Java field of `topics.jsonl`, and the canonical names and CRC-32
//! bundle hashes of the `topic_bundle` rows of `bundles.jsonl`.

mod common;

use common::{golden, int, text};
use pulsar_routing::crc32;
use pulsar_routing::topic_name::{TopicName, TopicNameRules, get_partition_index};
use serde_json::Value;

/// The rule sets a row holds for: `impl` is `both`, `v4` or `master`, and a
/// row without it holds for both. The 4.2 rules are checked against the
/// rows 4.2.4 prints again unchanged (testdata/golden/README.md, "Printing
/// them again"): those of both builds, and the `master` ones except for the
/// scalable domains 4.2.4 does not have. A `v4` row is reproduced only for
/// some `topic://` names, which `topics_rows` checks apart.
fn rules_of(row: &Value, topic: &str) -> &'static [TopicNameRules] {
    use TopicNameRules::{Master, Pulsar4_2, V4};
    match row.get("impl").and_then(Value::as_str) {
        None | Some("both") => &[V4, Master, Pulsar4_2],
        Some("v4") => &[V4],
        Some("master") if names_scalable_domain(topic) => &[Master],
        Some("master") => &[Master, Pulsar4_2],
        Some(other) => panic!("unknown impl {other} in {row}"),
    }
}

/// Whether `topic` is written with PIP-460's `topic://` or `segment://`.
fn names_scalable_domain(topic: &str) -> bool {
    topic.split_once("://").is_some_and(|(domain, _)| {
        ["topic", "segment"]
            .iter()
            .any(|scalable| domain.eq_ignore_ascii_case(scalable))
    })
}

fn optional_text<'a>(row: &'a Value, field: &str) -> Option<&'a str> {
    match &row[field] {
        Value::Null => None,
        value => Some(value.as_str().unwrap_or_else(|| panic!("{field} in {row}"))),
    }
}

fn check_parsed(row: &Value, topic: &TopicName<'_>, what: &str) {
    assert_eq!(
        topic.to_string(),
        text(row, "to_string"),
        "to_string, {what}"
    );
    assert_eq!(
        topic.canonical_len(),
        text(row, "to_string").len(),
        "length, {what}"
    );
    assert_eq!(
        topic.domain().as_str(),
        text(row, "domain"),
        "domain, {what}"
    );
    assert_eq!(topic.tenant(), text(row, "tenant"), "tenant, {what}");
    assert_eq!(
        topic.cluster(),
        optional_text(row, "cluster"),
        "cluster, {what}"
    );
    assert_eq!(
        topic.namespace_portion(),
        text(row, "namespace_portion"),
        "namespace_portion, {what}"
    );
    assert_eq!(
        topic.namespace().to_string(),
        text(row, "namespace"),
        "namespace, {what}"
    );
    assert_eq!(
        topic.local_name(),
        text(row, "local_name"),
        "local_name, {what}"
    );
    assert_eq!(
        i64::from(topic.partition_index()),
        int(row, "partition_index"),
        "partition_index, {what}"
    );
    assert_eq!(
        topic.is_partitioned(),
        int(row, "partition_index") != -1,
        "is_partitioned, {what}"
    );
    assert_eq!(
        topic.partitioned_topic_name().to_string(),
        text(row, "partitioned_topic_name"),
        "partitioned_topic_name, {what}"
    );
    assert_eq!(
        Some(topic.is_persistent()),
        row["persistent"].as_bool(),
        "persistent, {what}"
    );
    assert_eq!(
        topic.lookup_name().to_string(),
        text(row, "lookup_name"),
        "lookup_name, {what}"
    );
    assert_eq!(
        topic.persistence_naming().to_string(),
        text(row, "persistence_naming"),
        "persistence_naming, {what}"
    );
    assert_eq!(
        topic.rest_path().to_string(),
        text(row, "rest_path"),
        "rest_path, {what}"
    );
    assert_eq!(
        topic.encoded_local_name().to_string(),
        text(row, "encoded_local_name"),
        "encoded_local_name, {what}"
    );
    assert_eq!(
        topic.crc32(),
        crc32(text(row, "to_string").as_bytes()),
        "crc32, {what}"
    );
    match (row.get("partition_3"), row.get("partition_3_error")) {
        (Some(expected), None) => {
            let partition = topic
                .partition(3)
                .unwrap_or_else(|e| panic!("partition(3): {e}, {what}"));
            let expected = expected.as_str().expect("partition_3 text");
            assert_eq!(partition.to_string(), expected, "partition_3, {what}");
            assert_eq!(partition, expected, "partition_3 equality, {what}");
            assert_eq!(
                partition.crc32(),
                crc32(expected.as_bytes()),
                "partition_3 crc32, {what}"
            );
            assert_eq!(
                partition.partition_index(),
                get_partition_index(expected),
                "partition_3 index, {what}"
            );
        }
        (None, Some(class)) => {
            assert_eq!(class, "java.lang.IllegalArgumentException", "{what}");
            assert!(
                topic.partition(3).is_err(),
                "partition(3) should fail, {what}"
            );
        }
        _ => panic!("partition_3 or partition_3_error expected, {what}"),
    }
}

#[test]
fn topics_rows() {
    let rows = golden("topics");
    assert!(rows.len() >= 138, "topics.jsonl looks truncated");
    let mut checked = 0;
    for row in &rows {
        match text(row, "kind") {
            "parse" => {
                let input = text(row, "input");
                if names_scalable_domain(input) {
                    // 4.2.4 throws an `IllegalArgumentException` for every
                    // such name, whatever either build answered.
                    let parsed = TopicName::parse_with(input, TopicNameRules::Pulsar4_2);
                    assert!(parsed.is_err(), "{input:?} should fail under 4.2");
                    checked += 1;
                }
                for &rules in rules_of(row, input) {
                    let what = format!("{input:?} under {rules:?}");
                    let parsed = TopicName::parse_with(input, rules);
                    if row["ok"].as_bool() == Some(true) {
                        let topic = parsed.unwrap_or_else(|e| panic!("{e}, {what}"));
                        assert_eq!(topic.rules(), rules, "{what}");
                        check_parsed(row, &topic, &what);
                    } else {
                        assert_eq!(
                            text(row, "error_class"),
                            "java.lang.IllegalArgumentException",
                            "{what}"
                        );
                        let err = parsed.map(|t| t.to_string()).expect_err(&what);
                        assert_eq!(err.to_string(), text(row, "error_message"), "{what}");
                    }
                    checked += 1;
                }
            }
            "get_partition_index" => {
                let input = text(row, "input");
                assert_eq!(
                    i64::from(get_partition_index(input)),
                    int(row, "partition_index"),
                    "get_partition_index({input:?})"
                );
                checked += 1;
            }
            other => panic!("unknown kind {other}"),
        }
    }
    assert!(checked >= 180, "only {checked} checks ran");
}

#[test]
fn topic_bundle_rows() {
    let rows = golden("bundles");
    let mut checked = 0;
    for row in rows
        .iter()
        .filter(|row| text(row, "kind") == "topic_bundle")
    {
        let input = text(row, "topic");
        for &rules in rules_of(row, input) {
            let what = format!("{input:?} under {rules:?}");
            let parsed = TopicName::parse_with(input, rules);
            let Some(canonical) = row.get("canonical") else {
                // Rejected by the parser itself (a V1 name under the master
                // rules); the other errors come after parsing.
                assert!(parsed.is_err(), "should not parse, {what}");
                checked += 1;
                continue;
            };
            let canonical = canonical.as_str().expect("canonical text");
            let topic = parsed.unwrap_or_else(|e| panic!("{e}, {what}"));
            assert_eq!(topic.to_string(), canonical, "canonical, {what}");
            assert_eq!(i64::from(topic.crc32()), int(row, "crc32"), "crc32, {what}");
            // A partition's name is also what `partition` builds from the
            // partitioned topic, and it hashes the same.
            if topic.is_partitioned() {
                let parent = topic.partitioned_topic_name().to_string();
                if let Ok(parent) = TopicName::parse_with(&parent, rules) {
                    let partition = parent
                        .partition(topic.partition_index())
                        .unwrap_or_else(|e| panic!("{e}, {what}"));
                    assert_eq!(partition.to_string(), canonical, "partition, {what}");
                    assert_eq!(partition.crc32(), topic.crc32(), "partition crc32, {what}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 2500, "only {checked} topic_bundle checks ran");
}
