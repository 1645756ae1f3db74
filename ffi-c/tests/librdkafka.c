/*
 * librdkafka's own partitioners against ours, through the C API.
 *
 * librdkafka exports its seven partitioners (rd_kafka_msg_partitioner_*).
 * For a few thousand deterministic keys (NULL and empty keys included) and
 * partition counts from 1 to INT32_MAX, this program calls each of them and
 * pulsar_routing_librdkafka_partition_for_key, and:
 *
 *   - where ours is deterministic (OK), requires librdkafka's partition to
 *     be the same, and pulsar_routing_librdkafka_partition to agree with it
 *     whatever the random draw;
 *   - where ours says librdkafka picks at random
 *     (LIBRDKAFKA_RANDOM_PARTITION), requires librdkafka's partition to be
 *     in range, and pulsar_routing_librdkafka_partition given that same
 *     choice as its draw to return it.
 *
 * It also checks the murmur2 partitioner against the Java client's keyed
 * rule (pulsar_routing_kafka_partition_for_key).
 *
 * The random partitioners need a real topic handle (they ask whether the
 * partition has a leader), so a producer without brokers is created.
 *
 * Build: cc -std=c11 -I include ffi-c/tests/librdkafka.c -lpulsar_routing
 * -lrdkafka. Prints "N passed, 0 failed"; exits 1 on any failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <librdkafka/rdkafka.h>

#include "pulsar_routing.h"

typedef int32_t (*rd_partitioner_fn)(const rd_kafka_topic_t *rkt, const void *key, size_t keylen,
                                     int32_t partition_cnt, void *rkt_opaque, void *msg_opaque);

static const struct {
    pulsar_routing_librdkafka_partitioner ours;
    rd_partitioner_fn theirs;
    const char *name;
} PARTITIONERS[] = {
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_RANDOM, rd_kafka_msg_partitioner_random, "random"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT, rd_kafka_msg_partitioner_consistent,
     "consistent"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
     rd_kafka_msg_partitioner_consistent_random, "consistent_random"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2, rd_kafka_msg_partitioner_murmur2, "murmur2"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_MURMUR2_RANDOM, rd_kafka_msg_partitioner_murmur2_random,
     "murmur2_random"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A, rd_kafka_msg_partitioner_fnv1a, "fnv1a"},
    {PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_FNV1A_RANDOM, rd_kafka_msg_partitioner_fnv1a_random,
     "fnv1a_random"},
};
#define NUM_PARTITIONERS (sizeof PARTITIONERS / sizeof PARTITIONERS[0])

static const int32_t COUNTS[] = {1, 2, 3, 4, 5, 7, 10, 12, 16, 31, 32, 64, 100, 1000, 65536,
                                 2147483647};
#define NUM_COUNTS (sizeof COUNTS / sizeof COUNTS[0])

#define NUM_KEYS 3000
#define MAX_KEY_LEN 80

static unsigned long passed = 0;
static unsigned long failed = 0;

static void check(int ok, const char *what, const char *partitioner, size_t key_index,
                  int32_t count) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed <= 20) {
        fprintf(stderr, "FAIL: %s: %s, key %zu, %" PRId32 " partitions\n", what, partitioner,
                key_index, count);
    }
}

/* xorshift32: the keys are the same on every run. */
static uint32_t rng_state = 0x9e3779b9u;
static uint32_t next_random(void) {
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

/* Key i: 0 is NULL, 1 is empty, then ASCII "key-<i>" and random bytes. */
static const uint8_t *make_key(size_t i, uint8_t *buf, size_t *len) {
    if (i == 0) {
        *len = 0;
        return NULL;
    }
    if (i == 1) {
        *len = 0;
        return buf;
    }
    if (i % 2 == 0) {
        int n = snprintf((char *)buf, MAX_KEY_LEN, "key-%zu", i);
        *len = (size_t)n;
        return buf;
    }
    size_t n = 1 + next_random() % (MAX_KEY_LEN - 1);
    for (size_t j = 0; j < n; j++) {
        buf[j] = (uint8_t)next_random();
    }
    *len = n;
    return buf;
}

int main(void) {
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
        fprintf(stderr, "conf: %s\n", errstr);
        return 1;
    }
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (rk == NULL) {
        fprintf(stderr, "rd_kafka_new: %s\n", errstr);
        return 1;
    }
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, "pulsar-routing-check", NULL);
    if (rkt == NULL) {
        fprintf(stderr, "rd_kafka_topic_new failed\n");
        rd_kafka_destroy(rk);
        return 1;
    }
    printf("librdkafka %s\n", rd_kafka_version_str());

    uint8_t buf[MAX_KEY_LEN];
    unsigned long random_cases = 0;
    for (size_t i = 0; i < NUM_KEYS; i++) {
        size_t len = 0;
        const uint8_t *key = make_key(i, buf, &len);
        /* Every count for the special keys, three per key otherwise. */
        for (size_t c = 0; c < NUM_COUNTS; c++) {
            if (i >= 2 && c % 5 != i % 5 && c != NUM_COUNTS - 1) {
                continue;
            }
            int32_t n = COUNTS[c];
            for (size_t p = 0; p < NUM_PARTITIONERS; p++) {
                const char *name = PARTITIONERS[p].name;
                int32_t theirs = PARTITIONERS[p].theirs(rkt, key, len, n, NULL, NULL);
                uint32_t ours = UINT32_MAX;
                pulsar_routing_status status = pulsar_routing_librdkafka_partition_for_key(
                    PARTITIONERS[p].ours, key, len, n, &ours);
                if (status == PULSAR_ROUTING_STATUS_OK) {
                    check(theirs >= 0 && (uint32_t)theirs == ours, "keyed partition", name, i, n);
                    uint32_t with_draw = UINT32_MAX;
                    check(pulsar_routing_librdkafka_partition(PARTITIONERS[p].ours, key, len, n,
                                                              next_random(), &with_draw) ==
                                  PULSAR_ROUTING_STATUS_OK &&
                              with_draw == ours,
                          "keyed partition ignores the draw", name, i, n);
                } else if (status == PULSAR_ROUTING_STATUS_LIBRDKAFKA_RANDOM_PARTITION) {
                    random_cases++;
                    check(ours == UINT32_MAX, "out-parameter untouched", name, i, n);
                    check(theirs >= 0 && theirs < n, "random partition in range", name, i, n);
                    uint32_t same = UINT32_MAX;
                    check(pulsar_routing_librdkafka_partition(PARTITIONERS[p].ours, key, len, n,
                                                              (uint32_t)theirs, &same) ==
                                  PULSAR_ROUTING_STATUS_OK &&
                              theirs >= 0 && same == (uint32_t)theirs,
                          "same random choice, same partition", name, i, n);
                } else {
                    check(0, pulsar_routing_status_message(status), name, i, n);
                }
            }
            if (key != NULL) {
                uint32_t java = UINT32_MAX;
                int32_t theirs = rd_kafka_msg_partitioner_murmur2(rkt, key, len, n, NULL, NULL);
                check(pulsar_routing_kafka_partition_for_key(key, len, n, &java) ==
                              PULSAR_ROUTING_STATUS_OK &&
                          theirs >= 0 && java == (uint32_t)theirs,
                      "Java client keyed rule equals murmur2", "murmur2", i, n);
            }
        }
    }

    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(rk);
    printf("librdkafka partitioners: %lu random-choice cases, %lu passed, %lu failed\n",
           random_cases, passed, failed);
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
