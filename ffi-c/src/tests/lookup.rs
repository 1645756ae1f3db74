//! The lookup C API: a full lookup through redirects, retries and
//! failures, the metadata step, the coalescing table and the throttle.

use core::ffi::c_char;
use core::ptr;
use std::ffi::{CStr, CString};

use crate::error::pulsar_routing_status as S;
use crate::lookup::*;

fn action() -> pulsar_routing_lookup_action {
    // SAFETY: a plain C struct of integers, bools and pointers; all-zero is
    // a valid value for each.
    unsafe { core::mem::zeroed() }
}

fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: the handle's NUL-terminated string, valid until the next call.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
}

fn response(
    kind: i32,
    url: &CString,
    authoritative: bool,
    proxy: bool,
) -> pulsar_routing_lookup_response {
    pulsar_routing_lookup_response {
        response: kind,
        broker_service_url: url.as_ptr(),
        broker_service_url_tls: ptr::null(),
        authoritative,
        proxy_through_service_url: proxy,
        error: -1,
        message: ptr::null(),
    }
}

#[test]
fn a_lookup_through_a_redirect_a_retry_and_a_proxy() {
    let service = CString::new("pulsar://proxy:6650").unwrap();
    let mut options = default_options();
    options.jitter_seed = 3;
    let mut l = ptr::null_mut();
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(
            pulsar_routing_topic_lookup_new(service.as_ptr(), &options, 21, &mut l),
            S::Ok
        );
        let mut a = action();
        assert_eq!(pulsar_routing_topic_lookup_start(l, 100, &mut a), S::Ok);
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP);
        assert_eq!(text(a.logical_address), "pulsar://proxy:6650");
        assert!(!a.authoritative && a.send_properties);
        assert_eq!(
            text(a.reason),
            "first lookup, at the service address, non-authoritative"
        );

        let failed_msg = CString::new("leader changing").unwrap();
        let failed = pulsar_routing_lookup_response {
            response: 2,
            broker_service_url: ptr::null(),
            broker_service_url_tls: ptr::null(),
            authoritative: false,
            proxy_through_service_url: false,
            error: 6,
            message: failed_msg.as_ptr(),
        };
        assert_eq!(
            pulsar_routing_topic_lookup_on_response(l, &failed, 110, &mut a),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT);
        assert_eq!((a.error, a.server_error), (S::LookupServerError, 6));
        // The reason carries the broker's message, as in every binding.
        assert_eq!(
            text(a.reason),
            format!(
                "attempt 1 failed (the broker failed the lookup with ServiceNotReady: leader changing); retriable, backing off {} ms",
                a.delay_ms
            )
        );
        let mut buf = [0u8; 128];
        let mut written = 0;
        assert_eq!(
            pulsar_routing_topic_lookup_error_message(l, buf.as_mut_ptr(), buf.len(), &mut written),
            S::Ok
        );
        assert_eq!(
            core::str::from_utf8(&buf[..written]).unwrap(),
            "the broker failed the lookup with ServiceNotReady: leader changing"
        );
        let at = a.at_ms;
        assert_eq!(
            pulsar_routing_topic_lookup_on_retry_timer(l, at, &mut a),
            S::Ok
        );
        assert_eq!(
            (a.kind, a.attempt),
            (PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP, 2)
        );

        let b1 = CString::new("pulsar://broker-1:6650").unwrap();
        let r = response(0, &b1, true, false);
        assert_eq!(
            pulsar_routing_topic_lookup_on_response(l, &r, at + 1, &mut a),
            S::Ok
        );
        assert_eq!(text(a.logical_address), "pulsar://broker-1:6650");
        assert!(a.authoritative);
        assert_eq!(
            text(a.reason),
            "redirect 1 to pulsar://broker-1:6650, with the response's authoritative=True"
        );

        let b2 = CString::new("pulsar://broker-2:6650").unwrap();
        let r = response(1, &b2, true, true);
        assert_eq!(
            pulsar_routing_topic_lookup_on_response(l, &r, at + 2, &mut a),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_DONE);
        assert_eq!(text(a.logical_address), "pulsar://broker-2:6650");
        assert_eq!(text(a.physical_address), "pulsar://broker-1:6650");
        assert!(a.use_proxy);
        assert_eq!(
            text(a.reason),
            "pulsar://broker-2:6650 owns the topic; connect through pulsar://broker-1:6650"
        );

        let mut n = 0;
        assert_eq!(pulsar_routing_topic_lookup_chain_len(l, &mut n), S::Ok);
        assert_eq!(n, 2);
        let mut auth = false;
        assert_eq!(
            pulsar_routing_topic_lookup_chain_hop(
                l,
                1,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written,
                &mut auth
            ),
            S::Ok
        );
        assert_eq!(
            (&buf[..written], auth),
            (&b"pulsar://broker-1:6650"[..], true)
        );
        assert_eq!(
            pulsar_routing_topic_lookup_chain_hop(
                l,
                2,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written,
                &mut auth
            ),
            S::LookupHopIndexOutOfRange
        );
        // Finished: further events are ignored.
        assert_eq!(
            pulsar_routing_topic_lookup_on_connection_failed(l, at + 3, &mut a),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_IGNORED);
        assert_eq!(
            text(a.reason),
            "event ignored: the lookup has already ended"
        );
        pulsar_routing_topic_lookup_free(l);
        pulsar_routing_topic_lookup_free(ptr::null_mut());
    }
}

fn default_options() -> pulsar_routing_lookup_options {
    let mut o = core::mem::MaybeUninit::uninit();
    // SAFETY: a valid out-pointer.
    let status = unsafe { pulsar_routing_lookup_options_default(o.as_mut_ptr()) };
    assert_eq!(status, S::Ok);
    // SAFETY: written on OK.
    unsafe { o.assume_init() }
}

#[test]
fn the_redirect_limit_and_the_deadline_are_statuses() {
    let service = CString::new("pulsar://svc:6650").unwrap();
    let mut options = default_options();
    options.retry = false;
    options.max_redirects = 1;
    let mut l = ptr::null_mut();
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(
            pulsar_routing_topic_lookup_new(service.as_ptr(), &options, 4, &mut l),
            S::Ok
        );
        let mut a = action();
        let _ = pulsar_routing_topic_lookup_start(l, 0, &mut a);
        let b = CString::new("pulsar://b:1").unwrap();
        let c = CString::new("pulsar://c:1").unwrap();
        let _ =
            pulsar_routing_topic_lookup_on_response(l, &response(0, &b, false, false), 1, &mut a);
        let _ =
            pulsar_routing_topic_lookup_on_response(l, &response(0, &c, false, false), 2, &mut a);
        assert_eq!(
            (a.kind, a.error),
            (
                PULSAR_ROUTING_LOOKUP_ACTION_FAILED,
                S::LookupTooManyRedirects
            )
        );
        let mut buf = [0u8; 64];
        let mut written = 0;
        let _ =
            pulsar_routing_topic_lookup_error_message(l, buf.as_mut_ptr(), buf.len(), &mut written);
        assert_eq!(&buf[..written], b"Too many redirects: 1");
        pulsar_routing_topic_lookup_free(l);

        options.retry = true;
        options.operation_timeout_ms = 50;
        assert_eq!(
            pulsar_routing_topic_lookup_new(service.as_ptr(), &options, 4, &mut l),
            S::Ok
        );
        let _ = pulsar_routing_topic_lookup_start(l, 0, &mut a);
        // Java's deadline is exclusive (`now > lookupDeadline`): a failure
        // exactly at it is retried, after the backoff.
        let _ = pulsar_routing_topic_lookup_on_request_timeout(l, 50, &mut a);
        assert_eq!(
            (a.kind, a.error, a.attempt),
            (
                PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT,
                S::LookupRequestTimeout,
                1
            )
        );
        assert!(a.at_ms > 50);
        let at = a.at_ms;
        let _ = pulsar_routing_topic_lookup_on_retry_timer(l, at, &mut a);
        assert_eq!(
            (a.kind, a.attempt),
            (PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP, 2)
        );
        let _ = pulsar_routing_topic_lookup_on_request_timeout(l, at, &mut a);
        assert_eq!(
            (a.kind, a.error),
            (
                PULSAR_ROUTING_LOOKUP_ACTION_FAILED,
                S::LookupDeadlineExceeded
            )
        );
        assert_eq!(
            text(a.reason),
            format!(
                "Lookup timed out after {at} ms and 2 attempts; last error: Lookup request timeout"
            )
        );
        pulsar_routing_topic_lookup_free(l);

        options.profile = 9;
        assert_eq!(
            pulsar_routing_topic_lookup_new(service.as_ptr(), &options, 4, &mut l),
            S::UnknownLookupProfile
        );
        assert_eq!(
            pulsar_routing_topic_lookup_new(ptr::null(), &options, 4, &mut l),
            S::NullParameter
        );
    }
}

#[test]
fn metadata_plans_partition_lookups() {
    let service = CString::new("pulsar://svc:6650").unwrap();
    let mut m = ptr::null_mut();
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(
            pulsar_routing_partitioned_metadata_new(service.as_ptr(), ptr::null(), &mut m),
            S::Ok
        );
        let mut a = action();
        assert_eq!(
            pulsar_routing_partitioned_metadata_on_event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START,
                false,
                0,
                -1,
                ptr::null(),
                0,
                0,
                &mut a
            ),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_CONNECT);
        assert_eq!(text(a.physical_address), "pulsar://svc:6650");
        assert_eq!(text(a.reason), "attempt 1: connect to a service host");
        let _ = pulsar_routing_partitioned_metadata_on_event(
            m,
            PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED,
            true,
            0,
            -1,
            ptr::null(),
            0,
            1,
            &mut a,
        );
        assert_eq!(
            (a.kind, a.metadata_auto_creation),
            (PULSAR_ROUTING_LOOKUP_ACTION_SEND_PARTITIONED_METADATA, true)
        );
        let _ = pulsar_routing_partitioned_metadata_on_event(
            m,
            PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_SUCCESS,
            false,
            4,
            -1,
            ptr::null(),
            0,
            2,
            &mut a,
        );
        assert_eq!(
            (a.kind, a.partitions),
            (PULSAR_ROUTING_LOOKUP_ACTION_DONE, 4)
        );
        assert_eq!(
            pulsar_routing_partitioned_metadata_on_event(
                m,
                9,
                false,
                0,
                -1,
                ptr::null(),
                0,
                2,
                &mut a
            ),
            S::LookupUnknownEvent
        );
        pulsar_routing_partitioned_metadata_free(m);

        let topic = b"persistent://t/ns/a";
        let mut buf = [0u8; 64];
        let mut written = 0;
        assert_eq!(
            pulsar_routing_producer_start_topic(
                topic.as_ptr(),
                topic.len(),
                4,
                3,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&buf[..written], b"persistent://t/ns/a-partition-3");
        assert_eq!(
            pulsar_routing_producer_start_topic(
                topic.as_ptr(),
                topic.len(),
                0,
                0,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&buf[..written], topic);
        assert_eq!(
            pulsar_routing_producer_start_topic(
                topic.as_ptr(),
                topic.len(),
                0,
                1,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written
            ),
            S::IllegalPartitionIndex
        );
    }
}

#[test]
fn coalescer_and_throttle_from_several_threads() {
    let mut c = ptr::null_mut();
    let mut t = ptr::null_mut();
    // SAFETY: valid pointers; the handles are shared across threads as the
    // docs allow and freed after the threads end.
    unsafe {
        assert_eq!(pulsar_routing_lookup_coalescer_new(2, &mut c), S::Ok);
        assert_eq!(pulsar_routing_lookup_throttle_new(2, 3, &mut t), S::Ok);
    }
    let (c_addr, t_addr) = (c as usize, t as usize);
    let leaders: usize = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(move || {
                    let topic = CString::new("persistent://t/ns/a").unwrap();
                    let n = [CString::new("k").unwrap()];
                    let v = [CString::new("v").unwrap()];
                    let names = [n[0].as_ptr()];
                    let values = [v[0].as_ptr()];
                    let (mut leader, mut waiters) = (false, 0);
                    // SAFETY: live handle, valid strings and arrays.
                    let status = unsafe {
                        pulsar_routing_lookup_coalescer_join(
                            c_addr as *const pulsar_routing_lookup_coalescer,
                            topic.as_ptr(),
                            names.as_ptr(),
                            values.as_ptr(),
                            1,
                            &mut leader,
                            &mut waiters,
                        )
                    };
                    assert_eq!(status, S::Ok);
                    usize::from(leader)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(leaders, 1);
    // SAFETY: live handles, valid strings; freed once at the end.
    unsafe {
        let topic = CString::new("persistent://t/ns/a").unwrap();
        let n = CString::new("k").unwrap();
        let v = CString::new("v").unwrap();
        let mut waiters = 0;
        assert_eq!(
            pulsar_routing_lookup_coalescer_complete(
                c,
                topic.as_ptr(),
                &n.as_ptr(),
                &v.as_ptr(),
                1,
                &mut waiters
            ),
            S::Ok
        );
        assert_eq!(waiters, 8);
        let (mut leader, mut w) = (false, 0);
        let other = CString::new("b").unwrap();
        let third = CString::new("c").unwrap();
        let _ = pulsar_routing_lookup_coalescer_join(
            c,
            topic.as_ptr(),
            ptr::null(),
            ptr::null(),
            0,
            &mut leader,
            &mut w,
        );
        let _ = pulsar_routing_lookup_coalescer_join(
            c,
            other.as_ptr(),
            ptr::null(),
            ptr::null(),
            0,
            &mut leader,
            &mut w,
        );
        assert_eq!(
            pulsar_routing_lookup_coalescer_join(
                c,
                third.as_ptr(),
                ptr::null(),
                ptr::null(),
                0,
                &mut leader,
                &mut w
            ),
            S::LookupCoalescingTableFull
        );
        pulsar_routing_lookup_coalescer_free(c);

        let (mut inf, mut q) = (0, 0);
        let t = t_addr as *mut pulsar_routing_lookup_throttle;
        let mut now = false;
        assert_eq!(pulsar_routing_lookup_throttle_acquire(t, &mut now), S::Ok);
        assert!(now);
        let _ = pulsar_routing_lookup_throttle_acquire(t, &mut now);
        assert_eq!(pulsar_routing_lookup_throttle_acquire(t, &mut now), S::Ok);
        assert!(!now);
        // Refused: the out-parameter keeps its value (outputs on success
        // only); the counts come from `_counts`.
        let mut untouched = true;
        assert_eq!(
            pulsar_routing_lookup_throttle_acquire(t, &mut untouched),
            S::LookupTooManyRequests
        );
        assert!(untouched);
        assert_eq!(
            pulsar_routing_lookup_throttle_counts(t, &mut inf, &mut q),
            S::Ok
        );
        assert_eq!((inf, q), (2, 1));
        let mut send = false;
        assert_eq!(pulsar_routing_lookup_throttle_release(t, &mut send), S::Ok);
        assert!(send);
        pulsar_routing_lookup_throttle_free(t);
    }
}

#[test]
fn metadata_coalescer_keys_on_topic_and_both_pip344_flags() {
    let topic = CString::new("persistent://t/ns/a").unwrap();
    let bad = [0xffu8, 0];
    let mut c = ptr::null_mut();
    // SAFETY: valid pointers and strings; the handle is freed once at the
    // end, and NULLs are passed only where the docs promise a status.
    unsafe {
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_new(2, ptr::null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_new(2, &mut c),
            S::Ok
        );
        let (mut leader, mut w) = (false, 0);
        let join = |auto: bool, fallback: bool, leader: &mut bool, w: &mut u32| {
            pulsar_routing_lookup_metadata_coalescer_join(
                c,
                topic.as_ptr(),
                auto,
                fallback,
                leader,
                w,
            )
        };
        assert_eq!(join(true, false, &mut leader, &mut w), S::Ok);
        assert!(leader && w == 1);
        assert_eq!(join(true, false, &mut leader, &mut w), S::Ok);
        assert!(!leader && w == 2);
        // Another auto-creation flag is another request...
        assert_eq!(join(false, false, &mut leader, &mut w), S::Ok);
        assert!(leader);
        // ...and with both slots taken a third key does not fit.
        assert_eq!(
            join(false, true, &mut leader, &mut w),
            S::LookupCoalescingTableFull
        );
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_join(
                c,
                ptr::null(),
                true,
                false,
                &mut leader,
                &mut w
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_join(
                c,
                bad.as_ptr().cast(),
                true,
                false,
                &mut leader,
                &mut w
            ),
            S::InvalidUtf8
        );
        let mut waiters = 7;
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_complete(
                c,
                topic.as_ptr(),
                true,
                false,
                &mut waiters
            ),
            S::Ok
        );
        assert_eq!(waiters, 2);
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_complete(
                c,
                topic.as_ptr(),
                false,
                true,
                &mut waiters
            ),
            S::Ok
        );
        assert_eq!(waiters, 0);
        assert_eq!(
            pulsar_routing_lookup_metadata_coalescer_complete(
                ptr::null(),
                topic.as_ptr(),
                true,
                false,
                &mut waiters
            ),
            S::NullParameter
        );
        pulsar_routing_lookup_metadata_coalescer_free(c);
        pulsar_routing_lookup_metadata_coalescer_free(ptr::null_mut());
    }
}

/// The metadata step's FAILED event carries the broker's message: the
/// error text reports it after the server error, as Python's does; a
/// retry timer before its `at_ms` is ignored and the retry stays due.
#[test]
fn metadata_failed_event_keeps_the_message_and_early_timers_are_ignored() {
    let service = CString::new("pulsar://svc:6650").unwrap();
    let mut m = ptr::null_mut();
    let message = "Namespace bundle is being unloaded";
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(
            pulsar_routing_partitioned_metadata_new(service.as_ptr(), ptr::null(), &mut m),
            S::Ok
        );
        let mut a = action();
        let event = |m, e, flag, code, msg: &str, now, a: &mut _| {
            pulsar_routing_partitioned_metadata_on_event(
                m,
                e,
                flag,
                0,
                code,
                msg.as_ptr(),
                msg.len(),
                now,
                a,
            )
        };
        assert_eq!(
            event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START,
                false,
                -1,
                "",
                0,
                &mut a
            ),
            S::Ok
        );
        let _ = event(
            m,
            PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED,
            true,
            -1,
            "",
            1,
            &mut a,
        );
        // ServiceNotReady (6) is retriable.
        assert_eq!(
            event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED,
                false,
                6,
                message,
                2,
                &mut a
            ),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT);
        assert_eq!((a.error, a.server_error), (S::LookupServerError, 6));
        let at = a.at_ms;
        assert!(at > 2);
        let mut buf = [0u8; 256];
        let mut written = 0;
        assert_eq!(
            pulsar_routing_partitioned_metadata_error_message(
                m,
                buf.as_mut_ptr(),
                buf.len(),
                &mut written
            ),
            S::Ok
        );
        let text = core::str::from_utf8(&buf[..written]).unwrap();
        assert!(text.ends_with(&format!(": {message}")), "{text}");
        // A NULL message needs a zero length.
        assert_eq!(
            pulsar_routing_partitioned_metadata_on_event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED,
                false,
                0,
                6,
                ptr::null(),
                1,
                3,
                &mut a
            ),
            S::NullParameter
        );
        // Early timer: ignored, the retry still pending.
        assert_eq!(
            event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_RETRY_TIMER,
                false,
                -1,
                "",
                at - 1,
                &mut a
            ),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_IGNORED);
        assert_eq!(
            event(
                m,
                PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_RETRY_TIMER,
                false,
                -1,
                "",
                at,
                &mut a
            ),
            S::Ok
        );
        assert_eq!(
            (a.kind, a.attempt),
            (PULSAR_ROUTING_LOOKUP_ACTION_CONNECT, 2)
        );
        pulsar_routing_partitioned_metadata_free(m);
    }
}

/// The topic lookup's retry timer before its `at_ms` is ignored: the
/// backoff cannot be cut short by an early or stale timer.
#[test]
fn topic_lookup_retry_timer_before_its_time_is_ignored() {
    let service = CString::new("pulsar://svc:6650").unwrap();
    let mut l = ptr::null_mut();
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(
            pulsar_routing_topic_lookup_new(service.as_ptr(), ptr::null(), 4, &mut l),
            S::Ok
        );
        let mut a = action();
        assert_eq!(pulsar_routing_topic_lookup_start(l, 0, &mut a), S::Ok);
        assert_eq!(
            pulsar_routing_topic_lookup_on_connection_failed(l, 5, &mut a),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT);
        let at = a.at_ms;
        assert!(at > 5);
        assert_eq!(
            pulsar_routing_topic_lookup_on_retry_timer(l, at - 1, &mut a),
            S::Ok
        );
        assert_eq!(a.kind, PULSAR_ROUTING_LOOKUP_ACTION_IGNORED);
        assert_eq!(
            pulsar_routing_topic_lookup_on_retry_timer(l, at, &mut a),
            S::Ok
        );
        assert_eq!(
            (a.kind, a.attempt),
            (PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP, 2)
        );
        pulsar_routing_topic_lookup_free(l);
    }
}
