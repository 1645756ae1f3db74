//! The sticky-ranges selector (`HashRangeExclusiveStickyKeyConsumerSelector`):
//! `STICKY` mode, where each consumer declares the ranges it wants.

use super::impact::{ENTRY_WORDS, ImpactWriter, read, writers};
use super::storage::{
    LayoutBuilder, NONE, Region, copy_prefix, fill, find_handle, id_at, id_index_len, index_insert,
    index_remove, init_free, insert_at, mul, pop_free, push_free, rd, rebuild_handles, region,
    set_id, split_mut, split_ref, wr,
};
use super::{AssignError, Assignment, ConfigError, ConsumerId, HashRange, Impact, KeyHashRange};

/// The slots of the table: `select` reduces a hash modulo 65536 as Java does.
const SLOTS: usize = 65536;

/// Which broker release's rules the [`ExclusiveSelector`] follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExclusiveMode {
    /// master and 4.0.7+ (PR #24730): a slot belongs to the consumer whose
    /// declared range contains it, and to nobody in the gaps; own ranges may
    /// not overlap.
    #[default]
    Current,
    /// 2.x, 3.x and 4.0.0–4.0.6 (golden field `broker_pre_24730`): only the
    /// range ends are stored, so the slots in the gaps between one
    /// consumer's ranges are delivered to it; own ranges are not checked
    /// against each other; the conflict reported can differ; stats pair
    /// consecutive stored bounds.
    LegacyPre24730,
}

/// The size and rules of an [`ExclusiveSelector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExclusiveConfig {
    /// How many consumers the storage holds.
    pub max_consumers: u32,
    /// How many declared ranges, over all consumers, the storage holds.
    pub max_ranges: u32,
    /// Current or legacy rules.
    pub mode: ExclusiveMode,
}

/// Regions, in order: ids, state, declared starts, ends and owners (sorted
/// by start), legacy bounds and their owners, slot table, scratch, last
/// impact, id index, free handles.
#[derive(Clone, Copy, Debug)]
struct Layout {
    regions: [Region; 12],
    total: usize,
    /// Entries per impact list.
    impact_entries: usize,
}

impl ExclusiveConfig {
    /// Room for `max_consumers` consumers and `max_ranges` ranges in all,
    /// with the current rules.
    #[must_use]
    pub const fn new(max_consumers: u32, max_ranges: u32) -> Self {
        Self {
            max_consumers,
            max_ranges,
            mode: ExclusiveMode::Current,
        }
    }

    /// The same config with other rules.
    #[must_use]
    pub const fn with_mode(self, mode: ExclusiveMode) -> Self {
        Self { mode, ..self }
    }

    /// The number of `u32` words of storage the selector needs, with
    /// `C = max_consumers` and `R = max_ranges`:
    /// `4 * C + I + 12 * R + 65536` (the last term is the flat slot table,
    /// `8 * R` the last impact), plus `28 * R + 16` with the legacy rules
    /// (the stored range ends, and room for the gaps an add or remove
    /// moves); `I`, the id index, is the smallest power of two `>= 2 * C`
    /// (at least 2).
    ///
    /// # Errors
    /// [`ConfigError::CapacityTooLarge`] when the size overflows.
    pub fn storage_words(&self) -> Result<usize, ConfigError> {
        Ok(self.layout()?.total)
    }

    fn layout(&self) -> Result<Layout, ConfigError> {
        if self.max_consumers == NONE || self.max_ranges >= NONE / 2 {
            return Err(ConfigError::CapacityTooLarge);
        }
        let c = self.max_consumers as usize;
        let r = self.max_ranges as usize;
        let is_legacy = self.mode == ExclusiveMode::LegacyPre24730;
        let legacy = if is_legacy { mul(r, 2) } else { Some(0) };
        // Current rules: an add or remove moves the consumer's own ranges,
        // at most R. Legacy rules: the table changes only where the stored
        // bounds or the gaps between them do; with at most 2R bounds the
        // table has at most 4R + 1 pieces, so no list has more entries.
        let impact_entries = if is_legacy {
            mul(r, 4).and_then(|n| n.checked_add(2))
        } else {
            Some(r)
        };
        let mut b = LayoutBuilder::new();
        let regions = [
            b.region(mul(c, 2)),
            b.region(Some(c)),
            b.region(Some(r)),
            b.region(Some(r)),
            b.region(Some(r)),
            b.region(legacy),
            b.region(legacy),
            b.region(Some(SLOTS)),
            b.region(Some(r)),
            b.region(impact_entries.and_then(|n| mul(n, 2 * ENTRY_WORDS))),
            b.region(id_index_len(c)),
            b.region(Some(c)),
        ];
        let total = b.total().ok_or(ConfigError::CapacityTooLarge)?;
        Ok(Layout {
            regions,
            total,
            impact_entries: impact_entries.unwrap_or(0),
        })
    }
}

/// The Exclusive (sticky ranges) selector: each consumer declares its
/// ranges, which may not overlap another consumer's.
///
/// `add` checks, in the broker's order and with its messages: a
/// `KeySharedMeta` is present, the ranges are not empty, then, sorted by
/// start, each has `start <= end` and does not overlap the next, then none
/// overlaps another consumer's (the first conflict found, checking each
/// range against the stored ranges at and after its start). The broker does
/// not check bounds (`[60000, 70000]` is accepted; slots above 65535 never
/// occur); the client does ([`super::validate_sticky_ranges`]).
///
/// Costs, with `r` the consumer's ranges and `R` all stored ranges:
/// `select` is one table lookup; `add` is O(r log r + r·R) plus the table
/// update (the slots of its ranges), `remove` O(R) plus the same; with the
/// legacy rules both rebuild the 65536-slot table.
///
/// # Impact
/// Java's exclusive selector reports no impact (its `addConsumer` returns
/// an empty `ImpactedConsumersResult`). This one reports what actually
/// moved, as [`ExclusiveSelector::select`] answers before and after, in
/// slot order like the other selectors: with the current rules, an add's
/// `added` is the consumer's declared ranges and a remove's `removed` its
/// ranges, clipped to the slots `[0, 65535]` (the broker accepts bounds
/// beyond them, which no key reaches) and merged when adjacent; with the
/// legacy rules, the gaps a consumer is delivered or loses are included,
/// and an add can take a gap from another consumer (`removed`).
///
/// ```
/// use pulsar_routing::key_shared::{ExclusiveConfig, ExclusiveSelector, HashRange};
/// let config = ExclusiveConfig::new(4, 16);
/// let mut sel = ExclusiveSelector::new(config, vec![0u32; config.storage_words()?])?;
/// let impact = sel.add(1, Some(&[HashRange::new(20000, 29999), HashRange::new(0, 9999)]))?;
/// // What moved, in slot order: the declared ranges, to the new consumer.
/// let added: Vec<_> = impact.added().collect();
/// assert_eq!(added, [(1, HashRange::new(0, 9999)), (1, HashRange::new(20000, 29999))]);
/// assert_eq!(impact.removed().len(), 0);
/// assert_eq!(sel.select(15000), None); // a gap: nobody
/// let err = sel.add(2, Some(&[HashRange::new(9000, 12000)])).unwrap_err();
/// assert_eq!(err.to_string(), "Range conflict with consumer Consumer{consumerId=1}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ExclusiveSelector<S> {
    storage: S,
    config: ExclusiveConfig,
    layout: Layout,
    consumers: u32,
    ranges: u32,
    keys: u32,
    removed_len: u32,
    added_len: u32,
}

impl<S: AsRef<[u32]> + AsMut<[u32]>> ExclusiveSelector<S> {
    /// An empty selector working in `storage`, which must hold at least
    /// [`ExclusiveConfig::storage_words`] words (its contents are
    /// overwritten).
    ///
    /// # Errors
    /// [`ConfigError::CapacityTooLarge`] and [`ConfigError::StorageTooSmall`].
    pub fn new(config: ExclusiveConfig, mut storage: S) -> Result<Self, ConfigError> {
        let layout = config.layout()?;
        let words = storage.as_mut();
        let got = words.len();
        let all = words
            .get_mut(..layout.total)
            .ok_or(ConfigError::StorageTooSmall {
                needed: layout.total,
                got,
            })?;
        all.fill(NONE);
        let [.., free] = split_mut(all, &layout.regions);
        init_free(free);
        Ok(Self {
            storage,
            config,
            layout,
            consumers: 0,
            ranges: 0,
            keys: 0,
            removed_len: 0,
            added_len: 0,
        })
    }

    /// The selector's slots, `[0, 65535]`.
    #[must_use]
    pub const fn key_hash_range(&self) -> KeyHashRange {
        KeyHashRange::EXCLUSIVE
    }

    /// Its config: room and rules.
    #[must_use]
    pub const fn config(&self) -> &ExclusiveConfig {
        &self.config
    }

    /// The rules it follows.
    #[must_use]
    pub const fn mode(&self) -> ExclusiveMode {
        self.config.mode
    }

    /// The number of consumers.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.consumers as usize
    }

    /// True without consumers.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.consumers == 0
    }

    /// Whether `consumer` is in the selector.
    #[must_use]
    pub fn contains(&self, consumer: ConsumerId) -> bool {
        let [ids, .., lookup, _] = split_ref(self.storage.as_ref(), &self.layout.regions);
        find_handle(ids, lookup, consumer).is_some()
    }

    /// Adds a consumer with its declared ranges; `None` is a consumer that
    /// sent no `KeySharedMeta`.
    ///
    /// # Errors
    /// [`AssignError::DuplicateConsumer`] first; then the broker's
    /// [`AssignError::MissingKeySharedMeta`], [`AssignError::EmptyRanges`],
    /// [`AssignError::StartAfterEnd`], [`AssignError::OwnRangesConflict`]
    /// and [`AssignError::RangeConflict`] (legacy rules:
    /// [`AssignError::LegacyStartAfterEnd`] and [`AssignError::RangeConflict`],
    /// range by range); then [`AssignError::ConsumerCapacity`] and
    /// [`AssignError::RangeCapacity`]. Nothing changes on error but the last
    /// impact, which is emptied.
    ///
    /// Returns what moved (see [Impact](ExclusiveSelector#impact)).
    pub fn add(
        &mut self,
        consumer: ConsumerId,
        ranges: Option<&[HashRange]>,
    ) -> Result<Impact<'_>, AssignError> {
        self.removed_len = 0;
        self.added_len = 0;
        let layout = self.layout;
        let len = self.ranges as usize;
        let keys_len = self.keys as usize;
        let [
            ids,
            state,
            starts,
            ends,
            owners,
            keys,
            key_owners,
            table,
            scratch,
            impact,
            lookup,
            free,
        ] = split_mut(self.storage.as_mut(), &layout.regions);
        if find_handle(ids, lookup, consumer).is_some() {
            return Err(AssignError::DuplicateConsumer { consumer });
        }
        let ranges = ranges.ok_or(AssignError::MissingKeySharedMeta)?;
        if ranges.is_empty() {
            return Err(AssignError::EmptyRanges);
        }
        let stored = Stored {
            starts: starts.get(..len).unwrap_or(&[]),
            ends,
            owners,
        };
        match self.config.mode {
            ExclusiveMode::Current => {
                check_own_ranges(ranges, scratch)?;
                if let Some(owner) = stored.find_conflict(ranges) {
                    return Err(AssignError::RangeConflict {
                        consumer: id_at(ids, owner),
                    });
                }
            }
            ExclusiveMode::LegacyPre24730 => {
                let keys = StoredKeys {
                    keys: keys.get(..keys_len).unwrap_or(&[]),
                    owners: key_owners,
                };
                if let Some(err) = keys.legacy_check(ranges, &stored, ids) {
                    return Err(err);
                }
            }
        }
        let handle = pop_free(free, self.consumers).ok_or(AssignError::ConsumerCapacity {
            max_consumers: self.config.max_consumers,
        })?;
        if ranges.len() > starts.len().saturating_sub(len) {
            return Err(AssignError::RangeCapacity {
                max_ranges: self.config.max_ranges,
            });
        }
        let mut len = len;
        let mut keys_len = keys_len;
        for range in ranges {
            let at = starts
                .get(..len)
                .unwrap_or(&[])
                .partition_point(|&s| s as i32 <= range.start);
            insert_at(starts, at, len, range.start as u32);
            insert_at(ends, at, len, range.end as u32);
            insert_at(owners, at, len, handle);
            len += 1;
            if self.config.mode == ExclusiveMode::LegacyPre24730 {
                for bound in [range.start, range.end] {
                    let known = keys.get(..keys_len).unwrap_or(&[]);
                    match known.binary_search_by_key(&bound, |&k| k as i32) {
                        Ok(at) => wr(key_owners, at, handle),
                        Err(at) => {
                            insert_at(keys, at, keys_len, bound as u32);
                            insert_at(key_owners, at, keys_len, handle);
                            keys_len += 1;
                        }
                    }
                }
            } else {
                fill(table, range.start.into(), range.end.into(), handle);
            }
        }
        set_id(ids, handle, consumer);
        index_insert(ids, lookup, handle);
        wr(state, handle as usize, 0);
        self.consumers += 1;
        self.ranges = len as u32;
        self.keys = keys_len as u32;
        let (mut removed, mut added) = writers(impact, layout.impact_entries);
        if self.config.mode == ExclusiveMode::LegacyPre24730 {
            let keys = keys.get(..keys_len).unwrap_or(&[]);
            rebuild_legacy_table(table, keys, key_owners, ids, [&mut removed, &mut added]);
        } else {
            // The slots were nobody's (no overlap with another consumer).
            let starts = starts.get(..len).unwrap_or(&[]);
            for (i, &start) in starts.iter().enumerate() {
                if rd(owners, i) == handle {
                    push_slots(&mut added, consumer, start, rd(ends, i));
                }
            }
        }
        self.removed_len = removed.len() as u32;
        self.added_len = added.len() as u32;
        Ok(self.last_impact())
    }

    /// Removes a consumer and its ranges, and returns what moved (see
    /// [Impact](ExclusiveSelector#impact)); an unknown consumer is a no-op
    /// with an empty impact.
    pub fn remove(&mut self, consumer: ConsumerId) -> Impact<'_> {
        self.removed_len = 0;
        self.added_len = 0;
        let layout = self.layout;
        let [
            ids,
            state,
            starts,
            ends,
            owners,
            keys,
            key_owners,
            table,
            _,
            impact,
            lookup,
            free,
        ] = split_mut(self.storage.as_mut(), &layout.regions);
        let Some(handle) = find_handle(ids, lookup, consumer) else {
            return self.last_impact();
        };
        let (mut removed, mut added) = writers(impact, layout.impact_entries);
        let mut w = 0usize;
        for r in 0..self.ranges as usize {
            let (start, end) = (rd(starts, r) as i32, rd(ends, r) as i32);
            if rd(owners, r) == handle {
                if self.config.mode == ExclusiveMode::Current {
                    fill(table, start.into(), end.into(), NONE);
                    push_slots(&mut removed, consumer, start as u32, end as u32);
                }
            } else {
                wr(starts, w, start as u32);
                wr(ends, w, end as u32);
                wr(owners, w, rd(owners, r));
                w += 1;
            }
        }
        self.ranges = w as u32;
        if self.config.mode == ExclusiveMode::LegacyPre24730 {
            let mut w = 0usize;
            for k in 0..self.keys as usize {
                if rd(key_owners, k) != handle {
                    wr(keys, w, rd(keys, k));
                    wr(key_owners, w, rd(key_owners, k));
                    w += 1;
                }
            }
            self.keys = w as u32;
            let keys = keys.get(..w).unwrap_or(&[]);
            rebuild_legacy_table(table, keys, key_owners, ids, [&mut removed, &mut added]);
        }
        wr(state, handle as usize, NONE);
        index_remove(ids, lookup, handle);
        push_free(free, self.consumers, handle);
        self.consumers -= 1;
        self.removed_len = removed.len() as u32;
        self.added_len = added.len() as u32;
        self.last_impact()
    }

    /// The impact of the last add or remove (empty after a failed add and
    /// after removing an unknown consumer).
    #[must_use]
    pub fn last_impact(&self) -> Impact<'_> {
        let [.., impact, _, _] = split_ref(self.storage.as_ref(), &self.layout.regions);
        read(
            impact,
            self.layout.impact_entries,
            self.removed_len,
            self.added_len,
        )
    }

    /// The consumer of `hash` (Java's `int`, so above `i32::MAX` it reads as
    /// negative): (current rules) the declared range starting at or below
    /// it, if it contains it; (legacy) Java reduces it modulo 65536, then
    /// the owner of the stored bounds on both sides, if the same.
    #[must_use]
    #[inline]
    pub fn select(&self, hash: u32) -> Option<ConsumerId> {
        if hash as usize >= SLOTS && self.config.mode != ExclusiveMode::LegacyPre24730 {
            return self.select_outside_slots(hash as i32);
        }
        let words = self.storage.as_ref();
        let regions = &self.layout.regions;
        let handle = rd(region(words, regions[7]), hash as usize % SLOTS);
        (handle != NONE).then(|| id_at(region(words, regions[0]), handle))
    }

    /// A hash the slot table cannot hold. The broker never asks one (sticky
    /// key hashes are below 65536), but 4.2.4's selector looks it up among
    /// the declared ranges unreduced, and the broker accepts ranges past
    /// 65535, so so does this. Declared ranges never overlap, so the one
    /// containing the hash is the one starting at or below it.
    #[cold]
    fn select_outside_slots(&self, hash: i32) -> Option<ConsumerId> {
        let [ids, _, starts, ends, owners, ..] =
            split_ref(self.storage.as_ref(), &self.layout.regions);
        (0..self.ranges as usize)
            .find(|&r| rd(starts, r) as i32 <= hash && hash <= rd(ends, r) as i32)
            .map(|r| id_at(ids, rd(owners, r)))
    }

    /// The consumer of a sticky key: [`ExclusiveSelector::select`] of its
    /// slot in [`KeyHashRange::EXCLUSIVE`].
    #[must_use]
    #[inline]
    pub fn select_key(&self, key: &super::StickyKey<'_>) -> Option<ConsumerId> {
        self.select(KeyHashRange::EXCLUSIVE.slot(key))
    }

    /// The snapshot: current rules, every declared range in start order;
    /// legacy rules, the stored bounds paired two by two (`[b0, b1]`,
    /// `[b2, b3]`, ...) where both have the same owner, as the old stats.
    pub fn assignments(&self) -> impl Iterator<Item = Assignment> + '_ {
        let [ids, _, starts, ends, owners, keys, key_owners, ..] =
            split_ref(self.storage.as_ref(), &self.layout.regions);
        let legacy = self.config.mode == ExclusiveMode::LegacyPre24730;
        let declared =
            (0..if legacy { 0 } else { self.ranges as usize }).map(move |r| Assignment {
                range: HashRange::new(rd(starts, r) as i32, rd(ends, r) as i32),
                consumer: id_at(ids, rd(owners, r)),
            });
        let pairs = (0..if legacy { self.keys as usize / 2 } else { 0 })
            .filter(move |&i| rd(key_owners, 2 * i) == rd(key_owners, 2 * i + 1))
            .map(move |i| Assignment {
                range: HashRange::new(rd(keys, 2 * i) as i32, rd(keys, 2 * i + 1) as i32),
                consumer: id_at(ids, rd(key_owners, 2 * i)),
            });
        declared.chain(pairs)
    }

    /// Each consumer's ranges as the broker's stats report them, in slot
    /// order: current rules, merged when adjacent; legacy rules, the
    /// paired bounds of [`ExclusiveSelector::assignments`], unmerged.
    pub fn consumer_ranges(&self) -> impl Iterator<Item = Assignment> + '_ {
        let legacy = self.config.mode == ExclusiveMode::LegacyPre24730;
        let mut merged = super::snapshot::Merged::new(self.assignments());
        let mut plain = self.assignments();
        core::iter::from_fn(move || if legacy { plain.next() } else { merged.next() })
    }

    /// The consumers, in no particular order.
    pub fn consumers(&self) -> impl Iterator<Item = ConsumerId> + '_ {
        let [ids, state, ..] = split_ref(self.storage.as_ref(), &self.layout.regions);
        state
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s != NONE)
            .map(move |(h, _)| id_at(ids, h as u32))
    }

    /// The same selector in new, bigger storage: same ranges, same rules,
    /// same last impact. Bindings without a fixed capacity grow when an add fails with
    /// [`AssignError::ConsumerCapacity`] or [`AssignError::RangeCapacity`];
    /// `self` is left as it was.
    ///
    /// # Errors
    /// [`ConfigError::CannotGrowInto`] for other rules, or fewer consumers
    /// or ranges; the errors of [`ExclusiveSelector::new`].
    pub fn grow<T: AsRef<[u32]> + AsMut<[u32]>>(
        &self,
        config: ExclusiveConfig,
        storage: T,
    ) -> Result<ExclusiveSelector<T>, ConfigError> {
        let old_config = self.config;
        if config.mode != old_config.mode
            || config.max_consumers < old_config.max_consumers
            || config.max_ranges < old_config.max_ranges
        {
            return Err(ConfigError::CannotGrowInto);
        }
        let mut grown = ExclusiveSelector::new(config, storage)?;
        let old = split_ref(self.storage.as_ref(), &self.layout.regions);
        let [
            ids,
            state,
            starts,
            ends,
            owners,
            keys,
            key_owners,
            table,
            _,
            impact,
            lookup,
            free,
        ] = split_mut(grown.storage.as_mut(), &grown.layout.regions);
        let c = old_config.max_consumers as usize;
        let (ranges, bounds) = (self.ranges as usize, self.keys as usize);
        copy_prefix(ids, old[0], 2 * c);
        copy_prefix(state, old[1], c);
        copy_prefix(starts, old[2], ranges);
        copy_prefix(ends, old[3], ranges);
        copy_prefix(owners, old[4], ranges);
        copy_prefix(keys, old[5], bounds);
        copy_prefix(key_owners, old[6], bounds);
        copy_prefix(table, old[7], usize::MAX);
        // The lists are longer in the new layout: copied entry by entry.
        let last = self.last_impact();
        let (mut removed, mut added) = writers(impact, grown.layout.impact_entries);
        for (list, entries) in [(&mut removed, last.removed()), (&mut added, last.added())] {
            for (consumer, range) in entries {
                list.push(consumer, range.start.into(), range.end.into());
            }
        }
        rebuild_handles(ids, state, lookup, free);
        grown.consumers = self.consumers;
        grown.ranges = self.ranges;
        grown.keys = self.keys;
        grown.removed_len = removed.len() as u32;
        grown.added_len = added.len() as u32;
        Ok(grown)
    }

    /// Gives the storage back.
    pub fn into_storage(self) -> S {
        self.storage
    }
}

/// Master's own-range checks: sorted by start (stably), each range must
/// have `start <= end` and must not overlap the next one.
fn check_own_ranges(ranges: &[HashRange], scratch: &mut [u32]) -> Result<(), AssignError> {
    let mut sorted = SortedByStart::new(ranges, scratch);
    let mut current = sorted.next();
    while let Some(range) = current {
        if range.start > range.end {
            return Err(AssignError::StartAfterEnd { range });
        }
        let next = sorted.next();
        if let Some(next) = next
            && range.overlaps(&next)
        {
            return Err(AssignError::OwnRangesConflict { range, next });
        }
        current = next;
    }
    Ok(())
}

/// The ranges in Java's stable sort order by start: through the scratch row
/// when it is long enough, else by repeated scans (O(n²), for consumers
/// declaring more ranges than the selector can hold, which fail anyway).
struct SortedByStart<'a> {
    ranges: &'a [HashRange],
    sorted: Option<&'a [u32]>,
    at: usize,
    last: Option<(i32, usize)>,
}

impl<'a> SortedByStart<'a> {
    fn new(ranges: &'a [HashRange], scratch: &'a mut [u32]) -> Self {
        let sorted = scratch.get_mut(..ranges.len()).map(|order| {
            for (i, o) in order.iter_mut().enumerate() {
                *o = i as u32;
            }
            order.sort_unstable_by_key(|&i| {
                (ranges.get(i as usize).map_or(i32::MAX, |r| r.start), i)
            });
            &*order
        });
        Self {
            ranges,
            sorted,
            at: 0,
            last: None,
        }
    }
}

impl Iterator for SortedByStart<'_> {
    type Item = HashRange;

    fn next(&mut self) -> Option<HashRange> {
        if let Some(order) = self.sorted {
            let i = *order.get(self.at)?;
            self.at += 1;
            return self.ranges.get(i as usize).copied();
        }
        let next = self
            .ranges
            .iter()
            .enumerate()
            .map(|(i, r)| (r.start, i))
            .filter(|&key| self.last.is_none_or(|last| key > last))
            .min()?;
        self.last = Some(next);
        self.ranges.get(next.1).copied()
    }
}

/// The declared ranges, sorted by start.
struct Stored<'a> {
    starts: &'a [u32],
    ends: &'a [u32],
    owners: &'a [u32],
}

impl Stored<'_> {
    fn range(&self, i: usize) -> HashRange {
        HashRange::new(rd(self.starts, i) as i32, rd(self.ends, i) as i32)
    }

    /// Master's `findConflictingConsumer`: for each new range in the given
    /// order, the stored range at or below its start, then the one at or
    /// above it.
    fn find_conflict(&self, ranges: &[HashRange]) -> Option<u32> {
        ranges.iter().find_map(|range| {
            let above = self.starts.partition_point(|&s| (s as i32) < range.start);
            let at_or_below = self.starts.partition_point(|&s| s as i32 <= range.start);
            let floor = at_or_below.checked_sub(1);
            [floor, Some(above)]
                .into_iter()
                .flatten()
                .filter(|&i| i < self.starts.len())
                .find(|&i| range.overlaps(&self.range(i)))
                .map(|i| rd(self.owners, i))
        })
    }

    /// Whether any declared range of `owner` intersects `range`.
    fn owner_intersects(&self, owner: u32, range: &HashRange) -> bool {
        (0..self.starts.len())
            .any(|i| rd(self.owners, i) == owner && range.overlaps(&self.range(i)))
    }
}

/// The legacy map: every declared start and end, sorted.
struct StoredKeys<'a> {
    keys: &'a [u32],
    owners: &'a [u32],
}

impl StoredKeys<'_> {
    /// The pre-#24730 validation, range by range in the given order.
    fn legacy_check(
        &self,
        ranges: &[HashRange],
        stored: &Stored<'_>,
        ids: &[u32],
    ) -> Option<AssignError> {
        let conflict = |owner: u32| AssignError::RangeConflict {
            consumer: id_at(ids, owner),
        };
        for range in ranges {
            if range.start > range.end {
                return Some(AssignError::LegacyStartAfterEnd);
            }
            let ceiling = self.keys.partition_point(|&k| (k as i32) < range.start);
            let ceiling = (ceiling < self.keys.len()).then_some(ceiling);
            let floor = self
                .keys
                .partition_point(|&k| k as i32 <= range.end)
                .checked_sub(1);
            if let Some(f) = floor
                && rd(self.keys, f) as i32 >= range.start
            {
                return Some(conflict(rd(self.owners, f)));
            }
            if let Some(c) = ceiling
                && rd(self.keys, c) as i32 <= range.end
            {
                return Some(conflict(rd(self.owners, c)));
            }
            if let (Some(c), Some(f)) = (ceiling, floor) {
                let owner = rd(self.owners, c);
                if owner == rd(self.owners, f) && stored.owner_intersects(owner, range) {
                    return Some(conflict(owner));
                }
            }
        }
        None
    }
}

/// Records the slots of the declared range `[start, end]` (stored as
/// words) that exist, `[0, 65535]`: what a current-rules add or remove
/// moves.
fn push_slots(list: &mut ImpactWriter<'_>, consumer: ConsumerId, start: u32, end: u32) {
    let start = i64::from(start as i32).max(0);
    let end = i64::from(end as i32).min(SLOTS as i64 - 1);
    list.push(consumer, start, end);
}

/// The legacy `select` for every slot: a slot has an owner when the stored
/// bounds at or below and at or above it have the same one. Writes it into
/// `table`, and every slot whose owner changes into the impact lists
/// (`[removed, added]`), in slot order.
fn rebuild_legacy_table(
    table: &mut [u32],
    keys: &[u32],
    owners: &[u32],
    ids: &[u32],
    [removed, added]: [&mut ImpactWriter<'_>; 2],
) {
    // The last bound at or below the slot, walking up with it.
    let mut below: Option<usize> = None;
    for (slot, entry) in table.iter_mut().enumerate() {
        let slot = slot as i64;
        while let Some(&next) = keys.get(below.map_or(0, |b| b + 1))
            && i64::from(next as i32) <= slot
        {
            below = Some(below.map_or(0, |b| b + 1));
        }
        let now = match below {
            Some(b) if i64::from(rd(keys, b) as i32) == slot => rd(owners, b),
            Some(b) if b + 1 < keys.len() && rd(owners, b) == rd(owners, b + 1) => rd(owners, b),
            _ => NONE,
        };
        let was = *entry;
        if was != now {
            if was != NONE {
                removed.push(id_at(ids, was), slot, slot);
            }
            if now != NONE {
                added.push(id_at(ids, now), slot, slot);
            }
            *entry = now;
        }
    }
}
