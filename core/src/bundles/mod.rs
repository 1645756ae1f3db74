//! Namespace bundles: the second routing layer, topic to bundle to broker.
//!
//! A namespace's topics are spread over bundles by the CRC-32 of the full
//! topic name (not Murmur3), each bundle a range of the 32-bit hash space;
//! the broker that owns a bundle serves its topics. Bundles split as load
//! grows, and a split moves exactly the topics of the split bundle.
//!
//! - [`BundleRange`]: one bundle, its `0x%08x_0x%08x` name (the upper bound
//!   printed is exclusive) and the admin API's range parser.
//! - [`BundleLayout`]: a namespace's bundles, the default layout for `k`
//!   bundles, topic-hash lookup, and splitting.
//! - The split algorithms: [`range_equally_divide`],
//!   [`topic_count_equally_divide`], [`specified_positions_divide`] and
//!   [`flow_or_qps_equally_divide`].

mod error;
mod layout;
mod range;
mod split;

pub use error::BundleError;
pub use layout::{
    BundleChange, BundleChanges, BundleLayout, INDEX_ENTRY_WORDS, boundary_from_i64,
    default_boundaries, parse_boundary, validate_full_range,
};
pub use range::{BoundErrorKind, BundleKey, BundleRange, FULL_UPPER_BOUND};
pub use split::{
    FlowLimits, Split, SplitAlgorithm, TopicLoad, flow_or_qps_equally_divide, range_equally_divide,
    specified_positions_divide, topic_count_equally_divide,
};
