/* The check of the per-feature C tests: CHECK(cond, format, ...) counts a
 * passed check in `passed`, or prints where and why it failed and returns
 * 1 from the enclosing function (each test's `main` returns that as its
 * exit status). Included once, by the test's own .c file. */
#ifndef PULSAR_ROUTING_TESTS_CHECK_H
#define PULSAR_ROUTING_TESTS_CHECK_H

#include <stdio.h>

static unsigned long passed;

#define CHECK(cond, ...)                                    \
    do {                                                    \
        if (!(cond)) {                                      \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                   \
            fprintf(stderr, "\n");                          \
            return 1;                                       \
        }                                                   \
        passed++;                                           \
    } while (0)

#endif
