//! The lookup driver replaying the failure stories of the spec (§6): each
//! test is a trace of broker answers and times, and what the client does.

use pulsar_routing::lookup::{
    Admission, AttemptError, Backoff, Hop, IgnoredEvent, InFlightLookup, LookupAction,
    LookupCoalescer, LookupError, LookupKey, LookupOptions, LookupProfile, LookupResponse,
    LookupThrottle, MetadataAction, MetadataOptions, PartitionedMetadataLookup,
    PartitionedMetadataResponse, ServerError, TopicLookup,
};

const SERVICE: &str = "pulsar://proxy:6650";

fn lookup(options: LookupOptions, chain: &mut [Hop]) -> TopicLookup<&mut [Hop]> {
    TopicLookup::new(SERVICE, options, chain).expect("short address")
}

/// What a `SendLookup` asked, owned.
fn sent(action: LookupAction<'_>) -> (String, String, bool, bool) {
    match action {
        LookupAction::SendLookup(r) => (
            r.logical_address.to_owned(),
            r.physical_address.to_owned(),
            r.authoritative,
            r.send_properties,
        ),
        other => panic!("expected SendLookup, got {other:?}"),
    }
}

#[test]
fn first_request_is_non_authoritative_and_redirects_copy_the_flag() {
    let mut chain = [Hop::EMPTY; 8];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    assert_eq!(
        sent(l.start(0)),
        (SERVICE.into(), SERVICE.into(), false, true)
    );
    // A follower forwards the client to the leader, non-authoritatively...
    let r = LookupResponse::redirect("pulsar://leader:6650", false, false);
    assert_eq!(
        sent(l.on_response(&r, 1)),
        (
            "pulsar://leader:6650".into(),
            "pulsar://leader:6650".into(),
            false,
            true
        )
    );
    // ...which picks the owner and says so with authority.
    let r = LookupResponse::redirect("pulsar://owner:6650", true, false);
    assert!(sent(l.on_response(&r, 2)).2);
    let LookupAction::Done(found) = l.on_response(
        &LookupResponse::connect("pulsar://owner:6650", true, false),
        3,
    ) else {
        panic!("not done")
    };
    assert_eq!(found.logical_address, "pulsar://owner:6650");
    assert_eq!(found.physical_address, "pulsar://owner:6650");
    assert!(!found.use_proxy && found.authoritative);
    assert_eq!((found.redirects, found.attempts), (2, 1));
    let hops: Vec<_> = l
        .chain()
        .map(|h| (h.address.as_str().to_owned(), h.authoritative))
        .collect();
    assert_eq!(
        hops,
        [
            (SERVICE.to_owned(), false),
            ("pulsar://leader:6650".to_owned(), false),
            ("pulsar://owner:6650".to_owned(), true)
        ]
    );
}

#[test]
fn tls_uses_the_tls_url_and_a_missing_one_is_an_error() {
    let mut chain = [Hop::EMPTY; 4];
    let options = LookupOptions {
        use_tls: true,
        retry: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    let r = LookupResponse {
        broker_service_url_tls: None,
        ..LookupResponse::connect("pulsar://b:6650", false, false)
    };
    assert_eq!(
        l.on_response(&r, 1),
        LookupAction::Failed(LookupError::Attempt(AttemptError::MissingBrokerUrl {
            tls: true
        }))
    );

    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    let r = LookupResponse {
        broker_service_url: Some("pulsar://b:6650"),
        broker_service_url_tls: Some("pulsar+ssl://b:6651"),
        ..LookupResponse::connect("x", false, false)
    };
    let LookupAction::Done(found) = l.on_response(&r, 1) else {
        panic!()
    };
    assert_eq!(found.logical_address, "pulsar+ssl://b:6651");
}

#[test]
fn the_redirect_limit_fails_with_javas_message() {
    let mut chain = [Hop::EMPTY; 32];
    let options = LookupOptions {
        retry: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    // 20 redirects are followed; the 21st fails before anything is sent.
    for i in 0..20 {
        let url = format!("pulsar://b{i}:6650");
        assert!(matches!(
            l.on_response(&LookupResponse::redirect(&url, false, false), i),
            LookupAction::SendLookup(_)
        ));
    }
    let action = l.on_response(
        &LookupResponse::redirect("pulsar://b20:6650", false, false),
        20,
    );
    let LookupAction::Failed(e) = action else {
        panic!("{action:?}")
    };
    assert_eq!(
        e,
        LookupError::Attempt(AttemptError::TooManyRedirects { limit: 20 })
    );
    assert_eq!(e.to_string(), "Too many redirects: 20");
}

/// Story 1: the brokers keep redirecting to new brokers (a split-brain of
/// the load manager). Every attempt hits the limit, the client backs off
/// and retries until the lookup timeout.
#[test]
fn redirects_that_never_converge_end_at_the_deadline() {
    let mut chain = [Hop::EMPTY; 32];
    let mut l = lookup(
        LookupOptions {
            jitter_seed: 7,
            ..LookupOptions::default()
        },
        &mut chain,
    );
    let mut now = 1_000;
    let mut action_is_send = matches!(l.start(now), LookupAction::SendLookup(_));
    let mut n = 0u64;
    let mut delays = Vec::new();
    let error = loop {
        assert!(action_is_send);
        now += 5;
        n += 1;
        let url = format!("pulsar://broker-{n}:6650");
        match l.on_response(
            &LookupResponse::redirect(&url, n.is_multiple_of(2), false),
            now,
        ) {
            LookupAction::SendLookup(_) => {}
            LookupAction::RetryAt {
                at_ms,
                delay_ms,
                cause,
                ..
            } => {
                assert_eq!(cause, AttemptError::TooManyRedirects { limit: 20 });
                assert_eq!(at_ms, now + delay_ms);
                delays.push(delay_ms);
                now = at_ms;
                action_is_send = matches!(l.on_retry_timer(now), LookupAction::SendLookup(_));
            }
            LookupAction::Failed(e) => break e,
            other => panic!("{other:?}"),
        }
    };
    let LookupError::DeadlineExceeded {
        attempts,
        elapsed_ms,
        last,
    } = error
    else {
        panic!()
    };
    assert_eq!(last, Some(AttemptError::TooManyRedirects { limit: 20 }));
    assert!(elapsed_ms >= 30_000, "{elapsed_ms}");
    assert_eq!(usize::try_from(attempts).unwrap(), delays.len() + 1);
    // The delays follow the backoff schedule, each lowered by less than 10%
    // (the last one cut to the time left).
    let mut nominal = 100u64;
    for d in &delays[..delays.len() - 1] {
        assert!(*d <= nominal && *d * 10 >= nominal * 9, "{d} vs {nominal}");
        nominal = (nominal * 2).min(60_000);
    }
    assert!(error.to_string().starts_with("Lookup timed out after"));
}

#[test]
fn a_redirect_loop_is_reported_with_its_chain() {
    let mut chain = [Hop::EMPTY; 8];
    let mut l = lookup(
        LookupOptions {
            retry: false,
            detect_redirect_loops: true,
            ..LookupOptions::default()
        },
        &mut chain,
    );
    let _ = l.start(0);
    let _ = l.on_response(&LookupResponse::redirect("pulsar://a:6650", true, false), 1);
    let _ = l.on_response(&LookupResponse::redirect("pulsar://b:6650", true, false), 2);
    let action = l.on_response(&LookupResponse::redirect("pulsar://a:6650", true, false), 3);
    assert_eq!(
        action,
        LookupAction::Failed(LookupError::Attempt(AttemptError::RedirectLoop { hops: 4 }))
    );
    let hops: Vec<_> = l.chain().map(|h| h.address.as_str().to_owned()).collect();
    assert_eq!(
        hops,
        [
            SERVICE,
            "pulsar://a:6650",
            "pulsar://b:6650",
            "pulsar://a:6650"
        ]
    );
}

#[test]
fn the_same_broker_with_another_authoritative_flag_is_not_a_loop() {
    // proxy -> leader (non-auth) -> back to the first broker, now with
    // authority: a legitimate chain.
    let mut chain = [Hop::EMPTY; 8];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    let _ = l.on_response(
        &LookupResponse::redirect("pulsar://a:6650", false, false),
        1,
    );
    let _ = l.on_response(
        &LookupResponse::redirect("pulsar://leader:6650", false, false),
        2,
    );
    let action = l.on_response(&LookupResponse::redirect("pulsar://a:6650", true, false), 3);
    assert!(matches!(action, LookupAction::SendLookup(_)), "{action:?}");
}

#[test]
fn without_loop_detection_a_loop_runs_to_the_limit_as_in_java() {
    let mut chain = [Hop::EMPTY; 4];
    let options = LookupOptions {
        retry: false,
        detect_redirect_loops: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    let mut last = None;
    for i in 0..21 {
        let url = if i % 2 == 0 {
            "pulsar://a:6650"
        } else {
            "pulsar://b:6650"
        };
        last = Some(l.on_response(&LookupResponse::redirect(url, true, false), i));
    }
    assert_eq!(
        last,
        Some(LookupAction::Failed(LookupError::Attempt(
            AttemptError::TooManyRedirects { limit: 20 }
        )))
    );
    assert!(l.chain_truncated());
}

#[test]
fn unlimited_redirects_still_end_at_the_deadline() {
    let mut chain = [Hop::EMPTY; 4];
    let options = LookupOptions {
        max_redirects: 0,
        detect_redirect_loops: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    let mut now = 0;
    let error = loop {
        now += 1_000;
        match l.on_response(
            &LookupResponse::redirect("pulsar://a:6650", true, false),
            now,
        ) {
            LookupAction::SendLookup(_) => {}
            LookupAction::Failed(e) => break e,
            other => panic!("{other:?}"),
        }
    };
    // The redirect at 30 000 ms, exactly the deadline, is still followed
    // (the deadline is exclusive); the next one is past it.
    assert_eq!(
        error,
        LookupError::DeadlineExceeded {
            attempts: 1,
            elapsed_ms: 31_000,
            last: None
        }
    );
}

/// Java's lookup deadline is exclusive: `ProducerImpl.connectionFailed`
/// gives up only when `now > lookupDeadline`, so a retriable failure that
/// arrives exactly at the deadline is retried (after the backoff: 100 ms
/// lowered by less than 10%), and the next failure, past the deadline,
/// ends the lookup.
#[test]
fn a_failure_exactly_at_the_deadline_is_retried() {
    let options = LookupOptions {
        lookup_timeout_ms: Some(1_000),
        ..LookupOptions::default()
    };
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(options, &mut chain);
    let _ = sent(l.start(0));
    let LookupAction::RetryAt {
        at_ms,
        delay_ms,
        cause,
        attempt,
    } = l.on_connection_failed(1_000)
    else {
        panic!("a failure at the deadline is retried")
    };
    assert_eq!((cause, attempt), (AttemptError::ConnectionFailed, 1));
    assert!(delay_ms <= 100 && delay_ms * 10 > 900, "{delay_ms}");
    assert_eq!(at_ms, 1_000 + delay_ms);
    let _ = sent(l.on_retry_timer(at_ms));
    assert_eq!(l.attempts(), 2);
    assert_eq!(
        l.on_connection_failed(at_ms),
        LookupAction::Failed(LookupError::DeadlineExceeded {
            attempts: 2,
            elapsed_ms: at_ms,
            last: Some(AttemptError::ConnectionFailed),
        })
    );

    // One millisecond later, the same failure ends the lookup at once.
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(options, &mut chain);
    let _ = sent(l.start(0));
    assert_eq!(
        l.on_connection_failed(1_001),
        LookupAction::Failed(LookupError::DeadlineExceeded {
            attempts: 1,
            elapsed_ms: 1_001,
            last: Some(AttemptError::ConnectionFailed),
        })
    );
}

/// Story 2: `proxy_through_service_url` set by brokers the client reaches
/// directly. Java connects straight to the redirect target, ignoring the
/// flag, and then "connects through" the broker that answered last, which
/// is not a proxy. Go sends everything to the service URL instead.
#[test]
fn proxy_through_service_url_misconfiguration() {
    let redirect = LookupResponse::redirect("pulsar://broker-1:6650", false, true);
    let connect = LookupResponse::connect("pulsar://broker-2:6650", true, true);

    let mut chain = [Hop::EMPTY; 8];
    let mut java = lookup(LookupOptions::default(), &mut chain);
    let _ = java.start(0);
    assert_eq!(
        sent(java.on_response(&redirect, 1)),
        (
            "pulsar://broker-1:6650".into(),
            "pulsar://broker-1:6650".into(),
            false,
            true
        )
    );
    let LookupAction::Done(found) = java.on_response(&connect, 2) else {
        panic!()
    };
    assert_eq!(found.logical_address, "pulsar://broker-2:6650");
    assert_eq!(found.physical_address, "pulsar://broker-1:6650");
    assert!(found.use_proxy);

    let mut chain = [Hop::EMPTY; 8];
    let options = LookupOptions {
        profile: LookupProfile::Go,
        ..LookupOptions::default()
    };
    let mut go = lookup(options, &mut chain);
    let _ = go.start(0);
    // Go asks broker-1 through the proxy, without the properties.
    assert_eq!(
        sent(go.on_response(&redirect, 1)),
        (
            "pulsar://broker-1:6650".into(),
            SERVICE.into(),
            false,
            false
        )
    );
    let LookupAction::Done(found) = go.on_response(&connect, 2) else {
        panic!()
    };
    assert_eq!(found.physical_address, SERVICE);
    assert!(found.use_proxy);
}

/// pulsar-client-go's `Lookup` reads one response per turn of a 20-turn
/// loop and sends the next request inside the turn: after the 20th
/// `Redirect` it still sends a 21st `LOOKUP` and waits for it, then fails
/// without reading the answer, even a `Connect`.
#[test]
fn go_follows_a_fixed_number_of_responses() {
    let mut chain = [Hop::EMPTY; 32];
    let options = LookupOptions {
        profile: LookupProfile::Go,
        max_redirects: 0,
        retry: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    for i in 0..20u32 {
        let url = format!("pulsar://b{i}:6650");
        let LookupAction::SendLookup(req) =
            l.on_response(&LookupResponse::redirect(&url, false, false), u64::from(i))
        else {
            panic!("redirect {i} sends the next request")
        };
        assert_eq!((req.logical_address, req.redirects), (url.as_str(), i + 1));
    }
    let LookupAction::Failed(e) = l.on_response(
        &LookupResponse::connect("pulsar://b20:6650", true, false),
        20,
    ) else {
        panic!()
    };
    assert_eq!(e, LookupError::Attempt(AttemptError::GoRedirectLimit));
    assert_eq!(
        e.to_string(),
        "exceeded max number of redirection during topic lookup"
    );
}

/// Go's 21st request fails like any other when its connection does: Go
/// returns that error, not the redirect limit.
#[test]
fn the_go_profiles_last_request_fails_with_its_own_error() {
    let mut chain = [Hop::EMPTY; 32];
    let options = LookupOptions {
        profile: LookupProfile::Go,
        retry: false,
        ..LookupOptions::default()
    };
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    for i in 0..20u32 {
        let url = format!("pulsar://b{i}:6650");
        let _ = sent(l.on_response(&LookupResponse::redirect(&url, false, false), 1));
    }
    assert_eq!(
        l.on_connection_failed(2),
        LookupAction::Failed(LookupError::Attempt(AttemptError::ConnectionFailed))
    );
}

/// A retry timer that fires before the `RetryAt` time (a stale timer, or
/// a clock that runs early) changes nothing: the backoff is not cut short.
#[test]
fn a_retry_timer_before_its_time_is_ignored() {
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    let LookupAction::RetryAt { at_ms, .. } = l.on_connection_failed(5) else {
        panic!()
    };
    assert_eq!(
        l.on_retry_timer(at_ms - 1),
        LookupAction::Ignored(IgnoredEvent::RetryNotDue)
    );
    assert_eq!(l.retry_at_ms(), Some(at_ms));
    assert_eq!(l.attempts(), 1);
    assert_eq!(
        sent(l.on_retry_timer(at_ms)),
        (SERVICE.into(), SERVICE.into(), false, true)
    );
    assert_eq!(l.attempts(), 2);

    let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
    let _ = m.start(0);
    let MetadataAction::RetryAt { at_ms, .. } = m.on_connection_failed(5) else {
        panic!()
    };
    assert_eq!(
        m.on_retry_timer(at_ms - 1),
        MetadataAction::Ignored(IgnoredEvent::RetryNotDue)
    );
    assert_eq!(m.attempts(), 1);
    assert!(matches!(
        m.on_retry_timer(at_ms),
        MetadataAction::Connect { attempt: 2, .. }
    ));
}

/// Fails every attempt at once and fires every timer on time: the time
/// the lookup gives up, and its last retry time.
fn give_up_time(options: LookupOptions) -> (u64, u64) {
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(options, &mut chain);
    let _ = l.start(0);
    let mut now = 0;
    let mut last_retry = 0;
    loop {
        match l.on_connection_failed(now) {
            LookupAction::RetryAt { at_ms, .. } => {
                last_retry = at_ms;
                now = at_ms;
                let _ = sent(l.on_retry_timer(now));
            }
            LookupAction::Failed(LookupError::DeadlineExceeded { elapsed_ms, .. }) => {
                return (elapsed_ms, last_retry);
            }
            other => panic!("{other:?}"),
        }
    }
}

/// `lookupTimeoutMs` set apart from `operationTimeoutMs`: the topic
/// lookup's deadline is the lookup timeout, shorter or longer.
#[test]
fn topic_lookup_deadline_is_the_lookup_timeout() {
    let shorter = LookupOptions {
        operation_timeout_ms: 30_000,
        lookup_timeout_ms: Some(700),
        ..LookupOptions::default()
    };
    // The retries are cut to the deadline, so one fails at 700 exactly; the
    // deadline being exclusive, that one is retried after its backoff, and
    // the failure of that retry ends the lookup.
    let (gave_up, last_retry) = give_up_time(shorter);
    assert!(last_retry > 700, "{last_retry}");
    assert_eq!(gave_up, last_retry);

    let longer = LookupOptions {
        operation_timeout_ms: 200,
        lookup_timeout_ms: Some(5_000),
        ..LookupOptions::default()
    };
    let (gave_up, last_retry) = give_up_time(longer);
    assert!(gave_up > 5_000, "{gave_up}");
    assert!(last_retry > 200, "retries go on past the operation timeout");
}

/// Story 3: the load-manager leader changes while the client looks up;
/// the broker answers `ServiceNotReady`, the client backs off 100 ms (less
/// jitter) and the second attempt succeeds.
#[test]
fn a_leader_change_is_recovered_by_retry() {
    let mut chain = [Hop::EMPTY; 8];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(10_000);
    let _ = l.on_response(
        &LookupResponse::redirect("pulsar://old-leader:6650", false, false),
        10_002,
    );
    let failed = LookupResponse::failed(ServerError::ServiceNotReady, "Leader is changing");
    let LookupAction::RetryAt {
        at_ms,
        delay_ms,
        cause,
        attempt,
    } = l.on_response(&failed, 10_010)
    else {
        panic!()
    };
    assert_eq!(cause, AttemptError::Server(ServerError::ServiceNotReady));
    assert_eq!(l.server_message(), "Leader is changing");
    assert_eq!(attempt, 1);
    assert!((91..=100).contains(&delay_ms), "{delay_ms}");
    // Nothing happens until the timer.
    assert!(matches!(
        l.on_response(&LookupResponse::connect("x", false, false), at_ms - 1),
        LookupAction::Ignored(_)
    ));
    // The retry starts over at the service address, non-authoritative.
    assert_eq!(
        sent(l.on_retry_timer(at_ms)),
        (SERVICE.into(), SERVICE.into(), false, true)
    );
    let _ = l.on_response(
        &LookupResponse::redirect("pulsar://new-leader:6650", true, false),
        at_ms + 3,
    );
    let LookupAction::Done(found) = l.on_response(
        &LookupResponse::connect("pulsar://new-leader:6650", true, false),
        at_ms + 5,
    ) else {
        panic!()
    };
    assert_eq!((found.attempts, found.redirects), (2, 1));
}

#[test]
fn a_non_retriable_error_fails_at_once() {
    for error in [ServerError::AuthorizationError, ServerError::TopicNotFound] {
        let mut chain = [Hop::EMPTY; 4];
        let mut l = lookup(LookupOptions::default(), &mut chain);
        let _ = l.start(0);
        let action = l.on_response(&LookupResponse::failed(error, "no"), 1);
        assert_eq!(
            action,
            LookupAction::Failed(LookupError::Attempt(AttemptError::Server(error)))
        );
        assert!(l.is_finished());
        assert_eq!(l.server_message(), "no");
    }
}

#[test]
fn too_many_requests_beyond_the_connection_limits() {
    let mut throttle = LookupThrottle::default();
    for _ in 0..5_000 {
        assert_eq!(throttle.try_acquire(), Ok(Admission::SendNow));
    }
    for _ in 0..45_000 {
        assert_eq!(throttle.try_acquire(), Ok(Admission::Queued));
    }
    let e = throttle.try_acquire().expect_err("over the limit");
    assert_eq!(
        e,
        AttemptError::TooManyRequests {
            in_flight: 5_000,
            queued: 45_000
        }
    );
    assert_eq!(
        e.to_string(),
        "Requests number out of config: There are {5000} lookup requests outstanding and {45000} requests pending."
    );
    // A completion lets the oldest queued request out.
    assert!(throttle.release());
    assert_eq!((throttle.in_flight(), throttle.queued()), (5_000, 44_999));

    // The rejected lookup is retried like the broker's own TooManyRequests.
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    assert!(matches!(
        l.on_attempt_error(e, 1),
        LookupAction::RetryAt { .. }
    ));
    let _ = l.on_retry_timer(200);
    let r = LookupResponse::failed(ServerError::TooManyRequests, "throttled");
    assert!(matches!(
        l.on_response(&r, 201),
        LookupAction::RetryAt { .. }
    ));
}

#[test]
fn without_retry_the_first_error_ends_the_lookup() {
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(
        LookupOptions {
            retry: false,
            ..LookupOptions::default()
        },
        &mut chain,
    );
    let _ = l.start(0);
    assert_eq!(
        l.on_connection_failed(5),
        LookupAction::Failed(LookupError::Attempt(AttemptError::ConnectionFailed))
    );
}

#[test]
fn an_address_longer_than_the_driver_holds_is_an_error() {
    let long = format!("pulsar://{}:6650", "h".repeat(400));
    assert!(matches!(
        TopicLookup::new(&long, LookupOptions::default(), [Hop::EMPTY; 1]),
        Err(AttemptError::AddressTooLong { .. })
    ));
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    assert!(matches!(
        l.on_response(&LookupResponse::connect(&long, false, false), 1),
        LookupAction::Failed(LookupError::Attempt(AttemptError::AddressTooLong { .. }))
    ));
}

#[test]
fn the_backoff_reaches_its_maximum_and_its_mandatory_stop() {
    let mut b = Backoff::new(100, 60_000, 60_000);
    let mut now = 0;
    let mut seen = Vec::new();
    for _ in 0..12 {
        let d = b.next(now, 0);
        seen.push(d);
        now += d;
    }
    // 100..=25600 sum to 51100; the next 51200 would pass 60000, so it is
    // cut to 60000 - 51100 = 8900, after which the doubling resumes to 60 s.
    assert_eq!(
        seen,
        [
            100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 8_900, 60_000, 60_000
        ]
    );
}

#[test]
fn partitioned_metadata_plans_the_producer_start() {
    for (partitions, expected) in [
        (0u32, vec!["persistent://t/ns/orders".to_owned()]),
        (
            3,
            (0..3)
                .map(|i| format!("persistent://t/ns/orders-partition-{i}"))
                .collect(),
        ),
    ] {
        let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
        assert_eq!(
            m.start(0),
            MetadataAction::Connect {
                address: SERVICE,
                attempt: 1
            }
        );
        let _ = m.on_connected(true, 1);
        let MetadataAction::Done(plan) =
            m.on_response(&PartitionedMetadataResponse::Success { partitions }, 2)
        else {
            panic!()
        };
        let topics: Vec<String> = plan
            .topics("persistent://t/ns/orders")
            .map(|t| t.to_string())
            .collect();
        assert_eq!(topics, expected);
        assert_eq!(plan.is_partitioned(), partitions > 0);
    }
}

#[test]
fn partitioned_metadata_retries_only_what_can_succeed() {
    let failed = |e| PartitionedMetadataResponse::Failed {
        error: Some(e),
        message: Some("m"),
    };
    // Authentication fails at once on this path (the lookup retries it).
    let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
    let _ = m.start(0);
    let _ = m.on_connected(true, 0);
    assert_eq!(
        m.on_response(&failed(ServerError::AuthenticationError), 1),
        MetadataAction::Failed(LookupError::Attempt(AttemptError::Server(
            ServerError::AuthenticationError
        )))
    );
    // ServiceNotReady is retried, within the time left.
    let options = MetadataOptions {
        operation_timeout_ms: 150,
        ..MetadataOptions::default()
    };
    let mut m = PartitionedMetadataLookup::new(SERVICE, options).unwrap();
    let _ = m.start(0);
    let _ = m.on_connected(true, 0);
    let MetadataAction::RetryAt { at_ms, .. } =
        m.on_response(&failed(ServerError::ServiceNotReady), 10)
    else {
        panic!()
    };
    let _ = m.on_retry_timer(at_ms);
    // 200 ms doubled, but only 150 - 120 = 30 ms are left.
    let MetadataAction::RetryAt { delay_ms, .. } = m.on_connection_failed(120) else {
        panic!()
    };
    assert_eq!(delay_ms, 30);
    let _ = m.on_retry_timer(150);
    assert!(matches!(
        m.on_connection_failed(150),
        MetadataAction::Failed(LookupError::DeadlineExceeded { .. })
    ));
}

#[test]
fn pip344_auto_creation_off_needs_the_broker_feature_or_the_fallback() {
    let off = MetadataOptions {
        metadata_auto_creation: false,
        ..MetadataOptions::default()
    };
    let mut m = PartitionedMetadataLookup::new(SERVICE, off).unwrap();
    let _ = m.start(0);
    assert_eq!(
        m.on_connected(true, 1),
        MetadataAction::SendPartitionedMetadata {
            metadata_auto_creation: false,
            attempt: 1
        }
    );
    let mut m = PartitionedMetadataLookup::new(SERVICE, off).unwrap();
    let _ = m.start(0);
    assert_eq!(
        m.on_connected(false, 1),
        MetadataAction::Failed(LookupError::Attempt(AttemptError::FeatureNotSupported))
    );
    let fallback = MetadataOptions {
        use_fallback_for_non_pip344: true,
        ..off
    };
    let mut m = PartitionedMetadataLookup::new(SERVICE, fallback).unwrap();
    let _ = m.start(0);
    assert_eq!(
        m.on_connected(false, 1),
        MetadataAction::SendPartitionedMetadata {
            metadata_auto_creation: true,
            attempt: 1
        }
    );
}

#[test]
fn the_coalescing_table_is_bounded_and_keyed_exactly() {
    let mut slots: [Option<InFlightLookup<LookupKey<'_>>>; 2] = [None; 2];
    let mut table = LookupCoalescer::new(&mut slots[..]);
    let props_ab = [("a", "1"), ("b", "2")];
    let props_ba = [("b", "2"), ("a", "1")];
    let k1 = LookupKey {
        topic: "t1",
        properties: &props_ab,
    };
    // The properties are a map: their order does not matter.
    let k1_again = LookupKey {
        topic: "t1",
        properties: &props_ba,
    };
    let k2 = LookupKey {
        topic: "t2",
        properties: &[],
    };
    let k3 = LookupKey {
        topic: "t1",
        properties: &[],
    };
    assert!(table.join(k1).unwrap().is_leader());
    assert!(!table.join(k1_again).unwrap().is_leader());
    assert!(table.join(k2).unwrap().is_leader());
    let full = table.join(k3).expect_err("full");
    assert_eq!(
        full.to_string(),
        "the lookup coalescing table is full: 2 different lookups are in flight"
    );
    assert_eq!(table.complete(&k1), Some(2));
    assert_eq!(table.complete(&k1), None);
    assert!(table.join(k3).unwrap().is_leader());
}

// What `ClientCnx.getPulsarClientException` and
// `PulsarClientException.isRetriableError` give for each broker code: the
// codes mapped to a class on the non-retriable list, and nothing else.
#[test]
fn retriable_server_errors_follow_the_java_exception_classes() {
    let not_retried = [
        ServerError::AuthorizationError,   // AuthorizationException
        ServerError::ConsumerBusy,         // ConsumerBusyException
        ServerError::ProducerBusy,         // ProducerBusyException
        ServerError::IncompatibleSchema,   // IncompatibleSchemaException
        ServerError::TopicNotFound,        // TopicDoesNotExistException
        ServerError::SubscriptionNotFound, // SubscriptionNotFoundException
        ServerError::ConsumerAssignError,  // ConsumerAssignException
        ServerError::NotAllowedError,      // NotAllowedException
        ServerError::TransactionConflict,  // TransactionConflictException
    ];
    for e in ServerError::ALL {
        assert_eq!(e.is_retriable(), !not_retried.contains(&e), "{e}");
    }
    // Mapped to the plain PulsarClientException (no case of its own), so
    // retried, even though the client's own InvalidTopicNameException is not.
    for e in [
        ServerError::InvalidTopicName,
        ServerError::ChecksumError,
        ServerError::UnknownError,
        ServerError::TransactionCoordinatorNotFound,
    ] {
        assert!(e.is_retriable(), "{e}");
    }
}

#[test]
fn a_subscription_not_found_is_not_retried_and_an_invalid_topic_name_is() {
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    assert_eq!(
        l.on_response(
            &LookupResponse::failed(ServerError::SubscriptionNotFound, "gone"),
            1
        ),
        LookupAction::Failed(LookupError::Attempt(AttemptError::Server(
            ServerError::SubscriptionNotFound
        )))
    );
    let mut chain = [Hop::EMPTY; 4];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    let _ = l.start(0);
    assert!(matches!(
        l.on_response(
            &LookupResponse::failed(ServerError::InvalidTopicName, "bad"),
            1
        ),
        LookupAction::RetryAt {
            cause: AttemptError::Server(ServerError::InvalidTopicName),
            ..
        }
    ));
}

// `ClientCnx.handleLookupResponse`: a missing response type or `Failed`
// gives the mapped error when the response has one, and
// "Empty lookup response" when it does not.
#[test]
fn failed_or_missing_response_type_gives_the_error_or_empty_lookup_response() {
    let cases = [
        (None, None, AttemptError::EmptyResponse),
        (
            None,
            Some(ServerError::ServiceNotReady),
            AttemptError::Server(ServerError::ServiceNotReady),
        ),
        (
            Some(pulsar_routing::lookup::LookupType::Failed),
            None,
            AttemptError::EmptyResponse,
        ),
        (
            Some(pulsar_routing::lookup::LookupType::Failed),
            Some(ServerError::MetadataError),
            AttemptError::Server(ServerError::MetadataError),
        ),
    ];
    for (response, error, expected) in cases {
        let mut chain = [Hop::EMPTY; 4];
        let mut l = lookup(LookupOptions::default(), &mut chain);
        let _ = l.start(0);
        let r = LookupResponse {
            response,
            error,
            ..LookupResponse::default()
        };
        let LookupAction::RetryAt { cause, .. } = l.on_response(&r, 1) else {
            panic!("{response:?} {error:?} is retried")
        };
        assert_eq!(cause, expected);
    }
    assert_eq!(
        AttemptError::EmptyResponse.to_string(),
        "Empty lookup response"
    );
}

#[test]
fn partitioned_metadata_failed_without_error_is_an_empty_lookup_response() {
    let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
    let _ = m.start(0);
    let _ = m.on_connected(true, 0);
    let r = PartitionedMetadataResponse::Failed {
        error: None,
        message: None,
    };
    assert!(matches!(
        m.on_response(&r, 1),
        MetadataAction::RetryAt {
            cause: AttemptError::EmptyResponse,
            ..
        }
    ));
}

// `getPartitionedTopicMetadata` budgets `conf.getLookupTimeoutMs()`, not
// the operation timeout, and stops retrying a missing subscription or
// topic at once.
#[test]
fn partitioned_metadata_deadline_is_the_lookup_timeout() {
    let options = MetadataOptions {
        operation_timeout_ms: 30_000,
        lookup_timeout_ms: Some(250),
        ..MetadataOptions::default()
    };
    let mut m = PartitionedMetadataLookup::new(SERVICE, options).unwrap();
    let _ = m.start(0);
    let MetadataAction::RetryAt { at_ms, .. } = m.on_connection_failed(0) else {
        panic!()
    };
    assert_eq!(at_ms, 100);
    let _ = m.on_retry_timer(at_ms);
    // 200 ms next, but only 250 - 100 = 150 are left.
    let MetadataAction::RetryAt { delay_ms, .. } = m.on_connection_failed(100) else {
        panic!()
    };
    assert_eq!(delay_ms, 150);
    let _ = m.on_retry_timer(250);
    assert!(matches!(
        m.on_connection_failed(250),
        MetadataAction::Failed(LookupError::DeadlineExceeded { .. })
    ));

    let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
    let _ = m.start(0);
    let _ = m.on_connected(true, 0);
    let r = PartitionedMetadataResponse::Failed {
        error: Some(ServerError::SubscriptionNotFound),
        message: None,
    };
    assert!(matches!(m.on_response(&r, 1), MetadataAction::Failed(_)));
}

// Java's `Backoff.next()`: the delay is lowered by `nextInt(current / 10)`,
// a number below a tenth, and never below the initial delay.
#[test]
fn backoff_jitter_lowers_by_less_than_a_tenth() {
    let mut b = Backoff::new(100, 60_000, 1_000_000);
    // 100 ms: bound 10, so at most 9 off; but never under the initial 100.
    assert_eq!(b.next(0, 9), 100);
    // 200 ms: bound 20, random 39 % 20 = 19 off.
    assert_eq!(b.next(100, 39), 181);
    // Below 11 ms there is no jitter (Java would throw on a bound of 0).
    let mut small = Backoff::new(5, 10, 1_000);
    assert_eq!(small.next(0, u32::MAX), 5);
}

/// Why each action was taken, in the words every binding shows: a trace
/// through a proxy with a leader change, then failures of each kind.
#[test]
fn every_action_explains_itself() {
    fn why(action: LookupAction<'_>, message: &str) -> String {
        action.explain(message).to_string()
    }
    let mut chain = [Hop::EMPTY; 8];
    let mut l = lookup(LookupOptions::default(), &mut chain);
    assert_eq!(
        why(l.start(0), ""),
        "first lookup, at the service address, non-authoritative"
    );
    let a = why(
        l.on_response(
            &LookupResponse::redirect("pulsar://b2:6650", true, false),
            3,
        ),
        "",
    );
    assert_eq!(
        a,
        "redirect 1 to pulsar://b2:6650, with the response's authoritative=True"
    );
    let failed = LookupResponse::failed(ServerError::ServiceNotReady, "leader changing");
    let LookupAction::RetryAt { delay_ms, .. } = l.on_response(&failed, 5) else {
        panic!()
    };
    // The action borrows the driver: the broker's message is read after.
    let retry = LookupAction::RetryAt {
        at_ms: 5 + delay_ms,
        delay_ms,
        cause: AttemptError::Server(ServerError::ServiceNotReady),
        attempt: 1,
    };
    assert_eq!(
        why(retry, l.server_message()),
        format!(
            "attempt 1 failed (the broker failed the lookup with ServiceNotReady: leader changing); retriable, backing off {delay_ms} ms"
        )
    );
    assert_eq!(
        why(l.on_retry_timer(5 + delay_ms), ""),
        "attempt 2 starts over at the service address"
    );
    assert_eq!(
        why(
            l.on_response(
                &LookupResponse::connect("pulsar://b2:6650", true, true),
                200
            ),
            ""
        ),
        "pulsar://b2:6650 owns the topic; connect through pulsar://proxy:6650"
    );
    assert_eq!(
        why(l.on_retry_timer(300), ""),
        "event ignored: the lookup has already ended"
    );
    assert_eq!(
        l.explain_error().map(|e| e.to_string()).as_deref(),
        Some("the broker failed the lookup with ServiceNotReady: leader changing")
    );

    let not_retriable = LookupAction::Failed(LookupError::Attempt(AttemptError::Server(
        ServerError::TopicNotFound,
    )));
    assert_eq!(
        why(not_retriable, "no such topic"),
        "the broker failed the lookup with TopicNotFound: no such topic: not retriable"
    );
    let retries_off = LookupAction::Failed(LookupError::Attempt(AttemptError::ConnectionFailed));
    assert_eq!(
        why(retries_off, "ignored for a connection failure"),
        "Connection to the broker failed: retries are off"
    );
    let deadline = LookupAction::Failed(LookupError::DeadlineExceeded {
        attempts: 3,
        elapsed_ms: 30_001,
        last: Some(AttemptError::Server(ServerError::ServiceNotReady)),
    });
    assert_eq!(
        why(deadline, "busy"),
        "Lookup timed out after 30001 ms and 3 attempts; last error: the broker failed the lookup with ServiceNotReady: busy"
    );
}

/// The partitioned-metadata step explains itself the same way.
#[test]
fn every_metadata_action_explains_itself() {
    use pulsar_routing::lookup::ProducerStartPlan;
    fn why(action: MetadataAction<'_>) -> String {
        action.explain("").to_string()
    }
    let mut m = PartitionedMetadataLookup::new(SERVICE, MetadataOptions::default()).unwrap();
    assert_eq!(why(m.start(0)), "attempt 1: connect to a service host");
    assert_eq!(why(m.on_connected(true, 1)), "ask the partition count");
    assert_eq!(
        why(MetadataAction::Done(ProducerStartPlan { partitions: 3 })),
        "3 partitions: one lookup per partition"
    );
    assert_eq!(
        why(MetadataAction::Done(ProducerStartPlan { partitions: 0 })),
        "not partitioned: one lookup of the topic"
    );
    let auth = MetadataAction::Failed(LookupError::Attempt(AttemptError::Server(
        ServerError::AuthenticationError,
    )));
    assert_eq!(
        auth.explain("bad token").to_string(),
        "the broker failed the lookup with AuthenticationError: bad token"
    );
}

/// Java keys its in-flight lookups by (topic, `Map<String, String>`): the
/// properties' order does not matter and a repeated name keeps its last
/// value, for equality and for the hash alike.
#[test]
fn coalescing_keys_compare_properties_as_a_map() {
    use pulsar_routing::lookup::LookupProperties;
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    let hash = |k: &LookupKey<'_>| BuildHasherDefault::<DefaultHasher>::default().hash_one(k);
    let key = |properties| LookupKey {
        topic: "persistent://t/ns/a",
        properties,
    };
    let ab = key(&[("a", "1"), ("b", "2")]);
    let ba = key(&[("b", "2"), ("a", "1")]);
    let repeated = key(&[("a", "0"), ("b", "2"), ("a", "1")]);
    for same in [ba, repeated] {
        assert_eq!(ab, same);
        assert_eq!(hash(&ab), hash(&same));
    }
    assert_ne!(ab, key(&[("a", "1"), ("b", "3")]));
    assert_ne!(ab, key(&[("a", "1")]));
    assert_ne!(ab, key(&[("a", "1"), ("b", "2"), ("c", "3")]));
    // The last value counts, not the first.
    assert_ne!(key(&[("a", "1"), ("a", "0")]), key(&[("a", "1")]));
    assert_ne!(
        ab,
        LookupKey {
            topic: "persistent://t/ns/b",
            ..ab
        }
    );
    // Owned strings compare with borrowed ones.
    let owned = [
        ("b".to_owned(), "2".to_owned()),
        ("a".to_owned(), "1".to_owned()),
    ];
    assert!(LookupProperties(&owned[..]) == LookupProperties(ab.properties));
    assert_eq!(LookupProperties(repeated.properties).len(), 2);

    let mut slots: [Option<InFlightLookup<LookupKey>>; 2] = [None; 2];
    let mut table = LookupCoalescer::new(&mut slots[..]);
    assert!(table.join(ab).unwrap().is_leader());
    assert!(!table.join(ba).unwrap().is_leader());
    assert_eq!(table.complete(&repeated), Some(2));
}
