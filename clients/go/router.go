// Package javarouter is a MessageRouter for pulsar-client-go that sends
// every message where the Java client's default router would: a Go
// producer and a Java producer that send the same keys to the same topic
// fill the same partitions.
//
//	router, err := javarouter.New(javarouter.Options{})
//	...
//	producer, err := client.CreateProducer(pulsar.ProducerOptions{
//		Topic:         "orders",
//		MessageRouter: router.Route,
//	})
//
// The routing itself is the project's Rust core, reached through the
// pulsar-routing/go bindings (cgo over the C library); this package only
// translates a pulsar.ProducerMessage into the key Java would see.
//
// # What Java would see
//
// A Go Key is a string of bytes. Java's consumers, and a Java producer
// sending "the same key", hold the String decoded from those bytes, so
// the key is hashed as that String: String.hashCode() of its UTF-16 units
// for JavaStringHash (Go's own router hashes the UTF-8 bytes, unmasked),
// Murmur3 of its UTF-8 bytes for Murmur3_32Hash. Bytes that are not UTF-8
// are decoded as Java's new String(bytes, UTF_8) decodes them (each
// malformed sequence becomes U+FFFD, by the JDK's rules), which is what a
// Java consumer reads back from the wire.
//
// # Where Go and Java cannot agree
//
//   - The empty key. pulsar-client-go does not send an empty Key (""
//     means "no key"), so a message with Key "" is keyless here and goes
//     round robin, like Java's message without a key. Java's key("")
//     (hashed to partition 0) has no Go spelling.
//   - Lone surrogates. A Java String may hold a lone UTF-16 surrogate;
//     UTF-8 cannot. Its nearest Go spelling (the surrogate's three
//     WTF-8 bytes, such as "\xed\xa0\x80") is malformed UTF-8, which Java
//     decodes to U+FFFD, so that key lands where Java's key("\ufffd")
//     lands, not where key("\ud800") does.
//   - keyBytes(b). Go has no Base64-flagged key. Java routes keyBytes(b)
//     by the Base64 text of b, so a Go message with
//     Key: base64.StdEncoding.EncodeToString(b) lands on the same
//     partition (its consumers then see that text as a plain key).
//   - The ordering key. Java's routers ignore it (only Key_Shared dispatch
//     reads it), and so does this router: a message with an OrderingKey
//     goes where Java sends the same message, by its Key, or round robin
//     without one. pulsar-client-go's own router routes by the ordering
//     key first.
//
// # Keyless messages
//
// Round robin as RoundRobinPartitionMessageRouterImpl does: with batching,
// the partition switches every PartitionSwitchFrequency ×
// BatchingMaxPublishDelay of wall-clock time (Java's defaults: 10 × 1 ms),
// offset by a start index; without, a counter from the start index
// advances once per keyless message. Java draws the start index uniformly
// in [0, n) when the producer is created; this router draws it the same
// way when it routes its first message (n is then the count of that
// message's topic), unless Options.StartIndex gives it. Set the batching
// options to those of the Java producers to match, not to the Go
// producer's own: they only decide how keyless messages are spread.
//
// A Router keeps one round-robin state, as one Java producer does: give
// each producer its own Router.
package javarouter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/pulsar-client-go/pulsar"

	pulsarrouting "pulsar-routing/go"
)

// Mode is the Java producer's messageRoutingMode.
type Mode int

// The Java routers this package reproduces.
const (
	// RoundRobinPartition is Java's default.
	RoundRobinPartition Mode = iota
	// SinglePartition sends every keyless message to one partition, drawn
	// like the round-robin start index.
	SinglePartition
)

// Options are the Java producer settings the routing depends on. The zero
// value is Java's default producer.
type Options struct {
	// HashingScheme: pulsar.JavaStringHash (the zero value, Java's default)
	// or pulsar.Murmur3_32Hash.
	HashingScheme pulsar.HashingScheme
	Mode          Mode
	// DisableBatching is Java's enableBatching(false).
	DisableBatching bool
	// BatchingMaxPublishDelay is Java's batchingMaxPublishDelay (0: 1 ms).
	BatchingMaxPublishDelay time.Duration
	// PartitionSwitchFrequency is Java's
	// roundRobinRouterBatchingPartitionSwitchFrequency (0: 10).
	PartitionSwitchFrequency int32
	// StartIndex is the round-robin start index (SinglePartition: the
	// partition); nil draws it as Java does.
	StartIndex *int32
	// Clock is the wall clock for keyless messages with batching (nil:
	// time.Now). Java reads Clock.systemUTC().millis().
	Clock func() time.Time
}

// Router routes like the Java client. Safe for concurrent use.
type Router struct {
	scheme   pulsarrouting.HashingScheme
	opts     Options
	switchMs int64
	clock    func() time.Time

	once    sync.Once
	rr      *pulsarrouting.RoundRobinRouter
	single  *pulsarrouting.SinglePartitionRouter
	initErr error
	start   atomic.Int32
	built   atomic.Bool

	mu      sync.Mutex
	lastErr error
}

// New checks the options; the Java router itself is built when the first
// message is routed, because Java draws its start index from the topic's
// partition count.
func New(opts Options) (*Router, error) {
	var scheme pulsarrouting.HashingScheme
	switch opts.HashingScheme {
	case pulsar.JavaStringHash:
		scheme = pulsarrouting.SchemeJavaString
	case pulsar.Murmur3_32Hash:
		scheme = pulsarrouting.SchemeMurmur3_32
	default:
		return nil, fmt.Errorf("javarouter: unknown hashing scheme %d", opts.HashingScheme)
	}
	if opts.Mode != RoundRobinPartition && opts.Mode != SinglePartition {
		return nil, fmt.Errorf("javarouter: unknown mode %d", opts.Mode)
	}
	delay := opts.BatchingMaxPublishDelay
	if delay == 0 {
		delay = time.Millisecond
	}
	frequency := opts.PartitionSwitchFrequency
	if frequency == 0 {
		frequency = 10
	}
	switchMs, err := pulsarrouting.PartitionSwitchMs(frequency, delay.Microseconds())
	if err != nil {
		return nil, err
	}
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	return &Router{scheme: scheme, opts: opts, switchMs: switchMs, clock: clock}, nil
}

func (r *Router) build(numPartitions int) {
	var start int32
	switch {
	case r.opts.StartIndex != nil:
		start = *r.opts.StartIndex
	case numPartitions > 0 && numPartitions <= pulsarrouting.PartitionCountMax:
		start = rand.Int32N(int32(numPartitions))
	}
	r.start.Store(start)
	r.built.Store(true)
	if r.opts.Mode == SinglePartition {
		r.single, r.initErr = pulsarrouting.NewSinglePartitionRouter(r.scheme, start)
	} else {
		r.rr, r.initErr = pulsarrouting.NewRoundRobinRouter(r.scheme, start, !r.opts.DisableBatching, r.switchMs)
	}
}

// Partition is the partition Java would choose for msg on a topic of
// numPartitions partitions, or the error that made it fail (a count
// outside 1 to 2147483647, a closed router).
func (r *Router) Partition(msg *pulsar.ProducerMessage, numPartitions int) (int, error) {
	r.once.Do(func() { r.build(numPartitions) })
	if r.initErr != nil {
		return 0, r.initErr
	}
	key := pulsarrouting.NoKey()
	if msg.Key != "" {
		key = pulsarrouting.StringKey(msg.Key)
	}
	p, err := r.choose(key, numPartitions)
	if errors.Is(err, pulsarrouting.ErrInvalidUTF8) {
		// Checking only after the core refuses keeps valid keys (nearly all)
		// to one cgo call.
		p, err = r.choose(pulsarrouting.StringKey(pulsarrouting.JavaLossyUTF8([]byte(msg.Key))), numPartitions)
	}
	return p, err
}

func (r *Router) choose(key pulsarrouting.Key, numPartitions int) (int, error) {
	if r.single != nil {
		return r.single.ChoosePartition(key, numPartitions)
	}
	var nowMs int64
	if key.IsNone() && !r.opts.DisableBatching {
		nowMs = r.clock().UnixMilli()
	}
	return r.rr.ChoosePartition(key, numPartitions, nowMs)
}

// Route is the pulsar.ProducerOptions.MessageRouter. pulsar-client-go has
// no way to fail a send from its router, so a message Java would refuse
// (see Partition) goes to partition 0 and Err reports why.
func (r *Router) Route(msg *pulsar.ProducerMessage, md pulsar.TopicMetadata) int {
	p, err := r.Partition(msg, int(md.NumPartitions()))
	if err != nil {
		r.mu.Lock()
		r.lastErr = err
		r.mu.Unlock()
		return 0
	}
	return p
}

// Err is the last error Route met, nil if none.
func (r *Router) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

// StartIndex is the start index in use (SinglePartition: the partition),
// and false before the first message.
func (r *Router) StartIndex() (int32, bool) {
	return r.start.Load(), r.built.Load()
}

// Close frees the C router. Route after Close sends to partition 0 and
// Err says the router is closed.
func (r *Router) Close() {
	r.once.Do(func() { r.initErr = errClosed })
	if r.rr != nil {
		r.rr.Close()
	}
	if r.single != nil {
		r.single.Close()
	}
}

var errClosed = errors.New("javarouter: router is closed")
