//! Limits a load run must stay within, and how each was judged.

use std::{fmt, time::Duration};

use serde::Serialize;

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
}

/// How a run fared against one [`Threshold`].
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
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
