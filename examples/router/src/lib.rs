//! `router`: an example MCP server that is also an MCP client. It lists the tools of the
//! upstream MCP servers its environment names (over streamable HTTP or as child processes
//! over stdio), each as `<upstream>__<tool>`, and forwards calls to them; and it serves HTTP
//! tools registered at run time through its admin API ([`admin`], the router contract's
//! `registerTool`), each call one HTTP request to the tool's backend.
//!
//! What goes wrong upstream comes back as a tool error (`isError`) naming the upstream: a
//! JSON-RPC error, no answer within the call timeout, a dropped connection (the router
//! connects again on the next call). An upstream's `notifications/tools/list_changed` and
//! its elicitation requests go on to the router's client, and the answer back.
//!
//! Its suite (`tests/router.rs`) runs the binary with `#[mcp_test]`, each upstream an MCP
//! double (`mcp_assured::double::MockServer`) that the test scripts.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use rmcp::ServiceExt;
//! use router::{Config, Router};
//!
//! // ROUTER_UPSTREAM_SEARCH_URL=http://127.0.0.1:8080/mcp, ...
//! let router = Router::new(Config::from_env()?);
//! router.serve(rmcp::transport::stdio()).await?.waiting().await?;
//! # Ok(()) }
//! ```

pub mod admin;
mod config;
mod http_tool;
mod router;
mod upstream;

pub use admin::AdminClient;
pub use config::{Config, Source, UpstreamConfig};
pub use http_tool::{HttpToolConfig, HttpTools};
pub use router::{Router, SEPARATOR};
