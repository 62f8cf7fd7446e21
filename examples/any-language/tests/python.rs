//! The Python server (`servers/python/server.py`, on the official Python SDK), started by
//! `#[mcp_test]` over stdio and over streamable HTTP on a port the fixture picks.

use any_language::{PYTHON_SERVER, python};
use mcp_assured::{McpClient, assert_tool_snapshot, mcp_test, prelude::*};
use serde_json::json;

#[mcp_test(
    server = command(python(), PYTHON_SERVER),
    transport = [stdio, http(args("--transport", "streamable-http", "--port", "{port}"))],
)]
async fn converts_miles_to_kilometres(client: McpClient) {
    let result = client
        .call_tool(
            "convert",
            json!({"value": 26.2, "from_unit": "mi", "to_unit": "km"}),
        )
        .await
        .unwrap();
    result
        .assert()
        .is_success()
        .structured_equals(json!({"value": 42.164813, "unit": "km"}));
    let tool = client.tool("convert").await.unwrap();
    result.assert().conforms_to_output_schema(&tool);
    assert_tool_snapshot!(result);
}

#[mcp_test(server = command(python(), PYTHON_SERVER))]
async fn an_unknown_unit_is_a_tool_error_naming_the_known_ones(client: McpClient) {
    client
        .call_tool(
            "convert",
            json!({"value": 1, "from_unit": "m", "to_unit": "furlong"}),
        )
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_contains("unknown unit 'furlong'")
        .text_contains("mm, cm, m, km, in, ft, mi");
}

/// The server's whole surface, snapshotted: a change to a tool's schema, a resource or a
/// prompt shows up as a diff in `cargo insta review`.
#[mcp_test(server = command(python(), PYTHON_SERVER))]
async fn surface(client: McpClient) {
    let tools = client.list_tools().await.unwrap();
    tools
        .assert()
        .has_count(1)
        .tool("convert")
        .requires(["value", "from_unit", "to_unit"])
        .has_property_of_type("value", "number");
    assert_tool_snapshot!("tools", tools);

    let resources = client.list_resources().await.unwrap();
    resources
        .assert()
        .has_count(1)
        .contains_uri("units://lengths");
    assert_tool_snapshot!("resources", resources);

    let prompts = client.list_prompts().await.unwrap();
    prompts
        .assert()
        .prompt("explain")
        .has_argument("value", true)
        .has_argument("to_unit", true);
    assert_tool_snapshot!("prompts", prompts);
}

#[mcp_test(server = command(python(), PYTHON_SERVER))]
async fn reads_the_unit_table_and_gets_the_prompt(client: McpClient) {
    client
        .read_resource("units://lengths")
        .await
        .unwrap()
        .assert()
        .has_text("text/plain")
        .text_contains("mi = 1609.344 m");
    let prompt = client
        .get_prompt(
            "explain",
            json!({"value": "3", "from_unit": "ft", "to_unit": "cm"}),
        )
        .await
        .unwrap();
    prompt
        .assert()
        .has_message_count(1)
        .has_message("user", "Convert 3 ft to cm");
    assert_tool_snapshot!(prompt);
}
