//! The `mcp-assured` binary as a library: [`CompanionServer`], an MCP server whose tools let
//! an AI assistant (or any MCP client) connect to another MCP server and test it for real,
//! with verbose, timestamped answers that are never summarised.
//!
//! The tools, their arguments and their answers follow
//! `shared/specs/test-server-tool-schemas.md`: every answer is a JSON envelope with
//! `success`, the `connection` it used, what the server said, and `metadata` (ISO 8601
//! timestamps with time zone, `request_time_ms`); failures carry
//! `error {type, message, details, suggestion}` with one of nine types.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_assured_cli::CompanionServer;
//! use rmcp::ServiceExt;
//!
//! CompanionServer::new().serve(rmcp::transport::stdio()).await?.waiting().await?;
//! # Ok(()) }
//! ```

mod companion;
pub mod config;
mod line_guard;
pub mod output;
pub mod serve;
mod stdio;

pub use companion::CompanionServer;
