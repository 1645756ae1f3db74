//! Inputs on which the differential test (scripts/differential.sh) found
//! the core disagreeing with the real Pulsar 4.2.4 classes, kept so that
//! the fix stays.

use pulsar_routing::bundles::{BundleError, BundleLayout, BundleRange};

/// `splitBundles` on a bundle of width 1: 4.2.4 says why it cannot split.
#[test]
fn a_bundle_of_width_one_says_why_it_cannot_split() {
    let boundaries = [0, 5, 6, u32::MAX];
    let layout = BundleLayout::new(&boundaries).unwrap();
    let target = BundleRange::parse("0x00000005_0x00000006").unwrap();
    let mut out = [0u32; 8];
    let err = layout.split_equally(target, 2, &mut out).unwrap_err();
    assert_eq!(err, BundleError::CannotSplitFurther(target));
    assert_eq!(
        err.to_string(),
        "0x00000005_0x00000006 bundle can't be split further since range not larger than 1"
    );
}

/// A hash past the 65536 slots: 4.2.4's exclusive selector looks it up
/// among the declared ranges as it is, where the core used to reduce it
/// modulo 65536 (Java: `[[0,0]]` answers nobody for 65536, `[[1,65536]]`
/// answers its consumer).
#[test]
fn an_exclusive_hash_past_the_slots_is_not_reduced() {
    use pulsar_routing::key_shared::{
        ExclusiveConfig, ExclusiveMode, ExclusiveSelector, HashRange,
    };
    let config = ExclusiveConfig::new(4, 8);
    let mut sel =
        ExclusiveSelector::new(config, vec![0u32; config.storage_words().unwrap()]).unwrap();
    sel.add(7, Some(&[HashRange::new(0, 0)])).unwrap();
    assert_eq!(sel.select(0), Some(7));
    assert_eq!(sel.select(65536), None);
    sel.add(8, Some(&[HashRange::new(1, 65536)])).unwrap();
    assert_eq!(sel.select(65536), Some(8));
    assert_eq!(sel.select(65537), None);
    // Above i32::MAX, Java's int is negative: below every range here.
    assert_eq!(sel.select(u32::MAX), None);

    // The pre-#24730 selector did reduce: `hash % rangeSize`.
    let legacy = config.with_mode(ExclusiveMode::LegacyPre24730);
    let mut old =
        ExclusiveSelector::new(legacy, vec![0u32; legacy.storage_words().unwrap()]).unwrap();
    old.add(7, Some(&[HashRange::new(0, 0)])).unwrap();
    assert_eq!(old.select(65536), Some(7));
}
