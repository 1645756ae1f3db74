//! Bundle splitting: the broker's four algorithms that choose split points,
//! and `splitBundles`, which applies them to a layout.
//!
//! The algorithms work on what the broker would read from its own state (the
//! CRC-32s of the bundle's topics, their rates); the caller supplies those,
//! in storage it owns, so the core stays allocation-free.

use core::fmt;
use core::str::FromStr;

use super::{BundleError, BundleLayout, BundleRange};

/// The broker's split algorithms (`supportedNamespaceBundleSplitAlgorithms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SplitAlgorithm {
    /// Halve the range (the broker default).
    #[default]
    RangeEquallyDivide,
    /// Split between the two middle topic hashes.
    TopicCountEquallyDivide,
    /// Split at given positions, if the bundle has more than one topic.
    SpecifiedPositionsDivide,
    /// Split at given positions regardless of topics (admin "split with positions").
    SpecifiedPositionsDivideForce,
    /// Split where the accumulated message rate or throughput would exceed the limits.
    FlowOrQpsEquallyDivide,
}

impl SplitAlgorithm {
    /// The broker's configuration name, e.g. `range_equally_divide`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::RangeEquallyDivide => "range_equally_divide",
            Self::TopicCountEquallyDivide => "topic_count_equally_divide",
            Self::SpecifiedPositionsDivide => "specified_positions_divide",
            Self::SpecifiedPositionsDivideForce => "specified_positions_divide_force",
            Self::FlowOrQpsEquallyDivide => "flow_or_qps_equally_divide",
        }
    }
}

impl fmt::Display for SplitAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SplitAlgorithm {
    type Err = BundleError;
    fn from_str(s: &str) -> Result<Self, BundleError> {
        [
            Self::RangeEquallyDivide,
            Self::TopicCountEquallyDivide,
            Self::SpecifiedPositionsDivide,
            Self::SpecifiedPositionsDivideForce,
            Self::FlowOrQpsEquallyDivide,
        ]
        .into_iter()
        .find(|a| a.name() == s)
        .ok_or(BundleError::UnknownSplitAlgorithm)
    }
}

/// `range_equally_divide`: the middle of the bundle, `lower + (upper - lower) / 2`.
///
/// For the full range this is `0x7fffffff`, not `0x80000000`: splitting a
/// one-bundle namespace does not give the two-bundle default layout.
#[must_use]
pub const fn range_equally_divide(bundle: BundleRange) -> i64 {
    // Java's `long` arithmetic, wrapping for ranges wider than i64::MAX.
    bundle
        .lower()
        .wrapping_add(bundle.upper().wrapping_sub(bundle.lower()) / 2)
}

/// `topic_count_equally_divide`: halfway between the two middle hashes of
/// the bundle's topics (sorted in place), or `None` (no split) for fewer
/// than two topics.
#[must_use]
pub fn topic_count_equally_divide(topic_hashes: &mut [u32]) -> Option<i64> {
    if topic_hashes.len() <= 1 {
        return None;
    }
    topic_hashes.sort_unstable();
    let half = topic_hashes.len() / 2;
    let start = i64::from(topic_hashes[half.saturating_sub(1)]);
    let end = i64::from(topic_hashes[half]);
    Some(start + (end - start) / 2)
}

/// `specified_positions_divide` (and its `_force` variant): the positions
/// strictly inside the bundle, sorted. They are moved to the front of
/// `positions` and returned; `None` means no split. Without `force`, a
/// bundle with at most one topic is not split. Duplicates are kept, as the
/// broker keeps them (the split then fails on an empty range).
///
/// # Errors
/// [`BundleError::NoSplitPositions`] for an empty list, whatever the bundle.
pub fn specified_positions_divide(
    bundle: BundleRange,
    positions: &mut [i64],
    owned_topics: usize,
    force: bool,
) -> Result<Option<&[i64]>, BundleError> {
    if positions.is_empty() {
        return Err(BundleError::NoSplitPositions);
    }
    positions.sort_unstable();
    if !force && owned_topics <= 1 {
        return Ok(None);
    }
    let mut kept = 0;
    for i in 0..positions.len() {
        let p = positions[i];
        if p > bundle.lower() && p < bundle.upper() {
            positions[kept] = p;
            kept += 1;
        }
    }
    Ok((kept > 0).then_some(&positions[..kept]))
}

/// One topic's load, as `flow_or_qps_equally_divide` reads it from the
/// topic's stats. `#[repr(C)]` so that C callers can hand over their array
/// as is; the rates come first to leave no padding before them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TopicLoad {
    /// `msgRateIn`.
    pub msg_rate_in: f64,
    /// `msgRateOut`.
    pub msg_rate_out: f64,
    /// `msgThroughputIn`, bytes per second.
    pub msg_throughput_in: f64,
    /// `msgThroughputOut`, bytes per second.
    pub msg_throughput_out: f64,
    /// CRC-32 of the topic's full name.
    pub hash: u32,
}

/// The broker settings `flow_or_qps_equally_divide` splits against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlowLimits {
    /// `loadBalancerNamespaceBundleMaxMsgRate`.
    pub max_msg_rate: i32,
    /// `loadBalancerNamespaceBundleMaxBandwidthMbytes`.
    pub max_bandwidth_mbytes: i32,
    /// `flowOrQpsDifferenceThresholdPercentage`.
    pub threshold_percent: i32,
}

impl Default for FlowLimits {
    /// The broker's defaults: 30000 msg/s, 100 MB/s, 10 %.
    fn default() -> Self {
        Self {
            max_msg_rate: 30_000,
            max_bandwidth_mbytes: 100,
            threshold_percent: 10,
        }
    }
}

/// `flow_or_qps_equally_divide`. `owned_topics` is the number of topics the
/// bundle owns; `loads` holds those of them that have stats, in the broker's
/// topic order (it is reordered in place). Topics with no traffic are
/// skipped; of two topics with the same hash, the later one's load counts.
/// Walking the hashes in order, a split point is emitted where adding the
/// next topic would exceed either limit: halfway between the two hashes,
/// **plus one**, as the broker computes it.
///
/// The split points are written to `out` and returned; `None` means no split.
///
/// # Errors
/// [`BundleError::BufferTooSmall`] when `out` is shorter than the number of
/// split points (at most `loads.len() - 1`).
pub fn flow_or_qps_equally_divide<'o>(
    owned_topics: usize,
    loads: &mut [TopicLoad],
    limits: FlowLimits,
    out: &'o mut [i64],
) -> Result<Option<&'o [i64]>, BundleError> {
    if owned_topics <= 1 {
        return Ok(None);
    }
    // Drop idle topics, keeping the rest in their original order.
    let mut active = 0;
    let (mut bundle_rate, mut bundle_throughput) = (0.0f64, 0.0f64);
    for i in 0..loads.len() {
        let load = loads[i];
        let rate = load.msg_rate_in + load.msg_rate_out;
        let throughput = load.msg_throughput_in + load.msg_throughput_out;
        if rate <= 0.0 && throughput <= 0.0 {
            continue;
        }
        // The broker's totals include topics whose hash collides with a
        // later one, although the map keeps only the later one.
        bundle_rate += rate;
        bundle_throughput += throughput;
        loads[active] = load;
        active += 1;
    }
    let loads = &mut loads[..active];
    // Sort by hash; among equal hashes, by original position, so the last
    // entry of each run is the one the broker's HashMap kept.
    sort_by_hash_keeping_order(loads);

    let distinct = count_runs(loads);
    let max_rate = f64::from(limits.max_msg_rate);
    let max_bandwidth = i64::from(limits.max_bandwidth_mbytes) * 1024 * 1024;
    let max_bandwidth_f = max_bandwidth as f64;
    let diff = f64::from(limits.threshold_percent) / 100.0;
    if distinct < 2
        || (bundle_rate < max_rate * (1.0 + diff)
            && bundle_throughput < max_bandwidth_f * (1.0 + diff))
    {
        return Ok(None);
    }

    let winner = |i: usize| -> (f64, f64) {
        let hash = loads[i].hash;
        let mut j = i;
        while j + 1 < loads.len() && loads[j + 1].hash == hash {
            j += 1;
        }
        let w = loads[j];
        (
            w.msg_rate_in + w.msg_rate_out,
            w.msg_throughput_in + w.msg_throughput_out,
        )
    };
    let (mut acc_rate, mut acc_throughput) = winner(0);
    let mut written = 0;
    for i in 1..loads.len() {
        let (rate, throughput) = winner(i);
        if acc_rate > max_rate
            || acc_throughput > max_bandwidth_f
            || acc_rate + rate > max_rate
            || acc_throughput + throughput > max_bandwidth_f
        {
            let start = i64::from(loads[i - 1].hash);
            let end = i64::from(loads[i].hash);
            let slot = out.get_mut(written).ok_or(BundleError::BufferTooSmall {
                needed: loads.len().saturating_sub(1),
            })?;
            *slot = start + (end - start) / 2 + 1;
            written += 1;
            acc_rate = rate;
            acc_throughput = throughput;
        } else {
            acc_rate += rate;
            acc_throughput += throughput;
        }
    }
    Ok(Some(&out[..written]))
}

/// Sorts by hash, keeping equal hashes in their original order, without
/// allocating (core's only sort, `sort_unstable`, would lose that order).
fn sort_by_hash_keeping_order(loads: &mut [TopicLoad]) {
    // A bundle holds at most a few thousand topics: binary insertion sort is
    // quadratic in moves but simple, stable and allocation-free.
    for i in 1..loads.len() {
        let item = loads[i];
        let pos = loads[..i].partition_point(|l| l.hash <= item.hash);
        loads[pos..=i].rotate_right(1);
    }
}

fn count_runs(loads: &[TopicLoad]) -> usize {
    match loads.first() {
        None => 0,
        Some(_) => 1 + loads.windows(2).filter(|w| w[0].hash != w[1].hash).count(),
    }
}

/// The result of [`BundleLayout::split`]: the new layout, and where the new
/// bundles are in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split<'o> {
    /// The whole layout after the split.
    pub layout: BundleLayout<'o>,
    /// The index of the first new bundle.
    pub first: usize,
    /// How many bundles replaced the target.
    pub count: usize,
}

impl Split<'_> {
    /// The bundles that replaced the target.
    pub fn new_bundles(&self) -> impl Iterator<Item = BundleRange> + '_ {
        (self.first..self.first + self.count).filter_map(|i| self.layout.bundle(i))
    }
}

impl BundleLayout<'_> {
    /// Splits `target` at `boundaries` (sorted in place), as
    /// `NamespaceBundleFactory.splitBundles(target, boundaries.size() + 1,
    /// boundaries)` does after an algorithm chose them. The new layout's
    /// boundaries are written to `out`.
    ///
    /// # Errors
    /// - [`BundleError::CannotSplitFurther`] for a bundle of width 1;
    /// - [`BundleError::SplitBoundaryOutsideBundle`] unless every boundary is
    ///   strictly inside the bundle;
    /// - [`BundleError::BundleNotFound`] / [`BundleError::InvalidUpperBoundary`]
    ///   when `target` is not one of this layout's bundles (the broker returns
    ///   no result);
    /// - [`BundleError::EmptyRange`] for duplicate boundaries;
    /// - [`BundleError::BufferTooSmall`] when `out` is shorter than
    ///   `len() + boundaries.len() + 1`.
    pub fn split<'o>(
        &self,
        target: BundleRange,
        boundaries: &mut [i64],
        out: &'o mut [u32],
    ) -> Result<Split<'o>, BundleError> {
        if boundaries.is_empty() {
            return self.split_equally(target, 1, out);
        }
        if !target.can_split() {
            return Err(BundleError::CannotSplitFurther(target));
        }
        boundaries.sort_unstable();
        let (first, last) = (boundaries[0], boundaries[boundaries.len() - 1]);
        if first <= target.lower() || last >= target.upper() {
            return Err(BundleError::SplitBoundaryOutsideBundle(target));
        }
        // Strictly inside a bundle of the hash space, so they fit in u32.
        let points = boundaries.iter().map(|&b| b as u32);
        self.rebuild(target, boundaries.len() + 1, points, out)
    }

    /// Splits `target` into `parts` equal parts (`splitBundles(target, n,
    /// null)`): boundaries every `(upper - lower) / parts` from the lower
    /// bound. This is not the default layout's spacing: the full range in 4
    /// parts gives `0x3fffffff, 0x7ffffffe, 0xbffffffd`.
    ///
    /// # Errors
    /// As [`BundleLayout::split`], plus [`BundleError::ZeroSplitParts`].
    pub fn split_equally<'o>(
        &self,
        target: BundleRange,
        parts: u32,
        out: &'o mut [u32],
    ) -> Result<Split<'o>, BundleError> {
        if !target.can_split() {
            return Err(BundleError::CannotSplitFurther(target));
        }
        if parts == 0 {
            return Err(BundleError::ZeroSplitParts);
        }
        // Java's `long` arithmetic wraps; a target that is one of the
        // layout's bundles (checked before any point is used) never does,
        // and then lower + k * step < upper <= 0xffffffff for k < parts.
        let step = target.upper().wrapping_sub(target.lower()) / i64::from(parts);
        let lower = target.lower();
        let points =
            (1..i64::from(parts)).map(move |k| lower.wrapping_add(k.wrapping_mul(step)) as u32);
        self.rebuild(target, parts as usize, points, out)
    }

    fn rebuild<'o>(
        &self,
        target: BundleRange,
        parts: usize,
        mut points: impl Iterator<Item = u32>,
        out: &'o mut [u32],
    ) -> Result<Split<'o>, BundleError> {
        let index = self.validate_bundle(target)?;
        let needed = self.len() + parts;
        let out = out
            .get_mut(..needed)
            .ok_or(BundleError::BufferTooSmall { needed })?;
        let old = self.boundaries();
        let mut written = 0;
        for (i, b) in old.enumerate() {
            out[written] = b;
            written += 1;
            if i == index {
                for p in points.by_ref().take(parts - 1) {
                    out[written] = p;
                    written += 1;
                }
            }
        }
        let layout = BundleLayout::new(out)?;
        Ok(Split {
            layout,
            first: index,
            count: parts,
        })
    }
}
