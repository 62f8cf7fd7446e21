#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_examples::ExampleServer;

#[mcp_test(server = service(ExampleServer::new()))]
async fn lists_tools(client: McpClient, city: String) {
    client.call_tool("weather", serde_json::json!({"city": city})).await.unwrap();
}

fn main() {}
