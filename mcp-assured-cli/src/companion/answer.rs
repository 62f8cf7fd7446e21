//! The envelope every tool answers with: `success`, the `connection` used, the tool's own
//! fields, `error {type, message, details, suggestion}` on failure, and `metadata` with
//! `request_time_ms`. Sent as structured content and, for clients that read only text (MCP
//! says a tool with structured content should), as the same JSON serialised in a text block.

use std::time::Instant;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

use super::{
    clock::millis_since,
    errors::ErrorType,
    state::{Connection, Stats},
};

/// Boxed: answers travel in `Err` variants of the tools' argument checks.
#[derive(Debug)]
pub(crate) struct Answer(Box<Parts>);

#[derive(Debug)]
struct Parts {
    started: Instant,
    connection: Option<Value>,
    fields: Map<String, Value>,
    metadata: Map<String, Value>,
    error: Option<Value>,
}

impl Answer {
    /// An answer to a request that started at `started`.
    pub(crate) fn new(started: Instant) -> Self {
        Self(Box::new(Parts {
            started,
            connection: None,
            fields: Map::new(),
            metadata: Map::new(),
            error: None,
        }))
    }

    pub(crate) fn connection(mut self, connection: &Connection) -> Self {
        self.0.connection = Some(connection.summary());
        self
    }

    pub(crate) fn field(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.fields.insert(key.to_owned(), value.into());
        self
    }

    pub(crate) fn meta(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.metadata.insert(key.to_owned(), value.into());
        self
    }

    /// Makes this a failure of `kind`, with everything known about it in `details`.
    pub(crate) fn error(
        mut self,
        kind: ErrorType,
        message: impl Into<String>,
        details: Value,
    ) -> Self {
        self.0.error = Some(json!({
            "type": kind.name(),
            "message": message.into(),
            "details": details,
            "suggestion": kind.suggestion(),
        }));
        self
    }

    /// Counts a failure against the connection's statistics.
    pub(crate) fn counted(self, connection: &Connection) -> Self {
        Stats::count(&connection.stats.requests);
        if self.0.error.is_some() {
            Stats::count(&connection.stats.errors);
        }
        self
    }

    pub(crate) fn is_error(&self) -> bool {
        self.0.error.is_some()
    }

    /// The envelope as JSON.
    pub(crate) fn json(self) -> Value {
        let Parts {
            started,
            connection,
            fields,
            mut metadata,
            error,
        } = *self.0;
        let mut envelope = Map::new();
        envelope.insert("success".into(), json!(error.is_none()));
        if let Some(error) = error {
            envelope.insert("error".into(), error);
        }
        envelope.insert("connection".into(), connection.unwrap_or(Value::Null));
        envelope.extend(fields);
        metadata.insert("request_time_ms".into(), json!(millis_since(started)));
        envelope.insert("metadata".into(), Value::Object(metadata));
        Value::Object(envelope)
    }

    pub(crate) fn into_result(self) -> CallToolResult {
        let failed = self.is_error();
        let envelope = self.json();
        // Compact: the same JSON, every field of it, in fewer bytes for the caller to read
        // (and fewer tokens for an assistant) than pretty-printed.
        let text = serde_json::to_string(&envelope).unwrap_or_else(|_| envelope.to_string());
        let mut result = if failed {
            CallToolResult::error(vec![ContentBlock::text(text)])
        } else {
            CallToolResult::success(vec![ContentBlock::text(text)])
        };
        result.structured_content = Some(envelope);
        result
    }
}
