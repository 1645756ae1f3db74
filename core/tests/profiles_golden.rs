//! Every `cpp_*` and `go_*` field of the golden files, through the client
//! profiles: the values the real pulsar-client-cpp and pulsar-client-go
//! printed.

mod common;

use common::{golden, int, text, unhex};
use pulsar_routing::profiles::{
    CharSignedness, ClientHashingScheme, ClientProfile, CppRoundRobinRouter,
    CppSinglePartitionRouter, GoDefaultRouter, GoTopicName, KeyHash, ProfileConfig, ProfileKeying,
    ProfileMessage, ProfileRouter, ProfileSeed, boost_hash_1_74_x86_64, cpp_java_string_hash,
    cpp_partitioned_producer_check, go_hash, go_java_string_hash,
};
use pulsar_routing::{HashingScheme, PartitionCount, murmur3_32};
use serde_json::Value;

/// Checks `field` of `row` against `actual` if the row has it, counting it.
fn check(row: &Value, field: &str, actual: u32, checked: &mut usize) {
    if let Some(expected) = row.get(field) {
        let id = int(row, "id");
        assert_eq!(
            Some(i64::from(actual)),
            expected.as_i64(),
            "{field}, id {id}"
        );
        *checked += 1;
    }
}

#[test]
fn hash_fields() {
    let rows = golden("hash");
    let mut checked = 0;
    for row in &rows {
        let key = unhex(text(row, "key_hex"));
        check(
            row,
            "cpp_java_string_hash",
            cpp_java_string_hash(&key, CharSignedness::Signed),
            &mut checked,
        );
        check(row, "cpp_murmur3_32", murmur3_32(&key), &mut checked);
        check(
            row,
            "cpp_boost_hash_boost1_74_x86_64",
            boost_hash_1_74_x86_64(&key),
            &mut checked,
        );
        check(
            row,
            "go_java_string_hash",
            go_java_string_hash(&key),
            &mut checked,
        );
        check(
            row,
            "go_murmur3_32",
            go_hash(HashingScheme::Murmur3_32Hash, &key),
            &mut checked,
        );
        // The same values through the named hashes.
        for (field, hash) in [
            ("cpp_java_string_hash", KeyHash::CppJavaStringHash),
            ("cpp_murmur3_32", KeyHash::Murmur3_32),
            ("cpp_boost_hash_boost1_74_x86_64", KeyHash::CppBoostHash1_62),
            ("go_java_string_hash", KeyHash::GoJavaStringHash),
            ("go_murmur3_32", KeyHash::Murmur3_32),
        ] {
            if let Some(expected) = row.get(field) {
                assert_eq!(
                    hash.hash_bytes(&key).ok().map(i64::from),
                    expected.as_i64(),
                    "{hash} for {field}"
                );
            }
        }
        // BoostHash of an unknown build refuses rather than guesses.
        assert!(KeyHash::CppBoostHash.hash_bytes(&key).is_err());
    }
    eprintln!("hash.jsonl: {checked} cpp_/go_ values checked");
    // Five fields on nearly every one of the 1800-odd rows.
    assert!(checked > 5 * 1800, "only {checked} values checked");
}

fn java_scheme(row: &Value) -> HashingScheme {
    text(row, "scheme").parse().expect("known scheme")
}

#[test]
fn keyed_routing_fields() {
    let rows = golden("routing");
    let (mut cpp_checked, mut go_checked, mut go_keyless) = (0, 0, 0);
    for row in rows.iter().filter(|r| r["kind"] == "keyed") {
        let key_bytes = unhex(text(row, "key_utf8_hex"));
        let key = std::str::from_utf8(&key_bytes).expect("keyed rows hold strings");
        let n = PartitionCount::from_i64(int(row, "num_partitions")).expect("valid count");
        let scheme = java_scheme(row);
        let client_scheme: ClientHashingScheme = text(row, "scheme").parse().expect("scheme");
        let msg = ProfileMessage::keyed(key);
        let context = format!("key {key:?}, n {n}, {scheme}");

        // C++: the real RoundRobin router, and the SinglePartition one.
        let cpp_hash = match scheme {
            HashingScheme::JavaStringHash => KeyHash::CppJavaStringHash,
            HashingScheme::Murmur3_32Hash => KeyHash::Murmur3_32,
        };
        let expected_cpp = int(row, "cpp_partition");
        let mut rr = CppRoundRobinRouter::new(cpp_hash, None, 0, 0);
        let cpp = rr
            .choose_partition(Some(&key_bytes), 0, n, 0)
            .expect("hashable");
        assert_eq!(i64::from(cpp), expected_cpp, "cpp, {context}");
        let single = CppSinglePartitionRouter::new(cpp_hash, 0);
        assert_eq!(
            single.choose_partition(Some(&key_bytes), n).map(i64::from),
            Ok(expected_cpp),
            "cpp single, {context}"
        );
        // Through the cpp profile, which adds the producer's `short` cast.
        let config = ProfileConfig::client_default(ClientProfile::Cpp).with_scheme(client_scheme);
        let mut router = ProfileRouter::new(ClientProfile::Cpp, &config, ProfileSeed::default())
            .expect("valid config");
        let through_producer =
            cpp_partitioned_producer_check(expected_cpp as i32, n).map_err(i64::from);
        assert_eq!(
            router.route(&msg, n, 0).map_err(|_| ()),
            through_producer.map_err(|_| ()),
            "cpp profile, {context}"
        );
        if n.get() <= 32767 {
            assert_eq!(through_producer, Ok(cpp));
        }
        cpp_checked += 1;

        // Go: the real default router (batching on, the producer defaults).
        let go_config = ProfileConfig::client_default(ClientProfile::Go).with_scheme(client_scheme);
        let keying = ProfileKeying::new(ClientProfile::Go, &go_config).expect("valid config");
        match row["go_partition"].as_i64() {
            Some(expected_go) => {
                let mut go = GoDefaultRouter::new(
                    scheme,
                    Some(pulsar_routing::profiles::GoBatching::DEFAULT),
                    0,
                    0,
                );
                let p = go.choose_partition(&msg, n, 0);
                assert_eq!(i64::from(p), expected_go, "go, {context}");
                let mut router =
                    ProfileRouter::new(ClientProfile::Go, &go_config, ProfileSeed::default())
                        .expect("valid config");
                assert_eq!(router.route(&msg, n, 0).map(i64::from), Ok(expected_go));
                if n.get() > 1 {
                    assert_eq!(
                        keying.partition(&msg, n),
                        Ok(Some(p)),
                        "go keying, {context}"
                    );
                }
                go_checked += 1;
            }
            None => {
                // Go treats the empty key as no key and round-robins.
                assert_eq!(key, "", "only the empty key is keyless in Go");
                assert!(text(row, "go_note").contains("empty key"));
                assert_eq!(keying.partition(&msg, n), Ok(None), "go keyless, {context}");
                go_keyless += 1;
            }
        }
    }
    eprintln!(
        "routing.jsonl: {cpp_checked} cpp_partition, {go_checked} go_partition, {go_keyless} go keyless rows checked"
    );
    assert!(cpp_checked > 13_000 && go_checked > 13_000 && go_keyless > 100);
}

#[test]
fn go_topic_name_fields() {
    let rows = golden("topics");
    let (mut ok, mut errors) = (0, 0);
    for row in rows.iter().filter(|r| r.get("go_ok").is_some()) {
        let input = text(row, "input");
        let parsed = GoTopicName::parse(input);
        if row["go_ok"] == true {
            let topic = parsed.unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(topic.name().to_string(), text(row, "go_name"), "{input:?}");
            assert_eq!(topic.domain().as_str(), text(row, "go_domain"), "{input:?}");
            assert_eq!(topic.tenant(), text(row, "go_tenant"), "{input:?}");
            assert_eq!(
                topic.namespace().to_string(),
                text(row, "go_namespace"),
                "{input:?}"
            );
            assert_eq!(topic.topic(), text(row, "go_topic"), "{input:?}");
            assert_eq!(
                topic.partition_index(),
                int(row, "go_partition"),
                "{input:?}"
            );
            ok += 1;
        } else {
            let error = parsed.expect_err(input);
            assert_eq!(error.to_string(), text(row, "go_error"), "{input:?}");
            errors += 1;
        }
    }
    eprintln!("topics.jsonl: {ok} Go parses and {errors} Go errors checked");
    assert!(ok + errors >= 120, "only {} go rows", ok + errors);
}

/// The `java` profile is the reference routers: the Java rows of
/// `routing.jsonl` come out of it unchanged.
#[test]
fn java_profile_reproduces_the_java_rows() {
    use pulsar_routing::profiles::BatchingConfig;
    let rows = golden("routing");
    let mut checked = 0;
    for row in &rows {
        let n = || PartitionCount::from_i64(int(row, "num_partitions")).expect("valid count");
        // Java's start index is an int: the seed carries its bit pattern.
        let start = row["start_ptn_idx"].as_i64().unwrap_or(0) as i32 as u32;
        let seed = ProfileSeed {
            start,
            created_ns: 0,
        };
        match row["kind"].as_str() {
            Some("rr_sequence") => {
                let config =
                    ProfileConfig::client_default(ClientProfile::Java).with_batching_enabled(false);
                let mut router =
                    ProfileRouter::new(ClientProfile::Java, &config, seed).expect("valid");
                for expected in row["sequence"].as_array().expect("sequence") {
                    let p = router.route(&ProfileMessage::keyless(1), n(), 0);
                    assert_eq!(p.map(i64::from), Ok(expected.as_i64().expect("int")));
                }
            }
            Some("rr_batching") => {
                // partitionSwitchMs = frequency * delay; the router clamps 0
                // to 1 ms, which is what a 1 ms delay gives.
                let switch_ms = int(row, "partition_switch_ms_arg").max(1);
                let config = ProfileConfig {
                    batching: BatchingConfig {
                        partition_switch_frequency: 1,
                        max_publish_delay_ns: switch_ms * 1_000_000,
                        ..BatchingConfig::JAVA
                    },
                    ..ProfileConfig::client_default(ClientProfile::Java)
                };
                let mut router =
                    ProfileRouter::new(ClientProfile::Java, &config, seed).expect("valid");
                // The profile clock is in nanoseconds: the rows probing
                // clocks near `Long.MAX_VALUE` milliseconds cannot be
                // expressed (the reference tests cover them).
                let Some(now_ns) = int(row, "clock_ms").checked_mul(1_000_000) else {
                    continue;
                };
                let p = router.route(&ProfileMessage::keyless(1), n(), now_ns);
                assert_eq!(p.map(i64::from), Ok(int(row, "partition")), "{row}");
            }
            Some("keyed") => {
                let key_bytes = unhex(text(row, "key_utf8_hex"));
                let key = std::str::from_utf8(&key_bytes).expect("string key");
                let config = ProfileConfig::client_default(ClientProfile::Java)
                    .with_scheme(text(row, "scheme").parse().expect("scheme"));
                let keying = ProfileKeying::new(ClientProfile::Java, &config).expect("valid");
                let p = keying.partition(&ProfileMessage::keyed(key), n());
                assert_eq!(p.map(|p| p.map(i64::from)), Ok(Some(int(row, "partition"))));
            }
            _ => continue,
        }
        checked += 1;
    }
    eprintln!("routing.jsonl: {checked} Java rows through the java profile");
    assert!(checked > 15_000, "only {checked}");
}
