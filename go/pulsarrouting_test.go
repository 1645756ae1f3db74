package pulsarrouting

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The golden vectors were printed by the real Java client and broker, and
// by the real pulsar-client-go (the go_* fields): testdata/golden/README.md.
// goldenCache holds each golden file's rows: several tests read one file.
var goldenCache sync.Map

func goldenRows(t testing.TB, name string) []map[string]interface{} {
	t.Helper()
	if rows, ok := goldenCache.Load(name); ok {
		return rows.([]map[string]interface{})
	}
	rows := jsonlRows(t, filepath.Join("..", "testdata", "golden", name))
	goldenCache.Store(name, rows)
	return rows
}

// jsonlRows reads a gzipped JSON-lines file, numbers as json.Number.
func jsonlRows(t testing.TB, path string) []map[string]interface{} {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]interface{}
	scanner := bufio.NewScanner(z)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		row := map[string]interface{}{}
		decoder := json.NewDecoder(bytes.NewReader(scanner.Bytes()))
		decoder.UseNumber()
		if err := decoder.Decode(&row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", path)
	}
	return rows
}

// inGoroutines runs f(g, i) for i < iterations in each of n goroutines and
// waits; an error fails the test (t.Error: callable off the test's
// goroutine).
func inGoroutines(t *testing.T, n, iterations int, f func(g, i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < iterations; i++ {
				if err := f(g, i); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func num(t testing.TB, row map[string]interface{}, field string) int64 {
	t.Helper()
	n, ok := row[field].(json.Number)
	if !ok {
		t.Fatalf("row %v: %s is not a number", row, field)
	}
	v, err := n.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVersion(t *testing.T) {
	if Version() == "" {
		t.Fatal("empty version")
	}
}

func TestGoldenHashes(t *testing.T) {
	for _, row := range goldenRows(t, "hash.jsonl.gz") {
		key, err := hex.DecodeString(row["key_hex"].(string))
		if err != nil {
			t.Fatal(err)
		}
		murmur := uint32(num(t, row, "murmur3_32"))
		if got := Murmur3_32(key); got != murmur {
			t.Errorf("Murmur3_32(%x) = %d, Java %d", key, got, murmur)
		}
		if got := Murmur3_32String(string(key)); got != murmur {
			t.Errorf("Murmur3_32String(%x) = %d, Java %d", key, got, murmur)
		}
		// The benchmark's pure-Go baseline must be right too.
		if got := pureGoMurmur3_32(key) & 0x7fffffff; got != murmur {
			t.Errorf("pureGoMurmur3_32(%x) = %d, Java %d", key, got, murmur)
		}
		if got := CRC32(key); got != uint32(num(t, row, "crc32_bundle")) {
			t.Errorf("CRC32(%x) = %d, Java %d", key, got, num(t, row, "crc32_bundle"))
		}
		java, err := JavaStringHash(string(key))
		if row["utf8_valid"] == true {
			if err != nil || java != uint32(num(t, row, "java_string_hash")) {
				t.Errorf("JavaStringHash(%x) = %d, %v; Java %d", key, java, err, num(t, row, "java_string_hash"))
			}
		} else if !errors.Is(err, ErrInvalidUTF8) {
			t.Errorf("JavaStringHash(%x): %v, want ErrInvalidUTF8", key, err)
		}
	}
}

// A Go program routing with this package sends every keyed message where
// the Java client sends it, whatever the scheme; pulsar-client-go itself
// does only for Murmur3_32Hash (it hashes UTF-8 bytes unmasked for
// JavaStringHash, and round-robins the empty key), which ClientGo
// reproduces.
func TestGoldenRoutingLikeJava(t *testing.T) {
	rr := map[string]*RoundRobinRouter{}
	sp := map[string]*SinglePartitionRouter{}
	for _, name := range []string{"java_string", "murmur3_32"} {
		scheme, err := ParseHashingScheme(name)
		if err != nil || scheme.String() != name {
			t.Fatalf("ParseHashingScheme(%q) = %v, %v", name, scheme, err)
		}
		if rr[name], err = NewRoundRobinRouter(scheme, 0, true, 10); err != nil {
			t.Fatal(err)
		}
		defer rr[name].Close()
		if sp[name], err = NewSinglePartitionRouter(scheme, 0); err != nil {
			t.Fatal(err)
		}
		defer sp[name].Close()
	}
	keyed, goDiffers := 0, 0
	for _, row := range goldenRows(t, "routing.jsonl.gz") {
		if row["kind"] != "keyed" {
			continue
		}
		keyed++
		key := row["key"].(string)
		n := int(num(t, row, "num_partitions"))
		name := row["scheme"].(string)
		scheme, _ := ParseHashingScheme(name)
		java := int(num(t, row, "partition"))
		if got, err := PartitionForKey(key, n, scheme); err != nil || got != java {
			t.Errorf("PartitionForKey(%q, %d, %s) = %d, %v; Java %d", key, n, name, got, err, java)
		}
		if got, err := rr[name].ChoosePartition(StringKey(key), n, 1234); err != nil || got != java {
			t.Errorf("RoundRobinRouter(%q, %d, %s) = %d, %v; Java %d", key, n, name, got, err, java)
		}
		if got, err := sp[name].ChoosePartition(StringKey(key), n); err != nil || got != java {
			t.Errorf("SinglePartitionRouter(%q, %d, %s) = %d, %v; Java %d", key, n, name, got, err, java)
		}
		clientScheme := ClientSchemeJavaString
		if scheme == SchemeMurmur3_32 {
			clientScheme = ClientSchemeMurmur3_32
		}
		if got, ok, err := ClientPartition(ClientJava, clientScheme, StringKey(key), n); err != nil || !ok || got != java {
			t.Errorf("ClientPartition(Java, %q, %d, %s) = %d, %v, %v; Java %d", key, n, name, got, ok, err, java)
		}
		got, ok, err := ClientPartition(ClientGo, clientScheme, StringKey(key), n)
		if err != nil {
			t.Errorf("ClientPartition(Go, %q): %v", key, err)
			continue
		}
		if !ok && n == 1 && row["go_partition"] != nil && num(t, row, "go_partition") == 0 {
			// Keyless in Go too, but one partition leaves no choice.
			continue
		}
		if row["go_partition"] == nil {
			if ok {
				t.Errorf("ClientPartition(Go, %q, %d, %s) = %d; pulsar-client-go routes it as keyless", key, n, name, got)
			}
			continue
		}
		goPartition := int(num(t, row, "go_partition"))
		if !ok || got != goPartition {
			t.Errorf("ClientPartition(Go, %q, %d, %s) = %d, %v; pulsar-client-go %d", key, n, name, got, ok, goPartition)
		}
		if goPartition != java {
			goDiffers++
			if scheme == SchemeMurmur3_32 {
				t.Errorf("pulsar-client-go differs from Java under Murmur3_32Hash: %q", key)
			}
		}
	}
	if keyed < 1000 {
		t.Fatalf("only %d keyed rows", keyed)
	}
	t.Logf("%d keyed rows route as in Java; pulsar-client-go itself differs on %d", keyed, goDiffers)
}

// goldenRulesOf lists the rule sets a golden topic row holds for: its impl
// (both, v4 or master), and 4.2 where 4.2.4 prints the row again unchanged
// (the golden README's "Printing them again"): rows of both builds, and
// master rows outside the topic:// and segment:// domains 4.2.4 lacks.
func goldenRulesOf(row map[string]interface{}, input string) []string {
	domain, _, full := strings.Cut(input, "://")
	scalable := full && (strings.EqualFold(domain, "topic") || strings.EqualFold(domain, "segment"))
	switch {
	case row["impl"] == "both":
		return []string{"v4", "master", "4.2"}
	case row["impl"] == "master" && !scalable:
		return []string{"master", "4.2"}
	default:
		return []string{row["impl"].(string)}
	}
}

func TestGoldenTopicNames(t *testing.T) {
	checked := 0
	for _, row := range goldenRows(t, "topics.jsonl.gz") {
		if row["kind"] != "parse" {
			continue
		}
		input := row["input"].(string)
		for _, impl := range goldenRulesOf(row, input) {
			rules := map[string]TopicNameRules{"v4": RulesV4, "master": RulesMaster, "4.2": RulesPulsar42}[impl]
			topic, err := ParseTopicName(input, rules)
			if row["ok"] != true {
				var e *Error
				if !errors.As(err, &e) || e.Message != row["error_message"] {
					t.Errorf("%s %q: error %v, Java %q", impl, input, err, row["error_message"])
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %q: %v", impl, input, err)
				continue
			}
			checked++
			for field, got := range map[string]string{
				"to_string":              topic.String(),
				"namespace":              topic.Namespace(),
				"local_name":             topic.LocalName(),
				"tenant":                 topic.Tenant(),
				"partitioned_topic_name": topic.PartitionedTopicName(),
				"lookup_name":            topic.LookupName(),
				"persistence_naming":     topic.PersistenceNamingEncoding(),
				"rest_path":              topic.RestPath(),
				"encoded_local_name":     topic.EncodedLocalName(),
			} {
				if got != row[field] {
					t.Errorf("%s %q: %s = %q, Java %q", impl, input, field, got, row[field])
				}
			}
			if topic.PartitionIndex() != int(num(t, row, "partition_index")) || topic.Persistent() != row["persistent"] {
				t.Errorf("%s %q: partition index %d, persistent %v", impl, input, topic.PartitionIndex(), topic.Persistent())
			}
			if topic.CRC32() != CRC32([]byte(topic.String())) {
				t.Errorf("%s %q: CRC32 is not that of the canonical name", impl, input)
			}
			if want, ok := row["partition_3"].(string); ok {
				p, err := topic.Partition(3)
				if err != nil || p.String() != want {
					t.Errorf("%s %q: Partition(3) = %v, %v; Java %q", impl, input, p, err, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no topic name checked")
	}
}

func TestBundles(t *testing.T) {
	for _, row := range goldenRows(t, "bundles.jsonl.gz") {
		if row["kind"] != "default_bundles" || row["names"] == nil {
			continue
		}
		names := row["names"].([]interface{})
		n := uint32(num(t, row, "num_bundles"))
		// The bundle of the hash at each bundle's lower bound is that bundle;
		// a topic's bundle is the one of its canonical name's CRC.
		topic, _ := ParseTopicName("persistent://t/ns/x", RulesV4)
		b, err := BundleForTopic(n, topic.String(), RulesV4)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, name := range names {
			found = found || name == b.String()
		}
		if !found || uint32(b.Lower) > topic.CRC32() || (topic.CRC32() >= uint32(b.Upper) && b.Upper != 1<<32-1) {
			t.Errorf("%d bundles: %s (%v) does not hold %#x", n, b, names, topic.CRC32())
		}
	}
	if _, err := BundleForTopic(0, "x", RulesV4); !errors.Is(err, &Error{Status: StatusNoBundles}) {
		t.Errorf("0 bundles: %v", err)
	}
}

func TestErrors(t *testing.T) {
	if _, err := PartitionForKey("k", 0, SchemeJavaString); !errors.Is(err, ErrPartitionCountZero) {
		t.Errorf("0 partitions: %v", err)
	}
	if _, err := PartitionForKey("k", -3, SchemeJavaString); !errors.Is(err, ErrPartitionCountNegative) {
		t.Errorf("-3 partitions: %v", err)
	}
	if _, err := PartitionForKey("k", 1<<31, SchemeJavaString); !errors.Is(err, ErrPartitionCountTooLarge) {
		t.Errorf("2^31 partitions: %v", err)
	}
	if _, err := PartitionForKey("k", 3, HashingScheme(99)); !errors.Is(err, ErrUnknownHashingScheme) {
		t.Errorf("scheme 99: %v", err)
	}
	if _, err := SignSafeMod(1, 0); !errors.Is(err, ErrDivisionByZero) || err.Error() != "pulsar_routing: / by zero" {
		t.Errorf("SignSafeMod(1, 0): %v", err)
	}
	if v, err := SignSafeMod(-7, 3); err != nil || v != 2 {
		t.Errorf("SignSafeMod(-7, 3) = %d, %v", v, err)
	}
	if _, err := ParseHashingScheme("nope"); !errors.Is(err, ErrUnknownHashingScheme) {
		t.Errorf("ParseHashingScheme: %v", err)
	}
	if _, _, err := ClientPartition(ClientProfile(42), ClientSchemeJavaString, StringKey("k"), 3); !errors.Is(err, &Error{Status: StatusUnknownClientProfile}) {
		t.Errorf("client 42: %v", err)
	}
}

func TestKeysAndRouters(t *testing.T) {
	// keyBytes routes by the Base64 text: {1, 2} is "AQI=".
	byBytes, err := PartitionForKeyBytes([]byte{1, 2}, 7, SchemeMurmur3_32)
	byText, _ := PartitionForKey("AQI=", 7, SchemeMurmur3_32)
	if err != nil || byBytes != byText {
		t.Errorf("PartitionForKeyBytes = %d, %v; want %d", byBytes, err, byText)
	}
	r, err := NewRoundRobinRouter(SchemeMurmur3_32, 3, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := r.ChoosePartition(BytesKey([]byte{1, 2}), 7, 0); p != byText {
		t.Errorf("BytesKey routes to %d, want %d", p, byText)
	}
	// Keyless without batching: one step per message from the start index.
	for i := 0; i < 8; i++ {
		if p, err := r.ChoosePartition(NoKey(), 4, 0); err != nil || p != (3+i)%4 {
			t.Errorf("keyless %d: %d, %v", i, p, err)
		}
	}
	r.Close()
	r.Close()
	if _, err := r.ChoosePartition(NoKey(), 4, 0); err == nil {
		t.Error("a closed router still routes")
	}
	s, err := NewSinglePartitionRouter(SchemeJavaString, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p, _ := s.ChoosePartition(NoKey(), 8); p != 5 {
		t.Errorf("single partition keyless: %d", p)
	}
	if _, err := NewRoundRobinRouter(HashingScheme(7), 0, false, 0); !errors.Is(err, ErrUnknownHashingScheme) {
		t.Errorf("NewRoundRobinRouter(7): %v", err)
	}
}

// One router shared by goroutines: the keyless counter hands out every
// value exactly once, so the per-partition counts are exact.
func TestRouterSharedByGoroutines(t *testing.T) {
	r, err := NewRoundRobinRouter(SchemeJavaString, 0, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const goroutines, calls, partitions = 8, 5000, 7
	counts := make([][partitions]int, goroutines)
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				p, err := r.ChoosePartition(NoKey(), partitions, 0)
				if err != nil {
					t.Error(err)
					return
				}
				counts[g][p]++
			}
		}(g)
	}
	wg.Wait()
	total := goroutines * calls
	for p := 0; p < partitions; p++ {
		sum := 0
		for g := range counts {
			sum += counts[g][p]
		}
		want := total / partitions
		if p < total%partitions {
			want++
		}
		if sum != want {
			t.Errorf("partition %d: %d messages, want %d", p, sum, want)
		}
	}
}
