package pulsarrouting

/*
#include "pulsar_routing.h"
*/
import "C"

import (
	"fmt"
	"runtime"
)

// The C++ and Python clients' BoostHash scheme: the client's own Boost
// (refused for C++, whose builds vary; the current wheel's for Python), or
// a generation of boost::hash<std::string> on 64-bit size_t, named by its
// first release (1.33 to 1.61, 1.62 to 1.80, 1.81, 1.82 onward).
const (
	ClientSchemeBoost           ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST
	ClientSchemeBoost1_33       ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33
	ClientSchemeBoost1_62       ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62
	ClientSchemeBoost1_81       ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_81
	ClientSchemeBoost1_82       ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82
	ClientSchemeBoost1_74X86_64 ClientHashingScheme = C.PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_74_X86_64 // the 1.62 generation's old name
)

// BoostHashRaw is boost::hash<std::string> of a Boost generation (one of
// the ClientSchemeBoost1_* schemes), all 64 bits; charUnsigned is the
// platform's char (ARM), which only the generations before 1.81 read.
func BoostHashRaw(scheme ClientHashingScheme, charUnsigned bool, key []byte) (uint64, error) {
	p, n := bytesPtr(key)
	var h C.uint64_t
	err := check(C.pulsar_routing_boost_hash_raw(C.pulsar_routing_client_hashing_scheme(scheme), C.bool(charUnsigned), p, n, &h))
	runtime.KeepAlive(key)
	return uint64(h), err
}

// staticName is a name the library holds, or a Go rendering of an unknown
// value.
func staticName(name *C.char, kind string, value uint32) string {
	if name == nil {
		return fmt.Sprintf("%s(%d)", kind, value)
	}
	return C.GoString(name)
}

// String is the client's name: "java", "go", "cpp", "python", "pulsar-rs"
// or "dotpulsar".
func (c ClientProfile) String() string {
	return staticName(C.pulsar_routing_client_profile_name(C.pulsar_routing_client_profile(c)), "ClientProfile", uint32(c))
}

// ParseClientProfile parses a client name ("pulsar_rs" too).
func ParseClientProfile(name string) (ClientProfile, error) {
	p, n := stringPtr(name)
	var out C.pulsar_routing_client_profile
	if err := check(C.pulsar_routing_client_profile_from_name(p, n, &out)); err != nil {
		return 0, err
	}
	return ClientProfile(out), nil
}

// DefaultScheme is the scheme a producer of the client uses when none is
// configured.
func (c ClientProfile) DefaultScheme() (ClientHashingScheme, error) {
	var out C.pulsar_routing_client_hashing_scheme
	if err := check(C.pulsar_routing_client_profile_default_scheme(C.pulsar_routing_client_profile(c), &out)); err != nil {
		return 0, err
	}
	return ClientHashingScheme(out), nil
}

// String is the scheme's name: "java_string", "murmur3_32", "boost" or
// "boost_1_74_x86_64".
func (s ClientHashingScheme) String() string {
	return staticName(C.pulsar_routing_client_hashing_scheme_name(C.pulsar_routing_client_hashing_scheme(s)), "ClientHashingScheme", uint32(s))
}

// ParseClientHashingScheme parses a scheme name, or the clients' constant
// names ("JavaStringHash", "Murmur3_32Hash", "BoostHash").
func ParseClientHashingScheme(name string) (ClientHashingScheme, error) {
	p, n := stringPtr(name)
	var out C.pulsar_routing_client_hashing_scheme
	if err := check(C.pulsar_routing_client_hashing_scheme_from_name(p, n, &out)); err != nil {
		return 0, err
	}
	return ClientHashingScheme(out), nil
}

// ProfileMode is which router a producer uses.
type ProfileMode uint32

// The modes: the client's default router, round robin, single partition.
const (
	ProfileModeDefault         ProfileMode = C.PULSAR_ROUTING_PROFILE_MODE_DEFAULT
	ProfileModeRoundRobin      ProfileMode = C.PULSAR_ROUTING_PROFILE_MODE_ROUND_ROBIN
	ProfileModeSinglePartition ProfileMode = C.PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION
)

// ProfileHash is the exact key hash a client applies, before its modulo.
type ProfileHash uint32

// The clients' key hashes.
const (
	ProfileHashJavaString                ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_JAVA_STRING
	ProfileHashMurmur3_32                ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32
	ProfileHashGoJavaString              ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_GO_JAVA_STRING
	ProfileHashCppJavaString             ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING
	ProfileHashCppJavaStringUnsignedChar ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING_UNSIGNED_CHAR
	ProfileHashCppBoost                  ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST
	ProfileHashCppBoost1_74X86_64        ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_74_X86_64
	ProfileHashMurmur3_32Unmasked        ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32_UNMASKED
	ProfileHashCppBoost1_33              ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_33
	ProfileHashCppBoost1_33UnsignedChar  ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_33_UNSIGNED_CHAR
	ProfileHashCppBoost1_62              ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62
	ProfileHashCppBoost1_62UnsignedChar  ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62_UNSIGNED_CHAR
	ProfileHashCppBoost1_81              ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_81
	ProfileHashCppBoost1_82              ProfileHash = C.PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_82
)

// String is the hash's name, e.g. "go_java_string".
func (h ProfileHash) String() string {
	return staticName(C.pulsar_routing_profile_hash_name(C.pulsar_routing_profile_hash(h)), "ProfileHash", uint32(h))
}

// ParseProfileHash parses a key hash name.
func ParseProfileHash(name string) (ProfileHash, error) {
	p, n := stringPtr(name)
	var out C.pulsar_routing_profile_hash
	if err := check(C.pulsar_routing_profile_hash_from_name(p, n, &out)); err != nil {
		return 0, err
	}
	return ProfileHash(out), nil
}

// Sum is the hash of key (a string key's UTF-8 bytes).
func (h ProfileHash) Sum(key []byte) (uint32, error) {
	p, n := bytesPtr(key)
	var out C.uint32_t
	err := check(C.pulsar_routing_profile_hash_bytes(C.pulsar_routing_profile_hash(h), p, n, &out))
	runtime.KeepAlive(key)
	return uint32(out), err
}

// ProfileConfig is a producer's routing configuration;
// DefaultProfileConfig gives a client's defaults.
type ProfileConfig struct {
	Scheme ClientHashingScheme
	Mode   ProfileMode
	// CharUnsigned: the C++ and Python clients' char is unsigned
	// (e.g. on ARM), which changes their JavaStringHash.
	CharUnsigned bool
	// LazyStart: the C++ producer starts its partition producers on first
	// use, routing a start message that moves the keyless round robin
	// (lazy_start_partitioned_producers; C++ and Python only).
	LazyStart                 bool
	BatchingEnabled           bool
	BatchingMaxMessages       uint32
	BatchingMaxBytes          uint32
	BatchingMaxPublishDelayNs int64
	PartitionSwitchFrequency  int32
}

func (c *ProfileConfig) toC() C.pulsar_routing_profile_config {
	return C.pulsar_routing_profile_config{
		scheme:                        C.pulsar_routing_client_hashing_scheme(c.Scheme),
		mode:                          C.pulsar_routing_profile_mode(c.Mode),
		char_unsigned:                 C.bool(c.CharUnsigned),
		lazy_start:                    C.bool(c.LazyStart),
		batching_enabled:              C.bool(c.BatchingEnabled),
		batching_max_messages:         C.uint32_t(c.BatchingMaxMessages),
		batching_max_bytes:            C.uint32_t(c.BatchingMaxBytes),
		batching_max_publish_delay_ns: C.int64_t(c.BatchingMaxPublishDelayNs),
		partition_switch_frequency:    C.int32_t(c.PartitionSwitchFrequency),
	}
}

// DefaultProfileConfig is what a producer of the client uses when nothing
// is configured.
func DefaultProfileConfig(client ClientProfile) (ProfileConfig, error) {
	var c C.pulsar_routing_profile_config
	if err := check(C.pulsar_routing_profile_config_default(C.pulsar_routing_client_profile(client), &c)); err != nil {
		return ProfileConfig{}, err
	}
	return ProfileConfig{
		Scheme:                    ClientHashingScheme(c.scheme),
		Mode:                      ProfileMode(c.mode),
		CharUnsigned:              bool(c.char_unsigned),
		LazyStart:                 bool(c.lazy_start),
		BatchingEnabled:           bool(c.batching_enabled),
		BatchingMaxMessages:       uint32(c.batching_max_messages),
		BatchingMaxBytes:          uint32(c.batching_max_bytes),
		BatchingMaxPublishDelayNs: int64(c.batching_max_publish_delay_ns),
		PartitionSwitchFrequency:  int32(c.partition_switch_frequency),
	}, nil
}

// ProfileKeyingHash is the exact key hash a producer of the client
// configured with config applies to keys.
func ProfileKeyingHash(client ClientProfile, config ProfileConfig) (ProfileHash, error) {
	c := config.toC()
	var out C.pulsar_routing_profile_hash
	if err := check(C.pulsar_routing_profile_keying_hash(C.pulsar_routing_client_profile(client), &c, &out)); err != nil {
		return 0, err
	}
	return ProfileHash(out), nil
}

// orderingKeyPtr is an ordering key for C: nil is none.
func orderingKeyPtr(orderingKey []byte) (*C.uint8_t, C.size_t) {
	if orderingKey == nil {
		return nil, 0
	}
	return bytesPtr(orderingKey)
}

// ProfileKeyingPartition is the partition a producer of the client
// configured with config sends a keyed message to; orderingKey nil is
// none (only Go routes by it). keyed is false when the client routes the
// message as keyless.
func ProfileKeyingPartition(client ClientProfile, config ProfileConfig, k Key, orderingKey []byte, numPartitions int) (partition int, keyed bool, err error) {
	c := config.toC()
	ck := k.c()
	op, on := orderingKeyPtr(orderingKey)
	var out C.uint32_t
	s := C.pulsar_routing_profile_keying_partition(C.pulsar_routing_client_profile(client), &c, ck, op, on,
		C.int64_t(numPartitions), &out)
	runtime.KeepAlive(&k)
	runtime.KeepAlive(orderingKey)
	if s == C.PULSAR_ROUTING_STATUS_NO_KEY {
		return 0, false, nil
	}
	if err := check(s); err != nil {
		return 0, false, err
	}
	return int(out), true, nil
}

// ProfileRouter is the router a producer of a client builds, keyless
// state included. Safe for concurrent use (the library serialises calls);
// Close releases it.
type ProfileRouter struct {
	h handle[*C.pulsar_routing_profile_router]
}

// NewProfileRouter builds the router for config, from the client's random
// start (its cursor or single partition) and the producer's creation time
// in Unix nanoseconds.
func NewProfileRouter(client ClientProfile, config ProfileConfig, start uint32, createdNs int64) (*ProfileRouter, error) {
	c := config.toC()
	var h *C.pulsar_routing_profile_router
	if err := check(C.pulsar_routing_profile_router_new(C.pulsar_routing_client_profile(client), &c,
		C.uint32_t(start), C.int64_t(createdNs), &h)); err != nil {
		return nil, err
	}
	r := &ProfileRouter{}
	r.h.init(h, "router")
	runtime.SetFinalizer(r, (*ProfileRouter).Close)
	return r, nil
}

// Profile is the client the router models.
func (r *ProfileRouter) Profile() (ClientProfile, error) {
	var out C.pulsar_routing_client_profile
	err := r.h.use(func(h *C.pulsar_routing_profile_router) error {
		return check(C.pulsar_routing_profile_router_profile(h, &out))
	})
	return ClientProfile(out), err
}

// Route routes one message sent at nowNs (Unix nanoseconds) with
// partition key k, ordering key orderingKey (nil: none) and a payload of
// payloadLen bytes, advancing the keyless state as the client does.
func (r *ProfileRouter) Route(k Key, orderingKey []byte, payloadLen uint64, numPartitions int, nowNs int64) (int, error) {
	var out C.uint32_t
	err := r.h.use(func(h *C.pulsar_routing_profile_router) error {
		op, on := orderingKeyPtr(orderingKey)
		return check(C.pulsar_routing_profile_router_route(h, k.c(), op, on, C.uint64_t(payloadLen),
			C.int64_t(numPartitions), C.int64_t(nowNs), &out))
	})
	runtime.KeepAlive(&k)
	runtime.KeepAlive(orderingKey)
	return int(out), err
}

// Close frees the router. Calling it again does nothing.
func (r *ProfileRouter) Close() {
	if r.h.free(func(h *C.pulsar_routing_profile_router) { C.pulsar_routing_profile_router_free(h) }) {
		runtime.SetFinalizer(r, nil)
	}
}
