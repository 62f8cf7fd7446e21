#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_examples::ExampleServer;

#[mcp_test(server = service(ExampleServer::new()))]
mod suite {
    use super::*;

    async fn lists_tools(client: McpClient) {
        client.list_tools().await.unwrap();
    }
}

fn main() {}
