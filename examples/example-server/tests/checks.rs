//! The protocol checks against the example server: it passes every one of them.

use mcp_assured::{McpClient, checks::CheckOptions, mcp_test};
use mcp_assured_examples::ExampleServer;
use serde_json::json;

#[mcp_test(server = [service(ExampleServer::new()), service(ExampleServer::new().with_page_size(2))])]
async fn the_example_server_passes_every_check(client: McpClient) {
    let options = CheckOptions::default().tool_arguments("weather", json!({"city": "Paris"}));
    let report = client.check_with(&options).await;
    assert!(report.is_success(), "{report}");
    assert_eq!(report.skipped(), 0, "{report}");
    let names: Vec<&str> = report
        .entries()
        .iter()
        .map(|check| check.name.as_str())
        .collect();
    // The same checks, in the order the skip-on-silence logic assumes.
    assert_eq!(names, mcp_assured::checks::CHECKS);
}
