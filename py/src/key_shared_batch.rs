//! Many sticky keys to their slots: Python objects in batches, numpy `U`/`S`
//! arrays and pyarrow arrays read in place, with the GIL released for long
//! inputs.
//!
//! A sticky key is bytes: a `str` is its UTF-8 (Java's `getBytes(UTF_8)`,
//! lone surrogates written as `?`), `bytes` as they are, and `None` (or an
//! Arrow null) a message without any key, hashed as `NONE_KEY`.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pulsar_routing::key_shared::{KeyHashRange, NONE_KEY};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::arrow::{ArrowTypes, ArrowValue, for_each_arrow_value};
use crate::batch::OBJECT_BATCH;
use crate::buffers::{ExportedBytes, detach_above};
use crate::keys::Key;

/// Batches of at least this many keys are hashed with the GIL released.
const DETACH_MIN_KEYS: usize = 1024;

/// The slot of every key in `range`.
pub(crate) fn slots_for_keys(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    range: KeyHashRange,
) -> PyResult<Vec<u32>> {
    if keys.is_instance_of::<PyString>() || keys.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "keys must be a collection of keys, not one key",
        ));
    }
    if let Ok(array) = keys.cast::<PyUntypedArray>() {
        return numpy_keys(py, array, range);
    }
    let mut slots = Vec::new();
    let types = ArrowTypes {
        what: "keys",
        binary: true,
    };
    let is_arrow = for_each_arrow_value(py, keys, types, &mut |value| {
        slots.push(match value {
            ArrowValue::Null => range.slot_of(NONE_KEY),
            ArrowValue::Text(text) => range.slot_of(text.as_bytes()),
            ArrowValue::Bytes(bytes) => range.slot_of(bytes),
        });
        Ok(())
    })?;
    if is_arrow {
        Ok(slots)
    } else {
        object_keys(py, keys, range)
    }
}

/// The slot of one key object.
fn object_slot(key: &Key<'_>, range: KeyHashRange) -> u32 {
    match key {
        Key::None => range.slot_of(NONE_KEY),
        Key::Text(text) => range.slot_of(&text.utf8()),
        Key::Bytes(bytes) => range.slot_of(bytes),
    }
}

/// Any iterable of `str`, `bytes` and `None`.
fn object_keys(py: Python<'_>, keys: &Bound<'_, PyAny>, range: KeyHashRange) -> PyResult<Vec<u32>> {
    let mut slots = Vec::with_capacity(keys.len().unwrap_or(0));
    let mut items = keys.try_iter()?;
    let mut batch = Vec::with_capacity(OBJECT_BATCH);
    loop {
        batch.clear();
        for item in items.by_ref().take(OBJECT_BATCH) {
            batch.push(item?);
        }
        if batch.is_empty() {
            return Ok(slots);
        }
        let first = slots.len();
        let keys = batch
            .iter()
            .enumerate()
            .map(|(i, item)| Key::extract(item, &format_args!("keys[{}]", first + i)))
            .collect::<PyResult<Vec<Key<'_>>>>()?;
        // The `str` and `bytes` objects are immutable and `batch` holds them,
        // so their contents stay valid with the GIL released.
        let hashed = detach_above(py, keys.len(), DETACH_MIN_KEYS, || {
            keys.iter()
                .map(|key| object_slot(key, range))
                .collect::<Vec<u32>>()
        });
        slots.extend(hashed);
    }
}

/// A one-dimensional numpy array of dtype `U`, `S`, `O` or `T`.
fn numpy_keys(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    range: KeyHashRange,
) -> PyResult<Vec<u32>> {
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "keys must be a one-dimensional array, not {}-dimensional",
            array.ndim()
        )));
    }
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind == b'O' || kind == b'T' {
        return object_keys(py, array.as_any(), range);
    }
    if kind != b'U' && kind != b'S' {
        return Err(PyTypeError::new_err(format!(
            "keys must be an array of str (dtype U), bytes (dtype S) or objects, not dtype {}",
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
        return Ok(vec![range.slot_of(b""); len]);
    }
    // A strided view is copied once into a contiguous array; anything else
    // is read in place.
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
            Ok(fixed_width_bytes(data, item_size, range))
        } else {
            fixed_width_text(data, item_size, swapped, range)
        }
    })
}

/// numpy `S` items: NUL-padded bytes. numpy drops trailing NULs when it
/// hands an item out, so they are dropped here too.
fn fixed_width_bytes(data: &[u8], item_size: usize, range: KeyHashRange) -> Vec<u32> {
    data.chunks_exact(item_size)
        .map(|item| {
            let end = item
                .iter()
                .rposition(|&b| b != 0)
                .map_or(0, |last| last + 1);
            range.slot_of(&item[..end])
        })
        .collect()
}

/// numpy `U` items: NUL-padded UCS-4 code points, each encoded as UTF-8 into
/// one reused buffer (no Python object per key).
fn fixed_width_text(
    data: &[u8],
    item_size: usize,
    swapped: bool,
    range: KeyHashRange,
) -> PyResult<Vec<u32>> {
    let code_point = move |unit: &[u8]| {
        let cp = u32::from_ne_bytes([unit[0], unit[1], unit[2], unit[3]]);
        if swapped { cp.swap_bytes() } else { cp }
    };
    let mut buffer = Vec::with_capacity(item_size);
    let mut slots = Vec::with_capacity(data.len() / item_size);
    for (index, item) in data.chunks_exact(item_size).enumerate() {
        // ASCII, by far the most common, in one pass: a byte per code point.
        buffer.clear();
        let mut ascii = true;
        for unit in item.chunks_exact(4) {
            let cp = code_point(unit);
            ascii &= cp < 0x80;
            buffer.push(cp as u8);
        }
        if ascii {
            // numpy drops trailing NULs when it hands an item out.
            let len = buffer
                .iter()
                .rposition(|&b| b != 0)
                .map_or(0, |last| last + 1);
            buffer.truncate(len);
        } else {
            let code_points = item.chunks_exact(4).map(code_point);
            let len = code_points
                .clone()
                .rposition(|cp| cp != 0)
                .map_or(0, |last| last + 1);
            java_utf8(code_points.take(len), index, &mut buffer)?;
        }
        slots.push(range.slot_of(&buffer));
    }
    Ok(slots)
}

/// The UTF-8 of code points as Java's `getBytes(UTF_8)` writes the `String`
/// Python would make of them: surrogate code points pair up as UTF-16 units
/// do in Java, and each lone one is written as `?`.
fn java_utf8(
    code_points: impl Iterator<Item = u32> + Clone,
    index: usize,
    out: &mut Vec<u8>,
) -> PyResult<()> {
    out.clear();
    let mut encoded = [0u8; 4];
    for cp in code_points.clone() {
        match char::from_u32(cp) {
            Some(c) => out.extend_from_slice(c.encode_utf8(&mut encoded).as_bytes()),
            None => return java_utf8_slow(code_points, index, out),
        }
    }
    Ok(())
}

/// [`java_utf8`] for items holding surrogates (or values above U+10FFFF,
/// which are an error).
fn java_utf8_slow(
    code_points: impl Iterator<Item = u32>,
    index: usize,
    out: &mut Vec<u8>,
) -> PyResult<()> {
    let mut units = Vec::new();
    for cp in code_points {
        if let Ok(unit) = u16::try_from(cp) {
            units.push(unit);
        } else if let Some(c) = char::from_u32(cp) {
            units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        } else {
            return Err(PyValueError::new_err(format!(
                "keys[{index}] holds {cp:#x}, which is not a Unicode code point"
            )));
        }
    }
    out.clear();
    let mut encoded = [0u8; 4];
    for c in char::decode_utf16(units) {
        let c = c.unwrap_or('?');
        out.extend_from_slice(c.encode_utf8(&mut encoded).as_bytes());
    }
    Ok(())
}
