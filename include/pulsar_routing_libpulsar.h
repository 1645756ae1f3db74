/*
 * pulsar_routing_libpulsar.h: make libpulsar (the C and C++ Pulsar client)
 * route like the Java client. Header-only, over pulsar_routing.h.
 *
 * libpulsar's own routers hash keys with BoostHash (or a JavaStringHash over
 * UTF-8 bytes that matches Java for ASCII only) and round-robin keyless
 * messages by message count, so its producers and Java's send the same key
 * to different partitions. This header fills libpulsar's plug-in points with
 * Java's routers (`RoundRobinPartitionMessageRouterImpl` and
 * `SinglePartitionMessageRouterImpl`, computed by pulsar-routing):
 *
 *   C:   pulsar_routing_libpulsar_router router;
 *        pulsar_routing_libpulsar_options options;
 *        pulsar_routing_libpulsar_options_default(&options);
 *        pulsar_routing_libpulsar_router_init(&router, &options);
 *        pulsar_routing_libpulsar_install(producer_conf, &router);
 *        ... create the producer, send ...
 *        pulsar_routing_libpulsar_router_destroy(&router);  // after the producer is closed
 *
 *   C++: conf.setMessageRouter(
 *            std::make_shared<pulsar_routing::libpulsar::JavaRoutingPolicy>());
 *
 * Why a header, not functions of libpulsar_routing: the project's library
 * must build and load without libpulsar, and a program that uses this file
 * links both libraries anyway. The code here only reads the message's key
 * and the partition count from libpulsar and hands them to the C API; the
 * routing itself is the library's.
 *
 * Declarations of libpulsar: the header includes <pulsar/c/message.h>,
 * <pulsar/c/message_router.h> and <pulsar/c/producer_configuration.h>.
 * A program built against a libpulsar that ships no headers (the
 * pulsar-client Python wheel) declares the few functions used here itself
 * and defines PULSAR_ROUTING_LIBPULSAR_DECLARED before including this file.
 * The C++ policy is compiled where <pulsar/MessageRoutingPolicy.h> is found
 * (or PULSAR_ROUTING_LIBPULSAR_CPP is defined to 1; 0 leaves it out).
 *
 * What cannot agree with Java, because libpulsar cannot carry it:
 *
 * - Partitions above 32767: libpulsar casts the router's answer to a 16-bit
 *   `short`, so 65537 would silently reach partition 1. For a message Java
 *   sends above PULSAR_ROUTING_LIBPULSAR_MAX_PARTITION the router answers
 *   -1, which libpulsar refuses: the send fails with
 *   pulsar_result_UnknownError instead of reaching the wrong partition.
 *   Messages Java sends to partitions up to 32767 go there.
 * - Lone surrogates: a Java String may hold one, UTF-8 cannot. A key that is
 *   not valid UTF-8 is routed as Java reads those bytes (each malformed
 *   sequence one U+FFFD, as `new String(bytes, UTF_8)` does), which is
 *   what a Java consumer sees as its key, not what a Java producer hashed.
 * - NUL in a key: the C API takes and returns keys as NUL-terminated
 *   strings, so pulsar_message_set_partition_key keeps the key up to its
 *   first NUL, on the wire and for the router alike. The C++ API
 *   (`setPartitionKey(std::string)`) keeps the whole key.
 * - The empty key is a key in C and C++, as in Java (`key("")`: partition
 *   0); the Python client over libpulsar drops it (see
 *   pulsar_routing.clients).
 *
 * Needs C11 or C++17, and GCC or Clang (`__atomic` builtins publish the
 * router made at the first message).
 */

#ifndef PULSAR_ROUTING_LIBPULSAR_H
#define PULSAR_ROUTING_LIBPULSAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pulsar_routing.h"

#ifndef PULSAR_ROUTING_LIBPULSAR_DECLARED
#include <pulsar/c/message.h>
#include <pulsar/c/message_router.h>
#include <pulsar/c/producer_configuration.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The highest partition libpulsar can address (it casts to `short`). */
#define PULSAR_ROUTING_LIBPULSAR_MAX_PARTITION 32767

/* Unix epoch milliseconds, for keyless messages with batching. */
typedef int64_t (*pulsar_routing_libpulsar_clock)(void *clock_context);

typedef struct pulsar_routing_libpulsar_options {
    /* The Java producers' scheme: PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING
       (Java's default) or _MURMUR3_32. */
    pulsar_routing_hashing_scheme scheme;
    /* PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION (Java's
       default) or _SINGLE_PARTITION. */
    pulsar_routing_message_routing_mode mode;
    /* The Java producers' batching and partition switch interval (10 ms with
       Java's defaults; pulsar_routing_partition_switch_ms computes it), not
       libpulsar's: they decide how keyless messages are spread. */
    bool batching;
    int64_t partition_switch_ms;
    /* The round robin's start (or the single partition), or -1 to draw it
       as Java does, at random in [0, n) for the first message's n. */
    int64_t start_index;
    /* NULL reads the system clock. */
    pulsar_routing_libpulsar_clock clock;
    void *clock_context;
} pulsar_routing_libpulsar_options;

/* One per producer configuration; it must outlive the producers made with
   it. Any number of threads may route through it at once. */
typedef struct pulsar_routing_libpulsar_router {
    pulsar_routing_libpulsar_options options;
    /* The start in use, -1 until drawn; read and written atomically. */
    int64_t start;
    /* The core's router, made by init when the start is given, else at the
       first message; read and published atomically. */
    void *router;
    /* The status of the last route libpulsar was told to refuse, for
       diagnosis (PROFILE_ILLEGAL_PARTITION above 32767); OK if none. */
    pulsar_routing_status last_error;
} pulsar_routing_libpulsar_router;

static inline void pulsar_routing_libpulsar_options_default(pulsar_routing_libpulsar_options *options) {
    options->scheme = PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING;
    options->mode = PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION;
    options->batching = true;
    options->partition_switch_ms = 10;
    options->start_index = -1;
    options->clock = NULL;
    options->clock_context = NULL;
}

static inline pulsar_routing_status pulsar_routing_libpulsar_make_(const pulsar_routing_libpulsar_options *options,
                                                                   int32_t start, void **out) {
    if (options->mode == PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION) {
        return pulsar_routing_single_partition_router_new(options->scheme, start,
                                                          (pulsar_routing_single_partition_router **)out);
    }
    return pulsar_routing_round_robin_router_new(options->scheme, start, options->batching,
                                                 options->partition_switch_ms,
                                                 (pulsar_routing_round_robin_router **)out);
}

static inline void pulsar_routing_libpulsar_free_(pulsar_routing_message_routing_mode mode, void *router) {
    if (mode == PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION) {
        pulsar_routing_single_partition_router_free((pulsar_routing_single_partition_router *)router);
    } else {
        pulsar_routing_round_robin_router_free((pulsar_routing_round_robin_router *)router);
    }
}

/* Sets the router up. Returns OK, NULL_PARAMETER, UNKNOWN_HASHING_SCHEME,
   UNKNOWN_ROUTING_MODE (neither of the two modes) or
   ILLEGAL_PARTITION_INDEX (a start outside [-1, 2**31)). */
static inline pulsar_routing_status pulsar_routing_libpulsar_router_init(pulsar_routing_libpulsar_router *router,
                                                                         const pulsar_routing_libpulsar_options *options) {
    void *made = NULL;
    pulsar_routing_status status;
    if (router == NULL || options == NULL) {
        return PULSAR_ROUTING_STATUS_NULL_PARAMETER;
    }
    router->options = *options;
    router->start = options->start_index;
    router->router = NULL;
    router->last_error = PULSAR_ROUTING_STATUS_OK;
    if (options->mode != PULSAR_ROUTING_MESSAGE_ROUTING_MODE_ROUND_ROBIN_PARTITION &&
        options->mode != PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION) {
        return PULSAR_ROUTING_STATUS_UNKNOWN_ROUTING_MODE;
    }
    if (options->start_index < -1 || options->start_index > INT32_MAX) {
        return PULSAR_ROUTING_STATUS_ILLEGAL_PARTITION_INDEX;
    }
    /* Made now even when the start is drawn later, so that a bad scheme
       fails here rather than in a send. */
    status = pulsar_routing_libpulsar_make_(options, options->start_index < 0 ? 0 : (int32_t)options->start_index,
                                            &made);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        return status;
    }
    if (options->start_index < 0) {
        pulsar_routing_libpulsar_free_(options->mode, made);
    } else {
        router->router = made;
    }
    return PULSAR_ROUTING_STATUS_OK;
}

/* Frees the router; no producer may use it any more. */
static inline void pulsar_routing_libpulsar_router_destroy(pulsar_routing_libpulsar_router *router) {
    if (router != NULL && router->router != NULL) {
        pulsar_routing_libpulsar_free_(router->options.mode, router->router);
        router->router = NULL;
    }
}

static inline int64_t pulsar_routing_libpulsar_now_ms_(void) {
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + (int64_t)(ts.tv_nsec / 1000000);
}

/* A random index in [0, n). Java's ThreadLocalRandom is no stronger: the
   start only spreads producers over the partitions. */
static inline int32_t pulsar_routing_libpulsar_draw_(const void *salt, int64_t n) {
    struct timespec ts;
    uint64_t z;
    timespec_get(&ts, TIME_UTC);
    z = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ (uint64_t)(uintptr_t)salt;
    /* splitmix64's finalizer, so that nearby times give unrelated indexes. */
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (int32_t)(z % (uint64_t)n);
}

static inline void *pulsar_routing_libpulsar_get_(pulsar_routing_libpulsar_router *router, int64_t n,
                                                  pulsar_routing_status *status) {
    void *current = __atomic_load_n(&router->router, __ATOMIC_ACQUIRE);
    void *made = NULL;
    int64_t start = -1, drawn;
    if (current != NULL) {
        return current;
    }
    if (n < 1 || n > INT32_MAX) {
        *status = n < 1 ? PULSAR_ROUTING_STATUS_PARTITION_COUNT_ZERO : PULSAR_ROUTING_STATUS_PARTITION_COUNT_TOO_LARGE;
        return NULL;
    }
    /* Two first messages at once: the first start drawn is the one, so
       whichever router is published, it starts there; the other is freed. */
    drawn = pulsar_routing_libpulsar_draw_(router, n);
    if (__atomic_compare_exchange_n(&router->start, &start, drawn, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        start = drawn;
    }
    *status = pulsar_routing_libpulsar_make_(&router->options, (int32_t)start, &made);
    if (*status != PULSAR_ROUTING_STATUS_OK) {
        return NULL;
    }
    if (!__atomic_compare_exchange_n(&router->router, &current, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pulsar_routing_libpulsar_free_(router->options.mode, made);
        return current;
    }
    return made;
}

/* The round robin's start (or the single partition), given or drawn as
   Java draws it; -1 until the first message draws it. */
static inline int64_t pulsar_routing_libpulsar_start_index(const pulsar_routing_libpulsar_router *router) {
    return __atomic_load_n(&router->start, __ATOMIC_ACQUIRE);
}

/* Java's partition for a message whose key is `key` (`len` bytes; NULL:
   keyless) on `num_partitions` partitions, or -1 where libpulsar must
   refuse the message (above 32767, an invalid count, a failed route). */
static inline int pulsar_routing_libpulsar_choose(pulsar_routing_libpulsar_router *router, const char *key,
                                                  size_t len, int64_t num_partitions) {
    pulsar_routing_status status = PULSAR_ROUTING_STATUS_OK;
    void *r = pulsar_routing_libpulsar_get_(router, num_partitions, &status);
    pulsar_routing_key k;
    uint32_t partition = 0;
    uint8_t stack[256];
    uint8_t *decoded = NULL;
    int64_t now = 0;
    if (r == NULL) {
        __atomic_store_n(&router->last_error, status, __ATOMIC_RELAXED);
        return -1;
    }
    k.kind = key == NULL ? PULSAR_ROUTING_KEY_KIND_NONE : PULSAR_ROUTING_KEY_KIND_STRING;
    k.data = (const uint8_t *)key;
    k.len = key == NULL ? 0 : len;
    for (;;) {
        if (router->options.mode == PULSAR_ROUTING_MESSAGE_ROUTING_MODE_SINGLE_PARTITION) {
            status = pulsar_routing_single_partition_router_choose_partition(
                (const pulsar_routing_single_partition_router *)r, k, num_partitions, &partition);
        } else {
            if (key == NULL && router->options.batching) {
                now = router->options.clock != NULL ? router->options.clock(router->options.clock_context)
                                                    : pulsar_routing_libpulsar_now_ms_();
            }
            status = pulsar_routing_round_robin_router_choose_partition(
                (const pulsar_routing_round_robin_router *)r, k, num_partitions, now, &partition);
        }
        if (status != PULSAR_ROUTING_STATUS_INVALID_UTF8 || decoded != NULL) {
            break;
        }
        /* Not UTF-8: route the String Java would read from these bytes. */
        {
            size_t room = 3 * len, written = 0;
            decoded = room <= sizeof stack ? stack : (uint8_t *)malloc(room == 0 ? 1 : room);
            if (decoded == NULL) {
                status = PULSAR_ROUTING_STATUS_OUT_OF_MEMORY;
                break;
            }
            status = pulsar_routing_java_lossy_utf8(k.data, len, decoded, room, &written);
            if (status != PULSAR_ROUTING_STATUS_OK) {
                break;
            }
            k.data = decoded;
            k.len = written;
        }
    }
    if (decoded != NULL && decoded != stack) {
        free(decoded);
    }
    if (status != PULSAR_ROUTING_STATUS_OK) {
        __atomic_store_n(&router->last_error, status, __ATOMIC_RELAXED);
        return -1;
    }
    if (partition > PULSAR_ROUTING_LIBPULSAR_MAX_PARTITION) {
        __atomic_store_n(&router->last_error, PULSAR_ROUTING_STATUS_PROFILE_ILLEGAL_PARTITION, __ATOMIC_RELAXED);
        return -1;
    }
    return (int)partition;
}

/* libpulsar's C router callback: pass the router as `ctx`. */
static inline int pulsar_routing_libpulsar_route(pulsar_message_t *message, pulsar_topic_metadata_t *metadata,
                                                 void *ctx) {
    int64_t n = pulsar_topic_metadata_get_num_partitions(metadata);
    if (!pulsar_message_has_partition_key(message)) {
        return pulsar_routing_libpulsar_choose((pulsar_routing_libpulsar_router *)ctx, NULL, 0, n);
    }
    {
        const char *key = pulsar_message_get_partitionKey(message);
        return pulsar_routing_libpulsar_choose((pulsar_routing_libpulsar_router *)ctx, key, strlen(key), n);
    }
}

/* Makes `router` the router of the producers created with `conf`. */
static inline void pulsar_routing_libpulsar_install(pulsar_producer_configuration_t *conf,
                                                    pulsar_routing_libpulsar_router *router) {
    pulsar_producer_configuration_set_message_router(conf, pulsar_routing_libpulsar_route, router);
}

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && !defined(PULSAR_ROUTING_LIBPULSAR_CPP) && defined(__has_include)
#if __has_include(<pulsar/MessageRoutingPolicy.h>)
#define PULSAR_ROUTING_LIBPULSAR_CPP 1
#endif
#endif

#if defined(__cplusplus) && defined(PULSAR_ROUTING_LIBPULSAR_CPP) && PULSAR_ROUTING_LIBPULSAR_CPP
#include <pulsar/Message.h>
#include <pulsar/MessageRoutingPolicy.h>
#include <pulsar/TopicMetadata.h>

#include <stdexcept>
#include <string>

namespace pulsar_routing {
namespace libpulsar {

/* A `pulsar::MessageRoutingPolicy` that routes as the Java client does:
   `conf.setMessageRouter(std::make_shared<JavaRoutingPolicy>())`. The
   options are those of the C router above; a bad option throws
   std::invalid_argument. Thread-safe. */
class JavaRoutingPolicy : public pulsar::MessageRoutingPolicy {
   public:
    JavaRoutingPolicy() : JavaRoutingPolicy(default_options()) {}

    explicit JavaRoutingPolicy(const pulsar_routing_libpulsar_options &options) {
        pulsar_routing_status status = pulsar_routing_libpulsar_router_init(&router_, &options);
        if (status != PULSAR_ROUTING_STATUS_OK) {
            throw std::invalid_argument(std::string("pulsar_routing: ") + pulsar_routing_status_message(status));
        }
    }

    JavaRoutingPolicy(const JavaRoutingPolicy &) = delete;
    JavaRoutingPolicy &operator=(const JavaRoutingPolicy &) = delete;

    ~JavaRoutingPolicy() override { pulsar_routing_libpulsar_router_destroy(&router_); }

    using pulsar::MessageRoutingPolicy::getPartition;

    /* -1 (the client fails the send) where Java's partition is above 32767. */
    int getPartition(const pulsar::Message &message, const pulsar::TopicMetadata &metadata) override {
        if (!message.hasPartitionKey()) {
            return pulsar_routing_libpulsar_choose(&router_, nullptr, 0, metadata.getNumPartitions());
        }
        // The C++ API keeps a key's NULs, so its whole length is routed.
        const std::string &key = message.getPartitionKey();
        return pulsar_routing_libpulsar_choose(&router_, key.data(), key.size(), metadata.getNumPartitions());
    }

    /* The start given or drawn; -1 before the first message drew it. */
    int64_t start_index() const { return pulsar_routing_libpulsar_start_index(&router_); }

    pulsar_routing_status last_error() const { return __atomic_load_n(&router_.last_error, __ATOMIC_RELAXED); }

    static pulsar_routing_libpulsar_options default_options() {
        pulsar_routing_libpulsar_options options;
        pulsar_routing_libpulsar_options_default(&options);
        return options;
    }

   private:
    pulsar_routing_libpulsar_router router_;
};

}  // namespace libpulsar
}  // namespace pulsar_routing
#endif

#endif /* PULSAR_ROUTING_LIBPULSAR_H */
