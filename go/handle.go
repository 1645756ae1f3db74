package pulsarrouting

import "sync"

// handle is a C object a Go value owns: calls read it under the read lock
// (the C objects are safe for concurrent use), Close frees it under the
// write lock, and a closed handle fails every call with closed.
type handle[T any] struct {
	mu     sync.RWMutex
	p      *T
	closed *Error
}

func (h *handle[T]) init(p *T, what string) {
	h.p, h.closed = p, &Error{Status: StatusNullParameter, Message: what + " is closed"}
}

// use runs f with the live object.
func (h *handle[T]) use(f func(p *T) error) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.p == nil {
		return h.closed
	}
	return f(h.p)
}

// useExclusive runs f with the live object to itself, for the C calls
// that are not safe for concurrent use.
func (h *handle[T]) useExclusive(f func(p *T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p == nil {
		return h.closed
	}
	return f(h.p)
}

// free frees the object once; it reports whether it did.
func (h *handle[T]) free(free func(p *T)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p == nil {
		return false
	}
	free(h.p)
	h.p = nil
	return true
}
