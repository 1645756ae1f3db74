//! What every Pulsar client does with a message's key: the client profiles
//! of the core (`java`, `go`, `cpp`, `python`, `pulsar-rs`, `dotpulsar`),
//! their exact key hashes, and the clients' own readings of a topic name's
//! partition index.
//!
//! Keyed routing is here, one call at a time; every client's keyless state
//! machine (Go's and C++'s batching-aware routers among them) is the
//! `pulsar_routing_profile_router` handle of `router.rs`.

pub mod router;

use core::ffi::{CStr, c_char};

use pulsar_routing_core::profiles::{
    BoostHashGeneration, BoostHashGeneration as Boost, ClientHashingScheme,
    ClientHashingScheme as Scheme, ClientProfile, KeyHash, ProfileConfig, ProfileKey,
    ProfileKeying, ProfileMessage, ProfileMode, cpp_partition_index, cpp_producer_send, go_atoi,
    go_partition_index,
};
use pulsar_routing_core::{PartitionCount, RoutingKey};
use pulsar_routing_owned::profiles::{char_signedness, scheme_of_name};

use crate::error::{enum_from_c, enum_name, enum_to_c, name_from_c, pulsar_routing_status};
use crate::ffi::Out;
use crate::kafka::optional_slice;
use crate::routing_key::{PULSAR_ROUTING_KEY_KIND_UTF16, pulsar_routing_key};

/// A Pulsar client library: one of the `PULSAR_ROUTING_CLIENT_PROFILE_*`
/// values.
pub type pulsar_routing_client_profile = u32;

/// The Java client: the reference.
pub const PULSAR_ROUTING_CLIENT_PROFILE_JAVA: pulsar_routing_client_profile = 0;
/// apache/pulsar-client-go.
pub const PULSAR_ROUTING_CLIENT_PROFILE_GO: pulsar_routing_client_profile = 1;
/// apache/pulsar-client-cpp (and the C API over it), on a platform where
/// `char` is signed (x86-64).
pub const PULSAR_ROUTING_CLIENT_PROFILE_CPP: pulsar_routing_client_profile = 2;
/// apache/pulsar-client-python, which wraps the C++ client.
pub const PULSAR_ROUTING_CLIENT_PROFILE_PYTHON: pulsar_routing_client_profile = 3;
/// streamnative/pulsar-rs (crate `pulsar`).
pub const PULSAR_ROUTING_CLIENT_PROFILE_PULSAR_RS: pulsar_routing_client_profile = 4;
/// apache/pulsar-dotpulsar (.NET).
pub const PULSAR_ROUTING_CLIENT_PROFILE_DOTPULSAR: pulsar_routing_client_profile = 5;

/// A hashing scheme as a client's producer configuration names it: one of
/// the `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_*` values. What it computes
/// depends on the client: `JavaStringHash` is a different function in
/// Java, Go and C++.
pub type pulsar_routing_client_hashing_scheme = u32;

/// `JavaStringHash` (the default of Java and Go).
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_JAVA_STRING: pulsar_routing_client_hashing_scheme =
    0;
/// `Murmur3_32Hash`: the only scheme Java, Go and C++ agree on (the only
/// one of pulsar-rs and DotPulsar, which do not mask it).
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_MURMUR3_32: pulsar_routing_client_hashing_scheme = 1;
/// `BoostHash` of the client's default Boost (the default scheme of C++
/// and Python): for C++, whose builds vary, keyed routing with it gives
/// `BOOST_HASH_NOT_REPRODUCIBLE`; for Python it is the current
/// `pulsar-client` wheel's (`BOOST_1_82`).
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST: pulsar_routing_client_hashing_scheme = 2;
/// `BoostHash` of a client built with Boost 1.62 to 1.80 (e.g. Debian 12's
/// 1.74, the C++ client's own packages up to 3.4, `pulsar-client` wheels up
/// to 3.5); `char_unsigned` selects the ARM variant.
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62: pulsar_routing_client_hashing_scheme = 3;
/// The earlier name of `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62`.
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_74_X86_64:
    pulsar_routing_client_hashing_scheme = 3;
/// `BoostHash` of a client built with Boost 1.33 to 1.61; `char_unsigned`
/// selects the ARM variant.
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33: pulsar_routing_client_hashing_scheme = 4;
/// `BoostHash` of a client built with Boost 1.81 (e.g. Debian 12's
/// `libboost1.81-dev`).
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_81: pulsar_routing_client_hashing_scheme = 5;
/// `BoostHash` of a client built with Boost 1.82 or later (the C++ client's
/// packages from 3.5, `pulsar-client` wheels from 3.6).
pub const PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_82: pulsar_routing_client_hashing_scheme = 6;

/// Which router a producer uses: one of the `PULSAR_ROUTING_PROFILE_MODE_*`
/// values.
pub type pulsar_routing_profile_mode = u32;

/// What the client does when nothing is configured: round robin, except
/// pulsar-rs, whose unset `routing_policy` ignores keys.
pub const PULSAR_ROUTING_PROFILE_MODE_DEFAULT: pulsar_routing_profile_mode = 0;
/// The round-robin router.
pub const PULSAR_ROUTING_PROFILE_MODE_ROUND_ROBIN: pulsar_routing_profile_mode = 1;
/// The single-partition router (Go's always hashes with its
/// JavaStringHash; pulsar-rs sends keyed messages to its one partition,
/// so they have no keyed partition).
pub const PULSAR_ROUTING_PROFILE_MODE_SINGLE_PARTITION: pulsar_routing_profile_mode = 2;

/// An exact key hash, as some client computes it: one of the
/// `PULSAR_ROUTING_PROFILE_HASH_*` values.
pub type pulsar_routing_profile_hash = u32;

/// Java's `JavaStringHash`: UTF-16 `hashCode & 0x7fffffff`; bytes are
/// decoded as Java's `new String(bytes, UTF_8)` does.
pub const PULSAR_ROUTING_PROFILE_HASH_JAVA_STRING: pulsar_routing_profile_hash = 0;
/// MurmurHash3 x86_32, seed 0, masked to 31 bits (Java, Go, C++).
pub const PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32: pulsar_routing_profile_hash = 1;
/// Go's `JavaStringHash`: over the UTF-8 bytes, **not** masked.
pub const PULSAR_ROUTING_PROFILE_HASH_GO_JAVA_STRING: pulsar_routing_profile_hash = 2;
/// C++'s `JavaStringHash` with signed `char` (x86-64).
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING: pulsar_routing_profile_hash = 3;
/// C++'s `JavaStringHash` with unsigned `char` (e.g. AArch64 Linux).
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_JAVA_STRING_UNSIGNED_CHAR: pulsar_routing_profile_hash =
    4;
/// C++'s `BoostHash` of an unknown build: gives
/// `BOOST_HASH_NOT_REPRODUCIBLE`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST: pulsar_routing_profile_hash = 5;
/// C++'s `BoostHash` built with Boost 1.62 to 1.80, signed `char`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62: pulsar_routing_profile_hash = 6;
/// The earlier name of `PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_74_X86_64: pulsar_routing_profile_hash = 6;
/// pulsar-rs and DotPulsar: MurmurHash3 x86_32, seed 0, **not** masked.
pub const PULSAR_ROUTING_PROFILE_HASH_MURMUR3_32_UNMASKED: pulsar_routing_profile_hash = 7;
/// C++'s `BoostHash` built with Boost 1.62 to 1.80, unsigned `char`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62_UNSIGNED_CHAR: pulsar_routing_profile_hash = 8;
/// C++'s `BoostHash` built with Boost 1.33 to 1.61, signed `char`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_33: pulsar_routing_profile_hash = 9;
/// C++'s `BoostHash` built with Boost 1.33 to 1.61, unsigned `char`.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_33_UNSIGNED_CHAR: pulsar_routing_profile_hash =
    10;
/// C++'s `BoostHash` built with Boost 1.81.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_81: pulsar_routing_profile_hash = 11;
/// C++'s `BoostHash` built with Boost 1.82 or later.
pub const PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_82: pulsar_routing_profile_hash = 12;

pub(crate) fn profile_from_c(
    profile: pulsar_routing_client_profile,
) -> Result<ClientProfile, pulsar_routing_status> {
    let unknown = pulsar_routing_status::UnknownClientProfile;
    enum_from_c(&ClientProfile::ALL, profile, unknown)
}

/// What a producer of a C profile uses when nothing is configured.
pub(crate) fn default_config(
    profile: pulsar_routing_client_profile,
) -> Result<ProfileConfig, pulsar_routing_status> {
    profile_from_c(profile).map(ProfileConfig::client_default)
}

pub(crate) fn profile_to_c(profile: ClientProfile) -> pulsar_routing_client_profile {
    enum_to_c(&ClientProfile::ALL, profile)
}

/// What each C scheme value (its position) stands for: the core scheme,
/// the Boost generation it pins, and its name.
const SCHEMES: [(ClientHashingScheme, Option<BoostHashGeneration>, &CStr); 7] = [
    (
        Scheme::JavaStringHash,
        None,
        Scheme::JavaStringHash.c_name(),
    ),
    (
        Scheme::Murmur3_32Hash,
        None,
        Scheme::Murmur3_32Hash.c_name(),
    ),
    (Scheme::BoostHash, None, Scheme::BoostHash.c_name()),
    (Scheme::BoostHash, Some(Boost::Boost1_62), c"boost_1_62"),
    (Scheme::BoostHash, Some(Boost::Boost1_33), c"boost_1_33"),
    (Scheme::BoostHash, Some(Boost::Boost1_81), c"boost_1_81"),
    (Scheme::BoostHash, Some(Boost::Boost1_82), c"boost_1_82"),
];

/// The core scheme and Boost generation of a C scheme value.
pub(crate) fn scheme_from_c(
    scheme: pulsar_routing_client_hashing_scheme,
) -> Result<(ClientHashingScheme, Option<BoostHashGeneration>), pulsar_routing_status> {
    let unknown = pulsar_routing_status::UnknownClientHashingScheme;
    enum_from_c(&SCHEMES, scheme, unknown).map(|(scheme, boost, _)| (scheme, boost))
}

/// The C scheme value of a core scheme and Boost generation (which only
/// `BoostHash` reads).
pub(crate) fn scheme_to_c(
    scheme: ClientHashingScheme,
    boost: Option<BoostHashGeneration>,
) -> pulsar_routing_client_hashing_scheme {
    let boost = boost.filter(|_| scheme == Scheme::BoostHash);
    enum_to_c(&SCHEMES.map(|(s, b, _)| (s, b)), (scheme, boost))
}

pub(crate) fn mode_from_c(
    mode: pulsar_routing_profile_mode,
) -> Result<ProfileMode, pulsar_routing_status> {
    let unknown = pulsar_routing_status::UnknownProfileMode;
    enum_from_c(&ProfileMode::ALL, mode, unknown)
}

fn hash_from_c(hash: pulsar_routing_profile_hash) -> Result<KeyHash, pulsar_routing_status> {
    let unknown = pulsar_routing_status::UnknownProfileHash;
    enum_from_c(&KeyHash::ALL, hash, unknown)
}

pub(crate) fn hash_to_c(hash: KeyHash) -> pulsar_routing_profile_hash {
    enum_to_c(&KeyHash::ALL, hash)
}

/// Writes the partition a producer of `profile` configured with `config`
/// sends the keyed `message` to, or returns `NO_KEY` where the client
/// routes it as a keyless one.
pub(crate) fn keyed_partition(
    profile: ClientProfile,
    config: &ProfileConfig,
    message: &ProfileMessage<'_>,
    num_partitions: i64,
    out: Out<'_, u32>,
) -> pulsar_routing_status {
    let n = try_ok!(PartitionCount::from_i64(num_partitions));
    let keying = try_ok!(ProfileKeying::new(profile, config));
    let Some(partition) = try_ok!(keying.partition(message, n)) else {
        return pulsar_routing_status::NoKey;
    };
    out.ok(partition)
}

/// The profile message of a C key and ordering key (NULL: none, with a
/// length of 0), or the status of the first bad argument: a NULL pointer
/// first, then an unknown or unsupported key kind, then bad UTF-8.
///
/// # Safety
/// `key.data` is as `pulsar_routing_key` describes, and a non-NULL
/// `ordering_key` points to `ordering_key_len` readable bytes, both valid
/// and unchanged for `'a`.
pub(crate) unsafe fn message_from_c<'a>(
    key: pulsar_routing_key,
    ordering_key: *const u8,
    ordering_key_len: usize,
    payload_len: u64,
) -> Result<ProfileMessage<'a>, pulsar_routing_status> {
    // SAFETY: this function's contract on `ordering_key`.
    let ordering_key = unsafe { optional_slice(ordering_key, ordering_key_len) }?;
    if key.kind == PULSAR_ROUTING_KEY_KIND_UTF16 {
        return Err(pulsar_routing_status::ProfileKeyKindUnsupported);
    }
    // SAFETY: this function's contract on `key.data`.
    let key = match unsafe { key.to_core() }? {
        RoutingKey::None => ProfileKey::None,
        RoutingKey::Key(text) => ProfileKey::Str(text),
        RoutingKey::KeyBytes(bytes) => ProfileKey::Bytes(bytes),
        _ => return Err(pulsar_routing_status::ProfileKeyKindUnsupported),
    };
    Ok(ProfileMessage {
        key,
        ordering_key,
        payload_len,
    })
}

/// Parses a client profile name: `"java"`, `"go"`, `"cpp"`, `"python"`,
/// `"pulsar-rs"` (or `"pulsar_rs"`) or `"dotpulsar"`.
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `profile_out`: receives the profile on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_CLIENT_PROFILE` (also for
/// bytes that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `profile_out` must be
/// valid for writing a `pulsar_routing_client_profile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_client_profile_from_name(
    name: *const u8,
    len: usize,
    profile_out: *mut pulsar_routing_client_profile,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let unknown = pulsar_routing_status::UnknownClientProfile;
        // SAFETY: this function's contract is the helper's.
        unsafe { name_from_c(name, len, profile_out, unknown, |n| n.parse().map(profile_to_c)) }
    }
}

/// The name of a client profile (`"java"`, `"go"`, `"cpp"`, `"python"`,
/// `"pulsar-rs"` or `"dotpulsar"`) as a static NUL-terminated string; NULL
/// for an unknown value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_client_profile_name(
    profile: pulsar_routing_client_profile,
) -> *const c_char {
    ffi_panic_boundary! {
        enum_name(&ClientProfile::ALL, profile, ClientProfile::c_name)
    }
}

/// The hashing scheme a producer of `profile` uses when none is
/// configured: `JAVA_STRING` for Java and Go, `BOOST` for C++ and Python,
/// `MURMUR3_32` for pulsar-rs and DotPulsar.
///
/// - `scheme_out`: receives the scheme on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_CLIENT_PROFILE`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `scheme_out` must be valid for writing a
/// `pulsar_routing_client_hashing_scheme`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_client_profile_default_scheme(
    profile: pulsar_routing_client_profile,
    scheme_out: *mut pulsar_routing_client_hashing_scheme,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(scheme_out);
        let config = try_ok!(default_config(profile));
        out.ok(scheme_to_c(config.scheme, config.boost))
    }
}

/// Parses a client hashing scheme name: `"java_string"`, `"murmur3_32"`,
/// `"boost"`, `"boost_1_N"` for the `BoostHash` of Boost release 1.N from
/// 1.33 to 1.91 (e.g. `"boost_1_74"` gives `BOOST_1_62`, `"boost_1_85"`
/// gives `BOOST_1_82`), `"boost_1_74_x86_64"` (an earlier name of
/// `BOOST_1_62`), or the clients' enum constant names `"JavaStringHash"`,
/// `"Murmur3_32Hash"` and `"BoostHash"`.
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `scheme_out`: receives the scheme on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_CLIENT_HASHING_SCHEME` (also
/// for bytes that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `scheme_out` must be valid
/// for writing a `pulsar_routing_client_hashing_scheme`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_client_hashing_scheme_from_name(
    name: *const u8,
    len: usize,
    scheme_out: *mut pulsar_routing_client_hashing_scheme,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let unknown = pulsar_routing_status::UnknownClientHashingScheme;
        let parse = |name: &str| scheme_of_name(name).map(|(s, boost)| scheme_to_c(s, boost));
        // SAFETY: this function's contract is the helper's.
        unsafe { name_from_c(name, len, scheme_out, unknown, parse) }
    }
}

/// The short name of a client hashing scheme (`"java_string"`,
/// `"murmur3_32"`, `"boost"`, `"boost_1_33"`, `"boost_1_62"`,
/// `"boost_1_81"` or `"boost_1_82"`) as a static
/// NUL-terminated string; NULL for an unknown value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_client_hashing_scheme_name(
    scheme: pulsar_routing_client_hashing_scheme,
) -> *const c_char {
    ffi_panic_boundary! {
        enum_name(&SCHEMES, scheme, |(_, _, name)| name)
    }
}

/// Parses a key hash name, e.g. `"go_java_string"` or `"cpp_boost_1_82"`
/// (the names `pulsar_routing_profile_hash_name` gives; also
/// `"cpp_boost_1_74_x86_64"`, an earlier name of `"cpp_boost_1_62"`).
///
/// - `name`, `len`: the name's bytes, without a NUL terminator; `name` must
///   not be NULL, even when `len` is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `UNKNOWN_PROFILE_HASH` (also for bytes
/// that are not UTF-8). Thread-safe; allocates nothing.
///
/// # Safety
/// `name` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `pulsar_routing_profile_hash`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_hash_from_name(
    name: *const u8,
    len: usize,
    hash_out: *mut pulsar_routing_profile_hash,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let unknown = pulsar_routing_status::UnknownProfileHash;
        // SAFETY: this function's contract is the helper's.
        unsafe { name_from_c(name, len, hash_out, unknown, |n| n.parse().map(hash_to_c)) }
    }
}

/// The name of a key hash, e.g. `"go_java_string"`, as a static
/// NUL-terminated string; NULL for an unknown value.
///
/// The string is static: never free or modify it. Thread-safe; allocates
/// nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_profile_hash_name(
    hash: pulsar_routing_profile_hash,
) -> *const c_char {
    ffi_panic_boundary! {
        enum_name(&KeyHash::ALL, hash, KeyHash::c_name)
    }
}

/// Hashes key bytes with an exact client key hash (the value before the
/// client's modulo; the unmasked hashes may exceed `0x7fffffff`).
///
/// - `key`, `len`: the key's bytes (a string key's UTF-8); `key` must not
///   be NULL, even when `len` is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `UNKNOWN_PROFILE_HASH` or
/// `BOOST_HASH_NOT_REPRODUCIBLE` (for `PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST`).
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_hash_bytes(
    hash: pulsar_routing_profile_hash,
    key: *const u8,
    len: usize,
    hash_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(hash_out);
        let hash = try_ok!(hash_from_c(hash));
        out.ok(try_ok!(hash.hash_bytes(key)))
    }
}

/// The partition a client sends a keyed message to, as that client's
/// producer computes it with the given scheme and routing mode (its
/// defaults otherwise: batching as the client ships it, signed `char`
/// for C++ and Python). `pulsar_routing_profile_keying_partition` takes a
/// whole `pulsar_routing_profile_config` instead (unsigned `char` among
/// its settings), and `pulsar_routing_profile_router` routes keyless
/// messages too.
///
/// - `profile`: a `PULSAR_ROUTING_CLIENT_PROFILE_*` value.
/// - `scheme`: a `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_*` value; see
///   `pulsar_routing_client_profile_default_scheme` for each client's.
/// - `mode`: a `PULSAR_ROUTING_PROFILE_MODE_*` value.
/// - `key`: the partition key (NONE, STRING or BYTES; see
///   `pulsar_routing_key`). A STRING key must be UTF-8.
/// - `ordering_key`, `ordering_key_len`: the message's ordering key, which
///   only Go routes by (before the key). **NULL means no ordering key**
///   (then `ordering_key_len` must be 0); a non-NULL pointer with length 0
///   is an empty ordering key.
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition on success.
///
/// Returns `OK`; `NO_KEY` when the client routes the message as a keyless
/// one (no key; an empty key in Go, Python and DotPulsar; any key under
/// pulsar-rs's default policy), which its keyless router places;
/// `NULL_PARAMETER` (`partition_out`, a key's `data`, or a NULL
/// `ordering_key` with a non-zero length); `UNKNOWN_CLIENT_PROFILE`,
/// `UNKNOWN_CLIENT_HASHING_SCHEME`, `UNKNOWN_PROFILE_MODE`,
/// `UNKNOWN_KEY_KIND`, `PROFILE_KEY_KIND_UNSUPPORTED` (a UTF16 key),
/// `INVALID_UTF8`; `PROFILE_SCHEME_UNSUPPORTED` or
/// `PYTHON_SCHEME_NOT_SELECTABLE` (Python with any scheme but BoostHash
/// and Murmur3_32Hash, its escape hatch); `BOOST_HASH_NOT_REPRODUCIBLE`
/// (a key under `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST`);
/// `PROFILE_BYTES_KEY_UNSUPPORTED` (a BYTES key for Python or pulsar-rs);
/// `PROFILE_ILLEGAL_PARTITION` (C++ and Python above 32767 partitions: the
/// producer casts the partition to a 16-bit `short`, so `hash % n` of 83783
/// is sent to 18247 and a negative `short` fails the send, as
/// `pulsar_routing_profile_router_route` reports it too);
/// `PARTITION_COUNT_ZERO`, `PARTITION_COUNT_NEGATIVE`,
/// `PARTITION_COUNT_TOO_LARGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `key.data` must be as `pulsar_routing_key` describes, a non-NULL
/// `ordering_key` must point to `ordering_key_len` readable bytes, and
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_profile_partition(
    profile: pulsar_routing_client_profile,
    scheme: pulsar_routing_client_hashing_scheme,
    mode: pulsar_routing_profile_mode,
    key: pulsar_routing_key,
    ordering_key: *const u8,
    ordering_key_len: usize,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        // SAFETY: the caller's contract on `key.data` and `ordering_key`.
        let message = try_ok!(unsafe { message_from_c(key, ordering_key, ordering_key_len, 0) });
        let profile = try_ok!(profile_from_c(profile));
        let (scheme, boost) = try_ok!(scheme_from_c(scheme));
        let mode = try_ok!(mode_from_c(mode));
        let config = ProfileConfig {
            boost,
            ..ProfileConfig::client_default(profile).with_scheme(scheme).with_mode(mode)
        };
        keyed_partition(profile, &config, &message, num_partitions, out)
    }
}

/// The partition index pulsar-client-go reads from a topic name: -1
/// without `-partition-`, otherwise Go's `strconv.Atoi` of the text after
/// the last `-` (so `x-partition--1` gives 1, where Java gives -1).
///
/// - `topic`, `len`: the topic name's UTF-8 bytes, without a NUL
///   terminator; `topic` must not be NULL, even when `len` is 0.
/// - `index_out`: receives the index on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`, `GO_ATOI_SYNTAX` or
/// `GO_ATOI_RANGE` (Go's `ParseTopicName` fails). Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `topic` must point to `len` readable bytes and `index_out` must be valid
/// for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_go_partition_index(
    topic: *const u8,
    len: usize,
    index_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let topic = try_slice!(topic, len);
        let out = try_out!(index_out);
        let topic = try_utf8!(topic);
        out.ok(try_ok!(go_partition_index(topic)))
    }
}

/// The partition index pulsar-client-cpp reads from a topic's local name:
/// -1 without `-partition-`, otherwise `std::stoi` of the text after the
/// last `-`, or -1 when `stoi` throws (so `x-partition-5abc` gives 5 and
/// `x-partition-00` gives 0, where Java gives -1).
///
/// - `local_name`, `len`: the local name's UTF-8 bytes, without a NUL
///   terminator; `local_name` must not be NULL, even when `len` is 0.
/// - `index_out`: receives the index on success.
///
/// Returns `OK`, `NULL_PARAMETER` or `INVALID_UTF8`. Thread-safe;
/// allocates nothing.
///
/// # Safety
/// `local_name` must point to `len` readable bytes and `index_out` must be
/// valid for writing an `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_cpp_partition_index(
    local_name: *const u8,
    len: usize,
    index_out: *mut i32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let local_name = try_slice!(local_name, len);
        let out = try_out!(index_out);
        let local_name = try_utf8!(local_name);
        out.ok(cpp_partition_index(local_name))
    }
}

/// What pulsar-client-cpp's `PartitionedProducerImpl::sendAsync` does with
/// a router's answer: it casts it to `short` and fails the send unless that
/// is below `num_partitions`. Above 32767 partitions the cast truncates, so
/// an answer of 70000 is sent to partition 4464.
///
/// - `partition`: the router's answer (`int`).
/// - `num_partitions`: the topic's partition count, 1 to 2147483647.
/// - `partition_out`: receives the partition the message is sent to.
///
/// Returns `OK`, `NULL_PARAMETER`, `PARTITION_COUNT_ZERO`,
/// `PARTITION_COUNT_NEGATIVE`, `PARTITION_COUNT_TOO_LARGE` or
/// `PROFILE_ILLEGAL_PARTITION` (the send fails). Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `partition_out` must be valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_cpp_partitioned_producer_check(
    partition: i32,
    num_partitions: i64,
    partition_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(partition_out);
        let n = try_ok!(PartitionCount::from_i64(num_partitions));
        out.ok(try_ok!(cpp_producer_send(ClientProfile::Cpp, partition, n)))
    }
}

/// Boost 1.62 to 1.80's `boost::hash<std::string>` on x86-64, all 64 bits
/// (C++'s `BoostHash` is this value `& INT32_MAX`, see
/// `PULSAR_ROUTING_PROFILE_HASH_CPP_BOOST_1_62`); kept for existing callers
/// of this name, `pulsar_routing_boost_hash_raw` covers every generation.
///
/// - `key`, `len`: the key's bytes; `key` must not be NULL, even when `len`
///   is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_boost_hash_1_74_x86_64_raw(
    key: *const u8,
    len: usize,
    hash_out: *mut u64,
) -> pulsar_routing_status {
    // SAFETY: the same contract as this function's, passed on unchanged.
    unsafe {
        pulsar_routing_boost_hash_raw(
            PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62,
            false,
            key,
            len,
            hash_out,
        )
    }
}

/// `boost::hash<std::string>` of a Boost generation, all 64 bits (C++'s
/// `BoostHash` is this value `& INT32_MAX`).
///
/// - `scheme`: `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_33`, `_1_62`,
///   `_1_81` or `_1_82`.
/// - `char_unsigned`: true where the platform's `char` is unsigned (ARM);
///   only the generations before 1.81 read it.
/// - `key`, `len`: the key's bytes; `key` must not be NULL, even when `len`
///   is 0.
/// - `hash_out`: receives the hash on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `BOOST_HASH_NOT_REPRODUCIBLE` (for
/// `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST`, which names no
/// generation) or `UNKNOWN_CLIENT_HASHING_SCHEME` (any other value).
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `key` must point to `len` readable bytes and `hash_out` must be valid
/// for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_boost_hash_raw(
    scheme: pulsar_routing_client_hashing_scheme,
    char_unsigned: bool,
    key: *const u8,
    len: usize,
    hash_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let key = try_slice!(key, len);
        let out = try_out!(hash_out);
        let generation = match try_ok!(scheme_from_c(scheme)) {
            (ClientHashingScheme::BoostHash, Some(generation)) => generation,
            (ClientHashingScheme::BoostHash, None) => {
                return pulsar_routing_status::BoostHashNotReproducible;
            }
            _ => return pulsar_routing_status::UnknownClientHashingScheme,
        };
        out.ok(generation.hash_raw(key, char_signedness(char_unsigned)))
    }
}

/// Go's `strconv.Atoi`, as pulsar-client-go applies it to a topic's
/// partition suffix: an optional sign and decimal digits only, within
/// `int64`.
///
/// - `text`, `len`: the UTF-8 text, without a NUL terminator; `text` must
///   not be NULL, even when `len` is 0.
/// - `value_out`: receives the value on success.
///
/// Returns `OK`, `NULL_PARAMETER`, `INVALID_UTF8`, `GO_ATOI_SYNTAX` or
/// `GO_ATOI_RANGE`. Thread-safe; allocates nothing.
///
/// # Safety
/// `text` must point to `len` readable bytes and `value_out` must be valid
/// for writing an `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_go_atoi(
    text: *const u8,
    len: usize,
    value_out: *mut i64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let text = try_slice!(text, len);
        let out = try_out!(value_out);
        let text = try_utf8!(text);
        out.ok(try_ok!(go_atoi(text)))
    }
}
