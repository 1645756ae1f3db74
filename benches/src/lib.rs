//! Shared setup for the criterion benchmarks in `benches/benches/`:
//! deterministic inputs, the naive baselines the routing functions are
//! measured against, the ratio table each bench binary prints after its
//! measurements, and the paired measurement ([`paired`]) that judges the
//! goals stated as ratios, and the C -O3 baseline ([`c_baseline`]) of
//! keyed routing.
//!
//! Run everything with `scripts/bench.sh` (`--quick` for a short run), or one
//! binary with `cargo bench -p pulsar-routing-benches --bench murmur3`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;
use std::{env, fs};

pub mod c_baseline;
pub mod paired;

/// The key the routing benchmarks route: 32 ASCII bytes, shaped like the
/// user and session ids producers key their messages by.
pub const KEY_32: &str = "user-0000000042/session-7f3a9c1e";

const _: () = assert!(KEY_32.len() == 32);

/// The topic the bundle benchmarks place: a full V2 name of exactly 40
/// bytes, the size the bundle-lookup goal is stated for.
pub const TOPIC_40: &str = "persistent://tenant/namespace/topic-0042";

const _: () = assert!(TOPIC_40.len() == 40);

/// The partition count the routing benchmarks use. Callers pass it through
/// `black_box` so that `%` cannot be strength-reduced to a multiply at
/// compile time, which is exactly what a real producer cannot do either.
pub const PARTITIONS: u32 = 12;

/// SplitMix64: the inputs only need to look random to the hash and to the
/// divider, and a fixed seed keeps every run measuring the same bytes.
fn split_mix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `len` pseudo-random bytes, the same for the same `seed`.
#[must_use]
pub fn pseudo_random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..len).map(|_| split_mix64(&mut state) as u8).collect()
}

/// `len` pseudo-random printable ASCII bytes, the same for the same
/// `seed`: valid UTF-8, so every door (the C ABI checks it) accepts them.
#[must_use]
pub fn pseudo_random_ascii(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| b'!' + (split_mix64(&mut state) % 94) as u8)
        .collect()
}

/// `len` pseudo-random 32-bit values, the same for the same `seed`.
#[must_use]
pub fn pseudo_random_u32s(len: usize, seed: u64) -> Vec<u32> {
    let mut state = seed;
    (0..len).map(|_| split_mix64(&mut state) as u32).collect()
}

/// `String.hashCode()` the way a straightforward port writes it: one
/// multiply-add per UTF-16 unit, with no ASCII fast path.
#[must_use]
pub fn naive_java_string_hashcode(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// Java's `MathUtils.signSafeMod` for an `int`, ported line by line.
#[must_use]
pub fn naive_sign_safe_mod(x: i32, n: i32) -> i32 {
    let m = x % n;
    if m < 0 { m + n } else { m }
}

/// One line of the ratio table: one of our benchmarks and the baseline it
/// is measured against, both in the same criterion group.
#[derive(Clone, Copy, Debug)]
pub struct Comparison {
    /// What the line is about, e.g. `murmur3_32/32B`.
    pub label: &'static str,
    /// The criterion group both benchmarks belong to.
    pub group: &'static str,
    /// Our benchmark's id within the group (`function` or `function/parameter`).
    pub ours: &'static str,
    /// The baseline's id within the group.
    pub baseline: &'static str,
    /// How the table names the baseline.
    pub baseline_name: &'static str,
}

/// Where criterion writes its results, found the way criterion 0.8 finds it
/// (`CRITERION_HOME`, then the cargo target directory), so that the table
/// reads the very files the run just wrote.
#[must_use]
pub fn criterion_home() -> PathBuf {
    if let Some(home) = env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    // `cargo bench` runs the binary from the package directory, not the
    // workspace root, so only cargo itself knows where the target dir is.
    let from_cargo = env::var_os("CARGO").and_then(|cargo| {
        let output = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .ok()?;
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
        Some(PathBuf::from(metadata["target_directory"].as_str()?))
    });
    from_cargo.map_or_else(
        || PathBuf::from("target/criterion"),
        |t| t.join("criterion"),
    )
}

/// The median time per iteration, in nanoseconds, from a criterion
/// `estimates.json`.
#[must_use]
pub fn median_ns_from_json(json: &str) -> Option<f64> {
    let estimates: serde_json::Value = serde_json::from_str(json).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}

/// The median of benchmark `group/id` if this run measured it: results older
/// than `since` belong to an earlier run, perhaps of different code, and
/// would make the ratio a lie.
fn fresh_median_ns(home: &Path, group: &str, id: &str, since: SystemTime) -> Option<f64> {
    let path = home.join(group).join(id).join("new").join("estimates.json");
    let modified = fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    median_ns_from_json(&fs::read_to_string(&path).ok()?)
}

/// One formatted row: `label: 1.80x faster than baseline (4.1 ns vs 7.4 ns)`.
#[must_use]
pub fn format_row(label: &str, ours_ns: f64, baseline_ns: f64, baseline_name: &str) -> String {
    let verdict = if ours_ns <= baseline_ns {
        format!("{:.2}x faster than", baseline_ns / ours_ns)
    } else {
        format!("{:.2}x slower than", ours_ns / baseline_ns)
    };
    format!(
        "{label:<34} {verdict} {baseline_name:<30} ({} vs {})",
        format_ns(ours_ns),
        format_ns(baseline_ns)
    )
}

fn format_ns(ns: f64) -> String {
    if ns >= 1_000.0 {
        format!("{:.2} us", ns / 1_000.0)
    } else {
        format!("{ns:.2} ns")
    }
}

/// The ratio table for the comparisons this run measured, or `None` when it
/// measured none of them (`cargo test --benches`, `--list`, or a filter).
#[must_use]
pub fn ratio_table(home: &Path, comparisons: &[Comparison], since: SystemTime) -> Option<String> {
    let mut rows = String::new();
    for c in comparisons {
        let ours = fresh_median_ns(home, c.group, c.ours, since);
        let baseline = fresh_median_ns(home, c.group, c.baseline, since);
        // Half a pair (a filter that matched one side) says nothing.
        if let (Some(ours), Some(baseline)) = (ours, baseline) {
            let _ = writeln!(
                rows,
                "  {}",
                format_row(c.label, ours, baseline, c.baseline_name)
            );
        }
    }
    if rows.is_empty() {
        return None;
    }
    Some(format!(
        "ratio table (median time per iteration, pulsar-routing vs baseline):\n{rows}"
    ))
}

/// Prints [`ratio_table`] for the criterion results of this run.
pub fn print_ratio_table(comparisons: &[Comparison], since: SystemTime) {
    if let Some(table) = ratio_table(&criterion_home(), comparisons, since) {
        println!("\n{table}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_java_hash_matches_core() {
        for s in ["", "a", KEY_32, "polygenelubricants", "😀", "héllo"] {
            assert_eq!(
                naive_java_string_hashcode(s),
                pulsar_routing::java_string_hashcode(s)
            );
        }
    }

    #[test]
    fn naive_sign_safe_mod_matches_core() {
        for x in [i32::MIN, -13, -1, 0, 1, 13, i32::MAX] {
            assert_eq!(
                Ok(naive_sign_safe_mod(x, 12)),
                pulsar_routing::sign_safe_mod(i64::from(x), 12)
            );
        }
    }

    #[test]
    fn inputs_are_deterministic() {
        assert_eq!(pseudo_random_bytes(64, 7), pseudo_random_bytes(64, 7));
        assert_ne!(pseudo_random_bytes(64, 7), pseudo_random_bytes(64, 8));
        assert_eq!(pseudo_random_u32s(16, 1).len(), 16);
    }

    #[test]
    fn reads_the_median_of_an_estimates_file() {
        let json =
            r#"{"mean":{"point_estimate":5.5},"median":{"point_estimate":4.25},"slope":null}"#;
        assert_eq!(median_ns_from_json(json), Some(4.25));
        assert_eq!(median_ns_from_json("{}"), None);
    }

    #[test]
    fn rows_say_faster_or_slower() {
        let faster = format_row("x", 2.0, 3.6, "base");
        assert!(faster.contains("1.80x faster than base"), "{faster}");
        let slower = format_row("x", 1_500.0, 1_000.0, "base");
        assert!(slower.contains("1.50x slower than base"), "{slower}");
        assert!(slower.contains("(1.50 us vs 1.00 us)"), "{slower}");
    }

    #[test]
    fn topic_40_is_a_40_byte_canonical_name() {
        let topic = pulsar_routing::TopicName::parse(TOPIC_40).expect("a valid name");
        assert_eq!(topic.to_string(), TOPIC_40);
        assert_eq!(topic.canonical_len(), 40);
    }

    #[test]
    fn no_table_without_fresh_results() {
        let comparisons = [Comparison {
            label: "l",
            group: "no_such_group",
            ours: "a",
            baseline: "b",
            baseline_name: "b",
        }];
        assert_eq!(
            ratio_table(Path::new("does-not-exist"), &comparisons, SystemTime::now()),
            None
        );
    }
}
