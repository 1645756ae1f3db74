use std::sync::atomic::{AtomicI64, Ordering};

use pulsar_routing::{partition_for_key, partition_for_key_bytes, sign_safe_mod};

use super::*;

fn keyed(key: &str) -> Message {
    Message {
        partition_key: Some(key.to_owned()),
        ..Default::default()
    }
}

const KEYS: &[&str] = &[
    "",
    "a",
    "user-42",
    "\0",
    "\u{7f}",
    "\u{80}",
    "é",
    "ключ-1",
    "\u{7ff}",
    "\u{800}",
    "键",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10000}",
    "😀",
    "𝄞music",
    "\u{10ffff}",
    "mixé键😀",
];

#[test]
fn keyed_messages_go_where_java_sends_the_string() {
    let long = "k".repeat(5000);
    for scheme in [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash] {
        let policy = JavaRoutingPolicy::default().hashing_scheme(scheme);
        for n in [1u32, 2, 3, 7, 12, 16, 100, 1000] {
            let count = PartitionCount::new(n).unwrap();
            for key in KEYS.iter().copied().chain([long.as_str()]) {
                let want = partition_for_key(key, count, scheme) as usize;
                let mut m = keyed(key);
                // The ordering key never moves a message, as in Java.
                m.ordering_key = Some(b"other".to_vec());
                assert_eq!(
                    policy.route(&m, n as usize),
                    want,
                    "{scheme:?} n={n} {key:?}"
                );
            }
            // keyBytes: the Base64 text is what Java hashes.
            let mut m = keyed("AAEC//4=");
            m.partition_key_b64_encoded = Some(true);
            let want = partition_for_key_bytes(&[0, 1, 2, 0xff, 0xfe], count, scheme) as usize;
            assert_eq!(policy.route(&m, n as usize), want);
        }
    }
    assert_eq!(JavaRoutingPolicy::default().route(&keyed(""), 7), 0);
}

#[test]
fn keyless_without_batching_counts_from_the_start() {
    let policy = JavaRoutingPolicy::default().batching(false).start_index(5);
    let java = RoundRobinRouter::without_batching(HashingScheme::JavaStringHash, 5);
    let n = PartitionCount::new(7).unwrap();
    for i in 0..40 {
        let m = if i % 3 == 0 {
            keyed("k")
        } else {
            Message::default()
        };
        let key = m
            .partition_key
            .as_deref()
            .map_or(RoutingKey::None, RoutingKey::Key);
        assert_eq!(
            policy.route(&m, 7),
            java.choose_partition(key, n, 0) as usize,
            "message {i}"
        );
    }
    assert_eq!(policy.start_index_in_use(), Some(5));
}

#[test]
fn keyless_with_batching_follows_the_clock() {
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let read = Arc::clone(&now);
    let policy = JavaRoutingPolicy::default()
        .start_index(2)
        .partition_switch_ms(20)
        .clock(Arc::new(move || read.load(Ordering::Relaxed)));
    for _ in 0..50 {
        let t = now.fetch_add(7, Ordering::Relaxed) + 7;
        let want = sign_safe_mod(t / 20 + 2, 12).unwrap() as usize;
        assert_eq!(policy.route(&Message::default(), 12), want, "at {t}");
    }
}

#[test]
fn the_start_is_drawn_in_range() {
    let mut seen = [false; 3];
    for _ in 0..200 {
        let policy = JavaRoutingPolicy::default().mode(Mode::SinglePartition);
        assert_eq!(policy.start_index_in_use(), None);
        let p = policy.route(&Message::default(), 3);
        assert_eq!(policy.start_index_in_use(), Some(p as i32));
        seen[p] = true;
    }
    assert_eq!(seen, [true; 3]);
}

#[test]
fn refused_counts() {
    let policy = JavaRoutingPolicy::default();
    assert_eq!(policy.partition(&keyed("k"), 0), None);
    assert_eq!(policy.route(&keyed("k"), 0), 0);
    let single = JavaRoutingPolicy::default()
        .mode(Mode::SinglePartition)
        .start_index(9);
    assert_eq!(single.partition(&Message::default(), 3), None);
    assert!(format!("{single:?}").contains("SinglePartition"));
}
