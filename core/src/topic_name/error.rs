//! Why a topic name was rejected, with the message Java's
//! `IllegalArgumentException` carries for it.

use core::fmt;

use super::TopicNameRules;

/// A topic name Java's `TopicName.get` rejects. Every variant is an
/// `IllegalArgumentException` in Java; `Display` prints its exact message.
///
/// The fields borrow from the parsed text, so the error costs nothing to
/// build and can be printed without allocating.
///
/// ```
/// use pulsar_routing::topic_name::{TopicName, TopicNameError};
///
/// let err = TopicName::parse("kafka://t/ns/x").unwrap_err();
/// assert_eq!(err, TopicNameError::InvalidDomain { domain: "kafka" });
/// assert_eq!(err.to_string(), "Invalid topic domain: 'kafka'");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TopicNameError<'a> {
    /// A name without `://` that is neither `<topic>` nor
    /// `<tenant>/<namespace>/<topic>`:
    /// `Invalid short topic name '{name}', it should be in the format of <tenant>/<namespace>/<topic> or <topic>`.
    InvalidShortName {
        /// The whole input.
        name: &'a str,
    },
    /// The text before `://` is not a known domain:
    /// `Invalid topic domain: '{domain}'`.
    InvalidDomain {
        /// The text before the first `://`.
        domain: &'a str,
    },
    /// The tenant, the cluster or the namespace is empty:
    /// `Invalid namespace format. namespace: {tenant}/{namespace}`, or
    /// `…: {tenant}/{cluster}/{namespace}` for a V1 name.
    InvalidNamespaceFormat {
        /// The tenant, possibly empty.
        tenant: &'a str,
        /// The cluster of a V1 name, possibly empty.
        cluster: Option<&'a str>,
        /// The namespace, possibly empty.
        namespace: &'a str,
    },
    /// A tenant, cluster or namespace with a character outside
    /// `[-=:.A-Za-z0-9_]`: `Invalid named entity: {name}`.
    InvalidNamedEntity {
        /// The first offending tenant, cluster or namespace.
        name: &'a str,
    },
    /// The local name is empty or only Java whitespace:
    /// `Invalid topic name: {prefix}{name}. Topic local name must not be blank.`
    BlankLocalName {
        /// What the v4 rules put before a short name when they expand it
        /// (`persistent://` or `persistent://public/default/`); empty
        /// otherwise, the 4.2 and master rules always quoting the input.
        prefix: &'static str,
        /// The input, or for a one-part short name under the v4 rules, that
        /// part.
        name: &'a str,
    },
    /// The path has the wrong number of parts, or (under the 4.2 and master
    /// rules) an empty part. The v4 rules say `Invalid topic name: {name}`;
    /// the 4.2 and master rules drop the colon: `Invalid topic name {name}`.
    InvalidTopicName {
        /// The input, or under the 4.2 and master rules, the part of it whose
        /// slashes were being split when an empty part turned up.
        name: &'a str,
        /// Which rules rejected the name, and so which message applies.
        rules: TopicNameRules,
    },
    /// 4.2 and master rules: a four-part name after `://`, which the v4 rules
    /// read as a V1 name with a cluster:
    /// `V1 topic names (with cluster component) are no longer supported. Please use the V2 format: '<domain>://tenant/namespace/topic'. Got: {name}`.
    V1NameUnsupported {
        /// The input.
        name: &'a str,
    },
    /// Master rules only: a `segment://` name whose local name has no
    /// `/<hashStart>-<hashEnd>-<segmentId>` descriptor:
    /// `Invalid segment topic name: local name must contain '<parent-topic>/<hashStart>-<hashEnd>-<segmentId>'. Got: {name}`.
    SegmentWithoutDescriptor {
        /// The input.
        name: &'a str,
    },
    /// Master rules only: a `segment://` name whose descriptor is not
    /// `<hashStart>-<hashEnd>-<segmentId>` with `0 <= start <= end <=
    /// 0xffff`. This includes the name of a segment's partition, which
    /// Java's `getPartition` builds and then fails to parse.
    ///
    /// The message, `Invalid segment descriptor '{descriptor}' in topic name: {name}`
    /// (both followed by `-partition-{partition}` when there is one), is
    /// this crate's: the golden vectors record only that Java throws an
    /// `IllegalArgumentException`.
    InvalidSegmentDescriptor {
        /// The input.
        name: &'a str,
        /// The text after the last `/` of the input (before any partition
        /// suffix).
        descriptor: &'a str,
        /// The partition suffix `TopicName::partition` appended, if any.
        partition: Option<i32>,
    },
}

impl fmt::Display for TopicNameError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::InvalidShortName { name } => write!(
                f,
                "Invalid short topic name '{name}', it should be in the format of \
                 <tenant>/<namespace>/<topic> or <topic>"
            ),
            Self::InvalidDomain { domain } => write!(f, "Invalid topic domain: '{domain}'"),
            Self::InvalidNamespaceFormat {
                tenant,
                cluster,
                namespace,
            } => {
                write!(f, "Invalid namespace format. namespace: {tenant}/")?;
                if let Some(cluster) = cluster {
                    write!(f, "{cluster}/")?;
                }
                f.write_str(namespace)
            }
            Self::InvalidNamedEntity { name } => write!(f, "Invalid named entity: {name}"),
            Self::BlankLocalName { prefix, name } => write!(
                f,
                "Invalid topic name: {prefix}{name}. Topic local name must not be blank."
            ),
            Self::InvalidTopicName { name, rules } => match rules {
                TopicNameRules::V4 => write!(f, "Invalid topic name: {name}"),
                TopicNameRules::Master | TopicNameRules::Pulsar4_2 => {
                    write!(f, "Invalid topic name {name}")
                }
            },
            Self::V1NameUnsupported { name } => write!(
                f,
                "V1 topic names (with cluster component) are no longer supported. \
                 Please use the V2 format: '<domain>://tenant/namespace/topic'. Got: {name}"
            ),
            Self::SegmentWithoutDescriptor { name } => write!(
                f,
                "Invalid segment topic name: local name must contain \
                 '<parent-topic>/<hashStart>-<hashEnd>-<segmentId>'. Got: {name}"
            ),
            Self::InvalidSegmentDescriptor {
                name,
                descriptor,
                partition,
            } => {
                let suffix = PartitionSuffix(partition);
                write!(
                    f,
                    "Invalid segment descriptor '{descriptor}{suffix}' in topic name: {name}{suffix}"
                )
            }
        }
    }
}

impl core::error::Error for TopicNameError<'_> {}

/// `-partition-<n>`, or nothing.
struct PartitionSuffix(Option<i32>);

impl fmt::Display for PartitionSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(index) => write!(f, "-partition-{index}"),
            None => Ok(()),
        }
    }
}
