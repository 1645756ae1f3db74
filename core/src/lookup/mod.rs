//! Topic lookup: which broker serves a topic, found the way the Java
//! client finds it, as state machines that do no I/O.
//!
//! The embedder sends the requests and feeds back what happened, with the
//! time; the drivers answer with the next action. Nothing here reads a
//! clock, draws a random number or allocates.
//!
//! - [`TopicLookup`]: `BinaryProtoLookupService.getBroker` with the
//!   producer's retries. The first `LOOKUP` goes to the service address,
//!   non-authoritative; a `Redirect` asks again at the broker URL with the
//!   response's authoritative flag; a `Connect` gives the logical and
//!   physical address (the current hop, and `use_proxy`, with
//!   `proxy_through_service_url`); a `Failed` is a typed [`ServerError`].
//!   More than `max_redirects` redirects (default 20, 0 for none) fail
//!   with `"Too many redirects: N"`. Retriable failures are retried from
//!   the service address with the Pulsar [`Backoff`] (100 ms doubling to
//!   60 s, mandatory stop at twice the lookup timeout; not the Kafka
//!   sender's [`ExponentialBackoff`](crate::sender::ExponentialBackoff))
//!   until the deadline,
//!   `lookup_timeout_ms` (default: the 30 s operation timeout) after
//!   `start` (exclusive, as Java's: a failure exactly at it is retried).
//!   Redirect loops are reported with the chain of addresses.
//!   [`LookupProfile::Go`] gives the Go client's semantics instead.
//! - [`PartitionedMetadataLookup`]: the partitioned-metadata step before a
//!   producer starts, and its [`ProducerStartPlan`]: one lookup of the
//!   topic for 0 partitions, one per `<topic>-partition-<i>` otherwise.
//! - [`LookupCoalescer`]: concurrent requests for the same (topic,
//!   properties) share one lookup, in a bounded table of
//!   [`InFlightLookup`] slots.
//! - [`LookupThrottle`]: a connection's `concurrentLookupRequest` (5000)
//!   and `maxLookupRequest` (50000) limits.
//! - [`Explained`]: why a driver took an action, in words, the same in
//!   every binding (`action.explain(driver.server_message())`).
//!
//! Two deliberate additions to Java, both documented where they apply:
//! redirect-loop detection ([`LookupOptions::detect_redirect_loops`], an
//! opt-in heuristic, off by default so the driver is the client's exact
//! behaviour) and the deadline also ending an attempt that is
//! still being redirected (Java checks it only after a failure, so with no
//! redirect limit it could redirect for ever).
//!
//! ```
//! use pulsar_routing::lookup::{Hop, LookupAction, LookupOptions, LookupResponse, TopicLookup};
//!
//! let mut chain = [Hop::EMPTY; 21];
//! let mut lookup = TopicLookup::new("pulsar://proxy:6650", LookupOptions::default(), &mut chain[..])?;
//! let LookupAction::SendLookup(req) = lookup.start(0) else { panic!() };
//! assert_eq!((req.logical_address, req.authoritative), ("pulsar://proxy:6650", false));
//!
//! // The proxy's broker does not own the bundle: it redirects to the owner.
//! let LookupAction::SendLookup(req) =
//!     lookup.on_response(&LookupResponse::redirect("pulsar://broker-2:6650", true, false), 3)
//! else { panic!() };
//! assert_eq!((req.logical_address, req.authoritative), ("pulsar://broker-2:6650", true));
//!
//! let LookupAction::Done(found) =
//!     lookup.on_response(&LookupResponse::connect("pulsar://broker-2:6650", true, false), 5)
//! else { panic!() };
//! assert_eq!(found.physical_address, "pulsar://broker-2:6650");
//! assert!(!found.use_proxy);
//! # Ok::<(), pulsar_routing::lookup::AttemptError>(())
//! ```

mod address;
mod backoff;
mod coalesce;
mod driver;
mod error;
mod explain;
mod partitioned;
mod throttle;

pub use address::{Address, Hop, MAX_ADDRESS_LEN};
pub use backoff::{Backoff, DEFAULT_INITIAL_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS};
pub use coalesce::{
    InFlightLookup, Joined, LookupCoalescer, LookupKey, LookupProperties, LookupProperty,
    MetadataKey,
};
pub use driver::{
    DEFAULT_MAX_LOOKUP_REDIRECTS, DEFAULT_OPERATION_TIMEOUT_MS, GO_LOOKUP_MAX_REDIRECT,
    LookupAction, LookupOptions, LookupProfile, LookupResponse, LookupResult, LookupType,
    SendLookup, TopicLookup,
};
pub use error::{AttemptError, CoalesceError, IgnoredEvent, LookupError, ServerError};
pub use explain::{Explained, WithServerMessage};
pub use partitioned::{
    LookupTopic, MetadataAction, MetadataOptions, PartitionedMetadataLookup,
    PartitionedMetadataResponse, ProducerStartPlan,
};
pub use throttle::{
    Admission, DEFAULT_CONCURRENT_LOOKUP_REQUESTS, DEFAULT_MAX_LOOKUP_REQUESTS, LookupThrottle,
};
