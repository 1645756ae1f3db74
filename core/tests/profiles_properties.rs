//! Properties of the client profiles and the Kafka partitioners: where
//! clients must agree with Java, they do for every input; every answer is a
//! partition in range; streaming equals one-shot.

use proptest::prelude::*;
use pulsar_routing::kafka::{
    Availability, JavaClientPartitioner, LibrdkafkaPartitioner, LibrdkafkaProducer, Murmur2Hasher,
    RdRandom, StickyChoice, murmur2,
};
use pulsar_routing::profiles::{
    BatchingConfig, BoostHashGeneration, CharSignedness, ClientHashingScheme, ClientProfile,
    GoAtoiErrorKind, GoTopicName, KeyHash, ProfileConfig, ProfileKey, ProfileKeying,
    ProfileMessage, ProfileMode, ProfileRouteError, ProfileRouter, ProfileSeed,
    cpp_partition_index, cpp_partitioned_producer_check, go_atoi,
};
use pulsar_routing::{PartitionCount, get_partition_index};

fn any_partition_count() -> impl Strategy<Value = PartitionCount> {
    prop_oneof![1u32..=16, 1u32..=100_000, 1u32..=PartitionCount::MAX]
        .prop_map(|n| PartitionCount::new(n).expect("strategy stays in range"))
}

fn power_of_two_count() -> impl Strategy<Value = PartitionCount> {
    (0u32..=30).prop_map(|e| PartitionCount::new(1 << e).expect("in range"))
}

fn ascii_key() -> impl Strategy<Value = String> {
    "[\\x00-\\x7f]{1,40}"
}

fn keying(profile: ClientProfile, scheme: ClientHashingScheme) -> ProfileKeying {
    let config = ProfileConfig::client_default(profile).with_scheme(scheme);
    ProfileKeying::new(profile, &config).expect("valid configuration")
}

/// Java's keyed answer as `profile`'s producer delivers it: C++ and Python
/// cast it to a 16-bit `short` (a no-op up to 32768 partitions) and fail
/// the send when that is not a partition.
fn cpp_view_of(
    profile: ClientProfile,
    java: Result<Option<u32>, ProfileRouteError>,
    n: PartitionCount,
) -> Result<Option<u32>, ProfileRouteError> {
    match (profile, java) {
        (ClientProfile::Cpp | ClientProfile::Python, Ok(Some(p))) => {
            cpp_partitioned_producer_check(p as i32, n)
                .map(Some)
                .map_err(|short| ProfileRouteError::IllegalPartition {
                    profile,
                    partition: i64::from(short),
                })
        }
        (_, java) => java,
    }
}

fn any_profile() -> impl Strategy<Value = ClientProfile> {
    prop::sample::select(ClientProfile::ALL.to_vec())
}

fn any_key() -> impl Strategy<Value = (u8, String, Vec<u8>)> {
    (
        0u8..3,
        "\\PC{0,12}",
        proptest::collection::vec(any::<u8>(), 0..12),
    )
}

fn profile_key<'a>(kind: u8, s: &'a str, b: &'a [u8]) -> ProfileKey<'a> {
    match kind {
        0 => ProfileKey::None,
        1 => ProfileKey::Str(s),
        _ => ProfileKey::Bytes(b),
    }
}

/// A configuration the client accepts, with random knobs.
fn any_config(profile: ClientProfile) -> impl Strategy<Value = ProfileConfig> {
    let cpp_build = matches!(profile, ClientProfile::Cpp | ClientProfile::Python);
    let schemes: Vec<ClientHashingScheme> = ClientHashingScheme::ALL
        .into_iter()
        .filter(|&s| {
            let config = ProfileConfig::client_default(profile).with_scheme(s);
            ProfileKeying::new(profile, &config).is_ok()
        })
        .collect();
    (
        prop::sample::select(schemes),
        prop::sample::select(ProfileMode::ALL.to_vec()),
        any::<bool>(),
        2u32..50,
        1u32..5000,
        1_000_000i64..50_000_000,
        1i32..20,
        any::<bool>(),
        0..=BoostHashGeneration::ALL.len(),
    )
        .prop_map(
            move |(scheme, mode, enabled, messages, bytes, delay, frequency, signed, boost)| {
                ProfileConfig {
                    scheme,
                    mode,
                    batching: BatchingConfig {
                        enabled,
                        max_messages: messages,
                        max_bytes: bytes,
                        max_publish_delay_ns: delay,
                        partition_switch_frequency: frequency,
                    },
                    // Only C++ and Python builds have a char signedness and a Boost.
                    char_signedness: if signed || !cpp_build {
                        CharSignedness::Signed
                    } else {
                        CharSignedness::Unsigned
                    },
                    boost: if cpp_build && boost < BoostHashGeneration::ALL.len() {
                        Some(BoostHashGeneration::ALL[boost])
                    } else {
                        None
                    },
                    lazy_start: cpp_build && !enabled,
                }
            },
        )
}

proptest! {
    /// Go's JavaStringHash equals Java's bit pattern on ASCII keys; unmasked,
    /// it still reduces to Java's partition when `n` divides 2^31.
    #[test]
    fn go_equals_java_on_ascii_keys_and_power_of_two_counts(key in ascii_key(), n in power_of_two_count()) {
        let msg = ProfileMessage::keyed(&key);
        for scheme in [ClientHashingScheme::JavaStringHash, ClientHashingScheme::Murmur3_32Hash] {
            let java = keying(ClientProfile::Java, scheme).partition(&msg, n);
            let go = keying(ClientProfile::Go, scheme).partition(&msg, n);
            prop_assert_eq!(go, java);
            prop_assert!(java.expect("hashable").is_some());
        }
    }

    /// C++'s JavaStringHash (signed or unsigned char) equals Java's on
    /// ASCII keys, up to 32768 partitions; past that, C++ sends where its
    /// producer's `short` cast of Java's answer points, or fails.
    #[test]
    fn cpp_equals_java_on_ascii_keys(key in "[\\x00-\\x7f]{0,40}", n in any_partition_count(), signed in any::<bool>()) {
        let msg = ProfileMessage::keyed(&key);
        let java = keying(ClientProfile::Java, ClientHashingScheme::JavaStringHash).partition(&msg, n);
        let mut config = ProfileConfig::client_default(ClientProfile::Cpp)
            .with_scheme(ClientHashingScheme::JavaStringHash);
        config.char_signedness = if signed { CharSignedness::Signed } else { CharSignedness::Unsigned };
        let cpp = ProfileKeying::new(ClientProfile::Cpp, &config).expect("valid").partition(&msg, n);
        prop_assert_eq!(cpp, cpp_view_of(ClientProfile::Cpp, java, n));
    }

    /// Murmur3_32Hash is the shared scheme: Java, Go, C++ and Python's
    /// escape hatch agree on every non-empty key; pulsar-rs and DotPulsar
    /// (unmasked) agree when `n` is a power of two.
    #[test]
    fn murmur3_agrees_across_clients(key in "\\PC{1,30}", n in power_of_two_count()) {
        let msg = ProfileMessage::keyed(&key);
        let java = keying(ClientProfile::Java, ClientHashingScheme::Murmur3_32Hash).partition(&msg, n);
        for profile in [ClientProfile::Go, ClientProfile::Cpp, ClientProfile::Python, ClientProfile::DotPulsar] {
            prop_assert_eq!(
                keying(profile, ClientHashingScheme::Murmur3_32Hash).partition(&msg, n),
                cpp_view_of(profile, java, n)
            );
        }
        let config = ProfileConfig::client_default(ClientProfile::PulsarRs).with_mode(ProfileMode::RoundRobin);
        let rs = ProfileKeying::new(ClientProfile::PulsarRs, &config).expect("valid").partition(&msg, n);
        prop_assert_eq!(rs, java);
    }

    /// Every profile, in every mode and configuration, answers a partition
    /// in `[0, n)`, or one of the documented refusals.
    #[test]
    fn every_profile_returns_a_partition_in_range(
        (profile, config) in any_profile().prop_flat_map(|p| (Just(p), any_config(p))),
        n in any_partition_count(),
        start in any::<u32>(),
        created_ns in any::<i64>(),
        messages in proptest::collection::vec((any_key(), any::<u16>(), any::<i64>(), proptest::option::of("\\PC{0,4}")), 1..40),
    ) {
        let seed = ProfileSeed { start, created_ns };
        let mut router = ProfileRouter::new(profile, &config, seed).expect("valid configuration");
        let keying = ProfileKeying::new(profile, &config).expect("valid configuration");
        let single = matches!(config.mode, ProfileMode::SinglePartition);
        for ((kind, s, b), payload, now, ordering) in &messages {
            let msg = ProfileMessage {
                key: profile_key(*kind, s, b),
                ordering_key: ordering.as_deref().map(str::as_bytes),
                payload_len: u64::from(*payload),
            };
            let routed = router.route(&msg, n, *now);
            // A keyed message gets the same outcome from the whole router as
            // from the stateless keyed routing, at every partition count:
            // C++'s and Python's `short` cast included, refusals included.
            if n.get() > 1 && !(profile == ClientProfile::PulsarRs && single) {
                match keying.partition(&msg, n) {
                    Ok(Some(keyed)) => prop_assert_eq!(routed, Ok(keyed)),
                    Err(e @ ProfileRouteError::IllegalPartition { .. }) => {
                        prop_assert_eq!(routed, Err(e));
                    }
                    _ => {}
                }
            }
            match routed {
                Ok(p) => {
                    prop_assert!(p < n.get(), "{} answered {} for n = {}", profile, p, n);
                }
                Err(ProfileRouteError::BoostHashNotReproducible) => {
                    prop_assert!(config.boost.is_none());
                    prop_assert_eq!(profile, ClientProfile::Cpp);
                }
                Err(ProfileRouteError::BytesKeyUnsupported(p)) => {
                    prop_assert!(matches!(p, ClientProfile::Python | ClientProfile::PulsarRs));
                    prop_assert_eq!(*kind, 2);
                }
                Err(ProfileRouteError::IllegalPartition { partition, .. }) => {
                    // Only a fixed start beyond `n`, C++'s short cast, or
                    // DotPulsar's wrapped counter.
                    prop_assert!(
                        single || n.get() > 32767 || partition < 0,
                        "{} refused {} for n = {}", profile, partition, n
                    );
                }
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
        }
    }

    /// With a start below `n`, the round-robin routers never refuse a
    /// keyless message (DotPulsar only after 2^31 of them; C++ and Python
    /// only beyond 32767 partitions, where the producer's `short` cast
    /// truncates).
    #[test]
    fn round_robin_keyless_never_fails(profile in any_profile(), n in any_partition_count(), start in any::<u32>(), now in any::<i64>()) {
        let cpp_like = matches!(profile, ClientProfile::Cpp | ClientProfile::Python);
        let n = if cpp_like { PartitionCount::new(n.get() % 32767 + 1).expect("n") } else { n };
        let config = ProfileConfig::client_default(profile);
        let seed = ProfileSeed { start: start % n.get(), created_ns: 0 };
        let mut router = ProfileRouter::new(profile, &config, seed).expect("defaults are valid");
        for i in 0..20i64 {
            let p = router.route(&ProfileMessage::keyless(100), n, now.wrapping_add(i * 3_000_000));
            prop_assert!(p.is_ok_and(|p| p < n.get()), "{}: {:?}", profile, p);
        }
    }

    /// Go's producer replaces unset (zero) batching options with its
    /// defaults (1000 messages, 128 KiB, 10 ms) before building the router,
    /// so leaving them at zero routes exactly as the defaults do.
    #[test]
    fn go_zero_batching_options_mean_the_defaults(n in any_partition_count(), start in any::<u32>(),
                                                 sizes in proptest::collection::vec(0u64..200_000, 1..60),
                                                 steps in proptest::collection::vec(0i64..20_000_000, 1..60)) {
        let mut defaults = ProfileConfig::client_default(ClientProfile::Go);
        defaults.batching = BatchingConfig {
            enabled: true,
            max_messages: 1000,
            max_bytes: 128 * 1024,
            max_publish_delay_ns: 10_000_000,
            partition_switch_frequency: 10,
        };
        let mut unset = ProfileConfig::client_default(ClientProfile::Go);
        unset.batching = BatchingConfig {
            enabled: true,
            max_messages: 0,
            max_bytes: 0,
            max_publish_delay_ns: 0,
            partition_switch_frequency: 10,
        };
        let seed = ProfileSeed { start, created_ns: 0 };
        let mut a = ProfileRouter::new(ClientProfile::Go, &defaults, seed).expect("valid");
        let mut b = ProfileRouter::new(ClientProfile::Go, &unset, seed).expect("valid");
        let mut now = 0i64;
        for (size, step) in sizes.iter().zip(steps.iter().cycle()) {
            now += step;
            let message = ProfileMessage::keyless(*size);
            prop_assert_eq!(a.route(&message, n, now), b.route(&message, n, now));
        }
    }

    #[test]
    fn streaming_murmur2_equals_one_shot(data in proptest::collection::vec(any::<u8>(), 0..300),
                                         cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8)) {
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(data.len() + 1)).collect();
        points.sort_unstable();
        let mut hasher = Murmur2Hasher::new(data.len() as u64);
        let mut last = 0;
        for p in points {
            hasher.update(&data[last..p]);
            last = p;
        }
        hasher.update(&data[last..]);
        prop_assert_eq!(hasher.finalize(), Ok(murmur2(&data)));
    }

    /// Kafka's partitioners answer in range for any key, count and draw.
    #[test]
    fn kafka_partitions_are_in_range(
        key in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..40)),
        n in any_partition_count(),
        draws in (any::<u32>(), any::<u32>()),
        appended in 0i32..100_000,
        batch_size in any::<i32>(),
        now in 1_000_000_000i64..2_000_000_000,
    ) {
        let random = RdRandom { first: draws.0, second: draws.1 };
        for partitioner in LibrdkafkaPartitioner::ALL {
            let p = partitioner.partition(key.as_deref(), n, random, Availability::All);
            prop_assert!(p < n.get());
            let mut producer = LibrdkafkaProducer::new(partitioner, 10).expect("valid");
            let p = producer.partition(key.as_deref(), n, now, random, Availability::All);
            prop_assert!(p.is_ok_and(|p| p < n.get()));
        }
        let mut java = JavaClientPartitioner::new(batch_size, false);
        for _ in 0..3 {
            let p = java.append(key.as_deref(), appended, true, n, &StickyChoice::uniform(draws.0));
            prop_assert!(p.is_ok_and(|p| p < n.get()));
        }
    }

    /// Go's Atoi is `ParseInt`: one optional sign, then `ParseUint`'s ASCII
    /// digits in `u64` (stopping at the first bad character or overflow),
    /// then the signed range. Rust's `u64` parsing reads digits the same
    /// way.
    #[test]
    fn go_atoi_matches_the_reference_grammar(text in "[+-]?[0-9]{0,22}[x_ ]?[0-9]{0,3}") {
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text.as_str()),
        };
        let expected = match digits.parse::<u64>() {
            Ok(u) if !negative && u >= 1 << 63 => Err(GoAtoiErrorKind::Range),
            Ok(u) if negative && u > 1 << 63 => Err(GoAtoiErrorKind::Range),
            Ok(u) if negative => Ok((u as i64).wrapping_neg()),
            Ok(u) => Ok(u as i64),
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(GoAtoiErrorKind::Range),
            Err(_) => Err(GoAtoiErrorKind::Syntax),
        };
        prop_assert_eq!(go_atoi(&text).map_err(|e| e.kind), expected);
    }

    /// The partition index readers agree with Java on canonical suffixes
    /// and never panic on anything else.
    #[test]
    fn partition_index_readers(prefix in "\\PC{0,10}", index in 0u32..=i32::MAX as u32, noise in "\\PC{0,6}") {
        let canonical = format!("{prefix}-partition-{index}");
        if !prefix.contains("-partition-") {
            prop_assert_eq!(i64::from(get_partition_index(&canonical)), i64::from(index));
        }
        prop_assert_eq!(i64::from(cpp_partition_index(&canonical)), i64::from(index));
        let name = format!("persistent://t/ns/{canonical}");
        prop_assert_eq!(GoTopicName::parse(&name).map(|t| t.partition_index()), Ok(i64::from(index)));
        let odd = format!("{prefix}-partition-{noise}");
        let _ = cpp_partition_index(&odd);
        let _ = GoTopicName::parse(&odd).map(|t| t.name().to_string());
    }

    /// Go's parser never panics, and its name is the input behind a prefix.
    #[test]
    fn go_topic_names_never_panic(input in "\\PC{0,40}") {
        if let Ok(topic) = GoTopicName::parse(&input) {
            let name = topic.name().to_string();
            prop_assert!(name.ends_with(&input));
            prop_assert!(name.starts_with(topic.domain().as_str()));
        }
    }
}

#[test]
fn names_round_trip() {
    for p in ClientProfile::ALL {
        assert_eq!(p.name().parse::<ClientProfile>(), Ok(p));
    }
    assert_eq!(
        "pulsar_rs".parse::<ClientProfile>(),
        Ok(ClientProfile::PulsarRs)
    );
    for h in KeyHash::ALL {
        assert_eq!(h.name().parse::<KeyHash>(), Ok(h));
    }
    for s in ClientHashingScheme::ALL {
        assert_eq!(s.name().parse::<ClientHashingScheme>(), Ok(s));
    }
    assert_eq!(
        "BoostHash".parse::<ClientHashingScheme>(),
        Ok(ClientHashingScheme::BoostHash)
    );
    for m in ProfileMode::ALL {
        assert_eq!(m.name().parse::<ProfileMode>(), Ok(m));
    }
    assert!("kotlin".parse::<ClientProfile>().is_err());
}

#[test]
fn unsupported_schemes_are_refused_with_clear_messages() {
    let python = ProfileConfig::client_default(ClientProfile::Python)
        .with_scheme(ClientHashingScheme::JavaStringHash);
    let err = ProfileKeying::new(ClientProfile::Python, &python).expect_err("not selectable");
    assert!(err.to_string().contains("cannot choose a hashing scheme"));
    let java_boost = ProfileConfig::client_default(ClientProfile::Java)
        .with_scheme(ClientHashingScheme::BoostHash);
    assert_eq!(
        ProfileKeying::new(ClientProfile::Java, &java_boost)
            .expect_err("no BoostHash in Java")
            .to_string(),
        "the java client has no boost hashing scheme"
    );
    // C++'s default: a clear refusal for keys, not a guess (its builds
    // vary); Python's default is the current wheel's Boost.
    let n = PartitionCount::new(3).expect("n");
    let default = ProfileConfig::client_default(ClientProfile::Cpp);
    let keyed = ProfileKeying::new(ClientProfile::Cpp, &default)
        .expect("the default is valid")
        .partition(&ProfileMessage::keyed("k"), n);
    let message = keyed.expect_err("BoostHash").to_string();
    assert!(message.contains("depends on the Boost"), "{message}");
    assert!(message.contains("Boost release"), "{message}");
    let python = ProfileConfig::client_default(ClientProfile::Python);
    let keying = ProfileKeying::new(ClientProfile::Python, &python).expect("valid");
    assert_eq!(keying.hash(), KeyHash::CppBoostHash1_82);
}

/// Issue 15: options a client does not have are refused, not ignored; the
/// C++ client refuses `batchingMaxMessages` of 0 and 1 (its
/// `setBatchingMaxMessages` throws, a `ValueError` from Python).
#[test]
fn options_a_client_lacks_and_cpp_batching_max_messages() {
    use pulsar_routing::profiles::ProfileConfigError;
    let seed = ProfileSeed::default();
    for profile in ClientProfile::ALL {
        let cpp_build = matches!(profile, ClientProfile::Cpp | ClientProfile::Python);
        let unsigned = ProfileConfig {
            char_signedness: CharSignedness::Unsigned,
            ..ProfileConfig::client_default(profile)
        };
        let boost =
            ProfileConfig::client_default(profile).with_boost(BoostHashGeneration::Boost1_62);
        for (config, option) in [(unsigned, "unsigned_char"), (boost, "boost")] {
            let keying = ProfileKeying::new(profile, &config);
            let router = ProfileRouter::new(profile, &config, seed).map(|_| ());
            if cpp_build {
                assert!(keying.is_ok() && router.is_ok(), "{profile} {option}");
            } else {
                let want = ProfileConfigError::UnsupportedOption { profile, option };
                assert_eq!((keying.map(|_| ()), router), (Err(want), Err(want)));
                assert!(want.to_string().contains(option));
            }
        }
        for max_messages in [0, 1, 2] {
            let mut config = ProfileConfig::client_default(profile);
            config.batching.max_messages = max_messages;
            let router = ProfileRouter::new(profile, &config, seed).map(|_| ());
            if cpp_build && max_messages <= 1 {
                let want = ProfileConfigError::CppBatchingMaxMessages {
                    profile,
                    max_messages,
                };
                assert_eq!(router, Err(want));
                assert_eq!(
                    want.to_string(),
                    "batchingMaxMessages needs to be greater than 1"
                );
            } else {
                assert!(router.is_ok(), "{profile} {max_messages}");
            }
        }
    }
}

/// Issue 15 item 3: with `lazy_start_partitioned_producers` the C++
/// producer's start routes a keyless one-byte message, so batching by `M`
/// messages switches partition first after `M - 1` (as measured on the
/// real client), and without batching the first keyless message skips one
/// partition (`currentPartitionCursor_++` ran once at start).
#[test]
fn lazy_start_shifts_keyless_round_robin() {
    let n = PartitionCount::new(7).expect("n");
    let seed = ProfileSeed {
        start: 3,
        created_ns: 1_000_000_000,
    };
    let now = seed.created_ns;
    for profile in [ClientProfile::Cpp, ClientProfile::Python] {
        for m in [2u32, 5, 10] {
            let mut config = ProfileConfig::client_default(profile).with_batching_enabled(true);
            config.batching.max_messages = m;
            config.batching.max_publish_delay_ns = 1_000_000_000_000;
            let first_switch = |config: &ProfileConfig| {
                let mut router = ProfileRouter::new(profile, config, seed).expect("valid");
                let first = router
                    .route(&ProfileMessage::keyless(1), n, now)
                    .expect("route");
                (1u32..)
                    .find(|_| {
                        router
                            .route(&ProfileMessage::keyless(1), n, now)
                            .expect("route")
                            != first
                    })
                    .expect("switches")
            };
            assert_eq!(first_switch(&config), m, "{profile} eager, M = {m}");
            config.lazy_start = true;
            assert_eq!(first_switch(&config), m - 1, "{profile} lazy, M = {m}");
        }
        let mut config = ProfileConfig::client_default(profile).with_batching_enabled(false);
        let mut eager = ProfileRouter::new(profile, &config, seed).expect("valid");
        config.lazy_start = true;
        let mut lazy = ProfileRouter::new(profile, &config, seed).expect("valid");
        for _ in 0..20 {
            let e = eager
                .route(&ProfileMessage::keyless(1), n, now)
                .expect("route");
            let l = lazy
                .route(&ProfileMessage::keyless(1), n, now)
                .expect("route");
            assert_eq!(l, (e + 1) % 7, "{profile}");
        }
    }
    // Only the C++ routers are modelled.
    let mut java = ProfileConfig::client_default(ClientProfile::Java);
    java.lazy_start = true;
    assert!(ProfileRouter::new(ClientProfile::Java, &java, seed).is_err());
}

/// The worked examples of the peer survey (peers.md), which re-implemented
/// each client in Python.
#[test]
fn peer_survey_examples() {
    let n = PartitionCount::new(10).expect("n");
    let default = |profile: ClientProfile, key: &str| {
        let config =
            ProfileConfig::client_default(profile).with_scheme(ClientHashingScheme::JavaStringHash);
        ProfileKeying::new(profile, &config)
            .expect("valid")
            .partition(&ProfileMessage::keyed(key), n)
    };
    // Non-ASCII: Java hashes UTF-16, Go unsigned bytes, C++ signed bytes.
    assert_eq!(default(ClientProfile::Java, "ключ-1"), Ok(Some(4)));
    assert_eq!(default(ClientProfile::Go, "ключ-1"), Ok(Some(2)));
    assert_eq!(default(ClientProfile::Cpp, "ключ-1"), Ok(Some(6)));
    // pulsar-rs with RoutingPolicy::RoundRobin: unmasked Murmur3.
    let rs =
        ProfileConfig::client_default(ClientProfile::PulsarRs).with_mode(ProfileMode::RoundRobin);
    assert_eq!(
        ProfileKeying::new(ClientProfile::PulsarRs, &rs)
            .expect("valid")
            .partition(&ProfileMessage::keyed("customer-000042"), n),
        Ok(Some(2))
    );
}

/// The first key `key-<i>` whose Murmur3 hash lands on `target` out of `n`.
fn key_reducing_to(target: u32, n: PartitionCount) -> String {
    (0u32..)
        .map(|i| format!("key-{i}"))
        .find(|k| n.reduce(pulsar_routing::murmur3_32(k.as_bytes())) == target)
        .expect("some key reduces to any partition")
}

/// What the C++ client 4.2.0 (and the Python wheel over it) did on a topic
/// with 100,000 partitions: a key whose `hash % n` is 83783 was delivered
/// to partition 18247 (83783 as a 16-bit `short`), and one whose `short`
/// is negative failed the send. The keyed routing alone, the whole router
/// and every client built on the C++ producer agree.
#[test]
fn cpp_short_cast_above_32767_partitions_in_every_entry_point() {
    let n = PartitionCount::new(100_000).expect("n");
    let delivered = key_reducing_to(83_783, n);
    let refused = key_reducing_to(40_000, n);
    for profile in [ClientProfile::Cpp, ClientProfile::Python] {
        let config =
            ProfileConfig::client_default(profile).with_scheme(ClientHashingScheme::Murmur3_32Hash);
        let keying = ProfileKeying::new(profile, &config).expect("valid");
        let mut router =
            ProfileRouter::new(profile, &config, ProfileSeed::default()).expect("valid");
        let msg = ProfileMessage::keyed(&delivered);
        assert_eq!(keying.partition(&msg, n), Ok(Some(18_247)), "{profile}");
        assert_eq!(router.route(&msg, n, 0), Ok(18_247), "{profile}");
        let msg = ProfileMessage::keyed(&refused);
        // 40000 as a short is 40000 - 65536 = -25536.
        let err = ProfileRouteError::IllegalPartition {
            profile,
            partition: -25_536,
        };
        assert_eq!(keying.partition(&msg, n), Err(err), "{profile}");
        assert_eq!(router.route(&msg, n, 0), Err(err), "{profile}");
        assert_eq!(
            err.to_string(),
            "Got Invalid Partition for message from Router Policy, Partition - -25536"
        );
    }
}
