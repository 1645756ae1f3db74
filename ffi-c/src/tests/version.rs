//! The library's version string and the header's version macros are both
//! Cargo's version of this crate. The macros live in ffi-c/cbindgen.toml
//! (`after_includes`), so a version bump has to touch it.

use std::ffi::CStr;

use crate::version::pulsar_routing_version;

const HEADER: &str = include_str!("../../../include/pulsar_routing.h");

fn header_define(name: &str) -> u64 {
    let prefix = format!("#define {name} ");
    let line = HEADER
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("include/pulsar_routing.h has no {name}"));
    let value = line.trim();
    match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    }
    .unwrap_or_else(|e| panic!("{name} = {value:?}: {e}"))
}

fn cargo(part: &str) -> u64 {
    part.parse().expect("numeric version part")
}

#[test]
fn version_string_is_cargos() {
    // SAFETY: the function returns a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(pulsar_routing_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn header_macros_are_cargos_version() {
    let (major, minor, patch) = (
        cargo(env!("CARGO_PKG_VERSION_MAJOR")),
        cargo(env!("CARGO_PKG_VERSION_MINOR")),
        cargo(env!("CARGO_PKG_VERSION_PATCH")),
    );
    let hint = "update after_includes in ffi-c/cbindgen.toml, then run scripts/gen-header.sh";
    assert_eq!(
        header_define("PULSAR_ROUTING_VERSION_MAJOR"),
        major,
        "{hint}"
    );
    assert_eq!(
        header_define("PULSAR_ROUTING_VERSION_MINOR"),
        minor,
        "{hint}"
    );
    assert_eq!(
        header_define("PULSAR_ROUTING_VERSION_PATCH"),
        patch,
        "{hint}"
    );
    // The packed number is derived by hand, so it is checked too.
    assert_eq!(
        header_define("PULSAR_ROUTING_VERSION_NUMBER"),
        (major << 16) | (minor << 8) | patch,
        "{hint}"
    );
}
