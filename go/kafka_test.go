package pulsarrouting

import (
	"errors"
	"hash/fnv"
	"path/filepath"
	"testing"
)

// kafka-python's murmur2 and DefaultPartitioner on 10,000 keys
// (testdata/kafka), and the streaming hasher on each.
func TestKafkaPythonVectors(t *testing.T) {
	rows := 0
	for _, row := range jsonlRows(t, filepath.Join("..", "testdata", "kafka", "murmur2_kafka_python.jsonl.gz")) {
		key := unhexField(t, row, "key_hex")
		murmur2 := uint32(num(t, row, "murmur2"))
		numPartitions := int(num(t, row, "num_partitions"))
		partition := int(num(t, row, "partition"))
		rows++
		if got := KafkaMurmur2(key); got != murmur2 {
			t.Fatalf("murmur2(%x) = %d, kafka-python %d", key, got, murmur2)
		}
		if p, err := KafkaPartitionForKey(key, numPartitions); err != nil || p != partition {
			t.Fatalf("partition(%x, %d) = %d, %v, kafka-python %d", key, numPartitions, p, err, partition)
		}
		if p, err := LibrdkafkaMurmur2.PartitionForKey(key, numPartitions); err != nil || p != partition {
			t.Fatalf("librdkafka murmur2(%x, %d) = %d, %v", key, numPartitions, p, err)
		}
		h := NewKafkaMurmur2Hasher(uint64(len(key)))
		h.Write(key[:len(key)/2])
		h.Write(key[len(key)/2:])
		if got, err := h.Sum32(); err != nil || got != murmur2 {
			t.Fatalf("streamed murmur2(%x) = %d, %v", key, got, err)
		}
	}
	if rows == 0 {
		t.Fatal("no rows")
	}
}

func TestKafkaHashes(t *testing.T) {
	// librdkafka's unit test value, which matches Java.
	if got := KafkaMurmur2([]byte("giberish123456789")) & 0x7fffffff; got != 257239820 {
		t.Errorf("murmur2 = %d", got)
	}
	h := NewKafkaMurmur2Hasher(1)
	h.Write([]byte("xy"))
	if _, err := h.Sum32(); !errors.Is(err, &Error{Status: StatusKafkaMurmur2LengthMismatch}) {
		t.Errorf("two bytes for one: %v", err)
	}
	// librdkafka's fnv1a is Go's hash/fnv FNV-1a taken as an int32, made
	// positive with a wrapping abs.
	for _, key := range []string{"", "kafka", "giberish123456789", "4", "PreAmbleWillBeRemoved,ThePrePartThatIs"} {
		h := fnv.New32a()
		h.Write([]byte(key))
		want := int32(h.Sum32())
		if want < 0 {
			want = -want
		}
		if got := KafkaFNV1a([]byte(key)); got != uint32(want) {
			t.Errorf("fnv1a(%q) = %x, want %x", key, got, uint32(want))
		}
	}
	if KafkaToPositive(0x80000005) != 5 {
		t.Error("toPositive")
	}
	if _, err := KafkaPartitionForKey([]byte("k"), 0); !errors.Is(err, ErrPartitionCountZero) {
		t.Errorf("zero partitions: %v", err)
	}
}

func TestKafkaLoadStats(t *testing.T) {
	// updatePartitionLoadStats, worked by hand: queues 0 3 1, max + 1 = 4,
	// weights 4 1 3, cumulative 4 5 8.
	queues := []int32{0, 3, 1}
	ids := []uint32{0, 1, 2}
	if on, err := KafkaPartitionLoadStats(queues, ids, 3); err != nil || !on || queues[0] != 4 || queues[1] != 5 || queues[2] != 8 {
		t.Errorf("load stats: %v %v %v", queues, on, err)
	}
	equal := []int32{2, 2, 2}
	if on, err := KafkaPartitionLoadStats(equal, ids, 3); err != nil || on || equal[0] != 2 {
		t.Errorf("equal queues: %v %v %v", equal, on, err)
	}
	if _, err := KafkaPartitionLoadStats(equal, ids, 4); !errors.Is(err, &Error{Status: StatusKafkaLoadStatsShape}) {
		t.Errorf("shape: %v", err)
	}
	// A weighted draw: random % 8 in [0, 4) is partition 0, [4, 5) is 1,
	// [5, 8) is 2.
	for random := uint32(0); random < 16; random++ {
		p, err := NewKafkaBuiltInPartitioner(100)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.PeekPartition(3, StickyChoice{Random: random, QueueSizes: []int32{0, 3, 1}, PartitionIDs: ids, LoadLength: 3})
		w := random % 8
		want := 2
		if w < 4 {
			want = 0
		} else if w < 5 {
			want = 1
		}
		if err != nil || got != want {
			t.Errorf("random %d: %d, %v, want %d", random, got, err, want)
		}
		p.Close()
	}
}

// The Java client's BuiltInPartitioner: stick until batch.size bytes with
// switching allowed, or twice that; a draw is toPositive(random) % n.
func TestKafkaBuiltInPartitioner(t *testing.T) {
	p, err := NewKafkaBuiltInPartitioner(100)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if size, err := p.StickyBatchSize(); err != nil || size != 100 {
		t.Errorf("sticky batch size %d, %v", size, err)
	}
	if _, _, drawn, err := p.Current(); err != nil || drawn {
		t.Errorf("drawn before a peek: %v", err)
	}
	const n = 7
	has := false
	var model, produced int
	for i := uint32(0); i < 300; i++ {
		random := i * 2654435761
		peeked, err := p.PeekPartition(n, StickyChoice{Random: random})
		if err != nil {
			t.Fatal(err)
		}
		if !has {
			has, model, produced = true, int(random&0x7fffffff)%n, 0
		}
		if peeked != model {
			t.Fatalf("record %d: peek %d, model %d", i, peeked, model)
		}
		bytes := 20 + int32(i%5)*15
		enable := i%4 != 0
		next := random ^ 0x12345
		switched, np, err := p.UpdatePartitionInfo(bytes, enable, n, StickyChoice{Random: next})
		if err != nil {
			t.Fatal(err)
		}
		produced += int(bytes)
		want := (produced >= 100 && enable) || produced >= 200
		if switched != want {
			t.Fatalf("record %d: switched %v, model %v", i, switched, want)
		}
		if want {
			model, produced = int(next&0x7fffffff)%n, 0
			if np != model {
				t.Fatalf("record %d: switched to %d, model %d", i, np, model)
			}
		}
		cur, b, drawn, err := p.Current()
		if err != nil || !drawn || cur != model || int(b) != produced {
			t.Fatalf("record %d: current %d %d %v %v", i, cur, b, drawn, err)
		}
	}

	// Availability: a draw picks among the listed partitions, in order.
	q, err := KafkaBuiltInPartitionerForBatchSize(0)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if size, _ := q.StickyBatchSize(); size != 1 {
		t.Errorf("max(1, batch.size) = %d", size)
	}
	available := []uint32{1, 4, 5}
	if got, err := q.PeekPartition(6, StickyChoice{Random: 0x80000004, Available: available}); err != nil || got != int(available[4%3]) {
		t.Errorf("available: %d, %v", got, err)
	}
	if _, err := NewKafkaBuiltInPartitioner(0); !errors.Is(err, &Error{Status: StatusKafkaInvalidStickyBatchSize}) {
		t.Errorf("sticky batch size 0: %v", err)
	}
	fresh, err := NewKafkaBuiltInPartitioner(10)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.PeekPartition(3, StickyChoice{Available: []uint32{9}}); !errors.Is(err, &Error{Status: StatusKafkaPartitionOutOfRange}) {
		t.Errorf("available partition out of range: %v", err)
	}
}

// The Java KafkaProducer: a non-null key (even empty) is murmur2-partitioned
// unless keys are ignored; keyless records stick.
func TestKafkaJavaClientPartitioner(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		p, err := NewKafkaJavaClientPartitioner(200, ignore)
		if err != nil {
			t.Fatal(err)
		}
		const n = 5
		has := false
		var model, produced int
		keys := [][]byte{nil, {}, []byte("user-1"), nil}
		for i := uint32(0); i < 200; i++ {
			key := keys[i%4]
			bytes := 40 + int32(i%3)*25
			enable := i%2 == 0
			random := i * 0x9e3779b9
			got, err := p.Append(key, bytes, enable, n, StickyChoice{Random: random})
			if err != nil {
				t.Fatal(err)
			}
			if key != nil && !ignore {
				if keyed, _ := KafkaPartitionForKey(key, n); got != keyed {
					t.Fatalf("keyed record %d: %d, want %d", i, got, keyed)
				}
				continue
			}
			if !has {
				has, model, produced = true, int(random&0x7fffffff)%n, 0
			}
			if got != model {
				t.Fatalf("ignore=%v record %d: %d, model %d", ignore, i, got, model)
			}
			produced += int(bytes)
			if (produced >= 200 && enable) || produced >= 400 {
				has = false
			}
			cur, b, drawn, err := p.Current()
			if err != nil || drawn != has || (has && (cur != model || int(b) != produced)) {
				t.Fatalf("record %d: current %d %d %v %v", i, cur, b, drawn, err)
			}
		}
		p.Close()
		if _, err := p.Append(nil, 1, true, 3, StickyChoice{}); !errors.Is(err, &Error{Status: StatusNullParameter}) {
			t.Errorf("closed: %v", err)
		}
	}
}

// librdkafka's topic: NULL keys (and empty ones under consistent_random) go
// to a sticky partition re-drawn every sticky.partitioning.linger.ms, other
// keys to the partitioner.
func TestLibrdkafkaProducer(t *testing.T) {
	const lingerMs = 10
	p, err := NewLibrdkafkaProducer(LibrdkafkaConsistentRandom, lingerMs)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if which, err := p.Partitioner(); err != nil || which != LibrdkafkaConsistentRandom {
		t.Errorf("partitioner %v, %v", which, err)
	}
	if _, drawn, err := p.StickyPartition(); err != nil || drawn {
		t.Errorf("drawn at start: %v", err)
	}
	if _, err := p.Partition(nil, 8, 10000, 3, 3, nil); !errors.Is(err, &Error{Status: StatusLibrdkafkaStickyPartitionUnassigned}) {
		t.Errorf("within the first linger: %v", err)
	}
	var last int64
	sticky := -1
	const n = 8
	keys := [][]byte{nil, {}, []byte("order-17")}
	for i := uint32(0); i < 300; i++ {
		now := 20000 + int64(i)*1700
		first, second := i*7+3, i*11+5
		key := keys[i%3]
		got, err := p.Partition(key, n, now, first, second, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(key) > 0 {
			if keyed, _ := LibrdkafkaConsistentRandom.PartitionForKey(key, n); got != keyed {
				t.Fatalf("keyed %d: %d, want %d", i, got, keyed)
			}
			continue
		}
		if sticky < 0 {
			last = 0
		}
		if now-(last+lingerMs*1000) > 0 {
			last, sticky = now, int(first%n)
		}
		if got != sticky {
			t.Fatalf("message %d: %d, model %d", i, got, sticky)
		}
	}
	if got, drawn, err := p.StickyPartition(); err != nil || !drawn || got != sticky {
		t.Errorf("sticky %d %v %v, model %d", got, drawn, err, sticky)
	}
	if _, err := NewLibrdkafkaProducer(LibrdkafkaConsistentRandom, 900001); !errors.Is(err, &Error{Status: StatusLibrdkafkaStickyLingerOutOfRange}) {
		t.Errorf("linger out of range: %v", err)
	}
}

func TestLibrdkafkaFunctions(t *testing.T) {
	// rd_kafka_msg_partitioner_random: first % n, or second % n when the
	// first has no leader.
	available := []uint32{0, 2}
	for _, c := range []struct {
		first, second uint32
		available     []uint32
		want          int
	}{{5, 6, nil, 5 % 4}, {5, 6, available, 6 % 4}, {6, 9, available, 6 % 4}} {
		if got, err := LibrdkafkaRandomPartition(4, c.first, c.second, c.available); err != nil || got != c.want {
			t.Errorf("random %+v: %d, %v", c, got, err)
		}
	}
	keyed, err := LibrdkafkaMurmur2.PartitionForKey([]byte("k"), 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := LibrdkafkaMurmur2.PartitionWithAvailability([]byte("k"), 4, 5, 6, available); err != nil || got != keyed {
		t.Errorf("keyed with availability: %d, %v", got, err)
	}
	if got, err := LibrdkafkaRandom.PartitionWithAvailability([]byte("k"), 4, 5, 6, available); err != nil || got != 6%4 {
		t.Errorf("random with availability: %d, %v", got, err)
	}
	// consistent_random picks at random for a NULL or empty key, and then
	// reduces the draw.
	if _, err := LibrdkafkaConsistentRandom.PartitionForKey(nil, 4); !errors.Is(err, &Error{Status: StatusLibrdkafkaRandomPartition}) {
		t.Errorf("NULL key: %v", err)
	}
	if got, err := LibrdkafkaConsistentRandom.Partition([]byte{}, 4, 7); err != nil || got != 7%4 {
		t.Errorf("empty key, draw 7: %d, %v", got, err)
	}
	for linger, want := range map[float64]int64{5: 10, 0.7: 1, 1e12: 900000} {
		if got := LibrdkafkaDefaultStickyLingerMs(linger); got != want {
			t.Errorf("linger %v: %d, want %d", linger, got, want)
		}
	}
	for p := LibrdkafkaRandom; p <= LibrdkafkaFNV1aRandom; p++ {
		if back, err := ParseLibrdkafkaPartitioner(p.String()); err != nil || back != p {
			t.Errorf("%v: %v, %v", p, back, err)
		}
	}
	if LibrdkafkaPartitioner(7).String() != "LibrdkafkaPartitioner(7)" {
		t.Error(LibrdkafkaPartitioner(7).String())
	}
}

// Sticky partitioners shared by goroutines (run under -race).
func TestKafkaPartitionersSharedByGoroutines(t *testing.T) {
	p, err := NewKafkaJavaClientPartitioner(100, false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewLibrdkafkaProducer(LibrdkafkaMurmur2Random, 10)
	if err != nil {
		t.Fatal(err)
	}
	inGoroutines(t, 4, 200, func(g, i int) error {
		if _, err := p.Append(nil, 10, true, 6, StickyChoice{Random: uint32(g*1000 + i)}); err != nil {
			return err
		}
		_, err := r.Partition(nil, 6, int64(20000+i*1000), uint32(i), uint32(g), nil)
		return err
	})
	p.Close()
	r.Close()
}
