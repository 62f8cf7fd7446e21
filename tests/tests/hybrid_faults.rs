//! The hybrid checks against the example hybrid server breaking, one fault at a time, what
//! it declares of its tools (`hybrid-fault-server`, see
//! `mcp_assured_tests::hybrid_faults`): each fault fails its check, and only its own; the
//! server without a fault passes them all.

use mcp_assured::{
    Credentials, McpAssured, McpClient,
    checks::{HYBRID_CHECKS, HybridOptions, check_hybrid_with},
    fixture::ServerProcess,
    mcp_test,
    report::{Report, Status},
    wiremock::MockServer,
};
use mcp_assured_tests::hybrid_faults::{READER_TOKEN, ROOT_TOKEN, mount_api};
use serde_json::json;

/// The hybrid checks as a user of this server would run them.
async fn hybrid_report(client: &McpClient, server: &ServerProcess, backend: &MockServer) -> Report {
    mount_api(backend).await;
    let rest = McpAssured::rest()
        .base_uri(format!("http://127.0.0.1:{}", server.port().unwrap()))
        .bearer_token(ROOT_TOKEN)
        .build()
        .unwrap();
    let options = HybridOptions::new()
        .limited_credentials(
            Credentials::new().bearer_token(READER_TOKEN),
            ["weather:read"],
        )
        .slow_call("forecast", json!({"city": "London", "days": 2}))
        .arguments("weather_report", json!({"cities": ["London", "Oslo"]}));
    check_hybrid_with(client, &rest, &options).await
}

/// The report fails `check` alone, its message saying each of `words`.
#[track_caller]
fn fails_only(report: &Report, check: &str, words: &[&str]) {
    let failed: Vec<&str> = report
        .entries()
        .iter()
        .filter(|entry| entry.status == Status::Failed)
        .map(|entry| entry.name.as_str())
        .collect();
    assert_eq!(failed, [check], "{report}");
    let message = &report.entry(check).unwrap().message;
    for word in words {
        assert!(
            message.contains(word),
            "{check} does not say {word:?}: {message}"
        );
    }
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "none")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn without_a_fault_every_hybrid_check_passes(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    assert_eq!(report.passed(), HYBRID_CHECKS.len(), "{report}");
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "ignores-permissions")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_server_that_ignores_permissions_fails_on_both_faces(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.permissions",
        &[
            "REST `weather_alerts` without alerts:read: expected PERMISSION_ERROR, got success",
            "MCP `weather_alerts` without alerts:read: expected a tool error (PERMISSION_ERROR), got a result",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "mcp-ignores-permissions")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn permissions_honoured_on_one_face_only_fail(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.permissions",
        &["MCP `weather_alerts` without alerts:read"],
    );
    assert!(
        !report
            .entry("hybrid.permissions")
            .unwrap()
            .message
            .contains("REST")
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "declares-shorter-timeout")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_timeout_declared_but_not_enforced_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.max_execution_time",
        &[
            "REST `forecast` (maxExecutionTime 300 ms): expected TIMEOUT_ERROR, got success",
            "MCP `forecast` (maxExecutionTime 300 ms): expected a tool error (TIMEOUT_ERROR), got a result",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "waits-instead-of-rejecting")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_tool_that_waits_where_it_declares_rejecting_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.max_concurrency",
        &[
            "REST `current_weather`, 2 calls at once: all were in flight together",
            "none was refused with RATE_LIMIT_ERROR (maxConcurrency 1, onConcurrencyLimit reject)",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "rejects-instead-of-waiting")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_tool_that_rejects_where_it_declares_waiting_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.max_concurrency",
        &[
            "`current_weather`, 2 calls at once: 1 refused with RATE_LIMIT_ERROR, though the tool declares onConcurrencyLimit wait",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "declares-smaller-payload")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_payload_limit_declared_but_not_enforced_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.max_payload_size",
        &[
            "REST `weather_alerts` over its maxPayloadSize of 0.001 MB: expected VALIDATION_ERROR before it runs, got success",
            "MCP `weather_alerts` over its maxPayloadSize of 0.001 MB",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "declarations-differ")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn faces_that_declare_differently_fail(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    // The REST listing now asks for a scope nobody has: the permission check finds the
    // limited token refused where the MCP listing says it may call, and says so too.
    assert_eq!(
        report.entry("hybrid.declarations").unwrap().status,
        Status::Failed,
        "{report}"
    );
    assert!(
        report
            .entry("hybrid.declarations")
            .unwrap()
            .message
            .contains(r#"`weather_alerts` needs ["weather:read", "alerts:write"] over REST but ["weather:read", "alerts:read"] over MCP"#),
        "{report}"
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "buffered-stream")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn a_stream_sent_all_at_the_end_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.streaming",
        &[
            "REST `weather_report`: every line came with the envelope",
            "nothing was streamed as it came",
        ],
    );
}

#[mcp_test(
    server = bin("hybrid-fault-server"),
    transport = http(args("--port", "{port}", "--fault", "no-mcp-progress")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "root",
    timeout = "60s",
)]
async fn progress_over_rest_only_fails(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let report = hybrid_report(&client, server, backend).await;
    fails_only(
        &report,
        "hybrid.streaming",
        &[
            "`weather_report` streams 2 progress lines over REST but sent no notifications/progress over MCP",
        ],
    );
}
