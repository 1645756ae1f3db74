package pulsarrouting

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"testing"
)

// pureGoMurmur3_32 is Murmur3 x86 32-bit with seed 0, written here from the
// algorithm's description as the baseline of the benchmarks: what a Go
// program would do without this package. TestGoldenHashes checks it
// against the Java golden vectors.
func pureGoMurmur3_32(data []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(data)
	i := 0
	for ; i+4 <= n; i += 4 {
		k := binary.LittleEndian.Uint32(data[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch n - i {
	case 3:
		k ^= uint32(data[i+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(data[i+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(data[i])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// pureGoPartition is the Java client's keyed routing under Murmur3_32Hash:
// the masked hash modulo the partition count.
func pureGoPartition(key string, numPartitions int) int {
	return int((pureGoMurmur3_32([]byte(key)) & 0x7fffffff) % uint32(numPartitions))
}

func benchKeys() []string {
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = "user-" + strconv.Itoa(i*7919)
	}
	return keys
}

var sink int

// BenchmarkPartitionForKeyCgo: keyed routing through this package, one
// cgo call per key.
func BenchmarkPartitionForKeyCgo(b *testing.B) {
	keys := benchKeys()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := PartitionForKey(keys[i%len(keys)], 12, SchemeMurmur3_32)
		if err != nil {
			b.Fatal(err)
		}
		sink += p
	}
}

// BenchmarkRouterCgo: the same through a RoundRobinRouter handle.
func BenchmarkRouterCgo(b *testing.B) {
	keys := benchKeys()
	r, err := NewRoundRobinRouter(SchemeMurmur3_32, 0, false, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := r.ChoosePartition(StringKey(keys[i%len(keys)]), 12, 0)
		if err != nil {
			b.Fatal(err)
		}
		sink += p
	}
}

// BenchmarkPartitionForKeyPureGo: the baseline, no cgo.
func BenchmarkPartitionForKeyPureGo(b *testing.B) {
	keys := benchKeys()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += pureGoPartition(keys[i%len(keys)], 12)
	}
}

// BenchmarkCgoCallOverhead: the cheapest exported C function
// (pulsar_routing_kafka_to_positive, one AND), i.e. the price of crossing
// into C and back.
func BenchmarkCgoCallOverhead(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += int(kafkaToPositive(uint32(i)))
	}
}
