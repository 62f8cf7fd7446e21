//! The weather server as a hybrid server: its REST surface (`--rest`) serves the same tool
//! modules as its MCP side, tested with `McpAssured::rest()` next to the MCP client.

use std::time::Duration;

use mcp_assured::{
    Error, McpAssured, McpClient,
    checks::{CheckStatus, PARITY_CHECKS, ParityOptions, check_parity, check_parity_with},
    fixture::ServerProcess,
    mcp_test,
    prelude::*,
    rest::{ErrorCode, ExecutionContext, RestClient},
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path},
    },
};
use serde_json::{Value, json};

/// The REST client of the server `#[mcp_test]` started.
fn rest(server: &ServerProcess) -> RestClient {
    let port = server.port().expect("an HTTP server");
    McpAssured::rest()
        .base_uri(format!("http://127.0.0.1:{port}"))
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

async fn weather_in_london(backend: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/weather"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            ),
        )
        .mount(backend)
        .await;
}

/// The API answering after 5 s.
async fn slow_weather(backend: &MockServer) {
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(5)))
        .mount(backend)
        .await;
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest")),
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
mod hybrid {
    use super::*;

    #[mcp_test]
    async fn lists_the_tools_mcp_lists(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let _ = backend;
        let listed = rest(server).list_tools().await.unwrap();
        assert_eq!(listed.version.as_deref(), Some("1.0"));
        assert_eq!(listed.protocol_version.as_deref(), Some("1.0"));
        let mcp = client.list_tools().await.unwrap();
        assert_eq!(
            listed.names(),
            mcp.iter()
                .map(|tool| tool.name.as_ref())
                .collect::<Vec<_>>()
        );
        for tool in &mcp {
            let same = listed.tool(&tool.name).unwrap();
            assert_eq!(same.description.as_deref(), tool.description.as_deref());
            assert_eq!(
                same.input_schema,
                Value::Object(tool.input_schema.as_ref().clone())
            );
        }
    }

    #[mcp_test]
    async fn executes_with_the_result_mcp_gives(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        weather_in_london(backend).await;
        let args = json!({"city": "London"});
        let executed = rest(server)
            .execute_with(
                "current_weather",
                args.clone(),
                Some(ExecutionContext::new().session_id("session-123")),
            )
            .await
            .unwrap();
        executed
            .assert()
            .is_success()
            .has_status(200)
            .json_at("/temperature", 15)
            .result_contains(json!({"city": "London", "conditions": "cloudy"}));
        let via_mcp = client.call_tool("current_weather", args).await.unwrap();
        assert_eq!(executed.result, via_mcp.structured_content);
        let metadata = executed.metadata.expect("metadata");
        assert!(metadata.execution_id.unwrap().starts_with("exec-"));
        assert!(metadata.duration.is_some());
        assert!(metadata.timestamp.unwrap().ends_with('Z'));
        assert_eq!(executed.protocol_version.as_deref(), Some("1.0"));
    }

    #[mcp_test]
    async fn an_unknown_tool_is_tool_not_found(server: &ServerProcess, backend: &MockServer) {
        let _ = backend;
        let executed = rest(server)
            .execute("no_such_tool", json!({}))
            .await
            .unwrap();
        executed
            .assert()
            .has_error_code(ErrorCode::ToolNotFound)
            .has_status(404)
            .message_contains("no_such_tool");
        assert_eq!(executed.error_code(), Some(&ErrorCode::ToolNotFound));
        assert_eq!(
            executed.error.unwrap().details.unwrap()["available"],
            json!(["current_weather", "forecast", "weather_alerts"])
        );
    }

    #[mcp_test]
    async fn params_that_break_the_schema_are_a_validation_error(
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let _ = backend;
        let executed = rest(server)
            .execute("forecast", json!({"city": "Oslo", "days": 30}))
            .await
            .unwrap();
        assert_eq!(executed.status, 400);
        assert_eq!(executed.error_code(), Some(&ErrorCode::ValidationError));
        let violations = &executed.error.unwrap().details.unwrap()["violations"];
        assert_eq!(violations[0]["path"], "/days", "{violations}");
    }

    #[mcp_test]
    async fn a_failing_backend_is_an_execution_error(server: &ServerProcess, backend: &MockServer) {
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(503).set_body_string("maintenance"))
            .mount(backend)
            .await;
        let executed = rest(server)
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap();
        assert_eq!(executed.status, 502);
        assert_eq!(executed.error_code(), Some(&ErrorCode::ExecutionError));
        let message = executed.error.unwrap().message;
        assert!(
            message.contains("503") && message.contains("maintenance"),
            "{message}"
        );
    }

    #[mcp_test]
    async fn a_slow_tool_is_a_timeout_error(server: &ServerProcess, backend: &MockServer) {
        slow_weather(backend).await;
        let context = ExecutionContext::new().timeout(Duration::from_millis(100));
        let executed = rest(server)
            .execute_with("current_weather", json!({"city": "London"}), Some(context))
            .await
            .unwrap();
        assert_eq!(executed.status, 504);
        assert_eq!(executed.error_code(), Some(&ErrorCode::TimeoutError));
    }

    #[mcp_test]
    async fn an_oversized_body_is_a_413(server: &ServerProcess, backend: &MockServer) {
        let _ = backend;
        let huge = "x".repeat(2 * 1024 * 1024);
        let error = rest(server)
            .execute("current_weather", json!({"city": huge}))
            .await
            .unwrap_err();
        match &error {
            Error::Http {
                status, request, ..
            } => {
                assert_eq!(*status, 413);
                assert_eq!(request, "POST /mcp/tools/current_weather/execute");
            }
            other => panic!("expected an HTTP error, got {other:?}"),
        }
        assert!(error.to_string().contains("HTTP 413"), "{error}");
    }

    #[mcp_test]
    async fn a_client_timeout_names_the_request(server: &ServerProcess, backend: &MockServer) {
        slow_weather(backend).await;
        let error = rest(server)
            .with_timeout(Duration::from_millis(200))
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap_err();
        assert!(
            matches!(&error, Error::Timeout { method, .. } if method == "POST /mcp/tools/current_weather/execute"),
            "{error:?}"
        );
    }
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--bearer-token", "right-token")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "right-token",
)]
async fn both_surfaces_refuse_a_missing_or_wrong_token(
    server: &ServerProcess,
    backend: &MockServer,
) {
    weather_in_london(backend).await;
    let port = server.port().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    for token in [None, Some("wrong-token")] {
        let mut builder = McpAssured::rest().base_uri(&base);
        if let Some(token) = token {
            builder = builder.bearer_token(token);
        }
        let refused = builder
            .build()
            .unwrap()
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap();
        assert_eq!(refused.status, 401, "{token:?}");
        assert_eq!(refused.error_code(), Some(&ErrorCode::PermissionError));
    }
    let allowed = McpAssured::rest()
        .base_uri(&base)
        .bearer_token("right-token")
        .build()
        .unwrap();
    assert!(
        allowed
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap()
            .success
    );
    assert!(!format!("{allowed:?}").contains("right-token"));
    for token in [None, Some("wrong-token")] {
        let mut builder = McpAssured::client().base_uri(server.url().unwrap());
        if let Some(token) = token {
            builder = builder.bearer_token(token);
        }
        let refused = builder.build().await.unwrap_err();
        assert_eq!(
            refused.http_status(),
            Some(401),
            "MCP, {token:?}: {refused}"
        );
    }
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--rest-drift")),
    env(WEATHER_API_URL = "{backend}"),
)]
async fn the_drifting_variant_differs_where_it_says(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    let _ = backend;
    let rest = rest(server);
    let listed = rest.list_tools().await.unwrap();
    let mcp = client.tool("forecast").await.unwrap();
    assert_eq!(mcp.input_schema["properties"]["days"]["maximum"], json!(7));
    assert_eq!(
        listed.tool("forecast").unwrap().input_schema["properties"]["days"]["maximum"],
        json!(14)
    );
    let unknown = rest.execute("no_such_tool", json!({})).await.unwrap();
    assert_eq!(unknown.error_code(), Some(&ErrorCode::ExecutionError));
}

/// The API answering every endpoint the tools call.
async fn every_endpoint_answers(backend: &MockServer) {
    weather_in_london(backend).await;
    Mock::given(method("GET"))
        .and(path("/forecast"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "city": "London",
            "days": [{"date": "2026-11-23", "high": 11, "low": 4, "conditions": "rain"}],
        })))
        .mount(backend)
        .await;
    Mock::given(method("GET"))
        .and(mcp_assured::wiremock::matchers::path_regex("^/alerts/"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"alerts": []})))
        .mount(backend)
        .await;
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--bearer-token", "right-token")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "right-token",
    timeout = "30s",
)]
async fn both_faces_agree(client: McpClient, server: &ServerProcess, backend: &MockServer) {
    every_endpoint_answers(backend).await;
    let rest = McpAssured::rest()
        .base_uri(format!("http://127.0.0.1:{}", server.port().unwrap()))
        .bearer_token("right-token")
        .build()
        .unwrap();
    let options = ParityOptions::new()
        .arguments(
            "current_weather",
            json!({"city": "London", "units": "imperial"}),
        )
        .arguments("forecast", json!({"city": "London", "days": 0}));
    let report = check_parity_with(&client, &rest, &options).await;
    assert!(report.is_success(), "{report}");
    assert_eq!(
        report
            .checks
            .iter()
            .map(|check| check.name.as_str())
            .collect::<Vec<_>>(),
        PARITY_CHECKS
    );
    assert_eq!(report.passed(), PARITY_CHECKS.len(), "{report}");
    assert_eq!(
        report.check("parity.execution").unwrap().reason,
        "5 argument sets: both sides agree"
    );
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--rest-drift")),
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
async fn a_drifting_surface_fails_with_a_precise_report(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    every_endpoint_answers(backend).await;
    let report = check_parity(&client, &rest(server)).await;
    assert!(!report.is_success());
    let failed: Vec<_> = report
        .checks
        .iter()
        .filter(|check| check.status == CheckStatus::Failed)
        .map(|check| (check.name.as_str(), check.reason.as_str()))
        .collect();
    assert_eq!(
        failed,
        [
            (
                "parity.input_schemas",
                "forecast: /properties/days/maximum: MCP 7, REST 14"
            ),
            (
                "parity.unknown_tool",
                "REST: expected TOOL_NOT_FOUND, got EXECUTION_ERROR (HTTP 500): no tool `mcp_assured_parity_no_such_tool`"
            ),
        ],
        "{report}"
    );
    assert_eq!(
        report.check("parity.auth").unwrap().status,
        CheckStatus::Skipped
    );
}
