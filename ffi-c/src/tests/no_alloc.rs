//! Routing and hashing through the C API never touch the heap: only the
//! `*_new` router, selector and sender gate constructors (and
//! `pulsar_routing_selector_reserve`) allocate. A counting global allocator
//! proves it for every kind of key, router and selector, and for the
//! sender gate's events and the pending queue. The allocator
//! (`owned/tests/common/counting_alloc.rs`, shared with the owned crate's
//! batch test) counts per thread, so the harness's own threads cannot
//! disturb it.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use crate::base64::pulsar_routing_encode_base64;
use crate::crc32::*;
use crate::error::{pulsar_routing_status as S, pulsar_routing_status_message};
use crate::java_string_hash::*;
use crate::murmur3::*;
use crate::router::custom::*;
use crate::router::round_robin::*;
use crate::router::single_partition::*;
use crate::routing_key::*;
use crate::sign_safe_mod::pulsar_routing_sign_safe_mod;
use crate::version::pulsar_routing_version;

#[path = "../../../owned/tests/common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations;

/// Runs `call` a few times (so lazy first-use set-up would show too) and
/// asserts that it succeeded without allocating.
fn assert_no_alloc(what: &str, mut call: impl FnMut() -> S) {
    let before = allocations();
    for _ in 0..3 {
        assert_eq!(call(), S::Ok, "{what}");
    }
    assert_eq!(allocations() - before, 0, "{what} allocated");
}

fn key_str(text: &'static str) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_STRING,
        data: text.as_ptr(),
        len: text.len(),
    }
}

fn key_bytes(bytes: &'static [u8]) -> pulsar_routing_key {
    pulsar_routing_key {
        kind: PULSAR_ROUTING_KEY_KIND_BYTES,
        data: bytes.as_ptr(),
        len: bytes.len(),
    }
}

const NO_KEY: pulsar_routing_key = pulsar_routing_key {
    kind: PULSAR_ROUTING_KEY_KIND_NONE,
    data: std::ptr::null(),
    len: 0,
};

unsafe extern "C" fn hash_of_key_mod_n(
    _context: *mut c_void,
    key: pulsar_routing_key,
    num_partitions: u32,
) -> i32 {
    let mut partition = 0;
    // SAFETY: the router passes the caller's live key.
    let status = unsafe {
        pulsar_routing_key::pulsar_routing_key_partition(
            key,
            PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32,
            i64::from(num_partitions),
            &mut partition,
        )
    };
    if status == S::Ok { partition as i32 } else { 0 }
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    drop(std::hint::black_box(Box::new(1u64)));
    assert_eq!(allocations() - before, 1);
}

#[test]
fn routing_allocates_nothing() {
    let long_key: &'static str = "a key longer than the Base64 chunk, ".repeat(8).leak();
    let long_bytes: &'static [u8] = vec![0xa5u8; 1000].leak();
    let mut rr_batching = null_mut();
    let mut rr_counter = null_mut();
    let mut single = null_mut();
    let mut custom = null_mut();
    // SAFETY: the out-parameters are live locals and the callback ignores
    // its (NULL) context.
    unsafe {
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                3,
                true,
                10,
                &mut rr_batching
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_new(
                PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32,
                3,
                false,
                10,
                &mut rr_counter
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_new(
                PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                2,
                &mut single
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_custom_router::pulsar_routing_custom_router_new(
                Some(hash_of_key_mod_n),
                null_mut(),
                &mut custom
            ),
            S::Ok
        );
    }
    let mut p = 0u32;
    let keys = [
        ("key", key_str("user-42")),
        ("non-ASCII key", key_str("ключ-😀")),
        ("long key", key_str(long_key)),
        ("key bytes", key_bytes(b"\x00\xffbinary")),
        ("long key bytes", key_bytes(long_bytes)),
        ("no key", NO_KEY),
    ];
    for (name, key) in keys {
        // SAFETY: live routers, a live key and a live out-parameter.
        assert_no_alloc(&format!("round-robin batching, {name}"), || unsafe {
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                rr_batching,
                key,
                12,
                1_234,
                &mut p,
            )
        });
        // SAFETY: as above.
        assert_no_alloc(&format!("round-robin counter, {name}"), || unsafe {
            pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_choose_partition(
                rr_counter, key, 12, 0, &mut p,
            )
        });
        // SAFETY: as above.
        assert_no_alloc(&format!("single partition, {name}"), || unsafe {
            pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_choose_partition(single, key, 12, &mut p)
        });
        // SAFETY: as above.
        assert_no_alloc(&format!("custom, {name}"), || unsafe {
            pulsar_routing_custom_router::pulsar_routing_custom_router_choose_partition(
                custom, key, 12, &mut p,
            )
        });
        if key.kind != PULSAR_ROUTING_KEY_KIND_NONE {
            let mut hash = 0;
            // SAFETY: a live key and out-parameter.
            assert_no_alloc(&format!("key hash, {name}"), || unsafe {
                pulsar_routing_key::pulsar_routing_key_hash(
                    key,
                    PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                    &mut hash,
                )
            });
        }
    }
    // SAFETY: the routers came from their `_new` and are freed once.
    unsafe {
        pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(rr_batching);
        pulsar_routing_round_robin_router::pulsar_routing_round_robin_router_free(rr_counter);
        pulsar_routing_single_partition_router::pulsar_routing_single_partition_router_free(single);
        pulsar_routing_custom_router::pulsar_routing_custom_router_free(custom);
    }
}

#[test]
fn hashing_allocates_nothing() {
    let text = "persistent://public/default/ключ-😀";
    let bad = b"\xed\xa0\x80\xf0\x9f\x98 lossy";
    let (mut h, mut code) = (0u32, 0i32);
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut buf = [0u8; 256];
    let mut written = 0usize;
    let mut murmur = std::mem::MaybeUninit::<pulsar_routing_murmur3_hasher>::uninit();
    let mut crc = std::mem::MaybeUninit::<pulsar_routing_crc32_hasher>::uninit();
    let (t, n) = (text.as_ptr(), text.len());
    // SAFETY: every closure below passes pointers to live locals of the
    // right types and lengths, and initialises a hasher before using it.
    unsafe {
        assert_no_alloc("partition_for_key", || {
            pulsar_routing_partition_for_key(t, n, 7, 0, &mut h)
        });
        assert_no_alloc("partition_for_key, murmur3, not UTF-8", || {
            pulsar_routing_partition_for_key(bad.as_ptr(), bad.len(), 7, 1, &mut h)
        });
        assert_no_alloc("partition_for_key_bytes", || {
            pulsar_routing_partition_for_key_bytes(bad.as_ptr(), 10, 7, 1, &mut h)
        });
        assert_no_alloc("murmur3_32", || pulsar_routing_murmur3_32(t, n, &mut h));
        assert_no_alloc("murmur3_32_raw", || {
            pulsar_routing_murmur3_32_raw(t, n, &mut h)
        });
        assert_no_alloc("crc32", || pulsar_routing_crc32(t, n, &mut h));
        assert_no_alloc("java_string_hash", || {
            pulsar_routing_java_string_hash(t, n, &mut h)
        });
        assert_no_alloc("java_string_hashcode", || {
            pulsar_routing_java_string_hashcode(t, n, &mut code)
        });
        assert_no_alloc("java_string_hash_utf16", || {
            pulsar_routing_java_string_hash_utf16(units.as_ptr(), units.len(), &mut h)
        });
        assert_no_alloc("java_string_hash_bytes", || {
            pulsar_routing_java_string_hash_bytes(bad.as_ptr(), bad.len(), &mut h)
        });
        assert_no_alloc("java_lossy_utf8", || {
            pulsar_routing_java_lossy_utf8(
                bad.as_ptr(),
                bad.len(),
                buf.as_mut_ptr(),
                256,
                &mut written,
            )
        });
        assert_no_alloc("encode_base64", || {
            pulsar_routing_encode_base64(t, n, buf.as_mut_ptr(), 256, &mut written)
        });
        assert_no_alloc("hashing_scheme_hash", || {
            pulsar_routing_hashing_scheme_hash(1, t, n, &mut h)
        });
        assert_no_alloc("sign_safe_mod", || {
            pulsar_routing_sign_safe_mod(-7, 3, &mut code)
        });
        assert_no_alloc("murmur3 hasher", || {
            assert_eq!(
                pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_init(
                    murmur.as_mut_ptr()
                ),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_update(
                    murmur.as_mut_ptr(),
                    t,
                    n,
                ),
                S::Ok
            );
            pulsar_routing_murmur3_hasher::pulsar_routing_murmur3_hasher_finalize(
                murmur.as_ptr(),
                &mut h,
            )
        });
        assert_no_alloc("crc32 hasher", || {
            assert_eq!(
                pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_init(crc.as_mut_ptr()),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_update(
                    crc.as_mut_ptr(),
                    t,
                    n
                ),
                S::Ok
            );
            pulsar_routing_crc32_hasher::pulsar_routing_crc32_hasher_finalize(crc.as_ptr(), &mut h)
        });
        assert_no_alloc("static strings", || {
            assert!(!pulsar_routing_version().is_null());
            assert!(!pulsar_routing_status_message(200).is_null());
            // A core message, rendered into static memory on first use.
            assert!(!pulsar_routing_status_message(100).is_null());
            assert!(!pulsar_routing_hashing_scheme_name(0).is_null());
            S::Ok
        });
    }
}

#[test]
fn topic_names_and_bundles_allocate_nothing() {
    use crate::bundles::*;
    use crate::topic_name::*;

    let name = "persistent://tenant/cluster/ns/a b ключ-partition-7";
    let (n, len) = (name.as_ptr(), name.len());
    let v4 = PULSAR_ROUTING_TOPIC_NAME_RULES_V4;
    let mut topic = std::mem::MaybeUninit::<pulsar_routing_topic_name>::uninit();
    let mut buf = [0u8; 256];
    let mut written = 0usize;
    let (mut crc, mut index, mut at) = (0u32, 0i32, 0usize);
    let mut default = std::mem::MaybeUninit::<pulsar_routing_bundle_layout>::uninit();
    let mut explicit = std::mem::MaybeUninit::<pulsar_routing_bundle_layout>::uninit();
    let boundaries = [0u32, 0x1000, 0x8000_0000, 0xffff_ffff];
    let mut range = pulsar_routing_bundle_range::default();
    let hashes: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let mut counts = [0u64; 8];
    let mut unowned = 0u64;
    let mut changes = vec![pulsar_routing_bundle_change::default(); hashes.len()];
    let mut new_boundaries = [0u32; 16];
    let mut points = [0i64; 8];
    let mut work_hashes = hashes.clone();
    let mut positions = vec![0x10i64, 0x7000_0000, 0x20];
    let mut loads: Vec<pulsar_routing_topic_load> = hashes
        .iter()
        .map(|&hash| pulsar_routing_topic_load {
            hash,
            msg_rate_in: 1_000.0,
            ..Default::default()
        })
        .collect();
    let limits = pulsar_routing_flow_limits {
        max_msg_rate: 3_000,
        max_bandwidth_mbytes: 100,
        threshold_percent: 10,
    };
    let full = ["0x00000000", "0xffffffff"].map(|s| crate::text::pulsar_routing_str {
        data: s.as_ptr(),
        len: s.len(),
    });
    let target = pulsar_routing_bundle_range {
        lower: 0x1000,
        upper: 0x8000_0000,
    };
    // SAFETY: every closure below passes pointers to live locals of the
    // right types and lengths, initialises a struct before using it, and
    // keeps the name and the boundaries alive while they are referred to.
    unsafe {
        assert_no_alloc("topic_name_parse", || {
            pulsar_routing_topic_name_parse(n, len, v4, topic.as_mut_ptr())
        });
        let t = topic.as_ptr();
        let b = buf.as_mut_ptr();
        type TextFn =
            unsafe extern "C" fn(*const pulsar_routing_topic_name, *mut u8, usize, *mut usize) -> S;
        let text_fns: [(&str, TextFn); 6] = [
            ("to_string", pulsar_routing_topic_name_to_string),
            ("namespace", pulsar_routing_topic_name_namespace),
            (
                "partitioned",
                pulsar_routing_topic_name_partitioned_topic_name,
            ),
            ("lookup", pulsar_routing_topic_name_lookup_name),
            ("persistence", pulsar_routing_topic_name_persistence_naming),
            ("encoded", pulsar_routing_topic_name_encoded_local_name),
        ];
        for (what, f) in text_fns {
            assert_no_alloc(what, || f(t, b, 256, &mut written));
        }
        assert_no_alloc("rest_path", || {
            pulsar_routing_topic_name_rest_path(t, false, b, 256, &mut written)
        });
        assert_no_alloc("partition", || {
            pulsar_routing_topic_name_partition(t, 11, b, 256, &mut written)
        });
        assert_no_alloc("crc32", || pulsar_routing_topic_name_crc32(t, &mut crc));
        assert_no_alloc("partition_crc32", || {
            pulsar_routing_topic_name_partition_crc32(t, 11, &mut crc)
        });
        assert_no_alloc("get_partition_index", || {
            pulsar_routing_get_partition_index(n, len, &mut index)
        });
        assert_no_alloc("error_message", || {
            pulsar_routing_topic_name_error_message(b"a//b".as_ptr(), 4, v4, b, 256, &mut written)
        });

        assert_no_alloc("layout_init_default", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init_default(
                default.as_mut_ptr(),
                1024,
            )
        });
        assert_no_alloc("layout_init", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init(
                explicit.as_mut_ptr(),
                boundaries.as_ptr(),
                boundaries.len(),
            )
        });
        for (what, layout) in [
            ("default", default.as_ptr()),
            ("explicit", explicit.as_ptr()),
        ] {
            assert_no_alloc(&format!("bundle_for_topic, {what}"), || {
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_topic(
                    layout, n, len, v4, &mut range,
                )
            });
            assert_no_alloc(&format!("bundle_for_hash, {what}"), || {
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_hash(
                    layout, crc, &mut range,
                )
            });
            assert_no_alloc(&format!("bundle_index_for_hash_java, {what}"), || {
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_index_for_hash_java(
                    layout, crc, &mut at,
                )
            });
        }
        let e = explicit.as_ptr();
        assert_no_alloc("validate_bundle", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_validate_bundle(
                e, target, &mut at,
            )
        });
        assert_no_alloc("count_per_bundle", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_count_per_bundle(
                e,
                hashes.as_ptr(),
                hashes.len(),
                counts.as_mut_ptr(),
                counts.len(),
                &mut written,
                &mut unowned,
            )
        });
        assert_no_alloc("compare", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_compare(
                e,
                default.as_ptr(),
                hashes.as_ptr(),
                hashes.len(),
                changes.as_mut_ptr(),
                changes.len(),
                &mut written,
            )
        });
        assert_no_alloc("split", || {
            let mut at_points = [0x5000i64, 0x4000_0000];
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split(
                e,
                target,
                at_points.as_mut_ptr(),
                2,
                new_boundaries.as_mut_ptr(),
                16,
                &mut written,
            )
        });
        assert_no_alloc("split_equally", || {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split_equally(
                e,
                target,
                5,
                new_boundaries.as_mut_ptr(),
                16,
                &mut written,
            )
        });
        assert_no_alloc("bundle_range_parse and name", || {
            let text = "0x00001000_0x80000000";
            assert_eq!(
                pulsar_routing_bundle_range::pulsar_routing_bundle_range_parse(
                    text.as_ptr(),
                    text.len(),
                    &mut range
                ),
                S::Ok
            );
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_key(
                range,
                b"t/ns".as_ptr(),
                4,
                b,
                256,
                &mut written,
            )
        });
        assert_no_alloc("default_boundaries", || {
            pulsar_routing_default_boundaries(7, new_boundaries.as_mut_ptr(), 16, &mut written)
        });
        assert_no_alloc("validate_full_range", || {
            pulsar_routing_validate_full_range(full.as_ptr(), full.len())
        });
        assert_no_alloc("topic_count_equally_divide", || {
            pulsar_routing_topic_count_equally_divide(
                work_hashes.as_mut_ptr(),
                work_hashes.len(),
                points.as_mut_ptr(),
                8,
                &mut written,
            )
        });
        assert_no_alloc("specified_positions_divide", || {
            pulsar_routing_specified_positions_divide(
                target,
                positions.as_mut_ptr(),
                positions.len(),
                5,
                false,
                points.as_mut_ptr(),
                8,
                &mut written,
            )
        });
        let mut split_points = vec![0i64; loads.len()];
        assert_no_alloc("flow_or_qps_equally_divide", || {
            pulsar_routing_flow_or_qps_equally_divide(
                loads.len(),
                loads.as_mut_ptr(),
                loads.len(),
                limits,
                split_points.as_mut_ptr(),
                split_points.len(),
                &mut written,
            )
        });
        assert!(written > 0, "the flow split should split");
    }
}

#[test]
fn key_shared_allocates_nothing() {
    use crate::key_shared::selector::*;
    use crate::key_shared::sticky_key::*;
    use crate::key_shared::*;
    use crate::text::pulsar_routing_str;

    let str_of = |s: &'static [u8]| pulsar_routing_str {
        data: s.as_ptr(),
        len: s.len(),
    };
    let absent = pulsar_routing_str {
        data: std::ptr::null(),
        len: 0,
    };
    let long_key: &'static [u8] = vec![0x5au8; 1000].leak();
    let keys = [str_of(b"order-17"), str_of(b""), str_of(long_key)];
    let messages = [
        pulsar_routing_message_keys {
            ordering_key: absent,
            partition_key: str_of(b"aGVsbG8gd29ybGQ="),
            producer_name: absent,
            sequence_id: 0,
            partition_key_b64_encoded: true,
            has_sequence_id: false,
        },
        pulsar_routing_message_keys {
            ordering_key: absent,
            partition_key: absent,
            producer_name: str_of(b"producer-1"),
            sequence_id: 42,
            partition_key_b64_encoded: false,
            has_sequence_id: true,
        },
        pulsar_routing_message_keys {
            ordering_key: absent,
            partition_key: str_of(b"a"),
            producer_name: absent,
            sequence_id: 0,
            partition_key_b64_encoded: true,
            has_sequence_id: false,
        },
    ];
    let range = |start, end| pulsar_routing_hash_range { start, end };
    let mut selectors = [std::ptr::null_mut(); 3];
    // SAFETY: live out-parameters; the constructors allocate, outside the
    // counted calls.
    unsafe {
        assert_eq!(
            pulsar_routing_selector_new_auto_split(
                pulsar_routing_auto_split_config {
                    range_size: 65536,
                    max_consumers: 8
                },
                &mut selectors[0]
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_selector_new_consistent_hashing(
                pulsar_routing_consistent_hashing_config {
                    points: 100,
                    range_max: 65535,
                    max_consumers: 8,
                    name_bytes: 512
                },
                &mut selectors[1]
            ),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_selector_new_exclusive(
                pulsar_routing_exclusive_config {
                    max_consumers: 8,
                    max_ranges: 32,
                    mode: PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT
                },
                &mut selectors[2]
            ),
            S::Ok
        );
    }
    let [auto, ch, ex] = selectors;
    let mut slot = 0u32;
    let mut slots = [0u32; 3];
    let mut consumers = [0u64; 3];
    let mut consumer = 0u64;
    let mut written = 0usize;
    let mut written2 = 0usize;
    let mut buf = [0u8; 256];
    let mut records = [crate::key_shared::pulsar_routing_assignment::default(); 512];
    let mut records2 = [crate::key_shared::pulsar_routing_assignment::default(); 512];
    let mut ranges = [range(0, 0); 64];
    let mut points = [0u32; 128];
    let mut index = 0i64;
    let mut words = 0usize;
    let mut kind = 0u32;
    let mut flag = false;
    let mut capacity = pulsar_routing_selector_capacity::default();
    let mut key_range = range(0, 0);
    // With consumer 2's [40000, 50000], the whole range has an owner.
    let sticky = [range(0, 39999), range(50001, 65535)];
    let conflicting = [range(5000, 25000)];
    // SAFETY: every closure below passes live handles and pointers to live
    // locals of the right types and lengths; each handle is used by this
    // thread only.
    unsafe {
        for (i, kind_value) in [0u32, 1, 2].into_iter().enumerate() {
            let key = keys[i];
            assert_no_alloc("sticky_key_hash", || {
                pulsar_routing_sticky_key_hash(key.data, key.len, kind_value, &mut slot)
            });
        }
        assert_no_alloc("slot_of", || {
            pulsar_routing_slot_of(
                long_key.as_ptr(),
                long_key.len(),
                range(1, 2_147_483_646),
                &mut slot,
            )
        });
        assert_no_alloc("slots_of", || {
            pulsar_routing_slots_of(
                keys.as_ptr(),
                3,
                range(0, 65535),
                slots.as_mut_ptr(),
                3,
                &mut written,
            )
        });
        for m in &messages {
            assert_no_alloc("message_keys_sticky_key", || {
                pulsar_routing_message_keys_sticky_key(m, buf.as_mut_ptr(), 256, &mut written)
            });
            assert_no_alloc("message_keys_murmur3", || {
                pulsar_routing_message_keys_murmur3(m, &mut slot)
            });
            assert_no_alloc("message_keys_slot", || {
                pulsar_routing_message_keys_slot(m, range(1, 65535), &mut slot)
            });
            assert_no_alloc("message_keys_error_message", || {
                pulsar_routing_message_keys_error_message(m, buf.as_mut_ptr(), 256, &mut written)
            });
        }
        assert_no_alloc("ring_point", || {
            pulsar_routing_ring_point(b"c1".as_ptr(), 2, 3, 99, range(1, 65535), &mut slot)
        });
        assert_no_alloc("validate_sticky_ranges", || {
            pulsar_routing_validate_sticky_ranges(sticky.as_ptr(), 2)
        });
        assert_no_alloc("validate_sticky_ranges_error_message", || {
            pulsar_routing_validate_sticky_ranges_error_message(
                [range(0, 10), range(5, 70000)].as_ptr(),
                2,
                buf.as_mut_ptr(),
                256,
                &mut written,
            )
        });
        assert_no_alloc("selector_kind_from_name", || {
            pulsar_routing_selector_kind_from_name(b"exclusive".as_ptr(), 9, &mut kind)
        });
        assert_no_alloc("storage_words", || {
            pulsar_routing_consistent_hashing_config_storage_words(
                pulsar_routing_consistent_hashing_config {
                    points: 100,
                    range_max: 65535,
                    max_consumers: 10_000,
                    name_bytes: 640_000,
                },
                &mut words,
            )
        });

        // Membership changes that fit the capacity allocate nothing.
        for (sel, name) in [(auto, "auto split"), (ch, "consistent hashing")] {
            assert_eq!(
                pulsar_routing_selector_add_named(sel, 1, b"c1".as_ptr(), 2),
                S::Ok
            );
            assert_eq!(
                pulsar_routing_selector_add_named(sel, 2, b"c2".as_ptr(), 2),
                S::Ok
            );
            assert_no_alloc(name, || {
                let status = pulsar_routing_selector_add_named(sel, 3, b"c3".as_ptr(), 2);
                assert_eq!(status, S::Ok);
                pulsar_routing_selector_remove(sel, 3)
            });
            assert_no_alloc("failed add and its message", || {
                assert_eq!(
                    pulsar_routing_selector_add_named(sel, 1, b"c1".as_ptr(), 2),
                    S::DuplicateConsumer
                );
                pulsar_routing_selector_last_error_message(sel, buf.as_mut_ptr(), 256, &mut written)
            });
        }
        assert_eq!(
            pulsar_routing_selector_add_ranges(ex, 1, sticky.as_ptr(), 2),
            S::Ok
        );
        assert_no_alloc("exclusive add and remove", || {
            let status =
                pulsar_routing_selector_add_ranges(ex, 2, [range(40000, 50000)].as_ptr(), 1);
            assert_eq!(status, S::Ok);
            pulsar_routing_selector_remove(ex, 2)
        });
        assert_no_alloc("exclusive conflict and its message", || {
            let status = pulsar_routing_selector_add_ranges(ex, 2, conflicting.as_ptr(), 1);
            assert_eq!(status, S::HashRangeConflict);
            pulsar_routing_selector_last_error_message(ex, buf.as_mut_ptr(), 256, &mut written)
        });
        let second = [range(40000, 50000)];
        assert_eq!(
            pulsar_routing_selector_add_ranges(ex, 2, second.as_ptr(), 1),
            S::Ok
        );
        assert_no_alloc("reserve without growth", || {
            pulsar_routing_selector_reserve(
                ch,
                pulsar_routing_selector_capacity {
                    max_consumers: 4,
                    name_bytes: 8,
                    max_ranges: 0,
                },
            )
        });

        for sel in [auto, ch, ex] {
            let c = sel.cast_const();
            assert_no_alloc("select", || {
                pulsar_routing_selector_select(c, 5000, &mut consumer)
            });
            assert_no_alloc("select_key", || {
                pulsar_routing_selector_select_key(
                    c,
                    long_key.as_ptr(),
                    long_key.len(),
                    &mut consumer,
                )
            });
            assert_no_alloc("select_message", || {
                pulsar_routing_selector_select_message(c, &messages[1], &mut consumer)
            });
            assert_no_alloc("select_keys", || {
                pulsar_routing_selector_select_keys(
                    c,
                    keys.as_ptr(),
                    3,
                    u64::MAX,
                    consumers.as_mut_ptr(),
                    3,
                    &mut written,
                )
            });
            assert_no_alloc("select_messages", || {
                pulsar_routing_selector_select_messages(
                    c,
                    messages.as_ptr(),
                    3,
                    u64::MAX,
                    consumers.as_mut_ptr(),
                    3,
                    &mut written,
                )
            });
            assert_no_alloc("assignments", || {
                pulsar_routing_selector_assignments(c, records.as_mut_ptr(), 512, &mut written)
            });
            assert_no_alloc("consumer_ranges", || {
                pulsar_routing_selector_consumer_ranges(c, records.as_mut_ptr(), 512, &mut written)
            });
            assert_no_alloc("ranges_of", || {
                pulsar_routing_selector_ranges_of(c, 1, ranges.as_mut_ptr(), 64, &mut written)
            });
            assert_no_alloc("last_impact", || {
                pulsar_routing_selector_last_impact(
                    c,
                    records.as_mut_ptr(),
                    512,
                    &mut written,
                    records2.as_mut_ptr(),
                    512,
                    &mut written2,
                )
            });
            assert_no_alloc("last_error_message", || {
                pulsar_routing_selector_last_error_message(c, buf.as_mut_ptr(), 256, &mut written)
            });
            assert_no_alloc("len", || pulsar_routing_selector_len(c, &mut written));
            assert_no_alloc("contains", || {
                pulsar_routing_selector_contains(c, 1, &mut flag)
            });
            assert_no_alloc("get_kind", || {
                pulsar_routing_selector_get_kind(c, &mut kind)
            });
            assert_no_alloc("get_capacity", || {
                pulsar_routing_selector_get_capacity(c, &mut capacity)
            });
            assert_no_alloc("key_hash_range", || {
                pulsar_routing_selector_key_hash_range(c, &mut key_range)
            });
        }
        assert_no_alloc("name_index", || {
            pulsar_routing_selector_name_index(ch, 1, &mut index)
        });
        assert_no_alloc("ring_points", || {
            pulsar_routing_selector_ring_points(ch, 1, points.as_mut_ptr(), 128, &mut written)
        });
        for sel in selectors {
            pulsar_routing_selector_free(sel);
        }
    }
}

#[test]
fn profiles_and_kafka_do_not_allocate() {
    use crate::kafka::*;
    use crate::profiles::*;
    let key = b"user-42";
    let mut out = 0u32;
    for profile in 0..6 {
        for scheme in [
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32,
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_74_X86_64,
        ] {
            // Only C++ and Python have BoostHash.
            if !(2..=3).contains(&profile)
                && scheme != PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32
            {
                continue;
            }
            // SAFETY: live key, ordering key and out-parameter.
            assert_no_alloc("profile_partition", || unsafe {
                pulsar_routing_profile_partition(
                    profile,
                    scheme,
                    PULSAR_ROUTING_PROFILE_MODE_ROUND_ROBIN,
                    key_str("user-42"),
                    b"o".as_ptr(),
                    1,
                    12,
                    &mut out,
                )
            });
        }
    }
    for hash in [0, 1, 2, 3, 4, 6, 7] {
        // SAFETY: live buffers.
        assert_no_alloc("profile_hash_bytes", || unsafe {
            pulsar_routing_profile_hash_bytes(hash, key.as_ptr(), key.len(), &mut out)
        });
    }
    let mut index = 0i64;
    let mut cpp_index = 0i32;
    let topic = b"t-partition-3";
    // SAFETY: live buffers.
    assert_no_alloc("go_partition_index", || unsafe {
        pulsar_routing_go_partition_index(topic.as_ptr(), topic.len(), &mut index)
    });
    // SAFETY: live buffers.
    assert_no_alloc("cpp_partition_index", || unsafe {
        pulsar_routing_cpp_partition_index(topic.as_ptr(), topic.len(), &mut cpp_index)
    });
    // SAFETY: live buffers.
    assert_no_alloc("kafka_murmur2", || unsafe {
        pulsar_routing_kafka_murmur2(key.as_ptr(), key.len(), &mut out)
    });
    // SAFETY: live buffers.
    assert_no_alloc("kafka_fnv1a", || unsafe {
        pulsar_routing_kafka_fnv1a(key.as_ptr(), key.len(), &mut out)
    });
    // SAFETY: live buffers.
    assert_no_alloc("kafka_partition_for_key", || unsafe {
        pulsar_routing_kafka_partition_for_key(key.as_ptr(), key.len(), 12, &mut out)
    });
    for partitioner in 0..7 {
        // SAFETY: live buffers; NULL is librdkafka's NULL key.
        assert_no_alloc("librdkafka_partition", || unsafe {
            pulsar_routing_librdkafka_partition(partitioner, std::ptr::null(), 0, 12, 5, &mut out)
        });
        // SAFETY: live buffers.
        assert_no_alloc("librdkafka_partition", || unsafe {
            pulsar_routing_librdkafka_partition(
                partitioner,
                key.as_ptr(),
                key.len(),
                12,
                5,
                &mut out,
            )
        });
    }
    let name = b"go";
    // SAFETY: live buffers.
    assert_no_alloc("client_profile_from_name", || unsafe {
        pulsar_routing_client_profile_from_name(name.as_ptr(), name.len(), &mut out)
    });
}

/// Every sender function that documents "allocates nothing": a gate's
/// whole life between `_new` and `_free` (connect, sends, responses,
/// metadata, a disconnect with backoff), its text, and the pending queue.
#[test]
fn sender_allocates_nothing() {
    use crate::sender::*;

    let mut config = std::mem::MaybeUninit::uninit();
    // SAFETY: a live out-parameter.
    assert_no_alloc("sender_config_default", || unsafe {
        pulsar_routing_sender_config_default(config.as_mut_ptr())
    });
    // SAFETY: written on OK just above.
    let config = unsafe { config.assume_init() };
    let ids = [1, 2];
    let mut gate = null_mut();
    // SAFETY: live arguments; `_new` is the one function that allocates.
    let status =
        unsafe { pulsar_routing_sender_gate_new(&config, ids.as_ptr(), ids.len(), &mut gate) };
    assert_eq!(status, S::Ok);

    let mut r = pulsar_routing_readiness::default();
    let before = allocations();
    // One trace through every state-changing call, counted as a whole;
    // each step must succeed.
    // SAFETY: `gate` is live and only this thread uses it; `r` is a live
    // out-parameter.
    let steps = unsafe {
        [
            (
                "ready",
                pulsar_routing_sender_gate_ready(gate, 1, 0, &mut r),
            ),
            (
                "connected",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    1,
                    PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED,
                    1,
                    0.5,
                ),
            ),
            (
                "authenticated",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    1,
                    PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED,
                    2,
                    0.25,
                ),
            ),
            (
                "metadata fetch started",
                pulsar_routing_sender_gate_metadata_event(
                    gate,
                    PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED,
                    3,
                    0.5,
                ),
            ),
            (
                "metadata updated",
                pulsar_routing_sender_gate_metadata_event(
                    gate,
                    PULSAR_ROUTING_METADATA_EVENT_UPDATED,
                    3,
                    0.5,
                ),
            ),
            ("send", pulsar_routing_sender_gate_send(gate, 1, 4)),
            (
                "response",
                pulsar_routing_sender_gate_response(
                    gate,
                    1,
                    PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER,
                ),
            ),
            ("throttle", pulsar_routing_sender_gate_throttle(gate, 1, 50)),
            (
                "metadata request update",
                pulsar_routing_sender_gate_metadata_event(
                    gate,
                    PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE,
                    5,
                    0.5,
                ),
            ),
            (
                "metadata failed",
                pulsar_routing_sender_gate_metadata_event(
                    gate,
                    PULSAR_ROUTING_METADATA_EVENT_FAILED,
                    6,
                    0.9,
                ),
            ),
            (
                "disconnected",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    1,
                    PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED,
                    7,
                    0.1,
                ),
            ),
            (
                "connect",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    2,
                    PULSAR_ROUTING_CONNECTION_EVENT_CONNECT,
                    8,
                    0.5,
                ),
            ),
            (
                "connected",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    2,
                    PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED,
                    9,
                    0.5,
                ),
            ),
            (
                "authentication failed",
                pulsar_routing_sender_gate_connection_event(
                    gate,
                    2,
                    PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED,
                    9,
                    0.7,
                ),
            ),
        ]
    };
    let after = allocations();
    for (what, status) in steps {
        assert_eq!(status, S::Ok, "{what}");
    }
    assert_eq!(after - before, 0, "the gate's events allocated");

    // SAFETY: a live gate and out-parameter.
    assert_no_alloc("sender_gate_check", || unsafe {
        pulsar_routing_sender_gate_check(gate, 1, 9, &mut r)
    });
    let mut nodes = [2, 1, 99];
    let mut reasons = [pulsar_routing_readiness::default(); 3];
    let mut kept = 0usize;
    // SAFETY: a live gate; both arrays hold `nodes.len()` entries.
    assert_no_alloc("sender_gate_filter_ready", || unsafe {
        pulsar_routing_sender_gate_filter_ready(
            gate,
            nodes.as_mut_ptr(),
            nodes.len(),
            10,
            reasons.as_mut_ptr(),
            &mut kept,
        )
    });
    let mut ms = 0u64;
    // SAFETY: a live gate and out-parameter.
    assert_no_alloc("sender_gate_time_to_next_metadata_update", || unsafe {
        pulsar_routing_sender_gate_time_to_next_metadata_update(gate, 10, &mut ms)
    });
    let mut counters = pulsar_routing_sender_counters::default();
    // SAFETY: a live gate and out-parameter.
    assert_no_alloc("sender_gate_counters", || unsafe {
        pulsar_routing_sender_gate_counters(gate, 10, &mut counters)
    });
    let mut text = [0u8; 256];
    let mut written = 0usize;
    for reason in &reasons {
        // SAFETY: live readiness and buffers.
        assert_no_alloc("readiness_message", || unsafe {
            pulsar_routing_readiness_message(reason, text.as_mut_ptr(), text.len(), &mut written)
        });
    }
    // SAFETY: the gate from `_new` above, not used afterwards.
    unsafe { pulsar_routing_sender_gate_free(gate) };

    let mut queue = std::mem::MaybeUninit::<pulsar_routing_pending_queue>::uninit();
    // SAFETY: a live queue to initialise.
    assert_no_alloc("pending_queue_init", || unsafe {
        pulsar_routing_pending_queue_init(queue.as_mut_ptr(), 0, false)
    });
    let queue = queue.as_mut_ptr();
    // SAFETY: `queue` was initialised just above and only this thread
    // uses it (so for the calls below too, whose out-parameters are live).
    assert_no_alloc("pending_queue_try_enqueue", || unsafe {
        pulsar_routing_pending_queue_try_enqueue(queue)
    });
    let mut pending = 0u32;
    // SAFETY: as above.
    assert_no_alloc("pending_queue_pending", || unsafe {
        pulsar_routing_pending_queue_pending(queue, &mut pending)
    });
    // SAFETY: as above.
    assert_no_alloc("pending_queue_complete", || unsafe {
        pulsar_routing_pending_queue_complete(queue, 1)
    });
    let mut need = 0u64;
    // SAFETY: a live out-parameter.
    assert_no_alloc("required_max_pending_messages", || unsafe {
        pulsar_routing_required_max_pending_messages(5000, 2500, &mut need)
    });
}

#[test]
fn batch_routing_allocates_nothing() {
    use crate::batch::pulsar_routing_partitions_for_keys;
    let data = "user-1user-22ключ-😀a key longer than sixteen bytes".as_bytes();
    let offsets = [0, 6, 13, 27, data.len()];
    let bad = b"ok\xff";
    let bad_offsets = [0, 2, 3];
    let mut out = [0u32; 4];
    let o = out.as_mut_ptr();
    // SAFETY: the pointers are live locals, `out` has one entry per key.
    unsafe {
        for scheme in [
            PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
            PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32,
        ] {
            assert_no_alloc("partitions_for_keys", || {
                pulsar_routing_partitions_for_keys(
                    data.as_ptr(),
                    offsets.as_ptr(),
                    4,
                    12,
                    scheme,
                    o,
                )
            });
        }
        assert_no_alloc("partitions_for_keys, murmur3, not UTF-8", || {
            pulsar_routing_partitions_for_keys(bad.as_ptr(), bad_offsets.as_ptr(), 2, 12, 1, o)
        });
        // A refused batch records its message without allocating either.
        let before = allocations();
        for _ in 0..3 {
            assert_eq!(
                pulsar_routing_partitions_for_keys(bad.as_ptr(), bad_offsets.as_ptr(), 2, 12, 0, o),
                S::InvalidUtf8
            );
            assert_eq!(
                pulsar_routing_partitions_for_keys(data.as_ptr(), [0, 9, 2].as_ptr(), 2, 12, 1, o),
                S::BatchOffsetPastEnd
            );
        }
        assert_eq!(allocations() - before, 0, "refused batches allocated");
    }
}

/// The reads of key counts allocate nothing, nor do the adds that find
/// their key already counted (or add a keyless row); new keys grow the
/// table, and `write_sorted` sorts into a temporary order.
#[test]
fn key_count_reads_and_repeat_keys_allocate_nothing() {
    use crate::key_counts::*;
    let mut counts = null_mut();
    let (mut n, mut rows, mut weight, mut present) = (0usize, 0u64, 0.0, false);
    let data = b"abab";
    let offsets = [0usize, 1, 2, 3, 4];
    // SAFETY: live out-parameters and inputs; `counts` is freed last.
    unsafe {
        assert_eq!(pulsar_routing_key_counts_new(&mut counts), S::Ok);
        assert_eq!(
            pulsar_routing_key_counts_add_batch(counts, data.as_ptr(), offsets.as_ptr(), 4, null()),
            S::Ok
        );
        assert_no_alloc("key_counts_add, a counted key", || {
            pulsar_routing_key_counts_add(counts, b"a".as_ptr(), 1, 2.0)
        });
        assert_no_alloc("key_counts_add_batch, counted keys", || {
            pulsar_routing_key_counts_add_batch(counts, data.as_ptr(), offsets.as_ptr(), 4, null())
        });
        assert_no_alloc("key_counts_add_keyless", || {
            pulsar_routing_key_counts_add_keyless(counts, 1.0)
        });
        assert_no_alloc("key_counts_len", || {
            pulsar_routing_key_counts_len(counts, &mut n)
        });
        assert_no_alloc("key_counts_rows", || {
            pulsar_routing_key_counts_rows(counts, &mut rows)
        });
        assert_no_alloc("key_counts_total_key_bytes", || {
            pulsar_routing_key_counts_total_key_bytes(counts, &mut n)
        });
        assert_no_alloc("key_counts_keyless_weight", || {
            pulsar_routing_key_counts_keyless_weight(counts, &mut weight, &mut present)
        });
        // A refused weight records its message without allocating.
        let before = allocations();
        assert_eq!(
            pulsar_routing_key_counts_add(counts, b"c".as_ptr(), 1, -1.0),
            S::KeyCountsInvalidWeight
        );
        assert_eq!(allocations() - before, 0, "a refused add allocated");
        pulsar_routing_key_counts_free(counts);
    }
    // 4 batch rows, 3 adds of "a", 3 batches of 4 rows, 3 keyless rows.
    assert_eq!((n, rows, weight, present), (2, 22, 3.0, true));
}
