//! Why a profile could not be configured or could not route a message.

use core::fmt;

use super::config::{ClientHashingScheme, ProfileMode};
use super::hash::BoostHashNotReproducible;
use super::profile::ClientProfile;
use crate::router::{RouteError, RoutingConfigError};

/// A routing configuration the client would not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProfileConfigError {
    /// The client has no such hashing scheme (or, for Python, cannot
    /// choose one).
    UnsupportedScheme {
        /// The client.
        profile: ClientProfile,
        /// The scheme asked for.
        scheme: ClientHashingScheme,
    },
    /// The client has no such routing mode.
    UnsupportedMode {
        /// The client.
        profile: ClientProfile,
        /// The mode asked for.
        mode: ProfileMode,
    },
    /// The Java builder's batching checks failed.
    Java(RoutingConfigError),
    /// An option only the `cpp` and `python` profiles take: the platform's
    /// `char` signedness (`"unsigned_char"`) and the Boost release
    /// (`"boost"`) describe C++ builds; `"lazy_start"` is modelled for the
    /// C++ client's routers only.
    UnsupportedOption {
        /// The client.
        profile: ClientProfile,
        /// The option's name.
        option: &'static str,
    },
    /// `batchingMaxMessages` of 0 or 1: C++'s
    /// `ProducerConfiguration::setBatchingMaxMessages` throws
    /// `std::invalid_argument` (Python's `create_producer`: `ValueError`).
    CppBatchingMaxMessages {
        /// The client (C++ or Python).
        profile: ClientProfile,
        /// The value asked for.
        max_messages: u32,
    },
}

impl fmt::Display for ProfileConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnsupportedScheme {
                profile: ClientProfile::Python,
                scheme,
            } => write!(
                f,
                "the Python client cannot choose a hashing scheme ({scheme} asked for): it always uses the C++ default BoostHash; the escape hatch is a message_router that routes keys with Murmur3_32Hash"
            ),
            Self::UnsupportedScheme { profile, scheme } => {
                write!(f, "the {profile} client has no {scheme} hashing scheme")
            }
            Self::UnsupportedMode { profile, mode } => {
                write!(f, "the {profile} client has no {mode} routing mode")
            }
            Self::Java(e) => fmt::Display::fmt(&e, f),
            Self::UnsupportedOption { profile, option } => write!(
                f,
                "the {profile} profile does not take the {option} option: only the cpp and python profiles do"
            ),
            // The C++ client's own wording.
            Self::CppBatchingMaxMessages { .. } => {
                f.write_str("batchingMaxMessages needs to be greater than 1")
            }
        }
    }
}

impl core::error::Error for ProfileConfigError {}

impl From<RoutingConfigError> for ProfileConfigError {
    fn from(e: RoutingConfigError) -> Self {
        Self::Java(e)
    }
}

/// Why a client would not route a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProfileRouteError {
    /// Keyed routing with `BoostHash` of an unknown Boost build.
    BoostHashNotReproducible,
    /// The client cannot be given a binary key (Python takes `str`,
    /// pulsar-rs `String`).
    BytesKeyUnsupported(ClientProfile),
    /// The router picked a partition the producer has no producer for, so
    /// the send fails.
    IllegalPartition {
        /// The client.
        profile: ClientProfile,
        /// The partition, as the client computed it.
        partition: i64,
    },
}

impl fmt::Display for ProfileRouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::BoostHashNotReproducible => fmt::Display::fmt(&BoostHashNotReproducible, f),
            Self::BytesKeyUnsupported(ClientProfile::Python) => {
                f.write_str("the Python client accepts only str partition keys, not bytes")
            }
            Self::BytesKeyUnsupported(profile) => write!(
                f,
                "the {profile} client takes partition keys as strings: a binary key cannot be set"
            ),
            Self::IllegalPartition {
                profile: ClientProfile::Java,
                partition,
            } => fmt::Display::fmt(&RouteError::IllegalPartitionIndex(partition), f),
            Self::IllegalPartition {
                profile: ClientProfile::Cpp | ClientProfile::Python,
                partition,
            } => write!(
                f,
                "Got Invalid Partition for message from Router Policy, Partition - {partition}"
            ),
            Self::IllegalPartition { profile, partition } => write!(
                f,
                "the {profile} router chose partition {partition}, for which the producer has no partition producer"
            ),
        }
    }
}

impl core::error::Error for ProfileRouteError {}

impl From<BoostHashNotReproducible> for ProfileRouteError {
    fn from(_: BoostHashNotReproducible) -> Self {
        Self::BoostHashNotReproducible
    }
}
