//! A streamed execution of a hybrid server's REST face: the JSON lines of
//! `POST /mcp/tools/{name}/execute` with `Accept: application/x-ndjson`, each timed as it
//! arrived, and the envelope that ends them.

use std::time::Duration;

use serde_json::Value;

use super::rest::Execution;

/// One line of a streamed execution before its result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// `{"type":"progress","progress":..,"total":..,"message":..}`: how far the tool is.
    Progress {
        /// How far, in the tool's units.
        progress: f64,
        /// Out of how much, when known.
        total: Option<f64>,
        /// What it is doing.
        message: Option<String>,
    },
    /// `{"type":"item","item":..}`: one item of the result, written as soon as it was ready.
    Item(Value),
    /// A line of another `type` (kept, not refused: a later revision may add kinds).
    Other(Value),
}

/// A line and when it arrived, from the moment the request was sent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TimedEvent {
    /// When it arrived.
    pub at: Duration,
    /// What it said.
    pub event: StreamEvent,
}

/// A whole streamed execution, as
/// [`ExecutionStream::finish`](crate::rest::ExecutionStream::finish) returns it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StreamedExecution {
    /// Whether the server answered with JSON lines; `false` when it answered the plain
    /// envelope (a refusal before the tool ran, or a server that does not stream).
    pub streamed: bool,
    /// The lines before the result, in order, timed.
    pub events: Vec<TimedEvent>,
    /// The envelope of the last line (or of the plain answer).
    pub execution: Execution,
    /// When the envelope arrived.
    pub finished_at: Duration,
}

impl StreamedExecution {
    /// The items, in order.
    pub fn items(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter_map(|timed| match &timed.event {
                StreamEvent::Item(item) => Some(item),
                _ => None,
            })
            .collect()
    }

    /// How many progress lines came.
    pub fn progress_count(&self) -> usize {
        self.events
            .iter()
            .filter(|timed| matches!(timed.event, StreamEvent::Progress { .. }))
            .count()
    }

    /// How long before the envelope the first line came: zero when nothing came before
    /// it, and close to zero when the server held every line back until the end.
    pub fn lead(&self) -> Duration {
        self.events.first().map_or(Duration::ZERO, |first| {
            self.finished_at.saturating_sub(first.at)
        })
    }
}
