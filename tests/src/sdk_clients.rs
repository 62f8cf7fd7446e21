//! The official SDKs' clients, driving any server through a list of steps: what the programs
//! that consume MCP servers make of what a server (ours, or one we proxy) answers.
//!
//! - [`SdkClient::PythonClient`]: the Python SDK's documented `mcp.Client` on its default
//!   negotiation (`server/discover` first, so 2026-07-28 with a server that speaks it);
//! - [`SdkClient::PythonSession`]: its `ClientSession` and `initialize()` (2025-11-25);
//! - [`SdkClient::TypeScript`]: the TypeScript SDK's `Client` on its default negotiation
//!   (2025-11-25).
//!
//! Each validates every result against its revision's types, so an answer it refuses comes
//! back as `{"error": …}` in its step. The steps are those of `tests/peers/sdk_steps.py`
//! (and its TypeScript twin, `sdk_steps.mjs`):
//!
//! ```no_run
//! use mcp_assured_tests::sdk_clients::{Reach, SdkClient, drive};
//! use serde_json::json;
//!
//! # async fn example() {
//! let steps = json!([["list_tools"], ["call", "echo", {"message": "hi"}], ["read", "x://y"]]);
//! let report = drive(SdkClient::PythonClient, &steps, Reach::Http("http://127.0.0.1:8000/mcp")).await;
//! assert_eq!(report["protocol"], "2026-07-28");
//! println!("{}", report["steps"][1]["content"][0]["text"]);
//! # }
//! ```

use std::{ffi::OsString, time::Duration};

use serde_json::Value;

use crate::peers;

/// Which official client drives the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SdkClient {
    /// The Python SDK's `mcp.Client`, on its default negotiation.
    PythonClient,
    /// The Python SDK's `ClientSession` and its `initialize()`: the legacy handshake.
    PythonSession,
    /// The TypeScript SDK's `Client`, on its default negotiation.
    TypeScript,
}

impl SdkClient {
    /// Every client, for a test that wants them all.
    pub const ALL: [SdkClient; 3] = [
        SdkClient::PythonClient,
        SdkClient::PythonSession,
        SdkClient::TypeScript,
    ];

    /// The revision this client lands on with a server that speaks both.
    pub fn negotiates(self) -> &'static str {
        match self {
            SdkClient::PythonClient => "2026-07-28",
            SdkClient::PythonSession | SdkClient::TypeScript => "2025-11-25",
        }
    }
}

/// How the client reaches the server.
#[derive(Debug, Clone, Copy)]
pub enum Reach<'a> {
    /// A command the client starts and speaks to over stdio: the program, then its arguments.
    Stdio(&'a [OsString]),
    /// A streamable HTTP URL.
    Http(&'a str),
    /// An HTTP+SSE URL (the Python SDK's `ClientSession` only).
    Sse(&'a str),
}

/// Runs `steps` (a JSON list, see the module docs) with `client` against the server at
/// `reach`; returns what the script printed: `{"server", "protocol", "steps"}`. Panics with
/// the script's stderr if it fails, or if it takes over a minute.
pub async fn drive(client: SdkClient, steps: &Value, reach: Reach<'_>) -> Value {
    let mut command = match client {
        SdkClient::PythonClient | SdkClient::PythonSession => {
            let mut command = tokio::process::Command::new(peers::python());
            command
                .arg(peers::python_steps_script())
                .arg(if client == SdkClient::PythonClient {
                    "client"
                } else {
                    "session"
                });
            command.arg(steps.to_string());
            command
        }
        SdkClient::TypeScript => {
            let mut command = tokio::process::Command::new(peers::node());
            command
                .arg(peers::typescript_client_script())
                .arg(peers::npm_modules())
                .arg(steps.to_string());
            command
        }
    };
    match reach {
        Reach::Stdio(program) => command.arg("stdio").args(program),
        Reach::Http(url) => command.arg("http").arg(url),
        Reach::Sse(url) => {
            assert_eq!(
                client,
                SdkClient::PythonSession,
                "only the Python SDK's ClientSession is driven over HTTP+SSE"
            );
            command.arg("sse").arg(url)
        }
    };
    command.kill_on_drop(true);
    let output = tokio::time::timeout(Duration::from_secs(60), command.output())
        .await
        .unwrap_or_else(|_| panic!("{client:?} did not end within 60 s"))
        .expect("the SDK client runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{client:?} failed: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{client:?} printed no JSON ({error}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}
