//! The C ABI of `pulsar-routing`: Apache Pulsar's partition routing, topic
//! names, namespace bundles and Key_Shared consumer selection, byte-for-byte
//! as the Java client and broker compute them, for C and C++ callers.
//!
//! Every function here is a thin conversion layer over the `pulsar-routing`
//! crate; none of the routing logic lives in this crate. The header
//! `include/pulsar_routing.h` is generated from these sources by cbindgen
//! (`scripts/gen-header.sh`), and `ffi-c/README.md` states the conventions
//! that every function follows:
//!
//! - every fallible function returns a [`pulsar_routing_status`](error::pulsar_routing_status)
//!   (`PULSAR_ROUTING_STATUS_OK` is 0), and writes its outputs through
//!   out-parameters only on success;
//! - every pointer is checked: NULL gives `PULSAR_ROUTING_STATUS_NULL_PARAMETER`,
//!   even with a length of 0, and `*_free(NULL)` does nothing;
//! - a Rust panic never crosses the boundary: it becomes
//!   `PULSAR_ROUTING_STATUS_PANIC`, or a documented default;
//! - nothing allocates except the `*_new` handle constructors,
//!   `pulsar_routing_selector_reserve`, a selector add that outgrows its
//!   selector's room, and key counts meeting a new key or writing their
//!   sorted output.
//!
//! The exported functions are `unsafe` in Rust because they take raw
//! pointers from C; their `# Safety` sections say what the caller promises.
#![warn(missing_docs)]
// The exported types carry their C names, so the header reads naturally.
#![allow(non_camel_case_types)]

#[macro_use]
mod panic;
#[macro_use]
mod ffi;

// One module per core module, named after it; `error`, `ffi`, `panic`,
// `text` and `version` are this binding's own plumbing.
pub mod base64;
pub mod batch;
pub mod bundles;
pub mod crc32;
pub mod error;
pub mod java_string_hash;
pub mod kafka;
pub mod key_counts;
pub mod key_shared;
pub mod last_error;
pub mod lookup;
pub mod murmur3;
pub mod partition_count;
pub mod profiles;
pub mod router;
pub mod routing_key;
pub mod sender;
pub mod sign_safe_mod;
pub mod text;
pub mod topic_name;
pub mod version;

#[cfg(test)]
mod tests;
