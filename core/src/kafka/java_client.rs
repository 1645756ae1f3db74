//! Kafka's Java producer: keyed records by murmur2, keyless records by the
//! built-in sticky partitioner of KIP-794 (`BuiltInPartitioner`, Kafka 3.3+).

use super::availability::Availability;
use super::error::KafkaError;
use super::murmur2::{murmur2, to_positive};
use crate::partition_count::PartitionCount;

/// `BuiltInPartitioner.partitionForKey`: `toPositive(murmur2(key)) % n`,
/// the partition of a record whose serialized key is `serialized_key`.
///
/// An empty key is a key (it hashes); only a `null` key is keyless.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::kafka::{murmur2, partition_for_key};
/// let n = PartitionCount::new(12)?;
/// assert_eq!(partition_for_key(b"kafka", n), (murmur2(b"kafka") & 0x7fff_ffff) % 12);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[must_use]
#[inline]
pub fn partition_for_key(serialized_key: &[u8], num_partitions: PartitionCount) -> u32 {
    num_partitions.reduce(to_positive(murmur2(serialized_key)))
}

/// Java's `Arrays.binarySearch(a, 0, len, key)`, including its answer on
/// unsorted input, so that even a garbage table picks what Java picks.
fn java_binary_search(a: &[i32], key: i32) -> i32 {
    let mut low: i32 = 0;
    let mut high: i32 = a.len() as i32 - 1;
    while low <= high {
        // `(low + high) >>> 1` on non-negative ints.
        let mid = ((low as u32 + high as u32) >> 1) as i32;
        let Some(&mid_val) = a.get(mid as usize) else {
            break;
        };
        if mid_val < key {
            low = mid.wrapping_add(1);
        } else if mid_val > key {
            high = mid.wrapping_sub(1);
        } else {
            return mid;
        }
    }
    low.wrapping_add(1).wrapping_neg()
}

/// The adaptive part of KIP-794: a cumulative frequency table built from
/// the partitions' queue sizes, so that a partition with a shorter queue is
/// more likely to be the next sticky partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartitionLoadStats<'a> {
    cumulative_frequency: &'a [i32],
    partition_ids: &'a [u32],
}

impl<'a> PartitionLoadStats<'a> {
    /// `BuiltInPartitioner.updatePartitionLoadStats(queueSizes, partitionIds,
    /// length)`: turns the first `length` queue sizes into the cumulative
    /// frequency table **in place**, as Java does, and returns `None` when
    /// Java switches adaptive partitioning off (fewer than 2 partitions, no
    /// partition left, or all queues equally long with none excluded).
    ///
    /// `queue_sizes[i]` is the number of batches queued for partition
    /// `partition_ids[i]`; entries past `length` are the partitions the
    /// availability timeout excluded.
    ///
    /// # Errors
    /// [`KafkaError::LoadStatsShape`] when the slices differ in length or
    /// `length` exceeds them.
    ///
    /// ```
    /// use pulsar_routing::kafka::PartitionLoadStats;
    /// // The example in Kafka's comments: queue sizes 0 3 1 become 4 5 8.
    /// let mut queues = [0, 3, 1];
    /// let stats = PartitionLoadStats::build(&mut queues, &[0, 1, 2], 3)?;
    /// assert_eq!(stats.map(|s| s.cumulative_frequency_table()), Some(&[4, 5, 8][..]));
    /// # Ok::<(), pulsar_routing::kafka::KafkaError>(())
    /// ```
    pub fn build(
        queue_sizes: &'a mut [i32],
        partition_ids: &'a [u32],
        length: usize,
    ) -> Result<Option<Self>, KafkaError> {
        if queue_sizes.len() != partition_ids.len() || length > queue_sizes.len() {
            return Err(KafkaError::LoadStatsShape {
                queue_sizes: queue_sizes.len(),
                partition_ids: partition_ids.len(),
                length,
            });
        }
        if length < 1 || queue_sizes.len() < 2 {
            return Ok(None);
        }
        let used = &mut queue_sizes[..length];
        let mut max_size_plus_1 = used[0];
        let mut all_equal = true;
        for &size in used.iter().skip(1) {
            if size != max_size_plus_1 {
                all_equal = false;
            }
            if size > max_size_plus_1 {
                max_size_plus_1 = size;
            }
        }
        max_size_plus_1 = max_size_plus_1.wrapping_add(1);
        if all_equal && length == partition_ids.len() {
            return Ok(None);
        }
        // Invert (a short queue gets a large weight) and accumulate, with
        // Java's wrapping int arithmetic.
        let mut previous = 0i32;
        for slot in used.iter_mut() {
            *slot = max_size_plus_1.wrapping_sub(*slot).wrapping_add(previous);
            previous = *slot;
        }
        Ok(Some(Self {
            cumulative_frequency: &queue_sizes[..length],
            partition_ids: &partition_ids[..length],
        }))
    }

    /// The cumulative frequency table.
    #[must_use]
    pub const fn cumulative_frequency_table(&self) -> &'a [i32] {
        self.cumulative_frequency
    }

    /// The partition id of each table entry.
    #[must_use]
    pub const fn partition_ids(&self) -> &'a [u32] {
        self.partition_ids
    }

    /// The weighted pick for an already non-negative random number.
    fn pick(&self, random: u32) -> Result<u32, KafkaError> {
        let total = self.cumulative_frequency.last().copied().unwrap_or(0);
        if total <= 0 {
            return Err(KafkaError::CorruptLoadStats(total));
        }
        let weighted = (random % total as u32) as i32;
        let found = java_binary_search(self.cumulative_frequency, weighted);
        // The first entry strictly greater than `weighted`, as Java's
        // `Math.abs(searchResult + 1)` computes it.
        let index = found.wrapping_add(1).unsigned_abs() as usize;
        self.partition_ids
            .get(index)
            .copied()
            .ok_or(KafkaError::CorruptLoadStats(total))
    }
}

/// What `BuiltInPartitioner.nextPartition` reads when it picks a new sticky
/// partition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StickyChoice<'a> {
    /// A random `int` (Java: `ThreadLocalRandom.current().nextInt()`); the
    /// partitioner applies `toPositive` itself.
    pub random: u32,
    /// Which partitions have a leader.
    pub availability: Availability<'a>,
    /// Adaptive load statistics, or `None` when adaptive partitioning is
    /// off or has no statistics yet.
    pub load: Option<PartitionLoadStats<'a>>,
}

impl<'a> StickyChoice<'a> {
    /// A uniform choice over all partitions from one random `int`.
    #[must_use]
    pub const fn uniform(random: u32) -> Self {
        Self {
            random,
            availability: Availability::All,
            load: None,
        }
    }
}

/// `BuiltInPartitioner.nextPartition`.
fn next_partition(
    choice: &StickyChoice<'_>,
    num_partitions: PartitionCount,
) -> Result<u32, KafkaError> {
    let random = to_positive(choice.random);
    let n = num_partitions.get();
    let partition = match (&choice.load, &choice.availability) {
        (Some(load), _) => load.pick(random)?,
        (None, Availability::Only(ids)) if !ids.is_empty() => {
            // `ids` is not empty, so the remainder is defined.
            let index = random as usize % ids.len();
            ids.get(index).copied().unwrap_or(0)
        }
        // Every partition available, or none: pick among all of them.
        (None, _) => num_partitions.reduce(random),
    };
    if partition < n {
        Ok(partition)
    } else {
        Err(KafkaError::PartitionOutOfRange {
            partition,
            num_partitions: n,
        })
    }
}

/// The built-in sticky partitioner for keyless records (KIP-794), for one
/// topic, with its byte accounting.
///
/// Records without a key stick to one partition until `batch.size` bytes
/// were appended to it (or twice that if the accumulator held the switch
/// back because a batch was still filling), then a new partition is drawn:
/// uniformly among the available ones, or weighted by queue lengths with
/// adaptive partitioning. The caller supplies the appended byte counts and
/// the random numbers, so the sequence is reproducible.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::kafka::{BuiltInPartitioner, StickyChoice};
/// let n = PartitionCount::new(6)?;
/// let mut sticky = BuiltInPartitioner::new(100)?;
/// // The first record draws the sticky partition: 7 % 6 = 1.
/// assert_eq!(sticky.peek_partition(n, &StickyChoice::uniform(7))?, 1);
/// // 60 + 60 bytes reach batch.size = 100: the next draw picks 2.
/// assert_eq!(sticky.update_partition_info(60, true, n, &StickyChoice::uniform(8))?, None);
/// assert_eq!(sticky.update_partition_info(60, true, n, &StickyChoice::uniform(8))?, Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuiltInPartitioner {
    sticky_batch_size: i32,
    /// `stickyPartitionInfo`: the current partition and the bytes produced
    /// to it (Java's `AtomicInteger`, wrapping like it).
    sticky: Option<(u32, i32)>,
}

impl BuiltInPartitioner {
    /// `new BuiltInPartitioner(logContext, topic, stickyBatchSize)`.
    ///
    /// # Errors
    /// [`KafkaError::InvalidStickyBatchSize`] below 1, as Java throws.
    pub const fn new(sticky_batch_size: i32) -> Result<Self, KafkaError> {
        if sticky_batch_size < 1 {
            return Err(KafkaError::InvalidStickyBatchSize(sticky_batch_size));
        }
        Ok(Self {
            sticky_batch_size,
            sticky: None,
        })
    }

    /// The partitioner `KafkaProducer` builds from its `batch.size` setting
    /// (default 16384): it passes `max(1, batch.size)`, so this never fails.
    #[must_use]
    pub const fn for_batch_size(batch_size: i32) -> Self {
        Self {
            sticky_batch_size: if batch_size < 1 { 1 } else { batch_size },
            sticky: None,
        }
    }

    /// The byte threshold for switching.
    #[must_use]
    pub const fn sticky_batch_size(&self) -> i32 {
        self.sticky_batch_size
    }

    /// The current sticky partition and the bytes produced to it, if one
    /// was drawn.
    #[must_use]
    pub const fn current(&self) -> Option<(u32, i32)> {
        self.sticky
    }

    /// `peekCurrentPartitionInfo`: the partition the next keyless record
    /// goes to, drawing one with `choice` if none was drawn yet (`choice` is
    /// ignored otherwise).
    ///
    /// # Errors
    /// When the drawn partition is out of range or the load statistics are
    /// corrupt; the state is then unchanged.
    pub fn peek_partition(
        &mut self,
        num_partitions: PartitionCount,
        choice: &StickyChoice<'_>,
    ) -> Result<u32, KafkaError> {
        if let Some((partition, _)) = self.sticky {
            return Ok(partition);
        }
        let partition = next_partition(choice, num_partitions)?;
        self.sticky = Some((partition, 0));
        Ok(partition)
    }

    /// `updatePartitionInfo(info, appendedBytes, cluster, enableSwitch)`,
    /// called after a keyless record of `appended_bytes` bytes was appended
    /// to the current sticky partition. Switches, drawing with `choice`,
    /// once `batch.size` bytes were produced and `enable_switch` (the
    /// accumulator's "all batches in this partition's queue are full"), or
    /// unconditionally at twice `batch.size`. Returns the new partition if
    /// it switched.
    ///
    /// Does nothing before the first [`BuiltInPartitioner::peek_partition`],
    /// as Java does for a record that did not use the built-in partitioner.
    ///
    /// # Errors
    /// As [`BuiltInPartitioner::peek_partition`]; the byte count is then
    /// kept and the old partition stays.
    pub fn update_partition_info(
        &mut self,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: PartitionCount,
        choice: &StickyChoice<'_>,
    ) -> Result<Option<u32>, KafkaError> {
        if !self.account(appended_bytes, enable_switch) {
            return Ok(None);
        }
        let next = next_partition(choice, num_partitions)?;
        self.sticky = Some((next, 0));
        Ok(Some(next))
    }

    /// Adds `appended_bytes` to the current partition's count and says
    /// whether it is time to switch: `batch.size` reached with switching
    /// allowed, or twice `batch.size` in any case.
    fn account(&mut self, appended_bytes: i32, enable_switch: bool) -> bool {
        let Some((partition, produced)) = self.sticky else {
            return false;
        };
        let produced = produced.wrapping_add(appended_bytes);
        self.sticky = Some((partition, produced));
        let twice = self.sticky_batch_size.wrapping_mul(2);
        (produced >= self.sticky_batch_size && enable_switch) || produced >= twice
    }
}

/// The Java producer's whole decision for one record of a topic, when no
/// explicit partition and no custom `partitioner.class` are set
/// (`KafkaProducer.partition` plus the accumulator's sticky bookkeeping).
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::kafka::{JavaClientPartitioner, StickyChoice, partition_for_key};
/// let n = PartitionCount::new(3)?;
/// let mut producer = JavaClientPartitioner::new(16384, false);
/// let keyed = producer.append(Some(b"user-1"), 50, true, n, &StickyChoice::uniform(0))?;
/// assert_eq!(keyed, partition_for_key(b"user-1", n));
/// assert_eq!(producer.append(None, 60, true, n, &StickyChoice::uniform(5))?, 5 % 3);
/// // Unused: the partition was drawn already.
/// assert_eq!(producer.append(None, 16324, true, n, &StickyChoice::uniform(9))?, 5 % 3);
/// // 16384 bytes went to partition 2: the next keyless record draws again.
/// assert_eq!(producer.append(None, 60, true, n, &StickyChoice::uniform(7))?, 7 % 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JavaClientPartitioner {
    ignore_keys: bool,
    sticky: BuiltInPartitioner,
}

impl JavaClientPartitioner {
    /// A producer with `batch.size = batch_size` (clamped to at least 1, as
    /// `KafkaProducer` does) and `partitioner.ignore.keys = ignore_keys`.
    #[must_use]
    pub const fn new(batch_size: i32, ignore_keys: bool) -> Self {
        Self {
            ignore_keys,
            sticky: BuiltInPartitioner::for_batch_size(batch_size),
        }
    }

    /// The sticky partitioner state.
    #[must_use]
    pub const fn sticky(&self) -> &BuiltInPartitioner {
        &self.sticky
    }

    /// The partition a record is appended to. A record with a serialized
    /// key (even an empty one) goes to [`partition_for_key`] unless keys are
    /// ignored; a keyless one goes to the sticky partition, and its
    /// `appended_bytes` then count towards the switch.
    ///
    /// `choice` is read only when this call draws a partition. Java draws
    /// the next partition right after the record that completed the batch;
    /// here that draw is made by the next keyless record's call, with its
    /// `choice`, so that one call never needs two random numbers. The
    /// sequence of partitions is the same for the same sequence of random
    /// numbers; only the availability and load view used for a draw is the
    /// one passed with the next record.
    ///
    /// # Errors
    /// As [`BuiltInPartitioner::peek_partition`].
    pub fn append(
        &mut self,
        serialized_key: Option<&[u8]>,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: PartitionCount,
        choice: &StickyChoice<'_>,
    ) -> Result<u32, KafkaError> {
        if let Some(key) = serialized_key
            && !self.ignore_keys
        {
            return Ok(partition_for_key(key, num_partitions));
        }
        let partition = self.sticky.peek_partition(num_partitions, choice)?;
        if self.sticky.account(appended_bytes, enable_switch) {
            // The switch: the next keyless record draws.
            self.sticky.sticky = None;
        }
        Ok(partition)
    }
}
