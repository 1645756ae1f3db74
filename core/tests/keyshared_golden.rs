//! Every field of the four `keyshared_*.jsonl` golden files must agree:
//! slots, snapshots (in full or by `assignments_sha256`), per-consumer
//! ranges, impacts, lookups, name indexes, ring points and errors.

mod common;

use std::collections::BTreeMap;

use common::{golden, int, text, unhex};
use pulsar_routing::key_shared::{
    AssignError, Assignment, AutoSplitConfig, AutoSplitSelector, ConsistentHashingConfig,
    ConsistentHashingSelector, ExclusiveConfig, ExclusiveMode, ExclusiveSelector, HashRange,
    Impact, KeyHashRange, NONE_KEY, StickyKey, ring_point, validate_sticky_ranges,
};
use pulsar_routing::{murmur3_32, murmur3_32_raw};
use serde_json::Value;
use sha2::{Digest, Sha256};

type Ranges = BTreeMap<u64, Vec<(i64, i64)>>;

/// `assignments_sha256` (spec §11): SHA-256 of `"{start},{end},{consumer}\n"`
/// for each assignment, in order.
fn digest(assignments: &[Assignment]) -> String {
    let mut hasher = Sha256::new();
    for a in assignments {
        hasher.update(format!(
            "{},{},{}\n",
            a.range.start, a.range.end, a.consumer
        ));
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn json_ranges(v: &Value) -> Ranges {
    v.as_object()
        .expect("map of ranges")
        .iter()
        .map(|(k, list)| {
            let ranges = list
                .as_array()
                .expect("list")
                .iter()
                .map(|r| (r[0].as_i64().expect("start"), r[1].as_i64().expect("end")))
                .collect();
            (k.parse().expect("consumer id"), ranges)
        })
        .collect()
}

fn group(pairs: impl Iterator<Item = (u64, HashRange)>) -> Ranges {
    let mut out = Ranges::new();
    for (c, r) in pairs {
        out.entry(c)
            .or_default()
            .push((i64::from(r.start), i64::from(r.end)));
    }
    out
}

fn json_assignments(v: &Value) -> Vec<(i64, i64, u64)> {
    v.as_array()
        .expect("assignments")
        .iter()
        .map(|a| {
            (
                a[0].as_i64().expect("start"),
                a[1].as_i64().expect("end"),
                a[2].as_u64().expect("consumer"),
            )
        })
        .collect()
}

fn tuples(assignments: &[Assignment]) -> Vec<(i64, i64, u64)> {
    assignments
        .iter()
        .map(|a| (i64::from(a.range.start), i64::from(a.range.end), a.consumer))
        .collect()
}

/// The fields every AutoSplit and consistent-hashing step carries.
struct StepView<'a> {
    assignments: Vec<Assignment>,
    consumer_ranges: Ranges,
    impact: Result<Impact<'a>, AssignError>,
}

fn check_scenario_step(
    step: &Value,
    got: &StepView<'_>,
    select: impl Fn(u32) -> Option<u64>,
    at: &str,
) {
    match (&got.impact, step["ok"].as_bool().expect("ok")) {
        (Ok(_), true) => {}
        (Err(e), false) => {
            assert_eq!(e.to_string(), text(step, "error"), "{at}: message");
            assert_eq!(
                e.java_class(),
                Some(text(step, "error_class")),
                "{at}: class"
            );
        }
        (got, _) => panic!("{at}: expected ok={}, got {got:?}", step["ok"]),
    }
    let (removed, added) = match &got.impact {
        Ok(i) => (group(i.removed()), group(i.added())),
        Err(_) => (Ranges::new(), Ranges::new()),
    };
    assert_eq!(removed, json_ranges(&step["removed"]), "{at}: removed");
    assert_eq!(added, json_ranges(&step["added"]), "{at}: added");
    assert_eq!(
        got.assignments.len() as i64,
        int(step, "assignments_count"),
        "{at}: assignments_count"
    );
    assert_eq!(
        digest(&got.assignments),
        text(step, "assignments_sha256"),
        "{at}: assignments_sha256"
    );
    if let Some(expected) = step.get("assignments") {
        assert_eq!(
            tuples(&got.assignments),
            json_assignments(expected),
            "{at}: assignments"
        );
    }
    let count: usize = got.consumer_ranges.values().map(Vec::len).sum();
    assert_eq!(
        got.consumer_ranges.len() as i64,
        int(step, "ranges_by_consumer_count"),
        "{at}: ranges_by_consumer_count ({count} ranges)"
    );
    if let Some(expected) = step.get("ranges_by_consumer") {
        assert_eq!(
            got.consumer_ranges,
            json_ranges(expected),
            "{at}: ranges_by_consumer"
        );
    }
    check_lookups(&step["lookups"], select, at);
}

fn check_lookups(lookups: &Value, select: impl Fn(u32) -> Option<u64>, at: &str) {
    for pair in lookups.as_array().expect("lookups") {
        let slot = pair[0].as_u64().expect("slot") as u32;
        assert_eq!(select(slot), pair[1].as_u64(), "{at}: select({slot})");
    }
}

#[test]
fn keyshared_hash_rows() {
    let rows = golden("keyshared_hash");
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["type"] == "key") {
        let key = unhex(text(row, "key_hex"));
        let at = format!("key idx {}", int(row, "idx"));
        assert_eq!(
            i64::from(murmur3_32_raw(&key)),
            int(row, "murmur3_32_x86_seed0_u32"),
            "{at}"
        );
        assert_eq!(
            i64::from(murmur3_32(&key)),
            int(row, "pulsar_murmur3_31"),
            "{at}"
        );
        for (range, field) in [
            (KeyHashRange::AUTO_SPLIT, "hash_range_0_65535"),
            (KeyHashRange::EXCLUSIVE, "hash_range_0_65535"),
            (KeyHashRange::CONSISTENT_HASHING, "hash_range_1_65535"),
            (
                KeyHashRange::CLASSIC_CONSISTENT_HASHING,
                "hash_range_1_2147483646",
            ),
        ] {
            let expected = int(row, field);
            assert_eq!(i64::from(range.slot_of(&key)), expected, "{at}: {field}");
            assert_eq!(
                i64::from(range.slot(&StickyKey::Key(&key))),
                expected,
                "{at}: {field} via StickyKey"
            );
            match text(row, "category") {
                "none_key" => {
                    assert_eq!(key, NONE_KEY);
                    assert_eq!(i64::from(range.slot(&StickyKey::None)), expected, "{at}");
                }
                "fallback_producer_seq" => {
                    let (name, seq) = text(row, "key_utf8").rsplit_once('-').expect("name-seq");
                    let key = StickyKey::ProducerSequence {
                        producer_name: name.as_bytes(),
                        sequence_id: seq.parse().expect("sequence id"),
                    };
                    assert_eq!(i64::from(range.slot(&key)), expected, "{at}: fallback");
                }
                _ => {}
            }
        }
        // The same bytes sent with keyBytes(): Base64 text, decoded by the broker.
        let mut b64 = vec![0u8; pulsar_routing::base64_len(key.len())];
        let n = pulsar_routing::encode_base64(&key, &mut b64).expect("room");
        assert_eq!(
            i64::from(KeyHashRange::AUTO_SPLIT.slot(&StickyKey::Base64(&b64[..n]))),
            int(row, "hash_range_0_65535"),
            "{at}: Base64"
        );
        checked += 1;
    }
    eprintln!("keyshared_hash: {checked} keys checked");
    assert!(checked > 1500, "keyshared_hash.jsonl looks truncated");
}

#[test]
fn keyshared_autosplit_rows() {
    let rows = golden("keyshared_autosplit");
    let mut constructors = 0;
    for row in rows.iter().filter(|r| r["type"] == "constructor") {
        let size = int(row, "range_size") as i32;
        let config = AutoSplitConfig::new(4).with_range_size(size);
        match (config.storage_words(), row["ok"].as_bool().expect("ok")) {
            (Ok(words), true) => {
                assert!(AutoSplitSelector::new(config, vec![0u32; words]).is_ok());
            }
            (Err(e), false) => assert_eq!(e.to_string(), text(row, "error"), "size {size}"),
            (got, _) => panic!("range size {size}: {got:?}"),
        }
        constructors += 1;
    }
    let (mut scenarios, mut steps) = (0, 0);
    for row in rows.iter().filter(|r| r["type"] == "scenario") {
        let id = text(row, "id");
        let config = AutoSplitConfig::new(64).with_range_size(int(row, "range_size") as i32);
        let words = config.storage_words().expect("valid size");
        let mut sel = AutoSplitSelector::new(config, vec![0u32; words]).expect("storage");
        for (n, step) in row["steps"].as_array().expect("steps").iter().enumerate() {
            let consumer = step["consumer_id"].as_u64().expect("consumer id");
            let impact = match text(step, "op") {
                "add" => sel
                    .add(consumer)
                    .map(|i| (group(i.removed()), group(i.added()))),
                "remove" => {
                    let i = sel.remove(consumer);
                    Ok((group(i.removed()), group(i.added())))
                }
                op => panic!("unknown op {op}"),
            };
            let at = format!("{id} step {n}");
            let assignments: Vec<Assignment> = sel.assignments().collect();
            let consumer_ranges = group(sel.consumer_ranges().map(|a| (a.consumer, a.range)));
            let view = StepView {
                assignments,
                consumer_ranges,
                impact: impact.as_ref().map(|_| sel.last_impact()).map_err(|e| *e),
            };
            check_scenario_step(step, &view, |s| sel.select(s), &at);
            if let Ok((removed, added)) = impact {
                assert_eq!(removed, group(sel.last_impact().removed()), "{at}");
                assert_eq!(added, group(sel.last_impact().added()), "{at}");
            }
            steps += 1;
        }
        scenarios += 1;
    }
    eprintln!(
        "keyshared_autosplit: {constructors} constructors, {scenarios} scenarios, {steps} steps checked"
    );
    assert!(
        scenarios > 200 && steps > 5000,
        "keyshared_autosplit.jsonl looks truncated"
    );
}

#[test]
fn keyshared_consistent_rows() {
    let rows = golden("keyshared_consistent");
    let mut ring_rows = 0;
    for row in rows.iter().filter(|r| r["type"] == "ring_points") {
        let name = unhex(text(row, "name_utf8_hex"));
        assert_eq!(name, text(row, "name").as_bytes());
        let range = KeyHashRange::new(1, int(row, "range_max") as u32).expect("range");
        let index = int(row, "name_index") as u32;
        for (i, p) in row["points"].as_array().expect("points").iter().enumerate() {
            assert_eq!(
                Some(u64::from(ring_point(&name, index, i as u32, range))),
                p.as_u64(),
                "{} index {index} point {i}",
                text(row, "name")
            );
        }
        ring_rows += 1;
    }
    let (mut scenarios, mut steps) = (0, 0);
    for row in rows.iter().filter(|r| r["type"] == "scenario") {
        let id = text(row, "id");
        assert_eq!(int(row, "range_min"), 1);
        let config = ConsistentHashingConfig::new(64)
            .with_points(int(row, "points") as u32)
            .with_range_max(int(row, "range_max") as u32);
        let words = config.storage_words().expect("valid config");
        let mut sel = ConsistentHashingSelector::new(config, vec![0u32; words]).expect("storage");
        for (n, step) in row["steps"].as_array().expect("steps").iter().enumerate() {
            let consumer = step["consumer_id"].as_u64().expect("consumer id");
            let at = format!("{id} step {n}");
            let ok = match text(step, "op") {
                "add" => sel.add(consumer, text(step, "name")).map(|_| ()),
                "remove" => {
                    sel.remove(consumer);
                    Ok(())
                }
                op => panic!("unknown op {op}"),
            };
            if let Some(index) = step.get("name_index") {
                let got = sel.name_index(consumer).map_or(-1, i64::from);
                assert_eq!(Some(got), index.as_i64(), "{at}: name_index");
            }
            if let Some(points) = step.get("ring_points") {
                let expected: Vec<u64> = points
                    .as_array()
                    .expect("points")
                    .iter()
                    .map(|p| p.as_u64().expect("point"))
                    .collect();
                let got: Vec<u64> = sel.consumer_points(consumer).map(u64::from).collect();
                assert_eq!(got, expected, "{at}: ring_points");
            }
            let view = StepView {
                assignments: sel.assignments().collect(),
                consumer_ranges: group(sel.consumer_ranges().map(|a| (a.consumer, a.range))),
                impact: ok.map(|()| sel.last_impact()),
            };
            check_scenario_step(step, &view, |s| sel.select(s), &at);
            steps += 1;
        }
        scenarios += 1;
    }
    eprintln!(
        "keyshared_consistent: {ring_rows} ring_points rows, {scenarios} scenarios, {steps} steps checked"
    );
    assert!(
        ring_rows > 20 && scenarios > 200 && steps > 3000,
        "looks truncated"
    );
}

fn json_declared(v: &Value) -> Option<Vec<HashRange>> {
    let list = v.as_array()?;
    Some(
        list.iter()
            .map(|r| {
                HashRange::new(
                    r[0].as_i64().expect("start") as i32,
                    r[1].as_i64().expect("end") as i32,
                )
            })
            .collect(),
    )
}

fn check_exclusive(
    sel: &mut ExclusiveSelector<Vec<u32>>,
    step: &Value,
    expected: &Value,
    at: &str,
) {
    let consumer = step["consumer_id"].as_u64().expect("consumer id");
    let result = match text(step, "op") {
        "add" => sel
            .add(consumer, json_declared(&step["ranges"]).as_deref())
            .map(|_| ()),
        "remove" => {
            sel.remove(consumer);
            Ok(())
        }
        op => panic!("unknown op {op}"),
    };
    match (result, expected["ok"].as_bool().expect("ok")) {
        (Ok(()), true) => {}
        (Err(e), false) => {
            assert_eq!(e.java_class(), Some(text(expected, "error_class")), "{at}");
            let java = text(expected, "error");
            match e {
                // Java appends the broker's Consumer.toString(); the golden
                // stub prints `Consumer{consumerId=N, consumerName=...}`.
                AssignError::RangeConflict { consumer } => {
                    let prefix =
                        format!("Range conflict with consumer Consumer{{consumerId={consumer},");
                    assert!(java.starts_with(&prefix), "{at}: {java} vs {e}");
                }
                _ => assert_eq!(e.to_string(), java, "{at}: message"),
            }
        }
        (got, _) => panic!("{at}: expected {expected}, got {got:?}"),
    }
    let got = group(sel.consumer_ranges().map(|a| (a.consumer, a.range)));
    assert_eq!(
        got,
        json_ranges(&expected["ranges_by_consumer"]),
        "{at}: ranges_by_consumer"
    );
    check_lookups(&expected["lookups"], |s| sel.select(s), at);
}

#[test]
fn keyshared_exclusive_rows() {
    let rows = golden("keyshared_exclusive");
    let (mut cases, mut steps, mut client) = (0, 0, 0);
    for row in rows.iter().filter(|r| r["type"] == "case") {
        let id = text(row, "id");
        let mut current = {
            let config = ExclusiveConfig::new(64, 4096);
            ExclusiveSelector::new(config, vec![0u32; config.storage_words().expect("size")])
                .expect("storage")
        };
        let mut legacy = {
            let config = ExclusiveConfig::new(64, 4096).with_mode(ExclusiveMode::LegacyPre24730);
            ExclusiveSelector::new(config, vec![0u32; config.storage_words().expect("size")])
                .expect("storage")
        };
        for (n, step) in row["steps"].as_array().expect("steps").iter().enumerate() {
            let at = format!("{id} step {n}");
            if let (Some(expected), Some(declared)) = (
                step["client_validate"].as_str(),
                json_declared(&step["ranges"]),
            ) {
                let got = match validate_sticky_ranges(&declared) {
                    Ok(()) => "ok".to_string(),
                    Err(e) => format!("error: {e}"),
                };
                assert_eq!(got, expected, "{at}: client_validate");
                client += 1;
            }
            check_exclusive(
                &mut current,
                step,
                &step["broker"],
                &format!("{at} (master)"),
            );
            check_exclusive(
                &mut legacy,
                step,
                &step["broker_pre_24730"],
                &format!("{at} (pre-24730)"),
            );
            steps += 1;
        }
        cases += 1;
    }
    eprintln!(
        "keyshared_exclusive: {cases} cases, {steps} steps checked under both rules, {client} client validations"
    );
    assert!(
        cases > 150 && steps > 1000,
        "keyshared_exclusive.jsonl looks truncated"
    );
}
