/*
 * One round-robin router shared by 8 threads for a million keyless calls,
 * as the header promises is safe: without batching, every keyless call
 * takes the next value of one atomic counter, so however the calls
 * interleave, the partitions handed out are exactly those of the counter
 * values start .. start + total - 1.
 *
 * Then one Key_Shared selector read by several threads at once (select,
 * select_key, the batch, the snapshot), as the header promises is safe for
 * a selector that no thread mutates: every thread must see what one thread
 * saw alone.
 *
 * Usage: threads. Prints "threads: N passed, M failed"; exits non-zero on a
 * failure. Built by scripts/test-c.sh with -pthread and the sanitizers.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "pulsar_routing.h"

/* A million keyless calls in all: 8 threads of 125000. */
enum { THREADS = 8, CALLS = 125000, PARTITIONS = 7, START = 2147483600 };

struct worker {
    pulsar_routing_round_robin_router *router;
    unsigned long counts[PARTITIONS];
    unsigned long errors;
};

static void *route_keyless(void *arg) {
    struct worker *w = arg;
    const pulsar_routing_key none = {PULSAR_ROUTING_KEY_KIND_NONE, NULL, 0};
    const pulsar_routing_key key = {PULSAR_ROUTING_KEY_KIND_STRING, (const uint8_t *)"k1", 2};
    for (int i = 0; i < CALLS; i++) {
        uint32_t p = UINT32_MAX;
        if (pulsar_routing_round_robin_router_choose_partition(w->router, none, PARTITIONS, 0,
                                                               &p) != PULSAR_ROUTING_STATUS_OK ||
            p >= PARTITIONS) {
            w->errors++;
            continue;
        }
        w->counts[p]++;
        /* Keyed calls interleaved with them must not touch the counter
         * (one in 8, to keep the run short under the sanitizers). */
        if (i % 8 == 0 &&
            pulsar_routing_round_robin_router_choose_partition(w->router, key, PARTITIONS, 0, &p) !=
                PULSAR_ROUTING_STATUS_OK) {
            w->errors++;
        }
    }
    return NULL;
}

enum { SELECTOR_CONSUMERS = 50, SLOTS = 65536, KEYS = 64 };

struct reader {
    const pulsar_routing_selector *selector;
    const uint64_t *expected; /* by slot; UINT64_MAX for none */
    const pulsar_routing_str *keys;
    const uint64_t *expected_keys;
    size_t assignments;
    unsigned long errors;
};

static void *read_selector(void *arg) {
    struct reader *r = arg;
    for (uint32_t slot = 0; slot < SLOTS; slot++) {
        uint64_t consumer = UINT64_MAX;
        pulsar_routing_status status = pulsar_routing_selector_select(r->selector, slot, &consumer);
        if ((status == PULSAR_ROUTING_STATUS_OK) != (r->expected[slot] != UINT64_MAX) ||
            consumer != r->expected[slot]) {
            r->errors++;
        }
    }
    for (int round = 0; round < 50; round++) {
        uint64_t consumers[KEYS];
        size_t written = 0;
        if (pulsar_routing_selector_select_keys(r->selector, r->keys, KEYS, UINT64_MAX, consumers,
                                                KEYS, &written) != PULSAR_ROUTING_STATUS_OK ||
            written != KEYS) {
            r->errors++;
            continue;
        }
        for (int k = 0; k < KEYS; k++) {
            uint64_t one = UINT64_MAX;
            if (consumers[k] != r->expected_keys[k] ||
                pulsar_routing_selector_select_key(r->selector, r->keys[k].data, r->keys[k].len,
                                                   &one) != PULSAR_ROUTING_STATUS_OK ||
                one != r->expected_keys[k]) {
                r->errors++;
            }
        }
        pulsar_routing_assignment probe[1];
        size_t needed = 0;
        if (pulsar_routing_selector_assignments(r->selector, probe, 0, &needed) !=
                PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL ||
            needed != r->assignments) {
            r->errors++;
        }
    }
    return NULL;
}

/* A consistent-hashing selector shared by reader threads. Returns the
 * number of failures. */
static unsigned long shared_selector(void) {
    pulsar_routing_consistent_hashing_config config = {
        PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS,
        PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX, SELECTOR_CONSUMERS, 64 * SELECTOR_CONSUMERS};
    pulsar_routing_selector *selector = NULL;
    if (pulsar_routing_selector_new_consistent_hashing(config, &selector) !=
        PULSAR_ROUTING_STATUS_OK) {
        fprintf(stderr, "could not create the selector\n");
        return 1;
    }
    unsigned long errors = 0;
    for (uint64_t c = 0; c < SELECTOR_CONSUMERS; c++) {
        char name[32];
        int len = snprintf(name, sizeof name, "consumer-%d", (int)(c % 7));
        errors += pulsar_routing_selector_add_named(selector, 1000 + c, (const uint8_t *)name,
                                                    (size_t)len) != PULSAR_ROUTING_STATUS_OK;
    }
    static uint64_t expected[SLOTS];
    for (uint32_t slot = 0; slot < SLOTS; slot++) {
        expected[slot] = UINT64_MAX;
        (void)pulsar_routing_selector_select(selector, slot, &expected[slot]);
    }
    static char key_text[KEYS][16];
    pulsar_routing_str keys[KEYS];
    uint64_t expected_keys[KEYS];
    for (int k = 0; k < KEYS; k++) {
        int len = snprintf(key_text[k], sizeof key_text[k], "key-%d", k * 7919);
        keys[k] = (pulsar_routing_str){(const uint8_t *)key_text[k], (size_t)len};
        errors += pulsar_routing_selector_select_key(selector, keys[k].data, keys[k].len,
                                                     &expected_keys[k]) != PULSAR_ROUTING_STATUS_OK;
    }
    pulsar_routing_assignment probe[1];
    size_t assignments = 0;
    errors += pulsar_routing_selector_assignments(selector, probe, 0, &assignments) !=
              PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL;
    struct reader readers[THREADS];
    pthread_t threads[THREADS];
    int started = 0;
    for (int t = 0; t < THREADS; t++) {
        readers[t] = (struct reader){selector, expected, keys, expected_keys, assignments, 0};
        if (pthread_create(&threads[t], NULL, read_selector, &readers[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            errors++;
            break;
        }
        started++;
    }
    for (int t = 0; t < started; t++) {
        pthread_join(threads[t], NULL);
        errors += readers[t].errors;
    }
    pulsar_routing_selector_free(selector);
    if (errors > 0) fprintf(stderr, "shared selector: %lu disagreements\n", errors);
    return errors;
}

int main(void) {
    pulsar_routing_round_robin_router *router = NULL;
    /* The start is near INT32_MAX, so the counter wraps during the run. */
    if (pulsar_routing_round_robin_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING, START,
                                              false, 0, &router) != PULSAR_ROUTING_STATUS_OK) {
        fprintf(stderr, "could not create the router\n");
        return 1;
    }
    struct worker workers[THREADS] = {{0}};
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        workers[t].router = router;
        if (pthread_create(&threads[t], NULL, route_keyless, &workers[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    unsigned long got[PARTITIONS] = {0}, errors = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        errors += workers[t].errors;
        for (int p = 0; p < PARTITIONS; p++) got[p] += workers[t].counts[p];
    }
    pulsar_routing_round_robin_router_free(router);

    /* The same counter values in one thread, through signSafeMod. */
    unsigned long expected[PARTITIONS] = {0};
    for (int64_t i = 0; i < (int64_t)THREADS * CALLS; i++) {
        int32_t counter = (int32_t)(uint32_t)((uint32_t)START + (uint32_t)i);
        int32_t p = 0;
        if (pulsar_routing_sign_safe_mod(counter, PARTITIONS, &p) != PULSAR_ROUTING_STATUS_OK) {
            errors++;
            continue;
        }
        expected[p]++;
    }
    unsigned long passed = 0, failed = errors > 0;
    for (int p = 0; p < PARTITIONS; p++) {
        if (got[p] == expected[p]) {
            passed++;
        } else {
            fprintf(stderr, "partition %d: %lu picks, expected %lu\n", p, got[p], expected[p]);
            failed++;
        }
    }
    if (errors > 0) fprintf(stderr, "%lu calls failed\n", errors);
    if (shared_selector() == 0) {
        passed++;
    } else {
        failed++;
    }
    printf("threads: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
