//! `#[mcp_test]` driving servers that are not written in Rust: the Python SDK peer and
//! server-everything (Node), each started by the fixture as a child over stdio, streamable
//! HTTP (on a port the fixture picks) and HTTP+SSE.

use mcp_assured::{McpClient, assert_tool_snapshot, fixture::ServerProcess, mcp_test, prelude::*};
use mcp_assured_tests::peers;
use serde_json::json;

/// The Python server takes `--transport` and `--port`: `{port}` is the port the fixture
/// picked, and readiness is awaited by connecting to it.
#[mcp_test(
    protocol = "2025-11-25",
    server = command(peers::python(), peers::python_server_script()),
    transport = [
        stdio,
        http(args("--transport", "streamable-http", "--port", "{port}")),
        sse(args("--transport", "sse", "--port", "{port}")),
    ],
    timeout = "120s",
)]
async fn python_server(client: McpClient, server: &ServerProcess) {
    assert!(server.pid().is_some());
    assert_eq!(client.server_info().name, "mcp-assured-python-peer");
    let result = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    result.assert().is_success().json_at("/sum", 5);
    assert_tool_snapshot!(result);
    client
        .call_tool("nope", json!({}))
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_contains("Unknown tool");
}

/// server-everything takes the transport as its first argument and the port from `PORT`,
/// which the fixture sets when no argument mentions `{port}`.
#[mcp_test(
    server = command(peers::node(), peers::server_everything()),
    transport = [stdio(args("stdio")), http(args("streamableHttp")), sse(args("sse"))],
    timeout = "120s",
)]
async fn server_everything(client: &McpClient) {
    assert_eq!(client.server_info().name, "mcp-servers/everything");
    client
        .call_tool("echo", json!({"message": "from #[mcp_test]"}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_equals("Echo: from #[mcp_test]");
}
