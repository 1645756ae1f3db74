//! Lookup actions that own their strings, with their reason; the drivers
//! and coalescing tables over heap storage; the coalescing keys with owned
//! strings. The C ABI and Python hold these, so both report the same
//! actions and the same explanations; and what the bindings read from
//! their callers (profiles, response types, server errors, the metadata
//! events), with the text of its errors.

use std::collections::HashMap;
use std::fmt;

use pulsar_routing::lookup::{
    AttemptError, CoalesceError, Hop, InFlightLookup, LookupAction, LookupCoalescer, LookupError,
    LookupOptions, LookupProfile, LookupProperties, LookupResult, LookupType, MetadataAction,
    PartitionedMetadataLookup, PartitionedMetadataResponse, SendLookup, ServerError, TopicLookup,
};

/// The most redirect-chain slots a binding's topic lookup takes.
pub const MAX_CHAIN_CAPACITY: usize = 4096;
/// The most slots a binding's coalescing table takes.
pub const MAX_COALESCER_CAPACITY: usize = 1 << 20;

/// A topic lookup over heap chain storage.
pub type OwnedTopicLookup = TopicLookup<Vec<Hop>>;

/// A topic lookup at `service_address` keeping up to `chain_capacity` hops
/// of its redirect chain (capped at [`MAX_CHAIN_CAPACITY`]).
///
/// # Errors
/// [`AttemptError::AddressTooLong`] for an over-long address.
pub fn topic_lookup(
    service_address: &str,
    options: LookupOptions,
    chain_capacity: usize,
) -> Result<OwnedTopicLookup, AttemptError> {
    let chain = vec![Hop::EMPTY; chain_capacity.min(MAX_CHAIN_CAPACITY)];
    TopicLookup::new(service_address, options, chain)
}

/// The hops of `lookup`'s current (or last) redirect chain, the service
/// address first: (address, the request's authoritative flag).
#[must_use]
pub fn chain(lookup: &OwnedTopicLookup) -> Vec<(String, bool)> {
    lookup
        .chain()
        .map(|h| (h.address.as_str().to_owned(), h.authoritative))
        .collect()
}

/// A caller's `lookup_timeout_ms` where 0 stands for none (the C ABI's
/// options): the operation timeout then applies.
#[must_use]
pub const fn lookup_timeout(ms: u64) -> Option<u64> {
    if ms == 0 { None } else { Some(ms) }
}

/// An argument of a binding's lookup call that names nothing the lookup
/// knows. Its text is the one every binding reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgumentError {
    /// A profile code other than the C ABI's 0 (Java) and 1 (Go).
    UnknownProfileCode(u32),
    /// A profile name other than "java", "cpp" and "go".
    UnknownProfile(String),
    /// A response type other than "connect", "redirect" and "failed".
    UnknownResponse(String),
    /// A `ServerError` code the protocol does not define.
    UnknownServerErrorCode(i32),
    /// A `ServerError` name the protocol does not define.
    UnknownServerErrorName(String),
    /// A partitioned-metadata event code past the last, 5.
    UnknownEvent(u32),
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownProfileCode(code) => write!(f, "unknown lookup profile code {code}"),
            Self::UnknownProfile(name) => write!(
                f,
                "unknown lookup profile {name:?}: expected \"java\" or \"go\""
            ),
            Self::UnknownResponse(name) => write!(
                f,
                "unknown lookup response {name:?}: expected \"connect\", \"redirect\" or \"failed\""
            ),
            Self::UnknownServerErrorCode(code) => write!(f, "unknown ServerError code {code}"),
            Self::UnknownServerErrorName(name) => write!(f, "unknown ServerError {name:?}"),
            Self::UnknownEvent(code) => write!(f, "unknown partitioned-metadata event {code}"),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// The profile of the C ABI's code: 0 Java (and C++), 1 Go.
///
/// # Errors
/// [`ArgumentError::UnknownProfileCode`] for any other code.
pub const fn profile_of_code(code: u32) -> Result<LookupProfile, ArgumentError> {
    match code {
        0 => Ok(LookupProfile::Java),
        1 => Ok(LookupProfile::Go),
        _ => Err(ArgumentError::UnknownProfileCode(code)),
    }
}

/// The profile named `name` (`"java"`, `"cpp"` or `"go"`).
///
/// # Errors
/// [`ArgumentError::UnknownProfile`] for any other name.
pub fn profile_named(name: &str) -> Result<LookupProfile, ArgumentError> {
    LookupProfile::from_name(name).ok_or_else(|| ArgumentError::UnknownProfile(name.to_owned()))
}

/// The response type of the protocol's code (0 `Redirect`, 1 `Connect`,
/// 2 `Failed`). Any other code, the C ABI's -1 included, is an absent
/// type, which the driver reports as an empty response.
#[must_use]
pub const fn response_type_of_code(code: i32) -> Option<LookupType> {
    match code {
        0 => Some(LookupType::Redirect),
        1 => Some(LookupType::Connect),
        2 => Some(LookupType::Failed),
        _ => None,
    }
}

/// The response type named `"redirect"`, `"connect"` or `"failed"`;
/// `None` for an absent type.
///
/// # Errors
/// [`ArgumentError::UnknownResponse`] for any other name.
pub fn response_type_named(name: Option<&str>) -> Result<Option<LookupType>, ArgumentError> {
    match name {
        None => Ok(None),
        Some("redirect") => Ok(Some(LookupType::Redirect)),
        Some("connect") => Ok(Some(LookupType::Connect)),
        Some("failed") => Ok(Some(LookupType::Failed)),
        Some(other) => Err(ArgumentError::UnknownResponse(other.to_owned())),
    }
}

/// The `ServerError` of the protocol's code.
///
/// # Errors
/// [`ArgumentError::UnknownServerErrorCode`] for a code it does not define.
pub fn server_error_of_code(code: i32) -> Result<ServerError, ArgumentError> {
    ServerError::from_code(code).ok_or(ArgumentError::UnknownServerErrorCode(code))
}

/// The `ServerError` of a code where -1 stands for none (the C ABI's
/// fields).
///
/// # Errors
/// [`ArgumentError::UnknownServerErrorCode`] for another code the protocol
/// does not define.
pub fn optional_server_error(code: i32) -> Result<Option<ServerError>, ArgumentError> {
    match code {
        -1 => Ok(None),
        code => server_error_of_code(code).map(Some),
    }
}

/// The `ServerError` named `name`, e.g. `"ServiceNotReady"`.
///
/// # Errors
/// [`ArgumentError::UnknownServerErrorName`] for a name the protocol does
/// not define.
pub fn server_error_named(name: &str) -> Result<ServerError, ArgumentError> {
    ServerError::from_name(name)
        .ok_or_else(|| ArgumentError::UnknownServerErrorName(name.to_owned()))
}

/// The short name the bindings give an attempt error: the `kind` of
/// Python's actions and exceptions.
#[must_use]
pub const fn attempt_kind(e: AttemptError) -> &'static str {
    match e {
        AttemptError::Server(_) => "server_error",
        AttemptError::EmptyResponse => "empty_response",
        AttemptError::MissingBrokerUrl { .. } => "missing_broker_url",
        AttemptError::TooManyRedirects { .. } => "too_many_redirects",
        AttemptError::GoRedirectLimit => "go_redirect_limit",
        AttemptError::RedirectLoop { .. } => "redirect_loop",
        AttemptError::AddressTooLong { .. } => "address_too_long",
        AttemptError::ConnectionFailed => "connection_failed",
        AttemptError::RequestTimeout => "request_timeout",
        AttemptError::TooManyRequests { .. } => "too_many_requests",
        AttemptError::FeatureNotSupported => "feature_not_supported",
        _ => "unknown",
    }
}

/// The short name of a lookup error: its attempt error's, or
/// `"deadline_exceeded"`.
#[must_use]
pub const fn error_kind(e: LookupError) -> &'static str {
    match e {
        LookupError::Attempt(a) => attempt_kind(a),
        _ => "deadline_exceeded",
    }
}

/// Which exception a binding raises for a lookup error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFamily {
    /// The lookup timeout passed.
    Timeout,
    /// The broker failed the lookup (a server error).
    Failed,
    /// More redirects than the limit (Java's or the Go client's).
    TooManyRedirects,
    /// Redirected back to an address already asked.
    RedirectLoop,
    /// The connection's lookup throttle is full.
    TooManyRequests,
    /// Any other lookup error.
    Other,
}

/// A value a lookup error carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorField {
    /// A count or a duration in milliseconds.
    Number(u64),
    /// A text.
    Text(String),
    /// A text, or none.
    MaybeText(Option<String>),
    /// The attempt's redirect chain, which the binding holds.
    Chain,
}

/// A lookup error as a binding's exception shows it: its family, its text
/// (with the broker's message after a server error), and the values it
/// carries, under the names Python's exceptions give them (`kind` for
/// every error the core names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// Which exception.
    pub family: ErrorFamily,
    /// Its message.
    pub text: String,
    /// Its attributes, by name.
    pub fields: Vec<(&'static str, ErrorField)>,
}

impl ErrorReport {
    /// The report of `error`; `server_message` is the driver's message of
    /// the last `Failed` response.
    #[must_use]
    pub fn new(error: LookupError, server_message: &str) -> Self {
        let text = |e: LookupError| e.with_server_message(server_message).to_string();
        let mut fields = Vec::new();
        let family = match error {
            LookupError::DeadlineExceeded {
                attempts,
                elapsed_ms,
                last,
            } => {
                fields.push(("attempts", ErrorField::Number(attempts.into())));
                fields.push(("elapsed_ms", ErrorField::Number(elapsed_ms)));
                let last = last.map(|a| text(LookupError::Attempt(a)));
                fields.push(("last_error", ErrorField::MaybeText(last)));
                ErrorFamily::Timeout
            }
            LookupError::Attempt(AttemptError::Server(e)) => {
                fields.push(("server_error", ErrorField::Text(e.name().into())));
                fields.push(("server_message", ErrorField::Text(server_message.into())));
                ErrorFamily::Failed
            }
            LookupError::Attempt(
                a @ (AttemptError::TooManyRedirects { .. } | AttemptError::GoRedirectLimit),
            ) => {
                let limit = match a {
                    AttemptError::TooManyRedirects { limit } => limit,
                    _ => pulsar_routing::lookup::GO_LOOKUP_MAX_REDIRECT,
                };
                fields.push(("limit", ErrorField::Number(limit.into())));
                ErrorFamily::TooManyRedirects
            }
            LookupError::Attempt(AttemptError::RedirectLoop { .. }) => {
                fields.push(("chain", ErrorField::Chain));
                ErrorFamily::RedirectLoop
            }
            LookupError::Attempt(AttemptError::TooManyRequests { in_flight, queued }) => {
                fields.push(("in_flight", ErrorField::Number(in_flight.into())));
                fields.push(("queued", ErrorField::Number(queued.into())));
                ErrorFamily::TooManyRequests
            }
            LookupError::Attempt(_) => ErrorFamily::Other,
            // A variant the core adds later: its own text, no attributes.
            _ => {
                return Self {
                    family: ErrorFamily::Other,
                    text: error.to_string(),
                    fields,
                };
            }
        };
        fields.push(("kind", ErrorField::Text(error_kind(error).into())));
        Self {
            family,
            text: text(error),
            fields,
        }
    }
}

/// A coalescing table over heap slots.
pub type Coalescer<K> = LookupCoalescer<K, Vec<Option<InFlightLookup<K>>>>;

/// A coalescing table with `capacity` slots (capped at
/// [`MAX_COALESCER_CAPACITY`]).
#[must_use]
pub fn coalescer<K: PartialEq>(capacity: usize) -> Coalescer<K> {
    let slots = (0..capacity.min(MAX_COALESCER_CAPACITY))
        .map(|_| None)
        .collect();
    LookupCoalescer::new(slots)
}

/// A coalescing table that also keeps what waits on each lookup in flight
/// (a binding's futures, or `()` where only their number matters).
#[derive(Debug)]
pub struct Waiting<K, W> {
    table: Coalescer<K>,
    /// The waiters of each slot's lookup, in join order.
    waiters: HashMap<usize, Vec<W>>,
}

impl<K: PartialEq, W> Waiting<K, W> {
    /// A table with `capacity` slots (capped at [`MAX_COALESCER_CAPACITY`]).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            table: coalescer(capacity),
            waiters: HashMap::new(),
        }
    }

    /// Joins `key`'s lookup with `waiter`: whether the caller leads it (and
    /// must start it), and how many wait on it now, this one included.
    ///
    /// # Errors
    /// The table's: every slot taken, or too many waiters.
    pub fn join(&mut self, key: K, waiter: W) -> Result<(bool, u32), CoalesceError> {
        let joined = self.table.join(key)?;
        let list = self.waiters.entry(joined.slot()).or_default();
        if joined.is_leader() {
            list.clear();
        }
        list.push(waiter);
        let count = self.table.get(joined.slot()).map_or(1, |e| e.waiters);
        Ok((joined.is_leader(), count))
    }

    /// Removes `key`'s lookup and returns its waiters, in join order, to
    /// complete with its one result (none if it was not in flight).
    pub fn complete(&mut self, key: &K) -> Vec<W> {
        let Some(slot) = self.table.find(key) else {
            return Vec::new();
        };
        let _ = self.table.complete(key);
        self.waiters.remove(&slot).unwrap_or_default()
    }

    /// Lookups in flight.
    #[must_use]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether none is in flight.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The number of slots.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }
}

/// A lookup's coalescing key with owned strings; it compares (and hashes)
/// its properties as the core's [`LookupProperties`] does: as a map, in
/// any order, the last of a repeated name counting.
#[derive(Clone, Debug)]
pub struct OwnedLookupKey {
    /// The topic.
    pub topic: String,
    /// The lookup properties, as given.
    pub properties: Vec<(String, String)>,
}

impl OwnedLookupKey {
    /// The key of `topic`'s lookup with `properties`.
    #[must_use]
    pub fn new(topic: &str, properties: impl IntoIterator<Item = (String, String)>) -> Self {
        Self {
            topic: topic.to_owned(),
            properties: properties.into_iter().collect(),
        }
    }
}

impl PartialEq for OwnedLookupKey {
    fn eq(&self, other: &Self) -> bool {
        self.topic == other.topic
            && LookupProperties(&self.properties) == LookupProperties(&other.properties)
    }
}

impl Eq for OwnedLookupKey {}

impl std::hash::Hash for OwnedLookupKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.topic.hash(state);
        LookupProperties(&self.properties).hash(state);
    }
}

/// A partitioned-metadata request's coalescing key with an owned topic:
/// (topic, `metadata_auto_creation`, `use_fallback_for_non_pip344`), as
/// the core's `MetadataKey`.
pub type OwnedMetadataKey = (String, bool, bool);

/// The key of `topic`'s partitioned-metadata request.
#[must_use]
pub fn metadata_key(
    topic: &str,
    metadata_auto_creation: bool,
    use_fallback_for_non_pip344: bool,
) -> OwnedMetadataKey {
    (
        topic.to_owned(),
        metadata_auto_creation,
        use_fallback_for_non_pip344,
    )
}

/// What every action says besides its own fields: the attempt it
/// concerns, the error behind it, the broker's message, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    attempt: u32,
    error: Option<LookupError>,
    server_message: Option<String>,
    reason: String,
}

impl Explanation {
    /// `server_message` is the driver's message of the last `Failed`
    /// response, kept when `error` is a server error; `reason` is the
    /// action explained with it.
    fn new(
        attempt: u32,
        error: Option<LookupError>,
        server_message: &str,
        reason: impl std::fmt::Display,
    ) -> Self {
        let server = matches!(
            error.and_then(LookupError::attempt_error),
            Some(AttemptError::Server(_))
        );
        Self {
            attempt,
            error,
            server_message: server.then(|| server_message.to_owned()),
            reason: reason.to_string(),
        }
    }

    /// Why the driver took the action (`Display` of the core's
    /// [`Explained`](pulsar_routing::lookup::Explained)).
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The attempt the action concerns: the request's, the failed one's,
    /// the successful one's (topic lookup), or the attempts made for a
    /// failure; 0 when ignored and for the metadata's `Done`.
    #[must_use]
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// The error behind the action: the failure, or the cause of a retry.
    #[must_use]
    pub fn error(&self) -> Option<LookupError> {
        self.error
    }

    /// The broker's message, when the error behind the action is a server
    /// error.
    #[must_use]
    pub fn server_message(&self) -> Option<&str> {
        self.server_message.as_deref()
    }

    /// The server error behind the action, if its error is one (or ended
    /// with one, for a deadline).
    #[must_use]
    pub fn server_error(&self) -> Option<ServerError> {
        match self.error.and_then(LookupError::attempt_error) {
            Some(AttemptError::Server(s)) => Some(s),
            _ => None,
        }
    }

    /// The text of [`error`](Self::error), with the broker's message after a
    /// server error.
    #[must_use]
    pub fn error_text(&self) -> Option<String> {
        self.error.map(|e| {
            e.with_server_message(self.server_message().unwrap_or(""))
                .to_string()
        })
    }
}

/// A [`LookupAction`] that owns its strings, with its reason: what a
/// binding hands out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedLookupAction {
    /// The action with its addresses blanked; `action()` puts them back.
    action: LookupAction<'static>,
    logical: String,
    physical: String,
    explanation: Explanation,
}

impl OwnedLookupAction {
    /// Runs `event` on the driver and keeps the action it returns.
    pub fn drive<S: AsRef<[Hop]> + AsMut<[Hop]>>(
        lookup: &mut TopicLookup<S>,
        event: impl for<'a> FnOnce(&'a mut TopicLookup<S>) -> LookupAction<'a>,
    ) -> Self {
        let (action, logical, physical) = match event(lookup) {
            LookupAction::SendLookup(s) => (
                LookupAction::SendLookup(SendLookup {
                    logical_address: "",
                    physical_address: "",
                    ..s
                }),
                s.logical_address.to_owned(),
                s.physical_address.to_owned(),
            ),
            LookupAction::Done(d) => (
                LookupAction::Done(LookupResult {
                    logical_address: "",
                    physical_address: "",
                    ..d
                }),
                d.logical_address.to_owned(),
                d.physical_address.to_owned(),
            ),
            LookupAction::RetryAt {
                at_ms,
                delay_ms,
                cause,
                attempt,
            } => (
                LookupAction::RetryAt {
                    at_ms,
                    delay_ms,
                    cause,
                    attempt,
                },
                String::new(),
                String::new(),
            ),
            LookupAction::Failed(e) => (LookupAction::Failed(e), String::new(), String::new()),
            LookupAction::Ignored(why) => {
                (LookupAction::Ignored(why), String::new(), String::new())
            }
        };
        let mut owned = Self {
            action,
            logical,
            physical,
            explanation: Explanation::new(0, None, "", ""),
        };
        let view = owned.action();
        let attempt = match view {
            LookupAction::SendLookup(s) => s.attempt,
            LookupAction::RetryAt { attempt, .. } => attempt,
            LookupAction::Done(d) => d.attempts,
            LookupAction::Failed(_) => lookup.attempts(),
            LookupAction::Ignored(_) => 0,
        };
        let error = match view {
            LookupAction::RetryAt { cause, .. } => Some(LookupError::Attempt(cause)),
            LookupAction::Failed(e) => Some(e),
            _ => None,
        };
        let message = lookup.server_message();
        let explanation = Explanation::new(attempt, error, message, view.explain(message));
        owned.explanation = explanation;
        owned
    }

    /// The action, borrowing its strings from here.
    #[must_use]
    pub fn action(&self) -> LookupAction<'_> {
        match self.action {
            LookupAction::SendLookup(s) => LookupAction::SendLookup(SendLookup {
                logical_address: &self.logical,
                physical_address: &self.physical,
                ..s
            }),
            LookupAction::Done(d) => LookupAction::Done(LookupResult {
                logical_address: &self.logical,
                physical_address: &self.physical,
                ..d
            }),
            other => other,
        }
    }

    /// The attempt, the error, the broker's message and the reason.
    #[must_use]
    pub fn explanation(&self) -> &Explanation {
        &self.explanation
    }
}

/// A [`MetadataAction`] that owns its strings, with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedMetadataAction {
    /// The action with the address blanked; `action()` puts it back.
    action: MetadataAction<'static>,
    address: String,
    explanation: Explanation,
}

impl OwnedMetadataAction {
    /// Runs `event` on the driver and keeps the action it returns.
    pub fn drive(
        metadata: &mut PartitionedMetadataLookup,
        event: impl for<'a> FnOnce(&'a mut PartitionedMetadataLookup) -> MetadataAction<'a>,
    ) -> Self {
        let (action, address) = match event(metadata) {
            MetadataAction::Connect { address, attempt } => (
                MetadataAction::Connect {
                    address: "",
                    attempt,
                },
                address.to_owned(),
            ),
            MetadataAction::SendPartitionedMetadata {
                metadata_auto_creation,
                attempt,
            } => (
                MetadataAction::SendPartitionedMetadata {
                    metadata_auto_creation,
                    attempt,
                },
                String::new(),
            ),
            MetadataAction::RetryAt {
                at_ms,
                delay_ms,
                cause,
                attempt,
            } => (
                MetadataAction::RetryAt {
                    at_ms,
                    delay_ms,
                    cause,
                    attempt,
                },
                String::new(),
            ),
            MetadataAction::Done(plan) => (MetadataAction::Done(plan), String::new()),
            MetadataAction::Failed(e) => (MetadataAction::Failed(e), String::new()),
            MetadataAction::Ignored(why) => (MetadataAction::Ignored(why), String::new()),
        };
        let (attempt, error) = match action {
            MetadataAction::Connect { attempt, .. }
            | MetadataAction::SendPartitionedMetadata { attempt, .. } => (attempt, None),
            MetadataAction::RetryAt { attempt, cause, .. } => {
                (attempt, Some(LookupError::Attempt(cause)))
            }
            MetadataAction::Failed(e) => (metadata.attempts(), Some(e)),
            MetadataAction::Done(_) | MetadataAction::Ignored(_) => (0, None),
        };
        let mut owned = Self {
            action,
            address,
            explanation: Explanation::new(0, None, "", ""),
        };
        let message = metadata.server_message();
        let explanation =
            Explanation::new(attempt, error, message, owned.action().explain(message));
        owned.explanation = explanation;
        owned
    }

    /// The action, borrowing its strings from here.
    #[must_use]
    pub fn action(&self) -> MetadataAction<'_> {
        match self.action {
            MetadataAction::Connect { attempt, .. } => MetadataAction::Connect {
                address: &self.address,
                attempt,
            },
            other => other,
        }
    }

    /// The attempt, the error, the broker's message and the reason.
    #[must_use]
    pub fn explanation(&self) -> &Explanation {
        &self.explanation
    }
}

/// An event of a partitioned-metadata lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataEvent<'a> {
    /// `start`.
    Start,
    /// The connection is up, with the broker's PIP-344 feature flag.
    Connected(bool),
    /// The broker's response.
    Response(PartitionedMetadataResponse<'a>),
    /// The connection failed.
    ConnectionFailed,
    /// The retry timer fired.
    RetryTimer,
}

impl<'a> MetadataEvent<'a> {
    /// The event of the C ABI's code: 0 start, 1 connected with `flag`,
    /// 2 a success with `partitions`, 3 a failure with `error` and
    /// `message`, 4 the connection failed, 5 the retry timer.
    ///
    /// # Errors
    /// [`ArgumentError::UnknownEvent`] for any other code.
    pub const fn of_code(
        code: u32,
        flag: bool,
        partitions: u32,
        error: Option<ServerError>,
        message: Option<&'a str>,
    ) -> Result<Self, ArgumentError> {
        Ok(match code {
            0 => Self::Start,
            1 => Self::Connected(flag),
            2 => Self::Response(PartitionedMetadataResponse::Success { partitions }),
            3 => Self::Response(PartitionedMetadataResponse::Failed { error, message }),
            4 => Self::ConnectionFailed,
            5 => Self::RetryTimer,
            _ => return Err(ArgumentError::UnknownEvent(code)),
        })
    }
}

impl OwnedMetadataAction {
    /// Feeds `event` to the driver at `now_ms` and keeps the action it
    /// returns.
    pub fn on(
        metadata: &mut PartitionedMetadataLookup,
        event: MetadataEvent<'_>,
        now_ms: u64,
    ) -> Self {
        Self::drive(metadata, |m| match event {
            MetadataEvent::Start => m.start(now_ms),
            MetadataEvent::Connected(flag) => m.on_connected(flag, now_ms),
            MetadataEvent::Response(r) => m.on_response(&r, now_ms),
            MetadataEvent::ConnectionFailed => m.on_connection_failed(now_ms),
            MetadataEvent::RetryTimer => m.on_retry_timer(now_ms),
        })
    }
}

/// What an action asks for, as the bindings name it; its value is the C
/// ABI's `PULSAR_ROUTING_LOOKUP_ACTION_*` code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ActionKind {
    /// Send a lookup request (topic lookup).
    SendLookup = 0,
    /// Wait until the given time, then retry.
    RetryAt = 1,
    /// The lookup is done.
    Done = 2,
    /// The lookup failed for good.
    Failed = 3,
    /// The event does not apply in the current state: nothing to do.
    #[default]
    Ignored = 4,
    /// Connect to the broker (metadata lookup).
    Connect = 5,
    /// Send the partitioned-metadata request (metadata lookup).
    SendPartitionedMetadata = 6,
}

impl ActionKind {
    /// The C ABI's `PULSAR_ROUTING_LOOKUP_ACTION_*` code.
    #[must_use]
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The name Python's `LookupAction.kind` gives it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::SendLookup => "send_lookup",
            Self::RetryAt => "retry_at",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Ignored => "ignored",
            Self::Connect => "connect",
            Self::SendPartitionedMetadata => "send_partitioned_metadata",
        }
    }
}

/// A topic or metadata lookup action as one flat record, the shape every
/// binding shows (C's `pulsar_routing_lookup_action`, Python's
/// `LookupAction`): the fields its kind sets, the others `None`, `false`
/// or 0. Which action sets which field is decided here only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlatAction<'a> {
    /// What the action asks for.
    pub kind: ActionKind,
    /// The broker the lookup is about (send lookup, done).
    pub logical_address: Option<&'a str>,
    /// Where to send it or connect (send lookup, done, connect).
    pub physical_address: Option<&'a str>,
    /// The lookup's authoritative flag (send lookup, done).
    pub authoritative: bool,
    /// Whether the request carries the producer's properties (send lookup).
    pub send_properties: bool,
    /// Whether the client connects through the proxy (done).
    pub use_proxy: bool,
    /// Whether the broker may create the topic (send partitioned metadata).
    pub metadata_auto_creation: bool,
    /// The redirects followed so far (send lookup, done).
    pub redirects: u32,
    /// When to retry, in milliseconds (retry).
    pub at_ms: Option<u64>,
    /// The backoff before the retry, in milliseconds (retry).
    pub delay_ms: Option<u64>,
    /// The topic's partition count (metadata done).
    pub partitions: Option<u32>,
}

impl OwnedLookupAction {
    /// The action as a flat record.
    #[must_use]
    pub fn flat(&self) -> FlatAction<'_> {
        match self.action() {
            LookupAction::SendLookup(s) => FlatAction {
                logical_address: Some(s.logical_address),
                physical_address: Some(s.physical_address),
                authoritative: s.authoritative,
                send_properties: s.send_properties,
                redirects: s.redirects,
                ..FlatAction::of(ActionKind::SendLookup)
            },
            LookupAction::RetryAt {
                at_ms, delay_ms, ..
            } => retry(at_ms, delay_ms),
            LookupAction::Done(d) => FlatAction {
                logical_address: Some(d.logical_address),
                physical_address: Some(d.physical_address),
                use_proxy: d.use_proxy,
                authoritative: d.authoritative,
                redirects: d.redirects,
                ..FlatAction::of(ActionKind::Done)
            },
            LookupAction::Failed(_) => FlatAction::of(ActionKind::Failed),
            LookupAction::Ignored(_) => FlatAction::of(ActionKind::Ignored),
        }
    }
}

impl OwnedMetadataAction {
    /// The action as a flat record.
    #[must_use]
    pub fn flat(&self) -> FlatAction<'_> {
        match self.action() {
            MetadataAction::RetryAt {
                at_ms, delay_ms, ..
            } => retry(at_ms, delay_ms),
            MetadataAction::Failed(_) => FlatAction::of(ActionKind::Failed),
            MetadataAction::Ignored(_) => FlatAction::of(ActionKind::Ignored),
            MetadataAction::Connect { address, .. } => FlatAction {
                physical_address: Some(address),
                ..FlatAction::of(ActionKind::Connect)
            },
            MetadataAction::SendPartitionedMetadata {
                metadata_auto_creation,
                ..
            } => FlatAction {
                metadata_auto_creation,
                ..FlatAction::of(ActionKind::SendPartitionedMetadata)
            },
            MetadataAction::Done(plan) => FlatAction {
                partitions: Some(plan.partitions),
                ..FlatAction::of(ActionKind::Done)
            },
        }
    }
}

/// What the bindings read of an action of either driver: its flat
/// record and its explanation, so that one path serves both handles.
pub trait ActionParts {
    /// The action as a flat record.
    fn flat_action(&self) -> FlatAction<'_>;
    /// The attempt, the error, the broker's message and the reason.
    fn explanation_of(&self) -> &Explanation;
}

impl ActionParts for OwnedLookupAction {
    fn flat_action(&self) -> FlatAction<'_> {
        self.flat()
    }
    fn explanation_of(&self) -> &Explanation {
        self.explanation()
    }
}

impl ActionParts for OwnedMetadataAction {
    fn flat_action(&self) -> FlatAction<'_> {
        self.flat()
    }
    fn explanation_of(&self) -> &Explanation {
        self.explanation()
    }
}

impl FlatAction<'_> {
    /// An action of `kind` with no field set.
    fn of(kind: ActionKind) -> Self {
        Self {
            kind,
            ..Self::default()
        }
    }
}

impl FlatAction<'_> {
    /// The action in a line, its kind and the fields that matter for it,
    /// e.g. `send_lookup(to="pulsar://b:6650", authoritative=False,
    /// attempt=1, redirects=0)`: what Python's `repr` shows after
    /// `LookupAction.`. Flags are written `True`/`False`, as in the
    /// reasons.
    #[must_use]
    pub fn describe(&self, e: &Explanation) -> String {
        let quoted = |s: Option<&str>| format!("{:?}", s.unwrap_or(""));
        let error = || format!("error={}", quoted(e.error_text().as_deref()));
        let mut fields = Vec::new();
        match self.kind {
            ActionKind::SendLookup => {
                fields.push(format!("to={}", quoted(self.logical_address)));
                if self.physical_address != self.logical_address {
                    fields.push(format!("via={}", quoted(self.physical_address)));
                }
                fields.push(format!("authoritative={}", title(self.authoritative)));
                if !self.send_properties {
                    fields.push("send_properties=False".into());
                }
                fields.push(format!("attempt={}", e.attempt()));
                fields.push(format!("redirects={}", self.redirects));
            }
            ActionKind::RetryAt => {
                fields.push(format!("at_ms={}", self.at_ms.unwrap_or(0)));
                fields.push(format!("delay_ms={}", self.delay_ms.unwrap_or(0)));
                fields.push(error());
            }
            ActionKind::Done => match self.partitions {
                Some(p) => fields.push(format!("partitions={p}")),
                None => {
                    fields.push(format!("logical={}", quoted(self.logical_address)));
                    fields.push(format!("physical={}", quoted(self.physical_address)));
                    fields.push(format!("use_proxy={}", title(self.use_proxy)));
                    fields.push(format!("authoritative={}", title(self.authoritative)));
                }
            },
            ActionKind::Failed => fields.push(error()),
            ActionKind::Connect => fields.push(format!("to={}", quoted(self.physical_address))),
            ActionKind::SendPartitionedMetadata => fields.push(format!(
                "metadata_auto_creation={}",
                title(self.metadata_auto_creation)
            )),
            ActionKind::Ignored => fields.push(format!("reason={:?}", e.reason())),
        }
        format!("{}({})", self.kind.name(), fields.join(", "))
    }
}

/// A flag as the descriptions write it.
const fn title(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn retry<'a>(at_ms: u64, delay_ms: u64) -> FlatAction<'a> {
    FlatAction {
        at_ms: Some(at_ms),
        delay_ms: Some(delay_ms),
        ..FlatAction::of(ActionKind::RetryAt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulsar_routing::lookup::{LookupResponse, ServerError};

    #[test]
    fn a_flat_action_sets_only_what_its_kind_carries() {
        let mut l = topic_lookup("pulsar://proxy:6650", LookupOptions::default(), 21).unwrap();
        let first = OwnedLookupAction::drive(&mut l, |l| l.start(0));
        let first = first.flat();
        assert_eq!(first.kind, ActionKind::SendLookup);
        assert_eq!(first.kind.name(), "send_lookup");
        assert_eq!(first.logical_address, Some("pulsar://proxy:6650"));
        assert_eq!(first.physical_address, Some("pulsar://proxy:6650"));
        assert_eq!(
            (first.at_ms, first.delay_ms, first.partitions),
            (None, None, None)
        );
        // Starting twice does nothing: an ignored action carries no field.
        let again = OwnedLookupAction::drive(&mut l, |l| l.start(0));
        assert!(matches!(again.action(), LookupAction::Ignored(_)));
        assert_eq!(again.flat(), FlatAction::of(ActionKind::Ignored));
    }

    #[test]
    fn an_owned_action_is_the_driver_action_with_its_reason() {
        let mut l = topic_lookup("pulsar://proxy:6650", LookupOptions::default(), 21).unwrap();
        let first = OwnedLookupAction::drive(&mut l, |l| l.start(0));
        let LookupAction::SendLookup(s) = first.action() else {
            panic!()
        };
        assert_eq!((s.logical_address, s.attempt), ("pulsar://proxy:6650", 1));
        assert_eq!(
            first.explanation().reason(),
            "first lookup, at the service address, non-authoritative"
        );
        let failed = LookupResponse::failed(ServerError::ServiceNotReady, "busy");
        let retry = OwnedLookupAction::drive(&mut l, |l| l.on_response(&failed, 3));
        let retry = retry.explanation();
        assert_eq!(retry.server_message(), Some("busy"));
        assert_eq!(
            retry.error_text().as_deref(),
            Some("the broker failed the lookup with ServiceNotReady: busy")
        );
        assert!(
            retry
                .reason()
                .contains("(the broker failed the lookup with ServiceNotReady: busy)")
        );
    }

    #[test]
    fn owned_keys_compare_as_maps() {
        let key = |props: &[(&str, &str)]| OwnedLookupKey {
            topic: "t".into(),
            properties: props
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        };
        let mut table = coalescer(4);
        assert!(
            table
                .join(key(&[("a", "1"), ("b", "2")]))
                .unwrap()
                .is_leader()
        );
        assert!(
            !table
                .join(key(&[("b", "2"), ("a", "1")]))
                .unwrap()
                .is_leader()
        );
        assert_eq!(
            table.complete(&key(&[("a", "0"), ("b", "2"), ("a", "1")])),
            Some(2)
        );
    }
}
