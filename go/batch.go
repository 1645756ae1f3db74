package pulsarrouting

/*
#include "pulsar_routing.h"

// The batch call, and on failure its full message ("key 3 is not valid
// UTF-8"), read in the same cgo call: the message is per OS thread, and a
// goroutine stays on one thread only within a call.
static pulsar_routing_status pr_partitions_for_keys(const uint8_t *data, const size_t *offsets,
                                                    size_t count, int64_t num_partitions,
                                                    uint32_t scheme, uint32_t *out,
                                                    uint8_t *message, size_t message_len,
                                                    size_t *message_written) {
    pulsar_routing_status s =
        pulsar_routing_partitions_for_keys(data, offsets, count, num_partitions, scheme, out);
    if (s != PULSAR_ROUTING_STATUS_OK &&
        pulsar_routing_last_error_message(s, message, message_len, message_written) !=
            PULSAR_ROUTING_STATUS_OK) {
        *message_written = 0;
    }
    return s;
}
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// keyBatch is the C layout of a batch (one byte buffer, count + 1
// offsets) and the room for a failure's message, reused across calls.
type keyBatch struct {
	data    []byte
	offsets []C.size_t
	message [256]byte
	written C.size_t
}

var keyBatches = sync.Pool{New: func() any { return new(keyBatch) }}

// keepBytes bounds what an idle keyBatch holds on to.
const keepBytes = 1 << 20

// release returns b to the pool, unless one huge batch made it huge.
func (b *keyBatch) release() {
	if cap(b.data) <= keepBytes && cap(b.offsets) <= keepBytes/8 {
		keyBatches.Put(b)
	}
}

// PartitionsForKeys is PartitionForKey for every key, in one cgo call: the
// key strings (key(String) in Java) as string or as []byte holding the
// string's bytes (not keyBytes, which hashes Base64: see
// PartitionForKeyBytes). The result has one partition per key.
//
// One cgo call costs about as much as routing a short key in pure Go, so
// routing keys one by one through PartitionForKey is several times slower
// than pure Go, while a batch pays that price once: from a few dozen keys
// on, a batch routes each key about as fast as pure Go does.
//
// Under SchemeMurmur3_32 the bytes are hashed as they are, UTF-8 or not
// (as the C++ client hashes a std::string); under SchemeJavaString a key
// that is not UTF-8 fails the whole batch with ErrInvalidUTF8, and the
// error's message names the first such key.
//
// The keys are copied once into one buffer, which C reads; []byte keys
// that already follow each other in one array (sub-slices of one buffer,
// in order) are read where they are.
func PartitionsForKeys[K string | []byte](keys []K, numPartitions int, scheme HashingScheme) ([]uint32, error) {
	out := make([]uint32, len(keys))
	b := keyBatches.Get().(*keyBatch)
	defer b.release()
	data := b.layout(any(keys))
	var outPtr *C.uint32_t
	if len(out) > 0 {
		outPtr = (*C.uint32_t)(unsafe.Pointer(&out[0]))
	} else {
		// The library wants a pointer even for no keys.
		outPtr = (*C.uint32_t)(unsafe.Pointer(&b.written))
	}
	s := C.pr_partitions_for_keys(data, &b.offsets[0], C.size_t(len(keys)), C.int64_t(numPartitions),
		C.uint32_t(scheme), outPtr, b.msg(), b.msgLen(), &b.written)
	// In place, data points into the first key only.
	runtime.KeepAlive(keys)
	if s != C.PULSAR_ROUTING_STATUS_OK {
		return nil, b.failure(s)
	}
	return out, nil
}

// msg and msgLen are b's room for a failure's message, for the C call
// that fills it.
func (b *keyBatch) msg() *C.uint8_t  { return (*C.uint8_t)(unsafe.Pointer(&b.message[0])) }
func (b *keyBatch) msgLen() C.size_t { return C.size_t(len(b.message)) }

// failure is the error of status s, with the message the failed call
// wrote into b (the status's own text if it wrote none).
func (b *keyBatch) failure(s C.pulsar_routing_status) error {
	message := string(b.message[:int(b.written)])
	if message == "" {
		message = Status(s).Message()
	}
	return &Error{Status: Status(s), Message: message}
}

// layout fills b's offsets for keys and returns the data they index:
// the keys' own memory when they already lie back to back in order, else
// b's buffer holding a copy of them.
func (b *keyBatch) layout(keys interface{}) *C.uint8_t {
	b.offsets = append(b.offsets[:0], 0)
	b.data = b.data[:0]
	switch keys := keys.(type) {
	case []string:
		for _, k := range keys {
			b.data = append(b.data, k...)
			b.offsets = append(b.offsets, C.size_t(len(b.data)))
		}
	case [][]byte:
		if p := b.inPlace(keys); p != nil {
			return p
		}
		for _, k := range keys {
			b.data = append(b.data, k...)
			b.offsets = append(b.offsets, C.size_t(len(b.data)))
		}
	}
	p, _ := bytesPtr(b.data)
	return p
}

// inPlace fills b's offsets and returns the first key's address when every
// non-empty key starts where the one before it ended, or nil.
func (b *keyBatch) inPlace(keys [][]byte) *C.uint8_t {
	var base, end uintptr
	for _, k := range keys {
		if len(k) == 0 {
			continue
		}
		at := uintptr(unsafe.Pointer(&k[0]))
		if base == 0 {
			base = at
		} else if at != end {
			b.offsets = b.offsets[:1]
			return nil
		}
		end = at + uintptr(len(k))
	}
	if base == 0 {
		// Every key is empty: nothing to read.
		b.offsets = b.offsets[:1]
		return nil
	}
	var total C.size_t
	for _, k := range keys {
		total += C.size_t(len(k))
		b.offsets = append(b.offsets, total)
	}
	for _, k := range keys {
		if len(k) > 0 {
			return (*C.uint8_t)(unsafe.Pointer(&k[0]))
		}
	}
	return nil
}
