//! Keys as the Java producer sets them, and the hashing schemes that turn
//! them into partitions (the core's `routing_key` module).

mod hashing_scheme;
mod key;

pub use hashing_scheme::*;
pub use key::*;
