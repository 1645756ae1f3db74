//! The status code every fallible function returns, and its message.

use core::ffi::{CStr, c_char};
use core::fmt;
use std::io::Write as _;
use std::sync::OnceLock;

use strum::{EnumCount, EnumIter, FromRepr, IntoEnumIterator};

use pulsar_routing_core::batch::BatchError;
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
use pulsar_routing_core::sender::{MaxPendingMessagesNegative, QueueFull};
use pulsar_routing_core::topic_name::UnknownTopicNameRules;
use pulsar_routing_core::{
    DivisionByZero, PartitionCountError, RouteError, RoutingConfigError, TopicNameError,
    UnknownHashingScheme,
};
use pulsar_routing_owned::key_counts::KeyCountsError;

/// The result of every fallible function: `PULSAR_ROUTING_STATUS_OK` (0) on
/// success, otherwise the reason for the failure.
///
/// The type is a `uint32_t` in C. Codes are grouped by source in ranges of
/// 100 (1-99: use of the API; 100-199: arithmetic; 200-299: routing;
/// 300-399: producer configuration; 400-499: topic names; 500-599:
/// namespace bundles; 600-699: Key_Shared subscriptions; 700-799: client
/// profiles and Kafka partitioners; 800-899: topic lookup; 900-999: the
/// Kafka sender readiness gate and the Pulsar producer's pending queue;
/// 1000-1099: key counts for capacity planning) and a code is never reused for another meaning.
/// `pulsar_routing_status_message` gives the text of each.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumCount, EnumIter, FromRepr)]
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
    /// A batch of keys has no offsets: `count` was `SIZE_MAX`, and a batch
    /// of `count` keys needs `count + 1` offsets.
    BatchNoOffsets = 210,
    /// A key offset of a batch is smaller than the one before it
    /// (`pulsar_routing_last_error_message` names it).
    BatchOffsetDecreases = 211,
    /// A key offset of a batch is past the end of the key data, which the
    /// last offset ends (`pulsar_routing_last_error_message` names it).
    BatchOffsetPastEnd = 212,
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
    /// A topic name with the wrong number of parts, or (4.2 and master
    /// rules) an empty part.
    TopicNameInvalid = 405,
    /// 4.2 and master rules: a V1 name, with a cluster.
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
    /// A key count's weight is negative, NaN or infinite; nothing was
    /// added (`pulsar_routing_last_error_message` names the weight's index
    /// in its batch).
    KeyCountsInvalidWeight = 1000,
    /// A weights list that does not hold one weight per key. The C batch
    /// takes `count` weights, so only the C++ and Go wrappers return it.
    KeyCountsWeightsLength = 1001,
    /// More than 4294967295 distinct keys in one key count.
    KeyCountsTooManyKeys = 1002,
    /// An output buffer of `pulsar_routing_key_counts_write_sorted` has
    /// another length than the counts need.
    KeyCountsOutputLength = 1003,
    /// A key of 4 GiB or more, which key counts cannot hold.
    KeyCountsKeyTooLong = 1004,
}

/// Where a status's message comes from.
enum Source {
    /// A core error's `Display`: Java's wording where Pulsar has one,
    /// written once, in the core.
    Core(&'static (dyn fmt::Display + Sync)),
    /// This binding's own condition (a NULL pointer, a short buffer, ...),
    /// or the fixed part of a core message that quotes values (a topic
    /// name, a range) which a static string cannot hold; the functions
    /// that fail with those write the full text where they can.
    Text(&'static CStr),
}

/// The longest message a status can have, NUL included.
const MESSAGE_CAPACITY: usize = 512;

/// One slot per status: its core message, rendered once into static
/// memory on the first request for it (the C function that hands it out
/// promises a static string and no allocation).
static RENDERED: [OnceLock<[u8; MESSAGE_CAPACITY]>; pulsar_routing_status::COUNT] =
    [const { OnceLock::new() }; pulsar_routing_status::COUNT];

impl pulsar_routing_status {
    /// Every status, for tests and lookups that walk them all.
    pub fn all() -> impl Iterator<Item = Self> {
        Self::iter()
    }

    /// The status with this code, if any.
    #[must_use]
    pub fn from_code(code: u32) -> Option<Self> {
        Self::from_repr(code)
    }

    /// The message, as a static C string: the core's `Display` where the
    /// core has the error, rendered once.
    #[must_use]
    pub fn message(self) -> &'static CStr {
        let display = match self.source() {
            Source::Text(text) => return text,
            Source::Core(display) => display,
        };
        let slot = Self::iter().position(|s| s == self).unwrap_or(0);
        let rendered = RENDERED[slot].get_or_init(|| {
            let mut buf = [0; MESSAGE_CAPACITY];
            // The last byte stays the NUL. A message past the capacity, or
            // with a NUL that would cut the C string short, renders empty (a
            // test rules both out): an empty string beats a cut one.
            let mut rest = &mut buf[..MESSAGE_CAPACITY - 1];
            let written = write!(rest, "{display}").map(|()| MESSAGE_CAPACITY - 1 - rest.len());
            match written {
                Ok(len) if !buf[..len].contains(&0) => buf,
                _ => [0; MESSAGE_CAPACITY],
            }
        });
        CStr::from_bytes_until_nul(rendered).unwrap_or(c"")
    }

    /// Where each status's message comes from.
    fn source(self) -> Source {
        use Source::{Core, Text};
        match self {
            Self::Ok => Text(c"ok"),
            Self::NullParameter => Text(c"a required pointer argument was NULL"),
            Self::Panic => Text(c"internal error: a Rust panic was caught at the C API boundary"),
            Self::InvalidUtf8 => Text(c"key or text is not valid UTF-8"),
            Self::UnknownHashingScheme => Core(&UnknownHashingScheme),
            Self::UnknownKeyKind => Text(c"unknown key kind"),
            Self::UnknownRoutingMode => Text(c"unknown message routing mode"),
            Self::BufferTooSmall => Text(c"output buffer too small"),
            Self::NoKey => Text(c"the message has no key"),
            Self::MisalignedPointer => Text(c"a pointer to uint16_t units is not aligned for uint16_t"),
            Self::UnknownTopicNameRules => Core(&UnknownTopicNameRules),
            Self::UnknownSelectorKind => Core(&UnknownSelectorKind),
            Self::UnknownExclusiveMode => Text(c"unknown exclusive selector mode"),
            Self::WrongSelectorKind => Text(c"the function does not apply to this kind of Key_Shared selector"),
            Self::OutOfMemory => Text(c"memory allocation failed"),
            Self::PartitionCountZero => Core(&PartitionCountError::Zero),
            Self::PartitionCountNegative => Core(&PartitionCountError::Negative),
            Self::PartitionCountTooLarge => Core(&PartitionCountError::TooLarge),
            Self::DivisionByZero => Core(&DivisionByZero),
            Self::IllegalPartitionIndex => Text(c"Illegal partition index chosen by the message routing policy"),
            Self::BatchNoOffsets => Core(&BatchError::NoOffsets),
            Self::BatchOffsetDecreases => Text(c"a key offset is smaller than the offset before it"),
            Self::BatchOffsetPastEnd => Text(c"a key offset points past the end of the key data"),
            Self::CustomModeWithoutRouter => Core(&RoutingConfigError::CustomModeWithoutRouter),
            Self::RouterWithoutCustomMode => Core(&RoutingConfigError::RouterWithoutCustomMode),
            Self::SwitchFrequencyTooSmall => Core(&RoutingConfigError::SwitchFrequencyTooSmall),
            Self::BatchDelayTooSmall => Core(&RoutingConfigError::BatchDelayTooSmall),
            Self::TopicNameInvalidShortName => Text(c"Invalid short topic name, it should be in the format of <tenant>/<namespace>/<topic> or <topic>"),
            Self::TopicNameInvalidDomain => Text(c"Invalid topic domain"),
            Self::TopicNameInvalidNamespaceFormat => Text(c"Invalid namespace format"),
            Self::TopicNameInvalidNamedEntity => Text(c"Invalid named entity"),
            Self::TopicNameBlankLocalName => Text(c"Invalid topic name: Topic local name must not be blank."),
            Self::TopicNameInvalid => Text(c"Invalid topic name"),
            Self::TopicNameV1Unsupported => Text(c"V1 topic names (with cluster component) are no longer supported. Please use the V2 format: '<domain>://tenant/namespace/topic'."),
            Self::TopicNameSegmentWithoutDescriptor => Text(c"Invalid segment topic name: local name must contain '<parent-topic>/<hashStart>-<hashEnd>-<segmentId>'."),
            Self::TopicNameInvalidSegmentDescriptor => Text(c"Invalid segment descriptor in topic name"),
            Self::NoBundles => Core(&BundleError::NoBundles),
            Self::NoBoundaries => Core(&BundleError::NoBoundaries),
            Self::TooFewBoundaries => Core(&BundleError::TooFewBoundaries),
            Self::BoundariesNotSorted => Core(&BundleError::BoundariesNotSorted),
            Self::BoundaryOutOfRange => Text(c"bundle boundary is outside the hash range 0x00000000..=0xffffffff"),
            Self::UpperEndpointNotExclusive => Core(&BundleError::UpperEndpointNotExclusive),
            Self::EmptyRange => Core(&BundleError::EmptyRange),
            Self::InvalidRange => Text(c"Invalid range: the lower bound is above the upper bound"),
            Self::NoBundleForHash => Text(c"no bundle for the hash: the broker's lookup throws IndexOutOfBoundsException here"),
            Self::InvalidBundleRange => Core(&BundleError::InvalidBundleRange),
            Self::MissingLowerBound => Core(&BundleError::MissingLowerBound),
            Self::MissingUpperBound => Core(&BundleError::MissingUpperBound),
            Self::BoundEmpty => Core(&BundleError::InvalidBound(BoundErrorKind::Empty)),
            Self::BoundSignInWrongPosition => Core(&BundleError::InvalidBound(BoundErrorKind::SignInWrongPosition)),
            Self::BoundNotALong => Core(&BundleError::InvalidBound(BoundErrorKind::NotALong)),
            Self::BundleNotFound => Core(&BundleError::BundleNotFound),
            Self::InvalidUpperBoundary => Core(&BundleError::InvalidUpperBoundary),
            Self::CannotSplitFurther => Text(c"bundle can't be split further"),
            Self::SplitBoundaryOutsideBundle => Text(c"The given fixed keys must between the key range of the bundle"),
            Self::NoSplitPositions => Core(&BundleError::NoSplitPositions),
            Self::ZeroSplitParts => Core(&BundleError::ZeroSplitParts),
            Self::NotFullRange => Core(&BundleError::NotFullRange),
            Self::BundleIndexOutOfRange => Text(c"bundle index out of range"),
            Self::NoConsumer => Text(c"no consumer owns the slot"),
            Self::ConsumerNotFound => Text(c"the consumer is not in the selector"),
            Self::RangeSizeTooSmall => Core(&ConfigError::RangeSizeTooSmall),
            Self::RangeSizeNotPowerOfTwo => Core(&ConfigError::RangeSizeNotPowerOfTwo),
            Self::RangeEndBeforeStart => Core(&ConfigError::RangeEndBeforeStart),
            Self::KeyHashRangeTooLarge => Core(&ConfigError::KeyHashRangeTooLarge),
            Self::SelectorCapacityTooLarge => Core(&ConfigError::CapacityTooLarge),
            Self::CannotGrowInto => Core(&ConfigError::CannotGrowInto),
            Self::StorageTooSmall => Text(c"selector storage too small"),
            Self::NoMoreRange => Text(c"No more range can assigned to new consumer, assigned consumers"),
            Self::MissingKeySharedMeta => Core(&AssignError::MissingKeySharedMeta),
            Self::EmptyHashRanges => Core(&AssignError::EmptyRanges),
            Self::HashRangeStartAfterEnd => Text(c"Fixed hash range start > end for range"),
            Self::LegacyHashRangeStartAfterEnd => Core(&AssignError::LegacyStartAfterEnd),
            Self::OwnHashRangesConflict => Text(c"Consumer's own ranges conflict"),
            Self::HashRangeConflict => Text(c"Range conflict with consumer"),
            Self::DuplicateConsumer => Text(c"consumer is already in the selector"),
            Self::ConsumerCapacity => Text(c"no room for another consumer"),
            Self::NameCapacity => Core(&AssignError::NameCapacity),
            Self::RangeCapacity => Text(c"no room for the consumer's ranges"),
            Self::StickyRangeEndBeforeStart => Core(&KeySharedPolicyError::RangeEndBeforeStart),
            Self::StickyRangesEmpty => Core(&KeySharedPolicyError::EmptyRanges),
            Self::StickyRangeOutOfBounds => Text(c"Ranges must be [0, 65535] but provided range is"),
            Self::StickyRangesOverlap => Text(c"Ranges for KeyShared policy with overlap"),
            Self::Base64TooShort => Core(&InvalidBase64::TooShort),
            Self::Base64IllegalCharacter => Text(c"Illegal base64 character"),
            Self::Base64WrongEndingUnit => Core(&InvalidBase64::WrongEndingUnit),
            Self::Base64NotEnoughBits => Core(&InvalidBase64::NotEnoughBits),
            Self::Base64IncorrectEndingByte => Text(c"Input byte array has incorrect ending byte"),
            Self::UnknownClientProfile => Core(&UnknownClientProfile),
            Self::UnknownClientHashingScheme => Core(&UnknownClientHashingScheme),
            Self::UnknownProfileMode => Core(&UnknownProfileMode),
            Self::UnknownProfileHash => Core(&UnknownKeyHash),
            Self::ProfileSchemeUnsupported => Text(c"the client has no such hashing scheme"),
            Self::PythonSchemeNotSelectable => Text(c"the Python client cannot choose a hashing scheme: it always uses the C++ default BoostHash; the escape hatch is a message_router that routes keys with Murmur3_32Hash"),
            Self::BoostHashNotReproducible => Core(&BoostHashNotReproducible),
            Self::ProfileBytesKeyUnsupported => Text(c"the client takes partition keys as strings: a binary key cannot be set"),
            Self::ProfileIllegalPartition => Text(c"the client's router chose a partition for which the producer has no partition producer"),
            Self::ProfileKeyKindUnsupported => Text(c"the client profiles take no UTF-16 keys"),
            Self::GoAtoiSyntax => Text(c"strconv.Atoi: invalid syntax"),
            Self::GoAtoiRange => Text(c"strconv.Atoi: value out of range"),
            Self::UnknownLibrdkafkaPartitioner => Core(&UnknownLibrdkafkaPartitioner),
            Self::LibrdkafkaRandomPartition => Text(c"the librdkafka partitioner picks a random partition for this key"),
            Self::KafkaInvalidStickyBatchSize => Text(c"stickyBatchSize must be >= 1"),
            Self::KafkaLoadStatsShape => Text(c"partition load stats need as many queue sizes as partition ids and a length within them"),
            Self::KafkaCorruptLoadStats => Text(c"partition load stats overflowed: the cumulative frequency total is not positive"),
            Self::KafkaPartitionOutOfRange => Text(c"partition is not in the range [0...num_partitions)"),
            Self::LibrdkafkaUnknownPartition => Text(c"Local: Unknown partition"),
            Self::LibrdkafkaStickyPartitionUnassigned => Core(&KafkaError::StickyPartitionUnassigned),
            Self::LibrdkafkaStickyLingerOutOfRange => Text(c"Configuration property \"sticky.partitioning.linger.ms\" value is outside allowed range 0..900000"),
            Self::KafkaMurmur2LengthMismatch => Text(c"murmur2 hasher was announced a different number of bytes than it was fed: MurmurHash2 seeds with the total length"),
            Self::ProfileOptionUnsupported => {
                Text(c"the client profile does not take this option: only the cpp and python profiles do")
            }
            Self::CppBatchingMaxMessages => Text(c"batchingMaxMessages needs to be greater than 1"),
            Self::UnknownLookupProfile => Text(c"unknown lookup profile: expected java or go"),
            Self::UnknownServerError => Text(c"unknown ServerError code"),
            Self::LookupServerError => Text(c"the broker failed the lookup"),
            Self::LookupEmptyResponse => Text(c"Empty lookup response"),
            Self::LookupMissingBrokerUrl => Text(c"the lookup response has no broker URL"),
            Self::LookupTooManyRedirects => Text(c"Too many redirects"),
            Self::LookupRedirectLoop => Text(c"Redirect loop"),
            Self::LookupAddressTooLong => Text(c"a broker address is longer than a lookup can hold"),
            Self::LookupConnectionFailed => Text(c"Connection to the broker failed"),
            Self::LookupRequestTimeout => Text(c"Lookup request timeout"),
            Self::LookupTooManyRequests => Text(c"Requests number out of config: too many lookup requests outstanding and pending"),
            Self::LookupFeatureNotSupported => Text(c"The feature of getting partitions without auto-creation is not supported by the broker. Please upgrade the broker to version that supports PIP-344 to resolve this issue."),
            Self::LookupDeadlineExceeded => Text(c"Lookup timed out"),
            Self::LookupCoalescingTableFull => Text(c"the lookup coalescing table is full"),
            Self::LookupTooManyWaiters => Text(c"a lookup in flight has too many waiters"),
            Self::LookupGoRedirectLimit => Text(c"exceeded max number of redirection during topic lookup"),
            Self::LookupUnknownEvent => Text(c"unknown partitioned-metadata event"),
            Self::LookupHopIndexOutOfRange => Text(c"the hop index is past the end of the lookup's redirect chain"),
            Self::SenderMaxInFlightTooSmall => Text(c"Invalid value for configuration max.in.flight.requests.per.connection: Value must be at least 1"),
            Self::SenderMaxInFlightTooLargeForIdempotence => Text(c"To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5."),
            Self::SenderUnknownNode => Text(c"unknown node"),
            Self::SenderDuplicateNode => Text(c"a node is listed twice"),
            Self::SenderNotReady => Text(c"cannot send: the node is not ready"),
            Self::SenderNoRequestInFlight => Text(c"a response from a node which has no request in flight"),
            Self::SenderInvalidTransition => Text(c"the connection event is not valid in the node's connection state"),
            Self::SenderUnknownValue => Text(c"not a known connection event, produce outcome, metadata event, readiness reason or connection state"),
            Self::MaxPendingMessagesNegative => Core(&MaxPendingMessagesNegative(-1)),
            Self::ProducerQueueIsFull => Core(&QueueFull::WouldFail),
            Self::ProducerQueueWouldBlock => Core(&QueueFull::WouldBlock),
            Self::KeyCountsInvalidWeight => Text(c"a weight is not a finite number of at least 0"),
            Self::KeyCountsWeightsLength => Text(c"the weights do not match the keys: give one weight per key"),
            Self::KeyCountsTooManyKeys => Core(&KeyCountsError::TooManyKeys),
            Self::KeyCountsOutputLength => Core(&KeyCountsError::OutputLength),
            Self::KeyCountsKeyTooLong => Core(&KeyCountsError::KeyTooLong),
        }
    }
}

/// A status reads as its message, so that `try_ok!` records the same text
/// whether a call failed in the core or in this binding's own checks.
impl fmt::Display for pulsar_routing_status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().to_str().unwrap_or_default())
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

/// The core value of the code of a C enumeration whose codes are the
/// positions in the core's `ALL`, or `unknown`.
pub(crate) fn enum_from_c<T: Copy>(
    all: &[T],
    code: u32,
    unknown: pulsar_routing_status,
) -> Result<T, pulsar_routing_status> {
    usize::try_from(code)
        .ok()
        .and_then(|i| all.get(i))
        .copied()
        .ok_or(unknown)
}

/// The C code of `value`: its position in the core's `ALL`, the one order
/// both directions read (`u32::MAX`, no enumeration's code, only if `ALL`
/// missed a value).
pub(crate) fn enum_to_c<T: PartialEq>(all: &[T], value: T) -> u32 {
    let position = all.iter().position(|v| *v == value);
    position
        .and_then(|i| u32::try_from(i).ok())
        .unwrap_or(u32::MAX)
}

/// The static name of the value with this C code (its position in `all`),
/// or NULL for an unknown code: the `*_name` functions of the enumerations.
pub(crate) fn enum_name<T: Copy>(
    all: &[T],
    code: u32,
    name: fn(T) -> &'static CStr,
) -> *const c_char {
    let unknown = pulsar_routing_status::Ok;
    enum_from_c(all, code, unknown).map_or(core::ptr::null(), |value| name(value).as_ptr())
}

/// Parses the name at `(name, len)` with `parse` into `*out`: the
/// `*_from_name` functions. Bytes that are not UTF-8 name nothing, so they
/// give `unknown`.
///
/// # Safety
/// `name` must point to `len` readable bytes and `out` must be valid for
/// writing a `T`.
pub(crate) unsafe fn name_from_c<T, E>(
    name: *const u8,
    len: usize,
    out: *mut T,
    unknown: pulsar_routing_status,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> pulsar_routing_status
where
    E: fmt::Display,
    pulsar_routing_status: From<E>,
{
    let name = try_slice!(name, len);
    let out = try_out!(out);
    let Ok(name) = core::str::from_utf8(name) else {
        return unknown;
    };
    out.write(try_ok!(parse(name)));
    pulsar_routing_status::Ok
}

/// Maps core errors to statuses, one `impl From` per type:
/// `Type { pattern => status, ... }`. Where the core's enum is
/// `non_exhaustive`, the last arm is `_ => Self::Panic`: a variant added to
/// the core needs a code of its own here, and until then it is this
/// binding's bug.
macro_rules! status_from {
    ($($ty:ty { $($pat:pat => $status:expr),+ $(,)? })+) => {$(
        impl From<$ty> for $crate::error::pulsar_routing_status {
            fn from(e: $ty) -> Self {
                match e { $($pat => $status),+ }
            }
        }
    )+};
}

pub(crate) use status_from;

status_from! {
    PartitionCountError {
        PartitionCountError::Zero => Self::PartitionCountZero,
        PartitionCountError::Negative => Self::PartitionCountNegative,
        PartitionCountError::TooLarge => Self::PartitionCountTooLarge,
    }
    DivisionByZero { _ => Self::DivisionByZero }
    UnknownHashingScheme { _ => Self::UnknownHashingScheme }
    // A key that is not UTF-8 is the single call's `INVALID_UTF8`; the
    // message (`key 3 is not valid UTF-8`) says which. The C function sizes
    // the output from `count`, so a length mismatch is this binding's bug.
    BatchError {
        BatchError::NoOffsets => Self::BatchNoOffsets,
        BatchError::OffsetDecreases { .. } => Self::BatchOffsetDecreases,
        BatchError::OffsetPastEnd { .. } => Self::BatchOffsetPastEnd,
        BatchError::InvalidUtf8 { .. } => Self::InvalidUtf8,
        BatchError::OutputLength { .. } => Self::Panic,
    }
    RouteError {
        RouteError::IllegalPartitionIndex(_) => Self::IllegalPartitionIndex,
        _ => Self::Panic,
    }
    RoutingConfigError {
        RoutingConfigError::CustomModeWithoutRouter => Self::CustomModeWithoutRouter,
        RoutingConfigError::RouterWithoutCustomMode => Self::RouterWithoutCustomMode,
        RoutingConfigError::SwitchFrequencyTooSmall => Self::SwitchFrequencyTooSmall,
        RoutingConfigError::BatchDelayTooSmall => Self::BatchDelayTooSmall,
        _ => Self::Panic,
    }
    TopicNameError<'_> {
        TopicNameError::InvalidShortName { .. } => Self::TopicNameInvalidShortName,
        TopicNameError::InvalidDomain { .. } => Self::TopicNameInvalidDomain,
        TopicNameError::InvalidNamespaceFormat { .. } => Self::TopicNameInvalidNamespaceFormat,
        TopicNameError::InvalidNamedEntity { .. } => Self::TopicNameInvalidNamedEntity,
        TopicNameError::BlankLocalName { .. } => Self::TopicNameBlankLocalName,
        TopicNameError::InvalidTopicName { .. } => Self::TopicNameInvalid,
        TopicNameError::V1NameUnsupported { .. } => Self::TopicNameV1Unsupported,
        TopicNameError::SegmentWithoutDescriptor { .. } => Self::TopicNameSegmentWithoutDescriptor,
        TopicNameError::InvalidSegmentDescriptor { .. } => Self::TopicNameInvalidSegmentDescriptor,
        _ => Self::Panic,
    }
    BundleError {
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
        BundleError::InvalidBound(BoundErrorKind::SignInWrongPosition) => Self::BoundSignInWrongPosition,
        BundleError::InvalidBound(BoundErrorKind::NotALong) => Self::BoundNotALong,
        // The functions with an output buffer also report the length
        // needed (`try_bundle!`).
        BundleError::BufferTooSmall { .. } => Self::BufferTooSmall,
        BundleError::BundleNotFound => Self::BundleNotFound,
        BundleError::InvalidUpperBoundary => Self::InvalidUpperBoundary,
        BundleError::CannotSplitFurther(_) => Self::CannotSplitFurther,
        BundleError::SplitBoundaryOutsideBundle(_) => Self::SplitBoundaryOutsideBundle,
        BundleError::NoSplitPositions => Self::NoSplitPositions,
        BundleError::ZeroSplitParts => Self::ZeroSplitParts,
        BundleError::NotFullRange => Self::NotFullRange,
        // No C function parses a split algorithm's name (each algorithm has
        // its own function).
        _ => Self::Panic,
    }
    UnknownSelectorKind { _ => Self::UnknownSelectorKind }
    ConfigError {
        ConfigError::RangeSizeTooSmall => Self::RangeSizeTooSmall,
        ConfigError::RangeSizeNotPowerOfTwo => Self::RangeSizeNotPowerOfTwo,
        ConfigError::RangeEndBeforeStart => Self::RangeEndBeforeStart,
        ConfigError::KeyHashRangeTooLarge => Self::KeyHashRangeTooLarge,
        ConfigError::CapacityTooLarge => Self::SelectorCapacityTooLarge,
        ConfigError::CannotGrowInto => Self::CannotGrowInto,
        ConfigError::StorageTooSmall { .. } => Self::StorageTooSmall,
        _ => Self::Panic,
    }
    AssignError {
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
        _ => Self::Panic,
    }
    KeySharedPolicyError {
        KeySharedPolicyError::RangeEndBeforeStart => Self::StickyRangeEndBeforeStart,
        KeySharedPolicyError::EmptyRanges => Self::StickyRangesEmpty,
        KeySharedPolicyError::OutOfBounds { .. } => Self::StickyRangeOutOfBounds,
        KeySharedPolicyError::Overlap { .. } => Self::StickyRangesOverlap,
    }
    InvalidBase64 {
        InvalidBase64::TooShort => Self::Base64TooShort,
        InvalidBase64::IllegalCharacter(_) => Self::Base64IllegalCharacter,
        InvalidBase64::WrongEndingUnit => Self::Base64WrongEndingUnit,
        InvalidBase64::NotEnoughBits => Self::Base64NotEnoughBits,
        InvalidBase64::IncorrectEndingByte(_) => Self::Base64IncorrectEndingByte,
    }
    UnknownClientProfile { _ => Self::UnknownClientProfile }
    UnknownClientHashingScheme { _ => Self::UnknownClientHashingScheme }
    UnknownProfileMode { _ => Self::UnknownProfileMode }
    UnknownKeyHash { _ => Self::UnknownProfileHash }
    UnknownLibrdkafkaPartitioner { _ => Self::UnknownLibrdkafkaPartitioner }
    BoostHashNotReproducible { _ => Self::BoostHashNotReproducible }
    GoAtoiError<'_> {
        GoAtoiError { kind: GoAtoiErrorKind::Syntax, .. } => Self::GoAtoiSyntax,
        GoAtoiError { kind: GoAtoiErrorKind::Range, .. } => Self::GoAtoiRange,
    }
    ProfileConfigError {
        ProfileConfigError::UnsupportedScheme { profile: ClientProfile::Python, .. } => Self::PythonSchemeNotSelectable,
        ProfileConfigError::UnsupportedScheme { .. } => Self::ProfileSchemeUnsupported,
        ProfileConfigError::Java(e) => Self::from(e),
        ProfileConfigError::UnsupportedOption { .. } => Self::ProfileOptionUnsupported,
        ProfileConfigError::CppBatchingMaxMessages { .. } => Self::CppBatchingMaxMessages,
        // Every client has every mode today.
        _ => Self::Panic,
    }
    ProfileRouteError {
        ProfileRouteError::BoostHashNotReproducible => Self::BoostHashNotReproducible,
        ProfileRouteError::BytesKeyUnsupported(_) => Self::ProfileBytesKeyUnsupported,
        ProfileRouteError::IllegalPartition { .. } => Self::ProfileIllegalPartition,
        _ => Self::Panic,
    }
    KafkaError {
        KafkaError::InvalidStickyBatchSize(_) => Self::KafkaInvalidStickyBatchSize,
        KafkaError::LoadStatsShape { .. } => Self::KafkaLoadStatsShape,
        KafkaError::CorruptLoadStats(_) => Self::KafkaCorruptLoadStats,
        KafkaError::PartitionOutOfRange { .. } => Self::KafkaPartitionOutOfRange,
        KafkaError::UnknownPartition(_) => Self::LibrdkafkaUnknownPartition,
        KafkaError::StickyPartitionUnassigned => Self::LibrdkafkaStickyPartitionUnassigned,
        KafkaError::StickyLingerOutOfRange(_) => Self::LibrdkafkaStickyLingerOutOfRange,
        _ => Self::Panic,
    }
    Murmur2LengthMismatch { _ => Self::KafkaMurmur2LengthMismatch }
}
