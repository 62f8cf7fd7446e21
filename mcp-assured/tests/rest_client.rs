//! What the REST client makes of answers that are not REST envelopes: each is a typed error
//! naming the request and what came back, never a hang or a panic. The peer is a bare axum
//! app answering one way per route, like a proxy or a broken server would; what the client
//! sends is checked against a wiremock REST endpoint (plain HTTP, not MCP).

use std::time::{Duration, Instant};

use axum::{
    Router,
    http::{StatusCode, header},
    routing::{get, post},
};
use mcp_assured::{
    Error, McpAssured,
    fixture::free_port,
    prelude::*,
    rest::{ErrorCode, ExecutionContext, Priority, RestClient},
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{body_json, header as header_is, method, path},
    },
};
use serde_json::json;

async fn serve(app: Router) -> RestClient {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    McpAssured::rest()
        .base_uri(base)
        .timeout(Duration::from_millis(500))
        .build()
        .unwrap()
}

fn execute(path_tool: &str) -> String {
    format!("/mcp/tools/{path_tool}/execute")
}

#[tokio::test]
async fn non_envelope_answers_are_typed_errors() {
    let html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    let app = Router::new()
        .route(
            &execute("html"),
            post(move || async move {
                (StatusCode::BAD_GATEWAY, [(header::CONTENT_TYPE, "text/html")], html)
            }),
        )
        .route(
            &execute("html_ok"),
            post(move || async move { ([(header::CONTENT_TYPE, "text/html")], html) }),
        )
        .route(
            &execute("limited"),
            post(|| async {
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    [(header::RETRY_AFTER, "30")],
                    "slow down",
                )
            }),
        )
        .route(
            &execute("limited_envelope"),
            post(|| async {
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    [(header::RETRY_AFTER, "30")],
                    axum::Json(json!({
                        "success": false,
                        "error": {"code": "RATE_LIMIT_ERROR", "message": "30 per minute"},
                        "metadata": {"executionId": "e1", "duration": 0, "timestamp": "2026-11-22T00:00:00Z"}
                    })),
                )
            }),
        )
        .route(
            &execute("not_an_envelope"),
            post(|| async { axum::Json(json!({"answer": 42})) }),
        )
        .route(
            &execute("custom_code"),
            post(|| async {
                axum::Json(json!({"success": false, "error": {"code": "QUOTA_EXCEEDED", "message": "m"}}))
            }),
        )
        .route(
            &execute("slow"),
            post(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                "late"
            }),
        )
        .route(
            &execute("echo_headers"),
            post(|headers: axum::http::HeaderMap| async move {
                let header = |name: &str| {
                    headers
                        .get(name)
                        .and_then(|value| value.to_str().ok())
                        .map(str::to_owned)
                };
                (
                    [("x-mcp-version", "1.0")],
                    axum::Json(json!({
                        "success": true,
                        "result": {"version": header("x-mcp-version"), "key": header("x-api-key")},
                    })),
                )
            }),
        )
        .route("/mcp/tools", get(|| async { "not json" }));
    let rest = serve(app).await;

    let error = rest.execute("html", json!({})).await.unwrap_err();
    assert!(
        matches!(&error, Error::Http { status: 502, content_type: Some(t), body, .. }
            if t == "text/html" && body.contains("Bad Gateway")),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("POST /mcp/tools/html/execute"),
        "{error}"
    );

    let error = rest.execute("html_ok", json!({})).await.unwrap_err();
    assert!(
        matches!(&error, Error::Undecodable { line, reason, .. }
            if line.contains("Bad Gateway") && reason.contains("text/html")),
        "{error:?}"
    );

    let error = rest.execute("limited", json!({})).await.unwrap_err();
    assert!(
        matches!(&error, Error::Http { status: 429, retry_after: Some(r), body, .. }
            if r == "30" && body == "slow down"),
        "{error:?}"
    );
    assert!(error.to_string().contains("Retry-After: 30"), "{error}");

    let limited = rest.execute("limited_envelope", json!({})).await.unwrap();
    assert_eq!(limited.status, 429);
    assert_eq!(limited.retry_after.as_deref(), Some("30"));
    assert_eq!(limited.error_code().unwrap().as_str(), "RATE_LIMIT_ERROR");

    let error = rest
        .execute("not_an_envelope", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::UnexpectedResponse { detail, .. } if detail.contains("42")),
        "{error:?}"
    );

    let custom = rest.execute("custom_code", json!({})).await.unwrap();
    assert_eq!(custom.error_code().unwrap().as_str(), "QUOTA_EXCEEDED");
    let failure = custom.assert().try_is_success().unwrap_err();
    assert!(
        failure.message().starts_with(
            "Expected tool `custom_code` to succeed over REST, but it failed with QUOTA_EXCEEDED."
        ),
        "{failure}"
    );
    assert!(failure.message().contains("HTTP status=200"), "{failure}");
    let failure = custom
        .assert()
        .try_has_error_code(ErrorCode::ToolNotFound)
        .unwrap_err();
    assert!(
        failure
            .message()
            .contains("to fail with TOOL_NOT_FOUND over REST, but it failed with QUOTA_EXCEEDED"),
        "{failure}"
    );

    let started = Instant::now();
    let error = rest.execute("slow", json!({})).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        matches!(&error, Error::Timeout { method, .. } if method == "POST /mcp/tools/slow/execute"),
        "{error:?}"
    );

    let echoed = rest.execute("echo_headers", json!({})).await.unwrap();
    echoed
        .assert()
        .result_equals(json!({"version": "1.0", "key": null}));
    assert_eq!(echoed.protocol_version.as_deref(), Some("1.0"));
    let pinned = McpAssured::rest()
        .base_uri(rest.base_uri())
        .protocol_version("2.0")
        .header("X-Api-Key", "k")
        .build()
        .unwrap();
    let echoed = pinned.execute("echo_headers", json!({})).await.unwrap();
    echoed
        .assert()
        .result_equals(json!({"version": "2.0", "key": "k"}));

    let error = rest.list_tools().await.unwrap_err();
    assert!(matches!(&error, Error::Undecodable { .. }), "{error:?}");

    let error = rest
        .execute("html", json!("not an object"))
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::InvalidInput { .. }), "{error:?}");
}

#[tokio::test]
async fn nothing_listening_is_a_connect_error() {
    let base = format!("http://127.0.0.1:{}", free_port().unwrap());
    let rest = McpAssured::rest().base_uri(&base).build().unwrap();
    let error = rest.list_tools().await.unwrap_err();
    assert!(
        matches!(&error, Error::Connect { status: None, .. }),
        "{error:?}"
    );
}

#[test]
fn a_base_uri_is_required_and_must_be_http() {
    assert!(matches!(
        McpAssured::rest().build(),
        Err(Error::InvalidInput { .. })
    ));
    assert!(matches!(
        McpAssured::rest().base_uri("ftp://example.com").build(),
        Err(Error::InvalidInput { .. })
    ));
}

#[tokio::test]
async fn a_rate_limited_listing_keeps_retry_after() {
    let app = Router::new().route(
        "/mcp/tools",
        get(|| async {
            (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "7")],
                "slow down",
            )
        }),
    );
    let error = serve(app).await.list_tools().await.unwrap_err();
    assert!(
        matches!(&error, Error::Http { request, status: 429, retry_after: Some(r), body, .. }
            if request == "GET /mcp/tools" && r == "7" && body == "slow down"),
        "{error:?}"
    );
    assert!(error.to_string().contains("Retry-After: 7"), "{error}");
}

fn envelope(result: serde_json::Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "success": true,
        "result": result,
        "metadata": {"executionId": "e1", "duration": 1, "timestamp": "2026-11-23T10:00:00Z"},
    }))
}

/// The context reaches the server as the spec's `context` object, and any context timeout,
/// even one equal to or shorter than the client's, lets the client wait 5 s past it, so that
/// the server's `TIMEOUT_ERROR` is what comes back.
#[tokio::test]
async fn the_context_is_sent_and_its_timeout_stretches_the_clients() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/mcp/tools/echo/execute"))
        .and(body_json(json!({
            "params": {"a": 1},
            "context": {"sessionId": "s-1", "userId": "u-1", "priority": "high", "timeout": 2000},
        })))
        .respond_with(envelope(json!("with context")).set_delay(Duration::from_millis(600)))
        .expect(1)
        .mount(&server)
        .await;
    for (millis, answer) in [(300, "equal"), (100, "shorter")] {
        Mock::given(method("POST"))
            .and(path("/mcp/tools/echo/execute"))
            .and(body_json(
                json!({"params": {"a": 1}, "context": {"timeout": millis}}),
            ))
            .respond_with(envelope(json!(answer)).set_delay(Duration::from_millis(600)))
            .expect(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("POST"))
        .and(path("/mcp/tools/echo/execute"))
        .and(body_json(json!({"params": {"a": 1}})))
        .respond_with(envelope(json!("without")).set_delay(Duration::from_millis(600)))
        .expect(1)
        .mount(&server)
        .await;
    let rest = McpAssured::rest()
        .base_uri(server.uri())
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let context = ExecutionContext::new()
        .session_id("s-1")
        .user_id("u-1")
        .priority(Priority::High)
        .timeout(Duration::from_secs(2));
    let executed = rest
        .execute_with("echo", json!({"a": 1}), Some(context))
        .await
        .unwrap();
    executed
        .assert()
        .is_conforming_envelope()
        .result_equals("with context");
    for (millis, answer) in [(300, "equal"), (100, "shorter")] {
        let context = ExecutionContext::new().timeout(Duration::from_millis(millis));
        let executed = rest
            .execute_with("echo", json!({"a": 1}), Some(context))
            .await
            .unwrap();
        executed.assert().result_equals(answer);
    }
    // Without a context, the client's own timeout holds.
    let error = rest
        .execute_with("echo", json!({"a": 1}), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Timeout { timeout, .. } if *timeout == Duration::from_millis(300)),
        "{error:?}"
    );
}

/// The specs' names are the same requests: `access_token` sends the bearer token (the MCP
/// client contract's `accessToken`), `discover_tools` is `GET /mcp/tools` and `execute_tool`
/// posts the params (the hybrid server protocol's `discoverTools` and `executeTool`).
#[tokio::test]
async fn the_specs_names_send_the_same_requests() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/mcp/tools"))
        .and(header_is("authorization", "Bearer t0ken"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "version": "1.0",
            "tools": [{"name": "echo", "description": "Echoes.", "inputSchema": {"type": "object"}}],
        })))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/mcp/tools/echo/execute"))
        .and(header_is("authorization", "Bearer t0ken"))
        .and(body_json(json!({"params": {"a": 1}})))
        .respond_with(envelope(json!("echoed")))
        .expect(2)
        .mount(&server)
        .await;
    let rest = McpAssured::rest()
        .base_uri(server.uri())
        .access_token("t0ken")
        .build()
        .unwrap();
    assert!(!format!("{rest:?}").contains("t0ken"));
    let discovered = rest.discover_tools().await.unwrap();
    assert_eq!(discovered.names(), ["echo"]);
    assert_eq!(discovered, rest.list_tools().await.unwrap());
    let executed = rest.execute_tool("echo", json!({"a": 1})).await.unwrap();
    executed
        .assert()
        .is_conforming_envelope()
        .is_success()
        .result_equals("echoed");
    assert_eq!(
        executed,
        rest.execute("echo", json!({"a": 1})).await.unwrap()
    );
}
