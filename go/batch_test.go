package pulsarrouting

import (
	"errors"
	"flag"
	"fmt"
	"testing"
)

var batchRatio = flag.Bool("batch-ratio", false, "measure PartitionsForKeys against pure Go (TestBatchAgainstPureGo)")

// Every keyed golden row through PartitionsForKeys, each (scheme, count)
// one batch, as strings and as bytes, copied and in place.
func TestGoldenRoutingInBatches(t *testing.T) {
	type group struct {
		scheme HashingScheme
		n      int
	}
	keys := map[group][]string{}
	want := map[group][]uint32{}
	for _, row := range goldenRows(t, "routing.jsonl.gz") {
		if row["kind"] != "keyed" {
			continue
		}
		scheme, err := ParseHashingScheme(row["scheme"].(string))
		if err != nil {
			t.Fatal(err)
		}
		g := group{scheme, int(num(t, row, "num_partitions"))}
		keys[g] = append(keys[g], row["key"].(string))
		want[g] = append(want[g], uint32(num(t, row, "partition")))
	}
	rows := 0
	for g, ks := range keys {
		rows += len(ks)
		check := func(how string, got []uint32, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s %v: %v", how, g, err)
			}
			for i := range got {
				if got[i] != want[g][i] {
					t.Errorf("%s %v: key %q: %d, Java %d", how, g, ks[i], got[i], want[g][i])
				}
			}
		}
		got, err := PartitionsForKeys(ks, g.n, g.scheme)
		check("strings", got, err)
		// Separate slices, copied; then sub-slices of one buffer, in place.
		separate := make([][]byte, len(ks))
		var buffer []byte
		for i, k := range ks {
			separate[i] = []byte(k)
			buffer = append(buffer, k...)
		}
		got, err = PartitionsForKeys(separate, g.n, g.scheme)
		check("bytes", got, err)
		inPlace := make([][]byte, len(ks))
		at := 0
		for i, k := range ks {
			inPlace[i] = buffer[at : at+len(k) : at+len(k)]
			at += len(k)
		}
		got, err = PartitionsForKeys(inPlace, g.n, g.scheme)
		check("bytes in place", got, err)
	}
	if rows < 1000 {
		t.Fatalf("only %d keyed rows", rows)
	}
	t.Logf("%d keyed rows in %d batches route as in Java", rows, len(keys))
}

func TestBatchEdges(t *testing.T) {
	if got, err := PartitionsForKeys([]string{}, 3, SchemeJavaString); err != nil || len(got) != 0 {
		t.Errorf("no keys: %v, %v", got, err)
	}
	if got, err := PartitionsForKeys([][]byte{nil, {}}, 3, SchemeMurmur3_32); err != nil || len(got) != 2 || got[0] != 0 || got[1] != 0 {
		t.Errorf("empty keys: %v, %v", got, err)
	}
	// "é" cut in two: no key but the first is UTF-8.
	cut := []string{"a", "\xc3", "\xa9"}
	got, err := PartitionsForKeys(cut, 12, SchemeMurmur3_32)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range cut {
		if want := Murmur3_32String(k) % 12; got[i] != want {
			t.Errorf("Murmur3 of %q: %d, want %d", k, got[i], want)
		}
		if one, err := PartitionForKey(k, 12, SchemeMurmur3_32); err != nil || uint32(one) != got[i] {
			t.Errorf("PartitionForKey(%q) = %d, %v; batch %d", k, one, err, got[i])
		}
	}
	_, err = PartitionsForKeys(cut, 12, SchemeJavaString)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidUTF8) || e.Message != "key 1 is not valid UTF-8" {
		t.Errorf("JavaStringHash of bytes: %v", err)
	}
	if _, err := PartitionsForKeys([]string{"k"}, 0, SchemeMurmur3_32); !errors.Is(err, ErrPartitionCountZero) {
		t.Errorf("zero partitions: %v", err)
	}
	if _, err := PartitionsForKeys([]string{"k"}, 3, HashingScheme(9)); !errors.Is(err, ErrUnknownHashingScheme) {
		t.Errorf("unknown scheme: %v", err)
	}
}

func batchKeys(n int) ([]string, [][]byte) {
	keys := benchKeys()[:n]
	bs := make([][]byte, n)
	for i, k := range keys {
		bs[i] = []byte(k)
	}
	return keys, bs
}

// BenchmarkPartitionsForKeys: keys per cgo call, per key (ns/op is per
// key); compare with BenchmarkPartitionForKeyPureGo.
func BenchmarkPartitionsForKeys(b *testing.B) {
	for _, n := range []int{16, 64, 256, 1024} {
		keys, bs := batchKeys(n)
		b.Run(fmt.Sprintf("strings/%d", n), routeBatches(keys))
		b.Run(fmt.Sprintf("bytes/%d", n), routeBatches(bs))
	}
}

// routeBatches routes keys in batches of len(keys), b.N keys in all.
func routeBatches[K string | []byte](keys []K) func(b *testing.B) {
	return func(b *testing.B) {
		for i := 0; i < b.N; i += len(keys) {
			out, err := PartitionsForKeys(keys, 12, SchemeMurmur3_32)
			if err != nil {
				b.Fatal(err)
			}
			sink += int(out[0])
		}
	}
}

// TestBatchAgainstPureGo is the paired measurement behind the README's
// figure (go test -run BatchAgainstPureGo -batch-ratio; skipped otherwise): rounds of pure Go, batch,
// batch, pure Go over the same keys, the median of the per-round ratios.
func TestBatchAgainstPureGo(t *testing.T) {
	if !*batchRatio {
		t.Skip("set -batch-ratio to measure")
	}
	for _, n := range []int{64, 256, 1024} {
		keys, _ := batchKeys(n)
		pure := func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, k := range keys {
					sink += pureGoPartition(k, 12)
				}
			}
		}
		batch := func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, err := PartitionsForKeys(keys, 12, SchemeMurmur3_32)
				if err != nil {
					b.Fatal(err)
				}
				sink += int(out[0])
			}
		}
		var ratios []float64
		var pureNs, batchNs float64
		for round := 0; round < 9; round++ {
			p1 := testing.Benchmark(pure)
			b1 := testing.Benchmark(batch)
			b2 := testing.Benchmark(batch)
			p2 := testing.Benchmark(pure)
			p := float64(p1.NsPerOp()+p2.NsPerOp()) / 2 / float64(n)
			q := float64(b1.NsPerOp()+b2.NsPerOp()) / 2 / float64(n)
			ratios = append(ratios, q/p)
			pureNs, batchNs = pureNs+p, batchNs+q
		}
		t.Logf("%4d keys: batch/pure-Go per key, median of 9 paired rounds: %.2f (mean %.1f ns vs %.1f ns)",
			n, median(ratios), batchNs/9, pureNs/9)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
