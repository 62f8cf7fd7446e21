//! What a [`Mock`](super::Mock) answers with: a result, a JSON-RPC error, or a failure on
//! cue (a delay, a hang, a dropped connection, a crash), with notifications and requests to
//! the client sent before the answer.

use std::{fmt, sync::Arc, time::Duration};

use serde_json::{Value, json};

use super::request::McpRequest;

/// The answer of a mock, and what the double does before it.
///
/// ```
/// use mcp_assured::double::Reply;
/// use serde_json::json;
/// use std::time::Duration;
///
/// let slow_search = Reply::structured(json!({"hits": 3}))
///     .progress(1.0, Some(2.0))
///     .log("info", json!("searching"))
///     .delay(Duration::from_millis(50));
/// ```
#[must_use]
#[derive(Clone)]
pub struct Reply {
    pub(crate) answer: Answer,
    pub(crate) delay: Option<Duration>,
    pub(crate) before: Vec<Effect>,
}

#[derive(Clone)]
pub(crate) enum Answer {
    Result(Value),
    Error {
        code: i32,
        message: String,
        data: Option<Value>,
    },
    /// Never answers (until the client cancels).
    Hang,
    /// Closes the connection the request came on (every open connection over HTTP; the
    /// relay's socket over stdio) without answering; the double keeps serving.
    DropConnection,
    /// Stops the double: every connection closed, no new one accepted.
    Crash,
    /// Asks the client, then answers with what `then` makes of its answer.
    AfterAsking {
        method: String,
        params: Value,
        then: Arc<dyn Fn(Result<Value, String>) -> Reply + Send + Sync>,
    },
}

/// Sent before the answer, in order.
#[derive(Debug, Clone)]
pub(crate) enum Effect {
    /// `notifications/progress`, when the request has a progress token.
    Progress {
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// `notifications/message`.
    Log { level: String, data: Value },
    /// Any notification.
    Notify { method: String, params: Value },
    /// A server→client request (`sampling/createMessage`, `elicitation/create`,
    /// `roots/list`); its answer is kept in [`MockServer::client_answers`](super::MockServer::client_answers).
    Ask { method: String, params: Value },
}

impl Reply {
    fn answering(answer: Answer) -> Reply {
        Reply {
            answer,
            delay: None,
            before: Vec::new(),
        }
    }

    /// A tool result with one text block.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply::result(json!({"content": [{"type": "text", "text": text.into()}]}))
    }

    /// A tool result with `structuredContent`, and the same JSON as a text block (as the
    /// specification asks for clients that read only text).
    pub fn structured(content: Value) -> Reply {
        Reply::result(json!({
            "content": [{"type": "text", "text": content.to_string()}],
            "structuredContent": content,
        }))
    }

    /// A tool result with `isError: true` and this text: a tool's own failure.
    pub fn tool_error(text: impl Into<String>) -> Reply {
        Reply::result(json!({
            "content": [{"type": "text", "text": text.into()}],
            "isError": true,
        }))
    }

    /// A `resources/read` result: one text resource.
    pub fn resource_text(uri: impl Into<String>, text: impl Into<String>) -> Reply {
        Reply::result(json!({
            "contents": [{"uri": uri.into(), "mimeType": "text/plain", "text": text.into()}]
        }))
    }

    /// A `prompts/get` result: one user message with this text.
    pub fn prompt_text(text: impl Into<String>) -> Reply {
        Reply::result(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": text.into()}}]
        }))
    }

    /// Any result, as JSON: what the method's result type is in the specification.
    pub fn result(result: Value) -> Reply {
        Reply::answering(Answer::Result(result))
    }

    /// A JSON-RPC error.
    pub fn error(code: i32, message: impl Into<String>) -> Reply {
        Reply::answering(Answer::Error {
            code,
            message: message.into(),
            data: None,
        })
    }

    /// A JSON-RPC error with `data`.
    pub fn error_with_data(code: i32, message: impl Into<String>, data: Value) -> Reply {
        Reply::answering(Answer::Error {
            code,
            message: message.into(),
            data: Some(data),
        })
    }

    /// No answer, ever (the request stays open until the client cancels it): for testing a
    /// server's timeouts.
    pub fn hang() -> Reply {
        Reply::answering(Answer::Hang)
    }

    /// Every connection of the double closed without an answer (not only the one the
    /// request came on); the double accepts the next ones. Over stdio each relay process
    /// exits, which the server under test sees as its upstream process ending. Over streamable HTTP every open connection is closed; a client may
    /// resume its session on a new connection (rmcp's does, SEP-1699) and then waits for an
    /// answer that never comes, so there the server under test's own timeout is what a test
    /// sees. [`crash`](Self::crash) is the upstream that is gone.
    pub fn drop_connection() -> Reply {
        Reply::answering(Answer::DropConnection)
    }

    /// The double stops: every connection closed and no new one accepted (over stdio, the
    /// relay exits and any relay started later exits at once).
    pub fn crash() -> Reply {
        Reply::answering(Answer::Crash)
    }

    /// Asks the client a server→client request (`sampling/createMessage`,
    /// `elicitation/create`, `roots/list`) and answers with what `then` makes of the
    /// client's result (`Err` with the error's text when the client refused or failed).
    pub fn after_asking(
        method: impl Into<String>,
        params: Value,
        then: impl Fn(Result<Value, String>) -> Reply + Send + Sync + 'static,
    ) -> Reply {
        Reply::answering(Answer::AfterAsking {
            method: method.into(),
            params,
            then: Arc::new(then),
        })
    }

    /// Waits this long before answering (after the notifications).
    pub fn delay(mut self, delay: Duration) -> Reply {
        self.delay = Some(delay);
        self
    }

    /// Sends `notifications/progress` first, when the request asked for progress (a
    /// `progressToken` in its `_meta`).
    pub fn progress(mut self, progress: f64, total: Option<f64>) -> Reply {
        self.before.push(Effect::Progress {
            progress,
            total,
            message: None,
        });
        self
    }

    /// Like [`progress`](Self::progress), with a message.
    pub fn progress_message(
        mut self,
        progress: f64,
        total: Option<f64>,
        message: impl Into<String>,
    ) -> Reply {
        self.before.push(Effect::Progress {
            progress,
            total,
            message: Some(message.into()),
        });
        self
    }

    /// Sends a log message (`notifications/message`) first: `level` is `debug`, `info`,
    /// `warning`, `error`, ...
    pub fn log(mut self, level: impl Into<String>, data: Value) -> Reply {
        self.before.push(Effect::Log {
            level: level.into(),
            data,
        });
        self
    }

    /// Sends any notification first.
    pub fn notify(mut self, method: impl Into<String>, params: Value) -> Reply {
        self.before.push(Effect::Notify {
            method: method.into(),
            params,
        });
        self
    }

    /// Sends `notifications/tools/list_changed` first.
    pub fn tools_changed(self) -> Reply {
        self.notify("notifications/tools/list_changed", json!({}))
    }

    /// Asks the client first and answers as given whatever it says; the client's answer is
    /// kept in [`MockServer::client_answers`](super::MockServer::client_answers). Sessions
    /// on protocol 2026-07-28 forbid server→client requests: there the answer kept is the
    /// refusal (pin 2025-11-25 in such tests).
    pub fn ask(mut self, method: impl Into<String>, params: Value) -> Reply {
        self.before.push(Effect::Ask {
            method: method.into(),
            params,
        });
        self
    }
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answer = match &self.answer {
            Answer::Result(result) => format!("result {result}"),
            Answer::Error { code, message, .. } => format!("error {code} {message:?}"),
            Answer::Hang => "hang".to_owned(),
            Answer::DropConnection => "dropped connection".to_owned(),
            Answer::Crash => "crash".to_owned(),
            Answer::AfterAsking { method, .. } => format!("after asking {method}"),
        };
        f.debug_struct("Reply")
            .field("answer", &answer)
            .field("delay", &self.delay)
            .field("before", &self.before)
            .finish()
    }
}

/// What makes a mock's [`Reply`] for a request: a `Reply` (the same each time) or a
/// closure `Fn(&McpRequest) -> Reply` (echo the arguments back, count, ...).
pub trait Respond: Send + Sync + 'static {
    /// The reply to `request`.
    fn respond(&self, request: &McpRequest) -> Reply;
}

impl Respond for Reply {
    fn respond(&self, _request: &McpRequest) -> Reply {
        self.clone()
    }
}

impl<F> Respond for F
where
    F: Fn(&McpRequest) -> Reply + Send + Sync + 'static,
{
    fn respond(&self, request: &McpRequest) -> Reply {
        self(request)
    }
}
