// Prints boost::hash<std::string> for a fixed list of keys, one JSON object
// per line: {"key_hex": "...", "hash": <size_t>}. Compile it against the
// Boost headers under test (see README.md); the program itself does not
// depend on a Boost version.
#include <boost/functional/hash.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

static void print(const std::string& key) {
    std::printf("{\"key_hex\": \"");
    for (unsigned char c : key) {
        std::printf("%02x", c);
    }
    std::printf("\", \"hash\": %llu}\n",
                static_cast<unsigned long long>(boost::hash<std::string>()(key)));
}

int main() {
    std::vector<std::string> keys = {
        "",
        "a",
        "k",
        "k2",
        "key",
        "customer-000042",
        "polygenelubricants",
        "order-123456789",
        "The quick brown fox jumps over the lazy dog",
        "\xc3\xa9",                  // U+00E9
        "caf\xc3\xa9",               // "cafe" with U+00E9
        "\xe6\x97\xa5\xe6\x9c\xac",  // U+65E5 U+672C
        "\xf0\x9f\x98\x80",          // U+1F600
        std::string("\0", 1),
        std::string("a\0b", 3),
        std::string("\0\0\0\0\0\0\0\0", 8),
    };
    // Every single byte, so each byte value (signed or not) is covered.
    for (int b = 0; b < 256; ++b) {
        keys.push_back(std::string(1, static_cast<char>(b)));
    }
    // Lengths 0..100 of two patterns: ASCII, and bytes spanning 0x00-0xff
    // (so that words mix bytes >= 0x80 with the rest at every offset).
    for (int len = 0; len <= 100; ++len) {
        std::string ascii, mixed;
        for (int i = 0; i < len; ++i) {
            ascii.push_back(static_cast<char>('a' + (i % 26)));
            mixed.push_back(static_cast<char>((i * 151 + len * 7 + 0x80) & 0xff));
        }
        keys.push_back(ascii);
        keys.push_back(mixed);
    }
    // Long keys.
    keys.push_back(std::string(1000, 'x'));
    keys.push_back(std::string(257, '\xff'));
    for (const std::string& key : keys) {
        print(key);
    }
    return 0;
}
