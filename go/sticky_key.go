package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
)

// SlotOf is the slot of raw sticky-key bytes in the key hash range r:
// murmur3_31(key) % (end - start + 1) + start, 0 becoming 1.
func SlotOf(key []byte, r HashRange) (uint32, error) {
	p, n := bytesPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_slot_of(p, n, r.c(), &out))
	runtime.KeepAlive(key)
	return uint32(out), err
}

// SlotsOf is SlotOf for many keys.
func SlotsOf(keys [][]byte, r HashRange) ([]uint32, error) {
	var a cArena
	defer a.free()
	out := make([]C.uint32_t, len(keys)+1)
	var w C.size_t
	if err := check(C.pulsar_routing_slots_of(a.strs(keys), C.size_t(len(keys)), r.c(), &out[0], C.size_t(len(out)), &w)); err != nil {
		return nil, err
	}
	return uint32s(out[:int(w)]), nil
}

// StickyKeyHash is the slot of raw sticky-key bytes under a selector
// kind's default range (Python's sticky_key_hash).
func StickyKeyHash(key []byte, kind SelectorKind) (uint32, error) {
	p, n := bytesPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_sticky_key_hash(p, n, C.pulsar_routing_selector_kind(kind), &out))
	runtime.KeepAlive(key)
	return uint32(out), err
}

// RingPoint is ring point i of a consistent-hashing consumer named name
// with name index nameIndex, in r (Java's
// calculateHashForConsumerAndIndex).
func RingPoint(name []byte, nameIndex, i uint32, r HashRange) (uint32, error) {
	p, n := bytesPtr(name)
	var out C.uint32_t
	err := check(C.pulsar_routing_ring_point(p, n, C.uint32_t(nameIndex), C.uint32_t(i), r.c(), &out))
	runtime.KeepAlive(name)
	return uint32(out), err
}

// ValidateStickyRanges checks a consumer's sticky ranges as the Java
// client does before it subscribes; the error carries Java's message.
func ValidateStickyRanges(ranges []HashRange) error {
	cr := make([]C.pulsar_routing_hash_range, len(ranges)+1)
	for i, r := range ranges {
		cr[i] = r.c()
	}
	st := C.pulsar_routing_validate_sticky_ranges(&cr[0], C.size_t(len(ranges)))
	if st == C.PULSAR_ROUTING_STATUS_OK {
		return nil
	}
	return actionError(st, func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_validate_sticky_ranges_error_message(&cr[0], C.size_t(len(ranges)), buf, bufLen, written)
	})
}

// KeySharedErrorClass is the Java exception class the broker or client
// throws for a Key_Shared status ("" where Java has none).
func KeySharedErrorClass(s Status) string {
	name := C.pulsar_routing_key_shared_error_class(C.uint32_t(s))
	if name == nil {
		return ""
	}
	return C.GoString(name)
}

// MessageKeys are the key fields of a message's metadata, as the broker
// reads them to find its sticky key: the ordering key, else the partition
// key (Base64-decoded when PartitionKeyB64Encoded, which keyBytes sets),
// else ProducerName + "-" + SequenceID (when both are set), else
// NONE_KEY. A nil field is absent; a non-nil empty one is an empty key.
type MessageKeys struct {
	OrderingKey, PartitionKey, ProducerName []byte
	SequenceID                              uint64
	PartitionKeyB64Encoded, HasSequenceID   bool
}

// withKeys runs f with m in C memory.
func (m MessageKeys) withKeys(f func(k *C.pulsar_routing_message_keys) C.pulsar_routing_status) C.pulsar_routing_status {
	var a cArena
	defer a.free()
	return f(a.messages([]MessageKeys{m}))
}

// Check tells whether the broker can decode the sticky key: an error (with
// Java's message) for a Base64 partition key Java's decoder rejects, which
// makes the broker hash NONE_KEY instead.
func (m MessageKeys) Check() error {
	var a cArena
	defer a.free()
	k := a.messages([]MessageKeys{m})
	st := C.pulsar_routing_message_keys_check(k)
	if st == C.PULSAR_ROUTING_STATUS_OK {
		return nil
	}
	return actionError(st, func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_message_keys_error_message(k, buf, bufLen, written)
	})
}

// StickyKey is the bytes the broker hashes.
func (m MessageKeys) StickyKey() ([]byte, error) {
	var out []byte
	st := m.withKeys(func(k *C.pulsar_routing_message_keys) C.pulsar_routing_status {
		s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_message_keys_sticky_key(k, buf, bufLen, written)
		})
		out = []byte(s)
		return statusOf(err)
	})
	if err := check(st); err != nil {
		return nil, err
	}
	return out, nil
}

// Murmur3 is Pulsar's 31-bit Murmur3 of the sticky key.
func (m MessageKeys) Murmur3() (uint32, error) {
	var out C.uint32_t
	err := check(m.withKeys(func(k *C.pulsar_routing_message_keys) C.pulsar_routing_status {
		return C.pulsar_routing_message_keys_murmur3(k, &out)
	}))
	return uint32(out), err
}

// Slot is the slot of the sticky key in the key hash range r.
func (m MessageKeys) Slot(r HashRange) (uint32, error) {
	var out C.uint32_t
	err := check(m.withKeys(func(k *C.pulsar_routing_message_keys) C.pulsar_routing_status {
		return C.pulsar_routing_message_keys_slot(k, r.c(), &out)
	}))
	return uint32(out), err
}
