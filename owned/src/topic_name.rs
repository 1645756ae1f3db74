//! Topic names that own their text, and the bundle hashes of a topic's
//! partitions, for bindings whose objects outlive the text they were
//! given.

use pulsar_routing::PartitionCount;
use pulsar_routing::topic_name::{TopicName, TopicNameError, TopicNameRules};

/// A topic name checked once and kept as text: the core's [`TopicName`]
/// borrows its input, so [`OwnedTopicName::parsed`] parses it again (a few
/// dozen nanoseconds) whenever a part is wanted.
#[derive(Clone, Debug)]
pub struct OwnedTopicName {
    input: Box<str>,
    rules: TopicNameRules,
    /// `toString()`, kept for printing, equality and hashing.
    canonical: Box<str>,
}

impl OwnedTopicName {
    /// Parses `name` under `rules`, as Java's `TopicName.get` does.
    ///
    /// # Errors
    /// What [`TopicName::parse_with`] reports.
    pub fn parse(name: &str, rules: TopicNameRules) -> Result<Self, TopicNameError<'_>> {
        let canonical = TopicName::parse_with(name, rules)?.to_string();
        Ok(Self {
            input: name.into(),
            rules,
            canonical: canonical.into_boxed_str(),
        })
    }

    /// The core's view of the name. It parsed when this was made, so it
    /// parses again the same way.
    ///
    /// # Errors
    /// None in practice; the core's check is kept rather than assumed.
    pub fn parsed(&self) -> Result<TopicName<'_>, TopicNameError<'_>> {
        TopicName::parse_with(&self.input, self.rules)
    }

    /// The text as given.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The rules it was parsed with.
    #[must_use]
    pub const fn rules(&self) -> TopicNameRules {
        self.rules
    }

    /// The canonical name (Java's `toString()`).
    #[must_use]
    pub fn canonical(&self) -> &str {
        &self.canonical
    }
}

/// The bundle hashes (CRC-32 of the canonical name) of partitions `0..n`
/// of `topic`, Java's `getPartition(i)` names, in order.
///
/// # Errors
/// What [`TopicName::partition`] reports: a `segment://` name has no
/// partitions.
pub fn partition_hashes<'a>(
    topic: &TopicName<'a>,
    n: PartitionCount,
) -> Result<Box<[u32]>, TopicNameError<'a>> {
    // A partition count is below 2**31, so every index is an int.
    let indexes = 0..i32::try_from(n.get()).unwrap_or(i32::MAX);
    indexes
        .map(|index| Ok(topic.partition(index)?.crc32()))
        .collect()
}

/// One entry per partition from one per topic: each topic's `n` hashes in
/// turn, and `n` `None`s for a topic that is `None`.
#[must_use]
pub fn per_partition(by_topic: Vec<Option<Box<[u32]>>>, n: PartitionCount) -> Vec<Option<u32>> {
    let per_topic = n.get() as usize;
    let mut hashes = Vec::with_capacity(by_topic.len().saturating_mul(per_topic));
    for topic in by_topic {
        match topic {
            None => hashes.extend(std::iter::repeat_n(None, per_topic)),
            Some(partitions) => hashes.extend(partitions.iter().copied().map(Some)),
        }
    }
    hashes
}
