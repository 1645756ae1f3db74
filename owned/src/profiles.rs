//! A client profile's configuration as a binding is given it: the options a
//! producer sets over its client's defaults, and the scheme names that pin
//! a Boost generation.
//!
//! The C ABI and Python both start from the client's defaults
//! ([`ProfileConfig::client_default`]) and lay the caller's options over
//! them; [`ProfileOptions`] is that overlay, written once, so a Python
//! keyword and a C argument change the same setting the same way.

use pulsar_routing::profiles::{
    BoostHashGeneration, CharSignedness, ClientHashingScheme, ClientProfile, ProfileConfig,
    ProfileMode, UnknownClientHashingScheme,
};

/// What a producer sets over its client's defaults; each `None` (and
/// `false`) keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProfileOptions {
    /// The hashing scheme option.
    pub scheme: Option<ClientHashingScheme>,
    /// The generation of the Boost the C++ or Python client was built with.
    pub boost: Option<BoostHashGeneration>,
    /// The routing mode.
    pub mode: Option<ProfileMode>,
    /// The platform's `char` is unsigned (e.g. AArch64 Linux).
    pub unsigned_char: bool,
    /// Whether batching is enabled.
    pub batching: Option<bool>,
    /// `batchingMaxMessages`.
    pub batching_max_messages: Option<u32>,
    /// `batchingMaxBytes` (or the client's name for it).
    pub batching_max_bytes: Option<u32>,
    /// `batchingMaxPublishDelay`, in nanoseconds.
    pub batching_max_publish_delay_ns: Option<i64>,
    /// Java's `roundRobinRouterBatchingPartitionSwitchFrequency`.
    pub partition_switch_frequency: Option<i32>,
    /// C++'s `lazyStartPartitionedProducers`.
    pub lazy_start: bool,
}

impl ProfileOptions {
    /// The configuration of a producer of `profile` with these options.
    /// Whether the client takes them is for the core to say when the
    /// configuration is used (`ProfileKeying::new`, `ProfileRouter::new`).
    #[must_use]
    pub fn config(&self, profile: ClientProfile) -> ProfileConfig {
        let mut config = ProfileConfig::client_default(profile);
        config.scheme = self.scheme.unwrap_or(config.scheme);
        config.boost = self.boost.or(config.boost);
        config.mode = self.mode.unwrap_or(config.mode);
        if self.unsigned_char {
            config.char_signedness = char_signedness(true);
        }
        let b = &mut config.batching;
        b.enabled = self.batching.unwrap_or(b.enabled);
        b.max_messages = self.batching_max_messages.unwrap_or(b.max_messages);
        b.max_bytes = self.batching_max_bytes.unwrap_or(b.max_bytes);
        b.max_publish_delay_ns = self
            .batching_max_publish_delay_ns
            .unwrap_or(b.max_publish_delay_ns);
        b.partition_switch_frequency = self
            .partition_switch_frequency
            .unwrap_or(b.partition_switch_frequency);
        config.lazy_start = self.lazy_start;
        config
    }
}

/// The signedness of a platform's `char`, from the bindings' flag.
#[must_use]
pub const fn char_signedness(unsigned_char: bool) -> CharSignedness {
    if unsigned_char {
        CharSignedness::Unsigned
    } else {
        CharSignedness::Signed
    }
}

/// A scheme name with the Boost generation it pins: `"boost_1_N"` for
/// Boost release 1.N (1.33 to the newest checked; `"boost_1_74"` is
/// `BoostHash` of 1.62's generation), the earlier `"boost_1_74_x86_64"`,
/// or any name [`ClientHashingScheme`] parses (no generation).
///
/// # Errors
/// [`UnknownClientHashingScheme`] for any other name.
pub fn scheme_of_name(
    name: &str,
) -> Result<(ClientHashingScheme, Option<BoostHashGeneration>), UnknownClientHashingScheme> {
    let boost = |generation| Ok((ClientHashingScheme::BoostHash, Some(generation)));
    if name == "boost_1_74_x86_64" {
        return boost(BoostHashGeneration::Boost1_62);
    }
    if let Some(minor) = name.strip_prefix("boost_1_")
        && !minor.is_empty()
        && minor.len() <= 3
        && minor.bytes().all(|b| b.is_ascii_digit())
        && let Some(generation) = minor.parse().ok().and_then(BoostHashGeneration::of_release)
    {
        return boost(generation);
    }
    name.parse().map(|scheme| (scheme, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_lay_over_the_client_defaults() {
        let none = ProfileOptions::default();
        for profile in ClientProfile::ALL {
            assert_eq!(none.config(profile), ProfileConfig::client_default(profile));
        }
        let options = ProfileOptions {
            scheme: Some(ClientHashingScheme::Murmur3_32Hash),
            mode: Some(ProfileMode::SinglePartition),
            unsigned_char: true,
            batching_max_messages: Some(7),
            lazy_start: true,
            ..ProfileOptions::default()
        };
        let config = options.config(ClientProfile::Cpp);
        let default = ProfileConfig::client_default(ClientProfile::Cpp);
        assert_eq!(config.scheme, ClientHashingScheme::Murmur3_32Hash);
        assert_eq!(config.mode, ProfileMode::SinglePartition);
        assert_eq!(config.char_signedness, CharSignedness::Unsigned);
        assert_eq!(config.batching.max_messages, 7);
        assert_eq!(config.batching.max_bytes, default.batching.max_bytes);
        assert!(config.lazy_start);
    }

    #[test]
    fn boost_scheme_names_pin_the_generation_of_their_release() {
        let boost = |g| Ok((ClientHashingScheme::BoostHash, Some(g)));
        assert_eq!(
            scheme_of_name("boost_1_74"),
            boost(BoostHashGeneration::Boost1_62)
        );
        assert_eq!(
            scheme_of_name("boost_1_74_x86_64"),
            boost(BoostHashGeneration::Boost1_62)
        );
        assert_eq!(
            scheme_of_name("boost_1_33"),
            boost(BoostHashGeneration::Boost1_33)
        );
        assert_eq!(
            scheme_of_name("boost_1_85"),
            boost(BoostHashGeneration::Boost1_82)
        );
        assert_eq!(
            scheme_of_name("boost"),
            Ok((ClientHashingScheme::BoostHash, None))
        );
        for bad in [
            "boost_1_32",
            "boost_1_",
            "boost_1_0074",
            "boost_1_+74",
            "boost_2_74",
        ] {
            assert_eq!(
                scheme_of_name(bad),
                Err(UnknownClientHashingScheme),
                "{bad}"
            );
        }
    }
}
