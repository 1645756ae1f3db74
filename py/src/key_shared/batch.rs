//! Many sticky keys to their slots, through [`map_keys`]: Python objects in
//! batches, numpy `U`/`S` arrays and pyarrow arrays read in place, with the
//! GIL released for long inputs.
//!
//! A sticky key is bytes: a `str` is its UTF-8 (Java's `getBytes(UTF_8)`,
//! lone surrogates written as `?`), `bytes` as they are, and `None` (or an
//! Arrow null) a message without any key, hashed as `NONE_KEY`.

use pulsar_routing::key_shared::{KeyHashRange, NONE_KEY};
use pyo3::prelude::*;

use crate::batch::{KeyBatch, KeyRef, map_keys};
use crate::routing_key::java_utf8;

/// The slot of every key in `range`.
pub(crate) fn slots_for_keys(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    range: KeyHashRange,
) -> PyResult<Vec<u32>> {
    map_keys(py, keys, &Slots(range))
}

/// Sticky keys to their slots in a range.
struct Slots(KeyHashRange);

impl KeyBatch for Slots {
    type Out = u32;
    const ONE_KEY: &'static str = "keys must be a collection of keys, not one key";

    #[inline(always)]
    fn key(&self, _index: usize, key: KeyRef<'_>) -> PyResult<u32> {
        Ok(match key {
            KeyRef::None => self.0.slot_of(NONE_KEY),
            KeyRef::Text(text) => self.0.slot_of(text.as_bytes()),
            KeyRef::Utf16(units) => self.0.slot_of(&java_utf8(units)),
            KeyRef::Bytes(bytes) => self.0.slot_of(bytes),
        })
    }
}
