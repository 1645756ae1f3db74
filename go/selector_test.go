package pulsarrouting

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// Every consistent-hashing scenario the broker's own selector ran: each
// add and remove, its snapshot and impact, then its lookups (slot to
// consumer, or none).
func TestGoldenKeySharedConsistentHashing(t *testing.T) {
	scenarios, steps, lookups := 0, 0, 0
	for _, row := range goldenRows(t, "keyshared_consistent.jsonl.gz") {
		if row["type"] != "scenario" {
			continue
		}
		if num(t, row, "range_min") != 1 {
			t.Fatalf("scenario %v: range_min %v", row["id"], row["range_min"])
		}
		s, err := NewConsistentHashingSelector(uint32(num(t, row, "points")), uint32(num(t, row, "range_max")))
		if err != nil {
			t.Fatal(err)
		}
		scenarios++
		for _, raw := range row["steps"].([]interface{}) {
			step := raw.(map[string]interface{})
			steps++
			id := uint64(num(t, step, "consumer_id"))
			var impact Impact
			switch step["op"] {
			case "add":
				impact, err = s.Add(id, step["name"].(string))
				if (err == nil) != (step["ok"] == true) {
					t.Fatalf("%v: add %d: %v, Java ok=%v", row["id"], id, err, step["ok"])
				}
			case "remove":
				if impact, err = s.Remove(id); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("unknown op %v", step["op"])
			}
			what := fmt.Sprintf("%v step %d", row["id"], steps)
			checkConsistentStep(t, what, s, step, id, impact)
			lookups += checkLookups(t, what, s, step["lookups"])
		}
		s.Close()
	}
	if scenarios == 0 || lookups == 0 {
		t.Fatal("no scenario replayed")
	}
	t.Logf("%d scenarios, %d steps, %d lookups as the broker", scenarios, steps, lookups)
}

func mustInt(t *testing.T, v interface{}) int64 {
	t.Helper()
	n, err := v.(json.Number).Int64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSelector(t *testing.T) {
	s, err := NewConsistentHashingSelector(DefaultConsistentHashingPoints, ConsistentHashingRangeMax)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Select([]byte("k")); ok || err != nil {
		t.Errorf("empty selector: %v, %v", ok, err)
	}
	// Past the initial capacity of 16 consumers and their names.
	for id := uint64(0); id < 100; id++ {
		if _, err := s.Add(id, "consumer-with-a-long-name-"+string(rune('a'+id%26))); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 100 {
		t.Errorf("Len = %d", s.Len())
	}
	if _, err := s.Add(5, "again"); err == nil {
		t.Error("a duplicate consumer was added")
	}
	c, ok, err := s.Select([]byte("order-17"))
	if err != nil || !ok || c >= 100 {
		t.Errorf("Select = %d, %v, %v", c, ok, err)
	}
	if _, err := s.Remove(c); err != nil {
		t.Fatal(err)
	}
	if again, _, _ := s.Select([]byte("order-17")); again == c {
		t.Error("a removed consumer still receives")
	}
	s.Close()
	s.Close()
	if _, _, err := s.SelectSlot(1); !errors.Is(err, &Error{Status: StatusNullParameter}) {
		t.Errorf("closed selector: %v", err)
	}
}

// Adds grow a selector by the policy every binding shares; Reserve makes
// the room ahead of time and Capacity reports it.
func TestSelectorGrowsAndReserves(t *testing.T) {
	s, err := NewAutoSplitSelector(DefaultRangeSize)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for c := uint64(1); c <= 100; c++ {
		if _, err := s.AddConsumer(c); err != nil {
			t.Fatalf("add %d: %v", c, err)
		}
	}
	got, err := s.Capacity()
	if err != nil || got.MaxConsumers < 100 {
		t.Fatalf("capacity after 100 adds: %+v, %v", got, err)
	}
	if err := s.Reserve(SelectorCapacity{MaxConsumers: 1000}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Capacity(); err != nil || got.MaxConsumers < 1000 {
		t.Fatalf("capacity after reserving 1000: %+v, %v", got, err)
	}
}
