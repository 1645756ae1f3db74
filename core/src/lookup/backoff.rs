//! The Java client's `Backoff`, with the clock and the random source as
//! arguments.

/// The first delay, Java's `initialBackoffIntervalNanos` default: 100 ms.
pub const DEFAULT_INITIAL_BACKOFF_MS: u64 = 100;
/// The longest delay, Java's `maxBackoffIntervalNanos` default: 60 s.
pub const DEFAULT_MAX_BACKOFF_MS: u64 = 60_000;

/// Java's `org.apache.pulsar.client.impl.Backoff`: the delay doubles from
/// `initial` up to `max`, is cut once so that the retries end at the
/// "mandatory stop" after the first one, and is lowered by up to 10% at
/// random so that clients do not retry in step.
///
/// This is Pulsar's backoff, the one of the lookup drivers. The Kafka
/// sender gate's reconnection backoff (`reconnect.backoff.ms`, ±20%
/// jitter, no mandatory stop) is a different one:
/// [`sender::ExponentialBackoff`](crate::sender::ExponentialBackoff).
///
/// ```
/// use pulsar_routing::lookup::Backoff;
///
/// let mut b = Backoff::new(100, 60_000, 1_000);
/// // No jitter (random 0): 100, 200, 400, then cut to the mandatory stop.
/// assert_eq!(b.next(0, 0), 100);
/// assert_eq!(b.next(100, 0), 200);
/// assert_eq!(b.next(300, 0), 400);
/// assert_eq!(b.next(700, 0), 300); // 1000 - 700 elapsed
/// assert_eq!(b.next(1_000, 0), 1_600); // no stop after the mandatory one
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    initial: u64,
    max: u64,
    next: u64,
    mandatory_stop: u64,
    first_backoff_ms: u64,
    mandatory_stop_made: bool,
}

impl Backoff {
    /// A backoff from `initial_ms` to `max_ms`, stopping at
    /// `mandatory_stop_ms` after the first delay was handed out.
    #[must_use]
    pub const fn new(initial_ms: u64, max_ms: u64, mandatory_stop_ms: u64) -> Self {
        Self {
            initial: initial_ms,
            max: max_ms,
            next: initial_ms,
            mandatory_stop: mandatory_stop_ms,
            first_backoff_ms: 0,
            mandatory_stop_made: false,
        }
    }

    /// The next delay in milliseconds, at time `now_ms`.
    ///
    /// `random` stands for Java's `Random.nextInt(current / 10)`: the delay
    /// is lowered by `random % (current / 10)` when `current` is above 10
    /// ms. Pass 0 for no jitter.
    pub fn next(&mut self, now_ms: u64, random: u32) -> u64 {
        let mut current = self.next;
        if current < self.max {
            self.next = current.saturating_mul(2).min(self.max);
        }
        if !self.mandatory_stop_made {
            // Java starts the mandatory-stop clock when it hands out the
            // initial delay, and measures from there.
            let elapsed = if current == self.initial {
                self.first_backoff_ms = now_ms;
                0
            } else {
                now_ms.saturating_sub(self.first_backoff_ms)
            };
            if elapsed.saturating_add(current) > self.mandatory_stop {
                current = self
                    .initial
                    .max(self.mandatory_stop.saturating_sub(elapsed));
                self.mandatory_stop_made = true;
            }
        }
        if current > 10 {
            let bound = current / 10;
            current -= u64::from(random) % bound;
        }
        current.max(self.initial)
    }

    /// Starts over from the initial delay (Java's `reset()`).
    pub fn reset(&mut self) {
        self.next = self.initial;
        self.mandatory_stop_made = false;
    }
}

/// SplitMix64: the drivers' source of jitter, from the caller's seed, so a
/// trace replays exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jitter(u64);

impl Jitter {
    pub(crate) const fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        // The high half of the mix.
        u32::try_from((z ^ (z >> 31)) >> 32).unwrap_or(0)
    }
}
