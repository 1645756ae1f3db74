package javarouter

import (
	"fmt"
	"testing"
	"time"

	"github.com/apache/pulsar-client-go/pulsar"
)

// goClientJavaStringHash is the hash pulsar-client-go's default router uses
// for JavaStringHash (its internal package cannot be imported): byte-wise
// over the UTF-8 bytes, unmasked.
func goClientJavaStringHash(s string) uint32 {
	var h uint32
	for i := 0; i < len(s); i++ {
		h = 31*h + uint32(s[i])
	}
	return h
}

func benchMessages() []*pulsar.ProducerMessage {
	msgs := make([]*pulsar.ProducerMessage, 1024)
	for i := range msgs {
		if i%8 == 7 {
			msgs[i] = &pulsar.ProducerMessage{Payload: []byte("x")}
		} else {
			msgs[i] = &pulsar.ProducerMessage{Key: fmt.Sprintf("customer-%06d", i*7919), Payload: []byte("x")}
		}
	}
	return msgs
}

// BenchmarkRouterCost routes the same messages (7 keyed, 1 keyless in 8)
// through pulsar-client-go's default router and through Router, in
// alternating rounds in one process, and reports both per-message costs and
// their ratio. One b.N iteration is one round of each.
func BenchmarkRouterCost(b *testing.B) {
	msgs := benchMessages()
	def := pulsar.NewDefaultRouter(goClientJavaStringHash, 1000, 128*1024, 10*time.Millisecond, false)
	r, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	md := partitions(12)
	var defNs, javaNs time.Duration
	sink := 0
	runDefault := func() {
		t0 := time.Now()
		for _, m := range msgs {
			sink += def(m, 12)
		}
		defNs += time.Since(t0)
	}
	runJava := func() {
		t0 := time.Now()
		for _, m := range msgs {
			sink += r.Route(m, md)
		}
		javaNs += time.Since(t0)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			runDefault()
			runJava()
		} else {
			runJava()
			runDefault()
		}
	}
	total := float64(b.N * len(msgs))
	b.ReportMetric(float64(defNs.Nanoseconds())/total, "default-ns/msg")
	b.ReportMetric(float64(javaNs.Nanoseconds())/total, "javarouter-ns/msg")
	b.ReportMetric(float64(javaNs)/float64(defNs), "ratio")
	if sink == -1 {
		b.Log(sink)
	}
}
