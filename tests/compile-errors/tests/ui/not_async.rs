#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_examples::ExampleServer;

#[mcp_test(server = service(ExampleServer::new()))]
fn lists_tools(client: McpClient) {
    drop(client);
}

fn main() {}
