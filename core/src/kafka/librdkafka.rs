//! librdkafka's partitioners (`rd_kafka_msg_partitioner_*`, exported in
//! `rdkafka.h`) and the producer path around them (`rd_kafka_msg_partitioner`
//! with its time-based sticky partition for keyless messages).

use core::fmt;
use core::str::FromStr;

use super::availability::Availability;
use super::error::KafkaError;
use super::fnv1a::fnv1a;
use super::murmur2::{murmur2, to_positive};
use crate::crc32::crc32;
use crate::partition_count::PartitionCount;

/// The `partitioner` topic property.
///
/// | name | key given | `NULL` key (exported function) | empty key (exported function) |
/// |---|---|---|---|
/// | `random` | random | random | random |
/// | `consistent` | `crc32 % n` | `crc32("") % n` = 0 | 0 |
/// | `consistent_random` (default) | `crc32 % n` | random | random |
/// | `murmur2` | `(murmur2 & 0x7fffffff) % n` | murmur2 of no bytes | murmur2 of no bytes |
/// | `murmur2_random` | as `murmur2` | random | murmur2 of no bytes |
/// | `fnv1a` | `fnv1a % n` | fnv1a of no bytes | fnv1a of no bytes |
/// | `fnv1a_random` | as `fnv1a` | random | fnv1a of no bytes |
///
/// In a producer, a `NULL` key never reaches the partitioner (nor does an
/// empty key under `consistent_random`): it goes to the sticky partition
/// instead, unless the partitioner is `random`. See [`LibrdkafkaProducer`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LibrdkafkaPartitioner {
    /// `random`: a random available partition.
    Random,
    /// `consistent`: CRC-32 of the key.
    Consistent,
    /// `consistent_random`, the default: CRC-32, random for empty keys.
    #[default]
    ConsistentRandom,
    /// `murmur2`: Java-compatible murmur2.
    Murmur2,
    /// `murmur2_random`: murmur2, random for `NULL` keys (Java's default
    /// partitioner before KIP-480).
    Murmur2Random,
    /// `fnv1a`: FNV-1a, Sarama-compatible.
    Fnv1a,
    /// `fnv1a_random`: FNV-1a, random for `NULL` keys.
    Fnv1aRandom,
}

impl LibrdkafkaPartitioner {
    /// Every partitioner, in librdkafka's documentation order.
    pub const ALL: [Self; 7] = [
        Self::Random,
        Self::Consistent,
        Self::ConsistentRandom,
        Self::Murmur2,
        Self::Murmur2Random,
        Self::Fnv1a,
        Self::Fnv1aRandom,
    ];

    /// The value of the `partitioner` property, e.g. `"murmur2_random"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`LibrdkafkaPartitioner::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::Random => c"random",
            Self::Consistent => c"consistent",
            Self::ConsistentRandom => c"consistent_random",
            Self::Murmur2 => c"murmur2",
            Self::Murmur2Random => c"murmur2_random",
            Self::Fnv1a => c"fnv1a",
            Self::Fnv1aRandom => c"fnv1a_random",
        }
    }

    /// The partition the exported function computes without randomness, or
    /// `None` when it would pick at random. `None` as the key is C's `NULL`;
    /// `Some(b"")` is a non-`NULL` empty key.
    ///
    /// ```
    /// use pulsar_routing::PartitionCount;
    /// use pulsar_routing::kafka::LibrdkafkaPartitioner as P;
    /// let n = PartitionCount::new(4)?;
    /// assert_eq!(P::Consistent.partition_for_key(None, n), Some(0));
    /// assert_eq!(P::ConsistentRandom.partition_for_key(Some(b""), n), None);
    /// assert_eq!(P::Murmur2Random.partition_for_key(Some(b""), n).is_some(), true);
    /// assert_eq!(P::Murmur2Random.partition_for_key(None, n), None);
    /// # Ok::<(), pulsar_routing::PartitionCountError>(())
    /// ```
    #[must_use]
    pub fn partition_for_key(
        self,
        key: Option<&[u8]>,
        num_partitions: PartitionCount,
    ) -> Option<u32> {
        let bytes = key.unwrap_or(&[]);
        let hash = match self {
            Self::Random => return None,
            Self::ConsistentRandom if bytes.is_empty() => return None,
            Self::Murmur2Random | Self::Fnv1aRandom if key.is_none() => return None,
            Self::Consistent | Self::ConsistentRandom => crc32(bytes),
            Self::Murmur2 | Self::Murmur2Random => to_positive(murmur2(bytes)),
            Self::Fnv1a | Self::Fnv1aRandom => fnv1a(bytes),
        };
        // Every hash is unsigned and `% partition_cnt` is unsigned in C.
        Some(num_partitions.reduce(hash))
    }

    /// The exported `rd_kafka_msg_partitioner_<name>` function: the keyed
    /// result, or [`random_partition`] where it picks at random.
    #[must_use]
    pub fn partition(
        self,
        key: Option<&[u8]>,
        num_partitions: PartitionCount,
        random: RdRandom,
        availability: Availability<'_>,
    ) -> u32 {
        self.partition_for_key(key, num_partitions)
            .unwrap_or_else(|| random_partition(num_partitions, random, availability))
    }
}

impl fmt::Display for LibrdkafkaPartitioner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LibrdkafkaPartitioner {
    type Err = UnknownLibrdkafkaPartitioner;

    /// Accepts the `partitioner` property values.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or(UnknownLibrdkafkaPartitioner)
    }
}

/// The text did not name a librdkafka partitioner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownLibrdkafkaPartitioner;

impl fmt::Display for UnknownLibrdkafkaPartitioner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown librdkafka partitioner: expected random, consistent, consistent_random, murmur2, murmur2_random, fnv1a or fnv1a_random",
        )
    }
}

impl core::error::Error for UnknownLibrdkafkaPartitioner {}

/// The two random draws `rd_kafka_msg_partitioner_random` may make, as
/// `rand_r` returns them (`0..=RAND_MAX`); each is reduced with
/// `% partition_cnt` as `rd_jitter(0, partition_cnt - 1)` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RdRandom {
    /// The first draw.
    pub first: u32,
    /// The second draw, used only when the first partition has no leader.
    pub second: u32,
}

impl RdRandom {
    /// Both draws equal: for a caller that knows every partition is up.
    #[must_use]
    pub const fn one(value: u32) -> Self {
        Self {
            first: value,
            second: value,
        }
    }
}

/// `rd_kafka_msg_partitioner_random`: a random partition; if it has no
/// leader, a second random partition, taken whether it has one or not.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::kafka::{Availability, RdRandom, random_partition};
/// let n = PartitionCount::new(4)?;
/// let draws = RdRandom { first: 5, second: 6 };
/// assert_eq!(random_partition(n, draws, Availability::All), 1);
/// assert_eq!(random_partition(n, draws, Availability::Only(&[0, 2])), 2);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[must_use]
pub fn random_partition(
    num_partitions: PartitionCount,
    random: RdRandom,
    availability: Availability<'_>,
) -> u32 {
    let first = num_partitions.reduce(random.first);
    if availability.contains(first, num_partitions.get()) {
        first
    } else {
        num_partitions.reduce(random.second)
    }
}

/// `sticky.partitioning.linger.ms` when the application did not set it:
/// `min(900000, (int)(2 * linger.ms))`, 10 ms for the default
/// `linger.ms = 5`.
///
/// ```
/// assert_eq!(pulsar_routing::kafka::default_sticky_linger_ms(5.0), 10);
/// ```
#[must_use]
pub fn default_sticky_linger_ms(linger_ms: f64) -> i64 {
    // C's conversion truncates toward zero, as `as` does; `as` also
    // saturates where C would be undefined.
    let twice = (2.0 * linger_ms) as i64;
    if twice > 900_000 { 900_000 } else { twice }
}

/// librdkafka's producer-side choice for one topic (`rd_kafka_msg_partitioner`
/// with `RD_KAFKA_PARTITION_UA`, i.e. no explicit partition).
///
/// A message with a `NULL` key (or an empty key under `consistent_random`)
/// goes to the topic's sticky partition, unless the partitioner is
/// `random`. The sticky partition is re-drawn at random when
/// `sticky.partitioning.linger.ms` has passed since the last draw
/// (`rd_interval` on microseconds), or at once when it has no leader. A
/// linger of 0 re-draws for every message. Other messages go to the
/// configured partitioner.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::kafka::{Availability, LibrdkafkaPartitioner, LibrdkafkaProducer, RdRandom};
/// let n = PartitionCount::new(8)?;
/// let mut producer = LibrdkafkaProducer::new(LibrdkafkaPartitioner::ConsistentRandom, 10)?;
/// let all = Availability::All;
/// // The first keyless message draws 3; within 10 ms the partition sticks.
/// assert_eq!(producer.partition(None, n, 1_000_000, RdRandom::one(3), all)?, 3);
/// assert_eq!(producer.partition(Some(b""), n, 1_009_000, RdRandom::one(5), all)?, 3);
/// // More than 10 ms after the draw: a new one.
/// assert_eq!(producer.partition(None, n, 1_010_001, RdRandom::one(5), all)?, 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LibrdkafkaProducer {
    partitioner: LibrdkafkaPartitioner,
    sticky_linger_us: i64,
    /// `rkt_sticky_partition`; -1 is `RD_KAFKA_PARTITION_UA`.
    sticky_partition: i64,
    /// `rkt_sticky_intvl.ri_ts_last`, in microseconds.
    last_draw_us: i64,
}

impl LibrdkafkaProducer {
    /// A topic handle with this partitioner and
    /// `sticky.partitioning.linger.ms` (see [`default_sticky_linger_ms`]).
    ///
    /// # Errors
    /// [`KafkaError::StickyLingerOutOfRange`] outside `0..=900000`, as
    /// librdkafka's configuration check.
    pub const fn new(
        partitioner: LibrdkafkaPartitioner,
        sticky_linger_ms: i64,
    ) -> Result<Self, KafkaError> {
        if sticky_linger_ms < 0 || sticky_linger_ms > 900_000 {
            return Err(KafkaError::StickyLingerOutOfRange(sticky_linger_ms));
        }
        Ok(Self {
            partitioner,
            sticky_linger_us: sticky_linger_ms * 1000,
            sticky_partition: -1,
            last_draw_us: 0,
        })
    }

    /// The configured partitioner.
    #[must_use]
    pub const fn partitioner(&self) -> LibrdkafkaPartitioner {
        self.partitioner
    }

    /// The current sticky partition, if one was drawn.
    #[must_use]
    pub const fn sticky_partition(&self) -> Option<u32> {
        if self.sticky_partition < 0 {
            None
        } else {
            Some(self.sticky_partition as u32)
        }
    }

    /// The partition of a message with `key` (`None` = `NULL`) produced at
    /// `now_us` (librdkafka's monotonic `rd_clock()`, microseconds).
    /// `random` is used only for a random draw.
    ///
    /// # Errors
    /// [`KafkaError::StickyPartitionUnassigned`] when no sticky partition
    /// was ever drawn because `now_us` is within the linger of the clock's
    /// origin.
    pub fn partition(
        &mut self,
        key: Option<&[u8]>,
        num_partitions: PartitionCount,
        now_us: i64,
        random: RdRandom,
        availability: Availability<'_>,
    ) -> Result<u32, KafkaError> {
        let keyless = match key {
            None => true,
            Some(bytes) => {
                bytes.is_empty() && self.partitioner == LibrdkafkaPartitioner::ConsistentRandom
            }
        };
        if self.partitioner == LibrdkafkaPartitioner::Random || !keyless {
            return Ok(self
                .partitioner
                .partition(key, num_partitions, random, availability));
        }
        self.sticky(num_partitions, now_us, random, availability)
    }

    /// `rd_kafka_msg_sticky_partition`.
    fn sticky(
        &mut self,
        num_partitions: PartitionCount,
        now_us: i64,
        random: RdRandom,
        availability: Availability<'_>,
    ) -> Result<u32, KafkaError> {
        let n = num_partitions.get();
        let current_available =
            u32::try_from(self.sticky_partition).is_ok_and(|p| availability.contains(p, n));
        if !current_available {
            // rd_interval_expedite(&intvl, 0)
            self.last_draw_us = 0;
        }
        // rd_interval: due when `now - (last + interval) > 0`.
        let due = now_us.wrapping_sub(self.last_draw_us.wrapping_add(self.sticky_linger_us)) > 0;
        if due {
            self.last_draw_us = now_us;
            self.sticky_partition =
                i64::from(random_partition(num_partitions, random, availability));
        }
        match u32::try_from(self.sticky_partition) {
            // The partition count may have shrunk since the draw: librdkafka
            // then fails the message.
            Ok(p) if p < n => Ok(p),
            Ok(p) => Err(KafkaError::UnknownPartition(p as i32)),
            Err(_) => Err(KafkaError::StickyPartitionUnassigned),
        }
    }
}
