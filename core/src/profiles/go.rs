//! The `go` profile: pulsar-client-go's `NewDefaultRouter` (with its count,
//! size and time switching) and `NewSinglePartitionRouter`.

use super::hash::go_java_string_hash;
use super::message::ProfileMessage;
use crate::murmur3::murmur3_32;
use crate::partition_count::PartitionCount;
use crate::routing_key::HashingScheme;

/// Go's `getHashingFunction(scheme)` applied to a key's bytes: Go's own
/// `JavaStringHash` (bytes, unmasked) or `Murmur3_32Hash` (masked).
#[must_use]
pub fn go_hash(scheme: HashingScheme, key: &[u8]) -> u32 {
    match scheme {
        HashingScheme::JavaStringHash => go_java_string_hash(key),
        HashingScheme::Murmur3_32Hash => murmur3_32(key),
    }
}

/// The Go routers' key rule: a non-empty `OrderingKey` wins, then a
/// non-empty `Key`; an empty key is no key. `None` for a keyless message.
pub(crate) fn go_keyed_partition(
    message: &ProfileMessage<'_>,
    scheme: HashingScheme,
    num_partitions: PartitionCount,
) -> Option<u32> {
    let key = match message.ordering_key {
        Some(ordering) if !ordering.is_empty() => ordering,
        _ => message.key.bytes().filter(|k| !k.is_empty())?,
    };
    Some(num_partitions.reduce(go_hash(scheme, key)))
}

/// The batching thresholds `NewDefaultRouter` is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoBatching {
    /// `BatchingMaxMessages` (Go `uint`).
    pub max_messages: u64,
    /// `BatchingMaxSize` in bytes (Go `uint`).
    pub max_size: u64,
    /// `BatchingMaxPublishDelay` in nanoseconds.
    pub max_delay_ns: i64,
}

impl GoBatching {
    /// The producer defaults: 1000 messages, 128 KiB, 10 ms.
    pub const DEFAULT: Self = Self {
        max_messages: 1000,
        max_size: 128 * 1024,
        max_delay_ns: 10_000_000,
    };

    /// The thresholds `newProducer` passes for these `ProducerOptions`
    /// values: zero counts and sizes, and non-positive delays, become the
    /// defaults.
    #[must_use]
    pub const fn from_options(max_messages: u64, max_size: u64, max_delay_ns: i64) -> Self {
        Self {
            max_messages: if max_messages == 0 {
                Self::DEFAULT.max_messages
            } else {
                max_messages
            },
            max_size: if max_size == 0 {
                Self::DEFAULT.max_size
            } else {
                max_size
            },
            max_delay_ns: if max_delay_ns <= 0 {
                Self::DEFAULT.max_delay_ns
            } else {
                max_delay_ns
            },
        }
    }
}

/// Go's default router (`NewDefaultRouter`), a state machine.
///
/// For a keyless message with batching enabled it stays on the current
/// partition until one of three thresholds is **exceeded** (strict `>`):
/// more than `max_messages` messages, more than `max_size` bytes, or more
/// than `max_delay_ns` since the last switch. The clock is only read every
/// `max_messages / 10` messages, so the delay is checked then. All counters
/// are `uint32` and wrap like Go's.
///
/// Go moves the cursor with a compare-and-swap so that racing goroutines
/// advance it once; this model is single-threaded, where the swap always
/// succeeds.
///
/// ```
/// use pulsar_routing::{HashingScheme, PartitionCount};
/// use pulsar_routing::profiles::{GoBatching, GoDefaultRouter, ProfileMessage};
/// let n = PartitionCount::new(5)?;
/// let batching = GoBatching { max_messages: 2, max_size: 1 << 20, max_delay_ns: 1_000_000_000 };
/// let mut router = GoDefaultRouter::new(HashingScheme::JavaStringHash, Some(batching), 7, 0);
/// let msg = ProfileMessage::keyless(10);
/// let picks: Vec<u32> = (0..6).map(|_| router.choose_partition(&msg, n, 1)).collect();
/// // The third message exceeds the count and switches; it is counted in
/// // neither batch, so every later partition takes three.
/// assert_eq!(picks, [2, 2, 3, 3, 3, 4]);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoDefaultRouter {
    scheme: HashingScheme,
    batching: Option<GoBatching>,
    read_clock_after_messages: u32,
    cursor: u32,
    msg_counter: u32,
    cumulative_batch_size: u32,
    last_batch_ns: i64,
}

impl GoDefaultRouter {
    /// `NewDefaultRouter(hashFunc, maxMessages, maxSize, maxDelay,
    /// disableBatching)` created at `created_ns` (Unix epoch nanoseconds),
    /// whose random cursor (`rand.Uint32()`) is `start_cursor`. `batching`
    /// is `None` when batching is disabled.
    #[must_use]
    pub const fn new(
        scheme: HashingScheme,
        batching: Option<GoBatching>,
        start_cursor: u32,
        created_ns: i64,
    ) -> Self {
        let read_clock_after_messages = match batching {
            // `uint32(maxBatchingMessages / 10)`: divide, then truncate.
            Some(b) => (b.max_messages / 10) as u32,
            None => 0,
        };
        Self {
            scheme,
            batching,
            read_clock_after_messages,
            cursor: start_cursor,
            msg_counter: 0,
            cumulative_batch_size: 0,
            last_batch_ns: created_ns,
        }
    }

    /// The hashing scheme.
    #[must_use]
    pub const fn scheme(&self) -> HashingScheme {
        self.scheme
    }

    /// The current cursor (the keyless partition is `cursor % n`).
    #[must_use]
    pub const fn cursor(&self) -> u32 {
        self.cursor
    }

    /// Routes `message` at `now_ns` (Unix epoch nanoseconds, read only
    /// where Go reads its clock).
    pub fn choose_partition(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
        now_ns: i64,
    ) -> u32 {
        if num_partitions.get() == 1 {
            // Go returns before touching any state.
            return 0;
        }
        if let Some(p) = go_keyed_partition(message, self.scheme, num_partitions) {
            return p;
        }
        let Some(batching) = self.batching else {
            let p = num_partitions.reduce(self.cursor);
            self.cursor = self.cursor.wrapping_add(1);
            return p;
        };
        let size = message.payload_len as u32;
        let cursor = self.cursor;
        self.msg_counter = self.msg_counter.wrapping_add(1);
        let count = self.msg_counter;
        self.cumulative_batch_size = self.cumulative_batch_size.wrapping_add(size);
        let batch_size = self.cumulative_batch_size;

        let count_reached = count > batching.max_messages as u32;
        let size_reached = batch_size > batching.max_size as u32;
        let mut now = 0i64;
        let mut duration_reached = false;
        let every = self.read_clock_after_messages;
        if every == 0 || count.is_multiple_of(every) {
            now = now_ns;
            duration_reached = now.wrapping_sub(self.last_batch_ns) > batching.max_delay_ns;
        }
        if count_reached || size_reached || duration_reached {
            let next = cursor.wrapping_add(1);
            self.cursor = next;
            self.msg_counter = 0;
            self.cumulative_batch_size = 0;
            if now == 0 {
                // Go reads the clock now if it had not (or if it read 0).
                now = now_ns;
            }
            self.last_batch_ns = now;
            return num_partitions.reduce(next);
        }
        num_partitions.reduce(cursor)
    }
}

/// Go's `NewSinglePartitionRouter`: keyed messages (ordering key first)
/// always by Go's **`JavaStringHash`**, whatever scheme the producer set;
/// keyless messages to one partition that Go draws with `Intn(n)` the first
/// time, once per process (a package-level variable).
///
/// Go's producer reduces an out-of-range answer with `% n`, so a fixed
/// partition drawn for a larger topic still lands in range.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{GoSinglePartitionRouter, ProfileMessage, go_java_string_hash};
/// let router = GoSinglePartitionRouter::new(9);
/// let n = PartitionCount::new(4)?;
/// assert_eq!(router.choose_partition(&ProfileMessage::keyless(0), n), 1);
/// assert_eq!(router.choose_partition(&ProfileMessage::keyed("k"), n), go_java_string_hash(b"k") % 4);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoSinglePartitionRouter {
    partition: u32,
}

impl GoSinglePartitionRouter {
    /// A router whose keyless partition is `partition`.
    #[must_use]
    pub const fn new(partition: u32) -> Self {
        Self { partition }
    }

    /// Routes `message`, as the producer's `getPartition` then sees it.
    #[must_use]
    pub fn choose_partition(
        &self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
    ) -> u32 {
        go_keyed_partition(message, HashingScheme::JavaStringHash, num_partitions)
            .unwrap_or_else(|| num_partitions.reduce(self.partition))
    }
}
