//! Every Java field of `hash.jsonl` and `routing.jsonl` must agree.

mod common;

use common::{golden, int, text, unhex};
use pulsar_routing::{
    HashingScheme, Murmur3Hasher, PartitionCount, RoundRobinRouter, RoutingKey,
    SinglePartitionRouter, crc32, encode_base64, java_lossy_utf8, java_string_hash,
    java_string_hash_bytes, java_string_hashcode, java_string_hashcode_bytes, murmur3_32,
    murmur3_32_raw, partition_for_key, partition_for_key_bytes, sign_safe_mod,
};

fn scheme(row: &serde_json::Value) -> HashingScheme {
    text(row, "scheme").parse().expect("known scheme")
}

fn partitions(row: &serde_json::Value) -> PartitionCount {
    PartitionCount::from_i64(int(row, "num_partitions")).expect("valid count")
}

#[test]
fn hash_rows() {
    let rows = golden("hash");
    assert!(rows.len() > 1500, "hash.jsonl looks truncated");
    for row in &rows {
        let bytes = unhex(text(row, "key_hex"));
        let id = int(row, "id");
        assert_eq!(
            i64::from(murmur3_32(&bytes)),
            int(row, "murmur3_32"),
            "murmur3_32, id {id}"
        );
        if let Some(raw) = row.get("murmur3_32_raw") {
            assert_eq!(
                Some(i64::from(murmur3_32_raw(&bytes) as i32)),
                raw.as_i64(),
                "raw, id {id}"
            );
        }
        assert_eq!(
            i64::from(java_string_hash_bytes(&bytes)),
            int(row, "java_string_hash"),
            "jsh, id {id}"
        );
        assert_eq!(
            i64::from(java_string_hashcode_bytes(&bytes)),
            int(row, "java_string_hashcode_raw"),
            "hashCode, id {id}"
        );
        let decoded: String = java_lossy_utf8(&bytes).collect();
        assert_eq!(
            decoded.encode_utf16().count() as i64,
            int(row, "java_decoded_utf16_len"),
            "decoded length, id {id}"
        );
        if let Some(lossy) = row.get("java_lossy_utf8_hex") {
            assert_eq!(
                decoded.as_bytes(),
                unhex(lossy.as_str().expect("hex")),
                "lossy decoding, id {id}"
            );
        }
        assert_eq!(
            i64::from(crc32(&bytes)),
            int(row, "crc32_bundle"),
            "crc32, id {id}"
        );

        // The string entry points agree with the byte ones for valid UTF-8.
        if let Ok(s) = std::str::from_utf8(&bytes) {
            assert_eq!(decoded, s);
            assert_eq!(i64::from(java_string_hash(s)), int(row, "java_string_hash"));
            assert_eq!(
                i64::from(java_string_hashcode(s)),
                int(row, "java_string_hashcode_raw")
            );
        }
        // Streaming in uneven pieces gives the one-shot answer.
        for piece in [1, 2, 3, 5, 7] {
            let mut hasher = Murmur3Hasher::new();
            for chunk in bytes.chunks(piece) {
                hasher.update(chunk);
            }
            assert_eq!(hasher.finalize(), murmur3_32(&bytes));
        }
    }
}

#[test]
fn routing_rows() {
    let rows = golden("routing");
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for row in &rows {
        let kind = text(row, "kind");
        *seen.entry(kind).or_default() += 1;
        match kind {
            "keyed" => check_keyed(row),
            "keyed_bytes" => check_keyed_bytes(row),
            "rr_batching" => {
                let router = RoundRobinRouter::with_batching(
                    HashingScheme::default(),
                    int(row, "start_ptn_idx") as i32,
                    int(row, "partition_switch_ms_arg"),
                );
                let p = router.choose_partition(
                    RoutingKey::None,
                    partitions(row),
                    int(row, "clock_ms"),
                );
                assert_eq!(i64::from(p), int(row, "partition"), "{row}");
            }
            "rr_sequence" => {
                let router = RoundRobinRouter::without_batching(
                    HashingScheme::default(),
                    int(row, "start_ptn_idx") as i32,
                );
                let n = partitions(row);
                let picks: Vec<i64> = (0..12)
                    .map(|_| i64::from(router.choose_partition(RoutingKey::None, n, 0)))
                    .collect();
                let expected: Vec<i64> = row["sequence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                assert_eq!(picks, expected, "{row}");
            }
            "single_no_key" => {
                let router = SinglePartitionRouter::new(
                    HashingScheme::default(),
                    int(row, "partition_index_arg") as i32,
                );
                let p = router
                    .choose_partition(RoutingKey::None, partitions(row))
                    .expect("in range");
                assert_eq!(i64::from(p), int(row, "partition"));
            }
            "sign_safe_mod" => {
                let got = sign_safe_mod(int(row, "dividend"), int(row, "divisor") as i32);
                match row.get("result") {
                    Some(result) => assert_eq!(got.map(i64::from).ok(), result.as_i64(), "{row}"),
                    None => {
                        assert_eq!(text(row, "error"), "java.lang.ArithmeticException");
                        assert_eq!(got.unwrap_err().to_string(), "/ by zero");
                    }
                }
            }
            other => panic!("unknown kind {other}"),
        }
    }
    for kind in [
        "keyed",
        "keyed_bytes",
        "rr_batching",
        "rr_sequence",
        "single_no_key",
        "sign_safe_mod",
    ] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "no {kind} rows");
    }
}

fn check_keyed(row: &serde_json::Value) {
    let key_bytes = unhex(text(row, "key_utf8_hex"));
    let key = std::str::from_utf8(&key_bytes).expect("keys are valid UTF-8");
    assert_eq!(key, text(row, "key"));
    let (n, scheme, expected) = (partitions(row), scheme(row), int(row, "partition"));
    assert_eq!(
        i64::from(partition_for_key(key, n, scheme)),
        expected,
        "{row}"
    );
    // Both built-in routers route a keyed message the same way, at any time.
    let rr = RoundRobinRouter::with_batching(scheme, 0, 10);
    assert_eq!(
        i64::from(rr.choose_partition(RoutingKey::Key(key), n, 123_456)),
        expected
    );
    let single = SinglePartitionRouter::new(scheme, -1);
    assert_eq!(
        single
            .choose_partition(RoutingKey::Key(key), n)
            .map(i64::from),
        Ok(expected)
    );
}

fn check_keyed_bytes(row: &serde_json::Value) {
    let bytes = unhex(text(row, "key_bytes_hex"));
    let mut buf = vec![0u8; pulsar_routing::base64_len(bytes.len())];
    let len = encode_base64(&bytes, &mut buf).expect("buffer sized by base64_len");
    assert_eq!(
        std::str::from_utf8(&buf[..len]).unwrap(),
        text(row, "key"),
        "Base64 of {row}"
    );
    let (n, scheme, expected) = (partitions(row), scheme(row), int(row, "partition"));
    assert_eq!(
        i64::from(partition_for_key_bytes(&bytes, n, scheme)),
        expected,
        "{row}"
    );
    let via_key = RoutingKey::KeyBytes(&bytes).partition(scheme, n);
    assert_eq!(via_key.map(i64::from), Some(expected));
}
