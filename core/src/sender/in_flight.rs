//! `InFlightRequests.canSendMore` for one connection.

/// The produce requests sent on a connection and not yet answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InFlight {
    count: u32,
}

impl InFlight {
    /// None in flight.
    #[must_use]
    pub const fn new() -> Self {
        Self { count: 0 }
    }

    /// The number in flight.
    #[must_use]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// `canSendMore`: fewer than `max` in flight. (Java also waits for the
    /// previous request to be fully written to the socket; a sans-IO caller
    /// reports a request as sent once written.)
    #[must_use]
    pub const fn can_send_more(&self, max: u32) -> bool {
        self.count < max
    }

    /// One more request sent.
    pub fn sent(&mut self) {
        self.count = self.count.saturating_add(1);
    }

    /// One request answered. Returns false (and changes nothing) when none
    /// was in flight.
    pub fn completed(&mut self) -> bool {
        match self.count.checked_sub(1) {
            Some(c) => {
                self.count = c;
                true
            }
            None => false,
        }
    }

    /// The connection closed: every request in flight fails.
    pub fn clear(&mut self) -> u32 {
        core::mem::take(&mut self.count)
    }
}
