//! Kafka's partitioners as a binding is given them: a keyed partitioner
//! by name (the Java client's or one of librdkafka's), and the draw of a
//! sticky partitioner from the caller's arrays.
//!
//! The C ABI borrows the caller's arrays and Python copies its lists; both
//! pair the load statistics, default their length and build the core's
//! [`StickyChoice`] here, so a draw means the same in either language.

use core::fmt;
use core::str::FromStr;

use pulsar_routing::PartitionCount;
use pulsar_routing::kafka::{
    Availability, KafkaError, LibrdkafkaPartitioner, PartitionLoadStats, StickyChoice,
    partition_for_key,
};

/// The partitioner a Kafka producer applies to a record's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyedPartitioner {
    /// The Java client (`"java"`): `toPositive(murmur2(key)) % n` for
    /// every non-null key, empty ones too; a null key goes to the sticky
    /// partition.
    Java,
    /// A librdkafka partitioner, by its `partitioner` property value.
    Librdkafka(LibrdkafkaPartitioner),
}

impl KeyedPartitioner {
    /// The partition of `key` (`None`: a null key), or `None` where the
    /// producer picks at random or sticks to a partition instead.
    #[must_use]
    pub fn partition(self, key: Option<&[u8]>, n: PartitionCount) -> Option<u32> {
        match self {
            Self::Java => key.map(|k| partition_for_key(k, n)),
            Self::Librdkafka(p) => p.partition_for_key(key, n),
        }
    }
}

impl FromStr for KeyedPartitioner {
    type Err = UnknownKafkaPartitioner;

    /// `"java"`, or a librdkafka `partitioner` value (`"murmur2_random"`,
    /// ...).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if name == "java" {
            return Ok(Self::Java);
        }
        name.parse()
            .map(Self::Librdkafka)
            .map_err(|_| UnknownKafkaPartitioner(name.to_owned()))
    }
}

/// A name that is neither `"java"` nor a librdkafka partitioner's; the
/// message quotes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKafkaPartitioner(pub String);

impl fmt::Display for UnknownKafkaPartitioner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown Kafka partitioner {:?}: expected java, random, consistent, consistent_random, murmur2, murmur2_random, fnv1a or fnv1a_random",
            self.0
        )
    }
}

impl std::error::Error for UnknownKafkaPartitioner {}

/// The partitions with a leader: `None` is every partition.
#[must_use]
pub fn availability(available: Option<&[u32]>) -> Availability<'_> {
    available.map_or(Availability::All, Availability::Only)
}

/// Adaptive partitioning's load statistics as the caller holds them, not
/// built yet.
#[derive(Debug)]
pub struct LoadInput<'a> {
    /// Batches queued per partition: a work array that building turns
    /// into the cumulative frequency table in place, as Java does.
    pub queue_sizes: &'a mut [i32],
    /// The partition of each queue size.
    pub partition_ids: &'a [u32],
    /// How many leading entries are usable partitions.
    pub length: usize,
}

impl<'a> LoadInput<'a> {
    /// The statistics of `queue_sizes`, of which the first `length` are
    /// usable partitions (by default all).
    #[must_use]
    pub fn new(
        queue_sizes: &'a mut [i32],
        partition_ids: &'a [u32],
        length: Option<usize>,
    ) -> Self {
        Self {
            length: length.unwrap_or(queue_sizes.len()),
            queue_sizes,
            partition_ids,
        }
    }
}

/// Pairs the queue sizes with their partition ids: both or neither
/// (`Ok(None)`: no load statistics).
///
/// # Errors
/// [`UnpairedLoadStats`] when only one of the two is given.
pub fn pair_load<Q, I>(
    queue_sizes: Option<Q>,
    partition_ids: Option<I>,
) -> Result<Option<(Q, I)>, UnpairedLoadStats> {
    match (queue_sizes, partition_ids) {
        (None, None) => Ok(None),
        (Some(queue_sizes), Some(partition_ids)) => Ok(Some((queue_sizes, partition_ids))),
        _ => Err(UnpairedLoadStats),
    }
}

/// Queue sizes without partition ids, or partition ids without queue
/// sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnpairedLoadStats;

impl fmt::Display for UnpairedLoadStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("queue_sizes and partition_ids go together")
    }
}

impl std::error::Error for UnpairedLoadStats {}

/// What a sticky partitioner reads when it draws a partition, with its
/// load statistics not built yet: building them rewrites the caller's
/// queue sizes, which waits until every argument of the call is checked.
#[derive(Debug)]
pub struct Draw<'a> {
    /// A random `int` (Java's `nextInt()`), as its unsigned bits.
    pub random: u32,
    /// The partitions with a leader; `None` is every partition.
    pub available: Option<&'a [u32]>,
    /// The load statistics, if any.
    pub load: Option<LoadInput<'a>>,
}

impl<'a> Draw<'a> {
    /// The core's choice, building the load statistics in place.
    ///
    /// # Errors
    /// The core's [`PartitionLoadStats::build`] errors.
    pub fn build(self) -> Result<StickyChoice<'a>, KafkaError> {
        let load = match self.load {
            Some(l) => PartitionLoadStats::build(l.queue_sizes, l.partition_ids, l.length)?,
            None => None,
        };
        Ok(StickyChoice {
            random: self.random,
            availability: availability(self.available),
            load,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hashes_every_non_null_key_and_librdkafka_names_parse() {
        let n = PartitionCount::new(12).unwrap();
        let java: KeyedPartitioner = "java".parse().unwrap();
        assert_eq!(java.partition(None, n), None);
        assert_eq!(
            java.partition(Some(b""), n),
            Some(partition_for_key(b"", n))
        );
        let rd: KeyedPartitioner = "murmur2_random".parse().unwrap();
        assert_eq!(
            rd,
            KeyedPartitioner::Librdkafka(LibrdkafkaPartitioner::Murmur2Random)
        );
        // murmur2_random picks at random for a NULL key only.
        assert_eq!(rd.partition(None, n), None);
        assert!(rd.partition(Some(b""), n).is_some());
        let err = "crc".parse::<KeyedPartitioner>().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown Kafka partitioner \"crc\": expected java")
        );
    }

    #[test]
    fn load_statistics_go_in_pairs_and_default_to_every_entry() {
        let mut queues = [1, 2, 3];
        let ids = [0, 1, 2];
        assert_eq!(pair_load::<&[i32], &[u32]>(None, None), Ok(None));
        assert_eq!(
            pair_load::<&[i32], _>(None, Some(&ids)),
            Err(UnpairedLoadStats)
        );
        let (q, i) = pair_load(Some(&mut queues[..]), Some(&ids[..]))
            .unwrap()
            .unwrap();
        let load = LoadInput::new(q, i, None);
        assert_eq!(load.length, 3);
        let draw = Draw {
            random: 7,
            available: None,
            load: Some(load),
        };
        let choice = draw.build().unwrap();
        assert_eq!(choice.random, 7);
        assert!(choice.load.is_some());
        // Java's table: the longest queue plus one, minus each queue,
        // accumulated (3, 2 + 3, 1 + 5).
        assert_eq!(queues, [3, 5, 6]);
    }
}
