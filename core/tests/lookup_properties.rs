//! Properties of the lookup drivers over arbitrary broker behaviour:
//! termination, the authoritative flag, and coalescing.

use proptest::prelude::*;
use pulsar_routing::lookup::{
    AttemptError, Hop, IgnoredEvent, InFlightLookup, LookupAction, LookupCoalescer, LookupError,
    LookupOptions, LookupProfile, LookupResponse, LookupType, MetadataAction, MetadataOptions,
    PartitionedMetadataLookup, PartitionedMetadataResponse, ServerError, TopicLookup,
};

/// One thing the world does to a request that is out.
#[derive(Clone, Debug)]
enum Event {
    Respond {
        kind: Option<LookupType>,
        broker: u8,
        authoritative: bool,
        proxy: bool,
        error: u8,
    },
    ConnectionFailed,
    RequestTimeout,
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => (
            prop::option::weighted(0.95, prop_oneof![
                6 => Just(LookupType::Redirect),
                1 => Just(LookupType::Connect),
                1 => Just(LookupType::Failed),
            ]),
            0u8..6,
            any::<bool>(),
            any::<bool>(),
            0u8..26,
        )
            .prop_map(|(kind, broker, authoritative, proxy, error)| Event::Respond {
                kind,
                broker,
                authoritative,
                proxy,
                error
            }),
        1 => Just(Event::ConnectionFailed),
        1 => Just(Event::RequestTimeout),
    ]
}

/// A `lookupTimeoutMs` unset (the operation timeout), or set to a value
/// that is usually not the operation timeout, below or above it.
fn lookup_timeout() -> impl Strategy<Value = Option<u64>> {
    prop::option::weighted(0.6, 1u64..8_000)
}

fn options() -> impl Strategy<Value = LookupOptions> {
    (
        any::<bool>(),
        0u32..25,
        any::<bool>(),
        (1u64..5_000, lookup_timeout()),
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            |(go, max_redirects, use_tls, (timeout, lookup_timeout_ms), retry, detect, seed)| {
                LookupOptions {
                    use_tls,
                    max_redirects,
                    profile: if go {
                        LookupProfile::Go
                    } else {
                        LookupProfile::Java
                    },
                    operation_timeout_ms: timeout,
                    lookup_timeout_ms,
                    retry,
                    detect_redirect_loops: detect,
                    jitter_seed: seed,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Every lookup ends (with a result, or an error of the limit, the
    /// deadline or the broker), whatever the brokers answer and however
    /// fast; and every request carries the authoritative flag of the
    /// response before it in its attempt, the first one `false`.
    #[test]
    fn every_lookup_terminates_and_copies_the_flag(
        options in options(),
        events in prop::collection::vec(event(), 1..40),
        steps in prop::collection::vec(0u64..400, 1..40),
    ) {
        let mut chain = [Hop::EMPTY; 8];
        let mut l = TopicLookup::new("pulsar://svc:6650", options, &mut chain[..]).unwrap();
        let mut now = 0u64;
        let mut action = l.start(now).clone_owned();
        let mut expected_auth = false;
        let mut last_response_auth = None;
        // The deadline is the lookup timeout, not the operation timeout,
        // when the two differ.
        let deadline = options.effective_lookup_timeout_ms();
        let bound = 200_000;
        let mut i = 0usize;
        let outcome = loop {
            prop_assert!(i < bound, "no end after {bound} steps");
            match action {
                Owned::Send { authoritative } => {
                    prop_assert_eq!(authoritative, expected_auth);
                    now += steps[i % steps.len()];
                    let urls = ["pulsar://b0:1", "pulsar://b1:1", "pulsar://b2:1", "pulsar://b3:1", "pulsar://b4:1", "pulsar://svc:6650"];
                    action = match &events[i % events.len()] {
                        Event::Respond { kind, broker, authoritative, proxy, error } => {
                            let url = urls[usize::from(*broker)];
                            let r = LookupResponse {
                                response: *kind,
                                broker_service_url: Some(url),
                                broker_service_url_tls: Some(url),
                                authoritative: *authoritative,
                                proxy_through_service_url: *proxy,
                                error: ServerError::from_code(i32::from(*error)),
                                message: Some("m"),
                            };
                            if matches!(kind, Some(LookupType::Redirect | LookupType::Connect)) {
                                last_response_auth = Some(*authoritative);
                                expected_auth = *authoritative;
                            }
                            l.on_response(&r, now).clone_owned()
                        }
                        Event::ConnectionFailed => l.on_connection_failed(now).clone_owned(),
                        Event::RequestTimeout => l.on_request_timeout(now).clone_owned(),
                    };
                }
                Owned::Retry { at_ms } => {
                    // The deadline is exclusive: a failure exactly at it is
                    // retried after the backoff, as Java does.
                    prop_assert!(
                        at_ms <= deadline || now == deadline,
                        "retry at {at_ms} after the deadline {deadline}"
                    );
                    // A timer before its time changes nothing.
                    if at_ms > now {
                        prop_assert_eq!(
                            l.on_retry_timer(at_ms - 1),
                            LookupAction::Ignored(IgnoredEvent::RetryNotDue)
                        );
                        prop_assert_eq!(l.retry_at_ms(), Some(at_ms));
                    }
                    now = at_ms;
                    expected_auth = false;
                    action = l.on_retry_timer(now).clone_owned();
                }
                Owned::Done { authoritative } => {
                    prop_assert_eq!(Some(authoritative), last_response_auth);
                    break Ok(());
                }
                Owned::Failed(e) => break Err(e),
                Owned::Ignored => prop_assert!(false, "ignored event in a well-driven lookup"),
            }
            i += 1;
        };
        prop_assert!(l.is_finished());
        if let Err(e) = outcome {
            match e {
                LookupError::DeadlineExceeded { elapsed_ms, .. } => {
                    prop_assert!(elapsed_ms > deadline);
                }
                LookupError::Attempt(a) => {
                    prop_assert!(!options.retry || !a.is_retriable(), "{a:?} is retried");
                }
                _ => {}
            }
        }
        // After the end, every event is ignored.
        prop_assert!(matches!(l.on_connection_failed(now), LookupAction::Ignored(_)));
        prop_assert!(matches!(l.on_retry_timer(now), LookupAction::Ignored(_)));
    }

    /// The metadata step ends whatever the broker does; its retries are
    /// within the lookup timeout (which may differ from the operation
    /// timeout), a deadline failure comes at or after it, and an early
    /// retry timer is ignored.
    #[test]
    fn metadata_lookup_terminates_within_the_lookup_timeout(
        operation_timeout_ms in 1u64..5_000,
        lookup_timeout_ms in lookup_timeout(),
        auto_creation in any::<bool>(),
        fallback in any::<bool>(),
        seed in any::<u64>(),
        events in prop::collection::vec((0u8..4, any::<bool>(), 0u32..8, 0u8..27), 1..40),
        steps in prop::collection::vec(0u64..400, 1..40),
    ) {
        let options = MetadataOptions {
            operation_timeout_ms,
            lookup_timeout_ms,
            metadata_auto_creation: auto_creation,
            use_fallback_for_non_pip344: fallback,
            jitter_seed: seed,
        };
        let deadline = lookup_timeout_ms.unwrap_or(operation_timeout_ms);
        let mut m = PartitionedMetadataLookup::new("pulsar://svc:6650", options).unwrap();
        let mut now = 0u64;
        let mut action = MOwned::from(m.start(now));
        let mut i = 0usize;
        let outcome = loop {
            prop_assert!(i < 200_000, "no end");
            let (kind, flag, partitions, code) = events[i % events.len()];
            let step = steps[i % steps.len()];
            action = match action {
                MOwned::Connect => {
                    now += step;
                    if kind == 0 {
                        MOwned::from(m.on_connection_failed(now))
                    } else {
                        MOwned::from(m.on_connected(flag, now))
                    }
                }
                MOwned::Send => {
                    now += step;
                    match kind {
                        0 => MOwned::from(m.on_connection_failed(now)),
                        1 => MOwned::from(m.on_response(
                            &PartitionedMetadataResponse::Success { partitions },
                            now,
                        )),
                        _ => MOwned::from(m.on_response(
                            &PartitionedMetadataResponse::Failed {
                                error: ServerError::from_code(i32::from(code)),
                                message: Some("m"),
                            },
                            now,
                        )),
                    }
                }
                MOwned::Retry { at_ms } => {
                    prop_assert!(at_ms <= deadline, "retry at {at_ms} after the deadline {deadline}");
                    prop_assert!(at_ms > now);
                    prop_assert!(matches!(
                        m.on_retry_timer(at_ms - 1),
                        MetadataAction::Ignored(IgnoredEvent::RetryNotDue)
                    ));
                    now = at_ms;
                    MOwned::from(m.on_retry_timer(now))
                }
                MOwned::Done => break Ok(()),
                MOwned::Failed(e) => break Err(e),
                MOwned::Ignored => {
                    return Err(TestCaseError::fail("ignored event in a well-driven lookup"));
                }
            };
            i += 1;
        };
        prop_assert!(m.is_finished());
        if let Err(LookupError::DeadlineExceeded { elapsed_ms, .. }) = outcome {
            prop_assert!(elapsed_ms >= deadline, "gave up after {elapsed_ms} < {deadline}");
        }
    }

    /// A coalesced request completes every waiter with the same result:
    /// the count returned on completion is the number of joins since the
    /// lookup started, and a key is never merged with another.
    #[test]
    fn coalescing_completes_every_waiter(ops in prop::collection::vec((0u8..6, any::<bool>()), 0..200)) {
        let mut slots: [Option<InFlightLookup<u8>>; 4] = [None; 4];
        let mut table = LookupCoalescer::new(&mut slots[..]);
        let mut model: Vec<(u8, u32)> = Vec::new();
        for (key, complete) in ops {
            if complete {
                let expected = model.iter().position(|(k, _)| *k == key).map(|i| model.remove(i).1);
                prop_assert_eq!(table.complete(&key), expected);
            } else {
                match table.join(key) {
                    Ok(joined) => {
                        match model.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, n)) => {
                                *n += 1;
                                prop_assert!(!joined.is_leader());
                            }
                            None => {
                                model.push((key, 1));
                                prop_assert!(joined.is_leader());
                            }
                        }
                        prop_assert_eq!(table.get(joined.slot()).map(|e| e.key), Some(key));
                    }
                    Err(_) => prop_assert_eq!(model.len(), 4),
                }
            }
            prop_assert_eq!(table.len(), model.len());
        }
    }
}

/// A metadata action without the borrow of the driver.
#[derive(Clone, Copy, Debug)]
enum MOwned {
    Connect,
    Send,
    Retry { at_ms: u64 },
    Done,
    Failed(LookupError),
    Ignored,
}

impl From<MetadataAction<'_>> for MOwned {
    fn from(a: MetadataAction<'_>) -> Self {
        match a {
            MetadataAction::Connect { .. } => Self::Connect,
            MetadataAction::SendPartitionedMetadata { .. } => Self::Send,
            MetadataAction::RetryAt { at_ms, .. } => Self::Retry { at_ms },
            MetadataAction::Done(_) => Self::Done,
            MetadataAction::Failed(e) => Self::Failed(e),
            MetadataAction::Ignored(_) => Self::Ignored,
        }
    }
}

/// An action without the borrow of the driver, so the loop can keep it.
#[derive(Clone, Copy, Debug)]
enum Owned {
    Send { authoritative: bool },
    Retry { at_ms: u64 },
    Done { authoritative: bool },
    Failed(LookupError),
    Ignored,
}

trait CloneOwned {
    fn clone_owned(self) -> Owned;
}

impl CloneOwned for LookupAction<'_> {
    fn clone_owned(self) -> Owned {
        match self {
            LookupAction::SendLookup(r) => Owned::Send {
                authoritative: r.authoritative,
            },
            LookupAction::RetryAt { at_ms, .. } => Owned::Retry { at_ms },
            LookupAction::Done(r) => Owned::Done {
                authoritative: r.authoritative,
            },
            LookupAction::Failed(e) => Owned::Failed(e),
            _ => Owned::Ignored,
        }
    }
}

#[test]
fn attempt_errors_have_messages() {
    assert_eq!(
        AttemptError::EmptyResponse.to_string(),
        "Empty lookup response"
    );
    assert_eq!(
        ServerError::from_code(6),
        Some(ServerError::ServiceNotReady)
    );
    assert_eq!(ServerError::ServiceNotReady.code(), 6);
    assert_eq!(
        ServerError::from_name("ProducerFenced").map(ServerError::code),
        Some(25)
    );
    assert_eq!(ServerError::from_code(26), None);
}

/// An embedder of the coalescer: each caller joins with its own id, the
/// leader's lookup produces one result per lookup, and on completion the
/// embedder hands that result to the waiters it kept for the slot. Every
/// caller gets exactly one result, the one of the lookup of its own key,
/// and the table's count is the number of waiters handed it.
#[derive(Default)]
struct Embedder {
    /// Per slot: the waiters (caller ids) of the lookup in it.
    waiting: Vec<Vec<u32>>,
    /// Per caller id: its key and the results it received.
    callers: Vec<(u8, Vec<(u8, u32)>)>,
    /// Lookups completed so far, the source of distinct results.
    lookups: u32,
}

proptest! {
    #[test]
    fn every_waiter_gets_the_one_result_of_its_lookup(
        ops in prop::collection::vec((0u8..6, any::<bool>()), 0..300),
    ) {
        const SLOTS: usize = 4;
        let mut slots: [Option<InFlightLookup<u8>>; SLOTS] = [None; SLOTS];
        let mut table = LookupCoalescer::new(&mut slots[..]);
        let mut e = Embedder { waiting: vec![Vec::new(); SLOTS], ..Embedder::default() };
        let mut refused = Vec::new();
        for (key, complete) in ops {
            if complete {
                let Some(slot) = table.find(&key) else {
                    prop_assert_eq!(table.complete(&key), None);
                    continue;
                };
                let n = table.complete(&key).unwrap();
                // The lookup's one result: its key and a lookup number.
                e.lookups += 1;
                let result = (key, e.lookups);
                let waiters = core::mem::take(&mut e.waiting[slot]);
                prop_assert_eq!(waiters.len(), n as usize);
                for id in waiters {
                    e.callers[id as usize].1.push(result);
                }
            } else {
                let id = u32::try_from(e.callers.len()).unwrap();
                e.callers.push((key, Vec::new()));
                match table.join(key) {
                    Ok(joined) => e.waiting[joined.slot()].push(id),
                    Err(_) => refused.push(id),
                }
            }
        }
        // Complete what is still in flight.
        for slot in 0..SLOTS {
            if let Some(key) = table.get(slot).map(|f| f.key) {
                let n = table.complete(&key).unwrap();
                e.lookups += 1;
                let waiters = core::mem::take(&mut e.waiting[slot]);
                prop_assert_eq!(waiters.len(), n as usize);
                for id in waiters {
                    e.callers[id as usize].1.push((key, e.lookups));
                }
            }
        }
        prop_assert!(table.is_empty());
        for (id, (key, results)) in e.callers.iter().enumerate() {
            let id = u32::try_from(id).unwrap();
            if refused.contains(&id) {
                prop_assert!(results.is_empty());
            } else {
                prop_assert_eq!(results.len(), 1, "caller {} got {:?}", id, results);
                prop_assert_eq!(results[0].0, *key, "caller {} got another key's result", id);
            }
        }
        // Callers that waited together got the very same result.
        let mut by_lookup = std::collections::BTreeMap::<u32, Vec<u8>>::new();
        for (key, results) in &e.callers {
            if let Some((_, lookup)) = results.first() {
                by_lookup.entry(*lookup).or_default().push(*key);
            }
        }
        for keys in by_lookup.values() {
            prop_assert!(keys.windows(2).all(|w| w[0] == w[1]));
        }
    }
}
