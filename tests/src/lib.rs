//! Support code for mcp-assured's tests: the integration tests of this package
//! (`tests/tests/*.rs`), which run against real MCP servers nobody on the team wrote, and the
//! test suites of the other packages (a dev-dependency), so that each helper exists once.
//!
//! - [`peers`]: the pinned third-party servers, installed into `target/peers/` on first use:
//!   [`peers::server_everything`] (run with [`peers::node`]) and the Python SDK server
//!   [`peers::python_server_script`] (run with [`peers::python`]). What they serve, exactly, is in
//!   `tests/peers/SERVER-EVERYTHING.md` and `tests/peers/PYTHON-SERVER.md`.
//! - [`server`]: one of them (or any server) over HTTP on a free loopback port, started with
//!   mcp-assured's own [`ServerProcess`](mcp_assured::fixture::ServerProcess).
//! - [`connect`]: a client connected to a peer over a [`Transport`], and
//!   [`for_each_transport!`] to run a test function once per transport.
//! - [`processes`]: whether a process still runs or was reaped, by pid; [`eventually`] to
//!   wait for it.
//! - The example server as a target: in process over HTTP ([`ExampleHttp`], a fixture), or
//!   its binary ([`example_server_binary`]).
//! - Any binary of the workspace, such as `conformance-client`, built if need be
//!   ([`workspace_binary`]).
//! - [`faults`]: the misbehaving server of the fault-injection suite.
//! - [`hybrid_faults`]: the example hybrid server breaking, one at a time, what it declares
//!   of its tools (permissions, limits, streaming), for the hybrid checks.
//! - [`oauth`]: a server that requires OAuth, and its authorization server.
//! - [`tls`]: a test CA and a TLS front, to reach any of these over `https://`.
//! - [`lint_twins`]: a vulnerable server and its safe twin for every rule of `mcp-assured lint`.
//! - [`sdk_clients`]: the official Python and TypeScript SDKs' clients driving any server
//!   through a list of steps.
//! - [`schemas`]: the official schemas reports are held to (SARIF 2.1.0).
//! - [`browser`]: Debian's Chromium, headless, rendering an HTML report and recording every
//!   request it makes.
//!
//! ```no_run
//! use mcp_assured::McpAssured;
//! use mcp_assured_tests::{Transport, peers, server};
//!
//! # async fn example() {
//! // Over HTTP: the server runs until `server` is dropped.
//! let server = server::everything(Transport::StreamableHttp).await;
//! let url = server.url().unwrap(); // http://127.0.0.1:<port>/mcp
//!
//! // Over stdio: the client starts the peer.
//! let client = McpAssured::client()
//!     .command(peers::node())
//!     .arg(peers::server_everything())
//!     .arg("stdio");
//! # }
//! ```

mod binary;
pub mod browser;
pub mod connect;
mod example_server;
pub mod faults;
pub mod hybrid_faults;
pub mod lint_twins;
pub mod oauth;
pub mod peers;
pub mod planted_bugs;
mod poll;
pub mod processes;
pub mod schemas;
pub mod sdk_clients;
pub mod server;
pub mod tls;
mod transport;

pub use binary::workspace_binary;
pub use connect::Connected;
pub use example_server::{ExampleHttp, example_server_binary};
pub use poll::eventually;
pub use transport::Transport;
