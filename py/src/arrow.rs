//! pyarrow arrays read in place: the validity bitmap, offsets and data
//! buffers of string, large_string, binary and large_binary arrays, mapped
//! by a [`KeyBatch`] with the GIL released for long chunks.

use pulsar_routing_owned::batch::arrow::{ArrowColumns, ArrowError, ArrowLayout};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyModule, PyString};

use crate::batch::{KeyBatch, KeyRef, Owned};
use crate::buffers::{ExportedBytes, detach_above};

/// Chunks of at least this many values are read with the GIL released.
pub(crate) const DETACH_MIN_VALUES: usize = 1024;

/// Which Arrow types a batch takes, and how a type error names them.
#[derive(Clone, Copy)]
struct ArrowTypes {
    /// What the values are, for messages: `"keys"`, `"topics"`.
    what: &'static str,
    /// Whether `binary` and `large_binary` are accepted besides text.
    binary: bool,
}

/// `map` applied to every value of `values`, in order, if it is a pyarrow
/// `Array` or `ChunkedArray` (else `None`). pyarrow is never imported here:
/// an object can only be a pyarrow array if the caller imported pyarrow
/// first.
///
/// This is the hot path of batch routing: the output is allocated once, the
/// layout and the presence of nulls are decided once per chunk rather than
/// once per value, and `M` is a concrete type, so the loop over a chunk has
/// no dynamic dispatch and the hash inlines into it.
pub(crate) fn map_arrow_values<M: KeyBatch>(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    map: &M,
) -> PyResult<Option<Vec<M::Out>>> {
    let Some((pyarrow, chunks)) = arrow_chunks(py, values)? else {
        return Ok(None);
    };
    let types = ArrowTypes {
        what: M::WHAT,
        binary: M::BYTES,
    };
    let mut exports = Vec::with_capacity(chunks.len());
    let mut total = 0usize;
    for chunk in &chunks {
        let export = ArrowExports::get(py, &pyarrow, chunk, types)?;
        total = total
            .checked_add(export.len)
            .ok_or_else(|| PyValueError::new_err("malformed Arrow array: too many values"))?;
        exports.push(export);
    }
    // Zero for the numbers this is used with, which the allocator hands out
    // as untouched pages: the output is written once, not twice.
    let mut out = vec![M::Out::default(); total];
    let mut rest = out.as_mut_slice();
    let mut base = 0;
    let map = Owned(map);
    for export in &exports {
        let columns = export.columns()?;
        // `out` has the sum of the exports' lengths, so this always splits.
        let (slots, tail) = std::mem::take(&mut rest)
            .split_at_mut_checked(columns.len)
            .ok_or_else(|| PyValueError::new_err("malformed Arrow array: its length changed"))?;
        rest = tail;
        // pyarrow buffers are immutable and the exports keep them alive.
        detach_above(py, columns.len, DETACH_MIN_VALUES, || {
            columns
                .map_into(base, &map, slots)
                .map_err(|err| arrow_error(types.what, err))
        })?;
        base += columns.len;
    }
    Ok(Some(out))
}

/// A chunk of Arrow values without nulls: its data buffer and its offsets.
pub(crate) type OffsetChunk<'a> = (&'a [u8], Vec<usize>);

/// The values of a pyarrow array of string, large_string, binary or
/// large_binary, its buffers exported so that they can be read, in order,
/// with the GIL released.
pub(crate) struct ArrowValues {
    exports: Vec<ArrowExports>,
    what: &'static str,
    len: usize,
}

impl ArrowValues {
    /// The values of `values`, or `None` when it is not a pyarrow `Array`
    /// or `ChunkedArray`; `what` names them in errors (`"keys"`).
    pub(crate) fn export(
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        what: &'static str,
    ) -> PyResult<Option<Self>> {
        let Some((pyarrow, chunks)) = arrow_chunks(py, values)? else {
            return Ok(None);
        };
        let types = ArrowTypes { what, binary: true };
        let exports = chunks
            .iter()
            .map(|chunk| ArrowExports::get(py, &pyarrow, chunk, types))
            .collect::<PyResult<Vec<_>>>()?;
        let len = exports.iter().map(|export| export.len).sum();
        Ok(Some(Self { exports, what, len }))
    }

    /// The number of values, nulls included.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether the values are text (string or large_string).
    pub(crate) fn is_text(&self) -> bool {
        self.exports.iter().all(|export| export.layout.text)
    }

    /// Each chunk's data buffer and its `len + 1` offsets into it, the
    /// layout of [`pulsar_routing::batch::KeyOffsets`]; `None` when a chunk
    /// has nulls. The offsets are not checked here: `KeyOffsets` checks
    /// them.
    pub(crate) fn without_nulls(&self) -> PyResult<Option<Vec<OffsetChunk<'_>>>> {
        let mut chunks = Vec::with_capacity(self.exports.len());
        for export in &self.exports {
            let columns = export.columns()?;
            if columns.validity.is_some() {
                return Ok(None);
            }
            // An empty chunk exports no buffers, and holds no key.
            if columns.len == 0 {
                continue;
            }
            let offsets = columns
                .offsets_without_nulls()
                .ok_or_else(|| PyValueError::new_err("malformed Arrow array: a negative offset"))?;
            chunks.push((columns.data, offsets));
        }
        Ok(Some(chunks))
    }

    /// Calls `visit` with every value in order ([`KeyRef::None`] for a
    /// null); stops at the first error, its own or a malformed value's.
    pub(crate) fn visit<F>(&self, mut visit: F) -> PyResult<()>
    where
        F: FnMut(KeyRef<'_>) -> PyResult<()>,
    {
        let mut base = 0;
        for export in &self.exports {
            let columns = export.columns()?;
            columns
                .visit(base, &mut visit)
                .map_err(|err| arrow_error(self.what, err))?;
            base += columns.len;
        }
        Ok(())
    }
}

/// The pyarrow module and the chunks of an array (one for an `Array`).
type ArrowChunks<'py> = (Bound<'py, PyModule>, Vec<Bound<'py, PyAny>>);

/// The chunks of `values`, or `None` when `values` is not a pyarrow array.
fn arrow_chunks<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
) -> PyResult<Option<ArrowChunks<'py>>> {
    let modules = py
        .import(intern!(py, "sys"))?
        .getattr(intern!(py, "modules"))?;
    let Some(pyarrow) = modules.get_item(intern!(py, "pyarrow")).ok() else {
        return Ok(None);
    };
    let pyarrow = pyarrow.cast_into::<PyModule>()?;
    if values.is_instance(&pyarrow.getattr(intern!(py, "ChunkedArray"))?)? {
        let chunks = values
            .getattr(intern!(py, "chunks"))?
            .try_iter()?
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Some((pyarrow, chunks)));
    }
    if values.is_instance(&pyarrow.getattr(intern!(py, "Array"))?)? {
        return Ok(Some((pyarrow, vec![values.clone()])));
    }
    Ok(None)
}

/// The exported buffers of one pyarrow array, which keep it alive and
/// unchanged while they are read.
struct ArrowExports {
    validity: Option<ExportedBytes>,
    offsets: Option<ExportedBytes>,
    data: Option<ExportedBytes>,
    /// The array's slice offset, in items.
    offset: usize,
    len: usize,
    layout: ArrowLayout,
}

impl ArrowExports {
    /// Exports the buffers of `array`, after checking its type.
    fn get(
        py: Python<'_>,
        pyarrow: &Bound<'_, PyModule>,
        array: &Bound<'_, PyAny>,
        types: ArrowTypes,
    ) -> PyResult<Self> {
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
        let mut exports = Self {
            validity: None,
            offsets: None,
            data: None,
            offset: 0,
            len,
            layout,
        };
        if len == 0 {
            return Ok(exports);
        }
        exports.offset = array.getattr(intern!(py, "offset"))?.extract()?;
        let buffers = array.call_method0(intern!(py, "buffers"))?;
        let export = |index: usize| -> PyResult<Option<ExportedBytes>> {
            let buffer = buffers.get_item(index)?;
            if buffer.is_none() {
                Ok(None)
            } else {
                ExportedBytes::get(&buffer).map(Some)
            }
        };
        // An array without nulls may still carry a validity bitmap (all
        // ones); reading it for every value would be wasted work.
        let null_count: usize = array.getattr(intern!(py, "null_count"))?.extract()?;
        if null_count > 0 {
            exports.validity = export(0)?;
        }
        exports.offsets = export(1)?;
        exports.data = export(2)?;
        Ok(exports)
    }

    /// The buffers as bytes, checked to be long enough for `len` items.
    fn columns(&self) -> PyResult<ArrowColumns<'_>> {
        let columns = ArrowColumns {
            validity: self.validity.as_ref().map(ExportedBytes::as_bytes),
            offsets: self.offsets.as_ref().map_or(&[], ExportedBytes::as_bytes),
            data: self.data.as_ref().map_or(&[], ExportedBytes::as_bytes),
            offset: self.offset,
            len: self.len,
            layout: self.layout,
        };
        if columns.len > 0 {
            columns.check().map_err(|err| arrow_error("", err))?;
        }
        Ok(columns)
    }
}

/// The exception for an Arrow array that could not be read; `what` names
/// its values.
fn arrow_error(what: &str, err: ArrowError<PyErr>) -> PyErr {
    match err {
        ArrowError::TooShort => {
            PyValueError::new_err("malformed Arrow array: a buffer is too short")
        }
        ArrowError::OutOfBounds(index) => PyValueError::new_err(format!(
            "malformed Arrow array: the offsets of item {index} are out of bounds"
        )),
        ArrowError::NotUtf8(index) => {
            PyValueError::new_err(format!("{what}[{index}] is not valid UTF-8"))
        }
        ArrowError::Key(err) => err,
    }
}
