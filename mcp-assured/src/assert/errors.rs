//! Checks on a failed request: its JSON-RPC code and message.

use std::fmt::Debug;

use super::failure::{AssertionError, Failure, check};
use crate::error::{Error, code};

/// Checks on an [`Error`]; from `result.assert_err()` or `error.assert()`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> mcp_assured::Result<()> {
/// use mcp_assured::{McpAssured, code, prelude::*};
/// use mcp_assured_examples::ExampleServer;
/// use serde_json::json;
///
/// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
/// client
///     .call_tool("unknown-tool", json!({}))
///     .await
///     .assert_err()
///     .has_code(code::INVALID_PARAMS)
///     .message_contains("not found");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ErrorAssert<'a> {
    error: &'a Error,
}

/// `.assert()` on an error.
pub trait AssertError {
    /// Starts a chain of checks on the error.
    fn assert(&self) -> ErrorAssert<'_>;
}

impl AssertError for Error {
    fn assert(&self) -> ErrorAssert<'_> {
        ErrorAssert { error: self }
    }
}

/// `.assert_err()` on a client call's result.
pub trait AssertResult {
    /// The call failed; continues with checks on its error. Panics, showing the value, if it
    /// succeeded.
    #[track_caller]
    fn assert_err(&self) -> ErrorAssert<'_> {
        check(self.try_assert_err())
    }

    /// [`assert_err`](Self::assert_err), returning the failure.
    fn try_assert_err(&self) -> Result<ErrorAssert<'_>, AssertionError>;
}

impl<T: Debug> AssertResult for Result<T, Error> {
    fn try_assert_err(&self) -> Result<ErrorAssert<'_>, AssertionError> {
        match self {
            Err(error) => Ok(ErrorAssert { error }),
            Ok(value) => Failure::new("Expected the call to fail, but it succeeded.")
                .block("value", format!("{value:#?}"))
                .err(),
        }
    }
}

impl ErrorAssert<'_> {
    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline).block("error", self.error)
    }

    /// The error is a JSON-RPC error with this code (see [`code`]).
    #[track_caller]
    pub fn has_code(self, expected: i32) -> Self {
        check(self.try_has_code(expected))
    }

    /// [`has_code`](Self::has_code), returning the failure.
    pub fn try_has_code(self, expected: i32) -> Result<Self, AssertionError> {
        let name = |c: i32| {
            code::name(c)
                .map(|n| format!("{c} ({n})"))
                .unwrap_or_else(|| c.to_string())
        };
        match self.error.code() {
            Some(actual) if actual == expected => Ok(self),
            Some(actual) => self
                .failure(format!(
                    "Expected JSON-RPC error {}, but the server answered {}.",
                    name(expected),
                    name(actual)
                ))
                .err(),
            None => self
                .failure(format!(
                    "Expected JSON-RPC error {}, but the call failed otherwise.",
                    name(expected)
                ))
                .err(),
        }
    }

    /// The error's message (for a JSON-RPC error, the server's message) contains `needle`.
    #[track_caller]
    pub fn message_contains(self, needle: &str) -> Self {
        check(self.try_message_contains(needle))
    }

    /// [`message_contains`](Self::message_contains), returning the failure.
    pub fn try_message_contains(self, needle: &str) -> Result<Self, AssertionError> {
        let message = match self.error {
            Error::JsonRpc { message, .. } => message.clone(),
            other => other.to_string(),
        };
        if !message.contains(needle) {
            return self
                .failure(format!("Expected the error message to contain `{needle}`."))
                .err();
        }
        Ok(self)
    }

    /// The error's message (for a JSON-RPC error, the server's message) is exactly
    /// `expected`, as a contract words it: `Tool 'x' not found`.
    #[track_caller]
    pub fn message_equals(self, expected: &str) -> Self {
        check(self.try_message_equals(expected))
    }

    /// [`message_equals`](Self::message_equals), returning the failure.
    pub fn try_message_equals(self, expected: &str) -> Result<Self, AssertionError> {
        let message = match self.error {
            Error::JsonRpc { message, .. } => message.clone(),
            other => other.to_string(),
        };
        if message != expected {
            return self
                .failure(format!("Expected the error message to be `{expected}`."))
                .err();
        }
        Ok(self)
    }

    /// The error is a timeout.
    #[track_caller]
    pub fn is_timeout(self) -> Self {
        check(self.try_is_timeout())
    }

    /// [`is_timeout`](Self::is_timeout), returning the failure.
    pub fn try_is_timeout(self) -> Result<Self, AssertionError> {
        if !self.error.is_timeout() {
            return self.failure("Expected a timeout.".to_owned()).err();
        }
        Ok(self)
    }
}
