// Command wire-sender sends a plan of messages through the real Go client
// (github.com/apache/pulsar-client-go, the version go.mod pins) so that the
// test broker can record where its default router put each one.
//
// The plan is JSON:
//
//	{"service": "pulsar://127.0.0.1:PORT",
//	 "runs": [{"name": "r1", "topic": "t", "partitions": 7,
//	           "scheme": "java_string" | "murmur3_32",
//	           "batching": true, "max_messages": 0, "max_size": 0, "max_delay_ms": 0,
//	           "pause_after_create_us": 0,
//	           "messages": [{"id": "m1", "key_hex": "6b", "ordering_key_hex": "6f",
//	                         "payload_len": 0, "pause_us": 0}]}]}
//
// A missing key_hex or ordering_key_hex leaves that field unset (Go has no
// "unset" distinct from empty: an empty key is no key). Zero batching
// thresholds keep the client's defaults. The payload is the message id,
// then "|" and padding up to payload_len bytes, so the broker's record joins
// this program's output, one JSON object a line on stdout.
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/apache/pulsar-client-go/pulsar"
	pulsarlog "github.com/apache/pulsar-client-go/pulsar/log"
)

type message struct {
	ID             string  `json:"id"`
	KeyHex         *string `json:"key_hex"`
	OrderingKeyHex *string `json:"ordering_key_hex"`
	PayloadLen     int     `json:"payload_len"`
	PauseUs        int64   `json:"pause_us"`
}

type run struct {
	Name               string    `json:"name"`
	Topic              string    `json:"topic"`
	Partitions         uint32    `json:"partitions"`
	Scheme             string    `json:"scheme"`
	Batching           bool      `json:"batching"`
	MaxMessages        uint      `json:"max_messages"`
	MaxSize            uint      `json:"max_size"`
	MaxDelayMs         int64     `json:"max_delay_ms"`
	PauseAfterCreateUs int64     `json:"pause_after_create_us"`
	Messages           []message `json:"messages"`
}

type plan struct {
	Service string `json:"service"`
	Runs    []run  `json:"runs"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wire-sender PLAN.json")
		os.Exit(2)
	}
	if err := sendPlan(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "wire-sender:", err)
		os.Exit(1)
	}
}

func sendPlan(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var p plan
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	client, err := pulsar.NewClient(pulsar.ClientOptions{
		URL:    p.Service,
		Logger: pulsarlog.NewLoggerWithSlog(logger),
	})
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
	opts := pulsar.ProducerOptions{
		Topic:                   r.Topic,
		DisableBatching:         !r.Batching,
		BatchingMaxMessages:     r.MaxMessages,
		BatchingMaxSize:         r.MaxSize,
		BatchingMaxPublishDelay: time.Duration(r.MaxDelayMs) * time.Millisecond,
	}
	switch r.Scheme {
	case "java_string":
		opts.HashingScheme = pulsar.JavaStringHash
	case "murmur3_32":
		opts.HashingScheme = pulsar.Murmur3_32Hash
	default:
		return fmt.Errorf("unknown scheme %q", r.Scheme)
	}
	// The default router reads the clock once when it is built, inside
	// CreateProducer; these readings bound that instant.
	createdBefore := time.Now().UnixNano()
	producer, err := client.CreateProducer(opts)
	createdAfter := time.Now().UnixNano()
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
	if err := out.Encode(map[string]any{
		"event": "run", "run": r.Name, "topic": r.Topic, "partitions": seen,
		"scheme": r.Scheme, "batching": r.Batching,
		"created_t0_ns": createdBefore, "created_t1_ns": createdAfter,
	}); err != nil {
		return err
	}
	if r.PauseAfterCreateUs > 0 {
		time.Sleep(time.Duration(r.PauseAfterCreateUs) * time.Microsecond)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var sendErr error
	sent := make([]map[string]any, 0, len(r.Messages))
	for _, m := range r.Messages {
		if m.PauseUs > 0 {
			time.Sleep(time.Duration(m.PauseUs) * time.Microsecond)
		}
		key, err := decodeHex(m.KeyHex)
		if err != nil {
			return fmt.Errorf("%s key: %w", m.ID, err)
		}
		ordering, err := decodeHex(m.OrderingKeyHex)
		if err != nil {
			return fmt.Errorf("%s ordering key: %w", m.ID, err)
		}
		payload := []byte(m.ID)
		if m.PayloadLen > len(payload) {
			payload = append(payload, '|')
			for len(payload) < m.PayloadLen {
				payload = append(payload, 'x')
			}
		}
		msg := &pulsar.ProducerMessage{Payload: payload, Key: key, OrderingKey: ordering}
		wg.Add(1)
		// The router runs inside SendAsync before it returns, and reads the
		// clock there; these readings bound that instant.
		before := time.Now().UnixNano()
		producer.SendAsync(context.Background(), msg, func(_ pulsar.MessageID, _ *pulsar.ProducerMessage, err error) {
			if err != nil {
				mu.Lock()
				sendErr = err
				mu.Unlock()
			}
			wg.Done()
		})
		after := time.Now().UnixNano()
		sent = append(sent, map[string]any{
			"event": "sent", "run": r.Name, "id": m.ID, "payload_len": len(payload),
			"t0_ns": before, "t1_ns": after,
		})
	}
	if err := producer.FlushWithCtx(context.Background()); err != nil {
		return err
	}
	wg.Wait()
	if sendErr != nil {
		return sendErr
	}
	for _, s := range sent {
		if err := out.Encode(s); err != nil {
			return err
		}
	}
	return out.Encode(map[string]any{"event": "acked", "run": r.Name, "count": len(r.Messages)})
}
