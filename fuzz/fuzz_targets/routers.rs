//! The routers and the arithmetic under them, on arbitrary configurations:
//!
//! - any partition count (as `u32`, `i32`, `i64` or `usize`) is either
//!   accepted, exactly when it is in `1..=i32::MAX`, or rejected with the
//!   right error, never a panic;
//! - `PartitionCount::reduce` is `%`, and every sign-safe modulo matches an
//!   `i128` transcription of Java's `signSafeMod`;
//! - keyed messages hash as the naive references say (the Base64 text for
//!   `keyBytes`), and every router lands in `[0, n)`;
//! - the round-robin router follows Java's time-slot and wrapping-counter
//!   rules, the single-partition router accepts its index exactly when it is
//!   in range, and a custom router's answer is `Ok` exactly when it is.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::{
    CustomRouter, HashingScheme, MessageRouter, PartitionCount, PartitionCountError,
    RoundRobinRouter, RouteError, RoutingKey, SinglePartitionRouter, check_partition,
    partition_for_key, partition_for_key_bytes, partition_switch_ms, sign_safe_mod,
};
use pulsar_routing_fuzz::reference;

/// Bounds the keyless calls per input; 16 is enough to cross the counter's
/// `i32::MAX` wrap from any start the fuzzer finds near it.
const MAX_CALLS: u8 = 16;

#[derive(Arbitrary, Debug)]
enum Count {
    /// Small counts are where the range checks bite; a fuzzer drawing full
    /// 32-bit numbers would rarely produce them.
    Small(u8),
    U32(u32),
    I32(i32),
    I64(i64),
    Usize(usize),
}

#[derive(Arbitrary, Debug)]
enum MessageKey {
    None,
    Key(String),
    KeyBytes(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
struct Input {
    count: Count,
    murmur: bool,
    batching: bool,
    start: i32,
    now_ms: i64,
    switch_ms: i64,
    calls: u8,
    single_index: i32,
    custom_value: i64,
    dividend: i64,
    divisor: i32,
    switch_frequency: i32,
    publish_delay_us: i64,
    key: MessageKey,
    values: Vec<u32>,
}

fuzz_target!(|input: Input| {
    check_sign_safe_mod(input.dividend, input.divisor);
    check_switch_ms(input.switch_frequency, input.publish_delay_us);
    if let Some(n) = check_count(&input.count) {
        check_arithmetic(n, &input);
        check_routers(n, &input);
    }
});

/// The free `sign_safe_mod` is Java's, for every divisor, zero included.
fn check_sign_safe_mod(dividend: i64, divisor: i32) {
    let ours = sign_safe_mod(dividend, divisor);
    assert_eq!(ours.ok(), reference::sign_safe_mod(dividend, divisor));
    if let Err(e) = ours {
        assert_eq!(e.to_string(), "/ by zero");
    }
}

fn check_switch_ms(frequency: i32, delay_us: i64) {
    let ours = partition_switch_ms(frequency, delay_us);
    if frequency < 1 || delay_us / 1000 < 1 {
        assert!(ours.is_err(), "{ours:?}");
    } else {
        // Java's `int * long` is a long product that wraps on overflow.
        let product = (i128::from(frequency) * i128::from(delay_us)) as i64;
        assert_eq!(ours, Ok((product / 1000).max(1)));
    }
    if let Err(e) = ours {
        let _ = e.to_string();
    }
}

/// Validates the count through the constructor its type selects, checks
/// the verdict against the range, and returns the count if it is valid.
fn check_count(count: &Count) -> Option<PartitionCount> {
    let (value, result) = match *count {
        Count::Small(v) => (i128::from(v), PartitionCount::new(u32::from(v))),
        Count::U32(v) => (i128::from(v), PartitionCount::new(v)),
        Count::I32(v) => (i128::from(v), PartitionCount::try_from(v)),
        Count::I64(v) => (i128::from(v), PartitionCount::from_i64(v)),
        Count::Usize(v) => (v as i128, PartitionCount::try_from(v)),
    };
    let expected = if value < 0 {
        Err(PartitionCountError::Negative)
    } else if value == 0 {
        Err(PartitionCountError::Zero)
    } else if value > i128::from(PartitionCount::MAX) {
        Err(PartitionCountError::TooLarge)
    } else {
        // In 1..=i32::MAX.
        Ok(value as u32)
    };
    assert_eq!(result.map(PartitionCount::get), expected);
    if let Err(e) = result {
        let _ = e.to_string();
    }
    // Every constructor that can represent the value agrees on it.
    if let Ok(v) = u32::try_from(value) {
        assert_eq!(PartitionCount::new(v), result);
    }
    if let Ok(v) = i64::try_from(value) {
        assert_eq!(PartitionCount::from_i64(v), result);
    }
    result.ok()
}

fn check_arithmetic(n: PartitionCount, input: &Input) {
    let count = n.get();
    let as_divisor = i32::try_from(count).expect("counts are at most i32::MAX");
    for &x in &input.values {
        assert_eq!(n.reduce(x), x % count, "reduce({x}) with n = {count}");
        let signed = x as i32;
        let ours = n.sign_safe_mod_i32(signed);
        assert_eq!(ours, reference::floor_mod(i128::from(signed), count));
        assert_eq!(
            Some(ours as i32),
            reference::sign_safe_mod(i64::from(signed), as_divisor)
        );
    }
    for x in [
        input.dividend,
        input.now_ms,
        input.switch_ms,
        input.custom_value,
    ] {
        let ours = n.sign_safe_mod(x);
        assert_eq!(ours, reference::floor_mod(i128::from(x), count));
        assert_eq!(Some(ours as i32), reference::sign_safe_mod(x, as_divisor));
    }
}

/// The hash of a key under a scheme, from the naive references alone.
fn reference_hash(key: &MessageKey, scheme: HashingScheme) -> Option<u32> {
    let text = match key {
        MessageKey::None => return None,
        MessageKey::Key(s) => s.clone(),
        MessageKey::KeyBytes(b) => reference::base64(b),
    };
    let hash = match scheme {
        HashingScheme::JavaStringHash => reference::java_string_hashcode(&text) as u32,
        HashingScheme::Murmur3_32Hash => reference::murmur3_32_raw(text.as_bytes()),
    };
    Some(hash & 0x7fff_ffff)
}

fn check_routers(n: PartitionCount, input: &Input) {
    let count = n.get();
    let scheme = if input.murmur {
        HashingScheme::Murmur3_32Hash
    } else {
        HashingScheme::JavaStringHash
    };
    let key = match &input.key {
        MessageKey::None => RoutingKey::None,
        MessageKey::Key(s) => RoutingKey::Key(s),
        MessageKey::KeyBytes(b) => RoutingKey::KeyBytes(b),
    };
    let hash = reference_hash(&input.key, scheme);
    let keyed_partition = hash.map(|h| h % count);
    assert_eq!(key.hash(scheme), hash);
    assert_eq!(key.partition(scheme, n), keyed_partition);
    match &input.key {
        MessageKey::None => {}
        MessageKey::Key(s) => assert_eq!(Some(partition_for_key(s, n, scheme)), keyed_partition),
        MessageKey::KeyBytes(b) => {
            assert_eq!(Some(partition_for_key_bytes(b, n, scheme)), keyed_partition);
        }
    }

    check_round_robin(n, input, scheme, key, keyed_partition);

    let single = SinglePartitionRouter::new(scheme, input.single_index);
    let expected = match keyed_partition {
        Some(p) => Ok(p),
        None => in_range(i64::from(input.single_index), count),
    };
    assert_eq!(single.choose_partition(key, n), expected);
    assert_eq!(single.route(key, n, input.now_ms), expected);

    let value = input.custom_value;
    let custom = CustomRouter::new(move |_: RoutingKey<'_>, _: PartitionCount| value);
    let expected = in_range(value, count);
    assert_eq!(custom.choose_partition(key, n), expected);
    assert_eq!(custom.route(key, n, input.now_ms), expected);
    assert_eq!(check_partition(value, n), expected);
    if let Err(e) = expected {
        assert_eq!(
            e.to_string(),
            format!("Illegal partition index chosen by the message routing policy: {value}")
        );
    }
    // A custom router that routes like the built-in ones is always accepted.
    let by_hash = CustomRouter::new(move |k: RoutingKey<'_>, n: PartitionCount| {
        k.partition(scheme, n).map_or(0, i64::from)
    });
    assert_eq!(
        by_hash.choose_partition(key, n),
        Ok(keyed_partition.unwrap_or(0))
    );
}

fn check_round_robin(
    n: PartitionCount,
    input: &Input,
    scheme: HashingScheme,
    key: RoutingKey<'_>,
    keyed_partition: Option<u32>,
) {
    let count = n.get();
    let router = RoundRobinRouter::new(scheme, input.start, input.batching, input.switch_ms);
    let switch_ms = input.switch_ms.max(1);
    assert_eq!(router.scheme(), scheme);
    assert_eq!(router.start_partition_index(), input.start);
    assert_eq!(
        router.partition_switch_ms(),
        input.batching.then_some(switch_ms)
    );

    let calls = input.calls % (MAX_CALLS + 1);
    let mut counter = input.start;
    for call in 0..calls {
        let now_ms = input.now_ms.wrapping_add(i64::from(call));
        let expected = match keyed_partition {
            Some(p) => p,
            // Java: signSafeMod(now / switch + start, n), in long arithmetic.
            None if input.batching => reference::floor_mod(
                i128::from((now_ms / switch_ms).wrapping_add(i64::from(input.start))),
                count,
            ),
            // Java: signSafeMod(counter.getAndIncrement(), n) on an int.
            None => {
                let value = counter;
                counter = counter.wrapping_add(1);
                reference::floor_mod(i128::from(value), count)
            }
        };
        // Alternate between the inherent method and the trait object: both
        // must advance the same counter.
        let got = if call % 2 == 0 {
            router.choose_partition(key, n, now_ms)
        } else {
            let dyn_router: &dyn MessageRouter = &router;
            dyn_router
                .route(key, n, now_ms)
                .expect("the round-robin router never fails")
        };
        assert!(got < count);
        assert_eq!(got, expected, "call {call}");
    }

    if keyed_partition.is_none() && !input.batching {
        // A clone continues the counter where the original stands.
        let clone = router.clone();
        let expected = reference::floor_mod(i128::from(counter), count);
        assert_eq!(clone.choose_partition(key, n, input.now_ms), expected);
        assert_eq!(router.choose_partition(key, n, input.now_ms), expected);
    }
}

fn in_range(value: i64, count: u32) -> Result<u32, RouteError> {
    if (0..i64::from(count)).contains(&value) {
        Ok(value as u32)
    } else {
        Err(RouteError::IllegalPartitionIndex(value))
    }
}
