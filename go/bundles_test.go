package pulsarrouting

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func boundariesOf(t *testing.T, v interface{}) []uint32 {
	var out []uint32
	for _, s := range v.([]interface{}) {
		b, err := ParseBoundary(s.(string))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func hexBoundaries(bs []uint32) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = fmt.Sprintf("0x%08x", b)
	}
	return strings.Join(parts, " ")
}

func goldenStrings(v interface{}) string {
	var parts []string
	for _, s := range v.([]interface{}) {
		parts = append(parts, s.(string))
	}
	return strings.Join(parts, " ")
}

func layoutBundles(t *testing.T, l *BundleLayout) string {
	n, err := l.Len()
	if err != nil {
		t.Fatal(err)
	}
	parts := make([]string, n)
	for i := range parts {
		b, err := l.Bundle(i)
		if err != nil {
			t.Fatal(err)
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, " ")
}

// Every bundle row of the golden file: default and explicit layouts, the
// bundle of a topic or a hash, parsing, the admin API's checks, and every
// split with the broker's algorithms.
func TestGoldenBundleLayouts(t *testing.T) {
	checked := map[string]int{}
	for _, row := range goldenRows(t, "bundles.jsonl.gz") {
		kind, _ := row["kind"].(string)
		switch kind {
		case "default_bundles":
			if num(t, row, "num_bundles") < 0 {
				// Not a uint32: Go's types refuse it.
				continue
			}
			n := uint32(num(t, row, "num_bundles"))
			l, err := NewDefaultBundleLayout(n)
			if row["error"] != nil {
				if !errors.Is(err, &Error{Status: StatusNoBundles}) {
					t.Errorf("%d bundles: %v, Java %v", n, err, row["error"])
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := l.Boundaries()
			d, err2 := DefaultBoundaries(n)
			if err != nil || err2 != nil || hexBoundaries(b) != goldenStrings(row["boundaries"]) || hexBoundaries(d) != hexBoundaries(b) {
				t.Errorf("%d bundles: %s, %s (%v, %v)", n, hexBoundaries(b), hexBoundaries(d), err, err2)
			}
			if got := layoutBundles(t, l); got != goldenStrings(row["names"]) {
				t.Errorf("%d bundles: %s", n, got)
			}
			l.Close()
		case "topic_bundle":
			rules := RulesV4
			if row["impl"] == "master" {
				rules = RulesMaster
			}
			if row["error"] == "java.lang.IndexOutOfBoundsException" {
				// The name hashes to 0xffffffff, which the broker's own
				// lookup refuses.
				tn, err := ParseTopicName(row["topic"].(string), rules)
				if err != nil {
					t.Fatal(err)
				}
				l, _ := NewDefaultBundleLayout(uint32(num(t, row, "num_bundles")))
				if _, err := l.BundleIndexForHash(tn.CRC32(), true); !errors.Is(err, &Error{Status: StatusNoBundleForHash}) {
					t.Errorf("%v: %v, Java %v", row["topic"], err, row["error"])
				}
				l.Close()
				break
			}
			if row["error"] != nil {
				// Java rejects the name.
				if _, err := BundleForTopic(4, row["topic"].(string), rules); err == nil {
					t.Errorf("%v: a bundle, Java %v", row["topic"], row["error"])
				}
				break
			}
			l, err := NewDefaultBundleLayout(uint32(num(t, row, "num_bundles")))
			if err != nil {
				t.Fatal(err)
			}
			b, err := l.BundleForTopic(row["topic"].(string), rules)
			if err != nil || b.String() != row["bundle"] {
				t.Errorf("%v: %v, %v", row["topic"], b, err)
			}
			tn, err := ParseTopicName(row["topic"].(string), rules)
			if err != nil {
				t.Fatal(err)
			}
			if key, err := b.Key(tn.Namespace()); err != nil || key != row["bundle_key"] {
				t.Errorf("%v: key %q, %v", row["topic"], key, err)
			}
			if in, err := b.Includes(uint32(num(t, row, "crc32"))); err != nil || in != (row["includes"] == true) {
				t.Errorf("%v: includes %v, %v", row["topic"], in, err)
			}
			l.Close()
		case "hash_bundle":
			l, err := NewDefaultBundleLayout(uint32(num(t, row, "num_bundles")))
			if err != nil {
				t.Fatal(err)
			}
			h := uint32(num(t, row, "hash"))
			_, strictErr := l.BundleIndexForHash(h, true)
			i, err := l.BundleIndexForHash(h, false)
			if err != nil {
				t.Fatal(err)
			}
			if row["error"] != nil {
				n, _ := l.Len()
				if !errors.Is(strictErr, &Error{Status: StatusNoBundleForHash}) || i != n-1 {
					t.Errorf("hash %d: %v, %d", h, strictErr, i)
				}
			} else if b, err := l.BundleForHash(h); err != nil || b.String() != row["bundle"] || strictErr != nil {
				t.Errorf("hash %d: %v, %v, %v", h, b, err, strictErr)
			}
			l.Close()
		case "parse_bundle_range":
			b, err := ParseBundleRange(row["input"].(string))
			if row["error"] != nil {
				if err == nil {
					t.Errorf("%v: parsed as %v", row["input"], b)
				}
				break
			}
			if err != nil || b.String() != row["bundle_range"] {
				t.Errorf("%v: %v, %v", row["input"], b, err)
				break
			}
			if key, err := b.Key("t/ns"); err != nil || key != row["key"] {
				t.Errorf("%v: key %q", row["input"], key)
			}
			l, _ := NewDefaultBundleLayout(4)
			_, err = l.ValidateBundle(b)
			if (err == nil) != (row["valid_in_4_bundles"] == true) {
				t.Errorf("%v: valid in 4 bundles: %v", row["input"], err)
			}
			l.Close()
		case "bundles_from_boundaries":
			l, err := NewBundleLayout(boundariesOf(t, row["boundaries"]))
			if row["error"] != nil {
				if err == nil {
					t.Errorf("%v: a layout, Java %v", row["boundaries"], row["error"])
					l.Close()
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := layoutBundles(t, l); got != goldenStrings(row["names"]) {
				t.Errorf("%v: %s", row["boundaries"], got)
			}
			for indexed := 0; indexed < 2; indexed++ {
				for i, h := range row["probe_hashes"].([]interface{}) {
					want := row["probe_bundles"].([]interface{})[i].(string)
					hash := uint32(mustInt(t, h))
					bi, err := l.BundleIndexForHash(hash, true)
					if strings.HasPrefix(want, "error:") {
						if err == nil {
							t.Errorf("hash %d: bundle %d, Java %s", hash, bi, want)
						}
						continue
					}
					if b, _ := l.Bundle(bi); err != nil || b.String() != want {
						t.Errorf("hash %d: %v, %v, Java %s", hash, b, err, want)
					}
				}
				// Answers are the same with an index.
				if err := l.Index(); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
		case "validate_full_range":
			var list []string
			for _, s := range row["boundaries"].([]interface{}) {
				list = append(list, s.(string))
			}
			if err := ValidateFullRange(list); (err == nil) != (row["valid"] == true) {
				t.Errorf("%v: %v", list, err)
			}
		case "can_split":
			b, err := ParseBundleRange(row["bundle"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if can, err := b.CanSplit(); err != nil || can != (row["can_split"] == true) {
				t.Errorf("%v: %v, %v", row["bundle"], can, err)
			}
		case "split":
			checkSplitRow(t, row)
		case "split_equal_parts":
			l, err := NewBundleLayout(boundariesOf(t, row["boundaries_before"]))
			if err != nil {
				t.Fatal(err)
			}
			target, _ := ParseBundleRange(row["target_bundle"].(string))
			after, err := l.SplitEqually(target, uint32(num(t, row, "num_parts")))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := after.Boundaries()
			if hexBoundaries(b) != goldenStrings(row["boundaries_after"]) {
				t.Errorf("%v in %v parts: %s", target, row["num_parts"], hexBoundaries(b))
			}
			after.Close()
			l.Close()
		default:
			continue
		}
		checked[kind]++
	}
	t.Logf("bundle rows checked: %v", checked)
	if len(checked) < 9 {
		t.Errorf("kinds checked: %v", checked)
	}
}

// checkSplitRow runs the row's split algorithm, then the split, and the
// impact on the topics.
func checkSplitRow(t *testing.T, row map[string]interface{}) {
	t.Helper()
	l, err := NewBundleLayout(boundariesOf(t, row["boundaries_before"]))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	target, err := ParseBundleRange(row["target_bundle"].(string))
	if err != nil {
		t.Fatal(err)
	}
	var topics []string
	var hashes []uint32
	if list, ok := row["topics"].([]interface{}); ok {
		for _, s := range list {
			topics = append(topics, s.(string))
			hashes = append(hashes, CRC32([]byte(s.(string))))
		}
	}
	var positions []int64
	if list, ok := row["positions"].([]interface{}); ok {
		for _, p := range list {
			positions = append(positions, mustInt(t, p))
		}
	}
	var chosen []int64
	switch algorithm := row["algorithm"]; algorithm {
	case "range_equally_divide":
		var p int64
		p, err = RangeEquallyDivide(target)
		chosen = []int64{p}
	case "topic_count_equally_divide":
		chosen, err = TopicCountEquallyDivide(hashes)
	case "specified_positions_divide", "specified_positions_divide_force":
		chosen, err = SpecifiedPositionsDivide(target, positions, len(topics), algorithm == "specified_positions_divide_force")
	case "flow_or_qps_equally_divide":
		args := row["flow_args"].([]interface{})
		limits := FlowLimits{MaxMsgRate: int32(mustInt(t, args[0])), MaxBandwidthMbytes: int32(mustInt(t, args[1])),
			ThresholdPercent: int32(mustInt(t, args[2]))}
		var loads []TopicLoad
		for i, s := range row["topic_stats"].([]interface{}) {
			if s == nil {
				continue
			}
			f := make([]float64, 4)
			for j, v := range s.([]interface{}) {
				f[j], _ = v.(json.Number).Float64()
			}
			loads = append(loads, TopicLoad{MsgRateIn: f[0], MsgRateOut: f[1], MsgThroughputIn: f[2], MsgThroughputOut: f[3], Hash: hashes[i]})
		}
		chosen, err = FlowOrQpsEquallyDivide(len(topics), loads, limits)
	default:
		t.Fatalf("unknown algorithm %v", algorithm)
	}
	what := fmt.Sprintf("%v %v", row["algorithm"], row["target_bundle"])
	if row["split_boundaries"] == nil && row["result"] != "no_split" {
		// The algorithm itself fails (an empty position list).
		if err == nil {
			t.Errorf("%s: %v, Java fails", what, chosen)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var want []int64
	if list, ok := row["split_boundaries"].([]interface{}); ok {
		for _, p := range list {
			want = append(want, mustInt(t, p))
		}
	}
	if fmt.Sprint(chosen) != fmt.Sprint(want) {
		t.Fatalf("%s: boundaries %v, Java %v", what, chosen, want)
	}
	if len(chosen) == 0 {
		return
	}
	after, err := l.Split(target, chosen)
	if row["error"] != nil {
		if err == nil {
			t.Errorf("%s: split, Java %v", what, row["error"])
			after.Close()
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer after.Close()
	b, _ := after.Boundaries()
	if hexBoundaries(b) != goldenStrings(row["boundaries_after"]) {
		t.Errorf("%s: after %s", what, hexBoundaries(b))
	}
	// The impact: exactly the topics of the split bundle move.
	probes := hashes
	for i := 0; len(probes) == 0 && i < 300; i++ {
		probes = append(probes, CRC32([]byte(fmt.Sprintf("persistent://t/ns/probe-%d", i))))
	}
	changes, err := l.Compare(after, probes)
	if err != nil || len(changes) != len(probes) {
		t.Fatalf("%s: compare %v", what, err)
	}
	for i, c := range changes {
		in, _ := target.Includes(probes[i])
		if c.Changed != in {
			t.Errorf("%s: hash %d changed %v, in the split bundle %v", what, probes[i], c.Changed, in)
		}
	}
	counts, unowned, err := after.CountPerBundle(probes)
	total := unowned
	for _, c := range counts {
		total += c
	}
	if err != nil || total != uint64(len(probes)) || unowned != 0 {
		t.Errorf("%s: counts %v, unowned %d, %v", what, counts, unowned, err)
	}
}

func TestBundleLayoutErrors(t *testing.T) {
	if _, err := NewBundleLayout([]uint32{0x40000000, 0}); !errors.Is(err, &Error{Status: StatusBoundariesNotSorted}) {
		t.Errorf("unsorted: %v", err)
	}
	if _, err := NewDefaultBundleLayout(0); !errors.Is(err, &Error{Status: StatusNoBundles}) {
		t.Errorf("no bundles: %v", err)
	}
	l, err := NewDefaultBundleLayout(4)
	if err != nil {
		t.Fatal(err)
	}
	full := BundleRange{Lower: 0, Upper: 0x40000000}
	if _, err := l.SplitEqually(full, 0); !errors.Is(err, &Error{Status: StatusZeroSplitParts}) {
		t.Errorf("zero parts: %v", err)
	}
	if _, err := l.Split(full, []int64{0x50000000}); !errors.Is(err, &Error{Status: StatusSplitBoundaryOutsideBundle}) {
		t.Errorf("outside: %v", err)
	}
	inGoroutines(t, 4, 100, func(g, i int) error {
		_, err := l.BundleForTopic(fmt.Sprintf("t-%d-%d", g, i), RulesV4)
		return err
	})
	l.Close()
	if _, err := l.Len(); !errors.Is(err, &Error{Status: StatusNullParameter}) {
		t.Errorf("closed layout: %v", err)
	}
}
