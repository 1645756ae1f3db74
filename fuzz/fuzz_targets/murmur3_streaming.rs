//! `Murmur3Hasher` fed in arbitrary chunks must agree with the one-shot
//! hash, and the one-shot hash with two independent implementations: the
//! naive transcription of the C reference in this crate, and the `murmur3`
//! crate. The masked hash must be the raw one with bit 31 cleared.
#![no_main]

use std::io::Cursor;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::{Murmur3Hasher, murmur3_32, murmur3_32_raw};
use pulsar_routing_fuzz::reference;

/// Prefix checks are quadratic; this many keeps an input well under a
/// millisecond at libFuzzer's default 4 KiB inputs.
const MAX_PREFIX_CHECKS: usize = 64;

#[derive(Arbitrary, Debug)]
struct Input {
    /// The length of each chunk fed to the hasher, in order (capped by what
    /// is left); whatever remains afterwards goes in one last chunk. Zeros
    /// feed empty chunks, which must change nothing.
    chunk_lens: Vec<u8>,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let data = &input.data[..];
    let raw = murmur3_32_raw(data);

    let mut hasher = Murmur3Hasher::new();
    let mut fed = 0;
    for (i, &len) in input.chunk_lens.iter().enumerate() {
        let end = (fed + usize::from(len)).min(data.len());
        hasher.update(&data[fed..end]);
        fed = end;
        // Finalising borrows, so a hasher can report mid-stream and go on:
        // what it reports must be the hash of the prefix so far.
        if i < MAX_PREFIX_CHECKS {
            assert_eq!(hasher.finalize_raw(), murmur3_32_raw(&data[..fed]));
        }
    }
    hasher.update(&data[fed..]);

    assert_eq!(hasher.finalize_raw(), raw, "streaming != one-shot");
    assert_eq!(
        hasher.finalize(),
        murmur3_32(data),
        "masked streaming != one-shot"
    );
    assert_eq!(
        murmur3_32(data),
        raw & 0x7fff_ffff,
        "masked != raw & 0x7fffffff"
    );
    assert_eq!(
        raw,
        reference::murmur3_32_raw(data),
        "differs from the naive reference"
    );
    let crate_hash = murmur3::murmur3_32(&mut Cursor::new(data), 0).expect("in-memory read");
    assert_eq!(raw, crate_hash, "differs from the murmur3 crate");
});
