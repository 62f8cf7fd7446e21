//! [`ToolContext`]: what a tool module gets besides its arguments, the spec's
//! `ExecutionContext`: `report_progress` and a stream (`createStream().write`).

use serde_json::Value;
use tokio::sync::mpsc;

/// One thing a running tool tells its caller before its result.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolEvent {
    /// How far it is: `progress` of `total` (if known), with a message.
    Progress {
        progress: f64,
        total: Option<f64>,
        message: String,
    },
    /// One item of a streamed result, as soon as it is ready.
    Item(Value),
}

/// The execution context of one call. Over MCP, progress becomes `notifications/progress`
/// (when the request asked for it) and the items are only in the final result; over REST,
/// a caller that asked for a stream gets both as JSON lines as they come.
#[derive(Debug, Clone, Default)]
pub struct ToolContext {
    events: Option<mpsc::UnboundedSender<ToolEvent>>,
}

impl ToolContext {
    /// A context whose events nobody reads.
    pub fn silent() -> Self {
        Self::default()
    }

    /// A context whose events arrive at the returned receiver, in order.
    pub fn with_events() -> (Self, mpsc::UnboundedReceiver<ToolEvent>) {
        let (sender, receiver) = mpsc::unbounded_channel();
        (
            Self {
                events: Some(sender),
            },
            receiver,
        )
    }

    /// The spec's `context.reportProgress(progress, message)`, with the total when known.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: impl Into<String>) {
        self.send(ToolEvent::Progress {
            progress,
            total,
            message: message.into(),
        });
    }

    /// The spec's `context.createStream().write(item)`: one item of the result, now.
    pub fn write(&self, item: Value) {
        self.send(ToolEvent::Item(item));
    }

    fn send(&self, event: ToolEvent) {
        if let Some(events) = &self.events {
            // A caller that went away no longer wants the events; the tool goes on.
            let _ = events.send(event);
        }
    }
}
