//! pyarrow arrays read in place: the validity bitmap, offsets and data
//! buffers of string, large_string, binary and large_binary arrays, mapped
//! by a [`KeyBatch`] with the GIL released for long chunks.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyModule, PyString};

use pulsar_routing_owned::batch::keys::{ascending_offsets, read_offset, utf8};

use crate::batch::{KeyBatch, KeyRef};
use crate::buffers::{ExportedBytes, detach_above};

/// Chunks of at least this many values are read with the GIL released.
pub(crate) const DETACH_MIN_VALUES: usize = 1024;

/// [`map_arrow_values`] checks and then maps this many values at a time,
/// so that the bytes it checks are still in the cache when it hashes them.
const MAP_BLOCK: usize = 1024;

/// Which Arrow types a batch takes, and how a type error names them.
#[derive(Clone, Copy)]
struct ArrowTypes {
    /// What the values are, for messages: `"keys"`, `"topics"`.
    what: &'static str,
    /// Whether `binary` and `large_binary` are accepted besides text.
    binary: bool,
}

/// The Arrow layouts read in place: 32- or 64-bit offsets, text or bytes.
#[derive(Clone, Copy)]
struct ArrowLayout {
    offset_width: usize,
    text: bool,
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
    for export in &exports {
        let columns = export.columns()?;
        // `out` has the sum of the exports' lengths, so this always splits.
        let (slots, tail) = std::mem::take(&mut rest)
            .split_at_mut_checked(columns.len)
            .ok_or_else(|| PyValueError::new_err("malformed Arrow array: its length changed"))?;
        rest = tail;
        // pyarrow buffers are immutable and the exports keep them alive.
        detach_above(py, columns.len, DETACH_MIN_VALUES, || {
            columns.map_into(types.what, base, map, slots)
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
            let width = columns.layout.offset_width;
            let window = columns
                .offsets
                .get(columns.offset * width..(columns.offset + columns.len + 1) * width)
                .unwrap_or_default();
            let offsets = window
                .chunks_exact(width)
                .map(|raw| {
                    let offset = if width == 4 {
                        read_offset::<4>(raw)
                    } else {
                        read_offset::<8>(raw)
                    };
                    offset.ok_or_else(|| {
                        PyValueError::new_err("malformed Arrow array: a negative offset")
                    })
                })
                .collect::<PyResult<Vec<_>>>()?;
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
            columns.visit(self.what, base, &mut visit)?;
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
            columns.check()?;
        }
        Ok(columns)
    }
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
        F: FnMut(KeyRef<'_>) -> PyResult<()>,
    {
        if self.len == 0 {
            return Ok(());
        }
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
        F: FnMut(KeyRef<'_>) -> PyResult<()>,
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
                visit(KeyRef::None)?;
                continue;
            }
            let (start, end) = start.zip(end).ok_or_else(|| out_of_bounds(base + i))?;
            let value = self
                .data
                .get(start..end)
                .ok_or_else(|| out_of_bounds(base + i))?;
            if !self.layout.text {
                visit(KeyRef::Bytes(value))?;
                continue;
            }
            let in_span = span.and_then(|(first, text)| {
                text.get(start.checked_sub(first)?..end.checked_sub(first)?)
            });
            let text = match in_span {
                Some(text) => text,
                None => std::str::from_utf8(value).map_err(|_| not_utf8(what, base + i))?,
            };
            visit(KeyRef::Text(text))?;
        }
        Ok(())
    }

    /// Writes `map` of every item into `out`, which has `len` slots;
    /// `check` has passed.
    fn map_into<M: KeyBatch>(
        &self,
        what: &str,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> PyResult<()> {
        if self.len == 0 {
            return Ok(());
        }
        match (self.layout.offset_width == 4, self.validity.is_some()) {
            (true, false) => self.map_with::<4, false, M>(what, base, map, out),
            (true, true) => self.map_with::<4, true, M>(what, base, map, out),
            (false, false) => self.map_with::<8, false, M>(what, base, map, out),
            (false, true) => self.map_with::<8, true, M>(what, base, map, out),
        }
    }

    /// [`Self::map_into`] for one offset width, with or without nulls.
    ///
    /// The values are taken [`MAP_BLOCK`] at a time. A block's offsets are
    /// checked, in one pass, to ascend and stay inside the data buffer, and
    /// its text is checked to be UTF-8 in one go; the loop over its values
    /// then only slices, and hashes bytes that the check has just brought
    /// into the cache. Anything that fails those checks (malformed offsets,
    /// invalid bytes under a null or inside a value) sends the whole array
    /// through [`Self::visit`], which names the offending item.
    fn map_with<const WIDTH: usize, const NULLS: bool, M: KeyBatch>(
        &self,
        what: &str,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> PyResult<()> {
        let window = &self.offsets[self.offset * WIDTH..(self.offset + self.len + 1) * WIDTH];
        for (block, slots) in out.chunks_mut(MAP_BLOCK).enumerate() {
            let first_item = block * MAP_BLOCK;
            let offsets = &window[first_item * WIDTH..(first_item + slots.len() + 1) * WIDTH];
            let first_index = base + first_item;
            let done =
                self.map_block::<WIDTH, NULLS, M>(offsets, first_item, first_index, map, slots);
            match done {
                Ok(true) => {}
                Ok(false) => return self.map_slowly(what, base, map, out),
                Err(BlockError::NotUtf8(index)) => return Err(not_utf8(what, index)),
                Err(BlockError::Key(err)) => return Err(err),
            }
        }
        Ok(())
    }

    /// One block of [`Self::map_with`]: `offsets` are the `slots.len() + 1`
    /// offsets of the items from `first_item` (counted from the start of
    /// the array's slice), the first of which is the input's key number
    /// `first_index`. `Ok(false)` when the block needs the slow path.
    fn map_block<const WIDTH: usize, const NULLS: bool, M: KeyBatch>(
        &self,
        offsets: &[u8],
        first_item: usize,
        first_index: usize,
        map: &M,
        slots: &mut [M::Out],
    ) -> Result<bool, BlockError> {
        let Some((first, last)) = ascending_offsets::<WIDTH>(offsets, self.data.len()) else {
            return Ok(false);
        };
        let values = &self.data[first..last];
        // Each value's end, relative to the block's span: after the check
        // above every offset reads back as a number in `first..=last`.
        let ends = offsets
            .chunks_exact(WIDTH)
            .skip(1)
            .map(|raw| read_offset::<WIDTH>(raw).map_or(0, |end| end - first));
        let valid = |i: usize| !NULLS || self.is_valid(self.offset + first_item + i);
        let mut start = 0;
        if self.layout.text {
            let Some(span) = utf8(values) else {
                return Ok(false);
            };
            if M::TEXT_BLOCKS {
                let mut absolute = [0; MAP_BLOCK + 1];
                let absolute = &mut absolute[..=slots.len()];
                for (to, raw) in absolute.iter_mut().zip(offsets.chunks_exact(WIDTH)) {
                    *to = read_offset::<WIDTH>(raw).unwrap_or(first);
                }
                // As below: a value is text when it starts and ends on a
                // character boundary of the block's text.
                let on_boundary = |offset: usize| span.is_char_boundary(offset - first);
                let split = (0..slots.len()).find(|&i| {
                    valid(i) && !(on_boundary(absolute[i]) && on_boundary(absolute[i + 1]))
                });
                if let Some(i) = split {
                    return Err(BlockError::NotUtf8(first_index + i));
                }
                if map.text_block(self.data, absolute, slots) {
                    for (i, slot) in slots.iter_mut().enumerate() {
                        if !valid(i) {
                            *slot = map.key(first_index + i, KeyRef::None)?;
                        }
                    }
                    return Ok(true);
                }
            }
            for (i, (slot, end)) in slots.iter_mut().zip(ends).enumerate() {
                if valid(i) {
                    // A slice of valid UTF-8 is a `str` exactly when it
                    // starts and ends on character boundaries; when it does
                    // not, the value on its own is not UTF-8.
                    match span.get(start..end) {
                        Some(text) => *slot = map.key(first_index + i, KeyRef::Text(text))?,
                        None => return Err(BlockError::NotUtf8(first_index + i)),
                    }
                } else {
                    *slot = map.key(first_index + i, KeyRef::None)?;
                }
                start = end;
            }
        } else {
            for (i, (slot, end)) in slots.iter_mut().zip(ends).enumerate() {
                if valid(i) {
                    match values.get(start..end) {
                        Some(bytes) => *slot = map.key(first_index + i, KeyRef::Bytes(bytes))?,
                        None => return Ok(false),
                    }
                } else {
                    *slot = map.key(first_index + i, KeyRef::None)?;
                }
                start = end;
            }
        }
        Ok(true)
    }

    /// [`Self::map_into`] one value at a time, for arrays the fast loop
    /// does not take.
    fn map_slowly<M: KeyBatch>(
        &self,
        what: &str,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> PyResult<()> {
        let mut slots = out.iter_mut().enumerate();
        self.visit(what, base, &mut |key| {
            if let Some((i, slot)) = slots.next() {
                *slot = map.key(base + i, key)?;
            }
            Ok(())
        })
    }
}

/// Why [`ArrowColumns::map_block`] stopped.
enum BlockError {
    /// The text value with this index is not UTF-8.
    NotUtf8(usize),
    /// The batch's error for a key.
    Key(PyErr),
}

impl From<PyErr> for BlockError {
    fn from(err: PyErr) -> Self {
        Self::Key(err)
    }
}

fn not_utf8(what: &str, index: usize) -> PyErr {
    PyValueError::new_err(format!("{what}[{index}] is not valid UTF-8"))
}

fn out_of_bounds(index: usize) -> PyErr {
    PyValueError::new_err(format!(
        "malformed Arrow array: the offsets of item {index} are out of bounds"
    ))
}
