/*
 * pulsar_routing.hpp: a header-only C++17 wrapper of the C API in
 * pulsar_routing.h (Apache Pulsar's partition routing, topic names,
 * namespace bundles and Key_Shared selection, byte-for-byte as the Java
 * client and broker compute them). Link the C library as usual
 * (`find_package(PulsarRouting)` and `PulsarRouting::pulsar_routing`, or
 * `pkg-config --libs pulsar_routing`); this header adds nothing to link.
 *
 * Choices, made once for the whole wrapper:
 *
 * - Errors are exceptions: every status other than OK becomes a
 *   `pulsar_routing::error` (a `std::runtime_error`) carrying the status
 *   code and the library's message (Java's full message where the C API
 *   can write one: topic names, Key_Shared adds). The two outcomes that are
 *   answers rather than failures are `std::optional`: a Key_Shared slot no
 *   consumer owns (`NO_CONSUMER`) and a message a client routes as keyless
 *   (`NO_KEY`).
 * - Inputs: C++17 has no std::span, so byte inputs are a `bytes_view`,
 *   which converts implicitly from `std::string_view`, string literals,
 *   `std::string`, any contiguous container of 1-byte elements with
 *   `data()` and `size()` (`std::vector<uint8_t>`, `std::array<char, N>`,
 *   ...), and explicitly from a pointer and a size. Text that must be
 *   UTF-8 (topic names, string keys) is `std::string_view`; UTF-16 keys are
 *   `std::u16string_view`. Nothing is kept after a call returns, except
 *   where a class says it copies its input.
 * - Handles (the Java routers, the other clients' routers, Kafka's
 *   stateful partitioners, Key_Shared selectors, the sender readiness
 *   gate, key counts) are move-only RAII classes that free the C handle in their
 *   destructor. Value types the C API lets you allocate (hashers, bundle
 *   layouts, parsed topic names, the pending queue) are plain classes.
 * - Outputs are `std::string`, `std::vector` or numbers; buffers grow as
 *   the C API asks (`BUFFER_TOO_SMALL` gives the needed length).
 * - Thread-safety is the C API's: routers may be shared between threads, a
 *   selector, a sender gate or key counts may be read by many threads
 *   while none modifies them, a hasher or a pending queue belongs to one thread (see
 *   pulsar_routing.h).
 */
#ifndef PULSAR_ROUTING_HPP
#define PULSAR_ROUTING_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "pulsar_routing.h"

namespace pulsar_routing {

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/// A failed call: `status()` is the C status code, `what()` the message:
/// Java's, with the values it quotes, as Rust and Python give it.
class error : public std::runtime_error {
public:
    /// Made right after the call that failed, on its thread: the message is
    /// that call's (`pulsar_routing_last_error_message`).
    explicit error(pulsar_routing_status status)
        : std::runtime_error(last_message(status)), status_(status) {}
    error(pulsar_routing_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}

    /// The `PULSAR_ROUTING_STATUS_*` code.
    pulsar_routing_status status() const noexcept { return status_; }

private:
    static std::string last_message(pulsar_routing_status status) {
        std::string text(256, '\0');
        for (;;) {
            size_t written = 0;
            pulsar_routing_status got = pulsar_routing_last_error_message(
                status, reinterpret_cast<uint8_t *>(&text[0]), text.size(), &written);
            if (got == PULSAR_ROUTING_STATUS_OK) {
                text.resize(written);
                return text;
            }
            if (got != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL || written <= text.size()) {
                const char *fixed = pulsar_routing_status_message(status);
                return fixed != nullptr ? fixed : "unknown status code";
            }
            text.resize(written);
        }
    }

    pulsar_routing_status status_;
};

namespace detail {

inline void check(pulsar_routing_status status) {
    if (status != PULSAR_ROUTING_STATUS_OK) {
        throw error(status);
    }
}

// The C API rejects NULL even for empty input; an empty view may hold NULL.
inline const uint8_t *non_null(const void *data) noexcept {
    static const uint8_t empty = 0;
    return data != nullptr ? static_cast<const uint8_t *>(data) : &empty;
}

template <class C, class = void> struct is_byte_container : std::false_type {};
template <class C>
struct is_byte_container<C, std::void_t<decltype(std::declval<const C &>().data()),
                                        decltype(std::declval<const C &>().size())>>
    : std::bool_constant<sizeof(*std::declval<const C &>().data()) == 1 &&
                         std::is_trivially_copyable_v<std::remove_cv_t<
                             std::remove_reference_t<decltype(*std::declval<const C &>().data())>>>> {
};

// Calls `fill(buf, buf_len, &written)` until the buffer is big enough.
template <class T, class Fill> std::vector<T> read_vector(Fill fill, size_t guess = 16) {
    std::vector<T> out(guess == 0 ? 1 : guess);
    for (;;) {
        size_t written = 0;
        pulsar_routing_status status = fill(out.data(), out.size(), &written);
        if (status == PULSAR_ROUTING_STATUS_OK) {
            out.resize(written);
            return out;
        }
        if (status != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL || written <= out.size()) {
            throw error(status);
        }
        out.resize(written);
    }
}

template <class Fill> std::string read_string(Fill fill, size_t guess = 128) {
    std::vector<uint8_t> bytes = read_vector<uint8_t>(fill, guess);
    return std::string(bytes.begin(), bytes.end());
}

// The keys of a range of string views, copied into Arrow's string layout:
// one buffer, and one more offset than there are keys.
struct key_layout {
    template <class Range> explicit key_layout(const Range &keys) {
        size_t total = 0;
        for (const auto &key : keys) {
            total += std::string_view(key).size();
            offsets.push_back(total);
        }
        data.reserve(total);
        for (const auto &key : keys) {
            data.append(std::string_view(key));
        }
    }
    size_t count() const noexcept { return offsets.size() - 1; }

    std::string data;
    std::vector<size_t> offsets{0};
};

} // namespace detail

/// Borrowed bytes: a pointer and a length, never NULL (see the file comment).
class bytes_view {
public:
    constexpr bytes_view() noexcept = default;
    bytes_view(const void *data, size_t size) noexcept
        : data_(static_cast<const uint8_t *>(data)), size_(size) {}
    bytes_view(std::string_view text) noexcept : data_(to_bytes(text.data())), size_(text.size()) {}
    bytes_view(const char *text) : bytes_view(std::string_view(text)) {}
    bytes_view(const std::string &text) noexcept : bytes_view(std::string_view(text)) {}
    template <class C, class = std::enable_if_t<detail::is_byte_container<C>::value &&
                                                !std::is_convertible_v<const C &, std::string_view>>>
    bytes_view(const C &container) noexcept
        : data_(to_bytes(container.data())), size_(container.size()) {}

    /// Never NULL, even for an empty view.
    const uint8_t *data() const noexcept { return detail::non_null(data_); }
    size_t size() const noexcept { return size_; }

private:
    static const uint8_t *to_bytes(const void *p) noexcept {
        return static_cast<const uint8_t *>(p);
    }

    const uint8_t *data_ = nullptr;
    size_t size_ = 0;
};

/* ------------------------------------------------------------------ */
/* Versions, status codes                                              */
/* ------------------------------------------------------------------ */

/// The library's "major.minor.patch" (compare with the header's macros).
inline std::string version() {
    const char *v = pulsar_routing_version();
    return v != nullptr ? v : "";
}

/// The static message of a status code.
inline std::string status_message(pulsar_routing_status status) {
    const char *text = pulsar_routing_status_message(status);
    return text != nullptr ? text : "";
}

/* ------------------------------------------------------------------ */
/* Hashes                                                              */
/* ------------------------------------------------------------------ */

/// The Java client's `Murmur3_32Hash` (masked to 31 bits).
inline uint32_t murmur3_32(bytes_view data) {
    uint32_t hash = 0;
    detail::check(pulsar_routing_murmur3_32(data.data(), data.size(), &hash));
    return hash;
}

/// Murmur3 x86 32-bit with seed 0, not masked.
inline uint32_t murmur3_32_raw(bytes_view data) {
    uint32_t hash = 0;
    detail::check(pulsar_routing_murmur3_32_raw(data.data(), data.size(), &hash));
    return hash;
}

/// The Java client's `JavaStringHash` of UTF-8 text (`String.hashCode()`,
/// masked); throws `INVALID_UTF8`.
inline uint32_t java_string_hash(std::string_view text) {
    uint32_t hash = 0;
    detail::check(pulsar_routing_java_string_hash(detail::non_null(text.data()), text.size(), &hash));
    return hash;
}

/// Java's `String.hashCode()` of UTF-8 text, not masked.
inline int32_t java_string_hashcode(std::string_view text) {
    int32_t hash = 0;
    detail::check(
        pulsar_routing_java_string_hashcode(detail::non_null(text.data()), text.size(), &hash));
    return hash;
}

/// `JavaStringHash` of UTF-16 units as Java holds them (lone surrogates
/// allowed).
inline uint32_t java_string_hash(std::u16string_view units) {
    static_assert(sizeof(char16_t) == sizeof(uint16_t), "char16_t is 16 bits");
    static const uint16_t empty = 0;
    const uint16_t *data =
        units.empty() ? &empty : reinterpret_cast<const uint16_t *>(units.data());
    uint32_t hash = 0;
    detail::check(pulsar_routing_java_string_hash_utf16(data, units.size(), &hash));
    return hash;
}

/// The broker's CRC-32 (CRC-32C) bundle hash.
inline uint32_t crc32(bytes_view data) {
    uint32_t crc = 0;
    detail::check(pulsar_routing_crc32(data.data(), data.size(), &crc));
    return crc;
}

/// Kafka's murmur2 (`Utils.murmur2`).
inline uint32_t kafka_murmur2(bytes_view data) {
    uint32_t hash = 0;
    detail::check(pulsar_routing_kafka_murmur2(data.data(), data.size(), &hash));
    return hash;
}

/// The Kafka Java client's partition of a keyed record.
inline uint32_t kafka_partition_for_key(bytes_view key, int64_t num_partitions) {
    uint32_t partition = 0;
    detail::check(
        pulsar_routing_kafka_partition_for_key(key.data(), key.size(), num_partitions, &partition));
    return partition;
}

/// Streaming `Murmur3_32Hash`: `update` any number of times, then
/// `finalize`. Copying forks the stream. One thread at a time.
class murmur3_hasher {
public:
    murmur3_hasher() { detail::check(pulsar_routing_murmur3_hasher_init(&state_)); }
    murmur3_hasher &update(bytes_view data) {
        detail::check(pulsar_routing_murmur3_hasher_update(&state_, data.data(), data.size()));
        return *this;
    }
    /// Masked, as `murmur3_32`; the stream can go on afterwards.
    uint32_t finalize() const {
        uint32_t hash = 0;
        detail::check(pulsar_routing_murmur3_hasher_finalize(&state_, &hash));
        return hash;
    }
    uint32_t finalize_raw() const {
        uint32_t hash = 0;
        detail::check(pulsar_routing_murmur3_hasher_finalize_raw(&state_, &hash));
        return hash;
    }

private:
    pulsar_routing_murmur3_hasher state_{};
};

/// Streaming `crc32`. Copying forks the stream. One thread at a time.
class crc32_hasher {
public:
    crc32_hasher() { detail::check(pulsar_routing_crc32_hasher_init(&state_)); }
    crc32_hasher &update(bytes_view data) {
        detail::check(pulsar_routing_crc32_hasher_update(&state_, data.data(), data.size()));
        return *this;
    }
    uint32_t finalize() const {
        uint32_t crc = 0;
        detail::check(pulsar_routing_crc32_hasher_finalize(&state_, &crc));
        return crc;
    }

private:
    pulsar_routing_crc32_hasher state_{};
};

/* ------------------------------------------------------------------ */
/* Keys and partition routing                                          */
/* ------------------------------------------------------------------ */

/// The producer's `HashingScheme`.
enum class hashing_scheme : pulsar_routing_hashing_scheme {
    java_string = PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
    murmur3_32 = PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32,
};

/// A message key: none, `key(String)` (UTF-8 or UTF-16 units) or
/// `keyBytes(byte[])`. Borrows its data, like the views it is made from.
class key {
public:
    /// A message without a key.
    static key none() noexcept { return key(PULSAR_ROUTING_KEY_KIND_NONE, nullptr, 0); }
    /// `key(String)`, the string as UTF-8.
    static key string(std::string_view text) noexcept {
        return key(PULSAR_ROUTING_KEY_KIND_STRING, detail::non_null(text.data()), text.size());
    }
    /// `key(String)`, the string as UTF-16 units.
    static key utf16(std::u16string_view units) noexcept {
        static const uint16_t empty = 0;
        const void *data = units.empty() ? static_cast<const void *>(&empty)
                                         : static_cast<const void *>(units.data());
        return key(PULSAR_ROUTING_KEY_KIND_UTF16, static_cast<const uint8_t *>(data),
                   units.size());
    }
    /// `keyBytes(byte[])`.
    static key bytes(bytes_view data) noexcept {
        return key(PULSAR_ROUTING_KEY_KIND_BYTES, data.data(), data.size());
    }

    /// The C value, for the C functions.
    const pulsar_routing_key &c_key() const noexcept { return key_; }

    /// The key's hash under `scheme` (what the routers reduce).
    uint32_t hash(hashing_scheme scheme) const {
        uint32_t h = 0;
        detail::check(pulsar_routing_key_hash(
            key_, static_cast<pulsar_routing_hashing_scheme>(scheme), &h));
        return h;
    }

    /// The partition the Java client's routers give this key (throws
    /// `NO_KEY` for `none()`).
    uint32_t partition(hashing_scheme scheme, int64_t num_partitions) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_key_partition(
            key_, static_cast<pulsar_routing_hashing_scheme>(scheme), num_partitions, &p));
        return p;
    }

private:
    key(pulsar_routing_key_kind kind, const uint8_t *data, size_t len) noexcept
        : key_{kind, data, len} {}

    pulsar_routing_key key_;
};

/// The partition of a message sent with `key(text)` (UTF-8).
inline uint32_t partition_for_key(std::string_view text, int64_t num_partitions,
                                  hashing_scheme scheme = hashing_scheme::java_string) {
    uint32_t p = 0;
    detail::check(pulsar_routing_partition_for_key(
        detail::non_null(text.data()), text.size(), num_partitions,
        static_cast<pulsar_routing_hashing_scheme>(scheme), &p));
    return p;
}

/// The partition of a message sent with `keyBytes(bytes)`.
inline uint32_t partition_for_key_bytes(bytes_view bytes, int64_t num_partitions,
                                        hashing_scheme scheme = hashing_scheme::java_string) {
    uint32_t p = 0;
    detail::check(pulsar_routing_partition_for_key_bytes(
        bytes.data(), bytes.size(), num_partitions,
        static_cast<pulsar_routing_hashing_scheme>(scheme), &p));
    return p;
}

/// The partition of every key, in one call, as `partition_for_key` gives
/// it one key at a time: keys in Arrow's string layout, key `i` being
/// `data[offsets[i] .. offsets[i + 1]]` (`offsets` holds one more entry
/// than there are keys, and `data` ends at its last offset). Murmur3_32Hash
/// hashes bytes that are not UTF-8 as they are; JavaStringHash refuses the
/// batch. Throws `error` naming the first bad offset or key
/// (`INVALID_UTF8`, `BATCH_OFFSET_DECREASES`, `BATCH_OFFSET_PAST_END`,
/// `BATCH_NO_OFFSETS` for empty offsets) or the bad count or scheme.
inline std::vector<uint32_t> partitions_for_keys(
    bytes_view data, const std::vector<size_t> &offsets, int64_t num_partitions,
    hashing_scheme scheme = hashing_scheme::java_string) {
    // Empty offsets give count SIZE_MAX, which the library refuses
    // (BATCH_NO_OFFSETS); a pointer it can read is still needed first.
    static const size_t no_offset = 0;
    const size_t *first = offsets.empty() ? &no_offset : offsets.data();
    std::vector<uint32_t> out(offsets.empty() ? 0 : offsets.size() - 1);
    uint32_t none = 0;
    detail::check(pulsar_routing_partitions_for_keys(
        data.data(), first, offsets.size() - 1, num_partitions,
        static_cast<pulsar_routing_hashing_scheme>(scheme), out.empty() ? &none : out.data()));
    return out;
}

/// The partition of every key of `keys`, in one call: any range whose
/// elements convert to `std::string_view` (`std::vector<std::string_view>`,
/// `std::vector<std::string>`, `std::array<const char *, N>`, ...). The keys
/// are copied once into the layout the C call takes; keys already laid out
/// that way (an Arrow column) go to the overload above without a copy.
template <class Range, class = decltype(std::string_view(*std::begin(std::declval<const Range &>())))>
std::vector<uint32_t> partitions_for_keys(const Range &keys, int64_t num_partitions,
                                          hashing_scheme scheme = hashing_scheme::java_string) {
    const detail::key_layout layout(keys);
    return partitions_for_keys(bytes_view(layout.data.data(), layout.data.size()), layout.offsets,
                               num_partitions, scheme);
}

/// Java's `signSafeMod(dividend, divisor)`.
inline int32_t sign_safe_mod(int64_t dividend, int32_t divisor) {
    int32_t result = 0;
    detail::check(pulsar_routing_sign_safe_mod(dividend, divisor, &result));
    return result;
}

/// The Java client's `RoundRobinPartitionMessageRouterImpl`. Move-only;
/// may be shared by threads (its keyless counter is atomic).
class round_robin_router {
public:
    round_robin_router(hashing_scheme scheme, int32_t start_partition_index,
                       bool batching_enabled, int64_t partition_switch_ms) {
        pulsar_routing_round_robin_router *raw = nullptr;
        detail::check(pulsar_routing_round_robin_router_new(
            static_cast<pulsar_routing_hashing_scheme>(scheme), start_partition_index,
            batching_enabled, partition_switch_ms, &raw));
        handle_.reset(raw);
    }

    uint32_t choose_partition(const key &k, int64_t num_partitions, int64_t now_ms = 0) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_round_robin_router_choose_partition(
            handle_.get(), k.c_key(), num_partitions, now_ms, &p));
        return p;
    }

    const pulsar_routing_round_robin_router *get() const noexcept { return handle_.get(); }

private:
    struct deleter {
        void operator()(pulsar_routing_round_robin_router *r) const noexcept {
            pulsar_routing_round_robin_router_free(r);
        }
    };
    std::unique_ptr<pulsar_routing_round_robin_router, deleter> handle_;
};

/// The Java client's `SinglePartitionMessageRouterImpl`. Move-only;
/// immutable, so it may be shared by threads.
class single_partition_router {
public:
    single_partition_router(hashing_scheme scheme, int32_t partition_index) {
        pulsar_routing_single_partition_router *raw = nullptr;
        detail::check(pulsar_routing_single_partition_router_new(
            static_cast<pulsar_routing_hashing_scheme>(scheme), partition_index, &raw));
        handle_.reset(raw);
    }

    uint32_t choose_partition(const key &k, int64_t num_partitions) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_single_partition_router_choose_partition(
            handle_.get(), k.c_key(), num_partitions, &p));
        return p;
    }

    const pulsar_routing_single_partition_router *get() const noexcept { return handle_.get(); }

private:
    struct deleter {
        void operator()(pulsar_routing_single_partition_router *r) const noexcept {
            pulsar_routing_single_partition_router_free(r);
        }
    };
    std::unique_ptr<pulsar_routing_single_partition_router, deleter> handle_;
};

/// A custom `MessageRouter`: any callable taking `(const pulsar_routing_key
/// &, uint32_t num_partitions)` and returning the partition (`int32_t`),
/// checked as `PartitionedProducerImpl` checks it. An exception thrown by
/// the function is caught at the C boundary (it must not unwind through
/// the library) and rethrown by `choose_partition`. Move-only; shareable
/// between threads if the function is.
class custom_router {
public:
    using function = std::function<int32_t(const pulsar_routing_key &, uint32_t)>;

    explicit custom_router(function fn) : fn_(std::make_unique<function>(std::move(fn))) {
        pulsar_routing_custom_router *raw = nullptr;
        detail::check(pulsar_routing_custom_router_new(&trampoline, fn_.get(), &raw));
        handle_.reset(raw);
    }

    uint32_t choose_partition(const key &k, int64_t num_partitions) const {
        pending() = nullptr;
        uint32_t p = 0;
        pulsar_routing_status status = pulsar_routing_custom_router_choose_partition(
            handle_.get(), k.c_key(), num_partitions, &p);
        if (std::exception_ptr thrown = std::exchange(pending(), nullptr)) {
            std::rethrow_exception(thrown);
        }
        detail::check(status);
        return p;
    }

private:
    // Per thread, so that threads sharing the router do not see each
    // other's exceptions.
    static std::exception_ptr &pending() noexcept {
        static thread_local std::exception_ptr thrown;
        return thrown;
    }

    static int32_t trampoline(void *context, pulsar_routing_key k, uint32_t n) noexcept {
        try {
            return (*static_cast<function *>(context))(k, n);
        } catch (...) {
            pending() = std::current_exception();
            return -1; // rejected by the library, then rethrown
        }
    }

    struct deleter {
        void operator()(pulsar_routing_custom_router *r) const noexcept {
            pulsar_routing_custom_router_free(r);
        }
    };
    // Declared first, destroyed last: the router points at it.
    std::unique_ptr<function> fn_;
    std::unique_ptr<pulsar_routing_custom_router, deleter> handle_;
};

/* ------------------------------------------------------------------ */
/* Client profiles                                                     */
/* ------------------------------------------------------------------ */

/// The clients whose keyed routing `profile_partition` reproduces.
enum class client_profile : pulsar_routing_client_profile {
    java = PULSAR_ROUTING_CLIENT_PROFILE_JAVA,
    go = PULSAR_ROUTING_CLIENT_PROFILE_GO,
    cpp = PULSAR_ROUTING_CLIENT_PROFILE_CPP,
    python = PULSAR_ROUTING_CLIENT_PROFILE_PYTHON,
    pulsar_rs = PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS,
    dotpulsar = PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR,
};

/// A client's hashing scheme setting.
enum class client_hashing_scheme : pulsar_routing_client_hashing_scheme {
    java_string = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING,
    murmur3_32 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32,
    /// BoostHash of the client's default Boost: refused for C++ (builds
    /// vary), the current wheel's (`boost_1_82`) for Python.
    boost = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST,
    /// BoostHash of Boost 1.33 to 1.61.
    boost_1_33 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33,
    /// BoostHash of Boost 1.62 to 1.80.
    boost_1_62 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
    /// The earlier name of `boost_1_62`.
    boost_1_74_x86_64 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_74_X86_64,
    /// BoostHash of Boost 1.81.
    boost_1_81 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_81,
    /// BoostHash of Boost 1.82 and later.
    boost_1_82 = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82,
};

/// The BoostHash scheme of a client built with Boost release 1.`minor`
/// (`BOOST_VERSION / 100 % 1000`, e.g. 74 or 85): its generation. Throws
/// `error` (`UNKNOWN_CLIENT_HASHING_SCHEME`) outside 1.33 to 1.91.
inline client_hashing_scheme boost_scheme(unsigned minor) {
    const std::string name = "boost_1_" + std::to_string(minor);
    pulsar_routing_client_hashing_scheme scheme = 0;
    detail::check(pulsar_routing_client_hashing_scheme_from_name(
        reinterpret_cast<const uint8_t *>(name.data()), name.size(), &scheme));
    return static_cast<client_hashing_scheme>(scheme);
}

/// `boost::hash<std::string>` of `data` as the Boost generation `scheme`
/// (one of the `boost_1_*` values) computes it, all 64 bits; C++'s
/// BoostHash is this `& INT32_MAX`. `char_unsigned`: the platform's `char`
/// is unsigned (ARM); only generations before 1.81 read it.
inline uint64_t boost_hash_raw(client_hashing_scheme scheme, bytes_view data,
                               bool char_unsigned = false) {
    uint64_t h = 0;
    detail::check(pulsar_routing_boost_hash_raw(
        static_cast<pulsar_routing_client_hashing_scheme>(scheme), char_unsigned, data.data(),
        data.size(), &h));
    return h;
}

/// A client's routing mode setting.
enum class profile_mode : pulsar_routing_profile_mode {
    default_mode = PULSAR_ROUTING_PROFILE_MODE_DEFAULT,
    round_robin = PULSAR_ROUTING_PROFILE_MODE_ROUND_ROBIN,
    single_partition = PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION,
};

/// The client's default hashing scheme.
inline client_hashing_scheme default_scheme(client_profile profile) {
    pulsar_routing_client_hashing_scheme scheme = 0;
    detail::check(pulsar_routing_client_profile_default_scheme(
        static_cast<pulsar_routing_client_profile>(profile), &scheme));
    return static_cast<client_hashing_scheme>(scheme);
}

/// The partition `profile`'s client gives a keyed message, or nullopt when
/// that client routes the message as keyless (`NO_KEY`: e.g. Go's empty
/// key). `ordering_key` is nullopt for a message without one.
inline std::optional<uint32_t> profile_partition(client_profile profile,
                                                 client_hashing_scheme scheme, profile_mode mode,
                                                 const key &k, int64_t num_partitions,
                                                 std::optional<bytes_view> ordering_key = {}) {
    uint32_t p = 0;
    pulsar_routing_status status = pulsar_routing_profile_partition(
        static_cast<pulsar_routing_client_profile>(profile),
        static_cast<pulsar_routing_client_hashing_scheme>(scheme),
        static_cast<pulsar_routing_profile_mode>(mode), k.c_key(),
        ordering_key ? ordering_key->data() : nullptr, ordering_key ? ordering_key->size() : 0,
        num_partitions, &p);
    if (status == PULSAR_ROUTING_STATUS_NO_KEY) {
        return std::nullopt;
    }
    detail::check(status);
    return p;
}

/// The default router of a client's producer, keyless state included:
/// what `profile_partition` computes for one keyed message, over a whole
/// sequence of sends. Move-only; calls on one router are serialised by its
/// lock, so it may be shared by threads.
class profile_router {
public:
    /// The configuration a producer of `profile` uses when nothing is set.
    static pulsar_routing_profile_config default_config(client_profile profile) {
        pulsar_routing_profile_config config{};
        detail::check(pulsar_routing_profile_config_default(
            static_cast<pulsar_routing_client_profile>(profile), &config));
        return config;
    }

    /// `start` is the client's random draw (start index or single
    /// partition), `created_ns` the producer's creation time.
    profile_router(client_profile profile, const pulsar_routing_profile_config &config,
                   uint32_t start, int64_t created_ns) {
        pulsar_routing_profile_router *raw = nullptr;
        detail::check(pulsar_routing_profile_router_new(
            static_cast<pulsar_routing_client_profile>(profile), &config, start, created_ns, &raw));
        handle_.reset(raw);
    }

    client_profile profile() const {
        pulsar_routing_client_profile p = 0;
        detail::check(pulsar_routing_profile_router_profile(handle_.get(), &p));
        return static_cast<client_profile>(p);
    }

    /// Routes one message sent at `now_ns`, advancing the keyless state.
    uint32_t route(const key &k, int64_t num_partitions, int64_t now_ns, uint64_t payload_len = 0,
                   std::optional<bytes_view> ordering_key = {}) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_profile_router_route(
            handle_.get(), k.c_key(), ordering_key ? ordering_key->data() : nullptr,
            ordering_key ? ordering_key->size() : 0, payload_len, num_partitions, now_ns, &p));
        return p;
    }

    const pulsar_routing_profile_router *get() const noexcept { return handle_.get(); }

private:
    struct deleter {
        void operator()(pulsar_routing_profile_router *r) const noexcept {
            pulsar_routing_profile_router_free(r);
        }
    };
    std::unique_ptr<pulsar_routing_profile_router, deleter> handle_;
};

/* ------------------------------------------------------------------ */
/* Kafka's stateful partitioners                                       */
/* ------------------------------------------------------------------ */

/// What a sticky draw reads (the random number, the available partitions,
/// adaptive partitioning's load statistics): the C struct, whose pointers
/// the caller keeps valid during the call. `uniform(r)` is the common case.
using kafka_sticky_choice = pulsar_routing_kafka_sticky_choice;

inline kafka_sticky_choice uniform_choice(uint32_t random) noexcept {
    return kafka_sticky_choice{random, nullptr, 0, nullptr, 0, nullptr, 0, 0};
}

/// A sticky partitioner's state: whether a partition was drawn yet, which,
/// and the bytes produced to it since.
struct kafka_sticky_state {
    bool drawn = false;
    uint32_t partition = 0;
    int32_t produced_bytes = 0;
};

/// The Kafka Java client's `BuiltInPartitioner` (KIP-794). Move-only;
/// thread-safe, as the C handle.
class kafka_built_in_partitioner {
public:
    explicit kafka_built_in_partitioner(int32_t sticky_batch_size) {
        pulsar_routing_kafka_built_in_partitioner *raw = nullptr;
        detail::check(pulsar_routing_kafka_built_in_partitioner_new(sticky_batch_size, &raw));
        handle_.reset(raw);
    }
    /// The partitioner a producer with `batch.size` = `batch_size` builds.
    static kafka_built_in_partitioner for_batch_size(int32_t batch_size) {
        pulsar_routing_kafka_built_in_partitioner *raw = nullptr;
        detail::check(pulsar_routing_kafka_built_in_partitioner_for_batch_size(batch_size, &raw));
        return kafka_built_in_partitioner(raw);
    }

    int32_t sticky_batch_size() const {
        int32_t n = 0;
        detail::check(pulsar_routing_kafka_built_in_partitioner_sticky_batch_size(handle_.get(), &n));
        return n;
    }
    kafka_sticky_state current() const {
        kafka_sticky_state st;
        detail::check(pulsar_routing_kafka_built_in_partitioner_current(
            handle_.get(), &st.drawn, &st.partition, &st.produced_bytes));
        return st;
    }
    /// `peekCurrentPartitionInfo`, drawing with `choice` when none is drawn.
    uint32_t peek_partition(int64_t num_partitions, const kafka_sticky_choice &choice) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_kafka_built_in_partitioner_peek_partition(
            handle_.get(), num_partitions, choice, &p));
        return p;
    }
    /// `updatePartitionInfo`: the new partition if it switched.
    std::optional<uint32_t> update_partition_info(int32_t appended_bytes, bool enable_switch,
                                                  int64_t num_partitions,
                                                  const kafka_sticky_choice &choice) const {
        bool switched = false;
        uint32_t p = 0;
        detail::check(pulsar_routing_kafka_built_in_partitioner_update_partition_info(
            handle_.get(), appended_bytes, enable_switch, num_partitions, choice, &switched, &p));
        return switched ? std::optional<uint32_t>(p) : std::nullopt;
    }

private:
    explicit kafka_built_in_partitioner(pulsar_routing_kafka_built_in_partitioner *raw) noexcept
        : handle_(raw) {}
    struct deleter {
        void operator()(pulsar_routing_kafka_built_in_partitioner *p) const noexcept {
            pulsar_routing_kafka_built_in_partitioner_free(p);
        }
    };
    std::unique_ptr<pulsar_routing_kafka_built_in_partitioner, deleter> handle_;
};

/// The Kafka Java client producer's partition decision: murmur2 for keyed
/// records (unless `ignore_keys`), the sticky partitioner otherwise.
/// Move-only; thread-safe, as the C handle.
class kafka_java_client_partitioner {
public:
    kafka_java_client_partitioner(int32_t batch_size, bool ignore_keys) {
        pulsar_routing_kafka_java_client_partitioner *raw = nullptr;
        detail::check(
            pulsar_routing_kafka_java_client_partitioner_new(batch_size, ignore_keys, &raw));
        handle_.reset(raw);
    }
    /// The partition a record is appended to; `key` nullopt is Kafka's
    /// `null` key (a keyless record), an empty view an empty key.
    uint32_t append(std::optional<bytes_view> key, int32_t appended_bytes, bool enable_switch,
                    int64_t num_partitions, const kafka_sticky_choice &choice) const {
        uint32_t p = 0;
        detail::check(pulsar_routing_kafka_java_client_partitioner_append(
            handle_.get(), key ? key->data() : nullptr, key ? key->size() : 0, appended_bytes,
            enable_switch, num_partitions, choice, &p));
        return p;
    }
    kafka_sticky_state current() const {
        kafka_sticky_state st;
        detail::check(pulsar_routing_kafka_java_client_partitioner_current(
            handle_.get(), &st.drawn, &st.partition, &st.produced_bytes));
        return st;
    }

private:
    struct deleter {
        void operator()(pulsar_routing_kafka_java_client_partitioner *p) const noexcept {
            pulsar_routing_kafka_java_client_partitioner_free(p);
        }
    };
    std::unique_ptr<pulsar_routing_kafka_java_client_partitioner, deleter> handle_;
};

/// A librdkafka producer's partitioning, sticky keyless path included.
/// `partitioner` is a `PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_*` value.
/// Move-only; thread-safe, as the C handle.
class librdkafka_producer {
public:
    librdkafka_producer(pulsar_routing_librdkafka_partitioner partitioner,
                        int64_t sticky_linger_ms) {
        pulsar_routing_librdkafka_producer *raw = nullptr;
        detail::check(pulsar_routing_librdkafka_producer_new(partitioner, sticky_linger_ms, &raw));
        handle_.reset(raw);
    }
    pulsar_routing_librdkafka_partitioner partitioner() const {
        pulsar_routing_librdkafka_partitioner p = 0;
        detail::check(pulsar_routing_librdkafka_producer_partitioner(handle_.get(), &p));
        return p;
    }
    /// The partition of a message produced at `now_us` (librdkafka's
    /// clock). `key` nullopt is librdkafka's NULL key; `available` nullopt
    /// means every partition has a leader; `first`, `second` are the
    /// random draws.
    uint32_t partition(std::optional<bytes_view> key, int64_t num_partitions, int64_t now_us,
                       uint32_t first, uint32_t second,
                       const std::vector<uint32_t> *available = nullptr) const {
        static const uint32_t none = 0;
        uint32_t p = 0;
        detail::check(pulsar_routing_librdkafka_producer_partition(
            handle_.get(), key ? key->data() : nullptr, key ? key->size() : 0, num_partitions,
            now_us, first, second,
            available == nullptr ? nullptr : (available->empty() ? &none : available->data()),
            available == nullptr ? 0 : available->size(), &p));
        return p;
    }
    /// The sticky partition, nullopt before the first draw.
    std::optional<uint32_t> sticky_partition() const {
        bool drawn = false;
        uint32_t p = 0;
        detail::check(pulsar_routing_librdkafka_producer_sticky_partition(handle_.get(), &drawn, &p));
        return drawn ? std::optional<uint32_t>(p) : std::nullopt;
    }

private:
    struct deleter {
        void operator()(pulsar_routing_librdkafka_producer *p) const noexcept {
            pulsar_routing_librdkafka_producer_free(p);
        }
    };
    std::unique_ptr<pulsar_routing_librdkafka_producer, deleter> handle_;
};

/* ------------------------------------------------------------------ */
/* Topic names                                                         */
/* ------------------------------------------------------------------ */

/// Which `TopicName` rules parse: the 4.2 release (the default), an older
/// 4.x line that still accepts V1 names, or the 5.0 development ones.
enum class topic_name_rules : pulsar_routing_topic_name_rules {
    v4 = PULSAR_ROUTING_TOPIC_NAME_RULES_V4,
    master = PULSAR_ROUTING_TOPIC_NAME_RULES_MASTER,
    pulsar_4_2 = PULSAR_ROUTING_TOPIC_NAME_RULES_PULSAR_4_2,
};

/// A parsed topic name, as the broker's `TopicName.get`. Owns a copy of the
/// name (the C struct points into it), so it can outlive the input; copies
/// and moves re-parse, so every copy points into its own text.
class topic_name {
public:
    /// Throws `error` with Java's full message for a rejected name.
    explicit topic_name(std::string_view name, topic_name_rules rules = topic_name_rules::pulsar_4_2)
        : text_(name), rules_(rules) {
        parse();
    }
    topic_name(const topic_name &other) : text_(other.text_), rules_(other.rules_) { parse(); }
    topic_name &operator=(const topic_name &other) {
        if (this != &other) {
            text_ = other.text_;
            rules_ = other.rules_;
            parse();
        }
        return *this;
    }
    topic_name(topic_name &&other) : topic_name(static_cast<const topic_name &>(other)) {}
    topic_name &operator=(topic_name &&other) {
        return *this = static_cast<const topic_name &>(other);
    }

    /// The input as given.
    const std::string &input() const noexcept { return text_; }
    topic_name_rules rules() const noexcept { return rules_; }
    /// The C struct (points into this object).
    const pulsar_routing_topic_name &c_topic() const noexcept { return topic_; }

    pulsar_routing_topic_domain domain() const noexcept { return topic_.domain; }
    /// Java's `isPersistent()`: every domain but non-persistent.
    bool persistent() const noexcept {
        return topic_.domain != PULSAR_ROUTING_TOPIC_DOMAIN_NON_PERSISTENT;
    }
    /// -1 for a name without `-partition-N`.
    int32_t partition_index() const noexcept { return topic_.partition_index; }
    std::string_view tenant() const noexcept { return view(topic_.tenant); }
    /// Empty for a V2 name.
    std::string_view cluster() const noexcept { return view(topic_.cluster); }
    std::string_view namespace_portion() const noexcept { return view(topic_.namespace_portion); }
    std::string_view local_name() const noexcept { return view(topic_.local_name); }

    /// `toString()`: the canonical name.
    std::string to_string() const { return text(&pulsar_routing_topic_name_to_string); }
    /// `getNamespace()`.
    std::string namespace_name() const { return text(&pulsar_routing_topic_name_namespace); }
    std::string partitioned_topic_name() const {
        return text(&pulsar_routing_topic_name_partitioned_topic_name);
    }
    std::string lookup_name() const { return text(&pulsar_routing_topic_name_lookup_name); }
    std::string persistence_naming() const {
        return text(&pulsar_routing_topic_name_persistence_naming);
    }
    std::string encoded_local_name() const {
        return text(&pulsar_routing_topic_name_encoded_local_name);
    }
    std::string rest_path(bool include_domain = true) const {
        return detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
            return pulsar_routing_topic_name_rest_path(&topic_, include_domain, buf, len, written);
        });
    }
    /// `getPartition(index)`.
    topic_name partition(int32_t index) const {
        return topic_name(detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
                              return pulsar_routing_topic_name_partition(&topic_, index, buf, len,
                                                                         written);
                          }),
                          rules_);
    }
    /// The CRC-32 the broker's bundle lookup hashes.
    uint32_t crc32() const {
        uint32_t crc = 0;
        detail::check(pulsar_routing_topic_name_crc32(&topic_, &crc));
        return crc;
    }

private:
    using text_fn = pulsar_routing_status (*)(const pulsar_routing_topic_name *, uint8_t *, size_t,
                                              size_t *);

    static std::string_view view(const pulsar_routing_str &s) noexcept {
        return s.data == nullptr ? std::string_view()
                                 : std::string_view(reinterpret_cast<const char *>(s.data), s.len);
    }

    std::string text(text_fn fn) const {
        return detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
            return fn(&topic_, buf, len, written);
        });
    }

    void parse() {
        const uint8_t *data = detail::non_null(text_.data());
        auto rules = static_cast<pulsar_routing_topic_name_rules>(rules_);
        pulsar_routing_status status =
            pulsar_routing_topic_name_parse(data, text_.size(), rules, &topic_);
        if (status == PULSAR_ROUTING_STATUS_OK) {
            return;
        }
        std::string message;
        try {
            message = detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
                return pulsar_routing_topic_name_error_message(data, text_.size(), rules, buf, len,
                                                               written);
            });
        } catch (const error &) {
            throw error(status);
        }
        throw error(status, message);
    }

    std::string text_;
    topic_name_rules rules_;
    pulsar_routing_topic_name topic_{};
};

/* ------------------------------------------------------------------ */
/* Namespace bundles                                                   */
/* ------------------------------------------------------------------ */

/// A bundle's hash range, `[lower, upper)` as the broker names it (the last
/// bundle includes 0xffffffff).
struct bundle_range {
    int64_t lower = 0;
    int64_t upper = 0;

    pulsar_routing_bundle_range c_range() const noexcept { return {lower, upper}; }

    /// Parses `0x00000000_0x40000000`.
    static bundle_range parse(std::string_view text) {
        pulsar_routing_bundle_range r{};
        detail::check(pulsar_routing_bundle_range_parse(detail::non_null(text.data()),
                                                        text.size(), &r));
        return {r.lower, r.upper};
    }
    /// `0x00000000_0x40000000`.
    std::string name() const {
        return detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
            return pulsar_routing_bundle_range_name(c_range(), buf, len, written);
        });
    }
    /// `namespace/0x00000000_0x40000000`.
    std::string key(std::string_view ns) const {
        return detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
            return pulsar_routing_bundle_range_key(c_range(), detail::non_null(ns.data()),
                                                   ns.size(), buf, len, written);
        });
    }
    bool includes(uint32_t hash) const {
        bool yes = false;
        detail::check(pulsar_routing_bundle_range_includes(c_range(), hash, &yes));
        return yes;
    }

    friend bool operator==(const bundle_range &a, const bundle_range &b) noexcept {
        return a.lower == b.lower && a.upper == b.upper;
    }
    friend bool operator!=(const bundle_range &a, const bundle_range &b) noexcept {
        return !(a == b);
    }
};

/// A namespace's bundles. Owns its boundaries (the C layout refers to
/// them), so it is move-only: moving keeps the array where it is.
class bundle_layout {
public:
    /// The broker's default layout of `num_bundles` equal bundles.
    explicit bundle_layout(uint32_t num_bundles) {
        detail::check(pulsar_routing_bundle_layout_init_default(&layout_, num_bundles));
    }
    /// A layout from its boundaries (copied), as the broker stores them.
    explicit bundle_layout(std::vector<uint32_t> boundaries) : boundaries_(std::move(boundaries)) {
        static const uint32_t none = 0;
        detail::check(pulsar_routing_bundle_layout_init(
            &layout_, boundaries_.empty() ? &none : boundaries_.data(), boundaries_.size()));
    }
    bundle_layout(const bundle_layout &) = delete;
    bundle_layout &operator=(const bundle_layout &) = delete;
    bundle_layout(bundle_layout &&) noexcept = default;
    bundle_layout &operator=(bundle_layout &&) noexcept = default;

    const pulsar_routing_bundle_layout &c_layout() const noexcept { return layout_; }

    /// The number of bundles.
    size_t size() const {
        size_t n = 0;
        detail::check(pulsar_routing_bundle_layout_len(&layout_, &n));
        return n;
    }
    std::vector<uint32_t> boundaries() const {
        return detail::read_vector<uint32_t>([&](uint32_t *buf, size_t len, size_t *written) {
            return pulsar_routing_bundle_layout_boundaries(&layout_, buf, len, written);
        });
    }
    bundle_range bundle(size_t index) const {
        pulsar_routing_bundle_range r{};
        detail::check(pulsar_routing_bundle_layout_bundle(&layout_, index, &r));
        return {r.lower, r.upper};
    }
    bundle_range bundle_for_hash(uint32_t hash) const {
        pulsar_routing_bundle_range r{};
        detail::check(pulsar_routing_bundle_layout_bundle_for_hash(&layout_, hash, &r));
        return {r.lower, r.upper};
    }
    size_t bundle_index_for_hash(uint32_t hash) const {
        size_t index = 0;
        detail::check(pulsar_routing_bundle_layout_bundle_index_for_hash(&layout_, hash, &index));
        return index;
    }
    /// The bundle that serves a topic (the broker hashes its canonical name).
    bundle_range bundle_for_topic(std::string_view topic,
                                  topic_name_rules rules = topic_name_rules::pulsar_4_2) const {
        pulsar_routing_bundle_range r{};
        detail::check(pulsar_routing_bundle_layout_bundle_for_topic(
            &layout_, detail::non_null(topic.data()), topic.size(),
            static_cast<pulsar_routing_topic_name_rules>(rules), &r));
        return {r.lower, r.upper};
    }
    /// The boundaries after splitting `target` into `parts` equal bundles.
    std::vector<uint32_t> split_equally(bundle_range target, uint32_t parts) const {
        return detail::read_vector<uint32_t>(
            [&](uint32_t *buf, size_t len, size_t *written) {
                return pulsar_routing_bundle_layout_split_equally(&layout_, target.c_range(), parts,
                                                                  buf, len, written);
            },
            size() + parts + 1);
    }

private:
    std::vector<uint32_t> boundaries_;
    pulsar_routing_bundle_layout layout_{};
};

/* ------------------------------------------------------------------ */
/* Key_Shared                                                          */
/* ------------------------------------------------------------------ */

/// The broker's three Key_Shared selectors.
enum class selector_kind : pulsar_routing_selector_kind {
    auto_split = PULSAR_ROUTING_SELECTOR_KIND_AUTO_SPLIT,
    consistent_hashing = PULSAR_ROUTING_SELECTOR_KIND_CONSISTENT_HASHING,
    exclusive = PULSAR_ROUTING_SELECTOR_KIND_EXCLUSIVE,
};

/// The slot a sticky key hashes to in `kind`'s key hash range.
inline uint32_t sticky_key_hash(bytes_view key, selector_kind kind) {
    uint32_t slot = 0;
    detail::check(pulsar_routing_sticky_key_hash(
        key.data(), key.size(), static_cast<pulsar_routing_selector_kind>(kind), &slot));
    return slot;
}

/// An inclusive slot range `[start, end]`.
using hash_range = pulsar_routing_hash_range;
/// One owned slot range and its consumer.
using assignment = pulsar_routing_assignment;

/// A Key_Shared consumer selector. Move-only. The const member functions
/// may be called by many threads at once while no thread calls a non-const
/// one. Adds grow the selector's storage when it is full, so capacities in
/// the configurations are starting sizes, not limits.
class selector {
public:
    static selector auto_split(pulsar_routing_auto_split_config config) {
        pulsar_routing_selector *raw = nullptr;
        detail::check(pulsar_routing_selector_new_auto_split(config, &raw));
        return selector(raw);
    }
    static selector consistent_hashing(pulsar_routing_consistent_hashing_config config) {
        pulsar_routing_selector *raw = nullptr;
        detail::check(pulsar_routing_selector_new_consistent_hashing(config, &raw));
        return selector(raw);
    }
    static selector exclusive(pulsar_routing_exclusive_config config) {
        pulsar_routing_selector *raw = nullptr;
        detail::check(pulsar_routing_selector_new_exclusive(config, &raw));
        return selector(raw);
    }

    selector_kind kind() const {
        pulsar_routing_selector_kind k = 0;
        detail::check(pulsar_routing_selector_get_kind(handle_.get(), &k));
        return static_cast<selector_kind>(k);
    }
    hash_range key_hash_range() const {
        hash_range r{};
        detail::check(pulsar_routing_selector_key_hash_range(handle_.get(), &r));
        return r;
    }
    /// The number of consumers.
    size_t size() const {
        size_t n = 0;
        detail::check(pulsar_routing_selector_len(handle_.get(), &n));
        return n;
    }
    bool contains(uint64_t consumer) const {
        bool yes = false;
        detail::check(pulsar_routing_selector_contains(handle_.get(), consumer, &yes));
        return yes;
    }

    /// AutoSplit: adds an unnamed consumer.
    void add(uint64_t consumer) {
        add_or_throw([&] { return pulsar_routing_selector_add(handle_.get(), consumer); });
    }
    /// Consistent hashing (AutoSplit ignores the name).
    void add(uint64_t consumer, std::string_view name) {
        add_or_throw([&] {
            return pulsar_routing_selector_add_named(handle_.get(), consumer,
                                                     detail::non_null(name.data()), name.size());
        });
    }
    /// Exclusive: the consumer's `KeySharedMeta` ranges.
    void add(uint64_t consumer, const std::vector<hash_range> &ranges) {
        static const hash_range none{0, 0};
        add_or_throw([&] {
            return pulsar_routing_selector_add_ranges(handle_.get(), consumer,
                                                      ranges.empty() ? &none : ranges.data(),
                                                      ranges.size());
        });
    }
    /// An unknown consumer is a no-op, as in the broker.
    void remove(uint64_t consumer) {
        detail::check(pulsar_routing_selector_remove(handle_.get(), consumer));
    }

    /// The consumer of a slot, nullopt when none owns it.
    std::optional<uint64_t> select(uint32_t slot) const {
        return answer([&](uint64_t *c) { return pulsar_routing_selector_select(handle_.get(), slot, c); });
    }
    /// The consumer of a sticky key.
    std::optional<uint64_t> select_key(bytes_view sticky_key) const {
        return answer([&](uint64_t *c) {
            return pulsar_routing_selector_select_key(handle_.get(), sticky_key.data(),
                                                      sticky_key.size(), c);
        });
    }
    /// Every owned range and its consumer, by slot.
    std::vector<assignment> assignments() const {
        return detail::read_vector<assignment>([&](assignment *buf, size_t len, size_t *written) {
            return pulsar_routing_selector_assignments(handle_.get(), buf, len, written);
        });
    }
    /// What the last add or remove moved: `{removed, added}` (for an
    /// exclusive selector, which Java gives none, the slots that moved).
    std::pair<std::vector<assignment>, std::vector<assignment>> last_impact() const {
        std::vector<assignment> removed(16), added(16);
        for (;;) {
            size_t n_removed = 0, n_added = 0;
            pulsar_routing_status status = pulsar_routing_selector_last_impact(
                handle_.get(), removed.data(), removed.size(), &n_removed, added.data(),
                added.size(), &n_added);
            if (status == PULSAR_ROUTING_STATUS_OK) {
                removed.resize(n_removed);
                added.resize(n_added);
                return {std::move(removed), std::move(added)};
            }
            if (status != PULSAR_ROUTING_STATUS_BUFFER_TOO_SMALL) {
                throw error(status);
            }
            removed.resize(std::max(removed.size(), n_removed) * 2);
            added.resize(std::max(added.size(), n_added) * 2);
        }
    }

    const pulsar_routing_selector *get() const noexcept { return handle_.get(); }
    pulsar_routing_selector *get() noexcept { return handle_.get(); }

private:
    explicit selector(pulsar_routing_selector *raw) noexcept : handle_(raw) {}

    template <class Select> static std::optional<uint64_t> answer(Select select) {
        uint64_t consumer = 0;
        pulsar_routing_status status = select(&consumer);
        if (status == PULSAR_ROUTING_STATUS_NO_CONSUMER) {
            return std::nullopt;
        }
        detail::check(status);
        return consumer;
    }

    // The C selector grows its own storage (the policy Python shares), so a
    // failed add is the broker's refusal: thrown with its full message.
    template <class Add> void add_or_throw(Add add) {
        pulsar_routing_status status = add();
        if (status != PULSAR_ROUTING_STATUS_OK) {
            throw error(status, last_error_message(status));
        }
    }

    // The full (Java) message of the last failed add, or the static one.
    std::string last_error_message(pulsar_routing_status status) const {
        try {
            std::string text = detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
                return pulsar_routing_selector_last_error_message(handle_.get(), buf, len, written);
            });
            if (!text.empty()) {
                return text;
            }
        } catch (const error &) {
        }
        return status_message(status);
    }

    struct deleter {
        void operator()(pulsar_routing_selector *s) const noexcept { pulsar_routing_selector_free(s); }
    };
    std::unique_ptr<pulsar_routing_selector, deleter> handle_;
};

/* ------------------------------------------------------------------ */
/* The Kafka sender readiness gate and the Pulsar pending queue        */
/* ------------------------------------------------------------------ */

/// A node's connection state.
enum class connection_state : pulsar_routing_connection_state {
    not_connected = PULSAR_ROUTING_CONNECTION_STATE_NOT_CONNECTED,
    connecting = PULSAR_ROUTING_CONNECTION_STATE_CONNECTING,
    authenticating = PULSAR_ROUTING_CONNECTION_STATE_AUTHENTICATING,
    ready = PULSAR_ROUTING_CONNECTION_STATE_READY,
};

/// What happened to a node's connection (see `sender_gate::connection_event`).
enum class connection_event : pulsar_routing_connection_event {
    connect = PULSAR_ROUTING_CONNECTION_EVENT_CONNECT,
    connected = PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED,
    authenticated = PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED,
    disconnected = PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED,
    authentication_failed = PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED,
};

/// How a produce request ended.
enum class produce_outcome : pulsar_routing_produce_outcome {
    success = PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS,
    not_leader_or_follower = PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER,
    other_error = PULSAR_ROUTING_PRODUCE_OUTCOME_OTHER_ERROR,
};

/// A metadata event (see `sender_gate::metadata_event`).
enum class metadata_event : pulsar_routing_metadata_event {
    request_update = PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE,
    fetch_started = PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED,
    updated = PULSAR_ROUTING_METADATA_EVENT_UPDATED,
    failed = PULSAR_ROUTING_METADATA_EVENT_FAILED,
};

/// Why a node is (not) ready; the checks run in the order connection, in
/// flight, metadata.
enum class readiness_reason : pulsar_routing_readiness_reason {
    ready = PULSAR_ROUTING_READINESS_READY,
    initiate_connect = PULSAR_ROUTING_READINESS_INITIATE_CONNECT,
    reconnect_backoff = PULSAR_ROUTING_READINESS_RECONNECT_BACKOFF,
    connecting = PULSAR_ROUTING_READINESS_CONNECTING,
    throttled = PULSAR_ROUTING_READINESS_THROTTLED,
    in_flight_full = PULSAR_ROUTING_READINESS_IN_FLIGHT_FULL,
    metadata_due = PULSAR_ROUTING_READINESS_METADATA_DUE,
    unknown_node = PULSAR_ROUTING_READINESS_UNKNOWN_NODE,
};

/// A gate's producer settings: the C struct. Start from
/// `sender_gate::default_config()` (Kafka's defaults) and change fields.
using sender_config = pulsar_routing_sender_config;
/// The producer metrics a gate answers: the C struct.
using sender_counters = pulsar_routing_sender_counters;

/// A node's readiness and the details behind it.
struct readiness {
    int32_t node = 0;
    readiness_reason reason = readiness_reason::ready;
    connection_state state = connection_state::not_connected;
    /// Requests in flight on the node's connection.
    uint32_t in_flight = 0;
    /// `max.in.flight.requests.per.connection`.
    uint32_t max_in_flight = 0;
    uint64_t metadata_age_ms = 0;
    /// A metadata refresh was requested (rather than expired).
    bool metadata_update_requested = false;
    /// The reconnect backoff or throttle left; 0 otherwise.
    uint64_t backoff_remaining_ms = 0;

    bool is_ready() const noexcept { return reason == readiness_reason::ready; }

    static readiness from_c(const pulsar_routing_readiness &r) noexcept {
        return {r.node,
                static_cast<readiness_reason>(r.reason),
                static_cast<connection_state>(r.state),
                r.in_flight,
                r.max_in_flight,
                r.metadata_age_ms,
                r.metadata_update_requested,
                r.backoff_remaining_ms};
    }
    pulsar_routing_readiness c_readiness() const noexcept {
        return {node,
                static_cast<pulsar_routing_readiness_reason>(reason),
                static_cast<pulsar_routing_connection_state>(state),
                in_flight,
                max_in_flight,
                metadata_age_ms,
                metadata_update_requested,
                backoff_remaining_ms};
    }
    /// The text, e.g. `node 1 not ready: in flight 5/5`; throws
    /// `SENDER_UNKNOWN_VALUE` for a reason or state out of range.
    std::string message() const {
        const pulsar_routing_readiness c = c_readiness();
        return detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
            return pulsar_routing_readiness_message(&c, buf, len, written);
        });
    }
};

/// The `error` `sender_gate::send` throws when the node does not pass the
/// gate (`SENDER_NOT_READY`): nothing was sent, and `readiness()` says why.
/// The message is the core's, e.g. `cannot send: node 1 not ready: in
/// flight 5/5`.
class sender_not_ready : public error {
public:
    explicit sender_not_ready(const pulsar_routing::readiness &r)
        : error(PULSAR_ROUTING_STATUS_SENDER_NOT_READY, "cannot send: " + r.message()),
          readiness_(r) {}

    const pulsar_routing::readiness &readiness() const noexcept { return readiness_; }

private:
    pulsar_routing::readiness readiness_;
};

/// The Kafka producer's sender readiness gate over a fixed set of nodes
/// (`NetworkClient.ready` and the filter of `Sender.sendProducerData`),
/// sans-IO: the caller reports every event and the time, and supplies the
/// uniform random draw in `[0, 1)` behind each backoff's jitter (0.5 is
/// none). Move-only. Not thread-safe: the const member functions may run on
/// many threads while no thread calls a non-const one.
class sender_gate {
public:
    /// Kafka's defaults: idempotence on, 5 in flight, reconnect backoff 50
    /// to 1000 ms, metadata max age 300000 ms, retry backoff 100 to 1000 ms.
    static sender_config default_config() {
        sender_config config{};
        detail::check(pulsar_routing_sender_config_default(&config));
        return config;
    }

    /// A just-built producer's gate: no connection yet, a metadata update
    /// due. Throws `SENDER_MAX_IN_FLIGHT_TOO_SMALL`,
    /// `SENDER_MAX_IN_FLIGHT_TOO_LARGE_FOR_IDEMPOTENCE` or
    /// `SENDER_DUPLICATE_NODE`.
    explicit sender_gate(const std::vector<int32_t> &nodes,
                         const sender_config &config = default_config()) {
        static const int32_t none = 0;
        pulsar_routing_sender_gate *raw = nullptr;
        detail::check(pulsar_routing_sender_gate_new(
            &config, nodes.empty() ? &none : nodes.data(), nodes.size(), &raw));
        handle_.reset(raw);
    }

    /// `NetworkClient.ready(node, now)`: on `initiate_connect` the node
    /// moves to `connecting` (open the socket, then report `connected` or
    /// `disconnected`). An unknown node answers `unknown_node`.
    readiness ready(int32_t node, uint64_t now_ms) {
        pulsar_routing_readiness r{};
        detail::check(pulsar_routing_sender_gate_ready(handle_.get(), node, now_ms, &r));
        return readiness::from_c(r);
    }
    /// The readiness without side effects (no connect is initiated).
    readiness check(int32_t node, uint64_t now_ms) const {
        pulsar_routing_readiness r{};
        detail::check(pulsar_routing_sender_gate_check(handle_.get(), node, now_ms, &r));
        return readiness::from_c(r);
    }
    /// `ready` on each of `nodes`, which keeps only the ready ones, in their
    /// order (as Java's `iterator.remove`); returns the readiness of every
    /// node as given.
    std::vector<readiness> filter_ready(std::vector<int32_t> &nodes, uint64_t now_ms) {
        static int32_t none = 0;
        std::vector<pulsar_routing_readiness> out(std::max<size_t>(nodes.size(), 1));
        size_t kept = 0;
        detail::check(pulsar_routing_sender_gate_filter_ready(
            handle_.get(), nodes.empty() ? &none : nodes.data(), nodes.size(), now_ms, out.data(),
            &kept));
        std::vector<readiness> reasons;
        reasons.reserve(nodes.size());
        for (size_t i = 0; i < nodes.size(); i++) {
            reasons.push_back(readiness::from_c(out[i]));
        }
        nodes.resize(kept);
        return reasons;
    }

    /// Reports a connection event; throws `SENDER_UNKNOWN_NODE` or
    /// `SENDER_INVALID_TRANSITION` (nothing changes). `jitter_unit` is read
    /// by the failures and `authenticated`.
    void connection_event(int32_t node, pulsar_routing::connection_event event, uint64_t now_ms,
                          double jitter_unit = 0.5) {
        detail::check(pulsar_routing_sender_gate_connection_event(
            handle_.get(), node, static_cast<pulsar_routing_connection_event>(event), now_ms,
            jitter_unit));
    }
    /// The broker throttles the node until `until_ms`.
    void throttle(int32_t node, uint64_t until_ms) {
        detail::check(pulsar_routing_sender_gate_throttle(handle_.get(), node, until_ms));
    }
    /// Sends a produce request to the node; throws `sender_not_ready`
    /// (nothing is sent) when it does not pass the gate, `SENDER_UNKNOWN_NODE`
    /// for a node not in the gate.
    void send(int32_t node, uint64_t now_ms) {
        pulsar_routing_status status = pulsar_routing_sender_gate_send(handle_.get(), node, now_ms);
        if (status == PULSAR_ROUTING_STATUS_SENDER_NOT_READY) {
            throw sender_not_ready(check(node, now_ms));
        }
        detail::check(status);
    }
    /// The node answered a produce request; throws
    /// `SENDER_NO_REQUEST_IN_FLIGHT` when none was in flight.
    void response(int32_t node, produce_outcome outcome = produce_outcome::success) {
        detail::check(pulsar_routing_sender_gate_response(
            handle_.get(), node, static_cast<pulsar_routing_produce_outcome>(outcome)));
    }

    /// Reports a metadata event; `now_ms` and `jitter_unit` are read by
    /// `updated` and `failed`.
    void metadata_event(pulsar_routing::metadata_event event, uint64_t now_ms = 0,
                        double jitter_unit = 0.5) {
        detail::check(pulsar_routing_sender_gate_metadata_event(
            handle_.get(), static_cast<pulsar_routing_metadata_event>(event), now_ms, jitter_unit));
    }
    /// `metadata.requestUpdate()`.
    void request_metadata_update() { metadata_event(pulsar_routing::metadata_event::request_update); }
    /// A metadata request went out.
    void metadata_fetch_started() { metadata_event(pulsar_routing::metadata_event::fetch_started); }
    /// The metadata response arrived.
    void metadata_updated(uint64_t now_ms, double jitter_unit = 0.5) {
        metadata_event(pulsar_routing::metadata_event::updated, now_ms, jitter_unit);
    }
    /// The metadata request failed.
    void metadata_failed(uint64_t now_ms, double jitter_unit = 0.5) {
        metadata_event(pulsar_routing::metadata_event::failed, now_ms, jitter_unit);
    }
    /// `metadata.timeToNextUpdate(now)`: 0 when a refresh is due.
    uint64_t time_to_next_metadata_update(uint64_t now_ms) const {
        uint64_t ms = 0;
        detail::check(
            pulsar_routing_sender_gate_time_to_next_metadata_update(handle_.get(), now_ms, &ms));
        return ms;
    }
    /// `connection-count`, `connection-creation-total`, the requests in
    /// flight and `metadata-age`.
    sender_counters counters(uint64_t now_ms) const {
        sender_counters c{};
        detail::check(pulsar_routing_sender_gate_counters(handle_.get(), now_ms, &c));
        return c;
    }

    const pulsar_routing_sender_gate *get() const noexcept { return handle_.get(); }
    pulsar_routing_sender_gate *get() noexcept { return handle_.get(); }

private:
    struct deleter {
        void operator()(pulsar_routing_sender_gate *g) const noexcept {
            pulsar_routing_sender_gate_free(g);
        }
    };
    std::unique_ptr<pulsar_routing_sender_gate, deleter> handle_;
};

/// A Pulsar producer's pending-message queue (`maxPendingMessages`,
/// `blockIfQueueFull`, `ProducerImpl.canEnqueueRequest`). A plain value:
/// copying copies the count. One thread at a time.
class pending_queue {
public:
    /// 0 is no limit (the default since Pulsar 2.10); throws
    /// `MAX_PENDING_MESSAGES_NEGATIVE`.
    explicit pending_queue(int64_t max_pending_messages = 0, bool block_if_queue_full = false) {
        detail::check(
            pulsar_routing_pending_queue_init(&state_, max_pending_messages, block_if_queue_full));
    }

    /// One more message enters the queue; when it is full, throws
    /// `PRODUCER_QUEUE_IS_FULL` (the send fails at once) or
    /// `PRODUCER_QUEUE_WOULD_BLOCK` (`blockIfQueueFull`), and the queue is
    /// unchanged.
    void try_enqueue() { detail::check(pulsar_routing_pending_queue_try_enqueue(&state_)); }
    /// `n` pending messages completed (more than are pending empties it).
    void complete(uint32_t n = 1) {
        detail::check(pulsar_routing_pending_queue_complete(&state_, n));
    }
    /// The number of messages in the queue.
    uint32_t pending() const {
        uint32_t n = 0;
        detail::check(pulsar_routing_pending_queue_pending(&state_, &n));
        return n;
    }

    const pulsar_routing_pending_queue &c_queue() const noexcept { return state_; }

private:
    pulsar_routing_pending_queue state_{};
};

/// The smallest `maxPendingMessages` that absorbs a reconnect without
/// blocking or failing sends: `ceil(peak_rate_per_sec *
/// reconnect_window_ms / 1000)`, saturating at `UINT64_MAX`.
inline uint64_t required_max_pending_messages(uint64_t peak_rate_per_sec,
                                              uint64_t reconnect_window_ms) {
    uint64_t n = 0;
    detail::check(
        pulsar_routing_required_max_pending_messages(peak_rate_per_sec, reconnect_window_ms, &n));
    return n;
}

/* ------------------------------------------------------------------ */
/* Topic lookup (spec 6)                                               */
/* ------------------------------------------------------------------ */

/// A lookup driver's next step, its strings copied out of the handle.
struct lookup_action {
    /// A `PULSAR_ROUTING_LOOKUP_ACTION_*` value.
    pulsar_routing_lookup_action_kind kind = PULSAR_ROUTING_LOOKUP_ACTION_IGNORED;
    std::string logical_address;
    std::string physical_address;
    bool authoritative = false;
    bool send_properties = false;
    bool use_proxy = false;
    bool metadata_auto_creation = false;
    uint32_t redirects = 0;
    uint32_t attempt = 0;
    uint64_t at_ms = 0;
    uint64_t delay_ms = 0;
    uint32_t partitions = 0;
    /// RETRY_AT: why the attempt failed; FAILED: why the lookup did.
    pulsar_routing_status error = PULSAR_ROUTING_STATUS_OK;
    /// The broker's `ServerError` code behind `error`, or -1.
    int32_t server_error = -1;
    /// The full text of `error` (Java's message where it has one), or "".
    std::string error_message;

    /// Why the driver took this action, in words: the same text as in C,
    /// Python and Go (e.g. "redirect 1 to pulsar://b2:6650, with the
    /// response's authoritative=True").
    const std::string &reason() const noexcept { return reason_; }

  private:
    friend class topic_lookup;
    std::string reason_;
};

/// A `CommandLookupTopicResponse`; an absent field is `std::nullopt` (or
/// -1 for `response` and `error`).
struct lookup_response {
    /// 0 Redirect, 1 Connect, 2 Failed, -1 absent.
    int32_t response = -1;
    std::optional<std::string> broker_service_url;
    std::optional<std::string> broker_service_url_tls;
    bool authoritative = false;
    bool proxy_through_service_url = false;
    /// A `ServerError` code (0..25), or -1.
    int32_t error = -1;
    std::optional<std::string> message;

    static lookup_response connect(std::string url, bool authoritative = false,
                                   bool proxy = false) {
        lookup_response r;
        r.response = 1;
        r.broker_service_url = url;
        r.broker_service_url_tls = std::move(url);
        r.authoritative = authoritative;
        r.proxy_through_service_url = proxy;
        return r;
    }
    static lookup_response redirect(std::string url, bool authoritative = false,
                                    bool proxy = false) {
        lookup_response r = connect(std::move(url), authoritative, proxy);
        r.response = 0;
        return r;
    }
    static lookup_response failed(int32_t server_error, std::string text = {}) {
        lookup_response r;
        r.response = 2;
        r.error = server_error;
        r.message = std::move(text);
        return r;
    }
};

/// One topic lookup (`BinaryProtoLookupService.getBroker` with the
/// producer's retries, or the Go client's by profile), sans-IO: report
/// each event with the time, act on the returned `lookup_action`. The
/// lookup's own failures are in the action; a call error (a `ServerError`
/// code outside 0..25, invalid UTF-8) throws `error`. Move-only. One thread
/// at a time: an action's strings are copied before the next call.
class topic_lookup {
public:
    /// The Java client's defaults (20 redirects, 30 s, retry, loop detection).
    static pulsar_routing_lookup_options default_options() {
        pulsar_routing_lookup_options o{};
        detail::check(pulsar_routing_lookup_options_default(&o));
        return o;
    }

    /// A lookup of `service_address`, keeping `chain_capacity` hops of its
    /// redirect chain. Throws `INVALID_UTF8`, `UNKNOWN_LOOKUP_PROFILE` or
    /// `LOOKUP_ADDRESS_TOO_LONG`.
    explicit topic_lookup(std::string_view service_address,
                          const pulsar_routing_lookup_options &options = default_options(),
                          size_t chain_capacity = 21) {
        const std::string address(service_address);
        pulsar_routing_topic_lookup *raw = nullptr;
        detail::check(
            pulsar_routing_topic_lookup_new(address.c_str(), &options, chain_capacity, &raw));
        handle_.reset(raw);
    }

    lookup_action start(uint64_t now_ms) {
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_start(handle_.get(), now_ms, a);
        });
    }
    lookup_action on_response(const lookup_response &r, uint64_t now_ms) {
        const auto c_str = [](const std::optional<std::string> &s) {
            return s ? s->c_str() : nullptr;
        };
        const pulsar_routing_lookup_response c{r.response,
                                               c_str(r.broker_service_url),
                                               c_str(r.broker_service_url_tls),
                                               r.authoritative,
                                               r.proxy_through_service_url,
                                               r.error,
                                               c_str(r.message)};
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_on_response(handle_.get(), &c, now_ms, a);
        });
    }
    lookup_action on_connection_failed(uint64_t now_ms) {
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_on_connection_failed(handle_.get(), now_ms, a);
        });
    }
    lookup_action on_request_timeout(uint64_t now_ms) {
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_on_request_timeout(handle_.get(), now_ms, a);
        });
    }
    /// The connection's `lookup_throttle` refused the request with these counts.
    lookup_action on_throttled(uint32_t in_flight, uint32_t queued, uint64_t now_ms) {
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_on_throttled(handle_.get(), in_flight, queued,
                                                            now_ms, a);
        });
    }
    lookup_action on_retry_timer(uint64_t now_ms) {
        return act([&](pulsar_routing_lookup_action *a) {
            return pulsar_routing_topic_lookup_on_retry_timer(handle_.get(), now_ms, a);
        });
    }

    /// The current (or last) attempt's redirect chain: each address with
    /// the authoritative flag its request carried, the service address first.
    std::vector<std::pair<std::string, bool>> chain() const {
        size_t n = 0;
        detail::check(pulsar_routing_topic_lookup_chain_len(handle_.get(), &n));
        std::vector<std::pair<std::string, bool>> hops;
        for (size_t i = 0; i < n; i++) {
            bool auth = false;
            std::string address =
                detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
                    return pulsar_routing_topic_lookup_chain_hop(handle_.get(), i, buf, len,
                                                                 written, &auth);
                });
            hops.emplace_back(std::move(address), auth);
        }
        return hops;
    }

    const pulsar_routing_topic_lookup *get() const noexcept { return handle_.get(); }

private:
    template <class Call> lookup_action act(Call call) {
        pulsar_routing_lookup_action a{};
        detail::check(call(&a));
        lookup_action out;
        out.kind = a.kind;
        out.logical_address = a.logical_address != nullptr ? a.logical_address : "";
        out.physical_address = a.physical_address != nullptr ? a.physical_address : "";
        out.authoritative = a.authoritative;
        out.send_properties = a.send_properties;
        out.use_proxy = a.use_proxy;
        out.metadata_auto_creation = a.metadata_auto_creation;
        out.redirects = a.redirects;
        out.attempt = a.attempt;
        out.at_ms = a.at_ms;
        out.delay_ms = a.delay_ms;
        out.partitions = a.partitions;
        out.error = a.error;
        out.server_error = a.server_error;
        out.reason_ = a.reason != nullptr ? a.reason : "";
        if (a.error != PULSAR_ROUTING_STATUS_OK) {
            out.error_message = detail::read_string([&](uint8_t *buf, size_t len, size_t *written) {
                return pulsar_routing_topic_lookup_error_message(handle_.get(), buf, len, written);
            });
        }
        return out;
    }

    struct deleter {
        void operator()(pulsar_routing_topic_lookup *l) const noexcept {
            pulsar_routing_topic_lookup_free(l);
        }
    };
    std::unique_ptr<pulsar_routing_topic_lookup, deleter> handle_;
};

/// Whether a coalescer join made the caller the one to send the request.
struct coalesced {
    /// True: send it; false: wait for the one in flight.
    bool leader = false;
    /// Callers waiting, this one included.
    uint32_t waiters = 0;
};

/// Topic lookups in flight, keyed by (topic, properties) as Java's
/// `InProgressDeduplicationDecoratorLookupService` keys them. Bounded: a
/// new key with every slot taken throws `LOOKUP_COALESCING_TABLE_FULL`.
/// Move-only; thread-safe (the C handle locks).
class lookup_coalescer {
public:
    using properties = std::vector<std::pair<std::string, std::string>>;

    explicit lookup_coalescer(size_t capacity = 1024) {
        pulsar_routing_lookup_coalescer *raw = nullptr;
        detail::check(pulsar_routing_lookup_coalescer_new(capacity, &raw));
        handle_.reset(raw);
    }
    coalesced join(std::string_view topic, const properties &props = {}) const {
        coalesced out;
        with_key(topic, props, [&](const char *t, const char *const *n, const char *const *v,
                                   size_t count) {
            return pulsar_routing_lookup_coalescer_join(handle_.get(), t, n, v, count, &out.leader,
                                                        &out.waiters);
        });
        return out;
    }
    /// Removes the lookup; returns how many callers to complete (0 if none).
    uint32_t complete(std::string_view topic, const properties &props = {}) const {
        uint32_t waiters = 0;
        with_key(topic, props, [&](const char *t, const char *const *n, const char *const *v,
                                   size_t count) {
            return pulsar_routing_lookup_coalescer_complete(handle_.get(), t, n, v, count,
                                                            &waiters);
        });
        return waiters;
    }

private:
    template <class Call>
    static void with_key(std::string_view topic, const properties &props, Call call) {
        const std::string t(topic);
        std::vector<const char *> names;
        std::vector<const char *> values;
        for (const auto &p : props) {
            names.push_back(p.first.c_str());
            values.push_back(p.second.c_str());
        }
        detail::check(call(t.c_str(), names.empty() ? nullptr : names.data(),
                           values.empty() ? nullptr : values.data(), names.size()));
    }

    struct deleter {
        void operator()(pulsar_routing_lookup_coalescer *c) const noexcept {
            pulsar_routing_lookup_coalescer_free(c);
        }
    };
    std::unique_ptr<pulsar_routing_lookup_coalescer, deleter> handle_;
};

/// Partitioned-metadata requests in flight, keyed by (topic,
/// `metadata_auto_creation`, `use_fallback_for_non_pip344`) as Java keys
/// them. Bounded like `lookup_coalescer`. Move-only; thread-safe.
class lookup_metadata_coalescer {
public:
    explicit lookup_metadata_coalescer(size_t capacity = 1024) {
        pulsar_routing_lookup_metadata_coalescer *raw = nullptr;
        detail::check(pulsar_routing_lookup_metadata_coalescer_new(capacity, &raw));
        handle_.reset(raw);
    }
    coalesced join(std::string_view topic, bool metadata_auto_creation = true,
                   bool use_fallback_for_non_pip344 = false) const {
        const std::string t(topic);
        coalesced out;
        detail::check(pulsar_routing_lookup_metadata_coalescer_join(
            handle_.get(), t.c_str(), metadata_auto_creation, use_fallback_for_non_pip344,
            &out.leader, &out.waiters));
        return out;
    }
    uint32_t complete(std::string_view topic, bool metadata_auto_creation = true,
                      bool use_fallback_for_non_pip344 = false) const {
        const std::string t(topic);
        uint32_t waiters = 0;
        detail::check(pulsar_routing_lookup_metadata_coalescer_complete(
            handle_.get(), t.c_str(), metadata_auto_creation, use_fallback_for_non_pip344,
            &waiters));
        return waiters;
    }

private:
    struct deleter {
        void operator()(pulsar_routing_lookup_metadata_coalescer *c) const noexcept {
            pulsar_routing_lookup_metadata_coalescer_free(c);
        }
    };
    std::unique_ptr<pulsar_routing_lookup_metadata_coalescer, deleter> handle_;
};

/// Thrown by `lookup_throttle::acquire` beyond both limits (Java's
/// `TooManyRequestsException`); the counts are for `on_throttled`.
class lookup_throttled : public error {
public:
    lookup_throttled(uint32_t in_flight, uint32_t queued)
        : error(PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REQUESTS), in_flight_(in_flight),
          queued_(queued) {}
    uint32_t in_flight() const noexcept { return in_flight_; }
    uint32_t queued() const noexcept { return queued_; }

private:
    uint32_t in_flight_;
    uint32_t queued_;
};

/// A connection's lookup limits (`ClientCnx`: `concurrentLookupRequest`
/// in flight, up to `maxLookupRequest` in all). Move-only; thread-safe.
class lookup_throttle {
public:
    explicit lookup_throttle(uint32_t concurrent_lookup_requests = 5000,
                             uint32_t max_lookup_requests = 50000) {
        pulsar_routing_lookup_throttle *raw = nullptr;
        detail::check(pulsar_routing_lookup_throttle_new(concurrent_lookup_requests,
                                                         max_lookup_requests, &raw));
        handle_.reset(raw);
    }
    /// Admits a lookup: true to send it now, false when it is queued.
    /// Throws `lookup_throttled` beyond both limits, with the counts read
    /// right after the refusal (`counts`).
    bool acquire() const {
        bool now = false;
        const pulsar_routing_status s = pulsar_routing_lookup_throttle_acquire(handle_.get(), &now);
        if (s == PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REQUESTS) {
            const std::pair<uint32_t, uint32_t> c = counts();
            throw lookup_throttled(c.first, c.second);
        }
        detail::check(s);
        return now;
    }
    /// The lookups in flight and queued.
    std::pair<uint32_t, uint32_t> counts() const {
        uint32_t in_flight = 0;
        uint32_t queued = 0;
        detail::check(pulsar_routing_lookup_throttle_counts(handle_.get(), &in_flight, &queued));
        return {in_flight, queued};
    }
    /// A lookup completed: true when the oldest queued one must now be sent.
    bool release() const {
        bool send = false;
        detail::check(pulsar_routing_lookup_throttle_release(handle_.get(), &send));
        return send;
    }

private:
    struct deleter {
        void operator()(pulsar_routing_lookup_throttle *t) const noexcept {
            pulsar_routing_lookup_throttle_free(t);
        }
    };
    std::unique_ptr<pulsar_routing_lookup_throttle, deleter> handle_;
};

/* ------------------------------------------------------------------ */
/* Key counts                                                          */
/* ------------------------------------------------------------------ */

/// Distinct keys with their summed weights, and the summed weight of
/// keyless rows: the exact sample a capacity plan starts from, counted by
/// the same table as the C, Go and Python bindings. Keys are bytes;
/// `sorted()` gives them in byte order (as `memcmp` orders them, a key
/// before the longer keys it begins), whatever order the rows came in.
/// Weights are finite numbers of at least 0; any other weight throws
/// `KEY_COUNTS_INVALID_WEIGHT` (naming the weight) and adds nothing.
/// Move-only. The const member functions may be called by many threads at
/// once while no thread calls a non-const one.
class key_counts {
public:
    key_counts() {
        pulsar_routing_key_counts *raw = nullptr;
        detail::check(pulsar_routing_key_counts_new(&raw));
        handle_.reset(raw);
    }

    /// One row: `weight` more for `key` (the empty key is a key like any
    /// other; a keyless row is `add_keyless`).
    void add(bytes_view key, double weight = 1.0) {
        detail::check(pulsar_routing_key_counts_add(handle_.get(), key.data(), key.size(), weight));
    }
    /// One row without a key.
    void add_keyless(double weight = 1.0) {
        detail::check(pulsar_routing_key_counts_add_keyless(handle_.get(), weight));
    }
    /// One row per key of `keys` (any range of elements that convert to
    /// `std::string_view`), weight 1 each, in one call.
    template <class Range, class = decltype(std::string_view(*std::begin(std::declval<const Range &>())))>
    void add_batch(const Range &keys) {
        const detail::key_layout layout(keys);
        add_layout(layout, nullptr);
    }
    /// One row per key, `weights[i]` for the i-th key; a `weights` of
    /// another length throws `KEY_COUNTS_WEIGHTS_LENGTH`. Nothing is added
    /// when it throws for a weight.
    template <class Range, class = decltype(std::string_view(*std::begin(std::declval<const Range &>())))>
    void add_batch(const Range &keys, const std::vector<double> &weights) {
        const detail::key_layout layout(keys);
        if (weights.size() != layout.count()) {
            throw error(PULSAR_ROUTING_STATUS_KEY_COUNTS_WEIGHTS_LENGTH,
                        status_message(PULSAR_ROUTING_STATUS_KEY_COUNTS_WEIGHTS_LENGTH));
        }
        static const double none = 0;
        add_layout(layout, weights.empty() ? &none : weights.data());
    }

    /// The number of distinct keys (keyless rows not counted).
    size_t size() const {
        size_t n = 0;
        detail::check(pulsar_routing_key_counts_len(handle_.get(), &n));
        return n;
    }
    /// The rows added, keyless ones included.
    uint64_t rows() const {
        uint64_t n = 0;
        detail::check(pulsar_routing_key_counts_rows(handle_.get(), &n));
        return n;
    }
    /// The bytes of all distinct keys together.
    size_t total_key_bytes() const {
        size_t n = 0;
        detail::check(pulsar_routing_key_counts_total_key_bytes(handle_.get(), &n));
        return n;
    }
    /// The summed weight of the keyless rows, nullopt when there was none.
    std::optional<double> keyless_weight() const {
        double weight = 0;
        bool present = false;
        detail::check(pulsar_routing_key_counts_keyless_weight(handle_.get(), &weight, &present));
        return present ? std::optional<double>(weight) : std::nullopt;
    }
    /// The distinct keys in byte order, each with its summed weight.
    std::vector<std::pair<std::string, double>> sorted() const {
        const size_t n = size();
        std::string data(total_key_bytes(), '\0');
        std::vector<uint64_t> offsets(n + 1);
        // One more than needed, so that there is a pointer for no key.
        std::vector<double> weights(n + 1);
        detail::check(pulsar_routing_key_counts_write_sorted(
            handle_.get(), reinterpret_cast<uint8_t *>(&data[0]), data.size(), offsets.data(),
            offsets.size(), weights.data(), n));
        std::vector<std::pair<std::string, double>> out;
        out.reserve(n);
        for (size_t i = 0; i < n; i++) {
            out.emplace_back(data.substr(static_cast<size_t>(offsets[i]),
                                         static_cast<size_t>(offsets[i + 1] - offsets[i])),
                             weights[i]);
        }
        return out;
    }

    const pulsar_routing_key_counts *get() const noexcept { return handle_.get(); }
    pulsar_routing_key_counts *get() noexcept { return handle_.get(); }

private:
    void add_layout(const detail::key_layout &layout, const double *weights) {
        detail::check(pulsar_routing_key_counts_add_batch(
            handle_.get(), detail::non_null(layout.data.data()), layout.offsets.data(),
            layout.count(), weights));
    }

    struct deleter {
        void operator()(pulsar_routing_key_counts *k) const noexcept {
            pulsar_routing_key_counts_free(k);
        }
    };
    std::unique_ptr<pulsar_routing_key_counts, deleter> handle_;
};

} // namespace pulsar_routing

#endif // PULSAR_ROUTING_HPP
