//! Support code for mcp-assured's integration tests (`tests/tests/*.rs`), which run against real
//! MCP servers nobody on the team wrote.
//!
//! - [`peers`]: the pinned third-party servers, installed into `target/peers/` on first use:
//!   [`peers::server_everything`] (run with [`peers::node`]) and the Python SDK server
//!   [`peers::python_server_script`] (run with [`peers::python`]). What they serve, exactly, is in
//!   `tests/peers/SERVER-EVERYTHING.md` and `tests/peers/PYTHON-SERVER.md`.
//! - [`ServerProcess`]: one of them (or any server) running on a free loopback port, with its
//!   output captured and its process group killed on drop.
//!
//! ```no_run
//! use mcp_assured_tests::{ServerProcess, peers};
//! use tokio::process::Command;
//!
//! # async fn example() {
//! // Over HTTP: the server runs until `server` is dropped.
//! let server = ServerProcess::everything_streamable_http().await;
//! let url = server.endpoint_url(); // http://127.0.0.1:<port>/mcp
//!
//! // Over stdio: spawn the peer yourself (the client under test usually does).
//! let mut command = Command::new(peers::node());
//! command.arg(peers::server_everything()).arg("stdio");
//! # }
//! ```

pub mod connect;
pub mod faults;
pub mod peers;
mod process;

pub use connect::{Connected, Transport};
pub use process::{STARTUP_TIMEOUT, ServerProcess, free_loopback_port};
