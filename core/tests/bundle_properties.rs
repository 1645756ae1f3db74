//! Bundle layouts, lookups and splits against their definitions.

use proptest::prelude::*;
use pulsar_routing::bundles::{BundleLayout, BundleRange, range_equally_divide};

/// A valid explicit layout: sorted distinct inner boundaries over [0, 2^32-1].
fn any_boundaries() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::btree_set(1u32..u32::MAX, 0..40).prop_map(|inner| {
        let mut b = vec![0u32];
        b.extend(inner);
        b.push(u32::MAX);
        b
    })
}

fn owners(layout: &BundleLayout<'_>, hash: u32) -> usize {
    layout.bundles().filter(|b| b.includes(hash)).count()
}

/// Explicit layouts an index finds hardest: boundaries packed into one small
/// region (a bundle split again and again), and a first boundary above 0.
fn clustered_boundaries() -> impl Strategy<Value = Vec<u32>> {
    (any::<u32>(), 0u32..4096, any::<bool>()).prop_flat_map(|(base, spread, from_zero)| {
        let base = base.min(u32::MAX - 1 - spread);
        proptest::collection::btree_set(base..=base + spread, 1..60).prop_map(move |inner| {
            let mut b: Vec<u32> = if from_zero { vec![0] } else { Vec::new() };
            b.extend(inner.into_iter().filter(|&x| x != 0 || !from_zero));
            b.push(u32::MAX);
            b
        })
    })
}

proptest! {
    #[test]
    fn an_index_never_changes_an_answer(
        boundaries in prop_oneof![any_boundaries(), clustered_boundaries()],
        table_len in prop_oneof![0usize..70, 0usize..5000],
        hashes in proptest::collection::vec(any::<u32>(), 0..50),
    ) {
        let Ok(plain) = BundleLayout::new(&boundaries) else {
            // Only a lone boundary can be invalid here: nothing to compare.
            return Ok(());
        };
        let mut table = vec![0u32; table_len];
        let indexed = plain.indexed(&mut table);
        prop_assert_eq!(indexed, plain);
        // The hashes most likely to go wrong: each boundary and its neighbours.
        let edges = boundaries.iter().flat_map(|&b| [b.wrapping_sub(1), b, b.wrapping_add(1)]);
        for hash in hashes.into_iter().chain(edges).chain([0, u32::MAX]) {
            prop_assert_eq!(indexed.bundle_index_for_hash(hash), plain.bundle_index_for_hash(hash), "hash {:#x}", hash);
            prop_assert_eq!(indexed.bundle_for_hash(hash), plain.bundle_for_hash(hash), "hash {:#x}", hash);
        }
    }

    /// The shortcut for power-of-two default layouts (a mask and an add)
    /// gives the bundle the general lookup finds, up to 2^31 bundles.
    #[test]
    fn power_of_two_default_layouts_find_the_same_bundle(bits in 0u32..=31, hash in prop_oneof![any::<u32>(), Just(u32::MAX), Just(0)]) {
        let layout = BundleLayout::default_for(1 << bits).unwrap();
        let index = layout.bundle_index_for_hash(hash).unwrap();
        prop_assert_eq!(layout.bundle_for_hash(hash), layout.bundle(index));
    }

    #[test]
    fn every_hash_lands_in_exactly_one_bundle_that_includes_it(boundaries in any_boundaries(), hash in any::<u32>()) {
        let layout = BundleLayout::new(&boundaries).unwrap();
        let bundle = layout.bundle_for_hash(hash).unwrap();
        prop_assert!(bundle.includes(hash));
        prop_assert_eq!(owners(&layout, hash), 1);
    }

    #[test]
    fn the_default_layout_lookup_is_the_binary_search(count in prop_oneof![1u32..=70_000, 1u32..=u32::MAX], hash in any::<u32>()) {
        let layout = BundleLayout::default_for(count).unwrap();
        let index = layout.bundle_index_for_hash(hash).unwrap();
        let bundle = layout.bundle(index).unwrap();
        prop_assert!(bundle.includes(hash), "{} not in {}", hash, bundle);
        // Java's binarySearch: the last boundary not above the hash.
        let lower = layout.boundary(index).unwrap();
        prop_assert!(lower <= hash);
        if index + 1 < layout.len() {
            prop_assert!(layout.boundary(index + 1).unwrap() > hash);
        }
    }

    #[test]
    fn default_and_explicit_layouts_agree(count in 1u32..=300, hash in any::<u32>()) {
        let default = BundleLayout::default_for(count).unwrap();
        let stored: Vec<u32> = default.boundaries().collect();
        let explicit = BundleLayout::new(&stored).unwrap();
        prop_assert_eq!(default.bundle_for_hash(hash), explicit.bundle_for_hash(hash));
        prop_assert_eq!(default.bundle_index_for_hash_java(hash), explicit.bundle_index_for_hash_java(hash));
    }

    #[test]
    fn a_split_keeps_the_layout_sorted_and_complete(boundaries in any_boundaries(), pick in any::<prop::sample::Index>(),
                                                    parts in 1u32..6, hash in any::<u32>()) {
        let layout = BundleLayout::new(&boundaries).unwrap();
        let target = layout.bundle(pick.index(layout.len())).unwrap();
        let mut out = vec![0u32; boundaries.len() + parts as usize];
        match layout.split_equally(target, parts, &mut out) {
            Ok(split) => {
                let after: Vec<u32> = split.layout.boundaries().collect();
                prop_assert!(after.windows(2).all(|w| w[0] < w[1]));
                prop_assert_eq!(after.first(), Some(&0));
                prop_assert_eq!(after.last(), Some(&u32::MAX));
                prop_assert_eq!(owners(&split.layout, hash), 1);
                prop_assert_eq!(split.layout.len(), layout.len() + parts as usize - 1);
                // Only hashes of the split bundle change bundle.
                let change = layout.compare(&split.layout, [hash]).next().unwrap();
                prop_assert_eq!(change.changed(), target.includes(hash) && parts > 1);
            }
            // Too narrow to split into that many parts.
            Err(_) => prop_assert!(target.upper() - target.lower() < i64::from(parts) || !target.can_split()),
        }
    }

    #[test]
    fn halving_splits_every_splittable_bundle(boundaries in any_boundaries(), pick in any::<prop::sample::Index>()) {
        let layout = BundleLayout::new(&boundaries).unwrap();
        let target = layout.bundle(pick.index(layout.len())).unwrap();
        let mut points = [range_equally_divide(target)];
        let mut out = vec![0u32; boundaries.len() + 1];
        prop_assert_eq!(layout.split(target, &mut points, &mut out).is_ok(), target.can_split());
    }

    #[test]
    fn parse_of_format_is_the_identity(lower in any::<u32>(), upper in any::<u32>()) {
        if let Ok(range) = BundleRange::new(i64::from(lower.min(upper)), i64::from(lower.max(upper))) {
            prop_assert_eq!(BundleRange::parse(&range.to_string()), Ok(range));
        }
    }

    #[test]
    fn parsing_anything_never_panics(text in "\\PC{0,40}") {
        let _ = BundleRange::parse(&text);
    }

    #[test]
    fn counts_add_up(boundaries in any_boundaries(), hashes in proptest::collection::vec(any::<u32>(), 0..200)) {
        let layout = BundleLayout::new(&boundaries).unwrap();
        let mut counts = vec![0u64; layout.len()];
        let unowned = layout.count_per_bundle(hashes.iter().copied(), &mut counts).unwrap();
        prop_assert_eq!(unowned, 0);
        prop_assert_eq!(counts.iter().sum::<u64>(), hashes.len() as u64);
    }
}

#[test]
fn decode_accepts_what_the_broker_accepts() {
    // Spec 5.3: Long.decode forms.
    let r = BundleRange::parse("#10_0X20").unwrap();
    assert_eq!((r.lower(), r.upper()), (16, 32));
    assert_eq!(
        BundleRange::parse("010_020").map(|r| (r.lower(), r.upper())),
        Ok((8, 16))
    );
    // A trailing separator leaves no upper part at all.
    assert!(BundleRange::parse("0x00000000_").is_err());
    assert!(BundleRange::parse("0x1_0x-2").is_err());
    // Unicode digits are digits to Java.
    assert_eq!(
        BundleRange::parse("\u{661}_\u{662}").map(|r| (r.lower(), r.upper())),
        Ok((1, 2))
    );
    // The one-hash range at the very top is not empty.
    assert!(BundleRange::parse("0xffffffff_0xffffffff").is_ok());
    assert_eq!(
        BundleRange::parse("0x40000000_0x00000000")
            .unwrap_err()
            .to_string(),
        "Invalid range: [1073741824..0)"
    );
}

#[test]
fn fuzzer_findings_behave_like_java() {
    // Wider than i64::MAX: Java's long arithmetic wraps instead of trapping.
    let wide = BundleRange::parse("-0x4000000000000000_0x4000000000000000").unwrap();
    let _ = range_equally_divide(wide);
    assert!(!BundleRange::new(i64::MIN, 0).unwrap().can_split());
    // The one-hash layout: Java's binary search finds boundary 0 first.
    let top = [u32::MAX, u32::MAX];
    let layout = BundleLayout::new(&top).unwrap();
    assert_eq!(layout.bundle_index_for_hash_java(u32::MAX), Ok(0));
    assert_eq!(layout.validate_bundle(layout.bundle(0).unwrap()), Ok(0));
    // Java decodes the lower part before it looks for the upper one.
    assert!(matches!(
        BundleRange::parse("zz_"),
        Err(pulsar_routing::bundles::BundleError::InvalidBound(_))
    ));
}
