//! The `cpp` profile: pulsar-client-cpp's `RoundRobinMessageRouter` (with
//! its count, size and time switching), `SinglePartitionMessageRouter`, and
//! the check `PartitionedProducerImpl::sendAsync` applies to their answer.

use super::error::ProfileRouteError;
use super::hash::{BoostHashNotReproducible, KeyHash};
use super::message::ProfileMessage;
use super::profile::ClientProfile;
use crate::partition_count::PartitionCount;

/// The C++ routers' key rule: `msg.hasPartitionKey()`, so an empty key set
/// with `setPartitionKey("")` is a key; the ordering key is not read. The
/// answer is where the producer sends it, after its `short` cast.
pub(crate) fn cpp_keyed_partition(
    message: &ProfileMessage<'_>,
    hash: KeyHash,
    num_partitions: PartitionCount,
) -> Result<Option<u32>, ProfileRouteError> {
    match message.key.bytes() {
        Some(key) => {
            // A reduced hash is below 2^31, so it is an `int` as in C++.
            let routed = num_partitions.reduce(hash.hash_bytes(key)?) as i32;
            cpp_producer_send(ClientProfile::Cpp, routed, num_partitions).map(Some)
        }
        None => Ok(None),
    }
}

/// The batching thresholds `RoundRobinMessageRouter` is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CppBatching {
    /// `batchingMaxMessages` (`uint32_t`).
    pub max_messages: u32,
    /// `batchingMaxAllowedSizeInBytes` (`uint32_t`).
    pub max_bytes: u32,
    /// `batchingMaxPublishDelayMs`.
    pub max_delay_ms: i64,
}

impl CppBatching {
    /// The producer defaults: 1000 messages, 128 KiB, 10 ms.
    pub const DEFAULT: Self = Self {
        max_messages: 1000,
        max_bytes: 128 * 1024,
        max_delay_ms: 10,
    };
}

/// C++'s `RoundRobinMessageRouter`, a state machine.
///
/// With batching, a keyless message switches to the next partition when
/// **reaching** a threshold (`>=`, unlike Go's `>`): the messages already
/// counted reach `max_messages`, the message's size reaches what is left of
/// `max_bytes` (a `uint32_t` subtraction that wraps), or `max_delay_ms` has
/// passed since the last switch. The switching message starts the new
/// batch. The clock is read for every message.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{CppBatching, CppRoundRobinRouter, KeyHash};
/// let n = PartitionCount::new(5)?;
/// let batching = CppBatching { max_messages: 2, max_bytes: 1 << 20, max_delay_ms: 1000 };
/// let mut router = CppRoundRobinRouter::new(KeyHash::Murmur3_32, Some(batching), 7, 0);
/// let picks: Vec<u32> = (0..5).map(|_| router.choose_partition(None, 10, n, 1).unwrap()).collect();
/// assert_eq!(picks, [2, 2, 3, 3, 4]);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CppRoundRobinRouter {
    hash: KeyHash,
    batching: Option<CppBatching>,
    cursor: u32,
    msg_counter: u32,
    cumulative_batch_size: u32,
    last_partition_change_ms: i64,
    start_message_pending: bool,
}

impl CppRoundRobinRouter {
    /// The router of a producer created at `created_ms` (Unix epoch
    /// milliseconds), whose random cursor (`uniform_int_distribution<int>`
    /// over `mt19937(time(nullptr))`, in `[0, INT_MAX]`) is `start_cursor`.
    /// `batching` is `None` when batching is disabled.
    #[must_use]
    pub const fn new(
        hash: KeyHash,
        batching: Option<CppBatching>,
        start_cursor: u32,
        created_ms: i64,
    ) -> Self {
        Self {
            hash,
            batching,
            cursor: start_cursor,
            msg_counter: 0,
            cumulative_batch_size: 0,
            last_partition_change_ms: created_ms,
            start_message_pending: false,
        }
    }

    /// The same router under `lazyStartPartitionedProducers` (with the
    /// default `Shared` access mode): `PartitionedProducerImpl::start`
    /// routes a keyless one-byte message (`"x"`) at creation to pick the
    /// one producer it starts, and that message counts. Without batching
    /// the first keyless message goes to the cursor's next partition; with
    /// batching by `M` messages the first switch comes after `M - 1`. The
    /// start message is routed on the first call, over the partition count
    /// that call is given, at the creation time. (The C++ client then
    /// indexes its producers with the `short` of that partition: above
    /// 32767 partitions it can crash; not modelled.)
    #[must_use]
    pub const fn with_lazy_start(self) -> Self {
        Self {
            start_message_pending: true,
            ..self
        }
    }

    /// The key hash.
    #[must_use]
    pub const fn hash(&self) -> KeyHash {
        self.hash
    }

    /// `getPartition(msg, metadata)` for a message whose partition key is
    /// `key` (`None` when `hasPartitionKey()` is false) and whose payload is
    /// `payload_len` bytes, at `now_ms`.
    ///
    /// # Errors
    /// [`BoostHashNotReproducible`] for a keyed message under an unknown
    /// `BoostHash`; the state is unchanged.
    pub fn choose_partition(
        &mut self,
        key: Option<&[u8]>,
        payload_len: u64,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, BoostHashNotReproducible> {
        if self.start_message_pending {
            self.start_message_pending = false;
            let created_ms = self.last_partition_change_ms;
            self.choose_partition(None, 1, num_partitions, created_ms)?;
        }
        if num_partitions.get() == 1 {
            return Ok(0);
        }
        if let Some(key) = key {
            return Ok(num_partitions.reduce(self.hash.hash_bytes(key)?));
        }
        let Some(batching) = self.batching else {
            // currentPartitionCursor_++ % n
            let p = num_partitions.reduce(self.cursor);
            self.cursor = self.cursor.wrapping_add(1);
            return Ok(p);
        };
        let size = payload_len as u32;
        let count_reached = self.msg_counter >= batching.max_messages;
        let size_reached = size >= batching.max_bytes.wrapping_sub(self.cumulative_batch_size);
        let delay_reached =
            now_ms.wrapping_sub(self.last_partition_change_ms) >= batching.max_delay_ms;
        if count_reached || size_reached || delay_reached {
            self.cursor = self.cursor.wrapping_add(1);
            self.last_partition_change_ms = now_ms;
            self.cumulative_batch_size = size;
            self.msg_counter = 1;
            return Ok(num_partitions.reduce(self.cursor));
        }
        self.msg_counter = self.msg_counter.wrapping_add(1);
        self.cumulative_batch_size = self.cumulative_batch_size.wrapping_add(size);
        Ok(num_partitions.reduce(self.cursor))
    }

    /// [`CppRoundRobinRouter::choose_partition`] for a profile message.
    ///
    /// # Errors
    /// As [`CppRoundRobinRouter::choose_partition`].
    pub fn route(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, BoostHashNotReproducible> {
        self.choose_partition(
            message.key.bytes(),
            message.payload_len,
            num_partitions,
            now_ms,
        )
    }
}

/// C++'s `SinglePartitionMessageRouter`: keyed messages by hash, keyless
/// ones to the partition chosen at construction
/// (`std::default_random_engine(now)() % n`), or given by the application.
/// The router itself never checks that partition against `n`; the producer
/// does ([`cpp_partitioned_producer_check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CppSinglePartitionRouter {
    hash: KeyHash,
    selected_partition: i32,
}

impl CppSinglePartitionRouter {
    /// A router whose keyless partition is `selected_partition`.
    #[must_use]
    pub const fn new(hash: KeyHash, selected_partition: i32) -> Self {
        Self {
            hash,
            selected_partition,
        }
    }

    /// The key hash.
    #[must_use]
    pub const fn hash(&self) -> KeyHash {
        self.hash
    }

    /// `getPartition(msg, metadata)`: the router's answer, unchecked.
    ///
    /// # Errors
    /// [`BoostHashNotReproducible`] for a keyed message under an unknown
    /// `BoostHash`.
    pub fn choose_partition(
        &self,
        key: Option<&[u8]>,
        num_partitions: PartitionCount,
    ) -> Result<i32, BoostHashNotReproducible> {
        match key {
            Some(key) => Ok(num_partitions.reduce(self.hash.hash_bytes(key)?) as i32),
            None => Ok(self.selected_partition),
        }
    }
}

/// What `PartitionedProducerImpl::sendAsync` does with a router's answer:
/// it casts it to `short`, then fails the send (`ResultUnknownError`) unless
/// that is below `n`. Above 32767 partitions the cast truncates: an answer
/// of 35000 becomes negative and fails, and 70000 becomes 4464 and is
/// **sent to partition 4464**.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::cpp_partitioned_producer_check;
/// let n = PartitionCount::new(100_000)?;
/// assert_eq!(cpp_partitioned_producer_check(70_000, n), Ok(4464));
/// assert!(cpp_partitioned_producer_check(35_000, n).is_err());
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
///
/// # Errors
/// The truncated partition when the producer rejects it.
pub const fn cpp_partitioned_producer_check(
    partition: i32,
    num_partitions: PartitionCount,
) -> Result<u32, i16> {
    let short = partition as i16;
    // `short >= unsigned int`: the short is converted to unsigned, so a
    // negative one compares as a huge number.
    if (short as i32 as u32) < num_partitions.get() {
        Ok(short as u32)
    } else {
        Err(short)
    }
}

/// The partition a C++ (or Python) producer really sends to, given its
/// router's answer: [`cpp_partitioned_producer_check`] with the client
/// named in the error. Every C++ and Python entry point (keyed routing
/// alone, the whole router, and the bindings' check) goes through here, so
/// none of them can forget the `short` cast.
///
/// # Errors
/// [`ProfileRouteError::IllegalPartition`] with the truncated partition,
/// Java-style message included, where the send fails.
pub const fn cpp_producer_send(
    profile: ClientProfile,
    partition: i32,
    num_partitions: PartitionCount,
) -> Result<u32, ProfileRouteError> {
    match cpp_partitioned_producer_check(partition, num_partitions) {
        Ok(p) => Ok(p),
        Err(short) => Err(ProfileRouteError::IllegalPartition {
            profile,
            partition: short as i64,
        }),
    }
}
