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

/// The problem of a `TestResult` without `duration`.
pub(super) const NO_DURATION: &str = "its TestResult has no `duration` (the time taken in ms), \
                                      which the convention's Test Results Schema requires";

/// What begins the message of an optional test (priority 3) that failed, a warning.
pub(super) const OPTIONAL_FAILED: &str = "optional test (priority 3) failed: ";

/// The convention's `TestResult`, as a test tool returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<TestDetails>,
    /// Milliseconds, as the server measured them. The convention requires it; a result
    /// without it is read all the same, and its entry names the omission as a problem.
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
/// are what is malformed in its `testMetadata` or missing from its `TestResult`, its details
/// the `tool`, the `arguments` it was called with (made from its input schema) and the
/// `result` it returned when that was a [`TestResult`], and its duration measured by the
/// client, request included.
///
/// An optional test (`testMetadata.priority` 3) that fails warns instead, its message
/// beginning [`OPTIONAL_FAILED`]; with malformed metadata it fails.
///
/// A `TestResult` without `duration` adds a problem ([`NO_DURATION`]) and turns a pass into
/// a warning: the test did what it checks, but its result breaks the convention's schema.
pub(super) fn entry(
    tool: TestTool,
    arguments: Value,
    answer: crate::error::Result<ToolResult>,
    elapsed: Duration,
) -> Entry {
    let mut problems = tool.metadata_problems.clone();
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
    // An optional test may fail without failing the suite: a warning, whatever made it fail.
    // Not with malformed metadata, whose priority is not to be trusted.
    let (status, message) = if status == Status::Failed && tool.optional && problems.is_empty() {
        (Status::Warned, format!("{OPTIONAL_FAILED}{message}"))
    } else {
        (status, message)
    };
    let status = match &result {
        Some(TestResult { duration: None, .. }) => {
            problems.push(NO_DURATION.to_owned());
            if status == Status::Passed {
                Status::Warned
            } else {
                status
            }
        }
        _ => status,
    };
    // The convention's naming: a warning, unless the test failed anyway.
    let status = if tool.naming_warnings.is_empty() {
        status
    } else {
        problems.extend(tool.naming_warnings.iter().cloned());
        if status == Status::Passed {
            Status::Warned
        } else {
            status
        }
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

#[cfg(test)]
mod tests {
    use rmcp::model::CallToolResult;

    use super::*;
    use crate::report::Report;

    /// The entry of `mcp.test.tools.echo` answering `result` as structured content.
    fn entry_for(result: Value) -> Entry {
        entry_with(
            json!({"category": "tools", "priority": 1, "timeout": 1000}),
            result,
        )
    }

    /// The entry of `mcp.test.tools.echo` with `metadata`, answering `result`.
    fn entry_with(metadata: Value, result: Value) -> Entry {
        let tool = TestTool::from_json(&json!({
            "name": "mcp.test.tools.echo",
            "inputSchema": {"type": "object"},
            "testMetadata": metadata,
        }))
        .unwrap();
        let answer = ToolResult::new(&tool.name, CallToolResult::structured(result));
        entry(tool, json!({}), Ok(answer), Duration::from_millis(3))
    }

    /// A `TestResult` of a test that failed.
    fn failed() -> Value {
        json!({"success": false, "message": "no echo", "duration": 1.0})
    }

    #[test]
    fn an_optional_test_that_fails_warns_and_says_so() {
        let optional = entry_with(json!({"category": "tools", "priority": 3}), failed());
        assert_eq!(optional.status, Status::Warned);
        assert_eq!(
            optional.message,
            "optional test (priority 3) failed: no echo"
        );
        assert!(optional.problems.is_empty());
        let strict = Report::from_iter([optional]).strictly();
        assert_eq!(
            strict.entries()[0].message,
            "(a warning, failed by strict) optional test (priority 3) failed: no echo"
        );
        assert!(!strict.is_success());
    }

    #[test]
    fn a_critical_important_or_unranked_test_that_fails_fails() {
        for metadata in [
            json!({"category": "tools", "priority": 1}),
            json!({"category": "tools", "priority": 2}),
            json!({"category": "tools"}),
        ] {
            let failed = entry_with(metadata.clone(), failed());
            assert_eq!(
                (failed.status, failed.message.as_str()),
                (Status::Failed, "no echo"),
                "{metadata}"
            );
        }
        // Malformed metadata fails an optional test too.
        let malformed = entry_with(json!({"category": 7, "priority": 3}), failed());
        assert_eq!(
            (malformed.status, malformed.message.as_str()),
            (Status::Failed, "no echo")
        );
        assert_eq!(malformed.problems.len(), 1, "{:?}", malformed.problems);
        // A tool error of an optional test warns as its verdict does.
        let tool = TestTool::from_json(&json!({
            "name": "mcp.test.tools.echo",
            "testMetadata": {"category": "tools", "priority": 3},
        }))
        .unwrap();
        let answer = ToolResult::new(&tool.name, CallToolResult::error(vec![]));
        let errored = entry(tool, json!({}), Ok(answer), Duration::from_millis(3));
        assert_eq!(errored.status, Status::Warned);
        assert!(
            errored.message.starts_with(
                "optional test (priority 3) failed: the test tool answered with a tool error"
            ),
            "{}",
            errored.message
        );
    }

    #[test]
    fn a_result_with_its_duration_has_no_problem() {
        let entry = entry_for(json!({"success": true, "message": "echoed", "duration": 1.5}));
        assert_eq!((entry.status, entry.problems), (Status::Passed, vec![]));
    }

    #[test]
    fn a_pass_without_duration_is_a_warning_naming_it() {
        let entry = entry_for(json!({"success": true, "message": "echoed"}));
        assert_eq!(entry.status, Status::Warned);
        assert_eq!(entry.message, "echoed");
        assert_eq!(entry.problems, [NO_DURATION]);
    }

    #[test]
    fn a_failure_without_duration_stays_a_failure_and_names_it() {
        let entry = entry_for(json!({"success": false, "message": "no echo"}));
        assert_eq!(entry.status, Status::Failed);
        assert_eq!(entry.problems, [NO_DURATION]);
    }
}
