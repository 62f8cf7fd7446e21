//! The router's suite: the `router` binary over stdio, as its users run it, with MCP
//! doubles for upstreams. A parameter `name: &MockServer` is a double started before the
//! router; `{name}` is its streamable HTTP URI and `{name.command}` the command line of its
//! stdio relay (`mcp-assured relay ADDRESS`), which the router starts as a child process.
//! Here `search` is always reached over HTTP and `files` over stdio.
//!
//! The relay is the `mcp-assured` binary, found beside the test binaries: `cargo test
//! --workspace` builds it; `cargo test -p router` alone needs `cargo build -p
//! mcp-assured-cli` first.

use std::time::{Duration, Instant};

use mcp_assured::{
    Error, McpClient,
    double::{
        Mock, MockServer, Reply,
        matchers::{arguments, bearer_token, tool},
    },
    mcp_test,
    model::{ElicitResult, ElicitationAction},
    prelude::*,
};
use serde_json::{Value, json};

#[mcp_test(server = bin("router"), timeout = "60s")]
mod router {
    use super::*;

    #[mcp_test(
        env(
            ROUTER_UPSTREAM_SEARCH_URL = "{search}",
            ROUTER_UPSTREAM_FILES_COMMAND = "{files.command}",
        ),
        protocol = ["2025-11-25", "2026-07-28"],
    )]
    async fn lists_every_upstreams_tools_under_its_name(
        client: McpClient,
        search: &MockServer,
        files: &MockServer,
    ) {
        search
            .declare_tool(json!({
                "name": "query",
                "description": "Full-text search",
                "inputSchema": {
                    "type": "object",
                    "properties": {"q": {"type": "string"}},
                    "required": ["q"],
                },
            }))
            .await;
        Mock::given(tool("read"))
            .respond_with(Reply::text("# Notes"))
            .mount(files)
            .await;
        let tools = client.list_tools().await.unwrap();
        tools
            .assert()
            .has_count(2)
            .contains_tool("search__query")
            .contains_tool("files__read");
        let query = client.tool("search__query").await.unwrap();
        assert_eq!(query.description.as_deref(), Some("Full-text search"));
        assert_eq!(query.input_schema["required"], json!(["q"]));
    }

    #[mcp_test(
        env(
            ROUTER_UPSTREAM_SEARCH_URL = "{search}",
            ROUTER_UPSTREAM_FILES_COMMAND = "{files.command}",
        ),
        protocol = ["2025-11-25", "2026-07-28"],
    )]
    async fn forwards_each_call_with_its_arguments_to_its_upstream(
        client: McpClient,
        search: &MockServer,
        files: &MockServer,
    ) {
        Mock::given(tool("query"))
            .and(arguments(json!({"q": "rust", "limit": 2})))
            .respond_with(Reply::structured(json!({"hits": 3})))
            .expect(1)
            .mount(search)
            .await;
        Mock::given(tool("read"))
            .and(arguments(json!({"path": "notes.md"})))
            .respond_with(Reply::text("# Notes"))
            .expect(1)
            .mount(files)
            .await;
        client
            .call_tool("search__query", json!({"q": "rust", "limit": 2}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .structured_equals(json!({"hits": 3}));
        client
            .call_tool("files__read", json!({"path": "notes.md"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_equals("# Notes");
        // What the router answered is valid on the session's revision, as the SDKs' clients
        // require: on 2026-07-28 an upstream's result gains the `resultType` it lacked.
        let violations = client.wire_violations();
        assert!(violations.is_empty(), "{violations:#?}");
    }

    #[mcp_test(env(
        ROUTER_UPSTREAM_SEARCH_URL = "{search}",
        ROUTER_UPSTREAM_SEARCH_BEARER_TOKEN = "s3cret-token",
    ))]
    async fn sends_an_http_upstream_its_bearer_token(client: McpClient, search: &MockServer) {
        Mock::given(tool("query"))
            .and(bearer_token("s3cret-token"))
            .respond_with(Reply::text("authorized"))
            .expect(1)
            .mount(search)
            .await;
        client
            .call_tool("search__query", json!({"q": "rust"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_equals("authorized");
        for request in search.received_requests() {
            assert_eq!(
                request.header("authorization"),
                Some("Bearer s3cret-token"),
                "{request} came without the token"
            );
        }
    }

    #[mcp_test(env(ROUTER_UPSTREAM_SEARCH_URL = "{search}"))]
    async fn an_upstream_error_is_a_tool_error_naming_the_upstream(
        client: McpClient,
        search: &MockServer,
    ) {
        Mock::given(tool("query"))
            .respond_with(Reply::error(-32603, "index offline"))
            .expect(1)
            .mount(search)
            .await;
        client
            .call_tool("search__query", json!({"q": "rust"}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_equals(
                "upstream `search` answered tools/call query with error -32603: index offline",
            );
    }

    #[mcp_test(env(ROUTER_UPSTREAM_SEARCH_URL = "{search}"))]
    async fn a_tool_of_no_upstream_is_a_protocol_error(client: McpClient, search: &MockServer) {
        match client.call_tool("weather__today", json!({})).await {
            Err(Error::JsonRpc {
                code,
                message,
                data,
                ..
            }) => {
                // The router contract's words, and what there is in `data`.
                assert_eq!(code, -32602);
                assert_eq!(message, "Tool 'weather__today' not found");
                let data = data.expect("data says what there is");
                assert_eq!(data["upstreams"], json!(["search"]), "{data}");
                assert_eq!(data["http_tools"], json!([]), "{data}");
            }
            other => panic!("expected a JSON-RPC error, got {other:?}"),
        }
        assert!(
            search.received_requests().is_empty(),
            "nothing was forwarded"
        );
    }

    /// The router's timeout is set low: this test is about it. Connecting is not under it.
    #[mcp_test(env(
        ROUTER_UPSTREAM_SEARCH_URL = "{search}",
        ROUTER_CALL_TIMEOUT_MS = "1000",
    ))]
    async fn a_hanging_upstream_is_a_tool_error_after_the_routers_timeout(
        client: McpClient,
        search: &MockServer,
    ) {
        Mock::given(tool("stuck"))
            .respond_with(Reply::hang())
            .expect(1)
            .mount(search)
            .await;
        Mock::given(tool("query"))
            .respond_with(Reply::text("still here"))
            .mount(search)
            .await;
        let started = Instant::now();
        client
            .call_tool("search__stuck", json!({}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_equals(
                "upstream `search` did not answer tools/call stuck within the router's timeout of \
                 1000 ms (ROUTER_CALL_TIMEOUT_MS)",
            );
        assert!(started.elapsed() >= Duration::from_millis(1000));
        // The upstream was only slow: it answers the next call.
        client
            .call_tool("search__query", json!({}))
            .await
            .unwrap()
            .assert()
            .text_equals("still here");
    }

    /// The relay exits with the dropped connection, as a crashed upstream process would; the
    /// router starts it again.
    #[mcp_test(env(ROUTER_UPSTREAM_FILES_COMMAND = "{files.command}"))]
    async fn a_dropped_upstream_is_a_tool_error_and_the_next_call_reconnects(
        client: McpClient,
        files: &MockServer,
    ) {
        Mock::given(tool("read"))
            .respond_with(Reply::drop_connection())
            .up_to_n_times(1)
            .expect(1)
            .mount(files)
            .await;
        Mock::given(tool("read"))
            .respond_with(Reply::text("back"))
            .expect(1)
            .mount(files)
            .await;
        client
            .call_tool("files__read", json!({}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_contains("upstream `files`");
        client
            .call_tool("files__read", json!({}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_equals("back");
    }

    /// Pinned to 2025-11-25: on 2026-07-28 a server tells of changed lists only on a
    /// `subscriptions/listen` stream the client opened, which neither the router nor the double
    /// does; on 2025-11-25 both send `list_changed` unasked.
    #[mcp_test(env(ROUTER_UPSTREAM_SEARCH_URL = "{search}"), protocol = "2025-11-25")]
    async fn an_upstreams_new_tool_is_announced_and_listed(client: McpClient, search: &MockServer) {
        Mock::given(tool("query"))
            .respond_with(Reply::text("hit"))
            .mount(search)
            .await;
        client.list_tools().await.unwrap().assert().has_count(1);
        // A mock naming a new tool makes the double send `notifications/tools/list_changed`.
        Mock::given(tool("suggest"))
            .respond_with(Reply::text("rust"))
            .mount(search)
            .await;
        client
            .wait_for_notification("notifications/tools/list_changed")
            .await
            .unwrap();
        client
            .list_tools()
            .await
            .unwrap()
            .assert()
            .has_count(2)
            .contains_tool("search__suggest");
    }

    /// Pinned to 2025-11-25: 2026-07-28 forbids server→client requests such as
    /// `elicitation/create`.
    #[mcp_test(
        env(ROUTER_UPSTREAM_FILES_COMMAND = "{files.command}"),
        protocol = "2025-11-25",
        client = |builder| builder.on_elicitation(|_params| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
        }),
    )]
    async fn an_upstreams_elicitation_is_answered_by_the_client(
        client: McpClient,
        files: &MockServer,
    ) {
        let question = json!({
            "mode": "form",
            "message": "Delete notes.md?",
            "requestedSchema": {
                "type": "object",
                "properties": {"confirm": {"type": "boolean"}},
                "required": ["confirm"],
            },
        });
        Mock::given(tool("delete"))
            .respond_with(Reply::after_asking(
                "elicitation/create",
                question,
                |answer: Result<Value, String>| match answer {
                    Ok(answer) if answer["content"]["confirm"] == true => Reply::text("deleted"),
                    other => Reply::tool_error(format!("kept: {other:?}")),
                },
            ))
            .expect(1)
            .mount(files)
            .await;
        client
            .call_tool("files__delete", json!({"path": "notes.md"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_equals("deleted");
        let asked = client.server_requests();
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert_eq!(asked[0].method, "elicitation/create");
        assert_eq!(asked[0].params["message"], "Delete notes.md?");
        let answers = files.client_answers();
        assert_eq!(answers[0].answer.as_ref().unwrap()["action"], "accept");
    }
}
