//! The bundle functions, called the way C would: NULLs, invalid layouts and
//! ranges, short buffers (left untouched), and every answer against the
//! core.

use core::mem::MaybeUninit;
use core::ptr::{null, null_mut};

use crate::bundles::*;
use crate::error::pulsar_routing_status as S;
use crate::text::pulsar_routing_str;
use crate::topic_name::{
    PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER, PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2,
    PULSAR_ROUTING_TOPIC_NAME_RULES_V4,
};
use pulsar_routing_core::bundles::{
    BoundErrorKind, BundleError, BundleLayout, BundleRange, FlowLimits, TopicLoad,
    flow_or_qps_equally_divide, specified_positions_divide, topic_count_equally_divide,
};
use pulsar_routing_core::crc32;
use pulsar_routing_core::topic_name::{TopicName, TopicNameRules};

const USIZE_SENTINEL: usize = 0x5eed;
const U32_FILL: u32 = 0xa5a5_a5a5;
const I64_FILL: i64 = -0x5a5a;
const RANGE_SENTINEL: pulsar_routing_bundle_range = pulsar_routing_bundle_range {
    lower: -77,
    upper: -88,
};
const FULL: pulsar_routing_bundle_range = pulsar_routing_bundle_range {
    lower: 0,
    upper: 0xffff_ffff,
};

fn range(lower: i64, upper: i64) -> pulsar_routing_bundle_range {
    pulsar_routing_bundle_range { lower, upper }
}

fn c_range(r: BundleRange) -> pulsar_routing_bundle_range {
    range(r.lower(), r.upper())
}

/// Ranges every range-taking function must reject.
const BAD_RANGES: [(pulsar_routing_bundle_range, S); 3] = [
    (
        pulsar_routing_bundle_range { lower: 5, upper: 4 },
        S::InvalidRange,
    ),
    (
        pulsar_routing_bundle_range { lower: 5, upper: 5 },
        S::EmptyRange,
    ),
    (
        pulsar_routing_bundle_range {
            lower: i64::MAX,
            upper: i64::MIN,
        },
        S::InvalidRange,
    ),
];

/// A layout in caller storage, initialised by `init`.
fn layout_with(
    init: impl FnOnce(*mut pulsar_routing_bundle_layout) -> S,
) -> Result<pulsar_routing_bundle_layout, S> {
    let mut layout = MaybeUninit::<pulsar_routing_bundle_layout>::uninit();
    match init(layout.as_mut_ptr()) {
        // SAFETY: initialised by the successful call.
        S::Ok => Ok(unsafe { layout.assume_init() }),
        status => Err(status),
    }
}

fn default_layout(k: u32) -> pulsar_routing_bundle_layout {
    // SAFETY: a live out-parameter.
    layout_with(|l| unsafe {
        pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init_default(l, k)
    })
    .unwrap()
}

fn explicit_layout(boundaries: &'static [u32]) -> Result<pulsar_routing_bundle_layout, S> {
    // SAFETY: a live out-parameter and static boundaries.
    layout_with(|l| unsafe {
        pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init(
            l,
            boundaries.as_ptr(),
            boundaries.len(),
        )
    })
}

#[test]
fn layout_size_is_pinned() {
    assert_eq!(size_of::<pulsar_routing_bundle_layout>(), 32);
    assert_eq!(
        align_of::<pulsar_routing_bundle_layout>(),
        align_of::<u64>()
    );
    assert_eq!(size_of::<pulsar_routing_bundle_range>(), 16);
    assert_eq!(size_of::<pulsar_routing_topic_load>(), 40);
    assert_eq!(PULSAR_ROUTING_NO_BUNDLE, usize::MAX);
    // The header spells it SIZE_MAX (cbindgen cannot).
    assert!(
        include_str!("../../../include/pulsar_routing.h")
            .contains("#define PULSAR_ROUTING_NO_BUNDLE SIZE_MAX\n")
    );
}

#[test]
fn layouts() {
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init_default(null_mut(), 4),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init(null_mut(), null(), 0),
            S::NullParameter
        );
        let mut layout = MaybeUninit::<pulsar_routing_bundle_layout>::zeroed();
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init(
                layout.as_mut_ptr(),
                null(),
                0
            ),
            S::NullParameter
        );
    }
    assert_eq!(
        // SAFETY: a live out-parameter.
        layout_with(|l| unsafe {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init_default(l, 0)
        })
        .err(),
        Some(S::NoBundles)
    );
    for (boundaries, status) in [
        (&[][..], S::NoBoundaries),
        (&[0][..], S::TooFewBoundaries),
        (&[0, 5, 3, 0xffff_ffff][..], S::BoundariesNotSorted),
        (&[0, 10][..], S::UpperEndpointNotExclusive),
        (
            &[0, 0xffff_ffff, 0xffff_ffff][..],
            S::UpperEndpointNotExclusive,
        ),
        (&[0, 7, 7, 0xffff_ffff][..], S::EmptyRange),
    ] {
        // A failed init leaves the caller's bytes alone. (`[u64; 4]` has
        // the layout's size and alignment.)
        let mut raw = [0x1234u64; 4];
        // SAFETY: live locals; `raw` is large and aligned enough.
        let got = unsafe {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_init(
                raw.as_mut_ptr().cast(),
                boundaries.as_ptr(),
                boundaries.len(),
            )
        };
        assert_eq!(got, status, "{boundaries:?}");
        assert_eq!(raw, [0x1234; 4]);
    }

    // Default and explicit layouts answer as the core's.
    static EXPLICIT: [u32; 4] = [0x100, 0x8000_0000, 0x8000_0001, 0xffff_ffff];
    let cases = [
        (default_layout(1), BundleLayout::default_for(1).unwrap()),
        (default_layout(4), BundleLayout::default_for(4).unwrap()),
        (default_layout(7), BundleLayout::default_for(7).unwrap()),
        (
            explicit_layout(&EXPLICIT).unwrap(),
            BundleLayout::new(&EXPLICIT).unwrap(),
        ),
    ];
    for (layout, core) in cases {
        let mut len = USIZE_SENTINEL;
        let mut buf = [U32_FILL; 16];
        let mut written = USIZE_SENTINEL;
        // SAFETY: every pointer is NULL or a live local of the right type.
        unsafe {
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_len(&layout, &mut len),
                S::Ok
            );
            assert_eq!(len, core.len());
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_len(null(), &mut len),
                S::NullParameter
            );
            // Boundaries: short buffer first.
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_boundaries(
                    &layout,
                    buf.as_mut_ptr(),
                    core.len(),
                    &mut written
                ),
                S::BufferTooSmall
            );
            assert_eq!(written, core.len() + 1);
            assert!(buf.iter().all(|&b| b == U32_FILL));
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_boundaries(
                    &layout,
                    buf.as_mut_ptr(),
                    16,
                    &mut written
                ),
                S::Ok
            );
            assert!(buf[..written].iter().copied().eq(core.boundaries()));
            assert!(buf[written..].iter().all(|&b| b == U32_FILL));

            let mut r = RANGE_SENTINEL;
            for i in 0..core.len() {
                assert_eq!(
                    pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle(
                        &layout, i, &mut r
                    ),
                    S::Ok
                );
                assert_eq!(r, c_range(core.bundle(i).unwrap()));
                let mut index = USIZE_SENTINEL;
                assert_eq!(
                    pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_validate_bundle(
                        &layout, r, &mut index
                    ),
                    S::Ok
                );
                assert_eq!(index, i);
            }
            r = RANGE_SENTINEL;
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle(
                    &layout,
                    core.len(),
                    &mut r
                ),
                S::BundleIndexOutOfRange
            );
            assert_eq!(r, RANGE_SENTINEL);

            for hash in [
                0,
                1,
                0xff,
                0x100,
                0x4000_0000,
                0x7fff_ffff,
                0x8000_0000,
                0x8000_0001,
                0xffff_fffe,
                0xffff_ffff,
            ] {
                let (mut index, mut java) = (USIZE_SENTINEL, USIZE_SENTINEL);
                let mut r = RANGE_SENTINEL;
                let status = pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_index_for_hash(
                    &layout, hash, &mut index,
                );
                let java_status = pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_index_for_hash_java(
                    &layout, hash, &mut java,
                );
                let range_status =
                    pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_hash(
                        &layout, hash, &mut r,
                    );
                match core.bundle_index_for_hash(hash) {
                    Some(i) => {
                        assert_eq!((status, index), (S::Ok, i));
                        assert_eq!((range_status, r), (S::Ok, c_range(core.bundle(i).unwrap())));
                    }
                    None => {
                        assert_eq!((status, index), (S::NoBundleForHash, USIZE_SENTINEL));
                        assert_eq!((range_status, r), (S::NoBundleForHash, RANGE_SENTINEL));
                    }
                }
                match core.bundle_index_for_hash_java(hash) {
                    Ok(i) => assert_eq!((java_status, java), (S::Ok, i)),
                    Err(e) => {
                        assert_eq!(S::from(e), S::NoBundleForHash);
                        assert_eq!((java_status, java), (S::NoBundleForHash, USIZE_SENTINEL));
                    }
                }
            }
            // NULL out-parameters.
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_hash(
                    &layout,
                    0,
                    null_mut()
                ),
                S::NullParameter
            );
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_index_for_hash(
                    null(),
                    0,
                    &mut len
                ),
                S::NullParameter
            );
        }
    }
}

#[test]
fn validate_bundle_errors() {
    let four = default_layout(4);
    let mut index = USIZE_SENTINEL;
    for (r, status) in BAD_RANGES.into_iter().chain([
        (range(1, 0x4000_0000), S::BundleNotFound),
        (range(-1, 0x4000_0000), S::BundleNotFound),
        (range(0, 0x3fff_ffff), S::InvalidUpperBoundary),
    ]) {
        // SAFETY: live locals.
        let got = unsafe {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_validate_bundle(
                &four, r, &mut index,
            )
        };
        assert_eq!(got, status, "{r:?}");
    }
    assert_eq!(index, USIZE_SENTINEL);
}

#[test]
fn bundle_for_topic() {
    let layout = default_layout(16);
    let core = BundleLayout::default_for(16).unwrap();
    let mut r = RANGE_SENTINEL;
    for name in [
        "my-topic",
        "persistent://t/ns/x-partition-3",
        "PERSISTENT://t/ns/x",
        "t/ns/é",
    ] {
        for (rules, core_rules) in [
            (PULSAR_ROUTING_TOPIC_NAME_RULES_V4, TopicNameRules::V4),
            (
                PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER,
                TopicNameRules::Master,
            ),
            (
                PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2,
                TopicNameRules::Pulsar4_2,
            ),
        ] {
            let topic = TopicName::parse_with(name, core_rules).unwrap();
            // SAFETY: live locals.
            unsafe {
                assert_eq!(
                    pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_topic(
                        &layout,
                        name.as_ptr(),
                        name.len(),
                        rules,
                        &mut r
                    ),
                    S::Ok
                );
            }
            assert_eq!(r, c_range(core.bundle_for_topic(&topic).unwrap()));
        }
    }
    r = RANGE_SENTINEL;
    // SAFETY: every pointer is NULL or a live local.
    unsafe {
        for (name, rules, status) in [
            (
                &b"a/b"[..],
                PULSAR_ROUTING_TOPIC_NAME_RULES_V4,
                S::TopicNameInvalidShortName,
            ),
            (b"\xff", PULSAR_ROUTING_TOPIC_NAME_RULES_V4, S::InvalidUtf8),
            (b"x", 7, S::UnknownTopicNameRules),
        ] {
            assert_eq!(
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_topic(
                    &layout,
                    name.as_ptr(),
                    name.len(),
                    rules,
                    &mut r
                ),
                status
            );
        }
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_topic(
                &layout,
                null(),
                0,
                7,
                &mut r
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_bundle_for_topic(
                &layout,
                b"x".as_ptr(),
                1,
                PULSAR_ROUTING_TOPIC_NAME_RULES_V4,
                null_mut()
            ),
            S::NullParameter
        );
    }
    assert_eq!(r, RANGE_SENTINEL);
}

#[test]
fn counts_and_impact() {
    static BEFORE: [u32; 3] = [0, 0x8000_0000, 0xffff_ffff];
    static AFTER: [u32; 4] = [0, 0x4000_0000, 0x8000_0000, 0xffff_ffff];
    let before = explicit_layout(&BEFORE).unwrap();
    let after = explicit_layout(&AFTER).unwrap();
    let hashes: Vec<u32> = (0..200u32)
        .map(|i| crc32(format!("topic-{i}").as_bytes()))
        .collect();
    let core_after = BundleLayout::new(&AFTER).unwrap();
    let core_before = BundleLayout::new(&BEFORE).unwrap();
    let mut counts = [u64::MAX; 8];
    let mut written = USIZE_SENTINEL;
    let mut unowned = u64::MAX;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_count_per_bundle(
                &after,
                hashes.as_ptr(),
                hashes.len(),
                counts.as_mut_ptr(),
                2,
                &mut written,
                &mut unowned
            ),
            S::BufferTooSmall
        );
        assert_eq!(written, 3);
        assert_eq!(unowned, u64::MAX);
        assert!(counts.iter().all(|&c| c == u64::MAX));
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_count_per_bundle(
                &after,
                hashes.as_ptr(),
                hashes.len(),
                counts.as_mut_ptr(),
                8,
                &mut written,
                null_mut()
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_count_per_bundle(
                &after,
                hashes.as_ptr(),
                hashes.len(),
                counts.as_mut_ptr(),
                8,
                &mut written,
                &mut unowned
            ),
            S::Ok
        );
        let mut expected = [0u64; 3];
        assert_eq!(
            core_after.count_per_bundle(hashes.iter().copied(), &mut expected),
            Ok(0)
        );
        assert_eq!((written, unowned), (3, 0));
        assert_eq!(&counts[..3], &expected);
        assert!(counts[3..].iter().all(|&c| c == u64::MAX));

        let mut changes = vec![
            pulsar_routing_bundle_change {
                before: 7,
                after: 7,
                changed: true
            };
            hashes.len()
        ];
        written = USIZE_SENTINEL;
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_compare(
                &before,
                &after,
                hashes.as_ptr(),
                hashes.len(),
                changes.as_mut_ptr(),
                hashes.len() - 1,
                &mut written
            ),
            S::BufferTooSmall
        );
        assert_eq!(written, hashes.len());
        assert!(changes.iter().all(|c| c.before == 7));
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_compare(
                &before,
                null(),
                hashes.as_ptr(),
                hashes.len(),
                changes.as_mut_ptr(),
                hashes.len(),
                &mut written
            ),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_compare(
                &before,
                &after,
                hashes.as_ptr(),
                hashes.len(),
                changes.as_mut_ptr(),
                hashes.len(),
                &mut written
            ),
            S::Ok
        );
        assert_eq!(written, hashes.len());
        for (change, core) in changes
            .iter()
            .zip(core_before.compare(&core_after, hashes.iter().copied()))
        {
            assert_eq!(change.changed, core.changed());
            assert_eq!(
                change.before,
                core_before.bundle_index_for_hash(core.hash).unwrap()
            );
            assert_eq!(
                change.after,
                core_after.bundle_index_for_hash(core.hash).unwrap()
            );
            // Exactly the topics of the split bundle move.
            assert_eq!(change.changed, core.hash < 0x8000_0000);
        }
        // A hash no bundle owns.
        static HIGH: [u32; 2] = [0x100, 0xffff_ffff];
        let high = explicit_layout(&HIGH).unwrap();
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_compare(
                &high,
                &before,
                [5u32].as_ptr(),
                1,
                changes.as_mut_ptr(),
                1,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(
            changes[0],
            pulsar_routing_bundle_change {
                before: PULSAR_ROUTING_NO_BUNDLE,
                after: 0,
                changed: true
            }
        );
    }
}

#[test]
fn splits() {
    let four = default_layout(4);
    let core = BundleLayout::default_for(4).unwrap();
    let target = range(0x4000_0000, 0x8000_0000);
    let mut out = [U32_FILL; 16];
    let mut written = USIZE_SENTINEL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        let split =
            |points: &mut [i64], out: &mut [u32], cap: usize, written: &mut usize, target| {
                pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split(
                    &four,
                    target,
                    points.as_mut_ptr(),
                    points.len(),
                    out.as_mut_ptr(),
                    cap,
                    written,
                )
            };
        // Good: the points are sorted in place and the layout grows.
        let mut points = [0x7000_0000i64, 0x5000_0000];
        assert_eq!(
            split(&mut points, &mut out, 6, &mut written, target),
            S::BufferTooSmall
        );
        assert_eq!(written, 7);
        assert!(out.iter().all(|&b| b == U32_FILL));
        assert_eq!(
            split(&mut points, &mut out, 16, &mut written, target),
            S::Ok
        );
        assert_eq!(points, [0x5000_0000, 0x7000_0000]);
        let mut expected_points = [0x5000_0000i64, 0x7000_0000];
        let mut expected = [0u32; 7];
        let s = core
            .split(
                BundleRange::new(0x4000_0000, 0x8000_0000).unwrap(),
                &mut expected_points,
                &mut expected,
            )
            .unwrap();
        assert!(out[..written].iter().copied().eq(s.layout.boundaries()));
        assert!(out[written..].iter().all(|&b| b == U32_FILL));

        // Failures leave `out` alone, including the one the core finds
        // only after building the new layout (a repeated point).
        out = [U32_FILL; 16];
        written = USIZE_SENTINEL;
        for (mut points, target, status) in [
            (vec![0x5000_0000i64, 0x5000_0000], target, S::EmptyRange),
            (vec![0x4000_0000], target, S::SplitBoundaryOutsideBundle),
            (vec![0x8000_0000], target, S::SplitBoundaryOutsideBundle),
            (
                vec![0x5000_0000],
                range(0x4000_0000, 0x9000_0000),
                S::InvalidUpperBoundary,
            ),
            (
                vec![0x5000_0000],
                range(0x4000_0001, 0x8000_0000),
                S::BundleNotFound,
            ),
            (vec![6], range(5, 6), S::CannotSplitFurther),
            (vec![6], range(6, 5), S::InvalidRange),
        ] {
            assert_eq!(
                split(&mut points, &mut out, 16, &mut written, target),
                status,
                "{points:?} {target:?}"
            );
        }
        assert_eq!(written, USIZE_SENTINEL);
        assert!(out.iter().all(|&b| b == U32_FILL));
        // No points: the layout unchanged.
        assert_eq!(split(&mut [], &mut out, 16, &mut written, target), S::Ok);
        assert!(out[..written].iter().copied().eq(core.boundaries()));
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split(
                &four,
                target,
                null_mut(),
                0,
                out.as_mut_ptr(),
                16,
                &mut written
            ),
            S::NullParameter
        );

        // Equal parts.
        out = [U32_FILL; 16];
        let equally = |parts, out: &mut [u32], cap, written: &mut usize, target| {
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split_equally(
                &four,
                target,
                parts,
                out.as_mut_ptr(),
                cap,
                written,
            )
        };
        let full = default_layout(1);
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split_equally(
                &full,
                FULL,
                4,
                out.as_mut_ptr(),
                16,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(
            &out[..written],
            &[0, 0x3fff_ffff, 0x7fff_fffe, 0xbfff_fffd, 0xffff_ffff]
        );
        out = [U32_FILL; 16];
        written = USIZE_SENTINEL;
        for (parts, target, status) in [
            (0, target, S::ZeroSplitParts),
            (3, range(0, 2), S::InvalidUpperBoundary),
            (3, range(1, 0x4000_0000), S::BundleNotFound),
            (3, range(0, 1), S::CannotSplitFurther),
            (2, range(0x4000_0000, 0x8000_0001), S::InvalidUpperBoundary),
        ] {
            assert_eq!(equally(parts, &mut out, 16, &mut written, target), status);
        }
        assert!(out.iter().all(|&b| b == U32_FILL));
        assert_eq!(
            equally(3, &mut out, 6, &mut written, target),
            S::BufferTooSmall
        );
        assert_eq!(written, 7);
        // More parts than hashes: the broker's layout check fails.
        static TINY: [u32; 3] = [0, 2, 0xffff_ffff];
        let tiny = explicit_layout(&TINY).unwrap();
        written = USIZE_SENTINEL;
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split_equally(
                &tiny,
                range(0, 2),
                3,
                out.as_mut_ptr(),
                16,
                &mut written
            ),
            S::EmptyRange
        );
        let mut scratch = [0u32; 8];
        assert_eq!(
            BundleLayout::new(&TINY)
                .unwrap()
                .split_equally(BundleRange::new(0, 2).unwrap(), 3, &mut scratch)
                .err(),
            Some(BundleError::EmptyRange)
        );
        assert!(out.iter().all(|&b| b == U32_FILL));
        assert_eq!(
            pulsar_routing_bundle_layout::pulsar_routing_bundle_layout_split_equally(
                &tiny,
                range(0, 2),
                2,
                out.as_mut_ptr(),
                16,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&out[..written], &[0, 1, 2, 0xffff_ffff]);
    }
}

#[test]
fn ranges() {
    let mut r = RANGE_SENTINEL;
    let mut buf = [0xa5u8; 64];
    let mut written = USIZE_SENTINEL;
    let mut flag = false;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        for (text, expected) in [
            ("0x40000000_0x80000000", Ok(range(0x4000_0000, 0x8000_0000))),
            ("0_16", Ok(range(0, 16))),
            ("00000000_40000000", Ok(range(0, 40_000_000))),
            ("010_0x10", Ok(range(8, 16))),
            ("-0x1_0x10", Ok(range(-1, 16))),
            ("0x0000000A_0x0000000B_junk", Ok(range(10, 11))),
            ("0x00000000", Err(S::InvalidBundleRange)),
            ("_0x10", Err(S::BoundEmpty)),
            ("_", Err(S::MissingLowerBound)),
            ("0x00000000_", Err(S::MissingUpperBound)),
            ("0x_0x10", Err(S::BoundNotALong)),
            ("0x-1_0x10", Err(S::BoundSignInWrongPosition)),
            ("0x10_0x10", Err(S::EmptyRange)),
            ("0x11_0x10", Err(S::InvalidRange)),
            ("\u{0}_1", Err(S::BoundNotALong)),
        ] {
            r = RANGE_SENTINEL;
            let status = pulsar_routing_bundle_range::pulsar_routing_bundle_range_parse(
                text.as_ptr(),
                text.len(),
                &mut r,
            );
            match expected {
                Ok(expected) => assert_eq!((status, r), (S::Ok, expected), "{text:?}"),
                Err(e) => assert_eq!((status, r), (e, RANGE_SENTINEL), "{text:?}"),
            }
            let core = BundleRange::parse(text).map(c_range).map_err(S::from);
            assert_eq!(core, expected, "{text:?}");
        }
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_parse(null(), 0, &mut r),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_parse(
                b"\xff_1".as_ptr(),
                3,
                &mut r
            ),
            S::InvalidUtf8
        );

        // Names and keys, and their buffers.
        let name = |r, buf: &mut [u8], written: &mut usize| {
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_name(
                r,
                buf.as_mut_ptr(),
                buf.len(),
                written,
            )
        };
        assert_eq!(name(range(0, 0x4000_0000), &mut buf, &mut written), S::Ok);
        assert_eq!(&buf[..written], b"0x00000000_0x40000000");
        assert_eq!(name(range(-1, 16), &mut buf, &mut written), S::Ok);
        assert_eq!(&buf[..written], b"0xffffffffffffffff_0x00000010");
        let mut short = [0xa5u8; 20];
        written = USIZE_SENTINEL;
        assert_eq!(name(FULL, &mut short, &mut written), S::BufferTooSmall);
        assert_eq!(written, 21);
        assert!(short.iter().all(|&b| b == 0xa5));
        let ns = "public/default";
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_key(
                range(0xc000_0000, 0xffff_ffff),
                ns.as_ptr(),
                ns.len(),
                buf.as_mut_ptr(),
                64,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(&buf[..written], b"public/default/0xc0000000_0xffffffff");
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_key(
                FULL,
                b"\xff".as_ptr(),
                1,
                buf.as_mut_ptr(),
                64,
                &mut written
            ),
            S::InvalidUtf8
        );
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_key(
                FULL,
                null(),
                0,
                buf.as_mut_ptr(),
                64,
                &mut written
            ),
            S::NullParameter
        );

        // includes and can_split.
        for (r, hash, includes) in [
            (range(0, 0x4000_0000), 0x3fff_ffff, true),
            (range(0, 0x4000_0000), 0x4000_0000, false),
            (FULL, 0xffff_ffff, true),
            (range(0xffff_ffff, 0xffff_ffff), 0xffff_ffff, true),
        ] {
            assert_eq!(
                pulsar_routing_bundle_range::pulsar_routing_bundle_range_includes(
                    r, hash, &mut flag
                ),
                S::Ok
            );
            assert_eq!(flag, includes);
        }
        for (r, can) in [(range(0, 1), false), (range(0, 2), true), (FULL, true)] {
            assert_eq!(
                pulsar_routing_bundle_range::pulsar_routing_bundle_range_can_split(r, &mut flag),
                S::Ok
            );
            assert_eq!(flag, can);
        }
        for (bad, status) in BAD_RANGES {
            flag = true;
            written = USIZE_SENTINEL;
            let mut position = I64_FILL;
            assert_eq!(
                pulsar_routing_bundle_range::pulsar_routing_bundle_range_includes(
                    bad, 0, &mut flag
                ),
                status
            );
            assert_eq!(
                pulsar_routing_bundle_range::pulsar_routing_bundle_range_can_split(bad, &mut flag),
                status
            );
            assert_eq!(name(bad, &mut buf, &mut written), status);
            assert_eq!(
                pulsar_routing_range_equally_divide(bad, &mut position),
                status
            );
            assert!(flag);
            assert_eq!((written, position), (USIZE_SENTINEL, I64_FILL));
        }
        assert_eq!(
            pulsar_routing_bundle_range::pulsar_routing_bundle_range_can_split(FULL, null_mut()),
            S::NullParameter
        );
    }
}

#[test]
fn boundaries_and_full_range() {
    let mut buf = [U32_FILL; 8];
    let mut written = USIZE_SENTINEL;
    let mut boundary = U32_FILL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_default_boundaries(0, buf.as_mut_ptr(), 8, &mut written),
            S::NoBundles
        );
        assert_eq!(
            pulsar_routing_default_boundaries(7, buf.as_mut_ptr(), 7, &mut written),
            S::BufferTooSmall
        );
        assert_eq!(written, 8);
        assert!(buf.iter().all(|&b| b == U32_FILL));
        assert_eq!(
            pulsar_routing_default_boundaries(4, buf.as_mut_ptr(), 8, &mut written),
            S::Ok
        );
        assert_eq!(
            &buf[..written],
            &[0, 0x4000_0000, 0x8000_0000, 0xc000_0000, 0xffff_ffff]
        );
        assert_eq!(
            pulsar_routing_default_boundaries(4, null_mut(), 0, &mut written),
            S::NullParameter
        );

        for (text, expected) in [
            ("0x40000000", Ok(0x4000_0000)),
            ("#10", Ok(16)),
            ("010", Ok(8)),
            ("4294967295", Ok(0xffff_ffff)),
            ("0x100000000", Err(S::BoundaryOutOfRange)),
            ("-1", Err(S::BoundaryOutOfRange)),
            ("", Err(S::BoundEmpty)),
            ("0x-1", Err(S::BoundSignInWrongPosition)),
            ("zz", Err(S::BoundNotALong)),
        ] {
            boundary = U32_FILL;
            let status = pulsar_routing_parse_boundary(text.as_ptr(), text.len(), &mut boundary);
            match expected {
                Ok(b) => assert_eq!((status, boundary), (S::Ok, b), "{text:?}"),
                Err(e) => assert_eq!((status, boundary), (e, U32_FILL), "{text:?}"),
            }
        }
        assert_eq!(
            pulsar_routing_parse_boundary(null(), 0, &mut boundary),
            S::NullParameter
        );

        let strs = |list: &[&'static str]| -> Vec<pulsar_routing_str> {
            list.iter().map(|s| pulsar_routing_str::of(s)).collect()
        };
        for (list, status) in [
            (&["0x00000000", "0x80000000", "0xffffffff"][..], S::Ok),
            (&["0xffffffff", "0x00000000"][..], S::Ok),
            (&["0x0", "0xffffffff"][..], S::NotFullRange),
            (&["0x00000000", "0xFFFFFFFF"][..], S::NotFullRange),
            (&[][..], S::NoBoundaries),
        ] {
            let list = strs(list);
            assert_eq!(
                pulsar_routing_validate_full_range(list.as_ptr(), list.len()),
                status
            );
        }
        let mut list = strs(&["0x00000000", "0xffffffff"]);
        list.push(pulsar_routing_str {
            data: b"\xff".as_ptr(),
            len: 1,
        });
        assert_eq!(
            pulsar_routing_validate_full_range(list.as_ptr(), list.len()),
            S::InvalidUtf8
        );
        // NULL wins over bad text, wherever it is.
        list.push(pulsar_routing_str {
            data: null(),
            len: 0,
        });
        assert_eq!(
            pulsar_routing_validate_full_range(list.as_ptr(), list.len()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_validate_full_range(null(), 0),
            S::NullParameter
        );
    }
}

#[test]
fn split_algorithms() {
    let mut out = [I64_FILL; 8];
    let mut written = USIZE_SENTINEL;
    let mut position = I64_FILL;
    // SAFETY: every pointer is NULL or a live local of the right type.
    unsafe {
        assert_eq!(
            pulsar_routing_range_equally_divide(FULL, &mut position),
            S::Ok
        );
        assert_eq!(position, 0x7fff_ffff);
        assert_eq!(
            pulsar_routing_range_equally_divide(FULL, null_mut()),
            S::NullParameter
        );

        // topic_count_equally_divide: sorts its work array.
        let mut hashes = [30u32, 10, 40, 20];
        assert_eq!(
            pulsar_routing_topic_count_equally_divide(
                hashes.as_mut_ptr(),
                4,
                out.as_mut_ptr(),
                0,
                &mut written
            ),
            S::BufferTooSmall
        );
        assert_eq!(written, 1);
        assert_eq!(out, [I64_FILL; 8]);
        assert_eq!(
            pulsar_routing_topic_count_equally_divide(
                hashes.as_mut_ptr(),
                4,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::Ok
        );
        let mut expected = [30u32, 10, 40, 20];
        assert_eq!(
            (written, out[0]),
            (1, topic_count_equally_divide(&mut expected).unwrap())
        );
        assert_eq!(hashes, [10, 20, 30, 40]);
        assert_eq!(
            pulsar_routing_topic_count_equally_divide(
                hashes.as_mut_ptr(),
                1,
                out.as_mut_ptr(),
                0,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(written, 0);
        assert_eq!(
            pulsar_routing_topic_count_equally_divide(
                null_mut(),
                0,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::NullParameter
        );

        // specified_positions_divide.
        let bundle = range(0, 0x1000);
        let mut positions = [0x900i64, 0, 0x100, 0x1000, 0x100];
        out = [I64_FILL; 8];
        written = USIZE_SENTINEL;
        assert_eq!(
            pulsar_routing_specified_positions_divide(
                bundle,
                positions.as_mut_ptr(),
                0,
                5,
                false,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::NoSplitPositions
        );
        assert_eq!(
            pulsar_routing_specified_positions_divide(
                BAD_RANGES[0].0,
                positions.as_mut_ptr(),
                5,
                5,
                false,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::InvalidRange
        );
        assert_eq!(
            pulsar_routing_specified_positions_divide(
                bundle,
                positions.as_mut_ptr(),
                5,
                5,
                false,
                out.as_mut_ptr(),
                2,
                &mut written
            ),
            S::BufferTooSmall
        );
        assert_eq!(written, 3);
        assert_eq!(out, [I64_FILL; 8]);
        for (owned, force, expected) in [
            (5, false, &[0x100i64, 0x100, 0x900][..]),
            (1, false, &[][..]),
            (1, true, &[0x100, 0x100, 0x900][..]),
        ] {
            let mut positions = [0x900i64, 0, 0x100, 0x1000, 0x100];
            assert_eq!(
                pulsar_routing_specified_positions_divide(
                    bundle,
                    positions.as_mut_ptr(),
                    5,
                    owned,
                    force,
                    out.as_mut_ptr(),
                    8,
                    &mut written
                ),
                S::Ok
            );
            assert_eq!(&out[..written], expected);
            let mut core_positions = [0x900i64, 0, 0x100, 0x1000, 0x100];
            let core = specified_positions_divide(
                BundleRange::new(0, 0x1000).unwrap(),
                &mut core_positions,
                owned,
                force,
            )
            .unwrap();
            assert_eq!(core.unwrap_or(&[]), expected);
        }

        // flow_or_qps_equally_divide.
        let load = |hash, rate| pulsar_routing_topic_load {
            msg_rate_in: rate,
            msg_rate_out: 0.0,
            msg_throughput_in: 0.0,
            msg_throughput_out: 0.0,
            hash,
        };
        let limits = pulsar_routing_flow_limits {
            max_msg_rate: 100,
            max_bandwidth_mbytes: 100,
            threshold_percent: 10,
        };
        let make = || {
            [
                load(400, 80.0),
                load(100, 80.0),
                load(300, 0.0),
                load(200, 80.0),
                load(500, 80.0),
            ]
        };
        let mut loads = make();
        out = [I64_FILL; 8];
        written = USIZE_SENTINEL;
        assert_eq!(
            pulsar_routing_flow_or_qps_equally_divide(
                5,
                loads.as_mut_ptr(),
                5,
                limits,
                out.as_mut_ptr(),
                3,
                &mut written
            ),
            S::BufferTooSmall
        );
        assert_eq!(written, 4);
        assert_eq!(out, [I64_FILL; 8]);
        assert_eq!(loads, make(), "work array touched by a failed call");
        assert_eq!(
            pulsar_routing_flow_or_qps_equally_divide(
                5,
                loads.as_mut_ptr(),
                5,
                limits,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::Ok
        );
        let mut core_loads: Vec<TopicLoad> = make()
            .iter()
            .map(|l| TopicLoad {
                hash: l.hash,
                msg_rate_in: l.msg_rate_in,
                msg_rate_out: l.msg_rate_out,
                msg_throughput_in: l.msg_throughput_in,
                msg_throughput_out: l.msg_throughput_out,
            })
            .collect();
        let core_limits = FlowLimits {
            max_msg_rate: 100,
            max_bandwidth_mbytes: 100,
            threshold_percent: 10,
        };
        let mut core_out = [0i64; 8];
        let core = flow_or_qps_equally_divide(5, &mut core_loads, core_limits, &mut core_out)
            .unwrap()
            .unwrap();
        assert_eq!(&out[..written], core);
        assert_eq!(core, &[151, 301, 451]);
        // The work array as the core left it, through the mirrored layout.
        for (c, core) in loads.iter().zip(&core_loads) {
            assert_eq!((c.hash, c.msg_rate_in), (core.hash, core.msg_rate_in));
        }
        // No split for one topic; NULLs.
        assert_eq!(
            pulsar_routing_flow_or_qps_equally_divide(
                1,
                loads.as_mut_ptr(),
                1,
                limits,
                out.as_mut_ptr(),
                0,
                &mut written
            ),
            S::Ok
        );
        assert_eq!(written, 0);
        assert_eq!(
            pulsar_routing_flow_or_qps_equally_divide(
                5,
                null_mut(),
                0,
                limits,
                out.as_mut_ptr(),
                8,
                &mut written
            ),
            S::NullParameter
        );
    }
}

#[test]
fn every_core_error_has_its_status() {
    let errors = [
        (BundleError::NoBundles, S::NoBundles),
        (BundleError::NoBoundaries, S::NoBoundaries),
        (BundleError::TooFewBoundaries, S::TooFewBoundaries),
        (BundleError::BoundariesNotSorted, S::BoundariesNotSorted),
        (BundleError::BoundaryOutOfRange(-1), S::BoundaryOutOfRange),
        (
            BundleError::UpperEndpointNotExclusive,
            S::UpperEndpointNotExclusive,
        ),
        (BundleError::EmptyRange, S::EmptyRange),
        (
            BundleError::InvalidRange { lower: 2, upper: 1 },
            S::InvalidRange,
        ),
        (BundleError::NoBundleForHash(7), S::NoBundleForHash),
        (BundleError::InvalidBundleRange, S::InvalidBundleRange),
        (BundleError::MissingLowerBound, S::MissingLowerBound),
        (BundleError::MissingUpperBound, S::MissingUpperBound),
        (
            BundleError::InvalidBound(BoundErrorKind::Empty),
            S::BoundEmpty,
        ),
        (
            BundleError::InvalidBound(BoundErrorKind::SignInWrongPosition),
            S::BoundSignInWrongPosition,
        ),
        (
            BundleError::InvalidBound(BoundErrorKind::NotALong),
            S::BoundNotALong,
        ),
        (BundleError::BufferTooSmall { needed: 3 }, S::BufferTooSmall),
        (BundleError::BundleNotFound, S::BundleNotFound),
        (BundleError::InvalidUpperBoundary, S::InvalidUpperBoundary),
        (
            BundleError::CannotSplitFurther(BundleRange::FULL),
            S::CannotSplitFurther,
        ),
        (
            BundleError::SplitBoundaryOutsideBundle(BundleRange::FULL),
            S::SplitBoundaryOutsideBundle,
        ),
        (BundleError::NoSplitPositions, S::NoSplitPositions),
        (BundleError::ZeroSplitParts, S::ZeroSplitParts),
        (BundleError::NotFullRange, S::NotFullRange),
    ];
    for (error, status) in errors {
        assert_eq!(S::from(error), status, "{error:?}");
        let message = status.message().to_str().unwrap();
        match error {
            // The messages quoting numbers keep their fixed text.
            BundleError::BoundaryOutOfRange(_)
            | BundleError::InvalidRange { .. }
            | BundleError::NoBundleForHash(_)
            | BundleError::CannotSplitFurther(_)
            | BundleError::SplitBoundaryOutsideBundle(_)
            | BundleError::BufferTooSmall { .. } => {}
            _ => assert_eq!(message, error.to_string(), "{error:?}"),
        }
        if status != S::BufferTooSmall {
            assert!((500..600).contains(&(status as u32)));
        }
    }
}

#[test]
fn an_index_keeps_every_answer() {
    use pulsar_routing_bundle_layout as L;
    static BOUNDARIES: [u32; 6] = [0x100, 0x1000, 0x1001, 0x7fff_0000, 0x8000_0000, u32::MAX];
    let plain = explicit_layout(&BOUNDARIES).unwrap();
    let mut indexed = explicit_layout(&BOUNDARIES).unwrap();
    let table: &'static mut [u32] = Box::leak(vec![U32_FILL; 64].into_boxed_slice());
    let (table_ptr, table_len) = (table.as_mut_ptr(), table.len());
    // SAFETY: NULLs, a live layout, and a leaked (so lasting) table.
    unsafe {
        assert_eq!(
            L::pulsar_routing_bundle_layout_index(null_mut(), table_ptr, 1),
            S::NullParameter
        );
        assert_eq!(
            L::pulsar_routing_bundle_layout_index(&mut indexed, null_mut(), 0),
            S::NullParameter
        );
        assert_eq!(
            L::pulsar_routing_bundle_layout_index(&mut indexed, table_ptr, table_len),
            S::Ok
        );
    }
    // Three words per entry: one entry at least, four per bundle, 2^20 at
    // most.
    assert_eq!(L::pulsar_routing_bundle_layout_recommended_index_len(0), 3);
    assert_eq!(
        L::pulsar_routing_bundle_layout_recommended_index_len(1024),
        3 * 4096
    );
    assert_eq!(
        L::pulsar_routing_bundle_layout_recommended_index_len(usize::MAX),
        3 << 20
    );
    let edges = BOUNDARIES
        .iter()
        .flat_map(|&b| [b.wrapping_sub(1), b, b.wrapping_add(1)]);
    for hash in edges.chain([0, 0x55, 0x4000_0000]) {
        let (mut a, mut b) = (USIZE_SENTINEL, USIZE_SENTINEL);
        // SAFETY: live layouts and out-parameters.
        let (sa, sb) = unsafe {
            (
                L::pulsar_routing_bundle_layout_bundle_index_for_hash(&plain, hash, &mut a),
                L::pulsar_routing_bundle_layout_bundle_index_for_hash(&indexed, hash, &mut b),
            )
        };
        assert_eq!((sa, a), (sb, b), "hash {hash:#x}");
    }
    // The default layout has nothing to index: left as it was.
    let mut default = default_layout(4);
    // SAFETY: a live layout and table.
    unsafe {
        assert_eq!(
            L::pulsar_routing_bundle_layout_index(&mut default, table_ptr, table_len),
            S::Ok
        );
    }
    let mut len = USIZE_SENTINEL;
    // SAFETY: live arguments.
    let status = unsafe { L::pulsar_routing_bundle_layout_len(&default, &mut len) };
    assert_eq!((status, len), (S::Ok, 4));
}
