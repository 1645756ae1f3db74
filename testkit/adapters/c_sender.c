/*
 * Sends a plan of messages through libpulsar's C API with the router of
 * include/pulsar_routing_libpulsar.h, so that the test broker can record
 * where each one went. The plan, one tab-separated instruction a line:
 *
 *   service  pulsar://127.0.0.1:PORT
 *   run      NAME  TOPIC  PARTITIONS  java_string|murmur3_32  BATCHING(0|1)  START(-1: drawn)
 *   key      ID    HEX          the key's bytes (the C API stops at a NUL)
 *   none     ID    CLOCK_MS|-   no key; the router's clock reads CLOCK_MS (-: the system clock)
 *   pause    MICROS
 *
 * BATCHING is both the Java producer's batching the router copies and this
 * producer's own. The payload is the ID. Output, a JSON object a line: run,
 * then per message sent (with the clock bounds t0_ms/t1_ms around the send)
 * or refused (the client's result), then acked with the start in use.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libpulsar_c_decls.h"
#include "pulsar_routing_libpulsar.h"

typedef struct {
    char kind; /* 'k' key, 'n' none, 'p' pause */
    char *id;
    char *key;
    size_t key_len;
    long long value; /* clock for none (-1: system), micros for pause */
} line_t;

typedef struct {
    int done;
    pulsar_result result;
    long long t0, t1;
} outcome_t;

static long long fake_now = -1;

static int64_t replay_clock(void *ctx) {
    (void)ctx;
    return (int64_t)fake_now;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_sent(pulsar_result result, pulsar_message_id_t *id, void *ctx) {
    outcome_t *o = (outcome_t *)ctx;
    (void)id;
    o->result = result;
    __atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
}

/* libpulsar logs to stdout by default, where the JSON lines go. */
static void log_to_stderr(int level, const char *file, int line, const char *message, void *ctx) {
    (void)ctx;
    if (level >= 2) {
        fprintf(stderr, "%s:%d %s\n", file, line, message);
    }
}

static char *dup_field(const char *s) {
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    memcpy(out, s, n + 1);
    return out;
}

static char *unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex) / 2, i;
    char *out = malloc(n + 1);
    for (i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (char)v;
    }
    out[n] = 0;
    *len = n;
    return out;
}

static void run(pulsar_client_t *client, char **head, line_t *body, size_t count) {
    const char *name = head[1], *topic = head[2];
    int partitions = atoi(head[3]), batching = atoi(head[5]);
    pulsar_routing_libpulsar_options options;
    pulsar_routing_libpulsar_router router;
    pulsar_producer_configuration_t *conf = pulsar_producer_configuration_create();
    pulsar_producer_t *producer = NULL;
    outcome_t *outcomes = calloc(count, sizeof *outcomes);
    size_t i, sent = 0;
    pulsar_result r;

    pulsar_routing_libpulsar_options_default(&options);
    options.scheme = strcmp(head[4], "murmur3_32") == 0 ? PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32
                                                        : PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING;
    options.batching = batching != 0;
    options.start_index = atoll(head[6]);
    for (i = 0; i < count; i++) {
        if (body[i].kind == 'n' && body[i].value >= 0) {
            options.clock = replay_clock;
        }
    }
    if (pulsar_routing_libpulsar_router_init(&router, &options) != PULSAR_ROUTING_STATUS_OK) {
        fprintf(stderr, "%s: router_init failed\n", name);
        exit(1);
    }
    pulsar_routing_libpulsar_install(conf, &router);
    pulsar_producer_configuration_set_batching_enabled(conf, batching);
    pulsar_producer_configuration_set_block_if_queue_full(conf, 1);
    pulsar_producer_configuration_set_max_pending_messages(conf, 100000);
    pulsar_producer_configuration_set_max_pending_messages_across_partitions(conf, 100000);
    r = pulsar_client_create_producer(client, topic, conf, &producer);
    if (r != pulsar_result_Ok) {
        fprintf(stderr, "%s: create_producer: %s\n", topic, pulsar_result_str(r));
        exit(1);
    }
    printf("{\"event\":\"run\",\"run\":\"%s\",\"topic\":\"%s\",\"partitions\":%d}\n", name, topic, partitions);
    for (i = 0; i < count; i++) {
        pulsar_message_t *m;
        if (body[i].kind == 'p') {
            struct timespec ts = {body[i].value / 1000000, (body[i].value % 1000000) * 1000};
            nanosleep(&ts, NULL);
            outcomes[i].done = 1;
            continue;
        }
        m = pulsar_message_create();
        pulsar_message_set_content(m, body[i].id, strlen(body[i].id));
        if (body[i].kind == 'k') {
            pulsar_message_set_partition_key(m, body[i].key);
        }
        fake_now = body[i].kind == 'n' ? body[i].value : -1;
        outcomes[i].t0 = now_ms();
        pulsar_producer_send_async(producer, m, on_sent, &outcomes[i]);
        outcomes[i].t1 = now_ms();
        pulsar_message_free(m);
    }
    pulsar_producer_flush(producer);
    for (i = 0; i < count; i++) {
        while (!__atomic_load_n(&outcomes[i].done, __ATOMIC_ACQUIRE)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    for (i = 0; i < count; i++) {
        if (body[i].kind == 'p') {
            continue;
        }
        if (outcomes[i].result == pulsar_result_Ok) {
            sent++;
            printf("{\"event\":\"sent\",\"run\":\"%s\",\"id\":\"%s\",\"kind\":\"%s\",\"t0_ms\":%lld,\"t1_ms\":%lld}\n",
                   name, body[i].id, body[i].kind == 'k' ? "key" : "none", outcomes[i].t0, outcomes[i].t1);
        } else {
            printf("{\"event\":\"refused\",\"run\":\"%s\",\"id\":\"%s\",\"result\":\"%s\",\"router_status\":%u}\n",
                   name, body[i].id, pulsar_result_str(outcomes[i].result), (unsigned)router.last_error);
        }
    }
    printf("{\"event\":\"acked\",\"run\":\"%s\",\"count\":%zu,\"start\":%lld}\n", name, sent,
           (long long)pulsar_routing_libpulsar_start_index(&router));
    fflush(stdout);
    pulsar_producer_close(producer);
    pulsar_producer_free(producer);
    pulsar_producer_configuration_free(conf);
    pulsar_routing_libpulsar_router_destroy(&router);
    free(outcomes);
}

static int split(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    fields[n++] = p;
    while (*p && n < max) {
        if (*p == '\t') {
            *p = 0;
            fields[n++] = p + 1;
        }
        p++;
    }
    return n;
}

int main(int argc, char **argv) {
    FILE *plan;
    char *buf = NULL, *head[8] = {0}, *fields[8];
    size_t cap = 0, count = 0, room = 0, i;
    ssize_t got;
    line_t *body = NULL;
    pulsar_client_t *client = NULL;
    int have_run = 0;

    if (argc != 2 || (plan = fopen(argv[1], "r")) == NULL) {
        fprintf(stderr, "usage: c_sender PLAN\n");
        return 2;
    }
    while ((got = getline(&buf, &cap, plan)) != -1) {
        int n;
        if (got > 0 && buf[got - 1] == '\n') {
            buf[--got] = 0;
        }
        if (got == 0) {
            continue;
        }
        n = split(buf, fields, 8);
        if (strcmp(fields[0], "service") == 0) {
            pulsar_client_configuration_t *conf = pulsar_client_configuration_create();
            pulsar_client_configuration_set_logger(conf, log_to_stderr, NULL);
            client = pulsar_client_create(fields[1], conf);
            pulsar_client_configuration_free(conf);
        } else if (strcmp(fields[0], "run") == 0 && n == 7) {
            if (have_run) {
                run(client, head, body, count);
                for (i = 0; i < count; i++) {
                    free(body[i].id);
                    free(body[i].key);
                }
                for (i = 0; i < 7; i++) {
                    free(head[i]);
                }
            }
            for (i = 0; i < 7; i++) {
                head[i] = dup_field(fields[i]);
            }
            count = 0;
            have_run = 1;
        } else {
            line_t l = {0, NULL, NULL, 0, -1};
            if (count == room) {
                room = room ? 2 * room : 1024;
                body = realloc(body, room * sizeof *body);
            }
            if (strcmp(fields[0], "key") == 0 && n == 3) {
                l.kind = 'k';
                l.id = dup_field(fields[1]);
                l.key = unhex(fields[2], &l.key_len);
            } else if (strcmp(fields[0], "none") == 0 && n == 3) {
                l.kind = 'n';
                l.id = dup_field(fields[1]);
                l.value = strcmp(fields[2], "-") == 0 ? -1 : atoll(fields[2]);
            } else if (strcmp(fields[0], "pause") == 0 && n == 2) {
                l.kind = 'p';
                l.value = atoll(fields[1]);
            } else {
                fprintf(stderr, "bad plan line: %s\n", fields[0]);
                return 2;
            }
            body[count++] = l;
        }
    }
    if (have_run) {
        run(client, head, body, count);
    }
    pulsar_client_close(client);
    pulsar_client_free(client);
    fclose(plan);
    return 0;
}
