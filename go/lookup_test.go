package pulsarrouting

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

const lookupService = "pulsar://proxy:6650"

func mustAction(t *testing.T, a LookupAction, err error, kind LookupActionKind) LookupAction {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != kind {
		t.Fatalf("action %+v, want kind %d", a, kind)
	}
	return a
}

// Spec 6.2: the first request is non-authoritative to the service
// address, a Redirect copies the response's flag, a Connect gives the
// broker, and with proxy_through_service_url Java keeps the hop that
// answered as the physical address.
func TestTopicLookupRedirectThenConnectThroughProxy(t *testing.T) {
	l, err := NewTopicLookup(lookupService, DefaultLookupOptions(), 21)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, err := l.Start(0)
	a = mustAction(t, a, err, ActionSendLookup)
	if a.LogicalAddress != lookupService || a.Authoritative || !a.SendProperties {
		t.Fatalf("first request %+v", a)
	}
	a, err = l.OnResponse(LookupResponse{Type: LookupTypeRedirect, BrokerServiceURL: "pulsar://b2:6650", Authoritative: true}, 3)
	a = mustAction(t, a, err, ActionSendLookup)
	if a.LogicalAddress != "pulsar://b2:6650" || a.PhysicalAddress != "pulsar://b2:6650" || !a.Authoritative || a.Redirects != 1 {
		t.Fatalf("redirected request %+v", a)
	}
	a, err = l.OnResponse(LookupResponse{Type: LookupTypeConnect, BrokerServiceURL: "pulsar://b3:6650", ProxyThroughServiceURL: true}, 5)
	a = mustAction(t, a, err, ActionDone)
	if a.LogicalAddress != "pulsar://b3:6650" || a.PhysicalAddress != "pulsar://b2:6650" || !a.UseProxy {
		t.Fatalf("result %+v", a)
	}
	chain, err := l.Chain()
	if err != nil {
		t.Fatal(err)
	}
	want := []Hop{{lookupService, false}, {"pulsar://b2:6650", true}}
	if len(chain) != len(want) || chain[0] != want[0] || chain[1] != want[1] {
		t.Fatalf("chain %+v", chain)
	}
}

// The Go profile sends redirected requests without the properties and,
// with proxy_through_service_url, through the service address.
func TestTopicLookupGoProfile(t *testing.T) {
	o := DefaultLookupOptions()
	o.Profile = LookupProfileGo
	l, err := NewTopicLookup(lookupService, o, 21)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, _ = l.Start(0)
	a, err := l.OnResponse(LookupResponse{Type: LookupTypeRedirect, BrokerServiceURL: "pulsar://b2:6650", ProxyThroughServiceURL: true}, 1)
	a = mustAction(t, a, err, ActionSendLookup)
	if a.SendProperties || a.LogicalAddress != "pulsar://b2:6650" || a.PhysicalAddress != lookupService {
		t.Fatalf("go redirect %+v", a)
	}

	// pulsar-client-go reads 20 responses: the 20th Redirect still sends a
	// 21st LOOKUP, and whatever answers it, the attempt fails (retried, as
	// the options retry).
	for i := 2; i <= 20; i++ {
		a, err = l.OnResponse(LookupResponse{Type: LookupTypeRedirect, BrokerServiceURL: fmt.Sprintf("pulsar://b%d:6650", i+1)}, uint64(i))
		a = mustAction(t, a, err, ActionSendLookup)
		if a.Redirects != uint32(i) {
			t.Fatalf("redirect %d: %+v", i, a)
		}
	}
	a, err = l.OnResponse(LookupResponse{Type: LookupTypeConnect, BrokerServiceURL: "pulsar://b22:6650"}, 21)
	a = mustAction(t, a, err, ActionRetryAt)
	if !errors.Is(a.Err, ErrLookupGoRedirectLimit) {
		t.Fatalf("21st answer: %+v", a)
	}
}

// ServiceNotReady (a leader change) is retried after the 100 ms backoff;
// TopicNotFound fails at once (Java's TopicDoesNotExistException is not
// retriable); both are error values carrying the broker's code.
func TestTopicLookupErrorsAreErrorValues(t *testing.T) {
	o := DefaultLookupOptions()
	l, err := NewTopicLookup(lookupService, o, 21)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, _ = l.Start(0)
	a, err := l.OnResponse(LookupResponse{Type: LookupTypeFailed, HasError: true, Error: ServerErrorServiceNotReady, Message: "leader election"}, 10)
	a = mustAction(t, a, err, ActionRetryAt)
	if a.AtMs != 110 || !errors.Is(a.Err, ErrLookupServerError) || a.ServerError != ServerErrorServiceNotReady {
		t.Fatalf("retry %+v", a)
	}
	if !strings.Contains(a.Err.Error(), "leader election") {
		t.Fatalf("message %q lacks the broker's", a.Err)
	}
	a, err = l.OnRetryTimer(110)
	mustAction(t, a, err, ActionSendLookup)
	a, err = l.OnResponse(LookupResponse{Type: LookupTypeFailed, HasError: true, Error: ServerErrorTopicNotFound}, 120)
	a = mustAction(t, a, err, ActionFailed)
	if a.ServerError != ServerErrorTopicNotFound || !errors.Is(a.Err, ErrLookupServerError) {
		t.Fatalf("failed %+v", a)
	}
	// A finished lookup ignores further events.
	a, err = l.OnConnectionFailed(130)
	mustAction(t, a, err, ActionIgnored)
	// A code outside 0..25 is a call error, not a lookup error.
	if _, err := l.OnResponse(LookupResponse{Type: LookupTypeFailed, HasError: true, Error: 99}, 140); !errors.Is(err, &Error{Status: StatusUnknownServerError}) {
		t.Fatalf("code 99: %v", err)
	}
}

// "Too many redirects: N" (Java's LookupException) after the limit.
func TestTopicLookupRedirectLimit(t *testing.T) {
	o := DefaultLookupOptions()
	o.MaxRedirects = 2
	o.Retry = false
	o.DetectRedirectLoops = false
	l, err := NewTopicLookup(lookupService, o, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, _ = l.Start(0)
	var a LookupAction
	for i := 0; i < 3; i++ {
		a, err = l.OnResponse(LookupResponse{Type: LookupTypeRedirect, BrokerServiceURL: "pulsar://b:6650"}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
	}
	mustAction(t, a, nil, ActionFailed)
	if !errors.Is(a.Err, ErrLookupTooManyRedirects) || a.Err.Error() != "pulsar_routing: Too many redirects: 2" {
		t.Fatalf("limit: %v", a.Err)
	}
}

func TestTopicLookupClosed(t *testing.T) {
	l, err := NewTopicLookup(lookupService, DefaultLookupOptions(), 0)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	l.Close()
	if _, err := l.Start(0); err == nil {
		t.Fatal("a closed lookup started")
	}
	if _, err := NewTopicLookup(strings.Repeat("x", 10000), DefaultLookupOptions(), 0); !errors.Is(err, &Error{Status: StatusLookupAddressTooLong}) {
		t.Fatalf("long address: %v", err)
	}
}

// One leader among goroutines racing for the same (topic, properties);
// the properties are a map, so their order does not matter.
func TestCoalescerSharedByGoroutines(t *testing.T) {
	c, err := NewCoalescer(2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	leaders := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			leader, _, err := c.Join("persistent://t/ns/a", map[string]string{"a": "1", "b": "2"})
			if err != nil {
				t.Error(err)
				return
			}
			if leader {
				mu.Lock()
				leaders++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if leaders != 1 {
		t.Fatalf("%d leaders", leaders)
	}
	n, err := c.Complete("persistent://t/ns/a", map[string]string{"b": "2", "a": "1"})
	if err != nil || n != 16 {
		t.Fatalf("complete: %d %v", n, err)
	}
	_, _, _ = c.Join("x", nil)
	_, _, _ = c.Join("y", nil)
	if _, _, err := c.Join("z", nil); !errors.Is(err, ErrLookupCoalescingTableFull) {
		t.Fatalf("full table: %v", err)
	}
}

// Java keys partitioned-metadata requests on the topic and both PIP-344
// flags.
func TestMetadataCoalescerKeys(t *testing.T) {
	m, err := NewMetadataCoalescer(4)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if leader, w, err := m.Join("t", true, false); err != nil || !leader || w != 1 {
		t.Fatalf("first: %v %d %v", leader, w, err)
	}
	if leader, w, err := m.Join("t", true, false); err != nil || leader || w != 2 {
		t.Fatalf("second: %v %d %v", leader, w, err)
	}
	if leader, _, err := m.Join("t", false, true); err != nil || !leader {
		t.Fatalf("other flags: %v %v", leader, err)
	}
	if n, err := m.Complete("t", true, false); err != nil || n != 2 {
		t.Fatalf("complete: %d %v", n, err)
	}
	if n, err := m.Complete("t", true, false); err != nil || n != 0 {
		t.Fatalf("again: %d %v", n, err)
	}
	empty, err := NewMetadataCoalescer(0)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if _, _, err := empty.Join("t", true, false); !errors.Is(err, ErrLookupCoalescingTableFull) {
		t.Fatalf("zero capacity: %v", err)
	}
}

// ClientCnx's limits: concurrent in flight, then a queue, then
// TooManyRequests, which the lookup driver takes as a retriable failure.
func TestLookupThrottleFeedsTheDriver(t *testing.T) {
	th, err := NewLookupThrottle(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer th.Close()
	if now, _, _, err := th.Acquire(); err != nil || !now {
		t.Fatalf("first: %v %v", now, err)
	}
	if now, _, _, err := th.Acquire(); err != nil || now {
		t.Fatalf("second is queued: %v %v", now, err)
	}
	_, inFlight, queued, err := th.Acquire()
	if !errors.Is(err, ErrLookupTooManyRequests) || inFlight != 1 || queued != 1 {
		t.Fatalf("third: %d %d %v", inFlight, queued, err)
	}
	if send, err := th.Release(); err != nil || !send {
		t.Fatalf("release: %v %v", send, err)
	}
	if f, q, err := th.Counts(); err != nil || f != 1 || q != 0 {
		t.Fatalf("counts after release: %d %d %v", f, q, err)
	}
	l, err := NewTopicLookup(lookupService, DefaultLookupOptions(), 4)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, _ = l.Start(0)
	a, err := l.OnThrottled(inFlight, queued, 1)
	a = mustAction(t, a, err, ActionRetryAt)
	if !errors.Is(a.Err, ErrLookupTooManyRequests) || !strings.HasPrefix(a.Err.Error(), "pulsar_routing: Requests number out of config") {
		t.Fatalf("throttled: %v", a.Err)
	}
}

// Spec 6.3: the metadata step connects to any service host, sends
// PARTITIONED_METADATA, and plans one lookup per partition; without
// PIP-344 and without the fallback, auto-creation off fails at once.
func TestPartitionedMetadataLookupPlansTheProducerStart(t *testing.T) {
	m, err := NewPartitionedMetadataLookup(lookupService, DefaultMetadataOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a, err := m.Start(0)
	if err != nil || a.Kind != ActionConnect || a.PhysicalAddress != lookupService {
		t.Fatalf("start: %+v %v", a, err)
	}
	a, err = m.OnConnected(false, 1)
	if err != nil || a.Kind != ActionSendPartitionedMetadata || !a.MetadataAutoCreation {
		t.Fatalf("connected: %+v %v", a, err)
	}
	// Failed without a code: "Empty lookup response", retried.
	a, err = m.OnFailed(false, 0, "", 2)
	if err != nil || a.Kind != ActionRetryAt || !errors.Is(a.Err, ErrLookupEmptyResponse) {
		t.Fatalf("empty: %+v %v", a, err)
	}
	_, _ = m.OnRetryTimer(a.AtMs)
	_, _ = m.OnConnected(true, a.AtMs)
	a, err = m.OnSuccess(3, a.AtMs+1)
	if err != nil || a.Kind != ActionDone || a.Partitions != 3 {
		t.Fatalf("done: %+v %v", a, err)
	}
	for i, want := range []string{"persistent://t/ns/a-partition-0", "persistent://t/ns/a-partition-2"} {
		got, err := ProducerStartTopic("persistent://t/ns/a", 3, uint32(2*i))
		if err != nil || got != want {
			t.Fatalf("topic %d: %q %v", 2*i, got, err)
		}
	}
	if got, err := ProducerStartTopic("persistent://t/ns/a", 0, 0); err != nil || got != "persistent://t/ns/a" {
		t.Fatalf("non-partitioned: %q %v", got, err)
	}
	if _, err := ProducerStartTopic("persistent://t/ns/a", 3, 3); !errors.Is(err, &Error{Status: StatusIllegalPartitionIndex}) {
		t.Fatalf("index past the end: %v", err)
	}

	o := DefaultMetadataOptions()
	o.MetadataAutoCreation = false
	strict, err := NewPartitionedMetadataLookup(lookupService, o)
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	_, _ = strict.Start(0)
	a, err = strict.OnConnected(false, 1)
	if err != nil || a.Kind != ActionFailed || !errors.Is(a.Err, ErrLookupFeatureNotSupported) {
		t.Fatalf("no PIP-344: %+v %v", a, err)
	}
	// Authentication is not retried on this path.
	auth, err := NewPartitionedMetadataLookup(lookupService, DefaultMetadataOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer auth.Close()
	_, _ = auth.Start(0)
	_, _ = auth.OnConnected(true, 1)
	a, err = auth.OnFailed(true, 3, "", 2) // AuthenticationError
	if err != nil || a.Kind != ActionFailed || a.ServerError != 3 {
		t.Fatalf("authentication: %+v %v", a, err)
	}
}

// The broker's message of a failed partitioned-metadata response reaches
// the error, and a retry timer before its time is ignored.
func TestPartitionedMetadataFailedMessageAndEarlyTimer(t *testing.T) {
	m, err := NewPartitionedMetadataLookup(lookupService, DefaultMetadataOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, _ = m.Start(0)
	_, _ = m.OnConnected(true, 1)
	a, err := m.OnFailed(true, 6, "Namespace bundle is being unloaded", 2) // ServiceNotReady
	if err != nil || a.Kind != ActionRetryAt || !strings.HasSuffix(a.Err.Error(), ": Namespace bundle is being unloaded") {
		t.Fatalf("failed: %+v %v", a, err)
	}
	early, err := m.OnRetryTimer(a.AtMs - 1)
	if err != nil || early.Kind != ActionIgnored {
		t.Fatalf("early timer: %+v %v", early, err)
	}
	again, err := m.OnRetryTimer(a.AtMs)
	if err != nil || again.Kind != ActionConnect || again.Attempt != 2 {
		t.Fatalf("timer: %+v %v", again, err)
	}
}
