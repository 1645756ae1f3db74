//! Loading the golden vectors shared by every language's tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use serde_json::Value;

/// All rows of `testdata/golden/<name>.jsonl.gz`.
pub fn golden(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/golden")
        .join(format!("{name}.jsonl.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("readable line")).expect("valid JSON"))
        .collect()
}

/// Decodes a lower-case hex string.
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// An integer field.
pub fn int(row: &Value, field: &str) -> i64 {
    row[field]
        .as_i64()
        .unwrap_or_else(|| panic!("{field} in {row}"))
}

/// A string field.
pub fn text<'a>(row: &'a Value, field: &str) -> &'a str {
    row[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} in {row}"))
}
