//! The `mcp.test.*` convention: servers expose their own tests as tools named `mcp.test.*`
//! with `testMetadata {category, priority, timeout}`; a client discovers them, runs them in
//! priority order each under its own timeout, and reads each one's `TestResult {success,
//! message, details {passed, failed, skipped}, duration}`.
//!
//! ```no_run
//! # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
//! let report = client.run_server_tests().await?;
//! println!("{report}"); // one line per test, then "N passed, N failed, N skipped"
//! assert!(report.is_success(), "{report}");
//! # Ok(()) }
//! ```
//!
//! A test whose metadata or result is malformed fails with the reason (one with malformed
//! metadata still runs, with defaults, so its own verdict is in the reason); the run goes on.

mod arguments;
mod metadata;
mod outcome;

use std::time::Instant;

use rmcp::model::Tool;
use serde_json::Value;

pub use self::{
    arguments::{valid_object, valid_value},
    metadata::{TEST_TOOL_PREFIX, TestTool, is_test_tool},
    outcome::{ServerTestReport, TestDetails, TestOutcome, TestResult, TestStatus},
};
use crate::{McpClient, Result};

impl McpClient {
    /// The server's `mcp.test.*` tools with their `testMetadata`, in the order they run:
    /// by priority (1 first), then by name.
    pub async fn server_test_tools(&self) -> Result<Vec<TestTool>> {
        let mut tests: Vec<TestTool> = self
            .list_tools_json()
            .await?
            .iter()
            .filter_map(TestTool::from_json)
            .collect();
        tests.sort_by(|a, b| (a.priority, &a.name).cmp(&(b.priority, &b.name)));
        Ok(tests)
    }

    /// Runs every `mcp.test.*` tool, in priority order, each under its own timeout, with
    /// arguments made from its input schema; see [`ServerTestReport`].
    pub async fn run_server_tests(&self) -> Result<ServerTestReport> {
        let mut outcomes = Vec::new();
        for tool in self.server_test_tools().await? {
            outcomes.push(self.run_server_test(tool).await);
        }
        Ok(ServerTestReport { outcomes })
    }

    /// Runs one test tool.
    pub async fn run_server_test(&self, tool: TestTool) -> TestOutcome {
        let arguments = valid_object(&tool.input_schema);
        let started = Instant::now();
        let answer = self
            .with_timeout(tool.timeout)
            .call_tool(&tool.name, arguments.clone())
            .await;
        TestOutcome::from_answer(tool, arguments, answer, started.elapsed())
    }

    /// `tools/list` without the `mcp.test.*` tools, as production clients should show it.
    pub async fn list_tools_excluding_tests(&self) -> Result<Vec<Tool>> {
        let mut tools = self.list_tools().await?;
        tools.retain(|tool| !is_test_tool(&tool.name));
        Ok(tools)
    }
}

/// The first text of a result, for messages.
fn excerpt(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text
    }
}
