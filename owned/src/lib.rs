//! What the no-heap core cannot hold, written once for every binding.
//!
//! The core (`pulsar-routing`) never allocates: callers lend it storage and
//! it borrows their strings. A binding, though, has to hand out objects
//! that own their memory: a Key_Shared selector that grows as consumers
//! join, a lookup action whose URL outlives the response it came from, a
//! coalescing key that compares equal however its properties were ordered.
//! Each of those is built here, once, on top of the core, and the C ABI
//! (`ffi-c`) and the Python extension (`py`) both use it. A binding only
//! converts types, maps errors and holds handles, so two languages cannot
//! give different answers to the same call.
//!
//! Modules are named after the core module they extend.
//!
//! The one `unsafe` block calls an AVX2 build of the core's batch routing
//! after checking that the processor has AVX2 (see [`batch`]); anything
//! else that needed `unsafe` would have to say why here.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[allow(unsafe_code)]
pub mod batch;
pub mod key_counts;
pub mod key_shared;
pub mod lookup;
