//! Key_Shared properties, checked on random add/remove sequences against
//! deliberately naive models written straight from the Java code (ordered
//! maps, vectors, strings built with `format!`), and against the invariants
//! the broker relies on: snapshots tile the range, the impact is the diff of
//! the snapshots, `select` agrees with the snapshot everywhere, consistent
//! hashing never moves ranges between two consumers that both stay, and
//! removing the consumer just added restores the previous state.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use pulsar_routing::key_shared::{
    AssignError, Assignment, AutoSplitConfig, AutoSplitSelector, ConsistentHashingConfig,
    ConsistentHashingSelector, ExclusiveConfig, ExclusiveMode, ExclusiveSelector, HashRange,
    Impact, KeyHashRange, validate_sticky_ranges,
};
use pulsar_routing::murmur3_32;

type Snapshot = Vec<(i64, i64, u64)>;
type Ranges = BTreeMap<u64, Vec<(i64, i64)>>;
/// A range whose owner changed: before, after.
type DiffEntry = ((i64, i64), Option<u64>, Option<u64>);

fn snapshot(assignments: impl Iterator<Item = Assignment>) -> Snapshot {
    assignments
        .map(|a| (i64::from(a.range.start), i64::from(a.range.end), a.consumer))
        .collect()
}

fn group(pairs: impl Iterator<Item = (u64, HashRange)>) -> Ranges {
    let mut out = Ranges::new();
    for (c, r) in pairs {
        out.entry(c)
            .or_default()
            .push((i64::from(r.start), i64::from(r.end)));
    }
    out
}

fn impact_of(impact: &Impact<'_>) -> (Ranges, Ranges) {
    (group(impact.removed()), group(impact.added()))
}

/// Java's `mergeOverlappingRanges` over a sorted set.
fn merge(mut ranges: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    ranges.sort_unstable();
    ranges.dedup();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if last.1 >= r.0 - 1 => last.1 = last.1.max(r.1),
            _ => out.push(r),
        }
    }
    out
}

/// Java's `diffRanges` followed by `ImpactedConsumersResult`: removed and
/// added ranges per consumer, merged.
fn java_diff(before: &Snapshot, after: &Snapshot) -> (Ranges, Ranges) {
    let mut diff: Vec<DiffEntry> = Vec::new();
    let (mut b, mut a) = (before.iter().peekable(), after.iter().peekable());
    while let (Some(&&(bs, be, bc)), Some(&&(as_, ae, ac))) = (b.peek(), a.peek()) {
        if (bs, be) == (as_, ae) {
            if bc != ac {
                diff.push(((as_, ae), Some(bc), Some(ac)));
            }
            b.next();
            a.next();
        } else if be < as_ {
            diff.push(((bs, be), Some(bc), Some(ac)));
            b.next();
        } else if ae < bs {
            diff.push(((as_, ae), Some(bc), Some(ac)));
            a.next();
        } else {
            let o = (bs.max(as_), be.min(ae));
            if bc != ac {
                diff.push((o, Some(bc), Some(ac)));
            }
            if be <= o.1 {
                b.next();
            }
            if ae <= o.1 {
                a.next();
            }
        }
    }
    diff.extend(b.map(|&(s, e, c)| ((s, e), Some(c), None)));
    diff.extend(a.map(|&(s, e, c)| ((s, e), None, Some(c))));
    let (mut removed, mut added) = (Ranges::new(), Ranges::new());
    for (range, bc, ac) in diff {
        if let Some(c) = bc {
            removed.entry(c).or_default().push(range);
        }
        if let Some(c) = ac {
            added.entry(c).or_default().push(range);
        }
    }
    let merge_all = |m: Ranges| m.into_iter().map(|(c, r)| (c, merge(r))).collect();
    (merge_all(removed), merge_all(added))
}

/// Per-consumer merged ranges of a snapshot, as `getRangesByConsumer`.
fn by_consumer(s: &Snapshot) -> Ranges {
    let mut out = Ranges::new();
    for &(start, end, c) in s {
        out.entry(c).or_default().push((start, end));
    }
    out.into_iter().map(|(c, r)| (c, merge(r))).collect()
}

fn assert_tiles(s: &Snapshot, lo: i64, hi: i64) -> Result<(), TestCaseError> {
    if let (Some(first), Some(last)) = (s.first(), s.last()) {
        prop_assert_eq!(first.0, lo);
        prop_assert_eq!(last.1, hi);
        for w in s.windows(2) {
            prop_assert_eq!(w[1].0, w[0].1 + 1, "gap or overlap in {:?}", s);
        }
        for &(start, end, _) in s {
            prop_assert!(start <= end);
        }
    }
    Ok(())
}

/// The slots worth probing: every slot of a small domain; else both sides
/// of every boundary of the snapshot, the ends of the domain and a stride
/// through it (`select` is constant between boundaries).
fn probes(snapshot: &Snapshot, top: u32) -> Vec<u32> {
    if top <= 1100 {
        return (0..=top + 1).chain([u32::MAX]).collect();
    }
    let mut out: Vec<u32> = [0, 1, 2, top - 1, top, top + 1, u32::MAX]
        .into_iter()
        .chain((0..top).step_by(top as usize / 64 + 1))
        .collect();
    for &(start, end, _) in snapshot {
        for h in [start - 1, start, (start + end) / 2, end, end + 1] {
            if let Ok(h) = u32::try_from(h) {
                out.push(h);
            }
        }
    }
    out
}

/// `select` agrees with the snapshot on every slot it covers (the flat
/// tables are updated incrementally, so a stale entry could hide anywhere).
fn select_matches_snapshot_everywhere(
    snapshot: &Snapshot,
    select: impl Fn(u32) -> Option<u64>,
) -> Result<(), TestCaseError> {
    for &(start, end, c) in snapshot {
        for h in start.max(0)..=end.min(65536) {
            prop_assert_eq!(select(h as u32), Some(c), "select({})", h);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- AutoSplit

/// `HashRangeAutoSplitStickyKeyConsumerSelector`, transcribed.
#[derive(Clone)]
struct AutoSplitModel {
    size: u32,
    map: BTreeMap<u32, u64>,
    range_of: HashMap<u64, u32>,
}

impl AutoSplitModel {
    fn add(&mut self, c: u64) -> Result<(), String> {
        if self.map.is_empty() {
            self.map.insert(self.size, c);
            self.range_of.insert(c, self.size);
            return Ok(());
        }
        let (mut slots, mut busiest) = (0, self.size);
        for &k in self.map.keys() {
            let lower = self.map.range(..k).next_back().map_or(0, |(&l, _)| l);
            if k - lower > slots {
                slots = k - lower;
                busiest = k;
            }
        }
        let lower = self.map.range(..busiest).next_back().map_or(0, |(&l, _)| l);
        if busiest - lower <= 1 {
            return Err(format!(
                "No more range can assigned to new consumer, assigned consumers {}",
                self.map.len()
            ));
        }
        let split = busiest - ((busiest - lower) >> 1);
        self.map.insert(split, c);
        self.range_of.insert(c, split);
        Ok(())
    }

    fn remove(&mut self, c: u64) {
        if let Some(k) = self.range_of.remove(&c) {
            if k == self.size && self.map.len() > 1 {
                let (&lk, &lc) = self.map.range(..k).next_back().expect("lower entry");
                self.map.insert(k, lc);
                self.map.remove(&lk);
                self.range_of.insert(lc, k);
            } else {
                self.map.remove(&k);
            }
        }
    }

    fn snapshot(&self) -> Snapshot {
        let mut prev: Option<u32> = None;
        self.map
            .iter()
            .map(|(&k, &c)| {
                let start = prev.map_or(0, |p| i64::from(p) + 1);
                prev = Some(k);
                (start, i64::from(k), c)
            })
            .collect()
    }

    fn select(&self, h: u32) -> Option<u64> {
        self.map.range(h..).next().map(|(_, &c)| c)
    }
}

#[derive(Clone, Debug)]
enum Op {
    Add(u64, usize),
    Remove(u64),
}

fn ops(ids: u64, names: usize, len: usize) -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        prop_oneof![
            3 => (0..ids, 0..names).prop_map(|(c, n)| Op::Add(c, n)),
            2 => (0..ids + 2).prop_map(Op::Remove),
        ],
        0..len,
    )
}

fn new_auto_split(size: i32) -> AutoSplitSelector<Vec<u32>> {
    let config = AutoSplitConfig::new(40).with_range_size(size);
    AutoSplitSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn auto_split_matches_the_model(
        size in prop_oneof![Just(65536i32), (1u32..=7).prop_map(|b| 1i32 << b), Just(1 << 20)],
        ops in ops(30, 1, 60),
    ) {
        let mut sel = new_auto_split(size);
        let mut model = AutoSplitModel { size: size as u32, map: BTreeMap::new(), range_of: HashMap::new() };
        for op in ops {
            let before = snapshot(sel.assignments());
            let impact = match op {
                Op::Add(c, _) => {
                    let got = sel.add(c).map(|i| impact_of(&i));
                    if model.range_of.contains_key(&c) {
                        prop_assert_eq!(got, Err(AssignError::DuplicateConsumer { consumer: c }));
                        continue;
                    }
                    let expected = model.add(c);
                    prop_assert_eq!(got.as_ref().map_err(ToString::to_string).map(|_| ()), expected);
                    got.unwrap_or_default()
                }
                Op::Remove(c) => {
                    model.remove(c);
                    impact_of(&sel.remove(c))
                }
            };
            let after = snapshot(sel.assignments());
            prop_assert_eq!(&after, &model.snapshot());
            assert_tiles(&after, 0, i64::from(size))?;
            prop_assert_eq!(&impact, &java_diff(&before, &after));
            prop_assert_eq!(group(sel.consumer_ranges().map(|a| (a.consumer, a.range))), by_consumer(&after));
            prop_assert_eq!(sel.len(), model.range_of.len());
            for h in probes(&after, size as u32) {
                prop_assert_eq!(sel.select(h), model.select(h), "select({})", h);
            }
        }
        select_matches_snapshot_everywhere(&snapshot(sel.assignments()), |h| sel.select(h))?;
    }

    #[test]
    fn auto_split_add_then_remove_restores(
        size in prop_oneof![Just(65536i32), Just(64)],
        ops in ops(30, 1, 40),
        extra in 100u64..200,
    ) {
        let mut sel = new_auto_split(size);
        for op in ops {
            match op {
                Op::Add(c, _) => { let _ = sel.add(c); }
                Op::Remove(c) => { sel.remove(c); }
            }
        }
        let before = snapshot(sel.assignments());
        if sel.add(extra).is_ok() {
            sel.remove(extra);
        }
        prop_assert_eq!(snapshot(sel.assignments()), before);
    }
}

// -------------------------------------------------------- Consistent hashing

/// `ConsistentHashingStickyKeyConsumerSelector` and its name-index
/// tracker, transcribed with strings and lists.
#[derive(Clone)]
struct ConsistentModel {
    points: u32,
    max: u32,
    ring: BTreeMap<u32, Vec<u64>>,
    consumers: HashMap<u64, (String, Option<u32>)>,
}

impl ConsistentModel {
    fn point(&self, name: &str, index: u32, i: u32) -> u32 {
        let key = format!("{name}\0{index}\0{i}");
        let h = murmur3_32(key.as_bytes()) % self.max + 1;
        h.max(1)
    }

    fn add(&mut self, c: u64, name: &str) {
        let index = (self.points > 0).then(|| {
            (0..)
                .find(|k| {
                    !self
                        .consumers
                        .values()
                        .any(|(n, i)| n == name && *i == Some(*k))
                })
                .unwrap()
        });
        if let Some(index) = index {
            for i in 0..self.points {
                let p = self.point(name, index, i);
                self.ring.entry(p).or_default().push(c);
            }
        }
        self.consumers.insert(c, (name.to_string(), index));
    }

    fn remove(&mut self, c: u64) {
        let Some((name, Some(index))) = self.consumers.remove(&c) else {
            return;
        };
        for i in 0..self.points {
            let p = self.point(&name, index, i);
            let entry = self.ring.get_mut(&p).expect("point on the ring");
            if entry[0] == c {
                entry.remove(0);
            } else {
                entry.retain(|&x| x != c);
            }
            if entry.is_empty() {
                self.ring.remove(&p);
            }
        }
    }

    fn snapshot(&self) -> Snapshot {
        let mut out: Snapshot = Vec::new();
        let Some((_, first)) = self.ring.iter().next() else {
            return out;
        };
        let mut start = 1i64;
        let mut last = -1i64;
        let mut prev: Option<u64> = None;
        for (&p, e) in &self.ring {
            let c = e[0];
            if prev == Some(c) {
                out.last_mut().unwrap().1 = i64::from(p);
            } else {
                out.push((start, i64::from(p), c));
            }
            last = i64::from(p);
            start = last + 1;
            prev = Some(c);
        }
        let max = i64::from(self.max);
        if last != max {
            if prev == Some(first[0]) {
                out.last_mut().unwrap().1 = max;
            } else {
                out.push((last + 1, max, first[0]));
            }
        }
        out
    }

    fn select(&self, h: u32) -> Option<u64> {
        self.ring
            .range(h..)
            .next()
            .or_else(|| self.ring.iter().next())
            .map(|(_, e)| e[0])
    }
}

const NAMES: [&str; 6] = ["c", "dup", "consumer-x", "é", "dup2", ""];

fn new_consistent(points: u32, max: u32) -> ConsistentHashingSelector<Vec<u32>> {
    let config = ConsistentHashingConfig::new(40)
        .with_points(points)
        .with_range_max(max)
        .with_name_bytes(400);
    ConsistentHashingSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap()
}

fn check_select_everywhere(
    sel: &ConsistentHashingSelector<Vec<u32>>,
    model: &ConsistentModel,
    after: &Snapshot,
) -> Result<(), TestCaseError> {
    for h in probes(after, model.max) {
        prop_assert_eq!(sel.select(h), model.select(h), "select({})", h);
    }
    prop_assert_eq!(sel.select(0), model.select(0));
    prop_assert_eq!(sel.select(u32::MAX), model.select(u32::MAX));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn consistent_hashing_matches_the_model(
        points in prop_oneof![Just(0u32), Just(1), Just(2), Just(7), Just(100)],
        max in prop_oneof![Just(7u32), Just(50), Just(1000), Just(65535), Just(70_000), Just(2_147_483_646)],
        ops in ops(24, NAMES.len(), 40),
    ) {
        let mut sel = new_consistent(points, max);
        let mut model = ConsistentModel { points, max, ring: BTreeMap::new(), consumers: HashMap::new() };
        for op in ops {
            let before = snapshot(sel.assignments());
            let (impact, op_consumer, is_add) = match op {
                Op::Add(c, n) => {
                    let got = sel.add(c, NAMES[n]).map(|i| impact_of(&i));
                    if model.consumers.contains_key(&c) {
                        prop_assert_eq!(got, Err(AssignError::DuplicateConsumer { consumer: c }));
                        continue;
                    }
                    model.add(c, NAMES[n]);
                    prop_assert_eq!(sel.name_index(c), model.consumers[&c].1);
                    let expected: Vec<u32> = model.consumers[&c].1.map_or(Vec::new(), |index| {
                        (0..points).map(|i| model.point(NAMES[n], index, i)).collect()
                    });
                    prop_assert_eq!(sel.consumer_points(c).collect::<Vec<_>>(), expected);
                    (got.expect("the broker's add never fails"), c, true)
                }
                Op::Remove(c) => {
                    model.remove(c);
                    (impact_of(&sel.remove(c)), c, false)
                }
            };
            let after = snapshot(sel.assignments());
            prop_assert_eq!(&after, &model.snapshot());
            assert_tiles(&after, 1, i64::from(max))?;
            prop_assert_eq!(&impact, &java_diff(&before, &after));
            prop_assert_eq!(group(sel.consumer_ranges().map(|a| (a.consumer, a.range))), by_consumer(&after));
            prop_assert_eq!(sel.len(), model.consumers.len());
            // Nothing moves between two consumers that both stay.
            let (removed, added) = &impact;
            if is_add {
                prop_assert!(added.keys().all(|&c| c == op_consumer));
                prop_assert!(!removed.contains_key(&op_consumer));
            } else {
                prop_assert!(removed.keys().all(|&c| c == op_consumer));
                prop_assert!(!added.contains_key(&op_consumer));
            }
            check_select_everywhere(&sel, &model, &after)?;
        }
        select_matches_snapshot_everywhere(&snapshot(sel.assignments()), |h| sel.select(h))?;
    }

    #[test]
    fn consistent_hashing_add_then_remove_restores(
        points in prop_oneof![Just(1u32), Just(3), Just(100)],
        max in prop_oneof![Just(20u32), Just(65535), Just(2_147_483_646)],
        ops in ops(24, NAMES.len(), 30),
        extra in 100u64..200,
        name in 0..NAMES.len(),
    ) {
        let mut sel = new_consistent(points, max);
        for op in ops {
            match op {
                Op::Add(c, n) => { let _ = sel.add(c, NAMES[n]); }
                Op::Remove(c) => { sel.remove(c); }
            }
        }
        let before = snapshot(sel.assignments());
        let ids_before: Vec<_> = sel.consumers().map(|c| (c, sel.name_index(c))).collect();
        let added = impact_of(&sel.add(extra, NAMES[name]).unwrap());
        let removed = impact_of(&sel.remove(extra));
        prop_assert_eq!(snapshot(sel.assignments()), before);
        let ids_after: Vec<_> = sel.consumers().map(|c| (c, sel.name_index(c))).collect();
        prop_assert_eq!(ids_after, ids_before);
        // The removal undoes the add exactly.
        prop_assert_eq!(added.0, removed.1);
        prop_assert_eq!(added.1, removed.0);
    }

    #[test]
    fn slots_stay_in_their_range(key in proptest::collection::vec(any::<u8>(), 0..64)) {
        for range in [KeyHashRange::AUTO_SPLIT, KeyHashRange::CONSISTENT_HASHING, KeyHashRange::CLASSIC_CONSISTENT_HASHING] {
            let slot = range.slot_of(&key);
            prop_assert!(slot >= range.start().max(1) && slot <= range.end());
            let m = murmur3_32(&key);
            let expected = (m % range.size() + range.start()).max(1);
            prop_assert_eq!(slot, expected);
        }
    }

    /// The fold for 65535 (consistent hashing's default range) agrees with
    /// `%`, as does the general path for the sizes around it.
    #[test]
    fn reduce_is_modulo_for_every_hash(h in any::<u32>(), start in 0u32..3) {
        for size in [65534u32, 65535, 65536, 65537] {
            let range = KeyHashRange::new(start, start + size - 1).unwrap();
            let expected = ((h & 0x7fff_ffff) % size + start).max(1);
            prop_assert_eq!(range.reduce(h), expected, "size {}", size);
        }
    }
}

// ---------------------------------------------------------------- Exclusive

/// Master's `HashRangeExclusiveStickyKeyConsumerSelector`, transcribed.
#[derive(Default)]
struct ExclusiveModel {
    map: BTreeMap<i32, ((i32, i32), u64)>,
    live: Vec<u64>,
}

fn overlaps(a: (i32, i32), b: (i32, i32)) -> bool {
    a.0.max(b.0) <= a.1.min(b.1)
}

impl ExclusiveModel {
    fn add(&mut self, c: u64, ranges: Option<&[(i32, i32)]>) -> Result<(), String> {
        let ranges = ranges.ok_or("Must specify key shared meta for consumer.")?;
        if ranges.is_empty() {
            return Err("Ranges for KeyShared policy must not be empty.".into());
        }
        let mut sorted = ranges.to_vec();
        sorted.sort_by_key(|r| r.0);
        for (i, r) in sorted.iter().enumerate() {
            if r.0 > r.1 {
                return Err(format!(
                    "Fixed hash range start > end for range: [{},{}]",
                    r.0, r.1
                ));
            }
            if let Some(n) = sorted.get(i + 1)
                && overlaps(*r, *n)
            {
                return Err(format!(
                    "Consumer's own ranges conflict: [{},{}] overlaps with [{},{}]",
                    r.0, r.1, n.0, n.1
                ));
            }
        }
        for r in ranges {
            let floor = self.map.range(..=r.0).next_back();
            let ceiling = self.map.range(r.0..).next();
            for (_, (range, owner)) in floor.into_iter().chain(ceiling) {
                if overlaps(*r, *range) {
                    return Err(format!(
                        "Range conflict with consumer Consumer{{consumerId={owner}}}"
                    ));
                }
            }
        }
        for r in ranges {
            self.map.insert(r.0, (*r, c));
        }
        self.live.push(c);
        Ok(())
    }

    fn remove(&mut self, c: u64) {
        self.map.retain(|_, (_, o)| *o != c);
        self.live.retain(|&x| x != c);
    }

    fn select(&self, h: u32) -> Option<u64> {
        // 4.2.4 and master (spec §7): the floor entry of the hash as it is,
        // Java's int, with no reduction.
        let slot = h as i32;
        let (_, (range, owner)) = self.map.range(..=slot).next_back()?;
        (range.0 <= slot && slot <= range.1).then_some(*owner)
    }
}

/// The pre-#24730 selector, transcribed.
#[derive(Default)]
struct LegacyModel {
    map: BTreeMap<i32, u64>,
    declared: HashMap<u64, Vec<(i32, i32)>>,
}

impl LegacyModel {
    fn add(&mut self, c: u64, ranges: Option<&[(i32, i32)]>) -> Result<(), String> {
        let ranges = ranges.ok_or("Must specify key shared meta for consumer.")?;
        if ranges.is_empty() {
            return Err("Ranges for KeyShared policy must not be empty.".into());
        }
        let conflict = |o: u64| format!("Range conflict with consumer Consumer{{consumerId={o}}}");
        for r in ranges {
            if r.0 > r.1 {
                return Err("Fixed hash range start > end".into());
            }
            let ceiling = self.map.range(r.0..).next();
            let floor = self.map.range(..=r.1).next_back();
            if let Some((&k, &o)) = floor
                && k >= r.0
            {
                return Err(conflict(o));
            }
            if let Some((&k, &o)) = ceiling
                && k <= r.1
            {
                return Err(conflict(o));
            }
            if let (Some((_, &co)), Some((_, &fo))) = (ceiling, floor)
                && co == fo
                && self.declared[&co].iter().any(|d| overlaps(*r, *d))
            {
                return Err(conflict(co));
            }
        }
        for r in ranges {
            self.map.insert(r.0, c);
            self.map.insert(r.1, c);
        }
        self.declared.insert(c, ranges.to_vec());
        Ok(())
    }

    fn remove(&mut self, c: u64) {
        self.map.retain(|_, o| *o != c);
        self.declared.remove(&c);
    }

    fn select(&self, h: u32) -> Option<u64> {
        let slot = (h % 65536) as i32;
        let floor = self.map.range(..=slot).next_back().map(|(_, &o)| o);
        let ceiling = self.map.range(slot..).next().map(|(_, &o)| o);
        floor.filter(|&f| Some(f) == ceiling)
    }

    fn ranges(&self) -> Ranges {
        let keys: Vec<_> = self.map.iter().collect();
        let mut out = Ranges::new();
        for pair in keys.chunks_exact(2) {
            if pair[0].1 == pair[1].1 {
                out.entry(*pair[0].1)
                    .or_default()
                    .push((i64::from(*pair[0].0), i64::from(*pair[1].0)));
            }
        }
        out
    }
}

fn any_ranges() -> impl Strategy<Value = Option<Vec<(i32, i32)>>> {
    let bound = prop_oneof![
        8 => 0i32..65536,
        1 => -10i32..10,
        1 => 65530i32..65545,
        1 => 0i32..200,
    ];
    let range = (bound.clone(), 0i32..3000, any::<bool>()).prop_map(|(s, w, flip)| {
        if flip && w % 17 == 0 {
            (s, s - 1 - w % 5)
        } else {
            (s, s.saturating_add(w))
        }
    });
    prop_oneof![
        1 => Just(None),
        20 => proptest::collection::vec(range, 0..5).prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn exclusive_matches_the_models(
        steps in proptest::collection::vec((0u64..12, any_ranges(), any::<bool>()), 0..24),
    ) {
        let new = |mode| {
            let config = ExclusiveConfig::new(16, 64).with_mode(mode);
            ExclusiveSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap()
        };
        let mut current = new(ExclusiveMode::Current);
        let mut legacy = new(ExclusiveMode::LegacyPre24730);
        let mut model = ExclusiveModel::default();
        let mut old = LegacyModel::default();
        for (c, ranges, remove) in steps {
            if remove {
                current.remove(c);
                legacy.remove(c);
                model.remove(c);
                old.remove(c);
            } else {
                let declared: Option<Vec<HashRange>> =
                    ranges.as_ref().map(|r| r.iter().map(|&x| x.into()).collect());
                let got = current.add(c, declared.as_deref()).map(|_| ());
                let got_legacy = legacy.add(c, declared.as_deref()).map(|_| ());
                if model.live.contains(&c) {
                    prop_assert_eq!(got, Err(AssignError::DuplicateConsumer { consumer: c }));
                } else {
                    // 12 consumers of at most 4 ranges always fit in 64.
                    let expected = model.add(c, ranges.as_deref());
                    prop_assert_eq!(got.map_err(|e| e.to_string()), expected);
                }
                if old.declared.contains_key(&c) {
                    prop_assert_eq!(got_legacy, Err(AssignError::DuplicateConsumer { consumer: c }));
                } else {
                    let expected = old.add(c, ranges.as_deref());
                    prop_assert_eq!(got_legacy.map_err(|e| e.to_string()), expected);
                }
                // The client agrees with itself on what it accepts: a valid
                // policy never fails the broker's own-range checks.
                if let Some(d) = &declared
                    && validate_sticky_ranges(d).is_ok() {
                        if let Err(e) = current.add(999, Some(d)) {
                            let expected_kind = matches!(
                                e,
                                AssignError::RangeConflict { .. }
                                    | AssignError::ConsumerCapacity { .. }
                                    | AssignError::RangeCapacity { .. }
                            );
                            prop_assert!(expected_kind, "{}", e);
                        } else {
                            current.remove(999);
                        }
                    }
            }
            let bounds: Snapshot = model
                .map
                .values()
                .map(|&((a, b), c)| (i64::from(a), i64::from(b), c))
                .chain(old.map.keys().map(|&k| (i64::from(k), i64::from(k), 0)))
                .collect();
            for h in probes(&bounds, 65535) {
                prop_assert_eq!(current.select(h), model.select(h), "select({})", h);
                prop_assert_eq!(legacy.select(h), old.select(h), "legacy select({})", h);
            }
            let mut expected = Ranges::new();
            for (range, owner) in model.map.values() {
                expected.entry(*owner).or_default().push((i64::from(range.0), i64::from(range.1)));
            }
            let expected: Ranges = expected.into_iter().map(|(c, r)| (c, merge(r))).collect();
            prop_assert_eq!(group(current.consumer_ranges().map(|a| (a.consumer, a.range))), expected);
            prop_assert_eq!(group(legacy.consumer_ranges().map(|a| (a.consumer, a.range))), old.ranges());
        }
        for h in 0..65536u32 {
            prop_assert_eq!(current.select(h), model.select(h), "select({})", h);
            prop_assert_eq!(legacy.select(h), old.select(h), "legacy select({})", h);
        }
    }

    #[test]
    fn client_validation_matches_java(ranges in proptest::collection::vec((-5i32..70000, -5i32..70000), 0..6)) {
        let declared: Vec<HashRange> = ranges.iter().map(|&r| r.into()).collect();
        let got = validate_sticky_ranges(&declared).map_err(|e| e.to_string());
        let expected = (|| {
            if ranges.iter().any(|r| r.1 < r.0) {
                return Err("Range end must >= range start.".to_string());
            }
            if ranges.is_empty() {
                return Err("Ranges for KeyShared policy must not be empty.".to_string());
            }
            for (i, a) in ranges.iter().enumerate() {
                if a.0 < 0 || a.1 > 65535 {
                    return Err(format!("Ranges must be [0, 65535] but provided range is [{}, {}]", a.0, a.1));
                }
                for (j, b) in ranges.iter().enumerate() {
                    if i != j && overlaps(*a, *b) {
                        return Err(format!(
                            "Ranges for KeyShared policy with overlap between [{}, {}] and [{}, {}]",
                            a.0, a.1, b.0, b.1
                        ));
                    }
                }
            }
            Ok(())
        })();
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn capacity_errors_leave_the_selector_unchanged() {
    let config = ConsistentHashingConfig::new(2).with_name_bytes(8);
    let mut sel =
        ConsistentHashingSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
    sel.add(1, "a").unwrap();
    let before = snapshot(sel.assignments());
    // 8 bytes of names, plus one word of rounding per consumer.
    assert_eq!(
        sel.add(2, "a-much-longer-name").unwrap_err(),
        AssignError::NameCapacity
    );
    assert_eq!(snapshot(sel.assignments()), before);
    sel.add(2, "b").unwrap();
    assert_eq!(
        sel.add(3, "c").unwrap_err(),
        AssignError::ConsumerCapacity { max_consumers: 2 }
    );
    sel.remove(1);
    sel.add(3, "a-name-of-12").unwrap();
    assert_eq!(sel.name_index(3), Some(0));

    let config = ExclusiveConfig::new(4, 2);
    let mut ex = ExclusiveSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
    let three = [(0, 1), (5, 6), (9, 9)].map(HashRange::from);
    assert_eq!(
        ex.add(1, Some(&three)).unwrap_err(),
        AssignError::RangeCapacity { max_ranges: 2 }
    );
    // Java's own errors come first, even past the capacity.
    let bad = [(0, 1), (5, 4), (9, 9)].map(HashRange::from);
    assert_eq!(
        ex.add(1, Some(&bad)).unwrap_err().to_string(),
        "Fixed hash range start > end for range: [5,4]"
    );
    assert!(ex.is_empty());

    let storage_err = AutoSplitSelector::new(AutoSplitConfig::new(4), vec![0u32; 3]).unwrap_err();
    assert!(
        storage_err
            .to_string()
            .starts_with("selector storage too small")
    );
}

#[test]
fn thousands_of_consumers_stay_consistent() {
    // Unoptimised builds get a smaller crowd; the algorithms are the same.
    let n: u64 = if cfg!(debug_assertions) {
        2_000
    } else {
        10_000
    };
    let config = ConsistentHashingConfig::new(n as u32).with_name_bytes(200_000);
    let mut sel =
        ConsistentHashingSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
    for c in 0..n {
        sel.add(c, format!("consumer-{}", c % (n * 7 / 10)))
            .unwrap();
    }
    let s = snapshot(sel.assignments());
    assert_tiles(&s, 1, 65535).unwrap();
    for &(start, end, c) in &s {
        assert_eq!(sel.select(start as u32), Some(c));
        assert_eq!(sel.select(end as u32), Some(c));
    }
    for c in (0..n).step_by(3) {
        sel.remove(c);
    }
    let s = snapshot(sel.assignments());
    assert_tiles(&s, 1, 65535).unwrap();
    assert!(s.iter().all(|&(_, _, c)| c % 3 != 0));
    for &(start, end, c) in &s {
        assert_eq!(sel.select(start as u32), Some(c));
        assert_eq!(sel.select(end as u32), Some(c));
    }
}

#[test]
fn storage_formulas_are_the_documented_ones() {
    let index = |c: usize| (2 * c).max(2).next_power_of_two();
    for c in [0usize, 1, 3, 1000, 10_000] {
        for size in [2i32, 64, 65536, 1 << 20] {
            let flat = if size <= 65536 { size as usize + 1 } else { 0 };
            let config = AutoSplitConfig::new(c as u32).with_range_size(size);
            assert_eq!(config.storage_words(), Ok(6 * c + 16 + index(c) + flat));
        }
        for r in [0usize, 5, 4096] {
            let current = ExclusiveConfig::new(c as u32, r as u32);
            assert_eq!(
                current.storage_words(),
                Ok(4 * c + index(c) + 12 * r + 65536)
            );
            let legacy = current.with_mode(ExclusiveMode::LegacyPre24730);
            assert_eq!(
                legacy.storage_words(),
                Ok(4 * c + index(c) + 40 * r + 16 + 65536)
            );
        }
        for p in [0usize, 1, 100] {
            for m in [7usize, 65535, 65536, 2_147_483_646] {
                let config = ConsistentHashingConfig::new(c as u32)
                    .with_points(p as u32)
                    .with_range_max(m as u32)
                    .with_name_bytes(1001);
                // Two words per slot, and a spare word when `C * P` is odd
                // so that the table starts at an even word.
                let flat = if m <= 65536 {
                    2 * (m + 1) + (c * p) % 2
                } else {
                    0
                };
                let expected = 2 * c * p
                    + 8 * c
                    + index(c)
                    + 2 * (c * p).min(m)
                    + 1001usize.div_ceil(4)
                    + 9 * p
                    + 24
                    + flat;
                assert_eq!(config.storage_words(), Ok(expected), "c {c} p {p} m {m}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A selector that starts small and grows whenever it runs out of room
    /// behaves exactly as one that was big from the start.
    #[test]
    fn growing_changes_nothing(
        ops in ops(24, NAMES.len(), 50),
        points in prop_oneof![Just(0u32), Just(1), Just(7), Just(100)],
        max in prop_oneof![Just(50u32), Just(65535), Just(2_147_483_646)],
    ) {
        let big_config = ConsistentHashingConfig::new(32).with_points(points).with_range_max(max).with_name_bytes(512);
        let mut big = ConsistentHashingSelector::new(big_config, vec![0; big_config.storage_words().unwrap()]).unwrap();
        let mut config = ConsistentHashingConfig::new(1).with_points(points).with_range_max(max).with_name_bytes(4);
        let mut small = ConsistentHashingSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
        let auto_config = AutoSplitConfig::new(32);
        let mut auto_big = AutoSplitSelector::new(auto_config, vec![0; auto_config.storage_words().unwrap()]).unwrap();
        let mut auto_cap = 1;
        let mut auto_small = new_auto_split_with(auto_cap);
        let ex_config = ExclusiveConfig::new(32, 64).with_mode(ExclusiveMode::LegacyPre24730);
        let mut ex_big = ExclusiveSelector::new(ex_config, vec![0; ex_config.storage_words().unwrap()]).unwrap();
        let mut ex_small_config = ExclusiveConfig::new(1, 1).with_mode(ExclusiveMode::LegacyPre24730);
        let mut ex_small = ExclusiveSelector::new(ex_small_config, vec![0; ex_small_config.storage_words().unwrap()]).unwrap();
        for op in ops {
            match op {
                Op::Add(c, n) => {
                    let expected = big.add(c, NAMES[n]).map(|i| impact_of(&i));
                    let got = loop {
                        match small.add(c, NAMES[n]) {
                            Err(AssignError::ConsumerCapacity { .. } | AssignError::NameCapacity) => {
                                config = config
                                    .with_name_bytes(config.name_bytes * 2 + 8)
                                    .with_points(points);
                                config.max_consumers *= 2;
                                small = small.grow(config, vec![0; config.storage_words().unwrap()]).unwrap();
                            }
                            other => break other.map(|i| impact_of(&i)),
                        }
                    };
                    prop_assert_eq!(got, expected);
                    let expected = auto_big.add(c).map(|i| impact_of(&i));
                    let got = loop {
                        match auto_small.add(c) {
                            Err(AssignError::ConsumerCapacity { .. }) => {
                                auto_cap *= 2;
                                let config = AutoSplitConfig::new(auto_cap);
                                auto_small = auto_small.grow(config, vec![0; config.storage_words().unwrap()]).unwrap();
                            }
                            other => break other.map(|i| impact_of(&i)),
                        }
                    };
                    prop_assert_eq!(got, expected);
                    let declared = [HashRange::new(n as i32 * 1000, n as i32 * 1000 + c as i32), HashRange::new(60000 + c as i32, 60000 + c as i32)];
                    let expected = ex_big.add(c, Some(&declared));
                    let got = loop {
                        match ex_small.add(c, Some(&declared)) {
                            Err(AssignError::ConsumerCapacity { .. } | AssignError::RangeCapacity { .. }) => {
                                ex_small_config.max_consumers *= 2;
                                ex_small_config.max_ranges *= 2;
                                ex_small = ex_small.grow(ex_small_config, vec![0; ex_small_config.storage_words().unwrap()]).unwrap();
                            }
                            other => break other,
                        }
                    };
                    prop_assert_eq!(got, expected);
                }
                Op::Remove(c) => {
                    prop_assert_eq!(impact_of(&small.remove(c)), impact_of(&big.remove(c)));
                    prop_assert_eq!(impact_of(&auto_small.remove(c)), impact_of(&auto_big.remove(c)));
                    ex_small.remove(c);
                    ex_big.remove(c);
                }
            }
            prop_assert_eq!(snapshot(small.assignments()), snapshot(big.assignments()));
            prop_assert_eq!(impact_of(&small.last_impact()), impact_of(&big.last_impact()));
            prop_assert_eq!(snapshot(auto_small.assignments()), snapshot(auto_big.assignments()));
            prop_assert_eq!(snapshot(ex_small.consumer_ranges()), snapshot(ex_big.consumer_ranges()));
            for c in 0..26 {
                prop_assert_eq!(small.name_index(c), big.name_index(c));
                prop_assert_eq!(small.consumer_points(c).collect::<Vec<_>>(), big.consumer_points(c).collect::<Vec<_>>());
                prop_assert_eq!(auto_small.contains(c), auto_big.contains(c));
                prop_assert_eq!(ex_small.contains(c), ex_big.contains(c));
            }
            for h in [0u32, 1, 2, 1000, 32768, 65535, 65536] {
                prop_assert_eq!(small.select(h), big.select(h));
                prop_assert_eq!(auto_small.select(h), auto_big.select(h));
                prop_assert_eq!(ex_small.select(h), ex_big.select(h));
            }
        }
    }
}

fn new_auto_split_with(max_consumers: u32) -> AutoSplitSelector<Vec<u32>> {
    let config = AutoSplitConfig::new(max_consumers);
    AutoSplitSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap()
}

#[test]
fn growing_into_other_rules_is_refused() {
    let config = ConsistentHashingConfig::new(4);
    let sel =
        ConsistentHashingSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
    for other in [
        config.with_points(99),
        config.with_range_max(1000),
        ConsistentHashingConfig::new(3),
        config.with_name_bytes(1),
    ] {
        let err = sel.grow(other, vec![0u32; 1 << 20]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a selector can only grow into a config with the same rules and capacities at least as large"
        );
    }
    let auto = new_auto_split_with(4);
    assert!(
        auto.grow(
            AutoSplitConfig::new(8).with_range_size(64),
            vec![0u32; 1 << 17]
        )
        .is_err()
    );
    assert!(
        auto.grow(AutoSplitConfig::new(2), vec![0u32; 1 << 17])
            .is_err()
    );
    let grown = auto.grow(AutoSplitConfig::new(8), vec![0u32; 8]);
    assert!(matches!(
        grown,
        Err(pulsar_routing::key_shared::ConfigError::StorageTooSmall { .. })
    ));
}

/// Found by the model test: with a range too big for the flat table, an
/// emptied selector must not answer from stale entries.
#[test]
fn auto_split_without_table_forgets_removed_consumers() {
    let mut sel = new_auto_split(1 << 20);
    sel.add(21).unwrap();
    assert_eq!(sel.select(0), Some(21));
    sel.remove(21);
    assert_eq!(sel.select(0), None);
    assert_eq!(sel.select(1 << 20), None);
}

/// The consumer of every slot, `u64::MAX` for none.
fn owners(sel: &ExclusiveSelector<Vec<u32>>) -> Vec<u64> {
    (0..65536)
        .map(|slot| sel.select(slot).unwrap_or(u64::MAX))
        .collect()
}

/// What moved between two owner tables: per consumer, the runs of slots it
/// lost and gained.
fn moved(before: &[u64], after: &[u64]) -> (Ranges, Ranges) {
    let (mut removed, mut added) = (Ranges::new(), Ranges::new());
    let push = |side: &mut Ranges, c: u64, slot: i64| {
        let runs = side.entry(c).or_default();
        match runs.last_mut() {
            Some(last) if last.1 + 1 == slot => last.1 = slot,
            _ => runs.push((slot, slot)),
        }
    };
    for (slot, (&was, &now)) in before.iter().zip(after).enumerate() {
        if was != now {
            if was != u64::MAX {
                push(&mut removed, was, slot as i64);
            }
            if now != u64::MAX {
                push(&mut added, now, slot as i64);
            }
        }
    }
    (removed, added)
}

/// The impact's lists in slot order: each entry starts after the previous
/// one ends (one slot has one owner before and one after).
fn in_slot_order(impact: &Impact<'_>) -> bool {
    let ordered = |side: Vec<(u64, HashRange)>| side.windows(2).all(|w| w[0].1.end < w[1].1.start);
    ordered(impact.removed().collect()) && ordered(impact.added().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Java's exclusive selector reports no impact; this one reports what
    /// moved. Current rules: exactly the consumer's declared ranges (clipped
    /// to the slots that exist), derived here from the declaration alone.
    /// Both rules: exactly the slots whose `select` answer changed.
    #[test]
    fn exclusive_impact_is_what_moved(
        steps in proptest::collection::vec((0u64..8, any_ranges(), any::<bool>()), 0..12),
    ) {
        for mode in [ExclusiveMode::Current, ExclusiveMode::LegacyPre24730] {
            // Small capacities: the storage grows in the middle of the run,
            // and the last impact must survive the move.
            let config = ExclusiveConfig::new(2, 4).with_mode(mode);
            let mut sel = ExclusiveSelector::new(config, vec![0; config.storage_words().unwrap()]).unwrap();
            let mut declared_by: HashMap<u64, Vec<(i64, i64)>> = HashMap::new();
            for (c, ranges, remove) in &steps {
                let before = owners(&sel);
                let declared: Option<Vec<HashRange>> =
                    ranges.as_ref().map(|r| r.iter().map(|&x| x.into()).collect());
                let got = if *remove {
                    let impact = sel.remove(*c);
                    Some((impact_of(&impact), in_slot_order(&impact)))
                } else {
                    let mut result = sel.add(*c, declared.as_deref()).map(|_| ());
                    if matches!(result, Err(AssignError::ConsumerCapacity { .. } | AssignError::RangeCapacity { .. })) {
                        prop_assert!(sel.last_impact().is_empty(), "a failed add empties the impact");
                        let bigger = ExclusiveConfig::new(16, 64).with_mode(mode);
                        sel = sel.grow(bigger, vec![0; bigger.storage_words().unwrap()]).unwrap();
                        result = sel.add(*c, declared.as_deref()).map(|_| ());
                    }
                    let impact = sel.last_impact();
                    result.ok().map(|()| (impact_of(&impact), in_slot_order(&impact)))
                };
                let Some((got, ordered)) = got else {
                    prop_assert!(sel.last_impact().is_empty(), "a failed add empties the impact");
                    continue;
                };
                prop_assert!(ordered, "impact lists in slot order");
                prop_assert_eq!(&got, &moved(&before, &owners(&sel)));
                // The last impact is the one returned, also after a grow.
                prop_assert_eq!(impact_of(&sel.last_impact()), got.clone());
                let bigger = ExclusiveConfig::new(32, 128).with_mode(mode);
                let grown = sel.grow(bigger, vec![0; bigger.storage_words().unwrap()]).unwrap();
                prop_assert_eq!(impact_of(&grown.last_impact()), got.clone());
                if mode == ExclusiveMode::Current {
                    let clip = |(s, e): (i64, i64)| (s.max(0), e.min(65535));
                    let own: Vec<(i64, i64)> = if *remove {
                        declared_by.remove(c).unwrap_or_default()
                    } else {
                        let mine = ranges.clone().unwrap_or_default();
                        let mine: Vec<(i64, i64)> = mine.iter().map(|&(s, e)| (i64::from(s), i64::from(e))).collect();
                        declared_by.insert(*c, mine.clone());
                        mine
                    };
                    let own = merge(own.into_iter().map(clip).filter(|r| r.0 <= r.1).collect());
                    let expected: Ranges = if own.is_empty() { Ranges::new() } else { [(*c, own)].into() };
                    let (removed, added) = &got;
                    if *remove {
                        prop_assert_eq!(removed, &expected);
                        prop_assert!(added.is_empty());
                    } else {
                        prop_assert_eq!(added, &expected);
                        prop_assert!(removed.is_empty());
                    }
                }
            }
        }
    }
}
