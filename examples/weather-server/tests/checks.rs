//! The protocol checks against the weather server, in this process and as a child over stdio
//! and streamable HTTP: it passes every one of them, skipping only what it does not advertise.

mod support;

use mcp_assured::{
    McpClient,
    checks::{CHECKS, CheckOptions},
    mcp_test,
    report::Status,
    wiremock::MockServer,
};
use serde_json::json;
use support::every_endpoint_answers;
use weather_server::WeatherServer;

#[mcp_test(
    server = [service(WeatherServer::new(backend.uri())), bin("weather-server")],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
async fn the_weather_server_passes_every_check(client: McpClient, backend: &MockServer) {
    every_endpoint_answers(backend).await;
    let options = CheckOptions::default()
        .tool_arguments("current_weather", json!({"city": "London"}))
        .tool_arguments("forecast", json!({"city": "London", "days": 1}))
        .tool_arguments("weather_alerts", json!({"region": "Greater London"}));
    let report = client.check_with(&options).await;
    assert!(report.is_success(), "{report}");
    let names: Vec<&str> = report
        .entries()
        .iter()
        .map(|check| check.name.as_str())
        .collect();
    assert_eq!(names, CHECKS, "{report}");
    // Only tools are advertised: what needs resources or prompts has nothing to look at.
    let skipped: Vec<&str> = report
        .entries()
        .iter()
        .filter(|check| check.status == Status::Skipped)
        .map(|check| check.name.as_str())
        .collect();
    assert_eq!(
        skipped,
        [
            "pagination.resources",
            "pagination.prompts",
            "errors.unknown_resource"
        ],
        "{report}"
    );
    assert_eq!(
        report.entry("tools.structured_output").unwrap().message,
        "conforms: current_weather, forecast, weather_alerts",
        "{report}"
    );
}
