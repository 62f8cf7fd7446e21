//! Assertions that read as sentences and fail with messages a reviewer understands at a
//! glance: what was expected, what came, and the tool, resource or prompt involved.
//!
//! Bring them in with `use mcp_assured::prelude::*;`, then call `.assert()` on what the
//! client returned. Every check is `#[track_caller]` (a failure points at the test's line)
//! and has a `try_` twin that returns an [`AssertionError`] instead of panicking.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use mcp_assured::{McpAssured, prelude::*};
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! client.list_tools().await?.assert().contains_tool("weather").tool("weather").requires(["city"]);
//! client.call_tool("fail", json!({})).await?.assert().is_tool_error().text_contains("refused");
//!
//! // The try_ twins return the failure for tests that want to inspect it.
//! let tools = client.list_tools().await?;
//! let failure = tools.assert().try_contains_tool("weathr").unwrap_err();
//! assert!(failure.message().contains("did you mean=`weather`"));
//! # Ok(()) }
//! ```

mod errors;
#[cfg(feature = "http")]
mod execution;
pub(crate) mod failure;
mod json;
mod listed;
mod notifications;
mod prompts;
mod report;
mod resources;
#[cfg(feature = "http")]
mod rest_tools;
mod tasks;
mod tool_result;
mod tools;

pub use errors::{AssertError, AssertResult, ErrorAssert};
#[cfg(feature = "http")]
pub use execution::{AssertExecution, ExecutionAssert};
pub use failure::AssertionError;
pub use notifications::{AssertNotifications, NotificationsAssert};
pub use prompts::{
    AssertPromptResult, AssertPrompts, PromptAssert, PromptListAssert, PromptResultAssert,
};
pub use report::{AssertReport, ReportAssert};
pub use resources::{
    AssertResourceResult, AssertResources, ResourceListAssert, ResourceResultAssert,
};
#[cfg(feature = "http")]
pub use rest_tools::{AssertRestTools, RestToolAssert, RestToolListAssert};
pub use tasks::{AssertTask, TaskAssert};
pub use tool_result::{AssertToolResult, ToolResultAssert};
pub use tools::{AssertTool, AssertTools, ToolAssert, ToolListAssert};
