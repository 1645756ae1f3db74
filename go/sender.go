package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"fmt"
	"runtime"
)

// SenderConfig are a Kafka producer's settings the sender gate reads;
// DefaultSenderConfig gives Kafka's defaults. Times in milliseconds.
type SenderConfig struct {
	MaxInFlight           int64
	EnableIdempotence     bool
	ReconnectBackoffMs    uint64
	ReconnectBackoffMaxMs uint64
	MetadataMaxAgeMs      uint64
	RetryBackoffMs        uint64
	RetryBackoffMaxMs     uint64
}

// DefaultSenderConfig is Kafka's defaults: idempotence on, 5 in flight,
// reconnect backoff 50 to 1000 ms, metadata max age 300000 ms, retry
// backoff 100 to 1000 ms.
func DefaultSenderConfig() SenderConfig {
	var c C.pulsar_routing_sender_config
	C.pulsar_routing_sender_config_default(&c)
	return SenderConfig{
		MaxInFlight: int64(c.max_in_flight), EnableIdempotence: bool(c.enable_idempotence),
		ReconnectBackoffMs: uint64(c.reconnect_backoff_ms), ReconnectBackoffMaxMs: uint64(c.reconnect_backoff_max_ms),
		MetadataMaxAgeMs: uint64(c.metadata_max_age_ms), RetryBackoffMs: uint64(c.retry_backoff_ms),
		RetryBackoffMaxMs: uint64(c.retry_backoff_max_ms),
	}
}

// ReadinessReason says why a node is or is not ready.
type ReadinessReason uint32

// The reasons.
const (
	ReadinessReady            ReadinessReason = C.PULSAR_ROUTING_READINESS_READY
	ReadinessInitiateConnect  ReadinessReason = C.PULSAR_ROUTING_READINESS_INITIATE_CONNECT
	ReadinessReconnectBackoff ReadinessReason = C.PULSAR_ROUTING_READINESS_RECONNECT_BACKOFF
	ReadinessConnecting       ReadinessReason = C.PULSAR_ROUTING_READINESS_CONNECTING
	ReadinessThrottled        ReadinessReason = C.PULSAR_ROUTING_READINESS_THROTTLED
	ReadinessInFlightFull     ReadinessReason = C.PULSAR_ROUTING_READINESS_IN_FLIGHT_FULL
	ReadinessMetadataDue      ReadinessReason = C.PULSAR_ROUTING_READINESS_METADATA_DUE
	ReadinessUnknownNode      ReadinessReason = C.PULSAR_ROUTING_READINESS_UNKNOWN_NODE
)

// ConnectionState is a node's connection state.
type ConnectionState uint32

// The states.
const (
	NotConnected   ConnectionState = C.PULSAR_ROUTING_CONNECTION_STATE_NOT_CONNECTED
	Connecting     ConnectionState = C.PULSAR_ROUTING_CONNECTION_STATE_CONNECTING
	Authenticating ConnectionState = C.PULSAR_ROUTING_CONNECTION_STATE_AUTHENTICATING
	Ready          ConnectionState = C.PULSAR_ROUTING_CONNECTION_STATE_READY
)

// ConnectionEvent is what happened to a node's connection.
type ConnectionEvent uint32

// The events.
const (
	EventConnect              ConnectionEvent = C.PULSAR_ROUTING_CONNECTION_EVENT_CONNECT
	EventConnected            ConnectionEvent = C.PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED
	EventAuthenticated        ConnectionEvent = C.PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED
	EventDisconnected         ConnectionEvent = C.PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED
	EventAuthenticationFailed ConnectionEvent = C.PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED
)

// ProduceOutcome is a node's answer to a produce request.
type ProduceOutcome uint32

// The outcomes; NotLeaderOrFollower requests a metadata refresh.
const (
	OutcomeSuccess             ProduceOutcome = C.PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS
	OutcomeNotLeaderOrFollower ProduceOutcome = C.PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER
	OutcomeOtherError          ProduceOutcome = C.PULSAR_ROUTING_PRODUCE_OUTCOME_OTHER_ERROR
)

// MetadataEvent is what happened to the producer's metadata.
type MetadataEvent uint32

// The events.
const (
	MetadataRequestUpdate MetadataEvent = C.PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE
	MetadataFetchStarted  MetadataEvent = C.PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED
	MetadataUpdated       MetadataEvent = C.PULSAR_ROUTING_METADATA_EVENT_UPDATED
	MetadataFailed        MetadataEvent = C.PULSAR_ROUTING_METADATA_EVENT_FAILED
)

// Readiness is a node's readiness (NetworkClient.ready).
type Readiness struct {
	Node                    int32
	Reason                  ReadinessReason
	State                   ConnectionState
	InFlight, MaxInFlight   uint32
	MetadataAgeMs           uint64
	MetadataUpdateRequested bool
	BackoffRemainingMs      uint64
}

func readinessFromC(r C.pulsar_routing_readiness) Readiness {
	return Readiness{
		Node: int32(r.node), Reason: ReadinessReason(r.reason), State: ConnectionState(r.state),
		InFlight: uint32(r.in_flight), MaxInFlight: uint32(r.max_in_flight), MetadataAgeMs: uint64(r.metadata_age_ms),
		MetadataUpdateRequested: bool(r.metadata_update_requested), BackoffRemainingMs: uint64(r.backoff_remaining_ms),
	}
}

// IsReady tells a node a request may be sent to.
func (r Readiness) IsReady() bool { return r.Reason == ReadinessReady }

// String is the library's text, e.g. "node 1 not ready: in flight 5/5".
func (r Readiness) String() string {
	c := C.pulsar_routing_readiness{
		node: C.int32_t(r.Node), reason: C.pulsar_routing_readiness_reason(r.Reason),
		state: C.pulsar_routing_connection_state(r.State), in_flight: C.uint32_t(r.InFlight),
		max_in_flight: C.uint32_t(r.MaxInFlight), metadata_age_ms: C.uint64_t(r.MetadataAgeMs),
		metadata_update_requested: C.bool(r.MetadataUpdateRequested), backoff_remaining_ms: C.uint64_t(r.BackoffRemainingMs),
	}
	s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_readiness_message(&c, buf, bufLen, written)
	})
	if err != nil {
		return fmt.Sprintf("Readiness(%d, %d): %v", r.Node, r.Reason, err)
	}
	return s
}

// SenderCounters are the producer metrics.
type SenderCounters struct {
	ConnectionCount, ConnectionCreationTotal, InFlightRequests, MetadataAgeMs uint64
}

// SenderGate is the Kafka producer's sender gate: which nodes a produce
// request may go to now, connection states, backoffs, throttles, requests
// in flight and metadata refreshes. Safe for concurrent use (calls are
// serialised); Close releases it.
type SenderGate struct {
	h handle[*C.pulsar_routing_sender_gate]
}

// NewSenderGate is the gate of a just-built producer over the broker ids
// nodes: no connection yet, a metadata update due.
func NewSenderGate(config SenderConfig, nodes []int32) (*SenderGate, error) {
	c := C.pulsar_routing_sender_config{
		max_in_flight: C.int64_t(config.MaxInFlight), enable_idempotence: C.bool(config.EnableIdempotence),
		reconnect_backoff_ms: C.uint64_t(config.ReconnectBackoffMs), reconnect_backoff_max_ms: C.uint64_t(config.ReconnectBackoffMaxMs),
		metadata_max_age_ms: C.uint64_t(config.MetadataMaxAgeMs), retry_backoff_ms: C.uint64_t(config.RetryBackoffMs),
		retry_backoff_max_ms: C.uint64_t(config.RetryBackoffMaxMs),
	}
	ids := make([]C.int32_t, len(nodes)+1)
	for i, n := range nodes {
		ids[i] = C.int32_t(n)
	}
	var h *C.pulsar_routing_sender_gate
	if err := check(C.pulsar_routing_sender_gate_new(&c, &ids[0], C.size_t(len(nodes)), &h)); err != nil {
		return nil, err
	}
	g := &SenderGate{}
	g.h.init(h, "gate")
	runtime.SetFinalizer(g, (*SenderGate).Close)
	return g, nil
}

// write runs f with the gate to itself (the C gate changes); read with
// other readers.
func (g *SenderGate) write(f func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status) error {
	return g.h.useExclusive(func(h *C.pulsar_routing_sender_gate) error { return check(f(h)) })
}

func (g *SenderGate) read(f func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status) error {
	return g.h.use(func(h *C.pulsar_routing_sender_gate) error { return check(f(h)) })
}

// Ready is NetworkClient.ready(node, now): on ReadinessInitiateConnect the
// node moves to Connecting (open the socket, then report EventConnected or
// EventDisconnected).
func (g *SenderGate) Ready(node int32, nowMs uint64) (Readiness, error) {
	var r C.pulsar_routing_readiness
	err := g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_ready(h, C.int32_t(node), C.uint64_t(nowMs), &r)
	})
	return readinessFromC(r), err
}

// Check is the node's readiness without side effects.
func (g *SenderGate) Check(node int32, nowMs uint64) (Readiness, error) {
	var r C.pulsar_routing_readiness
	err := g.read(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_check(h, C.int32_t(node), C.uint64_t(nowMs), &r)
	})
	return readinessFromC(r), err
}

// FilterReady is Sender.sendProducerData's filter: Ready on each node; the
// ready ones, in order, and every node's readiness as given.
func (g *SenderGate) FilterReady(nodes []int32, nowMs uint64) (ready []int32, readiness []Readiness, err error) {
	ids := make([]C.int32_t, len(nodes)+1)
	for i, n := range nodes {
		ids[i] = C.int32_t(n)
	}
	rs := make([]C.pulsar_routing_readiness, len(nodes)+1)
	var kept C.size_t
	err = g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_filter_ready(h, &ids[0], C.size_t(len(nodes)), C.uint64_t(nowMs), &rs[0], &kept)
	})
	if err != nil {
		return nil, nil, err
	}
	ready = make([]int32, int(kept))
	for i := range ready {
		ready[i] = int32(ids[i])
	}
	readiness = make([]Readiness, len(nodes))
	for i := range readiness {
		readiness[i] = readinessFromC(rs[i])
	}
	return ready, readiness, nil
}

// Send sends a produce request to node; StatusSenderNotReady sends
// nothing (Check tells why).
func (g *SenderGate) Send(node int32, nowMs uint64) error {
	return g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_send(h, C.int32_t(node), C.uint64_t(nowMs))
	})
}

// Response reports the node's answer to a produce request.
func (g *SenderGate) Response(node int32, outcome ProduceOutcome) error {
	return g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_response(h, C.int32_t(node), C.pulsar_routing_produce_outcome(outcome))
	})
}

// Throttle is the broker throttling node until untilMs.
func (g *SenderGate) Throttle(node int32, untilMs uint64) error {
	return g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_throttle(h, C.int32_t(node), C.uint64_t(untilMs))
	})
}

// ConnectionEvent reports a connection event; jitterUnit is a uniform draw
// in [0, 1) for the next reconnect backoff's ±20% jitter (0.5: none).
func (g *SenderGate) ConnectionEvent(node int32, event ConnectionEvent, nowMs uint64, jitterUnit float64) error {
	return g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_connection_event(h, C.int32_t(node), C.pulsar_routing_connection_event(event),
			C.uint64_t(nowMs), C.double(jitterUnit))
	})
}

// MetadataEvent reports a metadata event; jitterUnit as for
// ConnectionEvent.
func (g *SenderGate) MetadataEvent(event MetadataEvent, nowMs uint64, jitterUnit float64) error {
	return g.write(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_metadata_event(h, C.pulsar_routing_metadata_event(event), C.uint64_t(nowMs), C.double(jitterUnit))
	})
}

// Counters are the producer metrics at nowMs.
func (g *SenderGate) Counters(nowMs uint64) (SenderCounters, error) {
	var c C.pulsar_routing_sender_counters
	err := g.read(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_counters(h, C.uint64_t(nowMs), &c)
	})
	return SenderCounters{ConnectionCount: uint64(c.connection_count), ConnectionCreationTotal: uint64(c.connection_creation_total),
		InFlightRequests: uint64(c.in_flight_requests_count), MetadataAgeMs: uint64(c.metadata_age_ms)}, err
}

// TimeToNextMetadataUpdate is metadata.timeToNextUpdate(now): 0 when a
// refresh is due.
func (g *SenderGate) TimeToNextMetadataUpdate(nowMs uint64) (uint64, error) {
	var ms C.uint64_t
	err := g.read(func(h *C.pulsar_routing_sender_gate) C.pulsar_routing_status {
		return C.pulsar_routing_sender_gate_time_to_next_metadata_update(h, C.uint64_t(nowMs), &ms)
	})
	return uint64(ms), err
}

// Close frees the gate. Calling it again does nothing.
func (g *SenderGate) Close() {
	if g.h.free(func(h *C.pulsar_routing_sender_gate) { C.pulsar_routing_sender_gate_free(h) }) {
		runtime.SetFinalizer(g, nil)
	}
}

// PendingQueue is a Pulsar producer's pending-message queue
// (maxPendingMessages, blockIfQueueFull). Not safe for concurrent use.
type PendingQueue struct {
	state C.pulsar_routing_pending_queue
}

// NewPendingQueue is an empty queue; maxPendingMessages 0 is no limit.
func NewPendingQueue(maxPendingMessages int64, blockIfQueueFull bool) (*PendingQueue, error) {
	q := &PendingQueue{}
	if err := check(C.pulsar_routing_pending_queue_init(&q.state, C.int64_t(maxPendingMessages), C.bool(blockIfQueueFull))); err != nil {
		return nil, err
	}
	return q, nil
}

// TryEnqueue is ProducerImpl.canEnqueueRequest: one more message enters,
// or, when full, StatusProducerQueueIsFull (the send fails) or
// StatusProducerQueueWouldBlock (blockIfQueueFull).
func (q *PendingQueue) TryEnqueue() error {
	return check(C.pulsar_routing_pending_queue_try_enqueue(&q.state))
}

// Complete returns the permits of n acknowledged or failed messages.
func (q *PendingQueue) Complete(n uint32) {
	C.pulsar_routing_pending_queue_complete(&q.state, C.uint32_t(n))
}

// Pending is the number of messages in the queue.
func (q *PendingQueue) Pending() uint32 {
	var n C.uint32_t
	C.pulsar_routing_pending_queue_pending(&q.state, &n)
	return uint32(n)
}

// RequiredMaxPendingMessages is the smallest maxPendingMessages that
// absorbs a reconnect of reconnectWindowMs at peakRatePerSec without
// blocking or failing sends.
func RequiredMaxPendingMessages(peakRatePerSec, reconnectWindowMs uint64) uint64 {
	var n C.uint64_t
	C.pulsar_routing_required_max_pending_messages(C.uint64_t(peakRatePerSec), C.uint64_t(reconnectWindowMs), &n)
	return uint64(n)
}
