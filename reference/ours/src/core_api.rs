//! The answers of the core's public API (and the `owned` crate's growing
//! Key_Shared selectors, which only add storage to the core's).

use std::collections::BTreeMap;

use pulsar_routing::bundles::{
    BundleError, BundleLayout, BundleRange, FlowLimits, SplitAlgorithm, TopicLoad,
    boundary_from_i64, flow_or_qps_equally_divide, range_equally_divide,
    specified_positions_divide, topic_count_equally_divide,
};
use pulsar_routing::key_shared::{ExclusiveMode, HashRange, KeyHashRange};
use pulsar_routing::topic_name::{TopicName, TopicNameRules};
use pulsar_routing::{
    HashingScheme, PartitionCount, RoundRobinRouter, RoutingKey, SinglePartitionRouter, crc32,
    get_partition_index, java_string_hash_bytes, java_string_hash_utf16, murmur3_32, sign_safe_mod,
};
use pulsar_routing_owned::key_shared::{Error as SelectorError, Selector};
use serde_json::{Map, Value, json};

use crate::json::{self, Key};
use crate::{Answer, Answerer, Failure};

/// The core, with the topic-name rules to parse by (the core's default
/// unless `--topic-rules` says otherwise).
pub struct Core {
    pub rules: TopicNameRules,
}

impl Answerer for Core {
    fn answer(&mut self, op: &str, req: &Value) -> Answer {
        let rules = self.rules;
        match op {
            "hash" => hash(req),
            "sign_safe_mod" => signed_mod(req),
            "route" => route(req),
            "topic" => topic(req, rules),
            "partition_index" => Ok(fields(
                json!({"index": get_partition_index(json::str_of(req, "name")?)}),
            )),
            "bundles_default" => bundles_default(req),
            "topic_bundle" => topic_bundle(req, rules),
            "hash_bundle" => hash_bundle(req),
            "parse_bundle_range" => parse_bundle_range(req),
            "split" => split(req),
            "split_equal" => split_equal(req),
            "key_shared_hash" => key_shared_hash(req),
            "key_shared" => key_shared(req),
            _ => Err(Failure::Protocol(format!("unknown op {op}"))),
        }
    }
}

/// The fields of a `json!` object.
pub fn fields(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn hash(req: &Value) -> Answer {
    let (murmur, java) = match json::key(req)? {
        Key::Utf16(units) => (
            RoutingKey::KeyUtf16(&units).hash(HashingScheme::Murmur3_32Hash),
            java_string_hash_utf16(&units),
        ),
        Key::Bytes(bytes) => (Some(murmur3_32(&bytes)), java_string_hash_bytes(&bytes)),
        Key::None => return Err(Failure::Protocol("hash needs a key".into())),
    };
    Ok(fields(json!({"murmur3_32": murmur, "java_string": java})))
}

fn signed_mod(req: &Value) -> Answer {
    let result = sign_safe_mod(
        json::i64_of(req, "dividend")?,
        json::i32_of(req, "divisor")?,
    )
    .map_err(|e| Failure::of("DivisionByZero", &e))?;
    Ok(fields(json!({ "result": result })))
}

pub fn scheme(req: &Value) -> Result<HashingScheme, Failure> {
    match json::str_of(req, "scheme")? {
        "java_string" => Ok(HashingScheme::JavaStringHash),
        "murmur3_32" => Ok(HashingScheme::Murmur3_32Hash),
        other => Err(Failure::Protocol(format!("unknown scheme {other}"))),
    }
}

fn route(req: &Value) -> Answer {
    let scheme = scheme(req)?;
    let picks = json::i64_or(req, "picks", 1)?;
    let start = json::i32_of(req, "start_index")?;
    let n = PartitionCount::from_i64(json::i64_of(req, "num_partitions")?)
        .map_err(|e| Failure::of("PartitionCountError", &e))?;
    let key = json::key(req)?;
    let key = match &key {
        Key::None => RoutingKey::None,
        Key::Utf16(units) => RoutingKey::KeyUtf16(units),
        Key::Bytes(bytes) => RoutingKey::KeyBytes(bytes),
    };
    let mut partitions = Vec::new();
    match json::str_of(req, "router")? {
        "round_robin" => {
            let router = RoundRobinRouter::new(
                scheme,
                start,
                json::bool_of(req, "batching")?,
                json::i64_of(req, "partition_switch_ms")?,
            );
            let clock = json::i64_of(req, "clock_ms")?;
            for _ in 0..picks {
                partitions.push(router.choose_partition(key, n, clock));
            }
        }
        "single" => {
            let router = SinglePartitionRouter::new(scheme, start);
            for _ in 0..picks {
                let p = router
                    .choose_partition(key, n)
                    .map_err(|e| Failure::of("RouteError", &e))?;
                partitions.push(p);
            }
        }
        other => return Err(Failure::Protocol(format!("unknown router {other}"))),
    }
    Ok(fields(json!({ "partitions": partitions })))
}

fn topic(req: &Value, rules: TopicNameRules) -> Answer {
    let name = json::str_of(req, "name")?;
    let t = TopicName::parse_with(name, rules).map_err(|e| Failure::of("TopicNameError", &e))?;
    let mut m = fields(json!({
        "to_string": t.to_string(),
        "domain": t.domain().as_str(),
        "tenant": t.tenant(),
        "cluster": t.cluster(),
        "namespace_portion": t.namespace_portion(),
        "namespace": t.namespace().to_string(),
        "local_name": t.local_name(),
        "partition_index": t.partition_index(),
        "partitioned_topic_name": t.partitioned_topic_name().to_string(),
        "persistent": t.is_persistent(),
        "lookup_name": t.lookup_name().to_string(),
        "persistence_naming": t.persistence_naming().to_string(),
        "rest_path": t.rest_path().to_string(),
        "encoded_local_name": t.encoded_local_name().to_string(),
    }));
    match t.partition(3) {
        Ok(p) => {
            m.insert("partition_3".into(), p.to_string().into());
        }
        Err(e) => {
            m.insert(
                "partition_3_error".into(),
                Value::Object(Failure::of("TopicNameError", &e).fields()),
            );
        }
    }
    Ok(m)
}

fn bundle_failure(e: &BundleError) -> Failure {
    Failure::of("BundleError", e)
}

pub fn boundaries(req: &Value) -> Result<Vec<u32>, Failure> {
    json::i64_list(req, "boundaries")?
        .into_iter()
        .map(|b| boundary_from_i64(b).map_err(|e| bundle_failure(&e)))
        .collect()
}

fn layout(b: &[u32]) -> Result<BundleLayout<'_>, Failure> {
    BundleLayout::new(b).map_err(|e| bundle_failure(&e))
}

fn names(layout: &BundleLayout<'_>) -> Vec<String> {
    layout.bundles().map(|b| b.to_string()).collect()
}

fn bundles_default(req: &Value) -> Answer {
    let count = u32::try_from(json::i64_of(req, "num_bundles")?)
        .map_err(|_| bundle_failure(&BundleError::NoBundles))?;
    let layout = BundleLayout::default_for(count).map_err(|e| bundle_failure(&e))?;
    let boundaries: Vec<u32> = layout.boundaries().collect();
    Ok(fields(
        json!({"boundaries": boundaries, "names": names(&layout)}),
    ))
}

fn bundle_of_hash(layout: &BundleLayout<'_>, hash: u32) -> Result<String, Failure> {
    let index = layout
        .bundle_index_for_hash_java(hash)
        .map_err(|e| bundle_failure(&e))?;
    layout
        .bundle(index)
        .map(|b| b.to_string())
        .ok_or_else(|| Failure::Protocol("bundle index out of the layout".into()))
}

fn topic_bundle(req: &Value, rules: TopicNameRules) -> Answer {
    let t = TopicName::parse_with(json::str_of(req, "topic")?, rules)
        .map_err(|e| Failure::of("TopicNameError", &e))?;
    let b = boundaries(req)?;
    let layout = layout(&b)?;
    let hash = t.crc32();
    Ok(fields(
        json!({"crc32": hash, "bundle": bundle_of_hash(&layout, hash)?}),
    ))
}

fn hash_bundle(req: &Value) -> Answer {
    let hash = json::i64_of(req, "hash")?;
    let b = boundaries(req)?;
    let layout = layout(&b)?;
    // The hash is a Java long; only values of the hash space are asked.
    let hash = u32::try_from(hash).map_err(|_| Failure::Protocol("hash out of u32".into()))?;
    Ok(fields(json!({"bundle": bundle_of_hash(&layout, hash)?})))
}

fn parse_bundle_range(req: &Value) -> Answer {
    let r = BundleRange::parse(json::str_of(req, "range")?).map_err(|e| bundle_failure(&e))?;
    Ok(fields(json!({
        "lower": r.lower(),
        "upper": r.upper(),
        "upper_closed": r.upper_closed(),
        "bundle_range": r.to_string(),
    })))
}

/// The algorithm's split points (`None`: no split), as the broker's
/// `NamespaceBundleSplitAlgorithm` computes them.
pub fn split_points(
    algorithm: SplitAlgorithm,
    target: BundleRange,
    req: &Value,
) -> Result<Option<Vec<i64>>, Failure> {
    let topics = json::str_list_or_empty(req, "topics")?;
    let hashes: Vec<u32> = topics.iter().map(|t| crc32(t.as_bytes())).collect();
    Ok(match algorithm {
        SplitAlgorithm::RangeEquallyDivide => Some(vec![range_equally_divide(target)]),
        SplitAlgorithm::TopicCountEquallyDivide => {
            topic_count_equally_divide(&mut hashes.clone()).map(|b| vec![b])
        }
        SplitAlgorithm::SpecifiedPositionsDivide
        | SplitAlgorithm::SpecifiedPositionsDivideForce => {
            let mut positions = json::i64_list_or_empty(req, "positions")?;
            let force = algorithm == SplitAlgorithm::SpecifiedPositionsDivideForce;
            specified_positions_divide(target, &mut positions, hashes.len(), force)
                .map_err(|e| bundle_failure(&e))?
                .map(<[i64]>::to_vec)
        }
        SplitAlgorithm::FlowOrQpsEquallyDivide => {
            let args = json::i64_list(req, "flow_args")?;
            let arg = |i: usize| {
                args.get(i)
                    .and_then(|&a| i32::try_from(a).ok())
                    .ok_or_else(|| Failure::Protocol("flow_args: three ints".into()))
            };
            let limits = FlowLimits {
                max_msg_rate: arg(0)?,
                max_bandwidth_mbytes: arg(1)?,
                threshold_percent: arg(2)?,
            };
            let stats = req.get("topic_stats").and_then(Value::as_object);
            let mut loads = Vec::new();
            for (topic, &hash) in topics.iter().zip(&hashes) {
                let Some(s) = stats.and_then(|s| s.get(*topic)).and_then(Value::as_array) else {
                    continue;
                };
                let f = |i: usize| {
                    s.get(i)
                        .and_then(Value::as_f64)
                        .ok_or_else(|| Failure::Protocol("topic_stats: four numbers".into()))
                };
                loads.push(TopicLoad {
                    hash,
                    msg_rate_in: f(0)?,
                    msg_rate_out: f(1)?,
                    msg_throughput_in: f(2)?,
                    msg_throughput_out: f(3)?,
                });
            }
            let mut out = vec![0i64; loads.len()];
            flow_or_qps_equally_divide(hashes.len(), &mut loads, limits, &mut out)
                .map_err(|e| bundle_failure(&e))?
                .map(<[i64]>::to_vec)
        }
    })
}

fn split(req: &Value) -> Answer {
    let algorithm: SplitAlgorithm = json::str_of(req, "algorithm")?
        .parse()
        .map_err(|e| bundle_failure(&e))?;
    let b = boundaries(req)?;
    let layout = layout(&b)?;
    let target =
        BundleRange::parse(json::str_of(req, "target")?).map_err(|e| bundle_failure(&e))?;
    let points = split_points(algorithm, target, req)?;
    let after = match &points {
        Some(p) if !p.is_empty() => {
            let mut p = p.clone();
            let mut out = vec![0u32; b.len() + p.len() + 1];
            let split = layout
                .split(target, &mut p, &mut out)
                .map_err(|e| bundle_failure(&e))?;
            Some(split.layout.boundaries().collect::<Vec<u32>>())
        }
        _ => None,
    };
    Ok(fields(
        json!({"split_boundaries": points, "boundaries_after": after}),
    ))
}

fn split_equal(req: &Value) -> Answer {
    let b = boundaries(req)?;
    let layout = layout(&b)?;
    let target =
        BundleRange::parse(json::str_of(req, "target")?).map_err(|e| bundle_failure(&e))?;
    let parts = u32::try_from(json::i64_of(req, "parts")?)
        .map_err(|_| Failure::Protocol("parts: a non-negative int".into()))?;
    let mut out = vec![0u32; b.len() + parts as usize + 1];
    let split = layout
        .split_equally(target, parts, &mut out)
        .map_err(|e| bundle_failure(&e))?;
    let after: Vec<u32> = split.layout.boundaries().collect();
    Ok(fields(json!({ "boundaries_after": after })))
}

fn key_shared_hash(req: &Value) -> Answer {
    let key = json::hex_bytes(json::str_of(req, "key_hex")?, "key_hex")?;
    Ok(fields(json!({
        "slot_0_65535": KeyHashRange::AUTO_SPLIT.slot_of(&key),
        "slot_1_65535": KeyHashRange::CONSISTENT_HASHING.slot_of(&key),
        "slot_1_2147483646": KeyHashRange::CLASSIC_CONSISTENT_HASHING.slot_of(&key),
    })))
}

fn selector_failure(e: &SelectorError) -> Failure {
    match e {
        SelectorError::Assign(e) => Failure::of("AssignError", e),
        SelectorError::Config(e) => Failure::of("ConfigError", e),
        SelectorError::OutOfMemory => Failure::of("SelectorError", e),
    }
}

/// A step's consumer id: the broker's `long`, carried as our `u64`.
pub fn consumer_id(step: &Value) -> Result<u64, Failure> {
    step.get("consumer_id")
        .and_then(Value::as_u64)
        .ok_or_else(|| Failure::Protocol("step: consumer_id, a non-negative integer".into()))
}

/// A step's declared ranges, `None` for a consumer without `KeySharedMeta`.
pub fn step_ranges(step: &Value) -> Result<Option<Vec<HashRange>>, Failure> {
    match step.get("ranges") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => Ok(Some(
            json::ranges(v, "ranges")?
                .into_iter()
                .map(|(s, e)| HashRange::new(s, e))
                .collect(),
        )),
    }
}

/// `{"id": [[s, e], …]}` from `(consumer, range)` pairs in slot order.
pub fn ranges_by_consumer(pairs: impl IntoIterator<Item = (u64, HashRange)>) -> Value {
    let mut by: BTreeMap<u64, Vec<[i32; 2]>> = BTreeMap::new();
    for (consumer, r) in pairs {
        by.entry(consumer).or_default().push([r.start, r.end]);
    }
    let m: Map<String, Value> = by
        .into_iter()
        .map(|(c, rs)| (c.to_string(), json!(rs)))
        .collect();
    Value::Object(m)
}

fn new_selector(req: &Value) -> Result<Selector, Failure> {
    let sel = match json::str_of(req, "selector")? {
        "auto_split" => Selector::auto_split(json::i32_of(req, "range_size")?),
        "consistent_hashing" => {
            let points = u32::try_from(json::i64_of(req, "points")?)
                .map_err(|_| Failure::Protocol("points: a non-negative int".into()))?;
            let max = u32::try_from(json::i64_of(req, "range_max")?)
                .map_err(|_| Failure::Protocol("range_max: a non-negative int".into()))?;
            Selector::consistent_hashing(points, max)
        }
        // 4.2.4 has PR #24730's rules.
        "exclusive" => Selector::exclusive(ExclusiveMode::Current),
        other => return Err(Failure::Protocol(format!("unknown selector {other}"))),
    };
    sel.map_err(|e| selector_failure(&e))
}

fn key_shared(req: &Value) -> Answer {
    let mut sel = new_selector(req)?;
    let mut out = Vec::new();
    for step in json::array(req, "steps")? {
        let answer = match step.get("op").and_then(Value::as_str) {
            Some("add") => {
                let id = consumer_id(step)?;
                let name = step.get("name").and_then(Value::as_str).unwrap_or("");
                let ranges = step_ranges(step)?;
                match sel.add(id, name.as_bytes(), ranges.as_deref()) {
                    Ok(_) => step_ok(&sel),
                    Err(e) => step_err(&selector_failure(&e)),
                }
            }
            Some("remove") => {
                sel.remove(consumer_id(step)?);
                step_ok(&sel)
            }
            Some("select") => {
                let hash = step
                    .get("hash")
                    .and_then(Value::as_i64)
                    .and_then(|h| u32::try_from(h).ok())
                    .ok_or_else(|| Failure::Protocol("select: hash, a u32".into()))?;
                json!({ "consumer_id": sel.select(hash) })
            }
            _ => return Err(Failure::Protocol("step: unknown op".into())),
        };
        out.push(answer);
    }
    Ok(fields(json!({ "steps": out })))
}

fn step_ok(sel: &Selector) -> Value {
    let pairs = sel.consumer_ranges().map(|a| (a.consumer, a.range));
    json!({"ok": true, "ranges_by_consumer": ranges_by_consumer(pairs)})
}

pub fn step_err(f: &Failure) -> Value {
    let mut m = f.fields();
    m.insert("ok".into(), false.into());
    Value::Object(m)
}
