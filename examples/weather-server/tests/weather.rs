//! The weather server's test suite: every test runs three ways (in this process, and as a
//! child over stdio and over streamable HTTP on a free port), against a wiremock server
//! standing in for the weather API.

use mcp_assured::{
    McpClient, ToolResult, assert_tool_snapshot, code,
    fixture::{BoxError, Fixture, FixtureContext, free_port},
    mcp_test,
    prelude::*,
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path, query_param},
    },
};
use serde_json::{Value, json};
use weather_server::WeatherServer;

/// The API answering `GET /weather?city=London&units=metric`, once.
async fn london_is_cloudy(backend: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/weather"))
        .and(query_param("city", "London"))
        .and(query_param("units", "metric"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            ),
        )
        .expect(1)
        .mount(backend)
        .await;
}

/// Calls `tool` with `args`, which must fail as a tool error; returns the result for the
/// checks of its text.
async fn tool_error(client: &McpClient, tool: &str, args: Value) -> ToolResult {
    let result = client.call_tool(tool, args).await.unwrap();
    result.assert().is_tool_error();
    result
}

#[mcp_test(
    server = [service(WeatherServer::new(backend.uri())), bin("weather-server")],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
mod weather {
    use super::*;

    #[mcp_test]
    async fn lists_the_tools_with_their_schemas(client: McpClient, backend: &MockServer) {
        let tools = client.list_tools().await.unwrap();
        tools
            .assert()
            .has_count(4)
            .contains_tool("current_weather")
            .contains_tool("forecast")
            .contains_tool("weather_alerts")
            .contains_tool("weather_report");
        let forecast = client.tool("forecast").await.unwrap();
        forecast
            .assert()
            .requires(["city", "days"])
            .has_property_of_type("days", "integer")
            .has_output_schema()
            .has_read_only_hint(true)
            .accepts_arguments(&json!({"city": "Oslo", "days": 3}))
            .rejects_arguments(&json!({"city": "Oslo"}));
        assert_tool_snapshot!("weather_tools", tools);
        assert!(backend.received_requests().await.unwrap().is_empty());
    }

    #[mcp_test(protocol = "2025-11-25")]
    async fn returns_the_backends_weather(client: McpClient, backend: &MockServer) {
        london_is_cloudy(backend).await;
        let result = client
            .call_tool("current_weather", json!({"city": "London"}))
            .await
            .unwrap();
        result
            .assert()
            .is_success()
            .json_at("/temperature", 15)
            .structured_equals(json!({
                "city": "London", "temperature": 15, "conditions": "cloudy", "units": "metric",
            }));
        let tool = client.tool("current_weather").await.unwrap();
        result.assert().conforms_to_output_schema(&tool);
        assert_tool_snapshot!(result);
    }

    #[mcp_test]
    async fn calls_the_backend_with_the_right_request(client: McpClient, backend: &MockServer) {
        Mock::given(method("GET"))
            .and(path("/alerts/Greater%20London"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"alerts": [
                {"severity": "warning", "title": "Strong wind"},
            ]})))
            .expect(1)
            .mount(backend)
            .await;
        Mock::given(method("GET"))
            .and(path("/forecast"))
            .and(query_param("city", "Oslo"))
            .and(query_param("days", "2"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "city": "Oslo",
                "days": [{"date": "2026-11-23", "high": 2, "low": -4, "conditions": "snow"}],
            })))
            .expect(1)
            .mount(backend)
            .await;
        client
            .call_tool("weather_alerts", json!({"region": "Greater London"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_equals("WARNING: Strong wind");
        client
            .call_tool("forecast", json!({"city": "Oslo", "days": 2}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .json_at("/days/0/conditions", "snow");
        let requests = backend.received_requests().await.unwrap();
        let seen: Vec<String> = requests
            .iter()
            .map(|r| {
                format!("{} {}", r.method, r.url.path())
                    + &r.url.query().map(|q| format!("?{q}")).unwrap_or_default()
            })
            .collect();
        assert_eq!(
            seen,
            [
                "GET /alerts/Greater%20London",
                "GET /forecast?city=Oslo&days=2"
            ]
        );
    }

    #[mcp_test]
    async fn a_failing_backend_is_a_tool_error(client: McpClient, backend: &MockServer) {
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(503).set_body_string("maintenance until noon"))
            .mount(backend)
            .await;
        tool_error(&client, "current_weather", json!({"city": "London"}))
            .await
            .assert()
            .text_contains("answered 503")
            .text_contains("maintenance until noon");
    }

    #[mcp_test]
    async fn an_unknown_tool_is_invalid_params(client: McpClient, backend: &MockServer) {
        let error = client.call_tool("tides", json!({})).await;
        error
            .assert_err()
            .has_code(code::INVALID_PARAMS)
            .message_equals("Tool 'tides' not found");
        match client.call_tool("tides", json!({})).await {
            Err(mcp_assured::Error::JsonRpc { data, .. }) => assert_eq!(
                data.unwrap()["tools"],
                json!([
                    "current_weather",
                    "forecast",
                    "weather_alerts",
                    "weather_report"
                ])
            ),
            other => panic!("expected -32602, got {other:?}"),
        }
        assert!(backend.received_requests().await.unwrap().is_empty());
    }

    #[mcp_test]
    async fn invalid_arguments_are_a_clear_tool_error(client: McpClient, backend: &MockServer) {
        tool_error(&client, "current_weather", json!({"town": "London"}))
            .await
            .assert()
            .text_contains("invalid arguments for `current_weather`: unknown field `town`");
        tool_error(&client, "forecast", json!({"city": "Oslo"}))
            .await
            .assert()
            .text_equals("invalid arguments for `forecast`: missing field `days`");
        tool_error(&client, "forecast", json!({"city": "Oslo", "days": 30}))
            .await
            .assert()
            .text_equals("invalid arguments for `forecast`: days must be 1 to 7, got 30");
        tool_error(&client, "forecast", json!({"city": "Oslo", "days": "two"}))
            .await
            .assert()
            .text_contains("invalid type: string \"two\", expected u8");
        assert!(backend.received_requests().await.unwrap().is_empty());
    }
}

/// A loopback URL where nothing listens: the weather API is down.
#[derive(Debug)]
struct DownApi(String);

impl Fixture for DownApi {
    async fn setup(_ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        Ok(Self(format!("http://127.0.0.1:{}", free_port()?)))
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.0.clone())
    }
}

#[mcp_test(
    server = [service(WeatherServer::new(&down.0)), bin("weather-server")],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{down}"),
    timeout = "30s",
)]
async fn the_backend_down_is_a_tool_error_saying_connection_refused(
    client: McpClient,
    down: &DownApi,
) {
    tool_error(&client, "current_weather", json!({"city": "London"}))
        .await
        .assert()
        .text_equals(&format!(
            "Connection refused: {}/weather?city=London&units=metric (the weather API)",
            down.0
        ));
}
