//! Key_Shared subscriptions: sticky keys and their slots, the broker's three
//! selectors (which consumer receives a slot, and what each add and remove
//! moves), and the client's check of sticky ranges.
//!
//! A selector is a `pulsar_routing_owned::key_shared::Selector`, whose
//! storage grows on demand with the policy the C ABI shares, so Python has
//! no capacity argument. Each Python selector is a frozen
//! object around a `RwLock`: it can be shared between threads, lookups run
//! side by side, and results are copied out of the lock before any Python
//! object is made (so no Python code ever runs while the lock is held).

mod batch;

use std::collections::BTreeMap;
use std::sync::{PoisonError, RwLock, TryLockError};

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pulsar_routing::key_shared::{
    ExclusiveMode, HashRange, Impact, KeyHashRange, MessageKeys, SelectorKind, UnknownSelectorKind,
};
use pulsar_routing_owned::key_shared::{Error, Selector, key_hash_range};
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffers::hash_text_or_bytes;
use crate::errors::IntoPyException;
use crate::routing_key::JavaString;
use batch::slots_for_keys;

/// Lookups of at least this many slots run with the GIL released.
const DETACH_MIN_SLOTS: usize = 1024;

/// Written for a slot without a consumer in the `int64` output of the batch
/// lookups; consumer ids are never negative.
const NO_CONSUMER: i64 = -1;

/// Per consumer id, its ranges in slot order.
type RangeMap = BTreeMap<u64, Vec<(i32, i32)>>;

fn group(pairs: impl Iterator<Item = (u64, HashRange)>) -> RangeMap {
    let mut out = RangeMap::new();
    for (consumer, range) in pairs {
        out.entry(consumer)
            .or_default()
            .push((range.start, range.end));
    }
    out
}

/// What one add or remove moved: the ranges each consumer lost and gained.
///
/// For `AutoSplitSelector` and `ConsistentHashingSelector` this is the
/// broker's `ImpactedConsumersResult`, the diff of the assignment snapshots
/// before and after (ranges as the snapshots print them, so AutoSplit's top
/// range ends at the range size, 65536). The broker computes none for the
/// exclusive (STICKY) selector; an `ExclusiveSelector` reports the slots in
/// `[0, 65535]` whose consumer changed, as `select` answers them: the
/// declared ranges, clipped to the slots (with `legacy=True` also the gaps
/// a consumer is delivered or loses). The core computes it, so C reports
/// the same.
#[pyclass(frozen, eq, hash, module = "pulsar_routing", name = "Impact")]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PyImpact {
    removed: RangeMap,
    added: RangeMap,
}

impl PyImpact {
    fn of(impact: Impact<'_>) -> Self {
        Self {
            removed: group(impact.removed()),
            added: group(impact.added()),
        }
    }
}

#[pymethods]
impl PyImpact {
    /// Per consumer id, the `(start, end)` ranges it lost, sorted and merged.
    #[getter]
    fn removed(&self) -> RangeMap {
        self.removed.clone()
    }

    /// Per consumer id, the `(start, end)` ranges it gained, sorted and merged.
    #[getter]
    fn added(&self) -> RangeMap {
        self.added.clone()
    }

    /// True when something moved.
    fn __bool__(&self) -> bool {
        !(self.removed.is_empty() && self.added.is_empty())
    }

    // Python's own repr of the two dicts, e.g.
    // `Impact(removed={1: [(0, 32768)]}, added={2: [(0, 32768)]})`.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let removed = slf.getattr(intern!(slf.py(), "removed"))?.repr()?;
        let added = slf.getattr(intern!(slf.py(), "added"))?.repr()?;
        Ok(format!("Impact(removed={removed}, added={added})"))
    }
}

/// A selector error as a Python exception.
fn selector_error(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::Assign(e) => e.into_py_exception(py),
        Error::Config(e) => e.into_py_exception(py),
        Error::OutOfMemory => PyMemoryError::new_err(e.to_string()),
    }
}

/// A selector shared between threads, and its (fixed) key hash range and
/// kind.
struct Shared {
    lock: RwLock<Selector>,
    range: KeyHashRange,
    kind: SelectorKind,
}

impl Shared {
    fn new(py: Python<'_>, made: Result<Selector, Error>) -> PyResult<Self> {
        made.map(Self::of).map_err(|e| selector_error(py, e))
    }

    fn of(core: Selector) -> Self {
        Self {
            range: core.key_hash_range(),
            kind: core.kind(),
            lock: RwLock::new(core),
        }
    }

    /// Runs `f` under the read lock. Uncontended, the GIL stays held; when a
    /// writer holds the lock, the GIL is released while waiting for it, so a
    /// thread holding the lock never waits on one holding the GIL. Nothing
    /// here panics while the lock is held, so a poisoned lock is still sound.
    fn read<T: Send>(&self, py: Python<'_>, f: impl Send + FnOnce(&Selector) -> T) -> T {
        match self.lock.try_read() {
            Ok(core) => f(&core),
            Err(TryLockError::Poisoned(poisoned)) => f(&poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => py.detach(|| self.read_blocking(f)),
        }
    }

    /// Runs `f` under the read lock, waiting for it (call with the GIL
    /// released, or when waiting cannot involve the GIL).
    fn read_blocking<T>(&self, f: impl FnOnce(&Selector) -> T) -> T {
        f(&self.lock.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Runs `f` under the write lock, as [`Shared::read`] does.
    fn write<T: Send>(&self, py: Python<'_>, f: impl Send + FnOnce(&mut Selector) -> T) -> T {
        match self.lock.try_write() {
            Ok(mut core) => f(&mut core),
            Err(TryLockError::Poisoned(poisoned)) => f(&mut poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => {
                py.detach(|| f(&mut self.lock.write().unwrap_or_else(PoisonError::into_inner)))
            }
        }
    }

    /// Adds a consumer; only an exclusive selector (of the Python class
    /// `class`) takes declared ranges.
    fn add(
        &self,
        py: Python<'_>,
        class: &str,
        consumer_id: &Bound<'_, PyAny>,
        name: &Bound<'_, PyString>,
        ranges: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyImpact> {
        let ranges = match ranges {
            Some(_) if self.kind != SelectorKind::Exclusive => {
                return Err(PyTypeError::new_err(format!(
                    "{class} takes no ranges: only an ExclusiveSelector (STICKY mode) has declared ranges"
                )));
            }
            ranges => ranges.map(ranges_arg).transpose()?,
        };
        let consumer = consumer_id_arg(consumer_id)?;
        let name = JavaString::new(name)?;
        let name = name.utf8();
        self.write(py, |core| {
            core.add(consumer, &name, ranges.as_deref())
                .map(PyImpact::of)
        })
        .map_err(|e| selector_error(py, e))
    }

    /// The consumer of every slot as an int64 array, -1 for none; the GIL
    /// is released for long inputs.
    fn lookup<'py>(&self, py: Python<'py>, slots: &[u32]) -> Bound<'py, PyArray1<i64>> {
        let select_all = |core: &Selector| -> Vec<i64> {
            slots
                .iter()
                .map(|&slot| core.select(slot).map_or(NO_CONSUMER, id_out))
                .collect()
        };
        let consumers = if slots.len() >= DETACH_MIN_SLOTS {
            py.detach(|| self.read_blocking(select_all))
        } else {
            self.read(py, select_all)
        };
        PyArray1::from_vec(py, consumers)
    }
}

/// A consumer id as stored: ids are checked to be at most `i64::MAX`.
#[allow(clippy::cast_possible_wrap)]
const fn id_out(id: u64) -> i64 {
    id as i64
}

/// A consumer id: an int in `[0, 2**63 - 1]`, as the Java client numbers
/// consumers (a non-negative `long`).
fn consumer_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let out_of_range = || {
        PyOverflowError::new_err(format!(
            "consumer_id must be in [0, 2**63 - 1], got {}",
            obj.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))
    };
    let id: i64 = obj.extract().map_err(|e: PyErr| {
        if e.is_instance_of::<PyOverflowError>(obj.py()) {
            out_of_range()
        } else {
            e
        }
    })?;
    u64::try_from(id).map_err(|_| out_of_range())
}

/// Declared sticky ranges: any iterable of `(start, end)` pairs of Java
/// `int`s (tuples, lists, rows of an `(n, 2)` array).
fn ranges_arg(ranges: &Bound<'_, PyAny>) -> PyResult<Vec<HashRange>> {
    if ranges.is_instance_of::<PyString>() || ranges.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "ranges must be an iterable of (start, end) pairs",
        ));
    }
    let mut out = Vec::new();
    for (i, item) in ranges.try_iter()?.enumerate() {
        let item = item?;
        let pair = if item.is_instance_of::<PyString>() || item.is_instance_of::<PyBytes>() {
            None
        } else {
            match item.extract::<Vec<i32>>() {
                Ok(pair) => Some(pair),
                Err(e) if e.is_instance_of::<PyOverflowError>(ranges.py()) => {
                    return Err(PyOverflowError::new_err(format!(
                        "ranges[{i}]: a bound is outside Java's int, [-2**31, 2**31 - 1]"
                    )));
                }
                Err(_) => None,
            }
        };
        match pair.as_deref() {
            Some(&[start, end]) => out.push(HashRange::new(start, end)),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "ranges[{i}] must be a (start, end) pair of ints, not {}",
                    item.repr()?
                )));
            }
        }
    }
    Ok(out)
}

/// Slots from any sequence or array of ints, each in `[0, 2**32 - 1]`.
fn slot_array(py: Python<'_>, slots: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let numpy = py.import(intern!(py, "numpy"))?;
    let array = numpy.call_method1(
        intern!(py, "ascontiguousarray"),
        (slots, numpy.getattr(intern!(py, "int64"))?),
    )?;
    let array = array.cast_into::<PyArray1<i64>>().map_err(|_| {
        PyTypeError::new_err("slots must be a one-dimensional sequence or array of ints")
    })?;
    let readonly = array.readonly();
    let values = readonly.as_slice()?;
    let mut out = Vec::with_capacity(array.len());
    for (i, &slot) in values.iter().enumerate() {
        out.push(u32::try_from(slot).map_err(|_| {
            PyOverflowError::new_err(format!("slots[{i}] = {slot} is outside [0, 2**32 - 1]"))
        })?);
    }
    Ok(out)
}

/// The key hash range of a `Range`-like Python tuple.
const fn range_tuple(range: KeyHashRange) -> (u32, u32) {
    (range.start(), range.end())
}

/// The methods every selector class has, with one body each; the class's
/// Python name, and the docs of its `add`, come first.
macro_rules! selector_methods {
    ($class:ident, $name:literal, { $(#[$add_doc:meta])* add; $($extra:tt)* }) => {
        #[pymethods]
        impl $class {
            $($extra)*

            $(#[$add_doc])*
            #[pyo3(signature = (consumer_id, name, ranges = None))]
            fn add(
                &self,
                py: Python<'_>,
                consumer_id: &Bound<'_, PyAny>,
                name: &Bound<'_, PyString>,
                ranges: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<PyImpact> {
                self.state.add(py, $name, consumer_id, name, ranges)
            }

            /// Removes a consumer and returns what moved; an unknown consumer
            /// is a no-op with an empty impact, as in the broker.
            #[pyo3(signature = (consumer_id))]
            fn remove(&self, py: Python<'_>, consumer_id: &Bound<'_, PyAny>) -> PyResult<PyImpact> {
                let consumer = consumer_id_arg(consumer_id)?;
                Ok(self.state.write(py, |core| PyImpact::of(core.remove(consumer))))
            }

            /// The consumer of a slot (a sticky key hash in this selector's
            /// key hash range), or None.
            #[pyo3(signature = (slot))]
            fn select(&self, py: Python<'_>, slot: u32) -> Option<u64> {
                self.state.read(py, |core| core.select(slot))
            }

            /// The consumer of a sticky key (`str`: its UTF-8 bytes, a buffer:
            /// its bytes), or None.
            #[pyo3(signature = (key, /))]
            fn select_key(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
                let slot = self.sticky_key_hash(py, key)?;
                Ok(self.state.read(py, |core| core.select(slot)))
            }

            /// The consumer of every sticky key, as an int64 array with -1
            /// where no consumer owns the key's slot. `keys` is an iterable
            /// of str/bytes/None, a 1-D numpy array (dtype U, S, O or T), or a
            /// pyarrow Array/ChunkedArray of string, large_string, binary or
            /// large_binary; None (or null) is a message without any key,
            /// hashed as NONE_KEY. Long inputs run with the GIL released.
            #[pyo3(signature = (keys, /))]
            fn select_keys<'py>(
                &self,
                py: Python<'py>,
                keys: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyArray1<i64>>> {
                Ok(self.state.lookup(py, &slots_for_keys(py, keys, self.state.range)?))
            }

            /// The consumer of every slot of a sequence or array of ints, as
            /// an int64 array with -1 for none.
            #[pyo3(signature = (slots, /))]
            fn select_slots<'py>(
                &self,
                py: Python<'py>,
                slots: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyArray1<i64>>> {
                Ok(self.state.lookup(py, &slot_array(py, slots)?))
            }

            /// The broker's snapshot: `(start, end, consumer_id)` in slot order.
            fn assignments(&self, py: Python<'_>) -> Vec<(i32, i32, u64)> {
                self.state.read(py, |core| core.assignments().map(|a| a.as_tuple()).collect())
            }

            /// Each consumer's ranges as the broker's stats report them
            /// (`getConsumerKeyHashRanges`), keyed by consumer id.
            fn ranges_by_consumer(&self, py: Python<'_>) -> RangeMap {
                self.state.read(py, |core| group(core.consumer_ranges().map(|a| (a.consumer, a.range))))
            }

            /// The consumer ids, ascending.
            fn consumers(&self, py: Python<'_>) -> Vec<u64> {
                let mut ids: Vec<u64> = self.state.read(py, |core| core.consumers().collect());
                ids.sort_unstable();
                ids
            }

            /// The selector's slots, `(start, end)` inclusive.
            #[getter]
            fn key_hash_range(&self) -> (u32, u32) {
                range_tuple(self.state.range)
            }

            /// The slot of a sticky key in this selector's key hash range.
            #[pyo3(signature = (key, /))]
            fn sticky_key_hash(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<u32> {
                let range = self.state.range;
                hash_text_or_bytes(py, key, |bytes| range.slot_of(bytes))
            }

            /// An independent selector with the same consumers and history.
            fn copy(&self, py: Python<'_>) -> Self {
                Self {
                    state: Shared::of(self.state.read(py, Selector::clone)),
                    ..*self
                }
            }

            fn __len__(&self, py: Python<'_>) -> usize {
                self.state.read(py, |core| core.len())
            }

            fn __contains__(&self, py: Python<'_>, consumer_id: &Bound<'_, PyAny>) -> bool {
                let contains = |consumer| self.state.read(py, |core| core.contains(consumer));
                consumer_id_arg(consumer_id).is_ok_and(contains)
            }
        }
    };
}

/// The broker's range-splitting selector
/// (`HashRangeAutoSplitStickyKeyConsumerSelector`): AUTO_SPLIT mode with
/// `subscriptionKeySharedUseConsistentHashing=false`.
///
/// Each consumer owns one range of `[0, range_size]`; a new consumer takes
/// the lower half of the biggest range (ties: the lowest). Names do not
/// matter. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "AutoSplitSelector")]
pub(crate) struct PyAutoSplitSelector {
    state: Shared,
    range_size: i32,
}

selector_methods!(PyAutoSplitSelector, "AutoSplitSelector", {
    /// Adds a consumer and returns what moved. `name` does not matter to this
    /// selector; `ranges` must be None.
    ///
    /// Raises `ConsumerAssignError` with the broker's "No more range can
    /// assigned to new consumer, assigned consumers N" when every range is
    /// one slot wide, or when the id is already in the selector.
    add;

    #[new]
    #[pyo3(signature = (range_size = 65536))]
    fn new(py: Python<'_>, range_size: i32) -> PyResult<Self> {
        Ok(Self {
            state: Shared::new(py, Selector::auto_split(range_size))?,
            range_size,
        })
    }

    /// The range size (a power of two; 65536 in the broker).
    #[getter]
    fn range_size(&self) -> i32 {
        self.range_size
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let consumers = self.state.read(py, |core| core.len());
        format!(
            "<AutoSplitSelector range_size={}, {consumers} consumers>",
            self.range_size
        )
    }
});

/// The broker's consistent-hashing selector
/// (`ConsistentHashingStickyKeyConsumerSelector`), the default for AUTO_SPLIT
/// mode.
///
/// Each consumer puts `points` points on a ring of slots `[1, range_max]`
/// (65535 with the default dispatcher, 2147483646 with the Classic one); a
/// slot goes to the owner of the first point at or after it. Names matter:
/// consumers with the same name get different name indexes, and so
/// different points. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "ConsistentHashingSelector")]
pub(crate) struct PyConsistentHashingSelector {
    state: Shared,
    points: u32,
    range_max: u32,
}

selector_methods!(PyConsistentHashingSelector, "ConsistentHashingSelector", {
    /// Adds a consumer and returns what moved (only the new consumer gains).
    /// `name` is hashed as its UTF-8 bytes; `ranges` must be None. Raises
    /// `ConsumerAssignError` when the id is already in the selector (the
    /// broker's add never fails).
    add;

    #[new]
    #[pyo3(signature = (points = 100, range_max = 65535))]
    fn new(py: Python<'_>, points: u32, range_max: i64) -> PyResult<Self> {
        // Java's `Range.of(1, rangeMax)`: below 1 it ends before it starts.
        let range_max = u32::try_from(range_max.max(0)).unwrap_or(u32::MAX);
        Ok(Self {
            state: Shared::new(py, Selector::consistent_hashing(points, range_max))?,
            points,
            range_max,
        })
    }

    /// Ring points per consumer.
    #[getter]
    fn points(&self) -> u32 {
        self.points
    }

    /// The top of the key hash range `[1, range_max]`.
    #[getter]
    fn range_max(&self) -> u32 {
        self.range_max
    }

    /// The consumer's name index (the smallest free among live consumers
    /// with its name when it joined), or None for an unknown consumer or
    /// with 0 points.
    #[pyo3(signature = (consumer_id, /))]
    fn name_index(&self, py: Python<'_>, consumer_id: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let consumer = consumer_id_arg(consumer_id)?;
        Ok(self
            .state
            .read(py, |core| core.ring_of(consumer).ok()?.name_index(consumer)))
    }

    /// The consumer's ring points for point indexes 0..points-1 (empty for
    /// an unknown consumer).
    #[pyo3(signature = (consumer_id, /))]
    fn consumer_points(
        &self,
        py: Python<'_>,
        consumer_id: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<u32>> {
        let consumer = consumer_id_arg(consumer_id)?;
        Ok(self.state.read(py, |core| match core.ring_of(consumer) {
            Ok(ring) => ring.consumer_points(consumer).collect(),
            Err(_) => Vec::new(),
        }))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let consumers = self.state.read(py, |core| core.len());
        format!(
            "<ConsistentHashingSelector points={}, range_max={}, {consumers} consumers>",
            self.points, self.range_max
        )
    }
});

/// The broker's exclusive selector for STICKY mode
/// (`HashRangeExclusiveStickyKeyConsumerSelector`): each consumer declares
/// its ranges of `[0, 65535]`, which must not overlap another consumer's.
/// A slot no range covers has no consumer.
///
/// `legacy=True` applies the rules before PR #24730 (2.x, 3.x and 4.0.0 to
/// 4.0.6): other checks and messages, and the slots between two ranges of
/// one consumer delivered to it. Thread-safe.
#[pyclass(frozen, module = "pulsar_routing", name = "ExclusiveSelector")]
pub(crate) struct PyExclusiveSelector {
    state: Shared,
    legacy: bool,
}

selector_methods!(PyExclusiveSelector, "ExclusiveSelector", {
    /// Adds a consumer with its declared `ranges` (`(start, end)` pairs,
    /// inclusive; None stands for a consumer that sent no KeySharedMeta) and
    /// returns the slots it took: its ranges clipped to `[0, 65535]` (the
    /// broker reports none; this is what moved). The broker checks no bounds; the client
    /// does (`validate_sticky_ranges`).
    ///
    /// Raises `ConsumerAssignError` with the broker's message: no meta, no
    /// range, start > end, overlapping own ranges, a conflict with another
    /// consumer ("Range conflict with consumer Consumer{consumerId=N}"; the
    /// broker prints more of the consumer), or an id already present.
    add;

    #[new]
    #[pyo3(signature = (*, legacy = false))]
    fn new(py: Python<'_>, legacy: bool) -> PyResult<Self> {
        let mode = if legacy {
            ExclusiveMode::LegacyPre24730
        } else {
            ExclusiveMode::Current
        };
        Ok(Self {
            state: Shared::new(py, Selector::exclusive(mode))?,
            legacy,
        })
    }

    /// True with the rules before PR #24730.
    #[getter]
    fn legacy(&self) -> bool {
        self.legacy
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let consumers = self.state.read(py, |core| core.len());
        let legacy = if self.legacy { "legacy=True, " } else { "" };
        format!("<ExclusiveSelector {legacy}{consumers} consumers>")
    }
});

/// The key hash range named by `selector`: a selector name, or a selector
/// (whose own range, e.g. the Classic `[1, 2147483646]`, is used).
fn selector_range(py: Python<'_>, selector: &Bound<'_, PyAny>) -> PyResult<KeyHashRange> {
    if let Ok(name) = selector.cast::<PyString>() {
        return name
            .to_str()?
            .parse::<SelectorKind>()
            .map(SelectorKind::key_hash_range)
            .map_err(|e: UnknownSelectorKind| e.into_py_exception(py));
    }
    if let Ok(s) = selector.cast::<PyAutoSplitSelector>() {
        return Ok(s.get().state.range);
    }
    if let Ok(s) = selector.cast::<PyConsistentHashingSelector>() {
        return Ok(s.get().state.range);
    }
    if let Ok(s) = selector.cast::<PyExclusiveSelector>() {
        return Ok(s.get().state.range);
    }
    Err(PyTypeError::new_err(format!(
        "selector must be \"auto_split\", \"consistent_hashing\", \"exclusive\" or a selector, not {}",
        selector.get_type().name()?
    )))
}

/// The slot of a sticky key under a selector: `murmur3_31(key) % size +
/// start` in the selector's key hash range, with 0 read as 1.
///
/// `key` is the sticky key's bytes (a `str` as its UTF-8 bytes); see
/// `sticky_key` for the key of a message. `selector` is "auto_split" or
/// "exclusive" (slots `[0, 65535]`, modulus 65536), "consistent_hashing"
/// (`[1, 65535]`, modulus 65535), or a selector object, whose own range is
/// used (`ConsistentHashingSelector(range_max=2147483646)` for the Classic
/// dispatcher).
#[pyfunction]
#[pyo3(signature = (key, selector))]
pub(crate) fn sticky_key_hash(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    selector: &Bound<'_, PyAny>,
) -> PyResult<u32> {
    let range = selector_range(py, selector)?;
    hash_text_or_bytes(py, key, |bytes| range.slot_of(bytes))
}

/// The slot of every sticky key, as a uint32 array (see `sticky_key_hash`;
/// `keys` as for `select_keys`, None or null hashed as NONE_KEY).
#[pyfunction]
#[pyo3(signature = (keys, selector))]
pub(crate) fn sticky_key_hashes<'py>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
    selector: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let range = selector_range(py, selector)?;
    Ok(PyArray1::from_vec(py, slots_for_keys(py, keys, range)?))
}

/// A protobuf `uint64` that Java reads as a `long`: `[-2**63, 2**64 - 1]`.
fn sequence_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(id) = obj.extract::<u64>() {
        return Ok(id);
    }
    match obj.extract::<i64>() {
        #[allow(clippy::cast_sign_loss)]
        Ok(id) => Ok(id as u64),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyOverflowError::new_err(
            "sequence_id must be in [-2**63, 2**64 - 1]",
        )),
        Err(e) => Err(e),
    }
}

/// The sticky key of a message, the bytes the broker hashes
/// (`Commands.resolveStickyKey`): the ordering key; else the partition key
/// (Base64-decoded when `partition_key_b64_encoded`, as `keyBytes()` sets
/// it); else `producer_name + "-" + sequence_id` (4.0 and later); else
/// `NONE_KEY`. A flagged partition key that is not valid Base64 for Java
/// gives `NONE_KEY`, as in the broker.
///
/// Text fields are `str` (encoded as UTF-8) or the bytes on the wire.
#[pyfunction]
#[pyo3(signature = (
    *,
    ordering_key = None,
    partition_key = None,
    partition_key_b64_encoded = false,
    producer_name = None,
    sequence_id = None,
))]
pub(crate) fn sticky_key<'py>(
    py: Python<'py>,
    ordering_key: Option<&Bound<'py, PyAny>>,
    partition_key: Option<&Bound<'py, PyAny>>,
    partition_key_b64_encoded: bool,
    producer_name: Option<&Bound<'py, PyAny>>,
    sequence_id: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    // A `str` as its UTF-8 (Java's `getBytes(UTF_8)`), a buffer as its bytes.
    let bytes = |field: Option<&Bound<'py, PyAny>>| {
        field
            .map(|f| hash_text_or_bytes(py, f, <[u8]>::to_vec))
            .transpose()
    };
    let ordering_key = bytes(ordering_key)?;
    let partition_key = bytes(partition_key)?;
    let producer_name = bytes(producer_name)?;
    let sequence_id = sequence_id.map(sequence_id_arg).transpose()?;
    let keys = MessageKeys {
        ordering_key: ordering_key.as_deref(),
        partition_key: partition_key.as_deref(),
        partition_key_b64_encoded,
        producer_name: producer_name.as_deref(),
        sequence_id,
    };
    let key = keys.sticky_key();
    PyBytes::new_with(py, key.len(), |out| {
        // The buffer has the key's measured length, so the key fills it.
        let _ = key.write_to(out);
        Ok(())
    })
}

/// Checks sticky ranges as the Java client does before subscribing
/// (`KeySharedPolicy.stickyHashRange().ranges(...)` then `validate()`):
/// `Range.of` of each, then non-empty, then each range within
/// `[0, 65535]` and overlapping no other, in Java's order. Raises
/// `KeySharedPolicyError` with Java's message.
#[pyfunction]
#[pyo3(signature = (ranges, /))]
pub(crate) fn validate_sticky_ranges(py: Python<'_>, ranges: &Bound<'_, PyAny>) -> PyResult<()> {
    let ranges = ranges_arg(ranges)?;
    pulsar_routing::key_shared::validate_sticky_ranges(&ranges).map_err(|e| e.into_py_exception(py))
}

/// Ring point `i` of a consumer named `name` with name index `name_index`
/// in a consistent-hashing selector with key hash range `[1, range_max]`:
/// the slot of `name + "\0" + name_index + "\0" + i` (Java's
/// `calculateHashForConsumerAndIndex`).
#[pyfunction]
#[pyo3(signature = (name, name_index, i, range_max = 65535))]
pub(crate) fn ring_point(
    py: Python<'_>,
    name: &Bound<'_, PyAny>,
    name_index: u32,
    i: u32,
    range_max: i64,
) -> PyResult<u32> {
    let range = key_hash_range(1, range_max).map_err(|e| e.into_py_exception(py))?;
    hash_text_or_bytes(py, name, |name| {
        pulsar_routing::key_shared::ring_point(name, name_index, i, range)
    })
}
