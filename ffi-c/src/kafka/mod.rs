//! Kafka's keyed partitioners, byte-for-byte: the Java client's
//! `toPositive(murmur2(key)) % n` and librdkafka's seven
//! `rd_kafka_msg_partitioner_*` functions.
//!
//! Kafka keys are the serialized key bytes, hashed as they are. The Java
//! client's sticky keyless partitioner and librdkafka's sticky producer
//! path are in `sticky.rs`.

pub mod sticky;

use core::ffi::c_char;

use pulsar_routing_core::PartitionCount;
use pulsar_routing_core::kafka::{
    Availability, LibrdkafkaPartitioner, Murmur2Hasher, RdRandom, fnv1a, murmur2,
    partition_for_key, to_positive,
};

use crate::error::{enum_from_c, enum_name, enum_to_c, name_from_c, pulsar_routing_status};
use crate::ffi::slice_from_raw;

/// The seed of Kafka's `Utils.murmur2`. (A literal, so that cbindgen can
/// write it; a test holds it equal to the core's `MURMUR2_SEED`.)
pub const PULSAR_ROUTING_KAFKA_MURMUR2_SEED: u32 = 0x9747_b28c;

/// One of librdkafka's partitioners (the `partitioner` topic property): one
/// of the `PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_*` values.
pub type pulsar_routing_librdkafka_partitioner = u32;

/// `random`: `rd_kafka_msg_partitioner_random`.
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_RANDOM: pulsar_routing_librdkafka_partitioner = 0;
/// `consistent`: CRC-32 of the key (`rd_kafka_msg_partitioner_consistent`).
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT: pulsar_routing_librdkafka_partitioner =
    1;
/// `consistent_random`, librdkafka's default: CRC-32, random for NULL and
/// empty keys.
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM:
    pulsar_routing_librdkafka_partitioner = 2;
/// `murmur2`: the Java client's murmur2, masked to 31 bits.
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2: pulsar_routing_librdkafka_partitioner = 3;
/// `murmur2_random`: as `murmur2`, random for NULL keys.
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2_RANDOM:
    pulsar_routing_librdkafka_partitioner = 4;
/// `fnv1a`: FNV-1a (Sarama-compatible).
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A: pulsar_routing_librdkafka_partitioner = 5;
/// `fnv1a_random`: as `fnv1a`, random for NULL keys.
pub const PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A_RANDOM:
    pulsar_routing_librdkafka_partitioner = 6;

pub(crate) fn partitioner_from_c(
    partitioner: pulsar_routing_librdkafka_partitioner,
) -> Result<LibrdkafkaPartitioner, pulsar_routing_status> {
    let unknown = pulsar_routing_status::UnknownLibrdkafkaPartitioner;
    enum_from_c(&LibrdkafkaPartitioner::ALL, partitioner, unknown)
}

pub(crate) fn partitioner_to_c(
    partitioner: LibrdkafkaPartitioner,
) -> pulsar_routing_librdkafka_partitioner {
    enum_to_c(&LibrdkafkaPartitioner::ALL, partitioner)
}

/// An optional array argument: NULL with a length of 0 is `None` (no key,
/// every partition, no ordering key: each caller says), NULL with another
/// length is NULL_PARAMETER, and otherwise `slice` makes it.
pub(crate) fn optional<S>(
    is_null: bool,
    len: usize,
    slice: impl FnOnce() -> Option<S>,
) -> Result<Option<S>, pulsar_routing_status> {
    match (is_null, len) {
        (true, 0) => Ok(None),
        (true, _) => Err(pulsar_routing_status::NullParameter),
        (false, _) => slice()
            .map(Some)
            .ok_or(pulsar_routing_status::NullParameter),
    }
}

/// An optional input array, as [`optional`] reads it.
///
/// # Safety
/// A non-NULL `ptr` points to `len` readable `T`s, unchanged for `'a`.
pub(crate) unsafe fn optional_slice<'a, T>(
    ptr: *const T,
    len: usize,
) -> Result<Option<&'a [T]>, pulsar_routing_status> {
    // SAFETY: this function's contract.
    optional(ptr.is_null(), len, || unsafe { slice_from_raw(ptr, len) })
}

/// Writes `hash` of the `len` bytes at `data` to `*hash_out`.
///
/// # Safety
/// `data` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
unsafe fn write_hash(
    data: *const u8,
    len: usize,
    hash_out: *mut u32,
    hash: fn(&[u8]) -> u32,
) -> pulsar_routing_status {
    let data = try_slice!(data, len);
    let out = try_out!(hash_out);
    out.ok(hash(data))
}

/// Calls `route` with the partitioner, the key and the partition count of
/// a librdkafka call, checked in that order. NULL (with `len` 0) is
/// librdkafka's NULL key, which differs from a non-NULL empty key; NULL
/// with a non-zero length is NULL_PARAMETER.
///
/// # Safety
/// A non-NULL `key` must point to `len` readable bytes.
unsafe fn rd_route(
    partitioner: pulsar_routing_librdkafka_partitioner,
    key: *const u8,
    len: usize,
    num_partitions: i64,
    route: impl FnOnce(LibrdkafkaPartitioner, Option<&[u8]>, PartitionCount) -> pulsar_routing_status,
) -> pulsar_routing_status {
    // SAFETY: this function's contract on `key`.
    let key = try_ok!(unsafe { optional_slice(key, len) });
    let partitioner = try_ok!(partitioner_from_c(partitioner));
    let n = try_ok!(PartitionCount::from_i64(num_partitions));
    route(partitioner, key, n)
}

/// Kafka's `Utils.murmur2`: MurmurHash2 with seed `0x9747b28c`, as the
/// Java client and librdkafka compute it (the unsigned bits of Java's
/// `int`).
///
/// - `data`, `len`: the bytes; `data` must not be NULL, even when `len` is
///   0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `data` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_kafka_murmur2(
    data: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_hash(data, len, hash_out, murmur2) }
    }
}

/// Kafka's `Utils.toPositive`: `x & 0x7fffffff`.
///
/// Cannot fail. Thread-safe; allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_kafka_to_positive(x: u32) -> u32 {
    ffi_panic_boundary! {
        to_positive(x)
    }
}

/// 32-bit FNV-1a, as librdkafka's `fnv1a` partitioner (and Sarama)
/// compute it.
///
/// - `data`, `len`: the bytes; `data` must not be NULL, even when `len` is
///   0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `data` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_kafka_fnv1a(
    data: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: this function's contract is the helper's.
        unsafe { write_hash(data, len, hash_out, fnv1a) }
    }
}

/// The partition the Java `KafkaProducer` (3.3+) gives a record with a
/// key: `toPositive(murmur2(key)) % num_partitions`.
///
/// - `key`, `len`: the serialized key bytes; `key` must not be NULL, even
///   when `len` is 0 (a record with a NULL key has no keyed partition).
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE` or `PARTITION_COUNT_TOO_LARGE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `partition_out` must be
/// valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_kafka_partition_for_key(
    key: *const u8,
    len: usize,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(partition_out);
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        out.ok(partition_for_key(key, n))
    }
}

/// Parses a librdkafka `partitioner` property value: `"random"`,
/// `"consistent"`, `"consistent_random"`, `"murmur2"`, `"murmur2_random"`,
/// `"fnv1a"` or `"fnv1a_random"`.
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `partitioner_out`: receives the partitioner on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_LIBRDKAFKA_PARTITIONER` (also
/// for bytes that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `partitioner_out` must be
/// valid for writing a `pulsar_routing_librdkafka_partitioner`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_partitioner_from_name(
    name: *const u8,
    len: usize,
    partitioner_out: *mut pulsar_routing_librdkafka_partitioner,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let unknown = pulsar_routing_status::UnknownLibrdkafkaPartitioner;
        let parse = |name: &str| name.parse().map(partitioner_to_c);
        // SAFETY: this function's contract is the helper's.
        unsafe { name_from_c(name, len, partitioner_out, unknown, parse) }
    }
}

/// The `partitioner` property value of a librdkafka partitioner, e.g.
/// `"murmur2_random"`, as a static NUL-terminated string; NULL for an
/// unknown value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_librdkafka_partitioner_name(
    partitioner: pulsar_routing_librdkafka_partitioner,
) -> *const c_char {
    ffi_panic_boundary! {
        enum_name(&LibrdkafkaPartitioner::ALL, partitioner, LibrdkafkaPartitioner::c_name)
    }
}

/// The partition librdkafka's exported `rd_kafka_msg_partitioner_<name>`
/// function computes for a key without randomness.
///
/// - `key`, `len`: the key bytes. **NULL (with `len` 0) is librdkafka's
///   NULL key**, which differs from a non-NULL empty key.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`; `LIBRDKAFKA_RANDOM_PARTITION` when the function picks at
/// random instead (every key for `random`; a NULL or empty key for
/// `consistent_random`; a NULL key for `murmur2_random` and
/// `fnv1a_random`); `NULL_PARAMETER` (`partition_out`, or a NULL `key`
/// with a non-zero `len`), `UNKNOWN_LIBRDKAFKA_PARTITIONER`,
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// A non-NULL `key` must point to `len` readable bytes, and
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_partition_for_key(
    partitioner: pulsar_routing_librdkafka_partitioner,
    key: *const u8,
    len: usize,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `key`.
        unsafe {
            rd_route(partitioner, key, len, num_partitions, |partitioner, key, n| {
                match partitioner.partition_for_key(key, n) {
                    Some(partition) => out.write(partition),
                    None => return pulsar_routing_status::LibrdkafkaRandomPartition,
                }
                pulsar_routing_status::Ok
            })
        }
    }
}

/// The partition librdkafka's exported `rd_kafka_msg_partitioner_<name>`
/// function returns, with its random draw given: where it picks at random
/// (see `pulsar_routing_librdkafka_partition_for_key`) the result is
/// `random % num_partitions`, as `rd_jitter(0, partition_cnt - 1)` reduces
/// a `rand_r` value, for a topic whose partitions all have a leader.
///
/// - `key`, `len`: the key bytes. **NULL (with `len` 0) is librdkafka's
///   NULL key**, which differs from a non-NULL empty key.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `random`: the random draw (`0..=RAND_MAX` in librdkafka).
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`, `NULL_PARAMETER` (`partition_out`, or a NULL `key` with a
/// non-zero `len`), `UNKNOWN_LIBRDKAFKA_PARTITIONER`,
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// A non-NULL `key` must point to `len` readable bytes, and
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_partition(
    partitioner: pulsar_routing_librdkafka_partitioner,
    key: *const u8,
    len: usize,
    num_partitions: i64,
    random: u32,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `key`.
        unsafe {
            rd_route(partitioner, key, len, num_partitions, |partitioner, key, n| {
                out.ok(partitioner.partition(key, n, RdRandom::one(random), Availability::All))
            })
        }
    }
}

/// Streaming Kafka murmur2 state, allocated by the caller (on the stack,
/// inside another struct, anywhere); no heap allocation and no free
/// function.
///
/// MurmurHash2 seeds with the total length, so it is given to
/// `pulsar_routing_kafka_murmur2_hasher_init`, and
/// `pulsar_routing_kafka_murmur2_hasher_finalize` refuses to answer until
/// exactly that many bytes were fed. Its size (32 bytes) and alignment
/// (that of `uint64_t`) are part of the ABI; its contents are private.
/// Copying an initialised hasher forks the stream. One hasher must not be
/// used by two threads at once.
#[repr(C)]
pub struct pulsar_routing_kafka_murmur2_hasher {
    _opaque: [u64; 4],
}

inline_castable!(pulsar_routing_kafka_murmur2_hasher => Murmur2Hasher);

impl pulsar_routing_kafka_murmur2_hasher {
    /// Initialises (or resets) `hasher` for a key of exactly `total_len`
    /// bytes.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe for distinct hashers;
    /// allocates nothing.
    ///
    /// # Safety
    /// `hasher` must be valid for writing a
    /// `pulsar_routing_kafka_murmur2_hasher`; it may be uninitialised.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_murmur2_hasher_init(
        hasher: *mut pulsar_routing_kafka_murmur2_hasher,
        total_len: u64,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `hasher`.
            if unsafe { crate::ffi::inline_init(hasher, Murmur2Hasher::new(total_len)) } {
                pulsar_routing_status::Ok
            } else {
                pulsar_routing_status::NullParameter
            }
        }
    }

    /// Feeds `len` more bytes. Any chunking gives the same hash as
    /// `pulsar_routing_kafka_murmur2` over the concatenation.
    ///
    /// Returns `OK` or `NULL_PARAMETER` (`hasher` or `data` NULL; `data`
    /// must not be NULL even when `len` is 0), and then leaves the state
    /// unchanged. Allocates nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_kafka_murmur2_hasher_init` and not be in use by
    /// another thread; `data` must point to `len` readable bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_murmur2_hasher_update(
        hasher: *mut pulsar_routing_kafka_murmur2_hasher,
        data: *const u8,
        len: usize,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let data = try_slice!(data, len);
            try_inline_mut!(hasher).update(data);
            pulsar_routing_status::Ok
        }
    }

    /// The murmur2 hash of everything fed so far (the unsigned bits of
    /// Java's `int`), as `pulsar_routing_kafka_murmur2` gives; the hasher
    /// can go on.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `KAFKA_MURMUR2_LENGTH_MISMATCH`
    /// (not exactly the announced number of bytes fed yet). Allocates
    /// nothing.
    ///
    /// # Safety
    /// `hasher` must have been initialised by
    /// `pulsar_routing_kafka_murmur2_hasher_init` and not be modified by
    /// another thread meanwhile; `hash_out` must be valid for writing a
    /// `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_murmur2_hasher_finalize(
        hasher: *const pulsar_routing_kafka_murmur2_hasher,
        hash_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(hash_out);
            out.ok(try_ok!(try_inline_ref!(hasher).finalize()))
        }
    }
}
