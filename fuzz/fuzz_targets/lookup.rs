//! The lookup drivers on arbitrary sequences of responses, failures, timer
//! events and clocks (time may even go backwards), in any order:
//!
//! - no panic;
//! - after each step: a request's authoritative flag is `false` at the
//!   start of an attempt and the last response's after a redirect; a
//!   retry is never scheduled after the deadline (but for a failure exactly
//!   at it, which waits its backoff); a finished driver stays
//!   finished and ignores every event;
//! - the coalescing table's waiter counts match a model, and the throttle
//!   never exceeds its limits.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::lookup::{
    Admission, AttemptError, Hop, IgnoredEvent, InFlightLookup, LookupAction, LookupCoalescer,
    LookupOptions, LookupProfile, LookupResponse, LookupThrottle, LookupType, MetadataAction,
    MetadataOptions, PartitionedMetadataLookup, PartitionedMetadataResponse, ServerError,
    TopicLookup,
};

#[derive(Arbitrary, Debug)]
enum Step {
    Start,
    Respond {
        kind: Option<u8>,
        url: Option<String>,
        tls_url: Option<String>,
        authoritative: bool,
        proxy: bool,
        error: Option<i32>,
        message: Option<String>,
    },
    ConnectionFailed,
    RequestTimeout,
    Throttled,
    RetryTimer,
}

#[derive(Arbitrary, Debug)]
struct Input {
    go: bool,
    use_tls: bool,
    max_redirects: u8,
    timeout_ms: u16,
    retry: bool,
    detect: bool,
    seed: u64,
    chain_len: u8,
    service: String,
    steps: Vec<(Step, i16)>,
    metadata: Vec<(u8, bool, u32, i16)>,
    coalesce: Vec<(u8, bool)>,
    throttle: Vec<bool>,
}

fn lookup_type(k: u8) -> LookupType {
    match k % 3 {
        0 => LookupType::Redirect,
        1 => LookupType::Connect,
        _ => LookupType::Failed,
    }
}

fuzz_target!(|input: Input| {
    let options = LookupOptions {
        use_tls: input.use_tls,
        max_redirects: u32::from(input.max_redirects),
        profile: if input.go {
            LookupProfile::Go
        } else {
            LookupProfile::Java
        },
        operation_timeout_ms: u64::from(input.timeout_ms),
        lookup_timeout_ms: None,
        retry: input.retry,
        detect_redirect_loops: input.detect,
        jitter_seed: input.seed,
    };
    let mut storage = vec![Hop::EMPTY; usize::from(input.chain_len % 24)];
    if let Ok(mut l) = TopicLookup::new(&input.service, options, &mut storage[..]) {
        let mut now: u64 = 1_000_000;
        let mut expected_auth: Option<bool> = None;
        for (step, dt) in &input.steps {
            now = now.saturating_add_signed(i64::from(*dt));
            let was_finished = l.is_finished();
            let retry_due = l.retry_at_ms();
            let mut response_auth = None;
            let action = match step {
                Step::Start => l.start(now),
                Step::Respond {
                    kind,
                    url,
                    tls_url,
                    authoritative,
                    proxy,
                    error,
                    message,
                } => {
                    let r = LookupResponse {
                        response: kind.map(lookup_type),
                        broker_service_url: url.as_deref(),
                        broker_service_url_tls: tls_url.as_deref(),
                        authoritative: *authoritative,
                        proxy_through_service_url: *proxy,
                        error: error.and_then(ServerError::from_code),
                        message: message.as_deref(),
                    };
                    response_auth = Some(*authoritative);
                    l.on_response(&r, now)
                }
                Step::ConnectionFailed => l.on_connection_failed(now),
                Step::RequestTimeout => l.on_request_timeout(now),
                Step::Throttled => l.on_attempt_error(
                    AttemptError::TooManyRequests {
                        in_flight: 1,
                        queued: 2,
                    },
                    now,
                ),
                Step::RetryTimer => l.on_retry_timer(now),
            };
            // A timer before the RetryAt time never starts an attempt.
            if matches!(step, Step::RetryTimer) && retry_due.is_some_and(|at| now < at) {
                assert_eq!(action, LookupAction::Ignored(IgnoredEvent::RetryNotDue));
            }
            match action {
                LookupAction::SendLookup(req) => {
                    assert!(!was_finished);
                    let want = match (step, expected_auth) {
                        (Step::Respond { .. }, Some(_)) => response_auth.unwrap_or(false),
                        _ => false,
                    };
                    if !matches!(step, Step::Respond { .. }) {
                        assert!(!req.authoritative, "a new attempt starts non-authoritative");
                        assert_eq!(req.redirects, 0);
                    } else {
                        assert_eq!(req.authoritative, want);
                    }
                    expected_auth = Some(req.authoritative);
                }
                LookupAction::RetryAt {
                    at_ms,
                    delay_ms,
                    cause,
                    ..
                } => {
                    assert!(cause.is_retriable() && options.retry);
                    assert!(delay_ms > 0);
                    let deadline = l.deadline_ms().expect("started");
                    // Delays are cut to the deadline, except for a failure
                    // exactly at it (exclusive, as Java's): that one waits
                    // its backoff.
                    assert!(at_ms <= deadline || now == deadline);
                }
                LookupAction::Done(r) => {
                    assert_eq!(Some(r.authoritative), response_auth);
                    assert!(!was_finished && l.is_done());
                }
                LookupAction::Failed(e) => {
                    assert!(!was_finished);
                    assert_eq!(l.error(), Some(e));
                    let _ = e.to_string();
                }
                LookupAction::Ignored(_) => {}
            }
            if was_finished {
                assert!(l.is_finished());
            }
            let _ = l.chain().count();
            let _ = l.server_message();
        }
    }

    if let Ok(mut m) = PartitionedMetadataLookup::new(
        &input.service,
        MetadataOptions {
            operation_timeout_ms: u64::from(input.timeout_ms),
            metadata_auto_creation: input.use_tls,
            use_fallback_for_non_pip344: input.detect,
            jitter_seed: input.seed,
            ..MetadataOptions::default()
        },
    ) {
        let mut now: u64 = 5_000;
        for (op, flag, n, dt) in &input.metadata {
            now = now.saturating_add_signed(i64::from(*dt));
            let was_finished = m.is_finished();
            let action = match op % 6 {
                0 => m.start(now),
                1 => m.on_connected(*flag, now),
                2 => m.on_response(
                    &PartitionedMetadataResponse::Success { partitions: *n },
                    now,
                ),
                3 => m.on_response(
                    &PartitionedMetadataResponse::Failed {
                        error: ServerError::from_code((*n % 30) as i32),
                        message: None,
                    },
                    now,
                ),
                4 => m.on_connection_failed(now),
                _ => m.on_retry_timer(now),
            };
            if let MetadataAction::Done(plan) = action {
                assert_eq!(plan.lookup_count(), (*n).max(1));
                // Walking billions of partition names would only be slow.
                if *n <= 64 {
                    let names = plan.topics("t").map(|t| t.to_string());
                    assert_eq!(names.count(), usize::try_from((*n).max(1)).unwrap_or(0));
                }
                break;
            }
            if was_finished {
                assert!(matches!(action, MetadataAction::Ignored(_)));
            }
        }
    }

    let mut slots: [Option<InFlightLookup<u8>>; 3] = [None; 3];
    let mut table = LookupCoalescer::new(&mut slots[..]);
    let mut model: Vec<(u8, u32)> = Vec::new();
    for (key, complete) in &input.coalesce {
        let key = key % 5;
        if *complete {
            let expected = model
                .iter()
                .position(|(k, _)| *k == key)
                .map(|i| model.remove(i).1);
            assert_eq!(table.complete(&key), expected);
        } else {
            match table.join(key) {
                Ok(j) => match model.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => {
                        *n += 1;
                        assert!(!j.is_leader());
                    }
                    None => {
                        model.push((key, 1));
                        assert!(j.is_leader());
                    }
                },
                Err(_) => assert_eq!(model.len(), 3),
            }
        }
        assert_eq!(table.len(), model.len());
    }

    let mut throttle = LookupThrottle::new(2, 5);
    for acquire in &input.throttle {
        if *acquire {
            match throttle.try_acquire() {
                Ok(Admission::SendNow | Admission::Queued) => {}
                Err(e) => assert!(matches!(
                    e,
                    AttemptError::TooManyRequests {
                        in_flight: 2,
                        queued: 3
                    }
                )),
            }
        } else {
            let _ = throttle.release();
        }
        assert!(throttle.in_flight() <= 2 && throttle.queued() <= 3);
    }
});
