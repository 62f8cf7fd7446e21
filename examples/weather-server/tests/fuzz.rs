//! The weather server fuzzed: every tool's arguments generated from its input schema, valid
//! and invalid, in this process and as a child over stdio and streamable HTTP, on both
//! revisions, with the weather API answering. It has no finding: what it must refuse, it
//! refuses; what it must serve, it serves, within its output schemas.

mod support;

use std::time::Duration;

use mcp_assured::{McpClient, fuzz, mcp_test, prelude::*, wiremock::MockServer};
use support::every_endpoint_answers;
use weather_server::WeatherServer;

#[mcp_test(
    server = [service(WeatherServer::new(backend.uri())), bin("weather-server")],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{backend}"),
    protocol = ["2025-11-25", "2026-07-28"],
    timeout = "60s",
)]
async fn no_input_breaks_the_weather_server(client: McpClient, backend: &MockServer) {
    every_endpoint_answers(backend).await;
    let report = client
        .fuzz()
        .seed(2026)
        .cases(50)
        .call_timeout(Duration::from_secs(5))
        .run()
        .await;
    report.assert().no_findings().all_passed();
    assert!(fuzz::findings(&report).is_empty());
    for tool in ["current_weather", "forecast", "weather_alerts"] {
        let entry = report.entry(&format!("fuzz.tools.{tool}")).unwrap();
        assert_eq!(
            entry.message, "50 valid and 50 invalid inputs, no finding",
            "{report}"
        );
    }
}
