package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
	"sync"
)

// Selector is the broker's consistent-hashing Key_Shared consumer selector
// (ConsistentHashingStickyKeyConsumerSelector, the default): which
// consumer of a Key_Shared subscription receives a message. Reads (Select,
// SelectSlot, Len) may run in any number of goroutines; Add and Remove
// take the selector to themselves. Close releases it (a finalizer frees a
// forgotten one, whenever the garbage collector runs).
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

// NewConsistentHashingSelector builds an empty selector with points ring
// points per consumer over the slots [1, rangeMax]. Storage grows as
// consumers are added.
func NewConsistentHashingSelector(points, rangeMax uint32) (*Selector, error) {
	config := C.pulsar_routing_consistent_hashing_config{
		points:        C.uint32_t(points),
		range_max:     C.uint32_t(rangeMax),
		max_consumers: 16,
		name_bytes:    16 * 32,
	}
	var h *C.pulsar_routing_selector
	if err := check(C.pulsar_routing_selector_new_consistent_hashing(config, &h)); err != nil {
		return nil, err
	}
	s := &Selector{handle: h}
	runtime.SetFinalizer(s, (*Selector).Close)
	return s, nil
}

var errSelectorClosed = &Error{Status: StatusNullParameter, Message: "selector is closed"}

// Add adds consumer with its name (the ring points hash the name). It
// fails, changing nothing, for a consumer id already present.
func (s *Selector) Add(consumer uint64, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == nil {
		return errSelectorClosed
	}
	for {
		p, n := stringPtr(name)
		st := C.pulsar_routing_selector_add_named(s.handle, C.uint64_t(consumer), p, n)
		runtime.KeepAlive(name)
		if st != C.PULSAR_ROUTING_STATUS_CONSUMER_CAPACITY && st != C.PULSAR_ROUTING_STATUS_NAME_CAPACITY {
			return check(st)
		}
		// Full: move into twice the storage and try again.
		var capacity C.pulsar_routing_selector_capacity
		if err := check(C.pulsar_routing_selector_get_capacity(s.handle, &capacity)); err != nil {
			return err
		}
		if st == C.PULSAR_ROUTING_STATUS_CONSUMER_CAPACITY {
			capacity.max_consumers = capacity.max_consumers*2 + 1
		} else {
			capacity.name_bytes = capacity.name_bytes*2 + C.uint32_t(len(name))
		}
		if err := check(C.pulsar_routing_selector_reserve(s.handle, capacity)); err != nil {
			return err
		}
	}
}

// Remove removes consumer; an unknown consumer is a no-op, as in the
// broker.
func (s *Selector) Remove(consumer uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle != nil {
		C.pulsar_routing_selector_remove(s.handle, C.uint64_t(consumer))
	}
}

// SelectSlot is the consumer owning a slot; ok is false when none does
// (an empty selector).
func (s *Selector) SelectSlot(slot uint32) (consumer uint64, ok bool, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return 0, false, errSelectorClosed
	}
	var c C.uint64_t
	st := C.pulsar_routing_selector_select(s.handle, C.uint32_t(slot), &c)
	if st == C.PULSAR_ROUTING_STATUS_NO_CONSUMER {
		return 0, false, nil
	}
	if err := check(st); err != nil {
		return 0, false, err
	}
	return uint64(c), true, nil
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
	if st == C.PULSAR_ROUTING_STATUS_NO_CONSUMER {
		return 0, false, nil
	}
	if err := check(st); err != nil {
		return 0, false, err
	}
	return uint64(c), true, nil
}

// Len is the number of consumers.
func (s *Selector) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.handle == nil {
		return 0
	}
	var n C.size_t
	C.pulsar_routing_selector_len(s.handle, &n)
	return int(n)
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
