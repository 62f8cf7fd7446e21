//! The protocol checks against the weather server, in this process and as a child over stdio
//! and streamable HTTP, on 2025-11-25 and 2026-07-28: it passes every one of them, skipping
//! only what it does not advertise and, on 2026-07-28, what that revision removed.

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
    protocol = ["2025-11-25", "2026-07-28"],
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
    // Only tools are advertised: what needs resources or prompts has nothing to look at;
    // 2026-07-28 removed `ping` and `logging/setLevel`.
    let skipped: Vec<&str> = report
        .entries()
        .iter()
        .filter(|check| check.status == Status::Skipped)
        .map(|check| check.name.as_str())
        .collect();
    let mut expected = vec![
        "pagination.resources",
        "pagination.prompts",
        "errors.unknown_resource",
        "errors.unknown_prompt",
    ];
    if client.protocol_version() == "2026-07-28" {
        expected.splice(0..0, ["ping", "capabilities.logging"]);
        if !client.target().starts_with("http") {
            expected.push("http.standard_headers");
        }
    } else {
        expected.extend(mcp_assured::checks::REVISION_2026_CHECKS);
    }
    if !client.target().starts_with("http") {
        expected.extend(mcp_assured::checks::HTTP_TRANSPORT_CHECKS);
    }
    // It asks for no authorization.
    expected.extend(mcp_assured::checks::AUTH_CHECKS);
    assert_eq!(skipped, expected, "{report}");
    assert_eq!(
        report.entry("tools.structured_output").unwrap().message,
        "conforms: current_weather, forecast, weather_alerts",
        "{report}"
    );
}
