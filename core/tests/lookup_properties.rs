//! Properties of the lookup drivers over arbitrary broker behaviour:
//! termination, the authoritative flag, and coalescing.

use proptest::prelude::*;
use pulsar_routing::lookup::{
    AttemptError, Hop, InFlight, LookupAction, LookupCoalescer, LookupError, LookupOptions,
    LookupProfile, LookupResponse, LookupType, ServerError, TopicLookup,
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

fn options() -> impl Strategy<Value = LookupOptions> {
    (
        any::<bool>(),
        0u32..25,
        any::<bool>(),
        1u64..5_000,
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            |(go, max_redirects, use_tls, timeout, retry, detect, seed)| LookupOptions {
                use_tls,
                max_redirects,
                profile: if go {
                    LookupProfile::Go
                } else {
                    LookupProfile::Java
                },
                operation_timeout_ms: timeout,
                lookup_timeout_ms: None,
                retry,
                detect_redirect_loops: detect,
                jitter_seed: seed,
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
        let deadline = options.operation_timeout_ms;
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
                    prop_assert!(at_ms > now || at_ms <= deadline);
                    prop_assert!(at_ms <= deadline, "retry at {at_ms} after the deadline {deadline}");
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
                    prop_assert!(elapsed_ms >= options.operation_timeout_ms);
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

    /// A coalesced request completes every waiter with the same result:
    /// the count returned on completion is the number of joins since the
    /// lookup started, and a key is never merged with another.
    #[test]
    fn coalescing_completes_every_waiter(ops in prop::collection::vec((0u8..6, any::<bool>()), 0..200)) {
        let mut slots: [Option<InFlight<u8>>; 4] = [None; 4];
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
