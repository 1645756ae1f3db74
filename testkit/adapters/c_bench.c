/*
 * The C adapter's cost per message against libpulsar's default router, in
 * one process: interleaved rounds of pulsar_producer_send_async with
 * batching, one producer per router on one 12-partition topic. Run by
 * bench_python_c.py:  c-bench URL ROUNDS MESSAGES
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libpulsar_c_decls.h"
#include "pulsar_routing_libpulsar.h"

static void quiet(int level, const char *file, int line, const char *message, void *ctx) {
    (void)level, (void)file, (void)line, (void)message, (void)ctx;
}

static void ignore(pulsar_result result, pulsar_message_id_t *id, void *ctx) { (void)result, (void)id, (void)ctx; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double one(pulsar_producer_t *producer, pulsar_message_t **messages, int count) {
    double start = now_s(), elapsed;
    int i;
    for (i = 0; i < count; i++) {
        pulsar_producer_send_async(producer, messages[i], ignore, NULL);
    }
    elapsed = now_s() - start;
    pulsar_producer_flush(producer);
    return elapsed / count;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static pulsar_producer_t *producer_for(pulsar_client_t *client, pulsar_routing_libpulsar_router *router) {
    pulsar_producer_configuration_t *conf = pulsar_producer_configuration_create();
    pulsar_producer_t *producer = NULL;
    pulsar_producer_configuration_set_batching_enabled(conf, 1);
    pulsar_producer_configuration_set_block_if_queue_full(conf, 1);
    pulsar_producer_configuration_set_max_pending_messages(conf, 200000);
    pulsar_producer_configuration_set_max_pending_messages_across_partitions(conf, 200000);
    if (router != NULL) {
        pulsar_routing_libpulsar_install(conf, router);
    }
    if (pulsar_client_create_producer(client, "bench", conf, &producer) != pulsar_result_Ok) {
        exit(1);
    }
    pulsar_producer_configuration_free(conf);
    return producer;
}

int main(int argc, char **argv) {
    int rounds = argc > 2 ? atoi(argv[2]) : 11, count = argc > 3 ? atoi(argv[3]) : 5000, r, i;
    pulsar_client_configuration_t *client_conf = pulsar_client_configuration_create();
    pulsar_client_t *client;
    pulsar_routing_libpulsar_options options;
    pulsar_routing_libpulsar_router router;
    pulsar_producer_t *plain, *adapted;
    pulsar_message_t **messages = malloc(sizeof *messages * (size_t)count);
    double *t_plain = malloc(sizeof(double) * (size_t)rounds), *t_adapted = malloc(sizeof(double) * (size_t)rounds);
    char key[32];

    if (argc < 2) {
        return 2;
    }
    pulsar_client_configuration_set_logger(client_conf, quiet, NULL);
    client = pulsar_client_create(argv[1], client_conf);
    pulsar_routing_libpulsar_options_default(&options);
    pulsar_routing_libpulsar_router_init(&router, &options);
    plain = producer_for(client, NULL);
    adapted = producer_for(client, &router);
    for (i = 0; i < count; i++) {
        messages[i] = pulsar_message_create();
        pulsar_message_set_content(messages[i], "0123456789012345678901234567890123456789012345678901234567890123", 64);
        snprintf(key, sizeof key, "customer-%06d", i);
        pulsar_message_set_partition_key(messages[i], key);
    }
    one(plain, messages, count);
    one(adapted, messages, count);
    for (r = 0; r < rounds; r++) {
        if (r % 2 == 0) {
            t_plain[r] = one(plain, messages, count);
            t_adapted[r] = one(adapted, messages, count);
        } else {
            t_adapted[r] = one(adapted, messages, count);
            t_plain[r] = one(plain, messages, count);
        }
    }
    qsort(t_plain, (size_t)rounds, sizeof(double), by_value);
    qsort(t_adapted, (size_t)rounds, sizeof(double), by_value);
    printf("c send_async: default %.2f us/msg, adapter %.2f us/msg, ratio %.3f\n", t_plain[rounds / 2] * 1e6,
           t_adapted[rounds / 2] * 1e6, t_adapted[rounds / 2] / t_plain[rounds / 2]);
    for (i = 0; i < count; i++) {
        pulsar_message_free(messages[i]);
    }
    pulsar_producer_close(plain);
    pulsar_producer_close(adapted);
    pulsar_client_close(client);
    pulsar_routing_libpulsar_router_destroy(&router);
    return 0;
}
