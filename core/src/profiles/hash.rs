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

/// Which `boost::hash<std::string>` a C++ (or Python) client was built
/// with. `BoostHash` is not portable: Boost 1.81 changed string hashing and
/// the result depends on the width of `size_t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoostVersion {
    /// Not known: keyed routing with `BoostHash` fails with
    /// [`BoostHashNotReproducible`] rather than guess.
    #[default]
    Unknown,
    /// Boost 1.74 on x86-64 (64-bit `size_t`), e.g. Debian 12's
    /// `libboost-dev`: `hash_range` folding each `char` with the 64-bit
    /// MurmurHash2-style `hash_combine`. Checked against the golden
    /// `cpp_boost_hash_boost1_74_x86_64` field.
    Boost1_74X86_64,
}

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
    /// C++ `BoostHash` built with Boost 1.74 on x86-64.
    CppBoostHash1_74X86_64,
    /// pulsar-rs and DotPulsar: MurmurHash3 x86_32, seed 0, **not** masked.
    Murmur3_32Unmasked,
}

impl KeyHash {
    /// Every variant.
    pub const ALL: [Self; 8] = [
        Self::JavaStringHash,
        Self::Murmur3_32,
        Self::GoJavaStringHash,
        Self::CppJavaStringHash,
        Self::CppJavaStringHashUnsignedChar,
        Self::CppBoostHash,
        Self::CppBoostHash1_74X86_64,
        Self::Murmur3_32Unmasked,
    ];

    /// The short name used by the C and Python APIs, e.g.
    /// `"go_java_string"` or `"cpp_boost_1_74_x86_64"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::JavaStringHash => "java_string",
            Self::Murmur3_32 => "murmur3_32",
            Self::GoJavaStringHash => "go_java_string",
            Self::CppJavaStringHash => "cpp_java_string",
            Self::CppJavaStringHashUnsignedChar => "cpp_java_string_unsigned_char",
            Self::CppBoostHash => "cpp_boost",
            Self::CppBoostHash1_74X86_64 => "cpp_boost_1_74_x86_64",
            Self::Murmur3_32Unmasked => "murmur3_32_unmasked",
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
            Self::CppBoostHash1_74X86_64 => boost_hash_1_74_x86_64(key),
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

    /// Accepts the names of [`KeyHash::name`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
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
            "unknown key hash: expected java_string, murmur3_32, go_java_string, cpp_java_string, cpp_java_string_unsigned_char, cpp_boost, cpp_boost_1_74_x86_64 or murmur3_32_unmasked",
        )
    }
}

impl core::error::Error for UnknownKeyHash {}

/// Keyed routing with C++'s `BoostHash` was asked for, for a build whose
/// Boost version is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoostHashNotReproducible;

impl fmt::Display for BoostHashNotReproducible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "BoostHash, the default hashing scheme of the C++ and Python clients, cannot be reproduced portably: boost::hash<std::string> changed in Boost 1.81 and depends on the width of size_t. Use Murmur3_32Hash in every client, or the version-pinned cpp_boost_1_74_x86_64 if the client was built with Boost 1.74 on x86-64",
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

/// Boost 1.74's `boost::hash<std::string>` on x86-64, all 64 bits:
/// `hash_range` starting from seed 0, folding each `char` (sign-extended
/// to `size_t`, `hash_value(char)`) with the 64-bit `hash_combine_impl`
/// (`k *= m; k ^= k >> 47; k *= m; h ^= k; h *= m; h += 0xe6546b64`).
#[must_use]
pub const fn boost_hash_1_74_x86_64_raw(key: &[u8]) -> u64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    let mut h = 0u64;
    let mut i = 0;
    while i < key.len() {
        let mut k = key[i] as i8 as i64 as u64;
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

/// C++'s `BoostHash::makeHash` for a build with Boost 1.74 on x86-64: the
/// low 31 bits of [`boost_hash_1_74_x86_64_raw`].
///
/// ```
/// assert_eq!(pulsar_routing::profiles::boost_hash_1_74_x86_64(b"a"), 1424956863);
/// ```
#[must_use]
pub const fn boost_hash_1_74_x86_64(key: &[u8]) -> u32 {
    (boost_hash_1_74_x86_64_raw(key) as u32) & POSITIVE_MASK
}
