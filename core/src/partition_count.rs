//! The number of partitions of a topic, validated once so that every
//! reduction after it is exact, cannot divide by zero, and needs no divide.

use core::fmt;
use core::num::NonZeroU32;

/// A partition count in `1..=2^31-1` (Java's positive `int` range), with a
/// precomputed multiplier so that `x % n` costs two multiplications.
///
/// The reduction is Lemire's "fastmod": with `M = ceil(2^64 / n)`,
/// `x % n == ((M * x mod 2^64) * n) >> 64` for every 32-bit `x` and `n`.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// let n = PartitionCount::new(12)?;
/// assert_eq!(n.reduce(100), 100 % 12);
/// assert_eq!(n.sign_safe_mod(-1), 11);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartitionCount {
    n: NonZeroU32,
    multiplier: u64,
}

impl PartitionCount {
    /// The largest count: Java holds partition counts in an `int`.
    pub const MAX: u32 = i32::MAX as u32;

    /// One partition: every message goes to partition 0.
    pub const ONE: Self = Self::from_nonzero(NonZeroU32::MIN);

    /// Validates `n`.
    ///
    /// # Errors
    /// [`PartitionCountError::Zero`] for 0 and [`PartitionCountError::TooLarge`]
    /// above [`PartitionCount::MAX`].
    pub const fn new(n: u32) -> Result<Self, PartitionCountError> {
        match NonZeroU32::new(n) {
            None => Err(PartitionCountError::Zero),
            Some(_) if n > Self::MAX => Err(PartitionCountError::TooLarge),
            Some(nz) => Ok(Self::from_nonzero(nz)),
        }
    }

    /// Validates a count given as a signed 64-bit number (what C and Python
    /// callers pass); negative counts are rejected like zero.
    ///
    /// # Errors
    /// As [`PartitionCount::new`], plus [`PartitionCountError::Negative`].
    pub const fn from_i64(n: i64) -> Result<Self, PartitionCountError> {
        if n < 0 {
            Err(PartitionCountError::Negative)
        } else if n > Self::MAX as i64 {
            Err(PartitionCountError::TooLarge)
        } else {
            Self::new(n as u32)
        }
    }

    const fn from_nonzero(n: NonZeroU32) -> Self {
        // ceil(2^64 / n) = floor((2^64 - 1) / n) + 1; for n = 1 it wraps to 0,
        // and a zero multiplier correctly reduces everything to 0.
        let multiplier = (u64::MAX / n.get() as u64).wrapping_add(1);
        Self { n, multiplier }
    }

    /// The count.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.n.get()
    }

    /// `x % n`, exactly, without a divide instruction.
    #[must_use]
    #[inline]
    pub const fn reduce(self, x: u32) -> u32 {
        let low = self.multiplier.wrapping_mul(x as u64);
        ((low as u128 * self.n.get() as u128) >> 64) as u32
    }

    /// Java's `signSafeMod(x, n)` for a 32-bit `x`: the floor modulo, so a
    /// negative `x` (a wrapped round-robin counter) still lands in `[0, n)`.
    #[must_use]
    #[inline]
    pub const fn sign_safe_mod_i32(self, x: i32) -> u32 {
        if x >= 0 {
            self.reduce(x as u32)
        } else {
            // For x < 0: x mod n = n - 1 - ((-x - 1) mod n), and -x - 1 = !x
            // fits in 31 bits, so it never overflows.
            self.n.get() - 1 - self.reduce(!x as u32)
        }
    }

    /// Java's `signSafeMod(x, n)` for a 64-bit `x` (the batching router's
    /// `now / switch + start`): the floor modulo, in `[0, n)`.
    #[must_use]
    #[inline]
    pub const fn sign_safe_mod(self, x: i64) -> u32 {
        if x >= 0 && x <= u32::MAX as i64 {
            self.reduce(x as u32)
        } else {
            x.rem_euclid(self.n.get() as i64) as u32
        }
    }
}

impl fmt::Debug for PartitionCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PartitionCount")
            .field(&self.n.get())
            .finish()
    }
}

impl fmt::Display for PartitionCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.n.get(), f)
    }
}

impl From<PartitionCount> for u32 {
    fn from(n: PartitionCount) -> u32 {
        n.get()
    }
}

impl TryFrom<u32> for PartitionCount {
    type Error = PartitionCountError;
    fn try_from(n: u32) -> Result<Self, Self::Error> {
        Self::new(n)
    }
}

impl TryFrom<i32> for PartitionCount {
    type Error = PartitionCountError;
    fn try_from(n: i32) -> Result<Self, Self::Error> {
        Self::from_i64(i64::from(n))
    }
}

impl TryFrom<i64> for PartitionCount {
    type Error = PartitionCountError;
    fn try_from(n: i64) -> Result<Self, Self::Error> {
        Self::from_i64(n)
    }
}

impl TryFrom<usize> for PartitionCount {
    type Error = PartitionCountError;
    fn try_from(n: usize) -> Result<Self, Self::Error> {
        u32::try_from(n).map_or(Err(PartitionCountError::TooLarge), Self::new)
    }
}

/// Why a number is not a valid [`PartitionCount`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartitionCountError {
    /// The count was 0: a topic has at least one partition, and Java would
    /// throw `ArithmeticException: / by zero` when routing.
    Zero,
    /// The count was negative.
    Negative,
    /// The count was above 2147483647 (`Integer.MAX_VALUE`).
    TooLarge,
}

impl fmt::Display for PartitionCountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Zero => "number of partitions must be at least 1, got 0",
            Self::Negative => "number of partitions must be at least 1, got a negative number",
            Self::TooLarge => "number of partitions must be at most 2147483647",
        })
    }
}

impl core::error::Error for PartitionCountError {}
