//! When the cluster metadata must be refreshed: Kafka's `Metadata`
//! (`timeToNextUpdate`, `updateRequested`, the refresh backoff) and
//! `DefaultMetadataUpdater.isUpdateDue`.

use super::config::SenderConfig;
use super::connection::Jitter;

/// The producer's metadata bookkeeping.
///
/// ```
/// use pulsar_routing::sender::{Jitter, MetadataState, SenderConfig};
///
/// let config = SenderConfig::default();
/// let mut m = MetadataState::new();
/// assert!(m.is_update_due(0, &config)); // bootstrap: nothing known yet
/// m.fetch_started();
/// assert!(!m.is_update_due(0, &config)); // a fetch in flight: sends go on
/// m.update_succeeded(1_000, Jitter::NONE, &config);
/// assert_eq!(m.time_to_next_update(1_000, &config), 300_000);
/// m.request_update(); // e.g. NOT_LEADER_OR_FOLLOWER
/// // The refresh backoff (retry.backoff.ms = 100) still applies.
/// assert_eq!(m.time_to_next_update(1_050, &config), 50);
/// assert!(m.is_update_due(1_100, &config));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetadataState {
    last_refresh_ms: u64,
    last_successful_refresh_ms: u64,
    update_requested: bool,
    fetch_in_progress: bool,
    failed_attempts: u32,
    refresh_backoff_ms: u64,
}

impl Default for MetadataState {
    fn default() -> Self {
        Self::new()
    }
}

impl MetadataState {
    /// Just bootstrapped (`Metadata.bootstrap`): a full update is
    /// requested and nothing was ever fetched (times 0, as in Java).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            last_refresh_ms: 0,
            last_successful_refresh_ms: 0,
            update_requested: true,
            fetch_in_progress: false,
            failed_attempts: 0,
            refresh_backoff_ms: 0,
        }
    }

    /// Metadata fetched successfully at `now_ms`, nothing requested.
    #[must_use]
    pub fn fresh(now_ms: u64, jitter: Jitter, config: &SenderConfig) -> Self {
        let mut m = Self::new();
        m.fetch_started();
        m.update_succeeded(now_ms, jitter, config);
        m
    }

    /// `requestUpdate`: ask for a refresh now, as the producer does after
    /// `NOT_LEADER_OR_FOLLOWER`, an unknown leader, or a disconnect.
    pub fn request_update(&mut self) {
        self.update_requested = true;
    }

    /// A metadata request was sent (`inProgressRequestVersion` set).
    pub fn fetch_started(&mut self) {
        self.fetch_in_progress = true;
    }

    /// `update`: the response arrived. Clears the request and the
    /// failures; the next refresh is allowed after `retry.backoff.ms`
    /// (jittered).
    pub fn update_succeeded(&mut self, now_ms: u64, jitter: Jitter, config: &SenderConfig) {
        self.fetch_in_progress = false;
        self.update_requested = false;
        self.last_refresh_ms = now_ms;
        self.last_successful_refresh_ms = now_ms;
        self.failed_attempts = 0;
        self.refresh_backoff_ms = config.refresh_backoff().backoff(0, jitter);
    }

    /// `failedUpdate`: the request failed; the next try waits
    /// `retry.backoff.ms * 2^(failures - 1)` (capped at
    /// `retry.backoff.max.ms`): 100 ms after the first failure, 200 ms
    /// after the second. `Metadata.timeToAllowUpdate` backs off by
    /// `attempts - 1`, so a first failure waits no longer than a success.
    pub fn update_failed(&mut self, now_ms: u64, jitter: Jitter, config: &SenderConfig) {
        self.fetch_in_progress = false;
        self.last_refresh_ms = now_ms;
        self.failed_attempts = self.failed_attempts.saturating_add(1);
        self.refresh_backoff_ms = config
            .refresh_backoff()
            .backoff(self.failed_attempts.saturating_sub(1), jitter);
    }

    /// `updateRequested`: a refresh was asked for.
    #[must_use]
    pub const fn update_requested(&self) -> bool {
        self.update_requested
    }

    /// A metadata request is in flight.
    #[must_use]
    pub const fn fetch_in_progress(&self) -> bool {
        self.fetch_in_progress
    }

    /// When the metadata was last fetched successfully (0 if never).
    #[must_use]
    pub const fn last_successful_refresh_ms(&self) -> u64 {
        self.last_successful_refresh_ms
    }

    /// The age of the metadata, the producer's `metadata-age` metric in
    /// milliseconds (Java reports it in seconds: divide by 1000).
    #[must_use]
    pub const fn age_ms(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.last_successful_refresh_ms)
    }

    /// `timeToNextUpdate`: 0 once the metadata expired
    /// (`metadata.max.age.ms`) or a refresh was requested, but never
    /// before the refresh backoff since the last attempt has passed.
    #[must_use]
    pub fn time_to_next_update(&self, now_ms: u64, config: &SenderConfig) -> u64 {
        let to_expire = if self.update_requested {
            0
        } else {
            self.last_successful_refresh_ms
                .saturating_add(config.metadata_max_age_ms())
                .saturating_sub(now_ms)
        };
        let to_allow = self
            .last_refresh_ms
            .saturating_add(self.refresh_backoff_ms)
            .saturating_sub(now_ms);
        to_expire.max(to_allow)
    }

    /// `isUpdateDue`: no fetch in flight and [`time_to_next_update`] is 0.
    /// While true, the gate holds every produce request back so that the
    /// metadata request goes first.
    ///
    /// [`time_to_next_update`]: Self::time_to_next_update
    #[must_use]
    pub fn is_update_due(&self, now_ms: u64, config: &SenderConfig) -> bool {
        !self.fetch_in_progress && self.time_to_next_update(now_ms, config) == 0
    }
}
