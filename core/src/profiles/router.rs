//! One router type for every profile, with one `route` call: keyed and
//! keyless routing together, with each client's state machine.

use super::config::{ProfileConfig, ProfileMode, ProfileSeed};
use super::cpp::{CppBatching, CppRoundRobinRouter, CppSinglePartitionRouter, cpp_producer_send};
use super::dotpulsar::DotPulsarRouter;
use super::error::{ProfileConfigError, ProfileRouteError};
use super::go::{GoBatching, GoDefaultRouter, GoSinglePartitionRouter};
use super::java::JavaProfileRouter;
use super::keying::{ProfileKeying, java_scheme_of, pulsar_rs_policy};
use super::message::ProfileMessage;
use super::profile::ClientProfile;
use super::pulsar_rs::PulsarRsRouter;
use super::python::PythonRouter;
use crate::partition_count::PartitionCount;
use crate::router::{RoundRobinRouter, RouteError, SinglePartitionRouter, partition_switch_ms};

const NANOS_PER_MILLI: i64 = 1_000_000;

/// A Go producer's router.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoRouter {
    /// `NewDefaultRouter`.
    Default(GoDefaultRouter),
    /// `NewSinglePartitionRouter`.
    SinglePartition(GoSinglePartitionRouter),
}

/// A C++ producer's router.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CppRouter {
    /// `RoundRobinMessageRouter` (the default since 2025-10).
    RoundRobin(CppRoundRobinRouter),
    /// `SinglePartitionMessageRouter`.
    SinglePartition(CppSinglePartitionRouter),
}

/// The router of one producer of any client, with its state.
///
/// Built from a [`ClientProfile`], a [`ProfileConfig`] and the random
/// choices of a [`ProfileSeed`], it routes every message as that client
/// would: keyed messages through [`ProfileKeying`], keyless ones through
/// the client's round-robin or single-partition state machine. Time is an
/// argument, in Unix epoch nanoseconds; each client reads it at its own
/// precision (Java and C++ milliseconds, rounded down, Go nanoseconds). A
/// clock beyond ±292 years of the epoch does not fit: drive
/// [`JavaProfileRouter`] or [`CppRoundRobinRouter`] in milliseconds for
/// that.
///
/// Like the clients, the answer is what the producer does with the
/// router's choice: C++ and Python apply `PartitionedProducerImpl`'s
/// `short` cast, Go its `% n` of an out-of-range answer.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{ClientProfile, ProfileConfig, ProfileMessage, ProfileRouter, ProfileSeed};
/// let n = PartitionCount::new(4)?;
/// let seed = ProfileSeed { start: 1, created_ns: 0 };
/// let mut routers = ClientProfile::ALL.map(|p| {
///     ProfileRouter::new(p, &ProfileConfig::client_default(p), seed).unwrap()
/// });
/// // A keyless message: every client picks some partition in [0, 4).
/// for router in &mut routers {
///     assert!(router.route(&ProfileMessage::keyless(100), n, 5_000_000)? < 4);
/// }
/// // A keyed one under the defaults: C++ (BoostHash of an unnamed Boost)
/// // cannot be predicted; Python is the current wheel's Boost 1.82+.
/// assert!(routers[2].route(&ProfileMessage::keyed("user-42"), n, 0).is_err());
/// let boost_1_82 = pulsar_routing::profiles::KeyHash::CppBoostHash1_82.hash_str("user-42")?;
/// assert_eq!(routers[3].route(&ProfileMessage::keyed("user-42"), n, 0)?, boost_1_82 % 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub enum ProfileRouter {
    /// A Java producer.
    Java(JavaProfileRouter),
    /// A Go producer.
    Go(GoRouter),
    /// A C++ producer.
    Cpp(CppRouter),
    /// A Python producer.
    Python(PythonRouter),
    /// A pulsar-rs producer.
    PulsarRs(PulsarRsRouter),
    /// A DotPulsar producer.
    DotPulsar(DotPulsarRouter),
}

impl ProfileRouter {
    /// The router a producer of `profile` builds for `config`, starting
    /// from `seed`.
    ///
    /// # Errors
    /// [`ProfileConfigError`] for a scheme the client lacks, or Java's
    /// batching delay and switch-frequency checks.
    pub fn new(
        profile: ClientProfile,
        config: &ProfileConfig,
        seed: ProfileSeed,
    ) -> Result<Self, ProfileConfigError> {
        let keying = ProfileKeying::new(profile, config)?;
        let hash = keying.hash();
        let single = matches!(config.mode, ProfileMode::SinglePartition);
        let batching = config.batching;
        Ok(match profile {
            ClientProfile::Java => {
                // The builder checks both settings whether batching is on or
                // not; Java holds the delay in microseconds.
                let switch_ms = partition_switch_ms(
                    batching.partition_switch_frequency,
                    batching.max_publish_delay_ns / 1000,
                )?;
                let scheme = java_scheme_of(hash);
                // Java draws `nextInt(n)`, an int.
                let start = seed.start as i32;
                Self::Java(if single {
                    JavaProfileRouter::SinglePartition(SinglePartitionRouter::new(scheme, start))
                } else {
                    JavaProfileRouter::RoundRobin(RoundRobinRouter::new(
                        scheme,
                        start,
                        batching.enabled,
                        switch_ms,
                    ))
                })
            }
            ClientProfile::Go => Self::Go(if single {
                GoRouter::SinglePartition(GoSinglePartitionRouter::new(seed.start))
            } else {
                // The Go producer replaces unset (zero) options with its
                // defaults before it builds the router.
                let go_batching = batching.enabled.then(|| {
                    GoBatching::from_options(
                        u64::from(batching.max_messages),
                        u64::from(batching.max_bytes),
                        batching.max_publish_delay_ns,
                    )
                });
                GoRouter::Default(GoDefaultRouter::new(
                    java_scheme_of(hash),
                    go_batching,
                    seed.start,
                    seed.created_ns,
                ))
            }),
            ClientProfile::Cpp | ClientProfile::Python => {
                let router = if single {
                    CppRouter::SinglePartition(CppSinglePartitionRouter::new(
                        hash,
                        seed.start as i32,
                    ))
                } else {
                    let cpp_batching = batching.enabled.then_some(CppBatching {
                        max_messages: batching.max_messages,
                        max_bytes: batching.max_bytes,
                        max_delay_ms: batching.max_publish_delay_ns / NANOS_PER_MILLI,
                    });
                    let router = CppRoundRobinRouter::new(
                        hash,
                        cpp_batching,
                        seed.start,
                        seed.created_ns.div_euclid(NANOS_PER_MILLI),
                    );
                    CppRouter::RoundRobin(if config.lazy_start {
                        router.with_lazy_start()
                    } else {
                        router
                    })
                };
                match (profile, router) {
                    (ClientProfile::Python, CppRouter::RoundRobin(r)) => {
                        Self::Python(PythonRouter::RoundRobin(r))
                    }
                    (ClientProfile::Python, CppRouter::SinglePartition(r)) => {
                        Self::Python(PythonRouter::SinglePartition(r))
                    }
                    _ => Self::Cpp(router),
                }
            }
            ClientProfile::PulsarRs => Self::PulsarRs(PulsarRsRouter::new(
                pulsar_rs_policy(config.mode),
                seed.start,
            )),
            ClientProfile::DotPulsar => Self::DotPulsar(if single {
                DotPulsarRouter::SinglePartition {
                    partition: seed.start as i32,
                }
            } else {
                DotPulsarRouter::round_robin()
            }),
        })
    }

    /// The client.
    #[must_use]
    pub const fn profile(&self) -> ClientProfile {
        match self {
            Self::Java(_) => ClientProfile::Java,
            Self::Go(_) => ClientProfile::Go,
            Self::Cpp(_) => ClientProfile::Cpp,
            Self::Python(_) => ClientProfile::Python,
            Self::PulsarRs(_) => ClientProfile::PulsarRs,
            Self::DotPulsar(_) => ClientProfile::DotPulsar,
        }
    }

    /// Routes `message` on a topic with `num_partitions` partitions at
    /// `now_ns` (Unix epoch nanoseconds).
    ///
    /// # Errors
    /// [`ProfileRouteError`]: a key the client cannot hash reproducibly or
    /// cannot take, or a partition the producer rejects.
    pub fn route(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
        now_ns: i64,
    ) -> Result<u32, ProfileRouteError> {
        let now_ms = now_ns.div_euclid(NANOS_PER_MILLI);
        match self {
            Self::Java(router) => router.route(message, num_partitions, now_ms).map_err(
                |RouteError::IllegalPartitionIndex(partition)| {
                    ProfileRouteError::IllegalPartition {
                        profile: ClientProfile::Java,
                        partition,
                    }
                },
            ),
            Self::Go(GoRouter::Default(router)) => {
                Ok(router.choose_partition(message, num_partitions, now_ns))
            }
            Self::Go(GoRouter::SinglePartition(router)) => {
                Ok(router.choose_partition(message, num_partitions))
            }
            Self::Cpp(router) => {
                let key = message.key.bytes();
                let partition = match router {
                    CppRouter::RoundRobin(r) => {
                        r.choose_partition(key, message.payload_len, num_partitions, now_ms)? as i32
                    }
                    CppRouter::SinglePartition(r) => r.choose_partition(key, num_partitions)?,
                };
                cpp_producer_send(ClientProfile::Cpp, partition, num_partitions)
            }
            Self::Python(router) => router.route(message, num_partitions, now_ms),
            Self::PulsarRs(router) => router.route(message, num_partitions),
            Self::DotPulsar(router) => router.route(message, num_partitions),
        }
    }
}
