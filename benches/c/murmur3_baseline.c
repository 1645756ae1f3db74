/*
 * The C baseline the keyed-routing goals are measured against: MurmurHash3
 * x86_32 with seed 0, masked to 31 bits, then the hardware `%`, written
 * straight from the algorithm as a C client would write it and compiled
 * with -O3 (see benches/build.rs). It is a reference point for speed only:
 * the benches assert that it agrees with pulsar-routing before timing it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the baseline reads blocks with memcpy, which is little-endian only here"
#endif

static inline uint32_t rotl32(uint32_t x, int r) {
    return (x << r) | (x >> (32 - r));
}

static inline uint32_t mix_k(uint32_t k) {
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    return k * 0x1b873593u;
}

static inline uint32_t murmur3_32(const uint8_t *data, size_t len) {
    uint32_t h = 0;
    size_t blocks = len / 4;
    for (size_t i = 0; i < blocks; i++) {
        uint32_t k;
        memcpy(&k, data + 4 * i, 4);
        h ^= mix_k(k);
        h = rotl32(h, 13);
        h = h * 5 + 0xe6546b64u;
    }
    const uint8_t *tail = data + 4 * blocks;
    uint32_t k = 0;
    switch (len & 3) {
    case 3:
        k ^= (uint32_t)tail[2] << 16;
        /* fall through */
    case 2:
        k ^= (uint32_t)tail[1] << 8;
        /* fall through */
    case 1:
        k ^= tail[0];
        h ^= mix_k(k);
    }
    h ^= (uint32_t)len;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* One key: Pulsar's Murmur3_32Hash routing, `(hash & 0x7fffffff) % n`. */
uint32_t baseline_partition_for_key(const uint8_t *key, size_t len, uint32_t n) {
    return (murmur3_32(key, len) & 0x7fffffffu) % n;
}

/*
 * Many keys in Arrow's layout, key i being data[offsets[i] .. offsets[i+1]],
 * one at a time: the loop a C caller writes around the function above.
 */
void baseline_partitions_for_keys(const uint8_t *data, const size_t *offsets,
                                  size_t count, uint32_t n, uint32_t *out) {
    for (size_t i = 0; i < count; i++) {
        size_t start = offsets[i];
        out[i] = (murmur3_32(data + start, offsets[i + 1] - start) & 0x7fffffffu) % n;
    }
}

/*
 * The same routing with the C ABI's signature, written in C -O3: a status
 * return, the partition through an out-parameter, and the ABI's checks
 * (NULL pointers, the scheme, a count of 1 to 2^31-1). It is not a goal of
 * the issue; it shows how much of `pulsar_routing_partition_for_key`'s
 * distance to the plain function above is the shape of the call rather than
 * the Rust behind it.
 */
uint32_t baseline_partition_for_key_shaped(const uint8_t *key, size_t len, int64_t n,
                                           uint32_t scheme, uint32_t *out) {
    if (key == NULL || out == NULL) {
        return 1;
    }
    if (scheme != 1) {
        return 2;
    }
    if (n <= 0 || n > INT32_MAX) {
        return 3;
    }
    *out = (murmur3_32(key, len) & 0x7fffffffu) % (uint32_t)n;
    return 0;
}
