#![allow(unused)]

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_examples::ExampleServer;
use wiremock::MockServer;

#[mcp_test(server = service(ExampleServer::new()))]
async fn thirteen(
    a: &MockServer,
    b: &MockServer,
    c: &MockServer,
    d: &MockServer,
    e: &MockServer,
    f: &MockServer,
    g: &MockServer,
    h: &MockServer,
    i: &MockServer,
    j: &MockServer,
    k: &MockServer,
    l: &MockServer,
    client: McpClient,
) {
}

fn main() {}
