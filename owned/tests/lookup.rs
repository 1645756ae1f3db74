//! What the bindings read from their callers and show them, decided once in
//! `pulsar_routing_owned::lookup`: the argument parsers and their texts,
//! the C ABI's event and action codes (as `include/pulsar_routing.h`
//! numbers them), the waiter tables, the error reports and the one-line
//! descriptions.

use pulsar_routing::lookup::{
    AttemptError, CoalesceError, LookupError, LookupOptions, LookupProfile, LookupResponse,
    LookupType, MetadataAction, MetadataOptions, PartitionedMetadataLookup,
    PartitionedMetadataResponse, ServerError,
};
use pulsar_routing_owned::lookup::{
    ActionKind, ArgumentError, ErrorFamily, ErrorField, ErrorReport, MetadataEvent,
    OwnedLookupAction, OwnedLookupKey, OwnedMetadataAction, Waiting, lookup_timeout, metadata_key,
    optional_server_error, profile_named, profile_of_code, response_type_named,
    response_type_of_code, server_error_named, server_error_of_code, topic_lookup,
};

#[test]
fn arguments_parse_as_the_c_header_and_python_document_them() {
    // The C profiles: 0 Java, 1 Go; Python's names, "cpp" being Java's.
    assert_eq!(profile_of_code(0), Ok(LookupProfile::Java));
    assert_eq!(profile_of_code(1), Ok(LookupProfile::Go));
    assert_eq!(
        profile_of_code(2),
        Err(ArgumentError::UnknownProfileCode(2))
    );
    assert_eq!(profile_named("cpp"), Ok(LookupProfile::Java));
    assert_eq!(
        profile_named("rust").unwrap_err().to_string(),
        "unknown lookup profile \"rust\": expected \"java\" or \"go\""
    );
    // CommandLookupTopicResponse.LookupType: 0 Redirect, 1 Connect,
    // 2 Failed; anything else is an absent type.
    assert_eq!(response_type_of_code(0), Some(LookupType::Redirect));
    assert_eq!(response_type_of_code(1), Some(LookupType::Connect));
    assert_eq!(response_type_of_code(2), Some(LookupType::Failed));
    assert_eq!(response_type_of_code(-1), None);
    assert_eq!(response_type_of_code(7), None);
    assert_eq!(response_type_named(None), Ok(None));
    assert_eq!(
        response_type_named(Some("connect")),
        Ok(Some(LookupType::Connect))
    );
    assert_eq!(
        response_type_named(Some("bogus")).unwrap_err().to_string(),
        "unknown lookup response \"bogus\": expected \"connect\", \"redirect\" or \"failed\""
    );
    // ServerError: code 6 is ServiceNotReady in PulsarApi.proto.
    assert_eq!(server_error_of_code(6), Ok(ServerError::ServiceNotReady));
    assert_eq!(
        server_error_named("ServiceNotReady"),
        Ok(ServerError::ServiceNotReady)
    );
    assert_eq!(optional_server_error(-1), Ok(None));
    assert_eq!(
        optional_server_error(999).unwrap_err().to_string(),
        "unknown ServerError code 999"
    );
    assert_eq!(
        server_error_named("Nope").unwrap_err().to_string(),
        "unknown ServerError \"Nope\""
    );
    // The C options' 0 stands for "the operation timeout".
    assert_eq!(lookup_timeout(0), None);
    assert_eq!(lookup_timeout(5_000), Some(5_000));
}

#[test]
fn action_kinds_carry_the_c_codes() {
    // PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP = 0 ... SEND_PARTITIONED_METADATA = 6.
    let kinds = [
        ActionKind::SendLookup,
        ActionKind::RetryAt,
        ActionKind::Done,
        ActionKind::Failed,
        ActionKind::Ignored,
        ActionKind::Connect,
        ActionKind::SendPartitionedMetadata,
    ];
    for (code, kind) in (0..).zip(kinds) {
        assert_eq!(kind.code(), code);
    }
}

#[test]
fn metadata_events_follow_the_c_codes() {
    let failed = PartitionedMetadataResponse::Failed {
        error: Some(ServerError::ServiceNotReady),
        message: Some("busy"),
    };
    let event = |code| {
        MetadataEvent::of_code(
            code,
            true,
            4,
            Some(ServerError::ServiceNotReady),
            Some("busy"),
        )
    };
    assert_eq!(event(0), Ok(MetadataEvent::Start));
    assert_eq!(event(1), Ok(MetadataEvent::Connected(true)));
    assert_eq!(
        event(2),
        Ok(MetadataEvent::Response(
            PartitionedMetadataResponse::Success { partitions: 4 }
        ))
    );
    assert_eq!(event(3), Ok(MetadataEvent::Response(failed)));
    assert_eq!(event(4), Ok(MetadataEvent::ConnectionFailed));
    assert_eq!(event(5), Ok(MetadataEvent::RetryTimer));
    assert_eq!(event(6), Err(ArgumentError::UnknownEvent(6)));

    // Fed one after the other they make the producer's metadata step:
    // connect, send, and the partition count.
    let mut m = PartitionedMetadataLookup::new("pulsar://proxy:6650", MetadataOptions::default())
        .expect("a short address");
    let a = OwnedMetadataAction::on(&mut m, MetadataEvent::Start, 0);
    assert!(matches!(
        a.action(),
        MetadataAction::Connect {
            address: "pulsar://proxy:6650",
            ..
        }
    ));
    let a = OwnedMetadataAction::on(&mut m, MetadataEvent::Connected(true), 1);
    assert_eq!(a.flat().kind, ActionKind::SendPartitionedMetadata);
    let a = OwnedMetadataAction::on(&mut m, event(2).expect("a known code"), 2);
    assert_eq!(a.flat().partitions, Some(4));
    assert_eq!(a.flat().describe(a.explanation()), "done(partitions=4)");
}

#[test]
fn waiting_tables_keep_waiters_in_join_order() {
    let mut table = Waiting::new(1);
    assert_eq!(
        table.join(metadata_key("t", true, false), "a"),
        Ok((true, 1))
    );
    assert_eq!(
        table.join(metadata_key("t", true, false), "b"),
        Ok((false, 2))
    );
    // Another key needs another slot, and the only one is taken.
    assert_eq!(
        table.join(metadata_key("t", false, false), "c"),
        Err(CoalesceError::TableFull { capacity: 1 })
    );
    assert_eq!(table.len(), 1);
    assert_eq!(table.complete(&metadata_key("t", true, false)), ["a", "b"]);
    assert!(table.complete(&metadata_key("t", true, false)).is_empty());
    assert!(table.is_empty());
    // A new lead in the freed slot starts a fresh list.
    let key = |props: &[(&str, &str)]| {
        OwnedLookupKey::new("t", props.iter().map(|(n, v)| ((*n).into(), (*v).into())))
    };
    let mut table = Waiting::new(2);
    assert_eq!(table.join(key(&[("a", "1")]), 1), Ok((true, 1)));
    assert_eq!(table.complete(&key(&[("a", "1")])), [1]);
    assert_eq!(table.join(key(&[("a", "1")]), 2), Ok((true, 1)));
    assert_eq!(table.complete(&key(&[("a", "1")])), [2]);
    assert_eq!(table.capacity(), 2);
}

#[test]
fn error_reports_name_what_each_error_carries() {
    let throttled = ErrorReport::new(
        LookupError::Attempt(AttemptError::TooManyRequests {
            in_flight: 3,
            queued: 4,
        }),
        "",
    );
    assert_eq!(throttled.family, ErrorFamily::TooManyRequests);
    assert_eq!(
        throttled.fields,
        [
            ("in_flight", ErrorField::Number(3)),
            ("queued", ErrorField::Number(4)),
            ("kind", ErrorField::Text("too_many_requests".into())),
        ]
    );
    // The Go client's limit is its fixed 20 responses.
    let go = ErrorReport::new(LookupError::Attempt(AttemptError::GoRedirectLimit), "");
    assert_eq!(go.family, ErrorFamily::TooManyRedirects);
    assert_eq!(go.fields[0], ("limit", ErrorField::Number(20)));
    // A server error keeps the broker's message, in the text too.
    let server = ErrorReport::new(
        LookupError::Attempt(AttemptError::Server(ServerError::ServiceNotReady)),
        "busy",
    );
    assert_eq!(server.family, ErrorFamily::Failed);
    assert_eq!(
        server.text,
        "the broker failed the lookup with ServiceNotReady: busy"
    );
    assert!(
        server
            .fields
            .contains(&("server_message", ErrorField::Text("busy".into())))
    );
}

#[test]
fn a_deadline_reports_its_attempts_and_last_error() {
    // No retry budget left after an empty response at the deadline.
    let options = LookupOptions {
        lookup_timeout_ms: Some(1_000),
        ..LookupOptions::default()
    };
    let mut l = topic_lookup("pulsar://proxy:6650", options, 21).expect("a short address");
    OwnedLookupAction::drive(&mut l, |l| l.start(0));
    let empty = LookupResponse::default();
    let failed = OwnedLookupAction::drive(&mut l, |l| l.on_response(&empty, 1_001));
    let e = failed.explanation();
    let report = ErrorReport::new(e.error().expect("a failure"), "");
    assert_eq!(report.family, ErrorFamily::Timeout);
    assert_eq!(
        report.fields,
        [
            ("attempts", ErrorField::Number(1)),
            ("elapsed_ms", ErrorField::Number(1_001)),
            (
                "last_error",
                ErrorField::MaybeText(Some("Empty lookup response".into()))
            ),
            ("kind", ErrorField::Text("deadline_exceeded".into())),
        ]
    );
    assert_eq!(
        failed.flat().describe(e),
        format!("failed(error={:?})", report.text)
    );
}

#[test]
fn descriptions_name_the_fields_of_their_kind() {
    let mut l =
        topic_lookup("pulsar://proxy:6650", LookupOptions::default(), 21).expect("a short address");
    let first = OwnedLookupAction::drive(&mut l, |l| l.start(0));
    assert_eq!(
        first.flat().describe(first.explanation()),
        "send_lookup(to=\"pulsar://proxy:6650\", authoritative=False, attempt=1, redirects=0)"
    );
    let again = OwnedLookupAction::drive(&mut l, |l| l.start(0));
    assert_eq!(
        again.flat().describe(again.explanation()),
        "ignored(reason=\"event ignored: the lookup has already started\")"
    );
}
