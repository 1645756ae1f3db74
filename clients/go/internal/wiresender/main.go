// Command wiresender sends a plan of messages through pulsar-client-go with
// the javarouter.Router plugged in, so that the test broker records where
// each one went (testkit/tests/test_adapter_go_rs.py compares that with
// the Java producer's copies). Built by testkit/adapters/build-go-rs.sh.
//
// The plan is JSON:
//
//	{"service": "pulsar://127.0.0.1:PORT",
//	 "runs": [{"name": "r1", "topic": "t", "partitions": 7,
//	           "scheme": "java_string" | "murmur3_32", "batching": true,
//	           "mode": "round_robin" | "single", "start": 3,
//	           "messages": [{"id": "m1", "key_hex": "6b", "ordering_key_hex": "6f",
//	                         "clock_ms": 1700000000000}]}],
//	 "bench": {"topic": "b", "partitions": 12, "rounds": 10, "messages": 2000}}
//
// "batching" is both the Go producer's batching and the Java setting the
// router reproduces. A message's clock_ms is the instant the router's clock
// reads for it (the Java producer's reading, so keyless messages can be
// compared one by one); without it the router reads the system clock, and
// each "sent" line gives the window (t0_ms, t1_ms) it read it in. The
// payload is the message id. Output: one JSON object a line.
//
// With "bench", the same messages (7 keyed, 1 keyless in 8) then go through
// three producers on one topic, with pulsar-client-go's default router,
// with javarouter and with javarouter without batching, in rotating rounds;
// the median round's time in SendAsync per message is printed for each.
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/pulsar-client-go/pulsar"
	pulsarlog "github.com/apache/pulsar-client-go/pulsar/log"

	javarouter "pulsar-routing/clients/go"
)

type message struct {
	ID             string  `json:"id"`
	KeyHex         *string `json:"key_hex"`
	OrderingKeyHex *string `json:"ordering_key_hex"`
	ClockMs        *int64  `json:"clock_ms"`
}

type run struct {
	Name       string    `json:"name"`
	Topic      string    `json:"topic"`
	Partitions uint32    `json:"partitions"`
	Scheme     string    `json:"scheme"`
	Batching   bool      `json:"batching"`
	Mode       string    `json:"mode"`
	Start      *int32    `json:"start"`
	Messages   []message `json:"messages"`
}

type bench struct {
	Topic      string `json:"topic"`
	Partitions uint32 `json:"partitions"`
	Rounds     int    `json:"rounds"`
	Messages   int    `json:"messages"`
}

type plan struct {
	Service string `json:"service"`
	Runs    []run  `json:"runs"`
	Bench   *bench `json:"bench"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wiresender PLAN.json")
		os.Exit(2)
	}
	if err := sendPlan(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "wiresender:", err)
		os.Exit(1)
	}
}

func sendPlan(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var p plan
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	client, err := pulsar.NewClient(pulsar.ClientOptions{URL: p.Service, Logger: pulsarlog.NewLoggerWithSlog(logger)})
	if err != nil {
		return err
	}
	defer client.Close()
	out := json.NewEncoder(os.Stdout)
	for _, r := range p.Runs {
		if err := sendRun(client, r, out); err != nil {
			return fmt.Errorf("run %s: %w", r.Name, err)
		}
	}
	if p.Bench != nil {
		return runBench(client, *p.Bench, out)
	}
	return nil
}

func decodeHex(s *string) (string, error) {
	if s == nil {
		return "", nil
	}
	b, err := hex.DecodeString(*s)
	return string(b), err
}

func sendRun(client pulsar.Client, r run, out *json.Encoder) error {
	opts := javarouter.Options{DisableBatching: !r.Batching, StartIndex: r.Start}
	switch r.Scheme {
	case "java_string":
		opts.HashingScheme = pulsar.JavaStringHash
	case "murmur3_32":
		opts.HashingScheme = pulsar.Murmur3_32Hash
	default:
		return fmt.Errorf("unknown scheme %q", r.Scheme)
	}
	switch r.Mode {
	case "", "round_robin":
	case "single":
		opts.Mode = javarouter.SinglePartition
	default:
		return fmt.Errorf("unknown mode %q", r.Mode)
	}
	// The router runs inside SendAsync, on this goroutine, so the clock
	// set before the call is the one it reads.
	var clockMs atomic.Int64
	opts.Clock = func() time.Time {
		if ms := clockMs.Load(); ms != 0 {
			return time.UnixMilli(ms)
		}
		return time.Now()
	}
	router, err := javarouter.New(opts)
	if err != nil {
		return err
	}
	defer router.Close()
	producer, err := client.CreateProducer(pulsar.ProducerOptions{
		Topic:           r.Topic,
		DisableBatching: !r.Batching,
		MessageRouter:   router.Route,
	})
	if err != nil {
		return err
	}
	defer producer.Close()
	seen := uint32(0)
	if tm, ok := producer.(interface{ NumPartitions() uint32 }); ok {
		seen = tm.NumPartitions()
	}
	if seen != r.Partitions {
		return fmt.Errorf("client sees %d partitions, plan says %d", seen, r.Partitions)
	}
	if err := out.Encode(map[string]any{"event": "run", "run": r.Name, "topic": r.Topic, "partitions": seen}); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var sendErr error
	window := make([][2]int64, 0, len(r.Messages))
	for _, m := range r.Messages {
		key, err := decodeHex(m.KeyHex)
		if err != nil {
			return fmt.Errorf("%s key: %w", m.ID, err)
		}
		ordering, err := decodeHex(m.OrderingKeyHex)
		if err != nil {
			return fmt.Errorf("%s ordering key: %w", m.ID, err)
		}
		if m.ClockMs != nil {
			clockMs.Store(*m.ClockMs)
		} else {
			clockMs.Store(0)
		}
		wg.Add(1)
		// The router reads the clock inside SendAsync; these readings bound
		// that instant when the plan gives none.
		t0 := time.Now().UnixMilli()
		producer.SendAsync(context.Background(), &pulsar.ProducerMessage{
			Payload: []byte(m.ID), Key: key, OrderingKey: ordering,
		}, func(_ pulsar.MessageID, _ *pulsar.ProducerMessage, err error) {
			if err != nil {
				mu.Lock()
				sendErr = err
				mu.Unlock()
			}
			wg.Done()
		})
		window = append(window, [2]int64{t0, time.Now().UnixMilli()})
	}
	if err := producer.FlushWithCtx(context.Background()); err != nil {
		return err
	}
	wg.Wait()
	if sendErr != nil {
		return sendErr
	}
	if err := router.Err(); err != nil {
		return err
	}
	for i, m := range r.Messages {
		if err := out.Encode(map[string]any{"event": "sent", "run": r.Name, "id": m.ID,
			"t0_ms": window[i][0], "t1_ms": window[i][1]}); err != nil {
			return err
		}
	}
	start, _ := router.StartIndex()
	return out.Encode(map[string]any{"event": "acked", "run": r.Name, "count": len(r.Messages), "start": start})
}

func runBench(client pulsar.Client, b bench, out *json.Encoder) error {
	msgs := make([]*pulsar.ProducerMessage, b.Messages)
	for i := range msgs {
		msgs[i] = &pulsar.ProducerMessage{Payload: []byte(fmt.Sprintf("bench-%d", i))}
		if i%8 != 7 {
			msgs[i].Key = fmt.Sprintf("customer-%06d", i*7919)
		}
	}
	// Java's batching rule keeps keyless messages on one partition for
	// 10 ms; the third producer (batching off: a counter) spreads them, so
	// that effect can be told from the router's own cost.
	routes := []func(*pulsar.ProducerMessage, pulsar.TopicMetadata) int{nil}
	for _, opts := range []javarouter.Options{{}, {DisableBatching: true}} {
		router, err := javarouter.New(opts)
		if err != nil {
			return err
		}
		defer router.Close()
		routes = append(routes, router.Route)
	}
	producers := make([]pulsar.Producer, len(routes))
	for i, route := range routes {
		p, err := client.CreateProducer(pulsar.ProducerOptions{
			Topic: b.Topic, MessageRouter: route, MaxPendingMessages: 4 * b.Messages,
		})
		if err != nil {
			return err
		}
		defer p.Close()
		producers[i] = p
	}
	spent := make([][]time.Duration, len(producers))
	var failed atomic.Value
	for round := 0; round < b.Rounds; round++ {
		for k := range producers {
			which := (round + k) % len(producers)
			p := producers[which]
			t0 := time.Now()
			for _, m := range msgs {
				p.SendAsync(context.Background(), m, func(_ pulsar.MessageID, _ *pulsar.ProducerMessage, err error) {
					if err != nil {
						failed.Store(err)
					}
				})
			}
			spent[which] = append(spent[which], time.Since(t0))
			// Drained outside the timing, so each round starts with an empty queue.
			if err := p.FlushWithCtx(context.Background()); err != nil {
				return err
			}
		}
	}
	if err, _ := failed.Load().(error); err != nil {
		return err
	}
	// The median round: other builds share the machine, and one slow round
	// should not decide the ratio.
	ns := make([]float64, len(spent))
	for i, rounds := range spent {
		sort.Slice(rounds, func(a, b int) bool { return rounds[a] < rounds[b] })
		ns[i] = float64(rounds[len(rounds)/2].Nanoseconds()) / float64(b.Messages)
	}
	return out.Encode(map[string]any{
		"event": "bench", "messages": b.Rounds * b.Messages,
		"default_ns_per_msg": ns[0], "javarouter_ns_per_msg": ns[1], "ratio": ns[1] / ns[0],
		"javarouter_unbatched_ns_per_msg": ns[2], "ratio_unbatched": ns[2] / ns[0],
	})
}
