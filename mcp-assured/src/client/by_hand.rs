//! Messages sent by hand, beside rmcp: exactly the JSON given, so a test (or a check) can
//! see how a server copes with what rmcp never sends.

use std::time::Duration;

#[cfg(feature = "http")]
use futures::StreamExt;
use rmcp::model::RequestId;
use serde_json::Value;

use super::McpClient;
#[cfg(feature = "http")]
use crate::transport::raw::{HttpPost, answer_in_body};
use crate::{
    error::{Error, Result},
    transport::{
        raw::{RawAnswer, RawChannel},
        wire::{AnswerId, Key},
    },
};

/// How often an answer on the pipe is looked for.
const LOOK_EVERY: Duration = Duration::from_millis(5);
/// The most of an HTTP answer read.
#[cfg(feature = "http")]
const MAX_BODY: usize = 16 * 1024 * 1024;

impl McpClient {
    /// Sends `message` (a whole JSON-RPC message, `jsonrpc` and `id` included) exactly as
    /// given, beside rmcp, and returns what came back, up to the client's timeout: over
    /// stdio and in process on the session's own pipe; over streamable HTTP as a POST of
    /// its own with the connection's headers (credentials, custom headers), the revision's
    /// `MCP-Protocol-Version`, and on 2026-07-28 the standard `Mcp-Method` and `Mcp-Name`
    /// (without a session: use it on sessionless servers, as 2026-07-28 ones are).
    /// HTTP+SSE and OAuth connections are not supported (the token is rmcp's). A message
    /// without both `method` and `id` (a notification, a response) gets no answer; on a pipe
    /// a request's id must be a string, as rmcp numbers its own requests.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// use serde_json::json;
    /// // A request without the per-request metadata 2026-07-28 requires:
    /// let answer = client
    ///     .send_raw(json!({"jsonrpc": "2.0", "id": "bare-1", "method": "tools/list"}))
    ///     .await?;
    /// assert_eq!(answer.error_code(), Some(-32602));
    /// # Ok(()) }
    /// ```
    pub async fn send_raw(&self, message: Value) -> Result<RawAnswer> {
        self.send_raw_with_headers(message, &[]).await
    }

    /// [`send_raw`](Self::send_raw), with HTTP headers changed: `(name, Some(value))` set,
    /// `(name, None)` left out. Ignored on a pipe.
    pub async fn send_raw_with_headers(
        &self,
        message: Value,
        #[cfg_attr(not(feature = "http"), allow(unused_variables))] headers: &[(
            &str,
            Option<&str>,
        )],
    ) -> Result<RawAnswer> {
        let method = describe(&message);
        match self.diagnostics().raw.get() {
            Some(RawChannel::Lines(write)) => {
                let is_request = message.get("method").is_some();
                let id = message.get("id").cloned().filter(|_| is_request);
                if let Some(id) = &id {
                    if !id.is_string() {
                        return Err(Error::invalid(
                            "send_raw",
                            format!(
                                "the id {id} is a number, and rmcp numbers the session's own \
                                 requests: give a string id (e.g. \"by-hand-1\") so the answers \
                                 cannot be confused"
                            ),
                        ));
                    }
                    if let Ok(id) = serde_json::from_value::<RequestId>(id.clone()) {
                        // Its answer is expected: not a stray one.
                        self.harness().state.stray_responses.sent_by_hand(&id);
                    }
                }
                let mut line = serde_json::to_vec(&message)
                    .map_err(|error| Error::invalid("message", error.to_string()))?;
                line.push(b'\n');
                write(line)
                    .await
                    .map_err(|error| Error::UnexpectedResponse {
                        method: method.clone(),
                        detail: format!("could not write it: {error}"),
                    })?;
                let Some(id) = id else {
                    return Ok(RawAnswer::new(None, None));
                };
                self.answer_on_the_pipe(&id, &method).await
            }
            #[cfg(feature = "http")]
            Some(RawChannel::Http(post)) if post.oauth => Err(Error::invalid(
                "send_raw",
                "the connection authorizes with OAuth, whose token rmcp holds: a message sent by \
                 hand would go without it",
            )),
            #[cfg(feature = "http")]
            Some(RawChannel::Http(post)) => {
                self.post_by_hand(post, &message, headers, &method).await
            }
            None => Err(Error::invalid(
                "send_raw",
                "this transport cannot send a message by hand (HTTP+SSE cannot); use stdio, \
                 in process or streamable HTTP",
            )),
        }
    }

    async fn answer_on_the_pipe(&self, id: &Value, method: &str) -> Result<RawAnswer> {
        let key = Key::Answer(AnswerId::of(id.clone()));
        // A server that could not read the request answers under `null`.
        let unread = Key::Answer(AnswerId::of(Value::Null));
        let deadline = tokio::time::Instant::now() + self.timeout();
        loop {
            let wire = &self.diagnostics().wire;
            if let Some(text) = wire.take(&key).or_else(|| wire.take(&unread)) {
                return Ok(RawAnswer::new(None, serde_json::from_str(&text).ok()));
            }
            if tokio::time::Instant::now() >= deadline || self.is_closed() {
                return Err(Error::Timeout {
                    method: method.to_owned(),
                    timeout: self.timeout(),
                    stderr_tail: self.stderr_tail(),
                });
            }
            tokio::time::sleep(LOOK_EVERY).await;
        }
    }

    #[cfg(feature = "http")]
    async fn post_by_hand(
        &self,
        post: &HttpPost,
        message: &Value,
        changes: &[(&str, Option<&str>)],
        method: &str,
    ) -> Result<RawAnswer> {
        let standard = if self.discovery().is_some() {
            standard_headers(message)
        } else {
            Vec::new()
        };
        let mut all: Vec<(&str, Option<&str>)> =
            vec![("mcp-protocol-version", Some(self.protocol_version()))];
        all.extend(
            standard
                .iter()
                .map(|(name, value)| (name.as_str(), Some(value.as_str()))),
        );
        all.extend_from_slice(changes);
        let headers = post.headers_with(&all);
        let mut request = post.client.post(&post.url).json(message);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let failed = |error: reqwest::Error| Error::UnexpectedResponse {
            method: method.to_owned(),
            detail: crate::transport::describe_request_error(&error),
        };
        let response = tokio::time::timeout(self.timeout(), request.send())
            .await
            .map_err(|_| self.timed_out(method))?
            .map_err(failed)?;
        let status = response.status().as_u16();
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        // Read until the answer is in (an SSE stream may stay open after it), or the end.
        let mut chunks = response.bytes_stream();
        let mut body = Vec::new();
        let read = async {
            while let Some(chunk) = chunks.next().await {
                body.extend_from_slice(&chunk.map_err(failed)?);
                if body.len() > MAX_BODY {
                    break;
                }
                let text = String::from_utf8_lossy(&body);
                if serde_json::from_str::<Value>(&text).is_err()
                    && answer_in_body(&text, &id).is_some()
                {
                    break;
                }
            }
            Ok::<_, Error>(())
        };
        tokio::time::timeout(self.timeout(), read)
            .await
            .map_err(|_| self.timed_out(method))??;
        let answer = answer_in_body(&String::from_utf8_lossy(&body), &id);
        Ok(RawAnswer::new(Some(status), answer))
    }

    #[cfg(feature = "http")]
    fn timed_out(&self, method: &str) -> Error {
        Error::Timeout {
            method: method.to_owned(),
            timeout: self.timeout(),
            stderr_tail: self.stderr_tail(),
        }
    }
}

/// `Mcp-Method`, and `Mcp-Name` for the methods that name what they act on (SEP-2243).
#[cfg(feature = "http")]
fn standard_headers(message: &Value) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return headers;
    };
    headers.push(("mcp-method".into(), method.to_owned()));
    let name = match method {
        "tools/call" | "prompts/get" => message.pointer("/params/name"),
        "resources/read" => message.pointer("/params/uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => message.pointer("/params/taskId"),
        _ => None,
    };
    // A value a header cannot carry as it is (rmcp would encode it) is left out.
    let plain = |name: &&str| {
        name.bytes().all(|b| b.is_ascii_graphic() || b == b' ') && name.trim() == *name
    };
    if let Some(name) = name.and_then(Value::as_str).filter(plain) {
        headers.push(("mcp-name".into(), name.to_owned()));
    }
    headers
}

/// `tools/list (sent by hand)`, for messages.
fn describe(message: &Value) -> String {
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("a message");
    format!("{method} (sent by hand)")
}
