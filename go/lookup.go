package pulsarrouting

/*
#include <stdlib.h>
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
	"sort"
	"sync"
	"unsafe"
)

// Lookup errors to compare with errors.Is.
var (
	ErrLookupServerError         = &Error{Status: StatusLookupServerError}
	ErrLookupEmptyResponse       = &Error{Status: StatusLookupEmptyResponse}
	ErrLookupTooManyRedirects    = &Error{Status: StatusLookupTooManyRedirects}
	ErrLookupRedirectLoop        = &Error{Status: StatusLookupRedirectLoop}
	ErrLookupConnectionFailed    = &Error{Status: StatusLookupConnectionFailed}
	ErrLookupTooManyRequests     = &Error{Status: StatusLookupTooManyRequests}
	ErrLookupDeadlineExceeded    = &Error{Status: StatusLookupDeadlineExceeded}
	ErrLookupCoalescingTableFull = &Error{Status: StatusLookupCoalescingTableFull}
	ErrLookupGoRedirectLimit     = &Error{Status: StatusLookupGoRedirectLimit}
)

// LookupProfile says whose lookup to reproduce.
type LookupProfile uint32

// The Java client (the C++ one is the same) and the Go client
// (pulsar/internal/lookup_service.go: a fixed 20 responses, redirected
// requests without the lookup properties, the service URL as the physical
// address with proxy_through_service_url).
const (
	LookupProfileJava LookupProfile = C.PULSAR_ROUTING_LOOKUP_PROFILE_JAVA
	LookupProfileGo   LookupProfile = C.PULSAR_ROUTING_LOOKUP_PROFILE_GO
)

// LookupOptions configure a TopicLookup. DefaultLookupOptions gives the
// Java client's defaults; times are in milliseconds.
type LookupOptions struct {
	// UseTLS picks brokerServiceUrlTls instead of brokerServiceUrl.
	UseTLS bool
	// MaxRedirects is maxLookupRedirects (20); 0 for no limit.
	MaxRedirects uint32
	// Profile is LookupProfileJava or LookupProfileGo.
	Profile LookupProfile
	// OperationTimeoutMs is operationTimeoutMs (30000).
	OperationTimeoutMs uint64
	// LookupTimeoutMs is lookupTimeoutMs; 0 means the operation timeout.
	LookupTimeoutMs uint64
	// Retry retries retriable failures with backoff until the deadline.
	Retry bool
	// DetectRedirectLoops fails an attempt redirected back to an address
	// already asked with the same authoritative flag: an opt-in heuristic
	// (false by default, the clients' behaviour: redirect until the limit).
	DetectRedirectLoops bool
	// JitterSeed seeds the backoff's jitter, so a trace replays exactly.
	JitterSeed uint64
}

// DefaultLookupOptions are the Java client's defaults.
func DefaultLookupOptions() LookupOptions {
	var o C.pulsar_routing_lookup_options
	C.pulsar_routing_lookup_options_default(&o)
	return LookupOptions{
		UseTLS:              bool(o.use_tls),
		MaxRedirects:        uint32(o.max_redirects),
		Profile:             LookupProfile(o.profile),
		OperationTimeoutMs:  uint64(o.operation_timeout_ms),
		LookupTimeoutMs:     uint64(o.lookup_timeout_ms),
		Retry:               bool(o.retry),
		DetectRedirectLoops: bool(o.detect_redirect_loops),
		JitterSeed:          uint64(o.jitter_seed),
	}
}

// LookupType is CommandLookupTopicResponse.LookupType.
type LookupType int32

// The response types; LookupTypeAbsent is a response without one.
const (
	LookupTypeRedirect LookupType = 0
	LookupTypeConnect  LookupType = 1
	LookupTypeFailed   LookupType = 2
	LookupTypeAbsent   LookupType = -1
)

// ServerError is a ServerError code of PulsarApi.proto (0 UnknownError to
// 25 ProducerFenced).
type ServerError int32

// A few codes by name; any code 0..25 may be used.
const (
	ServerErrorUnknown          ServerError = 0
	ServerErrorAuthorization    ServerError = 4
	ServerErrorServiceNotReady  ServerError = 6
	ServerErrorTopicNotFound    ServerError = 11
	ServerErrorTooManyRequests  ServerError = 14
	ServerErrorInvalidTopicName ServerError = 17
)

// LookupResponse is a broker's CommandLookupTopicResponse. An empty URL
// string stands for an absent field; HasError says whether Error is set.
type LookupResponse struct {
	Type                   LookupType
	BrokerServiceURL       string
	BrokerServiceURLTLS    string
	Authoritative          bool
	ProxyThroughServiceURL bool
	HasError               bool
	Error                  ServerError
	Message                string
}

// LookupActionKind says what a LookupAction asks.
type LookupActionKind uint32

// The actions of a TopicLookup.
const (
	// ActionSendLookup: send a LOOKUP to LogicalAddress through
	// PhysicalAddress, with Authoritative, and the lookup properties when
	// SendProperties.
	ActionSendLookup LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP
	// ActionRetryAt: the attempt failed with Err; call OnRetryTimer at AtMs.
	ActionRetryAt LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT
	// ActionDone: the topic lives at LogicalAddress; connect to
	// PhysicalAddress (a proxy when UseProxy).
	ActionDone LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_DONE
	// ActionFailed: the lookup failed for good with Err.
	ActionFailed LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_FAILED
	// ActionIgnored: the event was not expected now; nothing changed.
	ActionIgnored LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_IGNORED
)

// LookupAction is what the embedder must do next.
type LookupAction struct {
	Kind            LookupActionKind
	LogicalAddress  string
	PhysicalAddress string
	Authoritative   bool
	SendProperties  bool
	UseProxy        bool
	Redirects       uint32
	Attempt         uint32
	AtMs            uint64
	DelayMs         uint64
	// Err is why the attempt (ActionRetryAt) or the lookup (ActionFailed)
	// failed, with the lookup's full message; nil otherwise.
	Err error
	// ServerError is the broker's code behind Err, or -1.
	ServerError ServerError
	// Reason says why this is the next step, in the words every binding
	// uses (the core's explanation), e.g. "redirect 1 to pulsar://...".
	Reason string
}

// Hop is one request of a lookup attempt's redirect chain.
type Hop struct {
	Address       string
	Authoritative bool
}

// TopicLookup is one topic lookup as a state machine doing no I/O: the
// Java client's BinaryProtoLookupService.getBroker with the producer's
// retries (or the Go client's, by profile). Feed it the broker's answers
// and the time; it answers with the next action. Its methods may be called
// from several goroutines. Close releases it (a finalizer frees a
// forgotten one, whenever the garbage collector runs).
type TopicLookup struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_topic_lookup
}

var errLookupClosed = &Error{Status: StatusNullParameter, Message: "lookup is closed"}

// NewTopicLookup starts building a lookup of the service address (the
// resolved service URL host), keeping chainCapacity hops of its redirect
// chain (21 holds the default 20 redirects).
func NewTopicLookup(serviceAddress string, options LookupOptions, chainCapacity int) (*TopicLookup, error) {
	if chainCapacity < 0 {
		chainCapacity = 0
	}
	o := C.pulsar_routing_lookup_options{
		use_tls:               C.bool(options.UseTLS),
		max_redirects:         C.uint32_t(options.MaxRedirects),
		profile:               C.pulsar_routing_lookup_profile(options.Profile),
		operation_timeout_ms:  C.uint64_t(options.OperationTimeoutMs),
		lookup_timeout_ms:     C.uint64_t(options.LookupTimeoutMs),
		retry:                 C.bool(options.Retry),
		detect_redirect_loops: C.bool(options.DetectRedirectLoops),
		jitter_seed:           C.uint64_t(options.JitterSeed),
	}
	addr := C.CString(serviceAddress)
	defer C.free(unsafe.Pointer(addr))
	var h *C.pulsar_routing_topic_lookup
	if err := check(C.pulsar_routing_topic_lookup_new(addr, &o, C.size_t(chainCapacity), &h)); err != nil {
		return nil, err
	}
	l := &TopicLookup{handle: h}
	runtime.SetFinalizer(l, (*TopicLookup).Close)
	return l, nil
}

// call runs one event under the exclusive lock and converts its action
// while the handle's strings are still valid: the C handle is used by one
// thread at a time, and the next call on it replaces the action's strings,
// so no other goroutine may call it before they are copied.
func (l *TopicLookup) call(event func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status) (LookupAction, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.handle == nil {
		return LookupAction{}, errLookupClosed
	}
	var a C.pulsar_routing_lookup_action
	if err := check(event(l.handle, &a)); err != nil {
		return LookupAction{}, err
	}
	out := LookupAction{
		Kind:           LookupActionKind(a.kind),
		Authoritative:  bool(a.authoritative),
		SendProperties: bool(a.send_properties),
		UseProxy:       bool(a.use_proxy),
		Redirects:      uint32(a.redirects),
		Attempt:        uint32(a.attempt),
		AtMs:           uint64(a.at_ms),
		DelayMs:        uint64(a.delay_ms),
		ServerError:    ServerError(a.server_error),
	}
	if a.logical_address != nil {
		out.LogicalAddress = C.GoString(a.logical_address)
	}
	if a.physical_address != nil {
		out.PhysicalAddress = C.GoString(a.physical_address)
	}
	out.Reason = C.GoString(a.reason)
	if a.error != C.PULSAR_ROUTING_STATUS_OK {
		out.Err = actionError(a.error, func(buf *C.uint8_t, n C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_topic_lookup_error_message(l.handle, buf, n, w)
		})
	}
	return out, nil
}

// Start starts the lookup at nowMs: the first LOOKUP, non-authoritative,
// to the service address.
func (l *TopicLookup) Start(nowMs uint64) (LookupAction, error) {
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_start(h, C.uint64_t(nowMs), a)
	})
}

// OnResponse reports the broker's answer to the request out. It fails
// (the call, not the lookup) for a code outside 0..25 or invalid UTF-8.
func (l *TopicLookup) OnResponse(r LookupResponse, nowMs uint64) (LookupAction, error) {
	var frees []unsafe.Pointer
	cstr := func(s string) *C.char {
		if s == "" {
			return nil
		}
		p := C.CString(s)
		frees = append(frees, unsafe.Pointer(p))
		return p
	}
	defer func() {
		for _, p := range frees {
			C.free(p)
		}
	}()
	code := C.int32_t(-1)
	if r.HasError {
		code = C.int32_t(r.Error)
	}
	c := C.pulsar_routing_lookup_response{
		response:                  C.int32_t(r.Type),
		broker_service_url:        cstr(r.BrokerServiceURL),
		broker_service_url_tls:    cstr(r.BrokerServiceURLTLS),
		authoritative:             C.bool(r.Authoritative),
		proxy_through_service_url: C.bool(r.ProxyThroughServiceURL),
		error:                     code,
		message:                   cstr(r.Message),
	}
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_on_response(h, &c, C.uint64_t(nowMs), a)
	})
}

// OnConnectionFailed reports that the request's connection failed.
func (l *TopicLookup) OnConnectionFailed(nowMs uint64) (LookupAction, error) {
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_on_connection_failed(h, C.uint64_t(nowMs), a)
	})
}

// OnRequestTimeout reports that the request got no answer in time.
func (l *TopicLookup) OnRequestTimeout(nowMs uint64) (LookupAction, error) {
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_on_request_timeout(h, C.uint64_t(nowMs), a)
	})
}

// OnThrottled reports that the connection's LookupThrottle refused the
// request, with its counts.
func (l *TopicLookup) OnThrottled(inFlight, queued uint32, nowMs uint64) (LookupAction, error) {
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_on_throttled(h, C.uint32_t(inFlight), C.uint32_t(queued), C.uint64_t(nowMs), a)
	})
}

// OnRetryTimer reports that the timer of an ActionRetryAt fired; before
// its AtMs the action is ActionIgnored and the retry stays due.
func (l *TopicLookup) OnRetryTimer(nowMs uint64) (LookupAction, error) {
	return l.call(func(h *C.pulsar_routing_topic_lookup, a *C.pulsar_routing_lookup_action) C.pulsar_routing_status {
		return C.pulsar_routing_topic_lookup_on_retry_timer(h, C.uint64_t(nowMs), a)
	})
}

// Chain is the current (or last) attempt's redirect chain, the service
// address first.
func (l *TopicLookup) Chain() ([]Hop, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.handle == nil {
		return nil, errLookupClosed
	}
	var n C.size_t
	if err := check(C.pulsar_routing_topic_lookup_chain_len(l.handle, &n)); err != nil {
		return nil, err
	}
	hops := make([]Hop, 0, int(n))
	for i := 0; i < int(n); i++ {
		var auth C.bool
		addr, err := readString(func(buf *C.uint8_t, bl C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_topic_lookup_chain_hop(l.handle, C.size_t(i), buf, bl, w, &auth)
		})
		if err != nil {
			return nil, err
		}
		hops = append(hops, Hop{Address: addr, Authoritative: bool(auth)})
	}
	return hops, nil
}

// Close frees the lookup. Calling it again does nothing.
func (l *TopicLookup) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.handle != nil {
		C.pulsar_routing_topic_lookup_free(l.handle)
		l.handle = nil
		runtime.SetFinalizer(l, nil)
	}
}

// cStrings copies strs into C memory: one malloc'd array of C strings
// (cgo forbids passing Go memory that holds Go pointers). free releases it.
func cStrings(strs []string) (arr **C.char, free func()) {
	if len(strs) == 0 {
		return nil, func() {}
	}
	size := C.size_t(len(strs)) * C.size_t(unsafe.Sizeof((*C.char)(nil)))
	base := C.malloc(size)
	slots := (*[1 << 28]*C.char)(base)[:len(strs):len(strs)]
	for i, s := range strs {
		slots[i] = C.CString(s)
	}
	return (**C.char)(base), func() {
		for _, p := range slots {
			C.free(unsafe.Pointer(p))
		}
		C.free(base)
	}
}

// Coalescer is the table of topic lookups in flight (Java's
// InProgressDeduplicationDecoratorLookupService): concurrent requests for
// the same (topic, properties) share one lookup, and the entry goes when
// it completes. It is bounded, and safe for several goroutines; Close
// releases it (a finalizer frees a forgotten one).
type Coalescer struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_lookup_coalescer
}

var errCoalescerClosed = &Error{Status: StatusNullParameter, Message: "coalescer is closed"}

// NewCoalescer makes a table of capacity slots.
func NewCoalescer(capacity int) (*Coalescer, error) {
	if capacity < 0 {
		capacity = 0
	}
	var h *C.pulsar_routing_lookup_coalescer
	if err := check(C.pulsar_routing_lookup_coalescer_new(C.size_t(capacity), &h)); err != nil {
		return nil, err
	}
	c := &Coalescer{handle: h}
	runtime.SetFinalizer(c, (*Coalescer).Close)
	return c, nil
}

func propertyArrays(properties map[string]string) (names, values []string) {
	for k := range properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		values = append(values, properties[k])
	}
	return names, values
}

// Join joins the lookup of (topic, properties): leader is true when the
// caller must start it; waiters counts the callers, this one included.
// It fails with ErrLookupCoalescingTableFull when every slot is taken.
func (c *Coalescer) Join(topic string, properties map[string]string) (leader bool, waiters uint32, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.handle == nil {
		return false, 0, errCoalescerClosed
	}
	names, values := propertyArrays(properties)
	n, freeN := cStrings(names)
	defer freeN()
	v, freeV := cStrings(values)
	defer freeV()
	t := C.CString(topic)
	defer C.free(unsafe.Pointer(t))
	var l C.bool
	var w C.uint32_t
	if err := check(C.pulsar_routing_lookup_coalescer_join(c.handle, t, n, v, C.size_t(len(names)), &l, &w)); err != nil {
		return false, 0, err
	}
	return bool(l), uint32(w), nil
}

// Complete removes the lookup of (topic, properties) and returns how many
// callers to complete with its result (0 if it was not in flight).
func (c *Coalescer) Complete(topic string, properties map[string]string) (uint32, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.handle == nil {
		return 0, errCoalescerClosed
	}
	names, values := propertyArrays(properties)
	n, freeN := cStrings(names)
	defer freeN()
	v, freeV := cStrings(values)
	defer freeV()
	t := C.CString(topic)
	defer C.free(unsafe.Pointer(t))
	var w C.uint32_t
	if err := check(C.pulsar_routing_lookup_coalescer_complete(c.handle, t, n, v, C.size_t(len(names)), &w)); err != nil {
		return 0, err
	}
	return uint32(w), nil
}

// Close frees the table. Calling it again does nothing.
func (c *Coalescer) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handle != nil {
		C.pulsar_routing_lookup_coalescer_free(c.handle)
		c.handle = nil
		runtime.SetFinalizer(c, nil)
	}
}

// MetadataCoalescer is the table of partitioned-metadata requests in
// flight, keyed as Java keys them: (topic, metadataAutoCreation,
// useFallbackForNonPIP344Brokers). Bounded, safe for several goroutines;
// Close releases it (a finalizer frees a forgotten one).
type MetadataCoalescer struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_lookup_metadata_coalescer
}

// NewMetadataCoalescer makes a table of capacity slots.
func NewMetadataCoalescer(capacity int) (*MetadataCoalescer, error) {
	if capacity < 0 {
		capacity = 0
	}
	var h *C.pulsar_routing_lookup_metadata_coalescer
	if err := check(C.pulsar_routing_lookup_metadata_coalescer_new(C.size_t(capacity), &h)); err != nil {
		return nil, err
	}
	m := &MetadataCoalescer{handle: h}
	runtime.SetFinalizer(m, (*MetadataCoalescer).Close)
	return m, nil
}

// Join joins the request for the key: leader is true when the caller must
// send it. It fails with ErrLookupCoalescingTableFull when every slot is
// taken.
func (m *MetadataCoalescer) Join(topic string, metadataAutoCreation, useFallback bool) (leader bool, waiters uint32, err error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.handle == nil {
		return false, 0, errCoalescerClosed
	}
	t := C.CString(topic)
	defer C.free(unsafe.Pointer(t))
	var l C.bool
	var w C.uint32_t
	if err := check(C.pulsar_routing_lookup_metadata_coalescer_join(m.handle, t, C.bool(metadataAutoCreation), C.bool(useFallback), &l, &w)); err != nil {
		return false, 0, err
	}
	return bool(l), uint32(w), nil
}

// Complete removes the request for the key and returns how many callers
// to complete with its result (0 if it was not in flight).
func (m *MetadataCoalescer) Complete(topic string, metadataAutoCreation, useFallback bool) (uint32, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.handle == nil {
		return 0, errCoalescerClosed
	}
	t := C.CString(topic)
	defer C.free(unsafe.Pointer(t))
	var w C.uint32_t
	if err := check(C.pulsar_routing_lookup_metadata_coalescer_complete(m.handle, t, C.bool(metadataAutoCreation), C.bool(useFallback), &w)); err != nil {
		return 0, err
	}
	return uint32(w), nil
}

// Close frees the table. Calling it again does nothing.
func (m *MetadataCoalescer) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.handle != nil {
		C.pulsar_routing_lookup_metadata_coalescer_free(m.handle)
		m.handle = nil
		runtime.SetFinalizer(m, nil)
	}
}

// Java's per-connection lookup limits: concurrentLookupRequest and
// maxLookupRequest.
const (
	DefaultConcurrentLookupRequests = 5000
	DefaultMaxLookupRequests        = 50000
)

// LookupThrottle is a connection's lookup limits (ClientCnx.newLookup):
// concurrent requests in flight, more wait in a queue up to the maximum,
// and beyond it requests fail with ErrLookupTooManyRequests. Safe for
// several goroutines; Close releases it (a finalizer frees a forgotten one).
type LookupThrottle struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_lookup_throttle
}

var errThrottleClosed = &Error{Status: StatusNullParameter, Message: "throttle is closed"}

// NewLookupThrottle makes a throttle with the two limits.
func NewLookupThrottle(concurrent, max uint32) (*LookupThrottle, error) {
	var h *C.pulsar_routing_lookup_throttle
	if err := check(C.pulsar_routing_lookup_throttle_new(C.uint32_t(concurrent), C.uint32_t(max), &h)); err != nil {
		return nil, err
	}
	t := &LookupThrottle{handle: h}
	runtime.SetFinalizer(t, (*LookupThrottle).Close)
	return t, nil
}

// Acquire admits a request: sendNow is true when it may be sent now, false
// when it waits in the queue; inFlight and queued are the counts read
// right after it (Counts; another goroutine may change them meanwhile).
// Beyond both limits it fails with ErrLookupTooManyRequests (Java's
// TooManyRequestsException), and the counts are the ones to pass to
// TopicLookup.OnThrottled.
func (t *LookupThrottle) Acquire() (sendNow bool, inFlight, queued uint32, err error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.handle == nil {
		return false, 0, 0, errThrottleClosed
	}
	var now C.bool
	err = check(C.pulsar_routing_lookup_throttle_acquire(t.handle, &now))
	var f, q C.uint32_t
	if cerr := check(C.pulsar_routing_lookup_throttle_counts(t.handle, &f, &q)); cerr != nil && err == nil {
		err = cerr
	}
	return bool(now) && err == nil, uint32(f), uint32(q), err
}

// Counts are the requests in flight and those waiting in the queue.
func (t *LookupThrottle) Counts() (inFlight, queued uint32, err error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.handle == nil {
		return 0, 0, errThrottleClosed
	}
	var f, q C.uint32_t
	if err := check(C.pulsar_routing_lookup_throttle_counts(t.handle, &f, &q)); err != nil {
		return 0, 0, err
	}
	return uint32(f), uint32(q), nil
}

// Release reports that a request in flight completed: sendQueued is true
// when a queued request may now be sent.
func (t *LookupThrottle) Release() (sendQueued bool, err error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.handle == nil {
		return false, errThrottleClosed
	}
	var b C.bool
	if err := check(C.pulsar_routing_lookup_throttle_release(t.handle, &b)); err != nil {
		return false, err
	}
	return bool(b), nil
}

// CancelQueued abandons a queued lookup before it was sent (its caller
// gave up); false when none was queued.
func (t *LookupThrottle) CancelQueued() (bool, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.handle == nil {
		return false, errThrottleClosed
	}
	var b C.bool
	if err := check(C.pulsar_routing_lookup_throttle_cancel_queued(t.handle, &b)); err != nil {
		return false, err
	}
	return bool(b), nil
}

// Backoff is the Java client's Backoff: delays doubling from an initial
// one up to a maximum, and a mandatory stop. Not safe for concurrent use.
type Backoff struct{ state C.pulsar_routing_backoff }

// NewBackoff starts a backoff; Java's producer uses 100 ms, 60000 ms and
// twice the lookup timeout.
func NewBackoff(initialMs, maxMs, mandatoryStopMs uint64) *Backoff {
	b := &Backoff{}
	C.pulsar_routing_backoff_init(&b.state, C.uint64_t(initialMs), C.uint64_t(maxMs), C.uint64_t(mandatoryStopMs))
	return b
}

// Next is the next delay at nowMs; random stands for Java's
// Random.nextInt(delay / 10) (0 for none).
func (b *Backoff) Next(nowMs uint64, random uint32) uint64 {
	var d C.uint64_t
	C.pulsar_routing_backoff_next(&b.state, C.uint64_t(nowMs), C.uint32_t(random), &d)
	return uint64(d)
}

// Reset starts over from the initial delay.
func (b *Backoff) Reset() { C.pulsar_routing_backoff_reset(&b.state) }

// Close frees the throttle. Calling it again does nothing.
func (t *LookupThrottle) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.handle != nil {
		C.pulsar_routing_lookup_throttle_free(t.handle)
		t.handle = nil
		runtime.SetFinalizer(t, nil)
	}
}

// More actions, of a PartitionedMetadataLookup.
const (
	// ActionConnect: connect to PhysicalAddress (any service host), then
	// report OnConnected with the broker's PIP-344 flag.
	ActionConnect LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_CONNECT
	// ActionSendPartitionedMetadata: send PARTITIONED_METADATA with
	// MetadataAutoCreation.
	ActionSendPartitionedMetadata LookupActionKind = C.PULSAR_ROUTING_LOOKUP_ACTION_SEND_PARTITIONED_METADATA
)

// ErrLookupFeatureNotSupported: metadata without auto-creation was asked
// of a broker without PIP-344, and the fallback is off.
var ErrLookupFeatureNotSupported = &Error{Status: StatusLookupFeatureNotSupported}

// MetadataOptions configure a PartitionedMetadataLookup; the zero value
// is not the default, use DefaultMetadataOptions.
type MetadataOptions struct {
	// OperationTimeoutMs is operationTimeoutMs (30000).
	OperationTimeoutMs uint64
	// LookupTimeoutMs is lookupTimeoutMs, the retries' time budget (and
	// half the backoff's mandatory stop); 0 means the operation timeout.
	LookupTimeoutMs uint64
	// MetadataAutoCreation is metadataAutoCreationEnabled (true).
	MetadataAutoCreation bool
	// UseFallbackForNonPIP344 asks with auto-creation on when the broker
	// lacks PIP-344, instead of failing with ErrLookupFeatureNotSupported.
	UseFallbackForNonPIP344 bool
	// JitterSeed seeds the backoff's jitter.
	JitterSeed uint64
}

// DefaultMetadataOptions are the Java producer's: 30 s, auto-creation on,
// no fallback.
func DefaultMetadataOptions() MetadataOptions {
	return MetadataOptions{OperationTimeoutMs: 30000, MetadataAutoCreation: true}
}

// PartitionedMetadataLookup is the partitioned-metadata step before a
// producer starts (PulsarClientImpl.getPartitionedTopicMetadata): one
// request to any service host, retried with backoff except after errors
// that cannot succeed on a retry. ActionDone carries the partition count:
// 0 means one lookup of the topic, N one per "<topic>-partition-<i>".
// Safe for several goroutines (each event takes an exclusive lock, as the
// C handle is used by one thread at a time); Close releases it (a
// finalizer frees a forgotten one).
type PartitionedMetadataLookup struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_partitioned_metadata
}

// MetadataAction is a PartitionedMetadataLookup's next step: Kind, and
// PhysicalAddress for ActionConnect, MetadataAutoCreation for
// ActionSendPartitionedMetadata, Partitions for ActionDone, AtMs for
// ActionRetryAt, Err for ActionRetryAt and ActionFailed.
type MetadataAction struct {
	Kind                 LookupActionKind
	PhysicalAddress      string
	MetadataAutoCreation bool
	Partitions           uint32
	Attempt              uint32
	AtMs                 uint64
	DelayMs              uint64
	Err                  error
	ServerError          ServerError
	// Reason says why this is the next step, as LookupAction.Reason.
	Reason string
}

// NewPartitionedMetadataLookup builds the step for the service address.
func NewPartitionedMetadataLookup(serviceAddress string, options MetadataOptions) (*PartitionedMetadataLookup, error) {
	o := C.pulsar_routing_metadata_options{
		operation_timeout_ms:        C.uint64_t(options.OperationTimeoutMs),
		lookup_timeout_ms:           C.uint64_t(options.LookupTimeoutMs),
		metadata_auto_creation:      C.bool(options.MetadataAutoCreation),
		use_fallback_for_non_pip344: C.bool(options.UseFallbackForNonPIP344),
		jitter_seed:                 C.uint64_t(options.JitterSeed),
	}
	addr := C.CString(serviceAddress)
	defer C.free(unsafe.Pointer(addr))
	var h *C.pulsar_routing_partitioned_metadata
	if err := check(C.pulsar_routing_partitioned_metadata_new(addr, &o, &h)); err != nil {
		return nil, err
	}
	m := &PartitionedMetadataLookup{handle: h}
	runtime.SetFinalizer(m, (*PartitionedMetadataLookup).Close)
	return m, nil
}

func (m *PartitionedMetadataLookup) event(event C.pulsar_routing_partitioned_metadata_event, flag bool, partitions uint32, code int32, message string, nowMs uint64) (MetadataAction, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.handle == nil {
		return MetadataAction{}, errLookupClosed
	}
	var a C.pulsar_routing_lookup_action
	msg, n := stringPtr(message)
	if err := check(C.pulsar_routing_partitioned_metadata_on_event(m.handle, event,
		C.bool(flag), C.uint32_t(partitions), C.int32_t(code), msg, n, C.uint64_t(nowMs), &a)); err != nil {
		return MetadataAction{}, err
	}
	out := MetadataAction{
		Kind:                 LookupActionKind(a.kind),
		MetadataAutoCreation: bool(a.metadata_auto_creation),
		Partitions:           uint32(a.partitions),
		Attempt:              uint32(a.attempt),
		AtMs:                 uint64(a.at_ms),
		DelayMs:              uint64(a.delay_ms),
		ServerError:          ServerError(a.server_error),
	}
	if a.physical_address != nil {
		out.PhysicalAddress = C.GoString(a.physical_address)
	}
	out.Reason = C.GoString(a.reason)
	if a.error != C.PULSAR_ROUTING_STATUS_OK {
		out.Err = actionError(a.error, func(buf *C.uint8_t, bl C.size_t, w *C.size_t) C.pulsar_routing_status {
			return C.pulsar_routing_partitioned_metadata_error_message(m.handle, buf, bl, w)
		})
	}
	return out, nil
}

// Start starts at nowMs: the first action is ActionConnect.
func (m *PartitionedMetadataLookup) Start(nowMs uint64) (MetadataAction, error) {
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START, false, 0, -1, "", nowMs)
}

// OnConnected reports the connection, with the broker's
// supports_get_partitioned_metadata_without_auto_creation flag.
func (m *PartitionedMetadataLookup) OnConnected(supportsPIP344 bool, nowMs uint64) (MetadataAction, error) {
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED, supportsPIP344, 0, -1, "", nowMs)
}

// OnSuccess reports a Success response with the partition count.
func (m *PartitionedMetadataLookup) OnSuccess(partitions uint32, nowMs uint64) (MetadataAction, error) {
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_SUCCESS, false, partitions, -1, "", nowMs)
}

// OnFailed reports a Failed response (or one without a response type);
// hasError false is a response without a code (Java's "Empty lookup
// response"). message is the broker's text ("" for none): the action's Err
// ends with it after a server error.
func (m *PartitionedMetadataLookup) OnFailed(hasError bool, code ServerError, message string, nowMs uint64) (MetadataAction, error) {
	c := int32(-1)
	if hasError {
		c = int32(code)
	}
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED, false, 0, c, message, nowMs)
}

// OnConnectionFailed reports that the connection failed.
func (m *PartitionedMetadataLookup) OnConnectionFailed(nowMs uint64) (MetadataAction, error) {
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTION_FAILED, false, 0, -1, "", nowMs)
}

// OnRetryTimer reports that the timer of an ActionRetryAt fired; before
// its AtMs the action is ActionIgnored and the retry stays due.
func (m *PartitionedMetadataLookup) OnRetryTimer(nowMs uint64) (MetadataAction, error) {
	return m.event(C.PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_RETRY_TIMER, false, 0, -1, "", nowMs)
}

// Close frees the lookup. Calling it again does nothing.
func (m *PartitionedMetadataLookup) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.handle != nil {
		C.pulsar_routing_partitioned_metadata_free(m.handle)
		m.handle = nil
		runtime.SetFinalizer(m, nil)
	}
}

// ProducerStartTopic is the topic of a producer start's index-th lookup:
// the topic itself for 0 partitions, else "<topic>-partition-<index>". An
// index past the lookups fails with StatusIllegalPartitionIndex.
func ProducerStartTopic(topic string, partitions, index uint32) (string, error) {
	p, n := stringPtr(topic)
	return readString(func(buf *C.uint8_t, bl C.size_t, w *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_producer_start_topic(p, n, C.uint32_t(partitions), C.uint32_t(index), buf, bl, w)
	})
}
