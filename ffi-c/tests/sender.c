/* The sender readiness gate and the pending queue from C: a slow broker
 * fills the connection, a leader change forces a metadata refresh that
 * pauses sends, and the pending queue fails or blocks when full.
 *
 * Then every sender and pending-queue function with NULL for each of its
 * pointers (NULL_PARAMETER, even with a length of 0) and with out-of-range
 * arguments: unknown enumeration values (SENDER_UNKNOWN_VALUE), unknown node
 * ids, negative and overflowing numbers, NaN and infinite jitter draws,
 * events that do not apply in the node's state. Every output is poisoned
 * before a failing call and must still be poisoned after it, and a failing
 * call must leave the gate and the queue as they were.
 *
 * Build (from the repository root, after cargo build -p pulsar-routing-ffi):
 *   gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all -I include \
 *       ffi-c/tests/sender.c -o sender -L <target>/debug \
 *       -l:libpulsar_routing.so -Wl,-rpath,<target>/debug
 * Prints "sender: N passed, 0 failed"; exits 1 on any failure. */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pulsar_routing.h"

#define CHECK(call, want)                                                         \
    do {                                                                          \
        pulsar_routing_status got_ = (call);                                      \
        if (got_ != (want)) {                                                     \
            fprintf(stderr, "%s:%d: %s = %u (%s), want %u\n", __FILE__, __LINE__, \
                    #call, (unsigned)got_, pulsar_routing_status_message(got_),   \
                    (unsigned)(want));                                            \
            return 1;                                                             \
        }                                                                         \
    } while (0)

static int expect_message(const pulsar_routing_readiness *r, const char *want) {
    uint8_t buf[256];
    size_t written = 0;
    CHECK(pulsar_routing_readiness_message(r, buf, sizeof buf, &written), PULSAR_ROUTING_STATUS_OK);
    if (written != strlen(want) || memcmp(buf, want, written) != 0) {
        fprintf(stderr, "message %.*s, want %s\n", (int)written, (const char *)buf, want);
        return 1;
    }
    return 0;
}

/* The scenario: returns 0 when every step did what it should. */
static int scenario(void) {
    pulsar_routing_sender_config config;
    CHECK(pulsar_routing_sender_config_default(&config), PULSAR_ROUTING_STATUS_OK);
    assert(config.max_in_flight == 5 && config.enable_idempotence);

    pulsar_routing_sender_gate *gate = NULL;
    const int32_t ids[] = {1, 2};
    config.max_in_flight = 6;
    CHECK(pulsar_routing_sender_gate_new(&config, ids, 2, &gate),
          PULSAR_ROUTING_STATUS_SENDER_MAX_IN_FLIGHT_TOO_LARGE_FOR_IDEMPOTENCE);
    assert(gate == NULL);
    config.max_in_flight = 5;
    CHECK(pulsar_routing_sender_gate_new(&config, ids, 2, &gate), PULSAR_ROUTING_STATUS_OK);

    pulsar_routing_readiness r;
    CHECK(pulsar_routing_sender_gate_ready(gate, 1, 0, &r), PULSAR_ROUTING_STATUS_OK);
    assert(r.reason == PULSAR_ROUTING_READINESS_INITIATE_CONNECT);
    CHECK(pulsar_routing_sender_gate_connection_event(gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED, 1, 0.5),
          PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_sender_gate_connection_event(gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED, 2, 0.5),
          PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_sender_gate_metadata_event(gate, PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED, 3, 0.5),
          PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_sender_gate_metadata_event(gate, PULSAR_ROUTING_METADATA_EVENT_UPDATED, 3, 0.5),
          PULSAR_ROUTING_STATUS_OK);

    /* A slow broker: five requests, then the gate holds the node. */
    for (int i = 0; i < 5; i++) {
        CHECK(pulsar_routing_sender_gate_send(gate, 1, 4), PULSAR_ROUTING_STATUS_OK);
    }
    CHECK(pulsar_routing_sender_gate_send(gate, 1, 4), PULSAR_ROUTING_STATUS_SENDER_NOT_READY);
    CHECK(pulsar_routing_sender_gate_check(gate, 1, 4, &r), PULSAR_ROUTING_STATUS_OK);
    if (expect_message(&r, "node 1 not ready: in flight 5/5")) return 1;

    /* A leader change: the refresh pauses sends once retry.backoff.ms passed. */
    CHECK(pulsar_routing_sender_gate_response(gate, 1, PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER),
          PULSAR_ROUTING_STATUS_OK);
    int32_t candidates[] = {2, 1};
    pulsar_routing_readiness reasons[2];
    size_t kept = 99;
    CHECK(pulsar_routing_sender_gate_filter_ready(gate, candidates, 2, 103, reasons, &kept),
          PULSAR_ROUTING_STATUS_OK);
    assert(kept == 0);
    assert(reasons[0].reason == PULSAR_ROUTING_READINESS_INITIATE_CONNECT);
    assert(reasons[1].reason == PULSAR_ROUTING_READINESS_METADATA_DUE);
    assert(reasons[1].metadata_update_requested);

    pulsar_routing_sender_counters counters;
    CHECK(pulsar_routing_sender_gate_counters(gate, 103, &counters), PULSAR_ROUTING_STATUS_OK);
    assert(counters.connection_count == 2 && counters.connection_creation_total == 1);
    assert(counters.in_flight_requests_count == 4 && counters.metadata_age_ms == 100);
    pulsar_routing_sender_gate_free(gate);
    pulsar_routing_sender_gate_free(NULL);

    /* The Pulsar pending queue. */
    pulsar_routing_pending_queue queue;
    CHECK(pulsar_routing_pending_queue_init(&queue, 1, false), PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_pending_queue_try_enqueue(&queue), PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_pending_queue_try_enqueue(&queue), PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_IS_FULL);
    assert(strcmp(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_IS_FULL),
                  "Producer send queue is full") == 0);
    CHECK(pulsar_routing_pending_queue_init(&queue, 1, true), PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_pending_queue_try_enqueue(&queue), PULSAR_ROUTING_STATUS_OK);
    CHECK(pulsar_routing_pending_queue_try_enqueue(&queue), PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_WOULD_BLOCK);
    uint64_t need = 0;
    CHECK(pulsar_routing_required_max_pending_messages(5000, 2500, &need), PULSAR_ROUTING_STATUS_OK);
    assert(need == 12500);
    return 0;
}

/* ---- NULL and out-of-range arguments ---- */

/* Out of range for every enumeration of the header. */
#define BAD_ENUM 0xFFFFu
#define POISON 0xA5

static unsigned long passed, failed;

/* Outputs, poisoned before each call. */
static uint8_t buf[256];
static uint64_t u64_out;
static uint32_t u32_out;
static size_t size_out;
static pulsar_routing_sender_config config_out;
static pulsar_routing_sender_gate *gate_out;
static pulsar_routing_readiness readiness_out[4];
static pulsar_routing_sender_counters counters_out;
static pulsar_routing_pending_queue queue_out;

static struct {
    void *p;
    size_t n;
} outputs[] = {
    {buf, sizeof buf},
    {&u64_out, sizeof u64_out},
    {&u32_out, sizeof u32_out},
    {&size_out, sizeof size_out},
    {&config_out, sizeof config_out},
    {&gate_out, sizeof gate_out},
    {readiness_out, sizeof readiness_out},
    {&counters_out, sizeof counters_out},
    {&queue_out, sizeof queue_out},
};
enum { OUTPUTS = sizeof outputs / sizeof outputs[0] };

static void poison(void) {
    for (int i = 0; i < OUTPUTS; i++) memset(outputs[i].p, POISON, outputs[i].n);
}

static bool poisoned(const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t j = 0; j < n; j++) {
        if (b[j] != POISON) return false;
    }
    return true;
}

/* The index of the first output the call wrote, or -1. */
static int written_output(void) {
    for (int i = 0; i < OUTPUTS; i++) {
        if (!poisoned(outputs[i].p, outputs[i].n)) return i;
    }
    return -1;
}

/* `call` is the text of the call: its function name ends at the "(". */
static void check(const char *call, const char *what, int line, pulsar_routing_status expected,
                  pulsar_routing_status got, bool must_not_write) {
    int name_len = (int)strcspn(call, "(");
    int written = must_not_write ? written_output() : -1;
    if (got == expected && written < 0) {
        passed++;
        return;
    }
    failed++;
    if (got != expected) {
        fprintf(stderr, "sender.c:%d: FAIL %.*s (%s): status %u (%s), expected %u (%s)\n", line,
                name_len, call, what, (unsigned)got, pulsar_routing_status_message(got),
                (unsigned)expected, pulsar_routing_status_message(expected));
    } else {
        fprintf(stderr, "sender.c:%d: FAIL %.*s (%s): failed but wrote output %d\n", line,
                name_len, call, what, written);
    }
}

/* A call that must fail with `status` and write no output. */
#define EXPECT(status, call, what)                                                  \
    do {                                                                            \
        poison();                                                                   \
        pulsar_routing_status got_ = (call);                                        \
        check(#call, what, __LINE__, PULSAR_ROUTING_STATUS_##status, got_, true);   \
    } while (0)

/* A call that must succeed (its outputs are then checked by the caller). */
#define EXPECT_OK(call, what)                                                       \
    do {                                                                            \
        poison();                                                                   \
        pulsar_routing_status got_ = (call);                                        \
        check(#call, what, __LINE__, PULSAR_ROUTING_STATUS_OK, got_, false);        \
    } while (0)

#define EXPECT_TRUE(cond, what)                                                     \
    do {                                                                            \
        if (cond) {                                                                 \
            passed++;                                                               \
        } else {                                                                    \
            failed++;                                                               \
            fprintf(stderr, "sender.c:%d: FAIL %s: %s\n", __LINE__, what, #cond);   \
        }                                                                           \
    } while (0)

static bool same_readiness(const pulsar_routing_readiness *a, const pulsar_routing_readiness *b) {
    return a->node == b->node && a->reason == b->reason && a->state == b->state &&
           a->in_flight == b->in_flight && a->max_in_flight == b->max_in_flight &&
           a->metadata_age_ms == b->metadata_age_ms &&
           a->metadata_update_requested == b->metadata_update_requested &&
           a->backoff_remaining_ms == b->backoff_remaining_ms;
}

/* What can be observed of a gate at one instant, without changing it. */
typedef struct {
    pulsar_routing_readiness nodes[2];
    pulsar_routing_sender_counters counters;
    uint64_t time_to_update;
} gate_view;

static gate_view view(const pulsar_routing_sender_gate *gate, uint64_t now_ms) {
    gate_view v;
    memset(&v, 0, sizeof v);
    const pulsar_routing_status ok = PULSAR_ROUTING_STATUS_OK;
    if (pulsar_routing_sender_gate_check(gate, 1, now_ms, &v.nodes[0]) != ok ||
        pulsar_routing_sender_gate_check(gate, 2, now_ms, &v.nodes[1]) != ok ||
        pulsar_routing_sender_gate_counters(gate, now_ms, &v.counters) != ok ||
        pulsar_routing_sender_gate_time_to_next_metadata_update(gate, now_ms,
                                                                &v.time_to_update) != ok) {
        fprintf(stderr, "could not view the gate\n");
        failed++;
    }
    return v;
}

static bool same_view(const gate_view *a, const gate_view *b) {
    return same_readiness(&a->nodes[0], &b->nodes[0]) &&
           same_readiness(&a->nodes[1], &b->nodes[1]) &&
           a->counters.connection_count == b->counters.connection_count &&
           a->counters.connection_creation_total == b->counters.connection_creation_total &&
           a->counters.in_flight_requests_count == b->counters.in_flight_requests_count &&
           a->counters.metadata_age_ms == b->counters.metadata_age_ms &&
           a->time_to_update == b->time_to_update;
}

/* A failing call on `gate` at time 10: checks the status, that no output
   was written and that the gate did not change. */
#define EXPECT_GATE(status, gate, call, what)                                       \
    do {                                                                            \
        gate_view before_ = view(gate, 10);                                         \
        EXPECT(status, call, what);                                                 \
        gate_view after_ = view(gate, 10);                                          \
        EXPECT_TRUE(same_view(&before_, &after_), what ": the gate is unchanged");  \
    } while (0)

static uint32_t pending_of(const pulsar_routing_pending_queue *queue) {
    uint32_t n = UINT32_MAX;
    if (pulsar_routing_pending_queue_pending(queue, &n) != PULSAR_ROUTING_STATUS_OK) failed++;
    return n;
}

static void config_and_gate_new(const pulsar_routing_sender_config *defaults) {
    const int32_t ids[] = {1, 2};
    pulsar_routing_sender_config config = *defaults;

    /* pulsar_routing_sender_config_default */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_config_default(NULL), "config_out");

    /* pulsar_routing_sender_gate_new: NULL pointers, even with no nodes. */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_new(NULL, ids, 2, &gate_out), "config");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_new(&config, NULL, 2, &gate_out),
           "node_ids");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_new(&config, NULL, 0, &gate_out),
           "node_ids with num_nodes 0");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_new(&config, ids, 2, NULL), "gate_out");
    /* A NULL pointer wins over a bad setting. */
    config.max_in_flight = 0;
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_new(&config, ids, 2, NULL),
           "gate_out and max_in_flight 0");

    /* max.in.flight.requests.per.connection below 1, as KafkaProducer's
       ConfigDef refuses it. */
    const int64_t too_small[] = {0, -1, INT32_MIN, INT64_MIN};
    for (size_t i = 0; i < sizeof too_small / sizeof too_small[0]; i++) {
        for (int idempotence = 0; idempotence < 2; idempotence++) {
            config = *defaults;
            config.max_in_flight = too_small[i];
            config.enable_idempotence = idempotence;
            EXPECT(SENDER_MAX_IN_FLIGHT_TOO_SMALL,
                   pulsar_routing_sender_gate_new(&config, ids, 2, &gate_out), "max_in_flight < 1");
        }
    }
    /* More than 5 with idempotence, including what overflows a Java int. */
    const int64_t too_large[] = {6, INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)UINT32_MAX + 1,
                                 INT64_MAX};
    for (size_t i = 0; i < sizeof too_large / sizeof too_large[0]; i++) {
        config = *defaults;
        config.max_in_flight = too_large[i];
        EXPECT(SENDER_MAX_IN_FLIGHT_TOO_LARGE_FOR_IDEMPOTENCE,
               pulsar_routing_sender_gate_new(&config, ids, 2, &gate_out),
               "max_in_flight > 5 with idempotence");
    }
    /* Without idempotence any positive value is accepted; beyond a Java
       int the limit is unreachable (capped at UINT32_MAX). */
    for (size_t i = 0; i < sizeof too_large / sizeof too_large[0]; i++) {
        config = *defaults;
        config.enable_idempotence = false;
        config.max_in_flight = too_large[i];
        pulsar_routing_sender_gate *g = NULL;
        EXPECT_OK(pulsar_routing_sender_gate_new(&config, ids, 2, &g), "large max_in_flight");
        pulsar_routing_readiness r;
        EXPECT_TRUE(g != NULL &&
                        pulsar_routing_sender_gate_check(g, 1, 0, &r) == PULSAR_ROUTING_STATUS_OK &&
                        r.max_in_flight == (too_large[i] > (int64_t)UINT32_MAX
                                                ? UINT32_MAX
                                                : (uint32_t)too_large[i]),
                    "large max_in_flight is kept or capped");
        pulsar_routing_sender_gate_free(g);
    }

    /* Duplicate node ids. */
    config = *defaults;
    const int32_t dup[] = {1, 2, 1};
    EXPECT(SENDER_DUPLICATE_NODE, pulsar_routing_sender_gate_new(&config, dup, 3, &gate_out),
           "duplicate node");
    const int32_t dup_extremes[] = {INT32_MIN, INT32_MAX, -1, INT32_MIN};
    EXPECT(SENDER_DUPLICATE_NODE,
           pulsar_routing_sender_gate_new(&config, dup_extremes, 4, &gate_out),
           "duplicate INT32_MIN");

    /* No nodes at all is a valid (if useless) gate: every node is unknown. */
    pulsar_routing_sender_gate *empty = NULL;
    EXPECT_OK(pulsar_routing_sender_gate_new(&config, ids, 0, &empty), "no nodes");
    pulsar_routing_readiness r;
    EXPECT_TRUE(empty != NULL &&
                    pulsar_routing_sender_gate_ready(empty, 1, 0, &r) == PULSAR_ROUTING_STATUS_OK &&
                    r.reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE && r.node == 1,
                "no nodes: node 1 is unknown");
    pulsar_routing_sender_gate_free(empty);

    /* Extreme but valid settings: backoffs and ages of UINT64_MAX, an
       initial backoff above its maximum. Every event at the extreme times
       must answer without a panic (UBSan and the PANIC status would show). */
    config = *defaults;
    config.reconnect_backoff_ms = UINT64_MAX;
    config.reconnect_backoff_max_ms = 1;
    config.metadata_max_age_ms = UINT64_MAX;
    config.retry_backoff_ms = UINT64_MAX;
    config.retry_backoff_max_ms = UINT64_MAX;
    const int32_t extreme_ids[] = {INT32_MIN, INT32_MAX};
    pulsar_routing_sender_gate *g = NULL;
    EXPECT_OK(pulsar_routing_sender_gate_new(&config, extreme_ids, 2, &g), "extreme settings");
    const uint64_t times[] = {0, 1, UINT64_MAX - 1, UINT64_MAX};
    const double draws[] = {0.0, 0.5, 1.0, -1.0, 2.0, NAN, INFINITY, -INFINITY};
    for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
        const double draw = draws[t * 2 % (sizeof draws / sizeof draws[0])];
        const double draw2 = draws[(t * 2 + 1) % (sizeof draws / sizeof draws[0])];
        for (int n = 0; n < 2; n++) {
            int32_t node = extreme_ids[n];
            EXPECT_OK(pulsar_routing_sender_gate_ready(g, node, times[t], readiness_out),
                      "extreme ready");
            EXPECT_OK(pulsar_routing_sender_gate_connection_event(
                          g, node, PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED, times[t], draw),
                      "extreme connected");
            EXPECT_OK(pulsar_routing_sender_gate_connection_event(
                          g, node, PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED, times[t], draw2),
                      "extreme authenticated");
            EXPECT_OK(pulsar_routing_sender_gate_throttle(g, node, UINT64_MAX), "extreme throttle");
            EXPECT_OK(pulsar_routing_sender_gate_connection_event(
                          g, node, PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED, times[t], draw),
                      "extreme disconnected");
        }
        EXPECT_OK(pulsar_routing_sender_gate_metadata_event(
                      g, PULSAR_ROUTING_METADATA_EVENT_FAILED, times[t], draw2),
                  "extreme metadata failed");
        EXPECT_OK(pulsar_routing_sender_gate_metadata_event(
                      g, PULSAR_ROUTING_METADATA_EVENT_UPDATED, times[t], draw),
                  "extreme metadata updated");
        EXPECT_OK(pulsar_routing_sender_gate_time_to_next_metadata_update(g, times[t], &u64_out),
                  "extreme time to next update");
        EXPECT_OK(pulsar_routing_sender_gate_counters(g, times[t], &counters_out),
                  "extreme counters");
        EXPECT_OK(pulsar_routing_sender_gate_check(g, INT32_MAX, times[t], readiness_out),
                  "extreme check");
        /* EXPECT_OK poisons readiness_out: keep a copy. */
        const pulsar_routing_readiness checked = readiness_out[0];
        size_t written = 0;
        EXPECT_OK(pulsar_routing_readiness_message(&checked, buf, sizeof buf, &written),
                  "extreme message");
        EXPECT_TRUE(written > 0 && written <= sizeof buf, "extreme message length");
    }
    pulsar_routing_sender_gate_free(g);
}

static void gate_calls(const pulsar_routing_sender_config *defaults) {
    const int32_t ids[] = {1, 2};
    pulsar_routing_sender_gate *gate = NULL;
    if (pulsar_routing_sender_gate_new(defaults, ids, 2, &gate) != PULSAR_ROUTING_STATUS_OK) {
        fprintf(stderr, "could not build the gate\n");
        failed++;
        return;
    }
    /* Node 1 is READY with an up-to-date metadata; node 2 never connected. */
    const pulsar_routing_status ok = PULSAR_ROUTING_STATUS_OK;
    if (pulsar_routing_sender_gate_connection_event(
            gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_CONNECT, 0, 0.5) != ok ||
        pulsar_routing_sender_gate_connection_event(
            gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED, 0, 0.5) != ok ||
        pulsar_routing_sender_gate_connection_event(
            gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED, 0, 0.5) != ok ||
        pulsar_routing_sender_gate_metadata_event(
            gate, PULSAR_ROUTING_METADATA_EVENT_UPDATED, 0, 0.5) != ok) {
        fprintf(stderr, "could not connect node 1\n");
        failed++;
        pulsar_routing_sender_gate_free(gate);
        return;
    }
    const int32_t unknown[] = {0, -1, 3, INT32_MIN, INT32_MAX};
    enum { UNKNOWN = sizeof unknown / sizeof unknown[0] };

    /* pulsar_routing_sender_gate_free */
    pulsar_routing_sender_gate_free(NULL);
    passed++;

    /* pulsar_routing_sender_gate_ready: an unknown node is an answer, not a
       failure. */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_ready(NULL, 1, 10, readiness_out), "gate");
    EXPECT_GATE(NULL_PARAMETER, gate, pulsar_routing_sender_gate_ready(gate, 2, 10, NULL),
                "readiness_out");
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_OK(pulsar_routing_sender_gate_ready(gate, unknown[i], 10, readiness_out),
                  "unknown node");
        EXPECT_TRUE(readiness_out[0].reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE &&
                        readiness_out[0].node == unknown[i],
                    "ready: unknown node");
    }

    /* pulsar_routing_sender_gate_check */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_check(NULL, 1, 10, readiness_out), "gate");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_check(gate, 1, 10, NULL), "readiness_out");
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_OK(pulsar_routing_sender_gate_check(gate, unknown[i], 10, readiness_out),
                  "unknown node");
        EXPECT_TRUE(readiness_out[0].reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE &&
                        readiness_out[0].node == unknown[i],
                    "check: unknown node");
    }

    /* pulsar_routing_sender_gate_filter_ready: the node array must be left
       as it was on a failure. */
    int32_t nodes[2] = {2, 1};
    EXPECT(NULL_PARAMETER,
           pulsar_routing_sender_gate_filter_ready(NULL, nodes, 2, 10, readiness_out, &size_out),
           "gate");
    EXPECT_GATE(NULL_PARAMETER, gate,
                pulsar_routing_sender_gate_filter_ready(gate, NULL, 2, 10, readiness_out,
                                                        &size_out),
                "nodes");
    EXPECT_GATE(NULL_PARAMETER, gate,
                pulsar_routing_sender_gate_filter_ready(gate, NULL, 0, 10, readiness_out,
                                                        &size_out),
                "nodes with num_nodes 0");
    EXPECT_GATE(NULL_PARAMETER, gate,
                pulsar_routing_sender_gate_filter_ready(gate, nodes, 2, 10, NULL, &size_out),
                "readiness_out");
    EXPECT_GATE(NULL_PARAMETER, gate,
                pulsar_routing_sender_gate_filter_ready(gate, nodes, 0, 10, NULL, &size_out),
                "readiness_out with num_nodes 0");
    EXPECT_GATE(NULL_PARAMETER, gate,
                pulsar_routing_sender_gate_filter_ready(gate, nodes, 2, 10, readiness_out, NULL),
                "kept_out");
    EXPECT_TRUE(nodes[0] == 2 && nodes[1] == 1, "filter_ready: nodes unchanged on failure");
    /* Unknown nodes are dropped, with UNKNOWN_NODE as their reason. */
    int32_t mixed[4] = {INT32_MIN, 1, -1, INT32_MAX};
    EXPECT_OK(pulsar_routing_sender_gate_filter_ready(gate, mixed, 4, 10, readiness_out, &size_out),
              "unknown nodes");
    EXPECT_TRUE(size_out == 1 && mixed[0] == 1, "filter_ready keeps node 1 only");
    EXPECT_TRUE(readiness_out[0].reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE &&
                    readiness_out[0].node == INT32_MIN &&
                    readiness_out[1].reason == PULSAR_ROUTING_READINESS_READY &&
                    readiness_out[2].reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE &&
                    readiness_out[3].reason == PULSAR_ROUTING_READINESS_UNKNOWN_NODE &&
                    readiness_out[3].node == INT32_MAX,
                "filter_ready: the reasons in the order given");
    EXPECT_OK(pulsar_routing_sender_gate_filter_ready(gate, mixed, 0, 10, readiness_out, &size_out),
              "no nodes");
    EXPECT_TRUE(size_out == 0 && poisoned(readiness_out, sizeof readiness_out),
                "filter_ready of 0 nodes writes no readiness");

    /* pulsar_routing_sender_gate_connection_event */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_sender_gate_connection_event(
               NULL, 1, PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED, 10, 0.5),
           "gate");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_connection_event(NULL, 1, BAD_ENUM, 10, 0.5),
           "gate and event");
    const uint32_t bad_events[] = {PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED + 1,
                                   BAD_ENUM, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad_events / sizeof bad_events[0]; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_VALUE, gate,
                    pulsar_routing_sender_gate_connection_event(gate, 1, bad_events[i], 10, 0.5),
                    "event");
    }
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_NODE, gate,
                    pulsar_routing_sender_gate_connection_event(
                        gate, unknown[i], PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED, 10, 0.5),
                    "node");
    }
    /* Events that do not apply: node 1 is READY, node 2 NOT_CONNECTED. */
    EXPECT_GATE(SENDER_INVALID_TRANSITION, gate,
                pulsar_routing_sender_gate_connection_event(
                    gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_CONNECT, 10, 0.5),
                "CONNECT when READY");
    EXPECT_GATE(SENDER_INVALID_TRANSITION, gate,
                pulsar_routing_sender_gate_connection_event(
                    gate, 1, PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED, 10, 0.5),
                "CONNECTED when READY");
    EXPECT_GATE(SENDER_INVALID_TRANSITION, gate,
                pulsar_routing_sender_gate_connection_event(
                    gate, 2, PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED, 10, 0.5),
                "CONNECTED when NOT_CONNECTED");
    EXPECT_GATE(SENDER_INVALID_TRANSITION, gate,
                pulsar_routing_sender_gate_connection_event(
                    gate, 2, PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED, 10, 0.5),
                "AUTHENTICATED when NOT_CONNECTED");

    /* pulsar_routing_sender_gate_throttle */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_throttle(NULL, 1, 20), "gate");
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_NODE, gate,
                    pulsar_routing_sender_gate_throttle(gate, unknown[i], 20), "node");
    }

    /* pulsar_routing_sender_gate_send */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_send(NULL, 1, 10), "gate");
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_NODE, gate,
                    pulsar_routing_sender_gate_send(gate, unknown[i], 10), "node");
    }
    EXPECT_GATE(SENDER_NOT_READY, gate, pulsar_routing_sender_gate_send(gate, 2, 10),
                "node not connected");

    /* pulsar_routing_sender_gate_response */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_sender_gate_response(NULL, 1, PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
           "gate");
    EXPECT_GATE(SENDER_NO_REQUEST_IN_FLIGHT, gate,
                pulsar_routing_sender_gate_response(gate, 1,
                                                    PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
                "nothing in flight");
    EXPECT_OK(pulsar_routing_sender_gate_send(gate, 1, 10), "send");
    const uint32_t bad_outcomes[] = {PULSAR_ROUTING_PRODUCE_OUTCOME_OTHER_ERROR + 1, BAD_ENUM,
                                     UINT32_MAX};
    for (size_t i = 0; i < sizeof bad_outcomes / sizeof bad_outcomes[0]; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_VALUE, gate,
                    pulsar_routing_sender_gate_response(gate, 1, bad_outcomes[i]), "outcome");
    }
    for (int i = 0; i < UNKNOWN; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_NODE, gate,
                    pulsar_routing_sender_gate_response(gate, unknown[i],
                                                        PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
                    "node");
    }
    EXPECT_OK(pulsar_routing_sender_gate_response(gate, 1, PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
              "response");
    EXPECT_GATE(SENDER_NO_REQUEST_IN_FLIGHT, gate,
                pulsar_routing_sender_gate_response(gate, 1,
                                                    PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
                "a second response");

    /* pulsar_routing_sender_gate_metadata_event */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_sender_gate_metadata_event(NULL, PULSAR_ROUTING_METADATA_EVENT_UPDATED,
                                                     10, 0.5),
           "gate");
    const uint32_t bad_metadata[] = {PULSAR_ROUTING_METADATA_EVENT_FAILED + 1, BAD_ENUM,
                                     UINT32_MAX};
    for (size_t i = 0; i < sizeof bad_metadata / sizeof bad_metadata[0]; i++) {
        EXPECT_GATE(SENDER_UNKNOWN_VALUE, gate,
                    pulsar_routing_sender_gate_metadata_event(gate, bad_metadata[i], 10, 0.5),
                    "event");
    }

    /* pulsar_routing_sender_gate_time_to_next_metadata_update */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_sender_gate_time_to_next_metadata_update(NULL, 10, &u64_out), "gate");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_time_to_next_metadata_update(gate, 10, NULL),
           "ms_out");

    /* pulsar_routing_sender_gate_counters */
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_counters(NULL, 10, &counters_out), "gate");
    EXPECT(NULL_PARAMETER, pulsar_routing_sender_gate_counters(gate, 10, NULL), "counters_out");

    /* pulsar_routing_readiness_message */
    pulsar_routing_readiness r;
    if (pulsar_routing_sender_gate_check(gate, 2, 10, &r) != PULSAR_ROUTING_STATUS_OK) failed++;
    EXPECT(NULL_PARAMETER, pulsar_routing_readiness_message(NULL, buf, sizeof buf, &size_out),
           "readiness");
    EXPECT(NULL_PARAMETER, pulsar_routing_readiness_message(&r, NULL, sizeof buf, &size_out),
           "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_readiness_message(&r, NULL, 0, &size_out),
           "buf with len 0");
    EXPECT(NULL_PARAMETER, pulsar_routing_readiness_message(&r, buf, sizeof buf, NULL), "written");
    pulsar_routing_readiness bad = r;
    const uint32_t bad_reasons[] = {PULSAR_ROUTING_READINESS_UNKNOWN_NODE + 1, BAD_ENUM,
                                    UINT32_MAX};
    for (size_t i = 0; i < sizeof bad_reasons / sizeof bad_reasons[0]; i++) {
        bad = r;
        bad.reason = bad_reasons[i];
        EXPECT(SENDER_UNKNOWN_VALUE,
               pulsar_routing_readiness_message(&bad, buf, sizeof buf, &size_out),
               "reason");
        bad = r;
        bad.state = bad_reasons[i] == PULSAR_ROUTING_READINESS_UNKNOWN_NODE + 1
                        ? PULSAR_ROUTING_CONNECTION_STATE_READY + 1
                        : bad_reasons[i];
        EXPECT(SENDER_UNKNOWN_VALUE,
               pulsar_routing_readiness_message(&bad, buf, sizeof buf, &size_out),
               "state");
    }
    /* A buffer too small: the length needed, and nothing in the buffer. */
    size_t needed = 0;
    EXPECT_OK(pulsar_routing_readiness_message(&r, buf, sizeof buf, &needed), "message");
    EXPECT_TRUE(needed > 1, "message length");
    size_t lens[] = {0, 1, needed - 1};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        poison();
        pulsar_routing_status got = pulsar_routing_readiness_message(&r, buf, lens[i], &size_out);
        EXPECT_TRUE(got == PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL && size_out == needed &&
                        poisoned(buf, sizeof buf),
                    "readiness_message: BUFFER_TOO_SMALL gives the length and writes no text");
    }

    pulsar_routing_sender_gate_free(gate);
}

static void pending_queue_calls(void) {
    /* pulsar_routing_pending_queue_init */
    EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_init(NULL, 1, false), "queue");
    EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_init(NULL, -1, false),
           "queue and negative max");
    const int64_t negative[] = {-1, INT32_MIN, INT64_MIN};
    for (size_t i = 0; i < sizeof negative / sizeof negative[0]; i++) {
        EXPECT(MAX_PENDING_MESSAGES_NEGATIVE,
               pulsar_routing_pending_queue_init(&queue_out, negative[i], false),
               "max_pending_messages < 0");
        EXPECT(MAX_PENDING_MESSAGES_NEGATIVE,
               pulsar_routing_pending_queue_init(&queue_out, negative[i], true),
               "max_pending_messages < 0, blocking");
    }
    EXPECT_TRUE(strcmp(pulsar_routing_status_message(
                           PULSAR_ROUTING_STATUS_MAX_PENDING_MESSAGES_NEGATIVE),
                       "maxPendingMessages needs to be >= 0") == 0,
                "MAX_PENDING_MESSAGES_NEGATIVE message is Java's");

    /* Beyond a Java int the limit is unreachable: a large queue accepts. */
    pulsar_routing_pending_queue big;
    EXPECT_OK(pulsar_routing_pending_queue_init(&big, INT64_MAX, false), "INT64_MAX");
    for (int i = 0; i < 3; i++) {
        EXPECT_OK(pulsar_routing_pending_queue_try_enqueue(&big), "enqueue below INT64_MAX");
    }
    EXPECT_TRUE(pending_of(&big) == 3, "three pending");

    /* pulsar_routing_pending_queue_try_enqueue: a full queue is unchanged. */
    EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_try_enqueue(NULL), "queue");
    for (int block = 0; block < 2; block++) {
        pulsar_routing_pending_queue q;
        EXPECT_OK(pulsar_routing_pending_queue_init(&q, 2, block), "init 2");
        EXPECT_OK(pulsar_routing_pending_queue_try_enqueue(&q), "first");
        EXPECT_OK(pulsar_routing_pending_queue_try_enqueue(&q), "second");
        /* Refused twice, with one permit returned in between: the count
           and the limit are unchanged by a refusal. (The queue's bytes
           are not compared: its padding is never initialised.) */
        for (int round = 0; round < 2; round++) {
            if (block) {
                EXPECT(PRODUCER_QUEUE_WOULD_BLOCK, pulsar_routing_pending_queue_try_enqueue(&q),
                       "full, blocking");
            } else {
                EXPECT(PRODUCER_QUEUE_IS_FULL, pulsar_routing_pending_queue_try_enqueue(&q),
                       "full");
            }
            EXPECT_TRUE(pending_of(&q) == 2, "a full queue is unchanged by a refused enqueue");
            if (round == 0) {
                EXPECT_OK(pulsar_routing_pending_queue_complete(&q, 1), "complete one");
                EXPECT_OK(pulsar_routing_pending_queue_try_enqueue(&q), "the permit is reused");
            }
        }

        /* pulsar_routing_pending_queue_complete: more than pending empties
           the queue rather than wrapping. */
        EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_complete(NULL, 1), "queue");
        EXPECT_OK(pulsar_routing_pending_queue_complete(&q, UINT32_MAX), "complete UINT32_MAX");
        EXPECT_TRUE(pending_of(&q) == 0, "complete saturates at 0");
        EXPECT_OK(pulsar_routing_pending_queue_complete(&q, 1), "complete on empty");
        EXPECT_TRUE(pending_of(&q) == 0, "complete on an empty queue");
        EXPECT_OK(pulsar_routing_pending_queue_try_enqueue(&q), "enqueue after complete");
    }

    /* pulsar_routing_pending_queue_pending */
    EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_pending(NULL, &u32_out), "queue");
    EXPECT(NULL_PARAMETER, pulsar_routing_pending_queue_pending(&big, NULL), "pending_out");

    /* pulsar_routing_required_max_pending_messages: ceil(rate * ms / 1000),
       saturating. */
    EXPECT(NULL_PARAMETER, pulsar_routing_required_max_pending_messages(1, 1, NULL),
           "messages_out");
    struct {
        uint64_t rate, window, want;
    } cases[] = {
        {0, UINT64_MAX, 0},
        {UINT64_MAX, 0, 0},
        {1, 1, 1},          /* 0.001 rounds up */
        {1000, 1, 1},
        {1001, 1, 2},
        {UINT64_MAX, 1000, UINT64_MAX},
        {UINT64_MAX, 1001, UINT64_MAX},
        {UINT64_MAX, UINT64_MAX, UINT64_MAX},
        {UINT64_MAX, 1, UINT64_MAX / 1000 + 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EXPECT_OK(pulsar_routing_required_max_pending_messages(cases[i].rate, cases[i].window,
                                                               &u64_out),
                  "required_max_pending_messages");
        if (u64_out != cases[i].want) {
            fprintf(stderr, "required_max_pending_messages(%llu, %llu) = %llu, want %llu\n",
                    (unsigned long long)cases[i].rate, (unsigned long long)cases[i].window,
                    (unsigned long long)u64_out, (unsigned long long)cases[i].want);
            failed++;
        } else {
            passed++;
        }
    }
}

int main(void) {
    if (scenario() != 0) return 1;
    pulsar_routing_sender_config defaults;
    if (pulsar_routing_sender_config_default(&defaults) != PULSAR_ROUTING_STATUS_OK) return 1;
    config_and_gate_new(&defaults);
    gate_calls(&defaults);
    pending_queue_calls();
    printf("sender: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
