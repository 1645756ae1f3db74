//! The two `AUTO_SPLIT` Key_Shared selectors on random add/remove
//! sequences, against the slow models in `pulsar_routing_fuzz::models`:
//!
//! - small consumer counts and undersized storage, so that capacity errors
//!   (consumers, names) come up and must leave the selector unchanged;
//! - consistent hashing with few points on a small ring, so that points
//!   collide (between consumers and with themselves);
//! - auto-split with small range sizes, so that ranges run out;
//! - after every operation: the assignments tile the key hash range and
//!   equal the model's, `select` agrees with them, the per-consumer ranges
//!   are the merged assignments, and the impact (returned and
//!   `last_impact`) is the slot-by-slot difference of the snapshots.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::key_shared::{
    AssignError, Assignment, AutoSplitConfig, AutoSplitSelector, ConfigError,
    ConsistentHashingConfig, ConsistentHashingSelector, HashRange, Impact,
};
use pulsar_routing_fuzz::models::{self, AutoSplitModel, ByConsumer, ConsistentModel, Runs};

const MAX_OPS: usize = 48;
const NAMES: [&[u8]; 6] = [
    b"c",
    b"dup",
    b"consumer-x",
    "\u{e9}".as_bytes(),
    b"",
    b"a-longer-name",
];

#[derive(Arbitrary, Debug)]
enum Op {
    Add(u8, u8),
    Remove(u8),
}

#[derive(Arbitrary, Debug)]
enum Selector {
    /// Range size `2^(1 + bits % 8)`: 2 to 256.
    AutoSplitSmall {
        bits: u8,
    },
    AutoSplitBroker,
    /// Any `int` range size: the config checks.
    AutoSplitAny {
        range_size: i32,
    },
    /// `points % 5` points on `[1, 1 + max % 64]`.
    ConsistentSmall {
        points: u8,
        max: u8,
        name_bytes: u8,
    },
    ConsistentBroker {
        points: u8,
        name_bytes: u8,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    selector: Selector,
    /// `1 + max_consumers % 8`.
    max_consumers: u8,
    /// How many words short of `storage_words()` the storage is.
    short: u8,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let max_consumers = 1 + u32::from(input.max_consumers % 8);
    let ops = &input.ops[..input.ops.len().min(MAX_OPS)];
    match input.selector {
        Selector::AutoSplitSmall { bits } => {
            auto_split(1 << (1 + bits % 8), max_consumers, input.short, ops);
        }
        Selector::AutoSplitBroker => auto_split(65536, max_consumers, input.short, ops),
        Selector::AutoSplitAny { range_size } => {
            let config = AutoSplitConfig::new(max_consumers).with_range_size(range_size);
            let valid = AutoSplitConfig::validate_range_size(range_size);
            match config.storage_words() {
                Err(e) => {
                    assert_eq!(Err(e), valid.map(|_| ()));
                    assert!(!e.to_string().is_empty());
                    let made = AutoSplitSelector::new(config, vec![0u32; 64]);
                    assert_eq!(made.err(), Some(e));
                }
                Ok(_) => {
                    assert!(valid.is_ok());
                    // Large sizes have no flat table; keep the runs short.
                    auto_split(
                        valid.unwrap_or(2),
                        max_consumers,
                        input.short,
                        &ops[..ops.len().min(12)],
                    );
                }
            }
        }
        Selector::ConsistentSmall {
            points,
            max,
            name_bytes,
        } => consistent(
            u32::from(points % 5),
            1 + u32::from(max % 64),
            max_consumers,
            u32::from(name_bytes % 48),
            input.short,
            ops,
        ),
        Selector::ConsistentBroker { points, name_bytes } => consistent(
            1 + u32::from(points % 8),
            65535,
            max_consumers,
            u32::from(name_bytes),
            input.short,
            ops,
        ),
    }
});

fn snapshot(assignments: impl Iterator<Item = Assignment>) -> Runs {
    assignments
        .map(|a| (i64::from(a.range.start), i64::from(a.range.end), a.consumer))
        .collect()
}

fn group(pairs: impl Iterator<Item = (u64, HashRange)>) -> ByConsumer {
    let mut out = ByConsumer::new();
    for (c, r) in pairs {
        out.entry(c)
            .or_default()
            .push((i64::from(r.start), i64::from(r.end)));
    }
    out
}

fn impact_of(impact: &Impact<'_>) -> (ByConsumer, ByConsumer) {
    (group(impact.removed()), group(impact.added()))
}

/// Storage `short` words under what the config needs: `new` must refuse
/// it (with the sizes), never panic. Returns the full size.
fn sized(words: usize, short: u8) -> (usize, Option<usize>) {
    let short = usize::from(short % 4);
    (words, (short > 0).then(|| words.saturating_sub(short)))
}

fn assert_tiles(runs: &Runs, lo: i64, hi: i64) {
    let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
        return;
    };
    assert_eq!((first.0, last.1), (lo, hi), "{runs:?}");
    for w in runs.windows(2) {
        assert_eq!(w[1].0, w[0].1 + 1, "gap or overlap in {runs:?}");
    }
    assert!(runs.iter().all(|r| r.0 <= r.1), "{runs:?}");
}

/// Every slot of a small range, plus the edges; for a large one, each
/// side of every boundary and a stride.
fn probes(runs: &Runs, top: u32) -> Vec<u32> {
    let mut out: Vec<u32> = vec![0, 1, top.saturating_sub(1), top, top + 1, u32::MAX];
    if top <= 1024 {
        out.extend(0..=top);
    } else {
        out.extend((0..top).step_by(997));
        for &(s, e, _) in runs {
            for h in [s - 1, s, e, e + 1] {
                out.extend(u32::try_from(h).ok());
            }
        }
    }
    out
}

fn auto_split(size: u32, max_consumers: u32, short: u8, ops: &[Op]) {
    let config = AutoSplitConfig::new(max_consumers).with_range_size(size as i32);
    let (words, undersized) = sized(config.storage_words().expect("a valid size"), short);
    if let Some(len) = undersized {
        let made = AutoSplitSelector::new(config, vec![0u32; len]);
        assert_eq!(
            made.err(),
            Some(ConfigError::StorageTooSmall {
                needed: words,
                got: len
            })
        );
    }
    let mut sel = AutoSplitSelector::new(config, vec![0u32; words]).expect("enough storage");
    let mut model = AutoSplitModel::new(size);
    for op in ops {
        let before = snapshot(sel.assignments());
        let impact = match *op {
            Op::Add(c, _) => {
                let c = u64::from(c % 12);
                let got = sel.add(c).map(|i| impact_of(&i));
                let expected = if model.contains(c) {
                    Err(AssignError::DuplicateConsumer { consumer: c })
                } else {
                    let mut next = model.clone();
                    match next.add(c) {
                        false => Err(AssignError::NoMoreRange {
                            assigned_consumers: model.map.len() as u32,
                        }),
                        true if model.map.len() as u32 >= max_consumers => {
                            Err(AssignError::ConsumerCapacity { max_consumers })
                        }
                        true => {
                            model = next;
                            Ok(())
                        }
                    }
                };
                assert_eq!(
                    got.as_ref().map(|_| ()).map_err(|e| *e),
                    expected,
                    "add({c})"
                );
                if let Err(e) = &got {
                    assert!(!e.to_string().is_empty());
                    assert_eq!(
                        snapshot(sel.assignments()),
                        before,
                        "failed add changed things"
                    );
                }
                got.unwrap_or_default()
            }
            Op::Remove(c) => {
                let c = u64::from(c % 12);
                model.remove(c);
                impact_of(&sel.remove(c))
            }
        };
        let after = snapshot(sel.assignments());
        assert_eq!(after, model.snapshot(), "after {op:?}");
        assert_tiles(&after, 0, i64::from(size));
        assert_eq!(impact, models::diff(&before, &after), "impact of {op:?}");
        assert_eq!(impact_of(&sel.last_impact()), impact);
        assert_eq!(
            group(sel.consumer_ranges().map(|a| (a.consumer, a.range))),
            models::by_consumer(&after)
        );
        assert_eq!(sel.len(), model.map.len());
        for h in probes(&after, size) {
            assert_eq!(sel.select(h), model.select(h), "select({h})");
        }
    }
}

fn name_words(name: &[u8]) -> usize {
    name.len().div_ceil(4)
}

fn consistent(points: u32, max: u32, max_consumers: u32, name_bytes: u32, short: u8, ops: &[Op]) {
    let config = ConsistentHashingConfig::new(max_consumers)
        .with_points(points)
        .with_range_max(max)
        .with_name_bytes(name_bytes);
    let (words, undersized) = sized(config.storage_words().expect("a valid config"), short);
    if let Some(len) = undersized {
        let made = ConsistentHashingSelector::new(config, vec![0u32; len]);
        assert_eq!(
            made.err(),
            Some(ConfigError::StorageTooSmall {
                needed: words,
                got: len
            })
        );
    }
    let mut sel =
        ConsistentHashingSelector::new(config, vec![0u32; words]).expect("enough storage");
    let mut model = ConsistentModel::new(points, max);
    // `name_bytes` rounded up to words, plus a word per consumer for the
    // rounding of each name (the storage compacts on remove).
    let name_room = (name_bytes as usize).div_ceil(4) + max_consumers as usize;
    for op in ops {
        let before = snapshot(sel.assignments());
        let impact = match *op {
            Op::Add(c, n) => {
                let c = u64::from(c % 12);
                let name = NAMES[usize::from(n) % NAMES.len()];
                let got = sel.add(c, name).map(|i| impact_of(&i));
                let used: usize = model.consumers.iter().map(|x| name_words(&x.1)).sum();
                let expected = if model.contains(c) {
                    Err(AssignError::DuplicateConsumer { consumer: c })
                } else if model.consumers.len() as u32 >= max_consumers {
                    Err(AssignError::ConsumerCapacity { max_consumers })
                } else if points > 0 && used + name_words(name) > name_room {
                    Err(AssignError::NameCapacity)
                } else {
                    model.add(c, name);
                    Ok(())
                };
                assert_eq!(
                    got.as_ref().map(|_| ()).map_err(|e| *e),
                    expected,
                    "add({c}, {name:?})"
                );
                if let Err(e) = &got {
                    assert!(!e.to_string().is_empty());
                    assert_eq!(
                        snapshot(sel.assignments()),
                        before,
                        "failed add changed things"
                    );
                } else if points > 0 {
                    let index = model.consumers.last().map(|x| x.2);
                    assert_eq!(sel.name_index(c), index, "name index of {c}");
                }
                got.unwrap_or_default()
            }
            Op::Remove(c) => {
                let c = u64::from(c % 12);
                model.remove(c);
                impact_of(&sel.remove(c))
            }
        };
        let after = snapshot(sel.assignments());
        assert_eq!(after, model.snapshot(), "after {op:?}");
        assert_tiles(&after, 1, i64::from(max));
        assert_eq!(impact, models::diff(&before, &after), "impact of {op:?}");
        assert_eq!(impact_of(&sel.last_impact()), impact);
        assert_eq!(
            group(sel.consumer_ranges().map(|a| (a.consumer, a.range))),
            models::by_consumer(&after)
        );
        assert_eq!(sel.len(), model.consumers.len());
        for h in probes(&after, max) {
            assert_eq!(sel.select(h), model.select(h), "select({h})");
        }
    }
}
