//! A namespace's bundles: sorted boundaries over the 32-bit hash space.

use core::cmp::Ordering;

use super::range::FULL_UPPER_BOUND;
use super::{BundleError, BundleRange};
use crate::java_number::decode_long;
use crate::topic_name::TopicName;

/// A namespace's bundle layout (Java's `NamespaceBundles`): `k + 1` sorted
/// boundaries making `k` bundles, bundle `i` being `[b[i], b[i+1])` and the
/// last one `[b[k-1], 0xffffffff]`.
///
/// The default layout of a new namespace needs no storage
/// ([`BundleLayout::default_for`]); any other layout borrows its boundaries
/// from the caller ([`BundleLayout::new`]), so nothing is allocated.
///
/// ```
/// use pulsar_routing::bundles::BundleLayout;
/// let four = BundleLayout::default_for(4)?;
/// let names: Vec<String> = four.bundles().map(|b| b.to_string()).collect();
/// assert_eq!(names[0], "0x00000000_0x40000000");
/// assert_eq!(names[3], "0xc0000000_0xffffffff");
/// assert_eq!(four.bundle_for_hash(732775927).map(|b| b.to_string()).as_deref(), Some("0x00000000_0x40000000"));
/// # Ok::<(), pulsar_routing::bundles::BundleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundleLayout<'a> {
    repr: Repr<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Repr<'a> {
    /// `PoliciesUtil.getBundles(count)`: boundaries `i * step`, then
    /// `0xffffffff`. `pow2` says that `count` is a power of two (the
    /// broker's default 4), so that every bundle but the last is exactly
    /// `step` wide and a lookup is a mask.
    Default { count: u32, step: u64, pow2: bool },
    /// Boundaries from the caller, and optionally an index over them
    /// ([`BundleLayout::indexed`]) that replaces the binary search.
    Explicit {
        boundaries: &'a [u32],
        index: Option<&'a [[u32; INDEX_ENTRY_WORDS]]>,
    },
}

// Two layouts are equal when their bundles are: an index changes the speed
// of a lookup, never its answer.
impl PartialEq for Repr<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Default { count: a, .. }, Self::Default { count: b, .. }) => a == b,
            (Self::Explicit { boundaries: a, .. }, Self::Explicit { boundaries: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl Eq for Repr<'_> {}

/// The largest index [`BundleLayout::indexed`] uses: 2^20 entries (12 MiB).
/// Past a few entries per bundle, a larger table only costs cache.
const MAX_INDEX_BITS: u32 = 20;

/// The `u32` words of one entry of a [`BundleLayout::indexed`] table: a
/// bundle's lower and upper bound and position, or, for a slice of the hash
/// space that a boundary cuts, the range of boundaries to search.
pub const INDEX_ENTRY_WORDS: usize = 3;

impl<'a> BundleLayout<'a> {
    /// The layout the broker gives a namespace created with `count` bundles
    /// (`PoliciesUtil.getBundles`): boundaries every `2^32 / count`, the last
    /// forced to `0xffffffff`, so the last bundle is the widest when `count`
    /// does not divide 2^32. The broker's default is 4.
    ///
    /// # Errors
    /// [`BundleError::NoBundles`] for 0.
    pub const fn default_for(count: u32) -> Result<Self, BundleError> {
        if count == 0 {
            return Err(BundleError::NoBundles);
        }
        let step = (1u64 << 32) / count as u64;
        Ok(Self {
            repr: Repr::Default {
                count,
                step,
                pow2: count.is_power_of_two(),
            },
        })
    }

    /// A layout over caller-owned boundaries, checked as Java's
    /// `NamespaceBundles` constructor checks them, in its order.
    ///
    /// # Errors
    /// [`BundleError::NoBoundaries`], [`BundleError::TooFewBoundaries`],
    /// [`BundleError::BoundariesNotSorted`],
    /// [`BundleError::UpperEndpointNotExclusive`] (the last boundary must be
    /// `0xffffffff`, and no other may be) and [`BundleError::EmptyRange`] (a
    /// repeated boundary).
    pub fn new(boundaries: &'a [u32]) -> Result<Self, BundleError> {
        match boundaries.len() {
            0 => return Err(BundleError::NoBoundaries),
            1 => return Err(BundleError::TooFewBoundaries),
            _ => {}
        }
        let last = boundaries.len() - 1;
        for (i, pair) in boundaries.windows(2).enumerate() {
            let (lower, upper) = (pair[0], pair[1]);
            if upper < lower {
                return Err(BundleError::BoundariesNotSorted);
            }
            let is_last = i + 1 == last;
            if is_last != (upper == FULL_UPPER_BOUND) {
                return Err(BundleError::UpperEndpointNotExclusive);
            }
            if lower == upper && !is_last {
                return Err(BundleError::EmptyRange);
            }
        }
        Ok(Self {
            repr: Repr::Explicit {
                boundaries,
                index: None,
            },
        })
    }

    /// The same layout, with an index over its boundaries built in `table`,
    /// so that a hash finds its bundle in one table read instead of a binary
    /// search (`log2(len)` dependent reads). A proxy or broker that maps
    /// many topics through one explicit layout wants this; the default
    /// layout computes the bundle arithmetically and ignores the index.
    ///
    /// The index cuts the hash space into `2^k` equal slices, `2^k` the
    /// largest power of two (up to 2^20) whose entries fit in `table`, at
    /// [`INDEX_ENTRY_WORDS`] words per entry. The entry of a slice inside
    /// one bundle holds that bundle (its bounds and position), so a lookup
    /// there is one read; the entry of a slice that a boundary cuts holds
    /// the few boundaries to search. With a few slices per bundle
    /// ([`BundleLayout::recommended_index_len`]) most hashes take the first
    /// path, and with the boundaries of a power-of-two default layout every
    /// hash does. A `table` too short for one entry leaves the layout
    /// unindexed. Answers are identical with or without an index.
    ///
    /// ```
    /// use pulsar_routing::bundles::{BundleLayout, default_boundaries};
    /// let mut storage = [0u32; 1025];
    /// let plain = BundleLayout::new(default_boundaries(1024, &mut storage)?)?;
    /// let mut table = vec![0u32; BundleLayout::recommended_index_len(plain.len())];
    /// let indexed = plain.indexed(&mut table);
    /// for hash in [0, 4_194_303, 4_194_304, 0x8000_0000, 0xffff_ffff] {
    ///     assert_eq!(indexed.bundle_for_hash(hash), plain.bundle_for_hash(hash));
    /// }
    /// # Ok::<(), pulsar_routing::bundles::BundleError>(())
    /// ```
    #[must_use]
    pub fn indexed(self, table: &'a mut [u32]) -> Self {
        let Repr::Explicit { boundaries, .. } = self.repr else {
            return self;
        };
        let unindexed = Self {
            repr: Repr::Explicit {
                boundaries,
                index: None,
            },
        };
        let entries = table.len() / INDEX_ENTRY_WORDS;
        if entries == 0 {
            return unindexed;
        }
        let bits = entries.ilog2().min(MAX_INDEX_BITS);
        // Always within `table`; `get_mut` keeps a panic path out of the
        // build all the same.
        let Some(table) = table.get_mut(..INDEX_ENTRY_WORDS << bits) else {
            return unindexed;
        };
        let shift = 32 - bits;
        let last = boundaries.len() - 2;
        // Two merge cursors, both ascending: the boundaries at or below the
        // first hash of the slice, and at or below its last hash.
        let (mut from, mut to) = (0usize, 0usize);
        let (entries, _) = table.as_chunks_mut::<INDEX_ENTRY_WORDS>();
        for (j, entry) in entries.iter_mut().enumerate() {
            let first = (j as u64) << shift;
            let end = first + (1u64 << shift) - 1;
            while boundaries.get(from).is_some_and(|&b| u64::from(b) <= first) {
                from += 1;
            }
            to = to.max(from);
            while boundaries.get(to).is_some_and(|&b| u64::from(b) <= end) {
                to += 1;
            }
            // The lookup's answer is monotone in the hash, so equal answers
            // at both ends of the slice mean one answer for all of it.
            let bundle_at = |count: usize| count.checked_sub(1).map(|i| i.min(last));
            let narrow = |n: usize| u32::try_from(n).ok();
            *entry = match (bundle_at(from), bundle_at(to)) {
                (Some(i), Some(k)) if i == k && narrow(i).is_some() => {
                    // `i <= last`, so `i + 1` is a boundary.
                    let lower = boundaries.get(i).copied().unwrap_or(0);
                    let upper = boundaries.get(i + 1).copied().unwrap_or(FULL_UPPER_BOUND);
                    [lower, upper, i as u32]
                }
                // A cut slice: search the boundaries `from..to` (all of
                // them in the theoretical case of counts past 32 bits). The
                // upper word 0, which no bundle has, marks it.
                _ => match (narrow(from), narrow(to)) {
                    (Some(from), Some(to)) => [from, 0, to],
                    _ => [0, 0, u32::MAX],
                },
            };
        }
        Self {
            repr: Repr::Explicit {
                boundaries,
                index: Some(entries),
            },
        }
    }

    /// A table length, in `u32` words, for [`BundleLayout::indexed`] that
    /// gives about four index entries per bundle: [`INDEX_ENTRY_WORDS`]
    /// times the next power of two at or above `4 * bundles`, which is
    /// between 1 and 2^20.
    #[must_use]
    pub const fn recommended_index_len(bundles: usize) -> usize {
        let wanted = bundles.saturating_mul(4);
        let max = 1usize << MAX_INDEX_BITS;
        let entries = if wanted >= max {
            max
        } else if wanted < 1 {
            1
        } else {
            wanted.next_power_of_two()
        };
        entries * INDEX_ENTRY_WORDS
    }

    /// The number of bundles.
    #[must_use]
    pub const fn len(&self) -> usize {
        match self.repr {
            Repr::Default { count, .. } => count as usize,
            Repr::Explicit { boundaries, .. } => boundaries.len() - 1,
        }
    }

    /// Always false: a layout has at least one bundle.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Boundary `i` of `len() + 1`, or `None` past the end.
    #[must_use]
    #[inline]
    pub const fn boundary(&self, i: usize) -> Option<u32> {
        match self.repr {
            Repr::Default { count, step, .. } => {
                if i < count as usize {
                    // i < count, so i * step < 2^32.
                    Some((i as u64 * step) as u32)
                } else if i == count as usize {
                    Some(FULL_UPPER_BOUND)
                } else {
                    None
                }
            }
            Repr::Explicit { boundaries, .. } => {
                if i < boundaries.len() {
                    Some(boundaries[i])
                } else {
                    None
                }
            }
        }
    }

    /// All `len() + 1` boundaries, in order.
    pub fn boundaries(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        (0..self.len() + 1).map(|i| self.boundary(i).unwrap_or(FULL_UPPER_BOUND))
    }

    /// Bundle `i`, or `None` past the end.
    #[must_use]
    #[inline]
    pub fn bundle(&self, i: usize) -> Option<BundleRange> {
        let lower = self.boundary(i)?;
        let upper = self.boundary(i + 1)?;
        // The constructors guarantee non-empty, sorted ranges, so the checks
        // of `BundleRange::new` would only cost time on the lookup path.
        Some(BundleRange::from_layout(lower, upper))
    }

    /// Every bundle, in hash order.
    pub fn bundles(&self) -> impl ExactSizeIterator<Item = BundleRange> + '_ {
        (0..self.len()).map(|i| self.bundle(i).unwrap_or(BundleRange::FULL))
    }

    /// The index of the bundle that owns `hash`, or `None` when `hash` is
    /// below the first boundary (only possible in an explicit layout that
    /// does not start at 0).
    ///
    /// A hash of exactly `0xffffffff` maps to the last bundle, whose range
    /// includes it. The broker's `getBundle(hash)` throws
    /// `IndexOutOfBoundsException` there instead (its binary search lands one
    /// past the last bundle); [`BundleLayout::bundle_index_for_hash_java`]
    /// reproduces that.
    #[must_use]
    #[inline]
    pub fn bundle_index_for_hash(&self, hash: u32) -> Option<usize> {
        match self.repr {
            Repr::Default { count, step, .. } => Some(default_index(count, step, hash)),
            Repr::Explicit { boundaries, index } => {
                // The number of boundaries <= hash, minus one, is the bundle
                // whose lower bound is the largest one not above the hash.
                let at_or_below = match index.map(|table| index_entry(table, hash)) {
                    Some(IndexEntry::Bundle { index, .. }) => return Some(index),
                    Some(IndexEntry::Cut { from, to }) => search_window(boundaries, from, to, hash),
                    None => boundaries.partition_point(|&x| x <= hash),
                };
                let last = boundaries.len() - 2;
                at_or_below.checked_sub(1).map(|i| i.min(last))
            }
        }
    }

    /// The broker's own lookup (`NamespaceBundles.getBundle(hash)`), failure
    /// modes included: `Arrays.binarySearch` over the boundaries, an exact
    /// hit giving the bundle that starts there. For `0xffffffff` that is one
    /// past the last bundle, so Java throws where
    /// [`BundleLayout::bundle_index_for_hash`] answers the last bundle.
    ///
    /// # Errors
    /// [`BundleError::NoBundleForHash`] where Java throws
    /// `IndexOutOfBoundsException`.
    pub fn bundle_index_for_hash_java(&self, hash: u32) -> Result<usize, BundleError> {
        let index = match self.java_binary_search(hash) {
            Ok(i) => Some(i),
            Err(insertion) => insertion.checked_sub(1),
        };
        index
            .filter(|&i| i < self.len())
            .ok_or(BundleError::NoBundleForHash(hash))
    }

    /// The bundle that owns `hash`; see [`BundleLayout::bundle_index_for_hash`].
    #[must_use]
    #[inline]
    pub fn bundle_for_hash(&self, hash: u32) -> Option<BundleRange> {
        // Every topic lookup lands here, and with a power-of-two count (the
        // broker's default 4) the bundle is a mask and an add: the hash
        // rounded down to a multiple of the width, up to the next multiple,
        // where the last upper bound, 2^32, is the inclusive 0xffffffff.
        if let Repr::Default {
            step, pow2: true, ..
        } = self.repr
        {
            let lower = u64::from(hash) & !(step - 1);
            let upper = (lower + step).min(u64::from(FULL_UPPER_BOUND));
            return Some(BundleRange::from_layout(lower as u32, upper as u32));
        }
        // An indexed layout mostly answers from the entry itself.
        if let Repr::Explicit {
            index: Some(table), ..
        } = self.repr
            && let IndexEntry::Bundle { lower, upper, .. } = index_entry(table, hash)
        {
            return Some(BundleRange::from_layout(lower, upper));
        }
        self.bundle_for_hash_by_index(hash)
    }

    /// [`BundleLayout::bundle_for_hash`] through the bundle's position: the
    /// paths that search or divide, kept out of line so that the two
    /// shortcuts above inline into every caller.
    #[inline(never)]
    fn bundle_for_hash_by_index(&self, hash: u32) -> Option<BundleRange> {
        self.bundle(self.bundle_index_for_hash(hash)?)
    }

    /// The bundle that serves `topic`: the CRC-32 of its canonical name,
    /// streamed without building the string, then [`BundleLayout::bundle_for_hash`].
    /// A partition is its own topic (`x-partition-3`): use
    /// `bundle_for_hash(topic.partition(3)?.crc32())`, so the partitions of
    /// one topic spread over the bundles.
    ///
    /// ```
    /// use pulsar_routing::bundles::BundleLayout;
    /// use pulsar_routing::topic_name::TopicName;
    /// let topic = TopicName::parse("my-topic")?;
    /// let bundle = BundleLayout::default_for(4)?.bundle_for_topic(&topic).unwrap();
    /// assert_eq!(bundle.key(topic.namespace()).to_string(), "public/default/0x00000000_0x40000000");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn bundle_for_topic(&self, topic: &TopicName<'_>) -> Option<BundleRange> {
        self.bundle_for_hash(topic.crc32())
    }

    /// The position of `bundle` in this layout, checked as Java's
    /// `NamespaceBundles.validateBundle`.
    ///
    /// # Errors
    /// [`BundleError::BundleNotFound`] when its lower bound is not a
    /// boundary, [`BundleError::InvalidUpperBoundary`] when the upper bound
    /// differs from the next boundary.
    pub fn validate_bundle(&self, bundle: BundleRange) -> Result<usize, BundleError> {
        let lower = u32::try_from(bundle.lower()).map_err(|_| BundleError::BundleNotFound)?;
        let i = self
            .java_binary_search(lower)
            .map_err(|_| BundleError::BundleNotFound)?;
        match self.bundle(i) {
            Some(found) if found.upper() == bundle.upper() => Ok(i),
            _ => Err(BundleError::InvalidUpperBoundary),
        }
    }

    /// Java's `Arrays.binarySearch` over the boundaries, step for step (so
    /// that it picks the same index among equal boundaries): `Ok(index)` of
    /// a match, or `Err(insertion point)`.
    fn java_binary_search(&self, value: u32) -> Result<usize, usize> {
        // `high` is exclusive here where Java's is inclusive, so Java's
        // midpoint `(low + high) >>> 1` reads `(low + high - 1) / 2`.
        let (mut low, mut high) = (0usize, self.len() + 1);
        while low < high {
            let mid = (low + high - 1) / 2;
            match self.boundary(mid).map(|b| b.cmp(&value)) {
                Some(Ordering::Less) => low = mid + 1,
                Some(Ordering::Greater) => high = mid,
                Some(Ordering::Equal) => return Ok(mid),
                None => break,
            }
        }
        Err(low)
    }

    /// Counts how many of `hashes` land in each bundle, adding to `counts`
    /// (one slot per bundle). Hashes that no bundle owns are not counted;
    /// their number is returned.
    ///
    /// # Errors
    /// [`BundleError::BufferTooSmall`] when `counts` has fewer than
    /// [`BundleLayout::len`] slots.
    pub fn count_per_bundle(
        &self,
        hashes: impl IntoIterator<Item = u32>,
        counts: &mut [u64],
    ) -> Result<u64, BundleError> {
        let counts = counts
            .get_mut(..self.len())
            .ok_or(BundleError::BufferTooSmall { needed: self.len() })?;
        let mut unowned = 0;
        for hash in hashes {
            match self
                .bundle_index_for_hash(hash)
                .and_then(|i| counts.get_mut(i))
            {
                Some(slot) => *slot += 1,
                None => unowned += 1,
            }
        }
        Ok(unowned)
    }

    /// For each hash, the bundle that owned it before and the one that owns
    /// it after a layout change: the impact of a split on a topic list.
    pub fn compare<'b, I>(
        &self,
        after: &BundleLayout<'b>,
        hashes: I,
    ) -> BundleChanges<'a, 'b, I::IntoIter>
    where
        I: IntoIterator<Item = u32>,
    {
        BundleChanges {
            before: *self,
            after: *after,
            hashes: hashes.into_iter(),
        }
    }
}

/// One entry of a [`BundleLayout::indexed`] table, decoded.
enum IndexEntry {
    /// The slice lies in one bundle.
    Bundle {
        lower: u32,
        upper: u32,
        index: usize,
    },
    /// Boundaries `from..to` cut the slice: `from` of them lie at or below
    /// its first hash, `to` at or below its last.
    Cut { from: usize, to: usize },
}

/// The entry of the slice of the hash space `hash` falls in. The table
/// holds `2^k` entries (see [`BundleLayout::indexed`]).
#[inline]
fn index_entry(entries: &[[u32; INDEX_ENTRY_WORDS]], hash: u32) -> IndexEntry {
    // `entries.len()` is a power of two 2^k up to 2^20, so this is
    // `hash >> (32 - k)` (one multiply, cheaper than a variable shift) and
    // `j < entries.len()`; a table not built by `indexed` only falls back
    // to a full search.
    let j = ((u64::from(hash) * entries.len() as u64) >> 32) as usize;
    match entries.get(j) {
        Some(&[lower, upper, index]) if upper != 0 => IndexEntry::Bundle {
            lower,
            upper,
            index: index as usize,
        },
        Some(&[from, _, to]) => IndexEntry::Cut {
            from: from as usize,
            to: to as usize,
        },
        None => IndexEntry::Cut {
            from: 0,
            to: usize::MAX,
        },
    }
}

/// How many `boundaries` lie at or below `hash`, given that `from` of them
/// lie at or below the start of its slice and `to` at or below its end.
fn search_window(boundaries: &[u32], from: usize, to: usize, hash: u32) -> usize {
    match boundaries.get(from..to.min(boundaries.len())) {
        // Usually one or two boundaries: a scan beats a search there.
        Some(window) if window.len() <= 4 => {
            from + window.iter().take_while(|&&b| b <= hash).count()
        }
        Some(window) => from + window.partition_point(|&b| b <= hash),
        // Only reachable if the table was not built for these boundaries.
        None => boundaries.partition_point(|&b| b <= hash),
    }
}

/// The bundle of `hash` in the default layout, by arithmetic instead of a
/// search: bundle `i` starts at `i * step`, and everything from
/// `(count - 1) * step` up belongs to the last one.
#[inline]
fn default_index(count: u32, step: u64, hash: u32) -> usize {
    let last = count as usize - 1;
    // `hash * count >> 32` never exceeds `hash / step` (step <= 2^32/count),
    // and falls short by at most `count / step`, under 1 while count <= 2^16;
    // a single correction step then suffices. Above that, divide.
    if count <= 1 << 16 {
        let mut i = ((u64::from(hash) * u64::from(count)) >> 32) as usize;
        if i < last && ((i as u64 + 1) * step) <= u64::from(hash) {
            i += 1;
        }
        i.min(last)
    } else {
        ((u64::from(hash) / step) as usize).min(last)
    }
}

/// Iterator returned by [`BundleLayout::compare`].
#[derive(Clone, Debug)]
pub struct BundleChanges<'a, 'b, I> {
    before: BundleLayout<'a>,
    after: BundleLayout<'b>,
    hashes: I,
}

/// Where one hash (one topic) was and is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BundleChange {
    /// The topic's CRC-32.
    pub hash: u32,
    /// Its bundle in the first layout.
    pub before: Option<BundleRange>,
    /// Its bundle in the second layout.
    pub after: Option<BundleRange>,
}

impl BundleChange {
    /// Whether the topic is now in a different bundle (a different range);
    /// after a split, exactly the topics of the split bundle change.
    #[must_use]
    pub fn changed(&self) -> bool {
        self.before != self.after
    }
}

impl<I: Iterator<Item = u32>> Iterator for BundleChanges<'_, '_, I> {
    type Item = BundleChange;

    fn next(&mut self) -> Option<BundleChange> {
        let hash = self.hashes.next()?;
        Some(BundleChange {
            hash,
            before: self.before.bundle_for_hash(hash),
            after: self.after.bundle_for_hash(hash),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hashes.size_hint()
    }
}

/// Writes the default layout's `count + 1` boundaries into `out` and returns
/// them (`PoliciesUtil.getBundles`).
///
/// # Errors
/// [`BundleError::NoBundles`] for 0, [`BundleError::BufferTooSmall`] when
/// `out` is shorter than `count + 1`.
pub fn default_boundaries(count: u32, out: &mut [u32]) -> Result<&[u32], BundleError> {
    let layout = BundleLayout::default_for(count)?;
    let needed = layout.len() + 1;
    let out = out
        .get_mut(..needed)
        .ok_or(BundleError::BufferTooSmall { needed })?;
    for (slot, b) in out.iter_mut().zip(layout.boundaries()) {
        *slot = b;
    }
    Ok(out)
}

/// Reads one boundary as the broker reads `BundlesData` boundaries
/// (`Long.decode`: `0x…`, `#…`, octal, decimal), and checks that it lies in
/// the 32-bit hash space.
///
/// # Errors
/// [`BundleError::InvalidBound`] for text that is not a number, and
/// [`BundleError::BoundaryOutOfRange`] outside `0..=0xffffffff`.
pub fn parse_boundary(text: &str) -> Result<u32, BundleError> {
    let value = decode_long(text).map_err(BundleError::from)?;
    boundary_from_i64(value)
}

/// Checks that a boundary given as a signed number lies in the hash space.
///
/// # Errors
/// [`BundleError::BoundaryOutOfRange`] outside `0..=0xffffffff`.
pub fn boundary_from_i64(value: i64) -> Result<u32, BundleError> {
    u32::try_from(value).map_err(|_| BundleError::BoundaryOutOfRange(value))
}

/// The admin API's check on a boundary list (`validateFullRange`): as a
/// sorted set of strings, it must start with exactly `0x00000000` and end
/// with exactly `0xffffffff`. It compares text, so `0x0` or `0xFFFFFFFF`
/// fail even though they are the right numbers.
///
/// # Errors
/// [`BundleError::NotFullRange`], or [`BundleError::NoBoundaries`] for an
/// empty list.
pub fn validate_full_range<'s>(
    boundaries: impl IntoIterator<Item = &'s str>,
) -> Result<(), BundleError> {
    // Java's String order is by UTF-16 code unit.
    let by_utf16 = |a: &&str, b: &&str| a.encode_utf16().cmp(b.encode_utf16());
    let mut first: Option<&str> = None;
    let mut last: Option<&str> = None;
    for b in boundaries {
        if first.is_none_or(|f| by_utf16(&b, &f) == Ordering::Less) {
            first = Some(b);
        }
        if last.is_none_or(|l| by_utf16(&b, &l) == Ordering::Greater) {
            last = Some(b);
        }
    }
    match (first, last) {
        (Some("0x00000000"), Some("0xffffffff")) => Ok(()),
        (None, _) | (_, None) => Err(BundleError::NoBoundaries),
        _ => Err(BundleError::NotFullRange),
    }
}
