//! Every row of `bundles.jsonl` that does not need topic-name parsing (those
//! are in `topics_golden.rs`).

mod common;

use common::{golden, int, text};
use pulsar_routing::bundles::{
    BundleError, BundleLayout, BundleRange, FlowLimits, SplitAlgorithm, TopicLoad,
    flow_or_qps_equally_divide, parse_boundary, range_equally_divide, specified_positions_divide,
    topic_count_equally_divide, validate_full_range,
};
use pulsar_routing::crc32;
use pulsar_routing::topic_name::{TopicName, TopicNameRules};
use serde_json::Value;

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string"))
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_i64().expect("integer"))
        .collect()
}

fn boundaries(v: &Value) -> Vec<u32> {
    strings(v)
        .into_iter()
        .map(|s| parse_boundary(s).expect("boundary"))
        .collect()
}

fn names(layout: &BundleLayout<'_>) -> Vec<String> {
    layout.bundles().map(|b| b.to_string()).collect()
}

fn hex(b: u32) -> String {
    format!("0x{b:08x}")
}

#[test]
fn bundle_rows() {
    let rows = golden("bundles");
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    for row in &rows {
        let kind = text(row, "kind");
        match kind {
            "default_bundles" => default_bundles(row),
            "hash_bundle" => {
                let layout = BundleLayout::default_for(int(row, "num_bundles") as u32).unwrap();
                let hash = int(row, "hash") as u32;
                match row.get("error").and_then(Value::as_str) {
                    Some(error) => {
                        assert_eq!(error, "java.lang.IndexOutOfBoundsException", "{row}");
                        assert_eq!(
                            layout.bundle_index_for_hash_java(hash),
                            Err(BundleError::NoBundleForHash(hash))
                        );
                        assert_eq!(layout.bundle_index_for_hash(hash), Some(layout.len() - 1));
                    }
                    None => {
                        let bundle = layout.bundle_for_hash(hash).unwrap();
                        assert_eq!(bundle.to_string(), text(row, "bundle"), "{row}");
                    }
                }
            }
            "topic_bundle" => {
                if !topic_bundle_by_hash(row) {
                    continue;
                }
            }
            "split" => split(row),
            "split_equal_parts" => {
                let before = boundaries(&row["boundaries_before"]);
                let layout = BundleLayout::new(&before).unwrap();
                let target = BundleRange::parse(text(row, "target_bundle")).unwrap();
                let mut out = vec![0u32; before.len() + 64];
                let split = layout
                    .split_equally(target, int(row, "num_parts") as u32, &mut out)
                    .unwrap();
                let after: Vec<String> = split.layout.boundaries().map(hex).collect();
                assert_eq!(after, strings(&row["boundaries_after"]), "{row}");
                let new: Vec<String> = split.new_bundles().map(|b| b.to_string()).collect();
                assert_eq!(new, strings(&row["new_bundles"]));
            }
            "parse_bundle_range" => parse_bundle_range(row),
            "bundles_from_boundaries" => bundles_from_boundaries(row),
            "validate_full_range" => {
                let result = validate_full_range(strings(&row["boundaries"]));
                assert_eq!(result.is_ok(), row["valid"].as_bool().unwrap(), "{row}");
            }
            "can_split" => {
                let bundle = BundleRange::parse(text(row, "bundle")).unwrap();
                assert_eq!(
                    bundle.can_split(),
                    row["can_split"].as_bool().unwrap(),
                    "{row}"
                );
            }
            other => panic!("unknown kind {other}"),
        }
        *checked.entry(kind.to_owned()).or_default() += 1;
    }
    for kind in [
        "default_bundles",
        "hash_bundle",
        "topic_bundle",
        "split",
        "split_equal_parts",
        "parse_bundle_range",
        "bundles_from_boundaries",
        "validate_full_range",
        "can_split",
    ] {
        assert!(
            checked.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} rows checked: {checked:?}"
        );
    }
}

fn default_bundles(row: &Value) {
    let k = int(row, "num_bundles");
    match u32::try_from(k)
        .map_err(|_| BundleError::NoBundles)
        .and_then(BundleLayout::default_for)
    {
        Err(e) => {
            assert!(row.get("error").is_some(), "{row}");
            assert_eq!(e, BundleError::NoBundles);
        }
        Ok(layout) => {
            let got: Vec<String> = layout.boundaries().map(hex).collect();
            assert_eq!(got, strings(&row["boundaries"]), "{row}");
            assert_eq!(names(&layout), strings(&row["names"]));
            let closed: Vec<bool> = layout.bundles().map(|b| b.upper_closed()).collect();
            let expected: Vec<bool> = row["upper_closed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_bool().unwrap())
                .collect();
            assert_eq!(closed, expected);
            let mut buf = vec![0u32; layout.len() + 1];
            let written = pulsar_routing::bundles::default_boundaries(k as u32, &mut buf).unwrap();
            assert!(written.iter().copied().eq(layout.boundaries()));
        }
    }
}

/// The lookup half of a `topic_bundle` row: the CRC of the canonical name
/// and its bundle. Returns false for rows without a canonical name.
fn topic_bundle_by_hash(row: &Value) -> bool {
    let Some(canonical) = row.get("canonical").and_then(Value::as_str) else {
        return false;
    };
    let hash = crc32(canonical.as_bytes());
    assert_eq!(i64::from(hash), int(row, "crc32"), "{row}");
    let layout = BundleLayout::default_for(int(row, "num_bundles") as u32).unwrap();
    match row.get("error").and_then(Value::as_str) {
        Some(error) => {
            assert_eq!(error, "java.lang.IndexOutOfBoundsException", "{row}");
            assert_eq!(
                layout.bundle_index_for_hash_java(hash),
                Err(BundleError::NoBundleForHash(hash))
            );
            // Our lookup maps it to the bundle whose range includes it.
            let ours = layout.bundle_for_hash(hash).unwrap();
            assert_eq!(ours.to_string(), text(row, "includes_bundle"));
            assert!(ours.includes(hash));
        }
        None => {
            let bundle = layout.bundle_for_hash(hash).unwrap();
            assert_eq!(bundle.to_string(), text(row, "bundle"), "{row}");
            // Through the topic parser too, under the rule set of the row.
            let rules = match row.get("impl").and_then(Value::as_str) {
                Some("master") => TopicNameRules::Master,
                _ => TopicNameRules::V4,
            };
            let topic = TopicName::parse_with(text(row, "topic"), rules).unwrap();
            assert_eq!(layout.bundle_for_topic(&topic), Some(bundle));
            assert_eq!(
                bundle.key(topic.namespace()).to_string(),
                text(row, "bundle_key"),
                "{row}"
            );
            assert_eq!(bundle.includes(hash), row["includes"].as_bool().unwrap());
            assert_eq!(
                layout.bundle_index_for_hash_java(hash),
                layout
                    .bundle_index_for_hash(hash)
                    .ok_or(BundleError::NoBundleForHash(hash))
            );
        }
    }
    true
}

fn parse_bundle_range(row: &Value) {
    let input = text(row, "input");
    match BundleRange::parse(input) {
        Ok(range) => {
            assert!(row.get("error").is_none(), "{row} parsed as {range}");
            assert_eq!(range.lower(), int(row, "lower"), "{row}");
            assert_eq!(range.upper(), int(row, "upper"), "{row}");
            assert_eq!(range.upper_closed(), row["upper_closed"].as_bool().unwrap());
            assert_eq!(range.to_string(), text(row, "bundle_range"));
            assert_eq!(range.key("t/ns").to_string(), text(row, "key"));
            let four = BundleLayout::default_for(4).unwrap();
            assert_eq!(
                four.validate_bundle(range).is_ok(),
                row["valid_in_4_bundles"].as_bool().unwrap(),
                "{row}"
            );
        }
        Err(e) => match text(row, "error") {
            "java.lang.ArrayIndexOutOfBoundsException" => {
                assert_eq!(e, BundleError::MissingUpperBound, "{row}")
            }
            "java.lang.IllegalArgumentException" => assert!(
                matches!(
                    e,
                    BundleError::InvalidBundleRange
                        | BundleError::EmptyRange
                        | BundleError::InvalidRange { .. }
                ),
                "{row}: {e:?}"
            ),
            other => panic!("unexpected error class {other} for {row}"),
        },
    }
}

fn bundles_from_boundaries(row: &Value) {
    let parsed: Result<Vec<u32>, _> = strings(&row["boundaries"])
        .into_iter()
        .map(parse_boundary)
        .collect();
    let parsed = parsed.expect("golden boundaries are in range");
    match BundleLayout::new(&parsed) {
        Ok(layout) => {
            assert!(row.get("error").is_none(), "{row}");
            assert_eq!(names(&layout), strings(&row["names"]), "{row}");
            let probes = ints(&row["probe_hashes"]);
            for (hash, expected) in probes.iter().zip(strings(&row["probe_bundles"])) {
                let got = layout
                    .bundle_index_for_hash_java(*hash as u32)
                    .map(|i| layout.bundle(i).unwrap().to_string());
                match expected.strip_prefix("error:") {
                    Some(class) => {
                        assert_eq!(class, "java.lang.IndexOutOfBoundsException");
                        assert!(got.is_err(), "{row}");
                    }
                    None => assert_eq!(got.as_deref(), Ok(expected), "{row}"),
                }
            }
        }
        Err(_) => assert_eq!(
            text(row, "error"),
            "java.lang.IllegalArgumentException",
            "{row}"
        ),
    }
}

fn split(row: &Value) {
    let algorithm: SplitAlgorithm = text(row, "algorithm").parse().unwrap();
    let before = boundaries(&row["boundaries_before"]);
    let layout = BundleLayout::new(&before).unwrap();
    let target = BundleRange::parse(text(row, "target_bundle")).unwrap();
    let topic_hashes: Vec<u32> = row
        .get("topics")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .map(|s| crc32(s.as_str().unwrap().as_bytes()))
                .collect()
        })
        .unwrap_or_default();

    // The algorithm's answer, as `split_boundaries` (null = no split).
    let chosen: Result<Option<Vec<i64>>, BundleError> = match algorithm {
        SplitAlgorithm::RangeEquallyDivide => Ok(Some(vec![range_equally_divide(target)])),
        SplitAlgorithm::TopicCountEquallyDivide => {
            let mut hashes = topic_hashes.clone();
            Ok(topic_count_equally_divide(&mut hashes).map(|b| vec![b]))
        }
        SplitAlgorithm::SpecifiedPositionsDivide
        | SplitAlgorithm::SpecifiedPositionsDivideForce => {
            let mut positions = ints(&row["positions"]);
            let force = algorithm == SplitAlgorithm::SpecifiedPositionsDivideForce;
            specified_positions_divide(target, &mut positions, topic_hashes.len(), force)
                .map(|p| p.map(<[i64]>::to_vec))
        }
        SplitAlgorithm::FlowOrQpsEquallyDivide => {
            let args = ints(&row["flow_args"]);
            let limits = FlowLimits {
                max_msg_rate: args[0] as i32,
                max_bandwidth_mbytes: args[1] as i32,
                threshold_percent: args[2] as i32,
            };
            let mut loads: Vec<TopicLoad> = row["topic_stats"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&topic_hashes)
                .filter_map(|(stats, &hash)| {
                    let s = stats.as_array()?;
                    let f = |i: usize| s[i].as_f64().unwrap();
                    Some(TopicLoad {
                        hash,
                        msg_rate_in: f(0),
                        msg_rate_out: f(1),
                        msg_throughput_in: f(2),
                        msg_throughput_out: f(3),
                    })
                })
                .collect();
            let mut out = vec![0i64; loads.len()];
            flow_or_qps_equally_divide(topic_hashes.len(), &mut loads, limits, &mut out)
                .map(|p| p.map(<[i64]>::to_vec))
        }
    };

    let chosen = match chosen {
        Err(e) => {
            // Only the empty-positions check fails inside an algorithm.
            assert_eq!(e, BundleError::NoSplitPositions, "{row}");
            assert!(
                row.get("split_boundaries").is_none() && row.get("error").is_some(),
                "{row}"
            );
            return;
        }
        Ok(chosen) => chosen,
    };
    let expected: Option<Vec<i64>> = row
        .get("split_boundaries")
        .filter(|v| !v.is_null())
        .map(ints);
    assert_eq!(chosen, expected, "split boundaries of {row}");
    let Some(mut points) = chosen.filter(|p| !p.is_empty()) else {
        assert_eq!(text(row, "result"), "no_split", "{row}");
        return;
    };

    let mut out = vec![0u32; before.len() + points.len() + 1];
    match layout.split(target, &mut points, &mut out) {
        Ok(split) => {
            let after: Vec<String> = split.layout.boundaries().map(hex).collect();
            assert_eq!(after, strings(&row["boundaries_after"]), "{row}");
            let new: Vec<String> = split.new_bundles().map(|b| b.to_string()).collect();
            assert_eq!(new, strings(&row["new_bundles"]), "{row}");
        }
        Err(e) => assert_eq!(
            text(row, "error"),
            "java.lang.IllegalArgumentException",
            "{row}: {e}"
        ),
    }
}
