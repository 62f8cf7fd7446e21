//! Faults of an HTTP server (streamable HTTP and HTTP+SSE): error statuses, bodies that are
//! not JSON-RPC, connections dropped mid-stream, expired sessions, a slow start.

use std::time::{Duration, Instant};

use mcp_assured::{
    Error, McpAssured, McpClient,
    fixture::{BoxError, Fixture, FixtureContext, ServerProcess, free_port},
    mcp_test,
};
use mcp_assured_tests::{
    faults::{
        Fault,
        http::{CHALLENGE, NON_JSON_BODY},
    },
    processes::assert_reaped,
};
use serde_json::json;

use crate::support::{
    FAULT_SERVER, TIMEOUT, Via, assert_gone, assert_within, fault_server, http_server, on, tag,
};

/// Connecting to `server` at `path` (`/mcp`: streamable HTTP, `/sse`: HTTP+SSE) fails, fast.
async fn connect_error(server: &ServerProcess, path: &str) -> Error {
    let url = format!("http://127.0.0.1:{}{path}", server.port().unwrap());
    let started = Instant::now();
    let error = McpAssured::client()
        .base_uri(&url)
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    assert!(!error.is_timeout(), "{url}: {error:?}");
    error
}

/// How the empty body of a `404` (nothing at the path) is reported: over streamable HTTP,
/// then over HTTP+SSE.
const NOT_FOUND_REASONS: [&str; 2] = [
    "unexpected server response: HTTP 404 Not Found: ",
    "the SSE stream was refused: <empty body>",
];

#[tokio::test]
async fn error_statuses_are_connect_errors_with_status_challenge_and_body() {
    // rmcp's streamable HTTP client drops the body of a 401 with a challenge and of a
    // non-JSON 5xx, so only the HTTP+SSE transport (ours) can quote those.
    let cases = [
        (
            Fault::Unauthorized,
            401,
            Some(CHALLENGE),
            Some("the token expired"),
            false,
        ),
        (
            Fault::UnauthorizedBare,
            401,
            None,
            Some("no credentials"),
            true,
        ),
        (
            Fault::Forbidden,
            403,
            None,
            Some("lacks scope mcp:tools"),
            true,
        ),
        // Empty: the reasons are pinned whole.
        (Fault::NotFound, 404, None, None, true),
        (
            Fault::InternalError,
            500,
            None,
            Some("database unavailable"),
            false,
        ),
    ];
    for (fault, status, challenge, body, streamable_keeps_body) in cases {
        let tag = tag();
        let server = http_server(fault, &tag).await;
        for path in ["/mcp", "/sse"] {
            let error = connect_error(&server, path).await;
            let context = format!("{fault} at {path}: {error:?}");
            match &error {
                Error::Connect {
                    status: got,
                    www_authenticate,
                    reason,
                    ..
                } => {
                    assert_eq!(*got, Some(status), "{context}");
                    if status == 401 {
                        assert_eq!(www_authenticate.as_deref(), challenge, "{context}");
                    }
                    match body {
                        Some(body) if path == "/sse" || streamable_keeps_body => {
                            assert!(reason.contains(body), "{context}");
                        }
                        Some(_) => {}
                        None => {
                            let expected = NOT_FOUND_REASONS[usize::from(path == "/sse")];
                            assert_eq!(reason, expected, "{context}");
                        }
                    }
                }
                _ => panic!("expected a connect error: {context}"),
            }
            assert!(
                error.to_string().contains(&format!("HTTP {status}")),
                "{context}"
            );
        }
        server.stop().await;
        assert_gone(&tag).await;
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_is_quoted() {
    let tag = tag();
    let server = http_server(Fault::NonJson, &tag).await;
    // Streamable HTTP: undecodable, as a line that is not JSON over stdio is.
    let error = connect_error(&server, "/mcp").await;
    match &error {
        Error::Undecodable {
            line,
            reason,
            method,
            stderr_tail: None,
        } => {
            assert_eq!(method.as_deref(), Some("initialize"), "{error:?}");
            assert_eq!(line, NON_JSON_BODY, "{error:?}");
            assert_eq!(reason, "expected value at line 1 column 1", "{error:?}");
        }
        other => panic!("expected an undecodable message, got {other:?}"),
    }
    assert!(error.to_string().contains(NON_JSON_BODY), "{error}");
    // An HTTP+SSE endpoint must answer with an event stream; the error says what came instead.
    let error = connect_error(&server, "/sse").await;
    match &error {
        Error::Connect {
            status: Some(200),
            reason,
            ..
        } => assert!(
            reason
                .contains("expected an SSE stream (text/event-stream) but got `application/json`"),
            "{error:?}"
        ),
        other => panic!("expected a connect error with status 200, got {other:?}"),
    }
    server.stop().await;
    assert_gone(&tag).await;
}

/// The connection carrying a call's answer breaks: a transport error naming the call, at
/// once, not a timeout. Streamable HTTP: the call's own SSE stream breaks, and the session
/// goes on. HTTP+SSE: the session's only event stream breaks, and the session with it.
async fn a_connection_dropped_mid_stream(via: Via) {
    let tag = tag();
    let (builder, server) = fault_server(via, Fault::DropMidStream, &tag).await;
    let client = builder.build().await.unwrap();
    let started = Instant::now();
    let error = client
        .call_tool("echo", json!({"text": "hello"}))
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    match &error {
        Error::Transport { method, reason, .. } => {
            assert_eq!(method.as_deref(), Some("tools/call echo"), "{error:?}");
            // No response came under another id: a drop is told as one.
            if via == Via::Http {
                assert!(
                    reason.contains("connection closed")
                        || reason.contains("closed the connection"),
                    "{error:?}"
                );
            }
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
    if via == Via::Http {
        client.ping().await.unwrap();
        client.close().await.unwrap();
    } else {
        let started = Instant::now();
        let error = client.ping().await.unwrap_err();
        assert_within(started, Duration::from_secs(3));
        assert!(
            matches!(&error, Error::Transport { method, .. } if method.as_deref() == Some("ping")),
            "{error:?}"
        );
        let _ = client.close().await;
    }
    server.unwrap().stop().await;
    assert_gone(&tag).await;
}
on!(a_connection_dropped_mid_stream: http, sse);

/// After one call the server forgets the session: the next call is a transport error with
/// status 404 that says the session expired, at once.
async fn an_expired_session_is_a_404_that_says_so(via: Via) {
    let tag = tag();
    let (builder, server) = fault_server(via, Fault::ExpireSession, &tag).await;
    let client = builder.build().await.unwrap();
    let echoed = client
        .call_tool("echo", json!({"text": "first"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), "first");
    let started = Instant::now();
    let error = client
        .call_tool("echo", json!({"text": "second"}))
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    match &error {
        Error::Transport {
            method,
            status: Some(404),
            reason,
        } => {
            assert_eq!(method.as_deref(), Some("tools/call echo"), "{error:?}");
            assert!(reason.contains("the session expired"), "{error:?}");
        }
        other => panic!("expected a transport error with status 404, got {other:?}"),
    }
    assert!(error.to_string().contains("(HTTP 404)"), "{error}");
    let _ = client.close().await;
    server.unwrap().stop().await;
    assert_gone(&tag).await;
}
on!(an_expired_session_is_a_404_that_says_so: http, sse);

/// rmcp opens a session's standalone stream in the background after `initialized`; a
/// server whose stream opens late would have lost what it asks of the client during the
/// first call, had the call gone out before the stream was answered.
#[tokio::test]
async fn the_first_call_waits_for_the_standalone_stream() {
    let tag = tag();
    let (builder, server) = fault_server(Via::Http, Fault::StreamOpensLate, &tag).await;
    let started = Instant::now();
    let client = builder.build().await.unwrap();
    let echoed = client
        .call_tool("echo", json!({"text": "after the stream"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), "after the stream");
    // The stream's 300 ms, once: not the bound of a stream never answered.
    assert_within(started, Duration::from_secs(1));
    let _ = client.close().await;
    drop(server);
    assert_gone(&tag).await;
}

#[tokio::test]
async fn connecting_before_the_port_opens_is_refused_at_once() {
    let port = free_port().unwrap();
    let mut child = tokio::process::Command::new(FAULT_SERVER)
        .args(["--transport", "http", "--port", &port.to_string()])
        .args(["--fault", "slow-start"])
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = child.id().unwrap();
    let started = Instant::now();
    let error = McpAssured::client()
        .base_uri(format!("http://127.0.0.1:{port}/mcp"))
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(1));
    assert!(
        matches!(&error, Error::Connect { status: None, reason, .. } if reason.contains("refused")),
        "{error:?}"
    );
    child.kill().await.unwrap();
    assert_reaped(pid);
}

/// When the test started, before its server: for how long `#[mcp_test]` waited.
#[derive(Debug)]
struct StartedAt(Instant);

impl Fixture for StartedAt {
    async fn setup(_: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        Ok(StartedAt(Instant::now()))
    }
}

/// `#[mcp_test]` waits for a server that opens its port after 2 s.
#[mcp_test(
    server = bin("fault-server"),
    transport = http(args("--transport", "http", "--port", "{port}", "--fault", "slow-start")),
    timeout = "20s"
)]
async fn mcp_test_waits_for_a_slow_start(client: McpClient, started: &StartedAt) {
    let waited = started.0.elapsed();
    assert!(
        waited >= Duration::from_millis(1_500) && waited < Duration::from_secs(10),
        "{waited:?}"
    );
    let echoed = client
        .call_tool("echo", json!({"text": "worth the wait"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), "worth the wait");
}
