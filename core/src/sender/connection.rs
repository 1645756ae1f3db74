//! One node's connection: the state machine of `ClusterConnectionStates`
//! and its exponential reconnect backoff.

use core::fmt;

/// `RECONNECT_BACKOFF_EXP_BASE`, also the metadata refresh multiplier.
const MULTIPLIER_SHIFT: u32 = 1;

/// A random draw for the ±20% jitter Kafka applies to every backoff
/// (`ThreadLocalRandom.nextDouble(0.8, 1.2)` in Java): the caller supplies
/// it, so a trace replays exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jitter(f64);

impl Jitter {
    /// `CommonClientConfigs.RECONNECT_BACKOFF_JITTER` and
    /// `RETRY_BACKOFF_JITTER`.
    pub const JITTER: f64 = 0.2;
    /// No jitter: the factor 1.0, the middle of the range.
    pub const NONE: Self = Self(1.0);
    /// The smallest factor, 0.8.
    pub const MIN: Self = Self(1.0 - Self::JITTER);
    /// The largest factor, 1.2 (the result is still capped at the
    /// backoff's maximum).
    pub const MAX: Self = Self(1.0 + Self::JITTER);

    /// The factor for a uniform draw `unit` in `[0, 1)`, as Java's
    /// `nextDouble(origin, bound)` maps it: `0.8 + unit * 0.4`. Values
    /// outside `[0, 1]` are clamped and NaN means no jitter, so any input is
    /// accepted.
    #[must_use]
    pub fn from_unit(unit: f64) -> Self {
        if unit.is_nan() {
            return Self::NONE;
        }
        let unit = unit.clamp(0.0, 1.0);
        Self(Self::MIN.0 + unit * (2.0 * Self::JITTER))
    }

    /// The factor for a 32-bit random number (`r / 2^32` as the draw).
    #[must_use]
    pub fn from_u32(r: u32) -> Self {
        Self::from_unit(f64::from(r) / 4_294_967_296.0)
    }

    /// The multiplication factor, in `[0.8, 1.2]`.
    #[must_use]
    pub const fn factor(self) -> f64 {
        self.0
    }
}

impl Default for Jitter {
    fn default() -> Self {
        Self::NONE
    }
}

/// Kafka's `ExponentialBackoff` with multiplier 2 and jitter 0.2:
/// `initial * 2^attempts`, times the jitter, capped at `max`.
///
/// ```
/// use pulsar_routing::sender::{ExponentialBackoff, Jitter};
///
/// // reconnect.backoff.ms=50, reconnect.backoff.max.ms=1000
/// let backoff = ExponentialBackoff::new(50, 1000);
/// let delays: Vec<u64> = (0..7).map(|a| backoff.backoff(a, Jitter::NONE)).collect();
/// assert_eq!(delays, [50, 100, 200, 400, 800, 1000, 1000]);
/// // Jitter never takes the delay past the maximum.
/// assert_eq!(backoff.backoff(9, Jitter::MAX), 1000);
/// assert_eq!(backoff.backoff(0, Jitter::MIN), 40);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExponentialBackoff {
    initial_ms: u64,
    max_ms: u64,
}

impl ExponentialBackoff {
    /// A backoff from `initial_ms` up to `max_ms`. As in Java, an initial
    /// value above the maximum is lowered to it, and then the backoff is
    /// constant and without jitter.
    #[must_use]
    pub const fn new(initial_ms: u64, max_ms: u64) -> Self {
        Self {
            initial_ms: if max_ms < initial_ms {
                max_ms
            } else {
                initial_ms
            },
            max_ms,
        }
    }

    /// The first delay, before jitter.
    #[must_use]
    pub const fn initial_ms(&self) -> u64 {
        self.initial_ms
    }

    /// The cap.
    #[must_use]
    pub const fn max_ms(&self) -> u64 {
        self.max_ms
    }

    /// The delay after `attempts` failures.
    ///
    /// Java computes `initial * 2^min(attempts, log2(max / initial))` in
    /// floating point; the exponent's cap is exactly where the term reaches
    /// `max`, so the integer `min(initial << attempts, max)` is the same
    /// value (Java's `pow`/`log` may land one millisecond lower when the
    /// ratio is not a power of two).
    #[must_use]
    pub fn backoff(&self, attempts: u32, jitter: Jitter) -> u64 {
        if self.max_ms <= self.initial_ms {
            // Java's expMax == 0: a constant backoff, jitter unused.
            return self.initial_ms;
        }
        let term = attempts
            .checked_mul(MULTIPLIER_SHIFT)
            .and_then(|shift| 1u64.checked_shl(shift))
            .and_then(|factor| self.initial_ms.checked_mul(factor))
            .map_or(self.max_ms, |t| t.min(self.max_ms));
        // `as` saturates like Java's (long) cast of a positive double.
        #[allow(clippy::cast_precision_loss)]
        let jittered = (jitter.factor() * term as f64) as u64;
        jittered.min(self.max_ms)
    }
}

/// A connection's state, as `ConnectionState` has it (Java's
/// `DISCONNECTED`, `CONNECTING`, `CHECKING_API_VERSIONS` or SASL, and
/// `READY`; `AUTHENTICATION_FAILED` is `NotConnected` after a failed
/// authentication).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ConnectionState {
    /// No connection: never opened, or closed after a failure or a
    /// disconnect (then under reconnect backoff).
    #[default]
    NotConnected = 0,
    /// The TCP connection is being opened.
    Connecting = 1,
    /// Connected; the API-version exchange and authentication are running.
    Authenticating = 2,
    /// Requests may be sent.
    Ready = 3,
}

impl ConnectionState {
    /// The four states, in order of their numbers.
    pub const ALL: [Self; 4] = [
        Self::NotConnected,
        Self::Connecting,
        Self::Authenticating,
        Self::Ready,
    ];

    /// The name, as the issue and the logs spell it: `NOT_CONNECTED`,
    /// `CONNECTING`, `AUTHENTICATING`, `READY`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::NotConnected => "NOT_CONNECTED",
            Self::Connecting => "CONNECTING",
            Self::Authenticating => "AUTHENTICATING",
            Self::Ready => "READY",
        }
    }
}

impl fmt::Display for ConnectionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An event reported about a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ConnectionEvent {
    /// The client starts a connect (`initiateConnect`):
    /// `NOT_CONNECTED -> CONNECTING`.
    Connect = 0,
    /// The TCP connect finished: `CONNECTING -> AUTHENTICATING`.
    Connected = 1,
    /// API versions and authentication succeeded:
    /// `AUTHENTICATING -> READY`, and the backoff resets.
    Authenticated = 2,
    /// The connection failed or closed: `-> NOT_CONNECTED`, with the next
    /// reconnect backoff.
    Disconnected = 3,
    /// Authentication failed: `-> NOT_CONNECTED`, with the next reconnect
    /// backoff.
    AuthenticationFailed = 4,
}

impl ConnectionEvent {
    /// The five events, in order of their numbers.
    pub const ALL: [Self; 5] = [
        Self::Connect,
        Self::Connected,
        Self::Authenticated,
        Self::Disconnected,
        Self::AuthenticationFailed,
    ];

    /// A short lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Connect => "connect",
            Self::Connected => "connected",
            Self::Authenticated => "authenticated",
            Self::Disconnected => "disconnected",
            Self::AuthenticationFailed => "authentication_failed",
        }
    }
}

impl fmt::Display for ConnectionEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An event that does not apply in the connection's current state (for
/// example `Authenticated` while `NOT_CONNECTED`). The state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidTransition {
    /// The state the connection was in.
    pub state: ConnectionState,
    /// The refused event.
    pub event: ConnectionEvent,
}

impl fmt::Display for InvalidTransition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "connection event {} is not valid in state {}",
            self.event, self.state
        )
    }
}

impl core::error::Error for InvalidTransition {}

/// One node's connection (`NodeConnectionState`): its state, the time of
/// the last connect attempt and the reconnect backoff.
///
/// ```
/// use pulsar_routing::sender::{ConnectionEvent, ConnectionState, ExponentialBackoff, Jitter, NodeConnection};
///
/// let backoff = ExponentialBackoff::new(50, 1000);
/// let mut c = NodeConnection::new();
/// assert!(c.can_connect(0));
/// c.apply(ConnectionEvent::Connect, 0, Jitter::NONE, backoff)?;
/// c.apply(ConnectionEvent::Disconnected, 10, Jitter::NONE, backoff)?;
/// // 50 ms from the disconnect before the next attempt.
/// assert_eq!(c.connection_delay(30), 30);
/// assert!(!c.can_connect(59));
/// assert!(c.can_connect(60));
/// # Ok::<(), pulsar_routing::sender::InvalidTransition>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeConnection {
    state: ConnectionState,
    /// `None` until the first connect: Java has no state object yet.
    last_attempt_ms: Option<u64>,
    reconnect_backoff_ms: u64,
    failed_attempts: u32,
    throttle_until_ms: u64,
}

impl NodeConnection {
    /// A node never connected to.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: ConnectionState::NotConnected,
            last_attempt_ms: None,
            reconnect_backoff_ms: 0,
            failed_attempts: 0,
            throttle_until_ms: 0,
        }
    }

    /// The state.
    #[must_use]
    pub const fn state(&self) -> ConnectionState {
        self.state
    }

    /// Failures since the connection was last ready.
    #[must_use]
    pub const fn failed_attempts(&self) -> u32 {
        self.failed_attempts
    }

    /// The current reconnect backoff.
    #[must_use]
    pub const fn reconnect_backoff_ms(&self) -> u64 {
        self.reconnect_backoff_ms
    }

    /// When the last connect attempt (or failure) happened, if any.
    #[must_use]
    pub const fn last_attempt_ms(&self) -> Option<u64> {
        self.last_attempt_ms
    }

    /// `canConnect`: not connected and past the reconnect backoff.
    #[must_use]
    pub fn can_connect(&self, now_ms: u64) -> bool {
        self.state == ConnectionState::NotConnected && self.backoff_remaining_ms(now_ms) == 0
    }

    /// `isBlackedOut`: not connected and still backing off.
    #[must_use]
    pub fn is_blacked_out(&self, now_ms: u64) -> bool {
        self.state == ConnectionState::NotConnected && self.backoff_remaining_ms(now_ms) > 0
    }

    /// The reconnect backoff left, 0 when a connect may start now or the
    /// node is not disconnected.
    #[must_use]
    pub fn backoff_remaining_ms(&self, now_ms: u64) -> u64 {
        match (self.state, self.last_attempt_ms) {
            (ConnectionState::NotConnected, Some(at)) => self
                .reconnect_backoff_ms
                .saturating_sub(now_ms.saturating_sub(at)),
            _ => 0,
        }
    }

    /// `connectionDelay`: the backoff left when not connected, and
    /// `u64::MAX` (Java's `Long.MAX_VALUE`: wait for an event) otherwise.
    #[must_use]
    pub fn connection_delay(&self, now_ms: u64) -> u64 {
        match self.state {
            ConnectionState::NotConnected => self.backoff_remaining_ms(now_ms),
            _ => u64::MAX,
        }
    }

    /// `isReady` of `ClusterConnectionStates`: `READY` and not throttled.
    #[must_use]
    pub fn is_ready(&self, now_ms: u64) -> bool {
        self.state == ConnectionState::Ready && self.throttle_until_ms <= now_ms
    }

    /// The broker's throttle left (`throttleUntilTimeMs`).
    #[must_use]
    pub fn throttle_remaining_ms(&self, now_ms: u64) -> u64 {
        self.throttle_until_ms.saturating_sub(now_ms)
    }

    /// `throttle`: the broker asked for no requests until `until_ms`. Only
    /// a later time replaces the current one.
    pub fn throttle(&mut self, until_ms: u64) {
        self.throttle_until_ms = self.throttle_until_ms.max(until_ms);
    }

    /// Applies an event. `jitter` and `backoff` are used by the failures,
    /// which draw the next reconnect backoff
    /// (`reconnect.backoff.ms * 2^failures`, capped).
    ///
    /// # Errors
    /// [`InvalidTransition`] when the event does not apply in the current
    /// state (and `Connect` during the backoff); nothing changes then.
    pub fn apply(
        &mut self,
        event: ConnectionEvent,
        now_ms: u64,
        jitter: Jitter,
        backoff: ExponentialBackoff,
    ) -> Result<(), InvalidTransition> {
        use ConnectionState as S;
        let invalid = InvalidTransition {
            state: self.state,
            event,
        };
        match (event, self.state) {
            (ConnectionEvent::Connect, S::NotConnected) => {
                if !self.can_connect(now_ms) {
                    return Err(invalid);
                }
                self.state = S::Connecting;
                self.last_attempt_ms = Some(now_ms);
            }
            (ConnectionEvent::Connected, S::Connecting) => self.state = S::Authenticating,
            (ConnectionEvent::Authenticated, S::Authenticating) => {
                self.state = S::Ready;
                self.failed_attempts = 0;
                self.reconnect_backoff_ms = backoff.backoff(0, jitter);
            }
            (ConnectionEvent::Disconnected, S::Connecting | S::Authenticating | S::Ready)
            | (ConnectionEvent::AuthenticationFailed, S::Authenticating) => {
                self.state = S::NotConnected;
                self.last_attempt_ms = Some(now_ms);
                // updateReconnectBackoff: backoff(failedAttempts), then count.
                self.reconnect_backoff_ms = backoff.backoff(self.failed_attempts, jitter);
                self.failed_attempts = self.failed_attempts.saturating_add(1);
            }
            _ => return Err(invalid),
        }
        Ok(())
    }
}
