//! A freestanding Linux x86-64 program that routes a few keys through the
//! core and exits with status 0 when the answers are right. It has no std,
//! no alloc and no global allocator: if the core needed either, this would
//! fail to compile or to link.
#![no_std]
#![no_main]
// The memory functions below must not be compiled into calls to themselves.
#![no_builtins]

use core::panic::PanicInfo;

use pulsar_routing::bundles::BundleLayout;
use pulsar_routing::kafka;
use pulsar_routing::key_shared::{ConsistentHashingConfig, ConsistentHashingSelector, StickyKey};
use pulsar_routing::profiles::{ClientProfile, ProfileConfig, ProfileKeying, ProfileMessage};
use pulsar_routing::{
    HashingScheme, PartitionCount, RoundRobinRouter, RoutingKey, TopicName, crc32,
    java_string_hash, murmur3_32, partition_for_key_bytes,
};

/// Key_Shared in caller storage on the stack: two consumers split the ring.
fn key_shared_checks() -> bool {
    let config = ConsistentHashingConfig::new(2);
    // About 132k words for two consumers: the flat table of 65536 slots,
    // two words each, dominates.
    let mut storage = [0u32; 1 << 18];
    let needed = config.storage_words().unwrap_or(usize::MAX);
    let Some(storage) = storage.get_mut(..needed) else {
        return false;
    };
    let Ok(mut selector) = ConsistentHashingSelector::new(config, storage) else {
        return false;
    };
    if selector.add(1, "consumer-a").is_err() || selector.add(2, "consumer-b").is_err() {
        return false;
    }
    let owner = selector.select_key(&StickyKey::Key(b"order-17"));
    owner == Some(1) || owner == Some(2)
}

/// The other clients' keyed routing, and Kafka's: the spec's worked example
/// ("ключ-1" with 10 partitions goes to 4 in Java and to 2 in Go).
fn profile_checks() -> bool {
    let Ok(n) = PartitionCount::new(10) else {
        return false;
    };
    let route = |profile| {
        ProfileKeying::new(profile, &ProfileConfig::client_default(profile))
            .ok()
            .and_then(|k| {
                k.partition(&ProfileMessage::keyed("ключ-1"), n)
                    .ok()
                    .flatten()
            })
    };
    route(ClientProfile::Java) == Some(4)
        && route(ClientProfile::Go) == Some(2)
        && kafka::partition_for_key(b"hello", n) < 10
}

fn checks() -> bool {
    let Ok(n) = PartitionCount::new(7) else {
        return false;
    };
    let router = RoundRobinRouter::without_batching(HashingScheme::Murmur3_32Hash, 2147483645);
    let Ok(topic) = TopicName::parse("my-topic") else {
        return false;
    };
    let Ok(four) = BundleLayout::default_for(4) else {
        return false;
    };
    // Values from the golden vectors and the spec's examples.
    murmur3_32(b"hello") == 613153351
        && java_string_hash("\u{1f600}") == 1772899
        && crc32(b"persistent://public/default/my-topic") == 732775927
        && router.choose_partition(RoutingKey::Key("hello"), n, 0) == 613153351 % 7
        && partition_for_key_bytes(b"hello", n, HashingScheme::Murmur3_32Hash)
            == murmur3_32(b"aGVsbG8=") % 7
        && topic.crc32() == 732775927
        && four
            .bundle_for_topic(&topic)
            .is_some_and(|b| b.lower() == 0 && b.upper() == 0x4000_0000)
}

fn exit(code: usize) -> ! {
    // SAFETY: the Linux x86-64 `exit_group` system call (231) takes one
    // argument and never returns; no memory is passed to the kernel.
    unsafe {
        core::arch::asm!("syscall", in("rax") 231usize, in("rdi") code, options(noreturn, nostack));
    }
}

// The kernel enters `_start` with a 16-byte aligned stack and no return
// address; Rust code expects the alignment of a call, so a few instructions
// set that up before the first Rust frame.
core::arch::global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "and rsp, -16",
    "call {entry}",
    "ud2",
    entry = sym entry,
);

extern "C" fn entry() -> ! {
    exit(if checks() && key_shared_checks() && profile_checks() {
        0
    } else {
        1
    })
}

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    exit(101)
}

// Without libc, the few symbols the compiler expects from it come from here.
// They are byte loops on purpose: this program proves linkage, not speed.

/// `memcpy` for the compiler's copies.
///
/// # Safety
/// The usual contract: `n` bytes readable at `src`, writable at `dest`, and
/// the ranges do not overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcpy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    for i in 0..n {
        // SAFETY: the caller guarantees both ranges are valid for `n` bytes.
        unsafe { *dest.add(i) = *src.add(i) };
    }
    dest
}

/// `memmove`: like `memcpy`, for ranges that may overlap.
///
/// # Safety
/// `n` bytes readable at `src` and writable at `dest`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memmove(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if (dest as usize) < (src as usize) {
        for i in 0..n {
            // SAFETY: as for memcpy; copying forwards is safe when dest is lower.
            unsafe { *dest.add(i) = *src.add(i) };
        }
    } else {
        for i in (0..n).rev() {
            // SAFETY: as for memcpy; copying backwards is safe when dest is higher.
            unsafe { *dest.add(i) = *src.add(i) };
        }
    }
    dest
}

/// `memset` for the compiler's zeroing.
///
/// # Safety
/// `n` bytes writable at `dest`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memset(dest: *mut u8, value: i32, n: usize) -> *mut u8 {
    for i in 0..n {
        // SAFETY: the caller guarantees `n` writable bytes at `dest`.
        unsafe { *dest.add(i) = value as u8 };
    }
    dest
}

/// `memcmp` for the compiler's slice comparisons.
///
/// # Safety
/// `n` bytes readable at both pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    for i in 0..n {
        // SAFETY: the caller guarantees `n` readable bytes at both pointers.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// `bcmp`: `memcmp` where only equality matters, which LLVM emits for slice
/// comparisons.
///
/// # Safety
/// `n` bytes readable at both pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the same contract as memcmp.
    unsafe { memcmp(a, b, n) }
}

/// The precompiled `core` carries unwind tables that name this symbol; with
/// `panic = "abort"` nothing ever unwinds, so it is never called.
#[unsafe(no_mangle)]
pub extern "C" fn rust_eh_personality() {}
