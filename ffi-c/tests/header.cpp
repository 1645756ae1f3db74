// Compiles include/pulsar_routing.h as C++ (scripts/test-c.sh builds it with
// g++ -std=c++17 -Wall -Wextra -Werror -c): the declarations must be valid
// C++ with C linkage, and the ABI facts below must hold there too.
#include "pulsar_routing.h"

#include <cstdint>
#include <cstddef>
#include <type_traits>

static_assert(sizeof(pulsar_routing_murmur3_hasher) == 32, "hasher size is ABI");
static_assert(alignof(pulsar_routing_murmur3_hasher) == alignof(uint64_t), "hasher alignment is ABI");
static_assert(sizeof(pulsar_routing_crc32_hasher) == 32, "hasher size is ABI");
static_assert(std::is_same<std::underlying_type<pulsar_routing_status>::type, uint32_t>::value,
              "the status is a uint32_t on the wire");
static_assert(std::is_same<pulsar_routing_hashing_scheme, uint32_t>::value, "scheme width");
static_assert(std::is_standard_layout<pulsar_routing_key>::value, "key is a C struct");
static_assert(sizeof(pulsar_routing_bundle_layout) == 32, "layout size is ABI");
static_assert(alignof(pulsar_routing_bundle_layout) == alignof(uint64_t), "layout alignment is ABI");
static_assert(std::is_standard_layout<pulsar_routing_topic_name>::value, "topic name is a C struct");
static_assert(std::is_standard_layout<pulsar_routing_bundle_range>::value, "range is a C struct");
static_assert(std::is_same<pulsar_routing_topic_name_rules, uint32_t>::value, "rules width");
static_assert(PULSAR_ROUTING_NO_BUNDLE == SIZE_MAX, "no-bundle index");
static_assert(sizeof(pulsar_routing_hash_range) == 8, "a hash range is two int32_t");
static_assert(sizeof(pulsar_routing_assignment) == 16, "an assignment has no padding");
static_assert(offsetof(pulsar_routing_assignment, consumer) == 8, "assignment layout");
static_assert(std::is_standard_layout<pulsar_routing_message_keys>::value, "keys are a C struct");
static_assert(std::is_standard_layout<pulsar_routing_selector_capacity>::value, "a C struct");
static_assert(std::is_same<pulsar_routing_selector_kind, uint32_t>::value, "kind width");
static_assert(std::is_same<pulsar_routing_exclusive_mode, uint32_t>::value, "mode width");
static_assert(PULSAR_ROUTING_STATUS_NO_CONSUMER == 600, "Key_Shared codes start at 600");
static_assert(PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX == 2147483646, "Classic range");
static_assert(PULSAR_ROUTING_VERSION_NUMBER ==
                  ((PULSAR_ROUTING_VERSION_MAJOR << 16) | (PULSAR_ROUTING_VERSION_MINOR << 8) |
                   PULSAR_ROUTING_VERSION_PATCH),
              "packed version number");

namespace {

extern "C" int32_t always_first(void *, pulsar_routing_key, uint32_t) { return 0; }

// Uses each kind of declaration the way a C++ caller would, so that a
// header change that breaks C++ callers fails to compile here.
pulsar_routing_status route(const char *key, size_t len, uint32_t *partition) {
    pulsar_routing_round_robin_router *router = nullptr;
    pulsar_routing_status status = pulsar_routing_round_robin_router_new(
        PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32, 0, true, 10, &router);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        return status;
    }
    pulsar_routing_key k{PULSAR_ROUTING_KEY_KIND_STRING, reinterpret_cast<const uint8_t *>(key),
                         len};
    status = pulsar_routing_round_robin_router_choose_partition(router, k, 12, 0, partition);
    pulsar_routing_round_robin_router_free(router);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        return status;
    }
    pulsar_routing_custom_router *custom = nullptr;
    status = pulsar_routing_custom_router_new(always_first, nullptr, &custom);
    pulsar_routing_custom_router_free(custom);
    return status;
}

// A topic's bundle key, the way a C++ caller would write it.
pulsar_routing_status bundle_key(const char *topic, size_t len, char *key, size_t cap,
                                 size_t *written) {
    pulsar_routing_topic_name name{};
    pulsar_routing_status status = pulsar_routing_topic_name_parse(
        reinterpret_cast<const uint8_t *>(topic), len, PULSAR_ROUTING_TOPIC_NAME_RULES_V4, &name);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        return status;
    }
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range{};
    status = pulsar_routing_bundle_layout_init_default(&layout, 4);
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_bundle_layout_bundle_for_topic(&layout, name.input, name.input_len,
                                                               name.rules, &range);
    }
    uint8_t ns[256];
    size_t ns_len = 0;
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_topic_name_namespace(&name, ns, sizeof ns, &ns_len);
    }
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_bundle_range_key(range, ns, ns_len, reinterpret_cast<uint8_t *>(key),
                                                 cap, written);
    }
    return status;
}

// A Key_Shared round trip, the way a C++ caller would write it: a
// consistent-hashing selector, a message routed to its consumer, and the
// snapshot read back.
pulsar_routing_status key_shared(const char *ordering_key, size_t len, uint64_t *consumer,
                                 pulsar_routing_assignment *assignments, size_t cap,
                                 size_t *written) {
    pulsar_routing_consistent_hashing_config config{PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS,
                                                    PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX, 4,
                                                    256};
    pulsar_routing_selector *selector = nullptr;
    pulsar_routing_status status = pulsar_routing_selector_new_consistent_hashing(config, &selector);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        return status;
    }
    const char name[] = "consumer-a";
    status = pulsar_routing_selector_add_named(selector, 1, reinterpret_cast<const uint8_t *>(name),
                                               sizeof name - 1);
    pulsar_routing_selector_capacity capacity{8, 512, 0};
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_selector_reserve(selector, capacity);
    }
    const pulsar_routing_str absent{nullptr, 0};
    pulsar_routing_message_keys keys{
        {reinterpret_cast<const uint8_t *>(ordering_key), len}, absent, absent, 0, false, false};
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_selector_select_message(selector, &keys, consumer);
    }
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_selector_assignments(selector, assignments, cap, written);
    }
    pulsar_routing_selector_free(selector);
    const pulsar_routing_hash_range sticky[2]{{0, 32767}, {32768, 65535}};
    if (status == PULSAR_ROUTING_STATUS_OK) {
        status = pulsar_routing_validate_sticky_ranges(sticky, 2);
    }
    return status;
}

}  // namespace

// Referenced so that -Wunused-function stays quiet without a main().
pulsar_routing_status (*const pulsar_routing_cpp_route)(const char *, size_t, uint32_t *) = route;
pulsar_routing_status (*const pulsar_routing_cpp_bundle_key)(const char *, size_t, char *, size_t,
                                                             size_t *) = bundle_key;
pulsar_routing_status (*const pulsar_routing_cpp_key_shared)(const char *, size_t, uint64_t *,
                                                             pulsar_routing_assignment *, size_t,
                                                             size_t *) = key_shared;
