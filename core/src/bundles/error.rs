use core::fmt;

use super::BundleRange;
use super::range::BoundErrorKind;

/// Why a bundle layout, range or split is invalid. Messages are the
/// broker's where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BundleError {
    /// A namespace needs at least one bundle (`PoliciesUtil.getBundles(k)`
    /// with `k <= 0` is a `BAD_REQUEST`).
    NoBundles,
    /// No boundaries at all.
    NoBoundaries,
    /// A single boundary.
    TooFewBoundaries,
    /// A boundary smaller than the one before it (Java's bare
    /// `checkArgument(upper >= lower)`).
    BoundariesNotSorted,
    /// A boundary outside the 32-bit hash space.
    BoundaryOutOfRange(i64),
    /// The last boundary is not `0xffffffff`, or an earlier one is.
    UpperEndpointNotExclusive,
    /// Two equal boundaries (or a range string with equal bounds).
    EmptyRange,
    /// A range whose lower bound is above its upper bound.
    InvalidRange {
        /// The lower bound.
        lower: i64,
        /// The upper bound.
        upper: i64,
    },
    /// No bundle owns the hash in the broker's lookup: it is `0xffffffff`,
    /// or below the first boundary (Java throws `IndexOutOfBoundsException`).
    NoBundleForHash(u32),
    /// A bundle range string without `_`.
    InvalidBundleRange,
    /// A bundle range string with nothing before `_`.
    MissingLowerBound,
    /// A bundle range string with nothing after `_`, like `0x00000000_`.
    MissingUpperBound,
    /// A bound that `Long.decode` rejects.
    InvalidBound(BoundErrorKind),
    /// The caller's output storage is too small; `needed` entries are required.
    BufferTooSmall {
        /// How many entries the output needs.
        needed: usize,
    },
    /// The bundle is not one of the layout's bundles (its lower bound is not
    /// a boundary).
    BundleNotFound,
    /// The bundle's lower bound is a boundary, but its upper bound differs.
    InvalidUpperBoundary,
    /// The bundle's bounds are at most 1 apart.
    CannotSplitFurther(BundleRange),
    /// A split boundary is not strictly inside the bundle being split.
    SplitBoundaryOutsideBundle(BundleRange),
    /// `specified_positions_divide` without positions.
    NoSplitPositions,
    /// Splitting into zero parts.
    ZeroSplitParts,
    /// Boundaries that do not start at `0x00000000` and end at `0xffffffff`
    /// (the admin API's `validateFullRange`, which compares the strings).
    NotFullRange,
    /// A split-algorithm name the broker does not know.
    UnknownSplitAlgorithm,
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The admin layer's words: the RestException of PoliciesUtil.getBundles.
            Self::NoBundles => f.write_str(
                "Invalid number of bundles. Number of bundles has to be in the range of (0, 2^32].",
            ),
            Self::NoBoundaries => f.write_str("Can't create bundles w/o partition boundaries"),
            Self::TooFewBoundaries => f.write_str("Need to specify at least 2 boundaries"),
            Self::BoundariesNotSorted => f.write_str("bundle boundaries must be in non-decreasing order"),
            Self::BoundaryOutOfRange(b) => {
                write!(f, "bundle boundary {b} is outside the hash range 0x00000000..=0xffffffff")
            }
            Self::UpperEndpointNotExclusive => {
                f.write_str("Invalid hash range. Upper Endpoint should be exclusive unless it is 0xffffffff")
            }
            Self::EmptyRange => f.write_str("Cannot create bundle object for an empty key range"),
            Self::InvalidRange { lower, upper } => {
                let close = if *upper == i64::from(u32::MAX) { ']' } else { ')' };
                write!(f, "Invalid range: [{lower}..{upper}{close}")
            }
            Self::NoBundleForHash(h) => write!(
                f,
                "no bundle for hash 0x{h:08x}: the broker's lookup throws IndexOutOfBoundsException here"
            ),
            Self::InvalidBundleRange => f.write_str("Invalid bundle range"),
            Self::MissingLowerBound => f.write_str("Invalid bundle range: missing lower bound"),
            Self::MissingUpperBound => f.write_str("Invalid bundle range: missing upper bound"),
            Self::InvalidBound(kind) => f.write_str(match kind {
                BoundErrorKind::Empty => "Zero length string",
                BoundErrorKind::SignInWrongPosition => "Sign character in wrong position",
                BoundErrorKind::NotALong => "Invalid bundle bound: not a number, or out of the long range",
            }),
            Self::BufferTooSmall { needed } => write!(f, "output buffer too small: {needed} entries needed"),
            Self::BundleNotFound => f.write_str("Cannot find bundle in the bundles list"),
            Self::InvalidUpperBoundary => f.write_str("Invalid upper boundary for bundle"),
            // 4.2.4's text (NamespaceBundleFactory.splitBundles).
            Self::CannotSplitFurther(b) => write!(
                f,
                "{b} bundle can't be split further since range not larger than 1"
            ),
            Self::SplitBoundaryOutsideBundle(b) => {
                write!(f, "The given fixed keys must between the key range of the {b} bundle")
            }
            Self::NoSplitPositions => f.write_str("SplitBoundaries can't be empty"),
            Self::ZeroSplitParts => f.write_str("a bundle must be split into at least 1 part"),
            Self::NotFullRange => f.write_str("bundle boundaries must start at 0x00000000 and end at 0xffffffff"),
            Self::UnknownSplitAlgorithm => f.write_str(
                "unknown bundle split algorithm: expected range_equally_divide, topic_count_equally_divide, \
                 specified_positions_divide, specified_positions_divide_force or flow_or_qps_equally_divide",
            ),
        }
    }
}

impl core::error::Error for BundleError {}
