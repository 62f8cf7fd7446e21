//! Snapshots of the example server's answers. Each is asserted over two transports against
//! the same snapshot file, which proves the answers are byte-identical across transports.
//! Review changes with `cargo insta review`.

#![allow(deprecated)]

mod support;

use mcp_assured::assert_mcp_snapshot;
use serde_json::json;
use support::{Transport, connect};

const TRANSPORTS: [Transport; 2] = [Transport::InProcess, Transport::Stdio];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_is_the_same_over_every_transport() {
    for transport in TRANSPORTS {
        let client = connect(transport).await;
        let tools = client.list_tools().await.unwrap();
        assert_mcp_snapshot!(client, "example_tools_list", tools);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_results_are_the_same_over_every_transport() {
    for transport in TRANSPORTS {
        let client = connect(transport).await;
        let weather = client
            .call_tool("weather", json!({"city": "London"}))
            .await
            .unwrap();
        assert_mcp_snapshot!(client, "weather_london", weather);
        let failure = client.call_tool("fail", json!({})).await.unwrap();
        assert_mcp_snapshot!(client, "fail_default", failure);
        let logo = client
            .read_resource("example://static/logo.png")
            .await
            .unwrap();
        assert_mcp_snapshot!(client, "logo_resource", logo);
        let prompt = client
            .get_prompt(
                "code_review",
                json!({"code": "fn main() {}", "language": "rust"}),
            )
            .await
            .unwrap();
        assert_mcp_snapshot!(client, "code_review_prompt", prompt);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_info_is_pinned_with_its_protocol_version() {
    let client = connect(Transport::InProcess).await;
    assert_mcp_snapshot!(client, "server_info", client.server_info().clone());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tests_own_insta_settings_apply() {
    let client = connect(Transport::InProcess).await;
    let weather = client
        .call_tool("weather", json!({"city": "Paris"}))
        .await
        .unwrap();
    let mut settings = insta::Settings::clone_current();
    settings.add_redaction(".structuredContent.temperature", "[temperature]");
    settings.add_filter(r"\\?\x22temperature\\?\x22:\s?\d+", "[temperature-in-text]");
    settings.bind(|| assert_mcp_snapshot!(client, "weather_paris_redacted", weather));
}
