//! librdkafka's `rd_fnv1a`: 32-bit FNV-1a with Sarama's absolute value.

const OFFSET_BASIS: u32 = 0x811c_9dc5;
const PRIME: u32 = 0x0100_0193;

/// `rd_fnv1a(key, len)`: FNV-1a over the bytes, then the absolute value of
/// the result read as a signed 32-bit number, so that `fnv1a` partitioning
/// matches Sarama's default `NewHashPartitioner`.
///
/// `i32::MIN` has no positive counterpart; the C code's `h = -h` leaves it
/// unchanged on every real compiler, and so does this function
/// (`0x80000000`).
///
/// ```
/// use pulsar_routing::kafka::fnv1a;
/// // librdkafka's unit test values (rdfnv1a.c), taken from Go's hash/fnv.
/// assert_eq!(fnv1a(b"kafka"), 0x0d33_c4e1);
/// assert_eq!(fnv1a(b""), 0x7ee3_623b);
/// ```
#[must_use]
pub const fn fnv1a(key: &[u8]) -> u32 {
    let mut h = OFFSET_BASIS;
    let mut i = 0;
    while i < key.len() {
        h ^= key[i] as u32;
        h = h.wrapping_mul(PRIME);
        i += 1;
    }
    (h as i32).wrapping_abs() as u32
}
