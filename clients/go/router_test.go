package javarouter

import (
	"encoding/base64"
	"errors"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/apache/pulsar-client-go/pulsar"

	pulsarrouting "pulsar-routing/go"
)

type partitions uint32

func (n partitions) NumPartitions() uint32 { return uint32(n) }

func start(i int32) *int32 { return &i }

func mustNew(t testing.TB, opts Options) *Router {
	t.Helper()
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

var textKeys = []string{
	"a", "user-42", "\x00", "\x7f", "\u0080", "é", "ключ-1", "\u07ff", "\u0800", "键", "日本語キー",
	"\ufffd", "\uffff", "\U00010000", "😀", "𝄞music", "\U0010ffff", "mixé键😀", string(make([]byte, 5000)),
}

// Keys that are not UTF-8, and what Java's decoder makes of each.
var malformed = []string{"\xff", "\xff\xfe", "\xc3", "\xed\xa0\x80", "a\x80b", "\xf4\x90\x80\x80", "\xe0\x80"}

func TestKeyedMessagesGoWhereJavaSendsTheString(t *testing.T) {
	for _, scheme := range []pulsar.HashingScheme{pulsar.JavaStringHash, pulsar.Murmur3_32Hash} {
		core := map[pulsar.HashingScheme]pulsarrouting.HashingScheme{
			pulsar.JavaStringHash: pulsarrouting.SchemeJavaString, pulsar.Murmur3_32Hash: pulsarrouting.SchemeMurmur3_32,
		}[scheme]
		r := mustNew(t, Options{HashingScheme: scheme})
		for _, n := range []int{1, 2, 3, 7, 12, 16, 100, 1000} {
			for _, k := range textKeys {
				want, err := pulsarrouting.PartitionForKey(k, n, core)
				if err != nil {
					t.Fatal(err)
				}
				// The ordering key never moves a message, as in Java.
				got := r.Route(&pulsar.ProducerMessage{Key: k, OrderingKey: "other"}, partitions(n))
				if got != want {
					t.Errorf("%v n=%d key %q: %d, Java %d", scheme, n, k, got, want)
				}
			}
			for _, k := range malformed {
				units := utf16.Encode([]rune(pulsarrouting.JavaLossyUTF8([]byte(k))))
				want, _ := pulsarrouting.KeyPartition(pulsarrouting.UTF16Key(units), core, n)
				if got := r.Route(&pulsar.ProducerMessage{Key: k}, partitions(n)); got != want {
					t.Errorf("%v n=%d bytes %x: %d, Java's decoded String %d", scheme, n, k, got, want)
				}
			}
			b := []byte{0, 1, 2, 0xff, 0xfe}
			want, _ := pulsarrouting.PartitionForKeyBytes(b, n, core)
			if got := r.Route(&pulsar.ProducerMessage{Key: base64.StdEncoding.EncodeToString(b)}, partitions(n)); got != want {
				t.Errorf("%v n=%d Base64 of keyBytes: %d, Java %d", scheme, n, got, want)
			}
		}
	}
	if err := (&Router{}).Err(); err != nil {
		t.Fatal(err)
	}
}

func TestALoneSurrogateHasNoGoSpelling(t *testing.T) {
	r := mustNew(t, Options{})
	n := 1000
	lone, _ := pulsarrouting.KeyPartition(pulsarrouting.UTF16Key([]uint16{0xd800}), pulsarrouting.SchemeJavaString, n)
	replaced, _ := pulsarrouting.PartitionForKey("\ufffd", n, pulsarrouting.SchemeJavaString)
	got := r.Route(&pulsar.ProducerMessage{Key: "\xed\xa0\x80"}, partitions(n))
	if got != replaced || got == lone {
		t.Fatalf("WTF-8 of U+D800: %d; Java key(\"\\ufffd\") %d, key(\"\\ud800\") %d", got, replaced, lone)
	}
}

func TestKeylessWithoutBatchingCountsFromTheStart(t *testing.T) {
	r := mustNew(t, Options{DisableBatching: true, StartIndex: start(5)})
	java, _ := pulsarrouting.NewRoundRobinRouter(pulsarrouting.SchemeJavaString, 5, false, 10)
	defer java.Close()
	for i := 0; i < 40; i++ {
		msg := &pulsar.ProducerMessage{}
		if i%3 == 0 {
			// Keyed messages, and an ordering key alone, leave the counter.
			msg = &pulsar.ProducerMessage{Key: "k", OrderingKey: "o"}
		} else if i%5 == 0 {
			msg = &pulsar.ProducerMessage{OrderingKey: "o"}
		}
		key := pulsarrouting.NoKey()
		if msg.Key != "" {
			key = pulsarrouting.StringKey(msg.Key)
		}
		want, _ := java.ChoosePartition(key, 7, 0)
		if got := r.Route(msg, partitions(7)); got != want {
			t.Fatalf("message %d: %d, Java %d", i, got, want)
		}
	}
	if s, ok := r.StartIndex(); !ok || s != 5 {
		t.Fatalf("start %d %v", s, ok)
	}
}

func TestKeylessWithBatchingFollowsTheClock(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	r := mustNew(t, Options{StartIndex: start(2), BatchingMaxPublishDelay: 2 * time.Millisecond,
		Clock: func() time.Time { return now }})
	for i := 0; i < 50; i++ {
		now = now.Add(7 * time.Millisecond)
		want, _ := pulsarrouting.SignSafeMod(now.UnixMilli()/20+2, 12)
		if got := r.Route(&pulsar.ProducerMessage{}, partitions(12)); got != int(want) {
			t.Fatalf("at %d: %d, Java %d", now.UnixMilli(), got, want)
		}
	}
}

func TestTheStartIsDrawnInRange(t *testing.T) {
	seen := map[int32]bool{}
	for i := 0; i < 200; i++ {
		r := mustNew(t, Options{Mode: SinglePartition})
		if _, ok := r.StartIndex(); ok {
			t.Fatal("drawn before the first message")
		}
		p := r.Route(&pulsar.ProducerMessage{}, partitions(3))
		s, _ := r.StartIndex()
		if p != int(s) || s < 0 || s >= 3 {
			t.Fatalf("single partition %d, start %d", p, s)
		}
		seen[s] = true
	}
	if len(seen) != 3 {
		t.Fatalf("starts drawn: %v", seen)
	}
}

func TestRefusedAndClosed(t *testing.T) {
	if _, err := New(Options{HashingScheme: 9}); err == nil {
		t.Fatal("scheme 9 accepted")
	}
	r := mustNew(t, Options{})
	if _, err := r.Partition(&pulsar.ProducerMessage{Key: "k"}, 0); !errors.Is(err, pulsarrouting.ErrPartitionCountZero) {
		t.Fatalf("0 partitions: %v", err)
	}
	r.Close()
	if p := r.Route(&pulsar.ProducerMessage{Key: "k"}, partitions(7)); p != 0 || r.Err() == nil {
		t.Fatalf("after Close: %d %v", p, r.Err())
	}
	unused := mustNew(t, Options{})
	unused.Close()
	if _, err := unused.Partition(&pulsar.ProducerMessage{}, 3); !errors.Is(err, errClosed) {
		t.Fatalf("closed before use: %v", err)
	}
}

func TestSharedByGoroutines(t *testing.T) {
	r := mustNew(t, Options{DisableBatching: true, StartIndex: start(0)})
	var wg sync.WaitGroup
	counts := make([]int, 16)
	var mu sync.Mutex
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1600; i++ {
				p := r.Route(&pulsar.ProducerMessage{}, partitions(16))
				mu.Lock()
				counts[p]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for p, c := range counts {
		if c != 800 {
			t.Fatalf("partition %d got %d of 12800 keyless messages", p, c)
		}
	}
}
