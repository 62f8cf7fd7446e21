//! Bad servers make clear errors, fast: nothing hangs, nothing panics, children are reaped,
//! secrets stay secret.

mod support;

use std::time::{Duration, Instant};

use axum::{Router, http::StatusCode, routing::any};
use mcp_assured::{Error, McpAssured, fixture::free_port};
use mcp_assured_examples::HttpOptions;
use mcp_assured_tests::{eventually, processes::exists as process_exists};
use serde_json::json;
use support::{EXAMPLE_SERVER, HttpServer, Transport};

const SHORT: Duration = Duration::from_millis(500);

#[tokio::test]
async fn a_wrong_port_is_a_fast_connect_error() {
    for url in [
        format!("http://127.0.0.1:{}", free_port().unwrap()),
        format!("http://127.0.0.1:{}/sse", free_port().unwrap()),
    ] {
        let started = Instant::now();
        let error = McpAssured::client()
            .base_uri(&url)
            .build()
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "took {:?}",
            started.elapsed()
        );
        match &error {
            Error::Connect {
                target,
                status: None,
                ..
            } => assert!(url.starts_with(target.trim_end_matches("/mcp")), "{target}"),
            other => panic!("expected a connect error for {url}, got {other:?}"),
        }
        assert!(error.to_string().contains("127.0.0.1"), "{error}");
    }
}

async fn protected(transport: Transport, challenge: bool) -> HttpServer {
    let options = HttpOptions {
        bearer_token: Some("right-token".into()),
        challenge,
        ..HttpOptions::default()
    };
    match transport {
        Transport::Sse => HttpServer::sse(options).await,
        _ => HttpServer::streamable_http(options).await,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthorized_reports_the_status_and_challenge() {
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        for challenge in [true, false] {
            let server = protected(transport, challenge).await;
            let error = McpAssured::client()
                .base_uri(server.client_url(transport))
                .bearer_token("wrong-token")
                .timeout(Duration::from_secs(5))
                .build()
                .await
                .unwrap_err();
            let expected_challenge =
                challenge.then(|| r#"Bearer realm="mcp-assured-example""#.to_owned());
            match &error {
                Error::Connect {
                    status: Some(401),
                    www_authenticate,
                    ..
                } => assert_eq!(www_authenticate, &expected_challenge, "{transport:?}"),
                other => {
                    panic!("{transport:?}, challenge {challenge}: expected a 401, got {other:?}")
                }
            }
            let text = format!("{error} {error:?}");
            assert!(text.contains("HTTP 401"), "{text}");
            assert!(!text.contains("wrong-token"), "the token leaked: {text}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_right_token_gets_through_and_stays_secret() {
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let server = protected(transport, true).await;
        let builder = McpAssured::client()
            .base_uri(server.client_url(transport))
            .bearer_token("right-token");
        assert!(!format!("{builder:?}").contains("right-token"));
        let client = builder.build().await.unwrap();
        client.list_tools().await.unwrap();
        assert!(!format!("{client:?}").contains("right-token"));
        client.close().await.unwrap();
    }
}

/// An HTTP server that is not an MCP server: it answers every request the same way.
async fn answering(status: StatusCode, content_type: &'static str, body: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = Router::new().fallback(any(move || async move {
        (status, [("content-type", content_type)], body)
    }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_500_is_a_connect_error_with_the_status() {
    let url = answering(StatusCode::INTERNAL_SERVER_ERROR, "text/plain", "boom").await;
    for url in [url.clone(), format!("{url}/sse")] {
        let error = McpAssured::client()
            .base_uri(&url)
            .timeout(SHORT * 4)
            .build()
            .await
            .unwrap_err();
        assert_eq!(error.http_status(), Some(500), "{url}: {error:?}");
        assert!(error.to_string().contains("HTTP 500"), "{error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_rpc_over_http_is_an_error_not_a_hang() {
    let url = answering(StatusCode::OK, "application/json", r#"{"hello": "world"}"#).await;
    let started = Instant::now();
    let error = McpAssured::client()
        .base_uri(&url)
        .timeout(Duration::from_secs(5))
        .build()
        .await
        .unwrap_err();
    assert!(!error.is_timeout(), "{error}");
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(
        error.to_string().contains("hello"),
        "the offending body is quoted: {error}"
    );
}

#[tokio::test]
async fn a_child_that_exits_during_a_call_reports_its_status_and_stderr() {
    let client = McpAssured::client()
        .command(EXAMPLE_SERVER)
        .build()
        .await
        .unwrap();
    let started = Instant::now();
    let error = client
        .call_tool("crash", json!({"code": 3}))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    match &error {
        Error::ServerExited {
            method,
            status,
            stderr_tail,
        } => {
            assert_eq!(method.as_deref(), Some("tools/call crash"));
            assert!(status.contains('3'), "{status}");
            let stderr = stderr_tail.as_deref().unwrap_or_default();
            assert!(stderr.contains("crashing on purpose (code 3)"), "{stderr}");
        }
        other => panic!("expected ServerExited, got {other:?}"),
    }
    let text = error.to_string();
    assert!(text.contains("server stderr"), "{text}");
    assert!(client.is_closed());
}

#[tokio::test]
async fn junk_on_stdout_is_quoted() {
    let error = McpAssured::client()
        .command(EXAMPLE_SERVER)
        .arg("--junk-stdout")
        .build()
        .await
        .unwrap_err();
    match &error {
        Error::Undecodable { line, .. } => assert_eq!(line, "Server starting... (debug build)"),
        other => panic!("expected Undecodable, got {other:?}"),
    }
    assert!(
        error
            .to_string()
            .contains("Server starting... (debug build)"),
        "{error}"
    );
}

#[tokio::test]
async fn a_tool_that_never_answers_times_out_at_the_configured_time() {
    let client = McpAssured::client()
        .command(EXAMPLE_SERVER)
        .timeout(Duration::from_millis(400))
        .build()
        .await
        .unwrap();
    let started = Instant::now();
    let error = client.call_tool("hang", json!({})).await.unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, Error::Timeout { method, timeout, .. }
        if method == "tools/call hang" && *timeout == Duration::from_millis(400)),
        "{error:?}"
    );
    assert!(
        waited >= Duration::from_millis(400) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    // The session is still usable after a timeout.
    client.list_tools().await.unwrap();
}

#[tokio::test]
async fn a_server_that_never_answers_initialize_times_out_and_is_reaped() {
    // `sleep` reads nothing and writes nothing: an MCP server that never answers.
    let marker = "31.4159";
    let started = Instant::now();
    let error = McpAssured::client()
        .command("sleep")
        .arg(marker)
        .startup_timeout(SHORT)
        .build()
        .await
        .unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, Error::Timeout { method, .. } if method == "initialize"),
        "{error:?}"
    );
    assert!(
        waited >= SHORT && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    let gone = eventually(Duration::from_secs(3), || async { !sleep_running(marker) }).await;
    assert!(gone, "the child outlived the failed build");
}

fn sleep_running(marker: &str) -> bool {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .any(|cmdline| cmdline == format!("sleep\0{marker}\0").as_bytes())
}

#[tokio::test]
async fn a_server_that_exits_at_startup_shows_its_stderr() {
    let error = McpAssured::client()
        .command("sh")
        .args(["-c", "echo 'config file missing' >&2; exit 7"])
        .build()
        .await
        .unwrap_err();
    match &error {
        Error::ServerExited {
            status,
            stderr_tail,
            ..
        } => {
            assert!(status.contains('7'), "{status}");
            assert_eq!(stderr_tail.as_deref(), Some("config file missing"));
        }
        other => panic!("expected ServerExited, got {other:?}"),
    }
}

#[tokio::test]
async fn a_missing_program_is_a_spawn_error() {
    let error = McpAssured::client()
        .command("/nonexistent/mcp-server")
        .build()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Spawn { command, .. } if command == "/nonexistent/mcp-server"),
        "{error:?}"
    );
}

#[tokio::test]
async fn close_stops_and_reaps_the_child() {
    let client = McpAssured::client()
        .command(EXAMPLE_SERVER)
        .build()
        .await
        .unwrap();
    let pid = client.process_id().expect("a stdio client knows its child");
    assert!(process_exists(pid));
    client.close().await.unwrap();
    assert!(
        !process_exists(pid),
        "the child is still there (or a zombie) after close"
    );
}

#[tokio::test]
async fn dropping_the_client_kills_the_child() {
    let client = McpAssured::client()
        .command(EXAMPLE_SERVER)
        .build()
        .await
        .unwrap();
    let pid = client.process_id().unwrap();
    drop(client);
    let gone = eventually(Duration::from_secs(3), || async { !process_exists(pid) }).await;
    assert!(gone, "the child outlived its client");
}
