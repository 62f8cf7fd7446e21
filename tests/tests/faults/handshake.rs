//! Faults during the handshake, on every transport with a process: exiting at once, crashing
//! when `initialize` arrives, never answering it. (An HTTP server that exits at once never
//! listens, so no client can connect: `mcp_test.rs` checks `#[mcp_test]`'s readiness wait
//! for that.)

use std::time::{Duration, Instant};

use mcp_assured::Error;
use mcp_assured_tests::faults::Fault;

use crate::support::{
    Via, assert_crashed, assert_gone, assert_within, fault_server, on, stdio, tag,
};

#[tokio::test]
async fn exiting_at_once_is_a_server_exited_error() {
    let tag = tag();
    let started = Instant::now();
    let error = stdio(Fault::ExitAtStart, &tag).build().await.unwrap_err();
    assert_within(started, Duration::from_secs(3));
    assert!(
        matches!(&error, Error::ServerExited { status, method, .. }
            if status == "exit status: 0" && method.as_deref() == Some("initialize")),
        "{error:?}"
    );
    assert!(error.to_string().contains("exit status: 0"), "{error}");
    assert_gone(&tag).await;
}

/// The server exits when `initialize` arrives (over HTTP with the request open): a typed
/// error naming `initialize` at once, not a timeout, and the process reaped.
async fn crashing_during_initialize(via: Via) {
    const STDERR: &str = "fault-server: crashing during initialize (code 3)";
    let tag = tag();
    let (builder, server) = fault_server(via, Fault::CrashOnInitialize, &tag).await;
    let started = Instant::now();
    let error = builder.build().await.unwrap_err();
    assert_within(started, Duration::from_secs(3));
    let reason = assert_crashed(via, &error, "initialize", 3, STDERR);
    // Streamable HTTP: the POST's connection closed unanswered. HTTP+SSE: the POST was
    // accepted, then the session's event stream broke.
    let expected = match via {
        Via::Http => Some("connection closed before message completed"),
        Via::Sse => Some("the SSE stream broke"),
        _ => None,
    };
    if let (Some(reason), Some(expected)) = (reason, expected) {
        assert!(reason.contains(expected), "{error:?}");
    }
    if let Some(server) = server {
        server.stop().await;
        let stderr = server.stderr_tail().unwrap_or_default();
        assert!(
            stderr.lines().any(|line| line.starts_with(STDERR)),
            "{stderr}"
        );
    }
    assert_gone(&tag).await;
}
on!(crashing_during_initialize: stdio, http, sse);

/// The server never answers `initialize`: a `Timeout` naming it, at the configured time, and
/// the process reaped (a stdio child by the client, an HTTP one by its harness).
async fn hanging_on_initialize(via: Via) {
    let tag = tag();
    let (builder, server) = fault_server(via, Fault::HangOnInitialize, &tag).await;
    let limit = Duration::from_secs(1);
    let started = Instant::now();
    let error = builder.startup_timeout(limit).build().await.unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, Error::Timeout { method, timeout, .. }
            if method == "initialize" && *timeout == limit),
        "{error:?}"
    );
    assert!(waited >= limit && waited < limit * 4, "{waited:?}");
    if let Some(server) = server {
        server.stop().await;
    }
    assert_gone(&tag).await;
}
on!(hanging_on_initialize: stdio, http, sse);
