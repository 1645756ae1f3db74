//! Keyed routing per profile, without any router state: which key field
//! wins, how the empty key is treated, the hash, the mask and the modulo.

use super::config::{ClientHashingScheme, ProfileConfig, ProfileMode};
use super::cpp::cpp_keyed_partition;
use super::dotpulsar::dotpulsar_keyed_partition;
use super::error::{ProfileConfigError, ProfileRouteError};
use super::go::go_keyed_partition;
use super::hash::{BoostHashGeneration, CharSignedness, KeyHash};
use super::java::java_keyed_partition;
use super::message::ProfileMessage;
use super::profile::ClientProfile;
use super::pulsar_rs::{PulsarRsRoutingPolicy, pulsar_rs_keyed_partition};
use super::python::python_keyed_partition;
use crate::partition_count::PartitionCount;
use crate::routing_key::HashingScheme;

/// The C++ `JavaStringHash` for a platform.
const fn cpp_java_string_hash(signedness: CharSignedness) -> KeyHash {
    match signedness {
        CharSignedness::Signed => KeyHash::CppJavaStringHash,
        CharSignedness::Unsigned => KeyHash::CppJavaStringHashUnsignedChar,
    }
}

/// The C++ `BoostHash` of a client's Boost build; a Python client without
/// one is the current wheel.
const fn cpp_boost_hash(profile: ClientProfile, config: &ProfileConfig) -> KeyHash {
    match (config.boost, profile) {
        (Some(generation), _) => KeyHash::cpp_boost(generation, config.char_signedness),
        (None, ClientProfile::Python) => {
            KeyHash::cpp_boost(BoostHashGeneration::PYTHON_WHEEL, config.char_signedness)
        }
        (None, _) => KeyHash::CppBoostHash,
    }
}

/// The Java scheme a Java or Go key hash stands for.
pub(crate) const fn java_scheme_of(hash: KeyHash) -> HashingScheme {
    match hash {
        KeyHash::Murmur3_32 => HashingScheme::Murmur3_32Hash,
        _ => HashingScheme::JavaStringHash,
    }
}

/// The pulsar-rs policy for a profile mode.
pub(crate) const fn pulsar_rs_policy(mode: ProfileMode) -> PulsarRsRoutingPolicy {
    match mode {
        ProfileMode::ClientDefault => PulsarRsRoutingPolicy::Unset,
        ProfileMode::RoundRobin => PulsarRsRoutingPolicy::RoundRobin,
        ProfileMode::SinglePartition => PulsarRsRoutingPolicy::Single,
    }
}

/// Resolves the exact key hash a client computes for a configuration.
const fn resolve_hash(
    profile: ClientProfile,
    config: &ProfileConfig,
) -> Result<KeyHash, ProfileConfigError> {
    use ClientHashingScheme as S;
    use ClientProfile as P;
    let unsupported = Err(ProfileConfigError::UnsupportedScheme {
        profile,
        scheme: config.scheme,
    });
    let hash = match (profile, config.scheme) {
        (P::Java, S::JavaStringHash) => KeyHash::JavaStringHash,
        (P::Java | P::Go | P::Cpp | P::Python, S::Murmur3_32Hash) => {
            // Go's single-partition router ignores the scheme.
            if matches!(profile, P::Go) && matches!(config.mode, ProfileMode::SinglePartition) {
                KeyHash::GoJavaStringHash
            } else {
                KeyHash::Murmur3_32
            }
        }
        (P::Go, S::JavaStringHash) => KeyHash::GoJavaStringHash,
        (P::Cpp, S::JavaStringHash) => cpp_java_string_hash(config.char_signedness),
        (P::Cpp | P::Python, S::BoostHash) => cpp_boost_hash(profile, config),
        (P::PulsarRs | P::DotPulsar, S::Murmur3_32Hash) => KeyHash::Murmur3_32Unmasked,
        _ => return unsupported,
    };
    let cpp_build = matches!(profile, P::Cpp | P::Python);
    if !cpp_build && matches!(config.char_signedness, CharSignedness::Unsigned) {
        return Err(ProfileConfigError::UnsupportedOption {
            profile,
            option: "unsigned_char",
        });
    }
    if !cpp_build && config.boost.is_some() {
        return Err(ProfileConfigError::UnsupportedOption {
            profile,
            option: "boost",
        });
    }
    if !cpp_build && config.lazy_start {
        return Err(ProfileConfigError::UnsupportedOption {
            profile,
            option: "lazy_start",
        });
    }
    // `setBatchingMaxMessages` throws whether or not batching is on.
    if cpp_build && config.batching.max_messages <= 1 {
        return Err(ProfileConfigError::CppBatchingMaxMessages {
            profile,
            max_messages: config.batching.max_messages,
        });
    }
    Ok(hash)
}

/// A client's keyed routing, resolved from its configuration: a small
/// `Copy` value that answers "which partition does this client send this
/// keyed message to?" without any router state, for comparing clients.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{ClientProfile, ProfileConfig, ProfileKeying, ProfileMessage};
/// let n = PartitionCount::new(3)?;
/// let keying = |p| ProfileKeying::new(p, &ProfileConfig::client_default(p)).unwrap();
/// // hashCode("polygenelubricants") is Integer.MIN_VALUE: Java masks it to 0, Go does not.
/// let msg = ProfileMessage::keyed("polygenelubricants");
/// assert_eq!(keying(ClientProfile::Java).partition(&msg, n), Ok(Some(0)));
/// assert_eq!(keying(ClientProfile::Go).partition(&msg, n), Ok(Some(2)));
/// // Go treats the empty key as no key; Java hashes it.
/// assert_eq!(keying(ClientProfile::Go).partition(&ProfileMessage::keyed(""), n), Ok(None));
/// assert_eq!(keying(ClientProfile::Java).partition(&ProfileMessage::keyed(""), n), Ok(Some(0)));
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProfileKeying {
    profile: ClientProfile,
    mode: ProfileMode,
    hash: KeyHash,
}

impl ProfileKeying {
    /// The keyed routing of `profile` configured with `config`.
    ///
    /// # Errors
    /// [`ProfileConfigError::UnsupportedScheme`] when the client has no
    /// such scheme (Python cannot choose one, pulsar-rs and DotPulsar only
    /// have Murmur3); [`ProfileConfigError::UnsupportedOption`] for an
    /// unsigned `char` or a Boost generation outside C++ and Python;
    /// [`ProfileConfigError::CppBatchingMaxMessages`] for C++ and Python
    /// with `batchingMaxMessages` below 2.
    pub const fn new(
        profile: ClientProfile,
        config: &ProfileConfig,
    ) -> Result<Self, ProfileConfigError> {
        match resolve_hash(profile, config) {
            Ok(hash) => Ok(Self {
                profile,
                mode: config.mode,
                hash,
            }),
            Err(e) => Err(e),
        }
    }

    /// The client.
    #[must_use]
    pub const fn profile(&self) -> ClientProfile {
        self.profile
    }

    /// The routing mode.
    #[must_use]
    pub const fn mode(&self) -> ProfileMode {
        self.mode
    }

    /// The exact hash applied to keys (pulsar-rs under its default policy
    /// reports Murmur3 but applies it to no message).
    #[must_use]
    pub const fn hash(&self) -> KeyHash {
        self.hash
    }

    /// The partition the client sends `message` to if it routes it by key,
    /// or `Ok(None)` if it routes it as a keyless message.
    ///
    /// # Errors
    /// [`ProfileRouteError::BoostHashNotReproducible`] for a key under an
    /// unknown `BoostHash`, [`ProfileRouteError::BytesKeyUnsupported`] for a
    /// binary key the client cannot take.
    pub fn partition(
        &self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
    ) -> Result<Option<u32>, ProfileRouteError> {
        match self.profile {
            ClientProfile::Java => Ok(java_keyed_partition(
                message,
                java_scheme_of(self.hash),
                num_partitions,
            )),
            ClientProfile::Go => Ok(go_keyed_partition(
                message,
                java_scheme_of(self.hash),
                num_partitions,
            )),
            ClientProfile::Cpp => cpp_keyed_partition(message, self.hash, num_partitions),
            ClientProfile::Python => python_keyed_partition(message, self.hash, num_partitions),
            ClientProfile::PulsarRs => {
                pulsar_rs_keyed_partition(message, pulsar_rs_policy(self.mode), num_partitions)
            }
            ClientProfile::DotPulsar => Ok(dotpulsar_keyed_partition(message, num_partitions)),
        }
    }
}
