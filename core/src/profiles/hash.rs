//! Every key hash a Pulsar client applies, named precisely, including the
//! clients' divergent ports of `JavaStringHash` and C++'s `BoostHash`.

use core::fmt;
use core::str::FromStr;

use crate::java_string_hash::{java_string_hash, java_string_hash_bytes};
use crate::murmur3::{POSITIVE_MASK, murmur3_32, murmur3_32_raw};

/// Whether C++ `char` is signed on the platform a C++ (or Python) client
/// was built for: it decides what `JavaStringHash` adds for bytes >= 0x80.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CharSignedness {
    /// `char` is signed: x86-64 and most desktop and server targets. The
    /// golden `cpp_*` values were produced on x86-64.
    #[default]
    Signed,
    /// `char` is unsigned: ARM (aarch64 Linux, 32-bit ARM), PowerPC, s390x.
    /// Documented from the C++ type rules; no golden data covers it.
    Unsigned,
}

/// A generation of `boost::hash<std::string>` on a 64-bit `size_t`
/// (x86-64, aarch64, 64-bit Windows), named by its first Boost release.
///
/// C++'s `BoostHash` is that hash `& INT32_MAX`, so the Boost a C++ (or
/// Python) client was built with decides where its keys go. Boost's history
/// (boostorg/container_hash) has four generations, each checked against
/// values printed by the real headers (`testdata/boost/`):
///
/// | generation | releases | string hash |
/// |---|---|---|
/// | `"1.33"` | 1.33 to 1.61 | classic `hash_combine` per `char` |
/// | `"1.62"` | 1.62 to 1.80 | 64-bit MurmurHash2-style `hash_combine` per `char` |
/// | `"1.81"` | 1.81 | `hash_mix` over 4-byte words |
/// | `"1.82"` | 1.82 and later (checked to 1.91) | `mulxp1` over 8-byte words |
///
/// The per-`char` generations depend on the platform's `char` signedness.
/// On macOS, Boost 1.62 to 1.77 still computes the `"1.33"` generation (its
/// faster combine was only picked when `size_t` and `uint64_t` are the same
/// type, fixed in 1.78); this is read from the headers, not measured.
/// 32-bit `size_t` builds hash differently in every generation and are not
/// modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoostHashGeneration {
    /// Boost 1.33 to 1.61: `seed ^= c + 0x9e3779b9 + (seed << 6) + (seed >> 2)`
    /// for each `char`, sign-extended where `char` is signed.
    Boost1_33,
    /// Boost 1.62 to 1.80 (e.g. Debian 12's default 1.74, and the C++
    /// client's own builds up to 3.4): MurmurHash2's 64-bit mixing step
    /// folded over each `char`.
    Boost1_62,
    /// Boost 1.81 (e.g. Debian 12's `libboost1.81-dev`): little-endian 4-byte
    /// words, the last one terminated by a `0x01` byte, each folded with
    /// `hash_mix(seed + 0x9e3779b9 + word)`.
    Boost1_81,
    /// Boost 1.82 and later (the C++ client from 3.5, `pulsar-client` wheels
    /// from 3.6): the `mulxp1` hash over little-endian 8-byte words.
    Boost1_82,
}

impl BoostHashGeneration {
    /// Every generation, oldest first.
    pub const ALL: [Self; 4] = [
        Self::Boost1_33,
        Self::Boost1_62,
        Self::Boost1_81,
        Self::Boost1_82,
    ];

    /// The newest Boost release whose string hash was checked: later
    /// releases are refused rather than assumed unchanged.
    pub const NEWEST_CHECKED_MINOR: u32 = 91;

    /// The generation the current `pulsar-client` wheel is built with
    /// (pulsar-client 3.6 and later bundle a C++ client built by vcpkg with
    /// Boost 1.83 or later): the `python` profile's default.
    pub const PYTHON_WHEEL: Self = Self::Boost1_82;

    /// The first release of the generation: `"1.33"`, `"1.62"`, `"1.81"` or
    /// `"1.82"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Boost1_33 => "1.33",
            Self::Boost1_62 => "1.62",
            Self::Boost1_81 => "1.81",
            Self::Boost1_82 => "1.82",
        }
    }

    /// The generation of Boost release `1.minor` (`BOOST_VERSION / 100 % 1000`),
    /// or `None` for a release before 1.33 or after the newest checked.
    ///
    /// ```
    /// use pulsar_routing::profiles::BoostHashGeneration as G;
    /// assert_eq!(G::of_release(74), Some(G::Boost1_62));
    /// assert_eq!(G::of_release(85), Some(G::Boost1_82));
    /// assert_eq!(G::of_release(32), None);
    /// ```
    #[must_use]
    pub const fn of_release(minor: u32) -> Option<Self> {
        match minor {
            33..=61 => Some(Self::Boost1_33),
            62..=80 => Some(Self::Boost1_62),
            81 => Some(Self::Boost1_81),
            82..=Self::NEWEST_CHECKED_MINOR => Some(Self::Boost1_82),
            _ => None,
        }
    }

    /// Whether the platform's `char` signedness changes the hash.
    #[must_use]
    pub const fn depends_on_char_signedness(self) -> bool {
        matches!(self, Self::Boost1_33 | Self::Boost1_62)
    }

    /// `boost::hash<std::string>()(key)`, all 64 bits, on a platform with
    /// `char_signedness`.
    #[must_use]
    pub const fn hash_raw(self, key: &[u8], char_signedness: CharSignedness) -> u64 {
        match self {
            Self::Boost1_33 => boost_hash_1_33_raw(key, char_signedness),
            Self::Boost1_62 => boost_hash_1_62_raw(key, char_signedness),
            Self::Boost1_81 => boost_hash_1_81_raw(key),
            Self::Boost1_82 => boost_hash_1_82_raw(key),
        }
    }

    /// C++'s `BoostHash::makeHash`: [`BoostHashGeneration::hash_raw`]
    /// `& INT32_MAX`.
    ///
    /// ```
    /// use pulsar_routing::profiles::{BoostHashGeneration, CharSignedness};
    /// assert_eq!(BoostHashGeneration::Boost1_62.make_hash(b"a", CharSignedness::Signed), 1424956863);
    /// ```
    #[must_use]
    pub const fn make_hash(self, key: &[u8], char_signedness: CharSignedness) -> u32 {
        (self.hash_raw(key, char_signedness) as u32) & POSITIVE_MASK
    }
}

impl fmt::Display for BoostHashGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoostHashGeneration {
    type Err = UnknownBoostRelease;

    /// Accepts a Boost release, `"1.N"` or `"1.N.P"` (e.g. `"1.74"`,
    /// `"1.85.0"`), from 1.33 to the newest checked, and gives its
    /// generation.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rest = s.strip_prefix("1.").ok_or(UnknownBoostRelease)?;
        let minor = match rest.split_once('.') {
            Some((minor, patch)) => {
                if patch.is_empty() || !patch.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(UnknownBoostRelease);
                }
                minor
            }
            None => rest,
        };
        if minor.is_empty() || minor.len() > 3 || !minor.bytes().all(|b| b.is_ascii_digit()) {
            return Err(UnknownBoostRelease);
        }
        let minor = minor.parse::<u32>().map_err(|_| UnknownBoostRelease)?;
        Self::of_release(minor).ok_or(UnknownBoostRelease)
    }
}

/// The text did not name a Boost release whose string hash is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownBoostRelease;

impl fmt::Display for UnknownBoostRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown Boost release: expected \"1.N\" or \"1.N.P\" from 1.33 to 1.91 (generations 1.33, 1.62, 1.81 and 1.82)",
        )
    }
}

impl core::error::Error for UnknownBoostRelease {}

/// One exact key-hash function, as a client computes it before the modulo.
///
/// Every variant yields a `u32` that the client reduces with an unsigned
/// `% n`; the masked ones are below 2^31.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyHash {
    /// Java `JavaStringHash`: `String.hashCode()` over UTF-16 code units,
    /// `& 0x7fffffff`.
    JavaStringHash,
    /// `Murmur3_32Hash` of the Java, Go and C++ clients: MurmurHash3
    /// x86_32, seed 0, over UTF-8 bytes, `& 0x7fffffff`.
    Murmur3_32,
    /// Go `internal.JavaStringHash`: `31*h + byte` over UTF-8 bytes read as
    /// unsigned, **not** masked.
    GoJavaStringHash,
    /// C++ `JavaStringHash` where `char` is signed (x86-64): bytes >= 0x80
    /// add a negative value; masked.
    CppJavaStringHash,
    /// C++ `JavaStringHash` where `char` is unsigned (ARM): the unsigned
    /// byte sum of Go's port, masked.
    CppJavaStringHashUnsignedChar,
    /// C++ `BoostHash` of an unknown build: cannot be computed.
    CppBoostHash,
    /// C++ `BoostHash` of Boost 1.33 to 1.61, signed `char`.
    CppBoostHash1_33,
    /// C++ `BoostHash` of Boost 1.33 to 1.61, unsigned `char` (ARM).
    CppBoostHash1_33UnsignedChar,
    /// C++ `BoostHash` of Boost 1.62 to 1.80, signed `char` (x86-64; e.g.
    /// Debian 12's Boost 1.74).
    CppBoostHash1_62,
    /// C++ `BoostHash` of Boost 1.62 to 1.80, unsigned `char` (ARM).
    CppBoostHash1_62UnsignedChar,
    /// C++ `BoostHash` of Boost 1.81 (any `char`).
    CppBoostHash1_81,
    /// C++ `BoostHash` of Boost 1.82 and later (any `char`): the current
    /// C++ client and `pulsar-client` wheel.
    CppBoostHash1_82,
    /// pulsar-rs and DotPulsar: MurmurHash3 x86_32, seed 0, **not** masked.
    Murmur3_32Unmasked,
}

impl KeyHash {
    /// Every variant, in the order of the C ABI's values (new ones are
    /// appended, so existing values keep their meaning).
    pub const ALL: [Self; 13] = [
        Self::JavaStringHash,
        Self::Murmur3_32,
        Self::GoJavaStringHash,
        Self::CppJavaStringHash,
        Self::CppJavaStringHashUnsignedChar,
        Self::CppBoostHash,
        Self::CppBoostHash1_62,
        Self::Murmur3_32Unmasked,
        Self::CppBoostHash1_62UnsignedChar,
        Self::CppBoostHash1_33,
        Self::CppBoostHash1_33UnsignedChar,
        Self::CppBoostHash1_81,
        Self::CppBoostHash1_82,
    ];

    /// C++'s `BoostHash` of a Boost generation on a platform.
    #[must_use]
    pub const fn cpp_boost(
        generation: BoostHashGeneration,
        char_signedness: CharSignedness,
    ) -> Self {
        use CharSignedness::{Signed, Unsigned};
        match (generation, char_signedness) {
            (BoostHashGeneration::Boost1_33, Signed) => Self::CppBoostHash1_33,
            (BoostHashGeneration::Boost1_33, Unsigned) => Self::CppBoostHash1_33UnsignedChar,
            (BoostHashGeneration::Boost1_62, Signed) => Self::CppBoostHash1_62,
            (BoostHashGeneration::Boost1_62, Unsigned) => Self::CppBoostHash1_62UnsignedChar,
            (BoostHashGeneration::Boost1_81, _) => Self::CppBoostHash1_81,
            (BoostHashGeneration::Boost1_82, _) => Self::CppBoostHash1_82,
        }
    }

    /// The Boost generation and `char` signedness of a known C++
    /// `BoostHash`, `None` for every other hash (and the unknown build).
    #[must_use]
    pub const fn boost_generation(self) -> Option<(BoostHashGeneration, CharSignedness)> {
        use CharSignedness::{Signed, Unsigned};
        Some(match self {
            Self::CppBoostHash1_33 => (BoostHashGeneration::Boost1_33, Signed),
            Self::CppBoostHash1_33UnsignedChar => (BoostHashGeneration::Boost1_33, Unsigned),
            Self::CppBoostHash1_62 => (BoostHashGeneration::Boost1_62, Signed),
            Self::CppBoostHash1_62UnsignedChar => (BoostHashGeneration::Boost1_62, Unsigned),
            Self::CppBoostHash1_81 => (BoostHashGeneration::Boost1_81, Signed),
            Self::CppBoostHash1_82 => (BoostHashGeneration::Boost1_82, Signed),
            _ => return None,
        })
    }

    /// The short name used by the C and Python APIs, e.g.
    /// `"go_java_string"` or `"cpp_boost_1_82"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`KeyHash::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::JavaStringHash => c"java_string",
            Self::Murmur3_32 => c"murmur3_32",
            Self::GoJavaStringHash => c"go_java_string",
            Self::CppJavaStringHash => c"cpp_java_string",
            Self::CppJavaStringHashUnsignedChar => c"cpp_java_string_unsigned_char",
            Self::CppBoostHash => c"cpp_boost",
            Self::CppBoostHash1_33 => c"cpp_boost_1_33",
            Self::CppBoostHash1_33UnsignedChar => c"cpp_boost_1_33_unsigned_char",
            Self::CppBoostHash1_62 => c"cpp_boost_1_62",
            Self::CppBoostHash1_62UnsignedChar => c"cpp_boost_1_62_unsigned_char",
            Self::CppBoostHash1_81 => c"cpp_boost_1_81",
            Self::CppBoostHash1_82 => c"cpp_boost_1_82",
            Self::Murmur3_32Unmasked => c"murmur3_32_unmasked",
        }
    }

    /// The hash of a key string, whose bytes are its UTF-8 encoding.
    ///
    /// # Errors
    /// [`BoostHashNotReproducible`] for [`KeyHash::CppBoostHash`].
    ///
    /// ```
    /// use pulsar_routing::profiles::KeyHash;
    /// // "polygenelubricants".hashCode() is Integer.MIN_VALUE.
    /// assert_eq!(KeyHash::JavaStringHash.hash_str("polygenelubricants"), Ok(0));
    /// assert_eq!(KeyHash::GoJavaStringHash.hash_str("polygenelubricants"), Ok(0x8000_0000));
    /// assert!(KeyHash::CppBoostHash.hash_str("k").is_err());
    /// ```
    pub fn hash_str(self, key: &str) -> Result<u32, BoostHashNotReproducible> {
        match self {
            Self::JavaStringHash => Ok(java_string_hash(key)),
            _ => self.hash_bytes(key.as_bytes()),
        }
    }

    /// The hash of a key given as bytes. [`KeyHash::JavaStringHash`]
    /// decodes them as Java's `new String(bytes, UTF_8)` does first; every
    /// other variant hashes the bytes themselves.
    ///
    /// # Errors
    /// [`BoostHashNotReproducible`] for [`KeyHash::CppBoostHash`].
    pub fn hash_bytes(self, key: &[u8]) -> Result<u32, BoostHashNotReproducible> {
        Ok(match self {
            Self::JavaStringHash => java_string_hash_bytes(key),
            Self::Murmur3_32 => murmur3_32(key),
            Self::GoJavaStringHash => go_java_string_hash(key),
            Self::CppJavaStringHash => cpp_java_string_hash(key, CharSignedness::Signed),
            Self::CppJavaStringHashUnsignedChar => {
                cpp_java_string_hash(key, CharSignedness::Unsigned)
            }
            Self::CppBoostHash => return Err(BoostHashNotReproducible),
            Self::CppBoostHash1_33
            | Self::CppBoostHash1_33UnsignedChar
            | Self::CppBoostHash1_62
            | Self::CppBoostHash1_62UnsignedChar
            | Self::CppBoostHash1_81
            | Self::CppBoostHash1_82 => match self.boost_generation() {
                Some((generation, char_signedness)) => generation.make_hash(key, char_signedness),
                None => return Err(BoostHashNotReproducible),
            },
            Self::Murmur3_32Unmasked => murmur3_32_raw(key),
        })
    }
}

impl fmt::Display for KeyHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KeyHash {
    type Err = UnknownKeyHash;

    /// Accepts the names of [`KeyHash::name`], and
    /// `"cpp_boost_1_74_x86_64"` (the earlier name of `"cpp_boost_1_62"`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "cpp_boost_1_74_x86_64" {
            return Ok(Self::CppBoostHash1_62);
        }
        Self::ALL
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or(UnknownKeyHash)
    }
}

/// The text did not name a [`KeyHash`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownKeyHash;

impl fmt::Display for UnknownKeyHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown key hash: expected java_string, murmur3_32, go_java_string, cpp_java_string, cpp_java_string_unsigned_char, cpp_boost, cpp_boost_1_33, cpp_boost_1_33_unsigned_char, cpp_boost_1_62, cpp_boost_1_62_unsigned_char, cpp_boost_1_81, cpp_boost_1_82 or murmur3_32_unmasked",
        )
    }
}

impl core::error::Error for UnknownKeyHash {}

/// Keyed routing with C++'s `BoostHash` was asked for, for a build whose
/// Boost generation is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoostHashNotReproducible;

impl fmt::Display for BoostHashNotReproducible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "BoostHash, the default hashing scheme of the C++ client, depends on the Boost it was built with: boost::hash<std::string> changed in Boost 1.62, 1.81 and 1.82. Name the client's Boost release (e.g. 1.74, 1.81 or 1.85), or use Murmur3_32Hash in every client",
        )
    }
}

impl core::error::Error for BoostHashNotReproducible {}

/// Go's `internal.JavaStringHash(s)`: `h = 31*h + uint32(s[i])` over the
/// bytes of the string, in `uint32`, with no mask.
///
/// It equals Java's `String.hashCode()` bit pattern for ASCII keys, but Go
/// reduces the **unmasked** value, so for ASCII keys Go and Java agree on
/// the partition only when bit 31 is clear or `n` is a power of two.
///
/// ```
/// use pulsar_routing::profiles::go_java_string_hash;
/// assert_eq!(go_java_string_hash(b"k2"), 3367);
/// ```
#[must_use]
pub const fn go_java_string_hash(key: &[u8]) -> u32 {
    let mut h = 0u32;
    let mut i = 0;
    while i < key.len() {
        h = h.wrapping_mul(31).wrapping_add(key[i] as u32);
        i += 1;
    }
    h
}

/// C++'s `JavaStringHash::makeHash(std::string)`: `hash = 31*hash + val[i]`
/// over the bytes as `char` in `uint32_t`, then `& INT32_MAX`. With a
/// signed `char` a byte >= 0x80 adds `byte - 256`.
///
/// ```
/// use pulsar_routing::profiles::{CharSignedness, cpp_java_string_hash};
/// assert_eq!(cpp_java_string_hash("é".as_bytes(), CharSignedness::Signed), 0x7fff_f846);
/// assert_eq!(cpp_java_string_hash("é".as_bytes(), CharSignedness::Unsigned), 6214);
/// ```
#[must_use]
pub const fn cpp_java_string_hash(key: &[u8], char_signedness: CharSignedness) -> u32 {
    let mut h = 0u32;
    let mut i = 0;
    while i < key.len() {
        let value = match char_signedness {
            // Sign-extend, as the `char` to `uint32_t` conversion does.
            CharSignedness::Signed => key[i] as i8 as i32 as u32,
            CharSignedness::Unsigned => key[i] as u32,
        };
        h = h.wrapping_mul(31).wrapping_add(value);
        i += 1;
    }
    h & POSITIVE_MASK
}

/// Boost 1.33 to 1.61: the classic `hash_combine`,
/// `seed ^= c + 0x9e3779b9 + (seed << 6) + (seed >> 2)`, over each `char`
/// widened to `size_t`, from seed 0.
const fn boost_hash_1_33_raw(key: &[u8], char_signedness: CharSignedness) -> u64 {
    let mut seed = 0u64;
    let mut i = 0;
    while i < key.len() {
        let c = char_as_size_t(key[i], char_signedness);
        seed ^= c
            .wrapping_add(0x9e37_79b9)
            .wrapping_add(seed << 6)
            .wrapping_add(seed >> 2);
        i += 1;
    }
    seed
}

/// `static_cast<std::size_t>(char)`: sign-extended where `char` is signed.
const fn char_as_size_t(byte: u8, char_signedness: CharSignedness) -> u64 {
    match char_signedness {
        CharSignedness::Signed => byte as i8 as i64 as u64,
        CharSignedness::Unsigned => byte as u64,
    }
}

/// Boost 1.62 to 1.80: each `char` (widened to `size_t`) folded from seed 0
/// with the 64-bit `hash_combine_impl`
/// (`k *= m; k ^= k >> 47; k *= m; h ^= k; h *= m; h += 0xe6546b64`).
const fn boost_hash_1_62_raw(key: &[u8], char_signedness: CharSignedness) -> u64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    let mut h = 0u64;
    let mut i = 0;
    while i < key.len() {
        let mut k = char_as_size_t(key[i], char_signedness);
        k = k.wrapping_mul(M);
        k ^= k >> 47;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
        h = h.wrapping_add(0xe654_6b64);
        i += 1;
    }
    h
}

/// Boost 1.81's 64-bit `hash_mix`.
const fn hash_mix_1_81(mut x: u64) -> u64 {
    const M: u64 = 0x0e98_46af_9b1a_615d;
    x ^= x >> 32;
    x = x.wrapping_mul(M);
    x ^= x >> 32;
    x = x.wrapping_mul(M);
    x ^= x >> 28;
    x
}

/// Up to 4 bytes of `key` from `at`, little-endian, in the low bits.
const fn read_le(key: &[u8], at: usize, len: usize) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < len && at + i < key.len() {
        v |= (key[at + i] as u64) << (8 * i);
        i += 1;
    }
    v
}

/// Boost 1.81: the bytes as little-endian 4-byte words, then a last word
/// holding the 0 to 3 remaining bytes followed by a `0x01` byte, each
/// folded with `seed = hash_mix(seed + 0x9e3779b9 + word)` from seed 0.
const fn boost_hash_1_81_raw(key: &[u8]) -> u64 {
    let mut seed = 0u64;
    let mut at = 0;
    while key.len() - at >= 4 {
        seed = hash_mix_1_81(
            seed.wrapping_add(0x9e37_79b9)
                .wrapping_add(read_le(key, at, 4)),
        );
        at += 4;
    }
    let rest = key.len() - at;
    let last = read_le(key, at, rest) | (1u64 << (8 * rest));
    hash_mix_1_81(seed.wrapping_add(0x9e37_79b9).wrapping_add(last))
}

/// The 64×64 to 128-bit product, its two halves xored.
const fn mulx(x: u64, y: u64) -> u64 {
    let r = (x as u128).wrapping_mul(y as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// Boost 1.82 and later: `mulxp1` from seed 0. The length is mixed in
/// first; 8-byte little-endian words are folded with a running `w += q`;
/// the 0 to 7 remaining bytes make one more word (4 to 7 bytes: two
/// overlapping 4-byte reads; 1 to 3: the first, middle and last byte).
const fn boost_hash_1_82_raw(key: &[u8]) -> u64 {
    const Q: u64 = 0x9e37_79b9_7f4a_7c15;
    const K: u64 = 0xdf44_2d22_ce48_59b9;
    let n = key.len();
    let mut w = mulx(Q, K);
    let mut h = w ^ (n as u64);
    let mut at = 0;
    while n - at >= 8 {
        let v = read_le(key, at, 4) | (read_le(key, at + 4, 4) << 32);
        w = w.wrapping_add(Q);
        h ^= mulx(v.wrapping_add(w), K);
        at += 8;
    }
    let rest = n - at;
    let v = if rest >= 4 {
        (read_le(key, at + rest - 4, 4) << ((rest - 4) * 8)) | read_le(key, at, 4)
    } else if rest >= 1 {
        let x1 = (rest - 1) & 2;
        let x2 = rest >> 1;
        (read_le(key, at + x1, 1) << (x1 * 8))
            | (read_le(key, at + x2, 1) << (x2 * 8))
            | read_le(key, at, 1)
    } else {
        0
    };
    w = w.wrapping_add(Q);
    h ^= mulx(v.wrapping_add(w), K);
    mulx(h.wrapping_add(w), K)
}

/// Boost 1.62 to 1.80's `boost::hash<std::string>` on x86-64 (signed
/// `char`), all 64 bits: [`BoostHashGeneration::Boost1_62`], under the name
/// earlier releases of this crate gave it.
#[must_use]
pub const fn boost_hash_1_74_x86_64_raw(key: &[u8]) -> u64 {
    boost_hash_1_62_raw(key, CharSignedness::Signed)
}

/// C++'s `BoostHash::makeHash` for a build with Boost 1.62 to 1.80 on
/// x86-64: the low 31 bits of [`boost_hash_1_74_x86_64_raw`].
///
/// ```
/// assert_eq!(pulsar_routing::profiles::boost_hash_1_74_x86_64(b"a"), 1424956863);
/// ```
#[must_use]
pub const fn boost_hash_1_74_x86_64(key: &[u8]) -> u32 {
    (boost_hash_1_74_x86_64_raw(key) as u32) & POSITIVE_MASK
}
