//! `pulsar_routing_owned::bundles`: owned layouts compare by their
//! boundaries, a split asks for storage only once every check has passed
//! (in the order the C ABI documents: the core's checks, the buffer, then
//! repeated points), and the algorithm dispatch picks the broker's points.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pulsar_routing::bundles::{BundleError, BundleLayout, BundleRange, SplitAlgorithm};
use pulsar_routing_owned::bundles::{
    OwnedBundles, SplitInputs, SplitPoints, bundle_change, bundle_index, split_into,
};

const FIRST_OF_FOUR: (i64, i64) = (0, 0x4000_0000);

fn range((lower, upper): (i64, i64)) -> BundleRange {
    BundleRange::new(lower, upper).unwrap()
}

fn hash_of(bundles: &OwnedBundles) -> u64 {
    let mut hasher = DefaultHasher::new();
    bundles.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn a_default_layout_equals_its_boundaries() {
    // PoliciesUtil.getBundles(4): a boundary every 2^32 / 4, the last forced
    // to 0xffffffff.
    let default = OwnedBundles::default_for_int(4).unwrap();
    let explicit =
        OwnedBundles::from_boundaries(vec![0, 0x4000_0000, 0x8000_0000, 0xc000_0000, 0xffff_ffff])
            .unwrap();
    assert_eq!(default, explicit);
    assert_eq!(hash_of(&default), hash_of(&explicit));
    assert_ne!(default, OwnedBundles::default_for_int(2).unwrap());
}

#[test]
fn counts_below_one_and_bad_boundaries_are_refused() {
    assert_eq!(
        OwnedBundles::default_for_int(0).unwrap_err(),
        BundleError::NoBundles
    );
    assert_eq!(
        OwnedBundles::default_for_int(-4).unwrap_err(),
        BundleError::NoBundles
    );
    assert_eq!(
        OwnedBundles::from_boundaries(vec![0, 0x10, 0x10, 0xffff_ffff]).unwrap_err(),
        BundleError::EmptyRange
    );
}

#[test]
fn a_split_replaces_the_target_with_its_parts() {
    let layout = OwnedBundles::default_for_int(4).unwrap();
    let mut points = [0x2000_0000];
    let (after, new_bundles) = layout
        .split(range(FIRST_OF_FOUR), SplitPoints::At(&mut points))
        .unwrap();
    assert_eq!(
        new_bundles,
        [range((0, 0x2000_0000)), range((0x2000_0000, 0x4000_0000))]
    );
    let boundaries: Vec<u32> = after.layout().unwrap().boundaries().collect();
    assert_eq!(
        boundaries,
        [
            0,
            0x2000_0000,
            0x4000_0000,
            0x8000_0000,
            0xc000_0000,
            0xffff_ffff
        ]
    );
    // splitBundles(target, 4, null): a point every (upper - lower) / 4.
    let (_, quarters) = layout
        .split(range(FIRST_OF_FOUR), SplitPoints::Equally(4))
        .unwrap();
    let lowers: Vec<i64> = quarters.iter().map(BundleRange::lower).collect();
    assert_eq!(lowers, [0, 0x1000_0000, 0x2000_0000, 0x3000_0000]);
}

#[test]
fn a_failing_split_never_asks_for_storage() {
    let layout = BundleLayout::default_for(4).unwrap();
    let target = range(FIRST_OF_FOUR);
    let never = |_: usize| -> &'static mut [u32] { panic!("storage asked for") };
    // Outside the target: the core's own check.
    let mut outside = [0x5000_0000];
    let err = split_into(&layout, target, SplitPoints::At(&mut outside), 64, never).unwrap_err();
    assert_eq!(err, BundleError::SplitBoundaryOutsideBundle(target));
    // Too little room: 4 bundles + 1 point + 1 = 6 boundaries needed.
    let mut one = [0x2000_0000];
    let err = split_into(&layout, target, SplitPoints::At(&mut one), 5, never).unwrap_err();
    assert_eq!(err, BundleError::BufferTooSmall { needed: 6 });
    // A repeated point makes an empty bundle, but the size comes first.
    let mut twice = [0x2000_0000, 0x2000_0000];
    let err = split_into(&layout, target, SplitPoints::At(&mut twice), 5, never).unwrap_err();
    assert_eq!(err, BundleError::BufferTooSmall { needed: 7 });
    let err = split_into(&layout, target, SplitPoints::At(&mut twice), 7, never).unwrap_err();
    assert_eq!(err, BundleError::EmptyRange);
    // More parts than hashes: the step is 0 and every point is the lower
    // bound.
    let narrow = range((0x4000_0000, 0x4000_0003));
    let layout = BundleLayout::new(&[0, 0x4000_0000, 0x4000_0003, 0xffff_ffff]).unwrap();
    let err = split_into(&layout, narrow, SplitPoints::Equally(4), 64, never).unwrap_err();
    assert_eq!(err, BundleError::EmptyRange);
}

#[test]
fn the_strict_lookup_refuses_the_top_hash() {
    let layout = BundleLayout::default_for(4).unwrap();
    assert_eq!(bundle_index(&layout, 0xffff_ffff, false), Ok(3));
    assert_eq!(
        bundle_index(&layout, 0xffff_ffff, true),
        Err(BundleError::NoBundleForHash(0xffff_ffff))
    );
    assert_eq!(bundle_index(&layout, 0x4000_0000, true), Ok(1));
    let gap = BundleLayout::new(&[0x10, 0xffff_ffff]).unwrap();
    assert_eq!(
        bundle_index(&gap, 0x0f, false),
        Err(BundleError::NoBundleForHash(0x0f))
    );
}

#[test]
fn only_the_hashes_of_the_split_bundle_change() {
    let before = BundleLayout::default_for(4).unwrap();
    let after = BundleLayout::new(&[
        0,
        0x2000_0000,
        0x4000_0000,
        0x8000_0000,
        0xc000_0000,
        0xffff_ffff,
    ])
    .unwrap();
    let low = bundle_change(&before, &after, 0x1000_0000);
    assert_eq!(
        (low.before, low.after, low.changed),
        (Some(0), Some(0), true)
    );
    let moved = bundle_change(&before, &after, 0x5000_0000);
    assert_eq!(
        (moved.before, moved.after, moved.changed),
        (Some(1), Some(2), false)
    );
}

#[test]
fn each_algorithm_reads_its_own_inputs() {
    let target = range(FIRST_OF_FOUR);
    // range_equally_divide: lower + (upper - lower) / 2.
    let inputs = SplitInputs::new(None, None, None);
    assert_eq!(
        inputs.choose(SplitAlgorithm::RangeEquallyDivide, target),
        Ok(Some(vec![0x2000_0000]))
    );
    // topic_count_equally_divide: halfway between the two middle hashes;
    // no split for a single topic.
    let mut inputs = SplitInputs::new(None, None, None);
    inputs.topic_hashes = vec![300, 100, 200, 400];
    assert_eq!(
        inputs.choose(SplitAlgorithm::TopicCountEquallyDivide, target),
        Ok(Some(vec![250]))
    );
    let mut inputs = SplitInputs::new(None, None, None);
    inputs.topic_hashes = vec![100];
    assert_eq!(
        inputs.choose(SplitAlgorithm::TopicCountEquallyDivide, target),
        Ok(None)
    );
    // specified_positions_divide: refused without positions; without
    // force, a bundle of one topic is not split.
    let inputs = SplitInputs::new(None, None, None);
    assert_eq!(
        inputs.choose(SplitAlgorithm::SpecifiedPositionsDivideForce, target),
        Err(BundleError::NoSplitPositions)
    );
    let mut inputs = SplitInputs::new(None, None, None);
    inputs.positions = vec![0x3000_0000, 0x5000_0000, 0x1000_0000];
    inputs.topic_hashes = vec![100];
    assert_eq!(
        inputs
            .clone()
            .choose(SplitAlgorithm::SpecifiedPositionsDivide, target),
        Ok(None)
    );
    assert_eq!(
        inputs.choose(SplitAlgorithm::SpecifiedPositionsDivideForce, target),
        Ok(Some(vec![0x1000_0000, 0x3000_0000]))
    );
}

#[test]
fn topics_without_stats_carry_no_load() {
    // Two loaded topics over a limit of 10 msg/s with 0 % slack: the split
    // point is halfway between their hashes, plus one.
    let mut inputs = SplitInputs::new(Some(10), None, Some(0));
    inputs.topic_hashes = vec![100, 200, 300];
    inputs.set_stats([Some([8.0, 0.0, 0.0, 0.0]), None, Some([8.0, 0.0, 0.0, 0.0])]);
    assert_eq!(inputs.loads.len(), 2);
    assert_eq!(
        inputs.choose(SplitAlgorithm::FlowOrQpsEquallyDivide, range(FIRST_OF_FOUR)),
        Ok(Some(vec![201]))
    );
}
