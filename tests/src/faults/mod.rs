//! A misbehaving MCP server, for the fault-injection suite (`tests/tests/faults/`).
//!
//! [`FaultServer`] is a well-behaved rmcp server whose tools misbehave on request (answer 5 MB,
//! flood notifications, hang, crash, return an error with odd `data`). The `fault-server`
//! binary serves it over stdio, streamable HTTP or HTTP+SSE and can break the layers below
//! rmcp too, one [`Fault`] per process: the JSON-RPC lines on stdio ([`wire`]) or the
//! streamable HTTP responses ([`http`]).
//!
//! ```text
//! fault-server [--transport stdio|http|sse] [--port N] [--fault NAME] [--tag TAG]
//! ```
//!
//! `--tag` is ignored by the server; tests put a unique value there to find the process in
//! `/proc` and prove it is gone.

pub mod http;
mod server;
pub mod wire;

use std::{fmt, str::FromStr};

pub use server::FaultServer;

/// One way for the `fault-server` process to misbehave below its tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// Behave.
    None,
    /// Exit with status 0 before reading anything.
    ExitAtStart,
    /// Exit with status 3 (after a line on stderr) when `initialize` arrives.
    CrashOnInitialize,
    /// Read `initialize` and never answer it.
    HangOnInitialize,
    /// Exit with status 4 shortly after answering the first `tools/call`, while the client is
    /// idle.
    CrashBetweenCalls,
    /// Print a log line on stdout before each `tools/call` answer.
    LogLines,
    /// Send the first half of each `tools/call` answer, then a newline.
    PartialJson,
    /// Send a response with an id nobody asked for before each `tools/call` answer.
    UnknownId,
    /// Send each `tools/call` answer under a wrong id (so the real one never comes).
    WrongId,
    /// HTTP: `401` with `WWW-Authenticate: Bearer realm="fault-server"`.
    Unauthorized,
    /// HTTP: `401` without `WWW-Authenticate`.
    UnauthorizedBare,
    /// HTTP: `403`.
    Forbidden,
    /// HTTP: nothing at `/mcp` (the server lives at `/other`), so `404`.
    NotFound,
    /// HTTP: `500` with a plain-text body.
    InternalError,
    /// HTTP: `200` with `Content-Type: application/json` and an HTML body.
    NonJson,
    /// HTTP: each `tools/call` starts an SSE stream, then the connection is dropped.
    DropMidStream,
    /// HTTP: after the first `tools/call`, every request with a session id gets `404`.
    ExpireSession,
    /// HTTP: the port opens 2 s after start.
    SlowStart,
}

impl Fault {
    /// Every fault with its command-line name.
    pub const ALL: [(&'static str, Fault); 18] = [
        ("none", Fault::None),
        ("exit-at-start", Fault::ExitAtStart),
        ("crash-on-initialize", Fault::CrashOnInitialize),
        ("hang-on-initialize", Fault::HangOnInitialize),
        ("crash-between-calls", Fault::CrashBetweenCalls),
        ("log-lines", Fault::LogLines),
        ("partial-json", Fault::PartialJson),
        ("unknown-id", Fault::UnknownId),
        ("wrong-id", Fault::WrongId),
        ("unauthorized", Fault::Unauthorized),
        ("unauthorized-bare", Fault::UnauthorizedBare),
        ("forbidden", Fault::Forbidden),
        ("not-found", Fault::NotFound),
        ("internal-error", Fault::InternalError),
        ("non-json", Fault::NonJson),
        ("drop-mid-stream", Fault::DropMidStream),
        ("expire-session", Fault::ExpireSession),
        ("slow-start", Fault::SlowStart),
    ];

    /// The command-line name, e.g. `partial-json`.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, fault)| *fault == self)
            .map_or("none", |(name, _)| name)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, fault)| *fault)
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|(name, _)| *name).collect();
                format!("unknown fault `{name}`; known: {}", names.join(", "))
            })
    }
}
