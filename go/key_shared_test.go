package pulsarrouting

import (
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// rangesText renders ranges per consumer as the golden files hold them
// ({"id": [[start, end], ...]}), sorted, for comparison.
func rangesText(byConsumer map[string][][2]int64) string {
	keys := make([]string, 0, len(byConsumer))
	for k := range byConsumer {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s:%v ", k, byConsumer[k])
	}
	return b.String()
}

func goldenRanges(t *testing.T, v interface{}) string {
	out := map[string][][2]int64{}
	for k, list := range v.(map[string]interface{}) {
		for _, r := range list.([]interface{}) {
			pair := r.([]interface{})
			out[k] = append(out[k], [2]int64{mustInt(t, pair[0]), mustInt(t, pair[1])})
		}
	}
	return rangesText(out)
}

// consumerOnly is the slots one consumer's declared ranges cover: clipped
// to [0, 65535] (the broker accepts ranges past it, and no slot lies
// there) and merged where they touch, in slot order.
func consumerOnly(as []Assignment, consumer uint64) []Assignment {
	var out []Assignment
	for _, a := range as {
		if a.Consumer != consumer {
			continue
		}
		if a.Start < 0 {
			a.Start = 0
		}
		if a.End > 65535 {
			a.End = 65535
		}
		if a.Start > a.End {
			continue
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	merged := out[:0]
	for _, a := range out {
		if n := len(merged); n > 0 && a.Start <= merged[n-1].End+1 {
			if a.End > merged[n-1].End {
				merged[n-1].End = a.End
			}
			continue
		}
		merged = append(merged, a)
	}
	return merged
}

func assignmentRanges(as []Assignment) string {
	out := map[string][][2]int64{}
	for _, a := range as {
		k := fmt.Sprint(a.Consumer)
		out[k] = append(out[k], [2]int64{int64(a.Start), int64(a.End)})
	}
	return rangesText(out)
}

func goldenAssignments(t *testing.T, v interface{}) string {
	var b strings.Builder
	for _, r := range v.([]interface{}) {
		a := r.([]interface{})
		fmt.Fprintf(&b, "%d-%d:%d ", mustInt(t, a[0]), mustInt(t, a[1]), mustInt(t, a[2]))
	}
	return b.String()
}

func assignmentsText(as []Assignment) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "%d-%d:%d ", a.Start, a.End, a.Consumer)
	}
	return b.String()
}

// checkLookups compares each golden [slot, consumer or null] pair.
func checkLookups(t *testing.T, what string, s *Selector, lookups interface{}) int {
	t.Helper()
	n := 0
	for _, l := range lookups.([]interface{}) {
		pair := l.([]interface{})
		slot := mustInt(t, pair[0])
		got, ok, err := s.SelectSlot(uint32(slot))
		if err != nil {
			t.Fatal(err)
		}
		if pair[1] == nil {
			if ok {
				t.Errorf("%s: slot %d: consumer %d, Java none", what, slot, got)
			}
		} else if want := uint64(mustInt(t, pair[1])); !ok || got != want {
			t.Errorf("%s: slot %d: consumer %d (%v), Java %d", what, slot, got, ok, want)
		}
		n++
	}
	return n
}

// checkFailure compares an error with Java's class and message. Java's
// conflict message prints the broker's Consumer (id and name); the
// library prints the id only.
func checkFailure(t *testing.T, what string, err error, class, message string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v, Java %s: %s", what, err, class, message)
		return
	}
	if got := KeySharedErrorClass(e.Status); got != class {
		t.Errorf("%s: class %q, Java %q", what, got, class)
	}
	want := message
	if i := strings.Index(message, ", consumerName="); i >= 0 {
		want = message[:i] + "}"
	}
	if e.Message != want {
		t.Errorf("%s: message %q, Java %q", what, e.Message, want)
	}
}

// Every AutoSplit scenario the broker's selector ran: each add and remove
// with its error, snapshot, ranges, impact and lookups.
func TestGoldenKeySharedAutoSplit(t *testing.T) {
	scenarios, lookups := 0, 0
	for _, row := range goldenRows(t, "keyshared_autosplit.jsonl.gz") {
		switch row["type"] {
		case "constructor":
			s, err := NewAutoSplitSelector(int32(num(t, row, "range_size")))
			if row["ok"] == true {
				if err != nil {
					t.Errorf("range size %v: %v", row["range_size"], err)
				} else {
					s.Close()
				}
			} else {
				checkFailure(t, fmt.Sprint("range size ", row["range_size"]), err, "IllegalArgumentException", row["error"].(string))
			}
			continue
		case "scenario":
		default:
			continue
		}
		s, err := NewAutoSplitSelector(int32(num(t, row, "range_size")))
		if err != nil {
			t.Fatal(err)
		}
		scenarios++
		for i, raw := range row["steps"].([]interface{}) {
			step := raw.(map[string]interface{})
			what := fmt.Sprintf("%v step %d", row["id"], i)
			id := uint64(mustInt(t, step["consumer_id"]))
			var impact Impact
			if step["op"] == "add" {
				// Names do not matter to AutoSplit: both entry points.
				if i%2 == 0 {
					impact, err = s.Add(id, step["name"].(string))
				} else {
					impact, err = s.AddConsumer(id)
				}
			} else {
				impact, err = s.Remove(id)
			}
			if step["ok"] == true {
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			} else {
				checkFailure(t, what, err, step["error_class"].(string), step["error"].(string))
			}
			checkSnapshot(t, what, s, step)
			if got, want := assignmentRanges(impact.Removed), goldenRanges(t, step["removed"]); got != want {
				t.Errorf("%s: removed %s, Java %s", what, got, want)
			}
			if got, want := assignmentRanges(impact.Added), goldenRanges(t, step["added"]); got != want {
				t.Errorf("%s: added %s, Java %s", what, got, want)
			}
			if step["lookups"] != nil {
				lookups += checkLookups(t, what, s, step["lookups"])
			}
		}
		s.Close()
	}
	if scenarios == 0 || lookups == 0 {
		t.Fatal("no scenario replayed")
	}
	t.Logf("%d AutoSplit scenarios, %d lookups as the broker", scenarios, lookups)
}

// checkSnapshot compares the broker's snapshot and per-consumer ranges.
func checkSnapshot(t *testing.T, what string, s *Selector, step map[string]interface{}) {
	t.Helper()
	if step["assignments"] != nil {
		as, err := s.Assignments()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := assignmentsText(as), goldenAssignments(t, step["assignments"]); got != want {
			t.Errorf("%s: assignments %s, Java %s", what, got, want)
		}
	}
	if step["ranges_by_consumer"] == nil {
		// Large scenarios carry counts and digests only.
		return
	}
	rs, err := s.ConsumerRanges()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := assignmentRanges(rs), goldenRanges(t, step["ranges_by_consumer"]); got != want {
		t.Errorf("%s: ranges %s, Java %s", what, got, want)
	}
	for k := range step["ranges_by_consumer"].(map[string]interface{}) {
		var id uint64
		fmt.Sscan(k, &id)
		own, err := s.RangesOf(id)
		if err != nil {
			t.Fatal(err)
		}
		as := make([]Assignment, len(own))
		for i, r := range own {
			as[i] = Assignment{Start: r.Start, End: r.End, Consumer: id}
		}
		if !s.Contains(id) {
			t.Errorf("%s: consumer %d missing", what, id)
		}
		one := map[string]interface{}{k: step["ranges_by_consumer"].(map[string]interface{})[k]}
		if got, want := assignmentRanges(as), goldenRanges(t, one); got != want {
			t.Errorf("%s: RangesOf(%d) %s, Java %s", what, id, got, want)
		}
	}
}

// The ring points of consumer names, as the broker computes them.
func TestGoldenRingPoints(t *testing.T) {
	points := 0
	for _, row := range goldenRows(t, "keyshared_consistent.jsonl.gz") {
		if row["type"] != "ring_points" {
			continue
		}
		r := HashRange{Start: 1, End: int32(num(t, row, "range_max"))}
		for i, p := range row["points"].([]interface{}) {
			got, err := RingPoint([]byte(row["name"].(string)), uint32(num(t, row, "name_index")), uint32(i), r)
			if err != nil || int64(got) != mustInt(t, p) {
				t.Fatalf("ring point %v/%v/%d: %d, %v, Java %v", row["name"], row["name_index"], i, got, err, p)
			}
			points++
		}
	}
	if points == 0 {
		t.Fatal("no ring points")
	}
}

// checkConsistentStep compares what the lookups do not show: snapshots,
// impacts, name indexes and ring points.
func checkConsistentStep(t *testing.T, what string, s *Selector, step map[string]interface{}, id uint64, impact Impact) {
	t.Helper()
	checkSnapshot(t, what, s, step)
	if step["removed"] != nil {
		if got, want := assignmentRanges(impact.Removed), goldenRanges(t, step["removed"]); got != want {
			t.Errorf("%s: removed %s, Java %s", what, got, want)
		}
		if got, want := assignmentRanges(impact.Added), goldenRanges(t, step["added"]); got != want {
			t.Errorf("%s: added %s, Java %s", what, got, want)
		}
	}
	if step["op"] != "add" || step["ok"] != true {
		return
	}
	if step["name_index"] != nil {
		if got, err := s.NameIndex(id); err != nil || got != mustInt(t, step["name_index"]) {
			t.Errorf("%s: name index %d, %v, Java %v", what, got, err, step["name_index"])
		}
	}
	if rp, ok := step["ring_points"].([]interface{}); ok {
		got, err := s.RingPoints(id)
		if err != nil || len(got) != len(rp) {
			t.Fatalf("%s: ring points %v, %v", what, got, err)
		}
		for j, p := range rp {
			if int64(got[j]) != mustInt(t, p) {
				t.Fatalf("%s: ring point %d: %d, Java %v", what, j, got[j], p)
			}
		}
	}
}

// Every exclusive (sticky ranges) case under the current rules and those
// before apache/pulsar#24730, and the client's own check of the ranges.
func TestGoldenKeySharedExclusive(t *testing.T) {
	cases, lookups, validated := 0, 0, 0
	for _, row := range goldenRows(t, "keyshared_exclusive.jsonl.gz") {
		if row["type"] != "case" {
			continue
		}
		current, err := NewExclusiveSelector(false)
		if err != nil {
			t.Fatal(err)
		}
		legacy, err := NewExclusiveSelector(true)
		if err != nil {
			t.Fatal(err)
		}
		cases++
		for i, raw := range row["steps"].([]interface{}) {
			step := raw.(map[string]interface{})
			id := uint64(mustInt(t, step["consumer_id"]))
			var ranges []HashRange
			if list, ok := step["ranges"].([]interface{}); ok {
				ranges = []HashRange{}
				for _, r := range list {
					pair := r.([]interface{})
					ranges = append(ranges, HashRange{Start: int32(mustInt(t, pair[0])), End: int32(mustInt(t, pair[1]))})
				}
			}
			if v, ok := step["client_validate"].(string); ok && (v == "ok" || strings.HasPrefix(v, "error: ")) {
				validated++
				err := ValidateStickyRanges(ranges)
				if v == "ok" {
					if err != nil {
						t.Errorf("%v step %d: client check %v", row["id"], i, err)
					}
				} else {
					checkFailure(t, fmt.Sprintf("%v step %d client", row["id"], i), err, "IllegalArgumentException",
						strings.TrimPrefix(v, "error: "))
				}
			}
			for _, rules := range []struct {
				field string
				s     *Selector
			}{{"broker", current}, {"broker_pre_24730", legacy}} {
				what := fmt.Sprintf("%v step %d %s", row["id"], i, rules.field)
				want := step[rules.field].(map[string]interface{})
				before, err := rules.s.ConsumerRanges()
				if err != nil {
					t.Fatal(err)
				}
				var impact Impact
				if step["op"] == "add" {
					impact, err = rules.s.AddRanges(id, ranges)
				} else {
					impact, err = rules.s.Remove(id)
				}
				if want["ok"] == true {
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
				} else {
					checkFailure(t, what, err, want["error_class"].(string), want["error"].(string))
				}
				rs, err := rules.s.ConsumerRanges()
				if err != nil {
					t.Fatal(err)
				}
				// Java's STICKY mode reports no impact; the core reports what
				// moved. Under the current rules that is exactly the
				// consumer's ranges: gained on an add, lost on a remove (the
				// legacy rules also move the gaps between them).
				if rules.field == "broker" && want["ok"] == true {
					gained, lost := consumerOnly(rs, id), consumerOnly(before, id)
					if step["op"] == "add" {
						gained, lost = consumerOnly(rs, id), nil
					} else {
						gained = nil
					}
					if got, w := assignmentRanges(impact.Added), assignmentRanges(gained); got != w {
						t.Errorf("%s: impact added %s, the consumer's ranges %s", what, got, w)
					}
					if got, w := assignmentRanges(impact.Removed), assignmentRanges(lost); got != w {
						t.Errorf("%s: impact removed %s, the consumer's ranges %s", what, got, w)
					}
				}
				if got, w := assignmentRanges(rs), goldenRanges(t, want["ranges_by_consumer"]); got != w {
					t.Errorf("%s: ranges %s, Java %s", what, got, w)
				}
				if want["lookups"] != nil {
					lookups += checkLookups(t, what, rules.s, want["lookups"])
				}
			}
		}
		current.Close()
		legacy.Close()
	}
	if cases == 0 || lookups == 0 || validated == 0 {
		t.Fatal("nothing replayed")
	}
	t.Logf("%d exclusive cases, %d lookups, %d client checks as Java", cases, lookups, validated)
}

// Every sticky key's hashes and slots, through each entry point.
func TestGoldenStickyKeyHashes(t *testing.T) {
	var keys [][]byte
	var wantSlots []uint32
	rows := 0
	for _, row := range goldenRows(t, "keyshared_hash.jsonl.gz") {
		if row["type"] != "key" {
			continue
		}
		key := unhexField(t, row, "key_hex")
		rows++
		if got := Murmur3_32Raw(key); int64(got) != num(t, row, "murmur3_32_x86_seed0_u32") {
			t.Errorf("raw murmur3 of %x: %d", key, got)
		}
		if got := Murmur3_32(key); int64(got) != num(t, row, "pulsar_murmur3_31") {
			t.Errorf("murmur3_31 of %x: %d", key, got)
		}
		for _, c := range []struct {
			field string
			r     HashRange
			kind  SelectorKind
		}{
			{"hash_range_0_65535", HashRange{0, 65535}, SelectorAutoSplit},
			{"hash_range_1_65535", HashRange{1, 65535}, SelectorConsistentHashing},
			{"hash_range_1_2147483646", HashRange{1, 2147483646}, 99},
		} {
			want := num(t, row, c.field)
			if got, err := SlotOf(key, c.r); err != nil || int64(got) != want {
				t.Errorf("SlotOf(%x, %v) = %d, %v, Java %d", key, c.r, got, err, want)
			}
			if c.kind != 99 {
				if got, err := StickyKeyHash(key, c.kind); err != nil || int64(got) != want {
					t.Errorf("StickyKeyHash(%x, %v) = %d, %v, Java %d", key, c.kind, got, err, want)
				}
			}
			// A message whose ordering key is the key hashes the same.
			m := MessageKeys{OrderingKey: key}
			if got, err := m.Slot(c.r); err != nil || int64(got) != want {
				t.Errorf("MessageKeys.Slot(%x, %v) = %d, %v, Java %d", key, c.r, got, err, want)
			}
			if c.field == "hash_range_0_65535" {
				keys = append(keys, key)
				wantSlots = append(wantSlots, uint32(want))
			}
		}
	}
	got, err := SlotsOf(keys, HashRange{0, 65535})
	if err != nil || fmt.Sprint(got) != fmt.Sprint(wantSlots) {
		t.Errorf("SlotsOf: %v", err)
	}
	if rows == 0 {
		t.Fatal("no rows")
	}
}

func TestSelectorKindsAndMessages(t *testing.T) {
	for _, k := range []SelectorKind{SelectorAutoSplit, SelectorConsistentHashing, SelectorExclusive} {
		parsed, err := ParseSelectorKind(k.String())
		if err != nil || parsed != k {
			t.Errorf("ParseSelectorKind(%q) = %v, %v", k.String(), parsed, err)
		}
	}
	if _, err := ParseSelectorKind("sticky"); !errors.Is(err, &Error{Status: StatusUnknownSelectorKind}) {
		t.Errorf("unknown kind: %v", err)
	}
	// The broker's defaults (selector kind key hash ranges).
	for k, want := range map[SelectorKind]HashRange{SelectorAutoSplit: {0, 65535},
		SelectorConsistentHashing: {1, 65535}, SelectorExclusive: {0, 65535}} {
		if r, err := k.KeyHashRange(); err != nil || r != want {
			t.Errorf("%v: %v, %v", k, r, err)
		}
	}

	// The sticky key is the ordering key, else the partition key (decoded
	// when Base64), else producer name and sequence id, else NONE_KEY.
	for _, c := range []struct {
		m    MessageKeys
		want string
	}{
		{MessageKeys{OrderingKey: []byte("o"), PartitionKey: []byte("p")}, "o"},
		{MessageKeys{PartitionKey: []byte("p")}, "p"},
		{MessageKeys{PartitionKey: []byte("aGk="), PartitionKeyB64Encoded: true}, "hi"},
		{MessageKeys{ProducerName: []byte("prod"), SequenceID: 7, HasSequenceID: true}, "prod-7"},
		{MessageKeys{}, "NONE_KEY"},
	} {
		got, err := c.m.StickyKey()
		if err != nil || string(got) != c.want {
			t.Errorf("%+v: sticky key %q, %v, want %q", c.m, got, err, c.want)
		}
		h, err := c.m.Murmur3()
		if err != nil || h != Murmur3_32([]byte(c.want)) {
			t.Errorf("%+v: murmur3 %d, %v", c.m, h, err)
		}
	}
	bad := MessageKeys{PartitionKey: []byte("a.b="), PartitionKeyB64Encoded: true}
	err := bad.Check()
	if !errors.Is(err, &Error{Status: StatusBase64IllegalCharacter}) || err.(*Error).Message != "Illegal base64 character 2e" {
		t.Errorf("Check: %v", err)
	}
	if KeySharedErrorClass(StatusBase64IllegalCharacter) != "IllegalArgumentException" || KeySharedErrorClass(StatusNoConsumer) != "" {
		t.Error("error classes")
	}

	s, err := NewAutoSplitSelector(DefaultRangeSize)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AddRanges(1, []HashRange{{0, 10}}); !errors.Is(err, &Error{Status: StatusWrongSelectorKind}) {
		t.Errorf("AddRanges on AutoSplit: %v", err)
	}
	// Past the initial capacity of 16 consumers.
	for id := uint64(0); id < 40; id++ {
		if _, err := s.AddConsumer(id); err != nil {
			t.Fatal(err)
		}
	}
	msgs := []MessageKeys{{OrderingKey: []byte("a")}, {PartitionKey: []byte("b")}, {}}
	got, err := s.SelectMessages(msgs)
	if err != nil || len(got) != 3 {
		t.Fatalf("SelectMessages: %v, %v", got, err)
	}
	byKeys, err := s.SelectKeys([][]byte{[]byte("a"), []byte("b"), []byte("NONE_KEY")})
	if err != nil || fmt.Sprint(byKeys) != fmt.Sprint(got) {
		t.Errorf("SelectKeys %v, SelectMessages %v, %v", byKeys, got, err)
	}
	for i, m := range msgs {
		c, ok, err := s.SelectMessage(m)
		if err != nil || !ok || c != got[i] {
			t.Errorf("SelectMessage %d: %d, %v, %v", i, c, ok, err)
		}
	}
	words, err := AutoSplitConfig{RangeSize: 65536, MaxConsumers: 16}.StorageWords()
	if err != nil || words < 65536 {
		t.Errorf("AutoSplit storage: %d, %v", words, err)
	}
	if _, err := (AutoSplitConfig{RangeSize: 3, MaxConsumers: 1}).StorageWords(); !errors.Is(err, &Error{Status: StatusRangeSizeNotPowerOfTwo}) {
		t.Errorf("range size 3: %v", err)
	}
	if w, err := (ConsistentHashingConfig{Points: 100, RangeMax: 65535, MaxConsumers: 16, NameBytes: 512}).StorageWords(); err != nil || w < 2*65536 {
		t.Errorf("consistent hashing storage: %d, %v", w, err)
	}
	if w, err := (ExclusiveConfig{MaxConsumers: 16, MaxRanges: 64}).StorageWords(); err != nil || w < 65536 {
		t.Errorf("exclusive storage: %d, %v", w, err)
	}
}

// Readers share a selector while a writer adds and removes (run under
// -race by scripts/test-go.sh).
func TestSelectorSharedByGoroutines(t *testing.T) {
	s, err := NewExclusiveSelector(false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		inGoroutines(t, 4, 200, func(g, i int) error {
			_, _, err := s.Select([]byte(fmt.Sprint(g, i)))
			if err == nil {
				_, err = s.Assignments()
			}
			return err
		})
	}()
	for id := uint64(0); id < 64; id++ {
		lo := int32(id * 1000)
		if _, err := s.AddRanges(id, []HashRange{{lo, lo + 999}}); err != nil {
			t.Fatal(err)
		}
	}
	for id := uint64(0); id < 64; id += 2 {
		s.Remove(id)
	}
	<-done
	if s.Len() != 32 {
		t.Errorf("Len = %d", s.Len())
	}
}

func unhexField(t testing.TB, row map[string]interface{}, field string) []byte {
	t.Helper()
	b, err := hex.DecodeString(row[field].(string))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
