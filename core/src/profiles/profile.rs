//! The client profiles themselves: which Pulsar client a producer is.

use core::fmt;
use core::str::FromStr;

/// A Pulsar client library whose routing is reproduced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClientProfile {
    /// The Java client: the reference.
    #[default]
    Java,
    /// apache/pulsar-client-go.
    Go,
    /// apache/pulsar-client-cpp (and the C API over it).
    Cpp,
    /// apache/pulsar-client-python, which wraps the C++ client.
    Python,
    /// streamnative/pulsar-rs (crate `pulsar`).
    PulsarRs,
    /// apache/pulsar-dotpulsar (.NET).
    DotPulsar,
}

impl ClientProfile {
    /// Every profile.
    pub const ALL: [Self; 6] = [
        Self::Java,
        Self::Go,
        Self::Cpp,
        Self::Python,
        Self::PulsarRs,
        Self::DotPulsar,
    ];

    /// The name used by the C and Python APIs: `"java"`, `"go"`, `"cpp"`,
    /// `"python"`, `"pulsar-rs"` or `"dotpulsar"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`ClientProfile::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::Java => c"java",
            Self::Go => c"go",
            Self::Cpp => c"cpp",
            Self::Python => c"python",
            Self::PulsarRs => c"pulsar-rs",
            Self::DotPulsar => c"dotpulsar",
        }
    }
}

impl fmt::Display for ClientProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ClientProfile {
    type Err = UnknownClientProfile;

    /// Accepts [`ClientProfile::name`], and `pulsar_rs` for `pulsar-rs`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pulsar_rs" => Ok(Self::PulsarRs),
            _ => Self::ALL
                .into_iter()
                .find(|p| p.name() == s)
                .ok_or(UnknownClientProfile),
        }
    }
}

/// The text did not name a [`ClientProfile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownClientProfile;

impl fmt::Display for UnknownClientProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown client profile: expected java, go, cpp, python, pulsar-rs or dotpulsar",
        )
    }
}

impl core::error::Error for UnknownClientProfile {}
