//! What a load run measured: [`LoadReport`], overall and per tool, as a table
//! ([`Display`](fmt::Display)), JSON (`Serialize`) or, through [`LoadReport::to_report`], the
//! crate's one [`Report`] type and its JUnit XML.

use std::{fmt, time::Duration};

use hdrhistogram::Histogram;
use serde::{Serialize, Serializer};

use super::distribution::{Distribution, Interval};
use super::outcome::{ErrorKind, Tally};
use super::plan::SkippedTool;
use super::thresholds::{Threshold, Verdict};
use crate::report::{Entry, Report, Status};

/// What the limit of the error rate a run gets without one set says.
const DEFAULT_ERROR_RATE: &str = "the default: every call must succeed";

/// The JUnit test suite and [`Report`] suite of a load run's entries.
pub const SUITE: &str = "load-run";

/// Latency percentiles of calls measured: of the calls that succeeded
/// ([`Stats::latency`]), or of those that failed ([`Stats::failed_latency`]; a call that
/// timed out counts with the time it waited). Read from an HDR histogram at microsecond
/// resolution and three significant figures; in JSON, each is a number of microseconds (`p50_us`, ...).
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Latency {
    /// The fastest call.
    #[serde(rename = "min_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub min: Duration,
    /// The median.
    #[serde(rename = "p50_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub p50: Duration,
    /// The 90th percentile.
    #[serde(rename = "p90_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub p90: Duration,
    /// The 99th percentile.
    #[serde(rename = "p99_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub p99: Duration,
    /// The 99.9th percentile.
    #[serde(rename = "p999_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub p999: Duration,
    /// The slowest call.
    #[serde(rename = "max_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub max: Duration,
    /// The mean.
    #[serde(rename = "mean_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub mean: Duration,
}

impl Latency {
    fn of(histogram: &Histogram<u64>) -> Latency {
        if histogram.is_empty() {
            return Latency::default();
        }
        let at = |quantile: f64| Duration::from_micros(histogram.value_at_quantile(quantile));
        Latency {
            min: Duration::from_micros(histogram.min()),
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            p999: at(0.999),
            max: Duration::from_micros(histogram.max()),
            mean: Duration::from_secs_f64(histogram.mean() / 1e6),
        }
    }
}

fn micros<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(u64::try_from(duration.as_micros()).unwrap_or(u64::MAX))
}

fn seconds<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64())
}

/// How many calls failed one way, with the first message seen.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorCount {
    /// How they failed.
    #[serde(flatten)]
    pub kind: ErrorKind,
    /// How many calls did.
    pub count: u64,
    /// The first such failure, in words (the error's message, or the tool's error text).
    pub example: String,
}

/// The figures of one tool, or of the whole run.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Calls measured (warm-up calls are not).
    pub calls: u64,
    /// Calls that failed, of any kind.
    pub errors: u64,
    /// Calls that succeeded, per second over the measured window (a fast failure is no
    /// throughput).
    pub throughput: f64,
    /// Latency percentiles of the calls that succeeded: what the thresholds judge.
    pub latency: Latency,
    /// Latency percentiles of the calls that failed, apart (all zero when none did): a
    /// timeout's wait, or an error answered fast.
    pub failed_latency: Latency,
    /// Failures by kind, most frequent first.
    pub errors_by_kind: Vec<ErrorCount>,
    /// The latencies of the calls that succeeded, as a histogram and a percentile curve
    /// (what the HTML report plots).
    pub distribution: Distribution,
}

impl Stats {
    fn of(tally: &Tally, window: Duration) -> Stats {
        let calls = tally.calls();
        let mut errors_by_kind: Vec<ErrorCount> = tally
            .errors
            .iter()
            .map(|(kind, seen)| ErrorCount {
                kind: *kind,
                count: seen.count,
                example: seen.example.clone(),
            })
            .collect();
        errors_by_kind.sort_by(|a, b| b.count.cmp(&a.count).then(a.kind.cmp(&b.kind)));
        Stats {
            calls,
            errors: tally.error_count(),
            throughput: per_second(tally.latencies.len(), window),
            latency: Latency::of(&tally.latencies),
            failed_latency: Latency::of(&tally.failed_latencies),
            errors_by_kind,
            distribution: Distribution::of(&tally.latencies),
        }
    }

    /// The share of calls that failed, 0.0 when none were made.
    pub fn error_rate(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.errors as f64 / self.calls as f64
        }
    }
}

fn per_second(calls: u64, window: Duration) -> f64 {
    if window.is_zero() {
        0.0
    } else {
        calls as f64 / window.as_secs_f64()
    }
}

/// The figures of one tool.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolStats {
    /// The tool's name.
    pub name: String,
    /// Its figures.
    #[serde(flatten)]
    pub stats: Stats,
}

/// What a load run measured: latency percentiles, throughput and errors by kind, overall
/// (the fields here, through `Deref` to [`Stats`]) and per tool, and how the run fared
/// against each threshold.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> mcp_assured::Result<()> {
/// use mcp_assured::McpAssured;
/// use mcp_assured_examples::ExampleServer;
/// use serde_json::json;
///
/// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
/// let report = client.load().call("echo", json!({"message": "hi"})).calls(200).run().await?;
/// assert_eq!(report.calls, 200);
/// assert!(report.latency.p50 <= report.latency.p99);
/// println!("{report}"); // a table: calls, errors, calls/s, p50 … max per tool
/// let json = serde_json::to_value(&report).unwrap();
/// assert_eq!(json["calls"], 200);
/// # Ok(()) }
/// ```
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadReport {
    /// The URL or command line of the server.
    pub target: String,
    /// Sessions (connections, or server processes over stdio) the calls went over.
    pub sessions: usize,
    /// Calls in flight at once in each session.
    pub concurrency: usize,
    /// Calls sent before measuring, not counted.
    pub warmup_calls: u64,
    /// How long the measured calls took, from the first sent to the last answered; in JSON,
    /// `window_s`, seconds.
    #[serde(rename = "window_s", serialize_with = "seconds")]
    #[cfg_attr(feature = "json-schema", schemars(with = "f64"))]
    pub window: Duration,
    /// The whole run's figures.
    #[serde(flatten)]
    pub overall: Stats,
    /// Each tool's figures, in the order of the plan.
    pub tools: Vec<ToolStats>,
    /// Sessions whose connection closed during the run (the server exited or hung up);
    /// their workers stopped there.
    pub sessions_lost: usize,
    /// Tools left out of a run over every tool, and why.
    pub skipped_tools: Vec<SkippedTool>,
    /// How the run fared against each threshold, in the order they were given.
    pub thresholds: Vec<Verdict>,
    /// The calls answered (and failed) in each slice of the measured window, every
    /// [`PROGRESS_EVERY`](super::PROGRESS_EVERY): throughput over time.
    pub timeline: Vec<Interval>,
}

impl std::ops::Deref for LoadReport {
    type Target = Stats;
    fn deref(&self) -> &Stats {
        &self.overall
    }
}

/// What a run produced, before the report is made.
#[derive(Debug)]
pub(super) struct Measured {
    pub(super) target: String,
    pub(super) sessions: usize,
    pub(super) concurrency: usize,
    pub(super) warmup_calls: u64,
    pub(super) window: Duration,
    /// Per tool of the plan, merged over sessions.
    pub(super) tools: Vec<(String, Tally)>,
    pub(super) sessions_lost: usize,
    pub(super) skipped_tools: Vec<SkippedTool>,
    pub(super) timeline: Vec<Interval>,
}

impl LoadReport {
    pub(super) fn new(measured: Measured, thresholds: &[super::Threshold]) -> LoadReport {
        let mut overall = Tally::new();
        for (_, tally) in &measured.tools {
            overall.merge(tally);
        }
        let mut report = LoadReport {
            target: measured.target,
            sessions: measured.sessions,
            concurrency: measured.concurrency,
            warmup_calls: measured.warmup_calls,
            window: measured.window,
            overall: Stats::of(&overall, measured.window),
            tools: measured
                .tools
                .iter()
                .map(|(name, tally)| ToolStats {
                    name: name.clone(),
                    stats: Stats::of(tally, measured.window),
                })
                .collect(),
            sessions_lost: measured.sessions_lost,
            skipped_tools: measured.skipped_tools,
            thresholds: Vec::new(),
            timeline: measured.timeline,
        };
        report.thresholds = thresholds.iter().map(|t| report.judge(t)).collect();
        // A run whose calls fail is no success by default: a load run that only measured
        // errors would otherwise pass.
        if !thresholds
            .iter()
            .any(|threshold| matches!(threshold, Threshold::MaxErrorRate(_)))
        {
            let mut verdict = report.judge(&Threshold::MaxErrorRate(0.0));
            verdict.limit = format!(
                "{} ({DEFAULT_ERROR_RATE}; allow failures with .max_error_rate(r) or \
                 --max-error-rate R)",
                verdict.limit
            );
            report.thresholds.push(verdict);
        }
        report
    }

    /// How this run fared against `threshold`.
    fn judge(&self, threshold: &Threshold) -> Verdict {
        // Latency is of the calls that succeeded: with none, there is nothing to hold to it.
        let succeeded = self.calls - self.errors;
        let latency = |measured: Duration, limit: Duration, what: &str| {
            if succeeded == 0 {
                return (
                    false,
                    format!("{what} ≤ {}", millis(limit)),
                    "no call succeeded, so no latency was measured".to_owned(),
                );
            }
            (
                measured <= limit,
                format!("{what} ≤ {}", millis(limit)),
                millis(measured),
            )
        };
        let (passed, limit, measured) = match *threshold {
            Threshold::MaxP50(limit) => latency(self.latency.p50, limit, "p50"),
            Threshold::MaxP90(limit) => latency(self.latency.p90, limit, "p90"),
            Threshold::MaxP99(limit) => latency(self.latency.p99, limit, "p99"),
            Threshold::MaxErrorRate(limit) => (
                self.error_rate() <= limit,
                format!("error rate ≤ {limit}"),
                format!(
                    "{:.4} ({} of {} calls)",
                    self.error_rate(),
                    self.errors,
                    self.calls
                ),
            ),
            Threshold::MinThroughput(limit) => (
                self.throughput >= limit,
                format!("throughput ≥ {limit} calls/s"),
                format!("{:.1} calls/s", self.throughput),
            ),
        };
        Verdict {
            name: threshold.name(),
            limit,
            measured,
            passed,
        }
    }

    /// The figures of tool `name`, if the plan called it.
    pub fn tool(&self, name: &str) -> Option<&Stats> {
        self.tools
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| &tool.stats)
    }

    /// Whether every threshold held: those set, and, unless an error rate was set, no call
    /// failing (a run of failed calls is no success).
    pub fn is_success(&self) -> bool {
        self.thresholds.iter().all(|verdict| verdict.passed)
    }

    /// The thresholds that did not hold.
    pub fn missed(&self) -> impl Iterator<Item = &Verdict> {
        self.thresholds.iter().filter(|verdict| !verdict.passed)
    }

    /// Panics, with the table and each missed threshold with what was measured, unless every
    /// threshold held.
    ///
    /// ```should_panic
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::McpAssured;
    /// use mcp_assured_examples::ExampleServer;
    /// use serde_json::json;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// client
    ///     .load()
    ///     .call("add", json!({"a": "one", "b": 2})) // every call fails
    ///     .calls(20)
    ///     .max_error_rate(0.01)
    ///     .run()
    ///     .await?
    ///     .assert_success();
    /// // panics: "Load thresholds missed.\nFAIL error rate ≤ 0.01: measured 1.0000 (20 of 20 calls)..."
    /// # Ok(()) }
    /// ```
    #[track_caller]
    pub fn assert_success(&self) -> &Self {
        if let Err(message) = self.try_success() {
            panic!("{message}");
        }
        self
    }

    /// [`assert_success`](Self::assert_success) as a `Result`: the failure message when a
    /// threshold was missed.
    pub fn try_success(&self) -> Result<(), String> {
        if self.is_success() {
            return Ok(());
        }
        let missed: Vec<String> = self.missed().map(ToString::to_string).collect();
        Err(format!(
            "Load thresholds missed.\n{}\ntarget={}\n{self}",
            missed.join("\n"),
            self.target
        ))
    }

    /// The run as entries of the crate's one [`Report`] type, in suite [`SUITE`]: `run`
    /// (passed, the summary line as its message; failed when no call was measured), then one
    /// entry per threshold (`max_p99`, …), passed or failed with what was measured. Write it
    /// as JUnit XML with [`Report::junit`] (the `junit` feature).
    ///
    #[cfg_attr(feature = "junit", doc = "```")]
    #[cfg_attr(not(feature = "junit"), doc = "```ignore")]
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::McpAssured;
    /// use mcp_assured_examples::ExampleServer;
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// let report = client
    ///     .load()
    ///     .call("echo", json!({"message": "hi"}))
    ///     .calls(50)
    ///     .max_p99(Duration::from_secs(5))
    ///     .run()
    ///     .await?;
    /// let xml = report.to_report().junit("mcp-assured bench").to_string();
    /// assert!(xml.contains(r#"<testcase name="max_p99" classname="load-run""#));
    /// # Ok(()) }
    /// ```
    pub fn to_report(&self) -> Report {
        let mut report = Report::default();
        let status = if self.calls == 0 {
            Status::Failed
        } else {
            Status::Passed
        };
        let mut run = Entry::new(SUITE, "run", status, self.summary());
        run.duration = Some(self.window);
        run.clause = Some(crate::rules::LOAD_MEASURED);
        report.push(run);
        for verdict in &self.thresholds {
            let status = if verdict.passed {
                Status::Passed
            } else {
                Status::Failed
            };
            let message = format!("{}: measured {}", verdict.limit, verdict.measured);
            let mut entry = Entry::new(SUITE, verdict.name, status, message);
            // The thresholds set are their own ground; the default one is a rule of ours.
            if verdict.limit.contains(DEFAULT_ERROR_RATE) {
                entry.clause = Some(crate::rules::LOAD_NO_ERRORS);
            }
            report.push(entry);
        }
        report
    }

    /// One line: calls, window, sessions, throughput, error rate and percentiles.
    pub fn summary(&self) -> String {
        format!(
            "{} calls in {:.2} s over {} session{} × {} in flight (after {} warm-up calls): \
             {:.1} calls/s succeeded, {:.2}% errors, p50 {}, p99 {}, max {}{}",
            self.calls,
            self.window.as_secs_f64(),
            self.sessions,
            if self.sessions == 1 { "" } else { "s" },
            self.concurrency,
            self.warmup_calls,
            self.throughput,
            self.error_rate() * 100.0,
            millis(self.latency.p50),
            millis(self.latency.p99),
            millis(self.latency.max),
            if self.errors > 0 {
                format!(
                    " (the failed calls apart: p50 {}, max {})",
                    millis(self.failed_latency.p50),
                    millis(self.failed_latency.max)
                )
            } else {
                String::new()
            },
        )
    }
}

/// A latency in milliseconds, to the microsecond: `1.234 ms`.
fn millis(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        let mut rows: Vec<(&str, &Stats)> = self
            .tools
            .iter()
            .map(|tool| (tool.name.as_str(), &tool.stats))
            .collect();
        if self.tools.len() > 1 {
            rows.push(("(all)", &self.overall));
        }
        let width = rows
            .iter()
            .map(|(name, _)| name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        write!(
            f,
            "\n{:<width$}  {:>8}  {:>7}  {:>9}  {:>11}  {:>11}  {:>11}  {:>11}  {:>11}",
            "tool", "calls", "errors", "calls/s", "p50", "p90", "p99", "p99.9", "max"
        )?;
        for (name, stats) in &rows {
            let l = stats.latency;
            write!(
                f,
                "\n{name:<width$}  {:>8}  {:>7}  {:>9.1}  {:>11}  {:>11}  {:>11}  {:>11}  {:>11}",
                stats.calls,
                stats.errors,
                stats.throughput,
                millis(l.p50),
                millis(l.p90),
                millis(l.p99),
                millis(l.p999),
                millis(l.max),
            )?;
        }
        let errors: Vec<String> = self
            .tools
            .iter()
            .flat_map(|tool| {
                let failed = tool.stats.failed_latency;
                let latencies = (tool.stats.errors > 0).then(|| {
                    format!(
                        "  {} failed calls' latency: p50 {}, p99 {}, max {}",
                        tool.name,
                        millis(failed.p50),
                        millis(failed.p99),
                        millis(failed.max)
                    )
                });
                tool.stats
                    .errors_by_kind
                    .iter()
                    .map(move |error| {
                        format!(
                            "  {} {}: {} × {}, e.g. {}",
                            tool.name,
                            error.kind,
                            error.count,
                            plural(error.count),
                            one_line(&error.example)
                        )
                    })
                    .chain(latencies)
            })
            .collect();
        if !errors.is_empty() {
            write!(f, "\n\nerrors:\n{}", errors.join("\n"))?;
        }
        if self.sessions_lost > 0 {
            write!(
                f,
                "\n\n{} of {} sessions closed during the run (the server exited or hung up)",
                self.sessions_lost, self.sessions
            )?;
        }
        for skipped in &self.skipped_tools {
            write!(f, "\nskipped `{}`: {}", skipped.name, skipped.reason)?;
        }
        if !self.thresholds.is_empty() {
            writeln!(f)?;
            for verdict in &self.thresholds {
                write!(f, "\n{verdict}")?;
            }
        }
        Ok(())
    }
}

fn plural(count: u64) -> &'static str {
    if count == 1 { "call" } else { "calls" }
}

/// The first line of `text`, cut to 200 characters.
fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}
