/*
 * One round-robin router shared by several threads, as the header promises
 * is safe: without batching, every keyless call takes the next value of one
 * atomic counter, so however the calls interleave, the partitions handed
 * out are exactly those of the counter values start .. start + total - 1.
 *
 * Usage: threads. Prints "threads: N passed, M failed"; exits non-zero on a
 * failure. Built by scripts/test-c.sh with -pthread and the sanitizers.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "pulsar_routing.h"

enum { THREADS = 8, CALLS = 20000, PARTITIONS = 7, START = 2147483600 };

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
        /* Keyed calls interleaved with them must not touch the counter. */
        if (pulsar_routing_round_robin_router_choose_partition(w->router, key, PARTITIONS, 0, &p) !=
            PULSAR_ROUTING_STATUS_OK) {
            w->errors++;
        }
    }
    return NULL;
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
    printf("threads: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
