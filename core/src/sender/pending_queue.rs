//! The Pulsar counterpart of the gate: the producer's pending-message
//! queue (`maxPendingMessages`, `blockIfQueueFull`, and
//! `ProducerImpl.canEnqueueRequest`).

use core::fmt;

/// `ProducerConfigurationData.DEFAULT_MAX_PENDING_MESSAGES` since Pulsar
/// 2.10: 0, no per-producer limit (the client's `memoryLimit` bounds the
/// queue instead). Older clients used 1000.
pub const DEFAULT_MAX_PENDING_MESSAGES: u32 = 0;

/// `maxPendingMessages` was negative (`ProducerBuilder.maxPendingMessages`
/// refuses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaxPendingMessagesNegative(pub i64);

impl fmt::Display for MaxPendingMessagesNegative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("maxPendingMessages needs to be >= 0")
    }
}

impl core::error::Error for MaxPendingMessagesNegative {}

/// Why a send cannot enter the queue now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum QueueFull {
    /// `blockIfQueueFull=true`: `send` blocks until a pending message is
    /// acknowledged or fails.
    WouldBlock = 1,
    /// `blockIfQueueFull=false` (the default): the send fails at once with
    /// `ProducerQueueIsFullError`.
    WouldFail = 2,
}

impl fmt::Display for QueueFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WouldBlock => f.write_str(
                "Producer send queue is full: the send would block until a pending message completes (blockIfQueueFull=true)",
            ),
            Self::WouldFail => f.write_str("Producer send queue is full"),
        }
    }
}

impl core::error::Error for QueueFull {}

/// A producer's pending queue: messages sent and not yet acknowledged.
///
/// ```
/// use pulsar_routing::sender::{PendingQueue, QueueFull};
///
/// let mut q = PendingQueue::new(2, false)?;
/// q.try_enqueue()?;
/// q.try_enqueue()?;
/// assert_eq!(q.try_enqueue(), Err(QueueFull::WouldFail));
/// q.complete(1);
/// assert_eq!(q.pending(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PendingQueue {
    max_pending_messages: u32,
    block_if_queue_full: bool,
    pending: u32,
}

impl PendingQueue {
    /// An empty queue. `max_pending_messages` 0 means no limit, as in Java
    /// (the semaphore is absent).
    ///
    /// # Errors
    /// [`MaxPendingMessagesNegative`] below 0.
    pub fn new(
        max_pending_messages: i64,
        block_if_queue_full: bool,
    ) -> Result<Self, MaxPendingMessagesNegative> {
        if max_pending_messages < 0 {
            return Err(MaxPendingMessagesNegative(max_pending_messages));
        }
        Ok(Self {
            // Java's int holds no more; beyond it the limit is unreachable.
            max_pending_messages: u32::try_from(max_pending_messages).unwrap_or(u32::MAX),
            block_if_queue_full,
            pending: 0,
        })
    }

    /// `maxPendingMessages` (0: unlimited).
    #[must_use]
    pub const fn max_pending_messages(&self) -> u32 {
        self.max_pending_messages
    }

    /// `blockIfQueueFull`.
    #[must_use]
    pub const fn block_if_queue_full(&self) -> bool {
        self.block_if_queue_full
    }

    /// Messages in the queue.
    #[must_use]
    pub const fn pending(&self) -> u32 {
        self.pending
    }

    /// Whether one more message may enter now, and if not what the send
    /// would do.
    ///
    /// # Errors
    /// [`QueueFull`] when the queue holds `maxPendingMessages` messages.
    pub const fn check(&self) -> Result<(), QueueFull> {
        if self.max_pending_messages == 0 || self.pending < self.max_pending_messages {
            Ok(())
        } else if self.block_if_queue_full {
            Err(QueueFull::WouldBlock)
        } else {
            Err(QueueFull::WouldFail)
        }
    }

    /// `canEnqueueRequest`: takes a permit, or says why not (the count is
    /// then unchanged: a blocked send enters only once a permit frees).
    ///
    /// # Errors
    /// As [`check`](Self::check).
    pub fn try_enqueue(&mut self) -> Result<(), QueueFull> {
        self.check()?;
        self.pending = self.pending.saturating_add(1);
        Ok(())
    }

    /// `n` messages were acknowledged or failed: their permits return.
    /// More than are pending empties the queue.
    pub fn complete(&mut self, n: u32) {
        self.pending = self.pending.saturating_sub(n);
    }
}

/// The smallest `maxPendingMessages` that absorbs a broker outage without
/// blocking or failing sends: `ceil(peak_rate_per_sec * reconnect_window_ms
/// / 1000)` (messages keep arriving at the peak rate while the producer
/// reconnects; none are acknowledged). Saturates at `u64::MAX`; a result
/// above `i32::MAX` cannot be configured in Java.
///
/// ```
/// use pulsar_routing::sender::required_max_pending_messages;
///
/// // 5000 msg/s through a 2.5 s reconnect: 12500 messages pile up.
/// assert_eq!(required_max_pending_messages(5000, 2500), 12_500);
/// assert_eq!(required_max_pending_messages(3, 500), 2); // 1.5, rounded up
/// ```
#[must_use]
pub const fn required_max_pending_messages(
    peak_rate_per_sec: u64,
    reconnect_window_ms: u64,
) -> u64 {
    let product = (peak_rate_per_sec as u128) * (reconnect_window_ms as u128);
    let needed = product.div_ceil(1000);
    if needed > u64::MAX as u128 {
        u64::MAX
    } else {
        needed as u64
    }
}
