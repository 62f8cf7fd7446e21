//! How one call of a load run ended, and the tallies each session keeps of them: an HDR
//! histogram of latencies and error counts by kind, per tool, merged after the run.

use std::{collections::BTreeMap, fmt, time::Duration};

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::{
    error::{Error, Result},
    results::mcp::ToolResult,
};

/// Significant figures of the latency histograms: 0.1% precision at any latency.
const SIGNIFICANT_FIGURES: u8 = 3;
/// How much of the first message of each kind of error is kept.
const EXAMPLE_CHARS: usize = 1000;

/// How a failed call failed.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "code", rename_all = "snake_case")]
pub enum ErrorKind {
    /// No answer within the call timeout (the request was cancelled).
    Timeout,
    /// A JSON-RPC error answer, with its code.
    JsonRpc(i32),
    /// A tool result with `isError: true`.
    ToolError,
    /// The connection failed or closed: the server exited, hung up, or sent something that
    /// is not JSON-RPC.
    Transport,
    /// Anything else: an answer the request cannot use.
    Other,
}

impl ErrorKind {
    /// The kind of a call's failure, or `None` when it succeeded.
    pub(super) fn of(result: &Result<ToolResult>) -> Option<ErrorKind> {
        match result {
            Ok(result) if result.is_error == Some(true) => Some(ErrorKind::ToolError),
            Ok(_) => None,
            Err(Error::Timeout { .. }) => Some(ErrorKind::Timeout),
            Err(Error::JsonRpc { code, .. }) => Some(ErrorKind::JsonRpc(*code)),
            Err(
                Error::ServerExited { .. }
                | Error::Transport { .. }
                | Error::Connect { .. }
                | Error::Undecodable { .. }
                | Error::Http { .. },
            ) => Some(ErrorKind::Transport),
            Err(_) => Some(ErrorKind::Other),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Timeout => f.write_str("timeout"),
            ErrorKind::JsonRpc(code) => write!(f, "JSON-RPC {code}"),
            ErrorKind::ToolError => f.write_str("tool error (isError)"),
            ErrorKind::Transport => f.write_str("transport closed or failed"),
            ErrorKind::Other => f.write_str("other"),
        }
    }
}

/// What one session saw of one tool: latencies (of the calls that succeeded, and apart, of
/// those that failed) and failures.
#[derive(Debug, Clone)]
pub(super) struct Tally {
    pub(super) latencies: Histogram<u64>,
    pub(super) failed_latencies: Histogram<u64>,
    pub(super) errors: BTreeMap<ErrorKind, ErrorSeen>,
}

/// How often a kind of error came, and the first message of it.
#[derive(Debug, Clone)]
pub(super) struct ErrorSeen {
    pub(super) count: u64,
    pub(super) example: String,
}

impl Tally {
    pub(super) fn new() -> Tally {
        Tally {
            // Auto-resizing: it starts small and grows to the largest latency seen.
            latencies: Histogram::new(SIGNIFICANT_FIGURES).expect("3 significant figures"),
            failed_latencies: Histogram::new(SIGNIFICANT_FIGURES).expect("3 significant figures"),
            errors: BTreeMap::new(),
        }
    }

    /// Records one call: its latency (in microseconds, at least 1; a failed call's apart) and
    /// how it failed, if it did; the message of an error is kept once per kind, so recording
    /// allocates nothing after the first of each.
    pub(super) fn record(
        &mut self,
        latency: Duration,
        failure: Option<(ErrorKind, &dyn Fn() -> String)>,
    ) {
        let micros = u64::try_from(latency.as_micros())
            .unwrap_or(u64::MAX)
            .max(1);
        let histogram = if failure.is_some() {
            &mut self.failed_latencies
        } else {
            &mut self.latencies
        };
        // Auto-resizing, it grows to hold any latency; saturating is the fallback.
        if histogram.record(micros).is_err() {
            histogram.saturating_record(micros);
        }
        if let Some((kind, message)) = failure {
            self.errors
                .entry(kind)
                .and_modify(|seen| seen.count += 1)
                .or_insert_with(|| ErrorSeen {
                    count: 1,
                    example: cut(message()),
                });
        }
    }

    pub(super) fn merge(&mut self, other: &Tally) {
        // Both auto-resize, so adding cannot go out of range.
        let _ = self.latencies.add(&other.latencies);
        let _ = self.failed_latencies.add(&other.failed_latencies);
        for (kind, seen) in &other.errors {
            self.errors
                .entry(*kind)
                .and_modify(|mine| mine.count += seen.count)
                .or_insert_with(|| seen.clone());
        }
    }

    /// Every call recorded, failed or not.
    pub(super) fn calls(&self) -> u64 {
        self.latencies.len() + self.failed_latencies.len()
    }

    pub(super) fn error_count(&self) -> u64 {
        self.errors.values().map(|seen| seen.count).sum()
    }
}

/// An error's message as kept: at most [`EXAMPLE_CHARS`] characters.
fn cut(mut message: String) -> String {
    if let Some((at, _)) = message.char_indices().nth(EXAMPLE_CHARS) {
        message.truncate(at);
        message.push('…');
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge_counts_and_keep_the_first_example() {
        let mut a = Tally::new();
        a.record(Duration::from_micros(100), None);
        a.record(
            Duration::from_millis(2),
            Some((ErrorKind::JsonRpc(-32602), &|| "first".to_owned())),
        );
        let mut b = Tally::new();
        b.record(
            Duration::from_secs(3),
            Some((ErrorKind::JsonRpc(-32602), &|| "second".to_owned())),
        );
        b.record(
            Duration::ZERO,
            Some((ErrorKind::Timeout, &|| "late".to_owned())),
        );
        a.merge(&b);
        assert_eq!(a.calls(), 4);
        assert_eq!(a.error_count(), 3);
        let seen = &a.errors[&ErrorKind::JsonRpc(-32602)];
        assert_eq!((seen.count, seen.example.as_str()), (2, "first"));
        assert_eq!(a.latencies.len(), 1, "the call that succeeded");
        assert_eq!(a.latencies.max(), 100);
        assert_eq!(a.failed_latencies.min(), 1);
        assert!(a.failed_latencies.max() >= 3_000_000);
    }

    #[test]
    fn kinds_read_as_words() {
        assert_eq!(ErrorKind::JsonRpc(-32602).to_string(), "JSON-RPC -32602");
        assert_eq!(
            serde_json::to_value(ErrorKind::JsonRpc(-1)).unwrap(),
            serde_json::json!({"kind": "json_rpc", "code": -1})
        );
        assert_eq!(
            serde_json::to_value(ErrorKind::Timeout).unwrap(),
            serde_json::json!({"kind": "timeout"})
        );
    }
}
