//! Paired, interleaved ratio measurement, for the goals stated as "at most
//! k times the baseline".
//!
//! Criterion measures each benchmark in its own few seconds, one after the
//! other. On a shared machine the speed of the whole machine drifts between
//! those windows (other tenants, frequency changes), and the ratio of two
//! separately measured medians moved by 40 % between runs of the same
//! code. A goal verdict needs the ratio, not the two absolute times, so it
//! is measured here the way drift cannot bias it: short blocks of the
//! baseline and of ours alternate, each round running baseline, ours, ours,
//! baseline (so a steady drift, and any cost of switching from one loop to
//! the other, falls on both sides alike), each round yields one ratio of
//! the two sums, and the verdict uses the median of about a hundred and
//! fifty rounds. The spread of the round ratios is printed with it, so a
//! noisy run shows as noisy.
//!
//! Both closures run in the same loop shape criterion uses
//! (`black_box(f())` per iteration), so the per-iteration figures are
//! comparable with criterion's.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long one block of iterations should take: long enough that the
/// timer's resolution and the loop's start are negligible, short enough
/// that many rounds fit in a couple of seconds.
const BLOCK: Duration = Duration::from_millis(2);

/// Rounds per measurement (four blocks each): odd, so the median is one
/// round's ratio.
pub const DEFAULT_ROUNDS: usize = 151;

/// The distribution of `ours / baseline` over the rounds of one paired
/// measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedRatio {
    /// The median round ratio: the figure a goal is judged on.
    pub median: f64,
    /// The 10th percentile of the round ratios.
    pub p10: f64,
    /// The 90th percentile of the round ratios.
    pub p90: f64,
    /// The baseline's median time per iteration, in nanoseconds.
    pub baseline_ns: f64,
    /// Ours, in nanoseconds per iteration.
    pub ours_ns: f64,
}

impl PairedRatio {
    /// Summarises per-round `(baseline, ours)` times in nanoseconds per
    /// iteration; `None` for no rounds or a zero baseline time.
    #[must_use]
    pub fn from_rounds(rounds: &[(f64, f64)]) -> Option<Self> {
        if rounds.is_empty() || rounds.iter().any(|&(b, _)| b <= 0.0) {
            return None;
        }
        let mut ratios: Vec<f64> = rounds.iter().map(|&(b, o)| o / b).collect();
        let mut baseline: Vec<f64> = rounds.iter().map(|&(b, _)| b).collect();
        let mut ours: Vec<f64> = rounds.iter().map(|&(_, o)| o).collect();
        Some(Self {
            median: percentile(&mut ratios, 50),
            p10: percentile(&mut ratios, 10),
            p90: percentile(&mut ratios, 90),
            baseline_ns: percentile(&mut baseline, 50),
            ours_ns: percentile(&mut ours, 50),
        })
    }
}

/// The `pct`th percentile of `values`, which it sorts: the value at rank
/// `floor((n - 1) * pct / 100)`, so the 50th of an odd count is the median.
fn percentile(values: &mut [f64], pct: usize) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = (values.len() - 1) * pct.min(100) / 100;
    values[rank]
}

/// Times `iters` calls of `f` in criterion's loop shape.
#[inline(never)]
fn time_block<R>(f: &mut impl FnMut() -> R, iters: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(f());
    }
    start.elapsed()
}

/// Measures `ours` against `baseline` in `rounds` rounds of four blocks
/// (baseline, ours, ours, baseline) of equal iteration counts, calibrated
/// so that a baseline block lasts about two milliseconds.
pub fn measure<A, B>(
    baseline: impl FnMut() -> A,
    ours: impl FnMut() -> B,
    rounds: usize,
) -> Option<PairedRatio> {
    measure_blocks(baseline, ours, rounds, BLOCK, |a, b| (a + b) / 2)
}

/// Rounds of [`measure_short`]: about the same time per measurement as
/// [`DEFAULT_ROUNDS`] of [`measure`].
pub const SHORT_ROUNDS: usize = 1001;

/// The block of [`measure_short`]: short enough that most blocks run
/// between two preemptions on a machine with more runnable threads than
/// cores, where a scheduler slice lasts a few milliseconds.
pub const SHORT_BLOCK: Duration = Duration::from_micros(200);

/// [`measure`] for a busy machine: [`SHORT_ROUNDS`] rounds of
/// [`SHORT_BLOCK`]s, each side of a round timed by the faster of its two
/// blocks. A block that was preempted is slower, never faster, so the
/// faster block is the undisturbed one unless both were hit, and both
/// sides are treated alike; with two-millisecond blocks and sums, most
/// rounds of a machine running twice as many builders as it has cores
/// were disturbed, and the median with them.
pub fn measure_short<A, B>(
    baseline: impl FnMut() -> A,
    ours: impl FnMut() -> B,
) -> Option<PairedRatio> {
    measure_blocks(baseline, ours, SHORT_ROUNDS, SHORT_BLOCK, Duration::min)
}

/// Rounds of baseline, ours, ours, baseline blocks of about `block` each,
/// the two blocks of each side combined by `combine`.
fn measure_blocks<A, B>(
    mut baseline: impl FnMut() -> A,
    mut ours: impl FnMut() -> B,
    rounds: usize,
    block: Duration,
    combine: fn(Duration, Duration) -> Duration,
) -> Option<PairedRatio> {
    // Calibrate on the baseline, warming both up on the way.
    let mut iters = 1u64;
    while time_block(&mut baseline, iters) < block && iters < 1 << 40 {
        time_block(&mut ours, iters);
        iters *= 2;
    }
    let per_iter = |d: Duration| d.as_secs_f64() * 1e9 / iters as f64;
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let b1 = time_block(&mut baseline, iters);
        let o1 = time_block(&mut ours, iters);
        let o2 = time_block(&mut ours, iters);
        let b2 = time_block(&mut baseline, iters);
        times.push((per_iter(combine(b1, b2)), per_iter(combine(o1, o2))));
    }
    PairedRatio::from_rounds(&times)
}

/// One goal measured by [`measure`]: ours must take at most `max_ratio`
/// times the baseline.
#[derive(Clone, Copy, Debug)]
pub struct PairedGoal {
    /// What is measured, e.g. `key -> consumer, 10 consumers`.
    pub label: &'static str,
    /// How the report names the baseline.
    pub baseline_name: &'static str,
    /// The largest acceptable median ratio.
    pub max_ratio: f64,
}

/// The report for goals and their measured ratios, with an overall verdict.
#[must_use]
pub fn report(title: &str, results: &[(PairedGoal, PairedRatio)]) -> String {
    let mut out = format!(
        "goal: {title}\n  (paired: median of interleaved rounds, 10th..90th percentile in brackets)\n"
    );
    let mut all_met = true;
    for (goal, r) in results {
        let met = r.median <= goal.max_ratio;
        all_met &= met;
        let _ = writeln!(
            out,
            "  {:<42} {:.2}x [{:.2}..{:.2}] {} (goal <= {:.2}x {}; {:.2} ns vs {:.2} ns)",
            goal.label,
            r.median,
            r.p10,
            r.p90,
            if met { "met    " } else { "NOT met" },
            goal.max_ratio,
            goal.baseline_name,
            r.ours_ns,
            r.baseline_ns,
        );
    }
    let verdict = if all_met { "met" } else { "NOT met" };
    let _ = writeln!(out, "  overall: {verdict}");
    out
}

/// Measures each case against `baseline` with [`measure_short`] (which
/// holds up on a shared machine) and prints the
/// [`report`] of the goal: ours at most `max_ratio` times the baseline.
pub fn check_goal<A, B>(
    title: &str,
    baseline_name: &'static str,
    max_ratio: f64,
    mut baseline: impl FnMut() -> A,
    cases: impl IntoIterator<Item = (&'static str, impl FnMut() -> B)>,
) {
    let results: Vec<_> = cases
        .into_iter()
        .filter_map(|(label, ours)| {
            let ratio = measure_short(&mut baseline, ours)?;
            let goal = PairedGoal {
                label,
                baseline_name,
                max_ratio,
            };
            Some((goal, ratio))
        })
        .collect();
    println!("\n{}", report(title, &results));
}

/// Criterion options that take a value, so that the value is not mistaken
/// for a benchmark filter.
const OPTIONS_WITH_VALUES: [&str; 19] = [
    "-s",
    "-b",
    "-c",
    "--warm-up-time",
    "--measurement-time",
    "--sample-size",
    "--save-baseline",
    "--baseline",
    "--baseline-lenient",
    "--load-baseline",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--nresamples",
    "--output-format",
    "--color",
    "--plotting-backend",
    "--profile-time",
    "--format",
];

/// Criterion options after which it measures nothing.
const OPTIONS_WITHOUT_MEASUREMENTS: [&str; 3] = ["--list", "--profile-time", "--test"];

/// Whether the paired goal check should run for these command-line
/// arguments: only under `cargo bench` (which passes `--bench`; `cargo
/// test --benches` does not), not when criterion only lists or profiles,
/// and when no filter is given, the filter is the bench's criterion
/// `group` (as `scripts/bench.sh -- <group>` passes it), or the filter is
/// `goal` (which matches no criterion benchmark, so it runs the check
/// alone).
#[must_use]
pub fn goal_check_requested(args: &[String], group: &str) -> bool {
    if !args.iter().any(|a| a == "--bench")
        || args
            .iter()
            .any(|a| OPTIONS_WITHOUT_MEASUREMENTS.contains(&a.as_str()))
    {
        return false;
    }
    let mut filters = Vec::new();
    let mut skip_value = false;
    for arg in args.iter().skip(1) {
        if skip_value {
            skip_value = false;
        } else if OPTIONS_WITH_VALUES.contains(&arg.as_str()) {
            skip_value = true;
        } else if !arg.starts_with('-') {
            filters.push(arg.as_str());
        }
    }
    filters.is_empty() || filters.iter().any(|&f| f == "goal" || f == group)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn summarises_round_ratios() {
        let rounds: Vec<(f64, f64)> = (1..=9).map(|i| (10.0, f64::from(i) + 5.0)).collect();
        let r = PairedRatio::from_rounds(&rounds).expect("rounds");
        assert!((r.median - 1.0).abs() < 1e-9, "{r:?}");
        assert!((r.p10 - 0.6).abs() < 1e-9, "{r:?}");
        assert!((r.p90 - 1.3).abs() < 1e-9, "{r:?}");
        assert!((r.ours_ns - 10.0).abs() < 1e-9, "{r:?}");
        assert_eq!(PairedRatio::from_rounds(&[]), None);
        assert_eq!(PairedRatio::from_rounds(&[(0.0, 1.0)]), None);
    }

    #[test]
    fn measures_equal_work_as_about_equal() {
        let work = || (0..200u32).fold(0u32, |a, b| black_box(a.wrapping_mul(31) ^ b));
        let r = measure(work, work, 21).expect("measured");
        // Generous: the test machine may be loaded; this only catches a
        // harness that swaps or mis-scales the two sides.
        assert!(r.median > 0.5 && r.median < 2.0, "{r:?}");
        // In the same test, not a parallel one: two timing tests running
        // at once on a small machine disturb each other.
        let r = measure_short(work, work).expect("measured");
        assert!(r.median > 0.5 && r.median < 2.0, "{r:?}");
    }

    #[test]
    fn reports_each_goal_and_the_verdict() {
        let goal = |label| PairedGoal {
            label,
            baseline_name: "base",
            max_ratio: 1.2,
        };
        let ratio = |median| PairedRatio {
            median,
            p10: median - 0.1,
            p90: median + 0.1,
            baseline_ns: 10.0,
            ours_ns: 10.0 * median,
        };
        let met = report("t", &[(goal("a"), ratio(1.1))]);
        assert!(met.contains("1.10x [1.00..1.20] met"), "{met}");
        assert!(met.contains("overall: met"), "{met}");
        let missed = report("t", &[(goal("a"), ratio(1.1)), (goal("b"), ratio(1.3))]);
        assert!(missed.contains("1.30x [1.20..1.40] NOT met"), "{missed}");
        assert!(missed.contains("overall: NOT met"), "{missed}");
    }

    #[test]
    fn runs_only_under_cargo_bench_without_another_filter() {
        let requested = |list: &[&str]| goal_check_requested(&args(list), "grp");
        assert!(requested(&["b", "--bench"]));
        assert!(requested(&["b", "--bench", "goal"]));
        assert!(requested(&["b", "--bench", "grp"]));
        assert!(requested(&["b", "--bench", "--measurement-time", "3"]));
        assert!(requested(&["b", "--bench", "-s", "main"]));
        assert!(!requested(&["b", "--bench", "select"]));
        assert!(!requested(&["b", "--bench", "--list"]));
        assert!(!requested(&["b", "--bench", "--profile-time", "5"]));
        assert!(!requested(&["b"]));
        assert!(!requested(&["b", "--test"]));
    }
}
