//! One namespace bundle: a range of the 32-bit CRC hash space.

use core::fmt;

use super::BundleError;
use crate::java_number::{JavaNumberError, decode_long};

/// The top of the hash space, and the one upper bound that is inclusive.
pub const FULL_UPPER_BOUND: u32 = u32::MAX;

/// A bundle's hash range, `[lower, upper)`, or `[lower, 0xffffffff]` when
/// `upper` is `0xffffffff`: Java's `NamespaceBundle` key range.
///
/// The name prints both bounds as given, so a bundle's name shows the
/// *exclusive* upper bound (`0x00000000_0x40000000`), never `0x3fffffff`.
///
/// Bounds are Java `long`s, because the broker's range parser accepts values
/// outside the hash space (a negative lower bound, an upper bound of
/// `0x100000000`); such a range simply contains no hash beyond its overlap.
///
/// ```
/// use pulsar_routing::bundles::BundleRange;
/// let r = BundleRange::parse("0x40000000_0x80000000")?;
/// assert!(r.includes(0x7fff_ffff) && !r.includes(0x8000_0000));
/// assert_eq!(r.to_string(), "0x40000000_0x80000000");
/// # Ok::<(), pulsar_routing::bundles::BundleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BundleRange {
    lower: i64,
    upper: i64,
}

impl BundleRange {
    /// The whole hash space: the single bundle of a one-bundle namespace.
    pub const FULL: Self = Self {
        lower: 0,
        upper: FULL_UPPER_BOUND as i64,
    };

    /// A range with Java's `NamespaceBundle` checks: the upper bound is
    /// inclusive exactly when it is `0xffffffff`, and the range is not empty.
    ///
    /// # Errors
    /// [`BundleError::InvalidRange`] when `lower > upper`, and
    /// [`BundleError::EmptyRange`] when `lower == upper` (but for the
    /// one-hash range `[0xffffffff, 0xffffffff]`).
    pub const fn new(lower: i64, upper: i64) -> Result<Self, BundleError> {
        if lower > upper {
            Err(BundleError::InvalidRange { lower, upper })
        } else if lower == upper && upper != FULL_UPPER_BOUND as i64 {
            Err(BundleError::EmptyRange)
        } else {
            Ok(Self { lower, upper })
        }
    }

    /// A bundle of a validated layout: consecutive boundaries, so sorted
    /// and non-empty by construction.
    pub(super) const fn from_layout(lower: u32, upper: u32) -> Self {
        Self {
            lower: lower as i64,
            upper: upper as i64,
        }
    }

    /// Parses a bundle range string as the broker's admin API does
    /// (`NamespaceBundleFactory.getBundle(namespace, range)`): split on `_`,
    /// each of the first two parts read by Java's `Long.decode` (so `0x`,
    /// `0X`, `#`, octal with a leading `0`, and decimal are all accepted,
    /// in any letter case), further parts ignored.
    ///
    /// # Errors
    /// - [`BundleError::InvalidBundleRange`] without a `_`;
    /// - [`BundleError::MissingUpperBound`] for `0x00000000_` (Java throws
    ///   `ArrayIndexOutOfBoundsException` there);
    /// - [`BundleError::InvalidBound`] for a part that is not a `long`;
    /// - the errors of [`BundleRange::new`].
    pub fn parse(text: &str) -> Result<Self, BundleError> {
        if !text.contains('_') {
            return Err(BundleError::InvalidBundleRange);
        }
        // Java's String.split drops trailing empty parts, so "lo_" and "_"
        // have no second (or first) part at all.
        let trimmed = text.trim_end_matches('_');
        let mut parts = trimmed.split('_');
        let lower = parts
            .next()
            .filter(|_| !trimmed.is_empty())
            .ok_or(BundleError::MissingLowerBound)?;
        // Java decodes the lower part before it looks for the upper one.
        let lower = decode_long(lower).map_err(BundleError::from)?;
        let upper = parts.next().ok_or(BundleError::MissingUpperBound)?;
        let upper = decode_long(upper).map_err(BundleError::from)?;
        Self::new(lower, upper)
    }

    /// The inclusive lower bound.
    #[must_use]
    pub const fn lower(&self) -> i64 {
        self.lower
    }

    /// The upper bound as printed: exclusive, unless it is `0xffffffff`.
    #[must_use]
    pub const fn upper(&self) -> i64 {
        self.upper
    }

    /// Whether the upper bound is inclusive (it is `0xffffffff`).
    #[must_use]
    pub const fn upper_closed(&self) -> bool {
        self.upper == FULL_UPPER_BOUND as i64
    }

    /// Whether `hash` falls in this bundle (Java's `includes`).
    #[must_use]
    #[inline]
    pub const fn includes(&self, hash: u32) -> bool {
        let h = hash as i64;
        self.lower <= h && (h < self.upper || (self.upper_closed() && h == self.upper))
    }

    /// Whether the bundle can be split (Java's `canSplitBundle`): its bounds
    /// are more than 1 apart.
    #[must_use]
    pub const fn can_split(&self) -> bool {
        // Java's `long` subtraction wraps for ranges wider than i64::MAX.
        self.upper.wrapping_sub(self.lower) > 1
    }

    /// The bundle key `namespace/range`, e.g. `public/default/0x00000000_0x40000000`.
    /// The namespace is anything printable: a `&str`, or a topic's
    /// [`namespace()`](crate::topic_name::TopicName::namespace).
    #[must_use]
    pub const fn key<N: fmt::Display>(&self, namespace: N) -> BundleKey<N> {
        BundleKey {
            namespace,
            range: *self,
        }
    }
}

/// Java formats the bounds as `%08x` of a `long`: a negative bound prints as
/// its 64-bit two's complement.
impl fmt::Display for BundleRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:08x}_0x{:08x}", self.lower as u64, self.upper as u64)
    }
}

/// A bundle's key, `namespace/range`; see [`BundleRange::key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BundleKey<N> {
    namespace: N,
    range: BundleRange,
}

impl<N: fmt::Display> fmt::Display for BundleKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.namespace, self.range)
    }
}

impl From<JavaNumberError> for BundleError {
    fn from(e: JavaNumberError) -> Self {
        match e {
            JavaNumberError::Empty => BundleError::InvalidBound(BoundErrorKind::Empty),
            JavaNumberError::SignInWrongPosition => {
                BundleError::InvalidBound(BoundErrorKind::SignInWrongPosition)
            }
            JavaNumberError::Invalid => BundleError::InvalidBound(BoundErrorKind::NotALong),
        }
    }
}

/// Why a bound of a bundle range string is not a number (Java's
/// `NumberFormatException` from `Long.decode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundErrorKind {
    /// The bound is empty.
    Empty,
    /// A sign follows the radix prefix, as in `0x-1`.
    SignInWrongPosition,
    /// Not a number in its radix, or outside the `long` range.
    NotALong,
}
