//! Which partitions of a topic currently have a leader: the only cluster
//! state the keyless partitioners read.

/// The partitions a producer may pick for a keyless record.
///
/// Both clients skip partitions without a leader: Kafka's Java client picks
/// from `cluster.availablePartitionsForTopic(topic)` (in metadata order), and
/// librdkafka re-rolls once when `rd_kafka_topic_partition_available` says
/// no.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Availability<'a> {
    /// Every partition `0..n` has a leader (the steady state).
    #[default]
    All,
    /// Only these partition ids have a leader, in the order the metadata
    /// lists them. An empty list means no partition is available.
    Only(&'a [u32]),
}

impl Availability<'_> {
    /// Whether partition `p` of a topic with `n` partitions is available.
    #[must_use]
    pub fn contains(&self, p: u32, n: u32) -> bool {
        match self {
            Self::All => p < n,
            Self::Only(ids) => p < n && ids.contains(&p),
        }
    }
}
