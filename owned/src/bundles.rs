//! Bundle layouts that own their boundaries, the broker's split algorithms
//! run over owned inputs, and splits that write nothing until they are
//! sure to succeed. The C ABI splits into the caller's array and Python
//! into a new layout object, through the same checks in the same order, so
//! the two report the same error for the same split.

use std::hash::{Hash, Hasher};

use pulsar_routing::bundles::{
    BundleError, BundleLayout, BundleRange, FlowLimits, Split, SplitAlgorithm, TopicLoad,
    flow_or_qps_equally_divide, range_equally_divide, specified_positions_divide,
    topic_count_equally_divide,
};

/// A namespace's bundle layout that owns what it needs: the default layout
/// is kept as its bundle count (it needs no storage), any other as its
/// checked boundaries. Equal when the boundaries are, however stored.
#[derive(Clone, Debug)]
pub struct OwnedBundles {
    storage: Storage,
}

/// How an [`OwnedBundles`] keeps its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// `PoliciesUtil.getBundles(count)`, for this count.
    Default(u32),
    /// Boundaries that `BundleLayout::new` accepted.
    Explicit(Box<[u32]>),
}

/// How a split cuts its target bundle.
#[derive(Debug)]
pub enum SplitPoints<'p> {
    /// At these points (`splitBundles(target, n + 1, points)`), sorted in
    /// place as the broker sorts its list.
    At(&'p mut [i64]),
    /// Into this many equal parts (`splitBundles(target, parts, null)`).
    Equally(u32),
}

impl OwnedBundles {
    /// The default layout for a Java `int` count: 0 and negative counts
    /// are the broker's error.
    ///
    /// # Errors
    /// [`BundleError::NoBundles`] for a count below 1.
    pub fn default_for_int(count: i32) -> Result<Self, BundleError> {
        default_layout(count)?;
        Ok(Self {
            storage: Storage::Default(count.unsigned_abs()),
        })
    }

    /// A layout over `boundaries`, checked as Java's `NamespaceBundles`
    /// constructor checks them.
    ///
    /// # Errors
    /// What [`BundleLayout::new`] reports.
    pub fn from_boundaries(boundaries: Vec<u32>) -> Result<Self, BundleError> {
        BundleLayout::new(&boundaries)?;
        Ok(Self {
            storage: Storage::Explicit(boundaries.into_boxed_slice()),
        })
    }

    /// The core's view of the layout. It was checked when this was made,
    /// so checking it again (linear in the number of bundles) passes.
    ///
    /// # Errors
    /// None in practice; the core's check is kept rather than assumed.
    pub fn layout(&self) -> Result<BundleLayout<'_>, BundleError> {
        match &self.storage {
            Storage::Default(count) => BundleLayout::default_for(*count),
            Storage::Explicit(boundaries) => BundleLayout::new(boundaries),
        }
    }

    /// The layout for a batch of `lookups` hashes: an explicit layout gets
    /// an index in `table` (`BundleLayout::indexed`) when the batch has at
    /// least as many hashes as the index has words (three per entry): the
    /// build costs about one lookup per entry, so it has paid for itself by
    /// then. Answers are the same either way.
    ///
    /// # Errors
    /// As [`OwnedBundles::layout`].
    pub fn layout_for_batch<'t>(
        &'t self,
        table: &'t mut Vec<u32>,
        lookups: usize,
    ) -> Result<BundleLayout<'t>, BundleError> {
        let layout = self.layout()?;
        let words = BundleLayout::recommended_index_len(layout.len());
        if matches!(self.storage, Storage::Explicit(_)) && lookups >= words {
            table.resize(words, 0);
            return Ok(layout.indexed(table));
        }
        Ok(layout)
    }

    /// How the layout is kept: what a binding prints, or pickles, to make
    /// it again.
    #[must_use]
    pub const fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Splits bundle `target` as the broker's `splitBundles` does: the new
    /// layout and the bundles that replaced `target`.
    ///
    /// # Errors
    /// As [`split_into`].
    pub fn split(
        &self,
        target: BundleRange,
        points: SplitPoints<'_>,
    ) -> Result<(Self, Vec<BundleRange>), BundleError> {
        let layout = self.layout()?;
        let mut out = Vec::new();
        let split = split_into(&layout, target, points, usize::MAX, |needed| {
            out.resize(needed, 0);
            out.as_mut_slice()
        })?;
        let new_bundles = split.new_bundles().collect();
        let owned = Self {
            storage: Storage::Explicit(split.layout.boundaries().collect()),
        };
        Ok((owned, new_bundles))
    }
}

impl PartialEq for OwnedBundles {
    fn eq(&self, other: &Self) -> bool {
        if self.storage == other.storage {
            return true;
        }
        match (self.layout(), other.layout()) {
            (Ok(a), Ok(b)) => a.boundaries().eq(b.boundaries()),
            _ => false,
        }
    }
}

impl Eq for OwnedBundles {}

/// Hashes the boundaries, one by one, so that equal layouts hash alike.
impl Hash for OwnedBundles {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if let Ok(layout) = self.layout() {
            for boundary in layout.boundaries() {
                boundary.hash(state);
            }
        }
    }
}

/// The default layout for a Java `int` count of bundles
/// (`PoliciesUtil.getBundles`): 0 and negative counts are the broker's
/// error.
///
/// # Errors
/// [`BundleError::NoBundles`] for a count below 1.
pub fn default_layout(count: i32) -> Result<BundleLayout<'static>, BundleError> {
    BundleLayout::default_for(u32::try_from(count).map_err(|_| BundleError::NoBundles)?)
}

/// Splits `target` in `layout`, writing the new layout's boundaries into
/// the storage `out` hands back for the length needed, and only after every
/// check has passed: the core's own checks, in its order (a dry run without
/// storage), then the length against `capacity`, then the new layout's
/// validity, which points strictly inside the target can only break by
/// repeating.
///
/// # Errors
/// What [`BundleLayout::split`] or [`BundleLayout::split_equally`]
/// reports, or [`BundleError::BufferTooSmall`] for a length above
/// `capacity`.
pub fn split_into<'o>(
    layout: &BundleLayout<'_>,
    target: BundleRange,
    mut points: SplitPoints<'_>,
    capacity: usize,
    out: impl FnOnce(usize) -> &'o mut [u32],
) -> Result<Split<'o>, BundleError> {
    let dry_run = match &mut points {
        SplitPoints::At(points) => layout.split(target, points, &mut []),
        SplitPoints::Equally(parts) => layout.split_equally(target, *parts, &mut []),
    };
    let needed = match dry_run {
        Err(BundleError::BufferTooSmall { needed }) => needed,
        Err(e) => return Err(e),
        Ok(split) => split.layout.len() + 1,
    };
    if needed > capacity {
        return Err(BundleError::BufferTooSmall { needed });
    }
    // The dry run sorted the points. Equal parts repeat the lower bound
    // when there are more parts than hashes in the target (the step is 0).
    let repeats = match &points {
        SplitPoints::At(points) => points.windows(2).any(|pair| pair[0] == pair[1]),
        SplitPoints::Equally(parts) => i64::from(*parts) > target.upper() - target.lower(),
    };
    if repeats {
        return Err(BundleError::EmptyRange);
    }
    match points {
        SplitPoints::At(points) => layout.split(target, points, out(needed)),
        SplitPoints::Equally(parts) => layout.split_equally(target, parts, out(needed)),
    }
}

/// The bundle of `hash`: the bundle whose range includes it, or, with
/// `strict`, [`BundleError::NoBundleForHash`] where the broker's lookup
/// throws (`0xffffffff`).
///
/// # Errors
/// [`BundleError::NoBundleForHash`] for a hash no bundle owns (below the
/// first boundary), or, with `strict`, for `0xffffffff`.
pub fn bundle_index(
    layout: &BundleLayout<'_>,
    hash: u32,
    strict: bool,
) -> Result<usize, BundleError> {
    if strict {
        layout.bundle_index_for_hash_java(hash)
    } else {
        layout
            .bundle_index_for_hash(hash)
            .ok_or(BundleError::NoBundleForHash(hash))
    }
}

/// Where one hash (one topic) is before and after a layout change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundleChange {
    /// The index of its bundle in the first layout, if one owns it.
    pub before: Option<usize>,
    /// The index of its bundle in the second layout, if one owns it.
    pub after: Option<usize>,
    /// Whether its bundle's range differs between the two layouts: after a
    /// split, exactly the topics of the split bundle change.
    pub changed: bool,
}

/// Where `hash` is in `before` and in `after` (the impact of a split on one
/// topic).
#[must_use]
pub fn bundle_change(
    before: &BundleLayout<'_>,
    after: &BundleLayout<'_>,
    hash: u32,
) -> BundleChange {
    let (index_before, index_after) = (
        before.bundle_index_for_hash(hash),
        after.bundle_index_for_hash(hash),
    );
    let range =
        |layout: &BundleLayout<'_>, index: Option<usize>| index.and_then(|i| layout.bundle(i));
    BundleChange {
        before: index_before,
        after: index_after,
        changed: range(before, index_before) != range(after, index_after),
    }
}

/// The load of a topic from its four rates, `[msgRateIn, msgRateOut,
/// msgThroughputIn, msgThroughputOut]`.
#[must_use]
pub const fn topic_load(hash: u32, rates: [f64; 4]) -> TopicLoad {
    let [
        msg_rate_in,
        msg_rate_out,
        msg_throughput_in,
        msg_throughput_out,
    ] = rates;
    TopicLoad {
        hash,
        msg_rate_in,
        msg_rate_out,
        msg_throughput_in,
        msg_throughput_out,
    }
}

/// The inputs of the broker's split algorithms
/// (`NamespaceBundleSplitAlgorithm.getSplitBoundary`), each read only by
/// the algorithms that need it.
#[derive(Clone, Debug, Default)]
pub struct SplitInputs {
    /// `specified_positions_divide` (and `_force`): the requested positions.
    pub positions: Vec<i64>,
    /// The CRC-32 of every topic the bundle owns.
    pub topic_hashes: Vec<u32>,
    /// `flow_or_qps_equally_divide`: the loads of the topics with stats.
    pub loads: Vec<TopicLoad>,
    /// `flow_or_qps_equally_divide`: the broker's limits.
    pub limits: FlowLimits,
}

impl SplitInputs {
    /// Inputs with the broker's limits, each replaced by the given value.
    #[must_use]
    pub fn new(
        max_msg_rate: Option<i32>,
        max_bandwidth_mbytes: Option<i32>,
        threshold_percent: Option<i32>,
    ) -> Self {
        let defaults = FlowLimits::default();
        let limits = FlowLimits {
            max_msg_rate: max_msg_rate.unwrap_or(defaults.max_msg_rate),
            max_bandwidth_mbytes: max_bandwidth_mbytes.unwrap_or(defaults.max_bandwidth_mbytes),
            threshold_percent: threshold_percent.unwrap_or(defaults.threshold_percent),
        };
        Self {
            limits,
            ..Self::default()
        }
    }

    /// Sets the loads from each topic's rates (see [`topic_load`]), in the
    /// order of `topic_hashes`; a topic without stats (`None`) has no load.
    pub fn set_stats(&mut self, stats: impl IntoIterator<Item = Option<[f64; 4]>>) {
        let loads = self.topic_hashes.iter().zip(stats);
        self.loads = loads
            .filter_map(|(&hash, rates)| Some(topic_load(hash, rates?)))
            .collect();
    }

    /// The split points `algorithm` chooses for `target`, or `None` for no
    /// split.
    ///
    /// # Errors
    /// What the algorithm reports: [`BundleError::NoSplitPositions`] for
    /// the specified-positions algorithms without positions.
    pub fn choose(
        mut self,
        algorithm: SplitAlgorithm,
        target: BundleRange,
    ) -> Result<Option<Vec<i64>>, BundleError> {
        let owned_topics = self.topic_hashes.len();
        Ok(match algorithm {
            SplitAlgorithm::RangeEquallyDivide => Some(vec![range_equally_divide(target)]),
            SplitAlgorithm::TopicCountEquallyDivide => {
                topic_count_equally_divide(&mut self.topic_hashes).map(|point| vec![point])
            }
            SplitAlgorithm::SpecifiedPositionsDivide
            | SplitAlgorithm::SpecifiedPositionsDivideForce => {
                let force = algorithm == SplitAlgorithm::SpecifiedPositionsDivideForce;
                specified_positions_divide(target, &mut self.positions, owned_topics, force)?
                    .map(<[i64]>::to_vec)
            }
            SplitAlgorithm::FlowOrQpsEquallyDivide => {
                let mut out = vec![0; self.loads.len()];
                flow_or_qps_equally_divide(owned_topics, &mut self.loads, self.limits, &mut out)?
                    .map(<[i64]>::to_vec)
            }
        })
    }
}
