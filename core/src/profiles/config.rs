//! A producer's routing settings, in the terms every client shares, with
//! each client's defaults.

use core::fmt;
use core::str::FromStr;

use super::hash::{BoostHashGeneration, CharSignedness};
use super::profile::ClientProfile;

/// A hashing scheme as a client's producer configuration names it. What it
/// computes depends on the client (see [`KeyHash`](super::KeyHash)):
/// `JavaStringHash` is a different function in Java, Go and C++.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientHashingScheme {
    /// `JavaStringHash` (the default of Java and Go).
    JavaStringHash,
    /// `Murmur3_32Hash`: the only scheme Java, Go and C++ agree on.
    Murmur3_32Hash,
    /// `BoostHash` (the default of C++ and Python).
    BoostHash,
}

impl ClientHashingScheme {
    /// Every scheme.
    pub const ALL: [Self; 3] = [Self::JavaStringHash, Self::Murmur3_32Hash, Self::BoostHash];

    /// The short name: `"java_string"`, `"murmur3_32"` or `"boost"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`ClientHashingScheme::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::JavaStringHash => c"java_string",
            Self::Murmur3_32Hash => c"murmur3_32",
            Self::BoostHash => c"boost",
        }
    }
}

impl fmt::Display for ClientHashingScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ClientHashingScheme {
    type Err = UnknownClientHashingScheme;

    /// Accepts the short names and the clients' enum constant names
    /// (`JavaStringHash`, `Murmur3_32Hash`, `BoostHash`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "java_string" | "JavaStringHash" => Ok(Self::JavaStringHash),
            "murmur3_32" | "Murmur3_32Hash" => Ok(Self::Murmur3_32Hash),
            "boost" | "BoostHash" => Ok(Self::BoostHash),
            _ => Err(UnknownClientHashingScheme),
        }
    }
}

/// The text did not name a [`ClientHashingScheme`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownClientHashingScheme;

impl fmt::Display for UnknownClientHashingScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown hashing scheme: expected \"java_string\", \"murmur3_32\" or \"boost\"")
    }
}

impl core::error::Error for UnknownClientHashingScheme {}

/// Which router a producer uses for its partitioned topic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProfileMode {
    /// What the client does when nothing is configured: round robin in
    /// every client, except pulsar-rs, whose unset `routing_policy`
    /// round-robins **ignoring keys**. (C++ before 2025-10, and Python
    /// wheels bundling it, defaulted to the single-partition router: set
    /// [`ProfileMode::SinglePartition`] to model them.)
    #[default]
    ClientDefault,
    /// The round-robin router (keys by hash, keyless messages spread).
    RoundRobin,
    /// The single-partition router (keys by hash, keyless messages to one
    /// partition; pulsar-rs sends keyed messages there too).
    SinglePartition,
}

impl ProfileMode {
    /// Every mode.
    pub const ALL: [Self; 3] = [Self::ClientDefault, Self::RoundRobin, Self::SinglePartition];

    /// The short name: `"default"`, `"round_robin"` or `"single_partition"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::ClientDefault => "default",
            Self::RoundRobin => "round_robin",
            Self::SinglePartition => "single_partition",
        }
    }
}

impl fmt::Display for ProfileMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProfileMode {
    type Err = UnknownProfileMode;

    /// Accepts [`ProfileMode::name`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or(UnknownProfileMode)
    }
}

/// The text did not name a [`ProfileMode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownProfileMode;

impl fmt::Display for UnknownProfileMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown routing mode: expected \"default\", \"round_robin\" or \"single_partition\"",
        )
    }
}

impl core::error::Error for UnknownProfileMode {}

/// The producer's batching settings, which the batching-aware keyless
/// routers of Java, Go and C++ read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchingConfig {
    /// Whether batching is enabled.
    pub enabled: bool,
    /// `batchingMaxMessages` (Go, C++ switch partition after this many).
    pub max_messages: u32,
    /// `batchingMaxBytes` / `BatchingMaxSize` /
    /// `batchingMaxAllowedSizeInBytes`.
    pub max_bytes: u32,
    /// `batchingMaxPublishDelay`, in nanoseconds. Java reads it in
    /// microseconds, C++ in milliseconds (each truncating).
    pub max_publish_delay_ns: i64,
    /// Java's `roundRobinRouterBatchingPartitionSwitchFrequency`: the
    /// keyless partition switches every `frequency × delay`.
    pub partition_switch_frequency: i32,
}

impl BatchingConfig {
    /// The Java producer's defaults: on, 1000 messages, 128 KiB, 1 ms,
    /// switching every 10 delays (10 ms).
    pub const JAVA: Self = Self {
        enabled: true,
        max_messages: 1000,
        max_bytes: 128 * 1024,
        max_publish_delay_ns: 1_000_000,
        partition_switch_frequency: 10,
    };

    /// The Go and C++ producers' defaults: on, 1000 messages, 128 KiB,
    /// 10 ms.
    pub const GO_CPP: Self = Self {
        enabled: true,
        max_messages: 1000,
        max_bytes: 128 * 1024,
        max_publish_delay_ns: 10_000_000,
        partition_switch_frequency: 10,
    };

    /// The Python producer's defaults: as C++, but batching **off**
    /// (`create_producer(batching_enabled=False)`).
    pub const PYTHON: Self = Self {
        enabled: false,
        ..Self::GO_CPP
    };

    /// No batching (pulsar-rs and DotPulsar route without looking at it).
    pub const DISABLED: Self = Self {
        enabled: false,
        ..Self::GO_CPP
    };
}

/// How a producer of some client is configured for routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProfileConfig {
    /// The hashing scheme option (Python: `BoostHash`, or the Murmur3
    /// escape hatch; pulsar-rs and DotPulsar: `Murmur3_32Hash` only).
    pub scheme: ClientHashingScheme,
    /// The routing mode.
    pub mode: ProfileMode,
    /// Batching.
    pub batching: BatchingConfig,
    /// C++ and Python: the platform's `char` signedness, for
    /// `JavaStringHash` and the per-`char` Boost generations.
    pub char_signedness: CharSignedness,
    /// C++ and Python: the generation of the Boost the client was built
    /// with, for `BoostHash`. `None` is the client's default: unknown for
    /// C++ (whose builds vary, so keyed `BoostHash` routing is refused) and
    /// [`BoostHashGeneration::PYTHON_WHEEL`] for Python.
    pub boost: Option<BoostHashGeneration>,
    /// C++'s `lazyStartPartitionedProducers` (Python:
    /// `lazy_start_partitioned_producers`), off by default: the producer
    /// routes a start message that shifts keyless round robin (see
    /// [`CppRoundRobinRouter::with_lazy_start`](super::CppRoundRobinRouter::with_lazy_start)).
    pub lazy_start: bool,
}

impl ProfileConfig {
    /// What a producer of `profile` uses when nothing is configured.
    ///
    /// ```
    /// use pulsar_routing::profiles::{ClientHashingScheme, ClientProfile, ProfileConfig};
    /// assert_eq!(ProfileConfig::client_default(ClientProfile::Go).scheme, ClientHashingScheme::JavaStringHash);
    /// assert_eq!(ProfileConfig::client_default(ClientProfile::Python).scheme, ClientHashingScheme::BoostHash);
    /// assert!(!ProfileConfig::client_default(ClientProfile::Python).batching.enabled);
    /// ```
    #[must_use]
    pub const fn client_default(profile: ClientProfile) -> Self {
        let (scheme, batching) = match profile {
            ClientProfile::Java => (ClientHashingScheme::JavaStringHash, BatchingConfig::JAVA),
            ClientProfile::Go => (ClientHashingScheme::JavaStringHash, BatchingConfig::GO_CPP),
            ClientProfile::Cpp => (ClientHashingScheme::BoostHash, BatchingConfig::GO_CPP),
            ClientProfile::Python => (ClientHashingScheme::BoostHash, BatchingConfig::PYTHON),
            ClientProfile::PulsarRs | ClientProfile::DotPulsar => (
                ClientHashingScheme::Murmur3_32Hash,
                BatchingConfig::DISABLED,
            ),
        };
        Self {
            scheme,
            mode: ProfileMode::ClientDefault,
            batching,
            char_signedness: CharSignedness::Signed,
            boost: None,
            lazy_start: false,
        }
    }

    /// The same configuration with another hashing scheme.
    #[must_use]
    pub const fn with_scheme(self, scheme: ClientHashingScheme) -> Self {
        Self { scheme, ..self }
    }

    /// The same configuration with the Boost generation the client was
    /// built with.
    #[must_use]
    pub const fn with_boost(self, boost: BoostHashGeneration) -> Self {
        Self {
            boost: Some(boost),
            ..self
        }
    }

    /// The same configuration with another routing mode.
    #[must_use]
    pub const fn with_mode(self, mode: ProfileMode) -> Self {
        Self { mode, ..self }
    }

    /// The same configuration with batching switched on or off.
    #[must_use]
    pub const fn with_batching_enabled(self, enabled: bool) -> Self {
        let mut batching = self.batching;
        batching.enabled = enabled;
        Self { batching, ..self }
    }
}

/// The random choices and the creation time a producer's router starts
/// from. The clients draw them from their own random sources and clocks;
/// here they are given, so that any run can be replayed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProfileSeed {
    /// The router's random start:
    ///
    /// | client | round robin | single partition |
    /// |---|---|---|
    /// | Java | `startPtnIdx`, `nextInt(n)` (as `i32`) | the partition, `nextInt(n)` |
    /// | Go | the cursor, `rand.Uint32()` | the partition, `Intn(n)` (one per process) |
    /// | C++, Python | the cursor, uniform in `[0, INT_MAX]` | the partition, `default_random_engine(now)() % n` |
    /// | pulsar-rs | the last used index, in `[0, n)` | the partition |
    /// | DotPulsar | unused: the counter starts at -1 | the partition, `Random.Next(0, n)` |
    pub start: u32,
    /// When the producer was created, in Unix epoch nanoseconds (Go's and
    /// C++'s batching routers start their delay from it).
    pub created_ns: i64,
}
