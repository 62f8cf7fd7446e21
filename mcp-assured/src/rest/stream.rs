//! [`ExecutionStream`]: a streamed execution read line by line as it comes.

use std::time::{Duration, Instant};

use reqwest::Response;
use serde_json::Value;

use crate::{
    error::{Error, Result},
    results::{
        rest::{Execution, excerpt},
        rest_stream::{StreamEvent, StreamedExecution, TimedEvent},
    },
};

/// The media type of a streamed execution: one JSON object a line.
pub const NDJSON: &str = "application/x-ndjson";

/// A streamed execution of
/// [`RestClient::execute_streaming`](super::RestClient::execute_streaming): call
/// [`next`](Self::next) for each line as it arrives (`None` once the envelope came), then
/// [`finish`](Self::finish) for the envelope. Each line must arrive within the client's
/// timeout of the one before; the whole stream may take longer.
#[derive(Debug)]
pub struct ExecutionStream {
    tool: String,
    request: String,
    status: u16,
    protocol_version: Option<String>,
    retry_after: Option<String>,
    started: Instant,
    timeout: Duration,
    /// The response still being read; `None` once done.
    response: Option<Response>,
    /// Bytes of a line not yet ended.
    pending: Vec<u8>,
    events: Vec<TimedEvent>,
    /// The envelope, once read.
    finished: Option<(Execution, Duration)>,
    streamed: bool,
}

impl ExecutionStream {
    pub(super) fn new(
        tool: &str,
        request: String,
        response: Response,
        started: Instant,
        timeout: Duration,
    ) -> Self {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let streamed = header(reqwest::header::CONTENT_TYPE.as_str())
            .is_some_and(|content_type| content_type.starts_with(NDJSON));
        Self {
            tool: tool.to_owned(),
            request,
            status: response.status().as_u16(),
            protocol_version: header(super::VERSION_HEADER),
            retry_after: header(reqwest::header::RETRY_AFTER.as_str()),
            started,
            timeout,
            response: Some(response),
            pending: Vec::new(),
            events: Vec::new(),
            finished: None,
            streamed,
        }
    }

    /// Whether the server answered with JSON lines (`false`: one plain envelope, which
    /// [`finish`](Self::finish) returns).
    pub fn is_streamed(&self) -> bool {
        self.streamed
    }

    /// The next line before the envelope, as soon as it arrives; `None` once the envelope
    /// came (or at once, for a plain answer).
    ///
    /// # Errors
    ///
    /// A line that is not a JSON object ([`Error::Undecodable`]), no line within the
    /// timeout ([`Error::Timeout`]), a connection lost mid-stream, or a stream that ended
    /// without its envelope ([`Error::UnexpectedResponse`]).
    pub async fn next(&mut self) -> Result<Option<StreamEvent>> {
        loop {
            if self.finished.is_some() {
                return Ok(None);
            }
            if !self.streamed {
                let body = self.read_all().await?;
                let execution = self.envelope(&body)?;
                self.finished = Some((execution, self.started.elapsed()));
                return Ok(None);
            }
            if let Some(end) = self.pending.iter().position(|&byte| byte == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let line = String::from_utf8_lossy(&line).trim().to_owned();
                if line.is_empty() {
                    continue;
                }
                if let Some(event) = self.line(&line)? {
                    return Ok(Some(event));
                }
                continue;
            }
            match self.chunk().await? {
                Some(chunk) => self.pending.extend_from_slice(&chunk),
                None if self.pending.iter().any(|byte| !byte.is_ascii_whitespace()) => {
                    // A last line without its newline.
                    self.pending.push(b'\n');
                }
                None => {
                    return Err(Error::UnexpectedResponse {
                        method: self.request.clone(),
                        detail: format!(
                            "the stream ended after {} line(s) without its last line, the envelope {{\"type\":\"result\",\"success\":..}}",
                            self.events.len()
                        ),
                    });
                }
            }
        }
    }

    /// Reads what is left and returns the whole execution: every line, timed, and the
    /// envelope.
    ///
    /// # Errors
    ///
    /// As [`next`](Self::next).
    pub async fn finish(mut self) -> Result<StreamedExecution> {
        while self.next().await?.is_some() {}
        let (execution, finished_at) = self.finished.take().expect("next() ended: the envelope");
        Ok(StreamedExecution {
            streamed: self.streamed,
            events: self.events,
            execution,
            finished_at,
        })
    }

    /// One line: an event (kept and returned), or the envelope (kept; `None`).
    fn line(&mut self, line: &str) -> Result<Option<StreamEvent>> {
        let value: Value = serde_json::from_str(line).map_err(|error| Error::Undecodable {
            line: excerpt(line),
            reason: format!("a line of a streamed execution is not JSON: {error}"),
            method: Some(self.request.clone()),
            stderr_tail: None,
        })?;
        let at = self.started.elapsed();
        let event = match value.get("type").and_then(Value::as_str) {
            Some("result") => {
                let mut envelope = value;
                if let Value::Object(fields) = &mut envelope {
                    fields.remove("type");
                }
                let execution = self.execution(envelope)?;
                self.finished = Some((execution, at));
                return Ok(None);
            }
            Some("progress") => StreamEvent::Progress {
                progress: value.get("progress").and_then(Value::as_f64).unwrap_or(0.0),
                total: value.get("total").and_then(Value::as_f64),
                message: value
                    .get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            },
            Some("item") => StreamEvent::Item(value.get("item").cloned().unwrap_or(Value::Null)),
            _ => StreamEvent::Other(value),
        };
        self.events.push(TimedEvent {
            at,
            event: event.clone(),
        });
        Ok(Some(event))
    }

    fn envelope(&self, body: &[u8]) -> Result<Execution> {
        let text = String::from_utf8_lossy(body);
        let json: Value = serde_json::from_str(&text).map_err(|error| Error::Undecodable {
            line: excerpt(&text),
            reason: format!(
                "HTTP {} is neither JSON lines nor an envelope: {error}",
                self.status
            ),
            method: Some(self.request.clone()),
            stderr_tail: None,
        })?;
        self.execution(json)
    }

    fn execution(&self, envelope: Value) -> Result<Execution> {
        let mut execution = Execution::from_envelope(&self.tool, self.status, envelope)?;
        execution.protocol_version = self.protocol_version.clone();
        execution.retry_after = self.retry_after.clone();
        Ok(execution)
    }

    async fn chunk(&mut self) -> Result<Option<bytes::Bytes>> {
        let Some(response) = self.response.as_mut() else {
            return Ok(None);
        };
        match tokio::time::timeout(self.timeout, response.chunk()).await {
            Err(_) => Err(Error::Timeout {
                method: format!("{} (the next line of its stream)", self.request),
                timeout: self.timeout,
                stderr_tail: None,
            }),
            Ok(Err(error)) => Err(Error::Transport {
                method: Some(self.request.clone()),
                status: Some(self.status),
                reason: format!(
                    "the stream broke off: {}",
                    crate::transport::describe_request_error(&error)
                ),
            }),
            Ok(Ok(Some(chunk))) => Ok(Some(chunk)),
            Ok(Ok(None)) => {
                self.response = None;
                Ok(None)
            }
        }
    }

    async fn read_all(&mut self) -> Result<Vec<u8>> {
        let mut body = std::mem::take(&mut self.pending);
        while let Some(chunk) = self.chunk().await? {
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}
