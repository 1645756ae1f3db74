// Routes a key as the Java client does, with the C++17 wrapper.
//
//   route KEY PARTITIONS   prints the partition of KEY under each scheme and
//                          the bundle of the topic that partition belongs to
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pulsar_routing.hpp"

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s KEY PARTITIONS\n", argv[0]);
        return 2;
    }
    namespace pr = pulsar_routing;
    try {
        const std::string key = argv[1];
        const long long partitions = std::atoll(argv[2]);
        // Java's default producer: round-robin router, JavaStringHash.
        const pr::round_robin_router router(pr::hashing_scheme::java_string, 0, true, 10);
        const uint32_t partition = router.choose_partition(pr::key::string(key), partitions);
        std::printf("java_string: %u\n", static_cast<unsigned>(partition));
        std::printf("murmur3_32: %u\n", static_cast<unsigned>(pr::partition_for_key(
                                            key, partitions, pr::hashing_scheme::murmur3_32)));

        const pr::topic_name topic =
            pr::topic_name("my-topic").partition(static_cast<int32_t>(partition));
        const pr::bundle_layout layout(4); // the broker's default
        std::printf("%s is in bundle %s\n", topic.to_string().c_str(),
                    layout.bundle_for_topic(topic.to_string()).key(topic.namespace_name()).c_str());
        std::printf("library %s\n", pr::version().c_str());
    } catch (const pr::error &e) {
        std::fprintf(stderr, "error %u: %s\n", static_cast<unsigned>(e.status()), e.what());
        return 1;
    }
    return 0;
}
