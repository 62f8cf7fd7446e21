#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};

#[mcp_test(server = command("my-server"), args("--port", "{port}"))]
async fn lists_tools(client: McpClient) {
    client.list_tools().await.unwrap();
}

fn main() {}
