//! What a test tool answered, judged: passed, failed or skipped, and why.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{excerpt, metadata::TestTool};
use crate::{
    error::Error,
    report::{Entry, Status},
    results::mcp::ToolResult,
};

/// The convention's `TestResult`, as a test tool returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<TestDetails>,
    /// Milliseconds, as the server measured them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
}

/// `TestResult.details`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestDetails {
    #[serde(default)]
    pub passed: Vec<String>,
    #[serde(default)]
    pub failed: Vec<String>,
    #[serde(default)]
    pub skipped: Vec<String>,
}

/// One test's run as a report entry of the suite [`SUITE`](super::SUITE): passed, failed (a
/// timeout, a tool error, a malformed result or malformed metadata) or skipped (it reported
/// success with every check skipped), with the test's message or why it failed; its problems
/// are what is malformed in its `testMetadata`, its details the `tool`, the `arguments` it
/// was called with (made from its input schema) and the `result` it returned when that was a
/// [`TestResult`], and its duration measured by the client, request included.
pub(super) fn entry(
    tool: TestTool,
    arguments: Value,
    answer: crate::error::Result<ToolResult>,
    elapsed: Duration,
) -> Entry {
    let problems = tool.metadata_problems.clone();
    let (status, message, result) = match answer {
        Err(Error::Timeout { timeout, .. }) => (
            Status::Failed,
            format!(
                "no answer within {} ms (its testMetadata.timeout); cancelled",
                timeout.as_millis()
            ),
            None,
        ),
        Err(error) => (Status::Failed, format!("the call failed: {error}"), None),
        Ok(answer) if answer.is_error == Some(true) => (
            Status::Failed,
            format!(
                "the test tool answered with a tool error: {}",
                answer.text()
            ),
            None,
        ),
        Ok(answer) => match parse(&answer) {
            Ok(result) => {
                let (status, message) = judge(&result);
                (status, message, Some(result))
            }
            Err(problem) => (Status::Failed, problem, None),
        },
    };
    // Malformed metadata fails the test, after it ran (so its own verdict is known).
    let (status, message) = if problems.is_empty() || status == Status::Failed {
        (status, message)
    } else {
        (
            Status::Failed,
            format!(
                "malformed testMetadata ({}); the test itself: {message}",
                problems.join("; ")
            ),
        )
    };
    let mut entry = Entry::new(super::SUITE, tool.name.clone(), status, message);
    entry.problems = problems;
    entry.details = json!({"tool": tool, "arguments": arguments, "result": result});
    entry.duration = Some(elapsed);
    entry
}

/// The `TestResult` in structured content, or else in the text.
fn parse(answer: &ToolResult) -> Result<TestResult, String> {
    let candidate = match &answer.structured_content {
        Some(structured) => structured.clone(),
        None => serde_json::from_str::<Value>(&answer.text()).map_err(|_| {
            format!(
                "the result is not a TestResult: {}",
                excerpt(&Value::String(answer.text()))
            )
        })?,
    };
    serde_json::from_value(candidate.clone()).map_err(|error| {
        format!(
            "the result is not a TestResult ({error}): {}",
            excerpt(&candidate)
        )
    })
}

fn judge(result: &TestResult) -> (Status, String) {
    let details = result.details.clone().unwrap_or_default();
    let message = result.message.clone().unwrap_or_default();
    if !result.success {
        let failed = if details.failed.is_empty() {
            String::new()
        } else {
            format!(" (failed: {})", details.failed.join("; "))
        };
        return (Status::Failed, format!("{message}{failed}"));
    }
    if !details.failed.is_empty() {
        return (
            Status::Failed,
            format!(
                "reports success but lists failed checks: {}",
                details.failed.join("; ")
            ),
        );
    }
    if details.passed.is_empty() && !details.skipped.is_empty() {
        return (
            Status::Skipped,
            format!("{message} (skipped: {})", details.skipped.join("; ")),
        );
    }
    (Status::Passed, message)
}
