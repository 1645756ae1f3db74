//! Reading the protocol's fields: every malformed field is a protocol
//! failure, never a panic, so that one bad request does not end the run.

use serde_json::Value;

use crate::Failure;

fn bad(field: &str, what: &str) -> Failure {
    Failure::Protocol(format!("field {field}: expected {what}"))
}

pub fn field<'v>(req: &'v Value, name: &str) -> Result<&'v Value, Failure> {
    req.get(name).ok_or_else(|| bad(name, "a value"))
}

pub fn i64_of(req: &Value, name: &str) -> Result<i64, Failure> {
    field(req, name)?
        .as_i64()
        .ok_or_else(|| bad(name, "an integer"))
}

/// A Java `int` field; a value outside its range is a protocol failure,
/// as the Java side cannot read it either.
pub fn i32_of(req: &Value, name: &str) -> Result<i32, Failure> {
    i32::try_from(i64_of(req, name)?).map_err(|_| bad(name, "a 32-bit integer"))
}

pub fn i64_or(req: &Value, name: &str, default: i64) -> Result<i64, Failure> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(_) => i64_of(req, name),
    }
}

pub fn bool_of(req: &Value, name: &str) -> Result<bool, Failure> {
    field(req, name)?
        .as_bool()
        .ok_or_else(|| bad(name, "a boolean"))
}

pub fn str_of<'v>(req: &'v Value, name: &str) -> Result<&'v str, Failure> {
    field(req, name)?
        .as_str()
        .ok_or_else(|| bad(name, "a string"))
}

/// Hex text cut into groups of `digits` digits, each read by `parse`.
fn hex_groups<T>(
    text: &str,
    digits: usize,
    name: &str,
    parse: fn(&str, u32) -> Result<T, std::num::ParseIntError>,
) -> Result<Vec<T>, Failure> {
    if !text.len().is_multiple_of(digits) {
        return Err(bad(name, "whole groups of hex digits"));
    }
    (0..text.len())
        .step_by(digits)
        .map(|i| {
            text.get(i..i + digits)
                .and_then(|d| parse(d, 16).ok())
                .ok_or_else(|| bad(name, "hex digits"))
        })
        .collect()
}

pub fn hex_bytes(text: &str, name: &str) -> Result<Vec<u8>, Failure> {
    hex_groups(text, 2, name, u8::from_str_radix)
}

pub fn u16_hex(text: &str, name: &str) -> Result<Vec<u16>, Failure> {
    hex_groups(text, 4, name, u16::from_str_radix)
}

pub fn array<'v>(req: &'v Value, name: &str) -> Result<&'v [Value], Failure> {
    field(req, name)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| bad(name, "an array"))
}

pub fn i64_list(req: &Value, name: &str) -> Result<Vec<i64>, Failure> {
    array(req, name)?
        .iter()
        .map(|v| v.as_i64().ok_or_else(|| bad(name, "integers")))
        .collect()
}

/// An optional list (absent or null reads as empty).
pub fn i64_list_or_empty(req: &Value, name: &str) -> Result<Vec<i64>, Failure> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => i64_list(req, name),
    }
}

pub fn str_list_or_empty<'v>(req: &'v Value, name: &str) -> Result<Vec<&'v str>, Failure> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => array(req, name)?
            .iter()
            .map(|v| v.as_str().ok_or_else(|| bad(name, "strings")))
            .collect(),
    }
}

/// `[[start, end], …]` as Java `int` pairs.
pub fn ranges(v: &Value, name: &str) -> Result<Vec<(i32, i32)>, Failure> {
    let list = v.as_array().ok_or_else(|| bad(name, "a list of ranges"))?;
    list.iter()
        .map(|r| {
            let pair = r.as_array().filter(|p| p.len() == 2);
            let int = |x: &Value| x.as_i64().and_then(|x| i32::try_from(x).ok());
            match pair {
                Some(p) => match (int(&p[0]), int(&p[1])) {
                    (Some(s), Some(e)) => Ok((s, e)),
                    _ => Err(bad(name, "ranges of 32-bit integers")),
                },
                None => Err(bad(name, "ranges [start, end]")),
            }
        })
        .collect()
}

/// The routing key of a message or a hash request: a Java `String` as
/// UTF-16 units, bytes, or none.
pub enum Key {
    None,
    Utf16(Vec<u16>),
    Bytes(Vec<u8>),
}

pub fn key(req: &Value) -> Result<Key, Failure> {
    if let Some(v) = req.get("key_u16hex").filter(|v| !v.is_null()) {
        let text = v.as_str().ok_or_else(|| bad("key_u16hex", "a string"))?;
        return Ok(Key::Utf16(u16_hex(text, "key_u16hex")?));
    }
    if let Some(v) = req.get("key_bytes_hex").filter(|v| !v.is_null()) {
        let text = v.as_str().ok_or_else(|| bad("key_bytes_hex", "a string"))?;
        return Ok(Key::Bytes(hex_bytes(text, "key_bytes_hex")?));
    }
    Ok(Key::None)
}
