//! Kafka's keyless partitioners, with their state: the Java client's
//! built-in sticky partitioner (KIP-794, [`pulsar_routing_kafka_built_in_partitioner`]),
//! the Java producer's whole decision ([`pulsar_routing_kafka_java_client_partitioner`])
//! and librdkafka's producer path with its time-based sticky partition
//! ([`pulsar_routing_librdkafka_producer`]).
//!
//! Random numbers, byte counts, clocks and which partitions have a leader
//! are arguments, so every sequence can be replayed.

use std::sync::Mutex;

use pulsar_routing_core::PartitionCount;
use pulsar_routing_core::kafka::{
    BuiltInPartitioner, JavaClientPartitioner, LibrdkafkaProducer, PartitionLoadStats, RdRandom,
    default_sticky_linger_ms, random_partition,
};
use pulsar_routing_owned::kafka::{Draw, LoadInput, availability, pair_load};

use crate::error::pulsar_routing_status;
use crate::ffi::{BoxCastable, Out, free_box, lock, slice_from_raw_mut, to_boxed_mut_ptr};
use crate::kafka::{optional, optional_slice, pulsar_routing_librdkafka_partitioner};

/// What the Java client's `BuiltInPartitioner.nextPartition` reads when it
/// draws a new sticky partition, passed by value.
///
/// - Uniform over all partitions: `{random, NULL, 0, NULL, 0, NULL, 0, 0}`.
/// - `available`, `available_len`: the partitions that have a leader, in
///   metadata order; NULL (with length 0) means every partition. A non-NULL
///   pointer with length 0 means none (then all are drawn from, as Java
///   does).
/// - `queue_sizes`, `partition_ids`, `load_length`: adaptive partitioning's
///   load statistics (`updatePartitionLoadStats`): `queue_sizes[i]` batches
///   queued for partition `partition_ids[i]`, the first `load_length`
///   entries being the usable partitions. Both NULL (lengths 0): no
///   statistics. **`queue_sizes` is a work array**: every call that is given
///   it turns it into the cumulative frequency table in place, as Java
///   does, so pass fresh queue sizes each time.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pulsar_routing_kafka_sticky_choice {
    /// A random `int` (Java: `ThreadLocalRandom.current().nextInt()`), as
    /// its unsigned bits; the partitioner applies `toPositive` itself.
    pub random: u32,
    /// The available partition ids, or NULL for all.
    pub available: *const u32,
    /// The number of ids at `available`.
    pub available_len: usize,
    /// The queue sizes (a work array), or NULL for no load statistics.
    pub queue_sizes: *mut i32,
    /// The number of entries at `queue_sizes`.
    pub queue_sizes_len: usize,
    /// The partition id of each queue size, or NULL for no load
    /// statistics.
    pub partition_ids: *const u32,
    /// The number of ids at `partition_ids`.
    pub partition_ids_len: usize,
    /// How many leading entries of the load statistics are usable.
    pub load_length: usize,
}

/// A checked sticky choice, its load statistics not built yet (building
/// them rewrites the caller's queue sizes, which waits until every
/// argument has been checked).
///
/// # Safety
/// As `pulsar_routing_kafka_sticky_choice` describes, for `'a`.
unsafe fn draw_from_c<'a>(
    c: pulsar_routing_kafka_sticky_choice,
) -> Result<Draw<'a>, pulsar_routing_status> {
    // SAFETY: this function's contract on `available`.
    let available = unsafe { optional_slice(c.available, c.available_len) }?;
    let queues = optional(c.queue_sizes.is_null(), c.queue_sizes_len, || {
        // SAFETY: this function's contract on the queue sizes, a work array.
        unsafe { slice_from_raw_mut(c.queue_sizes, c.queue_sizes_len) }
    })?;
    // SAFETY: this function's contract on the partition ids.
    let ids = unsafe { optional_slice(c.partition_ids, c.partition_ids_len) }?;
    let load = pair_load(queues, ids).map_err(|_| pulsar_routing_status::NullParameter)?;
    Ok(Draw {
        random: c.random,
        available,
        load: load.map(|(queues, ids)| LoadInput::new(queues, ids, Some(c.load_length))),
    })
}

/// Writes whether a partition was drawn, then the drawn value through
/// `write` when there is one: the out-parameters of the calls that report
/// an optional sticky partition.
fn put_drawn<T>(
    drawn: Out<'_, bool>,
    value: Option<T>,
    write: impl FnOnce(T),
) -> pulsar_routing_status {
    drawn.write(value.is_some());
    if let Some(value) = value {
        write(value);
    }
    pulsar_routing_status::Ok
}

/// The Java client's `BuiltInPartitioner.updatePartitionLoadStats`: turns
/// the first `length` queue sizes into the cumulative frequency table **in
/// place**, as Java does, so that a partition with a shorter queue is more
/// likely to be drawn.
///
/// - `queue_sizes`, `queue_sizes_len`: batches queued per partition (a
///   work array, overwritten on success when adaptive partitioning is on).
/// - `partition_ids`, `partition_ids_len`: the partition of each entry;
///   entries past `length` are the partitions the availability timeout
///   excluded.
/// - `enabled_out`: receives false where Java switches adaptive
///   partitioning off (fewer than 2 partitions, no partition usable, or
///   all queues equally long with none excluded; the queue sizes are then
///   unchanged), true otherwise.
///
/// Returns `OK`, `NULL_PARAMETER` (even with lengths of 0) or
/// `KAFKA_LOAD_STATS_SHAPE` (lengths differ, or `length` exceeds them).
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `queue_sizes` must point to `queue_sizes_len` writable `int32_t`s that
/// nothing else accesses during the call, `partition_ids` to
/// `partition_ids_len` readable `uint32_t`s, and `enabled_out` must be
/// valid for writing a `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_kafka_partition_load_stats(
    queue_sizes: *mut i32,
    queue_sizes_len: usize,
    partition_ids: *const u32,
    partition_ids_len: usize,
    length: usize,
    enabled_out: *mut bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let queues = try_slice_mut!(queue_sizes, queue_sizes_len);
        let ids = try_slice!(partition_ids, partition_ids_len);
        let out = try_out!(enabled_out);
        let stats = try_ok!(PartitionLoadStats::build(queues, ids, length));
        out.ok(stats.is_some())
    }
}

/// librdkafka's `rd_kafka_msg_partitioner_random`: `first % n`, or, when
/// that partition has no leader, `second % n` whether it has one or not.
///
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `first`, `second`: the two `rand_r` draws (`0..=RAND_MAX`).
/// - `available`, `available_len`: the partitions with a leader; NULL
///   (with length 0) means every partition.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`, `NULL_PARAMETER` (`partition_out`, or a NULL `available`
/// with a non-zero length), `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE` or `PARTITION_COUNT_TOO_LARGE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// A non-NULL `available` must point to `available_len` readable
/// `uint32_t`s, and `partition_out` must be valid for writing a
/// `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_random_partition(
    num_partitions: i64,
    first: u32,
    second: u32,
    available: *const u32,
    available_len: usize,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `available`.
        let availability = availability(try_ok!(unsafe { optional_slice(available, available_len) }));
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        out.ok(random_partition(n, RdRandom { first, second }, availability))
    }
}

/// The partition librdkafka's exported `rd_kafka_msg_partitioner_<name>`
/// function returns, with both random draws and the partitions' leaders
/// given (the core's `LibrdkafkaPartitioner::partition`): the keyed result,
/// or `pulsar_routing_librdkafka_random_partition` where it picks at
/// random.
///
/// - `key`, `len`: the key bytes; **NULL (with `len` 0) is librdkafka's
///   NULL key**, which differs from a non-NULL empty key.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `first`, `second`: the random draws.
/// - `available`, `available_len`: the partitions with a leader; NULL
///   (with length 0) means every partition.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`, `NULL_PARAMETER` (`partition_out`, or a NULL `key` or
/// `available` with a non-zero length), `UNKNOWN_LIBRDKAFKA_PARTITIONER`,
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE` or
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// A non-NULL `key` must point to `len` readable bytes, a non-NULL
/// `available` to `available_len` readable `uint32_t`s, and
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_partition_with_availability(
    partitioner: pulsar_routing_librdkafka_partitioner,
    key: *const u8,
    len: usize,
    num_partitions: i64,
    first: u32,
    second: u32,
    available: *const u32,
    available_len: usize,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `key`.
        let key = try_ok!(unsafe { optional_slice(key, len) });
        // SAFETY: the caller's contract on `available`.
        let availability = availability(try_ok!(unsafe { optional_slice(available, available_len) }));
        let partitioner = try_ok!(crate::kafka::partitioner_from_c(partitioner));
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        out.ok(partitioner.partition(key, n, RdRandom { first, second }, availability))
    }
}

/// `sticky.partitioning.linger.ms` when the application did not set it:
/// `min(900000, (int)(2 * linger_ms))` (10 for the default `linger.ms` of
/// 5). A NaN gives 0; values beyond `int64_t` saturate.
///
/// - `sticky_linger_ms_out`: receives the value on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `sticky_linger_ms_out` must be valid for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_librdkafka_default_sticky_linger_ms(
    linger_ms: f64,
    sticky_linger_ms_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(sticky_linger_ms_out);
        out.ok(default_sticky_linger_ms(linger_ms))
    }
}

/// The Java client's built-in sticky partitioner for keyless records
/// (`BuiltInPartitioner`, KIP-794, Kafka 3.3+) of one topic, as an opaque
/// heap handle.
///
/// Keyless records stick to one partition until `sticky_batch_size` bytes
/// were appended to it with switching allowed (or twice that in any case);
/// then a partition is drawn with the caller's
/// `pulsar_routing_kafka_sticky_choice`. The state is behind a lock: one
/// partitioner can be shared by any number of threads.
pub struct pulsar_routing_kafka_built_in_partitioner {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_kafka_built_in_partitioner {
    type RustType = Mutex<BuiltInPartitioner>;
}

impl pulsar_routing_kafka_built_in_partitioner {
    /// `new BuiltInPartitioner(logContext, topic, stickyBatchSize)`.
    ///
    /// - `partitioner_out`: on success, receives the new partitioner, which
    ///   the caller owns and must release with
    ///   `pulsar_routing_kafka_built_in_partitioner_free`.
    ///
    /// Returns `OK`, `NULL_PARAMETER` or `KAFKA_INVALID_STICKY_BATCH_SIZE`
    /// (below 1, where Java throws). Thread-safe. Allocates the
    /// partitioner.
    ///
    /// # Safety
    /// `partitioner_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_new(
        sticky_batch_size: i32,
        partitioner_out: *mut *mut pulsar_routing_kafka_built_in_partitioner,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(partitioner_out);
            let partitioner = try_ok!(BuiltInPartitioner::new(sticky_batch_size));
            out.ok(to_boxed_mut_ptr::<Self>(Mutex::new(partitioner)))
        }
    }

    /// The partitioner `KafkaProducer` builds from its `batch.size` setting
    /// (default 16384): `max(1, batch_size)`, so any value is accepted.
    ///
    /// - `partitioner_out`: as for
    ///   `pulsar_routing_kafka_built_in_partitioner_new`.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe. Allocates the
    /// partitioner.
    ///
    /// # Safety
    /// `partitioner_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_for_batch_size(
        batch_size: i32,
        partitioner_out: *mut *mut pulsar_routing_kafka_built_in_partitioner,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(partitioner_out);
            let partitioner = BuiltInPartitioner::for_batch_size(batch_size);
            out.ok(to_boxed_mut_ptr::<Self>(Mutex::new(partitioner)))
        }
    }

    /// The byte threshold for switching.
    ///
    /// - `sticky_batch_size_out`: receives it on success.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `partitioner` must be a live partitioner from this type's
    /// constructors, and `sticky_batch_size_out` valid for writing an
    /// `int32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(
        partitioner: *const pulsar_routing_kafka_built_in_partitioner,
        sticky_batch_size_out: *mut i32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let out = try_out!(sticky_batch_size_out);
            out.ok(lock(partitioner).sticky_batch_size())
        }
    }

    /// The current sticky partition and the bytes produced to it
    /// (`stickyPartitionInfo`).
    ///
    /// - `drawn_out`: receives whether a partition was drawn.
    /// - `partition_out`, `produced_bytes_out`: receive the partition and
    ///   its byte count when one was drawn; left unchanged otherwise.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `partitioner` must be a live partitioner from this type's
    /// constructors, and the out-parameters valid for writing a `bool`, a
    /// `uint32_t` and an `int32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_current(
        partitioner: *const pulsar_routing_kafka_built_in_partitioner,
        drawn_out: *mut bool,
        partition_out: *mut u32,
        produced_bytes_out: *mut i32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let drawn = try_out!(drawn_out);
            let partition = try_out!(partition_out);
            let produced = try_out!(produced_bytes_out);
            put_drawn(drawn, lock(partitioner).current(), |(p, bytes)| {
                partition.write(p);
                produced.write(bytes);
            })
        }
    }

    /// `peekCurrentPartitionInfo`: the partition the next keyless record
    /// goes to, drawing one with `choice` if none was drawn yet (`choice`
    /// is then ignored, but its pointers are still checked and its queue
    /// sizes still rewritten).
    ///
    /// - `num_partitions`: the topic's partition count, 1 to 2147483647.
    /// - `choice`: the random number, availability and load statistics.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` (`partitioner`, `partition_out`, or a
    /// pointer of `choice` as its documentation says),
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE`, `KAFKA_LOAD_STATS_SHAPE`,
    /// `KAFKA_CORRUPT_LOAD_STATS` or `KAFKA_PARTITION_OUT_OF_RANGE` (an
    /// available or load id not below `num_partitions`); the state is
    /// unchanged on failure. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `partitioner` must be a live partitioner from this type's
    /// constructors, `choice` as `pulsar_routing_kafka_sticky_choice`
    /// describes, and `partition_out` valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_peek_partition(
        partitioner: *const pulsar_routing_kafka_built_in_partitioner,
        num_partitions: i64,
        choice: pulsar_routing_kafka_sticky_choice,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `choice`.
            let choice = try_ok!(unsafe { draw_from_c(choice) });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            let choice = try_ok!(choice.build());
            out.ok(try_ok!(lock(partitioner).peek_partition(n, &choice)))
        }
    }

    /// `updatePartitionInfo`, called after a keyless record of
    /// `appended_bytes` bytes was appended to the current sticky partition:
    /// switches, drawing with `choice`, once `sticky_batch_size` bytes were
    /// produced and `enable_switch` (the accumulator's "every batch of this
    /// partition is full"), or at twice that in any case. Does nothing
    /// before the first `peek_partition`.
    ///
    /// - `switched_out`: receives whether it switched.
    /// - `partition_out`: receives the new partition when it switched; left
    ///   unchanged otherwise.
    ///
    /// Returns as `pulsar_routing_kafka_built_in_partitioner_peek_partition`
    /// (`NULL_PARAMETER` also for `switched_out`); on a failed draw the
    /// byte count is kept and the old partition stays. Thread-safe;
    /// allocates nothing.
    ///
    /// # Safety
    /// As `pulsar_routing_kafka_built_in_partitioner_peek_partition`, and
    /// `switched_out` must be valid for writing a `bool`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_update_partition_info(
        partitioner: *const pulsar_routing_kafka_built_in_partitioner,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: i64,
        choice: pulsar_routing_kafka_sticky_choice,
        switched_out: *mut bool,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let switched = try_out!(switched_out);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `choice`.
            let choice = try_ok!(unsafe { draw_from_c(choice) });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            let choice = try_ok!(choice.build());
            let next = try_ok!(lock(partitioner).update_partition_info(
                appended_bytes,
                enable_switch,
                n,
                &choice,
            ));
            put_drawn(switched, next, |p| out.write(p))
        }
    }

    /// Releases a partitioner. NULL is a no-op.
    ///
    /// No other thread may be using it, and it must not be used or freed
    /// again afterwards.
    ///
    /// # Safety
    /// `partitioner` must be NULL or a partitioner from this type's
    /// constructors that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_built_in_partitioner_free(
        partitioner: *mut pulsar_routing_kafka_built_in_partitioner,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `partitioner`.
            unsafe { free_box(partitioner) }
        }
    }
}

/// The Java `KafkaProducer`'s whole partition decision for one topic when
/// no explicit partition and no custom `partitioner.class` are set
/// (`JavaClientPartitioner`): keyed records by
/// `toPositive(murmur2(key)) % n` unless keys are ignored, keyless ones by
/// the built-in sticky partitioner with its byte accounting. An opaque
/// heap handle whose state is behind a lock: shareable between threads.
pub struct pulsar_routing_kafka_java_client_partitioner {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_kafka_java_client_partitioner {
    type RustType = Mutex<JavaClientPartitioner>;
}

impl pulsar_routing_kafka_java_client_partitioner {
    /// A producer with `batch.size = batch_size` (clamped to at least 1, as
    /// `KafkaProducer` does) and `partitioner.ignore.keys = ignore_keys`.
    ///
    /// - `partitioner_out`: on success, receives the new partitioner, which
    ///   the caller owns and must release with
    ///   `pulsar_routing_kafka_java_client_partitioner_free`.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe. Allocates the
    /// partitioner.
    ///
    /// # Safety
    /// `partitioner_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_java_client_partitioner_new(
        batch_size: i32,
        ignore_keys: bool,
        partitioner_out: *mut *mut pulsar_routing_kafka_java_client_partitioner,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(partitioner_out);
            let partitioner = JavaClientPartitioner::new(batch_size, ignore_keys);
            out.ok(to_boxed_mut_ptr::<Self>(Mutex::new(partitioner)))
        }
    }

    /// The partition a record is appended to.
    ///
    /// - `key`, `key_len`: the serialized key; **NULL (with length 0) is a
    ///   `null` key**, a keyless record; a non-NULL empty key is a key.
    /// - `appended_bytes`: the record's size in the batch, counted towards
    ///   the sticky switch for a keyless record.
    /// - `enable_switch`: the accumulator's "every batch of this partition
    ///   is full".
    /// - `num_partitions`: the topic's partition count, 1 to 2147483647.
    /// - `choice`: read only when this call draws a sticky partition (Java
    ///   draws right after the record that completed a batch; here the
    ///   next keyless record draws, with its own choice: the sequence of
    ///   partitions is the same for the same random numbers).
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` (`partitioner`, `partition_out`, a
    /// NULL `key` with a non-zero length, or a pointer of `choice`),
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE`, `KAFKA_LOAD_STATS_SHAPE`,
    /// `KAFKA_CORRUPT_LOAD_STATS` or `KAFKA_PARTITION_OUT_OF_RANGE`.
    /// Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `partitioner` must be a live partitioner from
    /// `pulsar_routing_kafka_java_client_partitioner_new`, a non-NULL `key`
    /// must point to `key_len` readable bytes, `choice` must be as
    /// `pulsar_routing_kafka_sticky_choice` describes, and `partition_out`
    /// valid for writing a `uint32_t`.
    #[unsafe(no_mangle)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe extern "C" fn pulsar_routing_kafka_java_client_partitioner_append(
        partitioner: *const pulsar_routing_kafka_java_client_partitioner,
        key: *const u8,
        key_len: usize,
        appended_bytes: i32,
        enable_switch: bool,
        num_partitions: i64,
        choice: pulsar_routing_kafka_sticky_choice,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key`.
            let key = try_ok!(unsafe { optional_slice(key, key_len) });
            // SAFETY: the caller's contract on `choice`.
            let choice = try_ok!(unsafe { draw_from_c(choice) });
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            let choice = try_ok!(choice.build());
            out.ok(try_ok!(lock(partitioner).append(
                key,
                appended_bytes,
                enable_switch,
                n,
                &choice,
            )))
        }
    }

    /// The sticky partitioner's current partition and the bytes produced
    /// to it, as `pulsar_routing_kafka_built_in_partitioner_current`.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `partitioner` must be a live partitioner from
    /// `pulsar_routing_kafka_java_client_partitioner_new`, and the
    /// out-parameters valid for writing a `bool`, a `uint32_t` and an
    /// `int32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_java_client_partitioner_current(
        partitioner: *const pulsar_routing_kafka_java_client_partitioner,
        drawn_out: *mut bool,
        partition_out: *mut u32,
        produced_bytes_out: *mut i32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let partitioner = try_box_ref!(partitioner);
            let drawn = try_out!(drawn_out);
            let partition = try_out!(partition_out);
            let produced = try_out!(produced_bytes_out);
            put_drawn(drawn, lock(partitioner).sticky().current(), |(p, bytes)| {
                partition.write(p);
                produced.write(bytes);
            })
        }
    }

    /// Releases a partitioner. NULL is a no-op.
    ///
    /// No other thread may be using it, and it must not be used or freed
    /// again afterwards.
    ///
    /// # Safety
    /// `partitioner` must be NULL or a partitioner from
    /// `pulsar_routing_kafka_java_client_partitioner_new` that has not been
    /// freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_kafka_java_client_partitioner_free(
        partitioner: *mut pulsar_routing_kafka_java_client_partitioner,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `partitioner`.
            unsafe { free_box(partitioner) }
        }
    }
}

/// librdkafka's producer-side partition choice for one topic
/// (`rd_kafka_msg_partitioner` without an explicit partition), as an
/// opaque heap handle: a NULL key (or an empty one under
/// `consistent_random`) goes to the topic's sticky partition, re-drawn at
/// random every `sticky.partitioning.linger.ms` or at once when it has no
/// leader (unless the partitioner is `random`); other keys go to the
/// partitioner. The state is behind a lock: shareable between threads.
pub struct pulsar_routing_librdkafka_producer {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_librdkafka_producer {
    type RustType = Mutex<LibrdkafkaProducer>;
}

impl pulsar_routing_librdkafka_producer {
    /// A topic handle with this partitioner and
    /// `sticky.partitioning.linger.ms` (see
    /// `pulsar_routing_librdkafka_default_sticky_linger_ms`; librdkafka's
    /// default is `consistent_random`,
    /// `PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM`).
    ///
    /// - `producer_out`: on success, receives the new producer, which the
    ///   caller owns and must release with
    ///   `pulsar_routing_librdkafka_producer_free`.
    ///
    /// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_LIBRDKAFKA_PARTITIONER` or
    /// `LIBRDKAFKA_STICKY_LINGER_OUT_OF_RANGE` (outside `0..900000`).
    /// Thread-safe. Allocates the producer.
    ///
    /// # Safety
    /// `producer_out` must be valid for writing a pointer.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_librdkafka_producer_new(
        partitioner: pulsar_routing_librdkafka_partitioner,
        sticky_linger_ms: i64,
        producer_out: *mut *mut pulsar_routing_librdkafka_producer,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let out = try_out!(producer_out);
            let partitioner = try_ok!(crate::kafka::partitioner_from_c(partitioner));
            let producer = try_ok!(LibrdkafkaProducer::new(partitioner, sticky_linger_ms));
            out.ok(to_boxed_mut_ptr::<Self>(Mutex::new(producer)))
        }
    }

    /// The partition of a message produced at `now_us`.
    ///
    /// - `key`, `len`: the key; **NULL (with `len` 0) is librdkafka's NULL
    ///   key**, which differs from a non-NULL empty key.
    /// - `num_partitions`: the topic's partition count, 1 to 2147483647.
    /// - `now_us`: librdkafka's monotonic clock (`rd_clock()`), in
    ///   microseconds.
    /// - `first`, `second`: the random draws, used only for a random
    ///   partition.
    /// - `available`, `available_len`: the partitions with a leader; NULL
    ///   (with length 0) means every partition.
    /// - `partition_out`: receives the partition on success.
    ///
    /// Returns `OK`, `NULL_PARAMETER` (`producer`, `partition_out`, or a
    /// NULL `key` or `available` with a non-zero length),
    /// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
    /// `PARTITION_COUNT_TOO_LARGE`, `LIBRDKAFKA_STICKY_PARTITION_UNASSIGNED`
    /// (no sticky partition drawn yet because `now_us` is within the linger
    /// of the clock's origin) or `LIBRDKAFKA_UNKNOWN_PARTITION` (the sticky
    /// partition is beyond a shrunk topic). Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `producer` must be a live producer from
    /// `pulsar_routing_librdkafka_producer_new`, a non-NULL `key` must point
    /// to `len` readable bytes, a non-NULL `available` to `available_len`
    /// readable `uint32_t`s, and `partition_out` must be valid for writing a
    /// `uint32_t`.
    #[unsafe(no_mangle)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe extern "C" fn pulsar_routing_librdkafka_producer_partition(
        producer: *const pulsar_routing_librdkafka_producer,
        key: *const u8,
        len: usize,
        num_partitions: i64,
        now_us: i64,
        first: u32,
        second: u32,
        available: *const u32,
        available_len: usize,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let producer = try_box_ref!(producer);
            let out = try_out!(partition_out);
            // SAFETY: the caller's contract on `key`.
            let key = try_ok!(unsafe { optional_slice(key, len) });
            // SAFETY: the caller's contract on `available`.
            let availability = availability(try_ok!(unsafe { optional_slice(available, available_len) }));
            let n = try_ok!(PartitionCount::from_i64(num_partitions));
            out.ok(try_ok!(lock(producer).partition(
                key,
                n,
                now_us,
                RdRandom { first, second },
                availability,
            )))
        }
    }

    /// The current sticky partition.
    ///
    /// - `drawn_out`: receives whether one was drawn.
    /// - `partition_out`: receives it when one was drawn; left unchanged
    ///   otherwise.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `producer` must be a live producer from
    /// `pulsar_routing_librdkafka_producer_new`, and the out-parameters
    /// valid for writing a `bool` and a `uint32_t`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_librdkafka_producer_sticky_partition(
        producer: *const pulsar_routing_librdkafka_producer,
        drawn_out: *mut bool,
        partition_out: *mut u32,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let producer = try_box_ref!(producer);
            let drawn = try_out!(drawn_out);
            let partition = try_out!(partition_out);
            put_drawn(drawn, lock(producer).sticky_partition(), |p| partition.write(p))
        }
    }

    /// The configured partitioner.
    ///
    /// - `partitioner_out`: receives a
    ///   `PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_*` value.
    ///
    /// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
    ///
    /// # Safety
    /// `producer` must be a live producer from
    /// `pulsar_routing_librdkafka_producer_new`, and `partitioner_out` valid
    /// for writing a `pulsar_routing_librdkafka_partitioner`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_librdkafka_producer_partitioner(
        producer: *const pulsar_routing_librdkafka_producer,
        partitioner_out: *mut pulsar_routing_librdkafka_partitioner,
    ) -> pulsar_routing_status {
        ffi_panic_boundary! {
            let producer = try_box_ref!(producer);
            let out = try_out!(partitioner_out);
            out.ok(crate::kafka::partitioner_to_c(lock(producer).partitioner()))
        }
    }

    /// Releases a producer. NULL is a no-op.
    ///
    /// No other thread may be using it, and it must not be used or freed
    /// again afterwards.
    ///
    /// # Safety
    /// `producer` must be NULL or a producer from
    /// `pulsar_routing_librdkafka_producer_new` that has not been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn pulsar_routing_librdkafka_producer_free(
        producer: *mut pulsar_routing_librdkafka_producer,
    ) {
        ffi_panic_boundary! {
            // SAFETY: the caller's contract on `producer`.
            unsafe { free_box(producer) }
        }
    }
}
