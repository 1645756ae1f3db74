//! pyarrow arrays read in place: the validity bitmap, offsets and data
//! buffers of string, large_string, binary and large_binary arrays, visited
//! one value at a time with the GIL released for long chunks.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyModule, PyString};

use crate::buffers::{ExportedBytes, detach_above};

/// Chunks of at least this many values are read with the GIL released.
pub(crate) const DETACH_MIN_VALUES: usize = 1024;

/// One value of an Arrow array.
#[derive(Clone, Copy)]
pub(crate) enum ArrowValue<'a> {
    Null,
    /// A `string`/`large_string` value, checked to be UTF-8.
    Text(&'a str),
    /// A `binary`/`large_binary` value.
    Bytes(&'a [u8]),
}

/// Which Arrow types a caller takes, and how a type error names them.
#[derive(Clone, Copy)]
pub(crate) struct ArrowTypes {
    /// What the values are, for messages: `"keys"`, `"topics"`.
    pub(crate) what: &'static str,
    /// Whether `binary` and `large_binary` are accepted besides text.
    pub(crate) binary: bool,
}

/// The Arrow layouts read in place: 32- or 64-bit offsets, text or bytes.
#[derive(Clone, Copy)]
struct ArrowLayout {
    offset_width: usize,
    text: bool,
}

/// Calls `visit` with every value of `values` in order, if it is a pyarrow
/// `Array` or `ChunkedArray`, and returns whether it was one. pyarrow is
/// never imported here: an object can only be a pyarrow array if the caller
/// imported pyarrow first.
pub(crate) fn for_each_arrow_value<F>(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    types: ArrowTypes,
    visit: &mut F,
) -> PyResult<bool>
where
    F: FnMut(ArrowValue<'_>) -> PyResult<()> + Send,
{
    let modules = py
        .import(intern!(py, "sys"))?
        .getattr(intern!(py, "modules"))?;
    let Some(pyarrow) = modules.get_item(intern!(py, "pyarrow")).ok() else {
        return Ok(false);
    };
    let pyarrow = pyarrow.cast_into::<PyModule>()?;
    if values.is_instance(&pyarrow.getattr(intern!(py, "ChunkedArray"))?)? {
        let mut base = 0;
        for chunk in values.getattr(intern!(py, "chunks"))?.try_iter()? {
            let chunk = chunk?;
            arrow_array(py, &pyarrow, &chunk, types, base, visit)?;
            base += chunk.len()?;
        }
        return Ok(true);
    }
    if values.is_instance(&pyarrow.getattr(intern!(py, "Array"))?)? {
        arrow_array(py, &pyarrow, values, types, 0, visit)?;
        return Ok(true);
    }
    Ok(false)
}

/// One pyarrow array, read through its buffers without a copy; `base` is
/// the index of its first value in the whole input, for messages.
fn arrow_array<F>(
    py: Python<'_>,
    pyarrow: &Bound<'_, PyModule>,
    array: &Bound<'_, PyAny>,
    types: ArrowTypes,
    base: usize,
    visit: &mut F,
) -> PyResult<()>
where
    F: FnMut(ArrowValue<'_>) -> PyResult<()> + Send,
{
    let data_type = array.getattr(intern!(py, "type"))?;
    let type_checks = pyarrow.getattr(intern!(py, "types"))?;
    let is = |predicate: &Bound<'_, PyString>| -> PyResult<bool> {
        type_checks
            .call_method1(predicate, (&data_type,))?
            .extract()
    };
    let layout = if is(intern!(py, "is_string"))? {
        ArrowLayout {
            offset_width: 4,
            text: true,
        }
    } else if is(intern!(py, "is_large_string"))? {
        ArrowLayout {
            offset_width: 8,
            text: true,
        }
    } else if types.binary && is(intern!(py, "is_binary"))? {
        ArrowLayout {
            offset_width: 4,
            text: false,
        }
    } else if types.binary && is(intern!(py, "is_large_binary"))? {
        ArrowLayout {
            offset_width: 8,
            text: false,
        }
    } else {
        let accepted = if types.binary {
            "string, large_string, binary or large_binary"
        } else {
            "string or large_string"
        };
        return Err(PyTypeError::new_err(format!(
            "{} must be a pyarrow array of {accepted}, not {}; cast it first",
            types.what,
            data_type.str()?
        )));
    };
    let len = array.len()?;
    if len == 0 {
        return Ok(());
    }
    let offset: usize = array.getattr(intern!(py, "offset"))?.extract()?;
    let buffers = array.call_method0(intern!(py, "buffers"))?;
    let export = |index: usize| -> PyResult<Option<ExportedBytes>> {
        let buffer = buffers.get_item(index)?;
        if buffer.is_none() {
            Ok(None)
        } else {
            ExportedBytes::get(&buffer).map(Some)
        }
    };
    let (validity, offsets, data) = (export(0)?, export(1)?, export(2)?);
    let columns = ArrowColumns {
        validity: validity.as_ref().map(ExportedBytes::as_bytes),
        offsets: offsets.as_ref().map_or(&[], ExportedBytes::as_bytes),
        data: data.as_ref().map_or(&[], ExportedBytes::as_bytes),
        offset,
        len,
        layout,
    };
    columns.check()?;
    // pyarrow buffers are immutable and the exports keep them alive.
    detach_above(py, len, DETACH_MIN_VALUES, || {
        columns.visit(types.what, base, visit)
    })
}

/// The buffers of one Arrow array, as bytes.
struct ArrowColumns<'a> {
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    data: &'a [u8],
    /// The array's slice offset, in items, into every buffer.
    offset: usize,
    len: usize,
    layout: ArrowLayout,
}

impl ArrowColumns<'_> {
    /// Checks that the buffers are long enough for `len` items.
    fn check(&self) -> PyResult<()> {
        let too_short = || PyValueError::new_err("malformed Arrow array: a buffer is too short");
        let end = self.offset.checked_add(self.len).ok_or_else(too_short)?;
        let offsets_needed = end
            .checked_add(1)
            .and_then(|n| n.checked_mul(self.layout.offset_width))
            .ok_or_else(too_short)?;
        if self.offsets.len() < offsets_needed {
            return Err(too_short());
        }
        if let Some(validity) = self.validity
            && validity.len() < end.div_ceil(8)
        {
            return Err(too_short());
        }
        Ok(())
    }

    fn is_valid(&self, item: usize) -> bool {
        self.validity
            .is_none_or(|bits| bits[item / 8] & (1 << (item % 8)) != 0)
    }

    /// Visits every item; `check` has passed.
    fn visit<F>(&self, what: &str, base: usize, visit: &mut F) -> PyResult<()>
    where
        F: FnMut(ArrowValue<'_>) -> PyResult<()>,
    {
        if self.layout.offset_width == 4 {
            self.visit_with::<4, F>(what, base, visit)
        } else {
            self.visit_with::<8, F>(what, base, visit)
        }
    }

    fn visit_with<const WIDTH: usize, F>(
        &self,
        what: &str,
        base: usize,
        visit: &mut F,
    ) -> PyResult<()>
    where
        F: FnMut(ArrowValue<'_>) -> PyResult<()>,
    {
        let window = &self.offsets[self.offset * WIDTH..(self.offset + self.len + 1) * WIDTH];
        let offsets = window.chunks_exact(WIDTH).map(read_offset::<WIDTH>);
        // Text is checked to be UTF-8 once for the whole span of values,
        // which is much faster than one check per value; each value is then
        // a `str` as long as it starts and ends on character boundaries.
        // Bytes under null slots are unspecified in Arrow and may fail the
        // whole-span check; the values are then checked one at a time.
        let span = if self.layout.text {
            offsets
                .clone()
                .next()
                .flatten()
                .zip(offsets.clone().next_back().flatten())
                .and_then(|(first, last)| Some((first, self.data.get(first..last)?)))
                .and_then(|(first, bytes)| Some((first, std::str::from_utf8(bytes).ok()?)))
        } else {
            None
        };
        let bounds = offsets.clone().zip(offsets.skip(1));
        for (i, (start, end)) in bounds.enumerate() {
            if !self.is_valid(self.offset + i) {
                visit(ArrowValue::Null)?;
                continue;
            }
            let out_of_bounds = || {
                PyValueError::new_err(format!(
                    "malformed Arrow array: the offsets of item {} are out of bounds",
                    base + i
                ))
            };
            let (start, end) = start.zip(end).ok_or_else(out_of_bounds)?;
            let value = self.data.get(start..end).ok_or_else(out_of_bounds)?;
            if !self.layout.text {
                visit(ArrowValue::Bytes(value))?;
                continue;
            }
            let in_span = span.and_then(|(first, text)| {
                text.get(start.checked_sub(first)?..end.checked_sub(first)?)
            });
            let text = match in_span {
                Some(text) => text,
                None => std::str::from_utf8(value).map_err(|_| {
                    PyValueError::new_err(format!("{what}[{}] is not valid UTF-8", base + i))
                })?,
            };
            visit(ArrowValue::Text(text))?;
        }
        Ok(())
    }
}

/// One Arrow offset (32- or 64-bit, in the machine's byte order), or `None`
/// if it is negative.
fn read_offset<const WIDTH: usize>(raw: &[u8]) -> Option<usize> {
    if WIDTH == 4 {
        usize::try_from(i32::from_ne_bytes(raw.try_into().ok()?)).ok()
    } else {
        usize::try_from(i64::from_ne_bytes(raw.try_into().ok()?)).ok()
    }
}
