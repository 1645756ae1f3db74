//! The policy's cost per keyed message against pulsar-rs's own keyed
//! routing (`RoutingPolicy::compute_partition_index_for_key`, what its
//! default round robin does with a key), in alternating rounds in one
//! process. Run with `cargo run --release --example cost [ROUNDS]`; it
//! prints both costs and their ratio and asserts nothing about them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pulsar::producer::Message;
use pulsar::routing_policy::{CustomRoutingPolicy, RoutingPolicy};
use pulsar_routing_pulsar_rs::JavaRoutingPolicy;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let messages: Vec<Message> = (0..1024)
        .map(|i| Message {
            partition_key: Some(format!("customer-{:06}", i * 7919)),
            ..Default::default()
        })
        .collect();
    let policy = JavaRoutingPolicy::default();
    let n = 12;
    let mut spent = [Duration::ZERO; 2];
    let mut sink = 0usize;
    for round in 0..rounds {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for which in order {
            let t0 = Instant::now();
            for m in &messages {
                sink = sink.wrapping_add(if which == 0 {
                    let key = black_box(m).partition_key.as_deref().unwrap_or_default();
                    RoutingPolicy::compute_partition_index_for_key(key, n)
                } else {
                    policy.route(black_box(m), n)
                });
            }
            spent[which] += t0.elapsed();
        }
    }
    black_box(sink);
    let total = (rounds * messages.len()) as f64;
    let default_ns = spent[0].as_nanos() as f64 / total;
    let java_ns = spent[1].as_nanos() as f64 / total;
    println!(
        "pulsar-rs keyed routing {default_ns:.2} ns/msg, JavaRoutingPolicy {java_ns:.2} ns/msg, ratio {:.3}",
        java_ns / default_ns
    );
}
