//! The protocol checks against the example server: it passes every one of them, on both
//! revisions; what a revision does not have is skipped.

use mcp_assured::{
    McpClient,
    checks::{AUTH_CHECKS, CheckOptions, HTTP_TRANSPORT_CHECKS, REVISION_2026_CHECKS},
    mcp_test,
    report::Status,
};
use mcp_assured_examples::ExampleServer;
use serde_json::json;

#[mcp_test(
    server = [service(ExampleServer::new()), service(ExampleServer::new().with_page_size(2))],
    protocol = ["2025-11-25", "2026-07-28"],
)]
async fn the_example_server_passes_every_check(client: McpClient) {
    let options = CheckOptions::default().tool_arguments("weather", json!({"city": "Paris"}));
    let report = client.check_with(&options).await;
    assert!(report.is_success(), "{report}");
    let skipped: Vec<&str> = report
        .entries()
        .iter()
        .filter(|check| check.status == Status::Skipped)
        .map(|check| check.name.as_str())
        .collect();
    let mut expected: Vec<&str> = if client.protocol_version() == "2026-07-28" {
        // Removed in 2026-07-28; and in process there is no HTTP.
        vec!["ping", "capabilities.logging", "http.standard_headers"]
    } else {
        REVISION_2026_CHECKS.to_vec()
    };
    // In process: no HTTP transport, no authorization.
    expected.extend(HTTP_TRANSPORT_CHECKS);
    expected.extend(AUTH_CHECKS);
    assert_eq!(skipped, expected, "{report}");
    let names: Vec<&str> = report
        .entries()
        .iter()
        .map(|check| check.name.as_str())
        .collect();
    // The same checks, in the order the skip-on-silence logic assumes.
    assert_eq!(names, mcp_assured::checks::CHECKS);
}
