//! The REST surface's JSON: the tool list of `GET /mcp/tools`, and the envelope every
//! `POST /mcp/tools/{name}/execute` answers with.

use std::{fmt, time::Duration};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A tool as `GET /mcp/tools` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RestTool {
    /// The tool's name, also the `{toolName}` of its execute endpoint.
    pub name: String,
    /// What the tool does.
    #[serde(default)]
    pub description: Option<String>,
    /// The JSON Schema of `params`.
    #[serde(rename = "inputSchema", default)]
    pub input_schema: Value,
    /// Version, author, category, tags and anything custom, as the server sent them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// The scopes a caller's token needs, as the server sent them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Value>,
    /// The tool's resource limits, as the server sent them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Value>,
}

impl RestTool {
    /// Its `metadata`, typed: version, author, category, tags, `deprecates`, `custom`, and
    /// what breaks the protocol's types in it.
    pub fn tool_metadata(&self) -> super::tool_metadata::ToolMetadata {
        super::tool_metadata::ToolMetadata::read(self.metadata.as_ref().unwrap_or(&Value::Null))
    }

    /// Its `permissions` and `limits`, typed, with the protocol's defaults for what it does
    /// not list, and what breaks the protocol's types in them.
    pub fn tool_policy(&self) -> super::tool_policy::ToolPolicy {
        super::tool_policy::ToolPolicy::read(self.permissions.as_ref(), self.limits.as_ref())
    }
}

/// The answer of `GET /mcp/tools`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RestToolList {
    /// The `version` field of the body, if any.
    pub version: Option<String>,
    /// The tools, in the server's order.
    pub tools: Vec<RestTool>,
    /// The `X-MCP-Version` header of the response, if any.
    pub protocol_version: Option<String>,
}

impl RestToolList {
    /// The tool called `name`.
    pub fn tool(&self, name: &str) -> Option<&RestTool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    /// The tools' names, in the server's order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|tool| tool.name.as_str()).collect()
    }
}

/// The error codes of the REST surface. A code the spec does not name is kept as
/// [`ErrorCode::Other`], not rejected.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `TOOL_NOT_FOUND`: no tool of that name.
    ToolNotFound,
    /// `VALIDATION_ERROR`: the params do not match the input schema.
    ValidationError,
    /// `EXECUTION_ERROR`: the tool ran and failed.
    ExecutionError,
    /// `TIMEOUT_ERROR`: the tool took longer than allowed.
    TimeoutError,
    /// `PERMISSION_ERROR`: the caller may not run the tool.
    PermissionError,
    /// `RATE_LIMIT_ERROR`: too many calls.
    RateLimitError,
    /// Any other code, as sent.
    Other(String),
}

impl ErrorCode {
    /// The code as it appears on the wire, e.g. `TOOL_NOT_FOUND`.
    pub fn as_str(&self) -> &str {
        match self {
            ErrorCode::ToolNotFound => "TOOL_NOT_FOUND",
            ErrorCode::ValidationError => "VALIDATION_ERROR",
            ErrorCode::ExecutionError => "EXECUTION_ERROR",
            ErrorCode::TimeoutError => "TIMEOUT_ERROR",
            ErrorCode::PermissionError => "PERMISSION_ERROR",
            ErrorCode::RateLimitError => "RATE_LIMIT_ERROR",
            ErrorCode::Other(code) => code,
        }
    }
}

impl From<&str> for ErrorCode {
    fn from(code: &str) -> Self {
        match code {
            "TOOL_NOT_FOUND" => ErrorCode::ToolNotFound,
            "VALIDATION_ERROR" => ErrorCode::ValidationError,
            "EXECUTION_ERROR" => ErrorCode::ExecutionError,
            "TIMEOUT_ERROR" => ErrorCode::TimeoutError,
            "PERMISSION_ERROR" => ErrorCode::PermissionError,
            "RATE_LIMIT_ERROR" => ErrorCode::RateLimitError,
            other => ErrorCode::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(ErrorCode::from(String::deserialize(deserializer)?.as_str()))
    }
}

/// The `error` of a failed execution. A `code` or `message` that is not a string is kept as
/// its JSON text (`5` as `"5"`), a missing one as `""`; `is_conforming_envelope` reports
/// either.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RestError {
    /// What kind of failure.
    #[serde(default = "no_code", deserialize_with = "lenient_code")]
    pub code: ErrorCode,
    /// What happened, in words.
    #[serde(default, deserialize_with = "lenient_text")]
    pub message: String,
    /// Anything more the server said (the offending field, say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

/// The `metadata` of an execution. A field of another type is `None` here (the raw value
/// stays in [`Execution::body`]; `is_conforming_envelope` checks it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Metadata {
    /// The server's id for this execution.
    #[serde(rename = "executionId", default, deserialize_with = "lenient")]
    pub execution_id: Option<String>,
    /// How long the tool ran, in milliseconds.
    #[serde(default, deserialize_with = "lenient")]
    pub duration: Option<f64>,
    /// When, as the server wrote it (ISO 8601).
    #[serde(default, deserialize_with = "lenient")]
    pub timestamp: Option<String>,
}

/// The field if it has the expected type, else `None`.
fn lenient<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let value = Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

fn no_code() -> ErrorCode {
    ErrorCode::Other(String::new())
}

/// The code if it is a string, else its JSON text.
fn lenient_code<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
    lenient_text(deserializer).map(|code| ErrorCode::from(code.as_str()))
}

/// The string, or the JSON text of anything else.
fn lenient_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => text,
        other => other.to_string(),
    })
}

/// What `POST /mcp/tools/{name}/execute` answered: the envelope, with the HTTP status and
/// headers that came with it. A failed execution (`success: false`) is an `Execution` too,
/// not an error: like a tool's `isError`, it is the server's answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Execution {
    /// The tool that was executed.
    pub tool: String,
    /// The HTTP status of the answer.
    pub status: u16,
    /// The envelope's `success`.
    pub success: bool,
    /// The envelope's `result`.
    pub result: Option<Value>,
    /// The envelope's `error`.
    pub error: Option<RestError>,
    /// The envelope's `metadata`.
    pub metadata: Option<Metadata>,
    /// The `X-MCP-Version` header of the response, if any.
    pub protocol_version: Option<String>,
    /// The `Retry-After` header (a 429 has one), if any.
    pub retry_after: Option<String>,
    /// The body as sent.
    pub body: Value,
}

#[derive(Deserialize)]
struct EnvelopeBody {
    success: bool,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<RestError>,
    #[serde(default)]
    metadata: Option<Metadata>,
}

impl Execution {
    /// The execution of `tool` that `body`, an envelope answered with HTTP `status`, stands
    /// for: what [`RestClient::execute`](crate::rest::RestClient::execute) returns, for envelopes
    /// from elsewhere (a recording, another client). Without the response's headers.
    ///
    /// ```
    /// use mcp_assured::rest::{ErrorCode, Execution};
    /// use serde_json::json;
    ///
    /// let body = json!({"success": false, "error": {"code": "TOOL_NOT_FOUND", "message": "no tool `x`"}});
    /// let execution = Execution::from_envelope("x", 404, body).unwrap();
    /// assert_eq!(execution.error_code(), Some(&ErrorCode::ToolNotFound));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::UnexpectedResponse`](crate::Error::UnexpectedResponse) if `body` is not an
    /// envelope: no boolean `success`, or an `error` or `metadata` that is not an object.
    pub fn from_envelope(
        tool: impl Into<String>,
        status: u16,
        body: Value,
    ) -> crate::error::Result<Self> {
        let tool = tool.into();
        let envelope = EnvelopeBody::deserialize(&body).map_err(|error| {
            crate::error::Error::UnexpectedResponse {
                method: format!("POST /mcp/tools/{tool}/execute"),
                detail: format!(
                    "{error}; expected the envelope {{\"success\": .., \"result\" | \"error\": .., \"metadata\": ..}}, got {}",
                    excerpt(&body.to_string())
                ),
            }
        })?;
        Ok(Execution {
            tool,
            status,
            success: envelope.success,
            result: envelope.result,
            error: envelope.error,
            metadata: envelope.metadata,
            protocol_version: None,
            retry_after: None,
            body,
        })
    }

    /// The error code of a failed execution.
    pub fn error_code(&self) -> Option<&ErrorCode> {
        self.error.as_ref().map(|error| &error.code)
    }
}

/// How urgent an execution is, for the `context` of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Priority {
    /// `low`
    Low,
    /// `normal`
    Normal,
    /// `high`
    High,
}

/// The optional `context` of an execution request.
///
/// ```
/// use std::time::Duration;
/// use mcp_assured::rest::{ExecutionContext, Priority};
///
/// let context = ExecutionContext::new()
///     .session_id("session-123")
///     .timeout(Duration::from_secs(30))
///     .priority(Priority::High);
/// assert_eq!(
///     serde_json::to_value(&context).unwrap(),
///     serde_json::json!({"sessionId": "session-123", "timeout": 30000, "priority": "high"})
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ExecutionContext {
    /// `sessionId`
    #[serde(rename = "sessionId", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `userId`
    #[serde(rename = "userId", skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// `timeout`, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    /// `priority`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
}

impl ExecutionContext {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `sessionId`.
    #[must_use]
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// Sets `userId`.
    #[must_use]
    pub fn user_id(mut self, id: impl Into<String>) -> Self {
        self.user_id = Some(id.into());
        self
    }

    /// Sets `timeout` (sent in milliseconds).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX));
        self
    }

    /// Sets `priority`.
    #[must_use]
    pub fn priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }
}

/// Longest body quoted in an error.
const QUOTED_BODY: usize = 1000;

/// `text`, cut to [`QUOTED_BODY`] characters, for an error that quotes a body.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(QUOTED_BODY) {
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_codes_are_kept() {
        let error: RestError =
            serde_json::from_value(serde_json::json!({"code": "QUOTA_EXCEEDED", "message": "m"}))
                .unwrap();
        assert_eq!(error.code, ErrorCode::Other("QUOTA_EXCEEDED".into()));
        assert_eq!(error.code.to_string(), "QUOTA_EXCEEDED");
        let known: ErrorCode = serde_json::from_value(serde_json::json!("TOOL_NOT_FOUND")).unwrap();
        assert_eq!(known, ErrorCode::ToolNotFound);
    }
}
