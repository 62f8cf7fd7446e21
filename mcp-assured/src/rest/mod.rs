//! The REST surface of hybrid servers: servers that publish their MCP tools over plain HTTP
//! too (`GET /mcp/tools`, `POST /mcp/tools/{name}/execute`, answering with a
//! `success` / `result` / `error` / `metadata` envelope).
//!
//! ```no_run
//! use mcp_assured::McpAssured;
//! use mcp_assured::rest::ErrorCode;
//! use serde_json::json;
//!
//! # async fn run() -> mcp_assured::Result<()> {
//! let rest = McpAssured::rest()
//!     .base_uri("http://127.0.0.1:8080")
//!     .bearer_token("t0ken")
//!     .build()?;
//! let tools = rest.list_tools().await?;
//! assert!(tools.tool("current_weather").is_some());
//!
//! let weather = rest.execute("current_weather", json!({"city": "London"})).await?;
//! assert!(weather.success);
//! let unknown = rest.execute("no_such_tool", json!({})).await?;
//! assert_eq!(unknown.error_code(), Some(&ErrorCode::ToolNotFound));
//! # Ok(())
//! # }
//! ```
//!
//! The specs' client names are aliases: [`RestClient::discover_tools`] of `list_tools`,
//! [`RestClient::execute_tool`] of `execute` (the hybrid server protocol's client
//! libraries), and [`RestClientBuilder::access_token`] of `bearer_token` (the MCP client
//! contract's `accessToken`).

mod builder;
mod client;
mod stream;

pub use crate::results::rest::{
    ErrorCode, Execution, ExecutionContext, Metadata, Priority, RestError, RestTool, RestToolList,
};
pub use crate::results::rest_stream::{StreamEvent, StreamedExecution, TimedEvent};
pub use crate::results::tool_metadata::ToolMetadata;
pub use crate::results::tool_policy::{OnConcurrencyLimit, ResourceLimits, ToolPolicy};
pub use builder::RestClientBuilder;
pub use client::{RestClient, VERSION_HEADER};
pub use stream::{ExecutionStream, NDJSON};

impl crate::client::McpAssured {
    /// Starts configuring a client of a hybrid server's REST tool endpoints.
    pub fn rest() -> RestClientBuilder {
        RestClientBuilder::default()
    }
}
