//! The weather server as a hybrid server: its REST surface (`--rest`) serves the same tool
//! modules as its MCP side, tested with `McpAssured::rest()` next to the MCP client.

mod support;

use std::time::Duration;

use mcp_assured::{
    Error, McpAssured, McpClient,
    checks::{PARITY_CHECKS, ParityOptions, check_parity, check_parity_with},
    fixture::ServerProcess,
    mcp_test,
    prelude::*,
    report::{Report, Status},
    rest::{
        ErrorCode, Execution, ExecutionContext, Priority, RestClient, RestClientBuilder,
        VERSION_HEADER,
    },
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path, path_regex},
    },
};
use serde_json::{Value, json};
use support::{every_endpoint_answers, weather_in_london};

/// `http://127.0.0.1:<port>`: where the server `#[mcp_test]` started serves REST.
fn base_url(server: &ServerProcess) -> String {
    format!(
        "http://127.0.0.1:{}",
        server.port().expect("an HTTP server")
    )
}

/// A REST client for the server `#[mcp_test]` started, to configure further.
fn rest_builder(server: &ServerProcess) -> RestClientBuilder {
    McpAssured::rest().base_uri(base_url(server))
}

/// The REST client of the server `#[mcp_test]` started.
fn rest(server: &ServerProcess) -> RestClient {
    rest_builder(server)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// The REST client of the server `#[mcp_test]` started, sending the right bearer token.
fn rest_with_token(server: &ServerProcess) -> RestClient {
    rest_builder(server)
        .bearer_token("right-token")
        .build()
        .unwrap()
}

/// What `method path` with `body` answers, sent as is (no client-side checks), parsed as an
/// envelope that must conform to the spec.
async fn raw(
    server: &ServerProcess,
    method: reqwest::Method,
    path: &str,
    body: &'static str,
) -> (Execution, reqwest::header::HeaderMap) {
    let url = format!("{}{path}", base_url(server));
    let response = reqwest::Client::new()
        .request(method, url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    let body: Value = response.json().await.unwrap();
    let execution = Execution::from_envelope("raw", status, body).unwrap();
    execution.assert().is_conforming_envelope();
    assert_eq!(headers[VERSION_HEADER], "1.0", "{path}");
    (execution, headers)
}

/// The failed parity checks, with their messages.
fn failed(report: &Report) -> Vec<(&str, &str)> {
    report
        .entries()
        .iter()
        .filter(|check| check.status == Status::Failed)
        .map(|check| (check.name.as_str(), check.message.as_str()))
        .collect()
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

    /// Each tool's metadata, as the hybrid protocol defines it, the same on both faces
    /// (`_meta.metadata` over MCP).
    #[mcp_test]
    async fn lists_each_tools_metadata_on_both_faces(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let _ = backend;
        let listed = rest(server).list_tools().await.unwrap();
        listed
            .assert()
            .has_count(4)
            .metadata_is_well_formed()
            .tool("forecast")
            .has_version("2.0.0")
            .deprecates("1.0.0")
            .has_author("mcp-assured examples")
            .has_category("weather")
            .has_tag("daily")
            .has_custom("max_days", 7);
        listed
            .assert()
            .tool("current_weather")
            .has_version("1.2.0")
            .has_custom("sla", "best effort");
        let failure = listed
            .assert()
            .tool("forecast")
            .try_has_tag("hourly")
            .unwrap_err();
        assert!(
            failure
                .message()
                .starts_with("Expected `forecast` to be tagged `hourly`, but its tags are [\"weather\", \"forecast\", \"daily\"]."),
            "{}",
            failure.message()
        );
        for tool in client.list_tools().await.unwrap() {
            let over_mcp = tool.meta.as_ref().unwrap().get("metadata").unwrap();
            assert_eq!(
                Some(over_mcp),
                listed.tool(&tool.name).unwrap().metadata.as_ref(),
                "{}",
                tool.name
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
                // Accepted and not acted on: no sessions, users or queues of its own
                // (docs/seed-differences.md).
                Some(
                    ExecutionContext::new()
                        .session_id("session-123")
                        .user_id("user-7")
                        .priority(Priority::High),
                ),
            )
            .await
            .unwrap();
        executed
            .assert()
            .is_conforming_envelope()
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
            .is_conforming_envelope()
            .has_error_code(ErrorCode::ToolNotFound)
            .has_status(404)
            .message_contains("no_such_tool");
        assert_eq!(executed.error_code(), Some(&ErrorCode::ToolNotFound));
        assert_eq!(
            executed.error.unwrap().details.unwrap()["available"],
            json!([
                "current_weather",
                "forecast",
                "weather_alerts",
                "weather_report"
            ])
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

    /// Any number of milliseconds above 0 is a timeout, a fraction rounded up; anything else
    /// is refused, not ignored.
    #[mcp_test]
    async fn a_context_timeout_is_any_positive_number(
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        slow_weather(backend).await;
        let execute = "/mcp/tools/current_weather/execute";
        let post = reqwest::Method::POST;
        let fractional = r#"{"params": {"city": "London"}, "context": {"timeout": 100.5}}"#;
        let (timed_out, _) = raw(server, post.clone(), execute, fractional).await;
        timed_out
            .assert()
            .has_status(504)
            .has_error_code(ErrorCode::TimeoutError)
            .message_contains("took longer than 101 ms");
        for (body, provided) in [
            (
                r#"{"params": {"city": "London"}, "context": {"timeout": "30000"}}"#,
                json!("30000"),
            ),
            (
                r#"{"params": {"city": "London"}, "context": {"timeout": 0}}"#,
                json!(0),
            ),
            (
                r#"{"params": {"city": "London"}, "context": {"timeout": -5}}"#,
                json!(-5),
            ),
            (
                r#"{"params": {"city": "London"}, "context": {"timeout": null}}"#,
                json!(null),
            ),
        ] {
            let (refused, _) = raw(server, post.clone(), execute, body).await;
            refused
                .assert()
                .has_status(400)
                .has_error_code(ErrorCode::ValidationError)
                .message_contains("`context.timeout` must be a number of milliseconds above 0");
            assert_eq!(
                refused.error.unwrap().details,
                Some(json!({"field": "context.timeout", "provided": provided})),
                "{body}"
            );
        }
    }

    #[mcp_test]
    async fn a_body_over_the_specs_10_mb_is_a_413_envelope(
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let _ = backend;
        let rest = rest(server);
        let huge = "x".repeat(10 * 1024 * 1024);
        let executed = rest
            .execute("current_weather", json!({"city": huge}))
            .await
            .unwrap();
        executed
            .assert()
            .is_conforming_envelope()
            .has_status(413)
            .has_error_code(ErrorCode::ValidationError)
            .message_contains("larger than the limit of 10485760 bytes");
        assert_eq!(
            executed.error.unwrap().details,
            Some(json!({"maxBodyBytes": 10_485_760}))
        );
        assert_eq!(executed.protocol_version.as_deref(), Some("1.0"));
        // Just under the limit is read and checked against the schema.
        let long = "x".repeat(10 * 1024 * 1024 - 100);
        let executed = rest
            .execute("forecast", json!({"city": long}))
            .await
            .unwrap();
        executed
            .assert()
            .has_status(400)
            .has_error_code(ErrorCode::ValidationError);
    }

    #[mcp_test]
    async fn an_unknown_tool_is_tool_not_found_whatever_the_body(
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let _ = backend;
        let post = reqwest::Method::POST;
        let (unknown, _) = raw(server, post.clone(), "/mcp/tools/nope/execute", "{not json").await;
        unknown
            .assert()
            .has_status(404)
            .has_error_code(ErrorCode::ToolNotFound)
            .message_contains("nope");
        let (known, _) = raw(server, post, "/mcp/tools/forecast/execute", "{not json").await;
        known
            .assert()
            .has_status(400)
            .has_error_code(ErrorCode::ValidationError)
            .message_contains("the body is not JSON");
    }

    #[mcp_test]
    async fn a_wrong_method_is_a_405_envelope(server: &ServerProcess, backend: &MockServer) {
        let _ = backend;
        let (get, headers) = raw(
            server,
            reqwest::Method::GET,
            "/mcp/tools/forecast/execute",
            "",
        )
        .await;
        get.assert()
            .has_status(405)
            .has_error_code(ErrorCode::ValidationError)
            .message_contains("GET is not allowed here; use POST");
        assert_eq!(headers["allow"], "POST");
        let (post, headers) = raw(server, reqwest::Method::POST, "/mcp/tools", "{}").await;
        post.assert()
            .has_status(405)
            .message_contains("POST is not allowed here; use GET");
        assert_eq!(headers["allow"], "GET");
    }

    #[mcp_test]
    async fn an_unknown_path_is_a_404_envelope(server: &ServerProcess, backend: &MockServer) {
        let _ = backend;
        for (method, path) in [
            (reqwest::Method::GET, "/mcp/tools/forecast"),
            (reqwest::Method::POST, "/mcp/nope"),
            (reqwest::Method::GET, "/"),
        ] {
            let (unknown, _) = raw(server, method.clone(), path, "").await;
            unknown
                .assert()
                .has_status(404)
                .has_error_code(ErrorCode::Other("NOT_FOUND".into()))
                .message_contains(&format!("no endpoint {method} {path}"));
            let details = unknown.error.unwrap().details.unwrap();
            assert_eq!(details["path"], path);
            assert_eq!(details["endpoints"][1], "POST /mcp/tools/{name}/execute");
        }
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
    for token in [None, Some("wrong-token")] {
        let mut builder = rest_builder(server);
        if let Some(token) = token {
            builder = builder.bearer_token(token);
        }
        let refused = builder
            .build()
            .unwrap()
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap();
        refused
            .assert()
            .is_conforming_envelope()
            .has_status(401)
            .has_error_code(ErrorCode::PermissionError);
        assert_eq!(
            refused.protocol_version.as_deref(),
            Some("1.0"),
            "{token:?}"
        );
    }
    let (listing, headers) = raw(server, reqwest::Method::GET, "/mcp/tools", "").await;
    listing
        .assert()
        .has_status(401)
        .message_contains("a bearer token is required");
    assert_eq!(
        headers["www-authenticate"],
        r#"Bearer realm="weather-server""#
    );
    // There is nothing at an unknown path to guard.
    let (unknown, _) = raw(server, reqwest::Method::GET, "/mcp/nope", "").await;
    unknown.assert().has_status(404);
    let allowed = rest_with_token(server);
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

/// The clients as the specs write them, on the token-guarded server: the REST face with
/// `access_token`, `discover_tools` and `execute_tool` (the hybrid server protocol's names),
/// the MCP face with `get_tool` (the MCP client contract's), both describing one tool.
#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--bearer-token", "right-token")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "right-token",
)]
async fn the_specs_client_names_reach_both_faces(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    weather_in_london(backend).await;
    let rest = rest_builder(server)
        .access_token("right-token")
        .build()
        .unwrap();
    let discovered = rest.discover_tools().await.unwrap();
    let via_rest = discovered.tool("current_weather").unwrap();
    let via_mcp = client.get_tool("current_weather").await.unwrap();
    assert_eq!(
        via_rest.description.as_deref(),
        via_mcp.description.as_deref()
    );
    let executed = rest
        .execute_tool("current_weather", json!({"city": "London"}))
        .await
        .unwrap();
    executed
        .assert()
        .is_conforming_envelope()
        .is_success()
        .json_at("/temperature", 15);
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

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--bearer-token", "right-token")),
    env(WEATHER_API_URL = "{backend}"),
    bearer_token = "right-token",
    timeout = "30s",
)]
async fn both_faces_agree(client: McpClient, server: &ServerProcess, backend: &MockServer) {
    every_endpoint_answers(backend).await;
    let rest = rest_with_token(server);
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
            .entries()
            .iter()
            .map(|check| check.name.as_str())
            .collect::<Vec<_>>(),
        PARITY_CHECKS
    );
    assert_eq!(report.passed(), PARITY_CHECKS.len(), "{report}");
    assert_eq!(
        report.entry("parity.execution").unwrap().message,
        "6 argument sets: both sides agree"
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
    assert_eq!(
        failed(&report),
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
    assert_eq!(report.entry("parity.auth").unwrap().status, Status::Skipped);
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--max-body-bytes", "64")),
    env(WEATHER_API_URL = "{backend}"),
)]
async fn the_body_limit_is_configurable(server: &ServerProcess, backend: &MockServer) {
    weather_in_london(backend).await;
    let rest = rest(server);
    rest.execute("current_weather", json!({"city": "London"}))
        .await
        .unwrap()
        .assert()
        .is_success();
    rest.execute("current_weather", json!({"city": "x".repeat(64)}))
        .await
        .unwrap()
        .assert()
        .is_conforming_envelope()
        .has_status(413)
        .message_contains("larger than the limit of 64 bytes");
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest", "--rate-limit", "2")),
    env(WEATHER_API_URL = "{backend}"),
)]
async fn over_the_rate_limit_is_a_429_with_retry_after(
    server: &ServerProcess,
    backend: &MockServer,
) {
    weather_in_london(backend).await;
    let rest = rest(server);
    for _ in 0..2 {
        rest.execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap()
            .assert()
            .is_success();
    }
    let limited = rest
        .execute("current_weather", json!({"city": "London"}))
        .await
        .unwrap();
    limited
        .assert()
        .is_conforming_envelope()
        .has_status(429)
        .has_error_code(ErrorCode::RateLimitError)
        .message_contains("more than 2 executions a minute");
    let wait: u64 = limited.retry_after.as_deref().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After: {wait}");
    assert_eq!(
        limited.error.unwrap().details.unwrap()["retryAfterSeconds"],
        json!(wait)
    );
}

/// One test per drift: each makes exactly its parity check fail, with this report text.
#[mcp_test(
    server = bin("weather-server"),
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
mod drift {
    use super::*;

    /// The parity report of the server under test, its API answering every endpoint.
    async fn report(client: &McpClient, server: &ServerProcess, backend: &MockServer) -> Report {
        every_endpoint_answers(backend).await;
        check_parity(client, &rest(server)).await
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--rest-drift", "names")))]
    async fn renamed_tools_fail_parity_tool_names(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let report = report(&client, server, backend).await;
        assert_eq!(
            failed(&report),
            [(
                "parity.tool_names",
                "only over MCP: `weather_alerts`; only over REST: `alerts`"
            )],
            "{report}"
        );
        assert_eq!(
            report.entry("parity.execution").unwrap().message,
            "3 argument sets: both sides agree"
        );
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--rest-drift", "descriptions")))]
    async fn another_description_fails_parity_descriptions(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let report = report(&client, server, backend).await;
        let described = client.tool("current_weather").await.unwrap().description;
        let expected = format!(
            "current_weather: MCP {:?}, REST \"The weather now.\"",
            described.unwrap()
        );
        assert_eq!(
            failed(&report),
            [("parity.descriptions", expected.as_str())],
            "{report}"
        );
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--rest-drift", "execution")))]
    async fn different_outcomes_fail_parity_execution(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        weather_in_london(backend).await;
        Mock::given(method("GET"))
            .and(path("/forecast"))
            .respond_with(ResponseTemplate::new(404).set_body_string("no such city"))
            .mount(backend)
            .await;
        Mock::given(method("GET"))
            .and(path_regex("^/alerts/"))
            .respond_with(ResponseTemplate::new(503).set_body_string("maintenance"))
            .mount(backend)
            .await;
        let (london, atlantis, north) = (
            json!({"city": "London"}),
            json!({"city": "Atlantis", "days": 3}),
            json!({"region": "north"}),
        );
        let options = ParityOptions::new()
            .without_generated_arguments()
            .arguments("current_weather", london.clone())
            .arguments("forecast", atlantis.clone())
            .arguments("weather_alerts", north.clone());
        let report = check_parity_with(&client, &rest(server), &options).await;
        let not_found = client
            .call_tool("forecast", atlantis.clone())
            .await
            .unwrap()
            .text();
        let unavailable = client
            .call_tool("weather_alerts", north.clone())
            .await
            .unwrap()
            .text();
        assert!(not_found.contains("answered 404"), "{not_found}");
        let expected = [
            format!(r#"current_weather {london}: different results: /units: MCP "metric", REST has none"#),
            format!(
                "forecast {atlantis}: both failed, differently: MCP isError: {not_found}, REST TOOL_NOT_FOUND (HTTP 404): {not_found}"
            ),
            format!("weather_alerts {north}: REST succeeded, MCP failed: isError: {unavailable}"),
        ]
        .join("\n");
        assert_eq!(
            failed(&report),
            [("parity.execution", expected.as_str())],
            "{report}"
        );
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--rest-drift", "metadata")))]
    async fn malformed_metadata_fails_parity_metadata(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let report = report(&client, server, backend).await;
        let expected = [
            r#"forecast: `metadata.tags` is not an array of strings: "weather,forecast""#,
            "forecast: `metadata.deprecates` 3.0.0 is not older than `metadata.version` 2.0.0",
            r#"forecast: metadata/deprecates: MCP "1.0.0", REST "3.0.0""#,
            r#"forecast: metadata/tags: MCP ["weather","forecast","daily"], REST "weather,forecast""#,
        ]
        .join("\n");
        assert_eq!(
            failed(&report),
            [("parity.metadata", expected.as_str())],
            "{report}"
        );
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--rest-drift", "validation")))]
    async fn unchecked_params_fail_parity_validation(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        let report = report(&client, server, backend).await;
        let refused = client
            .call_tool("current_weather", json!({}))
            .await
            .unwrap()
            .text();
        let expected =
            format!("REST: expected VALIDATION_ERROR, got EXECUTION_ERROR (HTTP 502): {refused}");
        assert_eq!(
            failed(&report),
            [("parity.validation", expected.as_str())],
            "{report}"
        );
    }

    #[mcp_test(transport = http(args("--port", "{port}", "--rest", "--bearer-token", "right-token", "--rest-drift", "auth")), bearer_token = "right-token")]
    async fn an_open_endpoint_fails_parity_auth(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
    ) {
        every_endpoint_answers(backend).await;
        let report = check_parity(&client, &rest_with_token(server)).await;
        let open = "REST answered POST /mcp/tools/mcp_assured_parity_no_such_tool/execute";
        let not_found = "TOOL_NOT_FOUND (HTTP 404): no tool `mcp_assured_parity_no_such_tool`";
        let expected = [
            format!("{open} without credentials: {not_found}"),
            format!("{open} with a wrong bearer token: {not_found}"),
            "MCP accepted a session with a wrong bearer token while REST requires credentials"
                .to_owned(),
        ]
        .join("\n");
        assert_eq!(
            failed(&report),
            [("parity.auth", expected.as_str())],
            "{report}"
        );
    }
}

/// parity.auth on a server guarded by an `X-Api-Key` header rather than a bearer token: the
/// weather server's hybrid app behind a key check, served in this process.
mod api_key {
    use std::sync::Arc;

    use axum::{
        extract::Request,
        http::StatusCode,
        middleware::{self, Next},
        response::IntoResponse,
    };
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    use weather_server::{
        WeatherServer,
        rest::{RestOptions, hybrid_router},
    };

    use super::*;

    const KEY: &str = "right-key";

    /// The hybrid app at a local address, every request needing `X-Api-Key: right-key`,
    /// except that with `mcp_takes_any_key` the MCP endpoint takes any key (a drift).
    async fn serve(backend: &MockServer, mcp_takes_any_key: bool) -> String {
        let server = WeatherServer::new(backend.uri());
        let mcp_server = server.clone();
        let mcp = axum::Router::new().route_service(
            "/mcp",
            StreamableHttpService::new(
                move || Ok(mcp_server.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            ),
        );
        let app = hybrid_router(&server, mcp, RestOptions::default()).layer(middleware::from_fn(
            move |request: Request, next: Next| async move {
                let key = request.headers().get("x-api-key");
                let any_will_do = mcp_takes_any_key && request.uri().path() == "/mcp";
                if key.is_some_and(|key| any_will_do || key == KEY) {
                    next.run(request).await
                } else {
                    (StatusCode::UNAUTHORIZED, "no or wrong X-Api-Key").into_response()
                }
            },
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        base
    }

    /// The status and message of parity.auth on the app [`serve`] makes.
    async fn parity_auth(mcp_takes_any_key: bool) -> (Status, String) {
        let backend = MockServer::start().await;
        every_endpoint_answers(&backend).await;
        let base = serve(&backend, mcp_takes_any_key).await;
        let client = McpAssured::client()
            .base_uri(format!("{base}/mcp"))
            .header("X-Api-Key", KEY)
            .build()
            .await
            .unwrap();
        let rest = McpAssured::rest()
            .base_uri(base)
            .header("X-Api-Key", KEY)
            .build()
            .unwrap();
        let report = check_parity(&client, &rest).await;
        let auth = report.entry("parity.auth").unwrap();
        (auth.status, auth.message.clone())
    }

    /// The wrong-credentials case sends a wrong key on both sides, not the right key with a
    /// wrong bearer token (which such a server accepts).
    #[tokio::test]
    async fn a_server_guarded_by_a_header_passes_parity_auth() {
        let passed = "both sides refuse requests without credentials or with a wrong X-Api-Key (REST: listing and executing)";
        assert_eq!(
            parity_auth(false).await,
            (Status::Passed, passed.to_owned())
        );
    }

    /// An MCP endpoint that takes any key fails: the MCP session is sent a wrong key, not
    /// none.
    #[tokio::test]
    async fn an_mcp_endpoint_taking_any_key_fails_parity_auth() {
        let failed =
            "MCP accepted a session with a wrong X-Api-Key while REST requires credentials";
        assert_eq!(parity_auth(true).await, (Status::Failed, failed.to_owned()));
    }
}
