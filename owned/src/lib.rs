//! What the no-heap core cannot hold, written once for every binding.
//!
//! The core (`pulsar-routing`) never allocates: callers lend it storage and
//! it borrows their strings. A binding, though, has to hand out objects
//! that own their memory: a Key_Shared selector that grows as consumers
//! join, a lookup action whose URL outlives the response it came from, a
//! coalescing key that compares equal however its properties were ordered,
//! a sender gate that keeps a table of its nodes. And both bindings read
//! the same kinds of input from their callers: a profile's options over
//! its client's defaults, a split algorithm and its inputs, an event by
//! name. Each of those is built here, once, on top of the core, and the C
//! ABI (`ffi-c`) and the Python extension (`py`) both use it. A binding
//! only converts types, maps errors and holds handles, so two languages
//! cannot give different answers to the same call.
//!
//! Modules are named after the core module they extend.
//!
//! Two modules use `unsafe`: [`batch`] calls an AVX2 build of the core's
//! batch routing after checking that the processor has AVX2 (and its
//! [`batch::keys`] views bytes it has just checked or written as UTF-8
//! text without checking them again), and
//! [`key_counts`] asks the processor to prefetch the table slots of the
//! next keys (a hint that cannot fault). Anything else that needed
//! `unsafe` would have to say why here.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[allow(unsafe_code)]
pub mod batch;
pub mod bundles;
pub mod kafka;
#[allow(unsafe_code)]
pub mod key_counts;
pub mod key_shared;
pub mod lookup;
pub mod profiles;
pub mod router;
pub mod routing_key;
pub mod sender;
pub mod topic_name;
