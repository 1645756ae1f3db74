/*
 * Topic lookup through the C API (pulsar-routing spec section 6): a lookup
 * through a leader change, a redirect and a proxy; the redirect limit and
 * the deadline; the partitioned-metadata step and the producer's lookup
 * topics; the coalescing table shared by threads; the lookup throttle.
 * Every lookup function is also called with NULL for each pointer,
 * checking NULL_PARAMETER and that no out-parameter was written.
 *
 * Build (from the repository root, after cargo build -p pulsar-routing-ffi):
 *   gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g -pthread \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all -I include \
 *       ffi-c/tests/lookup.c -o lookup -L <target>/debug \
 *       -l:libpulsar_routing.so -Wl,-rpath,<target>/debug
 * Prints "N passed, 0 failed"; exits 1 on any failure.
 */
#include <pthread.h>
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
#define A(name) PULSAR_ROUTING_LOOKUP_ACTION_##name
#define E(name) PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_##name

static const char *SERVICE = "pulsar://proxy:6650";

static pulsar_routing_lookup_response response(int32_t kind, const char *url, bool authoritative,
                                               bool proxy) {
    pulsar_routing_lookup_response r;
    memset(&r, 0, sizeof r);
    r.response = kind;
    r.broker_service_url = url;
    r.broker_service_url_tls = url;
    r.authoritative = authoritative;
    r.proxy_through_service_url = proxy;
    r.error = -1;
    r.message = NULL;
    return r;
}

static void leader_change_redirect_and_proxy(void) {
    pulsar_routing_lookup_options options;
    CHECK(pulsar_routing_lookup_options_default(&options) == S(OK));
    CHECK(options.max_redirects == 20 && options.operation_timeout_ms == 30000);
    CHECK(options.retry && !options.detect_redirect_loops);

    pulsar_routing_topic_lookup *l = NULL;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 21, &l) == S(OK));
    pulsar_routing_lookup_action a;
    CHECK(pulsar_routing_topic_lookup_start(l, 1000, &a) == S(OK));
    CHECK(a.kind == A(SEND_LOOKUP) && !a.authoritative && a.send_properties);
    CHECK(strcmp(a.logical_address, SERVICE) == 0);
    CHECK(strcmp(a.reason, "first lookup, at the service address, non-authoritative") == 0);

    /* The leader is changing: ServiceNotReady (6) is retried after ~100 ms. */
    pulsar_routing_lookup_response not_ready = response(2, NULL, false, false);
    not_ready.error = 6;
    not_ready.message = "leader changing";
    CHECK(pulsar_routing_topic_lookup_on_response(l, &not_ready, 1005, &a) == S(OK));
    CHECK(a.kind == A(RETRY_AT) && a.error == S(LOOKUP_SERVER_ERROR) && a.server_error == 6);
    CHECK(a.delay_ms >= 90 && a.delay_ms <= 100 && a.at_ms == 1005 + a.delay_ms);
    char why[256];
    snprintf(why, sizeof why,
             "attempt 1 failed (the broker failed the lookup with ServiceNotReady: leader "
             "changing); retriable, backing off %llu ms",
             (unsigned long long)a.delay_ms);
    CHECK(strcmp(a.reason, why) == 0);
    uint8_t buf[256];
    size_t written = 0;
    CHECK(pulsar_routing_topic_lookup_error_message(l, buf, sizeof buf, &written) == S(OK));
    const char *expected = "the broker failed the lookup with ServiceNotReady: leader changing";
    CHECK(written == strlen(expected) && memcmp(buf, expected, written) == 0);
    size_t needed = 0;
    CHECK(pulsar_routing_topic_lookup_error_message(l, buf, 3, &needed) == S(BUFFER_TOO_SMALL));
    CHECK(needed == strlen(expected));

    uint64_t at = a.at_ms;
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(l, at, &a) == S(OK));
    CHECK(a.kind == A(SEND_LOOKUP) && a.attempt == 2 && !a.authoritative);

    pulsar_routing_lookup_response r = response(0, "pulsar://broker-1:6650", true, true);
    CHECK(pulsar_routing_topic_lookup_on_response(l, &r, at + 1, &a) == S(OK));
    /* Java connects to the redirect target directly, whatever the proxy flag. */
    CHECK(a.kind == A(SEND_LOOKUP) && a.authoritative);
    CHECK(strcmp(a.physical_address, "pulsar://broker-1:6650") == 0);
    CHECK(strcmp(a.reason,
                 "redirect 1 to pulsar://broker-1:6650, with the response's authoritative=True") ==
          0);

    r = response(1, "pulsar://broker-2:6650", true, true);
    CHECK(pulsar_routing_topic_lookup_on_response(l, &r, at + 2, &a) == S(OK));
    CHECK(a.kind == A(DONE) && a.use_proxy && a.authoritative && a.attempt == 2);
    CHECK(strcmp(a.logical_address, "pulsar://broker-2:6650") == 0);
    CHECK(strcmp(a.physical_address, "pulsar://broker-1:6650") == 0);
    CHECK(strcmp(a.reason, "pulsar://broker-2:6650 owns the topic; connect through "
                           "pulsar://broker-1:6650") == 0);

    size_t hops = 0;
    CHECK(pulsar_routing_topic_lookup_chain_len(l, &hops) == S(OK) && hops == 2);
    bool auth = false;
    CHECK(pulsar_routing_topic_lookup_chain_hop(l, 0, buf, sizeof buf, &written, &auth) == S(OK));
    CHECK(written == strlen(SERVICE) && memcmp(buf, SERVICE, written) == 0 && !auth);
    CHECK(pulsar_routing_topic_lookup_chain_hop(l, 2, buf, sizeof buf, &written, &auth) ==
          S(LOOKUP_HOP_INDEX_OUT_OF_RANGE));

    CHECK(pulsar_routing_topic_lookup_on_connection_failed(l, at + 3, &a) == S(OK));
    CHECK(a.kind == A(IGNORED));
    pulsar_routing_topic_lookup_free(l);
}

/* Java's lookup deadline is exclusive (ProducerImpl.connectionFailed gives
   up only when now > lookupDeadline): a retriable failure exactly at the
   deadline is retried after the backoff, and the next one, past it, ends
   the lookup. */
static void deadline_is_exclusive(void) {
    pulsar_routing_lookup_options options;
    CHECK(pulsar_routing_lookup_options_default(&options) == S(OK));
    options.lookup_timeout_ms = 1000;
    pulsar_routing_topic_lookup *l = NULL;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, &l) == S(OK));
    pulsar_routing_lookup_action a;
    CHECK(pulsar_routing_topic_lookup_start(l, 0, &a) == S(OK));
    CHECK(pulsar_routing_topic_lookup_on_connection_failed(l, 1000, &a) == S(OK));
    CHECK(a.kind == A(RETRY_AT) && a.error == S(LOOKUP_CONNECTION_FAILED) && a.attempt == 1);
    CHECK(a.delay_ms >= 90 && a.delay_ms <= 100 && a.at_ms == 1000 + a.delay_ms);
    char why[256];
    snprintf(why, sizeof why,
             "attempt 1 failed (Connection to the broker failed); retriable, backing off %llu ms",
             (unsigned long long)a.delay_ms);
    CHECK(strcmp(a.reason, why) == 0);
    uint64_t at = a.at_ms;
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(l, at, &a) == S(OK));
    CHECK(a.kind == A(SEND_LOOKUP) && a.attempt == 2);
    CHECK(strcmp(a.reason, "attempt 2 starts over at the service address") == 0);
    CHECK(pulsar_routing_topic_lookup_on_connection_failed(l, at, &a) == S(OK));
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_DEADLINE_EXCEEDED) && a.attempt == 2);
    snprintf(why, sizeof why,
             "Lookup timed out after %llu ms and 2 attempts; last error: Connection to the "
             "broker failed",
             (unsigned long long)at);
    CHECK(strcmp(a.reason, why) == 0);
    pulsar_routing_topic_lookup_free(l);
}

static void limits_and_deadline(void) {
    pulsar_routing_lookup_options options;
    CHECK(pulsar_routing_lookup_options_default(&options) == S(OK));
    options.retry = false;
    pulsar_routing_topic_lookup *l = NULL;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, &l) == S(OK));
    pulsar_routing_lookup_action a;
    CHECK(pulsar_routing_topic_lookup_start(l, 0, &a) == S(OK));
    char url[64];
    for (int i = 0; i <= 20; i++) {
        snprintf(url, sizeof url, "pulsar://b%d:6650", i);
        pulsar_routing_lookup_response r = response(0, url, false, false);
        CHECK(pulsar_routing_topic_lookup_on_response(l, &r, (uint64_t)i, &a) == S(OK));
    }
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_TOO_MANY_REDIRECTS));
    pulsar_routing_topic_lookup_free(l);

    /* The Go profile reads a fixed 20 responses: the 20th Redirect still
       sends a 21st LOOKUP, whose answer (even a Connect) is not read. */
    options.profile = PULSAR_ROUTING_LOOKUP_PROFILE_GO;
    options.max_redirects = 0;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, &l) == S(OK));
    CHECK(pulsar_routing_topic_lookup_start(l, 0, &a) == S(OK));
    for (int i = 0; i < 20; i++) {
        snprintf(url, sizeof url, "pulsar://b%d:6650", i);
        pulsar_routing_lookup_response r = response(0, url, false, true);
        CHECK(pulsar_routing_topic_lookup_on_response(l, &r, (uint64_t)i, &a) == S(OK));
        CHECK(a.kind == A(SEND_LOOKUP) && !a.send_properties && a.redirects == (uint32_t)i + 1);
        CHECK(strcmp(a.physical_address, SERVICE) == 0);
    }
    {
        pulsar_routing_lookup_response r = response(1, "pulsar://b20:6650", false, false);
        CHECK(pulsar_routing_topic_lookup_on_response(l, &r, 20, &a) == S(OK));
    }
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_GO_REDIRECT_LIMIT));
    pulsar_routing_topic_lookup_free(l);

    /* Retries end at the lookup timeout. */
    CHECK(pulsar_routing_lookup_options_default(&options) == S(OK));
    options.operation_timeout_ms = 1000;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, &l) == S(OK));
    CHECK(pulsar_routing_topic_lookup_start(l, 0, &a) == S(OK));
    uint64_t now = 0;
    unsigned attempts = 0;
    while (a.kind != A(FAILED) && attempts < 1000) {
        CHECK(a.kind == A(SEND_LOOKUP));
        now += 10;
        CHECK(pulsar_routing_topic_lookup_on_throttled(l, 5000, 45000, now, &a) == S(OK));
        if (a.kind == A(RETRY_AT)) {
            CHECK(a.error == S(LOOKUP_TOO_MANY_REQUESTS) && a.at_ms <= 1000);
            now = a.at_ms;
            CHECK(pulsar_routing_topic_lookup_on_retry_timer(l, now, &a) == S(OK));
        }
        attempts++;
    }
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_DEADLINE_EXCEEDED));
    CHECK(now >= 1000);
    pulsar_routing_topic_lookup_free(l);

    options.profile = 7;
    l = NULL;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, &l) == S(UNKNOWN_LOOKUP_PROFILE));
    CHECK(l == NULL);
}

static void metadata_and_plan(void) {
    pulsar_routing_metadata_options options = {30000, 0, false, false, 0};
    pulsar_routing_partitioned_metadata *m = NULL;
    CHECK(pulsar_routing_partitioned_metadata_new(SERVICE, &options, &m) == S(OK));
    pulsar_routing_lookup_action a;
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(START), false, 0, -1, NULL, 0, 0, &a) == S(OK));
    CHECK(a.kind == A(CONNECT) && strcmp(a.physical_address, SERVICE) == 0);
    /* Auto-creation off needs PIP-344, or the fallback. */
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(CONNECTED), false, 0, -1, NULL, 0, 1, &a) == S(OK));
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_FEATURE_NOT_SUPPORTED));
    pulsar_routing_partitioned_metadata_free(m);

    CHECK(pulsar_routing_partitioned_metadata_new(SERVICE, NULL, &m) == S(OK));
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(START), false, 0, -1, NULL, 0, 0, &a) == S(OK));
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(CONNECTED), true, 0, -1, NULL, 0, 1, &a) == S(OK));
    CHECK(a.kind == A(SEND_PARTITIONED_METADATA) && a.metadata_auto_creation);
    /* A non-retriable error fails at once: AuthorizationError (4). */
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(FAILED), false, 0, 4, NULL, 0, 2, &a) == S(OK));
    CHECK(a.kind == A(FAILED) && a.error == S(LOOKUP_SERVER_ERROR) && a.server_error == 4);
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(FAILED), false, 0, 99, NULL, 0, 2, &a) ==
          S(UNKNOWN_SERVER_ERROR));
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, 42, false, 0, -1, NULL, 0, 2, &a) ==
          S(LOOKUP_UNKNOWN_EVENT));
    pulsar_routing_partitioned_metadata_free(m);

    const char *topic = "persistent://t/ns/orders";
    uint8_t buf[64];
    size_t written = 0;
    CHECK(pulsar_routing_producer_start_topic((const uint8_t *)topic, strlen(topic), 3, 2, buf,
                                              sizeof buf, &written) == S(OK));
    const char *expected = "persistent://t/ns/orders-partition-2";
    CHECK(written == strlen(expected) && memcmp(buf, expected, written) == 0);
    CHECK(pulsar_routing_producer_start_topic((const uint8_t *)topic, strlen(topic), 0, 0, buf,
                                              sizeof buf, &written) == S(OK));
    CHECK(written == strlen(topic));
    CHECK(pulsar_routing_producer_start_topic((const uint8_t *)topic, strlen(topic), 3, 3, buf,
                                              sizeof buf, &written) == S(ILLEGAL_PARTITION_INDEX));
}

static pulsar_routing_lookup_coalescer *shared_table;
static int leaders;
static pthread_mutex_t leaders_lock = PTHREAD_MUTEX_INITIALIZER;

static void *join_worker(void *arg) {
    (void)arg;
    const char *names[] = {"region"};
    const char *values[] = {"eu"};
    bool leader = false;
    uint32_t waiters = 0;
    if (pulsar_routing_lookup_coalescer_join(shared_table, "persistent://t/ns/a", names, values, 1,
                                             &leader, &waiters) == S(OK) &&
        leader) {
        pthread_mutex_lock(&leaders_lock);
        leaders++;
        pthread_mutex_unlock(&leaders_lock);
    }
    return NULL;
}

/* Java keys the lookups in flight by (topic, Map<String, String>): the
   properties' order does not matter, and a repeated name keeps its last
   value. */
static void coalescer_keys_are_maps(void) {
    pulsar_routing_lookup_coalescer *c = NULL;
    CHECK(pulsar_routing_lookup_coalescer_new(4, &c) == S(OK));
    const char *n1[] = {"region", "tier"};
    const char *v1[] = {"eu", "gold"};
    const char *n2[] = {"tier", "region"};
    const char *v2[] = {"gold", "eu"};
    const char *n3[] = {"region", "tier", "region"};
    const char *v3[] = {"us", "gold", "eu"};
    bool leader = false;
    uint32_t w = 0;
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", n1, v1, 2, &leader, &w) == S(OK));
    CHECK(leader && w == 1);
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", n2, v2, 2, &leader, &w) == S(OK));
    CHECK(!leader && w == 2);
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", n3, v3, 3, &leader, &w) == S(OK));
    CHECK(!leader && w == 3);
    /* The first value of a repeated name does not count: {region: us} is
       another lookup. */
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", n3, v3, 1, &leader, &w) == S(OK));
    CHECK(leader && w == 1);
    CHECK(pulsar_routing_lookup_coalescer_complete(c, "t", n2, v2, 2, &w) == S(OK) && w == 3);
    pulsar_routing_lookup_coalescer_free(c);
}

static void coalescer_and_throttle(void) {
    CHECK(pulsar_routing_lookup_coalescer_new(2, &shared_table) == S(OK));
    pthread_t threads[8];
    for (int i = 0; i < 8; i++) pthread_create(&threads[i], NULL, join_worker, NULL);
    for (int i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    CHECK(leaders == 1);
    const char *names[] = {"region"};
    const char *values[] = {"eu"};
    uint32_t waiters = 0;
    CHECK(pulsar_routing_lookup_coalescer_complete(shared_table, "persistent://t/ns/a", names,
                                                   values, 1, &waiters) == S(OK));
    CHECK(waiters == 8);
    CHECK(pulsar_routing_lookup_coalescer_complete(shared_table, "persistent://t/ns/a", names,
                                                   values, 1, &waiters) == S(OK));
    CHECK(waiters == 0);
    bool leader = false;
    uint32_t w = 0;
    CHECK(pulsar_routing_lookup_coalescer_join(shared_table, "a", NULL, NULL, 0, &leader, &w) == S(OK));
    CHECK(pulsar_routing_lookup_coalescer_join(shared_table, "b", NULL, NULL, 0, &leader, &w) == S(OK));
    CHECK(pulsar_routing_lookup_coalescer_join(shared_table, "c", NULL, NULL, 0, &leader, &w) ==
          S(LOOKUP_COALESCING_TABLE_FULL));
    pulsar_routing_lookup_coalescer_free(shared_table);

    pulsar_routing_lookup_throttle *t = NULL;
    CHECK(pulsar_routing_lookup_throttle_new(5000, 50000, &t) == S(OK));
    bool send_now = false;
    uint32_t in_flight = 0, queued = 0;
    unsigned sent = 0, waiting = 0;
    for (int i = 0; i < 50000; i++) {
        if (pulsar_routing_lookup_throttle_acquire(t, &send_now) == S(OK)) {
            if (send_now) sent++; else waiting++;
        }
    }
    CHECK(sent == 5000 && waiting == 45000);
    /* Refused: nothing is written; the counts come from _counts. */
    bool untouched = true;
    CHECK(pulsar_routing_lookup_throttle_acquire(t, &untouched) == S(LOOKUP_TOO_MANY_REQUESTS));
    CHECK(untouched);
    CHECK(pulsar_routing_lookup_throttle_counts(t, &in_flight, &queued) == S(OK));
    CHECK(in_flight == 5000 && queued == 45000);
    bool send_queued = false;
    CHECK(pulsar_routing_lookup_throttle_release(t, &send_queued) == S(OK) && send_queued);
    /* A queued lookup given up before it was sent leaves the queue. */
    bool cancelled = false;
    CHECK(pulsar_routing_lookup_throttle_cancel_queued(t, &cancelled) == S(OK) && cancelled);
    CHECK(pulsar_routing_lookup_throttle_counts(t, &in_flight, &queued) == S(OK));
    CHECK(in_flight == 5000 && queued == 44998);
    pulsar_routing_lookup_throttle_free(t);

    pulsar_routing_lookup_throttle *empty = NULL;
    CHECK(pulsar_routing_lookup_throttle_new(1, 1, &empty) == S(OK));
    cancelled = true;
    CHECK(pulsar_routing_lookup_throttle_cancel_queued(empty, &cancelled) == S(OK) && !cancelled);
    pulsar_routing_lookup_throttle_free(empty);
}

/* Java's Backoff without jitter: 100 ms doubling, and once the delays
   handed out since the first would pass the mandatory stop (1000 ms here),
   one delay cut to what is left (never below the initial delay). */
static void backoff(void) {
    pulsar_routing_backoff b;
    uint64_t delay = 0;
    CHECK(pulsar_routing_backoff_init(&b, 100, 60000, 1000) == S(OK));
    const uint64_t now[] = {0, 100, 300, 700, 1000};
    const uint64_t expected[] = {100, 200, 400, 300, 1600};
    for (size_t i = 0; i < sizeof now / sizeof now[0]; i++) {
        CHECK(pulsar_routing_backoff_next(&b, now[i], 0, &delay) == S(OK) && delay == expected[i]);
    }
    /* The random draw lowers a delay by at most a tenth. */
    CHECK(pulsar_routing_backoff_reset(&b) == S(OK));
    CHECK(pulsar_routing_backoff_next(&b, 0, 0, &delay) == S(OK) && delay == 100);
    CHECK(pulsar_routing_backoff_next(&b, 100, 19, &delay) == S(OK) && delay == 200 - 19);
    CHECK(pulsar_routing_backoff_next(&b, 300, 40 + 7, &delay) == S(OK) && delay == 400 - 7);

    delay = 77;
    CHECK(pulsar_routing_backoff_init(NULL, 100, 60000, 1000) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_backoff_next(NULL, 0, 0, &delay) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_backoff_next(&b, 0, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_backoff_reset(NULL) == S(NULL_PARAMETER));
    CHECK(delay == 77);
    bool flag = true;
    CHECK(pulsar_routing_lookup_throttle_cancel_queued(NULL, &flag) == S(NULL_PARAMETER) && flag);
}

static void null_arguments(void) {
    pulsar_routing_lookup_options options;
    CHECK(pulsar_routing_lookup_options_default(NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_options_default(&options) == S(OK));
    pulsar_routing_topic_lookup *l = NULL;
    CHECK(pulsar_routing_topic_lookup_new(NULL, &options, 4, &l) == S(NULL_PARAMETER) && !l);
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, &options, 4, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_new("\xff", &options, 4, &l) == S(INVALID_UTF8) && !l);
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, NULL, 4, &l) == S(OK));

    pulsar_routing_lookup_action a;
    memset(&a, 0xab, sizeof a);
    pulsar_routing_lookup_action untouched = a;
    pulsar_routing_lookup_response r = response(1, "pulsar://b:1", false, false);
    CHECK(pulsar_routing_topic_lookup_start(NULL, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_start(l, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_response(NULL, &r, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_response(l, NULL, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_response(l, &r, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_connection_failed(NULL, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_connection_failed(l, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_request_timeout(NULL, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_request_timeout(l, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_throttled(NULL, 0, 0, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_throttled(l, 0, 0, 0, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(NULL, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(l, 0, NULL) == S(NULL_PARAMETER));
    CHECK(memcmp(&a, &untouched, sizeof a) == 0);
    uint8_t buf[8];
    size_t written = 77;
    bool auth = false;
    CHECK(pulsar_routing_topic_lookup_error_message(NULL, buf, sizeof buf, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_error_message(l, NULL, sizeof buf, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_error_message(l, buf, sizeof buf, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_len(NULL, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_len(l, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_hop(NULL, 0, buf, sizeof buf, &written, &auth) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_hop(l, 0, NULL, sizeof buf, &written, &auth) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_hop(l, 0, buf, sizeof buf, NULL, &auth) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_topic_lookup_chain_hop(l, 0, buf, sizeof buf, &written, NULL) == S(NULL_PARAMETER));
    CHECK(written == 77);
    pulsar_routing_topic_lookup_free(l);
    pulsar_routing_topic_lookup_free(NULL);

    pulsar_routing_partitioned_metadata *m = NULL;
    CHECK(pulsar_routing_partitioned_metadata_new(NULL, NULL, &m) == S(NULL_PARAMETER) && !m);
    CHECK(pulsar_routing_partitioned_metadata_new(SERVICE, NULL, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_partitioned_metadata_new(SERVICE, NULL, &m) == S(OK));
    CHECK(pulsar_routing_partitioned_metadata_on_event(NULL, E(START), false, 0, -1, NULL, 0, 0, &a) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(START), false, 0, -1, NULL, 0, 0, NULL) == S(NULL_PARAMETER));
    /* A NULL message is only allowed with a zero length. */
    CHECK(pulsar_routing_partitioned_metadata_on_event(m, E(FAILED), false, 0, 6, NULL, 3, 0, &a) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_partitioned_metadata_error_message(NULL, buf, sizeof buf, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_partitioned_metadata_error_message(m, NULL, sizeof buf, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_partitioned_metadata_error_message(m, buf, sizeof buf, NULL) == S(NULL_PARAMETER));
    CHECK(written == 77);
    pulsar_routing_partitioned_metadata_free(m);
    pulsar_routing_partitioned_metadata_free(NULL);
    CHECK(pulsar_routing_producer_start_topic(NULL, 1, 0, 0, buf, sizeof buf, &written) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_producer_start_topic((const uint8_t *)"t", 1, 0, 0, NULL, sizeof buf, &written) ==
          S(NULL_PARAMETER));
    CHECK(pulsar_routing_producer_start_topic((const uint8_t *)"t", 1, 0, 0, buf, sizeof buf, NULL) ==
          S(NULL_PARAMETER));

    pulsar_routing_lookup_coalescer *c = NULL;
    CHECK(pulsar_routing_lookup_coalescer_new(1, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_new(1, &c) == S(OK));
    bool leader = false;
    uint32_t w = 99;
    CHECK(pulsar_routing_lookup_coalescer_join(NULL, "t", NULL, NULL, 0, &leader, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_join(c, NULL, NULL, NULL, 0, &leader, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", NULL, NULL, 1, &leader, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", NULL, NULL, 0, NULL, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_join(c, "t", NULL, NULL, 0, &leader, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_complete(NULL, "t", NULL, NULL, 0, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_complete(c, NULL, NULL, NULL, 0, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_coalescer_complete(c, "t", NULL, NULL, 0, NULL) == S(NULL_PARAMETER));
    CHECK(w == 99);
    pulsar_routing_lookup_coalescer_free(c);
    pulsar_routing_lookup_coalescer_free(NULL);

    pulsar_routing_lookup_throttle *t = NULL;
    CHECK(pulsar_routing_lookup_throttle_new(1, 2, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_new(1, 2, &t) == S(OK));
    bool b = false;
    uint32_t x = 0, y = 0;
    CHECK(pulsar_routing_lookup_throttle_acquire(NULL, &b) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_acquire(t, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_counts(NULL, &x, &y) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_counts(t, NULL, &y) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_counts(t, &x, NULL) == S(NULL_PARAMETER));
    CHECK(x == 0 && y == 0);
    CHECK(pulsar_routing_lookup_throttle_release(NULL, &b) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_throttle_release(t, NULL) == S(NULL_PARAMETER));
    pulsar_routing_lookup_throttle_free(t);
    pulsar_routing_lookup_throttle_free(NULL);
}

/* The partitioned-metadata table keys on (topic, auto-creation, fallback),
   as Java's decorator does; NULL and a zero capacity give their statuses. */
static void metadata_coalescer(void) {
    pulsar_routing_lookup_metadata_coalescer *m = NULL;
    CHECK(pulsar_routing_lookup_metadata_coalescer_new(2, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_new(2, &m) == S(OK));
    bool leader = false;
    uint32_t w = 99;
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(NULL, "t", true, false, &leader, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, NULL, true, false, &leader, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", true, false, NULL, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", true, false, &leader, NULL) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "\xff", true, false, &leader, &w) == S(INVALID_UTF8));
    CHECK(pulsar_routing_lookup_metadata_coalescer_complete(NULL, "t", true, false, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_complete(m, NULL, true, false, &w) == S(NULL_PARAMETER));
    CHECK(pulsar_routing_lookup_metadata_coalescer_complete(m, "t", true, false, NULL) == S(NULL_PARAMETER));
    CHECK(w == 99);

    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", true, false, &leader, &w) == S(OK));
    CHECK(leader && w == 1);
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", true, false, &leader, &w) == S(OK));
    CHECK(!leader && w == 2);
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", false, true, &leader, &w) == S(OK));
    CHECK(leader && w == 1);
    /* Both slots taken: a third key (another auto-creation flag) is refused. */
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", false, false, &leader, &w) ==
          S(LOOKUP_COALESCING_TABLE_FULL));
    CHECK(pulsar_routing_lookup_metadata_coalescer_complete(m, "t", true, false, &w) == S(OK));
    CHECK(w == 2);
    CHECK(pulsar_routing_lookup_metadata_coalescer_complete(m, "t", true, false, &w) == S(OK));
    CHECK(w == 0);
    pulsar_routing_lookup_metadata_coalescer_free(m);
    pulsar_routing_lookup_metadata_coalescer_free(NULL);

    /* Out of range: a table of 0 slots takes nothing. */
    CHECK(pulsar_routing_lookup_metadata_coalescer_new(0, &m) == S(OK));
    CHECK(pulsar_routing_lookup_metadata_coalescer_join(m, "t", true, false, &leader, &w) ==
          S(LOOKUP_COALESCING_TABLE_FULL));
    pulsar_routing_lookup_metadata_coalescer_free(m);
}

/* The C lookup handles are used by one thread at a time: the strings of
   an action point into the handle, stay valid until the next call on that
   handle (or its _free), and are copied to be kept. The handle may move to
   another thread between calls; different handles are independent. */
struct moved_lookup {
    pulsar_routing_topic_lookup *lookup;
    pulsar_routing_lookup_action action;
    pulsar_routing_status status;
};

static void *redirect_on_another_thread(void *arg) {
    struct moved_lookup *m = arg;
    pulsar_routing_lookup_response r = response(0, "pulsar://broker-9:6650", true, false);
    m->status = pulsar_routing_topic_lookup_on_response(m->lookup, &r, 2, &m->action);
    return NULL;
}

static void action_strings_belong_to_the_handle(void) {
    pulsar_routing_topic_lookup *l1 = NULL, *l2 = NULL;
    CHECK(pulsar_routing_topic_lookup_new(SERVICE, NULL, 4, &l1) == S(OK));
    CHECK(pulsar_routing_topic_lookup_new("pulsar://other:6650", NULL, 4, &l2) == S(OK));
    pulsar_routing_lookup_action a1, a2;
    CHECK(pulsar_routing_topic_lookup_start(l1, 0, &a1) == S(OK));
    /* A call on another handle leaves l1's strings alone. */
    CHECK(pulsar_routing_topic_lookup_start(l2, 0, &a2) == S(OK));
    CHECK(strcmp(a1.logical_address, SERVICE) == 0);
    CHECK(strcmp(a2.logical_address, "pulsar://other:6650") == 0);
    /* Keep a copy: the next call on l1 replaces the strings. */
    char kept[64];
    snprintf(kept, sizeof kept, "%s", a1.physical_address);

    /* The next call, made on another thread (the calls are serialised by
       the join): the new action's strings are the redirect target. */
    struct moved_lookup m = {l1, {0}, S(PANIC)};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, redirect_on_another_thread, &m) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(m.status == S(OK) && m.action.kind == A(SEND_LOOKUP));
    CHECK(strcmp(m.action.logical_address, "pulsar://broker-9:6650") == 0);
    CHECK(strcmp(kept, SERVICE) == 0);

    /* A call that fails the attempt (RETRY_AT) has no strings. */
    pulsar_routing_lookup_action retry;
    CHECK(pulsar_routing_topic_lookup_on_request_timeout(l1, 3, &retry) == S(OK));
    CHECK(retry.kind == A(RETRY_AT) && retry.logical_address == NULL && retry.physical_address == NULL);
    /* An early retry timer is ignored: the retry stays due at at_ms. */
    pulsar_routing_lookup_action early;
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(l1, retry.at_ms - 1, &early) == S(OK));
    CHECK(early.kind == A(IGNORED));
    CHECK(pulsar_routing_topic_lookup_on_retry_timer(l1, retry.at_ms, &a1) == S(OK));
    CHECK(a1.kind == A(SEND_LOOKUP) && a1.attempt == 2 && strcmp(a1.logical_address, SERVICE) == 0);
    pulsar_routing_topic_lookup_free(l1);
    pulsar_routing_topic_lookup_free(l2);

    /* The metadata lookup: the broker's message of a FAILED event is kept
       for the error text, and early retry timers are ignored too. */
    pulsar_routing_partitioned_metadata *md = NULL;
    CHECK(pulsar_routing_partitioned_metadata_new(SERVICE, NULL, &md) == S(OK));
    pulsar_routing_lookup_action a;
    CHECK(pulsar_routing_partitioned_metadata_on_event(md, E(START), false, 0, -1, NULL, 0, 0, &a) == S(OK));
    CHECK(pulsar_routing_partitioned_metadata_on_event(md, E(CONNECTED), true, 0, -1, NULL, 0, 1, &a) == S(OK));
    const char *text = "Namespace bundle is being unloaded";
    /* ServiceNotReady (6) is retriable. */
    CHECK(pulsar_routing_partitioned_metadata_on_event(md, E(FAILED), false, 0, 6, (const uint8_t *)text,
                                                       strlen(text), 2, &a) == S(OK));
    CHECK(a.kind == A(RETRY_AT) && a.server_error == 6);
    uint8_t buf[256];
    size_t written = 0;
    CHECK(pulsar_routing_partitioned_metadata_error_message(md, buf, sizeof buf, &written) == S(OK));
    CHECK(written > strlen(text) && memcmp(buf + written - strlen(text), text, strlen(text)) == 0);
    uint64_t at = a.at_ms;
    CHECK(pulsar_routing_partitioned_metadata_on_event(md, E(RETRY_TIMER), false, 0, -1, NULL, 0, at - 1, &a) ==
          S(OK));
    CHECK(a.kind == A(IGNORED));
    CHECK(pulsar_routing_partitioned_metadata_on_event(md, E(RETRY_TIMER), false, 0, -1, NULL, 0, at, &a) ==
          S(OK));
    CHECK(a.kind == A(CONNECT) && a.attempt == 2);
    pulsar_routing_partitioned_metadata_free(md);
}

int main(void) {
    leader_change_redirect_and_proxy();
    action_strings_belong_to_the_handle();
    limits_and_deadline();
    deadline_is_exclusive();
    coalescer_keys_are_maps();
    metadata_and_plan();
    coalescer_and_throttle();
    null_arguments();
    metadata_coalescer();
    backoff();
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
