//! Lookup actions that own their strings, with their reason; the drivers
//! and coalescing tables over heap storage; the coalescing keys with owned
//! strings. The C ABI and Python hold these, so both report the same
//! actions and the same explanations.

use pulsar_routing::lookup::{
    AttemptError, Hop, InFlightLookup, LookupAction, LookupCoalescer, LookupError, LookupOptions,
    LookupProperties, LookupResult, MetadataAction, PartitionedMetadataLookup, SendLookup,
    TopicLookup,
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

/// What an action asks for, as the bindings name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ActionKind {
    /// Send a lookup request (topic lookup).
    SendLookup,
    /// Wait until the given time, then retry.
    RetryAt,
    /// The lookup is done.
    Done,
    /// The lookup failed for good.
    Failed,
    /// The event does not apply in the current state: nothing to do.
    #[default]
    Ignored,
    /// Connect to the broker (metadata lookup).
    Connect,
    /// Send the partitioned-metadata request (metadata lookup).
    SendPartitionedMetadata,
}

impl ActionKind {
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

impl FlatAction<'_> {
    /// An action of `kind` with no field set.
    fn of(kind: ActionKind) -> Self {
        Self {
            kind,
            ..Self::default()
        }
    }
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
