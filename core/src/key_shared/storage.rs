//! The plumbing shared by the selectors: carving one caller-provided `u32`
//! buffer into typed regions, and reading it without ever panicking.
//!
//! Every access goes through `get`/`get_mut`: the layouts make the indices
//! valid, but a buffer type whose `as_mut` changed length between calls
//! would otherwise be a panic, and the core promises none on any input.

/// "No value": a free slot, an unowned table entry, the end of a list.
pub(crate) const NONE: u32 = u32::MAX;

/// One region of a layout, in words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) start: usize,
    pub(crate) len: usize,
}

/// Lays regions out one after the other, tracking overflow instead of
/// wrapping: sizes come from caller-chosen capacities.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LayoutBuilder {
    next: Option<usize>,
}

impl LayoutBuilder {
    pub(crate) const fn new() -> Self {
        Self { next: Some(0) }
    }

    /// The next region of `len` words (`None` when a size overflowed).
    pub(crate) fn region(&mut self, len: Option<usize>) -> Region {
        let start = self.next.unwrap_or(0);
        self.next = match (self.next, len) {
            (Some(at), Some(len)) => at.checked_add(len),
            _ => None,
        };
        Region {
            start,
            len: len.unwrap_or(0),
        }
    }

    /// The total, or `None` if any size overflowed.
    pub(crate) const fn total(&self) -> Option<usize> {
        self.next
    }
}

/// `a * b` as a `usize`, `None` on overflow.
pub(crate) fn mul(a: usize, b: usize) -> Option<usize> {
    a.checked_mul(b)
}

/// Splits `words` into the given regions, which must be in increasing,
/// non-overlapping order. A region the buffer cannot hold comes back empty.
pub(crate) fn split_mut<'a, const N: usize>(
    words: &'a mut [u32],
    regions: &[Region; N],
) -> [&'a mut [u32]; N] {
    let mut rest = words;
    let mut at = 0usize;
    core::array::from_fn(|i| {
        let Some(region) = regions.get(i) else {
            return &mut [][..];
        };
        let skip = region.start.saturating_sub(at);
        let words = core::mem::take(&mut rest);
        let Some((_, words)) = words.split_at_mut_checked(skip) else {
            return &mut [][..];
        };
        match words.split_at_mut_checked(region.len) {
            Some((mine, tail)) => {
                rest = tail;
                at = region.start + region.len;
                mine
            }
            None => &mut [][..],
        }
    })
}

/// The shared counterpart of [`split_mut`].
pub(crate) fn split_ref<'a, const N: usize>(
    words: &'a [u32],
    regions: &[Region; N],
) -> [&'a [u32]; N] {
    core::array::from_fn(|i| {
        regions
            .get(i)
            .and_then(|r| words.get(r.start..r.start.saturating_add(r.len)))
            .unwrap_or(&[])
    })
}

/// Word `i`, or [`NONE`] past the end.
#[inline(always)]
pub(crate) fn rd(words: &[u32], i: usize) -> u32 {
    match words.get(i) {
        Some(&w) => w,
        None => NONE,
    }
}

/// Sets word `i`; past the end it does nothing.
#[inline(always)]
pub(crate) fn wr(words: &mut [u32], i: usize, value: u32) {
    if let Some(w) = words.get_mut(i) {
        *w = value;
    }
}

/// The 64-bit consumer id stored at `handle` (two words, low first).
#[inline(always)]
pub(crate) fn id_at(ids: &[u32], handle: u32) -> u64 {
    let i = (handle as usize).saturating_mul(2);
    u64::from(rd(ids, i)) | (u64::from(rd(ids, i.saturating_add(1))) << 32)
}

pub(crate) fn set_id(ids: &mut [u32], handle: u32, id: u64) {
    let i = (handle as usize).saturating_mul(2);
    wr(ids, i, id as u32);
    wr(ids, i.saturating_add(1), (id >> 32) as u32);
}

/// Sets the owner of slots `start..=end` (clamped to the table) in a table
/// of consumer ids stored as (low, high) word pairs, one pair per slot.
pub(crate) fn fill_ids(table: &mut [u32], start: i64, end: i64, id: u64) {
    let (pairs, _) = table.as_chunks_mut::<2>();
    let lo = start.max(0);
    let hi = end.min(pairs.len() as i64 - 1);
    if lo <= hi
        && let Some(part) = pairs.get_mut(lo as usize..=hi as usize)
    {
        part.fill([id as u32, (id >> 32) as u32]);
    }
}

/// The number of slots of the id index for `consumers` handles: a power of
/// two at least twice as large, so linear probing stays short.
pub(crate) fn id_index_len(consumers: usize) -> Option<usize> {
    consumers.checked_mul(2)?.max(2).checked_next_power_of_two()
}

#[inline(always)]
fn home(id: u64, mask: usize) -> usize {
    // Fibonacci hashing: ids are often small consecutive numbers.
    (id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

/// The handle holding `id`, through the open-addressing id index (each
/// slot a handle or [`NONE`]).
pub(crate) fn find_handle(ids: &[u32], index: &[u32], id: u64) -> Option<u32> {
    let mask = index.len().checked_sub(1)?;
    let mut at = home(id, mask);
    for _ in 0..index.len() {
        let h = rd(index, at);
        if h == NONE {
            return None;
        }
        if id_at(ids, h) == id {
            return Some(h);
        }
        at = (at + 1) & mask;
    }
    None
}

/// Indexes handle `h`, whose id is already stored.
pub(crate) fn index_insert(ids: &[u32], index: &mut [u32], h: u32) {
    let Some(mask) = index.len().checked_sub(1) else {
        return;
    };
    let mut at = home(id_at(ids, h), mask);
    for _ in 0..index.len() {
        if rd(index, at) == NONE {
            wr(index, at, h);
            return;
        }
        at = (at + 1) & mask;
    }
}

/// Drops handle `h` (whose id is still stored) from the index, shifting
/// later entries of its probe run back so lookups still find them.
pub(crate) fn index_remove(ids: &[u32], index: &mut [u32], h: u32) {
    let Some(mask) = index.len().checked_sub(1) else {
        return;
    };
    let mut hole = home(id_at(ids, h), mask);
    let mut steps = 0;
    while rd(index, hole) != h {
        if rd(index, hole) == NONE || steps > mask {
            return;
        }
        hole = (hole + 1) & mask;
        steps += 1;
    }
    wr(index, hole, NONE);
    let mut at = hole;
    for _ in 0..mask {
        at = (at + 1) & mask;
        let other = rd(index, at);
        if other == NONE {
            return;
        }
        // An entry may fill the hole unless its home lies cyclically in
        // (hole, at]: then the hole is not on its probe path.
        let want = home(id_at(ids, other), mask);
        let stays = if hole <= at {
            hole < want && want <= at
        } else {
            hole < want || want <= at
        };
        if !stays {
            wr(index, hole, other);
            wr(index, at, NONE);
            hole = at;
        }
    }
}

/// Copies the first `n` words of `src` to `dst` (as many as both hold).
pub(crate) fn copy_prefix(dst: &mut [u32], src: &[u32], n: usize) {
    let n = n.min(dst.len()).min(src.len());
    if let (Some(d), Some(s)) = (dst.get_mut(..n), src.get(..n)) {
        d.copy_from_slice(s);
    }
}

/// Rebuilds the id index and the free-handle stack from the handles in use
/// (`state[h] != NONE`), after a selector moved to new storage.
pub(crate) fn rebuild_handles(ids: &[u32], state: &[u32], index: &mut [u32], free: &mut [u32]) {
    index.fill(NONE);
    let mut top = 0;
    for h in (0..state.len()).rev() {
        if rd(state, h) == NONE {
            wr(free, top, h as u32);
            top += 1;
        } else {
            index_insert(ids, index, h as u32);
        }
    }
}

/// Fills the free-handle stack so that handles come out as 0, 1, 2, ...
pub(crate) fn init_free(free: &mut [u32]) {
    let n = free.len();
    for (i, f) in free.iter_mut().enumerate() {
        *f = (n - 1 - i) as u32;
    }
}

/// Takes a free handle: `live` handles are in use, so the stack holds
/// `free.len() - live`.
pub(crate) fn pop_free(free: &[u32], live: u32) -> Option<u32> {
    let top = free.len().checked_sub(live as usize)?.checked_sub(1)?;
    free.get(top).copied()
}

/// Returns handle `h` to the stack (`live` counts it still).
pub(crate) fn push_free(free: &mut [u32], live: u32, h: u32) {
    if let Some(top) = free.len().checked_sub(live as usize) {
        wr(free, top, h);
    }
}

/// Removes entry `idx` of the sorted array `words[..len]`, shifting the
/// rest down.
pub(crate) fn remove_at(words: &mut [u32], idx: usize, len: usize) {
    if let Some(tail) = words.get_mut(idx..len)
        && !tail.is_empty()
    {
        tail.copy_within(1.., 0);
    }
}

/// Inserts `value` at `idx` of the sorted array `words[..len]` (which has
/// room for one more), shifting the rest up.
pub(crate) fn insert_at(words: &mut [u32], idx: usize, len: usize, value: u32) {
    if let Some(tail) = words.get_mut(idx..=len) {
        let n = tail.len();
        if n > 0 {
            tail.copy_within(..n - 1, 1);
            if let Some(first) = tail.first_mut() {
                *first = value;
            }
        }
    }
}

/// The words of one region (empty if the buffer cannot hold it).
#[inline(always)]
pub(crate) fn region(words: &[u32], r: Region) -> &[u32] {
    words
        .get(r.start..r.start.saturating_add(r.len))
        .unwrap_or(&[])
}

/// `memmove` of `words[src]` to start at `dest`; a move that does not fit
/// does nothing.
pub(crate) fn move_words(words: &mut [u32], src: core::ops::Range<usize>, dest: usize) {
    let fits = src.start <= src.end
        && src.end <= words.len()
        && dest
            .checked_add(src.end - src.start)
            .is_some_and(|end| end <= words.len());
    if fits {
        words.copy_within(src, dest);
    }
}

/// Sets the table entries for slots `start..=end` (clipped to the table).
pub(crate) fn fill(table: &mut [u32], start: i64, end: i64, value: u32) {
    let len = table.len() as i64;
    let lo = start.max(0);
    let hi = end.min(len - 1);
    if lo <= hi
        && let Some(part) = table.get_mut(lo as usize..=hi as usize)
    {
        part.fill(value);
    }
}

/// The decimal digits of `value`, as Java's `Long.toString` prints a
/// non-negative number.
pub(crate) fn decimal(value: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    let mut v = value;
    loop {
        at -= 1;
        if let Some(b) = buf.get_mut(at) {
            *b = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || at == 0 {
            break;
        }
    }
    buf.get(at..).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_prints_like_java() {
        let mut buf = [0u8; 20];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(1_234_567_890, &mut buf), b"1234567890");
        assert_eq!(decimal(u64::MAX, &mut buf), b"18446744073709551615");
    }

    #[test]
    fn regions_split_in_order() {
        let mut b = LayoutBuilder::new();
        let r = [b.region(Some(2)), b.region(Some(3)), b.region(Some(1))];
        assert_eq!(b.total(), Some(6));
        let mut words = [0, 1, 2, 3, 4, 5];
        let [a, bb, c] = split_mut(&mut words, &r);
        assert_eq!((&*a, &*bb, &*c), (&[0, 1][..], &[2, 3, 4][..], &[5][..]));
        let mut short = [0, 1, 2];
        let [a, bb, c] = split_mut(&mut short, &r);
        assert_eq!((a.len(), bb.len(), c.len()), (2, 0, 0));
    }
}
