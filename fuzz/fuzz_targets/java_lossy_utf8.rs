//! `java_lossy_utf8` on arbitrary bytes: it terminates, it is the identity
//! on valid UTF-8, it agrees with Rust's lossy decoding everywhere except in
//! how many U+FFFD a malformed stretch becomes, and the byte-level Java
//! hash equals the hash of the decoded string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pulsar_routing::{
    java_lossy_utf8, java_string_hash_bytes, java_string_hashcode, java_string_hashcode_bytes,
    java_string_hashcode_utf16,
};
use pulsar_routing_fuzz::reference;

const REPLACEMENT: char = '\u{fffd}';

fuzz_target!(|data: &[u8]| {
    // Every char consumes at least one byte, so a decoder that yields more
    // chars than there are bytes has stopped making progress; failing here
    // reports that as a crash instead of a timeout.
    let mut decoded = String::new();
    let mut produced = 0usize;
    for c in java_lossy_utf8(data) {
        produced += 1;
        assert!(produced <= data.len(), "more chars than input bytes");
        decoded.push(c);
    }
    let (low, high) = java_lossy_utf8(data).size_hint();
    assert!(low <= produced, "size_hint lower bound {low} > {produced}");
    assert!(
        high.is_none_or(|high| produced <= high),
        "size_hint upper bound {high:?} < {produced}"
    );

    if let Ok(s) = std::str::from_utf8(data) {
        assert_eq!(decoded, s, "valid UTF-8 must decode to itself");
    }
    // The output is valid Unicode (a `String` cannot hold anything else), so
    // decoding its UTF-8 again must change nothing, U+FFFD included.
    assert!(
        java_lossy_utf8(decoded.as_bytes()).eq(decoded.chars()),
        "decoding is not idempotent"
    );

    // Rust's `utf8_chunks` splits the input the Unicode "maximal subpart"
    // way, one U+FFFD per invalid chunk. The JDK never consumes a byte that
    // could start a character into a replacement, so both keep the same
    // characters; it only merges some malformed stretches, at most three
    // of Rust's replacements into one (an encoded surrogate, `ED A0 80`).
    let mut rust_kept = String::new();
    let mut rust_replacements = 0usize;
    let mut literal_replacements = 0usize;
    for chunk in data.utf8_chunks() {
        rust_kept.push_str(chunk.valid());
        literal_replacements += chunk.valid().matches(REPLACEMENT).count();
        if !chunk.invalid().is_empty() {
            rust_replacements += 1;
        }
    }
    let java_kept: String = decoded.chars().filter(|&c| c != REPLACEMENT).collect();
    let rust_kept: String = rust_kept.chars().filter(|&c| c != REPLACEMENT).collect();
    assert_eq!(java_kept, rust_kept, "decoders keep different characters");
    let java_replacements = decoded.matches(REPLACEMENT).count() - literal_replacements;
    assert!(
        java_replacements <= rust_replacements && rust_replacements <= 3 * java_replacements,
        "{java_replacements} replacements where maximal subparts give {rust_replacements}"
    );

    let hash = java_string_hashcode_bytes(data);
    assert_eq!(
        hash,
        java_string_hashcode(&decoded),
        "bytes hash != string hash"
    );
    assert_eq!(
        hash,
        reference::java_string_hashcode(&decoded),
        "differs from the naive hashCode"
    );
    let units: Vec<u16> = decoded.encode_utf16().collect();
    assert_eq!(
        hash,
        java_string_hashcode_utf16(&units),
        "bytes hash != UTF-16 hash"
    );
    assert_eq!(
        java_string_hash_bytes(data),
        hash as u32 & 0x7fff_ffff,
        "mask"
    );
});
