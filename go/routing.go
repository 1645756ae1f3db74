package pulsarrouting

/*
#include <stdint.h>
#include "pulsar_routing.h"

// The Go function a custom router calls (custom_router.go exports it);
// the context is a runtime/cgo.Handle of the Go function to call.
extern int32_t prGoCustomRoute(void *context, pulsar_routing_key key, uint32_t num_partitions);

static pulsar_routing_status pr_custom_router_new(uintptr_t handle,
                                                  pulsar_routing_custom_router **out) {
    return pulsar_routing_custom_router_new(prGoCustomRoute, (void *)handle, out);
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
)

// PartitionCountMax is the largest partition count.
const PartitionCountMax = C.PULSAR_ROUTING_PARTITION_COUNT_MAX

// ValidatePartitionCount checks a partition count: 1 to PartitionCountMax.
func ValidatePartitionCount(numPartitions int64) error {
	return check(C.pulsar_routing_partition_count_validate(C.int64_t(numPartitions)))
}

// ReducePartition is x % numPartitions, how a router reduces a key's
// 31-bit hash.
func ReducePartition(numPartitions int64, x uint32) (int, error) {
	var out C.uint32_t
	err := check(C.pulsar_routing_partition_count_reduce(C.int64_t(numPartitions), C.uint32_t(x), &out))
	return int(out), err
}

// SignSafeModPartition is Java's signSafeMod(x, numPartitions) for a valid
// count: a negative x (a wrapped round-robin counter) still lands in
// [0, numPartitions).
func SignSafeModPartition(numPartitions, x int64) (int, error) {
	var out C.uint32_t
	err := check(C.pulsar_routing_partition_count_sign_safe_mod(C.int64_t(numPartitions), C.int64_t(x), &out))
	return int(out), err
}

// CheckPartition is the check PartitionedProducerImpl applies to every
// router's answer: 0 <= partition < numPartitions, else
// StatusIllegalPartitionIndex.
func CheckPartition(partition, numPartitions int64) (int, error) {
	var out C.uint32_t
	err := check(C.pulsar_routing_check_partition(C.int64_t(partition), C.int64_t(numPartitions), &out))
	return int(out), err
}

// PartitionSwitchMs is the batching round-robin router's switch interval
// from roundRobinRouterBatchingPartitionSwitchFrequency and
// batchingMaxPublishDelay (microseconds); Java's defaults (10, 1000) give
// 10.
func PartitionSwitchMs(frequency int32, maxPublishDelayUs int64) (int64, error) {
	var out C.int64_t
	err := check(C.pulsar_routing_partition_switch_ms(C.int32_t(frequency), C.int64_t(maxPublishDelayUs), &out))
	return int64(out), err
}

// MessageRoutingMode is the producer's messageRoutingMode.
type MessageRoutingMode uint32

// Java's MessageRoutingMode values.
const (
	RoundRobinPartition MessageRoutingMode = C.PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION
	SinglePartition     MessageRoutingMode = C.PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION
	CustomPartition     MessageRoutingMode = C.PULSAR_ROUTING_MESSAGE_ROUTING_MODE_CUSTOM_PARTITION
)

// ResolveRoutingMode decides the routing mode from what the producer
// builder was given, as Java's ProducerBuilderImpl does: mode is read only
// when modeSet.
func ResolveRoutingMode(modeSet bool, mode MessageRoutingMode, customRouterSet bool) (MessageRoutingMode, error) {
	var out C.pulsar_routing_message_routing_mode
	if err := check(C.pulsar_routing_resolve_routing_mode(C.bool(modeSet),
		C.pulsar_routing_message_routing_mode(mode), C.bool(customRouterSet), &out)); err != nil {
		return 0, err
	}
	return MessageRoutingMode(out), nil
}

// GetPartitionIndex is Java's static TopicName.getPartitionIndex(name):
// the number after the last -partition-, or -1.
func GetPartitionIndex(name string) (int32, error) {
	p, n := stringPtr(name)
	var out C.int32_t
	err := check(C.pulsar_routing_get_partition_index(p, n, &out))
	return int32(out), err
}

// GoAtoi is Go's strconv.Atoi as pulsar-client-go applies it to a
// partition suffix, with the library's status codes (StatusGoAtoiSyntax,
// StatusGoAtoiRange).
func GoAtoi(text string) (int64, error) {
	p, n := stringPtr(text)
	var out C.int64_t
	err := check(C.pulsar_routing_go_atoi(p, n, &out))
	return int64(out), err
}

// GoPartitionIndex is the partition index pulsar-client-go reads from a
// topic name: -1 without -partition-, else Atoi of the text after the
// last '-'.
func GoPartitionIndex(topic string) (int64, error) {
	p, n := stringPtr(topic)
	var out C.int64_t
	err := check(C.pulsar_routing_go_partition_index(p, n, &out))
	return int64(out), err
}

// CppPartitionIndex is the partition index pulsar-client-cpp reads from a
// topic's local name (std::stoi of the text after the last '-', -1 where
// it throws).
func CppPartitionIndex(localName string) (int32, error) {
	p, n := stringPtr(localName)
	var out C.int32_t
	err := check(C.pulsar_routing_cpp_partition_index(p, n, &out))
	return int32(out), err
}

// CppPartitionedProducerCheck is what pulsar-client-cpp's partitioned
// producer does with a router's answer: a cast to short, and a failed send
// (StatusProfileIllegalPartition) unless that is below numPartitions.
func CppPartitionedProducerCheck(partition int32, numPartitions int64) (int, error) {
	var out C.uint32_t
	err := check(C.pulsar_routing_cpp_partitioned_producer_check(C.int32_t(partition), C.int64_t(numPartitions), &out))
	return int(out), err
}

// CustomRouterFunc chooses a partition, as Java's
// MessageRouter.choosePartition; the library checks its answer.
type CustomRouterFunc func(key Key, numPartitions int) int

// CustomRouter is the Java client's custom routing mode: choose is called
// once per message and its answer checked (StatusIllegalPartitionIndex
// outside [0, numPartitions)). Safe for concurrent use if choose is.
type CustomRouter struct {
	h      handle[*C.pulsar_routing_custom_router]
	choose cgo.Handle
}

// NewCustomRouter wraps choose.
func NewCustomRouter(choose CustomRouterFunc) (*CustomRouter, error) {
	if choose == nil {
		return nil, &Error{Status: StatusNullParameter, Message: StatusNullParameter.Message()}
	}
	fn := cgo.NewHandle(choose)
	var h *C.pulsar_routing_custom_router
	if err := check(C.pr_custom_router_new(C.uintptr_t(fn), &h)); err != nil {
		fn.Delete()
		return nil, err
	}
	r := &CustomRouter{choose: fn}
	r.h.init(h, "router")
	runtime.SetFinalizer(r, (*CustomRouter).Close)
	return r, nil
}

// ChoosePartition validates k and numPartitions, calls the function and
// checks its answer.
func (r *CustomRouter) ChoosePartition(k Key, numPartitions int) (int, error) {
	var out C.uint32_t
	err := r.h.use(func(h *C.pulsar_routing_custom_router) error {
		return check(C.pulsar_routing_custom_router_choose_partition(h, k.c(), C.int64_t(numPartitions), &out))
	})
	runtime.KeepAlive(&k)
	return int(out), err
}

// Close frees the router. Calling it again does nothing.
func (r *CustomRouter) Close() {
	if r.h.free(func(h *C.pulsar_routing_custom_router) { C.pulsar_routing_custom_router_free(h) }) {
		r.choose.Delete()
		runtime.SetFinalizer(r, nil)
	}
}

// String is the mode's Java name.
func (m MessageRoutingMode) String() string {
	switch m {
	case RoundRobinPartition:
		return "RoundRobinPartition"
	case SinglePartition:
		return "SinglePartition"
	case CustomPartition:
		return "CustomPartition"
	}
	return fmt.Sprintf("MessageRoutingMode(%d)", uint32(m))
}
