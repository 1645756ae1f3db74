package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// unitsPtr is u's data for C, as uint16 units.
func unitsPtr(u []uint16) (*C.uint16_t, C.size_t) {
	if len(u) == 0 {
		return (*C.uint16_t)(unsafe.Pointer(&emptyUnits[0])), 0
	}
	return (*C.uint16_t)(unsafe.Pointer(&u[0])), C.size_t(len(u))
}

// An aligned empty array: UTF-16 data must be aligned even when empty.
var emptyUnits [1]uint16

// hash32 runs a C hash of bytes that can only fail on NULL, which bytesPtr
// never passes.
func hash32(data []byte, f func(p *C.uint8_t, n C.size_t, out *C.uint32_t) C.pulsar_routing_status) uint32 {
	p, n := bytesPtr(data)
	var h C.uint32_t
	f(p, n, &h)
	runtime.KeepAlive(data)
	return uint32(h)
}

// Murmur3_32Raw is the raw MurmurHash3 x86_32 (seed 0) of data, all 32
// bits (Java's Murmur3_32Hash.makeRawHash, unsigned).
func Murmur3_32Raw(data []byte) uint32 {
	return hash32(data, func(p *C.uint8_t, n C.size_t, out *C.uint32_t) C.pulsar_routing_status {
		return C.pulsar_routing_murmur3_32_raw(p, n, out)
	})
}

// JavaStringHashcode is Java's String.hashCode() of a UTF-8 string, as the
// signed int Java returns. It fails with ErrInvalidUTF8.
func JavaStringHashcode(key string) (int32, error) {
	p, n := stringPtr(key)
	var h C.int32_t
	if err := check(C.pulsar_routing_java_string_hashcode(p, n, &h)); err != nil {
		return 0, err
	}
	return int32(h), nil
}

// JavaStringHashBytes is Pulsar's JavaStringHash.makeHash(byte[]): the
// hash of new String(data, UTF_8), malformed input decoded as Java does.
func JavaStringHashBytes(data []byte) uint32 {
	return hash32(data, func(p *C.uint8_t, n C.size_t, out *C.uint32_t) C.pulsar_routing_status {
		return C.pulsar_routing_java_string_hash_bytes(p, n, out)
	})
}

// JavaStringHashcodeBytes is new String(data, UTF_8).hashCode().
func JavaStringHashcodeBytes(data []byte) int32 {
	p, n := bytesPtr(data)
	var h C.int32_t
	C.pulsar_routing_java_string_hashcode_bytes(p, n, &h)
	runtime.KeepAlive(data)
	return int32(h)
}

// JavaStringHashUTF16 is String.hashCode() & 0x7fffffff over raw UTF-16
// code units (a Java string, lone surrogates included).
func JavaStringHashUTF16(units []uint16) uint32 {
	p, n := unitsPtr(units)
	var h C.uint32_t
	C.pulsar_routing_java_string_hash_utf16(p, n, &h)
	runtime.KeepAlive(units)
	return uint32(h)
}

// JavaStringHashcodeUTF16 is String.hashCode() over raw UTF-16 code units.
func JavaStringHashcodeUTF16(units []uint16) int32 {
	p, n := unitsPtr(units)
	var h C.int32_t
	C.pulsar_routing_java_string_hashcode_utf16(p, n, &h)
	runtime.KeepAlive(units)
	return int32(h)
}

// JavaLossyUTF8 decodes data as Java's new String(data, UTF_8) does (each
// malformed sequence becomes U+FFFD, by Java's rules) and returns the
// result as UTF-8.
func JavaLossyUTF8(data []byte) string {
	s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		p, n := bytesPtr(data)
		return C.pulsar_routing_java_lossy_utf8(p, n, buf, bufLen, written)
	})
	if err != nil {
		// Only NULL or a short buffer can fail; readString grows it.
		panic(err)
	}
	return s
}

// Base64Len is the length of the padded Base64 text of n bytes.
func Base64Len(n int) int { return int(C.pulsar_routing_base64_len(C.size_t(n))) }

// EncodeBase64 is Java's Base64.getEncoder().encodeToString(data): the key
// keyBytes(data) stores.
func EncodeBase64(data []byte) string {
	s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		p, n := bytesPtr(data)
		return C.pulsar_routing_encode_base64(p, n, buf, bufLen, written)
	})
	if err != nil {
		panic(err)
	}
	return s
}

// BoostHash1_74X86_64Raw is Boost 1.74's boost::hash<std::string> on
// x86-64, all 64 bits (the C++ client's BoostHash masks it to 31).
func BoostHash1_74X86_64Raw(key []byte) uint64 {
	p, n := bytesPtr(key)
	var h C.uint64_t
	C.pulsar_routing_boost_hash_1_74_x86_64_raw(p, n, &h)
	runtime.KeepAlive(key)
	return uint64(h)
}

// Hash is the 31-bit hash the Java routers reduce for key(key) under the
// scheme.
func (s HashingScheme) Hash(key string) (uint32, error) {
	p, n := stringPtr(key)
	var h C.uint32_t
	if err := check(C.pulsar_routing_hashing_scheme_hash(C.pulsar_routing_hashing_scheme(s), p, n, &h)); err != nil {
		return 0, err
	}
	return uint32(h), nil
}

// KeyHash is the 31-bit hash a Java router reduces for k: the hash of the
// key string, or of the Base64 text of the key bytes. A keyless k fails
// with StatusNoKey.
func KeyHash(k Key, scheme HashingScheme) (uint32, error) {
	var h C.uint32_t
	ck := k.c()
	err := check(C.pulsar_routing_key_hash(ck, C.pulsar_routing_hashing_scheme(scheme), &h))
	runtime.KeepAlive(&k)
	return uint32(h), err
}

// KeyPartition is the partition every Java router gives a message with
// key k: KeyHash modulo numPartitions.
func KeyPartition(k Key, scheme HashingScheme, numPartitions int) (int, error) {
	var out C.uint32_t
	ck := k.c()
	err := check(C.pulsar_routing_key_partition(ck, C.pulsar_routing_hashing_scheme(scheme),
		C.int64_t(numPartitions), &out))
	runtime.KeepAlive(&k)
	return int(out), err
}

// Murmur3Hasher streams Murmur3_32: any chunking of Write gives the hash
// of the concatenation. The zero value is not ready: use
// NewMurmur3Hasher. A copy of a hasher forks the stream; one hasher is not
// safe for concurrent use.
type Murmur3Hasher struct {
	state C.pulsar_routing_murmur3_hasher
}

// NewMurmur3Hasher is a hasher with no input yet.
func NewMurmur3Hasher() *Murmur3Hasher {
	h := &Murmur3Hasher{}
	C.pulsar_routing_murmur3_hasher_init(&h.state)
	return h
}

// Write feeds data; it never fails (io.Writer).
func (h *Murmur3Hasher) Write(data []byte) (int, error) {
	p, n := bytesPtr(data)
	C.pulsar_routing_murmur3_hasher_update(&h.state, p, n)
	runtime.KeepAlive(data)
	return len(data), nil
}

// Sum32 is Murmur3_32 of everything written so far; writing can go on.
func (h *Murmur3Hasher) Sum32() uint32 {
	var out C.uint32_t
	C.pulsar_routing_murmur3_hasher_finalize(&h.state, &out)
	return uint32(out)
}

// Sum32Raw is Murmur3_32Raw of everything written so far.
func (h *Murmur3Hasher) Sum32Raw() uint32 {
	var out C.uint32_t
	C.pulsar_routing_murmur3_hasher_finalize_raw(&h.state, &out)
	return uint32(out)
}

// CRC32Hasher streams CRC32: any chunking of Write gives the CRC of the
// concatenation. Use NewCRC32Hasher; a copy forks the stream.
type CRC32Hasher struct{ state C.pulsar_routing_crc32_hasher }

// NewCRC32Hasher is a hasher with no input yet.
func NewCRC32Hasher() *CRC32Hasher {
	h := &CRC32Hasher{}
	C.pulsar_routing_crc32_hasher_init(&h.state)
	return h
}

// Write feeds data; it never fails (io.Writer).
func (h *CRC32Hasher) Write(data []byte) (int, error) {
	p, n := bytesPtr(data)
	C.pulsar_routing_crc32_hasher_update(&h.state, p, n)
	runtime.KeepAlive(data)
	return len(data), nil
}

// Sum32 is the CRC of everything written so far; writing can go on.
func (h *CRC32Hasher) Sum32() uint32 {
	var out C.uint32_t
	C.pulsar_routing_crc32_hasher_finalize(&h.state, &out)
	return uint32(out)
}
