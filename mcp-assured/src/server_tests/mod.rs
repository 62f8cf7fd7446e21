//! The `mcp.test.*` convention: servers expose their own tests as tools named `mcp.test.*`
//! with `testMetadata {category, priority, timeout}`; a client discovers them, runs them in
//! priority order each under its own timeout, and reads each one's `TestResult {success,
//! message, details {passed, failed, skipped}, duration}`.
//!
//! ```no_run
//! # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
//! let report = client.run_server_tests().await?;
//! println!("{report}"); // a line per test, one for the coverage, then "N passed, N failed, ..."
//! assert!(report.is_success(), "{report}");
//! let protocol = report.entry("mcp.test.protocol").unwrap();
//! println!("{:?} in {:?}: {}", protocol.status, protocol.duration, protocol.message);
//! println!("called with {}", protocol.details["arguments"]);
//! # Ok(()) }
//! ```
//!
//! The result is a [`Report`] (see [`crate::report`]), each test an entry of the suite
//! [`SUITE`]. The convention's priorities (1 critical, 2 important, 3 optional) order the run
//! and grade a failure: a critical or important test that fails fails, an optional one
//! (`testMetadata.priority` 3) warns, its message beginning `optional test (priority 3)
//! failed: `, which [`Report::strictly`] (`--strict`) fails again; a test that gives no
//! priority runs last and fails as a critical one does. A test whose metadata or result is
//! malformed fails with the reason in its
//! message (one with malformed metadata still runs, with defaults, so its own verdict is in
//! the message, and the metadata's problems are the entry's problems); the run goes on. A
//! `TestResult` without the `duration` the convention requires is a problem of its entry,
//! and a test that passed so is warned.
//!
//! After the tests, one entry, [`COVERAGE`], states what they cover of the convention: the
//! [`REQUIRED_TESTS`] present or missing (a warning, quoting the convention, when one is
//! missing) and the [`CATEGORIES`] covered. A server without `mcp.test.*` tools gets no
//! entries at all.

mod arguments;
mod coverage;
mod metadata;
mod outcome;

use std::time::Instant;

use rmcp::model::Tool;
use serde_json::Value;

pub use self::{
    arguments::{valid_object, valid_value},
    coverage::{CATEGORIES, COVERAGE, REQUIRED_TESTS},
    metadata::{TEST_TOOL_PREFIX, TestTool, is_test_tool},
    outcome::{TestDetails, TestResult},
};
use crate::{
    client::McpClient,
    error::Result,
    report::{Entry, Report},
};

/// The suite of the server tests' entries.
pub const SUITE: &str = "server-tests";

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
    /// arguments made from its input schema, then states the convention's coverage in a
    /// last entry, [`COVERAGE`]; see the [module docs](crate::server_tests).
    pub async fn run_server_tests(&self) -> Result<Report> {
        let tests = self.server_test_tools().await?;
        let coverage = coverage::entry(&tests);
        let mut report = Report::default();
        for tool in tests {
            report.push(self.run_server_test(tool).await);
        }
        report.extend(coverage);
        Ok(report)
    }

    /// Runs one test tool; its entry is as in [`run_server_tests`](Self::run_server_tests).
    pub async fn run_server_test(&self, tool: TestTool) -> Entry {
        let arguments = valid_object(&tool.input_schema);
        let started = Instant::now();
        let answer = self
            .with_timeout(tool.timeout)
            .call_tool(&tool.name, arguments.clone())
            .await;
        outcome::entry(tool, arguments, answer, started.elapsed())
    }

    /// `tools/list` without the `mcp.test.*` tools, as production clients should show it.
    pub async fn list_tools_excluding_tests(&self) -> Result<Vec<Tool>> {
        let mut tools = self.list_tools().await?.into_vec();
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
