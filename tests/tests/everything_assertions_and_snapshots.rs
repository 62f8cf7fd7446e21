//! Assertions and snapshots against `@modelcontextprotocol/server-everything`. Every snapshot
//! is asserted over stdio and over streamable HTTP against the same file, which proves the
//! server's answers are byte-identical across the two transports.

use mcp_assured::{assert_mcp_snapshot, prelude::*};
use mcp_assured_tests::{Connected, Transport, connect};
use serde_json::json;

const TRANSPORTS: [Transport; 2] = [Transport::Stdio, Transport::StreamableHttp];

/// A client with no server→client capabilities, once the server's session tools are there.
async fn connect(transport: Transport) -> Connected {
    let connected = connect::everything(transport, |builder| builder).await;
    connect::everything_tool_names(&connected, 13).await;
    connected
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_snapshot_is_identical_over_stdio_and_http() {
    for transport in TRANSPORTS {
        let client = connect(transport).await;
        let tools = client.list_tools().await.unwrap();
        tools
            .assert()
            .contains_tool("echo")
            .contains_tool("get-sum")
            .does_not_contain_tool("trigger-sampling-request")
            .tool("get-structured-content")
            .requires(["location"])
            .has_output_schema()
            .has_read_only_hint(true)
            .accepts_arguments(&json!({"location": "Chicago"}))
            .rejects_arguments(&json!({"location": "Paris"}));
        assert_mcp_snapshot!(client, "everything_tools_list", tools);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_call_snapshots_are_identical_over_stdio_and_http() {
    for transport in TRANSPORTS {
        let client = connect(transport).await;

        let echo = client
            .call_tool("echo", json!({"message": "hello"}))
            .await
            .unwrap();
        echo.assert().is_success().text_equals("Echo: hello");
        assert_mcp_snapshot!(client, "everything_echo", echo);

        let sum = client
            .call_tool("get-sum", json!({"a": 2, "b": 3.5}))
            .await
            .unwrap();
        sum.assert()
            .is_success()
            .text_matches(r"^The sum of 2 and 3\.5 is 5\.5\.$");
        assert_mcp_snapshot!(client, "everything_get_sum", sum);

        let image = client.call_tool("get-tiny-image", json!({})).await.unwrap();
        image
            .assert()
            .is_success()
            .has_content_count(3)
            .has_image("image/png");
        assert_mcp_snapshot!(client, "everything_tiny_image", image);

        let tool = client.tool("get-structured-content").await.unwrap();
        let weather = client
            .call_tool("get-structured-content", json!({"location": "Chicago"}))
            .await
            .unwrap();
        weather
            .assert()
            .is_success()
            .conforms_to_output_schema(&tool);
        assert_mcp_snapshot!(client, "everything_structured_content", weather);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assertions_on_resources_prompts_and_errors() {
    let client = connect(Transport::Stdio).await;
    let resources = client.list_resources().await.unwrap();
    resources
        .assert()
        .contains_uri("demo://resource/static/document/architecture.md");
    client
        .read_resource("demo://resource/static/document/architecture.md")
        .await
        .unwrap()
        .assert()
        .has_text("text/markdown");
    client
        .read_resource("demo://resource/dynamic/blob/1")
        .await
        .unwrap()
        .assert()
        .has_blob("text/plain");

    client
        .list_prompts()
        .await
        .unwrap()
        .assert()
        .prompt("args-prompt")
        .has_argument("city", true)
        .has_argument("state", false);
    client
        .get_prompt("args-prompt", json!({"city": "Chicago"}))
        .await
        .unwrap()
        .assert()
        .has_message("user", "Chicago");

    let links = client
        .call_tool("get-resource-links", json!({"count": 2}))
        .await
        .unwrap();
    links.assert().has_resource_link(None).has_content_count(3);
    let reference = client
        .call_tool(
            "get-resource-reference",
            json!({"resourceType": "Text", "resourceId": 1}),
        )
        .await
        .unwrap();
    reference.assert().has_embedded_resource("text/plain");

    client
        .call_tool("nope", json!({}))
        .await
        .unwrap()
        .assert()
        .is_tool_error();
    client
        .request("no/such/method", json!({}))
        .await
        .assert_err()
        .has_code(mcp_assured::code::METHOD_NOT_FOUND);
}
