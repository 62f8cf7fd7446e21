//! The client against a server written with the official Python SDK (`mcp` 2.3.0), over
//! stdio, streamable HTTP and HTTP+SSE. What the server does is in
//! `tests/peers/PYTHON-SERVER.md`.

use std::time::{Duration, Instant};

use mcp_assured::{
    McpAssured, code,
    model::{Reference, ResourceContents},
};
use mcp_assured_tests::{Connected, Transport, connect, for_each_transport, peers};
use serde_json::json;

async fn connect(transport: Transport) -> Connected {
    connect::python(transport).await
}

for_each_transport!(
    stdio, streamable_http, sse =>
    reports_server_info,
    lists_tools_with_output_schemas,
    calls_tools_with_structured_output,
    a_tool_error_is_a_result,
    an_unknown_tool_is_a_tool_error_in_this_sdk,
    reads_resources_and_templates,
    an_unknown_resource_is_a_json_rpc_error,
    gets_a_prompt,
    a_prompt_without_its_required_argument_is_an_error,
    completes_a_prompt_argument,
    has_no_logging,
    pings,
);

async fn reports_server_info(transport: Transport) {
    let client = connect(transport).await;
    let info = client.server_info();
    assert_eq!(info.name, "mcp-assured-python-peer");
    assert_eq!(info.version, "1.0.0");
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert!(
        info.instructions
            .as_deref()
            .is_some_and(|i| i.starts_with("Test peer for mcp-assured")),
        "{info:?}"
    );
    assert!(info.capabilities.logging.is_none());
}

async fn lists_tools_with_output_schemas(transport: Transport) {
    let client = connect(transport).await;
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["echo", "add", "divide", "ranked"]);
    let add = client.tool("add").await.unwrap();
    assert_eq!(add.input_schema["required"], json!(["a", "b"]));
    assert_eq!(add.input_schema["properties"]["a"]["type"], "integer");
    let output = add.output_schema.expect("add declares an output schema");
    assert_eq!(output["properties"]["sum"]["type"], "integer");
}

async fn calls_tools_with_structured_output(transport: Transport) {
    let client = connect(transport).await;
    let echo = client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .unwrap();
    assert_eq!(echo.is_error, Some(false));
    assert_eq!(echo.text(), "hi");
    assert_eq!(echo.structured_content, Some(json!({"result": "hi"})));
    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
    let quotient = client
        .call_tool("divide", json!({"a": 1, "b": 4}))
        .await
        .unwrap();
    assert_eq!(quotient.structured_content, Some(json!({"result": 0.25})));
}

async fn a_tool_error_is_a_result(transport: Transport) {
    let client = connect(transport).await;
    let result = client
        .call_tool("divide", json!({"a": 1, "b": 0}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.text(),
        "Error executing tool divide: division by zero"
    );
}

async fn an_unknown_tool_is_a_tool_error_in_this_sdk(transport: Transport) {
    // The Python SDK answers an unknown tool with an `isError` result rather than a JSON-RPC
    // error; the harness reports what the server does.
    let client = connect(transport).await;
    let result = client.call_tool("nope", json!({})).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.text(), "Unknown tool: nope");
}

async fn reads_resources_and_templates(transport: Transport) {
    let client = connect(transport).await;
    let resources = client.list_resources().await.unwrap();
    assert_eq!(resources.len(), 1);
    assert_eq!(resources[0].uri, "python://info");
    let info = client.read_resource("python://info").await.unwrap();
    match &info.contents[..] {
        [
            ResourceContents::TextResourceContents {
                text, mime_type, ..
            },
        ] => {
            assert!(
                text.starts_with("mcp-assured Python peer on Python 3."),
                "{text}"
            );
            assert_eq!(mime_type.as_deref(), Some("text/plain"));
        }
        other => panic!("expected one text content, got {other:?}"),
    }
    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "python://greeting/{name}");
    let greeting = client.read_resource("python://greeting/Ada").await.unwrap();
    match &greeting.contents[..] {
        [ResourceContents::TextResourceContents { text, .. }] => assert_eq!(text, "Hello, Ada!"),
        other => panic!("expected one text content, got {other:?}"),
    }
}

async fn an_unknown_resource_is_a_json_rpc_error(transport: Transport) {
    let client = connect(transport).await;
    let error = client.read_resource("python://nope").await.unwrap_err();
    assert_eq!(error.code(), Some(code::INVALID_PARAMS), "{error}");
    assert!(
        error
            .to_string()
            .contains("Unknown resource: python://nope"),
        "{error}"
    );
}

async fn gets_a_prompt(transport: Transport) {
    let client = connect(transport).await;
    let prompt = client.prompt("summarize").await.unwrap();
    let arguments = prompt.arguments.unwrap();
    assert_eq!(arguments[0].name, "text");
    assert_eq!(arguments[0].required, Some(true));
    assert_eq!(arguments[1].required, Some(false));
    let result = client
        .get_prompt("summarize", json!({"text": "abc", "style": "brief"}))
        .await
        .unwrap();
    let messages = serde_json::to_value(&result.messages).unwrap();
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(
        messages[0]["content"]["text"],
        "Summarize the following text in a brief style:\n\nabc"
    );
}

async fn a_prompt_without_its_required_argument_is_an_error(transport: Transport) {
    let client = connect(transport).await;
    let error = client.get_prompt("summarize", json!({})).await.unwrap_err();
    // The SDK answers with code 0, not INVALID_PARAMS; the harness reports it as sent.
    assert_eq!(error.code(), Some(0), "{error}");
    assert!(
        error.to_string().contains("Missing required arguments"),
        "{error}"
    );
}

async fn completes_a_prompt_argument(transport: Transport) {
    let client = connect(transport).await;
    let done = client
        .complete(Reference::for_prompt("summarize"), "style", "b")
        .await
        .unwrap();
    assert_eq!(done.completion.values, ["brief", "bullet-points"]);
    assert_eq!(done.completion.total, Some(2));
}

#[allow(deprecated)] // logging is SEP-2577-deprecated, and what is tested here
async fn has_no_logging(transport: Transport) {
    use mcp_assured::model::LoggingLevel;
    let client = connect(transport).await;
    let error = client
        .set_logging_level(LoggingLevel::Info)
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(code::METHOD_NOT_FOUND), "{error}");
}

async fn pings(transport: Transport) {
    let client = connect(transport).await;
    client.ping().await.unwrap();
}

/// A request timeout shorter than the interpreter takes to boot does not fail start-up, which
/// has a limit of its own; the short timeout is the requests'.
#[tokio::test]
async fn a_short_request_timeout_does_not_fail_a_slow_start() {
    let short = Duration::from_millis(50);
    let started = Instant::now();
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::python_server_script())
        .timeout(short)
        .build()
        .await
        .unwrap();
    let took = started.elapsed();
    assert!(
        took > short,
        "the server started in {took:?}: too fast to show anything"
    );
    assert_eq!(client.timeout(), short);
    client
        .with_timeout(Duration::from_secs(10))
        .list_tools()
        .await
        .unwrap();
    client.close().await.unwrap();
}
