#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_examples::ExampleServer;

#[mcp_test(server = service(ExampleServer::new()))]
async fn lists_tools((a, b): (McpClient, McpClient)) {
    drop((a, b));
}

fn main() {}
