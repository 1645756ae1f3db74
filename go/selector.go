package pulsarrouting

/*
#include <stdlib.h>
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// Selector is one of the broker's Key_Shared consumer selectors: which
// consumer of a Key_Shared subscription receives a message. Three kinds:
// consistent hashing (the default, NewConsistentHashingSelector),
// AutoSplit (NewAutoSplitSelector) and exclusive sticky ranges
// (NewExclusiveSelector). Reads (Select, SelectSlot, Len, Assignments, ...)
// may run in any number of goroutines; Add, AddRanges and Remove take the
// selector to themselves. Close releases it (a finalizer frees a forgotten
// one, whenever the garbage collector runs).
type Selector struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_selector
}

// DefaultConsistentHashingPoints is the broker's points per consumer.
const DefaultConsistentHashingPoints = C.PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS

// ConsistentHashingRangeMax is the top slot of the default (PIP-379)
// dispatcher; ClassicConsistentHashingRangeMax that of the Classic one.
const (
	ConsistentHashingRangeMax        = C.PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX
	ClassicConsistentHashingRangeMax = C.PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX
)

// DefaultRangeSize is the broker's AutoSplit range size.
const DefaultRangeSize = C.PULSAR_ROUTING_DEFAULT_RANGE_SIZE

// SelectorKind is a selector's kind.
type SelectorKind uint32

// The kinds.
const (
	SelectorAutoSplit         SelectorKind = C.PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT
	SelectorConsistentHashing SelectorKind = C.PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING
	SelectorExclusive         SelectorKind = C.PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE
)

// String is "auto_split", "consistent_hashing" or "exclusive".
func (k SelectorKind) String() string {
	return staticName(C.pulsar_routing_selector_kind_name(C.pulsar_routing_selector_kind(k)), "SelectorKind", uint32(k))
}

// ParseSelectorKind parses a kind name.
func ParseSelectorKind(name string) (SelectorKind, error) {
	p, n := stringPtr(name)
	var out C.pulsar_routing_selector_kind
	if err := check(C.pulsar_routing_selector_kind_from_name(p, n, &out)); err != nil {
		return 0, err
	}
	return SelectorKind(out), nil
}

// KeyHashRange is the slots the kind hashes keys into with the broker's
// defaults.
func (k SelectorKind) KeyHashRange() (HashRange, error) {
	var r C.pulsar_routing_hash_range
	if err := check(C.pulsar_routing_selector_kind_key_hash_range(C.pulsar_routing_selector_kind(k), &r)); err != nil {
		return HashRange{}, err
	}
	return hashRangeFromC(r), nil
}

// HashRange is an inclusive range of slots.
type HashRange struct{ Start, End int32 }

func (r HashRange) c() C.pulsar_routing_hash_range {
	return C.pulsar_routing_hash_range{start: C.int32_t(r.Start), end: C.int32_t(r.End)}
}

func hashRangeFromC(r C.pulsar_routing_hash_range) HashRange {
	return HashRange{Start: int32(r.start), End: int32(r.end)}
}

// Assignment is a range of slots and its consumer.
type Assignment struct {
	Start, End int32
	Consumer   uint64
}

func assignments(c []C.pulsar_routing_assignment) []Assignment {
	out := make([]Assignment, len(c))
	for i, a := range c {
		out[i] = Assignment{Start: int32(a.start), End: int32(a.end), Consumer: uint64(a.consumer)}
	}
	return out
}

// Impact is what an add or remove moved (Java's ImpactedConsumersResult):
// the ranges that left their consumer and those a consumer gained, in slot
// order. In the broker, removed ranges of other consumers become draining
// hashes.
type Impact struct {
	Removed, Added []Assignment
}

// Empty tells an impact that moved nothing.
func (i Impact) Empty() bool { return len(i.Removed) == 0 && len(i.Added) == 0 }

// AutoSplitConfig sizes an AutoSplit selector.
type AutoSplitConfig struct {
	RangeSize    int32
	MaxConsumers uint32
}

// StorageWords is the number of 4-byte words the selector holds.
func (c AutoSplitConfig) StorageWords() (int, error) {
	var w C.size_t
	err := check(C.pulsar_routing_auto_split_config_storage_words(C.pulsar_routing_auto_split_config{
		range_size: C.int32_t(c.RangeSize), max_consumers: C.uint32_t(c.MaxConsumers)}, &w))
	return int(w), err
}

// ConsistentHashingConfig sizes a consistent-hashing selector.
type ConsistentHashingConfig struct {
	Points, RangeMax, MaxConsumers, NameBytes uint32
}

func (c ConsistentHashingConfig) toC() C.pulsar_routing_consistent_hashing_config {
	return C.pulsar_routing_consistent_hashing_config{points: C.uint32_t(c.Points), range_max: C.uint32_t(c.RangeMax),
		max_consumers: C.uint32_t(c.MaxConsumers), name_bytes: C.uint32_t(c.NameBytes)}
}

// StorageWords is the number of 4-byte words the selector holds.
func (c ConsistentHashingConfig) StorageWords() (int, error) {
	var w C.size_t
	err := check(C.pulsar_routing_consistent_hashing_config_storage_words(c.toC(), &w))
	return int(w), err
}

// ExclusiveConfig sizes an exclusive selector; Legacy picks the rules
// before apache/pulsar#24730.
type ExclusiveConfig struct {
	MaxConsumers, MaxRanges uint32
	Legacy                  bool
}

func (c ExclusiveConfig) toC() C.pulsar_routing_exclusive_config {
	mode := C.pulsar_routing_exclusive_mode(C.PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT)
	if c.Legacy {
		mode = C.PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730
	}
	return C.pulsar_routing_exclusive_config{max_consumers: C.uint32_t(c.MaxConsumers),
		max_ranges: C.uint32_t(c.MaxRanges), mode: mode}
}

// StorageWords is the number of 4-byte words the selector holds.
func (c ExclusiveConfig) StorageWords() (int, error) {
	var w C.size_t
	err := check(C.pulsar_routing_exclusive_config_storage_words(c.toC(), &w))
	return int(w), err
}

func newSelector(status C.pulsar_routing_status, h *C.pulsar_routing_selector) (*Selector, error) {
	if err := check(status); err != nil {
		return nil, err
	}
	s := &Selector{handle: h}
	runtime.SetFinalizer(s, (*Selector).Close)
	return s, nil
}

// NewConsistentHashingSelector builds an empty selector with points ring
// points per consumer over the slots [1, rangeMax]. Storage grows as
// consumers are added.
func NewConsistentHashingSelector(points, rangeMax uint32) (*Selector, error) {
	config := ConsistentHashingConfig{Points: points, RangeMax: rangeMax, MaxConsumers: 16, NameBytes: 16 * 32}
	var h *C.pulsar_routing_selector
	return newSelector(C.pulsar_routing_selector_new_consistent_hashing(config.toC(), &h), h)
}

// NewAutoSplitSelector builds an empty AutoSplit selector
// (HashRangeAutoSplitStickyKeyConsumerSelector) over [0, rangeSize - 1]:
// a new consumer takes the lower half of the biggest range. Storage grows
// as consumers are added.
func NewAutoSplitSelector(rangeSize int32) (*Selector, error) {
	var h *C.pulsar_routing_selector
	return newSelector(C.pulsar_routing_selector_new_auto_split(C.pulsar_routing_auto_split_config{
		range_size: C.int32_t(rangeSize), max_consumers: 16}, &h), h)
}

// NewExclusiveSelector builds an empty exclusive (sticky ranges) selector,
// the broker's STICKY mode; legacy picks the rules before
// apache/pulsar#24730. Storage grows as consumers are added.
func NewExclusiveSelector(legacy bool) (*Selector, error) {
	var h *C.pulsar_routing_selector
	config := ExclusiveConfig{MaxConsumers: 16, MaxRanges: 64, Legacy: legacy}
	return newSelector(C.pulsar_routing_selector_new_exclusive(config.toC(), &h), h)
}

var errSelectorClosed = &Error{Status: StatusNullParameter, Message: "selector is closed"}

// failure is the error of a failed add or remove, with Java's message
// (the selector's last error) where it has one.
func (s *Selector) failure(status C.pulsar_routing_status) error {
	if status == C.PULSAR_ROUTING_STATUS_OK {
		return nil
	}
	if status == C.PULSAR_ROUTING_STATUS_NULL_PARAMETER || status == C.PULSAR_ROUTING_STATUS_WRONG_SELECTOR_KIND {
		// Rejected before reaching the selector: its last error is an
		// older call's.
		return check(status)
	}
	return actionError(status, func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_selector_last_error_message(s.handle, buf, bufLen, written)
	})
}

// SelectorCapacity is the room a selector has: consumers, bytes of
// consumer names (consistent hashing) and declared ranges (exclusive).
type SelectorCapacity struct {
	MaxConsumers uint32
	NameBytes    uint32
	MaxRanges    uint32
}

// Capacity is the room the selector has now. Adds grow it on their own,
// by the one policy every binding shares.
func (s *Selector) Capacity() (SelectorCapacity, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return SelectorCapacity{}, errSelectorClosed
	}
	var c C.pulsar_routing_selector_capacity
	if err := check(C.pulsar_routing_selector_get_capacity(s.handle, &c)); err != nil {
		return SelectorCapacity{}, err
	}
	return SelectorCapacity{uint32(c.max_consumers), uint32(c.name_bytes), uint32(c.max_ranges)}, nil
}

// Reserve makes room ahead of time (never less than the selector has), so
// that the adds it covers allocate nothing.
func (s *Selector) Reserve(c SelectorCapacity) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == nil {
		return errSelectorClosed
	}
	return check(C.pulsar_routing_selector_reserve(s.handle, C.pulsar_routing_selector_capacity{
		max_consumers: C.uint32_t(c.MaxConsumers), name_bytes: C.uint32_t(c.NameBytes),
		max_ranges: C.uint32_t(c.MaxRanges),
	}))
}

// lastImpact is the impact of the last add or remove.
func (s *Selector) lastImpact() (Impact, error) {
	removed := make([]C.pulsar_routing_assignment, 8)
	added := make([]C.pulsar_routing_assignment, 8)
	for {
		var rw, aw C.size_t
		st := C.pulsar_routing_selector_last_impact(s.handle, &removed[0], C.size_t(len(removed)), &rw,
			&added[0], C.size_t(len(added)), &aw)
		if st == C.PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL {
			removed = make([]C.pulsar_routing_assignment, int(rw)+1)
			added = make([]C.pulsar_routing_assignment, int(aw)+1)
			continue
		}
		if err := check(st); err != nil {
			return Impact{}, err
		}
		return Impact{Removed: assignments(removed[:int(rw)]), Added: assignments(added[:int(aw)])}, nil
	}
}

// mutate runs an add or remove under the write lock and reads its impact.
func (s *Selector) mutate(op func() C.pulsar_routing_status) (Impact, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == nil {
		return Impact{}, errSelectorClosed
	}
	if err := s.failure(op()); err != nil {
		return Impact{}, err
	}
	return s.lastImpact()
}

// Add adds consumer with its name (consistent hashing's ring points hash
// the name; AutoSplit ignores it; an exclusive selector needs AddRanges).
// It fails, changing nothing, for a consumer id already present, with
// Java's message where the broker refuses the consumer.
func (s *Selector) Add(consumer uint64, name string) (Impact, error) {
	return s.mutate(func() C.pulsar_routing_status {
		p, n := stringPtr(name)
		st := C.pulsar_routing_selector_add_named(s.handle, C.uint64_t(consumer), p, n)
		runtime.KeepAlive(name)
		return st
	})
}

// AddConsumer adds a consumer without a name, as an AutoSplit selector
// takes it (the other kinds fail with StatusWrongSelectorKind).
func (s *Selector) AddConsumer(consumer uint64) (Impact, error) {
	return s.mutate(func() C.pulsar_routing_status {
		return C.pulsar_routing_selector_add(s.handle, C.uint64_t(consumer))
	})
}

// AddRanges adds a consumer with its declared sticky ranges to an
// exclusive selector, checked as the broker checks them. nil ranges is a
// consumer that sent no KeySharedMeta; a non-nil empty slice is an empty
// list.
func (s *Selector) AddRanges(consumer uint64, ranges []HashRange) (Impact, error) {
	cr := make([]C.pulsar_routing_hash_range, len(ranges)+1)
	for i, r := range ranges {
		cr[i] = r.c()
	}
	return s.mutate(func() C.pulsar_routing_status {
		p := &cr[0]
		if ranges == nil {
			p = nil
		}
		return C.pulsar_routing_selector_add_ranges(s.handle, C.uint64_t(consumer), p, C.size_t(len(ranges)))
	})
}

// Remove removes consumer; an unknown consumer is a no-op with an empty
// impact, as in the broker.
func (s *Selector) Remove(consumer uint64) (Impact, error) {
	return s.mutate(func() C.pulsar_routing_status {
		return C.pulsar_routing_selector_remove(s.handle, C.uint64_t(consumer))
	})
}

// read runs f under the read lock.
func (s *Selector) read(f func(h *C.pulsar_routing_selector) C.pulsar_routing_status) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return errSelectorClosed
	}
	return check(f(s.handle))
}

// selected maps NO_CONSUMER to ok == false.
func selected(st C.pulsar_routing_status, c C.uint64_t) (uint64, bool, error) {
	if st == C.PULSAR_ROUTING_STATUS_NO_CONSUMER {
		return 0, false, nil
	}
	if err := check(st); err != nil {
		return 0, false, err
	}
	return uint64(c), true, nil
}

// SelectSlot is the consumer owning a slot; ok is false when none does.
func (s *Selector) SelectSlot(slot uint32) (consumer uint64, ok bool, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return 0, false, errSelectorClosed
	}
	var c C.uint64_t
	return selected(C.pulsar_routing_selector_select(s.handle, C.uint32_t(slot), &c), c)
}

// Select is the consumer of a message's sticky key (its ordering key, or
// else its partition key, as the broker picks it).
func (s *Selector) Select(stickyKey []byte) (consumer uint64, ok bool, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return 0, false, errSelectorClosed
	}
	p, n := bytesPtr(stickyKey)
	var c C.uint64_t
	st := C.pulsar_routing_selector_select_key(s.handle, p, n, &c)
	runtime.KeepAlive(stickyKey)
	return selected(st, c)
}

// SelectMessage is the consumer of a message from its key fields.
func (s *Selector) SelectMessage(m MessageKeys) (consumer uint64, ok bool, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return 0, false, errSelectorClosed
	}
	var a cArena
	defer a.free()
	var c C.uint64_t
	return selected(C.pulsar_routing_selector_select_message(s.handle, a.messages([]MessageKeys{m}), &c), c)
}

// NoConsumer is what SelectKeys and SelectMessages write for a key no
// consumer owns.
const NoConsumer = ^uint64(0)

// SelectKeys is Select for many sticky keys.
func (s *Selector) SelectKeys(keys [][]byte) ([]uint64, error) {
	var a cArena
	defer a.free()
	arr := a.strs(keys)
	out := make([]C.uint64_t, len(keys)+1)
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		var w C.size_t
		return C.pulsar_routing_selector_select_keys(h, arr, C.size_t(len(keys)), C.uint64_t(NoConsumer), &out[0], C.size_t(len(out)), &w)
	})
	return uint64s(out[:len(keys)]), err
}

// SelectMessages is SelectMessage for many messages.
func (s *Selector) SelectMessages(messages []MessageKeys) ([]uint64, error) {
	var a cArena
	defer a.free()
	arr := a.messages(messages)
	out := make([]C.uint64_t, len(messages)+1)
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		var w C.size_t
		return C.pulsar_routing_selector_select_messages(h, arr, C.size_t(len(messages)), C.uint64_t(NoConsumer), &out[0], C.size_t(len(out)), &w)
	})
	return uint64s(out[:len(messages)]), err
}

func uint64s(c []C.uint64_t) []uint64 {
	out := make([]uint64, len(c))
	for i, v := range c {
		out[i] = uint64(v)
	}
	return out
}

// Len is the number of consumers.
func (s *Selector) Len() int {
	var n C.size_t
	if s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		return C.pulsar_routing_selector_len(h, &n)
	}) != nil {
		return 0
	}
	return int(n)
}

// Contains tells whether consumer is in the selector.
func (s *Selector) Contains(consumer uint64) bool {
	var out C.bool
	if s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		return C.pulsar_routing_selector_contains(h, C.uint64_t(consumer), &out)
	}) != nil {
		return false
	}
	return bool(out)
}

// Kind is the selector's kind.
func (s *Selector) Kind() (SelectorKind, error) {
	var k C.pulsar_routing_selector_kind
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		return C.pulsar_routing_selector_get_kind(h, &k)
	})
	return SelectorKind(k), err
}

// KeyHashRange is the slots the selector hashes sticky keys into.
func (s *Selector) KeyHashRange() (HashRange, error) {
	var r C.pulsar_routing_hash_range
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		return C.pulsar_routing_selector_key_hash_range(h, &r)
	})
	return hashRangeFromC(r), err
}

// NameIndex is a consistent-hashing consumer's name index; -1 when the
// selector has 0 points.
func (s *Selector) NameIndex(consumer uint64) (int64, error) {
	var i C.int64_t
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		return C.pulsar_routing_selector_name_index(h, C.uint64_t(consumer), &i)
	})
	return int64(i), err
}

// readAssignments reads a list of assignments under the read lock.
func (s *Selector) readAssignments(fill func(h *C.pulsar_routing_selector, buf *C.pulsar_routing_assignment, n C.size_t, w *C.size_t) C.pulsar_routing_status) ([]Assignment, error) {
	var out []C.pulsar_routing_assignment
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.pulsar_routing_assignment, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return fill(h, buf, n, w)
		})
		return statusOf(err)
	})
	return assignments(out), err
}

// Assignments is the selector's snapshot as the broker reports it
// (getKeyHashRangeAssignments), in slot order.
func (s *Selector) Assignments() ([]Assignment, error) {
	return s.readAssignments(func(h *C.pulsar_routing_selector, buf *C.pulsar_routing_assignment, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_selector_assignments(h, buf, n, w)
	})
}

// ConsumerRanges is every consumer's ranges as the broker's stats report
// them (getConsumerKeyHashRanges), in slot order.
func (s *Selector) ConsumerRanges() ([]Assignment, error) {
	return s.readAssignments(func(h *C.pulsar_routing_selector, buf *C.pulsar_routing_assignment, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_selector_consumer_ranges(h, buf, n, w)
	})
}

// RangesOf is one consumer's ranges, as ConsumerRanges reports them.
func (s *Selector) RangesOf(consumer uint64) ([]HashRange, error) {
	var out []C.pulsar_routing_hash_range
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.pulsar_routing_hash_range, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_selector_ranges_of(h, C.uint64_t(consumer), buf, n, w)
		})
		return statusOf(err)
	})
	ranges := make([]HashRange, len(out))
	for i, r := range out {
		ranges[i] = hashRangeFromC(r)
	}
	return ranges, err
}

// RingPoints is a consistent-hashing consumer's ring points, for point
// indexes 0 to points - 1.
func (s *Selector) RingPoints(consumer uint64) ([]uint32, error) {
	var out []C.uint32_t
	err := s.read(func(h *C.pulsar_routing_selector) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.uint32_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_selector_ring_points(h, C.uint64_t(consumer), buf, n, w)
		})
		return statusOf(err)
	})
	return uint32s(out), err
}

// Close frees the selector. Calling it again does nothing.
func (s *Selector) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle != nil {
		C.pulsar_routing_selector_free(s.handle)
		s.handle = nil
		runtime.SetFinalizer(s, nil)
	}
}

// cArena holds copies in C memory of byte strings and the structs that
// point to them: the library reads arrays of pointers, and cgo forbids Go
// memory that holds Go pointers there.
type cArena struct{ ptrs []unsafe.Pointer }

func (a *cArena) alloc(n int) unsafe.Pointer {
	p := C.calloc(C.size_t(n+1), 1)
	a.ptrs = append(a.ptrs, p)
	return p
}

// str copies b; nil stays {NULL, 0}.
func (a *cArena) str(b []byte) C.pulsar_routing_str {
	if b == nil {
		return C.pulsar_routing_str{}
	}
	p := a.alloc(len(b))
	copy(unsafe.Slice((*byte)(p), len(b)), b)
	return C.pulsar_routing_str{data: (*C.uint8_t)(p), len: C.size_t(len(b))}
}

// strs copies keys (nil is an empty key) into a C array.
func (a *cArena) strs(keys [][]byte) *C.pulsar_routing_str {
	arr := unsafe.Slice((*C.pulsar_routing_str)(a.alloc(len(keys)*int(unsafe.Sizeof(C.pulsar_routing_str{})))), len(keys)+1)
	for i, k := range keys {
		if k == nil {
			k = []byte{}
		}
		arr[i] = a.str(k)
	}
	return &arr[0]
}

// messages copies messages' key fields into a C array.
func (a *cArena) messages(ms []MessageKeys) *C.pulsar_routing_message_keys {
	arr := unsafe.Slice((*C.pulsar_routing_message_keys)(a.alloc(len(ms)*int(unsafe.Sizeof(C.pulsar_routing_message_keys{})))), len(ms)+1)
	for i, m := range ms {
		arr[i] = C.pulsar_routing_message_keys{
			ordering_key: a.str(m.OrderingKey), partition_key: a.str(m.PartitionKey),
			producer_name: a.str(m.ProducerName), sequence_id: C.uint64_t(m.SequenceID),
			partition_key_b64_encoded: C.bool(m.PartitionKeyB64Encoded), has_sequence_id: C.bool(m.HasSequenceID),
		}
	}
	return &arr[0]
}

func (a *cArena) free() {
	for _, p := range a.ptrs {
		C.free(p)
	}
	a.ptrs = nil
}
