package pulsarrouting

import "sync"

// handle is a C object a Go value owns: calls read it under the read lock
// (the C objects are safe for concurrent use), Close frees it under the
// write lock, and a closed handle fails every call with closed.
//
// P is the C pointer type (*C.pulsar_routing_x), not the C struct: the
// structs are opaque, and Go 1.24 and later refuse an incomplete C type
// as a type argument.
type handle[P any] struct {
	mu     sync.RWMutex
	p      P
	live   bool
	closed *Error
}

func (h *handle[P]) init(p P, what string) {
	h.p, h.live = p, true
	h.closed = &Error{Status: StatusNullParameter, Message: what + " is closed"}
}

// use runs f with the live object.
func (h *handle[P]) use(f func(p P) error) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.live {
		return h.closed
	}
	return f(h.p)
}

// useExclusive runs f with the live object to itself, for the C calls
// that are not safe for concurrent use.
func (h *handle[P]) useExclusive(f func(p P) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.live {
		return h.closed
	}
	return f(h.p)
}

// free frees the object once; it reports whether it did.
func (h *handle[P]) free(free func(p P)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.live {
		return false
	}
	free(h.p)
	var none P
	h.p, h.live = none, false
	return true
}
