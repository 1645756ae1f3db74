// Tests include/pulsar_routing.hpp, the C++17 wrapper: every wrapped type
// and function, against the Java golden vectors (through the TSV files
// golden_to_tsv.py writes) and against the C API it wraps.
//
// Usage: wrapper_test TSV_DIR. Prints "wrapper_test: N passed, M failed";
// exits non-zero on a failure. Built by scripts/test-cpp.sh with
// -std=c++17 -Wall -Wextra -Werror and ASan + UBSan.
#include "pulsar_routing.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace pr = pulsar_routing;

namespace {

unsigned long passed = 0;
unsigned long failed = 0;

void expect(bool ok, const std::string &what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        if (failed <= 30) {
            std::cerr << "FAIL: " << what << "\n";
        }
    }
}

template <class F> void expect_error(F f, pulsar_routing_status status, const std::string &what) {
    try {
        f();
        expect(false, what + ": no exception");
    } catch (const pr::error &e) {
        expect(e.status() == status, what + ": status " + std::to_string(e.status()) + " (" +
                                         e.what() + ")");
    }
}

std::vector<std::string> split(const std::string &line, char sep) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, sep)) {
        out.push_back(field);
    }
    if (!line.empty() && line.back() == sep) {
        out.emplace_back();
    }
    return out;
}

std::string unhex(const std::string &hex) {
    std::string out;
    if (hex == "-") {
        return out;
    }
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    return out;
}

std::vector<std::vector<std::string>> read_tsv(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "cannot read " << path << "\n";
        std::exit(2);
    }
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        rows.push_back(split(line, '\t'));
    }
    return rows;
}

void test_version() {
    char packed[16];
    std::snprintf(packed, sizeof packed, "%d.%d.%d", PULSAR_ROUTING_VERSION_MAJOR,
                  PULSAR_ROUTING_VERSION_MINOR, PULSAR_ROUTING_VERSION_PATCH);
    expect(pr::version() == packed, "version() is the header's version");
    expect(pr::status_message(PULSAR_ROUTING_STATUS_DIVISION_BY_ZERO) == "/ by zero",
           "status_message");
    pr::error e(PULSAR_ROUTING_STATUS_NULL_PARAMETER);
    expect(e.status() == PULSAR_ROUTING_STATUS_NULL_PARAMETER &&
               std::string(e.what()) ==
                   pulsar_routing_status_message(PULSAR_ROUTING_STATUS_NULL_PARAMETER),
           "error carries the status and its message");
}

// Every golden hash row, through the one-shot and the streaming wrappers.
void test_hashes(const std::string &dir) {
    for (const auto &r : read_tsv(dir + "/hash.tsv")) {
        const std::string key = unhex(r.at(0));
        const auto murmur = static_cast<uint32_t>(std::stoul(r.at(1)));
        const auto raw = static_cast<uint32_t>(std::stoul(r.at(2)));
        const auto crc = static_cast<uint32_t>(std::stoul(r.at(4)));
        const std::vector<uint8_t> bytes(key.begin(), key.end());
        expect(pr::murmur3_32(key) == murmur, "murmur3_32 " + r.at(0));
        expect(pr::murmur3_32(bytes) == murmur, "murmur3_32 (vector) " + r.at(0));
        expect(pr::murmur3_32(pr::bytes_view(key.data(), key.size())) == murmur,
               "murmur3_32 (pointer, size) " + r.at(0));
        expect(pr::murmur3_32_raw(key) == raw, "murmur3_32_raw " + r.at(0));
        expect(pr::crc32(key) == crc, "crc32 " + r.at(0));
        // Split in two: the stream must not depend on the chunks.
        const size_t half = key.size() / 2;
        pr::murmur3_hasher m;
        m.update(std::string_view(key).substr(0, half));
        pr::murmur3_hasher fork = m; // copying forks the stream
        m.update(std::string_view(key).substr(half));
        expect(m.finalize() == murmur && m.finalize_raw() == raw, "murmur3_hasher " + r.at(0));
        fork.update(std::string_view(key).substr(half));
        expect(fork.finalize() == murmur, "murmur3_hasher copy " + r.at(0));
        pr::crc32_hasher c;
        c.update(std::string_view(key).substr(0, half)).update(std::string_view(key).substr(half));
        expect(c.finalize() == crc, "crc32_hasher " + r.at(0));
        if (r.at(3) != "-") {
            const auto java = static_cast<uint32_t>(std::stoul(r.at(3)));
            expect(pr::java_string_hash(std::string_view(key)) == java,
                   "java_string_hash " + r.at(0));
            expect(static_cast<uint32_t>(pr::java_string_hashcode(key)) % 0x80000000u == java ||
                       (static_cast<uint32_t>(pr::java_string_hashcode(key)) & 0x7fffffffu) == java,
                   "java_string_hashcode " + r.at(0));
        } else {
            expect_error([&] { pr::java_string_hash(std::string_view(key)); },
                         PULSAR_ROUTING_STATUS_INVALID_UTF8, "java_string_hash invalid " + r.at(0));
        }
    }
    // UTF-16 units hash as Java's String does: "a" is 97, a lone surrogate
    // is accepted.
    expect(pr::java_string_hash(std::u16string_view(u"a")) == pr::java_string_hash("a"),
           "java_string_hash utf16");
    const char16_t lone[] = {0xD800, 0};
    expect(pr::java_string_hash(std::u16string_view(lone, 1)) == 0xD800u, "lone surrogate");
    expect(pr::java_string_hash(std::u16string_view()) == 0, "empty utf16");
    // An empty view holds NULL; the wrapper must not pass it on.
    expect(pr::murmur3_32(std::string_view()) == pr::murmur3_32(""), "empty view");
    // Kafka: the wrapper matches the C function.
    uint32_t h = 0;
    pulsar_routing_kafka_murmur2(reinterpret_cast<const uint8_t *>("key"), 3, &h);
    expect(pr::kafka_murmur2("key") == h, "kafka_murmur2");
    uint32_t kp = 0;
    pulsar_routing_kafka_partition_for_key(reinterpret_cast<const uint8_t *>("key"), 3, 12, &kp);
    expect(pr::kafka_partition_for_key("key", 12) == kp, "kafka_partition_for_key");
}

// Every keyed golden routing row, through every way to route a key.
void test_routing(const std::string &dir) {
    pr::round_robin_router rr_java(pr::hashing_scheme::java_string, 0, false, 0);
    pr::round_robin_router rr_murmur(pr::hashing_scheme::murmur3_32, 0, true, 10);
    pr::single_partition_router sp_java(pr::hashing_scheme::java_string, 0);
    pr::single_partition_router sp_murmur(pr::hashing_scheme::murmur3_32, 5);
    pulsar_routing_profile_config java_config =
        pr::profile_router::default_config(pr::client_profile::java);
    const pr::profile_router java_default(pr::client_profile::java, java_config, 0, 0);
    java_config.scheme = PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32;
    const pr::profile_router java_murmur(pr::client_profile::java, java_config, 0, 0);
    expect(java_default.profile() == pr::client_profile::java, "profile_router profile");
    for (const auto &r : read_tsv(dir + "/routing.tsv")) {
        const std::string text = unhex(r.at(0));
        const int64_t n = std::stoll(r.at(1));
        const bool murmur = r.at(2) == "murmur3_32";
        const auto expected = static_cast<uint32_t>(std::stoul(r.at(3)));
        const auto scheme = murmur ? pr::hashing_scheme::murmur3_32 : pr::hashing_scheme::java_string;
        const std::string what = r.at(0) + " / " + r.at(1) + " / " + r.at(2);
        const pr::key k = pr::key::string(text);
        expect(pr::partition_for_key(text, n, scheme) == expected, "partition_for_key " + what);
        expect(k.partition(scheme, n) == expected, "key::partition " + what);
        expect((murmur ? rr_murmur : rr_java).choose_partition(k, n, 123) == expected,
               "round_robin_router " + what);
        expect((murmur ? sp_murmur : sp_java).choose_partition(k, n) == expected,
               "single_partition_router " + what);
        expect(pr::profile_partition(pr::client_profile::java,
                                     murmur ? pr::client_hashing_scheme::murmur3_32
                                            : pr::client_hashing_scheme::java_string,
                                     pr::profile_mode::default_mode, k, n) ==
                   std::optional<uint32_t>(expected),
               "profile_partition java " + what);
        expect((murmur ? java_murmur : java_default).route(k, n, 1000000) == expected,
               "profile_router java " + what);
    }
    // keyBytes: the routers hash the Base64 text ("AQI=" for {1, 2}).
    const std::array<uint8_t, 2> raw{1, 2};
    expect(pr::partition_for_key_bytes(raw, 7) == pr::partition_for_key("AQI=", 7),
           "partition_for_key_bytes hashes Base64");
    expect(pr::key::bytes(raw).hash(pr::hashing_scheme::murmur3_32) == pr::murmur3_32("AQI="),
           "key::bytes hash");
    expect(pr::key::utf16(u"k1").partition(pr::hashing_scheme::java_string, 9) ==
               pr::partition_for_key("k1", 9),
           "key::utf16");
    // Keyless: round-robin from the start index, one step per message.
    pr::round_robin_router keyless(pr::hashing_scheme::java_string, 3, false, 0);
    for (uint32_t i = 0; i < 10; i++) {
        expect(keyless.choose_partition(pr::key::none(), 4) == (3 + i) % 4, "keyless round robin");
    }
    expect(sp_murmur.choose_partition(pr::key::none(), 8) == 5, "single partition keyless");
    expect_error([&] { pr::key::none().partition(pr::hashing_scheme::java_string, 3); },
                 PULSAR_ROUTING_STATUS_NO_KEY, "key::none partition");
    expect_error([&] { pr::partition_for_key("k", 0); }, PULSAR_ROUTING_STATUS_PARTITION_COUNT_ZERO,
                 "zero partitions");
    expect_error([&] { rr_java.choose_partition(pr::key::string("k"), -1); },
                 PULSAR_ROUTING_STATUS_PARTITION_COUNT_NEGATIVE, "negative partitions");
    expect_error([&] { pr::round_robin_router(static_cast<pr::hashing_scheme>(77), 0, false, 0); },
                 PULSAR_ROUTING_STATUS_UNKNOWN_HASHING_SCHEME, "unknown scheme");
    expect(pr::sign_safe_mod(-7, 3) == 2, "sign_safe_mod");
    expect_error([] { pr::sign_safe_mod(1, 0); }, PULSAR_ROUTING_STATUS_DIVISION_BY_ZERO,
                 "sign_safe_mod by zero");
    // Go routes an empty key as keyless.
    expect(!pr::profile_partition(pr::client_profile::go, pr::client_hashing_scheme::java_string,
                                  pr::profile_mode::default_mode, pr::key::string(""), 3)
                .has_value(),
           "go empty key is keyless");
    expect(pr::default_scheme(pr::client_profile::java) == pr::client_hashing_scheme::java_string,
           "java default scheme");
    // A Boost release names its generation; the raw hash's low 31 bits are
    // what the C++ profile with that scheme routes by (testdata/boost: "a"
    // under Boost 1.85 is 6758020350347234588).
    expect(pr::boost_scheme(85) == pr::client_hashing_scheme::boost_1_82, "boost 1.85");
    expect(pr::boost_scheme(74) == pr::client_hashing_scheme::boost_1_74_x86_64, "boost 1.74");
    expect(pr::boost_hash_raw(pr::boost_scheme(85), std::string_view("a")) ==
               6758020350347234588ull,
           "boost 1.85 hash of a");
    expect(*pr::profile_partition(pr::client_profile::cpp, pr::client_hashing_scheme::boost_1_82,
                                  pr::profile_mode::default_mode, pr::key::string("a"), 1000) ==
               (6758020350347234588ull & 0x7fffffffu) % 1000,
           "cpp boost 1.82 partition");
    expect_error([] { pr::boost_scheme(92); }, PULSAR_ROUTING_STATUS_UNKNOWN_CLIENT_HASHING_SCHEME,
                 "unchecked boost release");
    expect_error(
        [] {
            pr::profile_partition(pr::client_profile::cpp, pr::client_hashing_scheme::boost,
                                  pr::profile_mode::default_mode, pr::key::string("a"), 3);
        },
        PULSAR_ROUTING_STATUS_BOOST_HASH_NOT_REPRODUCIBLE, "cpp boost of an unnamed build");

    // Moving a router keeps the handle; the moved-from one is empty.
    pr::round_robin_router moved = std::move(rr_java);
    expect(moved.get() != nullptr && rr_java.get() == nullptr, "router move");
}

// The golden routing rows again, each (partition count, scheme) as one
// batch of string views; then the batch's errors.
void test_batch_routing(const std::string &dir) {
    std::map<std::pair<int64_t, std::string>,
             std::pair<std::vector<std::string>, std::vector<uint32_t>>>
        batches;
    for (const auto &r : read_tsv(dir + "/routing.tsv")) {
        auto &batch = batches[{std::stoll(r.at(1)), r.at(2)}];
        batch.first.push_back(unhex(r.at(0)));
        batch.second.push_back(static_cast<uint32_t>(std::stoul(r.at(3))));
    }
    size_t keys = 0;
    for (const auto &[which, batch] : batches) {
        const auto scheme = which.second == "murmur3_32" ? pr::hashing_scheme::murmur3_32
                                                         : pr::hashing_scheme::java_string;
        const std::vector<std::string_view> views(batch.first.begin(), batch.first.end());
        expect(pr::partitions_for_keys(views, which.first, scheme) == batch.second,
               "partitions_for_keys " + std::to_string(which.first) + " / " + which.second);
        keys += views.size();
    }
    expect(keys > 1000, "partitions_for_keys saw the golden rows");
    expect(pr::partitions_for_keys(std::vector<std::string>{}, 3).empty(), "empty batch");

    // "é" cut in two: Murmur3_32Hash hashes the bytes, JavaStringHash refuses.
    const std::vector<std::string> cut{"a", "\xc3", "\xa9"};
    const std::vector<uint32_t> murmur = pr::partitions_for_keys(cut, 12, pr::hashing_scheme::murmur3_32);
    for (size_t i = 0; i < cut.size(); i++) {
        expect(murmur.at(i) == pr::murmur3_32(cut[i]) % 12, "murmur3 of bytes " + std::to_string(i));
        expect(pr::partition_for_key(cut[i], 12, pr::hashing_scheme::murmur3_32) == murmur[i],
               "single call of bytes " + std::to_string(i));
    }
    try {
        pr::partitions_for_keys(cut, 12, pr::hashing_scheme::java_string);
        expect(false, "java_string of bytes: no exception");
    } catch (const pr::error &e) {
        expect(e.status() == PULSAR_ROUTING_STATUS_INVALID_UTF8 &&
                   std::string(e.what()) == "key 1 is not valid UTF-8",
               std::string("java_string of bytes: ") + e.what());
    }
    // Arrow's layout directly, from the second offset of a column.
    const std::string column = "xxuser-1user-22";
    expect(pr::partitions_for_keys(column, {2, 8, 15}, 12) ==
               std::vector<uint32_t>{pr::partition_for_key("user-1", 12),
                                     pr::partition_for_key("user-22", 12)},
           "partitions_for_keys over offsets");
    expect_error([&] { pr::partitions_for_keys(column, {0, 9, 4, 15}, 12); },
                 PULSAR_ROUTING_STATUS_BATCH_OFFSET_DECREASES, "decreasing offsets");
    expect_error([&] { pr::partitions_for_keys(column, {}, 12); },
                 PULSAR_ROUTING_STATUS_BATCH_NO_OFFSETS, "no offsets");
    expect_error([&] { pr::partitions_for_keys(std::vector<std::string_view>{"k"}, 0); },
                 PULSAR_ROUTING_STATUS_PARTITION_COUNT_ZERO, "zero partitions");
}

void test_custom_router() {
    std::atomic<int> calls{0};
    pr::custom_router router([&](const pulsar_routing_key &k, uint32_t n) {
        calls++;
        return static_cast<int32_t>((k.len + 1) % n);
    });
    expect(router.choose_partition(pr::key::string("abc"), 3) == 1, "custom router");
    expect(calls == 1, "custom router called once");
    pr::custom_router bad([](const pulsar_routing_key &, uint32_t n) {
        return static_cast<int32_t>(n);
    });
    expect_error([&] { bad.choose_partition(pr::key::string("x"), 3); },
                 PULSAR_ROUTING_STATUS_ILLEGAL_PARTITION_INDEX, "custom router out of range");
    pr::custom_router throwing([](const pulsar_routing_key &, uint32_t) -> int32_t {
        throw std::logic_error("from the callback");
    });
    bool rethrown = false;
    try {
        throwing.choose_partition(pr::key::string("x"), 3);
    } catch (const std::logic_error &e) {
        rethrown = std::string(e.what()) == "from the callback";
    }
    expect(rethrown, "custom router rethrows the callback's exception");
    expect(router.choose_partition(pr::key::string("abcd"), 3) == 2, "custom router after a throw");
}

// The Kafka handles: the wrapper and the raw C handle, fed the same
// records and random draws, agree at every step.
void test_kafka_partitioners() {
    const pr::kafka_built_in_partitioner built_in =
        pr::kafka_built_in_partitioner::for_batch_size(16384);
    pulsar_routing_kafka_built_in_partitioner *c_built_in = nullptr;
    pulsar_routing_kafka_built_in_partitioner_for_batch_size(16384, &c_built_in);
    expect(built_in.sticky_batch_size() > 0, "sticky_batch_size");
    expect(!built_in.current().drawn, "nothing drawn yet");
    const pr::kafka_java_client_partitioner java(16384, false);
    pulsar_routing_kafka_java_client_partitioner *c_java = nullptr;
    pulsar_routing_kafka_java_client_partitioner_new(16384, false, &c_java);
    bool same = true;
    for (uint32_t i = 0; i < 2000; i++) {
        const uint32_t random = i * 2654435761u;
        const pr::kafka_sticky_choice choice = pr::uniform_choice(random);
        uint32_t c = 0;
        bool switched = false;
        same = same && built_in.peek_partition(6, choice) ==
                           (pulsar_routing_kafka_built_in_partitioner_peek_partition(
                                c_built_in, 6, choice, &c),
                            c);
        const std::optional<uint32_t> s = built_in.update_partition_info(1000, i % 3 == 0, 6, choice);
        pulsar_routing_kafka_built_in_partitioner_update_partition_info(c_built_in, 1000, i % 3 == 0,
                                                                        6, choice, &switched, &c);
        same = same && s.has_value() == switched && (!switched || *s == c);
        const std::string key = "k" + std::to_string(i % 5);
        const std::optional<pr::bytes_view> record_key =
            i % 2 == 0 ? std::optional<pr::bytes_view>(key) : std::nullopt;
        pulsar_routing_kafka_java_client_partitioner_append(
            c_java, i % 2 == 0 ? reinterpret_cast<const uint8_t *>(key.data()) : nullptr,
            i % 2 == 0 ? key.size() : 0, 700, i % 4 == 0, 6, choice, &c);
        same = same && java.append(record_key, 700, i % 4 == 0, 6, choice) == c;
    }
    expect(same, "Kafka Java partitioners match the C API");
    expect(java.append(std::optional<pr::bytes_view>("key"), 10, false, 12, pr::uniform_choice(0)) ==
               pr::kafka_partition_for_key("key", 12),
           "a keyed record goes where murmur2 puts it");
    expect(built_in.current().drawn, "drawn after the first peek");
    expect_error([&] { built_in.peek_partition(0, pr::uniform_choice(1)); },
                 PULSAR_ROUTING_STATUS_PARTITION_COUNT_ZERO, "peek with 0 partitions");
    pulsar_routing_kafka_built_in_partitioner_free(c_built_in);
    pulsar_routing_kafka_java_client_partitioner_free(c_java);

    const pr::librdkafka_producer producer(PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
                                           10);
    pulsar_routing_librdkafka_producer *c_producer = nullptr;
    pulsar_routing_librdkafka_producer_new(PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
                                           10, &c_producer);
    expect(producer.partitioner() == PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_CONSISTENT_RANDOM,
           "librdkafka partitioner");
    const std::vector<uint32_t> available{0, 2, 4};
    same = true;
    for (uint32_t i = 0; i < 500; i++) {
        const int64_t now_us = 1000000 + int64_t{i} * 3000;
        const bool keyed = i % 3 == 0;
        const std::string key = "key-" + std::to_string(i);
        uint32_t c = 0;
        const pulsar_routing_status status = pulsar_routing_librdkafka_producer_partition(
            c_producer, keyed ? reinterpret_cast<const uint8_t *>(key.data()) : nullptr,
            keyed ? key.size() : 0, 6, now_us, i * 7, i * 13, available.data(), available.size(),
            &c);
        try {
            same = same && status == PULSAR_ROUTING_STATUS_OK &&
                   producer.partition(keyed ? std::optional<pr::bytes_view>(key) : std::nullopt,
                                      6, now_us, i * 7, i * 13, &available) == c;
        } catch (const pr::error &e) {
            same = same && e.status() == status;
        }
    }
    expect(same, "librdkafka producer matches the C API");
    expect(producer.sticky_partition().has_value(), "librdkafka sticky partition drawn");
    pulsar_routing_librdkafka_producer_free(c_producer);
}

// Every golden parse row, under the rules it was printed with.
void test_topic_names(const std::string &dir) {
    for (const auto &r : read_tsv(dir + "/topics.tsv")) {
        const auto rules = r.at(0) == "v4"       ? pr::topic_name_rules::v4
                           : r.at(0) == "master" ? pr::topic_name_rules::master
                                                 : pr::topic_name_rules::pulsar_4_2;
        const std::string input = unhex(r.at(1));
        const std::string what = r.at(0) + " '" + input + "'";
        if (unhex(r.at(2)) == "ok") {
            try {
                pr::topic_name t(input, rules);
                expect(t.to_string() == unhex(r.at(3)), "to_string " + what);
                expect(t.namespace_name() == unhex(r.at(4)), "namespace " + what);
                expect(t.lookup_name() == unhex(r.at(5)), "lookup_name " + what);
                expect(std::to_string(t.partition_index()) == unhex(r.at(6)),
                       "partition_index " + what);
                if (!unhex(r.at(7)).empty()) {
                    expect(t.partition(3).to_string() == unhex(r.at(7)), "partition(3) " + what);
                }
                pr::topic_name copy = t;
                pr::topic_name moved = std::move(t);
                expect(copy.to_string() == unhex(r.at(3)) && moved.to_string() == unhex(r.at(3)) &&
                           copy.c_topic().input != moved.c_topic().input,
                       "copies own their text " + what);
                uint32_t crc = 0;
                pulsar_routing_topic_name_crc32(&copy.c_topic(), &crc);
                expect(copy.crc32() == crc && copy.crc32() == pr::crc32(copy.to_string()),
                       "crc32 is that of the canonical name " + what);
            } catch (const pr::error &e) {
                expect(false, "parse " + what + ": " + e.what());
            }
        } else {
            try {
                pr::topic_name t(input, rules);
                expect(false, "parse " + what + " should fail");
            } catch (const pr::error &e) {
                expect(e.what() == unhex(r.at(3)), "error message " + what + ": " + e.what());
            }
        }
    }
    pr::topic_name t("persistent://tenant/ns/my-topic-partition-7");
    expect(t.tenant() == "tenant" && t.namespace_portion() == "ns" && t.cluster().empty() &&
               t.local_name() == "my-topic-partition-7" && t.persistent(),
           "topic parts");
    expect(!pr::topic_name("non-persistent://t/ns/x").persistent() &&
               pr::topic_name("topic://t/ns/x", pr::topic_name_rules::master).persistent(),
           "persistent is every domain but non-persistent");
    expect(t.partitioned_topic_name() == "persistent://tenant/ns/my-topic", "partitioned name");
    expect(t.rest_path() == "persistent/tenant/ns/my-topic-partition-7", "rest_path");
    expect(t.persistence_naming() == "tenant/ns/persistent/my-topic-partition-7",
           "persistence_naming");
    expect(t.encoded_local_name() == "my-topic-partition-7", "encoded_local_name");
}

void test_bundles(const std::string &dir) {
    for (const auto &r : read_tsv(dir + "/bundles.tsv")) {
        if (std::stol(r.at(0)) < 0) {
            continue; // Java's int; the C API's count is unsigned
        }
        const auto n = static_cast<uint32_t>(std::stoul(r.at(0)));
        if (r.at(1) == "error") {
            expect_error([&] { pr::bundle_layout layout(n); }, PULSAR_ROUTING_STATUS_NO_BUNDLES,
                         "default layout of " + r.at(0));
            continue;
        }
        const std::vector<std::string> names = split(r.at(1), ',');
        pr::bundle_layout layout(n);
        expect(layout.size() == names.size(), "layout size " + r.at(0));
        for (size_t i = 0; i < names.size() && i < layout.size(); i++) {
            const pr::bundle_range b = layout.bundle(i);
            expect(b.name() == names[i], "bundle name " + names[i]);
            expect(pr::bundle_range::parse(names[i]) == b, "bundle parse " + names[i]);
            expect(b.includes(static_cast<uint32_t>(b.lower)), "bundle includes its lower bound");
            expect(layout.bundle_for_hash(static_cast<uint32_t>(b.lower)) == b &&
                       layout.bundle_index_for_hash(static_cast<uint32_t>(b.lower)) == i,
                   "bundle_for_hash " + names[i]);
        }
        // The same layout from its boundaries.
        pr::bundle_layout copy(layout.boundaries());
        pr::bundle_layout moved = std::move(copy);
        expect(moved.boundaries() == layout.boundaries() && moved.size() == layout.size(),
               "layout from boundaries " + r.at(0));
    }
    pr::bundle_layout four(4);
    const uint32_t hash = pr::topic_name("persistent://t/ns/x").crc32();
    expect(four.bundle_for_topic("persistent://t/ns/x") == four.bundle_for_hash(hash),
           "bundle_for_topic hashes the canonical name");
    expect(four.bundle(0).key("t/ns") == "t/ns/0x00000000_0x40000000", "bundle key");
    const std::vector<uint32_t> split = four.split_equally(four.bundle(0), 2);
    expect(split.size() == 6 && split[1] == 0x20000000u, "split_equally");
    expect_error([&] { four.bundle(4); }, PULSAR_ROUTING_STATUS_BUNDLE_INDEX_OUT_OF_RANGE,
                 "bundle index out of range");
    expect_error([] { pr::bundle_layout(std::vector<uint32_t>{}); },
                 PULSAR_ROUTING_STATUS_NO_BOUNDARIES, "layout without boundaries");
}

// A selector built through the wrapper against one built through the C API
// with the same consumers; and the C selector's growth past its capacity.
void test_selectors() {
    pulsar_routing_consistent_hashing_config config = {
        PULSAR_ROUTING_DEFAULT_CONSISTENT_HASHING_POINTS,
        PULSAR_ROUTING_CONSISTENT_HASHING_RANGE_MAX, 1, 8};
    pr::selector s = pr::selector::consistent_hashing(config);
    pulsar_routing_consistent_hashing_config roomy = config;
    roomy.max_consumers = 64;
    roomy.name_bytes = 64 * 32;
    pulsar_routing_selector *c = nullptr;
    pulsar_routing_selector_new_consistent_hashing(roomy, &c);
    for (uint64_t id = 0; id < 40; id++) {
        const std::string name = "consumer-" + std::to_string(id % 13);
        s.add(id, name); // grows past 1 consumer and 8 name bytes
        pulsar_routing_selector_add_named(c, id, reinterpret_cast<const uint8_t *>(name.data()),
                                          name.size());
    }
    expect(s.size() == 40 && s.contains(39) && !s.contains(40), "selector size");
    expect(s.kind() == pr::selector_kind::consistent_hashing, "selector kind");
    const pr::hash_range range = s.key_hash_range();
    expect(range.start == 1 && range.end == 65535, "consistent hashing range");
    bool same = true;
    for (uint32_t slot = 0; slot < 65536; slot += 7) {
        uint64_t expected = 0;
        const bool owned = pulsar_routing_selector_select(c, slot, &expected) ==
                           PULSAR_ROUTING_STATUS_OK;
        const std::optional<uint64_t> got = s.select(slot);
        same = same && got.has_value() == owned && (!owned || *got == expected);
    }
    expect(same, "select matches the C API");
    for (const char *k : {"order-17", "", "user-42"}) {
        uint64_t expected = 0;
        pulsar_routing_selector_select_key(c, reinterpret_cast<const uint8_t *>(k), std::strlen(k),
                                           &expected);
        expect(s.select_key(k) == std::optional<uint64_t>(expected), std::string("select_key ") + k);
    }
    expect(s.select_key("order-17") ==
               s.select(pr::sticky_key_hash("order-17", pr::selector_kind::consistent_hashing)),
           "sticky_key_hash is the slot select_key uses");
    const std::vector<pr::assignment> assignments = s.assignments();
    size_t needed = 0;
    pulsar_routing_selector_assignments(c, nullptr, 0, &needed);
    expect(!assignments.empty(), "assignments");
    s.remove(3);
    expect(!s.contains(3), "remove");
    const auto impact = s.last_impact();
    bool from_three = !impact.first.empty();
    for (const auto &a : impact.first) {
        from_three = from_three && a.consumer == 3;
    }
    expect(from_three, "a remove's impact takes ranges from the removed consumer only");
    s.remove(3); // an unknown consumer is a no-op, as in the broker
    expect(s.size() == 39 && s.last_impact().first.empty(), "remove twice");
    expect_error([&] { s.add(5, "again"); }, PULSAR_ROUTING_STATUS_DUPLICATE_CONSUMER,
                 "duplicate consumer");
    pulsar_routing_selector_free(c);

    pr::selector auto_split = pr::selector::auto_split({PULSAR_ROUTING_DEFAULT_RANGE_SIZE, 1});
    for (uint64_t id = 0; id < 5; id++) {
        auto_split.add(id);
    }
    expect(auto_split.size() == 5 && auto_split.kind() == pr::selector_kind::auto_split,
           "auto split");
    expect(auto_split.select(0).has_value(), "auto split owns slot 0");

    pr::selector exclusive =
        pr::selector::exclusive({1, 1, PULSAR_ROUTING_EXCLUSIVE_MODE_CURRENT});
    exclusive.add(7, std::vector<pr::hash_range>{{0, 99}, {200, 299}});
    exclusive.add(8, std::vector<pr::hash_range>{{100, 199}});
    expect(exclusive.select(150) == std::optional<uint64_t>(8) &&
               exclusive.select(250) == std::optional<uint64_t>(7) && !exclusive.select(300),
           "exclusive ranges");
    // Java reports no impact for STICKY; the impact is what moved: the
    // declared ranges, in slot order.
    const auto moved = exclusive.last_impact();
    expect(moved.first.empty() && moved.second.size() == 1 && moved.second[0].consumer == 8 &&
               moved.second[0].start == 100 && moved.second[0].end == 199,
           "exclusive add impact");
    exclusive.remove(7);
    const auto gone = exclusive.last_impact();
    expect(gone.second.empty() && gone.first.size() == 2 && gone.first[0].start == 0 &&
               gone.first[1].end == 299,
           "exclusive remove impact");
    exclusive.add(7, std::vector<pr::hash_range>{{0, 99}, {200, 299}});
    expect_error([&] { exclusive.add(9, std::vector<pr::hash_range>{{50, 60}}); },
                 PULSAR_ROUTING_STATUS_HASH_RANGE_CONFLICT, "exclusive conflict");

    // Readers share a const selector.
    std::atomic<int> mismatches{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; t++) {
        readers.emplace_back([&] {
            for (uint32_t slot = 0; slot < 2000; slot++) {
                if (exclusive.select(slot % 400) != exclusive.select(slot % 400)) {
                    mismatches++;
                }
            }
        });
    }
    for (auto &r : readers) {
        r.join();
    }
    expect(mismatches == 0, "shared reads");
}


// The sender readiness gate, with the numbers Kafka's documentation and
// NetworkClient give: the defaults, a slow broker filling
// max.in.flight.requests.per.connection, a leader change forcing a metadata
// refresh once retry.backoff.ms passed; and every error it throws.
void test_sender_gate() {
    const pr::sender_config defaults = pr::sender_gate::default_config();
    expect(defaults.max_in_flight == 5 && defaults.enable_idempotence &&
               defaults.reconnect_backoff_ms == 50 && defaults.reconnect_backoff_max_ms == 1000 &&
               defaults.metadata_max_age_ms == 300000 && defaults.retry_backoff_ms == 100 &&
               defaults.retry_backoff_max_ms == 1000,
           "sender_gate::default_config is Kafka's");

    pr::sender_config config = defaults;
    config.max_in_flight = 6;
    expect_error([&] { pr::sender_gate({1, 2}, config); },
                 PULSAR_ROUTING_STATUS_SENDER_MAX_IN_FLIGHT_TOO_LARGE_FOR_IDEMPOTENCE,
                 "6 in flight with idempotence");
    config.max_in_flight = 0;
    expect_error([&] { pr::sender_gate({1, 2}, config); },
                 PULSAR_ROUTING_STATUS_SENDER_MAX_IN_FLIGHT_TOO_SMALL, "0 in flight");
    expect_error([&] { pr::sender_gate({1, 2, 1}); }, PULSAR_ROUTING_STATUS_SENDER_DUPLICATE_NODE,
                 "duplicate node");
    {
        pr::sender_gate empty(std::vector<int32_t>{});
        expect(empty.check(1, 0).reason == pr::readiness_reason::unknown_node,
               "a gate without nodes knows none");
    }

    pr::sender_gate gate({1, 2});
    pr::readiness r = gate.ready(1, 0);
    expect(r.reason == pr::readiness_reason::initiate_connect && r.node == 1 && !r.is_ready(),
           "ready on a new node initiates a connect");
    expect(gate.check(1, 0).state == pr::connection_state::connecting,
           "initiating a connect moves the node to connecting");
    expect(gate.ready(99, 0).reason == pr::readiness_reason::unknown_node, "unknown node");
    gate.connection_event(1, pr::connection_event::connected, 1);
    expect(gate.check(1, 1).reason == pr::readiness_reason::connecting &&
               gate.check(1, 1).state == pr::connection_state::authenticating,
           "authenticating is not ready");
    gate.connection_event(1, pr::connection_event::authenticated, 2, 0.5);
    // A new producer's metadata is due until its first update.
    expect(gate.check(1, 2).reason == pr::readiness_reason::metadata_due,
           "bootstrapped metadata is due");
    gate.metadata_fetch_started();
    gate.metadata_updated(3);
    expect(gate.time_to_next_metadata_update(3) == 300000,
           "the next update is metadata.max.age.ms away");
    expect(gate.check(1, 3).is_ready(), "connected and up to date: ready");

    // A slow broker: five requests, then the gate holds the node.
    for (int i = 0; i < 5; i++) {
        gate.send(1, 4);
    }
    try {
        gate.send(1, 4);
        expect(false, "a sixth send: no exception");
    } catch (const pr::sender_not_ready &e) {
        expect(e.status() == PULSAR_ROUTING_STATUS_SENDER_NOT_READY &&
                   e.readiness().reason == pr::readiness_reason::in_flight_full &&
                   e.readiness().in_flight == 5 && e.readiness().max_in_flight == 5 &&
                   std::string(e.what()) == "cannot send: node 1 not ready: in flight 5/5",
               std::string("sender_not_ready: ") + e.what());
    }
    expect_error([&] { gate.send(1, 4); }, PULSAR_ROUTING_STATUS_SENDER_NOT_READY,
                 "sender_not_ready is an error");
    const pr::readiness full = gate.check(1, 4);
    expect(full.message() == "node 1 not ready: in flight 5/5", "readiness message");
    pulsar_routing_readiness c{};
    expect(pulsar_routing_sender_gate_check(gate.get(), 1, 4, &c) == PULSAR_ROUTING_STATUS_OK &&
               pr::readiness::from_c(c).message() == full.message() &&
               c.in_flight == full.in_flight && c.reason == PULSAR_ROUTING_READINESS_IN_FLIGHT_FULL,
           "the wrapper's readiness is the C API's");

    // A leader change: NOT_LEADER_OR_FOLLOWER requests a refresh, which
    // holds sends once retry.backoff.ms (100) passed since the update at 3.
    gate.response(1, pr::produce_outcome::not_leader_or_follower);
    expect(gate.time_to_next_metadata_update(50) == 53, "the refresh waits for retry.backoff.ms");
    std::vector<int32_t> candidates{2, 1};
    const std::vector<pr::readiness> reasons = gate.filter_ready(candidates, 103);
    expect(candidates.empty() && reasons.size() == 2, "filter_ready keeps no node");
    expect(reasons.size() == 2 && reasons[0].node == 2 &&
               reasons[0].reason == pr::readiness_reason::initiate_connect &&
               reasons[1].node == 1 && reasons[1].reason == pr::readiness_reason::metadata_due &&
               reasons[1].metadata_update_requested,
           "filter_ready: node 2 connects, node 1 waits for the metadata");
    const pr::sender_counters counters = gate.counters(103);
    expect(counters.connection_count == 2 && counters.connection_creation_total == 1 &&
               counters.in_flight_requests_count == 4 && counters.metadata_age_ms == 100,
           "counters");
    std::vector<int32_t> none;
    expect(gate.filter_ready(none, 103).empty() && none.empty(), "filter_ready of no nodes");
    gate.metadata_fetch_started();
    gate.metadata_updated(104);
    std::vector<int32_t> again{1, 99};
    const std::vector<pr::readiness> after = gate.filter_ready(again, 104);
    expect(again == std::vector<int32_t>{1} && after.size() == 2 && after[0].is_ready() &&
               after[1].reason == pr::readiness_reason::unknown_node,
           "filter_ready keeps the ready node");

    // Errors: unknown nodes, events that do not apply, values out of range.
    expect_error([&] { gate.connection_event(1, pr::connection_event::connected, 105); },
                 PULSAR_ROUTING_STATUS_SENDER_INVALID_TRANSITION, "connected when ready");
    expect_error([&] { gate.connection_event(99, pr::connection_event::disconnected, 105); },
                 PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_NODE, "connection_event unknown node");
    expect_error([&] { gate.connection_event(1, static_cast<pr::connection_event>(99), 105); },
                 PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE, "connection_event out of range");
    expect_error([&] { gate.throttle(99, 200); }, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_NODE,
                 "throttle unknown node");
    expect_error([&] { gate.send(99, 105); }, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_NODE,
                 "send unknown node");
    expect_error([&] { gate.response(99); }, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_NODE,
                 "response unknown node");
    expect_error([&] { gate.response(2); }, PULSAR_ROUTING_STATUS_SENDER_NO_REQUEST_IN_FLIGHT,
                 "response with nothing in flight");
    expect_error([&] { gate.response(1, static_cast<pr::produce_outcome>(3)); },
                 PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE, "response outcome out of range");
    expect_error([&] { gate.metadata_event(static_cast<pr::metadata_event>(4), 105); },
                 PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE, "metadata_event out of range");
    pr::readiness bad = full;
    bad.reason = static_cast<pr::readiness_reason>(8);
    expect_error([&] { (void)bad.message(); }, PULSAR_ROUTING_STATUS_SENDER_UNKNOWN_VALUE,
                 "readiness message of a reason out of range");

    // Throttled until 200: ready again after.
    gate.throttle(1, 200);
    const pr::readiness throttled = gate.check(1, 150);
    expect(throttled.reason == pr::readiness_reason::throttled &&
               throttled.backoff_remaining_ms == 50,
           "throttled for 50 more ms");
    // A disconnect fails the in-flight requests and backs off
    // reconnect.backoff.ms (50, no jitter at 0.5).
    gate.connection_event(1, pr::connection_event::disconnected, 300, 0.5);
    const pr::readiness backoff = gate.check(1, 310);
    expect(backoff.reason == pr::readiness_reason::reconnect_backoff &&
               backoff.backoff_remaining_ms == 40 && backoff.in_flight == 0,
           "reconnect backoff after a disconnect");

    // Move-only: the moved-to gate is the same gate.
    pr::sender_gate moved = std::move(gate);
    expect(moved.check(1, 310).backoff_remaining_ms == 40, "a moved gate keeps its state");
    static_assert(!std::is_copy_constructible_v<pr::sender_gate>, "sender_gate is move-only");
}

// The Pulsar producer's pending queue (maxPendingMessages,
// blockIfQueueFull) and the sizing rule.
void test_pending_queue() {
    pr::pending_queue unlimited; // 0: no limit, Pulsar's default since 2.10
    for (int i = 0; i < 1000; i++) {
        unlimited.try_enqueue();
    }
    expect(unlimited.pending() == 1000, "no limit");
    unlimited.complete(1000);
    expect(unlimited.pending() == 0, "complete returns the permits");

    pr::pending_queue failing(2, false);
    failing.try_enqueue();
    failing.try_enqueue();
    expect_error([&] { failing.try_enqueue(); }, PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_IS_FULL,
                 "full queue fails");
    expect(failing.pending() == 2, "a refused enqueue leaves the queue");
    pr::pending_queue copy = failing; // a value: the copy is independent
    copy.complete();
    expect(copy.pending() == 1 && failing.pending() == 2, "copies are independent");
    copy.try_enqueue();
    failing.complete(UINT32_MAX);
    expect(failing.pending() == 0, "completing more than pending empties the queue");

    pr::pending_queue blocking(1, true);
    blocking.try_enqueue();
    expect_error([&] { blocking.try_enqueue(); }, PULSAR_ROUTING_STATUS_PRODUCER_QUEUE_WOULD_BLOCK,
                 "full queue blocks");
    expect_error([] { pr::pending_queue(-1); }, PULSAR_ROUTING_STATUS_MAX_PENDING_MESSAGES_NEGATIVE,
                 "negative maxPendingMessages");
    try {
        pr::pending_queue(-1, true);
    } catch (const pr::error &e) {
        expect(std::string(e.what()) == "maxPendingMessages needs to be >= 0",
               std::string("Java's message: ") + e.what());
    }
    uint32_t c_pending = 99;
    expect(pulsar_routing_pending_queue_pending(&blocking.c_queue(), &c_pending) ==
                   PULSAR_ROUTING_STATUS_OK &&
               c_pending == 1,
           "c_queue is the C state");

    // ceil(rate * window / 1000), saturating.
    expect(pr::required_max_pending_messages(5000, 2500) == 12500, "5000/s over 2.5 s");
    expect(pr::required_max_pending_messages(1, 1) == 1, "rounds up");
    expect(pr::required_max_pending_messages(UINT64_MAX, UINT64_MAX) == UINT64_MAX, "saturates");
}

// The lookup handles (spec 6): a redirect then a Connect through a proxy,
// a retried ServiceNotReady, a non-retriable TopicNotFound, the redirect
// limit, the coalescing tables and the throttle.
void test_lookup() {
    const std::string service = "pulsar://proxy:6650";
    pr::topic_lookup l(service);
    pr::lookup_action a = l.start(0);
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP && a.logical_address == service &&
               !a.authoritative && a.send_properties,
           "lookup: first request to the service address, non-authoritative");
    expect(a.reason() == "first lookup, at the service address, non-authoritative",
           "lookup: the action says why");
    a = l.on_response(pr::lookup_response::redirect("pulsar://b2:6650", true), 3);
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP &&
               a.logical_address == "pulsar://b2:6650" && a.authoritative && a.redirects == 1,
           "lookup: a redirect copies the authoritative flag");
    expect(a.reason() == "redirect 1 to pulsar://b2:6650, with the response's authoritative=True",
           "lookup: a redirect says where and with which flag");
    a = l.on_response(pr::lookup_response::connect("pulsar://b3:6650", false, true), 5);
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_DONE && a.logical_address == "pulsar://b3:6650" &&
               a.physical_address == "pulsar://b2:6650" && a.use_proxy,
           "lookup: Connect through the proxy keeps the answering hop (Java)");
    const auto chain = l.chain();
    expect(chain.size() == 2 && chain[0].first == service && !chain[0].second &&
               chain[1].first == "pulsar://b2:6650" && chain[1].second,
           "lookup: the redirect chain");

    pr::topic_lookup r(service);
    (void)r.start(0);
    a = r.on_response(pr::lookup_response::failed(6, "leader election"), 10);  // ServiceNotReady
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT && a.at_ms == 110 &&
               a.error == PULSAR_ROUTING_STATUS_LOOKUP_SERVER_ERROR && a.server_error == 6 &&
               a.error_message.find("leader election") != std::string::npos,
           "lookup: ServiceNotReady is retried after 100 ms");
    expect(a.reason() == "attempt 1 failed (the broker failed the lookup with ServiceNotReady: "
                         "leader election); retriable, backing off 100 ms",
           "lookup: a retry says why, with the broker's message");
    a = r.on_retry_timer(110);
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_SEND_LOOKUP && a.attempt == 2,
           "lookup: the retry starts a second attempt");
    a = r.on_response(pr::lookup_response::failed(11), 120);  // TopicNotFound
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_FAILED && a.server_error == 11,
           "lookup: TopicNotFound is not retried");
    expect_error([&] { (void)r.on_response(pr::lookup_response::failed(99), 130); },
                 PULSAR_ROUTING_STATUS_UNKNOWN_SERVER_ERROR, "lookup: a code outside 0..25");

    pulsar_routing_lookup_options o = pr::topic_lookup::default_options();
    o.max_redirects = 1;
    o.retry = false;
    o.detect_redirect_loops = false;
    pr::topic_lookup limited(service, o, 4);
    (void)limited.start(0);
    (void)limited.on_response(pr::lookup_response::redirect("pulsar://b:6650"), 1);
    a = limited.on_response(pr::lookup_response::redirect("pulsar://b:6650"), 2);
    expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_FAILED &&
               a.error == PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REDIRECTS &&
               a.error_message == "Too many redirects: 1",
           "lookup: Java's redirect limit message");
    expect_error([&] { pr::topic_lookup bad(std::string(10000, 'x')); },
                 PULSAR_ROUTING_STATUS_LOOKUP_ADDRESS_TOO_LONG, "lookup: an over-long address");

    pr::lookup_coalescer c(2);
    expect(c.join("t", {{"a", "1"}, {"b", "2"}}).leader, "coalescer: the first joiner leads");
    const pr::coalesced second = c.join("t", {{"b", "2"}, {"a", "1"}});
    expect(!second.leader && second.waiters == 2, "coalescer: properties compare as a map");
    expect(c.join("u").leader, "coalescer: another topic is another lookup");
    expect_error([&] { (void)c.join("v"); }, PULSAR_ROUTING_STATUS_LOOKUP_COALESCING_TABLE_FULL,
                 "coalescer: bounded");
    expect(c.complete("t", {{"a", "1"}, {"b", "2"}}) == 2 && c.complete("t") == 0,
           "coalescer: complete returns the waiters once");

    pr::lookup_metadata_coalescer m(2);
    expect(m.join("t").leader && !m.join("t", true, false).leader,
           "metadata coalescer: same key shares");
    expect(m.join("t", false, true).leader, "metadata coalescer: the PIP-344 flags are the key");
    expect_error([&] { (void)m.join("t", false, false); },
                 PULSAR_ROUTING_STATUS_LOOKUP_COALESCING_TABLE_FULL, "metadata coalescer: bounded");
    expect(m.complete("t") == 2, "metadata coalescer: complete");

    pr::lookup_throttle t(1, 2);
    expect(t.acquire() && !t.acquire(), "throttle: one in flight, one queued");
    try {
        (void)t.acquire();
        expect(false, "throttle: no exception beyond the limits");
    } catch (const pr::lookup_throttled &e) {
        expect(e.status() == PULSAR_ROUTING_STATUS_LOOKUP_TOO_MANY_REQUESTS &&
                   e.in_flight() == 1 && e.queued() == 1,
               "throttle: TooManyRequests with the counts");
        pr::topic_lookup th(service);
        (void)th.start(0);
        a = th.on_throttled(e.in_flight(), e.queued(), 1);
        expect(a.kind == PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT &&
                   a.error_message.rfind("Requests number out of config", 0) == 0,
               "throttle: the driver retries a throttled lookup with Java's message");
    }
    expect(t.release(), "throttle: a release sends the queued one");
    expect(t.counts() == std::make_pair(uint32_t{1}, uint32_t{0}),
           "throttle: the queued one took the freed place");

    // The partitioned-metadata events have their own constants (not the
    // sender gate's metadata events), and a FAILED event carries the
    // broker's message.
    pulsar_routing_partitioned_metadata *md = nullptr;
    pr::detail::check(pulsar_routing_partitioned_metadata_new(service.c_str(), nullptr, &md));
    pulsar_routing_lookup_action ma{};
    pr::detail::check(pulsar_routing_partitioned_metadata_on_event(
        md, PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_START, false, 0, -1, nullptr, 0, 0, &ma));
    expect(ma.kind == PULSAR_ROUTING_LOOKUP_ACTION_CONNECT, "metadata: connect first");
    pr::detail::check(pulsar_routing_partitioned_metadata_on_event(
        md, PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_CONNECTED, true, 0, -1, nullptr, 0, 1, &ma));
    const std::string why = "bundle unloading";
    pr::detail::check(pulsar_routing_partitioned_metadata_on_event(
        md, PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_FAILED, false, 0, 6,
        reinterpret_cast<const uint8_t *>(why.data()), why.size(), 2, &ma));
    expect(ma.kind == PULSAR_ROUTING_LOOKUP_ACTION_RETRY_AT && ma.server_error == 6,
           "metadata: ServiceNotReady is retried");
    uint8_t text[256];
    size_t written = 0;
    pr::detail::check(
        pulsar_routing_partitioned_metadata_error_message(md, text, sizeof text, &written));
    const std::string got(reinterpret_cast<const char *>(text), written);
    expect(got.size() > why.size() && got.compare(got.size() - why.size(), why.size(), why) == 0,
           "metadata: the error text ends with the broker's message");
    pulsar_routing_partitioned_metadata_free(md);
}

} // namespace

// Key counts: every expected value is summed by hand from the rows added.
void test_key_counts() {
    using sorted_t = std::vector<std::pair<std::string, double>>;
    pr::key_counts counts;
    expect(counts.sorted().empty() && counts.size() == 0 && counts.rows() == 0 &&
               !counts.keyless_weight(),
           "empty key counts");
    counts.add("pear");
    counts.add("apple", 2);
    counts.add("", 0.5);
    counts.add(std::string_view("pea"), 4);
    counts.add(std::string("apple"), 0.25);
    counts.add(std::vector<uint8_t>{0xff});
    counts.add("\xc3\xa9");
    // "" first, "pea" before "pear", apple 2 + 0.25, 0xc3 before 0xff.
    expect(counts.sorted() == sorted_t{{"", 0.5},
                                       {"apple", 2.25},
                                       {"pea", 4},
                                       {"pear", 1},
                                       {"\xc3\xa9", 1},
                                       {"\xff", 1}},
           "key counts in byte order");
    // pear apple "" pea 0xff 0xc3 0xa9: 4 + 5 + 0 + 3 + 1 + 2 bytes.
    expect(counts.total_key_bytes() == 15, "total_key_bytes");
    counts.add_keyless(1.5);
    counts.add_keyless();
    expect(counts.keyless_weight() == 2.5 && counts.rows() == 9 && counts.size() == 6,
           "keyless rows");

    pr::key_counts batch;
    const std::vector<std::string_view> keys{"b", "a", "", "a", "b"};
    batch.add_batch(keys);
    batch.add_batch(keys, {1, 2, 3, 4, 5});
    batch.add_batch(std::vector<std::string>{});
    // b 1 + 1 + 1 + 5, a 1 + 1 + 2 + 4, "" 1 + 3.
    expect(batch.sorted() == sorted_t{{"", 4}, {"a", 8}, {"b", 8}} && batch.rows() == 10,
           "key counts batch");
    try {
        batch.add_batch(keys, {1, 1, 1, 1, -1});
        expect(false, "a negative weight: no exception");
    } catch (const pr::error &e) {
        expect(e.status() == PULSAR_ROUTING_STATUS_KEY_COUNTS_INVALID_WEIGHT &&
                   std::string(e.what()) == "weight 4 is not a finite number of at least 0",
               std::string("a negative weight: ") + e.what());
    }
    expect_error([&] { batch.add_batch(keys, {1}); },
                 PULSAR_ROUTING_STATUS_KEY_COUNTS_WEIGHTS_LENGTH, "one weight for five keys");
    expect_error([&] { batch.add("a", -1); }, PULSAR_ROUTING_STATUS_KEY_COUNTS_INVALID_WEIGHT,
                 "add -1");
    expect_error([&] { batch.add_keyless(std::numeric_limits<double>::infinity()); },
                 PULSAR_ROUTING_STATUS_KEY_COUNTS_INVALID_WEIGHT, "add_keyless inf");
    expect(batch.rows() == 10 && !batch.keyless_weight(), "refused adds added nothing");
    pr::key_counts moved = std::move(batch);
    expect(moved.size() == 3, "key counts move");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: wrapper_test TSV_DIR\n";
        return 2;
    }
    const std::string dir = argv[1];
    try {
        test_version();
        test_hashes(dir);
        test_routing(dir);
        test_batch_routing(dir);
        test_custom_router();
        test_kafka_partitioners();
        test_topic_names(dir);
        test_bundles(dir);
        test_selectors();
        test_sender_gate();
        test_pending_queue();
        test_lookup();
        test_key_counts();
    } catch (const std::exception &e) {
        std::cerr << "unexpected exception: " << e.what() << "\n";
        failed++;
    }
    std::printf("wrapper_test: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
