//! The consistent-hashing selector (`ConsistentHashingStickyKeyConsumerSelector`):
//! `AUTO_SPLIT` mode with the broker's default settings.
//!
//! Storage is struct-of-arrays in one `u32` buffer:
//!
//! - per consumer: id (2 words), name index, name offset, length and hash,
//!   found through an open-addressing id index; free handles on a stack;
//! - per ring *registration* (consumer `h`'s `k`-th point in sorted order
//!   is registration `h * points + k`): the next and previous registrations
//!   on the same ring point. The registrations of a point form a circular
//!   list, oldest first, whose head is the point's selected consumer and
//!   whose rest is Java's FIFO `collidingConsumers`; removing a consumer
//!   unlinks its registrations in O(1) each;
//! - the ring: the distinct points in ascending order, each with the tail of
//!   its list (the tail's successor is the head);
//! - a flat slot table (slot to the owner's id, two words) when the range
//!   has at most 65536 slots, so `select` is one read;
//! - the names, packed in consumer order; a scratch row; the last impact.

use super::impact::{ENTRY_WORDS, ImpactWriter, read, writers};
use super::storage::{
    LayoutBuilder, NONE, Region, copy_prefix, decimal, fill_ids, find_handle, id_at, id_index_len,
    index_insert, index_remove, init_free, move_words, mul, pop_free, push_free, rd,
    rebuild_handles, set_id, split_mut, split_ref, wr,
};
use super::{AssignError, Assignment, ConfigError, ConsumerId, HashRange, Impact, KeyHashRange};
use crate::murmur3::{Murmur3Hasher, murmur3_32_raw};

/// The broker's default `subscriptionKeySharedConsistentHashingReplicaPoints`.
pub const DEFAULT_POINTS: u32 = 100;

/// A live consumer with no ring points (`points == 0`) has no name index.
const NO_INDEX: u32 = NONE - 1;

/// Largest range maximum served by a flat slot table.
const FLAT_MAX_RANGE: u32 = 65536;

/// Bit 31 marks, in the scratch row, points already on the ring (points are
/// at most `i32::MAX`, so the bit is free).
const EXISTING: u32 = 1 << 31;

/// The size of a [`ConsistentHashingSelector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConsistentHashingConfig {
    /// Ring points per consumer (`subscriptionKeySharedConsistentHashingReplicaPoints`,
    /// default 100). With 0, consumers get no points and nothing is selected.
    pub points: u32,
    /// The top of the key hash range `[1, range_max]`: 65535 with the default
    /// dispatcher, 2147483646 with the Classic one.
    pub range_max: u32,
    /// How many consumers the storage holds.
    pub max_consumers: u32,
    /// Bytes for the names of the live consumers (UTF-8 length, summed).
    pub name_bytes: u32,
}

/// Regions, in order: ids, name index, name offset, name length, name
/// hash, next registration, ring points, ring tails, slot table, names,
/// scratch, last impact, previous registration, id index, free handles.
#[derive(Clone, Copy, Debug)]
struct Layout {
    regions: [Region; 15],
    /// The slot table's start counted in word pairs (it starts at an even
    /// word).
    table_pairs: usize,
    total: usize,
    flat: bool,
    ring_capacity: usize,
    impact_entries: usize,
}

impl ConsistentHashingConfig {
    /// Room for `max_consumers` consumers with the broker's defaults: 100
    /// points, range `[1, 65535]`, and 64 name bytes per consumer.
    #[must_use]
    pub const fn new(max_consumers: u32) -> Self {
        Self {
            points: DEFAULT_POINTS,
            range_max: 65535,
            max_consumers,
            name_bytes: max_consumers.saturating_mul(64),
        }
    }

    /// The same config with `points` ring points per consumer.
    #[must_use]
    pub const fn with_points(self, points: u32) -> Self {
        Self { points, ..self }
    }

    /// The same config with the key hash range `[1, range_max]`.
    #[must_use]
    pub const fn with_range_max(self, range_max: u32) -> Self {
        Self { range_max, ..self }
    }

    /// The same config with room for `name_bytes` bytes of names.
    #[must_use]
    pub const fn with_name_bytes(self, name_bytes: u32) -> Self {
        Self { name_bytes, ..self }
    }

    /// The key hash range, `[1, range_max]`.
    ///
    /// # Errors
    /// [`ConfigError::RangeEndBeforeStart`] for 0 (Java's `Range.of(1, 0)`),
    /// [`ConfigError::KeyHashRangeTooLarge`] above `i32::MAX`.
    pub const fn key_hash_range(&self) -> Result<KeyHashRange, ConfigError> {
        KeyHashRange::new(1, self.range_max)
    }

    /// The number of `u32` words of storage the selector needs, with
    /// `C = max_consumers`, `P = points`, `M = range_max`:
    ///
    /// `2 * C * P + 8 * C + I + 2 * min(C * P, M) + ceil(name_bytes / 4) + 9 * P + 24`,
    /// plus `2 * (M + 1) + (C * P) mod 2` when `M <= 65536` (the flat slot
    /// table, which holds each slot's consumer id so that a lookup is one
    /// read, and a spare word that aligns it); `I`, the id
    /// index, is the smallest power of two `>= 2 * C` (at least 2).
    ///
    /// For 10,000 consumers with 100 points and 64-byte names that is about
    /// 2.5 M words (10 MB), two thirds of it the collision lists.
    ///
    /// # Errors
    /// The range errors of [`ConsistentHashingConfig::key_hash_range`], and
    /// [`ConfigError::CapacityTooLarge`] when `C * P` does not fit 32 bits
    /// or the size overflows.
    pub fn storage_words(&self) -> Result<usize, ConfigError> {
        Ok(self.layout()?.total)
    }

    fn layout(&self) -> Result<Layout, ConfigError> {
        let range = self.key_hash_range()?;
        let c = self.max_consumers as usize;
        let p = self.points as usize;
        let registrations = u32::try_from(mul(c, p).ok_or(ConfigError::CapacityTooLarge)?)
            .ok()
            .filter(|&r| r < NO_INDEX && self.max_consumers < NO_INDEX)
            .ok_or(ConfigError::CapacityTooLarge)?;
        let ring_capacity = registrations.min(range.end()) as usize;
        let flat = range.end() <= FLAT_MAX_RANGE;
        // An add or remove moves at most one run per point, plus the wrap.
        let impact_entries = p.checked_add(3).ok_or(ConfigError::CapacityTooLarge)?;
        let name_words = (self.name_bytes as usize)
            .div_ceil(4)
            .checked_add(c)
            .ok_or(ConfigError::CapacityTooLarge)?;
        // One spare word after the ring tails when needed, so that the slot
        // table starts at an even word and `select` reads each slot's id
        // as one aligned pair.
        let pad = if flat { registrations as usize & 1 } else { 0 };
        let mut b = LayoutBuilder::new();
        let regions = [
            b.region(mul(c, 2)),
            b.region(Some(c)),
            b.region(Some(c)),
            b.region(Some(c)),
            b.region(Some(c)),
            b.region(Some(registrations as usize)),
            b.region(Some(ring_capacity)),
            b.region(Some(ring_capacity + pad)),
            b.region(if flat {
                mul(range.end() as usize + 1, 2)
            } else {
                Some(0)
            }),
            b.region(Some(name_words)),
            b.region(Some(p)),
            b.region(mul(impact_entries, 2 * ENTRY_WORDS)),
            b.region(Some(registrations as usize)),
            b.region(id_index_len(c)),
            b.region(Some(c)),
        ];
        let total = b.total().ok_or(ConfigError::CapacityTooLarge)?;
        Ok(Layout {
            table_pairs: regions[8].start / 2,
            regions,
            total,
            flat,
            ring_capacity,
            impact_entries,
        })
    }
}

impl Default for ConsistentHashingConfig {
    /// 1024 consumers with the broker's defaults.
    fn default() -> Self {
        Self::new(1024)
    }
}

/// The ring point `i` of a consumer named `name` with name index
/// `name_index`: the slot of `name + "\0" + name_index + "\0" + i` in
/// `range` (Java's `calculateHashForConsumerAndIndex`).
///
/// ```
/// use pulsar_routing::key_shared::{KeyHashRange, ring_point};
/// assert_eq!(ring_point(b"c1", 0, 0, KeyHashRange::CONSISTENT_HASHING), 34662);
/// ```
#[must_use]
pub fn ring_point(name: &[u8], name_index: u32, i: u32, range: KeyHashRange) -> u32 {
    let mut prefix = Murmur3Hasher::new();
    prefix.update(name);
    point_from_prefix(with_index(prefix, name_index), i, range)
}

fn with_index(mut hasher: Murmur3Hasher, name_index: u32) -> Murmur3Hasher {
    let mut buf = [0u8; 20];
    hasher
        .update(b"\0")
        .update(decimal(u64::from(name_index), &mut buf))
        .update(b"\0");
    hasher
}

fn point_from_prefix(mut prefix: Murmur3Hasher, i: u32, range: KeyHashRange) -> u32 {
    let mut buf = [0u8; 20];
    prefix.update(decimal(u64::from(i), &mut buf));
    range.reduce(prefix.finalize())
}

/// The handle of the consumer whose registration heads ring position `pos`.
#[inline(always)]
fn owner(tails: &[u32], next: &[u32], points: u32, pos: usize) -> u32 {
    let tail = rd(tails, pos);
    if tail == NONE {
        return NONE;
    }
    reg_owner(rd(next, tail as usize), points)
}

/// The consumer handle of registration `reg`.
#[inline(always)]
fn reg_owner(reg: u32, points: u32) -> u32 {
    if reg == NONE {
        NONE
    } else {
        reg.checked_div(points).unwrap_or(NONE)
    }
}

/// The consistent-hashing selector, the broker's default for Key_Shared.
///
/// Each consumer puts `points` points on a ring of slots `[1, range_max]`:
/// point `i` is the slot of `name\0index\0i`, where `index` is the smallest
/// index not used by another live consumer with the same name (so a
/// consumer that reconnects gets its old points back). A slot goes to the
/// owner of the first point at or after it, wrapping around to the first
/// point. When points collide, the first consumer keeps the point and later
/// ones queue (oldest first) to take it over when it leaves; a consumer can
/// collide with itself.
///
/// Costs, with `C` consumers, `P` points and `L <= min(C * P, range_max)`
/// distinct ring points:
///
/// - `select`: one table lookup for the default range; a binary search,
///   O(log L), for the Classic one.
/// - `add`: O(1) expected for the id lookup (a hash index); O(C) to find
///   the name index (a scan of the consumers, O(C log m) when `m` of them
///   share the name); O(P log P) to hash and sort the points; O(P log L)
///   to queue on existing points and O(L) (one `memmove`) to merge new
///   ones; plus the slots that move.
/// - `remove`: the same, with O(1) per registration to unlink it from its
///   collision list, and O(L) to close the ring's gaps.
///
/// Measured at 10,000 consumers × 100 points (ring saturated at 65535
/// points): about 30 µs per add and per remove. With the Classic range the
/// ring has a million points and the O(L) moves dominate: about 1–2 ms.
///
/// ```
/// use pulsar_routing::key_shared::{ConsistentHashingConfig, ConsistentHashingSelector};
/// let config = ConsistentHashingConfig::new(4).with_points(1);
/// let mut sel = ConsistentHashingSelector::new(config, vec![0u32; config.storage_words()?])?;
/// let first = sel.add(1, "c1")?;
/// assert_eq!(first.added().map(|(c, r)| (c, r.start, r.end)).collect::<Vec<_>>(), [(1, 1, 65535)]);
/// sel.add(2, "c1")?; // same name: index 1, other points
/// assert_eq!(sel.name_index(2), Some(1));
/// assert_eq!(sel.assignments().map(|a| a.range.end).last(), Some(65535));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ConsistentHashingSelector<S> {
    storage: S,
    config: ConsistentHashingConfig,
    range: KeyHashRange,
    layout: Layout,
    consumers: u32,
    ring_len: u32,
    /// The flat slot table is in use and has owners: `flat` and a
    /// non-empty ring. One flag, so that `select` tests one thing.
    flat_live: bool,
    name_top: u32,
    removed_len: u32,
    added_len: u32,
}

impl<S: AsRef<[u32]> + AsMut<[u32]>> ConsistentHashingSelector<S> {
    /// An empty selector working in `storage`, which must hold at least
    /// [`ConsistentHashingConfig::storage_words`] words (its contents are
    /// overwritten).
    ///
    /// # Errors
    /// The config's errors, and [`ConfigError::StorageTooSmall`].
    pub fn new(config: ConsistentHashingConfig, mut storage: S) -> Result<Self, ConfigError> {
        let layout = config.layout()?;
        let range = config.key_hash_range()?;
        let words = storage.as_mut();
        let got = words.len();
        let all = words
            .get_mut(..layout.total)
            .ok_or(ConfigError::StorageTooSmall {
                needed: layout.total,
                got,
            })?;
        all.fill(NONE);
        let [_, _, name_off, name_len, .., free] = split_mut(all, &layout.regions);
        name_off.fill(0);
        name_len.fill(0);
        init_free(free);
        Ok(Self {
            storage,
            config,
            range,
            layout,
            consumers: 0,
            ring_len: 0,
            flat_live: false,
            name_top: 0,
            removed_len: 0,
            added_len: 0,
        })
    }

    /// The selector's slots, `[1, range_max]`.
    #[must_use]
    pub const fn key_hash_range(&self) -> KeyHashRange {
        self.range
    }

    /// The config it was built with.
    #[must_use]
    pub const fn config(&self) -> &ConsistentHashingConfig {
        &self.config
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

    /// The number of distinct points on the ring.
    #[must_use]
    pub const fn ring_len(&self) -> usize {
        self.ring_len as usize
    }

    /// Whether `consumer` is in the selector.
    #[must_use]
    pub fn contains(&self, consumer: ConsumerId) -> bool {
        let [ids, .., lookup, _] = split_ref(self.storage.as_ref(), &self.layout.regions);
        find_handle(ids, lookup, consumer).is_some()
    }

    /// The consumer's name index: the smallest one free among the live
    /// consumers with its name when it joined. `None` for an unknown
    /// consumer, and when `points` is 0 (Java tracks no index then, -1).
    #[must_use]
    pub fn name_index(&self, consumer: ConsumerId) -> Option<u32> {
        let [ids, index, .., lookup, _] = split_ref(self.storage.as_ref(), &self.layout.regions);
        let h = find_handle(ids, lookup, consumer)?;
        Some(rd(index, h as usize)).filter(|&i| i != NO_INDEX)
    }

    /// The consumer's ring points, for point indexes `0..points` (empty for
    /// an unknown consumer or with 0 points).
    pub fn consumer_points(&self, consumer: ConsumerId) -> impl Iterator<Item = u32> + '_ {
        let [
            ids,
            index,
            name_off,
            name_len,
            _,
            _,
            _,
            _,
            _,
            names,
            ..,
            lookup,
            _,
        ] = split_ref(self.storage.as_ref(), &self.layout.regions);
        let found = find_handle(ids, lookup, consumer)
            .map(|h| (h as usize, rd(index, h as usize)))
            .filter(|&(_, i)| i != NO_INDEX);
        let prefix = found.map(|(h, i)| {
            let mut hasher = Murmur3Hasher::new();
            stream_name(names, rd(name_off, h), rd(name_len, h), &mut hasher);
            with_index(hasher, i)
        });
        let range = self.range;
        (0..if found.is_some() {
            self.config.points
        } else {
            0
        })
            .map(move |i| point_from_prefix(prefix.unwrap_or_default(), i, range))
    }

    /// Adds a consumer and returns what moved.
    ///
    /// `name` is the consumer name's UTF-8 bytes (Java hashes
    /// `String.getBytes()`; brokers run with UTF-8).
    ///
    /// # Errors
    /// [`AssignError::DuplicateConsumer`], [`AssignError::ConsumerCapacity`]
    /// and [`AssignError::NameCapacity`]; the broker's add never fails.
    /// Nothing changes on error.
    pub fn add(
        &mut self,
        consumer: ConsumerId,
        name: impl AsRef<[u8]>,
    ) -> Result<Impact<'_>, AssignError> {
        let name = name.as_ref();
        self.removed_len = 0;
        self.added_len = 0;
        let points = self.config.points;
        let p = points as usize;
        let range = self.range;
        let range_max = i64::from(range.end());
        let layout = self.layout;
        let [
            ids,
            index,
            name_off,
            name_len,
            name_hash,
            next,
            ring_points,
            ring_tails,
            table,
            names,
            scratch,
            impact,
            prev,
            lookup,
            free,
        ] = split_mut(self.storage.as_mut(), &layout.regions);
        if find_handle(ids, lookup, consumer).is_some() {
            return Err(AssignError::DuplicateConsumer { consumer });
        }
        let handle = pop_free(free, self.consumers).ok_or(AssignError::ConsumerCapacity {
            max_consumers: self.config.max_consumers,
        })?;
        let h = handle as usize;
        if points == 0 {
            // Java registers nothing: no index, no points, no impact.
            set_id(ids, handle, consumer);
            index_insert(ids, lookup, handle);
            wr(index, h, NO_INDEX);
            self.consumers += 1;
            return Ok(self.last_impact());
        }
        let words = name.len().div_ceil(4);
        let top = self.name_top as usize;
        if u32::try_from(name.len()).is_err() || top + words > names.len() {
            return Err(AssignError::NameCapacity);
        }

        let hash = murmur3_32_raw(name);
        let name_index =
            smallest_free_index(index, name_off, name_len, name_hash, names, name, hash);
        store_name(name_off, name_len, names, top, h, name);
        self.name_top += words as u32;
        wr(name_hash, h, hash);
        wr(index, h, name_index);
        set_id(ids, handle, consumer);
        index_insert(ids, lookup, handle);
        self.consumers += 1;

        let mut prefix = Murmur3Hasher::new();
        prefix.update(name);
        let prefix = with_index(prefix, name_index);
        let scratch = scratch.get_mut(..p).unwrap_or(&mut []);
        for (i, slot) in scratch.iter_mut().enumerate() {
            *slot = point_from_prefix(prefix, i as u32, range);
        }
        // Java inserts in point-index order; only the order among one
        // consumer's own registrations changes by sorting, and those are
        // interchangeable.
        scratch.sort_unstable();

        let len = self.ring_len as usize;
        let first_reg = handle * points;
        // Existing points: queue behind the current owner.
        let mut new_points = 0usize;
        let mut previous = NONE;
        for (k, slot) in scratch.iter_mut().enumerate() {
            let point = *slot;
            let reg = first_reg + k as u32;
            match ring_points.get(..len).unwrap_or(&[]).binary_search(&point) {
                Ok(pos) => {
                    append(next, prev, ring_tails, pos, reg);
                    *slot = point | EXISTING;
                }
                Err(_) => {
                    if point != previous {
                        new_points += 1;
                    }
                }
            }
            previous = point;
        }
        // New points: merge into the ring from the top down, one shift.
        let new_len = (len + new_points).min(layout.ring_capacity);
        let mut read_at = len;
        let mut write_at = new_len;
        let mut k = p;
        while k > 0 {
            let point = rd(scratch, k - 1);
            if point & EXISTING != 0 {
                k -= 1;
                continue;
            }
            let mut j = k - 1;
            while j > 0 && rd(scratch, j - 1) == point {
                j -= 1;
            }
            let below = ring_points
                .get(..read_at)
                .unwrap_or(&[])
                .partition_point(|&q| q < point);
            let above = read_at - below;
            if write_at <= above {
                break;
            }
            let dest = write_at - above;
            move_words(ring_points, below..read_at, dest);
            move_words(ring_tails, below..read_at, dest);
            read_at = below;
            write_at = dest - 1;
            // Registrations j..k (all this consumer's) form the new list.
            let (head, tail) = (first_reg + j as u32, first_reg + k as u32 - 1);
            for reg in head..tail {
                wr(next, reg as usize, reg + 1);
                wr(prev, reg as usize + 1, reg);
            }
            wr(next, tail as usize, head);
            wr(prev, head as usize, tail);
            wr(ring_points, write_at, point);
            wr(ring_tails, write_at, tail);
            k = j;
        }
        // Fields, not `set_ring_len`: the storage is still borrowed.
        self.ring_len = new_len as u32;
        self.flat_live = layout.flat && new_len > 0;

        // The slots that moved: the arcs ending at the new points, each run
        // of consecutive new points taken from the owner of the next older
        // point clockwise.
        let ring = Ring {
            points: ring_points.get(..new_len).unwrap_or(&[]),
            tails: ring_tails,
            next,
            per_consumer: points,
        };
        let (mut removed, mut added) = writers(impact, layout.impact_entries);
        let mut run_start: Option<usize> = None;
        let mut wrap_owner = None;
        let mut k = 0;
        while k < p {
            let point = rd(scratch, k);
            k += 1;
            if point & EXISTING != 0 || (k >= 2 && rd(scratch, k - 2) == point) {
                continue;
            }
            let Ok(pos) = ring.points.binary_search(&point) else {
                continue;
            };
            let start = *run_start.get_or_insert(pos);
            if ring.owner(pos + 1) == handle && pos + 1 < new_len {
                continue;
            }
            run_start = None;
            let before = ring.next_owner_other_than(pos + 1, handle);
            let lo = ring.arc_start(start);
            let hi = i64::from(rd(ring.points, pos));
            if start == 0 {
                wrap_owner = Some(before);
            }
            push_move(&mut removed, &mut added, ids, before, handle, lo, hi);
            fill_ids(table, lo, hi, id_at(ids, handle));
        }
        if let (Some(before), Some(&last)) = (wrap_owner, ring.points.last())
            && i64::from(last) < range_max
        {
            push_move(
                &mut removed,
                &mut added,
                ids,
                before,
                handle,
                i64::from(last) + 1,
                range_max,
            );
            fill_ids(table, i64::from(last) + 1, range_max, id_at(ids, handle));
        }
        set_id(table, 0, id_at(ids, ring.owner(0)));
        self.removed_len = removed.len() as u32;
        self.added_len = added.len() as u32;
        Ok(self.last_impact())
    }

    /// Removes a consumer and returns what moved; an unknown consumer is a
    /// no-op with an empty impact, as in the broker.
    pub fn remove(&mut self, consumer: ConsumerId) -> Impact<'_> {
        self.removed_len = 0;
        self.added_len = 0;
        let points = self.config.points;
        let p = points as usize;
        let range = self.range;
        let range_max = i64::from(range.end());
        let layout = self.layout;
        let [
            ids,
            index,
            name_off,
            name_len,
            _,
            next,
            ring_points,
            ring_tails,
            table,
            names,
            scratch,
            impact,
            prev,
            lookup,
            free,
        ] = split_mut(self.storage.as_mut(), &layout.regions);
        let Some(handle) = find_handle(ids, lookup, consumer) else {
            return self.last_impact();
        };
        let h = handle as usize;
        let name_index = rd(index, h);
        wr(index, h, NONE);
        index_remove(ids, lookup, handle);
        push_free(free, self.consumers, handle);
        self.consumers = self.consumers.saturating_sub(1);
        if name_index == NO_INDEX {
            return self.last_impact();
        }
        let mut prefix = Murmur3Hasher::new();
        stream_name(names, rd(name_off, h), rd(name_len, h), &mut prefix);
        let prefix = with_index(prefix, name_index);
        let scratch = scratch.get_mut(..p).unwrap_or(&mut []);
        for (i, slot) in scratch.iter_mut().enumerate() {
            *slot = point_from_prefix(prefix, i as u32, range);
        }
        scratch.sort_unstable();
        let len = self.ring_len as usize;
        let (mut removed, mut added) = writers(impact, layout.impact_entries);

        // Before: the consumer loses every slot it owns, the arcs of the
        // points it heads.
        {
            let ring = Ring {
                points: ring_points.get(..len).unwrap_or(&[]),
                tails: ring_tails,
                next,
                per_consumer: points,
            };
            let mut run_start: Option<usize> = None;
            let mut heads_first = false;
            for (k, &point) in scratch.iter().enumerate() {
                if k > 0 && rd(scratch, k - 1) == point {
                    continue;
                }
                let Ok(pos) = ring.points.binary_search(&point) else {
                    continue;
                };
                if ring.owner(pos) != handle {
                    continue;
                }
                let start = *run_start.get_or_insert(pos);
                if ring.owner(pos + 1) == handle && pos + 1 < len {
                    continue;
                }
                run_start = None;
                heads_first |= start == 0;
                removed.push(
                    consumer,
                    ring.arc_start(start),
                    i64::from(rd(ring.points, pos)),
                );
            }
            if let (true, Some(&last)) = (heads_first, ring.points.last()) {
                removed.push(consumer, i64::from(last) + 1, range_max);
            }
        }

        // Java's `HashRingPointEntry.removeConsumer`, run once per point
        // index, leaves each list without the consumer's registrations and
        // the others in order (popping the head when it is the consumer's is
        // one of those removals), so unlinking them is the same. The
        // registration of sorted point `k` is `first + k`, as `add` placed it.
        let first = handle * points;
        let mut dead = 0usize;
        for (k, &point) in scratch.iter().enumerate() {
            let Ok(pos) = ring_points.get(..len).unwrap_or(&[]).binary_search(&point) else {
                continue;
            };
            let tail = rd(ring_tails, pos);
            if tail == NONE {
                continue;
            }
            let reg = first + k as u32;
            let (before, after) = (rd(prev, reg as usize), rd(next, reg as usize));
            if after == reg {
                wr(ring_tails, pos, NONE);
                dead += 1;
            } else {
                wr(next, before as usize, after);
                wr(prev, after as usize, before);
                if tail == reg {
                    wr(ring_tails, pos, before);
                }
            }
        }
        let mut new_len = len;
        if dead > 0 {
            // Close the gaps run by run.
            let (mut w, mut r) = (0usize, 0usize);
            while r < len {
                let live = ring_tails
                    .get(r..len)
                    .and_then(|t| t.iter().position(|&tail| tail == NONE))
                    .unwrap_or(len - r);
                move_words(ring_points, r..r + live, w);
                move_words(ring_tails, r..r + live, w);
                w += live;
                r += live + 1;
            }
            new_len = w;
        }
        // Fields, not `set_ring_len`: the storage is still borrowed.
        self.ring_len = new_len as u32;
        self.flat_live = layout.flat && new_len > 0;

        // After: each lost range goes to the owners of the points now
        // covering it.
        let ring = Ring {
            points: ring_points.get(..new_len).unwrap_or(&[]),
            tails: ring_tails,
            next,
            per_consumer: points,
        };
        let mut lost = removed.entries();
        while let Some((entry, rest)) = lost.split_first_chunk::<ENTRY_WORDS>() {
            lost = rest;
            let (mut start, end) = (i64::from(entry[2] as i32), i64::from(entry[3] as i32));
            if ring.points.is_empty() {
                fill_ids(table, start, end, u64::MAX);
                continue;
            }
            let mut pos = ring.points.partition_point(|&q| i64::from(q) < start);
            while start <= end {
                let (upto, heir) = match ring.points.get(pos) {
                    Some(&q) => (i64::from(q).min(end), ring.owner(pos)),
                    None => (end, ring.owner(0)),
                };
                added.push(id_at(ids, heir), start, upto);
                fill_ids(table, start, upto, id_at(ids, heir));
                start = upto + 1;
                pos += 1;
            }
        }
        set_id(table, 0, id_at(ids, ring.owner(0)));
        self.removed_len = removed.len() as u32;
        self.added_len = added.len() as u32;
        let freed = free_name(name_off, name_len, names, self.name_top as usize, h);
        self.name_top = self.name_top.saturating_sub(freed);
        self.last_impact()
    }

    /// The impact of the last add or remove (empty after a failed add).
    #[must_use]
    pub fn last_impact(&self) -> Impact<'_> {
        let [.., impact, _, _, _] = split_ref(self.storage.as_ref(), &self.layout.regions);
        read(
            impact,
            self.layout.impact_entries,
            self.removed_len,
            self.added_len,
        )
    }

    /// The consumer of `slot`: the selected consumer of the first ring point
    /// at or after it, wrapping around to the first point. `None` with an
    /// empty ring.
    #[must_use]
    #[inline]
    pub fn select(&self, slot: u32) -> Option<ConsumerId> {
        // Entry 0 of the flat table holds the first point's owner: the
        // wrap-around answer for slots past the range.
        self.select_at(if slot <= self.range.end() { slot } else { 0 })
    }

    /// [`ConsistentHashingSelector::select`] of a slot known to be at most
    /// `range.end()`, as every slot [`KeyHashRange::slot`] returns is.
    /// This is the hot path of every message, hence the care.
    #[inline]
    fn select_at(&self, slot: u32) -> Option<ConsumerId> {
        if !self.flat_live {
            return self.ring_select(slot);
        }
        // The table has `range.end() + 1` (low, high) pairs, so the pair
        // of `slot` is inside it: checking it against the whole storage is
        // enough, and cheaper than slicing out the table first.
        let (pairs, _) = self.storage.as_ref().as_chunks::<2>();
        let &[low, high] = pairs.get(self.layout.table_pairs.wrapping_add(slot as usize))?;
        Some(u64::from(low) | (u64::from(high) << 32))
    }

    /// Records the ring's length, and with it whether the flat table has
    /// owners (`add` and `remove` set the two fields themselves).
    fn set_ring_len(&mut self, len: u32) {
        self.ring_len = len;
        self.flat_live = self.layout.flat && len > 0;
    }

    /// The consumer of `slot` found by a binary search of the ring, for
    /// selectors too large for the flat table (`None` with an empty ring,
    /// flat or not). Kept out of line so that
    /// [`ConsistentHashingSelector::select`], whose flat path is one read,
    /// stays small enough to inline into every caller.
    #[inline(never)]
    fn ring_select(&self, slot: u32) -> Option<ConsumerId> {
        if self.ring_len == 0 {
            return None;
        }
        let words = self.storage.as_ref();
        let [ids, _, _, _, _, next, ring_points, ring_tails, ..] =
            split_ref(words, &self.layout.regions);
        let points = ring_points.get(..self.ring_len as usize)?;
        let pos = points.partition_point(|&q| q < slot);
        let pos = if pos == points.len() { 0 } else { pos };
        match owner(ring_tails, next, self.config.points, pos) {
            NONE => None,
            handle => Some(id_at(ids, handle)),
        }
    }

    /// The consumer of a sticky key: [`ConsistentHashingSelector::select`]
    /// of its slot in [`ConsistentHashingSelector::key_hash_range`].
    #[must_use]
    #[inline]
    pub fn select_key(&self, key: &super::StickyKey<'_>) -> Option<ConsumerId> {
        // The range is `[1, range_max]` (`ConsistentHashingConfig::key_hash_range`),
        // so the slot is the offset plus 1 and never the 0 that `slot`
        // would have to move.
        self.select_at(self.range.offset_of_31_bits(key.murmur3()) + 1)
    }

    /// The snapshot, exactly as the broker computes it: consecutive points
    /// of one consumer joined, the first range starting at 1, and the slots
    /// after the last point going to the first point's owner (joined to the
    /// last range when that is the same consumer).
    pub fn assignments(&self) -> impl Iterator<Item = Assignment> + '_ {
        let [ids, _, _, _, _, next, ring_points, ring_tails, ..] =
            split_ref(self.storage.as_ref(), &self.layout.regions);
        Assignments {
            ring: Ring {
                points: ring_points.get(..self.ring_len as usize).unwrap_or(&[]),
                tails: ring_tails,
                next,
                per_consumer: self.config.points,
            },
            ids,
            range_max: i64::from(self.range.end()),
            pos: 0,
            pending: None,
            tail_done: false,
        }
    }

    /// Each consumer's ranges, merged when adjacent (Java's
    /// `getConsumerKeyHashRanges`), in slot order. The owner of the first
    /// point usually has two ranges, `[1, p0]` and `[last + 1, max]`.
    pub fn consumer_ranges(&self) -> impl Iterator<Item = Assignment> + '_ {
        super::snapshot::Merged::new(self.assignments())
    }

    /// The consumers, in no particular order.
    pub fn consumers(&self) -> impl Iterator<Item = ConsumerId> + '_ {
        let [ids, index, ..] = split_ref(self.storage.as_ref(), &self.layout.regions);
        index
            .iter()
            .enumerate()
            .filter(|&(_, &i)| i != NONE)
            .map(move |(h, _)| id_at(ids, h as u32))
    }

    /// The same selector in new, bigger storage: same assignments, same
    /// history (what later adds and removes do depends on it), same last
    /// impact. Bindings without a fixed capacity grow when an add fails with
    /// [`AssignError::ConsumerCapacity`]; `self` is left as it was.
    ///
    /// # Errors
    /// [`ConfigError::CannotGrowInto`] for other points or another range,
    /// or fewer consumers or name bytes; the errors of
    /// [`ConsistentHashingSelector::new`].
    pub fn grow<T: AsRef<[u32]> + AsMut<[u32]>>(
        &self,
        config: ConsistentHashingConfig,
        storage: T,
    ) -> Result<ConsistentHashingSelector<T>, ConfigError> {
        let old_config = self.config;
        if config.points != old_config.points
            || config.range_max != old_config.range_max
            || config.max_consumers < old_config.max_consumers
            || config.name_bytes < old_config.name_bytes
        {
            return Err(ConfigError::CannotGrowInto);
        }
        let mut grown = ConsistentHashingSelector::new(config, storage)?;
        let old = split_ref(self.storage.as_ref(), &self.layout.regions);
        let [
            ids,
            index,
            name_off,
            name_len,
            name_hash,
            next,
            ring_points,
            ring_tails,
            table,
            names,
            _,
            impact,
            prev,
            lookup,
            free,
        ] = split_mut(grown.storage.as_mut(), &grown.layout.regions);
        let c = old_config.max_consumers as usize;
        let registrations = c * old_config.points as usize;
        let ring = self.ring_len as usize;
        copy_prefix(ids, old[0], 2 * c);
        copy_prefix(index, old[1], c);
        copy_prefix(name_off, old[2], c);
        // New handles sit after every stored name: names stay packed in
        // handle order.
        if let Some(new_offsets) = name_off.get_mut(c..) {
            new_offsets.fill(self.name_top);
        }
        copy_prefix(name_len, old[3], c);
        copy_prefix(name_hash, old[4], c);
        copy_prefix(next, old[5], registrations);
        copy_prefix(ring_points, old[6], ring);
        copy_prefix(ring_tails, old[7], ring);
        copy_prefix(table, old[8], usize::MAX);
        copy_prefix(names, old[9], self.name_top as usize);
        copy_prefix(impact, old[11], usize::MAX);
        copy_prefix(prev, old[12], registrations);
        rebuild_handles(ids, index, lookup, free);
        grown.consumers = self.consumers;
        grown.set_ring_len(self.ring_len);
        grown.name_top = self.name_top;
        grown.removed_len = self.removed_len;
        grown.added_len = self.added_len;
        Ok(grown)
    }

    /// Gives the storage back.
    pub fn into_storage(self) -> S {
        self.storage
    }
}

/// A read-only view of the ring.
#[derive(Clone, Copy)]
struct Ring<'a> {
    points: &'a [u32],
    tails: &'a [u32],
    next: &'a [u32],
    per_consumer: u32,
}

impl Ring<'_> {
    /// The selected consumer at `pos` (`NONE` past the end).
    #[inline(always)]
    fn owner(&self, pos: usize) -> u32 {
        if pos >= self.points.len() {
            return NONE;
        }
        owner(self.tails, self.next, self.per_consumer, pos)
    }

    /// The first slot of the arc ending at `pos`.
    fn arc_start(&self, pos: usize) -> i64 {
        match pos.checked_sub(1) {
            Some(below) => i64::from(rd(self.points, below)) + 1,
            None => 1,
        }
    }

    /// The owner of the first point from `pos` on (wrapping) not owned by
    /// `handle`, or `NONE` when it owns them all.
    fn next_owner_other_than(&self, pos: usize, handle: u32) -> u32 {
        let len = self.points.len();
        (0..len)
            .map(|step| self.owner((pos + step) % len))
            .find(|&o| o != handle)
            .unwrap_or(NONE)
    }
}

/// Records that `[lo, hi]` moved from handle `before` (maybe `NONE`) to
/// handle `after`.
fn push_move(
    removed: &mut ImpactWriter<'_>,
    added: &mut ImpactWriter<'_>,
    ids: &[u32],
    before: u32,
    after: u32,
    lo: i64,
    hi: i64,
) {
    if before != NONE {
        removed.push(id_at(ids, before), lo, hi);
    }
    added.push(id_at(ids, after), lo, hi);
}

/// Queues registration `reg` at the end of the list at ring position `pos`.
fn append(next: &mut [u32], prev: &mut [u32], tails: &mut [u32], pos: usize, reg: u32) {
    let tail = rd(tails, pos);
    let head = rd(next, tail as usize);
    wr(next, reg as usize, head);
    wr(prev, reg as usize, tail);
    wr(next, tail as usize, reg);
    wr(prev, head as usize, reg);
    wr(tails, pos, reg);
}

/// The smallest name index not used by a live consumer named `name`
/// (Java's `ConsumerNameIndexTracker`). With `m` such consumers the answer
/// is at most `m`; a binary search over "are 0..k all taken" costs
/// O(C log m) and needs no memory.
fn smallest_free_index(
    index: &[u32],
    name_off: &[u32],
    name_len: &[u32],
    name_hash: &[u32],
    names: &[u32],
    name: &[u8],
    hash: u32,
) -> u32 {
    let same = |h: usize| {
        let i = rd(index, h);
        i != NONE
            && i != NO_INDEX
            && rd(name_hash, h) == hash
            && rd(name_len, h) as usize == name.len()
            && name_equals(names, rd(name_off, h), name)
    };
    let taken_below = |k: u32| {
        (0..index.len())
            .filter(|&h| same(h) && rd(index, h) < k)
            .count()
    };
    let m = (0..index.len()).filter(|&h| same(h)).count() as u32;
    let (mut lo, mut hi) = (0u32, m);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if taken_below(mid) == mid as usize {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

fn name_equals(names: &[u32], off: u32, name: &[u8]) -> bool {
    name.chunks(4).enumerate().all(|(i, chunk)| {
        // Byte by byte: a slice comparison would call `bcmp`, which a
        // freestanding build may not have.
        let word = rd(names, off as usize + i).to_le_bytes();
        chunk.iter().zip(word).all(|(&a, b)| a == b)
    })
}

fn stream_name(names: &[u32], off: u32, len: u32, hasher: &mut Murmur3Hasher) {
    let mut left = len as usize;
    let mut at = off as usize;
    while left > 0 {
        let word = rd(names, at).to_le_bytes();
        let n = left.min(4);
        hasher.update(word.get(..n).unwrap_or(&[]));
        left -= n;
        at += 1;
    }
}

/// Stores `name` for handle `h`, keeping the names packed in handle order:
/// the names of higher handles move up.
fn store_name(
    name_off: &mut [u32],
    name_len: &mut [u32],
    names: &mut [u32],
    top: usize,
    h: usize,
    name: &[u8],
) {
    let words = name.len().div_ceil(4);
    let off = rd(name_off, h) as usize;
    if let Some(moving) = names.get_mut(off..top + words) {
        moving.copy_within(..top - off, words);
    }
    for (i, chunk) in name.chunks(4).enumerate() {
        let mut word = [0u8; 4];
        if let Some(w) = word.get_mut(..chunk.len()) {
            w.copy_from_slice(chunk);
        }
        wr(names, off + i, u32::from_le_bytes(word));
    }
    wr(name_len, h, name.len() as u32);
    for o in name_off.iter_mut().skip(h + 1) {
        *o += words as u32;
    }
}

/// Frees handle `h`'s name, moving the names of higher handles down;
/// returns the words freed.
fn free_name(
    name_off: &mut [u32],
    name_len: &mut [u32],
    names: &mut [u32],
    top: usize,
    h: usize,
) -> u32 {
    let words = (rd(name_len, h) as usize).div_ceil(4);
    let off = rd(name_off, h) as usize;
    if let Some(moving) = names.get_mut(off..top)
        && words <= moving.len()
    {
        moving.copy_within(words.., 0);
    }
    wr(name_len, h, 0);
    for o in name_off.iter_mut().skip(h + 1) {
        *o = o.saturating_sub(words as u32);
    }
    words as u32
}

/// Java's `internalGetConsumerHashAssignmentsSnapshot`, streamed.
struct Assignments<'a> {
    ring: Ring<'a>,
    ids: &'a [u32],
    range_max: i64,
    pos: usize,
    /// The range being built: start, end, owner handle.
    pending: Option<(i64, i64, u32)>,
    tail_done: bool,
}

impl Assignments<'_> {
    fn emit(&self, (start, end, handle): (i64, i64, u32)) -> Assignment {
        Assignment {
            range: HashRange::new(start as i32, end as i32),
            consumer: id_at(self.ids, handle),
        }
    }
}

impl Iterator for Assignments<'_> {
    type Item = Assignment;

    fn next(&mut self) -> Option<Assignment> {
        loop {
            if let Some(&point) = self.ring.points.get(self.pos) {
                let point = i64::from(point);
                let o = self.ring.owner(self.pos);
                self.pos += 1;
                match self.pending {
                    None => self.pending = Some((1, point, o)),
                    Some((start, _, prev)) if prev == o => self.pending = Some((start, point, o)),
                    Some(done @ (_, end, _)) => {
                        self.pending = Some((end + 1, point, o));
                        return Some(self.emit(done));
                    }
                }
            } else if !self.tail_done {
                self.tail_done = true;
                let (start, last, prev) = self.pending?;
                if last != self.range_max {
                    let first = self.ring.owner(0);
                    if first == prev {
                        self.pending = Some((start, self.range_max, prev));
                    } else {
                        self.pending = Some((last + 1, self.range_max, first));
                        return Some(self.emit((start, last, prev)));
                    }
                }
            } else {
                return self.pending.take().map(|p| self.emit(p));
            }
        }
    }
}
