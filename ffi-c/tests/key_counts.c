/* Key counts from C (pulsar_routing_key_counts_*): weights summed per
 * distinct key, keys in memcmp order (a key before the longer keys it
 * begins, bytes that are not UTF-8 as they are), a batch in Arrow's layout
 * counting as its keys one by one do, keyless rows apart, a refused weight
 * adding nothing and named by pulsar_routing_last_error_message, and
 * output buffers of the wrong length left untouched. Every expected value
 * is summed by hand from the rows of its test.
 *
 * NULL and out-of-range arguments are in null_args.c.
 *
 * Prints "key_counts: N passed, 0 failed"; exits 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pulsar_routing.h"

#define OK PULSAR_ROUTING_STATUS_OK

/* One expected key and its weight. */
struct row {
    const char *key;
    size_t len;
    double weight;
};

/* Checks the sorted output of `kc` against `want`, through write_sorted. */
static int expect_sorted(const pulsar_routing_key_counts *kc, const struct row *want, size_t n) {
    size_t len = 0, bytes = 0;
    CHECK(pulsar_routing_key_counts_len(kc, &len) == OK && len == n, "len %zu, expected %zu", len,
          n);
    CHECK(pulsar_routing_key_counts_total_key_bytes(kc, &bytes) == OK, "total_key_bytes");
    uint8_t *data = malloc(bytes + 1);
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    double *weights = malloc((n + 1) * sizeof *weights);
    int bad = data == NULL || offsets == NULL || weights == NULL ||
              pulsar_routing_key_counts_write_sorted(kc, data, bytes, offsets, n + 1, weights,
                                                     n) != OK;
    for (size_t i = 0; !bad && i < n; i++) {
        size_t start = (size_t)offsets[i], end = (size_t)offsets[i + 1];
        bad = end - start != want[i].len || memcmp(data + start, want[i].key, want[i].len) != 0 ||
              weights[i] != want[i].weight;
        if (bad) {
            fprintf(stderr, "key %zu: %zu bytes, weight %g; expected %zu bytes, weight %g\n", i,
                    end - start, weights[i], want[i].len, want[i].weight);
        }
    }
    bad = bad || offsets[0] != 0 || offsets[n] != bytes;
    free(data);
    free(offsets);
    free(weights);
    CHECK(!bad, "sorted output");
    return 0;
}

#define ROW(text, weight) {text, sizeof text - 1, weight}

static int sums_in_byte_order(void) {
    pulsar_routing_key_counts *kc = NULL;
    CHECK(pulsar_routing_key_counts_new(&kc) == OK, "new");
    CHECK(expect_sorted(kc, NULL, 0) == 0, "empty counts");
    static const struct row added[] = {ROW("pear", 1), ROW("apple", 2), ROW("", 0.5),
                                       ROW("pea", 4), ROW("apple", 0.25), ROW("\xff", 1),
                                       ROW("\xc3\xa9", 1)};
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        CHECK(pulsar_routing_key_counts_add(kc, (const uint8_t *)added[i].key, added[i].len,
                                            added[i].weight) == OK,
              "add %zu", i);
    }
    /* apple 2 + 0.25; "" first, "pea" before "pear"; 0xc3 before 0xff,
     * both after ASCII. */
    static const struct row sorted[] = {ROW("", 0.5),       ROW("apple", 2.25), ROW("pea", 4),
                                        ROW("pear", 1),     ROW("\xc3\xa9", 1), ROW("\xff", 1)};
    CHECK(expect_sorted(kc, sorted, 6) == 0, "sorted");

    double weight = -1;
    bool present = true;
    CHECK(pulsar_routing_key_counts_keyless_weight(kc, &weight, &present) == OK && !present &&
              weight == 0,
          "no keyless row yet: %g %d", weight, present);
    CHECK(pulsar_routing_key_counts_add_keyless(kc, 1.5) == OK &&
              pulsar_routing_key_counts_add_keyless(kc, 2) == OK,
          "add_keyless");
    uint64_t rows = 0;
    size_t len = 0;
    CHECK(pulsar_routing_key_counts_keyless_weight(kc, &weight, &present) == OK && present &&
              weight == 3.5,
          "keyless weight %g", weight);
    CHECK(pulsar_routing_key_counts_rows(kc, &rows) == OK && rows == 9, "rows %llu",
          (unsigned long long)rows);
    CHECK(pulsar_routing_key_counts_len(kc, &len) == OK && len == 6, "keyless rows are no key");
    pulsar_routing_key_counts_free(kc);
    return 0;
}

static int batch_counts_as_single_adds(void) {
    /* "xx" is not part of any key: the column slice starts at 2. */
    static const char data[] = "xxbaab";
    const size_t offsets[] = {2, 3, 4, 4, 5, 6};
    const double weights[] = {1, 2, 3, 4, 5};
    pulsar_routing_key_counts *kc = NULL;
    CHECK(pulsar_routing_key_counts_new(&kc) == OK, "new");
    CHECK(pulsar_routing_key_counts_add_batch(kc, (const uint8_t *)data, offsets, 5, NULL) == OK,
          "weight 1 each");
    static const struct row ones[] = {ROW("", 1), ROW("a", 2), ROW("b", 2)};
    CHECK(expect_sorted(kc, ones, 3) == 0, "b a '' a b, weight 1");
    CHECK(pulsar_routing_key_counts_add_batch(kc, (const uint8_t *)data, offsets, 5, weights) ==
              OK,
          "weighted");
    /* b 2 + 1 + 5, a 2 + 2 + 4, "" 1 + 3. */
    static const struct row summed[] = {ROW("", 4), ROW("a", 8), ROW("b", 8)};
    CHECK(expect_sorted(kc, summed, 3) == 0, "weighted sums");
    CHECK(pulsar_routing_key_counts_add_batch(kc, (const uint8_t *)data, offsets, 0, NULL) == OK,
          "empty batch");
    uint64_t rows = 0;
    CHECK(pulsar_routing_key_counts_rows(kc, &rows) == OK && rows == 10, "rows %llu",
          (unsigned long long)rows);
    pulsar_routing_key_counts_free(kc);
    return 0;
}

static int refusals_add_nothing(void) {
    pulsar_routing_key_counts *kc = NULL;
    CHECK(pulsar_routing_key_counts_new(&kc) == OK, "new");
    static const char data[] = "abc";
    const size_t offsets[] = {0, 1, 2, 3};
    const double weights[] = {1, 1, -0.5};
    pulsar_routing_status status =
        pulsar_routing_key_counts_add_batch(kc, (const uint8_t *)data, offsets, 3, weights);
    CHECK(status == PULSAR_ROUTING_STATUS_KEY_COUNTS_INVALID_WEIGHT, "status %u",
          (unsigned)status);
    char message[256];
    size_t written = 0;
    CHECK(pulsar_routing_last_error_message(status, (uint8_t *)message, sizeof message - 1,
                                            &written) == OK,
          "last_error_message");
    message[written] = '\0';
    CHECK(strcmp(message, "weight 2 is not a finite number of at least 0") == 0, "message %s",
          message);
    uint64_t rows = 1;
    CHECK(pulsar_routing_key_counts_rows(kc, &rows) == OK && rows == 0, "a refused batch added");

    CHECK(pulsar_routing_key_counts_add(kc, (const uint8_t *)"ab", 2, 1) == OK, "add");
    /* Needs 2 bytes, 2 offsets, 1 weight: one too many bytes is refused. */
    uint8_t bytes[3] = {7, 7, 7};
    uint64_t offs[2] = {7, 7};
    double w[1] = {7};
    status = pulsar_routing_key_counts_write_sorted(kc, bytes, 3, offs, 2, w, 1);
    CHECK(status == PULSAR_ROUTING_STATUS_KEY_COUNTS_OUTPUT_LENGTH, "status %u", (unsigned)status);
    CHECK(bytes[0] == 7 && offs[0] == 7 && offs[1] == 7 && w[0] == 7, "a refused call wrote");
    CHECK(pulsar_routing_key_counts_write_sorted(kc, bytes, 2, offs, 2, w, 1) == OK &&
              memcmp(bytes, "ab", 2) == 0 && offs[0] == 0 && offs[1] == 2 && w[0] == 1,
          "exact lengths");
    pulsar_routing_key_counts_free(kc);
    return 0;
}

int main(void) {
    int failed = sums_in_byte_order() + batch_counts_as_single_adds() + refusals_add_nothing();
    printf("key_counts: %lu passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
