/*
 * Checks the golden vectors (real Java output) through the C API.
 *
 * Reads the tab-separated file written by ffi-c/tests/golden_to_tsv.py (its
 * docstring gives the line formats) and checks every row the way
 * core/tests/golden.rs, topics_golden.rs, bundles_golden.rs and
 * keyshared_golden.rs do, plus the C-only paths: status codes, buffers, the
 * streaming hashers, each router handle, UTF-16 keys, topic name structs,
 * bundle layouts, and Key_Shared selectors that start tiny and grow on
 * their own (as in Python), and the exclusive selector's impact.
 *
 * Usage: golden GOLDEN.tsv. Prints "golden: N passed, M failed" and exits
 * non-zero on any failure. scripts/test-c.sh builds and runs it under
 * AddressSanitizer and UBSan.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pulsar_routing.h"

_Static_assert(sizeof(pulsar_routing_murmur3_hasher) == 32, "hasher size is ABI");
_Static_assert(sizeof(pulsar_routing_crc32_hasher) == 32, "hasher size is ABI");
_Static_assert(sizeof(pulsar_routing_bundle_layout) == 32, "layout size is ABI");
_Static_assert(sizeof(pulsar_routing_bundle_range) == 16, "a range is two int64_t");
_Static_assert(PULSAR_ROUTING_VERSION_NUMBER ==
                   ((PULSAR_ROUTING_VERSION_MAJOR << 16) | (PULSAR_ROUTING_VERSION_MINOR << 8) |
                    PULSAR_ROUTING_VERSION_PATCH),
               "packed version number");

enum { MAX_FIELDS = 24, MAX_REPORTS = 30 };

static unsigned long passed, failed;
static unsigned long line_no;
/* Whether the row being checked has failed a check yet. */
static bool row_failed;

static void fail(const char *fmt, ...) {
    static unsigned long reports;
    row_failed = true;
    if (reports++ >= MAX_REPORTS) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "line %lu: ", line_no);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

#define CHECK(cond, ...)          \
    do {                          \
        if (!(cond)) {            \
            fail(__VA_ARGS__);    \
        }                         \
    } while (0)

#define CHECK_STATUS(call, expected)                                                       \
    do {                                                                                   \
        pulsar_routing_status check_status_ = (call);                                      \
        CHECK(check_status_ == (expected), "%s: status %u (%s), expected %u", #call,       \
              (unsigned)check_status_, pulsar_routing_status_message(check_status_),       \
              (unsigned)(expected));                                                       \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, PULSAR_ROUTING_STATUS_OK)

/* --- parsing --------------------------------------------------------------------------- */

static bool parse_i64(const char *text, int64_t *out) {
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0') {
        fail("not an integer: '%s'", text);
        return false;
    }
    *out = value;
    return true;
}

static bool parse_u64(const char *text, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-') {
        fail("not an unsigned integer: '%s'", text);
        return false;
    }
    *out = value;
    return true;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Decodes lower-case hex into a fresh buffer, never NULL on success (the API
 * rejects NULL even for empty input). The caller frees it. */
static uint8_t *unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex);
    if (n % 2 != 0) {
        fail("odd-length hex");
        return NULL;
    }
    uint8_t *bytes = malloc(n / 2 + 1);
    if (bytes == NULL) {
        fail("out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fail("bad hex");
            free(bytes);
            return NULL;
        }
        bytes[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return bytes;
}

static pulsar_routing_hashing_scheme scheme_named(const char *name) {
    pulsar_routing_hashing_scheme scheme = UINT32_MAX;
    CHECK_OK(pulsar_routing_hashing_scheme_from_name((const uint8_t *)name, strlen(name), &scheme));
    return scheme;
}

/* UTF-16 units of valid UTF-8: code points from U+10000 take two. */
static size_t utf8_to_utf16(const uint8_t *utf8, size_t len, uint16_t *units) {
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint8_t b = utf8[i];
        uint32_t cp;
        size_t width;
        if (b < 0x80) {
            cp = b, width = 1;
        } else if (b < 0xe0) {
            cp = b & 0x1fu, width = 2;
        } else if (b < 0xf0) {
            cp = b & 0x0fu, width = 3;
        } else {
            cp = b & 0x07u, width = 4;
        }
        for (size_t k = 1; k < width && i + k < len; k++) {
            cp = cp << 6 | (utf8[i + k] & 0x3fu);
        }
        i += width;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            units[n++] = (uint16_t)(0xd800 | (cp >> 10));
            units[n++] = (uint16_t)(0xdc00 | (cp & 0x3ff));
        } else {
            units[n++] = (uint16_t)cp;
        }
    }
    return n;
}

/* --- hash rows ------------------------------------------------------------------------- */

static void check_streaming(const uint8_t *key, size_t len, uint32_t murmur, uint32_t raw,
                            uint32_t crc) {
    static const size_t pieces[] = {1, 2, 3, 5, 7};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        pulsar_routing_murmur3_hasher m;
        pulsar_routing_crc32_hasher c;
        CHECK_OK(pulsar_routing_murmur3_hasher_init(&m));
        CHECK_OK(pulsar_routing_crc32_hasher_init(&c));
        for (size_t at = 0; at < len; at += pieces[p]) {
            size_t n = len - at < pieces[p] ? len - at : pieces[p];
            CHECK_OK(pulsar_routing_murmur3_hasher_update(&m, key + at, n));
            CHECK_OK(pulsar_routing_crc32_hasher_update(&c, key + at, n));
        }
        uint32_t got_murmur = 0, got_raw = 0, got_crc = 0;
        CHECK_OK(pulsar_routing_murmur3_hasher_finalize(&m, &got_murmur));
        CHECK_OK(pulsar_routing_murmur3_hasher_finalize_raw(&m, &got_raw));
        CHECK_OK(pulsar_routing_crc32_hasher_finalize(&c, &got_crc));
        CHECK(got_murmur == murmur && got_raw == raw && got_crc == crc,
              "streaming in pieces of %zu disagrees", pieces[p]);
    }
}

static void check_hash_row(char **f, int n) {
    if (n != 11) {
        fail("H row with %d fields", n);
        return;
    }
    size_t len = 0;
    uint8_t *key = unhex(f[2], &len);
    if (key == NULL) return;
    bool utf8_valid = strcmp(f[3], "1") == 0;
    int64_t murmur, jsh, hashcode, utf16_len;
    uint64_t crc;
    if (!parse_i64(f[4], &murmur) || !parse_i64(f[6], &jsh) || !parse_i64(f[7], &hashcode) ||
        !parse_i64(f[8], &utf16_len) || !parse_u64(f[10], &crc)) {
        free(key);
        return;
    }

    uint32_t h = 0, raw = 0, c = 0;
    int32_t code = 0;
    CHECK_OK(pulsar_routing_murmur3_32(key, len, &h));
    CHECK(h == murmur, "murmur3_32 %" PRIu32 ", expected %" PRId64, h, murmur);
    CHECK_OK(pulsar_routing_murmur3_32_raw(key, len, &raw));
    CHECK((raw & 0x7fffffffu) == h, "raw hash does not mask to the hash");
    if (strcmp(f[5], "-") != 0) {
        int64_t expected_raw;
        if (parse_i64(f[5], &expected_raw)) {
            CHECK((int32_t)raw == expected_raw, "murmur3_32_raw %" PRId32 ", expected %" PRId64,
                  (int32_t)raw, expected_raw);
        }
    }
    CHECK_OK(pulsar_routing_java_string_hash_bytes(key, len, &h));
    CHECK(h == jsh, "java_string_hash_bytes %" PRIu32 ", expected %" PRId64, h, jsh);
    CHECK_OK(pulsar_routing_java_string_hashcode_bytes(key, len, &code));
    CHECK(code == hashcode, "java_string_hashcode_bytes %" PRId32 ", expected %" PRId64, code,
          hashcode);
    CHECK_OK(pulsar_routing_crc32(key, len, &c));
    CHECK(c == crc, "crc32 %" PRIu32 ", expected %" PRIu64, c, crc);

    /* Java's lossy decoding: at most 3 output bytes per input byte. */
    size_t cap = 3 * len + 1, written = 0;
    uint8_t *decoded = malloc(cap);
    uint16_t *units = malloc(2 * cap * sizeof *units);
    if (decoded == NULL || units == NULL) {
        fail("out of memory");
        free(decoded), free(units), free(key);
        return;
    }
    CHECK_OK(pulsar_routing_java_lossy_utf8(key, len, decoded, cap, &written));
    if (strcmp(f[9], "-") == 0) {
        CHECK(written == len && memcmp(decoded, key, len) == 0, "valid UTF-8 changed by decoding");
    } else {
        size_t lossy_len = 0;
        uint8_t *lossy = unhex(f[9], &lossy_len);
        if (lossy != NULL) {
            CHECK(written == lossy_len && memcmp(decoded, lossy, lossy_len) == 0,
                  "lossy decoding differs from Java's");
            free(lossy);
        }
    }
    if (written > 0) {
        size_t needed = 0;
        CHECK_STATUS(pulsar_routing_java_lossy_utf8(key, len, decoded, written - 1, &needed),
                     PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL);
        CHECK(needed == written, "BUFFER_TOO_SMALL reported %zu, needed %zu", needed, written);
    }
    /* The decoded string's UTF-16 form: its length and hashCode are Java's. */
    size_t n_units = utf8_to_utf16(decoded, written, units);
    CHECK((int64_t)n_units == utf16_len, "decoded UTF-16 length %zu, expected %" PRId64, n_units,
          utf16_len);
    CHECK_OK(pulsar_routing_java_string_hash_utf16(units, n_units, &h));
    CHECK(h == jsh, "java_string_hash_utf16 %" PRIu32 ", expected %" PRId64, h, jsh);
    CHECK_OK(pulsar_routing_java_string_hashcode_utf16(units, n_units, &code));
    CHECK(code == hashcode, "java_string_hashcode_utf16 %" PRId32 ", expected %" PRId64, code,
          hashcode);

    /* The string entry points agree with the byte ones, and refuse non-UTF-8. */
    if (utf8_valid) {
        CHECK_OK(pulsar_routing_java_string_hash(key, len, &h));
        CHECK(h == jsh, "java_string_hash %" PRIu32 ", expected %" PRId64, h, jsh);
        CHECK_OK(pulsar_routing_java_string_hashcode(key, len, &code));
        CHECK(code == hashcode, "java_string_hashcode %" PRId32 ", expected %" PRId64, code,
              hashcode);
        CHECK_OK(pulsar_routing_hashing_scheme_hash(PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32, key,
                                                    len, &h));
        CHECK(h == murmur, "scheme hash murmur3_32 %" PRIu32, h);
    } else {
        CHECK_STATUS(pulsar_routing_java_string_hash(key, len, &h),
                     PULSAR_ROUTING_STATUS_INVALID_UTF8);
    }
    check_streaming(key, len, (uint32_t)murmur, raw, (uint32_t)crc);
    free(units), free(decoded), free(key);
}

/* --- keyed rows ------------------------------------------------------------------------ */

/* One router of each kind per scheme, built once: keyed routing never
 * touches their state. */
static pulsar_routing_round_robin_router *rr_routers[2];
static pulsar_routing_single_partition_router *single_routers[2];
static pulsar_routing_custom_router *custom_routers[2];
static const pulsar_routing_hashing_scheme schemes[2] = {
    PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
    PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32,
};

/* A custom router that routes like the built-in ones, through the key it is
 * handed: proves the key reaches the callback intact. */
static int32_t route_by_key(void *context, pulsar_routing_key key, uint32_t num_partitions) {
    const pulsar_routing_hashing_scheme *scheme = context;
    uint32_t partition = 0;
    if (pulsar_routing_key_partition(key, *scheme, num_partitions, &partition) !=
        PULSAR_ROUTING_STATUS_OK) {
        return -1;
    }
    return (int32_t)partition;
}

static bool make_routers(void) {
    for (int i = 0; i < 2; i++) {
        if (pulsar_routing_round_robin_router_new(schemes[i], 0, true, 10, &rr_routers[i]) !=
                PULSAR_ROUTING_STATUS_OK ||
            pulsar_routing_single_partition_router_new(schemes[i], -1, &single_routers[i]) !=
                PULSAR_ROUTING_STATUS_OK ||
            pulsar_routing_custom_router_new(route_by_key, (void *)&schemes[i],
                                             &custom_routers[i]) != PULSAR_ROUTING_STATUS_OK) {
            return false;
        }
    }
    return true;
}

static void free_routers(void) {
    for (int i = 0; i < 2; i++) {
        pulsar_routing_round_robin_router_free(rr_routers[i]);
        pulsar_routing_single_partition_router_free(single_routers[i]);
        pulsar_routing_custom_router_free(custom_routers[i]);
    }
}

/* Every way of routing a keyed message gives the expected partition. */
static void check_routes(pulsar_routing_key key, pulsar_routing_hashing_scheme scheme,
                         int64_t num_partitions, uint32_t expected) {
    int i = scheme == PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32;
    uint32_t p = UINT32_MAX;
    CHECK_OK(pulsar_routing_key_partition(key, scheme, num_partitions, &p));
    CHECK(p == expected, "key_partition %" PRIu32 ", expected %" PRIu32, p, expected);
    p = UINT32_MAX;
    CHECK_OK(pulsar_routing_round_robin_router_choose_partition(rr_routers[i], key, num_partitions,
                                                                123456, &p));
    CHECK(p == expected, "round-robin %" PRIu32 ", expected %" PRIu32, p, expected);
    p = UINT32_MAX;
    CHECK_OK(pulsar_routing_single_partition_router_choose_partition(single_routers[i], key,
                                                                     num_partitions, &p));
    CHECK(p == expected, "single partition %" PRIu32 ", expected %" PRIu32, p, expected);
    p = UINT32_MAX;
    CHECK_OK(pulsar_routing_custom_router_choose_partition(custom_routers[i], key, num_partitions,
                                                           &p));
    CHECK(p == expected, "custom %" PRIu32 ", expected %" PRIu32, p, expected);
}

/* The K rows again, through pulsar_routing_partitions_for_keys: the rows of
 * each scheme and partition count make one batch, checked at the end. */
typedef struct {
    pulsar_routing_hashing_scheme scheme;
    int64_t num_partitions;
    uint8_t *data;
    size_t *offsets;
    uint32_t *expected, *got;
    size_t count, data_len, data_cap, key_cap;
} keyed_batch;

enum { MAX_KEYED_BATCHES = 256 };
static keyed_batch keyed_batches[MAX_KEYED_BATCHES];
static size_t keyed_batch_count;

static void check_keyed_batch(keyed_batch *b) {
    for (size_t i = 0; i < b->count; i++) b->got[i] = UINT32_MAX;
    pulsar_routing_status status = pulsar_routing_partitions_for_keys(
        b->data, b->offsets, b->count, b->num_partitions, b->scheme, b->got);
    if (status != PULSAR_ROUTING_STATUS_OK) {
        fail("partitions_for_keys (%zu keys): status %u (%s)", b->count, (unsigned)status,
             pulsar_routing_status_message(status));
        failed++;
        return;
    }
    for (size_t i = 0; i < b->count; i++) {
        if (b->got[i] != b->expected[i]) {
            fail("partitions_for_keys key %zu of %zu: %" PRIu32 ", expected %" PRIu32, i,
                 b->count, b->got[i], b->expected[i]);
            failed++;
        }
    }
}

static bool grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return true;
    size_t bigger = *cap ? *cap : 64;
    while (bigger < need) bigger *= 2;
    void *q = realloc(*p, bigger * size);
    if (q == NULL) return false;
    *p = q;
    *cap = bigger;
    return true;
}

static void add_to_keyed_batch(pulsar_routing_hashing_scheme scheme, int64_t num_partitions,
                               const uint8_t *key, size_t len, uint32_t expected) {
    keyed_batch *b = NULL;
    for (size_t i = 0; i < keyed_batch_count && b == NULL; i++) {
        if (keyed_batches[i].scheme == scheme && keyed_batches[i].num_partitions == num_partitions) {
            b = &keyed_batches[i];
        }
    }
    if (b == NULL) {
        if (keyed_batch_count == MAX_KEYED_BATCHES) {
            fail("more than %d (scheme, partition count) pairs", MAX_KEYED_BATCHES);
            return;
        }
        b = &keyed_batches[keyed_batch_count++];
        b->scheme = scheme;
        b->num_partitions = num_partitions;
    }
    /* The offsets, expected and got arrays share one capacity. */
    size_t key_cap = b->key_cap, got_cap = b->key_cap;
    if (!grow((void **)&b->data, &b->data_cap, b->data_len + len + 1, 1) ||
        !grow((void **)&b->offsets, &key_cap, b->count + 2, sizeof(size_t)) ||
        !grow((void **)&b->got, &got_cap, b->count + 2, sizeof(uint32_t)) ||
        !grow((void **)&b->expected, &b->key_cap, b->count + 2, sizeof(uint32_t))) {
        fail("out of memory");
        return;
    }
    if (b->count == 0) b->offsets[0] = 0;
    memcpy(b->data + b->data_len, key, len);
    b->data_len += len;
    b->offsets[b->count + 1] = b->data_len;
    b->expected[b->count++] = expected;
}

/* Checks and frees every batch; returns the number of keys checked. */
static size_t check_keyed_batches(void) {
    size_t keys = 0;
    for (size_t i = 0; i < keyed_batch_count; i++) {
        keyed_batch *b = &keyed_batches[i];
        check_keyed_batch(b);
        keys += b->count;
        free(b->data);
        free(b->offsets);
        free(b->expected);
        free(b->got);
    }
    return keys;
}

static void check_keyed_row(char **f, int n) {
    int64_t num_partitions, expected;
    size_t len = 0;
    if (n != 5 || !parse_i64(f[2], &num_partitions) || !parse_i64(f[4], &expected)) {
        fail("bad K row");
        return;
    }
    pulsar_routing_hashing_scheme scheme = scheme_named(f[1]);
    uint8_t *key = unhex(f[3], &len);
    if (key == NULL) return;
    uint32_t p = UINT32_MAX;
    CHECK_OK(pulsar_routing_partition_for_key(key, len, num_partitions, scheme, &p));
    CHECK(p == expected, "partition_for_key %" PRIu32 ", expected %" PRId64, p, expected);
    add_to_keyed_batch(scheme, num_partitions, key, len, (uint32_t)expected);
    pulsar_routing_key k = {PULSAR_ROUTING_KEY_KIND_STRING, key, len};
    check_routes(k, scheme, num_partitions, (uint32_t)expected);
    /* The same key as Java holds it, UTF-16 units: at most one per byte. */
    uint16_t *units = malloc((len + 1) * sizeof *units);
    if (units == NULL) {
        fail("out of memory");
        free(key);
        return;
    }
    size_t n_units = utf8_to_utf16(key, len, units);
    pulsar_routing_key k16 = {PULSAR_ROUTING_KEY_KIND_UTF16, (const uint8_t *)units, n_units};
    check_routes(k16, scheme, num_partitions, (uint32_t)expected);
    free(units);
    free(key);
}

/* An HP row: the cpp_* and go_* hash fields, through the exact client hashes. */
static void check_profile_hash_row(char **f, int n) {
    static const pulsar_routing_profile_hash hashes[5] = {
        PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING, PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32,
        PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62,
        PULSAR_ROUTING_PROFILE_HASH_GO_JAVA_STRING, PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32};
    size_t len = 0;
    if (n != 8) {
        fail("bad HP row");
        return;
    }
    uint8_t *key = unhex(f[2], &len);
    if (key == NULL) return;
    for (int i = 0; i < 5; i++) {
        int64_t expected;
        if (!parse_i64(f[3 + i], &expected)) continue; /* '-': not in this row */
        uint32_t hash = UINT32_MAX;
        CHECK_OK(pulsar_routing_profile_hash_bytes(hashes[i], key, len, &hash));
        CHECK(hash == expected, "%s hash %" PRIu32 ", expected %" PRId64,
              pulsar_routing_profile_hash_name(hashes[i]), hash, expected);
    }
    /* BoostHash of an unknown build refuses rather than guesses. */
    uint32_t untouched = 7;
    CHECK_STATUS(pulsar_routing_profile_hash_bytes(PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST, key, len,
                                                   &untouched),
                 PULSAR_ROUTING_STATUS_BOOST_HASH_NOT_REPRODUCIBLE);
    CHECK(untouched == 7, "out-parameter written on failure");
    free(key);
}

/* A BH row: boost::hash<std::string> printed by real Boost headers. The
 * release names its generation through the scheme parser ("boost_1_N"); the
 * raw hash must match all 64 bits, and the C++ profile configured with that
 * scheme and char signedness must resolve to a key hash giving its low 31. */
static void check_boost_hash_row(char **f, int n) {
    uint64_t expected;
    size_t len = 0;
    if (n != 5 || !parse_u64(f[4], &expected)) {
        fail("bad BH row");
        return;
    }
    bool unsigned_char = strcmp(f[2], "unsigned") == 0;
    char name[32];
    int name_len = snprintf(name, sizeof name, "boost_1_%s", f[1]);
    pulsar_routing_client_hashing_scheme scheme = UINT32_MAX;
    CHECK_OK(pulsar_routing_client_hashing_scheme_from_name((const uint8_t *)name,
                                                            (size_t)name_len, &scheme));
    if (scheme == UINT32_MAX) return;
    uint8_t *key = unhex(f[3], &len);
    if (key == NULL) return;
    uint64_t raw = 0;
    CHECK_OK(pulsar_routing_boost_hash_raw(scheme, unsigned_char, key, len, &raw));
    CHECK(raw == expected, "Boost 1.%s (%s char) hash %" PRIu64 ", expected %" PRIu64, f[1],
          f[2], raw, expected);
    pulsar_routing_profile_config config;
    CHECK_OK(pulsar_routing_profile_config_default(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &config));
    config.scheme = scheme;
    config.char_unsigned = unsigned_char;
    pulsar_routing_profile_hash hash = UINT32_MAX;
    CHECK_OK(pulsar_routing_profile_keying_hash(PULSAR_ROUTING_CLIENT_PROFILE_CPP, &config, &hash));
    uint32_t masked = UINT32_MAX;
    CHECK_OK(pulsar_routing_profile_hash_bytes(hash, key, len, &masked));
    CHECK(masked == (uint32_t)(expected & 0x7fffffffu), "%s hash %" PRIu32,
          pulsar_routing_profile_hash_name(hash), masked);
    free(key);
}

/* A KP row: cpp_partition and go_partition through the client profiles. */
static void check_profile_keyed_row(char **f, int n) {
    int64_t num_partitions, expected_cpp, expected_go = -1;
    size_t len = 0;
    if (n != 6 || !parse_i64(f[2], &num_partitions) || !parse_i64(f[4], &expected_cpp)) {
        fail("bad KP row");
        return;
    }
    bool go_keyless = strcmp(f[5], "N") == 0;
    if (!go_keyless && !parse_i64(f[5], &expected_go)) {
        fail("bad KP go_partition");
        return;
    }
    pulsar_routing_client_hashing_scheme scheme = UINT32_MAX;
    CHECK_OK(pulsar_routing_client_hashing_scheme_from_name((const uint8_t *)f[1], strlen(f[1]),
                                                            &scheme));
    uint8_t *key = unhex(f[3], &len);
    if (key == NULL) return;
    pulsar_routing_key k = {PULSAR_ROUTING_KEY_KIND_STRING, key, len};
    /* The row holds the C++ router's answer; the producer sends it where its
     * cast to a 16-bit short points (the same below 32769 partitions), or
     * fails the send. */
    uint32_t delivered = UINT32_MAX;
    pulsar_routing_status send = pulsar_routing_cpp_partitioned_producer_check(
        (int32_t)expected_cpp, num_partitions, &delivered);
    uint32_t p = UINT32_MAX;
    pulsar_routing_status cpp = pulsar_routing_profile_partition(
        PULSAR_ROUTING_CLIENT_PROFILE_CPP, scheme, PULSAR_ROUTING_PROFILE_MODE_DEFAULT, k, NULL, 0,
        num_partitions, &p);
    CHECK(cpp == send && p == delivered,
          "cpp partition %" PRIu32 " (status %u), expected %" PRIu32 " (status %u)", p,
          (unsigned)cpp, delivered, (unsigned)send);
    p = UINT32_MAX;
    pulsar_routing_status go = pulsar_routing_profile_partition(
        PULSAR_ROUTING_CLIENT_PROFILE_GO, scheme, PULSAR_ROUTING_PROFILE_MODE_DEFAULT, k, NULL, 0,
        num_partitions, &p);
    if (go_keyless) {
        CHECK(go == PULSAR_ROUTING_STATUS_NO_KEY && p == UINT32_MAX,
              "go: the empty key is no key (status %u)", (unsigned)go);
    } else if (num_partitions == 1 && len == 0) {
        /* With one partition Go's router returns 0 before looking at the
         * key: the empty key is still keyless, and lands on 0. */
        CHECK(go == PULSAR_ROUTING_STATUS_NO_KEY && expected_go == 0,
              "go, one partition, empty key: status %u", (unsigned)go);
    } else {
        CHECK(go == PULSAR_ROUTING_STATUS_OK && p == expected_go,
              "go partition %" PRIu32 " (status %u), expected %" PRId64, p, (unsigned)go,
              expected_go);
    }
    /* Python: Murmur3_32Hash is its escape hatch, routed by C++; it cannot
     * choose JavaStringHash, and treats the empty key as no key. */
    p = UINT32_MAX;
    pulsar_routing_status python = pulsar_routing_profile_partition(
        PULSAR_ROUTING_CLIENT_PROFILE_PYTHON, scheme, PULSAR_ROUTING_PROFILE_MODE_DEFAULT, k, NULL,
        0, num_partitions, &p);
    if (scheme == PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING) {
        CHECK(python == PULSAR_ROUTING_STATUS_PYTHON_SCHEME_NOT_SELECTABLE && p == UINT32_MAX,
              "python with JavaStringHash: status %u", (unsigned)python);
    } else if (len == 0) {
        CHECK(python == PULSAR_ROUTING_STATUS_NO_KEY, "python empty key: status %u",
              (unsigned)python);
    } else {
        CHECK(python == send && p == delivered,
              "python partition %" PRIu32 " (status %u), expected %" PRIu32, p,
              (unsigned)python, delivered);
    }
    free(key);
}

static void check_keyed_bytes_row(char **f, int n) {
    int64_t num_partitions, expected;
    size_t len = 0;
    if (n != 6 || !parse_i64(f[2], &num_partitions) || !parse_i64(f[5], &expected)) {
        fail("bad B row");
        return;
    }
    pulsar_routing_hashing_scheme scheme = scheme_named(f[1]);
    uint8_t *bytes = unhex(f[3], &len);
    if (bytes == NULL) return;
    size_t b64_len = pulsar_routing_base64_len(len), written = 0;
    char *b64 = malloc(b64_len + 1);
    if (b64 == NULL) {
        fail("out of memory");
        free(bytes);
        return;
    }
    CHECK_OK(pulsar_routing_encode_base64(bytes, len, (uint8_t *)b64, b64_len, &written));
    b64[written] = '\0';
    CHECK(strcmp(b64, f[4]) == 0, "Base64 '%s', expected '%s'", b64, f[4]);
    uint32_t p = UINT32_MAX;
    CHECK_OK(pulsar_routing_partition_for_key_bytes(bytes, len, num_partitions, scheme, &p));
    CHECK(p == expected, "partition_for_key_bytes %" PRIu32 ", expected %" PRId64, p, expected);
    /* keyBytes routes exactly like key(Base64 text). */
    CHECK_OK(pulsar_routing_partition_for_key((const uint8_t *)b64, written, num_partitions,
                                              scheme, &p));
    CHECK(p == expected, "partition_for_key(Base64) %" PRIu32 ", expected %" PRId64, p, expected);
    pulsar_routing_key k = {PULSAR_ROUTING_KEY_KIND_BYTES, bytes, len};
    check_routes(k, scheme, num_partitions, (uint32_t)expected);
    free(b64), free(bytes);
}

/* --- keyless rows and signSafeMod ------------------------------------------------------ */

static const pulsar_routing_key no_key = {PULSAR_ROUTING_KEY_KIND_NONE, NULL, 0};

static void check_rr_batching_row(char **f, int n) {
    int64_t start, switch_ms, clock_ms, num_partitions, expected;
    if (n != 6 || !parse_i64(f[1], &start) || !parse_i64(f[2], &switch_ms) ||
        !parse_i64(f[3], &clock_ms) || !parse_i64(f[4], &num_partitions) ||
        !parse_i64(f[5], &expected)) {
        fail("bad RB row");
        return;
    }
    pulsar_routing_round_robin_router *router = NULL;
    CHECK_OK(pulsar_routing_round_robin_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                                                   (int32_t)start, true, switch_ms, &router));
    uint32_t p = UINT32_MAX;
    CHECK_OK(pulsar_routing_round_robin_router_choose_partition(router, no_key, num_partitions,
                                                                clock_ms, &p));
    CHECK(p == expected, "batching round-robin %" PRIu32 ", expected %" PRId64, p, expected);
    pulsar_routing_round_robin_router_free(router);
}

static void check_rr_sequence_row(char **f, int n) {
    int64_t start, num_partitions;
    if (n != 4 || !parse_i64(f[1], &start) || !parse_i64(f[2], &num_partitions)) {
        fail("bad RS row");
        return;
    }
    pulsar_routing_round_robin_router *router = NULL;
    CHECK_OK(pulsar_routing_round_robin_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                                                   (int32_t)start, false, 0, &router));
    char *picks = f[3];
    for (int i = 0; i < 12; i++) {
        char *comma = strchr(picks, ',');
        if (comma != NULL) *comma = '\0';
        int64_t expected;
        uint32_t p = UINT32_MAX;
        if (!parse_i64(picks, &expected)) break;
        CHECK_OK(pulsar_routing_round_robin_router_choose_partition(router, no_key,
                                                                    num_partitions, 0, &p));
        CHECK(p == expected, "pick %d: %" PRIu32 ", expected %" PRId64, i, p, expected);
        if (comma == NULL) {
            CHECK(i == 11, "only %d picks", i + 1);
            break;
        }
        picks = comma + 1;
    }
    pulsar_routing_round_robin_router_free(router);
}

static void check_single_row(char **f, int n) {
    int64_t index, num_partitions, expected;
    if (n != 4 || !parse_i64(f[1], &index) || !parse_i64(f[2], &num_partitions) ||
        !parse_i64(f[3], &expected)) {
        fail("bad S row");
        return;
    }
    pulsar_routing_single_partition_router *router = NULL;
    CHECK_OK(pulsar_routing_single_partition_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                                                        (int32_t)index, &router));
    uint32_t p = UINT32_MAX;
    CHECK_OK(pulsar_routing_single_partition_router_choose_partition(router, no_key,
                                                                     num_partitions, &p));
    CHECK(p == expected, "single partition %" PRIu32 ", expected %" PRId64, p, expected);
    pulsar_routing_single_partition_router_free(router);
}

static void check_sign_safe_mod_row(char **f, int n) {
    int64_t dividend, divisor;
    if (n != 4 || !parse_i64(f[1], &dividend) || !parse_i64(f[2], &divisor)) {
        fail("bad M row");
        return;
    }
    int32_t result = INT32_MIN;
    if (strcmp(f[3], "E") == 0) {
        CHECK_STATUS(pulsar_routing_sign_safe_mod(dividend, (int32_t)divisor, &result),
                     PULSAR_ROUTING_STATUS_DIVISION_BY_ZERO);
        CHECK(result == INT32_MIN, "out-parameter written on failure");
        CHECK(strcmp(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_DIVISION_BY_ZERO),
                     "/ by zero") == 0,
              "Java's ArithmeticException message");
        return;
    }
    int64_t expected;
    if (!parse_i64(f[3], &expected)) return;
    CHECK_OK(pulsar_routing_sign_safe_mod(dividend, (int32_t)divisor, &result));
    CHECK(result == expected, "signSafeMod %" PRId32 ", expected %" PRId64, result, expected);
}

/* --- text, lists and buffers ------------------------------------------------------------ */

/* The rule set named in the file. */
static pulsar_routing_topic_name_rules rules_named(const char *name) {
    if (strcmp(name, "v4") == 0) return PULSAR_ROUTING_TOPIC_NAME_RULES_V4;
    if (strcmp(name, "master") == 0) return PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER;
    if (strcmp(name, "4.2") == 0) return PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2;
    fail("unknown rules '%s'", name);
    return UINT32_MAX;
}

static bool same_bytes(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len) {
    return got_len == want_len && (want_len == 0 || memcmp(got, want, want_len) == 0);
}

/* Splits a comma-separated list in place into a fresh array (never NULL on
 * success, even when empty). The caller frees the array. The field is
 * changed: split a copy (list_copy) to read it twice. */
static char **split_list(char *field, size_t *count) {
    size_t n = field[0] == '\0' ? 0 : 1;
    for (const char *c = field; *c != '\0'; c++) n += *c == ',';
    char **items = malloc((n + 1) * sizeof *items);
    if (items == NULL) {
        fail("out of memory");
        return NULL;
    }
    size_t i = 0;
    for (char *at = field; i < n;) {
        items[i++] = at;
        char *comma = strchr(at, ',');
        if (comma == NULL) break;
        *comma = '\0';
        at = comma + 1;
    }
    *count = n;
    return items;
}

/* A copy of a field, for split_list. The caller frees it. */
static char *list_copy(const char *field) {
    char *copy = strdup(field);
    if (copy == NULL) fail("out of memory");
    return copy;
}

/* A list of boundaries ("0x…", or anything Long.decode reads), parsed by
 * the library. */
static uint32_t *parse_boundaries(char *field, size_t *count) {
    size_t n = 0;
    char **items = split_list(field, &n);
    if (items == NULL) return NULL;
    uint32_t *boundaries = malloc((n + 1) * sizeof *boundaries);
    if (boundaries == NULL) {
        fail("out of memory");
        free(items);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        boundaries[i] = 0;
        CHECK_OK(pulsar_routing_parse_boundary((const uint8_t *)items[i], strlen(items[i]),
                                               &boundaries[i]));
    }
    free(items);
    *count = n;
    return boundaries;
}

/* Signed integers, comma-separated. */
static int64_t *parse_i64_list(char *field, size_t *count) {
    size_t n = 0;
    char **items = split_list(field, &n);
    if (items == NULL) return NULL;
    int64_t *values = malloc((n + 1) * sizeof *values);
    if (values == NULL) {
        fail("out of memory");
        free(items);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        values[i] = 0;
        parse_i64(items[i], &values[i]);
    }
    free(items);
    *count = n;
    return values;
}

/* A range's name, NUL-terminated, into `name` (64 bytes). */
static void range_name(pulsar_routing_bundle_range range, char name[64]) {
    size_t written = 0;
    name[0] = '\0';
    CHECK_OK(pulsar_routing_bundle_range_name(range, (uint8_t *)name, 63, &written));
    if (written < 64) name[written] = '\0';
}

/* Checks that the list `field` (comma-separated "0x%08x") is `boundaries`. */
static void check_boundary_list(const char *what, const uint32_t *boundaries, size_t n,
                                const char *field) {
    size_t count = 0;
    char *copy = list_copy(field);
    char **items = copy == NULL ? NULL : split_list(copy, &count);
    if (items == NULL) {
        free(copy);
        return;
    }
    CHECK(count == n, "%s: %zu boundaries, expected %zu", what, n, count);
    for (size_t i = 0; i < n && i < count; i++) {
        char text[16];
        snprintf(text, sizeof text, "0x%08" PRIx32, boundaries[i]);
        CHECK(strcmp(text, items[i]) == 0, "%s[%zu]: %s, expected %s", what, i, text, items[i]);
    }
    free(items);
    free(copy);
}

/* Checks that bundles first .. first + count - 1 of `layout` are named by
 * the list `field`, which has `count` names. */
static void check_bundle_names(const pulsar_routing_bundle_layout *layout, size_t first,
                               const char *field) {
    size_t count = 0;
    char *copy = list_copy(field);
    char **names = copy == NULL ? NULL : split_list(copy, &count);
    if (names == NULL) {
        free(copy);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        pulsar_routing_bundle_range range = {0, 0};
        char name[64];
        CHECK_OK(pulsar_routing_bundle_layout_bundle(layout, first + i, &range));
        range_name(range, name);
        CHECK(strcmp(name, names[i]) == 0, "bundle %zu: %s, expected %s", first + i, name,
              names[i]);
    }
    free(names);
    free(copy);
}

typedef pulsar_routing_status (*topic_text_fn)(const pulsar_routing_topic_name *, uint8_t *,
                                               size_t, size_t *);

/* Writes a derived name and compares it with the hex `want`; a buffer one
 * byte short must give BUFFER_TOO_SMALL with the length needed, untouched. */
static void check_topic_text(const char *what, topic_text_fn f, const pulsar_routing_topic_name *t,
                             const char *want_hex) {
    size_t want_len = 0;
    uint8_t *want = unhex(want_hex, &want_len);
    if (want == NULL) return;
    uint8_t *buf = malloc(want_len + 8);
    if (buf == NULL) {
        fail("out of memory");
        free(want);
        return;
    }
    size_t written = SIZE_MAX;
    CHECK_OK(f(t, buf, want_len + 8, &written));
    CHECK(same_bytes(buf, written, want, want_len), "%s differs from Java's", what);
    if (want_len > 0) {
        memset(buf, 0xa5, want_len + 8);
        written = SIZE_MAX;
        CHECK_STATUS(f(t, buf, want_len - 1, &written), PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL);
        CHECK(written == want_len, "%s: BUFFER_TOO_SMALL said %zu, needed %zu", what, written,
              want_len);
        CHECK(buf[0] == 0xa5 && buf[want_len - 1] == 0xa5, "%s: short buffer written", what);
    }
    free(buf);
    free(want);
}

static pulsar_routing_status rest_path_with_domain(const pulsar_routing_topic_name *t,
                                                   uint8_t *buf, size_t len, size_t *written) {
    return pulsar_routing_topic_name_rest_path(t, true, buf, len, written);
}

static pulsar_routing_status partition_3(const pulsar_routing_topic_name *t, uint8_t *buf,
                                         size_t len, size_t *written) {
    return pulsar_routing_topic_name_partition(t, 3, buf, len, written);
}

/* Compares a borrowed part of a parsed name with hex text. */
static void check_part(const char *what, pulsar_routing_str part, const char *want_hex) {
    size_t want_len = 0;
    uint8_t *want = unhex(want_hex, &want_len);
    if (want == NULL) return;
    CHECK(part.data != NULL && same_bytes(part.data, part.len, want, want_len), "%s differs",
          what);
    free(want);
}

/* CRC-32 of hex text, through the library. */
static uint32_t crc_of_hex(const char *hex) {
    size_t len = 0;
    uint32_t crc = 0;
    uint8_t *bytes = unhex(hex, &len);
    if (bytes == NULL) return 0;
    CHECK_OK(pulsar_routing_crc32(bytes, len, &crc));
    free(bytes);
    return crc;
}

static bool is_topic_name_status(pulsar_routing_status status) {
    return status >= 400 && status < 500;
}

/* --- topics.jsonl ------------------------------------------------------------------------ */

static void check_topic_parse_row(char **f, int n) {
    if (n != 18) {
        fail("TP row with %d fields", n);
        return;
    }
    pulsar_routing_topic_name_rules rules = rules_named(f[1]);
    size_t input_len = 0;
    uint8_t *input = unhex(f[2], &input_len);
    if (input == NULL) return;
    pulsar_routing_topic_name t;
    pulsar_routing_status status = pulsar_routing_topic_name_parse(input, input_len, rules, &t);
    CHECK(status == PULSAR_ROUTING_STATUS_OK, "parse: %s", pulsar_routing_status_message(status));
    if (status != PULSAR_ROUTING_STATUS_OK) {
        free(input);
        return;
    }
    CHECK(t.input == input && t.input_len == input_len && t.rules == rules, "input fields");
    check_topic_text("to_string", pulsar_routing_topic_name_to_string, &t, f[3]);
    CHECK(t.canonical_len == strlen(f[3]) / 2, "canonical_len %zu", t.canonical_len);
    const char *domain = pulsar_routing_topic_domain_name(t.domain);
    CHECK(domain != NULL && strcmp(domain, f[4]) == 0, "domain %s, expected %s",
          domain == NULL ? "(null)" : domain, f[4]);
    check_part("tenant", t.tenant, f[5]);
    if (strcmp(f[6], "-") == 0) {
        CHECK(t.cluster.data == NULL && t.cluster.len == 0, "a V2 name has no cluster");
    } else {
        check_part("cluster", t.cluster, f[6]);
    }
    check_part("namespace_portion", t.namespace_portion, f[7]);
    check_topic_text("namespace", pulsar_routing_topic_name_namespace, &t, f[8]);
    check_part("local_name", t.local_name, f[9]);
    int64_t index;
    if (parse_i64(f[10], &index)) {
        CHECK(t.partition_index == index, "partition_index %" PRId32 ", expected %" PRId64,
              t.partition_index, index);
    }
    check_topic_text("partitioned_topic_name", pulsar_routing_topic_name_partitioned_topic_name,
                     &t, f[11]);
    CHECK((t.domain != PULSAR_ROUTING_TOPIC_DOMAIN_NON_PERSISTENT) == (strcmp(f[12], "1") == 0),
          "persistent");
    check_topic_text("lookup_name", pulsar_routing_topic_name_lookup_name, &t, f[13]);
    check_topic_text("persistence_naming", pulsar_routing_topic_name_persistence_naming, &t, f[14]);
    check_topic_text("rest_path", rest_path_with_domain, &t, f[15]);
    check_topic_text("encoded_local_name", pulsar_routing_topic_name_encoded_local_name, &t,
                     f[16]);
    uint32_t crc = 0, expected_crc = crc_of_hex(f[3]);
    CHECK_OK(pulsar_routing_topic_name_crc32(&t, &crc));
    CHECK(crc == expected_crc, "crc32 of the canonical name");
    crc = 0;
    if (strcmp(f[17], "E") == 0) {
        uint8_t buf[8];
        size_t written = SIZE_MAX;
        CHECK_STATUS(pulsar_routing_topic_name_partition(&t, 3, buf, sizeof buf, &written),
                     PULSAR_ROUTING_STATUS_TOPIC_NAME_INVALID_SEGMENT_DESCRIPTOR);
        CHECK_STATUS(pulsar_routing_topic_name_partition_crc32(&t, 3, &crc),
                     PULSAR_ROUTING_STATUS_TOPIC_NAME_INVALID_SEGMENT_DESCRIPTOR);
        CHECK(written == SIZE_MAX && crc == 0, "written on failure");
    } else {
        check_topic_text("partition(3)", partition_3, &t, f[17]);
        CHECK_OK(pulsar_routing_topic_name_partition_crc32(&t, 3, &crc));
        CHECK(crc == crc_of_hex(f[17]), "crc32 of partition 3");
    }
    free(input);
}

static void check_topic_error_row(char **f, int n) {
    if (n != 4) {
        fail("TE row with %d fields", n);
        return;
    }
    pulsar_routing_topic_name_rules rules = rules_named(f[1]);
    size_t input_len = 0, message_len = 0;
    uint8_t *input = unhex(f[2], &input_len);
    uint8_t *message = unhex(f[3], &message_len);
    uint8_t *buf = malloc(message_len + 8);
    if (input == NULL || message == NULL || buf == NULL) {
        free(input), free(message), free(buf);
        return;
    }
    pulsar_routing_topic_name t, untouched;
    memset(&t, 0xa5, sizeof t);
    memcpy(&untouched, &t, sizeof t);
    pulsar_routing_status status = pulsar_routing_topic_name_parse(input, input_len, rules, &t);
    CHECK(is_topic_name_status(status), "parse gave %u (%s), expected a topic name error",
          (unsigned)status, pulsar_routing_status_message(status));
    CHECK(memcmp(&t, &untouched, sizeof t) == 0, "out-parameter written on failure");
    size_t written = SIZE_MAX;
    CHECK_OK(pulsar_routing_topic_name_error_message(input, input_len, rules, buf,
                                                     message_len + 8, &written));
    CHECK(same_bytes(buf, written, message, message_len), "message differs from Java's: %.*s",
          (int)(written < 400 ? written : 400), (const char *)buf);
    if (message_len > 0) {
        written = SIZE_MAX;
        CHECK_STATUS(pulsar_routing_topic_name_error_message(input, input_len, rules, buf,
                                                             message_len - 1, &written),
                     PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL);
        CHECK(written == message_len, "BUFFER_TOO_SMALL said %zu", written);
    }
    /* The bundle lookup by name fails the same way. */
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range = {-1, -1};
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, 4));
    CHECK_STATUS(pulsar_routing_bundle_layout_bundle_for_topic(&layout, input, input_len, rules,
                                                               &range),
                 status);
    free(buf), free(message), free(input);
}

static void check_partition_index_row(char **f, int n) {
    int64_t expected;
    size_t len = 0;
    if (n != 3 || !parse_i64(f[2], &expected)) {
        fail("bad TI row");
        return;
    }
    uint8_t *text = unhex(f[1], &len);
    if (text == NULL) return;
    int32_t index = INT32_MIN;
    CHECK_OK(pulsar_routing_get_partition_index(text, len, &index));
    CHECK(index == expected, "getPartitionIndex %" PRId32 ", expected %" PRId64, index, expected);
    free(text);
}

/* --- bundles.jsonl ----------------------------------------------------------------------- */

static void check_default_bundles_row(char **f, int n) {
    int64_t k;
    if (n != 5 || !parse_i64(f[1], &k)) {
        fail("bad DB row");
        return;
    }
    pulsar_routing_bundle_layout layout;
    uint32_t one = 0;
    size_t written = SIZE_MAX;
    if (strcmp(f[2], "-") == 0) {
        /* Java rejects k <= 0; a uint32_t count cannot be negative, so 0
         * stands for all of them. */
        CHECK(k <= 0, "Java rejected %" PRId64 " bundles", k);
        CHECK_STATUS(pulsar_routing_bundle_layout_init_default(&layout, 0),
                     PULSAR_ROUTING_STATUS_NO_BUNDLES);
        CHECK_STATUS(pulsar_routing_default_boundaries(0, &one, 1, &written),
                     PULSAR_ROUTING_STATUS_NO_BUNDLES);
        CHECK(written == SIZE_MAX, "written on failure");
        return;
    }
    if (k <= 0 || k > UINT32_MAX) {
        fail("bundle count %" PRId64, k);
        return;
    }
    size_t len = 0;
    uint32_t *boundaries = malloc(((size_t)k + 1) * sizeof *boundaries);
    if (boundaries == NULL) {
        fail("out of memory");
        return;
    }
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, (uint32_t)k));
    CHECK_OK(pulsar_routing_bundle_layout_len(&layout, &len));
    CHECK(len == (size_t)k, "len %zu", len);
    CHECK_OK(pulsar_routing_bundle_layout_boundaries(&layout, boundaries, (size_t)k + 1,
                                                     &written));
    check_boundary_list("layout boundaries", boundaries, written, f[2]);
    memset(boundaries, 0, ((size_t)k + 1) * sizeof *boundaries);
    CHECK_STATUS(pulsar_routing_default_boundaries((uint32_t)k, boundaries, (size_t)k, &written),
                 PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL);
    CHECK(written == (size_t)k + 1, "BUFFER_TOO_SMALL said %zu", written);
    CHECK_OK(pulsar_routing_default_boundaries((uint32_t)k, boundaries, (size_t)k + 1, &written));
    check_boundary_list("default boundaries", boundaries, written, f[2]);
    check_bundle_names(&layout, 0, f[3]);
    size_t count = 0;
    char **closed = split_list(f[4], &count);
    if (closed != NULL) {
        CHECK(count == (size_t)k, "%zu upper_closed flags", count);
        for (size_t i = 0; i < count; i++) {
            pulsar_routing_bundle_range range = {0, 0};
            CHECK_OK(pulsar_routing_bundle_layout_bundle(&layout, i, &range));
            CHECK((range.upper == 0xffffffff) == (strcmp(closed[i], "1") == 0),
                  "upper_closed of bundle %zu", i);
        }
        free(closed);
    }
    free(boundaries);
}

/* Parses a topic and checks its canonical name and hash. */
static bool parse_bundle_topic(const char *rules_name, const char *topic_hex,
                               const char *canonical_hex, const char *crc_text, uint8_t **input,
                               size_t *input_len, pulsar_routing_topic_name *t, uint32_t *crc) {
    pulsar_routing_topic_name_rules rules = rules_named(rules_name);
    uint64_t expected_crc;
    if (!parse_u64(crc_text, &expected_crc)) return false;
    *input = unhex(topic_hex, input_len);
    if (*input == NULL) return false;
    pulsar_routing_status status = pulsar_routing_topic_name_parse(*input, *input_len, rules, t);
    CHECK(status == PULSAR_ROUTING_STATUS_OK, "parse: %s", pulsar_routing_status_message(status));
    if (status != PULSAR_ROUTING_STATUS_OK) {
        free(*input);
        return false;
    }
    check_topic_text("canonical", pulsar_routing_topic_name_to_string, t, canonical_hex);
    *crc = 0;
    CHECK_OK(pulsar_routing_topic_name_crc32(t, crc));
    CHECK(*crc == expected_crc, "crc32 %" PRIu32 ", expected %" PRIu64, *crc, expected_crc);
    return true;
}

static void check_topic_bundle_row(char **f, int n) {
    int64_t k;
    if (n != 9 || !parse_i64(f[2], &k) || k <= 0) {
        fail("bad TB row");
        return;
    }
    uint8_t *input;
    size_t input_len;
    pulsar_routing_topic_name t;
    uint32_t crc;
    if (!parse_bundle_topic(f[1], f[3], f[4], f[5], &input, &input_len, &t, &crc)) return;
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range = {-1, -1}, by_hash = {-2, -2};
    size_t index = SIZE_MAX, java_index = SIZE_MAX;
    char name[64];
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, (uint32_t)k));
    CHECK_OK(pulsar_routing_bundle_layout_bundle_for_topic(&layout, input, input_len, t.rules,
                                                           &range));
    range_name(range, name);
    CHECK(strcmp(name, f[6]) == 0, "bundle %s, expected %s", name, f[6]);
    CHECK_OK(pulsar_routing_bundle_layout_bundle_for_hash(&layout, crc, &by_hash));
    CHECK(by_hash.lower == range.lower && by_hash.upper == range.upper, "bundle_for_hash");
    CHECK_OK(pulsar_routing_bundle_layout_bundle_index_for_hash(&layout, crc, &index));
    CHECK_OK(pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, crc, &java_index));
    CHECK(index == java_index, "the Java-strict lookup agrees below 0xffffffff");
    bool includes = false;
    CHECK_OK(pulsar_routing_bundle_range_includes(range, crc, &includes));
    CHECK(includes == (strcmp(f[8], "1") == 0), "includes");

    /* The bundle key: the topic's namespace, then the range. */
    uint8_t ns[512], key[600];
    size_t ns_len = 0, key_len = 0, want_len = 0;
    CHECK_OK(pulsar_routing_topic_name_namespace(&t, ns, sizeof ns, &ns_len));
    CHECK_OK(pulsar_routing_bundle_range_key(range, ns, ns_len, key, sizeof key, &key_len));
    uint8_t *want = unhex(f[7], &want_len);
    if (want != NULL) {
        CHECK(same_bytes(key, key_len, want, want_len), "bundle key differs");
        free(want);
    }

    /* A partition is also what getPartition builds from its parent, and it
     * hashes the same. */
    if (t.partition_index != -1) {
        uint8_t *parent = malloc(t.canonical_len + 1);
        size_t parent_len = 0;
        if (parent != NULL) {
            pulsar_routing_topic_name p;
            uint32_t partition_crc = 0;
            CHECK_OK(pulsar_routing_topic_name_partitioned_topic_name(
                &t, parent, t.canonical_len + 1, &parent_len));
            if (pulsar_routing_topic_name_parse(parent, parent_len, t.rules, &p) ==
                PULSAR_ROUTING_STATUS_OK) {
                CHECK_OK(pulsar_routing_topic_name_partition_crc32(&p, t.partition_index,
                                                                   &partition_crc));
                CHECK(partition_crc == crc, "the partition's name hashes differently");
            }
            free(parent);
        }
    }
    free(input);
}

static void check_topic_bundle_error_row(char **f, int n) {
    int64_t k;
    if (n != 7 || !parse_i64(f[2], &k) || k <= 0) {
        fail("bad TBE row");
        return;
    }
    uint8_t *input;
    size_t input_len;
    pulsar_routing_topic_name t;
    uint32_t crc;
    if (!parse_bundle_topic(f[1], f[3], f[4], f[5], &input, &input_len, &t, &crc)) return;
    CHECK(crc == 0xffffffffu, "only 0xffffffff has no bundle in Java");
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range = {-1, -1};
    size_t index = SIZE_MAX;
    char name[64];
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, (uint32_t)k));
    CHECK_STATUS(pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, crc, &index),
                 PULSAR_ROUTING_STATUS_NO_BUNDLE_FOR_HASH);
    CHECK(index == SIZE_MAX, "written on failure");
    /* The lenient lookup gives the bundle whose range includes it. */
    CHECK_OK(pulsar_routing_bundle_layout_bundle_index_for_hash(&layout, crc, &index));
    CHECK(index == (size_t)k - 1, "0xffffffff goes to the last bundle");
    CHECK_OK(pulsar_routing_bundle_layout_bundle_for_topic(&layout, input, input_len, t.rules,
                                                           &range));
    range_name(range, name);
    CHECK(strcmp(name, f[6]) == 0, "bundle %s, expected %s", name, f[6]);
    bool includes = false;
    CHECK_OK(pulsar_routing_bundle_range_includes(range, crc, &includes));
    CHECK(includes, "includes");
    free(input);
}

static void check_topic_bundle_parse_error_row(char **f, int n) {
    if (n != 3) {
        fail("bad TBP row");
        return;
    }
    size_t len = 0;
    uint8_t *input = unhex(f[2], &len);
    if (input == NULL) return;
    pulsar_routing_topic_name t;
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range = {-1, -1};
    pulsar_routing_status status =
        pulsar_routing_topic_name_parse(input, len, rules_named(f[1]), &t);
    CHECK(is_topic_name_status(status), "parse gave %u", (unsigned)status);
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, 4));
    CHECK_STATUS(
        pulsar_routing_bundle_layout_bundle_for_topic(&layout, input, len, rules_named(f[1]), &range),
        status);
    CHECK(range.lower == -1, "written on failure");
    free(input);
}

static void check_hash_bundle_row(char **f, int n) {
    int64_t k;
    uint64_t hash;
    if (n != 4 || !parse_i64(f[1], &k) || k <= 0 || !parse_u64(f[2], &hash)) {
        fail("bad HB row");
        return;
    }
    pulsar_routing_bundle_layout layout;
    pulsar_routing_bundle_range range = {-1, -1};
    size_t index = SIZE_MAX, java_index = SIZE_MAX;
    char name[64];
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&layout, (uint32_t)k));
    CHECK_OK(pulsar_routing_bundle_layout_bundle_index_for_hash(&layout, (uint32_t)hash, &index));
    if (strcmp(f[3], "E") == 0) {
        CHECK_STATUS(pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, (uint32_t)hash,
                                                                             &java_index),
                     PULSAR_ROUTING_STATUS_NO_BUNDLE_FOR_HASH);
        CHECK(java_index == SIZE_MAX, "written on failure");
        CHECK(index == (size_t)k - 1, "the last bundle includes it");
        return;
    }
    CHECK_OK(pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, (uint32_t)hash,
                                                                     &java_index));
    CHECK(index == java_index, "index %zu, Java-strict %zu", index, java_index);
    CHECK_OK(pulsar_routing_bundle_layout_bundle_for_hash(&layout, (uint32_t)hash, &range));
    range_name(range, name);
    CHECK(strcmp(name, f[3]) == 0, "bundle %s, expected %s", name, f[3]);
}

static void check_parse_range_row(char **f, int n) {
    int64_t lower, upper;
    size_t len = 0;
    if (n != 8 || !parse_i64(f[2], &lower) || !parse_i64(f[3], &upper)) {
        fail("bad PR row");
        return;
    }
    uint8_t *input = unhex(f[1], &len);
    if (input == NULL) return;
    pulsar_routing_bundle_range range = {-1, -1};
    char name[64];
    CHECK_OK(pulsar_routing_bundle_range_parse(input, len, &range));
    CHECK(range.lower == lower && range.upper == upper,
          "range [%" PRId64 ", %" PRId64 "], expected [%" PRId64 ", %" PRId64 "]", range.lower,
          range.upper, lower, upper);
    CHECK((range.upper == 0xffffffff) == (strcmp(f[4], "1") == 0), "upper_closed");
    range_name(range, name);
    CHECK(strcmp(name, f[5]) == 0, "name %s, expected %s", name, f[5]);
    uint8_t key[128];
    size_t key_len = 0, want_len = 0;
    CHECK_OK(pulsar_routing_bundle_range_key(range, (const uint8_t *)"t/ns", 4, key, sizeof key,
                                             &key_len));
    uint8_t *want = unhex(f[6], &want_len);
    if (want != NULL) {
        CHECK(same_bytes(key, key_len, want, want_len), "key differs");
        free(want);
    }
    pulsar_routing_bundle_layout four;
    size_t index = SIZE_MAX;
    CHECK_OK(pulsar_routing_bundle_layout_init_default(&four, 4));
    pulsar_routing_status status = pulsar_routing_bundle_layout_validate_bundle(&four, range, &index);
    CHECK((status == PULSAR_ROUTING_STATUS_OK) == (strcmp(f[7], "1") == 0),
          "validate_bundle gave %u", (unsigned)status);
    free(input);
}

static void check_parse_range_error_row(char **f, int n) {
    size_t len = 0;
    if (n != 3) {
        fail("bad PRE row");
        return;
    }
    uint8_t *input = unhex(f[1], &len);
    if (input == NULL) return;
    pulsar_routing_bundle_range range = {-1, -1};
    pulsar_routing_status status = pulsar_routing_bundle_range_parse(input, len, &range);
    if (strcmp(f[2], "java.lang.ArrayIndexOutOfBoundsException") == 0) {
        CHECK(status == PULSAR_ROUTING_STATUS_MISSING_UPPER_BOUND, "status %u", (unsigned)status);
    } else if (strcmp(f[2], "java.lang.IllegalArgumentException") == 0) {
        CHECK(status == PULSAR_ROUTING_STATUS_INVALID_BUNDLE_RANGE ||
                  status == PULSAR_ROUTING_STATUS_EMPTY_RANGE ||
                  status == PULSAR_ROUTING_STATUS_INVALID_RANGE,
              "status %u", (unsigned)status);
    } else {
        fail("unexpected error class %s", f[2]);
    }
    CHECK(range.lower == -1 && range.upper == -1, "written on failure");
    free(input);
}

/* Splits `target` of the layout over `before` at `points` and checks the
 * result against the expected boundaries and new bundles (or an error). */
static void check_split(const uint32_t *before, size_t n_before, pulsar_routing_bundle_range target,
                        int64_t *points, size_t n_points, uint32_t parts, bool equally,
                        const char *outcome, const char *after_field, const char *new_field) {
    pulsar_routing_bundle_layout layout, after;
    size_t cap = n_before + (equally ? parts : n_points + 1), written = SIZE_MAX, index = SIZE_MAX;
    uint32_t *out = malloc((cap + 1) * sizeof *out);
    if (out == NULL) {
        fail("out of memory");
        return;
    }
    CHECK_OK(pulsar_routing_bundle_layout_init(&layout, before, n_before));
    pulsar_routing_status status =
        equally ? pulsar_routing_bundle_layout_split_equally(&layout, target, parts, out, cap,
                                                             &written)
                : pulsar_routing_bundle_layout_split(&layout, target, points, n_points, out, cap,
                                                     &written);
    if (strcmp(outcome, "E") == 0) {
        CHECK(status != PULSAR_ROUTING_STATUS_OK && status != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL,
              "the split should fail");
        CHECK(written == SIZE_MAX, "written on failure");
        free(out);
        return;
    }
    CHECK(status == PULSAR_ROUTING_STATUS_OK, "split: %s", pulsar_routing_status_message(status));
    if (status == PULSAR_ROUTING_STATUS_OK) {
        check_boundary_list("boundaries after", out, written, after_field);
        CHECK_OK(pulsar_routing_bundle_layout_validate_bundle(&layout, target, &index));
        CHECK_OK(pulsar_routing_bundle_layout_init(&after, out, written));
        check_bundle_names(&after, index, new_field);
    }
    free(out);
}

static void check_split_row(char **f, int n) {
    if (n != 12) {
        fail("SP row with %d fields", n);
        return;
    }
    const char *algorithm = f[1];
    size_t n_before = 0, n_topics = 0, n_chosen = 0, n_expected = 0;
    uint32_t *before = parse_boundaries(f[2], &n_before);
    uint32_t *hashes = NULL;
    int64_t *chosen = NULL, *expected = NULL;
    pulsar_routing_bundle_range target = {-1, -1};
    if (before == NULL) return;
    CHECK_OK(pulsar_routing_bundle_range_parse((const uint8_t *)f[3], strlen(f[3]), &target));

    /* The topics' bundle hashes: the CRC-32 of each name as given. */
    char **topics = strcmp(f[5], "-") == 0 ? NULL : split_list(f[5], &n_topics);
    hashes = malloc((n_topics + 1) * sizeof *hashes);
    chosen = malloc((n_topics + 64) * sizeof *chosen);
    if (hashes == NULL || chosen == NULL) {
        fail("out of memory");
        goto done;
    }
    for (size_t i = 0; i < n_topics; i++) hashes[i] = crc_of_hex(topics[i]);

    if (strcmp(algorithm, "range_equally_divide") == 0) {
        CHECK_OK(pulsar_routing_range_equally_divide(target, &chosen[0]));
        n_chosen = 1;
    } else if (strcmp(algorithm, "topic_count_equally_divide") == 0) {
        CHECK_OK(pulsar_routing_topic_count_equally_divide(hashes, n_topics, chosen, 64,
                                                           &n_chosen));
    } else if (strncmp(algorithm, "specified_positions_divide", 26) == 0) {
        bool force = strcmp(algorithm, "specified_positions_divide_force") == 0;
        size_t n_positions = 0;
        int64_t *positions = parse_i64_list(f[4], &n_positions);
        if (positions == NULL) goto done;
        pulsar_routing_status status = pulsar_routing_specified_positions_divide(
            target, positions, n_positions, n_topics, force, chosen, 64, &n_chosen);
        free(positions);
        if (status == PULSAR_ROUTING_STATUS_NO_SPLIT_POSITIONS) {
            /* Thrown synchronously by the broker: no split boundaries. */
            CHECK(strcmp(f[9], "E") == 0 && strcmp(f[8], "-") == 0, "unexpected error");
            goto done;
        }
        CHECK_OK(status);
    } else if (strcmp(algorithm, "flow_or_qps_equally_divide") == 0) {
        size_t n_args = 0, n_loads = 0;
        int64_t *args = parse_i64_list(f[7], &n_args);
        pulsar_routing_topic_load *loads = malloc((n_topics + 1) * sizeof *loads);
        char *entry = f[6];
        if (args == NULL || loads == NULL || n_args != 3) {
            fail("bad flow inputs");
            free(args), free(loads);
            goto done;
        }
        /* ';'-separated stats, one per topic; 'n' for a topic without. */
        for (size_t i = 0; i < n_topics && entry != NULL; i++) {
            char *next = strchr(entry, ';');
            if (next != NULL) *next++ = '\0';
            if (strcmp(entry, "n") != 0) {
                double v[4];
                char *at = entry;
                for (int j = 0; j < 4; j++) {
                    v[j] = strtod(at, &at);
                    if (*at == ',') at++;
                }
                loads[n_loads++] = (pulsar_routing_topic_load){v[0], v[1], v[2], v[3], hashes[i]};
            }
            entry = next;
        }
        pulsar_routing_flow_limits limits = {(int32_t)args[0], (int32_t)args[1], (int32_t)args[2]};
        CHECK_OK(pulsar_routing_flow_or_qps_equally_divide(n_topics, loads, n_loads, limits, chosen,
                                                           n_topics + 64, &n_chosen));
        free(args), free(loads);
    } else {
        fail("unknown algorithm %s", algorithm);
        goto done;
    }

    /* The algorithm's answer, as split_boundaries ('-' for no split). */
    if (strcmp(f[8], "-") == 0) {
        CHECK(n_chosen == 0, "%zu split points where Java has none", n_chosen);
    } else {
        expected = parse_i64_list(f[8], &n_expected);
        if (expected == NULL) goto done;
        CHECK(n_chosen == n_expected, "%zu split points, expected %zu", n_chosen, n_expected);
        for (size_t i = 0; i < n_chosen && i < n_expected; i++) {
            CHECK(chosen[i] == expected[i], "split point %zu: %" PRId64 ", expected %" PRId64, i,
                  chosen[i], expected[i]);
        }
    }
    if (n_chosen == 0) {
        CHECK(strcmp(f[9], "NS") == 0, "no split, but Java's outcome is %s", f[9]);
        goto done;
    }
    check_split(before, n_before, target, chosen, n_chosen, 0, false, f[9], f[10], f[11]);
done:
    free(expected), free(chosen), free(hashes), free(topics), free(before);
}

static void check_split_equal_row(char **f, int n) {
    int64_t parts;
    if (n != 6 || !parse_i64(f[3], &parts) || parts <= 0) {
        fail("bad SE row");
        return;
    }
    size_t n_before = 0;
    uint32_t *before = parse_boundaries(f[1], &n_before);
    pulsar_routing_bundle_range target = {-1, -1};
    if (before == NULL) return;
    CHECK_OK(pulsar_routing_bundle_range_parse((const uint8_t *)f[2], strlen(f[2]), &target));
    check_split(before, n_before, target, NULL, 0, (uint32_t)parts, true, "OK", f[4], f[5]);
    free(before);
}

static void check_bundles_from_boundaries_row(char **f, int n, bool valid) {
    if (n != (valid ? 4 : 2)) {
        fail("bad BB row");
        return;
    }
    size_t count = 0;
    uint32_t *boundaries = parse_boundaries(f[1], &count);
    if (boundaries == NULL) return;
    pulsar_routing_bundle_layout layout;
    pulsar_routing_status status = pulsar_routing_bundle_layout_init(&layout, boundaries, count);
    if (!valid) {
        CHECK(status >= 500 && status < 600, "status %u (%s), expected a bundle error",
              (unsigned)status, pulsar_routing_status_message(status));
        free(boundaries);
        return;
    }
    CHECK_OK(status);
    check_bundle_names(&layout, 0, f[2]);
    size_t n_probes = 0;
    char **probes = split_list(f[3], &n_probes);
    for (size_t i = 0; probes != NULL && i < n_probes; i++) {
        char *equals = strchr(probes[i], '=');
        uint64_t hash;
        if (equals == NULL) {
            fail("bad probe");
            break;
        }
        *equals = '\0';
        if (!parse_u64(probes[i], &hash)) break;
        size_t index = SIZE_MAX;
        pulsar_routing_status got =
            pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, (uint32_t)hash, &index);
        if (strcmp(equals + 1, "E") == 0) {
            CHECK(got == PULSAR_ROUTING_STATUS_NO_BUNDLE_FOR_HASH && index == SIZE_MAX,
                  "probe %" PRIu64 " should fail", hash);
        } else {
            pulsar_routing_bundle_range range = {-1, -1};
            char name[64];
            CHECK_OK(got);
            CHECK_OK(pulsar_routing_bundle_layout_bundle(&layout, index, &range));
            range_name(range, name);
            CHECK(strcmp(name, equals + 1) == 0, "probe %" PRIu64 ": %s, expected %s", hash, name,
                  equals + 1);
        }
    }
    free(probes);
    free(boundaries);
}

static void check_validate_full_range_row(char **f, int n) {
    if (n != 3) {
        fail("bad VF row");
        return;
    }
    size_t count = 0;
    char **items = split_list(f[1], &count);
    pulsar_routing_str *strings = malloc((count + 1) * sizeof *strings);
    uint8_t **texts = calloc(count + 1, sizeof *texts);
    if (items == NULL || strings == NULL || texts == NULL) {
        free(items), free(strings), free(texts);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        size_t len = 0;
        texts[i] = unhex(items[i], &len);
        strings[i] = (pulsar_routing_str){texts[i] != NULL ? texts[i] : (const uint8_t *)"", len};
    }
    pulsar_routing_status status = pulsar_routing_validate_full_range(strings, count);
    if (strcmp(f[2], "1") == 0) {
        CHECK_OK(status);
    } else {
        CHECK_STATUS(status, PULSAR_ROUTING_STATUS_NOT_FULL_RANGE);
    }
    for (size_t i = 0; i < count; i++) free(texts[i]);
    free(texts), free(strings), free(items);
}

static void check_can_split_row(char **f, int n) {
    if (n != 3) {
        fail("bad CS row");
        return;
    }
    pulsar_routing_bundle_range range = {-1, -1};
    bool can = false;
    CHECK_OK(pulsar_routing_bundle_range_parse((const uint8_t *)f[1], strlen(f[1]), &range));
    CHECK_OK(pulsar_routing_bundle_range_can_split(range, &can));
    CHECK(can == (strcmp(f[2], "1") == 0), "can_split");
}

/* --- Key_Shared ------------------------------------------------------------------------- */

/* SHA-256 (FIPS 180-4), for the golden files' assignments_sha256. */
struct sha256 {
    uint32_t h[8];
    uint8_t block[64];
    size_t used;
    uint64_t bytes;
};

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static void sha256_init(struct sha256 *s) {
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->used = 0;
    s->bytes = 0;
}

static void sha256_block(struct sha256 *s) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
        w[i] = (uint32_t)s->block[4 * i] << 24 | (uint32_t)s->block[4 * i + 1] << 16 |
               (uint32_t)s->block[4 * i + 2] << 8 | s->block[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                      sha256_k[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha256_update(struct sha256 *s, const void *data, size_t len) {
    const uint8_t *p = data;
    s->bytes += len;
    while (len > 0) {
        size_t n = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, n);
        s->used += n, p += n, len -= n;
        if (s->used == 64) {
            sha256_block(s);
            s->used = 0;
        }
    }
}

/* The digest as lower-case hex, NUL-terminated. */
static void sha256_hex(struct sha256 *s, char hex[65]) {
    uint64_t bits = s->bytes * 8;
    uint8_t pad = 0x80;
    sha256_update(s, &pad, 1);
    pad = 0;
    while (s->used != 56) sha256_update(s, &pad, 1);
    uint8_t length[8];
    for (int i = 0; i < 8; i++) length[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_update(s, length, 8);
    for (int i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08" PRIx32, s->h[i]);
}

/* The selector of the current AutoSplit or consistent-hashing scenario,
 * and the two exclusive selectors (current rules, rules before #24730) of
 * the current exclusive case. NULL between scenarios. */
static pulsar_routing_selector *ks_selector;
static pulsar_routing_selector *ks_exclusive[2];
/* How many times a selector grew past its room, over the whole run. */
static unsigned long ks_growths;

static void free_key_shared(void) {
    pulsar_routing_selector_free(ks_selector);
    pulsar_routing_selector_free(ks_exclusive[0]);
    pulsar_routing_selector_free(ks_exclusive[1]);
    ks_selector = ks_exclusive[0] = ks_exclusive[1] = NULL;
}

/* Counts a growth when an add left the selector with more room than it
 * had: the scenarios start it tiny, so adds must grow it on their own
 * instead of failing with a capacity status. */
static void ks_count_growth(const pulsar_routing_selector *selector,
                            const pulsar_routing_selector_capacity *before) {
    pulsar_routing_selector_capacity after = {0, 0, 0};
    CHECK_OK(pulsar_routing_selector_get_capacity(selector, &after));
    if (after.max_consumers != before->max_consumers || after.name_bytes != before->name_bytes ||
        after.max_ranges != before->max_ranges) {
        ks_growths++;
    }
}

/* The selector's last error message, NUL-terminated, in a fresh buffer the
 * caller frees ("" without one). */
static char *ks_last_error(const pulsar_routing_selector *selector) {
    size_t needed = 0;
    uint8_t probe[1] = {0};
    pulsar_routing_status status =
        pulsar_routing_selector_last_error_message(selector, probe, 0, &needed);
    if (status != PULSAR_ROUTING_STATUS_OK && status != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL) {
        fail("last_error_message: %s", pulsar_routing_status_message(status));
        return NULL;
    }
    char *text = malloc(needed + 1);
    if (text == NULL) {
        fail("out of memory");
        return NULL;
    }
    size_t written = 0;
    if (needed > 0) {
        CHECK_OK(pulsar_routing_selector_last_error_message(selector, (uint8_t *)text, needed,
                                                            &written));
    }
    CHECK(written == needed, "last_error_message wrote %zu of %zu bytes", written, needed);
    text[needed] = '\0';
    return text;
}

/* Checks a failed (or successful) operation against the golden error
 * fields: the status's Java class and the selector's full message, which
 * must equal Java's (match 'E') or, for 'P', be Java's message cut after
 * the consumer id followed by "}" (Java prints the broker's Consumer). */
static void ks_check_error(const char *what, const pulsar_routing_selector *selector,
                           pulsar_routing_status status, bool ok, const char *error_class,
                           const char *error_hex, char match) {
    char *message = ks_last_error(selector);
    if (message == NULL) return;
    if (ok) {
        CHECK(status == PULSAR_ROUTING_STATUS_OK, "%s: status %u (%s, %s), expected OK", what,
              (unsigned)status, pulsar_routing_status_message(status), message);
        CHECK(message[0] == '\0', "%s: last error '%s' after a success", what, message);
        free(message);
        return;
    }
    const char *class_name = pulsar_routing_key_shared_error_class(status);
    CHECK(class_name != NULL && strcmp(class_name, error_class) == 0,
          "%s: status %u (%s) has class %s, expected %s", what, (unsigned)status,
          pulsar_routing_status_message(status), class_name ? class_name : "NULL", error_class);
    size_t len = 0;
    uint8_t *expected = unhex(error_hex, &len);
    if (expected != NULL) {
        size_t got = strlen(message);
        if (match == 'P') {
            CHECK(got == len + 1 && memcmp(message, expected, len) == 0 && message[len] == '}',
                  "%s: message '%s', expected '%.*s}'", what, message, (int)len,
                  (const char *)expected);
        } else {
            CHECK(same_bytes((const uint8_t *)message, got, expected, len),
                  "%s: message '%s', expected '%.*s'", what, message, (int)len,
                  (const char *)expected);
        }
        /* The static text of the code is the message's fixed start. */
        const char *fixed = pulsar_routing_status_message(status);
        CHECK(strncmp(message, fixed, strlen(fixed)) == 0, "%s: '%s' does not start with '%s'",
              what, message, fixed);
    }
    free(expected);
    free(message);
}

struct ks_triple {
    uint64_t consumer;
    int64_t start, end;
};

static int ks_triple_order(const void *a, const void *b) {
    const struct ks_triple *x = a, *y = b;
    if (x->consumer != y->consumer) return x->consumer < y->consumer ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* Checks records (in any order) against a golden triples field. */
static void ks_check_triples(const char *what, const pulsar_routing_assignment *records, size_t n,
                             const char *field) {
    struct ks_triple *got = malloc((n + 1) * sizeof *got);
    char *copy = list_copy(field);
    size_t count = 0;
    char **items = copy != NULL ? split_list(copy, &count) : NULL;
    if (got == NULL || items == NULL) {
        fail("out of memory");
        free(got);
        free(copy);
        free(items);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        got[i] = (struct ks_triple){records[i].consumer, records[i].start, records[i].end};
    }
    qsort(got, n, sizeof *got, ks_triple_order);
    bool same = count == n;
    for (size_t i = 0; same && i < n; i++) {
        unsigned long long consumer = 0;
        long long start = 0, end = 0;
        same = sscanf(items[i], "%llu:%lld:%lld", &consumer, &start, &end) == 3 &&
               consumer == got[i].consumer && start == got[i].start && end == got[i].end;
    }
    if (!same) {
        fail("%s: %zu ranges, expected %zu (%.200s)", what, n, count, field);
        for (size_t i = 0; i < n && i < 5; i++) {
            fprintf(stderr, "  got %" PRIu64 ":%" PRId64 ":%" PRId64 "\n", got[i].consumer,
                    got[i].start, got[i].end);
        }
    }
    free(got);
    free(copy);
    free(items);
}

typedef pulsar_routing_status (*ks_records_fn)(const pulsar_routing_selector *,
                                               pulsar_routing_assignment *, size_t, size_t *);

/* Reads records the C way: asks for the size with an empty buffer, then
 * fills a buffer of that size. The caller frees the result. */
static pulsar_routing_assignment *ks_records(const pulsar_routing_selector *selector,
                                             ks_records_fn f, size_t *n) {
    pulsar_routing_assignment probe[1];
    size_t needed = 0;
    pulsar_routing_status status = f(selector, probe, 0, &needed);
    if (status != PULSAR_ROUTING_STATUS_OK && status != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL) {
        fail("records: %s", pulsar_routing_status_message(status));
        return NULL;
    }
    pulsar_routing_assignment *records = malloc((needed + 1) * sizeof *records);
    if (records == NULL) {
        fail("out of memory");
        return NULL;
    }
    size_t written = 0;
    if (needed > 0) CHECK_OK(f(selector, records, needed, &written));
    CHECK(written == needed, "records: wrote %zu of %zu", written, needed);
    *n = needed;
    return records;
}

/* Checks `slot:consumer` lookups, consumer 'n' for none. */
static void ks_check_lookups(const char *what, const pulsar_routing_selector *selector,
                             const char *field) {
    char *copy = list_copy(field);
    size_t count = 0;
    char **items = copy != NULL ? split_list(copy, &count) : NULL;
    for (size_t i = 0; items != NULL && i < count; i++) {
        unsigned long slot = 0;
        char consumer[32] = "";
        if (sscanf(items[i], "%lu:%31s", &slot, consumer) != 2) {
            fail("%s: bad lookup '%s'", what, items[i]);
            continue;
        }
        uint64_t got = UINT64_MAX;
        pulsar_routing_status status = pulsar_routing_selector_select(selector, (uint32_t)slot, &got);
        if (strcmp(consumer, "n") == 0) {
            CHECK(status == PULSAR_ROUTING_STATUS_NO_CONSUMER && got == UINT64_MAX,
                  "%s: select(%lu) gave status %u, consumer %" PRIu64 ", expected none", what,
                  slot, (unsigned)status, got);
        } else {
            CHECK(status == PULSAR_ROUTING_STATUS_OK && got == strtoull(consumer, NULL, 10),
                  "%s: select(%lu) gave status %u, consumer %" PRIu64 ", expected %s", what, slot,
                  (unsigned)status, got, consumer);
        }
    }
    free(copy);
    free(items);
}

/* The per-consumer ranges, against a golden triples field ('-' skips the
 * comparison), and their number of consumers against `count` (or -1). The
 * first few consumers' ranges are read again one consumer at a time. */
static void ks_check_consumer_ranges(const char *what, const pulsar_routing_selector *selector,
                                     const char *field, long count) {
    size_t n = 0;
    pulsar_routing_assignment *ranges =
        ks_records(selector, pulsar_routing_selector_consumer_ranges, &n);
    if (ranges == NULL) return;
    if (strcmp(field, "-") != 0) ks_check_triples(what, ranges, n, field);
    struct ks_triple *sorted = malloc((n + 1) * sizeof *sorted);
    pulsar_routing_hash_range *own = malloc((n + 1) * sizeof *own);
    if (sorted == NULL || own == NULL) {
        fail("out of memory");
        free(ranges), free(sorted), free(own);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        sorted[i] = (struct ks_triple){ranges[i].consumer, ranges[i].start, ranges[i].end};
    }
    qsort(sorted, n, sizeof *sorted, ks_triple_order);
    size_t consumers = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && sorted[j].consumer == sorted[i].consumer) j++;
        if (consumers++ < 3) {
            size_t own_n = 0;
            CHECK_OK(pulsar_routing_selector_ranges_of(selector, sorted[i].consumer, own, n,
                                                       &own_n));
            bool same = own_n == j - i;
            for (size_t k = 0; same && k < own_n; k++) {
                same = own[k].start == sorted[i + k].start && own[k].end == sorted[i + k].end;
            }
            CHECK(same, "%s: ranges_of(%" PRIu64 ") disagrees", what, sorted[i].consumer);
        }
        i = j;
    }
    if (count >= 0) {
        CHECK(consumers == (size_t)count, "%s: %zu consumers with ranges, expected %ld", what,
              consumers, count);
    }
    free(ranges);
    free(sorted);
    free(own);
}

static void check_ks_hash_row(char **f, int n) {
    if (n != 10) {
        fail("KH row with %d fields", n);
        return;
    }
    size_t len = 0;
    uint8_t *key = unhex(f[3], &len);
    if (key == NULL) return;
    int64_t murmur = 0, slot_auto = 0, slot_ch = 0, slot_classic = 0;
    parse_i64(f[4], &murmur), parse_i64(f[5], &slot_auto), parse_i64(f[6], &slot_ch);
    parse_i64(f[7], &slot_classic);
    const pulsar_routing_hash_range ranges[3] = {
        {0, 65535}, {1, 65535}, {1, PULSAR_ROUTING_CLASSIC_CONSISTENT_HASHING_RANGE_MAX}};
    const int64_t expected[3] = {slot_auto, slot_ch, slot_classic};
    for (int r = 0; r < 3; r++) {
        uint32_t slot = 0;
        CHECK_OK(pulsar_routing_slot_of(key, len, ranges[r], &slot));
        CHECK(slot == expected[r], "slot_of in [%d, %d]: %u, expected %" PRId64, ranges[r].start,
              ranges[r].end, slot, expected[r]);
        /* The same key as a message's ordering key, and as its partition key. */
        const pulsar_routing_str key_str = {key, len}, absent = {NULL, 0};
        pulsar_routing_message_keys ordering = {key_str, absent, absent, 0, false, false};
        pulsar_routing_message_keys partition = {absent, key_str, absent, 0, false, false};
        uint32_t by_ordering = 0, by_partition = 0;
        CHECK_OK(pulsar_routing_message_keys_slot(&ordering, ranges[r], &by_ordering));
        CHECK_OK(pulsar_routing_message_keys_slot(&partition, ranges[r], &by_partition));
        CHECK(by_ordering == expected[r] && by_partition == expected[r],
              "message_keys_slot in [%d, %d]: %u and %u, expected %" PRId64, ranges[r].start,
              ranges[r].end, by_ordering, by_partition, expected[r]);
        uint32_t batch[1] = {0};
        size_t written = 0;
        CHECK_OK(pulsar_routing_slots_of(&key_str, 1, ranges[r], batch, 1, &written));
        CHECK(written == 1 && batch[0] == expected[r], "slots_of: %u", batch[0]);
    }
    static const pulsar_routing_selector_kind kinds[3] = {
        PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT, PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING,
        PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE};
    const int64_t by_kind[3] = {slot_auto, slot_ch, slot_auto};
    for (int k = 0; k < 3; k++) {
        uint32_t slot = 0;
        CHECK_OK(pulsar_routing_sticky_key_hash(key, len, kinds[k], &slot));
        CHECK(slot == by_kind[k], "sticky_key_hash(%s): %u, expected %" PRId64,
              pulsar_routing_selector_kind_name(kinds[k]), slot, by_kind[k]);
    }
    const pulsar_routing_str absent = {NULL, 0};
    /* keyBytes(key): the Base64 text, which the broker decodes. */
    uint8_t *b64 = malloc(pulsar_routing_base64_len(len) + 1);
    size_t b64_len = 0;
    if (b64 != NULL && pulsar_routing_encode_base64(key, len, b64, pulsar_routing_base64_len(len),
                                                    &b64_len) == PULSAR_ROUTING_STATUS_OK) {
        pulsar_routing_message_keys keys = {absent, {b64, b64_len}, absent, 0, true, false};
        uint32_t hash = 0, slot = 0;
        CHECK_OK(pulsar_routing_message_keys_check(&keys));
        CHECK_OK(pulsar_routing_message_keys_murmur3(&keys, &hash));
        CHECK_OK(pulsar_routing_message_keys_slot(&keys, ranges[0], &slot));
        CHECK(hash == murmur && slot == slot_auto, "Base64 key: murmur %u, slot %u", hash, slot);
        /* The sticky key is the decoded bytes. */
        uint8_t *sticky = malloc(len + 1);
        size_t sticky_len = 0;
        if (sticky != NULL) {
            CHECK_OK(pulsar_routing_message_keys_sticky_key(&keys, sticky, len, &sticky_len));
            CHECK(same_bytes(sticky, sticky_len, key, len), "decoded sticky key");
        }
        free(sticky);
    } else {
        fail("Base64 of the key");
    }
    free(b64);
    if (strcmp(f[2], "none_key") == 0) {
        pulsar_routing_message_keys keys = {absent, absent, absent, 0, false, false};
        uint32_t slot = 0;
        CHECK_OK(pulsar_routing_message_keys_slot(&keys, ranges[1], &slot));
        CHECK(slot == slot_ch, "a message without keys: slot %u", slot);
    }
    if (strcmp(f[8], "-") != 0) {
        size_t name_len = 0;
        uint8_t *name = unhex(f[8], &name_len);
        uint64_t sequence_id = 0;
        if (name != NULL && parse_u64(f[9], &sequence_id)) {
            pulsar_routing_message_keys keys = {absent, absent, {name, name_len},
                                                sequence_id, false, true};
            for (int r = 0; r < 3; r++) {
                uint32_t slot = 0;
                CHECK_OK(pulsar_routing_message_keys_slot(&keys, ranges[r], &slot));
                CHECK(slot == expected[r], "producer-sequence fallback: slot %u", slot);
            }
        }
        free(name);
    }
    free(key);
}

static void check_ks_constructor_row(char **f, int n) {
    if (n != 4) {
        fail("KAC row with %d fields", n);
        return;
    }
    int64_t size = 0;
    parse_i64(f[1], &size);
    pulsar_routing_selector *selector = NULL;
    pulsar_routing_auto_split_config config = {(int32_t)size, 4};
    pulsar_routing_status status = pulsar_routing_selector_new_auto_split(config, &selector);
    if (strcmp(f[2], "1") == 0) {
        CHECK(status == PULSAR_ROUTING_STATUS_OK && selector != NULL, "range size %" PRId64,
              size);
    } else {
        CHECK(selector == NULL, "selector written on failure");
        size_t len = 0;
        uint8_t *expected = unhex(f[3], &len);
        const char *message = pulsar_routing_status_message(status);
        CHECK(expected != NULL &&
                  same_bytes((const uint8_t *)message, strlen(message), expected, len),
              "range size %" PRId64 ": %s", size, message);
        const char *class_name = pulsar_routing_key_shared_error_class(status);
        CHECK(class_name != NULL && strcmp(class_name, "IllegalArgumentException") == 0,
              "range size %" PRId64 ": class", size);
        free(expected);
    }
    pulsar_routing_selector_free(selector);
}

static void check_ks_ring_points_row(char **f, int n) {
    if (n != 5) {
        fail("KCR row with %d fields", n);
        return;
    }
    size_t len = 0, count = 0;
    uint8_t *name = unhex(f[1], &len);
    int64_t index = 0, range_max = 0;
    parse_i64(f[2], &index), parse_i64(f[3], &range_max);
    int64_t *points = parse_i64_list(f[4], &count);
    const pulsar_routing_hash_range range = {1, (int32_t)range_max};
    for (size_t i = 0; name != NULL && points != NULL && i < count; i++) {
        uint32_t point = 0;
        CHECK_OK(pulsar_routing_ring_point(name, len, (uint32_t)index, (uint32_t)i, range, &point));
        CHECK(point == points[i], "ring point %zu: %u, expected %" PRId64, i, point, points[i]);
    }
    free(name);
    free(points);
}

static void check_ks_scenario_row(char **f, int n, bool consistent) {
    free_key_shared();
    int64_t a = 0, b = 0;
    pulsar_routing_status status;
    if (consistent) {
        if (n != 4) {
            fail("KCS row with %d fields", n);
            return;
        }
        parse_i64(f[2], &a), parse_i64(f[3], &b);
        /* Room for 2 consumers and 8 name bytes: the steps grow it. */
        pulsar_routing_consistent_hashing_config config = {(uint32_t)a, (uint32_t)b, 2, 8};
        status = pulsar_routing_selector_new_consistent_hashing(config, &ks_selector);
    } else {
        if (n != 3) {
            fail("KAS row with %d fields", n);
            return;
        }
        parse_i64(f[2], &a);
        pulsar_routing_auto_split_config config = {(int32_t)a, 2};
        status = pulsar_routing_selector_new_auto_split(config, &ks_selector);
    }
    CHECK(status == PULSAR_ROUTING_STATUS_OK, "scenario %s: %s", f[1],
          pulsar_routing_status_message(status));
}

static void check_ks_step_row(char **f, int n, bool consistent) {
    if (n != 16) {
        fail("%s row with %d fields", f[0], n);
        return;
    }
    pulsar_routing_selector *selector = ks_selector;
    if (selector == NULL) {
        fail("a step outside a scenario");
        return;
    }
    uint64_t consumer = 0;
    parse_u64(f[2], &consumer);
    size_t name_len = 0;
    uint8_t *name = unhex(f[3], &name_len);
    if (name == NULL) return;
    pulsar_routing_status status = PULSAR_ROUTING_STATUS_OK;
    if (strcmp(f[1], "add") == 0) {
        pulsar_routing_selector_capacity before = {0, 0, 0};
        CHECK_OK(pulsar_routing_selector_get_capacity(selector, &before));
        status = consistent || consumer % 2 == 0
                     ? pulsar_routing_selector_add_named(selector, consumer, name, name_len)
                     : pulsar_routing_selector_add(selector, consumer);
        ks_count_growth(selector, &before);
    } else if (strcmp(f[1], "remove") == 0) {
        status = pulsar_routing_selector_remove(selector, consumer);
    } else {
        fail("unknown op %s", f[1]);
    }
    free(name);
    ks_check_error(f[1], selector, status, strcmp(f[4], "1") == 0, f[5], f[6], 'E');

    /* The snapshot: its size and its SHA-256. */
    size_t count = 0;
    pulsar_routing_assignment *assignments =
        ks_records(selector, pulsar_routing_selector_assignments, &count);
    if (assignments != NULL) {
        struct sha256 sha;
        sha256_init(&sha);
        for (size_t i = 0; i < count; i++) {
            char line[64];
            int len = snprintf(line, sizeof line, "%" PRId32 ",%" PRId32 ",%" PRIu64 "\n",
                               assignments[i].start, assignments[i].end,
                               assignments[i].consumer);
            sha256_update(&sha, line, (size_t)len);
        }
        char hex[65];
        sha256_hex(&sha, hex);
        CHECK(strcmp(f[7], "") != 0 && (unsigned long)count == strtoul(f[7], NULL, 10),
              "%zu assignments, expected %s", count, f[7]);
        CHECK(strcmp(hex, f[8]) == 0, "assignments_sha256 %s, expected %s", hex, f[8]);
    }
    free(assignments);
    ks_check_consumer_ranges("ranges_by_consumer", selector, f[10], strtol(f[9], NULL, 10));

    /* The impact of this step. */
    pulsar_routing_assignment probe[1];
    size_t removed_n = 0, added_n = 0;
    status = pulsar_routing_selector_last_impact(selector, probe, 0, &removed_n, probe, 0, &added_n);
    CHECK(status == PULSAR_ROUTING_STATUS_OK || status == PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL,
          "last_impact: %s", pulsar_routing_status_message(status));
    pulsar_routing_assignment *removed = malloc((removed_n + 1) * sizeof *removed);
    pulsar_routing_assignment *added = malloc((added_n + 1) * sizeof *added);
    if (removed != NULL && added != NULL) {
        size_t r = 0, a = 0;
        CHECK_OK(pulsar_routing_selector_last_impact(selector, removed, removed_n, &r, added,
                                                     added_n, &a));
        CHECK(r == removed_n && a == added_n, "last_impact sizes");
        ks_check_triples("removed", removed, r, f[11]);
        ks_check_triples("added", added, a, f[12]);
    }
    free(removed);
    free(added);

    ks_check_lookups("lookups", selector, f[13]);
    if (strcmp(f[14], "-") != 0) {
        int64_t expected = 0, got = INT64_MIN;
        parse_i64(f[14], &expected);
        CHECK_OK(pulsar_routing_selector_name_index(selector, consumer, &got));
        CHECK(got == expected, "name_index %" PRId64 ", expected %" PRId64, got, expected);
    }
    if (strcmp(f[15], "-") != 0) {
        size_t expected_n = 0, got_n = 0;
        int64_t *expected = parse_i64_list(f[15], &expected_n);
        uint32_t *points = malloc((expected_n + 1) * sizeof *points);
        if (expected != NULL && points != NULL) {
            CHECK_OK(pulsar_routing_selector_ring_points(selector, consumer, points, expected_n,
                                                         &got_n));
            bool same = got_n == expected_n;
            for (size_t i = 0; same && i < got_n; i++) same = points[i] == expected[i];
            CHECK(same, "ring_points of %" PRIu64, consumer);
        }
        free(expected);
        free(points);
    }
}

static void check_ks_case_row(char **f, int n) {
    free_key_shared();
    if (n != 2) {
        fail("KXC row with %d fields", n);
        return;
    }
    /* Room for 2 consumers and 2 ranges: the steps grow it. */
    pulsar_routing_exclusive_config current = {2, 2, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT};
    pulsar_routing_exclusive_config legacy = {2, 2, PULSAR_ROUTING_EXCLUSIVE_MODE_LEGACY_PRE_24730};
    pulsar_routing_status status = pulsar_routing_selector_new_exclusive(current, &ks_exclusive[0]);
    CHECK(status == PULSAR_ROUTING_STATUS_OK, "case %s: %s", f[1],
          pulsar_routing_status_message(status));
    CHECK_OK(pulsar_routing_selector_new_exclusive(legacy, &ks_exclusive[1]));
}

static int ks_range_order(const void *a, const void *b) {
    const pulsar_routing_hash_range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Java's exclusive selector reports no impact; this one reports what moved.
 * Current rules (`exact`): the consumer's ranges `own` (sorted by start),
 * clipped to [0, 65535] and merged when adjacent, added on an add and
 * removed on a remove, nothing else. Legacy rules: an add gives slots only
 * to the new consumer (it may take gaps from others), a remove takes them
 * only from the removed one (it may give gaps back to others). A failed
 * step moves nothing. */
static void ks_check_exclusive_impact(const char *what, const pulsar_routing_selector *selector,
                                      uint64_t consumer, bool ok, bool add, bool exact,
                                      const pulsar_routing_hash_range *own, size_t own_n) {
    pulsar_routing_assignment removed[256], added[256];
    size_t removed_n = 0, added_n = 0;
    CHECK_OK(pulsar_routing_selector_last_impact(selector, removed, 256, &removed_n, added, 256,
                                                 &added_n));
    if (!ok) {
        CHECK(removed_n == 0 && added_n == 0, "%s: a failed step moved slots", what);
        return;
    }
    const pulsar_routing_assignment *mine = add ? added : removed;
    size_t mine_n = add ? added_n : removed_n;
    for (size_t i = 0; i < mine_n; i++) {
        CHECK(mine[i].consumer == consumer, "%s: impact of another consumer", what);
    }
    if (!exact) return;
    CHECK((add ? removed_n : added_n) == 0, "%s: slots moved between other consumers", what);
    pulsar_routing_hash_range want[64];
    size_t want_n = 0;
    for (size_t i = 0; i < own_n; i++) {
        int32_t start = own[i].start < 0 ? 0 : own[i].start;
        int32_t end = own[i].end > 65535 ? 65535 : own[i].end;
        if (start > end) continue;
        if (want_n > 0 && (int64_t)want[want_n - 1].end + 1 >= start) {
            if (end > want[want_n - 1].end) want[want_n - 1].end = end;
        } else if (want_n < 64) {
            want[want_n++] = (pulsar_routing_hash_range){start, end};
        }
    }
    CHECK(mine_n == want_n, "%s: impact has %zu ranges, declared %zu", what, mine_n, want_n);
    for (size_t i = 0; i < mine_n && i < want_n; i++) {
        CHECK(mine[i].start == want[i].start && mine[i].end == want[i].end,
              "%s: impact [%d, %d], declared [%d, %d]", what, (int)mine[i].start,
              (int)mine[i].end, (int)want[i].start, (int)want[i].end);
    }
}

static void check_ks_exclusive_row(char **f, int n) {
    if (n != 17) {
        fail("KXS row with %d fields", n);
        return;
    }
    if (ks_exclusive[0] == NULL || ks_exclusive[1] == NULL) {
        fail("a step outside a case");
        return;
    }
    uint64_t consumer = 0;
    parse_u64(f[2], &consumer);
    bool no_meta = strcmp(f[3], "N") == 0;
    size_t count = 0;
    char *copy = list_copy(f[3]);
    char **items = copy != NULL ? split_list(copy, &count) : NULL;
    pulsar_routing_hash_range *ranges = malloc((count + 1) * sizeof *ranges);
    if (items == NULL || ranges == NULL) {
        fail("out of memory");
        free(copy), free(items), free(ranges);
        return;
    }
    for (size_t i = 0; !no_meta && i < count; i++) {
        long long start = 0, end = 0;
        CHECK(sscanf(items[i], "%lld:%lld", &start, &end) == 2, "bad range '%s'", items[i]);
        ranges[i] = (pulsar_routing_hash_range){(int32_t)start, (int32_t)end};
    }
    if (strcmp(f[4], "-") != 0) {
        /* The client's check, as ConsumerBuilder.keySharedPolicy runs it. */
        size_t expected_len = 0, written = 0;
        uint8_t *expected = unhex(f[4], &expected_len);
        char message[512] = "ok";
        pulsar_routing_status status = pulsar_routing_validate_sticky_ranges(ranges, count);
        if (status != PULSAR_ROUTING_STATUS_OK) {
            memcpy(message, "error: ", 7);
            CHECK_OK(pulsar_routing_validate_sticky_ranges_error_message(
                ranges, count, (uint8_t *)message + 7, sizeof message - 8, &written));
            message[7 + written] = '\0';
            const char *class_name = pulsar_routing_key_shared_error_class(status);
            CHECK(class_name != NULL && strcmp(class_name, "IllegalArgumentException") == 0,
                  "validate: class of %u", (unsigned)status);
        } else {
            CHECK_OK(pulsar_routing_validate_sticky_ranges_error_message(
                ranges, count, (uint8_t *)message + 7, sizeof message - 8, &written));
            CHECK(written == 0, "a message for valid ranges");
        }
        CHECK(expected != NULL && same_bytes((const uint8_t *)message, strlen(message), expected,
                                             expected_len),
              "client_validate: '%s', expected '%.*s'", message, (int)expected_len,
              expected ? (const char *)expected : "");
        free(expected);
    }
    for (int rules = 0; rules < 2; rules++) {
        char **r = f + 5 + 6 * rules;
        const char *what = rules == 0 ? "current rules" : "rules before #24730";
        pulsar_routing_selector *selector = ks_exclusive[rules];
        pulsar_routing_status status = PULSAR_ROUTING_STATUS_OK;
        bool add = strcmp(f[1], "add") == 0;
        /* What a remove should report (current rules): the consumer's ranges
         * before it, clipped to the slots. */
        pulsar_routing_hash_range had[64];
        size_t had_n = 0;
        if (add) {
            pulsar_routing_selector_capacity before = {0, 0, 0};
            CHECK_OK(pulsar_routing_selector_get_capacity(selector, &before));
            status = pulsar_routing_selector_add_ranges(selector, consumer,
                                                        no_meta ? NULL : ranges, count);
            ks_count_growth(selector, &before);
        } else if (strcmp(f[1], "remove") == 0) {
            CHECK_OK(pulsar_routing_selector_ranges_of(selector, consumer, had, 64, &had_n));
            status = pulsar_routing_selector_remove(selector, consumer);
        } else {
            fail("unknown op %s", f[1]);
        }
        ks_check_error(what, selector, status, strcmp(r[0], "1") == 0, r[1], r[2], r[3][0]);
        ks_check_consumer_ranges(what, selector, r[4], -1);
        ks_check_lookups(what, selector, r[5]);
        bool ok = status == PULSAR_ROUTING_STATUS_OK;
        if (ok && add && rules == 0) {
            /* Derived from the declaration: sorted, clipped, merged. */
            had_n = 0;
            for (size_t i = 0; i < count && had_n < 64; i++) had[had_n++] = ranges[i];
            qsort(had, had_n, sizeof *had, ks_range_order);
        }
        ks_check_exclusive_impact(what, selector, consumer, ok, add, rules == 0, had, had_n);
    }
    free(copy);
    free(items);
    free(ranges);
}

/* --- checks that need no golden row ----------------------------------------------------- */

static void check_version(void) {
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", PULSAR_ROUTING_VERSION_MAJOR,
             PULSAR_ROUTING_VERSION_MINOR, PULSAR_ROUTING_VERSION_PATCH);
    CHECK(strcmp(pulsar_routing_version(), expected) == 0,
          "library version %s, header version %s", pulsar_routing_version(), expected);
}

static void check_status_messages(void) {
    CHECK(strcmp(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_ILLEGAL_PARTITION_INDEX),
                 "Illegal partition index chosen by the message routing policy") == 0,
          "Java's IllegalArgumentException message");
    CHECK(strcmp(pulsar_routing_status_message(12345), "unknown status code") == 0,
          "unknown code message");
    CHECK(pulsar_routing_hashing_scheme_name(7) == NULL, "name of an unknown scheme");
    CHECK(pulsar_routing_client_profile_name(6) == NULL, "name of an unknown profile");
    CHECK(strcmp(pulsar_routing_client_profile_name(PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS),
                 "pulsar-rs") == 0,
          "profile name");
    CHECK(pulsar_routing_librdkafka_partitioner_name(7) == NULL, "name of an unknown partitioner");
    CHECK(pulsar_routing_topic_domain_name(4) == NULL, "name of an unknown domain");
    CHECK(strcmp(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_MISSING_UPPER_BOUND),
                 "Invalid bundle range: missing upper bound") == 0,
          "bundle message");
    CHECK(strcmp(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_NO_MORE_RANGE),
                 "No more range can assigned to new consumer, assigned consumers") == 0,
          "Key_Shared message");
    CHECK(pulsar_routing_key_shared_error_class(PULSAR_ROUTING_STATUS_NO_CONSUMER) == NULL,
          "no Java class for the library's own codes");
    /* Every new code has a message of its own. */
    for (unsigned code = 400; code < 800; code++) {
        const char *text = pulsar_routing_status_message(code);
        CHECK(text != NULL, "message of %u", code);
    }
}

static void run_extra(const char *name, void (*check)(void)) {
    row_failed = false;
    check();
    if (row_failed) {
        fprintf(stderr, "%s failed\n", name);
        failed++;
    } else {
        passed++;
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOLDEN.tsv\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (in == NULL) {
        perror(argv[1]);
        return 2;
    }
    if (!make_routers()) {
        fprintf(stderr, "could not create the routers\n");
        return 1;
    }
    enum { KINDS = 35 };
    unsigned long rows = 0, kinds_seen[KINDS] = {0};
    static const char *const kinds[KINDS] = {
        "H",   "K",   "B",   "RB",  "RS",  "S",   "M",   "TP",  "TE",  "TI",  "DB",
        "TB",  "TBE", "TBP", "HB",  "PR",  "PRE", "SP",  "SE",  "BB",  "BBE", "VF",
        "CS",  "KH",  "KAC", "KAS", "KAP", "KCR", "KCS", "KCP", "KXC", "KXS", "HP",
        "KP",  "BH"};
    long expected_rows = -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, in)) != -1) {
        line_no++;
        if (got > 0 && line[got - 1] == '\n') line[--got] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        char *fields[MAX_FIELDS];
        int n = 0;
        for (char *at = line; n < MAX_FIELDS;) {
            fields[n++] = at;
            char *tab = strchr(at, '\t');
            if (tab == NULL) break;
            *tab = '\0';
            at = tab + 1;
        }
        if (strcmp(fields[0], "END") == 0) {
            expected_rows = n == 2 ? strtol(fields[1], NULL, 10) : -2;
            continue;
        }
        row_failed = false;
        rows++;
        int kind = -1;
        for (int k = 0; k < KINDS; k++) {
            if (strcmp(fields[0], kinds[k]) == 0) kind = k;
        }
        switch (kind) {
        case 0: check_hash_row(fields, n); break;
        case 1: check_keyed_row(fields, n); break;
        case 2: check_keyed_bytes_row(fields, n); break;
        case 3: check_rr_batching_row(fields, n); break;
        case 4: check_rr_sequence_row(fields, n); break;
        case 5: check_single_row(fields, n); break;
        case 6: check_sign_safe_mod_row(fields, n); break;
        case 7: check_topic_parse_row(fields, n); break;
        case 8: check_topic_error_row(fields, n); break;
        case 9: check_partition_index_row(fields, n); break;
        case 10: check_default_bundles_row(fields, n); break;
        case 11: check_topic_bundle_row(fields, n); break;
        case 12: check_topic_bundle_error_row(fields, n); break;
        case 13: check_topic_bundle_parse_error_row(fields, n); break;
        case 14: check_hash_bundle_row(fields, n); break;
        case 15: check_parse_range_row(fields, n); break;
        case 16: check_parse_range_error_row(fields, n); break;
        case 17: check_split_row(fields, n); break;
        case 18: check_split_equal_row(fields, n); break;
        case 19: check_bundles_from_boundaries_row(fields, n, true); break;
        case 20: check_bundles_from_boundaries_row(fields, n, false); break;
        case 21: check_validate_full_range_row(fields, n); break;
        case 22: check_can_split_row(fields, n); break;
        case 23: check_ks_hash_row(fields, n); break;
        case 24: check_ks_constructor_row(fields, n); break;
        case 25: check_ks_scenario_row(fields, n, false); break;
        case 26: check_ks_step_row(fields, n, false); break;
        case 27: check_ks_ring_points_row(fields, n); break;
        case 28: check_ks_scenario_row(fields, n, true); break;
        case 29: check_ks_step_row(fields, n, true); break;
        case 30: check_ks_case_row(fields, n); break;
        case 31: check_ks_exclusive_row(fields, n); break;
        case 32: check_profile_hash_row(fields, n); break;
        case 33: check_profile_keyed_row(fields, n); break;
        case 34: check_boost_hash_row(fields, n); break;
        default: fail("unknown row kind '%s'", fields[0]);
        }
        if (kind >= 0) kinds_seen[kind]++;
        if (row_failed) {
            failed++;
        } else {
            passed++;
        }
    }
    free(line);
    fclose(in);
    size_t batched = check_keyed_batches();
    printf("keyed rows through partitions_for_keys: %zu in %zu batches\n", batched,
           keyed_batch_count);
    if (batched == 0) {
        fprintf(stderr, "no keyed row went through partitions_for_keys\n");
        failed++;
    }
    free_routers();
    free_key_shared();

    run_extra("version", check_version);
    run_extra("status messages", check_status_messages);
    if (expected_rows != (long)rows) {
        fprintf(stderr, "%s: read %lu rows, but its END line says %ld: truncated?\n", argv[1],
                rows, expected_rows);
        failed++;
    }
    for (int k = 0; k < KINDS; k++) {
        if (kinds_seen[k] == 0) {
            fprintf(stderr, "no %s rows in %s\n", kinds[k], argv[1]);
            failed++;
        }
    }
    printf("golden rows by kind:");
    for (int k = 0; k < KINDS; k++) printf(" %s=%lu", kinds[k], kinds_seen[k]);
    printf("\n");
    printf("Key_Shared steps: %lu AutoSplit, %lu consistent hashing, %lu exclusive (both "
           "rules); %lu selector growths\n",
           kinds_seen[26], kinds_seen[29], kinds_seen[31], ks_growths);
    if (ks_growths == 0 && kinds_seen[26] + kinds_seen[29] + kinds_seen[31] > 0) {
        fprintf(stderr, "no Key_Shared selector grew past its initial room\n");
        failed++;
    }
    printf("golden: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
