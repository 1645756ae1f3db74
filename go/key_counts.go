package pulsarrouting

/*
#include "pulsar_routing.h"

// On failure, the full message ("weight 3 is not a finite number of at
// least 0") is read in the same cgo call as the failing add: the message
// is per OS thread, and a goroutine stays on one thread only within a call.
static pulsar_routing_status pr_key_counts_failed(pulsar_routing_status s, uint8_t *message,
                                                  size_t message_len, size_t *message_written) {
    if (s != PULSAR_ROUTING_STATUS_OK &&
        pulsar_routing_last_error_message(s, message, message_len, message_written) !=
            PULSAR_ROUTING_STATUS_OK) {
        *message_written = 0;
    }
    return s;
}

static pulsar_routing_status pr_key_counts_add(pulsar_routing_key_counts *counts,
                                               const uint8_t *key, size_t len, double weight,
                                               uint8_t *message, size_t message_len,
                                               size_t *message_written) {
    return pr_key_counts_failed(pulsar_routing_key_counts_add(counts, key, len, weight), message,
                                message_len, message_written);
}

static pulsar_routing_status pr_key_counts_add_keyless(pulsar_routing_key_counts *counts,
                                                       double weight, uint8_t *message,
                                                       size_t message_len,
                                                       size_t *message_written) {
    return pr_key_counts_failed(pulsar_routing_key_counts_add_keyless(counts, weight), message,
                                message_len, message_written);
}

static pulsar_routing_status pr_key_counts_add_batch(pulsar_routing_key_counts *counts,
                                                     const uint8_t *data, const size_t *offsets,
                                                     size_t count, const double *weights,
                                                     uint8_t *message, size_t message_len,
                                                     size_t *message_written) {
    return pr_key_counts_failed(
        pulsar_routing_key_counts_add_batch(counts, data, offsets, count, weights), message,
        message_len, message_written);
}
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// KeyCounts holds distinct keys with their summed weights, and the summed
// weight of keyless rows: the exact sample a capacity plan starts from,
// counted by the same table as the C and Python bindings. Keys are bytes
// (a string holds any bytes); Sorted gives them in byte order, a key
// before the longer keys it begins, whatever order the rows came in.
//
// Weights are finite numbers of at least 0 (a message count, bytes, a
// rate); a negative, NaN or infinite one fails with
// StatusKeyCountsInvalidWeight and adds nothing.
//
// Reads (Len, Rows, KeylessWeight, Sorted) may run in any number of
// goroutines; adds take the counts to themselves. Close releases them (a
// finalizer frees forgotten ones, whenever the garbage collector runs).
type KeyCounts struct {
	h handle[*C.pulsar_routing_key_counts]
}

// NewKeyCounts is empty counts.
func NewKeyCounts() (*KeyCounts, error) {
	var h *C.pulsar_routing_key_counts
	if err := check(C.pulsar_routing_key_counts_new(&h)); err != nil {
		return nil, err
	}
	k := &KeyCounts{}
	k.h.init(h, "key counts")
	runtime.SetFinalizer(k, (*KeyCounts).Close)
	return k, nil
}

// add runs one add with the counts to itself, and turns a failure into an
// error with its full message.
func (k *KeyCounts) add(f func(h *C.pulsar_routing_key_counts, b *keyBatch) C.pulsar_routing_status) error {
	return k.h.useExclusive(func(h *C.pulsar_routing_key_counts) error {
		b := keyBatches.Get().(*keyBatch)
		defer b.release()
		if s := f(h, b); s != C.PULSAR_ROUTING_STATUS_OK {
			return b.failure(s)
		}
		return nil
	})
}

// Add adds one row: weight more for key (the empty key is a key like any
// other; a keyless row is AddKeyless).
func (k *KeyCounts) Add(key string, weight float64) error {
	return k.add(func(h *C.pulsar_routing_key_counts, b *keyBatch) C.pulsar_routing_status {
		p, n := stringPtr(key)
		return C.pr_key_counts_add(h, p, n, C.double(weight), b.msg(), b.msgLen(), &b.written)
	})
}

// AddBytes is Add for a key held as bytes.
func (k *KeyCounts) AddBytes(key []byte, weight float64) error {
	return k.add(func(h *C.pulsar_routing_key_counts, b *keyBatch) C.pulsar_routing_status {
		p, n := bytesPtr(key)
		return C.pr_key_counts_add(h, p, n, C.double(weight), b.msg(), b.msgLen(), &b.written)
	})
}

// AddKeyless adds one row without a key (a message without a key).
func (k *KeyCounts) AddKeyless(weight float64) error {
	return k.add(func(h *C.pulsar_routing_key_counts, b *keyBatch) C.pulsar_routing_status {
		return C.pr_key_counts_add_keyless(h, C.double(weight), b.msg(), b.msgLen(), &b.written)
	})
}

// AddBatch adds one row per key in one cgo call, with weights[i] for
// keys[i], or 1 each when weights is nil. A weights slice of another
// length fails with StatusKeyCountsWeightsLength and a bad weight with
// StatusKeyCountsInvalidWeight (its message names the first one); either
// way nothing is added.
func (k *KeyCounts) AddBatch(keys []string, weights []float64) error {
	if weights != nil && len(weights) != len(keys) {
		return &Error{Status: StatusKeyCountsWeightsLength, Message: StatusKeyCountsWeightsLength.Message()}
	}
	return k.add(func(h *C.pulsar_routing_key_counts, b *keyBatch) C.pulsar_routing_status {
		data := b.layout(keys)
		var w *C.double
		if len(weights) > 0 {
			w = (*C.double)(unsafe.Pointer(&weights[0]))
		}
		s := C.pr_key_counts_add_batch(h, data, &b.offsets[0], C.size_t(len(keys)), w, b.msg(), b.msgLen(), &b.written)
		runtime.KeepAlive(keys)
		runtime.KeepAlive(weights)
		return s
	})
}

// Len is the number of distinct keys (keyless rows not counted); 0 once
// closed.
func (k *KeyCounts) Len() int {
	var n C.size_t
	if k.read(func(h *C.pulsar_routing_key_counts) C.pulsar_routing_status {
		return C.pulsar_routing_key_counts_len(h, &n)
	}) != nil {
		return 0
	}
	return int(n)
}

// Rows is the number of rows added, keyless ones included; 0 once closed.
func (k *KeyCounts) Rows() uint64 {
	var n C.uint64_t
	if k.read(func(h *C.pulsar_routing_key_counts) C.pulsar_routing_status {
		return C.pulsar_routing_key_counts_rows(h, &n)
	}) != nil {
		return 0
	}
	return uint64(n)
}

// TotalKeyBytes is the bytes of all distinct keys together; 0 once
// closed.
func (k *KeyCounts) TotalKeyBytes() int {
	var n C.size_t
	if k.read(func(h *C.pulsar_routing_key_counts) C.pulsar_routing_status {
		return C.pulsar_routing_key_counts_total_key_bytes(h, &n)
	}) != nil {
		return 0
	}
	return int(n)
}

// KeylessWeight is the summed weight of the keyless rows, and false when
// there was none (or the counts are closed).
func (k *KeyCounts) KeylessWeight() (float64, bool) {
	var w C.double
	var present C.bool
	if k.read(func(h *C.pulsar_routing_key_counts) C.pulsar_routing_status {
		return C.pulsar_routing_key_counts_keyless_weight(h, &w, &present)
	}) != nil {
		return 0, false
	}
	return float64(w), bool(present)
}

// Sorted is the distinct keys in byte order and their summed weights
// (weights[i] is keys[i]'s); empty once closed.
func (k *KeyCounts) Sorted() (keys []string, weights []float64) {
	err := k.h.use(func(h *C.pulsar_routing_key_counts) error {
		var n, total C.size_t
		if err := check(C.pulsar_routing_key_counts_len(h, &n)); err != nil {
			return err
		}
		if err := check(C.pulsar_routing_key_counts_total_key_bytes(h, &total)); err != nil {
			return err
		}
		data := make([]byte, int(total))
		offsets := make([]C.uint64_t, int(n)+1)
		// One more than needed, so that the pointer exists for no key.
		w := make([]float64, int(n)+1)
		var dataPtr *C.uint8_t
		if total > 0 {
			dataPtr = (*C.uint8_t)(unsafe.Pointer(&data[0]))
		}
		if err := check(C.pulsar_routing_key_counts_write_sorted(h, dataPtr, total, &offsets[0], n+1,
			(*C.double)(unsafe.Pointer(&w[0])), n)); err != nil {
			return err
		}
		keys = make([]string, int(n))
		for i := range keys {
			keys[i] = string(data[offsets[i]:offsets[i+1]])
		}
		weights = w[:n:n]
		return nil
	})
	if err != nil {
		return nil, nil
	}
	return keys, weights
}

func (k *KeyCounts) read(f func(h *C.pulsar_routing_key_counts) C.pulsar_routing_status) error {
	return k.h.use(func(h *C.pulsar_routing_key_counts) error { return check(f(h)) })
}

// Close frees the counts. Calling it again does nothing.
func (k *KeyCounts) Close() {
	if k.h.free(func(h *C.pulsar_routing_key_counts) { C.pulsar_routing_key_counts_free(h) }) {
		runtime.SetFinalizer(k, nil)
	}
}
