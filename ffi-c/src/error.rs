//! The status code every fallible function returns, and its message.

use core::ffi::{CStr, c_char};

use pulsar_routing_core::bundles::{BoundErrorKind, BundleError};
use pulsar_routing_core::kafka::{KafkaError, Murmur2LengthMismatch, UnknownLibrdkafkaPartitioner};
use pulsar_routing_core::key_shared::{
    AssignError, ConfigError, InvalidBase64, KeySharedPolicyError, UnknownSelectorKind,
};
use pulsar_routing_core::profiles::{
    BoostHashNotReproducible, ClientProfile, GoAtoiError, GoAtoiErrorKind, ProfileConfigError,
    ProfileRouteError, UnknownClientHashingScheme, UnknownClientProfile, UnknownKeyHash,
    UnknownProfileMode,
};
use pulsar_routing_core::{
    DivisionByZero, PartitionCountError, RouteError, RoutingConfigError, TopicNameError,
    UnknownHashingScheme,
};

/// The result of every fallible function: `PULSAR_ROUTING_STATUS_OK` (0) on
/// success, otherwise the reason for the failure.
///
/// The type is a `uint32_t` in C. Codes are grouped by source in ranges of
/// 100 (1-99: use of the API; 100-199: arithmetic; 200-299: routing;
/// 300-399: producer configuration; 400-499: topic names; 500-599:
/// namespace bundles; 600-699: Key_Shared subscriptions; 700-799: client
/// profiles and Kafka partitioners; 800-899: topic lookup; 900-999: the
/// Kafka sender readiness gate and the Pulsar producer's pending queue)
/// and a code is never reused for another meaning.
/// `pulsar_routing_status_message` gives the text of each.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum pulsar_routing_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullParameter = 1,
    /// A Rust panic was caught at the API boundary: a bug in this library.
    /// Objects passed to the failed call are left in an unspecified state.
    Panic = 2,
    /// A key or text given as bytes (a topic name, a bundle range) is not
    /// valid UTF-8. A Java key is a String, so it always is; use
    /// `PULSAR_ROUTING_KEY_KIND_BYTES` for binary keys.
    InvalidUtf8 = 3,
    /// Not one of the `PULSAR_ROUTING_HASHING_SCHEME_*` values, or not the
    /// name of a hashing scheme.
    UnknownHashingScheme = 4,
    /// The `kind` of a `pulsar_routing_key` is not one of the
    /// `PULSAR_ROUTING_KEY_KIND_*` values.
    UnknownKeyKind = 5,
    /// Not one of the `PULSAR_ROUTING_MESSAGE_ROUTING_MODE_*` values.
    UnknownRoutingMode = 6,
    /// The output buffer is too short. This is the one failure that writes an
    /// out-parameter: the required length goes to `*written`.
    BufferTooSmall = 7,
    /// The key is `PULSAR_ROUTING_KEY_KIND_NONE`: a keyless message has no
    /// hash and no partition of its own (a router places it).
    NoKey = 8,
    /// A pointer to `uint16_t` units (a `PULSAR_ROUTING_KEY_KIND_UTF16`
    /// key's `data`) is not aligned for `uint16_t`.
    MisalignedPointer = 9,
    /// Not one of the `PULSAR_ROUTING_TOPIC_NAME_RULES_*` values.
    UnknownTopicNameRules = 10,
    /// Not one of the `PULSAR_ROUTING_SELECTOR_KIND_*` values, or not the
    /// name of a selector kind.
    UnknownSelectorKind = 11,
    /// Not one of the `PULSAR_ROUTING_EXCLUSIVE_MODE_*` values.
    UnknownExclusiveMode = 12,
    /// The function does not apply to this kind of Key_Shared selector
    /// (e.g. declared ranges for a consistent-hashing selector).
    WrongSelectorKind = 13,
    /// The memory a selector needs could not be allocated. The selector, if
    /// any, is unchanged.
    OutOfMemory = 14,
    /// The partition count was 0.
    PartitionCountZero = 100,
    /// The partition count was negative.
    PartitionCountNegative = 101,
    /// The partition count was above 2147483647 (Java's `Integer.MAX_VALUE`).
    PartitionCountTooLarge = 102,
    /// The divisor of `pulsar_routing_sign_safe_mod` was 0.
    DivisionByZero = 103,
    /// The router chose a partition outside `0 <= p < num_partitions`,
    /// where the Java producer fails the send.
    IllegalPartitionIndex = 200,
    /// Routing mode `CustomPartition` without a custom router.
    CustomModeWithoutRouter = 300,
    /// A custom router with a routing mode other than `CustomPartition`.
    RouterWithoutCustomMode = 301,
    /// `roundRobinRouterBatchingPartitionSwitchFrequency` below 1.
    SwitchFrequencyTooSmall = 302,
    /// `batchingMaxPublishDelay` below 1 ms.
    BatchDelayTooSmall = 303,
    /// A name without `://` that is neither `<topic>` nor
    /// `<tenant>/<namespace>/<topic>`. Java's message quotes the name:
    /// `pulsar_routing_topic_name_error_message` writes it.
    TopicNameInvalidShortName = 400,
    /// The text before `://` is not a topic domain.
    TopicNameInvalidDomain = 401,
    /// The tenant, the cluster or the namespace of a topic name is empty.
    TopicNameInvalidNamespaceFormat = 402,
    /// A tenant, cluster or namespace with a character outside
    /// `[-=:.A-Za-z0-9_]`.
    TopicNameInvalidNamedEntity = 403,
    /// The local name of a topic is empty or only whitespace.
    TopicNameBlankLocalName = 404,
    /// A topic name with the wrong number of parts, or (master rules) an
    /// empty part.
    TopicNameInvalid = 405,
    /// Master rules: a V1 name, with a cluster.
    TopicNameV1Unsupported = 406,
    /// Master rules: a `segment://` name without its
    /// `/<hashStart>-<hashEnd>-<segmentId>` descriptor.
    TopicNameSegmentWithoutDescriptor = 407,
    /// Master rules: a `segment://` name with an invalid descriptor, also
    /// what asking for a partition of a segment gives.
    TopicNameInvalidSegmentDescriptor = 408,
    /// A namespace needs at least one bundle.
    NoBundles = 500,
    /// A bundle layout without boundaries.
    NoBoundaries = 501,
    /// A bundle layout with a single boundary.
    TooFewBoundaries = 502,
    /// A boundary smaller than the one before it.
    BoundariesNotSorted = 503,
    /// A boundary outside the 32-bit hash space.
    BoundaryOutOfRange = 504,
    /// The last boundary is not `0xffffffff`, or an earlier one is.
    UpperEndpointNotExclusive = 505,
    /// Two equal boundaries, or a bundle range with equal bounds.
    EmptyRange = 506,
    /// A bundle range whose lower bound is above its upper bound.
    InvalidRange = 507,
    /// No bundle owns the hash: it is below the first boundary, or (for the
    /// Java-strict lookup) it is `0xffffffff`, where the broker throws
    /// `IndexOutOfBoundsException`.
    NoBundleForHash = 508,
    /// A bundle range string without `_`.
    InvalidBundleRange = 509,
    /// A bundle range string with nothing before `_`.
    MissingLowerBound = 510,
    /// A bundle range string with nothing after `_`, like `0x00000000_`
    /// (Java throws `ArrayIndexOutOfBoundsException`).
    MissingUpperBound = 511,
    /// A bound of a bundle range string, or a boundary, is empty.
    BoundEmpty = 512,
    /// A bound with a sign after its radix prefix, as in `0x-1`.
    BoundSignInWrongPosition = 513,
    /// A bound that is not a number in its radix, or is outside the `long`
    /// range.
    BoundNotALong = 514,
    /// The bundle is not one of the layout's bundles (its lower bound is
    /// not a boundary).
    BundleNotFound = 515,
    /// The bundle's lower bound is a boundary of the layout, but its upper
    /// bound differs.
    InvalidUpperBoundary = 516,
    /// The bundle's bounds are at most 1 apart.
    CannotSplitFurther = 517,
    /// A split boundary is not strictly inside the bundle being split.
    SplitBoundaryOutsideBundle = 518,
    /// `specified_positions_divide` without positions.
    NoSplitPositions = 519,
    /// Splitting a bundle into zero parts.
    ZeroSplitParts = 520,
    /// Boundaries that do not start at `0x00000000` and end at `0xffffffff`
    /// (the admin API's `validateFullRange`).
    NotFullRange = 521,
    /// A bundle index not below the layout's number of bundles.
    BundleIndexOutOfRange = 522,
    /// No consumer owns the slot (an empty selector, a gap between sticky
    /// ranges, or a slot outside the selector's range). Not a failure of
    /// the call: the broker keeps such a message until a consumer owns it.
    NoConsumer = 600,
    /// The consumer is not in the selector.
    ConsumerNotFound = 601,
    /// An AutoSplit range size below 2 (Java's message says "greater than
    /// 2", but 2 is accepted).
    RangeSizeTooSmall = 610,
    /// An AutoSplit range size that is not a power of two.
    RangeSizeNotPowerOfTwo = 611,
    /// A key hash range that ends before it starts, such as a
    /// consistent-hashing `range_max` of 0 (Java's `Range.of(1, 0)`).
    RangeEndBeforeStart = 612,
    /// A key hash range outside `[0, 2147483647]`, or with more than
    /// 2147483647 slots.
    KeyHashRangeTooLarge = 613,
    /// A selector capacity that does not fit the selector's 32-bit handles
    /// or the address space.
    SelectorCapacityTooLarge = 614,
    /// A selector can only grow into a configuration with the same rules
    /// and capacities at least as large.
    CannotGrowInto = 615,
    /// A selector's storage is shorter than its configuration needs.
    StorageTooSmall = 616,
    /// AutoSplit: every range is down to one slot (Java's
    /// `ConsumerAssignException`; its message ends with the number of
    /// consumers, which `pulsar_routing_selector_last_error_message` writes).
    NoMoreRange = 620,
    /// Exclusive: the consumer sent no `KeySharedMeta` (declared ranges NULL).
    MissingKeySharedMeta = 621,
    /// Exclusive: the consumer declared no range.
    EmptyHashRanges = 622,
    /// Exclusive: a declared range with `start > end` (Java's message
    /// quotes it).
    HashRangeStartAfterEnd = 623,
    /// Exclusive, rules before PR #24730: a declared range with
    /// `start > end`; the old message does not quote it.
    LegacyHashRangeStartAfterEnd = 624,
    /// Exclusive: two of the consumer's own ranges overlap (Java's message
    /// quotes both).
    OwnHashRangesConflict = 625,
    /// Exclusive: a declared range overlaps a range of another consumer
    /// (Java's message names that consumer).
    HashRangeConflict = 626,
    /// The consumer id is already in the selector. The broker never adds
    /// one consumer twice; this library refuses instead of guessing.
    DuplicateConsumer = 627,
    /// Every consumer slot of the selector is in use:
    /// `pulsar_routing_selector_reserve` makes room.
    ConsumerCapacity = 628,
    /// Consistent hashing: no room for the consumer's name:
    /// `pulsar_routing_selector_reserve` makes room.
    NameCapacity = 629,
    /// Exclusive: no room for the consumer's ranges:
    /// `pulsar_routing_selector_reserve` makes room.
    RangeCapacity = 630,
    /// Client check of sticky ranges: a range with `end < start` (Java's
    /// `Range.of` throws).
    StickyRangeEndBeforeStart = 640,
    /// Client check of sticky ranges: no range.
    StickyRangesEmpty = 641,
    /// Client check of sticky ranges: a range outside `[0, 65535]` (Java's
    /// message quotes it).
    StickyRangeOutOfBounds = 642,
    /// Client check of sticky ranges: two ranges overlap (Java's message
    /// quotes both).
    StickyRangesOverlap = 643,
    /// A Base64 partition key of a single character, which Java's decoder
    /// rejects (the broker then hashes `NONE_KEY`).
    Base64TooShort = 650,
    /// A Base64 partition key with a byte outside the alphabet (Java's
    /// message quotes it).
    Base64IllegalCharacter = 651,
    /// A Base64 partition key with misplaced or missing padding.
    Base64WrongEndingUnit = 652,
    /// A Base64 partition key whose last unit is a single character.
    Base64NotEnoughBits = 653,
    /// A Base64 partition key with text after its padding (Java's message
    /// gives the index).
    Base64IncorrectEndingByte = 654,
    /// Not one of the `PULSAR_ROUTING_CLIENT_PROFILE_*` values, or not the
    /// name of a client profile.
    UnknownClientProfile = 700,
    /// Not one of the `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_*` values, or
    /// not the name of one.
    UnknownClientHashingScheme = 701,
    /// Not one of the `PULSAR_ROUTING_PROFILE_MODE_*` values.
    UnknownProfileMode = 702,
    /// Not one of the `PULSAR_ROUTING_PROFILE_HASH_*` values, or not the
    /// name of one.
    UnknownProfileHash = 703,
    /// The client has no such hashing scheme (pulsar-rs and DotPulsar have
    /// only Murmur3_32Hash, Java and Go no BoostHash).
    ProfileSchemeUnsupported = 704,
    /// The Python client cannot choose a hashing scheme: it always uses the
    /// C++ default, BoostHash.
    PythonSchemeNotSelectable = 705,
    /// Keyed routing with C++'s BoostHash of an unnamed Boost (C++'s
    /// default: its builds vary). Name the generation with
    /// `PULSAR_ROUTING_CLIENT_HASHING_SCHEME_BOOST_1_62` (or `_1_33`,
    /// `_1_81`, `_1_82`), or use Murmur3_32Hash.
    BoostHashNotReproducible = 706,
    /// The client cannot be given a binary key (Python takes `str`,
    /// pulsar-rs `String`).
    ProfileBytesKeyUnsupported = 707,
    /// The client's router picked a partition the producer has no producer
    /// for, so the client fails the send (e.g. C++ above 32767 partitions).
    ProfileIllegalPartition = 708,
    /// A key kind the client profiles do not take
    /// (`PULSAR_ROUTING_KEY_KIND_UTF16`).
    ProfileKeyKindUnsupported = 709,
    /// Go's `strconv.Atoi` failed on the partition suffix of a topic name:
    /// "invalid syntax".
    GoAtoiSyntax = 710,
    /// Go's `strconv.Atoi` failed on the partition suffix of a topic name:
    /// "value out of range".
    GoAtoiRange = 711,
    /// Not one of the `PULSAR_ROUTING_LIBRDKAFKA_PARTITIONER_*` values, or
    /// not the name of a librdkafka partitioner.
    UnknownLibrdkafkaPartitioner = 720,
    /// The librdkafka partitioner picks a random partition for this key
    /// (a NULL key, or an empty one for `consistent_random`, or always for
    /// `random`): not a failure, but there is no keyed partition.
    LibrdkafkaRandomPartition = 721,
    /// Kafka's `BuiltInPartitioner` was given a sticky batch size below 1
    /// (Java throws `IllegalArgumentException`).
    KafkaInvalidStickyBatchSize = 722,
    /// Partition load statistics with as many queue sizes as partition
    /// ids, and a length within them, were expected.
    KafkaLoadStatsShape = 723,
    /// The partition load statistics overflowed Java's `int`: their
    /// cumulative frequency total is not positive.
    KafkaCorruptLoadStats = 724,
    /// A partition id from the available partitions or the load statistics
    /// is not below the partition count.
    KafkaPartitionOutOfRange = 725,
    /// librdkafka's sticky partition is at or above the partition count
    /// (the topic shrank since it was drawn):
    /// `RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION`.
    LibrdkafkaUnknownPartition = 726,
    /// librdkafka has not drawn a sticky partition yet, because less than
    /// `sticky.partitioning.linger.ms` has passed since its clock's origin:
    /// the record waits on the unassigned partition.
    LibrdkafkaStickyPartitionUnassigned = 727,
    /// `sticky.partitioning.linger.ms` outside librdkafka's range
    /// `0..900000`.
    LibrdkafkaStickyLingerOutOfRange = 728,
    /// A streaming Kafka murmur2 hasher was fed a different number of bytes
    /// than announced (MurmurHash2 seeds with the total length).
    KafkaMurmur2LengthMismatch = 729,
    /// An option only the C++ and Python profiles take (`char_unsigned`, a
    /// Boost generation, `lazy_start`) given to another client.
    ProfileOptionUnsupported = 730,
    /// C++ and Python refuse `batchingMaxMessages` of 0 or 1 (C++'s
    /// `setBatchingMaxMessages` throws `std::invalid_argument`).
    CppBatchingMaxMessages = 731,
    // 800-899: topic lookup (the lookup drivers, the coalescing table and
    // the lookup throttle). 800 itself is not assigned.
    /// Not a `ServerError` code of `PulsarApi.proto` (0 to 25).
    UnknownServerError = 801,
    /// The broker failed the lookup with a `ServerError` (the action's
    /// `server_error`; `_error_message` gives the broker's message).
    LookupServerError = 802,
    /// The lookup response was `Failed`, or had no response type, without
    /// an error code (Java's "Empty lookup response").
    LookupEmptyResponse = 803,
    /// A `Connect` or `Redirect` response had no broker URL of the kind
    /// the client uses (TLS or not).
    LookupMissingBrokerUrl = 804,
    /// More redirects than `max_redirects` (Java's `LookupException`).
    LookupTooManyRedirects = 805,
    /// The lookup was redirected back to an address it already asked with
    /// the same authoritative flag (see `_chain_len` for the chain).
    LookupRedirectLoop = 806,
    /// A broker address is longer than the 320 bytes a lookup holds.
    LookupAddressTooLong = 807,
    /// The connection to the broker failed.
    LookupConnectionFailed = 808,
    /// A lookup request got no answer within the operation timeout.
    LookupRequestTimeout = 809,
    /// The connection's lookup throttle is full (Java's
    /// `TooManyRequestsException`).
    LookupTooManyRequests = 810,
    /// Partitioned metadata without auto-creation was asked of a broker
    /// without PIP-344, and the fallback is off.
    LookupFeatureNotSupported = 811,
    /// The lookup timeout passed before an answer.
    LookupDeadlineExceeded = 812,
    /// The coalescing table has no free slot for another lookup.
    LookupCoalescingTableFull = 813,
    /// A lookup in flight already has `UINT32_MAX` waiters.
    LookupTooManyWaiters = 814,
    /// The Go client's fixed limit of 20 lookup responses was reached.
    LookupGoRedirectLimit = 815,
    /// Not one of the `PULSAR_ROUTING_PARTITIONED_METADATA_EVENT_*` values.
    LookupUnknownEvent = 816,
    /// Not one of the `PULSAR_ROUTING_LOOKUP_PROFILE_*` values.
    UnknownLookupProfile = 817,
    /// A hop index at or past the redirect chain's length
    /// (`pulsar_routing_topic_lookup_chain_len`).
    LookupHopIndexOutOfRange = 818,
    /// `max.in.flight.requests.per.connection` below 1 (Kafka's
    /// `ConfigException`).
    SenderMaxInFlightTooSmall = 900,
    /// `enable.idempotence` with `max.in.flight.requests.per.connection`
    /// above 5 (Kafka's `ConfigException`).
    SenderMaxInFlightTooLargeForIdempotence = 901,
    /// The node id is not one of the sender gate's nodes.
    SenderUnknownNode = 902,
    /// A node id is listed twice for a sender gate.
    SenderDuplicateNode = 903,
    /// A produce request to a node that does not pass the readiness gate:
    /// nothing was sent (`pulsar_routing_sender_gate_check` says why).
    SenderNotReady = 904,
    /// A produce response from a node with no request in flight.
    SenderNoRequestInFlight = 905,
    /// A connection event that does not apply in the node's connection
    /// state; nothing changed.
    SenderInvalidTransition = 906,
    /// Not one of the `PULSAR_ROUTING_CONNECTION_EVENT_*`,
    /// `PULSAR_ROUTING_PRODUCE_OUTCOME_*`, `PULSAR_ROUTING_METADATA_EVENT_*`,
    /// `PULSAR_ROUTING_READINESS_*` or `PULSAR_ROUTING_CONNECTION_STATE_*`
    /// values.
    SenderUnknownValue = 907,
    /// A negative `maxPendingMessages` (Pulsar's producer builder refuses
    /// it).
    MaxPendingMessagesNegative = 910,
    /// The producer's pending queue is full and `blockIfQueueFull` is off:
    /// the send fails (Java's `ProducerQueueIsFullError`).
    ProducerQueueIsFull = 911,
    /// The producer's pending queue is full and `blockIfQueueFull` is on:
    /// the send would block until a pending message completes.
    ProducerQueueWouldBlock = 912,
}

impl pulsar_routing_status {
    /// Every status, for tests that walk them all. (A function, not a
    /// constant, so that cbindgen does not try to put it in the header.)
    pub const fn all() -> [Self; 138] {
        [
            Self::Ok,
            Self::NullParameter,
            Self::Panic,
            Self::InvalidUtf8,
            Self::UnknownHashingScheme,
            Self::UnknownKeyKind,
            Self::UnknownRoutingMode,
            Self::BufferTooSmall,
            Self::NoKey,
            Self::MisalignedPointer,
            Self::UnknownTopicNameRules,
            Self::UnknownSelectorKind,
            Self::UnknownExclusiveMode,
            Self::WrongSelectorKind,
            Self::OutOfMemory,
            Self::PartitionCountZero,
            Self::PartitionCountNegative,
            Self::PartitionCountTooLarge,
            Self::DivisionByZero,
            Self::IllegalPartitionIndex,
            Self::CustomModeWithoutRouter,
            Self::RouterWithoutCustomMode,
            Self::SwitchFrequencyTooSmall,
            Self::BatchDelayTooSmall,
            Self::TopicNameInvalidShortName,
            Self::TopicNameInvalidDomain,
            Self::TopicNameInvalidNamespaceFormat,
            Self::TopicNameInvalidNamedEntity,
            Self::TopicNameBlankLocalName,
            Self::TopicNameInvalid,
            Self::TopicNameV1Unsupported,
            Self::TopicNameSegmentWithoutDescriptor,
            Self::TopicNameInvalidSegmentDescriptor,
            Self::NoBundles,
            Self::NoBoundaries,
            Self::TooFewBoundaries,
            Self::BoundariesNotSorted,
            Self::BoundaryOutOfRange,
            Self::UpperEndpointNotExclusive,
            Self::EmptyRange,
            Self::InvalidRange,
            Self::NoBundleForHash,
            Self::InvalidBundleRange,
            Self::MissingLowerBound,
            Self::MissingUpperBound,
            Self::BoundEmpty,
            Self::BoundSignInWrongPosition,
            Self::BoundNotALong,
            Self::BundleNotFound,
            Self::InvalidUpperBoundary,
            Self::CannotSplitFurther,
            Self::SplitBoundaryOutsideBundle,
            Self::NoSplitPositions,
            Self::ZeroSplitParts,
            Self::NotFullRange,
            Self::BundleIndexOutOfRange,
            Self::NoConsumer,
            Self::ConsumerNotFound,
            Self::RangeSizeTooSmall,
            Self::RangeSizeNotPowerOfTwo,
            Self::RangeEndBeforeStart,
            Self::KeyHashRangeTooLarge,
            Self::SelectorCapacityTooLarge,
            Self::CannotGrowInto,
            Self::StorageTooSmall,
            Self::NoMoreRange,
            Self::MissingKeySharedMeta,
            Self::EmptyHashRanges,
            Self::HashRangeStartAfterEnd,
            Self::LegacyHashRangeStartAfterEnd,
            Self::OwnHashRangesConflict,
            Self::HashRangeConflict,
            Self::DuplicateConsumer,
            Self::ConsumerCapacity,
            Self::NameCapacity,
            Self::RangeCapacity,
            Self::StickyRangeEndBeforeStart,
            Self::StickyRangesEmpty,
            Self::StickyRangeOutOfBounds,
            Self::StickyRangesOverlap,
            Self::Base64TooShort,
            Self::Base64IllegalCharacter,
            Self::Base64WrongEndingUnit,
            Self::Base64NotEnoughBits,
            Self::Base64IncorrectEndingByte,
            Self::UnknownClientProfile,
            Self::UnknownClientHashingScheme,
            Self::UnknownProfileMode,
            Self::UnknownProfileHash,
            Self::ProfileSchemeUnsupported,
            Self::PythonSchemeNotSelectable,
            Self::BoostHashNotReproducible,
            Self::ProfileBytesKeyUnsupported,
            Self::ProfileIllegalPartition,
            Self::ProfileKeyKindUnsupported,
            Self::GoAtoiSyntax,
            Self::GoAtoiRange,
            Self::UnknownLibrdkafkaPartitioner,
            Self::LibrdkafkaRandomPartition,
            Self::KafkaInvalidStickyBatchSize,
            Self::KafkaLoadStatsShape,
            Self::KafkaCorruptLoadStats,
            Self::KafkaPartitionOutOfRange,
            Self::LibrdkafkaUnknownPartition,
            Self::LibrdkafkaStickyPartitionUnassigned,
            Self::LibrdkafkaStickyLingerOutOfRange,
            Self::KafkaMurmur2LengthMismatch,
            Self::ProfileOptionUnsupported,
            Self::CppBatchingMaxMessages,
            Self::UnknownLookupProfile,
            Self::UnknownServerError,
            Self::LookupServerError,
            Self::LookupEmptyResponse,
            Self::LookupMissingBrokerUrl,
            Self::LookupTooManyRedirects,
            Self::LookupRedirectLoop,
            Self::LookupAddressTooLong,
            Self::LookupConnectionFailed,
            Self::LookupRequestTimeout,
            Self::LookupTooManyRequests,
            Self::LookupFeatureNotSupported,
            Self::LookupDeadlineExceeded,
            Self::LookupCoalescingTableFull,
            Self::LookupTooManyWaiters,
            Self::LookupGoRedirectLimit,
            Self::LookupUnknownEvent,
            Self::LookupHopIndexOutOfRange,
            Self::SenderMaxInFlightTooSmall,
            Self::SenderMaxInFlightTooLargeForIdempotence,
            Self::SenderUnknownNode,
            Self::SenderDuplicateNode,
            Self::SenderNotReady,
            Self::SenderNoRequestInFlight,
            Self::SenderInvalidTransition,
            Self::SenderUnknownValue,
            Self::MaxPendingMessagesNegative,
            Self::ProducerQueueIsFull,
            Self::ProducerQueueWouldBlock,
        ]
    }

    /// The status with this code, if any.
    #[must_use]
    pub fn from_code(code: u32) -> Option<Self> {
        Self::all().into_iter().find(|s| *s as u32 == code)
    }

    /// The message, as a static C string. Where the core has an error type,
    /// the text is its `Display` (Java's wording); the tests hold them equal.
    #[must_use]
    pub const fn message(self) -> &'static CStr {
        match self {
            Self::Ok => c"ok",
            Self::NullParameter => c"a required pointer argument was NULL",
            Self::Panic => c"internal error: a Rust panic was caught at the C API boundary",
            Self::InvalidUtf8 => c"key or text is not valid UTF-8",
            Self::UnknownHashingScheme => {
                c"unknown hashing scheme: expected \"java_string\" or \"murmur3_32\""
            }
            Self::UnknownKeyKind => c"unknown key kind",
            Self::UnknownRoutingMode => c"unknown message routing mode",
            Self::BufferTooSmall => c"output buffer too small",
            Self::NoKey => c"the message has no key",
            Self::MisalignedPointer => c"a pointer to uint16_t units is not aligned for uint16_t",
            Self::UnknownTopicNameRules => c"unknown topic name rules",
            Self::UnknownSelectorKind => {
                c"unknown selector: expected \"auto_split\", \"consistent_hashing\" or \"exclusive\""
            }
            Self::UnknownExclusiveMode => c"unknown exclusive selector mode",
            Self::WrongSelectorKind => {
                c"the function does not apply to this kind of Key_Shared selector"
            }
            Self::OutOfMemory => c"memory allocation failed",
            Self::PartitionCountZero => c"number of partitions must be at least 1, got 0",
            Self::PartitionCountNegative => {
                c"number of partitions must be at least 1, got a negative number"
            }
            Self::PartitionCountTooLarge => c"number of partitions must be at most 2147483647",
            Self::DivisionByZero => c"/ by zero",
            // Java appends ": <index>"; the caller knows the index it chose.
            Self::IllegalPartitionIndex => {
                c"Illegal partition index chosen by the message routing policy"
            }
            Self::CustomModeWithoutRouter => {
                c"When 'messageRoutingMode' is CustomPartition, 'messageRouter' should be set"
            }
            Self::RouterWithoutCustomMode => {
                c"When 'messageRouter' is set, 'messageRoutingMode' should be set as CustomPartition"
            }
            Self::SwitchFrequencyTooSmall => {
                c"configured value for partition switch frequency must be >= 1"
            }
            Self::BatchDelayTooSmall => c"configured value for batch delay must be at least 1ms",
            // Java's topic name messages quote the input, which a static
            // string cannot: these are their fixed parts, and
            // pulsar_routing_topic_name_error_message writes the full text.
            Self::TopicNameInvalidShortName => {
                c"Invalid short topic name, it should be in the format of <tenant>/<namespace>/<topic> or <topic>"
            }
            Self::TopicNameInvalidDomain => c"Invalid topic domain",
            Self::TopicNameInvalidNamespaceFormat => c"Invalid namespace format",
            Self::TopicNameInvalidNamedEntity => c"Invalid named entity",
            Self::TopicNameBlankLocalName => {
                c"Invalid topic name: Topic local name must not be blank."
            }
            Self::TopicNameInvalid => c"Invalid topic name",
            Self::TopicNameV1Unsupported => {
                c"V1 topic names (with cluster component) are no longer supported. Please use the V2 format: '<domain>://tenant/namespace/topic'."
            }
            Self::TopicNameSegmentWithoutDescriptor => {
                c"Invalid segment topic name: local name must contain '<parent-topic>/<hashStart>-<hashEnd>-<segmentId>'."
            }
            Self::TopicNameInvalidSegmentDescriptor => c"Invalid segment descriptor in topic name",
            // The bundle messages are the core's, without the numbers some
            // of them quote (the caller passed those in).
            Self::NoBundles => c"number of bundles must be at least 1",
            Self::NoBoundaries => c"Can't create bundles w/o partition boundaries",
            Self::TooFewBoundaries => c"Need to specify at least 2 boundaries",
            Self::BoundariesNotSorted => c"bundle boundaries must be in non-decreasing order",
            Self::BoundaryOutOfRange => {
                c"bundle boundary is outside the hash range 0x00000000..=0xffffffff"
            }
            Self::UpperEndpointNotExclusive => {
                c"Invalid hash range. Upper Endpoint should be exclusive unless it is 0xffffffff"
            }
            Self::EmptyRange => c"Cannot create bundle object for an empty key range",
            Self::InvalidRange => c"Invalid range: the lower bound is above the upper bound",
            Self::NoBundleForHash => {
                c"no bundle for the hash: the broker's lookup throws IndexOutOfBoundsException here"
            }
            Self::InvalidBundleRange => c"Invalid bundle range",
            Self::MissingLowerBound => c"Invalid bundle range: missing lower bound",
            Self::MissingUpperBound => c"Invalid bundle range: missing upper bound",
            Self::BoundEmpty => c"Zero length string",
            Self::BoundSignInWrongPosition => c"Sign character in wrong position",
            Self::BoundNotALong => {
                c"Invalid bundle bound: not a number, or out of the long range"
            }
            Self::BundleNotFound => c"Cannot find bundle in the bundles list",
            Self::InvalidUpperBoundary => c"Invalid upper boundary for bundle",
            Self::CannotSplitFurther => c"bundle can't be split further",
            Self::SplitBoundaryOutsideBundle => {
                c"The given fixed keys must between the key range of the bundle"
            }
            Self::NoSplitPositions => c"SplitBoundaries can't be empty",
            Self::ZeroSplitParts => c"a bundle must be split into at least 1 part",
            Self::NotFullRange => {
                c"bundle boundaries must start at 0x00000000 and end at 0xffffffff"
            }
            Self::BundleIndexOutOfRange => c"bundle index out of range",
            Self::NoConsumer => c"no consumer owns the slot",
            Self::ConsumerNotFound => c"the consumer is not in the selector",
            // The Key_Shared messages are the core's (Java's where Java has
            // one), without the values some of them quote:
            // pulsar_routing_selector_last_error_message,
            // pulsar_routing_validate_sticky_ranges_error_message and
            // pulsar_routing_message_keys_error_message write them in full.
            Self::RangeSizeTooSmall => c"range size must greater than 2",
            Self::RangeSizeNotPowerOfTwo => c"range size must be nth power with 2",
            Self::RangeEndBeforeStart => c"Range end must >= range start.",
            Self::KeyHashRangeTooLarge => {
                c"key hash range must lie within [0, 2147483647] and hold at most 2147483647 slots"
            }
            Self::SelectorCapacityTooLarge => {
                c"selector capacity too large for 32-bit handles or this address space"
            }
            Self::CannotGrowInto => {
                c"a selector can only grow into a config with the same rules and capacities at least as large"
            }
            Self::StorageTooSmall => c"selector storage too small",
            Self::NoMoreRange => {
                c"No more range can assigned to new consumer, assigned consumers"
            }
            Self::MissingKeySharedMeta => c"Must specify key shared meta for consumer.",
            Self::EmptyHashRanges => c"Ranges for KeyShared policy must not be empty.",
            Self::HashRangeStartAfterEnd => c"Fixed hash range start > end for range",
            Self::LegacyHashRangeStartAfterEnd => c"Fixed hash range start > end",
            Self::OwnHashRangesConflict => c"Consumer's own ranges conflict",
            Self::HashRangeConflict => c"Range conflict with consumer",
            Self::DuplicateConsumer => c"consumer is already in the selector",
            Self::ConsumerCapacity => c"no room for another consumer",
            Self::NameCapacity => c"no room for the consumer's name in the selector's storage",
            Self::RangeCapacity => c"no room for the consumer's ranges",
            Self::StickyRangeEndBeforeStart => c"Range end must >= range start.",
            Self::StickyRangesEmpty => c"Ranges for KeyShared policy must not be empty.",
            Self::StickyRangeOutOfBounds => {
                c"Ranges must be [0, 65535] but provided range is"
            }
            Self::StickyRangesOverlap => c"Ranges for KeyShared policy with overlap",
            Self::Base64TooShort => {
                c"Input byte[] should at least have 2 bytes for base64 bytes"
            }
            Self::Base64IllegalCharacter => c"Illegal base64 character",
            Self::Base64WrongEndingUnit => c"Input byte array has wrong 4-byte ending unit",
            Self::Base64NotEnoughBits => c"Last unit does not have enough valid bits",
            Self::Base64IncorrectEndingByte => c"Input byte array has incorrect ending byte",
            // The core's messages where it has one; ffi-c/src/tests/profiles.rs
            // holds them equal.
            Self::UnknownClientProfile => {
                c"unknown client profile: expected java, go, cpp, python, pulsar-rs or dotpulsar"
            }
            Self::UnknownClientHashingScheme => {
                c"unknown hashing scheme: expected \"java_string\", \"murmur3_32\", \"boost\" or \"boost_1_N\" (a Boost release from 1.33 to 1.91)"
            }
            Self::UnknownProfileMode => {
                c"unknown routing mode: expected \"default\", \"round_robin\" or \"single_partition\""
            }
            Self::UnknownProfileHash => c"unknown key hash",
            Self::ProfileSchemeUnsupported => c"the client has no such hashing scheme",
            Self::PythonSchemeNotSelectable => {
                c"the Python client cannot choose a hashing scheme: it always uses the C++ default BoostHash; the escape hatch is a message_router that routes keys with Murmur3_32Hash"
            }
            Self::BoostHashNotReproducible => {
                c"BoostHash, the default hashing scheme of the C++ client, depends on the Boost it was built with: boost::hash<std::string> changed in Boost 1.62, 1.81 and 1.82. Name the client's Boost release (e.g. 1.74, 1.81 or 1.85), or use Murmur3_32Hash in every client"
            },
            Self::ProfileBytesKeyUnsupported => {
                c"the client takes partition keys as strings: a binary key cannot be set"
            }
            Self::ProfileIllegalPartition => {
                c"the client's router chose a partition for which the producer has no partition producer"
            }
            Self::ProfileKeyKindUnsupported => c"the client profiles take no UTF-16 keys",
            Self::GoAtoiSyntax => c"strconv.Atoi: invalid syntax",
            Self::GoAtoiRange => c"strconv.Atoi: value out of range",
            Self::UnknownLibrdkafkaPartitioner => {
                c"unknown librdkafka partitioner: expected random, consistent, consistent_random, murmur2, murmur2_random, fnv1a or fnv1a_random"
            }
            Self::LibrdkafkaRandomPartition => {
                c"the librdkafka partitioner picks a random partition for this key"
            }
            // The core's messages without their numbers.
            Self::KafkaInvalidStickyBatchSize => c"stickyBatchSize must be >= 1",
            Self::KafkaLoadStatsShape => {
                c"partition load stats need as many queue sizes as partition ids and a length within them"
            }
            Self::KafkaCorruptLoadStats => {
                c"partition load stats overflowed: the cumulative frequency total is not positive"
            }
            Self::KafkaPartitionOutOfRange => {
                c"partition is not in the range [0...num_partitions)"
            }
            Self::LibrdkafkaUnknownPartition => c"Local: Unknown partition",
            Self::LibrdkafkaStickyPartitionUnassigned => {
                c"librdkafka has not chosen a sticky partition yet (less than sticky.partitioning.linger.ms since the clock's origin): the record waits on the unassigned partition"
            }
            Self::LibrdkafkaStickyLingerOutOfRange => {
                c"Configuration property \"sticky.partitioning.linger.ms\" value is outside allowed range 0..900000"
            }
            Self::KafkaMurmur2LengthMismatch => {
                c"murmur2 hasher was announced a different number of bytes than it was fed: MurmurHash2 seeds with the total length"
            }
            Self::ProfileOptionUnsupported => {
                c"the client profile does not take this option: only the cpp and python profiles do"
            }
            Self::CppBatchingMaxMessages => c"batchingMaxMessages needs to be greater than 1",
            Self::UnknownLookupProfile => c"unknown lookup profile: expected java or go",
            Self::UnknownServerError => c"unknown ServerError code",
            Self::LookupServerError => c"the broker failed the lookup",
            Self::LookupEmptyResponse => c"Empty lookup response",
            Self::LookupMissingBrokerUrl => c"the lookup response has no broker URL",
            Self::LookupTooManyRedirects => c"Too many redirects",
            Self::LookupRedirectLoop => c"Redirect loop",
            Self::LookupAddressTooLong => c"a broker address is longer than a lookup can hold",
            Self::LookupConnectionFailed => c"Connection to the broker failed",
            Self::LookupRequestTimeout => c"Lookup request timeout",
            Self::LookupTooManyRequests => c"Requests number out of config: too many lookup requests outstanding and pending",
            Self::LookupFeatureNotSupported => c"The feature of getting partitions without auto-creation is not supported by the broker. Please upgrade the broker to version that supports PIP-344 to resolve this issue.",
            Self::LookupDeadlineExceeded => c"Lookup timed out",
            Self::LookupCoalescingTableFull => c"the lookup coalescing table is full",
            Self::LookupTooManyWaiters => c"a lookup in flight has too many waiters",
            Self::LookupGoRedirectLimit => c"exceeded max number of redirection during topic lookup",
            Self::LookupUnknownEvent => c"unknown partitioned-metadata event",
            Self::LookupHopIndexOutOfRange => {
                c"the hop index is past the end of the lookup's redirect chain"
            }
            // The sender gate's messages without their numbers.
            Self::SenderMaxInFlightTooSmall => {
                c"Invalid value for configuration max.in.flight.requests.per.connection: Value must be at least 1"
            }
            Self::SenderMaxInFlightTooLargeForIdempotence => {
                c"To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5."
            }
            Self::SenderUnknownNode => {
                c"unknown node"
            }
            Self::SenderDuplicateNode => {
                c"a node is listed twice"
            }
            Self::SenderNotReady => {
                c"cannot send: the node is not ready"
            }
            Self::SenderNoRequestInFlight => {
                c"a response from a node which has no request in flight"
            }
            Self::SenderInvalidTransition => {
                c"the connection event is not valid in the node's connection state"
            }
            Self::SenderUnknownValue => {
                c"not a known connection event, produce outcome, metadata event, readiness reason or connection state"
            }
            Self::MaxPendingMessagesNegative => {
                c"maxPendingMessages needs to be >= 0"
            }
            Self::ProducerQueueIsFull => {
                c"Producer send queue is full"
            }
            Self::ProducerQueueWouldBlock => {
                c"Producer send queue is full: the send would block until a pending message completes (blockIfQueueFull=true)"
            }
        }
    }
}

/// The message of a status code, as a static NUL-terminated string.
///
/// The texts of the routing and arithmetic errors are the Java client's
/// exception messages. For `PULSAR_ROUTING_STATUS_ILLEGAL_PARTITION_INDEX`
/// Java appends `": "` and the chosen index, which the caller knows.
///
/// Returns a non-NULL string for every code; an unknown code gives
/// `"unknown status code"`. The string is static: never free or modify it.
/// Thread-safe; allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn pulsar_routing_status_message(status: u32) -> *const c_char {
    ffi_panic_boundary! {
        match pulsar_routing_status::from_code(status) {
            Some(status) => status.message().as_ptr(),
            None => c"unknown status code".as_ptr(),
        }
    }
}

impl From<PartitionCountError> for pulsar_routing_status {
    fn from(e: PartitionCountError) -> Self {
        match e {
            PartitionCountError::Zero => Self::PartitionCountZero,
            PartitionCountError::Negative => Self::PartitionCountNegative,
            PartitionCountError::TooLarge => Self::PartitionCountTooLarge,
        }
    }
}

impl From<DivisionByZero> for pulsar_routing_status {
    fn from(_: DivisionByZero) -> Self {
        Self::DivisionByZero
    }
}

impl From<UnknownHashingScheme> for pulsar_routing_status {
    fn from(_: UnknownHashingScheme) -> Self {
        Self::UnknownHashingScheme
    }
}

impl From<RouteError> for pulsar_routing_status {
    fn from(e: RouteError) -> Self {
        match e {
            RouteError::IllegalPartitionIndex(_) => Self::IllegalPartitionIndex,
            // The enum is non_exhaustive: a variant added to the core needs a
            // code of its own here, and until then it is this binding's bug.
            _ => Self::Panic,
        }
    }
}

impl From<RoutingConfigError> for pulsar_routing_status {
    fn from(e: RoutingConfigError) -> Self {
        match e {
            RoutingConfigError::CustomModeWithoutRouter => Self::CustomModeWithoutRouter,
            RoutingConfigError::RouterWithoutCustomMode => Self::RouterWithoutCustomMode,
            RoutingConfigError::SwitchFrequencyTooSmall => Self::SwitchFrequencyTooSmall,
            RoutingConfigError::BatchDelayTooSmall => Self::BatchDelayTooSmall,
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<TopicNameError<'_>> for pulsar_routing_status {
    fn from(e: TopicNameError<'_>) -> Self {
        match e {
            TopicNameError::InvalidShortName { .. } => Self::TopicNameInvalidShortName,
            TopicNameError::InvalidDomain { .. } => Self::TopicNameInvalidDomain,
            TopicNameError::InvalidNamespaceFormat { .. } => Self::TopicNameInvalidNamespaceFormat,
            TopicNameError::InvalidNamedEntity { .. } => Self::TopicNameInvalidNamedEntity,
            TopicNameError::BlankLocalName { .. } => Self::TopicNameBlankLocalName,
            TopicNameError::InvalidTopicName { .. } => Self::TopicNameInvalid,
            TopicNameError::V1NameUnsupported { .. } => Self::TopicNameV1Unsupported,
            TopicNameError::SegmentWithoutDescriptor { .. } => {
                Self::TopicNameSegmentWithoutDescriptor
            }
            TopicNameError::InvalidSegmentDescriptor { .. } => {
                Self::TopicNameInvalidSegmentDescriptor
            }
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

/// `BundleError::BufferTooSmall` becomes `BUFFER_TOO_SMALL`; the functions
/// with an output buffer also report the length needed (`try_bundle!`).
impl From<BundleError> for pulsar_routing_status {
    fn from(e: BundleError) -> Self {
        match e {
            BundleError::NoBundles => Self::NoBundles,
            BundleError::NoBoundaries => Self::NoBoundaries,
            BundleError::TooFewBoundaries => Self::TooFewBoundaries,
            BundleError::BoundariesNotSorted => Self::BoundariesNotSorted,
            BundleError::BoundaryOutOfRange(_) => Self::BoundaryOutOfRange,
            BundleError::UpperEndpointNotExclusive => Self::UpperEndpointNotExclusive,
            BundleError::EmptyRange => Self::EmptyRange,
            BundleError::InvalidRange { .. } => Self::InvalidRange,
            BundleError::NoBundleForHash(_) => Self::NoBundleForHash,
            BundleError::InvalidBundleRange => Self::InvalidBundleRange,
            BundleError::MissingLowerBound => Self::MissingLowerBound,
            BundleError::MissingUpperBound => Self::MissingUpperBound,
            BundleError::InvalidBound(BoundErrorKind::Empty) => Self::BoundEmpty,
            BundleError::InvalidBound(BoundErrorKind::SignInWrongPosition) => {
                Self::BoundSignInWrongPosition
            }
            BundleError::InvalidBound(BoundErrorKind::NotALong) => Self::BoundNotALong,
            BundleError::BufferTooSmall { .. } => Self::BufferTooSmall,
            BundleError::BundleNotFound => Self::BundleNotFound,
            BundleError::InvalidUpperBoundary => Self::InvalidUpperBoundary,
            BundleError::CannotSplitFurther(_) => Self::CannotSplitFurther,
            BundleError::SplitBoundaryOutsideBundle(_) => Self::SplitBoundaryOutsideBundle,
            BundleError::NoSplitPositions => Self::NoSplitPositions,
            BundleError::ZeroSplitParts => Self::ZeroSplitParts,
            BundleError::NotFullRange => Self::NotFullRange,
            // No C function parses a split algorithm's name (each algorithm
            // has its own function), and the enum is non_exhaustive: as for
            // RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<UnknownSelectorKind> for pulsar_routing_status {
    fn from(_: UnknownSelectorKind) -> Self {
        Self::UnknownSelectorKind
    }
}

impl From<ConfigError> for pulsar_routing_status {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::RangeSizeTooSmall => Self::RangeSizeTooSmall,
            ConfigError::RangeSizeNotPowerOfTwo => Self::RangeSizeNotPowerOfTwo,
            ConfigError::RangeEndBeforeStart => Self::RangeEndBeforeStart,
            ConfigError::KeyHashRangeTooLarge => Self::KeyHashRangeTooLarge,
            ConfigError::CapacityTooLarge => Self::SelectorCapacityTooLarge,
            ConfigError::CannotGrowInto => Self::CannotGrowInto,
            ConfigError::StorageTooSmall { .. } => Self::StorageTooSmall,
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<AssignError> for pulsar_routing_status {
    fn from(e: AssignError) -> Self {
        match e {
            AssignError::NoMoreRange { .. } => Self::NoMoreRange,
            AssignError::MissingKeySharedMeta => Self::MissingKeySharedMeta,
            AssignError::EmptyRanges => Self::EmptyHashRanges,
            AssignError::StartAfterEnd { .. } => Self::HashRangeStartAfterEnd,
            AssignError::LegacyStartAfterEnd => Self::LegacyHashRangeStartAfterEnd,
            AssignError::OwnRangesConflict { .. } => Self::OwnHashRangesConflict,
            AssignError::RangeConflict { .. } => Self::HashRangeConflict,
            AssignError::DuplicateConsumer { .. } => Self::DuplicateConsumer,
            AssignError::ConsumerCapacity { .. } => Self::ConsumerCapacity,
            AssignError::NameCapacity => Self::NameCapacity,
            AssignError::RangeCapacity { .. } => Self::RangeCapacity,
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<KeySharedPolicyError> for pulsar_routing_status {
    fn from(e: KeySharedPolicyError) -> Self {
        match e {
            KeySharedPolicyError::RangeEndBeforeStart => Self::StickyRangeEndBeforeStart,
            KeySharedPolicyError::EmptyRanges => Self::StickyRangesEmpty,
            KeySharedPolicyError::OutOfBounds { .. } => Self::StickyRangeOutOfBounds,
            KeySharedPolicyError::Overlap { .. } => Self::StickyRangesOverlap,
        }
    }
}

impl From<InvalidBase64> for pulsar_routing_status {
    fn from(e: InvalidBase64) -> Self {
        match e {
            InvalidBase64::TooShort => Self::Base64TooShort,
            InvalidBase64::IllegalCharacter(_) => Self::Base64IllegalCharacter,
            InvalidBase64::WrongEndingUnit => Self::Base64WrongEndingUnit,
            InvalidBase64::NotEnoughBits => Self::Base64NotEnoughBits,
            InvalidBase64::IncorrectEndingByte(_) => Self::Base64IncorrectEndingByte,
        }
    }
}

impl From<UnknownClientProfile> for pulsar_routing_status {
    fn from(_: UnknownClientProfile) -> Self {
        Self::UnknownClientProfile
    }
}

impl From<UnknownClientHashingScheme> for pulsar_routing_status {
    fn from(_: UnknownClientHashingScheme) -> Self {
        Self::UnknownClientHashingScheme
    }
}

impl From<UnknownProfileMode> for pulsar_routing_status {
    fn from(_: UnknownProfileMode) -> Self {
        Self::UnknownProfileMode
    }
}

impl From<UnknownKeyHash> for pulsar_routing_status {
    fn from(_: UnknownKeyHash) -> Self {
        Self::UnknownProfileHash
    }
}

impl From<UnknownLibrdkafkaPartitioner> for pulsar_routing_status {
    fn from(_: UnknownLibrdkafkaPartitioner) -> Self {
        Self::UnknownLibrdkafkaPartitioner
    }
}

impl From<BoostHashNotReproducible> for pulsar_routing_status {
    fn from(_: BoostHashNotReproducible) -> Self {
        Self::BoostHashNotReproducible
    }
}

impl From<GoAtoiError<'_>> for pulsar_routing_status {
    fn from(e: GoAtoiError<'_>) -> Self {
        match e.kind {
            GoAtoiErrorKind::Syntax => Self::GoAtoiSyntax,
            GoAtoiErrorKind::Range => Self::GoAtoiRange,
        }
    }
}

impl From<ProfileConfigError> for pulsar_routing_status {
    fn from(e: ProfileConfigError) -> Self {
        match e {
            ProfileConfigError::UnsupportedScheme {
                profile: ClientProfile::Python,
                ..
            } => Self::PythonSchemeNotSelectable,
            ProfileConfigError::UnsupportedScheme { .. } => Self::ProfileSchemeUnsupported,
            ProfileConfigError::Java(e) => Self::from(e),
            ProfileConfigError::UnsupportedOption { .. } => Self::ProfileOptionUnsupported,
            ProfileConfigError::CppBatchingMaxMessages { .. } => Self::CppBatchingMaxMessages,
            // Every client has every mode today: as for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<ProfileRouteError> for pulsar_routing_status {
    fn from(e: ProfileRouteError) -> Self {
        match e {
            ProfileRouteError::BoostHashNotReproducible => Self::BoostHashNotReproducible,
            ProfileRouteError::BytesKeyUnsupported(_) => Self::ProfileBytesKeyUnsupported,
            ProfileRouteError::IllegalPartition { .. } => Self::ProfileIllegalPartition,
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<KafkaError> for pulsar_routing_status {
    fn from(e: KafkaError) -> Self {
        match e {
            KafkaError::InvalidStickyBatchSize(_) => Self::KafkaInvalidStickyBatchSize,
            KafkaError::LoadStatsShape { .. } => Self::KafkaLoadStatsShape,
            KafkaError::CorruptLoadStats(_) => Self::KafkaCorruptLoadStats,
            KafkaError::PartitionOutOfRange { .. } => Self::KafkaPartitionOutOfRange,
            KafkaError::UnknownPartition(_) => Self::LibrdkafkaUnknownPartition,
            KafkaError::StickyPartitionUnassigned => Self::LibrdkafkaStickyPartitionUnassigned,
            KafkaError::StickyLingerOutOfRange(_) => Self::LibrdkafkaStickyLingerOutOfRange,
            // As for RouteError above.
            _ => Self::Panic,
        }
    }
}

impl From<Murmur2LengthMismatch> for pulsar_routing_status {
    fn from(_: Murmur2LengthMismatch) -> Self {
        Self::KafkaMurmur2LengthMismatch
    }
}
