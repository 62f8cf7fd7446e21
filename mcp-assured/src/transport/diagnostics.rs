//! What a transport saw go wrong, kept so a failed request can say why instead of
//! "transport closed": an undecodable message, the child's exit status, its stderr tail.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::Duration,
};

use rmcp::model::RequestId;
use serde_json::Value;
use tokio::sync::watch;

/// How much of an offending line or event an error quotes.
const QUOTE_LIMIT: usize = 1000;
/// How many stderr lines are kept for error messages.
const STDERR_LINES: usize = 40;

/// The first fatal thing a transport noticed.
#[derive(Debug, Clone)]
pub(crate) enum Fault {
    /// The server sent bytes that are not a JSON-RPC message.
    Undecodable { line: String, reason: String },
    /// The transport failed (an I/O error, an HTTP status on the SSE stream, ...).
    Broken { status: Option<u16>, reason: String },
}

/// Shared between a transport, the child-process watcher and the client.
#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    fault: Mutex<Option<Fault>>,
    stderr: Mutex<VecDeque<String>>,
    exit: Mutex<Option<watch::Receiver<Option<String>>>>,
    /// Responses as the server sent them, while a raw request waits for one.
    pub(crate) raw: super::raw::RawResponses,
    /// Streamable HTTP: the id of a response that came on a request's own stream under
    /// another id, by the request's id. rmcp ends the stream at it, so the answer is lost.
    misdirected: Mutex<HashMap<RequestId, Value>>,
}

impl Diagnostics {
    pub(crate) fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Records a fault unless an earlier one is already recorded: the first cause explains
    /// the rest.
    pub(crate) fn record(&self, fault: Fault) {
        let mut slot = lock(&self.fault);
        if slot.is_none() {
            tracing::debug!(?fault, "mcp-assured transport fault");
            *slot = Some(fault);
        }
    }

    pub(crate) fn record_undecodable(&self, raw: &[u8], reason: impl ToString) {
        self.record(Fault::Undecodable {
            line: quote(&String::from_utf8_lossy(raw)),
            reason: reason.to_string(),
        });
    }

    pub(crate) fn fault(&self) -> Option<Fault> {
        lock(&self.fault).clone()
    }

    /// A response under the id `answered` came on the stream of the request `request`.
    pub(crate) fn record_misdirected(&self, request: RequestId, answered: Value) {
        lock(&self.misdirected).entry(request).or_insert(answered);
    }

    /// The id of a response that came on this request's stream in its place, if one did.
    pub(crate) fn take_misdirected(&self, request: &RequestId) -> Option<Value> {
        lock(&self.misdirected).remove(request)
    }

    pub(crate) fn push_stderr_line(&self, line: String) {
        let mut lines = lock(&self.stderr);
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(quote(&line));
    }

    /// The last lines the child wrote to stderr; `None` when there is no child or it wrote
    /// nothing.
    pub(crate) fn stderr_tail(&self) -> Option<String> {
        let lines = lock(&self.stderr);
        if lines.is_empty() {
            return None;
        }
        Some(
            lines
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }

    pub(crate) fn watch_exit(&self, exit: watch::Receiver<Option<String>>) {
        *lock(&self.exit) = Some(exit);
    }

    /// The child's exit status, waiting up to `grace` for it: stdout closes a moment before
    /// the exit can be reaped. `None` when there is no child or it is still running.
    pub(crate) async fn exit_status(&self, grace: Duration) -> Option<String> {
        let mut exit = lock(&self.exit).clone()?;
        if let Ok(Ok(status)) = tokio::time::timeout(grace, exit.wait_for(Option::is_some)).await {
            return status.clone();
        }
        exit.borrow().clone()
    }
}

fn quote(text: &str) -> String {
    let text = text.trim_end_matches(['\r', '\n']);
    if text.chars().count() <= QUOTE_LIMIT {
        return text.to_owned();
    }
    let cut: String = text.chars().take(QUOTE_LIMIT).collect();
    format!("{cut}… ({} bytes in all)", text.len())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_fault() {
        let diagnostics = Diagnostics::new();
        diagnostics.record_undecodable(b"hello\n", "expected value");
        diagnostics.record(Fault::Broken {
            status: None,
            reason: "later".into(),
        });
        match diagnostics.fault() {
            Some(Fault::Undecodable { line, reason }) => {
                assert_eq!(line, "hello");
                assert_eq!(reason, "expected value");
            }
            other => panic!("unexpected fault {other:?}"),
        }
    }

    #[test]
    fn stderr_tail_keeps_the_last_lines() {
        let diagnostics = Diagnostics::new();
        assert_eq!(diagnostics.stderr_tail(), None);
        for i in 0..100 {
            diagnostics.push_stderr_line(format!("line {i}"));
        }
        let tail = diagnostics.stderr_tail().unwrap();
        assert!(tail.starts_with("line 60\n"), "{tail}");
        assert!(tail.ends_with("line 99"), "{tail}");
    }

    #[test]
    fn long_lines_are_cut() {
        let long = "x".repeat(5000);
        let quoted = quote(&long);
        assert!(quoted.ends_with("(5000 bytes in all)"), "{quoted}");
    }
}
