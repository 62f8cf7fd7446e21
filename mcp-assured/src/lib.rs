//! # mcp-assured
//!
//! A test harness for [Model Context Protocol](https://modelcontextprotocol.io) servers: a
//! fluent async client that speaks every MCP transport, built on the official Rust SDK
//! ([rmcp](https://docs.rs/rmcp)).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use mcp_assured::McpAssured;
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! // An rmcp server in this process; `.base_uri(..)` or `.command(..)` reach any other.
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! let result = client.call_tool("weather", json!({"city": "London"})).await?;
//! assert_eq!(result.is_error, Some(false));
//! assert_eq!(
//!     result.structured_content,
//!     Some(json!({"city": "London", "temperature": 15, "conditions": "cloudy"}))
//! );
//! client.close().await?;
//! # Ok(()) }
//! ```
//!
//! Over HTTP:
//!
//! ```no_run
//! # async fn demo() -> mcp_assured::Result<()> {
//! use mcp_assured::McpAssured;
//! use serde_json::json;
//!
//! // streamable HTTP (the path defaults to /mcp)
//! let client = McpAssured::client()
//!     .base_uri("http://127.0.0.1:3001")
//!     .bearer_token("secret")
//!     .build()
//!     .await?;
//! let result = client.call_tool("echo", json!({"message": "hi"})).await?;
//! assert_eq!(result.is_error, Some(false));
//! client.close().await?;
//! # Ok(()) }
//! ```
//!
//! The same client reaches a stdio server with `.command("node").arg("server.js")`, the
//! older HTTP+SSE transport with a base URI ending in `/sse` (or `.sse()`), and an rmcp
//! server in the test's own process with `.service(MyServer::new())`.
//!
//! Checks read as sentences: `use mcp_assured::prelude::*;` and call `.assert()` on what the
//! client returned (see [`mod@assert`]); pin whole answers with insta through
//! [`assert_mcp_snapshot!`] (see [`snapshot`]).
//!
//! Failures are one [`Error`] type whose messages say what happened: the HTTP status and
//! `WWW-Authenticate` challenge of a refused connection, the JSON-RPC code of a rejected
//! request, the request that timed out, the exit status and stderr of a server that died,
//! the exact line of a server that printed junk on stdout.

pub mod assert;
mod client;
mod error;
pub mod fixture;
mod secret;
pub mod snapshot;
mod transport;

pub use client::{
    ClientBuilder, DEFAULT_TIMEOUT, FromServerResult, IntoAnswer, LogMessage, McpAssured,
    McpClient, Notification, PendingRequest, Progress, PromptResult, ResourceResult, ServerInfo,
    ServerRequest, ToolResult,
};
pub use error::{Error, Result, code};
pub use secret::Secret;

/// Turns an async function into a test of an MCP server: starts the server (in process, as
/// a child over stdio or HTTP, or reached at a URL), the wiremock backends it calls and the
/// connected client, passes them in by parameter, and tears everything down afterwards, even
/// when the test panics or times out.
///
/// See the [crate docs](crate#the-mcp_test-attribute) for the options and
/// [`fixture`] for the parameters it can provide.
pub use mcp_assured_macros::mcp_test;

/// The wiremock crate, whose `MockServer` is an [`#[mcp_test]`](mcp_test) fixture.
pub use wiremock;

/// The assertion extension traits: `use mcp_assured::prelude::*;` and call `.assert()`.
pub mod prelude {
    pub use crate::assert::{
        AssertError, AssertNotifications, AssertPromptResult, AssertPrompts, AssertResourceResult,
        AssertResources, AssertResult, AssertTool, AssertToolResult, AssertTools,
    };
}

/// The rmcp crate this harness is built on, for writing in-process servers.
pub use rmcp;

/// Macro plumbing; not public API.
#[doc(hidden)]
pub mod __private {
    pub use insta;
}

/// The README's examples, compiled as doctests so they never drift.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
/// The MCP data types (tools, resources, prompts, results, ...), from rmcp.
pub use rmcp::model;
