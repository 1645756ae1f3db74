/*
 * The conformance scenarios (testdata/conformance/README.md) through the C
 * API: `conformance FILE...` runs every scenario of the files, prints one
 * line per disagreement and ends with `conformance c: N/M scenarios agree`.
 * Built and run under ASan and UBSan by scripts/conformance.sh, which
 * generates `conformance_status_names.h` (the status codes and their
 * lowercased names) from include/pulsar_routing.h.
 *
 * Error messages: every failure's full text comes from
 * `pulsar_routing_last_error_message`, read right after the failed call,
 * and is compared with the scenario's message exactly. Only where that
 * call itself fails does the static `pulsar_routing_status_message` stand
 * in; a differing message is then counted as "not reachable from C" and
 * reported on the last line.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "conformance_status_names.h"
#include "pulsar_routing.h"

/* Wide enough for every integer of a scenario, u64 and i64 alike. */
__extension__ typedef __int128 wide;

/* ---- a per-scenario arena and failures ---------------------------------- */

#define MAX_ALLOCS 4096
static void *allocs[MAX_ALLOCS];
static size_t num_allocs;

static void *arena(size_t size) {
    void *p = calloc(1, size ? size : 1);
    if (p == NULL || num_allocs == MAX_ALLOCS) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    allocs[num_allocs++] = p;
    return p;
}

static void arena_free(void) {
    while (num_allocs > 0) {
        free(allocs[--num_allocs]);
    }
}

static char failure[4096];
static unsigned unreachable_messages;

static bool fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- values --------------------------------------------------------------- */

typedef struct {
    const uint8_t *data; /* never NULL */
    size_t len;
    bool present;        /* false for JSON null or a missing argument */
} bytes;

static const uint8_t EMPTY[1] = {0};

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Text (its UTF-8 bytes), {"hex": ...}, or null. */
static bytes to_bytes(const cJSON *v) {
    bytes b = {EMPTY, 0, false};
    if (v == NULL || cJSON_IsNull(v)) return b;
    b.present = true;
    if (cJSON_IsString(v)) {
        size_t n = strlen(v->valuestring);
        uint8_t *copy = arena(n + 1);
        memcpy(copy, v->valuestring, n);
        b.data = copy;
        b.len = n;
        return b;
    }
    const cJSON *hex = cJSON_GetObjectItemCaseSensitive(v, "hex");
    if (cJSON_IsString(hex)) {
        size_t n = strlen(hex->valuestring) / 2;
        uint8_t *out = arena(n + 1);
        for (size_t i = 0; i < n; i++) {
            out[i] = (uint8_t)(hexval(hex->valuestring[2 * i]) * 16 +
                               hexval(hex->valuestring[2 * i + 1]));
        }
        b.data = out;
        b.len = n;
    }
    return b;
}

static bool is_int(const cJSON *v) {
    if (cJSON_IsNumber(v)) return true;
    if (!cJSON_IsString(v)) return false;
    const char *s = v->valuestring;
    if (*s == '-') s++;
    if (!*s) return false;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) return false;
    }
    return true;
}

/* An integer, as a JSON number or a decimal string; big enough for u64. */
static bool to_i128(const cJSON *v, wide *out) {
    if (cJSON_IsNumber(v)) {
        *out = (wide)v->valuedouble;
        return true;
    }
    if (!is_int(v)) return false;
    const char *s = v->valuestring;
    bool neg = *s == '-';
    if (neg) s++;
    wide x = 0;
    for (; *s; s++) x = x * 10 + (*s - '0');
    *out = neg ? -x : x;
    return true;
}

static const cJSON *arg(const cJSON *args, const char *name) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, name);
    return cJSON_IsNull(v) ? NULL : v;
}

static int64_t int_arg(const cJSON *args, const char *name, int64_t dflt) {
    const cJSON *v = arg(args, name);
    wide x;
    if (v == NULL || !to_i128(v, &x)) return dflt;
    return (int64_t)x;
}

static bool has(const cJSON *args, const char *name) { return arg(args, name) != NULL; }

static bool bool_arg(const cJSON *args, const char *name, bool dflt) {
    const cJSON *v = arg(args, name);
    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : dflt;
}

static double double_arg(const cJSON *args, const char *name, double dflt) {
    const cJSON *v = arg(args, name);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *str_arg(const cJSON *args, const char *name, const char *dflt) {
    const cJSON *v = arg(args, name);
    return cJSON_IsString(v) ? v->valuestring : dflt;
}

static cJSON *num(int64_t x) {
    if (x > (INT64_C(1) << 53) || x < -(INT64_C(1) << 53)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRId64, x);
        return cJSON_CreateString(buf);
    }
    return cJSON_CreateNumber((double)x);
}

static cJSON *unum(uint64_t x) {
    if (x > (UINT64_C(1) << 53)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRIu64, x);
        return cJSON_CreateString(buf);
    }
    return cJSON_CreateNumber((double)x);
}

static cJSON *text_or_null(const char *s) { return s ? cJSON_CreateString(s) : cJSON_CreateNull(); }

static cJSON *buf_text(const uint8_t *buf, size_t n) {
    char *s = arena(n + 1);
    memcpy(s, buf, n);
    s[n] = 0;
    return cJSON_CreateString(s);
}

static struct pulsar_routing_key key_of(const cJSON *v) {
    struct pulsar_routing_key k = {PULSAR_ROUTING_KEY_KIND_NONE, NULL, 0};
    if (v == NULL || cJSON_IsNull(v)) return k;
    bytes b = to_bytes(v);
    k.kind = cJSON_IsString(v) ? PULSAR_ROUTING_KEY_KIND_STRING : PULSAR_ROUTING_KEY_KIND_BYTES;
    k.data = b.data;
    k.len = b.len;
    return k;
}

/* ---- outcomes --------------------------------------------------------- */

/* What a step did: a value, or a status with its message. */
typedef struct {
    pulsar_routing_status status;
    char message[2048];
    bool detailed; /* the message came from an API that gives the full text */
    cJSON *value;
} outcome;

/* Right after the failed call: its full message, as Rust and Python give it. */
static void set_error(outcome *o, pulsar_routing_status status) {
    o->status = status;
    size_t written = 0;
    o->detailed = pulsar_routing_last_error_message(status, (uint8_t *)o->message,
                                                    sizeof o->message - 1,
                                                    &written) == PULSAR_ROUTING_STATUS_OK;
    if (o->detailed) {
        o->message[written] = '\0';
    } else {
        snprintf(o->message, sizeof o->message, "%s", pulsar_routing_status_message(status));
    }
}

/* Records a failure; true for OK. */
static bool ok_or(pulsar_routing_status st, outcome *o) {
    if (st != PULSAR_ROUTING_STATUS_OK) set_error(o, st);
    return st == PULSAR_ROUTING_STATUS_OK;
}

/* A result that a status stands for "none" of (no consumer, a random pick). */
static void unum_or_null(outcome *o, pulsar_routing_status st, pulsar_routing_status none, uint64_t x) {
    if (st == none) o->value = cJSON_CreateNull();
    else if (ok_or(st, o)) o->value = unum(x);
}

static void set_detail(outcome *o, const uint8_t *buf, size_t n) {
    if (n >= sizeof o->message) n = sizeof o->message - 1;
    memcpy(o->message, buf, n);
    o->message[n] = 0;
    o->detailed = true;
}

#define TRY(call)                       \
    do {                                \
        pulsar_routing_status st_ = (call); \
        if (st_ != PULSAR_ROUTING_STATUS_OK) { \
            set_error(o, st_);          \
            return;                     \
        }                               \
    } while (0)

/* ---- objects ------------------------------------------------------------- */

typedef struct {
    char name[64];
    char type[64];
    void *handle;
    /* per type extras */
    struct pulsar_routing_bundle_layout layout;
    uint32_t *boundaries;
    struct pulsar_routing_topic_name topic;
    struct pulsar_routing_pending_queue queue;
    int32_t custom_answer;
    bool metadata; /* a PartitionedMetadataLookup */
} object;

#define MAX_OBJECTS 64
static object objects[MAX_OBJECTS];
static size_t num_objects;

static void free_objects(void) {
    for (size_t i = 0; i < num_objects; i++) {
        object *x = &objects[i];
        const char *t = x->type;
        if (!strcmp(t, "RoundRobinRouter")) pulsar_routing_round_robin_router_free(x->handle);
        else if (!strcmp(t, "SinglePartitionRouter")) pulsar_routing_single_partition_router_free(x->handle);
        else if (!strcmp(t, "CustomRouter")) pulsar_routing_custom_router_free(x->handle);
        else if (!strcmp(t, "ProfileRouter")) pulsar_routing_profile_router_free(x->handle);
        else if (!strcmp(t, "KafkaBuiltInPartitioner")) pulsar_routing_kafka_built_in_partitioner_free(x->handle);
        else if (!strcmp(t, "KafkaJavaClientPartitioner")) pulsar_routing_kafka_java_client_partitioner_free(x->handle);
        else if (!strcmp(t, "LibrdkafkaProducer")) pulsar_routing_librdkafka_producer_free(x->handle);
        else if (strstr(t, "Selector")) pulsar_routing_selector_free(x->handle);
        else if (!strcmp(t, "TopicLookup")) pulsar_routing_topic_lookup_free(x->handle);
        else if (!strcmp(t, "PartitionedMetadataLookup")) pulsar_routing_partitioned_metadata_free(x->handle);
        else if (!strcmp(t, "LookupCoalescer")) pulsar_routing_lookup_coalescer_free(x->handle);
        else if (!strcmp(t, "MetadataCoalescer")) pulsar_routing_lookup_metadata_coalescer_free(x->handle);
        else if (!strcmp(t, "LookupThrottle")) pulsar_routing_lookup_throttle_free(x->handle);
        else if (!strcmp(t, "SenderGate")) pulsar_routing_sender_gate_free(x->handle);
        else if (!strcmp(t, "KeyCounts")) pulsar_routing_key_counts_free(x->handle);
    }
    num_objects = 0;
}

/* The latest object of that name: a later `new` replaces an earlier one. */
static object *find(const char *name) {
    for (size_t i = num_objects; i-- > 0;) {
        if (!strcmp(objects[i].name, name)) return &objects[i];
    }
    return NULL;
}

/* ---- names of enumerations ------------------------------------------------ */

typedef struct {
    const char *name;
    int value;
} named;

static bool by_name(const named *table, const char *name, int *out) {
    for (; table->name; table++) {
        if (name && !strcmp(table->name, name)) {
            *out = table->value;
            return true;
        }
    }
    return false;
}

static const char *name_of(const named *table, int value) {
    for (; table->name; table++) {
        if (table->value == value) return table->name;
    }
    return "?";
}

static const named ROUTING_MODES[] = {
    {"RoundRobinPartition", PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION},
    {"SinglePartition", PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION},
    {"CustomPartition", PULSAR_ROUTING_MESSAGE_ROUTING_MODE_CUSTOM_PARTITION},
    {NULL, 0}};
static const named PROFILE_MODES[] = {{"default", PULSAR_ROUTING_PROFILE_MODE_DEFAULT},
                                      {"round_robin", PULSAR_ROUTING_PROFILE_MODE_ROUND_ROBIN},
                                      {"single_partition", PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION},
                                      {NULL, 0}};
static const named ACTION_KINDS[] = {
    {"send_lookup", PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP},
    {"retry_at", PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT},
    {"done", PULSAR_ROUTING_LOOKUP_ACTION_DONE},
    {"failed", PULSAR_ROUTING_LOOKUP_ACTION_FAILED},
    {"ignored", PULSAR_ROUTING_LOOKUP_ACTION_IGNORED},
    {"connect", PULSAR_ROUTING_LOOKUP_ACTION_CONNECT},
    {"send_partitioned_metadata", PULSAR_ROUTING_LOOKUP_ACTION_SEND_PARTITIONED_METADATA},
    {NULL, 0}};
/* The action's error kinds, as the README names them. */
static const named LOOKUP_ERRORS[] = {
    {"server_error", PULSAR_ROUTING_STATUS_LOOKUP_SERVER_ERROR},
    {"empty_response", PULSAR_ROUTING_STATUS_LOOKUP_EMPTY_RESPONSE},
    {"missing_broker_url", PULSAR_ROUTING_STATUS_LOOKUP_MISSING_BROKER_URL},
    {"too_many_redirects", PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REDIRECTS},
    {"go_redirect_limit", PULSAR_ROUTING_STATUS_LOOKUP_GO_REDIRECT_LIMIT},
    {"redirect_loop", PULSAR_ROUTING_STATUS_LOOKUP_REDIRECT_LOOP},
    {"address_too_long", PULSAR_ROUTING_STATUS_LOOKUP_ADDRESS_TOO_LONG},
    {"connection_failed", PULSAR_ROUTING_STATUS_LOOKUP_CONNECTION_FAILED},
    {"request_timeout", PULSAR_ROUTING_STATUS_LOOKUP_REQUEST_TIMEOUT},
    {"too_many_requests", PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REQUESTS},
    {"feature_not_supported", PULSAR_ROUTING_STATUS_LOOKUP_FEATURE_NOT_SUPPORTED},
    {"deadline_exceeded", PULSAR_ROUTING_STATUS_LOOKUP_DEADLINE_EXCEEDED},
    {NULL, 0}};
/* PulsarApi.proto's ServerError. */
static const named SERVER_ERRORS[] = {
    {"UnknownError", 0}, {"MetadataError", 1}, {"PersistenceError", 2},
    {"AuthenticationError", 3}, {"AuthorizationError", 4}, {"ConsumerBusy", 5},
    {"ServiceNotReady", 6}, {"ProducerBlockedQuotaExceededError", 7},
    {"ProducerBlockedQuotaExceededException", 8}, {"ChecksumError", 9},
    {"UnsupportedVersionError", 10}, {"TopicNotFound", 11}, {"SubscriptionNotFound", 12},
    {"ConsumerNotFound", 13}, {"TooManyRequests", 14}, {"TopicTerminatedError", 15},
    {"ProducerBusy", 16}, {"InvalidTopicName", 17}, {"IncompatibleSchema", 18},
    {"ConsumerAssignError", 19}, {"TransactionCoordinatorNotFound", 20},
    {"InvalidTxnStatus", 21}, {"NotAllowedError", 22}, {"TransactionConflict", 23},
    {"TransactionNotFound", 24}, {"ProducerFenced", 25}, {NULL, 0}};
static const named READINESS_REASONS[] = {
    {"ready", PULSAR_ROUTING_READINESS_READY},
    {"initiate_connect", PULSAR_ROUTING_READINESS_INITIATE_CONNECT},
    {"reconnect_backoff", PULSAR_ROUTING_READINESS_RECONNECT_BACKOFF},
    {"connecting", PULSAR_ROUTING_READINESS_CONNECTING},
    {"throttled", PULSAR_ROUTING_READINESS_THROTTLED},
    {"in_flight_full", PULSAR_ROUTING_READINESS_IN_FLIGHT_FULL},
    {"metadata_due", PULSAR_ROUTING_READINESS_METADATA_DUE},
    {"unknown_node", PULSAR_ROUTING_READINESS_UNKNOWN_NODE},
    {NULL, 0}};
static const named CONNECTION_STATES[] = {
    {"NOT_CONNECTED", PULSAR_ROUTING_CONNECTION_STATE_NOT_CONNECTED},
    {"CONNECTING", PULSAR_ROUTING_CONNECTION_STATE_CONNECTING},
    {"AUTHENTICATING", PULSAR_ROUTING_CONNECTION_STATE_AUTHENTICATING},
    {"READY", PULSAR_ROUTING_CONNECTION_STATE_READY},
    {NULL, 0}};
static const named CONNECTION_EVENTS[] = {
    {"connect", PULSAR_ROUTING_CONNECTION_EVENT_CONNECT},
    {"connected", PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED},
    {"authenticated", PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED},
    {"disconnected", PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED},
    {"authentication_failed", PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED},
    {NULL, 0}};
static const named OUTCOMES[] = {
    {"success", PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS},
    {"not_leader_or_follower", PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER},
    {"other_error", PULSAR_ROUTING_PRODUCE_OUTCOME_OTHER_ERROR},
    {NULL, 0}};

static const char *status_kind(pulsar_routing_status status) {
    for (size_t i = 0; i < sizeof STATUS_NAMES / sizeof STATUS_NAMES[0]; i++) {
        if (STATUS_NAMES[i].code == status) return STATUS_NAMES[i].name;
    }
    return "?";
}

static bool rules_of(const cJSON *args, pulsar_routing_topic_name_rules *rules, outcome *o) {
    const char *r = str_arg(args, "rules", "4.2");
    if (!strcmp(r, "4.2")) *rules = PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2;
    else if (!strcmp(r, "v4")) *rules = PULSAR_ROUTING_TOPIC_NAME_RULES_V4;
    else if (!strcmp(r, "master")) *rules = PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER;
    else {
        set_error(o, PULSAR_ROUTING_STATUS_UNKNOWN_TOPIC_NAME_RULES);
        return false;
    }
    return true;
}

static bool scheme_of(const cJSON *args, pulsar_routing_hashing_scheme *scheme, outcome *o) {
    const char *name = str_arg(args, "scheme", "java_string");
    pulsar_routing_status st =
        pulsar_routing_hashing_scheme_from_name((const uint8_t *)name, strlen(name), scheme);
    return ok_or(st, o);
}

/* ---- hashes, keys and routers ------------------------------------------ */

typedef pulsar_routing_status (*hash_fn)(const uint8_t *, size_t, uint32_t *);

static void hash_of(hash_fn f, const cJSON *args, const char *name, outcome *o) {
    bytes b = to_bytes(arg(args, name));
    uint32_t h = 0;
    TRY(f(b.data, b.len, &h));
    o->value = unum(h);
}

typedef pulsar_routing_status (*index_fn)(const uint8_t *, size_t, int32_t *);

/* A partition index read from a name. */
static void index_of(index_fn f, const cJSON *args, const char *name, outcome *o) {
    bytes t = to_bytes(arg(args, name));
    int32_t i = 0;
    TRY(f(t.data, t.len, &i));
    o->value = num(i);
}

static int32_t custom_choose(void *context, struct pulsar_routing_key key, uint32_t n) {
    (void)key;
    (void)n;
    return *(const int32_t *)context;
}

static bool profile_config(const cJSON *args, pulsar_routing_client_profile *profile,
                           struct pulsar_routing_profile_config *config, outcome *o) {
    const char *name = str_arg(args, "profile", "java");
    pulsar_routing_status st =
        pulsar_routing_client_profile_from_name((const uint8_t *)name, strlen(name), profile);
    if (st == PULSAR_ROUTING_STATUS_OK) st = pulsar_routing_profile_config_default(*profile, config);
    if (st == PULSAR_ROUTING_STATUS_OK && has(args, "scheme")) {
        const char *s = str_arg(args, "scheme", "");
        st = pulsar_routing_client_hashing_scheme_from_name((const uint8_t *)s, strlen(s), &config->scheme);
    }
    if (st == PULSAR_ROUTING_STATUS_OK && has(args, "mode")) {
        int mode;
        if (by_name(PROFILE_MODES, str_arg(args, "mode", ""), &mode)) config->mode = (pulsar_routing_profile_mode)mode;
        else st = PULSAR_ROUTING_STATUS_UNKNOWN_PROFILE_MODE;
    }
    if (!ok_or(st, o)) return false;
    config->char_unsigned = bool_arg(args, "unsigned_char", false);
    /* The pinned Boost build is a scheme of its own in C. */
    if (bool_arg(args, "boost_1_74_x86_64", false) &&
        config->scheme == PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST) {
        config->scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_74_X86_64;
    }
    if (has(args, "batching")) config->batching_enabled = bool_arg(args, "batching", false);
    return true;
}

static bool librdkafka_of(const char *name, pulsar_routing_librdkafka_partitioner *p, outcome *o) {
    pulsar_routing_status st =
        pulsar_routing_librdkafka_partitioner_from_name((const uint8_t *)name, strlen(name), p);
    return ok_or(st, o);
}

static uint32_t *u32_list(const cJSON *list, size_t *n) {
    *n = (size_t)cJSON_GetArraySize(list);
    uint32_t *out = arena(*n * sizeof *out);
    for (size_t i = 0; i < *n; i++) {
        wide x = 0;
        to_i128(cJSON_GetArrayItem(list, (int)i), &x);
        out[i] = (uint32_t)x;
    }
    return out;
}

static struct pulsar_routing_kafka_sticky_choice choice_of(const cJSON *args) {
    struct pulsar_routing_kafka_sticky_choice c;
    memset(&c, 0, sizeof c);
    c.random = (uint32_t)int_arg(args, "random", 0);
    return c;
}

/* ---- topic names and bundles ------------------------------------------- */

typedef pulsar_routing_status (*topic_text_fn)(const struct pulsar_routing_topic_name *, uint8_t *,
                                               size_t, size_t *);

static cJSON *topic_text(const struct pulsar_routing_topic_name *t, topic_text_fn f) {
    uint8_t buf[4096];
    size_t n = 0;
    if (f(t, buf, sizeof buf, &n) != PULSAR_ROUTING_STATUS_OK) return cJSON_CreateString("?");
    return buf_text(buf, n);
}

static cJSON *str_field(struct pulsar_routing_str s) {
    return s.data ? buf_text(s.data, s.len) : cJSON_CreateNull();
}

static cJSON *topic_fields(const struct pulsar_routing_topic_name *t) {
    cJSON *o = cJSON_CreateObject();
    uint8_t buf[4096];
    size_t n = 0;
    cJSON_AddItemToObject(o, "str", topic_text(t, pulsar_routing_topic_name_to_string));
    cJSON_AddItemToObject(o, "domain", text_or_null(pulsar_routing_topic_domain_name(t->domain)));
    cJSON_AddItemToObject(o, "tenant", str_field(t->tenant));
    cJSON_AddItemToObject(o, "cluster", t->cluster.len ? str_field(t->cluster) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "namespace_portion", str_field(t->namespace_portion));
    cJSON_AddItemToObject(o, "namespace", topic_text(t, pulsar_routing_topic_name_namespace));
    cJSON_AddItemToObject(o, "local_name", str_field(t->local_name));
    cJSON_AddItemToObject(o, "partition_index", num(t->partition_index));
    cJSON_AddItemToObject(o, "partitioned_topic_name",
                          topic_text(t, pulsar_routing_topic_name_partitioned_topic_name));
    cJSON_AddItemToObject(o, "lookup_name", topic_text(t, pulsar_routing_topic_name_lookup_name));
    cJSON_AddItemToObject(o, "persistence_naming",
                          topic_text(t, pulsar_routing_topic_name_persistence_naming));
    if (pulsar_routing_topic_name_rest_path(t, true, buf, sizeof buf, &n) == PULSAR_ROUTING_STATUS_OK) {
        cJSON_AddItemToObject(o, "rest_path", buf_text(buf, n));
    }
    cJSON_AddItemToObject(o, "encoded_local_name",
                          topic_text(t, pulsar_routing_topic_name_encoded_local_name));
    uint32_t crc = 0;
    pulsar_routing_topic_name_crc32(t, &crc);
    cJSON_AddItemToObject(o, "crc32", unum(crc));
    return o;
}

static cJSON *range_name(struct pulsar_routing_bundle_range r) {
    uint8_t buf[64];
    size_t n = 0;
    if (pulsar_routing_bundle_range_name(r, buf, sizeof buf, &n) != PULSAR_ROUTING_STATUS_OK) {
        return cJSON_CreateString("?");
    }
    return buf_text(buf, n);
}

static cJSON *layout_bundles(const struct pulsar_routing_bundle_layout *layout) {
    cJSON *list = cJSON_CreateArray();
    size_t len = 0;
    pulsar_routing_bundle_layout_len(layout, &len);
    for (size_t i = 0; i < len; i++) {
        struct pulsar_routing_bundle_range r;
        pulsar_routing_bundle_layout_bundle(layout, i, &r);
        cJSON_AddItemToArray(list, range_name(r));
    }
    return list;
}

static cJSON *u32_array(const uint32_t *xs, size_t n) {
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(list, unum(xs[i]));
    return list;
}

static bool parse_range(const char *text, struct pulsar_routing_bundle_range *r, outcome *o) {
    if (text == NULL) text = "";
    pulsar_routing_status st = pulsar_routing_bundle_range_parse((const uint8_t *)text, strlen(text), r);
    return ok_or(st, o);
}

/* The split's result: the new boundaries and the bundles that replaced `target`. */
static void split_result(const struct pulsar_routing_bundle_layout *layout,
                         struct pulsar_routing_bundle_range target, int64_t *points, size_t n,
                         outcome *o) {
    size_t len = 0;
    pulsar_routing_bundle_layout_len(layout, &len);
    size_t cap = len + n + 1, written = 0;
    uint32_t *out = arena(cap * sizeof *out);
    TRY(pulsar_routing_bundle_layout_split(layout, target, points, n, out, cap, &written));
    cJSON *result = cJSON_CreateObject();
    cJSON_AddItemToObject(result, "boundaries", u32_array(out, written));
    cJSON *fresh = cJSON_CreateArray();
    if (n > 0) {
        size_t index = 0;
        TRY(pulsar_routing_bundle_layout_validate_bundle(layout, target, &index));
        struct pulsar_routing_bundle_layout after;
        TRY(pulsar_routing_bundle_layout_init(&after, out, written));
        for (size_t i = index; i <= index + n; i++) {
            struct pulsar_routing_bundle_range r;
            TRY(pulsar_routing_bundle_layout_bundle(&after, i, &r));
            cJSON_AddItemToArray(fresh, range_name(r));
        }
    }
    cJSON_AddItemToObject(result, "new_bundles", fresh);
    o->value = result;
}

static void bundles_split(object *b, const cJSON *args, outcome *o) {
    struct pulsar_routing_bundle_range target;
    if (!parse_range(str_arg(args, "bundle", ""), &target, o)) return;
    size_t index = 0;
    TRY(pulsar_routing_bundle_layout_validate_bundle(&b->layout, target, &index));
    pulsar_routing_topic_name_rules rules;
    if (!rules_of(args, &rules, o)) return;
    const cJSON *topics = arg(args, "topics");
    size_t num_topics = topics ? (size_t)cJSON_GetArraySize(topics) : 0;
    uint32_t *hashes = arena((num_topics + 1) * sizeof *hashes);
    for (size_t i = 0; i < num_topics; i++) {
        const char *name = cJSON_GetArrayItem(topics, (int)i)->valuestring;
        struct pulsar_routing_topic_name t;
        TRY(pulsar_routing_topic_name_parse((const uint8_t *)name, strlen(name), rules, &t));
        TRY(pulsar_routing_topic_name_crc32(&t, &hashes[i]));
    }
    const char *algorithm = str_arg(args, "algorithm", "range_equally_divide");
    size_t cap = num_topics + 64, n = 0;
    int64_t *points = arena(cap * sizeof *points);
    if (!strcmp(algorithm, "range_equally_divide")) {
        TRY(pulsar_routing_range_equally_divide(target, &points[0]));
        n = 1;
    } else if (!strcmp(algorithm, "topic_count_equally_divide")) {
        TRY(pulsar_routing_topic_count_equally_divide(hashes, num_topics, points, cap, &n));
    } else if (!strncmp(algorithm, "specified_positions_divide", 26)) {
        bool force = !strcmp(algorithm, "specified_positions_divide_force");
        const cJSON *positions = arg(args, "positions");
        size_t len = positions ? (size_t)cJSON_GetArraySize(positions) : 0;
        int64_t *given = arena((len + 1) * sizeof *given);
        for (size_t i = 0; i < len; i++) {
            wide x = 0;
            to_i128(cJSON_GetArrayItem(positions, (int)i), &x);
            given[i] = (int64_t)x;
        }
        cap = len + 1;
        points = arena(cap * sizeof *points);
        TRY(pulsar_routing_specified_positions_divide(target, given, len, num_topics, force, points,
                                                      cap, &n));
    } else if (!strcmp(algorithm, "flow_or_qps_equally_divide")) {
        const cJSON *stats = arg(args, "topic_stats");
        struct pulsar_routing_topic_load *loads = arena((num_topics + 1) * sizeof *loads);
        size_t num_loads = 0;
        for (size_t i = 0; i < num_topics; i++) {
            const cJSON *s = stats ? cJSON_GetArrayItem(stats, (int)i) : NULL;
            if (s == NULL || cJSON_IsNull(s)) continue; /* a topic without stats */
            struct pulsar_routing_topic_load *l = &loads[num_loads++];
            l->msg_rate_in = cJSON_GetArrayItem(s, 0)->valuedouble;
            l->msg_rate_out = cJSON_GetArrayItem(s, 1)->valuedouble;
            l->msg_throughput_in = cJSON_GetArrayItem(s, 2)->valuedouble;
            l->msg_throughput_out = cJSON_GetArrayItem(s, 3)->valuedouble;
            l->hash = hashes[i];
        }
        struct pulsar_routing_flow_limits limits = {
            (int32_t)int_arg(args, "max_msg_rate", 30000),
            (int32_t)int_arg(args, "max_bandwidth_mbytes", 100),
            (int32_t)int_arg(args, "threshold_percent", 10)};
        TRY(pulsar_routing_flow_or_qps_equally_divide(num_topics, loads, num_loads, limits, points,
                                                      cap, &n));
    } else {
        snprintf(o->message, sizeof o->message, "unknown split algorithm %s", algorithm);
        o->status = PULSAR_ROUTING_STATUS_PANIC;
        return;
    }
    split_result(&b->layout, target, points, n, o);
}

/* ---- Key_Shared ------------------------------------------------------------ */

static cJSON *ranges_map(const struct pulsar_routing_assignment *a, size_t n) {
    cJSON *map = cJSON_CreateObject();
    for (size_t i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "%" PRIu64, a[i].consumer);
        cJSON *list = cJSON_GetObjectItemCaseSensitive(map, id);
        if (list == NULL) {
            list = cJSON_CreateArray();
            cJSON_AddItemToObject(map, id, list);
        }
        cJSON *r = cJSON_CreateArray();
        cJSON_AddItemToArray(r, num(a[i].start));
        cJSON_AddItemToArray(r, num(a[i].end));
        cJSON_AddItemToArray(list, r);
    }
    return map;
}

static void selector_failed(object *s, pulsar_routing_status st, outcome *o) {
    uint8_t buf[1024];
    size_t n = 0;
    set_error(o, st);
    if (pulsar_routing_selector_last_error_message(s->handle, buf, sizeof buf, &n) ==
            PULSAR_ROUTING_STATUS_OK && n > 0) {
        set_detail(o, buf, n);
    }
}

static void impact(object *s, outcome *o) {
    size_t nr = 0, na = 0;
    struct pulsar_routing_assignment dummy[1];
    pulsar_routing_status st =
        pulsar_routing_selector_last_impact(s->handle, dummy, 0, &nr, dummy, 0, &na);
    struct pulsar_routing_assignment *removed = arena((nr + 1) * sizeof *removed);
    struct pulsar_routing_assignment *added = arena((na + 1) * sizeof *added);
    if (st == PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL) {
        TRY(pulsar_routing_selector_last_impact(s->handle, removed, nr, &nr, added, na, &na));
    } else if (st != PULSAR_ROUTING_STATUS_OK) {
        set_error(o, st);
        return;
    }
    cJSON *result = cJSON_CreateObject();
    cJSON_AddItemToObject(result, "removed", ranges_map(removed, nr));
    cJSON_AddItemToObject(result, "added", ranges_map(added, na));
    o->value = result;
}

/* A scenario's `[[start, end], ...]` as hash ranges, in the arena; `*n`
 * receives their number (0 for a missing list). */
static struct pulsar_routing_hash_range *hash_ranges(const cJSON *ranges, size_t *n) {
    *n = ranges ? (size_t)cJSON_GetArraySize(ranges) : 0;
    struct pulsar_routing_hash_range *rs = arena((*n + 1) * sizeof *rs);
    for (size_t i = 0; i < *n; i++) {
        const cJSON *r = cJSON_GetArrayItem(ranges, (int)i);
        rs[i].start = (int32_t)cJSON_GetArrayItem(r, 0)->valuedouble;
        rs[i].end = (int32_t)cJSON_GetArrayItem(r, 1)->valuedouble;
    }
    return rs;
}

static void selector_call(object *s, const char *method, const cJSON *args, outcome *o) {
    uint64_t consumer = (uint64_t)int_arg(args, "consumer_id", 0);
    if (!strcmp(method, "add")) {
        pulsar_routing_status st;
        const cJSON *ranges = arg(args, "ranges");
        if (!strcmp(s->type, "ExclusiveSelector")) {
            size_t n = 0;
            struct pulsar_routing_hash_range *rs = hash_ranges(ranges, &n);
            st = pulsar_routing_selector_add_ranges(s->handle, consumer, rs, n);
        } else {
            bytes name = to_bytes(arg(args, "name"));
            st = pulsar_routing_selector_add_named(s->handle, consumer, name.data, name.len);
        }
        if (st != PULSAR_ROUTING_STATUS_OK) {
            selector_failed(s, st, o);
            return;
        }
        impact(s, o);
    } else if (!strcmp(method, "remove")) {
        pulsar_routing_status st = pulsar_routing_selector_remove(s->handle, consumer);
        if (st != PULSAR_ROUTING_STATUS_OK) {
            selector_failed(s, st, o);
            return;
        }
        impact(s, o);
    } else if (!strcmp(method, "select") || !strcmp(method, "select_key")) {
        uint64_t c = 0;
        pulsar_routing_status st;
        if (!strcmp(method, "select")) {
            st = pulsar_routing_selector_select(s->handle, (uint32_t)int_arg(args, "slot", 0), &c);
        } else {
            bytes key = to_bytes(arg(args, "key"));
            st = pulsar_routing_selector_select_key(s->handle, key.data, key.len, &c);
        }
        unum_or_null(o, st, PULSAR_ROUTING_STATUS_NO_CONSUMER, c);
    } else if (!strcmp(method, "assignments")) {
        size_t n = 0;
        struct pulsar_routing_assignment dummy[1];
        pulsar_routing_status st = pulsar_routing_selector_assignments(s->handle, dummy, 0, &n);
        struct pulsar_routing_assignment *a = arena((n + 1) * sizeof *a);
        if (st == PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL) {
            TRY(pulsar_routing_selector_assignments(s->handle, a, n, &n));
        } else {
            TRY(st);
        }
        cJSON *list = cJSON_CreateArray();
        for (size_t i = 0; i < n; i++) {
            cJSON *x = cJSON_CreateArray();
            cJSON_AddItemToArray(x, num(a[i].start));
            cJSON_AddItemToArray(x, num(a[i].end));
            cJSON_AddItemToArray(x, unum(a[i].consumer));
            cJSON_AddItemToArray(list, x);
        }
        o->value = list;
    } else {
        snprintf(o->message, sizeof o->message, "unknown method %s.%s", s->type, method);
        o->status = PULSAR_ROUTING_STATUS_PANIC;
    }
}

/* ---- lookup and sender ------------------------------------------------- */

static cJSON *action_fields(object *l, const struct pulsar_routing_lookup_action *a) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "kind", cJSON_CreateString(name_of(ACTION_KINDS, (int)a->kind)));
    cJSON_AddItemToObject(o, "logical_address", text_or_null(a->logical_address));
    cJSON_AddItemToObject(o, "physical_address", text_or_null(a->physical_address));
    cJSON_AddItemToObject(o, "authoritative", cJSON_CreateBool(a->authoritative));
    cJSON_AddItemToObject(o, "use_proxy", cJSON_CreateBool(a->use_proxy));
    cJSON_AddItemToObject(o, "redirects", unum(a->redirects));
    cJSON_AddItemToObject(o, "attempt", unum(a->attempt));
    bool retry = a->kind == PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT;
    cJSON_AddItemToObject(o, "at_ms", retry ? unum(a->at_ms) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "delay_ms", retry ? unum(a->delay_ms) : cJSON_CreateNull());
    bool counted = l->metadata && a->kind == PULSAR_ROUTING_LOOKUP_ACTION_DONE;
    cJSON_AddItemToObject(o, "partitions", counted ? unum(a->partitions) : cJSON_CreateNull());
    if (a->error == PULSAR_ROUTING_STATUS_OK) {
        cJSON_AddItemToObject(o, "error_kind", cJSON_CreateNull());
        cJSON_AddItemToObject(o, "error", cJSON_CreateNull());
    } else {
        cJSON_AddItemToObject(o, "error_kind", cJSON_CreateString(name_of(LOOKUP_ERRORS, (int)a->error)));
        uint8_t buf[2048];
        size_t n = 0;
        pulsar_routing_status st =
            l->metadata ? pulsar_routing_partitioned_metadata_error_message(l->handle, buf, sizeof buf, &n)
                        : pulsar_routing_topic_lookup_error_message(l->handle, buf, sizeof buf, &n);
        cJSON_AddItemToObject(o, "error", st == PULSAR_ROUTING_STATUS_OK ? buf_text(buf, n) : cJSON_CreateNull());
    }
    cJSON_AddItemToObject(o, "reason", text_or_null(a->reason));
    return o;
}

static cJSON *readiness_fields(const struct pulsar_routing_readiness *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "node", num(r->node));
    cJSON_AddItemToObject(o, "reason", cJSON_CreateString(name_of(READINESS_REASONS, (int)r->reason)));
    cJSON_AddItemToObject(o, "is_ready", cJSON_CreateBool(r->reason == PULSAR_ROUTING_READINESS_READY));
    cJSON_AddItemToObject(o, "state", cJSON_CreateString(name_of(CONNECTION_STATES, (int)r->state)));
    cJSON_AddItemToObject(o, "in_flight", unum(r->in_flight));
    cJSON_AddItemToObject(o, "max_in_flight", unum(r->max_in_flight));
    cJSON_AddItemToObject(o, "backoff_remaining_ms", unum(r->backoff_remaining_ms));
    return o;
}

static bool sender_config(const cJSON *args, struct pulsar_routing_sender_config *c, outcome *o) {
    if (!ok_or(pulsar_routing_sender_config_default(c), o)) return false;
    c->max_in_flight = int_arg(args, "max_in_flight", c->max_in_flight);
    c->enable_idempotence = bool_arg(args, "enable_idempotence", c->enable_idempotence);
    c->reconnect_backoff_ms = (uint64_t)int_arg(args, "reconnect_backoff_ms", (int64_t)c->reconnect_backoff_ms);
    c->reconnect_backoff_max_ms =
        (uint64_t)int_arg(args, "reconnect_backoff_max_ms", (int64_t)c->reconnect_backoff_max_ms);
    c->metadata_max_age_ms = (uint64_t)int_arg(args, "metadata_max_age_ms", (int64_t)c->metadata_max_age_ms);
    return true;
}

static void lookup_call(object *l, const char *method, const cJSON *args, outcome *o) {
    struct pulsar_routing_lookup_action a;
    uint64_t now = (uint64_t)int_arg(args, "now_ms", 0);
    if (l->metadata) {
        pulsar_routing_partitioned_metadata_event event;
        bool flag = false;
        uint32_t partitions = 0;
        int32_t server_error = -1;
        const char *message = NULL;
        if (!strcmp(method, "start")) event = PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START;
        else if (!strcmp(method, "on_connected")) {
            event = PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED;
            flag = bool_arg(args, "supports_pip344", false);
        } else if (!strcmp(method, "on_response")) {
            int code;
            if (has(args, "error")) {
                if (!by_name(SERVER_ERRORS, str_arg(args, "error", ""), &code)) {
                    set_error(o, PULSAR_ROUTING_STATUS_UNKNOWN_SERVER_ERROR);
                    return;
                }
                server_error = code;
            }
            message = str_arg(args, "message", NULL);
            bool failed = bool_arg(args, "failed", false) || has(args, "error");
            event = failed ? PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED
                           : PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_SUCCESS;
            partitions = (uint32_t)int_arg(args, "partitions", 0);
        } else if (!strcmp(method, "on_connection_failed")) {
            event = PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTION_FAILED;
        } else if (!strcmp(method, "on_retry_timer")) {
            event = PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_RETRY_TIMER;
        } else {
            snprintf(o->message, sizeof o->message, "unknown method %s", method);
            o->status = PULSAR_ROUTING_STATUS_PANIC;
            return;
        }
        TRY(pulsar_routing_partitioned_metadata_on_event(
            l->handle, event, flag, partitions, server_error, (const uint8_t *)(message ? message : ""),
            message ? strlen(message) : 0, now, &a));
    } else if (!strcmp(method, "start")) {
        TRY(pulsar_routing_topic_lookup_start(l->handle, now, &a));
    } else if (!strcmp(method, "on_response")) {
        struct pulsar_routing_lookup_response r;
        const char *kind = str_arg(args, "kind", NULL);
        r.response = kind == NULL ? -1 : !strcmp(kind, "redirect") ? 0 : !strcmp(kind, "connect") ? 1 : 2;
        r.broker_service_url = str_arg(args, "broker_service_url", NULL);
        r.broker_service_url_tls = str_arg(args, "broker_service_url_tls", NULL);
        r.authoritative = bool_arg(args, "authoritative", false);
        r.proxy_through_service_url = bool_arg(args, "proxy_through_service_url", false);
        int code = -1;
        if (has(args, "error") && !by_name(SERVER_ERRORS, str_arg(args, "error", ""), &code)) {
            set_error(o, PULSAR_ROUTING_STATUS_UNKNOWN_SERVER_ERROR);
            return;
        }
        r.error = code;
        r.message = str_arg(args, "message", NULL);
        TRY(pulsar_routing_topic_lookup_on_response(l->handle, &r, now, &a));
    } else if (!strcmp(method, "on_connection_failed")) {
        TRY(pulsar_routing_topic_lookup_on_connection_failed(l->handle, now, &a));
    } else if (!strcmp(method, "on_request_timeout")) {
        TRY(pulsar_routing_topic_lookup_on_request_timeout(l->handle, now, &a));
    } else if (!strcmp(method, "on_throttled")) {
        TRY(pulsar_routing_topic_lookup_on_throttled(l->handle, (uint32_t)int_arg(args, "in_flight", 0),
                                                     (uint32_t)int_arg(args, "queued", 0), now, &a));
    } else if (!strcmp(method, "on_retry_timer")) {
        TRY(pulsar_routing_topic_lookup_on_retry_timer(l->handle, now, &a));
    } else {
        snprintf(o->message, sizeof o->message, "unknown method %s", method);
        o->status = PULSAR_ROUTING_STATUS_PANIC;
        return;
    }
    o->value = action_fields(l, &a);
}

/* Property names and values of a coalescer key. */
static void properties_of(const cJSON *args, const char ***names, const char ***values, size_t *n) {
    const cJSON *props = arg(args, "properties");
    *n = props ? (size_t)cJSON_GetArraySize(props) : 0;
    *names = arena((*n + 1) * sizeof **names);
    *values = arena((*n + 1) * sizeof **values);
    size_t i = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, props) {
        (*names)[i] = p->string;
        (*values)[i] = p->valuestring;
        i++;
    }
}

/* ---- dispatch -------------------------------------------------------------- */

static bool unknown(outcome *o, const char *what) {
    snprintf(o->message, sizeof o->message, "unknown operation %s", what);
    o->status = PULSAR_ROUTING_STATUS_PANIC;
    return false;
}

static void call_function(const char *f, const cJSON *args, outcome *o) {
    if (!strcmp(f, "murmur3_32")) hash_of(pulsar_routing_murmur3_32, args, "data", o);
    else if (!strcmp(f, "murmur3_32_raw")) hash_of(pulsar_routing_murmur3_32_raw, args, "data", o);
    else if (!strcmp(f, "crc32")) hash_of(pulsar_routing_crc32, args, "data", o);
    else if (!strcmp(f, "java_string_hash")) hash_of(pulsar_routing_java_string_hash, args, "s", o);
    else if (!strcmp(f, "java_string_hash_bytes")) hash_of(pulsar_routing_java_string_hash_bytes, args, "data", o);
    else if (!strcmp(f, "kafka_murmur2")) hash_of(pulsar_routing_kafka_murmur2, args, "data", o);
    else if (!strcmp(f, "kafka_fnv1a")) hash_of(pulsar_routing_kafka_fnv1a, args, "data", o);
    else if (!strcmp(f, "java_string_hashcode")) {
        bytes s = to_bytes(arg(args, "s"));
        int32_t h = 0;
        TRY(pulsar_routing_java_string_hashcode(s.data, s.len, &h));
        o->value = num(h);
    } else if (!strcmp(f, "kafka_to_positive")) {
        o->value = unum(pulsar_routing_kafka_to_positive((uint32_t)int_arg(args, "hash", 0)));
    } else if (!strcmp(f, "sign_safe_mod")) {
        int32_t r = 0;
        TRY(pulsar_routing_sign_safe_mod(int_arg(args, "dividend", 0), (int32_t)int_arg(args, "divisor", 0), &r));
        o->value = num(r);
    } else if (!strcmp(f, "partition_for_key") || !strcmp(f, "partition_for_key_bytes")) {
        pulsar_routing_hashing_scheme scheme;
        if (!scheme_of(args, &scheme, o)) return;
        bytes key = to_bytes(arg(args, "key"));
        uint32_t p = 0;
        if (!strcmp(f, "partition_for_key")) {
            TRY(pulsar_routing_partition_for_key(key.data, key.len, int_arg(args, "num_partitions", 0), scheme, &p));
        } else {
            TRY(pulsar_routing_partition_for_key_bytes(key.data, key.len, int_arg(args, "num_partitions", 0), scheme, &p));
        }
        o->value = unum(p);
    } else if (!strcmp(f, "partitions_for_keys")) {
        pulsar_routing_hashing_scheme scheme;
        if (!scheme_of(args, &scheme, o)) return;
        const cJSON *keys = arg(args, "keys");
        size_t count = (size_t)cJSON_GetArraySize(keys), total = 0;
        size_t *offsets = calloc(count + 1, sizeof *offsets);
        uint32_t *partitions = calloc(count + 1, sizeof *partitions);
        for (size_t i = 0; offsets != NULL && i < count; i++) {
            total += to_bytes(cJSON_GetArrayItem(keys, (int)i)).len;
            offsets[i + 1] = total;
        }
        uint8_t *data = malloc(total + 1);
        if (offsets == NULL || partitions == NULL || data == NULL) {
            free(offsets);
            free(partitions);
            free(data);
            set_error(o, PULSAR_ROUTING_STATUS_OUT_OF_MEMORY);
            return;
        }
        for (size_t i = 0; i < count; i++) {
            bytes key = to_bytes(cJSON_GetArrayItem(keys, (int)i));
            memcpy(data + offsets[i], key.data, key.len);
        }
        pulsar_routing_status st = pulsar_routing_partitions_for_keys(
            data, offsets, count, int_arg(args, "num_partitions", 0), scheme, partitions);
        if (st == PULSAR_ROUTING_STATUS_OK) o->value = u32_array(partitions, count);
        else set_error(o, st);
        free(offsets);
        free(partitions);
        free(data);
    } else if (!strcmp(f, "check_partition")) {
        uint32_t p = 0;
        TRY(pulsar_routing_check_partition(int_arg(args, "partition", 0), int_arg(args, "num_partitions", 0), &p));
        o->value = unum(p);
    } else if (!strcmp(f, "resolve_routing_mode")) {
        int mode = 0;
        bool set = has(args, "mode");
        if (set && !by_name(ROUTING_MODES, str_arg(args, "mode", ""), &mode)) {
            set_error(o, PULSAR_ROUTING_STATUS_UNKNOWN_ROUTING_MODE);
            return;
        }
        pulsar_routing_message_routing_mode out = 0;
        TRY(pulsar_routing_resolve_routing_mode(set, (pulsar_routing_message_routing_mode)mode,
                                                bool_arg(args, "custom_router_set", false), &out));
        o->value = cJSON_CreateString(name_of(ROUTING_MODES, (int)out));
    } else if (!strcmp(f, "partition_switch_ms")) {
        int64_t ms = 0;
        TRY(pulsar_routing_partition_switch_ms((int32_t)int_arg(args, "frequency", 10),
                                               int_arg(args, "max_publish_delay_us", 1000), &ms));
        o->value = num(ms);
    } else if (!strcmp(f, "profile_partition") || !strcmp(f, "profile_partitions")) {
        pulsar_routing_client_profile profile;
        struct pulsar_routing_profile_config config;
        if (!profile_config(args, &profile, &config, o)) return;
        int64_t n = int_arg(args, "num_partitions", 0);
        bool many = !strcmp(f, "profile_partitions");
        const cJSON *keys = many ? arg(args, "keys") : NULL;
        int count = many ? cJSON_GetArraySize(keys) : 1;
        cJSON *list = cJSON_CreateArray();
        for (int i = 0; i < count; i++) {
            struct pulsar_routing_key key = key_of(many ? cJSON_GetArrayItem(keys, i) : arg(args, "key"));
            uint32_t p = 0;
            pulsar_routing_status st =
                pulsar_routing_profile_keying_partition(profile, &config, key, NULL, 0, n, &p);
            cJSON *item;
            if (st == PULSAR_ROUTING_STATUS_NO_KEY) item = many ? num(-1) : cJSON_CreateNull();
            else if (st != PULSAR_ROUTING_STATUS_OK) {
                cJSON_Delete(list);
                set_error(o, st);
                return;
            } else item = unum(p);
            if (!many) {
                cJSON_Delete(list);
                o->value = item;
                return;
            }
            cJSON_AddItemToArray(list, item);
        }
        o->value = list;
    } else if (!strcmp(f, "profile_key_hash")) {
        const char *name = str_arg(args, "hash", "");
        pulsar_routing_profile_hash hash;
        TRY(pulsar_routing_profile_hash_from_name((const uint8_t *)name, strlen(name), &hash));
        bytes data = to_bytes(arg(args, "data"));
        uint32_t h = 0;
        TRY(pulsar_routing_profile_hash_bytes(hash, data.data, data.len, &h));
        o->value = unum(h);
    } else if (!strcmp(f, "go_partition_index")) {
        bytes t = to_bytes(arg(args, "topic"));
        int64_t i = 0;
        TRY(pulsar_routing_go_partition_index(t.data, t.len, &i));
        o->value = num(i);
    } else if (!strcmp(f, "cpp_partition_index")) {
        index_of(pulsar_routing_cpp_partition_index, args, "local_name", o);
    } else if (!strcmp(f, "cpp_partitioned_producer_check")) {
        uint32_t p = 0;
        TRY(pulsar_routing_cpp_partitioned_producer_check((int32_t)int_arg(args, "partition", 0),
                                                          int_arg(args, "num_partitions", 0), &p));
        o->value = unum(p);
    } else if (!strcmp(f, "kafka_partition")) {
        const char *name = str_arg(args, "partitioner", "java");
        const cJSON *k = arg(args, "key");
        bytes key = to_bytes(k);
        int64_t n = int_arg(args, "num_partitions", 0);
        uint32_t p = 0;
        if (!strcmp(name, "java")) {
            TRY(pulsar_routing_partition_count_validate(n));
            if (!key.present) {
                o->value = cJSON_CreateNull(); /* the sticky partition */
                return;
            }
            TRY(pulsar_routing_kafka_partition_for_key(key.data, key.len, n, &p));
        } else {
            pulsar_routing_librdkafka_partitioner part;
            if (!librdkafka_of(name, &part, o)) return;
            pulsar_routing_status st = pulsar_routing_librdkafka_partition_for_key(
                part, key.present ? key.data : NULL, key.len, n, &p);
            unum_or_null(o, st, PULSAR_ROUTING_STATUS_LIBRDKAFKA_RANDOM_PARTITION, p);
            return;
        }
        o->value = unum(p);
    } else if (!strcmp(f, "librdkafka_partition")) {
        pulsar_routing_librdkafka_partitioner part;
        if (!librdkafka_of(str_arg(args, "partitioner", ""), &part, o)) return;
        bytes key = to_bytes(arg(args, "key"));
        uint32_t p = 0;
        const uint8_t *data = key.present ? key.data : NULL;
        if (has(args, "second_random") || has(args, "available")) {
            size_t na = 0;
            const uint32_t *available = has(args, "available") ? u32_list(arg(args, "available"), &na) : NULL;
            TRY(pulsar_routing_librdkafka_partition_with_availability(
                part, data, key.len, int_arg(args, "num_partitions", 0), (uint32_t)int_arg(args, "random", 0),
                (uint32_t)int_arg(args, "second_random", 0), available, na, &p));
        } else {
            TRY(pulsar_routing_librdkafka_partition(part, data, key.len, int_arg(args, "num_partitions", 0),
                                                    (uint32_t)int_arg(args, "random", 0), &p));
        }
        o->value = unum(p);
    } else if (!strcmp(f, "get_partition_index")) {
        index_of(pulsar_routing_get_partition_index, args, "topic", o);
    } else if (!strcmp(f, "topic_bundle")) {
        pulsar_routing_topic_name_rules rules;
        if (!rules_of(args, &rules, o)) return;
        struct pulsar_routing_bundle_layout layout;
        TRY(pulsar_routing_bundle_layout_init_default(&layout, (uint32_t)int_arg(args, "num_bundles", 4)));
        bytes t = to_bytes(arg(args, "topic"));
        struct pulsar_routing_bundle_range r;
        TRY(pulsar_routing_bundle_layout_bundle_for_topic(&layout, t.data, t.len, rules, &r));
        o->value = range_name(r);
    } else if (!strcmp(f, "default_boundaries")) {
        uint32_t n = (uint32_t)int_arg(args, "num_bundles", 0);
        size_t written = 0;
        uint32_t *buf = arena(((size_t)n + 1) * sizeof *buf);
        TRY(pulsar_routing_default_boundaries(n, buf, (size_t)n + 1, &written));
        o->value = u32_array(buf, written);
    } else if (!strcmp(f, "parse_boundary")) {
        bytes t = to_bytes(arg(args, "text"));
        uint32_t b = 0;
        TRY(pulsar_routing_parse_boundary(t.data, t.len, &b));
        o->value = unum(b);
    } else if (!strcmp(f, "BundleRange.parse")) {
        struct pulsar_routing_bundle_range r;
        if (!parse_range(str_arg(args, "text", ""), &r, o)) return;
        o->value = range_name(r);
    } else if (!strcmp(f, "validate_full_range")) {
        const cJSON *list = arg(args, "boundaries");
        size_t n = list ? (size_t)cJSON_GetArraySize(list) : 0;
        struct pulsar_routing_str *strs = arena((n + 1) * sizeof *strs);
        for (size_t i = 0; i < n; i++) {
            bytes b = to_bytes(cJSON_GetArrayItem(list, (int)i));
            strs[i].data = b.data;
            strs[i].len = b.len;
        }
        TRY(pulsar_routing_validate_full_range(strs, n));
        o->value = cJSON_CreateNull();
    } else if (!strcmp(f, "sticky_key_hash")) {
        const char *name = str_arg(args, "selector", "");
        pulsar_routing_selector_kind kind;
        TRY(pulsar_routing_selector_kind_from_name((const uint8_t *)name, strlen(name), &kind));
        bytes key = to_bytes(arg(args, "key"));
        uint32_t slot = 0;
        TRY(pulsar_routing_sticky_key_hash(key.data, key.len, kind, &slot));
        o->value = unum(slot);
    } else if (!strcmp(f, "sticky_key")) {
        struct pulsar_routing_message_keys k;
        memset(&k, 0, sizeof k);
        bytes ok = to_bytes(arg(args, "ordering_key")), pk = to_bytes(arg(args, "partition_key")),
              pn = to_bytes(arg(args, "producer_name"));
        if (ok.present) k.ordering_key = (struct pulsar_routing_str){ok.data, ok.len};
        if (pk.present) k.partition_key = (struct pulsar_routing_str){pk.data, pk.len};
        if (pn.present) k.producer_name = (struct pulsar_routing_str){pn.data, pn.len};
        k.partition_key_b64_encoded = bool_arg(args, "partition_key_b64_encoded", false);
        k.has_sequence_id = has(args, "sequence_id");
        k.sequence_id = (uint64_t)int_arg(args, "sequence_id", 0);
        uint8_t buf[4096];
        size_t n = 0;
        TRY(pulsar_routing_message_keys_sticky_key(&k, buf, sizeof buf, &n));
        char *hex = arena(2 * n + 1);
        for (size_t i = 0; i < n; i++) snprintf(hex + 2 * i, 3, "%02x", buf[i]);
        cJSON *v = cJSON_CreateObject();
        cJSON_AddStringToObject(v, "hex", hex);
        o->value = v;
    } else if (!strcmp(f, "validate_sticky_ranges")) {
        const cJSON *ranges = arg(args, "ranges");
        size_t n = 0;
        struct pulsar_routing_hash_range *rs = hash_ranges(ranges, &n);
        pulsar_routing_status st = pulsar_routing_validate_sticky_ranges(rs, n);
        if (st != PULSAR_ROUTING_STATUS_OK) {
            uint8_t buf[1024];
            size_t len = 0;
            set_error(o, st);
            if (pulsar_routing_validate_sticky_ranges_error_message(rs, n, buf, sizeof buf, &len) ==
                PULSAR_ROUTING_STATUS_OK) {
                set_detail(o, buf, len);
            }
            return;
        }
        o->value = cJSON_CreateNull();
    } else if (!strcmp(f, "ring_point")) {
        bytes name = to_bytes(arg(args, "name"));
        struct pulsar_routing_hash_range range = {1, (int32_t)int_arg(args, "range_max", 65535)};
        uint32_t p = 0;
        TRY(pulsar_routing_ring_point(name.data, name.len, (uint32_t)int_arg(args, "name_index", 0),
                                      (uint32_t)int_arg(args, "i", 0), range, &p));
        o->value = unum(p);
    } else if (!strcmp(f, "producer_start_topics")) {
        bytes t = to_bytes(arg(args, "topic"));
        uint32_t partitions = (uint32_t)int_arg(args, "partitions", 0);
        cJSON *list = cJSON_CreateArray();
        for (uint32_t i = 0; i < (partitions ? partitions : 1); i++) {
            uint8_t buf[4096];
            size_t n = 0;
            pulsar_routing_status st =
                pulsar_routing_producer_start_topic(t.data, t.len, partitions, i, buf, sizeof buf, &n);
            if (st != PULSAR_ROUTING_STATUS_OK) {
                cJSON_Delete(list);
                set_error(o, st);
                return;
            }
            cJSON_AddItemToArray(list, buf_text(buf, n));
        }
        o->value = list;
    } else if (!strcmp(f, "required_max_pending_messages")) {
        uint64_t m = 0;
        TRY(pulsar_routing_required_max_pending_messages((uint64_t)int_arg(args, "peak_rate_per_sec", 0),
                                                         (uint64_t)int_arg(args, "reconnect_window_ms", 0), &m));
        o->value = unum(m);
    } else {
        unknown(o, f);
    }
}

static void key_counts_call(struct pulsar_routing_key_counts *k, const char *method,
                            const cJSON *args, outcome *o) {
    size_t len = 0;
    if (!strcmp(method, "add")) {
        bytes key = to_bytes(arg(args, "key"));
        TRY(pulsar_routing_key_counts_add(k, key.data, key.len, double_arg(args, "weight", 1)));
        o->value = cJSON_CreateNull();
    } else if (!strcmp(method, "add_keyless")) {
        TRY(pulsar_routing_key_counts_add_keyless(k, double_arg(args, "weight", 1)));
        o->value = cJSON_CreateNull();
    } else if (!strcmp(method, "add_batch")) {
        const cJSON *keys = arg(args, "keys"), *weights = arg(args, "weights");
        size_t n = keys ? (size_t)cJSON_GetArraySize(keys) : 0, total = 0;
        bytes *each = arena((n + 1) * sizeof *each);
        size_t *offsets = arena((n + 1) * sizeof *offsets);
        double *w = weights ? arena((n + 1) * sizeof *w) : NULL;
        offsets[0] = 0;
        for (size_t i = 0; i < n; i++) {
            each[i] = to_bytes(cJSON_GetArrayItem(keys, (int)i));
            total += each[i].len;
            offsets[i + 1] = total;
            if (w) w[i] = cJSON_GetArrayItem(weights, (int)i)->valuedouble;
        }
        uint8_t *data = arena(total + 1);
        for (size_t i = 0; i < n; i++) memcpy(data + offsets[i], each[i].data, each[i].len);
        TRY(pulsar_routing_key_counts_add_batch(k, data, offsets, n, w));
        o->value = cJSON_CreateNull();
    } else if (!strcmp(method, "sorted")) {
        size_t total = 0;
        TRY(pulsar_routing_key_counts_len(k, &len));
        TRY(pulsar_routing_key_counts_total_key_bytes(k, &total));
        uint8_t *data = arena(total + 1);
        uint64_t *offsets = arena((len + 1) * sizeof *offsets);
        double *weights = arena((len + 1) * sizeof *weights);
        TRY(pulsar_routing_key_counts_write_sorted(k, data, total, offsets, len + 1, weights, len));
        o->value = cJSON_CreateArray();
        for (size_t i = 0; i < len; i++) {
            size_t start = (size_t)offsets[i], n = (size_t)(offsets[i + 1] - offsets[i]);
            char *hex = arena(2 * n + 1);
            hex[0] = 0;
            for (size_t j = 0; j < n; j++) snprintf(hex + 2 * j, 3, "%02x", data[start + j]);
            cJSON *key = cJSON_CreateObject();
            cJSON_AddStringToObject(key, "hex", hex);
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, key);
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(weights[i]));
            cJSON_AddItemToArray(o->value, pair);
        }
    } else if (!strcmp(method, "len")) {
        TRY(pulsar_routing_key_counts_len(k, &len));
        o->value = unum(len);
    } else if (!strcmp(method, "rows")) {
        uint64_t rows = 0;
        TRY(pulsar_routing_key_counts_rows(k, &rows));
        o->value = unum(rows);
    } else if (!strcmp(method, "total_key_bytes")) {
        TRY(pulsar_routing_key_counts_total_key_bytes(k, &len));
        o->value = unum(len);
    } else if (!strcmp(method, "keyless_weight")) {
        double weight = 0;
        bool present = false;
        TRY(pulsar_routing_key_counts_keyless_weight(k, &weight, &present));
        o->value = present ? cJSON_CreateNumber(weight) : cJSON_CreateNull();
    } else {
        unknown(o, method);
    }
}

static void construct(object *x, const char *type, const cJSON *args, outcome *o) {
    snprintf(x->type, sizeof x->type, "%s", type);
    if (!strcmp(type, "RoundRobinRouter")) {
        pulsar_routing_hashing_scheme scheme;
        if (!scheme_of(args, &scheme, o)) return;
        TRY(pulsar_routing_round_robin_router_new(scheme, (int32_t)int_arg(args, "start_partition_index", 0),
                                                  bool_arg(args, "batching", true),
                                                  int_arg(args, "partition_switch_ms", 10),
                                                  (struct pulsar_routing_round_robin_router **)&x->handle));
    } else if (!strcmp(type, "SinglePartitionRouter")) {
        pulsar_routing_hashing_scheme scheme;
        if (!scheme_of(args, &scheme, o)) return;
        TRY(pulsar_routing_single_partition_router_new(scheme, (int32_t)int_arg(args, "partition_index", 0),
                                                       (struct pulsar_routing_single_partition_router **)&x->handle));
    } else if (!strcmp(type, "CustomRouter")) {
        x->custom_answer = (int32_t)int_arg(args, "returns", 0);
        TRY(pulsar_routing_custom_router_new(custom_choose, &x->custom_answer,
                                             (struct pulsar_routing_custom_router **)&x->handle));
    } else if (!strcmp(type, "ProfileRouter")) {
        pulsar_routing_client_profile profile;
        struct pulsar_routing_profile_config config;
        if (!profile_config(args, &profile, &config, o)) return;
        TRY(pulsar_routing_profile_router_new(profile, &config, (uint32_t)int_arg(args, "start", 0),
                                              int_arg(args, "created_ns", 0),
                                              (struct pulsar_routing_profile_router **)&x->handle));
    } else if (!strcmp(type, "KafkaBuiltInPartitioner")) {
        TRY(pulsar_routing_kafka_built_in_partitioner_new(
            (int32_t)int_arg(args, "sticky_batch_size", 0),
            (struct pulsar_routing_kafka_built_in_partitioner **)&x->handle));
    } else if (!strcmp(type, "KafkaJavaClientPartitioner")) {
        TRY(pulsar_routing_kafka_java_client_partitioner_new(
            (int32_t)int_arg(args, "batch_size", 16384), bool_arg(args, "ignore_keys", false),
            (struct pulsar_routing_kafka_java_client_partitioner **)&x->handle));
    } else if (!strcmp(type, "LibrdkafkaProducer")) {
        pulsar_routing_librdkafka_partitioner part;
        if (!librdkafka_of(str_arg(args, "partitioner", "consistent_random"), &part, o)) return;
        TRY(pulsar_routing_librdkafka_producer_new(part, int_arg(args, "sticky_linger_ms", 10),
                                                   (struct pulsar_routing_librdkafka_producer **)&x->handle));
    } else if (!strcmp(type, "TopicName")) {
        pulsar_routing_topic_name_rules rules;
        if (!rules_of(args, &rules, o)) return;
        /* The parsed name borrows its input: the arena keeps it alive. */
        bytes name = to_bytes(arg(args, "name"));
        pulsar_routing_status st = pulsar_routing_topic_name_parse(name.data, name.len, rules, &x->topic);
        if (st != PULSAR_ROUTING_STATUS_OK) {
            uint8_t buf[2048];
            size_t n = 0;
            set_error(o, st);
            if (pulsar_routing_topic_name_error_message(name.data, name.len, rules, buf, sizeof buf, &n) ==
                PULSAR_ROUTING_STATUS_OK) {
                set_detail(o, buf, n);
            }
            return;
        }
    } else if (!strcmp(type, "NamespaceBundles")) {
        if (has(args, "boundaries")) {
            size_t n = 0;
            x->boundaries = u32_list(arg(args, "boundaries"), &n);
            TRY(pulsar_routing_bundle_layout_init(&x->layout, x->boundaries, n));
        } else {
            TRY(pulsar_routing_bundle_layout_init_default(&x->layout, (uint32_t)int_arg(args, "num_bundles", 4)));
        }
    } else if (!strcmp(type, "AutoSplitSelector")) {
        struct pulsar_routing_auto_split_config c = {(int32_t)int_arg(args, "range_size", 65536), 64};
        TRY(pulsar_routing_selector_new_auto_split(c, (struct pulsar_routing_selector **)&x->handle));
    } else if (!strcmp(type, "ConsistentHashingSelector")) {
        struct pulsar_routing_consistent_hashing_config c = {
            (uint32_t)int_arg(args, "points", 100), (uint32_t)int_arg(args, "range_max", 65535), 64, 4096};
        TRY(pulsar_routing_selector_new_consistent_hashing(c, (struct pulsar_routing_selector **)&x->handle));
    } else if (!strcmp(type, "ExclusiveSelector")) {
        struct pulsar_routing_exclusive_config c = {
            64, 1024, bool_arg(args, "legacy", false) ? PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730
                                                      : PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT};
        TRY(pulsar_routing_selector_new_exclusive(c, (struct pulsar_routing_selector **)&x->handle));
    } else if (!strcmp(type, "TopicLookup")) {
        struct pulsar_routing_lookup_options opt;
        TRY(pulsar_routing_lookup_options_default(&opt));
        opt.use_tls = bool_arg(args, "use_tls", opt.use_tls);
        opt.max_redirects = (uint32_t)int_arg(args, "max_redirects", opt.max_redirects);
        const char *profile = str_arg(args, "profile", "java");
        if (!strcmp(profile, "java")) opt.profile = PULSAR_ROUTING_LOOKUP_PROFILE_JAVA;
        else if (!strcmp(profile, "go")) opt.profile = PULSAR_ROUTING_LOOKUP_PROFILE_GO;
        else {
            set_error(o, PULSAR_ROUTING_STATUS_UNKNOWN_LOOKUP_PROFILE);
            return;
        }
        opt.operation_timeout_ms = (uint64_t)int_arg(args, "operation_timeout_ms", (int64_t)opt.operation_timeout_ms);
        opt.lookup_timeout_ms = (uint64_t)int_arg(args, "lookup_timeout_ms", (int64_t)opt.lookup_timeout_ms);
        opt.retry = bool_arg(args, "retry", opt.retry);
        opt.detect_redirect_loops = bool_arg(args, "detect_redirect_loops", opt.detect_redirect_loops);
        opt.jitter_seed = (uint64_t)int_arg(args, "jitter_seed", (int64_t)opt.jitter_seed);
        TRY(pulsar_routing_topic_lookup_new(str_arg(args, "service_address", ""), &opt, 21,
                                            (struct pulsar_routing_topic_lookup **)&x->handle));
    } else if (!strcmp(type, "PartitionedMetadataLookup")) {
        struct pulsar_routing_metadata_options opt = {
            (uint64_t)int_arg(args, "operation_timeout_ms", 30000), (uint64_t)int_arg(args, "lookup_timeout_ms", 0),
            bool_arg(args, "metadata_auto_creation", true), bool_arg(args, "use_fallback_for_non_pip344", false),
            (uint64_t)int_arg(args, "jitter_seed", 0)};
        x->metadata = true;
        TRY(pulsar_routing_partitioned_metadata_new(str_arg(args, "service_address", ""), &opt,
                                                    (struct pulsar_routing_partitioned_metadata **)&x->handle));
    } else if (!strcmp(type, "LookupCoalescer")) {
        TRY(pulsar_routing_lookup_coalescer_new((size_t)int_arg(args, "capacity", 1024),
                                                (struct pulsar_routing_lookup_coalescer **)&x->handle));
    } else if (!strcmp(type, "MetadataCoalescer")) {
        TRY(pulsar_routing_lookup_metadata_coalescer_new(
            (size_t)int_arg(args, "capacity", 1024), (struct pulsar_routing_lookup_metadata_coalescer **)&x->handle));
    } else if (!strcmp(type, "LookupThrottle")) {
        TRY(pulsar_routing_lookup_throttle_new((uint32_t)int_arg(args, "concurrent_lookup_requests", 5000),
                                               (uint32_t)int_arg(args, "max_lookup_requests", 50000),
                                               (struct pulsar_routing_lookup_throttle **)&x->handle));
    } else if (!strcmp(type, "SenderConfig") || !strcmp(type, "SenderGate")) {
        struct pulsar_routing_sender_config c;
        if (!sender_config(args, &c, o)) return;
        /* The C API checks a configuration when a gate is built from it. */
        const cJSON *nodes = arg(args, "nodes");
        size_t n = nodes ? (size_t)cJSON_GetArraySize(nodes) : 0;
        int32_t *ids = arena((n + 1) * sizeof *ids);
        for (size_t i = 0; i < n; i++) ids[i] = (int32_t)cJSON_GetArrayItem(nodes, (int)i)->valuedouble;
        struct pulsar_routing_sender_gate *gate = NULL;
        TRY(pulsar_routing_sender_gate_new(&c, ids, n, &gate));
        if (!strcmp(type, "SenderGate")) x->handle = gate;
        else pulsar_routing_sender_gate_free(gate);
    } else if (!strcmp(type, "KeyCounts")) {
        TRY(pulsar_routing_key_counts_new((struct pulsar_routing_key_counts **)&x->handle));
    } else if (!strcmp(type, "PendingQueue")) {
        TRY(pulsar_routing_pending_queue_init(&x->queue, int_arg(args, "max_pending_messages", 0),
                                              bool_arg(args, "block_if_queue_full", false)));
    } else {
        unknown(o, type);
    }
}

static void call_method(object *x, const char *method, const cJSON *args, outcome *o) {
    const char *t = x->type;
    int64_t n = int_arg(args, "num_partitions", 0);
    uint32_t p = 0;
    if (!strcmp(t, "RoundRobinRouter") && !strcmp(method, "choose_partition")) {
        TRY(pulsar_routing_round_robin_router_choose_partition(x->handle, key_of(arg(args, "key")), n,
                                                               int_arg(args, "now_ms", 0), &p));
        o->value = unum(p);
    } else if (!strcmp(t, "SinglePartitionRouter") && !strcmp(method, "choose_partition")) {
        TRY(pulsar_routing_single_partition_router_choose_partition(x->handle, key_of(arg(args, "key")), n, &p));
        o->value = unum(p);
    } else if (!strcmp(t, "CustomRouter") && !strcmp(method, "choose_partition")) {
        TRY(pulsar_routing_custom_router_choose_partition(x->handle, key_of(arg(args, "key")), n, &p));
        o->value = unum(p);
    } else if (!strcmp(t, "ProfileRouter") && !strcmp(method, "route")) {
        TRY(pulsar_routing_profile_router_route(x->handle, key_of(arg(args, "key")), NULL, 0,
                                                (uint64_t)int_arg(args, "payload_len", 0), n,
                                                int_arg(args, "now_ns", 0), &p));
        o->value = unum(p);
    } else if (!strcmp(t, "KafkaBuiltInPartitioner") && !strcmp(method, "peek_partition")) {
        TRY(pulsar_routing_kafka_built_in_partitioner_peek_partition(x->handle, n, choice_of(args), &p));
        o->value = unum(p);
    } else if (!strcmp(t, "KafkaBuiltInPartitioner") && !strcmp(method, "update_partition_info")) {
        bool switched = false;
        TRY(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
            x->handle, (int32_t)int_arg(args, "appended_bytes", 0), bool_arg(args, "enable_switch", false), n,
            choice_of(args), &switched, &p));
        o->value = switched ? unum(p) : cJSON_CreateNull();
    } else if (!strcmp(t, "KafkaJavaClientPartitioner") && !strcmp(method, "append")) {
        bytes key = to_bytes(arg(args, "key"));
        TRY(pulsar_routing_kafka_java_client_partitioner_append(
            x->handle, key.present ? key.data : NULL, key.len, (int32_t)int_arg(args, "appended_bytes", 0),
            bool_arg(args, "enable_switch", false), n, choice_of(args), &p));
        o->value = unum(p);
    } else if (!strcmp(t, "LibrdkafkaProducer") && !strcmp(method, "partition")) {
        bytes key = to_bytes(arg(args, "key"));
        TRY(pulsar_routing_librdkafka_producer_partition(x->handle, key.present ? key.data : NULL, key.len, n,
                                                         int_arg(args, "now_us", 0),
                                                         (uint32_t)int_arg(args, "random", 0), 0, NULL, 0, &p));
        o->value = unum(p);
    } else if (!strcmp(t, "TopicName") && !strcmp(method, "partition")) {
        uint8_t buf[4096];
        size_t len = 0;
        TRY(pulsar_routing_topic_name_partition(&x->topic, (int32_t)int_arg(args, "index", 0), buf, sizeof buf, &len));
        o->value = buf_text(buf, len);
    } else if (!strcmp(t, "NamespaceBundles")) {
        if (!strcmp(method, "boundaries")) {
            size_t len = 0, written = 0;
            TRY(pulsar_routing_bundle_layout_len(&x->layout, &len));
            uint32_t *buf = arena((len + 1) * sizeof *buf);
            TRY(pulsar_routing_bundle_layout_boundaries(&x->layout, buf, len + 1, &written));
            o->value = u32_array(buf, written);
        } else if (!strcmp(method, "bundles")) {
            o->value = layout_bundles(&x->layout);
        } else if (!strcmp(method, "bundle_for_hash")) {
            uint32_t hash = (uint32_t)int_arg(args, "hash", 0);
            struct pulsar_routing_bundle_range r;
            if (bool_arg(args, "strict", false)) {
                size_t i = 0;
                TRY(pulsar_routing_bundle_layout_bundle_index_for_hash_java(&x->layout, hash, &i));
                TRY(pulsar_routing_bundle_layout_bundle(&x->layout, i, &r));
            } else {
                TRY(pulsar_routing_bundle_layout_bundle_for_hash(&x->layout, hash, &r));
            }
            o->value = range_name(r);
        } else if (!strcmp(method, "bundle_for_topic")) {
            pulsar_routing_topic_name_rules rules;
            if (!rules_of(args, &rules, o)) return;
            bytes topic = to_bytes(arg(args, "topic"));
            struct pulsar_routing_bundle_range r;
            TRY(pulsar_routing_bundle_layout_bundle_for_topic(&x->layout, topic.data, topic.len, rules, &r));
            o->value = range_name(r);
        } else if (!strcmp(method, "validate_bundle")) {
            struct pulsar_routing_bundle_range r;
            if (!parse_range(str_arg(args, "bundle", ""), &r, o)) return;
            size_t i = 0;
            TRY(pulsar_routing_bundle_layout_validate_bundle(&x->layout, r, &i));
            o->value = unum(i);
        } else if (!strcmp(method, "split")) {
            bundles_split(x, args, o);
        } else if (!strcmp(method, "split_equally")) {
            struct pulsar_routing_bundle_range target;
            if (!parse_range(str_arg(args, "bundle", ""), &target, o)) return;
            uint32_t parts = (uint32_t)int_arg(args, "parts", 2);
            size_t len = 0, written = 0, index = 0;
            TRY(pulsar_routing_bundle_layout_len(&x->layout, &len));
            uint32_t *out = arena((len + parts + 1) * sizeof *out);
            TRY(pulsar_routing_bundle_layout_split_equally(&x->layout, target, parts, out, len + parts + 1, &written));
            TRY(pulsar_routing_bundle_layout_validate_bundle(&x->layout, target, &index));
            struct pulsar_routing_bundle_layout after;
            TRY(pulsar_routing_bundle_layout_init(&after, out, written));
            cJSON *result = cJSON_CreateObject();
            cJSON_AddItemToObject(result, "boundaries", u32_array(out, written));
            cJSON *fresh = cJSON_CreateArray();
            size_t added = written - (len + 1);
            for (size_t i = index; i <= index + added; i++) {
                struct pulsar_routing_bundle_range r;
                pulsar_routing_bundle_layout_bundle(&after, i, &r);
                cJSON_AddItemToArray(fresh, range_name(r));
            }
            cJSON_AddItemToObject(result, "new_bundles", fresh);
            o->value = result;
        } else {
            unknown(o, method);
        }
    } else if (strstr(t, "Selector")) {
        selector_call(x, method, args, o);
    } else if (!strcmp(t, "TopicLookup") || !strcmp(t, "PartitionedMetadataLookup")) {
        lookup_call(x, method, args, o);
    } else if (!strcmp(t, "LookupCoalescer")) {
        const char **names, **values;
        size_t count = 0;
        properties_of(args, &names, &values, &count);
        const char *topic = str_arg(args, "topic", "");
        uint32_t waiters = 0;
        if (!strcmp(method, "join")) {
            bool leader = false;
            TRY(pulsar_routing_lookup_coalescer_join(x->handle, topic, names, values, count, &leader, &waiters));
            o->value = cJSON_CreateBool(leader);
        } else if (!strcmp(method, "complete")) {
            TRY(pulsar_routing_lookup_coalescer_complete(x->handle, topic, names, values, count, &waiters));
            o->value = unum(waiters);
        } else {
            unknown(o, method);
        }
    } else if (!strcmp(t, "MetadataCoalescer")) {
        const char *topic = str_arg(args, "topic", "");
        bool create = bool_arg(args, "metadata_auto_creation", true);
        bool fallback = bool_arg(args, "use_fallback_for_non_pip344", false);
        uint32_t waiters = 0;
        if (!strcmp(method, "join")) {
            bool leader = false;
            TRY(pulsar_routing_lookup_metadata_coalescer_join(x->handle, topic, create, fallback, &leader, &waiters));
            o->value = cJSON_CreateBool(leader);
        } else if (!strcmp(method, "complete")) {
            TRY(pulsar_routing_lookup_metadata_coalescer_complete(x->handle, topic, create, fallback, &waiters));
            o->value = unum(waiters);
        } else {
            unknown(o, method);
        }
    } else if (!strcmp(t, "LookupThrottle")) {
        bool flag = false;
        uint32_t in_flight = 0, queued = 0;
        if (!strcmp(method, "acquire")) {
            TRY(pulsar_routing_lookup_throttle_acquire(x->handle, &flag));
            o->value = cJSON_CreateString(flag ? "send_now" : "queued");
        } else if (!strcmp(method, "release")) {
            TRY(pulsar_routing_lookup_throttle_release(x->handle, &flag));
            o->value = cJSON_CreateBool(flag);
        } else if (!strcmp(method, "cancel_queued")) {
            TRY(pulsar_routing_lookup_throttle_cancel_queued(x->handle, &flag));
            o->value = cJSON_CreateBool(flag);
        } else if (!strcmp(method, "in_flight") || !strcmp(method, "queued")) {
            TRY(pulsar_routing_lookup_throttle_counts(x->handle, &in_flight, &queued));
            o->value = unum(!strcmp(method, "in_flight") ? in_flight : queued);
        } else {
            unknown(o, method);
        }
    } else if (!strcmp(t, "SenderGate")) {
        int32_t node = (int32_t)int_arg(args, "node", 0);
        uint64_t now = (uint64_t)int_arg(args, "now_ms", 0);
        double jitter = double_arg(args, "jitter", 0.5);
        struct pulsar_routing_readiness r;
        int value = 0;
        if (!strcmp(method, "ready")) {
            TRY(pulsar_routing_sender_gate_ready(x->handle, node, now, &r));
            o->value = readiness_fields(&r);
        } else if (!strcmp(method, "check")) {
            TRY(pulsar_routing_sender_gate_check(x->handle, node, now, &r));
            o->value = readiness_fields(&r);
        } else if (!strcmp(method, "send")) {
            TRY(pulsar_routing_sender_gate_send(x->handle, node, now));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "connection_event")) {
            if (!by_name(CONNECTION_EVENTS, str_arg(args, "event", ""), &value)) {
                set_error(o, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE);
                return;
            }
            TRY(pulsar_routing_sender_gate_connection_event(x->handle, node, (pulsar_routing_connection_event)value,
                                                            now, jitter));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "response")) {
            if (!by_name(OUTCOMES, str_arg(args, "outcome", "success"), &value)) {
                set_error(o, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE);
                return;
            }
            TRY(pulsar_routing_sender_gate_response(x->handle, node, (pulsar_routing_produce_outcome)value));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "throttle")) {
            TRY(pulsar_routing_sender_gate_throttle(x->handle, node, (uint64_t)int_arg(args, "until_ms", 0)));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "request_metadata_update") || !strcmp(method, "metadata_fetch_started") ||
                   !strcmp(method, "metadata_updated")) {
            pulsar_routing_metadata_event event =
                !strcmp(method, "request_metadata_update") ? PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE
                : !strcmp(method, "metadata_fetch_started") ? PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED
                                                            : PULSAR_ROUTING_METADATA_EVENT_UPDATED;
            TRY(pulsar_routing_sender_gate_metadata_event(x->handle, event, now, jitter));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "time_to_next_metadata_update")) {
            uint64_t ms = 0;
            TRY(pulsar_routing_sender_gate_time_to_next_metadata_update(x->handle, now, &ms));
            o->value = unum(ms);
        } else if (!strcmp(method, "connection_state") || !strcmp(method, "in_flight")) {
            TRY(pulsar_routing_sender_gate_check(x->handle, node, 0, &r));
            o->value = !strcmp(method, "in_flight") ? unum(r.in_flight)
                                                    : cJSON_CreateString(name_of(CONNECTION_STATES, (int)r.state));
        } else {
            unknown(o, method);
        }
    } else if (!strcmp(t, "PendingQueue")) {
        if (!strcmp(method, "try_enqueue")) {
            TRY(pulsar_routing_pending_queue_try_enqueue(&x->queue));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "check")) {
            /* No check in C: a try that is undone when it succeeds. */
            pulsar_routing_status st = pulsar_routing_pending_queue_try_enqueue(&x->queue);
            if (st == PULSAR_ROUTING_STATUS_OK) {
                TRY(pulsar_routing_pending_queue_complete(&x->queue, 1));
                o->value = cJSON_CreateString("ok");
            } else if (st == PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_IS_FULL) {
                o->value = cJSON_CreateString("would_fail");
            } else if (st == PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_WOULD_BLOCK) {
                o->value = cJSON_CreateString("would_block");
            } else {
                set_error(o, st);
            }
        } else if (!strcmp(method, "complete")) {
            TRY(pulsar_routing_pending_queue_complete(&x->queue, (uint32_t)int_arg(args, "n", 1)));
            o->value = cJSON_CreateNull();
        } else if (!strcmp(method, "pending")) {
            uint32_t pending = 0;
            TRY(pulsar_routing_pending_queue_pending(&x->queue, &pending));
            o->value = unum(pending);
        } else {
            unknown(o, method);
        }
    } else if (!strcmp(t, "KeyCounts")) {
        key_counts_call(x->handle, method, args, o);
    } else {
        unknown(o, method);
    }
}

/* ---- comparison and the runner ------------------------------------------ */

static bool agrees(const cJSON *expected, const cJSON *actual, bool top) {
    if (actual == NULL) return false;
    if (cJSON_IsObject(expected) && cJSON_IsObject(actual)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, expected) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(actual, e->string);
            if (a == NULL || !agrees(e, a, false)) return false;
        }
        bool hex_only = cJSON_GetArraySize(expected) == 1 &&
                        cJSON_GetObjectItemCaseSensitive(expected, "hex") != NULL;
        if (!top || hex_only) {
            cJSON_ArrayForEach(e, actual) {
                if (cJSON_GetObjectItemCaseSensitive(expected, e->string) == NULL) return false;
            }
        }
        return true;
    }
    if (cJSON_IsArray(expected) && cJSON_IsArray(actual)) {
        int n = cJSON_GetArraySize(expected);
        if (n != cJSON_GetArraySize(actual)) return false;
        for (int i = 0; i < n; i++) {
            if (!agrees(cJSON_GetArrayItem(expected, i), cJSON_GetArrayItem(actual, i), false)) return false;
        }
        return true;
    }
    /* Numbers by value: is_int takes every number, and would cut 2.25 to 2. */
    if (cJSON_IsNumber(expected) && cJSON_IsNumber(actual)) return expected->valuedouble == actual->valuedouble;
    if (is_int(expected) && is_int(actual)) {
        wide x = 0, y = 0;
        to_i128(expected, &x);
        to_i128(actual, &y);
        return x == y;
    }
    if (cJSON_IsString(expected) && cJSON_IsString(actual)) {
        return !strcmp(expected->valuestring, actual->valuestring);
    }
    if (cJSON_IsBool(expected) && cJSON_IsBool(actual)) {
        return cJSON_IsTrue(expected) == cJSON_IsTrue(actual);
    }
    if (cJSON_IsNull(expected) && cJSON_IsNull(actual)) return true;
    if (cJSON_IsNumber(expected) && cJSON_IsNumber(actual)) return expected->valuedouble == actual->valuedouble;
    return false;
}

static const char *show(const cJSON *v) {
    if (v == NULL) return "(nothing)";
    char *s = cJSON_PrintUnformatted(v);
    size_t n = strlen(s);
    char *copy = arena(n + 1);
    memcpy(copy, s, n + 1);
    cJSON_free(s);
    return copy;
}

static bool run_step(const cJSON *step) {
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(step, "args");
    const cJSON *new_type = cJSON_GetObjectItemCaseSensitive(step, "new");
    const cJSON *callee = cJSON_GetObjectItemCaseSensitive(step, "call");
    const cJSON *on = cJSON_GetObjectItemCaseSensitive(step, "on");
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(step, "expect");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(step, "error");
    outcome o;
    memset(&o, 0, sizeof o);
    const char *what;
    object *made = NULL;
    if (cJSON_IsString(new_type)) {
        what = new_type->valuestring;
        if (num_objects == MAX_OBJECTS) return fail("too many objects");
        made = &objects[num_objects];
        memset(made, 0, sizeof *made);
        const cJSON *as = cJSON_GetObjectItemCaseSensitive(step, "as");
        snprintf(made->name, sizeof made->name, "%s", cJSON_IsString(as) ? as->valuestring : "");
        construct(made, what, args, &o);
        if (o.status == PULSAR_ROUTING_STATUS_OK) {
            num_objects++;
            if (expect != NULL) {
                o.value = !strcmp(what, "TopicName") ? topic_fields(&made->topic) : NULL;
            }
        } else if (made->handle != NULL) {
            /* A half-built object: release it through the table. */
            num_objects++;
        }
    } else if (cJSON_IsString(callee) && cJSON_IsString(on)) {
        what = callee->valuestring;
        object *x = find(on->valuestring);
        if (x == NULL) return fail("no object named %s", on->valuestring);
        const char *dot = strchr(what, '.');
        if (dot == NULL || strncmp(what, x->type, (size_t)(dot - what)) != 0 || x->type[dot - what] != 0) {
            return fail("%s is a %s, not the receiver of %s", on->valuestring, x->type, what);
        }
        call_method(x, dot + 1, args, &o);
    } else if (cJSON_IsString(callee)) {
        what = callee->valuestring;
        call_function(what, args, &o);
    } else {
        return fail("a step needs \"new\" or \"call\"");
    }
    if (o.status == PULSAR_ROUTING_STATUS_PANIC) {
        cJSON_Delete(o.value);
        return fail("%s: %s", what, o.message);
    }
    bool ok = true;
    if (o.status != PULSAR_ROUTING_STATUS_OK) {
        if (error == NULL) {
            ok = fail("%s failed: %s (%s)", what, status_kind(o.status), o.message);
        } else {
            const char *kind = cJSON_GetObjectItemCaseSensitive(error, "kind")->valuestring;
            const char *message = cJSON_GetObjectItemCaseSensitive(error, "message")->valuestring;
            if (strcmp(kind, status_kind(o.status)) != 0) {
                ok = fail("%s: expected %s, got %s (%s)", what, kind, status_kind(o.status), o.message);
            } else if (strcmp(message, o.message) != 0) {
                if (o.detailed) {
                    ok = fail("%s: expected message \"%s\", got \"%s\"", what, message, o.message);
                } else {
                    unreachable_messages++;
                    if (getenv("CONFORMANCE_VERBOSE")) {
                        printf("NOTE %s: C has only \"%s\" for \"%s\"\n", what, o.message, message);
                    }
                }
            }
        }
    } else if (error != NULL) {
        ok = fail("%s: expected %s, got %s", what, show(error), show(o.value));
    } else if (expect != NULL && !agrees(expect, o.value, true)) {
        ok = fail("%s: expected %s, got %s", what, show(expect), show(o.value));
    }
    cJSON_Delete(o.value);
    return ok;
}

static int failed_step;

static bool run_scenario(const cJSON *scenario) {
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(scenario, "steps");
    int i = 0;
    const cJSON *step;
    bool ok = true;
    cJSON_ArrayForEach(step, steps) {
        if (!run_step(step)) {
            failed_step = i;
            ok = false;
            break;
        }
        i++;
    }
    free_objects();
    arena_free();
    return ok;
}

int main(int argc, char **argv) {
    unsigned total = 0, agreed = 0;
    for (int f = 1; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        if (in == NULL) {
            fprintf(stderr, "cannot read %s\n", argv[f]);
            return 2;
        }
        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        unsigned number = 0;
        while ((len = getline(&line, &cap, in)) != -1) {
            number++;
            if (len <= 1) continue;
            cJSON *scenario = cJSON_Parse(line);
            total++;
            if (scenario == NULL) {
                printf("FAIL %s:%u: not JSON\n", argv[f], number);
                continue;
            }
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(scenario, "name");
            if (run_scenario(scenario)) {
                agreed++;
            } else {
                printf("FAIL %s (%s:%u) step %d: %s\n", cJSON_IsString(name) ? name->valuestring : "?", argv[f],
                   number, failed_step, failure);
            }
            cJSON_Delete(scenario);
        }
        free(line);
        fclose(in);
    }
    printf("conformance c: %u/%u scenarios agree", agreed, total);
    if (unreachable_messages) {
        printf(" (%u expected error messages not reachable from C: status checked)", unreachable_messages);
    }
    printf("\n");
    return agreed == total ? 0 : 1;
}
