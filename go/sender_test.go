package pulsarrouting

import (
	"errors"
	"testing"
)

// The scenario of ffi-c/tests/sender.c: Kafka's defaults, a connect, a
// slow broker that fills the in-flight window, a leader change that pauses
// sends, and the counters.
func TestSenderGateScenario(t *testing.T) {
	config := DefaultSenderConfig()
	if config.MaxInFlight != 5 || !config.EnableIdempotence || config.MetadataMaxAgeMs != 300000 {
		t.Errorf("defaults %+v", config)
	}
	config.MaxInFlight = 6
	if _, err := NewSenderGate(config, []int32{1, 2}); !errors.Is(err, &Error{Status: StatusSenderMaxInFlightTooLargeForIdempotence}) {
		t.Errorf("6 in flight with idempotence: %v", err)
	}
	config.MaxInFlight = 5
	if _, err := NewSenderGate(config, []int32{1, 1}); !errors.Is(err, &Error{Status: StatusSenderDuplicateNode}) {
		t.Errorf("duplicate node: %v", err)
	}
	g, err := NewSenderGate(config, []int32{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r, err := g.Ready(1, 0)
	if err != nil || r.Reason != ReadinessInitiateConnect || r.IsReady() {
		t.Fatalf("first ready: %+v, %v", r, err)
	}
	for _, step := range []error{
		g.ConnectionEvent(1, EventConnected, 1, 0.5),
		g.ConnectionEvent(1, EventAuthenticated, 2, 0.5),
		g.MetadataEvent(MetadataFetchStarted, 3, 0.5),
		g.MetadataEvent(MetadataUpdated, 3, 0.5),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	if ms, err := g.TimeToNextMetadataUpdate(3); err != nil || ms != config.MetadataMaxAgeMs {
		t.Errorf("next metadata update in %d, %v", ms, err)
	}
	// A slow broker: five requests, then the gate holds the node.
	for i := 0; i < 5; i++ {
		if err := g.Send(1, 4); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Send(1, 4); !errors.Is(err, &Error{Status: StatusSenderNotReady}) {
		t.Errorf("a sixth request: %v", err)
	}
	r, err = g.Check(1, 4)
	if err != nil || r.String() != "node 1 not ready: in flight 5/5" {
		t.Errorf("check: %q, %v", r.String(), err)
	}
	// A leader change: the refresh pauses sends once retry.backoff.ms
	// passed.
	if err := g.Response(1, OutcomeNotLeaderOrFollower); err != nil {
		t.Fatal(err)
	}
	ready, rs, err := g.FilterReady([]int32{2, 1}, 103)
	if err != nil || len(ready) != 0 || rs[0].Reason != ReadinessInitiateConnect || rs[1].Reason != ReadinessMetadataDue || !rs[1].MetadataUpdateRequested {
		t.Errorf("filter: %v %+v %v", ready, rs, err)
	}
	c, err := g.Counters(103)
	if err != nil || c != (SenderCounters{ConnectionCount: 2, ConnectionCreationTotal: 1, InFlightRequests: 4, MetadataAgeMs: 100}) {
		t.Errorf("counters %+v, %v", c, err)
	}
	if err := g.Throttle(7, 200); !errors.Is(err, &Error{Status: StatusSenderUnknownNode}) {
		t.Errorf("unknown node: %v", err)
	}
	if r, err := g.Ready(7, 0); err != nil || r.Reason != ReadinessUnknownNode {
		t.Errorf("unknown node ready: %+v, %v", r, err)
	}
	inGoroutines(t, 4, 50, func(gr, i int) error {
		_, err := g.Check(int32(1+gr%2), uint64(200+i))
		if err == nil {
			_, err = g.Ready(int32(1+gr%2), uint64(200+i))
		}
		return err
	})
}

func TestPendingQueue(t *testing.T) {
	q, err := NewPendingQueue(1, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.TryEnqueue(); err != nil {
		t.Fatal(err)
	}
	err = q.TryEnqueue()
	if !errors.Is(err, &Error{Status: StatusProducerQueueIsFull}) || err.(*Error).Message != "Producer send queue is full" {
		t.Errorf("full queue: %v", err)
	}
	if q.Pending() != 1 {
		t.Errorf("pending %d", q.Pending())
	}
	q.Complete(5)
	if q.Pending() != 0 || q.TryEnqueue() != nil {
		t.Errorf("after completion: %d", q.Pending())
	}
	b, _ := NewPendingQueue(1, true)
	b.TryEnqueue()
	if err := b.TryEnqueue(); !errors.Is(err, &Error{Status: StatusProducerQueueWouldBlock}) {
		t.Errorf("blocking queue: %v", err)
	}
	if _, err := NewPendingQueue(-1, false); !errors.Is(err, &Error{Status: StatusMaxPendingMessagesNegative}) {
		t.Errorf("negative: %v", err)
	}
	if n := RequiredMaxPendingMessages(5000, 2500); n != 12500 {
		t.Errorf("required %d", n)
	}
}

// Java's Backoff without jitter: 100 ms doubling, and once the delays
// handed out since the first would pass the mandatory stop (1000 ms), one
// delay cut to what is left (never below the initial delay).
func TestBackoff(t *testing.T) {
	b := NewBackoff(100, 60000, 1000)
	for i, now := range []uint64{0, 100, 300, 700, 1000} {
		want := []uint64{100, 200, 400, 300, 1600}[i]
		if got := b.Next(now, 0); got != want {
			t.Errorf("delay %d at %d: %d, want %d", i, now, got, want)
		}
	}
	// The random draw lowers a delay by at most a tenth.
	b.Reset()
	for _, c := range []struct {
		now    uint64
		random uint32
		want   uint64
	}{{0, 0, 100}, {100, 19, 200 - 19}, {300, 40 + 7, 400 - 7}} {
		if got := b.Next(c.now, c.random); got != c.want {
			t.Errorf("%+v: %d", c, got)
		}
	}
}

func TestLookupThrottleCancelQueued(t *testing.T) {
	th, err := NewLookupThrottle(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer th.Close()
	if cancelled, err := th.CancelQueued(); err != nil || cancelled {
		t.Errorf("nothing queued: %v, %v", cancelled, err)
	}
	th.Acquire()
	if sendNow, _, queued, err := th.Acquire(); err != nil || sendNow || queued != 1 {
		t.Fatalf("second acquire: %v %d %v", sendNow, queued, err)
	}
	if cancelled, err := th.CancelQueued(); err != nil || !cancelled {
		t.Errorf("one queued: %v, %v", cancelled, err)
	}
	if _, queued, _ := th.Counts(); queued != 0 {
		t.Errorf("queued after cancel: %d", queued)
	}
}
