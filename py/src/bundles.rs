//! Namespace bundles: which bundle of a namespace serves a topic, bundle
//! ranges and layouts, and the broker's bundle splits.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use numpy::{Element, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pulsar_routing::bundles::{
    BundleError, BundleLayout, BundleRange, SplitAlgorithm, boundary_from_i64,
    parse_boundary as core_parse_boundary,
};
use pulsar_routing_owned::bundles::{
    OwnedBundles, SplitInputs, SplitPoints, Storage, bundle_change, bundle_index,
    default_layout as owned_default_layout,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyString, PyTuple};

use crate::arrow::DETACH_MIN_VALUES;
use crate::buffers::detach_above;
use crate::errors::{bundle_error, partition_count, topic_name_rules};
use crate::topic_name::TopicArg;
use crate::topic_name::batch::topic_hashes;

/// What a batch writes for a topic that is `None` (or null in Arrow), or
/// whose hash no bundle owns.
const NO_BUNDLE: i32 = -1;

/// The default layout for a Java `int` count of bundles.
fn default_layout(num_bundles: i32) -> PyResult<BundleLayout<'static>> {
    owned_default_layout(num_bundles).map_err(bundle_error)
}

/// A batch result, one entry per topic, or per partition with
/// `partitions=n`: then reshaped to `(topics, n)`.
fn shaped<'py, T: Element>(
    array: Bound<'py, PyArray1<T>>,
    partitions: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    match partitions.and_then(|n| usize::try_from(n).ok()) {
        Some(per_topic) if per_topic > 0 => {
            let topics = array.len() / per_topic;
            Ok(array.reshape([topics, per_topic])?.into_any())
        }
        _ => Ok(array.into_any()),
    }
}

/// A bundle given as a `BundleRange` or as its name.
fn bundle_arg(obj: &Bound<'_, PyAny>) -> PyResult<BundleRange> {
    if let Ok(range) = obj.cast::<PyBundleRange>() {
        Ok(range.get().0)
    } else if let Ok(text) = obj.cast::<PyString>() {
        BundleRange::parse(text.to_str()?).map_err(bundle_error)
    } else {
        Err(PyTypeError::new_err(format!(
            "bundle must be BundleRange or str, not {}",
            obj.get_type().name()?
        )))
    }
}

/// One namespace bundle: a range of the 32-bit CRC-32 hash space, `[lower,
/// upper)`, or `[lower, 0xffffffff]` when the upper bound is `0xffffffff`.
///
/// `str()` is the broker's name, `0x%08x_0x%08x`, which shows the exclusive
/// upper bound: `0x00000000_0x40000000`, never `..._0x3fffffff`. Bounds are
/// Java `long`s, as the broker's range parser accepts them.
#[pyclass(frozen, eq, ord, hash, module = "pulsar_routing", name = "BundleRange")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PyBundleRange(BundleRange);

#[pymethods]
impl PyBundleRange {
    /// A range with the broker's checks: not empty, and `lower <= upper`.
    #[new]
    #[pyo3(signature = (lower, upper))]
    fn new(lower: i64, upper: i64) -> PyResult<Self> {
        BundleRange::new(lower, upper)
            .map(Self)
            .map_err(bundle_error)
    }

    /// Parses a range name as the broker's admin API does
    /// (`NamespaceBundleFactory.getBundle(namespace, range)`): `lo_hi`, each
    /// bound read by Java's `Long.decode` (`0x`, `#`, octal, decimal).
    #[staticmethod]
    #[pyo3(signature = (text, /))]
    fn parse(text: &str) -> PyResult<Self> {
        BundleRange::parse(text).map(Self).map_err(bundle_error)
    }

    /// The inclusive lower bound.
    #[getter]
    fn lower(&self) -> i64 {
        self.0.lower()
    }

    /// The upper bound as printed: exclusive unless it is `0xffffffff`.
    #[getter]
    fn upper(&self) -> i64 {
        self.0.upper()
    }

    /// Whether the upper bound is inclusive (it is `0xffffffff`).
    #[getter]
    fn upper_closed(&self) -> bool {
        self.0.upper_closed()
    }

    /// Whether `hash` falls in the range (Java's `includes`).
    #[pyo3(signature = (hash, /))]
    fn includes(&self, hash: u32) -> bool {
        self.0.includes(hash)
    }

    fn __contains__(&self, hash: u32) -> bool {
        self.0.includes(hash)
    }

    /// Whether the bundle can be split: its bounds are more than 1 apart
    /// (Java's `canSplitBundle`).
    fn can_split(&self) -> bool {
        self.0.can_split()
    }

    /// The bundle key `namespace/range`, e.g.
    /// `public/default/0x00000000_0x40000000`.
    #[pyo3(signature = (namespace, /))]
    fn key(&self, namespace: &str) -> String {
        self.0.key(namespace).to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let hex = |bound: i64| {
            let sign = if bound < 0 { "-" } else { "" };
            format!("{sign}0x{:08x}", bound.unsigned_abs())
        };
        let (lower, upper) = (hex(self.0.lower()), hex(self.0.upper()));
        format!("BundleRange({lower}, {upper})")
    }

    fn __getnewargs__(&self) -> (i64, i64) {
        (self.0.lower(), self.0.upper())
    }
}

/// A namespace's bundles (Java's `NamespaceBundles`): `k + 1` sorted
/// boundaries over the CRC-32 hash space making `k` bundles.
///
/// `NamespaceBundles(k)` is the layout a namespace created with `k` bundles
/// gets (the broker's default is 4); `NamespaceBundles.from_boundaries()`
/// takes any layout, such as one after splits. Immutable: a split returns a
/// new object. The batch methods index an explicit layout for large batches
/// (the core's `BundleLayout::indexed`), which changes their speed, never
/// their answers.
#[pyclass(frozen, module = "pulsar_routing", name = "NamespaceBundles")]
pub(crate) struct PyNamespaceBundles {
    bundles: OwnedBundles,
}

impl PyNamespaceBundles {
    fn layout(&self) -> PyResult<BundleLayout<'_>> {
        self.bundles.layout().map_err(bundle_error)
    }

    fn layout_for_batch<'t>(
        &'t self,
        table: &'t mut Vec<u32>,
        lookups: usize,
    ) -> PyResult<BundleLayout<'t>> {
        self.bundles
            .layout_for_batch(table, lookups)
            .map_err(bundle_error)
    }

    /// The bundle hashes of `topics` (or of their partitions).
    fn hashes(
        &self,
        py: Python<'_>,
        topics: &Bound<'_, PyAny>,
        partitions: Option<i64>,
        rules: &str,
    ) -> PyResult<Vec<Option<u32>>> {
        let rules = topic_name_rules(rules)?;
        let partitions = partitions.map(|n| partition_count(py, n)).transpose()?;
        topic_hashes(py, topics, rules, partitions)
    }

    /// Splits `target`: the new layout as an object, and its new bundles.
    fn apply<'py>(
        slf: &Bound<'py, Self>,
        target: BundleRange,
        points: SplitPoints<'_>,
    ) -> PyResult<(Bound<'py, Self>, Vec<PyBundleRange>)> {
        let (bundles, new_bundles) = slf
            .get()
            .bundles
            .split(target, points)
            .map_err(bundle_error)?;
        let new_bundles = new_bundles.into_iter().map(PyBundleRange).collect();
        Ok((Bound::new(slf.py(), Self { bundles })?, new_bundles))
    }
}

#[pymethods]
impl PyNamespaceBundles {
    /// The layout of a namespace created with `num_bundles` bundles
    /// (`PoliciesUtil.getBundles`): boundaries every `2**32 // num_bundles`,
    /// the last one `0xffffffff`.
    #[new]
    #[pyo3(signature = (num_bundles = 4))]
    fn new(num_bundles: i32) -> PyResult<Self> {
        let bundles = OwnedBundles::default_for_int(num_bundles).map_err(bundle_error)?;
        Ok(Self { bundles })
    }

    /// A layout from its boundaries, each an int or a string the broker
    /// reads with `Long.decode` (`"0x40000000"`), checked as Java's
    /// `NamespaceBundles` constructor checks them.
    #[staticmethod]
    #[pyo3(signature = (boundaries, /))]
    fn from_boundaries(boundaries: &Bound<'_, PyAny>) -> PyResult<Self> {
        if boundaries.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "boundaries must be a collection of boundaries, not one str",
            ));
        }
        let mut values = Vec::with_capacity(boundaries.len().unwrap_or(0));
        for (i, item) in boundaries.try_iter()?.enumerate() {
            let item = item?;
            let value = if let Ok(text) = item.cast::<PyString>() {
                core_parse_boundary(text.to_str()?)
            } else if let Ok(value) = item.extract::<i64>() {
                boundary_from_i64(value)
            } else {
                return Err(PyTypeError::new_err(format!(
                    "boundaries[{i}] must be int or str, not {}",
                    item.get_type().name()?
                )));
            };
            values.push(value.map_err(bundle_error)?);
        }
        let bundles = OwnedBundles::from_boundaries(values).map_err(bundle_error)?;
        Ok(Self { bundles })
    }

    /// The number of bundles.
    #[getter]
    fn num_bundles(&self) -> PyResult<usize> {
        Ok(self.layout()?.len())
    }

    fn __len__(&self) -> PyResult<usize> {
        self.num_bundles()
    }

    /// The `num_bundles + 1` boundaries, in order; the last is `0xffffffff`.
    fn boundaries(&self) -> PyResult<Vec<u32>> {
        Ok(self.layout()?.boundaries().collect())
    }

    /// Every bundle, in hash order.
    fn bundles(&self) -> PyResult<Vec<PyBundleRange>> {
        Ok(self.layout()?.bundles().map(PyBundleRange).collect())
    }

    fn __getitem__(&self, index: isize) -> PyResult<PyBundleRange> {
        let layout = self.layout()?;
        let len = isize::try_from(layout.len()).unwrap_or(isize::MAX);
        let at = if index < 0 { index + len } else { index };
        usize::try_from(at)
            .ok()
            .and_then(|at| layout.bundle(at))
            .map(PyBundleRange)
            .ok_or_else(|| PyIndexError::new_err("bundle index out of range"))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.bundles()?)?.try_iter()
    }

    /// The index of the bundle that owns `hash` (a CRC-32).
    ///
    /// `0xffffffff` is owned by the last bundle, whose range includes it;
    /// the broker's lookup throws `IndexOutOfBoundsException` there instead,
    /// and `strict=True` raises `BundleError` as it does. A hash below the
    /// first boundary (a layout that does not start at 0) raises either way.
    #[pyo3(signature = (hash, *, strict = false))]
    fn bundle_index_for_hash(&self, hash: u32, strict: bool) -> PyResult<usize> {
        bundle_index(&self.layout()?, hash, strict).map_err(bundle_error)
    }

    /// The bundle that owns `hash`; see `bundle_index_for_hash`.
    #[pyo3(signature = (hash, *, strict = false))]
    fn bundle_for_hash(&self, hash: u32, strict: bool) -> PyResult<PyBundleRange> {
        let layout = self.layout()?;
        let index = bundle_index(&layout, hash, strict).map_err(bundle_error)?;
        layout
            .bundle(index)
            .map(PyBundleRange)
            .ok_or_else(|| bundle_error(BundleError::NoBundleForHash(hash)))
    }

    /// The bundle that serves `topic`: the CRC-32 of its canonical name,
    /// looked up as `bundle_for_hash` does. A `str` is parsed with `rules`;
    /// a partition (`x-partition-3`) is a topic of its own.
    #[pyo3(signature = (topic, *, rules = "4.2", strict = false))]
    fn bundle_for_topic(
        &self,
        topic: &Bound<'_, PyAny>,
        rules: &str,
        strict: bool,
    ) -> PyResult<PyBundleRange> {
        let topic = TopicArg::extract(topic, topic_name_rules(rules)?)?.parsed()?;
        self.bundle_for_hash(topic.crc32(), strict)
    }

    /// The position of `bundle` (a `BundleRange` or its name) in this
    /// layout, checked as Java's `NamespaceBundles.validateBundle`: raises
    /// `BundleError` when it is not one of these bundles.
    #[pyo3(signature = (bundle, /))]
    fn validate_bundle(&self, bundle: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.layout()?
            .validate_bundle(bundle_arg(bundle)?)
            .map_err(bundle_error)
    }

    /// Where the broker's split `algorithm` would split `bundle`
    /// (`getSplitBoundary`), or `None` for no split. See `split` for the
    /// algorithms and their inputs.
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python method"
    )]
    #[pyo3(signature = (
        bundle,
        algorithm = "range_equally_divide",
        *,
        positions = None,
        topics = None,
        topic_stats = None,
        max_msg_rate = None,
        max_bandwidth_mbytes = None,
        threshold_percent = None,
        rules = "4.2",
    ))]
    fn split_boundaries(
        &self,
        py: Python<'_>,
        bundle: &Bound<'_, PyAny>,
        algorithm: &str,
        positions: Option<Vec<i64>>,
        topics: Option<&Bound<'_, PyAny>>,
        topic_stats: Option<&Bound<'_, PyAny>>,
        max_msg_rate: Option<i32>,
        max_bandwidth_mbytes: Option<i32>,
        threshold_percent: Option<i32>,
        rules: &str,
    ) -> PyResult<Option<Vec<i64>>> {
        let algorithm: SplitAlgorithm = algorithm.parse().map_err(bundle_error)?;
        let target = bundle_arg(bundle)?;
        self.layout()?
            .validate_bundle(target)
            .map_err(bundle_error)?;
        // The inputs of the split algorithms, as the broker reads them.
        let rules = topic_name_rules(rules)?;
        let mut inputs = SplitInputs::new(max_msg_rate, max_bandwidth_mbytes, threshold_percent);
        inputs.positions = positions.unwrap_or_default();
        if let Some(topics) = topics {
            inputs.topic_hashes = topic_hashes(py, topics, rules, None)?
                .into_iter()
                .enumerate()
                .map(|(i, hash)| {
                    hash.ok_or_else(|| {
                        PyTypeError::new_err(format!("topics[{i}] must be a topic name, not None"))
                    })
                })
                .collect::<PyResult<Vec<u32>>>()?;
        }
        if let Some(stats) = topic_stats {
            let stats: Vec<Option<[f64; 4]>> = stats.extract()?;
            if stats.len() != inputs.topic_hashes.len() {
                return Err(PyValueError::new_err(format!(
                    "topic_stats has {} entries for {} topics",
                    stats.len(),
                    inputs.topic_hashes.len()
                )));
            }
            inputs.set_stats(stats);
        }
        inputs.choose(algorithm, target).map_err(bundle_error)
    }

    /// Splits `bundle` as the broker does: the `algorithm` chooses the split
    /// points, then `splitBundles` inserts them. Returns the new layout and
    /// the bundles that replaced `bundle`; when the algorithm does not split,
    /// this layout and an empty list.
    ///
    /// Algorithms, by their broker names, and what each reads:
    /// `range_equally_divide` (the default: the middle of the range),
    /// `topic_count_equally_divide` (`topics`: between the two middle topic
    /// hashes), `specified_positions_divide` and
    /// `specified_positions_divide_force` (`positions`; the first needs more
    /// than one topic in `topics`), and `flow_or_qps_equally_divide`
    /// (`topics`, `topic_stats` with `[msgRateIn, msgRateOut,
    /// msgThroughputIn, msgThroughputOut]` or `None` per topic, and the
    /// limits, whose defaults are the broker's: 30000 msg/s, 100 MB/s, 10 %).
    /// `topics` are the names the bundle owns, in the broker's order.
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python method"
    )]
    #[pyo3(signature = (
        bundle,
        algorithm = "range_equally_divide",
        *,
        positions = None,
        topics = None,
        topic_stats = None,
        max_msg_rate = None,
        max_bandwidth_mbytes = None,
        threshold_percent = None,
        rules = "4.2",
    ))]
    fn split<'py>(
        slf: &Bound<'py, Self>,
        bundle: &Bound<'py, PyAny>,
        algorithm: &str,
        positions: Option<Vec<i64>>,
        topics: Option<&Bound<'py, PyAny>>,
        topic_stats: Option<&Bound<'py, PyAny>>,
        max_msg_rate: Option<i32>,
        max_bandwidth_mbytes: Option<i32>,
        threshold_percent: Option<i32>,
        rules: &str,
    ) -> PyResult<(Bound<'py, Self>, Vec<PyBundleRange>)> {
        let target = bundle_arg(bundle)?;
        let chosen = slf.get().split_boundaries(
            slf.py(),
            bundle,
            algorithm,
            positions,
            topics,
            topic_stats,
            max_msg_rate,
            max_bandwidth_mbytes,
            threshold_percent,
            rules,
        )?;
        match chosen {
            Some(mut points) if !points.is_empty() => {
                Self::apply(slf, target, SplitPoints::At(&mut points))
            }
            _ => Ok((slf.clone(), Vec::new())),
        }
    }

    /// Splits `bundle` into `parts` equal parts (`splitBundles(bundle, n,
    /// null)`): a point every `(upper - lower) // parts` from the lower
    /// bound, which is not the default layout's spacing. Returns the new
    /// layout and the new bundles.
    #[pyo3(signature = (bundle, parts = 2))]
    fn split_equally<'py>(
        slf: &Bound<'py, Self>,
        bundle: &Bound<'py, PyAny>,
        parts: u32,
    ) -> PyResult<(Bound<'py, Self>, Vec<PyBundleRange>)> {
        Self::apply(slf, bundle_arg(bundle)?, SplitPoints::Equally(parts))
    }

    /// The bundle index of every topic, as an int32 array: -1 for `None`
    /// (null in Arrow), and for a hash no bundle owns. `topics` is any
    /// iterable of `str`, `TopicName` and `None`, a numpy array (dtype `U`,
    /// `O` or `T`), or a pyarrow `string`/`large_string` array; the work runs
    /// with the GIL released.
    ///
    /// With `partitions=n`, each topic stands for its `n` partitions
    /// (`-partition-0` to `-partition-<n-1>`, each hashed on its own) and
    /// the result has shape `(len(topics), n)`. `strict=True` raises where
    /// the broker's lookup throws (a hash of `0xffffffff`).
    #[pyo3(signature = (topics, *, partitions = None, rules = "4.2", strict = false))]
    fn bundle_indexes<'py>(
        &self,
        py: Python<'py>,
        topics: &Bound<'py, PyAny>,
        partitions: Option<i64>,
        rules: &str,
        strict: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let hashes = self.hashes(py, topics, partitions, rules)?;
        let mut table = Vec::new();
        let layout = self.layout_for_batch(&mut table, hashes.len())?;
        let index = |hash: &Option<u32>| match hash.map(|h| bundle_index(&layout, h, strict)) {
            Some(Err(err)) if strict => Err(bundle_error(err)),
            // A layout has at most 2**31 - 1 bundles: Java's bundle count
            // is an int.
            Some(Ok(index)) => Ok(i32::try_from(index).unwrap_or(NO_BUNDLE)),
            _ => Ok(NO_BUNDLE),
        };
        let indexes = detach_above(py, hashes.len(), DETACH_MIN_VALUES, || {
            hashes.iter().map(index).collect::<PyResult<Vec<i32>>>()
        })?;
        shaped(PyArray1::from_vec(py, indexes), partitions)
    }

    /// How many of `topics` each bundle serves, as an int64 array of
    /// `num_bundles` counts. `None` topics are not counted. With
    /// `partitions=n`, each topic counts as its `n` partitions, each in its
    /// own bundle. Inputs as for `bundle_indexes`.
    #[pyo3(signature = (topics, *, partitions = None, rules = "4.2"))]
    fn count_per_bundle<'py>(
        &self,
        py: Python<'py>,
        topics: &Bound<'py, PyAny>,
        partitions: Option<i64>,
        rules: &str,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let hashes = self.hashes(py, topics, partitions, rules)?;
        let mut table = Vec::new();
        let layout = self.layout_for_batch(&mut table, hashes.len())?;
        let mut counts = vec![0u64; layout.len()];
        detach_above(py, hashes.len(), DETACH_MIN_VALUES, || {
            layout.count_per_bundle(hashes.iter().flatten().copied(), &mut counts)
        })
        .map_err(bundle_error)?;
        // A count never exceeds the number of topics, far below 2**63.
        let counts = counts
            .into_iter()
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX));
        Ok(PyArray1::from_iter(py, counts))
    }

    /// Which of `topics` change bundle between this layout and `after` (the
    /// impact of a split): a bool array, True where the topic's bundle in
    /// `after` differs from its bundle here. After a split, exactly the
    /// topics of the split bundle change. `None` topics are False. With
    /// `partitions=n`, shape `(len(topics), n)`, one entry per partition.
    /// Inputs as for `bundle_indexes`.
    #[pyo3(signature = (after, topics, *, partitions = None, rules = "4.2"))]
    fn compare<'py>(
        &self,
        py: Python<'py>,
        after: &Self,
        topics: &Bound<'py, PyAny>,
        partitions: Option<i64>,
        rules: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let hashes = self.hashes(py, topics, partitions, rules)?;
        let (mut table_before, mut table_after) = (Vec::new(), Vec::new());
        let before = self.layout_for_batch(&mut table_before, hashes.len())?;
        let after = after.layout_for_batch(&mut table_after, hashes.len())?;
        let changed = detach_above(py, hashes.len(), DETACH_MIN_VALUES, || {
            let changed = |hash: u32| bundle_change(&before, &after, hash).changed;
            hashes
                .iter()
                .map(|hash| hash.is_some_and(changed))
                .collect::<Vec<bool>>()
        });
        shaped(PyArray1::from_vec(py, changed), partitions)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.bundles == other.bundles
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.bundles.hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        match self.bundles.storage() {
            Storage::Default(count) => format!("NamespaceBundles({count})"),
            Storage::Explicit(boundaries) => {
                let hex: Vec<String> = boundaries.iter().map(|b| format!("'0x{b:08x}'")).collect();
                format!("NamespaceBundles.from_boundaries([{}])", hex.join(", "))
            }
        }
    }

    /// Pickling: the constructor and its argument.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let class = slf.get_type().into_any();
        match slf.get().bundles.storage() {
            Storage::Default(count) => Ok((class, PyTuple::new(py, [*count])?)),
            Storage::Explicit(boundaries) => Ok((
                class.getattr("from_boundaries")?,
                PyTuple::new(py, [PyList::new(py, boundaries.iter())?])?,
            )),
        }
    }
}

/// The name of the bundle that serves `topic` in the default layout of
/// `num_bundles` bundles (the broker's default is 4), e.g.
/// `"0x00000000_0x40000000"`. A hash of `0xffffffff` goes to the last bundle,
/// where the broker's lookup throws (see `NamespaceBundles.bundle_for_hash`).
#[pyfunction]
#[pyo3(signature = (topic, num_bundles = 4, *, rules = "4.2"))]
pub(crate) fn topic_bundle(
    topic: &Bound<'_, PyAny>,
    num_bundles: i32,
    rules: &str,
) -> PyResult<String> {
    let layout = default_layout(num_bundles)?;
    let topic = TopicArg::extract(topic, topic_name_rules(rules)?)?.parsed()?;
    layout
        .bundle_for_topic(&topic)
        .map(|bundle| bundle.to_string())
        .ok_or_else(|| bundle_error(BundleError::NoBundleForHash(topic.crc32())))
}

/// The boundaries of the default layout for `num_bundles` bundles
/// (`PoliciesUtil.getBundles`).
#[pyfunction]
#[pyo3(signature = (num_bundles, /))]
pub(crate) fn default_boundaries(num_bundles: i32) -> PyResult<Vec<u32>> {
    Ok(default_layout(num_bundles)?.boundaries().collect())
}

/// Reads one boundary as the broker reads `BundlesData` boundaries
/// (`Long.decode`), checked to lie in `0..=0xffffffff`.
#[pyfunction]
#[pyo3(signature = (text, /))]
pub(crate) fn parse_boundary(text: &str) -> PyResult<u32> {
    core_parse_boundary(text).map_err(bundle_error)
}

/// The admin API's check on a boundary list (`validateFullRange`): sorted
/// as strings, it must start with `"0x00000000"` and end with
/// `"0xffffffff"`, compared as text. Raises `BundleError` otherwise.
#[pyfunction]
#[pyo3(signature = (boundaries, /))]
pub(crate) fn validate_full_range(boundaries: &Bound<'_, PyAny>) -> PyResult<()> {
    if boundaries.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "boundaries must be a collection of str, not one str",
        ));
    }
    let boundaries = boundaries
        .try_iter()?
        .map(|item| item?.extract::<String>())
        .collect::<PyResult<Vec<String>>>()?;
    pulsar_routing::bundles::validate_full_range(boundaries.iter().map(String::as_str))
        .map_err(bundle_error)
}
