//! The topic lookup driver: `BinaryProtoLookupService.findBroker` and the
//! producer's retry around it, as a state machine that does no I/O.

use super::address::{Address, Hop, MessageBuf};
use super::backoff::{Backoff, DEFAULT_INITIAL_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS, Jitter};
use super::error::{AttemptError, IgnoredEvent, LookupError, ServerError};
use super::explain::WithServerMessage;

/// The Java client's default `maxLookupRedirects`.
pub const DEFAULT_MAX_LOOKUP_REDIRECTS: u32 = 20;
/// The Java client's default `operationTimeoutMs`: 30 s.
pub const DEFAULT_OPERATION_TIMEOUT_MS: u64 = 30_000;
/// The Go client's fixed number of lookup responses it reads in one
/// lookup (`lookupResultMaxRedirect`).
pub const GO_LOOKUP_MAX_REDIRECT: u32 = 20;

/// Which client's lookup to reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LookupProfile {
    /// The Java client (the C++ client is the same): redirects connect
    /// directly to the broker URL, `proxy_through_service_url` only matters
    /// on `Connect`, where the physical address is the current hop.
    #[default]
    Java,
    /// The Go client (`pulsar/internal/lookup_service.go`): redirected
    /// requests without the lookup properties, and with
    /// `proxy_through_service_url` the physical address is the service URL
    /// (freshly resolved), for `Redirect` as for `Connect`.
    ///
    /// Go reads at most 20 responses ([`GO_LOOKUP_MAX_REDIRECT`]): its loop
    /// handles one response per turn and sends the next request inside the
    /// turn, so a 20th `Redirect` still sends a 21st `LOOKUP` and waits for
    /// its answer, then fails with "exceeded max number of redirection"
    /// ([`AttemptError::GoRedirectLimit`]) whatever that answer is. The
    /// driver does the same: the 20th `Redirect` gives a `SendLookup` with
    /// `redirects == 20`, and any response to it fails the attempt; a
    /// connection failure or timeout of that request fails it with that
    /// error instead, as in Go. `max_redirects` does not change this (loop
    /// detection and the deadline can still end the attempt sooner). Retries use the same Pulsar [`Backoff`] as the Java
    /// profile (the Go client's own reconnection backoff is not modelled).
    Go,
}

impl LookupProfile {
    /// The profile's name: `"java"` or `"go"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Java => "java",
            Self::Go => "go",
        }
    }

    /// The profile with this name (`"java"`, `"cpp"` which is the same, or
    /// `"go"`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "java" | "cpp" => Some(Self::Java),
            "go" => Some(Self::Go),
            _ => None,
        }
    }
}

/// How a [`TopicLookup`] behaves. `Default` is the Java client's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LookupOptions {
    /// Use `brokerServiceUrlTls` instead of `brokerServiceUrl`.
    pub use_tls: bool,
    /// `maxLookupRedirects`: 20 by default, 0 for no limit. The Go profile
    /// ignores it (its limit is fixed).
    pub max_redirects: u32,
    /// Java/C++ or Go.
    pub profile: LookupProfile,
    /// `operationTimeoutMs`, 30 s by default.
    pub operation_timeout_ms: u64,
    /// `lookupTimeoutMs`; `None` means the operation timeout (Java's
    /// default). The deadline is this long after `start`, and exclusive as
    /// Java's: a failure after it ends the lookup, one exactly at it is
    /// still retried. The backoff stops at twice this, the schedule of
    /// `getPartitionedTopicMetadata`. (The Java producer's own reconnection
    /// backoff stops at `max(100, sendTimeoutMs - 100)` instead; with the
    /// deadline capping every delay, the two differ only in the last delay
    /// before the deadline.)
    pub lookup_timeout_ms: Option<u64>,
    /// Retry retriable failures with backoff until the deadline, as the
    /// producer's `ConnectionHandler` does. `false` gives the lookup
    /// service alone, which fails on the first error.
    pub retry: bool,
    /// Fail an attempt as soon as it is redirected to an address it already
    /// asked with the same authoritative flag ([`AttemptError::RedirectLoop`]).
    ///
    /// Off by default, because no real client has such a check: Java, C++
    /// and Go redirect until their limit. A repeated (address, flag) pair is
    /// not proof of a loop either, since ownership can move between the two
    /// visits and the second answer differ (a chain the real client
    /// completes). This is therefore a heuristic, opt-in diagnostic: turn it
    /// on to fail fast where brokers are known not to move bundles.
    pub detect_redirect_loops: bool,
    /// The seed of the backoff's jitter (Java uses an unseeded `Random`).
    pub jitter_seed: u64,
}

impl Default for LookupOptions {
    fn default() -> Self {
        Self {
            use_tls: false,
            max_redirects: DEFAULT_MAX_LOOKUP_REDIRECTS,
            profile: LookupProfile::Java,
            operation_timeout_ms: DEFAULT_OPERATION_TIMEOUT_MS,
            lookup_timeout_ms: None,
            retry: true,
            detect_redirect_loops: false,
            jitter_seed: 0,
        }
    }
}

impl LookupOptions {
    /// The lookup timeout in effect.
    #[must_use]
    pub fn effective_lookup_timeout_ms(&self) -> u64 {
        self.lookup_timeout_ms.unwrap_or(self.operation_timeout_ms)
    }
}

/// `CommandLookupTopicResponse.LookupType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LookupType {
    /// `Redirect` (0): ask again at the broker URL.
    Redirect,
    /// `Connect` (1): the broker URL owns the topic.
    Connect,
    /// `Failed` (2).
    Failed,
}

/// A `CommandLookupTopicResponse`, borrowed from the decoded frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LookupResponse<'r> {
    /// `response`; `None` when absent.
    pub response: Option<LookupType>,
    /// `brokerServiceUrl`.
    pub broker_service_url: Option<&'r str>,
    /// `brokerServiceUrlTls`.
    pub broker_service_url_tls: Option<&'r str>,
    /// `authoritative`.
    pub authoritative: bool,
    /// `proxy_through_service_url`.
    pub proxy_through_service_url: bool,
    /// `error`, for `Failed` (or a missing response type); without one the
    /// attempt fails with [`AttemptError::EmptyResponse`].
    pub error: Option<ServerError>,
    /// `message`, for `Failed`.
    pub message: Option<&'r str>,
}

impl<'r> LookupResponse<'r> {
    /// A `Connect` to `url` (set as both the plain and the TLS URL).
    #[must_use]
    pub fn connect(url: &'r str, authoritative: bool, proxy_through_service_url: bool) -> Self {
        Self {
            response: Some(LookupType::Connect),
            broker_service_url: Some(url),
            broker_service_url_tls: Some(url),
            authoritative,
            proxy_through_service_url,
            ..Self::default()
        }
    }

    /// A `Redirect` to `url` (set as both the plain and the TLS URL).
    #[must_use]
    pub fn redirect(url: &'r str, authoritative: bool, proxy_through_service_url: bool) -> Self {
        Self {
            response: Some(LookupType::Redirect),
            ..Self::connect(url, authoritative, proxy_through_service_url)
        }
    }

    /// A `Failed` response.
    #[must_use]
    pub fn failed(error: ServerError, message: &'r str) -> Self {
        Self {
            response: Some(LookupType::Failed),
            error: Some(error),
            message: Some(message),
            ..Self::default()
        }
    }
}

/// A `LOOKUP` request for the embedder to send.
///
/// The embedder adds what the driver does not need to know: the topic
/// (`TopicName.toString()`, as is), a fresh request id, the advertised
/// listener name, and the lookup properties when `send_properties` is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendLookup<'d> {
    /// The broker the request is for.
    pub logical_address: &'d str,
    /// Where to open the connection: the broker itself, or the proxy in
    /// the Go profile's proxied redirects.
    pub physical_address: &'d str,
    /// The request's `authoritative` flag: `false` first, then the last
    /// response's.
    pub authoritative: bool,
    /// Whether to send the lookup properties (the Go client drops them
    /// after a redirect).
    pub send_properties: bool,
    /// Redirects followed so far in this attempt.
    pub redirects: u32,
    /// The attempt, from 1.
    pub attempt: u32,
}

/// Where the topic lives: the answer of a successful lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookupResult<'d> {
    /// The broker that owns the topic.
    pub logical_address: &'d str,
    /// Where to connect: the broker, or the proxy with `use_proxy`.
    pub physical_address: &'d str,
    /// The connection goes through a proxy to the logical address.
    pub use_proxy: bool,
    /// The final response's `authoritative` flag.
    pub authoritative: bool,
    /// Redirects followed in the successful attempt.
    pub redirects: u32,
    /// Attempts made, the successful one included.
    pub attempts: u32,
}

/// What the embedder must do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupAction<'d> {
    /// Send this request and report its fate with `on_response`,
    /// `on_connection_failed`, `on_request_timeout` or `on_attempt_error`.
    SendLookup(SendLookup<'d>),
    /// The attempt failed with a retriable error: call `on_retry_timer` at
    /// `at_ms`.
    RetryAt {
        /// When to retry.
        at_ms: u64,
        /// The backoff delay, `at_ms - now`.
        delay_ms: u64,
        /// Why the attempt failed.
        cause: AttemptError,
        /// The attempt that failed.
        attempt: u32,
    },
    /// The lookup succeeded.
    Done(LookupResult<'d>),
    /// The lookup failed for good.
    Failed(LookupError),
    /// The event was not expected now; nothing changed.
    Ignored(IgnoredEvent),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    NotStarted,
    AwaitingResponse,
    WaitingRetry { at_ms: u64 },
    Done,
    Failed(LookupError),
}

/// One topic lookup, driven by the embedder's events: Java's
/// `BinaryProtoLookupService.getBroker` with the producer's retries around
/// it (see the [module documentation](super)).
///
/// `S` is the storage of the redirect chain, e.g. `&mut [Hop]` or
/// `[Hop; 21]`: one slot per request of an attempt. When it is full, later
/// hops are not recorded ([`TopicLookup::chain_truncated`]) and loop
/// detection sees only the recorded ones; `max_redirects` and the deadline
/// still end the lookup. Empty storage turns loop detection off in effect.
///
/// The driver is `Send` when `S` is, and changes only through `&mut`:
/// share one between threads behind a lock (the C and Python bindings do).
#[derive(Clone, Debug)]
pub struct TopicLookup<S> {
    options: LookupOptions,
    service: Address,
    logical: Address,
    physical: Address,
    authoritative: bool,
    send_properties: bool,
    redirects: u32,
    attempts: u32,
    chain: S,
    chain_len: usize,
    chain_truncated: bool,
    start_ms: u64,
    deadline_ms: u64,
    backoff: Backoff,
    jitter: Jitter,
    state: State,
    use_proxy: bool,
    last_authoritative: Option<bool>,
    last_error: Option<AttemptError>,
    message: MessageBuf,
    /// The Go profile's 21st request is out: its answer is not read.
    go_final_request: bool,
}

impl<S: AsRef<[Hop]> + AsMut<[Hop]>> TopicLookup<S> {
    /// A lookup starting at `service_address` (the resolved service URL
    /// host), recording its redirect chain in `chain`.
    ///
    /// Fails with [`AttemptError::AddressTooLong`] for an address longer
    /// than [`MAX_ADDRESS_LEN`](super::MAX_ADDRESS_LEN).
    pub fn new(
        service_address: &str,
        options: LookupOptions,
        chain: S,
    ) -> Result<Self, AttemptError> {
        let service =
            Address::new(service_address).map_err(|len| AttemptError::AddressTooLong { len })?;
        let timeout = options.effective_lookup_timeout_ms();
        Ok(Self {
            options,
            service,
            logical: service,
            physical: service,
            authoritative: false,
            send_properties: true,
            redirects: 0,
            attempts: 0,
            chain,
            chain_len: 0,
            chain_truncated: false,
            start_ms: 0,
            deadline_ms: 0,
            backoff: Backoff::new(
                DEFAULT_INITIAL_BACKOFF_MS,
                DEFAULT_MAX_BACKOFF_MS,
                timeout.saturating_mul(2),
            ),
            jitter: Jitter::new(options.jitter_seed),
            state: State::NotStarted,
            use_proxy: false,
            last_authoritative: None,
            last_error: None,
            message: MessageBuf::EMPTY,
            go_final_request: false,
        })
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &LookupOptions {
        &self.options
    }

    /// Starts the lookup at `now_ms`: the first request goes to the service
    /// address, non-authoritative. The deadline is `now_ms` plus the lookup
    /// timeout.
    pub fn start(&mut self, now_ms: u64) -> LookupAction<'_> {
        if self.state != State::NotStarted {
            return LookupAction::Ignored(IgnoredEvent::AlreadyStarted);
        }
        self.start_ms = now_ms;
        self.deadline_ms = now_ms.saturating_add(self.options.effective_lookup_timeout_ms());
        self.begin_attempt()
    }

    /// The broker's answer to the request out, at `now_ms`.
    pub fn on_response(&mut self, response: &LookupResponse<'_>, now_ms: u64) -> LookupAction<'_> {
        if let Some(ignored) = self.check_awaiting() {
            return LookupAction::Ignored(ignored);
        }
        if self.go_final_request {
            // Go's loop has ended: it fails without looking at the answer.
            return self.attempt_failed(AttemptError::GoRedirectLimit, now_ms);
        }
        // Java (`ClientCnx.handleLookupResponse`): a missing response type
        // fails like `Failed`, with the error code if there is one and
        // "Empty lookup response" if not.
        let kind = match response.response {
            None | Some(LookupType::Failed) => {
                self.message.set(response.message.unwrap_or(""));
                let error = response
                    .error
                    .map_or(AttemptError::EmptyResponse, AttemptError::Server);
                return self.attempt_failed(error, now_ms);
            }
            Some(kind) => kind,
        };
        let tls = self.options.use_tls;
        let url = if tls {
            response.broker_service_url_tls
        } else {
            response.broker_service_url
        };
        let Some(url) = url else {
            return self.attempt_failed(AttemptError::MissingBrokerUrl { tls }, now_ms);
        };
        let url = match Address::new(url) {
            Ok(a) => a,
            Err(len) => return self.attempt_failed(AttemptError::AddressTooLong { len }, now_ms),
        };
        self.last_authoritative = Some(response.authoritative);
        let go = self.options.profile == LookupProfile::Go;
        let proxy = response.proxy_through_service_url;
        match kind {
            LookupType::Connect => {
                // Java: the physical address is the hop that answered (the
                // proxy the client is talking to); Go resolves the service
                // URL afresh.
                self.physical = match (proxy, go) {
                    (false, _) => url,
                    (true, false) => self.physical,
                    (true, true) => self.service,
                };
                self.logical = url;
                self.use_proxy = proxy;
                self.state = State::Done;
                LookupAction::Done(self.result())
            }
            _ => self.follow_redirect(url, response.authoritative, proxy, now_ms),
        }
    }

    /// The connection for the request out could not be made, at `now_ms`.
    pub fn on_connection_failed(&mut self, now_ms: u64) -> LookupAction<'_> {
        self.on_attempt_error(AttemptError::ConnectionFailed, now_ms)
    }

    /// The request out got no answer within the operation timeout.
    pub fn on_request_timeout(&mut self, now_ms: u64) -> LookupAction<'_> {
        self.on_attempt_error(AttemptError::RequestTimeout, now_ms)
    }

    /// The request out failed in the embedder with `error` (e.g.
    /// [`AttemptError::TooManyRequests`] from a [`LookupThrottle`](super::LookupThrottle)).
    pub fn on_attempt_error(&mut self, error: AttemptError, now_ms: u64) -> LookupAction<'_> {
        if let Some(ignored) = self.check_awaiting() {
            return LookupAction::Ignored(ignored);
        }
        self.attempt_failed(error, now_ms)
    }

    /// The retry timer of a [`LookupAction::RetryAt`] fired: a new attempt
    /// starts from the service address, non-authoritative.
    ///
    /// A timer that fires before the `at_ms` of the `RetryAt` (a stale or
    /// early timer) is [`IgnoredEvent::RetryNotDue`]: the retry stays
    /// scheduled, so the backoff cannot be cut short.
    pub fn on_retry_timer(&mut self, now_ms: u64) -> LookupAction<'_> {
        match self.state {
            State::WaitingRetry { at_ms } if now_ms < at_ms => {
                LookupAction::Ignored(IgnoredEvent::RetryNotDue)
            }
            State::WaitingRetry { .. } => self.begin_attempt(),
            State::NotStarted => LookupAction::Ignored(IgnoredEvent::NotStarted),
            State::Done | State::Failed(_) => LookupAction::Ignored(IgnoredEvent::Finished),
            State::AwaitingResponse => LookupAction::Ignored(IgnoredEvent::NoRetryScheduled),
        }
    }

    /// The redirect chain of the current (or last) attempt: the service
    /// address first, then every redirect target, with the authoritative
    /// flag each request carried.
    pub fn chain(&self) -> impl Iterator<Item = &Hop> + '_ {
        self.chain.as_ref().iter().take(self.chain_len)
    }

    /// Whether the chain storage filled up and later hops were not
    /// recorded.
    #[must_use]
    pub fn chain_truncated(&self) -> bool {
        self.chain_truncated
    }

    /// The message of the last `Failed` response (truncated to 256 bytes),
    /// or `""`.
    #[must_use]
    pub fn server_message(&self) -> &str {
        self.message.as_str()
    }

    /// The result, once the lookup succeeded.
    #[must_use]
    pub fn result(&self) -> LookupResult<'_> {
        LookupResult {
            logical_address: self.logical.as_str(),
            physical_address: self.physical.as_str(),
            use_proxy: self.use_proxy,
            authoritative: self.last_authoritative.unwrap_or(false),
            redirects: self.redirects,
            attempts: self.attempts,
        }
    }

    /// Whether the lookup succeeded.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The error, once the lookup failed.
    #[must_use]
    pub fn error(&self) -> Option<LookupError> {
        match self.state {
            State::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// The failure once failed, else the last attempt's error, with the
    /// broker's message; `None` while no attempt has failed.
    #[must_use]
    pub fn explain_error(&self) -> Option<WithServerMessage<'_>> {
        let error = self.error().or(self.last_error.map(LookupError::Attempt))?;
        Some(error.with_server_message(self.server_message()))
    }

    /// Whether the lookup ended, with a result or an error.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        matches!(self.state, State::Done | State::Failed(_))
    }

    /// When the pending retry is due, if one is.
    #[must_use]
    pub fn retry_at_ms(&self) -> Option<u64> {
        match self.state {
            State::WaitingRetry { at_ms } => Some(at_ms),
            _ => None,
        }
    }

    /// The deadline, once started.
    #[must_use]
    pub fn deadline_ms(&self) -> Option<u64> {
        (self.state != State::NotStarted).then_some(self.deadline_ms)
    }

    /// The authoritative flag of the last response that had one (`Connect`
    /// or `Redirect`).
    #[must_use]
    pub fn last_response_authoritative(&self) -> Option<bool> {
        self.last_authoritative
    }

    /// The last attempt's error.
    #[must_use]
    pub fn last_attempt_error(&self) -> Option<AttemptError> {
        self.last_error
    }

    /// Attempts made so far.
    #[must_use]
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The request out, while one is.
    #[must_use]
    pub fn pending_request(&self) -> Option<SendLookup<'_>> {
        (self.state == State::AwaitingResponse).then(|| self.request())
    }

    fn check_awaiting(&self) -> Option<IgnoredEvent> {
        match self.state {
            State::AwaitingResponse => None,
            State::NotStarted => Some(IgnoredEvent::NotStarted),
            State::Done | State::Failed(_) => Some(IgnoredEvent::Finished),
            State::WaitingRetry { .. } => Some(IgnoredEvent::NoRequestOut),
        }
    }

    fn request(&self) -> SendLookup<'_> {
        SendLookup {
            logical_address: self.logical.as_str(),
            physical_address: self.physical.as_str(),
            authoritative: self.authoritative,
            send_properties: self.send_properties,
            redirects: self.redirects,
            attempt: self.attempts,
        }
    }

    fn begin_attempt(&mut self) -> LookupAction<'_> {
        self.attempts = self.attempts.saturating_add(1);
        self.logical = self.service;
        self.physical = self.service;
        self.authoritative = false;
        self.send_properties = true;
        self.redirects = 0;
        self.use_proxy = false;
        self.go_final_request = false;
        self.chain_len = 0;
        self.chain_truncated = false;
        self.record(self.service, false);
        self.state = State::AwaitingResponse;
        LookupAction::SendLookup(self.request())
    }

    fn record(&mut self, address: Address, authoritative: bool) {
        match self.chain.as_mut().get_mut(self.chain_len) {
            Some(slot) => {
                *slot = Hop {
                    address,
                    authoritative,
                };
                self.chain_len += 1;
            }
            None => self.chain_truncated = true,
        }
    }

    fn follow_redirect(
        &mut self,
        url: Address,
        authoritative: bool,
        proxy: bool,
        now_ms: u64,
    ) -> LookupAction<'_> {
        let go = self.options.profile == LookupProfile::Go;
        let redirects = self.redirects.saturating_add(1);
        if !go {
            let limit = self.options.max_redirects;
            if limit > 0 && redirects > limit {
                return self.attempt_failed(AttemptError::TooManyRedirects { limit }, now_ms);
            }
        }
        // Java would redirect for ever with no limit and instant answers;
        // the deadline bounds every lookup. It is exclusive, as Java's is
        // after a failure.
        if now_ms > self.deadline_ms {
            return self.fail(LookupError::DeadlineExceeded {
                attempts: self.attempts,
                elapsed_ms: now_ms.saturating_sub(self.start_ms),
                last: self.last_error,
            });
        }
        if self.options.detect_redirect_loops
            && self
                .chain()
                .any(|h| h.address == url && h.authoritative == authoritative)
        {
            self.record(url, authoritative);
            let hops = u32::try_from(self.chain_len).unwrap_or(u32::MAX);
            return self.attempt_failed(AttemptError::RedirectLoop { hops }, now_ms);
        }
        self.redirects = redirects;
        self.authoritative = authoritative;
        self.logical = url;
        self.physical = if go && proxy { self.service } else { url };
        if go {
            self.send_properties = false;
            // Go's 20th response was this redirect: the request it sends
            // now is its last, and its answer ends the loop.
            self.go_final_request = redirects >= GO_LOOKUP_MAX_REDIRECT;
        }
        self.record(url, authoritative);
        LookupAction::SendLookup(self.request())
    }

    fn fail(&mut self, error: LookupError) -> LookupAction<'_> {
        self.state = State::Failed(error);
        LookupAction::Failed(error)
    }

    fn attempt_failed(&mut self, error: AttemptError, now_ms: u64) -> LookupAction<'_> {
        self.last_error = Some(error);
        if !self.options.retry || !error.is_retriable() {
            return self.fail(LookupError::Attempt(error));
        }
        // Java (`ProducerImpl.connectionFailed`) gives up only when
        // `now > lookupDeadline`: a failure exactly at the deadline is
        // retried.
        if now_ms > self.deadline_ms {
            return self.fail(LookupError::DeadlineExceeded {
                attempts: self.attempts,
                elapsed_ms: now_ms.saturating_sub(self.start_ms),
                last: Some(error),
            });
        }
        let remaining = self.deadline_ms.saturating_sub(now_ms);
        let random = self.jitter.next_u32();
        let backoff = self.backoff.next(now_ms, random);
        // Before the deadline the delay is cut to the time left, so the last
        // retry happens by the deadline. At the deadline Java waits its
        // backoff: cutting it to 0 would retry at once, and again for every
        // failure reported in the same millisecond.
        let delay_ms = if remaining == 0 {
            backoff
        } else {
            backoff.min(remaining)
        };
        let at_ms = now_ms.saturating_add(delay_ms);
        self.state = State::WaitingRetry { at_ms };
        LookupAction::RetryAt {
            at_ms,
            delay_ms,
            cause: error,
            attempt: self.attempts,
        }
    }
}
