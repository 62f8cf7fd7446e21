//! Faults of an HTTP server: error statuses, bodies that are not JSON-RPC, connections dropped
//! mid-stream, expired sessions, a slow start.

use std::time::{Duration, Instant};

use mcp_assured::{Error, McpAssured, McpClient, mcp_test};
use mcp_assured_tests::{
    ServerProcess,
    faults::{Fault, http::CHALLENGE},
};
use serde_json::json;

use crate::support::{TIMEOUT, assert_within, http_server, tag};

/// Connecting to `server` at `path` (`/mcp`: streamable HTTP, `/sse`: HTTP+SSE) fails, fast.
async fn connect_error(server: &ServerProcess, path: &str) -> Error {
    let url = format!("{}{path}", server.base_url());
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

#[tokio::test]
async fn error_statuses_are_connect_errors_with_status_challenge_and_body() {
    // rmcp's streamable HTTP client drops the body of a 401 with a challenge and of a
    // non-JSON 5xx, so only the HTTP+SSE transport (ours) can quote those.
    let cases = [
        (
            Fault::Unauthorized,
            401,
            Some(CHALLENGE),
            "the token expired",
            false,
        ),
        (Fault::UnauthorizedBare, 401, None, "no credentials", true),
        (Fault::Forbidden, 403, None, "lacks scope mcp:tools", true),
        (Fault::NotFound, 404, None, "", true),
        (
            Fault::InternalError,
            500,
            None,
            "database unavailable",
            false,
        ),
    ];
    for (fault, status, challenge, body, streamable_keeps_body) in cases {
        let server = http_server(fault, &tag()).await;
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
                    if path == "/sse" || streamable_keeps_body {
                        assert!(reason.contains(body), "{context}");
                    }
                }
                _ => panic!("expected a connect error: {context}"),
            }
            assert!(
                error.to_string().contains(&format!("HTTP {status}")),
                "{context}"
            );
        }
        server.shutdown().await;
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_is_quoted() {
    let server = http_server(Fault::NonJson, &tag()).await;
    let error = connect_error(&server, "/mcp").await;
    assert!(error.to_string().contains("Welcome to nginx!"), "{error}");
    // An HTTP+SSE endpoint must answer with an event stream; the error says what came instead.
    let error = connect_error(&server, "/sse").await;
    assert!(
        error
            .to_string()
            .contains("expected an SSE stream (text/event-stream) but got `application/json`"),
        "{error}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_connection_dropped_mid_stream_fails_the_call_at_once() {
    let server = http_server(Fault::DropMidStream, &tag()).await;
    let client = McpAssured::client()
        .base_uri(server.endpoint_url())
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap();
    let started = Instant::now();
    let error = client
        .call_tool("echo", json!({"text": "hello"}))
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    match &error {
        Error::Transport { method, .. } => {
            assert_eq!(method.as_deref(), Some("tools/call echo"));
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
    // Only the call's stream broke: the session still answers.
    client.ping().await.unwrap();
    client.close().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn an_expired_session_is_a_404_that_says_so() {
    let server = http_server(Fault::ExpireSession, &tag()).await;
    let client = McpAssured::client()
        .base_uri(server.endpoint_url())
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap();
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
    assert_eq!(error.http_status(), Some(404), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("tools/call echo"), "{text}");
    assert!(text.contains("the session expired"), "{text}");
    assert_eq!(text.matches("404").count(), 2, "{text}");
    let _ = client.close().await;
    server.shutdown().await;
}

#[tokio::test]
async fn connecting_before_the_port_opens_is_refused_at_once() {
    let port = mcp_assured_tests::free_loopback_port();
    let tag = tag();
    let mut child = tokio::process::Command::new(crate::support::FAULT_SERVER)
        .args(["--transport", "http", "--port", &port.to_string()])
        .args(["--fault", "slow-start", "--tag", &tag])
        .kill_on_drop(true)
        .spawn()
        .unwrap();
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
}

/// `#[mcp_test]` waits for a server that opens its port after 2 s.
#[mcp_test(
    server = bin("fault-server"),
    transport = http(args("--transport", "http", "--port", "{port}", "--fault", "slow-start")),
    timeout = "20s"
)]
async fn mcp_test_waits_for_a_slow_start(client: McpClient) {
    let echoed = client
        .call_tool("echo", json!({"text": "worth the wait"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), "worth the wait");
}
