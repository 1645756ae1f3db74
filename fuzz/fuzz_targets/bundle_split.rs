//! Bundle layouts, topic-hash lookup and splits, from arbitrary boundaries,
//! targets, split points, topic hashes, loads and limits.
//!
//! - `BundleLayout::new` accepts exactly what Java's `NamespaceBundles`
//!   constructor accepts; an accepted layout puts every hash at or above
//!   its first boundary in exactly one bundle, which `includes` it, and
//!   agrees with Java's `getBundle` and `validateBundle` (transcribed with
//!   their `Arrays.binarySearch`). The default layout's bundle of a hash
//!   is `hash / (2^32 / k)`, capped at the last bundle.
//! - Each split algorithm's output is the broker's, from transcriptions of
//!   its Java (`flow_or_qps_equally_divide` included, floats and all), and
//!   is either no split, an error, or split points that
//!   `BundleLayout::split` accepts or rejects with an error.
//! - `split` and `split_equally` agree with a transcription of
//!   `NamespaceBundleFactory.splitBundles` followed by the `NamespaceBundles`
//!   constructor; a successful split is a valid layout over the same space
//!   in which only the target's hashes change bundle, each to a new bundle
//!   inside the target.
//!
//! Nothing may panic: with the overflow checks the smoke script builds with,
//! that includes arithmetic overflow.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::bundles::{
    BundleError, BundleLayout, BundleRange, FULL_UPPER_BOUND, FlowLimits, Split, TopicLoad,
    default_boundaries, flow_or_qps_equally_divide, range_equally_divide,
    specified_positions_divide, topic_count_equally_divide,
};
use pulsar_routing_fuzz::reference::{self, SplitError};

const FULL: i64 = FULL_UPPER_BOUND as i64;

/// Layouts up to this many bundles are checked bundle by bundle and
/// against the Java transcriptions; larger default layouts (up to 2^32 - 1
/// bundles) only at the sampled hashes.
const MATERIALIZE: usize = 1 << 12;

/// Layouts up to this many bundles are also checked hash by hash against
/// every bundle.
const SCAN_ALL: usize = 64;

/// The most output slots a split gets; more would only slow the fuzzer.
const MAX_OUT: usize = 1 << 17;

#[derive(Arbitrary, Debug)]
enum Layout {
    /// The broker's default layout for `k` bundles, small `k`.
    Default(u8),
    /// Any `k`, up to 2^32 - 1 bundles.
    DefaultAny(u32),
    /// Sorted, distinct boundaries from `start` to `0xffffffff`: always
    /// valid, unless one boundary is then overwritten.
    Explicit {
        start: Option<u32>,
        interior: Vec<u32>,
        corrupt: Option<(u16, u32)>,
    },
    /// Anything at all.
    Raw(Vec<u32>),
}

#[derive(Arbitrary, Debug)]
enum Target {
    /// One of the layout's bundles.
    Bundle(u16),
    /// One of the layout's bundles with its bounds moved a little.
    Shifted { bundle: u16, lower: i8, upper: i8 },
    /// Any range `BundleRange::new` accepts.
    Any(i64, i64),
}

#[derive(Arbitrary, Debug)]
enum Rate {
    Zero,
    Small(u16),
    Negative(u8),
    Any(f64),
}

impl Rate {
    fn value(&self) -> f64 {
        match *self {
            Self::Zero => 0.0,
            Self::Small(v) => f64::from(v),
            Self::Negative(v) => -f64::from(v),
            Self::Any(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Load {
    hash: u32,
    /// Move the hash into the target bundle, where the broker's topics are.
    inside: bool,
    rates: [Rate; 4],
}

#[derive(Arbitrary, Debug)]
enum Limits {
    Default,
    Small { rate: u16, mbytes: u8, percent: u8 },
    Any(i32, i32, i32),
}

#[derive(Arbitrary, Debug)]
enum Algorithm {
    RangeEqually,
    TopicCount {
        hashes: Vec<u32>,
        inside: bool,
    },
    Positions {
        positions: Vec<i64>,
        /// Move the positions to within a few of the target's bounds.
        near: bool,
        owned: u8,
        force: bool,
    },
    Flow {
        owned: u8,
        loads: Vec<Load>,
        limits: Limits,
        out_len: Option<u8>,
    },
    Equally(u8),
    EquallyAny(u32),
    Direct(Vec<i64>),
}

#[derive(Arbitrary, Debug)]
struct Input {
    layout: Layout,
    target: Target,
    algorithm: Algorithm,
    hashes: Vec<u32>,
    /// Output slots beyond what the split needs (negative: fewer).
    slack: i8,
}

/// Owns the boundaries an explicit layout borrows.
enum Built {
    Default(u32),
    Explicit(Vec<u32>),
}

fn build(layout: &Layout) -> Built {
    match layout {
        Layout::Default(k) => Built::Default(u32::from(*k)),
        Layout::DefaultAny(k) => Built::Default(*k),
        Layout::Explicit {
            start,
            interior,
            corrupt,
        } => {
            let start = start.unwrap_or(0);
            let mut b = vec![start];
            let mut rest: Vec<u32> = interior
                .iter()
                .copied()
                .filter(|&x| x > start && x < u32::MAX)
                .collect();
            rest.sort_unstable();
            rest.dedup();
            b.extend(rest);
            b.push(u32::MAX);
            if let Some((at, value)) = *corrupt {
                let len = b.len();
                b[usize::from(at) % len] = value;
            }
            Built::Explicit(b)
        }
        Layout::Raw(b) => Built::Explicit(b.clone()),
    }
}

fuzz_target!(|input: Input| {
    let built = build(&input.layout);
    let layout = match &built {
        Built::Default(k) => {
            let made = BundleLayout::default_for(*k);
            assert_eq!(made.is_ok(), *k > 0);
            match made {
                Ok(layout) => layout,
                Err(e) => {
                    assert_eq!(e, BundleError::NoBundles);
                    return;
                }
            }
        }
        Built::Explicit(b) => {
            let wide: Vec<i64> = b.iter().map(|&x| i64::from(x)).collect();
            let made = BundleLayout::new(b);
            assert_eq!(
                made.is_ok(),
                reference::namespace_bundles_accept(&wide),
                "new({b:x?}) = {made:?}"
            );
            match made {
                Ok(layout) => layout,
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    return;
                }
            }
        }
    };
    let source = materialize(&layout);
    check_layout(&layout, source.as_deref(), &built, &input.hashes);

    let Some(target) = choose_target(&layout, &input.target) else {
        return;
    };
    check_algorithm_and_split(&layout, source.as_deref(), target, &input);
});

/// The boundaries of a layout small enough to list, as Java's `long[]`.
fn materialize(layout: &BundleLayout<'_>) -> Option<Vec<i64>> {
    (layout.len() <= MATERIALIZE).then(|| layout.boundaries().map(i64::from).collect())
}

/// The hashes worth checking: the fuzzer's, the ends of the space, and
/// each side of the first boundaries.
fn sample_hashes(layout: &BundleLayout<'_>, hashes: &[u32]) -> Vec<u32> {
    let mut sample: Vec<u32> = hashes.to_vec();
    sample.extend([0, 1, u32::MAX - 1, u32::MAX]);
    for i in 0..=layout.len().min(SCAN_ALL) {
        if let Some(b) = layout.boundary(i) {
            sample.extend([b.wrapping_sub(1), b, b.wrapping_add(1)]);
        }
    }
    sample
}

fn check_layout(layout: &BundleLayout<'_>, source: Option<&[i64]>, built: &Built, hashes: &[u32]) {
    let n = layout.len();
    assert!(n >= 1 && !layout.is_empty());
    assert_eq!(layout.boundary(n + 1), None);
    assert_eq!(layout.boundary(n), Some(u32::MAX));
    assert_eq!(layout.bundle(n), None);
    let first = layout.boundary(0).expect("boundary 0");

    if let Some(source) = source {
        assert_eq!(source.len(), n + 1);
        if let Built::Explicit(b) = built {
            assert!(source.iter().zip(b).all(|(&s, &x)| s == i64::from(x)));
        }
        if let Built::Default(k) = *built {
            // `PoliciesUtil.getBundles(k)`: i * (2^32 / k), then 0xffffffff.
            let step = (1i64 << 32) / i64::from(k);
            for (i, &b) in source.iter().enumerate().take(n) {
                assert_eq!(b, i as i64 * step, "default boundary {i} of {k}");
            }
            let mut out = vec![0u32; n + 1];
            let written = default_boundaries(k, &mut out).expect("room for k + 1");
            assert!(written.iter().zip(source).all(|(&w, &s)| i64::from(w) == s));
            assert!(default_boundaries(k, &mut out[..n]).is_err());
        }
        let ranges: Vec<BundleRange> = layout.bundles().collect();
        assert_eq!(ranges.len(), n);
        for (i, range) in ranges.iter().enumerate() {
            assert_eq!((range.lower(), range.upper()), (source[i], source[i + 1]));
            assert_eq!(layout.bundle(i), Some(*range));
            let java = reference::java_validate_bundle(source, (source[i], source[i + 1]));
            assert_eq!(
                layout.validate_bundle(*range).ok(),
                java,
                "validate_bundle({range}) in {source:x?}"
            );
        }
        let as_u32: Vec<u32> = source.iter().map(|&b| b as u32).collect();
        let again = BundleLayout::new(&as_u32).expect("a layout's boundaries are valid");
        assert!(again.bundles().eq(layout.bundles()));
    }

    let sample = sample_hashes(layout, hashes);
    // An index (of a size the input picks) never changes an answer.
    let mut table = vec![0u32; hashes.first().map_or(0, |&h| (h % 5000) as usize)];
    let indexed = layout.indexed(&mut table);
    for &hash in &sample {
        assert_eq!(
            indexed.bundle_index_for_hash(hash),
            layout.bundle_index_for_hash(hash),
            "indexed over {} entries, {hash:#x}",
            table.len()
        );
        assert_eq!(
            indexed.bundle_for_hash(hash),
            layout.bundle_for_hash(hash),
            "indexed over {} entries, {hash:#x}",
            table.len()
        );
    }
    let step = match built {
        Built::Default(k) => Some((1u64 << 32) / u64::from(*k)),
        Built::Explicit(_) => None,
    };
    for &hash in &sample {
        let index = layout.bundle_index_for_hash(hash);
        assert_eq!(index.is_some(), hash >= first, "{hash:#x}");
        if let Some(step) = step {
            let expected = (u64::from(hash) / step).min(n as u64 - 1) as usize;
            assert_eq!(index, Some(expected), "default layout of {n}, {hash:#x}");
        }
        if let Some(i) = index {
            let bundle = layout.bundle(i).expect("index in range");
            assert!(bundle.includes(hash), "{bundle} does not include {hash:#x}");
            // Bundles are sorted and disjoint; the neighbours must agree.
            for j in [i.wrapping_sub(1), i + 1] {
                if let Some(other) = layout.bundle(j) {
                    assert!(!other.includes(hash), "{other} also includes {hash:#x}");
                }
            }
        }
        assert_eq!(
            layout.bundle_for_hash(hash),
            index.and_then(|i| layout.bundle(i))
        );
        if n <= SCAN_ALL {
            let owners = layout.bundles().filter(|b| b.includes(hash)).count();
            assert_eq!(owners, usize::from(index.is_some()), "{hash:#x}");
        }
        let java = layout.bundle_index_for_hash_java(hash);
        match source {
            Some(source) => {
                let expected = reference::java_get_bundle_index(source, i64::from(hash));
                assert_eq!(java.ok(), expected, "getBundle({hash:#x}) in {source:x?}");
            }
            None => assert_eq!(java.ok(), index.filter(|_| hash != u32::MAX)),
        }
        if let Err(e) = java {
            assert_eq!(e, BundleError::NoBundleForHash(hash));
        }
    }

    if n <= MATERIALIZE {
        let mut counts = vec![0u64; n];
        let unowned = layout
            .count_per_bundle(sample.iter().copied(), &mut counts)
            .expect("one slot per bundle");
        assert_eq!(counts.iter().sum::<u64>() + unowned, sample.len() as u64);
        let below = sample.iter().filter(|&&h| h < first).count() as u64;
        assert_eq!(unowned, below);
        assert_eq!(
            layout.count_per_bundle(sample.iter().copied(), &mut counts[..n - 1]),
            Err(BundleError::BufferTooSmall { needed: n })
        );
    }
    assert!(!layout.compare(layout, sample).any(|c| c.changed()));
}

fn choose_target(layout: &BundleLayout<'_>, target: &Target) -> Option<BundleRange> {
    let pick = |i: u16| layout.bundle(usize::from(i) % layout.len());
    match *target {
        Target::Bundle(i) => pick(i),
        Target::Shifted {
            bundle,
            lower,
            upper,
        } => {
            let b = pick(bundle)?;
            BundleRange::new(b.lower() + i64::from(lower), b.upper() + i64::from(upper)).ok()
        }
        Target::Any(lower, upper) => BundleRange::new(lower, upper).ok(),
    }
}

/// `hash` moved into `[lower, upper)` of the target where that range holds
/// hashes; unchanged otherwise.
fn fit(hash: u32, target: BundleRange) -> u32 {
    let lower = target.lower().clamp(0, FULL);
    let upper = target.upper().clamp(0, FULL + 1);
    if upper <= lower {
        return hash;
    }
    (lower + i64::from(hash) % (upper - lower)) as u32
}

/// The split points to try, or `None` when the algorithm says not to
/// split (or fails, which is then checked here).
enum Plan {
    Points(Vec<i64>),
    Parts(u32),
}

fn check_algorithm_and_split(
    layout: &BundleLayout<'_>,
    source: Option<&[i64]>,
    target: BundleRange,
    input: &Input,
) {
    let (lower, upper) = (target.lower(), target.upper());
    let plan = match &input.algorithm {
        Algorithm::RangeEqually => {
            let middle = range_equally_divide(target);
            // Java's long arithmetic, which wraps for absurd ranges.
            let java = lower.wrapping_add(upper.wrapping_sub(lower) / 2);
            assert_eq!(middle, java);
            Some(Plan::Points(vec![middle]))
        }
        Algorithm::TopicCount { hashes, inside } => {
            let mut hashes: Vec<u32> = hashes
                .iter()
                .map(|&h| if *inside { fit(h, target) } else { h })
                .collect();
            let expected = reference::topic_count_divide(&hashes);
            let ours = topic_count_equally_divide(&mut hashes);
            assert_eq!(ours, expected);
            if hashes.len() > 1 {
                assert!(hashes.is_sorted());
            }
            ours.map(|p| Plan::Points(vec![p]))
        }
        Algorithm::Positions {
            positions,
            near,
            owned,
            force,
        } => {
            let mut positions: Vec<i64> = positions
                .iter()
                .map(|&p| {
                    if *near {
                        // Within 3 of either bound.
                        let offset = p.rem_euclid(14) - 3;
                        if offset < 4 {
                            lower.saturating_add(offset)
                        } else {
                            upper.saturating_add(offset - 7)
                        }
                    } else {
                        p
                    }
                })
                .collect();
            let mut expected: Vec<i64> = positions
                .iter()
                .copied()
                .filter(|&p| p > lower && p < upper)
                .collect();
            expected.sort_unstable();
            let was_empty = positions.is_empty();
            let owned = usize::from(*owned);
            match specified_positions_divide(target, &mut positions, owned, *force) {
                Err(e) => {
                    assert!(was_empty);
                    assert_eq!(e, BundleError::NoSplitPositions);
                    None
                }
                Ok(None) => {
                    assert!(!was_empty);
                    assert!((!*force && owned <= 1) || expected.is_empty());
                    None
                }
                Ok(Some(points)) => {
                    assert!(*force || owned > 1);
                    assert_eq!(points, expected);
                    Some(Plan::Points(points.to_vec()))
                }
            }
        }
        Algorithm::Flow {
            owned,
            loads,
            limits,
            out_len,
        } => check_flow(target, usize::from(*owned), loads, limits, *out_len).map(Plan::Points),
        Algorithm::Equally(parts) => Some(Plan::Parts(u32::from(*parts))),
        Algorithm::EquallyAny(parts) => Some(Plan::Parts(*parts)),
        Algorithm::Direct(points) => Some(Plan::Points(points.clone())),
    };
    if let Some(plan) = plan {
        check_split(layout, source, target, &plan, input);
    }
}

fn check_flow(
    target: BundleRange,
    owned: usize,
    loads: &[Load],
    limits: &Limits,
    out_len: Option<u8>,
) -> Option<Vec<i64>> {
    let limits = match *limits {
        Limits::Default => FlowLimits::default(),
        Limits::Small {
            rate,
            mbytes,
            percent,
        } => FlowLimits {
            max_msg_rate: i32::from(rate),
            max_bandwidth_mbytes: i32::from(mbytes),
            threshold_percent: i32::from(percent),
        },
        Limits::Any(rate, mbytes, percent) => FlowLimits {
            max_msg_rate: rate,
            max_bandwidth_mbytes: mbytes,
            threshold_percent: percent,
        },
    };
    let mut ours: Vec<TopicLoad> = loads
        .iter()
        .map(|l| TopicLoad {
            hash: if l.inside {
                fit(l.hash, target)
            } else {
                l.hash
            },
            msg_rate_in: l.rates[0].value(),
            msg_rate_out: l.rates[1].value(),
            msg_throughput_in: l.rates[2].value(),
            msg_throughput_out: l.rates[3].value(),
        })
        .collect();
    let stats: Vec<reference::TopicStats> = ours
        .iter()
        .map(|l| {
            (
                l.hash,
                l.msg_rate_in,
                l.msg_rate_out,
                l.msg_throughput_in,
                l.msg_throughput_out,
            )
        })
        .collect();
    let expected = reference::flow_or_qps_divide(
        owned,
        &stats,
        limits.max_msg_rate,
        limits.max_bandwidth_mbytes,
        limits.threshold_percent,
    );
    let mut out = vec![0i64; out_len.map_or(loads.len(), usize::from)];
    let room = out.len();
    match flow_or_qps_equally_divide(owned, &mut ours, limits, &mut out) {
        Ok(result) => {
            assert_eq!(result.map(<[i64]>::to_vec), expected, "{limits:?}");
            expected
        }
        Err(BundleError::BufferTooSmall { needed }) => {
            let points = expected.expect("no split needs no room");
            assert!(points.len() > room, "{} points fit in {room}", points.len());
            assert!(needed >= points.len());
            None
        }
        Err(e) => panic!("flow_or_qps_equally_divide: {e:?}"),
    }
}

fn check_split(
    layout: &BundleLayout<'_>,
    source: Option<&[i64]>,
    target: BundleRange,
    plan: &Plan,
    input: &Input,
) {
    let parts = match plan {
        Plan::Points(points) => points.len() + 1,
        Plan::Parts(parts) => *parts as usize,
    };
    let needed = layout.len().saturating_add(parts);
    let room = needed
        .saturating_add_signed(isize::from(input.slack))
        .min(MAX_OUT);
    let mut out = vec![0u32; room];
    let result = match plan {
        Plan::Points(points) => layout.split(target, &mut points.clone(), &mut out),
        Plan::Parts(parts) => layout.split_equally(target, *parts, &mut out),
    };
    if let Err(e) = result {
        assert!(!e.to_string().is_empty());
    }

    // The transcription builds Java's array; skip it for absurd part counts.
    let source = source.filter(|_| parts <= MAX_OUT);
    if let Some(source) = source {
        let java = match plan {
            Plan::Points(points) => {
                let parts = u32::try_from(points.len() + 1).expect("few points");
                reference::split_bundles(source, (target.lower(), target.upper()), parts, points)
            }
            Plan::Parts(parts) => {
                reference::split_bundles(source, (target.lower(), target.upper()), *parts, &[])
            }
        };
        compare_with_java(&java, &result, room < needed, plan);
    }
    if let Ok(split) = result {
        check_split_result(layout, target, &split, &input.hashes);
    }
}

fn compare_with_java(
    java: &Result<Vec<i64>, SplitError>,
    ours: &Result<Split<'_>, BundleError>,
    short_of_room: bool,
    plan: &Plan,
) {
    match (java, ours) {
        (Ok(partitions), Ok(split)) => {
            assert!(reference::namespace_bundles_accept(partitions));
            let got: Vec<i64> = split.layout.boundaries().map(i64::from).collect();
            assert_eq!(&got, partitions, "split boundaries differ from Java's");
        }
        (Ok(partitions), Err(e)) => {
            let accepted = reference::namespace_bundles_accept(partitions);
            match e {
                BundleError::BufferTooSmall { .. } => assert!(short_of_room),
                BundleError::EmptyRange
                | BundleError::BoundariesNotSorted
                | BundleError::UpperEndpointNotExclusive => {
                    assert!(!accepted, "Java accepts {partitions:x?}, ours: {e:?}");
                }
                _ => panic!("Java splits into {partitions:x?}, ours fails: {e:?}"),
            }
        }
        (Err(java), Ok(split)) => panic!("Java fails ({java:?}), ours splits: {split:?}"),
        (Err(java), Err(e)) => {
            let consistent = match java {
                SplitError::CannotSplitFurther => matches!(e, BundleError::CannotSplitFurther(_)),
                SplitError::OutsideBundle => {
                    matches!(e, BundleError::SplitBoundaryOutsideBundle(_))
                }
                SplitError::DivideByZero => *e == BundleError::ZeroSplitParts,
                SplitError::NotFound => {
                    matches!(
                        e,
                        BundleError::BundleNotFound | BundleError::InvalidUpperBoundary
                    ) || (*e == BundleError::ZeroSplitParts && matches!(plan, Plan::Parts(0)))
                }
            };
            assert!(consistent, "Java: {java:?}, ours: {e:?}");
        }
    }
}

/// A successful split: a valid layout over the same space, the target
/// replaced by `count` bundles that tile it, and only the target's hashes
/// moved, each into one of them.
fn check_split_result(
    before: &BundleLayout<'_>,
    target: BundleRange,
    split: &Split<'_>,
    hashes: &[u32],
) {
    let after = &split.layout;
    let old: Vec<u32> = before.boundaries().collect();
    let new: Vec<u32> = after.boundaries().collect();
    assert!(BundleLayout::new(&new).is_ok());
    assert_eq!(after.len(), before.len() + split.count - 1);
    assert_eq!(before.validate_bundle(target), Ok(split.first));
    assert_eq!(new[..=split.first], old[..=split.first]);
    assert_eq!(new[split.first + split.count..], old[split.first + 1..]);

    let pieces: Vec<BundleRange> = split.new_bundles().collect();
    assert_eq!(pieces.len(), split.count);
    assert_eq!(pieces[0].lower(), target.lower());
    assert_eq!(pieces[pieces.len() - 1].upper(), target.upper());
    assert!(pieces.windows(2).all(|w| w[0].upper() == w[1].lower()));

    for change in before.compare(after, sample_hashes(before, hashes)) {
        let in_target = target.includes(change.hash);
        assert_eq!(change.before.is_some_and(|b| b == target), in_target);
        if in_target {
            let now = change.after.expect("the target's hashes stay owned");
            assert!(pieces.contains(&now), "{now} is no new bundle");
            assert!(now.includes(change.hash));
        } else {
            assert!(!change.changed(), "{change:?} moved outside the target");
        }
    }
}
