//! The producer metrics the gate can answer.

/// A snapshot of the producer's connection and request metrics, named as
/// the Java client names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct SenderCounters {
    /// `connection-count`: connections open or opening (every node not
    /// `NOT_CONNECTED`).
    pub connection_count: u64,
    /// `connection-creation-total`: TCP connections established so far.
    pub connection_creation_total: u64,
    /// The requests in flight over all connections: the producer's
    /// `requests-in-flight` gauge (the in-flight-requests-count).
    pub in_flight_requests_count: u64,
    /// `metadata-age`, in milliseconds (Java's gauge is this divided by
    /// 1000, in seconds).
    pub metadata_age_ms: u64,
}
