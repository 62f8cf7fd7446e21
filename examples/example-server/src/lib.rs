//! The example MCP server that mcp-assured's own tests talk to, and the first server a new
//! user meets.
//!
//! [`ExampleServer`] is an ordinary [rmcp](https://docs.rs/rmcp) server. It offers one tool per
//! protocol feature a client harness has to get right: plain and structured results, tool
//! errors, progress, logging, cancellation, sampling, elicitation, roots, resource
//! subscriptions, a changing tool list, pagination, and a process that crashes or hangs on
//! request. It also serves resources, a resource template, prompts and completions.
//!
//! Run it in-process over any rmcp transport:
//!
//! ```no_run
//! use mcp_assured_examples::ExampleServer;
//! use rmcp::ServiceExt;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // Hand `client_io` to an MCP client; `serve` returns once that client has initialized.
//! let (server_io, client_io) = tokio::io::duplex(64 * 1024);
//! # let _ = client_io;
//! let running = ExampleServer::new().serve(server_io).await?;
//! running.waiting().await?; // until the client disconnects
//! # Ok(())
//! # }
//! ```
//!
//! or on a local port with [`serve::serve_streamable_http`] and [`serve::serve_sse`], or as a
//! child process with the `example-server` binary
//! (`example-server --transport stdio|streamable-http|sse`).

mod completion;
mod logging;
mod pagination;
mod prompts;
mod resources;
pub mod serve;
mod server;
mod tools;

pub use serve::HttpOptions;
pub use server::ExampleServer;
