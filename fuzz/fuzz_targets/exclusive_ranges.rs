//! Sticky (exclusive) hash ranges on arbitrary range lists:
//!
//! - `validate_sticky_ranges` raises exactly the error the Java client's
//!   `Range.of` and `KeySharedPolicySticky.validate()` raise first (the
//!   naive model in `pulsar_routing_fuzz::models`);
//! - `ExclusiveSelector::add` and `remove`, under both rule sets and with
//!   undersized storage, never panic; a failed add changes nothing; with
//!   the current rules an add succeeds exactly when the broker's checks
//!   and the storage allow it, and `select` gives each slot to the
//!   consumer whose declared range contains it.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::key_shared::{
    AssignError, ConfigError, ExclusiveConfig, ExclusiveMode, ExclusiveSelector, HashRange,
    KeySharedPolicyError, validate_sticky_ranges,
};
use pulsar_routing_fuzz::models::{StickyCheck, java_validate_sticky};

const MAX_OPS: usize = 24;
const MAX_RANGES: usize = 12;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Range {
    /// Near each other, so that they touch and overlap; sometimes inverted.
    Small(u8, u8),
    /// Anywhere in `[0, 65535]`.
    Inside(u16, u16),
    /// Anywhere.
    Any(i32, i32),
}

impl Range {
    fn get(self) -> (i32, i32) {
        match self {
            Self::Small(s, len) => {
                let start = i32::from(s) * 8;
                (start, start + i32::from(len % 40) - 2)
            }
            Self::Inside(s, e) => (i32::from(s), i32::from(e)),
            Self::Any(s, e) => (s, e),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Add(u8, Option<Vec<Range>>),
    Remove(u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: Vec<Range>,
    legacy: bool,
    max_consumers: u8,
    max_ranges: u8,
    short: u8,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    check_policy(&input.policy[..input.policy.len().min(MAX_RANGES)]);

    let mode = if input.legacy {
        ExclusiveMode::LegacyPre24730
    } else {
        ExclusiveMode::Current
    };
    let max_consumers = 1 + u32::from(input.max_consumers % 6);
    let max_ranges = 1 + u32::from(input.max_ranges % 16);
    let config = ExclusiveConfig::new(max_consumers, max_ranges).with_mode(mode);
    let words = config.storage_words().expect("a small config");
    let short = usize::from(input.short % 3);
    if short > 0 {
        let got = words - short;
        let made = ExclusiveSelector::new(config, vec![0u32; got]);
        assert_eq!(
            made.err(),
            Some(ConfigError::StorageTooSmall { needed: words, got })
        );
    }
    let mut sel = ExclusiveSelector::new(config, vec![0u32; words]).expect("enough storage");
    // The current rules' model: each live consumer and its declared ranges.
    let mut live: Vec<(u64, Vec<(i32, i32)>)> = Vec::new();
    for op in &input.ops[..input.ops.len().min(MAX_OPS)] {
        match op {
            Op::Add(c, ranges) => {
                let c = u64::from(c % 8);
                let declared: Option<Vec<HashRange>> = ranges.as_ref().map(|r| {
                    r.iter()
                        .take(MAX_RANGES)
                        .map(|r| {
                            let (s, e) = r.get();
                            HashRange::new(s, e)
                        })
                        .collect()
                });
                let before: Vec<_> = sel.assignments().collect();
                let got = sel.add(c, declared.as_deref()).map(|_| ());
                if let Err(e) = &got {
                    assert!(!e.to_string().is_empty());
                    let after: Vec<_> = sel.assignments().collect();
                    assert_eq!(after, before, "failed add({c}) changed things");
                }
                if mode == ExclusiveMode::Current {
                    let pairs: Option<Vec<(i32, i32)>> = declared
                        .as_ref()
                        .map(|d| d.iter().map(|r| (r.start, r.end)).collect());
                    check_add(&mut live, c, pairs, got, max_consumers, max_ranges);
                }
            }
            Op::Remove(c) => {
                let c = u64::from(c % 8);
                sel.remove(c);
                live.retain(|x| x.0 != c);
                assert!(!sel.contains(c));
            }
        }
        if mode == ExclusiveMode::Current {
            assert_eq!(sel.len(), live.len());
            check_select(&sel, &live);
        }
        let _ = sel.consumer_ranges().count();
    }
});

fn check_policy(policy: &[Range]) {
    let pairs: Vec<(i32, i32)> = policy.iter().map(|r| r.get()).collect();
    let ranges: Vec<HashRange> = pairs.iter().map(|&(s, e)| HashRange::new(s, e)).collect();
    let expected = java_validate_sticky(&pairs).map_err(|check| match check {
        StickyCheck::EndBeforeStart => KeySharedPolicyError::RangeEndBeforeStart,
        StickyCheck::Empty => KeySharedPolicyError::EmptyRanges,
        StickyCheck::OutOfBounds(i) => KeySharedPolicyError::OutOfBounds { range: ranges[i] },
        StickyCheck::Overlap(i, j) => KeySharedPolicyError::Overlap {
            range: ranges[i],
            other: ranges[j],
        },
    });
    let got = validate_sticky_ranges(&ranges);
    assert_eq!(got, expected, "validate({pairs:?})");
    if let Err(e) = got {
        assert!(!e.to_string().is_empty());
    }
}

fn overlaps(a: (i32, i32), b: (i32, i32)) -> bool {
    a.0.max(b.0) <= a.1.min(b.1)
}

/// The broker's checks in order (current rules), then the storage's.
fn check_add(
    live: &mut Vec<(u64, Vec<(i32, i32)>)>,
    c: u64,
    declared: Option<Vec<(i32, i32)>>,
    got: Result<(), AssignError>,
    max_consumers: u32,
    max_ranges: u32,
) {
    let context = format!("add({c}, {declared:?}) with {live:?}");
    if live.iter().any(|x| x.0 == c) {
        assert_eq!(
            got,
            Err(AssignError::DuplicateConsumer { consumer: c }),
            "{context}"
        );
        return;
    }
    let Some(ranges) = declared else {
        assert_eq!(got, Err(AssignError::MissingKeySharedMeta), "{context}");
        return;
    };
    if ranges.is_empty() {
        assert_eq!(got, Err(AssignError::EmptyRanges), "{context}");
        return;
    }
    // Java checks range by range in start order, so an inverted range and
    // an overlap of two of the consumer's own ranges can each come first.
    let inverted = ranges.iter().any(|r| r.0 > r.1);
    let own = ranges.iter().enumerate().any(|(i, &a)| {
        ranges
            .iter()
            .enumerate()
            .any(|(j, &b)| i != j && overlaps(a, b))
    });
    if inverted || own {
        let declared = |r: HashRange| ranges.contains(&(r.start, r.end));
        let fits = match got {
            Err(AssignError::StartAfterEnd { range }) => range.start > range.end && declared(range),
            Err(AssignError::OwnRangesConflict { range, next }) => {
                declared(range)
                    && declared(next)
                    && overlaps((range.start, range.end), (next.start, next.end))
            }
            _ => false,
        };
        assert!(fits, "{context}: {got:?}");
        if !own {
            assert!(
                matches!(got, Err(AssignError::StartAfterEnd { .. })),
                "{context}: {got:?}"
            );
        }
        if !inverted {
            assert!(
                matches!(got, Err(AssignError::OwnRangesConflict { .. })),
                "{context}: {got:?}"
            );
        }
        return;
    }
    let conflict = |other: u64| {
        live.iter().any(|(o, theirs)| {
            *o == other
                && theirs
                    .iter()
                    .any(|&t| ranges.iter().any(|&r| overlaps(t, r)))
        })
    };
    if live.iter().any(|(o, _)| conflict(*o)) {
        assert!(
            matches!(got, Err(AssignError::RangeConflict { consumer }) if conflict(consumer)),
            "{context}: {got:?}"
        );
        return;
    }
    if live.len() as u32 >= max_consumers {
        assert_eq!(
            got,
            Err(AssignError::ConsumerCapacity { max_consumers }),
            "{context}"
        );
        return;
    }
    let total: usize = live.iter().map(|x| x.1.len()).sum::<usize>() + ranges.len();
    if total > max_ranges as usize {
        assert_eq!(
            got,
            Err(AssignError::RangeCapacity { max_ranges }),
            "{context}"
        );
        return;
    }
    assert_eq!(got, Ok(()), "{context}");
    live.push((c, ranges));
}

/// `select(h)` is the owner of the declared range holding `h`, read as
/// Java's `int` and not reduced (4.2.4's selector).
fn check_select(sel: &ExclusiveSelector<Vec<u32>>, live: &[(u64, Vec<(i32, i32)>)]) {
    let mut probes: Vec<u32> = vec![0, 1, 65535, 65536, 65537, u32::MAX];
    for (_, ranges) in live {
        for &(s, e) in ranges {
            for h in [s.saturating_sub(1), s, e, e.saturating_add(1)] {
                if let Ok(h) = u32::try_from(h) {
                    probes.extend([h, h.wrapping_add(65536)]);
                }
            }
        }
    }
    for h in probes {
        let slot = i64::from(h as i32);
        let expected = live
            .iter()
            .find(|(_, ranges)| {
                ranges
                    .iter()
                    .any(|&(s, e)| i64::from(s) <= slot && slot <= i64::from(e))
            })
            .map(|x| x.0);
        assert_eq!(sel.select(h), expected, "select({h}) with {live:?}");
    }
}
