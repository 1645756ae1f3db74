//! Topic names as Java's `TopicName.get` parses them, borrowed from the
//! input and never copied.
//!
//! The broker places a topic in a namespace bundle by the CRC-32 of its
//! canonical name (`TopicName.toString()`), and names a partition by
//! appending `-partition-<i>`, so both must be reproduced to the byte. The
//! canonical name is never built: [`TopicName::crc32`] streams its pieces,
//! and [`Display`](core::fmt::Display) writes them.
//!
//! Three rule sets exist, chosen with [`TopicNameRules`]:
//!
//! | | [`TopicNameRules::Pulsar4_2`] (default) | [`TopicNameRules::V4`] | [`TopicNameRules::Master`] |
//! |---|---|---|---|
//! | source | the 4.2.4 release, checked against its classes | a mirror commit before PIP-457, never checked against a release | 5.0 development (PIP-457, PIP-460) |
//! | `persistent://t/c/ns/x` | rejected | V1 name with cluster `c` | rejected |
//! | empty path parts (`t//x`, `x/`) | rejected | dropped in short names | rejected |
//! | `PERSISTENT://t/ns/x` | canonical kept verbatim | canonical `persistent://t/ns/x` | canonical kept verbatim |
//! | domains | `persistent`, `non-persistent` | `persistent`, `non-persistent` | also `topic`, `segment` |
//!
//! The 4.2 rules are the master rules without the PIP-460 domains, and with
//! one difference of order: 4.2 splits the path before it looks the domain
//! up, so `kafka://t/c/ns/x` is refused as a V1 name, not for its domain.
//!
//! ```
//! use pulsar_routing::topic_name::{TopicDomain, TopicName, TopicNameRules};
//!
//! let topic = TopicName::parse("my-topic-partition-3")?;
//! assert_eq!(topic.to_string(), "persistent://public/default/my-topic-partition-3");
//! assert_eq!(topic.domain(), TopicDomain::Persistent);
//! assert_eq!(topic.partition_index(), 3);
//! assert_eq!(topic.partitioned_topic_name().to_string(), "persistent://public/default/my-topic");
//! assert_eq!(topic.crc32(), pulsar_routing::crc32(topic.to_string().as_bytes()));
//!
//! // 4.2 keeps a full name as written, so it hashes differently from the
//! // rebuilt name the older rules give.
//! let upper = TopicName::parse("PERSISTENT://t/ns/x")?;
//! assert_eq!(upper.to_string(), "PERSISTENT://t/ns/x");
//! let rebuilt = TopicName::parse_with("PERSISTENT://t/ns/x", TopicNameRules::V4)?;
//! assert_eq!(rebuilt.to_string(), "persistent://t/ns/x");
//! # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
//! ```

mod error;
mod java;
mod views;

pub use error::TopicNameError;
pub use java::get_partition_index;
pub use views::{
    LookupName, PartitionedTopicName, PersistenceNaming, RestPath, TopicNamespace,
    TopicPartitionName, UrlEncoded, url_encode,
};

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::crc32::Crc32;
use java::{
    PARTITION_SUFFIX, is_java_blank, is_named_entity, java_equals_ignore_case, parse_java_integer,
    rsplit_once_str, split_once_str,
};

/// Which Pulsar release's `TopicName` rules to follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TopicNameRules {
    /// The 4.x line as a mirror commit before PIP-457 had it: V1 names with
    /// a cluster are accepted, empty parts of short names are dropped, the
    /// canonical name is rebuilt with a lower-case domain, and the error
    /// messages say "Invalid topic name: …". No release was checked to
    /// behave so (4.2.4 does not); it suits brokers old enough to still
    /// accept V1 names.
    V4,
    /// The 5.0 development line: V1 names and empty path parts are
    /// rejected, a full name is its own canonical form (domain case
    /// included), the partition index comes from the local name only, and
    /// the scalable `topic://` and `segment://` domains exist.
    Master,
    /// The released 4.2 line, checked against Pulsar 4.2.4's classes (the
    /// project's reference, hence the default): as [`TopicNameRules::Master`]
    /// for V1 names, empty parts, domain case and messages, but with only
    /// the `persistent` and `non-persistent` domains, looked up after the
    /// path is split.
    #[default]
    Pulsar4_2,
}

impl TopicNameRules {
    /// The name used by the Python API and the conformance scenarios:
    /// `"4.2"`, `"v4"` or `"master"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Pulsar4_2 => "4.2",
            Self::V4 => "v4",
            Self::Master => "master",
        }
    }
}

impl fmt::Display for TopicNameRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for TopicNameRules {
    type Err = UnknownTopicNameRules;

    /// Accepts `"4.2"`, `"v4"` and `"master"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "4.2" => Ok(Self::Pulsar4_2),
            "v4" => Ok(Self::V4),
            "master" => Ok(Self::Master),
            _ => Err(UnknownTopicNameRules),
        }
    }
}

/// The text did not name a [`TopicNameRules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownTopicNameRules;

impl fmt::Display for UnknownTopicNameRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown topic name rules: expected \"4.2\", \"v4\" or \"master\"")
    }
}

impl core::error::Error for UnknownTopicNameRules {}

/// The part before `://` (Java's `TopicDomain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopicDomain {
    /// `persistent`: stored in BookKeeper. Short names get this domain.
    Persistent,
    /// `non-persistent`: never stored.
    NonPersistent,
    /// `topic`: a scalable topic (master rules only).
    Topic,
    /// `segment`: one hash-range segment of a scalable topic (master rules
    /// only).
    Segment,
}

impl TopicDomain {
    /// The domain's name as Java prints it (`TopicDomain.value()`), always
    /// lower case: `persistent`, `non-persistent`, `topic` or `segment`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`TopicDomain::as_str`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::Persistent => c"persistent",
            Self::NonPersistent => c"non-persistent",
            Self::Topic => c"topic",
            Self::Segment => c"segment",
        }
    }

    /// `TopicDomain.getEnum(value)`: the domain named by `value`, ignoring
    /// case as Java's `equalsIgnoreCase` does (so `PERSISTENT` and even
    /// `perſistent` name [`TopicDomain::Persistent`]), or `None`. `topic`
    /// and `segment` exist only under [`TopicNameRules::Master`].
    ///
    /// ```
    /// use pulsar_routing::topic_name::{TopicDomain, TopicNameRules};
    /// assert_eq!(TopicDomain::parse("Non-Persistent", TopicNameRules::Pulsar4_2), Some(TopicDomain::NonPersistent));
    /// assert_eq!(TopicDomain::parse("topic", TopicNameRules::Pulsar4_2), None);
    /// assert_eq!(TopicDomain::parse("topic", TopicNameRules::Master), Some(TopicDomain::Topic));
    /// ```
    #[must_use]
    pub fn parse(value: &str, rules: TopicNameRules) -> Option<Self> {
        let known: &[Self] = match rules {
            TopicNameRules::Pulsar4_2 | TopicNameRules::V4 => {
                &[Self::Persistent, Self::NonPersistent]
            }
            TopicNameRules::Master => &[
                Self::Persistent,
                Self::NonPersistent,
                Self::Topic,
                Self::Segment,
            ],
        };
        known
            .iter()
            .copied()
            .find(|domain| java_equals_ignore_case(value, domain.as_str()))
    }

    /// Whether topics of this domain are stored: every domain but
    /// `non-persistent` (Java's `isPersistent()`; the scalable domains are
    /// backed by managed ledgers).
    #[must_use]
    pub const fn is_persistent(self) -> bool {
        !matches!(self, Self::NonPersistent)
    }
}

impl fmt::Display for TopicDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed topic name, borrowing the text it was parsed from.
///
/// Equality and hashing follow Java's `equals`/`hashCode`: two names are
/// equal when their canonical names ([`Display`](fmt::Display)) are, so
/// `my-topic` equals `persistent://public/default/my-topic`.
///
/// ```
/// use pulsar_routing::topic_name::{TopicName, TopicNameRules};
///
/// let v1 = TopicName::parse_with("persistent://tenant/cluster/ns/a b", TopicNameRules::V4)?;
/// assert_eq!(v1.cluster(), Some("cluster"));
/// assert_eq!(v1.namespace().to_string(), "tenant/cluster/ns");
/// assert_eq!(v1.local_name(), "a b");
/// assert_eq!(v1.lookup_name().to_string(), "persistent/tenant/cluster/ns/a+b");
/// assert_eq!(v1.persistence_naming().to_string(), "tenant/cluster/ns/persistent/a+b");
/// assert_eq!(v1.partition(2)?.to_string(), "persistent://tenant/cluster/ns/a b-partition-2");
/// assert_eq!(TopicName::parse("my-topic")?, "persistent://public/default/my-topic");
/// # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TopicName<'a> {
    input: &'a str,
    domain: TopicDomain,
    tenant: &'a str,
    cluster: Option<&'a str>,
    namespace: &'a str,
    local: &'a str,
    descriptor: Option<&'a str>,
    partition_index: i32,
    rules: TopicNameRules,
    /// The canonical name is `input` itself: the 4.2 and master rules keep
    /// full names as written, and a v4 full name with a lower-case domain
    /// rebuilds to the same text. Decided once at parse time, since hashing
    /// asks per call.
    verbatim: bool,
    /// A one-part short name: tenant and namespace are the defaults.
    default_namespace: bool,
}

impl<'a> TopicName<'a> {
    /// Parses `name` with the rules of the 4.2 release
    /// ([`TopicNameRules::Pulsar4_2`], the default).
    ///
    /// # Errors
    /// Whatever Java's `TopicName.get` throws for `name`, as a
    /// [`TopicNameError`] with the same message.
    pub fn parse(name: &'a str) -> Result<Self, TopicNameError<'a>> {
        Self::parse_with(name, TopicNameRules::Pulsar4_2)
    }

    /// Parses `name` with the given rules.
    ///
    /// ```
    /// use pulsar_routing::topic_name::{TopicName, TopicNameRules};
    ///
    /// let v1 = "persistent://tenant/cluster/ns/topic";
    /// assert!(TopicName::parse_with(v1, TopicNameRules::V4).is_ok());
    /// let err = TopicName::parse_with(v1, TopicNameRules::Pulsar4_2).unwrap_err();
    /// assert!(err.to_string().starts_with("V1 topic names (with cluster component) are no longer supported."));
    /// // 4.2 has no scalable domains.
    /// let err = TopicName::parse_with("segment://t/ns/x/0000-ffff-1", TopicNameRules::Pulsar4_2).unwrap_err();
    /// assert!(err.to_string().starts_with("V1 topic names"));
    /// assert!(TopicName::parse_with("topic://t/ns/x", TopicNameRules::Master).is_ok());
    /// ```
    ///
    /// # Errors
    /// Whatever Java's `TopicName.get` throws for `name` under those rules,
    /// with the same message.
    pub fn parse_with(name: &'a str, rules: TopicNameRules) -> Result<Self, TopicNameError<'a>> {
        match rules {
            TopicNameRules::V4 => Self::parse_v4(name),
            TopicNameRules::Master | TopicNameRules::Pulsar4_2 => Self::parse_master(name, rules),
        }
    }

    /// The v4 constructor: short names are expanded into a full name (which
    /// the error messages then quote), and the full name is split with
    /// Guava's `Splitter.on("/").limit(4)`, which keeps empty parts.
    fn parse_v4(input: &'a str) -> Result<Self, TopicNameError<'a>> {
        let (domain, rest, prefix) = match split_once_str(input, "://") {
            Some((domain, rest)) => {
                let domain = TopicDomain::parse(domain, TopicNameRules::V4)
                    .ok_or(TopicNameError::InvalidDomain { domain })?;
                (domain, rest, "")
            }
            None => {
                // `StringUtils.split(name, '/')` drops empty tokens.
                let mut tokens = input.split('/').filter(|token| !token.is_empty());
                match (tokens.next(), tokens.next(), tokens.next(), tokens.next()) {
                    (Some(_), Some(_), Some(_), None) => {
                        (TopicDomain::Persistent, input, "persistent://")
                    }
                    (Some(local), None, _, _) => {
                        return Self::finish_v4(
                            input,
                            TopicDomain::Persistent,
                            ["public", "default", local],
                            None,
                            "persistent://public/default/",
                            local,
                        );
                    }
                    _ => return Err(TopicNameError::InvalidShortName { name: input }),
                }
            }
        };
        let mut parts = rest.splitn(4, '/');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(tenant), Some(namespace), Some(local), None) => Self::finish_v4(
                input,
                domain,
                [tenant, namespace, local],
                None,
                prefix,
                input,
            ),
            (Some(tenant), Some(cluster), Some(namespace), Some(local)) => Self::finish_v4(
                input,
                domain,
                [tenant, namespace, local],
                Some(cluster),
                prefix,
                input,
            ),
            _ => Err(TopicNameError::InvalidTopicName {
                name: input,
                rules: TopicNameRules::V4,
            }),
        }
    }

    /// The v4 checks after splitting: the namespace first, then a blank
    /// local name, quoted as `blank_prefix` + `blank_name`.
    fn finish_v4(
        input: &'a str,
        domain: TopicDomain,
        [tenant, namespace, local]: [&'a str; 3],
        cluster: Option<&'a str>,
        blank_prefix: &'static str,
        blank_name: &'a str,
    ) -> Result<Self, TopicNameError<'a>> {
        validate_namespace(tenant, cluster, namespace)?;
        if is_java_blank(local) {
            return Err(TopicNameError::BlankLocalName {
                prefix: blank_prefix,
                name: blank_name,
            });
        }
        let mut topic = Self {
            input,
            domain,
            tenant,
            cluster,
            namespace,
            local,
            descriptor: None,
            // v4 reads the index from the whole name, but the last
            // `-partition-` of a valid name is in its local name, or else
            // the text after it holds a `/` and is no number either way.
            partition_index: get_partition_index(local),
            rules: TopicNameRules::V4,
            verbatim: false,
            default_namespace: blank_prefix == DEFAULT_NAMESPACE_PREFIX,
        };
        topic.verbatim = topic.input_is_canonical();
        Ok(topic)
    }

    /// The master and 4.2 constructor: `splitBySlash` rejects empty parts,
    /// and a full name is kept as written. Master lets the domain decide how
    /// many parts a full name may have; 4.2, without scalable domains,
    /// always splits into at most four and only then reads the domain, so
    /// a malformed path is reported before an unknown domain.
    fn parse_master(input: &'a str, rules: TopicNameRules) -> Result<Self, TopicNameError<'a>> {
        let invalid = |name| TopicNameError::InvalidTopicName { name, rules };
        let domain_of = |domain| {
            TopicDomain::parse(domain, rules).ok_or(TopicNameError::InvalidDomain { domain })
        };
        let mut parts_len_is_one = false;
        let (domain, [tenant, namespace, mut local], verbatim) = match split_once_str(input, "://")
        {
            Some((domain_text, rest)) => {
                let known = match rules {
                    TopicNameRules::Master => Some(domain_of(domain_text)?),
                    _ => None,
                };
                // Scalable local names may hold `/`.
                let limit = match known {
                    Some(TopicDomain::Topic | TopicDomain::Segment) => 3,
                    _ => 4,
                };
                let parts = split_by_slash(rest, limit).ok_or(invalid(rest))?;
                let three = match parts.exactly_three() {
                    Some(three) => three,
                    None if parts.len == 4 => {
                        return Err(TopicNameError::V1NameUnsupported { name: input });
                    }
                    None => return Err(invalid(input)),
                };
                let domain = match known {
                    Some(domain) => domain,
                    None => domain_of(domain_text)?,
                };
                (domain, three, true)
            }
            None => {
                let parts = split_by_slash(input, 0).ok_or(invalid(input))?;
                let [first, ..] = parts.items;
                parts_len_is_one = parts.len == 1;
                match (parts.len, parts.exactly_three()) {
                    (_, Some(three)) => (TopicDomain::Persistent, three, false),
                    (1, None) => (TopicDomain::Persistent, ["public", "default", first], false),
                    _ => return Err(TopicNameError::InvalidShortName { name: input }),
                }
            }
        };
        // The golden rows do not show whether the descriptor is checked
        // before the blank local name; parsing the whole name first is the
        // natural reading of PIP-460's `TopicName`.
        let mut descriptor = None;
        if domain == TopicDomain::Segment {
            let (parent, desc) = local
                .rsplit_once('/')
                .ok_or(TopicNameError::SegmentWithoutDescriptor { name: input })?;
            if !is_segment_descriptor(desc) {
                return Err(TopicNameError::InvalidSegmentDescriptor {
                    name: input,
                    descriptor: desc,
                    partition: None,
                });
            }
            local = parent;
            descriptor = Some(desc);
        }
        if is_java_blank(local) {
            // Both constructors quote their argument, not the expansion.
            return Err(TopicNameError::BlankLocalName {
                prefix: "",
                name: input,
            });
        }
        // Unlike v4, 4.2 and master build the `NamespaceName` after the blank
        // check (lazily, in later versions), so a blank local name wins.
        validate_namespace(tenant, None, namespace)?;
        Ok(Self {
            input,
            domain,
            tenant,
            cluster: None,
            namespace,
            local,
            descriptor,
            partition_index: get_partition_index(local),
            rules,
            verbatim,
            default_namespace: !verbatim && parts_len_is_one,
        })
    }

    /// The rules the name was parsed with.
    #[must_use]
    pub const fn rules(&self) -> TopicNameRules {
        self.rules
    }

    /// The domain; a short name is [`TopicDomain::Persistent`].
    #[must_use]
    pub const fn domain(&self) -> TopicDomain {
        self.domain
    }

    /// The tenant; `public` for a one-part short name.
    #[must_use]
    pub const fn tenant(&self) -> &'a str {
        self.tenant
    }

    /// The cluster of a V1 name (`persistent://tenant/cluster/ns/topic`,
    /// v4 rules only), or `None`.
    #[must_use]
    pub const fn cluster(&self) -> Option<&'a str> {
        self.cluster
    }

    /// Whether this is a V2 name, without a cluster (Java's `isV2()`).
    #[must_use]
    pub const fn is_v2(&self) -> bool {
        self.cluster.is_none()
    }

    /// The namespace without its tenant (Java's `getNamespacePortion()`);
    /// `default` for a one-part short name.
    #[must_use]
    pub const fn namespace_portion(&self) -> &'a str {
        self.namespace
    }

    /// The namespace, `tenant/ns` or `tenant/cluster/ns` (Java's
    /// `getNamespace()`).
    #[must_use]
    pub const fn namespace(&self) -> TopicNamespace<'a> {
        TopicNamespace::new(self.tenant, self.cluster, self.namespace)
    }

    /// The topic's own name, after the namespace, as written: it may hold
    /// spaces, `?`, `%`, non-ASCII text and, in V1 or `topic://` names, `/`.
    /// For a `segment://` name it is the parent topic's local name, without
    /// the descriptor.
    #[must_use]
    pub const fn local_name(&self) -> &'a str {
        self.local
    }

    /// The `<hashStart>-<hashEnd>-<segmentId>` descriptor of a `segment://`
    /// name (Java's `getSegmentDescriptor()`), or `None`.
    #[must_use]
    pub const fn segment_descriptor(&self) -> Option<&'a str> {
        self.descriptor
    }

    /// The partition number from the `-partition-<n>` suffix of the local
    /// name, or -1 (Java's `getPartitionIndex()`); see
    /// [`get_partition_index`] for the exact rules.
    #[must_use]
    pub const fn partition_index(&self) -> i32 {
        self.partition_index
    }

    /// Whether the name is one partition of a partitioned topic (Java's
    /// `isPartitioned()`: the index is not -1).
    #[must_use]
    pub const fn is_partitioned(&self) -> bool {
        self.partition_index != -1
    }

    /// Whether the topic is stored (Java's `isPersistent()`).
    #[must_use]
    pub const fn is_persistent(&self) -> bool {
        self.domain.is_persistent()
    }

    /// The name of the partitioned topic this partition belongs to, or the
    /// name itself when it is no partition (Java's
    /// `getPartitionedTopicName()`).
    #[must_use]
    pub const fn partitioned_topic_name(&self) -> PartitionedTopicName<'a> {
        PartitionedTopicName::new(*self)
    }

    /// The name of partition `index` of this topic (Java's
    /// `getPartition(index)`): `-partition-<index>` appended, except that
    /// -1, or a name already ending with that suffix, gives the name itself.
    ///
    /// ```
    /// use pulsar_routing::topic_name::TopicName;
    ///
    /// let topic = TopicName::parse("persistent://t/ns/x-partition-2")?;
    /// assert_eq!(topic.partition(2)?.to_string(), "persistent://t/ns/x-partition-2");
    /// assert_eq!(topic.partition(3)?.to_string(), "persistent://t/ns/x-partition-2-partition-3");
    /// assert_eq!(topic.partition(3)?.partition_index(), 3);
    /// # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
    /// ```
    ///
    /// # Errors
    /// Only for a `segment://` name (master rules): the suffix lands in its
    /// descriptor, and Java fails to parse the name it built
    /// ([`TopicNameError::InvalidSegmentDescriptor`]).
    pub fn partition(&self, index: i32) -> Result<TopicPartitionName<'a>, TopicNameError<'a>> {
        if index == -1 || self.ends_with_partition_suffix(index) {
            return Ok(TopicPartitionName::new(*self, None));
        }
        if let Some(descriptor) = self.descriptor {
            return Err(TopicNameError::InvalidSegmentDescriptor {
                name: self.input,
                descriptor,
                partition: Some(index),
            });
        }
        Ok(TopicPartitionName::new(*self, Some(index)))
    }

    /// Whether the canonical name ends with `-partition-<index>`. The
    /// suffix holds no `/`, so it can only lie within the last piece.
    fn ends_with_partition_suffix(&self, index: i32) -> bool {
        let pieces = self.pieces();
        let last = pieces.as_slice().last().copied().unwrap_or("");
        let digits = java::JavaDecimal::new(index);
        last.strip_suffix(digits.as_str())
            .is_some_and(|rest| rest.ends_with(PARTITION_SUFFIX))
    }

    /// `domain/tenant[/cluster]/ns/<encoded local>` (Java's
    /// `getLookupName()`).
    #[must_use]
    pub const fn lookup_name(&self) -> LookupName<'a> {
        LookupName::new(*self)
    }

    /// `tenant[/cluster]/ns/domain/<encoded local>`, the managed-ledger name
    /// (Java's `getPersistenceNamingEncoding()`). A `topic://` name has no
    /// domain part, and a `segment://` name ends with `/<descriptor>`.
    #[must_use]
    pub const fn persistence_naming(&self) -> PersistenceNaming<'a> {
        PersistenceNaming::new(*self)
    }

    /// `domain/tenant[/cluster]/ns/<encoded local>`, the admin REST path
    /// (Java's `getRestPath()`).
    #[must_use]
    pub const fn rest_path(&self) -> RestPath<'a> {
        RestPath::new(*self, true)
    }

    /// The REST path without the leading `domain/` (Java's
    /// `getRestPath(false)`).
    #[must_use]
    pub const fn rest_path_without_domain(&self) -> RestPath<'a> {
        RestPath::new(*self, false)
    }

    /// The local name URL-encoded as Java's `URLEncoder.encode(s, UTF_8)`
    /// does (Java's `getEncodedLocalName()`).
    #[must_use]
    pub const fn encoded_local_name(&self) -> UrlEncoded<'a> {
        url_encode(self.local)
    }

    /// Calls `f` with successive pieces of the canonical name; together they
    /// are exactly what [`Display`](fmt::Display) writes, and what Java's
    /// `toString()` returns.
    pub fn for_each_piece(&self, mut f: impl FnMut(&'a str)) {
        for piece in self.pieces().as_slice() {
            f(piece);
        }
    }

    /// The length in bytes of the canonical name.
    #[must_use]
    pub fn canonical_len(&self) -> usize {
        self.pieces()
            .as_slice()
            .iter()
            .fold(0, |len, piece| len.saturating_add(piece.len()))
    }

    /// CRC-32/IEEE of the UTF-8 canonical name: the hash the broker uses to
    /// find the topic's namespace bundle, computed without building the
    /// name.
    ///
    /// ```
    /// use pulsar_routing::topic_name::TopicName;
    /// assert_eq!(TopicName::parse("my-topic")?.crc32(), 732775927);
    /// # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn crc32(&self) -> u32 {
        // A name given in canonical form (the common case) is hashed as
        // one slice; assembling pieces stays out of line.
        if self.verbatim {
            return crate::crc32::crc32(self.input.as_bytes());
        }
        self.crc32_of_pieces()
    }

    /// [`TopicName::crc32`] of a name that is not kept verbatim.
    #[inline(never)]
    fn crc32_of_pieces(&self) -> u32 {
        self.pieces().crc32().finalize()
    }

    /// The canonical name in pieces: the input itself, or the components
    /// with their separators and a lower-case domain. As few pieces as
    /// possible, since CRC-32 is much faster over one long slice than over
    /// several short ones.
    fn pieces(&self) -> Pieces<'a> {
        let mut pieces = Pieces::default();
        if self.verbatim {
            pieces.push(self.input);
            return pieces;
        }
        // The components are slices of the input, in order: if the input is
        // exactly as long as they are with single slashes between them, it
        // is them with single slashes between them.
        if self.cluster.is_none() && self.domain == TopicDomain::Persistent {
            if self.default_namespace {
                pieces.push(DEFAULT_NAMESPACE_PREFIX);
                pieces.push(self.local);
                return pieces;
            }
            let short_len = self.tenant.len() + self.namespace.len() + self.local.len() + 2;
            if self.input.len() == short_len && !self.input.contains("://") {
                pieces.push(PERSISTENT_PREFIX);
                pieces.push(self.input);
                return pieces;
            }
        }
        pieces.push(self.domain.as_str());
        pieces.push("://");
        pieces.push(self.tenant);
        pieces.push("/");
        if let Some(cluster) = self.cluster {
            pieces.push(cluster);
            pieces.push("/");
        }
        pieces.push(self.namespace);
        pieces.push("/");
        pieces.push(self.local);
        pieces
    }

    /// Whether a full name is already canonical: its domain is spelled in
    /// lower case, so rebuilding it gives back the same text.
    fn input_is_canonical(&self) -> bool {
        let domain = self.domain.as_str();
        self.input.len() == self.rebuilt_len()
            && self.input.starts_with(domain)
            && self
                .input
                .get(domain.len()..)
                .is_some_and(|rest| rest.starts_with("://"))
    }

    fn rebuilt_len(&self) -> usize {
        let cluster = self.cluster.map_or(0, |c| c.len() + 1);
        self.domain.as_str().len()
            + 3
            + self.tenant.len()
            + 1
            + cluster
            + self.namespace.len()
            + 1
            + self.local.len()
    }

    fn canonical_bytes(&self) -> impl Iterator<Item = u8> + 'a {
        self.pieces().into_bytes()
    }
}

impl<'a> TryFrom<&'a str> for TopicName<'a> {
    type Error = TopicNameError<'a>;

    /// [`TopicName::parse`].
    fn try_from(name: &'a str) -> Result<Self, Self::Error> {
        Self::parse(name)
    }
}

impl fmt::Display for TopicName<'_> {
    /// The canonical name, as Java's `toString()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces()
            .as_slice()
            .iter()
            .try_for_each(|piece| f.write_str(piece))
    }
}

impl PartialEq for TopicName<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.canonical_bytes().eq(other.canonical_bytes())
    }
}

impl Eq for TopicName<'_> {}

impl PartialEq<str> for TopicName<'_> {
    /// Compares the canonical name with `other`.
    fn eq(&self, other: &str) -> bool {
        self.canonical_bytes().eq(other.bytes())
    }
}

impl PartialEq<&str> for TopicName<'_> {
    /// Compares the canonical name with `other`.
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl Hash for TopicName<'_> {
    /// Hashes the canonical name, so equal names hash equally whatever form
    /// they were written in.
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_bytes(self.canonical_bytes(), state);
    }
}

/// Feeds a byte stream to `state` in chunks that depend only on the bytes,
/// not on how they were split into pieces, then a terminator as `str` does.
fn hash_bytes<H: Hasher>(bytes: impl Iterator<Item = u8>, state: &mut H) {
    let mut chunk = [0u8; 64];
    let mut len = 0;
    for byte in bytes {
        if let Some(slot) = chunk.get_mut(len) {
            *slot = byte;
            len += 1;
        }
        if len == chunk.len() {
            state.write(&chunk);
            len = 0;
        }
    }
    state.write(chunk.get(..len).unwrap_or(&[]));
    state.write_u8(0xff);
}

/// `NamespaceName.validateNamespaceName`: every part non-empty, then each
/// part, in order, a named entity.
fn validate_namespace<'a>(
    tenant: &'a str,
    cluster: Option<&'a str>,
    namespace: &'a str,
) -> Result<(), TopicNameError<'a>> {
    if tenant.is_empty() || cluster.is_some_and(str::is_empty) || namespace.is_empty() {
        return Err(TopicNameError::InvalidNamespaceFormat {
            tenant,
            cluster,
            namespace,
        });
    }
    for name in [Some(tenant), cluster, Some(namespace)]
        .into_iter()
        .flatten()
    {
        if !is_named_entity(name) {
            return Err(TopicNameError::InvalidNamedEntity { name });
        }
    }
    Ok(())
}

/// Up to four parts of a split, and how many there were in all.
#[derive(Clone, Copy)]
struct SlashParts<'a> {
    items: [&'a str; 4],
    len: usize,
}

impl<'a> SlashParts<'a> {
    fn push(&mut self, part: &'a str) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = part;
        }
        self.len = self.len.saturating_add(1);
    }

    fn exactly_three(&self) -> Option<[&'a str; 3]> {
        let [a, b, c, _] = self.items;
        (self.len == 3).then_some([a, b, c])
    }
}

/// The 4.2 and master `splitBySlash(topic, limit)`: splits at `/` into at
/// most `limit` parts (0: no limit), the last part keeping any further `/`.
/// `None` (Java's "Invalid topic name") for an empty part before the last
/// one, or an empty last part when the limit was reached.
fn split_by_slash(topic: &str, limit: usize) -> Option<SlashParts<'_>> {
    let mut parts = SlashParts {
        items: [""; 4],
        len: 0,
    };
    let mut rest = topic;
    while limit == 0 || parts.len.saturating_add(1) < limit {
        match rest.split_once('/') {
            None => {
                parts.push(rest);
                return Some(parts);
            }
            Some(("", _)) => return None,
            Some((part, after)) => {
                parts.push(part);
                rest = after;
            }
        }
    }
    if rest.is_empty() {
        return None;
    }
    parts.push(rest);
    Some(parts)
}

/// Whether `descriptor` is `<hashStart>-<hashEnd>-<segmentId>`: two hex
/// numbers with `0 <= start <= end <= 0xffff` (PIP-460's 16-bit hash range)
/// and a `long`, each parsed as Java's `Integer.parseInt`/`Long.parseLong`
/// would.
fn is_segment_descriptor(descriptor: &str) -> bool {
    let mut parts = descriptor.split('-');
    let (Some(start), Some(end), Some(id), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let int = |text| parse_java_integer(text, 16, i32::MIN.into(), i32::MAX.into());
    match (int(start), int(end)) {
        (Some(start), Some(end)) => {
            0 <= start
                && start <= end
                && end <= 0xffff
                && parse_java_integer(id, 10, i64::MIN, i64::MAX).is_some()
        }
        _ => false,
    }
}

/// The canonical name as a list of string slices; at most nine, for a V1
/// name: `domain`, `://`, tenant, `/`, cluster, `/`, namespace, `/`, local.
#[derive(Clone, Copy, Default)]
struct Pieces<'a> {
    items: [&'a str; 9],
    len: usize,
}

/// The canonical prefix of short names `tenant/ns/topic`.
const PERSISTENT_PREFIX: &str = "persistent://";
/// The canonical prefix of short names `topic`.
const DEFAULT_NAMESPACE_PREFIX: &str = "persistent://public/default/";

impl<'a> Pieces<'a> {
    /// A CRC-32 hasher fed with every piece. The constant prefixes of short
    /// names come precomputed.
    pub(super) fn crc32(&self) -> Crc32 {
        const PERSISTENT: u32 = crate::crc32::crc32_const(PERSISTENT_PREFIX.as_bytes());
        const DEFAULT_NAMESPACE: u32 =
            crate::crc32::crc32_const(DEFAULT_NAMESPACE_PREFIX.as_bytes());
        let (mut crc, rest) = match self.as_slice() {
            [PERSISTENT_PREFIX, rest @ ..] => (Crc32::resume(PERSISTENT), rest),
            [DEFAULT_NAMESPACE_PREFIX, rest @ ..] => (Crc32::resume(DEFAULT_NAMESPACE), rest),
            all => (Crc32::new(), all),
        };
        for piece in rest {
            crc.update(piece.as_bytes());
        }
        crc
    }

    fn push(&mut self, piece: &'a str) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = piece;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[&'a str] {
        self.items.get(..self.len).unwrap_or(&[])
    }

    /// The pieces up to the last `-partition-` (Java's
    /// `substring(0, lastIndexOf("-partition-"))`), or all of them if there
    /// is none. The separators hold no `-`, so the match lies within one
    /// piece.
    fn before_last_partition_suffix(mut self) -> Self {
        let mut at = self.len;
        while at > 0 {
            at -= 1;
            let Some(piece) = self.items.get_mut(at) else {
                break;
            };
            if let Some((before, _)) = rsplit_once_str(piece, PARTITION_SUFFIX) {
                *piece = before;
                self.len = at + 1;
                break;
            }
        }
        self
    }

    fn into_bytes(self) -> impl Iterator<Item = u8> + 'a {
        self.items.into_iter().take(self.len).flat_map(str::bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_by_slash_matches_java() {
        let parts = |s, limit| split_by_slash(s, limit).map(|p| (p.len, p.items));
        assert_eq!(parts("a/b/c", 0), Some((3, ["a", "b", "c", ""])));
        assert_eq!(parts("x/", 0), Some((2, ["x", "", "", ""])));
        assert_eq!(parts("", 0), Some((1, ["", "", "", ""])));
        assert_eq!(parts("/", 0), None);
        assert_eq!(parts("a//b", 0), None);
        assert_eq!(parts("t/ns/a/b/c", 4), Some((4, ["t", "ns", "a", "b/c"])));
        assert_eq!(parts("t/ns/x://y", 4), Some((4, ["t", "ns", "x:", "/y"])));
        assert_eq!(parts("t/ns/x/", 4), None);
        assert_eq!(parts("t/ns/", 4), Some((3, ["t", "ns", "", ""])));
        assert_eq!(parts("t/ns/", 3), None);
        assert_eq!(parts("t/ns/a//b", 3), Some((3, ["t", "ns", "a//b", ""])));
    }

    #[test]
    fn segment_descriptors() {
        assert!(is_segment_descriptor("0000-ffff-0"));
        assert!(is_segment_descriptor("8000-FFFF-12"));
        assert!(!is_segment_descriptor("ffff-0000-1"));
        assert!(!is_segment_descriptor("0000-10000-1"));
        assert!(!is_segment_descriptor("0000-ffff"));
        assert!(!is_segment_descriptor("0000-ffff-1-partition-3"));
        assert!(!is_segment_descriptor("bad-descriptor"));
    }
}
