//! `partitions_for_keys`: many keys at once, read in place from numpy and
//! pyarrow arrays.

use std::marker::PhantomData;

use numpy::{PyArray1, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pulsar_routing::{
    HashingScheme, PartitionCount, RoutingKey, partition_for_key, partition_for_key_bytes,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::arrow::{ArrowMap, ArrowTypes, map_arrow_values};
use crate::buffers::{ExportedBytes, detach_above};
use crate::errors::{hashing_scheme, partition_count};
use crate::keys::Key;

/// Batches of at least this many keys are routed with the GIL released;
/// below it, releasing and re-taking the GIL costs more than it gives back.
const DETACH_MIN_KEYS: usize = 1024;

/// Python objects are read this many at a time: the keys of one batch are
/// gathered with the GIL held, then routed (with it released for a full
/// batch) while the batch keeps its objects alive.
pub(crate) const OBJECT_BATCH: usize = 4096;

/// The partition written for a message without a key.
const NO_KEY: i32 = -1;

/// numpy `U` items of at most this many bytes are decoded on the stack.
const STACK_TEXT: usize = 1024;

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
    let route = Route {
        n: partition_count(py, num_partitions)?,
        scheme: hashing_scheme(py, scheme)?,
    };
    if keys.is_instance_of::<PyString>() || keys.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "keys must be a collection of keys, not one key: use partition_for_key",
        ));
    }
    let partitions = if let Ok(array) = keys.cast::<PyUntypedArray>() {
        numpy_keys(py, array, route)?
    } else if let Some(partitions) = arrow_keys(py, keys, route)? {
        partitions
    } else {
        object_keys(py, keys, route)?
    };
    Ok(PyArray1::from_vec(py, partitions))
}

#[derive(Clone, Copy)]
struct Route {
    n: PartitionCount,
    scheme: HashingScheme,
}

impl Route {
    fn key(self, key: RoutingKey<'_>) -> i32 {
        // A partition is below 2**31, so it always fits.
        key.partition(self.scheme, self.n)
            .map_or(NO_KEY, |p| p as i32)
    }

    fn any(self, key: &Key<'_>) -> i32 {
        key.partition(self.scheme, self.n)
            .map_or(NO_KEY, |p| p as i32)
    }
}

/// Any iterable of `str`, `bytes` and `None`.
fn object_keys(py: Python<'_>, keys: &Bound<'_, PyAny>, route: Route) -> PyResult<Vec<i32>> {
    let mut partitions = Vec::with_capacity(keys.len().unwrap_or(0));
    let mut items = keys.try_iter()?;
    let mut batch = Vec::with_capacity(OBJECT_BATCH);
    loop {
        batch.clear();
        for item in items.by_ref().take(OBJECT_BATCH) {
            batch.push(item?);
        }
        if batch.is_empty() {
            return Ok(partitions);
        }
        let first = partitions.len();
        let keys = batch
            .iter()
            .enumerate()
            .map(|(i, item)| Key::extract(item, &format_args!("keys[{}]", first + i)))
            .collect::<PyResult<Vec<Key<'_>>>>()?;
        // The `str` and `bytes` objects are immutable and `batch` holds them,
        // so their contents stay valid with the GIL released.
        let routed = detach_above(py, keys.len(), DETACH_MIN_KEYS, || {
            keys.iter().map(|key| route.any(key)).collect::<Vec<i32>>()
        });
        partitions.extend(routed);
    }
}

/// A one-dimensional numpy array of dtype `U`, `S`, `O` or `T`.
fn numpy_keys(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    route: Route,
) -> PyResult<Vec<i32>> {
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "keys must be a one-dimensional array, not {}-dimensional",
            array.ndim()
        )));
    }
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind == b'O' || kind == b'T' {
        // Object and variable-width string arrays hold Python objects (or
        // make them): read them like any other iterable.
        return object_keys(py, array.as_any(), route);
    }
    if kind != b'U' && kind != b'S' {
        return Err(PyTypeError::new_err(format!(
            "keys must be an array of str (dtype U), bytes (dtype S) or objects, not dtype {}",
            dtype.str()?
        )));
    }
    let len = array.len();
    let item_size = dtype.itemsize();
    let mut partitions = vec![0; len];
    if len == 0 {
        return Ok(partitions);
    }
    if item_size == 0 {
        // Zero-width items are all empty strings.
        let empty = if kind == b'U' {
            route.key(RoutingKey::Key(""))
        } else {
            route.key(RoutingKey::KeyBytes(b""))
        };
        partitions.fill(empty);
        return Ok(partitions);
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
    detach_above(py, len, DETACH_MIN_KEYS, || {
        if kind == b'S' {
            fixed_width_bytes(data, item_size, route, &mut partitions);
            Ok(())
        } else {
            fixed_width_text(data, item_size, swapped, route, &mut partitions)
        }
    })?;
    Ok(partitions)
}

/// numpy `S` items: NUL-padded bytes, routed as `keyBytes()`. numpy drops
/// trailing NULs when it hands an item out (`arr[i]`, `tolist()`), so they
/// are dropped here too.
fn fixed_width_bytes(data: &[u8], item_size: usize, route: Route, out: &mut [i32]) {
    for (item, slot) in data.chunks_exact(item_size).zip(out) {
        let end = item
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |last| last + 1);
        *slot = route.key(RoutingKey::KeyBytes(&item[..end]));
    }
}

/// numpy `U` items: NUL-padded UCS-4 code points, routed as `key()`. Each is
/// decoded into one reused buffer (on the stack unless an item can exceed
/// [`STACK_TEXT`] bytes), so no Python object is made per key.
fn fixed_width_text(
    data: &[u8],
    item_size: usize,
    swapped: bool,
    route: Route,
    out: &mut [i32],
) -> PyResult<()> {
    let items = data.chunks_exact(item_size).map(|item| {
        let code_points = item.chunks_exact(4).map(move |unit| {
            let cp = u32::from_ne_bytes([unit[0], unit[1], unit[2], unit[3]]);
            if swapped { cp.swap_bytes() } else { cp }
        });
        // numpy drops trailing NULs when it hands an item out.
        let len = code_points
            .clone()
            .rposition(|cp| cp != 0)
            .map_or(0, |last| last + 1);
        code_points.take(len)
    });
    match route.scheme {
        HashingScheme::JavaStringHash => {
            // String.hashCode() reads UTF-16 units, and every code point up
            // to U+10FFFF (lone surrogates too) has them: no UTF-8 detour.
            // Each code point takes 4 bytes in the array and 1 or 2 units.
            let mut stack = [0u16; STACK_TEXT / 2];
            let mut heap = Vec::new();
            let buffer = scratch(&mut stack, &mut heap, item_size / 2);
            for (index, (code_points, slot)) in items.zip(out).enumerate() {
                let mut used = 0;
                for cp in code_points {
                    if let Ok(unit) = u16::try_from(cp) {
                        buffer[used] = unit;
                        used += 1;
                    } else {
                        let c = char::from_u32(cp).ok_or_else(|| not_a_code_point(index, cp))?;
                        used += c.encode_utf16(&mut buffer[used..]).len();
                    }
                }
                *slot = route.key(RoutingKey::KeyUtf16(&buffer[..used]));
            }
        }
        HashingScheme::Murmur3_32Hash => {
            // Murmur3 reads UTF-8; each code point takes at most 4 bytes.
            let mut stack = [0u8; STACK_TEXT];
            let mut heap = Vec::new();
            let buffer = scratch(&mut stack, &mut heap, item_size);
            for (index, (code_points, slot)) in items.zip(out).enumerate() {
                let mut used = 0;
                let mut scalar_values = true;
                for cp in code_points.clone() {
                    if cp < 0x80 {
                        buffer[used] = cp as u8;
                        used += 1;
                    } else if let Some(c) = char::from_u32(cp) {
                        used += c.encode_utf8(&mut buffer[used..]).len();
                    } else {
                        scalar_values = false;
                        break;
                    }
                }
                *slot = if scalar_values {
                    // SAFETY: `buffer[..used]` holds exactly the bytes written
                    // above for this item: ASCII bytes and `encode_utf8`
                    // output, one whole character after another, so it is
                    // valid UTF-8.
                    let text = unsafe { std::str::from_utf8_unchecked(&buffer[..used]) };
                    route.key(RoutingKey::Key(text))
                } else {
                    // A lone surrogate, which the core hashes as Java's
                    // getBytes(UTF_8) encodes it.
                    route.key(RoutingKey::KeyUtf16(&utf16_units(code_points, index)?))
                };
            }
        }
    }
    Ok(())
}

/// `len` elements of scratch space: the stack array when it is long enough,
/// else `heap`, grown once.
fn scratch<'a, T: Copy + Default, const N: usize>(
    stack: &'a mut [T; N],
    heap: &'a mut Vec<T>,
    len: usize,
) -> &'a mut [T] {
    if len <= N {
        &mut stack[..len]
    } else {
        heap.resize(len, T::default());
        heap
    }
}

fn not_a_code_point(index: usize, cp: u32) -> PyErr {
    PyValueError::new_err(format!(
        "keys[{index}] holds {cp:#x}, which is not a Unicode code point"
    ))
}

/// The UTF-16 units of code points that include a lone surrogate, as Java
/// would hold them.
fn utf16_units(code_points: impl Iterator<Item = u32>, index: usize) -> PyResult<Vec<u16>> {
    let mut units = Vec::new();
    for cp in code_points {
        if let Ok(unit) = u16::try_from(cp) {
            units.push(unit);
        } else if let Some(c) = char::from_u32(cp) {
            units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        } else {
            return Err(not_a_code_point(index, cp));
        }
    }
    Ok(units)
}

/// A pyarrow `Array` or `ChunkedArray` of string, large_string, binary or
/// large_binary, or `None` for any other object.
fn arrow_keys(py: Python<'_>, keys: &Bound<'_, PyAny>, route: Route) -> PyResult<Option<Vec<i32>>> {
    let types = ArrowTypes {
        what: "keys",
        binary: true,
    };
    // The scheme is a type parameter of the map, so each loop hashes with
    // one scheme and has no per-key branch on it.
    match route.scheme {
        HashingScheme::JavaStringHash => {
            map_arrow_values(py, keys, types, &ArrowRoute::<JavaString>::new(route.n))
        }
        HashingScheme::Murmur3_32Hash => {
            map_arrow_values(py, keys, types, &ArrowRoute::<Murmur3>::new(route.n))
        }
    }
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

/// Routes Arrow values with the scheme `S`.
struct ArrowRoute<S> {
    n: PartitionCount,
    scheme: PhantomData<S>,
}

impl<S> ArrowRoute<S> {
    fn new(n: PartitionCount) -> Self {
        Self {
            n,
            scheme: PhantomData,
        }
    }
}

impl<S: FixedScheme> ArrowMap for ArrowRoute<S> {
    type Out = i32;

    fn null(&self) -> i32 {
        NO_KEY
    }

    #[inline(always)]
    fn text(&self, text: &str) -> i32 {
        // A partition is below 2**31, so it always fits.
        partition_for_key(text, self.n, S::SCHEME) as i32
    }

    fn bytes(&self, bytes: &[u8]) -> i32 {
        partition_for_key_bytes(bytes, self.n, S::SCHEME) as i32
    }
}
