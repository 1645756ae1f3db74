#!/usr/bin/env bash
# Builds the core into a freestanding binary (no std, no alloc, no libc) and
# runs it: the proof, stronger than a host `cargo check`, that the core
# really is no_std and allocation-free. Also checks that the binary holds no
# allocator symbol.
set -euo pipefail
cd "$(dirname "$0")/../nostd-check"
# An explicit --target keeps these flags away from build scripts, which are
# ordinary host programs.
target=$(rustc -vV | sed -n 's/^host: //p')
RUSTFLAGS="-C panic=abort -C link-arg=-nostartfiles -C link-arg=-nostdlib -C link-arg=-static -C relocation-model=static" \
    cargo build --release --quiet --target "$target"
bin=target/$target/release/pulsar-routing-nostd-check
if nm "$bin" | grep -E '__rust_alloc|__rust_dealloc|malloc' ; then
    echo "nostd-check: the freestanding binary references an allocator" >&2
    exit 1
fi
if ! "$bin"; then
    echo "nostd-check: the freestanding binary got a wrong answer or panicked" >&2
    exit 1
fi
echo "nostd-check: the core links and runs with neither std nor alloc"
