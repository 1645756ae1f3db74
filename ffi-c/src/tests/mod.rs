//! The Rust-side tests of the C ABI, inside the crate so that the crate
//! needs no `rlib` (whose `libpulsar_routing.rlib` would collide with the
//! core's in `target/`). They call the exported functions the way C does.
//!
//! - `api`: every function with NULLs, bad values and good ones (and
//!   `bundles`, `topic_names`, `key_shared`, `profiles` for those parts);
//! - `no_alloc`: a counting global allocator (per thread, so the other
//!   tests of this binary cannot disturb it) proving that only the router
//!   and selector constructors (and `pulsar_routing_selector_reserve`)
//!   allocate;
//! - `version`: the library's and the header's versions are Cargo's.

mod api;
mod batch;
mod bundles;
mod key_counts;
mod key_shared;
mod lookup;
mod no_alloc;
mod profiles;
mod sender;
mod topic_names;
mod version;
