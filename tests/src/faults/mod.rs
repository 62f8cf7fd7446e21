//! A misbehaving MCP server, for the fault-injection suite (`tests/tests/faults/`).
//!
//! [`FaultServer`] is a well-behaved rmcp server whose tools misbehave on request (answer 5 MB,
//! flood notifications, hang, crash, return an error with odd `data`). The `fault-server`
//! binary serves it over stdio, streamable HTTP or HTTP+SSE and breaks things too, one
//! [`Fault`] per process: the handshake ([`FaultServer::with_fault`]), the JSON-RPC lines on
//! stdio ([`wire`]) or the HTTP responses of either HTTP transport ([`http`]).
//!
//! ```text
//! fault-server [--transport stdio|http|sse] [--port N] [--fault NAME] [--pid-file PATH]
//! ```
//!
//! With `--pid-file`, the first thing the process does is write its pid there, so a test can
//! prove the process is gone (reaped, not a zombie) even when the client never learnt its
//! pid: it died or hung during the handshake, or a test harness started it over HTTP.

pub mod http;
mod server;
pub mod wire;

use std::{fmt, str::FromStr, time::Duration};

pub use server::{Dropped, FaultServer};

/// What [`Fault::UnknownId`] sends: a response to a request nobody made.
pub const STRAY_RESPONSE: &str = r#"{"jsonrpc":"2.0","id":"nobody-asked-987654","result":{}}"#;

/// How long [`Fault::LateAnswer`] holds each answer.
pub const LATE_ANSWER: Duration = Duration::from_secs(1);

/// One way for the `fault-server` process to misbehave below its tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// Behave.
    None,
    /// Exit with status 0 before reading anything.
    ExitAtStart,
    /// Exit with status 3 (after a line on stderr) when `initialize` arrives, on every
    /// transport (over HTTP: with the request open).
    CrashOnInitialize,
    /// Read `initialize` and never answer it, on every transport.
    HangOnInitialize,
    /// Exit with status 4 shortly after answering the first `tools/call`, while the client is
    /// idle.
    CrashBetweenCalls,
    /// Print a log line on stdout before each `tools/call` answer.
    LogLines,
    /// Send the first half of each `tools/call` answer, then a newline.
    PartialJson,
    /// Send [`STRAY_RESPONSE`], whose id nobody asked for, before each `tools/call` answer
    /// (stdio and streamable HTTP).
    UnknownId,
    /// Send each `tools/call` answer under a wrong id (so the real one never comes).
    WrongId,
    /// stdio: hold each `tools/call` answer for [`LATE_ANSWER`] before sending it, and
    /// everything after it too (one stream keeps its order). `notifications/cancelled` never
    /// reaches the server, so every call is answered, however late.
    LateAnswer,
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
    /// Streamable HTTP: each `tools/call` starts an SSE stream, then the connection is
    /// dropped. HTTP+SSE: each `tools/call` is accepted (`202`) and never answered, and the
    /// first one breaks every event stream of the process, of any session, open or opened
    /// later.
    DropMidStream,
    /// HTTP: after the first `tools/call`, every request with a session id (the
    /// `Mcp-Session-Id` header, or `sessionId=` in the query for HTTP+SSE) gets `404`.
    ExpireSession,
    /// HTTP: the port opens 2 s after start.
    SlowStart,
    /// stdio, 2026-07-28: every `server/discover` answered after the client's first (its
    /// probe) lacks `supportedVersions`.
    DiscoverWithoutVersions,
    /// stdio, 2026-07-28: a request of any protocol version is served as 2026-07-28 (the
    /// proxy rewrites its `_meta`), instead of refused with -32022.
    AnyVersion,
    /// stdio, 2026-07-28: a request without its `_meta` is served (the proxy gives it the
    /// metadata of the request before), instead of refused with -32602.
    MetadataOptional,
    /// stdio: a `notifications/message` (data `"probed"`) is sent just before the answer to
    /// the client's `server/discover` probe, which reads past it.
    NoisyProbe,
    /// stdio: `server/discover` is answered with `supportedVersions` of the handshake only
    /// (`["2025-11-25"]`): a client negotiating the newest revision uses `initialize`.
    DiscoverLegacyOnly,
    /// Streamable HTTP, 2026-07-28: the `Mcp-Method` header is set from the body's method
    /// before the server sees it, so a missing or mismatched one is served, not refused with
    /// 400 and -32020.
    MethodHeaderIgnored,
    /// HTTP: every request's `Host` is made the server's own before the server sees it, so
    /// a foreign one (DNS rebinding) is served, not refused with 403.
    AnyHost,
    /// HTTP: the `Origin` header is dropped before the server sees it, so a foreign one is
    /// served, not refused with 403.
    AnyOrigin,
    /// Streamable HTTP: a request without `Mcp-Session-Id` (but `initialize`) is given the
    /// last session id issued, so it is served, not refused with 400.
    SessionOptional,
    /// Streamable HTTP: a request under a session id never issued is given the last one
    /// issued, so it is served, not refused with 404.
    UnknownSessionServed,
    /// Streamable HTTP: `DELETE` is answered 200 and ends nothing.
    DeleteIgnored,
    /// Streamable HTTP: an `MCP-Protocol-Version` header naming a version the server does
    /// not know is dropped, so the request is served, not refused with 400.
    AnyProtocolHeader,
    /// Streamable HTTP: a notification or response is answered 200 with a JSON body, not
    /// 202 with none.
    NotificationAnswered,
    /// Streamable HTTP: a POST that accepts only JSON or only events is made to accept both,
    /// so it may get what it did not ask for, not a 406.
    IgnoresAccept,
    /// Streamable HTTP: a `GET` is answered 200 with a JSON body, neither an event stream
    /// nor 405.
    GetNotSse,
    /// Streamable HTTP: events carry ids, but a `GET` with `Last-Event-ID` is answered 400.
    ResumeRefused,
    /// Streamable HTTP: each POST is held 300 ms, and a POST while another is open gets 409.
    OneStreamAtATime,
    /// Streamable HTTP: the `GET` that opens a session's standalone stream is answered
    /// 300 ms late, and a request posted under a session before any such stream was
    /// answered gets a JSON-RPC error (-32603): a server with nowhere yet to send what it
    /// asks the client, which it would drop (the TypeScript SDK does). A client's matter:
    /// one that sends requests before its stream is open loses what the server asks.
    StreamOpensLate,
    /// stdio: the server advertises resources and prompts (its answer to `initialize` or
    /// `server/discover` says so), but `resources/list`, `resources/templates/list` and
    /// `prompts/list` fail with -32601.
    ListsFail,
    /// stdio: every request for a method the server does not have (`server/discover` among
    /// them) is answered with an empty result, `{}`, instead of -32601: an older revision's
    /// server that answers whatever it does not know.
    AnswersAnything,
    /// stdio: every request for a method the server does not have (`server/discover` among
    /// them) is dropped, never answered; a `ping` before `initialize` is answered.
    DropsUnknown,
    /// stdio: every request before `initialize` (`server/discover`, `ping`) is dropped, never
    /// answered.
    SilentUntilInitialize,
    /// Every transport: an `echo` call that finds another `echo` in flight (of any session of
    /// the process) within [`SWAP_WINDOW`] gets that call's text and gives it its own, so two
    /// requests in flight get each other's answers, under their own ids. A call alone is
    /// answered right (after waiting [`SWAP_WINDOW`] for a partner).
    SwapAnswers,
    /// Every transport: each `initialize`, and each `server/discover` (what a client of
    /// 2026-07-28 opens a connection with), keeps [`LEAK_PER_SESSION`] bytes, written to, for
    /// as long as the process lives. Over HTTP, where the sessions share the process, every
    /// session opened and closed leaks; over stdio a session is a process of its own.
    LeakPerSession,
    /// stdio, 2026-07-28: `resultType` is taken out of every result but `server/discover`'s
    /// (`tools/list`, `tools/call`, ...), which the revision's schema requires and the
    /// official SDKs' clients refuse without.
    ResultsWithoutResultType,
    /// stdio, 2026-07-28: `resultType` is taken out of every `server/discover` answer, the
    /// client's probe included.
    DiscoverWithoutResultType,
    /// HTTP: `tools/call` is rate limited. Past [`RATE_LIMIT`] calls in the last second, a
    /// call is answered `429 Too Many Requests` with `Retry-After: 1`; the third call of the
    /// process is answered `503 Service Unavailable` with `Retry-After: 1`, a moment's
    /// maintenance. Neither reaches the server.
    RateLimited,
}

/// How many `tools/call` a second [`Fault::RateLimited`] serves.
pub const RATE_LIMIT: usize = 20;

/// How long an `echo` of [`Fault::SwapAnswers`] waits for another to swap answers with.
pub const SWAP_WINDOW: Duration = Duration::from_millis(50);

/// What each `initialize` or `server/discover` of [`Fault::LeakPerSession`] keeps: 3 MiB.
pub const LEAK_PER_SESSION: usize = 3 * 1024 * 1024;

impl Fault {
    /// Every fault with its command-line name.
    pub const ALL: [(&'static str, Fault); 46] = [
        ("none", Fault::None),
        ("exit-at-start", Fault::ExitAtStart),
        ("crash-on-initialize", Fault::CrashOnInitialize),
        ("hang-on-initialize", Fault::HangOnInitialize),
        ("crash-between-calls", Fault::CrashBetweenCalls),
        ("log-lines", Fault::LogLines),
        ("partial-json", Fault::PartialJson),
        ("unknown-id", Fault::UnknownId),
        ("wrong-id", Fault::WrongId),
        ("late-answer", Fault::LateAnswer),
        ("unauthorized", Fault::Unauthorized),
        ("unauthorized-bare", Fault::UnauthorizedBare),
        ("forbidden", Fault::Forbidden),
        ("not-found", Fault::NotFound),
        ("internal-error", Fault::InternalError),
        ("non-json", Fault::NonJson),
        ("drop-mid-stream", Fault::DropMidStream),
        ("expire-session", Fault::ExpireSession),
        ("slow-start", Fault::SlowStart),
        ("discover-without-versions", Fault::DiscoverWithoutVersions),
        ("any-version", Fault::AnyVersion),
        ("metadata-optional", Fault::MetadataOptional),
        ("method-header-ignored", Fault::MethodHeaderIgnored),
        ("discover-legacy-only", Fault::DiscoverLegacyOnly),
        ("noisy-probe", Fault::NoisyProbe),
        ("any-host", Fault::AnyHost),
        ("any-origin", Fault::AnyOrigin),
        ("session-optional", Fault::SessionOptional),
        ("unknown-session-served", Fault::UnknownSessionServed),
        ("delete-ignored", Fault::DeleteIgnored),
        ("any-protocol-header", Fault::AnyProtocolHeader),
        ("notification-answered", Fault::NotificationAnswered),
        ("ignores-accept", Fault::IgnoresAccept),
        ("get-not-sse", Fault::GetNotSse),
        ("resume-refused", Fault::ResumeRefused),
        ("one-stream-at-a-time", Fault::OneStreamAtATime),
        ("stream-opens-late", Fault::StreamOpensLate),
        ("lists-fail", Fault::ListsFail),
        ("answers-anything", Fault::AnswersAnything),
        ("drops-unknown", Fault::DropsUnknown),
        ("silent-until-initialize", Fault::SilentUntilInitialize),
        ("swap-answers", Fault::SwapAnswers),
        ("leak-per-session", Fault::LeakPerSession),
        (
            "results-without-result-type",
            Fault::ResultsWithoutResultType,
        ),
        (
            "discover-without-result-type",
            Fault::DiscoverWithoutResultType,
        ),
        ("rate-limited", Fault::RateLimited),
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
