//! The example test suite: every client feature against the example server, over every
//! transport. Each feature is one function, run once per transport by `for_each_transport!`.

#![allow(deprecated)] // logging, sampling and roots are SEP-2577-deprecated, and tested here

mod support;

use std::time::{Duration, Instant};

use mcp_assured::{Error, code, model::Reference, model::ResourceContents, model::Root};
use mcp_assured_tests::{eventually, for_each_transport};
use serde_json::json;
use support::{Transport, connect, connect_configured, connect_with};

for_each_transport!(
    in_process, stdio, streamable_http, sse =>
    reports_server_info,
    lists_every_tool_with_its_schema,
    echoes,
    returns_structured_output,
    reports_a_tool_error_as_a_result,
    rejects_an_unknown_tool_with_invalid_params,
    lists_and_reads_resources,
    reads_a_resource_template,
    rejects_an_unknown_resource,
    gets_prompts_with_arguments,
    completes_arguments,
    pings,
    records_log_messages_above_the_level,
    collects_progress_of_a_call,
    cancels_a_call,
    a_timed_out_call_is_cancelled,
    notifies_subscribers_of_updates,
    sees_the_tool_list_change,
    checks_arguments_against_the_listed_tools,
    answers_sampling,
    answers_elicitation,
    answers_roots_and_announces_changes,
    follows_pagination,
    sends_raw_requests,
    records_server_requests_it_cannot_answer,
    pins_the_protocol_version,
);

async fn reports_server_info(transport: Transport) {
    let client = connect(transport).await;
    let info = client.server_info();
    assert_eq!(info.name, "mcp-assured-example");
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert_eq!(
        info.instructions.as_deref(),
        Some("Example server for mcp-assured tests.")
    );
    assert!(info.capabilities.tools.is_some());
    assert!(info.capabilities.resources.is_some());
    assert!(info.capabilities.prompts.is_some());
    client.client.close().await.unwrap();
}

async fn lists_every_tool_with_its_schema(transport: Transport) {
    let client = connect(transport).await;
    let names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    for expected in [
        "echo", "add", "weather", "fail", "slow", "progress", "sample",
    ] {
        assert!(
            names.contains(&expected.to_owned()),
            "{expected} missing from {names:?}"
        );
    }
    assert!(!names.contains(&"extra".to_owned()));
    let weather = client.tool("weather").await.unwrap();
    assert_eq!(weather.input_schema["required"], json!(["city"]));
    assert!(weather.output_schema.is_some());
    let annotations = weather.annotations.expect("weather has annotations");
    assert_eq!(annotations.read_only_hint, Some(true));
    let missing = client.tool("nope").await.unwrap_err();
    assert!(
        matches!(&missing, Error::NotFound { kind: "tool", .. }),
        "{missing}"
    );
    assert!(missing.to_string().contains("`echo`"), "{missing}");
}

async fn echoes(transport: Transport) {
    let client = connect(transport).await;
    let result = client
        .call_tool("echo", json!({"message": "hello"}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.text(), "hello");
}

async fn returns_structured_output(transport: Transport) {
    let client = connect(transport).await;
    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
    let weather = client
        .call_tool("weather", json!({"city": "London"}))
        .await
        .unwrap();
    assert_eq!(
        weather.structured_content,
        Some(json!({"city": "London", "temperature": 15, "conditions": "cloudy"}))
    );
}

async fn reports_a_tool_error_as_a_result(transport: Transport) {
    let client = connect(transport).await;
    let result = client.call_tool("fail", json!({})).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.text(),
        "Connection refused: http://localhost:9999/weather"
    );
}

async fn rejects_an_unknown_tool_with_invalid_params(transport: Transport) {
    let client = connect(transport).await;
    let error = client
        .call_tool("unknown-tool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(code::INVALID_PARAMS), "{error}");
    let text = error.to_string();
    assert!(text.contains("-32602 (INVALID_PARAMS)"), "{text}");
    assert!(text.contains("tools/call unknown-tool"), "{text}");
    // The session survives a JSON-RPC error.
    client.ping().await.unwrap();
}

async fn lists_and_reads_resources(transport: Transport) {
    let client = connect(transport).await;
    let uris: Vec<String> = client
        .list_resources()
        .await
        .unwrap()
        .iter()
        .map(|r| r.uri.clone())
        .collect();
    assert!(
        uris.contains(&"example://static/readme".to_owned()),
        "{uris:?}"
    );
    let readme = client
        .read_resource("example://static/readme")
        .await
        .unwrap();
    match &readme.contents[..] {
        [
            ResourceContents::TextResourceContents {
                mime_type, text, ..
            },
        ] => {
            assert_eq!(mime_type.as_deref(), Some("text/markdown"));
            assert!(!text.is_empty());
        }
        other => panic!("expected one text content, got {other:?}"),
    }
    let logo = client
        .read_resource("example://static/logo.png")
        .await
        .unwrap();
    match &logo.contents[..] {
        [
            ResourceContents::BlobResourceContents {
                mime_type, blob, ..
            },
        ] => {
            assert_eq!(mime_type.as_deref(), Some("image/png"));
            assert!(blob.starts_with("iVBOR"), "a base64 PNG: {blob}");
        }
        other => panic!("expected one blob content, got {other:?}"),
    }
}

async fn reads_a_resource_template(transport: Transport) {
    let client = connect(transport).await;
    let templates = client.list_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "example://greeting/{name}"),
        "{templates:?}"
    );
    let greeting = client
        .read_resource("example://greeting/Ada")
        .await
        .unwrap();
    match &greeting.contents[..] {
        [ResourceContents::TextResourceContents { text, .. }] => assert_eq!(text, "Hello, Ada!"),
        other => panic!("expected one text content, got {other:?}"),
    }
}

async fn rejects_an_unknown_resource(transport: Transport) {
    let client = connect(transport).await;
    let error = client
        .read_resource("example://nothing-here")
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(code::RESOURCE_NOT_FOUND), "{error}");
    assert!(
        error.to_string().contains("example://nothing-here"),
        "{error}"
    );
}

async fn gets_prompts_with_arguments(transport: Transport) {
    let client = connect(transport).await;
    let greet = client.prompt("greet").await.unwrap();
    let arguments = greet.arguments.expect("greet has arguments");
    assert!(
        arguments
            .iter()
            .any(|a| a.name == "name" && a.required == Some(true))
    );
    let result = client
        .get_prompt("greet", json!({"name": "Ada", "style": "formal"}))
        .await
        .unwrap();
    let message = serde_json::to_value(&result.messages).unwrap();
    assert_eq!(message[0]["role"], "user");
    assert_eq!(
        message[0]["content"]["text"],
        "Please greet Ada in a formal style."
    );
    let review = client
        .get_prompt(
            "code_review",
            json!({"code": "fn main() {}", "language": "rust"}),
        )
        .await
        .unwrap();
    assert_eq!(review.messages.len(), 2);
    let missing = client.get_prompt("greet", json!({})).await.unwrap_err();
    assert_eq!(missing.code(), Some(code::INVALID_PARAMS), "{missing}");
}

async fn completes_arguments(transport: Transport) {
    let client = connect(transport).await;
    let styles = client
        .complete(Reference::for_prompt("greet"), "style", "f")
        .await
        .unwrap();
    assert_eq!(styles.completion.values, ["formal"]);
    let names = client
        .complete(
            Reference::for_resource("example://greeting/{name}"),
            "name",
            "a",
        )
        .await
        .unwrap();
    assert_eq!(names.completion.values, ["Ada", "Alan"]);
}

async fn pings(transport: Transport) {
    let client = connect(transport).await;
    client.ping().await.unwrap();
}

async fn records_log_messages_above_the_level(transport: Transport) {
    use mcp_assured::model::LoggingLevel;
    let client = connect(transport).await;
    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .unwrap();
    let quiet = client
        .call_tool("log", json!({"level": "info", "message": "too quiet"}))
        .await
        .unwrap();
    assert!(quiet.text().starts_with("not logged"), "{}", quiet.text());
    client
        .call_tool("log", json!({"level": "error", "message": "disk on fire"}))
        .await
        .unwrap();
    let note = client
        .wait_for_notification("notifications/message")
        .await
        .unwrap();
    assert_eq!(note.params["data"], "disk on fire");
    let logs = client.log_messages();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert_eq!(logs[0].level, LoggingLevel::Error);
    assert_eq!(logs[0].text(), "disk on fire");
}

async fn collects_progress_of_a_call(transport: Transport) {
    let client = connect(transport).await;
    let call = client
        .start_call_tool("progress", json!({"steps": 3, "delay_ms": 20}))
        .await
        .unwrap();
    let first = call.wait_for_progress().await.unwrap();
    assert_eq!(first.progress, 1.0);
    assert_eq!(first.total, Some(3.0));
    assert_eq!(first.message.as_deref(), Some("step 1 of 3"));
    let token = serde_json::to_value(call.progress_token()).unwrap();
    let result = call.result().await.unwrap();
    assert_eq!(result.text(), "completed 3 steps");
    let all: Vec<f64> = client
        .progress_notifications()
        .iter()
        .filter(|p| p.progress_token == token)
        .map(|p| p.progress)
        .collect();
    assert_eq!(all, [1.0, 2.0, 3.0]);
}

async fn cancelled_count(client: &mcp_assured::McpClient) -> u64 {
    let result = client
        .call_tool("cancelled_count", json!({}))
        .await
        .unwrap();
    result.text().trim().parse().unwrap()
}

async fn cancels_a_call(transport: Transport) {
    let client = connect(transport).await;
    let before = cancelled_count(&client).await;
    let call = client
        .start_call_tool("slow", json!({"millis": 60_000}))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    call.cancel("the test is done").await.unwrap();
    let counted = eventually(Duration::from_secs(5), || async {
        cancelled_count(&client).await == before + 1
    })
    .await;
    assert!(counted, "the server never saw notifications/cancelled");
}

async fn a_timed_out_call_is_cancelled(transport: Transport) {
    let client = connect(transport).await;
    let before = cancelled_count(&client).await;
    let started = Instant::now();
    let error = client
        .with_timeout(Duration::from_millis(300))
        .call_tool("slow", json!({"millis": 60_000}))
        .await
        .unwrap_err();
    let waited = started.elapsed();
    assert!(error.is_timeout(), "{error}");
    assert!(error.to_string().contains("tools/call slow"), "{error}");
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(3),
        "the timeout fired after {waited:?}"
    );
    let counted = eventually(Duration::from_secs(5), || async {
        cancelled_count(&client).await == before + 1
    })
    .await;
    assert!(
        counted,
        "a timed-out call must send notifications/cancelled"
    );
}

async fn notifies_subscribers_of_updates(transport: Transport) {
    let client = connect(transport).await;
    client.subscribe("example://counter").await.unwrap();
    let touched = client
        .call_tool("touch_resource", json!({"uri": "example://counter"}))
        .await
        .unwrap();
    assert_eq!(touched.text(), "updated");
    let update = client
        .wait_for_notification("notifications/resources/updated")
        .await
        .unwrap();
    assert_eq!(update.params["uri"], "example://counter");
    client.unsubscribe("example://counter").await.unwrap();
    let after = client
        .call_tool("touch_resource", json!({"uri": "example://counter"}))
        .await
        .unwrap();
    assert_eq!(after.text(), "not subscribed");
}

async fn sees_the_tool_list_change(transport: Transport) {
    let client = connect(transport).await;
    client.call_tool("add_tool", json!({})).await.unwrap();
    client
        .wait_for_notification("notifications/tools/list_changed")
        .await
        .unwrap();
    let extra = client.tool("extra").await.unwrap();
    assert_eq!(extra.name, "extra");
    let called = client.call_tool("extra", json!({})).await.unwrap();
    assert_eq!(called.text(), "extra tool called");
}

async fn checks_arguments_against_the_listed_tools(transport: Transport) {
    let client = connect(transport).await;
    let good = client
        .argument_violations("add", &json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    assert_eq!(good, []);
    let wrong = client
        .argument_violations("add", &json!({"a": "one"}))
        .await
        .unwrap();
    let paths: Vec<&str> = wrong.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths.len(), 2, "{wrong:?}");
    assert!(paths.contains(&"/a") && paths.contains(&""), "{wrong:?}");
    let weather = client.listed_tool("weather").await.unwrap();
    assert_eq!(weather.input_schema["required"], json!(["city"]));
    let missing = client
        .argument_violations("nope", &json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&missing, Error::NotFound { kind: "tool", available, .. } if available.contains(&"echo".to_owned())),
        "{missing}"
    );
    // A tool added later is found: its name is not held, so the tools are listed again.
    client.call_tool("add_tool", json!({})).await.unwrap();
    assert_eq!(
        client
            .argument_violations("extra", &json!({}))
            .await
            .unwrap(),
        []
    );
    let rejected = client
        .call_tool_checked("add", json!({"a": 1}))
        .await
        .unwrap_err();
    assert!(matches!(rejected, Error::InvalidInput { .. }), "{rejected}");
}

/// Stops the stdio server under the client, so that any request fails from now on.
fn kill_server(client: &mcp_assured::McpClient) {
    let pid = client.process_id().expect("a stdio client knows its child");
    mcp_assured_tests::processes::kill_hard(pid);
}

#[tokio::test]
async fn argument_checks_reuse_the_listed_tools() {
    let client = connect(Transport::Stdio).await;
    client.list_tools().await.unwrap();
    kill_server(&client);
    // No request: the tools listed are held, and their schemas compiled once.
    for _ in 0..2 {
        let wrong = client
            .argument_violations("echo", &json!({}))
            .await
            .unwrap();
        assert_eq!(wrong.len(), 1, "{wrong:?}");
    }
    assert_eq!(client.listed_tool("echo").await.unwrap().name, "echo");
    // Listing always asks the server.
    let error = client.list_tools().await.unwrap_err();
    assert!(!matches!(error, Error::NotFound { .. }), "{error}");
}

/// `get_tool`, the MCP client contract's `client.getTool(..)`, in-process: the tool's
/// metadata, and for a tool not listed a `NotFound` naming those that are.
#[tokio::test]
async fn get_tool_finds_a_tool_as_the_contract_reads_it() {
    let client = connect(Transport::InProcess).await;
    let weather = client.get_tool("weather").await.unwrap();
    assert_eq!(weather, client.tool("weather").await.unwrap());
    assert!(
        weather
            .description
            .as_deref()
            .is_some_and(|d| d.starts_with("Current weather for a city")),
        "{weather:?}"
    );
    assert_eq!(weather.input_schema["required"], json!(["city"]));
    let missing = client.get_tool("weather-api").await.unwrap_err();
    assert!(
        matches!(&missing, Error::NotFound { kind: "tool", .. }),
        "{missing}"
    );
    assert!(missing.to_string().contains("`weather`"), "{missing}");
}

/// Unlike `listed_tool`, `get_tool` asks the server every time: its answer is never a
/// listing the server may have changed since.
#[tokio::test]
async fn get_tool_asks_the_server_each_time() {
    let client = connect(Transport::Stdio).await;
    assert_eq!(client.get_tool("echo").await.unwrap().name, "echo");
    kill_server(&client);
    assert_eq!(client.listed_tool("echo").await.unwrap().name, "echo");
    let error = client.get_tool("echo").await.unwrap_err();
    assert!(!matches!(error, Error::NotFound { .. }), "{error}");
}

#[tokio::test]
async fn a_tool_list_change_makes_the_listed_tools_stale() {
    let client = connect(Transport::Stdio).await;
    assert_eq!(
        client
            .argument_violations("echo", &json!({"message": "hi"}))
            .await
            .unwrap(),
        []
    );
    client.call_tool("add_tool", json!({})).await.unwrap();
    client
        .wait_for_notification("notifications/tools/list_changed")
        .await
        .unwrap();
    kill_server(&client);
    // `echo` is held, but the list is stale: checking it asks the (dead) server again.
    let error = client
        .argument_violations("echo", &json!({"message": "hi"}))
        .await
        .unwrap_err();
    assert!(!matches!(error, Error::NotFound { .. }), "{error}");
}

async fn answers_sampling(transport: Transport) {
    let client = connect(transport).await;
    let result = client
        .call_tool("sample", json!({"prompt": "what is 2+2?"}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false), "{}", result.text());
    assert_eq!(result.text(), "sampled: what is 2+2?");
    let requests = client.server_requests();
    let sampling = requests
        .iter()
        .find(|r| r.method == "sampling/createMessage")
        .expect("the sampling request is recorded");
    assert!(sampling.answered);
    assert!(client.unanswered_server_requests().is_empty());
}

async fn answers_elicitation(transport: Transport) {
    let client = connect(transport).await;
    let result = client
        .call_tool("elicit", json!({"message": "Who are you?"}))
        .await
        .unwrap();
    assert_eq!(result.text(), r#"action=accept content={"name":"Ada"}"#);
}

async fn answers_roots_and_announces_changes(transport: Transport) {
    let client = connect(transport).await;
    let roots = client.call_tool("roots", json!({})).await.unwrap();
    assert_eq!(roots.text(), "file:///workspace");
    client
        .set_roots([Root::new("file:///a"), Root::new("file:///b")])
        .await
        .unwrap();
    let roots = client.call_tool("roots", json!({})).await.unwrap();
    assert_eq!(roots.text(), "file:///a\nfile:///b");
}

async fn follows_pagination(transport: Transport) {
    let paged = connect_with(transport, Some(4)).await;
    let first = paged.list_tools_page(None).await.unwrap();
    assert_eq!(first.tools.len(), 4);
    let cursor = first.next_cursor.clone().expect("a second page");
    let second = paged.list_tools_page(Some(cursor)).await.unwrap();
    assert_ne!(first.tools[0].name, second.tools[0].name);
    let all = paged.list_tools().await.unwrap();
    let unpaged = connect(transport).await.client.list_tools().await.unwrap();
    assert_eq!(all, unpaged, "every page together is the whole list");
    assert!(all.len() > 8);
}

async fn sends_raw_requests(transport: Transport) {
    let client = connect(transport).await;
    client
        .notify("notifications/custom", json!({"from": "a test"}))
        .await
        .unwrap();
    let tools = client.request("tools/list", json!({})).await.unwrap();
    assert!(
        tools["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{tools}"
    );
    let error = client
        .request("no/such/method", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(code::METHOD_NOT_FOUND), "{error}");
}

async fn records_server_requests_it_cannot_answer(transport: Transport) {
    // No `.on_sampling(..)`: the client does not offer sampling, yet the server asks.
    let client = connect_configured(transport, None, |builder| builder).await;
    let result = client
        .call_tool("sample", json!({"prompt": "hi", "force": true}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true), "{}", result.text());
    let unanswered = client.unanswered_server_requests();
    assert_eq!(unanswered.len(), 1, "{unanswered:?}");
    assert_eq!(unanswered[0].method, "sampling/createMessage");
    assert_eq!(unanswered[0].params["messages"][0]["content"]["text"], "hi");
}

async fn pins_the_protocol_version(transport: Transport) {
    let client = connect_configured(transport, None, |b| b.protocol_version("2025-06-18")).await;
    assert_eq!(client.protocol_version(), "2025-06-18");
    client.ping().await.unwrap();
}
