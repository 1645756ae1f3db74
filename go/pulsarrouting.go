package pulsarrouting

/*
#cgo pkg-config: pulsar_routing
#include <stdlib.h>
#include "pulsar_routing.h"

// A pulsar_routing_topic_name points into the name it was parsed from. Go
// may not keep such a struct (a Go pointer inside memory passed to C), so
// each query parses the name again on the C side, in one cgo call.
enum { PR_TOPIC_STRING, PR_TOPIC_NAMESPACE, PR_TOPIC_PARTITIONED, PR_TOPIC_LOOKUP,
       PR_TOPIC_PERSISTENCE_NAMING, PR_TOPIC_REST_PATH, PR_TOPIC_ENCODED_LOCAL_NAME,
       PR_TOPIC_TENANT, PR_TOPIC_CLUSTER, PR_TOPIC_NAMESPACE_PORTION, PR_TOPIC_LOCAL_NAME };

static pulsar_routing_status pr_topic_text(const uint8_t *name, size_t len, uint32_t rules,
                                           int which, uint8_t *buf, size_t buf_len,
                                           size_t *written) {
    pulsar_routing_topic_name t;
    pulsar_routing_status s = pulsar_routing_topic_name_parse(name, len, rules, &t);
    if (s != PULSAR_ROUTING_STATUS_OK) {
        return s;
    }
    pulsar_routing_str part = {NULL, 0};
    switch (which) {
    case PR_TOPIC_STRING: return pulsar_routing_topic_name_to_string(&t, buf, buf_len, written);
    case PR_TOPIC_NAMESPACE: return pulsar_routing_topic_name_namespace(&t, buf, buf_len, written);
    case PR_TOPIC_PARTITIONED:
        return pulsar_routing_topic_name_partitioned_topic_name(&t, buf, buf_len, written);
    case PR_TOPIC_LOOKUP: return pulsar_routing_topic_name_lookup_name(&t, buf, buf_len, written);
    case PR_TOPIC_PERSISTENCE_NAMING:
        return pulsar_routing_topic_name_persistence_naming(&t, buf, buf_len, written);
    case PR_TOPIC_REST_PATH:
        return pulsar_routing_topic_name_rest_path(&t, true, buf, buf_len, written);
    case PR_TOPIC_ENCODED_LOCAL_NAME:
        return pulsar_routing_topic_name_encoded_local_name(&t, buf, buf_len, written);
    case PR_TOPIC_TENANT: part = t.tenant; break;
    case PR_TOPIC_CLUSTER: part = t.cluster; break;
    case PR_TOPIC_NAMESPACE_PORTION: part = t.namespace_portion; break;
    default: part = t.local_name; break;
    }
    if (part.len > buf_len) {
        *written = part.len;
        return PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL;
    }
    for (size_t i = 0; i < part.len; i++) {
        buf[i] = part.data[i];
    }
    *written = part.len;
    return PULSAR_ROUTING_STATUS_OK;
}

static pulsar_routing_status pr_topic_facts(const uint8_t *name, size_t len, uint32_t rules,
                                            uint32_t *domain, int32_t *partition_index,
                                            uint32_t *crc) {
    pulsar_routing_topic_name t;
    pulsar_routing_status s = pulsar_routing_topic_name_parse(name, len, rules, &t);
    if (s != PULSAR_ROUTING_STATUS_OK) {
        return s;
    }
    *domain = t.domain;
    *partition_index = t.partition_index;
    return pulsar_routing_topic_name_crc32(&t, crc);
}

static pulsar_routing_status pr_topic_partition(const uint8_t *name, size_t len, uint32_t rules,
                                                int32_t index, uint8_t *buf, size_t buf_len,
                                                size_t *written) {
    pulsar_routing_topic_name t;
    pulsar_routing_status s = pulsar_routing_topic_name_parse(name, len, rules, &t);
    if (s != PULSAR_ROUTING_STATUS_OK) {
        return s;
    }
    return pulsar_routing_topic_name_partition(&t, index, buf, buf_len, written);
}

static pulsar_routing_status pr_topic_partition_crc32(const uint8_t *name, size_t len,
                                                      uint32_t rules, int32_t index,
                                                      uint32_t *crc) {
    pulsar_routing_topic_name t;
    pulsar_routing_status s = pulsar_routing_topic_name_parse(name, len, rules, &t);
    if (s != PULSAR_ROUTING_STATUS_OK) {
        return s;
    }
    return pulsar_routing_topic_name_partition_crc32(&t, index, crc);
}

static pulsar_routing_status pr_bundle_for_topic(uint32_t num_bundles, const uint8_t *topic,
                                                 size_t len, uint32_t rules, int64_t *lower,
                                                 int64_t *upper) {
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range;
    pulsar_routing_status s = pulsar_routing_bundle_layout_init_default(&layout, num_bundles);
    if (s == PULSAR_ROUTING_STATUS_OK) {
        s = pulsar_routing_bundle_layout_bundle_for_topic(&layout, topic, len, rules, &range);
    }
    if (s == PULSAR_ROUTING_STATUS_OK) {
        *lower = range.lower;
        *upper = range.upper;
    }
    return s;
}

*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Status is a status code of the C library (pulsar_routing_status).
type Status uint32

// Message is the library's static message for the code: Java's exception
// message where Java has one.
func (s Status) Message() string {
	return C.GoString(C.pulsar_routing_status_message(C.uint32_t(s)))
}

// Error is a failed call.
type Error struct {
	// Status says which check failed.
	Status Status
	// Message is Java's full message where the library can write one
	// (topic names), otherwise Status.Message().
	Message string
}

func (e *Error) Error() string { return "pulsar_routing: " + e.Message }

// Is makes errors.Is(err, pulsarrouting.ErrPartitionCountZero) and the like
// compare statuses.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status
}

// Errors to compare with errors.Is.
var (
	ErrInvalidUTF8            = &Error{Status: StatusInvalidUTF8}
	ErrUnknownHashingScheme   = &Error{Status: StatusUnknownHashingScheme}
	ErrPartitionCountZero     = &Error{Status: StatusPartitionCountZero}
	ErrPartitionCountNegative = &Error{Status: StatusPartitionCountNegative}
	ErrPartitionCountTooLarge = &Error{Status: StatusPartitionCountTooLarge}
	ErrDivisionByZero         = &Error{Status: StatusDivisionByZero}
)

func check(s C.pulsar_routing_status) error {
	if s == C.PULSAR_ROUTING_STATUS_OK {
		return nil
	}
	return &Error{Status: Status(s), Message: Status(s).Message()}
}

// The C library rejects NULL even for empty input, and an empty Go string
// or slice may have no data pointer.
var emptyByte [1]byte

// bytesPtr is b's data for C: Go memory without Go pointers inside, which
// cgo allows for the duration of a call.
func bytesPtr(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyByte[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// stringPtr is s's bytes for C, without copying (Go 1.19 has no
// unsafe.StringData; a string header starts with its data pointer).
func stringPtr(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyByte[0])), 0
	}
	return (*C.uint8_t)(*(*unsafe.Pointer)(unsafe.Pointer(&s))), C.size_t(len(s))
}

// actionError is the error a lookup action carries: the handle's own text
// for it (read by message), or the status's text when the handle has none.
func actionError(status C.pulsar_routing_status, message func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status) *Error {
	text, err := readString(message)
	if err != nil || text == "" {
		text = Status(status).Message()
	}
	return &Error{Status: Status(status), Message: text}
}

// readString calls fill with a buffer until it is big enough.
func readString(fill func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status) (string, error) {
	buf := make([]byte, 128)
	for {
		var written C.size_t
		s := fill((*C.uint8_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &written)
		if s == C.PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL && int(written) > len(buf) {
			buf = make([]byte, int(written))
			continue
		}
		if err := check(s); err != nil {
			return "", err
		}
		return string(buf[:int(written)]), nil
	}
}

// readSlice calls fill with an array until it is big enough; the library
// writes the needed length on BUFFER_TOO_SMALL.
func readSlice[T any](fill func(buf *T, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status) ([]T, error) {
	buf := make([]T, 16)
	for {
		var written C.size_t
		s := fill(&buf[0], C.size_t(len(buf)), &written)
		if s == C.PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL && int(written) > len(buf) {
			buf = make([]T, int(written))
			continue
		}
		if err := check(s); err != nil {
			return nil, err
		}
		return buf[:int(written)], nil
	}
}

// Version is the C library's "major.minor.patch".
func Version() string { return C.GoString(C.pulsar_routing_version()) }

// Murmur3_32 is the Java client's Murmur3_32Hash of key's bytes: Murmur3
// x86 32-bit, seed 0, masked to 31 bits.
func Murmur3_32(key []byte) uint32 {
	p, n := bytesPtr(key)
	var h C.uint32_t
	// Only NULL can fail, and p is never NULL.
	C.pulsar_routing_murmur3_32(p, n, &h)
	return uint32(h)
}

// Murmur3_32String is Murmur3_32 of a string's bytes, without copying.
func Murmur3_32String(key string) uint32 {
	p, n := stringPtr(key)
	var h C.uint32_t
	C.pulsar_routing_murmur3_32(p, n, &h)
	return uint32(h)
}

// JavaStringHash is the Java client's JavaStringHash of a UTF-8 string:
// String.hashCode() of its UTF-16 units, masked to 31 bits. (The Go client
// hashes the UTF-8 bytes instead, unmasked; see ClientPartition.) It fails
// with ErrInvalidUTF8.
func JavaStringHash(key string) (uint32, error) {
	p, n := stringPtr(key)
	var h C.uint32_t
	if err := check(C.pulsar_routing_java_string_hash(p, n, &h)); err != nil {
		return 0, err
	}
	return uint32(h), nil
}

// CRC32 is the broker's bundle hash (CRC-32C) of data.
func CRC32(data []byte) uint32 {
	p, n := bytesPtr(data)
	var crc C.uint32_t
	C.pulsar_routing_crc32(p, n, &crc)
	return uint32(crc)
}

// HashingScheme is the producer's hashingScheme setting.
type HashingScheme uint32

// The Java client's hashing schemes: JavaStringHash (the default) and
// Murmur3_32Hash.
const (
	SchemeJavaString HashingScheme = C.PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING
	SchemeMurmur3_32 HashingScheme = C.PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32
)

// String is the scheme's name: "java_string" or "murmur3_32".
func (s HashingScheme) String() string {
	name := C.pulsar_routing_hashing_scheme_name(C.pulsar_routing_hashing_scheme(s))
	if name == nil {
		return fmt.Sprintf("HashingScheme(%d)", uint32(s))
	}
	return C.GoString(name)
}

// ParseHashingScheme parses "java_string" or "murmur3_32".
func ParseHashingScheme(name string) (HashingScheme, error) {
	p, n := stringPtr(name)
	var s C.pulsar_routing_hashing_scheme
	if err := check(C.pulsar_routing_hashing_scheme_from_name(p, n, &s)); err != nil {
		return 0, err
	}
	return HashingScheme(s), nil
}

// PartitionForKey is the partition the Java client's routers give a
// message sent with key(key) to a topic with numPartitions partitions
// (1 to 2147483647).
func PartitionForKey(key string, numPartitions int, scheme HashingScheme) (int, error) {
	p, n := stringPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_partition_for_key(p, n, C.int64_t(numPartitions),
		C.pulsar_routing_hashing_scheme(scheme), &out))
	return int(out), err
}

// PartitionForKeyBytes is the partition of a message sent with
// keyBytes(key): the Java client hashes the Base64 text of the bytes.
func PartitionForKeyBytes(key []byte, numPartitions int, scheme HashingScheme) (int, error) {
	p, n := bytesPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_partition_for_key_bytes(p, n, C.int64_t(numPartitions),
		C.pulsar_routing_hashing_scheme(scheme), &out))
	return int(out), err
}

// SignSafeMod is Java's signSafeMod(dividend, divisor).
func SignSafeMod(dividend int64, divisor int32) (int32, error) {
	var out C.int32_t
	if err := check(C.pulsar_routing_sign_safe_mod(C.int64_t(dividend), C.int32_t(divisor), &out)); err != nil {
		return 0, err
	}
	return int32(out), nil
}

// Key is a message's key as the Java producer sets it.
type Key struct {
	kind  uint32
	text  string
	bytes []byte
	units []uint16
}

// NoKey is a message without a key.
func NoKey() Key { return Key{kind: C.PULSAR_ROUTING_KEY_KIND_NONE} }

// StringKey is key(String): text must be UTF-8.
func StringKey(text string) Key { return Key{kind: C.PULSAR_ROUTING_KEY_KIND_STRING, text: text} }

// BytesKey is keyBytes(byte[]).
func BytesKey(b []byte) Key { return Key{kind: C.PULSAR_ROUTING_KEY_KIND_BYTES, bytes: b} }

// UTF16Key is key(String) for a Java string held as UTF-16 code units,
// which may contain lone surrogates.
func UTF16Key(units []uint16) Key { return Key{kind: C.PULSAR_ROUTING_KEY_KIND_UTF16, units: units} }

// IsNone tells a keyless message.
func (k Key) IsNone() bool { return k.kind == C.PULSAR_ROUTING_KEY_KIND_NONE }

// Text is a string key's text ("" for other kinds).
func (k Key) Text() string { return k.text }

// Bytes is a bytes key's bytes (nil for other kinds).
func (k Key) Bytes() []byte { return k.bytes }

// UTF16 is a UTF-16 key's code units (nil for other kinds).
func (k Key) UTF16() []uint16 { return k.units }

// c is the key for one C call; the Go memory it points to stays reachable
// through k for the duration of the call.
func (k *Key) c() C.pulsar_routing_key {
	var p *C.uint8_t
	var n C.size_t
	switch k.kind {
	case C.PULSAR_ROUTING_KEY_KIND_BYTES:
		p, n = bytesPtr(k.bytes)
	case C.PULSAR_ROUTING_KEY_KIND_UTF16:
		u, un := unitsPtr(k.units)
		p, n = (*C.uint8_t)(unsafe.Pointer(u)), un
	default:
		p, n = stringPtr(k.text)
	}
	return C.pulsar_routing_key{kind: C.pulsar_routing_key_kind(k.kind), data: p, len: n}
}

// RoundRobinRouter is the Java client's RoundRobinPartitionMessageRouterImpl
// (the default router). Safe for concurrent use; Close releases it.
type RoundRobinRouter struct {
	mu     sync.RWMutex // Close takes it for writing, calls for reading
	handle *C.pulsar_routing_round_robin_router
}

// NewRoundRobinRouter builds the router as the Java producer does: keyed
// messages by hash, keyless ones round-robin from startIndex (Java picks it
// at random), by time slots of partitionSwitchMs when batching is on.
func NewRoundRobinRouter(scheme HashingScheme, startIndex int32, batching bool, partitionSwitchMs int64) (*RoundRobinRouter, error) {
	var h *C.pulsar_routing_round_robin_router
	if err := check(C.pulsar_routing_round_robin_router_new(C.pulsar_routing_hashing_scheme(scheme),
		C.int32_t(startIndex), C.bool(batching), C.int64_t(partitionSwitchMs), &h)); err != nil {
		return nil, err
	}
	r := &RoundRobinRouter{handle: h}
	runtime.SetFinalizer(r, (*RoundRobinRouter).Close)
	return r, nil
}

// ChoosePartition is the partition of a message with key k; nowMs is the
// wall clock the Java router reads (used for keyless messages with
// batching).
func (r *RoundRobinRouter) ChoosePartition(k Key, numPartitions int, nowMs int64) (int, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.handle == nil {
		return 0, &Error{Status: StatusNullParameter, Message: "router is closed"}
	}
	var out C.uint32_t
	ck := k.c()
	err := check(C.pulsar_routing_round_robin_router_choose_partition(r.handle, ck,
		C.int64_t(numPartitions), C.int64_t(nowMs), &out))
	runtime.KeepAlive(&k)
	return int(out), err
}

// Close frees the router. Calling it again does nothing.
func (r *RoundRobinRouter) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.handle != nil {
		C.pulsar_routing_round_robin_router_free(r.handle)
		r.handle = nil
		runtime.SetFinalizer(r, nil)
	}
}

// SinglePartitionRouter is the Java client's
// SinglePartitionMessageRouterImpl. Safe for concurrent use; Close
// releases it.
type SinglePartitionRouter struct {
	mu     sync.RWMutex
	handle *C.pulsar_routing_single_partition_router
}

// NewSinglePartitionRouter routes keyed messages by hash and keyless ones
// to partitionIndex (Java picks it at random).
func NewSinglePartitionRouter(scheme HashingScheme, partitionIndex int32) (*SinglePartitionRouter, error) {
	var h *C.pulsar_routing_single_partition_router
	if err := check(C.pulsar_routing_single_partition_router_new(C.pulsar_routing_hashing_scheme(scheme),
		C.int32_t(partitionIndex), &h)); err != nil {
		return nil, err
	}
	r := &SinglePartitionRouter{handle: h}
	runtime.SetFinalizer(r, (*SinglePartitionRouter).Close)
	return r, nil
}

// ChoosePartition is the partition of a message with key k.
func (r *SinglePartitionRouter) ChoosePartition(k Key, numPartitions int) (int, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.handle == nil {
		return 0, &Error{Status: StatusNullParameter, Message: "router is closed"}
	}
	var out C.uint32_t
	ck := k.c()
	err := check(C.pulsar_routing_single_partition_router_choose_partition(r.handle, ck,
		C.int64_t(numPartitions), &out))
	runtime.KeepAlive(&k)
	return int(out), err
}

// Close frees the router. Calling it again does nothing.
func (r *SinglePartitionRouter) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.handle != nil {
		C.pulsar_routing_single_partition_router_free(r.handle)
		r.handle = nil
		runtime.SetFinalizer(r, nil)
	}
}

// ClientProfile is a Pulsar client whose keyed routing ClientPartition
// reproduces.
type ClientProfile uint32

// The clients.
const (
	ClientJava      ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_JAVA
	ClientGo        ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_GO
	ClientCpp       ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_CPP
	ClientPython    ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_PYTHON
	ClientPulsarRs  ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS
	ClientDotPulsar ClientProfile = C.PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR
)

// ClientHashingScheme is a client's hashing scheme setting.
type ClientHashingScheme uint32

// The clients' schemes.
const (
	ClientSchemeJavaString ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING
	ClientSchemeMurmur3_32 ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32
)

// ClientPartition is the partition the client's default router gives a
// message with key k. keyed is false when that client routes the message
// as keyless (pulsar-client-go does so for the empty key), and the
// partition then depends on the client's round-robin state.
func ClientPartition(client ClientProfile, scheme ClientHashingScheme, k Key, numPartitions int) (partition int, keyed bool, err error) {
	var out C.uint32_t
	ck := k.c()
	s := C.pulsar_routing_profile_partition(C.pulsar_routing_client_profile(client),
		C.pulsar_routing_client_hashing_scheme(scheme), C.PULSAR_ROUTING_PROFILE_MODE_DEFAULT,
		ck, nil, 0, C.int64_t(numPartitions), &out)
	runtime.KeepAlive(&k)
	if s == C.PULSAR_ROUTING_STATUS_NO_KEY {
		return 0, false, nil
	}
	if err := check(s); err != nil {
		return 0, false, err
	}
	return int(out), true, nil
}

// TopicNameRules chooses the broker's TopicName rules.
type TopicNameRules uint32

// The rule sets. RulesPulsar42 (named as crypto/tls names TLS 1.2
// VersionTLS12) follows the 4.2 release, checked against Pulsar 4.2.4, and
// is the one to pass unless the broker is older or newer: the other
// bindings default to it. RulesV4 is an older 4.x line, modelled on a
// commit before PIP-457 and never checked against a release, that still
// accepts V1 names with a cluster; RulesMaster is the 5.0 development line
// with the topic:// and segment:// domains.
const (
	RulesPulsar42 TopicNameRules = C.PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2
	RulesV4       TopicNameRules = C.PULSAR_ROUTING_TOPIC_NAME_RULES_V4
	RulesMaster   TopicNameRules = C.PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER
)

// TopicName is a topic name the broker's TopicName.get accepts.
type TopicName struct {
	input          string
	rules          TopicNameRules
	persistent     bool
	domain         uint32
	partitionIndex int
	crc32          uint32
}

// ParseTopicName parses name as the broker does. The error of a rejected
// name carries Java's exact message.
func ParseTopicName(name string, rules TopicNameRules) (*TopicName, error) {
	p, n := stringPtr(name)
	var domain C.uint32_t
	var index C.int32_t
	var crc C.uint32_t
	s := C.pr_topic_facts(p, n, C.uint32_t(rules), &domain, &index, &crc)
	if s != C.PULSAR_ROUTING_STATUS_OK {
		message, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
			p, n := stringPtr(name)
			return C.pulsar_routing_topic_name_error_message(p, n, C.uint32_t(rules), buf, bufLen, written)
		})
		if err != nil {
			message = Status(s).Message()
		}
		return nil, &Error{Status: Status(s), Message: message}
	}
	return &TopicName{
		input:          name,
		rules:          rules,
		persistent:     domain != C.PULSAR_ROUTING_TOPIC_DOMAIN_NON_PERSISTENT,
		domain:         uint32(domain),
		partitionIndex: int(index),
		crc32:          uint32(crc),
	}, nil
}

func (t *TopicName) text(which C.int) string {
	s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		p, n := stringPtr(t.input)
		return C.pr_topic_text(p, n, C.uint32_t(t.rules), which, buf, bufLen, written)
	})
	if err != nil {
		// The name parsed once; the same input parses again.
		panic(err)
	}
	return s
}

// String is the canonical name, Java's toString().
func (t *TopicName) String() string { return t.text(C.PR_TOPIC_STRING) }

// Namespace is Java's getNamespace().
func (t *TopicName) Namespace() string { return t.text(C.PR_TOPIC_NAMESPACE) }

// PartitionedTopicName is the name without its -partition-N suffix.
func (t *TopicName) PartitionedTopicName() string { return t.text(C.PR_TOPIC_PARTITIONED) }

// LookupName is Java's getLookupName().
func (t *TopicName) LookupName() string { return t.text(C.PR_TOPIC_LOOKUP) }

// PersistenceNamingEncoding is Java's getPersistenceNamingEncoding().
func (t *TopicName) PersistenceNamingEncoding() string {
	return t.text(C.PR_TOPIC_PERSISTENCE_NAMING)
}

// RestPath is Java's getRestPath().
func (t *TopicName) RestPath() string { return t.text(C.PR_TOPIC_REST_PATH) }

// EncodedLocalName is Java's getEncodedLocalName().
func (t *TopicName) EncodedLocalName() string { return t.text(C.PR_TOPIC_ENCODED_LOCAL_NAME) }

// Tenant is the tenant ("public" for a short name).
func (t *TopicName) Tenant() string { return t.text(C.PR_TOPIC_TENANT) }

// Cluster is the cluster of a V1 name, "" for a V2 name.
func (t *TopicName) Cluster() string { return t.text(C.PR_TOPIC_CLUSTER) }

// NamespacePortion is the namespace's own name ("default" in
// public/default).
func (t *TopicName) NamespacePortion() string { return t.text(C.PR_TOPIC_NAMESPACE_PORTION) }

// LocalName is the topic's own name.
func (t *TopicName) LocalName() string { return t.text(C.PR_TOPIC_LOCAL_NAME) }

// Persistent is Java's isPersistent(): every domain but non-persistent.
func (t *TopicName) Persistent() bool { return t.persistent }

// Domain is the domain as Java prints it: "persistent",
// "non-persistent", "topic" or "segment".
func (t *TopicName) Domain() string {
	return staticName(C.pulsar_routing_topic_domain_name(C.pulsar_routing_topic_domain(t.domain)), "TopicDomain", t.domain)
}

// PartitionCRC32 is the bundle hash of partition index of the topic
// (the CRC32 of Partition(index)'s name).
func (t *TopicName) PartitionCRC32(index int32) (uint32, error) {
	p, n := stringPtr(t.input)
	var crc C.uint32_t
	if err := check(C.pr_topic_partition_crc32(p, n, C.uint32_t(t.rules), C.int32_t(index), &crc)); err != nil {
		return 0, err
	}
	return uint32(crc), nil
}

// PartitionIndex is N of a -partition-N name, -1 otherwise.
func (t *TopicName) PartitionIndex() int { return t.partitionIndex }

// CRC32 is the hash the broker's bundle lookup uses.
func (t *TopicName) CRC32() uint32 { return t.crc32 }

// Partition is Java's getPartition(index).
func (t *TopicName) Partition(index int32) (*TopicName, error) {
	name, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		p, n := stringPtr(t.input)
		return C.pr_topic_partition(p, n, C.uint32_t(t.rules), C.int32_t(index), buf, bufLen, written)
	})
	if err != nil {
		return nil, err
	}
	return ParseTopicName(name, t.rules)
}

// BundleRange is a namespace bundle's hash range.
type BundleRange struct {
	Lower, Upper int64
}

// String is the bundle's name, "0x00000000_0x40000000".
func (b BundleRange) String() string {
	s, err := readString(func(buf *C.uint8_t, bufLen C.size_t, written *C.size_t) C.pulsar_routing_status {
		return C.pulsar_routing_bundle_range_name(C.pulsar_routing_bundle_range{lower: C.int64_t(b.Lower), upper: C.int64_t(b.Upper)}, buf, bufLen, written)
	})
	if err != nil {
		return fmt.Sprintf("BundleRange(%d, %d): %v", b.Lower, b.Upper, err)
	}
	return s
}

// BundleForTopic is the bundle that serves topic in a namespace created
// with numBundles bundles (the broker's default layout).
func BundleForTopic(numBundles uint32, topic string, rules TopicNameRules) (BundleRange, error) {
	p, n := stringPtr(topic)
	var lower, upper C.int64_t
	if err := check(C.pr_bundle_for_topic(C.uint32_t(numBundles), p, n, C.uint32_t(rules), &lower, &upper)); err != nil {
		return BundleRange{}, err
	}
	return BundleRange{Lower: int64(lower), Upper: int64(upper)}, nil
}

// kafkaToPositive is Kafka's Utils.toPositive; the benchmarks use it to
// measure the bare cost of a cgo call.
func kafkaToPositive(x uint32) uint32 {
	return uint32(C.pulsar_routing_kafka_to_positive(C.uint32_t(x)))
}
