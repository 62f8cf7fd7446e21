#![allow(unused_imports)]

use mcp_assured::{McpClient, mcp_test, wiremock::MockServer};

#[mcp_test(server = command("my-server"), env(API_URL = "{bakend}/v1"))]
async fn calls_the_backend(client: McpClient, backend: &MockServer) {
    drop((client, backend));
}

fn main() {}
