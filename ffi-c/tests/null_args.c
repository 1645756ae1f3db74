/*
 * Every exported function of include/pulsar_routing.h called with NULL for
 * each of its pointers, and with out-of-range enumerations and partition
 * counts, checking the status the header documents: NULL_PARAMETER for a
 * NULL pointer (even with a length of 0), the UNKNOWN_* code of an
 * enumeration, PARTITION_COUNT_ZERO / _NEGATIVE / _TOO_LARGE. Every other
 * argument is valid, so the status comes from the one bad argument. Each
 * call also checks that a failed call wrote nothing: every output buffer is
 * poisoned before the call and must still be poisoned after it.
 *
 * The pointers the header documents as NULL-able are left out here (a
 * custom router's context, profile_partition's ordering_key, librdkafka's
 * NULL key, add_ranges's ranges); golden.c and the Rust tests cover them.
 * scripts/test-c.sh checks that every symbol of ffi-c/symbols.txt is called
 * by some C file of ffi-c/tests that checks NULL_PARAMETER; a new function
 * gets its NULL checks here or in its own test file.
 *
 * Usage: null_args. Prints "null_args: N passed, M failed"; exits non-zero
 * on a failure. Built by scripts/test-c.sh with ASan and UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pulsar_routing.h"

/* Out of range for every enumeration of the header. */
#define BAD_ENUM 0xFFFFu
/* One more than PULSAR_ROUTING_PARTITION_COUNT_MAX. */
#define TOO_MANY ((int64_t)PULSAR_ROUTING_PARTITION_COUNT_MAX + 1)
#define POISON 0xA5

static unsigned long passed, failed;

/* Outputs, poisoned before each call. */
static uint8_t buf[256];
static uint32_t u32_out[64];
static int32_t i32_out[64];
static int64_t i64_out[64];
static uint64_t u64_out[64];
static size_t size_out[64];
static bool bool_out[64];
static pulsar_routing_hash_range hash_range_out[64];
static pulsar_routing_assignment assignment_out[64];
static pulsar_routing_bundle_change change_out[64];
static pulsar_routing_bundle_range range_out[4];
static pulsar_routing_selector_capacity capacity_out[4];
static pulsar_routing_topic_name topic_out;
static pulsar_routing_bundle_layout scratch_layout;
static pulsar_routing_topic_load loads[4];
static pulsar_routing_round_robin_router *rr_out;
static pulsar_routing_single_partition_router *sp_out;
static pulsar_routing_custom_router *cr_out;
static pulsar_routing_selector *sel_out;
static pulsar_routing_key_counts *kc_out;
static double f64_out[64];

static struct {
    void *p;
    size_t n;
} outputs[] = {
    {buf, sizeof buf},
    {u32_out, sizeof u32_out},
    {i32_out, sizeof i32_out},
    {i64_out, sizeof i64_out},
    {u64_out, sizeof u64_out},
    {size_out, sizeof size_out},
    {bool_out, sizeof bool_out},
    {hash_range_out, sizeof hash_range_out},
    {assignment_out, sizeof assignment_out},
    {change_out, sizeof change_out},
    {range_out, sizeof range_out},
    {capacity_out, sizeof capacity_out},
    {&topic_out, sizeof topic_out},
    {&scratch_layout, sizeof scratch_layout},
    {loads, sizeof loads},
    {&rr_out, sizeof rr_out},
    {&sp_out, sizeof sp_out},
    {&cr_out, sizeof cr_out},
    {&sel_out, sizeof sel_out},
    {&kc_out, sizeof kc_out},
    {f64_out, sizeof f64_out},
};
enum { OUTPUTS = sizeof outputs / sizeof outputs[0] };

static void poison(void) {
    for (int i = 0; i < OUTPUTS; i++) memset(outputs[i].p, POISON, outputs[i].n);
}

/* The index of the first output the call wrote, or -1. */
static int written_output(void) {
    for (int i = 0; i < OUTPUTS; i++) {
        const uint8_t *b = outputs[i].p;
        for (size_t j = 0; j < outputs[i].n; j++) {
            if (b[j] != POISON) return i;
        }
    }
    return -1;
}

/* `call` is the text of the call: its function name ends at the "(". */
static void check(const char *call, const char *what, pulsar_routing_status expected,
                  pulsar_routing_status got) {
    int name_len = (int)strcspn(call, "(");
    int written = written_output();
    if (got == expected && written < 0) {
        passed++;
        return;
    }
    failed++;
    if (got != expected) {
        fprintf(stderr, "FAIL %.*s (%s): status %u (%s), expected %u (%s)\n", name_len, call, what,
                (unsigned)got, pulsar_routing_status_message(got), (unsigned)expected,
                pulsar_routing_status_message(expected));
    } else {
        fprintf(stderr, "FAIL %.*s (%s): failed but wrote output %d\n", name_len, call, what,
                written);
    }
}

#define EXPECT(status, call, what)                                                      \
    do {                                                                                \
        poison();                                                                       \
        pulsar_routing_status got_ = (call);                                            \
        check(#call, what, PULSAR_ROUTING_STATUS_##status, got_);                       \
    } while (0)

#define EXPECT_TRUE(cond, what)                                                         \
    do {                                                                                \
        if (cond) {                                                                     \
            passed++;                                                                   \
        } else {                                                                        \
            failed++;                                                                   \
            fprintf(stderr, "FAIL %s\n", what);                                         \
        }                                                                               \
    } while (0)

static int32_t route_first(void *context, pulsar_routing_key key, uint32_t num_partitions) {
    (void)context;
    (void)key;
    (void)num_partitions;
    return 0;
}

int main(void) {
    /* Valid inputs. */
    const uint8_t *text = (const uint8_t *)"x";
    static const uint16_t units[4] = {'a', 'b', 'c', 'd'};
    static const uint32_t u32_in[5] = {0, 0x40000000u, 0x80000000u, 0xc0000000u, 0xffffffffu};
    const pulsar_routing_str strs[2] = {{(const uint8_t *)"0x00000000", 10},
                                        {(const uint8_t *)"0xffffffff", 10}};
    const pulsar_routing_hash_range hash_ranges[1] = {{0, 99}};
    const pulsar_routing_message_keys messages[1] = {
        {{NULL, 0}, {(const uint8_t *)"k", 1}, {NULL, 0}, 0, false, false}};
    const pulsar_routing_key key = {PULSAR_ROUTING_KEY_KIND_STRING, text, 1};
    const pulsar_routing_key key_null_data = {PULSAR_ROUTING_KEY_KIND_STRING, NULL, 1};
    const pulsar_routing_key key_bad_kind = {BAD_ENUM, text, 1};
    const pulsar_routing_bundle_range full_range = {0, 0xffffffffLL};
    const pulsar_routing_hash_range slot_range = {0, 65535};
    const pulsar_routing_auto_split_config auto_split_config = {PULSAR_ROUTING_DEFAULT_RANGE_SIZE,
                                                                4};
    const pulsar_routing_consistent_hashing_config consistent_config = {
        PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS,
        PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX, 4, 64};
    const pulsar_routing_exclusive_config exclusive_config = {4, 4,
                                                              PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT};
    const pulsar_routing_flow_limits flow_limits = {0, 0, 0};
    const pulsar_routing_selector_capacity capacity = {8, 128, 8};

    /* Valid objects. */
    pulsar_routing_round_robin_router *rr = NULL;
    pulsar_routing_single_partition_router *sp = NULL;
    pulsar_routing_custom_router *cr = NULL;
    pulsar_routing_selector *sel = NULL;
    pulsar_routing_bundle_layout layout;
    pulsar_routing_murmur3_hasher mh;
    pulsar_routing_crc32_hasher ch;
    pulsar_routing_topic_name topic;
    const char *topic_text = "persistent://t/ns/x";
    if (pulsar_routing_round_robin_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING, 0, false,
                                              0, &rr) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_single_partition_router_new(PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING, 0,
                                                   &sp) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_custom_router_new(route_first, NULL, &cr) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_selector_new_consistent_hashing(consistent_config, &sel) !=
            PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_selector_add_named(sel, 1, (const uint8_t *)"c1", 2) !=
            PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_bundle_layout_init_default(&layout, 4) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_murmur3_hasher_init(&mh) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_crc32_hasher_init(&ch) != PULSAR_ROUTING_STATUS_OK ||
        pulsar_routing_topic_name_parse((const uint8_t *)topic_text, strlen(topic_text),
                                        PULSAR_ROUTING_TOPIC_NAME_RULES_V4,
                                        &topic) != PULSAR_ROUTING_STATUS_OK) {
        fprintf(stderr, "could not build the valid objects\n");
        return 1;
    }

    /* pulsar_routing_encode_base64 */
    EXPECT(NULL_PARAMETER, pulsar_routing_encode_base64(NULL, 1, buf, 1, size_out), "bytes");
    EXPECT(NULL_PARAMETER, pulsar_routing_encode_base64(text, 1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_encode_base64(text, 1, buf, 1, NULL), "written");

    /* pulsar_routing_bundle_layout_init_default */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_init_default(NULL, 1), "layout");

    /* pulsar_routing_bundle_layout_init */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_init(NULL, u32_in, 1), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_init(&scratch_layout, NULL, 1), "boundaries");

    /* pulsar_routing_bundle_layout_index */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_index(NULL, u32_out, 4), "layout");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_index(&scratch_layout, NULL, 4), "table");

    /* pulsar_routing_bundle_layout_recommended_index_len: no pointer, no
       failure; out-of-range counts saturate at the largest table. */
    EXPECT_TRUE(pulsar_routing_bundle_layout_recommended_index_len(0) == 3 &&
                    pulsar_routing_bundle_layout_recommended_index_len(SIZE_MAX) ==
                        ((size_t)3 << 20),
                "pulsar_routing_bundle_layout_recommended_index_len out of range");

    /* pulsar_routing_bundle_layout_len */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_len(NULL, size_out), "layout");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_len(&layout, NULL), "len_out");

    /* pulsar_routing_bundle_layout_boundaries */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_boundaries(NULL, u32_out, 1, size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_boundaries(&layout, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_boundaries(&layout, u32_out, 1, NULL), "written");

    /* pulsar_routing_bundle_layout_bundle */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_bundle(NULL, 1, range_out), "layout");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_layout_bundle(&layout, 1, NULL), "range_out");

    /* pulsar_routing_bundle_layout_bundle_index_for_hash */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_index_for_hash(NULL, 1, size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_index_for_hash(&layout, 1, NULL), "index_out");

    /* pulsar_routing_bundle_layout_bundle_index_for_hash_java */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_index_for_hash_java(NULL, 1, size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_index_for_hash_java(&layout, 1, NULL), "index_out");

    /* pulsar_routing_bundle_layout_bundle_for_hash */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_for_hash(NULL, 1, range_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_for_hash(&layout, 1, NULL), "range_out");

    /* pulsar_routing_bundle_layout_bundle_for_topic */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_for_topic(NULL, text, 1, 0, range_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_for_topic(&layout, NULL, 1, 0, range_out), "topic");
    EXPECT(UNKNOWN_TOPIC_NAME_RULES,
           pulsar_routing_bundle_layout_bundle_for_topic(&layout, text, 1, BAD_ENUM,
                                                         range_out), "rules");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_bundle_for_topic(&layout, text, 1, 0, NULL), "range_out");

    /* pulsar_routing_bundle_layout_validate_bundle */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_validate_bundle(NULL, full_range, size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_validate_bundle(&layout, full_range, NULL), "index_out");

    /* pulsar_routing_bundle_layout_count_per_bundle */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_count_per_bundle(NULL, u32_in, 1, u64_out, 1, size_out,
                                                         u64_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_count_per_bundle(&layout, NULL, 1, u64_out, 1, size_out,
                                                         u64_out), "hashes");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_count_per_bundle(&layout, u32_in, 1, NULL, 1, size_out,
                                                         u64_out), "counts");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_count_per_bundle(&layout, u32_in, 1, u64_out, 1, NULL,
                                                         u64_out), "written");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_count_per_bundle(&layout, u32_in, 1, u64_out, 1, size_out,
                                                         NULL), "unowned_out");

    /* pulsar_routing_bundle_layout_compare */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_compare(NULL, &layout, u32_in, 1, change_out, 1,
                                                size_out), "before");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_compare(&layout, NULL, u32_in, 1, change_out, 1,
                                                size_out), "after");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_compare(&layout, &layout, NULL, 1, change_out, 1,
                                                size_out), "hashes");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_compare(&layout, &layout, u32_in, 1, NULL, 1,
                                                size_out), "changes");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_compare(&layout, &layout, u32_in, 1, change_out, 1,
                                                NULL), "written");

    /* pulsar_routing_bundle_layout_split */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split(NULL, full_range, i64_out, 1, u32_out, 1,
                                              size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split(&layout, full_range, NULL, 1, u32_out, 1,
                                              size_out), "boundaries");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split(&layout, full_range, i64_out, 1, NULL, 1,
                                              size_out), "out");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split(&layout, full_range, i64_out, 1, u32_out, 1,
                                              NULL), "written");

    /* pulsar_routing_bundle_layout_split_equally */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split_equally(NULL, full_range, 1, u32_out, 1,
                                                      size_out), "layout");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split_equally(&layout, full_range, 1, NULL, 1,
                                                      size_out), "out");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_layout_split_equally(&layout, full_range, 1, u32_out, 1,
                                                      NULL), "written");

    /* pulsar_routing_default_boundaries */
    EXPECT(NULL_PARAMETER, pulsar_routing_default_boundaries(1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_default_boundaries(1, u32_out, 1, NULL), "written");

    /* pulsar_routing_parse_boundary */
    EXPECT(NULL_PARAMETER, pulsar_routing_parse_boundary(NULL, 1, u32_out), "text");
    EXPECT(NULL_PARAMETER, pulsar_routing_parse_boundary(text, 1, NULL), "boundary_out");

    /* pulsar_routing_validate_full_range */
    EXPECT(NULL_PARAMETER, pulsar_routing_validate_full_range(NULL, 1), "boundaries");

    /* pulsar_routing_bundle_range_parse */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_parse(NULL, 1, range_out), "text");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_parse(text, 1, NULL), "range_out");

    /* pulsar_routing_bundle_range_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_name(full_range, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_name(full_range, buf, 1, NULL), "written");

    /* pulsar_routing_bundle_range_key */
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_key(full_range, NULL, 1, buf, 1,
                                                           size_out), "namespace_");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_key(full_range, text, 1, NULL, 1,
                                                           size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_bundle_range_key(full_range, text, 1, buf, 1,
                                                           NULL), "written");

    /* pulsar_routing_bundle_range_includes */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_range_includes(full_range, 1, NULL), "includes_out");

    /* pulsar_routing_bundle_range_can_split */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_bundle_range_can_split(full_range, NULL), "can_split_out");

    /* pulsar_routing_range_equally_divide */
    EXPECT(NULL_PARAMETER, pulsar_routing_range_equally_divide(full_range, NULL), "position_out");

    /* pulsar_routing_topic_count_equally_divide */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_count_equally_divide(NULL, 1, i64_out, 1,
                                                     size_out), "topic_hashes");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_count_equally_divide(u32_out, 1, NULL, 1, size_out), "out");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_count_equally_divide(u32_out, 1, i64_out, 1, NULL), "written");

    /* pulsar_routing_specified_positions_divide */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_specified_positions_divide(full_range, NULL, 1, 1, false, i64_out, 1,
                                                     size_out), "positions");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_specified_positions_divide(full_range, i64_out, 1, 1, false, NULL, 1,
                                                     size_out), "out");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_specified_positions_divide(full_range, i64_out, 1, 1, false, i64_out, 1,
                                                     NULL), "written");

    /* pulsar_routing_flow_or_qps_equally_divide */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_flow_or_qps_equally_divide(1, NULL, 1, flow_limits, i64_out, 1,
                                                     size_out), "loads");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_flow_or_qps_equally_divide(1, loads, 1, flow_limits, NULL, 1,
                                                     size_out), "out");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_flow_or_qps_equally_divide(1, loads, 1, flow_limits, i64_out, 1,
                                                     NULL), "written");

    /* pulsar_routing_crc32 */
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32(NULL, 1, u32_out), "data");
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32(text, 1, NULL), "crc_out");

    /* pulsar_routing_crc32_hasher_init */
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32_hasher_init(NULL), "hasher");

    /* pulsar_routing_crc32_hasher_update */
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32_hasher_update(NULL, text, 1), "hasher");
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32_hasher_update(&ch, NULL, 1), "data");

    /* pulsar_routing_crc32_hasher_finalize */
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32_hasher_finalize(NULL, u32_out), "hasher");
    EXPECT(NULL_PARAMETER, pulsar_routing_crc32_hasher_finalize(&ch, NULL), "crc_out");

    /* pulsar_routing_hashing_scheme_from_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_hashing_scheme_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_hashing_scheme_from_name(text, 1, NULL), "scheme_out");

    /* pulsar_routing_hashing_scheme_hash */
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_hashing_scheme_hash(BAD_ENUM, text, 1, u32_out), "scheme");
    EXPECT(NULL_PARAMETER, pulsar_routing_hashing_scheme_hash(0, NULL, 1, u32_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_hashing_scheme_hash(0, text, 1, NULL), "hash_out");

    /* pulsar_routing_java_string_hash */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash(NULL, 1, u32_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash(text, 1, NULL), "hash_out");

    /* pulsar_routing_java_string_hashcode */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hashcode(NULL, 1, i32_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hashcode(text, 1, NULL), "hashcode_out");

    /* pulsar_routing_java_string_hash_utf16 */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash_utf16(NULL, 1, u32_out), "units");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash_utf16(units, 1, NULL), "hash_out");

    /* pulsar_routing_java_string_hashcode_utf16 */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hashcode_utf16(NULL, 1, i32_out), "units");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_java_string_hashcode_utf16(units, 1, NULL), "hashcode_out");

    /* pulsar_routing_java_string_hash_bytes */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash_bytes(NULL, 1, u32_out), "bytes");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hash_bytes(text, 1, NULL), "hash_out");

    /* pulsar_routing_java_string_hashcode_bytes */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_string_hashcode_bytes(NULL, 1, i32_out), "bytes");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_java_string_hashcode_bytes(text, 1, NULL), "hashcode_out");

    /* pulsar_routing_java_lossy_utf8 */
    EXPECT(NULL_PARAMETER, pulsar_routing_java_lossy_utf8(NULL, 1, buf, 1, size_out), "bytes");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_lossy_utf8(text, 1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_java_lossy_utf8(text, 1, buf, 1, NULL), "written");

    /* pulsar_routing_kafka_murmur2 */
    EXPECT(NULL_PARAMETER, pulsar_routing_kafka_murmur2(NULL, 1, u32_out), "data");
    EXPECT(NULL_PARAMETER, pulsar_routing_kafka_murmur2(text, 1, NULL), "hash_out");

    /* pulsar_routing_kafka_fnv1a */
    EXPECT(NULL_PARAMETER, pulsar_routing_kafka_fnv1a(NULL, 1, u32_out), "data");
    EXPECT(NULL_PARAMETER, pulsar_routing_kafka_fnv1a(text, 1, NULL), "hash_out");

    /* pulsar_routing_kafka_partition_for_key */
    EXPECT(NULL_PARAMETER, pulsar_routing_kafka_partition_for_key(NULL, 1, 1, u32_out), "key");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_kafka_partition_for_key(text, 1, 0, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_kafka_partition_for_key(text, 1, -1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_kafka_partition_for_key(text, 1, TOO_MANY,
                                                  u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_kafka_partition_for_key(text, 1, 1, NULL), "partition_out");

    /* pulsar_routing_librdkafka_partitioner_from_name */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_librdkafka_partitioner_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_librdkafka_partitioner_from_name(text, 1, NULL), "partitioner_out");

    /* pulsar_routing_librdkafka_partition_for_key */
    EXPECT(UNKNOWN_LIBRDKAFKA_PARTITIONER,
           pulsar_routing_librdkafka_partition_for_key(BAD_ENUM, text, 1, 1,
                                                       u32_out), "partitioner");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_librdkafka_partition_for_key(0, text, 1, 0,
                                                       u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_librdkafka_partition_for_key(0, text, 1, -1,
                                                       u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_librdkafka_partition_for_key(0, text, 1, TOO_MANY,
                                                       u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_librdkafka_partition_for_key(0, text, 1, 1, NULL), "partition_out");

    /* pulsar_routing_librdkafka_partition */
    EXPECT(UNKNOWN_LIBRDKAFKA_PARTITIONER,
           pulsar_routing_librdkafka_partition(BAD_ENUM, text, 1, 1, 1, u32_out), "partitioner");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_librdkafka_partition(0, text, 1, 0, 1, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_librdkafka_partition(0, text, 1, -1, 1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_librdkafka_partition(0, text, 1, TOO_MANY, 1,
                                               u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_librdkafka_partition(0, text, 1, 1, 1, NULL), "partition_out");

    /* pulsar_routing_key_hash */
    EXPECT(NULL_PARAMETER, pulsar_routing_key_hash(key_null_data, 0, u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND, pulsar_routing_key_hash(key_bad_kind, 0, u32_out), "key.kind");
    EXPECT(UNKNOWN_HASHING_SCHEME, pulsar_routing_key_hash(key, BAD_ENUM, u32_out), "scheme");
    EXPECT(NULL_PARAMETER, pulsar_routing_key_hash(key, 0, NULL), "hash_out");

    /* pulsar_routing_key_partition */
    EXPECT(NULL_PARAMETER, pulsar_routing_key_partition(key_null_data, 0, 1, u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND, pulsar_routing_key_partition(key_bad_kind, 0, 1, u32_out), "key.kind");
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_key_partition(key, BAD_ENUM, 1, u32_out), "scheme");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_key_partition(key, 0, 0, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_key_partition(key, 0, -1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_key_partition(key, 0, TOO_MANY, u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER, pulsar_routing_key_partition(key, 0, 1, NULL), "partition_out");

    /* pulsar_routing_partition_for_key */
    EXPECT(NULL_PARAMETER, pulsar_routing_partition_for_key(NULL, 1, 1, 0, u32_out), "key");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_partition_for_key(text, 1, 0, 0, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_partition_for_key(text, 1, -1, 0, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_partition_for_key(text, 1, TOO_MANY, 0,
                                            u32_out), "num_partitions = TOO_MANY");
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_partition_for_key(text, 1, 1, BAD_ENUM, u32_out), "scheme");
    EXPECT(NULL_PARAMETER, pulsar_routing_partition_for_key(text, 1, 1, 0, NULL), "partition_out");

    /* pulsar_routing_partition_for_key_bytes */
    EXPECT(NULL_PARAMETER, pulsar_routing_partition_for_key_bytes(NULL, 1, 1, 0, u32_out), "key");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_partition_for_key_bytes(text, 1, 0, 0, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_partition_for_key_bytes(text, 1, -1, 0, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_partition_for_key_bytes(text, 1, TOO_MANY, 0,
                                                  u32_out), "num_partitions = TOO_MANY");
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_partition_for_key_bytes(text, 1, 1, BAD_ENUM, u32_out), "scheme");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_partition_for_key_bytes(text, 1, 1, 0, NULL), "partition_out");

    /* pulsar_routing_partitions_for_keys: NULL even for an empty batch */
    {
        const size_t offsets[3] = {0, 1, 1};
        for (size_t count = 0; count <= 2; count += 2) {
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_partitions_for_keys(NULL, offsets, count, 1, 0, u32_out), "data");
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_partitions_for_keys(text, NULL, count, 1, 0, u32_out), "offsets");
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_partitions_for_keys(text, offsets, count, 1, 0, NULL),
                   "partitions_out");
        }
        EXPECT(PARTITION_COUNT_ZERO,
               pulsar_routing_partitions_for_keys(text, offsets, 2, 0, 0, u32_out),
               "num_partitions = 0");
        EXPECT(PARTITION_COUNT_NEGATIVE,
               pulsar_routing_partitions_for_keys(text, offsets, 2, -1, 0, u32_out),
               "num_partitions = -1");
        EXPECT(PARTITION_COUNT_TOO_LARGE,
               pulsar_routing_partitions_for_keys(text, offsets, 2, TOO_MANY, 0, u32_out),
               "num_partitions = TOO_MANY");
        EXPECT(UNKNOWN_HASHING_SCHEME,
               pulsar_routing_partitions_for_keys(text, offsets, 2, 1, BAD_ENUM, u32_out),
               "scheme");
        EXPECT(BATCH_NO_OFFSETS,
               pulsar_routing_partitions_for_keys(text, offsets, SIZE_MAX, 1, 0, u32_out),
               "count = SIZE_MAX");
        const size_t decreasing[3] = {1, 0, 1};
        EXPECT(BATCH_OFFSET_DECREASES,
               pulsar_routing_partitions_for_keys(text, decreasing, 2, 1, 0, u32_out),
               "offsets decrease");
        const size_t past_end[3] = {0, 3, 1};
        EXPECT(BATCH_OFFSET_PAST_END,
               pulsar_routing_partitions_for_keys(text, past_end, 2, 1, 0, u32_out),
               "an offset past the last");
    }

    /* pulsar_routing_key_counts_*: NULL even for an empty key or batch; a
     * refused add adds nothing (checked by the counts staying empty). */
    {
        pulsar_routing_key_counts *kc = NULL;
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_new(NULL), "out");
        EXPECT_TRUE(pulsar_routing_key_counts_new(&kc) == PULSAR_ROUTING_STATUS_OK && kc != NULL,
                    "key_counts_new");
        const size_t offsets[3] = {0, 1, 1};
        for (size_t len = 0; len <= 1; len++) {
            EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_add(NULL, text, len, 1.0), "counts");
            EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_add(kc, NULL, len, 1.0), "key");
        }
        EXPECT(KEY_COUNTS_INVALID_WEIGHT, pulsar_routing_key_counts_add(kc, text, 1, -1.0),
               "weight -1");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_add_keyless(NULL, 1.0), "counts");
        EXPECT(KEY_COUNTS_INVALID_WEIGHT, pulsar_routing_key_counts_add_keyless(kc, -1.0),
               "weight -1");
        for (size_t count = 0; count <= 2; count += 2) {
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_key_counts_add_batch(NULL, text, offsets, count, NULL), "counts");
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_key_counts_add_batch(kc, NULL, offsets, count, NULL), "data");
            EXPECT(NULL_PARAMETER,
                   pulsar_routing_key_counts_add_batch(kc, text, NULL, count, NULL), "offsets");
        }
        EXPECT(BATCH_NO_OFFSETS,
               pulsar_routing_key_counts_add_batch(kc, text, offsets, SIZE_MAX, NULL),
               "count = SIZE_MAX");
        const size_t decreasing[3] = {1, 0, 1};
        EXPECT(BATCH_OFFSET_DECREASES,
               pulsar_routing_key_counts_add_batch(kc, text, decreasing, 2, NULL),
               "offsets decrease");
        const size_t past_end[3] = {0, 3, 1};
        EXPECT(BATCH_OFFSET_PAST_END,
               pulsar_routing_key_counts_add_batch(kc, text, past_end, 2, NULL),
               "an offset past the last");
        const double bad_weights[2] = {1.0, -1.0};
        EXPECT(KEY_COUNTS_INVALID_WEIGHT,
               pulsar_routing_key_counts_add_batch(kc, text, offsets, 2, bad_weights),
               "weight -1");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_len(NULL, size_out), "counts");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_len(kc, NULL), "out");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_rows(NULL, u64_out), "counts");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_rows(kc, NULL), "out");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_total_key_bytes(NULL, size_out),
               "counts");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_total_key_bytes(kc, NULL), "out");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_keyless_weight(NULL, f64_out, bool_out),
               "counts");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_keyless_weight(kc, NULL, bool_out),
               "weight_out");
        EXPECT(NULL_PARAMETER, pulsar_routing_key_counts_keyless_weight(kc, f64_out, NULL),
               "present_out");
        /* Empty counts need no bytes, one offset and no weight. */
        EXPECT(NULL_PARAMETER,
               pulsar_routing_key_counts_write_sorted(NULL, buf, 0, u64_out, 1, f64_out, 0),
               "counts");
        EXPECT(NULL_PARAMETER,
               pulsar_routing_key_counts_write_sorted(kc, NULL, 1, u64_out, 1, f64_out, 0),
               "data with data_len 1");
        EXPECT(NULL_PARAMETER,
               pulsar_routing_key_counts_write_sorted(kc, buf, 0, NULL, 1, f64_out, 0), "offsets");
        EXPECT(NULL_PARAMETER,
               pulsar_routing_key_counts_write_sorted(kc, buf, 0, u64_out, 1, NULL, 0), "weights");
        EXPECT(KEY_COUNTS_OUTPUT_LENGTH,
               pulsar_routing_key_counts_write_sorted(kc, buf, 1, u64_out, 1, f64_out, 0),
               "data_len 1 for no key bytes");
        EXPECT(KEY_COUNTS_OUTPUT_LENGTH,
               pulsar_routing_key_counts_write_sorted(kc, NULL, 0, u64_out, 0, f64_out, 0),
               "offsets_len 0");
        size_t len = 1;
        uint64_t rows = 1;
        EXPECT_TRUE(pulsar_routing_key_counts_len(kc, &len) == PULSAR_ROUTING_STATUS_OK &&
                        pulsar_routing_key_counts_rows(kc, &rows) == PULSAR_ROUTING_STATUS_OK &&
                        len == 0 && rows == 0,
                    "refused adds added nothing");
        pulsar_routing_key_counts_free(kc);
        pulsar_routing_key_counts_free(NULL);
    }

    /* pulsar_routing_selector_kind_from_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_kind_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_kind_from_name(text, 1, NULL), "kind_out");

    /* pulsar_routing_selector_kind_key_hash_range */
    EXPECT(UNKNOWN_SELECTOR_KIND,
           pulsar_routing_selector_kind_key_hash_range(BAD_ENUM, hash_range_out), "kind");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_kind_key_hash_range(0, NULL), "range_out");

    /* pulsar_routing_validate_sticky_ranges */
    EXPECT(NULL_PARAMETER, pulsar_routing_validate_sticky_ranges(NULL, 1), "ranges");

    /* pulsar_routing_validate_sticky_ranges_error_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_validate_sticky_ranges_error_message(NULL, 1, buf, 1,
                                                               size_out), "ranges");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_validate_sticky_ranges_error_message(hash_ranges, 1, NULL, 1,
                                                               size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_validate_sticky_ranges_error_message(hash_ranges, 1, buf, 1,
                                                               NULL), "written");

    /* pulsar_routing_ring_point */
    EXPECT(NULL_PARAMETER, pulsar_routing_ring_point(NULL, 1, 1, 1, slot_range, u32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_ring_point(text, 1, 1, 1, slot_range, NULL), "point_out");

    /* pulsar_routing_auto_split_config_storage_words */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_auto_split_config_storage_words(auto_split_config, NULL), "words_out");

    /* pulsar_routing_consistent_hashing_config_storage_words */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_consistent_hashing_config_storage_words(consistent_config,
                                                                  NULL), "words_out");

    /* pulsar_routing_exclusive_config_storage_words */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_exclusive_config_storage_words(exclusive_config, NULL), "words_out");

    /* pulsar_routing_selector_new_auto_split */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_new_auto_split(auto_split_config, NULL), "selector_out");

    /* pulsar_routing_selector_new_consistent_hashing */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_new_consistent_hashing(consistent_config, NULL), "selector_out");

    /* pulsar_routing_selector_new_exclusive */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_new_exclusive(exclusive_config, NULL), "selector_out");

    /* pulsar_routing_selector_get_kind */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_get_kind(NULL, u32_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_get_kind(sel, NULL), "kind_out");

    /* pulsar_routing_selector_key_hash_range */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_key_hash_range(NULL, hash_range_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_key_hash_range(sel, NULL), "range_out");

    /* pulsar_routing_selector_len */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_len(NULL, size_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_len(sel, NULL), "len_out");

    /* pulsar_routing_selector_contains */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_contains(NULL, 1, bool_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_contains(sel, 1, NULL), "contains_out");

    /* pulsar_routing_selector_get_capacity */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_get_capacity(NULL, capacity_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_get_capacity(sel, NULL), "capacity_out");

    /* pulsar_routing_selector_reserve */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_reserve(NULL, capacity), "selector");

    /* pulsar_routing_selector_add */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_add(NULL, 1), "selector");

    /* pulsar_routing_selector_add_named */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_add_named(NULL, 1, text, 1), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_add_named(sel, 1, NULL, 1), "name");

    /* pulsar_routing_selector_add_ranges */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_add_ranges(NULL, 1, hash_ranges, 1), "selector");

    /* pulsar_routing_selector_remove */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_remove(NULL, 1), "selector");

    /* pulsar_routing_selector_select */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select(NULL, 1, u64_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select(sel, 1, NULL), "consumer_out");

    /* pulsar_routing_selector_select_key */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select_key(NULL, text, 1, u64_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select_key(sel, NULL, 1, u64_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select_key(sel, text, 1, NULL), "consumer_out");

    /* pulsar_routing_selector_select_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_message(NULL, messages, u64_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_select_message(sel, NULL, u64_out), "keys");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_message(sel, messages, NULL), "consumer_out");

    /* pulsar_routing_selector_select_keys */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_keys(NULL, strs, 1, 1, u64_out, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_keys(sel, NULL, 1, 1, u64_out, 1, size_out), "keys");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_keys(sel, strs, 1, 1, NULL, 1, size_out), "consumers");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_keys(sel, strs, 1, 1, u64_out, 1, NULL), "written");

    /* pulsar_routing_selector_select_messages */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_messages(NULL, messages, 1, 1, u64_out, 1,
                                                   size_out), "selector");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_messages(sel, NULL, 1, 1, u64_out, 1,
                                                   size_out), "messages");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_messages(sel, messages, 1, 1, NULL, 1,
                                                   size_out), "consumers");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_select_messages(sel, messages, 1, 1, u64_out, 1,
                                                   NULL), "written");

    /* pulsar_routing_selector_assignments */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_assignments(NULL, assignment_out, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_assignments(sel, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_assignments(sel, assignment_out, 1, NULL), "written");

    /* pulsar_routing_selector_consumer_ranges */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_consumer_ranges(NULL, assignment_out, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_consumer_ranges(sel, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_consumer_ranges(sel, assignment_out, 1, NULL), "written");

    /* pulsar_routing_selector_ranges_of */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_ranges_of(NULL, 1, hash_range_out, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_ranges_of(sel, 1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_ranges_of(sel, 1, hash_range_out, 1, NULL), "written");

    /* pulsar_routing_selector_last_impact */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_impact(NULL, assignment_out, 1, size_out, assignment_out, 1,
                                               size_out), "selector");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_impact(sel, NULL, 1, size_out, assignment_out, 1,
                                               size_out), "removed");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_impact(sel, assignment_out, 1, NULL, assignment_out, 1,
                                               size_out), "removed_written");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_impact(sel, assignment_out, 1, size_out, NULL, 1,
                                               size_out), "added");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_impact(sel, assignment_out, 1, size_out, assignment_out, 1,
                                               NULL), "added_written");

    /* pulsar_routing_selector_name_index */
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_name_index(NULL, 1, i64_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_name_index(sel, 1, NULL), "index_out");

    /* pulsar_routing_selector_ring_points */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_ring_points(NULL, 1, u32_out, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER, pulsar_routing_selector_ring_points(sel, 1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_ring_points(sel, 1, u32_out, 1, NULL), "written");

    /* pulsar_routing_selector_last_error_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_error_message(NULL, buf, 1, size_out), "selector");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_error_message(sel, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_selector_last_error_message(sel, buf, 1, NULL), "written");

    /* pulsar_routing_sticky_key_hash */
    EXPECT(NULL_PARAMETER, pulsar_routing_sticky_key_hash(NULL, 1, 0, u32_out), "key");
    EXPECT(UNKNOWN_SELECTOR_KIND,
           pulsar_routing_sticky_key_hash(text, 1, BAD_ENUM, u32_out), "kind");
    EXPECT(NULL_PARAMETER, pulsar_routing_sticky_key_hash(text, 1, 0, NULL), "slot_out");

    /* pulsar_routing_slot_of */
    EXPECT(NULL_PARAMETER, pulsar_routing_slot_of(NULL, 1, slot_range, u32_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_slot_of(text, 1, slot_range, NULL), "slot_out");

    /* pulsar_routing_slots_of */
    EXPECT(NULL_PARAMETER, pulsar_routing_slots_of(NULL, 1, slot_range, u32_out, 1,
                                                   size_out), "keys");
    EXPECT(NULL_PARAMETER, pulsar_routing_slots_of(strs, 1, slot_range, NULL, 1,
                                                   size_out), "slots");
    EXPECT(NULL_PARAMETER, pulsar_routing_slots_of(strs, 1, slot_range, u32_out, 1,
                                                   NULL), "written");

    /* pulsar_routing_message_keys_sticky_key */
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_sticky_key(NULL, buf, 1, size_out), "keys");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_message_keys_sticky_key(messages, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_message_keys_sticky_key(messages, buf, 1, NULL), "written");

    /* pulsar_routing_message_keys_murmur3 */
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_murmur3(NULL, u32_out), "keys");
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_murmur3(messages, NULL), "hash_out");

    /* pulsar_routing_message_keys_slot */
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_slot(NULL, slot_range, u32_out), "keys");
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_slot(messages, slot_range,
                                                            NULL), "slot_out");

    /* pulsar_routing_message_keys_check */
    EXPECT(NULL_PARAMETER, pulsar_routing_message_keys_check(NULL), "keys");

    /* pulsar_routing_message_keys_error_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_message_keys_error_message(NULL, buf, 1, size_out), "keys");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_message_keys_error_message(messages, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_message_keys_error_message(messages, buf, 1, NULL), "written");

    /* pulsar_routing_murmur3_32 */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_32(NULL, 1, u32_out), "data");
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_32(text, 1, NULL), "hash_out");

    /* pulsar_routing_murmur3_32_raw */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_32_raw(NULL, 1, u32_out), "data");
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_32_raw(text, 1, NULL), "hash_out");

    /* pulsar_routing_murmur3_hasher_init */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_init(NULL), "hasher");

    /* pulsar_routing_murmur3_hasher_update */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_update(NULL, text, 1), "hasher");
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_update(&mh, NULL, 1), "data");

    /* pulsar_routing_murmur3_hasher_finalize */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_finalize(NULL, u32_out), "hasher");
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_finalize(&mh, NULL), "hash_out");

    /* pulsar_routing_murmur3_hasher_finalize_raw */
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_finalize_raw(NULL, u32_out), "hasher");
    EXPECT(NULL_PARAMETER, pulsar_routing_murmur3_hasher_finalize_raw(&mh, NULL), "hash_out");

    /* pulsar_routing_partition_count_validate */
    EXPECT(PARTITION_COUNT_ZERO, pulsar_routing_partition_count_validate(0), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_partition_count_validate(-1), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_partition_count_validate(TOO_MANY), "num_partitions = TOO_MANY");

    /* pulsar_routing_partition_count_reduce */
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_partition_count_reduce(0, 1, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_partition_count_reduce(-1, 1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_partition_count_reduce(TOO_MANY, 1,
                                                 u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER, pulsar_routing_partition_count_reduce(1, 1, NULL), "partition_out");

    /* pulsar_routing_partition_count_sign_safe_mod */
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_partition_count_sign_safe_mod(0, 1, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_partition_count_sign_safe_mod(-1, 1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_partition_count_sign_safe_mod(TOO_MANY, 1,
                                                        u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_partition_count_sign_safe_mod(1, 1, NULL), "partition_out");

    /* pulsar_routing_client_profile_from_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_client_profile_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_client_profile_from_name(text, 1, NULL), "profile_out");

    /* pulsar_routing_client_profile_default_scheme */
    EXPECT(UNKNOWN_CLIENT_PROFILE,
           pulsar_routing_client_profile_default_scheme(BAD_ENUM, u32_out), "profile");
    EXPECT(NULL_PARAMETER, pulsar_routing_client_profile_default_scheme(0, NULL), "scheme_out");

    /* pulsar_routing_client_hashing_scheme_from_name */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_client_hashing_scheme_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_client_hashing_scheme_from_name(text, 1, NULL), "scheme_out");

    /* pulsar_routing_profile_hash_from_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_hash_from_name(NULL, 1, u32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_hash_from_name(text, 1, NULL), "hash_out");

    /* pulsar_routing_profile_hash_bytes */
    EXPECT(UNKNOWN_PROFILE_HASH,
           pulsar_routing_profile_hash_bytes(BAD_ENUM, text, 1, u32_out), "hash");
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_hash_bytes(0, NULL, 1, u32_out), "key");
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_hash_bytes(0, text, 1, NULL), "hash_out");

    /* pulsar_routing_profile_partition */
    EXPECT(UNKNOWN_CLIENT_PROFILE,
           pulsar_routing_profile_partition(BAD_ENUM, 0, 0, key, text, 1, 1, u32_out), "profile");
    EXPECT(UNKNOWN_CLIENT_HASHING_SCHEME,
           pulsar_routing_profile_partition(0, BAD_ENUM, 0, key, text, 1, 1, u32_out), "scheme");
    EXPECT(UNKNOWN_PROFILE_MODE,
           pulsar_routing_profile_partition(0, 0, BAD_ENUM, key, text, 1, 1, u32_out), "mode");
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_partition(0, 0, 0, key_null_data, text, 1, 1,
                                                            u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND,
           pulsar_routing_profile_partition(0, 0, 0, key_bad_kind, text, 1, 1,
                                            u32_out), "key.kind");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_profile_partition(0, 0, 0, key, text, 1, 0,
                                            u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_profile_partition(0, 0, 0, key, text, 1, -1,
                                            u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_profile_partition(0, 0, 0, key, text, 1, TOO_MANY,
                                            u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER, pulsar_routing_profile_partition(0, 0, 0, key, text, 1, 1,
                                                            NULL), "partition_out");

    /* pulsar_routing_go_partition_index */
    EXPECT(NULL_PARAMETER, pulsar_routing_go_partition_index(NULL, 1, i64_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_go_partition_index(text, 1, NULL), "index_out");

    /* pulsar_routing_cpp_partition_index */
    EXPECT(NULL_PARAMETER, pulsar_routing_cpp_partition_index(NULL, 1, i32_out), "local_name");
    EXPECT(NULL_PARAMETER, pulsar_routing_cpp_partition_index(text, 1, NULL), "index_out");

    /* pulsar_routing_check_partition */
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_check_partition(1, 0, u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_check_partition(1, -1, u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_check_partition(1, TOO_MANY, u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER, pulsar_routing_check_partition(1, 1, NULL), "partition_out");

    /* pulsar_routing_custom_router_new */
    EXPECT(NULL_PARAMETER, pulsar_routing_custom_router_new(NULL, NULL, &cr_out), "callback");
    EXPECT(NULL_PARAMETER, pulsar_routing_custom_router_new(route_first, NULL, NULL), "router_out");

    /* pulsar_routing_custom_router_choose_partition */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_custom_router_choose_partition(NULL, key, 1, u32_out), "router");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_custom_router_choose_partition(cr, key_null_data, 1,
                                                         u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND,
           pulsar_routing_custom_router_choose_partition(cr, key_bad_kind, 1, u32_out), "key.kind");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_custom_router_choose_partition(cr, key, 0,
                                                         u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_custom_router_choose_partition(cr, key, -1,
                                                         u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_custom_router_choose_partition(cr, key, TOO_MANY,
                                                         u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_custom_router_choose_partition(cr, key, 1, NULL), "partition_out");

    /* pulsar_routing_resolve_routing_mode */
    EXPECT(UNKNOWN_ROUTING_MODE,
           pulsar_routing_resolve_routing_mode(true, BAD_ENUM, false, u32_out), "mode");
    EXPECT(NULL_PARAMETER, pulsar_routing_resolve_routing_mode(false, 0, false, NULL), "mode_out");

    /* pulsar_routing_partition_switch_ms */
    EXPECT(NULL_PARAMETER, pulsar_routing_partition_switch_ms(1, 1, NULL), "switch_ms_out");

    /* pulsar_routing_round_robin_router_new */
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_round_robin_router_new(BAD_ENUM, 1, false, 1, &rr_out), "scheme");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_round_robin_router_new(0, 1, false, 1, NULL), "router_out");

    /* pulsar_routing_round_robin_router_choose_partition */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_round_robin_router_choose_partition(NULL, key, 1, 1, u32_out), "router");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_round_robin_router_choose_partition(rr, key_null_data, 1, 1,
                                                              u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND,
           pulsar_routing_round_robin_router_choose_partition(rr, key_bad_kind, 1, 1,
                                                              u32_out), "key.kind");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_round_robin_router_choose_partition(rr, key, 0, 1,
                                                              u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_round_robin_router_choose_partition(rr, key, -1, 1,
                                                              u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_round_robin_router_choose_partition(rr, key, TOO_MANY, 1,
                                                              u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_round_robin_router_choose_partition(rr, key, 1, 1,
                                                              NULL), "partition_out");

    /* pulsar_routing_single_partition_router_new */
    EXPECT(UNKNOWN_HASHING_SCHEME,
           pulsar_routing_single_partition_router_new(BAD_ENUM, 1, &sp_out), "scheme");
    EXPECT(NULL_PARAMETER, pulsar_routing_single_partition_router_new(0, 1, NULL), "router_out");

    /* pulsar_routing_single_partition_router_choose_partition */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_single_partition_router_choose_partition(NULL, key, 1,
                                                                   u32_out), "router");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_single_partition_router_choose_partition(sp, key_null_data, 1,
                                                                   u32_out), "key.data");
    EXPECT(UNKNOWN_KEY_KIND,
           pulsar_routing_single_partition_router_choose_partition(sp, key_bad_kind, 1,
                                                                   u32_out), "key.kind");
    EXPECT(PARTITION_COUNT_ZERO,
           pulsar_routing_single_partition_router_choose_partition(sp, key, 0,
                                                                   u32_out), "num_partitions = 0");
    EXPECT(PARTITION_COUNT_NEGATIVE,
           pulsar_routing_single_partition_router_choose_partition(sp, key, -1,
                                                                   u32_out), "num_partitions = -1");
    EXPECT(PARTITION_COUNT_TOO_LARGE,
           pulsar_routing_single_partition_router_choose_partition(sp, key, TOO_MANY,
                                                                   u32_out), "num_partitions = TOO_MANY");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_single_partition_router_choose_partition(sp, key, 1,
                                                                   NULL), "partition_out");

    /* pulsar_routing_sign_safe_mod */
    EXPECT(NULL_PARAMETER, pulsar_routing_sign_safe_mod(1, 1, NULL), "result_out");

    /* pulsar_routing_topic_name_parse */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_parse(NULL, 1, 0, &topic_out), "name");
    EXPECT(UNKNOWN_TOPIC_NAME_RULES,
           pulsar_routing_topic_name_parse(text, 1, BAD_ENUM, &topic_out), "rules");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_parse(text, 1, 0, NULL), "topic_out");

    /* pulsar_routing_last_error_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_last_error_message(PULSAR_ROUTING_STATUS_PANIC, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_last_error_message(PULSAR_ROUTING_STATUS_PANIC, buf, 1, NULL), "written");
    /* The failure just above (NULL written) is now this thread's last one. */
    {
        uint8_t text_buf[128];
        size_t written = 0;
        EXPECT(OK,
               pulsar_routing_last_error_message(PULSAR_ROUTING_STATUS_NULL_PARAMETER, text_buf,
                                                 sizeof text_buf, &written),
               "last error");
        EXPECT_TRUE(written == strlen(pulsar_routing_status_message(PULSAR_ROUTING_STATUS_NULL_PARAMETER)) &&
                        memcmp(text_buf, pulsar_routing_status_message(PULSAR_ROUTING_STATUS_NULL_PARAMETER),
                               written) == 0,
                    "last error: NULL_PARAMETER's own message");
    }

    /* pulsar_routing_topic_name_error_message */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_error_message(NULL, 1, 0, buf, 1, size_out), "name");
    EXPECT(UNKNOWN_TOPIC_NAME_RULES,
           pulsar_routing_topic_name_error_message(text, 1, BAD_ENUM, buf, 1, size_out), "rules");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_error_message(text, 1, 0, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_error_message(text, 1, 0, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_to_string */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_to_string(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_to_string(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_to_string(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_namespace */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_namespace(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_namespace(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_namespace(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_partitioned_topic_name */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_partitioned_topic_name(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_partitioned_topic_name(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_partitioned_topic_name(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_partition */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_partition(NULL, 1, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_partition(&topic, 1, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_partition(&topic, 1, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_lookup_name */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_lookup_name(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_lookup_name(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_lookup_name(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_persistence_naming */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_persistence_naming(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_persistence_naming(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_persistence_naming(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_rest_path */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_rest_path(NULL, false, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_rest_path(&topic, false, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_rest_path(&topic, false, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_encoded_local_name */
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_encoded_local_name(NULL, buf, 1, size_out), "topic");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_encoded_local_name(&topic, NULL, 1, size_out), "buf");
    EXPECT(NULL_PARAMETER,
           pulsar_routing_topic_name_encoded_local_name(&topic, buf, 1, NULL), "written");

    /* pulsar_routing_topic_name_crc32 */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_crc32(NULL, u32_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_crc32(&topic, NULL), "crc_out");

    /* pulsar_routing_topic_name_partition_crc32 */
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_partition_crc32(NULL, 1, u32_out), "topic");
    EXPECT(NULL_PARAMETER, pulsar_routing_topic_name_partition_crc32(&topic, 1, NULL), "crc_out");

    /* pulsar_routing_get_partition_index */
    EXPECT(NULL_PARAMETER, pulsar_routing_get_partition_index(NULL, 1, i32_out), "name");
    EXPECT(NULL_PARAMETER, pulsar_routing_get_partition_index(text, 1, NULL), "index_out");

    /* The functions that return no status. */
    pulsar_routing_round_robin_router_free(NULL);
    pulsar_routing_single_partition_router_free(NULL);
    pulsar_routing_custom_router_free(NULL);
    pulsar_routing_selector_free(NULL);
    passed++; /* the *_free(NULL) calls returned */
    EXPECT_TRUE(pulsar_routing_hashing_scheme_name(BAD_ENUM) == NULL, "hashing_scheme_name");
    EXPECT_TRUE(pulsar_routing_librdkafka_partitioner_name(BAD_ENUM) == NULL,
                "librdkafka_partitioner_name");
    EXPECT_TRUE(pulsar_routing_selector_kind_name(BAD_ENUM) == NULL, "selector_kind_name");
    EXPECT_TRUE(pulsar_routing_client_profile_name(BAD_ENUM) == NULL, "client_profile_name");
    EXPECT_TRUE(pulsar_routing_client_hashing_scheme_name(BAD_ENUM) == NULL,
                "client_hashing_scheme_name");
    EXPECT_TRUE(pulsar_routing_profile_hash_name(BAD_ENUM) == NULL, "profile_hash_name");
    EXPECT_TRUE(pulsar_routing_topic_domain_name(BAD_ENUM) == NULL, "topic_domain_name");
    EXPECT_TRUE(pulsar_routing_key_shared_error_class(BAD_ENUM) == NULL,
                "key_shared_error_class");
    EXPECT_TRUE(strcmp(pulsar_routing_status_message(BAD_ENUM), "unknown status code") == 0,
                "status_message");
    EXPECT_TRUE(pulsar_routing_version() != NULL, "version");
    EXPECT_TRUE(pulsar_routing_base64_len(SIZE_MAX) == SIZE_MAX, "base64_len saturates");
    EXPECT_TRUE(pulsar_routing_kafka_to_positive(UINT32_MAX) == 0x7fffffffu, "kafka_to_positive");

    pulsar_routing_round_robin_router_free(rr);
    pulsar_routing_single_partition_router_free(sp);
    pulsar_routing_custom_router_free(cr);
    pulsar_routing_selector_free(sel);
    printf("null_args: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
