//! Names derived from a [`TopicName`], each a small `Copy` value that writes
//! itself with `Display` instead of building a string.

use core::fmt;
use core::hash::{Hash, Hasher};

use super::java::{JavaDecimal, PARTITION_SUFFIX};
use super::{Pieces, TopicDomain, TopicName, hash_bytes};

/// A topic's namespace: `tenant/namespace`, or `tenant/cluster/namespace`
/// for a V1 name (Java's `NamespaceName`, as `getNamespace()` prints it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TopicNamespace<'a> {
    tenant: &'a str,
    cluster: Option<&'a str>,
    namespace: &'a str,
}

impl<'a> TopicNamespace<'a> {
    pub(super) const fn new(tenant: &'a str, cluster: Option<&'a str>, namespace: &'a str) -> Self {
        Self {
            tenant,
            cluster,
            namespace,
        }
    }

    /// The tenant.
    #[must_use]
    pub const fn tenant(&self) -> &'a str {
        self.tenant
    }

    /// The cluster of a V1 namespace, or `None`.
    #[must_use]
    pub const fn cluster(&self) -> Option<&'a str> {
        self.cluster
    }

    /// The namespace's own name, after the tenant (and cluster).
    #[must_use]
    pub const fn namespace_portion(&self) -> &'a str {
        self.namespace
    }
}

impl fmt::Display for TopicNamespace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tenant)?;
        f.write_str("/")?;
        if let Some(cluster) = self.cluster {
            f.write_str(cluster)?;
            f.write_str("/")?;
        }
        f.write_str(self.namespace)
    }
}

/// The name of the partitioned topic a partition belongs to: the canonical
/// name cut at its last `-partition-`, or the whole canonical name when the
/// topic is no partition (Java's `getPartitionedTopicName()`).
///
/// It is text, not a [`TopicName`]: `persistent://t/ns/-partition-3` is
/// partition 3 of `persistent://t/ns/`, which does not parse.
///
/// ```
/// use pulsar_routing::topic_name::TopicName;
/// let topic = TopicName::parse("persistent://t/ns/x-partition-0-partition-1")?;
/// assert_eq!(topic.partitioned_topic_name().to_string(), "persistent://t/ns/x-partition-0");
/// # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PartitionedTopicName<'a> {
    topic: TopicName<'a>,
}

impl<'a> PartitionedTopicName<'a> {
    pub(super) const fn new(topic: TopicName<'a>) -> Self {
        Self { topic }
    }

    /// The topic this name was derived from.
    #[must_use]
    pub const fn topic(&self) -> TopicName<'a> {
        self.topic
    }

    /// Calls `f` with successive pieces of the name.
    pub fn for_each_piece(&self, mut f: impl FnMut(&'a str)) {
        for piece in self.pieces().as_slice() {
            f(piece);
        }
    }

    fn pieces(&self) -> Pieces<'a> {
        let pieces = self.topic.pieces();
        if self.topic.is_partitioned() {
            pieces.before_last_partition_suffix()
        } else {
            pieces
        }
    }
}

impl fmt::Display for PartitionedTopicName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces()
            .as_slice()
            .iter()
            .try_for_each(|piece| f.write_str(piece))
    }
}

/// The name of one partition of a topic (Java's `getPartition(i)`): the
/// topic's canonical name, then `-partition-<i>` unless
/// [`TopicName::partition`] found it there already.
///
/// Equality and hashing go by the full name, like [`TopicName`]'s.
#[derive(Clone, Copy, Debug)]
pub struct TopicPartitionName<'a> {
    topic: TopicName<'a>,
    suffix: Option<i32>,
}

impl<'a> TopicPartitionName<'a> {
    pub(super) const fn new(topic: TopicName<'a>, suffix: Option<i32>) -> Self {
        Self { topic, suffix }
    }

    /// The topic whose partition this is.
    #[must_use]
    pub const fn topic(&self) -> TopicName<'a> {
        self.topic
    }

    /// The partition index Java reads back from this name: the requested
    /// index when it was appended and is not negative, -1 for a negative one
    /// (`x-partition--2` is no partition), and the topic's own index when
    /// nothing was appended.
    #[must_use]
    pub const fn partition_index(&self) -> i32 {
        match self.suffix {
            Some(index) if index >= 0 => index,
            Some(_) => -1,
            None => self.topic.partition_index(),
        }
    }

    /// Calls `f` with successive pieces of the name; together they are
    /// exactly what [`Display`](fmt::Display) writes.
    pub fn for_each_piece(&self, mut f: impl FnMut(&str)) {
        self.topic.for_each_piece(&mut f);
        if let Some(index) = self.suffix {
            f(PARTITION_SUFFIX);
            f(JavaDecimal::new(index).as_str());
        }
    }

    /// CRC-32/IEEE of the UTF-8 name: the partition's bundle hash.
    ///
    /// ```
    /// use pulsar_routing::{crc32, topic_name::TopicName};
    /// let partition = TopicName::parse("t/ns/x")?.partition(5)?;
    /// assert_eq!(partition.crc32(), crc32(b"persistent://t/ns/x-partition-5"));
    /// # Ok::<(), pulsar_routing::topic_name::TopicNameError<'static>>(())
    /// ```
    #[must_use]
    pub fn crc32(&self) -> u32 {
        let mut crc = self.topic.pieces().crc32();
        if let Some(index) = self.suffix {
            crc.update(PARTITION_SUFFIX.as_bytes());
            crc.update(JavaDecimal::new(index).as_str().as_bytes());
        }
        crc.finalize()
    }

    fn bytes(&self) -> impl Iterator<Item = u8> + 'a {
        let suffix = self
            .suffix
            .into_iter()
            .flat_map(|index| PARTITION_SUFFIX.bytes().chain(JavaDecimal::new(index)));
        self.topic.canonical_bytes().chain(suffix)
    }
}

impl fmt::Display for TopicPartitionName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut result = Ok(());
        self.for_each_piece(|piece| {
            if result.is_ok() {
                result = f.write_str(piece);
            }
        });
        result
    }
}

impl PartialEq for TopicPartitionName<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes().eq(other.bytes())
    }
}

impl Eq for TopicPartitionName<'_> {}

impl PartialEq<str> for TopicPartitionName<'_> {
    /// Compares the name with `other`.
    fn eq(&self, other: &str) -> bool {
        self.bytes().eq(other.bytes())
    }
}

impl PartialEq<&str> for TopicPartitionName<'_> {
    /// Compares the name with `other`.
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl Hash for TopicPartitionName<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_bytes(self.bytes(), state);
    }
}

/// The components of a name in the order lookups and REST paths use:
/// `tenant[/cluster]/ns/<encoded local>`.
fn write_path(topic: &TopicName<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(topic.tenant())?;
    f.write_str("/")?;
    if let Some(cluster) = topic.cluster() {
        f.write_str(cluster)?;
        f.write_str("/")?;
    }
    f.write_str(topic.namespace_portion())?;
    f.write_str("/")?;
    fmt::Display::fmt(&topic.encoded_local_name(), f)
}

/// `domain/tenant[/cluster]/ns/<encoded local>` (Java's `getLookupName()`);
/// the domain is always lower case.
#[derive(Clone, Copy, Debug)]
pub struct LookupName<'a> {
    topic: TopicName<'a>,
}

impl<'a> LookupName<'a> {
    pub(super) const fn new(topic: TopicName<'a>) -> Self {
        Self { topic }
    }
}

impl fmt::Display for LookupName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.topic.domain().as_str())?;
        f.write_str("/")?;
        write_path(&self.topic, f)
    }
}

/// The admin REST path, `[domain/]tenant[/cluster]/ns/<encoded local>`
/// (Java's `getRestPath(includeDomain)`).
#[derive(Clone, Copy, Debug)]
pub struct RestPath<'a> {
    topic: TopicName<'a>,
    include_domain: bool,
}

impl<'a> RestPath<'a> {
    pub(super) const fn new(topic: TopicName<'a>, include_domain: bool) -> Self {
        Self {
            topic,
            include_domain,
        }
    }
}

impl fmt::Display for RestPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.include_domain {
            f.write_str(self.topic.domain().as_str())?;
            f.write_str("/")?;
        }
        write_path(&self.topic, f)
    }
}

/// The managed-ledger name, `tenant[/cluster]/ns/domain/<encoded local>`
/// (Java's `getPersistenceNamingEncoding()`): `topic://` names leave the
/// domain out, `segment://` names add `/<descriptor>`.
#[derive(Clone, Copy, Debug)]
pub struct PersistenceNaming<'a> {
    topic: TopicName<'a>,
}

impl<'a> PersistenceNaming<'a> {
    pub(super) const fn new(topic: TopicName<'a>) -> Self {
        Self { topic }
    }
}

impl fmt::Display for PersistenceNaming<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let topic = &self.topic;
        f.write_str(topic.tenant())?;
        f.write_str("/")?;
        if let Some(cluster) = topic.cluster() {
            f.write_str(cluster)?;
            f.write_str("/")?;
        }
        f.write_str(topic.namespace_portion())?;
        f.write_str("/")?;
        // A scalable topic has no ledger of its own; only its segments do.
        if topic.domain() != TopicDomain::Topic {
            f.write_str(topic.domain().as_str())?;
            f.write_str("/")?;
        }
        fmt::Display::fmt(&topic.encoded_local_name(), f)?;
        if let Some(descriptor) = topic.segment_descriptor() {
            f.write_str("/")?;
            f.write_str(descriptor)?;
        }
        Ok(())
    }
}

/// Text encoded as Java's `URLEncoder.encode(s, UTF_8)` (Pulsar's
/// `Codec.encode`): `A-Z a-z 0-9 . - * _` kept, space as `+`, every other
/// byte of the UTF-8 form as `%XX` in upper-case hex.
///
/// ```
/// use pulsar_routing::topic_name::url_encode;
/// assert_eq!(url_encode("a b/é~*").to_string(), "a+b%2F%C3%A9%7E*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UrlEncoded<'a> {
    text: &'a str,
}

/// Wraps `text` so that it displays URL-encoded (see [`UrlEncoded`]).
#[must_use]
pub const fn url_encode(text: &str) -> UrlEncoded<'_> {
    UrlEncoded { text }
}

impl UrlEncoded<'_> {
    /// The text before encoding.
    #[must_use]
    pub const fn raw(&self) -> &str {
        self.text
    }
}

const fn is_url_safe(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-' | b'*' | b'_')
}

impl fmt::Display for UrlEncoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut bytes = self.text.as_bytes();
        while !bytes.is_empty() {
            // Unchanged runs go out in one write.
            let safe = bytes.iter().take_while(|&&b| is_url_safe(b)).count();
            let (run, tail) = bytes.split_at_checked(safe).unwrap_or((bytes, &[]));
            // The run is ASCII, so always valid UTF-8.
            f.write_str(core::str::from_utf8(run).unwrap_or_default())?;
            let Some((&byte, after)) = tail.split_first() else {
                break;
            };
            if byte == b' ' {
                f.write_str("+")?;
            } else {
                write!(f, "%{byte:02X}")?;
            }
            bytes = after;
        }
        Ok(())
    }
}
