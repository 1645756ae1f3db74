//! Sends a plan of messages through pulsar-rs with [`JavaRoutingPolicy`]
//! plugged in, so that the test broker records where each one went
//! (testkit/tests/test_adapter_go_rs.py compares that with the Java
//! producer's copies). Built by testkit/adapters/build-go-rs.sh.
//!
//! The plan is JSON, one run per producer:
//!
//! ```text
//! {"service": "pulsar://127.0.0.1:PORT",
//!  "runs": [{"name": "r1", "topic": "t", "partitions": 7,
//!            "scheme": "java_string" | "murmur3_32", "batching": true,
//!            "mode": "round_robin" | "single", "start": 3,
//!            "messages": [{"id": "m1", "key": "text", "key_bytes_hex": "ff",
//!                          "ordering_key_hex": "6f", "clock_ms": 1700000000000}]}],
//!  "bench": {"topic": "b", "rounds": 10, "messages": 2000}}
//! ```
//!
//! `key` is `with_key`, `key_bytes_hex` is `with_key_bytes`; neither is no
//! key. `batching` is both pulsar-rs's batching and the Java setting the
//! policy reproduces; `clock_ms` is the instant the policy's clock reads
//! for that message. With `bench`, the same messages (7 keyed, 1 keyless
//! in 8) go through a producer with pulsar-rs's own round robin, one with
//! the policy and one with the policy without batching, in rotating rounds,
//! and the time spent in `send_non_blocking` per message is printed for
//! each.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use pulsar::producer::{Message, ProducerOptions};
use pulsar::routing_policy::RoutingPolicy;
use pulsar::{Pulsar, TokioExecutor};
use pulsar_routing_pulsar_rs::{HashingScheme, JavaRoutingPolicy, Mode};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    service: String,
    runs: Vec<Run>,
    bench: Option<Bench>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    name: String,
    topic: String,
    partitions: usize,
    scheme: String,
    batching: bool,
    #[serde(default)]
    mode: Option<String>,
    start: Option<i32>,
    messages: Vec<Msg>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Msg {
    id: String,
    key: Option<String>,
    key_bytes_hex: Option<String>,
    ordering_key_hex: Option<String>,
    clock_ms: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Bench {
    topic: String,
    rounds: usize,
    messages: usize,
}

type Failure = Box<dyn std::error::Error>;

fn unhex(s: &str) -> Result<Vec<u8>, Failure> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd hex length: {s}").into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(Into::into))
        .collect()
}

fn options(batching: bool, routing: RoutingPolicy) -> ProducerOptions {
    ProducerOptions {
        // pulsar-rs batches only when asked; 1000 is pulsar-client-go's
        // and Java's default batch size.
        batch_size: batching.then_some(1000),
        // Wait for room rather than fail with SlowDown when thousands of
        // sends are in flight.
        block_queue_if_full: true,
        routing_policy: Some(routing),
        ..Default::default()
    }
}

async fn send_run(pulsar: &Pulsar<TokioExecutor>, run: &Run) -> Result<(), Failure> {
    let scheme = match run.scheme.as_str() {
        "java_string" => HashingScheme::JavaStringHash,
        "murmur3_32" => HashingScheme::Murmur3_32Hash,
        other => return Err(format!("unknown scheme {other}").into()),
    };
    let mode = match run.mode.as_deref() {
        None | Some("round_robin") => Mode::RoundRobinPartition,
        Some("single") => Mode::SinglePartition,
        Some(other) => return Err(format!("unknown mode {other}").into()),
    };
    // The policy runs inside send_non_blocking, before its first await, so
    // the instant stored just before the call is the one it reads.
    let clock_ms = Arc::new(AtomicI64::new(0));
    let read = Arc::clone(&clock_ms);
    let mut policy = JavaRoutingPolicy::default()
        .hashing_scheme(scheme)
        .mode(mode)
        .batching(run.batching)
        .clock(Arc::new(move || match read.load(Ordering::Relaxed) {
            0 => i64::try_from(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_millis(),
            )
            .unwrap_or(i64::MAX),
            ms => ms,
        }));
    if let Some(start) = run.start {
        policy = policy.start_index(start);
    }
    let policy = Arc::new(policy);
    let mut producer = pulsar
        .producer()
        .with_topic(&run.topic)
        .with_options(options(run.batching, RoutingPolicy::Custom(policy.clone())))
        .build()
        .await?;
    let seen = producer.partitions().map_or(1, |p| p.len());
    if seen != run.partitions {
        return Err(format!(
            "client sees {seen} partitions, plan says {}",
            run.partitions
        )
        .into());
    }
    println!(
        "{}",
        json!({"event": "run", "run": run.name, "topic": run.topic, "partitions": seen})
    );
    let mut pending = Vec::with_capacity(run.messages.len());
    // The windows the policy read the system clock in, when the plan gives
    // no instant.
    let mut window = Vec::with_capacity(run.messages.len());
    for m in &run.messages {
        let mut message = Message {
            payload: m.id.as_bytes().to_vec(),
            ..Default::default()
        };
        if let Some(key) = &m.key {
            message.partition_key = Some(key.clone());
            message.partition_key_b64_encoded = Some(false);
        }
        if let Some(hex) = &m.key_bytes_hex {
            let bytes = unhex(hex)?;
            message.partition_key = Some(base64_standard(&bytes));
            message.partition_key_b64_encoded = Some(true);
        }
        if let Some(hex) = &m.ordering_key_hex {
            message.ordering_key = Some(unhex(hex)?);
        }
        clock_ms.store(m.clock_ms.unwrap_or(0), Ordering::Relaxed);
        let t0 = epoch_ms();
        pending.push(producer.send_non_blocking(message).await?);
        window.push((t0, epoch_ms()));
    }
    // pulsar-rs refuses send_batch on a producer without batching.
    if run.batching {
        producer.send_batch().await?;
    }
    for receipt in pending {
        receipt.await?;
    }
    for (m, (t0, t1)) in run.messages.iter().zip(window) {
        println!(
            "{}",
            json!({"event": "sent", "run": run.name, "id": m.id, "t0_ms": t0, "t1_ms": t1})
        );
    }
    let start = policy.start_index_in_use().unwrap_or(0);
    println!(
        "{}",
        json!({"event": "acked", "run": run.name, "count": run.messages.len(), "start": start})
    );
    producer.close().await?;
    Ok(())
}

fn epoch_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// What `MessageBuilder::with_key_bytes` stores; kept here so the plan's
/// `Message` carries exactly that.
fn base64_standard(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn run_bench(pulsar: &Pulsar<TokioExecutor>, bench: &Bench) -> Result<(), Failure> {
    let messages: Vec<Message> = (0..bench.messages)
        .map(|i| Message {
            payload: format!("bench-{i}").into_bytes(),
            partition_key: (i % 8 != 7).then(|| format!("customer-{:06}", i * 7919)),
            ..Default::default()
        })
        .collect();
    // Java's batching rule keeps keyless messages on one partition for
    // 10 ms, where pulsar-rs's round robin spreads them; the third producer
    // (batching off: a counter, like pulsar-rs) tells that effect from the
    // policy's own cost.
    let mut producers = Vec::new();
    for routing in [
        RoutingPolicy::RoundRobin,
        RoutingPolicy::Custom(Arc::new(JavaRoutingPolicy::default())),
        RoutingPolicy::Custom(Arc::new(JavaRoutingPolicy::default().batching(false))),
    ] {
        let options = ProducerOptions {
            batch_size: Some(1000),
            block_queue_if_full: true,
            routing_policy: Some(routing),
            ..Default::default()
        };
        producers.push(
            pulsar
                .producer()
                .with_topic(&bench.topic)
                .with_options(options)
                .build()
                .await?,
        );
    }
    let mut spent: [Vec<Duration>; 3] = Default::default();
    for round in 0..bench.rounds {
        for k in 0..3 {
            let which = (round + k) % 3;
            let producer = &mut producers[which];
            let mut pending = Vec::with_capacity(messages.len());
            let t0 = Instant::now();
            for m in &messages {
                pending.push(producer.send_non_blocking(m.clone()).await?);
            }
            spent[which].push(t0.elapsed());
            // Drained outside the timing, so each round starts empty.
            producer.send_batch().await?;
            for receipt in pending {
                receipt.await?;
            }
        }
    }
    // The median round: other builds share the machine, and one slow round
    // should not decide the ratio.
    let [default_ns, java_ns, spread_ns] = spent.map(|mut rounds| {
        rounds.sort();
        rounds[rounds.len() / 2].as_nanos() as f64 / bench.messages as f64
    });
    println!(
        "{}",
        json!({"event": "bench", "messages": bench.rounds * bench.messages,
               "default_ns_per_msg": default_ns, "javarouter_ns_per_msg": java_ns, "ratio": java_ns / default_ns,
               "javarouter_unbatched_ns_per_msg": spread_ns, "ratio_unbatched": spread_ns / default_ns})
    );
    for mut producer in producers {
        producer.close().await?;
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: wire_sender PLAN.json")?;
    let plan: Plan = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let pulsar: Pulsar<_> = Pulsar::builder(plan.service.as_str(), TokioExecutor)
        .build()
        .await?;
    for run in &plan.runs {
        send_run(&pulsar, run)
            .await
            .map_err(|e| format!("run {}: {e}", run.name))?;
    }
    if let Some(bench) = &plan.bench {
        run_bench(&pulsar, bench).await?;
    }
    Ok(())
}
