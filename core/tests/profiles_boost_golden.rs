//! `testdata/boost/boost_hash.jsonl.gz`: `boost::hash<std::string>` printed
//! by a program compiled against real Boost headers of many releases, with
//! signed and unsigned `char`. Every row must agree with the generation the
//! release maps to, through every public entry point.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use pulsar_routing::PartitionCount;
use pulsar_routing::profiles::{
    BoostHashGeneration, CharSignedness, ClientHashingScheme, ClientProfile, KeyHash,
    ProfileConfig, ProfileKeying, ProfileMessage,
};
use serde_json::Value;

mod common;
use common::{text, unhex};

fn rows() -> Vec<Value> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/boost/boost_hash.jsonl.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("readable line")).expect("valid JSON"))
        .collect()
}

fn signedness(row: &Value) -> CharSignedness {
    match text(row, "char") {
        "signed" => CharSignedness::Signed,
        "unsigned" => CharSignedness::Unsigned,
        other => panic!("char {other}"),
    }
}

#[test]
fn every_release_agrees_with_its_generation() {
    let rows = rows();
    assert!(rows.len() > 10_000, "{} rows", rows.len());
    let mut generations = BTreeSet::new();
    for row in &rows {
        let release = text(row, "boost");
        let generation: BoostHashGeneration = release
            .parse()
            .unwrap_or_else(|_| panic!("release {release}"));
        generations.insert(generation.name());
        let key = unhex(text(row, "key_hex"));
        let char_signedness = signedness(row);
        let want = row["hash"].as_u64().expect("hash");
        assert_eq!(generation.hash_raw(&key, char_signedness), want, "{row}");
        let masked = u32::try_from(want & 0x7fff_ffff).expect("31 bits");
        assert_eq!(generation.make_hash(&key, char_signedness), masked, "{row}");
        let hash = KeyHash::cpp_boost(generation, char_signedness);
        assert_eq!(hash.hash_bytes(&key), Ok(masked), "{row}");
        assert_eq!(hash.name().parse::<KeyHash>(), Ok(hash));
        if let Ok(s) = std::str::from_utf8(&key) {
            assert_eq!(hash.hash_str(s), Ok(masked), "{row}");
        }
    }
    // Every generation is covered by at least one real header set.
    assert_eq!(generations.len(), BoostHashGeneration::ALL.len());
}

#[test]
fn signedness_matters_only_for_the_per_char_generations() {
    for row in rows() {
        let key = unhex(text(&row, "key_hex"));
        let generation: BoostHashGeneration = text(&row, "boost").parse().expect("release");
        let signed = generation.hash_raw(&key, CharSignedness::Signed);
        let unsigned = generation.hash_raw(&key, CharSignedness::Unsigned);
        if !generation.depends_on_char_signedness() || key.iter().all(|&b| b < 0x80) {
            assert_eq!(signed, unsigned, "{row}");
        }
    }
}

/// Keyed routing of the C++ and Python profiles uses the named generation;
/// Python's default is the current wheel's.
#[test]
fn profiles_route_with_the_generation() {
    let n = PartitionCount::new(7).expect("n");
    for row in rows() {
        if text(&row, "char") != "signed" {
            continue;
        }
        let key = unhex(text(&row, "key_hex"));
        let Ok(key) = std::str::from_utf8(&key) else {
            continue;
        };
        let generation: BoostHashGeneration = text(&row, "boost").parse().expect("release");
        let want = u32::try_from(row["hash"].as_u64().expect("hash") & 0x7fff_ffff).expect("31");
        let config = ProfileConfig::client_default(ClientProfile::Cpp).with_boost(generation);
        let keying = ProfileKeying::new(ClientProfile::Cpp, &config).expect("cpp");
        assert_eq!(
            keying.partition(&ProfileMessage::keyed(key), n),
            Ok(Some(want % 7))
        );
        if generation == BoostHashGeneration::PYTHON_WHEEL && !key.is_empty() {
            let python = ProfileConfig::client_default(ClientProfile::Python);
            let keying = ProfileKeying::new(ClientProfile::Python, &python).expect("python");
            assert_eq!(
                keying.partition(&ProfileMessage::keyed(key), n),
                Ok(Some(want % 7))
            );
        }
    }
    // C++ without a named Boost still refuses BoostHash.
    let cpp = ProfileConfig::client_default(ClientProfile::Cpp);
    assert_eq!(cpp.scheme, ClientHashingScheme::BoostHash);
    let keying = ProfileKeying::new(ClientProfile::Cpp, &cpp).expect("cpp");
    assert!(keying.partition(&ProfileMessage::keyed("k"), n).is_err());
}

#[test]
fn releases_parse_to_their_generation() {
    use BoostHashGeneration as G;
    for (text, want) in [
        ("1.33", G::Boost1_33),
        ("1.61.0", G::Boost1_33),
        ("1.62", G::Boost1_62),
        ("1.74", G::Boost1_62),
        ("1.80.0", G::Boost1_62),
        ("1.81", G::Boost1_81),
        ("1.82", G::Boost1_82),
        ("1.84", G::Boost1_82),
        ("1.91.0", G::Boost1_82),
    ] {
        assert_eq!(text.parse::<G>(), Ok(want), "{text}");
    }
    for bad in [
        "", "1", "1.", "1.32", "1.92", "2.0", "1.74.", "1.x", "01.74", "1.074x", "1.+74",
    ] {
        assert!(bad.parse::<G>().is_err(), "{bad}");
    }
    for generation in G::ALL {
        assert_eq!(generation.name().parse::<G>(), Ok(generation));
    }
}

proptest::proptest! {
    /// Any bytes, any generation, any `char`: a value, never a panic; the
    /// word-based generations ignore `char` signedness.
    #[test]
    fn any_key_hashes(key in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
        for generation in BoostHashGeneration::ALL {
            let signed = generation.hash_raw(&key, CharSignedness::Signed);
            let unsigned = generation.hash_raw(&key, CharSignedness::Unsigned);
            if !generation.depends_on_char_signedness() {
                proptest::prop_assert_eq!(signed, unsigned);
            }
            proptest::prop_assert!(generation.make_hash(&key, CharSignedness::Signed) <= 0x7fff_ffff);
        }
    }
}
