//! The `mcp-assured` binary itself, over stdio and over streamable HTTP, driven by an MCP
//! client: testing our example server and server-everything (Node) over stdio and HTTP, and
//! staying up through malformed requests.

mod support;

use mcp_assured::{
    McpClient,
    fixture::{BoxError, Fixture, FixtureContext, ServerProcess},
    mcp_test,
};
use mcp_assured_tests::{
    Transport, example_server_binary, peers, processes::assert_running, server,
};
use serde_json::json;

use support::{envelope, fails, ok};

/// server-everything over streamable HTTP on a port of its own; `{everything}` is its URL.
#[derive(Debug)]
struct EverythingHttp {
    url: String,
}

impl Fixture for EverythingHttp {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let server = server::everything(Transport::StreamableHttp).await;
        let url = server.url().expect("an HTTP server").to_owned();
        ctx.defer(async move {
            server.stop().await;
        });
        Ok(Self { url })
    }
}

#[mcp_test(
    server = bin("mcp-assured"),
    args("serve"),
    transport = [stdio, http(args("--transport", "http", "--port", "{port}"))],
    timeout = "120s",
)]
mod through_the_binary {
    use super::*;

    #[mcp_test]
    async fn tests_the_example_server_over_stdio(client: McpClient) {
        assert_eq!(client.server_info().name, "mcp-assured");
        let connected = ok(
            &client,
            "connect_to_server",
            json!({"command": example_server_binary()}),
        )
        .await;
        assert_eq!(connected["connection"]["transport"], json!("stdio"));
        let tools = ok(&client, "list_tools", json!({})).await;
        assert!(tools["metadata"]["total_tools"].as_u64().unwrap() >= 10);
        let echoed = ok(
            &client,
            "call_tool",
            json!({"name": "echo", "arguments": {"message": "through the binary"}}),
        )
        .await;
        assert_eq!(
            echoed["tool_call"]["result"]["content"][0]["text"],
            json!("through the binary")
        );
        let readme = ok(
            &client,
            "read_resource",
            json!({"uri": "example://static/readme"}),
        )
        .await;
        assert_eq!(readme["resource"]["mimeType"], json!("text/markdown"));
        ok(
            &client,
            "get_prompt",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
        .await;
        ok(&client, "disconnect", json!({})).await;
    }

    #[mcp_test]
    async fn tests_server_everything_over_stdio_and_http(
        client: McpClient,
        everything: &EverythingHttp,
    ) {
        ok(
            &client,
            "connect_to_server",
            json!({
                "command": peers::node(),
                "args": [peers::server_everything(), "stdio"],
                "name": "stdio",
            }),
        )
        .await;
        ok(
            &client,
            "connect_to_server",
            json!({"url": everything.url, "name": "http"}),
        )
        .await;
        for connection in ["stdio", "http"] {
            let called = ok(
                &client,
                "call_tool",
                json!({"name": "echo", "arguments": {"message": "hi"}, "connection": connection}),
            )
            .await;
            assert_eq!(
                called["connection"]["server_info"]["name"],
                json!("mcp-servers/everything")
            );
            assert_eq!(
                called["tool_call"]["result"]["content"][0]["text"],
                json!("Echo: hi")
            );
            let resources = ok(&client, "list_resources", json!({"connection": connection})).await;
            assert!(resources["metadata"]["total_resources"].as_u64().unwrap() > 0);
            let prompts = ok(&client, "list_prompts", json!({"connection": connection})).await;
            assert!(prompts["metadata"]["total_prompts"].as_u64().unwrap() > 0);
        }
        let listed = ok(&client, "list_connections", json!({})).await;
        assert_eq!(listed["metadata"]["total_connections"], json!(2));
    }

    #[mcp_test]
    async fn stays_up_through_malformed_requests(client: McpClient, server: &ServerProcess) {
        let pid = server.pid().expect("a child process");
        let huge = "é".repeat(500_000);
        for args in [
            json!({}),
            json!({"url": 1}),
            json!({"url": huge}),
            json!({"command": ["not", "a", "string"]}),
            json!({"command": "sh", "args": "not a list"}),
            json!({"url": "http://127.0.0.1:1/mcp", "headers": {"X": 1}}),
        ] {
            let answer = envelope(&client, "connect_to_server", args).await;
            assert_eq!(answer["success"], json!(false));
        }
        for _ in 0..20 {
            fails(
                &client,
                "call_tool",
                json!({"name": "x", "arguments": {}}),
                "not_connected",
            )
            .await;
        }
        // Calls of tools the companion lacks, and raw requests it does not know.
        assert!(client.call_tool("nope", json!({})).await.is_err());
        assert!(client.request("no/such/method", json!({})).await.is_err());
        client.list_tools().await.unwrap();
        assert_eq!(server.pid(), Some(pid));
        assert_running(pid);
        ok(&client, "get_connection_status", json!({})).await;
    }
}
