package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// An aligned empty array for non-NULL empty uint32 lists.
var emptyWords [1]uint32

// wordsPtr is s for C; nil is NULL, a non-nil empty slice a non-NULL
// pointer (the library tells "none given" from "an empty list").
func wordsPtr(s []uint32) (*C.uint32_t, C.size_t) {
	if s == nil {
		return nil, 0
	}
	if len(s) == 0 {
		return (*C.uint32_t)(unsafe.Pointer(&emptyWords[0])), 0
	}
	return (*C.uint32_t)(unsafe.Pointer(&s[0])), C.size_t(len(s))
}

// nullableBytes is a Kafka key for C: nil is the null key, which differs
// from a non-nil empty key.
func nullableBytes(key []byte) (*C.uint8_t, C.size_t) {
	if key == nil {
		return nil, 0
	}
	return bytesPtr(key)
}

// KafkaMurmur2 is Kafka's Utils.murmur2 (seed 0x9747b28c), the unsigned
// bits of Java's int.
func KafkaMurmur2(data []byte) uint32 {
	return hash32(data, func(p *C.uint8_t, n C.size_t, out *C.uint32_t) C.pulsar_routing_status {
		return C.pulsar_routing_kafka_murmur2(p, n, out)
	})
}

// KafkaFNV1a is 32-bit FNV-1a, as librdkafka's fnv1a partitioner (and
// Sarama) compute it.
func KafkaFNV1a(data []byte) uint32 {
	return hash32(data, func(p *C.uint8_t, n C.size_t, out *C.uint32_t) C.pulsar_routing_status {
		return C.pulsar_routing_kafka_fnv1a(p, n, out)
	})
}

// KafkaToPositive is Kafka's Utils.toPositive.
func KafkaToPositive(x uint32) uint32 { return kafkaToPositive(x) }

// KafkaPartitionForKey is the partition the Java KafkaProducer (3.3+)
// gives a record with key: toPositive(murmur2(key)) % numPartitions.
func KafkaPartitionForKey(key []byte, numPartitions int) (int, error) {
	p, n := bytesPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_kafka_partition_for_key(p, n, C.int64_t(numPartitions), &out))
	runtime.KeepAlive(key)
	return int(out), err
}

// KafkaMurmur2Hasher streams KafkaMurmur2 over a key whose total length is
// known up front (MurmurHash2 seeds with it). A copy forks the stream.
type KafkaMurmur2Hasher struct {
	state C.pulsar_routing_kafka_murmur2_hasher
}

// NewKafkaMurmur2Hasher is a hasher for a key of exactly totalLen bytes.
func NewKafkaMurmur2Hasher(totalLen uint64) *KafkaMurmur2Hasher {
	h := &KafkaMurmur2Hasher{}
	C.pulsar_routing_kafka_murmur2_hasher_init(&h.state, C.uint64_t(totalLen))
	return h
}

// Write feeds data; it never fails (io.Writer).
func (h *KafkaMurmur2Hasher) Write(data []byte) (int, error) {
	p, n := bytesPtr(data)
	C.pulsar_routing_kafka_murmur2_hasher_update(&h.state, p, n)
	runtime.KeepAlive(data)
	return len(data), nil
}

// Sum32 is the hash once exactly the announced number of bytes were
// written (else StatusKafkaMurmur2LengthMismatch).
func (h *KafkaMurmur2Hasher) Sum32() (uint32, error) {
	var out C.uint32_t
	if err := check(C.pulsar_routing_kafka_murmur2_hasher_finalize(&h.state, &out)); err != nil {
		return 0, err
	}
	return uint32(out), nil
}

// KafkaPartitionLoadStats is BuiltInPartitioner.updatePartitionLoadStats:
// it turns the first length queue sizes into the cumulative frequency table
// in place, and says whether adaptive partitioning stays on.
func KafkaPartitionLoadStats(queueSizes []int32, partitionIDs []uint32, length int) (bool, error) {
	qp, qn := int32sPtr(queueSizes)
	pp, pn := wordsPtr(partitionIDs)
	if pp == nil {
		pp = (*C.uint32_t)(unsafe.Pointer(&emptyWords[0]))
	}
	var enabled C.bool
	err := check(C.pulsar_routing_kafka_partition_load_stats(qp, qn, pp, pn, C.size_t(length), &enabled))
	runtime.KeepAlive(queueSizes)
	runtime.KeepAlive(partitionIDs)
	return bool(enabled), err
}

var emptyInt32s [1]int32

func int32sPtr(s []int32) (*C.int32_t, C.size_t) {
	if len(s) == 0 {
		return (*C.int32_t)(unsafe.Pointer(&emptyInt32s[0])), 0
	}
	return (*C.int32_t)(unsafe.Pointer(&s[0])), C.size_t(len(s))
}

// StickyChoice is what the Java client reads when it draws a new sticky
// partition.
type StickyChoice struct {
	// Random is the random number drawn.
	Random uint32
	// Available: the partitions with a leader, in metadata order; nil is
	// every partition, a non-nil empty slice none (then all are drawn
	// from, as Java does).
	Available []uint32
	// QueueSizes, PartitionIDs, LoadLength: adaptive partitioning's load
	// statistics; nil for none. QueueSizes is a work array that every call
	// given it rewrites: pass fresh sizes each time.
	QueueSizes   []int32
	PartitionIDs []uint32
	LoadLength   int
}

// c is the choice for one C call; the slices stay reachable through ch.
func (ch *StickyChoice) c() C.pulsar_routing_kafka_sticky_choice {
	ap, an := wordsPtr(ch.Available)
	var qp *C.int32_t
	var qn C.size_t
	if ch.QueueSizes != nil {
		qp, qn = int32sPtr(ch.QueueSizes)
	}
	pp, pn := wordsPtr(ch.PartitionIDs)
	return C.pulsar_routing_kafka_sticky_choice{
		random: C.uint32_t(ch.Random), available: ap, available_len: an,
		queue_sizes: qp, queue_sizes_len: qn, partition_ids: pp, partition_ids_len: pn,
		load_length: C.size_t(ch.LoadLength),
	}
}

// KafkaBuiltInPartitioner is the Java client's BuiltInPartitioner (sticky
// partitioning of keyless records). Safe for concurrent use; Close
// releases it.
type KafkaBuiltInPartitioner struct {
	h handle[*C.pulsar_routing_kafka_built_in_partitioner]
}

func newKafkaBuiltIn(status C.pulsar_routing_status, h *C.pulsar_routing_kafka_built_in_partitioner) (*KafkaBuiltInPartitioner, error) {
	if err := check(status); err != nil {
		return nil, err
	}
	p := &KafkaBuiltInPartitioner{}
	p.h.init(h, "partitioner")
	runtime.SetFinalizer(p, (*KafkaBuiltInPartitioner).Close)
	return p, nil
}

// NewKafkaBuiltInPartitioner is new BuiltInPartitioner(..., stickyBatchSize):
// StatusKafkaInvalidStickyBatchSize below 1.
func NewKafkaBuiltInPartitioner(stickyBatchSize int32) (*KafkaBuiltInPartitioner, error) {
	var h *C.pulsar_routing_kafka_built_in_partitioner
	s := C.pulsar_routing_kafka_built_in_partitioner_new(C.int32_t(stickyBatchSize), &h)
	return newKafkaBuiltIn(s, h)
}

// KafkaBuiltInPartitionerForBatchSize is the partitioner KafkaProducer
// builds from batch.size: any value is accepted (max(1, batchSize)).
func KafkaBuiltInPartitionerForBatchSize(batchSize int32) (*KafkaBuiltInPartitioner, error) {
	var h *C.pulsar_routing_kafka_built_in_partitioner
	s := C.pulsar_routing_kafka_built_in_partitioner_for_batch_size(C.int32_t(batchSize), &h)
	return newKafkaBuiltIn(s, h)
}

// PeekPartition is peekCurrentPartitionInfo: the partition of the next
// keyless record, drawn with choice if none was drawn yet.
func (p *KafkaBuiltInPartitioner) PeekPartition(numPartitions int, choice StickyChoice) (int, error) {
	var out C.uint32_t
	err := p.h.use(func(h *C.pulsar_routing_kafka_built_in_partitioner) error {
		return check(C.pulsar_routing_kafka_built_in_partitioner_peek_partition(h, C.int64_t(numPartitions), choice.c(), &out))
	})
	runtime.KeepAlive(&choice)
	return int(out), err
}

// UpdatePartitionInfo is updatePartitionInfo after a keyless record of
// appendedBytes was appended: switched tells whether it drew partition.
func (p *KafkaBuiltInPartitioner) UpdatePartitionInfo(appendedBytes int32, enableSwitch bool, numPartitions int, choice StickyChoice) (switched bool, partition int, err error) {
	var sw C.bool
	var out C.uint32_t
	err = p.h.use(func(h *C.pulsar_routing_kafka_built_in_partitioner) error {
		return check(C.pulsar_routing_kafka_built_in_partitioner_update_partition_info(h, C.int32_t(appendedBytes),
			C.bool(enableSwitch), C.int64_t(numPartitions), choice.c(), &sw, &out))
	})
	runtime.KeepAlive(&choice)
	if err != nil || !bool(sw) {
		return false, 0, err
	}
	return true, int(out), nil
}

// StickyBatchSize is the byte threshold for switching.
func (p *KafkaBuiltInPartitioner) StickyBatchSize() (int32, error) {
	var out C.int32_t
	err := p.h.use(func(h *C.pulsar_routing_kafka_built_in_partitioner) error {
		return check(C.pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(h, &out))
	})
	return int32(out), err
}

// stickyCurrent reads a sticky partitioner's current partition.
func stickyCurrent(read func(drawn *C.bool, partition *C.uint32_t, bytes *C.int32_t) error) (partition int, producedBytes int32, drawn bool, err error) {
	var d C.bool
	var part C.uint32_t
	var bytes C.int32_t
	err = read(&d, &part, &bytes)
	return int(part), int32(bytes), bool(d), err
}

// Current is the sticky partition and the bytes produced to it; drawn is
// false before the first draw.
func (p *KafkaBuiltInPartitioner) Current() (partition int, producedBytes int32, drawn bool, err error) {
	return stickyCurrent(func(d *C.bool, part *C.uint32_t, bytes *C.int32_t) error {
		return p.h.use(func(h *C.pulsar_routing_kafka_built_in_partitioner) error {
			return check(C.pulsar_routing_kafka_built_in_partitioner_current(h, d, part, bytes))
		})
	})
}

// Close frees the partitioner. Calling it again does nothing.
func (p *KafkaBuiltInPartitioner) Close() {
	if p.h.free(func(h *C.pulsar_routing_kafka_built_in_partitioner) {
		C.pulsar_routing_kafka_built_in_partitioner_free(h)
	}) {
		runtime.SetFinalizer(p, nil)
	}
}

// KafkaJavaClientPartitioner is the Java KafkaProducer's partitioning as a
// whole: keyed records by murmur2, keyless ones sticky. Safe for concurrent
// use; Close releases it.
type KafkaJavaClientPartitioner struct {
	h handle[*C.pulsar_routing_kafka_java_client_partitioner]
}

// NewKafkaJavaClientPartitioner is a producer with batch.size (clamped to
// at least 1) and partitioner.ignore.keys.
func NewKafkaJavaClientPartitioner(batchSize int32, ignoreKeys bool) (*KafkaJavaClientPartitioner, error) {
	var h *C.pulsar_routing_kafka_java_client_partitioner
	if err := check(C.pulsar_routing_kafka_java_client_partitioner_new(C.int32_t(batchSize), C.bool(ignoreKeys), &h)); err != nil {
		return nil, err
	}
	p := &KafkaJavaClientPartitioner{}
	p.h.init(h, "partitioner")
	runtime.SetFinalizer(p, (*KafkaJavaClientPartitioner).Close)
	return p, nil
}

// Append is the partition a record is appended to; key nil is a null key
// (keyless), a non-nil empty key is a key.
func (p *KafkaJavaClientPartitioner) Append(key []byte, appendedBytes int32, enableSwitch bool, numPartitions int, choice StickyChoice) (int, error) {
	var out C.uint32_t
	err := p.h.use(func(h *C.pulsar_routing_kafka_java_client_partitioner) error {
		kp, kn := nullableBytes(key)
		return check(C.pulsar_routing_kafka_java_client_partitioner_append(h, kp, kn, C.int32_t(appendedBytes),
			C.bool(enableSwitch), C.int64_t(numPartitions), choice.c(), &out))
	})
	runtime.KeepAlive(key)
	runtime.KeepAlive(&choice)
	return int(out), err
}

// Current is the sticky partition and the bytes produced to it.
func (p *KafkaJavaClientPartitioner) Current() (partition int, producedBytes int32, drawn bool, err error) {
	return stickyCurrent(func(d *C.bool, part *C.uint32_t, bytes *C.int32_t) error {
		return p.h.use(func(h *C.pulsar_routing_kafka_java_client_partitioner) error {
			return check(C.pulsar_routing_kafka_java_client_partitioner_current(h, d, part, bytes))
		})
	})
}

// Close frees the partitioner. Calling it again does nothing.
func (p *KafkaJavaClientPartitioner) Close() {
	if p.h.free(func(h *C.pulsar_routing_kafka_java_client_partitioner) {
		C.pulsar_routing_kafka_java_client_partitioner_free(h)
	}) {
		runtime.SetFinalizer(p, nil)
	}
}

// LibrdkafkaPartitioner is librdkafka's partitioner topic property.
type LibrdkafkaPartitioner uint32

// librdkafka's partitioners (its default is consistent_random).
const (
	LibrdkafkaRandom           LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_RANDOM
	LibrdkafkaConsistent       LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT
	LibrdkafkaConsistentRandom LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM
	LibrdkafkaMurmur2          LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2
	LibrdkafkaMurmur2Random    LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2_RANDOM
	LibrdkafkaFNV1a            LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A
	LibrdkafkaFNV1aRandom      LibrdkafkaPartitioner = C.PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A_RANDOM
)

// String is the property value, e.g. "murmur2_random".
func (p LibrdkafkaPartitioner) String() string {
	return staticName(C.pulsar_routing_librdkafka_partitioner_name(C.pulsar_routing_librdkafka_partitioner(p)), "LibrdkafkaPartitioner", uint32(p))
}

// ParseLibrdkafkaPartitioner parses a partitioner property value.
func ParseLibrdkafkaPartitioner(name string) (LibrdkafkaPartitioner, error) {
	p, n := stringPtr(name)
	var out C.pulsar_routing_librdkafka_partitioner
	if err := check(C.pulsar_routing_librdkafka_partitioner_from_name(p, n, &out)); err != nil {
		return 0, err
	}
	return LibrdkafkaPartitioner(out), nil
}

// PartitionForKey is the partition the partitioner computes for key
// without randomness; where it picks at random instead the error is
// StatusLibrdkafkaRandomPartition. key nil is librdkafka's NULL key.
func (p LibrdkafkaPartitioner) PartitionForKey(key []byte, numPartitions int) (int, error) {
	kp, kn := nullableBytes(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_librdkafka_partition_for_key(C.pulsar_routing_librdkafka_partitioner(p), kp, kn,
		C.int64_t(numPartitions), &out))
	runtime.KeepAlive(key)
	return int(out), err
}

// Partition is the partition with the random draw given, for a topic whose
// partitions all have a leader.
func (p LibrdkafkaPartitioner) Partition(key []byte, numPartitions int, random uint32) (int, error) {
	kp, kn := nullableBytes(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_librdkafka_partition(C.pulsar_routing_librdkafka_partitioner(p), kp, kn,
		C.int64_t(numPartitions), C.uint32_t(random), &out))
	runtime.KeepAlive(key)
	return int(out), err
}

// PartitionWithAvailability is the partition with both random draws and
// the partitions that have a leader (nil: every partition).
func (p LibrdkafkaPartitioner) PartitionWithAvailability(key []byte, numPartitions int, first, second uint32, available []uint32) (int, error) {
	kp, kn := nullableBytes(key)
	ap, an := wordsPtr(available)
	var out C.uint32_t
	err := check(C.pulsar_routing_librdkafka_partition_with_availability(C.pulsar_routing_librdkafka_partitioner(p), kp, kn,
		C.int64_t(numPartitions), C.uint32_t(first), C.uint32_t(second), ap, an, &out))
	runtime.KeepAlive(key)
	runtime.KeepAlive(available)
	return int(out), err
}

// LibrdkafkaRandomPartition is rd_kafka_msg_partitioner_random: first %
// n, or second % n when that partition has no leader (available nil:
// every partition has one).
func LibrdkafkaRandomPartition(numPartitions int, first, second uint32, available []uint32) (int, error) {
	ap, an := wordsPtr(available)
	var out C.uint32_t
	err := check(C.pulsar_routing_librdkafka_random_partition(C.int64_t(numPartitions), C.uint32_t(first),
		C.uint32_t(second), ap, an, &out))
	runtime.KeepAlive(available)
	return int(out), err
}

// LibrdkafkaDefaultStickyLingerMs is sticky.partitioning.linger.ms when the
// application did not set it: min(900000, (int)(2 * lingerMs)).
func LibrdkafkaDefaultStickyLingerMs(lingerMs float64) int64 {
	var out C.int64_t
	C.pulsar_routing_librdkafka_default_sticky_linger_ms(C.double(lingerMs), &out)
	return int64(out)
}

// LibrdkafkaProducer is a librdkafka topic handle's partitioning, sticky
// keyless state included. Safe for concurrent use; Close releases it.
type LibrdkafkaProducer struct {
	h handle[*C.pulsar_routing_librdkafka_producer]
}

// NewLibrdkafkaProducer is a topic with the partitioner and
// sticky.partitioning.linger.ms.
func NewLibrdkafkaProducer(partitioner LibrdkafkaPartitioner, stickyLingerMs int64) (*LibrdkafkaProducer, error) {
	var h *C.pulsar_routing_librdkafka_producer
	if err := check(C.pulsar_routing_librdkafka_producer_new(C.pulsar_routing_librdkafka_partitioner(partitioner),
		C.int64_t(stickyLingerMs), &h)); err != nil {
		return nil, err
	}
	p := &LibrdkafkaProducer{}
	p.h.init(h, "producer")
	runtime.SetFinalizer(p, (*LibrdkafkaProducer).Close)
	return p, nil
}

// Partition is the partition of a message produced at nowUs (librdkafka's
// monotonic clock); key nil is the NULL key, available nil every
// partition.
func (p *LibrdkafkaProducer) Partition(key []byte, numPartitions int, nowUs int64, first, second uint32, available []uint32) (int, error) {
	var out C.uint32_t
	err := p.h.use(func(h *C.pulsar_routing_librdkafka_producer) error {
		kp, kn := nullableBytes(key)
		ap, an := wordsPtr(available)
		return check(C.pulsar_routing_librdkafka_producer_partition(h, kp, kn, C.int64_t(numPartitions),
			C.int64_t(nowUs), C.uint32_t(first), C.uint32_t(second), ap, an, &out))
	})
	runtime.KeepAlive(key)
	runtime.KeepAlive(available)
	return int(out), err
}

// Partitioner is the configured partitioner.
func (p *LibrdkafkaProducer) Partitioner() (LibrdkafkaPartitioner, error) {
	var out C.pulsar_routing_librdkafka_partitioner
	err := p.h.use(func(h *C.pulsar_routing_librdkafka_producer) error {
		return check(C.pulsar_routing_librdkafka_producer_partitioner(h, &out))
	})
	return LibrdkafkaPartitioner(out), err
}

// StickyPartition is the current sticky partition; drawn is false before
// one was drawn.
func (p *LibrdkafkaProducer) StickyPartition() (partition int, drawn bool, err error) {
	partition, _, drawn, err = stickyCurrent(func(d *C.bool, part *C.uint32_t, _ *C.int32_t) error {
		return p.h.use(func(h *C.pulsar_routing_librdkafka_producer) error {
			return check(C.pulsar_routing_librdkafka_producer_sticky_partition(h, d, part))
		})
	})
	return partition, drawn, err
}

// Close frees the producer. Calling it again does nothing.
func (p *LibrdkafkaProducer) Close() {
	if p.h.free(func(h *C.pulsar_routing_librdkafka_producer) { C.pulsar_routing_librdkafka_producer_free(h) }) {
		runtime.SetFinalizer(p, nil)
	}
}
