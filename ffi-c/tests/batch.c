/* Batch routing from C (pulsar_routing_partitions_for_keys): every key of a
 * batch goes where pulsar_routing_partition_for_key sends it, a slice of a
 * column (first offset not 0) and an empty batch included; bytes that are
 * not UTF-8 are hashed as they are under Murmur3_32Hash and refuse the
 * batch under JavaStringHash, with the first bad key named by
 * pulsar_routing_last_error_message; a refused batch writes nothing.
 *
 * The golden rows go through the batch call in golden.c; NULL and
 * out-of-range arguments are in null_args.c.
 *
 * Prints "batch: N passed, 0 failed"; exits 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pulsar_routing.h"

#define MURMUR PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32
#define JAVA PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING

/* The full message of the last failure, NUL-terminated into `buf`. */
static const char *last_message(pulsar_routing_status status, char *buf, size_t len) {
    size_t written = 0;
    if (pulsar_routing_last_error_message(status, (uint8_t *)buf, len - 1, &written) !=
        PULSAR_ROUTING_STATUS_OK) {
        written = 0;
    }
    buf[written] = '\0';
    return buf;
}

static int agrees_with_single_calls(void) {
    /* "xx" is not part of any key: the column slice starts at 2. */
    static const char data[] = "xxuser-1user-22\xc3\xa9t\xc3\xa9order-7";
    const size_t offsets[] = {2, 8, 15, 15, 20, 27};
    enum { COUNT = 5 };
    const int schemes[] = {JAVA, MURMUR};
    const int64_t counts[] = {1, 12, 1000, PULSAR_ROUTING_PARTITION_COUNT_MAX};
    for (int s = 0; s < 2; s++) {
        for (int c = 0; c < 4; c++) {
            uint32_t out[COUNT];
            memset(out, 0xa5, sizeof out);
            pulsar_routing_status status = pulsar_routing_partitions_for_keys(
                (const uint8_t *)data, offsets, COUNT, counts[c], (uint32_t)schemes[s], out);
            CHECK(status == PULSAR_ROUTING_STATUS_OK, "batch: %s",
                  pulsar_routing_status_message(status));
            for (size_t i = 0; i < COUNT; i++) {
                uint32_t one = UINT32_MAX;
                status = pulsar_routing_partition_for_key((const uint8_t *)data + offsets[i],
                                                          offsets[i + 1] - offsets[i], counts[c],
                                                          (uint32_t)schemes[s], &one);
                CHECK(status == PULSAR_ROUTING_STATUS_OK && one == out[i],
                      "key %zu: batch %u, single %u", i, (unsigned)out[i], (unsigned)one);
            }
        }
    }
    /* An empty batch: OK, nothing read past offsets[0], nothing written. */
    uint32_t untouched = 7;
    CHECK(pulsar_routing_partitions_for_keys((const uint8_t *)data, offsets, 0, 12, JAVA,
                                             &untouched) == PULSAR_ROUTING_STATUS_OK &&
              untouched == 7,
          "empty batch");
    return 0;
}

static int bytes_that_are_not_utf8(void) {
    /* "é" cut in two, then a lone 0xff: no key is UTF-8 but the first. */
    static const uint8_t data[] = {'a', 0xc3, 0xa9, 0xff};
    const size_t offsets[] = {0, 1, 2, 3, 4};
    uint32_t out[4];
    CHECK(pulsar_routing_partitions_for_keys(data, offsets, 4, 12, MURMUR, out) ==
              PULSAR_ROUTING_STATUS_OK,
          "Murmur3_32Hash hashes any bytes");
    for (size_t i = 0; i < 4; i++) {
        uint32_t hash = 0, one = UINT32_MAX;
        CHECK(pulsar_routing_murmur3_32(data + i, 1, &hash) == PULSAR_ROUTING_STATUS_OK,
              "murmur3_32");
        CHECK(out[i] == hash % 12, "key %zu: %u, expected %u", i, (unsigned)out[i],
              (unsigned)(hash % 12));
        CHECK(pulsar_routing_partition_for_key(data + i, 1, 12, MURMUR, &one) ==
                      PULSAR_ROUTING_STATUS_OK &&
                  one == out[i],
              "single call, key %zu", i);
    }

    uint32_t poisoned[4] = {7, 7, 7, 7};
    pulsar_routing_status status =
        pulsar_routing_partitions_for_keys(data, offsets, 4, 12, JAVA, poisoned);
    char message[256];
    CHECK(status == PULSAR_ROUTING_STATUS_INVALID_UTF8, "JavaStringHash: status %u",
          (unsigned)status);
    CHECK(strcmp(last_message(status, message, sizeof message), "key 1 is not valid UTF-8") == 0,
          "message %s", message);
    CHECK(poisoned[0] == 7 && poisoned[1] == 7 && poisoned[2] == 7 && poisoned[3] == 7,
          "a refused batch wrote");
    uint32_t one = 7;
    CHECK(pulsar_routing_partition_for_key(data + 3, 1, 12, JAVA, &one) ==
                  PULSAR_ROUTING_STATUS_INVALID_UTF8 &&
              one == 7,
          "single call under JavaStringHash");
    return 0;
}

static int offsets_are_named(void) {
    static const char data[] = "abcdef";
    const size_t decreasing[] = {0, 4, 2, 6};
    uint32_t out[3] = {7, 7, 7};
    char message[256];
    pulsar_routing_status status =
        pulsar_routing_partitions_for_keys((const uint8_t *)data, decreasing, 3, 12, MURMUR, out);
    CHECK(status == PULSAR_ROUTING_STATUS_BATCH_OFFSET_DECREASES, "status %u", (unsigned)status);
    CHECK(strcmp(last_message(status, message, sizeof message),
                 "key offset 2 is smaller than the offset before it") == 0,
          "message %s", message);
    const size_t past_end[] = {0, 5, 6, 3};
    status = pulsar_routing_partitions_for_keys((const uint8_t *)data, past_end, 3, 12, MURMUR, out);
    CHECK(status == PULSAR_ROUTING_STATUS_BATCH_OFFSET_PAST_END, "status %u", (unsigned)status);
    CHECK(strcmp(last_message(status, message, sizeof message),
                 "key offset 1 points past the end of the key data") == 0,
          "message %s", message);
    CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7, "a refused batch wrote");
    return 0;
}

int main(void) {
    int failed = agrees_with_single_calls() + bytes_that_are_not_utf8() + offsets_are_named();
    printf("batch: %lu passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
