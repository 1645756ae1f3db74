//! Kafka's partitioners on arbitrary keys, partition counts, batch sizes,
//! randoms, availability lists, load statistics and clocks:
//!
//! - `murmur2` (one shot and streamed in arbitrary chunks) equals a naive
//!   transcription of Kafka's `Utils.murmur2`, and `partition_for_key` is
//!   `toPositive(murmur2(key)) % n`;
//! - every librdkafka partitioner, the librdkafka sticky producer, the
//!   Java client's `BuiltInPartitioner` and `JavaClientPartitioner` give a
//!   partition in `[0, n)` or a documented `KafkaError`, never a panic.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::PartitionCount;
use pulsar_routing::kafka::{
    Availability, BuiltInPartitioner, JavaClientPartitioner, KafkaError, LibrdkafkaPartitioner,
    LibrdkafkaProducer, Murmur2Hasher, PartitionLoadStats, RdRandom, StickyChoice, murmur2,
    partition_for_key,
};
use pulsar_routing_fuzz::models::kafka_murmur2;

const MAX_RECORDS: usize = 16;

#[derive(Arbitrary, Debug)]
struct Record {
    key: Option<Vec<u8>>,
    bytes: i32,
    enable_switch: bool,
    random: u32,
    second: u32,
    step_us: u32,
}

#[derive(Arbitrary, Debug)]
struct Input {
    key: Vec<u8>,
    chunks: Vec<u8>,
    partitions: u32,
    small_partitions: bool,
    partitioner: u8,
    linger_ms: i64,
    batch_size: i32,
    ignore_keys: bool,
    available: Option<Vec<u32>>,
    queue_sizes: Vec<i32>,
    load_ids: Vec<u32>,
    load_length: u8,
    start_us: i64,
    records: Vec<Record>,
}

fuzz_target!(|input: Input| {
    let key = &input.key;
    let expected = kafka_murmur2(key);
    assert_eq!(murmur2(key), expected);
    let mut streamed = Murmur2Hasher::new(key.len() as u64);
    let mut rest: &[u8] = key;
    for &c in &input.chunks {
        let (head, tail) = rest.split_at(usize::from(c).min(rest.len()));
        streamed.update(head);
        rest = tail;
    }
    streamed.update(rest);
    assert_eq!(streamed.finalize(), Ok(expected));

    let n = if input.small_partitions {
        1 + input.partitions % 16
    } else {
        input.partitions
    };
    let Ok(count) = PartitionCount::new(n) else {
        return;
    };
    assert_eq!(partition_for_key(key, count), (expected & 0x7fff_ffff) % n);

    let availability = match &input.available {
        None => Availability::All,
        Some(ids) => Availability::Only(ids),
    };
    for p in LibrdkafkaPartitioner::ALL {
        for k in [None, Some(&key[..]), Some(&[][..])] {
            if let Some(q) = p.partition_for_key(k, count) {
                assert!(q < n);
            }
            let q = p.partition(k, count, RdRandom::one(input.partitions), availability);
            assert!(q < n);
        }
    }
    let partitioner = LibrdkafkaPartitioner::ALL[usize::from(input.partitioner) % 7];
    let mut rd = match LibrdkafkaProducer::new(partitioner, input.linger_ms) {
        Ok(rd) => Some(rd),
        Err(e) => {
            assert_eq!(e, KafkaError::StickyLingerOutOfRange(input.linger_ms));
            None
        }
    };

    let mut queue_sizes = input.queue_sizes.clone();
    let load = match PartitionLoadStats::build(
        &mut queue_sizes,
        &input.load_ids,
        usize::from(input.load_length),
    ) {
        Ok(load) => load,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            None
        }
    };
    let mut sticky = BuiltInPartitioner::new(input.batch_size).ok();
    if sticky.is_none() {
        assert!(input.batch_size < 1);
    }
    let mut java = JavaClientPartitioner::new(input.batch_size, input.ignore_keys);
    let mut now = input.start_us;
    for r in input.records.iter().take(MAX_RECORDS) {
        now = now.saturating_add(i64::from(r.step_us));
        let choice = StickyChoice {
            random: r.random,
            availability,
            load,
        };
        let ok = |got: Result<u32, KafkaError>| match got {
            Ok(p) => assert!(p < n, "{p} of {n}"),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                assert!(
                    matches!(
                        e,
                        KafkaError::PartitionOutOfRange { .. }
                            | KafkaError::UnknownPartition(_)
                            | KafkaError::CorruptLoadStats(_)
                            | KafkaError::StickyPartitionUnassigned
                    ),
                    "{e:?}"
                );
            }
        };
        if let Some(rd) = rd.as_mut() {
            let random = RdRandom {
                first: r.random,
                second: r.second,
            };
            ok(rd.partition(r.key.as_deref(), count, now, random, availability));
        }
        if let Some(sticky) = sticky.as_mut() {
            ok(sticky.peek_partition(count, &choice));
            let switched = sticky.update_partition_info(r.bytes, r.enable_switch, count, &choice);
            ok(switched.map(|p| p.unwrap_or(0)));
        }
        let got = java.append(r.key.as_deref(), r.bytes, r.enable_switch, count, &choice);
        if let (Some(k), false) = (&r.key, input.ignore_keys) {
            assert_eq!(got, Ok(partition_for_key(k, count)));
        }
        ok(got);
    }
});
