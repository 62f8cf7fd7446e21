//! Checks on a REST [`Execution`]: the same names as on MCP tool results where the meaning is
//! the same (`is_success`, `text_contains`, `json_at`, `result_equals` ~ `structured_equals`,
//! `result_contains` ~ `structured_contains`), plus what only REST has (`has_error_code`,
//! `has_status`, `is_conforming_envelope`).

use serde::Serialize;
use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check},
    json,
};
use crate::results::rest::{ErrorCode, Execution};

/// Chained checks on one REST execution; made by [`AssertExecution::assert`].
#[derive(Debug)]
pub struct ExecutionAssert<'a> {
    execution: &'a Execution,
}

/// `.assert()` on a REST execution.
///
/// ```
/// use mcp_assured::prelude::*;
/// use mcp_assured::rest::{ErrorCode, Execution};
/// # fn demo(weather: Execution, unknown: Execution) {
/// weather
///     .assert()
///     .is_success()
///     .has_status(200)
///     .json_at("/temperature", 15)
///     .result_contains(serde_json::json!({"city": "London"}));
/// unknown.assert().has_error_code(ErrorCode::ToolNotFound).message_contains("no tool");
/// # }
/// ```
pub trait AssertExecution {
    /// Starts a chain of checks on the execution.
    fn assert(&self) -> ExecutionAssert<'_>;
}

impl AssertExecution for Execution {
    fn assert(&self) -> ExecutionAssert<'_> {
        ExecutionAssert { execution: self }
    }
}

impl ExecutionAssert<'_> {
    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline)
            .fact("tool", &self.execution.tool)
            .fact("HTTP status", self.execution.status)
            .json("envelope", &self.execution.body)
    }

    fn tool(&self) -> &str {
        &self.execution.tool
    }

    /// The result as text: a string result as is, anything else as JSON.
    fn text(&self) -> String {
        match &self.execution.result {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        }
    }

    /// The answer is an envelope as the spec writes it: `metadata` with a string
    /// `executionId`, a number `duration` and an RFC 3339 `timestamp`; an `error` with a
    /// string `code` and `message` when, and only when, `success` is false.
    #[track_caller]
    pub fn is_conforming_envelope(self) -> Self {
        check(self.try_is_conforming_envelope())
    }

    /// [`is_conforming_envelope`](Self::is_conforming_envelope), returning the failure.
    pub fn try_is_conforming_envelope(self) -> Result<Self, AssertionError> {
        let problems = envelope_problems(&self.execution.body);
        if problems.is_empty() {
            return Ok(self);
        }
        self.failure(format!(
            "Expected tool `{}` to answer with a conforming REST envelope, but {}.",
            self.tool(),
            problems.join("; ")
        ))
        .err()
    }

    /// `success` is true.
    #[track_caller]
    pub fn is_success(self) -> Self {
        check(self.try_is_success())
    }

    /// [`is_success`](Self::is_success), returning the failure.
    pub fn try_is_success(self) -> Result<Self, AssertionError> {
        if self.execution.success {
            return Ok(self);
        }
        let code = self
            .execution
            .error_code()
            .map_or("no error code".to_owned(), ErrorCode::to_string);
        self.failure(format!(
            "Expected tool `{}` to succeed over REST, but it failed with {code}.",
            self.tool()
        ))
        .err()
    }

    /// `success` is false with `error.code` equal to `code`.
    #[track_caller]
    pub fn has_error_code(self, code: ErrorCode) -> Self {
        check(self.try_has_error_code(code))
    }

    /// [`has_error_code`](Self::has_error_code), returning the failure.
    pub fn try_has_error_code(self, code: ErrorCode) -> Result<Self, AssertionError> {
        match self.execution.error_code() {
            Some(actual) if *actual == code && !self.execution.success => Ok(self),
            Some(actual) => self
                .failure(format!(
                    "Expected tool `{}` to fail with {code} over REST, but it failed with {actual}.",
                    self.tool()
                ))
                .err(),
            None => self
                .failure(format!(
                    "Expected tool `{}` to fail with {code} over REST, but the envelope has no error.",
                    self.tool()
                ))
                .err(),
        }
    }

    /// `error.message` contains `needle`.
    #[track_caller]
    pub fn message_contains(self, needle: &str) -> Self {
        check(self.try_message_contains(needle))
    }

    /// [`message_contains`](Self::message_contains), returning the failure.
    pub fn try_message_contains(self, needle: &str) -> Result<Self, AssertionError> {
        let message = self
            .execution
            .error
            .as_ref()
            .map(|error| error.message.as_str());
        let came = match message {
            Some(message) if message.contains(needle) => return Ok(self),
            Some(message) => format!("it is `{message}`"),
            None => "the envelope has no error".to_owned(),
        };
        self.failure(format!(
            "Expected the error message of tool `{}` to contain `{needle}`, but {came}.",
            self.tool()
        ))
        .err()
    }

    /// The HTTP status is `status`.
    #[track_caller]
    pub fn has_status(self, status: u16) -> Self {
        check(self.try_has_status(status))
    }

    /// [`has_status`](Self::has_status), returning the failure.
    pub fn try_has_status(self, status: u16) -> Result<Self, AssertionError> {
        if self.execution.status == status {
            return Ok(self);
        }
        self.failure(format!(
            "Expected HTTP {status} from tool `{}`, got HTTP {}.",
            self.tool(),
            self.execution.status
        ))
        .err()
    }

    /// The result, as text, contains `needle`.
    #[track_caller]
    pub fn text_contains(self, needle: &str) -> Self {
        check(self.try_text_contains(needle))
    }

    /// [`text_contains`](Self::text_contains), returning the failure.
    pub fn try_text_contains(self, needle: &str) -> Result<Self, AssertionError> {
        if self.text().contains(needle) {
            return Ok(self);
        }
        self.failure(format!(
            "Expected the result of tool `{}` to contain `{needle}`.",
            self.tool()
        ))
        .err()
    }

    /// The value at the JSON `pointer` of the result equals `expected`.
    #[track_caller]
    pub fn json_at(self, pointer: &str, expected: impl Serialize) -> Self {
        check(self.try_json_at(pointer, expected))
    }

    /// [`json_at`](Self::json_at), returning the failure.
    pub fn try_json_at(
        self,
        pointer: &str,
        expected: impl Serialize,
    ) -> Result<Self, AssertionError> {
        let expected = serde_json::to_value(expected).unwrap_or(Value::Null);
        let result = self.execution.result.as_ref().unwrap_or(&Value::Null);
        match json::check_at("result", self.tool(), result, pointer, &expected) {
            Ok(()) => Ok(self),
            Err(headline) => self.failure(headline).err(),
        }
    }

    /// The result equals `expected` (a diff shows the difference).
    #[track_caller]
    pub fn result_equals(self, expected: impl Serialize) -> Self {
        check(self.try_result_equals(expected))
    }

    /// [`result_equals`](Self::result_equals), returning the failure.
    pub fn try_result_equals(self, expected: impl Serialize) -> Result<Self, AssertionError> {
        let expected = serde_json::to_value(expected).unwrap_or(Value::Null);
        let actual = self.execution.result.as_ref().unwrap_or(&Value::Null);
        json::expect_equal("result", self.tool(), &expected, actual)?;
        Ok(self)
    }

    /// The result contains `subset`: every key given, with a containing value.
    #[track_caller]
    pub fn result_contains(self, subset: impl Serialize) -> Self {
        check(self.try_result_contains(subset))
    }

    /// [`result_contains`](Self::result_contains), returning the failure.
    pub fn try_result_contains(self, subset: impl Serialize) -> Result<Self, AssertionError> {
        let subset = serde_json::to_value(subset).unwrap_or(Value::Null);
        let actual = self.execution.result.clone().unwrap_or(Value::Null);
        if json::contains(&actual, &subset) {
            return Ok(self);
        }
        Failure::new(format!(
            "Expected the result of tool `{}` to contain the expected JSON.",
            self.tool()
        ))
        .fact("tool", self.tool())
        .diff(&subset, &actual)
        .err()
    }
}

/// Where `body` departs from the spec's envelope, in words.
fn envelope_problems(body: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let kind = |value: Option<&Value>| match value {
        None => "missing".to_owned(),
        Some(Value::Null) => "null".to_owned(),
        Some(Value::String(_)) => "a string".to_owned(),
        Some(Value::Number(_)) => "a number".to_owned(),
        Some(Value::Bool(_)) => "a boolean".to_owned(),
        Some(Value::Array(_)) => "an array".to_owned(),
        Some(Value::Object(_)) => "an object".to_owned(),
    };
    let metadata = body.get("metadata");
    if metadata.is_some_and(Value::is_object) {
        let field = |name: &str| metadata.and_then(|metadata| metadata.get(name));
        if !field("executionId").is_some_and(Value::is_string) {
            problems.push(format!(
                "metadata.executionId is {}, not a string",
                kind(field("executionId"))
            ));
        }
        if !field("duration").is_some_and(Value::is_number) {
            problems.push(format!(
                "metadata.duration is {}, not a number",
                kind(field("duration"))
            ));
        }
        match field("timestamp") {
            Some(Value::String(stamp)) => {
                if let Err(error) = chrono::DateTime::parse_from_rfc3339(stamp) {
                    problems.push(format!(
                        "metadata.timestamp `{stamp}` is not RFC 3339 ({error})"
                    ));
                }
            }
            other => problems.push(format!(
                "metadata.timestamp is {}, not a string",
                kind(other)
            )),
        }
    } else {
        problems.push(format!("metadata is {}, not an object", kind(metadata)));
    }
    let success = body.get("success").and_then(Value::as_bool);
    match (success, body.get("error")) {
        (Some(true), Some(_)) => problems.push("it has an error although success is true".into()),
        (Some(false), None) => problems.push("it has no error although success is false".into()),
        (Some(false), Some(error)) => {
            for name in ["code", "message"] {
                if !error.get(name).is_some_and(Value::is_string) {
                    problems.push(format!(
                        "error.{name} is {}, not a string",
                        kind(error.get(name))
                    ));
                }
            }
        }
        _ => {}
    }
    problems
}
