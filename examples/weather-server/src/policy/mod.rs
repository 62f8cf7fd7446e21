//! What a hybrid server enforces around every tool call, on both faces alike: the tool's
//! `permissions` (from the bearer token's scopes), its resource limits (`maxExecutionTime`,
//! `maxConcurrency`, `maxPayloadSize`, `maxMemory`, with the hybrid protocol's defaults) and
//! its lifecycle hooks. Each tool module declares its [`ToolPolicy`]; a server may override
//! any of it ([`Policies::with_overrides`], `--policy` on the command line).
//!
//! | what | REST | MCP |
//! | --- | --- | --- |
//! | a token without the tool's permissions | 403 `PERMISSION_ERROR` | tool error `PERMISSION_ERROR: …` |
//! | longer than `maxExecutionTime` (or `context.timeout`) | 504 `TIMEOUT_ERROR` | tool error `TIMEOUT_ERROR: …` |
//! | `maxConcurrency` calls already running, `onConcurrencyLimit: "reject"` | 429 `RATE_LIMIT_ERROR` | tool error `RATE_LIMIT_ERROR: …` |
//! | the same, `onConcurrencyLimit: "wait"` | waits for a place | waits for a place |
//! | the request over `maxPayloadSize` | 413 `VALIDATION_ERROR`, the tool not run | tool error `VALIDATION_ERROR: …`, the tool not run |
//! | the API's answer over `maxMemory` | 502 `EXECUTION_ERROR` | tool error `EXECUTION_ERROR: …` |
//!
//! An MCP refusal is a tool error (`isError: true`), not a JSON-RPC error: the request was
//! well formed, running it was refused. Its text starts with the code and its `_meta.error`
//! holds `{code, details}`, so a client can tell the codes apart as it can over REST.
//!
//! `maxMemory` cannot cap one task's heap in a Rust process; here it caps what a call may
//! hold of the weather API's answers, the memory a tool of this server grows with.

mod grants;
mod limits;
pub mod runner;

use serde_json::{Value, json};

pub use grants::{Grant, Grants};
pub use limits::{Limits, OnConcurrencyLimit, Policies, PolicyError, ToolPolicy};
pub use runner::Runner;

/// The hybrid protocol's error codes this layer answers with.
pub mod code {
    /// Insufficient permissions.
    pub const PERMISSION: &str = "PERMISSION_ERROR";
    /// Execution exceeded its time.
    pub const TIMEOUT: &str = "TIMEOUT_ERROR";
    /// Too many calls (here: `maxConcurrency` already running).
    pub const RATE_LIMIT: &str = "RATE_LIMIT_ERROR";
    /// The input cannot be accepted (here: over `maxPayloadSize`).
    pub const VALIDATION: &str = "VALIDATION_ERROR";
    /// The tool ran and failed.
    pub const EXECUTION: &str = "EXECUTION_ERROR";
}

/// A call refused or failed, with the hybrid protocol's code: REST answers it as the error
/// of its envelope, MCP as a tool error.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// One of [`code`]'s.
    pub code: &'static str,
    /// What happened, for the caller (and the model reading a tool error).
    pub message: String,
    /// What the caller needs to do better (the missing scopes, the limit), or null.
    pub details: Value,
}

impl Refusal {
    /// A refusal with `code`.
    pub fn new(code: &'static str, message: impl Into<String>, details: Value) -> Self {
        Self {
            code,
            message: message.into(),
            details,
        }
    }

    /// `PERMISSION_ERROR` without details.
    pub fn permission(message: impl Into<String>) -> Self {
        Self::new(code::PERMISSION, message, Value::Null)
    }

    /// `EXECUTION_ERROR`: the tool ran and failed, saying why.
    pub fn execution(message: impl Into<String>) -> Self {
        Self::new(code::EXECUTION, message, Value::Null)
    }

    /// The MCP form: a tool error whose text starts with the code, `_meta.error` holding
    /// `{code, details}`.
    pub fn to_tool_error(&self) -> rmcp::model::CallToolResult {
        let mut result = rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(
            format!("{}: {}", self.code, self.message),
        )]);
        let mut error = json!({ "code": self.code });
        if !self.details.is_null() {
            error["details"] = self.details.clone();
        }
        let mut meta = rmcp::model::MetaObject::default();
        meta.insert("error".to_owned(), error);
        result.meta = Some(meta);
        result
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
