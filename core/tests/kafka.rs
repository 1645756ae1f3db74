//! Kafka's partitioners against values nobody here computed: kafka-python's
//! murmur2 and `DefaultPartitioner` on 10,000 keys, and librdkafka's own
//! unit-test vectors; then the sticky state machines on worked sequences.

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use common::unhex;
use pulsar_routing::PartitionCount;
use pulsar_routing::kafka::{
    Availability, BuiltInPartitioner, JavaClientPartitioner, KafkaError, LibrdkafkaPartitioner,
    LibrdkafkaProducer, Murmur2Hasher, PartitionLoadStats, RdRandom, StickyChoice,
    default_sticky_linger_ms, fnv1a, murmur2, partition_for_key, random_partition, to_positive,
};
use serde_json::Value;

fn count(n: u32) -> PartitionCount {
    PartitionCount::new(n).expect("valid count")
}

/// The committed kafka-python vectors (see testdata/kafka/README.md).
fn kafka_python_vectors() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/kafka/murmur2_kafka_python.jsonl.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("readable")).expect("JSON"))
        .collect()
}

#[test]
fn kafka_python_murmur2_and_default_partitioner() {
    let rows = kafka_python_vectors();
    assert_eq!(rows.len(), 10_000);
    for row in &rows {
        let key = unhex(row["key_hex"].as_str().expect("hex"));
        let n = count(row["num_partitions"].as_u64().expect("n") as u32);
        let expected_hash = row["murmur2"].as_u64().expect("hash");
        let expected_partition = row["partition"].as_u64().expect("partition");
        assert_eq!(u64::from(murmur2(&key)), expected_hash, "key {key:02x?}");
        assert_eq!(
            u64::from(partition_for_key(&key, n)),
            expected_partition,
            "key {key:02x?}, n {n}"
        );
        // librdkafka's Java-compatible partitioners give the same answer.
        for partitioner in [
            LibrdkafkaPartitioner::Murmur2,
            LibrdkafkaPartitioner::Murmur2Random,
        ] {
            assert_eq!(
                partitioner.partition_for_key(Some(&key), n).map(u64::from),
                Some(expected_partition)
            );
        }
        // The streaming hasher, fed in two pieces.
        let mut hasher = Murmur2Hasher::new(key.len() as u64);
        let (a, b) = key.split_at(key.len() / 3);
        hasher.update(a).update(b);
        assert_eq!(hasher.finalize().map(u64::from), Ok(expected_hash));
    }
}

#[test]
fn librdkafka_unit_test_vectors() {
    // rdmurmur2.c: "java_murmur2_results" (some librdkafka versions list
    // them with bit 31 cleared, others as the raw 0xd067cf64...).
    for (key, raw, positive) in [
        ("kafka", 0xd067_cf64u32, 1_348_980_580u32),
        ("amqp", 0x2dc2_e442, 767_747_138),
        ("giberish123456789", 0x8f55_2b0c, 257_239_820),
    ] {
        assert_eq!(murmur2(key.as_bytes()), raw, "{key}");
        assert_eq!(to_positive(murmur2(key.as_bytes())), positive, "{key}");
    }
    // Kafka's `Utils.murmur2(new byte[0])`: the seed mixed with length 0.
    assert_eq!(murmur2(b""), 275_646_681);
    // rdfnv1a.c: values from Go's hash/fnv, including "" and NULL.
    let unaligned = "PreAmbleWillBeRemoved,ThePrePartThatIs";
    for (key, expected) in [
        ("kafka", 0x0d33_c4e1u32),
        ("giberish123456789", 0x77a5_8295),
        ("1234", 0x023b_dd03),
        ("234", 0x2dea_3cd2),
        ("34", 0x740f_a83e),
        ("4", 0x310c_a263),
        (unaligned, 0x65cb_d69c),
        (&unaligned[1..], 0x6e49_c79a),
        (&unaligned[2..], 0x69ee_d356),
        (&unaligned[3..], 0x6abc_c023),
        ("", 0x7ee3_623b),
    ] {
        assert_eq!(fnv1a(key.as_bytes()), expected, "{key}");
    }
}

#[test]
fn to_positive_is_a_mask_not_abs() {
    assert_eq!(to_positive(u32::MAX), 0x7fff_ffff);
    assert_eq!(to_positive(0x8000_0000), 0);
}

#[test]
fn librdkafka_null_and_empty_keys() {
    let n = count(7);
    let empty: Option<&[u8]> = Some(b"");
    use LibrdkafkaPartitioner as P;
    // The exported functions.
    assert_eq!(P::Random.partition_for_key(Some(b"k"), n), None);
    assert_eq!(P::Consistent.partition_for_key(None, n), Some(0));
    assert_eq!(P::Consistent.partition_for_key(empty, n), Some(0));
    assert_eq!(P::ConsistentRandom.partition_for_key(None, n), None);
    assert_eq!(P::ConsistentRandom.partition_for_key(empty, n), None);
    assert_eq!(
        P::ConsistentRandom.partition_for_key(Some(b"k"), n),
        Some(pulsar_routing::crc32(b"k") % 7)
    );
    let murmur_empty = (murmur2(b"") & 0x7fff_ffff) % 7;
    assert_eq!(P::Murmur2.partition_for_key(None, n), Some(murmur_empty));
    assert_eq!(P::Murmur2Random.partition_for_key(None, n), None);
    assert_eq!(
        P::Murmur2Random.partition_for_key(empty, n),
        Some(murmur_empty)
    );
    assert_eq!(P::Fnv1a.partition_for_key(None, n), Some(0x7ee3_623b % 7));
    assert_eq!(P::Fnv1aRandom.partition_for_key(None, n), None);
    assert_eq!(
        P::Fnv1aRandom.partition_for_key(empty, n),
        Some(0x7ee3_623b % 7)
    );
    // The random fallback re-rolls once when the first pick has no leader.
    let draws = RdRandom {
        first: 3,
        second: 12,
    };
    assert_eq!(
        P::Murmur2Random.partition(None, n, draws, Availability::All),
        3
    );
    assert_eq!(
        P::Murmur2Random.partition(None, n, draws, Availability::Only(&[1, 2])),
        5
    );
    assert_eq!(random_partition(n, draws, Availability::Only(&[])), 5);
    // Names round-trip.
    for p in P::ALL {
        assert_eq!(p.name().parse::<P>(), Ok(p));
    }
    assert_eq!(P::default(), P::ConsistentRandom);
    assert!("Murmur2".parse::<P>().is_err());
}

#[test]
fn librdkafka_producer_sticks_for_the_linger() {
    let n = count(4);
    let all = Availability::All;
    let mut producer =
        LibrdkafkaProducer::new(LibrdkafkaPartitioner::Murmur2Random, 10).expect("valid");
    // Before the clock passes the linger, no partition was ever drawn.
    assert_eq!(
        producer.partition(None, n, 5_000, RdRandom::one(1), all),
        Err(KafkaError::StickyPartitionUnassigned)
    );
    assert_eq!(
        producer.partition(None, n, 20_000, RdRandom::one(1), all),
        Ok(1)
    );
    // Exactly the linger later is not due yet (`diff > 0`).
    assert_eq!(
        producer.partition(None, n, 30_000, RdRandom::one(2), all),
        Ok(1)
    );
    assert_eq!(
        producer.partition(None, n, 30_001, RdRandom::one(2), all),
        Ok(2)
    );
    // A keyed message does not disturb the sticky partition; under
    // murmur2_random an empty key is hashed, not sticky.
    assert_eq!(
        producer.partition(Some(b"k"), n, 30_002, RdRandom::one(3), all),
        Ok((murmur2(b"k") & 0x7fff_ffff) % 4)
    );
    assert_eq!(
        producer.partition(Some(b""), n, 30_003, RdRandom::one(3), all),
        Ok((murmur2(b"") & 0x7fff_ffff) % 4)
    );
    // The sticky partition loses its leader: re-drawn at once.
    assert_eq!(
        producer.partition(
            None,
            n,
            30_004,
            RdRandom::one(3),
            Availability::Only(&[0, 1, 3])
        ),
        Ok(3)
    );
    assert_eq!(producer.sticky_partition(), Some(3));

    // consistent_random: an empty key is sticky too.
    let mut default = LibrdkafkaProducer::new(LibrdkafkaPartitioner::default(), 10).expect("valid");
    assert_eq!(
        default.partition(Some(b""), n, 1_000_000, RdRandom::one(2), all),
        Ok(2)
    );
    assert_eq!(
        default.partition(None, n, 1_000_001, RdRandom::one(3), all),
        Ok(2)
    );
    // random: never sticky.
    let mut random = LibrdkafkaProducer::new(LibrdkafkaPartitioner::Random, 10).expect("valid");
    assert_eq!(
        random.partition(None, n, 1_000_000, RdRandom::one(2), all),
        Ok(2)
    );
    assert_eq!(
        random.partition(None, n, 1_000_001, RdRandom::one(3), all),
        Ok(3)
    );
    // A linger of 0 draws for every message.
    let mut eager = LibrdkafkaProducer::new(LibrdkafkaPartitioner::Consistent, 0).expect("valid");
    assert_eq!(eager.partition(None, n, 1, RdRandom::one(2), all), Ok(2));
    assert_eq!(eager.partition(None, n, 2, RdRandom::one(3), all), Ok(3));

    assert_eq!(
        LibrdkafkaProducer::new(LibrdkafkaPartitioner::Random, 900_001).map(|_| ()),
        Err(KafkaError::StickyLingerOutOfRange(900_001))
    );
    assert_eq!(default_sticky_linger_ms(5.0), 10);
    assert_eq!(default_sticky_linger_ms(1e9), 900_000);
}

#[test]
fn built_in_partitioner_switches_after_batch_size_bytes() {
    let n = count(5);
    let mut sticky = BuiltInPartitioner::new(1000).expect("valid");
    assert_eq!(sticky.peek_partition(n, &StickyChoice::uniform(8)), Ok(3));
    // Held back while the batch is not full, then forced at twice the size.
    assert_eq!(
        sticky.update_partition_info(999, true, n, &StickyChoice::uniform(0)),
        Ok(None)
    );
    assert_eq!(
        sticky.update_partition_info(1, false, n, &StickyChoice::uniform(0)),
        Ok(None)
    );
    assert_eq!(sticky.current(), Some((3, 1000)));
    assert_eq!(
        sticky.update_partition_info(1000, false, n, &StickyChoice::uniform(6)),
        Ok(Some(1))
    );
    assert_eq!(sticky.current(), Some((1, 0)));
    // `toPositive` of the random int, not its absolute value.
    let mut negative = BuiltInPartitioner::new(1).expect("valid");
    assert_eq!(
        negative.peek_partition(n, &StickyChoice::uniform(0xffff_fffe)),
        Ok(0x7fff_fffe % 5)
    );
    assert_eq!(
        BuiltInPartitioner::new(0).map(|_| ()),
        Err(KafkaError::InvalidStickyBatchSize(0))
    );
    assert_eq!(BuiltInPartitioner::for_batch_size(0).sticky_batch_size(), 1);
}

#[test]
fn built_in_partitioner_picks_among_available_partitions() {
    let n = count(6);
    let mut sticky = BuiltInPartitioner::new(100).expect("valid");
    let choice = StickyChoice {
        random: 7,
        availability: Availability::Only(&[5, 2, 4]),
        load: None,
    };
    // availablePartitions.get(7 % 3) in metadata order.
    assert_eq!(sticky.peek_partition(n, &choice), Ok(2));
    let bad = StickyChoice {
        random: 0,
        availability: Availability::Only(&[9]),
        load: None,
    };
    assert_eq!(
        BuiltInPartitioner::new(1)
            .expect("valid")
            .peek_partition(n, &bad),
        Err(KafkaError::PartitionOutOfRange {
            partition: 9,
            num_partitions: 6
        })
    );
}

#[test]
fn adaptive_partitioning_weights_short_queues() {
    let n = count(3);
    let ids = [0, 1, 2];
    let mut queues = [0, 3, 1];
    let load = PartitionLoadStats::build(&mut queues, &ids, 3)
        .expect("valid shape")
        .expect("adaptive");
    assert_eq!(load.cumulative_frequency_table(), &[4, 5, 8]);
    // Kafka's comment: 0..=3 map to partition 0, 4 to 1, 5..=7 to 2.
    let expected = [0, 0, 0, 0, 1, 2, 2, 2, 0, 0];
    for (random, want) in expected.iter().enumerate() {
        let choice = StickyChoice {
            random: random as u32,
            availability: Availability::All,
            load: Some(load),
        };
        let mut sticky = BuiltInPartitioner::new(1).expect("valid");
        assert_eq!(
            sticky.peek_partition(n, &choice),
            Ok(*want),
            "random {random}"
        );
    }
    // Java switches adaptive partitioning off in these cases.
    let mut equal = [2, 2, 2];
    assert_eq!(PartitionLoadStats::build(&mut equal, &ids, 3), Ok(None));
    let mut one = [5];
    assert_eq!(PartitionLoadStats::build(&mut one, &[0], 1), Ok(None));
    let mut excluded = [2, 2, 2];
    // Equal queues but one partition excluded: adaptive with 2 entries.
    let partial = PartitionLoadStats::build(&mut excluded, &ids, 2)
        .expect("valid shape")
        .expect("adaptive");
    assert_eq!(partial.cumulative_frequency_table(), &[1, 2]);
    assert_eq!(partial.partition_ids(), &[0, 1]);
    let mut short = [1, 2];
    assert!(PartitionLoadStats::build(&mut short, &ids, 2).is_err());
}

#[test]
fn java_client_partitioner_routes_keys_and_sticks_the_rest() {
    let n = count(4);
    let mut producer = JavaClientPartitioner::new(100, false);
    let pick = |r| StickyChoice::uniform(r);
    assert_eq!(
        producer.append(Some(b""), 10, true, n, &pick(0)),
        Ok(partition_for_key(b"", n))
    );
    assert_eq!(producer.append(None, 60, true, n, &pick(1)), Ok(1));
    assert_eq!(producer.append(None, 60, true, n, &pick(2)), Ok(1));
    // 120 bytes >= 100: the next keyless record draws with its own random.
    assert_eq!(producer.append(None, 10, true, n, &pick(3)), Ok(3));
    // partitioner.ignore.keys: keys are sticky too.
    let mut ignoring = JavaClientPartitioner::new(100, true);
    assert_eq!(ignoring.append(Some(b"k"), 10, true, n, &pick(2)), Ok(2));
}

#[test]
fn streaming_murmur2_refuses_a_wrong_length() {
    let mut hasher = Murmur2Hasher::new(3);
    hasher.update(b"ab");
    let err = hasher.finalize().expect_err("short");
    assert_eq!(err.declared, 3);
    assert_eq!(err.fed, 2);
    assert!(err.to_string().contains("announced 3 bytes but fed 2"));
}
