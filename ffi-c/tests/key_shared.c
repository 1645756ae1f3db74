/* Key_Shared selectors from C: growth on demand and the exclusive
 * selector's impact, the same scenario as py/tests/test_key_shared.py
 * (test_growth_beyond_initial_capacity and
 * test_exclusive_impact_is_the_declared_ranges), so C and Python give the
 * same answers to the same calls.
 *
 * Every selector starts with room for one consumer (and one range, one
 * name byte); adds far past that must succeed, because the selector grows
 * on its own with the policy Python uses.
 *
 * Build (from the repository root, after cargo build -p pulsar-routing-ffi):
 *   gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all -I include \
 *       ffi-c/tests/key_shared.c -o key_shared -L <target>/debug \
 *       -l:libpulsar_routing.so -Wl,-rpath,<target>/debug
 * Prints "key_shared: N passed, 0 failed"; exits 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pulsar_routing.h"

#define CHECK_OK(call)                                                          \
    do {                                                                        \
        pulsar_routing_status s_ = (call);                                      \
        CHECK(s_ == PULSAR_ROUTING_STATUS_OK, "%s: %s", #call,                  \
              pulsar_routing_status_message(s_));                               \
    } while (0)

/* The last impact, into fixed arrays. */
typedef struct {
    pulsar_routing_assignment removed[4096], added[4096];
    size_t removed_n, added_n;
} impact;

static pulsar_routing_status last_impact(const pulsar_routing_selector *sel, impact *out) {
    return pulsar_routing_selector_last_impact(sel, out->removed, 4096, &out->removed_n,
                                               out->added, 4096, &out->added_n);
}

static int growth(void) {
    pulsar_routing_selector *auto_split = NULL, *consistent = NULL, *exclusive = NULL;
    CHECK_OK(pulsar_routing_selector_new_auto_split(
        (pulsar_routing_auto_split_config){PULSAR_ROUTING_DEFAULT_RANGE_SIZE, 1}, &auto_split));
    CHECK_OK(pulsar_routing_selector_new_consistent_hashing(
        (pulsar_routing_consistent_hashing_config){20, PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX,
                                                   1, 1},
        &consistent));
    CHECK_OK(pulsar_routing_selector_new_exclusive(
        (pulsar_routing_exclusive_config){1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT},
        &exclusive));
    static impact got;
    char name[400];
    for (int i = 0; i < 1000; i++) {
        CHECK_OK(pulsar_routing_selector_add(auto_split, (uint64_t)i));
        int len = snprintf(name, sizeof name, "consumer-%d-", i);
        memset(name + len, 'x', 300);
        CHECK_OK(pulsar_routing_selector_add_named(consistent, (uint64_t)i, (const uint8_t *)name,
                                                   (size_t)len + 300));
        pulsar_routing_hash_range range = {i * 60, i * 60 + 29};
        CHECK_OK(pulsar_routing_selector_add_ranges(exclusive, (uint64_t)i, &range, 1));
        CHECK_OK(last_impact(exclusive, &got));
        CHECK(got.removed_n == 0 && got.added_n == 1 && got.added[0].consumer == (uint64_t)i &&
                  got.added[0].start == range.start && got.added[0].end == range.end,
              "impact of exclusive add %d", i);
    }
    size_t len = 0;
    CHECK_OK(pulsar_routing_selector_len(auto_split, &len));
    CHECK(len == 1000, "auto split len %zu", len);
    CHECK_OK(pulsar_routing_selector_len(consistent, &len));
    CHECK(len == 1000, "consistent hashing len %zu", len);
    CHECK_OK(pulsar_routing_selector_len(exclusive, &len));
    CHECK(len == 1000, "exclusive len %zu", len);
    pulsar_routing_selector_capacity capacity = {0, 0, 0};
    CHECK_OK(pulsar_routing_selector_get_capacity(exclusive, &capacity));
    /* The shared policy doubles: 1, 2, 4, ..., 1024. */
    CHECK(capacity.max_consumers == 1024 && capacity.max_ranges == 1024,
          "exclusive room %u consumers, %u ranges", capacity.max_consumers,
          capacity.max_ranges);

    /* One consumer with thousands of ranges, far past the room. */
    static pulsar_routing_hash_range many[2768];
    size_t n = 0;
    for (int32_t s = 60000; s < 65536; s += 2) many[n++] = (pulsar_routing_hash_range){s, s};
    CHECK_OK(pulsar_routing_selector_add_ranges(exclusive, 5000, many, n));
    CHECK_OK(last_impact(exclusive, &got));
    CHECK(got.removed_n == 0 && got.added_n == n, "impact of %zu ranges: %zu", n, got.added_n);
    for (size_t i = 0; i < n; i++) {
        CHECK(got.added[i].consumer == 5000 && got.added[i].start == many[i].start &&
                  got.added[i].end == many[i].end,
              "added[%zu]", i);
    }
    uint64_t consumer = 0;
    CHECK_OK(pulsar_routing_selector_select(exclusive, 60002, &consumer));
    CHECK(consumer == 5000, "select 60002: %llu", (unsigned long long)consumer);
    CHECK(pulsar_routing_selector_select(exclusive, 60001, &consumer) ==
              PULSAR_ROUTING_STATUS_NO_CONSUMER,
          "select 60001");
    /* The remove reports the same ranges, removed. */
    CHECK_OK(pulsar_routing_selector_remove(exclusive, 5000));
    CHECK_OK(last_impact(exclusive, &got));
    CHECK(got.added_n == 0 && got.removed_n == n, "impact of the remove");
    CHECK(got.removed[n - 1].start == 65534 && got.removed[n - 1].consumer == 5000,
          "last removed range");

    pulsar_routing_selector_free(auto_split);
    pulsar_routing_selector_free(consistent);
    pulsar_routing_selector_free(exclusive);
    return 0;
}

static int exclusive_impact(void) {
    pulsar_routing_selector *sel = NULL;
    CHECK_OK(pulsar_routing_selector_new_exclusive(
        (pulsar_routing_exclusive_config){1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT}, &sel));
    static impact got;
    /* Declared out of order and past the slots: reported in slot order,
     * clipped to [0, 65535]. */
    const pulsar_routing_hash_range declared[] = {{20000, 29999}, {60000, 70000}, {0, 9999}};
    CHECK_OK(pulsar_routing_selector_add_ranges(sel, 1, declared, 3));
    CHECK_OK(last_impact(sel, &got));
    const pulsar_routing_hash_range want[] = {{0, 9999}, {20000, 29999}, {60000, 65535}};
    CHECK(got.removed_n == 0 && got.added_n == 3, "add impact sizes");
    for (size_t i = 0; i < 3; i++) {
        CHECK(got.added[i].consumer == 1 && got.added[i].start == want[i].start &&
                  got.added[i].end == want[i].end,
              "added[%zu] = [%d, %d]", i, (int)got.added[i].start, (int)got.added[i].end);
    }
    /* A conflict moves nothing. */
    const pulsar_routing_hash_range conflict = {9000, 12000};
    CHECK(pulsar_routing_selector_add_ranges(sel, 2, &conflict, 1) ==
              PULSAR_ROUTING_STATUS_HASH_RANGE_CONFLICT,
          "conflict");
    CHECK_OK(last_impact(sel, &got));
    CHECK(got.removed_n == 0 && got.added_n == 0, "a failed add moved slots");
    CHECK_OK(pulsar_routing_selector_remove(sel, 1));
    CHECK_OK(last_impact(sel, &got));
    CHECK(got.added_n == 0 && got.removed_n == 3 && got.removed[2].end == 65535, "remove impact");
    pulsar_routing_selector_free(sel);

    /* Legacy rules: the gap between one consumer's ranges is its own, and
     * a new consumer inside it takes part of it. */
    CHECK_OK(pulsar_routing_selector_new_exclusive(
        (pulsar_routing_exclusive_config){1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730},
        &sel));
    const pulsar_routing_hash_range two[] = {{0, 100}, {200, 300}};
    CHECK_OK(pulsar_routing_selector_add_ranges(sel, 1, two, 2));
    CHECK_OK(last_impact(sel, &got));
    CHECK(got.added_n == 1 && got.added[0].start == 0 && got.added[0].end == 300,
          "legacy add: the gap is delivered");
    const pulsar_routing_hash_range inside = {140, 160};
    CHECK_OK(pulsar_routing_selector_add_ranges(sel, 2, &inside, 1));
    CHECK_OK(last_impact(sel, &got));
    CHECK(got.removed_n == 1 && got.removed[0].consumer == 1 && got.removed[0].start == 101 &&
              got.removed[0].end == 199,
          "legacy: consumer 1 loses its gap");
    CHECK(got.added_n == 1 && got.added[0].consumer == 2 && got.added[0].start == 140 &&
              got.added[0].end == 160,
          "legacy: consumer 2 gains its range");
    pulsar_routing_selector_free(sel);
    return 0;
}

int main(void) {
    int failed = growth() + exclusive_impact();
    printf("key_shared: %lu passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
