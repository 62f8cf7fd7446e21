//! What a test tool answered, judged: passed, failed or skipped, and why.

use std::{fmt, time::Duration};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{excerpt, metadata::TestTool};
use crate::{Error, ToolResult};

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

/// How a test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestStatus {
    Passed,
    Failed,
    /// It reported success with every check skipped.
    Skipped,
}

/// One test's run.
#[derive(Debug, Clone, Serialize)]
pub struct TestOutcome {
    pub tool: TestTool,
    /// The arguments it was called with (made from its input schema).
    pub arguments: Value,
    pub status: TestStatus,
    /// The test's message, or why it failed (timeout, tool error, malformed result).
    pub reason: String,
    /// What it returned, when that was a `TestResult`.
    pub result: Option<TestResult>,
    /// Measured by the client, request included.
    #[serde(serialize_with = "millis")]
    pub elapsed: Duration,
    /// What is malformed in its `testMetadata` (a malformed result is the `reason`).
    pub problems: Vec<String>,
}

fn millis<S: serde::Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64() * 1000.0)
}

impl TestOutcome {
    pub(super) fn from_answer(
        tool: TestTool,
        arguments: Value,
        answer: crate::Result<ToolResult>,
        elapsed: Duration,
    ) -> TestOutcome {
        let problems = tool.metadata_problems.clone();
        let (status, reason, result) = match answer {
            Err(Error::Timeout { timeout, .. }) => (
                TestStatus::Failed,
                format!(
                    "no answer within {} ms (its testMetadata.timeout); cancelled",
                    timeout.as_millis()
                ),
                None,
            ),
            Err(error) => (
                TestStatus::Failed,
                format!("the call failed: {error}"),
                None,
            ),
            Ok(answer) if answer.is_error == Some(true) => (
                TestStatus::Failed,
                format!(
                    "the test tool answered with a tool error: {}",
                    answer.text()
                ),
                None,
            ),
            Ok(answer) => match parse(&answer) {
                Ok(result) => {
                    let (status, reason) = judge(&result);
                    (status, reason, Some(result))
                }
                Err(problem) => (TestStatus::Failed, problem, None),
            },
        };
        // Malformed metadata fails the test, after it ran (so its own verdict is known).
        let (status, reason) = if problems.is_empty() || status == TestStatus::Failed {
            (status, reason)
        } else {
            (
                TestStatus::Failed,
                format!(
                    "malformed testMetadata ({}); the test itself: {reason}",
                    problems.join("; ")
                ),
            )
        };
        TestOutcome {
            tool,
            arguments,
            status,
            reason,
            result,
            elapsed,
            problems,
        }
    }
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

fn judge(result: &TestResult) -> (TestStatus, String) {
    let details = result.details.clone().unwrap_or_default();
    let message = result.message.clone().unwrap_or_default();
    if !result.success {
        let failed = if details.failed.is_empty() {
            String::new()
        } else {
            format!(" (failed: {})", details.failed.join("; "))
        };
        return (TestStatus::Failed, format!("{message}{failed}"));
    }
    if !details.failed.is_empty() {
        return (
            TestStatus::Failed,
            format!(
                "reports success but lists failed checks: {}",
                details.failed.join("; ")
            ),
        );
    }
    if details.passed.is_empty() && !details.skipped.is_empty() {
        return (
            TestStatus::Skipped,
            format!("{message} (skipped: {})", details.skipped.join("; ")),
        );
    }
    (TestStatus::Passed, message)
}

/// Every test's outcome, in the order they ran.
#[derive(Debug, Clone, Serialize)]
pub struct ServerTestReport {
    pub outcomes: Vec<TestOutcome>,
}

impl ServerTestReport {
    fn count(&self, status: TestStatus) -> usize {
        self.outcomes.iter().filter(|o| o.status == status).count()
    }

    pub fn passed(&self) -> usize {
        self.count(TestStatus::Passed)
    }

    pub fn failed(&self) -> usize {
        self.count(TestStatus::Failed)
    }

    pub fn skipped(&self) -> usize {
        self.count(TestStatus::Skipped)
    }

    /// No test failed.
    pub fn is_success(&self) -> bool {
        self.failed() == 0
    }

    /// The outcome of the test called `name`.
    pub fn outcome(&self, name: &str) -> Option<&TestOutcome> {
        self.outcomes.iter().find(|o| o.tool.name == name)
    }
}

impl fmt::Display for ServerTestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for outcome in &self.outcomes {
            let label = match outcome.status {
                TestStatus::Passed => "PASS",
                TestStatus::Failed => "FAIL",
                TestStatus::Skipped => "SKIP",
            };
            let category = outcome.tool.category.as_deref().unwrap_or("uncategorised");
            write!(
                f,
                "{label} {} ({category}, priority {}, {:.0} ms)",
                outcome.tool.name,
                outcome.tool.priority,
                outcome.elapsed.as_secs_f64() * 1000.0
            )?;
            if !outcome.reason.is_empty() {
                write!(f, ": {}", outcome.reason)?;
            }
            writeln!(f)?;
            for problem in &outcome.problems {
                writeln!(f, "     ! {problem}")?;
            }
        }
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed(),
            self.failed(),
            self.skipped()
        )
    }
}
