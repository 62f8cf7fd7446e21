#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};

#[mcp_test(timeout = "10s")]
async fn lists_tools(client: McpClient) {
    client.list_tools().await.unwrap();
}

fn main() {}
