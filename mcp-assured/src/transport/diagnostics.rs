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

use crate::error::Error;

/// How much of an offending line or event an error quotes.
const QUOTE_LIMIT: usize = 1000;
/// How many lines of each output stream are kept for error messages.
const TAIL_LINES: usize = 40;

/// The first fatal thing a transport noticed.
#[derive(Debug, Clone)]
pub(crate) enum Fault {
    /// The server sent bytes that are not a JSON-RPC message.
    Undecodable { line: String, reason: String },
    /// The transport failed (an I/O error, an HTTP status on the SSE stream, ...).
    Broken { status: Option<u16>, reason: String },
}

/// Which of a child's pipes a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// Shared between a transport, the child-process watcher and the client.
#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    fault: Mutex<Option<Fault>>,
    /// The child's last lines, both streams interleaved as they came.
    output: Mutex<VecDeque<(Stream, String)>>,
    exit: Mutex<Option<watch::Receiver<Option<String>>>>,
    /// How many of the child's output streams are still being read.
    reading: watch::Sender<usize>,
    /// Every message as the server sent it, until the client takes it.
    pub(crate) wire: super::wire::WireInbox,
    /// How to send a message by hand, beside rmcp, when the transport can.
    pub(crate) raw: super::raw::RawChannelSlot,
    /// How the server is reached over HTTP, for the checks of the transport.
    #[cfg(feature = "http")]
    pub(crate) http: super::raw::HttpAccessSlot,
    /// Streamable HTTP: the id of a response that came on a request's own stream under
    /// another id, by the request's id. rmcp ends the stream at it, so the answer is lost.
    misdirected: Mutex<HashMap<RequestId, Value>>,
    /// Why OAuth failed, kept for each request that was refused, by the number its error
    /// names.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    authorization: Mutex<HashMap<u64, Error>>,
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    authorization_failures: std::sync::atomic::AtomicU64,
    /// How many lines the child wrote to stderr so far, kept or not.
    stderr_written: std::sync::atomic::AtomicU64,
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
    #[cfg(feature = "http")]
    pub(crate) fn record_misdirected(&self, request: RequestId, answered: Value) {
        lock(&self.misdirected).entry(request).or_insert(answered);
    }

    /// The id of a response that came on this request's stream in its place, if one did.
    pub(crate) fn take_misdirected(&self, request: &RequestId) -> Option<Value> {
        lock(&self.misdirected).remove(request)
    }

    /// Keeps why OAuth failed (an [`Error::Authorization`]) for a refused request, whose
    /// error names the number returned.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub(crate) fn record_authorization(&self, error: Error) -> u64 {
        let id = self
            .authorization_failures
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        lock(&self.authorization).insert(id, error);
        id
    }

    /// Why OAuth failed for the request whose error names `id`.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub(crate) fn take_authorization(&self, id: u64) -> Option<Error> {
        lock(&self.authorization).remove(&id)
    }

    /// Keeps `line` of `stream`, dropping that stream's oldest line once it has
    /// [`TAIL_LINES`], so that a chatty stream does not push out the other.
    pub(crate) fn push_line(&self, stream: Stream, line: &str) {
        let mut lines = lock(&self.output);
        if stream == Stream::Stderr {
            self.stderr_written
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if lines.iter().filter(|(from, _)| *from == stream).count() == TAIL_LINES {
            let oldest = lines.iter().position(|(from, _)| *from == stream);
            lines.remove(oldest.unwrap_or_default());
        }
        lines.push_back((stream, quote(line)));
    }

    /// The last lines the child wrote to stderr; `None` when there is no child or it wrote
    /// nothing.
    pub(crate) fn stderr_tail(&self) -> Option<String> {
        self.tail(Some(Stream::Stderr))
    }

    /// Where stderr is now: [`stderr_since`](Self::stderr_since) gives what came after.
    #[cfg(feature = "fuzz")]
    pub(crate) fn stderr_mark(&self) -> u64 {
        self.stderr_written
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The lines the child wrote to stderr since `mark` (at most the last kept); `None`
    /// when it wrote none.
    #[cfg(feature = "fuzz")]
    pub(crate) fn stderr_since(&self, mark: u64) -> Option<String> {
        let lines = lock(&self.output);
        let written = self.stderr_mark().saturating_sub(mark);
        if written == 0 {
            return None;
        }
        let stderr: Vec<&str> = lines
            .iter()
            .filter(|(from, _)| *from == Stream::Stderr)
            .map(|(_, line)| line.as_str())
            .collect();
        let from = stderr
            .len()
            .saturating_sub(usize::try_from(written).unwrap_or(usize::MAX));
        Some(stderr[from..].join("\n"))
    }

    /// The last lines the child wrote to stdout, when stdout is not the protocol.
    pub(crate) fn stdout_tail(&self) -> Option<String> {
        self.tail(Some(Stream::Stdout))
    }

    /// The last lines of both streams, interleaved as they came.
    pub(crate) fn output_tail(&self) -> Option<String> {
        self.tail(None)
    }

    fn tail(&self, stream: Option<Stream>) -> Option<String> {
        let lines = lock(&self.output);
        let tail: Vec<&str> = lines
            .iter()
            .filter(|(from, _)| stream.is_none_or(|stream| *from == stream))
            .map(|(_, line)| line.as_str())
            .collect();
        (!tail.is_empty()).then(|| tail.join("\n"))
    }

    pub(crate) fn watch_exit(&self, exit: watch::Receiver<Option<String>>) {
        *lock(&self.exit) = Some(exit);
    }

    /// The child's exit status, waiting up to `grace` for it (stdout closes a moment before
    /// the exit can be reaped) and then, within the same `grace`, for what it printed last
    /// to be read, so that the tails are complete. `None` when there is no child or it is
    /// still running.
    pub(crate) async fn exit_status(&self, grace: Duration) -> Option<String> {
        let mut exit = lock(&self.exit).clone()?;
        let mut reading = self.reading.subscribe();
        let _ = tokio::time::timeout(grace, async {
            if exit.wait_for(Option::is_some).await.is_ok() {
                let _ = reading.wait_for(|open| *open == 0).await;
            }
        })
        .await;
        exit.borrow().clone()
    }

    /// Counts one more output stream being read, until the returned guard is dropped (at
    /// the end of the stream).
    pub(crate) fn reading(self: &Arc<Self>) -> Reading {
        self.reading.send_modify(|open| *open += 1);
        Reading(self.clone())
    }
}

/// One output stream of the child, still being read; see [`Diagnostics::reading`].
#[derive(Debug)]
pub(crate) struct Reading(Arc<Diagnostics>);

impl Reading {
    pub(crate) fn diagnostics(&self) -> &Diagnostics {
        &self.0
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        self.0.reading.send_modify(|open| *open -= 1);
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
            diagnostics.push_line(Stream::Stderr, &format!("line {i}"));
        }
        let tail = diagnostics.stderr_tail().unwrap();
        assert!(tail.starts_with("line 60\n"), "{tail}");
        assert!(tail.ends_with("line 99"), "{tail}");
    }

    #[test]
    #[cfg(feature = "fuzz")]
    fn stderr_since_a_mark_is_what_came_after_it() {
        let diagnostics = Diagnostics::new();
        diagnostics.push_line(Stream::Stderr, "before");
        let mark = diagnostics.stderr_mark();
        assert_eq!(diagnostics.stderr_since(mark), None);
        diagnostics.push_line(Stream::Stdout, "not stderr");
        diagnostics.push_line(Stream::Stderr, "after 1");
        diagnostics.push_line(Stream::Stderr, "after 2");
        assert_eq!(
            diagnostics.stderr_since(mark).as_deref(),
            Some("after 1\nafter 2")
        );
        for i in 0..100 {
            diagnostics.push_line(Stream::Stderr, &format!("line {i}"));
        }
        let since = diagnostics.stderr_since(mark).unwrap();
        assert!(since.starts_with("line 60\n"), "only what is kept: {since}");
    }

    #[test]
    fn each_stream_keeps_its_own_lines() {
        let diagnostics = Diagnostics::new();
        diagnostics.push_line(Stream::Stderr, "starting");
        for i in 0..100 {
            diagnostics.push_line(Stream::Stdout, &format!("request {i}"));
        }
        diagnostics.push_line(Stream::Stderr, "stopping");
        assert_eq!(diagnostics.stderr_tail().unwrap(), "starting\nstopping");
        let stdout = diagnostics.stdout_tail().unwrap();
        assert!(stdout.starts_with("request 60\n"), "{stdout}");
        let output = diagnostics.output_tail().unwrap();
        assert!(output.starts_with("starting\nrequest 60\n"), "{output}");
        assert!(output.ends_with("request 99\nstopping"), "{output}");
    }

    #[test]
    fn long_lines_are_cut() {
        let long = "x".repeat(5000);
        let quoted = quote(&long);
        assert!(quoted.ends_with("(5000 bytes in all)"), "{quoted}");
    }
}
