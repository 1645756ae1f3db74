//! The conformance scenarios (testdata/conformance/README.md) through the
//! Rust API: every scenario of the committed files, or of the files in
//! `CONFORMANCE_FILES` (separated by spaces). Prints one line per
//! disagreement and `conformance rust: N/M scenarios agree`.

use std::collections::HashMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};

use pulsar_routing::batch::{KeyOffsets, partitions_for_keys};
use pulsar_routing::bundles::{
    BoundErrorKind, BundleError, BundleLayout, BundleRange, FlowLimits, SplitAlgorithm, TopicLoad,
    default_boundaries, flow_or_qps_equally_divide, parse_boundary, range_equally_divide,
    specified_positions_divide, topic_count_equally_divide, validate_full_range,
};
use pulsar_routing::kafka::{
    Availability, BuiltInPartitioner, JavaClientPartitioner, KafkaError, LibrdkafkaPartitioner,
    LibrdkafkaProducer, RdRandom, StickyChoice, UnknownLibrdkafkaPartitioner, fnv1a, murmur2,
    to_positive,
};
use pulsar_routing::key_shared::{
    AssignError, AutoSplitConfig, AutoSplitSelector, ConfigError, ConsistentHashingConfig,
    ConsistentHashingSelector, ExclusiveConfig, ExclusiveMode, ExclusiveSelector, HashRange,
    Impact, KeyHashRange, KeySharedPolicyError, MessageKeys, SelectorKind, StickyKey,
    UnknownSelectorKind, ring_point, validate_sticky_ranges,
};
use pulsar_routing::lookup::{
    AttemptError, Hop, InFlightLookup, Joined, LookupAction, LookupCoalescer, LookupError,
    LookupKey, LookupOptions, LookupProfile, LookupResponse, LookupThrottle, MetadataAction,
    MetadataKey, MetadataOptions, PartitionedMetadataLookup, PartitionedMetadataResponse,
    ServerError, TopicLookup,
};
use pulsar_routing::profiles::{
    BoostHashGeneration, CharSignedness, ClientHashingScheme, ClientProfile, KeyHash,
    ProfileConfig, ProfileConfigError, ProfileKey, ProfileKeying, ProfileMessage, ProfileMode,
    ProfileRouteError, ProfileRouter, ProfileSeed, UnknownClientProfile, cpp_partition_index,
    cpp_partitioned_producer_check, go_partition_index,
};
use pulsar_routing::sender::{
    ConnectionEvent, Jitter, NodeId, NodeState, PendingQueue, ProduceOutcome, QueueFull, Readiness,
    SenderConfig, SenderConfigError, SenderError, SenderGate, check_nodes,
    required_max_pending_messages,
};
use pulsar_routing::{
    CustomRouter, DivisionByZero, HashingScheme, MessageRoutingMode, PartitionCount,
    PartitionCountError, RoundRobinRouter, RouteError, RoutingConfigError, RoutingKey,
    SinglePartitionRouter, TopicName, TopicNameError, TopicNameRules, check_partition, crc32,
    get_partition_index, java_string_hash, java_string_hash_bytes, java_string_hashcode,
    murmur3_32, murmur3_32_raw, partition_for_key, partition_for_key_bytes, partition_switch_ms,
    resolve_routing_mode, sign_safe_mod,
};
use pulsar_routing_owned::key_counts::{KeyCounts, KeyCountsError};
use pulsar_routing_owned::lookup::{OwnedLookupAction, OwnedMetadataAction};
use serde_json::{Map, Value, json};

/// A failed call: the error's kind (the C status name, lowercased) and
/// its message.
struct Failure {
    kind: &'static str,
    message: String,
}

/// What is wrong with a step (a disagreement, or a scenario the runner
/// cannot read).
struct Disagreement(String);

type Outcome = Result<Value, Failure>;

fn failure(kind: &'static str, error: impl Display) -> Failure {
    Failure {
        kind,
        message: error.to_string(),
    }
}

/// The kind of each core error, as the C ABI names its status.
trait Kind: Display {
    fn kind(&self) -> &'static str;
    fn fail(&self) -> Failure {
        failure(self.kind(), self)
    }
}

/// The kind of each variant; anything else is "?", which no scenario names.
macro_rules! kinds {
    ($($error:ty { $($variant:pat => $kind:literal,)* })*) => {
        $(impl Kind for $error {
            fn kind(&self) -> &'static str {
                #[allow(unreachable_patterns)]
                match self {
                    $($variant => $kind,)*
                    _ => "?",
                }
            }
        })*
    };
}

kinds! {
    PartitionCountError {
        Self::Zero => "partition_count_zero",
        Self::Negative => "partition_count_negative",
        Self::TooLarge => "partition_count_too_large",
    }
    RouteError {
        Self::IllegalPartitionIndex(_) => "illegal_partition_index",
    }
    RoutingConfigError {
        Self::CustomModeWithoutRouter => "custom_mode_without_router",
        Self::RouterWithoutCustomMode => "router_without_custom_mode",
        Self::SwitchFrequencyTooSmall => "switch_frequency_too_small",
        Self::BatchDelayTooSmall => "batch_delay_too_small",
    }
    TopicNameError<'_> {
        Self::InvalidShortName { .. } => "topic_name_invalid_short_name",
        Self::InvalidDomain { .. } => "topic_name_invalid_domain",
        Self::InvalidNamespaceFormat { .. } => "topic_name_invalid_namespace_format",
        Self::InvalidNamedEntity { .. } => "topic_name_invalid_named_entity",
        Self::BlankLocalName { .. } => "topic_name_blank_local_name",
        Self::InvalidTopicName { .. } => "topic_name_invalid",
        Self::V1NameUnsupported { .. } => "topic_name_v1_unsupported",
        Self::SegmentWithoutDescriptor { .. } => "topic_name_segment_without_descriptor",
        Self::InvalidSegmentDescriptor { .. } => "topic_name_invalid_segment_descriptor",
    }
    BundleError {
        Self::NoBundles => "no_bundles",
        Self::NoBoundaries => "no_boundaries",
        Self::TooFewBoundaries => "too_few_boundaries",
        Self::BoundariesNotSorted => "boundaries_not_sorted",
        Self::BoundaryOutOfRange(_) => "boundary_out_of_range",
        Self::UpperEndpointNotExclusive => "upper_endpoint_not_exclusive",
        Self::EmptyRange => "empty_range",
        Self::InvalidRange { .. } => "invalid_range",
        Self::NoBundleForHash(_) => "no_bundle_for_hash",
        Self::InvalidBundleRange => "invalid_bundle_range",
        Self::MissingLowerBound => "missing_lower_bound",
        Self::MissingUpperBound => "missing_upper_bound",
        Self::InvalidBound(BoundErrorKind::Empty) => "bound_empty",
        Self::InvalidBound(BoundErrorKind::SignInWrongPosition) => "bound_sign_in_wrong_position",
        Self::InvalidBound(BoundErrorKind::NotALong) => "bound_not_a_long",
        Self::BundleNotFound => "bundle_not_found",
        Self::InvalidUpperBoundary => "invalid_upper_boundary",
        Self::CannotSplitFurther(_) => "cannot_split_further",
        Self::SplitBoundaryOutsideBundle(_) => "split_boundary_outside_bundle",
        Self::NoSplitPositions => "no_split_positions",
        Self::ZeroSplitParts => "zero_split_parts",
        Self::NotFullRange => "not_full_range",
    }
    ConfigError {
        Self::RangeSizeTooSmall => "range_size_too_small",
        Self::RangeSizeNotPowerOfTwo => "range_size_not_power_of_two",
        Self::RangeEndBeforeStart => "range_end_before_start",
        Self::KeyHashRangeTooLarge => "key_hash_range_too_large",
    }
    AssignError {
        Self::NoMoreRange { .. } => "no_more_range",
        Self::EmptyRanges => "empty_hash_ranges",
        Self::StartAfterEnd { .. } => "hash_range_start_after_end",
        Self::LegacyStartAfterEnd => "legacy_hash_range_start_after_end",
        Self::OwnRangesConflict { .. } => "own_hash_ranges_conflict",
        Self::RangeConflict { .. } => "hash_range_conflict",
        Self::DuplicateConsumer { .. } => "duplicate_consumer",
    }
    KeySharedPolicyError {
        Self::RangeEndBeforeStart => "sticky_range_end_before_start",
        Self::EmptyRanges => "sticky_ranges_empty",
        Self::OutOfBounds { .. } => "sticky_range_out_of_bounds",
        Self::Overlap { .. } => "sticky_ranges_overlap",
    }
    ProfileRouteError {
        Self::BoostHashNotReproducible => "boost_hash_not_reproducible",
        Self::BytesKeyUnsupported(_) => "profile_bytes_key_unsupported",
        Self::IllegalPartition { .. } => "profile_illegal_partition",
    }
    KafkaError {
        Self::InvalidStickyBatchSize(_) => "kafka_invalid_sticky_batch_size",
        Self::LoadStatsShape { .. } => "kafka_load_stats_shape",
        Self::CorruptLoadStats(_) => "kafka_corrupt_load_stats",
        Self::PartitionOutOfRange { .. } => "kafka_partition_out_of_range",
        Self::UnknownPartition(_) => "librdkafka_unknown_partition",
        Self::StickyPartitionUnassigned => "librdkafka_sticky_partition_unassigned",
        Self::StickyLingerOutOfRange(_) => "librdkafka_sticky_linger_out_of_range",
    }
    SenderConfigError {
        Self::MaxInFlightTooSmall(_) => "sender_max_in_flight_too_small",
        Self::MaxInFlightTooLargeForIdempotence(_) => "sender_max_in_flight_too_large_for_idempotence",
    }
    SenderError {
        Self::UnknownNode(_) => "sender_unknown_node",
        Self::DuplicateNode(_) => "sender_duplicate_node",
        Self::NotReady(_) => "sender_not_ready",
        Self::NoRequestInFlight(_) => "sender_no_request_in_flight",
        Self::InvalidTransition { .. } => "sender_invalid_transition",
    }
    QueueFull {
        Self::WouldBlock => "producer_queue_would_block",
        Self::WouldFail => "producer_queue_is_full",
    }
    AttemptError {
        Self::TooManyRequests { .. } => "lookup_too_many_requests",
    }
    KeyCountsError {
        Self::InvalidWeight { .. } => "key_counts_invalid_weight",
        Self::WeightsLength { .. } => "key_counts_weights_length",
        Self::TooManyKeys => "key_counts_too_many_keys",
        Self::OutputLength => "key_counts_output_length",
    }
}

/// Errors of one kind only.
macro_rules! one_kind {
    ($($error:ty => $kind:literal),* $(,)?) => {
        $(impl Kind for $error {
            fn kind(&self) -> &'static str {
                $kind
            }
        })*
    };
}

one_kind! {
    DivisionByZero => "division_by_zero",
    UnknownSelectorKind => "unknown_selector_kind",
    UnknownLibrdkafkaPartitioner => "unknown_librdkafka_partitioner",
    UnknownClientProfile => "unknown_client_profile",
}

impl Kind for ProfileConfigError {
    fn kind(&self) -> &'static str {
        match self {
            Self::UnsupportedScheme {
                profile: ClientProfile::Python,
                ..
            } => "python_scheme_not_selectable",
            Self::Java(e) => e.kind(),
            _ => "profile_scheme_unsupported",
        }
    }
}

fn fail<E: Kind>(e: E) -> Failure {
    e.fail()
}

// ---- arguments -----------------------------------------------------------

type Args = Map<String, Value>;

fn arg<'s>(a: &'s Args, name: &str) -> Option<&'s Value> {
    a.get(name).filter(|v| !v.is_null())
}

/// An integer, as a JSON number or (beyond 2^53) a decimal string.
fn integer(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn int(a: &Args, name: &str, default: i128) -> i128 {
    arg(a, name).and_then(integer).unwrap_or(default)
}

fn opt_int(a: &Args, name: &str) -> Option<i128> {
    arg(a, name).and_then(integer)
}

fn flag(a: &Args, name: &str, default: bool) -> bool {
    arg(a, name).and_then(Value::as_bool).unwrap_or(default)
}

fn text<'s>(a: &'s Args, name: &str, default: &'s str) -> &'s str {
    arg(a, name).and_then(Value::as_str).unwrap_or(default)
}

/// Text as its UTF-8 bytes, `{"hex": ...}` as its bytes; null is `None`.
fn bytes(v: Option<&Value>) -> Option<Vec<u8>> {
    match v? {
        Value::String(s) => Some(s.as_bytes().to_vec()),
        Value::Object(o) => {
            let hex = o.get("hex")?.as_str()?;
            (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
                .collect()
        }
        _ => None,
    }
}

fn data(a: &Args, name: &str) -> Vec<u8> {
    bytes(arg(a, name)).unwrap_or_default()
}

fn count(a: &Args, name: &str) -> Result<PartitionCount, Failure> {
    let n = int(a, name, 0);
    PartitionCount::from_i64(i64::try_from(n).unwrap_or(i64::MAX)).map_err(fail)
}

fn scheme(a: &Args) -> Result<HashingScheme, Failure> {
    text(a, "scheme", "java_string")
        .parse::<HashingScheme>()
        .map_err(|e| failure("unknown_hashing_scheme", e))
}

/// The scenario's topic-name rules, or the core's default.
fn rules(a: &Args) -> Result<TopicNameRules, Failure> {
    match arg(a, "rules").and_then(Value::as_str) {
        None => Ok(TopicNameRules::default()),
        Some(name) => name
            .parse::<TopicNameRules>()
            .map_err(|e| failure("unknown_topic_name_rules", e)),
    }
}

/// A routing key: text is `key()`, `{"hex": ...}` is `keyBytes()`.
enum Key {
    None,
    Text(String),
    Bytes(Vec<u8>),
}

impl Key {
    fn of(v: Option<&Value>) -> Self {
        match v {
            Some(Value::String(s)) => Self::Text(s.clone()),
            Some(v @ Value::Object(_)) => Self::Bytes(bytes(Some(v)).unwrap_or_default()),
            _ => Self::None,
        }
    }

    fn routing(&self) -> RoutingKey<'_> {
        match self {
            Self::None => RoutingKey::None,
            Self::Text(s) => RoutingKey::Key(s),
            Self::Bytes(b) => RoutingKey::KeyBytes(b),
        }
    }

    fn profile(&self) -> ProfileKey<'_> {
        match self {
            Self::None => ProfileKey::None,
            Self::Text(s) => ProfileKey::Str(s),
            Self::Bytes(b) => ProfileKey::Bytes(b),
        }
    }

    fn serialized(&self) -> Option<&[u8]> {
        match self {
            Self::None => None,
            Self::Text(s) => Some(s.as_bytes()),
            Self::Bytes(b) => Some(b),
        }
    }
}

fn num(x: impl Into<i128>) -> Value {
    let x: i128 = x.into();
    if x.unsigned_abs() <= 1 << 53 {
        json!(x as i64)
    } else {
        json!(x.to_string())
    }
}

fn opt_num(x: Option<impl Into<i128>>) -> Value {
    x.map_or(Value::Null, num)
}

// ---- objects ------------------------------------------------------------------

/// The state behind a named object of a scenario; `'s` is the scenario's
/// lifetime, which borrowed names (topics, coalescing keys) live for.
enum Obj<'s> {
    RoundRobin(RoundRobinRouter),
    Single(SinglePartitionRouter),
    Custom(i64),
    Profile(ProfileRouter),
    BuiltIn(BuiltInPartitioner),
    JavaClient(JavaClientPartitioner),
    Librdkafka(LibrdkafkaProducer),
    Topic(TopicName<'s>),
    Bundles(Vec<u32>),
    AutoSplit(AutoSplitSelector<Vec<u32>>),
    Consistent(ConsistentHashingSelector<Vec<u32>>),
    Exclusive(ExclusiveSelector<Vec<u32>>),
    Lookup(Box<TopicLookup<Vec<Hop>>>),
    Metadata(Box<PartitionedMetadataLookup>),
    Coalescer(LookupCoalescer<LookupKey<'s>, Vec<Option<InFlightLookup<LookupKey<'s>>>>>),
    MetadataCoalescer(
        LookupCoalescer<MetadataKey<'s>, Vec<Option<InFlightLookup<MetadataKey<'s>>>>>,
    ),
    Throttle(LookupThrottle),
    Gate(SenderGate, Vec<NodeState>),
    Queue(PendingQueue),
    KeyCounts(KeyCounts),
    Nothing,
}

const MAX_CONSUMERS: u32 = 64;

fn profile_config(a: &Args) -> Result<(ClientProfile, ProfileConfig), Failure> {
    let profile: ClientProfile = text(a, "profile", "java").parse().map_err(fail)?;
    let mut config = ProfileConfig::client_default(profile);
    if let Some(s) = arg(a, "scheme").and_then(Value::as_str) {
        let s: ClientHashingScheme = s
            .parse()
            .map_err(|e| failure("unknown_client_hashing_scheme", e))?;
        config = config.with_scheme(s);
    }
    if let Some(m) = arg(a, "mode").and_then(Value::as_str) {
        let m: ProfileMode = m.parse().map_err(|e| failure("unknown_profile_mode", e))?;
        config = config.with_mode(m);
    }
    if flag(a, "unsigned_char", false) {
        config.char_signedness = CharSignedness::Unsigned;
    }
    if flag(a, "boost_1_74_x86_64", false) {
        config.boost = Some(BoostHashGeneration::Boost1_62);
    }
    if let Some(b) = arg(a, "batching").and_then(Value::as_bool) {
        config = config.with_batching_enabled(b);
    }
    Ok((profile, config))
}

fn sender_config(a: &Args) -> Result<SenderConfig, Failure> {
    let max_in_flight = int(a, "max_in_flight", 5) as i64;
    Ok(
        SenderConfig::new(max_in_flight, flag(a, "enable_idempotence", true))
            .map_err(fail)?
            .with_reconnect_backoff(
                int(a, "reconnect_backoff_ms", 50) as u64,
                int(a, "reconnect_backoff_max_ms", 1000) as u64,
            )
            .with_metadata_max_age(int(a, "metadata_max_age_ms", 300_000) as u64),
    )
}

fn selector_storage(words: Result<usize, ConfigError>) -> Result<Vec<u32>, Failure> {
    Ok(vec![0; words.map_err(fail)?])
}

fn construct<'s>(kind: &str, a: &'s Args) -> Result<Obj<'s>, Failure> {
    Ok(match kind {
        "RoundRobinRouter" => Obj::RoundRobin(RoundRobinRouter::new(
            scheme(a)?,
            int(a, "start_partition_index", 0) as i32,
            flag(a, "batching", true),
            int(a, "partition_switch_ms", 10) as i64,
        )),
        "SinglePartitionRouter" => Obj::Single(SinglePartitionRouter::new(
            scheme(a)?,
            int(a, "partition_index", 0) as i32,
        )),
        "CustomRouter" => Obj::Custom(int(a, "returns", 0) as i64),
        "ProfileRouter" => {
            let (profile, config) = profile_config(a)?;
            let seed = ProfileSeed {
                start: int(a, "start", 0) as u32,
                created_ns: int(a, "created_ns", 0) as i64,
            };
            Obj::Profile(ProfileRouter::new(profile, &config, seed).map_err(fail)?)
        }
        "KafkaBuiltInPartitioner" => Obj::BuiltIn(
            BuiltInPartitioner::new(int(a, "sticky_batch_size", 0) as i32).map_err(fail)?,
        ),
        "KafkaJavaClientPartitioner" => Obj::JavaClient(JavaClientPartitioner::new(
            int(a, "batch_size", 16384) as i32,
            flag(a, "ignore_keys", false),
        )),
        "LibrdkafkaProducer" => {
            let p: LibrdkafkaPartitioner = text(a, "partitioner", "consistent_random")
                .parse()
                .map_err(fail)?;
            Obj::Librdkafka(
                LibrdkafkaProducer::new(p, int(a, "sticky_linger_ms", 10) as i64).map_err(fail)?,
            )
        }
        "TopicName" => {
            Obj::Topic(TopicName::parse_with(text(a, "name", ""), rules(a)?).map_err(fail)?)
        }
        "NamespaceBundles" => {
            let boundaries = match arg(a, "boundaries").and_then(Value::as_array) {
                Some(list) => list
                    .iter()
                    .map(|b| integer(b).unwrap_or(-1) as u32)
                    .collect(),
                None => {
                    let n = int(a, "num_bundles", 4) as u32;
                    let mut out = vec![0; n as usize + 1];
                    default_boundaries(n, &mut out).map_err(fail)?.to_vec()
                }
            };
            BundleLayout::new(&boundaries).map_err(fail)?;
            Obj::Bundles(boundaries)
        }
        "AutoSplitSelector" => {
            let config =
                AutoSplitConfig::new(MAX_CONSUMERS)
                    .with_range_size(int(a, "range_size", 65536) as i32);
            let storage = selector_storage(config.storage_words())?;
            Obj::AutoSplit(AutoSplitSelector::new(config, storage).map_err(fail)?)
        }
        "ConsistentHashingSelector" => {
            let config = ConsistentHashingConfig::new(MAX_CONSUMERS)
                .with_points(int(a, "points", 100) as u32)
                .with_range_max(int(a, "range_max", 65535) as u32)
                .with_name_bytes(4096);
            let storage = selector_storage(config.storage_words())?;
            Obj::Consistent(ConsistentHashingSelector::new(config, storage).map_err(fail)?)
        }
        "ExclusiveSelector" => {
            let mode = if flag(a, "legacy", false) {
                ExclusiveMode::LegacyPre24730
            } else {
                ExclusiveMode::Current
            };
            let config = ExclusiveConfig::new(MAX_CONSUMERS, 1024).with_mode(mode);
            let storage = selector_storage(config.storage_words())?;
            Obj::Exclusive(ExclusiveSelector::new(config, storage).map_err(fail)?)
        }
        "TopicLookup" => {
            let profile = LookupProfile::from_name(text(a, "profile", "java"))
                .ok_or_else(|| failure("unknown_lookup_profile", "unknown lookup profile"))?;
            let options = LookupOptions {
                use_tls: flag(a, "use_tls", false),
                max_redirects: int(a, "max_redirects", 20) as u32,
                profile,
                operation_timeout_ms: int(a, "operation_timeout_ms", 30_000) as u64,
                lookup_timeout_ms: opt_int(a, "lookup_timeout_ms").map(|x| x as u64),
                retry: flag(a, "retry", true),
                detect_redirect_loops: flag(a, "detect_redirect_loops", false),
                jitter_seed: int(a, "jitter_seed", 0) as u64,
            };
            let chain = vec![Hop::EMPTY; 21];
            Obj::Lookup(Box::new(
                TopicLookup::new(text(a, "service_address", ""), options, chain)
                    .map_err(|e| failure("lookup_address_too_long", e))?,
            ))
        }
        "PartitionedMetadataLookup" => {
            let options = MetadataOptions {
                operation_timeout_ms: int(a, "operation_timeout_ms", 30_000) as u64,
                lookup_timeout_ms: opt_int(a, "lookup_timeout_ms").map(|x| x as u64),
                metadata_auto_creation: flag(a, "metadata_auto_creation", true),
                use_fallback_for_non_pip344: flag(a, "use_fallback_for_non_pip344", false),
                jitter_seed: int(a, "jitter_seed", 0) as u64,
            };
            Obj::Metadata(Box::new(
                PartitionedMetadataLookup::new(text(a, "service_address", ""), options)
                    .map_err(|e| failure("lookup_address_too_long", e))?,
            ))
        }
        "LookupCoalescer" => Obj::Coalescer(LookupCoalescer::new(
            std::iter::repeat_with(|| None)
                .take(int(a, "capacity", 1024) as usize)
                .collect(),
        )),
        "MetadataCoalescer" => Obj::MetadataCoalescer(LookupCoalescer::new(
            std::iter::repeat_with(|| None)
                .take(int(a, "capacity", 1024) as usize)
                .collect(),
        )),
        "LookupThrottle" => Obj::Throttle(LookupThrottle::new(
            int(a, "concurrent_lookup_requests", 5000) as u32,
            int(a, "max_lookup_requests", 50000) as u32,
        )),
        "SenderConfig" => {
            sender_config(a)?;
            Obj::Nothing
        }
        "SenderGate" => {
            let nodes: Vec<NodeState> = arg(a, "nodes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|n| NodeState::new(NodeId(integer(n).unwrap_or(-1) as i32)))
                .collect();
            check_nodes(&nodes).map_err(fail)?;
            Obj::Gate(SenderGate::new(sender_config(a)?), nodes)
        }
        "PendingQueue" => Obj::Queue(
            PendingQueue::new(
                int(a, "max_pending_messages", 0) as i64,
                flag(a, "block_if_queue_full", false),
            )
            .map_err(|e| failure("max_pending_messages_negative", e))?,
        ),
        "KeyCounts" => Obj::KeyCounts(KeyCounts::new()),
        _ => return Err(failure("unknown", format!("unknown type {kind}"))),
    })
}

// ---- results -------------------------------------------------------------------

fn topic_fields(t: &TopicName<'_>) -> Value {
    json!({
        "str": t.to_string(),
        "domain": t.domain().as_str(),
        "tenant": t.tenant(),
        "cluster": t.cluster(),
        "namespace_portion": t.namespace_portion(),
        "namespace": t.namespace().to_string(),
        "local_name": t.local_name(),
        "partition_index": t.partition_index(),
        "partitioned_topic_name": t.partitioned_topic_name().to_string(),
        "lookup_name": t.lookup_name().to_string(),
        "persistence_naming": t.persistence_naming().to_string(),
        "rest_path": t.rest_path().to_string(),
        "encoded_local_name": t.encoded_local_name().to_string(),
        "crc32": t.crc32(),
    })
}

fn ranges(pairs: impl Iterator<Item = (u64, HashRange)>) -> Value {
    let mut map = Map::new();
    for (consumer, range) in pairs {
        let list = map.entry(consumer.to_string()).or_insert_with(|| json!([]));
        if let Value::Array(list) = list {
            list.push(json!([range.start, range.end]));
        }
    }
    Value::Object(map)
}

fn impact(i: &Impact<'_>) -> Value {
    json!({"removed": ranges(i.removed()), "added": ranges(i.added())})
}

/// The exclusive selector reports no impact in the core (issue 13).
fn bundle_names(ranges: impl Iterator<Item = BundleRange>) -> Value {
    Value::Array(ranges.map(|r| json!(r.to_string())).collect())
}

fn readiness(r: &Readiness) -> Value {
    json!({
        "node": r.node.0,
        "reason": r.reason.name(),
        "is_ready": r.is_ready(),
        "state": r.state.name(),
        "in_flight": r.in_flight,
        "max_in_flight": r.max_in_flight,
        "backoff_remaining_ms": r.backoff_remaining_ms,
    })
}

/// An action's error kind, as the README names them, by the attempt
/// error's variant.
const ATTEMPT_KINDS: [(&str, &str); 11] = [
    ("Server", "server_error"),
    ("EmptyResponse", "empty_response"),
    ("MissingBrokerUrl", "missing_broker_url"),
    ("TooManyRedirects", "too_many_redirects"),
    ("GoRedirectLimit", "go_redirect_limit"),
    ("RedirectLoop", "redirect_loop"),
    ("AddressTooLong", "address_too_long"),
    ("ConnectionFailed", "connection_failed"),
    ("RequestTimeout", "request_timeout"),
    ("TooManyRequests", "too_many_requests"),
    ("FeatureNotSupported", "feature_not_supported"),
];

fn attempt_kind(e: AttemptError) -> &'static str {
    let debug = format!("{e:?}");
    let variant = debug.split(['(', ' ', '{']).next().unwrap_or("");
    ATTEMPT_KINDS
        .iter()
        .find(|(name, _)| *name == variant)
        .map_or("?", |(_, kind)| kind)
}

fn failed(e: LookupError) -> Value {
    let kind = match e {
        LookupError::Attempt(a) => attempt_kind(a),
        _ => "deadline_exceeded",
    };
    json!({"kind": "failed", "error_kind": kind, "error": e.to_string()})
}

fn retry_at(at_ms: u64, delay_ms: u64, cause: AttemptError, attempt: u32) -> Value {
    let mut out = failed(LookupError::Attempt(cause));
    out["kind"] = json!("retry_at");
    (out["at_ms"], out["delay_ms"], out["attempt"]) =
        (json!(at_ms), json!(delay_ms), json!(attempt));
    out
}

fn action(a: LookupAction<'_>) -> Value {
    let mut out = json!({"kind": "ignored", "error_kind": null, "error": null});
    match a {
        LookupAction::SendLookup(s) => {
            out["kind"] = json!("send_lookup");
            out["logical_address"] = json!(s.logical_address);
            out["physical_address"] = json!(s.physical_address);
            out["authoritative"] = json!(s.authoritative);
            out["redirects"] = json!(s.redirects);
            out["attempt"] = json!(s.attempt);
        }
        LookupAction::RetryAt {
            at_ms,
            delay_ms,
            cause,
            attempt,
        } => return retry_at(at_ms, delay_ms, cause, attempt),
        LookupAction::Done(d) => {
            out["kind"] = json!("done");
            out["logical_address"] = json!(d.logical_address);
            out["physical_address"] = json!(d.physical_address);
            out["use_proxy"] = json!(d.use_proxy);
            out["authoritative"] = json!(d.authoritative);
            out["redirects"] = json!(d.redirects);
            out["attempt"] = json!(d.attempts);
        }
        LookupAction::Failed(e) => return failed(e),
        LookupAction::Ignored(_) => {}
    }
    out
}

fn metadata_action(a: MetadataAction<'_>) -> Value {
    let mut out = json!({"kind": "ignored", "error_kind": null, "error": null});
    match a {
        MetadataAction::Connect { address, attempt } => {
            out["kind"] = json!("connect");
            out["physical_address"] = json!(address);
            out["attempt"] = json!(attempt);
        }
        MetadataAction::SendPartitionedMetadata { attempt, .. } => {
            out["kind"] = json!("send_partitioned_metadata");
            out["attempt"] = json!(attempt);
        }
        MetadataAction::RetryAt {
            at_ms,
            delay_ms,
            cause,
            attempt,
        } => return retry_at(at_ms, delay_ms, cause, attempt),
        MetadataAction::Done(plan) => {
            out["kind"] = json!("done");
            out["partitions"] = json!(plan.partitions);
        }
        MetadataAction::Failed(e) => return failed(e),
        _ => {}
    }
    out
}

/// One step of a topic lookup through the owned action every binding
/// hands out, with its reason.
fn lookup_step<S: AsRef<[Hop]> + AsMut<[Hop]>>(
    lookup: &mut TopicLookup<S>,
    event: impl for<'a> FnOnce(&'a mut TopicLookup<S>) -> LookupAction<'a>,
) -> Value {
    let owned = OwnedLookupAction::drive(lookup, event);
    let mut out = action(owned.action());
    out["reason"] = json!(owned.explanation().reason());
    out
}

/// One step of a partitioned-metadata lookup, likewise.
fn metadata_step(
    metadata: &mut PartitionedMetadataLookup,
    event: impl for<'a> FnOnce(&'a mut PartitionedMetadataLookup) -> MetadataAction<'a>,
) -> Value {
    let owned = OwnedMetadataAction::drive(metadata, event);
    let mut out = metadata_action(owned.action());
    out["reason"] = json!(owned.explanation().reason());
    out
}

fn server_error(a: &Args) -> Result<Option<ServerError>, Failure> {
    match arg(a, "error").and_then(Value::as_str) {
        None => Ok(None),
        Some(name) => ServerError::from_name(name).map(Some).ok_or_else(|| {
            failure(
                "unknown_server_error",
                format!("unknown ServerError {name}"),
            )
        }),
    }
}

// ---- operations ------------------------------------------------------------

fn call_function(f: &str, a: &Args) -> Outcome {
    Ok(match f {
        "murmur3_32" => json!(murmur3_32(&data(a, "data"))),
        "murmur3_32_raw" => json!(murmur3_32_raw(&data(a, "data"))),
        "crc32" => json!(crc32(&data(a, "data"))),
        "java_string_hash" => json!(java_string_hash(text(a, "s", ""))),
        "java_string_hashcode" => json!(java_string_hashcode(text(a, "s", ""))),
        "java_string_hash_bytes" => json!(java_string_hash_bytes(&data(a, "data"))),
        "sign_safe_mod" => json!(
            sign_safe_mod(int(a, "dividend", 0) as i64, int(a, "divisor", 0) as i32)
                .map_err(fail)?
        ),
        "kafka_murmur2" => json!(murmur2(&data(a, "data"))),
        "kafka_to_positive" => json!(to_positive(int(a, "hash", 0) as u32)),
        "kafka_fnv1a" => json!(fnv1a(&data(a, "data"))),
        "partition_for_key" => {
            let scheme = scheme(a)?;
            json!(partition_for_key(
                text(a, "key", ""),
                count(a, "num_partitions")?,
                scheme
            ))
        }
        "partition_for_key_bytes" => {
            let scheme = scheme(a)?;
            json!(partition_for_key_bytes(
                &data(a, "key"),
                count(a, "num_partitions")?,
                scheme
            ))
        }
        "partitions_for_keys" => {
            let scheme = scheme(a)?;
            let n = count(a, "num_partitions")?;
            let mut data = Vec::new();
            let mut offsets = vec![0];
            for key in arg(a, "keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                data.extend_from_slice(key.as_str().unwrap_or_default().as_bytes());
                offsets.push(data.len());
            }
            let keys = KeyOffsets::new(&data, &offsets).map_err(|e| failure("batch", e))?;
            let mut out = vec![0; keys.len()];
            partitions_for_keys(keys, n, scheme, &mut out).map_err(|e| failure("batch", e))?;
            json!(out)
        }
        "check_partition" => {
            let n = count(a, "num_partitions")?;
            json!(check_partition(int(a, "partition", 0) as i64, n).map_err(fail)?)
        }
        "resolve_routing_mode" => {
            let mode = match arg(a, "mode").and_then(Value::as_str) {
                None => None,
                Some("RoundRobinPartition") => Some(MessageRoutingMode::RoundRobinPartition),
                Some("SinglePartition") => Some(MessageRoutingMode::SinglePartition),
                Some("CustomPartition") => Some(MessageRoutingMode::CustomPartition),
                Some(other) => {
                    return Err(failure("unknown_routing_mode", format!("unknown {other}")));
                }
            };
            let mode =
                resolve_routing_mode(mode, flag(a, "custom_router_set", false)).map_err(fail)?;
            json!(match mode {
                MessageRoutingMode::RoundRobinPartition => "RoundRobinPartition",
                MessageRoutingMode::SinglePartition => "SinglePartition",
                _ => "CustomPartition",
            })
        }
        "partition_switch_ms" => json!(
            partition_switch_ms(
                int(a, "frequency", 10) as i32,
                int(a, "max_publish_delay_us", 1000) as i64
            )
            .map_err(fail)?
        ),
        "profile_partition" | "profile_partitions" => {
            let (profile, config) = profile_config(a)?;
            let keying = ProfileKeying::new(profile, &config).map_err(fail)?;
            let n = count(a, "num_partitions")?;
            let route = |key: &Key| {
                let message = ProfileMessage {
                    key: key.profile(),
                    ordering_key: None,
                    payload_len: 0,
                };
                keying.partition(&message, n).map_err(fail)
            };
            if f == "profile_partition" {
                opt_num(route(&Key::of(arg(a, "key")))?)
            } else {
                let keys = arg(a, "keys").and_then(Value::as_array);
                let mut out = Vec::new();
                for k in keys.into_iter().flatten() {
                    out.push(route(&Key::of(Some(k)))?.map_or(json!(-1), |p| json!(p)));
                }
                Value::Array(out)
            }
        }
        "profile_key_hash" => {
            let hash: KeyHash = text(a, "hash", "")
                .parse()
                .map_err(|e| failure("unknown_profile_hash", e))?;
            json!(
                hash.hash_bytes(&data(a, "data"))
                    .map_err(|e| failure("boost_hash_not_reproducible", e))?
            )
        }
        "go_partition_index" => json!(
            go_partition_index(text(a, "topic", "")).map_err(|e| failure("go_atoi_syntax", e))?
        ),
        "cpp_partition_index" => json!(cpp_partition_index(text(a, "local_name", ""))),
        "cpp_partitioned_producer_check" => {
            let n = count(a, "num_partitions")?;
            let p = int(a, "partition", 0) as i32;
            json!(cpp_partitioned_producer_check(p, n).map_err(|short| {
                ProfileRouteError::IllegalPartition {
                    profile: ClientProfile::Cpp,
                    partition: i64::from(short),
                }
                .fail()
            })?)
        }
        "kafka_partition" => {
            let n = count(a, "num_partitions")?;
            let key = Key::of(arg(a, "key"));
            match text(a, "partitioner", "java") {
                "java" => opt_num(
                    key.serialized()
                        .map(|k| pulsar_routing::kafka::partition_for_key(k, n)),
                ),
                name => {
                    let p: LibrdkafkaPartitioner = name.parse().map_err(fail)?;
                    opt_num(p.partition_for_key(key.serialized(), n))
                }
            }
        }
        "librdkafka_partition" => {
            let p: LibrdkafkaPartitioner = text(a, "partitioner", "").parse().map_err(fail)?;
            let n = count(a, "num_partitions")?;
            let key = Key::of(arg(a, "key"));
            let random = RdRandom {
                first: int(a, "random", 0) as u32,
                second: int(a, "second_random", 0) as u32,
            };
            let available: Option<Vec<u32>> = arg(a, "available")
                .and_then(Value::as_array)
                .map(|l| l.iter().map(|x| integer(x).unwrap_or(0) as u32).collect());
            let availability = available
                .as_deref()
                .map_or(Availability::All, Availability::Only);
            json!(p.partition(key.serialized(), n, random, availability))
        }
        "get_partition_index" => json!(get_partition_index(text(a, "topic", ""))),
        "topic_bundle" => {
            let n = int(a, "num_bundles", 4) as u32;
            let layout = BundleLayout::default_for(n).map_err(fail)?;
            let topic = TopicName::parse_with(text(a, "topic", ""), rules(a)?).map_err(fail)?;
            bundle_or_error(layout.bundle_for_topic(&topic), topic.crc32())?
        }
        "default_boundaries" => {
            let n = int(a, "num_bundles", 0) as u32;
            let mut out = vec![0; n as usize + 1];
            json!(default_boundaries(n, &mut out).map_err(fail)?)
        }
        "parse_boundary" => json!(parse_boundary(text(a, "text", "")).map_err(fail)?),
        "BundleRange.parse" => {
            json!(
                BundleRange::parse(text(a, "text", ""))
                    .map_err(fail)?
                    .to_string()
            )
        }
        "validate_full_range" => {
            let list = arg(a, "boundaries").and_then(Value::as_array);
            let texts = list.into_iter().flatten().filter_map(Value::as_str);
            validate_full_range(texts).map_err(fail)?;
            Value::Null
        }
        "sticky_key_hash" => {
            let kind: SelectorKind = text(a, "selector", "").parse().map_err(fail)?;
            json!(kind.key_hash_range().slot_of(&data(a, "key")))
        }
        "sticky_key" => {
            let (ordering, partition, producer) = (
                bytes(arg(a, "ordering_key")),
                bytes(arg(a, "partition_key")),
                bytes(arg(a, "producer_name")),
            );
            let keys = MessageKeys {
                ordering_key: ordering.as_deref(),
                partition_key: partition.as_deref(),
                partition_key_b64_encoded: flag(a, "partition_key_b64_encoded", false),
                producer_name: producer.as_deref(),
                sequence_id: opt_int(a, "sequence_id").map(|s| s as u64),
            };
            let key = keys.sticky_key();
            let mut out = vec![0; key.len()];
            let written = key.write_to(&mut out).unwrap_or(0);
            out.truncate(written);
            json!({"hex": out.iter().map(|b| format!("{b:02x}")).collect::<String>()})
        }
        "validate_sticky_ranges" => {
            let ranges = declared_ranges(a).unwrap_or_default();
            validate_sticky_ranges(&ranges).map_err(fail)?;
            Value::Null
        }
        "ring_point" => {
            let range = KeyHashRange::new(1, int(a, "range_max", 65535) as u32).map_err(fail)?;
            json!(ring_point(
                &data(a, "name"),
                int(a, "name_index", 0) as u32,
                int(a, "i", 0) as u32,
                range
            ))
        }
        "producer_start_topics" => {
            let topic = text(a, "topic", "");
            let plan = pulsar_routing::lookup::ProducerStartPlan {
                partitions: int(a, "partitions", 0) as u32,
            };
            Value::Array(plan.topics(topic).map(|t| json!(t.to_string())).collect())
        }
        "required_max_pending_messages" => json!(required_max_pending_messages(
            int(a, "peak_rate_per_sec", 0) as u64,
            int(a, "reconnect_window_ms", 0) as u64
        )),
        _ => return Err(failure("unknown", format!("unknown function {f}"))),
    })
}

fn bundle_or_error(range: Option<BundleRange>, hash: u32) -> Outcome {
    range
        .map(|r| json!(r.to_string()))
        .ok_or_else(|| BundleError::NoBundleForHash(hash).fail())
}

fn layout_of(boundaries: &[u32]) -> Result<BundleLayout<'_>, Failure> {
    BundleLayout::new(boundaries).map_err(fail)
}

fn split(layout: &BundleLayout<'_>, target: BundleRange, points: &mut [i64]) -> Outcome {
    let mut out = vec![0; layout.len() + points.len() + 1];
    let split = layout.split(target, points, &mut out).map_err(fail)?;
    Ok(json!({
        "boundaries": split.layout.boundaries().collect::<Vec<u32>>(),
        "new_bundles": bundle_names(split.new_bundles()),
    }))
}

/// A topic's load from `[msgRateIn, msgRateOut, msgThroughputIn, msgThroughputOut]`.
fn topic_load(hash: u32, stats: &[Value]) -> Option<TopicLoad> {
    let rate = |i: usize| stats.get(i).and_then(Value::as_f64);
    let (rate_in, rate_out) = (rate(0)?, rate(1)?);
    let (throughput_in, throughput_out) = (rate(2)?, rate(3)?);
    let mut load = TopicLoad::default();
    (load.hash, load.msg_rate_in, load.msg_rate_out) = (hash, rate_in, rate_out);
    (load.msg_throughput_in, load.msg_throughput_out) = (throughput_in, throughput_out);
    Some(load)
}

fn bundles_split(boundaries: &[u32], a: &Args) -> Outcome {
    let layout = layout_of(boundaries)?;
    let target = BundleRange::parse(text(a, "bundle", "")).map_err(fail)?;
    layout.validate_bundle(target).map_err(fail)?;
    let algorithm: SplitAlgorithm = text(a, "algorithm", "range_equally_divide")
        .parse()
        .map_err(fail)?;
    let rules = rules(a)?;
    let mut hashes = Vec::new();
    for t in arg(a, "topics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let topic = TopicName::parse_with(t.as_str().unwrap_or(""), rules).map_err(fail)?;
        hashes.push(topic.crc32());
    }
    let owned_topics = hashes.len();
    let mut positions: Vec<i64> = arg(a, "positions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| integer(p).unwrap_or(0) as i64)
        .collect();
    let chosen: Option<Vec<i64>> = match algorithm {
        SplitAlgorithm::RangeEquallyDivide => Some(vec![range_equally_divide(target)]),
        SplitAlgorithm::TopicCountEquallyDivide => {
            topic_count_equally_divide(&mut hashes).map(|p| vec![p])
        }
        SplitAlgorithm::SpecifiedPositionsDivide
        | SplitAlgorithm::SpecifiedPositionsDivideForce => {
            let force = algorithm == SplitAlgorithm::SpecifiedPositionsDivideForce;
            specified_positions_divide(target, &mut positions, owned_topics, force)
                .map_err(fail)?
                .map(<[i64]>::to_vec)
        }
        _ => {
            let stats = arg(a, "topic_stats").and_then(Value::as_array);
            let mut loads: Vec<TopicLoad> = hashes
                .iter()
                .zip(stats.into_iter().flatten())
                .filter_map(|(&hash, s)| topic_load(hash, s.as_array()?))
                .collect();
            let defaults = FlowLimits::default();
            let limits = FlowLimits {
                max_msg_rate: int(a, "max_msg_rate", defaults.max_msg_rate.into()) as i32,
                max_bandwidth_mbytes: int(
                    a,
                    "max_bandwidth_mbytes",
                    defaults.max_bandwidth_mbytes.into(),
                ) as i32,
                threshold_percent: int(a, "threshold_percent", defaults.threshold_percent.into())
                    as i32,
            };
            let mut out = vec![0; loads.len()];
            flow_or_qps_equally_divide(owned_topics, &mut loads, limits, &mut out)
                .map_err(fail)?
                .map(<[i64]>::to_vec)
        }
    };
    match chosen {
        Some(mut points) => split(&layout, target, &mut points),
        None => Ok(json!({"boundaries": boundaries, "new_bundles": []})),
    }
}

/// The read-only calls every selector has.
fn selector_read(
    method: &str,
    a: &Args,
    select: impl Fn(u32) -> Option<u64>,
    select_key: impl Fn(&StickyKey<'_>) -> Option<u64>,
    assignments: Vec<(i32, i32, u64)>,
) -> Outcome {
    Ok(match method {
        "select" => opt_num(select(int(a, "slot", 0) as u32)),
        "select_key" => opt_num(select_key(&StickyKey::Key(&data(a, "key")))),
        "assignments" => Value::Array(
            assignments
                .into_iter()
                .map(|(s, e, c)| json!([s, e, c]))
                .collect(),
        ),
        _ => return Err(failure("unknown", format!("unknown method {method}"))),
    })
}

fn declared_ranges(a: &Args) -> Option<Vec<HashRange>> {
    let list = arg(a, "ranges").and_then(Value::as_array)?;
    Some(
        list.iter()
            .map(|r| {
                let start = r.get(0).and_then(integer).unwrap_or(0) as i32;
                HashRange::new(start, r.get(1).and_then(integer).unwrap_or(0) as i32)
            })
            .collect(),
    )
}

/// A selector's calls: `add` and `remove` by kind, the reads alike.
macro_rules! selector_call {
    ($s:ident, $method:expr, $a:expr, |$c:ident| { add: $add:expr, remove: $remove:expr, }) => {{
        let $c = int($a, "consumer_id", 0) as u64;
        match $method {
            "add" => $add,
            "remove" => $remove,
            _ => {
                let assignments = $s.assignments().map(|x| x.as_tuple()).collect();
                selector_read(
                    $method,
                    $a,
                    |x| $s.select(x),
                    |k| $s.select_key(k),
                    assignments,
                )?
            }
        }
    }};
}

fn call_method<'s>(obj: &mut Obj<'s>, method: &str, a: &'s Args) -> Outcome {
    let n = || count(a, "num_partitions");
    Ok(match obj {
        Obj::RoundRobin(r) if method == "choose_partition" => {
            let key = Key::of(arg(a, "key"));
            json!(r.choose_partition(key.routing(), n()?, int(a, "now_ms", 0) as i64))
        }
        Obj::Single(r) if method == "choose_partition" => {
            let key = Key::of(arg(a, "key"));
            json!(r.choose_partition(key.routing(), n()?).map_err(fail)?)
        }
        Obj::Custom(answer) if method == "choose_partition" => {
            let answer = *answer;
            let router = CustomRouter::new(move |_: RoutingKey<'_>, _| answer);
            let key = Key::of(arg(a, "key"));
            json!(router.choose_partition(key.routing(), n()?).map_err(fail)?)
        }
        Obj::Profile(r) if method == "route" => {
            let key = Key::of(arg(a, "key"));
            let message = ProfileMessage {
                key: key.profile(),
                ordering_key: None,
                payload_len: int(a, "payload_len", 0) as u64,
            };
            json!(
                r.route(&message, n()?, int(a, "now_ns", 0) as i64)
                    .map_err(fail)?
            )
        }
        Obj::BuiltIn(p) => {
            let choice = StickyChoice::uniform(int(a, "random", 0) as u32);
            match method {
                "peek_partition" => json!(p.peek_partition(n()?, &choice).map_err(fail)?),
                "update_partition_info" => opt_num(
                    p.update_partition_info(
                        int(a, "appended_bytes", 0) as i32,
                        flag(a, "enable_switch", false),
                        n()?,
                        &choice,
                    )
                    .map_err(fail)?,
                ),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::JavaClient(p) if method == "append" => {
            let key = Key::of(arg(a, "key"));
            let choice = StickyChoice::uniform(int(a, "random", 0) as u32);
            json!(
                p.append(
                    key.serialized(),
                    int(a, "appended_bytes", 0) as i32,
                    flag(a, "enable_switch", false),
                    n()?,
                    &choice
                )
                .map_err(fail)?
            )
        }
        Obj::Librdkafka(p) if method == "partition" => {
            let key = Key::of(arg(a, "key"));
            json!(
                p.partition(
                    key.serialized(),
                    n()?,
                    int(a, "now_us", 0) as i64,
                    RdRandom::one(int(a, "random", 0) as u32),
                    Availability::All
                )
                .map_err(fail)?
            )
        }
        Obj::Topic(t) if method == "partition" => json!(
            t.partition(int(a, "index", 0) as i32)
                .map_err(fail)?
                .to_string()
        ),
        Obj::Bundles(boundaries) => {
            let layout = layout_of(boundaries)?;
            match method {
                "boundaries" => json!(layout.boundaries().collect::<Vec<u32>>()),
                "bundles" => bundle_names(layout.bundles()),
                "bundle_for_hash" => {
                    let hash = int(a, "hash", 0) as u32;
                    if flag(a, "strict", false) {
                        let i = layout.bundle_index_for_hash_java(hash).map_err(fail)?;
                        bundle_or_error(layout.bundle(i), hash)?
                    } else {
                        bundle_or_error(layout.bundle_for_hash(hash), hash)?
                    }
                }
                "bundle_for_topic" => {
                    let topic =
                        TopicName::parse_with(text(a, "topic", ""), rules(a)?).map_err(fail)?;
                    bundle_or_error(layout.bundle_for_topic(&topic), topic.crc32())?
                }
                "validate_bundle" => {
                    let r = BundleRange::parse(text(a, "bundle", "")).map_err(fail)?;
                    json!(layout.validate_bundle(r).map_err(fail)?)
                }
                "split" => bundles_split(boundaries, a)?,
                "split_equally" => {
                    let target = BundleRange::parse(text(a, "bundle", "")).map_err(fail)?;
                    let parts = int(a, "parts", 2) as u32;
                    let mut out = vec![0; layout.len() + parts as usize + 1];
                    let split = layout
                        .split_equally(target, parts, &mut out)
                        .map_err(fail)?;
                    json!({
                        "boundaries": split.layout.boundaries().collect::<Vec<u32>>(),
                        "new_bundles": bundle_names(split.new_bundles()),
                    })
                }
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::AutoSplit(s) => selector_call!(s, method, a, |c| {
            add: impact(&s.add(c).map_err(fail)?),
            remove: impact(&s.remove(c)),
        }),
        Obj::Consistent(s) => selector_call!(s, method, a, |c| {
            add: impact(&s.add(c, data(a, "name")).map_err(fail)?),
            remove: impact(&s.remove(c)),
        }),
        Obj::Exclusive(s) => selector_call!(s, method, a, |c| {
            add: impact(&s.add(c, declared_ranges(a).as_deref()).map_err(fail)?),
            remove: impact(&s.remove(c)),
        }),
        Obj::Lookup(l) => {
            let now = int(a, "now_ms", 0) as u64;
            match method {
                "start" => lookup_step(l, |l| l.start(now)),
                "on_response" => {
                    let url = text(a, "broker_service_url", "");
                    let tls = text(a, "broker_service_url_tls", "");
                    let url = if l.options().use_tls { tls } else { url };
                    let auth = flag(a, "authoritative", false);
                    let proxy = flag(a, "proxy_through_service_url", false);
                    let response = match text(a, "kind", "") {
                        "connect" => LookupResponse::connect(url, auth, proxy),
                        "redirect" => LookupResponse::redirect(url, auth, proxy),
                        _ => match server_error(a)? {
                            Some(e) => LookupResponse::failed(e, text(a, "message", "")),
                            None => {
                                return Ok(lookup_step(l, |l| {
                                    l.on_attempt_error(AttemptError::EmptyResponse, now)
                                }));
                            }
                        },
                    };
                    lookup_step(l, |l| l.on_response(&response, now))
                }
                "on_connection_failed" => lookup_step(l, |l| l.on_connection_failed(now)),
                "on_request_timeout" => lookup_step(l, |l| l.on_request_timeout(now)),
                "on_throttled" => {
                    let cause = AttemptError::TooManyRequests {
                        in_flight: int(a, "in_flight", 0) as u32,
                        queued: int(a, "queued", 0) as u32,
                    };
                    lookup_step(l, |l| l.on_attempt_error(cause, now))
                }
                "on_retry_timer" => lookup_step(l, |l| l.on_retry_timer(now)),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::Metadata(m) => {
            let now = int(a, "now_ms", 0) as u64;
            match method {
                "start" => metadata_step(m, |m| m.start(now)),
                "on_connected" => {
                    let supports = flag(a, "supports_pip344", false);
                    metadata_step(m, |m| m.on_connected(supports, now))
                }
                "on_response" => {
                    let error = server_error(a)?;
                    let response = if flag(a, "failed", false) || error.is_some() {
                        PartitionedMetadataResponse::Failed {
                            error,
                            message: arg(a, "message").and_then(Value::as_str),
                        }
                    } else {
                        PartitionedMetadataResponse::Success {
                            partitions: int(a, "partitions", 0) as u32,
                        }
                    };
                    metadata_step(m, |m| m.on_response(&response, now))
                }
                "on_connection_failed" => metadata_step(m, |m| m.on_connection_failed(now)),
                "on_retry_timer" => metadata_step(m, |m| m.on_retry_timer(now)),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::Coalescer(c) => {
            let properties: Vec<(&'s str, &'s str)> = arg(a, "properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
                .collect();
            // The key is held by the table for the scenario's lifetime.
            let key = LookupKey {
                topic: text(a, "topic", ""),
                properties: Box::leak(properties.into_boxed_slice()),
            };
            match method {
                "join" => json!(matches!(
                    c.join(key)
                        .map_err(|e| failure("lookup_coalescing_table_full", e))?,
                    Joined::Leader { .. }
                )),
                "complete" => json!(c.complete(&key).unwrap_or(0)),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::MetadataCoalescer(c) => {
            let key = MetadataKey {
                topic: text(a, "topic", ""),
                metadata_auto_creation: flag(a, "metadata_auto_creation", true),
                use_fallback_for_non_pip344: flag(a, "use_fallback_for_non_pip344", false),
            };
            match method {
                "join" => json!(matches!(
                    c.join(key)
                        .map_err(|e| failure("lookup_coalescing_table_full", e))?,
                    Joined::Leader { .. }
                )),
                "complete" => json!(c.complete(&key).unwrap_or(0)),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::Throttle(t) => match method {
            "acquire" => json!(match t.try_acquire().map_err(fail)? {
                pulsar_routing::lookup::Admission::SendNow => "send_now",
                _ => "queued",
            }),
            "release" => json!(t.release()),
            "cancel_queued" => json!(t.cancel_queued()),
            "in_flight" => json!(t.in_flight()),
            "queued" => json!(t.queued()),
            _ => return Err(failure("unknown", format!("unknown method {method}"))),
        },
        Obj::Gate(g, nodes) => {
            let node = NodeId(int(a, "node", 0) as i32);
            let now = int(a, "now_ms", 0) as u64;
            let jitter = Jitter::from_unit(arg(a, "jitter").and_then(Value::as_f64).unwrap_or(0.5));
            match method {
                "ready" => readiness(&g.ready(nodes, node, now)),
                "check" => readiness(&g.check_id(nodes, node, now)),
                "send" => readiness(&g.send(nodes, node, now).map_err(fail)?),
                "connection_event" => {
                    let name = text(a, "event", "");
                    let event = ConnectionEvent::ALL
                        .into_iter()
                        .find(|e| e.name() == name)
                        .ok_or_else(|| failure("sender_unknown_value", name))?;
                    g.connection_event(nodes, node, event, now, jitter)
                        .map_err(fail)?;
                    Value::Null
                }
                "response" => {
                    let outcome = match text(a, "outcome", "success") {
                        "success" => ProduceOutcome::Success,
                        "not_leader_or_follower" => ProduceOutcome::NotLeaderOrFollower,
                        _ => ProduceOutcome::OtherError,
                    };
                    g.response(nodes, node, outcome).map_err(fail)?;
                    Value::Null
                }
                "throttle" => {
                    g.throttle(nodes, node, int(a, "until_ms", 0) as u64)
                        .map_err(fail)?;
                    Value::Null
                }
                "request_metadata_update" => {
                    g.request_metadata_update();
                    Value::Null
                }
                "metadata_fetch_started" => {
                    g.metadata_fetch_started();
                    Value::Null
                }
                "metadata_updated" => {
                    g.metadata_updated(now, jitter);
                    Value::Null
                }
                "time_to_next_metadata_update" => json!(g.time_to_next_metadata_update(now)),
                "connection_state" => json!(g.check_id(nodes, node, 0).state.name()),
                "in_flight" => json!(g.check_id(nodes, node, 0).in_flight),
                _ => return Err(failure("unknown", format!("unknown method {method}"))),
            }
        }
        Obj::Queue(q) => match method {
            "check" => json!(match q.check() {
                Ok(()) => "ok",
                Err(QueueFull::WouldBlock) => "would_block",
                Err(_) => "would_fail",
            }),
            "try_enqueue" => {
                q.try_enqueue().map_err(fail)?;
                Value::Null
            }
            "complete" => {
                q.complete(int(a, "n", 1) as u32);
                Value::Null
            }
            "pending" => json!(q.pending()),
            _ => return Err(failure("unknown", format!("unknown method {method}"))),
        },
        Obj::KeyCounts(k) => key_counts_call(k, method, a)?,
        _ => return Err(failure("unknown", format!("unknown method {method}"))),
    })
}

/// A weight as JSON: an integral one as an integer, as the scenarios
/// write it.
fn weight_value(w: f64) -> Value {
    if w.fract() == 0.0 && w.abs() <= (1u64 << 53) as f64 {
        json!(w as i64)
    } else {
        json!(w)
    }
}

fn weight_arg(v: Option<&Value>) -> f64 {
    v.and_then(Value::as_f64).unwrap_or(1.0)
}

fn key_counts_call(k: &mut KeyCounts, method: &str, a: &Args) -> Outcome {
    Ok(match method {
        "add" => {
            let key = bytes(arg(a, "key")).unwrap_or_default();
            k.add(&key, weight_arg(arg(a, "weight"))).map_err(fail)?;
            Value::Null
        }
        "add_keyless" => {
            k.add_keyless(weight_arg(arg(a, "weight"))).map_err(fail)?;
            Value::Null
        }
        "add_batch" => {
            let (mut data, mut offsets) = (Vec::new(), vec![0]);
            for key in arg(a, "keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                data.extend(bytes(Some(key)).unwrap_or_default());
                offsets.push(data.len());
            }
            let weights: Option<Vec<f64>> = arg(a, "weights")
                .and_then(Value::as_array)
                .map(|w| w.iter().map(|w| weight_arg(Some(w))).collect());
            let keys = KeyOffsets::new(&data, &offsets)
                .map_err(|e| failure("unknown", format!("bad batch: {e}")))?;
            k.add_batch(keys, weights.as_deref()).map_err(fail)?;
            Value::Null
        }
        "sorted" => Value::Array(
            k.sorted()
                .map(|(key, w)| {
                    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
                    json!([{ "hex": hex }, weight_value(w)])
                })
                .collect(),
        ),
        "len" => json!(k.len()),
        "rows" => num(k.rows()),
        "total_key_bytes" => json!(k.total_key_bytes()),
        "keyless_weight" => k.keyless_weight().map_or(Value::Null, weight_value),
        _ => return Err(failure("unknown", format!("unknown method {method}"))),
    })
}

// ---- comparison and the runner -------------------------------------------------

fn agrees(expected: &Value, actual: &Value, top: bool) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(x)) => {
            let hex_only = e.len() == 1 && e.contains_key("hex");
            e.iter()
                .all(|(k, v)| x.get(k).is_some_and(|y| agrees(v, y, false)))
                && (top && !hex_only || x.keys().all(|k| e.contains_key(k)))
        }
        (Value::Array(e), Value::Array(x)) => {
            e.len() == x.len() && e.iter().zip(x).all(|(a, b)| agrees(a, b, false))
        }
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Null, Value::Null) => true,
        (Value::String(a), Value::String(b)) if integer(expected).is_none() => a == b,
        _ => match (integer(expected), integer(actual)) {
            (Some(a), Some(b)) => a == b,
            _ => expected == actual,
        },
    }
}

fn type_of(obj: &Obj<'_>) -> &'static str {
    match obj {
        Obj::RoundRobin(_) => "RoundRobinRouter",
        Obj::Single(_) => "SinglePartitionRouter",
        Obj::Custom(_) => "CustomRouter",
        Obj::Profile(_) => "ProfileRouter",
        Obj::BuiltIn(_) => "KafkaBuiltInPartitioner",
        Obj::JavaClient(_) => "KafkaJavaClientPartitioner",
        Obj::Librdkafka(_) => "LibrdkafkaProducer",
        Obj::Topic(_) => "TopicName",
        Obj::Bundles(_) => "NamespaceBundles",
        Obj::AutoSplit(_) => "AutoSplitSelector",
        Obj::Consistent(_) => "ConsistentHashingSelector",
        Obj::Exclusive(_) => "ExclusiveSelector",
        Obj::Lookup(_) => "TopicLookup",
        Obj::Metadata(_) => "PartitionedMetadataLookup",
        Obj::Coalescer(_) => "LookupCoalescer",
        Obj::MetadataCoalescer(_) => "MetadataCoalescer",
        Obj::Throttle(_) => "LookupThrottle",
        Obj::Gate(..) => "SenderGate",
        Obj::Queue(_) => "PendingQueue",
        Obj::KeyCounts(_) => "KeyCounts",
        Obj::Nothing => "SenderConfig",
    }
}

fn run_step<'s>(
    objects: &mut HashMap<&'s str, Obj<'s>>,
    step: &'s Value,
) -> Result<(), Disagreement> {
    static EMPTY: std::sync::OnceLock<Args> = std::sync::OnceLock::new();
    let a = step
        .get("args")
        .and_then(Value::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new));
    let text_of = |name: &str| step.get(name).and_then(Value::as_str);
    let (what, outcome) = if let Some(kind) = text_of("new") {
        let outcome = construct(kind, a).map(|obj| {
            let fields = match &obj {
                Obj::Topic(t) => topic_fields(t),
                _ => Value::Null,
            };
            objects.insert(text_of("as").unwrap_or(""), obj);
            fields
        });
        (kind, outcome)
    } else if let (Some(callee), Some(on)) = (text_of("call"), text_of("on")) {
        let obj = objects
            .get_mut(on)
            .ok_or_else(|| Disagreement(format!("no object named {on}")))?;
        let (class, method) = callee.split_once('.').unwrap_or((callee, ""));
        if class != type_of(obj) {
            return Err(Disagreement(format!(
                "{on} is a {}, not a {class}",
                type_of(obj)
            )));
        }
        (callee, call_method(obj, method, a))
    } else if let Some(callee) = text_of("call") {
        (callee, call_function(callee, a))
    } else {
        return Err(Disagreement("a step needs \"new\" or \"call\"".into()));
    };
    match (outcome, step.get("error"), step.get("expect")) {
        (Err(f), _, _) if f.kind == "unknown" => Err(Disagreement(f.message)),
        (Err(f), Some(error), _) => {
            let kind = error.get("kind").and_then(Value::as_str).unwrap_or("");
            let message = error.get("message").and_then(Value::as_str).unwrap_or("");
            if f.kind == kind && f.message == message {
                Ok(())
            } else {
                Err(Disagreement(format!(
                    "{what}: expected {kind} \"{message}\", got {} \"{}\"",
                    f.kind, f.message
                )))
            }
        }
        (Err(f), None, _) => Err(Disagreement(format!(
            "{what} failed: {} \"{}\"",
            f.kind, f.message
        ))),
        (Ok(v), Some(error), _) => Err(Disagreement(format!(
            "{what}: expected error {error}, got {v}"
        ))),
        (Ok(v), None, Some(expect)) if !agrees(expect, &v, true) => {
            Err(Disagreement(format!("{what}: expected {expect}, got {v}")))
        }
        (Ok(_), None, _) => Ok(()),
    }
}

fn run_scenario(scenario: &Value) -> Result<(), String> {
    let mut objects = HashMap::new();
    let steps = scenario.get("steps").and_then(Value::as_array);
    for (i, step) in steps.into_iter().flatten().enumerate() {
        run_step(&mut objects, step).map_err(|Disagreement(d)| format!("step {i}: {d}"))?;
    }
    Ok(())
}

fn scenario_files() -> Vec<PathBuf> {
    if let Ok(files) = std::env::var("CONFORMANCE_FILES") {
        return files.split_whitespace().map(PathBuf::from).collect();
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/conformance");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/conformance is there")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn conformance() {
    let (mut total, mut agreed) = (0, 0);
    for path in scenario_files() {
        let content = std::fs::read_to_string(&path).expect("a readable scenario file");
        for (number, line) in content.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            total += 1;
            let at = format!("{}:{}", path.display(), number + 1);
            let scenario: Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    println!("FAIL {at}: not JSON: {e}");
                    continue;
                }
            };
            let name = scenario.get("name").and_then(Value::as_str).unwrap_or("?");
            match run_scenario(&scenario) {
                Ok(()) => agreed += 1,
                Err(why) => println!("FAIL {name} ({at}) {why}"),
            }
        }
    }
    println!("conformance rust: {agreed}/{total} scenarios agree");
    assert_eq!(agreed, total, "scenarios disagree");
}
