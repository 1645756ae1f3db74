package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// keyFromC copies a key the library hands to Go.
func keyFromC(k C.pulsar_routing_key) Key {
	switch k.kind {
	case C.PULSAR_ROUTING_KEY_KIND_STRING:
		return StringKey(C.GoStringN((*C.char)(unsafe.Pointer(k.data)), C.int(k.len)))
	case C.PULSAR_ROUTING_KEY_KIND_BYTES:
		return BytesKey(C.GoBytes(unsafe.Pointer(k.data), C.int(k.len)))
	case C.PULSAR_ROUTING_KEY_KIND_UTF16:
		units := make([]uint16, int(k.len))
		copy(units, unsafe.Slice((*uint16)(unsafe.Pointer(k.data)), int(k.len)))
		return UTF16Key(units)
	}
	return NoKey()
}

// prGoCustomRoute is the C callback of every CustomRouter. A panic must
// not unwind through C: it becomes -1, which the library rejects as an
// illegal partition.
//
//export prGoCustomRoute
func prGoCustomRoute(context unsafe.Pointer, key C.pulsar_routing_key, numPartitions C.uint32_t) (out C.int32_t) {
	defer func() {
		if recover() != nil {
			out = -1
		}
	}()
	choose := cgo.Handle(uintptr(context)).Value().(CustomRouterFunc)
	return C.int32_t(choose(keyFromC(key), int(numPartitions)))
}
