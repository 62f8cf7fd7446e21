//! The TypeScript server (`servers/typescript/src/server.ts`, on the official TypeScript
//! SDK), compiled by its own `npm run build` and started by `#[mcp_test]` with `node`.

use any_language::typescript_server;
use mcp_assured::{McpClient, assert_tool_snapshot, mcp_test, prelude::*};
use serde_json::json;

#[mcp_test(server = command("node", typescript_server()))]
async fn counts_words(client: McpClient) {
    let result = client
        .call_tool("word_count", json!({"text": "The cat and the hat"}))
        .await
        .unwrap();
    result
        .assert()
        .is_success()
        .structured_equals(json!({"words": 5, "distinct": 4}));
    let tool = client.tool("word_count").await.unwrap();
    result.assert().conforms_to_output_schema(&tool);
    assert_tool_snapshot!(result);
}

#[mcp_test(server = command("node", typescript_server()))]
async fn slugifies_titles_and_refuses_empty_slugs(client: McpClient) {
    client
        .call_tool("slugify", json!({"title": "Crème Brûlée: A History"}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_equals("creme-brulee-a-history");
    client
        .call_tool("slugify", json!({"title": "!!!"}))
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_contains("has no letters or digits");
}

/// The server's whole surface, snapshotted: tools with their schemas, the resource, the
/// template and the prompt.
#[mcp_test(server = command("node", typescript_server()))]
async fn surface(client: McpClient) {
    let tools = client.list_tools().await.unwrap();
    tools
        .assert()
        .has_count(2)
        .contains_tool("word_count")
        .tool("slugify")
        .requires(["title"]);
    assert_tool_snapshot!("tools", tools);

    let resources = client.list_resources().await.unwrap();
    resources
        .assert()
        .has_count(1)
        .contains_uri("text://stopwords");
    assert_tool_snapshot!("resources", resources);
    assert_tool_snapshot!("templates", client.list_resource_templates().await.unwrap());

    let prompts = client.list_prompts().await.unwrap();
    prompts
        .assert()
        .prompt("proofread")
        .has_argument("text", true)
        .has_argument("tone", false);
    assert_tool_snapshot!("prompts", prompts);
}

#[mcp_test(server = command("node", typescript_server()))]
async fn reads_resources_and_gets_the_prompt(client: McpClient) {
    client
        .read_resource("text://reversed/stressed")
        .await
        .unwrap()
        .assert()
        .text_contains("desserts");
    client
        .read_resource("text://stopwords")
        .await
        .unwrap()
        .assert()
        .has_text("text/plain")
        .text_contains("the");
    let prompt = client
        .get_prompt(
            "proofread",
            json!({"text": "Their going.", "tone": "friendly"}),
        )
        .await
        .unwrap();
    prompt.assert().has_message("user", "in a friendly tone");
    assert_tool_snapshot!(prompt);
}
