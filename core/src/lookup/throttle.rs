//! The per-connection lookup throttle of `ClientCnx`.

use super::error::AttemptError;

/// The Java client's default `concurrentLookupRequest`.
pub const DEFAULT_CONCURRENT_LOOKUP_REQUESTS: u32 = 5_000;
/// The Java client's default `maxLookupRequest`.
pub const DEFAULT_MAX_LOOKUP_REQUESTS: u32 = 50_000;

/// What to do with a new lookup request on the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Admission {
    /// Send it now.
    SendNow,
    /// Keep it in the connection's waiting queue until
    /// [`LookupThrottle::release`] says to send it.
    Queued,
}

/// `ClientCnx`'s two lookup semaphores: `concurrent` lookups in flight,
/// then up to `max - concurrent` waiting, then `TooManyRequestsException`.
///
/// ```
/// use pulsar_routing::lookup::{Admission, LookupThrottle};
///
/// let mut t = LookupThrottle::new(1, 2);
/// assert_eq!(t.try_acquire(), Ok(Admission::SendNow));
/// assert_eq!(t.try_acquire(), Ok(Admission::Queued));
/// assert!(t.try_acquire().is_err());
/// assert!(t.release()); // the queued one goes out
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LookupThrottle {
    concurrent: u32,
    max_queued: u32,
    in_flight: u32,
    queued: u32,
}

impl Default for LookupThrottle {
    fn default() -> Self {
        Self::new(
            DEFAULT_CONCURRENT_LOOKUP_REQUESTS,
            DEFAULT_MAX_LOOKUP_REQUESTS,
        )
    }
}

impl LookupThrottle {
    /// A throttle with `concurrent_lookup_requests` in flight and
    /// `max_lookup_requests` in all (Java sizes the queue's semaphore
    /// `max - concurrent`; a `max` below `concurrent` leaves no queue).
    #[must_use]
    pub const fn new(concurrent_lookup_requests: u32, max_lookup_requests: u32) -> Self {
        Self {
            concurrent: concurrent_lookup_requests,
            max_queued: max_lookup_requests.saturating_sub(concurrent_lookup_requests),
            in_flight: 0,
            queued: 0,
        }
    }

    /// Admits a new request, or fails with Java's `TooManyRequests`.
    pub fn try_acquire(&mut self) -> Result<Admission, AttemptError> {
        if self.in_flight < self.concurrent {
            self.in_flight += 1;
            Ok(Admission::SendNow)
        } else if self.queued < self.max_queued {
            self.queued += 1;
            Ok(Admission::Queued)
        } else {
            Err(AttemptError::TooManyRequests {
                in_flight: self.in_flight,
                queued: self.queued,
            })
        }
    }

    /// A request in flight completed. Returns `true` when the oldest queued
    /// request must now be sent (it takes the freed place).
    pub fn release(&mut self) -> bool {
        if self.in_flight == 0 {
            return false;
        }
        if self.queued > 0 {
            self.queued -= 1;
            true
        } else {
            self.in_flight -= 1;
            false
        }
    }

    /// A queued request was abandoned before it was sent. Returns `false`
    /// if none was queued.
    pub fn cancel_queued(&mut self) -> bool {
        if self.queued == 0 {
            return false;
        }
        self.queued -= 1;
        true
    }

    /// Requests in flight.
    #[must_use]
    pub const fn in_flight(&self) -> u32 {
        self.in_flight
    }

    /// Requests waiting.
    #[must_use]
    pub const fn queued(&self) -> u32 {
        self.queued
    }
}
