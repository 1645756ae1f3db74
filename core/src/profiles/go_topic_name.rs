//! pulsar-client-go's `internal.ParseTopicName`, borrowed from the input.
//!
//! Go diverges from Java: it accepts 4-part short names, empty and
//! unvalidated tenants and namespaces, an empty local name, only lower-case
//! domains, and reads the partition index as `Atoi` of the text after the
//! last `-` whenever the name contains `-partition-`: `my-partition-topic`
//! is then a parse error, and `x-partition-01` is partition 1.

use core::fmt;

use super::go_strconv::{GoAtoiError, go_atoi};

const PARTITION_SUFFIX: &str = "-partition-";

/// The domain of a Go topic name (case-sensitive, unlike Java).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoTopicDomain {
    /// `persistent`.
    Persistent,
    /// `non-persistent`.
    NonPersistent,
}

impl GoTopicDomain {
    /// `"persistent"` or `"non-persistent"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Persistent => "persistent",
            Self::NonPersistent => "non-persistent",
        }
    }
}

/// A topic name as Go's `ParseTopicName` splits it.
///
/// ```
/// use pulsar_routing::profiles::GoTopicName;
/// let t = GoTopicName::parse("a/b/c/d")?; // Java rejects 4-part short names
/// assert_eq!(t.name().to_string(), "persistent://a/b/c/d");
/// assert_eq!(t.namespace().to_string(), "a/b/c");
/// assert_eq!(GoTopicName::parse("x-partition-01")?.partition_index(), 1); // Java: -1
/// assert_eq!(
///     GoTopicName::parse("my-partition-topic").unwrap_err().to_string(),
///     "strconv.Atoi: parsing \"topic\": invalid syntax"
/// );
/// # Ok::<(), pulsar_routing::profiles::GoTopicNameError<'static>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoTopicName<'a> {
    input: &'a str,
    /// What Go prepends to a short name.
    prefix: &'static str,
    domain: GoTopicDomain,
    tenant: &'a str,
    cluster: Option<&'a str>,
    namespace_portion: &'a str,
    topic: &'a str,
    partition: i64,
}

impl<'a> GoTopicName<'a> {
    /// `internal.ParseTopicName(topic)`.
    ///
    /// # Errors
    /// [`GoTopicNameError`] with Go's message.
    pub fn parse(topic: &'a str) -> Result<Self, GoTopicNameError<'a>> {
        const SHORT: &str = "persistent://";
        const ONE_PART: &str = "persistent://public/default/";
        let (prefix, domain, rest) = match topic.split_once("://") {
            Some((domain, rest)) => {
                let domain = match domain {
                    "persistent" => GoTopicDomain::Persistent,
                    "non-persistent" => GoTopicDomain::NonPersistent,
                    _ => return Err(GoTopicNameError::InvalidDomain(domain)),
                };
                ("", domain, rest)
            }
            None => match topic.split('/').count() {
                3 | 4 => (SHORT, GoTopicDomain::Persistent, topic),
                1 => (ONE_PART, GoTopicDomain::Persistent, ""),
                _ => return Err(GoTopicNameError::InvalidShortName(topic)),
            },
        };
        let (tenant, cluster, namespace_portion, local) = if prefix == ONE_PART {
            ("public", None, "default", topic)
        } else {
            // strings.SplitN(rest, "/", 4)
            let mut parts = rest.splitn(4, '/');
            match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some(t), Some(ns), Some(local), None) => (t, None, ns, local),
                (Some(t), Some(c), Some(ns), Some(local)) => (t, Some(c), ns, local),
                _ => return Err(GoTopicNameError::InvalidName(topic)),
            }
        };
        // Go searches the prefixed name, but no prefix holds a '-', so the
        // input alone gives the same answer.
        let partition = go_partition_index(topic).map_err(GoTopicNameError::PartitionIndex)?;
        Ok(Self {
            input: topic,
            prefix,
            domain,
            tenant,
            cluster,
            namespace_portion,
            topic: local,
            partition,
        })
    }

    /// `Name`: the input, with `persistent://` (3 or 4 parts) or
    /// `persistent://public/default/` (1 part) in front of a short name.
    #[must_use]
    pub const fn name(&self) -> GoFullName<'a> {
        GoFullName {
            prefix: self.prefix,
            input: self.input,
        }
    }

    /// `Domain`.
    #[must_use]
    pub const fn domain(&self) -> GoTopicDomain {
        self.domain
    }

    /// `Tenant`: the first part, unvalidated and possibly empty.
    #[must_use]
    pub const fn tenant(&self) -> &'a str {
        self.tenant
    }

    /// The cluster of a 4-part (legacy) name.
    #[must_use]
    pub const fn cluster(&self) -> Option<&'a str> {
        self.cluster
    }

    /// `Namespace`: `tenant/namespace` or `tenant/cluster/namespace`.
    #[must_use]
    pub const fn namespace(&self) -> GoNamespace<'a> {
        GoNamespace {
            tenant: self.tenant,
            cluster: self.cluster,
            namespace_portion: self.namespace_portion,
        }
    }

    /// `Topic`: the local name, possibly empty or containing `/`.
    #[must_use]
    pub const fn topic(&self) -> &'a str {
        self.topic
    }

    /// `Partition`: -1 unless the name contains `-partition-`; then the
    /// `Atoi` of the text after the last `-` (a Go `int`, so up to
    /// `i64::MAX`; any sign accepted).
    #[must_use]
    pub const fn partition_index(&self) -> i64 {
        self.partition
    }
}

/// [`GoTopicName::name`], written without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoFullName<'a> {
    prefix: &'static str,
    input: &'a str,
}

impl fmt::Display for GoFullName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix)?;
        f.write_str(self.input)
    }
}

/// [`GoTopicName::namespace`], written without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoNamespace<'a> {
    tenant: &'a str,
    cluster: Option<&'a str>,
    namespace_portion: &'a str,
}

impl fmt::Display for GoNamespace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tenant)?;
        f.write_str("/")?;
        if let Some(cluster) = self.cluster {
            f.write_str(cluster)?;
            f.write_str("/")?;
        }
        f.write_str(self.namespace_portion)
    }
}

/// Why Go's `ParseTopicName` failed, printed with Go's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoTopicNameError<'a> {
    /// A name without `://` that has 2 or more than 4 parts.
    InvalidShortName(&'a str),
    /// A domain other than `persistent` and `non-persistent`, compared
    /// case-sensitively.
    InvalidDomain(&'a str),
    /// A full name with fewer than 3 parts after `://`.
    InvalidName(&'a str),
    /// The partition index is not a Go integer.
    PartitionIndex(GoAtoiError<'a>),
}

impl fmt::Display for GoTopicNameError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidShortName(name) => write!(
                f,
                "Invalid short topic name '{name}', it should be in the format of <tenant>/<namespace>/<topic> or <topic>"
            ),
            Self::InvalidDomain(domain) => write!(f, "Invalid topic domain: {domain}"),
            Self::InvalidName(name) => write!(f, "Invalid topic name: {name}"),
            Self::PartitionIndex(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for GoTopicNameError<'_> {}

/// The partition index pulsar-client-go reads from a topic name: -1 without
/// `-partition-`, otherwise `Atoi` of the text after the last `-`.
///
/// ```
/// use pulsar_routing::profiles::go_partition_index;
/// assert_eq!(go_partition_index("x-partition--1"), Ok(1)); // Java: -1
/// assert!(go_partition_index("x-partition-3abc").is_err());
/// ```
///
/// # Errors
/// The `Atoi` error, as Go's `ParseTopicName` returns it.
pub fn go_partition_index(topic: &str) -> Result<i64, GoAtoiError<'_>> {
    if !topic.contains(PARTITION_SUFFIX) {
        return Ok(-1);
    }
    go_atoi(topic.rsplit_once('-').map_or(topic, |(_, after)| after))
}
