//! Why a Kafka partitioner could not answer.

use core::fmt;

/// A Kafka partitioner's configuration or input was invalid.
///
/// The messages are those of the real clients where they have one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KafkaError {
    /// `BuiltInPartitioner` was given a batch size below 1 (Java throws
    /// `IllegalArgumentException`; `KafkaProducer` itself passes
    /// `max(1, batch.size)`).
    InvalidStickyBatchSize(i32),
    /// `updatePartitionLoadStats` was given arrays of different lengths or
    /// a length beyond them (Java `assert`s this).
    LoadStatsShape {
        /// `queueSizes.length`.
        queue_sizes: usize,
        /// `partitionIds.length`.
        partition_ids: usize,
        /// The number of leading entries to use.
        length: usize,
    },
    /// The load statistics' cumulative frequency table overflowed Java's
    /// `int`, so its total is not positive; Java would throw
    /// `ArithmeticException` or pick garbage.
    CorruptLoadStats(i32),
    /// A partition id taken from the availability list or the load
    /// statistics is not below the partition count.
    PartitionOutOfRange {
        /// The id.
        partition: u32,
        /// The partition count.
        num_partitions: u32,
    },
    /// librdkafka chose a partition at or above the partition count
    /// (`RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION`).
    UnknownPartition(i32),
    /// librdkafka's sticky partitioner has not picked a partition yet
    /// because less than `sticky.partitioning.linger.ms` has passed since
    /// the clock's origin: the record would wait on the unassigned (UA)
    /// partition.
    StickyPartitionUnassigned,
    /// `sticky.partitioning.linger.ms` outside librdkafka's range.
    StickyLingerOutOfRange(i64),
}

impl fmt::Display for KafkaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::InvalidStickyBatchSize(n) => {
                write!(f, "stickyBatchSize must be >= 1 but got {n}")
            }
            Self::LoadStatsShape {
                queue_sizes,
                partition_ids,
                length,
            } => write!(
                f,
                "partition load stats need as many queue sizes as partition ids and a length within them, got {queue_sizes} queue sizes, {partition_ids} partition ids and length {length}"
            ),
            Self::CorruptLoadStats(total) => write!(
                f,
                "partition load stats overflowed: the cumulative frequency total is {total}, not positive"
            ),
            Self::PartitionOutOfRange {
                partition,
                num_partitions,
            } => write!(
                f,
                "partition {partition} is not in the range [0...{num_partitions})"
            ),
            Self::UnknownPartition(p) => write!(f, "Local: Unknown partition ({p})"),
            Self::StickyPartitionUnassigned => f.write_str(
                "librdkafka has not chosen a sticky partition yet (less than sticky.partitioning.linger.ms since the clock's origin): the record waits on the unassigned partition",
            ),
            Self::StickyLingerOutOfRange(v) => write!(
                f,
                "Configuration property \"sticky.partitioning.linger.ms\" value {v} is outside allowed range 0..900000"
            ),
        }
    }
}

impl core::error::Error for KafkaError {}
