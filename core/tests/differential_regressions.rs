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
