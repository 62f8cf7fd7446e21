//! The router contract (`mcpassured-client-contract.md`), as its example reads: an HTTP tool
//! registered at run time through the router's admin API (`registerTool`), pointing at a mock
//! HTTP backend (wiremock), then listed and called over MCP while the mock records the
//! request; a backend that refuses the connection, and a tool nobody serves, in the
//! contract's own words. The router is the `router` binary over stdio, as its users run it,
//! with `ROUTER_ADMIN_ADDR` set.

use mcp_assured::{
    Error, McpClient,
    fixture::{BoxError, Fixture, FixtureContext, free_port},
    mcp_test,
    prelude::*,
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path},
    },
};
use router::{AdminClient, HttpToolConfig};
use serde_json::json;

/// The router's admin API: `{admin}` is the address it is told to listen on, and the
/// fixture is its client (the contract's `routerClient`).
struct Admin {
    address: String,
    client: AdminClient,
}

impl Fixture for Admin {
    async fn setup(_ctx: &mut FixtureContext<'_>) -> Result<Admin, BoxError> {
        let address = format!("127.0.0.1:{}", free_port()?);
        Ok(Admin {
            client: AdminClient::new(format!("http://{address}")),
            address,
        })
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.address.clone())
    }
}

impl std::ops::Deref for Admin {
    type Target = AdminClient;
    fn deref(&self) -> &AdminClient {
        &self.client
    }
}

/// A tool as the contract's listing shows it: `weather-api`, its description, `city`
/// required.
fn weather_api(uri: String) -> HttpToolConfig {
    HttpToolConfig::new("weather-api", uri)
        .description("Get weather data from external API")
        .input_schema(json!({
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name"}},
            "required": ["city"],
        }))
}

#[mcp_test(server = bin("router"), env(ROUTER_ADMIN_ADDR = "{admin}"), timeout = "60s")]
mod register_tool {
    use super::*;

    /// The contract's "MockHttpServer Integration", step by step.
    #[mcp_test]
    async fn a_registered_http_tool_is_listed_and_called_through_to_its_backend(
        client: McpClient,
        admin: &Admin,
        backend: &MockServer,
    ) {
        Mock::given(method("GET"))
            .and(path("/weather"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_string(r#"{"temperature": 15, "conditions": "cloudy"}"#)
                    .insert_header("Content-Type", "application/json"),
            )
            .expect(1)
            .mount(backend)
            .await;
        admin
            .register_tool(weather_api(format!("{}/weather", backend.uri())))
            .await
            .unwrap();

        // assertThat(tools).hasSize(1); name, description, required.
        let tools = client.list_tools().await.unwrap();
        tools.assert().has_count(1).contains_tool("weather-api");
        let tool = client.tool("weather-api").await.unwrap();
        assert_eq!(
            tool.description.as_deref(),
            Some("Get weather data from external API")
        );
        assert_eq!(tool.input_schema["required"], json!(["city"]));

        // callTool("weather-api", {city: London}): not an error, its content the backend's.
        let result = client
            .call_tool("weather-api", json!({"city": "London"}))
            .await
            .unwrap();
        result.assert().is_success().text_contains("temperature");
        let body: serde_json::Value = serde_json::from_str(&result.text()).unwrap();
        assert_eq!(body["temperature"], 15);

        // The mock received the request: GET /weather, the arguments as the query.
        let requests = backend.received_requests().await.unwrap();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].url.path(), "/weather");
        assert_eq!(requests[0].method.as_str(), "GET");
        assert_eq!(requests[0].url.query(), Some("city=London"));
    }

    /// `callTool("unreachable-api", ..)`: a tool error whose text says `Connection refused`.
    #[mcp_test]
    async fn an_unreachable_backend_is_a_tool_error_saying_connection_refused(
        client: McpClient,
        admin: &Admin,
    ) {
        let closed = format!("http://127.0.0.1:{}/weather", free_port().unwrap());
        admin
            .register_tool(HttpToolConfig::new("unreachable-api", closed.clone()))
            .await
            .unwrap();
        let result = client
            .call_tool("unreachable-api", json!({}))
            .await
            .unwrap();
        result
            .assert()
            .is_tool_error()
            .text_contains("Connection refused");
        assert_eq!(result.text(), format!("Connection refused: {closed}"));
    }

    /// Where the contract has SSE at `/mcp/sse`, the router serves its one client over stdio
    /// (`docs/seed-differences.md`): the client here speaks to it over the process's stdin
    /// and stdout, and its only HTTP listener, the admin API, serves no MCP, over SSE or
    /// streamable HTTP.
    #[mcp_test]
    async fn the_router_serves_its_client_over_stdio_not_sse(client: McpClient, admin: &Admin) {
        assert_eq!(client.server_info().name, "router");
        assert!(client.list_tools().await.unwrap().is_empty());
        let http = reqwest::Client::new();
        let base = format!("http://{}", admin.address);
        let sse = http
            .get(format!("{base}/mcp/sse"))
            .header("accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        assert_eq!(sse.status(), 404, "GET /mcp/sse");
        for path in ["/mcp", "/sse", "/message"] {
            let post = http
                .post(format!("{base}{path}"))
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
                .send()
                .await
                .unwrap();
            assert_eq!(post.status(), 404, "POST {path}");
        }
    }

    /// A tool nobody serves: -32602, `Tool 'unknown-tool' not found`.
    #[mcp_test]
    async fn an_unknown_tool_is_refused_in_the_contracts_words(client: McpClient, admin: &Admin) {
        assert!(admin.tools().await.unwrap().is_empty());
        match client.call_tool("unknown-tool", json!({})).await {
            Err(Error::JsonRpc { code, message, .. }) => {
                assert_eq!(code, -32602);
                assert_eq!(message, "Tool 'unknown-tool' not found");
            }
            other => panic!("expected -32602, got {other:?}"),
        }
    }

    /// Registering tells the client its tools changed; a removed tool is no longer listed
    /// (`doesNotContain("removed-tool")`), and calling it is refused.
    #[mcp_test(protocol = "2025-11-25")]
    async fn a_removed_tool_is_gone_and_each_change_is_announced(
        client: McpClient,
        admin: &Admin,
        backend: &MockServer,
    ) {
        admin
            .register_tool(
                HttpToolConfig::new("removed-tool", format!("{}/echo", backend.uri()))
                    .method("post"),
            )
            .await
            .unwrap();
        client
            .wait_for_notification("notifications/tools/list_changed")
            .await
            .unwrap();
        client
            .list_tools()
            .await
            .unwrap()
            .assert()
            .contains_tool("removed-tool");
        assert_eq!(admin.tools().await.unwrap().len(), 1);
        admin.remove_tool("removed-tool").await.unwrap();
        let names: Vec<String> = client
            .list_tools()
            .await
            .unwrap()
            .iter()
            .map(|tool| tool.name.to_string())
            .collect();
        assert!(!names.contains(&"removed-tool".to_owned()), "{names:?}");
        assert!(client.call_tool("removed-tool", json!({})).await.is_err());
        let again = admin.remove_tool("removed-tool").await.unwrap_err();
        assert!(again.contains("404"), "{again}");
    }

    /// A POST tool sends its arguments as a JSON body; an error status is a tool error
    /// naming it; a config that is wrong is refused with its reason.
    #[mcp_test]
    async fn a_post_tool_sends_json_and_an_error_status_is_a_tool_error(
        client: McpClient,
        admin: &Admin,
        backend: &MockServer,
    ) {
        Mock::given(method("POST"))
            .and(path("/orders"))
            .respond_with(ResponseTemplate::new(503).set_body_string("down for maintenance"))
            .mount(backend)
            .await;
        admin
            .register_tool(
                HttpToolConfig::new("order", format!("{}/orders", backend.uri())).method("POST"),
            )
            .await
            .unwrap();
        let result = client
            .call_tool("order", json!({"item": "tea", "count": 2}))
            .await
            .unwrap();
        result
            .assert()
            .is_tool_error()
            .text_contains("HTTP 503 from ")
            .text_contains("down for maintenance");
        let requests = backend.received_requests().await.unwrap();
        let sent: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
        assert_eq!(sent, json!({"item": "tea", "count": 2}));
        let refused = admin
            .register_tool(HttpToolConfig::new("bad", "ftp://example.com/x"))
            .await
            .unwrap_err();
        assert!(
            refused.contains("400") && refused.contains("http(s)"),
            "{refused}"
        );
    }
}
