//! Kafka's partitioners, byte-for-byte, for comparing a Pulsar fleet with a
//! Kafka one or planning a migration between them.
//!
//! | client | keyed record | keyless record |
//! |---|---|---|
//! | Java (`KafkaProducer`, 3.3+) | [`partition_for_key`]: `toPositive(murmur2(key)) % n` | [`BuiltInPartitioner`]: sticky until `batch.size` bytes (KIP-794) |
//! | librdkafka | [`LibrdkafkaPartitioner`]: CRC-32, murmur2 or FNV-1a | [`LibrdkafkaProducer`]: sticky for `sticky.partitioning.linger.ms` |
//!
//! Kafka keys are the serialized key bytes, hashed as they are (Pulsar's
//! Java client hashes the Base64 text of byte keys instead). Kafka's
//! `murmur2` is MurmurHash2, not Pulsar's MurmurHash3: the same key lands on
//! unrelated partitions in the two systems.
//!
//! Random choices, byte counts and clocks are arguments, so every sequence
//! is reproducible.
//!
//! ```
//! use pulsar_routing::PartitionCount;
//! use pulsar_routing::kafka::{LibrdkafkaPartitioner, partition_for_key};
//!
//! let n = PartitionCount::new(10)?;
//! // librdkafka's `murmur2` partitioner is the Java client's keyed rule...
//! assert_eq!(LibrdkafkaPartitioner::Murmur2.partition_for_key(Some(b"user-42"), n),
//!            Some(partition_for_key(b"user-42", n)));
//! // ...but its default, `consistent_random`, hashes with CRC-32.
//! assert_eq!(LibrdkafkaPartitioner::ConsistentRandom.partition_for_key(Some(b"user-42"), n),
//!            Some(pulsar_routing::crc32(b"user-42") % 10));
//! # Ok::<(), pulsar_routing::PartitionCountError>(())
//! ```

mod availability;
mod error;
mod fnv1a;
mod java_client;
mod librdkafka;
mod murmur2;

pub use availability::Availability;
pub use error::KafkaError;
pub use fnv1a::fnv1a;
pub use java_client::{
    BuiltInPartitioner, JavaClientPartitioner, PartitionLoadStats, StickyChoice, partition_for_key,
};
pub use librdkafka::{
    LibrdkafkaPartitioner, LibrdkafkaProducer, RdRandom, UnknownLibrdkafkaPartitioner,
    default_sticky_linger_ms, random_partition,
};
pub use murmur2::{MURMUR2_SEED, Murmur2Hasher, Murmur2LengthMismatch, murmur2, to_positive};
