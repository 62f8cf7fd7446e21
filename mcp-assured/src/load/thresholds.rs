//! Limits a load run must stay within, and how each was judged.

use std::{fmt, time::Duration};

use serde::Serialize;

use super::report::{LoadReport, millis};

/// A limit on a load run's overall figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    /// The median latency is at most this.
    MaxP50(Duration),
    /// The 90th percentile latency is at most this.
    MaxP90(Duration),
    /// The 99th percentile latency is at most this.
    MaxP99(Duration),
    /// The share of calls that failed (0.0 to 1.0, any kind of error) is at most this.
    MaxErrorRate(f64),
    /// Calls completed per second over the measured window are at least this.
    MinThroughput(f64),
}

impl Threshold {
    /// A short name, e.g. `max_p99`: the JUnit test case and the JSON `name`.
    pub fn name(&self) -> &'static str {
        match self {
            Threshold::MaxP50(_) => "max_p50",
            Threshold::MaxP90(_) => "max_p90",
            Threshold::MaxP99(_) => "max_p99",
            Threshold::MaxErrorRate(_) => "max_error_rate",
            Threshold::MinThroughput(_) => "min_throughput",
        }
    }

    /// Judges `report` against this limit.
    pub(super) fn judge(&self, report: &LoadReport) -> Verdict {
        let latency = |measured: Duration, limit: Duration, what: &str| {
            (
                measured <= limit,
                format!("{what} ≤ {}", millis(limit)),
                millis(measured),
            )
        };
        let (passed, limit, measured) = match *self {
            Threshold::MaxP50(limit) => latency(report.latency.p50, limit, "p50"),
            Threshold::MaxP90(limit) => latency(report.latency.p90, limit, "p90"),
            Threshold::MaxP99(limit) => latency(report.latency.p99, limit, "p99"),
            Threshold::MaxErrorRate(limit) => (
                report.error_rate() <= limit,
                format!("error rate ≤ {limit}"),
                format!(
                    "{:.4} ({} of {} calls)",
                    report.error_rate(),
                    report.errors,
                    report.calls
                ),
            ),
            Threshold::MinThroughput(limit) => (
                report.throughput >= limit,
                format!("throughput ≥ {limit} calls/s"),
                format!("{:.1} calls/s", report.throughput),
            ),
        };
        Verdict {
            name: self.name(),
            limit,
            measured,
            passed,
        }
    }
}

/// How a run fared against one [`Threshold`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The threshold's name, e.g. `max_p99`.
    pub name: &'static str,
    /// The limit in words, e.g. `p99 ≤ 50 ms`.
    pub limit: String,
    /// What was measured, e.g. `72.4 ms`.
    pub measured: String,
    /// Whether the run stayed within it.
    pub passed: bool,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = if self.passed { "PASS" } else { "FAIL" };
        write!(f, "{word} {}: measured {}", self.limit, self.measured)
    }
}
