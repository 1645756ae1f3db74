//! Builds the C baseline (`c/murmur3_baseline.c`) at -O3, and links the C
//! ABI's shared library when it has been built, so that the keyed-routing
//! goals can call `pulsar_routing_partition_for_key` as a C caller does.
//!
//! The C ABI crate builds no Rust library (only `cdylib` and `staticlib`),
//! so it cannot be a cargo dependency here; the shared library sits in the
//! same profile directory as this package's build output once
//! `cargo build --release -p pulsar-routing-ffi` has run (`scripts/bench.sh`
//! runs it first). Without it, the bench says so and skips that goal.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=c/murmur3_baseline.c");
    cc::Build::new()
        .file("c/murmur3_baseline.c")
        .opt_level(3)
        .warnings(true)
        .extra_warnings(true)
        .compile("murmur3_baseline");

    println!("cargo::rustc-check-cfg=cfg(ffi_c_lib)");
    // OUT_DIR is <profile dir>/build/<package>-<hash>/out.
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let Some(profile_dir) = out_dir.ancestors().nth(3) else {
        return;
    };
    let lib = profile_dir.join("libpulsar_routing.so");
    // A missing file makes cargo rerun this script on every build, so the
    // library is picked up as soon as it exists.
    println!("cargo::rerun-if-changed={}", lib.display());
    if lib.is_file() {
        println!("cargo::rustc-link-search=native={}", profile_dir.display());
        println!(
            "cargo::rustc-link-arg-benches=-Wl,-rpath,{}",
            profile_dir.display()
        );
        println!("cargo::rustc-cfg=ffi_c_lib");
    }
}
