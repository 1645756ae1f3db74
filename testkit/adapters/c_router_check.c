/*
 * The C adapter's answers without a broker, where the wire cannot go
 * cheaply: partition counts above libpulsar's 16-bit cast, keys that are
 * not UTF-8, the start drawn at the first message and bad options. Exits
 * non-zero on the first wrong answer; prints one JSON line of counts.
 */
#include <stdio.h>
#include <string.h>

#include "libpulsar_c_decls.h"
#include "pulsar_routing_libpulsar.h"

static int failures = 0;

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                               \
        }                                                             \
    } while (0)

static int java(const char *key, int64_t n) {
    uint32_t p = 0;
    CHECK(pulsar_routing_partition_for_key((const uint8_t *)key, strlen(key), n,
                                           PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING, &p) == PULSAR_ROUTING_STATUS_OK);
    return (int)p;
}

int main(void) {
    pulsar_routing_libpulsar_options options;
    pulsar_routing_libpulsar_router router;
    char key[32];
    int i, refused = 0, routed = 0;
    const int64_t n = 70000;

    pulsar_routing_libpulsar_options_default(&options);
    CHECK(pulsar_routing_libpulsar_router_init(&router, &options) == PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_libpulsar_start_index(&router) == -1);
    for (i = 0; i < 5000; i++) {
        int want, got;
        snprintf(key, sizeof key, "key-%d", i);
        want = java(key, n);
        got = pulsar_routing_libpulsar_choose(&router, key, strlen(key), n);
        if (want > PULSAR_ROUTING_LIBPULSAR_MAX_PARTITION) {
            /* libpulsar would cast 65537 to 1: refused instead. */
            CHECK(got == -1);
            refused++;
        } else {
            CHECK(got == want);
            routed++;
        }
    }
    CHECK(router.last_error == PULSAR_ROUTING_STATUS_PROFILE_ILLEGAL_PARTITION);
    CHECK(refused > 0 && routed > 0);
    /* The start is drawn at the first message, in [0, n). */
    CHECK(pulsar_routing_libpulsar_start_index(&router) >= 0 && pulsar_routing_libpulsar_start_index(&router) < n);
    pulsar_routing_libpulsar_router_destroy(&router);

    /* Not UTF-8: routed as Java decodes the bytes ("\xff" reads as U+FFFD). */
    options.batching = false;
    options.start_index = 5;
    CHECK(pulsar_routing_libpulsar_router_init(&router, &options) == PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_libpulsar_choose(&router, "\xff", 1, 12) == java("\xef\xbf\xbd", 12));
    CHECK(pulsar_routing_libpulsar_choose(&router, "", 0, 12) == 0);
    CHECK(pulsar_routing_libpulsar_choose(&router, NULL, 0, 12) == 5);
    CHECK(pulsar_routing_libpulsar_choose(&router, NULL, 0, 12) == 6);
    CHECK(pulsar_routing_libpulsar_choose(&router, NULL, 0, 0) == -1);
    pulsar_routing_libpulsar_router_destroy(&router);

    options.scheme = 7;
    CHECK(pulsar_routing_libpulsar_router_init(&router, &options) == PULSAR_ROUTING_STATUS_UNKNOWN_HASHING_SCHEME);
    options.scheme = PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING;
    options.mode = PULSAR_ROUTING_MESSAGE_ROUTING_MODE_CUSTOM_PARTITION;
    CHECK(pulsar_routing_libpulsar_router_init(&router, &options) == PULSAR_ROUTING_STATUS_UNKNOWN_ROUTING_MODE);

    printf("{\"partitions\":%lld,\"refused_above_32767\":%d,\"routed\":%d,\"failures\":%d}\n", (long long)n, refused,
           routed, failures);
    return failures != 0;
}
