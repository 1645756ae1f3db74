//! Keys read in place from the columnar layouts a batch arrives in: the
//! fixed-width items of a numpy-style array (`S`: NUL-padded bytes, `U`:
//! NUL-padded UCS-4 code points) and the offsets of an Arrow string or
//! binary column. Nothing here knows a binding's objects; a binding hands
//! over the buffers and says what it makes of each key.

/// One key of a batch, borrowed from its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRef<'a> {
    /// No key (a `None`, an Arrow null).
    None,
    /// Text that is valid Unicode.
    Text(&'a str),
    /// Text as UTF-16 units, which may hold lone surrogates, as a Java
    /// `String` may.
    Utf16(&'a [u16]),
    /// Raw bytes.
    Bytes(&'a [u8]),
}

/// What a batch makes of each key it reads, and the errors it raises: the
/// readers here call [`Self::key`] once per key in their loops, so an
/// implementation marks it `#[inline(always)]` to be compiled into them.
pub trait KeyMap {
    /// One output per key.
    type Out;
    /// The error of a key, or of an item that cannot be read.
    type Error;
    /// Whether [`Self::text_block`] maps blocks of text keys at once.
    const TEXT_BLOCKS: bool = false;

    /// The output for the key with this index in the input.
    ///
    /// # Errors
    /// The batch's own, for a key it refuses.
    fn key(&self, index: usize, key: KeyRef<'_>) -> Result<Self::Out, Self::Error>;

    /// The error for item `index` holding `cp`, which is not a Unicode
    /// scalar value (a surrogate, or above U+10FFFF) where one is needed.
    fn not_scalar(&self, index: usize, cp: u32) -> Self::Error;

    /// The outputs of a block of text keys laid out as Arrow lays them out
    /// (key `i` is `data[offsets[i]..offsets[i + 1]]`), all at once;
    /// `false` to have them mapped key by key. Only called with
    /// [`Self::TEXT_BLOCKS`]; the output of a null is overwritten.
    fn text_block(&self, _data: &[u8], _offsets: &[usize], _out: &mut [Self::Out]) -> bool {
        false
    }
}

/// Fixed-width items of at most this many bytes are decoded on the stack.
const STACK_TEXT: usize = 1024;

/// Fixed-width bytes items (numpy `S`): NUL-padded. numpy drops trailing
/// NULs when it hands an item out (`arr[i]`, `tolist()`), so they are
/// dropped here too.
///
/// # Errors
/// The first error of `map`.
pub fn fixed_width_bytes<M: KeyMap>(
    data: &[u8],
    item_size: usize,
    out: &mut [M::Out],
    map: &M,
) -> Result<(), M::Error> {
    for (index, (item, slot)) in data.chunks_exact(item_size).zip(out).enumerate() {
        let end = item
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |last| last + 1);
        *slot = map.key(index, KeyRef::Bytes(&item[..end]))?;
    }
    Ok(())
}

/// The code points of fixed-width UCS-4 items (numpy `U`, byte-swapped
/// when `swapped`), without the trailing NULs numpy drops when it hands an
/// item out.
fn code_points(
    data: &[u8],
    item_size: usize,
    swapped: bool,
) -> impl Iterator<Item = impl Iterator<Item = u32> + Clone> {
    let code_point = move |unit: &[u8]| {
        let cp = u32::from_ne_bytes([unit[0], unit[1], unit[2], unit[3]]);
        if swapped { cp.swap_bytes() } else { cp }
    };
    data.chunks_exact(item_size).map(move |item| {
        // A NUL code point is four zero bytes in either byte order.
        let len = item
            .chunks_exact(4)
            .rposition(|unit| unit != [0; 4])
            .map_or(0, |last| last + 1);
        item[..len * 4].chunks_exact(4).map(code_point)
    })
}

/// Fixed-width UCS-4 items as UTF-16 units (cheaper for a hash of UTF-16,
/// like `String.hashCode()`): every code point up to U+10FFFF (lone
/// surrogates too) has them, so there is no UTF-8 detour. Each is decoded
/// into one reused buffer (on the stack unless an item can exceed
/// 1,024 bytes), so nothing is allocated per key.
///
/// # Errors
/// The first error of `map`, or [`KeyMap::not_scalar`] for a code point
/// above U+10FFFF.
pub fn fixed_width_utf16<M: KeyMap>(
    data: &[u8],
    item_size: usize,
    swapped: bool,
    out: &mut [M::Out],
    map: &M,
) -> Result<(), M::Error> {
    // Each code point takes 4 bytes in the array and 1 or 2 units.
    let mut stack = [0u16; STACK_TEXT / 2];
    let mut heap = Vec::new();
    let buffer = scratch(&mut stack, &mut heap, item_size / 2);
    let items = code_points(data, item_size, swapped);
    for (index, (code_points, slot)) in items.zip(out).enumerate() {
        let mut used = 0;
        for cp in code_points {
            if let Ok(unit) = u16::try_from(cp) {
                buffer[used] = unit;
                used += 1;
            } else {
                let c = char::from_u32(cp).ok_or_else(|| map.not_scalar(index, cp))?;
                used += c.encode_utf16(&mut buffer[used..]).len();
            }
        }
        *slot = map.key(index, KeyRef::Utf16(&buffer[..used]))?;
    }
    Ok(())
}

/// Fixed-width UCS-4 items as UTF-8 text, decoded like
/// [`fixed_width_utf16`]. An item with a code point that is not a Unicode
/// scalar value (a surrogate, or above U+10FFFF) goes as UTF-16 units when
/// `surrogates` allows lone surrogates.
///
/// # Errors
/// The first error of `map`, or [`KeyMap::not_scalar`] for a code point
/// above U+10FFFF, or for a surrogate without `surrogates`.
pub fn fixed_width_utf8<M: KeyMap>(
    data: &[u8],
    item_size: usize,
    swapped: bool,
    surrogates: bool,
    out: &mut [M::Out],
    map: &M,
) -> Result<(), M::Error> {
    // Each code point takes at most 4 bytes.
    let mut stack = [0u8; STACK_TEXT];
    let mut heap = Vec::new();
    let buffer = scratch(&mut stack, &mut heap, item_size);
    let items = code_points(data, item_size, swapped);
    for (index, (code_points, slot)) in items.zip(out).enumerate() {
        let mut used = 0;
        let mut scalar_values = true;
        for cp in code_points.clone() {
            if cp < 0x80 {
                buffer[used] = cp as u8;
                used += 1;
            } else if let Some(c) = char::from_u32(cp) {
                used += c.encode_utf8(&mut buffer[used..]).len();
            } else if surrogates {
                scalar_values = false;
                break;
            } else {
                return Err(map.not_scalar(index, cp));
            }
        }
        *slot = if scalar_values {
            // SAFETY: `buffer[..used]` holds exactly the bytes written above
            // for this item: ASCII bytes and `encode_utf8` output, one whole
            // character after another, so it is valid UTF-8.
            let text = unsafe { std::str::from_utf8_unchecked(&buffer[..used]) };
            map.key(index, KeyRef::Text(text))?
        } else {
            let units = utf16_of(code_points).map_err(|cp| map.not_scalar(index, cp))?;
            map.key(index, KeyRef::Utf16(&units))?
        };
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

/// The UTF-16 units of code points that include a lone surrogate, as Java
/// would hold them, or the first code point above U+10FFFF.
fn utf16_of(code_points: impl Iterator<Item = u32>) -> Result<Vec<u16>, u32> {
    let mut units = Vec::new();
    for cp in code_points {
        if let Ok(unit) = u16::try_from(cp) {
            units.push(unit);
        } else if let Some(c) = char::from_u32(cp) {
            units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        } else {
            return Err(cp);
        }
    }
    Ok(units)
}

/// One Arrow offset (32- or 64-bit, in the machine's byte order), or `None`
/// if it is negative or `raw` is not `WIDTH` bytes.
pub fn read_offset<const WIDTH: usize>(raw: &[u8]) -> Option<usize> {
    if WIDTH == 4 {
        usize::try_from(i32::from_ne_bytes(raw.try_into().ok()?)).ok()
    } else {
        usize::try_from(i64::from_ne_bytes(raw.try_into().ok()?)).ok()
    }
}

/// The first and last of `window`'s Arrow offsets if every one of them
/// reads back as a number no smaller than the one before and the last is
/// at most `data_len`; `None` otherwise.
pub fn ascending_offsets<const WIDTH: usize>(
    window: &[u8],
    data_len: usize,
) -> Option<(usize, usize)> {
    let mut offsets = window.chunks_exact(WIDTH).map(read_offset::<WIDTH>);
    let first = offsets.next()??;
    let mut last = first;
    for offset in offsets {
        let offset = offset?;
        if offset < last {
            return None;
        }
        last = offset;
    }
    (last <= data_len).then_some((first, last))
}

/// `bytes` as text, if they are UTF-8.
pub fn utf8(bytes: &[u8]) -> Option<&str> {
    // Keys are mostly ASCII, which is checked several times faster than
    // UTF-8 in general.
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UCS-4 items of `width` code points, NUL-padded, native order.
    fn ucs4(items: &[&[u32]], width: usize) -> Vec<u8> {
        let mut data = Vec::new();
        for item in items {
            for i in 0..width {
                data.extend_from_slice(&item.get(i).copied().unwrap_or(0).to_ne_bytes());
            }
        }
        data
    }

    /// Describes each key; a code point that cannot be read is its error
    /// (or, with `index_errors`, its item's index).
    struct Describe {
        index_errors: bool,
    }

    impl KeyMap for Describe {
        type Out = String;
        type Error = u32;

        fn key(&self, _index: usize, key: KeyRef<'_>) -> Result<String, u32> {
            Ok(match key {
                KeyRef::Text(text) => format!("text {text}"),
                KeyRef::Utf16(units) => format!("units {units:x?}"),
                KeyRef::Bytes(bytes) => format!("bytes {bytes:x?}"),
                KeyRef::None => "none".to_owned(),
            })
        }

        fn not_scalar(&self, index: usize, cp: u32) -> u32 {
            if self.index_errors { index as u32 } else { cp }
        }
    }

    const DESCRIBE: Describe = Describe {
        index_errors: false,
    };

    #[test]
    fn bytes_items_drop_trailing_nuls_only() {
        let mut out = vec![String::new(); 2];
        fixed_width_bytes(b"a\0b\0\0\0", 3, &mut out, &DESCRIBE).unwrap();
        assert_eq!(out, ["bytes [61, 0, 62]", "bytes []"]);
    }

    #[test]
    fn text_items_decode_as_utf8_or_units() {
        // "é", a lone surrogate, and U+1F600 (two UTF-16 units).
        let data = ucs4(&[&[0xe9], &[0xd800, 0x61], &[0x1f600]], 2);
        let mut out = vec![String::new(); 3];
        fixed_width_utf8(&data, 8, false, true, &mut out, &DESCRIBE).unwrap();
        assert_eq!(out, ["text é", "units [d800, 61]", "text \u{1f600}"]);
        fixed_width_utf16(&data, 8, false, &mut out, &DESCRIBE).unwrap();
        assert_eq!(out[2], "units [d83d, de00]");
        let by_index = Describe { index_errors: true };
        let refused = fixed_width_utf8(&data, 8, false, false, &mut out, &by_index);
        assert_eq!(refused, Err(1));
        let beyond = ucs4(&[&[0x11_0000]], 1);
        let refused = fixed_width_utf16(&beyond, 4, false, &mut out, &DESCRIBE);
        assert_eq!(refused, Err(0x11_0000));
    }

    #[test]
    fn offsets_ascend_inside_the_data() {
        let window: Vec<u8> = [0i32, 2, 2, 5]
            .iter()
            .flat_map(|o| o.to_ne_bytes())
            .collect();
        assert_eq!(ascending_offsets::<4>(&window, 5), Some((0, 5)));
        assert_eq!(ascending_offsets::<4>(&window, 4), None);
        let falling: Vec<u8> = [3i64, 1].iter().flat_map(|o| o.to_ne_bytes()).collect();
        assert_eq!(ascending_offsets::<8>(&falling, 9), None);
        assert_eq!(read_offset::<4>(&(-1i32).to_ne_bytes()), None);
        assert_eq!(utf8(b"\xff"), None);
    }
}
