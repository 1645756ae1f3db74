//! The answers of the C ABI: the same requests, through the `extern "C"`
//! functions of `libpulsar_routing.so`, loaded at run time.
//!
//! The ffi crate builds only C libraries (no rlib, see ffi-c/Cargo.toml),
//! so this crate cannot link it as a Rust dependency; loading the shared
//! library keeps every other use of this binary free of it.
//!
//! An operation the C path does not cover is answered with a protocol
//! error the driver recognises ("not through the C ABI"); a failure is
//! `error_kind` `"CStatus::<code>"` with the library's own message
//! (`pulsar_routing_last_error_message`), which the driver compares with
//! the core's Display.

use std::ffi::{CString, c_char, c_int, c_void};

use serde_json::{Value, json};

use crate::core_api::fields;
use crate::json::{self, Key};
use crate::{Answer, Answerer, Failure};

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}

const RTLD_NOW: c_int = 2;

type Status = u32;

#[repr(C)]
#[derive(Clone, Copy)]
struct CKey {
    kind: u32,
    data: *const u8,
    len: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CBundleRange {
    lower: i64,
    upper: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CHashRange {
    start: i32,
    end: i32,
}

const KEY_NONE: u32 = 0;
const KEY_BYTES: u32 = 2;
const KEY_UTF16: u32 = 3;

type HashBytesFn = unsafe extern "C" fn(*const u8, usize, *mut u32) -> Status;
type HashUnitsFn = unsafe extern "C" fn(*const u16, usize, *mut u32) -> Status;

/// The functions used, resolved once.
pub struct CAbi {
    murmur3_32: HashBytesFn,
    java_string_hash_utf16: HashUnitsFn,
    java_string_hash_bytes: HashBytesFn,
    key_hash: unsafe extern "C" fn(CKey, u32, *mut u32) -> Status,
    sign_safe_mod: unsafe extern "C" fn(i64, i32, *mut i32) -> Status,
    round_robin_new: unsafe extern "C" fn(u32, i32, bool, i64, *mut *mut c_void) -> Status,
    round_robin_choose: unsafe extern "C" fn(*const c_void, CKey, i64, i64, *mut u32) -> Status,
    round_robin_free: unsafe extern "C" fn(*mut c_void),
    single_new: unsafe extern "C" fn(u32, i32, *mut *mut c_void) -> Status,
    single_choose: unsafe extern "C" fn(*const c_void, CKey, i64, *mut u32) -> Status,
    single_free: unsafe extern "C" fn(*mut c_void),
    get_partition_index: unsafe extern "C" fn(*const u8, usize, *mut i32) -> Status,
    bundle_range_parse: unsafe extern "C" fn(*const u8, usize, *mut CBundleRange) -> Status,
    bundle_range_name: unsafe extern "C" fn(CBundleRange, *mut u8, usize, *mut usize) -> Status,
    slot_of: unsafe extern "C" fn(*const u8, usize, CHashRange, *mut u32) -> Status,
    last_error_message: unsafe extern "C" fn(u32, *mut u8, usize, *mut usize) -> Status,
}

fn symbol(handle: *mut c_void, name: &str) -> Result<*mut c_void, String> {
    let c = CString::new(name).map_err(|e| e.to_string())?;
    // SAFETY: `handle` came from a successful dlopen and `c` is a valid
    // NUL-terminated string that outlives the call.
    let p = unsafe { dlsym(handle, c.as_ptr()) };
    if p.is_null() {
        Err(format!("symbol {name} not found"))
    } else {
        Ok(p)
    }
}

/// `name` in `handle`, as the function pointer type `F` the caller's
/// field declares.
fn resolve<F: Copy>(handle: *mut c_void, name: &str) -> Result<F, String> {
    const { assert!(size_of::<F>() == size_of::<*mut c_void>()) };
    let p = symbol(handle, name)?;
    // SAFETY: `F` is pointer-sized (checked above) and is the type of the C
    // function of that name, whose signature in include/pulsar_routing.h
    // the field's type spells.
    Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&p) })
}

impl CAbi {
    pub fn load(path: &str) -> Result<Self, String> {
        let c = CString::new(path).map_err(|e| e.to_string())?;
        // SAFETY: `c` is a valid NUL-terminated path; loading the library
        // runs no initialiser beyond Rust's own.
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW) };
        if handle.is_null() {
            // SAFETY: dlerror returns NULL or a NUL-terminated message that
            // stays valid until the next dl* call on this thread.
            let why = unsafe {
                let e = dlerror();
                if e.is_null() {
                    "dlopen failed".to_owned()
                } else {
                    std::ffi::CStr::from_ptr(e).to_string_lossy().into_owned()
                }
            };
            return Err(why);
        }
        Ok(Self {
            murmur3_32: resolve(handle, "pulsar_routing_murmur3_32")?,
            java_string_hash_utf16: resolve(handle, "pulsar_routing_java_string_hash_utf16")?,
            java_string_hash_bytes: resolve(handle, "pulsar_routing_java_string_hash_bytes")?,
            key_hash: resolve(handle, "pulsar_routing_key_hash")?,
            sign_safe_mod: resolve(handle, "pulsar_routing_sign_safe_mod")?,
            round_robin_new: resolve(handle, "pulsar_routing_round_robin_router_new")?,
            round_robin_choose: resolve(
                handle,
                "pulsar_routing_round_robin_router_choose_partition",
            )?,
            round_robin_free: resolve(handle, "pulsar_routing_round_robin_router_free")?,
            single_new: resolve(handle, "pulsar_routing_single_partition_router_new")?,
            single_choose: resolve(
                handle,
                "pulsar_routing_single_partition_router_choose_partition",
            )?,
            single_free: resolve(handle, "pulsar_routing_single_partition_router_free")?,
            get_partition_index: resolve(handle, "pulsar_routing_get_partition_index")?,
            bundle_range_parse: resolve(handle, "pulsar_routing_bundle_range_parse")?,
            bundle_range_name: resolve(handle, "pulsar_routing_bundle_range_name")?,
            slot_of: resolve(handle, "pulsar_routing_slot_of")?,
            last_error_message: resolve(handle, "pulsar_routing_last_error_message")?,
        })
    }

    /// `Ok` for status 0, else the failure with the library's message.
    fn check(&self, status: Status) -> Result<(), Failure> {
        if status == 0 {
            return Ok(());
        }
        let mut buf = vec![0u8; 4096];
        let mut written = 0usize;
        // SAFETY: `buf` is valid for `buf.len()` bytes and `written` for a
        // usize; the call reads this thread's last failure only.
        let s = unsafe {
            (self.last_error_message)(status, buf.as_mut_ptr(), buf.len(), &raw mut written)
        };
        let message = if s == 0 {
            String::from_utf8_lossy(&buf[..written.min(buf.len())]).into_owned()
        } else {
            format!("status {status}")
        };
        Err(Failure::Library {
            kind: format!("CStatus::{status}"),
            message,
        })
    }

    fn hash(&self, req: &Value) -> Answer {
        let (mut murmur, mut java) = (0u32, 0u32);
        match json::key(req)? {
            Key::Utf16(units) => {
                let key = CKey {
                    kind: KEY_UTF16,
                    data: units.as_ptr().cast(),
                    len: units.len(),
                };
                // SAFETY: `key` points into `units`, which outlives the
                // call, and `murmur` is valid for a u32.
                self.check(unsafe { (self.key_hash)(key, 1, &raw mut murmur) })?;
                // SAFETY: `units` is valid for `units.len()` u16s and
                // `java` for a u32.
                self.check(unsafe {
                    (self.java_string_hash_utf16)(units.as_ptr(), units.len(), &raw mut java)
                })?;
            }
            Key::Bytes(bytes) => {
                // SAFETY: `bytes` is valid for its length, the outputs for
                // a u32 each.
                self.check(unsafe {
                    (self.murmur3_32)(bytes.as_ptr(), bytes.len(), &raw mut murmur)
                })?;
                // SAFETY: as above.
                self.check(unsafe {
                    (self.java_string_hash_bytes)(bytes.as_ptr(), bytes.len(), &raw mut java)
                })?;
            }
            Key::None => return Err(Failure::Protocol("hash needs a key".into())),
        }
        Ok(fields(json!({"murmur3_32": murmur, "java_string": java})))
    }

    fn new_round_robin(
        &self,
        scheme: u32,
        start: i32,
        batching: bool,
        switch_ms: i64,
    ) -> Result<*mut c_void, Failure> {
        let mut router: *mut c_void = std::ptr::null_mut();
        // SAFETY: `router` is valid for writing a pointer.
        self.check(unsafe {
            (self.round_robin_new)(scheme, start, batching, switch_ms, &raw mut router)
        })?;
        Ok(router)
    }

    fn route(&self, req: &Value) -> Answer {
        let scheme = match crate::core_api::scheme(req)? {
            pulsar_routing::HashingScheme::JavaStringHash => 0,
            pulsar_routing::HashingScheme::Murmur3_32Hash => 1,
        };
        let n = json::i64_of(req, "num_partitions")?;
        let start = json::i32_of(req, "start_index")?;
        let picks = json::i64_or(req, "picks", 1)?;
        let key = json::key(req)?;
        let ckey = match &key {
            Key::None => CKey {
                kind: KEY_NONE,
                data: std::ptr::null(),
                len: 0,
            },
            Key::Utf16(units) => CKey {
                kind: KEY_UTF16,
                data: units.as_ptr().cast(),
                len: units.len(),
            },
            Key::Bytes(bytes) => CKey {
                kind: KEY_BYTES,
                data: bytes.as_ptr(),
                len: bytes.len(),
            },
        };
        let mut out = Vec::new();
        match json::str_of(req, "router")? {
            "round_robin" => {
                let router = self.new_round_robin(
                    scheme,
                    start,
                    json::bool_of(req, "batching")?,
                    json::i64_of(req, "partition_switch_ms")?,
                )?;
                let clock = json::i64_of(req, "clock_ms")?;
                let mut result = Ok(());
                for _ in 0..picks {
                    let mut p = 0u32;
                    // SAFETY: `router` is live, `ckey` points into `key`,
                    // which outlives the call, and `p` is valid.
                    let s =
                        unsafe { (self.round_robin_choose)(router, ckey, n, clock, &raw mut p) };
                    result = self.check(s);
                    if result.is_err() {
                        break;
                    }
                    out.push(p);
                }
                // SAFETY: `router` came from _new and is freed once.
                unsafe { (self.round_robin_free)(router) };
                result?;
            }
            "single" => {
                let mut router: *mut c_void = std::ptr::null_mut();
                // SAFETY: `router` is valid for writing a pointer.
                self.check(unsafe { (self.single_new)(scheme, start, &raw mut router) })?;
                let mut result = Ok(());
                for _ in 0..picks {
                    let mut p = 0u32;
                    // SAFETY: as for the round-robin router.
                    let s = unsafe { (self.single_choose)(router, ckey, n, &raw mut p) };
                    result = self.check(s);
                    if result.is_err() {
                        break;
                    }
                    out.push(p);
                }
                // SAFETY: `router` came from _new and is freed once.
                unsafe { (self.single_free)(router) };
                result?;
            }
            other => return Err(Failure::Protocol(format!("unknown router {other}"))),
        }
        Ok(fields(json!({ "partitions": out })))
    }

    fn parse_bundle_range(&self, req: &Value) -> Answer {
        let text = json::str_of(req, "range")?;
        let mut range = CBundleRange::default();
        // SAFETY: `text` is valid for its length, `range` for the struct.
        self.check(unsafe {
            (self.bundle_range_parse)(text.as_ptr(), text.len(), &raw mut range)
        })?;
        let mut buf = [0u8; 64];
        let mut written = 0usize;
        // SAFETY: `buf` is valid for its length, `written` for a usize.
        self.check(unsafe {
            (self.bundle_range_name)(range, buf.as_mut_ptr(), buf.len(), &raw mut written)
        })?;
        let name = String::from_utf8_lossy(&buf[..written.min(buf.len())]).into_owned();
        Ok(fields(json!({
            "lower": range.lower,
            "upper": range.upper,
            "upper_closed": range.upper == i64::from(u32::MAX),
            "bundle_range": name,
        })))
    }

    fn key_shared_hash(&self, req: &Value) -> Answer {
        let key = json::hex_bytes(json::str_of(req, "key_hex")?, "key_hex")?;
        let mut slots = [0u32; 3];
        let ranges = [(0, 65535), (1, 65535), (1, 2_147_483_646)];
        for (slot, (start, end)) in slots.iter_mut().zip(ranges) {
            let range = CHashRange { start, end };
            // SAFETY: `key` is valid for its length, `slot` for a u32.
            self.check(unsafe { (self.slot_of)(key.as_ptr(), key.len(), range, slot) })?;
        }
        Ok(fields(json!({
            "slot_0_65535": slots[0],
            "slot_1_65535": slots[1],
            "slot_1_2147483646": slots[2],
        })))
    }
}

impl Answerer for CAbi {
    fn answer(&mut self, op: &str, req: &Value) -> Answer {
        match op {
            "hash" => self.hash(req),
            "sign_safe_mod" => {
                let mut r = 0i32;
                let (d, v) = (
                    json::i64_of(req, "dividend")?,
                    json::i32_of(req, "divisor")?,
                );
                // SAFETY: `r` is valid for an i32.
                self.check(unsafe { (self.sign_safe_mod)(d, v, &raw mut r) })?;
                Ok(fields(json!({ "result": r })))
            }
            "route" => self.route(req),
            "partition_index" => {
                let name = json::str_of(req, "name")?;
                let mut index = 0i32;
                // SAFETY: `name` is valid for its length, `index` for an i32.
                self.check(unsafe {
                    (self.get_partition_index)(name.as_ptr(), name.len(), &raw mut index)
                })?;
                Ok(fields(json!({ "index": index })))
            }
            "parse_bundle_range" => self.parse_bundle_range(req),
            "key_shared_hash" => self.key_shared_hash(req),
            _ => Err(Failure::Protocol(format!("{op} not through the C ABI"))),
        }
    }
}
