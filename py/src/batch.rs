//! Many keys at once, written once for every batch entry point: an iterable
//! of Python objects read in batches, numpy `U`/`S` arrays and pyarrow
//! arrays read in place, with the GIL released for long inputs. A batch
//! ([`KeyBatch`]) only says what it makes of one key; `partitions_for_keys`
//! is the first of them.

use std::marker::PhantomData;

use numpy::{PyArray1, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pulsar_routing::batch::KeyOffsets;
use pulsar_routing::{
    HashingScheme, PartitionCount, RoutingKey, partition_for_key, partition_for_key_bytes,
};
use pulsar_routing_owned::batch;
use pulsar_routing_owned::batch::keys;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::arrow::map_arrow_values;
use crate::buffers::{ExportedBytes, detach_above};
use crate::errors::{hashing_scheme, partition_count};
use crate::routing_key::utf16_units;

/// Batches of at least this many keys are mapped with the GIL released;
/// below it, releasing and re-taking the GIL costs more than it gives back.
const DETACH_MIN_KEYS: usize = 1024;

/// Python objects are read this many at a time: the keys of one batch are
/// gathered with the GIL held, then mapped (with it released for a full
/// batch) while the batch keeps its objects alive.
const OBJECT_BATCH: usize = 4096;

/// One key of a batch, borrowed from its input: `None` or an Arrow null,
/// valid text, text as UTF-16 units that may hold lone surrogates (a `str`
/// with one, a numpy `U` item with a surrogate code point, or any `U` item
/// when the batch asks for [`KeyBatch::UTF16`]), or `bytes`, a numpy `S`
/// item or an Arrow binary value.
pub(crate) use pulsar_routing_owned::batch::keys::KeyRef;

/// What a batch entry point makes of each key, and which inputs it takes;
/// [`map_keys`] does the rest.
pub(crate) trait KeyBatch: Sync {
    /// One output per key.
    type Out: Clone + Default + Send + Sync;
    /// What the keys are, for messages: `"keys"`, `"topics"`.
    const WHAT: &'static str = "keys";
    /// The `TypeError` for one key given where a collection belongs.
    const ONE_KEY: &'static str;
    /// Whether `bytes`, numpy `S` and Arrow binary keys are taken.
    const BYTES: bool = true;
    /// The objects an iterable may hold, for its `TypeError`.
    const OBJECTS: &'static str = "str, bytes or None";
    /// Whether text may hold lone surrogates, as a Java `String` may. When
    /// it may not, such text is an error ([`Self::surrogate_object`],
    /// [`Self::not_scalar_value`]) and never reaches [`Self::key`] as
    /// [`KeyRef::Utf16`].
    const SURROGATES: bool = true;
    /// Whether numpy `U` items are handed over as UTF-16 units (cheaper for
    /// a hash of UTF-16, like `String.hashCode()`) rather than as UTF-8.
    const UTF16: bool = false;

    /// Whether [`Self::text_block`] maps blocks of text keys at once.
    const TEXT_BLOCKS: bool = false;

    /// The output for one key; `index` is its position in the input.
    fn key(&self, index: usize, key: KeyRef<'_>) -> PyResult<Self::Out>;

    /// The outputs of a block of text keys laid out as Arrow lays them out
    /// (key `i` is `data[offsets[i]..offsets[i + 1]]`, every one of them
    /// text), all at once, which lets the core hash several keys in
    /// parallel; `false` when this batch maps keys one by one only. The
    /// output of a key that is `None` is not looked at (it is overwritten).
    fn text_block(&self, _data: &[u8], _offsets: &[usize], _out: &mut [Self::Out]) -> bool {
        false
    }

    /// Whether `obj` is one key rather than a collection of them.
    fn is_one_key(&self, obj: &Bound<'_, PyAny>) -> bool {
        obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>()
    }

    /// The output for an object of an iterable that is not `None`, `str`
    /// or (when taken) `bytes`, or `None` to reject it. It is computed with
    /// the GIL held.
    fn other_object(&self, _index: usize, _obj: &Bound<'_, PyAny>) -> Option<PyResult<Self::Out>> {
        None
    }

    /// The error for a `str` with a lone surrogate, without
    /// [`Self::SURROGATES`].
    fn surrogate_object(&self, index: usize, _text: &Bound<'_, PyString>) -> PyErr {
        PyValueError::new_err(format!("{}[{index}] holds a lone surrogate", Self::WHAT))
    }

    /// The error for a numpy `U` item holding `cp`, which is not a Unicode
    /// scalar value (a surrogate, or above U+10FFFF), without
    /// [`Self::SURROGATES`].
    fn not_scalar_value(&self, index: usize, cp: u32) -> PyErr {
        PyValueError::new_err(format!(
            "{}[{index}] holds {cp:#x}, which is not a Unicode code point",
            Self::WHAT
        ))
    }
}

/// A batch as the owned readers of numpy and Arrow buffers take it.
pub(crate) struct Owned<'a, B>(pub(crate) &'a B);

impl<B: KeyBatch> keys::KeyMap for Owned<'_, B> {
    type Out = B::Out;
    type Error = PyErr;
    const TEXT_BLOCKS: bool = B::TEXT_BLOCKS;

    // Compiled into the readers' loops, as the batch's own `key` is.
    #[inline(always)]
    fn key(&self, index: usize, key: KeyRef<'_>) -> PyResult<B::Out> {
        self.0.key(index, key)
    }

    fn not_scalar(&self, index: usize, cp: u32) -> PyErr {
        self.0.not_scalar_value(index, cp)
    }

    fn text_block(&self, data: &[u8], offsets: &[usize], out: &mut [B::Out]) -> bool {
        self.0.text_block(data, offsets, out)
    }
}

/// `batch` applied to every key of `keys`, in order: an iterable of `str`,
/// `bytes` and `None` (and what the batch takes besides), a one-dimensional
/// numpy array of dtype `U`, `S`, `O` or `T`, or a pyarrow `Array` or
/// `ChunkedArray` of string, large_string, binary or large_binary.
pub(crate) fn map_keys<B: KeyBatch>(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    batch: &B,
) -> PyResult<Vec<B::Out>> {
    if batch.is_one_key(keys) {
        return Err(PyTypeError::new_err(B::ONE_KEY));
    }
    if let Ok(array) = keys.cast::<PyUntypedArray>() {
        numpy_keys(py, array, batch)
    } else if let Some(out) = map_arrow_values(py, keys, batch)? {
        Ok(out)
    } else {
        object_keys(py, keys, batch)
    }
}

/// One object of an iterable, read with the GIL held.
enum ObjectKey<'a, T> {
    Key(KeyRef<'a>),
    /// A `str` with a lone surrogate.
    Utf16(Vec<u16>),
    /// An object the batch read itself ([`KeyBatch::other_object`]).
    Done(T),
}

fn object_key<'a, B: KeyBatch>(
    batch: &B,
    index: usize,
    obj: &'a Bound<'_, PyAny>,
) -> PyResult<ObjectKey<'a, B::Out>> {
    if obj.is_none() {
        Ok(ObjectKey::Key(KeyRef::None))
    } else if let Ok(text) = obj.cast::<PyString>() {
        if let Ok(utf8) = text.to_str() {
            Ok(ObjectKey::Key(KeyRef::Text(utf8)))
        } else if B::SURROGATES {
            // Only a lone surrogate makes the UTF-8 conversion fail.
            utf16_units(text).map(ObjectKey::Utf16)
        } else {
            Err(batch.surrogate_object(index, text))
        }
    } else if let Some(bytes) = obj.cast::<PyBytes>().ok().filter(|_| B::BYTES) {
        Ok(ObjectKey::Key(KeyRef::Bytes(bytes.as_bytes())))
    } else if let Some(out) = batch.other_object(index, obj) {
        out.map(ObjectKey::Done)
    } else {
        Err(PyTypeError::new_err(format!(
            "{}[{index}] must be {}, not {}",
            B::WHAT,
            B::OBJECTS,
            obj.get_type().name()?
        )))
    }
}

/// Any iterable of keys.
fn object_keys<B: KeyBatch>(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    batch: &B,
) -> PyResult<Vec<B::Out>> {
    let mut out = Vec::with_capacity(keys.len().unwrap_or(0));
    let mut items = keys.try_iter()?;
    let mut objects = Vec::with_capacity(OBJECT_BATCH);
    loop {
        objects.clear();
        for item in items.by_ref().take(OBJECT_BATCH) {
            objects.push(item?);
        }
        if objects.is_empty() {
            return Ok(out);
        }
        let first = out.len();
        // A plain loop: collecting into a `PyResult<Vec<_>>` compiles to a
        // generic `try_fold` that the optimiser does not always flatten,
        // which made this loop half as fast again in some builds.
        let mut keys = Vec::with_capacity(objects.len());
        for (i, obj) in objects.iter().enumerate() {
            keys.push(object_key(batch, first + i, obj)?);
        }
        // The `str` and `bytes` objects are immutable and `objects` holds
        // them, so their contents stay valid with the GIL released.
        let out = &mut out;
        detach_above(py, keys.len(), DETACH_MIN_KEYS, || {
            for (i, key) in keys.iter().enumerate() {
                out.push(match key {
                    ObjectKey::Key(key) => batch.key(first + i, *key)?,
                    ObjectKey::Utf16(units) => batch.key(first + i, KeyRef::Utf16(units))?,
                    ObjectKey::Done(done) => done.clone(),
                });
            }
            PyResult::Ok(())
        })?;
    }
}

/// A one-dimensional numpy array of dtype `U`, `S` (when the batch takes
/// bytes), `O` or `T`.
fn numpy_keys<B: KeyBatch>(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    batch: &B,
) -> PyResult<Vec<B::Out>> {
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "{} must be a one-dimensional array, not {}-dimensional",
            B::WHAT,
            array.ndim()
        )));
    }
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind == b'O' || kind == b'T' {
        // Object and variable-width string arrays hold Python objects (or
        // make them): read them like any other iterable.
        return object_keys(py, array.as_any(), batch);
    }
    if kind != b'U' && !(B::BYTES && kind == b'S') {
        let accepted = if B::BYTES {
            "str (dtype U), bytes (dtype S) or objects"
        } else {
            "str (dtype U) or objects"
        };
        return Err(PyTypeError::new_err(format!(
            "{} must be an array of {accepted}, not dtype {}",
            B::WHAT,
            dtype.str()?
        )));
    }
    let len = array.len();
    let item_size = dtype.itemsize();
    if len == 0 {
        return Ok(Vec::new());
    }
    if item_size == 0 {
        // Zero-width items are all empty keys.
        let empty = if kind == b'U' {
            KeyRef::Text("")
        } else {
            KeyRef::Bytes(b"")
        };
        return Ok(vec![batch.key(0, empty)?; len]);
    }
    // A strided view (a slice with a step, a column) is copied once into a
    // contiguous array; everything else is read in place.
    let contiguous = if array.is_c_contiguous() {
        array.as_any().clone()
    } else {
        py.import(intern!(py, "numpy"))?
            .call_method1(intern!(py, "ascontiguousarray"), (array,))?
    };
    let exported = ExportedBytes::get(&contiguous)?;
    let data = exported.as_bytes();
    if data.len() != len * item_size {
        return Err(PyValueError::new_err("array buffer has an unexpected size"));
    }
    let swapped = dtype.is_native_byteorder() == Some(false);
    let mut out = vec![B::Out::default(); len];
    let map = Owned(batch);
    detach_above(py, len, DETACH_MIN_KEYS, || {
        if kind == b'S' {
            keys::fixed_width_bytes(data, item_size, &mut out, &map)
        } else if B::UTF16 && B::SURROGATES {
            keys::fixed_width_utf16(data, item_size, swapped, &mut out, &map)
        } else {
            let surrogates = B::SURROGATES;
            keys::fixed_width_utf8(data, item_size, swapped, surrogates, &mut out, &map)
        }
    })?;
    Ok(out)
}

/// The partition written for a message without a key.
const NO_KEY: i32 = -1;

/// The partition of every key, as an int32 numpy array; -1 marks a message
/// without a key.
#[pyfunction]
#[pyo3(signature = (keys, num_partitions, scheme = "java_string"))]
pub(crate) fn partitions_for_keys<'py>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
    num_partitions: i64,
    scheme: &str,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let n = partition_count(py, num_partitions)?;
    // The scheme is a type parameter of the batch, so each loop hashes with
    // one scheme and has no per-key branch on it.
    let partitions = match hashing_scheme(py, scheme)? {
        HashingScheme::JavaStringHash => map_keys(py, keys, &Partitions::<JavaString>::new(n))?,
        HashingScheme::Murmur3_32Hash => map_keys(py, keys, &Partitions::<Murmur3>::new(n))?,
    };
    Ok(PyArray1::from_vec(py, partitions))
}

/// A hashing scheme fixed at compile time.
trait FixedScheme: Sync {
    const SCHEME: HashingScheme;
}

struct JavaString;

impl FixedScheme for JavaString {
    const SCHEME: HashingScheme = HashingScheme::JavaStringHash;
}

struct Murmur3;

impl FixedScheme for Murmur3 {
    const SCHEME: HashingScheme = HashingScheme::Murmur3_32Hash;
}

/// Routes keys with the scheme `S`.
struct Partitions<S> {
    n: PartitionCount,
    scheme: PhantomData<S>,
}

impl<S> Partitions<S> {
    fn new(n: PartitionCount) -> Self {
        Self {
            n,
            scheme: PhantomData,
        }
    }
}

impl<S: FixedScheme> KeyBatch for Partitions<S> {
    type Out = i32;
    const ONE_KEY: &'static str =
        "keys must be a collection of keys, not one key: use partition_for_key";
    // String.hashCode() reads UTF-16 units.
    const UTF16: bool = matches!(S::SCHEME, HashingScheme::JavaStringHash);
    // Murmur3 hashes the bytes, so a block of keys goes to the core's batch
    // routing as it is; JavaStringHash decodes each key on its own.
    const TEXT_BLOCKS: bool = matches!(S::SCHEME, HashingScheme::Murmur3_32Hash);

    #[inline(always)]
    fn key(&self, _index: usize, key: KeyRef<'_>) -> PyResult<i32> {
        // A partition is below 2**31, so it always fits.
        Ok(match key {
            KeyRef::None => NO_KEY,
            KeyRef::Text(text) => partition_for_key(text, self.n, S::SCHEME) as i32,
            KeyRef::Utf16(units) => RoutingKey::KeyUtf16(units)
                .partition(S::SCHEME, self.n)
                .map_or(NO_KEY, |p| p as i32),
            KeyRef::Bytes(bytes) => partition_for_key_bytes(bytes, self.n, S::SCHEME) as i32,
        })
    }

    fn text_block(&self, data: &[u8], offsets: &[usize], out: &mut [i32]) -> bool {
        let Ok(keys) = KeyOffsets::new(data, offsets) else {
            return false;
        };
        // SAFETY: `i32` and `u32` have the same size and alignment and every
        // bit pattern is valid for both, so the slice may be viewed as
        // `u32`s; it stays borrowed from `out` for the call only.
        let out =
            unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u32>(), out.len()) };
        // A partition is below 2**31, so each is also the right `i32`. The
        // owned batch takes the AVX2 lanes when the CPU has them.
        batch::partitions_for_keys(keys, self.n, S::SCHEME, out).is_ok()
    }
}
