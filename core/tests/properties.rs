//! Properties checked against deliberately naive references: the fast paths
//! must agree with the obvious code everywhere, not just on golden rows.

use std::io::Cursor;

use proptest::prelude::*;
use pulsar_routing::{
    CustomRouter, HashingScheme, Murmur3Hasher, PartitionCount, RoundRobinRouter, RoutingKey,
    SinglePartitionRouter, base64_len, encode_base64, java_lossy_utf8, java_string_hash,
    java_string_hashcode, java_string_hashcode_bytes, java_string_hashcode_utf16, murmur3_32,
    murmur3_32_raw, partition_for_key, partition_for_key_bytes, sign_safe_mod,
};

/// Java's `signSafeMod`, written the long way in 128-bit arithmetic.
fn reference_sign_safe_mod(dividend: i64, divisor: i32) -> i32 {
    let m = (i128::from(dividend) % i128::from(divisor)) as i32;
    if m < 0 { m.wrapping_add(divisor) } else { m }
}

/// RFC 4648 Base64 the textbook way, with an allocation per call.
fn reference_base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn any_partition_count() -> impl Strategy<Value = PartitionCount> {
    prop_oneof![1u32..=16, 1u32..=100_000, 1u32..=PartitionCount::MAX]
        .prop_map(|n| PartitionCount::new(n).expect("strategy stays in range"))
}

fn any_scheme() -> impl Strategy<Value = HashingScheme> {
    prop_oneof![
        Just(HashingScheme::JavaStringHash),
        Just(HashingScheme::Murmur3_32Hash)
    ]
}

proptest! {
    #[test]
    fn streaming_murmur3_equals_one_shot(data in proptest::collection::vec(any::<u8>(), 0..300),
                                         cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8)) {
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(data.len() + 1)).collect();
        points.sort_unstable();
        let mut hasher = Murmur3Hasher::new();
        let mut at = 0;
        for p in points {
            hasher.update(&data[at..p]);
            at = p;
        }
        hasher.update(&data[at..]);
        prop_assert_eq!(hasher.finalize_raw(), murmur3_32_raw(&data));
        prop_assert_eq!(hasher.finalize(), murmur3_32(&data));
    }

    #[test]
    fn murmur3_agrees_with_the_murmur3_crate(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        let oracle = murmur3::murmur3_32(&mut Cursor::new(&data), 0).expect("in-memory read");
        prop_assert_eq!(murmur3_32_raw(&data), oracle);
        prop_assert_eq!(murmur3_32(&data), oracle & 0x7fff_ffff);
    }

    #[test]
    fn reduce_equals_remainder(n in any_partition_count(), x in any::<u32>()) {
        prop_assert_eq!(n.reduce(x), x % n.get());
    }

    #[test]
    fn reduce_equals_remainder_near_the_edges(n in prop_oneof![Just(1u32), Just(2), Just(3), Just(PartitionCount::MAX), Just(PartitionCount::MAX - 1), 1u32..=PartitionCount::MAX],
                                              x in prop_oneof![Just(0u32), Just(u32::MAX), Just(u32::MAX - 1), Just(1u32 << 31), any::<u32>()]) {
        let count = PartitionCount::new(n).unwrap();
        prop_assert_eq!(count.reduce(x), x % n);
    }

    #[test]
    fn sign_safe_mod_equals_java(dividend in any::<i64>(), divisor in any::<i32>()) {
        let got = sign_safe_mod(dividend, divisor);
        if divisor == 0 {
            prop_assert!(got.is_err());
        } else {
            prop_assert_eq!(got, Ok(reference_sign_safe_mod(dividend, divisor)));
        }
    }

    #[test]
    fn partition_count_sign_safe_mod_equals_java(n in any_partition_count(), x in any::<i64>(), y in any::<i32>()) {
        let divisor = n.get() as i32;
        prop_assert_eq!(n.sign_safe_mod(x) as i32, reference_sign_safe_mod(x, divisor));
        prop_assert_eq!(n.sign_safe_mod_i32(y) as i32, reference_sign_safe_mod(i64::from(y), divisor));
    }

    #[test]
    fn java_string_hash_over_ascii_is_the_byte_loop(s in "[\\x00-\\x7f]{0,64}") {
        let naive = s.bytes().fold(0i32, |h, b| h.wrapping_mul(31).wrapping_add(i32::from(b)));
        prop_assert_eq!(java_string_hashcode(&s), naive);
        prop_assert_eq!(java_string_hash(&s), (naive & i32::MAX) as u32);
    }

    #[test]
    fn java_string_hash_is_over_utf16_units(s in any::<String>()) {
        let units: Vec<u16> = s.encode_utf16().collect();
        prop_assert_eq!(java_string_hashcode(&s), java_string_hashcode_utf16(&units));
        prop_assert_eq!(java_string_hashcode(&s), java_string_hashcode_bytes(s.as_bytes()));
    }

    #[test]
    fn lossy_decoding_is_the_identity_on_valid_utf8(s in any::<String>()) {
        prop_assert_eq!(java_lossy_utf8(s.as_bytes()).collect::<String>(), s);
    }

    #[test]
    fn lossy_decoding_never_grows_the_char_count(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let decoded: Vec<char> = java_lossy_utf8(&bytes).collect();
        prop_assert!(decoded.len() <= bytes.len());
        // Whatever std accepts as valid, Java decodes to the same text.
        if let Ok(s) = std::str::from_utf8(&bytes) {
            prop_assert_eq!(decoded.into_iter().collect::<String>(), s);
        }
    }

    #[test]
    fn base64_matches_the_textbook_encoder(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut buf = vec![0u8; base64_len(bytes.len())];
        let len = encode_base64(&bytes, &mut buf).unwrap();
        let expected = reference_base64(&bytes);
        prop_assert_eq!(std::str::from_utf8(&buf[..len]).unwrap(), expected.as_str());
        // keyBytes routing is key() routing of that text.
        for scheme in [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash] {
            let n = PartitionCount::new(97).unwrap();
            prop_assert_eq!(partition_for_key_bytes(&bytes, n, scheme), partition_for_key(&expected, n, scheme));
        }
    }

    #[test]
    fn every_router_stays_in_range(n in any_partition_count(), scheme in any_scheme(), key in any::<Option<String>>(),
                                   start in any::<i32>(), now_ms in any::<i64>(), switch_ms in any::<i64>()) {
        let key = key.as_deref().map_or(RoutingKey::None, RoutingKey::Key);
        let batching = RoundRobinRouter::with_batching(scheme, start, switch_ms);
        prop_assert!(batching.choose_partition(key, n, now_ms) < n.get());
        let counter = RoundRobinRouter::without_batching(scheme, start);
        for _ in 0..3 {
            prop_assert!(counter.choose_partition(key, n, now_ms) < n.get());
        }
        let fixed = start.rem_euclid(n.get() as i32);
        let single = SinglePartitionRouter::new(scheme, fixed);
        prop_assert!(single.choose_partition(key, n).unwrap() < n.get());
    }

    #[test]
    fn round_robin_counter_is_javas_wrapping_int(start in prop_oneof![any::<i32>(), (i32::MAX - 20)..=i32::MAX],
                                                 n in any_partition_count()) {
        let router = RoundRobinRouter::without_batching(HashingScheme::JavaStringHash, start);
        let mut counter = start;
        for _ in 0..40 {
            let expected = reference_sign_safe_mod(i64::from(counter), n.get() as i32);
            prop_assert_eq!(router.choose_partition(RoutingKey::None, n, 0) as i32, expected);
            counter = counter.wrapping_add(1);
        }
    }

    #[test]
    fn batching_round_robin_is_the_time_slot(start in any::<i32>(), now_ms in any::<i64>(), switch_ms in 1i64..100_000,
                                             n in any_partition_count()) {
        let router = RoundRobinRouter::with_batching(HashingScheme::JavaStringHash, start, switch_ms);
        let slot = (now_ms / switch_ms).wrapping_add(i64::from(start));
        let expected = reference_sign_safe_mod(slot, n.get() as i32);
        prop_assert_eq!(router.choose_partition(RoutingKey::None, n, now_ms) as i32, expected);
    }

    #[test]
    fn custom_router_accepts_exactly_the_valid_range(n in any_partition_count(), answer in any::<i64>()) {
        let router = CustomRouter::new(move |_: RoutingKey<'_>, _: PartitionCount| answer);
        let result = router.choose_partition(RoutingKey::None, n);
        if (0..i64::from(n.get())).contains(&answer) {
            prop_assert_eq!(result.map(i64::from), Ok(answer));
        } else {
            prop_assert_eq!(
                result.unwrap_err().to_string(),
                format!("Illegal partition index chosen by the message routing policy: {answer}")
            );
        }
    }
}

#[test]
fn partition_count_validation() {
    use pulsar_routing::PartitionCountError;
    assert_eq!(PartitionCount::new(0), Err(PartitionCountError::Zero));
    assert_eq!(
        PartitionCount::from_i64(-1),
        Err(PartitionCountError::Negative)
    );
    assert_eq!(
        PartitionCount::new(1 << 31),
        Err(PartitionCountError::TooLarge)
    );
    assert_eq!(
        PartitionCount::from_i64(i64::MAX),
        Err(PartitionCountError::TooLarge)
    );
    assert_eq!(
        PartitionCount::try_from(usize::MAX),
        Err(PartitionCountError::TooLarge)
    );
    assert_eq!(
        PartitionCount::new(PartitionCount::MAX).map(PartitionCount::get),
        Ok(i32::MAX as u32)
    );
    assert_eq!(PartitionCount::ONE.reduce(u32::MAX), 0);
}

#[test]
fn round_robin_router_is_shared_between_threads_without_losing_counts() {
    let n = PartitionCount::new(7).unwrap();
    let router = RoundRobinRouter::without_batching(HashingScheme::JavaStringHash, 0);
    let per_thread = 7 * 10_000;
    let counts = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut counts = [0u32; 7];
                    for _ in 0..per_thread {
                        counts[router.choose_partition(RoutingKey::None, n, 0) as usize] += 1;
                    }
                    counts
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .fold([0u32; 7], |mut acc, c| {
                acc.iter_mut().zip(c).for_each(|(a, b)| *a += b);
                acc
            })
    });
    // 4 * 70000 consecutive counter values cover each residue equally.
    assert_eq!(counts, [4 * 10_000; 7]);
}

#[test]
fn routing_mode_rules_and_messages() {
    use pulsar_routing::{MessageRoutingMode as Mode, partition_switch_ms, resolve_routing_mode};
    assert_eq!(
        resolve_routing_mode(Some(Mode::CustomPartition), false)
            .unwrap_err()
            .to_string(),
        "When 'messageRoutingMode' is CustomPartition, 'messageRouter' should be set"
    );
    assert_eq!(
        resolve_routing_mode(Some(Mode::SinglePartition), true)
            .unwrap_err()
            .to_string(),
        "When 'messageRouter' is set, 'messageRoutingMode' should be set as CustomPartition"
    );
    assert_eq!(
        resolve_routing_mode(Some(Mode::SinglePartition), false),
        Ok(Mode::SinglePartition)
    );
    assert_eq!(
        resolve_routing_mode(Some(Mode::CustomPartition), true),
        Ok(Mode::CustomPartition)
    );
    // Spec 3.3: 5 ms x 10 = 50 ms; 1500 us x 3 = 4500 us, truncated to 4 ms.
    assert_eq!(partition_switch_ms(10, 5_000), Ok(50));
    assert_eq!(partition_switch_ms(3, 1_500), Ok(4));
    assert_eq!(
        partition_switch_ms(0, 1_000).unwrap_err().to_string(),
        "configured value for partition switch frequency must be >= 1"
    );
    assert_eq!(
        partition_switch_ms(1, 999).unwrap_err().to_string(),
        "configured value for batch delay must be at least 1ms"
    );
}

#[test]
fn hashing_scheme_names_round_trip() {
    for scheme in [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash] {
        assert_eq!(scheme.name().parse::<HashingScheme>(), Ok(scheme));
    }
    assert_eq!(
        "Murmur3_32Hash".parse::<HashingScheme>(),
        Ok(HashingScheme::Murmur3_32Hash)
    );
    assert!("BoostHash".parse::<HashingScheme>().is_err());
    assert_eq!(HashingScheme::default(), HashingScheme::JavaStringHash);
}

proptest! {
    #[test]
    fn utf16_keys_route_like_their_string(s in any::<String>(), n in any_partition_count(), scheme in any_scheme()) {
        let units: Vec<u16> = s.encode_utf16().collect();
        prop_assert_eq!(RoutingKey::KeyUtf16(&units).partition(scheme, n), RoutingKey::Key(&s).partition(scheme, n));
    }

    #[test]
    fn lone_surrogates_hash_as_question_marks_under_murmur3(prefix in "[a-z]{0,70}", surrogate in 0xd800u16..0xe000) {
        let mut units: Vec<u16> = prefix.encode_utf16().collect();
        units.push(surrogate);
        let with_mark = format!("{prefix}?");
        prop_assert_eq!(
            RoutingKey::KeyUtf16(&units).hash(HashingScheme::Murmur3_32Hash),
            Some(murmur3_32(with_mark.as_bytes()))
        );
        prop_assert_eq!(
            RoutingKey::KeyUtf16(&units).hash(HashingScheme::JavaStringHash),
            Some(java_string_hashcode_utf16(&units) as u32 & 0x7fff_ffff)
        );
    }
}
