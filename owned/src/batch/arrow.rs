//! Arrow string, large_string, binary and large_binary arrays read in
//! place from their buffers: the validity bitmap, the offsets and the data.
//! A binding exports the buffers (they are plain bytes, whichever library
//! made them) and says what it makes of each key; the checks, the UTF-8
//! validation and the fast loop over a chunk are written here once.

use super::keys::{KeyMap, KeyRef, ascending_offsets, read_offset, utf8};

/// The values are checked and then mapped this many at a time, so that
/// the bytes checked are still in the cache when they are hashed.
const MAP_BLOCK: usize = 1024;

/// The Arrow layouts read in place: 32- or 64-bit offsets, text or bytes.
#[derive(Clone, Copy, Debug)]
pub struct ArrowLayout {
    /// 4 for string and binary, 8 for large_string and large_binary.
    pub offset_width: usize,
    /// Whether the values are text (string, large_string).
    pub text: bool,
}

/// Why an Arrow array could not be read, or its mapping stopped.
#[derive(Debug)]
pub enum ArrowError<E> {
    /// A buffer is too short for the array's length.
    TooShort,
    /// The offsets of the item with this index are out of bounds.
    OutOfBounds(usize),
    /// The text value with this index is not UTF-8.
    NotUtf8(usize),
    /// The caller's error for a key.
    Key(E),
}

/// The buffers of one Arrow array, as bytes.
#[derive(Clone, Copy, Debug)]
pub struct ArrowColumns<'a> {
    /// The validity bitmap, if the array has nulls.
    pub validity: Option<&'a [u8]>,
    /// The offsets buffer (empty for an empty array).
    pub offsets: &'a [u8],
    /// The data buffer.
    pub data: &'a [u8],
    /// The array's slice offset, in items, into every buffer.
    pub offset: usize,
    /// The number of items.
    pub len: usize,
    /// The offsets' width and whether the values are text.
    pub layout: ArrowLayout,
}

impl ArrowColumns<'_> {
    /// Checks that the buffers are long enough for `len` items.
    ///
    /// # Errors
    /// [`ArrowError::TooShort`].
    pub fn check<E>(&self) -> Result<(), ArrowError<E>> {
        let end = self
            .offset
            .checked_add(self.len)
            .ok_or(ArrowError::TooShort)?;
        let offsets_needed = end
            .checked_add(1)
            .and_then(|n| n.checked_mul(self.layout.offset_width))
            .ok_or(ArrowError::TooShort)?;
        if self.offsets.len() < offsets_needed {
            return Err(ArrowError::TooShort);
        }
        if let Some(validity) = self.validity
            && validity.len() < end.div_ceil(8)
        {
            return Err(ArrowError::TooShort);
        }
        Ok(())
    }

    fn is_valid(&self, item: usize) -> bool {
        self.validity
            .is_none_or(|bits| bits[item / 8] & (1 << (item % 8)) != 0)
    }

    /// The `len + 1` offsets of an array without nulls, the layout of
    /// [`pulsar_routing::batch::KeyOffsets`] (which checks them); `None`
    /// when one is negative. [`Self::check`] has passed.
    #[must_use]
    pub fn offsets_without_nulls(&self) -> Option<Vec<usize>> {
        let width = self.layout.offset_width;
        let window = self
            .offsets
            .get(self.offset * width..(self.offset + self.len + 1) * width)
            .unwrap_or_default();
        let read = if width == 4 {
            read_offset::<4>
        } else {
            read_offset::<8>
        };
        window.chunks_exact(width).map(read).collect()
    }

    /// Calls `visit` with every item in order ([`KeyRef::None`] for a
    /// null); `base` is the index of the first item in the input. Stops at
    /// the first error. [`Self::check`] has passed.
    ///
    /// # Errors
    /// The first malformed or non-UTF-8 value, or error of `visit`.
    pub fn visit<E, F>(&self, base: usize, visit: &mut F) -> Result<(), ArrowError<E>>
    where
        F: FnMut(KeyRef<'_>) -> Result<(), E>,
    {
        if self.len == 0 {
            return Ok(());
        }
        if self.layout.offset_width == 4 {
            self.visit_with::<4, E, F>(base, visit)
        } else {
            self.visit_with::<8, E, F>(base, visit)
        }
    }

    fn visit_with<const WIDTH: usize, E, F>(
        &self,
        base: usize,
        visit: &mut F,
    ) -> Result<(), ArrowError<E>>
    where
        F: FnMut(KeyRef<'_>) -> Result<(), E>,
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
            let key = if !self.is_valid(self.offset + i) {
                KeyRef::None
            } else {
                let out_of_bounds = ArrowError::OutOfBounds(base + i);
                let (start, end) = start.zip(end).ok_or(out_of_bounds)?;
                let value = self
                    .data
                    .get(start..end)
                    .ok_or(ArrowError::OutOfBounds(base + i))?;
                if self.layout.text {
                    let in_span = span.and_then(|(first, text)| {
                        text.get(start.checked_sub(first)?..end.checked_sub(first)?)
                    });
                    match in_span {
                        Some(text) => KeyRef::Text(text),
                        None => std::str::from_utf8(value)
                            .map(KeyRef::Text)
                            .map_err(|_| ArrowError::NotUtf8(base + i))?,
                    }
                } else {
                    KeyRef::Bytes(value)
                }
            };
            visit(key).map_err(ArrowError::Key)?;
        }
        Ok(())
    }

    /// Writes `map`'s output for every item into `out`, which has `len`
    /// slots; `base` is the index of the first item in the input. With
    /// [`KeyMap::TEXT_BLOCKS`], a block of text values goes to
    /// [`KeyMap::text_block`] at once. [`Self::check`] has passed.
    ///
    /// The values are taken 1,024 at a time. A block's offsets are
    /// checked, in one pass, to ascend and stay inside the data buffer, and
    /// its text is checked to be UTF-8 in one go; the loop over its values
    /// then only slices, and hashes bytes that the check has just brought
    /// into the cache. Anything that fails those checks (malformed offsets,
    /// invalid bytes under a null or inside a value) sends the whole array
    /// through [`Self::visit`], which names the offending item.
    ///
    /// # Errors
    /// The first malformed or non-UTF-8 value, or error of `map`.
    pub fn map_into<M: KeyMap>(
        &self,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> Result<(), ArrowError<M::Error>> {
        if self.len == 0 {
            return Ok(());
        }
        match (self.layout.offset_width == 4, self.validity.is_some()) {
            (true, false) => self.map_with::<4, false, M>(base, map, out),
            (true, true) => self.map_with::<4, true, M>(base, map, out),
            (false, false) => self.map_with::<8, false, M>(base, map, out),
            (false, true) => self.map_with::<8, true, M>(base, map, out),
        }
    }

    /// [`Self::map_into`] for one offset width, with or without nulls.
    fn map_with<const WIDTH: usize, const NULLS: bool, M: KeyMap>(
        &self,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> Result<(), ArrowError<M::Error>> {
        let window = &self.offsets[self.offset * WIDTH..(self.offset + self.len + 1) * WIDTH];
        for (block, slots) in out.chunks_mut(MAP_BLOCK).enumerate() {
            let first_item = block * MAP_BLOCK;
            let offsets = &window[first_item * WIDTH..(first_item + slots.len() + 1) * WIDTH];
            let first_index = base + first_item;
            let done =
                self.map_block::<WIDTH, NULLS, M>(offsets, first_item, first_index, map, slots)?;
            if !done {
                return self.map_slowly(base, map, out);
            }
        }
        Ok(())
    }

    /// One block of [`Self::map_with`]: `offsets` are the `slots.len() + 1`
    /// offsets of the items from `first_item` (counted from the start of
    /// the array's slice), the first of which is the input's key number
    /// `first_index`. `Ok(false)` when the block needs the slow path.
    fn map_block<const WIDTH: usize, const NULLS: bool, M: KeyMap>(
        &self,
        offsets: &[u8],
        first_item: usize,
        first_index: usize,
        map: &M,
        slots: &mut [M::Out],
    ) -> Result<bool, ArrowError<M::Error>> {
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
                    return Err(ArrowError::NotUtf8(first_index + i));
                }
                if map.text_block(self.data, absolute, slots) {
                    for (i, slot) in slots.iter_mut().enumerate() {
                        if !valid(i) {
                            *slot = map
                                .key(first_index + i, KeyRef::None)
                                .map_err(ArrowError::Key)?;
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
                        Some(text) => {
                            *slot = map
                                .key(first_index + i, KeyRef::Text(text))
                                .map_err(ArrowError::Key)?
                        }
                        None => return Err(ArrowError::NotUtf8(first_index + i)),
                    }
                } else {
                    *slot = map
                        .key(first_index + i, KeyRef::None)
                        .map_err(ArrowError::Key)?;
                }
                start = end;
            }
        } else {
            for (i, (slot, end)) in slots.iter_mut().zip(ends).enumerate() {
                if valid(i) {
                    match values.get(start..end) {
                        Some(bytes) => {
                            *slot = map
                                .key(first_index + i, KeyRef::Bytes(bytes))
                                .map_err(ArrowError::Key)?
                        }
                        None => return Ok(false),
                    }
                } else {
                    *slot = map
                        .key(first_index + i, KeyRef::None)
                        .map_err(ArrowError::Key)?;
                }
                start = end;
            }
        }
        Ok(true)
    }

    /// [`Self::map_into`] one value at a time, for arrays the fast loop
    /// does not take.
    fn map_slowly<M: KeyMap>(
        &self,
        base: usize,
        map: &M,
        out: &mut [M::Out],
    ) -> Result<(), ArrowError<M::Error>> {
        let mut slots = out.iter_mut().enumerate();
        self.visit(base, &mut |value| {
            if let Some((i, slot)) = slots.next() {
                *slot = map.key(base + i, value)?;
            }
            Ok(())
        })
    }
}
