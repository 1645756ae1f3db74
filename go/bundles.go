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

func (b BundleRange) c() C.pulsar_routing_bundle_range {
	return C.pulsar_routing_bundle_range{lower: C.int64_t(b.Lower), upper: C.int64_t(b.Upper)}
}

func bundleFromC(r C.pulsar_routing_bundle_range) BundleRange {
	return BundleRange{Lower: int64(r.lower), Upper: int64(r.upper)}
}

// ParseBundleRange parses "lo_hi" as the broker's admin API does (Java's
// Long.decode of each bound).
func ParseBundleRange(text string) (BundleRange, error) {
	p, n := stringPtr(text)
	var r C.pulsar_routing_bundle_range
	if err := check(C.pulsar_routing_bundle_range_parse(p, n, &r)); err != nil {
		return BundleRange{}, err
	}
	return bundleFromC(r), nil
}

// Includes is Java's NamespaceBundle.includes(hash).
func (b BundleRange) Includes(hash uint32) (bool, error) {
	var out C.bool
	err := check(C.pulsar_routing_bundle_range_includes(b.c(), C.uint32_t(hash), &out))
	return bool(out), err
}

// CanSplit is Java's canSplitBundle: the bounds are more than 1 apart.
func (b BundleRange) CanSplit() (bool, error) {
	var out C.bool
	err := check(C.pulsar_routing_bundle_range_can_split(b.c(), &out))
	return bool(out), err
}

// Key is the bundle's key, "namespace/range" (Java's
// NamespaceBundle.toString()).
func (b BundleRange) Key(namespace string) (string, error) {
	return readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		p, n := stringPtr(namespace)
		return C.pulsar_routing_bundle_range_key(b.c(), p, n, buf, bufLen, written)
	})
}

// ParseBoundary reads one boundary as the broker reads BundlesData.
func ParseBoundary(text string) (uint32, error) {
	p, n := stringPtr(text)
	var out C.uint32_t
	if err := check(C.pulsar_routing_parse_boundary(p, n, &out)); err != nil {
		return 0, err
	}
	return uint32(out), nil
}

func uint32s(c []C.uint32_t) []uint32 {
	out := make([]uint32, len(c))
	for i, v := range c {
		out[i] = uint32(v)
	}
	return out
}

func int64s(c []C.int64_t) []int64 {
	out := make([]int64, len(c))
	for i, v := range c {
		out[i] = int64(v)
	}
	return out
}

// DefaultBoundaries is the default layout's numBundles + 1 boundaries
// (PoliciesUtil.getBundles).
func DefaultBoundaries(numBundles uint32) ([]uint32, error) {
	b, err := readSlice(func(buf *C.uint32_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_default_boundaries(C.uint32_t(numBundles), buf, n, w)
	})
	return uint32s(b), err
}

// ValidateFullRange is the admin API's check on a boundary list
// (validateFullRange), which compares text.
func ValidateFullRange(boundaries []string) error {
	var a cArena
	defer a.free()
	keys := make([][]byte, len(boundaries))
	for i, b := range boundaries {
		keys[i] = []byte(b)
	}
	return check(C.pulsar_routing_validate_full_range(a.strs(keys), C.size_t(len(boundaries))))
}

// RangeEquallyDivide is the broker's default split algorithm: the middle
// of the bundle.
func RangeEquallyDivide(b BundleRange) (int64, error) {
	var out C.int64_t
	err := check(C.pulsar_routing_range_equally_divide(b.c(), &out))
	return int64(out), err
}

// TopicCountEquallyDivide is topic_count_equally_divide: halfway between
// the two middle hashes of the bundle's topics; none for fewer than two.
func TopicCountEquallyDivide(topicHashes []uint32) ([]int64, error) {
	work := make([]C.uint32_t, len(topicHashes)+1)
	out, err := readSlice(func(buf *C.int64_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		// A work array, sorted in place: the caller's slice stays as it
		// is, and a retry starts from the input again.
		for i, h := range topicHashes {
			work[i] = C.uint32_t(h)
		}
		return C.pulsar_routing_topic_count_equally_divide(&work[0], C.size_t(len(topicHashes)), buf, n, w)
	})
	return int64s(out), err
}

// SpecifiedPositionsDivide is specified_positions_divide: the requested
// positions the broker keeps for a bundle owning ownedTopics topics.
func SpecifiedPositionsDivide(b BundleRange, positions []int64, ownedTopics int, force bool) ([]int64, error) {
	work := make([]C.int64_t, len(positions)+1)
	out, err := readSlice(func(buf *C.int64_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		// A work array, reordered in place: refilled for each attempt.
		for i, p := range positions {
			work[i] = C.int64_t(p)
		}
		return C.pulsar_routing_specified_positions_divide(b.c(), &work[0], C.size_t(len(positions)),
			C.size_t(ownedTopics), C.bool(force), buf, n, w)
	})
	return int64s(out), err
}

// TopicLoad is one topic's traffic, for FlowOrQpsEquallyDivide.
type TopicLoad struct {
	MsgRateIn, MsgRateOut, MsgThroughputIn, MsgThroughputOut float64
	// Hash is the topic's CRC32.
	Hash uint32
}

// FlowLimits are the broker's split settings.
type FlowLimits struct {
	MaxMsgRate, MaxBandwidthMbytes, ThresholdPercent int32
}

// FlowOrQpsEquallyDivide is flow_or_qps_equally_divide: split points
// wherever the next topic would exceed the rate or bandwidth limit. loads
// are the owned topics that have stats, in the broker's topic order.
func FlowOrQpsEquallyDivide(ownedTopics int, loads []TopicLoad, limits FlowLimits) ([]int64, error) {
	work := make([]C.pulsar_routing_topic_load, len(loads)+1)
	fill := func() {
		for i, l := range loads {
			work[i] = C.pulsar_routing_topic_load{msg_rate_in: C.double(l.MsgRateIn), msg_rate_out: C.double(l.MsgRateOut),
				msg_throughput_in: C.double(l.MsgThroughputIn), msg_throughput_out: C.double(l.MsgThroughputOut), hash: C.uint32_t(l.Hash)}
		}
	}
	cl := C.pulsar_routing_flow_limits{max_msg_rate: C.int32_t(limits.MaxMsgRate),
		max_bandwidth_mbytes: C.int32_t(limits.MaxBandwidthMbytes), threshold_percent: C.int32_t(limits.ThresholdPercent)}
	out, err := readSlice(func(buf *C.int64_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
		fill()
		return C.pulsar_routing_flow_or_qps_equally_divide(C.size_t(ownedTopics), &work[0], C.size_t(len(loads)), cl, buf, n, w)
	})
	return int64s(out), err
}

// BundleLayout is a namespace's bundles: the default layout or explicit
// boundaries. The layout and its boundaries live in C memory (the C
// layout refers to them), freed by Close or a finalizer. Safe for
// concurrent use.
type BundleLayout struct {
	mu     sync.RWMutex
	layout *C.pulsar_routing_bundle_layout
	// C allocations the layout refers to (boundaries, index table).
	owned []unsafe.Pointer
}

var errLayoutClosed = &Error{Status: StatusNullParameter, Message: "layout is closed"}

func newLayout(init func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status, owned ...unsafe.Pointer) (*BundleLayout, error) {
	l := (*C.pulsar_routing_bundle_layout)(C.calloc(1, C.size_t(unsafe.Sizeof(C.pulsar_routing_bundle_layout{}))))
	if err := check(init(l)); err != nil {
		C.free(unsafe.Pointer(l))
		for _, p := range owned {
			C.free(p)
		}
		return nil, err
	}
	b := &BundleLayout{layout: l, owned: owned}
	runtime.SetFinalizer(b, (*BundleLayout).Close)
	return b, nil
}

// NewDefaultBundleLayout is the layout the broker gives a namespace
// created with numBundles bundles (4 by default).
func NewDefaultBundleLayout(numBundles uint32) (*BundleLayout, error) {
	return newLayout(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_init_default(l, C.uint32_t(numBundles))
	})
}

// NewBundleLayout is the layout of explicit boundaries, checked as Java's
// NamespaceBundles constructor checks them.
func NewBundleLayout(boundaries []uint32) (*BundleLayout, error) {
	words := (*C.uint32_t)(C.calloc(C.size_t(len(boundaries)+1), 4))
	copy(unsafe.Slice((*uint32)(unsafe.Pointer(words)), len(boundaries)), boundaries)
	return newLayout(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_init(l, words, C.size_t(len(boundaries)))
	}, unsafe.Pointer(words))
}

// Close frees the layout. Calling it again does nothing.
func (b *BundleLayout) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.layout != nil {
		C.free(unsafe.Pointer(b.layout))
		for _, p := range b.owned {
			C.free(p)
		}
		b.layout, b.owned = nil, nil
		runtime.SetFinalizer(b, nil)
	}
}

// read runs f with the layout, under the read lock.
func (b *BundleLayout) read(f func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.layout == nil {
		return errLayoutClosed
	}
	return check(f(b.layout))
}

// Index adds a lookup index (about four entries per bundle) so that most
// lookups read one table entry; answers are the same.
func (b *BundleLayout) Index() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.layout == nil {
		return errLayoutClosed
	}
	var n C.size_t
	if err := check(C.pulsar_routing_bundle_layout_len(b.layout, &n)); err != nil {
		return err
	}
	words := C.pulsar_routing_bundle_layout_recommended_index_len(n)
	table := (*C.uint32_t)(C.calloc(words+1, 4))
	if err := check(C.pulsar_routing_bundle_layout_index(b.layout, table, words)); err != nil {
		C.free(unsafe.Pointer(table))
		return err
	}
	b.owned = append(b.owned, unsafe.Pointer(table))
	return nil
}

// Len is the number of bundles.
func (b *BundleLayout) Len() (int, error) {
	var n C.size_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_len(l, &n)
	})
	return int(n), err
}

// Boundaries are the layout's Len() + 1 boundaries.
func (b *BundleLayout) Boundaries() ([]uint32, error) {
	var out []C.uint32_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.uint32_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_bundle_layout_boundaries(l, buf, n, w)
		})
		return statusOf(err)
	})
	return uint32s(out), err
}

// statusOf is the status of an error of this package (OK for nil).
func statusOf(err error) C.pulsar_routing_status {
	if err == nil {
		return C.PULSAR_ROUTING_STATUS_OK
	}
	if e, ok := err.(*Error); ok {
		return C.pulsar_routing_status(e.Status)
	}
	return C.PULSAR_ROUTING_STATUS_PANIC
}

// Bundle is bundle index.
func (b *BundleLayout) Bundle(index int) (BundleRange, error) {
	var r C.pulsar_routing_bundle_range
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_bundle(l, C.size_t(index), &r)
	})
	return bundleFromC(r), err
}

// BundleForHash is the bundle owning hash (0xffffffff: the last one).
func (b *BundleLayout) BundleForHash(hash uint32) (BundleRange, error) {
	var r C.pulsar_routing_bundle_range
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_bundle_for_hash(l, C.uint32_t(hash), &r)
	})
	return bundleFromC(r), err
}

// BundleForTopic is the bundle serving topic (a partition is its own
// topic).
func (b *BundleLayout) BundleForTopic(topic string, rules TopicNameRules) (BundleRange, error) {
	var r C.pulsar_routing_bundle_range
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		p, n := stringPtr(topic)
		return C.pulsar_routing_bundle_layout_bundle_for_topic(l, p, n, C.uint32_t(rules), &r)
	})
	return bundleFromC(r), err
}

// BundleIndexForHash is the index of the bundle owning hash; strict gives
// the broker's findBundle failure for 0xffffffff too.
func (b *BundleLayout) BundleIndexForHash(hash uint32, strict bool) (int, error) {
	var i C.size_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		if strict {
			return C.pulsar_routing_bundle_layout_bundle_index_for_hash_java(l, C.uint32_t(hash), &i)
		}
		return C.pulsar_routing_bundle_layout_bundle_index_for_hash(l, C.uint32_t(hash), &i)
	})
	return int(i), err
}

// ValidateBundle is the position of bundle, checked as Java's
// NamespaceBundles.validateBundle does.
func (b *BundleLayout) ValidateBundle(bundle BundleRange) (int, error) {
	var i C.size_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_layout_validate_bundle(l, bundle.c(), &i)
	})
	return int(i), err
}

// SplitBoundaries are the boundaries after splitting target at positions
// (NamespaceBundleFactory.splitBundles with a split algorithm's points).
func (b *BundleLayout) SplitBoundaries(target BundleRange, positions []int64) ([]uint32, error) {
	work := make([]C.int64_t, len(positions)+1)
	var out []C.uint32_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.uint32_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			for i, p := range positions {
				work[i] = C.int64_t(p)
			}
			return C.pulsar_routing_bundle_layout_split(l, target.c(), &work[0], C.size_t(len(positions)), buf, n, w)
		})
		return statusOf(err)
	})
	return uint32s(out), err
}

// SplitEquallyBoundaries are the boundaries after splitting target into
// parts equal parts (splitBundles(target, parts, null)).
func (b *BundleLayout) SplitEquallyBoundaries(target BundleRange, parts uint32) ([]uint32, error) {
	var out []C.uint32_t
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.uint32_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_bundle_layout_split_equally(l, target.c(), C.uint32_t(parts), buf, n, w)
		})
		return statusOf(err)
	})
	return uint32s(out), err
}

// Split is the layout after splitting target at positions.
func (b *BundleLayout) Split(target BundleRange, positions []int64) (*BundleLayout, error) {
	boundaries, err := b.SplitBoundaries(target, positions)
	if err != nil {
		return nil, err
	}
	return NewBundleLayout(boundaries)
}

// SplitEqually is the layout after splitting target into parts parts.
func (b *BundleLayout) SplitEqually(target BundleRange, parts uint32) (*BundleLayout, error) {
	boundaries, err := b.SplitEquallyBoundaries(target, parts)
	if err != nil {
		return nil, err
	}
	return NewBundleLayout(boundaries)
}

func hashesPtr(hashes []uint32) *C.uint32_t {
	if len(hashes) == 0 {
		return (*C.uint32_t)(unsafe.Pointer(&emptyWords[0]))
	}
	return (*C.uint32_t)(unsafe.Pointer(&hashes[0]))
}

// CountPerBundle counts the topics' hashes per bundle; unowned counts
// hashes below the first boundary.
func (b *BundleLayout) CountPerBundle(hashes []uint32) (counts []uint64, unowned uint64, err error) {
	var out []C.uint64_t
	var un C.uint64_t
	err = b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.uint64_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_bundle_layout_count_per_bundle(l, hashesPtr(hashes), C.size_t(len(hashes)), buf, n, w, &un)
		})
		return statusOf(err)
	})
	runtime.KeepAlive(hashes)
	counts = make([]uint64, len(out))
	for i, c := range out {
		counts[i] = uint64(c)
	}
	return counts, uint64(un), err
}

// BundleChange is what a layout change does to one topic.
type BundleChange struct {
	// Before and After are the topic's bundle indexes (NoBundle: none).
	Before, After int
	// Changed: the bundle's range changed.
	Changed bool
}

// NoBundle is the index of no bundle in a BundleChange.
const NoBundle = -1

// Compare is the impact of going from b to after on the topics with
// these hashes.
func (b *BundleLayout) Compare(after *BundleLayout, hashes []uint32) ([]BundleChange, error) {
	after.mu.RLock()
	defer after.mu.RUnlock()
	if after.layout == nil {
		return nil, errLayoutClosed
	}
	var out []C.pulsar_routing_bundle_change
	err := b.read(func(l *C.pulsar_routing_bundle_layout) C.pulsar_routing_status {
		var err error
		out, err = readSlice(func(buf *C.pulsar_routing_bundle_change, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_bundle_layout_compare(l, after.layout, hashesPtr(hashes), C.size_t(len(hashes)), buf, n, w)
		})
		return statusOf(err)
	})
	runtime.KeepAlive(hashes)
	changes := make([]BundleChange, len(out))
	index := func(i C.size_t) int {
		if i == C.PULSAR_ROUTING_NO_BUNDLE {
			return NoBundle
		}
		return int(i)
	}
	for i, c := range out {
		changes[i] = BundleChange{Before: index(c.before), After: index(c.after), Changed: bool(c.changed)}
	}
	return changes, err
}
