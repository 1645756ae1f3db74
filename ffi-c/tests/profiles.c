/*
 * The keyless state machines through the C API: every client's router
 * (pulsar_routing_profile_router), the profile configuration with C++'s
 * unsigned-char JavaStringHash, the Java Kafka client's sticky partitioner
 * (KIP-794) and producer decision, and librdkafka's sticky producer path.
 *
 * Each handle is driven against a small model written here from the spec
 * (pulsar-routing spec sections 3.3, 3.6 and 3.7; the peer survey's Kafka
 * sections), and every function added with them is called with NULL for
 * each pointer and with out-of-range values, checking the documented
 * status and that no out-parameter was written.
 *
 * Build (from the repository root, after cargo build -p pulsar-routing-ffi):
 *   gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all -I include \
 *       ffi-c/tests/profiles.c -o profiles -L <target>/debug \
 *       -l:libpulsar_routing.so -Wl,-rpath,<target>/debug
 * Prints "N passed, 0 failed"; exits 1 on any failure.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pulsar_routing.h"

static unsigned passed, failed;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            passed++;                                                                 \
        } else {                                                                      \
            failed++;                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                             \
    } while (0)

#define S(name) PULSAR_ROUTING_STATUS_##name
#define SENTINEL 0xdeadbeefu

static const pulsar_routing_key NO_KEY = {PULSAR_ROUTING_KEY_KIND_NONE, NULL, 0};

static pulsar_routing_key str_key(const char *text) {
    pulsar_routing_key key = {PULSAR_ROUTING_KEY_KIND_STRING, (const uint8_t *)text,
                              strlen(text)};
    return key;
}

static pulsar_routing_kafka_sticky_choice uniform(uint32_t random) {
    pulsar_routing_kafka_sticky_choice choice = {random, NULL, 0, NULL, 0, NULL, 0, 0};
    return choice;
}

/* ------------------------------------------------------------------ */
/* Models, from the spec.                                              */
/* ------------------------------------------------------------------ */

/* Spec 3.6: C++ RoundRobinMessageRouter with batching, keyless messages. */
typedef struct {
    uint32_t cursor, msg_counter, cumulative;
    int64_t last_change_ms;
    uint32_t max_msgs, max_bytes;
    int64_t max_delay_ms;
} cpp_model;

static uint32_t cpp_route(cpp_model *m, uint32_t size, uint32_t n, int64_t now_ms) {
    if (n == 1) {
        return 0;
    }
    if (m->msg_counter >= m->max_msgs || size >= (uint32_t)(m->max_bytes - m->cumulative) ||
        now_ms - m->last_change_ms >= m->max_delay_ms) {
        uint32_t c = ++m->cursor;
        m->last_change_ms = now_ms;
        m->cumulative = size;
        m->msg_counter = 1;
        return c % n;
    }
    m->msg_counter++;
    m->cumulative += size;
    return m->cursor % n;
}

/* Spec 3.7: Go's default router with batching, keyless messages, for
 * maxBatchingMessages below 10 (the clock is then read every message). */
typedef struct {
    uint32_t cursor, msg_counter, cumulative;
    int64_t last_batch_ns;
    uint32_t max_msgs, max_bytes;
    int64_t max_delay_ns;
} go_model;

static uint32_t go_route(go_model *m, uint32_t size, uint32_t n, int64_t now_ns) {
    if (n == 1) {
        return 0;
    }
    uint32_t cursor0 = m->cursor;
    uint32_t cnt = ++m->msg_counter;
    uint32_t batch = (m->cumulative += size);
    bool count_reached = cnt > m->max_msgs;
    bool size_reached = batch > m->max_bytes;
    bool duration_reached = now_ns - m->last_batch_ns > m->max_delay_ns;
    if (count_reached || size_reached || duration_reached) {
        uint32_t next = cursor0 + 1;
        m->cursor = next;
        m->msg_counter = 0;
        m->cumulative = 0;
        m->last_batch_ns = now_ns;
        return next % n;
    }
    return cursor0 % n;
}

/* Spec 3.6: C++'s JavaStringHash over the UTF-8 bytes as `char`, then
 * & INT32_MAX. */
static uint32_t cpp_java_string_hash(const char *text, bool unsigned_char) {
    uint32_t hash = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        uint32_t value = unsigned_char ? (uint32_t)*p : (uint32_t)(int32_t)(signed char)*p;
        hash = 31u * hash + value;
    }
    return hash & 0x7fffffffu;
}

/* ------------------------------------------------------------------ */

static pulsar_routing_profile_config default_config(pulsar_routing_client_profile profile) {
    pulsar_routing_profile_config config;
    memset(&config, 0, sizeof config);
    CHECK(pulsar_routing_profile_config_default(profile, &config) == S(OK));
    return config;
}

static void test_config_and_keying(void) {
    pulsar_routing_profile_config config, untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    config = untouched;
    CHECK(pulsar_routing_profile_config_default(PULSAR_ROUTING_CLIENT_PROFILE_JAVA, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_config_default(6, &config) == S(UNKNOWN_CLIENT_PROFILE));
    CHECK(pulsar_routing_profile_config_default(UINT32_MAX, &config) ==
          S(UNKNOWN_CLIENT_PROFILE));
    CHECK(memcmp(&config, &untouched, sizeof config) == 0);

    /* Spec 3.3 and 3.6: the producers' defaults. */
    config = default_config(PULSAR_ROUTING_CLIENT_PROFILE_JAVA);
    CHECK(config.scheme == PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING);
    CHECK(config.batching_enabled && config.batching_max_publish_delay_ns == 1000000 &&
          config.partition_switch_frequency == 10);
    config = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
    CHECK(config.scheme == PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST);
    CHECK(config.mode == PULSAR_ROUTING_PROFILE_MODE_DEFAULT && !config.char_unsigned);
    CHECK(config.batching_enabled && config.batching_max_messages == 1000 &&
          config.batching_max_bytes == 128 * 1024 &&
          config.batching_max_publish_delay_ns == 10000000);

    /* C++ with JavaStringHash: signed and unsigned char differ on
     * non-ASCII bytes. */
    const char *key = "cl\xc3\xa9-\xc3\xbc";
    config.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING;
    for (int unsigned_char = 0; unsigned_char < 2; unsigned_char++) {
        config.char_unsigned = unsigned_char != 0;
        uint32_t partition = SENTINEL;
        pulsar_routing_profile_hash hash = SENTINEL;
        CHECK(pulsar_routing_profile_keying_partition(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &config,
                                                      str_key(key), NULL, 0, 97,
                                                      &partition) == S(OK));
        CHECK(partition == cpp_java_string_hash(key, unsigned_char != 0) % 97);
        CHECK(pulsar_routing_profile_keying_hash(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &config,
                                                 &hash) == S(OK));
        CHECK(hash == (unsigned_char ? PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING_UNSIGNED_CHAR
                                     : PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING));
    }
    CHECK(cpp_java_string_hash(key, false) % 97 != cpp_java_string_hash(key, true) % 97);

    /* NULLs and out-of-range values. */
    uint32_t out = SENTINEL;
    pulsar_routing_profile_hash hash = SENTINEL;
    pulsar_routing_profile_config bad = config;
    CHECK(pulsar_routing_profile_keying_partition(2, NULL, str_key("k"), NULL, 0, 3, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, str_key("k"), NULL, 0, 3, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, str_key("k"), NULL, 1, 3, &out) ==
          S(NULL_PARAMETER));
    pulsar_routing_key null_data = {PULSAR_ROUTING_KEY_KIND_STRING, NULL, 0};
    CHECK(pulsar_routing_profile_keying_partition(2, &config, null_data, NULL, 0, 3, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_keying_partition(6, &config, str_key("k"), NULL, 0, 3, &out) ==
          S(UNKNOWN_CLIENT_PROFILE));
    bad.scheme = 7;
    CHECK(pulsar_routing_profile_keying_partition(2, &bad, str_key("k"), NULL, 0, 3, &out) ==
          S(UNKNOWN_CLIENT_HASHING_SCHEME));
    bad = config;
    bad.mode = 3;
    CHECK(pulsar_routing_profile_keying_partition(2, &bad, str_key("k"), NULL, 0, 3, &out) ==
          S(UNKNOWN_PROFILE_MODE));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, str_key("k"), NULL, 0, 0, &out) ==
          S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, str_key("k"), NULL, 0, -1, &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, str_key("k"), NULL, 0,
                                                  INT64_C(2147483648), &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(pulsar_routing_profile_keying_partition(2, &config, NO_KEY, NULL, 0, 3, &out) ==
          S(NO_KEY));
    CHECK(out == SENTINEL);
    CHECK(pulsar_routing_profile_keying_hash(2, NULL, &hash) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_keying_hash(2, &config, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_keying_hash(6, &config, &hash) == S(UNKNOWN_CLIENT_PROFILE));
    bad = config;
    bad.scheme = 7;
    CHECK(pulsar_routing_profile_keying_hash(2, &bad, &hash) == S(UNKNOWN_CLIENT_HASHING_SCHEME));
    /* pulsar-rs has only Murmur3_32Hash. */
    CHECK(pulsar_routing_profile_keying_hash(PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS, &config,
                                             &hash) == S(PROFILE_SCHEME_UNSUPPORTED));
    CHECK(hash == SENTINEL);
}

static pulsar_routing_profile_router *new_router(pulsar_routing_client_profile profile,
                                                 const pulsar_routing_profile_config *config,
                                                 uint32_t start, int64_t created_ns) {
    pulsar_routing_profile_router *router = NULL;
    CHECK(pulsar_routing_profile_router_new(profile, config, start, created_ns, &router) ==
          S(OK));
    return router;
}

static uint32_t route(pulsar_routing_profile_router *router, pulsar_routing_key key,
                      uint64_t payload, int64_t n, int64_t now_ns) {
    uint32_t out = SENTINEL;
    CHECK(pulsar_routing_profile_router_route(router, key, NULL, 0, payload, n, now_ns, &out) ==
          S(OK));
    return out;
}

static void test_keyless_state_machines(void) {
    const int64_t created = INT64_C(1700000000000000000);

    /* C++: spec 3.6, batching thresholds small enough to switch on count,
     * size and time. */
    pulsar_routing_profile_config cpp = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
    cpp.batching_max_messages = 3;
    cpp.batching_max_bytes = 300;
    cpp.batching_max_publish_delay_ns = 5000000;
    pulsar_routing_profile_router *router =
        new_router(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &cpp, 2147483640u, created);
    cpp_model cm = {2147483640u, 0, 0, created / 1000000, 3, 300, 5};
    for (unsigned i = 0; i < 200; i++) {
        uint32_t size = (i * 53) % 170;
        int64_t n = 1 + i % 9;
        int64_t now = created + (int64_t)i * 1300000;
        uint32_t expected = cpp_route(&cm, size, (uint32_t)n, now / 1000000);
        CHECK(route(router, NO_KEY, size, n, now) == expected);
    }
    pulsar_routing_client_profile profile = SENTINEL;
    CHECK(pulsar_routing_profile_router_profile(router, &profile) == S(OK));
    CHECK(profile == PULSAR_ROUTING_CLIENT_PROFILE_CPP);
    pulsar_routing_profile_router_free(router);

    /* Go: spec 3.7 (the ordering key wins over the key, empty keys are no
     * keys). */
    pulsar_routing_profile_config go = default_config(PULSAR_ROUTING_CLIENT_PROFILE_GO);
    go.batching_max_messages = 4;
    go.batching_max_bytes = 250;
    go.batching_max_publish_delay_ns = 3000000;
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_GO, &go, 4294967290u, created);
    go_model gm = {4294967290u, 0, 0, created, 4, 250, 3000000};
    for (unsigned i = 0; i < 200; i++) {
        uint32_t size = (i * 41) % 130;
        int64_t n = 1 + i % 6;
        int64_t now = created + (int64_t)i * 900000;
        uint32_t expected = go_route(&gm, size, (uint32_t)n, now);
        /* "" is no key in Go: it goes through the keyless state machine. */
        CHECK(route(router, i % 2 ? str_key("") : NO_KEY, size, n, now) == expected);
    }
    pulsar_routing_profile_router_free(router);

    /* Java: spec 3.3. With batching, (now_ms / switch_ms + start) % n,
     * switch_ms = frequency * delay; without, a counter from start. */
    pulsar_routing_profile_config java = default_config(PULSAR_ROUTING_CLIENT_PROFILE_JAVA);
    java.batching_max_publish_delay_ns = 5000000;
    java.partition_switch_frequency = 3;
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_JAVA, &java, 7, created);
    for (unsigned i = 0; i < 100; i++) {
        int64_t now_ns = created + (int64_t)i * 4000000;
        int64_t n = 1 + i % 11;
        CHECK(route(router, NO_KEY, 10, n, now_ns) == (uint32_t)((now_ns / 1000000 / 15 + 7) % n));
    }
    pulsar_routing_profile_router_free(router);
    java.batching_enabled = false;
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_JAVA, &java, 7, created);
    for (unsigned i = 0; i < 50; i++) {
        CHECK(route(router, NO_KEY, 10, 5, created) == (7 + i) % 5);
    }
    pulsar_routing_profile_router_free(router);

    /* DotPulsar: an int counter from -1, so 0, 1, 2, ... (peer survey A.4). */
    pulsar_routing_profile_config dot = default_config(PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR);
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR, &dot, 3, created);
    for (unsigned i = 0; i < 20; i++) {
        CHECK(route(router, NO_KEY, 0, 7, created) == i % 7);
    }
    pulsar_routing_profile_router_free(router);

    /* pulsar-rs: round robin from the last used index, keys ignored by
     * default (peer survey A.3). */
    pulsar_routing_profile_config rs = default_config(PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS);
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS, &rs, 1, created);
    for (unsigned i = 0; i < 20; i++) {
        CHECK(route(router, str_key("same-key"), 0, 4, created) == (1 + 1 + i) % 4);
    }
    pulsar_routing_profile_router_free(router);

    /* Python: C++'s router with batching off by default: the cursor itself. */
    pulsar_routing_profile_config py = default_config(PULSAR_ROUTING_CLIENT_PROFILE_PYTHON);
    CHECK(!py.batching_enabled);
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_PYTHON, &py, 5, created);
    for (unsigned i = 0; i < 20; i++) {
        CHECK(route(router, NO_KEY, 100, 3, created) == (5 + i) % 3);
    }
    /* Python's BoostHash is the current wheel's: Boost 1.82 and later. */
    uint64_t raw = 0;
    CHECK(pulsar_routing_boost_hash_raw(PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82, false,
                                        (const uint8_t *)"k", 1, &raw) == S(OK));
    uint32_t out = SENTINEL;
    CHECK(pulsar_routing_profile_router_route(router, str_key("k"), NULL, 0, 0, 3, created,
                                              &out) == S(OK));
    CHECK(out == (uint32_t)(raw & 0x7fffffff) % 3);
    pulsar_routing_profile_router_free(router);
    /* C++'s BoostHash of an unnamed Boost cannot route a key: builds vary. */
    pulsar_routing_profile_config cpp_default = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &cpp_default, 5, created);
    out = SENTINEL;
    CHECK(pulsar_routing_profile_router_route(router, str_key("k"), NULL, 0, 0, 3, created,
                                              &out) == S(BOOST_HASH_NOT_REPRODUCIBLE));
    CHECK(out == SENTINEL);
    pulsar_routing_profile_router_free(router);
}

static void test_profile_router_arguments(void) {
    pulsar_routing_profile_config config = default_config(PULSAR_ROUTING_CLIENT_PROFILE_JAVA);
    pulsar_routing_profile_router *router = NULL;
    CHECK(pulsar_routing_profile_router_new(0, NULL, 0, 0, &router) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_new(0, &config, 0, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_new(6, &config, 0, 0, &router) ==
          S(UNKNOWN_CLIENT_PROFILE));
    pulsar_routing_profile_config bad = config;
    bad.scheme = 99;
    CHECK(pulsar_routing_profile_router_new(0, &bad, 0, 0, &router) ==
          S(UNKNOWN_CLIENT_HASHING_SCHEME));
    bad = config;
    bad.mode = 99;
    CHECK(pulsar_routing_profile_router_new(0, &bad, 0, 0, &router) == S(UNKNOWN_PROFILE_MODE));
    /* Java's builder: a delay below 1 ms, a frequency below 1. */
    bad = config;
    bad.batching_max_publish_delay_ns = 999999;
    CHECK(pulsar_routing_profile_router_new(0, &bad, 0, 0, &router) == S(BATCH_DELAY_TOO_SMALL));
    bad = config;
    bad.partition_switch_frequency = 0;
    CHECK(pulsar_routing_profile_router_new(0, &bad, 0, 0, &router) ==
          S(SWITCH_FREQUENCY_TOO_SMALL));
    bad = default_config(PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR);
    bad.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING;
    CHECK(pulsar_routing_profile_router_new(PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR, &bad, 0, 0,
                                            &router) == S(PROFILE_SCHEME_UNSUPPORTED));
    /* Options only C++ and Python builds have are refused elsewhere. */
    bad = default_config(PULSAR_ROUTING_CLIENT_PROFILE_GO);
    bad.char_unsigned = true;
    CHECK(pulsar_routing_profile_router_new(PULSAR_ROUTING_CLIENT_PROFILE_GO, &bad, 0, 0,
                                            &router) == S(PROFILE_OPTION_UNSUPPORTED));
    pulsar_routing_profile_hash hash = SENTINEL;
    CHECK(pulsar_routing_profile_keying_hash(PULSAR_ROUTING_CLIENT_PROFILE_GO, &bad, &hash) ==
          S(PROFILE_OPTION_UNSUPPORTED));
    CHECK(hash == SENTINEL);
    /* C++'s setBatchingMaxMessages throws for 0 and 1, batching on or off. */
    for (uint32_t max = 0; max <= 1; max++) {
        bad = default_config(PULSAR_ROUTING_CLIENT_PROFILE_PYTHON);
        bad.batching_max_messages = max;
        CHECK(pulsar_routing_profile_router_new(PULSAR_ROUTING_CLIENT_PROFILE_PYTHON, &bad, 0, 0,
                                                &router) == S(CPP_BATCHING_MAX_MESSAGES));
    }
    CHECK(router == NULL);
    bad = default_config(PULSAR_ROUTING_CLIENT_PROFILE_CPP);
    bad.batching_max_messages = 2;
    pulsar_routing_profile_router_free(new_router(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &bad, 0, 0));
    /* Lazy start: the C++ producer's start message counts, so batching by
     * two messages switches after one; only C++ and Python take it. */
    CHECK(!bad.lazy_start);
    bad.lazy_start = true;
    bad.batching_max_publish_delay_ns = INT64_MAX;
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &bad, 3, 0);
    uint32_t first = route(router, NO_KEY, 1, 7, 0);
    CHECK(route(router, NO_KEY, 1, 7, 0) == (first + 1) % 7);
    pulsar_routing_profile_router_free(router);
    router = NULL;
    bad = default_config(PULSAR_ROUTING_CLIENT_PROFILE_JAVA);
    bad.lazy_start = true;
    CHECK(pulsar_routing_profile_router_new(PULSAR_ROUTING_CLIENT_PROFILE_JAVA, &bad, 0, 0,
                                            &router) == S(PROFILE_OPTION_UNSUPPORTED));
    CHECK(router == NULL);
    pulsar_routing_profile_router_free(NULL);

    config.mode = PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION;
    router = new_router(PULSAR_ROUTING_CLIENT_PROFILE_JAVA, &config, 7, 0);
    uint32_t out = SENTINEL;
    pulsar_routing_key utf16 = {PULSAR_ROUTING_KEY_KIND_UTF16, (const uint8_t *)"\0\0", 1};
    pulsar_routing_key unknown = {42, NULL, 0};
    pulsar_routing_key null_data = {PULSAR_ROUTING_KEY_KIND_BYTES, NULL, 1};
    pulsar_routing_key bad_utf8 = {PULSAR_ROUTING_KEY_KIND_STRING, (const uint8_t *)"\xff", 1};
    CHECK(pulsar_routing_profile_router_route(NULL, NO_KEY, NULL, 0, 0, 8, 0, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 0, 0, 8, 0, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 3, 0, 8, 0, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_route(router, null_data, NULL, 0, 0, 8, 0, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_route(router, unknown, NULL, 0, 0, 8, 0, &out) ==
          S(UNKNOWN_KEY_KIND));
    CHECK(pulsar_routing_profile_router_route(router, utf16, NULL, 0, 0, 8, 0, &out) ==
          S(PROFILE_KEY_KIND_UNSUPPORTED));
    CHECK(pulsar_routing_profile_router_route(router, bad_utf8, NULL, 0, 0, 8, 0, &out) ==
          S(INVALID_UTF8));
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 0, 0, 0, 0, &out) ==
          S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 0, 0, -3, 0, &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 0, 0, INT64_MAX, 0, &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    /* Java's single partition 7 on a topic of 3 partitions: the send fails. */
    CHECK(pulsar_routing_profile_router_route(router, NO_KEY, NULL, 0, 0, 3, 0, &out) ==
          S(PROFILE_ILLEGAL_PARTITION));
    CHECK(out == SENTINEL);
    CHECK(route(router, NO_KEY, 0, 8, 0) == 7);
    pulsar_routing_client_profile profile = SENTINEL;
    CHECK(pulsar_routing_profile_router_profile(NULL, &profile) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_profile_router_profile(router, NULL) == S(NULL_PARAMETER));
    CHECK(profile == SENTINEL);
    pulsar_routing_profile_router_free(router);
}

/* ------------------------------------------------------------------ */
/* Kafka.                                                              */
/* ------------------------------------------------------------------ */

static void test_load_stats(void) {
    /* updatePartitionLoadStats, worked by hand: queues 0 3 1, max + 1 = 4,
     * weights 4 1 3, cumulative 4 5 8. */
    int32_t queues[] = {0, 3, 1};
    const uint32_t ids[] = {0, 1, 2};
    bool enabled = false;
    CHECK(pulsar_routing_kafka_partition_load_stats(queues, 3, ids, 3, 3, &enabled) == S(OK));
    CHECK(enabled && queues[0] == 4 && queues[1] == 5 && queues[2] == 8);
    /* All equal, none excluded: adaptive partitioning is off. */
    int32_t equal[] = {2, 2, 2};
    CHECK(pulsar_routing_kafka_partition_load_stats(equal, 3, ids, 3, 3, &enabled) == S(OK));
    CHECK(!enabled && equal[0] == 2 && equal[2] == 2);
    bool untouched = true;
    CHECK(pulsar_routing_kafka_partition_load_stats(NULL, 0, ids, 3, 0, &untouched) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_partition_load_stats(equal, 3, NULL, 0, 0, &untouched) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_partition_load_stats(equal, 3, ids, 3, 3, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_partition_load_stats(equal, 2, ids, 3, 2, &untouched) ==
          S(KAFKA_LOAD_STATS_SHAPE));
    CHECK(pulsar_routing_kafka_partition_load_stats(equal, 3, ids, 3, 4, &untouched) ==
          S(KAFKA_LOAD_STATS_SHAPE));
    CHECK(untouched);

    /* A weighted draw: random % 8 in [0, 4) is partition 0, [4, 5) is 1,
     * [5, 8) is 2. */
    for (uint32_t random = 0; random < 16; random++) {
        int32_t fresh[] = {0, 3, 1};
        pulsar_routing_kafka_sticky_choice choice = {random, NULL, 0, fresh, 3, ids, 3, 3};
        pulsar_routing_kafka_built_in_partitioner *sticky = NULL;
        uint32_t partition = SENTINEL;
        CHECK(pulsar_routing_kafka_built_in_partitioner_new(100, &sticky) == S(OK));
        CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, choice,
                                                                       &partition) == S(OK));
        uint32_t w = random % 8;
        CHECK(partition == (w < 4 ? 0u : w < 5 ? 1u : 2u));
        pulsar_routing_kafka_built_in_partitioner_free(sticky);
    }
}

/* Peer survey B.1: stick until batch.size bytes with switching allowed, or
 * twice that; a draw is toPositive(random) % n over all partitions. */
static void test_built_in_partitioner(void) {
    pulsar_routing_kafka_built_in_partitioner *sticky = NULL;
    CHECK(pulsar_routing_kafka_built_in_partitioner_new(100, &sticky) == S(OK));
    int32_t size = 0;
    CHECK(pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(sticky, &size) == S(OK));
    CHECK(size == 100);
    bool drawn = true;
    uint32_t current = SENTINEL;
    int32_t produced = -1;
    CHECK(pulsar_routing_kafka_built_in_partitioner_current(sticky, &drawn, &current,
                                                            &produced) == S(OK));
    CHECK(!drawn && current == SENTINEL && produced == -1);

    bool has = false;
    uint32_t model_partition = 0;
    int32_t model_produced = 0;
    const uint32_t n = 7;
    for (uint32_t i = 0; i < 300; i++) {
        uint32_t random = i * 2654435761u;
        uint32_t peeked = SENTINEL;
        CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, n, uniform(random),
                                                                       &peeked) == S(OK));
        if (!has) {
            has = true;
            model_partition = (random & 0x7fffffffu) % n;
            model_produced = 0;
        }
        CHECK(peeked == model_partition);
        int32_t bytes = 20 + (int32_t)(i % 5) * 15;
        bool enable = i % 4 != 0;
        uint32_t next_random = random ^ 0x12345u;
        bool switched = true;
        uint32_t next = SENTINEL;
        CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
                  sticky, bytes, enable, n, uniform(next_random), &switched, &next) == S(OK));
        model_produced += bytes;
        bool model_switch = (model_produced >= 100 && enable) || model_produced >= 200;
        CHECK(switched == model_switch);
        if (model_switch) {
            model_partition = (next_random & 0x7fffffffu) % n;
            model_produced = 0;
            CHECK(next == model_partition);
        } else {
            CHECK(next == SENTINEL);
        }
        CHECK(pulsar_routing_kafka_built_in_partitioner_current(sticky, &drawn, &current,
                                                                &produced) == S(OK));
        CHECK(drawn && current == model_partition && produced == model_produced);
    }
    pulsar_routing_kafka_built_in_partitioner_free(sticky);

    /* Availability: a draw picks among the listed partitions, in order. */
    const uint32_t available[] = {1, 4, 5};
    CHECK(pulsar_routing_kafka_built_in_partitioner_for_batch_size(0, &sticky) == S(OK));
    CHECK(pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(sticky, &size) == S(OK));
    CHECK(size == 1); /* max(1, batch.size) */
    pulsar_routing_kafka_sticky_choice choice = uniform(0x80000004u);
    choice.available = available;
    choice.available_len = 3;
    uint32_t partition = SENTINEL;
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 6, choice,
                                                                   &partition) == S(OK));
    CHECK(partition == available[4 % 3]);
    pulsar_routing_kafka_built_in_partitioner_free(sticky);

    /* NULLs and out-of-range values. */
    CHECK(pulsar_routing_kafka_built_in_partitioner_new(100, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_for_batch_size(100, NULL) ==
          S(NULL_PARAMETER));
    sticky = NULL;
    CHECK(pulsar_routing_kafka_built_in_partitioner_new(0, &sticky) ==
          S(KAFKA_INVALID_STICKY_BATCH_SIZE));
    CHECK(pulsar_routing_kafka_built_in_partitioner_new(INT32_MIN, &sticky) ==
          S(KAFKA_INVALID_STICKY_BATCH_SIZE));
    CHECK(sticky == NULL);
    pulsar_routing_kafka_built_in_partitioner_free(NULL);
    CHECK(pulsar_routing_kafka_built_in_partitioner_new(10, &sticky) == S(OK));
    partition = SENTINEL;
    CHECK(pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(NULL, &size) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(sticky, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_current(NULL, &drawn, &current, &produced) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_current(sticky, NULL, &current, &produced) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_current(sticky, &drawn, NULL, &produced) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_current(sticky, &drawn, &current, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(NULL, 3, uniform(0),
                                                                   &partition) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, uniform(0), NULL) ==
          S(NULL_PARAMETER));
    pulsar_routing_kafka_sticky_choice null_available = uniform(0);
    null_available.available_len = 2;
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, null_available,
                                                                   &partition) ==
          S(NULL_PARAMETER));
    int32_t queues[] = {1, 2};
    pulsar_routing_kafka_sticky_choice half_load = uniform(0);
    half_load.queue_sizes = queues;
    half_load.queue_sizes_len = 2;
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, half_load,
                                                                   &partition) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 0, uniform(0),
                                                                   &partition) ==
          S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, -1, uniform(0),
                                                                   &partition) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(
              sticky, INT64_C(2147483648), uniform(0), &partition) == S(PARTITION_COUNT_TOO_LARGE));
    const uint32_t beyond[] = {9};
    pulsar_routing_kafka_sticky_choice out_of_range = uniform(0);
    out_of_range.available = beyond;
    out_of_range.available_len = 1;
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, out_of_range,
                                                                   &partition) ==
          S(KAFKA_PARTITION_OUT_OF_RANGE));
    const uint32_t one_id[] = {0};
    pulsar_routing_kafka_sticky_choice shape = uniform(0);
    shape.queue_sizes = queues;
    shape.queue_sizes_len = 2;
    shape.partition_ids = one_id;
    shape.partition_ids_len = 1;
    shape.load_length = 1;
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, shape,
                                                                   &partition) ==
          S(KAFKA_LOAD_STATS_SHAPE));
    /* Queue sizes whose inverted weights overflow int: the total wraps
     * negative. */
    int32_t huge[] = {0, INT32_MAX - 1, INT32_MAX - 1};
    const uint32_t three[] = {0, 1, 2};
    pulsar_routing_kafka_sticky_choice corrupt = {0, NULL, 0, huge, 3, three, 3, 3};
    CHECK(pulsar_routing_kafka_built_in_partitioner_peek_partition(sticky, 3, corrupt,
                                                                   &partition) ==
          S(KAFKA_CORRUPT_LOAD_STATS));
    CHECK(partition == SENTINEL);
    bool switched = false;
    uint32_t next = SENTINEL;
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              NULL, 5, true, 3, uniform(0), &switched, &next) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, 3, uniform(0), NULL, &next) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, 3, uniform(0), &switched, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, 3, null_available, &switched, &next) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, 0, uniform(0), &switched, &next) == S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, -1, uniform(0), &switched, &next) == S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
              sticky, 5, true, INT64_MAX, uniform(0), &switched, &next) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(!switched && next == SENTINEL);
    pulsar_routing_kafka_built_in_partitioner_free(sticky);
}

/* Peer survey B.1: a non-null key (even empty) is murmur2-partitioned
 * unless keys are ignored; keyless records stick. */
static void test_java_client_partitioner(void) {
    for (int ignore = 0; ignore < 2; ignore++) {
        pulsar_routing_kafka_java_client_partitioner *producer = NULL;
        CHECK(pulsar_routing_kafka_java_client_partitioner_new(200, ignore != 0, &producer) ==
              S(OK));
        const uint32_t n = 5;
        bool has = false;
        uint32_t model_partition = 0;
        int32_t model_produced = 0;
        for (uint32_t i = 0; i < 200; i++) {
            const char *keys[] = {NULL, "", "user-1", NULL};
            const char *key = keys[i % 4];
            int32_t bytes = 40 + (int32_t)(i % 3) * 25;
            bool enable = i % 2 == 0;
            uint32_t random = i * 0x9e3779b9u;
            uint32_t partition = SENTINEL;
            CHECK(pulsar_routing_kafka_java_client_partitioner_append(
                      producer, (const uint8_t *)key, key ? strlen(key) : 0, bytes, enable, n,
                      uniform(random), &partition) == S(OK));
            if (key && !ignore) {
                uint32_t keyed = SENTINEL;
                CHECK(pulsar_routing_kafka_partition_for_key((const uint8_t *)key, strlen(key), n,
                                                             &keyed) == S(OK));
                CHECK(partition == keyed);
                continue;
            }
            if (!has) {
                has = true;
                model_partition = (random & 0x7fffffffu) % n;
                model_produced = 0;
            }
            CHECK(partition == model_partition);
            model_produced += bytes;
            if ((model_produced >= 200 && enable) || model_produced >= 400) {
                /* The next keyless record draws. */
                has = false;
            }
            bool drawn = false;
            uint32_t current = SENTINEL;
            int32_t produced = -1;
            CHECK(pulsar_routing_kafka_java_client_partitioner_current(producer, &drawn, &current,
                                                                       &produced) == S(OK));
            CHECK(drawn == has);
            if (has) {
                CHECK(current == model_partition && produced == model_produced);
            }
        }
        pulsar_routing_kafka_java_client_partitioner_free(producer);
    }

    pulsar_routing_kafka_java_client_partitioner *producer = NULL;
    CHECK(pulsar_routing_kafka_java_client_partitioner_new(1, false, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_new(INT32_MIN, false, &producer) == S(OK));
    uint32_t out = SENTINEL;
    pulsar_routing_kafka_sticky_choice null_available = uniform(0);
    null_available.available_len = 1;
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(NULL, NULL, 0, 1, true, 3,
                                                              uniform(0), &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(producer, NULL, 0, 1, true, 3,
                                                              uniform(0), NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(producer, NULL, 4, 1, true, 3,
                                                              uniform(0), &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(producer, NULL, 0, 1, true, 3,
                                                              null_available, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(producer, NULL, 0, 1, true, 0,
                                                              uniform(0), &out) ==
          S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(producer, NULL, 0, 1, true, -5,
                                                              uniform(0), &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_kafka_java_client_partitioner_append(
              producer, NULL, 0, 1, true, INT64_C(4294967296), uniform(0), &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(out == SENTINEL);
    bool drawn = false;
    uint32_t current = SENTINEL;
    int32_t produced = 0;
    CHECK(pulsar_routing_kafka_java_client_partitioner_current(NULL, &drawn, &current,
                                                               &produced) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_current(producer, NULL, &current,
                                                               &produced) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_current(producer, &drawn, NULL,
                                                               &produced) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_java_client_partitioner_current(producer, &drawn, &current,
                                                               NULL) == S(NULL_PARAMETER));
    pulsar_routing_kafka_java_client_partitioner_free(producer);
    pulsar_routing_kafka_java_client_partitioner_free(NULL);
}

/* Peer survey B.2: NULL keys (and empty ones under consistent_random) go to
 * a sticky partition re-drawn every sticky.partitioning.linger.ms (a
 * microsecond interval: due when now - (last + linger) > 0), or at once
 * when it has no leader; other keys to the partitioner. */
static void test_librdkafka_producer(void) {
    const int64_t linger_ms = 10;
    pulsar_routing_librdkafka_producer *producer = NULL;
    CHECK(pulsar_routing_librdkafka_producer_new(
              PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM, linger_ms, &producer) ==
          S(OK));
    pulsar_routing_librdkafka_partitioner which = SENTINEL;
    CHECK(pulsar_routing_librdkafka_producer_partitioner(producer, &which) == S(OK));
    CHECK(which == PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM);
    bool drawn = true;
    uint32_t sticky = SENTINEL;
    CHECK(pulsar_routing_librdkafka_producer_sticky_partition(producer, &drawn, &sticky) == S(OK));
    CHECK(!drawn && sticky == SENTINEL);
    /* Within the linger of the clock's origin nothing is drawn. */
    uint32_t out = SENTINEL;
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, 8, 10000, 3, 3, NULL, 0,
                                                       &out) ==
          S(LIBRDKAFKA_STICKY_PARTITION_UNASSIGNED));
    CHECK(out == SENTINEL);

    int64_t model_last = 0;
    int64_t model_sticky = -1;
    const uint32_t n = 8;
    for (uint32_t i = 0; i < 300; i++) {
        int64_t now = 20000 + (int64_t)i * 1700;
        uint32_t first = i * 7 + 3, second = i * 11 + 5;
        const char *keys[] = {NULL, "", "order-17"};
        const char *key = keys[i % 3];
        uint32_t got = SENTINEL;
        CHECK(pulsar_routing_librdkafka_producer_partition(
                  producer, (const uint8_t *)key, key ? strlen(key) : 0, n, now, first, second,
                  NULL, 0, &got) == S(OK));
        if (key && key[0]) {
            uint32_t keyed = SENTINEL;
            CHECK(pulsar_routing_librdkafka_partition_for_key(
                      PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
                      (const uint8_t *)key, strlen(key), n, &keyed) == S(OK));
            CHECK(got == keyed);
            continue;
        }
        if (model_sticky < 0) {
            model_last = 0;
        }
        if (now - (model_last + linger_ms * 1000) > 0) {
            model_last = now;
            model_sticky = first % n;
        }
        CHECK(got == (uint32_t)model_sticky);
    }
    CHECK(pulsar_routing_librdkafka_producer_sticky_partition(producer, &drawn, &sticky) == S(OK));
    CHECK(drawn && sticky == (uint32_t)model_sticky);

    /* NULLs and out-of-range values. */
    CHECK(pulsar_routing_librdkafka_producer_partition(NULL, NULL, 0, 8, 0, 0, 0, NULL, 0, &out) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, 8, 0, 0, 0, NULL, 0,
                                                       NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 2, 8, 0, 0, 0, NULL, 0,
                                                       &out) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, 8, 0, 0, 0, NULL, 2,
                                                       &out) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, 0, 0, 0, 0, NULL, 0,
                                                       &out) == S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, -8, 0, 0, 0, NULL, 0,
                                                       &out) == S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, INT64_MIN, 0, 0, 0, NULL,
                                                       0, &out) == S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_librdkafka_producer_partition(producer, NULL, 0, INT64_C(2147483648), 0,
                                                       0, 0, NULL, 0,
                                                       &out) == S(PARTITION_COUNT_TOO_LARGE));
    CHECK(out == SENTINEL);
    CHECK(pulsar_routing_librdkafka_producer_sticky_partition(NULL, &drawn, &sticky) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_sticky_partition(producer, NULL, &sticky) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_sticky_partition(producer, &drawn, NULL) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partitioner(NULL, &which) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_partitioner(producer, NULL) == S(NULL_PARAMETER));
    pulsar_routing_librdkafka_producer_free(producer);
    pulsar_routing_librdkafka_producer_free(NULL);

    producer = NULL;
    CHECK(pulsar_routing_librdkafka_producer_new(0, 10, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_producer_new(7, 10, &producer) ==
          S(UNKNOWN_LIBRDKAFKA_PARTITIONER));
    CHECK(pulsar_routing_librdkafka_producer_new(UINT32_MAX, 10, &producer) ==
          S(UNKNOWN_LIBRDKAFKA_PARTITIONER));
    CHECK(pulsar_routing_librdkafka_producer_new(2, -1, &producer) ==
          S(LIBRDKAFKA_STICKY_LINGER_OUT_OF_RANGE));
    CHECK(pulsar_routing_librdkafka_producer_new(2, 900001, &producer) ==
          S(LIBRDKAFKA_STICKY_LINGER_OUT_OF_RANGE));
    CHECK(producer == NULL);
}

static void test_librdkafka_functions(void) {
    /* rd_kafka_msg_partitioner_random: first % n, or second % n when the
     * first has no leader. */
    const uint32_t available[] = {0, 2};
    uint32_t out = SENTINEL;
    CHECK(pulsar_routing_librdkafka_random_partition(4, 5, 6, NULL, 0, &out) == S(OK));
    CHECK(out == 5 % 4);
    CHECK(pulsar_routing_librdkafka_random_partition(4, 5, 6, available, 2, &out) == S(OK));
    CHECK(out == 6 % 4);
    CHECK(pulsar_routing_librdkafka_random_partition(4, 6, 9, available, 2, &out) == S(OK));
    CHECK(out == 6 % 4);
    out = SENTINEL;
    CHECK(pulsar_routing_librdkafka_random_partition(4, 5, 6, NULL, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_random_partition(4, 5, 6, NULL, 1, &out) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_random_partition(0, 5, 6, NULL, 0, &out) ==
          S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_librdkafka_random_partition(-1, 5, 6, NULL, 0, &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_librdkafka_random_partition(INT64_MAX, 5, 6, NULL, 0, &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(out == SENTINEL);

    /* With availability: keyed partitioners ignore it; random ones re-roll. */
    uint32_t keyed = SENTINEL;
    CHECK(pulsar_routing_librdkafka_partition_for_key(PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2,
                                                      (const uint8_t *)"k", 1, 4, &keyed) == S(OK));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(
              PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2, (const uint8_t *)"k", 1, 4, 5, 6,
              available, 2, &out) == S(OK));
    CHECK(out == keyed);
    CHECK(pulsar_routing_librdkafka_partition_with_availability(
              PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_RANDOM, (const uint8_t *)"k", 1, 4, 5, 6,
              available, 2, &out) == S(OK));
    CHECK(out == 6 % 4);
    out = SENTINEL;
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 0, 4, 5, 6, NULL, 0,
                                                                NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 1, 4, 5, 6, NULL, 0,
                                                                &out) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 0, 4, 5, 6, NULL, 1,
                                                                &out) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(7, NULL, 0, 4, 5, 6, NULL, 0,
                                                                &out) ==
          S(UNKNOWN_LIBRDKAFKA_PARTITIONER));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 0, 0, 5, 6, NULL, 0,
                                                                &out) == S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 0, -4, 5, 6, NULL, 0,
                                                                &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_librdkafka_partition_with_availability(0, NULL, 0, INT64_MAX, 5, 6, NULL,
                                                                0, &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(out == SENTINEL);

    /* min(900000, (int)(2 * linger.ms)). */
    int64_t linger = -1;
    CHECK(pulsar_routing_librdkafka_default_sticky_linger_ms(5.0, &linger) == S(OK));
    CHECK(linger == 10);
    CHECK(pulsar_routing_librdkafka_default_sticky_linger_ms(0.7, &linger) == S(OK));
    CHECK(linger == 1);
    CHECK(pulsar_routing_librdkafka_default_sticky_linger_ms(1e12, &linger) == S(OK));
    CHECK(linger == 900000);
    linger = -1;
    CHECK(pulsar_routing_librdkafka_default_sticky_linger_ms(5.0, NULL) == S(NULL_PARAMETER));
    CHECK(linger == -1);
}

static void test_status_messages(void) {
    const uint32_t codes[] = {
        S(KAFKA_INVALID_STICKY_BATCH_SIZE),      S(KAFKA_LOAD_STATS_SHAPE),
        S(KAFKA_CORRUPT_LOAD_STATS),             S(KAFKA_PARTITION_OUT_OF_RANGE),
        S(LIBRDKAFKA_UNKNOWN_PARTITION),         S(LIBRDKAFKA_STICKY_PARTITION_UNASSIGNED),
        S(LIBRDKAFKA_STICKY_LINGER_OUT_OF_RANGE)};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        CHECK(codes[i] == 722 + i);
        const char *text = pulsar_routing_status_message(codes[i]);
        CHECK(text != NULL && strcmp(text, "unknown status code") != 0 && text[0] != '\0');
    }
}

static void test_one_shot_functions(void) {
    CHECK(PULSAR_ROUTING_KAFKA_MURMUR2_SEED == 0x9747b28cu);
    /* C++'s producer casts the router's answer to short: 70000 - 65536. */
    uint32_t out = SENTINEL;
    CHECK(pulsar_routing_cpp_partitioned_producer_check(70000, 100000, &out) == S(OK));
    CHECK(out == 70000 - 65536);
    out = SENTINEL;
    CHECK(pulsar_routing_cpp_partitioned_producer_check(35000, 100000, &out) ==
          S(PROFILE_ILLEGAL_PARTITION)); /* (short)35000 is negative */
    CHECK(pulsar_routing_cpp_partitioned_producer_check(5, 5, &out) ==
          S(PROFILE_ILLEGAL_PARTITION));
    CHECK(pulsar_routing_cpp_partitioned_producer_check(0, 5, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_cpp_partitioned_producer_check(0, 0, &out) == S(PARTITION_COUNT_ZERO));
    CHECK(pulsar_routing_cpp_partitioned_producer_check(0, -2, &out) ==
          S(PARTITION_COUNT_NEGATIVE));
    CHECK(pulsar_routing_cpp_partitioned_producer_check(0, INT64_MAX, &out) ==
          S(PARTITION_COUNT_TOO_LARGE));
    CHECK(out == SENTINEL);

    /* BoostHash is the raw 64-bit value & INT32_MAX. */
    uint64_t raw = 0;
    uint32_t masked = SENTINEL;
    CHECK(pulsar_routing_boost_hash_1_74_x86_64_raw((const uint8_t *)"user-42", 7, &raw) == S(OK));
    CHECK(pulsar_routing_profile_hash_bytes(PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62,
                                            (const uint8_t *)"user-42", 7, &masked) == S(OK));
    CHECK((uint32_t)(raw & 0x7fffffffu) == masked);
    raw = 42;
    CHECK(pulsar_routing_boost_hash_1_74_x86_64_raw(NULL, 0, &raw) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_boost_hash_1_74_x86_64_raw((const uint8_t *)"k", 1, NULL) ==
          S(NULL_PARAMETER));
    CHECK(raw == 42);
    /* Every generation through one entry point; the 1.62 one is the above. */
    uint64_t generic = 0;
    CHECK(pulsar_routing_boost_hash_raw(PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62, false,
                                        (const uint8_t *)"user-42", 7, &generic) == S(OK));
    CHECK((uint32_t)(generic & 0x7fffffffu) == masked);
    CHECK(pulsar_routing_boost_hash_raw(PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82, false, NULL,
                                        0, &raw) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_boost_hash_raw(PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82, false,
                                        (const uint8_t *)"k", 1, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_boost_hash_raw(PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST, false,
                                        (const uint8_t *)"k", 1, &raw) ==
          S(BOOST_HASH_NOT_REPRODUCIBLE));
    CHECK(raw == 42);

    /* Go's strconv.Atoi: sign and digits only, within int64. */
    int64_t value = -7;
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"+01", 3, &value) == S(OK));
    CHECK(value == 1);
    value = -7;
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"", 0, &value) == S(GO_ATOI_SYNTAX));
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"5abc", 4, &value) == S(GO_ATOI_SYNTAX));
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"9223372036854775808", 19, &value) ==
          S(GO_ATOI_RANGE));
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"\xff", 1, &value) == S(INVALID_UTF8));
    CHECK(pulsar_routing_go_atoi(NULL, 0, &value) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_go_atoi((const uint8_t *)"1", 1, NULL) == S(NULL_PARAMETER));
    CHECK(value == -7);
}

static void test_kafka_murmur2_hasher(void) {
    const char *data = "giberish123456789";
    const size_t len = strlen(data);
    uint32_t whole = SENTINEL;
    CHECK(pulsar_routing_kafka_murmur2((const uint8_t *)data, len, &whole) == S(OK));
    /* librdkafka's unit test value, which matches Java. */
    CHECK((whole & 0x7fffffffu) == 257239820u);
    for (size_t cut = 0; cut <= len; cut++) {
        pulsar_routing_kafka_murmur2_hasher hasher;
        uint32_t got = SENTINEL;
        CHECK(pulsar_routing_kafka_murmur2_hasher_init(&hasher, len) == S(OK));
        CHECK(pulsar_routing_kafka_murmur2_hasher_update(&hasher, (const uint8_t *)data, cut) ==
              S(OK));
        if (cut < len) {
            CHECK(pulsar_routing_kafka_murmur2_hasher_finalize(&hasher, &got) ==
                  S(KAFKA_MURMUR2_LENGTH_MISMATCH));
            CHECK(got == SENTINEL);
        }
        CHECK(pulsar_routing_kafka_murmur2_hasher_update(&hasher, (const uint8_t *)data + cut,
                                                         len - cut) == S(OK));
        CHECK(pulsar_routing_kafka_murmur2_hasher_finalize(&hasher, &got) == S(OK));
        CHECK(got == whole);
    }
    pulsar_routing_kafka_murmur2_hasher hasher;
    uint32_t got = SENTINEL;
    CHECK(pulsar_routing_kafka_murmur2_hasher_init(NULL, 0) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_murmur2_hasher_init(&hasher, 1) == S(OK));
    CHECK(pulsar_routing_kafka_murmur2_hasher_update(NULL, (const uint8_t *)"x", 1) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_murmur2_hasher_update(&hasher, NULL, 0) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_murmur2_hasher_finalize(NULL, &got) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_kafka_murmur2_hasher_finalize(&hasher, NULL) == S(NULL_PARAMETER));
    /* Two bytes fed for one announced: refused even after "enough". */
    CHECK(pulsar_routing_kafka_murmur2_hasher_update(&hasher, (const uint8_t *)"xy", 2) == S(OK));
    CHECK(pulsar_routing_kafka_murmur2_hasher_finalize(&hasher, &got) ==
          S(KAFKA_MURMUR2_LENGTH_MISMATCH));
    CHECK(got == SENTINEL);
    CHECK(pulsar_routing_status_message(S(KAFKA_MURMUR2_LENGTH_MISMATCH)) != NULL);
}

int main(void) {
    test_config_and_keying();
    test_keyless_state_machines();
    test_profile_router_arguments();
    test_load_stats();
    test_built_in_partitioner();
    test_java_client_partitioner();
    test_librdkafka_producer();
    test_librdkafka_functions();
    test_status_messages();
    test_one_shot_functions();
    test_kafka_murmur2_hasher();
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
