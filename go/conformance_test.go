package pulsarrouting

// The Go runner of the conformance scenarios (testdata/conformance/README.md):
// every scenario of ../testdata/conformance/*.jsonl, or of the files
// CONFORMANCE_FILES names (separated by spaces), runs through this
// package's API; the last line is "conformance go: N/M scenarios agree".
// The runner only maps the scenarios' neutral names and values to the Go
// API; every answer comes from the library.
//
// Like the C runner, it compares an error's message exactly, except where
// the C ABI has only the static text of the status
// (pulsar_routing_status_message, which cannot quote values): a step whose
// kind agrees and whose message is that static text counts as "not
// reachable from Go"; the last line gives their number and
// CONFORMANCE_VERBOSE=1 lists them.

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type conformanceScenario struct {
	Name  string                   `json:"name"`
	Steps []map[string]interface{} `json:"steps"`
}

func conformanceFiles(t *testing.T) []string {
	if env := strings.TrimSpace(os.Getenv("CONFORMANCE_FILES")); env != "" {
		return strings.Fields(env)
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// statusKinds maps each status to its scenario kind: the C name without
// PULSAR_ROUTING_STATUS_, lowercased, read from the installed header's
// source in the repository.
func statusKinds(t *testing.T) map[Status]string {
	text, err := os.ReadFile(filepath.Join("..", "include", "pulsar_routing.h"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[Status]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*PULSAR_ROUTING_STATUS_([A-Z0-9_]+) = ([0-9]+)`).FindAllStringSubmatch(string(text), -1) {
		code, _ := strconv.Atoi(m[2])
		kinds[Status(code)] = strings.ToLower(m[1])
	}
	return kinds
}

func TestConformance(t *testing.T) {
	files := conformanceFiles(t)
	if len(files) == 0 {
		t.Skip("no conformance scenarios (testdata/conformance/*.jsonl)")
	}
	kinds := statusKinds(t)
	total, agree, unreachable := 0, 0, 0
	verbose := os.Getenv("CONFORMANCE_VERBOSE") == "1"
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var s conformanceScenario
			d := json.NewDecoder(bytes.NewReader(line))
			d.UseNumber()
			if err := d.Decode(&s); err != nil {
				t.Errorf("%s: %v", file, err)
				total++
				continue
			}
			total++
			r := &conformanceRun{objects: map[string]interface{}{}, kinds: kinds}
			ok := true
			for i, step := range s.Steps {
				err := r.step(step)
				if static, isStatic := err.(staticMessage); isStatic {
					unreachable++
					if verbose {
						fmt.Printf("NOT REACHABLE FROM GO %s step %d: %v\n", s.Name, i, static)
					}
					continue
				}
				if err != nil {
					fmt.Printf("FAIL %s step %d: %v\n", s.Name, i, err)
					ok = false
					break
				}
			}
			r.close()
			if ok {
				agree++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if unreachable > 0 {
		fmt.Printf("conformance go: %d/%d scenarios agree (%d steps' messages not reachable from Go)\n", agree, total, unreachable)
	} else {
		fmt.Printf("conformance go: %d/%d scenarios agree\n", agree, total)
	}
	if agree != total {
		t.Errorf("%d of %d scenarios disagree", total-agree, total)
	}
}

type conformanceRun struct {
	objects map[string]interface{}
	kinds   map[Status]string
}

func (r *conformanceRun) close() {
	for _, o := range r.objects {
		if c, ok := o.(interface{ Close() }); ok {
			c.Close()
		}
	}
}

// step runs one step and compares its outcome.
func (r *conformanceRun) step(step map[string]interface{}) error {
	args, _ := step["args"].(map[string]interface{})
	if args == nil {
		args = map[string]interface{}{}
	}
	a := cargs(args)
	var got interface{}
	var err error
	if typ, ok := step["new"].(string); ok {
		var obj interface{}
		obj, got, err = r.construct(typ, a)
		if err == nil {
			name, _ := step["as"].(string)
			if old, ok := r.objects[name].(interface{ Close() }); ok {
				old.Close()
			}
			r.objects[name] = obj
		}
	} else {
		call, _ := step["call"].(string)
		if on, ok := step["on"].(string); ok {
			obj, found := r.objects[on]
			if !found {
				return fmt.Errorf("no object %q", on)
			}
			got, err = r.method(call, obj, a)
		} else {
			got, err = r.function(call, a)
		}
	}
	if unknown, ok := err.(errUnknown); ok {
		return unknown
	}
	if want, ok := step["error"].(map[string]interface{}); ok {
		var e *Error
		if !errors.As(err, &e) {
			return fmt.Errorf("got %v (%v), want error %v", got, err, want)
		}
		if kind := r.kinds[e.Status]; kind != want["kind"] {
			return fmt.Errorf("error kind %q (%s), want %v", kind, e.Message, want["kind"])
		}
		if msg, ok := want["message"].(string); ok && msg != e.Message {
			if e.Message == e.Status.Message() {
				return staticMessage(fmt.Sprintf("message %q, want %q", e.Message, msg))
			}
			return fmt.Errorf("error message %q, want %q", e.Message, msg)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("error %v", err)
	}
	if want, ok := step["expect"]; ok {
		if why := compare(got, want); why != "" {
			return fmt.Errorf("got %v, want %v: %s", render(got), render(want), why)
		}
	}
	return nil
}

// staticMessage: the kind agrees, and the C ABI gives only the static
// text of the status where the scenario expects a detailed message.
type staticMessage string

func (e staticMessage) Error() string { return string(e) }

type errUnknown string

func (e errUnknown) Error() string { return "unknown operation or value: " + string(e) }

// cargs reads a step's arguments.
type cargs map[string]interface{}

func (a cargs) has(name string) bool { v, ok := a[name]; return ok && v != nil }

func (a cargs) int(name string, def int64) int64 {
	v, ok := a[name]
	if !ok || v == nil {
		return def
	}
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			return int64(u)
		}
	case string:
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(n, 10, 64); err == nil {
			return int64(u)
		}
	}
	panic(errUnknown(fmt.Sprintf("%s: not an integer: %v", name, v)))
}

func (a cargs) u64(name string, def uint64) uint64 { return uint64(a.int(name, int64(def))) }

func (a cargs) bool(name string, def bool) bool {
	if b, ok := a[name].(bool); ok {
		return b
	}
	return def
}

func (a cargs) str(name, def string) string {
	if s, ok := a[name].(string); ok {
		return s
	}
	return def
}

func (a cargs) float(name string, def float64) float64 {
	if n, ok := a[name].(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return def
}

// bytesOf is text's UTF-8 or {"hex": ...}'s bytes; nil for null.
func bytesOf(v interface{}) []byte {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return []byte(x)
	case map[string]interface{}:
		if h, ok := x["hex"].(string); ok {
			b, err := hex.DecodeString(h)
			if err == nil {
				if b == nil {
					b = []byte{}
				}
				return b
			}
		}
	}
	panic(errUnknown(fmt.Sprintf("not bytes: %v", v)))
}

func (a cargs) bytes(name string) []byte { return bytesOf(a[name]) }

// keyOf is a message key: text, {"hex"} bytes, or null for none.
func keyOf(v interface{}) Key {
	switch x := v.(type) {
	case nil:
		return NoKey()
	case string:
		return StringKey(x)
	}
	return BytesKey(bytesOf(v))
}

func (a cargs) ints(name string) []int64 {
	list, _ := a[name].([]interface{})
	out := make([]int64, len(list))
	for i, v := range list {
		out[i] = cargs{"v": v}.int("v", 0)
	}
	return out
}

func (a cargs) words(name string) []uint32 {
	if !a.has(name) {
		return nil
	}
	out := []uint32{}
	for _, v := range a.ints(name) {
		out = append(out, uint32(v))
	}
	return out
}

func (a cargs) strs(name string) []string {
	list, _ := a[name].([]interface{})
	out := make([]string, len(list))
	for i, v := range list {
		out[i], _ = v.(string)
	}
	return out
}

func (a cargs) ranges(name string) []HashRange {
	list, ok := a[name].([]interface{})
	if !ok {
		return nil
	}
	out := []HashRange{}
	for _, v := range list {
		p := v.([]interface{})
		out = append(out, HashRange{Start: int32(cargs{"v": p[0]}.int("v", 0)), End: int32(cargs{"v": p[1]}.int("v", 0))})
	}
	return out
}

func (a cargs) rules() TopicNameRules {
	return choose(a, "rules", "4.2", map[string]TopicNameRules{"4.2": RulesPulsar42, "v4": RulesV4, "master": RulesMaster})
}

// choose maps an argument's name to its value.
func choose[T any](a cargs, name, def string, values map[string]T) T {
	v, ok := values[a.str(name, def)]
	if !ok {
		panic(errUnknown(name + " " + a.str(name, def)))
	}
	return v
}

func (a cargs) scheme() HashingScheme {
	s, err := ParseHashingScheme(a.str("scheme", "java_string"))
	if err != nil {
		panic(err)
	}
	return s
}

// profileConfig is a client's defaults with the scenario's options.
func (a cargs) profileConfig() (ClientProfile, ProfileConfig, error) {
	client, err := ParseClientProfile(a.str("profile", "java"))
	if err != nil {
		return 0, ProfileConfig{}, err
	}
	config, err := DefaultProfileConfig(client)
	if err != nil {
		return 0, config, err
	}
	if a.has("scheme") {
		if config.Scheme, err = ParseClientHashingScheme(a.str("scheme", "")); err != nil {
			return 0, config, err
		}
	}
	if a.bool("boost_1_74_x86_64", false) && config.Scheme == ClientSchemeBoost {
		config.Scheme = ClientSchemeBoost1_74X86_64
	}
	config.Mode = choose(a, "mode", "default", map[string]ProfileMode{"default": ProfileModeDefault,
		"round_robin": ProfileModeRoundRobin, "single_partition": ProfileModeSinglePartition})
	config.CharUnsigned = a.bool("unsigned_char", config.CharUnsigned)
	config.BatchingEnabled = a.bool("batching", config.BatchingEnabled)
	return client, config, nil
}

// construct builds an object; got is what a new's expect reads.
func (r *conformanceRun) construct(typ string, a cargs) (obj, got interface{}, err error) {
	defer recoverUnknown(&err)
	switch typ {
	case "RoundRobinRouter":
		obj, err = NewRoundRobinRouter(a.scheme(), int32(a.int("start_partition_index", 0)), a.bool("batching", true),
			a.int("partition_switch_ms", 10))
	case "SinglePartitionRouter":
		obj, err = NewSinglePartitionRouter(a.scheme(), int32(a.int("partition_index", 0)))
	case "CustomRouter":
		returns := int(a.int("returns", 0))
		obj, err = NewCustomRouter(func(Key, int) int { return returns })
	case "ProfileRouter":
		client, config, cerr := a.profileConfig()
		if cerr != nil {
			return nil, nil, cerr
		}
		obj, err = NewProfileRouter(client, config, uint32(a.int("start", 0)), a.int("created_ns", 0))
	case "KafkaBuiltInPartitioner":
		obj, err = NewKafkaBuiltInPartitioner(int32(a.int("sticky_batch_size", 0)))
	case "KafkaJavaClientPartitioner":
		obj, err = NewKafkaJavaClientPartitioner(int32(a.int("batch_size", 16384)), a.bool("ignore_keys", false))
	case "LibrdkafkaProducer":
		p, perr := ParseLibrdkafkaPartitioner(a.str("partitioner", "consistent_random"))
		if perr != nil {
			return nil, nil, perr
		}
		obj, err = NewLibrdkafkaProducer(p, a.int("sticky_linger_ms", 10))
	case "TopicName":
		tn, terr := ParseTopicName(a.str("name", ""), a.rules())
		if terr != nil {
			return nil, nil, terr
		}
		cluster := interface{}(nil)
		if c := tn.Cluster(); c != "" {
			cluster = c
		}
		return tn, map[string]interface{}{
			"str": tn.String(), "domain": tn.Domain(), "tenant": tn.Tenant(), "cluster": cluster,
			"namespace_portion": tn.NamespacePortion(), "namespace": tn.Namespace(),
			"local_name": tn.LocalName(), "partition_index": tn.PartitionIndex(),
			"partitioned_topic_name": tn.PartitionedTopicName(), "lookup_name": tn.LookupName(),
			"persistence_naming": tn.PersistenceNamingEncoding(), "rest_path": tn.RestPath(),
			"encoded_local_name": tn.EncodedLocalName(), "crc32": tn.CRC32(),
		}, nil
	case "NamespaceBundles":
		if a.has("boundaries") {
			obj, err = NewBundleLayout(a.words("boundaries"))
		} else {
			obj, err = NewDefaultBundleLayout(uint32(a.int("num_bundles", 4)))
		}
	case "AutoSplitSelector":
		obj, err = NewAutoSplitSelector(int32(a.int("range_size", DefaultRangeSize)))
	case "ConsistentHashingSelector":
		obj, err = NewConsistentHashingSelector(uint32(a.int("points", DefaultConsistentHashingPoints)),
			uint32(a.int("range_max", ConsistentHashingRangeMax)))
	case "ExclusiveSelector":
		obj, err = NewExclusiveSelector(a.bool("legacy", false))
	case "TopicLookup":
		o := DefaultLookupOptions()
		o.UseTLS = a.bool("use_tls", o.UseTLS)
		o.MaxRedirects = uint32(a.int("max_redirects", int64(o.MaxRedirects)))
		o.Profile = choose(a, "profile", "java", map[string]LookupProfile{"java": LookupProfileJava, "go": LookupProfileGo})
		o.OperationTimeoutMs = a.u64("operation_timeout_ms", o.OperationTimeoutMs)
		o.LookupTimeoutMs = a.u64("lookup_timeout_ms", o.LookupTimeoutMs)
		o.Retry = a.bool("retry", o.Retry)
		o.DetectRedirectLoops = a.bool("detect_redirect_loops", o.DetectRedirectLoops)
		o.JitterSeed = a.u64("jitter_seed", o.JitterSeed)
		obj, err = NewTopicLookup(a.str("service_address", ""), o, 64)
	case "PartitionedMetadataLookup":
		o := DefaultMetadataOptions()
		o.OperationTimeoutMs = a.u64("operation_timeout_ms", o.OperationTimeoutMs)
		o.LookupTimeoutMs = a.u64("lookup_timeout_ms", o.LookupTimeoutMs)
		o.MetadataAutoCreation = a.bool("metadata_auto_creation", o.MetadataAutoCreation)
		o.UseFallbackForNonPIP344 = a.bool("use_fallback_for_non_pip344", o.UseFallbackForNonPIP344)
		o.JitterSeed = a.u64("jitter_seed", o.JitterSeed)
		obj, err = NewPartitionedMetadataLookup(a.str("service_address", ""), o)
	case "LookupCoalescer":
		obj, err = NewCoalescer(int(a.int("capacity", 1024)))
	case "MetadataCoalescer":
		obj, err = NewMetadataCoalescer(int(a.int("capacity", 1024)))
	case "LookupThrottle":
		obj, err = NewLookupThrottle(uint32(a.int("concurrent_lookup_requests", 5000)), uint32(a.int("max_lookup_requests", 50000)))
	case "SenderConfig", "SenderGate":
		c := DefaultSenderConfig()
		c.MaxInFlight = a.int("max_in_flight", c.MaxInFlight)
		c.EnableIdempotence = a.bool("enable_idempotence", c.EnableIdempotence)
		c.ReconnectBackoffMs = a.u64("reconnect_backoff_ms", c.ReconnectBackoffMs)
		c.ReconnectBackoffMaxMs = a.u64("reconnect_backoff_max_ms", c.ReconnectBackoffMaxMs)
		c.MetadataMaxAgeMs = a.u64("metadata_max_age_ms", c.MetadataMaxAgeMs)
		var nodes []int32
		for _, n := range a.ints("nodes") {
			nodes = append(nodes, int32(n))
		}
		// A config is checked where the gate is built.
		obj, err = NewSenderGate(c, nodes)
	case "PendingQueue":
		obj, err = NewPendingQueue(a.int("max_pending_messages", 0), a.bool("block_if_queue_full", false))
	case "KeyCounts":
		obj, err = NewKeyCounts()
	default:
		panic(errUnknown("type " + typ))
	}
	return obj, nil, err
}

func recoverUnknown(err *error) {
	if p := recover(); p != nil {
		switch e := p.(type) {
		case errUnknown:
			*err = e
		case error:
			*err = e
		default:
			*err = errUnknown(fmt.Sprint(p))
		}
	}
}

func optional(partition int, keyed bool) interface{} {
	if !keyed {
		return nil
	}
	return partition
}

func bundleNames(l *BundleLayout, from, count int) ([]interface{}, error) {
	out := []interface{}{}
	for i := from; i < from+count; i++ {
		b, err := l.Bundle(i)
		if err != nil {
			return nil, err
		}
		out = append(out, b.String())
	}
	return out, nil
}

// function runs a free function.
func (r *conformanceRun) function(name string, a cargs) (got interface{}, err error) {
	defer recoverUnknown(&err)
	switch name {
	case "murmur3_32":
		return Murmur3_32(a.bytes("data")), nil
	case "murmur3_32_raw":
		return Murmur3_32Raw(a.bytes("data")), nil
	case "crc32":
		return CRC32(a.bytes("data")), nil
	case "java_string_hash":
		return JavaStringHash(a.str("s", ""))
	case "java_string_hashcode":
		return JavaStringHashcode(a.str("s", ""))
	case "java_string_hash_bytes":
		return JavaStringHashBytes(a.bytes("data")), nil
	case "sign_safe_mod":
		return SignSafeMod(a.int("dividend", 0), int32(a.int("divisor", 0)))
	case "kafka_murmur2":
		return KafkaMurmur2(a.bytes("data")), nil
	case "kafka_to_positive":
		return KafkaToPositive(uint32(a.int("hash", 0))), nil
	case "kafka_fnv1a":
		return KafkaFNV1a(a.bytes("data")), nil
	case "partition_for_key":
		return PartitionForKey(a.str("key", ""), int(a.int("num_partitions", 0)), a.scheme())
	case "partition_for_key_bytes":
		return PartitionForKeyBytes(a.bytes("key"), int(a.int("num_partitions", 0)), a.scheme())
	case "partitions_for_keys":
		var keys []string
		for _, k := range a["keys"].([]interface{}) {
			keys = append(keys, k.(string))
		}
		ps, err := PartitionsForKeys(keys, int(a.int("num_partitions", 0)), a.scheme())
		out := []interface{}{}
		for _, p := range ps {
			out = append(out, int(p))
		}
		return out, err
	case "check_partition":
		return CheckPartition(a.int("partition", 0), a.int("num_partitions", 0))
	case "resolve_routing_mode":
		mode := choose(a, "mode", "RoundRobinPartition", map[string]MessageRoutingMode{"RoundRobinPartition": RoundRobinPartition,
			"SinglePartition": SinglePartition, "CustomPartition": CustomPartition})
		m, err := ResolveRoutingMode(a.has("mode"), mode, a.bool("custom_router_set", false))
		if err != nil {
			return nil, err
		}
		return m.String(), nil
	case "partition_switch_ms":
		return PartitionSwitchMs(int32(a.int("frequency", 10)), a.int("max_publish_delay_us", 1000))
	case "profile_partition":
		client, config, err := a.profileConfig()
		if err != nil {
			return nil, err
		}
		p, keyed, err := ProfileKeyingPartition(client, config, keyOf(a["key"]), nil, int(a.int("num_partitions", 0)))
		return optional(p, keyed), err
	case "profile_partitions":
		client, config, err := a.profileConfig()
		if err != nil {
			return nil, err
		}
		out := []interface{}{}
		for _, k := range a["keys"].([]interface{}) {
			p, keyed, err := ProfileKeyingPartition(client, config, keyOf(k), nil, int(a.int("num_partitions", 0)))
			if err != nil {
				return nil, err
			}
			if !keyed {
				p = -1
			}
			out = append(out, p)
		}
		return out, nil
	case "profile_key_hash":
		h, err := ParseProfileHash(a.str("hash", ""))
		if err != nil {
			return nil, err
		}
		return h.Sum(a.bytes("data"))
	case "go_partition_index":
		return GoPartitionIndex(a.str("topic", ""))
	case "cpp_partition_index":
		return CppPartitionIndex(a.str("local_name", ""))
	case "cpp_partitioned_producer_check":
		return CppPartitionedProducerCheck(int32(a.int("partition", 0)), a.int("num_partitions", 0))
	case "kafka_partition":
		key := a.bytes("key")
		n := int(a.int("num_partitions", 0))
		if a.str("partitioner", "java") == "java" {
			if key == nil {
				// A keyless record sticks: no keyed partition.
				if err := ValidatePartitionCount(int64(n)); err != nil {
					return nil, err
				}
				return nil, nil
			}
			return KafkaPartitionForKey(key, n)
		}
		p, err := ParseLibrdkafkaPartitioner(a.str("partitioner", ""))
		if err != nil {
			return nil, err
		}
		got, err := p.PartitionForKey(key, n)
		if errors.Is(err, &Error{Status: StatusLibrdkafkaRandomPartition}) {
			return nil, nil
		}
		return got, err
	case "librdkafka_partition":
		p, err := ParseLibrdkafkaPartitioner(a.str("partitioner", ""))
		if err != nil {
			return nil, err
		}
		n := int(a.int("num_partitions", 0))
		random := uint32(a.int("random", 0))
		if a.has("second_random") || a.has("available") {
			return p.PartitionWithAvailability(a.bytes("key"), n, random, uint32(a.int("second_random", int64(random))), a.words("available"))
		}
		return p.Partition(a.bytes("key"), n, random)
	case "get_partition_index":
		return GetPartitionIndex(a.str("topic", ""))
	case "topic_bundle":
		b, err := BundleForTopic(uint32(a.int("num_bundles", 4)), a.str("topic", ""), a.rules())
		return b.String(), err
	case "default_boundaries":
		b, err := DefaultBoundaries(uint32(a.int("num_bundles", 0)))
		return b, err
	case "parse_boundary":
		return ParseBoundary(a.str("text", ""))
	case "BundleRange.parse":
		b, err := ParseBundleRange(a.str("text", ""))
		return b.String(), err
	case "validate_full_range":
		return nil, ValidateFullRange(a.strs("boundaries"))
	case "sticky_key_hash":
		kind, err := ParseSelectorKind(a.str("selector", ""))
		if err != nil {
			return nil, err
		}
		return StickyKeyHash(a.bytes("key"), kind)
	case "sticky_key":
		m := MessageKeys{OrderingKey: a.bytes("ordering_key"), PartitionKey: a.bytes("partition_key"),
			PartitionKeyB64Encoded: a.bool("partition_key_b64_encoded", false), ProducerName: a.bytes("producer_name"),
			SequenceID: a.u64("sequence_id", 0), HasSequenceID: a.has("sequence_id")}
		return m.StickyKey()
	case "validate_sticky_ranges":
		return nil, ValidateStickyRanges(a.ranges("ranges"))
	case "ring_point":
		return RingPoint(a.bytes("name"), uint32(a.int("name_index", 0)), uint32(a.int("i", 0)),
			HashRange{Start: 1, End: int32(a.int("range_max", ConsistentHashingRangeMax))})
	case "producer_start_topics":
		out := []interface{}{}
		n := uint32(a.int("partitions", 0))
		for i := uint32(0); i < n || (n == 0 && i == 0); i++ {
			name, err := ProducerStartTopic(a.str("topic", ""), n, i)
			if err != nil {
				return nil, err
			}
			out = append(out, name)
		}
		return out, nil
	case "required_max_pending_messages":
		return RequiredMaxPendingMessages(a.u64("peak_rate_per_sec", 0), a.u64("reconnect_window_ms", 0)), nil
	}
	panic(errUnknown("function " + name))
}

func impactResult(i Impact, err error) (interface{}, error) {
	if err != nil {
		return nil, err
	}
	side := func(as []Assignment) map[string]interface{} {
		out := map[string]interface{}{}
		for _, x := range as {
			k := strconv.FormatUint(x.Consumer, 10)
			list, _ := out[k].([]interface{})
			out[k] = append(list, []interface{}{x.Start, x.End})
		}
		return out
	}
	return map[string]interface{}{"removed": side(i.Removed), "added": side(i.Added)}, nil
}

func selectedResult(c uint64, ok bool, err error) (interface{}, error) {
	if err != nil || !ok {
		return nil, err
	}
	return c, nil
}

var readinessReasons = map[ReadinessReason]string{
	ReadinessReady: "ready", ReadinessInitiateConnect: "initiate_connect", ReadinessReconnectBackoff: "reconnect_backoff",
	ReadinessConnecting: "connecting", ReadinessThrottled: "throttled", ReadinessInFlightFull: "in_flight_full",
	ReadinessMetadataDue: "metadata_due", ReadinessUnknownNode: "unknown_node",
}

var connectionStates = map[ConnectionState]string{
	NotConnected: "NOT_CONNECTED", Connecting: "CONNECTING", Authenticating: "AUTHENTICATING", Ready: "READY",
}

func readinessResult(rd Readiness, err error) (interface{}, error) {
	if err != nil {
		return nil, err
	}
	return map[string]interface{}{
		"node": rd.Node, "reason": readinessReasons[rd.Reason], "is_ready": rd.IsReady(),
		"state": connectionStates[rd.State], "in_flight": rd.InFlight, "max_in_flight": rd.MaxInFlight,
		"backoff_remaining_ms": rd.BackoffRemainingMs,
	}, nil
}

var actionKinds = map[LookupActionKind]string{
	ActionSendLookup: "send_lookup", ActionConnect: "connect", ActionSendPartitionedMetadata: "send_partitioned_metadata",
	ActionRetryAt: "retry_at", ActionDone: "done", ActionFailed: "failed", ActionIgnored: "ignored",
}

// errorKinds: an action's error kind is its status's name past "lookup_".
func (r *conformanceRun) actionError(err error) (kind, text interface{}) {
	var e *Error
	if !errors.As(err, &e) {
		return nil, nil
	}
	k := strings.TrimPrefix(r.kinds[e.Status], "lookup_")
	if k == "unknown_server_error" {
		k = "server_error"
	}
	return k, e.Message
}

func (r *conformanceRun) lookupResult(act LookupAction, err error) (interface{}, error) {
	if err != nil {
		return nil, err
	}
	kind, text := r.actionError(act.Err)
	return map[string]interface{}{
		"kind": actionKinds[act.Kind], "logical_address": act.LogicalAddress, "physical_address": act.PhysicalAddress,
		"authoritative": act.Authoritative, "use_proxy": act.UseProxy, "redirects": act.Redirects,
		"attempt": act.Attempt, "at_ms": act.AtMs, "delay_ms": act.DelayMs, "error_kind": kind, "error": text,
		"reason": act.Reason,
	}, nil
}

func (r *conformanceRun) metadataResult(act MetadataAction, err error) (interface{}, error) {
	if err != nil {
		return nil, err
	}
	kind, text := r.actionError(act.Err)
	return map[string]interface{}{
		"kind": actionKinds[act.Kind], "physical_address": act.PhysicalAddress, "partitions": act.Partitions,
		"attempt": act.Attempt, "at_ms": act.AtMs, "delay_ms": act.DelayMs, "error_kind": kind, "error": text,
		"reason": act.Reason,
	}, nil
}

var serverErrors = map[string]ServerError{
	"UnknownError": ServerErrorUnknown, "AuthorizationError": ServerErrorAuthorization,
	"ServiceNotReady": ServerErrorServiceNotReady, "TopicNotFound": ServerErrorTopicNotFound,
	"TooManyRequests": ServerErrorTooManyRequests, "InvalidTopicName": ServerErrorInvalidTopicName,
}

func (a cargs) serverError() (bool, ServerError) {
	if !a.has("error") {
		return false, 0
	}
	return true, choose(a, "error", "", serverErrors)
}

func splitResult(l, after *BundleLayout, target BundleRange, count int) (interface{}, error) {
	if after == nil {
		after = l
	} else {
		defer after.Close()
	}
	b, err := after.Boundaries()
	if err != nil {
		return nil, err
	}
	bs := []interface{}{}
	for _, x := range b {
		bs = append(bs, x)
	}
	news := []interface{}{}
	if count > 0 {
		i, err := l.ValidateBundle(target)
		if err != nil {
			return nil, err
		}
		if news, err = bundleNames(after, i, count); err != nil {
			return nil, err
		}
	}
	return map[string]interface{}{"boundaries": bs, "new_bundles": news}, nil
}

func (r *conformanceRun) split(l *BundleLayout, a cargs) (interface{}, error) {
	target, err := ParseBundleRange(a.str("bundle", ""))
	if err != nil {
		return nil, err
	}
	var hashes []uint32
	for _, topic := range a.strs("topics") {
		tn, err := ParseTopicName(topic, a.rules())
		if err != nil {
			return nil, err
		}
		hashes = append(hashes, tn.CRC32())
	}
	var chosen []int64
	switch algorithm := a.str("algorithm", "range_equally_divide"); algorithm {
	case "range_equally_divide":
		p, err := RangeEquallyDivide(target)
		if err != nil {
			return nil, err
		}
		chosen = []int64{p}
	case "topic_count_equally_divide":
		chosen, err = TopicCountEquallyDivide(hashes)
	case "specified_positions_divide", "specified_positions_divide_force":
		chosen, err = SpecifiedPositionsDivide(target, a.ints("positions"), len(hashes), algorithm == "specified_positions_divide_force")
	case "flow_or_qps_equally_divide":
		var loads []TopicLoad
		stats, _ := a["topic_stats"].([]interface{})
		for i, s := range stats {
			if s == nil {
				continue
			}
			v := s.([]interface{})
			f := func(j int) float64 { x, _ := v[j].(json.Number).Float64(); return x }
			loads = append(loads, TopicLoad{MsgRateIn: f(0), MsgRateOut: f(1), MsgThroughputIn: f(2), MsgThroughputOut: f(3), Hash: hashes[i]})
		}
		chosen, err = FlowOrQpsEquallyDivide(len(hashes), loads, FlowLimits{MaxMsgRate: int32(a.int("max_msg_rate", 0)),
			MaxBandwidthMbytes: int32(a.int("max_bandwidth_mbytes", 0)), ThresholdPercent: int32(a.int("threshold_percent", 0))})
	default:
		panic(errUnknown("algorithm " + algorithm))
	}
	if err != nil {
		return nil, err
	}
	if len(chosen) == 0 {
		return splitResult(l, nil, target, 0)
	}
	after, err := l.Split(target, chosen)
	if err != nil {
		return nil, err
	}
	return splitResult(l, after, target, len(chosen)+1)
}

// method runs a method of an object.
func (r *conformanceRun) method(name string, obj interface{}, a cargs) (got interface{}, err error) {
	defer recoverUnknown(&err)
	switch o := obj.(type) {
	case *RoundRobinRouter:
		if name == "RoundRobinRouter.choose_partition" {
			return o.ChoosePartition(keyOf(a["key"]), int(a.int("num_partitions", 0)), a.int("now_ms", 0))
		}
	case *SinglePartitionRouter:
		if name == "SinglePartitionRouter.choose_partition" {
			return o.ChoosePartition(keyOf(a["key"]), int(a.int("num_partitions", 0)))
		}
	case *CustomRouter:
		if name == "CustomRouter.choose_partition" {
			return o.ChoosePartition(keyOf(a["key"]), int(a.int("num_partitions", 0)))
		}
	case *ProfileRouter:
		if name == "ProfileRouter.route" {
			return o.Route(keyOf(a["key"]), nil, a.u64("payload_len", 0), int(a.int("num_partitions", 0)), a.int("now_ns", 0))
		}
	case *KafkaBuiltInPartitioner:
		switch name {
		case "KafkaBuiltInPartitioner.peek_partition":
			return o.PeekPartition(int(a.int("num_partitions", 0)), StickyChoice{Random: uint32(a.int("random", 0))})
		case "KafkaBuiltInPartitioner.update_partition_info":
			switched, p, err := o.UpdatePartitionInfo(int32(a.int("appended_bytes", 0)), a.bool("enable_switch", false),
				int(a.int("num_partitions", 0)), StickyChoice{Random: uint32(a.int("random", 0))})
			return optional(p, switched), err
		}
	case *KafkaJavaClientPartitioner:
		if name == "KafkaJavaClientPartitioner.append" {
			return o.Append(a.bytes("key"), int32(a.int("appended_bytes", 0)), a.bool("enable_switch", false),
				int(a.int("num_partitions", 0)), StickyChoice{Random: uint32(a.int("random", 0))})
		}
	case *LibrdkafkaProducer:
		if name == "LibrdkafkaProducer.partition" {
			random := uint32(a.int("random", 0))
			return o.Partition(a.bytes("key"), int(a.int("num_partitions", 0)), a.int("now_us", 0), random,
				uint32(a.int("second_random", int64(random))), a.words("available"))
		}
	case *TopicName:
		if name == "TopicName.partition" {
			p, err := o.Partition(int32(a.int("index", 0)))
			if err != nil {
				return nil, err
			}
			return p.String(), nil
		}
	case *BundleLayout:
		switch name {
		case "NamespaceBundles.boundaries":
			return o.Boundaries()
		case "NamespaceBundles.bundles":
			n, err := o.Len()
			if err != nil {
				return nil, err
			}
			return bundleNames(o, 0, n)
		case "NamespaceBundles.bundle_for_hash":
			i, err := o.BundleIndexForHash(uint32(a.int("hash", 0)), a.bool("strict", false))
			if err != nil {
				return nil, err
			}
			b, err := o.Bundle(i)
			return b.String(), err
		case "NamespaceBundles.bundle_for_topic":
			b, err := o.BundleForTopic(a.str("topic", ""), a.rules())
			return b.String(), err
		case "NamespaceBundles.validate_bundle":
			b, err := ParseBundleRange(a.str("bundle", ""))
			if err != nil {
				return nil, err
			}
			return o.ValidateBundle(b)
		case "NamespaceBundles.split":
			return r.split(o, a)
		case "NamespaceBundles.split_equally":
			target, err := ParseBundleRange(a.str("bundle", ""))
			if err != nil {
				return nil, err
			}
			parts := uint32(a.int("parts", 2))
			after, err := o.SplitEqually(target, parts)
			if err != nil {
				return nil, err
			}
			return splitResult(o, after, target, int(parts))
		}
	case *Selector:
		kind, err := o.Kind()
		if err != nil {
			return nil, err
		}
		prefix := map[SelectorKind]string{SelectorAutoSplit: "AutoSplitSelector.",
			SelectorConsistentHashing: "ConsistentHashingSelector.", SelectorExclusive: "ExclusiveSelector."}[kind]
		if !strings.HasPrefix(name, prefix) {
			break
		}
		switch strings.TrimPrefix(name, prefix) {
		case "add":
			id := a.u64("consumer_id", 0)
			if kind == SelectorExclusive {
				return impactResult(o.AddRanges(id, a.ranges("ranges")))
			}
			return impactResult(o.Add(id, a.str("name", "")))
		case "remove":
			return impactResult(o.Remove(a.u64("consumer_id", 0)))
		case "select":
			return selectedResult(o.SelectSlot(uint32(a.int("slot", 0))))
		case "select_key":
			return selectedResult(o.Select(a.bytes("key")))
		case "assignments":
			as, err := o.Assignments()
			out := []interface{}{}
			for _, x := range as {
				out = append(out, []interface{}{x.Start, x.End, x.Consumer})
			}
			return out, err
		}
	case *TopicLookup:
		now := a.u64("now_ms", 0)
		switch name {
		case "TopicLookup.start":
			return r.lookupResult(o.Start(now))
		case "TopicLookup.on_response":
			resp := LookupResponse{BrokerServiceURL: a.str("broker_service_url", ""), BrokerServiceURLTLS: a.str("broker_service_url_tls", ""),
				Authoritative: a.bool("authoritative", false), ProxyThroughServiceURL: a.bool("proxy_through_service_url", false),
				Message: a.str("message", "")}
			resp.Type = choose(a, "kind", "", map[string]LookupType{"connect": LookupTypeConnect,
				"redirect": LookupTypeRedirect, "failed": LookupTypeFailed})
			resp.HasError, resp.Error = a.serverError()
			return r.lookupResult(o.OnResponse(resp, now))
		case "TopicLookup.on_connection_failed":
			return r.lookupResult(o.OnConnectionFailed(now))
		case "TopicLookup.on_request_timeout":
			return r.lookupResult(o.OnRequestTimeout(now))
		case "TopicLookup.on_throttled":
			return r.lookupResult(o.OnThrottled(uint32(a.int("in_flight", 0)), uint32(a.int("queued", 0)), now))
		case "TopicLookup.on_retry_timer":
			return r.lookupResult(o.OnRetryTimer(now))
		}
	case *PartitionedMetadataLookup:
		now := a.u64("now_ms", 0)
		switch name {
		case "PartitionedMetadataLookup.start":
			return r.metadataResult(o.Start(now))
		case "PartitionedMetadataLookup.on_connected":
			return r.metadataResult(o.OnConnected(a.bool("supports_pip344", false), now))
		case "PartitionedMetadataLookup.on_response":
			if a.bool("failed", false) || a.has("error") {
				has, code := a.serverError()
				return r.metadataResult(o.OnFailed(has, code, a.str("message", ""), now))
			}
			return r.metadataResult(o.OnSuccess(uint32(a.int("partitions", 0)), now))
		case "PartitionedMetadataLookup.on_connection_failed":
			return r.metadataResult(o.OnConnectionFailed(now))
		case "PartitionedMetadataLookup.on_retry_timer":
			return r.metadataResult(o.OnRetryTimer(now))
		}
	case *Coalescer:
		props := map[string]string{}
		if m, ok := a["properties"].(map[string]interface{}); ok {
			for k, v := range m {
				props[k], _ = v.(string)
			}
		}
		switch name {
		case "LookupCoalescer.join":
			leader, _, err := o.Join(a.str("topic", ""), props)
			return leader, err
		case "LookupCoalescer.complete":
			return o.Complete(a.str("topic", ""), props)
		}
	case *MetadataCoalescer:
		topic, auto, fallback := a.str("topic", ""), a.bool("metadata_auto_creation", true), a.bool("use_fallback_for_non_pip344", false)
		switch name {
		case "MetadataCoalescer.join":
			leader, _, err := o.Join(topic, auto, fallback)
			return leader, err
		case "MetadataCoalescer.complete":
			return o.Complete(topic, auto, fallback)
		}
	case *LookupThrottle:
		switch name {
		case "LookupThrottle.acquire":
			now, _, _, err := o.Acquire()
			if err != nil {
				return nil, err
			}
			if now {
				return "send_now", nil
			}
			return "queued", nil
		case "LookupThrottle.release":
			return o.Release()
		case "LookupThrottle.in_flight", "LookupThrottle.queued":
			inFlight, queued, err := o.Counts()
			if name == "LookupThrottle.in_flight" {
				return inFlight, err
			}
			return queued, err
		}
	case *SenderGate:
		node, now := int32(a.int("node", 0)), a.u64("now_ms", 0)
		switch name {
		case "SenderGate.ready":
			return readinessResult(o.Ready(node, now))
		case "SenderGate.check":
			return readinessResult(o.Check(node, now))
		case "SenderGate.send":
			if err := o.Send(node, now); err != nil {
				return nil, err
			}
			return readinessResult(o.Check(node, now))
		case "SenderGate.connection_event":
			event := choose(a, "event", "", map[string]ConnectionEvent{"connect": EventConnect, "connected": EventConnected,
				"authenticated": EventAuthenticated, "disconnected": EventDisconnected, "authentication_failed": EventAuthenticationFailed})
			return nil, o.ConnectionEvent(node, event, now, a.float("jitter", 0.5))
		case "SenderGate.response":
			outcome := choose(a, "outcome", "success", map[string]ProduceOutcome{"success": OutcomeSuccess,
				"not_leader_or_follower": OutcomeNotLeaderOrFollower, "other_error": OutcomeOtherError})
			return nil, o.Response(node, outcome)
		case "SenderGate.throttle":
			return nil, o.Throttle(node, a.u64("until_ms", 0))
		case "SenderGate.request_metadata_update":
			return nil, o.MetadataEvent(MetadataRequestUpdate, now, 0.5)
		case "SenderGate.metadata_fetch_started":
			return nil, o.MetadataEvent(MetadataFetchStarted, now, 0.5)
		case "SenderGate.metadata_updated":
			return nil, o.MetadataEvent(MetadataUpdated, now, a.float("jitter", 0.5))
		case "SenderGate.time_to_next_metadata_update":
			return o.TimeToNextMetadataUpdate(now)
		case "SenderGate.connection_state", "SenderGate.in_flight":
			rd, err := o.Check(node, now)
			if err != nil {
				return nil, err
			}
			if name == "SenderGate.in_flight" {
				return rd.InFlight, nil
			}
			return connectionStates[rd.State], nil
		}
	case *PendingQueue:
		switch name {
		case "PendingQueue.check":
			// A copy forks the queue: enqueue there to see what a send
			// would do.
			fork := *o
			err := fork.TryEnqueue()
			switch {
			case err == nil:
				return "ok", nil
			case errors.Is(err, &Error{Status: StatusProducerQueueWouldBlock}):
				return "would_block", nil
			case errors.Is(err, &Error{Status: StatusProducerQueueIsFull}):
				return "would_fail", nil
			}
			return nil, err
		case "PendingQueue.try_enqueue":
			return nil, o.TryEnqueue()
		case "PendingQueue.complete":
			o.Complete(uint32(a.int("n", 1)))
			return nil, nil
		case "PendingQueue.pending":
			return o.Pending(), nil
		}
	case *KeyCounts:
		return keyCountsCall(o, name, a)
	}
	panic(errUnknown(fmt.Sprintf("method %s on %T", name, obj)))
}

// weightNumber is a weight as the scenarios write it: the shortest
// decimal, an integral one without a fraction.
func weightNumber(w float64) json.Number {
	return json.Number(strconv.FormatFloat(w, 'f', -1, 64))
}

func keyCountsCall(k *KeyCounts, name string, a cargs) (interface{}, error) {
	switch name {
	case "KeyCounts.add":
		return nil, k.AddBytes(a.bytes("key"), a.float("weight", 1))
	case "KeyCounts.add_keyless":
		return nil, k.AddKeyless(a.float("weight", 1))
	case "KeyCounts.add_batch":
		list, _ := a["keys"].([]interface{})
		keys := make([]string, len(list))
		for i, key := range list {
			keys[i] = string(bytesOf(key))
		}
		var weights []float64
		if ws, ok := a["weights"].([]interface{}); ok {
			weights = make([]float64, len(ws))
			for i, w := range ws {
				weights[i] = cargs{"w": w}.float("w", 1)
			}
		}
		return nil, k.AddBatch(keys, weights)
	case "KeyCounts.sorted":
		keys, weights := k.Sorted()
		out := make([]interface{}, len(keys))
		for i, key := range keys {
			out[i] = []interface{}{[]byte(key), weightNumber(weights[i])}
		}
		return out, nil
	case "KeyCounts.len":
		return k.Len(), nil
	case "KeyCounts.rows":
		return k.Rows(), nil
	case "KeyCounts.total_key_bytes":
		return k.TotalKeyBytes(), nil
	case "KeyCounts.keyless_weight":
		if w, ok := k.KeylessWeight(); ok {
			return weightNumber(w), nil
		}
		return nil, nil
	}
	panic(errUnknown("method " + name + " on KeyCounts"))
}

// norm turns a result into JSON's shapes: integers as decimal text, bytes
// as {"hex"}.
func norm(v interface{}) interface{} {
	switch x := v.(type) {
	case int, int32, int64, uint32, uint64:
		return json.Number(fmt.Sprint(x))
	case []uint32:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = norm(e)
		}
		return out
	case []byte:
		return map[string]interface{}{"hex": hex.EncodeToString(x)}
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = norm(e)
		}
		return out
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, e := range x {
			out[k] = norm(e)
		}
		return out
	}
	return v
}

// compare says how got differs from want ("" when it does not); a result
// object is compared over the fields want lists, a map inside it exactly.
func compare(got, want interface{}) string { return compareAt(norm(got), want, true) }

func compareAt(got, want interface{}, top bool) string {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return "want null"
		}
	case json.Number, string:
		g, ok := got.(json.Number)
		if ok {
			if string(g) != fmt.Sprint(w) {
				return "value"
			}
			return ""
		}
		if gs, ok := got.(string); !ok || gs != fmt.Sprint(w) {
			return "value"
		}
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			return "value"
		}
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok || len(g) != len(w) {
			return "list length"
		}
		for i := range w {
			if why := compareAt(g[i], w[i], false); why != "" {
				return fmt.Sprintf("element %d: %s", i, why)
			}
		}
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return "want an object"
		}
		if !top && len(g) != len(w) {
			return "keys"
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, present := g[k]
			if !present {
				return "no field " + k
			}
			if why := compareAt(gv, w[k], false); why != "" {
				return fmt.Sprintf("field %s: %s", k, why)
			}
		}
	default:
		return fmt.Sprintf("unknown expectation %T", want)
	}
	return ""
}

func render(v interface{}) string {
	b, err := json.Marshal(norm(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
