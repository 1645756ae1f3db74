package pulsarrouting

import (
	"errors"
	"math"
	"reflect"
	"sync"
	"testing"
)

// Every expected value below is summed by hand from the rows of its test:
// one entry per distinct key, its weights added up, keys in byte order.

func newKeyCounts(t *testing.T) *KeyCounts {
	t.Helper()
	k, err := NewKeyCounts()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

func expectSorted(t *testing.T, k *KeyCounts, keys []string, weights []float64) {
	t.Helper()
	gotKeys, gotWeights := k.Sorted()
	if !reflect.DeepEqual(gotKeys, keys) || !reflect.DeepEqual(gotWeights, weights) {
		t.Errorf("sorted %q %v, expected %q %v", gotKeys, gotWeights, keys, weights)
	}
	if k.Len() != len(keys) {
		t.Errorf("len %d, expected %d", k.Len(), len(keys))
	}
}

func TestKeyCountsSumInByteOrder(t *testing.T) {
	k := newKeyCounts(t)
	expectSorted(t, k, []string{}, []float64{})
	for _, row := range []struct {
		key    string
		weight float64
	}{{"pear", 1}, {"apple", 2}, {"", 0.5}, {"pea", 4}, {"apple", 0.25}} {
		if err := k.Add(row.key, row.weight); err != nil {
			t.Fatal(err)
		}
	}
	// Bytes that are not UTF-8 sort as bytes: 0xc3 0xa9 (é) before 0xff,
	// both after ASCII.
	if err := k.AddBytes([]byte{0xff}, 1); err != nil {
		t.Fatal(err)
	}
	if err := k.AddBytes([]byte("é"), 1); err != nil {
		t.Fatal(err)
	}
	// "" first, "pea" before "pear" (a prefix sorts first), apple 2 + 0.25.
	expectSorted(t, k, []string{"", "apple", "pea", "pear", "é", "\xff"}, []float64{0.5, 2.25, 4, 1, 1, 1})
	if w, ok := k.KeylessWeight(); ok || w != 0 {
		t.Errorf("no keyless row yet: %v %v", w, ok)
	}
	if err := k.AddKeyless(1.5); err != nil {
		t.Fatal(err)
	}
	if err := k.AddKeyless(2); err != nil {
		t.Fatal(err)
	}
	if w, ok := k.KeylessWeight(); !ok || w != 3.5 {
		t.Errorf("keyless weight %v %v, expected 3.5", w, ok)
	}
	// pear apple "" pea 0xff é: 4 + 5 + 0 + 3 + 1 + 2 bytes.
	if k.Rows() != 9 || k.Len() != 6 || k.TotalKeyBytes() != 15 {
		t.Errorf("rows %d len %d bytes %d, expected 9, 6 and 15", k.Rows(), k.Len(), k.TotalKeyBytes())
	}
}

func TestKeyCountsBatch(t *testing.T) {
	k := newKeyCounts(t)
	keys := []string{"b", "a", "", "a", "b"}
	if err := k.AddBatch(keys, nil); err != nil {
		t.Fatal(err)
	}
	expectSorted(t, k, []string{"", "a", "b"}, []float64{1, 2, 2})
	if err := k.AddBatch(keys, []float64{1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	// b 2 + 1 + 5, a 2 + 2 + 4, "" 1 + 3.
	expectSorted(t, k, []string{"", "a", "b"}, []float64{4, 8, 8})
	if err := k.AddBatch(nil, nil); err != nil {
		t.Fatal(err)
	}
	if k.Rows() != 10 {
		t.Errorf("rows %d, expected 10", k.Rows())
	}
}

func TestKeyCountsRefusalsAddNothing(t *testing.T) {
	k := newKeyCounts(t)
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		err := k.Add("a", bad)
		if !errors.Is(err, &Error{Status: StatusKeyCountsInvalidWeight}) ||
			err.(*Error).Message != "weight 0 is not a finite number of at least 0" {
			t.Errorf("add weight %v: %v", bad, err)
		}
		if err := k.AddKeyless(bad); !errors.Is(err, &Error{Status: StatusKeyCountsInvalidWeight}) {
			t.Errorf("add_keyless weight %v: %v", bad, err)
		}
	}
	err := k.AddBatch([]string{"a", "b", "c"}, []float64{1, 1, -0.5})
	if !errors.Is(err, &Error{Status: StatusKeyCountsInvalidWeight}) ||
		err.(*Error).Message != "weight 2 is not a finite number of at least 0" {
		t.Errorf("batch: %v", err)
	}
	if err := k.AddBatch([]string{"a", "b"}, []float64{1}); !errors.Is(err, &Error{Status: StatusKeyCountsWeightsLength}) {
		t.Errorf("one weight for two keys: %v", err)
	}
	if _, ok := k.KeylessWeight(); ok || k.Rows() != 0 || k.Len() != 0 {
		t.Errorf("refused adds added: rows %d len %d", k.Rows(), k.Len())
	}
}

func TestKeyCountsClosed(t *testing.T) {
	k, err := NewKeyCounts()
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Add("a", 1); err != nil {
		t.Fatal(err)
	}
	k.Close()
	k.Close()
	if err := k.Add("a", 1); !errors.Is(err, &Error{Status: StatusNullParameter}) {
		t.Errorf("add after close: %v", err)
	}
	if keys, weights := k.Sorted(); keys != nil || weights != nil || k.Len() != 0 || k.Rows() != 0 {
		t.Errorf("closed counts read %q %v", keys, weights)
	}
}

// Adds from many goroutines are serialised; every row is counted once.
func TestKeyCountsSharedByGoroutines(t *testing.T) {
	k := newKeyCounts(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				if err := k.AddBatch([]string{"x", "y"}, nil); err != nil {
					t.Error(err)
					return
				}
				_ = k.Len()
			}
		}()
	}
	wg.Wait()
	expectSorted(t, k, []string{"x", "y"}, []float64{8000, 8000})
}
