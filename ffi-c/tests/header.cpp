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

}  // namespace

// Referenced so that -Wunused-function stays quiet without a main().
pulsar_routing_status (*const pulsar_routing_cpp_route)(const char *, size_t, uint32_t *) = route;
pulsar_routing_status (*const pulsar_routing_cpp_bundle_key)(const char *, size_t, char *, size_t,
                                                             size_t *) = bundle_key;
